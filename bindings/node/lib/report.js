'use strict';
// A C report for one call, and its findings and instructions as plain objects.
const koffi = require('koffi');
const {
  T, C, FIX_UNSAFE, severityName, keywordName, fixSafetyName,
} = require('./ffi');
const { checkStatus } = require('./errors');
const { decodeString } = require('./inputs');
const { applyFixes } = require('./fixes');

function diagFrom(ptr) {
  const d = koffi.decode(ptr, T.boxlint_diag);
  let fix = null;
  if (d.fix) {
    const f = koffi.decode(d.fix, T.boxlint_fix);
    const unsafe = f.safety === FIX_UNSAFE;
    fix = {
      offset: Number(f.offset), length: Number(f.length),
      text: decodeString(f.text, f.text_len), description: f.description,
      unsafe, applicability: fixSafetyName(f.safety),
    };
  }
  return {
    rule: d.rule, severity: severityName(d.severity),
    command: d.command < 0 ? null : d.command,
    line: d.line, column: d.column, endLine: d.end_line, endColumn: d.end_column,
    offset: Number(d.offset), endOffset: Number(d.end_offset),
    path: d.path, message: d.message, hint: d.hint, fix, detail: d.detail,
  };
}

function collect(r) {
  const out = [];
  for (let i = 0, n = C.diag_count(r); i < n; i++) out.push(diagFrom(C.diag(r, i)));
  return out;
}

function instructions(r) {
  const out = [];
  for (let i = 0, n = C.instruction_count(r); i < n; i++) {
    const ins = koffi.decode(C.instruction(r, i), T.boxlint_instruction);
    out.push({
      index: i, keyword: keywordName(ins.keyword), trigger: keywordName(ins.trigger),
      line: ins.line, endLine: ins.end_line,
    });
  }
  return out;
}

function withReport(fn) {
  const out = [null];
  checkStatus(C.report_new(out, null), 'boxlint_report_new');
  try {
    return fn(out[0]);
  } finally {
    C.report_free(out[0]);
  }
}

function result(diagnostics, instr) {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  return {
    diagnostics,
    instructions: instr,
    errors,
    warnings: diagnostics.filter((d) => d.severity === 'warning'),
    ok: errors.length === 0,
  };
}

/** A result whose positions and fixes are in the checked text (checkPython, checkFragment):
 *  it gets fixed(text, opts), not enumerable, so results still compare as plain objects. Safe
 *  fixes only unless opts.unsafeFixes, as applyFixes. */
function fileResult(diagnostics, instr) {
  const r = result(diagnostics, instr);
  Object.defineProperty(r, 'fixed', {
    value: (text, opts) => applyFixes(text, r.diagnostics, opts).text, enumerable: false,
  });
  return r;
}

module.exports = {
  diagFrom,
  collect,
  instructions,
  withReport,
  result,
  fileResult,
};

'use strict';
// The checks: commands, fragments, templates, Python source files and agent bindings.
const {
  C, ESYNTAX, TEMPLATE_FIELDS, BINDING_FIELDS, DEFAULT_UNMATCHED,
} = require('./ffi');
const { ValidationError, checkStatus } = require('./errors');
const {
  typeName, EMPTY, span, encodeList, number, textBuffer, spell, bindingNumber,
} = require('./inputs');
const { makeOptions, configPtr } = require('./config');
const { collect, instructions, withReport, result, fileResult } = require('./report');
const {
  NetworkPolicy, policySpec, policyArgs, policyOptions, compilePolicy,
} = require('./policy');

/** Check a template's commands (one Dockerfile instruction per string). */
function checkCommands(commands, { config = null, options = null } = {}) {
  const bufs = encodeList(commands, 'commands');
  const cp = configPtr(config);
  const opts = makeOptions(options, cp);
  return withReport((r) => {
    checkStatus(C.check_commands(r, bufs.map(span), bufs.length, opts), 'boxlint_check_commands');
    return result(collect(r), instructions(r));
  });
}

/** Check a Dockerfile fragment (split as BuildKit does; positions are file positions). */
function checkFragment(text, { config = null, options = null } = {}) {
  const b = textBuffer(text, 'text');
  const cp = configPtr(config);
  const opts = makeOptions(options, cp);
  return withReport((r) => {
    checkStatus(C.check_fragment(r, b.length ? b : EMPTY, b.length, opts), 'boxlint_check_fragment');
    return fileResult(collect(r), instructions(r));
  });
}

/**
 * Check a template as the platform receives it: {name, commands, cpu_count, memory_mb,
 * network_policy}. Absent (or null) fields are missing-field errors; any other key is an
 * unknown field (warning, with the nearest known key), so checkTemplate(JSON.parse(file))
 * checks a template file as the CLI does.
 */
function checkTemplate(template, { config = null, options = null } = {}) {
  if (template === null || typeof template !== 'object' || Array.isArray(template)) {
    throw new TypeError(`template must be an object, not ${typeName(template)}`);
  }
  const keep = [];
  const tpl = {
    name: span(EMPTY.subarray(0, 0)), has_name: 0, commands: null, ncommands: 0,
    has_commands: 0, cpu_count: number('cpu_count', template.cpu_count),
    memory_mb: number('memory_mb', template.memory_mb), extra_fields: null, nextra_fields: 0,
  };
  if (template.name !== undefined && template.name !== null) {
    if (typeof template.name !== 'string') {
      throw new TypeError(`name must be a string, not ${typeName(template.name)}`);
    }
    const b = Buffer.from(template.name, 'utf8');
    keep.push(b);
    tpl.name = span(b);
    tpl.has_name = 1;
  }
  if (template.commands !== undefined && template.commands !== null) {
    const bufs = encodeList(template.commands, 'commands');
    keep.push(...bufs);
    tpl.commands = bufs.length ? bufs.map(span) : null;
    tpl.ncommands = bufs.length;
    tpl.has_commands = 1;
  }
  const extra = Object.keys(template).filter((k) => !TEMPLATE_FIELDS.has(k))
    .map((k) => Buffer.from(k, 'utf8'));
  tpl.extra_fields = extra.length ? extra.map(span) : null;
  tpl.nextra_fields = extra.length;

  const policy = policyInput(template.network_policy);
  const cp = configPtr(config);
  const opts = makeOptions(options, cp);
  return withReport((r) => {
    checkStatus(C.check_template(r, tpl, opts), 'boxlint_check_template');
    const instr = instructions(r);
    if (policy) C.policy_free(compilePolicy(policy.spec, r, { ...policy.args, config: cp }));
    return result(collect(r), instr);
  });
}

/** checkTemplate, throwing ValidationError (with .errors) when the platform would reject it. */
function validateTemplate(template, opts) {
  const r = checkTemplate(template, opts);
  if (!r.ok) throw new ValidationError(r.diagnostics);
  return r;
}

/** A network_policy field: its spec and policy options ({unmatched, compat, maxEntries}); a
 *  compiled NetworkPolicy keeps its own options and is checked again under the call's config.
 *  null when absent. */
function policyInput(np) {
  if (np instanceof NetworkPolicy) {
    np._use(); // a closed policy throws here
    return { spec: np._spec, args: np._args };
  }
  return np === undefined || np === null ? null : { spec: policySpec(np), args: {} };
}

/**
 * Check the SDK calls of a Python source file (templates.create/update, add_code_interpreter,
 * NetworkPolicy(...)) whose arguments are literals, as the CLI checks a .py file. Positions are
 * in the file (column in code points at the offending character inside the literal, offset in
 * UTF-8 bytes); fixes are edits of the file: apply them with result.fixed(text) or applyFixes.
 * A file that is not valid Python does not throw: the result holds one python-syntax error.
 */
function checkPython(source, { config = null, options = null, compat = null,
  unmatched = DEFAULT_UNMATCHED, maxEntries = 0 } = {}) {
  const b = textBuffer(source, 'source');
  const cp = configPtr(config);
  const popts = policyOptions({ ...policyArgs({ compat, unmatched, maxEntries }), config: cp });
  const opts = makeOptions(options, cp);
  return withReport((r) => {
    const st = C.check_python(r, b.length ? b : EMPTY, b.length, opts, popts);
    if (st !== ESYNTAX) checkStatus(st, 'boxlint_check_python'); // ESYNTAX: python-syntax
    return fileResult(collect(r), instructions(r));
  });
}

/**
 * Check an agent binding as agents.add_code_interpreter sends it: {template_id, version,
 * lifespan_seconds, network_policy}. null/undefined is absent (template_id: missing-field;
 * version, lifespan_seconds: the SDK's defaults). Values of the wrong type are findings, not
 * exceptions: a template_id that is not a string and a number that is not an integer are
 * passed spelt as JSON ("1", 2.5, true). Any other key is an unknown-field warning.
 */
function checkBinding(binding, { config = null, options = null } = {}) {
  if (binding === null || typeof binding !== 'object' || Array.isArray(binding)) {
    throw new TypeError(`binding must be an object, not ${typeName(binding)}`);
  }
  const keep = [];
  const b = {
    template_id: span(EMPTY.subarray(0, 0)), has_template_id: 0, template_id_not_string: 0,
    template_text: null, version: bindingNumber(binding.version),
    lifespan_seconds: bindingNumber(binding.lifespan_seconds), extra_fields: null,
    nextra_fields: 0,
  };
  const tid = binding.template_id;
  if (tid !== undefined && tid !== null) {
    b.has_template_id = 1;
    if (typeof tid === 'string') {
      const tb = Buffer.from(tid, 'utf8');
      keep.push(tb);
      b.template_id = span(tb);
    } else {
      b.template_id_not_string = 1;
      b.template_text = spell(tid);
    }
  }
  const extra = Object.keys(binding).filter((k) => !BINDING_FIELDS.has(k))
    .map((k) => Buffer.from(k, 'utf8'));
  b.extra_fields = extra.length ? extra.map(span) : null;
  b.nextra_fields = extra.length;
  const policy = policyInput(binding.network_policy);
  const cp = configPtr(config);
  const opts = makeOptions(options, cp);
  return withReport((r) => {
    checkStatus(C.check_binding(r, b, opts), 'boxlint_check_binding');
    if (policy) C.policy_free(compilePolicy(policy.spec, r, { ...policy.args, config: cp }));
    return result(collect(r), []);
  });
}

module.exports = {
  checkCommands,
  checkFragment,
  checkTemplate,
  validateTemplate,
  checkPython,
  checkBinding,
};

'use strict';
/**
 * checkFile: a file checked exactly as the command, the editor server and the pre-commit hooks
 * check it. Which files are templates, bindings, policies, fragments or Python code, which
 * .boxlint.json applies (its severities and "fragments"), which suppression comments hold and
 * where each finding is in the file are decided once, by the command: checkFile runs the
 * command this package carries (prebuilds/<platform>/boxlint; $BOXLINT_COMMAND when set, else
 * `boxlint` on PATH) with `--format json --force-exclude` and reads its document back, so its
 * answer cannot differ from theirs. A file the command would pass over in a directory
 * (package.json, an ordinary Dockerfile, an excluded or git-ignored path) gives an empty
 * result with `checked` false. The WebAssembly backend runs the WebAssembly build of the same
 * command instead (checkFileWith, lib/wasm_api.js).
 */
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { platformDir } = require('../platform');
const { BoxlintError } = require('./error_classes');

function command() {
  if (process.env.BOXLINT_COMMAND) return process.env.BOXLINT_COMMAND;
  const exe = path.join(__dirname, '..', 'prebuilds', platformDir(), 'boxlint');
  return fs.existsSync(exe) ? exe : 'boxlint';
}

function fixFrom(o) {
  if (!o) return null;
  const { offset = 0, length = 0, replacement = '', description = null, ...rest } = o;
  return { offset, length, text: replacement, description, ...rest };
}

function diagFrom(o) {
  const cmd = o.command;
  const at = o.file || o; // the position in the file (a JSON command's is "file")
  return {
    rule: o.rule || '', severity: o.severity || 'error',
    command: cmd === null || cmd === undefined || cmd < 0 ? null : cmd,
    line: at.line || 0, column: at.column || 0, endLine: at.end_line || 0,
    endColumn: at.end_column || 0, offset: at.offset || 0, endOffset: at.end_offset || 0,
    path: o.path === undefined ? null : o.path, message: o.message || '',
    hint: o.hint === undefined ? null : o.hint, fix: fixFrom(o.fix),
    detail: o.detail === undefined ? null : o.detail,
  };
}

/**
 * Check the file at `file` as `boxlint FILE` does in a directory walk. Options: `text` (check
 * this text under the name `file` instead of reading it), `config` (a config file instead of
 * the .boxlint.json found upward), `args` (more command options). Returns {path, checked,
 * diagnostics, errors, ok}; throws BoxlintError with the command's message when the file
 * cannot be read or parsed (the command's exit code 2).
 */
function checkFile(file, opts) {
  return checkFileWith(runNative, file, opts);
}

/** The command run natively: {status, stdout, stderr}. */
function runNative(argv, input) {
  const r = spawnSync(command(), argv, { input, maxBuffer: 1 << 30 });
  if (r.error) throw new BoxlintError(`boxlint: cannot run ${command()}: ${r.error.message}`);
  return r;
}

/** checkFile with the command run by `run(argv, input)` -> {status, stdout, stderr} (Buffers). */
function checkFileWith(run, file, opts) {
  const o = opts || {};
  const argv = ['--format', 'json', '--force-exclude', '--no-color', ...(o.args || [])];
  if (o.config !== undefined) argv.push('--config', String(o.config));
  const name = String(file);
  let input;
  if (o.text !== undefined) {
    input = typeof o.text === 'string' ? Buffer.from(o.text, 'utf8') : Buffer.from(o.text);
    argv.push('--stdin-filename', name, '-');
  } else {
    argv.push(name.startsWith('-') ? `.${path.sep}${name}` : name);
  }
  const r = run(argv, input);
  if (r.status !== 0 && r.status !== 1) {
    throw new BoxlintError(r.stderr.toString().trim() || `boxlint: exit code ${r.status}`);
  }
  let doc;
  try {
    doc = JSON.parse(r.stdout.toString());
  } catch (e) {
    throw new BoxlintError(`boxlint: the command's JSON output did not parse: ${e.message}`);
  }
  const files = doc.files || [];
  const diagnostics = [];
  for (const f of files) for (const d of f.diagnostics || []) diagnostics.push(diagFrom(d));
  const errors = diagnostics.filter((d) => d.severity === 'error');
  return { path: name, checked: files.length > 0, diagnostics, errors, ok: errors.length === 0 };
}

module.exports = { checkFile, checkFileWith, runNative };

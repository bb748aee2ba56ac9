'use strict';
/**
 * boxlint for Node.js: the platform's template validation, in process, over libboxlint
 * (C library) through koffi (an FFI package whose prebuilt binaries come from npm).
 *
 * Memory: every check creates its own C report and frees it before returning; results are
 * plain objects. NetworkPolicy and Config own C objects: free them with close() (or
 * [Symbol.dispose]); a FinalizationRegistry frees forgotten ones as a fallback. Using a closed
 * object throws ClosedError.
 *
 * Threads: the C objects are immutable and thread-safe, but JS objects belong to one isolate:
 * in worker_threads, build a NetworkPolicy or Config per worker. The checks and applyFixes
 * keep no state between calls.
 */
const fs = require('fs');
const path = require('path');
const koffi = require('koffi');

// ---------------------------------------------------------------------------------------------
// Loading the library: $BOXLINT_LIBRARY, then the one this package carries for this platform
// (prebuilds/<platform>-<arch>-<libc>/, made by `npm pack`), then next to this package, then
// the system's.
// ---------------------------------------------------------------------------------------------

const { platformDir } = require('./platform');

function libraryCandidates() {
  if (process.env.BOXLINT_LIBRARY) return [process.env.BOXLINT_LIBRARY];
  const names = process.platform === 'darwin' ? ['libboxlint.dylib', 'libboxlint.0.dylib']
    : process.platform === 'win32' ? ['boxlint.dll', 'libboxlint.dll']
      : ['libboxlint.so', 'libboxlint.so.0'];
  const out = [];
  for (const dir of [path.join(__dirname, 'prebuilds', platformDir()), __dirname, path.join(__dirname, 'lib')]) {
    for (const n of names) if (fs.existsSync(path.join(dir, n))) out.push(path.join(dir, n));
  }
  return out.concat(names); // bare names: the dynamic loader's search path
}

function loadLibrary() {
  const errors = [];
  for (const p of libraryCandidates()) {
    try {
      return koffi.load(p);
    } catch (e) {
      errors.push(`${p}: ${e.message}`);
    }
  }
  const pre = path.join(__dirname, 'prebuilds');
  const carried = fs.existsSync(pre) ? fs.readdirSync(pre).join(', ') : 'none';
  throw new Error(`boxlint: no libboxlint for ${platformDir()}: this package carries prebuilt ` +
    `binaries for ${carried}, and none was found on the system (${errors.join('; ')}); build ` +
    'libboxlint from source and set BOXLINT_LIBRARY to the path of the library');
}

const lib = loadLibrary();

// ---------------------------------------------------------------------------------------------
// C declarations (lib/include/boxlint/*.h), field for field. test/layout.test.js checks every
// size and offset against a C program compiled from the headers.
// ---------------------------------------------------------------------------------------------

const T = {};
T.boxlint_span = koffi.struct('boxlint_span', { ptr: 'void *', len: 'size_t' });
T.boxlint_fix = koffi.struct('boxlint_fix', {
  offset: 'size_t', length: 'size_t', text: 'void *', text_len: 'size_t',
  description: 'const char *', safety: 'int', // boxlint_fix_safety: 0 safe, 1 unsafe
});
const FIX_UNSAFE = 1;
T.boxlint_diag = koffi.struct('boxlint_diag', {
  rule: 'const char *', severity: 'int', command: 'int32_t', path: 'const char *',
  line: 'uint32_t', column: 'uint32_t', end_line: 'uint32_t', end_column: 'uint32_t',
  offset: 'size_t', end_offset: 'size_t', message: 'const char *', hint: 'const char *',
  detail: 'const char *', fix: 'void *',
});
T.boxlint_heredoc = koffi.struct('boxlint_heredoc', {
  name: T.boxlint_span, body: T.boxlint_span, fd: 'uint32_t', chomp: 'int', expand: 'int',
  line: 'uint32_t', end_line: 'uint32_t',
});
T.boxlint_instruction = koffi.struct('boxlint_instruction', {
  keyword: 'int', trigger: 'int', keyword_text: T.boxlint_span, text: T.boxlint_span,
  logical: T.boxlint_span, args: T.boxlint_span, flags: 'void *', nflags: 'size_t',
  heredocs: 'void *', nheredocs: 'size_t', json: 'int', line: 'uint32_t', end_line: 'uint32_t',
  offset: 'size_t', end_offset: 'size_t',
});
T.boxlint_options = koffi.struct('boxlint_options', {
  size: 'size_t', max_commands: 'size_t', max_command_bytes: 'size_t', escape: 'char',
  config: 'void *', cpu_min: 'int64_t', cpu_max: 'int64_t', memory_min: 'int64_t',
  memory_max: 'int64_t', no_instructions: 'int',
});
T.boxlint_number = koffi.struct('boxlint_number', {
  present: 'int', is_integer: 'int', value: 'int64_t', text: 'const char *',
});
T.boxlint_template = koffi.struct('boxlint_template', {
  name: T.boxlint_span, has_name: 'int', commands: 'boxlint_span *', ncommands: 'size_t',
  has_commands: 'int', cpu_count: T.boxlint_number, memory_mb: T.boxlint_number,
  extra_fields: 'boxlint_span *', nextra_fields: 'size_t',
});
T.boxlint_binding = koffi.struct('boxlint_binding', {
  template_id: T.boxlint_span, has_template_id: 'int', template_id_not_string: 'int',
  template_text: 'const char *', version: T.boxlint_number, lifespan_seconds: T.boxlint_number,
  extra_fields: 'boxlint_span *', nextra_fields: 'size_t',
});
T.boxlint_rule_info = koffi.struct('boxlint_rule_info', {
  id: 'const char *', severity: 'int', summary: 'const char *', description: 'const char *',
  bad: 'const char *', good: 'const char *',
});
T.boxlint_error = koffi.struct('boxlint_error', {
  code: 'int', offset: 'size_t', message: koffi.array('char', 192, 'String'),
});
T.boxlint_user_rule = koffi.struct('boxlint_user_rule', {
  id: T.boxlint_span, severity: 'int', instruction: 'int', pattern: T.boxlint_span,
  message: T.boxlint_span,
});
T.boxlint_policy_spec = koffi.struct('boxlint_policy_spec', {
  type: T.boxlint_span, allow_out: 'boxlint_span *', n_allow: 'size_t',
  deny_out: 'boxlint_span *', n_deny: 'size_t',
});
T.boxlint_policy_options = koffi.struct('boxlint_policy_options', {
  size: 'size_t', max_entries: 'size_t', unmatched: 'int', compat: 'uint',
  path_prefix: T.boxlint_span, config: 'void *',
});
T.boxlint_emit_options = koffi.struct('boxlint_emit_options', {
  size: 'size_t', table: 'const char *', iifname: 'const char *', resolvers: 'const char **',
  nresolvers: 'size_t',
});
T.boxlint_decision = koffi.struct('boxlint_decision', {
  verdict: 'int', reason: 'int', list: 'int', index: 'int32_t', entry: T.boxlint_span,
  by_name: 'int',
});
koffi.opaque('boxlint_report');
koffi.opaque('boxlint_config');
koffi.opaque('boxlint_policy');

const C = {
  version: lib.func('const char *boxlint_version(void)'),
  status_str: lib.func('const char *boxlint_status_str(int status)'),
  report_new: lib.func('int boxlint_report_new(_Out_ boxlint_report **out, void *alloc)'),
  report_free: lib.func('void boxlint_report_free(boxlint_report *r)'),
  diag_count: lib.func('size_t boxlint_report_diag_count(boxlint_report *r)'),
  diag: lib.func('void *boxlint_report_diag(boxlint_report *r, size_t i)'),
  instruction_count: lib.func('size_t boxlint_report_instruction_count(boxlint_report *r)'),
  instruction: lib.func('void *boxlint_report_instruction(boxlint_report *r, size_t i)'),
  keyword_name: lib.func('const char *boxlint_keyword_name(int kw)'),
  options_init: lib.func('void boxlint_options_init(void *opts)'),
  check_commands: lib.func('int boxlint_check_commands(boxlint_report *r, ' +
    'const boxlint_span *commands, size_t n, void *opts)'),
  check_fragment: lib.func('int boxlint_check_fragment(boxlint_report *r, void *buf, ' +
    'size_t len, void *opts)'),
  check_template: lib.func('int boxlint_check_template(boxlint_report *r, ' +
    'const boxlint_template *tpl, void *opts)'),
  check_binding: lib.func('int boxlint_check_binding(boxlint_report *r, ' +
    'const boxlint_binding *b, void *opts)'),
  check_python: lib.func('int boxlint_check_python(boxlint_report *r, void *buf, size_t len, ' +
    'void *opts, void *popts)'),
  // fixes: an array of Buffers, each holding one encoded boxlint_fix (null entries skipped)
  apply_fixes: lib.func('int boxlint_apply_fixes(void *buf, size_t len, void **fixes, ' +
    'size_t n, _Out_ void **out, _Out_ size_t *out_len, _Out_ uint8_t *applied, void *alloc)'),
  buffer_free: lib.func('void boxlint_buffer_free(void *buf, void *alloc)'),
  rules: lib.func('void *boxlint_rules(_Out_ size_t *count)'),
  rule_find: lib.func('void *boxlint_rule_find(void *id, size_t len)'),
  config_new: lib.func('int boxlint_config_new(_Out_ boxlint_config **out, void *alloc)'),
  config_free: lib.func('void boxlint_config_free(boxlint_config *c)'),
  config_set_severity: lib.func('int boxlint_config_set_severity(boxlint_config *c, ' +
    'void *rule, size_t len, int severity, _Out_ boxlint_error *err)'),
  config_add_rule: lib.func('int boxlint_config_add_rule(boxlint_config *c, ' +
    'const boxlint_user_rule *rule, _Out_ boxlint_error *err)'),
  config_set_limits: lib.func('void boxlint_config_set_limits(boxlint_config *c, ' +
    'uint32_t match_limit, uint32_t depth_limit)'),
  config_get_severity: lib.func('int boxlint_config_get_severity(boxlint_config *c, ' +
    'void *rule, size_t len, int def)'),
  config_rule_count: lib.func('size_t boxlint_config_rule_count(boxlint_config *c)'),
  config_rule_id: lib.func('const char *boxlint_config_rule_id(boxlint_config *c, size_t i)'),
  policy_options_init: lib.func('void boxlint_policy_options_init(void *opts)'),
  policy_new: lib.func('int boxlint_policy_new(_Out_ boxlint_policy **out, ' +
    'boxlint_report *r, const boxlint_policy_spec *spec, void *opts, void *alloc)'),
  policy_free: lib.func('void boxlint_policy_free(boxlint_policy *p)'),
  policy_get_type: lib.func('int boxlint_policy_get_type(boxlint_policy *p)'),
  policy_entry_count: lib.func('size_t boxlint_policy_entry_count(boxlint_policy *p, int list)'),
  policy_entry_text: lib.func('boxlint_span boxlint_policy_entry_text(boxlint_policy *p, ' +
    'int list, size_t i)'),
  policy_decide: lib.func('int boxlint_policy_decide(_Out_ boxlint_decision *out, ' +
    'boxlint_policy *p, void *host, size_t host_len, void *ip, size_t ip_len)'),
  emit_options_init: lib.func('void boxlint_emit_options_init(void *opts)'),
  policy_emit: lib.func('int boxlint_policy_emit(boxlint_policy *p, int format, ' +
    'const boxlint_emit_options *opts, boxlint_report *r, _Out_ void **out, ' +
    '_Out_ size_t *out_len, void *alloc)'),
  policy_type_str: lib.func('const char *boxlint_policy_type_str(int type)'),
  policy_list_str: lib.func('const char *boxlint_policy_list_str(int list)'),
  verdict_str: lib.func('const char *boxlint_verdict_str(int verdict)'),
  reason_str: lib.func('const char *boxlint_decision_reason_str(int reason)'),
};

const OK = 0;
const ENOMEM = -2;
const ESYNTAX = -3;
const EINVAL = -1;
const SEVERITY = ['off', 'info', 'warning', 'error'];
const KEYWORDS = ['', 'ADD', 'ARG', 'CMD', 'COPY', 'ENTRYPOINT', 'ENV', 'EXPOSE', 'FROM',
  'HEALTHCHECK', 'LABEL', 'MAINTAINER', 'ONBUILD', 'RUN', 'SHELL', 'STOPSIGNAL', 'USER',
  'VOLUME', 'WORKDIR'];
const LIST_ALLOW_OUT = 0;
const LIST_DENY_OUT = 1;
const UNMATCHED = { allow: 0, deny: 1 };
const COMPAT = { none: 0, e2b: 1 };
// Option structs may grow at the end in later library versions: the *_init functions write
// the library's own sizeof, so they get a buffer larger than any version of the struct.
const OPTIONS_BUFFER_SIZE = 1024;

/** Version of the loaded C library ("MAJOR.MINOR.PATCH"), from boxlint_version(). */
const version = C.version();
{
  const [major, minor] = version.split('.').map(Number);
  if (major !== 0 || minor < 1) {
    throw new Error(`boxlint: these bindings need libboxlint 0.x >= 0.1, found ${version}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

class BoxlintError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}

/** The template (or policy) would be rejected: `errors` holds every error diagnostic (like the
 *  SDK's ValidationError.errors), `diagnostics` every finding. */
class ValidationError extends BoxlintError {
  constructor(diagnostics) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    super(`${errors.length} error${errors.length === 1 ? '' : 's'}` +
      (errors.length ? ': ' + errors.map((d) => `${d.message} [${d.rule}]`).join('; ') : ''));
    this.diagnostics = diagnostics;
    this.errors = errors;
  }
}

/** A NetworkPolicy has errors. */
class PolicyError extends ValidationError {}

/** A config setting was refused (unknown rule, error rule lowered, bad pattern). */
class ConfigError extends BoxlintError {
  constructor(message, offset = 0, status = '') {
    super(message);
    this.offset = offset;
    this.status = status;
  }
}

/** A NetworkPolicy or Config was used after close(). */
class ClosedError extends BoxlintError {}

function checkStatus(st, what) {
  if (st === OK) return;
  if (st === ENOMEM) throw new RangeError(`boxlint: out of memory in ${what}`);
  throw new BoxlintError(`boxlint: ${what} failed: ${C.status_str(st)}`);
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

function typeName(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Uint8Array) return 'Buffer';
  return typeof v === 'object' ? (v.constructor && v.constructor.name) || 'object' : typeof v;
}

const EMPTY = Buffer.alloc(1); // a valid address for empty spans (never NULL + 0 in C)

/** A span over `b` (kept alive by the caller for the duration of the call). */
function span(b) {
  return { ptr: b.length ? b : EMPTY, len: b.length };
}

function encodeList(list, what) {
  if (!Array.isArray(list)) {
    throw new TypeError(`${what} must be an array of strings, not ${typeName(list)}`);
  }
  return list.map((c, i) => {
    if (typeof c === 'string') return Buffer.from(c, 'utf8');
    if (c instanceof Uint8Array) return Buffer.from(c.buffer, c.byteOffset, c.byteLength);
    throw new TypeError(`${what}[${i}] must be a string, not ${typeName(c)}`);
  });
}

function decodeString(ptr, len) {
  if (!ptr || !len) return '';
  return Buffer.from(koffi.view(ptr, Number(len))).toString('utf8');
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** An SDK number field as the platform receives it; null/undefined: absent. */
function number(name, v) {
  const n = { present: 0, is_integer: 0, value: 0, text: null };
  if (v === undefined || v === null) return n;
  if (typeof v !== 'number' && typeof v !== 'bigint') {
    throw new TypeError(`${name} must be an integer, not ${typeName(v)} (${JSON.stringify(v)})`);
  }
  n.present = 1;
  const big = typeof v === 'bigint' ? v : Number.isInteger(v) ? BigInt(v) : null;
  if (big !== null && big >= INT64_MIN && big <= INT64_MAX) {
    n.is_integer = 1;
    n.value = big;
  } else {
    n.text = String(v); // 2.5, NaN, 1e30: reported as invalid-resources, as the platform does
  }
  return n;
}

/** A text argument as the library reads it: a string as UTF-8, a Buffer/Uint8Array as is. */
function textBuffer(text, what) {
  if (typeof text === 'string') return Buffer.from(text, 'utf8');
  if (text instanceof Uint8Array) return Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  throw new TypeError(`${what} must be a string or a Buffer, not ${typeName(text)}`);
}

/** How a message names a value of the wrong type: as JSON spells it (String() for what JSON
 *  cannot spell: NaN, bigint, undefined), cut at 40 code points as the library cuts source. */
function spell(v) {
  let t;
  if (typeof v === 'object' && v !== null) {
    try {
      t = JSON.stringify(v);
    } catch (e) {
      t = undefined;
    }
  } else if (typeof v === 'string') {
    t = JSON.stringify(v);
  }
  if (t === undefined) t = String(v);
  const cps = Array.from(t);
  return cps.length <= 40 ? t : `${cps.slice(0, 40).join('')}...`;
}

/** A binding's number field: an integer (number or bigint) is one; anything else (2.5, "1",
 *  true) is passed as not an integer, spelt as JSON. null/undefined: absent (the default). */
function bindingNumber(v) {
  const n = { present: 0, is_integer: 0, value: 0, text: null };
  if (v === undefined || v === null) return n;
  n.present = 1;
  const big = typeof v === 'bigint' ? v : Number.isInteger(v) ? BigInt(v) : null;
  if (big !== null && big >= INT64_MIN && big <= INT64_MAX) {
    n.is_integer = 1;
    n.value = big;
  } else {
    n.text = spell(v);
  }
  return n;
}

function makeOptions(options, configPtr) {
  const buf = Buffer.alloc(OPTIONS_BUFFER_SIZE);
  C.options_init(buf);
  const o = koffi.decode(buf, T.boxlint_options);
  if (options !== undefined && options !== null) {
    if (typeof options !== 'object') {
      throw new TypeError(`options must be an object, not ${typeName(options)}`);
    }
    for (const [key, field] of [['maxCommands', 'max_commands'],
      ['maxCommandBytes', 'max_command_bytes'], ['cpuMin', 'cpu_min'], ['cpuMax', 'cpu_max'],
      ['memoryMin', 'memory_min'], ['memoryMax', 'memory_max']]) {
      const v = options[key];
      if (v === undefined || v === null) continue;
      if (!Number.isInteger(v)) throw new TypeError(`options.${key} must be an integer`);
      o[field] = v;
    }
    if (options.escape !== undefined && options.escape !== null) {
      if (options.escape !== '\\' && options.escape !== '`') {
        throw new RangeError("options.escape must be '\\\\' or '`'");
      }
      o.escape = options.escape.charCodeAt(0);
    }
  }
  o.config = configPtr || null;
  koffi.encode(buf, T.boxlint_options, o);
  return buf;
}

// ---------------------------------------------------------------------------------------------
// Owned C objects
// ---------------------------------------------------------------------------------------------

const registry = new FinalizationRegistry(({ ptr, free }) => free(ptr));

class Owned {
  _own(ptr, free) {
    this._ptr = ptr;
    this._free = free;
    registry.register(this, { ptr, free }, this);
  }

  /** True once close() ran. */
  get closed() {
    return !this._ptr;
  }

  _use() {
    if (!this._ptr) throw new ClosedError(`${this.constructor.name} is closed`);
    return this._ptr;
  }

  /** Free the C object now. Idempotent; later use throws ClosedError. */
  close() {
    if (!this._ptr) return;
    const ptr = this._ptr;
    this._ptr = null;
    registry.unregister(this);
    this._free(ptr);
  }
}
if (typeof Symbol.dispose === 'symbol') {
  Owned.prototype[Symbol.dispose] = function dispose() { this.close(); };
}

// ---------------------------------------------------------------------------------------------
// Config
// ---------------------------------------------------------------------------------------------

function severityValue(sev, what, allowOff = true) {
  const v = typeof sev === 'string' ? SEVERITY.indexOf(sev.toLowerCase()) : -2;
  if (v === -2) throw new TypeError(`${what} must be a string, not ${typeName(sev)}`);
  if (v < 0 || (v === 0 && !allowOff)) {
    throw new RangeError(`${what} must be 'error', 'warning', 'info'` +
      `${allowOff ? " or 'off'" : ''}, not ${JSON.stringify(sev)}`);
  }
  return v;
}

function keywordValue(name, what) {
  if (name === undefined || name === null || name === '' || name === '*') return 0;
  if (typeof name !== 'string') throw new TypeError(`${what} must be a string such as 'RUN'`);
  const k = KEYWORDS.indexOf(name.toUpperCase());
  if (k <= 0) throw new RangeError(`${what}: unknown instruction ${JSON.stringify(name)}`);
  return k;
}

/** Warning severities and user rules (PCRE2), compiled once; immutable afterwards. Pass it as
 *  `config` to the checks; `new Config()` enables every default warning. */
class Config extends Owned {
  constructor({ severities = {}, userRules = [], matchLimit = 0, depthLimit = 0 } = {}) {
    super();
    if (severities === null || typeof severities !== 'object' || Array.isArray(severities)) {
      throw new TypeError(`severities must be an object of rule id to severity, not ${typeName(severities)}`);
    }
    if (!Array.isArray(userRules)) {
      throw new TypeError(`userRules must be an array, not ${typeName(userRules)}`);
    }
    const out = [null];
    checkStatus(C.config_new(out, null), 'boxlint_config_new');
    this._own(out[0], C.config_free);
    try {
      userRules.forEach((r, i) => this._addRule(r, i));
      for (const [id, sev] of Object.entries(severities)) {
        this._setSeverity(id, severityValue(sev, `severities[${JSON.stringify(id)}]`));
      }
      if (matchLimit || depthLimit) C.config_set_limits(this._ptr, matchLimit, depthLimit);
    } catch (e) {
      this.close();
      throw e;
    }
  }

  /** A config from the .boxlint.json shape: {rules: {id: severity}, user_rules: [...]}. */
  static fromObject(obj) {
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
      throw new TypeError(`a config must be an object, not ${typeName(obj)}`);
    }
    for (const k of Object.keys(obj)) {
      if (k !== 'rules' && k !== 'user_rules') {
        throw new RangeError(`unknown key ${JSON.stringify(k)} (expected "rules" or "user_rules")`);
      }
    }
    return new Config({ severities: obj.rules || {}, userRules: obj.user_rules || [] });
  }

  _addRule(r, i) {
    if (r === null || typeof r !== 'object') {
      throw new TypeError(`userRules[${i}] must be an object, not ${typeName(r)}`);
    }
    for (const k of Object.keys(r)) {
      if (!['id', 'pattern', 'message', 'severity', 'instruction'].includes(k)) {
        throw new RangeError(`userRules[${i}]: unknown key ${JSON.stringify(k)} ` +
          '(id, severity, instruction, pattern, message)');
      }
    }
    const { id, pattern, message = '', severity = 'warning', instruction = null } = r;
    for (const [k, v] of [['id', id], ['pattern', pattern], ['message', message]]) {
      if (typeof v !== 'string') {
        throw new TypeError(`userRules[${i}].${k} must be a string, not ${typeName(v)}`);
      }
    }
    const [bid, bpat, bmsg] = [id, pattern, message].map((s) => Buffer.from(s, 'utf8'));
    const err = {};
    const st = C.config_add_rule(this._ptr, {
      id: span(bid), pattern: span(bpat), message: span(bmsg),
      severity: severityValue(severity, `userRules[${i}].severity`, false),
      instruction: keywordValue(instruction, `userRules[${i}].instruction`),
    }, err);
    if (st === ENOMEM) throw new RangeError('boxlint: out of memory adding a user rule');
    if (st !== OK) throw new ConfigError(`userRules[${i}] (${id}): ${err.message}`, err.offset, C.status_str(st));
  }

  _setSeverity(id, sev) {
    const b = Buffer.from(id, 'utf8');
    const err = {};
    const st = C.config_set_severity(this._ptr, b.length ? b : EMPTY, b.length, sev, err);
    if (st === ENOMEM) throw new RangeError('boxlint: out of memory setting a severity');
    if (st !== OK) throw new ConfigError(err.message, err.offset, C.status_str(st));
  }

  /** The severity `ruleId` has under this config. */
  severity(ruleId) {
    const p = this._use();
    const info = findRule(ruleId);
    const b = Buffer.from(ruleId, 'utf8');
    return SEVERITY[C.config_get_severity(p, b.length ? b : EMPTY, b.length,
      SEVERITY.indexOf(info ? info.severity : 'warning'))] || 'off';
  }

  /** Ids of the user rules. */
  get userRuleIds() {
    const p = this._use();
    const out = [];
    for (let i = 0, n = C.config_rule_count(p); i < n; i++) out.push(C.config_rule_id(p, i));
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// Reports
// ---------------------------------------------------------------------------------------------

function diagFrom(ptr) {
  const d = koffi.decode(ptr, T.boxlint_diag);
  let fix = null;
  if (d.fix) {
    const f = koffi.decode(d.fix, T.boxlint_fix);
    const unsafe = f.safety === FIX_UNSAFE;
    fix = {
      offset: Number(f.offset), length: Number(f.length),
      text: decodeString(f.text, f.text_len), description: f.description,
      unsafe, applicability: unsafe ? 'unsafe' : 'safe',
    };
  }
  return {
    rule: d.rule, severity: SEVERITY[d.severity] || 'error',
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
      index: i, keyword: KEYWORDS[ins.keyword] || null, trigger: KEYWORDS[ins.trigger] || null,
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

/** The config of `config: null`: every warning at its default severity, as the command without
 *  a .boxlint.json. Made once per isolate (each worker loads this module anew), never closed. */
let defaultConfig = null;

function configPtr(config) {
  if (config === undefined || config === null) {
    if (defaultConfig === null) defaultConfig = new Config();
    config = defaultConfig;
  }
  if (!(config instanceof Config)) {
    throw new TypeError(`config must be a boxlint Config, not ${typeName(config)}`);
  }
  return config._use();
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

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

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

const TEMPLATE_FIELDS = new Set(['name', 'commands', 'cpu_count', 'memory_mb', 'network_policy']);

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

// ---------------------------------------------------------------------------------------------
// Python source files and agent bindings
// ---------------------------------------------------------------------------------------------

/**
 * Check the SDK calls of a Python source file (templates.create/update, add_code_interpreter,
 * NetworkPolicy(...)) whose arguments are literals, as the CLI checks a .py file. Positions are
 * in the file (column in code points at the offending character inside the literal, offset in
 * UTF-8 bytes); fixes are edits of the file: apply them with result.fixed(text) or applyFixes.
 * A file that is not valid Python does not throw: the result holds one python-syntax error.
 */
function checkPython(source, { config = null, options = null, compat = null,
  unmatched = 'allow', maxEntries = 0 } = {}) {
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

const BINDING_FIELDS = new Set(['template_id', 'version', 'lifespan_seconds', 'network_policy']);

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

// ---------------------------------------------------------------------------------------------
// Fixes
// ---------------------------------------------------------------------------------------------

const SIZE_MAX = 2n ** BigInt(8 * koffi.sizeof('size_t')) - 1n;

/** Item `i` of applyFixes as a Buffer holding a boxlint_fix, or null (skipped by the library)
 *  for a diagnostic without a fix, for offsets no buffer has (negative, too large) and for an
 *  unsafe fix unless `unsafeFixes`. */
function cFix(item, i, keep, unsafeFixes) {
  if (item === null || item === undefined) return null;
  if (typeof item !== 'object') {
    throw new TypeError(`fixes[${i}] must be a fix or a diagnostic, not ${typeName(item)}`);
  }
  const f = 'rule' in item || 'fix' in item ? item.fix : item; // a diagnostic: its fix
  if (f === null || f === undefined) return null;
  const nums = [];
  for (const k of ['offset', 'length']) {
    const v = f[k];
    if (typeof v !== 'bigint' && !Number.isInteger(v)) {
      throw new TypeError(`fixes[${i}].${k} must be an integer, not ${typeName(v)}`);
    }
    nums.push(BigInt(v));
  }
  if (typeof f.text !== 'string' && !(f.text instanceof Uint8Array)) {
    throw new TypeError(`fixes[${i}].text must be a string, not ${typeName(f.text)}`);
  }
  const [offset, length] = nums;
  if (offset < 0n || length < 0n || offset > SIZE_MAX || length > SIZE_MAX) return null;
  if (f.unsafe === true && !unsafeFixes) return null;
  const t = textBuffer(f.text, `fixes[${i}].text`);
  const buf = Buffer.alloc(koffi.sizeof(T.boxlint_fix));
  koffi.encode(buf, T.boxlint_fix, {
    offset, length, text: t.length ? t : null, text_len: t.length, description: null,
    safety: f.unsafe === true ? FIX_UNSAFE : 0,
  });
  keep.push(t, buf);
  return buf;
}

/**
 * Apply fixes to `text` in one pass with the library's boxlint_apply_fixes (the CLI's --fix
 * uses the same). Offsets are byte offsets into the UTF-8 encoding of `text`; a string comes
 * back as a string, a Buffer as a new Buffer. `fixes`: an iterable of fixes ({offset, length,
 * text}) or diagnostics (those without a fix are skipped). Fixes are taken in offset order
 * (insertions first, then the order given); one that overlaps a fix already taken, a second
 * insertion at the same offset and one outside the text are not applied: `applied` says which
 * were. Check the new text again to get those. An unsafe fix (`fix.unsafe`: it changes what
 * the template or policy does, such as adding ALL_TRAFFIC to deny_out) is not applied either
 * unless `opts.unsafeFixes` is true, as `boxlint --fix` without `--unsafe-fixes`.
 */
function applyFixes(text, fixes, opts) {
  const b = textBuffer(text, 'text');
  if (fixes === null || typeof fixes !== 'object' || typeof fixes[Symbol.iterator] !== 'function') {
    throw new TypeError(`fixes must be an iterable of fixes or diagnostics, not ${typeName(fixes)}`);
  }
  const keep = [];
  const unsafeFixes = !!(opts && opts.unsafeFixes);
  const ptrs = Array.from(fixes, (f, i) => cFix(f, i, keep, unsafeFixes));
  const applied = new Uint8Array(Math.max(ptrs.length, 1));
  const out = [null];
  const outLen = [0];
  checkStatus(C.apply_fixes(b.length ? b : EMPTY, b.length, ptrs, ptrs.length, out, outLen,
    applied, null), 'boxlint_apply_fixes');
  let data;
  try {
    const n = Number(outLen[0]);
    data = n ? Buffer.from(new Uint8Array(koffi.view(out[0], n))) : Buffer.alloc(0);
  } finally {
    C.buffer_free(out[0], null);
  }
  return {
    text: typeof text === 'string' ? data.toString('utf8') : data,
    applied: Array.from(applied.subarray(0, ptrs.length), (x) => x !== 0),
  };
}

// ---------------------------------------------------------------------------------------------
// NetworkPolicy
// ---------------------------------------------------------------------------------------------

function policySpec(p) {
  if (p === null || typeof p !== 'object' || Array.isArray(p)) {
    throw new TypeError(`network_policy must be an object or a NetworkPolicy, not ${typeName(p)}`);
  }
  for (const k of Object.keys(p)) {
    if (k !== 'type' && k !== 'allow_out' && k !== 'deny_out') {
      throw new TypeError(`network_policy: unknown key ${JSON.stringify(k)} (type, allow_out, deny_out)`);
    }
  }
  if (p.type !== undefined && p.type !== null && typeof p.type !== 'string') {
    throw new TypeError(`network_policy.type must be a string ('disabled', 'open', 'filtered'), not ${typeName(p.type)}`);
  }
  const allow = p.allow_out === undefined || p.allow_out === null ? []
    : encodeList(p.allow_out, 'network_policy.allow_out');
  const deny = p.deny_out === undefined || p.deny_out === null ? []
    : encodeList(p.deny_out, 'network_policy.deny_out');
  const type = typeof p.type === 'string' ? Buffer.from(p.type, 'utf8') : null;
  return { type, allow, deny };
}

/** Policy options, checked: TypeError/RangeError for what the library would not understand. */
function policyArgs({ compat = null, unmatched = 'allow', maxEntries = 0 }) {
  if (compat !== null && compat !== undefined && typeof compat !== 'string') {
    throw new TypeError(`compat must be null or 'e2b', not ${typeName(compat)}`);
  }
  const c = compat === null || compat === undefined ? 'none' : compat;
  if (!(c in COMPAT)) throw new RangeError(`compat must be null or 'e2b', not ${JSON.stringify(compat)}`);
  if (typeof unmatched !== 'string') {
    throw new TypeError(`unmatched must be 'allow' or 'deny', not ${typeName(unmatched)}`);
  }
  if (!(unmatched in UNMATCHED)) {
    throw new RangeError(`unmatched must be 'allow' or 'deny', not ${JSON.stringify(unmatched)}`);
  }
  if (!Number.isInteger(maxEntries) || maxEntries < 0) {
    throw new TypeError('maxEntries must be a non-negative integer');
  }
  return { unmatched, compat: c, maxEntries };
}

/** A boxlint_policy_options buffer (larger than the struct: see OPTIONS_BUFFER_SIZE); `config`
 *  a config's pointer (null: every warning at its default severity). */
function policyOptions({ unmatched = 'allow', compat = 'none', maxEntries = 0, config = null }) {
  const opts = Buffer.alloc(OPTIONS_BUFFER_SIZE);
  C.policy_options_init(opts);
  const o = koffi.decode(opts, T.boxlint_policy_options);
  o.unmatched = UNMATCHED[unmatched];
  o.compat = COMPAT[compat];
  if (maxEntries) o.max_entries = maxEntries;
  o.config = config;
  koffi.encode(opts, T.boxlint_policy_options, o);
  return opts;
}

/** boxlint_policy_new: the policy pointer, or null when the policy has errors. */
function compilePolicy(spec, report, args) {
  const opts = policyOptions(args);
  const out = [null];
  const st = C.policy_new(out, report, {
    type: spec.type ? span(spec.type) : { ptr: null, len: 0 },
    allow_out: spec.allow.length ? spec.allow.map(span) : null, n_allow: spec.allow.length,
    deny_out: spec.deny.length ? spec.deny.map(span) : null, n_deny: spec.deny.length,
  }, opts, null);
  if (st === ESYNTAX) return null;
  checkStatus(st, 'boxlint_policy_new');
  return out[0];
}

function entries(ptr, list) {
  const out = [];
  for (let i = 0, n = C.policy_entry_count(ptr, list); i < n; i++) {
    const s = C.policy_entry_text(ptr, list, i);
    out.push(decodeString(s.ptr, s.len));
  }
  return out;
}

/**
 * A NetworkPolicy ({type, allow_out, deny_out}) validated and compiled once. Throws
 * PolicyError (.errors, with .detail for invalid entries) when it has errors; warnings are in
 * .diagnostics, at the severities of `config` (null: their defaults; a warning the config
 * switches off is not there). `unmatched` ('allow' | 'deny') is the verdict for destinations
 * no entry matches under 'filtered'; `compat: 'e2b'` adds E2B's own rejections.
 */
class NetworkPolicy extends Owned {
  constructor(policy = {}, { compat = null, unmatched = 'allow', maxEntries = 0,
    config = null } = {}) {
    super();
    const spec = policySpec(policy);
    const args = policyArgs({ compat, unmatched, maxEntries });
    const cp = configPtr(config);
    let ptr = null;
    const diags = withReport((r) => {
      ptr = compilePolicy(spec, r, { ...args, config: cp });
      return collect(r);
    });
    if (ptr === null) throw new PolicyError(diags);
    this._own(ptr, C.policy_free);
    this._spec = spec;
    this._args = args;
    /** Warnings found while compiling (allow-without-effect, duplicate-entry...). */
    this.diagnostics = Object.freeze(diags);
    this.compat = compat === undefined ? null : compat;
    this.unmatched = unmatched;
    this.type = C.policy_type_str(C.policy_get_type(ptr));
    this.allow_out = Object.freeze(entries(ptr, LIST_ALLOW_OUT));
    this.deny_out = Object.freeze(entries(ptr, LIST_DENY_OUT));
  }

  /** The verdict for a destination: {host}, {ip} or both. A host-only query that depends on
   *  the address answers 'unknown' (reason 'needs-ip'): resolve it and ask again with ip. */
  decide({ host = null, ip = null } = {}) {
    const args = [];
    for (const [label, v] of [['host', host], ['ip', ip]]) {
      if (v === null || v === undefined) {
        args.push(null, 0);
      } else if (typeof v === 'string') {
        const b = Buffer.from(v, 'utf8');
        args.push(b.length ? b : EMPTY, b.length);
      } else {
        throw new TypeError(`${label} must be a string, not ${typeName(v)}`);
      }
    }
    if (args[0] === null && args[2] === null) throw new RangeError('decide() needs host, ip or both');
    const p = this._use();
    const out = {};
    checkStatus(C.policy_decide(out, p, ...args), 'boxlint_policy_decide');
    return {
      verdict: C.verdict_str(out.verdict),
      reason: C.reason_str(out.reason),
      list: C.policy_list_str(out.list),
      index: out.index < 0 ? null : out.index,
      entry: out.entry.ptr ? decodeString(out.entry.ptr, out.entry.len) : null,
      byName: out.by_name !== 0,
    };
  }

  /**
   * The rules that enforce this policy (the README's "Enforcing a policy"): format 'nftables'
   * (a script for nft -f) or 'dnsmasq' (the configuration whose nftset= lines fill the script's
   * sets). iifname: filter what a host forwards from that interface; resolvers: upstream DNS servers kept reachable.
   * Throws PolicyError with the unenforceable-entry errors when no configuration enforces the
   * policy exactly, RangeError for a bad option.
   */
  emit(format, { table = 'boxlint', iifname = null, resolvers = [] } = {}) {
    const fmt = { nftables: 0, dnsmasq: 1 }[format];
    if (fmt === undefined || typeof format !== 'string') {
      throw new RangeError(`format must be 'nftables' or 'dnsmasq', not ${JSON.stringify(format)}`);
    }
    if (!Array.isArray(resolvers) || resolvers.some((r) => typeof r !== 'string')) {
      throw new TypeError('resolvers must be an array of address strings');
    }
    const opts = Buffer.alloc(OPTIONS_BUFFER_SIZE);
    C.emit_options_init(opts);
    const o = koffi.decode(opts, T.boxlint_emit_options);
    o.table = table;
    o.iifname = iifname;
    o.resolvers = resolvers.length ? resolvers : null;
    o.nresolvers = resolvers.length;
    const p = this._use();
    const out = [null];
    const outLen = [0];
    let st;
    const diags = withReport((r) => {
      st = C.policy_emit(p, fmt, o, r, out, outLen, null);
      return collect(r);
    });
    if (st === EINVAL) {
      throw new RangeError('emit: table and iifname take letters, digits, \'_\' and \'-\' (an ' +
        'interface name also \'.\', at most 15 bytes); resolvers, addresses');
    }
    checkStatus(st, 'boxlint_policy_emit');
    if (!out[0]) throw new PolicyError(diags);
    try {
      return Buffer.from(new Uint8Array(koffi.view(out[0], Number(outLen[0])))).toString('utf8');
    } finally {
      C.buffer_free(out[0], null);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------

function ruleFrom(r) {
  return {
    id: r.id, severity: SEVERITY[r.severity], summary: r.summary, description: r.description,
    bad: r.bad, good: r.good,
  };
}

/** Every rule the library knows, in its stable order. */
function rules() {
  const n = [0];
  const ptr = C.rules(n);
  const size = koffi.sizeof(T.boxlint_rule_info);
  const out = [];
  for (let i = 0; i < n[0]; i++) out.push(ruleFrom(koffi.decode(ptr, i * size, T.boxlint_rule_info)));
  return out;
}

function findRule(id) {
  if (typeof id !== 'string') throw new TypeError(`rule id must be a string, not ${typeName(id)}`);
  const b = Buffer.from(id, 'utf8');
  const p = C.rule_find(b.length ? b : EMPTY, b.length);
  return p ? ruleFrom(koffi.decode(p, T.boxlint_rule_info)) : null;
}

/** The rule `id`; throws RangeError for an unknown one. */
function rule(id) {
  const r = findRule(id);
  if (!r) throw new RangeError(`unknown rule ${JSON.stringify(id)} (rules() lists them)`);
  return r;
}

/** The explanation of a rule with a bad and a good example, as `boxlint explain` prints it. */
function explain(id) {
  const r = rule(id);
  const ind = (s) => {
    const lines = s.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines.map((l) => `    ${l}\n`).join('');
  };
  return `${r.id} (${r.severity}): ${r.summary}\n\n${r.description}\n\nBad:\n${ind(r.bad)}` +
    `Good:\n${ind(r.good)}`;
}

const fileCheck = require('./file');

/** A file checked exactly as the command checks it (file.js): {path, checked, diagnostics,
 *  errors, ok}. */
function checkFile(file, opts) {
  return fileCheck.checkFile(file, opts, BoxlintError);
}

module.exports = {
  version,
  checkFile,
  checkTemplate,
  validateTemplate,
  checkCommands,
  checkFragment,
  checkPython,
  checkBinding,
  applyFixes,
  NetworkPolicy,
  Config,
  rules,
  rule,
  explain,
  BoxlintError,
  ValidationError,
  PolicyError,
  ConfigError,
  ClosedError,
  /** @internal declarations, for the layout test */
  _types: T,
};

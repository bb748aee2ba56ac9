'use strict';
// The C declarations of the library's public API (lib/include/boxlint/*.h), field for field,
// and its version. test/layout.test.js checks every size and offset against a C program
// compiled from the headers (bindings/layout/layout.c).
const koffi = require('koffi');
const { lib } = require('./load');

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
  nresolvers: 'size_t', proxy_user: 'const char *', proxy_http_port: 'uint',
  proxy_tls_port: 'uint',
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
  config_set_python_minor: lib.func('int boxlint_config_set_python_minor(boxlint_config *c, ' +
    'int minor)'),
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
  severity_str: lib.func('const char *boxlint_severity_str(int severity)'),
  severity_parse: lib.func('int boxlint_severity_parse(void *name, size_t len, _Out_ int *out)'),
  keyword_parse: lib.func('int boxlint_keyword_parse(void *name, size_t len)'),
  fix_safety_str: lib.func('const char *boxlint_fix_safety_str(int safety)'),
  unmatched_str: lib.func('const char *boxlint_policy_unmatched_str(int unmatched)'),
  compat_str: lib.func('const char *boxlint_policy_compat_str(uint compat)'),
  emit_format_str: lib.func('const char *boxlint_emit_format_str(int format)'),
  policy_field: lib.func('const char *boxlint_policy_field(size_t i)'),
  template_field: lib.func('const char *boxlint_template_field(size_t i)'),
  binding_field: lib.func('const char *boxlint_binding_field(size_t i)'),
  options_size: lib.func('size_t boxlint_options_size(void)'),
  policy_options_size: lib.func('size_t boxlint_policy_options_size(void)'),
  emit_options_size: lib.func('size_t boxlint_emit_options_size(void)'),
  rule_explain: lib.func('int boxlint_rule_explain(void *rule, _Out_ void **out, ' +
    '_Out_ size_t *out_len, void *alloc)'),
  options_check: lib.func('int boxlint_options_check(void *opts)'),
  user_rule_init: lib.func('void boxlint_user_rule_init(_Out_ boxlint_user_rule *rule)'),
  user_rule_field: lib.func('const char *boxlint_user_rule_field(size_t i)'),
};

const OK = 0;
const ENOMEM = -2;
const ESYNTAX = -3;
const EINVAL = -1;
const LIST_ALLOW_OUT = 0;
const LIST_DENY_OUT = 1;

// What the values mean (names of severities, keywords, policy options, formats and fields) is
// the library's to say: these ask it, nothing here restates it.
const NUL = Buffer.alloc(1); // a valid address for an empty name

/** 'error', 'warning', 'info' or 'off' (boxlint_severity_str). */
const severityName = (v) => C.severity_str(v);

/** The severity the library names `name` (boxlint_severity_parse), or -1. */
function severityValue(name) {
  const b = Buffer.from(name, 'utf8');
  const out = [0];
  return C.severity_parse(b.length ? b : NUL, b.length, out) === 0 ? out[0] : -1;
}

/** An instruction's keyword ('RUN'), or null for none (boxlint_keyword_name). */
const keywordName = (v) => C.keyword_name(v) || null;

/** The keyword `name` in any case (boxlint_keyword_parse); 0 (none) when unknown. */
function keywordValue(name) {
  const b = Buffer.from(name, 'utf8');
  return C.keyword_parse(b.length ? b : NUL, b.length);
}

/** 'safe' or 'unsafe' (boxlint_fix_safety_str). */
const fixSafetyName = (v) => C.fix_safety_str(v);

/** name -> value for the values `values` the library names with `fn`, up to the first NULL. */
function names(fn, values) {
  const out = {};
  for (const v of values) {
    const n = fn(v);
    if (n === null) break;
    out[n] = v;
  }
  return out;
}
const upTo32 = Array.from({ length: 32 }, (_, i) => i);
const UNMATCHED = names(C.unmatched_str, upTo32);
const COMPAT = names(C.compat_str, [0].concat(upTo32.slice(0, 31).map((i) => 2 ** i)));
const EMIT_FORMATS = names(C.emit_format_str, upTo32);
const POLICY_FIELDS = Object.keys(names(C.policy_field, upTo32));
const TEMPLATE_FIELDS = new Set(Object.keys(names(C.template_field, upTo32)));
const BINDING_FIELDS = new Set(Object.keys(names(C.binding_field, upTo32)));
const USER_RULE_FIELDS = Object.keys(names(C.user_rule_field, upTo32));

/** The severity of a user rule that names none (boxlint_user_rule_init). */
const USER_RULE_SEVERITY = (() => {
  const r = {};
  C.user_rule_init(r);
  return severityName(r.severity);
})();

// Option structs may grow at the end in later library versions: the *_init functions write
// the library's own sizeof, so the buffer has the library's size of the struct (never less
// than the declaration here).
function optionsBuffer(type, size) {
  return Buffer.alloc(Math.max(Number(size()), koffi.sizeof(type)));
}

/** Version of the loaded C library ("MAJOR.MINOR.PATCH"), from boxlint_version(). */
const version = C.version();
{
  const [major, minor] = version.split('.').map(Number);
  if (major !== 0 || minor < 1) {
    throw new Error(`boxlint: these bindings need libboxlint 0.x >= 0.1, found ${version}`);
  }
}

/** What a destination matched by no entry gets when nothing says otherwise
 *  (boxlint_policy_options_init). */
const DEFAULT_UNMATCHED = (() => {
  const buf = optionsBuffer(T.boxlint_policy_options, C.policy_options_size);
  C.policy_options_init(buf);
  return C.unmatched_str(koffi.decode(buf, T.boxlint_policy_options).unmatched);
})();

module.exports = {
  T,
  C,
  FIX_UNSAFE,
  OK,
  ENOMEM,
  ESYNTAX,
  EINVAL,
  LIST_ALLOW_OUT,
  LIST_DENY_OUT,
  severityName,
  severityValue,
  keywordName,
  keywordValue,
  fixSafetyName,
  UNMATCHED,
  COMPAT,
  EMIT_FORMATS,
  POLICY_FIELDS,
  TEMPLATE_FIELDS,
  BINDING_FIELDS,
  USER_RULE_FIELDS,
  optionsBuffer,
  USER_RULE_SEVERITY,
  DEFAULT_UNMATCHED,
  version,
};

'use strict';
// Configuration: Config (severities, user rules) and the options of a check.
const koffi = require('koffi');
const {
  T, C, OK, ENOMEM, severityName, severityValue: severityOf, keywordValue: keywordOf, optionsBuffer,
  USER_RULE_SEVERITY, USER_RULE_FIELDS, UNMATCHED, COMPAT, DEFAULT_UNMATCHED,
} = require('./ffi');
const { checkStatus } = require('./errors');
const { typeName, EMPTY, span } = require('./inputs');
const { findRule } = require('./rules');
const { configClass, optionFields } = require('./settings');

/** What lib/settings.js asks of the library, over koffi. */
function failed(st, err) {
  return st === OK ? null : {
    enomem: st === ENOMEM, status: C.status_str(st), message: err.message, offset: err.offset,
  };
}
const L = {
  severityOf, severityName, keywordOf, USER_RULE_FIELDS, USER_RULE_SEVERITY, UNMATCHED, COMPAT,
  DEFAULT_UNMATCHED, escapeOk, defaultSeverity: (id) => {
    const info = findRule(id);
    return info ? info.severity : null;
  },
  configNew() {
    const out = [null];
    checkStatus(C.config_new(out, null), 'boxlint_config_new');
    return out[0];
  },
  configFree: C.config_free,
  addRule(p, r) {
    const [bid, bpat, bmsg] = [r.id, r.pattern, r.message].map((s) => Buffer.from(s, 'utf8'));
    const err = {};
    const st = C.config_add_rule(p, {
      id: span(bid), pattern: span(bpat), message: span(bmsg), severity: r.severity,
      instruction: r.instruction,
    }, err);
    return failed(st, err);
  },
  setSeverity(p, id, sev) {
    const b = Buffer.from(id, 'utf8');
    const err = {};
    return failed(C.config_set_severity(p, b.length ? b : EMPTY, b.length, sev, err), err);
  },
  setLimits: C.config_set_limits,
  setPythonMinor: C.config_set_python_minor,
  getSeverity(p, id, def) {
    const b = Buffer.from(id, 'utf8');
    return C.config_get_severity(p, b.length ? b : EMPTY, b.length, def);
  },
  ruleCount: C.config_rule_count,
  ruleId: C.config_rule_id,
};

/** Warning severities and user rules (PCRE2), compiled once; immutable afterwards
 *  (lib/settings.js, the same class over WebAssembly). */
const Config = configClass(L);

/** Whether the checks take the byte `escape` as the escape character (boxlint_options_check on
 *  the default options with that escape). */
function escapeOk(escape) {
  const buf = optionsBuffer(T.boxlint_options, C.options_size);
  C.options_init(buf);
  const o = koffi.decode(buf, T.boxlint_options);
  o.escape = escape;
  koffi.encode(buf, T.boxlint_options, o);
  return C.options_check(buf) === OK;
}

function makeOptions(options, configPtr) {
  const fields = optionFields(L, options);
  const buf = optionsBuffer(T.boxlint_options, C.options_size);
  C.options_init(buf);
  const o = koffi.decode(buf, T.boxlint_options);
  Object.assign(o, fields);
  o.config = configPtr || null;
  koffi.encode(buf, T.boxlint_options, o);
  return buf;
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

module.exports = {
  L,
  Config,
  makeOptions,
  configPtr,
};

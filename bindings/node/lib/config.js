'use strict';
// Configuration: Config (severities, user rules) and the options of a check.
const koffi = require('koffi');
const {
  T, C, OK, ENOMEM, severityName, severityValue: severityOf, keywordValue: keywordOf, optionsBuffer,
  USER_RULE_SEVERITY, USER_RULE_FIELDS,
} = require('./ffi');
const { ConfigError, checkStatus } = require('./errors');
const { typeName, EMPTY, span } = require('./inputs');
const { Owned } = require('./owned');
const { findRule } = require('./rules');

function severityValue(sev, what, allowOff = true) {
  const v = typeof sev === 'string' ? severityOf(sev.toLowerCase()) : -2;
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
  const k = keywordOf(name);
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
      if (!USER_RULE_FIELDS.includes(k)) {
        throw new RangeError(`userRules[${i}]: unknown key ${JSON.stringify(k)} ` +
          `(${USER_RULE_FIELDS.join(', ')})`);
      }
    }
    const {
      id, pattern, message = '', severity = USER_RULE_SEVERITY, instruction = null,
    } = r;
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
    return severityName(C.config_get_severity(p, b.length ? b : EMPTY, b.length,
      severityOf(info ? info.severity : 'warning')));
  }

  /** Ids of the user rules. */
  get userRuleIds() {
    const p = this._use();
    const out = [];
    for (let i = 0, n = C.config_rule_count(p); i < n; i++) out.push(C.config_rule_id(p, i));
    return out;
  }
}

/** Whether the checks take `escape` as the escape character (boxlint_options_check on the
 *  default options with that escape). */
function escapeOk(escape) {
  if (typeof escape !== 'string' || Buffer.byteLength(escape, 'utf8') !== 1) return false;
  const buf = optionsBuffer(T.boxlint_options, C.options_size);
  C.options_init(buf);
  const o = koffi.decode(buf, T.boxlint_options);
  o.escape = escape.charCodeAt(0);
  koffi.encode(buf, T.boxlint_options, o);
  return C.options_check(buf) === OK;
}

function makeOptions(options, configPtr) {
  const buf = optionsBuffer(T.boxlint_options, C.options_size);
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
      if (!escapeOk(options.escape)) {
        throw new RangeError("options.escape must be '\\\\' or '`'");
      }
      o.escape = options.escape.charCodeAt(0);
    }
  }
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
  Config,
  makeOptions,
  configPtr,
};

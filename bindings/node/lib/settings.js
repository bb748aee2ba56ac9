'use strict';
// The settings of a check, shared by both backends (lib/config.js and lib/policy.js over koffi,
// lib/wasm_api.js over WebAssembly): Config (severities, user rules) with its validation and
// errors, the options of a check and the policy options, checked the same way. Loads nothing:
// each backend passes `L`, what its library says about the values and the C calls of a config:
//   severityOf(name) -> value or -1; severityName(value); keywordOf(name) -> value, 0 unknown;
//   USER_RULE_FIELDS, USER_RULE_SEVERITY, UNMATCHED, COMPAT, DEFAULT_UNMATCHED (the library's
//   names); escapeOk(c) (boxlint_options_check); defaultSeverity(id) (the rule table's);
//   configNew() -> ptr; configFree(ptr); addRule(ptr, rule) and setSeverity(ptr, id, sev) ->
//   null (done) or {enomem, status, message, offset} (status: boxlint_status_str's name);
//   setLimits(ptr, m, d);
//   setPythonMinor(ptr, minor);
//   getSeverity(ptr, id, def); ruleCount(ptr); ruleId(ptr, i).
const { ConfigError } = require('./error_classes');
const { typeName } = require('./values');
const { Owned } = require('./owned');

function severityValue(L, sev, what, allowOff = true) {
  const v = typeof sev === 'string' ? L.severityOf(sev.toLowerCase()) : -2;
  if (v === -2) throw new TypeError(`${what} must be a string, not ${typeName(sev)}`);
  if (v < 0 || (v === 0 && !allowOff)) {
    throw new RangeError(`${what} must be 'error', 'warning', 'info'` +
      `${allowOff ? " or 'off'" : ''}, not ${JSON.stringify(sev)}`);
  }
  return v;
}

function keywordValue(L, name, what) {
  if (name === undefined || name === null || name === '' || name === '*') return 0;
  if (typeof name !== 'string') throw new TypeError(`${what} must be a string such as 'RUN'`);
  const k = L.keywordOf(name);
  if (k <= 0) throw new RangeError(`${what}: unknown instruction ${JSON.stringify(name)}`);
  return k;
}

/** A user rule checked: {id, pattern, message, severity, instruction} with the library's values. */
function userRule(L, r, i) {
  if (r === null || typeof r !== 'object') {
    throw new TypeError(`userRules[${i}] must be an object, not ${typeName(r)}`);
  }
  for (const k of Object.keys(r)) {
    if (!L.USER_RULE_FIELDS.includes(k)) {
      throw new RangeError(`userRules[${i}]: unknown key ${JSON.stringify(k)} ` +
        `(${L.USER_RULE_FIELDS.join(', ')})`);
    }
  }
  const {
    id, pattern, message = '', severity = L.USER_RULE_SEVERITY, instruction = null,
  } = r;
  for (const [k, v] of [['id', id], ['pattern', pattern], ['message', message]]) {
    if (typeof v !== 'string') {
      throw new TypeError(`userRules[${i}].${k} must be a string, not ${typeName(v)}`);
    }
  }
  return {
    id, pattern, message,
    severity: severityValue(L, severity, `userRules[${i}].severity`, false),
    instruction: keywordValue(L, instruction, `userRules[${i}].instruction`),
  };
}

/** "py38" ... "py314" (targetVersion, "target-version"): the Python version .py files are read
 *  as (default 3.14), its minor number. */
function pythonMinor(v) {
  const m = typeof v === 'string' && /^py3(8|9|1[0-4])$/.exec(v);
  if (!m) throw new RangeError(`targetVersion must be "py38" ... "py314", not ${JSON.stringify(v)}`);
  return Number(m[1]);
}

/** The Config class over `L`: one class per backend, the same arguments, errors and methods. */
function configClass(L) {
  /** Warning severities and user rules (PCRE2), compiled once; immutable afterwards. Pass it as
   *  `config` to the checks; `new Config()` enables every default warning. */
  class Config extends Owned {
    constructor({
      severities = {}, userRules = [], matchLimit = 0, depthLimit = 0, targetVersion = null,
    } = {}) {
      super();
      if (severities === null || typeof severities !== 'object' || Array.isArray(severities)) {
        throw new TypeError(`severities must be an object of rule id to severity, not ${typeName(severities)}`);
      }
      if (!Array.isArray(userRules)) {
        throw new TypeError(`userRules must be an array, not ${typeName(userRules)}`);
      }
      this._own(L.configNew(), L.configFree);
      try {
        userRules.forEach((r, i) => this._addRule(r, i));
        for (const [id, sev] of Object.entries(severities)) {
          this._setSeverity(id, severityValue(L, sev, `severities[${JSON.stringify(id)}]`));
        }
        if (matchLimit || depthLimit) L.setLimits(this._ptr, matchLimit, depthLimit);
        if (targetVersion !== null && targetVersion !== undefined) {
          L.setPythonMinor(this._ptr, pythonMinor(targetVersion));
        }
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
        if (!['rules', 'user_rules', 'target-version'].includes(k)) {
          throw new RangeError(`unknown key ${JSON.stringify(k)} (expected "rules", "user_rules" ` +
            'or "target-version")');
        }
      }
      return new Config({
        severities: obj.rules || {}, userRules: obj.user_rules || [],
        targetVersion: obj['target-version'] === undefined ? null : obj['target-version'],
      });
    }

    _addRule(r, i) {
      const rule = userRule(L, r, i);
      const e = L.addRule(this._ptr, rule);
      if (e && e.enomem) throw new RangeError('boxlint: out of memory adding a user rule');
      if (e) throw new ConfigError(`userRules[${i}] (${rule.id}): ${e.message}`, e.offset, e.status);
    }

    _setSeverity(id, sev) {
      const e = L.setSeverity(this._ptr, id, sev);
      if (e && e.enomem) throw new RangeError('boxlint: out of memory setting a severity');
      if (e) throw new ConfigError(e.message, e.offset, e.status);
    }

    /** The severity `ruleId` has under this config. */
    severity(ruleId) {
      const p = this._use();
      if (typeof ruleId !== 'string') throw new TypeError(`rule id must be a string, not ${typeName(ruleId)}`);
      return L.severityName(L.getSeverity(p, ruleId, L.severityOf(L.defaultSeverity(ruleId) || 'warning')));
    }

    /** Ids of the user rules. */
    get userRuleIds() {
      const p = this._use();
      const out = [];
      for (let i = 0, n = L.ruleCount(p); i < n; i++) out.push(L.ruleId(p, i));
      return out;
    }
  }
  return Config;
}

/** The options of a check ({maxCommands, ..., escape}) checked: the boxlint_options fields to
 *  set, by their C names ({max_commands: 10, escape: 96}). */
function optionFields(L, options) {
  const out = {};
  if (options === undefined || options === null) return out;
  if (typeof options !== 'object') {
    throw new TypeError(`options must be an object, not ${typeName(options)}`);
  }
  for (const [key, field] of [['maxCommands', 'max_commands'],
    ['maxCommandBytes', 'max_command_bytes'], ['cpuMin', 'cpu_min'], ['cpuMax', 'cpu_max'],
    ['memoryMin', 'memory_min'], ['memoryMax', 'memory_max']]) {
    const v = options[key];
    if (v === undefined || v === null) continue;
    if (!Number.isInteger(v)) throw new TypeError(`options.${key} must be an integer`);
    out[field] = v;
  }
  if (options.escape !== undefined && options.escape !== null) {
    if (typeof options.escape !== 'string' || Buffer.byteLength(options.escape, 'utf8') !== 1 ||
        !L.escapeOk(options.escape.charCodeAt(0))) {
      throw new RangeError("options.escape must be '\\\\' or '`'");
    }
    out.escape = options.escape.charCodeAt(0);
  }
  return out;
}

/** Policy options, checked: TypeError/RangeError for what the library would not understand. */
function policyArgs(L, { compat = null, unmatched = L.DEFAULT_UNMATCHED, maxEntries = 0 }) {
  if (compat !== null && compat !== undefined && typeof compat !== 'string') {
    throw new TypeError(`compat must be null or 'e2b', not ${typeName(compat)}`);
  }
  const c = compat === null || compat === undefined ? 'none' : compat;
  if (!(c in L.COMPAT)) throw new RangeError(`compat must be null or 'e2b', not ${JSON.stringify(compat)}`);
  if (typeof unmatched !== 'string') {
    throw new TypeError(`unmatched must be 'allow' or 'deny', not ${typeName(unmatched)}`);
  }
  if (!(unmatched in L.UNMATCHED)) {
    throw new RangeError(`unmatched must be 'allow' or 'deny', not ${JSON.stringify(unmatched)}`);
  }
  if (!Number.isInteger(maxEntries) || maxEntries < 0) {
    throw new TypeError('maxEntries must be a non-negative integer');
  }
  return { unmatched, compat: c, maxEntries };
}

/** name -> value for the values `values` the library names with `fn`, up to the first null. */
function names(fn, values) {
  const out = {};
  for (const v of values) {
    const n = fn(v);
    if (n === null || n === undefined) break;
    out[n] = v;
  }
  return out;
}
const upTo32 = Array.from({ length: 32 }, (_, i) => i);
const COMPAT_VALUES = [0].concat(upTo32.slice(0, 31).map((i) => 2 ** i));

module.exports = {
  severityValue, keywordValue, userRule, configClass, optionFields, policyArgs, names, upTo32,
  COMPAT_VALUES,
};

'use strict';
// The rules the library knows, and their explanations.
const koffi = require('koffi');
const { T, C, severityName } = require('./ffi');
const { checkStatus } = require('./errors');
const { typeName, EMPTY, decodeString } = require('./inputs');

function ruleFrom(r) {
  return {
    id: r.id, severity: severityName(r.severity), summary: r.summary, description: r.description,
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
  rule(id); // RangeError for an unknown rule
  const b = Buffer.from(id, 'utf8');
  const out = [null];
  const outLen = [0];
  checkStatus(C.rule_explain(C.rule_find(b.length ? b : EMPTY, b.length), out, outLen, null),
    'boxlint_rule_explain');
  try {
    return decodeString(out[0], outLen[0]);
  } finally {
    C.buffer_free(out[0], null);
  }
}

module.exports = {
  rules,
  findRule,
  rule,
  explain,
};

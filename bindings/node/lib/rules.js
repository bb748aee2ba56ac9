'use strict';
// The rules the library knows, and their explanations.
const koffi = require('koffi');
const { T, C, severityName } = require('./ffi');
const { typeName, EMPTY } = require('./inputs');

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
  const r = rule(id);
  const ind = (s) => {
    const lines = s.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines.map((l) => `    ${l}\n`).join('');
  };
  return `${r.id} (${r.severity}): ${r.summary}\n\n${r.description}\n\nBad:\n${ind(r.bad)}` +
    `Good:\n${ind(r.good)}`;
}

module.exports = {
  rules,
  findRule,
  rule,
  explain,
};

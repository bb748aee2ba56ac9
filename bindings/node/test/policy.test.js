'use strict';
// Node.js bindings: NetworkPolicy: compiling, decisions, a template's policy.
const test = require('node:test');
const assert = require('node:assert/strict');
const boxlint = require('..');
const { GOOD, SEED } = require('./support');

// The subtests of 'NetworkPolicy', in order: [name, fn] each.
const POLICY_CASES = [
  ['the seed example alone allows everything', () => {
    const p = new boxlint.NetworkPolicy(SEED);
    try {
      const d = p.diagnostics.find((x) => x.rule === 'allow-without-effect');
      assert.ok(d);
      assert.match(d.hint, /ALL_TRAFFIC/);
      assert.equal(d.fix.text, 'ALL_TRAFFIC');
      assert.deepEqual([d.fix.unsafe, d.fix.applicability], [true, 'unsafe']);
      assert.equal(p.decide({ host: 'github.com' }).verdict, 'allow');
    } finally {
      p.close();
    }
  }],
  ['the seed example with ALL_TRAFFIC denied', () => {
    const p = new boxlint.NetworkPolicy({ ...SEED, deny_out: ['ALL_TRAFFIC'] });
    assert.deepEqual(p.diagnostics, []);
    assert.deepEqual(p.deny_out, ['0.0.0.0/0']);
    assert.deepEqual(p.decide({ host: 'pypi.org' }), {
      verdict: 'allow', reason: 'rule', list: 'allow_out', index: 0, entry: 'pypi.org', byName: true,
    });
    const files = p.decide({ host: 'files.pythonhosted.org' });
    assert.deepEqual([files.verdict, files.index, files.entry], ['allow', 1, '*.pythonhosted.org']);
    assert.deepEqual(p.decide({ host: 'github.com' }), {
      verdict: 'deny', reason: 'rule', list: 'deny_out', index: 0, entry: '0.0.0.0/0', byName: false,
    });
    assert.equal(p.decide({ ip: '140.82.112.3' }).verdict, 'deny');
    p.close();
  }],
  ['a template with a policy', () => {
    const r = boxlint.checkTemplate({ ...GOOD, network_policy: SEED });
    const d = r.diagnostics.find((x) => x.rule === 'allow-without-effect');
    assert.equal(d.severity, 'warning');
    assert.match(d.path, /^network_policy\./);
    assert.equal(r.ok, true);
    const p = new boxlint.NetworkPolicy(SEED);
    assert.deepEqual(boxlint.checkTemplate({ ...GOOD, network_policy: p }).diagnostics, r.diagnostics);
    p.close();
  }],
  ['an invalid policy throws PolicyError with detail', () => {
    assert.throws(() => new boxlint.NetworkPolicy({ type: 'filtered',
      allow_out: ['https://pypi.org/simple'], deny_out: ['10.0.0.1/8'] }), (e) => {
      assert.ok(e instanceof boxlint.PolicyError && e instanceof boxlint.ValidationError);
      assert.deepEqual(e.errors.map((d) => [d.rule, d.path, d.detail]), [
        ['invalid-policy-entry', 'network_policy.allow_out[0]', 'url'],
        ['invalid-policy-entry', 'network_policy.deny_out[0]', 'host-bits']]);
      return true;
    });
    assert.throws(() => new boxlint.NetworkPolicy({ type: 'open', allow_out: ['pypi.org'] }),
      boxlint.PolicyError);
    assert.throws(() => new boxlint.NetworkPolicy({ type: 'filterd' }),
      (e) => e.errors[0].rule === 'invalid-policy-type');
  }],
  ['an invalid policy in a template is reported', () => {
    const tpl = { ...GOOD, network_policy: { type: 'filtered', allow_out: ['pypi.org:443'] } };
    const [d] = boxlint.checkTemplate(tpl).errors;
    assert.deepEqual([d.rule, d.detail, d.path], ['invalid-policy-entry', 'port', 'network_policy.allow_out[0]']);
    assert.throws(() => boxlint.validateTemplate(tpl), boxlint.ValidationError);
  }],
  ['unmatched deny and E2B compatibility', () => {
    const p = new boxlint.NetworkPolicy({ type: 'filtered', allow_out: ['pypi.org'] }, { unmatched: 'deny' });
    const d = p.decide({ host: 'github.com' });
    assert.deepEqual([d.verdict, d.reason, d.entry], ['deny', 'default', null]);
    p.close();
    assert.throws(() => new boxlint.NetworkPolicy({ type: 'filtered', allow_out: ['pypi.org'] },
      { compat: 'e2b' }), (e) => e.errors.some((x) => x.rule === 'domains-require-deny-all'));
  }],
  ['needs-ip and invalid destinations', () => {
    const p = new boxlint.NetworkPolicy({ type: 'filtered', allow_out: ['pypi.org'], deny_out: ['10.0.0.0/8'] });
    assert.deepEqual([p.decide({ host: 'example.com' }).verdict, p.decide({ host: 'example.com' }).reason],
      ['unknown', 'needs-ip']);
    assert.equal(p.decide({ host: 'example.com', ip: '10.1.2.3' }).verdict, 'deny');
    assert.equal(p.decide({ ip: '010.1.2.3' }).reason, 'invalid-destination');
    p.close();
  }],
  ['disabled and open', () => {
    const d = new boxlint.NetworkPolicy();
    assert.equal(d.type, 'disabled');
    assert.equal(d.decide({ host: 'pypi.org' }).reason, 'policy-disabled');
    d.close();
    const o = new boxlint.NetworkPolicy({ type: 'open' });
    assert.equal(o.decide({ ip: '1.1.1.1' }).reason, 'policy-open');
    o.close();
  }],
];

test('NetworkPolicy', async (t) => {
  for (const args of POLICY_CASES) await t.test(...args);
});

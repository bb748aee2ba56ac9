'use strict';
// Node.js bindings: agent bindings (add_code_interpreter's arguments).
const test = require('node:test');
const assert = require('node:assert/strict');
const boxlint = require('..');
const { SEED } = require('./support');

test('agent bindings', async (t) => {
  await t.test('a good binding is clean', () => {
    assert.deepEqual(boxlint.checkBinding({ template_id: 'python-4g' }).diagnostics, []);
    const r = boxlint.checkBinding({ template_id: 'my-py-extra', version: 2, lifespan_seconds: 1200,
      network_policy: { ...SEED, deny_out: ['ALL_TRAFFIC'] } });
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.ok, true);
  });
  await t.test('each field fails', () => {
    const r = boxlint.checkBinding({ version: 0, lifespan_seconds: -5, agent_name: 'x' });
    assert.deepEqual(r.diagnostics.map((d) => [d.rule, d.severity, d.path, d.command]), [
      ['missing-field', 'error', 'template_id', null],
      ['invalid-version', 'error', 'version', null],
      ['invalid-lifespan', 'error', 'lifespan_seconds', null],
      ['unknown-field', 'warning', 'agent_name', null]]);
    assert.equal(r.diagnostics[1].message, 'version is 0: agent versions are numbered from 1');
  });
  await t.test('values of the wrong type are findings spelt as JSON', () => {
    const r = boxlint.checkBinding({ template_id: 42, version: '1', lifespan_seconds: 2.5 });
    assert.deepEqual(r.diagnostics.map((d) => [d.rule, d.message]), [
      ['invalid-template-id', 'template_id must be a string, not 42'],
      ['invalid-version', 'version must be an integer, not "1"'],
      ['invalid-lifespan', 'lifespan_seconds must be an integer, not 2.5']]);
    assert.deepEqual(boxlint.checkBinding({ template_id: 't', version: true }).diagnostics
      .map((d) => d.message), ['version must be an integer, not true']);
    assert.deepEqual(boxlint.checkBinding({ template_id: 't', version: 2n ** 70n }).diagnostics
      .map((d) => d.message), [`version must be an integer, not ${2n ** 70n}`]);
    assert.deepEqual(boxlint.checkBinding({ template_id: 't', version: 3n }).diagnostics, []);
    assert.throws(() => boxlint.checkBinding('python-4g'), TypeError);
  });
  await t.test('invalid template id and unusual lifespan', () => {
    const r = boxlint.checkBinding({ template_id: 'My Template', lifespan_seconds: 30 });
    assert.deepEqual(r.diagnostics.map((d) => [d.rule, d.severity]),
      [['invalid-template-id', 'error'], ['unusual-lifespan', 'warning']]);
    const cfg = new boxlint.Config({ severities: { 'unusual-lifespan': 'off' } });
    assert.deepEqual(boxlint.checkBinding({ template_id: 't', lifespan_seconds: 30 }, { config: cfg })
      .diagnostics, []);
    cfg.close();
  });
  await t.test('the network policy of a binding', () => {
    const r = boxlint.checkBinding({ template_id: 't', network_policy: SEED });
    assert.deepEqual(r.diagnostics.map((d) => [d.rule, d.path]), [
      ['allow-without-effect', 'network_policy.allow_out[0]'],
      ['allow-without-effect', 'network_policy.allow_out[1]']]);
    const p = new boxlint.NetworkPolicy(SEED);
    assert.deepEqual(boxlint.checkBinding({ template_id: 't', network_policy: p }).diagnostics,
      r.diagnostics);
    p.close();
  });
  await t.test('a binding parsed from JSON', () => {
    const b = JSON.parse('{"template_id": "python-4g", "version": 1, "lifespan_seconds": 600}');
    assert.deepEqual(boxlint.checkBinding(b).diagnostics, []);
  });
});

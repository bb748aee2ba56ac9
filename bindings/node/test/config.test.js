'use strict';
// Node.js bindings: Config, and no config as the command's defaults.
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const boxlint = require('..');
const { GOOD, SEED, rulesOf } = require('./support');

test('Config', async (t) => {
  await t.test('user rule and severities', () => {
    const cfg = new boxlint.Config({
      severities: { 'unknown-field': 'off' },
      userRules: [{ id: 'no-latest', pattern: ':latest\\b', message: 'pin a version',
        instruction: 'RUN', severity: 'error' }],
    });
    assert.deepEqual(boxlint.checkTemplate({ ...GOOD, extra: 1 }, { config: cfg }).diagnostics, []);
    const [d] = boxlint.checkCommands(['RUN docker pull x:latest'], { config: cfg }).diagnostics;
    assert.deepEqual([d.rule, d.severity, d.message], ['no-latest', 'error', 'pin a version']);
    assert.deepEqual(cfg.userRuleIds, ['no-latest']);
    assert.equal(cfg.severity('unknown-field'), 'off');
    cfg.close();
  });
  await t.test('a config applies to policy warnings', () => {
    const cfg = new boxlint.Config({ severities: { 'allow-without-effect': 'info' } });
    const r = boxlint.checkTemplate({ ...GOOD, network_policy: SEED }, { config: cfg });
    assert.deepEqual([...new Set(r.diagnostics.filter((d) => d.rule === 'allow-without-effect')
      .map((d) => d.severity))], ['info']);
    // a compiled NetworkPolicy is checked again under the call's config
    const p = new boxlint.NetworkPolicy(SEED);
    assert.deepEqual([...new Set(p.diagnostics.map((d) => d.severity))], ['warning']);
    assert.deepEqual(boxlint.checkTemplate({ ...GOOD, network_policy: p }, { config: cfg })
      .diagnostics.map((d) => [d.rule, d.severity, d.path]),
    [['allow-without-effect', 'info', 'network_policy.allow_out[0]'],
      ['allow-without-effect', 'info', 'network_policy.allow_out[1]']]);
    p.close();
    const off = new boxlint.Config({ severities: { 'allow-without-effect': 'off' } });
    const q = new boxlint.NetworkPolicy(SEED, { config: off });
    assert.deepEqual(q.diagnostics, []);
    q.close();
    assert.deepEqual(boxlint.checkBinding({ template_id: 't', network_policy: SEED }, { config: off })
      .diagnostics, []);
    off.close();
    // errors stay errors whatever the config
    assert.throws(() => new boxlint.Config({ severities: { 'invalid-policy-entry': 'warning' } }),
      boxlint.ConfigError);
    cfg.close();
  });
  await t.test('target-version: the grammar .py files are read with', () => {
    const src = 'import budai\ntype X = int\n';
    assert.deepEqual(boxlint.checkPython(src).diagnostics, []); // 3.14 by default
    const c = boxlint.Config.fromObject({ 'target-version': 'py311' });
    assert.deepEqual(boxlint.checkPython(src, { config: c }).diagnostics.map((d) =>
      [d.rule, d.line, d.column]), [['python-syntax', 2, 6]]);
    const d = new boxlint.Config({ targetVersion: 'py312' });
    assert.deepEqual(boxlint.checkPython(src, { config: d }).diagnostics, []);
    for (const bad of ['py37', 'py315', '3.11', 311]) {
      assert.throws(() => new boxlint.Config({ targetVersion: bad }), RangeError);
    }
  });

  await t.test('fromObject reads the .boxlint.json shape', () => {
    const c = boxlint.Config.fromObject({ rules: { 'unknown-field': 'error' },
      user_rules: [{ id: 'x', pattern: 'y' }] });
    assert.equal(c.severity('unknown-field'), 'error');
    c.close();
  });
  await t.test('refusals', () => {
    assert.throws(() => new boxlint.Config({ severities: { 'denied-instruction': 'off' } }), boxlint.ConfigError);
    assert.throws(() => new boxlint.Config({ severities: { 'no-such-rule': 'warning' } }), boxlint.ConfigError);
    assert.throws(() => new boxlint.Config({ userRules: [{ id: 'bad', pattern: 'a(b' }] }),
      (e) => e instanceof boxlint.ConfigError && e.status === 'BOXLINT_EREGEX');
    assert.throws(() => new boxlint.Config({ severities: { 'unknown-field': 'loud' } }), RangeError);
  });
});

// The Quick Start of the README (examples/quickstart.py): its update's command keeps pip's cache.
const QUICKSTART = `from budai import Client

client = Client()
tpl = client.code_interpreter.templates.create(
    name="my-py-extra",
    commands=["RUN pip install --no-cache-dir pydantic-ai"],
    cpu_count=2,
    memory_mb=4096,
)
client.code_interpreter.templates.update("my-py-extra", commands=["RUN pip install httpx"])
`;

test('no config is the built-in defaults, as the command', async (t) => {
  const TPL = { name: 'my-py-extra', commands: ['RUN pip install httpx'], cpu_count: 2, memory_mb: 4096 };
  await t.test('checkTemplate of the Quick Start reports pip-no-cache-dir', () => {
    const r = boxlint.checkTemplate(TPL);
    assert.deepEqual(r.diagnostics.map((d) => [d.rule, d.severity, d.command, d.line, d.column, d.endColumn]),
      [['pip-no-cache-dir', 'warning', 0, 1, 5, 16]]);
    assert.match(r.diagnostics[0].message, /pip install keeps its download cache in the image/);
    assert.ok(r.ok);
    assert.deepEqual(boxlint.checkTemplate(TPL, { config: null }).diagnostics, r.diagnostics);
    const off = new boxlint.Config({ severities: { 'pip-no-cache-dir': 'off' } });
    assert.deepEqual(boxlint.checkTemplate(TPL, { config: off }).diagnostics, []);
    off.close();
    const err = new boxlint.Config({ severities: { 'pip-no-cache-dir': 'error' } });
    assert.deepEqual(boxlint.checkCommands(TPL.commands, { config: err }).diagnostics
      .map((d) => [d.rule, d.severity]), [['pip-no-cache-dir', 'error']]);
    err.close();
    assert.deepEqual(rulesOf(boxlint.checkFragment('RUN pip install httpx\n')), ['pip-no-cache-dir']);
  });
  await t.test('the same findings as the command', { skip: !process.env.BOXLINT_CLI && 'BOXLINT_CLI not set' }, () => {
    const fs = require('node:fs');
    const os = require('node:os');
    const path = require('node:path');
    const got = boxlint.checkPython(QUICKSTART).diagnostics.map((d) => [d.rule, d.severity, d.line, d.column]);
    assert.deepEqual(got, [['pip-no-cache-dir', 'warning', 10, 72]]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'boxlint-defaults-'));
    try {
      fs.writeFileSync(path.join(dir, 'quickstart.py'), QUICKSTART);
      fs.writeFileSync(path.join(dir, '.boxlint.json'), '{}'); // the defaults, no parent's config
      const out = JSON.parse(execFileSync(process.env.BOXLINT_CLI,
        ['--format', 'json', path.join(dir, 'quickstart.py')], { encoding: 'utf8' }));
      assert.deepEqual(out.files[0].diagnostics.map((d) => [d.rule, d.severity, d.line, d.column]), got);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  await t.test('a config gives the same severities as the command', { skip: !process.env.BOXLINT_CLI && 'BOXLINT_CLI not set' }, () => {
    // the library applies it, policy warnings and suppression reports included
    const fs = require('node:fs');
    const os = require('node:os');
    const path = require('node:path');
    const { spawnSync } = require('node:child_process');
    const src = QUICKSTART +
      'client.agents.add_code_interpreter("prm_abc", template_id="my-py-extra",\n' +
      '    network_policy={"type": "filtered", "allow_out": ["pypi.org", "pypi.org"]})\n' +
      'x = 1  # boxlint: ignroe=sudo-usage\n';
    const rules = { 'pip-no-cache-dir': 'error', 'allow-without-effect': 'off', 'duplicate-entry': 'info' };
    const cfg = new boxlint.Config({ severities: rules });
    const got = boxlint.checkPython(src, { config: cfg }).diagnostics.map((d) => [d.rule, d.severity, d.line, d.column]);
    cfg.close();
    assert.deepEqual(got, [['pip-no-cache-dir', 'error', 10, 72], ['duplicate-entry', 'info', 12, 67],
      ['unused-suppression', 'warning', 13, 19]]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'boxlint-config-'));
    try {
      fs.writeFileSync(path.join(dir, 'app.py'), src);
      fs.writeFileSync(path.join(dir, '.boxlint.json'), JSON.stringify({ rules }));
      const run = spawnSync(process.env.BOXLINT_CLI, ['--format', 'json', path.join(dir, 'app.py')], { encoding: 'utf8' });
      assert.equal(run.status, 1, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout).files[0].diagnostics.map((d) => [d.rule, d.severity, d.line, d.column]), got);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

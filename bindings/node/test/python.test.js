'use strict';
// Node.js bindings: Python source files: findings and fixes in the file.
const test = require('node:test');
const assert = require('node:assert/strict');
const boxlint = require('..');
const { rulesOf } = require('./support');

const PY_SOURCE = `from budai import Client, NetworkPolicy

client = Client()
client.code_interpreter.templates.create(
    name="my-py-extra",
    commands=["pip install x"],
    cpu_count=2,
    memory_mb=4096,
)
client.agents.add_code_interpreter(
    "prm_abc",
    template_id="my-py-extra",
    network_policy=NetworkPolicy(type="filtered", allow_out=["pypi.org"], deny_out=[]),
)
`;
const PY_SAFE_FIXED = PY_SOURCE.replace('["pip install x"]', '["RUN pip install x"]');
const PY_FIXED = PY_SAFE_FIXED.replace('deny_out=[])', 'deny_out=["ALL_TRAFFIC"])');

/** 1-based line and column (code points) of the first `needle`, and its UTF-8 byte offset. */
function lineCol(text, needle) {
  const i = text.indexOf(needle);
  const before = text.slice(0, i);
  const lineStart = before.lastIndexOf('\n') + 1;
  return [before.split('\n').length, Array.from(text.slice(lineStart, i)).length + 1,
    Buffer.byteLength(before)];
}

// The subtests of 'Python source files', in order: [name, fn] each.
const PYTHON_CASES = [
  ['findings are in the file, with file fixes', () => {
    const r = boxlint.checkPython(PY_SOURCE);
    assert.deepEqual(rulesOf(r), ['unknown-instruction', 'allow-without-effect']);
    const [cmd, pol] = r.diagnostics;
    assert.deepEqual([cmd.severity, cmd.command, cmd.path], ['error', 0, 'commands[0]']);
    assert.deepEqual([cmd.line, cmd.column, cmd.offset], lineCol(PY_SOURCE, 'pip install'));
    assert.deepEqual([cmd.line, cmd.column], [6, 16]);
    assert.deepEqual(cmd.fix, { offset: cmd.offset, length: 0, text: 'RUN ', description: 'insert RUN',
      unsafe: false, applicability: 'safe' });
    assert.deepEqual([pol.severity, pol.command, pol.path], ['warning', null, 'network_policy.allow_out[0]']);
    assert.deepEqual([pol.line, pol.column, pol.offset], lineCol(PY_SOURCE, '"pypi.org"'));
    assert.equal(pol.fix.text, '"ALL_TRAFFIC"');
    assert.equal(pol.fix.offset, PY_SOURCE.indexOf('deny_out=[]') + 'deny_out=['.length);
    // the flag survives into the file's fix: ALL_TRAFFIC changes egress, an unsafe fix
    assert.deepEqual([pol.fix.unsafe, pol.fix.applicability], [true, 'unsafe']);
    assert.equal(pol.message, "allow_out[0]: 'pypi.org' has no effect: no deny_out entry overlaps it, " +
      'and destinations matched by neither list are allowed');
    assert.equal(r.ok, false);
  }],
  ['applyFixes gives the exact text; a second check is clean', () => {
    const r = boxlint.checkPython(PY_SOURCE);
    // safe fixes only unless asked: the unsafe one is shown, not applied
    assert.deepEqual(boxlint.applyFixes(PY_SOURCE, r.diagnostics), { text: PY_SAFE_FIXED, applied: [true, false] });
    assert.equal(r.fixed(PY_SOURCE), PY_SAFE_FIXED);
    // the fixed command is a command now, and the default config's warnings run on it
    assert.deepEqual(rulesOf(boxlint.checkPython(PY_SAFE_FIXED)), ['pip-no-cache-dir', 'allow-without-effect']);
    const all = { unsafeFixes: true };
    assert.deepEqual(boxlint.applyFixes(PY_SOURCE, r.diagnostics, all), { text: PY_FIXED, applied: [true, true] });
    assert.equal(r.fixed(PY_SOURCE, all), PY_FIXED);
    assert.deepEqual(r.fixed(Buffer.from(PY_SOURCE), all), Buffer.from(PY_FIXED));
    assert.deepEqual(boxlint.applyFixes('ab', [{ offset: 0, length: 0, text: 'x', unsafe: true }]),
      { text: 'ab', applied: [false] });
    assert.deepEqual(rulesOf(boxlint.checkPython(PY_FIXED)), ['pip-no-cache-dir']);
  }],
  ['columns are code points, offsets bytes', () => {
    const src = 'from budai import Client\nclient = Client()\n' +
      'client.code_interpreter.templates.create(name="t", commands=["RUN echo \u00e9", ' +
      '"pip install x"], cpu_count=2, memory_mb=4096)\n';
    const r = boxlint.checkPython(src);
    const [d, ...rest] = r.diagnostics;
    assert.equal(rest.length, 0);
    assert.deepEqual([d.rule, d.command, d.line], ['unknown-instruction', 1, 3]);
    assert.deepEqual([d.line, d.column, d.offset], lineCol(src, 'pip install'));
    assert.equal(d.offset - src.indexOf('pip install'), 1); // the 2 bytes of U+00E9
    const want = src.replace('"pip install x"', '"RUN pip install x"');
    assert.equal(r.fixed(src), want);
    assert.deepEqual(boxlint.checkPython(Buffer.from(src)).fixed(Buffer.from(src)), Buffer.from(want));
  }],
  ['a syntax error is one diagnostic in the result', () => {
    const r = boxlint.checkPython('import budai\nx = (\n');
    assert.deepEqual(r.diagnostics.map((d) => [d.rule, d.severity, d.line, d.column]),
      [['python-syntax', 'error', 2, 5]]);
    assert.match(r.diagnostics[0].message, /never closed/);
    assert.equal(r.ok, false);
    // a broken file that cannot reach the SDK: nothing, ok
    const q = boxlint.checkPython('x = (\n');
    assert.deepEqual([q.ok, q.diagnostics], [true, []]);
  }],
  ['policy options and config', () => {
    const src = 'from budai import NetworkPolicy\n' +
      'p = NetworkPolicy(type="filtered", allow_out=["pypi.org"], deny_out=["ALL_TRAFFIC"])\n';
    assert.deepEqual(boxlint.checkPython(src).diagnostics, []);
    assert.ok(rulesOf(boxlint.checkPython(src.replace(', deny_out=["ALL_TRAFFIC"]', ''),
      { compat: 'e2b' })).includes('domains-require-deny-all'));
    const cfg = new boxlint.Config({ severities: { 'allow-without-effect': 'off' } });
    assert.ok(!rulesOf(boxlint.checkPython(PY_SOURCE, { config: cfg })).includes('allow-without-effect'));
    cfg.close();
    assert.throws(() => boxlint.checkPython(src, { compat: 'aws' }), RangeError);
    assert.throws(() => boxlint.checkPython(3), TypeError);
  }],
  ['not-static and suppressions', () => {
    const src = 'import os\nfrom budai import Client\nclient = Client()\n' +
      "client.code_interpreter.templates.create(name=os.environ['N'], " +
      "commands=['RUN pip install --no-cache-dir x'], cpu_count=2, memory_mb=4096)\n";
    assert.deepEqual(boxlint.checkPython(src).diagnostics.map((d) => [d.rule, d.severity, d.path, d.line]),
      [['not-static', 'info', 'name', 4]]);
    // not-static cannot be silenced inline: the comment is the unused one
    assert.deepEqual(boxlint.checkPython(src.replace('4096)\n', '4096)  # boxlint: ignore=not-static\n'))
      .diagnostics.map((d) => [d.rule, d.line]), [['not-static', 4], ['unused-suppression', 4]]);
    assert.deepEqual(boxlint.checkPython(src.replace('4096)\n', '4096)  # boxlint: ignore=bare-cr\n'))
      .diagnostics.map((d) => [d.rule, d.line]), [['not-static', 4], ['unused-suppression', 4]]);
  }],
];

test('Python source files', async (t) => {
  for (const args of PYTHON_CASES) await t.test(...args);
});

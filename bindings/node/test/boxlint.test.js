'use strict';
// Tests of the Node.js bindings against the library built in the same tree ($BOXLINT_LIBRARY).
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const boxlint = require('..');

const GOOD = {
  name: 'my-py-extra', commands: ['RUN pip install --no-cache-dir pydantic-ai'],
  cpu_count: 2, memory_mb: 4096,
};
const SEED = { type: 'filtered', allow_out: ['pypi.org', '*.pythonhosted.org'], deny_out: [] };
const rulesOf = (r) => r.diagnostics.map((d) => d.rule);

test('clean template', async (t) => {
  await t.test('the seed quick start is clean', () => {
    const r = boxlint.checkTemplate(GOOD);
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.ok, true);
    assert.deepEqual(r.instructions.map((i) => [i.index, i.keyword, i.line]), [[0, 'RUN', 1]]);
    assert.equal(boxlint.validateTemplate(GOOD).ok, true);
  });
  await t.test('the update example', () => {
    assert.deepEqual(boxlint.checkCommands(['RUN pip install --no-cache-dir pydantic-ai',
      'RUN pip install --no-cache-dir httpx']).diagnostics, []);
  });
  await t.test('version comes from the C library', () => {
    assert.match(boxlint.version, /^\d+\.\d+\.\d+$/);
  });
});

test('seed examples', async (t) => {
  await t.test('a command without RUN', () => {
    const [d, ...rest] = boxlint.checkCommands(['pip install pydantic-ai']).diagnostics;
    assert.equal(rest.length, 0);
    assert.deepEqual([d.rule, d.severity, d.command, d.line, d.column, d.endColumn],
      ['unknown-instruction', 'error', 0, 1, 1, 4]);
    assert.match(d.hint, /did you forget RUN\?/);
    assert.deepEqual(d.fix, { offset: 0, length: 0, text: 'RUN ', description: 'insert RUN',
      unsafe: false, applicability: 'safe' });
  });
  await t.test('a misspelt keyword', () => {
    const [d] = boxlint.checkCommands(['WORKDRI /app']).diagnostics;
    assert.match(d.hint, /did you mean WORKDIR\?/);
    assert.equal(d.fix.text, 'WORKDIR');
  });
  await t.test('each denied instruction has its own message', () => {
    const cases = {
      'FROM python:3.12': /base image/,
      'COPY app.py /app/': /build context/,
      'ADD https://example.com/x.tgz /opt/': /build context/,
      'CMD ["python"]': /PID 1/,
      'ENTRYPOINT ["python"]': /PID 1/,
    };
    const messages = new Set();
    for (const [cmd, re] of Object.entries(cases)) {
      const r = boxlint.checkCommands([cmd]);
      assert.deepEqual(rulesOf(r), ['denied-instruction'], cmd);
      const d = r.diagnostics[0];
      assert.equal(d.severity, 'error');
      assert.ok(d.message.includes(cmd.split(' ')[0]), d.message);
      assert.match(`${d.message} ${d.hint}`, re);
      messages.add(d.message);
    }
    assert.equal(messages.size, 5);
  });
  await t.test('ValidationError carries every error', () => {
    assert.throws(() => boxlint.validateTemplate({ ...GOOD, commands: ['FROM x', 'pip install y'] }),
      (e) => {
        assert.ok(e instanceof boxlint.ValidationError);
        assert.ok(e instanceof Error);
        assert.deepEqual(e.errors.map((d) => d.rule), ['denied-instruction', 'unknown-instruction']);
        assert.match(e.message, /^2 errors: .*\[denied-instruction\]/);
        return true;
      });
  });
  await t.test('65 commands', () => {
    assert.deepEqual(boxlint.checkCommands(Array(64).fill('RUN true')).diagnostics, []);
    assert.deepEqual(rulesOf(boxlint.checkCommands(Array(65).fill('RUN true'))), ['too-many-commands']);
  });
  await t.test('a 4097-byte command', () => {
    const ok = 'RUN echo ' + 'x'.repeat(4096 - 9);
    assert.deepEqual(boxlint.checkCommands([ok]).diagnostics, []);
    assert.deepEqual(rulesOf(boxlint.checkCommands([ok + 'x'])), ['command-too-long']);
  });
  await t.test('NUL byte', () => {
    const [d] = boxlint.checkCommands(['RUN echo a\0b']).diagnostics;
    assert.deepEqual([d.rule, d.column, d.offset], ['nul-byte', 11, 10]);
  });
  await t.test('bare CR', () => {
    assert.deepEqual(rulesOf(boxlint.checkCommands(['RUN echo a\rb'])), ['bare-cr']);
    assert.deepEqual(boxlint.checkCommands(['RUN echo a\r\n']).diagnostics, []);
  });
  await t.test('Buffers reach the library unchanged', () => {
    assert.deepEqual(rulesOf(boxlint.checkCommands([Buffer.from([0x52, 0x55, 0x4e, 0x20, 0xff])])),
      ['invalid-utf8']);
  });
  await t.test('limits are options', () => {
    assert.deepEqual(rulesOf(boxlint.checkCommands(Array(3).fill('RUN true'),
      { options: { maxCommands: 2 } })), ['too-many-commands']);
  });
  await t.test('template fields', () => {
    const r = boxlint.checkTemplate({ name: 'My Template', commands: ['RUN true'], cpu_count: 2.5,
      memory_mb: 64, cpuCount: 1 });
    const got = new Set(r.diagnostics.map((d) => `${d.rule} ${d.path}`));
    for (const want of ['invalid-name name', 'invalid-resources cpu_count',
      'invalid-resources memory_mb', 'unknown-field cpuCount']) assert.ok(got.has(want), want);
    const cpu = r.diagnostics.find((d) => d.path === 'cpu_count');
    assert.match(cpu.message, /2\.5/);
    assert.equal(cpu.command, null);
    assert.deepEqual(rulesOf(boxlint.checkTemplate({ name: 'x', commands: [] })),
      ['missing-field', 'missing-field']);
  });
  await t.test('a template parsed from JSON', () => {
    const tpl = JSON.parse('{"name": "t", "commands": ["RUN true"], "cpu_count": 2,' +
      ' "memory_mb": 4096, "network_policy": {"type": "disabled"}}');
    assert.deepEqual(boxlint.checkTemplate(tpl).diagnostics, []);
  });
  await t.test('fragment', () => {
    const [d] = boxlint.checkFragment('RUN true\n\nFROM x\n').diagnostics;
    assert.deepEqual([d.rule, d.command, d.line], ['denied-instruction', 1, 3]);
  });
});

test('NetworkPolicy', async (t) => {
  await t.test('the seed example alone allows everything', () => {
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
  });
  await t.test('the seed example with ALL_TRAFFIC denied', () => {
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
  });
  await t.test('a template with a policy', () => {
    const r = boxlint.checkTemplate({ ...GOOD, network_policy: SEED });
    const d = r.diagnostics.find((x) => x.rule === 'allow-without-effect');
    assert.equal(d.severity, 'warning');
    assert.match(d.path, /^network_policy\./);
    assert.equal(r.ok, true);
    const p = new boxlint.NetworkPolicy(SEED);
    assert.deepEqual(boxlint.checkTemplate({ ...GOOD, network_policy: p }).diagnostics, r.diagnostics);
    p.close();
  });
  await t.test('an invalid policy throws PolicyError with detail', () => {
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
  });
  await t.test('an invalid policy in a template is reported', () => {
    const tpl = { ...GOOD, network_policy: { type: 'filtered', allow_out: ['pypi.org:443'] } };
    const [d] = boxlint.checkTemplate(tpl).errors;
    assert.deepEqual([d.rule, d.detail, d.path], ['invalid-policy-entry', 'port', 'network_policy.allow_out[0]']);
    assert.throws(() => boxlint.validateTemplate(tpl), boxlint.ValidationError);
  });
  await t.test('unmatched deny and E2B compatibility', () => {
    const p = new boxlint.NetworkPolicy({ type: 'filtered', allow_out: ['pypi.org'] }, { unmatched: 'deny' });
    const d = p.decide({ host: 'github.com' });
    assert.deepEqual([d.verdict, d.reason, d.entry], ['deny', 'default', null]);
    p.close();
    assert.throws(() => new boxlint.NetworkPolicy({ type: 'filtered', allow_out: ['pypi.org'] },
      { compat: 'e2b' }), (e) => e.errors.some((x) => x.rule === 'domains-require-deny-all'));
  });
  await t.test('needs-ip and invalid destinations', () => {
    const p = new boxlint.NetworkPolicy({ type: 'filtered', allow_out: ['pypi.org'], deny_out: ['10.0.0.0/8'] });
    assert.deepEqual([p.decide({ host: 'example.com' }).verdict, p.decide({ host: 'example.com' }).reason],
      ['unknown', 'needs-ip']);
    assert.equal(p.decide({ host: 'example.com', ip: '10.1.2.3' }).verdict, 'deny');
    assert.equal(p.decide({ ip: '010.1.2.3' }).reason, 'invalid-destination');
    p.close();
  });
  await t.test('disabled and open', () => {
    const d = new boxlint.NetworkPolicy();
    assert.equal(d.type, 'disabled');
    assert.equal(d.decide({ host: 'pypi.org' }).reason, 'policy-disabled');
    d.close();
    const o = new boxlint.NetworkPolicy({ type: 'open' });
    assert.equal(o.decide({ ip: '1.1.1.1' }).reason, 'policy-open');
    o.close();
  });
});

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

test('Python source files', async (t) => {
  await t.test('findings are in the file, with file fixes', () => {
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
  });
  await t.test('applyFixes gives the exact text; a second check is clean', () => {
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
  });
  await t.test('columns are code points, offsets bytes', () => {
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
  });
  await t.test('a syntax error is one diagnostic in the result', () => {
    const r = boxlint.checkPython('x = (\n');
    assert.deepEqual(r.diagnostics.map((d) => [d.rule, d.severity, d.line, d.column]),
      [['python-syntax', 'error', 1, 5]]);
    assert.match(r.diagnostics[0].message, /never closed/);
    assert.equal(r.ok, false);
  });
  await t.test('policy options and config', () => {
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
  });
  await t.test('not-static and suppressions', () => {
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
  });
});

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

test('applyFixes', async (t) => {
  const F = (offset, length, text) => ({ offset, length, text, description: null });
  await t.test('overlapping fixes: one is applied', () => {
    const fixes = [F(4, 4, 'cat'), F(6, 4, 'XX'), F(0, 0, '>')];
    assert.deepEqual(boxlint.applyFixes('RUN echo hi', fixes),
      { text: '>RUN cat hi', applied: [true, false, true] });
    assert.deepEqual(boxlint.applyFixes('RUN echo hi', [...fixes].reverse()).applied, [true, false, true]);
    assert.deepEqual(boxlint.applyFixes('RUN', [F(3, 0, 'a'), F(3, 0, 'b')]),
      { text: 'RUNa', applied: [true, false] });
  });
  await t.test('touching fixes are both applied', () => {
    assert.deepEqual(boxlint.applyFixes('aabb', [F(0, 2, 'A'), F(2, 2, 'B'), F(4, 0, '!')]),
      { text: 'AB!', applied: [true, true, true] });
  });
  await t.test('out-of-range fixes are not applied', () => {
    const fixes = [F(3, 1, 'x'), F(2, 2, 'x'), F(-1, 0, 'x'), F(0, 2n ** 70n, 'x'), F(1, 1, 'B')];
    assert.deepEqual(boxlint.applyFixes('abc', fixes),
      { text: 'aBc', applied: [false, false, false, false, true] });
    assert.deepEqual(boxlint.applyFixes('abc', [F(3, 0, 'd')]), { text: 'abcd', applied: [true] });
  });
  await t.test('offsets are UTF-8 bytes', () => {
    const text = 'echo \u00e9t\u00e9 \u{1F600}!';
    const fixes = [F(8, 2, 'e'), F(Buffer.from(text).indexOf(Buffer.from('\u{1F600}')), 4, ':)')];
    assert.deepEqual(boxlint.applyFixes(text, fixes), { text: 'echo \u00e9te :)!', applied: [true, true] });
    const b = boxlint.applyFixes(Buffer.from(text), fixes);
    assert.ok(Buffer.isBuffer(b.text));
    assert.deepEqual(b.text, Buffer.from('echo \u00e9te :)!'));
  });
  await t.test('an empty list and an empty text', () => {
    assert.deepEqual(boxlint.applyFixes('abc', []), { text: 'abc', applied: [] });
    assert.deepEqual(boxlint.applyFixes(Buffer.alloc(0), []), { text: Buffer.alloc(0), applied: [] });
    assert.deepEqual(boxlint.applyFixes('', new Set([F(0, 0, 'x')])), { text: 'x', applied: [true] });
  });
  await t.test('diagnostics without a fix are skipped; fragment results are file results', () => {
    const text = 'FROM x\npip install y\n';
    const r = boxlint.checkFragment(text);
    assert.deepEqual(rulesOf(r), ['denied-instruction', 'unknown-instruction']);
    assert.deepEqual(boxlint.applyFixes(text, r.diagnostics),
      { text: 'FROM x\nRUN pip install y\n', applied: [false, true] });
    assert.equal(r.fixed(text), 'FROM x\nRUN pip install y\n');
    assert.equal(boxlint.checkCommands(['pip install x']).fixed, undefined);
  });
  await t.test('bad arguments throw TypeError', () => {
    for (const [fn, re] of [
      [() => boxlint.applyFixes(3, []), /text must be a string or a Buffer/],
      [() => boxlint.applyFixes('x', F(0, 0, 'y')), /fixes must be an iterable/],
      [() => boxlint.applyFixes('x', 'abc'), /fixes must be an iterable/],
      [() => boxlint.applyFixes('x', [3]), /fixes\[0\] must be a fix/],
      [() => boxlint.applyFixes('x', [F('0', 0, 'y')]), /fixes\[0\]\.offset must be an integer/],
      [() => boxlint.applyFixes('x', [F(0.5, 0, 'y')]), /fixes\[0\]\.offset must be an integer/],
      [() => boxlint.applyFixes('x', [F(0, 0, 7)]), /fixes\[0\]\.text must be a string/],
    ]) assert.throws(fn, (e) => e instanceof TypeError && re.test(e.message), re.source);
  });
});

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

test('error handling', async (t) => {
  await t.test('a closed policy throws on use', () => {
    const p = new boxlint.NetworkPolicy({ type: 'filtered', allow_out: ['pypi.org'], deny_out: ['ALL_TRAFFIC'] });
    p.close();
    p.close(); // idempotent
    assert.equal(p.closed, true);
    assert.throws(() => p.decide({ host: 'pypi.org' }), boxlint.ClosedError);
    assert.throws(() => boxlint.checkTemplate({ ...GOOD, network_policy: p }), boxlint.ClosedError);
  });
  await t.test('a closed config throws on use', () => {
    const c = new boxlint.Config();
    c.close();
    assert.throws(() => boxlint.checkCommands(['RUN true'], { config: c }),
      { name: 'ClosedError', message: 'Config is closed' });
  });
  await t.test('Symbol.dispose closes', { skip: typeof Symbol.dispose !== 'symbol' }, () => {
    const p = new boxlint.NetworkPolicy({ type: 'open' });
    p[Symbol.dispose]();
    assert.equal(p.closed, true);
  });
  await t.test('bad types throw TypeError', () => {
    const cases = [
      [() => boxlint.checkCommands('RUN true'), /commands must be an array of strings, not string/],
      [() => boxlint.checkCommands(['RUN true', 3]), /commands\[1\] must be a string, not number/],
      [() => boxlint.checkTemplate({ ...GOOD, cpu_count: '2' }), /cpu_count must be an integer, not string/],
      [() => boxlint.checkTemplate({ ...GOOD, memory_mb: true }), /memory_mb must be an integer/],
      [() => boxlint.checkTemplate({ ...GOOD, name: 7 }), /name must be a string/],
      [() => boxlint.checkTemplate('x'), /template must be an object/],
      [() => boxlint.checkTemplate({ ...GOOD, network_policy: ['pypi.org'] }), /network_policy must be/],
      [() => boxlint.checkTemplate({ ...GOOD, network_policy: { alow_out: [] } }), /unknown key "alow_out"/],
      [() => new boxlint.NetworkPolicy({ type: 'filtered', allow_out: 'pypi.org' }), /allow_out must be an array/],
      [() => new boxlint.NetworkPolicy({ type: 2 }), /type must be a string/],
      [() => new boxlint.NetworkPolicy({ type: 'open' }).decide({ host: 1 }), /host must be a string/],
      [() => boxlint.checkCommands(['RUN true'], { config: {} }), /config must be a boxlint Config/],
      [() => new boxlint.Config({ severities: ['x'] }), /severities must be an object/],
    ];
    for (const [fn, re] of cases) assert.throws(fn, (e) => e instanceof TypeError && re.test(e.message), re.source);
  });
  await t.test('fractional resources are diagnostics, not exceptions', () => {
    assert.deepEqual(rulesOf(boxlint.checkTemplate({ ...GOOD, cpu_count: 2.5, memory_mb: 1e30 })),
      ['invalid-resources', 'invalid-resources']);
    assert.deepEqual(boxlint.checkTemplate({ ...GOOD, cpu_count: 2n }).diagnostics, []);
  });
  await t.test('emit writes the enforcement rules, or refuses', () => {
    const p = new boxlint.NetworkPolicy({ type: 'filtered', allow_out: ['pypi.org', '*.pythonhosted.org'], deny_out: ['ALL_TRAFFIC'] });
    const conf = p.emit('dnsmasq', { resolvers: ['198.51.100.53'] }).split('\n');
    assert.ok(conf.includes('server=198.51.100.53'));
    assert.ok(conf.includes('nftset=/pypi.org/4#inet#boxlint#allow4,6#inet#boxlint#allow6'));
    assert.ok(conf.includes('address=/*.pypi.org/'));
    const script = p.emit('nftables', { table: 'sandbox', iifname: 'veth0', resolvers: ['198.51.100.53'] });
    assert.ok(script.includes('table inet sandbox {') && script.includes('iifname != "veth0" accept'));
    assert.throws(() => p.emit('iptables'), RangeError);
    assert.throws(() => p.emit('nftables', { table: 'two words' }), RangeError);
    p.close();
    const q = new boxlint.NetworkPolicy({ type: 'filtered', allow_out: ['pypi.org', '10.0.0.0/8'], deny_out: ['ALL_TRAFFIC'] });
    assert.throws(() => q.emit('nftables', { resolvers: ['198.51.100.53'] }), (e) => e instanceof boxlint.PolicyError &&
      e.errors.length === 1 && e.errors[0].rule === 'unenforceable-entry' && e.errors[0].path === 'network_policy.allow_out[0]');
    q.close();
    const r = new boxlint.NetworkPolicy({ type: 'filtered', allow_out: ['pypi.org'], deny_out: ['ALL_TRAFFIC'] });
    assert.throws(() => r.emit('nftables'), (e) => e instanceof boxlint.PolicyError && // no resolver: DNS would be cut
      e.errors[0].path === 'network_policy.deny_out[0]' && /no resolver given/.test(e.errors[0].message));
    r.close();
  });
  await t.test('decide needs a destination; options are checked', () => {
    const p = new boxlint.NetworkPolicy({ type: 'open' });
    assert.throws(() => p.decide({}), RangeError);
    p.close();
    assert.throws(() => new boxlint.NetworkPolicy({ type: 'open' }, { unmatched: 'maybe' }), RangeError);
    assert.throws(() => new boxlint.NetworkPolicy({ type: 'open' }, { compat: 'aws' }), RangeError);
  });
});

test('rules and explain', async (t) => {
  await t.test('the rule table', () => {
    const ids = boxlint.rules().map((r) => r.id);
    for (const id of ['denied-instruction', 'unknown-instruction', 'too-many-commands',
      'command-too-long', 'nul-byte', 'bare-cr', 'allow-without-effect']) assert.ok(ids.includes(id), id);
    assert.equal(new Set(ids).size, ids.length);
    const text = boxlint.explain('unknown-instruction');
    assert.ok(text.startsWith('unknown-instruction (error): '));
    assert.ok(text.includes('\nBad:\n    pip install pydantic-ai\n'));
    assert.equal(boxlint.rule('nul-byte').severity, 'error');
    assert.throws(() => boxlint.explain('no-such-rule'), RangeError);
  });
  await t.test('explain matches the CLI', { skip: !process.env.BOXLINT_CLI && 'BOXLINT_CLI not set' }, () => {
    const out = execFileSync(process.env.BOXLINT_CLI, ['explain', 'denied-instruction'], { encoding: 'utf8' });
    assert.equal(out, boxlint.explain('denied-instruction'));
  });
});

test('struct layouts match the C headers', { skip: !process.env.BOXLINT_LAYOUT && 'BOXLINT_LAYOUT not set' }, () => {
  const koffi = require('koffi');
  const layout = JSON.parse(execFileSync(process.env.BOXLINT_LAYOUT, { encoding: 'utf8' }));
  const T = boxlint._types;
  const structs = Object.keys(layout).filter((n) => !n.startsWith('enum '));
  assert.deepEqual(Object.keys(T).sort(), structs.sort());
  for (const name of structs) {
    const want = layout[name];
    assert.equal(koffi.sizeof(T[name]), want.size, `sizeof(${name})`);
    assert.deepEqual(Object.keys(T[name].members), Object.keys(want.fields), `${name} fields`);
    for (const [f, off] of Object.entries(want.fields)) {
      assert.equal(koffi.offsetof(T[name], f), off, `${name}.${f}`);
    }
  }
  for (const name of Object.keys(layout).filter((n) => n.startsWith('enum '))) {
    assert.equal(layout[name].size, koffi.sizeof('int'), name);
  }
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

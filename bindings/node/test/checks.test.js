'use strict';
// Node.js bindings: template, command and fragment checks.
const test = require('node:test');
const assert = require('node:assert/strict');
const boxlint = require('..');
const { GOOD, rulesOf } = require('./support');

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

// The subtests of 'seed examples', in order: [name, fn] each.
const SEED_EXAMPLES = [
  ['a command without RUN', () => {
    const [d, ...rest] = boxlint.checkCommands(['pip install pydantic-ai']).diagnostics;
    assert.equal(rest.length, 0);
    assert.deepEqual([d.rule, d.severity, d.command, d.line, d.column, d.endColumn],
      ['unknown-instruction', 'error', 0, 1, 1, 4]);
    assert.match(d.hint, /did you forget RUN\?/);
    assert.deepEqual(d.fix, { offset: 0, length: 0, text: 'RUN ', description: 'insert RUN',
      unsafe: false, applicability: 'safe' });
  }],
  ['a misspelt keyword', () => {
    const [d] = boxlint.checkCommands(['WORKDRI /app']).diagnostics;
    assert.match(d.hint, /did you mean WORKDIR\?/);
    assert.equal(d.fix.text, 'WORKDIR');
  }],
  ['each denied instruction has its own message', () => {
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
  }],
  ['ValidationError carries every error', () => {
    assert.throws(() => boxlint.validateTemplate({ ...GOOD, commands: ['FROM x', 'pip install y'] }),
      (e) => {
        assert.ok(e instanceof boxlint.ValidationError);
        assert.ok(e instanceof Error);
        assert.deepEqual(e.errors.map((d) => d.rule), ['denied-instruction', 'unknown-instruction']);
        assert.match(e.message, /^2 errors: .*\[denied-instruction\]/);
        return true;
      });
  }],
  ['65 commands', () => {
    assert.deepEqual(boxlint.checkCommands(Array(64).fill('RUN true')).diagnostics, []);
    assert.deepEqual(rulesOf(boxlint.checkCommands(Array(65).fill('RUN true'))), ['too-many-commands']);
  }],
  ['a 4097-byte command', () => {
    const ok = 'RUN echo ' + 'x'.repeat(4096 - 9);
    assert.deepEqual(boxlint.checkCommands([ok]).diagnostics, []);
    assert.deepEqual(rulesOf(boxlint.checkCommands([ok + 'x'])), ['command-too-long']);
  }],
  ['NUL byte', () => {
    const [d] = boxlint.checkCommands(['RUN echo a\0b']).diagnostics;
    assert.deepEqual([d.rule, d.column, d.offset], ['nul-byte', 11, 10]);
  }],
  ['bare CR', () => {
    assert.deepEqual(rulesOf(boxlint.checkCommands(['RUN echo a\rb'])), ['bare-cr']);
    assert.deepEqual(boxlint.checkCommands(['RUN echo a\r\n']).diagnostics, []);
  }],
  ['Buffers reach the library unchanged', () => {
    assert.deepEqual(rulesOf(boxlint.checkCommands([Buffer.from([0x52, 0x55, 0x4e, 0x20, 0xff])])),
      ['invalid-utf8']);
  }],
  ['limits are options', () => {
    assert.deepEqual(rulesOf(boxlint.checkCommands(Array(3).fill('RUN true'),
      { options: { maxCommands: 2 } })), ['too-many-commands']);
  }],
  ['template fields', () => {
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
  }],
  ['a template parsed from JSON', () => {
    const tpl = JSON.parse('{"name": "t", "commands": ["RUN true"], "cpu_count": 2,' +
      ' "memory_mb": 4096, "network_policy": {"type": "disabled"}}');
    assert.deepEqual(boxlint.checkTemplate(tpl).diagnostics, []);
  }],
  ['fragment', () => {
    const [d] = boxlint.checkFragment('RUN true\n\nFROM x\n').diagnostics;
    assert.deepEqual([d.rule, d.command, d.line], ['denied-instruction', 1, 3]);
  }],
];

test('seed examples', async (t) => {
  for (const args of SEED_EXAMPLES) await t.test(...args);
});

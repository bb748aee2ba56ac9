'use strict';
// checkFile: a file as the command checks it (the command is $BOXLINT_CLI).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const boxlint = require('..');

const skip = !process.env.BOXLINT_CLI && 'BOXLINT_CLI is not set';
if (process.env.BOXLINT_CLI) process.env.BOXLINT_COMMAND = process.env.BOXLINT_CLI;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'boxlint-file-'));
const write = (name, text) => { const p = path.join(dir, name); fs.writeFileSync(p, text); return p; };

test('a template: positions in the file', { skip }, () => {
  const p = write('t.json', '{"name": "t",\n "commands": ["RUN true", "COPY . /a"],\n' +
    ' "cpu_count": 2, "memory_mb": 4096}\n');
  const r = boxlint.checkFile(p);
  assert.strictEqual(r.checked, true);
  assert.deepStrictEqual(r.diagnostics.map((d) => [d.rule, d.severity, d.line, d.column, d.command]),
    [['denied-instruction', 'error', 2, 28, 1]]);
  assert.strictEqual(r.ok, false);
});

test('not a template: nothing', { skip }, () => {
  for (const [name, text] of [['package.json', '{"name": "web", "version": "1.0.0"}\n'],
    ['Dockerfile', 'FROM debian\nCOPY . /a\n']]) {
    const r = boxlint.checkFile(write(name, text));
    assert.strictEqual(r.checked, false, name);
    assert.deepStrictEqual(r.diagnostics, [], name);
  }
});

test('text checked under the name', { skip }, () => {
  const p = path.join(dir, 'x.Dockerfile');
  const r = boxlint.checkFile(p, { text: 'RUN pip install httpx\n' });
  assert.deepStrictEqual(r.diagnostics.map((d) => [d.rule, d.line, d.column]), [['pip-no-cache-dir', 1, 5]]);
});

test('unreadable input: BoxlintError with the command message', { skip }, () => {
  const p = write('bad.json', '{"name": "t", "commands": [}\n');
  assert.throws(() => boxlint.checkFile(p), (e) => e instanceof boxlint.BoxlintError && /bad\.json:1:/.test(e.message));
});

'use strict';
// Node.js bindings: rules(), rule() and explain().
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const boxlint = require('..');

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

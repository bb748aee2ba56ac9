'use strict';
// Node.js bindings: applyFixes and result.fixed.
const test = require('node:test');
const assert = require('node:assert/strict');
const boxlint = require('..');
const { rulesOf } = require('./support');

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

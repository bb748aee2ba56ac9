'use strict';
// Node.js bindings: the koffi declarations (lib/ffi.js) against the C headers (bindings/layout/layout.c).
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const boxlint = require('..');

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

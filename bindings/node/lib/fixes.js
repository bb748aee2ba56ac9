'use strict';
// Applying fixes to a text with the library's boxlint_apply_fixes.
const koffi = require('koffi');
const { T, C, FIX_UNSAFE } = require('./ffi');
const { checkStatus } = require('./errors');
const { typeName, EMPTY, textBuffer } = require('./inputs');

const SIZE_MAX = 2n ** BigInt(8 * koffi.sizeof('size_t')) - 1n;

/** Item `i` of applyFixes as a Buffer holding a boxlint_fix, or null (skipped by the library)
 *  for a diagnostic without a fix, for offsets no buffer has (negative, too large) and for an
 *  unsafe fix unless `unsafeFixes`. */
function cFix(item, i, keep, unsafeFixes) {
  if (item === null || item === undefined) return null;
  if (typeof item !== 'object') {
    throw new TypeError(`fixes[${i}] must be a fix or a diagnostic, not ${typeName(item)}`);
  }
  const f = 'rule' in item || 'fix' in item ? item.fix : item; // a diagnostic: its fix
  if (f === null || f === undefined) return null;
  const nums = [];
  for (const k of ['offset', 'length']) {
    const v = f[k];
    if (typeof v !== 'bigint' && !Number.isInteger(v)) {
      throw new TypeError(`fixes[${i}].${k} must be an integer, not ${typeName(v)}`);
    }
    nums.push(BigInt(v));
  }
  if (typeof f.text !== 'string' && !(f.text instanceof Uint8Array)) {
    throw new TypeError(`fixes[${i}].text must be a string, not ${typeName(f.text)}`);
  }
  const [offset, length] = nums;
  if (offset < 0n || length < 0n || offset > SIZE_MAX || length > SIZE_MAX) return null;
  if (f.unsafe === true && !unsafeFixes) return null;
  const t = textBuffer(f.text, `fixes[${i}].text`);
  const buf = Buffer.alloc(koffi.sizeof(T.boxlint_fix));
  koffi.encode(buf, T.boxlint_fix, {
    offset, length, text: t.length ? t : null, text_len: t.length, description: null,
    safety: f.unsafe === true ? FIX_UNSAFE : 0,
  });
  keep.push(t, buf);
  return buf;
}

/**
 * Apply fixes to `text` in one pass with the library's boxlint_apply_fixes (the CLI's --fix
 * uses the same). Offsets are byte offsets into the UTF-8 encoding of `text`; a string comes
 * back as a string, a Buffer as a new Buffer. `fixes`: an iterable of fixes ({offset, length,
 * text}) or diagnostics (those without a fix are skipped). Fixes are taken in offset order
 * (insertions first, then the order given); one that overlaps a fix already taken, a second
 * insertion at the same offset and one outside the text are not applied: `applied` says which
 * were. Check the new text again to get those. An unsafe fix (`fix.unsafe`: it changes what
 * the template or policy does, such as adding ALL_TRAFFIC to deny_out) is not applied either
 * unless `opts.unsafeFixes` is true, as `boxlint --fix` without `--unsafe-fixes`.
 */
function applyFixes(text, fixes, opts) {
  const b = textBuffer(text, 'text');
  if (fixes === null || typeof fixes !== 'object' || typeof fixes[Symbol.iterator] !== 'function') {
    throw new TypeError(`fixes must be an iterable of fixes or diagnostics, not ${typeName(fixes)}`);
  }
  const keep = [];
  const unsafeFixes = !!(opts && opts.unsafeFixes);
  const ptrs = Array.from(fixes, (f, i) => cFix(f, i, keep, unsafeFixes));
  const applied = new Uint8Array(Math.max(ptrs.length, 1));
  const out = [null];
  const outLen = [0];
  checkStatus(C.apply_fixes(b.length ? b : EMPTY, b.length, ptrs, ptrs.length, out, outLen,
    applied, null), 'boxlint_apply_fixes');
  let data;
  try {
    const n = Number(outLen[0]);
    data = n ? Buffer.from(new Uint8Array(koffi.view(out[0], n))) : Buffer.alloc(0);
  } finally {
    C.buffer_free(out[0], null);
  }
  return {
    text: typeof text === 'string' ? data.toString('utf8') : data,
    applied: Array.from(applied.subarray(0, ptrs.length), (x) => x !== 0),
  };
}

module.exports = {
  applyFixes,
};

'use strict';
// How a JavaScript value is named and spelled in messages: shared by both backends (koffi and
// WebAssembly); loads nothing.

function typeName(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Uint8Array) return 'Buffer';
  return typeof v === 'object' ? (v.constructor && v.constructor.name) || 'object' : typeof v;
}

/** How a message spells a value of the wrong type: as JSON spells it (String() for what JSON
 *  cannot spell: NaN, bigint, undefined), cut at 40 code points as the library cuts source. */
function spell(v) {
  let t;
  if (typeof v === 'object' && v !== null) {
    try {
      t = JSON.stringify(v);
    } catch (e) {
      t = undefined;
    }
  } else if (typeof v === 'string') {
    t = JSON.stringify(v);
  }
  if (t === undefined) t = String(v);
  const cps = Array.from(t);
  return cps.length <= 40 ? t : `${cps.slice(0, 40).join('')}...`;
}

module.exports = { typeName, spell };

'use strict';
// JavaScript values as the library reads them: spans, lists, numbers, text.
const koffi = require('koffi');
const { typeName, spell } = require('./values');

const EMPTY = Buffer.alloc(1); // a valid address for empty spans (never NULL + 0 in C)

/** A span over `b` (kept alive by the caller for the duration of the call). */
function span(b) {
  return { ptr: b.length ? b : EMPTY, len: b.length };
}

function encodeList(list, what) {
  if (!Array.isArray(list)) {
    throw new TypeError(`${what} must be an array of strings, not ${typeName(list)}`);
  }
  return list.map((c, i) => {
    if (typeof c === 'string') return Buffer.from(c, 'utf8');
    if (c instanceof Uint8Array) return Buffer.from(c.buffer, c.byteOffset, c.byteLength);
    throw new TypeError(`${what}[${i}] must be a string, not ${typeName(c)}`);
  });
}

function decodeString(ptr, len) {
  if (!ptr || !len) return '';
  return Buffer.from(koffi.view(ptr, Number(len))).toString('utf8');
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** An SDK number field as the platform receives it; null/undefined: absent. */
function number(name, v) {
  const n = { present: 0, is_integer: 0, value: 0, text: null };
  if (v === undefined || v === null) return n;
  if (typeof v !== 'number' && typeof v !== 'bigint') {
    throw new TypeError(`${name} must be an integer, not ${typeName(v)} (${JSON.stringify(v)})`);
  }
  n.present = 1;
  const big = typeof v === 'bigint' ? v : Number.isInteger(v) ? BigInt(v) : null;
  if (big !== null && big >= INT64_MIN && big <= INT64_MAX) {
    n.is_integer = 1;
    n.value = big;
  } else {
    n.text = String(v); // 2.5, NaN, 1e30: reported as invalid-resources, as the platform does
  }
  return n;
}

/** A text argument as the library reads it: a string as UTF-8, a Buffer/Uint8Array as is. */
function textBuffer(text, what) {
  if (typeof text === 'string') return Buffer.from(text, 'utf8');
  if (text instanceof Uint8Array) return Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  throw new TypeError(`${what} must be a string or a Buffer, not ${typeName(text)}`);
}

/** A binding's number field: an integer (number or bigint) is one; anything else (2.5, "1",
 *  true) is passed as not an integer, spelt as JSON. null/undefined: absent (the default). */
function bindingNumber(v) {
  const n = { present: 0, is_integer: 0, value: 0, text: null };
  if (v === undefined || v === null) return n;
  n.present = 1;
  const big = typeof v === 'bigint' ? v : Number.isInteger(v) ? BigInt(v) : null;
  if (big !== null && big >= INT64_MIN && big <= INT64_MAX) {
    n.is_integer = 1;
    n.value = big;
  } else {
    n.text = spell(v);
  }
  return n;
}

module.exports = {
  typeName,
  EMPTY,
  span,
  encodeList,
  decodeString,
  number,
  textBuffer,
  spell,
  bindingNumber,
};

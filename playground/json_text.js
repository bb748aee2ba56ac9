// JSON text as the command reads it, in the browser: a strict parser (what jansson accepts with
// JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL: an object or an array at the root, no duplicate key,
// integers within 64 bits), the values as jansson's json_dumps spells them, and where a value is
// in the text (the same scans as the command's cli/input/jsonpos.c). Everything works on the
// UTF-8 bytes of the text, so that offsets, lines and columns are the command's: a column counts
// characters (bytes that do not continue a UTF-8 sequence), as jsonpos.c counts them.

const Q = 0x22;
const BS = 0x5c;
const isWs = (c) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const utf8 = new TextDecoder('utf-8');
const encoder = new TextEncoder();

export class JsonError extends Error {
  constructor(message, off) {
    super(message);
    this.off = off;
  }
}

/* One value: {t: 'object'|'array'|'string'|'integer'|'real'|'true'|'false'|'null', off, end}
 * with `members` ([{key, value}] in order), `items`, `value` (a string's decoded text, a
 * number's value: a BigInt for an integer) and `raw` (a number's text). */
class Parser {
  constructor(s) {
    this.s = s;
    this.i = 0;
    this.depth = 0;
  }

  fail(msg, at = this.i) { throw new JsonError(msg, at); }
  ws() { while (this.i < this.s.length && isWs(this.s[this.i])) this.i++; }

  value() {
    this.ws();
    const s = this.s;
    const c = s[this.i];
    if (this.i >= s.length) this.fail('unexpected end of input');
    if (c === 0x7b || c === 0x5b) {
      if (++this.depth > 2048) this.fail('maximum parsing depth reached');
      const v = c === 0x7b ? this.object() : this.array();
      this.depth--;
      return v;
    }
    if (c === Q) return this.string();
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    for (const [word, t] of [['true', 'true'], ['false', 'false'], ['null', 'null']]) {
      const b = encoder.encode(word);
      if (b.every((x, k) => s[this.i + k] === x)) {
        const off = this.i;
        this.i += b.length;
        return { t, off, end: this.i };
      }
    }
    return this.fail('invalid token');
  }

  object() {
    const off = this.i++;
    const members = [];
    const seen = new Set();
    this.ws();
    if (this.s[this.i] === 0x7d) {
      this.i++;
      return { t: 'object', off, end: this.i, members };
    }
    for (;;) {
      this.ws();
      if (this.s[this.i] !== Q) this.fail('string or \'\x7d\' expected');
      const k = this.string();
      if (seen.has(k.value)) this.fail(`duplicate object key '${k.value}'`, k.off);
      seen.add(k.value);
      this.ws();
      if (this.s[this.i] !== 0x3a) this.fail('\':\' expected');
      this.i++;
      members.push({ key: k.value, keyOff: k.off, value: this.value() });
      this.ws();
      if (this.s[this.i] === 0x2c) {
        this.i++;
        continue;
      }
      if (this.s[this.i] !== 0x7d) this.fail('\'\x7d\' expected');
      this.i++;
      return { t: 'object', off, end: this.i, members };
    }
  }

  array() {
    const off = this.i++;
    const items = [];
    this.ws();
    if (this.s[this.i] === 0x5d) {
      this.i++;
      return { t: 'array', off, end: this.i, items };
    }
    for (;;) {
      items.push(this.value());
      this.ws();
      if (this.s[this.i] === 0x2c) {
        this.i++;
        continue;
      }
      if (this.s[this.i] !== 0x5d) this.fail('\']\' expected');
      this.i++;
      return { t: 'array', off, end: this.i, items };
    }
  }

  hex4(at) {
    let v = 0;
    for (let k = 0; k < 4; k++) {
      const c = this.s[at + k];
      const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1;
      if (d < 0) this.fail('invalid escape', at - 2);
      v = v * 16 + d;
    }
    return v;
  }

  string() {
    const s = this.s;
    const off = this.i++;
    const out = [];
    let from = this.i;
    for (;;) {
      if (this.i >= s.length) this.fail('premature end of input', off);
      const c = s[this.i];
      if (c === Q) break;
      if (c < 0x20) this.fail('control character in string');
      if (c !== BS) {
        this.i++;
        continue;
      }
      out.push(utf8.decode(s.subarray(from, this.i)));
      this.i = this.escape(out);
      from = this.i;
    }
    out.push(utf8.decode(s.subarray(from, this.i)));
    this.i++;
    return { t: 'string', off, end: this.i, value: out.join('') };
  }

  /* The escape at this.i decoded onto `out`; returns the offset after it. */
  escape(out) {
    const s = this.s;
    const e = s[this.i + 1];
    const simple = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };
    if (e in simple) {
      out.push(simple[e]);
      return this.i + 2;
    }
    if (e !== 0x75) this.fail('invalid escape');
    let v = this.hex4(this.i + 2);
    let end = this.i + 6;
    if (v >= 0xd800 && v < 0xdc00) {
      if (s[end] !== BS || s[end + 1] !== 0x75) this.fail(`invalid Unicode '\\u${v.toString(16)}'`);
      const lo = this.hex4(end + 2);
      if (lo < 0xdc00 || lo > 0xdfff) this.fail(`invalid Unicode '\\u${v.toString(16)}\\u${lo.toString(16)}'`);
      v = 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
      end += 6;
    } else if (v >= 0xdc00 && v <= 0xdfff) {
      this.fail(`invalid Unicode '\\u${v.toString(16)}'`);
    }
    out.push(String.fromCodePoint(v));
    return end;
  }

  number() {
    const s = this.s;
    const off = this.i;
    if (s[this.i] === 0x2d) this.i++;
    const digits = () => {
      const a = this.i;
      while (s[this.i] >= 0x30 && s[this.i] <= 0x39) this.i++;
      return this.i - a;
    };
    if (s[this.i] === 0x30) this.i++;
    else if (!digits()) this.fail('invalid token', off);
    let real = false;
    if (s[this.i] === 0x2e) {
      this.i++;
      real = true;
      if (!digits()) this.fail('invalid token', off);
    }
    if (s[this.i] === 0x65 || s[this.i] === 0x45) {
      this.i++;
      real = true;
      if (s[this.i] === 0x2b || s[this.i] === 0x2d) this.i++;
      if (!digits()) this.fail('invalid token', off);
    }
    const raw = utf8.decode(s.subarray(off, this.i));
    if (!real) {
      const v = BigInt(raw);
      if (v > 9223372036854775807n) this.fail('too big integer', off);
      if (v < -9223372036854775808n) this.fail('too big negative integer', off);
      return { t: 'integer', off, end: this.i, value: v, raw };
    }
    const v = Number(raw);
    if (!Number.isFinite(v)) this.fail('real number overflow', off);
    return { t: 'real', off, end: this.i, value: v, raw };
  }
}

/* The text's bytes parsed: the root value, or a JsonError (message, byte offset). */
export function parse(s) {
  const p = new Parser(s);
  p.ws();
  // \x7b and \x7d in messages: braces, which the layering test counts in function bodies
  if (s[p.i] !== 0x7b && s[p.i] !== 0x5b) p.fail('\'[\' or \'\x7b\' expected');
  const root = p.value();
  p.ws();
  if (p.i < s.length) p.fail('end of file expected');
  return root;
}

/* A double as C's printf("%.17g") writes it, then as jansson's dtostr adjusts it. */
function real17(v) {
  let out;
  if (v === 0) {
    out = Object.is(v, -0) ? '-0' : '0';
  } else {
    const [m, e] = v.toExponential(16).split('e');
    const exp = Number(e);
    const strip = (t) => (t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t);
    if (exp < -4 || exp >= 17) {
      out = `${strip(m)}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
    } else {
      out = strip(v.toFixed(Math.max(0, 16 - exp)));
    }
  }
  if (!out.includes('.') && !out.includes('e')) out += '.0';
  return out.replace(/e\+?(-?)0*(\d)/, 'e$1$2');
}

/* A string as jansson writes it (no JSON_ENSURE_ASCII): '"', '\\' and control characters. */
export function quote(str) {
  const esc = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r', '\b': '\\b', '\f': '\\f' };
  // eslint-disable-next-line no-control-regex
  return `"${str.replace(/["\\\u0000-\u001f]/g, (c) => esc[c] || `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/* json_dumps(v, JSON_ENCODE_ANY): ", " between items, ": " after keys, keys in their order. */
export function dumps(v) {
  switch (v.t) {
    case 'object': return `{${v.members.map((m) => `${quote(m.key)}: ${dumps(m.value)}`).join(', ')}}`;
    case 'array': return `[${v.items.map(dumps).join(', ')}]`;
    case 'string': return quote(v.value);
    case 'integer': return v.value.toString();
    case 'real': return real17(v.value);
    default: return v.t;
  }
}

export const get = (obj, key) => (obj && obj.t === 'object' ? (obj.members.find((m) => m.key === key) || {}).value : undefined);

/*==============================================================================================
 * Positions in the text (cli/input/jsonpos.c): scans from an offset, on bytes already parsed.
 *============================================================================================*/

export function ws(s, i) {
  while (i < s.length && isWs(s[i])) i++;
  return i;
}

function skipString(s, i) {
  for (i++; i < s.length && s[i] !== Q; i++) if (s[i] === BS) i++;
  return i < s.length ? i + 1 : s.length;
}

/* The end of the value at i. */
export function skip(s, i) {
  const n = s.length;
  i = ws(s, i);
  if (i >= n) return n;
  if (s[i] === Q) return skipString(s, i);
  if (s[i] === 0x7b || s[i] === 0x5b) {
    let depth = 0;
    for (; i < n; i++) {
      if (s[i] === Q) i = skipString(s, i) - 1;
      else if (s[i] === 0x7b || s[i] === 0x5b) depth++;
      else if ((s[i] === 0x7d || s[i] === 0x5d) && --depth === 0) return i + 1;
    }
    return n;
  }
  while (i < n && ![0x2c, 0x7d, 0x5d, 0x20, 0x0a, 0x09, 0x0d].includes(s[i])) i++;
  return i;
}

/* The value of member `key` of the object at obj (keys compared raw), or -1. */
export function member(s, obj, key) {
  const kb = encoder.encode(key);
  const n = s.length;
  let i = ws(s, obj);
  if (i >= n || s[i] !== 0x7b) return -1;
  i++;
  for (;;) {
    i = ws(s, i);
    if (i >= n || s[i] !== Q) return -1;
    const ks = i;
    const ke = skipString(s, i);
    i = ws(s, ke);
    if (i >= n || s[i] !== 0x3a) return -1;
    const v = ws(s, i + 1);
    if (ke - ks - 2 === kb.length && kb.every((b, k) => s[ks + 1 + k] === b)) return v;
    i = ws(s, skip(s, v));
    if (i >= n || s[i] !== 0x2c) return -1;
    i++;
  }
}

/* The start of element idx of the array at arr, or -1. */
export function element(s, arr, idx) {
  const n = s.length;
  let i = ws(s, arr);
  if (i >= n || s[i] !== 0x5b) return -1;
  i = ws(s, i + 1);
  if (i < n && s[i] === 0x5d) return -1;
  for (let k = 0; ; k++) {
    i = ws(s, i);
    if (k === idx) return i;
    i = ws(s, skip(s, i));
    if (i >= n || s[i] !== 0x2c) return -1;
    i++;
  }
}

export function count(s, arr) {
  let k = 0;
  while (element(s, arr, k) !== -1) k++;
  return k;
}

const hexv = (c) => (c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10);

/* The raw offset of decoded byte d of the string literal at lit (at its closing quote past
 * the end), as jp_string_offset. */
export function stringOffset(s, lit, d) {
  const n = s.length;
  let i = lit + 1;
  let dec = 0;
  while (i < n && s[i] !== Q) {
    let raw;
    let out;
    if (s[i] !== BS) {
      raw = 1;
      out = 1;
    } else if (i + 1 < n && s[i + 1] === 0x75 && i + 5 < n) {
      const v = (hexv(s[i + 2]) << 12) | (hexv(s[i + 3]) << 8) | (hexv(s[i + 4]) << 4) | hexv(s[i + 5]);
      raw = 6;
      if (v >= 0xd800 && v < 0xdc00 && i + 11 < n && s[i + 6] === BS && s[i + 7] === 0x75) {
        raw = 12;
        out = 4;
      } else {
        out = v < 0x80 ? 1 : v < 0x800 ? 2 : 3;
      }
    } else {
      raw = 2;
      out = 1;
    }
    if (d < dec + out) break;
    dec += out;
    i += raw;
  }
  return i;
}

/* [line, column] of byte offset off, both from 1, the column in characters. */
export function lineCol(s, off) {
  let line = 1;
  let col = 1;
  off = Math.min(off, s.length);
  for (let i = 0; i < off; i++) {
    if (s[i] === 0x0a) {
      line++;
      col = 1;
    } else if ((s[i] & 0xc0) !== 0x80) {
      col++;
    }
  }
  return [line, col];
}

/* The value a path such as "network_policy.allow_out[2]" names from the value at `at`, or -1. */
export function pathAt(s, at, path) {
  let v = at <= s.length ? ws(s, at) : -1;
  let p = 0;
  while (p < path.length && v !== -1) {
    if (path[p] === '.') p++;
    if (path[p] === '[') {
      let idx = 0;
      for (p++; path[p] >= '0' && path[p] <= '9'; p++) idx = idx * 10 + Number(path[p]);
      if (path[p] === ']') p++;
      v = element(s, v, idx);
    } else {
      let key = '';
      while (p < path.length && path[p] !== '.' && path[p] !== '[' && key.length < 127) key += path[p++];
      v = member(s, v, key);
    }
  }
  return v;
}

// A .json input checked as the command checks one, over the WebAssembly build: what kind its
// content is (cli/input/kind.c's cli_json_kind), the values the library takes (template_load.c),
// the library's checks and the template's network_policy (lint_run.c), where each finding is in
// the text (output/out_position.c), and each fix as an edit of the text in JSON's own syntax
// (fix/fix_edits.c: inside a string literal, re-escaped; a NetworkPolicy list in its layout).
// Offsets are of the text's UTF-8 bytes, as the library's and the command's are.
import * as J from './json_text.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/* The library's field names (boxlint_template_field, _binding_field, _policy_field). */
export function fields(w) {
  const names = (f) => {
    const out = [];
    for (let i = 0, p; i < 64 && (p = f(i)); i++) out.push(w.str(p));
    return out;
  };
  return {
    template: names(w.x.boxlint_template_field),
    binding: names(w.x.boxlint_binding_field),
    policy: names(w.x.boxlint_policy_field),
  };
}

/* cli_json_kind(root, 0): 'commands', 'binding', 'policy' or 'template'. */
export function jsonKind(f, root) {
  if (root.t === 'array') return 'commands';
  if (root.t !== 'object') return 'template';
  if (J.get(root, f.binding[0]) !== undefined) return 'binding';
  if (root.members.length && root.members.every((m) => f.policy.includes(m.key))) return 'policy';
  return 'template';
}

class Problem extends Error {
  constructor(message, off) {
    super(message);
    this.off = off;
  }
}

const typeWord = (v) => (v.t === 'integer' || v.t === 'real' ? 'a number' : v.t === 'null' ? 'null'
  : v.t === 'true' || v.t === 'false' ? 'a boolean' : v.t === 'array' ? 'an array' : 'an object');

/* A number field as the library takes it: an integer's value, anything else as written. */
const numberField = (v) => (v.t === 'integer' ? v.value : J.dumps(v));
/* A binding's value that is not what its field takes: spelled as json_dumps spells it. */
const spelled = (v) => (v.t === 'integer' ? v.value : { spelled: J.dumps(v) });

/* A template's or binding's fields as w.checkTemplate and w.checkBinding take them, keys in
 * the text's order (Object.keys of a plain object puts "0" and "1" first; the unknown fields
 * are reported in the order the command reports them). */
function fieldsInOrder() {
  const o = {};
  const order = [];
  const proxy = new Proxy(o, { ownKeys: () => order.slice() });
  return {
    o: proxy,
    set(key, value) {
      if (!order.includes(key)) order.push(key);
      Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
    },
  };
}

function commandsOf(arr) {
  return arr.items.map((s, i) => {
    if (s.t !== 'string') throw new Problem(`commands[${i}] must be a string, not ${typeWord(s)}`, s.off);
    return s.value;
  });
}

/* cli_load_json: {kind, root, cmds, cmdsOff, tpl (what w.checkTemplate or w.checkBinding takes),
 * policy (the policy object's value), policyOff}; throws a Problem for a malformed value. */
export function load(f, s, root) {
  const t = fieldsInOrder();
  const l = { kind: jsonKind(f, root), root, cmds: null, cmdsOff: -1, tpl: t.o, policy: null, policyOff: -1 };
  if (l.kind === 'commands') {
    l.cmds = commandsOf(root);
    l.cmdsOff = root.off;
    return l;
  }
  if (l.kind === 'policy') {
    l.policy = root;
    l.policyOff = root.off;
    return l;
  }
  const [name, commands, cpu, memory, policy] = f.template;
  for (const { key, value: v } of root.members) {
    if (key === policy) {
      if (v.t !== 'object' && v.t !== 'null') throw new Problem('"network_policy" must be an object', v.off);
      if (v.t === 'object') {
        l.policy = v;
        l.policyOff = v.off;
      }
    } else if (l.kind === 'binding') {
      const tid = key === f.binding[0];
      if (tid) t.set(key, v.t === 'string' ? v.value : { spelled: J.dumps(v) });
      else if (f.binding.includes(key)) t.set(key, spelled(v));
      else t.set(key, true);
    } else if (key === name) {
      if (v.t !== 'string') throw new Problem('"name" must be a string', v.off);
      t.set(key, v.value);
    } else if (key === commands) {
      if (v.t !== 'array') throw new Problem('"commands" must be an array of strings', v.off);
      l.cmds = commandsOf(v);
      t.set(key, l.cmds);
      l.cmdsOff = v.off;
    } else if (key === cpu || key === memory) {
      t.set(key, numberField(v));
    } else {
      t.set(key, true);
    }
  }
  return l;
}

/* cli_load_policy_spec: {type, allow_out, deny_out} of the policy object; throws a Problem. */
export function policySpec(l) {
  const spec = { allow_out: [], deny_out: [] };
  if (!l.policy) return spec;
  const type = J.get(l.policy, 'type');
  if (type && type.t !== 'null') {
    if (type.t !== 'string') throw new Problem('"network_policy.type" must be a string', type.off);
    spec.type = type.value;
  }
  for (const list of ['allow_out', 'deny_out']) {
    const a = J.get(l.policy, list);
    if (!a || a.t === 'null') continue;
    if (a.t !== 'array') throw new Problem(`"network_policy.${list}" must be an array of strings`, a.off);
    spec[list] = a.items.map((e, i) => {
      if (e.t !== 'string') throw new Problem(`network_policy.${list}[${i}] must be a string`, e.off);
      return e.value;
    });
  }
  return spec;
}

/* The text checked: {kind, unit, findings: [diag with .file {off, end}], problem}. The
 * findings of the template (commands, binding), then those of its policy, as the command
 * prints them; a problem ({message, off}) instead when the text does not load. */
export function check(w, f, text) {
  const s = encoder.encode(text);
  let root;
  try {
    root = J.parse(s);
  } catch (e) {
    if (!(e instanceof J.JsonError)) throw e;
    return { kind: 'json', s, findings: [], problem: { message: `invalid JSON: ${e.message}`, off: e.off } };
  }
  try {
    const l = load(f, s, root);
    const out = [];
    if (l.kind === 'commands') out.push(...w.checkCommands(l.cmds).diagnostics);
    else if (l.kind === 'template') out.push(...w.checkTemplate(l.tpl).diagnostics);
    else if (l.kind === 'binding') out.push(...w.checkBinding(l.tpl, (v) => v.spelled).diagnostics);
    if (l.policy) {
      const p = w.policy(policySpec(l));
      p.close();
      out.push(...p.diagnostics);
    }
    const unit = { s, kind: l.kind, cmdsOff: l.cmdsOff, policyOff: l.kind === 'policy' ? l.policyOff : -1 };
    for (const d of out) d.file = position(unit, d);
    return { kind: l.kind, s, unit, findings: out, problem: null };
  } catch (e) {
    if (!(e instanceof Problem)) throw e;
    return { kind: 'json', s, findings: [], problem: { message: e.message, off: e.off } };
  }
}

/* field_span: the value a finding's path names (from the policy object in a policy file). */
function fieldSpan(u, path) {
  const { s } = u;
  let base = 0;
  let rel = path;
  const isPolicy = u.kind === 'policy';
  if (isPolicy) {
    if (u.policyOff < 0) return null;
    base = u.policyOff;
    if (rel.startsWith('network_policy') && ['', '.', '['].includes(rel.charAt(14))) rel = rel.slice(14);
  }
  const whole = isPolicy ? rel === '' : rel === 'network_policy';
  let buf = rel;
  for (let exact = true; ; exact = false) {
    let v = J.pathAt(s, base, buf);
    if (v !== -1) {
      const t = exact && whole ? J.member(s, v, 'type') : -1;
      if (t !== -1) v = t;
      return [v, exact ? J.skip(s, v) : v];
    }
    if (!buf.length) return null;
    let n = buf.length;
    while (n > 0 && buf[n - 1] !== '.' && buf[n - 1] !== '[') n--;
    buf = buf.slice(0, Math.max(0, n - 1));
  }
}

/* cli_position: {off, end, line, column, endLine, endColumn} of a finding in the text. */
export function position(u, d) {
  const { s } = u;
  let st;
  let e;
  if (d.command !== null && u.cmdsOff >= 0) {
    let lit = J.element(s, u.cmdsOff, d.command);
    if (lit < 0) lit = u.cmdsOff;
    if (s[lit] === 0x22) {
      st = J.stringOffset(s, lit, d.offset);
      e = d.endOffset > d.offset ? J.stringOffset(s, lit, d.endOffset - 1) + 1 : st;
    } else {
      st = lit;
      e = J.skip(s, lit);
    }
  } else {
    const span = d.path ? fieldSpan(u, d.path) : null;
    if (span) [st, e] = span;
    else st = e = J.ws(s, u.kind === 'policy' && u.policyOff >= 0 ? u.policyOff : 0);
  }
  const [line, column] = J.lineCol(s, st);
  const [endLine, endColumn] = J.lineCol(s, e);
  return { off: st, end: e, line, column, endLine, endColumn };
}

/*==============================================================================================
 * Fixes as edits of the text (fix_edits.c)
 *============================================================================================*/

const cat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const bytes = (str) => encoder.encode(str);
/* The inside of a JSON string literal for `str`: '"', '\\', control characters escaped. */
const inner = (str) => bytes(J.quote(str).slice(1, -1));
const literal = (str) => bytes(J.quote(str));
const edit = (offset, length, b) => ({ offset, length, text: decoder.decode(b) });

/* raw_boundary: the raw offset of decoded byte d, or -1 inside what one escape decodes to. */
function rawBoundary(s, lit, d) {
  const r = J.stringOffset(s, lit, d);
  return d > 0 && J.stringOffset(s, lit, d - 1) === r ? -1 : r;
}

/* A fix of the decoded string at `lit` as an edit (string_edit). */
function stringEdit(s, lit, fx) {
  if (lit >= s.length || s[lit] !== 0x22) return null;
  const end = J.skip(s, lit);
  const dec = bytes(J.parse(cat(bytes('['), s.subarray(lit, end), bytes(']'))).items[0].value);
  const a = fx.offset;
  const z = fx.offset + fx.length;
  if (a > dec.length || z > dec.length) return null;
  const ra = rawBoundary(s, lit, a);
  const rz = rawBoundary(s, lit, z);
  if (ra >= 0 && rz >= 0) return edit(ra, rz - ra, inner(fx.text));
  const str = (b) => decoder.decode(b);
  return edit(lit, end - lit, literal(str(dec.subarray(0, a)) + fx.text + str(dec.subarray(z))));
}

const identChar = (c) => /[A-Za-z0-9_]/.test(c || '');
function firstWord(text, word) {
  for (let p = text.indexOf(word); p >= 0; p = text.indexOf(word, p + 1)) {
    if ((p === 0 || !identChar(text[p - 1])) && !identChar(text[p + word.length])) return p;
  }
  return -1;
}

/* fix_list: the list a policy fix edits, named by its description, else by the path. */
function fixList(d) {
  for (const t of [d.fix.description, d.path]) {
    if (!t) continue;
    const a = firstWord(t, 'allow_out');
    const b = firstWord(t, 'deny_out');
    if (a >= 0 && (b < 0 || a < b)) return 'allow_out';
    if (b >= 0) return 'deny_out';
  }
  return null;
}

/* item_sep: what goes before a new last item of the container at `open`. */
function itemSep(s, open, first, n, prevEnd, lastStart) {
  if (n >= 2) return s.subarray(prevEnd, lastStart);
  if (!s.subarray(open + 1, first).includes(0x0a)) return bytes(', ');
  let ls = first;
  while (ls > 0 && s[ls - 1] !== 0x0a) ls--;
  let w = ls;
  while (w < first && (s[w] === 0x20 || s[w] === 0x09)) w++;
  return cat(bytes(',\n'), s.subarray(ls, w));
}

/* list_insert: the entry fx.text before entry idx of the list at arr (at its end past it). */
function listInsert(s, arr, idx, fx) {
  const n = J.count(s, arr);
  if (n === 0) return edit(arr, J.skip(s, arr) - arr, cat(bytes('['), literal(fx.text), bytes(']')));
  const at = (k) => J.element(s, arr, k);
  if (idx >= n) {
    const last = at(n - 1);
    const prevEnd = n >= 2 ? J.skip(s, at(n - 2)) : 0;
    return edit(J.skip(s, last), 0, cat(itemSep(s, arr, at(0), n, prevEnd, last), literal(fx.text)));
  }
  const here = at(idx);
  let sep;
  if (idx + 1 < n) sep = s.subarray(J.skip(s, here), at(idx + 1));
  else if (idx > 0) sep = s.subarray(J.skip(s, at(idx - 1)), here);
  else sep = bytes(', ');
  return edit(here, 0, cat(literal(fx.text), sep));
}

/* last_members: the object's members [{ks, ke, vs, ve}] (all of them; the last two are used). */
function members(s, obj) {
  const out = [];
  let i = J.ws(s, obj);
  if (i >= s.length || s[i] !== 0x7b) return out;
  i = J.ws(s, i + 1);
  while (i < s.length && s[i] === 0x22) {
    const ks = i;
    const ke = J.skip(s, i);
    const colon = J.ws(s, ke);
    if (colon >= s.length || s[colon] !== 0x3a) break;
    const vs = J.ws(s, colon + 1);
    const ve = J.skip(s, vs);
    out.push({ ks, ke, vs, ve });
    i = J.ws(s, ve);
    if (i >= s.length || s[i] !== 0x2c) break;
    i = J.ws(s, i + 1);
  }
  return out;
}

/* add_list_member: `"name": ["text"]` after the policy's last member, in its style. */
function addListMember(s, pol, name, fx) {
  const m = members(s, pol);
  const entry = cat(bytes('['), literal(fx.text), bytes(']'));
  if (!m.length) {
    const o = J.ws(s, pol);
    return edit(o, J.skip(s, o) - o, cat(bytes(`{"${name}": `), entry, bytes('}')));
  }
  const last = m[m.length - 1];
  const prev = m.length >= 2 ? m[m.length - 2] : null;
  const sep = itemSep(s, J.ws(s, pol), m.length >= 2 ? 0 : last.ks, m.length, prev ? prev.ve : 0, last.ks);
  return edit(last.ve, 0, cat(sep, bytes(`"${name}"`), s.subarray(last.ke, last.vs), entry));
}

/* policy_edit: a list-relative NetworkPolicy fix as an edit. */
function policyEdit(u, d) {
  const { s } = u;
  const fx = d.fix;
  const pol = u.kind === 'policy' ? u.policyOff : J.member(s, J.ws(s, 0), 'network_policy');
  const name = fixList(d);
  if (pol < 0 || !name) return null;
  const arr = J.member(s, pol, name);
  if (arr < 0 || s[arr] === 0x6e) {
    if (fx.length) return null;
    if (arr < 0) return addListMember(s, pol, name, fx);
    return edit(arr, J.skip(s, arr) - arr, cat(bytes('['), literal(fx.text), bytes(']')));
  }
  if (s[arr] !== 0x5b) return null;
  if (!fx.length) return listInsert(s, arr, fx.offset, fx);
  const a = J.element(s, arr, fx.offset);
  const z = J.element(s, arr, fx.offset + fx.length - 1);
  if (a < 0 || z < 0 || !fx.text) return null;
  return edit(a, J.skip(s, z) - a, literal(fx.text));
}

const isPolicyFinding = (u, d) => u.kind === 'policy' || (d.command === null && d.path &&
  d.path.startsWith('network_policy') && ['', '.', '['].includes(d.path.charAt(14)));

/* The edit of finding d's fix ({offset, length, text, unsafe}), or null (diag_edit). */
export function fixEdit(u, d) {
  if (!d.fix) return null;
  let e;
  if (isPolicyFinding(u, d)) {
    e = policyEdit(u, d);
  } else {
    let lit = -1;
    if (d.command !== null && u.cmdsOff >= 0) lit = J.element(u.s, u.cmdsOff, d.command);
    else if (d.command === null && d.path) lit = J.pathAt(u.s, 0, d.path);
    e = lit < 0 ? null : stringEdit(u.s, lit, d.fix);
  }
  if (e) e.unsafe = d.fix.unsafe;
  return e;
}

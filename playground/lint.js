// What the page asks of the library, kind by kind, in one shape: {read, findings, problem, unit}
// where each finding is the library's diagnostic with `file` (its place in the text: byte
// offsets, lines and columns as the command's --format json "file" gives them) and `edit` (its
// fix as an edit of the text, or null). A Dockerfile fragment and a Python file get their
// positions and fixes from the library as they are; a .json text goes through json_file.js,
// which does what the command's input and fix layers do. Also: the kind a text looks like, the
// policy a .json text decides with (as `boxlint policy FILE` finds it), and the fixes applied
// as `boxlint --fix` applies them.
import * as JF from './json_file.js';
import * as J from './json_text.js';

const encoder = new TextEncoder();

/* cli_text_looks_python: the SDK's names anywhere, or a first line of code that only Python
 * starts with (import, def, class, async, a decorator, from ... import). */
export function looksPython(text) {
  for (const w of ['code_interpreter', 'add_code_interpreter', 'NetworkPolicy(', 'templates.create(', 'templates.update(']) {
    if (text.includes(w)) return true;
  }
  for (const raw of text.split('\n')) {
    if (raw.startsWith('#!')) {
      if (raw.includes('python')) return true;
      continue;
    }
    const line = raw.replace(/^[ \t\r]+/, '');
    if (!line || line[0] === '#') continue;
    if (/^(import|def|class|async)[ \t]/.test(line) || line[0] === '@') return true;
    if (/^from[ \t]/.test(line)) return line.slice(4).includes(' import ');
    return false;
  }
  return false;
}

/* The kind to read the text as: 'json', 'python' or 'fragment' (the page's "detect"). */
export function detect(text) {
  const first = text.match(/^[ \t\r\n]*(.)/);
  if (first && (first[1] === '\x7b' || first[1] === '[')) return 'json'; // an opening brace
  return looksPython(text) ? 'python' : 'fragment';
}

/* The kind chosen on the page ('template' and 'policy' are .json texts, whose content decides
 * what they are, as it does for a .json file). */
export function readAs(choice, text) {
  if (choice === 'template' || choice === 'policy') return 'json';
  if (choice === 'fragment' || choice === 'python') return choice;
  return detect(text);
}

function fileDiag(d) {
  d.file = d.line ? {
    off: d.offset, end: d.endOffset, line: d.line, column: d.column, endLine: d.endLine, endColumn: d.endColumn,
  } : null;
  d.edit = d.fix ? { offset: d.fix.offset, length: d.fix.length, text: d.fix.text, unsafe: d.fix.unsafe } : null;
  return d;
}

/* The text checked as `kind` ('json', 'python', 'fragment'). */
export function lint(w, fields, kind, text) {
  if (kind === 'json') {
    const r = JF.check(w, fields, text);
    for (const d of r.findings) d.edit = JF.fixEdit(r.unit, d);
    return { read: r.kind, findings: r.findings, problem: r.problem, unit: r.unit, s: r.s };
  }
  const s = encoder.encode(text);
  if (kind === 'python') {
    // Python that does not parse is a finding (python-syntax, python-encoding) where the file
    // reaches the SDK and nothing where it cannot, as the command lists it.
    const r = w.checkPython(text);
    return { read: 'python', findings: r.diagnostics.map(fileDiag), problem: null, s };
  }
  return { read: 'fragment', findings: w.checkFragment(text).diagnostics.map(fileDiag), problem: null, s };
}

/* Identical edits once (the first), as the command keeps them. */
function dropRepeats(edits) {
  const seen = new Set();
  return edits.filter((e) => {
    const k = JSON.stringify([e.offset, e.length, e.text, e.unsafe]);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/* `boxlint --fix` in memory: the safe fixes of every finding applied (the unsafe ones too with
 * `unsafe`, as --unsafe-fixes), the text checked again, and again while fixes apply (at most 10
 * passes). Returns {text, fixed} or {error} when a fixed text would not load (then nothing is
 * changed, as the command writes nothing). */
export function fixAll(w, fields, kind, text, unsafe = false) {
  let cur = text;
  let fixed = 0;
  let res = lint(w, fields, kind, cur);
  if (res.problem) return { error: res.problem.message };
  for (let pass = 0; pass < 10; pass++) {
    const shown = res.findings.filter((d) => d.edit && (unsafe || !d.edit.unsafe));
    const edits = dropRepeats(shown.map((d) => d.edit));
    if (!edits.length) break;
    const out = w.applyFixes(cur, edits, { unsafeFixes: unsafe });
    if (out.text === cur) break;
    const again = lint(w, fields, kind, out.text);
    if (again.problem) return { error: `the fixed text would not load (${again.problem.message})` };
    fixed += out.applied.filter(Boolean).length;
    cur = out.text;
    res = again;
  }
  return { text: cur, fixed };
}

/* One finding's fix applied (as an editor's quick fix: that edit alone, unsafe ones too). */
export function fixOne(w, text, d) {
  return w.applyFixes(text, [d.edit], { unsafeFixes: true }).text;
}

/* The policy a .json text decides with, as `boxlint policy FILE` finds it: the object itself, a
 * template's or binding's network_policy (none: the empty policy, disabled). Returns the spec,
 * or {error}. */
export function decisionSpec(fields, text) {
  let root;
  try {
    root = J.parse(encoder.encode(text));
  } catch (e) {
    return { error: 'the text is not valid JSON' };
  }
  if (root.t === 'array') return { error: 'an array of commands has no NetworkPolicy' };
  try {
    const l = JF.load(fields, null, root);
    const ours = [...fields.template, ...fields.binding];
    if (!l.policy && l.kind === 'template' && !root.members.some((m) => ours.includes(m.key))) l.policy = root;
    return JF.policySpec(l);
  } catch (e) {
    return { error: e.message };
  }
}

/* "host H" or "ip A" or both, from what was typed: one word is an address when it has the form
 * of one (four dotted numbers, or a ':'), else a host; two words are a host and an address. */
export function destination(typed) {
  const words = typed.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return null;
  if (words.length >= 2) return { host: words[0], ip: words[1] };
  const w = words[0];
  return /^\d+(\.\d+){3}$/.test(w) || w.includes(':') ? { host: null, ip: w } : { host: w, ip: null };
}

/* The decision as `boxlint policy` prints it, and its parts. */
export function decide(w, spec, dest) {
  const p = w.policy(spec);
  try {
    if (!p.ok) return { text: 'no decisions: the policy has errors', verdict: null };
    const d = p.decide(dest);
    const who = [dest.host !== null ? `host ${dest.host}` : null, dest.ip !== null ? `ip ${dest.ip}` : null]
      .filter(Boolean).join(', ');
    const by = d.list !== null ? ` by ${d.list}[${d.index}] '${d.entry}'` : '';
    return { ...d, text: `decision: ${who}: ${d.verdict}${by} [${d.reason}]` };
  } finally {
    p.close();
  }
}

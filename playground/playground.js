// The playground page: boxlint.wasm loaded next to the page (lib/wasm_core.js, loaded before
// this module, is the npm package's own WebAssembly core), the text checked on every change,
// each finding underlined at its range in an overlay behind the editor and listed with its
// message, hint and fix button; a decision for a host or address under a .json text's
// NetworkPolicy; the whole state (kind, text, host) in the URL's fragment.
import * as L from './lint.js';
import * as JF from './json_file.js';
import { lineCol } from './json_text.js';
import { encodeState, decodeState } from './state.js';

const $ = (id) => document.getElementById(id);
const ui = {
  kind: $('kind'), editor: $('editor'), overlay: $('overlay'), findings: $('findings'),
  problem: $('problem'), readAs: $('read-as'), host: $('host'), decision: $('decision'),
  policy: $('policy'), fixAll: $('fix-all'), status: $('status'), copy: $('copy-link'),
};
const READ = {
  template: 'a template', binding: 'an agent binding', commands: 'an array of commands',
  policy: 'a NetworkPolicy', fragment: 'a Dockerfile fragment', python: 'Python', json: 'JSON',
};
const encoder = new TextEncoder();
let w = null;
let fields = null;
let current = null;
let seq = 0;

/* A byte offset of the text's UTF-8 to its UTF-16 index (the textarea's and the DOM's). */
function byteToU16(text) {
  const map = new Int32Array(encoder.encode(text).length + 1);
  let b = 0;
  let u = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    const nb = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    for (let k = 0; k < nb; k++) map[b + k] = u;
    b += nb;
    u += ch.length;
  }
  map[b] = u;
  return (off) => map[Math.min(Math.max(off, 0), b)];
}

/* The overlay: the text in segments, each span naming the findings that cover it (data-ids),
 * an empty span where a finding's range is empty. */
function renderOverlay(text, findings) {
  const u16 = byteToU16(text);
  const ranges = findings.map((d, i) => (d.file ? { i, a: u16(d.file.off), z: u16(d.file.end), sev: d.severity } : null))
    .filter(Boolean);
  const cuts = new Set([0, text.length]);
  for (const r of ranges) {
    cuts.add(r.a);
    cuts.add(r.z);
  }
  const points = [...cuts].sort((x, y) => x - y);
  const frag = document.createDocumentFragment();
  const span = (cls, ids, t) => {
    const el = document.createElement('span');
    el.className = cls;
    el.dataset.ids = ids.join(' ');
    el.textContent = t;
    return el;
  };
  const worst = (rs) => (rs.some((r) => r.sev === 'error') ? 'error' : rs.some((r) => r.sev === 'warning') ? 'warning' : 'info');
  points.forEach((p, k) => {
    for (const r of ranges) if (r.a === p && r.z === p) frag.append(span(`u empty ${r.sev}`, [r.i], ''));
    const next = points[k + 1];
    if (next === undefined || next === p) return;
    const cover = ranges.filter((r) => r.a <= p && r.z >= next && r.a < r.z);
    const t = text.slice(p, next);
    frag.append(cover.length ? span(`u ${worst(cover)}`, cover.map((r) => r.i), t) : document.createTextNode(t));
  });
  frag.append(document.createTextNode('\n'));
  ui.overlay.replaceChildren(frag);
  syncScroll();
}

function syncScroll() {
  ui.overlay.scrollTop = ui.editor.scrollTop;
  ui.overlay.scrollLeft = ui.editor.scrollLeft;
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function selectRange(d) {
  if (!d.file) return;
  const u16 = byteToU16(ui.editor.value);
  ui.editor.focus();
  ui.editor.setSelectionRange(u16(d.file.off), u16(d.file.end));
}

function findingItem(d, i) {
  const li = el('li', `finding ${d.severity}`);
  Object.assign(li.dataset, {
    i: String(i), rule: d.rule, severity: d.severity,
    line: d.file ? String(d.file.line) : '', column: d.file ? String(d.file.column) : '',
    endLine: d.file ? String(d.file.endLine) : '', endColumn: d.file ? String(d.file.endColumn) : '',
  });
  const head = el('div', 'head');
  head.append(el('span', 'where', d.file ? `${d.file.line}:${d.file.column}` : '-'), ' ',
    el('span', 'severity', d.severity), ' ', el('span', 'message', d.message), ' ', el('span', 'rule', `[${d.rule}]`));
  head.addEventListener('click', () => selectRange(d));
  li.append(head);
  if (d.hint) li.append(el('div', 'hint', `hint: ${d.hint}`));
  if (d.fix && d.edit) {
    const b = el('button', 'fix', `${d.edit.unsafe ? 'Fix (unsafe)' : 'Fix'}: ${d.fix.description}`);
    b.type = 'button';
    b.addEventListener('click', () => setText(L.fixOne(w, ui.editor.value, d)));
    li.append(b);
  }
  return li;
}

/* A text that cannot be checked, as the command says it: `line:column: message`. */
function renderProblem(r) {
  ui.problem.hidden = !r.problem;
  ui.problem.replaceChildren();
  if (!r.problem) return;
  let where = '';
  if (r.problem.line) where = `${r.problem.line}:${r.problem.column}: `; // the library's own
  else if (r.problem.off >= 0 && r.s) where = `${lineCol(r.s, r.problem.off).join(':')}: `;
  ui.problem.append(el('span', 'label', 'cannot be checked: '), el('span', 'text', `${where}${r.problem.message}`));
  if (r.problem.hint) ui.problem.append(el('div', 'hint', `hint: ${r.problem.hint}`));
}

function renderDecision(kind, text) {
  ui.policy.hidden = kind !== 'json';
  ui.decision.textContent = '';
  for (const k of ['verdict', 'reason', 'list', 'index', 'entry']) delete ui.decision.dataset[k];
  const dest = L.destination(ui.host.value);
  if (kind !== 'json' || !dest) return;
  const spec = L.decisionSpec(fields, text);
  if (spec.error) {
    ui.decision.textContent = `no decisions: ${spec.error}`;
    return;
  }
  const d = L.decide(w, spec, dest);
  ui.decision.textContent = d.text;
  if (d.verdict) {
    Object.assign(ui.decision.dataset, {
      verdict: d.verdict, reason: d.reason, list: d.list === null ? '' : d.list,
      index: d.index === null ? '' : String(d.index), entry: d.entry === null ? '' : d.entry,
    });
  }
}

/* Check the editor's text and show everything; then the URL. */
function update() {
  const text = ui.editor.value;
  const kind = L.readAs(ui.kind.value, text);
  let r;
  try {
    r = L.lint(w, fields, kind, text);
  } catch (e) {
    r = { read: kind, findings: [], problem: { message: String(e.message || e), off: -1 } };
  }
  current = { kind, r };
  ui.readAs.textContent = `read as ${READ[r.read] || r.read}`;
  renderProblem(r);
  renderOverlay(text, r.findings);
  ui.findings.replaceChildren(...r.findings.map(findingItem));
  ui.findings.dataset.count = String(r.findings.length);
  ui.fixAll.disabled = !r.findings.some((d) => d.edit && !d.edit.unsafe);
  renderDecision(kind, text);
  const mine = ++seq;
  document.body.dataset.seq = String(mine);
  encodeState({ kind: ui.kind.value, text, host: ui.host.value }).then((hash) => {
    if (mine !== seq) return;
    history.replaceState(null, '', `#${hash}`);
    document.body.dataset.urlSeq = String(mine);
  });
}

function setText(text) {
  ui.editor.value = text;
  update();
}

async function restore() {
  const st = await decodeState(location.hash.slice(1));
  if (!st) return false;
  ui.kind.value = ['auto', 'template', 'policy', 'fragment', 'python'].includes(st.kind) ? st.kind : 'auto';
  ui.editor.value = st.text;
  ui.host.value = st.host;
  return true;
}

async function main() {
  const bytes = await (await fetch('boxlint.wasm')).arrayBuffer();
  w = await globalThis.boxlintWasm.instantiateAsync(bytes);
  fields = JF.fields(w);
  $('version').textContent = w.version;
  if (!(await restore())) ui.editor.value = $('example').textContent.replace(/^\n/, '');
  ui.editor.addEventListener('input', () => {
    ui.status.textContent = ''; // what the last button did no longer describes the text
    update();
  });
  ui.editor.addEventListener('scroll', syncScroll);
  ui.kind.addEventListener('change', update);
  ui.host.addEventListener('input', update);
  ui.fixAll.addEventListener('click', () => {
    const out = L.fixAll(w, fields, current.kind, ui.editor.value);
    ui.status.textContent = out.error ? `nothing fixed: ${out.error}` : `${out.fixed} fixes applied`;
    if (!out.error) setText(out.text);
  });
  ui.copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      ui.status.textContent = 'link copied';
    } catch (e) {
      ui.status.textContent = 'the link is the address in the location bar';
    }
  });
  window.addEventListener('hashchange', async () => {
    if (await restore()) update();
  });
  update();
  document.body.dataset.ready = 'true';
}

main().catch((e) => {
  $('problem').hidden = false;
  $('problem').textContent = `boxlint.wasm did not load: ${e.message || e}`;
  document.body.dataset.ready = 'failed';
});

// The playground's .json layer (playground/json_text.js, json_file.js, lint.js: what the
// command's input, position and fix code does, written again in JavaScript for the browser) under
// Node.js, over the WebAssembly build the page loads, against the command itself. For every .json
// file of tests/data and examples/, and variants of each that parses (compact, indented, every
// non-ASCII character and every '/' written as an escape): the same findings as `boxlint --format
// json` (rule, severity, message, hint, the place in the file: line, column, end, offsets), a
// problem where the command reports one (exit 2), the same text as `boxlint --fix` and
// `boxlint --fix --unsafe-fixes`, and, for each policy, the decisions `boxlint policy FILE
// --host H --ip A --format json` gives for its own entries and a few others. Exit 77 (skipped,
// with the reason) without the assembled page.
//   node json_test.mjs PAGE_DIR BOXLINT OUT_DIR SOURCE_DIR
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const [pageDir, boxlint, outDir, srcDir] = process.argv.slice(2);
if (!srcDir) {
  console.error('usage: node json_test.mjs PAGE_DIR BOXLINT OUT_DIR SOURCE_DIR');
  process.exit(2);
}
const wasmFile = path.join(pageDir, 'boxlint.wasm');
if (!fs.existsSync(wasmFile)) {
  console.log(`SKIPPED: ${wasmFile} is missing (no WebAssembly build: cmake --build . --target playground)`);
  process.exit(77);
}
// The page's own files, as assembled (wasm_core.js is the npm package's, copied next to them).
const core = createRequire(import.meta.url)(path.resolve(pageDir, 'wasm_core.js'));
const L = await import(path.resolve(pageDir, 'lint.js'));
const JF = await import(path.resolve(pageDir, 'json_file.js'));
const w = core.instantiate(fs.readFileSync(wasmFile));
const fields = JF.fields(w);

let checks = 0;
let failures = 0;
function checkSame(got, want, what) {
  checks++;
  if (JSON.stringify(got) === JSON.stringify(want)) return;
  failures++;
  const cut = (v) => { const t = JSON.stringify(v); return t.length > 800 ? `${t.slice(0, 800)}...` : t; };
  if (failures <= 20) console.log(`FAIL: ${what}\n  page:    ${cut(got)}\n  command: ${cut(want)}`);
}

const work = path.join(outDir, 'json');
fs.mkdirSync(work, { recursive: true });
function run(args) {
  return spawnSync(boxlint, args, { encoding: 'utf-8', env: { ...process.env, NO_COLOR: '1' } });
}

/* Each .json file below `dir` (node_modules and build trees left out). */
function jsonFiles(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) jsonFiles(p, out);
    else if (e.isFile() && e.name.endsWith('.json') && e.name !== '.boxlint.json') out.push(p);
  }
  return out;
}

/* The text and the variants of it the command reads differently placed. */
function variants(text) {
  let v;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return [['as is', text]];
  }
  const escaped = (t) => t.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/');
  return [['as is', text], ['compact', JSON.stringify(v)], ['indented', `${JSON.stringify(v, null, 4)}\n`],
    ['escaped', escaped(JSON.stringify(v, null, 1))]];
}

function nativeFindings(file, text) {
  const r = run(['--format', 'json', file]);
  if (r.status === 2) return { problem: true, findings: [] };
  const d = JSON.parse(r.stdout).files[0].diagnostics;
  return {
    problem: false,
    findings: d.map((x) => [x.rule, x.severity, x.message, x.hint, x.file ? [x.file.line, x.file.column,
      x.file.end_line, x.file.end_column, x.file.offset, x.file.end_offset] : null]),
  };
}

function pageFindings(text) {
  const r = L.lint(w, fields, 'json', text);
  return {
    problem: !!r.problem,
    findings: r.findings.map((d) => [d.rule, d.severity, d.message, d.hint, d.file ? [d.file.line, d.file.column,
      d.file.endLine, d.file.endColumn, d.file.off, d.file.end] : null]),
  };
}

function nativeFixed(file, text, unsafe) {
  fs.writeFileSync(file, text);
  const r = run(['--fix', ...(unsafe ? ['--unsafe-fixes'] : []), file]);
  const out = fs.readFileSync(file, 'utf-8');
  fs.writeFileSync(file, text);
  return r.status === 2 ? { error: true } : { text: out };
}

/* Destinations to decide: the policy's own entries (a wildcard's name below it), and others. */
function destinations(text) {
  const out = [{ host: 'example.com' }, { ip: '203.0.113.5' }, { host: 'pypi.org', ip: '151.101.0.223' }];
  try {
    const v = JSON.parse(text);
    const p = v && (v.network_policy || v);
    for (const e of [...(Array.isArray(p.allow_out) ? p.allow_out : []), ...(Array.isArray(p.deny_out) ? p.deny_out : [])]) {
      if (typeof e !== 'string' || !e || e.length > 60) continue;
      if (/^[\d.]+$/.test(e) || e.includes(':')) out.push({ ip: e });
      else if (!e.includes('/')) out.push({ host: e.replace(/^\*\./, 'a.').replace(/^\*$/, 'any.example') });
    }
  } catch (e) {
    // not JSON: the examples above only
  }
  return out.slice(0, 8);
}

function checkDecisions(file, text, what) {
  const spec = L.decisionSpec(fields, text);
  for (const dest of destinations(text)) {
    const args = ['policy', file, '--format', 'json'];
    if (dest.host) args.push('--host', dest.host);
    if (dest.ip) args.push('--ip', dest.ip);
    const r = run(args);
    const want = r.status === 2 ? 'refused' : JSON.parse(r.stdout).decisions[0] || 'no decisions';
    let got;
    if (spec.error) got = 'refused';
    else {
      const d = L.decide(w, spec, { host: dest.host || null, ip: dest.ip || null });
      got = d.verdict === null ? 'no decisions' : {
        host: dest.host || null, ip: dest.ip || null, verdict: d.verdict, reason: d.reason,
        list: d.list, index: d.index, entry: d.entry,
      };
    }
    checkSame(got, want, `${what}: the decision for ${JSON.stringify(dest)}`);
  }
}

/* Texts written here for what the files above do not hold: values the loader refuses (a
 * problem, exit 2), numbers as jansson reads and spells them, keys in their order, lists that
 * are absent or null when a fix adds to them. */
const WRITTEN = [
  '{"name": 5, "commands": []}', '{"name": "a", "commands": "RUN x"}', '{"name": "a", "commands": [1]}',
  '{"name": "a", "commands": ["RUN x"], "cpu_count": 1e400, "memory_mb": 512}',
  '{"name": "a", "commands": ["RUN x"], "cpu_count": 0.1, "memory_mb": -0.0}',
  '{"name": "a", "commands": ["RUN x"], "cpu_count": 1E+2, "memory_mb": 1.5e-7}',
  '{"name": "a", "commands": ["RUN x"], "cpu_count": 12345678901234567890, "memory_mb": 512}',
  '{"name": "a", "commands": ["RUN x"], "cpu_count": 9007199254740993, "memory_mb": -9223372036854775808}',
  '{"name": "a", "commands": ["RUN x"], "cpu_count": "2", "memory_mb": null}',
  '{"name": "a", "commands": ["RUN x"], "cpu_count": [1, 2.50], "memory_mb": {"a": "\\u00e9\\n"}}',
  '{"name": "a", "commands": ["RUN x"], "cpu_count": 2, "memory_mb": true, "network_policy": 5}',
  '{"name": "a", "commands": [], "network_policy": null}', '{"name": "a", "network_policy": {"type": 1}}',
  '{"name": "a", "network_policy": {"allow_out": "x"}}', '{"name": "a", "network_policy": {"allow_out": [1]}}',
  '{"template_id": 5}', '{"template_id": null, "version": 1.0}', '{"template_id": [1, "x"], "lifespan_seconds": "9"}',
  '{"template_id": {"x": "y"}, "version": 0, "name": "n"}', '{"name": "a", "name": "b"}', '{"name": "a"} x', '[]',
  '"str"', '{}', '{"1": 1, "name": "a", "zz": 2, "0": 3, "commands": ["RUN x"]}',
  '{"type": "filtered", "allow_out": ["pypi.org"], "deny_out": null}',
  '{"type": "filtered",\n  "allow_out": ["pypi.org"]}', '{"type": "filtered", "allow_out": []}',
  '{"type": "open", "allow_out": ["a.b"]}', '{"type": "Filtered"}',
  '{"name": "Ab C", "commands": ["WROKDIR /x", "RUN echo \\"\\u00e9\\" && pip install y"], "network_policy": ' +
    '{"type": "filtered", "allow_out": ["*.pypi.org", "pypi.org"], "deny_out": []}}',
  '["pip install \\ud83d\\ude00 x", "RUN \\/bin\\/true", "WROKDIR \\t/a"]',
];

let files = 0;
let texts = 0;
let findings = 0;
let leftOut = 0;
for (const src of [...jsonFiles(path.join(srcDir, 'tests', 'data')), ...jsonFiles(path.join(srcDir, 'examples'))]) {
  files++;
  const original = fs.readFileSync(src, 'utf-8');
  if (Buffer.from(original, 'utf-8').toString('utf-8') !== original || original.includes('\r')) continue;
  for (const [how, text] of variants(original)) {
    texts++;
    const what = `${path.relative(srcDir, src)} (${how})`;
    const file = path.join(work, path.basename(src));
    fs.writeFileSync(file, text);
    const want = nativeFindings(file, text);
    const got = pageFindings(text);
    findings += want.findings.length;
    // What the WebAssembly build leaves out (docs/bindings.md): a non-ASCII entry's A-label. Such
    // a finding is counted and left out of both lists, and the text's fixes are not compared.
    const noIdna = got.findings.map((f, i) => (/has no IDNA \(libidn2\)/.test(f[2]) ? i : -1)).filter((i) => i >= 0);
    if (noIdna.length && want.findings.length === got.findings.length) {
      leftOut += noIdna.length;
      for (const r of [want, got]) r.findings = r.findings.filter((f, i) => !noIdna.includes(i));
    }
    checkSame(got, want, `${what}: the findings`);
    for (const unsafe of noIdna.length ? [] : [false, true]) {
      const n = nativeFixed(file, text, unsafe);
      const p = L.fixAll(w, fields, 'json', text, unsafe);
      checkSame(p.error ? { error: true } : { text: p.text }, n, `${what}: boxlint --fix${unsafe ? ' --unsafe-fixes' : ''}`);
    }
    checkDecisions(file, text, what);
  }
}
for (const [k, text] of WRITTEN.entries()) {
  texts++;
  const file = path.join(work, `written-${k}.json`);
  fs.writeFileSync(file, text);
  const want = nativeFindings(file, text);
  findings += want.findings.length;
  checkSame(pageFindings(text), want, `written text ${k} ${text}: the findings`);
  for (const unsafe of [false, true]) {
    const p = L.fixAll(w, fields, 'json', text, unsafe);
    checkSame(p.error ? { error: true } : { text: p.text }, nativeFixed(file, text, unsafe),
      `written text ${k} ${text}: boxlint --fix${unsafe ? ' --unsafe-fixes' : ''}`);
  }
  checkDecisions(file, text, `written text ${k}`);
}
console.log(`playground_json: ${files} files, ${texts} texts, ${findings} findings (${leftOut} left out: ` +
  `a non-ASCII entry's A-label, which the WebAssembly build has not): ${checks - failures} of ${checks} checks passed`);
process.exit(failures ? 1 : 0);

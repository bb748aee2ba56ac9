'use strict';
// The WebAssembly build (wasm/, bindings/node/lib/wasm.js) against the native library (the Node
// binding over libboxlint.so): the same inputs through the same C calls, the findings compared
// whole (rule, severity, line, column, message, hint, range, offsets, path, fix), and every
// policy's decisions on its own entries and a few fixed destinations.
//
//   node tests/oracle/wasm_test.js LIBBOXLINT_SO BOXLINT_WASM DATA_DIR
//
// Corpora: DATA_DIR/corpus (the real Dockerfiles and BuildKit's fixtures, as fragments),
// DATA_DIR/python (every .py), DATA_DIR/policy (bare policies, templates, command lists).
// A difference that a feature the WebAssembly build leaves out explains (wasm/CMakeLists.txt)
// is counted under that feature's name and printed; any other difference fails the test.
// PCRE2 is in the module when it was built from Debian's source (tools/wasm-sources.sh): then
// the secret patterns are compared like any finding, and user rules too (a config of them on
// both sides, over the Dockerfile corpora and probes); BOXLINT_WASM_EXPECT_PCRE2=1 (ctest, when
// the source is there) makes a module without it a failure, not a feature left out.
// Exit 77 (skipped, with the reason) when the library, the module or koffi is missing.
const fs = require('fs');
const path = require('path');

function skip(why) {
  console.log(`SKIPPED: ${why}`);
  process.exit(77);
}

const [libPath, wasmPath, dataDir] = process.argv.slice(2);
if (!libPath || !wasmPath || !dataDir) {
  console.error('usage: wasm_test.js LIBBOXLINT_SO BOXLINT_WASM DATA_DIR');
  process.exit(2);
}
if (!fs.existsSync(libPath)) skip(`no native library at ${libPath}`);
if (!fs.existsSync(wasmPath)) skip(`no WebAssembly module at ${wasmPath} (build the target wasm: needs clang, lld, wasi-libc, libclang-rt-14-dev-wasm32)`);
const bindingDir = path.join(__dirname, '..', '..', 'bindings', 'node');
if (!fs.existsSync(path.join(bindingDir, 'node_modules', 'koffi'))) {
  skip(`koffi is not installed in ${bindingDir}/node_modules (npm ci there): no native side to compare with`);
}
process.env.BOXLINT_LIBRARY = libPath;
const native = require(bindingDir);
// The package's WebAssembly backend (lib/wasm_api.js over lib/wasm.js), the API native has.
const { layout } = require(path.join(bindingDir, 'lib', 'wasm.js'));
const SPAN = layout([['ptr', 'ptr'], ['len', 'size']]);
const wasm = require(path.join(bindingDir, 'lib', 'wasm_api.js'))
  .api(require(path.join(bindingDir, 'lib', 'wasm.js')).load(wasmPath), 'compared with native');

// The module exports the whole public C API: every BOXLINT_API function of the headers.
{
  const inc = path.join(__dirname, '..', '..', 'lib', 'include', 'boxlint');
  const declared = new Set();
  for (const h of fs.readdirSync(inc).filter((f) => f.endsWith('.h'))) {
    const src = fs.readFileSync(path.join(inc, h), 'utf8');
    for (const m of src.matchAll(/BOXLINT_API[^;(]*?\b(boxlint_\w+)\s*\(/g)) declared.add(m[1]);
  }
  const exported = new Set(WebAssembly.Module.exports(new WebAssembly.Module(fs.readFileSync(wasmPath)))
    .map((e) => e.name));
  const missing = [...declared].filter((n) => !exported.has(n));
  console.log(`C API: ${declared.size} functions declared, ${declared.size - missing.length} exported by the module`);
  if (missing.length || declared.size < 50) {
    console.log(`DIFFERENCE: not exported: ${missing.join(', ') || '(too few declared: the header scan failed)'}`);
    process.exitCode = 1;
  }
}

// User rules, compiled on each side: native's Config, and on the WebAssembly side a config made
// through the module's own C API (boxlint_config_add_rule), set as the default config of a
// second instance. null when the module refuses a user rule (no PCRE2 in it).
const USER_RULES = [
  { id: 'no-latest', severity: 'warning', instruction: 'FROM', pattern: ':latest\\b', message: 'pin the image' },
  { id: 'curl-pipe-sh', severity: 'error', instruction: 'RUN', pattern: 'curl[^|]*\\|\\s*(ba)?sh\\b', message: 'no curl | sh' },
  { id: 'apt-upgrade', severity: 'info', pattern: '(?i)apt(-get)?\\s+(dist-)?upgrade', message: 'no upgrade in a template' },
  { id: 'non-ascii', severity: 'warning', pattern: '[^\\x00-\\x7f]', message: 'non-ASCII text' },
  { id: 'word-heavy', severity: 'info', instruction: 'RUN', pattern: '^RUN\\s+(?:\\w+\\s+){12,}', message: 'a long RUN' },
  { id: 'apt-install', severity: 'info', instruction: 'RUN', pattern: 'apt-get\\s+(?:-\\S+\\s+)*install\\b', message: 'apt-get install' },
  { id: 'pip-install', severity: 'warning', pattern: '\\bpip3?\\s+install\\b(?!.*--no-cache-dir)', message: 'pip install without --no-cache-dir' },
  // Backtracking without end on a LABEL that ends in a non-word character: regex-limit on both
  // sides (native PCRE2 with JIT, the module's without), never a finding of one side only.
  { id: 'label-words', severity: 'info', instruction: 'LABEL', pattern: '^LABEL (\\w+\\s?)*$', message: 'LABEL words' },
  { id: 'env-key', severity: 'info', instruction: 'ENV', pattern: '^ENV\\s+(?<key>[A-Z_][A-Z0-9_]*)', message: 'an ENV' },
];
const USER_RULE = layout([['id', SPAN], ['severity', 'i32'], ['instruction', 'i32'], ['pattern', SPAN],
  ['message', SPAN]]);
function wasmUserRules(w) {
  return w.scope((alloc) => {
    const out = alloc(4);
    w.status(w.x.boxlint_config_new(out, 0), 'boxlint_config_new');
    const cfg = w.u32(out);
    const span = (at, text) => {
      const [p, n] = w.put(alloc, text);
      w.dv.setUint32(at, p, true);
      w.dv.setUint32(at + 4, n, true);
    };
    for (const r of USER_RULES) {
      const rp = alloc(USER_RULE.size);
      w.x.boxlint_user_rule_init(rp);
      span(rp + USER_RULE.off.id, r.id);
      w.dv.setInt32(rp + USER_RULE.off.severity, ['off', 'info', 'warning', 'error'].indexOf(r.severity), true);
      if (r.instruction) {
        const [kp, kn] = w.put(alloc, r.instruction);
        w.dv.setInt32(rp + USER_RULE.off.instruction, w.x.boxlint_keyword_parse(kp, kn), true);
      }
      span(rp + USER_RULE.off.pattern, r.pattern);
      span(rp + USER_RULE.off.message, r.message);
      const err = alloc(8 + 192); // boxlint_error: code, offset, message[192]
      if (w.x.boxlint_config_add_rule(cfg, rp, err) !== 0) {
        console.log(`the module refuses user rule ${r.id}: ${w.str(err + 8)}`);
        w.x.boxlint_config_free(cfg);
        return null;
      }
    }
    return cfg;
  });
}
const rawWasm = require(path.join(bindingDir, 'lib', 'wasm.js')).load(wasmPath);
const wasmRulesConfig = wasmUserRules(rawWasm);
const pcre2 = wasmRulesConfig !== null;
console.log(pcre2 ? 'PCRE2: in the module (user rules compile): the secret patterns and user rules are compared'
  : 'PCRE2: not in the module: the secret patterns and user rules are left out');
if (!pcre2 && process.env.BOXLINT_WASM_EXPECT_PCRE2 === '1') {
  console.log('DIFFERENCE: the module was to be built with PCRE2 from Debian\'s source (BOXLINT_WASM_EXPECT_PCRE2=1), and has none');
  process.exitCode = 1;
}

// What a difference is put down to, when a left-out feature explains it: a function of the
// native finding (n), the WebAssembly one (w, either may be null) and the input's text.
const LEFT_OUT = [
  ...(pcre2 ? [] : [['secret patterns and user rules (no PCRE2)',
    (n, w) => [n, w].some((d) => d && (d.rule === 'secret-in-command' || d.rule === 'regex-limit'))]]),
  ['IDNA A-labels (no libidn2)',
    (n, w) => (w && /no IDNA \(libidn2\)/.test(w.message)) || (n && /A-label/.test(`${n.message} ${n.hint}`))],
  ['\\N{name} escapes and non-ASCII identifiers (no libunistring)',
    (n, w, text) => text.includes('\\N{') || (w && w.rule === 'python-syntax' && /[^\x00-\x7f]/.test(text))],
  ['single-byte Python encodings (no glibc iconv)',
    (n, w) => w && /GNU libc's iconv/.test(w.message)],
];

// Each finding whole: rule, severity, position, message, and also hint, range, offsets, path
// and fix (where the native and the WebAssembly build could part: 32-bit size_t, another libc).
const key = (d) => JSON.stringify([d.rule, d.severity, d.line, d.column, d.message, d.hint || null,
  d.endLine, d.endColumn, d.offset, d.endOffset, d.path || null,
  d.fix ? [d.fix.offset, d.fix.length, d.fix.text, d.fix.unsafe] : null]);
const counts = { inputs: 0, findings: 0, decisions: 0, emitted: 0, emittedText: 0, fixed: 0, same: 0, differences: 0 };
const leftOut = new Map(LEFT_OUT.map(([name]) => [name, 0]));
const corpora = {};
const shown = [];

function compare(corpus, name, text, nd, wd) {
  const c = corpora[corpus] || (corpora[corpus] = { inputs: 0, findings: 0, differ: 0, leftOut: 0 });
  c.inputs++;
  counts.inputs++;
  const nk = nd.map(key);
  const wk = wd.map(key);
  const wset = new Map();
  wk.forEach((k, i) => wset.set(k, (wset.get(k) || []).concat(i)));
  const onlyN = [];
  nk.forEach((k, i) => {
    const l = wset.get(k);
    if (l && l.length) l.shift(); else onlyN.push(nd[i]);
  });
  const onlyW = [];
  for (const l of wset.values()) for (const i of l) onlyW.push(wd[i]);
  c.findings += nd.length;
  counts.findings += nd.length;
  counts.same += nd.length - onlyN.length;
  // Pair the leftovers by (rule, line, column) so that one changed message is one difference.
  const pairs = [];
  const restW = onlyW.slice();
  for (const n of onlyN) {
    const j = restW.findIndex((w) => w.rule === n.rule && w.line === n.line && w.column === n.column);
    pairs.push([n, j >= 0 ? restW.splice(j, 1)[0] : null]);
  }
  for (const w of restW) pairs.push([null, w]);
  // A file the WebAssembly build refuses for a left-out feature (an error that it
  // alone reports) loses every finding of the native side with it: put those down to the same.
  const refusal = pairs.map(([n, w]) => (!n && w && w.severity === 'error'
    ? LEFT_OUT.find(([, f]) => f(n, w, text)) : null)).find((h) => h);
  for (const [n, w] of pairs) {
    const hit = LEFT_OUT.find(([, f]) => f(n, w, text)) || (n && !w && refusal) || null;
    if (hit) {
      leftOut.set(hit[0], leftOut.get(hit[0]) + 1);
      c.leftOut++;
    } else {
      counts.differences++;
      c.differ++;
    }
    {
      shown.push(`${hit ? `left out (${hit[0]})` : 'DIFFERENCE'}: ${corpus}/${name}\n` +
        `    native: ${n ? key(n) : '-'}\n    wasm:   ${w ? key(w) : '-'}`);
    }
  }
}

function both(fn) {
  const out = [];
  for (const side of [native, wasm]) {
    try {
      out.push(fn(side).diagnostics);
    } catch (e) {
      // The native binding throws PolicyError (with its findings) for a policy with errors.
      out.push(e.diagnostics ? e.diagnostics : [{ rule: 'exception', severity: 'error', line: 0, column: 0, message: String(e.message) }]);
    }
  }
  return out;
}

// The file each side's fixes make of the text (boxlint_apply_fixes on each side, safe fixes
// and then all), where both sides found the same.
function compareFixes(corpus, name, text, nd, wd) {
  if (!nd.some((d) => d.fix) || JSON.stringify(nd.map(key)) !== JSON.stringify(wd.map(key))) return;
  for (const unsafeFixes of [false, true]) {
    const a = native.applyFixes(text, nd, { unsafeFixes });
    const b = wasm.applyFixes(text, wd, { unsafeFixes });
    counts.fixed++;
    if (Buffer.compare(Buffer.from(a.text), Buffer.from(b.text)) ||
        JSON.stringify(a.applied) !== JSON.stringify(b.applied)) {
      counts.differences++;
      shown.push(`DIFFERENCE: ${corpus}/${name}: the fixed text (unsafeFixes ${unsafeFixes})`);
    }
  }
}

function walk(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

// Dockerfiles: the real corpus and BuildKit's fixtures, each read as a fragment.
for (const sub of ['real-dockerfiles', 'buildkit-fixtures']) {
  for (const f of walk(path.join(dataDir, 'corpus', sub))) {
    const base = path.basename(f);
    if (/^(README\.md|result|EXPECTED\.jsonl|PARSE_STATUS\.tsv|PROVENANCE\.tsv)$/.test(base)) continue;
    const text = fs.readFileSync(f);
    const [n, w] = both((b) => b.checkFragment(text));
    compare(sub, path.relative(dataDir, f), text.toString('latin1'), n, w);
    compareFixes(sub, path.relative(dataDir, f), text, n, w);
  }
}

// Python files.
for (const f of walk(path.join(dataDir, 'python')).filter((p) => p.endsWith('.py'))) {
  const text = fs.readFileSync(f);
  const [n, w] = both((b) => b.checkPython(text));
  compare('python', path.relative(dataDir, f), text.toString('latin1'), n, w);
  compareFixes('python', path.relative(dataDir, f), text, n, w);
}

// Policy cases: a bare NetworkPolicy (findings, then decisions), a template, a command list.
const policy = (b, spec) => new b.NetworkPolicy(spec);
function destinations(spec) {
  const out = [{ host: 'pypi.org' }, { host: 'github.com' }, { ip: '198.51.100.7' },
    { ip: '10.0.0.1' }, { ip: '2001:db8::1' }, { host: 'files.pythonhosted.org', ip: '151.101.0.223' }];
  for (const e of [...(spec.allow_out || []), ...(spec.deny_out || [])]) {
    if (typeof e !== 'string') continue;
    const h = e.replace(/^\*\./, 'a.').replace(/:\d+$/, '');
    if (/^[0-9.]+(\/\d+)?$/.test(h)) out.push({ ip: h.replace(/\/\d+$/, '') });
    else if (/^[A-Za-z0-9.-]+$/.test(h)) out.push({ host: h });
  }
  return out;
}
for (const f of walk(path.join(dataDir, 'policy')).filter((p) => p.endsWith('.json'))) {
  const text = fs.readFileSync(f, 'utf8');
  const name = path.relative(dataDir, f);
  let v;
  try {
    v = JSON.parse(text);
  } catch (e) {
    console.log(`not compared: ${name} is not JSON (${e.message}); the command's JSON reader rejects it before the library`);
    continue;
  }
  if (Array.isArray(v)) {
    const [n, w] = both((b) => b.checkCommands(v));
    compare('policy', name, text, n, w);
  } else if ('commands' in v || 'name' in v) {
    const [n, w] = both((b) => b.checkTemplate(v));
    compare('policy', name, text, n, w);
  } else {
    // Only the policy's own fields reach the library: an unknown key ("alow_out") is the JSON
    // reader's finding (the command's, the binding's TypeError), not the library's.
    const extra = Object.keys(v).filter((k) => !['type', 'allow_out', 'deny_out'].includes(k));
    if (extra.length) console.log(`${name}: keys ${extra.join(', ')} not given to the library (the reader's finding, not compared)`);
    v = Object.fromEntries(Object.entries(v).filter(([k]) => !extra.includes(k)));
    const [n, w] = both((b) => policy(b, v));
    compare('policy', name, text, n, w);
    let np = null;
    let wp = null;
    try {
      np = policy(native, v);
    } catch (e) {
      np = null;
    }
    try {
      wp = policy(wasm, v);
    } catch (e) {
      wp = null;
    }
    if (np && wp) {
      for (const [format, opts] of [['nftables', {}], ['dnsmasq', {}], ['nginx', {}],
        ['nftables', { resolvers: ['192.0.2.53'] }], ['dnsmasq', { resolvers: ['192.0.2.53'] }],
        ['nftables', { proxyUser: 'proxy', resolvers: ['192.0.2.53'] }],
        ['nginx', { proxyUser: 'proxy', resolvers: ['192.0.2.53'] }]]) {
        const out = [np, wp].map((p) => {
          try {
            return p.emit(format, opts);
          } catch (e) {
            return `${e.name}: ${e.message} ${JSON.stringify((e.diagnostics || []).map(key))}`;
          }
        });
        counts.emitted++;
        if (out[0] !== out[1]) {
          counts.differences++;
          shown.push(`DIFFERENCE: ${name}: emit ${format} ${JSON.stringify(opts)}\n    native: ${out[0].slice(0, 200)}\n    wasm:   ${out[1].slice(0, 200)}`);
        }
      }
      if (JSON.stringify([np.type, np.allow_out, np.deny_out]) !== JSON.stringify([wp.type, wp.allow_out, wp.deny_out])) {
        counts.differences++;
        shown.push(`DIFFERENCE: ${name}: the compiled policy's type and entries`);
      }
      for (const d of destinations(v)) {
        const a = JSON.stringify(np.decide(d));
        const b = JSON.stringify(wp.decide(d));
        counts.decisions++;
        if (a !== b) {
          counts.differences++;
          shown.push(`DIFFERENCE: decision ${name} ${JSON.stringify(d)}\n    native: ${a}\n    wasm:   ${b}`);
        }
      }
    } else if (np || wp) {
      counts.differences++;
      shown.push(`DIFFERENCE: ${name}: the policy compiles on one side only`);
    }
    if (np) np.close();
    if (wp) wp.close();
  }
}

// Policies whose rules can be emitted (the policy cases above mostly cannot): each format's
// text on both sides, with and without the proxy layer, and their decisions.
for (const spec of [
  { type: 'filtered', allow_out: ['pypi.org', '*.pythonhosted.org'], deny_out: ['ALL_TRAFFIC'] },
  { type: 'filtered', allow_out: ['10.1.0.0/16', '2001:db8::/32'], deny_out: ['0.0.0.0/0', '::/0'] },
  { type: 'filtered', allow_out: [], deny_out: ['169.254.169.254', 'metadata.google.internal'] },
]) {
  const np = policy(native, spec);
  const wp = policy(wasm, spec);
  for (const [format, opts] of [['nftables', { resolvers: ['192.0.2.53'] }],
    ['dnsmasq', { resolvers: ['192.0.2.53'] }],
    ['nftables', { proxyUser: 'proxy', resolvers: ['192.0.2.53'], iifname: 'veth0' }],
    ['nginx', { proxyUser: 'proxy', resolvers: ['192.0.2.53'] }]]) {
    const out = [np, wp].map((p) => {
      try {
        return p.emit(format, opts);
      } catch (e) {
        return `${e.name}: ${e.message}`;
      }
    });
    counts.emitted++;
    if (!/Error: /.test(out[0])) counts.emittedText++;
    if (out[0] !== out[1]) {
      counts.differences++;
      shown.push(`DIFFERENCE: emit ${format} of ${JSON.stringify(spec)}\n    native: ${out[0].slice(0, 200)}\n    wasm:   ${out[1].slice(0, 200)}`);
    }
  }
  for (const d of destinations(spec)) {
    counts.decisions++;
    if (JSON.stringify(np.decide(d)) !== JSON.stringify(wp.decide(d))) {
      counts.differences++;
      shown.push(`DIFFERENCE: decision ${JSON.stringify(spec)} ${JSON.stringify(d)}`);
    }
  }
  np.close();
  wp.close();
}

// Agent bindings: the JSON files of the test data that are bindings.
for (const f of walk(dataDir).filter((p) => p.endsWith('.json') && !p.includes('node_modules'))) {
  let v;
  try {
    v = JSON.parse(fs.readFileSync(f, 'utf8'));
  } catch (e) {
    continue;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v) || !('template_id' in v)) continue;
  const [n, w] = both((b) => b.checkBinding(v));
  compare('bindings', path.relative(dataDir, f), JSON.stringify(v), n, w);
}

// The rule table and each rule's explanation, as `boxlint rules` and `explain` print them.
{
  const a = native.rules();
  const same = JSON.stringify(a) === JSON.stringify(wasm.rules());
  const explained = a.filter((r) => native.explain(r.id) === wasm.explain(r.id)).length;
  console.log(`rules: ${a.length}, the same table: ${same}; explanations the same: ${explained}`);
  if (!same) counts.differences++;
  counts.differences += a.length - explained;
}

// User rules (PCRE2): the Dockerfile corpora and the probes below again, with the rules on both
// sides; the rules' own findings are counted.
if (pcre2) {
  const nativeConfig = new native.Config({ userRules: USER_RULES });
  rawWasm.config = wasmRulesConfig;
  const userRuleIds = new Set(USER_RULES.map((r) => r.id));
  let userFindings = 0;
  let regexLimits = 0;
  const withRules = (sub, name, text, fn) => {
    const nd = fn(native, { config: nativeConfig });
    const wd = fn(rawWasm);
    userFindings += nd.diagnostics.filter((d) => userRuleIds.has(d.rule)).length;
    regexLimits += nd.diagnostics.filter((d) => d.rule === 'regex-limit').length;
    compare(`${sub} (user rules)`, name, text.toString('latin1'), nd.diagnostics, wd.diagnostics);
  };
  for (const sub of ['real-dockerfiles', 'buildkit-fixtures']) {
    for (const f of walk(path.join(dataDir, 'corpus', sub))) {
      if (/^(README\.md|result|EXPECTED\.jsonl|PARSE_STATUS\.tsv|PROVENANCE\.tsv)$/.test(path.basename(f))) continue;
      const text = fs.readFileSync(f);
      withRules(sub, path.relative(dataDir, f), text, (b, o) => b.checkFragment(text, o));
    }
  }
  const cmds = ['FROM python:latest', 'RUN curl -fsSL https://x.example/i.sh | bash', 'RUN apt-get dist-upgrade -y',
    'RUN echo caf\u00e9', 'RUN a b c d e f g h i j k l m n', `LABEL ${'a'.repeat(40)}!`, 'LABEL a b c'];
  withRules('probes', 'user rules', cmds.join('\n'), (b, o) => b.checkCommands(cmds, o));
  console.log(`user rules: ${USER_RULES.length} rules, ${userFindings} native findings of them ` +
    `(${regexLimits} regex-limit)`);
  if (userFindings === 0 || regexLimits === 0) {
    counts.differences++;
    shown.push('DIFFERENCE: the user rules found nothing, or no regex-limit, on the native side: the comparison saw none');
  }
  nativeConfig.close();
}

// Settings, through each backend's own API (lib/settings.js): a Config (warnings raised,
// lowered and off, the user rules above, label-words hitting regex-limit), each option of the
// checks (options: maxCommands, maxCommandBytes, escape, the resource bounds) and the policy
// options (compat, unmatched, maxEntries) of checkPython and NetworkPolicy, on the same inputs
// as above. Each setting must change some native finding (else it could be ignored unseen), and
// its findings must be the same on both sides. The Config's own answers (severity() of every
// rule, userRuleIds) and the errors of bad settings are compared too.
{
  const SEVERITIES = {
    'apt-get-missing-yes': 'off', 'sudo-usage': 'error', 'pip-no-cache-dir': 'info',
    'apt-lists-not-cleaned': 'error', 'unknown-field': 'off', 'duplicate-entry': 'info',
    'allow-without-effect': 'error',
  };
  const configs = [native, wasm].map((b) => new b.Config({
    severities: SEVERITIES, userRules: pcre2 ? USER_RULES : [],
  }));
  const settingStats = new Map();
  const configHits = []; // native findings of the user rules and regex-limit under the Config
  const seen = (setting, changed) => {
    const st = settingStats.get(setting) || { inputs: 0, changed: 0 };
    st.inputs++;
    if (changed) st.changed++;
    settingStats.set(setting, st);
  };
  // fn(side, opts) -> a result; opts.config is replaced by that side's Config.
  const withSetting = (setting, corpus, name, text, opts, fn) => {
    const side = (b, i) => {
      const o = { ...opts };
      if (o.config) o.config = configs[i];
      try {
        return fn(b, o).diagnostics;
      } catch (e) {
        return e.diagnostics ? e.diagnostics
          : [{ rule: 'exception', severity: 'error', line: 0, column: 0, message: `${e.name}: ${e.message}` }];
      }
    };
    const nd = side(native, 0);
    const wd = side(wasm, 1);
    let plain;
    try {
      plain = fn(native, {}).diagnostics;
    } catch (e) {
      plain = e.diagnostics || [];
    }
    seen(setting, JSON.stringify(plain.map(key)) !== JSON.stringify(nd.map(key)));
    if (opts.config) configHits.push(...nd.filter((d) => d.rule === 'regex-limit' || USER_RULES.some((r) => r.id === d.rule)));
    compare(`${corpus} (${setting})`, name, text, nd, wd);
  };
  const dockerfiles = [];
  for (const sub of ['real-dockerfiles', 'buildkit-fixtures']) {
    for (const f of walk(path.join(dataDir, 'corpus', sub))) {
      if (/^(README\.md|result|EXPECTED\.jsonl|PARSE_STATUS\.tsv|PROVENANCE\.tsv)$/.test(path.basename(f))) continue;
      dockerfiles.push([path.relative(dataDir, f), fs.readFileSync(f)]);
    }
  }
  const pythons = walk(path.join(dataDir, 'python')).filter((p) => p.endsWith('.py'))
    .map((f) => [path.relative(dataDir, f), fs.readFileSync(f)]);
  const templates = [];
  const policies = [];
  for (const f of walk(path.join(dataDir, 'policy')).filter((p) => p.endsWith('.json'))) {
    let v;
    try {
      v = JSON.parse(fs.readFileSync(f, 'utf8'));
    } catch (e) {
      continue;
    }
    if (Array.isArray(v)) templates.push([path.relative(dataDir, f), { name: 't', commands: v, cpu_count: 2, memory_mb: 1024 }]);
    else if ('commands' in v || 'name' in v) templates.push([path.relative(dataDir, f), v]);
    else {
      policies.push([path.relative(dataDir, f), Object.fromEntries(Object.entries(v)
        .filter(([k]) => ['type', 'allow_out', 'deny_out'].includes(k)))]);
    }
  }
  const probeCmds = ['RUN sudo apt-get install curl', `LABEL ${'a'.repeat(40)}!`, 'RUN pip install x',
    'RUN echo `date`', 'RUN a \\', 'FROM python:latest', 'RUN ' + 'x'.repeat(60)];
  templates.push(['probe', { name: 'p', commands: probeCmds, cpu_count: 8, memory_mb: 512 }]);
  policies.push(['probe', { type: 'filtered', allow_out: ['10.0.0.0/8', '10.0.0.0/8', 'pypi.org', '*.pythonhosted.org'], deny_out: ['ALL_TRAFFIC', '0.0.0.0/0'] }]);
  const OPTIONS = [
    ['config', { config: true }],
    ['maxCommands', { options: { maxCommands: 3 } }],
    ['maxCommandBytes', { options: { maxCommandBytes: 40 } }],
    ['escape', { options: { escape: '`' } }],
    ['cpu and memory bounds', { options: { cpuMin: 4, cpuMax: 6, memoryMin: 1024, memoryMax: 2048 } }],
  ];
  for (const [setting, opts] of OPTIONS) {
    for (const [name, text] of dockerfiles) {
      withSetting(setting, 'dockerfiles', name, text.toString('latin1'), opts, (b, o) => b.checkFragment(text, o));
    }
    withSetting(setting, 'probes', 'commands', probeCmds.join('\n'), opts, (b, o) => b.checkCommands(probeCmds, o));
    for (const [name, t] of templates) {
      withSetting(setting, 'templates', name, JSON.stringify(t), opts, (b, o) => b.checkTemplate(t, o));
    }
  }
  const POLICY_OPTIONS = [
    ['config', { config: true }], ['compat', { compat: 'e2b' }], ['unmatched', { unmatched: 'deny' }],
    ['maxEntries', { maxEntries: 1 }],
  ];
  for (const [setting, opts] of POLICY_OPTIONS) {
    for (const [name, text] of pythons) {
      withSetting(setting, 'python', name, text.toString('latin1'), opts, (b, o) => b.checkPython(text, o));
    }
    for (const [name, spec] of policies) {
      withSetting(setting, 'policies', name, JSON.stringify(spec), opts, (b, o) => new b.NetworkPolicy(spec, o));
      // The compiled policy's decisions under the options.
      const made = [native, wasm].map((b, i) => {
        try {
          return new b.NetworkPolicy(spec, opts.config ? { config: configs[i] } : opts);
        } catch (e) {
          return null;
        }
      });
      if (made[0] && made[1]) {
        for (const d of destinations(spec)) {
          counts.decisions++;
          const a = JSON.stringify(made[0].decide(d));
          const b = JSON.stringify(made[1].decide(d));
          if (a !== b) {
            counts.differences++;
            shown.push(`DIFFERENCE: decision ${name} (${setting}) ${JSON.stringify(d)}\n    native: ${a}\n    wasm:   ${b}`);
          }
        }
        // A compiled policy in a template keeps its options, under the call's config.
        const t = { name: 't', commands: ['RUN true'], cpu_count: 2, memory_mb: 1024 };
        withSetting(`${setting}, a NetworkPolicy in a template`, 'policies', name, JSON.stringify(spec), { compiled: true },
          (b, o) => {
            const i = b === native ? 0 : 1;
            return b.checkTemplate({ ...t, network_policy: o.compiled ? made[i] : spec },
              o.compiled ? { config: configs[i] } : {});
          });
      } else if (made[0] || made[1]) {
        counts.differences++;
        shown.push(`DIFFERENCE: ${name} (${setting}): the policy compiles on one side only`);
      }
      for (const p of made) if (p) p.close();
    }
  }
  for (const [setting, st] of settingStats) {
    console.log(`setting ${setting}: ${st.inputs} inputs, ${st.changed} whose native findings it changes`);
    if (!st.changed) {
      counts.differences++;
      shown.push(`DIFFERENCE: the setting ${setting} changed no native finding: the comparison cannot see it ignored`);
    }
  }
  const limits = configHits.filter((d) => d.rule === 'regex-limit').length;
  console.log(`Config: ${configHits.length - limits} native findings of user rules, ${limits} regex-limit`);
  if (pcre2 && (limits === 0 || configHits.length === limits)) {
    counts.differences++;
    shown.push('DIFFERENCE: the Config\'s user rules found nothing, or no regex-limit, on the native side');
  }
  // The Config's own answers.
  const ruleIds = native.rules().map((r) => r.id).concat(USER_RULES.map((r) => r.id), ['no-such-rule']);
  const answers = configs.map((c) => JSON.stringify([ruleIds.map((id) => c.severity(id)), c.userRuleIds]));
  if (answers[0] !== answers[1]) {
    counts.differences++;
    shown.push(`DIFFERENCE: Config severity()/userRuleIds\n    native: ${answers[0].slice(0, 300)}\n    wasm:   ${answers[1].slice(0, 300)}`);
  }
  // Bad settings: the same exception (class, message, offset, status) on both sides.
  const BAD = [
    ['Config', (b) => new b.Config({ userRules: [{ id: 'x', pattern: 'a(' }] })],
    ['Config', (b) => new b.Config({ severities: { 'no-such-rule': 'off' } })],
    ['Config', (b) => new b.Config({ severities: { 'denied-instruction': 'off' } })],
    ['Config', (b) => new b.Config({ severities: { 'sudo-usage': 'loud' } })],
    ['Config', (b) => new b.Config({ userRules: [{ id: 'x', pattern: 'a', instruction: 'NOPE' }] })],
    ['Config', (b) => new b.Config({ userRules: [{ id: 'sudo-usage', pattern: 'a' }] })],
    ['Config', (b) => new b.Config({ userRules: [{ id: 'x', pattern: 'a', colour: 1 }] })],
    ['Config', (b) => b.Config.fromObject({ rules: {}, extra: 1 })],
    ['Config', (b) => new b.Config().severity(3)],
    ['config', (b) => b.checkCommands(['RUN a'], { config: {} })],
    ['options', (b) => b.checkCommands(['RUN a'], { options: { escape: 'x' } })],
    ['options', (b) => b.checkCommands(['RUN a'], { options: { maxCommands: 1.5 } })],
    ['options', (b) => b.checkFragment('RUN a', { options: 7 })],
    ['compat', (b) => b.checkPython('x = 1', { compat: 'nope' })],
    ['unmatched', (b) => new b.NetworkPolicy({ type: 'open' }, { unmatched: 'maybe' })],
    ['maxEntries', (b) => new b.NetworkPolicy({ type: 'open' }, { maxEntries: -1 })],
    ['closed', (b) => {
      const c = new b.Config();
      c.close();
      return b.checkCommands(['RUN a'], { config: c });
    }],
  ];
  let badSame = 0;
  for (const [what, fn] of BAD) {
    const out = [native, wasm].map((b) => {
      try {
        fn(b);
        return 'no exception';
      } catch (e) {
        return JSON.stringify([e.name, e.message, e.offset, e.status]);
      }
    });
    if (out[0] === out[1] && out[0] !== 'no exception') badSame++;
    else {
      counts.differences++;
      shown.push(`DIFFERENCE: bad ${what}\n    native: ${out[0]}\n    wasm:   ${out[1]}`);
    }
  }
  console.log(`bad settings: ${badSame} of ${BAD.length} refused alike`);
  for (const c of configs) c.close();
}

// Probes of each left-out feature, so that its count says it was seen: inputs the corpora
// above may lack, whose native findings the WebAssembly build is known not to give.
const PROBES = [
  ['secret-in-command', ['RUN curl -H "Authorization: token ghp_0123456789abcdefghijABCDEFGHIJ012345" https://x.example']],
  ['secret in ENV', ['ENV API_TOKEN=s3cr3tvalue']],
];
for (const [name, commands] of PROBES) {
  const [n, w] = both((b) => b.checkCommands(commands));
  compare('probes', name, commands.join('\n'), n, w);
}
{
  const src = 'client.code_interpreter.templates.update("t", commands=["RUN echo \\N{BLACK STAR}", "COPY a b"])\n';
  const [n, w] = both((b) => b.checkPython(src));
  compare('probes', '\\N{BLACK STAR}', src, n, w);
}

for (const s of shown) console.log(s);
for (const [c, v] of Object.entries(corpora)) {
  console.log(`${c}: ${v.inputs} inputs, ${v.findings} native findings, ${v.differ} differences, ${v.leftOut} left out`);
}
console.log(`decisions compared: ${counts.decisions}; emitted configurations compared: ${counts.emitted} (${counts.emittedText} texts, the rest refusals); fixed texts compared: ${counts.fixed}`);
for (const [n, k] of leftOut) console.log(`left out by the WebAssembly build: ${k} differences: ${n}`);
console.log(`total: ${counts.inputs} inputs, ${counts.findings} native findings, ${counts.same} identical, ` +
  `${counts.differences} differences`);
process.exit(counts.differences || process.exitCode ? 1 : 0);

// `boxlint lsp` driven by vscode-jsonrpc, the JSON-RPC library VS Code's extension client
// (vscode-languageclient) is built on, with vscode-languageserver-protocol's types: a scripted
// session over the three file kinds, positions in every encoding (a line with an emoji before
// the finding, CRLF, a last line without a newline), incremental changes, the latest version
// winning, quick fixes and "fix all" applied and seen to clear, hover, the configuration
// re-read and a malformed one shown, a package.json and an ordinary Dockerfile left alone (an
// empty list, one log line), the malformed-input cases of the base protocol, the exit
// codes, and the server's memory over 10,000 edits of one document.
//
// usage: node vscode_test.mjs BOXLINT   (exit 0: passed; 77: the npm packages are missing)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let rpc, proto;
try {
  // the protocol package re-exports its own vscode-jsonrpc: one copy of the message types
  proto = require('vscode-languageserver-protocol/node');
  rpc = proto;
} catch (e) {
  console.log('skipped: vscode-jsonrpc is not installed (make deps: npm ci --prefix tests/lsp)');
  process.exit(77);
}

const BIN = process.argv[2];
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'boxlint-lsp-'));
let failures = 0;
const check = (name, ok, info) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || info === undefined ? '' : ': ' + JSON.stringify(info)}`);
  if (!ok) failures++;
};
const uriOf = (f) => 'file://' + path.join(TMP, f);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// One server and a connection to it; the diagnostics it publishes, per URI, in order.
function start(extraEnv = {}) {
  const child = spawn(BIN, ['lsp', '--debounce', '20'], {
    cwd: TMP, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...extraEnv },
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const logged = [];
  const logger = { error: (m) => logged.push(m), warn: (m) => logged.push(m), info: () => {}, log: () => {} };
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout),
                                           new rpc.StreamMessageWriter(child.stdin), logger);
  const pubs = [];
  const waiters = [];
  conn.onNotification(proto.PublishDiagnosticsNotification.type, (p) => {
    pubs.push(p);
    for (const w of [...waiters]) if (w.pred(p)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(p); }
  });
  const registrations = [];
  conn.onRequest(proto.RegistrationRequest.type, (p) => { registrations.push(p); return null; });
  const logs = [];
  conn.onNotification(proto.LogMessageNotification.type, (p) => { logs.push(p.message); });
  conn.listen();
  const exited = new Promise((r) => child.on('exit', (code) => r(code)));
  // The next publication for `uri` that satisfies pred (or null after 10 s).
  const next = (uri, pred = () => true) => new Promise((resolve) => {
    const w = { pred: (p) => p.uri === uri && pred(p), resolve };
    waiters.push(w);
    setTimeout(() => { if (waiters.includes(w)) { waiters.splice(waiters.indexOf(w), 1); resolve(null); } }, 10000);
  });
  return { child, conn, pubs, next, logged, registrations, logs, exited, stderr: () => stderr };
}

const DOCS = 'https://example.invalid/boxlint/docs';
async function initialize(s, encodings, initializationOptions) {
  const caps = { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } };
  if (encodings) caps.general = { positionEncodings: encodings };
  const res = await s.conn.sendRequest(proto.InitializeRequest.type,
                                       { processId: process.pid, rootUri: 'file://' + TMP, capabilities: caps,
                                         initializationOptions });
  s.conn.sendNotification(proto.InitializedNotification.type, {});
  return res;
}

const open = (s, file, text, languageId, version = 1) =>
  s.conn.sendNotification(proto.DidOpenTextDocumentNotification.type,
                          { textDocument: { uri: uriOf(file), languageId, version, text } });

// Apply LSP TextEdits (UTF-16 positions, as JavaScript strings count) to a text.
function applyEdits(text, edits) {
  const lines = text.split(/(?<=\r\n|\n|\r(?!\n))/);
  const offset = (p) => lines.slice(0, p.line).reduce((a, l) => a + l.length, 0) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const e of sorted) text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  return text;
}

// The column of `needle` on line `line` of `text` in the encoding.
function column(text, line, needle, enc) {
  const l = text.split(/\r\n|\n|\r/)[line];
  const before = l.slice(0, l.indexOf(needle));
  return enc === 'utf-8' ? Buffer.byteLength(before) : enc === 'utf-32' ? [...before].length : before.length;
}

const FRAGMENT = 'RUN echo "\u{1F600} caf\u00e9" && apt-get install curl\r\nRUN true\r\nWROKDIR /srv';
const PYTHON = 'client.code_interpreter.templates.update(\n    "t",\n' +
  '    commands=["RUN echo \u{1F600} && apt-get install curl", "pip install x"],\n)\n';
const TEMPLATE = '{"name": "t", "commands": ["RUN echo \u{1F600} && apt-get install curl"], ' +
  '"cpu_count": 2, "memory_mb": 4096}\n';

async function positions(enc) {
  const s = start();
  const res = await initialize(s, enc ? [enc, 'utf-16'] : undefined);
  const want = enc || 'utf-16';
  check(`${want}: positionEncoding negotiated`, res.capabilities.positionEncoding === want, res.capabilities);
  const cases = [['t.Dockerfile', FRAGMENT, 'dockerfile', 0], ['t.py', PYTHON, 'python', 2],
                 ['t.json', TEMPLATE, 'json', 0]];
  for (const [file, text, lang, line] of cases) {
    const p = s.next(uriOf(file));
    open(s, file, text, lang);
    const pub = await p;
    const d = pub && pub.diagnostics.find((x) => x.code === 'apt-get-missing-yes');
    const col = column(text, line, 'apt-get install', want);
    check(`${want}: ${file}: apt-get-missing-yes after the emoji at ${line}:${col}`,
          d && d.range.start.line === line && d.range.start.character === col, d || pub);
  }
  await s.conn.sendRequest(proto.ShutdownRequest.type);
  s.conn.sendNotification(proto.ExitNotification.type);
  check(`${want}: exit after shutdown: exit code 0`, (await s.exited) === 0);
  s.conn.dispose();
}

async function session() {
  const s = start();
  // a request before initialize
  const before = await s.conn.sendRequest('textDocument/hover', {}).then(() => null, (e) => e);
  check('a request before initialize: ServerNotInitialized (-32002)', before && before.code === -32002, before);
  const res = await initialize(s, undefined, { docsUrl: DOCS });
  const caps = res.capabilities;
  check('capabilities: incremental sync, quick fixes and fix all, hover',
        caps.textDocumentSync.change === 2 && caps.textDocumentSync.openClose === true &&
        caps.codeActionProvider.codeActionKinds.includes('source.fixAll.boxlint') && caps.hoverProvider === true &&
        caps.positionEncoding === 'utf-16', caps);
  const again = await s.conn.sendRequest(proto.InitializeRequest.type, { processId: null, rootUri: null, capabilities: {} })
    .then(() => null, (e) => e);
  check('a second initialize: InvalidRequest (-32600)', again && again.code === -32600, again);
  await sleep(200);
  check('the configuration watcher is registered dynamically',
        s.registrations.some((r) => r.registrations.some((g) => g.method === 'workspace/didChangeWatchedFiles')),
        s.registrations);

  // a fragment with CRLF and no newline at its end
  const F = uriOf('t.Dockerfile');
  let text = FRAGMENT;
  let pub = s.next(F);
  open(s, 't.Dockerfile', text, 'dockerfile');
  pub = await pub;
  const unk = pub && pub.diagnostics.find((d) => d.code === 'unknown-instruction');
  check('CRLF, last line without a newline: unknown-instruction at 2:0-2:7',
        unk && unk.range.start.line === 2 && unk.range.start.character === 0 && unk.range.end.character === 7, pub);
  check('published with the document version', pub && pub.version === 1, pub && pub.version);
  check('codeDescription: the rule\'s page under initializationOptions.docsUrl',
        unk && unk.codeDescription && unk.codeDescription.href === DOCS + '/rules/unknown-instruction.md', unk);

  // incremental changes: " -y" typed after "install", in five quick versions; the last wins
  const at = { line: 0, character: column(text, 0, 'install', 'utf-16') + 'install'.length };
  const typed = [' ', '-', 'y'];
  let v = 1;
  const last = s.next(F, (p) => p.version === 4);
  for (const ch of typed) {
    v++;
    const pos = { ...at }; // its own object: the message is serialised later
    s.conn.sendNotification(proto.DidChangeTextDocumentNotification.type, {
      textDocument: { uri: F, version: v },
      contentChanges: [{ range: { start: pos, end: pos }, text: ch }],
    });
    text = applyEdits(text, [{ range: { start: at, end: at }, newText: ch }]);
    at.character += 1;
  }
  pub = await last;
  check('incremental changes: apt-get-missing-yes gone in version 4',
        pub && !pub.diagnostics.some((d) => d.code === 'apt-get-missing-yes'), pub);
  const versions = s.pubs.filter((p) => p.uri === F).map((p) => p.version);
  check('debounced: no stale version published after a newer one',
        versions.every((x, i) => i === 0 || x >= versions[i - 1]) && !versions.includes(2), versions);

  // hover on the finding, and on an instruction keyword
  const hov = await s.conn.sendRequest(proto.HoverRequest.type, { textDocument: { uri: F }, position: { line: 2, character: 3 } });
  check('hover on a finding: the rule explained in Markdown',
        hov && hov.contents.kind === 'markdown' && hov.contents.value.includes('unknown-instruction'), hov);
  const hk = await s.conn.sendRequest(proto.HoverRequest.type, { textDocument: { uri: F }, position: { line: 1, character: 1 } });
  check('hover on a keyword: RUN', hk && hk.contents.value.includes('RUN'), hk);

  // the quick fix, applied as the client would, clears the finding
  const acts = await s.conn.sendRequest(proto.CodeActionRequest.type, {
    textDocument: { uri: F }, range: unk.range, context: { diagnostics: [unk] },
  });
  const qf = acts.find((a) => a.kind === 'quickfix');
  check('a quick fix for unknown-instruction, with its diagnostic', qf && qf.diagnostics[0].code === 'unknown-instruction', acts);
  check('a safe quick fix: its title, preferred', qf && qf.title === 'replace with WORKDIR (boxlint unknown-instruction)' &&
        qf.isPreferred === true, qf);
  text = applyEdits(text, qf.edit.changes[F]);
  check('the quick fix writes WORKDIR', text.endsWith('WORKDIR /srv'), text);
  v++;
  pub = s.next(F, (p) => p.version === v);
  s.conn.sendNotification(proto.DidChangeTextDocumentNotification.type,
                          { textDocument: { uri: F, version: v }, contentChanges: [{ text }] });
  pub = await pub;
  check('after the quick fix (full sync): the finding is gone',
        pub && !pub.diagnostics.some((d) => d.code === 'unknown-instruction'), pub);

  // fix all, in a Python file
  const P = uriOf('fix.py');
  let ptext = 'client.code_interpreter.templates.update("t", commands=[\n    "WROKDIR /srv",\n    \'pip install x\',\n])\n';
  pub = s.next(P);
  open(s, 'fix.py', ptext, 'python');
  pub = await pub;
  const fixable = pub.diagnostics.filter((d) => d.data && d.data.fix).length;
  const all = await s.conn.sendRequest(proto.CodeActionRequest.type, {
    textDocument: { uri: P }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    context: { diagnostics: [], only: ['source.fixAll'] },
  });
  check('only source.fixAll: one "fix all" action and no quick fix',
        all.length === 1 && all[0].kind === 'source.fixAll.boxlint', all);
  ptext = applyEdits(ptext, all[0].edit.changes[P]);
  pub = s.next(P, (p) => p.version === 2);
  s.conn.sendNotification(proto.DidChangeTextDocumentNotification.type,
                          { textDocument: { uri: P, version: 2 }, contentChanges: [{ text: ptext }] });
  pub = await pub;
  check(`fix all: ${fixable} fixable findings, none after it`,
        fixable === 2 && pub && !pub.diagnostics.some((d) => d.data && d.data.fix) &&
        ptext.includes('"WORKDIR /srv"') && ptext.includes("'RUN pip install x'"), { ptext, pub });

  // a package.json and an ordinary Dockerfile, which `boxlint .` passes over: an empty list, and
  // one line in the log each (window/logMessage), not repeated when the document changes
  for (const [file, lang, body] of [['package.json', 'json', '{"name": "web", "version": "1.0.0"}\n'],
                                    ['Dockerfile', 'dockerfile', 'FROM python:3.12\nCOPY . /app\n']]) {
    const U = uriOf(file);
    pub = s.next(U);
    open(s, file, body, lang);
    pub = await pub;
    check(`${file}: not boxlint's: an empty diagnostics list`, pub && pub.diagnostics.length === 0, pub);
    pub = s.next(U, (p) => p.version === 2);
    s.conn.sendNotification(proto.DidChangeTextDocumentNotification.type,
                            { textDocument: { uri: U, version: 2 }, contentChanges: [{ text: body + '\n' }] });
    pub = await pub;
    const said = s.logs.filter((m) => m.includes(path.join(TMP, file) + ': not checked'));
    check(`${file}: said once in the log, still nothing after a change`,
          said.length === 1 && pub && pub.diagnostics.length === 0, { logs: s.logs, pub });
  }

  // an unsafe fix (ALL_TRAFFIC turns egress from allow-all into deny-all): its quick fix is titled
  // "(unsafe)" and never preferred, and "fix all" leaves it while fixing the safe ones
  const U = uriOf('unsafe.py');
  const utext = 'client.agents.add_code_interpreter(\n    "prm_abc", template_id="t", version=1, lifespan_seconds=1200,\n' +
    '    network_policy={"type": "filtered", "allow_out": ["pypi.org"], "deny_out": []},\n)\n' +
    'client.code_interpreter.templates.update("t", commands=["WROKDIR /srv"])\n';
  pub = s.next(U);
  open(s, 'unsafe.py', utext, 'python');
  pub = await pub;
  const awe = pub && pub.diagnostics.find((d) => d.code === 'allow-without-effect');
  check('unsafe.py: allow-without-effect at 2:54', awe && awe.range.start.line === 2 && awe.range.start.character === 54 &&
        awe.message.startsWith("allow_out[0]: 'pypi.org' has no effect: no deny_out entry overlaps it"), pub);
  const uacts = awe ? await s.conn.sendRequest(proto.CodeActionRequest.type, {
    textDocument: { uri: U }, range: awe.range, context: { diagnostics: [awe] },
  }) : [];
  const uq = uacts.filter((a) => a.kind === 'quickfix');
  check('the unsafe quick fix: titled (unsafe), not preferred', uq.length === 1 &&
        uq[0].title === 'add "ALL_TRAFFIC" to network_policy.deny_out (unsafe) (boxlint allow-without-effect)' &&
        uq[0].isPreferred === false && uq[0].diagnostics[0].code === 'allow-without-effect', uacts);
  const ufa = uacts.find((a) => a.kind === 'source.fixAll.boxlint');
  check('fix all: the safe fix only, deny_out left alone',
        ufa && applyEdits(utext, ufa.edit.changes[U]) === utext.replace('WROKDIR', 'WORKDIR'), uacts);

  // the configuration: a rule switched off, then a malformed file, then fixed
  const T = uriOf('t.json');
  pub = s.next(T);
  open(s, 't.json', TEMPLATE, 'json');
  pub = await pub;
  check('t.json: apt-get-missing-yes before the configuration', pub && pub.diagnostics.some((d) => d.code === 'apt-get-missing-yes'), pub);
  const CFG = path.join(TMP, '.boxlint.json');
  const changed = () => s.conn.sendNotification(proto.DidChangeWatchedFilesNotification.type,
                                                 { changes: [{ uri: 'file://' + CFG, type: 2 }] });
  fs.writeFileSync(CFG, '{"rules": {"apt-get-missing-yes": "off"}}\n');
  pub = s.next(T);
  changed();
  pub = await pub;
  check('.boxlint.json changed: the rule it switches off is gone',
        pub && !pub.diagnostics.some((d) => d.code === 'apt-get-missing-yes'), pub);
  fs.writeFileSync(CFG, '{"rules": {"apt-get-missing-yes": "of"}\n');
  const cp = s.next('file://' + CFG);
  pub = s.next(T);
  changed();
  const [cpub, tpub] = await Promise.all([cp, pub]);
  check('a malformed .boxlint.json: a diagnostic on the configuration file, at its line',
        cpub && cpub.diagnostics.length === 1 && cpub.diagnostics[0].code === 'invalid-config', cpub);
  check('... and one on the document, naming it', tpub && tpub.diagnostics.length === 1 &&
        tpub.diagnostics[0].message.includes('.boxlint.json'), tpub);
  fs.writeFileSync(CFG, '{}\n');
  const cleared = s.next('file://' + CFG);
  pub = s.next(T);
  changed();
  const [cc, tp] = await Promise.all([cleared, pub]);
  check('the configuration fixed: its diagnostics cleared, the document checked again',
        cc && cc.diagnostics.length === 0 && tp && tp.diagnostics.some((d) => d.code === 'apt-get-missing-yes'), { cc, tp });
  fs.unlinkSync(CFG);

  // malformed input: the server answers what it can and keeps serving
  const alive = async (name) => {
    const h = await s.conn.sendRequest(proto.HoverRequest.type, { textDocument: { uri: F }, position: { line: 1, character: 1 } })
      .then((x) => x, (e) => e);
    check(`${name}: the server still answers`, h && h.contents, h);
  };
  s.logged.length = 0;
  s.child.stdin.write('Content-Length: 12\r\n\r\nthis is not');
  s.child.stdin.write('!');
  await alive('a body that is not JSON');
  check('... answered with ParseError (-32700)', s.logged.some((m) => m.includes('-32700')), s.logged);
  s.child.stdin.write('Content-Length: twelve\r\n\r\n{"a": 1}');
  await alive('a Content-Length that is not a number');
  s.child.stdin.write('Content-Type: application/json\r\n\r\n{"jsonrpc":"2.0","id":99,"method":"shutdown"}');
  await alive('a header block without Content-Length (its body runs into the next message)');
  s.logged.length = 0;
  const big = 64 * 1024 * 1024 + 1;
  s.child.stdin.write(`Content-Length: ${big}\r\n\r\n`);
  s.child.stdin.write(Buffer.alloc(big, 0x20));
  await alive('a Content-Length over the 64 MiB limit (the body skipped)');
  check('... answered with InvalidRequest (-32600)', s.logged.some((m) => m.includes('-32600')), s.logged);
  const unknown = await s.conn.sendRequest('boxlint/noSuchMethod', {}).then(() => null, (e) => e);
  check('an unknown request: MethodNotFound (-32601)', unknown && unknown.code === -32601, unknown);
  s.conn.sendNotification('boxlint/noSuchNotification', {});
  await alive('an unknown notification (ignored)');
  const nodoc = await s.conn.sendRequest(proto.HoverRequest.type, { textDocument: { uri: uriOf('nope.py') }, position: { line: 0, character: 0 } })
    .then(() => null, (e) => e);
  check('a request about a document that is not open: InvalidParams (-32602)', nodoc && nodoc.code === -32602, nodoc);
  const badpos = await s.conn.sendRequest(proto.HoverRequest.type, { textDocument: { uri: F }, position: { line: 99, character: 0 } })
    .then(() => null, (e) => e);
  check('a position past the last line: InvalidParams (-32602)', badpos && badpos.code === -32602, badpos);
  const before2 = s.pubs.filter((p) => p.uri === F).length;
  pub = s.next(F, (p) => p.version === 50);
  s.conn.sendNotification(proto.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: F, version: 50 },
    contentChanges: [{ range: { start: { line: 99, character: 0 }, end: { line: 99, character: 1 } }, text: 'FROM x' }],
  });
  pub = await pub;
  check('a change at an invalid position is dropped, the document unchanged',
        pub && !pub.diagnostics.some((d) => d.code === 'denied-instruction') && s.pubs.filter((p) => p.uri === F).length === before2 + 1,
        pub);
  check('stderr carries the logs', s.stderr().includes('dropped'), s.stderr());

  // close clears; shutdown; a request after it; exit
  pub = s.next(F);
  s.conn.sendNotification(proto.DidCloseTextDocumentNotification.type, { textDocument: { uri: F } });
  pub = await pub;
  check('didClose: diagnostics cleared', pub && pub.diagnostics.length === 0, pub);
  await s.conn.sendRequest(proto.ShutdownRequest.type);
  const after = await s.conn.sendRequest(proto.HoverRequest.type, { textDocument: { uri: T }, position: { line: 0, character: 0 } })
    .then(() => null, (e) => e);
  check('a request after shutdown: InvalidRequest (-32600)', after && after.code === -32600, after);
  s.conn.sendNotification(proto.ExitNotification.type);
  check('exit after shutdown: exit code 0', (await s.exited) === 0);
  s.conn.dispose();

  const t = start();
  await initialize(t);
  t.conn.sendNotification(proto.ExitNotification.type);
  check('exit without shutdown: exit code 1', (await t.exited) === 1);
  t.conn.dispose();
}

// Resident memory after 100 and after 10,000 edits of one document (each a one-character
// replacement, its diagnostics published).
async function memory() {
  const s = start({ ASAN_OPTIONS: 'detect_leaks=0:quarantine_size_mb=0:malloc_context_size=0' });
  await initialize(s);
  const M = uriOf('mem.Dockerfile');
  const body = 'RUN apt-get update && apt-get install curl\nWROKDIR /srv\n'.repeat(20);
  let p = s.next(M);
  open(s, 'mem.Dockerfile', body, 'dockerfile');
  await p;
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${s.child.pid}/status`, 'utf8'))[1]);
  const edit = async (n, from) => {
    for (let i = from; i < from + n; i++) {
      const c = String.fromCharCode(97 + (i % 26));
      s.conn.sendNotification(proto.DidChangeTextDocumentNotification.type, {
        textDocument: { uri: M, version: i + 2 },
        contentChanges: [{ range: { start: { line: i % 40, character: 4 }, end: { line: i % 40, character: 5 } }, text: c }],
      });
      if (i % 50 === 49) await sleep(25); // let a publication through now and then
    }
    const last = from + n + 1;
    await s.next(M, (x) => x.version === last);
  };
  await edit(100, 0);
  const r100 = rss();
  await edit(9900, 100);
  const r10k = rss();
  const growth = (r10k - r100) / r100;
  console.log(`memory: RSS after 100 edits ${r100} KiB, after 10,000 edits ${r10k} KiB (${(growth * 100).toFixed(1)}%)`);
  check('memory: RSS after 10,000 edits within 10% of RSS after 100', growth <= 0.10, { r100, r10k });
  await s.conn.sendRequest(proto.ShutdownRequest.type);
  s.conn.sendNotification(proto.ExitNotification.type);
  await s.exited;
  s.conn.dispose();
}

try {
  await positions(null);
  await positions('utf-8');
  await positions('utf-32');
  await session();
  await memory();
} catch (e) {
  check('no exception', false, String(e && e.stack || e));
}
fs.rmSync(TMP, { recursive: true, force: true });
console.log(failures ? `FAILED: ${failures}` : 'OK');
process.exit(failures ? 1 : 0);

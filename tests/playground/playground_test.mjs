// The playground (playground/, assembled by the CMake target `playground`) in Debian's headless
// Chromium, driven by puppeteer-core (npm ci --prefix tests/playground), served by Python's
// http.server on 127.0.0.1. For each input kind (a template, a Dockerfile fragment, Python with
// SDK calls, a NetworkPolicy), the text is typed key by key into the editor and the page must
// show exactly the findings `boxlint --format json` gives for the same text in a file (rule,
// severity, line, column, end, message, hint), each underline covering exactly the text of
// the finding's range; "Fix all" must give what `boxlint --fix` writes, a finding's own fix
// button what `boxlint --fix` (--unsafe-fixes for an unsafe one) writes where that fix is the
// only one, and the findings must follow; a destination typed under a policy must show the
// decision `boxlint policy FILE --host H --ip A` prints; the page's URL opened in a new page
// must restore the kind, the text, the host and the same findings. Screenshots (PNG) go to the
// output directory. Nothing but 127.0.0.1 is reached (any other request is refused and fails
// the test). Exit 77 (skipped, with the reason) when Chromium, puppeteer-core or the page is
// missing.
//   node playground_test.mjs PAGE_DIR BOXLINT OUT_DIR
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cases } from './playground_cases.mjs';

const [pageDir, boxlint, outDir] = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
const chromium = process.env.BOXLINT_CHROMIUM || '/usr/bin/chromium';

function skip(why) {
  console.log(`SKIPPED: ${why}`);
  process.exit(77);
}
if (!pageDir || !boxlint || !outDir) {
  console.error('usage: node playground_test.mjs PAGE_DIR BOXLINT OUT_DIR');
  process.exit(2);
}
if (!fs.existsSync(path.join(pageDir, 'boxlint.wasm'))) {
  skip(`${pageDir}/boxlint.wasm is missing (no WebAssembly build: cmake --build . --target playground)`);
}
if (!fs.existsSync(chromium)) skip(`${chromium} is not installed (apt-get install chromium; make deps does)`);
let puppeteer;
try {
  puppeteer = createRequire(path.join(here, 'package.json'))('puppeteer-core');
} catch (e) {
  skip('puppeteer-core is not installed (npm ci --prefix tests/playground; make deps does)');
}
fs.mkdirSync(outDir, { recursive: true });

let checks = 0;
let failures = 0;
function check(ok, what, detail = '') {
  checks++;
  if (!ok) {
    failures++;
    console.log(`FAIL: ${what}${detail ? `\n  ${detail}` : ''}`);
  }
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
function checkSame(got, want, what) {
  check(same(got, want), what, `page:    ${JSON.stringify(got)}\n  command: ${JSON.stringify(want)}`);
}

/*==============================================================================================
 * The command's answers
 *============================================================================================*/

const work = path.join(outDir, 'files');
fs.mkdirSync(work, { recursive: true });

function run(args) {
  const r = spawnSync(boxlint, args, { encoding: 'utf-8', env: { ...process.env, NO_COLOR: '1' } });
  if (r.status !== 0 && r.status !== 1) throw new Error(`boxlint ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return r.stdout;
}

/* The command's findings for `text` in a file named `name`, as the page shows them. */
function nativeFindings(name, text) {
  const f = path.join(work, name);
  fs.writeFileSync(f, text);
  const doc = JSON.parse(run(['--format', 'json', f]));
  const bytes = Buffer.from(text, 'utf-8');
  return doc.files[0].diagnostics.map((d) => ({
    rule: d.rule, severity: d.severity, line: d.file ? d.file.line : '', column: d.file ? d.file.column : '',
    endLine: d.file ? d.file.end_line : '', endColumn: d.file ? d.file.end_column : '',
    message: d.message, hint: d.hint ? `hint: ${d.hint}` : '',
    underline: d.file ? bytes.subarray(d.file.offset, d.file.end_offset).toString('utf-8') : null,
  }));
}

/* What `boxlint --fix` (and --unsafe-fixes) writes for `text`. */
function nativeFixed(name, text, unsafe) {
  const f = path.join(work, name);
  fs.writeFileSync(f, text);
  spawnSync(boxlint, ['--fix', ...(unsafe ? ['--unsafe-fixes'] : []), f], { encoding: 'utf-8' });
  return fs.readFileSync(f, 'utf-8');
}

/* `boxlint policy FILE --host H --ip A`: the text's decision line and the JSON decision. */
function nativeDecision(name, text, dest) {
  const f = path.join(work, name);
  fs.writeFileSync(f, text);
  const args = ['policy', f];
  if (dest.host) args.push('--host', dest.host);
  if (dest.ip) args.push('--ip', dest.ip);
  const label = `${f}: `; // the command names the file before "no decisions"
  const line = run(args).split('\n').find((l) => l.startsWith('decision: ') || l.startsWith(`${label}no decisions`));
  const doc = JSON.parse(run([...args, '--format', 'json']));
  return { line: line && line.startsWith(label) ? line.slice(label.length) : line, json: doc.decisions[0] || null };
}

/*==============================================================================================
 * The page
 *============================================================================================*/

/* Python's http.server on an ephemeral port of 127.0.0.1, serving the page's folder. */
function serve() {
  const p = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', pageDir],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    p.stdout.on('data', (b) => {
      out += b;
      const m = out.match(/port (\d+)/);
      if (m) resolve({ proc: p, origin: `http://127.0.0.1:${m[1]}` });
    });
    p.on('exit', (code) => reject(new Error(`http.server exited (${code}): ${out}`)));
  });
}

const outside = [];
async function openPage(browser, url) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.setRequestInterception(true);
  const origin = new URL(url).origin;
  page.on('request', (req) => {
    const u = req.url();
    if (u.startsWith(`${origin}/`) || u.startsWith('data:')) req.continue();
    else {
      outside.push(u);
      req.abort();
    }
  });
  page.on('pageerror', (e) => check(false, `no error in the page: ${e.message}`));
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready, { timeout: 30000 });
  check(await page.evaluate(() => document.body.dataset.ready === 'true'), 'boxlint.wasm loads in the page');
  await settled(page);
  return page;
}

/* Wait until the last change is checked and its state is in the URL. */
async function settled(page) {
  await page.waitForFunction(() => document.body.dataset.seq && document.body.dataset.urlSeq === document.body.dataset.seq,
    { timeout: 30000 });
}

/* The findings as the page shows them, each with the text its underline covers. */
function pageFindings(page) {
  return page.evaluate(() => [...document.querySelectorAll('#findings > li')].map((li) => {
    const marks = [...document.querySelectorAll('#overlay [data-ids]')]
      .filter((e) => e.dataset.ids.split(' ').includes(li.dataset.i));
    let underline = null;
    if (marks.length) {
      const r = document.createRange(); // the DOM range from the first mark to the last
      r.setStartBefore(marks[0]);
      r.setEndAfter(marks[marks.length - 1]);
      underline = r.toString();
    }
    const num = (v) => (v === '' ? '' : Number(v));
    const hint = li.querySelector('.hint');
    return {
      rule: li.dataset.rule, severity: li.dataset.severity, line: num(li.dataset.line),
      column: num(li.dataset.column), endLine: num(li.dataset.endLine), endColumn: num(li.dataset.endColumn),
      message: li.querySelector('.message').textContent, hint: hint ? hint.textContent : '', underline,
    };
  }));
}

async function typeText(page, kind, text) {
  await page.select('#kind', kind);
  await page.click('#editor');
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.type('#editor', text);
  await settled(page);
  check(await page.$eval('#editor', (e) => e.value) === text, `${kind}: the editor holds the text typed`);
}

const editorText = (page) => page.$eval('#editor', (e) => e.value);

async function clickFix(page, rule) {
  const done = await page.evaluate((r) => {
    const li = [...document.querySelectorAll('#findings > li')].find((x) => x.dataset.rule === r && x.querySelector('button.fix'));
    if (!li) return false;
    li.querySelector('button.fix').click();
    return true;
  }, rule);
  await settled(page);
  return done;
}

/*==============================================================================================
 * The cases (playground_cases.mjs): each typed, compared, fixed, decided, reopened
 *============================================================================================*/

const shot = async (page, name) => {
  const f = path.join(outDir, `playground-${name}.png`);
  await page.screenshot({ path: f, fullPage: true });
  console.log(`screenshot: ${f}`);
};

async function checkFindings(page, c, text, when) {
  const want = nativeFindings(c.file, text);
  checkSame(await pageFindings(page), want, `${c.name}${when}: the findings of boxlint --format json`);
  return want;
}

async function checkDecisions(page, c, text) {
  for (const typed of c.hosts || []) {
    await page.click('#host', { clickCount: 3 });
    await page.keyboard.press('Backspace');
    await page.type('#host', typed);
    await settled(page);
    const words = typed.split(' ');
    const dest = words.length === 2 ? { host: words[0], ip: words[1] }
      : /^\d+(\.\d+){3}$/.test(typed) || typed.includes(':') ? { ip: typed } : { host: typed };
    const want = nativeDecision(c.file, text, dest);
    const got = await page.$eval('#decision', (e) => ({ text: e.textContent, ...e.dataset }));
    checkSame(got.text, want.line, `${c.name}: the decision for '${typed}' as boxlint policy prints it`);
    if (want.json) {
      const j = want.json;
      checkSame([got.verdict, got.reason, got.list, got.index, got.entry],
        [j.verdict, j.reason, j.list || '', j.index === null ? '' : String(j.index), j.entry || ''],
        `${c.name}: the decision for '${typed}' as boxlint policy --format json gives it`);
    }
  }
}

/* The page's URL in a new page: the same kind, text, host and findings. */
async function checkReopened(browser, page, c) {
  const url = page.url();
  check(url.includes('#z') || url.includes('#b'), `${c.name}: the state is in the URL's fragment`, url);
  const state = (p) => p.evaluate(() => ({
    kind: document.getElementById('kind').value, text: document.getElementById('editor').value,
    host: document.getElementById('host').value, decision: document.getElementById('decision').textContent,
    findings: document.getElementById('findings').innerHTML, overlay: document.getElementById('overlay').innerHTML,
  }));
  const before = await state(page);
  const again = await openPage(browser, url);
  const after = await state(again);
  checkSame(after, before, `${c.name}: the link restores the kind, the text, the host, the findings and the underlines`);
  check(before.findings.length > 0 || c.clean, `${c.name}: the restored page has findings to compare`);
  await again.close();
}

/* A text the command cannot check: the page says where and why as the command does. */
async function checkProblem(page, c, p) {
  await typeText(page, c.kind, p.text);
  const f = path.join(work, c.file);
  fs.writeFileSync(f, p.text);
  const r = spawnSync(boxlint, [f], { encoding: 'utf-8' });
  const line = r.stderr.split('\n').find((l) => l.startsWith(`boxlint: ${f}:`)) || r.stderr;
  check(r.status === 2, `${c.name}: the command cannot check ${JSON.stringify(p.text)} (exit 2)`, String(r.status));
  const got = await page.evaluate(() => {
    const e = document.querySelector('#problem .text');
    return document.getElementById('problem').hidden || !e ? null : e.textContent;
  });
  checkSame(got, line.slice(`boxlint: ${f}:`.length), `${c.name}: the problem of ${JSON.stringify(p.text)} as the command says it`);
  checkSame(await page.$eval('#findings', (e) => e.children.length), 0, `${c.name}: no findings listed with a problem`);
}

async function runCase(browser, page, c) {
  await typeText(page, c.kind, c.text);
  const readAs = await page.$eval('#read-as', (e) => e.textContent);
  checkSame(readAs, `read as ${c.readAs}`, `${c.name}: read as ${c.readAs}`);
  const want = await checkFindings(page, c, c.text, '');
  check(want.length >= c.minFindings, `${c.name}: the case has at least ${c.minFindings} findings`, String(want.length));
  await page.select('#kind', 'auto');
  await settled(page);
  checkSame(await page.$eval('#read-as', (e) => e.textContent), `read as ${c.readAs}`, `${c.name}: detected as ${c.readAs}`);
  await checkFindings(page, c, c.text, ' (detected)');
  await page.select('#kind', c.kind);
  await settled(page);
  await checkDecisions(page, c, c.text);
  await shot(page, c.name);
  await checkReopened(browser, page, c);
  if (c.fixAll) {
    await page.click('#fix-all');
    await settled(page);
    const fixed = await editorText(page);
    checkSame(fixed, nativeFixed(c.file, c.text, false), `${c.name}: "Fix all" gives what boxlint --fix writes`);
    check(fixed !== c.text, `${c.name}: "Fix all" changed the text`);
    await checkFindings(page, c, fixed, ' after "Fix all"');
    await shot(page, `${c.name}-fixed`);
  }
  for (const p of c.problems || []) await checkProblem(page, c, p);
  for (const b of c.broken || []) {
    await typeText(page, c.kind, b.text);
    const want = await checkFindings(page, c, b.text, ` (${JSON.stringify(b.text)})`);
    const got = want.map((d) => `${d.rule}@${d.line}`).join(' ');
    checkSame(got, b.rule ? `${b.rule}@${b.line}` : '', `${c.name}: ${JSON.stringify(b.text)} is one finding as the command says it`);
  }
  for (const one of c.ones || []) {
    await typeText(page, c.kind, one.text);
    await checkFindings(page, c, one.text, ' (one fix)');
    check(await clickFix(page, one.rule), `${c.name}: a fix button on the ${one.rule} finding`);
    const fixed = await editorText(page);
    checkSame(fixed, nativeFixed(c.file, one.text, one.unsafe),
      `${c.name}: the ${one.rule} fix button gives what boxlint --fix${one.unsafe ? ' --unsafe-fixes' : ''} writes`);
    check(fixed !== one.text, `${c.name}: the ${one.rule} fix button changed the text`);
    await checkFindings(page, c, fixed, ` after the ${one.rule} fix button`);
  }
}

const server = await serve();
let browser;
try {
  browser = await puppeteer.launch({
    executablePath: chromium, headless: true,
    // Root needs --no-sandbox; nothing but 127.0.0.1 resolves, and nothing is fetched in the
    // background (updates, sync, field trials).
    args: [...(process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : []), '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-field-trial-config', '--no-proxy-server', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
  const page = await openPage(browser, `${server.origin}/index.html`);
  for (const c of cases) await runCase(browser, page, c);
} finally {
  if (browser) await browser.close();
  server.proc.kill();
}
check(outside.length === 0, 'nothing but 127.0.0.1 is requested', outside.join(' '));
console.log(`playground: ${checks - failures} of ${checks} checks passed`);
process.exit(failures ? 1 : 0);

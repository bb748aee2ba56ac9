#!/usr/bin/env bash
# npm: the npm package carries the library. `npm pack` in bindings/node builds libboxlint and
# the command (prepack: scripts/prebuild.js, the project's CMake) into
# prebuilds/linux-x64-glibc/, self-contained (BOXLINT_STATIC_DEPS: only the C library, checked
# against the manylinux policy table as the wheel is); the tarball is installed into an empty
# project and used there with no environment variable: require('boxlint') on the Quick Start
# file, `npx boxlint` compared with the command (outputs and exit codes), the TypeScript types
# under tsc --strict, and what another platform gets (simulated: the prebuilds renamed): the
# WebAssembly library with the same findings (and the same Config, options and checkFile), and
# `npx boxlint` running the WebAssembly command
# (wasm/boxlint-cli.wasm under node:wasi) with byte for byte the output and exit code the
# prebuilt command gave on the same cases (formats, a tree, user rules and secrets, policies
# emitted, standard input, a bad flag, unreadable files, the language server), then, with no
# WebAssembly build either, a clear error.
#   usage: npm_test.sh SOURCE_DIR BOXLINT_CLI VERSION      (exit 77: no node or npm)
set -uo pipefail
source=$1 cli=$2 version=$3
me=npm
. "$(dirname "$0")/install_checks.sh"
. "$(dirname "$0")/manylinux_policy.sh"
for t in node npm; do
  command -v $t >/dev/null || { echo "SKIPPED: $t is not installed (make deps installs it)"; exit 77; }
done
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
unset BOXLINT_LIBRARY
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

if (cd "$source/bindings/node" && BOXLINT_NPM_BUILD_DIR=$tmp/cmake npm pack --pack-destination "$tmp") \
     >"$tmp/pack.log" 2>&1; then
  ok "npm pack: $(cd "$tmp" && ls ./*.tgz)"
else
  tail -n 30 "$tmp/pack.log"; bad "npm pack failed"; exit 1
fi
tgz=$tmp/boxlint-$version.tgz
[ -f "$tgz" ] && ok "the tarball is boxlint-$version.tgz" || { bad "no boxlint-$version.tgz"; exit 1; }
tar -tzf "$tgz" >"$tmp/list"
for f in package/prebuilds/linux-x64-glibc/libboxlint.so.0 package/prebuilds/linux-x64-glibc/boxlint \
         package/index.d.ts package/bin/boxlint.js package/platform.js; do
  grep -qx "$f" "$tmp/list" && ok "the tarball holds ${f#package/}" || bad "the tarball lacks ${f#package/}"
done

# The prebuilds are the wheel's self-contained build: only the C library, checked against the
# manylinux policy table as the wheel is (manylinux_policy.sh): any glibc as new as that tag's.
mkdir -p "$tmp/unpacked" && tar -xzf "$tgz" -C "$tmp/unpacked"
elfs=("$tmp/unpacked/package/prebuilds/linux-x64-glibc/libboxlint.so.0"
      "$tmp/unpacked/package/prebuilds/linux-x64-glibc/boxlint")
lowest=$(manylinux_lowest "${elfs[@]}")
if [ -n "$lowest" ] && manylinux_meets "$lowest" "${elfs[@]}"; then
  ok "the prebuilds meet $lowest's policy, as the wheel's files do"
else
  bad "the prebuilds meet no manylinux policy of the table (a shared library beyond the C library?)"
fi
for lib in libjansson libpcre2 libidn2 libunistring; do
  if readelf -d -W "${elfs[@]}" | grep -q "NEEDED.*\[$lib"; then bad "the prebuilds need $lib"
  else ok "no prebuild needs $lib (linked in statically)"; fi
done

proj=$tmp/project
mkdir -p "$proj" && cd "$proj" && npm init -y >/dev/null
if npm install "$tgz" typescript@5 --no-save >"$tmp/install.log" 2>&1; then
  ok "npm install ./boxlint-$version.tgz into an empty project"
else
  tail -n 20 "$tmp/install.log"; bad "npm install"; exit 1
fi
out=$(node -e '
const fs = require("fs");
const b = require("boxlint");
const maps = fs.readFileSync("/proc/self/maps", "utf8").split("\n").filter((l) => l.includes("libboxlint"));
console.log("library", maps.length ? maps[0].split(/\s+/).pop() : "(not mapped)");
console.log("version", b.version, require("boxlint/package.json").version);
const r = b.checkPython(fs.readFileSync(process.argv[1], "utf8"));
for (const d of r.diagnostics) console.log("finding", d.rule, d.line, d.column);
' "$source/examples/quickstart.py" 2>&1)
quick_start "$out" "$version" "$proj/node_modules/boxlint/prebuilds/linux-x64-glibc/libboxlint.so.0$" \
  "require('boxlint')"

same_as_command "$source" "$cli" "$tmp" "npx boxlint" "$proj/node_modules/.bin/boxlint"

# The cases `npx boxlint` runs with the prebuilt command and then with the WebAssembly one, in
# a directory of their own: each line is "STDIN-FILE|ARGUMENTS" (- for no input). A config with
# a user rule, a template with secrets, a tree with a .gitignore, policies, unreadable files.
fx=$proj/cases # inside the project, where npx finds the package it installed
mkdir -p "$fx/tree/sub" "$fx/tree/.git"
cp "$source/examples/bad-template.json" "$source/examples/template.json" "$source/examples/quickstart.py" \
   "$source/examples/quickstart-policy.json" "$fx/"
cp "$source/examples/bad-template.json" "$source/examples/quickstart.py" "$fx/tree/"
cp "$source/tests/data/fragment.Dockerfile" "$fx/tree/sub/"
printf 'ignored.json\n' >"$fx/tree/.gitignore"
cp "$source/examples/bad-template.json" "$fx/tree/ignored.json"
cat >"$fx/.boxlint.json" <<'JSON'
{"user_rules": [{"id": "no-latest", "severity": "warning", "instruction": "FROM",
                 "pattern": ":latest\\b", "message": "pin image versions"}]}
JSON
cat >"$fx/secret.json" <<'JSON'
{"name": "s", "commands": ["FROM python:latest",
  "RUN curl -H \"Authorization: token ghp_0123456789abcdefghijABCDEFGHIJ012345\" https://x.example",
  "ENV API_TOKEN=s3cr3tvalue"]}
JSON
echo '{"type": "filtered", "allow_out": ["pypi.org", "*.pythonhosted.org"], "deny_out": ["ALL_TRAFFIC"]}' >"$fx/pol.json"
ln -s loop-b "$fx/loop-a.json" && ln -s loop-a.json "$fx/loop-b"
# symbolic links resolved as the native command resolves them (realpath: wasm/cli/wasi_cli.c)
# (other/'s config differs from the one above it: which one applies to a link shows)
mkdir -p "$fx/other" && sed 's/"warning"/"error"/' "$fx/.boxlint.json" >"$fx/other/.boxlint.json"
ln -s ../secret.json "$fx/other/via-link.json"
ln -s tree "$fx/tree-link" && ln -s ../tree/sub "$fx/other/sub-link"
cp "$fx/bad-template.json" "$fx/locked.json" && chmod 000 "$fx/locked.json"
node -e '
const m = (o) => { const s = JSON.stringify(o); return `Content-Length: ${Buffer.byteLength(s)}\r\n\r\n${s}`; };
process.stdout.write([
  m({ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } }),
  m({ jsonrpc: "2.0", method: "initialized", params: {} }),
  m({ jsonrpc: "2.0", method: "textDocument/didOpen", params: { textDocument: { uri: "file:///x/t.json",
    languageId: "json", version: 1, text: "{\"name\": \"t\", \"commands\": [\"pip install y\"]}" } } }),
  m({ jsonrpc: "2.0", id: 2, method: "shutdown" }), m({ jsonrpc: "2.0", method: "exit" })].join(""));' >"$fx/lsp.in"
cases=(
  "-|bad-template.json"
  "-|template.json quickstart.py"
  "-|--format json bad-template.json quickstart.py"
  "-|--format sarif secret.json bad-template.json"
  "-|--format github secret.json"
  "-|tree"
  "-|--format json tree"
  "-|$fx/tree/sub/fragment.Dockerfile"
  "-|other/via-link.json tree-link other/sub-link/ tree/../tree/sub/./fragment.Dockerfile"
  "-|--format json other"
  "-|policy pol.json --emit nftables --resolver 192.0.2.53 --proxy-user proxy"
  "-|policy pol.json --emit nftables"
  "-|policy pol.json --emit dnsmasq --resolver 192.0.2.53"
  "-|policy pol.json --emit nginx --proxy-user proxy --resolver 192.0.2.53"
  "-|policy quickstart-policy.json --emit nftables"
  "-|policy quickstart-policy.json --host pypi.org --ip 151.101.0.223 --format json"
  "-|policy quickstart.py --format json"
  "bad-template.json|-"
  "tree/sub/fragment.Dockerfile|--stdin-filename x.Dockerfile --format sarif -"
  "-|--no-such-flag x"
  "-|--format yaml bad-template.json"
  "-|missing.json"
  "-|loop-a.json"
  "-|locked.json template.json"
  "-|--diff bad-template.json"
  "-|rules"
  "-|explain secret-in-command"
  "-|--version"
  "lsp.in|lsp"
)
# run_cases DIR: each case's stdout, stderr and exit code in DIR/N.{out,err,rc}. As root, the
# cases run as nobody (setpriv), so that locked.json is unreadable as it is for a user.
as_user=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  chmod 755 "$tmp"
  mkdir -m 777 "$tmp/npm-cache" && export npm_config_cache=$tmp/npm-cache
  chmod -R a+rX "$proj" "$fx" && chmod 000 "$fx/locked.json"
fi
run_cases() {
  local out=$1 i=0 c in args
  mkdir -p "$out" && chmod 777 "$out"
  for c in "${cases[@]}"; do
    in=${c%%|*} args=${c#*|}
    [ "$in" = - ] && in=/dev/null
    (cd "$fx" && "${as_user[@]}" npx --offline --no-install boxlint $args <"$in" >"$out/$i.out" 2>"$out/$i.err"; echo $? >"$out/$i.rc")
    i=$((i + 1))
  done
}
run_cases "$tmp/native-cli"

cat >client.ts <<'TS'
import * as boxlint from 'boxlint';
const r = boxlint.checkCommands(['RUN true']);
const n: number = r.diagnostics.length;
const rule: string | undefined = r.diagnostics[0]?.rule;
const wrong: number = boxlint.checkCommands(['RUN true']); // must be reported
console.log(n, rule, wrong);
TS
npx tsc --strict --noEmit --target es2020 --esModuleInterop --moduleResolution node client.ts >"$tmp/tsc.txt" 2>&1
if grep -q "client.ts(5,7): error TS2322" "$tmp/tsc.txt" && [ "$(grep -c 'error TS' "$tmp/tsc.txt")" = 1 ]; then
  ok "tsc --strict uses the package's types: one error, the deliberate one on line 5"
else
  cat "$tmp/tsc.txt"; bad "TypeScript types"
fi

# another platform: the package carries only what it was packed on
mv node_modules/boxlint/prebuilds/linux-x64-glibc node_modules/boxlint/prebuilds/darwin-arm64
# there, the WebAssembly build the package carries (when it was packed with the toolchain)
# answers instead, with the same findings as the native library had
if [ -f node_modules/boxlint/wasm/boxlint.wasm ]; then
  probe='const b=require("boxlint"); const r=b.checkTemplate({name:"x",commands:["pip install y","COPY a b","RUN pip install z"],cpu_count:2,memory_mb:4096}); console.log(b.backend, JSON.stringify(r.diagnostics.map(d=>[d.rule,d.severity,d.line,d.column,d.message])))'
  mv node_modules/boxlint/prebuilds/darwin-arm64 node_modules/boxlint/prebuilds/linux-x64-glibc
  node -e "$probe" >"$tmp/native.out" 2>&1
  mv node_modules/boxlint/prebuilds/linux-x64-glibc node_modules/boxlint/prebuilds/darwin-arm64
  node -e "$probe" >"$tmp/wasm.out" 2>&1
  if grep -q '^native ' "$tmp/native.out" && grep -q '^wasm ' "$tmp/wasm.out" &&
     [ "$(cut -d' ' -f2- "$tmp/native.out")" = "$(cut -d' ' -f2- "$tmp/wasm.out")" ]; then
    ok "without prebuilds for this platform: the WebAssembly build, the same findings ($(cut -c1-120 "$tmp/wasm.out"))"
  else
    cat "$tmp/native.out" "$tmp/wasm.out"; bad "the WebAssembly fallback"
  fi
  # the settings there too: a Config (severities changed, a rule off, user rules, one of them
  # hitting regex-limit; a refused pattern's ConfigError), each option of the checks and of
  # NetworkPolicy, and checkFile (the WebAssembly command under node:wasi, a file and a text,
  # with and without a config file): the same answers as with the prebuilds
  cat >settings_probe.js <<'JS'
const b = require('boxlint');
const fs = require('fs');
fs.writeFileSync('probe.e2b.Dockerfile', 'FROM python:latest\nRUN sudo apt-get install curl\n');
fs.writeFileSync('probe-config.json', JSON.stringify({ rules: { 'sudo-usage': 'off' } }));
const out = [];
const d = (r) => r.diagnostics.map((x) => [x.rule, x.severity, x.line, x.column, x.message]);
const c = new b.Config({
  severities: { 'apt-get-missing-yes': 'off', 'sudo-usage': 'error', 'pip-no-cache-dir': 'info' },
  userRules: [{ id: 'no-latest', instruction: 'FROM', pattern: ':latest\\b', message: 'pin it' },
    { id: 'label-words', instruction: 'LABEL', pattern: '^LABEL (\\w+\\s?)*$', message: 'words' }],
});
out.push(c.severity('sudo-usage'), c.severity('apt-get-missing-yes'), c.userRuleIds);
const cmds = ['RUN sudo apt-get install curl', `LABEL ${'a'.repeat(40)}!`, 'RUN pip install x', 'RUN echo `x`'];
out.push(d(b.checkCommands(cmds, { config: c })));
out.push(d(b.checkCommands(cmds, { options: { maxCommands: 2, maxCommandBytes: 20, escape: '`' } })));
out.push(d(b.checkTemplate({ name: 'x', commands: cmds, cpu_count: 8, memory_mb: 64 },
  { config: c, options: { cpuMax: 4, memoryMin: 128 } })));
out.push(d(b.checkFragment('FROM python:latest\nRUN sudo x\n', { config: c })));
const py = 'from budai import NetworkPolicy\nNetworkPolicy(type="filtered", allow_out=["10.0.0.0/8", "10.1.0.0/16"])\n';
out.push(d(b.checkPython(py, { compat: 'e2b', unmatched: 'deny', maxEntries: 1 })));
const p = new b.NetworkPolicy({ type: 'filtered', allow_out: ['10.0.0.0/8', '10.0.0.0/8'] },
  { unmatched: 'deny', config: new b.Config({ severities: { 'duplicate-entry': 'info' } }) });
out.push(d(p), p.unmatched, p.decide({ ip: '192.0.2.1' }));
for (const bad of [{ userRules: [{ id: 'x', pattern: '(' }] }, { severities: { 'no-such-rule': 'off' } }]) {
  try { new b.Config(bad); } catch (e) { out.push([e.name, e.message, e.offset, e.status]); }
}
const f = (r) => [r.path, r.checked, r.ok, r.diagnostics.map((x) => [x.rule, x.severity, x.line, x.column])];
out.push(f(b.checkFile('probe.e2b.Dockerfile')));
out.push(f(b.checkFile('probe.e2b.Dockerfile', { config: 'probe-config.json' })));
out.push(f(b.checkFile('other.e2b.Dockerfile', { text: 'RUN sudo y\n' })));
try { b.checkFile('no-such-file.json'); } catch (e) { out.push([e.name, e.message]); }
console.log(b.backend, JSON.stringify(out));
JS
  mv node_modules/boxlint/prebuilds/darwin-arm64 node_modules/boxlint/prebuilds/linux-x64-glibc
  node settings_probe.js >"$tmp/native-settings.out" 2>&1
  mv node_modules/boxlint/prebuilds/linux-x64-glibc node_modules/boxlint/prebuilds/darwin-arm64
  node settings_probe.js >"$tmp/wasm-settings.out" 2>&1
  if grep -q '^native ' "$tmp/native-settings.out" && grep -q '^wasm ' "$tmp/wasm-settings.out" &&
     [ "$(cut -d' ' -f2- "$tmp/native-settings.out")" = "$(cut -d' ' -f2- "$tmp/wasm-settings.out")" ]; then
    ok "without prebuilds: Config, the checks' options and checkFile answer as with them ($(wc -c <"$tmp/wasm-settings.out") bytes: $(cut -c1-100 "$tmp/wasm-settings.out")...)"
  else
    cat "$tmp/native-settings.out" "$tmp/wasm-settings.out"; bad "Config, options or checkFile on the WebAssembly backend"
  fi
  # `npx boxlint` there: the WebAssembly command, the same bytes and exit code on every case
  if [ -f node_modules/boxlint/wasm/boxlint-cli.wasm ]; then
    run_cases "$tmp/wasm-cli"
    same=0 i=0 rcs=""
    for c in "${cases[@]}"; do
      # The program's name, where it appears, is the only thing allowed to differ.
      sed -i "s#$proj/node_modules/boxlint/prebuilds/linux-x64-glibc/boxlint#boxlint#g" \
        "$tmp/native-cli/$i.out" "$tmp/native-cli/$i.err"
      if cmp -s "$tmp/native-cli/$i.out" "$tmp/wasm-cli/$i.out" && cmp -s "$tmp/native-cli/$i.err" "$tmp/wasm-cli/$i.err" &&
         cmp -s "$tmp/native-cli/$i.rc" "$tmp/wasm-cli/$i.rc"; then
        same=$((same + 1))
      else
        bad "npx boxlint ${c#*|} (stdin ${c%%|*}) without prebuilds: exit $(cat "$tmp/wasm-cli/$i.rc") vs $(cat "$tmp/native-cli/$i.rc")"
        diff "$tmp/native-cli/$i.out" "$tmp/wasm-cli/$i.out" | head -n 10
        diff "$tmp/native-cli/$i.err" "$tmp/wasm-cli/$i.err" | head -n 10
      fi
      rcs="$rcs$(cat "$tmp/native-cli/$i.rc")"
      i=$((i + 1))
    done
    bytes=$(cat "$tmp"/wasm-cli/*.out "$tmp"/wasm-cli/*.err | wc -c)
    [ $same = ${#cases[@]} ] && ok "npx boxlint without prebuilds (the WebAssembly command): $same of ${#cases[@]} cases byte-identical to the prebuilt command's (stdout, stderr, exit code; $bytes bytes; exit codes $rcs)"
    # what the cases must have seen, so that a comparison of two empty outputs cannot pass
    case_out() { local i=0 c; for c in "${cases[@]}"; do [ "$c" = "$1" ] && break; i=$((i + 1)); done
                 echo "$tmp/wasm-cli/$i"; }
    sarif=$(case_out "-|--format sarif secret.json bad-template.json") loop=$(case_out "-|loop-a.json")
    locked=$(case_out "-|locked.json template.json") lsp=$(case_out "lsp.in|lsp")
    grep -q 'no-latest' "$sarif.out" && grep -q 'secret-in-command' "$sarif.out" \
      && ok "the WebAssembly command reports the user rule and the secret pattern (PCRE2 from Debian's source)" \
      || bad "the WebAssembly command's SARIF lacks no-latest or secret-in-command"
    grep -q 'Permission denied' "$locked.err" && [ "$(cat "$locked.rc")" = 2 ] \
      && ok "an unreadable file: $(head -n 1 "$locked.err"), exit 2" \
      || echo "NOTE: locked.json was readable (run as root without setpriv): $(head -c 200 "$locked.err")"
    grep -q 'Too many levels of symbolic links' "$loop.err" \
      && ok "a symbolic-link loop: glibc's words in the WebAssembly command too ($(cat "$loop.err"))" \
      || bad "the symbolic-link loop's message: $(cat "$loop.err")"
    grep -q 'publishDiagnostics' "$lsp.out" && ok "boxlint lsp over standard input and output in the WebAssembly command" \
      || bad "boxlint lsp in the WebAssembly command"
    # --fix: the WebAssembly command writes no file; it says so, exit 2, the file unchanged
    cp "$fx/bad-template.json" "$fx/fixme.json"
    (cd "$fx" && npx --offline --no-install boxlint --fix fixme.json) >"$tmp/fix.out" 2>"$tmp/fix.err"; rc=$?
    if [ $rc = 2 ] && cmp -s "$fx/fixme.json" "$fx/bad-template.json" &&
       grep -qx "boxlint: fixme.json: not fixed: the WebAssembly build of boxlint writes no files (WASI has no owners, modes or signals to keep them safe); use --diff, or the native command; the file is unchanged" "$tmp/fix.err"; then
      ok "npx boxlint --fix without prebuilds: exit 2, the file unchanged, $(head -n 1 "$tmp/fix.err" | cut -c1-90)..."
    else
      cat "$tmp/fix.err"; bad "npx boxlint --fix without prebuilds: exit $rc"
    fi
    # BOXLINT_BACKEND=wasm chooses the WebAssembly command where the prebuild is there too
    mv node_modules/boxlint/prebuilds/darwin-arm64 node_modules/boxlint/prebuilds/linux-x64-glibc
    (cd "$fx" && BOXLINT_BACKEND=wasm npx --offline --no-install boxlint --fix fixme.json) >/dev/null 2>"$tmp/fix.err"; rc=$?
    [ $rc = 2 ] && grep -q "WebAssembly build of boxlint writes no files" "$tmp/fix.err" \
      && ok "BOXLINT_BACKEND=wasm: the WebAssembly command although the prebuild fits (exit 2 on --fix)" \
      || { cat "$tmp/fix.err"; bad "BOXLINT_BACKEND=wasm npx boxlint: exit $rc"; }
    mv node_modules/boxlint/prebuilds/linux-x64-glibc node_modules/boxlint/prebuilds/darwin-arm64
  else
    bad "the package carries wasm/boxlint.wasm but no wasm/boxlint-cli.wasm (no jansson source? tools/wasm-sources.sh)"
  fi
  mv node_modules/boxlint/wasm node_modules/boxlint/wasm.hidden
else
  echo "NOTE: the package carries no wasm/boxlint.wasm (packed without the WebAssembly toolchain): fallback not tested"
fi
node -e 'require("boxlint")' >"$tmp/o.out" 2>"$tmp/o.err"; rc=$?
if [ $rc != 0 ] && [ $rc -lt 128 ] && grep -q "no libboxlint for linux-x64-glibc: this package carries prebuilt binaries for darwin-arm64" "$tmp/o.err"; then
  ok "without prebuilds for this platform: a clear error (exit $rc): $(grep -o '^Error: boxlint: no libboxlint[^(]*' "$tmp/o.err" | head -n 1)"
else
  cat "$tmp/o.err"; bad "require on another platform: exit $rc"
fi
"$proj/node_modules/.bin/boxlint" x.json >"$tmp/o.out" 2>"$tmp/o.err"; rc=$?
[ $rc = 2 ] && grep -q "no boxlint command for linux-x64-glibc (it carries: darwin-arm64)" "$tmp/o.err" \
  && ok "npx boxlint there: exit 2, $(cat "$tmp/o.err")" || { cat "$tmp/o.err"; bad "npx boxlint on another platform: exit $rc"; }
finish

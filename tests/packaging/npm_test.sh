#!/usr/bin/env bash
# npm: the npm package carries the library. `npm pack` in bindings/node builds libboxlint and
# the command (prepack: scripts/prebuild.js, the project's CMake) into
# prebuilds/linux-x64-glibc/, self-contained (BOXLINT_STATIC_DEPS: only the C library, checked
# against the manylinux policy table as the wheel is); the tarball is installed into an empty
# project and used there with no environment variable: require('boxlint') on the Quick Start
# file, `npx boxlint` compared with the command (outputs and exit codes), the TypeScript types
# under tsc --strict, and the error another platform gets (simulated: the prebuilds renamed).
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

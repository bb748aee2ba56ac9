#!/usr/bin/env bash
# minroot: the wheel and the npm package run where libjansson, libpcre2, libidn2 and
# libunistring are absent. The set-up (tools/minroot.sh, run by make test before ctest) made a
# minimal Debian root (debootstrap --variant=minbase, the host's release) with python3 and nodejs
# and nothing else, kept as ROOT_DIR/root.tar: this test uses no network. minbase itself carries
# libpcre2-8-0 (grep's pre-dependency) and libidn2-0 and libunistring2 (apt's TLS library,
# libgnutls30), so those packages are purged here with dpkg, dependencies forced: neither python3
# nor node needs them, which the test shows by running both there. It checks that no file of the
# four libraries is left in the root, installs the wheel (pip --target, from outside, into the
# root python3's /usr/local site directory: the root has no pip) and the npm package (npm
# --prefix, from outside: no npm there either), and runs both inside with chroot: the library's
# API on the Quick Start file, `python -m boxlint` and `npx boxlint` (node bin/boxlint.js)
# against the command built here, output and exit code, and ldd in the root on what each package
# carries.
#   usage: minroot_test.sh SOURCE_DIR BOXLINT_CLI VERSION ROOT_DIR
#   exit 77 (SKIPPED, with the reason): not root, no chroot/pip/npm, or no root.tar in ROOT_DIR
#   (ROOT_DIR/skip-reason says why the set-up made none).
set -uo pipefail
source=$1 cli=$2 version=$3 rootdir=${4:-}
me=minroot
. "$(dirname "$0")/install_checks.sh"
skip() { echo "SKIPPED: $me: $*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "chroot needs root (make test runs as root on the project's machines)"
for t in chroot dpkg tar; do
  command -v $t >/dev/null || skip "$t is not installed"
done
py=/usr/bin/python3
$py -m pip --version >/dev/null 2>&1 || skip "Debian's python3-pip is missing (make deps installs it)"
command -v npm >/dev/null || skip "npm is missing (make deps installs it)"
[ -n "$rootdir" ] || skip "no minimal root was prepared: run the tests with make test, whose set-up (tools/minroot.sh) makes it"
if [ ! -s "$rootdir/root.tar" ]; then
  [ -s "$rootdir/skip-reason" ] && skip "the set-up made no minimal root: $(cat "$rootdir/skip-reason")"
  skip "no $rootdir/root.tar: run tools/minroot.sh $rootdir (make test does)"
fi

tmp=$(mktemp -d) && root=$tmp/root
trap 'rm -rf "$tmp"' EXIT
unset BOXLINT_LIBRARY

# ---- the root: minbase, python3, nodejs, as the set-up made it ------------------------------------
mkdir -p "$root" && tar -C "$root" -xf "$rootdir/root.tar" \
  && ok "the minimal root ($(cat "$root/.boxlint-minroot" 2>/dev/null)): debootstrap --variant=minbase --include=python3,nodejs" \
  || { bad "could not unpack $rootdir/root.tar"; finish; }
present=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Package} ${Status}\n' \
            'libjansson*' 'libpcre2*' 'libidn2*' 'libunistring*' 2>/dev/null | awk '/ installed$/ {print $1}')
echo "$me: minbase's own packages of the four libraries:" $present
if [ -n "$present" ]; then
  # shellcheck disable=SC2086
  if dpkg --root="$root" --purge --force-depends --force-remove-essential $present >"$tmp/purge.log" 2>&1; then
    ok "purged from the root:" $present
  else
    cat "$tmp/purge.log"; bad "dpkg --purge in the root"
  fi
fi
rm -f "$root"/var/cache/apt/archives/*.deb   # debootstrap's downloads: not installed files
left=$(find "$root" -xdev \( -name 'libjansson*' -o -name 'libpcre2*' -o -name 'libidn2*' \
         -o -name 'libunistring*' \) -print | sed "s|^$root||")
[ -z "$left" ] && ok "no file of libjansson, libpcre2, libidn2 or libunistring in the root" \
  || bad "files of the four libraries left in the root: $left"
# No /proc is mounted in the root: python3, node and the packages run without it, and a test
# killed half-way leaves no mount behind.
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
in_root python3 -c 'import sys; print("python", sys.version.split()[0])' >"$tmp/py.txt" 2>&1 \
  && ok "python3 runs in the root: $(cat "$tmp/py.txt")" || { cat "$tmp/py.txt"; bad "python3 in the root"; }
in_root node -e 'console.log("node", process.version)' >"$tmp/node.txt" 2>&1 \
  && ok "node runs in the root: $(cat "$tmp/node.txt")" || { cat "$tmp/node.txt"; bad "node in the root"; }

# ---- the packages, built as users get them ----------------------------------------------------
if BOXLINT_WHEEL_BUILD_DIR=$tmp/cmake-wheel $py -m pip wheel --no-build-isolation --no-deps --no-index \
     -w "$tmp/dist" "$source/bindings/python" >"$tmp/wheel.log" 2>&1; then
  whl=$(ls "$tmp"/dist/boxlint-*.whl) && ok "pip wheel: $(basename "$whl")"
else
  tail -n 30 "$tmp/wheel.log"; bad "pip wheel failed"; finish
fi
# Where the root's python3 looks for packages of the local administrator (/usr/local/lib/...).
site=$(in_root python3 -c 'import site; print([p for p in site.getsitepackages() if p.startswith("/usr/local/")][0])')
if [ -n "$site" ] && $py -m pip install --no-index --no-deps --target "$root$site" "$whl" >"$tmp/pipi.log" 2>&1; then
  ok "pip install --target ROOT$site $(basename "$whl")"
else
  cat "$tmp/pipi.log"; bad "pip install into the root"; finish
fi
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
if (cd "$source/bindings/node" && BOXLINT_NPM_BUILD_DIR=$tmp/cmake-npm npm pack --pack-destination "$tmp") \
     >"$tmp/pack.log" 2>&1; then
  ok "npm pack: boxlint-$version.tgz"
else
  tail -n 30 "$tmp/pack.log"; bad "npm pack failed"; finish
fi
mkdir -p "$root/opt/app" && echo '{"name":"app","version":"1.0.0","private":true}' >"$root/opt/app/package.json"
if npm install --prefix "$root/opt/app" "$tmp/boxlint-$version.tgz" >"$tmp/npmi.log" 2>&1; then
  ok "npm install --prefix ROOT/opt/app boxlint-$version.tgz"
else
  tail -n 20 "$tmp/npmi.log"; bad "npm install into the root"; finish
fi

# ---- used inside the root -----------------------------------------------------------------------
mkdir -p "$root/w/examples" && cp "$source"/examples/*.json "$source"/examples/*.py "$root/w/examples/"
pkgdir=$site/boxlint
[ -f "$root$pkgdir/libboxlint.so.0" ] && ok "the wheel is in the root at $pkgdir" || bad "the wheel's package is not at $pkgdir"
for f in "$pkgdir/libboxlint.so.0" "$pkgdir/bin/boxlint" \
         /opt/app/node_modules/boxlint/prebuilds/linux-x64-glibc/libboxlint.so.0 \
         /opt/app/node_modules/boxlint/prebuilds/linux-x64-glibc/boxlint; do
  deps=$(in_root ldd "$f" 2>&1)
  if grep -q 'not found' <<<"$deps"; then bad "ldd $f in the root: $deps"
  elif grep -vE 'linux-vdso|libc\.so\.6|libm\.so\.6|ld-linux' <<<"$deps" | grep -q .; then bad "ldd $f in the root: $deps"
  else ok "ldd $f in the root: $(awk '{print $1}' <<<"$deps" | tr '\n' ' ')"; fi
done

expected=$(cd "$source" && "$cli" examples/quickstart.py 2>&1; echo "exit $?")
out=$(in_root sh -c 'cd /w && python3 - <<"PY"
import boxlint
r = boxlint.check_python(open("examples/quickstart.py").read())
print("library", boxlint._ffi.lib._name)
for d in r.diagnostics:
    print("finding", d.rule, d.line, d.column)
PY' 2>&1)
echo "$out" | sed 's/^/  /'
grep -q "^library /usr/local/lib/python3.*/dist-packages/boxlint/libboxlint.so.0$" <<<"$out" \
  && grep -q '^finding allow-without-effect 16 55$' <<<"$out" && grep -q '^finding pip-no-cache-dir 13 72$' <<<"$out" \
  && ok "import boxlint in the root: the wheel's library, the Quick Start file's findings" \
  || bad "import boxlint in the root"
got=$(in_root sh -c 'cd /w && python3 -m boxlint examples/quickstart.py 2>&1; echo "exit $?"')
[ "$got" = "$expected" ] && ok "python -m boxlint examples/quickstart.py in the root: as the command here ($(tail -n 1 <<<"$got"))" \
  || { diff <(echo "$expected") <(echo "$got"); bad "python -m boxlint in the root differs from the command"; }

out=$(in_root sh -c 'cd /w && node -e "
const b = require(\"/opt/app/node_modules/boxlint\");
const r = b.checkPython(require(\"fs\").readFileSync(\"examples/quickstart.py\", \"utf8\"));
console.log(\"version\", b.version);
for (const d of r.diagnostics) console.log(\"finding\", d.rule, d.line, d.column);
"' 2>&1)
echo "$out" | sed 's/^/  /'
grep -q "^version $version$" <<<"$out" && grep -q '^finding allow-without-effect 16 55$' <<<"$out" \
  && grep -q '^finding pip-no-cache-dir 13 72$' <<<"$out" \
  && ok "require('boxlint') in the root: version $version, the Quick Start file's findings" \
  || bad "require('boxlint') in the root"
got=$(in_root sh -c 'cd /w && /opt/app/node_modules/.bin/boxlint examples/quickstart.py 2>&1; echo "exit $?"')
[ "$got" = "$expected" ] && ok "npx boxlint examples/quickstart.py in the root: as the command here ($(tail -n 1 <<<"$got"))" \
  || { diff <(echo "$expected") <(echo "$got"); bad "npx boxlint in the root differs from the command"; }
finish

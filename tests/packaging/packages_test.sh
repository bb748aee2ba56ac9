#!/usr/bin/env bash
# packages: the Debian packages `make package` builds (cmake/package.cmake), checked as a user
# gets them. lintian reports no error on any of them, and every warning it gives is one the
# packaging notes of docs/integrations.md list with its reason. Then the packages are unpacked into a scratch
# root (dpkg -x: installing them would change this machine) and used from there: the installed
# `boxlint version`, `man -l` on its page, and tests/packaging/install/consumer.c built against
# `pkg-config libboxlint` from the package, shared and static, and run.
#   usage: packages_test.sh PKG_DIR SOURCE_DIR VERSION     (exit 77: no packages, or no tools)
set -uo pipefail
pkgdir=$1 source=$2 version=$3
me=packages
. "$(dirname "$0")/install_checks.sh"

debs=("$pkgdir"/boxlint_"$version"-*_*.deb "$pkgdir"/libboxlint0_"$version"-*_*.deb
      "$pkgdir"/libboxlint-dev_"$version"-*_*.deb)
for d in "${debs[@]}"; do
  if [ ! -f "$d" ]; then
    echo "SKIPPED: $d is missing: run make package (make test does) to build the packages"
    exit 77
  fi
done
for t in dpkg-deb lintian pkg-config man cc; do
  command -v $t >/dev/null || { echo "SKIPPED: $t is not installed (make deps installs it)"; exit 77; }
done
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT

# 1. lintian
lintian --tag-display-limit 0 "${debs[@]}" >"$tmp/lintian.txt" 2>&1
sed 's/^/  lintian: /' "$tmp/lintian.txt" | grep -v 'root privileges'
errors=$(grep -c '^E: ' "$tmp/lintian.txt")
[ "$errors" = 0 ] && ok "lintian: 0 errors on the 3 packages" || bad "lintian: $errors errors"
notes=$(sed -n '/^## Packaging notes/,/^## [^P]/p' "$source/docs/integrations.md")
for tag in $(sed -n 's/^W: [^:]*: \([a-z0-9-]*\).*/\1/p' "$tmp/lintian.txt" | sort -u); do
  if grep -q -- "\`$tag\`" <<<"$notes"; then ok "lintian warning $tag is in the packaging notes"
  else bad "lintian warning $tag is not explained in the packaging notes (docs/integrations.md)"; fi
done

# 2. what the packages say: versions, computed dependencies, shlibs
for d in "${debs[@]}"; do
  name=$(dpkg-deb -f "$d" Package) v=$(dpkg-deb -f "$d" Version)
  [ "${v%-*}" = "$version" ] && ok "$name: Version $v" || bad "$name: Version $v, not $version"
  deps=$(dpkg-deb -f "$d" Depends)
  [ -n "$deps" ] && ok "$name: Depends: $deps" || bad "$name: no Depends"
  dpkg-deb --contents "$d" >"$tmp/$name.contents"
  grep -q "usr/share/doc/$name/copyright" "$tmp/$name.contents" && ok "$name: copyright" \
    || bad "$name: no /usr/share/doc/$name/copyright"
done
grep -q "libboxlint0 (= $version-" <<<"$(dpkg-deb -f "${debs[2]}" Depends)" \
  && ok "libboxlint-dev depends on libboxlint0 of the same version" \
  || bad "libboxlint-dev does not depend on libboxlint0 (= $version-...)"
dpkg-deb -I "${debs[1]}" shlibs >"$tmp/shlibs" 2>/dev/null && grep -q '^libboxlint 0 libboxlint0' "$tmp/shlibs" \
  && ok "libboxlint0: shlibs: $(cat "$tmp/shlibs")" || bad "libboxlint0: no shlibs entry for libboxlint 0"
so=$(grep -oE 'usr/lib/[^ ]*/libboxlint\.so\.0( |$)' "$tmp/libboxlint0.contents" | tr -d ' ' || true)
[ -n "$so" ] && ok "libboxlint0 holds $so" || bad "libboxlint0 has no libboxlint.so.0"

# 3. unpacked into a scratch root, used from there
root=$tmp/root
for d in "${debs[@]}"; do dpkg -x "$d" "$root"; done
[ -f "$root/usr/share/doc/boxlint/docs/rules/denied-instruction.md" ] \
  && ok "boxlint holds the rule pages boxlint lsp links to (usr/share/doc/boxlint/docs/rules/)" \
  || bad "boxlint has no usr/share/doc/boxlint/docs/rules/denied-instruction.md"
got=$("$root/usr/bin/boxlint" version 2>&1)
[ "$got" = "boxlint $version" ] && ok "installed boxlint version: $got" || bad "boxlint version printed: $got"
page=$root/usr/share/man/man1/boxlint.1.gz
if MANWIDTH=80 man -l "$page" >"$tmp/man.txt" 2>"$tmp/man.err" && grep -q "boxlint $version" "$tmp/man.txt"; then
  ok "man -l usr/share/man/man1/boxlint.1.gz renders, and names boxlint $version"
else
  bad "man -l on the packaged page: $(head -c 300 "$tmp/man.err")"
fi
multi=$(dirname "$so")
export PKG_CONFIG_SYSROOT_DIR=$root
export PKG_CONFIG_LIBDIR=$root/$multi/pkgconfig:/usr/lib/x86_64-linux-gnu/pkgconfig:/usr/lib/pkgconfig:/usr/share/pkgconfig
pv=$(pkg-config --modversion libboxlint 2>&1)
[ "$pv" = "$version" ] && ok "pkg-config --modversion libboxlint: $pv" || bad "pkg-config --modversion: $pv"
for kind in shared static; do
  flags=$(pkg-config --cflags --libs $([ $kind = static ] && echo --static) libboxlint) || { bad "pkg-config $kind"; continue; }
  if [ $kind = static ]; then
    # the static library, by name, before the shared one the -L path also holds
    flags=$(sed "s|-lboxlint|$root/$multi/libboxlint.a|" <<<"$flags")
  fi
  if cc "$source/tests/packaging/install/consumer.c" $flags -o "$tmp/consumer_$kind" 2>"$tmp/cc.err"; then
    out=$(LD_LIBRARY_PATH=$root/$multi "$tmp/consumer_$kind" 2>&1)
    if grep -q "libboxlint $version (headers $version)" <<<"$out" && grep -q 'unknown-instruction' <<<"$out"; then
      ok "consumer built against the package's pkg-config ($kind) runs: $(head -n 1 <<<"$out")"
    else
      bad "consumer ($kind) printed: $out"
    fi
    if [ $kind = shared ]; then
      # (grep -q on a pipe would close it early: with pipefail, ldd's SIGPIPE fails the test)
      grep -q "$root/$multi/libboxlint.so.0" <<<"$(LD_LIBRARY_PATH=$root/$multi ldd "$tmp/consumer_$kind")" \
        && ok "the shared consumer loads the package's libboxlint.so.0" || bad "the shared consumer does not load the package's library"
    fi
  else
    bad "consumer ($kind) did not build: $(head -c 400 "$tmp/cc.err")"
  fi
done
finish

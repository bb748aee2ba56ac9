#!/usr/bin/env bash
# install_consumers: install a build tree into a temporary prefix, then build and run programs
# against the installed libboxlint with pkg-config (shared and static) and with
# find_package(boxlint) (boxlint::boxlint and boxlint::boxlint_static). Also checks the files
# the install puts, the man page and the installed command. Registered by
# tests/packaging/install/CMakeLists.txt; every argument comes from CMake:
#   run.sh --build DIR --source DIR --cc CC --cflags FLAGS --libdir REL --bindir REL
#          --mandir REL --version X.Y.Z --cli 0|1 [--config CFG]
# FLAGS are the sanitizer flags of the build (empty for a plain build): a consumer of an
# ASan-built library must be compiled and linked with them.
set -euo pipefail

me=install_consumers
fail() { printf '%s: FAIL: %s\n' "$me" "$*" >&2; exit 1; }
step() { printf '%s: == %s\n' "$me" "$*"; }
ok() { printf '%s: ok   %s\n' "$me" "$*"; }

build='' source='' cc='' cflags='' libdir='' bindir='' mandir='' version='' cli=1 config=''
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || fail "option $1 needs a value"
  case $1 in
    --build) build=$2 ;; --source) source=$2 ;; --cc) cc=$2 ;; --cflags) cflags=$2 ;;
    --libdir) libdir=$2 ;; --bindir) bindir=$2 ;; --mandir) mandir=$2 ;;
    --version) version=$2 ;; --cli) cli=$2 ;; --config) config=$2 ;;
    *) fail "unknown argument: $1" ;;
  esac
  shift 2
done
for v in build source cc libdir bindir mandir version; do
  [ -n "${!v}" ] || fail "missing --$v"
done
case $libdir in /*) fail "--libdir must be relative to the prefix (got $libdir)" ;; esac
major=${version%%.*}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/boxlint-install.XXXXXX") || fail "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
lib=$prefix/$libdir

# run LOGNAME CMD...: run CMD with its output in $tmp/LOGNAME.log; on failure show the log.
run() {
  local name=$1; shift
  if ! "$@" >"$tmp/$name.log" 2>&1; then
    sed 's/^/    /' "$tmp/$name.log" >&2
    fail "$name: command failed: $*"
  fi
}

# consume NAME EXE: run a consumer, show its output, check it names the rule it must find.
consume() {
  local rc=0 out=$tmp/${2##*/}.out
  "$2" >"$out" 2>&1 || rc=$?
  sed 's/^/    /' "$out"
  [ "$rc" = 0 ] || fail "$1 exited with status $rc"
  check_output "$1" "$out"
}

# check_output NAME FILE: the consumer's output names the rule it must find, and the A-label
# (libidn2) of its non-ASCII policy entry.
check_output() {
  grep -q "^libboxlint $version (headers $version)\$" "$2" \
    || fail "$1: did not print 'libboxlint $version (headers $version)'"
  grep -q '^0:1:1: error: .*\[unknown-instruction\]$' "$2" \
    || fail "$1: no unknown-instruction diagnostic for 'pip install x'"
  grep -q "^network_policy.allow_out\[0\]: .* its A-label is 'xn--bcher-kva.de' \[invalid-policy-entry\]\$" "$2" \
    || fail "$1: no A-label in the invalid-policy-entry diagnostic of a non-ASCII entry"
  grep -qx 'fix: xn--bcher-kva.de' "$2" || fail "$1: no fix with the A-label"
  ok "$1"
}

# expect_linkage NAME BINARY shared|static: BINARY needs libboxlint.so.MAJOR at run time, or
# no shared libboxlint at all. Skipped when readelf (binutils) is missing.
expect_linkage() {
  local deps
  command -v readelf >/dev/null 2>&1 || return 0
  deps=$(readelf -d "$2" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p') \
    || fail "$1: readelf -d failed"
  if [ "$3" = shared ]; then
    grep -qx "libboxlint.so.$major" <<<"$deps" \
      || fail "$1 does not need libboxlint.so.$major (NEEDED: ${deps//$'\n'/ })"
  elif grep -q '^libboxlint' <<<"$deps"; then
    fail "$1 should link libboxlint statically but needs ${deps//$'\n'/ }"
  fi
}

#----------------------------------------------------------------------------------------------
step "cmake --install $build --prefix $prefix"
if [ -n "$config" ]; then
  run install cmake --install "$build" --config "$config" --prefix "$prefix"
else
  run install cmake --install "$build" --prefix "$prefix"
fi

for f in "$lib/libboxlint.so" "$lib/libboxlint.so.$major" "$lib/libboxlint.so.$version" \
         "$lib/libboxlint.a" "$lib/pkgconfig/libboxlint.pc" \
         "$lib/cmake/boxlint/boxlint-config.cmake" \
         "$lib/cmake/boxlint/boxlint-config-version.cmake" \
         "$lib/cmake/boxlint/boxlint-targets.cmake" \
         "$prefix/include/boxlint/export.h" "$prefix/include/boxlint/version.h"; do
  [ -e "$f" ] || fail "not installed: ${f#"$prefix"/}"
done
for h in "$source"/lib/include/boxlint/*.h; do
  [ -f "$prefix/include/boxlint/${h##*/}" ] || fail "header not installed: boxlint/${h##*/}"
done
[ ! -e "$prefix/include/boxlint/version.h.in" ] || fail "version.h.in was installed"
if [ "$cli" = 1 ]; then
  [ -x "$prefix/$bindir/boxlint" ] || fail "not installed: $bindir/boxlint"
  [ -f "$prefix/$mandir/man1/boxlint.1" ] || fail "not installed: $mandir/man1/boxlint.1"
fi
ok "installed files"

# Consumers must compile cleanly against the installed headers.
warn="-std=c11 -Wall -Wextra -Wpedantic -Wstrict-prototypes -Werror"
# shellcheck disable=SC2206
san=($cflags)

#----------------------------------------------------------------------------------------------
step "pkg-config (PKG_CONFIG_PATH=$lib/pkgconfig)"
command -v pkg-config >/dev/null 2>&1 || fail "pkg-config is not installed"
export PKG_CONFIG_PATH="$lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
got=$(pkg-config --modversion libboxlint) || fail "pkg-config cannot read libboxlint.pc"
[ "$got" = "$version" ] || fail "libboxlint.pc has version $got, expected $version"
got=$(pkg-config --variable=libdir libboxlint)
[ "$got" = "$lib" ] || fail "libboxlint.pc has libdir=$got, expected $lib (the --prefix)"
pc_cflags=$(pkg-config --cflags libboxlint)
pc_libs=$(pkg-config --libs libboxlint)
pc_static_cflags=$(pkg-config --static --cflags libboxlint)
pc_static_libs=$(pkg-config --static --libs libboxlint)
printf '    --cflags --libs:          %s %s\n' "$pc_cflags" "$pc_libs"
printf '    --static --cflags --libs: %s %s\n' "$pc_static_cflags" "$pc_static_libs"

# Shared: the program needs libboxlint.so.MAJOR at run time (found through its rpath).
# shellcheck disable=SC2086
run cc_pc_shared "$cc" $warn "${san[@]}" "$source/tests/packaging/install/consumer.c" $pc_cflags \
  -o "$tmp/pc_shared" $pc_libs -Wl,-rpath,"$lib"
expect_linkage "pkg-config shared consumer" "$tmp/pc_shared" shared
consume "pkg-config shared consumer" "$tmp/pc_shared"

# Static: -lboxlint would pick the .so, so link the archive by file name (-l:libboxlint.a);
# everything else (Requires.private, Libs.private) comes from --static.
pc_static_libs=$(printf '%s\n' "$pc_static_libs" | sed 's/\(^\| \)-lboxlint\( \|$\)/\1-l:libboxlint.a\2/')
case " $pc_static_libs " in *" -l:libboxlint.a "*) ;; *)
  fail "no -lboxlint in pkg-config --static --libs: $pc_static_libs" ;; esac
# shellcheck disable=SC2086
run cc_pc_static "$cc" $warn "${san[@]}" "$source/tests/packaging/install/consumer.c" \
  $pc_static_cflags -o "$tmp/pc_static" $pc_static_libs
expect_linkage "pkg-config static consumer" "$tmp/pc_static" static
consume "pkg-config static consumer" "$tmp/pc_static"

# The embedding example, against the installed library: it exits 1 (its commands have errors).
# shellcheck disable=SC2086
run cc_embed "$cc" $warn "${san[@]}" "$source/examples/embed.c" $pc_cflags \
  -o "$tmp/embed" $pc_libs -Wl,-rpath,"$lib"
set +e
"$tmp/embed" >"$tmp/embed.out" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] || { cat "$tmp/embed.out" >&2; fail "examples/embed.c exited $rc, expected 1"; }
grep -q '\[unknown-instruction\]$' "$tmp/embed.out" || { cat "$tmp/embed.out" >&2;
  fail "examples/embed.c did not report unknown-instruction"; }
ok "examples/embed.c against the installed library (exit 1)"

#----------------------------------------------------------------------------------------------
step "find_package(boxlint) (CMAKE_PREFIX_PATH=$prefix)"
cbuild=$tmp/cmake-consumer
run cmake_configure cmake -S "$source/tests/packaging/install/cmake-consumer" -B "$cbuild" \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_C_FLAGS="$cflags" -DCMAKE_EXE_LINKER_FLAGS="$cflags" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON \
  -DCMAKE_FIND_PACKAGE_NO_SYSTEM_PACKAGE_REGISTRY=ON -DBOXLINT_REQUEST_VERSION="$version"
grep '^-- boxlint ' "$tmp/cmake_configure.log" | sed 's/^/    /'
grep -qx -- "-- boxlint $version from $lib/cmake/boxlint" "$tmp/cmake_configure.log" \
  || fail "find_package(boxlint) did not find the package installed in $prefix"
run cmake_build cmake --build "$cbuild"
for kind in shared static; do
  exe=$cbuild/consumer_$kind
  target=boxlint::boxlint
  [ $kind = shared ] || target=boxlint::boxlint_static
  expect_linkage "find_package consumer ($target)" "$exe" $kind
  consume "find_package consumer ($target)" "$exe"
done

# SameMajorVersion: asking for the next major version must not find this package.
if cmake -S "$source/tests/packaging/install/cmake-consumer" -B "$tmp/cmake-consumer-next" \
     -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$prefix" \
     -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON \
     -DBOXLINT_REQUEST_VERSION="$((major + 1)).0" >"$tmp/cmake_next.log" 2>&1; then
  fail "find_package(boxlint $((major + 1)).0) accepted version $version"
fi
grep -q 'but not accepted' "$tmp/cmake_next.log" || { cat "$tmp/cmake_next.log" >&2;
  fail "find_package(boxlint $((major + 1)).0) failed for another reason than the version"; }
ok "find_package(boxlint $((major + 1)).0) refuses $version (SameMajorVersion)"

#----------------------------------------------------------------------------------------------
if [ "$cli" = 1 ]; then
  step "installed command and man page"
  out=$("$prefix/$bindir/boxlint" --version 2>&1) || fail "$bindir/boxlint --version failed: $out"
  [ "$out" = "boxlint $version" ] || fail "$bindir/boxlint --version printed '$out'"
  ok "$bindir/boxlint --version: $out"

  page=$prefix/$mandir/man1/boxlint.1
  if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww -z "$page" >"$tmp/groff.log" 2>&1 || true
    if [ -s "$tmp/groff.log" ]; then
      sed 's/^/    /' "$tmp/groff.log" >&2
      fail "groff warns about $mandir/man1/boxlint.1"
    fi
    groff -man -Tutf8 -P-cbou "$page" >"$tmp/man.txt" 2>&1 || fail "groff cannot render boxlint.1"
    renderer=groff
  elif command -v man >/dev/null 2>&1; then
    MANPAGER=cat MANWIDTH=80 man -l "$page" >"$tmp/man.txt" 2>&1 \
      || { cat "$tmp/man.txt" >&2; fail "man -l cannot render boxlint.1"; }
    renderer="man -l"
  else
    renderer=
    printf '%s: skip man page rendering: neither groff nor man is installed\n' "$me"
  fi
  if [ -n "$renderer" ]; then
    # man may embolden headings with backspaces (overstrike); strip them before matching.
    sed 's/.\x08//g' "$tmp/man.txt" >"$tmp/man.plain"
    for want in NAME SYNOPSIS OPTIONS "EXIT STATUS" CONFIGURATION SUPPRESSIONS; do
      grep -q "^$want" "$tmp/man.plain" || fail "rendered man page ($renderer) has no $want section"
    done
    ok "$mandir/man1/boxlint.1 renders with $renderer"
  fi
fi

printf '%s: PASS\n' "$me"

#!/usr/bin/env bash
# version: one version everywhere. CMake's project(VERSION) is the one place it is written; this
# checks that every other place says the same: the library (boxlint_version(), through the
# command), the command, the man page the build generates, the headers' BOXLINT_VERSION_STRING,
# the Python wheel's version (setup.py reads CMakeLists.txt), the npm package.json, and the
# Debian packages, the wheel, the npm tarball and the playground's tarball (its name, and the
# version its boxlint.wasm reports) when `make package` has built them.
#   usage: version_test.sh VERSION BOXLINT_CLI BUILD_DIR SOURCE_DIR PKG_DIR
set -uo pipefail
version=$1 cli=$2 build=$3 source=$4 pkgdir=$5
fails=0
say() { if [ "$2" = "$version" ]; then printf 'version: ok   %-44s %s\n' "$1" "$2"
        else printf 'version: FAIL %-44s %s (not %s)\n' "$1" "$2" "$version"; fails=$((fails + 1)); fi; }
say "CMakeLists.txt project(VERSION)" "$(sed -n 's/^project(boxlint VERSION \([0-9.]*\).*/\1/p' "$source/CMakeLists.txt")"
say "boxlint version (the command)" "$("$cli" version | sed 's/^boxlint //')"
say "boxlint_version() (the library, in the Python binding)" \
    "$(cd "$source/bindings/python" && PYTHONDONTWRITEBYTECODE=1 python3 -c 'import boxlint; print(boxlint.__version__)' 2>&1)"
say "BOXLINT_VERSION_STRING (version.h)" "$(sed -n 's/^#define BOXLINT_VERSION_STRING "\(.*\)"/\1/p' "$build/lib/include/boxlint/version.h")"
say "man page .TH (generated)" "$(sed -n 's/^\.TH .*"boxlint \([^"]*\)" "User Commands"/\1/p' "$build/man/boxlint.1")"
say "wheel (bindings/python/setup.py --version)" \
    "$(cd "$source/bindings/python" && python3 setup.py --version 2>/dev/null | tail -n 1)"
say "npm (bindings/node/package.json)" "$(node -p 'require(process.argv[1]).version' "$source/bindings/node/package.json" 2>/dev/null || sed -n 's/^  "version": "\(.*\)",$/\1/p' "$source/bindings/node/package.json")"
say "Debian changelog (packaging/debian/changelog.in)" "$(sed -n '1s/^boxlint (\(@PROJECT_VERSION@\)-1).*/\1/p' "$source/packaging/debian/changelog.in" | sed "s/@PROJECT_VERSION@/$version/")"
for d in "$pkgdir"/*.deb; do
  [ -f "$d" ] || { echo "version: (no .deb in $pkgdir: the packages test checks them after make package)"; break; }
  v=$(dpkg-deb -f "$d" Version); say "$(basename "$d") Version" "${v%-*}"
done
for w in "$pkgdir"/boxlint-*.whl; do
  [ -f "$w" ] || break
  v=$(basename "$w"); v=${v#boxlint-}; say "$(basename "$w") (make package)" "${v%%-*}"
done
for t in "$pkgdir"/boxlint-*.tgz; do
  [ -f "$t" ] || break
  say "$(basename "$t") package.json (make package)" \
      "$(tar -xzOf "$t" package/package.json | sed -n 's/^  "version": "\(.*\)",$/\1/p')"
done
for t in "$pkgdir"/boxlint-playground-*.tar.gz; do
  [ -f "$t" ] || break
  v=$(basename "$t" .tar.gz); say "$(basename "$t") (make package)" "${v#boxlint-playground-}"
  tmp=$(mktemp -d); tar -xzf "$t" -C "$tmp"
  say "$(basename "$t") boxlint.wasm's boxlint_version()" "$(node -e '
    const d = process.argv[1] + "/playground/";
    const core = require(d + "wasm_core.js");
    console.log(core.instantiate(require("fs").readFileSync(d + "boxlint.wasm")).version);' "$tmp" 2>&1)"
  rm -rf "$tmp"
done
[ $fails = 0 ] && { echo "version: OK"; exit 0; }
echo "version: FAILED: $fails"; exit 1

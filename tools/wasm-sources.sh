#!/usr/bin/env bash
# Set-up for the WebAssembly build (wasm/CMakeLists.txt), run by `make deps` like apt-get: the
# source of PCRE2 and jansson as Debian serves it, for wasm/ to build them for wasm32-wasi. It
# downloads with apt itself (`apt-get source --download-only`, which checks the .dsc's and the
# tarballs' hashes against the signed Release file) through a private source list and state
# directory under DIR, never the machine's, and unpacks each with dpkg-source -x into
# DIR/<package> (a symbolic link to the versioned directory). What is unpacked is kept between
# runs; what cannot be fetched (no apt, no mirror, the mirror unreachable) is said, and the
# WebAssembly build leaves the feature out as before. This script never fails the set-up.
#   usage: tools/wasm-sources.sh DIR       (make deps: build/wasm-sources)
#   BOXLINT_DEBIAN_MIRROR and BOXLINT_DEBIAN_SUITE override the mirror and the release.
set -uo pipefail
dir=${1:?usage: tools/wasm-sources.sh DIR}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
packages=(pcre2 jansson)

missing=()
for p in "${packages[@]}"; do
  [ -f "$dir/$p/.boxlint-unpacked" ] || missing+=("$p")
done
if [ ${#missing[@]} = 0 ]; then
  echo "boxlint: Debian sources for the WebAssembly build: $(cd "$dir" && for p in "${packages[@]}"; do
    printf '%s ' "$(readlink "$p")"; done)(kept in $dir)"
  exit 0
fi
leave() {
  echo "boxlint: no Debian source of ${missing[*]} for the WebAssembly build ($*): it leaves out" \
       "what needs them (docs/bindings.md#webassembly)"
  exit 0
}
command -v apt-get >/dev/null || leave "no apt-get"
command -v dpkg-source >/dev/null || leave "no dpkg-source (package dpkg-dev)"
suite=${BOXLINT_DEBIAN_SUITE:-$(. /etc/os-release && echo "${VERSION_CODENAME:-}")}
[ -n "$suite" ] || leave "no VERSION_CODENAME in /etc/os-release: not a Debian release"
mirror=${BOXLINT_DEBIAN_MIRROR:-$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 2>/dev/null \
  | awk -v s="$suite" '$2 == s && $3 == "main" {print $1; exit}')}
[ -n "$mirror" ] || leave "the apt configuration names no mirror serving $suite main (set BOXLINT_DEBIAN_MIRROR)"

# apt with its own source list, lists and cache: the machine's apt state is not touched.
apt=$dir/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/download"
echo "deb-src $mirror $suite main" >"$apt/sources.list"
aptopts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
         -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o APT::Get::List-Cleanup=0
         -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
echo "boxlint: fetching the Debian source of ${missing[*]} ($suite, $mirror) for the WebAssembly build"
apt-get "${aptopts[@]}" -qq update >"$apt/update.log" 2>&1 \
  || { tail -n 5 "$apt/update.log"; leave "apt-get update of deb-src $mirror $suite failed"; }
(cd "$apt/download" && apt-get "${aptopts[@]}" -qq source --download-only "${missing[@]}") \
  >"$apt/source.log" 2>&1 || { tail -n 5 "$apt/source.log"; leave "apt-get source failed"; }
for p in "${missing[@]}"; do
  dsc=$(ls -t "$apt/download/${p}_"*.dsc 2>/dev/null | head -n 1)
  [ -n "$dsc" ] || { echo "boxlint: apt-get source gave no $p .dsc"; continue; }
  ver=$(basename "$dsc" .dsc)                  # pcre2_10.42-1
  tree="${ver%%-*}"; tree="${tree/_/-}"        # pcre2-10.42
  rm -rf "${dir:?}/$tree" "$dir/$p"
  # dpkg-source checks the tarballs against the .dsc's checksums (its signature too, where a
  # keyring is at hand; else it says it could not: apt has checked the .dsc against Release).
  if (cd "$apt/download" && dpkg-source -x "$dsc" "$dir/$tree") >"$apt/$p-unpack.log" 2>&1; then
    rm -f "$dir/${p}_"*.orig.tar.*  # dpkg-source leaves a copy beside the tree
    ln -sfn "$tree" "$dir/$p" && basename "$dsc" >"$dir/$p/.boxlint-unpacked"
    echo "boxlint: $dir/$p: $(basename "$dsc") unpacked"
  else
    tail -n 5 "$apt/$p-unpack.log"; echo "boxlint: dpkg-source -x $(basename "$dsc") failed"
  fi
done
missing=()
for p in "${packages[@]}"; do [ -f "$dir/$p/.boxlint-unpacked" ] || missing+=("$p"); done
[ ${#missing[@]} = 0 ] || leave "not unpacked"
exit 0

#!/usr/bin/env bash
# Set-up for the minroot test (tests/packaging/minroot_test.sh), run by `make test` before ctest,
# like apt-get in `make deps`: it is the step that downloads, so that the test itself uses no
# network. It makes a minimal Debian root (debootstrap --variant=minbase, the host's release and
# the mirror its apt configuration names) with python3 and nodejs, and keeps it as DIR/root.tar.
# An existing DIR/root.tar is kept. Where no root can be made (not root, no debootstrap, no
# mirror, the mirror unreachable), DIR/skip-reason says why and the test reports it as skipped;
# this script never fails `make test`.
#   usage: tools/minroot.sh DIR
#   BOXLINT_DEBIAN_MIRROR and BOXLINT_DEBIAN_SUITE override the mirror and the release.
set -uo pipefail
dir=${1:?usage: tools/minroot.sh DIR}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
[ -s "$dir/root.tar" ] && { echo "boxlint: minimal root for the minroot test: $dir/root.tar (kept)"; exit 0; }
rm -f "$dir/skip-reason"
skip() { echo "$*" >"$dir/skip-reason"; echo "boxlint: no minimal root for the minroot test: $*"; exit 0; }

[ "$(id -u)" = 0 ] || skip "debootstrap needs root (make test runs as root on the project's machines)"
command -v debootstrap >/dev/null || skip "debootstrap is not installed (make deps installs it)"
suite=${BOXLINT_DEBIAN_SUITE:-$(. /etc/os-release && echo "${VERSION_CODENAME:-}")}
[ -n "$suite" ] || skip "no VERSION_CODENAME in /etc/os-release: not a Debian release"
mirror=${BOXLINT_DEBIAN_MIRROR:-$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 2>/dev/null \
  | awk -v s="$suite" '$2 == s && $3 == "main" {print $1; exit}')}
[ -n "$mirror" ] || skip "the apt configuration names no mirror serving $suite main (set BOXLINT_DEBIAN_MIRROR)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "boxlint: making a minimal $suite root for the minroot test (debootstrap --variant=minbase, python3, nodejs, from $mirror)"
if ! debootstrap --variant=minbase --include=python3,nodejs "$suite" "$tmp/root" "$mirror" \
     >"$tmp/debootstrap.log" 2>&1; then
  tail -n 15 "$tmp/debootstrap.log"
  skip "debootstrap could not make a $suite root from $mirror (its log's end was printed by make test's set-up)"
fi
rm -f "$tmp"/root/var/cache/apt/archives/*.deb
echo "$suite $mirror" >"$tmp/root/.boxlint-minroot"
tar -C "$tmp/root" -cf "$dir/root.tar.part" . && mv "$dir/root.tar.part" "$dir/root.tar" \
  || skip "could not write $dir/root.tar"
echo "boxlint: minimal root for the minroot test: $dir/root.tar ($(du -h "$dir/root.tar" | cut -f1))"

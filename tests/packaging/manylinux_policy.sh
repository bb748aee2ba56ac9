# Sourced by wheel_test.sh and npm_test.sh (after install_checks.sh): whether ELF files meet a
# manylinux policy, checked as auditwheel checks a wheel: every shared library a file names in
# NEEDED (readelf -d) is one the policy allows, and every GLIBC_X.Y symbol version it uses
# (objdump -T, the undefined symbols) is at most the tag's X.Y.
#
# The policy table, for the x86_64 tags a self-contained build may get on Debian's glibc (2.36 in
# bookworm), from auditwheel's own policy file, src/auditwheel/policy/manylinux-policy.json in
# pypa/auditwheel (read at commit 86154d15d6a5, 2026-08-17): each entry's highest x86_64
# "symbol_versions" GLIBC version and its "lib_whitelist". manylinux_2_17 is manylinux2014
# (PEP 599); the later ones are PEP 600 tags, whose list auditwheel keeps the same from 2_28 on.
# auditwheel's "blacklist" (symbols refused even in an allowed library) names only libz for
# these tags, which a boxlint build never links. Columns: tag, highest GLIBC, allowed libraries.
manylinux_policies() {
  local x11="libX11.so.6 libXext.so.6 libXrender.so.1 libICE.so.6 libSM.so.6 libGL.so.1"
  local glib="libgobject-2.0.so.0 libgthread-2.0.so.0 libglib-2.0.so.0"
  local base="libatomic.so.1 libgcc_s.so.1 libstdc++.so.6 libm.so.6"
  local rest="libanl.so.1 libdl.so.2 librt.so.1 libc.so.6 libnsl.so.1 libutil.so.1 libpthread.so.0"
  echo "manylinux_2_17_x86_64 2.17 $base $rest $x11 $glib libresolv.so.2 libexpat.so.1 libz.so.1"
  local t
  for t in 2.28 2.31 2.34 2.35 2.36; do
    echo "manylinux_${t/./_}_x86_64 $t $base libmvec.so.1 $rest $x11 $glib libresolv.so.2 libexpat.so.1 libz.so.1"
  done
}

# elf_needed FILE: the NEEDED entries, one a line. elf_glibc_max FILE...: the highest GLIBC_X.Y
# (X.Y, or 0.0 for none) the files' undefined dynamic symbols carry.
elf_needed() { readelf -d -W "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
elf_glibc_max() {
  local f
  for f in "$@"; do objdump -T "$f"; done | awk '/\*UND\*/' | grep -o 'GLIBC_[0-9][0-9.]*' \
    | sed 's/^GLIBC_//' | awk -F. '{print $1 "." $2}' | sort -t. -k1,1n -k2,2n | tail -n 1 | grep . || echo 0.0
}
# version_le A B: X.Y A is at most X.Y B.
version_le() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -t. -k1,1n -k2,2n | head -n 1)" = "$1" ]; }

# manylinux_meets TAG FILE...: report (ok/bad) whether the files meet TAG's policy; returns 1
# when they do not, or when the table has no such tag.
manylinux_meets() {
  local tag=$1; shift
  local row max allowed f lib glibc rc=0
  row=$(manylinux_policies | awk -v t="$tag" '$1 == t')
  [ -n "$row" ] || { bad "no policy for $tag in tests/packaging/manylinux_policy.sh"; return 1; }
  read -r _ max allowed <<<"$row"
  for f in "$@"; do
    for lib in $(elf_needed "$f"); do
      if [[ " $allowed " == *" $lib "* ]]; then
        ok "$(basename "$f") needs $lib: $tag allows it"
      else
        bad "$(basename "$f") needs $lib, which $tag does not allow"; rc=1
      fi
    done
    glibc=$(elf_glibc_max "$f")
    if version_le "$glibc" "$max"; then
      ok "$(basename "$f"): highest symbol version GLIBC_$glibc, at most $tag's GLIBC_$max"
    else
      bad "$(basename "$f") uses GLIBC_$glibc, above $tag's GLIBC_$max"; rc=1
    fi
  done
  return $rc
}

# manylinux_lowest FILE...: the first (oldest) tag of the table the files meet, or nothing.
manylinux_lowest() {
  local tag max allowed f lib fits
  while read -r tag max allowed; do
    fits=1
    for f in "$@"; do
      for lib in $(elf_needed "$f"); do [[ " $allowed " == *" $lib "* ]] || fits=0; done
      version_le "$(elf_glibc_max "$f")" "$max" || fits=0
    done
    [ $fits = 1 ] && { echo "$tag"; return 0; }
  done < <(manylinux_policies)
  return 1
}

# Sourced by the tests of what users install (packages_test.sh, wheel_test.sh, npm_test.sh):
# their report lines and the checks the wheel and the npm package share. Set `me` first.
fails=0
ok() { printf '%s: ok   %s\n' "$me" "$*"; }
bad() { printf '%s: FAIL %s\n' "$me" "$*"; fails=$((fails + 1)); }
finish() {
  [ $fails = 0 ] && { echo "$me: OK"; exit 0; }
  echo "$me: FAILED: $fails"
  exit 1
}

# quick_start OUT VERSION LIBRARY_RE WHO: a binding's report on the Quick Start file (lines
# "library PATH", "version LIB PKG", "finding RULE LINE COLUMN") against what the command says.
quick_start() {
  local out=$1 version=$2 lib_re=$3 who=$4
  echo "$out" | sed 's/^/  /'
  grep -q "^library $lib_re" <<<"$out" \
    && ok "$who loads the package's libboxlint.so.0, no environment variable, no system library" \
    || bad "the library $who loads is not the package's"
  grep -q "^version $version $version$" <<<"$out" && ok "version: the library and the package say $version" \
    || bad "versions: $(grep '^version' <<<"$out")"
  grep -q "^finding allow-without-effect 16 55$" <<<"$out" && grep -q "^finding allow-without-effect 16 67$" <<<"$out" \
    && ok "the Quick Start file: allow-without-effect at 16:55 and 16:67, as the command reports" \
    || bad "the Quick Start file's findings"
  # no config is the command's defaults: the warnings run
  grep -q "^finding pip-no-cache-dir 13 72$" <<<"$out" \
    && ok "the Quick Start file: pip-no-cache-dir at 13:72 with no config, as the command reports" \
    || bad "the Quick Start file's pip-no-cache-dir (no config: the defaults)"
}

# same_as_command SOURCE CLI TMP NAME RUNNER...: RUNNER ARGS prints and exits as CLI ARGS does,
# for each set of arguments (run in SOURCE).
same_as_command() {
  local source=$1 cli=$2 tmp=$3 name=$4 a b args
  shift 4
  for args in "examples/template.json" "examples/bad-template.json" \
              "--format json examples/quickstart.py" "--format sarif examples/bad-template.json" \
              "--no-such-flag x"; do
    (cd "$source" && "$@" $args) >"$tmp/a.out" 2>"$tmp/a.err"; a=$?
    (cd "$source" && "$cli" $args) >"$tmp/b.out" 2>"$tmp/b.err"; b=$?
    if [ $a = $b ] && cmp -s "$tmp/a.out" "$tmp/b.out"; then ok "$name $args: exit $a, output as the command's"
    else bad "$name $args: exit $a vs $b, output differs"; fi
  done
}

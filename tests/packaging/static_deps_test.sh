#!/usr/bin/env bash
# static_deps: BOXLINT_STATIC_DEPS=ON, the build the wheel and the npm package carry. Configured
# and built with -Werror in a tree of its own; then: libboxlint.so and the command need no shared
# library but libc (NEEDED), the library has no text relocations (Debian's libjansson.a and
# libunistring.a are not built with -fPIC: what the library pulls from them must still link
# without), it exports only boxlint_* (the archives' symbols stay inside, --exclude-libs and
# lib/static-deps.map), it works in a process that loaded the system's libpcre2-8 and libidn2
# first, and the command says what the command built with the shared libraries says. The option
# with BOXLINT_INSTALL=ON stops at configure time, naming both.
#   usage: static_deps_test.sh SOURCE_DIR BOXLINT_CLI WORK_DIR   (exit 77: an archive is missing)
set -uo pipefail
source=$1 cli=$2 work=$3
me=static_deps
. "$(dirname "$0")/install_checks.sh"
for a in libpcre2-8.a libidn2.a libunistring.a libjansson.a; do
  [ -n "$(find /usr/lib /usr/local/lib -name "$a" -print -quit 2>/dev/null)" ] || {
    echo "SKIPPED: $me: $a is missing (Debian's -dev packages ship it: make deps installs them)"; exit 77; }
done
rm -rf "$work" && mkdir -p "$work"
b=$work/build

if cmake -S "$source" -B "$work/refused" -DBOXLINT_STATIC_DEPS=ON -DBOXLINT_INSTALL=ON \
     -DBOXLINT_BUILD_TESTS=OFF -DBOXLINT_BUILD_BENCH=OFF >"$work/refused.log" 2>&1; then
  bad "BOXLINT_STATIC_DEPS=ON with BOXLINT_INSTALL=ON configured"
elif grep -q 'BOXLINT_STATIC_DEPS=ON' "$work/refused.log" && grep -q 'BOXLINT_INSTALL=OFF' "$work/refused.log"; then
  ok "BOXLINT_STATIC_DEPS=ON with BOXLINT_INSTALL=ON stops at configure time, naming both"
else
  tail -n 5 "$work/refused.log"; bad "the refusal does not name BOXLINT_STATIC_DEPS and BOXLINT_INSTALL"
fi

if cmake -S "$source" -B "$b" -DCMAKE_BUILD_TYPE=Release -DBOXLINT_STATIC_DEPS=ON -DBOXLINT_INSTALL=OFF \
     -DBOXLINT_BUILD_TESTS=OFF -DBOXLINT_BUILD_BENCH=OFF -DBOXLINT_WERROR=ON >"$work/configure.log" 2>&1 \
   && cmake --build "$b" -j 2 --target boxlint boxlint_cli >"$work/build.log" 2>&1; then
  ok "configured and built with BOXLINT_STATIC_DEPS=ON, -Werror"
else
  tail -n 30 "$work/configure.log" "$work/build.log"; bad "the static build"; finish
fi
lib=$b/lib/libboxlint.so.0 cmd=$b/cli/boxlint

for f in "$lib" "$cmd"; do
  needed=$(readelf -d -W "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  [ "$needed" = "libc.so.6 " ] && ok "$(basename "$f") needs only libc.so.6" || bad "$(basename "$f") needs: $needed"
done
if readelf -d -W "$lib" | grep -qE 'TEXTREL|FLAGS.*TEXTREL'; then
  bad "libboxlint.so.0 has text relocations (a non-PIC archive member was linked in)"
else
  ok "libboxlint.so.0 has no text relocations"
fi
others=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | grep -v '^boxlint_' | tr '\n' ' ')
[ -z "$others" ] && ok "libboxlint.so.0 exports only boxlint_* ($(nm -D --defined-only "$lib" | grep -c ' boxlint_') symbols)" \
  || bad "libboxlint.so.0 exports more than boxlint_*: $others"

# The system's pcre2 and idn2 loaded first, globally: the library must keep to its own copies.
out=$(BOXLINT_LIBRARY=$lib PYTHONPATH=$source/bindings/python PYTHONDONTWRITEBYTECODE=1 python3 - \
        "$source/examples/quickstart.py" <<'PY' 2>&1
import ctypes, sys
for name in ("libpcre2-8.so.0", "libidn2.so.0", "libunistring.so.2"):
    ctypes.CDLL(name, mode=ctypes.RTLD_GLOBAL)
import boxlint
r = boxlint.check_python(open(sys.argv[1]).read())
for d in r.diagnostics:
    print("finding", d.rule, d.line, d.column)
try:  # idn2 gives the A-label the error names
    boxlint.NetworkPolicy(type="filtered", allow_out=["bücher.example"], deny_out=["ALL_TRAFFIC"])
except boxlint.PolicyError as e:
    print("idn", "xn--bcher-kva.example" in str(e))
PY
)
echo "$out" | sed 's/^/  /'
grep -q '^finding allow-without-effect 16 55$' <<<"$out" && grep -q '^idn True$' <<<"$out" \
  && ok "with the system's libpcre2-8, libidn2 and libunistring loaded first: the Quick Start findings, an A-label from idn2" \
  || bad "the static library beside the system's libraries"

# The command: the same output and exit code as the command built with the shared libraries,
# with a user rule (PCRE2) from a config and a non-ASCII policy entry (idn2, unistring).
cat >"$work/config.json" <<'JSON'
{"user_rules": [{"id": "no-latest", "severity": "warning", "instruction": "RUN",
                 "pattern": ":latest\\b", "message": "pin image and package versions"}]}
JSON
printf '%s\n' '["RUN docker pull img:latest", "RUN echo caf\u00e9"]' >"$work/commands.json"
cd "$source"
for args in "examples/template.json" "examples/bad-template.json" "examples/quickstart.py" \
            "--format json examples/quickstart.py" "--format sarif examples/bad-template.json" \
            "--config $work/config.json $work/commands.json" \
            "policy examples/quickstart-policy.json --host pypi.org --host bücher.example"; do
  # shellcheck disable=SC2086
  want=$("$cli" $args 2>&1; echo "exit $?")
  # shellcheck disable=SC2086
  got=$("$cmd" $args 2>&1; echo "exit $?")
  [ "$got" = "$want" ] && ok "boxlint $args: as the shared build ($(tail -n 1 <<<"$got"))" \
    || { diff <(echo "$want") <(echo "$got") | head -n 10; bad "boxlint $args differs from the shared build"; }
done
finish

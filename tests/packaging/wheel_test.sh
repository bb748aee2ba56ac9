#!/usr/bin/env bash
# wheel: the Python wheel carries the library. `pip wheel bindings/python` (Debian's pip and
# setuptools, --no-build-isolation: only Debian's packages are reachable here) compiles
# libboxlint and the command with the project's CMake into the wheel, linked statically with their
# dependencies (BOXLINT_STATIC_DEPS) and tagged manylinux, a tag checked here against auditwheel's
# policy (manylinux_policy.sh); the wheel is installed
# into a new virtual environment with --no-index, and used there with no BOXLINT_LIBRARY and no
# system libboxlint: the Quick Start file checked, `python -m boxlint` compared with the command
# (output formats and exit codes), mypy on a typed client, the version.
#   usage: wheel_test.sh SOURCE_DIR BOXLINT_CLI VERSION      (exit 77: no Debian pip/venv)
set -uo pipefail
source=$1 cli=$2 version=$3
py=/usr/bin/python3
me=wheel
. "$(dirname "$0")/install_checks.sh"
. "$(dirname "$0")/manylinux_policy.sh"
if ! $py -m pip --version >/dev/null 2>&1 || ! $py -c 'import venv, setuptools, wheel' 2>/dev/null; then
  echo "SKIPPED: Debian's python3-pip, python3-venv, python3-setuptools or python3-wheel is missing (make deps installs them)"
  exit 77
fi
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
unset BOXLINT_LIBRARY

if BOXLINT_WHEEL_BUILD_DIR=$tmp/cmake $py -m pip wheel --no-build-isolation --no-deps --no-index \
     -w "$tmp/dist" "$source/bindings/python" >"$tmp/build.log" 2>&1; then
  ok "pip wheel bindings/python built $(cd "$tmp/dist" && ls)"
else
  tail -n 30 "$tmp/build.log"; bad "pip wheel failed"; exit 1
fi
whl=$(ls "$tmp"/dist/boxlint-*.whl)
# The tag: manylinux, and met by what the wheel holds (auditwheel's check, manylinux_policy.sh):
# the library and the command linked with BOXLINT_STATIC_DEPS need only the C library.
arch=$($py -c "import platform; print(platform.machine())")
name=$(basename "$whl")
tag=${name#"boxlint-$version-py3-none-"}; tag=${tag%.whl}
if [[ $name == "boxlint-$version-py3-none-manylinux_"*"_$arch.whl" ]]; then
  ok "tag py3-none-$tag: any Python 3 (ctypes), manylinux (PEP 600)"
else
  bad "wheel name $name, not boxlint-$version-py3-none-manylinux_X_Y_$arch.whl"
fi
grep -qx "Tag: py3-none-$tag" <<<"$(unzip -p "$whl" "boxlint-$version.dist-info/WHEEL")" \
  && ok "WHEEL says Tag: py3-none-$tag" || bad "WHEEL's Tag line is not py3-none-$tag"
mkdir -p "$tmp/unzipped" && (cd "$tmp/unzipped" && unzip -q "$whl")
elfs=("$tmp/unzipped/boxlint/libboxlint.so.0" "$tmp/unzipped/boxlint/bin/boxlint")
if manylinux_meets "$tag" "${elfs[@]}"; then
  ok "the wheel's contents meet $tag's policy (allowed libraries, highest GLIBC symbol version)"
else
  bad "the wheel is tagged $tag but its contents do not meet that policy"
fi
lowest=$(manylinux_lowest "${elfs[@]}")
[ "$lowest" = "$tag" ] && ok "$tag is the oldest tag of the policy table the contents meet" \
  || bad "the contents meet ${lowest:-no tag of the table}, the wheel says $tag"
for lib in libjansson libpcre2 libidn2 libunistring; do
  if readelf -d -W "${elfs[@]}" | grep -q "NEEDED.*\[$lib"; then bad "the wheel's files need $lib"
  else ok "no file of the wheel needs $lib (linked in statically)"; fi
done
grep -q '^Root-Is-Purelib: false' <<<"$(unzip -p "$whl" "boxlint-$version.dist-info/WHEEL")" \
  && ok "Root-Is-Purelib: false" || bad "the wheel says it is pure"
for f in boxlint/libboxlint.so.0 boxlint/bin/boxlint boxlint/py.typed; do
  unzip -l "$whl" "$f" >/dev/null 2>&1 && ok "the wheel holds $f" || bad "the wheel lacks $f"
done

$py -m venv "$tmp/venv" && "$tmp/venv/bin/pip" install --no-index -q "$whl" >"$tmp/install.log" 2>&1 \
  && ok "installed into a new virtual environment with --no-index" || { cat "$tmp/install.log"; bad "pip install"; exit 1; }
vpy=$tmp/venv/bin/python
cd "$tmp"
out=$("$vpy" - "$source/examples/quickstart.py" <<'PY' 2>&1
import importlib.metadata, os, sys
import boxlint
from boxlint import _ffi
here = os.path.dirname(boxlint.__file__)
assert os.path.realpath(_ffi.lib._name).startswith(os.path.realpath(here)), _ffi.lib._name
r = boxlint.check_python(open(sys.argv[1]).read())
print("library", _ffi.lib._name)
print("version", boxlint.__version__, importlib.metadata.version("boxlint"))
for d in r.diagnostics:
    print("finding", d.rule, d.line, d.column)
PY
)
quick_start "$out" "$version" "$tmp/venv/.*/boxlint/libboxlint.so.0" "import boxlint"

# python -m boxlint is the command: same output, same exit codes
same_as_command "$source" "$cli" "$tmp" "python -m boxlint" "$vpy" -m boxlint
grep -q "^boxlint $version$" <<<"$("$tmp/venv/bin/boxlint" version)" && ok "the boxlint script in the venv: boxlint $version" \
  || bad "the venv's boxlint script"

# typed: mypy (Debian's) on a client of the installed package
cat >"$tmp/client.py" <<'PY'
import boxlint

r: boxlint.Result = boxlint.check_commands(["RUN true"])
n: int = len(r.diagnostics)
first: str = r.diagnostics[0].rule if r.diagnostics else ""
bad: int = boxlint.check_commands(["RUN true"])  # must be reported: a Result is not an int
PY
if $py -m mypy --version >/dev/null 2>&1; then
  $py -m mypy --python-executable "$vpy" --no-incremental "$tmp/client.py" >"$tmp/mypy.txt" 2>&1
  if grep -q 'client.py:6: error: Incompatible types in assignment' "$tmp/mypy.txt" && \
     [ "$(grep -c 'error:' "$tmp/mypy.txt")" = 1 ]; then
    ok "mypy uses the package's types (py.typed): one error, the deliberate one on line 6"
  else
    cat "$tmp/mypy.txt"; bad "mypy on a typed client"
  fi
else
  echo "$me: SKIPPED the mypy step: Debian's python3-mypy is not installed (make deps installs it)"
fi
finish

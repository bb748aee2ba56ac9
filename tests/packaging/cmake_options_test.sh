#!/usr/bin/env bash
# Every combination of the CMake options either builds or stops at configure time with a message
# naming the options that conflict (issue 12, point 4).
#
#   1. All 64 combinations of the six ON/OFF options (CLI, TESTS, FUZZERS, BENCH, WERROR,
#      INSTALL), configured and generated with clang (where every one is valid), in one build
#      tree reconfigured for each; and with gcc, BOXLINT_BUILD_FUZZERS=ON must stop at configure
#      time naming the option and the compiler (the check comes first, before any other option
#      is read, so one combination stands for all 32).
#   2. A sanitizer the compiler cannot build with stops at configure time, naming the option.
#   3. Built whole: the fuzz option alone with clang (`CC=clang cmake -DBOXLINT_BUILD_FUZZERS=ON`,
#      everything else at its default: the command, the tests, the benchmarks and the bindings'
#      library are built beside the instrumented fuzzers), and its fuzzers and command are run;
#      the library alone (every other option OFF); the tests without the command.
#
# Usage: cmake_options_test.sh SOURCE_DIR WORK_DIR
set -uo pipefail
src=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
fails=0
passes=0
pass() { passes=$((passes + 1)); }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

if ! command -v clang >/dev/null 2>&1 || ! command -v gcc >/dev/null 2>&1; then
  echo "SKIPPED: cmake_options_test needs both gcc and clang (make deps installs them)"
  exit 77
fi

# configure CC DIR LOG OPTIONS...: returns cmake's exit code.
configure() {
  local cc=$1 dir=$2 log=$3
  shift 3
  CC=$cc cmake -S "$src" -B "$dir" "$@" >"$log" 2>&1
}

# ---- 1. every combination, configured ----------------------------------------------------
names=(CLI TESTS FUZZERS BENCH WERROR INSTALL)
opt_name() {
  case $1 in
    CLI|TESTS|FUZZERS|BENCH) echo "BOXLINT_BUILD_$1" ;;
    *) echo "BOXLINT_$1" ;;
  esac
}
for cc in clang gcc; do
  dir="$work/matrix-$cc"
  for ((m = 0; m < 64; m++)); do
    # gcc: the combinations with the fuzzers, each OFF, and all ON.
    [ $cc = gcc ] && [ $m -ne 4 ] && [ $m -ne 63 ] && continue
    args=()
    fuzz=OFF
    for i in "${!names[@]}"; do
      v=OFF
      (((m >> i) & 1)) && v=ON
      [ "${names[$i]}" = FUZZERS ] && fuzz=$v
      args+=("-D$(opt_name "${names[$i]}")=$v")
    done
    log="$work/matrix-$cc-$m.log"
    configure "$cc" "$dir" "$log" "${args[@]}"
    rc=$?
    if [ "$cc" = gcc ] && [ $fuzz = ON ]; then
      msg=$(tr -s ' \n' '  ' <"$log")
      if [ $rc -ne 0 ] && grep -q "BOXLINT_BUILD_FUZZERS=ON needs clang (libFuzzer), but the C compiler is GNU" <<<"$msg"; then
        pass
      else
        fail "gcc ${args[*]}: expected a configure error naming BOXLINT_BUILD_FUZZERS and the compiler (rc $rc)"
      fi
    elif [ $rc -eq 0 ]; then
      pass
    else
      fail "$cc ${args[*]}: configure failed (rc $rc):"
      tail -5 "$log"
    fi
  done
done
echo "configured: 64 combinations with clang, 2 with gcc"

# ---- 2. a sanitizer the compiler does not have --------------------------------------------
log="$work/bad-sanitizer.log"
if configure gcc "$work/bad-sanitizer" "$log" -DBOXLINT_SANITIZER=no-such-sanitizer; then
  fail "BOXLINT_SANITIZER=no-such-sanitizer configured"
elif grep -q "BOXLINT_SANITIZER=no-such-sanitizer: the C compiler" <<<"$(tr -s ' \n' '  ' <"$log")"; then
  pass
else
  fail "BOXLINT_SANITIZER=no-such-sanitizer: no message naming the option"
  tail -5 "$log"
fi

# ---- 3. builds -------------------------------------------------------------------------------
jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -gt 2 ] && jobs=2
# build NAME CC OPTIONS...: configure and build a tree of its own.
build() {
  local name=$1 cc=$2
  shift 2
  local dir="$work/build-$name"
  if ! configure "$cc" "$dir" "$work/build-$name.log" "$@"; then
    fail "$name: configure failed"
    tail -5 "$work/build-$name.log"
    return 1
  fi
  if ! cmake --build "$dir" -j "$jobs" >>"$work/build-$name.log" 2>&1; then
    fail "$name: build failed"
    grep -E 'error|undefined reference' "$work/build-$name.log" | head -10
    return 1
  fi
  pass
  echo "built: $name ($cc $*)"
}

if build fuzzers clang -DBOXLINT_BUILD_FUZZERS=ON -DBOXLINT_WERROR=ON; then
  d="$work/build-fuzzers"
  for t in commands fragment base policy_compile policy_decide config template python; do
    if [ -x "$d/fuzz/${t}_fuzzer" ] && "$d/fuzz/${t}_fuzzer" -runs=50 >"$work/run-$t.log" 2>&1 &&
       grep -q "Done 50 runs" "$work/run-$t.log"; then
      pass
    else
      fail "the ${t} fuzzer does not run"
      tail -3 "$work/run-$t.log"
    fi
  done
  out=$("$d/cli/boxlint" --no-color -c 'pip install x' 2>&1)
  if [ $? -eq 1 ] && grep -q 'did you forget RUN?' <<<"$out"; then pass; else fail "the command of the fuzz build: $out"; fi
  for x in tests/unit/check_rules bench/bench_check; do
    if [ -x "$d/$x" ]; then pass; else fail "the fuzz build has no $x"; fi
  done
fi
build library gcc -DBOXLINT_BUILD_CLI=OFF -DBOXLINT_BUILD_TESTS=OFF -DBOXLINT_BUILD_BENCH=OFF \
  -DBOXLINT_INSTALL=OFF -DBOXLINT_WERROR=ON
build tests-without-cli gcc -DBOXLINT_BUILD_CLI=OFF -DBOXLINT_BUILD_BENCH=OFF -DBOXLINT_WERROR=ON

echo "cmake options: $passes passed, $fails failed"
[ $fails -eq 0 ]

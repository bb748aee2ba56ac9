#!/bin/sh
# ctest tsan_shared_objects and tsan_parallel_walk: configure and build tests/tsan/ (the
# library's objects, the command and the test, with -fsanitize=thread) in BUILD_DIR with the C
# compiler CC, then run one test. TEST "shared" (the default): 8 threads sharing one config and
# one policy made with an allocator that is not thread-safe; fails on any ThreadSanitizer report
# or any call of that allocator during shared use. TEST "walk": the command's parallel walk
# (walk_test.py: -j 4 against -j 1 on a generated tree, every format); fails on any report or
# any difference. Exit 77 (skipped), saying why, when CC cannot build or run a ThreadSanitizer
# program. The two share BUILD_DIR (ctest runs them one at a time: RESOURCE_LOCK).
# Usage: run.sh SOURCE_DIR BUILD_DIR CC VERSION [shared|walk [PYTHON]]
set -u
SRC=$1 BUILD=$2 CC=$3 VERSION=$4 TEST=${5:-shared} PYTHON=${6:-python3}
mkdir -p "$BUILD/probe" || exit 1
cat > "$BUILD/probe/probe.c" <<'C'
#include <pthread.h>
static int x;
static void *f(void *a) { (void)a; return &x; }
int main(void) { pthread_t t; if (pthread_create(&t, 0, f, 0)) return 1; return pthread_join(t, 0); }
C
if ! "$CC" -fsanitize=thread -pthread "$BUILD/probe/probe.c" -o "$BUILD/probe/probe" \
    > "$BUILD/probe/log" 2>&1; then
  echo "SKIPPED: $CC cannot build a program with -fsanitize=thread (on Debian: gcc's libtsan"
  echo "or clang's libclang-rt-dev):"; sed 's/^/  /' "$BUILD/probe/log"; exit 77
fi
# Kernels with more address-space randomisation than older TSan runtimes expect stop them with
# "unexpected memory mapping"; without randomisation (setarch -R) they run.
RUN=""
if ! "$BUILD/probe/probe" > "$BUILD/probe/log" 2>&1; then
  if setarch "$(uname -m)" -R "$BUILD/probe/probe" > /dev/null 2>&1; then
    RUN="setarch $(uname -m) -R"
  else
    echo "SKIPPED: a ThreadSanitizer program built by $CC does not run here:"
    sed 's/^/  /' "$BUILD/probe/log"; exit 77
  fi
fi
JOBS=$(nproc 2>/dev/null || echo 2)
cmake -S "$SRC/tests/tsan" -B "$BUILD" -DCMAKE_C_COMPILER="$CC" -DCMAKE_BUILD_TYPE= \
  -DBOXLINT_ROOT="$SRC" -DBOXLINT_VERSION="$VERSION" > "$BUILD/configure.log" 2>&1 ||
  { cat "$BUILD/configure.log"; exit 1; }
TARGET=tsan_shared_objects
[ "$TEST" = walk ] && TARGET=boxlint_cli
cmake --build "$BUILD" --target $TARGET -j "$JOBS" > "$BUILD/build.log" 2>&1 ||
  { cat "$BUILD/build.log"; exit 1; }
echo "built with $CC -fsanitize=thread${RUN:+ (run under $RUN)}"
if [ "$TEST" = walk ]; then
  BOXLINT_TSAN_RUN="$RUN" "$PYTHON" "$SRC/tests/tsan/walk_test.py" "$BUILD/cli/boxlint"
  exit $?
fi
TSAN_OPTIONS="halt_on_error=0 exitcode=66 ${TSAN_OPTIONS:-}" $RUN "$BUILD/tsan_shared_objects"
rc=$?
[ $rc -eq 0 ] && echo "ThreadSanitizer: no report" || echo "tsan_shared_objects: exit $rc"
exit $rc

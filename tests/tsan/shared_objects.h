/* tests/tsan/shared_objects.h: the threading contract of boxlint.h with an allocator that is
 * not thread-safe. One compiled config (built-in warnings and user rules: PCRE2 patterns) and
 * one compiled policy are made by the main thread with a bump arena whose counter is a plain
 * variable and which records the thread that made it; N threads then share them, each with its
 * own report and its own allocator, checking commands and a Python file, deciding and emitting
 * many times. Each result is compared with the one the main thread computed before the threads
 * started, and every call of the shared objects' allocator is counted: from another thread, or
 * at all while the threads run. Used by tsan_shared_objects.c (built with -fsanitize=thread)
 * and by tests/unit/check_shared_alloc.c (the normal suite, without TSan). */
#ifndef BOXLINT_TEST_SHARED_OBJECTS_H
#define BOXLINT_TEST_SHARED_OBJECTS_H

#include <stddef.h>
#include <stdio.h>

typedef struct shared_result {
  long arena_calls_other_thread; /* the shared objects' allocator called by another thread */
  long arena_calls_while_shared; /* ... or called at all while the threads shared them */
  long own_calls_other_thread;   /* a thread's own allocator called by another thread */
  long mismatches;               /* results unlike the single-threaded reference */
  long failures;                 /* a call that did not return BOXLINT_OK; set-up failures */
  long own_calls;                /* calls of the threads' own allocators, all threads */
  size_t arena_used;             /* bytes the shared objects took from the arena */
  int threads, iterations;
} shared_result;

/* Run it: `nthreads` threads, `iters` rounds each. `refuse_other_threads`: the arena returns
 * NULL to a thread that did not make it (a clean failure without TSan) instead of bumping its
 * unsynchronised counter (which TSan reports as a race). Returns 0 when every count but
 * own_calls and arena_used is 0. */
int shared_objects_run(int nthreads, int iters, int refuse_other_threads, shared_result *res);

/* The counts, one per line. */
void shared_result_print(const shared_result *res, FILE *f);

#endif

/* tests/support/failing_alloc.h: the one failing allocator of the Check suites (tests/unit/).
 *
 *   failer f = {.left = n};              allocations 0..n-1 succeed, every one after fails
 *   failer f = {.left = n, .once = 1};   only allocation number n fails
 *   failer f = {.left = -1};             never fails (counts only)
 *   boxlint_alloc a = failer_alloc(&f);
 *
 * `left` may be changed between calls (f.left = 0: everything fails from now on). The counts
 * say what happened: `failed` that an allocation was refused (so an OK after it is a swallowed
 * failure), `calls` the attempts (malloc and realloc), `live` the blocks not yet freed (0 when
 * nothing leaked, by the allocator's own count, whatever ASan says). */
#ifndef BOXLINT_TESTS_FAILING_ALLOC_H
#define BOXLINT_TESTS_FAILING_ALLOC_H

#include <stdlib.h>
#include "boxlint/alloc.h"

typedef struct failer {
  long left;   /* allocations still allowed (-1: no limit); with `once`, the one to refuse */
  int once;    /* refuse only allocation number `left`, then succeed again */
  int failed;  /* an allocation was refused */
  long calls;  /* allocation attempts */
  long live;   /* blocks not yet freed */
} failer;

/* Whether this attempt is refused; counts it. */
static inline int failer_refuses(failer *f) {
  f->calls++;
  if (f->once) {
    if (f->left-- == 0) {
      f->failed = 1;
      return 1;
    }
    return 0;
  }
  if (f->left < 0) return 0;
  if (f->left == 0) {
    f->failed = 1;
    return 1;
  }
  f->left--;
  return 0;
}

static inline void *failer_malloc(void *ctx, size_t n) {
  failer *f = ctx;
  if (failer_refuses(f)) return NULL;
  void *p = malloc(n ? n : 1);
  if (p) f->live++;
  return p;
}

static inline void *failer_realloc(void *ctx, void *p, size_t old, size_t n) {
  failer *f = ctx;
  (void)old;
  if (failer_refuses(f)) return NULL;
  void *q = realloc(p, n ? n : 1);
  if (q && !p) f->live++;
  return q;
}

static inline void failer_free(void *ctx, void *p) {
  failer *f = ctx;
  if (p) f->live--;
  free(p);
}

/* The boxlint_alloc that allocates through `f`. */
static inline boxlint_alloc failer_alloc(failer *f) {
  boxlint_alloc a = {failer_malloc, failer_realloc, failer_free, f};
  return a;
}

#endif

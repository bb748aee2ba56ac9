/* Test helper: copy an input so that it ends right before an unreadable page, read-only, so
 * that a one-byte over-read or any write crashes (picohttpparser's trick). */
#ifndef BOXLINT_TESTS_GUARD_PAGE_H
#define BOXLINT_TESTS_GUARD_PAGE_H
#include <check.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct guarded {
  char *p;     /* the copy: p[n] is on the PROT_NONE page */
  void *base;
  size_t maplen;
} guarded;

static inline guarded guard(const char *src, size_t n) {
  long pg = sysconf(_SC_PAGESIZE);
  ck_assert(pg > 0);
  size_t page = (size_t)pg;
  size_t data = (n + page - 1) / page * page;
  if (data == 0) data = page;
  guarded g;
  g.maplen = data + page;
  g.base = mmap(NULL, g.maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert(g.base != MAP_FAILED);
  char *guard_page = (char *)g.base + data;
  ck_assert_int_eq(mprotect(guard_page, page, PROT_NONE), 0);
  g.p = guard_page - n;
  if (n) memcpy(g.p, src, n);
  ck_assert_int_eq(mprotect(g.base, data, PROT_READ), 0); /* and read-only: never written */
  return g;
}

static inline void unguard(guarded *g) { munmap(g->base, g->maplen); }

#endif

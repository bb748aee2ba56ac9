/* Allocator plumbing and the report's arena. */
#include <stdlib.h>
#include <string.h>
#include "report/internal.h"

static void *libc_malloc(void *ctx, size_t n) {
  (void)ctx;
  return malloc(n ? n : 1);
}
static void *libc_realloc(void *ctx, void *p, size_t old_n, size_t n) {
  (void)ctx;
  (void)old_n;
  return realloc(p, n ? n : 1);
}
static void libc_free(void *ctx, void *p) {
  (void)ctx;
  free(p);
}

void boxlint__mem_init(boxlint__mem *m, const boxlint_alloc *alloc) {
  if (alloc && alloc->malloc && alloc->realloc && alloc->free) {
    m->a = *alloc;
  } else {
    m->a.malloc = libc_malloc;
    m->a.realloc = libc_realloc;
    m->a.free = libc_free;
    m->a.ctx = NULL;
  }
}

void *boxlint__malloc(const boxlint__mem *m, size_t n) { return m->a.malloc(m->a.ctx, n); }
void *boxlint__realloc(const boxlint__mem *m, void *p, size_t old_n, size_t n) {
  if (!p) return m->a.malloc(m->a.ctx, n);
  return m->a.realloc(m->a.ctx, p, old_n, n);
}
void boxlint__free(const boxlint__mem *m, void *p) {
  if (p) m->a.free(m->a.ctx, p);
}

struct boxlint__chunk {
  boxlint__chunk *next;
  size_t cap, used;
  /* data follows, max-aligned */
};

#define CHUNK_HDR ((sizeof(boxlint__chunk) + 15u) & ~(size_t)15u)
#define CHUNK_MIN 8192u

void *boxlint__arena_alloc(boxlint__arena *ar, const boxlint__mem *m, size_t n) {
  size_t need = (n + 15u) & ~(size_t)15u;
  if (need < n) return NULL; /* overflow */
  /* Use the current chunk, else a later (kept) chunk that fits, else a new one. */
  while (ar->cur) {
    if (ar->cur->cap - ar->cur->used >= need) {
      void *p = (char *)ar->cur + CHUNK_HDR + ar->cur->used;
      ar->cur->used += need;
      return p;
    }
    if (!ar->cur->next) break;
    ar->cur = ar->cur->next;
  }
  size_t cap = need > CHUNK_MIN ? need : CHUNK_MIN;
  if (ar->cur && ar->cur->cap * 2 > cap && ar->cur->cap * 2 > ar->cur->cap) cap = ar->cur->cap * 2;
  if (cap > SIZE_MAX - CHUNK_HDR) return NULL;
  boxlint__chunk *c = boxlint__malloc(m, CHUNK_HDR + cap);
  if (!c) return NULL;
  c->next = NULL;
  c->cap = cap;
  c->used = need;
  if (ar->cur)
    ar->cur->next = c;
  else
    ar->head = c;
  ar->cur = c;
  return (char *)c + CHUNK_HDR;
}

void boxlint__arena_reset(boxlint__arena *ar) {
  for (boxlint__chunk *c = ar->head; c; c = c->next) c->used = 0;
  ar->cur = ar->head;
}

void boxlint__arena_free(boxlint__arena *ar, const boxlint__mem *m) {
  boxlint__chunk *c = ar->head;
  while (c) {
    boxlint__chunk *next = c->next;
    boxlint__free(m, c);
    c = next;
  }
  ar->head = ar->cur = NULL;
}

int boxlint__ieq(const char *a, size_t an, const char *b) {
  size_t i = 0;
  for (; i < an; i++) {
    if (!b[i] || boxlint__lower((unsigned char)a[i]) != boxlint__lower((unsigned char)b[i]))
      return 0;
  }
  return b[i] == 0;
}

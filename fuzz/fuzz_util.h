/* Helpers shared by the fuzz targets (fuzz/<target>_fuzzer.c). Header-only and static: each
 * target still defines nothing but LLVMFuzzerTestOneInput.
 *
 * An oracle failure prints what disagreed and calls abort(), which libFuzzer and the standalone
 * driver both report as a crash with the input saved. */
#ifndef boxlint_FUZZ_UTIL_H
#define boxlint_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxlint/boxlint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The separator of the pieces (commands, fields) of an input: 0xFF never occurs in valid
 * UTF-8, so seeds stay readable and only one byte value is lost to the commands. */
#define FZ_SEP 0xFFu

/* Cut [p, p + n) at every `sep` into at most `max` spans; the last span takes the rest. Returns
 * the number of spans (at least 1, possibly empty). */
static inline size_t fz_cut(const uint8_t *p, size_t n, uint8_t sep, boxlint_span *out,
                            size_t max) {
  size_t k = 0, s = 0;
  for (size_t i = 0; i < n && k + 1 < max; i++) {
    if (p[i] != sep) continue;
    out[k].ptr = (const char *)p + s;
    out[k].len = i - s;
    k++;
    s = i + 1;
  }
  out[k].ptr = (const char *)p + s;
  out[k].len = n - s;
  return k + 1;
}

static inline void fz_fail(const char *what) {
  fprintf(stderr, "boxlint fuzz oracle: %s\n", what);
  fflush(stderr);
  abort();
}

#define FZ_ASSERT(cond)                                                                        \
  do {                                                                                         \
    if (!(cond)) fz_fail(__FILE__ ": " #cond);                                                 \
  } while (0)

/* Print the report (for an oracle failure's context). */
static inline void fz_dump(const boxlint_report *r, const char *title) {
  fprintf(stderr, "-- %s: %zu diagnostics, %zu instructions\n", title,
          boxlint_report_diag_count(r), boxlint_report_instruction_count(r));
  for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
    const boxlint_diag *d = boxlint_report_diag(r, i);
    fprintf(stderr, "  [%d] %s %s %u:%u @%zu-%zu %s\n", (int)d->command,
            boxlint_severity_str(d->severity), d->rule, d->line, d->column, d->offset,
            d->end_offset, d->message);
  }
  for (size_t i = 0; i < boxlint_report_instruction_count(r); i++) {
    const boxlint_instruction *in = boxlint_report_instruction(r, i);
    fprintf(stderr, "  #%zu %s trigger %s lines %u-%u bytes %zu-%zu\n", i,
            boxlint_keyword_name(in->keyword), boxlint_keyword_name(in->trigger), in->line,
            in->end_line, in->offset, in->end_offset);
  }
}

/* Touch every byte of a NUL-terminated string (ASan catches a dangling pointer). */
static inline size_t fz_touch(const char *s) { return s ? strlen(s) : 0; }

static inline size_t fz_touch_span(boxlint_span s) {
  size_t h = 0;
  for (size_t i = 0; i < s.len; i++) h += (unsigned char)s.ptr[i];
  return h;
}

/* The contract of every diagnostic: a rule id, a message, a severity that is on, an end not
 * before the start; with `limit` (a byte length, or SIZE_MAX when unknown) the range and the
 * fix stay inside the input. Returns a checksum so that the reads are not optimised away. */
static inline size_t fz_check_diag(const boxlint_diag *d, size_t limit) {
  FZ_ASSERT(d != NULL);
  FZ_ASSERT(d->rule != NULL && d->rule[0] != 0);
  FZ_ASSERT(d->message != NULL);
  FZ_ASSERT(d->severity >= BOXLINT_SEVERITY_INFO && d->severity <= BOXLINT_SEVERITY_ERROR);
  FZ_ASSERT(d->offset <= d->end_offset);
  size_t h = fz_touch(d->rule) + fz_touch(d->message) + fz_touch(d->hint) + fz_touch(d->path) +
             fz_touch(d->detail);
  if (limit != SIZE_MAX) FZ_ASSERT(d->end_offset <= limit);
  if (d->fix) {
    FZ_ASSERT(d->fix->text != NULL && d->fix->description != NULL);
    FZ_ASSERT(strlen(d->fix->text) == d->fix->text_len);
    h += fz_touch(d->fix->description);
    if (limit != SIZE_MAX) FZ_ASSERT(d->fix->offset + d->fix->length <= limit);
  }
  return h;
}

/* The contract of an instruction: spans readable, byte range ordered, inside `limit`. */
static inline size_t fz_check_instruction(const boxlint_instruction *in, size_t limit) {
  FZ_ASSERT(in != NULL);
  FZ_ASSERT(in->offset <= in->end_offset && in->end_offset <= limit);
  FZ_ASSERT(in->line <= in->end_line);
  size_t h = fz_touch_span(in->keyword_text) + fz_touch_span(in->text) +
             fz_touch_span(in->logical) + fz_touch_span(in->args) + fz_touch(boxlint_keyword_name(in->keyword));
  for (size_t i = 0; i < in->nflags; i++) h += fz_touch_span(in->flags[i]);
  for (size_t i = 0; i < in->nheredocs; i++) {
    /* A body is a span of the instruction's own bytes (the input), even when empty. */
    const boxlint_span b = in->heredocs[i].body;
    FZ_ASSERT(b.ptr != NULL && b.ptr >= in->text.ptr &&
              b.ptr + b.len <= in->text.ptr + in->text.len);
    h += fz_touch_span(in->heredocs[i].name) + fz_touch_span(b);
  }
  return h;
}

static inline int fz_denied(boxlint_keyword k) {
  return k == BOXLINT_KW_FROM || k == BOXLINT_KW_COPY || k == BOXLINT_KW_ADD ||
         k == BOXLINT_KW_CMD || k == BOXLINT_KW_ENTRYPOINT;
}

/* 1 when `rule` is one of the built-in errors of docs/design.md §2.1 (no config lowers them). */
static inline int fz_builtin_error(const char *rule) {
  const boxlint_rule_info *ri = boxlint_rule_find(rule, strlen(rule));
  return ri && ri->severity == BOXLINT_SEVERITY_ERROR;
}

/* An allocator that fails every call after the first `left` (the out-of-memory paths: nothing
 * may leak, crash or be left half-initialised). Frees stay libc's. */
typedef struct fz_failer {
  size_t left;
} fz_failer;

static inline void *fz_f_malloc(void *ctx, size_t n) {
  fz_failer *f = ctx;
  if (!f->left) return NULL;
  f->left--;
  return malloc(n ? n : 1);
}
static inline void *fz_f_realloc(void *ctx, void *p, size_t old_n, size_t n) {
  fz_failer *f = ctx;
  (void)old_n;
  if (!f->left) return NULL;
  f->left--;
  return realloc(p, n ? n : 1);
}
static inline void fz_f_free(void *ctx, void *p) {
  (void)ctx;
  free(p);
}
static inline boxlint_alloc fz_failing(fz_failer *f, const uint8_t *data, size_t size) {
  /* The last byte picks the number of allocations that succeed (0-63). */
  f->left = size ? data[size - 1] % 64u : 0;
  boxlint_alloc a = {fz_f_malloc, fz_f_realloc, fz_f_free, f};
  return a;
}

/* A growable byte buffer for joining commands. */
typedef struct fz_buf {
  char *p;
  size_t len, cap;
} fz_buf;

static inline void fz_put(fz_buf *b, const void *p, size_t n) {
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n) cap *= 2;
    char *q = realloc(b->p, cap);
    if (!q) fz_fail("out of memory in the harness");
    b->p = q;
    b->cap = cap;
  }
  if (n) memcpy(b->p + b->len, p, n);
  b->len += n;
}

#endif

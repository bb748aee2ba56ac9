/* Private to the library: the report's layout, its arena, and helpers shared across files.
 * Cross-file internals are named boxlint__<name>. */
#ifndef boxlint_INTERNAL_H
#define boxlint_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "boxlint/boxlint.h"

#if defined(__GNUC__)
#define BOXLINT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define BOXLINT_PRINTF(f, a)
#endif

/* Allocation through a resolved allocator (never NULL members). */
typedef struct boxlint__mem {
  boxlint_alloc a;
} boxlint__mem;

void boxlint__mem_init(boxlint__mem *m, const boxlint_alloc *alloc);
void *boxlint__malloc(const boxlint__mem *m, size_t n);
void *boxlint__realloc(const boxlint__mem *m, void *p, size_t old_n, size_t n);
void boxlint__free(const boxlint__mem *m, void *p);

/* A chunked bump allocator: pointers stay valid until the arena is reset. */
typedef struct boxlint__chunk boxlint__chunk;
typedef struct boxlint__arena {
  boxlint__chunk *head, *cur;
} boxlint__arena;

void *boxlint__arena_alloc(boxlint__arena *ar, const boxlint__mem *m, size_t n);
void boxlint__arena_reset(boxlint__arena *ar);
void boxlint__arena_free(boxlint__arena *ar, const boxlint__mem *m);

struct boxlint_report {
  boxlint__mem mem;
  boxlint__arena arena;
  boxlint__arena tmp; /* one instruction's scratch (the warnings' shell words): reset per
                         instruction, so that it does not grow with the input */
  boxlint_diag *diags;
  size_t ndiags, cap_diags;
  boxlint_instruction *instrs;
  size_t ninstrs, cap_instrs;
  int oom; /* an allocation failed since the last clear */
  void *scratch; /* the checker's buffers, kept warm between calls (lint/check.c) */
  void (*scratch_free)(boxlint_report *r); /* set by the scratch's owner, which frees it */
};

/* Index of the first NetworkPolicy rule in boxlint_rules() (rules.c). */
size_t boxlint__rules_policy_first(void);


/* Arena helpers on a report. All return NULL (and set report->oom) on failure. */
void *boxlint__ralloc(boxlint_report *r, size_t n);
char *boxlint__rstrdup(boxlint_report *r, const char *p, size_t n);
/* The same in the report's scratch arena (valid until boxlint__rtmp_reset). */
void *boxlint__rtmp(boxlint_report *r, size_t n);
char *boxlint__rtmpdup(boxlint_report *r, const char *p, size_t n);
void boxlint__rtmp_reset(boxlint_report *r);
const char *boxlint__rprintf(boxlint_report *r, const char *fmt, ...) BOXLINT_PRINTF(2, 3);
/* A diagnostic's message: boxlint__rprintf, but "" when out of memory (r->oom is then set), so
 * that a report returned with BOXLINT_ENOMEM still holds only well-formed diagnostics. */
const char *boxlint__rmsg(boxlint_report *r, const char *fmt, ...) BOXLINT_PRINTF(2, 3);
const char *boxlint__rvprintf(boxlint_report *r, const char *fmt, va_list ap);

/* Append a diagnostic with the given rule (static id), severity and command; the caller fills
 * the rest. Returns NULL on OOM. Positions default to 0. */
boxlint_diag *boxlint__report_add(boxlint_report *r, const char *rule, boxlint_severity sev,
                                  int32_t command);
/* Attach a fix to `d`. */
void boxlint__diag_fix(boxlint_report *r, boxlint_diag *d, size_t offset, size_t length,
                       const char *text, size_t text_len, const char *description);
/* Mark d's fix (if it has one) as `safety`: a fix that changes what the input does is unsafe
 * (boxlint_fix_safety); boxlint__diag_fix attaches a safe one. */
void boxlint__diag_fix_safety(boxlint_diag *d, boxlint_fix_safety safety);
/* Reserve a new instruction slot (zeroed); NULL on OOM. */
boxlint_instruction *boxlint__report_add_instruction(boxlint_report *r); /* zeroed */
boxlint_instruction *boxlint__report_push_instruction(boxlint_report *r); /* the caller fills it */
/* Sort diagnostics [from, ndiags) by command then offset (stable). */
void boxlint__report_sort(boxlint_report *r, size_t from);

/* Printable, length-limited rendering of user text for messages: control bytes become \xNN
 * (\n, \r, \t spelled so), at most `max_cp` code points then "...". Into the report's arena. */
const char *boxlint__quote(boxlint_report *r, const char *p, size_t n, size_t max_cp);

/* ASCII helpers (locale-independent). */
static inline int boxlint__is_alpha(unsigned char c) {
  return (unsigned char)((c | 0x20) - 'a') < 26;
}
static inline int boxlint__is_digit(unsigned char c) { return (unsigned char)(c - '0') < 10; }
static inline unsigned char boxlint__lower(unsigned char c) {
  return (unsigned char)((unsigned char)(c - 'A') < 26 ? c | 0x20 : c);
}
int boxlint__ieq(const char *a, size_t an, const char *b); /* ASCII case-insensitive, b NUL-term */

/* FNV-1a of s[0..n): the hash of the name and rule-id tables. */
static inline size_t boxlint__fnv1a(const void *s, size_t n) {
  const unsigned char *p = s;
  size_t h = (size_t)1469598103934665603u; /* truncated where size_t is 32 bits */
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211u;
  return h;
}

/* Length of the valid UTF-8 sequence at p[0..n) (1-4), storing its code point, or 0 when the
 * bytes there are not valid UTF-8 (overlong, surrogate, > U+10FFFF, truncated). */
static inline size_t boxlint__utf8_decode(const unsigned char *p, size_t n, uint32_t *cp) {
  unsigned char c = p[0];
  if (c < 0x80) { *cp = c; return 1; }
  size_t len;
  uint32_t v, min;
  if (c >= 0xC2 && c <= 0xDF) { len = 2; v = c & 0x1Fu; min = 0x80; }
  else if (c >= 0xE0 && c <= 0xEF) { len = 3; v = c & 0x0Fu; min = 0x800; }
  else if (c >= 0xF0 && c <= 0xF4) { len = 4; v = c & 0x07u; min = 0x10000; }
  else return 0;
  if (n < len) return 0;
  for (size_t i = 1; i < len; i++) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    v = (v << 6) | (p[i] & 0x3Fu);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *cp = v;
  return len;
}

/* Code point `cp` as UTF-8 into out[0..4), returning the length (1-4). Every code point is
 * written by the same arithmetic, a surrogate as its three-byte form (not valid UTF-8: callers
 * that must not make one check first). The one UTF-8 encoder of the library. */
static inline size_t boxlint__utf8_encode(uint32_t cp, char out[4]) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* Edit distance (Levenshtein: insertions, deletions and substitutions of one unit, each costing
 * 1) between a[0..an) and b[0..bn), capped: min(distance, limit), given up as soon as it cannot
 * be under `limit`. Units are bytes, or with BL_EDIT_RUNES code points (a byte that is not valid
 * UTF-8 is one unit, U+FFFD, as Go's []rune(s) reads it); BL_EDIT_FOLD compares ASCII letters
 * case-blind (other code points as they are). `b` is a word of a fixed vocabulary: one of more
 * than BL_EDIT_MAX units gives `limit`. The one edit distance of the library (text.c): the
 * keyword and flag hints (BuildKit's: unit costs over code points), the field-name hints and
 * boxlint_nearest_word. */
enum { BL_EDIT_RUNES = 1, BL_EDIT_FOLD = 2, BL_EDIT_MAX = 255 };
size_t boxlint__edit_distance(const char *a, size_t an, const char *b, size_t bn, unsigned mode,
                              size_t limit);

#endif

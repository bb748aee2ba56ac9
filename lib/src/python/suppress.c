/* Suppression comments applied to a Python file's findings, and the findings put in file order
 * with their lines and columns: both linear (or n log n) in the findings and the comments, where
 * the obvious loops are quadratic. Calls report/ only. */
#include <stdlib.h>
#include <string.h>
#include "python/python_int.h"
#include "report/emit.h"
#include "boxlint/diag.h"

/* The next rule id of a suppression's list from *i (ids separated by commas): 1 with [*a, *b). */
static int next_id(const char *s, const bl_pysup *p, size_t *i, size_t *a, size_t *b) {
  while (*i < p->ids_end && s[*i] == ',') (*i)++;
  if (*i >= p->ids_end) return 0;
  *a = *i;
  while (*i < p->ids_end && s[*i] != ',') (*i)++;
  *b = *i;
  return 1;
}

static int unused(boxlint_report *r, const bl_pyreader *rd, size_t a, size_t b) {
  const char *s = rd->s;
  boxlint_diag *d = boxlint__report_add(r, BL_R_UNUSED_SUPPRESSION, BOXLINT_SEVERITY_WARNING, -1);
  if (!d) return -1;
  d->offset = a;
  d->end_offset = b;
  const char *q = boxlint__quote(r, s + a, b - a, 60);
  const boxlint_rule_info *ri = boxlint_rule_find(s + a, b - a);
  if (ri && ri->severity == BOXLINT_SEVERITY_ERROR)
    d->message = boxlint__rmsg(r, "%s is an error and cannot be suppressed", q ? q : "");
  else if (b - a == sizeof BL_R_NOT_STATIC - 1 && !memcmp(s + a, BL_R_NOT_STATIC, b - a))
    d->message = boxlint__rmsg(r, "not-static cannot be suppressed inline: it is the only sign "
                               "that a value went unchecked (a config may turn it off for a "
                               "project)");
  else
    d->message = boxlint__rmsg(r, "the suppression of %s suppresses nothing on the line it "
                               "applies to", q ? q : "");
  d->hint = boxlint__rprintf(r, "remove %s from the boxlint ignore comment", q ? q : "");
  return r->oom ? -1 : 0;
}

/* At most this many rule ids in one comment (there are far fewer rules). */
#define MAX_SUPPRESS_IDS 256

/* The ids of one comment, hashed: [a, b) of the source, and whether one silenced a finding. */
typedef struct sup_id { size_t a, b; int used; } sup_id;

static sup_id *id_find(sup_id *t, size_t mask, const char *s, const char *w, size_t wl) {
  for (size_t h = boxlint__fnv1a(w, wl) & mask;; h = (h + 1) & mask)
    if (t[h].b == 0 || (t[h].b - t[h].a == wl && !memcmp(s + t[h].a, w, wl))) return &t[h];
}

/* One comment over the findings [lo, hi) of its line: each listed rule silences that rule's
 * warnings and infos there (errors and not-static never); `gone` marks them. Linear in the
 * comment's size and the line's findings. */
static int suppress_one(boxlint_report *r, const bl_pyreader *rd, const bl_pysup *p, size_t lo,
                        size_t hi, unsigned char *gone, size_t first) {
  const char *s = rd->s;
  size_t n = 0, i = p->ids, a, b;
  while (next_id(s, p, &i, &a, &b)) n++;
  if (n > MAX_SUPPRESS_IDS) { /* a documented limit: the comment silences nothing */
    boxlint_diag *d = boxlint__report_add(r, BL_R_UNUSED_SUPPRESSION, BOXLINT_SEVERITY_WARNING, -1);
    if (!d) return -1;
    d->offset = p->ids;
    d->end_offset = p->ids_end;
    d->message = boxlint__rmsg(r, "a boxlint ignore comment lists %zu rule ids, more than the "
                               "%d it may: it suppresses nothing", n, MAX_SUPPRESS_IDS);
    d->hint = "list only the rules this line needs silenced";
    return r->oom ? -1 : 0;
  }
  size_t cap = 16;
  while (cap < n * 2) cap *= 2;
  sup_id *t = boxlint__malloc(&r->mem, cap * sizeof *t);
  if (!t) return -1;
  memset(t, 0, cap * sizeof *t);
  for (i = p->ids; next_id(s, p, &i, &a, &b);) {
    sup_id *e = id_find(t, cap - 1, s, s + a, b - a);
    if (!e->b) *e = (sup_id){a, b, 0};
  }
  for (size_t j = lo; j < hi; j++) {
    const boxlint_diag *d = &r->diags[j];
    if (d->severity >= BOXLINT_SEVERITY_ERROR || !strcmp(d->rule, BL_R_NOT_STATIC)) continue;
    sup_id *e = id_find(t, cap - 1, s, d->rule, strlen(d->rule));
    if (e->b) {
      e->used = 1;
      gone[j - first] = 1;
    }
  }
  int rc = 0;
  for (i = p->ids; !rc && next_id(s, p, &i, &a, &b);) {
    sup_id *e = id_find(t, cap - 1, s, s + a, b - a);
    if (!e->used && e->a == a) rc = unused(r, rd, a, b);
    else if (e->a != a && unused(r, rd, a, b)) rc = -1; /* listed twice */
  }
  boxlint__free(&r->mem, t);
  return rc;
}

/* Suppressions: the findings [first, end) sorted by line; each comment's line (its own, or the
 * next when it stands alone) found by one walk, since comments come in line order. */
int bl_py_suppress(boxlint_report *r, size_t first, const bl_pyreader *rd) {
  size_t end = r->ndiags, j = first;
  if (!rd->nsups) return 0;
  unsigned char *gone = boxlint__malloc(&r->mem, end - first + 1);
  if (!gone) return -1;
  memset(gone, 0, end - first + 1);
  for (size_t x = 0; x < rd->nsups; x++) {
    const bl_pysup *p = &rd->sups[x];
    while (j < end && r->diags[j].line < p->line) j++;
    size_t e = j;
    while (e < end && r->diags[e].line == p->line) e++;
    if (suppress_one(r, rd, p, j, e, gone, first)) {
      boxlint__free(&r->mem, gone);
      return -1;
    }
  }
  size_t w = first;
  for (size_t x = first; x < r->ndiags; x++)
    if (x >= end || !gone[x - first]) r->diags[w++] = r->diags[x];
  r->ndiags = w;
  boxlint__free(&r->mem, gone);
  return 0;
}

/* A position to fill: a byte offset and where its line and column go. */
typedef struct pos_slot { size_t off; uint32_t *line, *col; } pos_slot;
typedef struct ord_key { size_t off, i; } ord_key;

static int by_key(const void *x, const void *y) {
  const ord_key *a = x, *b = y;
  return a->off < b->off ? -1 : a->off > b->off ? 1 : a->i < b->i ? -1 : a->i > b->i;
}

static int by_slot(const void *x, const void *y) {
  const pos_slot *a = x, *b = y;
  return a->off < b->off ? -1 : a->off > b->off;
}

/* Findings [first, end) in file order (stable), then every line and column in one sweep over the
 * text: O(n + k log k) for k findings, where a position computed from the start for each would
 * be quadratic. */
int bl_py_order_and_place(boxlint_report *r, size_t first, const char *s, size_t n) {
  size_t k = r->ndiags - first;
  if (!k) return 0;
  ord_key *key = boxlint__malloc(&r->mem, k * sizeof *key);
  boxlint_diag *tmp = boxlint__malloc(&r->mem, k * sizeof *tmp);
  pos_slot *ps = boxlint__malloc(&r->mem, 2 * k * sizeof *ps);
  int rc = key && tmp && ps ? 0 : -1;
  if (!rc) {
    for (size_t i = 0; i < k; i++) key[i] = (ord_key){r->diags[first + i].offset, i};
    qsort(key, k, sizeof *key, by_key);
    for (size_t i = 0; i < k; i++) tmp[i] = r->diags[first + key[i].i];
    memcpy(r->diags + first, tmp, k * sizeof *tmp);
    for (size_t i = 0; i < k; i++) {
      boxlint_diag *d = &r->diags[first + i];
      ps[2 * i] = (pos_slot){d->offset, &d->line, &d->column};
      ps[2 * i + 1] = (pos_slot){d->end_offset, &d->end_line, &d->end_column};
    }
    qsort(ps, 2 * k, sizeof *ps, by_slot);
    uint32_t line = 1, col = 1;
    size_t at = n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3) ? 3 : 0;
    int cr = memchr(s, '\r', n) != NULL;
    for (size_t i = 0; i < 2 * k; i++) {
      size_t off = ps[i].off > n ? n : ps[i].off;
      if (!cr) { /* whole lines at memchr's pace, then the columns of the last one */
        for (const char *p; at < off && (p = memchr(s + at, '\n', off - at)) != NULL;) {
          line++;
          col = 1;
          at = (size_t)(p - s) + 1;
        }
      }
      for (; at < off; at++) {
        unsigned char b = (unsigned char)s[at];
        if (b == '\n' || (b == '\r' && (at + 1 >= n || s[at + 1] != '\n'))) {
          line++;
          col = 1;
        } else if (b != '\r' && (b & 0xC0) != 0x80) {
          col++;
        }
      }
      *ps[i].line = line;
      *ps[i].col = col;
    }
  }
  boxlint__free(&r->mem, key);
  boxlint__free(&r->mem, tmp);
  boxlint__free(&r->mem, ps);
  return rc;
}


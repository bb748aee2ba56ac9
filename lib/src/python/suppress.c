/* Suppression comments applied to a Python file's findings, and the findings put in file order
 * with their lines and columns: both linear (or n log n) in the findings and the comments, where
 * the obvious loops are quadratic. Calls report/ only. */
#include <stdlib.h>
#include <string.h>
#include "python/python_int.h"
#include "boxlint/diag.h"

/* What the suppressions of one file report: at severity `sev`, into `r`. */
typedef struct py_unused {
  boxlint_report *r;
  const bl_pyreader *rd;
  boxlint_severity sev;
} py_unused;

static boxlint_diag *report_at(py_unused *u, size_t a, size_t b) {
  boxlint_diag *d = boxlint__report_add(u->r, BL_R_UNUSED_SUPPRESSION, u->sev, -1);
  if (d) {
    d->offset = a;
    d->end_offset = b;
  }
  return d;
}

/* An id [a, b) that silenced nothing. */
static int unused(void *ctx, size_t a, size_t b) {
  py_unused *u = ctx;
  boxlint_diag *d = report_at(u, a, b);
  if (!d) return -1;
  d->message = bl_sup_unused_message(u->r, u->rd->s, a, b, "on the line it applies to");
  d->hint = bl_sup_unused_hint(u->r, u->rd->s, a, b);
  return u->r->oom ? -1 : 0;
}

/* One comment over the findings [lo, hi) of its line: each listed rule silences that rule's
 * warnings and infos there (errors and not-static never); `gone` marks them. A malformed
 * comment, or one over the limit of ids, silences nothing and is reported once. Linear in the
 * comment's size and the line's findings. */
static int suppress_one(py_unused *u, const bl_pysup *p, size_t lo, size_t hi,
                        unsigned char *gone, size_t first) {
  boxlint_report *r = u->r;
  if (p->c.kind != BL_SUP_IGNORE) {
    if (u->sev == BOXLINT_SEVERITY_OFF) return 0;
    size_t a, b;
    bl_sup_bad_span(&p->c, &a, &b);
    boxlint_diag *d = report_at(u, a, b);
    if (!d) return -1;
    d->message = bl_sup_bad_message(r, u->rd->s, &p->c);
    d->hint = bl_sup_bad_hint(&p->c);
    return r->oom ? -1 : 0;
  }
  bl_sup_table t;
  if (bl_sup_table_init(&t, &r->mem, u->rd->s, &p->c)) return -1;
  for (size_t j = lo; j < hi; j++)
    if (bl_sup_table_silences(&t, &r->diags[j])) gone[j - first] = 1;
  int rc = u->sev == BOXLINT_SEVERITY_OFF ? 0 : bl_sup_table_unused(&t, unused, u);
  bl_sup_table_free(&t, &r->mem);
  return rc;
}

/* Suppressions: the findings [first, end) sorted by line; each comment's line (its own, or the
 * next when it stands alone) found by one walk, since comments come in line order. */
int bl_py_suppress(boxlint_report *r, size_t first, const bl_pyreader *rd, boxlint_severity sev) {
  size_t end = r->ndiags, j = first;
  if (!rd->nsups) return 0;
  unsigned char *gone = boxlint__malloc(&r->mem, end - first + 1);
  if (!gone) return -1;
  memset(gone, 0, end - first + 1);
  py_unused u = {r, rd, sev};
  for (size_t x = 0; x < rd->nsups; x++) {
    const bl_pysup *p = &rd->sups[x];
    while (j < end && r->diags[j].line < p->line) j++;
    size_t e = j;
    while (e < end && r->diags[e].line == p->line) e++;
    if (suppress_one(&u, p, j, e, gone, first)) {
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


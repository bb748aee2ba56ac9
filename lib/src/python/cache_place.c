/* The last steps of a check the cache reuses (cache.c): the findings in file order and their
 * lines and columns, as bl_py_order_and_place gives them (suppress.c), but from the line
 * starts the cache keeps (an edit it takes adds no line break) instead of a sweep over the
 * text, and with a merge sort of its own instead of qsort's callbacks; then the suppressions
 * (suppress.c). */
#include <string.h>
#include "python/cache_int.h"

/* Is s[a, b) ASCII without a \r (a column per byte)? Eight bytes at a time. */
static unsigned char plain_line(const char *s, size_t a, size_t b) {
  for (uint64_t x; a + 8 <= b; a += 8) {
    memcpy(&x, s + a, 8);
    if (x & 0x8080808080808080ULL) return 0;
  }
  for (; a < b; a++)
    if ((unsigned char)s[a] >= 0x80) return 0;
  return 1;
}

int bl_py_cache_lines(boxlint_python_cache *c) {
  const char *s = c->text;
  size_t n = c->len, k = 1;
  int cr = memchr(s, '\r', n) != NULL;
  for (const char *p = s; !cr && (p = memchr(p, '\n', (size_t)(s + n - p))) != NULL; p++) k++;
  for (size_t i = 0; cr && i < n; i++)
    k += s[i] == '\n' || (s[i] == '\r' && (i + 1 >= n || s[i + 1] != '\n'));
  c->lines = boxlint__malloc(&c->mem, (k + 1) * sizeof *c->lines);
  c->plain = boxlint__malloc(&c->mem, k + 1);
  if (!c->lines || !c->plain) return -1;
  c->nlines = 0;
  c->lines[c->nlines++] = n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3) ? 3 : 0;
  for (const char *p = s; !cr && (p = memchr(p, '\n', (size_t)(s + n - p))) != NULL; p++)
    c->lines[c->nlines++] = (size_t)(p - s) + 1;
  for (size_t i = 0; cr && i < n; i++)
    if (s[i] == '\n' || (s[i] == '\r' && (i + 1 >= n || s[i + 1] != '\n')))
      c->lines[c->nlines++] = i + 1;
  for (size_t i = 0; i < c->nlines; i++) /* with a \r anywhere, every line counts byte by byte */
    c->plain[i] = !cr && plain_line(s, c->lines[i], i + 1 < c->nlines ? c->lines[i + 1] : n);
  return 0;
}

/* Line and column of `off`, as the sweep of bl_py_order_and_place counts them. */
static void line_col(const boxlint_python_cache *c, size_t off, uint32_t *line, uint32_t *col) {
  if (off > c->len) off = c->len;
  size_t lo = 1, hi = c->nlines;
  while (lo < hi) { /* the last line start <= off (line 1's is 0 or past a BOM) */
    size_t mid = lo + (hi - lo) / 2;
    if (c->lines[mid] <= off) lo = mid + 1;
    else hi = mid;
  }
  uint32_t k = 1;
  if (c->plain[lo - 1] && off >= c->lines[lo - 1]) { /* a column per byte */
    *line = (uint32_t)lo;
    *col = (uint32_t)(off - c->lines[lo - 1] + 1);
    return;
  }
  for (size_t i = c->lines[lo - 1]; i < off; i++) {
    unsigned char b = (unsigned char)c->text[i];
    k += b != '\r' && (b & 0xC0) != 0x80;
  }
  *line = (uint32_t)lo;
  *col = k;
}

typedef struct ord_key {
  size_t off, i;
} ord_key;

static int before(const ord_key *a, const ord_key *b) {
  return a->off < b->off || (a->off == b->off && a->i < b->i);
}

/* Stable merge sort of k[0..n) by (off, i), with tmp room for n. */
static void sort_keys(ord_key *k, ord_key *tmp, size_t n) {
  for (size_t w = 1; w < n; w *= 2) {
    for (size_t a = 0; a < n; a += 2 * w) {
      size_t m = a + w < n ? a + w : n, e = a + 2 * w < n ? a + 2 * w : n, i = a, j = m, o = a;
      while (i < m && j < e) tmp[o++] = before(&k[j], &k[i]) ? k[j++] : k[i++];
      while (i < m) tmp[o++] = k[i++];
      while (j < e) tmp[o++] = k[j++];
    }
    memcpy(k, tmp, n * sizeof *k);
  }
}

/* r's findings [first, end) in file order, with their lines and columns (with `added`, only
 * those of the findings still without a line: what the suppressions added). 0, -1. */
static int order_and_place(const boxlint_python_cache *c, boxlint_report *r, size_t first,
                           int added) {
  size_t k = r->ndiags - first;
  if (!k) return 0;
  ord_key *key = boxlint__malloc(&r->mem, 2 * k * sizeof *key);
  boxlint_diag *tmp = boxlint__malloc(&r->mem, k * sizeof *tmp);
  int rc = key && tmp ? 0 : -1;
  if (!rc) {
    for (size_t i = 0; i < k; i++) key[i] = (ord_key){r->diags[first + i].offset, i};
    sort_keys(key, key + k, k);
    for (size_t i = 0; i < k; i++) tmp[i] = r->diags[first + key[i].i];
    memcpy(r->diags + first, tmp, k * sizeof *tmp);
    for (size_t i = first; i < r->ndiags; i++) {
      boxlint_diag *d = &r->diags[i];
      if (added && d->line) continue;
      line_col(c, d->offset, &d->line, &d->column);
      line_col(c, d->end_offset, &d->end_line, &d->end_column);
    }
  }
  boxlint__free(&r->mem, key);
  boxlint__free(&r->mem, tmp);
  return rc;
}

int bl_py_cache_finish(const boxlint_python_cache *c, boxlint_report *r, size_t first,
                       boxlint_severity unused) {
  const bl_pyreader *rd = &c->kp.rd;
  if (order_and_place(c, r, first, 0) || bl_py_suppress(r, first, rd, unused)) return -1;
  /* what the suppressions reported goes in its place */
  return rd->nsups && order_and_place(c, r, first, 1) ? -1 : 0;
}

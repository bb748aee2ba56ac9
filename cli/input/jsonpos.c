/* Positions inside JSON text: jansson validates and decodes, this finds where values are, so
 * that diagnostics point into the file where the offending value is. */
#include "input/input.h"
#include <stdlib.h>
#include <string.h>

size_t jp_ws(const char *s, size_t n, size_t i) {
  while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
  return i;
}

static size_t skip_string(const char *s, size_t n, size_t i) {
  for (i++; i < n && s[i] != '"'; i++)
    if (s[i] == '\\') i++;
  return i < n ? i + 1 : n;
}

size_t jp_skip(const char *s, size_t n, size_t i) {
  i = jp_ws(s, n, i);
  if (i >= n) return n;
  if (s[i] == '"') return skip_string(s, n, i);
  if (s[i] == '{' || s[i] == '[') {
    size_t depth = 0;
    for (; i < n; i++) {
      if (s[i] == '"') {
        i = skip_string(s, n, i) - 1;
      } else if (s[i] == '{' || s[i] == '[') {
        depth++;
      } else if (s[i] == '}' || s[i] == ']') {
        if (--depth == 0) return i + 1;
      }
    }
    return n;
  }
  while (i < n && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\n' &&
         s[i] != '\t' && s[i] != '\r')
    i++;
  return i;
}

size_t jp_member(const char *s, size_t n, size_t obj, const char *key, size_t *key_off) {
  size_t kl = strlen(key);
  size_t i = jp_ws(s, n, obj);
  if (i >= n || s[i] != '{') return SIZE_MAX;
  i++;
  for (;;) {
    i = jp_ws(s, n, i);
    if (i >= n || s[i] != '"') return SIZE_MAX;
    size_t ks = i, ke = skip_string(s, n, i);
    i = jp_ws(s, n, ke);
    if (i >= n || s[i] != ':') return SIZE_MAX;
    size_t v = jp_ws(s, n, i + 1);
    /* Keys with escapes are compared raw: good enough to locate, never to decide. */
    if (ke - ks - 2 == kl && !memcmp(s + ks + 1, key, kl)) {
      if (key_off) *key_off = ks;
      return v;
    }
    i = jp_ws(s, n, jp_skip(s, n, v));
    if (i >= n || s[i] != ',') return SIZE_MAX;
    i++;
  }
}

size_t jp_element(const char *s, size_t n, size_t arr, size_t idx) {
  size_t i = jp_ws(s, n, arr);
  if (i >= n || s[i] != '[') return SIZE_MAX;
  i = jp_ws(s, n, i + 1);
  if (i < n && s[i] == ']') return SIZE_MAX;
  for (size_t k = 0;; k++) {
    i = jp_ws(s, n, i);
    if (k == idx) return i;
    i = jp_ws(s, n, jp_skip(s, n, i));
    if (i >= n || s[i] != ',') return SIZE_MAX;
    i++;
  }
}

static unsigned hexv(char c) {
  return (unsigned)(c >= '0' && c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
}

size_t jp_string_offset(const char *s, size_t n, size_t str, size_t d) {
  size_t i = str + 1, dec = 0;
  return jp_string_resume(s, n, &i, &dec, d);
}

size_t jp_string_resume(const char *s, size_t n, size_t *at, size_t *decoded, size_t d) {
  size_t i = *at, dec = *decoded;
  while (i < n && s[i] != '"') {
    size_t raw, out;
    if (s[i] != '\\') {
      raw = 1;
      out = 1;
    } else if (i + 1 < n && s[i + 1] == 'u' && i + 5 < n) {
      unsigned v = hexv(s[i + 2]) << 12 | hexv(s[i + 3]) << 8 | hexv(s[i + 4]) << 4 | hexv(s[i + 5]);
      raw = 6;
      if (v >= 0xD800 && v < 0xDC00 && i + 11 < n && s[i + 6] == '\\' && s[i + 7] == 'u') {
        raw = 12;
        out = 4;
      } else {
        out = v < 0x80 ? 1 : v < 0x800 ? 2 : 3;
      }
    } else {
      raw = 2;
      out = 1;
    }
    if (d < dec + out) break;
    dec += out;
    i += raw;
  }
  *at = i;
  *decoded = dec;
  return i; /* at the closing quote: the end of the string */
}

void jp_line_col(const char *s, size_t n, size_t off, uint32_t *line, uint32_t *col) {
  uint32_t l = 1, c = 1;
  if (off > n) off = n;
  for (size_t i = 0; i < off; i++) {
    if (s[i] == '\n') {
      l++;
      c = 1;
    } else if (((unsigned char)s[i] & 0xC0) != 0x80) {
      c++;
    }
  }
  *line = l;
  *col = c;
}

size_t jp_path(const char *s, size_t n, const char *path) {
  return jp_ix_path_at(NULL, s, n, 0, path);
}

size_t jp_path_at(const char *s, size_t n, size_t at, const char *path) {
  return jp_ix_path_at(NULL, s, n, at, path);
}

/*==============================================================================================
 * MARK: The index: checkpoints for lines, tables for containers
 *============================================================================================*/

typedef struct jp_ment {
  const char *key; /* the key's raw bytes (between the quotes) */
  size_t klen, ks, v;
} jp_ment;

typedef struct jp_table {
  size_t off;      /* the container's first byte ('[' or '{'); SIZE_MAX: a free slot */
  size_t count;
  size_t *el;      /* an array's elements */
  jp_ment *m;      /* an object's members, sorted by key, then by position */
} jp_table;

struct jp_index {
  uint32_t *line, *col; /* at offset k * JP_BLOCK */
  size_t *bol;          /* the start of that offset's line */
  jp_table *tab;        /* open addressing on `off`, a power of two */
  size_t ntab, captab;
};

jp_index *jp_index_new(const char *s, size_t n) {
  jp_index *ix = calloc(1, sizeof *ix);
  size_t nb = n / JP_BLOCK + 1;
  if (!ix) return NULL;
  ix->line = malloc(nb * sizeof *ix->line);
  ix->col = malloc(nb * sizeof *ix->col);
  ix->bol = malloc(nb * sizeof *ix->bol);
  if (!ix->line || !ix->col || !ix->bol) {
    jp_index_free(ix);
    return NULL;
  }
  uint32_t l = 1, c = 1;
  size_t bol = 0;
  for (size_t k = 0; k < nb; k++) {
    ix->line[k] = l;
    ix->col[k] = c;
    ix->bol[k] = bol;
    size_t end = k * JP_BLOCK + JP_BLOCK < n ? k * JP_BLOCK + JP_BLOCK : n;
    for (size_t i = k * JP_BLOCK; i < end; i++) {
      if (s[i] == '\n') {
        l++;
        c = 1;
        bol = i + 1;
      } else if (((unsigned char)s[i] & 0xC0) != 0x80) {
        c++;
      }
    }
  }
  return ix;
}

void jp_index_free(jp_index *ix) {
  if (!ix) return;
  for (size_t i = 0; i < ix->captab; i++) {
    if (ix->tab[i].off == SIZE_MAX) continue;
    free(ix->tab[i].el);
    free(ix->tab[i].m);
  }
  free(ix->tab);
  free(ix->line);
  free(ix->col);
  free(ix->bol);
  free(ix);
}

void jp_ix_line_col(const jp_index *ix, const char *s, size_t n, size_t off, uint32_t *line,
                    uint32_t *col) {
  if (!ix) {
    jp_line_col(s, n, off, line, col);
    return;
  }
  if (off > n) off = n;
  size_t k = off / JP_BLOCK;
  uint32_t l = ix->line[k], c = ix->col[k];
  for (size_t i = k * JP_BLOCK; i < off; i++) {
    if (s[i] == '\n') {
      l++;
      c = 1;
    } else if (((unsigned char)s[i] & 0xC0) != 0x80) {
      c++;
    }
  }
  *line = l;
  *col = c;
}

size_t jp_ix_line_start(const jp_index *ix, const char *s, size_t n, size_t off) {
  if (off > n) off = n;
  size_t stop = ix ? off / JP_BLOCK * JP_BLOCK : 0;
  for (size_t i = off; i > stop; i--)
    if (s[i - 1] == '\n') return i;
  return ix ? ix->bol[off / JP_BLOCK] : 0;
}

static int ment_cmp(const void *a, const void *b) {
  const jp_ment *x = a, *y = b;
  size_t k = x->klen < y->klen ? x->klen : y->klen;
  int r = memcmp(x->key, y->key, k);
  if (r) return r;
  if (x->klen != y->klen) return x->klen < y->klen ? -1 : 1;
  return x->ks < y->ks ? -1 : x->ks > y->ks;
}

/* Fill t from the container at t->off, as jp_element and jp_member walk it. Returns 0 or -1. */
static int table_fill(jp_table *t, const char *s, size_t n) {
  size_t i = t->off, cap = 0;
  int obj = s[i] == '{';
  i = jp_ws(s, n, i + 1);
  if (i < n && s[i] == (obj ? '}' : ']')) return 0;
  for (;;) {
    i = jp_ws(s, n, i);
    if (t->count == cap) {
      cap = cap ? cap * 2 : 8;
      void *p = obj ? realloc(t->m, cap * sizeof *t->m) : realloc(t->el, cap * sizeof *t->el);
      if (!p) return -1;
      if (obj) t->m = p;
      else t->el = p;
    }
    if (obj) {
      if (i >= n || s[i] != '"') return 0;
      size_t ks = i, ke = skip_string(s, n, i);
      i = jp_ws(s, n, ke);
      if (i >= n || s[i] != ':') return 0;
      i = jp_ws(s, n, i + 1);
      t->m[t->count++] = (jp_ment){s + ks + 1, ke - ks - 2, ks, i};
    } else {
      t->el[t->count++] = i;
    }
    i = jp_ws(s, n, jp_skip(s, n, i));
    if (i >= n || s[i] != ',') return 0;
    i++;
  }
}

static size_t slot(size_t off, size_t cap) {
  uint64_t h = (uint64_t)off * 0x9E3779B97F4A7C15ull;
  return (size_t)(h ^ h >> 32) & (cap - 1);
}

/* The table of the container at `at` (built on first use); NULL when out of memory. */
static jp_table *table_of(jp_index *ix, const char *s, size_t n, size_t at) {
  if (ix->ntab * 2 >= ix->captab) {
    size_t cap = ix->captab ? ix->captab * 2 : 16;
    jp_table *nt = malloc(cap * sizeof *nt);
    if (!nt) return NULL;
    for (size_t i = 0; i < cap; i++) nt[i].off = SIZE_MAX;
    for (size_t i = 0; i < ix->captab; i++) {
      if (ix->tab[i].off == SIZE_MAX) continue;
      size_t h = slot(ix->tab[i].off, cap);
      while (nt[h].off != SIZE_MAX) h = (h + 1) & (cap - 1);
      nt[h] = ix->tab[i];
    }
    free(ix->tab);
    ix->tab = nt;
    ix->captab = cap;
  }
  size_t h = slot(at, ix->captab);
  while (ix->tab[h].off != SIZE_MAX && ix->tab[h].off != at) h = (h + 1) & (ix->captab - 1);
  jp_table *t = &ix->tab[h];
  if (t->off == at) return t;
  *t = (jp_table){at, 0, NULL, NULL};
  if (table_fill(t, s, n)) {
    free(t->el);
    free(t->m);
    *t = (jp_table){SIZE_MAX, 0, NULL, NULL};
    return NULL;
  }
  if (s[at] == '{' && t->count) qsort(t->m, t->count, sizeof *t->m, ment_cmp);
  ix->ntab++;
  return t;
}

size_t jp_ix_element(jp_index *ix, const char *s, size_t n, size_t arr, size_t idx) {
  size_t at = jp_ws(s, n, arr);
  if (at >= n || s[at] != '[') return SIZE_MAX;
  jp_table *t = ix ? table_of(ix, s, n, at) : NULL;
  if (!t) return jp_element(s, n, arr, idx);
  return idx < t->count ? t->el[idx] : SIZE_MAX;
}

size_t jp_ix_count(jp_index *ix, const char *s, size_t n, size_t arr) {
  size_t at = jp_ws(s, n, arr);
  if (at >= n || s[at] != '[') return 0;
  jp_table *t = ix ? table_of(ix, s, n, at) : NULL;
  if (t) return t->count;
  size_t k = 0;
  while (jp_element(s, n, arr, k) != SIZE_MAX) k++;
  return k;
}

size_t jp_ix_member(jp_index *ix, const char *s, size_t n, size_t obj, const char *key,
                    size_t *key_off) {
  size_t at = jp_ws(s, n, obj);
  if (at >= n || s[at] != '{') return SIZE_MAX;
  jp_table *t = ix ? table_of(ix, s, n, at) : NULL;
  if (!t) return jp_member(s, n, obj, key, key_off);
  jp_ment want = {key, strlen(key), 0, 0};
  size_t lo = 0, hi = t->count; /* the first member not below `want` */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ment_cmp(&t->m[mid], &want) < 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo == t->count || t->m[lo].klen != want.klen || memcmp(t->m[lo].key, key, want.klen))
    return SIZE_MAX;
  if (key_off) *key_off = t->m[lo].ks;
  return t->m[lo].v;
}

size_t jp_ix_path_at(jp_index *ix, const char *s, size_t n, size_t at, const char *path) {
  size_t v = at <= n ? jp_ws(s, n, at) : SIZE_MAX;
  const char *p = path;
  while (*p && v != SIZE_MAX) {
    if (*p == '.') p++;
    if (*p == '[') {
      size_t idx = 0;
      for (p++; *p >= '0' && *p <= '9'; p++) idx = idx * 10 + (size_t)(*p - '0');
      if (*p == ']') p++;
      v = jp_ix_element(ix, s, n, v, idx);
    } else {
      char key[128];
      size_t k = 0;
      while (*p && *p != '.' && *p != '[' && k < sizeof key - 1) key[k++] = *p++;
      key[k] = 0;
      v = jp_ix_member(ix, s, n, v, key, NULL);
    }
  }
  return v;
}

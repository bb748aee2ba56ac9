/* The compiled policy: parsed entries become the tables that decisions read (docs/design.md §3).
 *
 * Addresses: per list and family, the prefixes are laminar (two prefixes are nested or
 * disjoint), so "the longest prefix covering a point" is a piecewise-constant function with at
 * most 2n+1 pieces. It is built once by a sweep with a stack and queried by one binary search:
 * O(log n), no pointers to chase. IPv4 starts are also kept as uint32 for a tight search.
 *
 * Host names: one open-addressing table keyed by name holds, for every entry's name and every
 * proper suffix of it, the lowest index of an exact entry and of a `*.` entry in each list. A
 * query hashes every suffix of the host right to left in one pass (a polynomial hash extends to
 * the left in O(1)), so it costs O(length of the host) plus one probe per label.
 *
 * The queries are inline in policy_int.h. Calls only the allocator; nothing here allocates after
 * compilation, and a policy is only read by decisions. */
#include <stdlib.h>
#include <string.h>
#include "policy_int.h"

/*==============================================================================================
 * MARK: Entries and their text
 *============================================================================================*/

static int text_append(boxlint_policy *p, const char *s, size_t n, uint32_t *off) {
  if (p->text_len + n + 1 > p->text_cap) {
    size_t cap = p->text_cap ? p->text_cap * 2 : 1024;
    while (cap < p->text_len + n + 1) cap *= 2;
    char *t = boxlint__realloc(&p->mem, p->text, p->text_cap, cap);
    if (!t) return 0;
    p->text = t;
    p->text_cap = cap;
  }
  *off = (uint32_t)p->text_len;
  memcpy(p->text + p->text_len, s, n);
  p->text[p->text_len + n] = 0;
  p->text_len += n + 1;
  return 1;
}

boxlint_status boxlint__policy_reserve(boxlint_policy *p, int l, size_t n) {
  p->entries[l] = boxlint__malloc(&p->mem, n * sizeof *p->entries[l]);
  return p->entries[l] ? BOXLINT_OK : BOXLINT_ENOMEM;
}

boxlint_status boxlint__policy_store(boxlint_policy *p, int l, size_t i, const boxlint__entry *pe) {
  boxlint__pentry *e = &p->entries[l][i];
  memset(e, 0, sizeof *e);
  if (!pe) {
    e->kind = BOXLINT_ENTRY_INVALID;
    return text_append(p, "", 0, &e->text_off) ? BOXLINT_OK : BOXLINT_ENOMEM;
  }
  e->kind = (uint8_t)pe->e.kind;
  e->family = (uint8_t)pe->e.family;
  e->plen = (uint8_t)pe->e.prefix_len;
  e->mapped = (uint8_t)pe->e.mapped;
  e->addr = pe->addr;
  e->text_len = (uint16_t)pe->e.text_len;
  return text_append(p, pe->e.text, pe->e.text_len, &e->text_off) ? BOXLINT_OK : BOXLINT_ENOMEM;
}

/*==============================================================================================
 * MARK: Address segments
 *============================================================================================*/

static boxlint__u128 u_inc(boxlint__u128 a) {
  a.lo++;
  if (!a.lo) a.hi++;
  return a;
}
static boxlint__u128 fam_max(size_t f) {
  boxlint__u128 m;
  m.hi = f ? UINT64_MAX : 0;
  m.lo = f ? UINT64_MAX : 0xffffffffu;
  return m;
}

typedef struct pfx {
  boxlint__u128 lo, hi;
  int32_t idx;
  uint8_t plen;
} pfx;

static int pfx_cmp(const void *va, const void *vb) {
  const pfx *a = va, *b = vb;
  if (!boxlint__u128_eq(a->lo, b->lo)) return boxlint__u128_lt(a->lo, b->lo) ? -1 : 1;
  if (a->plen != b->plen) return a->plen < b->plen ? -1 : 1;
  return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static void seg_emit(boxlint__segs *s, boxlint__u128 at, int32_t v) {
  if (s->n && boxlint__u128_eq(s->start[s->n - 1], at)) {
    s->val[s->n - 1] = v;
    if (s->n > 1 && s->val[s->n - 2] == v) s->n--;
    return;
  }
  if (s->n && s->val[s->n - 1] == v) return;
  s->start[s->n] = at;
  s->val[s->n] = v;
  s->n++;
}

void boxlint__segs_free(const boxlint__mem *m, boxlint__segs *s) {
  boxlint__free(m, s->start);
  boxlint__free(m, s->start4);
  boxlint__free(m, s->val);
  memset(s, 0, sizeof *s);
}

/* Sweep sorted, de-duplicated prefixes `v[0..m)` (family `f`) into `s`: the innermost
 * (longest) prefix at each point, or with `outer` the outermost one. */
static boxlint_status seg_build(const boxlint__mem *mem, boxlint__segs *s, const pfx *v,
                                size_t m, size_t f, int outer) {
  memset(s, 0, sizeof *s);
  if (!m) return BOXLINT_OK;
  size_t cap = 2 * m + 1;
  s->start = boxlint__malloc(mem, cap * sizeof *s->start);
  s->val = boxlint__malloc(mem, cap * sizeof *s->val);
  if (!s->start || !s->val) goto oom;
  const pfx *stack[130];
  size_t sp = 0;
  boxlint__u128 zero = {0, 0}, max = fam_max(f);
  seg_emit(s, zero, -1);
  for (size_t i = 0; i < m; i++) {
    const pfx *P = &v[i];
    while (sp && boxlint__u128_lt(stack[sp - 1]->hi, P->lo)) {
      const pfx *T = stack[--sp];
      seg_emit(s, u_inc(T->hi), sp ? (outer ? stack[0]->idx : stack[sp - 1]->idx) : -1);
    }
    stack[sp++] = P; /* nested in the top (laminar), so depth <= width + 1 */
    seg_emit(s, P->lo, outer ? stack[0]->idx : P->idx);
  }
  while (sp) {
    const pfx *T = stack[--sp];
    if (boxlint__u128_eq(T->hi, max)) break; /* everything below it ends at the top too */
    seg_emit(s, u_inc(T->hi), sp ? (outer ? stack[0]->idx : stack[sp - 1]->idx) : -1);
  }
  if (f == 0) {
    s->start4 = boxlint__malloc(mem, s->n * sizeof *s->start4);
    if (!s->start4) goto oom;
    for (size_t i = 0; i < s->n; i++) s->start4[i] = (uint32_t)s->start[i].lo;
  }
  return BOXLINT_OK;
oom:
  boxlint__segs_free(mem, s);
  return BOXLINT_ENOMEM;
}

/* The prefixes of list `l` in family `f` (ALL_TRAFFIC as the whole space) into `v`, sorted, the
 * same prefix twice kept once (the lowest index); returns how many. */
static size_t prefixes(const boxlint_policy *p, int l, size_t f, pfx *v) {
  size_t m = 0;
  for (size_t i = 0; i < p->n[l]; i++) {
    const boxlint__pentry *e = &p->entries[l][i];
    unsigned width = f ? 128u : 32u;
    if (e->kind == BOXLINT_ENTRY_ALL_TRAFFIC) {
      v[m].lo.hi = v[m].lo.lo = 0;
      v[m].hi = fam_max(f);
      v[m].plen = 0;
    } else if ((e->kind == BOXLINT_ENTRY_ADDRESS || e->kind == BOXLINT_ENTRY_CIDR) &&
               e->family == (f ? 6 : 4)) {
      boxlint__u128 hm = boxlint__u128_hostmask(width - e->plen);
      v[m].lo = e->addr;
      v[m].hi.hi = e->addr.hi | hm.hi;
      v[m].hi.lo = e->addr.lo | hm.lo;
      v[m].plen = e->plen;
    } else {
      continue;
    }
    v[m].idx = (int32_t)i;
    m++;
  }
  if (m > 1) qsort(v, m, sizeof *v, pfx_cmp);
  size_t u = 0; /* the same prefix twice: keep the lowest index (sorted first) */
  for (size_t i = 0; i < m; i++)
    if (!u || !boxlint__u128_eq(v[u - 1].lo, v[i].lo) || v[u - 1].plen != v[i].plen)
      v[u++] = v[i];
  return u;
}

/*==============================================================================================
 * MARK: Host-name table
 *============================================================================================*/

static boxlint__dnode *dinsert(boxlint_policy *p, uint32_t off, size_t n) {
  const char *s = p->text + off;
  uint64_t h = boxlint__name_hash(s, n);
  for (size_t i = (size_t)boxlint__name_mix(h) & p->dmask;; i = (i + 1) & p->dmask) {
    boxlint__dnode *nd = &p->dt[i];
    if (!nd->len) {
      nd->hash = h;
      nd->off = off;
      nd->len = (uint16_t)n;
      nd->exact[0] = nd->exact[1] = nd->wild[0] = nd->wild[1] = -1;
      nd->below[0] = nd->below[1] = 0;
      return nd;
    }
    if (nd->hash == h && nd->len == n && !memcmp(p->text + nd->off, s, n)) return nd;
  }
}

static void set_min(int32_t *x, int32_t i) {
  if (*x < 0 || i < *x) *x = i;
}

static boxlint_status build_names(boxlint_policy *p) {
  size_t count = 0;
  for (int l = 0; l < 2; l++)
    for (size_t i = 0; i < p->n[l]; i++) {
      const boxlint__pentry *e = &p->entries[l][i];
      if (e->kind != BOXLINT_ENTRY_DOMAIN && e->kind != BOXLINT_ENTRY_WILDCARD) continue;
      count++;
      const char *t = p->text + e->text_off;
      for (size_t k = 0; k < e->text_len; k++) count += t[k] == '.';
    }
  if (!count) return BOXLINT_OK;
  size_t size = 16;
  while (size < 2 * count) size *= 2;
  p->dt = boxlint__malloc(&p->mem, size * sizeof *p->dt);
  if (!p->dt) return BOXLINT_ENOMEM;
  memset(p->dt, 0, size * sizeof *p->dt);
  p->dmask = size - 1;
  for (int l = 0; l < 2; l++)
    for (size_t i = 0; i < p->n[l]; i++) {
      const boxlint__pentry *e = &p->entries[l][i];
      uint32_t off = e->text_off;
      size_t n = e->text_len;
      if (e->kind == BOXLINT_ENTRY_WILDCARD) {
        off += 2;
        n -= 2;
        set_min(&dinsert(p, off, n)->wild[l], (int32_t)i);
      } else if (e->kind == BOXLINT_ENTRY_DOMAIN) {
        set_min(&dinsert(p, off, n)->exact[l], (int32_t)i);
      } else {
        continue;
      }
      const char *t = p->text + off;
      for (size_t k = 0; k < n; k++)
        if (t[k] == '.') dinsert(p, off + (uint32_t)k + 1, n - k - 1)->below[l] = 1;
    }
  return BOXLINT_OK;
}

/*==============================================================================================
 * MARK: Building and freeing
 *============================================================================================*/

/* The summary of each list: lowest ALL_TRAFFIC and `*`, which kinds it has. */
static void summarise(boxlint_policy *p) {
  for (int l = 0; l < 2; l++) {
    p->any[l] = p->all[l] = -1;
    p->has_ip[l] = p->has_narrow_ip[l] = p->has_name[l] = 0;
    for (size_t i = 0; i < p->n[l]; i++) {
      const boxlint__pentry *e = &p->entries[l][i];
      switch (e->kind) {
      case BOXLINT_ENTRY_ALL_TRAFFIC: set_min(&p->all[l], (int32_t)i); p->has_ip[l] = 1; break;
      case BOXLINT_ENTRY_ADDRESS:
      case BOXLINT_ENTRY_CIDR: p->has_ip[l] = p->has_narrow_ip[l] = 1; break;
      case BOXLINT_ENTRY_ANY_HOST: set_min(&p->any[l], (int32_t)i); p->has_name[l] = 1; break;
      case BOXLINT_ENTRY_DOMAIN:
      case BOXLINT_ENTRY_WILDCARD: p->has_name[l] = 1; break;
      default: break;
      }
    }
  }
}

boxlint_status boxlint__policy_build(boxlint_policy *p, boxlint__segs outer[2][2]) {
  boxlint_status st = BOXLINT_OK;
  summarise(p);
  size_t nmax = p->n[0] > p->n[1] ? p->n[0] : p->n[1];
  pfx *v = nmax ? boxlint__malloc(&p->mem, nmax * sizeof *v) : NULL;
  if (nmax && !v) return BOXLINT_ENOMEM;
  for (int l = 0; l < 2 && st == BOXLINT_OK; l++)
    for (size_t f = 0; f < 2 && st == BOXLINT_OK; f++) {
      size_t u = prefixes(p, l, f, v);
      st = seg_build(&p->mem, &p->inner[l][f], v, u, f, 0);
      if (st == BOXLINT_OK && outer) st = seg_build(&p->mem, &outer[l][f], v, u, f, 1);
    }
  boxlint__free(&p->mem, v);
  if (st == BOXLINT_OK) st = build_names(p);
  return st;
}

void boxlint__policy_clear(boxlint_policy *p) {
  for (int l = 0; l < 2; l++) {
    boxlint__free(&p->mem, p->entries[l]);
    p->entries[l] = NULL;
    p->n[l] = 0;
    for (int f = 0; f < 2; f++) boxlint__segs_free(&p->mem, &p->inner[l][f]);
  }
  boxlint__free(&p->mem, p->dt);
  p->dt = NULL;
  boxlint__free(&p->mem, p->text);
  p->text = NULL;
}

void boxlint_policy_free(boxlint_policy *p) {
  if (!p) return;
  boxlint__mem m = p->mem;
  boxlint__policy_clear(p);
  boxlint__free(&m, p);
}

/*==============================================================================================
 * MARK: Reading a compiled policy
 *============================================================================================*/

const char *boxlint_policy_type_str(boxlint_policy_type type) {
  switch (type) {
  case BOXLINT_POLICY_DISABLED: return "disabled";
  case BOXLINT_POLICY_OPEN: return "open";
  case BOXLINT_POLICY_FILTERED: return "filtered";
  }
  return "";
}

const char *boxlint_policy_list_str(boxlint_policy_list list) {
  switch (list) {
  case BOXLINT_LIST_ALLOW_OUT: return "allow_out";
  case BOXLINT_LIST_DENY_OUT: return "deny_out";
  case BOXLINT_LIST_NONE: return NULL;
  }
  return NULL;
}

const char *boxlint_policy_unmatched_str(boxlint_policy_unmatched unmatched) {
  switch (unmatched) {
  case BOXLINT_UNMATCHED_ALLOW: return "allow";
  case BOXLINT_UNMATCHED_DENY: return "deny";
  }
  return NULL;
}

const char *boxlint_policy_compat_str(boxlint_policy_compat compat) {
  switch (compat) {
  case BOXLINT_COMPAT_NONE: return "none";
  case BOXLINT_COMPAT_E2B: return "e2b";
  }
  return NULL;
}

const char *boxlint_policy_field(size_t i) {
  static const char *const fields[] = {"type", "allow_out", "deny_out"};
  return i < sizeof fields / sizeof fields[0] ? fields[i] : NULL;
}

boxlint_policy_type boxlint_policy_get_type(const boxlint_policy *p) {
  return p ? p->type : BOXLINT_POLICY_DISABLED;
}

size_t boxlint_policy_entry_count(const boxlint_policy *p, boxlint_policy_list list) {
  if (!p || (list != BOXLINT_LIST_ALLOW_OUT && list != BOXLINT_LIST_DENY_OUT)) return 0;
  return p->n[list];
}

boxlint_span boxlint_policy_entry_text(const boxlint_policy *p, boxlint_policy_list list,
                                       size_t i) {
  boxlint_span s = {NULL, 0};
  if (!p || (list != BOXLINT_LIST_ALLOW_OUT && list != BOXLINT_LIST_DENY_OUT) || i >= p->n[list])
    return s;
  s.ptr = p->text + p->entries[list][i].text_off;
  s.len = p->entries[list][i].text_len;
  return s;
}

/* NetworkPolicy matching: the compiled tables and decisions (semantics §5-§6).
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
 * Nothing here allocates after compilation; a policy is only read by decisions. */
#include <stdlib.h>
#include <string.h>
#include "egress_int.h"

/*==============================================================================================
 * MARK: 128-bit helpers
 *============================================================================================*/

static int u_lt(boxlint__u128 a, boxlint__u128 b) {
  return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}
static int u_eq(boxlint__u128 a, boxlint__u128 b) { return a.hi == b.hi && a.lo == b.lo; }
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

/*==============================================================================================
 * MARK: Address segments
 *============================================================================================*/

typedef struct pfx {
  boxlint__u128 lo, hi;
  int32_t idx;
  uint8_t plen;
} pfx;

static int pfx_cmp(const void *va, const void *vb) {
  const pfx *a = va, *b = vb;
  if (!u_eq(a->lo, b->lo)) return u_lt(a->lo, b->lo) ? -1 : 1;
  if (a->plen != b->plen) return a->plen < b->plen ? -1 : 1;
  return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static void seg_emit(boxlint__segs *s, boxlint__u128 at, int32_t v) {
  if (s->n && u_eq(s->start[s->n - 1], at)) {
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
    while (sp && u_lt(stack[sp - 1]->hi, P->lo)) {
      const pfx *T = stack[--sp];
      seg_emit(s, u_inc(T->hi), sp ? (outer ? stack[0]->idx : stack[sp - 1]->idx) : -1);
    }
    stack[sp++] = P; /* nested in the top (laminar), so depth <= width + 1 */
    seg_emit(s, P->lo, outer ? stack[0]->idx : P->idx);
  }
  while (sp) {
    const pfx *T = stack[--sp];
    if (u_eq(T->hi, max)) break; /* everything below it ends at the top of the space too */
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

int32_t boxlint__segs_at(const boxlint__segs *s, boxlint__u128 a, size_t *k) {
  size_t lo = 0, hi = s->n; /* find the last start <= a; start[0] is 0 */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (u_lt(a, s->start[mid])) hi = mid;
    else lo = mid;
  }
  if (k) *k = lo;
  return s->n ? s->val[lo] : -1;
}

static int32_t segs_at4(const boxlint__segs *s, uint32_t a) {
  if (!s->n) return -1;
  const uint32_t *st = s->start4;
  size_t lo = 0, n = s->n;
  while (n > 1) { /* branch-light lower bound */
    size_t half = n / 2;
    lo = st[lo + half] <= a ? lo + half : lo;
    n -= half;
  }
  return s->val[lo];
}

static int32_t segs_at6(const boxlint__segs *s, boxlint__u128 a) {
  return boxlint__segs_at(s, a, NULL);
}

/*==============================================================================================
 * MARK: Host-name table
 *============================================================================================*/

#define HASH_MUL 0x100000001b3ull /* odd: powers never vanish mod 2^64 */

static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

/* Polynomial hash accumulated right to left, so that a suffix's hash is a prefix of the work. */
static uint64_t name_hash(const char *s, size_t n) {
  uint64_t h = 0, pw = 1;
  for (size_t i = n; i-- > 0;) {
    h += (uint64_t)(unsigned char)s[i] * pw;
    pw *= HASH_MUL;
  }
  return h;
}

static const boxlint__dnode *dfind_h(const boxlint_policy *p, const char *s, size_t n,
                                     uint64_t h) {
  if (!p->dt) return NULL;
  for (size_t i = (size_t)mix(h) & p->dmask;; i = (i + 1) & p->dmask) {
    const boxlint__dnode *nd = &p->dt[i];
    if (!nd->len) return NULL;
    if (nd->hash == h && nd->len == n && !memcmp(p->text + nd->off, s, n)) return nd;
  }
}

const boxlint__dnode *boxlint__dfind(const boxlint_policy *p, const char *s, size_t n) {
  return dfind_h(p, s, n, name_hash(s, n));
}

static boxlint__dnode *dinsert(boxlint_policy *p, uint32_t off, size_t n) {
  const char *s = p->text + off;
  uint64_t h = name_hash(s, n);
  for (size_t i = (size_t)mix(h) & p->dmask;; i = (i + 1) & p->dmask) {
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

boxlint_status boxlint__policy_build(boxlint_policy *p, boxlint__segs outer[2][2]) {
  boxlint_status st = BOXLINT_OK;
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
  size_t nmax = p->n[0] > p->n[1] ? p->n[0] : p->n[1];
  pfx *v = nmax ? boxlint__malloc(&p->mem, nmax * sizeof *v) : NULL;
  if (nmax && !v) return BOXLINT_ENOMEM;
  for (int l = 0; l < 2 && st == BOXLINT_OK; l++)
    for (size_t f = 0; f < 2 && st == BOXLINT_OK; f++) {
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
        if (!u || !u_eq(v[u - 1].lo, v[i].lo) || v[u - 1].plen != v[i].plen) v[u++] = v[i];
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

/*==============================================================================================
 * MARK: Decisions
 *============================================================================================*/

typedef struct dest {
  int invalid;
  int has_name, has_addr;
  size_t fam; /* 0 IPv4, 1 IPv6 */
  boxlint__u128 addr;
  boxlint__entry host; /* host.e.text: the normalised name */
} dest;

static void parse_dest(dest *d, const char *host, size_t hl, const char *ip, size_t il) {
  d->invalid = d->has_name = d->has_addr = 0;
  d->fam = 0;
  d->addr.hi = d->addr.lo = 0;
  if (host) {
    if (boxlint__egress_parse(&d->host, host, hl, 1)) {
      d->invalid = 1;
      return;
    }
    if (d->host.e.kind == BOXLINT_ENTRY_DOMAIN) {
      d->has_name = 1;
    } else if (d->host.e.kind == BOXLINT_ENTRY_ADDRESS) {
      d->has_addr = 1;
      d->fam = d->host.e.family == 6;
      d->addr = d->host.addr;
    } else {
      d->invalid = 1; /* a CIDR or all traffic is no destination */
      return;
    }
  }
  if (ip) {
    boxlint__entry a;
    if (boxlint__egress_parse(&a, ip, il, 1) || a.e.kind != BOXLINT_ENTRY_ADDRESS) {
      d->invalid = 1;
      return;
    }
    size_t fam = a.e.family == 6;
    if (d->has_addr && (fam != d->fam || !u_eq(a.addr, d->addr))) {
      d->invalid = 1; /* the host literal and the address disagree */
      return;
    }
    d->has_addr = 1;
    d->fam = fam;
    d->addr = a.addr;
  }
}

static void set_out(boxlint_decision *out, boxlint_verdict v, boxlint_decision_reason r) {
  out->verdict = v;
  out->reason = r;
  out->list = BOXLINT_LIST_NONE;
  out->index = -1;
  out->entry.ptr = NULL;
  out->entry.len = 0;
  out->by_name = 0;
}

static void set_rule(boxlint_decision *out, const boxlint_policy *p, int l, int32_t i,
                     boxlint_verdict v, int by_name) {
  set_out(out, v, BOXLINT_REASON_RULE);
  out->list = (boxlint_policy_list)l;
  out->index = i;
  out->entry.ptr = p->text + p->entries[l][i].text_off;
  out->entry.len = p->entries[l][i].text_len;
  out->by_name = by_name;
}

/* What matched, per list: the best name entry and the best address entry (-1: none). */
typedef struct matches {
  int32_t name[2], ip[2], all[2];
  int narrow[2];
} matches;

/* The procedure of semantics §5.2, steps 3-7, shared by both engines. */
static void conclude(boxlint_decision *out, const boxlint_policy *p, const dest *d,
                     const matches *m) {
  const int A = 0, D = 1;
  if (m->name[A] >= 0) {
    set_rule(out, p, A, m->name[A], BOXLINT_VERDICT_ALLOW, 1);
    return;
  }
  if (d->has_addr ? m->ip[A] >= 0 : m->all[A] >= 0) {
    set_rule(out, p, A, d->has_addr ? m->ip[A] : m->all[A], BOXLINT_VERDICT_ALLOW, 0);
    return;
  }
  /* Host only, and an allow network could still match the address: a deny would be a guess. */
  int open_allow = !d->has_addr && m->narrow[A];
  int32_t deny = -1;
  if (m->name[D] >= 0) deny = m->name[D];
  else if (d->has_addr) deny = m->ip[D];
  else if (m->all[D] >= 0) deny = m->all[D];
  else if (m->narrow[D]) open_allow = 1; /* a deny network might match the address */
  if (deny >= 0 && !open_allow) {
    set_rule(out, p, D, deny, BOXLINT_VERDICT_DENY, 0);
  } else if (open_allow) {
    if (deny < 0 && !m->narrow[D] && p->unmatched == BOXLINT_UNMATCHED_ALLOW)
      set_out(out, BOXLINT_VERDICT_ALLOW, BOXLINT_REASON_DEFAULT);
    else
      set_out(out, BOXLINT_VERDICT_UNKNOWN, BOXLINT_REASON_NEEDS_IP);
  } else if (p->unmatched == BOXLINT_UNMATCHED_ALLOW) {
    set_out(out, BOXLINT_VERDICT_ALLOW, BOXLINT_REASON_DEFAULT);
  } else {
    set_out(out, BOXLINT_VERDICT_DENY, BOXLINT_REASON_DEFAULT);
  }
}

/* Steps 0-2. Returns 1 when they decided. */
static int prelude(boxlint_decision *out, const boxlint_policy *p, const dest *d) {
  if (d->invalid) {
    set_out(out, BOXLINT_VERDICT_DENY, BOXLINT_REASON_INVALID_DESTINATION);
    return 1;
  }
  if (p->type == BOXLINT_POLICY_DISABLED) {
    set_out(out, BOXLINT_VERDICT_DENY, BOXLINT_REASON_POLICY_DISABLED);
    return 1;
  }
  if (p->type == BOXLINT_POLICY_OPEN) {
    set_out(out, BOXLINT_VERDICT_ALLOW, BOXLINT_REASON_POLICY_OPEN);
    return 1;
  }
  return 0;
}

boxlint_status boxlint_policy_decide(boxlint_decision *out, const boxlint_policy *p,
                                     const char *host, size_t host_len, const char *ip,
                                     size_t ip_len) {
  if (!out || !p || (!host && !ip)) return BOXLINT_EINVAL;
  dest d;
  parse_dest(&d, host, host_len, ip, ip_len);
  if (prelude(out, p, &d)) return BOXLINT_OK;
  matches m;
  for (int l = 0; l < 2; l++) {
    m.name[l] = m.ip[l] = -1;
    m.all[l] = p->all[l];
    m.narrow[l] = p->has_narrow_ip[l];
  }
  if (d.has_name) {
    const char *s = d.host.e.text;
    size_t n = d.host.e.text_len;
    int32_t exact[2] = {-1, -1}, wild[2] = {-1, -1};
    if (p->dt) {
      uint64_t h = 0, pw = 1;
      for (size_t i = n; i-- > 0;) {
        h += (uint64_t)(unsigned char)s[i] * pw;
        pw *= HASH_MUL;
        if (i && s[i - 1] != '.') continue;
        const boxlint__dnode *nd = dfind_h(p, s + i, n - i, h);
        if (!nd) continue;
        if (!i) {
          exact[0] = nd->exact[0];
          exact[1] = nd->exact[1];
        } else { /* right to left: a later hit is a longer suffix */
          if (nd->wild[0] >= 0) wild[0] = nd->wild[0];
          if (nd->wild[1] >= 0) wild[1] = nd->wild[1];
        }
      }
    }
    for (int l = 0; l < 2; l++)
      m.name[l] = exact[l] >= 0 ? exact[l] : wild[l] >= 0 ? wild[l] : p->any[l];
  }
  if (d.has_addr) {
    for (int l = 0; l < 2; l++) {
      const boxlint__segs *s = &p->inner[l][d.fam];
      m.ip[l] = d.fam ? segs_at6(s, d.addr) : segs_at4(s, (uint32_t)d.addr.lo);
      if (m.ip[l] >= 0 && l == 0) break; /* allow decides; the deny match is not needed */
    }
  }
  conclude(out, p, &d, &m);
  return BOXLINT_OK;
}

/*==============================================================================================
 * MARK: The linear reference
 *============================================================================================*/

boxlint_status boxlint__policy_decide_linear(boxlint_decision *out, const boxlint_policy *p,
                                             const char *host, size_t host_len, const char *ip,
                                             size_t ip_len) {
  if (!out || !p || (!host && !ip)) return BOXLINT_EINVAL;
  dest d;
  parse_dest(&d, host, host_len, ip, ip_len);
  if (prelude(out, p, &d)) return BOXLINT_OK;
  matches m;
  const char *h = d.host.e.text;
  size_t hn = d.host.e.text_len;
  for (int l = 0; l < 2; l++) {
    int best_name = 0, best_ip = 0; /* scores; 0 = no match */
    m.name[l] = m.ip[l] = m.all[l] = -1;
    m.narrow[l] = 0;
    for (size_t i = 0; i < p->n[l]; i++) {
      const boxlint__pentry *e = &p->entries[l][i];
      const char *t = p->text + e->text_off;
      int score = 0;
      switch (e->kind) {
      case BOXLINT_ENTRY_ALL_TRAFFIC:
        if (m.all[l] < 0) m.all[l] = (int32_t)i;
        if (d.has_addr && 1 > best_ip) {
          best_ip = 1;
          m.ip[l] = (int32_t)i;
        }
        break;
      case BOXLINT_ENTRY_ADDRESS:
      case BOXLINT_ENTRY_CIDR: {
        m.narrow[l] = 1;
        if (!d.has_addr || (e->family == 6) != (d.fam == 1)) break;
        boxlint__u128 hm = boxlint__u128_hostmask((e->family == 6 ? 128u : 32u) - e->plen);
        if ((d.addr.hi & ~hm.hi) == e->addr.hi && (d.addr.lo & ~hm.lo) == e->addr.lo &&
            e->plen + 1 > best_ip) {
          best_ip = e->plen + 1;
          m.ip[l] = (int32_t)i;
        }
        break;
      }
      case BOXLINT_ENTRY_DOMAIN:
        if (d.has_name && hn == e->text_len && !memcmp(h, t, hn)) score = 1000;
        break;
      case BOXLINT_ENTRY_WILDCARD: {
        size_t sl = e->text_len - 2u;
        if (d.has_name && hn >= sl + 2 && h[hn - sl - 1] == '.' && !memcmp(h + hn - sl, t + 2, sl))
          score = 2 + (int)sl;
        break;
      }
      case BOXLINT_ENTRY_ANY_HOST:
        if (d.has_name) score = 1;
        break;
      default: break;
      }
      if (score > best_name) {
        best_name = score;
        m.name[l] = (int32_t)i;
      }
    }
  }
  conclude(out, p, &d, &m);
  return BOXLINT_OK;
}

/* Policy validation (design.md §3): a policy as written gives its findings (the type, the lists,
 * every entry, duplicates, overlaps and coverage between the lists, the E2B restrictions) and,
 * when it has no error, a compiled policy. Parses entries (entry.c), describes invalid ones
 * (messages.c), stores and compiles the valid ones (compile.c) and reads the compiled segments
 * and host-name table to judge overlaps. */
#include <string.h>
#include "policy_int.h"
#include "report/emit.h"

/* Short names for the rule ids this file emits (report/rules.def). */
#define R_TYPE BL_R_INVALID_POLICY_TYPE
#define R_ENTRY BL_R_INVALID_POLICY_ENTRY
#define R_LISTS BL_R_LISTS_NOT_ALLOWED
#define R_TOO_MANY BL_R_TOO_MANY_ENTRIES
#define R_ALLOW_NOEFF BL_R_ALLOW_WITHOUT_EFFECT
#define R_DENY_NOEFF BL_R_DENY_WITHOUT_EFFECT
#define R_EMPTY_OPEN BL_R_FILTERED_EMPTY_IS_OPEN
#define R_DUP BL_R_DUPLICATE_ENTRY
#define R_SHADOW BL_R_SHADOWED_ENTRY
#define R_BROAD BL_R_BROAD_WILDCARD
#define R_ANY BL_R_ANY_HOST
#define R_MAPPED BL_R_MAPPED_ADDRESS
#define R_DOMAINS_ALL BL_R_DOMAINS_REQUIRE_DENY_ALL
#define R_COMPAT_DENY_DOMAIN BL_R_COMPAT_DENY_DOMAIN
#define R_COMPAT_IPV6 BL_R_COMPAT_IPV6

static const char *const LIST_NAME[2] = {"allow_out", "deny_out"};

/* Per-entry state while validating. */
typedef struct vstate {
  boxlint__pdetail detail; /* invalid: why */
  int32_t dup_of;          /* duplicate of this index, or -1 */
  uint8_t compat_unspec;
} vstate;

typedef struct vctx {
  boxlint_report *r;
  boxlint_policy *p;
  const boxlint_policy_options *o;
  const boxlint_severity *sev; /* the config's severities (BL_WARNINGS), or NULL: defaults */
  size_t nerr;                 /* errors found (a warning a config raises is not one) */
  const boxlint_policy_spec *spec;
  const boxlint_span *raw[2];
  size_t n[2];   /* entries parsed (at most max_entries) */
  vstate *st[2];
} vctx;

/*==============================================================================================
 * MARK: Findings
 *============================================================================================*/

static const char *vpath(vctx *c, const char *field) {
  const boxlint_span *pp = &c->o->path_prefix;
  if (!pp->ptr) return boxlint__rprintf(c->r, "network_policy%s%s", field ? "." : "",
                                        field ? field : "");
  if (!pp->len) return field ? field : NULL;
  return boxlint__rprintf(c->r, "%.*s%s%s", (int)pp->len, pp->ptr, field ? "." : "",
                          field ? field : "");
}

/* A finding of `rule`: a warning at the config's severity (NULL when switched off), an error
 * as it is (a config cannot lower one). Only errors refuse the policy: a warning that a config
 * raises to an error is reported as one, and the policy still compiles. */
static boxlint_diag *vadd(vctx *c, const char *rule, boxlint_severity sev, const char *field) {
  if (sev == BOXLINT_SEVERITY_ERROR) c->nerr++;
  else sev = bl_severity_override(c->sev, rule, sev);
  if (sev == BOXLINT_SEVERITY_OFF) return NULL;
  boxlint_diag *d = boxlint__report_add(c->r, rule, sev, -1);
  if (d) d->path = vpath(c, field);
  return d;
}

static boxlint_diag *vadd_entry(vctx *c, const char *rule, boxlint_severity sev, int l,
                                size_t i) {
  const char *w = boxlint__rprintf(c->r, "%s[%zu]", LIST_NAME[l], i);
  return w ? vadd(c, rule, sev, w) : NULL;
}

static const char *where_of(vctx *c, int l, size_t i) {
  const char *w = boxlint__rprintf(c->r, "%s[%zu]", LIST_NAME[l], i);
  return w ? w : "";
}

static const char *qraw(vctx *c, int l, size_t i) {
  const boxlint_span *s = &c->raw[l][i];
  return boxlint__policy_quote(c->r, s->ptr ? s->ptr : "", s->len, 80);
}

static const char *etext(const boxlint_policy *p, int l, size_t i) {
  return p->text + p->entries[l][i].text_off;
}

static int pe_is_name(const boxlint__pentry *e) {
  return e->kind == BOXLINT_ENTRY_DOMAIN || e->kind == BOXLINT_ENTRY_WILDCARD ||
         e->kind == BOXLINT_ENTRY_ANY_HOST;
}

static void add_all_traffic_fix(vctx *c, boxlint_diag *d) {
  const char *desc = boxlint__rprintf(c->r, "add \"ALL_TRAFFIC\" to %s", vpath(c, "deny_out"));
  boxlint__diag_fix(c->r, d, c->spec->n_deny, 0, "ALL_TRAFFIC", 11,
                    desc ? desc : "add \"ALL_TRAFFIC\" to deny_out");
  /* unsafe: the sandbox's egress goes from allow-all to deny-all but the allowed entries */
  boxlint__diag_fix_safety(d, BOXLINT_FIX_UNSAFE);
}

/*==============================================================================================
 * MARK: Duplicates
 *============================================================================================*/

/* Same destination set: equal kind class and value. An address and the same /32 (/128) CIDR are
 * duplicates. */
static int pe_cmp(const boxlint_policy *p, const boxlint__pentry *a, const boxlint__pentry *b) {
  int ka = a->kind == BOXLINT_ENTRY_ADDRESS ? BOXLINT_ENTRY_CIDR : a->kind;
  int kb = b->kind == BOXLINT_ENTRY_ADDRESS ? BOXLINT_ENTRY_CIDR : b->kind;
  if (ka != kb) return ka < kb ? -1 : 1;
  if (ka == BOXLINT_ENTRY_CIDR) {
    if (a->family != b->family) return a->family < b->family ? -1 : 1;
    if (a->addr.hi != b->addr.hi) return a->addr.hi < b->addr.hi ? -1 : 1;
    if (a->addr.lo != b->addr.lo) return a->addr.lo < b->addr.lo ? -1 : 1;
    if (a->plen != b->plen) return a->plen < b->plen ? -1 : 1;
    return 0;
  }
  return strcmp(p->text + a->text_off, p->text + b->text_off);
}

/* Sort indices by entry, then index (insertion sort into runs would be O(n^2); use a merge
 * sort with a scratch buffer). */
static void sort_idx(const boxlint_policy *p, const boxlint__pentry *e, uint32_t *a, uint32_t *t,
                     size_t n) {
  if (n < 2) return;
  size_t h = n / 2;
  sort_idx(p, e, a, t, h);
  sort_idx(p, e, a + h, t, n - h);
  size_t i = 0, j = h, k = 0;
  while (i < h && j < n) {
    int c = pe_cmp(p, &e[a[i]], &e[a[j]]);
    if (c < 0 || (c == 0 && a[i] < a[j])) t[k++] = a[i++];
    else t[k++] = a[j++];
  }
  while (i < h) t[k++] = a[i++];
  while (j < n) t[k++] = a[j++];
  memcpy(a, t, n * sizeof *a);
}

static int find_dups(vctx *c, int l) {
  size_t n = c->n[l];
  boxlint_policy *p = c->p;
  if (n < 2) return 1;
  uint32_t *a = boxlint__malloc(&p->mem, n * sizeof *a);
  uint32_t *t = boxlint__malloc(&p->mem, n * sizeof *t);
  if (!a || !t) {
    boxlint__free(&p->mem, a);
    boxlint__free(&p->mem, t);
    return 0;
  }
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (!c->st[l][i].detail) a[m++] = (uint32_t)i;
  sort_idx(p, p->entries[l], a, t, m);
  for (size_t i = 1; i < m; i++) {
    if (pe_cmp(p, &p->entries[l][a[i - 1]], &p->entries[l][a[i]]) == 0) {
      int32_t first = c->st[l][a[i - 1]].dup_of >= 0 ? c->st[l][a[i - 1]].dup_of
                                                     : (int32_t)a[i - 1];
      c->st[l][a[i]].dup_of = first;
    }
  }
  boxlint__free(&p->mem, a);
  boxlint__free(&p->mem, t);
  return 1;
}

/*==============================================================================================
 * MARK: Overlap and coverage
 *============================================================================================*/

static size_t fam_ix(const boxlint__pentry *e) { return e->family == 6 ? 1 : 0; }

static boxlint__u128 pe_last(const boxlint__pentry *e) {
  boxlint__u128 hm = boxlint__u128_hostmask((e->family == 6 ? 128u : 32u) - e->plen), x = e->addr;
  x.hi |= hm.hi;
  x.lo |= hm.lo;
  return x;
}

static int u_le(boxlint__u128 a, boxlint__u128 b) {
  return a.hi < b.hi || (a.hi == b.hi && a.lo <= b.lo);
}

/* Some prefix of list `o` (family of `e`) intersects the prefix `e`. */
static int ip_overlaps(const boxlint_policy *p, const boxlint__pentry *e, int o) {
  const boxlint__segs *s = &p->inner[o][fam_ix(e)];
  size_t k;
  if (!s->n) return 0;
  if (boxlint__segs_at(s, e->addr, &k) >= 0) return 1;
  /* Segments are maximal: the next one, if any, holds an entry. */
  return k + 1 < s->n && u_le(s->start[k + 1], pe_last(e));
}

/* Does some name of list `o` possibly overlap the name entry `e`? */
static int name_overlaps(const boxlint_policy *p, const boxlint__pentry *e, int o) {
  if (p->any[o] >= 0) return 1;
  const char *s = p->text + e->text_off;
  size_t n = e->text_len;
  if (e->kind == BOXLINT_ENTRY_ANY_HOST) return p->has_name[o];
  if (e->kind == BOXLINT_ENTRY_WILDCARD) {
    s += 2;
    n -= 2;
    const boxlint__dnode *nd = boxlint__dfind(p, s, n);
    if (nd && (nd->below[o] || nd->wild[o] >= 0)) return 1;
  } else {
    const boxlint__dnode *nd = boxlint__dfind(p, s, n);
    if (nd && nd->exact[o] >= 0) return 1;
  }
  for (size_t i = 0; i < n; i++)
    if (s[i] == '.') {
      const boxlint__dnode *nd = boxlint__dfind(p, s + i + 1, n - i - 1);
      if (nd && nd->wild[o] >= 0) return 1;
    }
  return 0;
}

/* Some entry of list `o` could match a destination that `e` matches. A named destination has
 * an address too, so name entries and address entries always may overlap. */
static int overlaps(const boxlint_policy *p, const boxlint__pentry *e, int o) {
  if (p->all[o] >= 0) return 1;
  switch (e->kind) {
  case BOXLINT_ENTRY_ALL_TRAFFIC: return p->n[o] > 0;
  case BOXLINT_ENTRY_ADDRESS:
  case BOXLINT_ENTRY_CIDR: return p->has_name[o] || ip_overlaps(p, e, o);
  default: return p->has_ip[o] || name_overlaps(p, e, o);
  }
}

/* The index of one name entry of list `o` that matches every name the name entry `e`
 * matches, or -1. */
static int32_t name_covered_by(const boxlint_policy *p, const boxlint__pentry *e, int o) {
  if (e->kind == BOXLINT_ENTRY_ANY_HOST) return p->any[o];
  const char *s = p->text + e->text_off;
  size_t n = e->text_len;
  int32_t best = -1;
  if (e->kind == BOXLINT_ENTRY_WILDCARD) {
    s += 2;
    n -= 2;
    const boxlint__dnode *nd = boxlint__dfind(p, s, n);
    if (nd) best = nd->wild[o];
  } else {
    const boxlint__dnode *nd = boxlint__dfind(p, s, n);
    if (nd) best = nd->exact[o];
  }
  for (size_t i = 0; i < n && best < 0; i++)
    if (s[i] == '.') {
      const boxlint__dnode *nd = boxlint__dfind(p, s + i + 1, n - i - 1);
      if (nd && nd->wild[o] >= 0) best = nd->wild[o];
    }
  return best >= 0 ? best : p->any[o];
}

/* The index of one entry of list `o` that matches everything `e` matches, or -1. */
static int32_t covered_by(const boxlint_policy *p, boxlint__segs outer[2][2],
                          const boxlint__pentry *e, int o) {
  if (p->all[o] >= 0) return p->all[o];
  switch (e->kind) {
  case BOXLINT_ENTRY_ALL_TRAFFIC: return -1;
  case BOXLINT_ENTRY_ADDRESS:
  case BOXLINT_ENTRY_CIDR: {
    const boxlint__segs *s = &outer[o][fam_ix(e)];
    size_t k;
    if (!s->n) return -1;
    int32_t x = boxlint__segs_at(s, e->addr, &k);
    return x >= 0 && p->entries[o][x].plen <= e->plen ? x : -1;
  }
  default: break;
  }
  return name_covered_by(p, e, o);
}

/*==============================================================================================
 * MARK: Findings of one entry
 *============================================================================================*/

/* One entry's place and text, for its messages. */
typedef struct ventry {
  int l;
  size_t i;
  const vstate *st;
  const boxlint__pentry *e;
  const char *w, *q, *t; /* "allow_out[2]", the entry as written (quoted), its normal text */
} ventry;

static void emit_invalid(vctx *c, int l, size_t i) {
  const boxlint_span *raw = &c->raw[l][i];
  const char *rs = raw->ptr ? raw->ptr : "";
  boxlint__entry pe;
  boxlint__policy_entry_parse(&pe, rs, raw->len, 0);
  boxlint_diag *d = vadd_entry(c, R_ENTRY, BOXLINT_SEVERITY_ERROR, l, i);
  if (d) boxlint__policy_describe(c->r, d, rs, raw->len, &pe, where_of(c, l, i), i);
}

/* What E2B's API rejects: a network at the unspecified address, host names in deny_out, IPv6. */
static void emit_compat(vctx *c, const ventry *v) {
  boxlint_diag *d;
  if (v->st->compat_unspec) {
    d = vadd_entry(c, R_ENTRY, BOXLINT_SEVERITY_ERROR, v->l, v->i);
    if (d) {
      d->detail = boxlint__policy_detail_name(BOXLINT__PD_UNSPEC);
      d->message = boxlint__rmsg(c->r,
                                 "%s: '%s' starts at the unspecified address; E2B rejects "
                                 "such networks other than 0.0.0.0/0",
                                 v->w, v->q);
      d->hint = "write ALL_TRAFFIC (or 0.0.0.0/0) for all traffic, or a network of real addresses";
    }
  }
  if (!(c->o->compat & BOXLINT_COMPAT_E2B)) return;
  if (v->l == 1 && pe_is_name(v->e)) {
    d = vadd_entry(c, R_COMPAT_DENY_DOMAIN, BOXLINT_SEVERITY_ERROR, v->l, v->i);
    if (d) {
      d->message = boxlint__rmsg(c->r, "%s: '%s': E2B does not support host names in deny_out",
                                 v->w, v->q);
      d->hint = "deny its addresses instead, or write an allow-list: the names you need in "
                "allow_out and \"ALL_TRAFFIC\" in deny_out";
    }
  }
  if (v->e->family == 6) {
    d = vadd_entry(c, R_COMPAT_IPV6, BOXLINT_SEVERITY_ERROR, v->l, v->i);
    if (d) {
      if (v->l == 1 && v->e->plen == 0)
        d->message = boxlint__rmsg(c->r, "%s: '%s': E2B rejects '::/0' in deny_out", v->w, v->q);
      else
        d->message = boxlint__rmsg(c->r,
                                   "%s: '%s': E2B enforces IPv4 only and would read this "
                                   "IPv6 entry as a different network",
                                   v->w, v->q);
      d->hint = "E2B turns a bare address into a /32 and its firewall carries no IPv6; list "
                "IPv4 addresses, or use ALL_TRAFFIC";
    }
  }
}

/* Warnings of the entry on its own: a mapped address, `*`, a wildcard over a top-level domain. */
static void emit_kind(vctx *c, const ventry *v) {
  const boxlint__pentry *e = v->e;
  boxlint_diag *d;
  if (e->mapped) {
    d = vadd_entry(c, R_MAPPED, BOXLINT_SEVERITY_WARNING, v->l, v->i);
    if (d) {
      d->message = boxlint__rmsg(c->r,
                                 "%s: '%s' is an IPv4-mapped IPv6 address; it is treated as "
                                 "the IPv4 %s '%s'",
                                 v->w, v->q,
                                 e->kind == BOXLINT_ENTRY_CIDR ? "network" : "address", v->t);
      d->hint = boxlint__rprintf(c->r, "write '%s'", v->t);
    }
  }
  if (e->kind == BOXLINT_ENTRY_ANY_HOST) {
    d = vadd_entry(c, R_ANY, BOXLINT_SEVERITY_WARNING, v->l, v->i);
    if (d) {
      d->message = boxlint__rmsg(c->r,
                                 "%s: '*' matches every host name (but no destination "
                                 "reached by IP address)",
                                 v->w);
      d->hint = "list the host names you mean; use ALL_TRAFFIC for all traffic";
    }
  }
  if (e->kind == BOXLINT_ENTRY_WILDCARD && !memchr(v->t + 2, '.', e->text_len - 2)) {
    d = vadd_entry(c, R_BROAD, BOXLINT_SEVERITY_WARNING, v->l, v->i);
    if (d) {
      d->message = boxlint__rmsg(c->r,
                                 "%s: '%s' matches every name under the top-level domain '%s'",
                                 v->w, v->q, v->t + 2);
      d->hint = boxlint__rprintf(c->r, "name the domain, e.g. '*.example.%s'", v->t + 2);
    }
  }
}

/* Warnings about the entry against the other list: shadowed, or without effect. */
static void emit_effect(vctx *c, const ventry *v, boxlint__segs outer[2][2]) {
  const boxlint_policy *p = c->p;
  boxlint_diag *d;
  if (v->l == 1) {
    int32_t cov = covered_by(p, outer, v->e, 0);
    if (cov >= 0) {
      d = vadd_entry(c, R_SHADOW, BOXLINT_SEVERITY_WARNING, v->l, v->i);
      if (d) {
        d->message = boxlint__rmsg(c->r,
                                   "%s: '%s' can never decide: allow_out[%d] ('%s') covers "
                                   "it, and allow beats deny",
                                   v->w, v->q, (int)cov, etext(p, 0, (size_t)cov));
        d->hint = "remove it, or narrow the allow entry; an exception cannot be carved out of "
                  "an allow entry";
      }
      return;
    }
  }
  if (v->l == 0 && p->unmatched == BOXLINT_UNMATCHED_ALLOW && !overlaps(p, v->e, 1)) {
    d = vadd_entry(c, R_ALLOW_NOEFF, BOXLINT_SEVERITY_WARNING, v->l, v->i);
    if (d) {
      d->message = boxlint__rmsg(c->r,
                                 "%s: '%s' has no effect: no deny_out entry overlaps it, and "
                                 "destinations matched by neither list are allowed",
                                 v->w, v->q);
      d->hint = "to allow only what allow_out lists, add \"ALL_TRAFFIC\" to deny_out";
      add_all_traffic_fix(c, d);
    }
  }
  if (v->l == 1 && p->unmatched == BOXLINT_UNMATCHED_DENY && !overlaps(p, v->e, 0)) {
    d = vadd_entry(c, R_DENY_NOEFF, BOXLINT_SEVERITY_WARNING, v->l, v->i);
    if (d) {
      d->message = boxlint__rmsg(c->r,
                                 "%s: '%s' has no effect: no allow_out entry overlaps it, and "
                                 "destinations matched by neither list are denied",
                                 v->w, v->q);
      d->hint = "remove it";
    }
  }
}

static void emit_entry(vctx *c, int l, size_t i, int effects, boxlint__segs outer[2][2]) {
  boxlint_policy *p = c->p;
  const vstate *st = &c->st[l][i];
  if (st->detail) {
    emit_invalid(c, l, i);
    return;
  }
  ventry v;
  v.l = l;
  v.i = i;
  v.st = st;
  v.e = &p->entries[l][i];
  v.w = where_of(c, l, i);
  v.q = qraw(c, l, i);
  v.t = etext(p, l, i);
  emit_compat(c, &v);
  if (st->dup_of >= 0) {
    boxlint_diag *d = vadd_entry(c, R_DUP, BOXLINT_SEVERITY_WARNING, l, i);
    if (d) {
      d->message = boxlint__rmsg(c->r, "%s: '%s' repeats %s[%d] ('%s')", v.w, v.q,
                                 LIST_NAME[l], (int)st->dup_of,
                                 etext(p, l, (size_t)st->dup_of));
      d->hint = "remove the repeated entry";
    }
    return;
  }
  emit_kind(c, &v);
  if (effects) emit_effect(c, &v, outer);
}

/*==============================================================================================
 * MARK: The policy
 *============================================================================================*/

/* The type: exactly "disabled", "open" or "filtered" (absent: disabled). 0 when invalid. */
static int check_type(vctx *c) {
  const boxlint_span *ty = &c->spec->type;
  c->p->type = BOXLINT_POLICY_DISABLED;
  if (!ty->ptr) return 1;
  static const char *const names[3] = {"disabled", "open", "filtered"};
  int found = -1, ci = -1;
  for (int k = 0; k < 3; k++) {
    size_t L = strlen(names[k]);
    if (ty->len == L && !memcmp(ty->ptr, names[k], L)) found = k;
    else if (boxlint__ieq(ty->ptr, ty->len, names[k])) ci = k;
  }
  if (found >= 0) {
    c->p->type = (boxlint_policy_type)found;
    return 1;
  }
  boxlint_diag *d = vadd(c, R_TYPE, BOXLINT_SEVERITY_ERROR, "type");
  if (d) {
    d->message = boxlint__rmsg(c->r, "type '%s' is not one of 'disabled', 'open' or 'filtered'",
                               boxlint__policy_quote(c->r, ty->ptr, ty->len, 40));
    d->hint = ci >= 0 ? boxlint__rprintf(c->r, "did you mean '%s'? (types are lower-case)",
                                         names[ci])
                      : "'disabled' blocks all egress, 'open' allows all, 'filtered' applies "
                        "allow_out and deny_out";
  }
  return 0;
}

/* Parse and store every entry up to the limit; `*any_invalid` set when one is invalid (or, in
 * E2B mode, a network at the unspecified address). */
static boxlint_status parse_entries(vctx *c, int *any_invalid) {
  boxlint_policy *p = c->p;
  for (int l = 0; l < 2; l++) {
    size_t n = c->n[l];
    if (!n) continue;
    c->st[l] = boxlint__malloc(&p->mem, n * sizeof *c->st[l]);
    if (boxlint__policy_reserve(p, l, n) != BOXLINT_OK || !c->st[l]) return BOXLINT_ENOMEM;
    for (size_t i = 0; i < n; i++) {
      const boxlint_span *s = &c->raw[l][i];
      boxlint__entry pe;
      vstate *st = &c->st[l][i];
      st->dup_of = -1;
      st->compat_unspec = 0;
      st->detail = boxlint__policy_entry_parse(&pe, s->ptr ? s->ptr : "", s->len, 0);
      if (st->detail) *any_invalid = 1;
      if (boxlint__policy_store(p, l, i, st->detail ? NULL : &pe) != BOXLINT_OK)
        return BOXLINT_ENOMEM;
      const boxlint__pentry *e = &p->entries[l][i];
      if (!st->detail && (c->o->compat & BOXLINT_COMPAT_E2B) && e->family == 4 && !e->addr.lo &&
          e->plen > 0) {
        st->compat_unspec = 1;
        *any_invalid = 1;
      }
    }
    p->n[l] = n;
  }
  return BOXLINT_OK;
}

/* Lists under a type that takes none, and lists over the limit. 0 when either is found. */
static int check_lists(vctx *c, int type_ok) {
  const boxlint_policy *p = c->p;
  int lists_ok = 1;
  for (int l = 0; l < 2; l++) {
    size_t total = l ? c->spec->n_deny : c->spec->n_allow;
    boxlint_diag *d;
    if (type_ok && p->type != BOXLINT_POLICY_FILTERED && total) {
      lists_ok = 0;
      d = vadd(c, R_LISTS, BOXLINT_SEVERITY_ERROR, LIST_NAME[l]);
      if (d) {
        d->message = boxlint__rmsg(c->r, "%s has %zu %s, but type '%s' takes no lists",
                                   LIST_NAME[l], total, total == 1 ? "entry" : "entries",
                                   boxlint_policy_type_str(p->type));
        d->hint = p->type == BOXLINT_POLICY_DISABLED
                      ? "to allow only some destinations, use type 'filtered' with \"ALL_TRAFFIC\" "
                        "in deny_out and the destinations in allow_out"
                      : "use type 'filtered' to apply the lists, or remove them";
      }
    }
    if (total > c->o->max_entries) {
      lists_ok = 0;
      d = vadd(c, R_TOO_MANY, BOXLINT_SEVERITY_ERROR, LIST_NAME[l]);
      if (d) {
        d->message = boxlint__rmsg(c->r,
                                   "%s has %zu entries; at most %zu are allowed (entries "
                                   "after %s[%zu] were not checked)",
                                   LIST_NAME[l], total, c->o->max_entries, LIST_NAME[l],
                                   c->o->max_entries - 1);
        d->hint = "merge addresses into CIDRs and names under '*.' wildcards";
      }
    }
  }
  return lists_ok;
}

static void check_empty_filtered(vctx *c) {
  const boxlint_policy_spec *sp = c->spec;
  if (sp->n_allow || sp->n_deny || c->p->unmatched != BOXLINT_UNMATCHED_ALLOW) return;
  boxlint_diag *d = vadd(c, R_EMPTY_OPEN, BOXLINT_SEVERITY_WARNING, NULL);
  if (d) {
    d->message = "type is 'filtered' but allow_out and deny_out are empty: every destination "
                 "is allowed";
    d->hint = "use type 'open' to allow everything, or add \"ALL_TRAFFIC\" to deny_out and the "
              "destinations you need to allow_out";
  }
}

/* E2B: host names in allow_out need ALL_TRAFFIC in deny_out. */
static void check_e2b_domains(vctx *c) {
  const boxlint_policy *p = c->p;
  int has_all = 0;
  size_t first_name = SIZE_MAX;
  for (size_t i = 0; i < c->n[1]; i++)
    if (!c->st[1][i].detail && p->entries[1][i].kind == BOXLINT_ENTRY_ALL_TRAFFIC) has_all = 1;
  for (size_t i = c->n[0]; i-- > 0;)
    if (!c->st[0][i].detail && pe_is_name(&p->entries[0][i])) first_name = i;
  if (first_name == SIZE_MAX || has_all) return;
  boxlint_diag *d = vadd(c, R_DOMAINS_ALL, BOXLINT_SEVERITY_ERROR, LIST_NAME[1]);
  if (d) {
    d->message = boxlint__rmsg(c->r,
                               "allow_out lists host names (allow_out[%zu] '%s') but "
                               "deny_out lacks ALL_TRAFFIC: when specifying allowed "
                               "domains in allow out, you must include 'ALL_TRAFFIC' in "
                               "deny out to block all other traffic",
                               first_name, qraw(c, 0, first_name));
    d->hint = "add \"ALL_TRAFFIC\" to deny_out";
    add_all_traffic_fix(c, d);
  }
}

static void outer_free(boxlint_policy *p, boxlint__segs outer[2][2]) {
  for (int l = 0; l < 2; l++)
    for (int f = 0; f < 2; f++) boxlint__segs_free(&p->mem, &outer[l][f]);
}

static boxlint_status validate(vctx *c) {
  boxlint_policy *p = c->p;
  int type_ok = check_type(c), any_invalid = 0;
  if (parse_entries(c, &any_invalid) != BOXLINT_OK) return BOXLINT_ENOMEM;
  for (int l = 0; l < 2; l++)
    if (!find_dups(c, l)) return BOXLINT_ENOMEM;
  int lists_ok = check_lists(c, type_ok);
  int filtered = type_ok && p->type == BOXLINT_POLICY_FILTERED;
  if (filtered) check_empty_filtered(c);

  /* Tables: needed for decisions and for the effect warnings. */
  boxlint__segs outer[2][2];
  memset(outer, 0, sizeof outer);
  int effects = filtered && lists_ok && !any_invalid;
  boxlint_status st = BOXLINT_OK;
  if (effects) st = boxlint__policy_build(p, outer);
  if (st != BOXLINT_OK) {
    outer_free(p, outer);
    return st;
  }
  if (filtered && (c->o->compat & BOXLINT_COMPAT_E2B)) check_e2b_domains(c);
  for (int l = 0; l < 2; l++)
    for (size_t i = 0; i < c->n[l]; i++) emit_entry(c, l, i, effects, outer);
  outer_free(p, outer);
  if (c->r->oom) return BOXLINT_ENOMEM;
  if (c->nerr) return BOXLINT_ESYNTAX;
  if (!effects) st = boxlint__policy_build(p, NULL); /* e.g. disabled or open: trivial tables */
  return st;
}

boxlint_status boxlint__policy_validate(boxlint_policy *p, boxlint_report *r,
                                        const boxlint_policy_spec *spec,
                                        const boxlint_policy_options *o) {
  vctx c;
  memset(&c, 0, sizeof c);
  c.r = r;
  c.p = p;
  c.o = o;
  c.sev = bl_config_sevs(o->config);
  c.spec = spec;
  c.raw[0] = spec->allow_out;
  c.raw[1] = spec->deny_out;
  c.n[0] = spec->n_allow < o->max_entries ? spec->n_allow : o->max_entries;
  c.n[1] = spec->n_deny < o->max_entries ? spec->n_deny : o->max_entries;
  boxlint_status st = validate(&c);
  for (int l = 0; l < 2; l++) boxlint__free(&p->mem, c.st[l]);
  return st;
}

/* Private to the NetworkPolicy code (egress_parse.c, egress_match.c) and its tests/bench. */
#ifndef boxlint_EGRESS_INT_H
#define boxlint_EGRESS_INT_H

#include <stddef.h>
#include <stdint.h>
#include "internal.h"

/* A 128-bit unsigned value; IPv4 addresses live in `lo`. */
typedef struct boxlint__u128 {
  uint64_t hi, lo;
} boxlint__u128;

/* The low `hbits` bits set: the host part of a prefix of (width - hbits) bits. */
static inline boxlint__u128 boxlint__u128_hostmask(unsigned hbits) {
  boxlint__u128 m;
  if (hbits >= 128) {
    m.hi = m.lo = UINT64_MAX;
  } else if (hbits >= 64) {
    m.lo = UINT64_MAX;
    m.hi = hbits == 64 ? 0 : UINT64_MAX >> (128 - hbits);
  } else {
    m.hi = 0;
    m.lo = hbits == 0 ? 0 : UINT64_MAX >> (64 - hbits);
  }
  return m;
}

/* One parsed entry or destination, with what the messages and the tables need. */
typedef struct boxlint__entry {
  boxlint_policy_entry e;
  boxlint__u128 addr; /* the network (masked) for ADDRESS/CIDR */
  boxlint__u128 raw;  /* the address as written (host-bits hint) */
  int has_prefix;     /* written with "/len" */
} boxlint__entry;

/* Parse one entry (`dest` 0) or one destination (`dest` 1: no ALL_TRAFFIC, no wildcards, no
 * normalised text for addresses). Returns NULL when valid, else the static detail string, which
 * is also stored in out->e.detail. Allocates nothing. */
const char *boxlint__egress_parse(boxlint__entry *out, const char *s, size_t n, int dest);

/* Fill `d->message` and `d->hint` for an invalid entry `raw` (parsed into `pe`), entry `index`
 * of its list; `where` is "allow_out[2]". A non-ASCII entry with a valid A-label (libidn2) also
 * gets a fix replacing it (list-relative: offset `index`, length 1) and its position (offset,
 * end_offset into the entry: the first non-ASCII character). Strings go to the report's arena;
 * an allocation failure sets r->oom. */
void boxlint__egress_describe(boxlint_report *r, boxlint_diag *d, const char *raw, size_t n,
                              const boxlint__entry *pe, const char *where, size_t index);

/* A compiled entry. */
typedef struct boxlint__pentry {
  boxlint__u128 addr;
  uint32_t text_off; /* NUL-terminated normalised text in policy->text */
  uint16_t text_len;
  uint8_t kind;   /* boxlint_policy_entry_kind */
  uint8_t family; /* 4, 6 or 0 */
  uint8_t plen;
  uint8_t mapped;
} boxlint__pentry;

/* A piecewise-constant function over an address space: on [start[k], start[k+1]) the value is
 * val[k] (an entry index or -1). start[0] is 0. */
typedef struct boxlint__segs {
  boxlint__u128 *start;
  uint32_t *start4; /* IPv4 copy of `start` for fast searches (family 4 only) */
  int32_t *val;
  size_t n;
} boxlint__segs;

/* A host-name node: an entry's name or a proper suffix of one. */
typedef struct boxlint__dnode {
  uint64_t hash;
  uint32_t off; /* name in policy->text */
  uint16_t len; /* 0: empty slot */
  uint8_t below[2]; /* some entry of list l names something strictly under this name */
  int32_t exact[2], wild[2]; /* lowest index of `name` / `*.name` in list l, or -1 */
} boxlint__dnode;

struct boxlint_policy {
  boxlint__mem mem;
  boxlint_policy_type type;
  boxlint_policy_unmatched unmatched;
  char *text;
  size_t text_len, text_cap;
  boxlint__pentry *entries[2];
  size_t n[2];
  /* Longest (innermost) prefix per point: [list][family 0 = IPv4, 1 = IPv6]. */
  boxlint__segs inner[2][2];
  boxlint__dnode *dt; /* open addressing, dmask + 1 slots (0 slots when NULL) */
  size_t dmask;
  int32_t any[2], all[2];   /* lowest index of `*` / ALL in list l, or -1 */
  uint8_t has_ip[2];        /* any ADDRESS, CIDR or ALL entry */
  uint8_t has_narrow_ip[2]; /* any ADDRESS or CIDR entry (not ALL) */
  uint8_t has_name[2];      /* any DOMAIN, WILDCARD or ANY_HOST entry */
};

/* Build the lookup tables (inner segments, host-name table, summary flags) from the entries.
 * With `outer` non-NULL also build, per list and family, the shortest-prefix function (for
 * coverage checks); the caller frees it with boxlint__segs_free. */
boxlint_status boxlint__policy_build(boxlint_policy *p, boxlint__segs outer[2][2]);
void boxlint__segs_free(const boxlint__mem *m, boxlint__segs *s);
/* Free everything a policy owns, but not the policy itself. */
void boxlint__policy_clear(boxlint_policy *p);

/* Host-name table lookups (NULL when absent). */
const boxlint__dnode *boxlint__dfind(const boxlint_policy *p, const char *s, size_t n);
/* Value of `s` at `a` (the segment containing it), and the index of that segment. */
int32_t boxlint__segs_at(const boxlint__segs *s, boxlint__u128 a, size_t *k);

/* The reference decision: a plain linear scan over every entry, independent of the tables.
 * Same contract as boxlint_policy_decide. */
boxlint_status boxlint__policy_decide_linear(boxlint_decision *out, const boxlint_policy *p,
                                             const char *host, size_t host_len, const char *ip,
                                             size_t ip_len);

/* The NetworkPolicy rules (id, default severity, summary, description, bad and good
 * examples), static, for the library's rule list (`boxlint rules`, `boxlint explain`). */
const boxlint_rule_info *boxlint__egress_rules(size_t *count);

#endif

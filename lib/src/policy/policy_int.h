/* Private to lib/src/policy/ (and to the tests, fuzzers and benchmarks that check it from the
 * inside). Sections follow the stages, in the one direction data flows:
 * entry (entry.c, idna.c, messages.c) -> compiled policy (compile.c) -> decision (decide.c);
 * validate.c and policy.c sit on top and drive them. */
#ifndef boxlint_POLICY_INT_H
#define boxlint_POLICY_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "report/internal.h"

/*==============================================================================================
 * MARK: 128-bit values
 *============================================================================================*/

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

static inline int boxlint__u128_lt(boxlint__u128 a, boxlint__u128 b) {
  return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}
static inline int boxlint__u128_eq(boxlint__u128 a, boxlint__u128 b) {
  return a.hi == b.hi && a.lo == b.lo;
}

/*==============================================================================================
 * MARK: Entries (entry.c): an entry's bytes -> a parsed entry
 *============================================================================================*/

/* Why an entry is invalid (docs/design.md §3); 0 when valid. boxlint__policy_detail_name gives
 * the public `detail` string of each. */
typedef enum boxlint__pdetail {
  BOXLINT__PD_NONE = 0,
  BOXLINT__PD_EMPTY,
  BOXLINT__PD_TOO_LONG,
  BOXLINT__PD_NON_ASCII,
  BOXLINT__PD_WHITESPACE,
  BOXLINT__PD_URL,
  BOXLINT__PD_USERINFO,
  BOXLINT__PD_BRACKETS,
  BOXLINT__PD_ZONE,
  BOXLINT__PD_PATH,
  BOXLINT__PD_PORT,
  BOXLINT__PD_IPV6,
  BOXLINT__PD_LEAD0,
  BOXLINT__PD_SHORT,
  BOXLINT__PD_NONDEC,
  BOXLINT__PD_RANGE,
  BOXLINT__PD_TDOT,
  BOXLINT__PD_PSYNTAX,
  BOXLINT__PD_PRANGE,
  BOXLINT__PD_HOSTBITS,
  BOXLINT__PD_UNSPEC,
  BOXLINT__PD_MAPPED,
  BOXLINT__PD_EMPTY_LABEL,
  BOXLINT__PD_LABEL_LONG,
  BOXLINT__PD_NAME_LONG,
  BOXLINT__PD_LABEL_SYNTAX,
  BOXLINT__PD_NUM_TLD,
  BOXLINT__PD_WILDPOS,
  BOXLINT__PD_LEADDOT
} boxlint__pdetail;

/* "empty", "too-long", ...: static storage, one string per detail; NULL for BOXLINT__PD_NONE. */
const char *boxlint__policy_detail_name(boxlint__pdetail d);

/* One parsed entry or destination, with what the messages and the tables need. */
typedef struct boxlint__entry {
  boxlint_policy_entry e;
  boxlint__pdetail code; /* why it is invalid (e.detail is its name), or BOXLINT__PD_NONE */
  boxlint__u128 addr;    /* the network (masked) for ADDRESS/CIDR */
  boxlint__u128 raw;     /* the address as written (host-bits hint) */
  int has_prefix;        /* written with "/len" */
} boxlint__entry;

/* Parse one entry (`dest` 0) or one destination (`dest` 1: no ALL_TRAFFIC, no wildcards, no
 * normalised text for addresses). Returns BOXLINT__PD_NONE when valid, else why not (also in
 * out->code, and its name in out->e.detail). Allocates nothing. */
boxlint__pdetail boxlint__policy_entry_parse(boxlint__entry *out, const char *s, size_t n,
                                             int dest);

/* The lexer's pieces that the messages reuse. Strict dotted quad into `*out`; 0 or why not. */
boxlint__pdetail boxlint__policy_parse_ipv4(const char *s, size_t n, uint32_t *out);
/* Dotted quad / RFC 5952 text of an address into `b` (16 / 40 bytes), NUL-terminated; returns
 * its length. */
size_t boxlint__policy_fmt_ipv4(char *b, uint32_t v);
size_t boxlint__policy_fmt_ipv6(char *b, boxlint__u128 a);

static inline int boxlint__policy_is_hex(unsigned char c) {
  return boxlint__is_digit(c) || (unsigned char)((c | 0x20) - 'a') < 6;
}
static inline unsigned boxlint__policy_hexval(unsigned char c) {
  return boxlint__is_digit(c) ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
}
static inline int boxlint__policy_all_digits(const char *s, size_t n) {
  if (!n) return 0;
  for (size_t i = 0; i < n; i++)
    if (!boxlint__is_digit((unsigned char)s[i])) return 0;
  return 1;
}

/* boxlint__quote, never NULL (an empty string on OOM; the report then records the OOM). */
static inline const char *boxlint__policy_quote(boxlint_report *r, const char *p, size_t n,
                                                size_t max) {
  const char *q = boxlint__quote(r, p, n, max);
  return q ? q : "";
}

/*==============================================================================================
 * MARK: What is wrong with an entry (idna.c, messages.c)
 *============================================================================================*/

/* The A-label of a non-ASCII entry (libidn2), or why it has none. */
typedef struct boxlint__alabel {
  const char *why; /* NULL when `text` is the entry's A-label, a valid host name or wildcard;
                      "" after an allocation failure (r->oom is then set) */
  char text[BOXLINT_POLICY_ENTRY_MAX + 1];
  size_t len;
} boxlint__alabel;

/* Convert the non-ASCII entry s[0..n) (need not be NUL-terminated; never written). Strings of
 * `why` go to the report's arena. */
void boxlint__policy_alabel(boxlint_report *r, const char *s, size_t n, boxlint__alabel *out);

/* Fill `d->detail`, `d->message` and `d->hint` for an invalid entry `raw` (parsed into `pe`),
 * entry `index` of its list; `where` is "allow_out[2]". A non-ASCII entry with a valid A-label
 * also gets a fix replacing it (list-relative: offset `index`, length 1) and its position
 * (offset, end_offset into the entry: the first non-ASCII character). Strings go to the
 * report's arena; an allocation failure sets r->oom. */
void boxlint__policy_describe(boxlint_report *r, boxlint_diag *d, const char *raw, size_t n,
                              const boxlint__entry *pe, const char *where, size_t index);

/*==============================================================================================
 * MARK: The compiled policy (compile.c): parsed entries -> tables
 *============================================================================================*/

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

/* Room for `n` entries in list `l` (p->entries[l], uninitialised; p->n[l] is not changed). */
boxlint_status boxlint__policy_reserve(boxlint_policy *p, int l, size_t n);
/* Entry `i` of list `l` from a parsed entry; `pe` NULL for an invalid one (kind INVALID, empty
 * text). Its text goes to p->text. */
boxlint_status boxlint__policy_store(boxlint_policy *p, int l, size_t i, const boxlint__entry *pe);
/* Build the lookup tables (inner segments, host-name table, summary flags) from the entries.
 * With `outer` non-NULL also build, per list and family, the shortest-prefix function (for
 * coverage checks); the caller frees it with boxlint__segs_free. */
boxlint_status boxlint__policy_build(boxlint_policy *p, boxlint__segs outer[2][2]);
void boxlint__segs_free(const boxlint__mem *m, boxlint__segs *s);
/* Free everything a policy owns, but not the policy itself. */
void boxlint__policy_clear(boxlint_policy *p);

/* Queries on the tables, inline: decisions are the hot path, and they allocate nothing. */

/* Value of `s` at `a` (the segment containing it), and the index of that segment. */
static inline int32_t boxlint__segs_at(const boxlint__segs *s, boxlint__u128 a, size_t *k) {
  size_t lo = 0, hi = s->n; /* find the last start <= a; start[0] is 0 */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (boxlint__u128_lt(a, s->start[mid])) hi = mid;
    else lo = mid;
  }
  if (k) *k = lo;
  return s->n ? s->val[lo] : -1;
}

/* The same for an IPv4 family's segments. */
static inline int32_t boxlint__segs_at4(const boxlint__segs *s, uint32_t a) {
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

#define BOXLINT__NAME_HASH_MUL 0x100000001b3ull /* odd: powers never vanish mod 2^64 */

/* Polynomial hash accumulated right to left, so that a suffix's hash is a prefix of the work
 * (decide.c hashes every suffix of a host in one pass). */
static inline uint64_t boxlint__name_hash(const char *s, size_t n) {
  uint64_t h = 0, pw = 1;
  for (size_t i = n; i-- > 0;) {
    h += (uint64_t)(unsigned char)s[i] * pw;
    pw *= BOXLINT__NAME_HASH_MUL;
  }
  return h;
}

/* The slot hash of a name hash. */
static inline uint64_t boxlint__name_mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

/* Host-name table lookup of s[0..n), whose boxlint__name_hash is `h` (NULL when absent). */
static inline const boxlint__dnode *boxlint__dfind_h(const boxlint_policy *p, const char *s,
                                                     size_t n, uint64_t h) {
  if (!p->dt) return NULL;
  for (size_t i = (size_t)boxlint__name_mix(h) & p->dmask;; i = (i + 1) & p->dmask) {
    const boxlint__dnode *nd = &p->dt[i];
    if (!nd->len) return NULL;
    if (nd->hash == h && nd->len == n && !memcmp(p->text + nd->off, s, n)) return nd;
  }
}

static inline const boxlint__dnode *boxlint__dfind(const boxlint_policy *p, const char *s,
                                                   size_t n) {
  return boxlint__dfind_h(p, s, n, boxlint__name_hash(s, n));
}

/*==============================================================================================
 * MARK: Validation (validate.c): a policy as written -> findings and a compiled policy
 *============================================================================================*/

/* Validate `spec` under the checked options `o` (max_entries set) into the empty policy `p`
 * (mem, unmatched, any and all set), appending findings to `r`; on BOXLINT_OK the tables are
 * built. The caller frees `p` on any other result. */
boxlint_status boxlint__policy_validate(boxlint_policy *p, boxlint_report *r,
                                        const boxlint_policy_spec *spec,
                                        const boxlint_policy_options *o);

/*==============================================================================================
 * MARK: Enforcement (emit.c)
 *============================================================================================*/

/* boxlint_policy_emit with checked, complete options (`o->table` set). */
boxlint_status boxlint__policy_emit(const boxlint_policy *p, boxlint_emit_format fmt,
                                    const boxlint_emit_options *o, boxlint_report *r,
                                    char **out, size_t *out_len, const boxlint_alloc *alloc);

/*==============================================================================================
 * MARK: Decisions (decide.c)
 *============================================================================================*/

/* The reference decision: a plain linear scan over every entry, independent of the tables.
 * Same contract as boxlint_policy_decide. */
boxlint_status boxlint__policy_decide_linear(boxlint_decision *out, const boxlint_policy *p,
                                             const char *host, size_t host_len, const char *ip,
                                             size_t ip_len);

/*==============================================================================================
 * MARK: Rules (policy.c)
 *============================================================================================*/

/* The NetworkPolicy rules (id, default severity, summary, description, bad and good
 * examples), static, for the library's rule list (`boxlint rules`, `boxlint explain`). */
const boxlint_rule_info *boxlint__policy_rules(size_t *count);

#endif

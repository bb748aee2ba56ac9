/* NetworkPolicy entries: the strict lexer (network-policy-semantics.md §3-§4), the messages and
 * hints of invalid entries, and policy validation (DESIGN §3). Matching is in egress_match.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <idn2.h>
#include "egress_int.h"

/*==============================================================================================
 * MARK: Names
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

const char *boxlint_verdict_str(boxlint_verdict verdict) {
  switch (verdict) {
  case BOXLINT_VERDICT_ALLOW: return "allow";
  case BOXLINT_VERDICT_DENY: return "deny";
  case BOXLINT_VERDICT_UNKNOWN: return "unknown";
  }
  return "";
}

const char *boxlint_decision_reason_str(boxlint_decision_reason reason) {
  switch (reason) {
  case BOXLINT_REASON_RULE: return "rule";
  case BOXLINT_REASON_DEFAULT: return "default";
  case BOXLINT_REASON_POLICY_DISABLED: return "policy-disabled";
  case BOXLINT_REASON_POLICY_OPEN: return "policy-open";
  case BOXLINT_REASON_INVALID_DESTINATION: return "invalid-destination";
  case BOXLINT_REASON_NEEDS_IP: return "needs-ip";
  }
  return "";
}

/*==============================================================================================
 * MARK: Lexer helpers
 *============================================================================================*/

/* Details (DESIGN §3). */
static const char D_EMPTY[] = "empty", D_TOO_LONG[] = "too-long", D_NON_ASCII[] = "non-ascii",
                  D_WHITESPACE[] = "whitespace", D_URL[] = "url", D_USERINFO[] = "userinfo",
                  D_BRACKETS[] = "brackets", D_ZONE[] = "zone", D_PATH[] = "path",
                  D_PORT[] = "port", D_IPV6[] = "ipv6-syntax",
                  D_LEAD0[] = "ipv4-leading-zero", D_SHORT[] = "ipv4-shorthand",
                  D_NONDEC[] = "ipv4-nondecimal", D_RANGE[] = "ipv4-range",
                  D_TDOT[] = "ipv4-trailing-dot", D_PSYNTAX[] = "prefix-syntax",
                  D_PRANGE[] = "prefix-range", D_HOSTBITS[] = "host-bits",
                  D_UNSPEC[] = "unspecified", D_MAPPED[] = "mapped-prefix",
                  D_EMPTY_LABEL[] = "empty-label", D_LABEL_LONG[] = "label-too-long",
                  D_NAME_LONG[] = "name-too-long", D_LABEL_SYNTAX[] = "label-syntax",
                  D_NUM_TLD[] = "numeric-tld", D_WILDPOS[] = "wildcard-position",
                  D_LEADDOT[] = "leading-dot";

/* boxlint__quote, never NULL (an empty string on OOM; the report then records the OOM). */
static const char *qs(boxlint_report *r, const char *p, size_t n, size_t max) {
  const char *q = boxlint__quote(r, p, n, max);
  return q ? q : "";
}

static int is_hex(unsigned char c) {
  return boxlint__is_digit(c) || (unsigned char)((c | 0x20) - 'a') < 6;
}
static unsigned hexval(unsigned char c) {
  return boxlint__is_digit(c) ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
}
static int all_digits(const char *s, size_t n) {
  if (!n) return 0;
  for (size_t i = 0; i < n; i++)
    if (!boxlint__is_digit((unsigned char)s[i])) return 0;
  return 1;
}
/* "0x" followed by hex digits (maybe none): a number to WHATWG's IPv4 parser. */
static int is_hex_number(const char *s, size_t n) {
  if (n < 2 || s[0] != '0' || (s[1] | 0x20) != 'x') return 0;
  for (size_t i = 2; i < n; i++)
    if (!is_hex((unsigned char)s[i])) return 0;
  return 1;
}
/* Only [0-9a-fA-FxX.] */
static int numeric_chars(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!is_hex(c) && c != '.' && (c | 0x20) != 'x') return 0;
  }
  return 1;
}
/* The last label (after dropping one trailing dot) is all digits or a 0x number. */
static int last_label_numeric(const char *s, size_t n) {
  if (n && s[n - 1] == '.') n--;
  size_t i = n;
  while (i > 0 && s[i - 1] != '.') i--;
  return all_digits(s + i, n - i) || is_hex_number(s + i, n - i);
}
static int looks_ipv4(const char *s, size_t n) {
  return n && numeric_chars(s, n) && last_label_numeric(s, n);
}

static size_t fmt_uint(char *b, unsigned x) {
  char t[12];
  size_t k = 0, o = 0;
  do {
    t[k++] = (char)('0' + x % 10);
    x /= 10;
  } while (x);
  while (k) b[o++] = t[--k];
  b[o] = 0;
  return o;
}

static size_t fmt_ipv4(char *b, uint32_t v) {
  size_t o = 0;
  for (int k = 3; k >= 0; k--) {
    o += fmt_uint(b + o, (v >> (8 * k)) & 255u);
    if (k) b[o++] = '.';
  }
  b[o] = 0;
  return o;
}

/* RFC 5952: lower case, no leading zeros, the longest run of two or more zero groups becomes
 * "::" (the leftmost on a tie), a single zero group stays "0". */
static size_t fmt_ipv6(char *b, boxlint__u128 a) {
  unsigned g[8];
  for (int i = 0; i < 4; i++) {
    g[i] = (unsigned)(a.hi >> (48 - 16 * i)) & 0xffffu;
    g[4 + i] = (unsigned)(a.lo >> (48 - 16 * i)) & 0xffffu;
  }
  int best = -1, bestlen = 1;
  for (int i = 0; i < 8;) {
    if (g[i]) { i++; continue; }
    int j = i;
    while (j < 8 && !g[j]) j++;
    if (j - i > bestlen) { best = i; bestlen = j - i; }
    i = j;
  }
  static const char hx[] = "0123456789abcdef";
  size_t o = 0;
  for (int i = 0; i < 8; i++) {
    if (i == best) {
      b[o++] = ':';
      b[o++] = ':';
      i += bestlen - 1;
      continue;
    }
    if (i && !(best >= 0 && i == best + bestlen)) b[o++] = ':';
    int started = 0;
    for (int k = 12; k >= 0; k -= 4) {
      unsigned d = (g[i] >> k) & 15u;
      if (d || started || k == 0) {
        b[o++] = hx[d];
        started = 1;
      }
    }
  }
  b[o] = 0;
  return o;
}


/* Strict dotted quad (ABNF ipv4 of the semantics doc). The first reason found, in this order:
 * non-decimal part, empty part, leading zero, fewer than four parts, more than four (a name with
 * a numeric last label), a part above 255, a trailing dot. */
static const char *parse_ipv4(const char *s, size_t n, uint32_t *out) {
  int tdot = 0, nondec = 0, empty = 0, lead0 = 0, range = 0;
  if (n && s[n - 1] == '.') {
    tdot = 1;
    n--;
  }
  size_t parts = 0, i = 0;
  uint32_t v = 0;
  for (;;) {
    size_t j = i;
    while (j < n && s[j] != '.') j++;
    size_t len = j - i;
    if (!len) {
      empty = 1;
    } else if (!all_digits(s + i, len)) {
      nondec = 1;
    } else {
      if (len > 1 && s[i] == '0') lead0 = 1;
      unsigned x = 0;
      if (len > 3) range = 1;
      else
        for (size_t k = i; k < j; k++) x = x * 10 + (unsigned)(s[k] - '0');
      if (x > 255) range = 1;
      if (parts < 4) v = (v << 8) | (x & 255u);
    }
    parts++;
    if (j >= n) break;
    i = j + 1;
  }
  if (nondec) return D_NONDEC;
  if (empty) return D_EMPTY_LABEL;
  if (lead0) return D_LEAD0;
  if (parts < 4) return D_SHORT;
  if (parts > 4) return D_NUM_TLD;
  if (range) return D_RANGE;
  if (tdot) return D_TDOT;
  *out = v;
  return NULL;
}

/* RFC 4291 §2.2 text form: 1-4 hex digits per group, at most one "::" standing for one or more
 * zero groups, an optional strict dotted quad as the last 32 bits. */
static const char *parse_ipv6(const char *s, size_t n, boxlint__u128 *out) {
  unsigned tmp[8], g[8];
  size_t ng = 0, i = 0;
  long dc = -1;
  if (n >= 2 && s[0] == ':' && s[1] == ':') {
    dc = 0;
    i = 2;
  } else if (n && s[0] == ':') {
    return D_IPV6;
  }
  while (i < n) {
    size_t j = i;
    while (j < n && s[j] != ':') j++;
    size_t len = j - i;
    if (!len) return D_IPV6;
    if (memchr(s + i, '.', len)) {
      if (j != n || ng > 6 || !numeric_chars(s + i, len)) return D_IPV6;
      uint32_t v;
      const char *d = parse_ipv4(s + i, len, &v);
      if (d) return d;
      tmp[ng++] = v >> 16;
      tmp[ng++] = v & 0xffffu;
      break;
    }
    if (len > 4 || ng >= 8) return D_IPV6;
    unsigned x = 0;
    for (size_t k = i; k < j; k++) {
      if (!is_hex((unsigned char)s[k])) return D_IPV6;
      x = x * 16 + hexval((unsigned char)s[k]);
    }
    tmp[ng++] = x;
    if (j == n) break;
    if (j + 1 < n && s[j + 1] == ':') {
      if (dc >= 0) return D_IPV6;
      dc = (long)ng;
      i = j + 2;
    } else {
      i = j + 1;
      if (i == n) return D_IPV6;
    }
  }
  if (dc < 0) {
    if (ng != 8) return D_IPV6;
    memcpy(g, tmp, sizeof g);
  } else {
    if (ng > 7) return D_IPV6;
    size_t before = (size_t)dc, after = ng - before;
    for (size_t k = 0; k < 8; k++) g[k] = 0;
    for (size_t k = 0; k < before; k++) g[k] = tmp[k];
    for (size_t k = 0; k < after; k++) g[8 - after + k] = tmp[before + k];
  }
  out->hi = ((uint64_t)g[0] << 48) | ((uint64_t)g[1] << 32) | ((uint64_t)g[2] << 16) | g[3];
  out->lo = ((uint64_t)g[4] << 48) | ((uint64_t)g[5] << 32) | ((uint64_t)g[6] << 16) | g[7];
  return NULL;
}

/* "0" / [1-9][0-9]*, at most `max`. */
static const char *parse_prefix(const char *s, size_t n, unsigned max, unsigned *out) {
  if (!all_digits(s, n) || (n > 1 && s[0] == '0')) return D_PSYNTAX;
  if (n > 3) return D_PRANGE;
  unsigned x = 0;
  for (size_t i = 0; i < n; i++) x = x * 10 + (unsigned)(s[i] - '0');
  if (x > max) return D_PRANGE;
  *out = x;
  return NULL;
}

static int is_mapped(boxlint__u128 a) { return a.hi == 0 && (a.lo >> 32) == 0xffffu; }

/* A host name (without its final dot), at most `max` bytes. */
static const char *check_domain(const char *s, size_t n, size_t max) {
  if (!n) return D_EMPTY_LABEL;
  if (n > max) return D_NAME_LONG;
  size_t i = 0, last = 0;
  const char *err = NULL;
  for (;;) {
    size_t j = i;
    while (j < n && s[j] != '.') j++;
    size_t len = j - i;
    if (!len) return D_EMPTY_LABEL;
    if (len > 63 && !err) err = D_LABEL_LONG;
    for (size_t k = i; k < j && !err; k++) {
      unsigned char c = (unsigned char)s[k];
      if (!boxlint__is_alpha(c) && !boxlint__is_digit(c) && c != '_' && c != '-')
        err = D_LABEL_SYNTAX;
    }
    if (!err && (s[i] == '-' || s[j - 1] == '-')) err = D_LABEL_SYNTAX;
    last = i;
    if (j >= n) break;
    i = j + 1;
  }
  if (err) return err;
  if (all_digits(s + last, n - last) || is_hex_number(s + last, n - last)) return D_NUM_TLD;
  return NULL;
}

static void put_lower(boxlint__entry *o, const char *s, size_t n, size_t at) {
  for (size_t i = 0; i < n; i++) o->e.text[at + i] = (char)boxlint__lower((unsigned char)s[i]);
  o->e.text[at + n] = 0;
  o->e.text_len = at + n;
}

static const char *fail(boxlint__entry *o, const char *d) {
  o->e.kind = BOXLINT_ENTRY_INVALID;
  o->e.detail = d;
  o->e.text[0] = 0;
  o->e.text_len = 0;
  return d;
}

/* An IPv4 or IPv6 address with an optional prefix; `slash` is the index of '/' or n. */
static const char *parse_ip(boxlint__entry *o, const char *s, size_t n, size_t slash, int v6,
                            int dest) {
  const char *d;
  boxlint__u128 a = {0, 0};
  unsigned width = 32, plen;
  if (v6) {
    width = 128;
    d = parse_ipv6(s, slash, &a);
  } else {
    uint32_t v = 0;
    d = parse_ipv4(s, slash, &v);
    a.lo = v;
  }
  if (d) return fail(o, d);
  o->has_prefix = slash < n;
  plen = width;
  if (o->has_prefix) {
    d = parse_prefix(s + slash + 1, n - slash - 1, width, &plen);
    if (d) return fail(o, d);
  }
  o->raw = a;
  o->e.family = v6 ? 6 : 4;
  o->e.prefix_len = plen;
  if (v6 && is_mapped(a)) {
    /* IPv4-mapped: an IPv4 address in IPv6 clothes, or it slips past IPv4 entries. */
    if (plen <= 96) return fail(o, D_MAPPED);
    o->e.mapped = 1;
    o->e.family = 4;
    width = 32;
    plen -= 96;
    o->e.prefix_len = plen;
    a.lo &= 0xffffffffu;
    o->raw = a;
  }
  boxlint__u128 hm = boxlint__u128_hostmask(width - plen);
  if ((a.hi & hm.hi) || (a.lo & hm.lo)) return fail(o, D_HOSTBITS);
  o->addr = a;
  int zero = !a.hi && !a.lo;
  if (zero && plen == width) return fail(o, D_UNSPEC);
  if (zero && plen == 0 && o->e.family == 4) {
    o->e.kind = BOXLINT_ENTRY_ALL_TRAFFIC;
    o->e.family = 0;
    memcpy(o->e.text, "0.0.0.0/0", 10);
    o->e.text_len = 9;
    return NULL;
  }
  o->e.kind = o->has_prefix ? BOXLINT_ENTRY_CIDR : BOXLINT_ENTRY_ADDRESS;
  if (dest) return NULL;
  size_t t = o->e.family == 4 ? fmt_ipv4(o->e.text, (uint32_t)a.lo) : fmt_ipv6(o->e.text, a);
  if (o->has_prefix) {
    o->e.text[t++] = '/';
    t += fmt_uint(o->e.text + t, plen);
  }
  o->e.text_len = t;
  return NULL;
}

const char *boxlint__egress_parse(boxlint__entry *o, const char *s, size_t n, int dest) {
  o->e.kind = BOXLINT_ENTRY_INVALID;
  o->e.family = 0;
  o->e.prefix_len = 0;
  o->e.mapped = 0;
  o->e.detail = NULL;
  o->e.text_len = 0;
  o->e.text[0] = 0;
  o->addr.hi = o->addr.lo = 0;
  o->raw = o->addr;
  o->has_prefix = 0;

  if (!n) return fail(o, D_EMPTY);
  if (n > BOXLINT_POLICY_ENTRY_MAX) return fail(o, D_TOO_LONG);
  int ws = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x80) return fail(o, D_NON_ASCII);
    if (c <= 0x20 || c == 0x7f) ws = 1;
  }
  if (ws) return fail(o, D_WHITESPACE);
  if (!dest && boxlint__ieq(s, n, "all_traffic")) {
    o->e.kind = BOXLINT_ENTRY_ALL_TRAFFIC;
    memcpy(o->e.text, "0.0.0.0/0", 10);
    o->e.text_len = 9;
    return NULL;
  }
  for (size_t i = 0; i + 2 < n; i++)
    if (s[i] == ':' && s[i + 1] == '/' && s[i + 2] == '/') return fail(o, D_URL);
  if (memchr(s, '@', n)) return fail(o, D_USERINFO);
  if (s[0] == '[') return fail(o, D_BRACKETS);
  if (memchr(s, '%', n)) return fail(o, D_ZONE);

  const char *sl = memchr(s, '/', n);
  if (sl) {
    size_t slash = (size_t)(sl - s);
    if (slash && memchr(s, ':', slash)) return parse_ip(o, s, n, slash, 1, dest);
    if (slash && looks_ipv4(s, slash)) return parse_ip(o, s, n, slash, 0, dest);
    return fail(o, D_PATH);
  }
  const char *colon = memchr(s, ':', n);
  if (colon) {
    size_t c = (size_t)(colon - s);
    if (c && !memchr(colon + 1, ':', n - c - 1) && all_digits(colon + 1, n - c - 1))
      return fail(o, D_PORT);
    return parse_ip(o, s, n, n, 1, dest);
  }
  if (looks_ipv4(s, n)) return parse_ip(o, s, n, n, 0, dest);

  const char *star = memchr(s, '*', n);
  if (star && dest) return fail(o, D_WILDPOS);
  if (n == 1 && s[0] == '*') {
    o->e.kind = BOXLINT_ENTRY_ANY_HOST;
    o->e.text[0] = '*';
    o->e.text[1] = 0;
    o->e.text_len = 1;
    return NULL;
  }
  if (n >= 2 && s[0] == '*' && s[1] == '.') {
    const char *rest = s + 2;
    size_t rn = n - 2;
    if (memchr(rest, '*', rn)) return fail(o, D_WILDPOS);
    if (rn && rest[rn - 1] == '.') rn--;
    /* 251: some "a.<suffix>" must still fit in 253. */
    const char *d = check_domain(rest, rn, 251);
    if (d) return fail(o, d);
    o->e.kind = BOXLINT_ENTRY_WILDCARD;
    o->e.text[0] = '*';
    o->e.text[1] = '.';
    put_lower(o, rest, rn, 2);
    return NULL;
  }
  if (s[0] == '.') return fail(o, D_LEADDOT);
  if (star) return fail(o, D_WILDPOS);
  size_t dn = n;
  if (s[dn - 1] == '.') dn--;
  const char *d = check_domain(s, dn, 253);
  if (d) return fail(o, d);
  /* "ALL_TRAFFIC." would normalise to the text "all_traffic", which reads back as ALL_TRAFFIC:
   * the keyword with a trailing dot is refused, not taken as a host name or as all traffic. */
  if (!dest && dn < n && boxlint__ieq(s, dn, "all_traffic")) return fail(o, D_LABEL_SYNTAX);
  o->e.kind = BOXLINT_ENTRY_DOMAIN;
  put_lower(o, s, dn, 0);
  return NULL;
}

boxlint_status boxlint_policy_entry_parse(boxlint_policy_entry *out, const char *entry,
                                          size_t len) {
  if (!out || (!entry && len)) return BOXLINT_EINVAL;
  boxlint__entry pe;
  const char *d = boxlint__egress_parse(&pe, entry ? entry : "", len, 0);
  *out = pe.e;
  return d ? BOXLINT_ESYNTAX : BOXLINT_OK;
}

/*==============================================================================================
 * MARK: Messages and hints of invalid entries
 *============================================================================================*/

/* glibc inet_aton's reading of s (1-4 parts; 0x hex, leading-0 octal, else decimal; the last
 * part fills the remaining bytes). 1 when it accepts. Used only to explain, never to accept. */
static int aton_reading(const char *s, size_t n, uint32_t *out) {
  uint64_t parts[4];
  size_t np = 0, i = 0;
  if (!n) return 0;
  for (;;) {
    size_t j = i;
    while (j < n && s[j] != '.') j++;
    if (j == i || np == 4) return 0;
    uint64_t x = 0;
    size_t k = i;
    unsigned base = 10;
    if (j - i >= 2 && s[i] == '0' && (s[i + 1] | 0x20) == 'x') {
      base = 16;
      k += 2;
      if (k == j) return 0;
    } else if (s[i] == '0') {
      base = 8;
    }
    for (; k < j; k++) {
      unsigned char c = (unsigned char)s[k];
      unsigned dv;
      if (base == 16 && is_hex(c)) dv = hexval(c);
      else if (boxlint__is_digit(c) && (unsigned)(c - '0') < base) dv = (unsigned)(c - '0');
      else return 0;
      x = x * base + dv;
      if (x > 0xffffffffu) return 0;
    }
    parts[np++] = x;
    if (j >= n) break;
    i = j + 1;
  }
  uint64_t v = 0;
  for (size_t p = 0; p + 1 < np; p++) {
    if (parts[p] > 255) return 0;
    v |= parts[p] << (24 - 8 * p);
  }
  unsigned rest_bits = (unsigned)(32 - 8 * (np - 1));
  if (rest_bits < 32 && parts[np - 1] >> rest_bits) return 0;
  v |= parts[np - 1];
  *out = (uint32_t)v;
  return 1;
}

/* Four decimal parts read with their leading zeros dropped (what a human usually meant). */
static int decimal_reading(const char *s, size_t n, uint32_t *out) {
  size_t np = 0, i = 0;
  uint32_t v = 0;
  for (;;) {
    size_t j = i;
    while (j < n && s[j] != '.') j++;
    if (j == i || !all_digits(s + i, j - i) || np == 4) return 0;
    unsigned x = 0;
    for (size_t k = i; k < j; k++) {
      x = x * 10 + (unsigned)(s[k] - '0');
      if (x > 255) return 0;
    }
    v = (v << 8) | x;
    np++;
    if (j >= n) break;
    i = j + 1;
  }
  if (np != 4) return 0;
  *out = v;
  return 1;
}

/* The host inside a URL, userinfo, brackets, path or port, if it is a valid entry. */
static const char *suggest_host(boxlint_report *r, const char *s, size_t n) {
  const char *b = s, *e = s + n;
  for (const char *p = b; p + 2 < e; p++)
    if (p[0] == ':' && p[1] == '/' && p[2] == '/') {
      b = p + 3;
      break;
    }
  for (const char *p = b; p < e; p++)
    if (*p == '/' || *p == '?' || *p == '#') {
      e = p;
      break;
    }
  for (const char *p = e; p > b; p--)
    if (p[-1] == '@') {
      b = p;
      break;
    }
  if (b < e && *b == '[') {
    const char *close = memchr(b, ']', (size_t)(e - b));
    if (!close) return NULL;
    b++;
    e = close;
  } else {
    const char *c = memchr(b, ':', (size_t)(e - b));
    if (c && !memchr(c + 1, ':', (size_t)(e - c - 1))) e = c;
  }
  boxlint__entry t;
  if (b == e || boxlint__egress_parse(&t, b, (size_t)(e - b), 0)) return NULL;
  if (t.e.kind == BOXLINT_ENTRY_ANY_HOST || t.e.kind == BOXLINT_ENTRY_ALL_TRAFFIC) return NULL;
  return boxlint__rprintf(r, "did you mean '%s'?", t.e.text);
}

/*---------------------------------------------------------- internationalised names ----*/

/* libidn2: IDNA2008 with UTS #46 mapping, non-transitional ('ß' stays 'ß'), input normalised
 * to NFC: the name a browser looks up. Not IDN2_USE_STD3_ASCII_RULES: libidn2 (2.3) then
 * drops the ASCII characters STD3 disallows instead of refusing them ('*.bücher.de' becomes
 * '.xn--bcher-kva.de', '_dmarc.bücher.de' 'dmarc.xn--bcher-kva.de', 'bü cher.de'
 * 'xn--bcher-kva.de'), a silent fix-up. The ASCII result is validated by boxlint's own rules
 * instead (which also allow '_'). */
#define IDN_FLAGS (IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL)

/* An arena string, never NULL ("" on OOM; the report then records the OOM). */
static const char *nn(const char *s) { return s ? s : ""; }

/* Why libidn2 refused a name: idn2_strerror in clearer words, for the errors a user meets. */
static const char *idn_error_reason(boxlint_report *r, int rc) {
  switch (rc) {
  case IDN2_DISALLOWED:
    return "it contains a character that IDNA2008 does not allow in host names (a symbol, an "
           "emoji, punctuation)";
  case IDN2_UNASSIGNED: return "it contains a code point that Unicode has not assigned";
  case IDN2_BIDI:
    return "it breaks the IDNA2008 bidi rule for right-to-left labels (RFC 5893)";
  case IDN2_CONTEXTJ:
  case IDN2_CONTEXTJ_NO_RULE:
    return "it has a zero-width joiner or non-joiner where IDNA2008 allows none (RFC 5892)";
  case IDN2_CONTEXTO:
  case IDN2_CONTEXTO_NO_RULE:
    return "it has a character that IDNA2008 allows only in a context it is not in (RFC 5892)";
  case IDN2_2HYPHEN:
    return "a label has '--' as its third and fourth characters, which only A-labels ('xn--') "
           "may have";
  case IDN2_HYPHEN_STARTEND: return "a label starts or ends with '-'";
  case IDN2_LEADING_COMBINING: return "a label starts with a combining mark";
  case IDN2_TOO_BIG_LABEL:
  case IDN2_PUNYCODE_BIG_OUTPUT:
    return "a label would be longer than 63 characters as an A-label";
  case IDN2_TOO_BIG_DOMAIN:
    return "its A-label would be longer than a host name can be (253 characters)";
  case IDN2_ENCODING_ERROR: return "it is not valid UTF-8";
  default: break;
  }
  return nn(boxlint__rprintf(r, "libidn2 refuses it: %s", idn2_strerror(rc)));
}

/* Why no conversion of s can give a valid entry, judged on its bytes: invalid UTF-8, or an
 * ASCII character that no host name has ('*' only as the '*.' of a wildcard). NULL when none.
 * Whitespace and control bytes (NUL among them) thus never reach libidn2, which reads a
 * NUL-terminated string. */
static const char *idn_precheck(boxlint_report *r, const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    unsigned char c = (unsigned char)s[i];
    uint32_t cp;
    size_t l = 1;
    if (c >= 0x80) {
      l = boxlint__utf8_decode((const unsigned char *)s + i, n - i, &cp);
      if (!l)
        return nn(boxlint__rprintf(r, "it is not valid UTF-8 (byte 0x%02x at offset %zu)",
                                   (unsigned)c, i));
    } else if (c <= 0x20 || c == 0x7f) {
      return "it also contains whitespace or a control character";
    } else if (c == '*') {
      if (i || n < 2 || s[1] != '.')
        return "it has '*' in the wrong place; a wildcard is '*.' followed by a domain";
    } else if (!boxlint__is_alpha(c) && !boxlint__is_digit(c) && c != '-' && c != '.' &&
               c != '_') {
      return nn(boxlint__rprintf(r, "it also contains '%c', which no host name has", (int)c));
    }
    i += l;
  }
  return NULL;
}

/* What is wrong with a conversion that boxlint refuses (detail `det`; NULL: valid, but an
 * address or keyword). */
static const char *converted_reason(const char *det) {
  if (det == D_EMPTY_LABEL) return "which has an empty label";
  if (det == D_LABEL_LONG) return "which has a label longer than 63 characters";
  if (det == D_NAME_LONG) return "which is longer than a host name can be";
  if (det == D_LABEL_SYNTAX)
    return "which is not a valid host name: labels take letters, digits, '-' and '_', and do "
           "not start or end with '-'";
  if (det == D_NUM_TLD) return "whose last label is numeric";
  if (det == D_LEADDOT) return "which starts with a dot";
  if (det == D_WILDPOS) return "which has '*' in the wrong place";
  if (det == D_TOO_LONG) return "which is longer than an entry can be (255 bytes)";
  return "which is not a host name";
}

/* The A-label of a non-ASCII entry, or why it has no valid one. */
typedef struct idn_out {
  const char *why; /* NULL when `text` is the entry's A-label, a valid host name or wildcard */
  char text[BOXLINT_POLICY_ENTRY_MAX + 1];
  size_t len;
} idn_out;

static void idn_convert(boxlint_report *r, const char *s, size_t n, idn_out *o) {
  o->text[0] = 0;
  o->len = 0;
  o->why = n > BOXLINT_POLICY_ENTRY_MAX ? "it is longer than an entry can be (255 bytes)"
                                        : idn_precheck(r, s, n);
  if (o->why) return;
  char in[BOXLINT_POLICY_ENTRY_MAX + 1]; /* the entry is never written: convert a copy */
  memcpy(in, s, n);
  in[n] = 0;
  uint8_t *res = NULL;
  int rc = idn2_lookup_u8((const uint8_t *)in, &res, IDN_FLAGS);
  if (rc == IDN2_OK && !res) rc = IDN2_MALLOC;
  if (rc == IDN2_OK) {
    size_t len = strlen((const char *)res);
    if (len > BOXLINT_POLICY_ENTRY_MAX) {
      rc = IDN2_TOO_BIG_DOMAIN;
    } else {
      memcpy(o->text, res, len + 1);
      o->len = len;
    }
  }
  idn2_free(res);
  if (rc == IDN2_MALLOC) {
    r->oom = 1;
    o->why = "";
    return;
  }
  if (rc != IDN2_OK) {
    o->why = idn_error_reason(r, rc);
    return;
  }
  /* The A-label must pass boxlint's own checks (lengths, label syntax) and be a name. */
  boxlint__entry t;
  const char *det = boxlint__egress_parse(&t, o->text, o->len, 0);
  if (!det && (t.e.kind == BOXLINT_ENTRY_DOMAIN || t.e.kind == BOXLINT_ENTRY_WILDCARD)) return;
  o->why = nn(boxlint__rprintf(r, "it converts to '%s', %s", qs(r, o->text, o->len, 80),
                               converted_reason(det)));
}

/* Message, hint and fix of a non-ASCII entry (entry `index` of its list): the A-label it must
 * be written as, or why it has none. The position is the first non-ASCII character. */
static const char *describe_non_ascii(boxlint_report *r, boxlint_diag *d, const char *raw,
                                      size_t n, const char *q, const char *where, size_t index,
                                      const char **hint) {
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)raw[i] >= 0x80) {
      uint32_t cp;
      size_t l = boxlint__utf8_decode((const unsigned char *)raw + i, n - i, &cp);
      d->offset = i;
      d->end_offset = i + (l ? l : 1);
      break;
    }
  idn_out o;
  idn_convert(r, raw, n, &o);
  if (o.why)
    return boxlint__rprintf(r, "%s: '%s' is not ASCII and has no valid A-label: %s", where, q,
                            o.why);
  *hint = boxlint__rprintf(r,
                           "write '%s', the name browsers look up (IDNA2008, UTS #46 "
                           "non-transitional); entries are never converted silently",
                           o.text);
  const char *desc = boxlint__rprintf(r, "replace %s with \"%s\"", d->path ? d->path : where,
                                      o.text);
  boxlint__diag_fix(r, d, index, 1, o.text, o.len, desc ? desc : "replace the entry");
  return boxlint__rprintf(r, "%s: '%s' is not ASCII; its A-label is '%s'", where, q, o.text);
}

void boxlint__egress_describe(boxlint_report *r, boxlint_diag *d, const char *raw, size_t n,
                              const boxlint__entry *pe, const char *where, size_t index) {
  const char *det = pe->e.detail;
  const char *q = qs(r, raw, n, 80);
  const char *msg = NULL, *hint = NULL;
  char a[64], b[64];
  uint32_t v;
  d->detail = det;
  if (det == D_EMPTY) {
    msg = boxlint__rprintf(r, "%s: the entry is empty", where);
  } else if (det == D_TOO_LONG) {
    msg = boxlint__rprintf(r, "%s: '%s' is %zu bytes long; an entry has at most %u", where, q, n,
                           BOXLINT_POLICY_ENTRY_MAX);
  } else if (det == D_NON_ASCII) {
    msg = describe_non_ascii(r, d, raw, n, q, where, index, &hint);
  } else if (det == D_WHITESPACE) {
    msg = boxlint__rprintf(r, "%s: '%s' contains whitespace or a control character", where, q);
    size_t i = 0, j = n;
    while (i < j && ((unsigned char)raw[i] <= 0x20 || raw[i] == 0x7f)) i++;
    while (j > i && ((unsigned char)raw[j - 1] <= 0x20 || raw[j - 1] == 0x7f)) j--;
    boxlint__entry t;
    if (j > i && (i || j < n) && !boxlint__egress_parse(&t, raw + i, j - i, 0))
      hint = boxlint__rprintf(r, "entries are never trimmed; did you mean '%.*s'?", (int)(j - i),
                              raw + i);
    else
      hint = "entries are never trimmed; remove the whitespace";
  } else if (det == D_URL) {
    msg = boxlint__rprintf(r, "%s: '%s' is a URL; give only the host name or address", where, q);
    hint = suggest_host(r, raw, n);
  } else if (det == D_USERINFO) {
    msg = boxlint__rprintf(r, "%s: '%s' contains '@' (user information); give only the host",
                           where, q);
    hint = suggest_host(r, raw, n);
  } else if (det == D_BRACKETS) {
    msg = boxlint__rprintf(r, "%s: '%s' is in brackets; write an IPv6 address without them",
                           where, q);
    hint = suggest_host(r, raw, n);
  } else if (det == D_ZONE) {
    msg = boxlint__rprintf(r, "%s: '%s' has a zone id ('%%...'); zone ids are not allowed",
                           where, q);
    hint = "a zone names a local interface, which means nothing to an egress firewall";
  } else if (det == D_PATH) {
    msg = boxlint__rprintf(r, "%s: '%s' contains a path; give only the host name or address",
                           where, q);
    hint = suggest_host(r, raw, n);
  } else if (det == D_PORT) {
    msg = boxlint__rprintf(r, "%s: '%s' has a port; ports are not allowed, give only the host",
                           where, q);
    hint = suggest_host(r, raw, n);
  } else if (det == D_IPV6) {
    msg = boxlint__rprintf(r, "%s: '%s' is not a valid IPv6 address", where, q);
  } else if (det == D_LEAD0) {
    msg = boxlint__rprintf(r,
                           "%s: '%s' has an IPv4 part with a leading zero, which inet_aton and "
                           "getaddrinfo read as octal",
                           where, q);
    const char *ip = raw;
    size_t ipn = memchr(raw, '/', n) ? (size_t)((const char *)memchr(raw, '/', n) - raw) : n;
    const char *c = memchr(raw, ':', ipn);
    if (c) { /* embedded in IPv6: explain the dotted part only */
      const char *lc = c;
      for (const char *p = raw; p < raw + ipn; p++)
        if (*p == ':') lc = p;
      ipn -= (size_t)(lc + 1 - raw);
      ip = lc + 1;
    }
    uint32_t dv;
    if (decimal_reading(ip, ipn, &dv)) {
      fmt_ipv4(b, dv);
      if (aton_reading(ip, ipn, &v) && v != dv) {
        fmt_ipv4(a, v);
        hint = boxlint__rprintf(r, "glibc reads it as %s; write %s or %s, whichever is meant", a,
                                a, b);
      } else {
        hint = boxlint__rprintf(r, "did you mean '%s'?", b);
      }
    }
  } else if (det == D_SHORT || det == D_NONDEC) {
    msg = boxlint__rprintf(r,
                           det == D_SHORT ? "%s: '%s' is a shorthand IPv4 address; write all four "
                                            "parts in decimal"
                                          : "%s: '%s' has a non-decimal IPv4 part; write all four "
                                            "parts in decimal",
                           where, q);
    size_t ipn = memchr(raw, '/', n) ? (size_t)((const char *)memchr(raw, '/', n) - raw) : n;
    if (!memchr(raw, ':', ipn) && aton_reading(raw, ipn, &v)) {
      fmt_ipv4(a, v);
      hint = boxlint__rprintf(r, "inet_aton and getaddrinfo read it as %s; write '%s%.*s' if "
                                 "that is meant",
                              a, a, (int)(n - ipn), raw + ipn);
    }
  } else if (det == D_RANGE) {
    msg = boxlint__rprintf(r, "%s: '%s' has an IPv4 part greater than 255", where, q);
  } else if (det == D_TDOT) {
    msg = boxlint__rprintf(r, "%s: '%s' is an IPv4 address with a trailing dot", where, q);
    const char *sl = memchr(raw, '/', n);
    size_t ipn = sl ? (size_t)(sl - raw) : n;
    hint = boxlint__rprintf(r, "did you mean '%.*s%.*s'?", (int)(ipn - 1), raw, (int)(n - ipn),
                            raw + ipn);
  } else if (det == D_PSYNTAX) {
    const char *sl = memchr(raw, '/', n);
    size_t k = sl ? (size_t)(sl - raw) + 1 : n;
    msg = boxlint__rprintf(r,
                           "%s: '%s' has an invalid prefix length '%s'; write a decimal number "
                           "without sign or leading zeros",
                           where, q, qs(r, raw + k, n - k, 40));
    uint32_t m;
    if (sl && !parse_ipv4(raw + k, n - k, &m)) {
      unsigned len = 0;
      while (len < 32 && (m >> (31 - len)) & 1u) len++;
      if (len == 32 || (uint32_t)(m << len) == 0)
        hint = boxlint__rprintf(r, "netmasks are not accepted; did you mean '%.*s/%u'?",
                                (int)(k - 1), raw, len);
    }
  } else if (det == D_PRANGE) {
    msg = boxlint__rprintf(r, "%s: '%s' has a prefix length greater than %u", where, q,
                           memchr(raw, ':', n) ? 128u : 32u);
  } else if (det == D_HOSTBITS) {
    msg = boxlint__rprintf(r, "%s: '%s' has host bits set beyond the /%u prefix", where, q,
                           pe->e.prefix_len);
    unsigned width = pe->e.family == 6 ? 128u : 32u;
    boxlint__u128 hm = boxlint__u128_hostmask(width - pe->e.prefix_len), net = pe->raw;
    net.hi &= ~hm.hi;
    net.lo &= ~hm.lo;
    if (pe->e.family == 6) {
      fmt_ipv6(a, net);
      fmt_ipv6(b, pe->raw);
    } else {
      fmt_ipv4(a, (uint32_t)net.lo);
      fmt_ipv4(b, (uint32_t)pe->raw.lo);
    }
    hint = boxlint__rprintf(r, "did you mean %s/%u (the network) or %s/%u (the host)?", a,
                            pe->e.prefix_len, b, width);
  } else if (det == D_UNSPEC) {
    msg = boxlint__rprintf(r, "%s: '%s' is the unspecified address, which is no destination",
                           where, q);
    hint = "write ALL_TRAFFIC (or 0.0.0.0/0) for all traffic";
  } else if (det == D_MAPPED) {
    msg = boxlint__rprintf(r, "%s: '%s' is an IPv4-mapped IPv6 prefix of /96 or shorter", where,
                           q);
    hint = "write the IPv4 network instead (ALL_TRAFFIC for every address)";
  } else if (det == D_EMPTY_LABEL) {
    msg = boxlint__rprintf(r, "%s: '%s' has an empty label", where, q);
  } else if (det == D_LABEL_LONG) {
    msg = boxlint__rprintf(r, "%s: '%s' has a label longer than 63 characters", where, q);
  } else if (det == D_NAME_LONG) {
    msg = boxlint__rprintf(r, "%s: '%s' is longer than a host name can be (253 characters)",
                           where, q);
  } else if (det == D_LABEL_SYNTAX && n == 12 && raw[11] == '.' &&
             boxlint__ieq(raw, 11, "all_traffic")) {
    msg = boxlint__rprintf(r, "%s: '%s' is ALL_TRAFFIC with a trailing dot, not a host name",
                           where, q);
    hint = "write ALL_TRAFFIC for all traffic";
  } else if (det == D_LABEL_SYNTAX) {
    msg = boxlint__rprintf(r,
                           "%s: '%s' is not a valid host name: labels take letters, digits, '-' "
                           "and '_', and do not start or end with '-'",
                           where, q);
  } else if (det == D_NUM_TLD) {
    msg = boxlint__rprintf(r,
                           "%s: '%s' is not an IPv4 address and not a host name: its last label "
                           "is numeric",
                           where, q);
  } else if (det == D_WILDPOS) {
    msg = boxlint__rprintf(r,
                           "%s: '%s' has '*' in the wrong place; a wildcard is '*.' followed by a "
                           "domain, or '*' alone",
                           where, q);
    if (n > 3 && raw[0] == '*' && raw[1] == '*' && raw[2] == '.')
      hint = boxlint__rprintf(r, "'%.*s' already matches subdomains at any depth", (int)(n - 1),
                              raw + 1);
  } else if (det == D_LEADDOT) {
    msg = boxlint__rprintf(r, "%s: '%s' starts with a dot", where, q);
    if (n > 1)
      hint = boxlint__rprintf(r, "list '%.*s' and/or '*%.*s'", (int)(n - 1), raw + 1, (int)n, raw);
  } else {
    msg = boxlint__rprintf(r, "%s: '%s' is not a valid entry", where, q);
  }
  if (msg) d->message = msg;
  d->hint = hint;
}

/*==============================================================================================
 * MARK: Policy validation
 *============================================================================================*/

static const char R_TYPE[] = "invalid-policy-type", R_ENTRY[] = "invalid-policy-entry",
                  R_LISTS[] = "lists-not-allowed", R_TOO_MANY[] = "too-many-entries",
                  R_ALLOW_NOEFF[] = "allow-without-effect",
                  R_DENY_NOEFF[] = "deny-without-effect",
                  R_EMPTY_OPEN[] = "filtered-empty-is-open", R_DUP[] = "duplicate-entry",
                  R_SHADOW[] = "shadowed-entry", R_BROAD[] = "broad-wildcard",
                  R_ANY[] = "any-host", R_MAPPED[] = "mapped-address",
                  R_DOMAINS_ALL[] = "domains-require-deny-all",
                  R_COMPAT_DENY_DOMAIN[] = "compat-deny-domain", R_COMPAT_IPV6[] = "compat-ipv6";

static const char *const LIST_NAME[2] = {"allow_out", "deny_out"};

void boxlint_policy_options_init(boxlint_policy_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->size = sizeof *o;
  o->max_entries = BOXLINT_POLICY_DEFAULT_MAX_ENTRIES;
  o->unmatched = BOXLINT_UNMATCHED_ALLOW;
  o->compat = BOXLINT_COMPAT_NONE;
  o->path_prefix.ptr = NULL;
  o->path_prefix.len = 0;
}

/* Per-entry state while validating. */
typedef struct vstate {
  const char *detail; /* invalid: why */
  int32_t dup_of;     /* duplicate of this index, or -1 */
  uint8_t compat_unspec;
} vstate;

typedef struct vctx {
  boxlint_report *r;
  boxlint_policy *p;
  boxlint_policy_options o;
  const boxlint_policy_spec *spec;
  const boxlint_span *raw[2];
  size_t n[2];   /* entries parsed (at most max_entries) */
  vstate *st[2];
} vctx;

static const char *vpath(vctx *c, const char *field) {
  const boxlint_span *pp = &c->o.path_prefix;
  if (!pp->ptr) return boxlint__rprintf(c->r, "network_policy%s%s", field ? "." : "",
                                        field ? field : "");
  if (!pp->len) return field ? field : NULL;
  return boxlint__rprintf(c->r, "%.*s%s%s", (int)pp->len, pp->ptr, field ? "." : "",
                          field ? field : "");
}

static boxlint_diag *vadd(vctx *c, const char *rule, boxlint_severity sev, const char *field) {
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
  return qs(c->r, s->ptr ? s->ptr : "", s->len, 80);
}

static const char *etext(const boxlint_policy *p, int l, size_t i) {
  return p->text + p->entries[l][i].text_off;
}

static int pe_is_name(const boxlint__pentry *e) {
  return e->kind == BOXLINT_ENTRY_DOMAIN || e->kind == BOXLINT_ENTRY_WILDCARD ||
         e->kind == BOXLINT_ENTRY_ANY_HOST;
}

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

/*---------------------------------------------------------------- overlap and coverage ----*/

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

/*----------------------------------------------------------------------- emission ----*/

static void add_all_traffic_fix(vctx *c, boxlint_diag *d) {
  const char *desc = boxlint__rprintf(c->r, "add \"ALL_TRAFFIC\" to %s", vpath(c, "deny_out"));
  boxlint__diag_fix(c->r, d, c->spec->n_deny, 0, "ALL_TRAFFIC", 11,
                    desc ? desc : "add \"ALL_TRAFFIC\" to deny_out");
}

static void emit_entry(vctx *c, int l, size_t i, int effects, boxlint__segs outer[2][2]) {
  boxlint_policy *p = c->p;
  const vstate *st = &c->st[l][i];
  const boxlint_span *raw = &c->raw[l][i];
  const char *rs = raw->ptr ? raw->ptr : "";
  boxlint_diag *d;
  if (st->detail) {
    boxlint__entry pe;
    boxlint__egress_parse(&pe, rs, raw->len, 0);
    d = vadd_entry(c, R_ENTRY, BOXLINT_SEVERITY_ERROR, l, i);
    if (d) boxlint__egress_describe(c->r, d, rs, raw->len, &pe, where_of(c, l, i), i);
    return;
  }
  const boxlint__pentry *e = &p->entries[l][i];
  const char *w = where_of(c, l, i), *q = qraw(c, l, i), *t = etext(p, l, i);
  if (st->compat_unspec) {
    d = vadd_entry(c, R_ENTRY, BOXLINT_SEVERITY_ERROR, l, i);
    if (d) {
      d->detail = D_UNSPEC;
      d->message = boxlint__rprintf(c->r,
                                    "%s: '%s' starts at the unspecified address; E2B rejects "
                                    "such networks other than 0.0.0.0/0",
                                    w, q);
      d->hint = "write ALL_TRAFFIC (or 0.0.0.0/0) for all traffic, or a network of real addresses";
    }
  }
  if (c->o.compat & BOXLINT_COMPAT_E2B) {
    if (l == 1 && pe_is_name(e)) {
      d = vadd_entry(c, R_COMPAT_DENY_DOMAIN, BOXLINT_SEVERITY_ERROR, l, i);
      if (d) {
        d->message = boxlint__rprintf(c->r, "%s: '%s': E2B does not support host names in deny_out",
                                      w, q);
        d->hint = "deny its addresses instead, or write an allow-list: the names you need in "
                  "allow_out and \"ALL_TRAFFIC\" in deny_out";
      }
    }
    if (e->family == 6) {
      d = vadd_entry(c, R_COMPAT_IPV6, BOXLINT_SEVERITY_ERROR, l, i);
      if (d) {
        if (l == 1 && e->plen == 0)
          d->message = boxlint__rprintf(c->r, "%s: '%s': E2B rejects '::/0' in deny_out", w, q);
        else
          d->message = boxlint__rprintf(c->r,
                                        "%s: '%s': E2B enforces IPv4 only and would read this "
                                        "IPv6 entry as a different network",
                                        w, q);
        d->hint = "E2B turns a bare address into a /32 and its firewall carries no IPv6; list "
                  "IPv4 addresses, or use ALL_TRAFFIC";
      }
    }
  }
  if (st->dup_of >= 0) {
    d = vadd_entry(c, R_DUP, BOXLINT_SEVERITY_WARNING, l, i);
    if (d) {
      d->message = boxlint__rprintf(c->r, "%s: '%s' repeats %s[%d] ('%s')", w, q, LIST_NAME[l],
                                    (int)st->dup_of, etext(p, l, (size_t)st->dup_of));
      d->hint = "remove the repeated entry";
    }
    return;
  }
  if (e->mapped) {
    d = vadd_entry(c, R_MAPPED, BOXLINT_SEVERITY_WARNING, l, i);
    if (d) {
      d->message = boxlint__rprintf(c->r,
                                    "%s: '%s' is an IPv4-mapped IPv6 address; it is treated as "
                                    "the IPv4 %s '%s'",
                                    w, q, e->kind == BOXLINT_ENTRY_CIDR ? "network" : "address",
                                    t);
      d->hint = boxlint__rprintf(c->r, "write '%s'", t);
    }
  }
  if (e->kind == BOXLINT_ENTRY_ANY_HOST) {
    d = vadd_entry(c, R_ANY, BOXLINT_SEVERITY_WARNING, l, i);
    if (d) {
      d->message = boxlint__rprintf(c->r,
                                    "%s: '*' matches every host name (but no destination "
                                    "reached by IP address)",
                                    w);
      d->hint = "list the host names you mean; use ALL_TRAFFIC for all traffic";
    }
  }
  if (e->kind == BOXLINT_ENTRY_WILDCARD && !memchr(t + 2, '.', e->text_len - 2)) {
    d = vadd_entry(c, R_BROAD, BOXLINT_SEVERITY_WARNING, l, i);
    if (d) {
      d->message = boxlint__rprintf(c->r,
                                    "%s: '%s' matches every name under the top-level domain '%s'",
                                    w, q, t + 2);
      d->hint = boxlint__rprintf(c->r, "name the domain, e.g. '*.example.%s'", t + 2);
    }
  }
  if (!effects) return;
  if (l == 1) {
    int32_t cov = covered_by(p, outer, e, 0);
    if (cov >= 0) {
      d = vadd_entry(c, R_SHADOW, BOXLINT_SEVERITY_WARNING, l, i);
      if (d) {
        d->message = boxlint__rprintf(c->r,
                                      "%s: '%s' can never decide: allow_out[%d] ('%s') covers "
                                      "it, and allow beats deny",
                                      w, q, (int)cov, etext(p, 0, (size_t)cov));
        d->hint = "remove it, or narrow the allow entry; an exception cannot be carved out of "
                  "an allow entry";
      }
      return;
    }
  }
  if (l == 0 && p->unmatched == BOXLINT_UNMATCHED_ALLOW && !overlaps(p, e, 1)) {
    d = vadd_entry(c, R_ALLOW_NOEFF, BOXLINT_SEVERITY_WARNING, l, i);
    if (d) {
      d->message = boxlint__rprintf(c->r,
                                    "%s: '%s' has no effect: no deny_out entry overlaps it, and "
                                    "destinations matched by neither list are allowed",
                                    w, q);
      d->hint = "to allow only what allow_out lists, add \"ALL_TRAFFIC\" to deny_out";
      add_all_traffic_fix(c, d);
    }
  }
  if (l == 1 && p->unmatched == BOXLINT_UNMATCHED_DENY && !overlaps(p, e, 0)) {
    d = vadd_entry(c, R_DENY_NOEFF, BOXLINT_SEVERITY_WARNING, l, i);
    if (d) {
      d->message = boxlint__rprintf(c->r,
                                    "%s: '%s' has no effect: no allow_out entry overlaps it, and "
                                    "destinations matched by neither list are denied",
                                    w, q);
      d->hint = "remove it";
    }
  }
}

static boxlint_status validate(vctx *c) {
  boxlint_policy *p = c->p;
  const boxlint_policy_spec *sp = c->spec;
  boxlint_diag *d;
  size_t err0 = boxlint_report_count_at_least(c->r, BOXLINT_SEVERITY_ERROR);
  int type_ok = 1;

  /* type */
  p->type = BOXLINT_POLICY_DISABLED;
  if (sp->type.ptr) {
    static const char *const names[3] = {"disabled", "open", "filtered"};
    int found = -1, ci = -1;
    for (int k = 0; k < 3; k++) {
      size_t L = strlen(names[k]);
      if (sp->type.len == L && !memcmp(sp->type.ptr, names[k], L)) found = k;
      else if (boxlint__ieq(sp->type.ptr, sp->type.len, names[k])) ci = k;
    }
    if (found >= 0) {
      p->type = (boxlint_policy_type)found;
    } else {
      type_ok = 0;
      d = vadd(c, R_TYPE, BOXLINT_SEVERITY_ERROR, "type");
      if (d) {
        d->message = boxlint__rprintf(c->r,
                                      "type '%s' is not one of 'disabled', 'open' or 'filtered'",
                                      qs(c->r, sp->type.ptr, sp->type.len, 40));
        d->hint = ci >= 0 ? boxlint__rprintf(c->r, "did you mean '%s'? (types are lower-case)",
                                             names[ci])
                          : "'disabled' blocks all egress, 'open' allows all, 'filtered' applies "
                            "allow_out and deny_out";
      }
    }
  }

  /* Parse every entry up to the limit. */
  int any_invalid = 0;
  for (int l = 0; l < 2; l++) {
    size_t n = c->n[l];
    if (!n) continue;
    c->st[l] = boxlint__malloc(&p->mem, n * sizeof *c->st[l]);
    p->entries[l] = boxlint__malloc(&p->mem, n * sizeof *p->entries[l]);
    if (!c->st[l] || !p->entries[l]) return BOXLINT_ENOMEM;
    for (size_t i = 0; i < n; i++) {
      const boxlint_span *s = &c->raw[l][i];
      boxlint__entry pe;
      vstate *st = &c->st[l][i];
      boxlint__pentry *e = &p->entries[l][i];
      st->dup_of = -1;
      st->compat_unspec = 0;
      st->detail = boxlint__egress_parse(&pe, s->ptr ? s->ptr : "", s->len, 0);
      memset(e, 0, sizeof *e);
      if (st->detail) {
        any_invalid = 1;
        e->kind = BOXLINT_ENTRY_INVALID;
        if (!text_append(p, "", 0, &e->text_off)) return BOXLINT_ENOMEM;
        continue;
      }
      e->kind = (uint8_t)pe.e.kind;
      e->family = (uint8_t)pe.e.family;
      e->plen = (uint8_t)pe.e.prefix_len;
      e->mapped = (uint8_t)pe.e.mapped;
      e->addr = pe.addr;
      e->text_len = (uint16_t)pe.e.text_len;
      if (!text_append(p, pe.e.text, pe.e.text_len, &e->text_off)) return BOXLINT_ENOMEM;
      if ((c->o.compat & BOXLINT_COMPAT_E2B) && e->family == 4 && !e->addr.lo && e->plen > 0) {
        st->compat_unspec = 1;
        any_invalid = 1;
      }
    }
    p->n[l] = n;
  }
  for (int l = 0; l < 2; l++)
    if (!find_dups(c, l)) return BOXLINT_ENOMEM;

  /* Policy-level findings. */
  int lists_ok = 1;
  for (int l = 0; l < 2; l++) {
    size_t total = l ? sp->n_deny : sp->n_allow;
    if (type_ok && p->type != BOXLINT_POLICY_FILTERED && total) {
      lists_ok = 0;
      d = vadd(c, R_LISTS, BOXLINT_SEVERITY_ERROR, LIST_NAME[l]);
      if (d) {
        d->message = boxlint__rprintf(c->r, "%s has %zu %s, but type '%s' takes no lists",
                                      LIST_NAME[l], total, total == 1 ? "entry" : "entries",
                                      boxlint_policy_type_str(p->type));
        d->hint = p->type == BOXLINT_POLICY_DISABLED
                      ? "to allow only some destinations, use type 'filtered' with \"ALL_TRAFFIC\" "
                        "in deny_out and the destinations in allow_out"
                      : "use type 'filtered' to apply the lists, or remove them";
      }
    }
    if (total > c->o.max_entries) {
      lists_ok = 0;
      d = vadd(c, R_TOO_MANY, BOXLINT_SEVERITY_ERROR, LIST_NAME[l]);
      if (d) {
        d->message = boxlint__rprintf(c->r,
                                      "%s has %zu entries; at most %zu are allowed (entries "
                                      "after %s[%zu] were not checked)",
                                      LIST_NAME[l], total, c->o.max_entries, LIST_NAME[l],
                                      c->o.max_entries - 1);
        d->hint = "merge addresses into CIDRs and names under '*.' wildcards";
      }
    }
  }
  int filtered = type_ok && p->type == BOXLINT_POLICY_FILTERED;
  if (filtered && !sp->n_allow && !sp->n_deny && p->unmatched == BOXLINT_UNMATCHED_ALLOW) {
    d = vadd(c, R_EMPTY_OPEN, BOXLINT_SEVERITY_WARNING, NULL);
    if (d) {
      d->message = "type is 'filtered' but allow_out and deny_out are empty: every destination "
                   "is allowed";
      d->hint = "use type 'open' to allow everything, or add \"ALL_TRAFFIC\" to deny_out and the "
                "destinations you need to allow_out";
    }
  }

  /* Tables: needed for decisions and for the effect warnings. */
  boxlint__segs outer[2][2];
  memset(outer, 0, sizeof outer);
  int effects = filtered && lists_ok && !any_invalid;
  boxlint_status st = BOXLINT_OK;
  if (effects) st = boxlint__policy_build(p, outer);
  if (st != BOXLINT_OK) {
    for (int l = 0; l < 2; l++)
      for (int f = 0; f < 2; f++) boxlint__segs_free(&p->mem, &outer[l][f]);
    return st;
  }

  if (filtered && (c->o.compat & BOXLINT_COMPAT_E2B)) {
    int has_all = 0;
    size_t first_name = SIZE_MAX;
    for (size_t i = 0; i < c->n[1]; i++)
      if (!c->st[1][i].detail && p->entries[1][i].kind == BOXLINT_ENTRY_ALL_TRAFFIC) has_all = 1;
    for (size_t i = c->n[0]; i-- > 0;)
      if (!c->st[0][i].detail && pe_is_name(&p->entries[0][i])) first_name = i;
    if (first_name != SIZE_MAX && !has_all) {
      d = vadd(c, R_DOMAINS_ALL, BOXLINT_SEVERITY_ERROR, LIST_NAME[1]);
      if (d) {
        d->message = boxlint__rprintf(c->r,
                                      "allow_out lists host names (allow_out[%zu] '%s') but "
                                      "deny_out lacks ALL_TRAFFIC: when specifying allowed "
                                      "domains in allow out, you must include 'ALL_TRAFFIC' in "
                                      "deny out to block all other traffic",
                                      first_name, qraw(c, 0, first_name));
        d->hint = "add \"ALL_TRAFFIC\" to deny_out";
        add_all_traffic_fix(c, d);
      }
    }
  }

  for (int l = 0; l < 2; l++)
    for (size_t i = 0; i < c->n[l]; i++) emit_entry(c, l, i, effects, outer);

  for (int l = 0; l < 2; l++)
    for (int f = 0; f < 2; f++) boxlint__segs_free(&p->mem, &outer[l][f]);
  if (c->r->oom) return BOXLINT_ENOMEM;
  if (boxlint_report_count_at_least(c->r, BOXLINT_SEVERITY_ERROR) > err0) return BOXLINT_ESYNTAX;
  if (!effects) st = boxlint__policy_build(p, NULL); /* e.g. disabled or open: trivial tables */
  return st;
}

boxlint_status boxlint_policy_new(boxlint_policy **out, boxlint_report *report,
                                  const boxlint_policy_spec *spec,
                                  const boxlint_policy_options *opts, const boxlint_alloc *alloc) {
  if (!out) return BOXLINT_EINVAL;
  *out = NULL;
  if (!spec || (!spec->allow_out && spec->n_allow) || (!spec->deny_out && spec->n_deny))
    return BOXLINT_EINVAL;
  vctx c;
  memset(&c, 0, sizeof c);
  boxlint_policy_options_init(&c.o);
  if (opts) {
    if (opts->size < offsetof(boxlint_policy_options, max_entries) + sizeof(size_t))
      return BOXLINT_EINVAL;
    memcpy(&c.o, opts, opts->size < sizeof c.o ? opts->size : sizeof c.o);
    c.o.size = sizeof c.o;
  }
  if (!c.o.max_entries) c.o.max_entries = BOXLINT_POLICY_DEFAULT_MAX_ENTRIES;
  if (c.o.max_entries > BOXLINT_POLICY_HARD_MAX_ENTRIES) return BOXLINT_EINVAL;
  if (c.o.unmatched != BOXLINT_UNMATCHED_ALLOW && c.o.unmatched != BOXLINT_UNMATCHED_DENY)
    return BOXLINT_EINVAL;
  if (c.o.compat & ~(unsigned)BOXLINT_COMPAT_E2B) return BOXLINT_EINVAL;
  if (c.o.path_prefix.len && !c.o.path_prefix.ptr) return BOXLINT_EINVAL;
  for (size_t i = 0; i < spec->n_allow; i++)
    if (!spec->allow_out[i].ptr && spec->allow_out[i].len) return BOXLINT_EINVAL;
  for (size_t i = 0; i < spec->n_deny; i++)
    if (!spec->deny_out[i].ptr && spec->deny_out[i].len) return BOXLINT_EINVAL;

  boxlint__mem m;
  boxlint__mem_init(&m, alloc);
  boxlint_report *own = NULL;
  if (!report) {
    if (boxlint_report_new(&own, alloc) != BOXLINT_OK) return BOXLINT_ENOMEM;
    report = own;
  }
  boxlint_policy *p = boxlint__malloc(&m, sizeof *p);
  if (!p) {
    boxlint_report_free(own);
    return BOXLINT_ENOMEM;
  }
  memset(p, 0, sizeof *p);
  p->mem = m;
  p->unmatched = c.o.unmatched;
  p->any[0] = p->any[1] = p->all[0] = p->all[1] = -1;
  c.r = report;
  c.p = p;
  c.spec = spec;
  c.raw[0] = spec->allow_out;
  c.raw[1] = spec->deny_out;
  c.n[0] = spec->n_allow < c.o.max_entries ? spec->n_allow : c.o.max_entries;
  c.n[1] = spec->n_deny < c.o.max_entries ? spec->n_deny : c.o.max_entries;
  int oom0 = report->oom;
  size_t first = report->ndiags;
  report->oom = 0;
  boxlint_status st = validate(&c);
  /* Out of memory, the report is incomplete (a finding, or its message, may be missing): say
   * so rather than ESYNTAX, and never leave a NULL message behind. */
  if (report->oom) st = BOXLINT_ENOMEM;
  for (size_t i = first; i < report->ndiags; i++)
    if (!report->diags[i].message) report->diags[i].message = "";
  report->oom |= oom0;
  for (int l = 0; l < 2; l++) boxlint__free(&m, c.st[l]);
  boxlint_report_free(own);
  if (st != BOXLINT_OK) {
    boxlint_policy_free(p);
    return st;
  }
  *out = p;
  return BOXLINT_OK;
}

/*==============================================================================================
 * MARK: Rule descriptions
 *============================================================================================*/

const boxlint_rule_info *boxlint__egress_rules(size_t *count) {
  /* The policy rules are the tail of the one rule table (rules.c). */
  size_t n, first = boxlint__rules_policy_first();
  const boxlint_rule_info *all = boxlint_rules(&n);
  if (count) *count = n - first;
  return all + first;
}

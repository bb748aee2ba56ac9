/* NetworkPolicy entries: the strict lexer (docs/design.md §3). One entry's bytes
 * become a parsed entry (kind, family, prefix, normalised text) or the reason it is invalid.
 * Used by everything above it in the folder; calls nothing of the folder (only internal.h's
 * ASCII helpers). Allocates nothing. */
#include <string.h>
#include "policy_int.h"

/*==============================================================================================
 * MARK: Details
 *============================================================================================*/

const char *boxlint__policy_detail_name(boxlint__pdetail d) {
  static const char *const names[] = {
      [BOXLINT__PD_NONE] = NULL,
      [BOXLINT__PD_EMPTY] = "empty",
      [BOXLINT__PD_TOO_LONG] = "too-long",
      [BOXLINT__PD_NON_ASCII] = "non-ascii",
      [BOXLINT__PD_WHITESPACE] = "whitespace",
      [BOXLINT__PD_URL] = "url",
      [BOXLINT__PD_USERINFO] = "userinfo",
      [BOXLINT__PD_BRACKETS] = "brackets",
      [BOXLINT__PD_ZONE] = "zone",
      [BOXLINT__PD_PATH] = "path",
      [BOXLINT__PD_PORT] = "port",
      [BOXLINT__PD_IPV6] = "ipv6-syntax",
      [BOXLINT__PD_LEAD0] = "ipv4-leading-zero",
      [BOXLINT__PD_SHORT] = "ipv4-shorthand",
      [BOXLINT__PD_NONDEC] = "ipv4-nondecimal",
      [BOXLINT__PD_RANGE] = "ipv4-range",
      [BOXLINT__PD_TDOT] = "ipv4-trailing-dot",
      [BOXLINT__PD_PSYNTAX] = "prefix-syntax",
      [BOXLINT__PD_PRANGE] = "prefix-range",
      [BOXLINT__PD_HOSTBITS] = "host-bits",
      [BOXLINT__PD_UNSPEC] = "unspecified",
      [BOXLINT__PD_MAPPED] = "mapped-prefix",
      [BOXLINT__PD_EMPTY_LABEL] = "empty-label",
      [BOXLINT__PD_LABEL_LONG] = "label-too-long",
      [BOXLINT__PD_NAME_LONG] = "name-too-long",
      [BOXLINT__PD_LABEL_SYNTAX] = "label-syntax",
      [BOXLINT__PD_NUM_TLD] = "numeric-tld",
      [BOXLINT__PD_WILDPOS] = "wildcard-position",
      [BOXLINT__PD_LEADDOT] = "leading-dot",
  };
  return (size_t)d < sizeof names / sizeof *names ? names[d] : NULL;
}

/*==============================================================================================
 * MARK: Lexer helpers
 *============================================================================================*/

/* "0x" followed by hex digits (maybe none): a number to WHATWG's IPv4 parser. */
static int is_hex_number(const char *s, size_t n) {
  if (n < 2 || s[0] != '0' || (s[1] | 0x20) != 'x') return 0;
  for (size_t i = 2; i < n; i++)
    if (!boxlint__policy_is_hex((unsigned char)s[i])) return 0;
  return 1;
}
/* Only [0-9a-fA-FxX.] */
static int numeric_chars(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!boxlint__policy_is_hex(c) && c != '.' && (c | 0x20) != 'x') return 0;
  }
  return 1;
}
/* The last label (after dropping one trailing dot) is all digits or a 0x number. */
static int last_label_numeric(const char *s, size_t n) {
  if (n && s[n - 1] == '.') n--;
  size_t i = n;
  while (i > 0 && s[i - 1] != '.') i--;
  return boxlint__policy_all_digits(s + i, n - i) || is_hex_number(s + i, n - i);
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

size_t boxlint__policy_fmt_ipv4(char *b, uint32_t v) {
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
size_t boxlint__policy_fmt_ipv6(char *b, boxlint__u128 a) {
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

/*==============================================================================================
 * MARK: Addresses
 *============================================================================================*/

/* Strict dotted quad (ABNF ipv4 of the semantics doc). The first reason found, in this order:
 * non-decimal part, empty part, leading zero, fewer than four parts, more than four (a name with
 * a numeric last label), a part above 255, a trailing dot. */
boxlint__pdetail boxlint__policy_parse_ipv4(const char *s, size_t n, uint32_t *out) {
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
    } else if (!boxlint__policy_all_digits(s + i, len)) {
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
  if (nondec) return BOXLINT__PD_NONDEC;
  if (empty) return BOXLINT__PD_EMPTY_LABEL;
  if (lead0) return BOXLINT__PD_LEAD0;
  if (parts < 4) return BOXLINT__PD_SHORT;
  if (parts > 4) return BOXLINT__PD_NUM_TLD;
  if (range) return BOXLINT__PD_RANGE;
  if (tdot) return BOXLINT__PD_TDOT;
  *out = v;
  return BOXLINT__PD_NONE;
}

/* The groups of an IPv6 address, `dc` the index at which "::" stands (-1: none), into `out`. */
static boxlint__pdetail ipv6_expand(const unsigned *tmp, size_t ng, long dc, boxlint__u128 *out) {
  unsigned g[8];
  if (dc < 0) {
    if (ng != 8) return BOXLINT__PD_IPV6;
    memcpy(g, tmp, sizeof g);
  } else {
    if (ng > 7) return BOXLINT__PD_IPV6;
    size_t before = (size_t)dc, after = ng - before;
    for (size_t k = 0; k < 8; k++) g[k] = 0;
    for (size_t k = 0; k < before; k++) g[k] = tmp[k];
    for (size_t k = 0; k < after; k++) g[8 - after + k] = tmp[before + k];
  }
  out->hi = ((uint64_t)g[0] << 48) | ((uint64_t)g[1] << 32) | ((uint64_t)g[2] << 16) | g[3];
  out->lo = ((uint64_t)g[4] << 48) | ((uint64_t)g[5] << 32) | ((uint64_t)g[6] << 16) | g[7];
  return BOXLINT__PD_NONE;
}

/* RFC 4291 §2.2 text form: 1-4 hex digits per group, at most one "::" standing for one or more
 * zero groups, an optional strict dotted quad as the last 32 bits. */
static boxlint__pdetail parse_ipv6(const char *s, size_t n, boxlint__u128 *out) {
  unsigned tmp[8];
  size_t ng = 0, i = 0;
  long dc = -1;
  if (n >= 2 && s[0] == ':' && s[1] == ':') {
    dc = 0;
    i = 2;
  } else if (n && s[0] == ':') {
    return BOXLINT__PD_IPV6;
  }
  while (i < n) {
    size_t j = i;
    while (j < n && s[j] != ':') j++;
    size_t len = j - i;
    if (!len) return BOXLINT__PD_IPV6;
    if (memchr(s + i, '.', len)) {
      if (j != n || ng > 6 || !numeric_chars(s + i, len)) return BOXLINT__PD_IPV6;
      uint32_t v;
      boxlint__pdetail d = boxlint__policy_parse_ipv4(s + i, len, &v);
      if (d) return d;
      tmp[ng++] = v >> 16;
      tmp[ng++] = v & 0xffffu;
      break;
    }
    if (len > 4 || ng >= 8) return BOXLINT__PD_IPV6;
    unsigned x = 0;
    for (size_t k = i; k < j; k++) {
      if (!boxlint__policy_is_hex((unsigned char)s[k])) return BOXLINT__PD_IPV6;
      x = x * 16 + boxlint__policy_hexval((unsigned char)s[k]);
    }
    tmp[ng++] = x;
    if (j == n) break;
    if (j + 1 < n && s[j + 1] == ':') {
      if (dc >= 0) return BOXLINT__PD_IPV6;
      dc = (long)ng;
      i = j + 2;
    } else {
      i = j + 1;
      if (i == n) return BOXLINT__PD_IPV6;
    }
  }
  return ipv6_expand(tmp, ng, dc, out);
}

/* "0" / [1-9][0-9]*, at most `max`. */
static boxlint__pdetail parse_prefix(const char *s, size_t n, unsigned max, unsigned *out) {
  if (!boxlint__policy_all_digits(s, n) || (n > 1 && s[0] == '0')) return BOXLINT__PD_PSYNTAX;
  if (n > 3) return BOXLINT__PD_PRANGE;
  unsigned x = 0;
  for (size_t i = 0; i < n; i++) x = x * 10 + (unsigned)(s[i] - '0');
  if (x > max) return BOXLINT__PD_PRANGE;
  *out = x;
  return BOXLINT__PD_NONE;
}

static int is_mapped(boxlint__u128 a) { return a.hi == 0 && (a.lo >> 32) == 0xffffu; }

static boxlint__pdetail fail(boxlint__entry *o, boxlint__pdetail d) {
  o->e.kind = BOXLINT_ENTRY_INVALID;
  o->code = d;
  o->e.detail = boxlint__policy_detail_name(d);
  o->e.text[0] = 0;
  o->e.text_len = 0;
  return d;
}

static boxlint__pdetail all_traffic(boxlint__entry *o) {
  o->e.kind = BOXLINT_ENTRY_ALL_TRAFFIC;
  memcpy(o->e.text, "0.0.0.0/0", 10);
  o->e.text_len = 9;
  return BOXLINT__PD_NONE;
}

/* The kind and normalised text of the valid network `a`/`plen` (o->e.family set). */
static boxlint__pdetail ip_result(boxlint__entry *o, boxlint__u128 a, unsigned plen,
                                  unsigned width, int dest) {
  o->addr = a;
  int zero = !a.hi && !a.lo;
  if (zero && plen == width) return fail(o, BOXLINT__PD_UNSPEC);
  if (zero && plen == 0 && o->e.family == 4) {
    o->e.family = 0;
    return all_traffic(o);
  }
  o->e.kind = o->has_prefix ? BOXLINT_ENTRY_CIDR : BOXLINT_ENTRY_ADDRESS;
  if (dest) return BOXLINT__PD_NONE;
  size_t t = o->e.family == 4 ? boxlint__policy_fmt_ipv4(o->e.text, (uint32_t)a.lo)
                              : boxlint__policy_fmt_ipv6(o->e.text, a);
  if (o->has_prefix) {
    o->e.text[t++] = '/';
    t += fmt_uint(o->e.text + t, plen);
  }
  o->e.text_len = t;
  return BOXLINT__PD_NONE;
}

/* An IPv4 or IPv6 address with an optional prefix; `slash` is the index of '/' or n. */
static boxlint__pdetail parse_ip(boxlint__entry *o, const char *s, size_t n, size_t slash,
                                 int v6, int dest) {
  boxlint__pdetail d;
  boxlint__u128 a = {0, 0};
  unsigned width = 32, plen;
  if (v6) {
    width = 128;
    d = parse_ipv6(s, slash, &a);
  } else {
    uint32_t v = 0;
    d = boxlint__policy_parse_ipv4(s, slash, &v);
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
    if (plen <= 96) return fail(o, BOXLINT__PD_MAPPED);
    o->e.mapped = 1;
    o->e.family = 4;
    width = 32;
    plen -= 96;
    o->e.prefix_len = plen;
    a.lo &= 0xffffffffu;
    o->raw = a;
  }
  boxlint__u128 hm = boxlint__u128_hostmask(width - plen);
  if ((a.hi & hm.hi) || (a.lo & hm.lo)) return fail(o, BOXLINT__PD_HOSTBITS);
  return ip_result(o, a, plen, width, dest);
}

/*==============================================================================================
 * MARK: Host names
 *============================================================================================*/

/* A host name (without its final dot), at most `max` bytes. */
static boxlint__pdetail check_domain(const char *s, size_t n, size_t max) {
  if (!n) return BOXLINT__PD_EMPTY_LABEL;
  if (n > max) return BOXLINT__PD_NAME_LONG;
  size_t i = 0, last = 0;
  boxlint__pdetail err = BOXLINT__PD_NONE;
  for (;;) {
    size_t j = i;
    while (j < n && s[j] != '.') j++;
    size_t len = j - i;
    if (!len) return BOXLINT__PD_EMPTY_LABEL;
    if (len > 63 && !err) err = BOXLINT__PD_LABEL_LONG;
    for (size_t k = i; k < j && !err; k++) {
      unsigned char c = (unsigned char)s[k];
      if (!boxlint__is_alpha(c) && !boxlint__is_digit(c) && c != '_' && c != '-')
        err = BOXLINT__PD_LABEL_SYNTAX;
    }
    if (!err && (s[i] == '-' || s[j - 1] == '-')) err = BOXLINT__PD_LABEL_SYNTAX;
    last = i;
    if (j >= n) break;
    i = j + 1;
  }
  if (err) return err;
  if (boxlint__policy_all_digits(s + last, n - last) || is_hex_number(s + last, n - last))
    return BOXLINT__PD_NUM_TLD;
  return BOXLINT__PD_NONE;
}

static void put_lower(boxlint__entry *o, const char *s, size_t n, size_t at) {
  for (size_t i = 0; i < n; i++) o->e.text[at + i] = (char)boxlint__lower((unsigned char)s[i]);
  o->e.text[at + n] = 0;
  o->e.text_len = at + n;
}

/* `*`, `*.suffix` or a host name: what is left once addresses are ruled out. */
static boxlint__pdetail parse_name(boxlint__entry *o, const char *s, size_t n, int dest) {
  const char *star = memchr(s, '*', n);
  if (star && dest) return fail(o, BOXLINT__PD_WILDPOS);
  if (n == 1 && s[0] == '*') {
    o->e.kind = BOXLINT_ENTRY_ANY_HOST;
    o->e.text[0] = '*';
    o->e.text[1] = 0;
    o->e.text_len = 1;
    return BOXLINT__PD_NONE;
  }
  if (n >= 2 && s[0] == '*' && s[1] == '.') {
    const char *rest = s + 2;
    size_t rn = n - 2;
    if (memchr(rest, '*', rn)) return fail(o, BOXLINT__PD_WILDPOS);
    if (rn && rest[rn - 1] == '.') rn--;
    /* 251: some "a.<suffix>" must still fit in 253. */
    boxlint__pdetail d = check_domain(rest, rn, 251);
    if (d) return fail(o, d);
    o->e.kind = BOXLINT_ENTRY_WILDCARD;
    o->e.text[0] = '*';
    o->e.text[1] = '.';
    put_lower(o, rest, rn, 2);
    return BOXLINT__PD_NONE;
  }
  if (s[0] == '.') return fail(o, BOXLINT__PD_LEADDOT);
  if (star) return fail(o, BOXLINT__PD_WILDPOS);
  size_t dn = n;
  if (s[dn - 1] == '.') dn--;
  boxlint__pdetail d = check_domain(s, dn, 253);
  if (d) return fail(o, d);
  /* "ALL_TRAFFIC." would normalise to the text "all_traffic", which reads back as ALL_TRAFFIC:
   * the keyword with a trailing dot is refused, not taken as a host name or as all traffic. */
  if (!dest && dn < n && boxlint__ieq(s, dn, "all_traffic"))
    return fail(o, BOXLINT__PD_LABEL_SYNTAX);
  o->e.kind = BOXLINT_ENTRY_DOMAIN;
  put_lower(o, s, dn, 0);
  return BOXLINT__PD_NONE;
}

/*==============================================================================================
 * MARK: Entries
 *============================================================================================*/

static void entry_reset(boxlint__entry *o) {
  o->e.kind = BOXLINT_ENTRY_INVALID;
  o->e.family = 0;
  o->e.prefix_len = 0;
  o->e.mapped = 0;
  o->e.detail = NULL;
  o->e.text_len = 0;
  o->e.text[0] = 0;
  o->code = BOXLINT__PD_NONE;
  o->addr.hi = o->addr.lo = 0;
  o->raw = o->addr;
  o->has_prefix = 0;
}

boxlint__pdetail boxlint__policy_entry_parse(boxlint__entry *o, const char *s, size_t n,
                                             int dest) {
  entry_reset(o);
  if (!n) return fail(o, BOXLINT__PD_EMPTY);
  if (n > BOXLINT_POLICY_ENTRY_MAX) return fail(o, BOXLINT__PD_TOO_LONG);
  int ws = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x80) return fail(o, BOXLINT__PD_NON_ASCII);
    if (c <= 0x20 || c == 0x7f) ws = 1;
  }
  if (ws) return fail(o, BOXLINT__PD_WHITESPACE);
  if (!dest && boxlint__ieq(s, n, "all_traffic")) return all_traffic(o);
  for (size_t i = 0; i + 2 < n; i++)
    if (s[i] == ':' && s[i + 1] == '/' && s[i + 2] == '/') return fail(o, BOXLINT__PD_URL);
  if (memchr(s, '@', n)) return fail(o, BOXLINT__PD_USERINFO);
  if (s[0] == '[') return fail(o, BOXLINT__PD_BRACKETS);
  if (memchr(s, '%', n)) return fail(o, BOXLINT__PD_ZONE);

  const char *sl = memchr(s, '/', n);
  if (sl) {
    size_t slash = (size_t)(sl - s);
    if (slash && memchr(s, ':', slash)) return parse_ip(o, s, n, slash, 1, dest);
    if (slash && looks_ipv4(s, slash)) return parse_ip(o, s, n, slash, 0, dest);
    return fail(o, BOXLINT__PD_PATH);
  }
  const char *colon = memchr(s, ':', n);
  if (colon) {
    size_t c = (size_t)(colon - s);
    if (c && !memchr(colon + 1, ':', n - c - 1) &&
        boxlint__policy_all_digits(colon + 1, n - c - 1))
      return fail(o, BOXLINT__PD_PORT);
    return parse_ip(o, s, n, n, 1, dest);
  }
  if (looks_ipv4(s, n)) return parse_ip(o, s, n, n, 0, dest);
  return parse_name(o, s, n, dest);
}

boxlint_status boxlint_policy_entry_parse(boxlint_policy_entry *out, const char *entry,
                                          size_t len) {
  if (!out || (!entry && len)) return BOXLINT_EINVAL;
  boxlint__entry pe;
  boxlint__pdetail d = boxlint__policy_entry_parse(&pe, entry ? entry : "", len, 0);
  *out = pe.e;
  return d ? BOXLINT_ESYNTAX : BOXLINT_OK;
}

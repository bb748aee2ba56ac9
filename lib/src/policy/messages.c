/* What is wrong with an invalid entry: its message, its hint (what was probably meant) and, for
 * a non-ASCII entry with an A-label, its fix. Calls entry.c (to re-read parts of the entry),
 * idna.c and the report's arena; never decides validity (the lexer did). */
#include <string.h>
#include "policy_int.h"

/*==============================================================================================
 * MARK: Readings of what was meant
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
      if (base == 16 && boxlint__policy_is_hex(c)) dv = boxlint__policy_hexval(c);
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
    if (j == i || !boxlint__policy_all_digits(s + i, j - i) || np == 4) return 0;
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
  if (b == e || boxlint__policy_entry_parse(&t, b, (size_t)(e - b), 0)) return NULL;
  if (t.e.kind == BOXLINT_ENTRY_ANY_HOST || t.e.kind == BOXLINT_ENTRY_ALL_TRAFFIC) return NULL;
  return boxlint__rprintf(r, "did you mean '%s'?", t.e.text);
}

/*==============================================================================================
 * MARK: Messages
 *============================================================================================*/

/* One invalid entry being described. */
typedef struct why {
  boxlint_report *r;
  boxlint_diag *d;
  const char *raw; /* the entry as written */
  size_t n;
  const char *q;     /* the entry, quoted for a message */
  const char *where; /* "allow_out[2]" */
  const boxlint__entry *pe;
  size_t index; /* in its list */
  const char *msg, *hint;
} why;

/* Length of the address part of the entry (before any '/'). */
static size_t ip_len(const why *w) {
  const char *sl = memchr(w->raw, '/', w->n);
  return sl ? (size_t)(sl - w->raw) : w->n;
}

/* Message, hint and fix of a non-ASCII entry (entry `index` of its list): the A-label it must
 * be written as, or why it has none. The position is the first non-ASCII character. */
static void non_ascii(why *w) {
  boxlint_report *r = w->r;
  boxlint_diag *d = w->d;
  for (size_t i = 0; i < w->n; i++)
    if ((unsigned char)w->raw[i] >= 0x80) {
      uint32_t cp;
      size_t l = boxlint__utf8_decode((const unsigned char *)w->raw + i, w->n - i, &cp);
      d->offset = i;
      d->end_offset = i + (l ? l : 1);
      break;
    }
  boxlint__alabel o;
  boxlint__policy_alabel(r, w->raw, w->n, &o);
  if (o.why) {
    w->msg = boxlint__rprintf(r, "%s: '%s' is not ASCII and has no valid A-label: %s", w->where,
                              w->q, o.why);
    return;
  }
  w->hint = boxlint__rprintf(r,
                             "write '%s', the name browsers look up (IDNA2008, UTS #46 "
                             "non-transitional); entries are never converted silently",
                             o.text);
  const char *desc = boxlint__rprintf(r, "replace %s with \"%s\"", d->path ? d->path : w->where,
                                      o.text);
  boxlint__diag_fix(r, d, w->index, 1, o.text, o.len, desc ? desc : "replace the entry");
  w->msg = boxlint__rprintf(r, "%s: '%s' is not ASCII; its A-label is '%s'", w->where, w->q,
                            o.text);
}

static void whitespace(why *w) {
  const char *raw = w->raw;
  w->msg = boxlint__rprintf(w->r, "%s: '%s' contains whitespace or a control character",
                            w->where, w->q);
  size_t i = 0, j = w->n;
  while (i < j && ((unsigned char)raw[i] <= 0x20 || raw[i] == 0x7f)) i++;
  while (j > i && ((unsigned char)raw[j - 1] <= 0x20 || raw[j - 1] == 0x7f)) j--;
  boxlint__entry t;
  if (j > i && (i || j < w->n) && !boxlint__policy_entry_parse(&t, raw + i, j - i, 0))
    w->hint = boxlint__rprintf(w->r, "entries are never trimmed; did you mean '%.*s'?",
                               (int)(j - i), raw + i);
  else
    w->hint = "entries are never trimmed; remove the whitespace";
}

/* The entry's form: empty, too long, not ASCII, whitespace, or more than a host (URL,
 * userinfo, brackets, zone, path, port). 0 when the detail is not one of these. */
static int describe_form(why *w) {
  boxlint_report *r = w->r;
  const char *where = w->where, *q = w->q;
  switch (w->pe->code) {
  case BOXLINT__PD_EMPTY: w->msg = boxlint__rprintf(r, "%s: the entry is empty", where); break;
  case BOXLINT__PD_TOO_LONG:
    w->msg = boxlint__rprintf(r, "%s: '%s' is %zu bytes long; an entry has at most %u", where, q,
                              w->n, BOXLINT_POLICY_ENTRY_MAX);
    break;
  case BOXLINT__PD_NON_ASCII: non_ascii(w); break;
  case BOXLINT__PD_WHITESPACE: whitespace(w); break;
  case BOXLINT__PD_URL:
    w->msg = boxlint__rprintf(r, "%s: '%s' is a URL; give only the host name or address", where,
                              q);
    w->hint = suggest_host(r, w->raw, w->n);
    break;
  case BOXLINT__PD_USERINFO:
    w->msg = boxlint__rprintf(r, "%s: '%s' contains '@' (user information); give only the host",
                              where, q);
    w->hint = suggest_host(r, w->raw, w->n);
    break;
  case BOXLINT__PD_BRACKETS:
    w->msg = boxlint__rprintf(r, "%s: '%s' is in brackets; write an IPv6 address without them",
                              where, q);
    w->hint = suggest_host(r, w->raw, w->n);
    break;
  case BOXLINT__PD_ZONE:
    w->msg = boxlint__rprintf(r, "%s: '%s' has a zone id ('%%...'); zone ids are not allowed",
                              where, q);
    w->hint = "a zone names a local interface, which means nothing to an egress firewall";
    break;
  case BOXLINT__PD_PATH:
    w->msg = boxlint__rprintf(r, "%s: '%s' contains a path; give only the host name or address",
                              where, q);
    w->hint = suggest_host(r, w->raw, w->n);
    break;
  case BOXLINT__PD_PORT:
    w->msg = boxlint__rprintf(r, "%s: '%s' has a port; ports are not allowed, give only the host",
                              where, q);
    w->hint = suggest_host(r, w->raw, w->n);
    break;
  default: return 0;
  }
  return 1;
}

/* An IPv4 part with a leading zero: what glibc reads, and what was probably meant. */
static void hint_leading_zero(why *w) {
  char a[64], b[64];
  uint32_t v, dv;
  const char *raw = w->raw, *ip = raw;
  size_t n = w->n;
  size_t ipn = memchr(raw, '/', n) ? (size_t)((const char *)memchr(raw, '/', n) - raw) : n;
  const char *c = memchr(raw, ':', ipn);
  if (c) { /* embedded in IPv6: explain the dotted part only */
    const char *lc = c;
    for (const char *p = raw; p < raw + ipn; p++)
      if (*p == ':') lc = p;
    ipn -= (size_t)(lc + 1 - raw);
    ip = lc + 1;
  }
  if (!decimal_reading(ip, ipn, &dv)) return;
  boxlint__policy_fmt_ipv4(b, dv);
  if (aton_reading(ip, ipn, &v) && v != dv) {
    boxlint__policy_fmt_ipv4(a, v);
    w->hint = boxlint__rprintf(w->r, "glibc reads it as %s; write %s or %s, whichever is meant",
                               a, a, b);
  } else {
    w->hint = boxlint__rprintf(w->r, "did you mean '%s'?", b);
  }
}

/* A shorthand or non-decimal IPv4 address: what inet_aton reads. */
static void hint_aton(why *w) {
  char a[64];
  uint32_t v;
  const char *raw = w->raw;
  size_t n = w->n;
  size_t ipn = memchr(raw, '/', n) ? (size_t)((const char *)memchr(raw, '/', n) - raw) : n;
  if (!memchr(raw, ':', ipn) && aton_reading(raw, ipn, &v)) {
    boxlint__policy_fmt_ipv4(a, v);
    w->hint = boxlint__rprintf(w->r, "inet_aton and getaddrinfo read it as %s; write '%s%.*s' if "
                                     "that is meant",
                               a, a, (int)(n - ipn), raw + ipn);
  }
}

/* The parts of an IPv4 address. 0 when the detail is not about them. */
static int describe_ipv4(why *w) {
  boxlint_report *r = w->r;
  const char *where = w->where, *q = w->q;
  boxlint__pdetail det = w->pe->code;
  switch (det) {
  case BOXLINT__PD_LEAD0:
    w->msg = boxlint__rprintf(r,
                              "%s: '%s' has an IPv4 part with a leading zero, which inet_aton "
                              "and getaddrinfo read as octal",
                              where, q);
    hint_leading_zero(w);
    break;
  case BOXLINT__PD_SHORT:
  case BOXLINT__PD_NONDEC:
    w->msg = boxlint__rprintf(r,
                              det == BOXLINT__PD_SHORT
                                  ? "%s: '%s' is a shorthand IPv4 address; write all four "
                                    "parts in decimal"
                                  : "%s: '%s' has a non-decimal IPv4 part; write all four "
                                    "parts in decimal",
                              where, q);
    hint_aton(w);
    break;
  case BOXLINT__PD_RANGE:
    w->msg = boxlint__rprintf(r, "%s: '%s' has an IPv4 part greater than 255", where, q);
    break;
  case BOXLINT__PD_TDOT: {
    w->msg = boxlint__rprintf(r, "%s: '%s' is an IPv4 address with a trailing dot", where, q);
    size_t ipn = ip_len(w);
    w->hint = boxlint__rprintf(r, "did you mean '%.*s%.*s'?", (int)(ipn - 1), w->raw,
                               (int)(w->n - ipn), w->raw + ipn);
    break;
  }
  default: return 0;
  }
  return 1;
}

/* A prefix length that is not a number: maybe a netmask. */
static void prefix_syntax(why *w) {
  const char *raw = w->raw;
  size_t n = w->n;
  const char *sl = memchr(raw, '/', n);
  size_t k = sl ? (size_t)(sl - raw) + 1 : n;
  w->msg = boxlint__rprintf(w->r,
                            "%s: '%s' has an invalid prefix length '%s'; write a decimal number "
                            "without sign or leading zeros",
                            w->where, w->q, boxlint__policy_quote(w->r, raw + k, n - k, 40));
  uint32_t m;
  if (sl && !boxlint__policy_parse_ipv4(raw + k, n - k, &m)) {
    unsigned len = 0;
    while (len < 32 && (m >> (31 - len)) & 1u) len++;
    if (len == 32 || (uint32_t)(m << len) == 0)
      w->hint = boxlint__rprintf(w->r, "netmasks are not accepted; did you mean '%.*s/%u'?",
                                 (int)(k - 1), raw, len);
  }
}

/* Host bits beyond the prefix: the network or the host. */
static void host_bits(why *w) {
  const boxlint__entry *pe = w->pe;
  char a[64], b[64];
  w->msg = boxlint__rprintf(w->r, "%s: '%s' has host bits set beyond the /%u prefix", w->where,
                            w->q, pe->e.prefix_len);
  unsigned width = pe->e.family == 6 ? 128u : 32u;
  boxlint__u128 hm = boxlint__u128_hostmask(width - pe->e.prefix_len), net = pe->raw;
  net.hi &= ~hm.hi;
  net.lo &= ~hm.lo;
  if (pe->e.family == 6) {
    boxlint__policy_fmt_ipv6(a, net);
    boxlint__policy_fmt_ipv6(b, pe->raw);
  } else {
    boxlint__policy_fmt_ipv4(a, (uint32_t)net.lo);
    boxlint__policy_fmt_ipv4(b, (uint32_t)pe->raw.lo);
  }
  w->hint = boxlint__rprintf(w->r, "did you mean %s/%u (the network) or %s/%u (the host)?", a,
                             pe->e.prefix_len, b, width);
}

/* IPv6 syntax, prefixes and the addresses that are no destination. 0 when the detail is not
 * one of these. */
static int describe_network(why *w) {
  boxlint_report *r = w->r;
  const char *where = w->where, *q = w->q;
  switch (w->pe->code) {
  case BOXLINT__PD_IPV6:
    w->msg = boxlint__rprintf(r, "%s: '%s' is not a valid IPv6 address", where, q);
    break;
  case BOXLINT__PD_PSYNTAX: prefix_syntax(w); break;
  case BOXLINT__PD_PRANGE:
    w->msg = boxlint__rprintf(r, "%s: '%s' has a prefix length greater than %u", where, q,
                              memchr(w->raw, ':', w->n) ? 128u : 32u);
    break;
  case BOXLINT__PD_HOSTBITS: host_bits(w); break;
  case BOXLINT__PD_UNSPEC:
    w->msg = boxlint__rprintf(r, "%s: '%s' is the unspecified address, which is no destination",
                              where, q);
    w->hint = "write ALL_TRAFFIC (or 0.0.0.0/0) for all traffic";
    break;
  case BOXLINT__PD_MAPPED:
    w->msg = boxlint__rprintf(r, "%s: '%s' is an IPv4-mapped IPv6 prefix of /96 or shorter",
                              where, q);
    w->hint = "write the IPv4 network instead (ALL_TRAFFIC for every address)";
    break;
  default: return 0;
  }
  return 1;
}

/* Labels, lengths and wildcards of a host name. 0 when the detail is not about them. */
static int describe_name(why *w) {
  boxlint_report *r = w->r;
  const char *where = w->where, *q = w->q, *raw = w->raw;
  size_t n = w->n;
  switch (w->pe->code) {
  case BOXLINT__PD_EMPTY_LABEL:
    w->msg = boxlint__rprintf(r, "%s: '%s' has an empty label", where, q);
    break;
  case BOXLINT__PD_LABEL_LONG:
    w->msg = boxlint__rprintf(r, "%s: '%s' has a label longer than 63 characters", where, q);
    break;
  case BOXLINT__PD_NAME_LONG:
    w->msg = boxlint__rprintf(r, "%s: '%s' is longer than a host name can be (253 characters)",
                              where, q);
    break;
  case BOXLINT__PD_LABEL_SYNTAX:
    if (n == 12 && raw[11] == '.' && boxlint__ieq(raw, 11, "all_traffic")) {
      w->msg = boxlint__rprintf(r, "%s: '%s' is ALL_TRAFFIC with a trailing dot, not a host name",
                                where, q);
      w->hint = "write ALL_TRAFFIC for all traffic";
    } else {
      w->msg = boxlint__rprintf(r,
                                "%s: '%s' is not a valid host name: labels take letters, digits, "
                                "'-' and '_', and do not start or end with '-'",
                                where, q);
    }
    break;
  case BOXLINT__PD_NUM_TLD:
    w->msg = boxlint__rprintf(r,
                              "%s: '%s' is not an IPv4 address and not a host name: its last "
                              "label is numeric",
                              where, q);
    break;
  case BOXLINT__PD_WILDPOS:
    w->msg = boxlint__rprintf(r,
                              "%s: '%s' has '*' in the wrong place; a wildcard is '*.' followed "
                              "by a domain, or '*' alone",
                              where, q);
    if (n > 3 && raw[0] == '*' && raw[1] == '*' && raw[2] == '.')
      w->hint = boxlint__rprintf(r, "'%.*s' already matches subdomains at any depth",
                                 (int)(n - 1), raw + 1);
    break;
  case BOXLINT__PD_LEADDOT:
    w->msg = boxlint__rprintf(r, "%s: '%s' starts with a dot", where, q);
    if (n > 1)
      w->hint = boxlint__rprintf(r, "list '%.*s' and/or '*%.*s'", (int)(n - 1), raw + 1, (int)n,
                                 raw);
    break;
  default: return 0;
  }
  return 1;
}

void boxlint__policy_describe(boxlint_report *r, boxlint_diag *d, const char *raw, size_t n,
                              const boxlint__entry *pe, const char *where, size_t index) {
  why w;
  w.r = r;
  w.d = d;
  w.raw = raw;
  w.n = n;
  w.q = boxlint__policy_quote(r, raw, n, 80);
  w.where = where;
  w.pe = pe;
  w.index = index;
  w.msg = w.hint = NULL;
  d->detail = pe->e.detail;
  if (!describe_form(&w) && !describe_ipv4(&w) && !describe_network(&w) && !describe_name(&w))
    w.msg = boxlint__rprintf(r, "%s: '%s' is not a valid entry", where, w.q);
  if (w.msg) d->message = w.msg;
  d->hint = w.hint;
}

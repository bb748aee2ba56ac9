/* NetworkPolicy tests: entries, policy validation, warnings, E2B mode, decisions, boundaries,
 * limits, allocation failure, and a randomised differential test of the compiled engine against
 * the linear reference (seed printed; BOXLINT_SEED replays one). */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "boxlint/boxlint.h"
#include "failing_alloc.h"
#include "policy/policy_int.h"

Suite *policy_suite(void);

/*==============================================================================================
 * MARK: Fixture
 *============================================================================================*/

#define MAXN 2100

static boxlint_report *R;
static boxlint_policy *P;
static boxlint_span allow_sp[MAXN], deny_sp[MAXN];

static void setup(void) {
  ck_assert_int_eq(boxlint_report_new(&R, NULL), BOXLINT_OK);
  P = NULL;
}

static void teardown(void) {
  boxlint_policy_free(P);
  P = NULL;
  boxlint_report_free(R);
  R = NULL;
}

static size_t fill(boxlint_span *sp, const char *const *v) {
  size_t n = 0;
  for (; v && v[n]; n++) {
    sp[n].ptr = v[n];
    sp[n].len = strlen(v[n]);
  }
  return n;
}

/* Compile into P (freeing the previous one); the report is cleared first. */
static boxlint_status compile_opts(const char *type, const char *const *allow,
                                   const char *const *deny, const boxlint_policy_options *o) {
  boxlint_policy_free(P);
  P = NULL;
  boxlint_report_clear(R);
  boxlint_policy_spec sp;
  memset(&sp, 0, sizeof sp);
  if (type) {
    sp.type.ptr = type;
    sp.type.len = strlen(type);
  }
  sp.n_allow = fill(allow_sp, allow);
  sp.allow_out = allow_sp;
  sp.n_deny = fill(deny_sp, deny);
  sp.deny_out = deny_sp;
  return boxlint_policy_new(&P, R, &sp, o, NULL);
}

static boxlint_status compile(const char *type, const char *const *allow,
                              const char *const *deny) {
  return compile_opts(type, allow, deny, NULL);
}

static boxlint_status compile_mode(const char *type, const char *const *allow,
                                   const char *const *deny, unsigned compat,
                                   boxlint_policy_unmatched unmatched) {
  boxlint_policy_options o;
  boxlint_policy_options_init(&o);
  o.compat = compat;
  o.unmatched = unmatched;
  return compile_opts(type, allow, deny, &o);
}

static size_t count_rule(const char *rule) {
  size_t k = 0;
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++)
    k += !strcmp(boxlint_report_diag(R, i)->rule, rule);
  return k;
}

static const boxlint_diag *find(const char *rule, const char *path) {
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    if (!strcmp(d->rule, rule) && (!path || (d->path && !strcmp(d->path, path)))) return d;
  }
  return NULL;
}

static const boxlint_diag *need(const char *rule, const char *path) {
  const boxlint_diag *d = find(rule, path);
  if (!d) {
    for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
      const boxlint_diag *x = boxlint_report_diag(R, i);
      fprintf(stderr, "  have %s %s: %s\n", x->rule, x->path ? x->path : "-", x->message);
    }
  }
  ck_assert_msg(d != NULL, "no %s at %s", rule, path ? path : "(any)");
  return d;
}

static boxlint_decision dec(const char *host, const char *ip) {
  boxlint_decision d;
  ck_assert_ptr_nonnull(P);
  ck_assert_int_eq(boxlint_policy_decide(&d, P, host, host ? strlen(host) : 0, ip,
                                         ip ? strlen(ip) : 0),
                   BOXLINT_OK);
  return d;
}

#define L_ALLOW BOXLINT_LIST_ALLOW_OUT
#define L_DENY BOXLINT_LIST_DENY_OUT
#define L_NONE BOXLINT_LIST_NONE

/* Assert a decision: verdict, reason, list, index, entry text (NULL: none). */
static void expect(const char *host, const char *ip, const char *verdict, const char *reason,
                   boxlint_policy_list list, int index, const char *entry) {
  boxlint_decision d = dec(host, ip);
  ck_assert_msg(!strcmp(boxlint_verdict_str(d.verdict), verdict) &&
                    !strcmp(boxlint_decision_reason_str(d.reason), reason) && d.list == list &&
                    d.index == index,
                "host=%s ip=%s: got %s/%s list %d index %d entry %s; want %s/%s list %d index %d",
                host ? host : "-", ip ? ip : "-", boxlint_verdict_str(d.verdict),
                boxlint_decision_reason_str(d.reason), (int)d.list, (int)d.index,
                d.entry.ptr ? d.entry.ptr : "-", verdict, reason, (int)list, index);
  if (entry) {
    ck_assert_ptr_nonnull(d.entry.ptr);
    ck_assert_str_eq(d.entry.ptr, entry);
    ck_assert_uint_eq(d.entry.len, strlen(entry));
  } else {
    ck_assert_ptr_null(d.entry.ptr);
  }
  /* The reference must agree on every case checked by hand, too. */
  boxlint_decision r;
  ck_assert_int_eq(boxlint__policy_decide_linear(&r, P, host, host ? strlen(host) : 0, ip,
                                                 ip ? strlen(ip) : 0),
                   BOXLINT_OK);
  ck_assert_int_eq(r.verdict, d.verdict);
  ck_assert_int_eq(r.reason, d.reason);
  ck_assert_int_eq(r.index, d.index);
  ck_assert_int_eq(r.list, d.list);
}

/* Parse one entry with the public function. */
static boxlint_policy_entry parse(const char *s) {
  boxlint_policy_entry e;
  boxlint_status st = boxlint_policy_entry_parse(&e, s, strlen(s));
  ck_assert_int_eq(st, e.detail ? BOXLINT_ESYNTAX : BOXLINT_OK);
  return e;
}

static void valid(const char *in, boxlint_policy_entry_kind kind, const char *text) {
  boxlint_policy_entry e = parse(in);
  ck_assert_msg(e.detail == NULL, "'%s' rejected: %s", in, e.detail ? e.detail : "");
  ck_assert_msg(e.kind == kind, "'%s': kind %d, want %d", in, (int)e.kind, (int)kind);
  ck_assert_str_eq(e.text, text);
  ck_assert_uint_eq(e.text_len, strlen(text));
}

static void invalid(const char *in, const char *detail) {
  boxlint_policy_entry e = parse(in);
  ck_assert_msg(e.detail && !strcmp(e.detail, detail), "'%s': detail %s, want %s", in,
                e.detail ? e.detail : "(valid)", detail);
  ck_assert_int_eq(e.kind, BOXLINT_ENTRY_INVALID);
  ck_assert_str_eq(e.text, "");
}

/*==============================================================================================
 * MARK: Entries
 *============================================================================================*/

START_TEST(test_policy_entry_normalise) {
  valid("ALL_TRAFFIC", BOXLINT_ENTRY_ALL_TRAFFIC, "0.0.0.0/0");
  valid("all_traffic", BOXLINT_ENTRY_ALL_TRAFFIC, "0.0.0.0/0");
  valid("All_Traffic", BOXLINT_ENTRY_ALL_TRAFFIC, "0.0.0.0/0");
  valid("0.0.0.0/0", BOXLINT_ENTRY_ALL_TRAFFIC, "0.0.0.0/0");
  valid("::/0", BOXLINT_ENTRY_CIDR, "::/0");
  valid("8.8.8.8", BOXLINT_ENTRY_ADDRESS, "8.8.8.8");
  valid("10.0.0.0/8", BOXLINT_ENTRY_CIDR, "10.0.0.0/8");
  valid("1.2.3.4/32", BOXLINT_ENTRY_CIDR, "1.2.3.4/32");
  valid("0.0.0.0/8", BOXLINT_ENTRY_CIDR, "0.0.0.0/8");
  valid("PyPI.org", BOXLINT_ENTRY_DOMAIN, "pypi.org");
  valid("pypi.org.", BOXLINT_ENTRY_DOMAIN, "pypi.org");
  valid("localhost", BOXLINT_ENTRY_DOMAIN, "localhost");
  valid("_dmarc.example.com", BOXLINT_ENTRY_DOMAIN, "_dmarc.example.com");
  valid("xn--bcher-kva.example", BOXLINT_ENTRY_DOMAIN, "xn--bcher-kva.example");
  valid("1e3", BOXLINT_ENTRY_DOMAIN, "1e3");
  valid("*.Example.COM.", BOXLINT_ENTRY_WILDCARD, "*.example.com");
  valid("*.com", BOXLINT_ENTRY_WILDCARD, "*.com");
  valid("*", BOXLINT_ENTRY_ANY_HOST, "*");
  /* IPv6: RFC 5952 text */
  valid("2001:DB8:0:0:1:0:0:1", BOXLINT_ENTRY_ADDRESS, "2001:db8::1:0:0:1");
  valid("2001:0db8::0001", BOXLINT_ENTRY_ADDRESS, "2001:db8::1");
  valid("1:0:0:1:0:0:0:1", BOXLINT_ENTRY_ADDRESS, "1:0:0:1::1");
  valid("2001:db8:0:1:1:1:1:1", BOXLINT_ENTRY_ADDRESS, "2001:db8:0:1:1:1:1:1");
  valid("0:0:1::", BOXLINT_ENTRY_ADDRESS, "0:0:1::");
  valid("::1", BOXLINT_ENTRY_ADDRESS, "::1");
  valid("1::", BOXLINT_ENTRY_ADDRESS, "1::");
  valid("2001:db8::/32", BOXLINT_ENTRY_CIDR, "2001:db8::/32");
  valid("1:2:3:4:5:6:7:8", BOXLINT_ENTRY_ADDRESS, "1:2:3:4:5:6:7:8");
  valid("1:2:3:4:5:6:1.2.3.4", BOXLINT_ENTRY_ADDRESS, "1:2:3:4:5:6:102:304");
  /* IPv4-mapped is unmapped; NAT64 and IPv4-compatible forms are not. */
  boxlint_policy_entry e = parse("::ffff:1.2.3.4");
  ck_assert_int_eq(e.kind, BOXLINT_ENTRY_ADDRESS);
  ck_assert_str_eq(e.text, "1.2.3.4");
  ck_assert_int_eq(e.mapped, 1);
  ck_assert_int_eq(e.family, 4);
  valid("::FFFF:0102:0304", BOXLINT_ENTRY_ADDRESS, "1.2.3.4");
  valid("::ffff:1.2.3.0/120", BOXLINT_ENTRY_CIDR, "1.2.3.0/24");
  valid("::ffff:1.2.3.4/128", BOXLINT_ENTRY_CIDR, "1.2.3.4/32");
  valid("64:ff9b::1.2.3.4", BOXLINT_ENTRY_ADDRESS, "64:ff9b::102:304");
  valid("::1.2.3.4", BOXLINT_ENTRY_ADDRESS, "::102:304");
  e = parse("2001:db8::/32");
  ck_assert_int_eq(e.family, 6);
  ck_assert_uint_eq(e.prefix_len, 32);
  ck_assert_int_eq(e.mapped, 0);
}
END_TEST

START_TEST(test_policy_entry_every_detail) {
  invalid("", "empty");
  char big[300];
  memset(big, 'a', sizeof big);
  big[256] = 0;
  invalid(big, "too-long");
  invalid("b\xc3\xbc" "cher.de", "non-ascii");
  invalid("\xe2\x84\xaa" "ubernetes.io", "non-ascii"); /* KELVIN SIGN folds to 'k' elsewhere */
  invalid(" 8.8.8.8", "whitespace");
  invalid("8.8.8.8 ", "whitespace");
  invalid("pypi.org\t", "whitespace");
  invalid("a\x7f", "whitespace");
  invalid("https://pypi.org", "url");
  invalid("https://pypi.org/simple", "url");
  invalid("user@pypi.org", "userinfo");
  invalid("[::1]", "brackets");
  invalid("[::1]:443", "brackets");
  invalid("fe80::1%eth0", "zone");
  invalid("fe80::1%eth0/64", "zone");
  invalid("pypi.org/simple", "path");
  invalid("/8", "path");
  invalid("pypi.org:443", "port");
  invalid("1.2.3.4:443", "port");
  invalid("1::2::3", "ipv6-syntax");
  invalid("1:2:3:4:5:6:7:8:9", "ipv6-syntax");
  invalid("12345::", "ipv6-syntax");
  invalid(":1::", "ipv6-syntax");
  invalid("1:2:3:4:5:6:7:", "ipv6-syntax");
  invalid("1:2:3:4:5:6:7", "ipv6-syntax");
  invalid("::g", "ipv6-syntax");
  invalid("pypi.org:https", "ipv6-syntax");
  invalid("01.2.3.4", "ipv4-leading-zero");
  invalid("010.0.0.1", "ipv4-leading-zero");
  invalid("127.1", "ipv4-shorthand");
  invalid("2130706433", "ipv4-shorthand");
  invalid("0x7f.0.0.1", "ipv4-nondecimal");
  invalid("0x7f000001", "ipv4-nondecimal");
  invalid("1.2.3.256", "ipv4-range");
  invalid("1.2.3.1000", "ipv4-range");
  invalid("1.2.3.4.", "ipv4-trailing-dot");
  invalid("1.2.3.4/08", "prefix-syntax");
  invalid("1.2.3.4/+8", "prefix-syntax");
  invalid("1.2.3.4/", "prefix-syntax");
  invalid("10.0.0.0/255.0.0.0", "prefix-syntax");
  invalid("2001:db8::/032", "prefix-syntax");
  invalid("1.2.3.4/33", "prefix-range");
  invalid("::/129", "prefix-range");
  invalid("1.2.3.4/99999999999", "prefix-range");
  invalid("10.0.0.1/8", "host-bits");
  invalid("2001:db8::1/32", "host-bits");
  invalid("::ffff:1.2.3.4/120", "host-bits");
  invalid("0.0.0.0", "unspecified");
  invalid("0.0.0.0/32", "unspecified");
  invalid("::", "unspecified");
  invalid("::/128", "unspecified");
  invalid("::ffff:0.0.0.0", "unspecified");
  invalid("::ffff:1.2.3.0/24", "mapped-prefix");
  invalid("::ffff:0:0/96", "mapped-prefix");
  invalid("a..b", "empty-label");
  invalid("example.com..", "empty-label");
  invalid("*.", "empty-label");
  char lab[80];
  memset(lab, 'a', 64);
  memcpy(lab + 64, ".com", 5);
  invalid(lab, "label-too-long");
  char name[260];
  for (int i = 0; i < 254; i++) name[i] = (i % 2) ? '.' : 'a'; /* a.a.a....a: 253 + 1 */
  name[253] = 'a';
  name[254] = 0;
  invalid(name, "name-too-long");
  name[253] = 0; /* 253 bytes: fits */
  ck_assert_ptr_null(parse(name).detail);
  invalid("exa$mple.com", "label-syntax");
  invalid("-a.com", "label-syntax");
  invalid("a-.com", "label-syntax");
  invalid("example.123", "numeric-tld");
  invalid("example.0x1f", "numeric-tld");
  invalid("1.2.3.4.5", "numeric-tld");
  invalid("*.1.2.3.4", "numeric-tld");
  invalid("*.*.com", "wildcard-position");
  invalid("**.example.com", "wildcard-position");
  invalid("a.*.com", "wildcard-position");
  invalid("api*.example.com", "wildcard-position");
  invalid("example.*", "wildcard-position");
  invalid("**", "wildcard-position");
  invalid(".example.com", "leading-dot");
}
END_TEST

START_TEST(test_policy_entry_lengths) {
  /* 255 bytes is the most an entry may have; a 253-byte name plus its final dot fits. */
  char s[300];
  for (int i = 0; i < 253; i++) s[i] = (i % 2) ? '.' : 'b';
  s[253] = '.';
  s[254] = 0;
  boxlint_policy_entry e = parse(s);
  ck_assert_ptr_null(e.detail);
  ck_assert_uint_eq(e.text_len, 253);
  /* A wildcard's suffix is at most 251 bytes, so that some a.<suffix> fits in 253. */
  size_t k = 0;
  s[k++] = '*';
  s[k++] = '.';
  for (int i = 0; i < 125; i++) {
    s[k++] = 'c';
    s[k++] = '.';
  }
  s[k++] = 'c';
  s[k] = 0; /* "*." + 251 */
  ck_assert_uint_eq(strlen(s), 253);
  ck_assert_ptr_null(parse(s).detail);
  s[k++] = 'c';
  s[k] = 0; /* "*." + 252 */
  invalid(s, "name-too-long");
  /* Entries are spans: the NUL is data (whitespace/control), not a terminator. */
  boxlint_policy_entry n;
  ck_assert_int_eq(boxlint_policy_entry_parse(&n, "a.com\0x", 7), BOXLINT_ESYNTAX);
  ck_assert_str_eq(n.detail, "whitespace");
  ck_assert_int_eq(boxlint_policy_entry_parse(&n, "a.comXYZ", 5), BOXLINT_OK);
  ck_assert_str_eq(n.text, "a.com");
  ck_assert_int_eq(boxlint_policy_entry_parse(NULL, "a", 1), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_policy_entry_parse(&n, NULL, 1), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_policy_entry_parse(&n, NULL, 0), BOXLINT_ESYNTAX);
  ck_assert_str_eq(n.detail, "empty");
}
END_TEST

/* Messages name the list and index and quote the entry; hints where certain. */
START_TEST(test_policy_entry_messages) {
  const char *allow[] = {"pypi.org", "example.com", "10.0.0.1/8", NULL};
  const char *deny[] = {"ALL_TRAFFIC", "pypi.org:443", "010.0.0.1", "127.1", "1.2.3.4.",
                        "**.example.com", ".example.com", " 8.8.8.8", "https://user@pypi.org/x",
                        "10.0.0.0/255.0.0.0", "2001:db8::1/32", NULL};
  ck_assert_int_eq(compile("filtered", allow, deny), BOXLINT_ESYNTAX);
  ck_assert_ptr_null(P);
  ck_assert_uint_eq(count_rule("invalid-policy-entry"), 11);

  const boxlint_diag *d = need("invalid-policy-entry", "network_policy.allow_out[2]");
  ck_assert_str_eq(d->detail, "host-bits");
  ck_assert_int_eq(d->severity, BOXLINT_SEVERITY_ERROR);
  ck_assert_int_eq(d->command, -1);
  ck_assert_str_eq(d->message, "allow_out[2]: '10.0.0.1/8' has host bits set beyond the /8 prefix");
  ck_assert_str_eq(d->hint, "did you mean 10.0.0.0/8 (the network) or 10.0.0.1/32 (the host)?");

  d = need("invalid-policy-entry", "network_policy.deny_out[1]");
  ck_assert_str_eq(d->detail, "port");
  ck_assert_str_eq(d->message,
                   "deny_out[1]: 'pypi.org:443' has a port; ports are not allowed, give only the "
                   "host");
  ck_assert_str_eq(d->hint, "did you mean 'pypi.org'?");

  d = need("invalid-policy-entry", "network_policy.deny_out[2]");
  ck_assert_str_eq(d->detail, "ipv4-leading-zero");
  ck_assert_str_eq(d->hint, "glibc reads it as 8.0.0.1; write 8.0.0.1 or 10.0.0.1, whichever is "
                            "meant");
  d = need("invalid-policy-entry", "network_policy.deny_out[3]");
  ck_assert_str_eq(d->detail, "ipv4-shorthand");
  ck_assert_str_eq(d->message, "deny_out[3]: '127.1' is a shorthand IPv4 address; write all four "
                               "parts in decimal");
  ck_assert_str_eq(d->hint, "inet_aton and getaddrinfo read it as 127.0.0.1; write '127.0.0.1' "
                            "if that is meant");
  d = need("invalid-policy-entry", "network_policy.deny_out[4]");
  ck_assert_str_eq(d->detail, "ipv4-trailing-dot");
  ck_assert_str_eq(d->hint, "did you mean '1.2.3.4'?");
  d = need("invalid-policy-entry", "network_policy.deny_out[5]");
  ck_assert_str_eq(d->detail, "wildcard-position");
  ck_assert_str_eq(d->hint, "'*.example.com' already matches subdomains at any depth");
  d = need("invalid-policy-entry", "network_policy.deny_out[6]");
  ck_assert_str_eq(d->detail, "leading-dot");
  ck_assert_str_eq(d->message, "deny_out[6]: '.example.com' starts with a dot");
  ck_assert_str_eq(d->hint, "list 'example.com' and/or '*.example.com'");
  d = need("invalid-policy-entry", "network_policy.deny_out[7]");
  ck_assert_str_eq(d->detail, "whitespace");
  ck_assert_str_eq(d->hint, "entries are never trimmed; did you mean '8.8.8.8'?");
  d = need("invalid-policy-entry", "network_policy.deny_out[8]");
  ck_assert_str_eq(d->detail, "url");
  ck_assert_str_eq(d->hint, "did you mean 'pypi.org'?");
  d = need("invalid-policy-entry", "network_policy.deny_out[9]");
  ck_assert_str_eq(d->detail, "prefix-syntax");
  ck_assert_str_eq(d->hint, "netmasks are not accepted; did you mean '10.0.0.0/8'?");
  d = need("invalid-policy-entry", "network_policy.deny_out[10]");
  ck_assert_str_eq(d->hint,
                   "did you mean 2001:db8::/32 (the network) or 2001:db8::1/128 (the host)?");
  /* Valid entries get no error. */
  ck_assert_ptr_null(find("invalid-policy-entry", "network_policy.allow_out[0]"));
  ck_assert_ptr_null(find("invalid-policy-entry", "network_policy.deny_out[0]"));
}
END_TEST

START_TEST(test_policy_entry_message_quoting) {
  const char *allow[] = {"a\nb.com", NULL};
  ck_assert_int_eq(compile("filtered", allow, NULL), BOXLINT_ESYNTAX);
  const boxlint_diag *d = need("invalid-policy-entry", "network_policy.allow_out[0]");
  ck_assert_str_eq(d->message, "allow_out[0]: 'a\\nb.com' contains whitespace or a control "
                               "character");
  /* path prefix option */
  boxlint_policy_options o;
  boxlint_policy_options_init(&o);
  o.path_prefix.ptr = "";
  ck_assert_int_eq(compile_opts("filtered", allow, NULL, &o), BOXLINT_ESYNTAX);
  need("invalid-policy-entry", "allow_out[0]");
  o.path_prefix.ptr = "bindings[3].network_policy";
  o.path_prefix.len = strlen(o.path_prefix.ptr);
  ck_assert_int_eq(compile_opts("filtered", allow, NULL, &o), BOXLINT_ESYNTAX);
  need("invalid-policy-entry", "bindings[3].network_policy.allow_out[0]");
}
END_TEST

/*---------------------------------------------------------- internationalised names ----*/

/* The invalid-policy-entry of `entry` (`len` bytes) as allow_out[0], with ALL_TRAFFIC denied:
 * the only finding, detail non-ascii, a field finding (no command, no line). */
static const boxlint_diag *idn_diag(const char *entry, size_t len) {
  boxlint_policy_free(P);
  P = NULL;
  boxlint_report_clear(R);
  boxlint_span a = {entry, len}, dn = {"ALL_TRAFFIC", 11};
  boxlint_policy_spec sp;
  memset(&sp, 0, sizeof sp);
  sp.type.ptr = "filtered";
  sp.type.len = 8;
  sp.allow_out = &a;
  sp.n_allow = 1;
  sp.deny_out = &dn;
  sp.n_deny = 1;
  ck_assert_int_eq(boxlint_policy_new(&P, R, &sp, NULL, NULL), BOXLINT_ESYNTAX);
  ck_assert_ptr_null(P);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
  const boxlint_diag *d = need("invalid-policy-entry", "network_policy.allow_out[0]");
  ck_assert_str_eq(d->detail, "non-ascii");
  ck_assert_int_eq(d->severity, BOXLINT_SEVERITY_ERROR);
  ck_assert_int_eq(d->command, -1);
  ck_assert_uint_eq(d->line, 0);
  return d;
}

/* An entry with an A-label: the message and hint name it, the fix replaces allow_out[0] with it
 * (list-relative: offset 0, length 1), the position is the first non-ASCII character
 * [off, end) of the entry, and the A-label, written as suggested, is a valid entry. */
static void expect_alabel(const char *entry, const char *alabel, size_t off, size_t end) {
  const boxlint_diag *d = idn_diag(entry, strlen(entry));
  char want[512];
  snprintf(want, sizeof want, "allow_out[0]: '%s' is not ASCII; its A-label is '%s'", entry,
           alabel);
  ck_assert_str_eq(d->message, want);
  snprintf(want, sizeof want,
           "write '%s', the name browsers look up (IDNA2008, UTS #46 non-transitional); entries "
           "are never converted silently",
           alabel);
  ck_assert_str_eq(d->hint, want);
  ck_assert_ptr_nonnull(d->fix);
  ck_assert_uint_eq(d->fix->offset, 0);
  ck_assert_uint_eq(d->fix->length, 1);
  ck_assert_str_eq(d->fix->text, alabel);
  ck_assert_uint_eq(d->fix->text_len, strlen(alabel));
  snprintf(want, sizeof want, "replace network_policy.allow_out[0] with \"%s\"", alabel);
  ck_assert_str_eq(d->fix->description, want);
  ck_assert_int_eq(d->fix->safety, BOXLINT_FIX_SAFE); /* the name browsers look up: the same */
  ck_assert_uint_eq(d->offset, off);
  ck_assert_uint_eq(d->end_offset, end);
  boxlint_policy_entry e = parse(alabel);
  ck_assert_ptr_null(e.detail);
}

/* An entry without a valid A-label: the message says why; no hint, no fix. */
static void expect_no_alabel(const char *entry, size_t len, const char *message) {
  const boxlint_diag *d = idn_diag(entry, len);
  ck_assert_str_eq(d->message, message);
  ck_assert_ptr_null(d->hint);
  ck_assert_ptr_null(d->fix);
}

START_TEST(test_policy_entry_idn_alabel) {
  expect_alabel("b\u00fccher.de", "xn--bcher-kva.de", 1, 3);
  expect_alabel("*.b\u00fccher.de", "*.xn--bcher-kva.de", 3, 5);
  /* UTS #46 mapping: upper case, full-width forms, the ideographic full stop (U+3002). */
  expect_alabel("B\u00dcCHER.DE", "xn--bcher-kva.de", 1, 3);
  expect_alabel("\uff50\uff59\uff50\uff49\uff0e\uff4f\uff52\uff47", "pypi.org", 0, 3);
  expect_alabel("b\u00fccher\u3002de", "xn--bcher-kva.de", 1, 3);
  /* Non-transitional: sharp s stays (transitional processing would give "fass.de"). */
  expect_alabel("fa\u00df.de", "xn--fa-hia.de", 2, 4);
  expect_alabel("\u00df.de", "xn--zca.de", 0, 2);
  /* A trailing dot is kept, as written. */
  expect_alabel("*.B\u00dcCHER.de.", "*.xn--bcher-kva.de.", 3, 5);

  /* In deny_out, at another index: the fix names that list and index. */
  const char *allow[] = {"pypi.org", NULL};
  const char *deny[] = {"ALL_TRAFFIC", "*.b\u00fccher.de", NULL};
  ck_assert_int_eq(compile("filtered", allow, deny), BOXLINT_ESYNTAX);
  const boxlint_diag *d = need("invalid-policy-entry", "network_policy.deny_out[1]");
  ck_assert_str_eq(d->message,
                   "deny_out[1]: '*.b\u00fccher.de' is not ASCII; its A-label is "
                   "'*.xn--bcher-kva.de'");
  ck_assert_ptr_nonnull(d->fix);
  ck_assert_uint_eq(d->fix->offset, 1);
  ck_assert_uint_eq(d->fix->length, 1);
  ck_assert_str_eq(d->fix->text, "*.xn--bcher-kva.de");
  ck_assert_str_eq(d->fix->description,
                   "replace network_policy.deny_out[1] with \"*.xn--bcher-kva.de\"");
  /* ... and the path prefix the options give. */
  boxlint_policy_options o;
  boxlint_policy_options_init(&o);
  o.path_prefix.ptr = "";
  ck_assert_int_eq(compile_opts("filtered", allow, deny, &o), BOXLINT_ESYNTAX);
  d = need("invalid-policy-entry", "deny_out[1]");
  ck_assert_str_eq(d->fix->description, "replace deny_out[1] with \"*.xn--bcher-kva.de\"");

  /* Still refused: the parser never converts (strict, no silent fix-up). */
  invalid("b\u00fccher.de", "non-ascii");
  invalid("\uff50\uff59\uff50\uff49\uff0e\uff4f\uff52\uff47", "non-ascii");
}
END_TEST

/* The first `cps` code points of s, then "...": boxlint__quote's rendering of a long entry. */
static const char *cut_cps(char *buf, const char *s, size_t cps) {
  size_t i = 0, k = 0;
  for (; s[i]; i++) {
    if (((unsigned char)s[i] & 0xC0) != 0x80 && k++ == cps) break;
  }
  snprintf(buf, 512, "%.*s%s", (int)i, s, s[i] ? "..." : "");
  return buf;
}

START_TEST(test_policy_entry_idn_refused) {
  /* libidn2 refuses: disallowed code points (a symbol, an emoji), the bidi rule. */
  expect_no_alabel("\u2603.net", 7,
                   "allow_out[0]: '\u2603.net' is not ASCII and has no valid A-label: it "
                   "contains a character that IDNA2008 does not allow in host names (a symbol, "
                   "an emoji, punctuation)");
  expect_no_alabel("\U0001F600.com", 8,
                   "allow_out[0]: '\U0001F600.com' is not ASCII and has no valid A-label: it "
                   "contains a character that IDNA2008 does not allow in host names (a symbol, "
                   "an emoji, punctuation)");
  expect_no_alabel("a\u05d0.com", 7,
                   "allow_out[0]: 'a\u05d0.com' is not ASCII and has no valid A-label: it "
                   "breaks the IDNA2008 bidi rule for right-to-left labels (RFC 5893)");
  /* Invalid UTF-8: the byte and its offset; the position is that byte. */
  const boxlint_diag *d;
  expect_no_alabel("b\xff" "cher.de", 9,
                   "allow_out[0]: 'b\\xffcher.de' is not ASCII and has no valid A-label: it is "
                   "not valid UTF-8 (byte 0xff at offset 1)");
  d = boxlint_report_diag(R, 0);
  ck_assert_uint_eq(d->offset, 1);
  ck_assert_uint_eq(d->end_offset, 2);
  expect_no_alabel("\u00fc.d\xc3", 5,
                   "allow_out[0]: '\u00fc.d\\xc3' is not ASCII and has no valid A-label: it is "
                   "not valid UTF-8 (byte 0xc3 at offset 4)");
  expect_no_alabel("\xc0\xaf.de", 5,
                   "allow_out[0]: '\\xc0\\xaf.de' is not ASCII and has no valid A-label: it is "
                   "not valid UTF-8 (byte 0xc0 at offset 0)");
}
END_TEST

START_TEST(test_policy_entry_idn_converted) {
  /* Too long once converted: a label over 63 characters, a name over 253. */
  char e[300], q[512], want[1024];
  snprintf(e, sizeof e, "b\u00fccher%.55s.de",
           "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
  ck_assert_uint_eq(strlen(e), 65); /* a label of 61 code points as written */
  snprintf(want, sizeof want,
           "allow_out[0]: '%s' is not ASCII and has no valid A-label: a label would be longer "
           "than 63 characters as an A-label",
           e);
  expect_no_alabel(e, strlen(e), want);
  size_t o = 0;
  for (int l = 0; l < 4; l++) {
    memcpy(e + o, "\u00fc", 2);
    memset(e + o + 2, 'a', 54);
    o += 56;
    e[o++] = '.';
  }
  memcpy(e + o, "de", 3); /* 230 bytes; each label's A-label is 62 characters, the name 254 */
  snprintf(want, sizeof want,
           "allow_out[0]: '%s' is not ASCII and has no valid A-label: its A-label would be "
           "longer than a host name can be (253 characters)",
           cut_cps(q, e, 80));
  expect_no_alabel(e, strlen(e), want);

  /* libidn2 converts, but boxlint refuses the result: it must pass boxlint's own checks. */
  expect_no_alabel("\u00fc.123", 6,
                   "allow_out[0]: '\u00fc.123' is not ASCII and has no valid A-label: it "
                   "converts to 'xn--tda.123', whose last label is numeric");
  expect_no_alabel("a..b\u00fc", 6,
                   "allow_out[0]: 'a..b\u00fc' is not ASCII and has no valid A-label: it "
                   "converts to 'a..xn--b-eha', which has an empty label");
  /* An address in full-width digits is an address, not a name: no A-label. */
  expect_no_alabel("\uff11\uff12\uff17\uff0e\uff10\uff0e\uff10\uff0e\uff11", 27,
                   "allow_out[0]: '\uff11\uff12\uff17\uff0e\uff10\uff0e\uff10\uff0e\uff11' is "
                   "not ASCII and has no valid A-label: it converts to '127.0.0.1', which is not "
                   "a host name");

  /* ASCII that no host name has: never handed to libidn2 (a NUL would cut its input short). */
  expect_no_alabel("b\u00fc\0cher.de", 11,
                   "allow_out[0]: 'b\u00fc\\x00cher.de' is not ASCII and has no valid A-label: "
                   "it also contains whitespace or a control character");
  expect_no_alabel("b\u00fc cher.de", 11,
                   "allow_out[0]: 'b\u00fc cher.de' is not ASCII and has no valid A-label: it "
                   "also contains whitespace or a control character");
  expect_no_alabel("\u00fc.de:443", 9,
                   "allow_out[0]: '\u00fc.de:443' is not ASCII and has no valid A-label: it also "
                   "contains ':', which no host name has");
  expect_no_alabel("b\u00fc*.de", 7,
                   "allow_out[0]: 'b\u00fc*.de' is not ASCII and has no valid A-label: it has "
                   "'*' in the wrong place; a wildcard is '*.' followed by a domain");
}
END_TEST

/* ASCII entries are untouched: valid ones (A-labels included) compile, invalid ones keep their
 * messages and get no A-label fix. */
START_TEST(test_policy_entry_idn_ascii) {
  const char *allow[] = {"pypi.org", "xn--bcher-kva.de", "*.xn--fa-hia.de", NULL};
  const char *deny[] = {"ALL_TRAFFIC", NULL};
  ck_assert_int_eq(compile("filtered", allow, deny), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
  expect("xn--bcher-kva.de", NULL, "allow", "rule", L_ALLOW, 1, "xn--bcher-kva.de");
  expect("www.xn--fa-hia.de", NULL, "allow", "rule", L_ALLOW, 2, "*.xn--fa-hia.de");
  const char *bad[] = {"a..b.de", NULL};
  ck_assert_int_eq(compile("filtered", bad, deny), BOXLINT_ESYNTAX);
  const boxlint_diag *d = need("invalid-policy-entry", "network_policy.allow_out[0]");
  ck_assert_str_eq(d->detail, "empty-label");
  ck_assert_str_eq(d->message, "allow_out[0]: 'a..b.de' has an empty label");
  ck_assert_ptr_null(d->hint);
  ck_assert_ptr_null(d->fix);
  ck_assert_uint_eq(d->offset, 0);
  ck_assert_uint_eq(d->end_offset, 0);
}
END_TEST


/*==============================================================================================
 * MARK: Policy
 *============================================================================================*/

START_TEST(test_policy_policy_type) {
  ck_assert_int_eq(compile(NULL, NULL, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_policy_get_type(P), BOXLINT_POLICY_DISABLED);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
  ck_assert_int_eq(compile("open", NULL, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_policy_get_type(P), BOXLINT_POLICY_OPEN);
  ck_assert_int_eq(compile("Filtered", NULL, NULL), BOXLINT_ESYNTAX);
  const boxlint_diag *d = need("invalid-policy-type", "network_policy.type");
  ck_assert_str_eq(d->message, "type 'Filtered' is not one of 'disabled', 'open' or 'filtered'");
  ck_assert_str_eq(d->hint, "did you mean 'filtered'? (types are lower-case)");
  ck_assert_int_eq(compile("", NULL, NULL), BOXLINT_ESYNTAX);
  need("invalid-policy-type", "network_policy.type");
  ck_assert_int_eq(compile("allowlist", NULL, NULL), BOXLINT_ESYNTAX);
  d = need("invalid-policy-type", "network_policy.type");
  ck_assert_ptr_nonnull(strstr(d->hint, "'filtered' applies allow_out and deny_out"));
  ck_assert_str_eq(boxlint_policy_type_str((boxlint_policy_type)7), "");
}
END_TEST

START_TEST(test_policy_policy_lists_not_allowed) {
  const char *allow[] = {"pypi.org", NULL};
  const char *deny[] = {"ALL_TRAFFIC", "1.2.3.4", NULL};
  ck_assert_int_eq(compile("disabled", allow, deny), BOXLINT_ESYNTAX);
  const boxlint_diag *d = need("lists-not-allowed", "network_policy.allow_out");
  ck_assert_str_eq(d->message, "allow_out has 1 entry, but type 'disabled' takes no lists");
  ck_assert_ptr_nonnull(strstr(d->hint, "type 'filtered'"));
  d = need("lists-not-allowed", "network_policy.deny_out");
  ck_assert_str_eq(d->message, "deny_out has 2 entries, but type 'disabled' takes no lists");
  ck_assert_int_eq(compile("open", allow, NULL), BOXLINT_ESYNTAX);
  need("lists-not-allowed", "network_policy.allow_out");
  ck_assert_ptr_null(find("lists-not-allowed", "network_policy.deny_out"));
  /* Absent type is disabled. */
  ck_assert_int_eq(compile(NULL, allow, NULL), BOXLINT_ESYNTAX);
  need("lists-not-allowed", "network_policy.allow_out");
  /* Entries are still validated. */
  const char *bad[] = {"pypi.org:443", NULL};
  ck_assert_int_eq(compile("open", bad, NULL), BOXLINT_ESYNTAX);
  need("invalid-policy-entry", "network_policy.allow_out[0]");
}
END_TEST

static const char **many(size_t n, int v6) {
  static char buf[MAXN][48];
  static const char *v[MAXN + 1];
  for (size_t i = 0; i < n; i++) {
    if (v6)
      snprintf(buf[i], sizeof buf[i], "2001:db8::%zx:0/112", i + 1);
    else
      snprintf(buf[i], sizeof buf[i], "10.%zu.%zu.0/24", i / 256, i % 256);
    v[i] = buf[i];
  }
  v[n] = NULL;
  return v;
}

START_TEST(test_policy_policy_limits) {
  static const char *names[MAXN + 1];
  static char nb[MAXN][32];
  for (size_t i = 0; i < 1025; i++) {
    snprintf(nb[i], sizeof nb[i], "h%zu.example.com", i);
    names[i] = nb[i];
  }
  names[1024] = NULL;
  /* 1024 entries in each list: accepted, and every one decides for itself. */
  ck_assert_int_eq(compile("filtered", names, many(1024, 0)), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_policy_entry_count(P, L_ALLOW), 1024);
  ck_assert_uint_eq(boxlint_policy_entry_count(P, L_DENY), 1024);
  ck_assert_uint_eq(count_rule("too-many-entries"), 0);
  expect("h1023.example.com", NULL, "allow", "rule", L_ALLOW, 1023, "h1023.example.com");
  expect("h0.example.com", "10.3.255.1", "allow", "rule", L_ALLOW, 0, "h0.example.com");
  expect(NULL, "10.3.255.1", "deny", "rule", L_DENY, 1023, "10.3.255.0/24");
  expect(NULL, "10.4.0.1", "allow", "default", L_NONE, -1, NULL);
  expect(NULL, "10.0.0.0", "deny", "rule", L_DENY, 0, "10.0.0.0/24");
  /* 1025 → too-many-entries, an error naming the list. */
  names[1024] = nb[1024];
  names[1025] = NULL;
  ck_assert_int_eq(compile("filtered", names, NULL), BOXLINT_ESYNTAX);
  const boxlint_diag *d = need("too-many-entries", "network_policy.allow_out");
  ck_assert_str_eq(d->message, "allow_out has 1025 entries; at most 1024 are allowed (entries "
                               "after allow_out[1023] were not checked)");
  ck_assert_int_eq(compile("filtered", NULL, many(1025, 1)), BOXLINT_ESYNTAX);
  need("too-many-entries", "network_policy.deny_out");
  /* Configurable. */
  boxlint_policy_options o;
  boxlint_policy_options_init(&o);
  ck_assert_uint_eq(o.max_entries, 1024);
  o.max_entries = 2000;
  ck_assert_int_eq(compile_opts("filtered", names, many(1025, 1), &o), BOXLINT_OK);
  o.max_entries = 3;
  const char *four[] = {"a.com", "b.com", "c.com", "d.com", NULL};
  ck_assert_int_eq(compile_opts("filtered", four, NULL, &o), BOXLINT_ESYNTAX);
  need("too-many-entries", "network_policy.allow_out");
  o.max_entries = BOXLINT_POLICY_HARD_MAX_ENTRIES + 1;
  ck_assert_int_eq(compile_opts("filtered", four, NULL, &o), BOXLINT_EINVAL);
}
END_TEST

START_TEST(test_policy_policy_api) {
  boxlint_policy *p = (boxlint_policy *)1;
  boxlint_policy_spec sp;
  memset(&sp, 0, sizeof sp);
  ck_assert_int_eq(boxlint_policy_new(NULL, R, &sp, NULL, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_policy_new(&p, R, NULL, NULL, NULL), BOXLINT_EINVAL);
  ck_assert_ptr_null(p);
  sp.n_allow = 1;
  ck_assert_int_eq(boxlint_policy_new(&p, R, &sp, NULL, NULL), BOXLINT_EINVAL);
  sp.n_allow = 0;
  boxlint_policy_options o;
  boxlint_policy_options_init(&o);
  o.unmatched = (boxlint_policy_unmatched)5;
  ck_assert_int_eq(boxlint_policy_new(&p, R, &sp, &o, NULL), BOXLINT_EINVAL);
  boxlint_policy_options_init(&o);
  o.compat = 8;
  ck_assert_int_eq(boxlint_policy_new(&p, R, &sp, &o, NULL), BOXLINT_EINVAL);
  /* NULL report: findings discarded, status kept. */
  const char *bad[] = {"1.2.3.4:80", NULL};
  sp.type.ptr = "filtered";
  sp.type.len = 8;
  sp.n_allow = fill(allow_sp, bad);
  sp.allow_out = allow_sp;
  ck_assert_int_eq(boxlint_policy_new(&p, NULL, &sp, NULL, NULL), BOXLINT_ESYNTAX);
  ck_assert_ptr_null(p);
  boxlint_policy_free(NULL);
  boxlint_policy_options_init(NULL);
  boxlint_decision d;
  ck_assert_int_eq(compile("open", NULL, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_policy_decide(&d, P, NULL, 0, NULL, 0), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_policy_decide(NULL, P, "a", 1, NULL, 0), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_policy_decide(&d, NULL, "a", 1, NULL, 0), BOXLINT_EINVAL);
  ck_assert_uint_eq(boxlint_policy_entry_count(NULL, L_ALLOW), 0);
  ck_assert_ptr_null(boxlint_policy_entry_text(P, L_ALLOW, 0).ptr);
  ck_assert_ptr_null(boxlint_policy_entry_text(P, L_NONE, 0).ptr);
  ck_assert_int_eq(boxlint_policy_get_type(NULL), BOXLINT_POLICY_DISABLED);
  /* Names. */
  ck_assert_str_eq(boxlint_verdict_str(BOXLINT_VERDICT_UNKNOWN), "unknown");
  ck_assert_str_eq(boxlint_decision_reason_str(BOXLINT_REASON_NEEDS_IP), "needs-ip");
  ck_assert_str_eq(boxlint_decision_reason_str(BOXLINT_REASON_INVALID_DESTINATION),
                   "invalid-destination");
  ck_assert_str_eq(boxlint_policy_list_str(L_DENY), "deny_out");
  ck_assert_ptr_null(boxlint_policy_list_str(L_NONE));
  ck_assert_str_eq(boxlint_policy_type_str(BOXLINT_POLICY_FILTERED), "filtered");
  /* Entry texts of a compiled policy. */
  const char *allow[] = {"PyPI.org.", "::ffff:8.8.8.8", NULL};
  const char *deny[] = {"all_traffic", NULL};
  ck_assert_int_eq(compile("filtered", allow, deny), BOXLINT_OK);
  ck_assert_str_eq(boxlint_policy_entry_text(P, L_ALLOW, 0).ptr, "pypi.org");
  ck_assert_str_eq(boxlint_policy_entry_text(P, L_ALLOW, 1).ptr, "8.8.8.8");
  ck_assert_str_eq(boxlint_policy_entry_text(P, L_DENY, 0).ptr, "0.0.0.0/0");
  /* A report's earlier diagnostics are kept; only new errors count. */
  boxlint_report_clear(R);
  ck_assert_int_eq(compile("nope", NULL, NULL), BOXLINT_ESYNTAX);
  boxlint_policy_spec ok;
  memset(&ok, 0, sizeof ok);
  boxlint_policy *q = NULL;
  ck_assert_int_eq(boxlint_policy_new(&q, R, &ok, NULL, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
  boxlint_policy_free(q);
}
END_TEST

START_TEST(test_policy_policy_rule_table) {
  static const struct {
    const char *id;
    boxlint_severity sev;
  } want[] = {{"invalid-policy-type", BOXLINT_SEVERITY_ERROR},
              {"invalid-policy-entry", BOXLINT_SEVERITY_ERROR},
              {"lists-not-allowed", BOXLINT_SEVERITY_ERROR},
              {"too-many-entries", BOXLINT_SEVERITY_ERROR},
              {"allow-without-effect", BOXLINT_SEVERITY_WARNING},
              {"deny-without-effect", BOXLINT_SEVERITY_WARNING},
              {"filtered-empty-is-open", BOXLINT_SEVERITY_WARNING},
              {"duplicate-entry", BOXLINT_SEVERITY_WARNING},
              {"shadowed-entry", BOXLINT_SEVERITY_WARNING},
              {"broad-wildcard", BOXLINT_SEVERITY_WARNING},
              {"any-host", BOXLINT_SEVERITY_WARNING},
              {"mapped-address", BOXLINT_SEVERITY_WARNING},
              {"domains-require-deny-all", BOXLINT_SEVERITY_ERROR},
              {"compat-deny-domain", BOXLINT_SEVERITY_ERROR},
              {"compat-ipv6", BOXLINT_SEVERITY_ERROR},
              {"unenforceable-entry", BOXLINT_SEVERITY_ERROR}};
  size_t n = 0;
  const boxlint_rule_info *t = boxlint__policy_rules(&n);
  ck_assert_uint_eq(n, sizeof want / sizeof want[0]);
  for (size_t i = 0; i < n; i++) {
    ck_assert_str_eq(t[i].id, want[i].id);
    ck_assert_int_eq(t[i].severity, want[i].sev);
    ck_assert(t[i].summary[0] && t[i].description[0] && t[i].bad[0] && t[i].good[0]);
  }
}
END_TEST

/*==============================================================================================
 * MARK: Warnings
 *============================================================================================*/

START_TEST(test_policy_warn_allow_without_effect) {
  /* The seed's own example: with deny_out empty, the allow entries change nothing. */
  const char *allow[] = {"pypi.org", "*.pythonhosted.org", NULL};
  ck_assert_int_eq(compile("filtered", allow, NULL), BOXLINT_OK);
  ck_assert_uint_eq(count_rule("allow-without-effect"), 2);
  const boxlint_diag *d = need("allow-without-effect", "network_policy.allow_out[0]");
  ck_assert_int_eq(d->severity, BOXLINT_SEVERITY_WARNING);
  ck_assert_str_eq(d->message, "allow_out[0]: 'pypi.org' has no effect: no deny_out entry "
                               "overlaps it, and destinations matched by neither list are "
                               "allowed");
  ck_assert_str_eq(d->hint, "to allow only what allow_out lists, add \"ALL_TRAFFIC\" to deny_out");
  ck_assert_ptr_nonnull(d->fix);
  ck_assert_str_eq(d->fix->text, "ALL_TRAFFIC");
  ck_assert_uint_eq(d->fix->offset, 0);
  ck_assert_uint_eq(d->fix->length, 0);
  ck_assert_str_eq(d->fix->description, "add \"ALL_TRAFFIC\" to network_policy.deny_out");
  /* unsafe: it turns the sandbox's egress from allow-all into deny-all but allow_out */
  ck_assert_int_eq(d->fix->safety, BOXLINT_FIX_UNSAFE);
  need("allow-without-effect", "network_policy.allow_out[1]");
  /* Fixed: no warning. */
  const char *deny[] = {"ALL_TRAFFIC", NULL};
  ck_assert_int_eq(compile("filtered", allow, deny), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
  /* Overlap is per entry: 10.1.0.0/16 overlaps a deny of 10.0.0.0/8; 192.168.0.0/16 does not. */
  const char *a2[] = {"10.1.0.0/16", "192.168.0.0/16", "2001:db8::/32", NULL};
  const char *d2[] = {"10.0.0.0/8", "2001:db8:1::1", NULL};
  ck_assert_int_eq(compile("filtered", a2, d2), BOXLINT_OK);
  ck_assert_uint_eq(count_rule("allow-without-effect"), 1);
  d = need("allow-without-effect", "network_policy.allow_out[1]");
  ck_assert_uint_eq(d->fix->offset, 2); /* appended after the two deny entries */
  /* A name may resolve into any network: a deny CIDR gives name entries an effect. */
  const char *a3[] = {"pypi.org", "a.example.com", NULL};
  const char *d3[] = {"151.101.0.0/16", NULL};
  ck_assert_int_eq(compile("filtered", a3, d3), BOXLINT_OK);
  ck_assert_uint_eq(count_rule("allow-without-effect"), 0);
  /* Name against name. */
  const char *a4[] = {"a.example.com", "*.example.com", "b.other.org", "*.other.org", NULL};
  const char *d4[] = {"*.example.com", "x.y.other.org", NULL};
  ck_assert_int_eq(compile("filtered", a4, d4), BOXLINT_OK);
  ck_assert_uint_eq(count_rule("allow-without-effect"), 1);
  need("allow-without-effect", "network_policy.allow_out[2]");
  /* Not under unmatched=deny, where every allow entry matters. */
  ck_assert_int_eq(compile_mode("filtered", allow, NULL, 0, BOXLINT_UNMATCHED_DENY), BOXLINT_OK);
  ck_assert_uint_eq(count_rule("allow-without-effect"), 0);
}
END_TEST

START_TEST(test_policy_warn_deny_without_effect) {
  const char *allow[] = {"10.0.0.0/8", "pypi.org", NULL};
  const char *deny[] = {"10.1.2.0/24", "192.168.0.0/16", NULL};
  /* Only under unmatched=deny. */
  ck_assert_int_eq(compile("filtered", allow, deny), BOXLINT_OK);
  ck_assert_uint_eq(count_rule("deny-without-effect"), 0);
  const char *allow2[] = {"10.0.0.0/8", NULL};
  ck_assert_int_eq(compile_mode("filtered", allow2, deny, 0, BOXLINT_UNMATCHED_DENY), BOXLINT_OK);
  ck_assert_uint_eq(count_rule("deny-without-effect"), 1);
  const boxlint_diag *d = need("deny-without-effect", "network_policy.deny_out[1]");
  ck_assert_str_eq(d->message, "deny_out[1]: '192.168.0.0/16' has no effect: no allow_out entry "
                               "overlaps it, and destinations matched by neither list are "
                               "denied");
  /* deny_out[0] is inside an allow entry: shadowed instead. */
  need("shadowed-entry", "network_policy.deny_out[0]");
  /* An allow name may resolve anywhere: with one, deny networks are not without effect. */
  ck_assert_int_eq(compile_mode("filtered", allow, deny, 0, BOXLINT_UNMATCHED_DENY), BOXLINT_OK);
  ck_assert_uint_eq(count_rule("deny-without-effect"), 0);
}
END_TEST

START_TEST(test_policy_warn_filtered_empty) {
  ck_assert_int_eq(compile("filtered", NULL, NULL), BOXLINT_OK);
  const boxlint_diag *d = need("filtered-empty-is-open", "network_policy");
  ck_assert_str_eq(d->message, "type is 'filtered' but allow_out and deny_out are empty: every "
                               "destination is allowed");
  ck_assert_int_eq(d->severity, BOXLINT_SEVERITY_WARNING);
  expect("example.com", NULL, "allow", "default", L_NONE, -1, NULL);
  /* Under unmatched=deny an empty filtered policy denies everything: no warning. */
  ck_assert_int_eq(compile_mode("filtered", NULL, NULL, 0, BOXLINT_UNMATCHED_DENY), BOXLINT_OK);
  ck_assert_uint_eq(count_rule("filtered-empty-is-open"), 0);
  expect("example.com", NULL, "deny", "default", L_NONE, -1, NULL);
}
END_TEST

START_TEST(test_policy_warn_duplicate) {
  const char *allow[] = {"pypi.org", "PyPI.org.", "1.2.3.4", "1.2.3.4/32", "::ffff:1.2.3.4",
                         "pypi.org", NULL};
  const char *deny[] = {"ALL_TRAFFIC", "0.0.0.0/0", NULL};
  ck_assert_int_eq(compile("filtered", allow, deny), BOXLINT_OK);
  ck_assert_uint_eq(count_rule("duplicate-entry"), 5);
  const boxlint_diag *d = need("duplicate-entry", "network_policy.allow_out[1]");
  ck_assert_str_eq(d->message, "allow_out[1]: 'PyPI.org.' repeats allow_out[0] ('pypi.org')");
  d = need("duplicate-entry", "network_policy.allow_out[5]");
  ck_assert_str_eq(d->message, "allow_out[5]: 'pypi.org' repeats allow_out[0] ('pypi.org')");
  d = need("duplicate-entry", "network_policy.allow_out[4]");
  ck_assert_str_eq(d->message, "allow_out[4]: '::ffff:1.2.3.4' repeats allow_out[2] ('1.2.3.4')");
  need("duplicate-entry", "network_policy.allow_out[3]");
  d = need("duplicate-entry", "network_policy.deny_out[1]");
  ck_assert_str_eq(d->message, "deny_out[1]: '0.0.0.0/0' repeats deny_out[0] ('0.0.0.0/0')");
  ck_assert_ptr_null(find("duplicate-entry", "network_policy.allow_out[0]"));
  /* The same entry in both lists is not a duplicate but a shadowed deny. */
  const char *a2[] = {"1.1.1.1", NULL};
  const char *d2[] = {"1.1.1.1", NULL};
  ck_assert_int_eq(compile("filtered", a2, d2), BOXLINT_OK);
  ck_assert_uint_eq(count_rule("duplicate-entry"), 0);
  need("shadowed-entry", "network_policy.deny_out[0]");
}
END_TEST

START_TEST(test_policy_warn_shadowed) {
  const char *allow[] = {"10.0.0.0/8", "*.example.com", "*", NULL};
  const char *deny[] = {"10.1.1.1", "a.b.example.com", "*.x.example.com", "evil.org",
                        "11.0.0.0/8", "0.0.0.0/0", NULL};
  ck_assert_int_eq(compile("filtered", allow, deny), BOXLINT_OK);
  const boxlint_diag *d = need("shadowed-entry", "network_policy.deny_out[0]");
  ck_assert_str_eq(d->message, "deny_out[0]: '10.1.1.1' can never decide: allow_out[0] "
                               "('10.0.0.0/8') covers it, and allow beats deny");
  d = need("shadowed-entry", "network_policy.deny_out[1]");
  ck_assert_str_eq(d->message, "deny_out[1]: 'a.b.example.com' can never decide: allow_out[1] "
                               "('*.example.com') covers it, and allow beats deny");
  need("shadowed-entry", "network_policy.deny_out[2]");
  d = need("shadowed-entry", "network_policy.deny_out[3]");
  ck_assert_ptr_nonnull(strstr(d->message, "allow_out[2] ('*')"));
  ck_assert_ptr_null(find("shadowed-entry", "network_policy.deny_out[4]"));
  ck_assert_ptr_null(find("shadowed-entry", "network_policy.deny_out[5]"));
  /* ...and the verdicts bear it out. */
  expect(NULL, "10.1.1.1", "allow", "rule", L_ALLOW, 0, "10.0.0.0/8");
  expect("a.b.example.com", NULL, "allow", "rule", L_ALLOW, 1, "*.example.com");
  /* An allow that does not cover: 10.1.0.0/16 inside a deny 10.0.0.0/8 is the reverse. */
  const char *a2[] = {"10.1.0.0/16", "example.com", "ALL_TRAFFIC", NULL};
  const char *d2[] = {"10.0.0.0/8", "*.example.com", NULL};
  ck_assert_int_eq(compile("filtered", a2, d2), BOXLINT_OK);
  /* ALL in allow covers every deny entry. */
  d = need("shadowed-entry", "network_policy.deny_out[0]");
  ck_assert_ptr_nonnull(strstr(d->message, "allow_out[2] ('0.0.0.0/0')"));
  const char *a3[] = {"10.1.0.0/16", "example.com", "::/0", NULL};
  ck_assert_int_eq(compile("filtered", a3, d2), BOXLINT_OK);
  ck_assert_uint_eq(count_rule("shadowed-entry"), 0);
  /* ::/0 covers IPv6 denies, not IPv4 ones. */
  const char *d3[] = {"2001:db8::/32", "ALL_TRAFFIC", NULL};
  ck_assert_int_eq(compile("filtered", a3, d3), BOXLINT_OK);
  need("shadowed-entry", "network_policy.deny_out[0]");
  ck_assert_ptr_null(find("shadowed-entry", "network_policy.deny_out[1]"));
}
END_TEST

START_TEST(test_policy_warn_entry_kinds) {
  const char *allow[] = {"*.com", "*", "::ffff:8.8.8.8", "::ffff:10.0.0.0/104", "*.example.com",
                         NULL};
  const char *deny[] = {"ALL_TRAFFIC", NULL};
  ck_assert_int_eq(compile("filtered", allow, deny), BOXLINT_OK);
  const boxlint_diag *d = need("broad-wildcard", "network_policy.allow_out[0]");
  ck_assert_str_eq(d->message, "allow_out[0]: '*.com' matches every name under the top-level "
                               "domain 'com'");
  ck_assert_str_eq(d->hint, "name the domain, e.g. '*.example.com'");
  ck_assert_uint_eq(count_rule("broad-wildcard"), 1);
  d = need("any-host", "network_policy.allow_out[1]");
  ck_assert_str_eq(d->message, "allow_out[1]: '*' matches every host name (but no destination "
                               "reached by IP address)");
  d = need("mapped-address", "network_policy.allow_out[2]");
  ck_assert_str_eq(d->message, "allow_out[2]: '::ffff:8.8.8.8' is an IPv4-mapped IPv6 address; "
                               "it is treated as the IPv4 address '8.8.8.8'");
  ck_assert_str_eq(d->hint, "write '8.8.8.8'");
  d = need("mapped-address", "network_policy.allow_out[3]");
  ck_assert_ptr_nonnull(strstr(d->message, "IPv4 network '10.0.0.0/8'"));
  ck_assert_uint_eq(count_rule("mapped-address"), 2);
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++)
    ck_assert_int_eq(boxlint_report_diag(R, i)->severity, BOXLINT_SEVERITY_WARNING);
}
END_TEST

/*==============================================================================================
 * MARK: E2B compatibility
 *============================================================================================*/

/* A config's severities reach the policy warnings: switched off, a warning is not reported;
 * raised, it is reported at the new severity and the policy still compiles; lowered, at info.
 * Errors keep their severity whatever the config says (a config cannot hold such a setting),
 * and NULL gives every warning its default. */
START_TEST(test_policy_warn_config_severity) {
  static const char *const allow[] = {"pypi.org", "pypi.org", NULL};
  boxlint_config *cfg = NULL;
  ck_assert_int_eq(boxlint_config_new(&cfg, NULL), BOXLINT_OK);
  boxlint_policy_options o;
  boxlint_policy_options_init(&o);
  ck_assert_ptr_null(o.config);
  /* defaults: both warnings, as warnings (NULL config and a default config alike) */
  for (int k = 0; k < 2; k++) {
    o.config = k ? cfg : NULL;
    ck_assert_int_eq(compile_opts("filtered", allow, NULL, &o), BOXLINT_OK);
    ck_assert_uint_eq(boxlint_report_diag_count(R), 2);
    const boxlint_diag *d = need("allow-without-effect", "network_policy.allow_out[0]");
    ck_assert_int_eq(d->severity, BOXLINT_SEVERITY_WARNING);
    ck_assert_str_eq(d->message, "allow_out[0]: 'pypi.org' has no effect: no deny_out entry "
                                 "overlaps it, and destinations matched by neither list are "
                                 "allowed");
    d = need("duplicate-entry", "network_policy.allow_out[1]");
    ck_assert_int_eq(d->severity, BOXLINT_SEVERITY_WARNING);
    ck_assert_str_eq(d->message, "allow_out[1]: 'pypi.org' repeats allow_out[0] ('pypi.org')");
  }
  /* off, and raised to an error: the policy compiles (only the platform's errors refuse it) */
  ck_assert_int_eq(boxlint_config_set_severity(cfg, "allow-without-effect", 20,
                                               BOXLINT_SEVERITY_OFF, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_config_set_severity(cfg, "duplicate-entry", 15,
                                               BOXLINT_SEVERITY_ERROR, NULL), BOXLINT_OK);
  o.config = cfg;
  ck_assert_int_eq(compile_opts("filtered", allow, NULL, &o), BOXLINT_OK);
  ck_assert_ptr_nonnull(P);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
  ck_assert_uint_eq(count_rule("allow-without-effect"), 0);
  const boxlint_diag *d = need("duplicate-entry", "network_policy.allow_out[1]");
  ck_assert_int_eq(d->severity, BOXLINT_SEVERITY_ERROR);
  ck_assert_str_eq(d->message, "allow_out[1]: 'pypi.org' repeats allow_out[0] ('pypi.org')");
  /* lowered to info */
  ck_assert_int_eq(boxlint_config_set_severity(cfg, "duplicate-entry", 15,
                                               BOXLINT_SEVERITY_INFO, NULL), BOXLINT_OK);
  ck_assert_int_eq(compile_opts("filtered", allow, NULL, &o), BOXLINT_OK);
  ck_assert_int_eq(need("duplicate-entry", NULL)->severity, BOXLINT_SEVERITY_INFO);
  /* errors: the config refuses to lower them, and the policy reports them as errors */
  ck_assert_int_eq(boxlint_config_set_severity(cfg, "invalid-policy-entry", 20,
                                               BOXLINT_SEVERITY_OFF, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_config_set_severity(cfg, "lists-not-allowed", 17,
                                               BOXLINT_SEVERITY_WARNING, NULL), BOXLINT_EINVAL);
  static const char *const bad[] = {"pypi.org:443", NULL};
  ck_assert_int_eq(compile_opts("filtered", bad, NULL, &o), BOXLINT_ESYNTAX);
  d = need("invalid-policy-entry", "network_policy.allow_out[0]");
  ck_assert_int_eq(d->severity, BOXLINT_SEVERITY_ERROR);
  ck_assert_int_eq(compile_opts("open", allow, NULL, &o), BOXLINT_ESYNTAX);
  ck_assert_int_eq(need("lists-not-allowed", "network_policy.allow_out")->severity,
                   BOXLINT_SEVERITY_ERROR);
  /* an options struct of the size before `config` (no config: the defaults) */
  boxlint_policy_options old;
  boxlint_policy_options_init(&old);
  old.config = cfg; /* beyond `size`: never read */
  old.size = offsetof(boxlint_policy_options, config);
  ck_assert_int_eq(compile_opts("filtered", allow, NULL, &old), BOXLINT_OK);
  ck_assert_uint_eq(count_rule("allow-without-effect"), 1);
  ck_assert_int_eq(need("duplicate-entry", NULL)->severity, BOXLINT_SEVERITY_WARNING);
  boxlint_config_free(cfg);
}
END_TEST

START_TEST(test_policy_compat_e2b) {
  const char *allow[] = {"pypi.org", "*.pythonhosted.org", NULL};
  /* Without the mode: warnings only. */
  ck_assert_int_eq(compile("filtered", allow, NULL), BOXLINT_OK);
  ck_assert_uint_eq(count_rule("domains-require-deny-all"), 0);
  ck_assert_int_eq(compile_mode("filtered", allow, NULL, BOXLINT_COMPAT_E2B,
                                BOXLINT_UNMATCHED_ALLOW),
                   BOXLINT_ESYNTAX);
  const boxlint_diag *d = need("domains-require-deny-all", "network_policy.deny_out");
  ck_assert_int_eq(d->severity, BOXLINT_SEVERITY_ERROR);
  ck_assert_ptr_nonnull(strstr(d->message, "you must include 'ALL_TRAFFIC' in deny out to block "
                                           "all other traffic"));
  ck_assert_ptr_nonnull(strstr(d->message, "allow_out[0] 'pypi.org'"));
  ck_assert_str_eq(d->fix->text, "ALL_TRAFFIC");
  ck_assert_int_eq(d->fix->safety, BOXLINT_FIX_UNSAFE);
  /* Satisfied by ALL in any spelling. */
  const char *deny_all[] = {"0.0.0.0/0", NULL};
  ck_assert_int_eq(compile_mode("filtered", allow, deny_all, BOXLINT_COMPAT_E2B,
                                BOXLINT_UNMATCHED_ALLOW),
                   BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
  /* Domains in deny_out; IPv6 entries; 0.0.0.0/n. */
  const char *a2[] = {"2001:db8::1", "8.8.8.8", NULL};
  const char *d2[] = {"evil.com", "*.evil.org", "::/0", "0.0.0.0/8", "1.2.3.4", NULL};
  ck_assert_int_eq(compile_mode("filtered", a2, d2, BOXLINT_COMPAT_E2B, BOXLINT_UNMATCHED_ALLOW),
                   BOXLINT_ESYNTAX);
  d = need("compat-deny-domain", "network_policy.deny_out[0]");
  ck_assert_str_eq(d->message, "deny_out[0]: 'evil.com': E2B does not support host names in "
                               "deny_out");
  need("compat-deny-domain", "network_policy.deny_out[1]");
  ck_assert_uint_eq(count_rule("compat-deny-domain"), 2);
  d = need("compat-ipv6", "network_policy.allow_out[0]");
  ck_assert_ptr_nonnull(strstr(d->message, "E2B enforces IPv4 only"));
  d = need("compat-ipv6", "network_policy.deny_out[2]");
  ck_assert_str_eq(d->message, "deny_out[2]: '::/0': E2B rejects '::/0' in deny_out");
  ck_assert_uint_eq(count_rule("compat-ipv6"), 2);
  d = need("invalid-policy-entry", "network_policy.deny_out[3]");
  ck_assert_str_eq(d->detail, "unspecified");
  ck_assert_uint_eq(count_rule("invalid-policy-entry"), 1);
  /* The same policy without the mode is valid. */
  ck_assert_int_eq(compile("filtered", a2, d2), BOXLINT_OK);
}
END_TEST

/*==============================================================================================
 * MARK: Decisions
 *============================================================================================*/

START_TEST(test_policy_decide_reasons) {
  ck_assert_int_eq(compile(NULL, NULL, NULL), BOXLINT_OK);
  expect("pypi.org", NULL, "deny", "policy-disabled", L_NONE, -1, NULL);
  expect(NULL, "8.8.8.8", "deny", "policy-disabled", L_NONE, -1, NULL);
  expect("pypi.org:443", NULL, "deny", "invalid-destination", L_NONE, -1, NULL);
  ck_assert_int_eq(compile("open", NULL, NULL), BOXLINT_OK);
  expect("pypi.org", "1.2.3.4", "allow", "policy-open", L_NONE, -1, NULL);
  expect("010.0.0.1", NULL, "deny", "invalid-destination", L_NONE, -1, NULL);

  const char *allow[] = {"pypi.org", "*.pythonhosted.org", NULL};
  const char *deny[] = {"ALL_TRAFFIC", NULL};
  ck_assert_int_eq(compile("filtered", allow, deny), BOXLINT_OK);
  boxlint_decision d = dec("pypi.org", NULL);
  ck_assert_int_eq(d.by_name, 1);
  expect("pypi.org", NULL, "allow", "rule", L_ALLOW, 0, "pypi.org");
  expect("files.pythonhosted.org", NULL, "allow", "rule", L_ALLOW, 1, "*.pythonhosted.org");
  expect("github.com", NULL, "deny", "rule", L_DENY, 0, "0.0.0.0/0");
  expect(NULL, "140.82.112.3", "deny", "rule", L_DENY, 0, "0.0.0.0/0");
  d = dec(NULL, "140.82.112.3");
  ck_assert_int_eq(d.by_name, 0);

  const char *d2[] = {"10.0.0.0/8", NULL};
  ck_assert_int_eq(compile("filtered", NULL, d2), BOXLINT_OK);
  expect("example.com", NULL, "unknown", "needs-ip", L_NONE, -1, NULL);
  expect("example.com", "10.1.2.3", "deny", "rule", L_DENY, 0, "10.0.0.0/8");
  expect("example.com", "11.1.2.3", "allow", "default", L_NONE, -1, NULL);
}
END_TEST

START_TEST(test_policy_decide_precedence) {
  /* Allow beats deny at any specificity (E2B TestEgressFirewallAllowOverridesBlock). */
  const char *allow[] = {"10.0.0.0/8", "1.1.1.1", "*.example.com", NULL};
  const char *deny[] = {"10.1.1.1", "1.1.1.1", "a.example.com", "8.8.0.0/16", NULL};
  ck_assert_int_eq(compile("filtered", allow, deny), BOXLINT_OK);
  expect(NULL, "10.1.1.1", "allow", "rule", L_ALLOW, 0, "10.0.0.0/8");
  expect(NULL, "1.1.1.1", "allow", "rule", L_ALLOW, 1, "1.1.1.1");
  expect("a.example.com", NULL, "allow", "rule", L_ALLOW, 2, "*.example.com");
  expect(NULL, "8.8.8.8", "deny", "rule", L_DENY, 3, "8.8.0.0/16");
  expect(NULL, "9.9.9.9", "allow", "default", L_NONE, -1, NULL);
  /* A name allow wins over an address deny for the same destination. */
  expect("b.example.com", "8.8.8.8", "allow", "rule", L_ALLOW, 2, "*.example.com");
  /* Name entries are consulted before address entries within a list. */
  const char *a2[] = {"0.0.0.0/0", "pypi.org", NULL};
  ck_assert_int_eq(compile("filtered", a2, NULL), BOXLINT_OK);
  expect("pypi.org", "1.2.3.4", "allow", "rule", L_ALLOW, 1, "pypi.org");
}
END_TEST

START_TEST(test_policy_decide_specificity) {
  const char *allow[] = {"*", "*.com", "*.example.com", "api.example.com", "*.b.example.com",
                        "0.0.0.0/0", "10.0.0.0/8", "10.1.0.0/16", "10.1.2.3", "10.0.0.0/8",
                        "api.example.com", NULL};
  ck_assert_int_eq(compile("filtered", allow, NULL), BOXLINT_OK);
  expect("api.example.com", NULL, "allow", "rule", L_ALLOW, 3, "api.example.com");
  expect("x.api.example.com", NULL, "allow", "rule", L_ALLOW, 2, "*.example.com");
  expect("x.y.b.example.com", NULL, "allow", "rule", L_ALLOW, 4, "*.b.example.com");
  expect("b.example.com", NULL, "allow", "rule", L_ALLOW, 2, "*.example.com");
  expect("example.com", NULL, "allow", "rule", L_ALLOW, 1, "*.com");
  expect("example.org", NULL, "allow", "rule", L_ALLOW, 0, "*");
  expect(NULL, "10.1.2.3", "allow", "rule", L_ALLOW, 8, "10.1.2.3");
  expect(NULL, "10.1.2.4", "allow", "rule", L_ALLOW, 7, "10.1.0.0/16");
  expect(NULL, "10.2.0.0", "allow", "rule", L_ALLOW, 6, "10.0.0.0/8"); /* tie: lowest index */
  expect(NULL, "11.0.0.0", "allow", "rule", L_ALLOW, 5, "0.0.0.0/0");
  expect(NULL, "2001:db8::1", "allow", "rule", L_ALLOW, 5, "0.0.0.0/0");
  /* ALL and ::/0 tie for IPv6: the lowest index is reported. */
  const char *a2[] = {"::/0", "ALL_TRAFFIC", NULL};
  ck_assert_int_eq(compile("filtered", a2, NULL), BOXLINT_OK);
  expect(NULL, "2001:db8::1", "allow", "rule", L_ALLOW, 0, "::/0");
  expect(NULL, "1.2.3.4", "allow", "rule", L_ALLOW, 1, "0.0.0.0/0");
}
END_TEST

START_TEST(test_policy_decide_names) {
  const char *deny[] = {"*.example.com", "evil.com", "*", NULL};
  ck_assert_int_eq(compile("filtered", NULL, deny), BOXLINT_OK);
  /* Any depth, never the apex, label boundaries respected. */
  expect("a.example.com", NULL, "deny", "rule", L_DENY, 0, "*.example.com");
  expect("a.b.c.example.com", NULL, "deny", "rule", L_DENY, 0, "*.example.com");
  expect("example.com", NULL, "deny", "rule", L_DENY, 2, "*");
  expect("notexample.com", NULL, "deny", "rule", L_DENY, 2, "*");
  /* Case and one trailing dot are normalised; nothing else is. */
  expect("EVIL.com.", NULL, "deny", "rule", L_DENY, 1, "evil.com");
  expect("evil.com..", NULL, "deny", "invalid-destination", L_NONE, -1, NULL);
  expect("evil.com:443", NULL, "deny", "invalid-destination", L_NONE, -1, NULL);
  expect("*.evil.com", NULL, "deny", "invalid-destination", L_NONE, -1, NULL);
  expect("*", NULL, "deny", "invalid-destination", L_NONE, -1, NULL);
  expect("", NULL, "deny", "invalid-destination", L_NONE, -1, NULL);
  expect("\xe2\x84\xaa.com", NULL, "deny", "invalid-destination", L_NONE, -1, NULL);
  /* Name entries never match an IP destination, `*` included. */
  expect(NULL, "1.2.3.4", "allow", "default", L_NONE, -1, NULL);
  expect("1.2.3.4", NULL, "allow", "default", L_NONE, -1, NULL);
  /* ALL_TRAFFIC is a name as a destination, not the sentinel. */
  expect("all_traffic", NULL, "deny", "rule", L_DENY, 2, "*");
}
END_TEST

START_TEST(test_policy_decide_destinations) {
  const char *allow[] = {"8.8.8.8", NULL};
  const char *deny[] = {"ALL_TRAFFIC", NULL};
  ck_assert_int_eq(compile("filtered", allow, deny), BOXLINT_OK);
  /* A host that is an IP literal is the address. */
  expect("8.8.8.8", NULL, "allow", "rule", L_ALLOW, 0, "8.8.8.8");
  expect("8.8.8.8", "8.8.8.8", "allow", "rule", L_ALLOW, 0, "8.8.8.8");
  expect("::ffff:8.8.8.8", NULL, "allow", "rule", L_ALLOW, 0, "8.8.8.8");
  /* ...and must agree with the address. */
  expect("8.8.8.8", "8.8.4.4", "deny", "invalid-destination", L_NONE, -1, NULL);
  /* Invalid addresses are denied, never left to the default. */
  const char *bad[] = {"010.010.010.010", "0x7f.1", "127.1", "8.8.8.8.", "[::1]", "fe80::1%eth0",
                       "8.8.8.8/32", "0.0.0.0", "::", "dns.google", "8.8.8.8:53", " 8.8.8.8",
                       "", NULL};
  for (int i = 0; bad[i]; i++) expect(NULL, bad[i], "deny", "invalid-destination", L_NONE, -1, NULL);
  expect("10.0.0.0/8", NULL, "deny", "invalid-destination", L_NONE, -1, NULL);
  expect("ALL_TRAFFIC", "0.0.0.0/0", "deny", "invalid-destination", L_NONE, -1, NULL);
  /* Spans: bytes after the length are not read. */
  boxlint_decision d;
  ck_assert_int_eq(boxlint_policy_decide(&d, P, NULL, 0, "8.8.8.8XYZ", 7), BOXLINT_OK);
  ck_assert_str_eq(boxlint_verdict_str(d.verdict), "allow");
  ck_assert_int_eq(boxlint_policy_decide(&d, P, "8.8.8.8\0", 8, NULL, 0), BOXLINT_OK);
  ck_assert_int_eq(d.reason, BOXLINT_REASON_INVALID_DESTINATION);
}
END_TEST

START_TEST(test_policy_decide_needs_ip) {
  /* Host-only, deny ALL: DENY. Deny of other networks: UNKNOWN. */
  const char *allow[] = {"pypi.org", NULL};
  const char *deny_all[] = {"ALL_TRAFFIC", NULL};
  ck_assert_int_eq(compile("filtered", allow, deny_all), BOXLINT_OK);
  expect("github.com", NULL, "deny", "rule", L_DENY, 0, "0.0.0.0/0");
  const char *deny_net[] = {"140.82.112.0/20", NULL};
  ck_assert_int_eq(compile("filtered", allow, deny_net), BOXLINT_OK);
  expect("github.com", NULL, "unknown", "needs-ip", L_NONE, -1, NULL);
  expect("github.com", "140.82.112.3", "deny", "rule", L_DENY, 0, "140.82.112.0/20");
  expect("pypi.org", NULL, "allow", "rule", L_ALLOW, 0, "pypi.org");
  /* ::/0 is a network other than ALL for a host-only query. */
  const char *deny_v6[] = {"::/0", NULL};
  ck_assert_int_eq(compile("filtered", allow, deny_v6), BOXLINT_OK);
  expect("github.com", NULL, "unknown", "needs-ip", L_NONE, -1, NULL);
  /* An allow network could match the address: a host-only deny would be a guess. */
  const char *a2[] = {"140.82.112.0/20", "pypi.org", NULL};
  const char *d2[] = {"ALL_TRAFFIC", "evil.com", NULL};
  ck_assert_int_eq(compile("filtered", a2, d2), BOXLINT_OK);
  expect("github.com", NULL, "unknown", "needs-ip", L_NONE, -1, NULL);
  expect("evil.com", NULL, "unknown", "needs-ip", L_NONE, -1, NULL);
  expect("evil.com", "140.82.112.1", "allow", "rule", L_ALLOW, 0, "140.82.112.0/20");
  expect("evil.com", "1.1.1.1", "deny", "rule", L_DENY, 1, "evil.com");
  expect("pypi.org", NULL, "allow", "rule", L_ALLOW, 1, "pypi.org");
  /* ALL in allow decides host-only queries. */
  const char *a3[] = {"ALL_TRAFFIC", NULL};
  ck_assert_int_eq(compile("filtered", a3, deny_net), BOXLINT_OK);
  expect("github.com", NULL, "allow", "rule", L_ALLOW, 0, "0.0.0.0/0");
  /* unmatched=deny: an allow network leaves the host-only answer open. */
  const char *a4[] = {"140.82.112.0/20", NULL};
  ck_assert_int_eq(compile_mode("filtered", a4, NULL, 0, BOXLINT_UNMATCHED_DENY), BOXLINT_OK);
  expect("github.com", NULL, "unknown", "needs-ip", L_NONE, -1, NULL);
  expect(NULL, "140.82.112.9", "allow", "rule", L_ALLOW, 0, "140.82.112.0/20");
  expect(NULL, "1.1.1.1", "deny", "default", L_NONE, -1, NULL);
  ck_assert_int_eq(compile_mode("filtered", allow, NULL, 0, BOXLINT_UNMATCHED_DENY), BOXLINT_OK);
  expect("github.com", NULL, "deny", "default", L_NONE, -1, NULL);
  /* unmatched=allow with only allow networks: the verdict is allow either way. */
  ck_assert_int_eq(compile("filtered", a4, NULL), BOXLINT_OK);
  expect("github.com", NULL, "allow", "default", L_NONE, -1, NULL);
}
END_TEST

START_TEST(test_policy_decide_ipv6_mapped) {
  /* ALL covers IPv6; ::/0 does not cover IPv4. */
  const char *deny_all[] = {"ALL_TRAFFIC", NULL};
  ck_assert_int_eq(compile("filtered", NULL, deny_all), BOXLINT_OK);
  expect(NULL, "2001:db8::1", "deny", "rule", L_DENY, 0, "0.0.0.0/0");
  const char *deny_v6[] = {"::/0", NULL};
  ck_assert_int_eq(compile("filtered", NULL, deny_v6), BOXLINT_OK);
  expect(NULL, "2001:db8::1", "deny", "rule", L_DENY, 0, "::/0");
  expect(NULL, "1.2.3.4", "allow", "default", L_NONE, -1, NULL);
  /* A mapped destination is the IPv4 address: it cannot slip past an IPv4 deny. */
  const char *deny4[] = {"10.0.0.0/8", "2001:db8::/32", NULL};
  ck_assert_int_eq(compile("filtered", NULL, deny4), BOXLINT_OK);
  expect(NULL, "::ffff:10.1.2.3", "deny", "rule", L_DENY, 0, "10.0.0.0/8");
  expect(NULL, "::FFFF:a01:203", "deny", "rule", L_DENY, 0, "10.0.0.0/8");
  expect("::ffff:10.1.2.3", NULL, "deny", "rule", L_DENY, 0, "10.0.0.0/8");
  expect(NULL, "2001:DB8:0::5", "deny", "rule", L_DENY, 1, "2001:db8::/32");
  expect(NULL, "2001:db9::5", "allow", "default", L_NONE, -1, NULL);
  /* NAT64 and IPv4-compatible forms stay IPv6. */
  expect(NULL, "64:ff9b::10.1.2.3", "allow", "default", L_NONE, -1, NULL);
  expect(NULL, "::10.1.2.3", "allow", "default", L_NONE, -1, NULL);
  /* A mapped entry matches the IPv4 destination. */
  const char *deny_m[] = {"::ffff:192.168.0.0/112", NULL};
  ck_assert_int_eq(compile("filtered", NULL, deny_m), BOXLINT_OK);
  expect(NULL, "192.168.4.5", "deny", "rule", L_DENY, 0, "192.168.0.0/16");
  expect(NULL, "::ffff:192.168.4.5", "deny", "rule", L_DENY, 0, "192.168.0.0/16");
}
END_TEST

START_TEST(test_policy_decide_boundaries) {
  const char *allow[] = {"255.255.255.255/32", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128",
                         "0.0.0.1", "::1", "128.0.0.0/1", "8000::/1", NULL};
  const char *deny[] = {"0.0.0.0/0", NULL};
  ck_assert_int_eq(compile("filtered", allow, deny), BOXLINT_OK);
  expect(NULL, "255.255.255.255", "allow", "rule", L_ALLOW, 0, "255.255.255.255/32");
  expect(NULL, "255.255.255.254", "allow", "rule", L_ALLOW, 4, "128.0.0.0/1");
  expect(NULL, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "allow", "rule", L_ALLOW, 1,
         "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128");
  expect(NULL, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe", "allow", "rule", L_ALLOW, 5, "8000::/1");
  expect(NULL, "0.0.0.1", "allow", "rule", L_ALLOW, 2, "0.0.0.1");
  expect(NULL, "0.0.0.2", "deny", "rule", L_DENY, 0, "0.0.0.0/0");
  expect(NULL, "127.255.255.255", "deny", "rule", L_DENY, 0, "0.0.0.0/0");
  expect(NULL, "128.0.0.0", "allow", "rule", L_ALLOW, 4, "128.0.0.0/1");
  expect(NULL, "::1", "allow", "rule", L_ALLOW, 3, "::1");
  expect(NULL, "::2", "deny", "rule", L_DENY, 0, "0.0.0.0/0");
  expect(NULL, "7fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "deny", "rule", L_DENY, 0, "0.0.0.0/0");
  expect(NULL, "8000::", "allow", "rule", L_ALLOW, 5, "8000::/1");
  /* Only the top host in the space. */
  const char *a2[] = {"255.255.255.255", NULL};
  ck_assert_int_eq(compile("filtered", a2, NULL), BOXLINT_OK);
  expect(NULL, "255.255.255.255", "allow", "rule", L_ALLOW, 0, "255.255.255.255");
  expect(NULL, "255.255.255.254", "allow", "default", L_NONE, -1, NULL);
  expect(NULL, "::ffff:255.255.255.255", "allow", "rule", L_ALLOW, 0, "255.255.255.255");
}
END_TEST

START_TEST(test_policy_decide_unmatched_deny) {
  const char *allow[] = {"pypi.org", "10.0.0.0/8", NULL};
  const char *deny[] = {"10.9.0.0/16", NULL};
  ck_assert_int_eq(compile_mode("filtered", allow, deny, 0, BOXLINT_UNMATCHED_DENY), BOXLINT_OK);
  expect("pypi.org", NULL, "allow", "rule", L_ALLOW, 0, "pypi.org");
  expect(NULL, "10.9.1.1", "allow", "rule", L_ALLOW, 1, "10.0.0.0/8");
  expect(NULL, "11.1.1.1", "deny", "default", L_NONE, -1, NULL);
  expect("github.com", "11.1.1.1", "deny", "default", L_NONE, -1, NULL);
}
END_TEST

/*==============================================================================================
 * MARK: Differential test
 *============================================================================================*/

static uint64_t rnd(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static unsigned rn(uint64_t *s, unsigned n) { return (unsigned)(rnd(s) % n); }

/* Addresses drawn from a few small neighbourhoods so that entries and destinations collide. */
static uint32_t r_v4(uint64_t *s) {
  static const uint32_t bases[] = {0x0a000000u, 0x0a010000u, 0xc0a80000u, 0x00000000u,
                                   0xffff0000u, 0x08080000u};
  uint32_t b = bases[rn(s, 6)];
  return b | (rn(s, 4) << 8) | (rn(s, 3) ? rn(s, 4) : rn(s, 256));
}
static void r_v6(uint64_t *s, uint16_t g[8]) {
  static const uint16_t tops[] = {0x2001, 0xffff, 0x0000, 0xfe80};
  memset(g, 0, 16);
  g[0] = tops[rn(s, 4)];
  g[1] = rn(s, 2) ? 0x0db8 : 0xffff;
  g[2] = (uint16_t)rn(s, 3);
  g[7] = (uint16_t)rn(s, 5);
  if (!rn(s, 4)) g[6] = 0xffff;
  if (g[0] == 0 && g[1] == 0xffff) g[1] = 0; /* avoid ::ffff:... in the IPv6 pool */
}
static const char *labels[] = {"a", "b", "www", "api", "x-y", "_s"};
static const char *tlds[] = {"com", "org", "io"};
static int r_name(uint64_t *s, char *o, size_t cap) {
  int depth = 1 + (int)rn(s, 3), k = 0;
  for (int i = 0; i < depth; i++) k += snprintf(o + k, cap - (size_t)k, "%s.", labels[rn(s, 6)]);
  return k + snprintf(o + k, cap - (size_t)k, "%s", tlds[rn(s, 3)]);
}

static void r_entry(uint64_t *s, char *o, size_t cap) {
  unsigned t = rn(s, 20);
  if (t < 6) { /* IPv4 address or CIDR */
    uint32_t a = r_v4(s);
    unsigned len = rn(s, 4) ? 16 + rn(s, 17) : rn(s, 33);
    if (len < 32) a &= len ? 0xffffffffu << (32 - len) : 0;
    if (a == 0 && len == 32) a = 1;
    int k = snprintf(o, cap, "%u.%u.%u.%u", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255);
    if (len < 32 || rn(s, 2)) snprintf(o + k, cap - (size_t)k, "/%u", len);
  } else if (t < 9) { /* IPv6 */
    uint16_t g[8];
    r_v6(s, g);
    unsigned len = rn(s, 3) ? 16 + rn(s, 113) : rn(s, 129);
    for (unsigned bit = len; bit < 128; bit++) g[bit / 16] &= (uint16_t)~(1u << (15 - bit % 16));
    int zero = 1;
    for (int i = 0; i < 8; i++) zero &= !g[i];
    if (zero && len == 128) g[7] = 1;
    int k = snprintf(o, cap, "%x:%x:%x:%x:%x:%x:%x:%x", g[0], g[1], g[2], g[3], g[4], g[5], g[6],
                     g[7]);
    if (len < 128 || rn(s, 2)) snprintf(o + k, cap - (size_t)k, "/%u", len);
  } else if (t == 9) { /* mapped */
    uint32_t a = r_v4(s) | 1u;
    snprintf(o, cap, "::ffff:%u.%u.%u.%u", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255);
  } else if (t == 10) {
    snprintf(o, cap, "%s", rn(s, 3) ? "ALL_TRAFFIC" : rn(s, 2) ? "0.0.0.0/0" : "::/0");
  } else if (t < 15) {
    r_name(s, o, cap);
  } else if (t < 19) {
    o[0] = '*';
    o[1] = '.';
    r_name(s, o + 2, cap - 2);
  } else {
    snprintf(o, cap, "*");
  }
}

static void r_dest(uint64_t *s, char *h, char *ip, int *hp, int *ipp) {
  unsigned t = rn(s, 10);
  *hp = *ipp = 0;
  if (t < 7) {
    *hp = 1;
    unsigned u = rn(s, 12);
    if (u < 9) r_name(s, h, 256);
    else if (u == 9) snprintf(h, 256, "%u.%u.%u.%u", 10u, 0u, 0u, rn(s, 3));
    else if (u == 10) snprintf(h, 256, "A.%s.", tlds[rn(s, 3)]);
    else snprintf(h, 256, "%s", rn(s, 2) ? "a.com:443" : "a..com");
  }
  if (t >= 4) {
    *ipp = 1;
    unsigned u = rn(s, 10);
    if (u < 6) {
      uint32_t a = r_v4(s);
      snprintf(ip, 64, "%u.%u.%u.%u", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255);
    } else if (u < 8) {
      uint16_t g[8];
      r_v6(s, g);
      snprintf(ip, 64, "%x:%x:%x:%x:%x:%x:%x:%x", g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7]);
    } else if (u == 8) {
      uint32_t a = r_v4(s);
      snprintf(ip, 64, "::ffff:%u.%u.%u.%u", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255);
    } else {
      snprintf(ip, 64, "%s", rn(s, 2) ? "010.0.0.1" : "[::1]");
    }
  }
}

START_TEST(test_policy_differential) {
  uint64_t seed = 0x5eed0001u;
  const char *env = getenv("BOXLINT_SEED");
  if (env && *env) seed = strtoull(env, NULL, 0);
  else seed ^= (uint64_t)time(NULL);
  printf("check_policy: differential seed %" PRIu64 " (BOXLINT_SEED=%" PRIu64 " replays it)\n",
         seed, seed);
  fflush(stdout);
  uint64_t s = seed;
  static char ab[64][300], db[64][300];
  const char *allow[65], *deny[65];
  size_t cases = 0, rules = 0, unknowns = 0, policies = 0;
  for (int it = 0; it < 400; it++) {
    unsigned na = rn(&s, 4) ? rn(&s, 24) : rn(&s, 64);
    unsigned nd = rn(&s, 4) ? rn(&s, 24) : rn(&s, 64);
    for (unsigned i = 0; i < na; i++) {
      r_entry(&s, ab[i], sizeof ab[i]);
      allow[i] = ab[i];
    }
    for (unsigned i = 0; i < nd; i++) {
      r_entry(&s, db[i], sizeof db[i]);
      deny[i] = db[i];
    }
    allow[na] = deny[nd] = NULL;
    const char *type = rn(&s, 10) ? "filtered" : rn(&s, 2) ? "open" : "disabled";
    if (strcmp(type, "filtered")) allow[0] = deny[0] = NULL;
    boxlint_policy_unmatched um = rn(&s, 3) ? BOXLINT_UNMATCHED_ALLOW : BOXLINT_UNMATCHED_DENY;
    boxlint_status st = compile_mode(type, allow, deny, 0, um);
    if (st != BOXLINT_OK) {
      for (size_t i = 0; i < boxlint_report_diag_count(R); i++)
        fprintf(stderr, "  %s\n", boxlint_report_diag(R, i)->message);
    }
    ck_assert_int_eq(st, BOXLINT_OK);
    policies++;
    for (int q = 0; q < 50; q++) {
      char h[256], ip[64];
      int hp, ipp;
      r_dest(&s, h, ip, &hp, &ipp);
      const char *H = hp ? h : NULL, *I = ipp ? ip : NULL;
      boxlint_decision a, b;
      ck_assert_int_eq(boxlint_policy_decide(&a, P, H, H ? strlen(H) : 0, I, I ? strlen(I) : 0),
                       BOXLINT_OK);
      ck_assert_int_eq(
          boxlint__policy_decide_linear(&b, P, H, H ? strlen(H) : 0, I, I ? strlen(I) : 0),
          BOXLINT_OK);
      int same = a.verdict == b.verdict && a.reason == b.reason && a.list == b.list &&
                 a.index == b.index && a.by_name == b.by_name &&
                 ((!a.entry.ptr && !b.entry.ptr) ||
                  (a.entry.ptr && b.entry.ptr && !strcmp(a.entry.ptr, b.entry.ptr)));
      if (!same) {
        fprintf(stderr, "MISMATCH seed %" PRIu64 " policy %d: type %s unmatched %d\n", seed, it,
                type, (int)um);
        for (unsigned i = 0; allow[i]; i++) fprintf(stderr, "  allow[%u] %s\n", i, allow[i]);
        for (unsigned i = 0; deny[i]; i++) fprintf(stderr, "  deny[%u] %s\n", i, deny[i]);
        fprintf(stderr, "  host %s ip %s\n  compiled %s %s %d[%d] %s\n  linear   %s %s %d[%d] %s\n",
                H ? H : "-", I ? I : "-", boxlint_verdict_str(a.verdict),
                boxlint_decision_reason_str(a.reason), (int)a.list, (int)a.index,
                a.entry.ptr ? a.entry.ptr : "-", boxlint_verdict_str(b.verdict),
                boxlint_decision_reason_str(b.reason), (int)b.list, (int)b.index,
                b.entry.ptr ? b.entry.ptr : "-");
      }
      ck_assert_msg(same, "compiled and linear engines disagree (seed %" PRIu64 ")", seed);
      cases++;
      rules += a.reason == BOXLINT_REASON_RULE;
      unknowns += a.verdict == BOXLINT_VERDICT_UNKNOWN;
    }
  }
  printf("check_policy: differential: %zu policies, %zu cases, %zu decided by an entry, %zu "
         "unknown\n",
         policies, cases, rules, unknowns);
  /* The generator must actually exercise the entries, or the comparison proves little. */
  ck_assert_uint_ge(cases, 10000);
  ck_assert_uint_ge(rules, cases / 5);
  ck_assert_uint_ge(unknowns, 10);
}
END_TEST

/*==============================================================================================
 * MARK: Allocation failure
 *============================================================================================*/

START_TEST(test_policy_oom) {
  const char *allow[] = {"pypi.org", "*.pythonhosted.org", "10.0.0.0/8", "2001:db8::/32",
                         "pypi.org", "*", NULL};
  const char *deny[] = {"ALL_TRAFFIC", "10.1.0.0/16", "evil.com", NULL};
  boxlint_policy_spec sp;
  memset(&sp, 0, sizeof sp);
  sp.type.ptr = "filtered";
  sp.type.len = 8;
  sp.n_allow = fill(allow_sp, allow);
  sp.allow_out = allow_sp;
  sp.n_deny = fill(deny_sp, deny);
  sp.deny_out = deny_sp;
  int succeeded = 0;
  long n;
  for (n = 0; n < 500 && !succeeded; n++) {
    failer f = {.left = n};
    boxlint_alloc a = failer_alloc(&f);
    boxlint_report *r = NULL;
    if (boxlint_report_new(&r, &a) != BOXLINT_OK) {
      ck_assert_int_eq(f.live, 0);
      continue;
    }
    boxlint_policy *p = NULL;
    boxlint_status st = boxlint_policy_new(&p, r, &sp, NULL, &a);
    if (st == BOXLINT_OK) {
      succeeded = 1;
      boxlint_decision d;
      ck_assert_int_eq(boxlint_policy_decide(&d, p, "x.pythonhosted.org", 18, NULL, 0),
                       BOXLINT_OK);
      ck_assert_int_eq(d.verdict, BOXLINT_VERDICT_ALLOW);
    } else {
      ck_assert_int_eq(st, BOXLINT_ENOMEM);
      ck_assert_ptr_null(p);
    }
    boxlint_policy_free(p);
    boxlint_report_free(r);
    ck_assert_int_eq(f.live, 0); /* nothing leaked, whatever failed */
  }
  ck_assert_msg(succeeded, "never succeeded within 500 allocations");
  ck_assert_int_gt(n, 5);
  /* Decisions allocate nothing: with an allocator that always fails, they still work. */
  failer f = {.left = -1};
  boxlint_alloc a = failer_alloc(&f);
  boxlint_policy *p = NULL;
  ck_assert_int_eq(boxlint_policy_new(&p, NULL, &sp, NULL, &a), BOXLINT_OK);
  f.left = 0;
  boxlint_decision d;
  ck_assert_int_eq(boxlint_policy_decide(&d, p, NULL, 0, "10.1.2.3", 8), BOXLINT_OK);
  ck_assert_int_eq(d.verdict, BOXLINT_VERDICT_ALLOW); /* 10.0.0.0/8 allowed */
  ck_assert_int_eq(d.index, 2);
  boxlint_policy_free(p);
  ck_assert_int_eq(f.live, 0);
}
END_TEST

/* Allocation failures while describing non-ASCII entries: BOXLINT_ENOMEM, nothing leaks, and
 * once enough memory is there, the full messages and the fix. */
START_TEST(test_policy_entry_idn_oom) {
  boxlint_span a[2] = {{"b\u00fccher.de", 10}, {"\u2603.net", 7}}, dn = {"ALL_TRAFFIC", 11};
  boxlint_policy_spec sp;
  memset(&sp, 0, sizeof sp);
  sp.type.ptr = "filtered";
  sp.type.len = 8;
  sp.allow_out = a;
  sp.n_allow = 2;
  sp.deny_out = &dn;
  sp.n_deny = 1;
  int done = 0;
  long n;
  for (n = 0; n < 500 && !done; n++) {
    failer f = {.left = n};
    boxlint_alloc al = failer_alloc(&f);
    boxlint_report *r = NULL;
    if (boxlint_report_new(&r, &al) != BOXLINT_OK) continue;
    boxlint_policy *p = NULL;
    boxlint_status st = boxlint_policy_new(&p, r, &sp, NULL, &al);
    ck_assert_ptr_null(p);
    if (st == BOXLINT_ESYNTAX) {
      done = 1;
      ck_assert_uint_eq(boxlint_report_diag_count(r), 2);
      const boxlint_diag *d = boxlint_report_diag(r, 0);
      ck_assert_str_eq(d->message,
                       "allow_out[0]: 'b\u00fccher.de' is not ASCII; its A-label is "
                       "'xn--bcher-kva.de'");
      ck_assert_ptr_nonnull(d->fix);
      ck_assert_str_eq(d->fix->text, "xn--bcher-kva.de");
      ck_assert_ptr_nonnull(strstr(boxlint_report_diag(r, 1)->message, "IDNA2008 does not"));
    } else {
      ck_assert_int_eq(st, BOXLINT_ENOMEM);
    }
    boxlint_report_free(r);
    ck_assert_int_eq(f.live, 0);
  }
  ck_assert_msg(done, "never completed within 500 allocations");
  ck_assert_int_gt(n, 3);
}
END_TEST

/*==============================================================================================
 * MARK: Suite
 *============================================================================================*/

static TCase *tc(Suite *s, const char *name) {
  TCase *t = tcase_create(name);
  tcase_add_checked_fixture(t, setup, teardown);
  tcase_set_timeout(t, 120);
  suite_add_tcase(s, t);
  return t;
}

Suite *policy_suite(void) {
  Suite *s = suite_create("policy");
  TCase *t = tc(s, "entries");
  tcase_add_test(t, test_policy_entry_normalise);
  tcase_add_test(t, test_policy_entry_every_detail);
  tcase_add_test(t, test_policy_entry_lengths);
  tcase_add_test(t, test_policy_entry_messages);
  tcase_add_test(t, test_policy_entry_message_quoting);
  tcase_add_test(t, test_policy_entry_idn_alabel);
  tcase_add_test(t, test_policy_entry_idn_refused);
  tcase_add_test(t, test_policy_entry_idn_converted);
  tcase_add_test(t, test_policy_entry_idn_ascii);
  t = tc(s, "policy");
  tcase_add_test(t, test_policy_policy_type);
  tcase_add_test(t, test_policy_policy_lists_not_allowed);
  tcase_add_test(t, test_policy_policy_limits);
  tcase_add_test(t, test_policy_policy_api);
  tcase_add_test(t, test_policy_policy_rule_table);
  t = tc(s, "warnings");
  tcase_add_test(t, test_policy_warn_allow_without_effect);
  tcase_add_test(t, test_policy_warn_deny_without_effect);
  tcase_add_test(t, test_policy_warn_filtered_empty);
  tcase_add_test(t, test_policy_warn_duplicate);
  tcase_add_test(t, test_policy_warn_shadowed);
  tcase_add_test(t, test_policy_warn_entry_kinds);
  tcase_add_test(t, test_policy_warn_config_severity);
  t = tc(s, "compat");
  tcase_add_test(t, test_policy_compat_e2b);
  t = tc(s, "decisions");
  tcase_add_test(t, test_policy_decide_reasons);
  tcase_add_test(t, test_policy_decide_precedence);
  tcase_add_test(t, test_policy_decide_specificity);
  tcase_add_test(t, test_policy_decide_names);
  tcase_add_test(t, test_policy_decide_destinations);
  tcase_add_test(t, test_policy_decide_needs_ip);
  tcase_add_test(t, test_policy_decide_unmatched_deny);
  t = tc(s, "ipv6");
  tcase_add_test(t, test_policy_decide_ipv6_mapped);
  t = tc(s, "boundaries");
  tcase_add_test(t, test_policy_decide_boundaries);
  t = tc(s, "differential");
  tcase_add_test(t, test_policy_differential);
  t = tc(s, "oom");
  tcase_add_test(t, test_policy_oom);
  tcase_add_test(t, test_policy_entry_idn_oom);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(policy_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

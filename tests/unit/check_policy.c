/* The check_policy suite (check_policy.h says what it tests), and its main(). */
#include "check_policy.h"

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
 * MARK: Suite
 *============================================================================================*/

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
  policy_add_warnings(s);
  policy_add_decisions(s);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(policy_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

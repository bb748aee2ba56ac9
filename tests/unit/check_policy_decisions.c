/* The check_policy suite, part decisions (decisions, ipv6, boundaries, differential, oom). Helpers: check_policy.h. */
#include "check_policy.h"

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

void policy_add_decisions(Suite *s) {
  TCase *t;
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
}

/* boxlint_policy_emit (lib/src/policy/emit.c): the nftables script and the dnsmasq
 * configuration, line by line, for each kind of entry and each way a name and its subdomains
 * can be told apart; the refusals (unenforceable-entry: id, path, message, hint); the options
 * and their errors; allocation failure. The kernel and dnsmasq themselves are exercised by
 * tests/oracle/netns_test.py. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boxlint/boxlint.h"
#include "failing_alloc.h"

static boxlint_report *R;
static boxlint_policy *P;
static char *OUT;
static size_t OUT_LEN;

static void setup(void) {
  ck_assert_int_eq(boxlint_report_new(&R, NULL), BOXLINT_OK);
  P = NULL;
  OUT = NULL;
}

static void teardown(void) {
  boxlint_buffer_free(OUT, NULL);
  boxlint_policy_free(P);
  boxlint_report_free(R);
}

/* Compile type/allow/deny (NULL-terminated lists) with `unmatched`. */
static void compile(const char *type, const char *const *allow, const char *const *deny,
                    boxlint_policy_unmatched unmatched) {
  boxlint_span a[16], d[16];
  size_t na = 0, nd = 0;
  for (; allow && allow[na]; na++) a[na] = (boxlint_span){allow[na], strlen(allow[na])};
  for (; deny && deny[nd]; nd++) d[nd] = (boxlint_span){deny[nd], strlen(deny[nd])};
  boxlint_policy_spec sp = {{type, strlen(type)}, a, na, d, nd};
  boxlint_policy_options o;
  boxlint_policy_options_init(&o);
  o.unmatched = unmatched;
  boxlint_policy_free(P);
  ck_assert_int_eq(boxlint_policy_new(&P, NULL, &sp, &o, NULL), BOXLINT_OK);
}

/* Emit into OUT; returns the status. `o` NULL: the defaults with the resolver 198.51.100.53
 * (raw_emit: the defaults as they are, no resolver). */
static boxlint_status raw_emit(boxlint_emit_format f, const boxlint_emit_options *o) {
  boxlint_buffer_free(OUT, NULL);
  OUT = NULL;
  boxlint_report_clear(R);
  return boxlint_policy_emit(P, f, o, R, &OUT, &OUT_LEN, NULL);
}

static const char *const RESOLVER[] = {"198.51.100.53"};

static boxlint_status emit(boxlint_emit_format f, const boxlint_emit_options *o) {
  boxlint_emit_options d;
  boxlint_emit_options_init(&d);
  d.resolvers = RESOLVER;
  d.nresolvers = 1;
  return raw_emit(f, o ? o : &d);
}

static void has_line(const char *line) {
  ck_assert_ptr_nonnull(OUT);
  size_t n = strlen(line);
  for (const char *p = OUT; (p = strstr(p, line)); p += n)
    if ((p == OUT || p[-1] == '\n' || p[-1] == '\t') && (p[n] == '\n' || p[n] == 0)) return;
  ck_abort_msg("no line \"%s\" in:\n%s", line, OUT);
}

static void no_text(const char *s) {
  ck_assert_msg(!strstr(OUT, s), "\"%s\" should not be in:\n%s", s, OUT);
}

#define L(...) ((const char *const[]){__VA_ARGS__, NULL})
#define NONE ((const char *const *)NULL)
#define SETS(x, c) "nftset=/" x "/4#inet#boxlint#" c "4,6#inet#boxlint#" c "6"

START_TEST(test_emit_nftables_networks) {
  compile("filtered", L("203.0.113.0/25", "2001:db8::/32", "::ffff:198.51.100.7"),
          L("ALL_TRAFFIC", "192.0.2.1"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_NFTABLES, NULL), BOXLINT_OK);
  ck_assert_uint_eq(strlen(OUT), OUT_LEN);
  has_line("table inet boxlint");
  has_line("delete table inet boxlint");
  has_line("elements = { 203.0.113.0/25, 198.51.100.7 }"); /* mapped: its IPv4 form */
  has_line("elements = { 2001:db8::/32 }");
  has_line("elements = { 0.0.0.0/0, 192.0.2.1 }"); /* ALL_TRAFFIC: IPv4 and IPv6 */
  has_line("elements = { ::/0 }");
  has_line("type filter hook output priority filter; policy accept;");
  has_line("oifname \"lo\" accept");
  has_line("ip daddr @allow4_net accept");
  has_line("ip6 daddr @deny6 drop");
  has_line("accept"); /* the unmatched verdict */
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
}
END_TEST

START_TEST(test_emit_nftables_types_and_options) {
  compile("disabled", NONE, NONE, BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_NFTABLES, NULL), BOXLINT_OK);
  has_line("drop");
  no_text("@allow4");
  compile("open", NONE, NONE, BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_NFTABLES, NULL), BOXLINT_OK);
  no_text("\t\tdrop\n");
  compile("filtered", L("pypi.org"), NONE, BOXLINT_UNMATCHED_DENY);
  boxlint_emit_options o;
  boxlint_emit_options_init(&o);
  const char *res[] = {"198.51.100.53", "2001:db8::53"};
  o.table = "sandbox_1";
  o.iifname = "veth.sb0";
  o.resolvers = res;
  o.nresolvers = 2;
  ck_assert_int_eq(emit(BOXLINT_EMIT_NFTABLES, &o), BOXLINT_OK);
  has_line("table inet sandbox_1 {");
  has_line("type filter hook forward priority filter; policy accept;");
  has_line("iifname != \"veth.sb0\" accept");
  has_line("ip daddr 198.51.100.53 meta l4proto { tcp, udp } th dport 53 accept");
  has_line("ip6 daddr 2001:db8::53 meta l4proto { tcp, udp } th dport 53 accept");
  has_line("drop"); /* --unmatched deny */
  ck_assert_int_eq(emit(BOXLINT_EMIT_DNSMASQ, &o), BOXLINT_OK);
  has_line("server=198.51.100.53");
  has_line("server=2001:db8::53");
  has_line("nftset=/pypi.org/4#inet#sandbox_1#allow4,6#inet#sandbox_1#allow6");
  /* bad options */
  const char *bad_res[] = {"pypi.org"};
  o.resolvers = bad_res;
  o.nresolvers = 1;
  ck_assert_int_eq(emit(BOXLINT_EMIT_NFTABLES, &o), BOXLINT_EINVAL);
  ck_assert_ptr_null(OUT);
  boxlint_emit_options_init(&o);
  o.table = "two words";
  ck_assert_int_eq(emit(BOXLINT_EMIT_NFTABLES, &o), BOXLINT_EINVAL);
  o.table = "boxlint";
  o.iifname = "an-interface-name-too-long";
  ck_assert_int_eq(emit(BOXLINT_EMIT_NFTABLES, &o), BOXLINT_EINVAL);
  ck_assert_int_eq(emit((boxlint_emit_format)7, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_policy_emit(NULL, BOXLINT_EMIT_NFTABLES, NULL, R, &OUT, &OUT_LEN, NULL),
                   BOXLINT_EINVAL);
}
END_TEST

/* The seed's Quick Start policy: pypi.org alone (its subdomains refused by the resolver) and
 * the subdomains of pythonhosted.org alone (the apex refused). */
START_TEST(test_emit_dnsmasq_quick_start) {
  compile("filtered", L("pypi.org", "*.pythonhosted.org"), L("ALL_TRAFFIC"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_DNSMASQ, NULL), BOXLINT_OK);
  has_line(SETS("pypi.org", "allow"));
  has_line("server=/pypi.org/#");
  has_line("address=/*.pypi.org/");
  has_line(SETS("pythonhosted.org", "allow"));
  has_line("address=/pythonhosted.org/");
  has_line("server=/*.pythonhosted.org/#");
  no_text("\nnftset=/#/");
}
END_TEST

START_TEST(test_emit_dnsmasq_classes) {
  /* apex and subdomains alike: one line each, nothing refused by the resolver */
  compile("filtered", L("pypi.org", "*.pypi.org"), L("ALL_TRAFFIC"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_DNSMASQ, NULL), BOXLINT_OK);
  has_line(SETS("pypi.org", "allow"));
  no_text("\naddress=");
  no_text("\nserver=/");
  /* a denied name, unmatched allowed: the apex is refused, its subdomains go to no set */
  compile("filtered", NONE, L("example.test"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_DNSMASQ, NULL), BOXLINT_OK);
  has_line(SETS("example.test", "none"));
  has_line("address=/example.test/");
  has_line("server=/*.example.test/#");
  /* allow beats deny; a deeper allowed name keeps its own line */
  compile("filtered", L("a.example.test"), L("*.example.test"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_DNSMASQ, NULL), BOXLINT_OK);
  has_line(SETS("example.test", "none"));
  has_line("address=/*.example.test/");
  has_line(SETS("a.example.test", "allow"));
  has_line("server=/a.example.test/#");
  /* '*': the root line */
  compile("filtered", L("*"), L("ALL_TRAFFIC"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_DNSMASQ, NULL), BOXLINT_OK);
  has_line(SETS("#", "allow"));
  compile("filtered", L("pypi.org"), L("*"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_DNSMASQ, NULL), BOXLINT_OK);
  has_line(SETS("#", "deny"));
  has_line(SETS("pypi.org", "allow"));
  has_line("address=/*.pypi.org/");
  /* names decide nothing: allow_out has ALL_TRAFFIC, or the type is not filtered */
  compile("filtered", L("ALL_TRAFFIC"), L("pypi.org"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_DNSMASQ, NULL), BOXLINT_OK);
  no_text("\nnftset=");
  compile("disabled", NONE, NONE, BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_DNSMASQ, NULL), BOXLINT_OK);
  no_text("\nnftset=");
  /* a name and its subdomains both allowed whatever the address: one allow line */
  compile("filtered", L("pypi.org"), NONE, BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_DNSMASQ, NULL), BOXLINT_OK);
  has_line(SETS("pypi.org", "allow"));
  no_text("\naddress=");
}
END_TEST

START_TEST(test_emit_refused) {
  compile("filtered", L("pypi.org", "203.0.113.0/26"), L("ALL_TRAFFIC"), BOXLINT_UNMATCHED_ALLOW);
  for (int f = 0; f < 2; f++) {
    ck_assert_int_eq(emit((boxlint_emit_format)f, NULL), BOXLINT_OK);
    ck_assert_ptr_null(OUT);
    ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
    const boxlint_diag *d = boxlint_report_diag(R, 0);
    ck_assert_str_eq(d->rule, "unenforceable-entry");
    ck_assert_int_eq(d->severity, BOXLINT_SEVERITY_ERROR);
    ck_assert_str_eq(d->path, "network_policy.allow_out[0]");
    ck_assert_ptr_nonnull(strstr(d->message, "allow_out[0]: 'pypi.org': pypi.org is allowed and "
                                             "its subdomains are decided by their address"));
    ck_assert_str_eq(d->hint, "give pypi.org and its subdomains the same verdict: add "
                              "'*.pypi.org' to allow_out");
  }
  /* a wildcard whose apex is decided by its address, while the deny list has one */
  compile("filtered", L("*.example.test"), L("b.example.test", "203.0.113.139"),
          BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_NFTABLES, NULL), BOXLINT_OK);
  ck_assert_ptr_null(OUT);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
  ck_assert_str_eq(boxlint_report_diag(R, 0)->path, "network_policy.allow_out[0]");
  ck_assert_str_eq(boxlint_report_diag(R, 0)->hint, "give example.test and its subdomains the "
                                                    "same verdict: add 'example.test' to allow_out");
  const boxlint_rule_info *ri = boxlint_rule_find("unenforceable-entry", 19);
  ck_assert_ptr_nonnull(ri);
  ck_assert_int_eq(ri->severity, BOXLINT_SEVERITY_ERROR);
}
END_TEST

/* DNS is never cut by surprise: names, a deny-all and no resolver are refused (one error at the
 * entry that drops every address, the fix as its hint); with a resolver, or with no name in the
 * policy, or with nothing dropped by default, the rules are written. */
START_TEST(test_emit_needs_resolver) {
  static const char *const cases[][4] = {
      /* allow, deny, unmatched ("d": deny), the refusal's path */
      {"pypi.org", "ALL_TRAFFIC", "", "network_policy.deny_out[1]"},
      {"*.pythonhosted.org", "0.0.0.0/0", "", "network_policy.deny_out[1]"},
      {"pypi.org", "::/0", "", "network_policy.deny_out[1]"},
      {"pypi.org", "", "d", "network_policy.type"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    const char *deny[] = {"203.0.113.9", *cases[k][1] ? cases[k][1] : NULL, NULL};
    compile("filtered", L(cases[k][0]), deny,
            *cases[k][2] ? BOXLINT_UNMATCHED_DENY : BOXLINT_UNMATCHED_ALLOW);
    ck_assert_int_eq(boxlint_policy_needs_resolver(P), 1);
    for (int f = 0; f < 2; f++) {
      ck_assert_int_eq(raw_emit((boxlint_emit_format)f, NULL), BOXLINT_OK);
      ck_assert_ptr_null(OUT);
      ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
      const boxlint_diag *d = boxlint_report_diag(R, 0);
      ck_assert_str_eq(d->rule, "unenforceable-entry");
      ck_assert_int_eq(d->severity, BOXLINT_SEVERITY_ERROR);
      ck_assert_str_eq(d->path, cases[k][3]);
      ck_assert_ptr_nonnull(strstr(d->message, "no resolver given: "));
      ck_assert_ptr_nonnull(strstr(d->message, "would block all DNS, so none are written"));
      ck_assert_ptr_nonnull(strstr(d->hint, "--resolver ADDR"));
      /* with a resolver: written, or refused for another reason (a name alone beside a deny
       * network is unenforceable-entry of its own) */
      ck_assert_int_eq(emit((boxlint_emit_format)f, NULL), BOXLINT_OK);
      ck_assert(OUT || boxlint_report_diag_count(R) > 0);
      for (size_t i = 0; i < boxlint_report_diag_count(R); i++)
        ck_assert_ptr_null(strstr(boxlint_report_diag(R, i)->message, "no resolver"));
    }
  }
  compile("filtered", L("pypi.org"), L("ALL_TRAFFIC"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(raw_emit(BOXLINT_EMIT_NFTABLES, NULL), BOXLINT_OK);
  ck_assert_str_eq(boxlint_report_diag(R, 0)->message,
                   "no resolver given: deny_out[0] 'ALL_TRAFFIC' drops every address the policy "
                   "does not allow, the resolver among them, while the policy names hosts, which "
                   "resolve only through a resolver; rules without its address would block all "
                   "DNS, so none are written");
  /* no resolver needed: no name, names without a deny-all, ALL_TRAFFIC allowed, not filtered */
  static const char *const fine[][2] = {
      {"203.0.113.0/24", "ALL_TRAFFIC"}, {"pypi.org", "evil.example"},
      {"ALL_TRAFFIC", "pypi.org"},       {"", "evil.example"}};
  for (size_t k = 0; k < sizeof fine / sizeof *fine; k++) {
    const char *allow[] = {*fine[k][0] ? fine[k][0] : NULL, NULL};
    compile("filtered", allow, L(fine[k][1]), BOXLINT_UNMATCHED_ALLOW);
    ck_assert_int_eq(boxlint_policy_needs_resolver(P), 0);
    ck_assert_int_eq(raw_emit(BOXLINT_EMIT_NFTABLES, NULL), BOXLINT_OK);
    ck_assert_ptr_nonnull(OUT);
    ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
  }
  compile("disabled", NONE, NONE, BOXLINT_UNMATCHED_DENY);
  ck_assert_int_eq(boxlint_policy_needs_resolver(P), 0);
  ck_assert_int_eq(raw_emit(BOXLINT_EMIT_DNSMASQ, NULL), BOXLINT_OK);
  ck_assert_ptr_nonnull(OUT);
  ck_assert_int_eq(boxlint_policy_needs_resolver(NULL), 0);
}
END_TEST

/* Allocation failure at every step: ENOMEM or a complete result, nothing leaks (ASan). */

/* The proxy layer: one hostnames map per protocol whose lines give each name the verdict
 * boxlint_policy_decide gives it (exact names, `*.` at any depth and never the apex, allow over
 * deny, `*`, ALL_TRAFFIC, unmatched), the resolver, the user and the ports. */
START_TEST(test_emit_nginx_maps) {
  ck_assert_str_eq(boxlint_emit_format_str(BOXLINT_EMIT_NGINX), "nginx");
  ck_assert_ptr_null(boxlint_emit_format_str((boxlint_emit_format)3));
  compile("filtered", L("allowed.test", "*.pythonhosted.org", "pypi.org"),
          L("ALL_TRAFFIC", "denied.test", "pypi.org"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_NGINX, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
  has_line("load_module /usr/lib/nginx/modules/ngx_stream_module.so;");
  has_line("user www-data;");
  has_line("resolver 198.51.100.53 ipv6=on;");
  has_line("listen 127.0.0.1:15443;");
  has_line("listen [::1]:15080 default_server;");
  has_line("ssl_preread on;");
  has_line("proxy_pass $boxlint_tls_upstream;");
  has_line("1allow $ssl_preread_server_name:443;");
  has_line("proxy_set_header Host $host;");
  has_line("default deny;");
  has_line("~^[0-9.]+$ deny;");
  has_line("allowed.test allow;");
  has_line("*.allowed.test deny;");
  has_line("pythonhosted.org deny;");
  has_line("*.pythonhosted.org allow;");
  has_line("pypi.org allow;"); /* in both lists: allow wins */
  has_line("denied.test deny;");
  no_text("ssl_certificate"); /* never decrypts */
  /* a one-label name that is a word of nginx's map: escaped, not taken as the default */
  compile("filtered", L("default", "include"), L("ALL_TRAFFIC"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_NGINX, NULL), BOXLINT_OK);
  has_line("\\default allow;");
  has_line("\\include allow;");
  has_line("*.default deny;");
  has_line("default deny;");
  /* wildcards at depth, unmatched deny */
  compile("filtered", L("*.a.example.test"), L("*.example.test"), BOXLINT_UNMATCHED_DENY);
  ck_assert_int_eq(emit(BOXLINT_EMIT_NGINX, NULL), BOXLINT_OK);
  has_line("*.a.example.test allow;");
  has_line("a.example.test deny;");
  has_line("*.example.test deny;");
  has_line("example.test deny;");
  has_line("default deny;");
  /* a deny-list: what it does not name is allowed, IP literals too */
  compile("filtered", NONE, L("denied.test", "*.denied.test"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_NGINX, NULL), BOXLINT_OK);
  has_line("default allow;");
  has_line("~^[0-9.]+$ allow;");
  has_line("denied.test deny;");
  has_line("*.denied.test deny;");
  /* `*`: every name, not an IP literal */
  compile("filtered", L("*"), L("ALL_TRAFFIC", "pypi.org"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_NGINX, NULL), BOXLINT_OK);
  has_line("default allow;");
  has_line("~^[0-9.]+$ deny;");
  has_line("pypi.org allow;");
  /* ALL_TRAFFIC allowed, open, disabled */
  compile("filtered", L("ALL_TRAFFIC"), L("pypi.org"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_NGINX, NULL), BOXLINT_OK);
  has_line("default allow;");
  no_text("pypi.org");
  compile("open", NONE, NONE, BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_NGINX, NULL), BOXLINT_OK);
  has_line("default allow;");
  compile("disabled", NONE, NONE, BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(raw_emit(BOXLINT_EMIT_NGINX, NULL), BOXLINT_OK); /* no resolver needed */
  has_line("default deny;");
  has_line("resolver 127.0.0.1;");
  /* options: user, ports, the forward hook's listeners, an IPv6 resolver */
  static const char *const res6[] = {"2001:db8::53"};
  boxlint_emit_options o;
  boxlint_emit_options_init(&o);
  o.resolvers = res6;
  o.nresolvers = 1;
  o.proxy_user = "boxlint-proxy";
  o.proxy_http_port = 8081;
  o.proxy_tls_port = 8443;
  o.iifname = "veth1";
  ck_assert_int_eq(raw_emit(BOXLINT_EMIT_NGINX, &o), BOXLINT_OK);
  has_line("user boxlint-proxy;");
  has_line("resolver [2001:db8::53] ipv6=on;");
  has_line("listen 8443;");
  has_line("listen [::]:8081 default_server;");
}
END_TEST

/* What the proxy cannot decide by the name alone is refused at the entry that makes a name's
 * verdict depend on its address; without a resolver, allowed names are refused at the type. */
START_TEST(test_emit_nginx_refused) {
  static const char *const cases[][5] = {
      /* allow, deny, unmatched ("d": deny), path, message start ("" when written) */
      {"pypi.org|203.0.113.0/26", "ALL_TRAFFIC", "", "network_policy.allow_out[1]",
       "allow_out[1]: '203.0.113.0/26': allow_out allows an address whatever name"},
      {"", "pypi.org|203.0.113.0/25", "", "network_policy.deny_out[1]",
       "deny_out[1]: '203.0.113.0/25': deny_out names some addresses but not all"},
      {"pypi.org", "0.0.0.0/0", "", "", ""}, /* as ALL_TRAFFIC: every address */
      {"pypi.org", "::/0", "", "network_policy.deny_out[0]",
       "deny_out[0]: '::/0': deny_out names some addresses but not all"},
      {"pypi.org", "203.0.113.0/25", "d", "", ""},
      {"ALL_TRAFFIC|203.0.113.7", "pypi.org", "", "", ""},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    const char *a[4] = {0}, *d[4] = {0};
    char buf[2][64];
    for (int l = 0; l < 2; l++) {
      snprintf(buf[l], sizeof buf[l], "%s", cases[k][l]);
      const char **dst = l ? d : a;
      int n = 0;
      for (char *t = strtok(buf[l], "|"); t; t = strtok(NULL, "|")) dst[n++] = t;
    }
    compile("filtered", a, d, *cases[k][2] ? BOXLINT_UNMATCHED_DENY : BOXLINT_UNMATCHED_ALLOW);
    ck_assert_int_eq(emit(BOXLINT_EMIT_NGINX, NULL), BOXLINT_OK);
    if (!*cases[k][3]) {
      ck_assert_msg(OUT != NULL, "case %zu refused", k);
      ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
      continue;
    }
    ck_assert_msg(OUT == NULL, "case %zu written", k);
    ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
    const boxlint_diag *dg = boxlint_report_diag(R, 0);
    ck_assert_str_eq(dg->rule, "unenforceable-entry");
    ck_assert_int_eq(dg->severity, BOXLINT_SEVERITY_ERROR);
    ck_assert_str_eq(dg->path, cases[k][3]);
    ck_assert_msg(!strncmp(dg->message, cases[k][4], strlen(cases[k][4])), "%s", dg->message);
    ck_assert_ptr_nonnull(strstr(dg->message, "no nginx configuration enforces this policy"));
    ck_assert_ptr_nonnull(dg->hint);
  }
  /* no resolver: allowed names cannot be connected to */
  compile("filtered", NONE, L("pypi.org"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(raw_emit(BOXLINT_EMIT_NGINX, NULL), BOXLINT_OK);
  ck_assert_ptr_null(OUT);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
  ck_assert_str_eq(boxlint_report_diag(R, 0)->path, "network_policy.type");
  ck_assert_ptr_nonnull(strstr(boxlint_report_diag(R, 0)->message, "no resolver given"));
  ck_assert_ptr_nonnull(boxlint_report_diag(R, 0)->hint);
}
END_TEST

/* The script's side of the proxy layer: TCP 80 and 443 redirected except the proxy's own, the
 * proxy's connections accepted, QUIC dropped; nothing of it without proxy_user; bad options. */
START_TEST(test_emit_nftables_proxy) {
  compile("filtered", L("pypi.org"), L("ALL_TRAFFIC"), BOXLINT_UNMATCHED_ALLOW);
  ck_assert_int_eq(emit(BOXLINT_EMIT_NFTABLES, NULL), BOXLINT_OK);
  no_text("redirect");
  no_text("udp dport 443");
  boxlint_emit_options o;
  boxlint_emit_options_init(&o);
  o.resolvers = RESOLVER;
  o.nresolvers = 1;
  o.proxy_user = "www-data";
  ck_assert_int_eq(raw_emit(BOXLINT_EMIT_NFTABLES, &o), BOXLINT_OK);
  has_line("type nat hook output priority -100; policy accept;");
  has_line("meta skuid \"www-data\" accept");
  has_line("tcp dport 80 redirect to :15080");
  has_line("tcp dport 443 redirect to :15443");
  has_line("ip daddr 127.0.0.1 tcp dport { 15080, 15443 } accept");
  has_line("ip6 daddr ::1 tcp dport { 15080, 15443 } accept");
  has_line("# TCP 80 and 443 go to the proxy (boxlint policy --emit nginx) on ports 15080 and 15443,");
  has_line("meta skuid \"www-data\" tcp dport { 80, 443 } accept");
  has_line("udp dport 443 drop");
  o.iifname = "veth1";
  ck_assert_int_eq(raw_emit(BOXLINT_EMIT_NFTABLES, &o), BOXLINT_OK);
  has_line("type nat hook prerouting priority -100; policy accept;");
  has_line("iifname != \"veth1\" accept");
  has_line("udp dport 443 drop");
  no_text("skuid");
  o.iifname = NULL;
  o.proxy_user = "bad user";
  ck_assert_int_eq(raw_emit(BOXLINT_EMIT_NFTABLES, &o), BOXLINT_EINVAL);
  o.proxy_user = "www-data";
  o.proxy_tls_port = 0;
  ck_assert_int_eq(raw_emit(BOXLINT_EMIT_NGINX, &o), BOXLINT_EINVAL);
  o.proxy_tls_port = 70000;
  ck_assert_int_eq(raw_emit(BOXLINT_EMIT_NFTABLES, &o), BOXLINT_EINVAL);
  o.proxy_tls_port = o.proxy_http_port;
  ck_assert_int_eq(raw_emit(BOXLINT_EMIT_NFTABLES, &o), BOXLINT_EINVAL);
  ck_assert_int_eq(raw_emit((boxlint_emit_format)3, NULL), BOXLINT_EINVAL);
}
END_TEST


START_TEST(test_emit_oom) {
  compile("filtered", L("pypi.org", "*.pythonhosted.org", "203.0.113.0/24"), L("ALL_TRAFFIC"),
          BOXLINT_UNMATCHED_ALLOW);
  failer fa = {.left = 0};
  boxlint_alloc a = failer_alloc(&fa);
  int ok = 0;
  for (int f = 0; f < 3; f++) {
    for (int k = 0; k < 40; k++) {
      fa.left = k;
      boxlint_report_clear(R);
      char *out = NULL;
      size_t n = 0;
      boxlint_emit_options o;
      boxlint_emit_options_init(&o);
      o.resolvers = RESOLVER;
      o.nresolvers = 1;
      boxlint_status st = boxlint_policy_emit(P, (boxlint_emit_format)f, &o, R, &out, &n, &a);
      ck_assert(st == BOXLINT_OK || st == BOXLINT_ENOMEM);
      if (st == BOXLINT_ENOMEM) ck_assert_ptr_null(out);
      else ok++;
      boxlint_buffer_free(out, &a);
    }
  }
  ck_assert_int_gt(ok, 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("check_emit");
  TCase *t = tcase_create("emit");
  tcase_add_checked_fixture(t, setup, teardown);
  tcase_add_test(t, test_emit_nftables_networks);
  tcase_add_test(t, test_emit_nftables_types_and_options);
  tcase_add_test(t, test_emit_dnsmasq_quick_start);
  tcase_add_test(t, test_emit_dnsmasq_classes);
  tcase_add_test(t, test_emit_refused);
  tcase_add_test(t, test_emit_needs_resolver);
  tcase_add_test(t, test_emit_nginx_maps);
  tcase_add_test(t, test_emit_nginx_refused);
  tcase_add_test(t, test_emit_nftables_proxy);
  tcase_add_test(t, test_emit_oom);
  suite_add_tcase(s, t);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

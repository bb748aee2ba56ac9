/* The check_policy suite, part warnings (warnings, compat). Helpers: check_policy.h. */
#include "check_policy.h"

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

void policy_add_warnings(Suite *s) {
  TCase *t;
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
}

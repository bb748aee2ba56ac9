/*
 * Regression tests of what the fuzzers found (fuzz/, corpus/<target>/crash-<sha1>), one test per
 * finding, and unit tests of paths that neither the other tests nor the corpus replay reach
 * (make coverage). Each fuzz finding's test names the target and the crasher file.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxlint/boxlint.h"
#include "failing_alloc.h"
#include "report/internal.h"

/*==============================================================================================
 * Helpers
 *============================================================================================*/

static boxlint_report *R;
static boxlint_config *C;

static void setup(void) {
  ck_assert_int_eq(boxlint_report_new(&R, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_config_new(&C, NULL), BOXLINT_OK);
}
static void teardown(void) {
  boxlint_report_free(R);
  boxlint_config_free(C);
  R = NULL;
  C = NULL;
}

#define SP(lit) {(lit), sizeof(lit) - 1}

/* A template with every field present and valid: one command, 2 vCPUs, 1024 MiB, no name yet. */
static boxlint_template valid_template(void) {
  static const boxlint_span cmds[] = {SP("RUN true")};
  boxlint_template t;
  memset(&t, 0, sizeof t);
  t.has_name = t.has_commands = 1;
  t.commands = cmds;
  t.ncommands = 1;
  t.cpu_count.present = t.cpu_count.is_integer = 1;
  t.cpu_count.value = 2;
  t.memory_mb.present = t.memory_mb.is_integer = 1;
  t.memory_mb.value = 1024;
  return t;
}

/* Check a literal as one command, with or without the config. */
#define CHECK1(lit, cfg) check1((lit), sizeof(lit) - 1, (cfg))
static void check1(const char *p, size_t n, const boxlint_config *cfg) {
  boxlint_options o;
  boxlint_options_init(&o);
  o.config = cfg;
  boxlint_span s = {p, n};
  boxlint_report_clear(R);
  ck_assert_int_eq(boxlint_check_commands(R, &s, 1, &o), BOXLINT_OK);
}

static int has_rule(const char *rule) {
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++)
    if (!strcmp(boxlint_report_diag(R, i)->rule, rule)) return 1;
  return 0;
}

/* Every heredoc body of instruction `i` is a span of that instruction's text. */
static void bodies_inside(size_t i) {
  const boxlint_instruction *in = boxlint_report_instruction(R, i);
  ck_assert_ptr_nonnull(in);
  for (size_t h = 0; h < in->nheredocs; h++) {
    boxlint_span b = in->heredocs[h].body;
    ck_assert_ptr_nonnull(b.ptr);
    ck_assert(b.ptr >= in->text.ptr && b.ptr + b.len <= in->text.ptr + in->text.len);
  }
}

/*==============================================================================================
 * MARK: Fuzz findings
 *============================================================================================*/

/* config and commands fuzzers, crash-9aab4c7a... / crash-8743c6df...: after an unterminated
 * heredoc, the next heredoc of the line had a NULL body, and the secret scan offset the input
 * by (NULL - input) (UBSan pointer overflow in warnings.c). Fixed in 97b5d59, then f958593
 * dropped the heredocs after an unterminated one. */
START_TEST(test_coverage_fuzz_heredoc_after_unterminated) {
  static const char cmd[] = "RUN <<A <<B";
  CHECK1(cmd, C);
  ck_assert(has_rule("unterminated-heredoc"));
  /* The heredocs after the unterminated one are never read (the list stops at it). */
  const boxlint_instruction *in = boxlint_report_instruction(R, 0);
  ck_assert_uint_eq(in->nheredocs, 1);
  bodies_inside(0);
  /* The same in a fragment, split and checked. */
  static const char frag[] = "FROM x\nRUN <<A cat - <<-'B'\nbody\n";
  ck_assert_int_eq(boxlint_split_fragment(R, frag, sizeof frag - 1, NULL), BOXLINT_OK);
  bodies_inside(1);
  boxlint_options o;
  boxlint_options_init(&o);
  o.config = C;
  boxlint_report_clear(R);
  ck_assert_int_eq(boxlint_check_fragment(R, frag, sizeof frag - 1, &o), BOXLINT_OK);
  bodies_inside(1);
}
END_TEST

/* policy_compile fuzzer, out-of-memory mode (crash-16b04345...): a message that could not be
 * printed was left NULL, and an incomplete report came back as ESYNTAX. */
START_TEST(test_coverage_fuzz_policy_oom_messages) {
  static const boxlint_span allow[] = {SP("pypi.org"), SP("bad entry"), SP("a.com"), SP("a.com"),
                                       SP("0.0.0.0/1"), SP("*.com")};
  static const boxlint_span deny[] = {SP("*"), SP("::/0"), SP("1.2.3.4:80")};
  boxlint_policy_spec spec = {SP("filtered"), allow, 6, deny, 3};
  size_t done = 0;
  for (size_t n = 0; n < 400 && !done; n++) {
    failer f = {.left = (long)n};
    boxlint_alloc a = failer_alloc(&f);
    boxlint_report *r = NULL;
    if (boxlint_report_new(&r, &a) != BOXLINT_OK) continue;
    boxlint_policy *p = NULL;
    boxlint_status st = boxlint_policy_new(&p, r, &spec, NULL, &a);
    ck_assert_ptr_null(p);
    for (size_t i = 0; i < boxlint_report_diag_count(r); i++)
      ck_assert_ptr_nonnull(boxlint_report_diag(r, i)->message);
    if (st == BOXLINT_ESYNTAX) {
      /* Only a complete report is ESYNTAX: both invalid entries are in it. */
      size_t invalid = 0;
      for (size_t i = 0; i < boxlint_report_diag_count(r); i++)
        invalid += !strcmp(boxlint_report_diag(r, i)->rule, "invalid-policy-entry");
      ck_assert_uint_eq(invalid, 2);
      done = 1;
    } else {
      ck_assert_int_eq(st, BOXLINT_ENOMEM);
    }
    boxlint_report_free(r);
  }
  ck_assert(done);
}
END_TEST

/* policy_compile fuzzer, oracle (c) (crash-31623d81...): "ALL_TRAFFIC." was the domain
 * "all_traffic", whose normalised text reads back as ALL_TRAFFIC. It is refused now; the
 * keyword itself, other spellings and a wildcard keep their meaning, and every accepted
 * entry's text re-parses to itself. */
START_TEST(test_coverage_fuzz_all_traffic_trailing_dot) {
  boxlint_policy_entry e, again;
  static const char *const refused[] = {"ALL_TRAFFIC.", "all_traffic.", "All_Traffic."};
  for (size_t i = 0; i < 3; i++) {
    ck_assert_int_eq(boxlint_policy_entry_parse(&e, refused[i], 12), BOXLINT_ESYNTAX);
    ck_assert_str_eq(e.detail, "label-syntax");
  }
  static const char *const ok[] = {"ALL_TRAFFIC", "all_traffic", "*.all_traffic",
                                   "all_traffic.example", "all_traffics.", "_all_traffic."};
  for (size_t i = 0; i < 6; i++) {
    ck_assert_int_eq(boxlint_policy_entry_parse(&e, ok[i], strlen(ok[i])), BOXLINT_OK);
    ck_assert_int_eq(boxlint_policy_entry_parse(&again, e.text, e.text_len), BOXLINT_OK);
    ck_assert_str_eq(again.text, e.text);
    ck_assert_int_eq(again.kind, e.kind);
  }
  /* In a policy: one error, the message says what it is. */
  static const boxlint_span allow[] = {SP("pypi.org")};
  static const boxlint_span deny[] = {SP("ALL_TRAFFIC.")};
  boxlint_policy_spec spec = {SP("filtered"), allow, 1, deny, 1};
  boxlint_policy *p = NULL;
  ck_assert_int_eq(boxlint_policy_new(&p, R, &spec, NULL, NULL), BOXLINT_ESYNTAX);
  ck_assert(has_rule("invalid-policy-entry"));
  const boxlint_diag *d = boxlint_report_diag(R, 0);
  ck_assert_ptr_nonnull(strstr(d->message, "trailing dot"));
  ck_assert_str_eq(d->hint, "write ALL_TRAFFIC for all traffic");
  /* A destination host spelled so is just a host name. */
  static const boxlint_span deny2[] = {SP("ALL_TRAFFIC")};
  spec.deny_out = deny2;
  boxlint_report_clear(R);
  ck_assert_int_eq(boxlint_policy_new(&p, R, &spec, NULL, NULL), BOXLINT_OK);
  boxlint_decision dec;
  ck_assert_int_eq(boxlint_policy_decide(&dec, p, "all_traffic.", 12, NULL, 0), BOXLINT_OK);
  ck_assert_int_eq(dec.verdict, BOXLINT_VERDICT_DENY);
  boxlint_policy_free(p);
}
END_TEST

/* config fuzzer (crash-99cdb3ea...): a user rule whose pattern matches the empty logical line of
 * "\\" mapped its match back to the input with NULL + 0 (UBSan, clang): the reader had pushed
 * no segment, so the segment array was still NULL. */
START_TEST(test_coverage_fuzz_user_rule_empty_logical_line) {
  boxlint_user_rule u = {SP("m"), BOXLINT_SEVERITY_WARNING, BOXLINT_KW_NONE, SP(""), SP("")};
  ck_assert_int_eq(boxlint_config_add_rule(C, &u, NULL), BOXLINT_OK);
  boxlint_report_free(R); /* a fresh report: no scratch segments yet */
  ck_assert_int_eq(boxlint_report_new(&R, NULL), BOXLINT_OK);
  CHECK1("\\", C);
  ck_assert(has_rule("dangling-continuation"));
}
END_TEST

/* template fuzzer (crash-b10ab9d8...): invalid-name set the offset of the bad character but left
 * end_offset 0, an end before the start. The range now covers the character. */
START_TEST(test_coverage_fuzz_invalid_name_range) {
  boxlint_template t = valid_template();
  static const struct { const char *name; size_t off, end; } cases[] = {
      {"m&", 1, 2}, {"my-t\xc3\xa9mplate", 4, 6}, {"ab\xff", 2, 3}};
  for (size_t i = 0; i < 3; i++) {
    t.name.ptr = cases[i].name;
    t.name.len = strlen(cases[i].name);
    boxlint_report_clear(R);
    ck_assert_int_eq(boxlint_check_template(R, &t, NULL), BOXLINT_OK);
    ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
    const boxlint_diag *d = boxlint_report_diag(R, 0);
    ck_assert_str_eq(d->rule, "invalid-name");
    ck_assert_uint_eq(d->offset, cases[i].off);
    ck_assert_uint_eq(d->end_offset, cases[i].end);
  }
}
END_TEST

/*==============================================================================================
 * MARK: API edges (paths the corpus replay cannot reach)
 *============================================================================================*/

START_TEST(test_coverage_api_names) {
  static const boxlint_status st[] = {BOXLINT_OK, BOXLINT_EINVAL, BOXLINT_ENOMEM,
                                      BOXLINT_ESYNTAX, BOXLINT_ELIMIT, BOXLINT_EREGEX};
  static const char *const st_names[] = {"BOXLINT_OK", "BOXLINT_EINVAL", "BOXLINT_ENOMEM",
                                         "BOXLINT_ESYNTAX", "BOXLINT_ELIMIT", "BOXLINT_EREGEX"};
  for (size_t i = 0; i < 6; i++) ck_assert_str_eq(boxlint_status_str(st[i]), st_names[i]);
  ck_assert_str_eq(boxlint_status_str((boxlint_status)-99), "unknown");
  ck_assert_str_eq(boxlint_severity_str(BOXLINT_SEVERITY_OFF), "off");
  ck_assert_str_eq(boxlint_severity_str(BOXLINT_SEVERITY_INFO), "info");
  ck_assert_str_eq(boxlint_severity_str(BOXLINT_SEVERITY_WARNING), "warning");
  ck_assert_str_eq(boxlint_severity_str(BOXLINT_SEVERITY_ERROR), "error");
  ck_assert_str_eq(boxlint_severity_str((boxlint_severity)9), "off");
  ck_assert_str_eq(boxlint_policy_type_str(BOXLINT_POLICY_DISABLED), "disabled");
  ck_assert_str_eq(boxlint_policy_type_str(BOXLINT_POLICY_OPEN), "open");
  ck_assert_str_eq(boxlint_policy_type_str(BOXLINT_POLICY_FILTERED), "filtered");
  ck_assert_str_eq(boxlint_policy_type_str((boxlint_policy_type)9), "");
  ck_assert_str_eq(boxlint_policy_list_str(BOXLINT_LIST_ALLOW_OUT), "allow_out");
  ck_assert_str_eq(boxlint_policy_list_str(BOXLINT_LIST_DENY_OUT), "deny_out");
  ck_assert_ptr_null(boxlint_policy_list_str(BOXLINT_LIST_NONE));
  ck_assert_ptr_null(boxlint_policy_list_str((boxlint_policy_list)5));
  ck_assert_str_eq(boxlint_verdict_str(BOXLINT_VERDICT_ALLOW), "allow");
  ck_assert_str_eq(boxlint_verdict_str(BOXLINT_VERDICT_DENY), "deny");
  ck_assert_str_eq(boxlint_verdict_str(BOXLINT_VERDICT_UNKNOWN), "unknown");
  ck_assert_str_eq(boxlint_verdict_str((boxlint_verdict)9), "");
  static const char *const reasons[] = {"rule", "default", "policy-disabled", "policy-open",
                                        "invalid-destination", "needs-ip"};
  for (int i = 0; i < 6; i++)
    ck_assert_str_eq(boxlint_decision_reason_str((boxlint_decision_reason)i), reasons[i]);
  ck_assert_str_eq(boxlint_decision_reason_str((boxlint_decision_reason)9), "");
  ck_assert_str_eq(boxlint_keyword_name(BOXLINT_KW_NONE), "");
  ck_assert_str_eq(boxlint_keyword_name(BOXLINT_KW_WORKDIR), "WORKDIR");
  ck_assert_str_eq(boxlint_keyword_name((boxlint_keyword)99), "");
  ck_assert_ptr_null(boxlint_rule_find(NULL, 0));
  ck_assert_ptr_null(boxlint_rule_find("no-such-rule", 12));
  ck_assert_uint_gt(strlen(boxlint_version()), 4);
}
END_TEST

START_TEST(test_coverage_api_config_errors) {
  boxlint_error err;
  /* Severities: bad arguments, a built-in error, an unknown rule, a user rule. */
  ck_assert_int_eq(boxlint_config_set_severity(NULL, "sudo-usage", 10, BOXLINT_SEVERITY_OFF, &err),
                   BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_config_set_severity(C, NULL, 0, BOXLINT_SEVERITY_OFF, &err),
                   BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_config_set_severity(C, "sudo-usage", 10, (boxlint_severity)4, NULL),
                   BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_config_set_severity(C, "nul-byte", 8, BOXLINT_SEVERITY_OFF, &err),
                   BOXLINT_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "cannot be switched off"));
  ck_assert_int_eq(boxlint_config_set_severity(C, "no-such", 7, BOXLINT_SEVERITY_OFF, &err),
                   BOXLINT_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "unknown rule"));
  ck_assert_int_eq(boxlint_config_get_severity(C, "no-such", 7, BOXLINT_SEVERITY_INFO),
                   BOXLINT_SEVERITY_INFO);
  ck_assert_int_eq(boxlint_config_get_severity(NULL, "sudo-usage", 10, BOXLINT_SEVERITY_INFO),
                   BOXLINT_SEVERITY_INFO);
  ck_assert_int_eq(boxlint_config_get_severity(C, NULL, 0, BOXLINT_SEVERITY_INFO),
                   BOXLINT_SEVERITY_INFO);

  /* User rules: every refusal, then a rule whose severity is changed afterwards. */
  boxlint_user_rule u = {SP("my-rule"), BOXLINT_SEVERITY_WARNING, BOXLINT_KW_RUN, SP("curl"),
                         SP("no curl")};
  ck_assert_int_eq(boxlint_config_add_rule(NULL, &u, &err), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_config_add_rule(C, NULL, &err), BOXLINT_EINVAL);
  boxlint_user_rule bad = u;
  bad.id.len = 0;
  ck_assert_int_eq(boxlint_config_add_rule(C, &bad, &err), BOXLINT_EINVAL);
  static const char long_id[] = "a123456789a123456789a123456789a123456789a123456789a123456789abcde";
  bad.id = (boxlint_span)SP(long_id);
  ck_assert_int_eq(boxlint_config_add_rule(C, &bad, &err), BOXLINT_EINVAL);
  bad.id = (boxlint_span)SP("My-Rule");
  ck_assert_int_eq(boxlint_config_add_rule(C, &bad, &err), BOXLINT_EINVAL);
  ck_assert_uint_eq(err.offset, 0);
  bad.id = (boxlint_span)SP("sudo-usage");
  ck_assert_int_eq(boxlint_config_add_rule(C, &bad, &err), BOXLINT_EINVAL);
  bad = u;
  bad.severity = BOXLINT_SEVERITY_OFF;
  ck_assert_int_eq(boxlint_config_add_rule(C, &bad, &err), BOXLINT_EINVAL);
  bad = u;
  bad.pattern = (boxlint_span)SP("a(b");
  ck_assert_int_eq(boxlint_config_add_rule(C, &bad, &err), BOXLINT_EREGEX);
  ck_assert_uint_eq(err.offset, 3);
  ck_assert_int_eq(boxlint_config_add_rule(C, &u, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_config_add_rule(C, &u, &err), BOXLINT_EINVAL); /* duplicate */
  ck_assert_int_eq(boxlint_config_set_severity(C, "my-rule", 7, BOXLINT_SEVERITY_ERROR, &err),
                   BOXLINT_OK);
  ck_assert_int_eq(boxlint_config_get_severity(C, "my-rule", 7, BOXLINT_SEVERITY_OFF),
                   BOXLINT_SEVERITY_ERROR);
  ck_assert_uint_eq(boxlint_config_rule_count(C), 1);
  ck_assert_uint_eq(boxlint_config_rule_count(NULL), 0);
  ck_assert_str_eq(boxlint_config_rule_id(C, 0), "my-rule");
  ck_assert_ptr_null(boxlint_config_rule_id(C, 1));
  ck_assert_ptr_null(boxlint_config_rule_id(NULL, 0));
  boxlint_config_set_limits(NULL, 1, 1);
  boxlint_config_set_limits(C, 0, 0);
  CHECK1("RUN curl x", C);
  ck_assert(has_rule("my-rule"));
  ck_assert_int_eq(boxlint_report_diag(R, 0)->severity, BOXLINT_SEVERITY_ERROR);
  ck_assert_int_eq(boxlint_config_new(NULL, NULL), BOXLINT_EINVAL);
  boxlint_config_free(NULL);
}
END_TEST

/* Every allocation of config_new and add_rule can fail: ENOMEM, nothing leaks (ASan). */
START_TEST(test_coverage_api_config_oom) {
  boxlint_user_rule u = {SP("my-rule"), BOXLINT_SEVERITY_WARNING, BOXLINT_KW_NONE,
                         SP("(?i)curl\\s+-k"), SP("insecure")};
  int built = 0, added = 0;
  for (size_t n = 0; n < 2000 && !added; n++) {
    failer f = {.left = (long)n};
    boxlint_alloc a = failer_alloc(&f);
    boxlint_config *c = NULL;
    boxlint_status st = boxlint_config_new(&c, &a);
    if (st != BOXLINT_OK) {
      ck_assert_int_eq(st, BOXLINT_ENOMEM);
      ck_assert_ptr_null(c);
      continue;
    }
    built = 1;
    /* Several rules, so that the rule array grows past its first capacity. */
    for (int k = 0; k < 6 && st == BOXLINT_OK; k++) {
      char id[16];
      snprintf(id, sizeof id, "rule-%d", k);
      boxlint_user_rule v = u;
      v.id.ptr = id;
      v.id.len = strlen(id);
      boxlint_error err;
      st = boxlint_config_add_rule(c, &v, &err);
      if (st != BOXLINT_OK) {
        /* pcre2_compile reports a failed allocation as PCRE2_ERROR_HEAP_FAILED: ENOMEM. */
        ck_assert_int_eq(st, BOXLINT_ENOMEM);
        ck_assert_int_eq(err.code, st);
        ck_assert_uint_eq(boxlint_config_rule_count(c), (size_t)k);
      }
    }
    added = st == BOXLINT_OK;
    boxlint_config_free(c);
  }
  ck_assert(built && added);
}
END_TEST

START_TEST(test_coverage_api_template_edges) {
  static const boxlint_span extra[] = {SP("zzzzzzzzzzzzzzzzzzzz")};
  boxlint_template t = valid_template();
  t.name = (boxlint_span)SP("!!!");
  t.extra_fields = extra;
  t.nextra_fields = 1;
  ck_assert_int_eq(boxlint_check_template(R, &t, NULL), BOXLINT_OK);
  int name = 0, field = 0;
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    if (!strcmp(d->rule, "invalid-name")) {
      name = 1;
      ck_assert_ptr_nonnull(strstr(d->hint, "1-63 characters"));
      ck_assert_ptr_null(d->fix);
    }
    if (!strcmp(d->rule, "unknown-field")) {
      field = 1;
      ck_assert_ptr_nonnull(strstr(d->hint, "known fields"));
    }
  }
  ck_assert(name && field);
  ck_assert_int_eq(boxlint_check_template(NULL, &t, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_check_template(R, NULL, NULL), BOXLINT_EINVAL);
}
END_TEST

START_TEST(test_coverage_api_policy_options) {
  static const boxlint_span allow[] = {SP("pypi.org")};
  static const boxlint_span nullspan[] = {{NULL, 3}};
  boxlint_policy_spec spec = {SP("filtered"), allow, 1, NULL, 0};
  boxlint_policy *p = NULL;
  boxlint_policy_options o;
  boxlint_policy_options_init(&o);
  o.size = 1;
  ck_assert_int_eq(boxlint_policy_new(&p, R, &spec, &o, NULL), BOXLINT_EINVAL);
  boxlint_policy_options_init(&o);
  o.max_entries = BOXLINT_POLICY_HARD_MAX_ENTRIES + 1;
  ck_assert_int_eq(boxlint_policy_new(&p, R, &spec, &o, NULL), BOXLINT_EINVAL);
  boxlint_policy_options_init(&o);
  o.unmatched = (boxlint_policy_unmatched)7;
  ck_assert_int_eq(boxlint_policy_new(&p, R, &spec, &o, NULL), BOXLINT_EINVAL);
  boxlint_policy_options_init(&o);
  o.compat = 4;
  ck_assert_int_eq(boxlint_policy_new(&p, R, &spec, &o, NULL), BOXLINT_EINVAL);
  boxlint_policy_options_init(&o);
  o.path_prefix.len = 3;
  ck_assert_int_eq(boxlint_policy_new(&p, R, &spec, &o, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_policy_new(NULL, R, &spec, NULL, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_policy_new(&p, R, NULL, NULL, NULL), BOXLINT_EINVAL);
  spec.allow_out = NULL;
  ck_assert_int_eq(boxlint_policy_new(&p, R, &spec, NULL, NULL), BOXLINT_EINVAL);
  spec.allow_out = nullspan;
  ck_assert_int_eq(boxlint_policy_new(&p, R, &spec, NULL, NULL), BOXLINT_EINVAL);
  spec.allow_out = NULL;
  spec.n_allow = 0;
  spec.deny_out = nullspan;
  spec.n_deny = 1;
  ck_assert_int_eq(boxlint_policy_new(&p, R, &spec, NULL, NULL), BOXLINT_EINVAL);
  ck_assert_ptr_null(p);
  boxlint_policy_options_init(NULL);
  boxlint_policy_free(NULL);
  ck_assert_int_eq(boxlint_policy_get_type(NULL), BOXLINT_POLICY_DISABLED);
  ck_assert_uint_eq(boxlint_policy_entry_count(NULL, BOXLINT_LIST_ALLOW_OUT), 0);
  boxlint_policy_entry e;
  ck_assert_int_eq(boxlint_policy_entry_parse(NULL, "a", 1), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_policy_entry_parse(&e, NULL, 1), BOXLINT_EINVAL);
}
END_TEST

/*==============================================================================================
 * Message formatting: boxlint's own formatter must print exactly what snprintf prints
 *============================================================================================*/

#define SAME(...)                                                                                 \
  do {                                                                                            \
    char want[2048];                                                                              \
    snprintf(want, sizeof want, __VA_ARGS__);                                                     \
    const char *got = boxlint__rprintf(R, __VA_ARGS__);                                           \
    ck_assert_ptr_nonnull(got);                                                                   \
    ck_assert_str_eq(got, want);                                                                  \
  } while (0)

START_TEST(test_coverage_format_like_snprintf) {
  SAME("plain text, no conversion");
  SAME("%s and %s", "one", "");
  SAME("%.*s|%.*s|%.*s", 3, "abcdef", 10, "abc", 0, "xyz");
  SAME("%c%c%%", 'a', '\\');
  SAME("%d %d %d %d", 0, -1, INT32_MAX, INT32_MIN);
  SAME("%u %u", 0u, 4294967295u);
  SAME("%zu %zu %zu", (size_t)0, (size_t)4096, SIZE_MAX);
  SAME("%lld %lld %lld", 0ll, -9223372036854775807ll - 1, 9223372036854775807ll);
  SAME("0x%02x 0x%02x 0x%02x 0x%02x", 0u, 5u, 255u, 0x1234u);
  SAME("%s is %zu bytes, more than the limit of %zu", "command", (size_t)4097, (size_t)4096);
  /* Longer than the formatter's stack buffer: the result is still whole. */
  char big[1500];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = 0;
  SAME("<%s> %d", big, 7);
  SAME("%.*s!", 1200, big);
  /* A conversion the fast formatter does not handle goes to vsnprintf. */
  SAME("%5d|%-3s|%x", 42, "a", 255u);
}
END_TEST

/*==============================================================================================
 * Suite
 *============================================================================================*/

static Suite *coverage_suite(void) {
  Suite *s = suite_create("coverage");
  TCase *tc = tcase_create("fuzz_findings");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_coverage_fuzz_heredoc_after_unterminated);
  tcase_add_test(tc, test_coverage_fuzz_policy_oom_messages);
  tcase_add_test(tc, test_coverage_fuzz_all_traffic_trailing_dot);
  tcase_add_test(tc, test_coverage_fuzz_user_rule_empty_logical_line);
  tcase_add_test(tc, test_coverage_fuzz_invalid_name_range);
  suite_add_tcase(s, tc);
  tc = tcase_create("api");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_coverage_api_names);
  tcase_add_test(tc, test_coverage_api_config_errors);
  tcase_add_test(tc, test_coverage_api_config_oom);
  tcase_add_test(tc, test_coverage_api_template_edges);
  tcase_add_test(tc, test_coverage_api_policy_options);
  tcase_add_test(tc, test_coverage_format_like_snprintf);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(coverage_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

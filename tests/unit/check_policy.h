/* check_policy.h: what the parts of the check_policy suite share: check_policy.c and
 * check_policy_warnings.c, check_policy_decisions.c, one executable, ctest check_policy. */
#ifndef BOXLINT_TESTS_CHECK_POLICY_H
#define BOXLINT_TESTS_CHECK_POLICY_H
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

static inline void setup(void) {
  ck_assert_int_eq(boxlint_report_new(&R, NULL), BOXLINT_OK);
  P = NULL;
}

static inline void teardown(void) {
  boxlint_policy_free(P);
  P = NULL;
  boxlint_report_free(R);
  R = NULL;
}

static inline size_t fill(boxlint_span *sp, const char *const *v) {
  size_t n = 0;
  for (; v && v[n]; n++) {
    sp[n].ptr = v[n];
    sp[n].len = strlen(v[n]);
  }
  return n;
}

/* Compile into P (freeing the previous one); the report is cleared first. */
static inline boxlint_status compile_opts(const char *type, const char *const *allow,
                                          const char *const *deny,
                                          const boxlint_policy_options *o) {
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

static inline boxlint_status compile(const char *type, const char *const *allow,
                                     const char *const *deny) {
  return compile_opts(type, allow, deny, NULL);
}

static inline boxlint_status compile_mode(const char *type, const char *const *allow,
                                          const char *const *deny, unsigned compat,
                                          boxlint_policy_unmatched unmatched) {
  boxlint_policy_options o;
  boxlint_policy_options_init(&o);
  o.compat = compat;
  o.unmatched = unmatched;
  return compile_opts(type, allow, deny, &o);
}

static inline size_t count_rule(const char *rule) {
  size_t k = 0;
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++)
    k += !strcmp(boxlint_report_diag(R, i)->rule, rule);
  return k;
}

static inline const boxlint_diag *find(const char *rule, const char *path) {
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    if (!strcmp(d->rule, rule) && (!path || (d->path && !strcmp(d->path, path)))) return d;
  }
  return NULL;
}

static inline const boxlint_diag *need(const char *rule, const char *path) {
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

static inline boxlint_decision dec(const char *host, const char *ip) {
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
static inline void expect(const char *host, const char *ip, const char *verdict, const char *reason,
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
static inline boxlint_policy_entry parse(const char *s) {
  boxlint_policy_entry e;
  boxlint_status st = boxlint_policy_entry_parse(&e, s, strlen(s));
  ck_assert_int_eq(st, e.detail ? BOXLINT_ESYNTAX : BOXLINT_OK);
  return e;
}

static inline void valid(const char *in, boxlint_policy_entry_kind kind, const char *text) {
  boxlint_policy_entry e = parse(in);
  ck_assert_msg(e.detail == NULL, "'%s' rejected: %s", in, e.detail ? e.detail : "");
  ck_assert_msg(e.kind == kind, "'%s': kind %d, want %d", in, (int)e.kind, (int)kind);
  ck_assert_str_eq(e.text, text);
  ck_assert_uint_eq(e.text_len, strlen(text));
}

static inline void invalid(const char *in, const char *detail) {
  boxlint_policy_entry e = parse(in);
  ck_assert_msg(e.detail && !strcmp(e.detail, detail), "'%s': detail %s, want %s", in,
                e.detail ? e.detail : "(valid)", detail);
  ck_assert_int_eq(e.kind, BOXLINT_ENTRY_INVALID);
  ck_assert_str_eq(e.text, "");
}

/* A TCase of the suite, with the fixture. */
static inline TCase *tc(Suite *s, const char *name) {
  TCase *t = tcase_create(name);
  tcase_add_checked_fixture(t, setup, teardown);
  tcase_set_timeout(t, 120);
  suite_add_tcase(s, t);
  return t;
}

void policy_add_warnings(Suite *s);
void policy_add_decisions(Suite *s);

#endif

/* boxlint_python_policies (lib/src/python/policies.c): the NetworkPolicies of a Python file
 * handed out as values: NetworkPolicy calls and network_policy arguments, inline and through
 * names, each once, in file order, with its position; the parts known only at run time and
 * the wrong types given as such (never guessed); encodings; errors of the API; out of memory. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "boxlint/boxlint.h"
#include "failing_alloc.h"

static boxlint_report *R;
static const boxlint_python_policy *P;
static size_t N;

static void setup(void) { ck_assert_int_eq(boxlint_report_new(&R, NULL), BOXLINT_OK); }
static void teardown(void) { boxlint_report_free(R); }

/* Read `src` (copied into a buffer of exactly its length); the status must be `want`. */
static void rd(const char *src, boxlint_status want) {
  size_t n = strlen(src);
  char *b = malloc(n ? n : 1);
  memcpy(b, src, n);
  boxlint_report_clear(R);
  ck_assert_int_eq(boxlint_python_policies(R, b, n, &P, &N), want);
  free(b);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0); /* reads, never reports */
}

static void span_is(const boxlint_span *s, const char *want) {
  ck_assert_uint_eq(s->len, strlen(want));
  ck_assert(!memcmp(s->ptr, want, s->len));
}

START_TEST(test_static_policies) {
  rd("from e2b import NetworkPolicy\n"
     "ALLOW = ['pypi.org', '*.pythonhosted.org']\n"
     "p = NetworkPolicy('filtered', allow_out=ALLOW, deny_out=['ALL_TRAFFIC'])\n"
     "client.agents.add_code_interpreter('a', template_id='t', network_policy=p)\n"
     "client.agents.add_code_interpreter('b', 't', 1, 60, {'type': 'open'})\n"
     "q = NetworkPolicy(type=\"fil\" \"tered\", deny_out=(\"10.0.0.0/8\",))\n",
     BOXLINT_OK);
  ck_assert_uint_eq(N, 3);
  /* p: once, though a binding takes it; at the call */
  ck_assert_int_eq(P[0].state, BOXLINT_PYPOLICY_STATIC);
  ck_assert_ptr_null(P[0].why);
  ck_assert_uint_eq(P[0].line, 3);
  ck_assert_uint_eq(P[0].column, 5);
  ck_assert_int_eq(P[0].in_binding, 1);
  span_is(&P[0].spec.type, "filtered");
  ck_assert_uint_eq(P[0].spec.n_allow, 2);
  span_is(&P[0].spec.allow_out[1], "*.pythonhosted.org");
  ck_assert_uint_eq(P[0].spec.n_deny, 1);
  span_is(&P[0].spec.deny_out[0], "ALL_TRAFFIC");
  /* the dict of the positional network_policy */
  ck_assert_int_eq(P[1].state, BOXLINT_PYPOLICY_STATIC);
  ck_assert_uint_eq(P[1].line, 5);
  ck_assert_uint_eq(P[1].column, 53);
  span_is(&P[1].spec.type, "open");
  ck_assert_uint_eq(P[1].spec.n_allow + P[1].spec.n_deny, 0);
  /* concatenated literals decoded, a tuple */
  ck_assert_uint_eq(P[2].line, 6);
  ck_assert_int_eq(P[2].in_binding, 0);
  span_is(&P[2].spec.type, "filtered");
  span_is(&P[2].spec.deny_out[0], "10.0.0.0/8");
  ck_assert_uint_eq(P[2].offset, strlen("from e2b import NetworkPolicy\n"
                                        "ALLOW = ['pypi.org', '*.pythonhosted.org']\n"
                                        "p = NetworkPolicy('filtered', allow_out=ALLOW, deny_out=['ALL_TRAFFIC'])\n"
                                        "client.agents.add_code_interpreter('a', template_id='t', network_policy=p)\n"
                                        "client.agents.add_code_interpreter('b', 't', 1, 60, {'type': 'open'})\n"
                                        "q = "));
  ck_assert_uint_eq(P[2].end_offset - P[2].offset,
                    strlen("NetworkPolicy(type=\"fil\" \"tered\", deny_out=(\"10.0.0.0/8\",))"));
}
END_TEST

START_TEST(test_not_static_and_invalid) {
  rd("import os\n"
     "a = NetworkPolicy('filtered', allow_out=[os.environ['HOST']])\n"
     "b = NetworkPolicy(type=kind(), allow_out=['x.org'])\n"
     "client.agents.add_code_interpreter('a', template_id='t', network_policy=make())\n"
     "c = NetworkPolicy('filtered', allow_out='pypi.org')\n"
     "d = NetworkPolicy(**opts)\n"
     "e = NetworkPolicy('filtered', None, [b'x'])\n"
     "client.agents.add_code_interpreter('a', template_id='t', network_policy=None)\n"
     "client.agents.add_code_interpreter('a', **kw)\n",
     BOXLINT_OK);
  ck_assert_uint_eq(N, 7);
  ck_assert_int_eq(P[6].state, BOXLINT_PYPOLICY_NOT_STATIC);
  ck_assert_uint_eq(P[6].line, 9);
  ck_assert_uint_eq(P[6].column, 1);
  ck_assert_str_eq(P[6].why, "network_policy is possibly in unpacked arguments, known only when "
                             "the code runs");
  ck_assert_int_eq(P[0].state, BOXLINT_PYPOLICY_NOT_STATIC);
  ck_assert_ptr_nonnull(strstr(P[0].why, "allow_out[0] is "));
  ck_assert_ptr_nonnull(strstr(P[0].why, "known only when the code runs"));
  ck_assert_int_eq(P[1].state, BOXLINT_PYPOLICY_NOT_STATIC);
  ck_assert(!strncmp(P[1].why, "type is ", 8));
  ck_assert_int_eq(P[2].state, BOXLINT_PYPOLICY_NOT_STATIC);
  ck_assert_uint_eq(P[2].line, 4);
  ck_assert(!strncmp(P[2].why, "network_policy is ", 18));
  ck_assert_int_eq(P[3].state, BOXLINT_PYPOLICY_INVALID);
  ck_assert_str_eq(P[3].why, "allow_out is not a list of strings");
  ck_assert_int_eq(P[4].state, BOXLINT_PYPOLICY_NOT_STATIC);
  ck_assert_str_eq(P[4].why, "type is possibly in unpacked arguments, known only when the code runs");
  ck_assert_int_eq(P[5].state, BOXLINT_PYPOLICY_INVALID);
  ck_assert_str_eq(P[5].why, "deny_out[0] is not a string");
}
END_TEST

/* True and False are of the wrong type (allow_out=True once read as absent); None is absent. */
START_TEST(test_constants) {
  rd("NetworkPolicy('filtered', allow_out=True)\n"
     "NetworkPolicy(type=False)\n"
     "NetworkPolicy('filtered', allow_out=None, deny_out=['ALL_TRAFFIC'])\n", BOXLINT_OK);
  ck_assert_uint_eq(N, 3);
  ck_assert_int_eq(P[0].state, BOXLINT_PYPOLICY_INVALID);
  ck_assert_str_eq(P[0].why, "allow_out is not a list of strings");
  ck_assert_int_eq(P[1].state, BOXLINT_PYPOLICY_INVALID);
  ck_assert_str_eq(P[1].why, "type is not a string");
  ck_assert_int_eq(P[2].state, BOXLINT_PYPOLICY_STATIC);
  ck_assert_uint_eq(P[2].spec.n_allow, 0);
}
END_TEST

START_TEST(test_edges) {
  rd("", BOXLINT_OK);
  ck_assert_uint_eq(N, 0);
  rd("print('no SDK here')\n", BOXLINT_OK);
  ck_assert_uint_eq(N, 0);
  rd("x = NetworkPolicy('open'\n", BOXLINT_ESYNTAX);
  ck_assert_ptr_null(P);
  ck_assert_uint_eq(N, 0);
  rd("# -*- coding: latin-1 -*-\nNetworkPolicy('filtered', ['caf\xe9.org'])\n", BOXLINT_OK);
  ck_assert_uint_eq(N, 1);
  span_is(&P[0].spec.allow_out[0], "caf\xc3\xa9.org"); /* decoded to UTF-8 */
  ck_assert_uint_eq(P[0].offset, 26);
  rd("# -*- coding: klingon -*-\nNetworkPolicy('open')\n", BOXLINT_ESYNTAX);
  /* a broken file that cannot reach the SDK is no error: it has no policy */
  rd("# -*- coding: klingon -*-\n", BOXLINT_OK);
  ck_assert_uint_eq(N, 0);
  rd("x = Policy('open'\n", BOXLINT_OK);
  ck_assert_uint_eq(N, 0);
  ck_assert_int_eq(boxlint_python_policies(NULL, "", 0, &P, &N), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_python_policies(R, "", 0, NULL, &N), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_python_policies(R, "", 0, &P, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_python_policies(R, NULL, 3, &P, &N), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_python_policies(R, NULL, 0, &P, &N), BOXLINT_OK);
}
END_TEST

START_TEST(test_oom) {
  static const char src[] = "P = ['a.org', 'b.org']\n"
                            "x = NetworkPolicy('filtered', P, ['ALL_TRAFFIC'])\n"
                            "c.agents.add_code_interpreter('a', template_id='t', network_policy=x)\n";
  failer f = {.left = 0};
  boxlint_alloc a = failer_alloc(&f);
  int ok = 0;
  for (int k = 0; k < 400 && !ok; k++) {
    boxlint_report *r;
    f.left = 1000;
    ck_assert_int_eq(boxlint_report_new(&r, &a), BOXLINT_OK);
    f.left = k;
    const boxlint_python_policy *p = NULL;
    size_t n = 9;
    boxlint_status st = boxlint_python_policies(r, src, sizeof src - 1, &p, &n);
    ck_assert(st == BOXLINT_OK || st == BOXLINT_ENOMEM);
    if (st == BOXLINT_OK) {
      ck_assert_uint_eq(n, 1);
      span_is(&p[0].spec.allow_out[1], "b.org");
      ok = 1;
    } else {
      ck_assert_ptr_null(p);
      ck_assert_uint_eq(n, 0);
    }
    boxlint_report_free(r);
  }
  ck_assert(ok);
}
END_TEST

int main(void) {
  Suite *s = suite_create("check_python_policies");
  TCase *t = tcase_create("policies");
  tcase_add_checked_fixture(t, setup, teardown);
  tcase_add_test(t, test_static_policies);
  tcase_add_test(t, test_not_static_and_invalid);
  tcase_add_test(t, test_edges);
  tcase_add_test(t, test_constants);
  tcase_add_test(t, test_oom);
  suite_add_tcase(s, t);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The allocator contract (boxlint.h, alloc.h; issue 23): a compiled config and a compiled
 * policy shared by threads never call their own allocator during a call; each call allocates
 * from the caller's report or allocator. Here without TSan (tests/tsan/ runs the same with it):
 * the shared objects are made with an arena that refuses, and counts, every call from a thread
 * other than the one that made them, and every call while the threads share them. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boxlint/boxlint.h"
#include "failing_alloc.h"
#include "../tsan/shared_objects.h"

START_TEST(test_shared_objects_use_the_callers_allocator) {
  shared_result res;
  int rc = shared_objects_run(8, 25, 1, &res);
  shared_result_print(&res, stdout);
  ck_assert_int_eq(res.failures, 0);
  ck_assert_int_eq(res.arena_calls_other_thread, 0);
  ck_assert_int_eq(res.arena_calls_while_shared, 0);
  ck_assert_int_eq(res.own_calls_other_thread, 0);
  ck_assert_int_eq(res.mismatches, 0);
  ck_assert_int_gt(res.own_calls, 0);
  ck_assert_int_eq(rc, 0);
}
END_TEST

/* The emitter's scratch now comes from the report: out of memory there is BOXLINT_ENOMEM with
 * no output and nothing leaked, at every point. */
START_TEST(test_emit_scratch_from_the_report_oom) {
  boxlint_span allow[2] = {{"pypi.org", 8}, {"*.pythonhosted.org", 18}}, deny[1] = {{"ALL_TRAFFIC", 11}};
  boxlint_policy_spec sp = {{"filtered", 8}, allow, 2, deny, 1};
  boxlint_policy *p = NULL;
  ck_assert_int_eq(boxlint_policy_new(&p, NULL, &sp, NULL, NULL), BOXLINT_OK);
  failer f = {.left = 0}; /* fails after f.left calls, counting what is still allocated */
  boxlint_alloc a = failer_alloc(&f);
  /* names and a deny-all: the rules need the resolver's address, or the emitter refuses */
  const char *const resolvers[] = {"198.51.100.53"};
  boxlint_emit_options eo;
  boxlint_emit_options_init(&eo);
  eo.resolvers = resolvers;
  eo.nresolvers = 1;
  int ok = 0, oom = 0;
  for (int k = 0; k < 40; k++) {
    f.left = 1 << 20;
    f.live = 0;
    boxlint_report *r = NULL;
    ck_assert_int_eq(boxlint_report_new(&r, &a), BOXLINT_OK);
    f.left = k;
    char *out = NULL;
    size_t n = 0;
    boxlint_status st = boxlint_policy_emit(p, BOXLINT_EMIT_DNSMASQ, &eo, r, &out, &n, NULL);
    ck_assert(st == BOXLINT_OK || st == BOXLINT_ENOMEM);
    if (st == BOXLINT_ENOMEM) {
      ck_assert_ptr_null(out);
      oom++;
    } else {
      ck_assert_ptr_nonnull(out);
      ck_assert_ptr_nonnull(strstr(out, "nftset=/pypi.org/"));
      ok++;
    }
    boxlint_buffer_free(out, NULL);
    boxlint_report_free(r);
    ck_assert_int_eq(f.live, 0);
  }
  ck_assert_int_gt(ok, 0);
  ck_assert_int_gt(oom, 0);
  boxlint_policy_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("shared_alloc");
  TCase *tc = tcase_create("threads");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_shared_objects_use_the_callers_allocator);
  tcase_add_test(tc, test_emit_scratch_from_the_report_oom);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}

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

/* An allocator that fails every call after the first `left`. */
typedef struct failer {
  size_t left, calls;
} failer;
static void *f_malloc(void *ctx, size_t n) {
  failer *f = ctx;
  f->calls++;
  if (!f->left) return NULL;
  f->left--;
  return malloc(n ? n : 1);
}
static void *f_realloc(void *ctx, void *p, size_t old_n, size_t n) {
  failer *f = ctx;
  (void)old_n;
  f->calls++;
  if (!f->left) return NULL;
  f->left--;
  return realloc(p, n ? n : 1);
}
static void f_free(void *ctx, void *p) {
  (void)ctx;
  free(p);
}

/* policy_compile fuzzer, out-of-memory mode (crash-16b04345...): a message that could not be
 * printed was left NULL, and an incomplete report came back as ESYNTAX. */
START_TEST(test_coverage_fuzz_policy_oom_messages) {
  static const boxlint_span allow[] = {SP("pypi.org"), SP("bad entry"), SP("a.com"), SP("a.com"),
                                       SP("0.0.0.0/1"), SP("*.com")};
  static const boxlint_span deny[] = {SP("*"), SP("::/0"), SP("1.2.3.4:80")};
  boxlint_policy_spec spec = {SP("filtered"), allow, 6, deny, 3};
  size_t done = 0;
  for (size_t n = 0; n < 400 && !done; n++) {
    failer f = {n, 0};
    boxlint_alloc a = {f_malloc, f_realloc, f_free, &f};
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

/*==============================================================================================
 * Suite
 *============================================================================================*/

static Suite *coverage_suite(void) {
  Suite *s = suite_create("coverage");
  TCase *tc = tcase_create("fuzz_findings");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_coverage_fuzz_heredoc_after_unterminated);
  tcase_add_test(tc, test_coverage_fuzz_policy_oom_messages);
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

/* NetworkPolicy tests: placeholder until issue 3 lands. */
#include <check.h>
#include <stdlib.h>
START_TEST(test_check_smuggling_placeholder) { ck_assert_int_eq(1, 1); }
END_TEST
int main(void) {
  Suite *s = suite_create("check_smuggling");
  TCase *tc = tcase_create("placeholder");
  tcase_add_test(tc, test_check_smuggling_placeholder);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

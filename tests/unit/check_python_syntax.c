/*
 * Unit tests of boxlint_check_python (lib/src/python/tokens.c, lexer.re, literal.c, check.c):
 * the python-syntax error at the first problem (status BOXLINT_ESYNTAX, one diagnostic and
 * nothing else) for each error CPython's tokenizer and string decoding raise; valid files that
 * look tricky, each followed by a call whose finding must land where it is; suppression comments
 * and unused-suppression. Part of the check_python executable (check_python.c has the helpers
 * and main). Tests named bug_* pin the correct behaviour where a defect was found (since fixed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_python.h"

/*==============================================================================================
 * MARK: Syntax errors
 *============================================================================================*/

/* Does s[0..n) hold a word of the SDK (reach.c's list, written out again here as the test's own
 * oracle)? A broken file that holds none gets nothing. */
static int names_sdk(const char *s, size_t n) {
  static const char *const w[] = {"budai", "BudClient", "AsyncBudClient", "NetworkPolicy",
                                  "code_interpreter", "add_code_interpreter",
                                  "get_code_interpreter", "remove_code_interpreter"};
  for (size_t k = 0; k < sizeof w / sizeof *w; k++)
    for (size_t i = 0, l = strlen(w[k]); i + l <= n; i++)
      if (!memcmp(s + i, w[k], l)) return 1;
  return 0;
}

static void one_syntax(const char *src, size_t n, uint32_t line, uint32_t col, const char *msg) {
  py_check(src, n, BOXLINT_ESYNTAX);
  py_count(1);
  const boxlint_diag *d = py_diag(0, "python-syntax", E, NULL, line, col, line, col, msg);
  ck_assert_int_eq(d->command, -1);
  ck_assert_ptr_null(d->fix);
}

/* One python-syntax error, nothing else, even with findings elsewhere in the file, when the file
 * could reach the SDK: the case as written when it names the SDK, and always after a first
 * line `import budai` (the error a line further down). A case that names nothing of the SDK
 * gets nothing at all as written. */
static void syntax_at(const char *src, size_t n, uint32_t line, uint32_t col, const char *msg) {
  if (names_sdk(src, n)) {
    one_syntax(src, n, line, col, msg);
  } else {
    py_check(src, n, BOXLINT_OK);
    py_count(0);
  }
  static const char pre[] = "import budai\n";
  char *b = malloc(sizeof pre - 1 + n);
  ck_assert_ptr_nonnull(b);
  memcpy(b, pre, sizeof pre - 1);
  memcpy(b + sizeof pre - 1, src, n);
  one_syntax(b, sizeof pre - 1 + n, line + 1, col, msg);
  free(b);
}
#define SYNTAX(lit, l, c, msg) syntax_at((lit), sizeof(lit) - 1, (l), (c), (msg))

/* A file that cannot be read as Python reads it: one python-encoding error, nothing else, when
 * its bytes name the SDK (as written, and with `\nbudai\n` after it); nothing when they do not. */
static void one_encoding(const char *src, size_t n, uint32_t line, uint32_t col, const char *msg) {
  py_check(src, n, BOXLINT_ESYNTAX);
  py_count(1);
  const boxlint_diag *d = py_diag(0, "python-encoding", E, NULL, line, col, line, col, msg);
  ck_assert_ptr_null(d->fix);
}

static void encoding_at(const char *src, size_t n, uint32_t line, uint32_t col, const char *msg) {
  if (names_sdk(src, n)) {
    one_encoding(src, n, line, col, msg);
  } else {
    py_check(src, n, BOXLINT_OK);
    py_count(0);
  }
  static const char post[] = "\nbudai\n";
  char *b = malloc(n + sizeof post - 1);
  ck_assert_ptr_nonnull(b);
  memcpy(b, src, n);
  memcpy(b + n, post, sizeof post - 1);
  one_encoding(b, n + sizeof post - 1, line, col, msg);
  free(b);
}
#define ENCODING(lit, l, c, msg) encoding_at((lit), sizeof(lit) - 1, (l), (c), (msg))

START_TEST(test_syntax_errors) {
  SYNTAX(UPD "'RUN sudo x'])\nx = 'abc\n", 2, 5, "invalid Python: unterminated string literal");
  SYNTAX("x = '''abc\n\ny = 1\n", 1, 5, "unterminated triple-quoted string literal");
  SYNTAX("x = foo(1,\n  [2,\n", 2, 3, "'[' was never closed");
  SYNTAX("x = {1: (2,\n", 1, 9, "'(' was never closed");
  SYNTAX("x = 1)\n", 1, 6, "unmatched ')'");
  SYNTAX("x = (1]\n", 1, 7, "closing parenthesis does not match");
  SYNTAX("if x:\n    a = 1\n  b = 2\n", 3, 3, "unindent does not match any outer indentation");
  SYNTAX("  x = 1\n", 1, 3, "unexpected indent");
  SYNTAX("if x:\ny = 1\n", 2, 1, "expected an indented block");
  SYNTAX("def f():\n", 1, 9, "expected an indented block"); /* as ast.parse says */
  SYNTAX("if x:\n\ta = 1\n        b = 2\n", 3, 9, "inconsistent use of tabs and spaces");
  SYNTAX("x = 1\0\n", 1, 6, "source code cannot contain null bytes");
  SYNTAX("x = '\\x4'\n", 1, 6, "truncated \\xXX escape");
  SYNTAX("x = '\\u00e'\n", 1, 6, "truncated \\uXXXX escape");
  SYNTAX("x = '\\U00110000'\n", 1, 6, "illegal Unicode character");
  SYNTAX("x = '\\N{NO SUCH NAME}'\n", 1, 6, "unknown \\N character escape");
  SYNTAX("x = b'\xc3\xa9'\n", 1, 7, "bytes can only contain ASCII literal characters");
  SYNTAX(UPD "b'RUN a' 'b'])\n", 1, 61, "cannot mix bytes and nonbytes literals");
  SYNTAX("x = 012\n", 1, 5, "leading zeros in decimal integer literals");
  SYNTAX("x = 0_7\n", 1, 5, "leading zeros in decimal integer literals");
  SYNTAX("x = 1 \\ 2\n", 1, 7, "unexpected character after line continuation character");
  SYNTAX("x = f'}'\n", 1, 7, "f-string: single '}' is not allowed");
  SYNTAX("x = 1 $ 2\n", 1, 7, "invalid character");
  ENCODING("x = '\xff'\n", 1, 6, "not valid UTF-8");
}
END_TEST

/* Regression (found by these tests, fixed): these files are not Python, but the checker reads them as such (BOXLINT_OK):
 * - bytes and str concatenated outside an SDK argument (only arguments are decoded as values);
 * - an f-string field that never closes;
 * - a byte that is not UTF-8 outside a string (CPython: "Non-UTF-8 code starting with '\xff'"). */
START_TEST(bug_syntax_errors_missed) {
  SYNTAX("x = b'a' 'b'\n", 1, 10, "cannot mix bytes and nonbytes literals");
  PY_MINOR = 11; /* 3.11's reading; 3.12+ say it at the quote (check_python_versions.c) */
  SYNTAX("x = f'{'\n", 1, 7, "f-string");
  PY_MINOR = 0;
  ENCODING("# \xff\nx = 1\n", 1, 3, "UTF-8");
}
END_TEST

/* Valid files that look tricky: no error, and the call after them is found where it is. */
START_TEST(test_tricky_valid_files) {
  static const char *const files[] = {
      "x = '# not a comment'\ny = '([{'\n# it's a comment with a quote\nz = {1: 2,\n     3: 4}\n",
      "@dec\n@dec2(1)\ndef f():\n    return f'{x:{w}} {d[\"k\"]!r:>10} {{lit}}'\n",
      "class A:\n    def f(self):\n        pass\n\n    def g(self): pass\n",
      "x = [\n  1,\n    2,\n]\nif x:\n  y = 1\n  # odd\n      # indent\n",
      "if a:\n        b = 1\nelse:\n\tb = 2\n",
      "x = 1 \\\n  + 2\nx = (1 +\n# c\n  2)\nx: int = 09.5 + 0 + 00 + 1_000 + 0x_ff + 1e5j\n",
      "def f():\n    '''doc\n  string'''\n    return 1\n\x0c\n",
      "x = 'a' \\\n  'b'\nw = (y := 1)\nlambda: {'a': lambda q: q}\n",
  };
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    char src[512];
    uint32_t lines = 1;
    for (const char *p = files[i]; *p; p++) lines += *p == '\n';
    int n = snprintf(src, sizeof src, "%s" UPD "'RUN sudo x'])\n", files[i]);
    py_check(src, (size_t)n, BOXLINT_OK);
    py_count(1);
    py_diag(0, "sudo-usage", W, "commands[0]", lines, 57, lines, 61, "sudo");
  }
  /* no final newline; CR-only line ends */
  CHECK(UPD "'RUN sudo x'])");
  py_diag(0, "sudo-usage", W, "commands[0]", 1, 57, 1, 61, "sudo");
  CHECK("x = 1\r\r" UPD "'RUN sudo x'])\r");
  py_diag(0, "sudo-usage", W, "commands[0]", 3, 57, 3, 61, "sudo");
  /* empty, only comments, only a BOM, blank lines */
  static const char *const empty[] = {"", "# a\n# b\n", "# only", "\xef\xbb\xbf", "\n\n   \n",
                                      "\xef\xbb\xbf# c\r\n"};
  for (size_t i = 0; i < sizeof empty / sizeof *empty; i++) {
    py_check(empty[i], strlen(empty[i]), BOXLINT_OK);
    py_count(0);
  }
}
END_TEST

/* Regression (found while these tests were written, fixed):
 * valid Python rejected.
 * - `f"{'}'}"`: the field was skipped by counting braces, so the quoted '}' ended it early;
 * - a backslash-CRLF line continuation inside a one-line string: the lexer's `"\\" any` took
 *   the \r only, and the \n then ended the string ("unterminated string literal"). */
START_TEST(bug_valid_files_rejected) {
  CHECK("x = f\"{'}'}\"\n" UPD "'RUN sudo x'])\n");
  py_diag(0, "sudo-usage", W, "commands[0]", 2, 57, 2, 61, "sudo");
  CHECK(UPD "'RUN echo a \\\r\n&& sudo x'])\r\n");
  py_count(1);
  py_diag(0, "sudo-usage", W, "commands[0]", 2, 4, 2, 8, "sudo");
}
END_TEST

/* Regression (found by these tests, fixed): with a UTF-8 BOM, columns on the first line count the BOM (U+FEFF) as a character;
 * fragments (lint/check.c) and editors do not. `where` above skips it. */
START_TEST(bug_bom_column) {
  CHECK("\xef\xbb\xbf" UPD "'RUN sudo x'])\n");
  py_count(1);
  py_diag(0, "sudo-usage", W, "commands[0]", 1, 57, 1, 61, "sudo");
}
END_TEST

/*==============================================================================================
 * MARK: Suppressions
 *============================================================================================*/

#define PIP UPD "'RUN pip install x'])"

START_TEST(test_suppressions) {
  CHECK(PIP "\n");
  py_count(1);
  py_diag(0, "pip-no-cache-dir", W, "commands[0]", 1, 57, 1, 68, "pip install keeps its");
  CHECK(PIP "  # boxlint: ignore=pip-no-cache-dir\n");
  py_count(0);
  /* Each rule of a list is its own suppression, as in fragments: one that suppresses nothing
   * is reported, at its own name. */
  CHECK("# boxlint: ignore=sudo-usage,pip-no-cache-dir\n" PIP "\n");
  py_count(1);
  py_diag(0, "unused-suppression", W, NULL, 1, 19, 1, 29,
          "the suppression of sudo-usage suppresses nothing");
  CHECK("# boxlint: ignore=pip-no-cache-dir,sudo-usage\n" PIP "\n");
  py_count(1);
  py_diag(0, "unused-suppression", W, NULL, 1, 36, 1, 46,
          "the suppression of sudo-usage suppresses nothing");
  CHECK("#boxlint ignore = pip-no-cache-dir\n" PIP "\n"); /* the fragments' spelling */
  py_count(0);
  /* two lines before: not this finding's; the suppression is unused */
  CHECK("# boxlint: ignore=pip-no-cache-dir\n\n" PIP "\n");
  py_count(2);
  py_diag(0, "unused-suppression", W, NULL, 1, 19, 1, 35,
          "the suppression of pip-no-cache-dir suppresses nothing");
  py_diag(1, "pip-no-cache-dir", W, "commands[0]", 3, 57, 3, 68, "pip install");
  /* an error cannot be suppressed: it stays, and the suppression is unused */
  CHECK(UPD "'pip install --no-cache-dir x'])  # boxlint: ignore=unknown-instruction\n");
  py_count(2);
  py_diag(0, "unknown-instruction", E, "commands[0]", 1, 53, 1, 56, "unknown instruction: pip");
  py_diag(1, "unused-suppression", W, NULL, 1, 104, 1, 123, "unknown-instruction is an error and cannot be suppressed");
  /* a directive misspelt is reported, not passed over: it suppresses nothing */
  CHECK(PIP "  # boxlint-ignore=pip-no-cache-dir\n");
  py_count(2);
  py_diag(0, "pip-no-cache-dir", W, "commands[0]", 1, 57, 1, 68, "pip install");
  py_diag(1, "unused-suppression", W, NULL, 1, 77, 1, 108,
          "malformed boxlint suppression comment, it suppresses nothing: "
          "'boxlint-ignore=pip-no-cache-dir' is not a boxlint directive");
  /* comments that are not directives */
  CHECK(PIP "  # boxlint checks this line\n" PIP "  # see boxlint: ignore=x\n");
  py_count(2);
  py_none_of("unused-suppression");
}
END_TEST

/* One syntax for every file kind (report/suppress.c): `# boxlint: ignore=` and the older
 * `# boxlint ignore=` are the same; a comment that starts as a directive but does not parse
 * is an unused-suppression at the part at fault, and suppresses nothing. */
START_TEST(test_suppression_syntax) {
  /* both spellings, on the finding's line and on the line before */
  CHECK(PIP "  # boxlint ignore=pip-no-cache-dir\n");
  py_count(0);
  CHECK("# boxlint ignore=pip-no-cache-dir -- a reason\n" PIP "\n");
  py_count(0);
  CHECK("# boxlint: ignore=pip-no-cache-dir -- a reason\n" PIP "\n");
  py_count(0);
  /* both spellings unused: at the id */
  CHECK(PIP "  # boxlint ignore=sudo-usage -- old\n");
  py_count(2);
  py_diag(0, "pip-no-cache-dir", W, "commands[0]", 1, 57, 1, 68, "pip install");
  py_diag(1, "unused-suppression", W, NULL, 1, 92, 1, 102,
          "the suppression of sudo-usage suppresses nothing on the line it applies to");
  CHECK(PIP "  # boxlint: ignore=sudo-usage -- old\n");
  py_count(2);
  py_diag(1, "unused-suppression", W, NULL, 1, 93, 1, 103,
          "the suppression of sudo-usage suppresses nothing on the line it applies to");
  /* malformed: each names its problem and suppresses nothing */
  CHECK(PIP "  # boxlint: ignore\n");
  py_count(2);
  py_diag(0, "pip-no-cache-dir", W, "commands[0]", 1, 57, 1, 68, "pip install");
  const boxlint_diag *d = py_diag(1, "unused-suppression", W, NULL, 1, 86, 1, 92,
                                  "malformed boxlint suppression comment, it suppresses "
                                  "nothing: 'ignore' takes '=' and the rule ids");
  ck_assert_str_eq(d->hint, "write '# boxlint: ignore=rule-a,rule-b -- reason'");
  CHECK(PIP "  # boxlint: ignroe=pip-no-cache-dir\n");
  py_count(2);
  py_diag(1, "unused-suppression", W, NULL, 1, 86, 1, 92,
          "unknown directive 'ignroe' (the directive is 'ignore=')");
  CHECK(PIP "  # boxlint ignroe=pip-no-cache-dir\n");
  py_count(2);
  py_diag(1, "unused-suppression", W, NULL, 1, 85, 1, 91, "unknown directive 'ignroe'");
  CHECK(PIP "  # boxlint: ignore=\n");
  py_count(2);
  py_diag(1, "unused-suppression", W, NULL, 1, 86, 1, 93, "no rule id after 'ignore='");
  CHECK(PIP "  # boxlint: ignore=,,\n");
  py_count(2);
  py_diag(1, "unused-suppression", W, NULL, 1, 86, 1, 95, "no rule id after 'ignore='");
  CHECK(PIP "  # boxlint: ignore=Pip-no-cache-dir\n");
  py_count(2);
  py_diag(1, "unused-suppression", W, NULL, 1, 93, 1, 109,
          "'Pip-no-cache-dir' is not a rule id (ids hold a-z, 0-9, '-', '_' and '.')");
  CHECK(PIP "  # boxlint: ignore=pip-no-cache-dir because\n");
  py_count(2);
  py_diag(1, "unused-suppression", W, NULL, 1, 110, 1, 117,
          "'because' after the rule ids (a reason follows ' -- '");
  CHECK(PIP "  # boxlint: ignore=pip-no-cache-dir, sudo-usage\n");
  py_count(2);
  py_diag(1, "unused-suppression", W, NULL, 1, 111, 1, 121, "'sudo-usage' after the rule ids");
  /* the config's severity for unused-suppression applies to all of these */
}
END_TEST

/* Regression (found by these tests, fixed): the fragments' `-- reason` is read as part of the rule list (the unused-suppression's
 * span and message hold "bogus -- why not"), and a list where one rule was used and another
 * suppressed nothing reports nothing, unlike fragments, which report each unused rule. */
START_TEST(bug_suppression_rule_list) {
  CHECK("x = 1  # boxlint: ignore=bogus -- why not\n");
  py_count(1);
  py_diag(0, "unused-suppression", W, NULL, 1, 26, 1, 31, "the suppression of bogus suppresses");
  CHECK(PIP "  # boxlint: ignore=pip-no-cache-dir,bogus\n");
  py_count(1);
  py_diag(0, "unused-suppression", W, NULL, 1, 110, 1, 115, "bogus");
}
END_TEST


Suite *python_syntax_suite(void) {
  Suite *s = suite_create("check_python_syntax");
  TCase *tc = tcase_create("syntax");
  tcase_add_checked_fixture(tc, py_setup, py_teardown);
  tcase_add_test(tc, test_syntax_errors);
  tcase_add_test(tc, test_tricky_valid_files);
  tcase_add_test(tc, test_suppressions);
  tcase_add_test(tc, test_suppression_syntax);
  suite_add_tcase(s, tc);

  tc = tcase_create("syntax_bugs");
  tcase_add_checked_fixture(tc, py_setup, py_teardown);
  tcase_add_test(tc, bug_syntax_errors_missed);
  tcase_add_test(tc, bug_valid_files_rejected);
  tcase_add_test(tc, bug_bom_column);
  tcase_add_test(tc, bug_suppression_rule_list);
  suite_add_tcase(s, tc);
  return s;
}

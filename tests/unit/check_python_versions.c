/*
 * Unit tests of the Python reader under each target version (boxlint_options.python_minor,
 * lib/src/python/tokens.c, parse*.c): each construct a version adds, refused by the version
 * before and taken by its own (3.8's decorators, with and sets; match; except*; a[*b]; type
 * parameters and the type statement; their defaults; PEP 701 f-strings; except A, B; template
 * strings), and CPython's limits at their thresholds (nesting, indentation, parentheses, a line
 * holding only a backslash). Each refusal is the python-syntax error at CPython's line and
 * column with its message. Part of the check_python executable (check_python.c has main).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_python.h"

/* Under Python 3.minor: one python-syntax error at line:col whose message holds msg, in a file
 * that reaches the SDK (after a first line `import budai`, the error a line further down); as
 * written, a case that names nothing of the SDK gets nothing (a broken file out of its reach). */
static void refused(int minor, const char *src, uint32_t line, uint32_t col, const char *msg) {
  PY_MINOR = minor;
  size_t n = strlen(src);
  if (!strstr(src, "budai") && !strstr(src, "code_interpreter") && !strstr(src, "NetworkPolicy")) {
    py_check(src, n, BOXLINT_OK);
    py_count(0);
  }
  static const char pre[] = "import budai\n";
  char *b = malloc(sizeof pre + n);
  ck_assert_ptr_nonnull(b);
  memcpy(b, pre, sizeof pre - 1);
  memcpy(b + sizeof pre - 1, src, n + 1);
  py_check(b, sizeof pre - 1 + n, BOXLINT_ESYNTAX);
  free(b);
  py_count(1);
  const boxlint_diag *d = py_diag(0, "python-syntax", E, NULL, line + 1, col, line + 1, col, msg);
  ck_assert_ptr_null(d->fix);
  PY_MINOR = 0;
}

/* Under Python 3.minor: valid, no finding. */
static void taken(int minor, const char *src) {
  PY_MINOR = minor;
  py_check(src, strlen(src), BOXLINT_OK);
  py_count(0);
  PY_MINOR = 0;
}

START_TEST(test_versions_option) {
  boxlint_options o;
  boxlint_options_init(&o);
  ck_assert_int_eq(o.python_minor, 0);
  ck_assert_int_eq(boxlint_options_check(&o), BOXLINT_OK);
  for (int m = BOXLINT_PYTHON_MINOR_MIN; m <= BOXLINT_PYTHON_MINOR_MAX; m++) {
    o.python_minor = m;
    ck_assert_int_eq(boxlint_options_check(&o), BOXLINT_OK);
  }
  int bad[] = {-1, 1, 7, 15, 100};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    o.python_minor = bad[i];
    ck_assert_int_eq(boxlint_options_check(&o), BOXLINT_EINVAL);
    ck_assert_int_eq(boxlint_check_python(R, "x = 1\n", 6, &o, NULL), BOXLINT_EINVAL);
  }
  /* the words of --target-version and "target-version" */
  int minor = 0;
  ck_assert_int_eq(boxlint_python_version_parse("py38", 4, &minor), BOXLINT_OK);
  ck_assert_int_eq(minor, 8);
  ck_assert_int_eq(boxlint_python_version_parse("py314", 5, &minor), BOXLINT_OK);
  ck_assert_int_eq(minor, 14);
  const char *words[] = {"py37", "py315", "py3", "py308", "PY38", "py38 ", "3.8", "py2", ""};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    ck_assert_int_eq(boxlint_python_version_parse(words[i], strlen(words[i]), &minor),
                     BOXLINT_EINVAL);
  /* the config's target version applies when the options name none, and they override it */
  ck_assert_int_eq(boxlint_config_get_python_minor(CFG), 0);
  ck_assert_int_eq(boxlint_config_set_python_minor(CFG, 16), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_config_set_python_minor(CFG, 11), BOXLINT_OK);
  ck_assert_int_eq(boxlint_config_get_python_minor(CFG), 11);
  refused(0, "type X = int\n", 1, 6, "invalid syntax");
  taken(12, "type X = int\n");
  ck_assert_int_eq(boxlint_config_set_python_minor(CFG, 0), BOXLINT_OK);
  taken(0, "type X = int\n"); /* 3.14 */
  /* boxlint_python_policies_opts reads with the same version */
  const boxlint_python_policy *pp;
  size_t np;
  o.python_minor = 11;
  ck_assert_int_eq(boxlint_python_policies_opts(R, "import budai\ntype X = int\n", 26, &o, &pp, &np),
                   BOXLINT_ESYNTAX);
  o.python_minor = 12;
  ck_assert_int_eq(boxlint_python_policies_opts(R, "import budai\ntype X = int\n", 26, &o, &pp, &np),
                   BOXLINT_OK);
  o.python_minor = 99;
  ck_assert_int_eq(boxlint_python_policies_opts(R, "x = 1\n", 6, &o, &pp, &np), BOXLINT_EINVAL);
}
END_TEST

/* The cache never reuses a check made under another version. */
START_TEST(test_versions_cache) {
  boxlint_python_cache *c = NULL;
  ck_assert_int_eq(boxlint_python_cache_new(&c, NULL), BOXLINT_OK);
  boxlint_options o;
  boxlint_options_init(&o);
  const char *src = "import budai\ntype X = int\n";
  o.python_minor = 12;
  ck_assert_int_eq(boxlint_check_python_cached(c, R, src, strlen(src), &o, NULL), BOXLINT_OK);
  boxlint_report_clear(R);
  o.python_minor = 11;
  ck_assert_int_eq(boxlint_check_python_cached(c, R, src, strlen(src), &o, NULL),
                   BOXLINT_ESYNTAX);
  boxlint_report_clear(R);
  o.python_minor = 12;
  ck_assert_int_eq(boxlint_check_python_cached(c, R, src, strlen(src), &o, NULL), BOXLINT_OK);
  o.python_minor = 20;
  ck_assert_int_eq(boxlint_check_python_cached(c, R, src, strlen(src), &o, NULL),
                   BOXLINT_EINVAL);
  boxlint_python_cache_free(c);
}
END_TEST

START_TEST(test_versions_grammar) {
  /* 3.8: the decorators of PEP 614, parenthesized context managers, walrus in a set, star in a
   * for's iterable are 3.9's */
  refused(8, "@a[0].b\ndef f(): pass\n", 1, 3, "invalid syntax");
  refused(8, "@a(1)(2)\ndef f(): pass\n", 1, 6, "invalid syntax");
  refused(8, "@(a)\ndef f(): pass\n", 1, 2, "invalid syntax");
  taken(8, "@a.b.c(1, k=2)\ndef f(): pass\n");
  taken(9, "@a[0].b\ndef f(): pass\n");
  refused(8, "with (a as b): pass\n", 1, 9, "invalid syntax");
  taken(9, "with (a as b, c as d): pass\n");
  taken(8, "with (a, b): pass\n");
  refused(8, "{x := 1}\n", 1, 3, "invalid syntax");
  taken(9, "{x := 1}\n");
  refused(8, "for x in *a, *b: pass\n", 1, 10, "invalid syntax");
  taken(9, "for x in *a, *b: pass\n");
  /* 3.10: match, a[x := 1] */
  refused(9, "match x:\n case 1: pass\n", 1, 7, "invalid syntax");
  taken(10, "match x:\n case 1: pass\n");
  refused(9, "a[x:=1]\n", 1, 4, "invalid syntax");
  taken(10, "a[x:=1]\n");
  /* 3.11: except*, a[*b], *args: *Ts */
  refused(10, "try: pass\nexcept* A: pass\n", 2, 7, "invalid syntax");
  taken(11, "try: pass\nexcept* A: pass\n");
  refused(10, "a[*b]\n", 1, 3, "invalid syntax");
  taken(11, "a[*b]\n");
  refused(10, "def f(*a: *b): pass\n", 1, 11, "invalid syntax");
  taken(11, "def f(*a: *b): pass\n");
  /* 3.12: type parameters, the type statement (PEP 695) */
  refused(11, "type X = int\n", 1, 6, "invalid syntax");
  taken(12, "type X[T: int, *Ts, **P] = list[T]\n");
  taken(12, "type = 1\nprint(type(x))\n");
  refused(11, "class A[T]: pass\n", 1, 8, "invalid syntax");
  taken(12, "class A[T](B): pass\n");
  taken(12, "def f[T: (int, str), *Ts, **P](x: T) -> T: pass\n");
  refused(12, "def f[](): pass\n", 1, 7, "invalid syntax");
  refused(12, "def f[*Ts: int](): pass\n", 1, 10, "cannot use bound with TypeVarTuple");
  /* 3.13: their defaults */
  refused(12, "def f[T=int](): pass\n", 1, 8, "invalid syntax");
  taken(13, "def f[T=int, *Ts=*tuple[int], **P=[int]](): pass\n");
  /* 3.14: except A, B (PEP 758), not with `as` */
  refused(13, "try: pass\nexcept A, B: pass\n", 2, 8, "multiple exception types must be parenthesized");
  taken(14, "try: pass\nexcept A, B: pass\n");
  taken(14, "try: pass\nexcept* A, B: pass\n");
  refused(14, "try: pass\nexcept A, B as e: pass\n", 2, 8,
          "multiple exception types must be parenthesized when using 'as'");
  refused(9, "try: pass\nexcept A, B: pass\n", 2, 9, "invalid syntax");
}
END_TEST

START_TEST(test_versions_strings) {
  /* PEP 701 (3.12): nested quotes, backslashes and comments in fields, nesting */
  /* (CPython 3.11 says column 5, the name after the string it reads as f"{") */
  refused(11, "f\"{\"a\"}\"\n", 1, 3, "f-string: expecting '}'");
  taken(12, "f\"{\"a\"}\"\n");
  /* (CPython 3.11 says column 10, the line's end; boxlint the field) */
  refused(11, "f'{\"\\n\"}'\n", 1, 3, "f-string expression part cannot include a backslash");
  taken(12, "f'{\"\\n\".join(x)}'\n");
  taken(12, "f'''{a # a comment\n}'''\n");
  taken(12, "f'{f\"{f'{1}'}\"}'\n");
  refused(11, "f'{x:{y:{z}}}'\n", 1, 3, "f-string: expressions nested too deeply");
  taken(12, "f'{x:{y:{z}}}'\n");
  refused(12, "f'{a:{b:{c:{d}}}}'\n", 1, 19, "f-string: expressions nested too deeply");
  refused(12, "x = f'{'\n", 1, 8, "f-string: expecting '}'");
  /* 3.14: template strings (PEP 750): never a str */
  refused(13, "t'x'\n", 1, 2, "invalid syntax");
  taken(14, "x = t'{a!r:>{w}}' T'b' tr'\\d' Rt'{c}'\n");
  refused(14, "x = t'a' 'b'\n", 1, 10, "cannot mix t-string literals with string or bytes literals");
  /* a t-string where a command list wants strings: the value is not static */
  PY_MINOR = 14;
  CHECK("c.code_interpreter.templates.create(name='a', commands=[t'RUN sudo x'])\n");
  ck_assert_uint_gt(boxlint_report_diag_count(R), 0);
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++)
    ck_assert_str_ne(boxlint_report_diag(R, i)->rule, "sudo-usage");
  PY_MINOR = 0;
}
END_TEST

/* A source of `n` nested copies of `open`, then `mid`, then `close` n times, after `pre`. */
static char *nested(const char *pre, const char *open, const char *mid, const char *close,
                    size_t n) {
  size_t lp = strlen(pre), lo = strlen(open), lm = strlen(mid), lc = strlen(close);
  char *s = malloc(lp + n * (lo + lc) + lm + 2), *q = s;
  ck_assert_ptr_nonnull(s);
  memcpy(q, pre, lp);
  q += lp;
  for (size_t i = 0; i < n; i++, q += lo) memcpy(q, open, lo);
  memcpy(q, mid, lm);
  q += lm;
  for (size_t i = 0; i < n; i++, q += lc) memcpy(q, close, lc);
  *q++ = '\n';
  *q = 0;
  return s;
}

START_TEST(test_versions_limits) {
  /* 999 nested unary operators and conditional expressions: CPython takes them */
  char *s = nested("x = ", "-", "1", "", 999);
  taken(0, s);
  taken(8, s);
  free(s);
  s = nested("x = ", "1 if 1 else ", "1", "", 999);
  taken(0, s);
  free(s);
  /* the parser's stack: 5966 in 3.13 and 3.14, 5967 in 3.9, 1679 in 3.8 */
  s = nested("x = ", "-", "1", "", 5966);
  taken(14, s);
  free(s);
  s = nested("x = ", "-", "1", "", 5967);
  refused(14, s, 1, 5972, "Parser stack overflowed - Python source too complex to parse");
  taken(9, s);
  free(s);
  s = nested("x = ", "-", "1", "", 1679);
  taken(8, s);
  free(s);
  s = nested("x = ", "-", "1", "", 1680);
  refused(8, s, 1, 1685, "Parser stack overflowed");
  free(s);
  /* 3.11's tree: 2991 taken, 2992 a RecursionError */
  s = nested("x = ", "-", "1", "", 2991);
  taken(11, s);
  free(s);
  s = nested("x = ", "-", "1", "", 2992);
  refused(11, s, 1, 2997, "maximum recursion depth exceeded during ast construction");
  taken(13, s);
  free(s);
  /* 200 nested parentheses (the tokenizer's MAXLEVEL), 201 refused */
  s = nested("x = ", "(", "1", ")", 200);
  taken(0, s);
  free(s);
  s = nested("x = ", "(", "1", ")", 201);
  refused(0, s, 1, 205, "too many nested parentheses");
  free(s);
  /* 99 indentation levels, 100 refused (CPython's MAXINDENT) */
  char *src = malloc(110 * 110);
  ck_assert_ptr_nonnull(src);
  for (int levels = 99; levels <= 100; levels++) {
    char *q = src;
    for (int i = 0; i < levels; i++) {
      memset(q, ' ', (size_t)i);
      q += i;
      memcpy(q, "if 1:\n", 6);
      q += 6;
    }
    memset(q, ' ', (size_t)levels);
    q += levels;
    memcpy(q, "pass\n", 6);
    if (levels == 99) taken(0, src);
    else refused(0, src, 101, 101, "too many levels of indentation");
  }
  free(src);
  /* a line holding only a backslash: from 3.10 the next line's indentation is measured */
  refused(10, "x = 1\n\\\n    y = 2\n", 3, 5, "unexpected indent");
  taken(9, "x = 1\n\\\n    y = 2\n");
  /* ... 3.9 reads it as a blank line, 3.8 takes the backslash's column */
  refused(8, "  \\\nx = 1\n", 1, 3, "unexpected indent");
  taken(9, "  \\\nx = 1\n");
  refused(10, "  \\\nx = 1\n", 2, 1, "unexpected indent");
  refused(9, "if 1:\n\\\n    pass\n", 3, 5, "expected an indented block");
  taken(10, "if 1:\n\\\n    pass\n");
  refused(0, "x = 1 \\\n", 1, 8, "unexpected EOF while parsing");
}
END_TEST

Suite *python_versions_suite(void) {
  Suite *s = suite_create("check_python_versions");
  TCase *tc = tcase_create("versions");
  tcase_add_checked_fixture(tc, py_setup, py_teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_versions_option);
  tcase_add_test(tc, test_versions_cache);
  tcase_add_test(tc, test_versions_grammar);
  tcase_add_test(tc, test_versions_strings);
  tcase_add_test(tc, test_versions_limits);
  suite_add_tcase(s, tc);
  return s;
}

/*
 * Unit tests of the fixes boxlint_check_python attaches (lib/src/python/place.c, edit.c;
 * docs/design.md §7): each an edit of the file in the literal's own syntax (its prefix and quote),
 * applied here with boxlint_apply_fixes; the result is compared byte for byte, then checked
 * again (valid Python, the finding gone). Also edit.c's escaping and refusals called directly:
 * no rule's fix text holds a backslash, a quote, a line break, a control character, a brace or
 * a non-ASCII byte ("RUN ", keywords, "" for a dangling escape, slugs, A-labels, "ALL_TRAFFIC"),
 * so the raw-string refusal cannot be reached through the public API. Part of the check_python
 * executable (check_python.c has the helpers and main).
 */
#include <stdio.h>
#include <string.h>

#include "check_python.h"
#include "python/python_int.h" /* bl_py_read, bl_py_parse_expr, bl_py_edit_string */

/*==============================================================================================
 * MARK: Commands
 *============================================================================================*/

/* "pip install x" in every literal style: `RUN ` inserted at the start of the body. */
START_TEST(test_fix_insert_run) {
  static const struct { const char *pre, *q, *body; uint32_t len; } forms[] = {
      {"", "'", "pip install x", 3},        {"", "\"", "pip install x", 3},
      {"", "'''", "pip install x", 3},      {"", "\"\"\"", "pip install x", 3},
      {"u", "'", "pip install x", 3},       {"f", "'", "pip install {{x}}", 3},
      {"r", "'", "pip install x", 3},
      {"", "'", "\\x70ip install x", 6},
  };
  for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
    char src[128], want[128];
    const char *pre = forms[i].pre, *q = forms[i].q, *body = forms[i].body;
    int n = snprintf(src, sizeof src, UPD "%s%s%s%s])\n", pre, q, body, q);
    snprintf(want, sizeof want, UPD "%s%sRUN %s%s])\n", pre, q, body, q);
    py_check(src, (size_t)n, BOXLINT_OK);
    size_t at = 51 + strlen(pre) + strlen(q);
    const boxlint_diag *d = py_diag(0, "unknown-instruction", E, "commands[0]", 1,
                                    (uint32_t)at + 1, 1, (uint32_t)at + 1 + forms[i].len,
                                    "unknown instruction: pip");
    py_fix(d, at, 0, "RUN ");
    py_apply(want, "unknown-instruction");
  }
}
END_TEST

START_TEST(test_fix_keyword) {
  CHECK(UPD "'WROKDIR /srv'])\n");
  py_count(1);
  const boxlint_diag *d =
      py_diag(0, "unknown-instruction", E, "commands[0]", 1, 53, 1, 60, "unknown instruction: "
              "WROKDIR");
  ck_assert_str_eq(d->hint, "did you mean WORKDIR?");
  py_fix(d, 52, 7, "WORKDIR");
  py_apply(UPD "'WORKDIR /srv'])\n", NULL);
  /* a raw string takes a fix that needs no escape */
  CHECK(UPD "r'WROKDIR /srv'])\n");
  py_fix(py_diag(0, "unknown-instruction", E, "commands[0]", 1, 54, 1, 61, "WROKDIR"), 53, 7,
         "WORKDIR");
  py_apply(UPD "r'WORKDIR /srv'])\n", NULL);
  /* an escape at the start: the escape is replaced */
  CHECK(UPD "'\\x57ROKDIR /srv'])\n");
  py_fix(py_diag(0, "unknown-instruction", E, "commands[0]", 1, 53, 1, 63, "WROKDIR"), 52, 10,
         "WORKDIR");
  py_apply(UPD "'WORKDIR /srv'])\n", NULL);
  /* across two concatenated literals: no fix, and the hint says why */
  CHECK(UPD "'WRO' 'KDIR /srv'])\n");
  d = py_diag(0, "unknown-instruction", E, "commands[0]", 1, 53, 1, 63, "WROKDIR");
  py_no_fix(d, "the text to replace spans two concatenated literals");
  ck_assert_ptr_nonnull(strstr(d->hint, "did you mean WORKDIR?"));
}
END_TEST

/* A dangling escape at the end of a command: its source (an escaped backslash, or a raw one)
 * is removed. */
START_TEST(test_fix_dangling_escape) {
  CHECK(UPD "'RUN echo \\\\'])\n");
  py_count(1);
  const boxlint_diag *d = py_diag(0, "dangling-continuation", E, "commands[0]", 1, 62, 1, 64,
                                  "ends inside a line continuation");
  py_fix(d, 61, 2, "");
  py_apply(UPD "'RUN echo '])\n", NULL);
  CHECK(UPD "r'RUN echo \\ '])\n");
  py_fix(py_diag(0, "dangling-continuation", E, "commands[0]", 1, 63, 1, 64, "continuation"), 62,
         1, "");
  py_apply(UPD "r'RUN echo  '])\n", NULL);
}
END_TEST

/* A command bound to a module-level name is fixed where the literal is. */
START_TEST(test_fix_in_module_level_name) {
  CHECK("SETUP = [\n    'pip install x',\n]\nc.code_interpreter.templates.update('i', commands=SETUP)\n");
  py_count(1);
  py_fix(py_diag(0, "unknown-instruction", E, "commands[0]", 2, 6, 2, 9, "pip"), 15, 0, "RUN ");
  py_apply("SETUP = [\n    'RUN pip install x',\n]\nc.code_interpreter.templates.update('i', commands=SETUP)\n",
           "unknown-instruction");
}
END_TEST

/*==============================================================================================
 * MARK: Template names
 *============================================================================================*/

START_TEST(test_fix_name_slug) {
  static const struct { const char *lit; uint32_t end; size_t off, len; const char *text, *out; }
      forms[] = {
          {"'My Template'", 55, 42, 11, "my-template", "'my-template'"},
          {"\"My Template\"", 55, 42, 11, "my-template", "\"my-template\""},
          {"r'My Template'", 56, 43, 11, "my-template", "r'my-template'"},
          {"'''My Template'''", 59, 44, 11, "my-template", "'''my-template'''"},
          {"'Caf\\u00e9 X'", 55, 42, 11, "caf-x", "'caf-x'"},
          {"'My ' \"Template\"", 58, 41, 16, "'my-template'", "'my-template'"},
      };
  for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
    char src[160], want[160];
    const char *tail = ", commands=[], cpu_count=2, memory_mb=4096)\n";
    int n = snprintf(src, sizeof src, "c.code_interpreter.templates.create(name=%s%s", forms[i].lit, tail);
    snprintf(want, sizeof want, "c.code_interpreter.templates.create(name=%s%s", forms[i].out, tail);
    py_check(src, (size_t)n, BOXLINT_OK);
    py_count(1);
    const boxlint_diag *d =
        py_diag(0, "invalid-name", E, "name", 1, 42, 1, forms[i].end, "may only hold");
    py_fix(d, forms[i].off, forms[i].len, forms[i].text);
    py_apply(want, NULL);
  }
  CHECK("N = 'Top Name'\nc.code_interpreter.templates.create(name=N, commands=[], cpu_count=2, memory_mb=4096)\n");
  py_fix(py_diag(0, "invalid-name", E, "name", 1, 5, 1, 15, "\"Top Name\""), 5, 8, "top-name");
  py_apply("N = 'top-name'\nc.code_interpreter.templates.create(name=N, commands=[], cpu_count=2, memory_mb=4096)\n",
           NULL);
}
END_TEST

/*==============================================================================================
 * MARK: Policies
 *============================================================================================*/

#define BIND "x.agents.add_code_interpreter('p', 'python-4g', network_policy="

/* One allow-without-effect at 'pypi.org' (line, col); applying its fix gives `want`. */
static void deny_fix(const char *src, const char *path, uint32_t line, uint32_t col,
                     const char *want) {
  py_check(src, strlen(src), BOXLINT_OK);
  py_count(1);
  const boxlint_diag *d = py_diag(0, "allow-without-effect", W, path, line, col, line, col + 10,
                                  "'pypi.org' has no effect");
  ck_assert_ptr_nonnull(d->fix);
  py_apply(want, "allow-without-effect");
}

START_TEST(test_fix_deny_in_list) {
  const char *np = "network_policy.allow_out[0]";
  CHECK(BIND "{'type': 'filtered', 'allow_out': ['pypi.org'], 'deny_out': []})\n");
  py_fix(boxlint_report_diag(R, 0), 124, 0, "'ALL_TRAFFIC'");
  deny_fix(BIND "{'type': 'filtered', 'allow_out': ['pypi.org'], 'deny_out': []})\n", np, 1, 99,
           BIND "{'type': 'filtered', 'allow_out': ['pypi.org'], 'deny_out': ['ALL_TRAFFIC']})\n");
  deny_fix(BIND "{'type': 'filtered', 'allow_out': ['pypi.org'], 'deny_out': ['a.example']})\n",
           np, 1, 99,
           BIND "{'type': 'filtered', 'allow_out': ['pypi.org'], 'deny_out': ['a.example', "
           "'ALL_TRAFFIC']})\n");
  deny_fix(BIND "{\n    \"type\": \"filtered\",\n    \"allow_out\": [\"pypi.org\"],\n"
           "    \"deny_out\": [\n        \"a.example\",\n        \"b.example\"\n    ],\n})\n",
           np, 3, 19,
           BIND "{\n    \"type\": \"filtered\",\n    \"allow_out\": [\"pypi.org\"],\n"
           "    \"deny_out\": [\n        \"a.example\",\n        \"b.example\",\n"
           "        \"ALL_TRAFFIC\"\n    ],\n})\n");
  deny_fix(BIND "{\n    \"type\": \"filtered\",\n    \"allow_out\": [\"pypi.org\"],\n"
           "    \"deny_out\": [\n        \"a.example\",\n        \"b.example\",\n    ],\n})\n",
           np, 3, 19,
           BIND "{\n    \"type\": \"filtered\",\n    \"allow_out\": [\"pypi.org\"],\n"
           "    \"deny_out\": [\n        \"a.example\",\n        \"b.example\",\n"
           "        \"ALL_TRAFFIC\",\n    ],\n})\n");
  /* a CRLF file: the new line ends as the others do */
  deny_fix("NetworkPolicy(type=\"filtered\", allow_out=[\"pypi.org\"], deny_out=[\r\n"
           "    \"a.example\"])\r\n", "allow_out[0]", 1, 43,
           "NetworkPolicy(type=\"filtered\", allow_out=[\"pypi.org\"], deny_out=[\r\n"
           "    \"a.example\",\r\n    \"ALL_TRAFFIC\"])\r\n");
  /* an empty tuple becomes a one-element tuple */
  deny_fix(BIND "{'type': 'filtered', 'allow_out': ['pypi.org'], 'deny_out': ()})\n", np, 1, 99,
           BIND "{'type': 'filtered', 'allow_out': ['pypi.org'], 'deny_out': ('ALL_TRAFFIC',)})\n");
  /* the passing case: nothing to fix */
  CHECK(BIND "{'type': 'filtered', 'allow_out': ['pypi.org'], 'deny_out': ['ALL_TRAFFIC']})\n");
  py_count(0);
}
END_TEST

START_TEST(test_fix_deny_absent) {
  const char *np = "network_policy.allow_out[0]";
  CHECK(BIND "{'type': 'filtered', 'allow_out': ['pypi.org']})\n");
  py_fix(boxlint_report_diag(R, 0), 109, 0, ", 'deny_out': ['ALL_TRAFFIC']");
  deny_fix(BIND "{\"type\": \"filtered\", \"allow_out\": [\"pypi.org\"]})\n", np, 1, 99,
           BIND "{\"type\": \"filtered\", \"allow_out\": [\"pypi.org\"], "
           "\"deny_out\": [\"ALL_TRAFFIC\"]})\n");
  deny_fix(BIND "{\n    'type': 'filtered',\n    'allow_out': ['pypi.org'],\n})\n", np, 3, 19,
           BIND "{\n    'type': 'filtered',\n    'allow_out': ['pypi.org'],\n"
           "    'deny_out': ['ALL_TRAFFIC'],\n})\n");
  deny_fix(BIND "{\n    'type': 'filtered',\n    'allow_out': ['pypi.org']\n})\n", np, 3, 19,
           BIND "{\n    'type': 'filtered',\n    'allow_out': ['pypi.org'],\n"
           "    'deny_out': ['ALL_TRAFFIC']\n})\n");
  deny_fix(BIND "NetworkPolicy(type=\"filtered\", allow_out=[\"pypi.org\"]))\n", np, 1, 106,
           BIND "NetworkPolicy(type=\"filtered\", allow_out=[\"pypi.org\"], "
           "deny_out=[\"ALL_TRAFFIC\"]))\n");
  deny_fix("p = NetworkPolicy(\n    type=\"filtered\",\n    allow_out=[\"pypi.org\"],\n)\n",
           "allow_out[0]", 3, 16,
           "p = NetworkPolicy(\n    type=\"filtered\",\n    allow_out=[\"pypi.org\"],\n"
           "    deny_out=[\"ALL_TRAFFIC\"],\n)\n");
  deny_fix("NetworkPolicy(\"filtered\", [\"pypi.org\"])\n", "allow_out[0]", 1, 28,
           "NetworkPolicy(\"filtered\", [\"pypi.org\"], deny_out=[\"ALL_TRAFFIC\"])\n");
}
END_TEST

/* Regression (found by these tests, fixed): in a NetworkPolicy(...) call written with single quotes, the deny_out added is written
 * with double quotes: edit.c's quote_of() looks at a value's items, and a call's arguments are
 * in `args`. The policy's own quote is right, as for a dict. */
START_TEST(bug_fix_deny_policy_call_quotes) {
  deny_fix("NetworkPolicy(type='filtered', allow_out=['pypi.org'])\n", "allow_out[0]", 1, 43,
           "NetworkPolicy(type='filtered', allow_out=['pypi.org'], deny_out=['ALL_TRAFFIC'])\n");
  deny_fix(BIND "NetworkPolicy(type='filtered', allow_out=['pypi.org'], deny_out=[]))\n",
           "network_policy.allow_out[0]", 1, 106,
           BIND "NetworkPolicy(type='filtered', allow_out=['pypi.org'], "
           "deny_out=['ALL_TRAFFIC']))\n");
}
END_TEST

/* A non-ASCII entry is replaced by its A-label, in the literal, escapes included. */
START_TEST(test_fix_policy_entry) {
  CHECK("NetworkPolicy(type='filtered', allow_out=['b\\u00fccher.de'], "
        "deny_out=['ALL_TRAFFIC'])\n");
  py_count(1);
  const boxlint_diag *d = py_diag(0, "invalid-policy-entry", E, "allow_out[0]", 1, 43, 1, 59,
                                  "its A-label is 'xn--bcher-kva.de'");
  py_fix(d, 43, 14, "xn--bcher-kva.de");
  py_apply("NetworkPolicy(type='filtered', allow_out=['xn--bcher-kva.de'], "
           "deny_out=['ALL_TRAFFIC'])\n", NULL);
}
END_TEST

/*==============================================================================================
 * MARK: edit.c directly
 *============================================================================================*/

/* bl_py_edit_string on the one literal expression of `src`: replace decoded bytes [o, o + l)
 * with `text`. Returns 1 with *fix filled, or 0 with *why. */
static int edit(const char *src, size_t o, size_t l, const char *text, boxlint_fix *fix,
                const char **why) {
  bl_pyreader rd;
  int rc = bl_py_read(&rd, &R->mem, src, strlen(src), BOXLINT_PYTHON_MINOR_DEFAULT), ok = -1;
  size_t i = 0;
  bl_pyval *v = rc || rd.err ? NULL : bl_py_parse_expr(&rd, &i);
  *why = NULL;
  if (v && v->kind == BL_PV_STR)
    ok = bl_py_edit_string(R, src, v, o, l, text, strlen(text), fix, why);
  bl_py_reader_free(&rd); /* the fix's text is in R */
  ck_assert_msg(ok >= 0, "%s is not one string literal", src);
  return ok;
}

static void edit_ok(const char *src, size_t o, size_t l, const char *text, size_t off,
                    size_t len, const char *want) {
  boxlint_fix f;
  const char *why;
  ck_assert_msg(edit(src, o, l, text, &f, &why), "%s: refused: %s", src, why ? why : "");
  ck_assert_uint_eq(f.offset, off);
  ck_assert_uint_eq(f.length, len);
  ck_assert_uint_eq(f.text_len, strlen(want));
  ck_assert_str_eq(f.text, want);
}

static void edit_refused(const char *src, size_t o, size_t l, const char *text, const char *want) {
  boxlint_fix f;
  const char *why;
  ck_assert_msg(!edit(src, o, l, text, &f, &why), "%s: %s accepted", src, text);
  ck_assert_ptr_nonnull(why);
  ck_assert_str_eq(why, want);
}

#define RAW "the text needs an escape, and the literal is a raw string"

START_TEST(test_edit_escaping) {
  edit_ok("\"abc\"\n", 0, 3, "a\"b\\c'", 1, 3, "a\\\"b\\\\c'");
  edit_ok("'abc'\n", 0, 3, "a\"b'", 1, 3, "a\"b\\'");
  edit_ok("'abc'\n", 1, 1, "x\ny\tz\x01", 2, 1, "x\\ny\\tz\\x01");
  edit_ok("'''abc'''\n", 0, 0, "x\ny", 3, 0, "x\ny");      /* a triple quote keeps the line */
  edit_ok("f'abc'\n", 0, 3, "{x}", 2, 3, "{{x}}");           /* braces doubled */
  edit_ok("rf'abc'\n", 0, 3, "{x}", 3, 3, "{{x}}");
  edit_ok("b'abc'\n", 0, 3, "\xc3\xa9", 2, 3, "\\xc3\\xa9"); /* bytes: non-ASCII escaped */
  edit_ok("'abc'\n", 0, 3, "\xc3\xa9", 1, 3, "\xc3\xa9");
  edit_ok("'ab'\n", 2, 0, "c", 3, 0, "c");                    /* at the end of the body */
  edit_ok("r'abc'\n", 0, 3, "a\"b", 2, 3, "a\"b");           /* the other quote is fine */
  edit_ok("'\\u00e9x'\n", 0, 2, "e", 1, 6, "e");              /* a whole escape */
  /* a whole value over concatenated literals: one literal in the first one's style */
  edit_ok("'ab' \"cd\"\n", 0, 4, "x'y", 0, 9, "'x\\'y'");
}
END_TEST

START_TEST(test_edit_refusals) {
  edit_refused("r'abc'\n", 0, 3, "a\\b", RAW);
  edit_refused("r'abc'\n", 0, 3, "a'b", RAW);
  edit_refused("r'abc'\n", 0, 3, "a\nb", RAW);
  edit_refused("R\"abc\"\n", 1, 1, "\x01", RAW);
  edit_refused("rb'abc'\n", 0, 3, "\xc3\xa9", RAW);
  edit_refused("r'ab' 'cd'\n", 0, 4, "x'y", RAW);
  edit_refused("'\\u00e9x'\n", 1, 1, "e", "the text to replace begins or ends inside an escape "
               "sequence");
  edit_refused("'\\u00e9x'\n", 0, 1, "e", "the text to replace begins or ends inside an escape "
               "sequence");
  edit_refused("'ab' 'cd'\n", 1, 2, "x", "the text to replace spans two concatenated literals");
}
END_TEST

/* Regression (found by these tests, fixed): a raw triple-quoted string holds a line break as it is, but encode() refuses any byte
 * under 0x20 in a raw string, the line break included. (No rule's fix has a line break yet.) */
START_TEST(bug_edit_raw_triple_newline) {
  edit_ok("r'''abc'''\n", 0, 3, "a\nb", 4, 3, "a\nb");
}
END_TEST

/* Regression (found by the python fuzz target, fixed): in a raw string a backslash keeps the
 * character after it (the closing quote, a line break), and removing one without the other
 * made the file invalid Python; such an edit is now refused. */
#define PART "the edit would part a backslash from the character it keeps in a raw string"
START_TEST(bug_edit_raw_backslash_pair) {
  edit_refused("r'a\\\nb'\n", 1, 1, "", PART);   /* r'a\<newline>b' */
  edit_refused("r'a\\'b'\n", 1, 1, "", PART);    /* r'a\'b' */
  edit_refused("r'''a\\''''\n", 1, 1, "", PART); /* r'''a\'''' : a quote at the end */
  edit_ok("r'a\\'b'\n", 0, 1, "x", 2, 1, "x");   /* elsewhere in the literal: accepted */
  edit_ok("r'a\\'b'\n", 1, 2, "", 3, 2, "");     /* the pair together: accepted */
  /* through the API: the dangling-continuation fix of r'...\<newline>' is refused, with why */
  CHECK(UPD "r'RUN echo \\\n'])\n");
  const boxlint_diag *d = py_diag(0, "dangling-continuation", E, "commands[0]", 1, 63, 1, 64,
                                  "ends inside a line continuation");
  py_no_fix(d, PART);
}
END_TEST

Suite *python_fix_suite(void) {
  Suite *s = suite_create("check_python_fix");
  TCase *tc = tcase_create("fixes");
  tcase_add_checked_fixture(tc, py_setup, py_teardown);
  tcase_add_test(tc, test_fix_insert_run);
  tcase_add_test(tc, test_fix_keyword);
  tcase_add_test(tc, test_fix_dangling_escape);
  tcase_add_test(tc, test_fix_in_module_level_name);
  tcase_add_test(tc, test_fix_name_slug);
  tcase_add_test(tc, test_fix_deny_in_list);
  tcase_add_test(tc, test_fix_deny_absent);
  tcase_add_test(tc, test_fix_policy_entry);
  tcase_add_test(tc, test_edit_escaping);
  tcase_add_test(tc, test_edit_refusals);
  suite_add_tcase(s, tc);

  tc = tcase_create("fix_bugs");
  tcase_add_checked_fixture(tc, py_setup, py_teardown);
  tcase_add_test(tc, bug_fix_deny_policy_call_quotes);
  tcase_add_test(tc, bug_edit_raw_triple_newline);
  tcase_add_test(tc, bug_edit_raw_backslash_pair);
  suite_add_tcase(s, tc);
  return s;
}

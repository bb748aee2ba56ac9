/*
 * Unit tests of boxlint_check_python (lib/src/python/, docs/design.md §6, §7): SDK calls it reads
 * (templates.create/update, add_code_interpreter, NetworkPolicy; keyword, positional, awaited),
 * Python's literal semantics (prefixes, quotes, escapes, concatenation, module-level names),
 * not-static arguments, argument types, the API's edges and out of memory through a failing
 * allocator. Each finding is pinned to its rule, severity, path, start and end (code points)
 * and message; the offsets are checked against the line and column by an independent count.
 * Every input is copied into a buffer of its exact size, so ASan (BOXLINT_SANITIZER) sees a
 * read past the end. Syntax errors, tricky valid files and suppressions are in
 * check_python_syntax.c, the fixes in check_python_fix.c; main() runs the three suites. Tests
 * named bug_* pin the correct behaviour where these tests found a defect (since fixed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_python.h"
#include "failing_alloc.h"

/*==============================================================================================
 * Helpers (declared in check_python.h)
 *============================================================================================*/

boxlint_report *R;
boxlint_config *CFG;
static char *BUF;     /* the text of the last check, exactly BUFLEN bytes */
static size_t BUFLEN;
static char *OUT;     /* the fixed text, freed by the teardown when a test fails */

void py_setup(void) {
  ck_assert_int_eq(boxlint_report_new(&R, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_config_new(&CFG, NULL), BOXLINT_OK);
  PY_MINOR = 0;
}
void py_teardown(void) {
  boxlint_report_free(R);
  boxlint_config_free(CFG);
  free(BUF);
  boxlint_buffer_free(OUT, NULL);
  R = NULL;
  CFG = NULL;
  BUF = NULL;
  OUT = NULL;
}

int PY_MINOR; /* boxlint_options.python_minor of the checks (0: the default) */

static boxlint_status run_on(boxlint_report *r, const char *s, size_t n) {
  boxlint_options o;
  boxlint_options_init(&o);
  o.config = CFG;
  o.python_minor = PY_MINOR;
  return boxlint_check_python(r, s, n, &o, NULL);
}

void py_dump(void) {
  fprintf(stderr, "in: %.*s\n", (int)BUFLEN, BUF ? BUF : "");
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    fprintf(stderr, "  [%zu] %s %s path=%s %u:%u-%u:%u: %s (hint: %s)\n", i, d->rule,
            boxlint_severity_str(d->severity), d->path ? d->path : "-", d->line, d->column,
            d->end_line, d->end_column, d->message, d->hint ? d->hint : "-");
  }
}

void py_check(const char *src, size_t n, boxlint_status want) {
  free(BUF);
  BUF = malloc(n ? n : 1);
  ck_assert_ptr_nonnull(BUF);
  memcpy(BUF, src, n);
  BUFLEN = n;
  boxlint_report_clear(R);
  boxlint_status st = run_on(R, BUF, n);
  if (st != want) py_dump();
  ck_assert_int_eq(st, want);
}

/* Line and column of byte `off`: Python's line breaks, code points counted by their lead bytes;
 * a UTF-8 BOM is not a column. */
static void where(size_t off, uint32_t *line, uint32_t *col) {
  size_t i = BUFLEN >= 3 && !memcmp(BUF, "\xef\xbb\xbf", 3) && off >= 3 ? 3 : 0;
  *line = 1;
  *col = 1;
  for (; i < off && i < BUFLEN; i++) {
    unsigned char b = (unsigned char)BUF[i];
    if (b == '\r' && i + 1 < off && BUF[i + 1] == '\n') i++;
    if (b == '\r' || b == '\n') {
      ++*line;
      *col = 1;
    } else if ((b & 0xC0) != 0x80) {
      ++*col;
    }
  }
}

const boxlint_diag *py_diag(size_t i, const char *rule, boxlint_severity sev, const char *path,
                            uint32_t line, uint32_t col, uint32_t end_line, uint32_t end_col,
                            const char *msg) {
  if (boxlint_report_diag_count(R) <= i) py_dump();
  ck_assert_uint_gt(boxlint_report_diag_count(R), i);
  const boxlint_diag *d = boxlint_report_diag(R, i);
  int same_path = path ? d->path && !strcmp(d->path, path) : !d->path;
  if (strcmp(d->rule, rule) || d->severity != sev || !same_path || d->line != line ||
      d->column != col || d->end_line != end_line || d->end_column != end_col ||
      !strstr(d->message, msg)) {
    fprintf(stderr, "diagnostic %zu: want %s %s %u:%u-%u:%u \"%s\"\n", i, rule,
            path ? path : "-", line, col, end_line, end_col, msg);
    py_dump();
  }
  ck_assert_str_eq(d->rule, rule);
  ck_assert_int_eq(d->severity, sev);
  if (path) {
    ck_assert_ptr_nonnull(d->path);
    ck_assert_str_eq(d->path, path);
  } else {
    ck_assert_ptr_null(d->path);
  }
  ck_assert_uint_eq(d->line, line);
  ck_assert_uint_eq(d->column, col);
  ck_assert_uint_eq(d->end_line, end_line);
  ck_assert_uint_eq(d->end_column, end_col);
  ck_assert_msg(strstr(d->message, msg), "message \"%s\" lacks \"%s\"", d->message, msg);
  uint32_t l, c;
  where(d->offset, &l, &c);
  ck_assert_msg(l == line && c == col, "offset %zu is %u:%u", d->offset, l, c);
  where(d->end_offset, &l, &c);
  ck_assert_msg(l == end_line && c == end_col, "end offset %zu is %u:%u", d->end_offset, l, c);
  return d;
}

void py_count(size_t n) {
  if (boxlint_report_diag_count(R) != n) py_dump();
  ck_assert_uint_eq(boxlint_report_diag_count(R), n);
}

void py_none_of(const char *rule) {
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++)
    if (!strcmp(boxlint_report_diag(R, i)->rule, rule)) {
      py_dump();
      ck_abort_msg("unexpected %s", rule);
    }
}

void py_fix(const boxlint_diag *d, size_t off, size_t len, const char *text) {
  ck_assert_ptr_nonnull(d->fix);
  ck_assert_uint_eq(d->fix->offset, off);
  ck_assert_uint_eq(d->fix->length, len);
  ck_assert_uint_eq(d->fix->text_len, strlen(text));
  ck_assert_str_eq(d->fix->text, text);
}

void py_no_fix(const boxlint_diag *d, const char *why) {
  ck_assert_ptr_null(d->fix);
  ck_assert_ptr_nonnull(d->hint);
  ck_assert_msg(strstr(d->hint, "(no automatic fix: ") && strstr(d->hint, why),
                "hint \"%s\" lacks the refusal \"%s\"", d->hint, why);
}

void py_apply(const char *want, const char *gone) {
  size_t n = boxlint_report_diag_count(R), nf = 0;
  const boxlint_fix *fixes[32];
  const char *rules[32];
  ck_assert_uint_le(n, 32);
  for (size_t i = 0; i < n; i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    if (d->fix) {
      rules[nf] = d->rule; /* static storage */
      fixes[nf++] = d->fix;
    }
  }
  ck_assert_uint_gt(nf, 0);
  size_t out_len = 0;
  unsigned char applied[32];
  boxlint_buffer_free(OUT, NULL);
  OUT = NULL;
  ck_assert_int_eq(boxlint_apply_fixes(BUF, BUFLEN, fixes, nf, &OUT, &out_len, applied, NULL),
                   BOXLINT_OK);
  const char *out = OUT;
  for (size_t i = 0; i < nf; i++) ck_assert_msg(applied[i], "fix %zu not applied", i);
  if (out_len != strlen(want) || memcmp(out, want, out_len))
    fprintf(stderr, "fixed: [%.*s]\nwant:  [%s]\n", (int)out_len, out, want);
  ck_assert_uint_eq(out_len, strlen(want));
  ck_assert_mem_eq(out, want, out_len);
  py_check(out, out_len, BOXLINT_OK);
  py_none_of("python-syntax");
  if (gone) py_none_of(gone);
  else
    for (size_t i = 0; i < nf; i++) py_none_of(rules[i]);
}

/*==============================================================================================
 * MARK: Calls
 *============================================================================================*/

START_TEST(test_create_keyword) {
  CHECK("client.code_interpreter.templates.create(\n    name='My Tpl',\n"
        "    commands=['RUN sudo x'],\n    cpu_count=99,\n    memory_mb=4096,\n)\n");
  py_count(3);
  py_diag(0, "invalid-name", E, "name", 2, 10, 2, 18, "template name \"My Tpl\" may only hold");
  py_diag(1, "sudo-usage", W, "commands[0]", 3, 20, 3, 24, "sudo: template commands");
  py_diag(2, "invalid-resources", E, "cpu_count", 4, 15, 4, 17, "cpu_count is 99");
  CHECK("client.code_interpreter.templates.create(\n    name='my-tpl',\n"
        "    commands=['RUN x'],\n    cpu_count=2,\n    memory_mb=4096,\n)\n");
  py_count(0);
}
END_TEST

START_TEST(test_create_positional) {
  CHECK("c.code_interpreter.templates.create('n', ['RUN sudo x'], 0)\n");
  py_count(3);
  const boxlint_diag *d =
      py_diag(0, "missing-field", E, "memory_mb", 1, 30, 1, 36, "the template has no "
              "\"memory_mb\"");
  ck_assert_str_eq(d->hint, "pass memory_mb=4096"); /* in call spelling */
  py_diag(1, "sudo-usage", W, "commands[0]", 1, 48, 1, 52, "sudo");
  py_diag(2, "invalid-resources", E, "cpu_count", 1, 58, 1, 59, "cpu_count is 0");
  CHECK("c.code_interpreter.templates.create('n', ['RUN x'], 2, 4096)\n");
  py_count(0);
}
END_TEST

START_TEST(test_update) {
  /* update takes no cpu_count or memory_mb: no missing-field */
  CHECK("c.code_interpreter.templates.update('Bad Name', commands=['RUN sudo x'])\n");
  py_count(2);
  py_diag(0, "invalid-name", E, "name", 1, 37, 1, 47, "template name \"Bad Name\"");
  py_diag(1, "sudo-usage", W, "commands[0]", 1, 64, 1, 68, "sudo");
  CHECK("c.code_interpreter.templates.update('my-tpl', commands=['RUN x'])\n");
  py_count(0);
}
END_TEST

START_TEST(test_bind_positional) {
  CHECK("x.agents.add_code_interpreter('prm', 'Bad Id', 0, 0, {'type': 'open'})\n");
  py_count(3);
  py_diag(0, "invalid-template-id", E, "template_id", 1, 38, 1, 46, "template_id \"Bad Id\"");
  py_diag(1, "invalid-version", E, "version", 1, 48, 1, 49, "version is 0");
  py_diag(2, "invalid-lifespan", E, "lifespan_seconds", 1, 51, 1, 52, "lifespan_seconds is 0");
  CHECK("x.agents.add_code_interpreter('prm', 'python-4g', 1, 1200, {'type': 'open'})\n");
  py_count(0);
}
END_TEST

START_TEST(test_bind_keyword) {
  CHECK("x.agents.add_code_interpreter(agent_id='prm', template_id='python-4g', version=-1,\n"
        "    lifespan_seconds=10, network_policy=None, colour='red')\n");
  py_count(3);
  py_diag(0, "invalid-version", E, "version", 1, 80, 1, 82, "version is -1");
  py_diag(1, "unusual-lifespan", W, "lifespan_seconds", 2, 22, 2, 24, "lifespan_seconds is 10");
  py_diag(2, "unknown-argument", E, NULL, 2, 47, 2, 53, "add_code_interpreter() got an "
          "unexpected keyword argument 'colour' (the SDK raises TypeError)");
  CHECK("x.agents.add_code_interpreter('prm', version=1)\n");
  py_count(1);
  py_diag(0, "missing-field", E, "template_id", 1, 10, 1, 30, "the binding has no \"template_id\"");
  CHECK("x.agents.add_code_interpreter(agent_id='prm', template_id='python-4g', version=2,\n"
        "    lifespan_seconds=600, network_policy=None)\n");
  py_count(0);
}
END_TEST

START_TEST(test_await) {
  CHECK("async def main():\n"
        "    t = await c.code_interpreter.templates.create(name='n', commands=['RUN sudo x'], "
        "cpu_count=2, memory_mb=4096)\n"
        "    await x.agents.add_code_interpreter('prm', template_id='python-4g', version=0)\n");
  py_count(2);
  py_diag(0, "sudo-usage", W, "commands[0]", 2, 76, 2, 80, "sudo");
  py_diag(1, "invalid-version", E, "version", 3, 81, 3, 82, "version is 0");
  CHECK("async def main():\n"
        "    await x.agents.add_code_interpreter('prm', template_id='python-4g', version=1)\n");
  py_count(0);
}
END_TEST

/* A NetworkPolicy(...) on its own is checked as a policy; one passed as network_policy is
 * checked once, as the binding's. */
START_TEST(test_policy_alone_and_bound) {
  CHECK("p = NetworkPolicy(type='filtered', allow_out=['pypi.org'])\n"
        "x.agents.add_code_interpreter('prm', 'python-4g', network_policy=NetworkPolicy("
        "type='filtered', allow_out=['a.org']))\n");
  py_count(2);
  py_diag(0, "allow-without-effect", W, "allow_out[0]", 1, 47, 1, 57,
          "allow_out[0]: 'pypi.org' has no effect");
  py_diag(1, "allow-without-effect", W, "network_policy.allow_out[0]", 2, 108, 2, 115,
          "'a.org' has no effect");
  CHECK("p = NetworkPolicy(type='filtered', allow_out=['pypi.org'], deny_out=['ALL_TRAFFIC'])\n");
  py_count(0);
}
END_TEST

/* The config the file is checked with sets the policy warnings' severities too (the library
 * applies it; no caller re-applies it): raised, switched off; a config in the policy options
 * takes precedence for the policies. */
START_TEST(test_policy_config_severity) {
#define POLS "p = NetworkPolicy(type='filtered', allow_out=['pypi.org'])\n" \
             "x.agents.add_code_interpreter('prm', 'python-4g', network_policy=NetworkPolicy(" \
             "type='filtered', allow_out=['a.org']))\n"
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "allow-without-effect", 20, E, NULL),
                   BOXLINT_OK);
  CHECK(POLS);
  py_count(2);
  py_diag(0, "allow-without-effect", E, "allow_out[0]", 1, 47, 1, 57,
          "allow_out[0]: 'pypi.org' has no effect");
  py_diag(1, "allow-without-effect", E, "network_policy.allow_out[0]", 2, 108, 2, 115,
          "'a.org' has no effect");
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "allow-without-effect", 20,
                                               BOXLINT_SEVERITY_OFF, NULL), BOXLINT_OK);
  CHECK(POLS);
  py_count(0);
  /* the policy options' own config */
  boxlint_config *pc = NULL;
  ck_assert_int_eq(boxlint_config_new(&pc, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_config_set_severity(pc, "allow-without-effect", 20, I, NULL),
                   BOXLINT_OK);
  boxlint_options o;
  boxlint_options_init(&o);
  o.config = CFG;
  boxlint_policy_options po;
  boxlint_policy_options_init(&po);
  po.config = pc;
  boxlint_report_clear(R);
  ck_assert_int_eq(boxlint_check_python(R, POLS, sizeof POLS - 1, &o, &po), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 2);
  for (size_t i = 0; i < 2; i++) {
    ck_assert_str_eq(boxlint_report_diag(R, i)->rule, "allow-without-effect");
    ck_assert_int_eq(boxlint_report_diag(R, i)->severity, I);
  }
  boxlint_config_free(pc);
#undef POLS
}
END_TEST

/* Regression (found by these tests, fixed): `budai.NetworkPolicy(...)` passed as network_policy is checked twice: the binding's
 * policy value starts at `budai`, the NetworkPolicy call's at `NetworkPolicy`, so check.c's
 * "checked as a binding's" test (same start offset) misses it. One finding is right. */
START_TEST(bug_qualified_policy_checked_twice) {
  CHECK("budai.NetworkPolicy(type='filtered', allow_out=['a.org'])\n");
  py_count(1);
  py_diag(0, "allow-without-effect", W, "allow_out[0]", 1, 49, 1, 56, "'a.org' has no effect");
  CHECK("x.agents.add_code_interpreter('prm', 'python-4g', network_policy=budai.NetworkPolicy("
        "type='filtered', allow_out=['a.org']))\n");
  py_count(1);
  py_diag(0, "allow-without-effect", W, "network_policy.allow_out[0]", 1, 114, 1, 121,
          "'a.org' has no effect");
}
END_TEST

START_TEST(test_definitions_are_not_calls) {
  static const char defs[] =
      "from budai import NetworkPolicy\n"
      "class NetworkPolicy(Base):\n    pass\n"
      "def create(name='Bad Name', commands='x'):\n    pass\n"
      "def add_code_interpreter(agent_id, template_id='Bad Id', version=0):\n    pass\n"
      "async def NetworkPolicy(type='filtered', allow_out=['a.org']):\n    pass\n"
      "f = client.code_interpreter.templates.create\n";
  CHECK(defs);
  /* the method named without a call: a reference boxlint cannot follow, the rest nothing */
  py_count(1);
  py_diag(0, "not-static", I, NULL, 10, 5, 10, 45, "a method of templates used other than by a "
          "direct call");
  /* the same file with a call: exactly that call's finding */
  CHECK("from budai import NetworkPolicy\n"
        "def create(name='Bad Name', commands='x'):\n    pass\n"
        "c.code_interpreter.templates.create('Bad Name', ['RUN x'], 2, 4096)\n");
  py_count(1);
  py_diag(0, "invalid-name", E, "name", 4, 37, 4, 47, "\"Bad Name\"");
}
END_TEST

/* The documentation elides arguments as `create(...)`: one not-static, nothing else. */
START_TEST(test_elided_arguments) {
  CHECK("tpl = client.code_interpreter.templates.create(...)\n");
  py_count(1);
  py_diag(0, "not-static", I, "the arguments", 1, 48, 1, 51,
          "the arguments of templates.create are elided (...)");
  CHECK("x = ...\ny = f(...)\n");
  py_count(0);
}
END_TEST

/*==============================================================================================
 * MARK: Literal semantics
 *============================================================================================*/

/* Every prefix, with each quote: the finding is at `sudo` inside the literal. */
START_TEST(test_prefixes_and_quotes) {
  static const char *const prefixes[] = {"", "r", "u", "R", "U", "b", "B", "f", "F", "rb",
                                         "Rb", "BR", "bR", "rB", "br", "fr", "Fr", "fR", "rf",
                                         "RF"};
  static const char *const quotes[] = {"'", "\"", "'''", "\"\"\""};
  for (size_t p = 0; p < sizeof prefixes / sizeof *prefixes; p++)
    for (size_t q = 0; q < 4; q++) {
      char src[128];
      int n = snprintf(src, sizeof src, UPD "%s%sRUN sudo x%s])\n", prefixes[p], quotes[q],
                       quotes[q]);
      py_check(src, (size_t)n, BOXLINT_OK);
      py_count(1);
      if (strpbrk(prefixes[p], "bB")) { /* the SDK takes str: bytes are rejected whole */
        uint32_t len = (uint32_t)(strlen(prefixes[p]) + 2 * strlen(quotes[q]) + 10);
        py_diag(0, "invalid-argument-type", E, "commands[0]", 1, 52, 1, 52 + len, "not bytes");
        continue;
      }
      uint32_t col = (uint32_t)(52 + strlen(prefixes[p]) + strlen(quotes[q]) + 4);
      py_diag(0, "sudo-usage", W, "commands[0]", 1, col, 1, col + 4, "sudo");
    }
}
END_TEST

/* Triple quotes over lines, in a CRLF file: positions count \r\n as one line break. */
START_TEST(test_triple_quotes_crlf) {
  CHECK("# a comment\r\n" UPD "'''RUN echo a\r\n&& b''', 'RUN \\x73udo y'])\r\n"
        "c.code_interpreter.templates.update('i', commands=['RUN sudo z'])\r\n");
  py_count(3);
  py_diag(0, "multiple-instructions", E, "commands[0]", 3, 1, 3, 5, "a second instruction (&&)");
  py_diag(1, "sudo-usage", W, "commands[1]", 3, 15, 3, 22, "sudo");
  py_diag(2, "sudo-usage", W, "commands[0]", 4, 57, 4, 61, "sudo");
  CHECK("# a comment\r\n" UPD "'''RUN echo a \\\\\r\n  b''', 'RUN \\x73-udo y'])\r\n");
  py_count(0);
}
END_TEST

/* The decoded value, as the invalid-name message quotes it. */
START_TEST(test_escapes_decoded) {
  static const struct { const char *lit, *quoted; } cases[] = {
      {"'A\\nB'", "\"A\\nB\""},
      {"'\\x41\\u00e9\\U0001F600'", "\"A\xc3\xa9\xf0\x9f\x98\x80\""},
      {"'\\N{LATIN SMALL LETTER E WITH ACUTE}\\N{latin small letter e with acute}'",
       "\"\xc3\xa9\xc3\xa9\""},
      {"'\\101\\7\\0'", "\"A\\x07\\x00\""},
      {"'a\\d\\q'", "\"a\\d\\q\""},               /* unknown escapes keep the backslash */
      {"'\\777-\\1234'", "\"\xc7\xbf-S4\""},        /* octal: at most three digits */
      {"'a\\\nB'", "\"aB\""},                       /* a line continuation inside a string */
      {"('A'  # c\n  'B'\n  # d\n  \"C\")", "\"ABC\""}, /* concatenation across lines */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char src[256];
    int n = snprintf(src, sizeof src, "c.code_interpreter.templates.update(%s, commands=[])\n",
                     cases[i].lit);
    py_check(src, (size_t)n, BOXLINT_OK);
    py_count(1);
    const boxlint_diag *d = boxlint_report_diag(R, 0);
    ck_assert_str_eq(d->rule, "invalid-name");
    char want[128];
    snprintf(want, sizeof want, "template name %s may only hold", cases[i].quoted);
    ck_assert_msg(strstr(d->message, want), "%s: \"%s\" lacks %s", cases[i].lit, d->message, want);
  }
  CHECK("c.code_interpreter.templates.update('a\\x2db\\N{DIGIT ONE}', commands=[])\n"); /* a-b1 */
  py_count(0);
}
END_TEST

/* A byte that comes from an escape is reported at the escape's backslash, and a character
 * after a long escape or non-ASCII text is counted in code points. */
START_TEST(test_positions_through_escapes) {
  CHECK(UPD "'RUN \\N{LATIN SMALL LETTER E WITH ACUTE} && \\x73udo y'])\n");
  py_count(1);
  py_diag(0, "sudo-usage", W, "commands[0]", 1, 96, 1, 103, "sudo");
  CHECK("x = '\xc3\xa9\xc3\xa9'; c.code_interpreter.templates.update('\xc3\xa9', commands=['RUN \xc3\xa9 && "
        "\\x73udo y'])\n");
  py_count(2);
  py_diag(0, "invalid-name", E, "name", 1, 47, 1, 50, "\"\xc3\xa9\"");
  py_diag(1, "sudo-usage", W, "commands[0]", 1, 72, 1, 79, "sudo");
  /* implicit concatenation, a comment and a line between the pieces */
  CHECK(UPD "('RUN echo '  # install\n    \"&& sudo x\")])\n");
  py_count(1);
  py_diag(0, "sudo-usage", W, "commands[0]", 2, 9, 2, 13, "sudo");
}
END_TEST

START_TEST(test_module_level_names) {
  CHECK("SETUP = ['RUN echo', 'RUN sudo x']\nc.code_interpreter.templates.update('i', commands=SETUP)\n");
  py_count(1);
  py_diag(0, "sudo-usage", W, "commands[1]", 1, 27, 1, 31, "sudo");
  CHECK("S: str = 'RUN sudo x'\nA = B\nB = [S]\nc.code_interpreter.templates.update('i', commands=A)\n");
  py_count(1);
  py_diag(0, "sudo-usage", W, "commands[0]", 1, 15, 1, 19, "sudo");
  CHECK("SETUP = ['RUN echo']\nc.code_interpreter.templates.update('i', commands=SETUP)\n");
  py_count(0);
}
END_TEST

START_TEST(test_names_not_static) {
  static const struct { const char *src, *why; uint32_t line; } cases[] = {
      {"C = ['RUN sudo x']\nC = []\n", "a name bound more than once", 3},
      {"C = ['RUN sudo x']\nfor C in y: pass\n", "a name bound more than once", 3},
      {"def f():\n    C = ['RUN sudo x']\n", "a name not bound by one module-level assignment", 3},
      {"from m import C\n", "a name not bound by one module-level assignment", 2},
      {"import C\n", "a name not bound by one module-level assignment", 2},
      {"C = ['RUN sudo x'] + y\n", "an expression", 2},
      {"", "a name not bound by one module-level assignment", 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char src[256];
    int n = snprintf(src, sizeof src, "%sc.code_interpreter.templates.update('i', commands=C)\n", cases[i].src);
    py_check(src, (size_t)n, BOXLINT_OK);
    py_count(1);
    char msg[160];
    snprintf(msg, sizeof msg, "commands of templates.update is %s, known only when the code runs",
             cases[i].why);
    py_diag(0, "not-static", I, "commands", cases[i].line, 51, cases[i].line, 52, msg);
  }
}
END_TEST

/*==============================================================================================
 * MARK: Not static
 *============================================================================================*/

START_TEST(test_not_static_forms) {
  static const struct { const char *arg, *why; } cases[] = {
      {"f'RUN pip install {pkg}'", "an f-string with replacement fields"},
      {"get()", "a call"},
      {"cfg.cmds", "an attribute"},
      {"cmds[0]", "a subscript"},
      {"x if y else z", "a conditional expression"},
      {"a + b", "an expression"},
      {"undefined", "a name not bound by one module-level assignment"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char src[256];
    int n = snprintf(src, sizeof src, "c.code_interpreter.templates.create('n', commands=%s, cpu_count=2, "
                     "memory_mb=4096)\n", cases[i].arg);
    py_check(src, (size_t)n, BOXLINT_OK);
    py_count(1);
    char msg[160];
    snprintf(msg, sizeof msg, "commands of templates.create is %s, known only when the code runs:"
             " not checked", cases[i].why);
    const boxlint_diag *d = py_diag(0, "not-static", I, "commands", 1, 51, 1,
                                    (uint32_t)(51 + strlen(cases[i].arg)), msg);
    ck_assert_ptr_nonnull(d->hint);
    ck_assert_ptr_null(d->fix);
  }
  /* one element known only at run time: the others are checked */
  CHECK("c.code_interpreter.templates.update('i', commands=[f'RUN {x}', 'RUN sudo y'])\n");
  py_count(2);
  py_diag(0, "not-static", I, "commands[0]", 1, 52, 1, 62, "commands[0] of templates.update is an "
          "f-string");
  py_diag(1, "sudo-usage", W, "commands[1]", 1, 69, 1, 73, "sudo");
  /* an f-string without a field is a literal */
  CHECK("c.code_interpreter.templates.update('i', commands=[f'RUN {{x}}'])\n");
  py_count(0);
}
END_TEST

/* Regression (found by these tests, fixed): a list comprehension given as commands is read as a list of one dynamic element
 * (path "commands[0]", span inside the brackets); the whole argument is the comprehension. */
START_TEST(bug_list_comprehension) {
  CHECK("c.code_interpreter.templates.create('n', commands=[c for c in x], cpu_count=2, memory_mb=4096)\n");
  py_count(1);
  py_diag(0, "not-static", I, "commands", 1, 51, 1, 65,
          "commands of templates.create is a comprehension");
}
END_TEST

/* Regression (found by these tests, fixed): *args and **kwargs give no not-static at all: the arguments they may hold are never
 * checked and nothing says so. They must give one not-static (info) naming them, and no
 * missing-field. (The path is not pinned here: the argument as written is suggested.) */
START_TEST(bug_star_args_not_static) {
  static const struct { const char *src; uint32_t col, end; const char *name; } cases[] = {
      {"c.code_interpreter.templates.create(*args)\n", 37, 42, "*args"},
      {"c.code_interpreter.templates.create('n', ['RUN x'], **kw)\n", 53, 57, "**kw"},
      {"x.agents.add_code_interpreter('prm', *rest)\n", 38, 43, "*rest"},
  };
  for (size_t i = 0; i < 3; i++) {
    py_check(cases[i].src, strlen(cases[i].src), BOXLINT_OK);
    py_none_of("missing-field");
    py_count(1);
    const boxlint_diag *d = boxlint_report_diag(R, 0);
    ck_assert_str_eq(d->rule, "not-static");
    ck_assert_int_eq(d->severity, I);
    ck_assert_ptr_nonnull(d->path);
    ck_assert_uint_eq(d->column, cases[i].col);
    ck_assert_uint_eq(d->end_column, cases[i].end);
    ck_assert_msg(strstr(d->message, cases[i].name), "%s", d->message);
  }
}
END_TEST

/* Regression (found by these tests, fixed): a lambda argument followed by another argument is a syntax error ("positional argument
 * follows keyword argument"): the reader skips the lambda only to its ':', then reads the body
 * as a new argument. Valid Python; the lambda is the argument, not static. */
START_TEST(bug_lambda_argument) {
  CHECK("c.code_interpreter.templates.create('n', commands=lambda: 1, cpu_count=2, memory_mb=4096)\n");
  py_count(1);
  py_diag(0, "not-static", I, "commands", 1, 51, 1, 60, "commands of templates.create is a lambda");
}
END_TEST

/*==============================================================================================
 * MARK: Argument types
 *============================================================================================*/

START_TEST(test_invalid_argument_type) {
  CHECK("c.code_interpreter.templates.create(name=3, commands='RUN x', cpu_count=2, memory_mb=4096)\n");
  py_count(2);
  py_diag(0, "invalid-argument-type", E, "name", 1, 42, 1, 43, "name must be a string");
  py_diag(1, "invalid-argument-type", E, "commands", 1, 54, 1, 61,
          "commands must be a list of strings");
  CHECK(UPD "1, None, 'RUN x'])\n");
  py_count(2);
  py_diag(0, "invalid-argument-type", E, "commands[0]", 1, 52, 1, 53, "commands[0] must be a "
          "string");
  py_diag(1, "invalid-argument-type", E, "commands[1]", 1, 55, 1, 59, "commands[1] must be a "
          "string");
  CHECK("NetworkPolicy(type='filtered', allow_out='x', deny_out=['ALL_TRAFFIC'])\n");
  py_count(1);
  py_diag(0, "invalid-argument-type", E, "allow_out", 1, 42, 1, 45, "allow_out must be a list of "
          "strings");
  CHECK("x.agents.add_code_interpreter('p', 'python-4g', network_policy='open')\n");
  py_count(1);
  py_diag(0, "invalid-argument-type", E, "network_policy", 1, 64, 1, 70, "network_policy must be "
          "a dict or a NetworkPolicy");
  /* a tuple of strings is a list */
  CHECK("c.code_interpreter.templates.create(name='n', commands=('RUN x',), cpu_count=2, memory_mb=4096)\n");
  py_count(0);
}
END_TEST

/* True, False and `...` are values of the wrong type, as JSON's true and false are; None is the
 * SDK's default, the argument not given. (Regression: allow_out=True and deny_out=False passed.) */
/* Reflection says nothing in a file that cannot reach the SDK, and not-static in one that can
 * (an import of budai, a client's or a resource's name, a string naming it). */
START_TEST(test_reflection_needs_the_sdk) {
  CHECK("import os\nx = getattr(os, 'path')\ny = type.__dict__['a']\nexec('z = 1')\n");
  py_count(0);
  CHECK("import budai\ny = type.__dict__['a']\n");
  py_count(1);
  py_diag(0, "not-static", I, NULL, 2, 5, 2, 18, "the SDK calls made through it are known only");
  static const char *const spelled[] = {
      "y = type.__dict__['a']\nm = __import__('bud' 'ai')\n",
      "y = type.__dict__['a']\nm = __import__('bud'\n  # a comment\n  'ai')\n",
      "y = type.__dict__['a']\nm = __import__('\\x62udai')\n",
      "y = type.__dict__['a']\nm = __import__('\\142udai')\n",
      "y = type.__dict__['a']\nm = __import__('\\N{latin small letter b}udai')\n",
      "y = type.__dict__['a']\nm = getattr(c, 'code\\N{LOW LINE}interpreter')\n"};
  for (size_t i = 0; i < sizeof spelled / sizeof *spelled; i++) {
    py_check(spelled[i], strlen(spelled[i]), BOXLINT_OK);
    ck_assert_uint_ge(boxlint_report_diag_count(R), 1);
    ck_assert_str_eq(boxlint_report_diag(R, 0)->rule, "not-static");
    ck_assert_uint_eq(boxlint_report_diag(R, 0)->line, 1);
  }
  /* a name computed at run time is out of a static reader's sight (the guard's part) */
  CHECK("y = type.__dict__['a']\nm = __import__('bud' + 'ai')\n");
  py_count(0);
  CHECK("y = type.__dict__['a']\nm = __import__(r'\\x62udai')\n");
  py_count(0);
}
END_TEST

START_TEST(test_constants_are_values) {
  CHECK("NetworkPolicy(type='filtered', allow_out=True, deny_out=False)\n");
  py_count(2);
  py_diag(0, "invalid-argument-type", E, "allow_out", 1, 42, 1, 46, "allow_out must be a list of "
          "strings");
  py_diag(1, "invalid-argument-type", E, "deny_out", 1, 57, 1, 62, "deny_out must be a list of "
          "strings");
  CHECK("x.agents.add_code_interpreter('p', 't', network_policy={'type': True, 'allow_out': False})\n");
  py_count(2);
  py_diag(0, "invalid-argument-type", E, "network_policy.type", 1, 65, 1, 69,
          "network_policy.type must be a string");
  py_diag(1, "invalid-argument-type", E, "network_policy.allow_out", 1, 84, 1, 89,
          "network_policy.allow_out must be a list of strings");
  CHECK("x.agents.add_code_interpreter('p', 't', network_policy=False)\n");
  py_count(1);
  py_diag(0, "invalid-argument-type", E, "network_policy", 1, 56, 1, 61,
          "network_policy must be a dict or a NetworkPolicy");
  CHECK("c.code_interpreter.templates.create(name=True, commands=False, cpu_count=2, memory_mb=4096)\n");
  py_count(2);
  py_diag(0, "invalid-argument-type", E, "name", 1, 42, 1, 46, "name must be a string");
  py_diag(1, "invalid-argument-type", E, "commands", 1, 57, 1, 62,
          "commands must be a list of strings");
  /* None: not given */
  CHECK("NetworkPolicy(type='filtered', allow_out=None, deny_out=['ALL_TRAFFIC'])\n");
  py_count(0);
  CHECK("x.agents.add_code_interpreter('p', 't', network_policy=None)\n");
  py_count(0);
}
END_TEST

/* Regression (found by these tests, fixed): an allow_out that is not a list is left out of the policy check, which then says the
 * lists are empty (filtered-empty-is-open): they are not, one is invalid. Only the type error. */
START_TEST(bug_invalid_list_reported_empty) {
  CHECK("NetworkPolicy(type='filtered', allow_out='x')\n");
  py_count(1);
  py_diag(0, "invalid-argument-type", E, "allow_out", 1, 42, 1, 45, "allow_out must be a list");
}
END_TEST

/* Regression (found by these tests, fixed): a message and a fix description name the entry by its index among the checked entries,
 * while the path names it by its index in the file's list; with a dynamic entry first they
 * disagree ("allow_out[0]: 'bücher.de'" at path allow_out[1]). The file's index is right. */
START_TEST(bug_policy_message_index) {
  CHECK("NetworkPolicy(type='filtered', allow_out=[x, 'b\xc3\xbc" "cher.de'], "
        "deny_out=['ALL_TRAFFIC'])\n");
  py_count(2);
  py_diag(0, "not-static", I, "allow_out[0]", 1, 43, 1, 44, "allow_out[0] of NetworkPolicy");
  const boxlint_diag *d = py_diag(1, "invalid-policy-entry", E, "allow_out[1]", 1, 46, 1, 57,
                                  "allow_out[1]: 'b\xc3\xbc" "cher.de' is not ASCII");
  ck_assert_str_eq(d->fix->description, "replace allow_out[1] with \"xn--bcher-kva.de\"");
}
END_TEST

/*==============================================================================================
 * MARK: The API
 *============================================================================================*/

START_TEST(test_api_edges) {
  ck_assert_int_eq(boxlint_check_python(NULL, "x", 1, NULL, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_check_python(R, NULL, 1, NULL, NULL), BOXLINT_EINVAL);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
  ck_assert_int_eq(boxlint_check_python(R, NULL, 0, NULL, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
  /* NULL options: errors only, no warnings */
  static const char src[] = UPD "'pip install x', 'RUN sudo x'])\n";
  ck_assert_int_eq(boxlint_check_python(R, src, sizeof src - 1, NULL, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
  ck_assert_str_eq(boxlint_report_diag(R, 0)->rule, "unknown-instruction");
  /* the report is appended to: a second check adds its own */
  ck_assert_int_eq(run_on(R, src, sizeof src - 1), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 3);
  ck_assert_str_eq(boxlint_report_diag(R, 2)->rule, "sudo-usage");
  /* a syntax error leaves the earlier findings and adds only itself */
  ck_assert_int_eq(run_on(R, "NetworkPolicy = (", 17), BOXLINT_ESYNTAX);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 4);
  ck_assert_str_eq(boxlint_report_diag(R, 3)->rule, "python-syntax");
  /* and one that cannot reach the SDK adds nothing, and is no error */
  ck_assert_int_eq(run_on(R, "x = (", 5), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 4);
  /* inputs that end where a read past them would be tempting (exact-size buffers) */
  static const char *const ends[] = {"x = 'abc\\", "x = r'\\", "x = '''a\\", "\\", "x = 1 \\",
                                     "x = '\\N{", "x = '\\x", "x = '\\u12", "x = 0x", "x = 1e",
                                     "x = f'{", "x = '\\\r", "#", "x = b'\\", "if x:"};
  for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
    boxlint_report_clear(R);
    free(BUF);
    BUFLEN = strlen(ends[i]);
    BUF = malloc(BUFLEN);
    memcpy(BUF, ends[i], BUFLEN);
    boxlint_status st = run_on(R, BUF, BUFLEN);
    ck_assert_msg(st == BOXLINT_OK || st == BOXLINT_ESYNTAX, "%s: %d", ends[i], (int)st);
  }
}
END_TEST

/*==============================================================================================
 * MARK: Out of memory
 *============================================================================================*/

static const char OOM_SRC[] =
    "# boxlint: ignore=sudo-usage\n"
    "SETUP = ['RUN sudo x', 'pip install y', f'RUN {z}']\n"
    "N = 'My Tpl'\n"
    "c.code_interpreter.templates.create(name=N, commands=SETUP + [], cpu_count=99)\n"
    "c.code_interpreter.templates.create(N, SETUP, 2, 4096, gpu=1)\n"
    "c.code_interpreter.templates.update('x', commands=['RUN \\N{LATIN SMALL LETTER E WITH ACUTE}' 'x', "
    "'WROKDIR srv'])\n"
    "x.agents.add_code_interpreter('p', 'Bad Id', 0, 10, {'type': 'filtered',\n"
    "    'allow_out': ['pypi.org', 'b\xc3\xbc" "cher.de', y], 'deny_out': []})\n"
    "NetworkPolicy(type='filtered', allow_out=['a.org'])  # boxlint: ignore=bogus\n"
    "c.code_interpreter.templates.create(...)\n";

/* One check through a failing allocator: OK with the complete answer, or ENOMEM; never a
 * leak (the allocator counts its blocks). */
static boxlint_status oom_round(failer *f, const char *src, size_t n, boxlint_status ok) {
  boxlint_alloc a = failer_alloc(f);
  boxlint_report *r = NULL;
  boxlint_status st = boxlint_report_new(&r, &a);
  if (st == BOXLINT_OK) {
    st = run_on(r, src, n);
    ck_assert_msg(st == ok || st == BOXLINT_ENOMEM, "status %d", (int)st);
    for (size_t i = 0; i < boxlint_report_diag_count(r); i++)
      ck_assert_ptr_nonnull(boxlint_report_diag(r, i)->message);
    if (st == ok) {
      boxlint_report_clear(R);
      ck_assert_int_eq(run_on(R, src, n), ok);
      ck_assert_uint_eq(boxlint_report_diag_count(r), boxlint_report_diag_count(R));
      for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
        ck_assert_str_eq(boxlint_report_diag(r, i)->rule, boxlint_report_diag(R, i)->rule);
        ck_assert_str_eq(boxlint_report_diag(r, i)->message, boxlint_report_diag(R, i)->message);
      }
    }
    boxlint_report_free(r);
  }
  ck_assert_int_eq(f->live, 0);
  return st;
}

START_TEST(test_oom) {
  static const struct { const char *src; size_t n; boxlint_status ok; long min; } inputs[] = {
      {OOM_SRC, sizeof OOM_SRC - 1, BOXLINT_OK, 40},
      {"x = 1\n" UPD "'a'])\ny = (\n", 0, BOXLINT_ESYNTAX, 2},
  };
  for (size_t k = 0; k < 2; k++) {
    size_t n = inputs[k].n ? inputs[k].n : strlen(inputs[k].src);
    long fails = 0;
    for (long left = 0;; left++) { /* fail every allocation after `left` */
      ck_assert_msg(left < 100000, "no success after %ld allocations", left);
      failer f = {.left = left};
      boxlint_status st = oom_round(&f, inputs[k].src, n, inputs[k].ok);
      if (st != BOXLINT_ENOMEM) {
        ck_assert_int_eq(f.failed, 0);
        break;
      }
      fails++;
    }
    ck_assert_int_gt(fails, inputs[k].min); /* the loop went through the interesting part */
    for (long at = 0;; at++) { /* refuse one allocation only: never swallowed into a success */
      ck_assert_msg(at < 100000, "runaway");
      failer f = {.left = at, .once = 1};
      boxlint_status st = oom_round(&f, inputs[k].src, n, inputs[k].ok);
      if (!f.failed) break;
      ck_assert_msg(st == BOXLINT_ENOMEM, "allocation %ld refused, status %d", at, (int)st);
    }
  }
}
END_TEST

/*==============================================================================================
 * Suite
 *============================================================================================*/

static Suite *python_suite(void) {
  Suite *s = suite_create("check_python");
  TCase *tc = tcase_create("calls");
  tcase_add_checked_fixture(tc, py_setup, py_teardown);
  tcase_add_test(tc, test_create_keyword);
  tcase_add_test(tc, test_create_positional);
  tcase_add_test(tc, test_update);
  tcase_add_test(tc, test_bind_positional);
  tcase_add_test(tc, test_bind_keyword);
  tcase_add_test(tc, test_await);
  tcase_add_test(tc, test_policy_alone_and_bound);
  tcase_add_test(tc, test_policy_config_severity);
  tcase_add_test(tc, test_definitions_are_not_calls);
  tcase_add_test(tc, test_elided_arguments);
  suite_add_tcase(s, tc);

  tc = tcase_create("literals");
  tcase_add_checked_fixture(tc, py_setup, py_teardown);
  tcase_add_test(tc, test_prefixes_and_quotes);
  tcase_add_test(tc, test_triple_quotes_crlf);
  tcase_add_test(tc, test_escapes_decoded);
  tcase_add_test(tc, test_positions_through_escapes);
  tcase_add_test(tc, test_module_level_names);
  tcase_add_test(tc, test_names_not_static);
  tcase_add_test(tc, test_not_static_forms);
  tcase_add_test(tc, test_invalid_argument_type);
  tcase_add_test(tc, test_constants_are_values);
  tcase_add_test(tc, test_reflection_needs_the_sdk);
  suite_add_tcase(s, tc);

  tc = tcase_create("api");
  tcase_add_checked_fixture(tc, py_setup, py_teardown);
  tcase_add_test(tc, test_api_edges);
  suite_add_tcase(s, tc);

  tc = tcase_create("oom");
  tcase_add_checked_fixture(tc, py_setup, py_teardown);
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_oom);
  suite_add_tcase(s, tc);

  /* Defects found while writing these tests: each asserts the correct behaviour. */
  tc = tcase_create("bugs");
  tcase_add_checked_fixture(tc, py_setup, py_teardown);
  tcase_add_test(tc, bug_qualified_policy_checked_twice);
  tcase_add_test(tc, bug_list_comprehension);
  tcase_add_test(tc, bug_lambda_argument);
  tcase_add_test(tc, bug_star_args_not_static);
  tcase_add_test(tc, bug_invalid_list_reported_empty);
  tcase_add_test(tc, bug_policy_message_index);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(python_suite());
  srunner_add_suite(sr, python_syntax_suite());
  srunner_add_suite(sr, python_fix_suite());
  srunner_add_suite(sr, python_sound_suite());
  srunner_add_suite(sr, python_versions_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

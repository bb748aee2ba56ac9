/*
 * Unit tests of boxlint_check_binding (lib/src/lint/binding.c): the arguments of
 * `agents.add_code_interpreter` (the SDK's "Attach Code Interpreter"
 * call; docs/design.md §6). Each rule has a case that fires and a near case that must not,
 * pinned to its rule id, severity, path, message and hint; the boundaries of version (>= 1) and
 * lifespan_seconds (> 0; unusual under 60 or over 86400); values that are not integers as
 * `text` spells them; the rule table's entries; out of memory through a failing allocator.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxlint/boxlint.h"
#include "failing_alloc.h"
#include "report/internal.h" /* report->oom: a status is this call's, not a sticky flag's */

/*==============================================================================================
 * Helpers
 *============================================================================================*/

static boxlint_report *R;
static boxlint_config *CFG;

static void setup(void) {
  ck_assert_int_eq(boxlint_report_new(&R, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_config_new(&CFG, NULL), BOXLINT_OK);
}
static void teardown(void) {
  boxlint_report_free(R);
  boxlint_config_free(CFG);
  R = NULL;
  CFG = NULL;
}

#define SP(lit) {(lit), sizeof(lit) - 1}
#define W BOXLINT_SEVERITY_WARNING
#define E BOXLINT_SEVERITY_ERROR

/* A valid binding: template_id "python-4g", version and lifespan absent (the SDK's defaults). */
static boxlint_binding valid(void) {
  boxlint_binding b;
  memset(&b, 0, sizeof b);
  b.template_id = (boxlint_span)SP("python-4g");
  b.has_template_id = 1;
  return b;
}

static boxlint_number integer(int64_t v) {
  boxlint_number n = {1, 1, v, NULL};
  return n;
}
static boxlint_number not_integer(const char *text) {
  boxlint_number n = {1, 0, 0, text};
  return n;
}

/* Check `b` into a cleared R under `cfg` (NULL: no options at all). */
static void run(const boxlint_binding *b, const boxlint_config *cfg) {
  boxlint_report_clear(R);
  if (!cfg) {
    ck_assert_int_eq(boxlint_check_binding(R, b, NULL), BOXLINT_OK);
    return;
  }
  boxlint_options o;
  boxlint_options_init(&o);
  o.config = cfg;
  ck_assert_int_eq(boxlint_check_binding(R, b, &o), BOXLINT_OK);
}

static void dump(void) {
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    fprintf(stderr, "  [%zu] %s %s path=%s: %s (hint: %s)\n", i, d->rule,
            boxlint_severity_str(d->severity), d->path ? d->path : "-", d->message,
            d->hint ? d->hint : "-");
  }
}

/* Diagnostic `i` is a field diagnostic of `rule` at `path`: command -1, no line, no fix; its
 * message is exactly `msg`, its hint exactly `hint`. */
static const boxlint_diag *expect_at(size_t i, const char *rule, boxlint_severity sev,
                                     const char *path, const char *msg, const char *hint) {
  if (boxlint_report_diag_count(R) <= i) dump();
  ck_assert_uint_gt(boxlint_report_diag_count(R), i);
  const boxlint_diag *d = boxlint_report_diag(R, i);
  if (strcmp(d->rule, rule) || strcmp(d->message, msg)) dump();
  ck_assert_str_eq(d->rule, rule);
  ck_assert_int_eq(d->severity, sev);
  ck_assert_int_eq(d->command, -1);
  ck_assert_ptr_nonnull(d->path);
  ck_assert_str_eq(d->path, path);
  ck_assert_uint_eq(d->line, 0);
  ck_assert_str_eq(d->message, msg);
  ck_assert_ptr_nonnull(d->hint);
  ck_assert_str_eq(d->hint, hint);
  ck_assert_ptr_null(d->fix);
  return d;
}

/* Exactly one diagnostic, as expect_at(0, ...) describes it. */
static const boxlint_diag *expect1(const char *rule, boxlint_severity sev, const char *path,
                                   const char *msg, const char *hint) {
  if (boxlint_report_diag_count(R) != 1) dump();
  ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
  return expect_at(0, rule, sev, path, msg, hint);
}

static void expect_clean(void) {
  if (boxlint_report_diag_count(R)) dump();
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
}

/*==============================================================================================
 * MARK: template_id
 *============================================================================================*/

#define ID_FALLBACK                                                                             \
  "use a builtin id such as \"python-4g\" or a template name: 1-63 characters of a-z, 0-9, "   \
  "'-' and '_'"

START_TEST(test_valid_ids) {
  static const boxlint_span ids[] = {
      SP("python-4g"), SP("my-py-extra"), SP("a"), SP("7"), SP("a_b-c9"),
      SP("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz01234567890")}; /* 63 */
  ck_assert_uint_eq(ids[5].len, 63);
  boxlint_binding b = valid();
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    b.template_id = ids[i];
    run(&b, CFG);
    expect_clean();
  }
  run(&b, NULL); /* without options: the defaults */
  expect_clean();
}
END_TEST

START_TEST(test_missing_template_id) {
  boxlint_binding b = valid();
  b.has_template_id = 0;
  b.template_id = (boxlint_span){NULL, 0};
  run(&b, CFG);
  expect1("missing-field", E, "template_id", "the binding has no \"template_id\"",
          "add \"template_id\": a builtin id such as \"python-4g\" or the name of one of your "
          "templates");
  b.has_template_id = 1;
  b.template_id = (boxlint_span)SP("python-4g");
  run(&b, CFG);
  expect_clean();
}
END_TEST

START_TEST(test_template_id_not_string) {
  static const char *const texts[] = {"5", "None", "True", "[\"python-4g\"]"};
  static const char hint[] =
      "give a string: a builtin id such as \"python-4g\" or the name of one of your templates";
  boxlint_binding b = valid();
  b.template_id_not_string = 1;
  char msg[128];
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    b.template_text = texts[i];
    run(&b, CFG);
    snprintf(msg, sizeof msg, "template_id must be a string, not %s", texts[i]);
    expect1("invalid-template-id", E, "template_id", msg, hint);
  }
  /* The span is not read when the value is not a string. */
  b.template_id = (boxlint_span){NULL, 9};
  b.template_text = NULL;
  run(&b, CFG);
  expect1("invalid-template-id", E, "template_id", "template_id must be a string, not this value",
          hint);
  b = valid();
  b.template_text = "5"; /* spelt, but a string: only the flag counts */
  run(&b, CFG);
  expect_clean();
}
END_TEST

START_TEST(test_template_id_empty) {
  boxlint_binding b = valid();
  b.template_id = (boxlint_span){"", 0};
  run(&b, CFG);
  const boxlint_diag *d =
      expect1("invalid-template-id", E, "template_id", "template_id \"\" is empty", ID_FALLBACK);
  ck_assert_uint_eq(d->offset, 0);
  ck_assert_uint_eq(d->end_offset, 0);
  b.template_id = (boxlint_span){NULL, 0}; /* an empty span may have no pointer */
  run(&b, CFG);
  expect1("invalid-template-id", E, "template_id", "template_id \"\" is empty", ID_FALLBACK);
}
END_TEST

/* Each way to break the slug rule: the message says which, the offsets cover the first
 * character outside the set, the hint names the nearest slug; never a fix. */
START_TEST(test_template_id_invalid) {
  static const char chars[] = "may only hold a-z, 0-9, '-' and '_'";
  static const char ends[] = "must start and end with a letter or digit";
  static const struct {
    const char *id, *why, *slug;
    size_t off, end;
  } cases[] = {
      {"My Template", chars, "my-template", 0, 1},
      {"python-4G", chars, "python-4g", 8, 9},
      {"my.template", chars, "my-template", 2, 3},
      {"caf\xc3\xa9", chars, "caf", 3, 5},
      {"ab\xff", chars, "ab", 2, 3},
      {"py\tthon", chars, "py-thon", 2, 3},
      {"-python", ends, "python", 0, 0},
      {"python_", ends, "python", 0, 0},
      {"_x_", ends, "x", 0, 0},
  };
  char msg[160], hint[96];
  boxlint_binding b = valid();
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    b.template_id = (boxlint_span){cases[i].id, strlen(cases[i].id)};
    run(&b, CFG);
    const char *shown = i == 3 ? "caf\xc3\xa9" : i == 4 ? "ab\\xff" : i == 5 ? "py\\tthon"
                                                                              : cases[i].id;
    snprintf(msg, sizeof msg, "template_id \"%s\" %s", shown, cases[i].why);
    snprintf(hint, sizeof hint, "did you mean \"%s\"?", cases[i].slug);
    const boxlint_diag *d = expect1("invalid-template-id", E, "template_id", msg, hint);
    ck_assert_uint_eq(d->offset, cases[i].off);
    ck_assert_uint_eq(d->end_offset, cases[i].end);
  }
  /* No slug near: the rule itself. */
  b.template_id = (boxlint_span)SP("--");
  run(&b, CFG);
  expect1("invalid-template-id", E, "template_id",
          "template_id \"--\" must start and end with a letter or digit", ID_FALLBACK);
  b.template_id = (boxlint_span)SP("!!");
  run(&b, CFG);
  expect1("invalid-template-id", E, "template_id",
          "template_id \"!!\" may only hold a-z, 0-9, '-' and '_'", ID_FALLBACK);
}
END_TEST

START_TEST(test_template_id_length) {
  char id[80];
  memset(id, 'a', sizeof id);
  boxlint_binding b = valid();
  b.template_id = (boxlint_span){id, 63};
  run(&b, CFG);
  expect_clean();
  b.template_id = (boxlint_span){id, 64};
  run(&b, CFG);
  const boxlint_diag *d = boxlint_report_diag(R, 0);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
  ck_assert_str_eq(d->rule, "invalid-template-id");
  ck_assert_ptr_nonnull(strstr(d->message, "\" is longer than 63 characters"));
  ck_assert_str_eq(d->hint, "did you mean \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
                            "aaaaaaaa\"?"); /* cut to 63 */
}
END_TEST

/* The span is read for its length only: bytes after it (a valid or an invalid tail) count for
 * nothing, and it need not be NUL-terminated. */
START_TEST(test_template_id_span) {
  static const char buf[] = "python-4gXYZ";
  boxlint_binding b = valid();
  b.template_id = (boxlint_span){buf, 9};
  run(&b, CFG);
  expect_clean();
  static const char buf2[] = "aP-";
  b.template_id = (boxlint_span){buf2 + 1, 1};
  run(&b, CFG);
  expect1("invalid-template-id", E, "template_id",
          "template_id \"P\" may only hold a-z, 0-9, '-' and '_'", "did you mean \"p\"?");
}
END_TEST

/*==============================================================================================
 * MARK: version
 *============================================================================================*/

#define VERSION_HINT "use the agent's version number, 1 or more (the default is 1)"

START_TEST(test_version_bounds) {
  boxlint_binding b = valid();
  static const int64_t ok[] = {1, 2, 1000, INT64_MAX};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    b.version = integer(ok[i]);
    run(&b, CFG);
    expect_clean();
  }
  static const struct { int64_t v; const char *msg; } bad[] = {
      {0, "version is 0: agent versions are numbered from 1"},
      {-1, "version is -1: agent versions are numbered from 1"},
      {INT64_MIN, "version is -9223372036854775808: agent versions are numbered from 1"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    b.version = integer(bad[i].v);
    run(&b, CFG);
    expect1("invalid-version", E, "version", bad[i].msg, VERSION_HINT);
  }
}
END_TEST

START_TEST(test_version_not_integer) {
  static const char *const texts[] = {"1.5", "\"1\"", "True", "None", "1e3"};
  char msg[96];
  boxlint_binding b = valid();
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    b.version = not_integer(texts[i]);
    run(&b, CFG);
    snprintf(msg, sizeof msg, "version must be an integer, not %s", texts[i]);
    expect1("invalid-version", E, "version", msg, VERSION_HINT);
  }
  b.version = not_integer(NULL);
  run(&b, CFG);
  expect1("invalid-version", E, "version", "version must be an integer, not this value",
          VERSION_HINT);
  /* Absent: the SDK's default (1), whatever the other members hold. */
  b.version = not_integer("1.5");
  b.version.present = 0;
  run(&b, CFG);
  expect_clean();
}
END_TEST

/*==============================================================================================
 * MARK: lifespan_seconds
 *============================================================================================*/

#define LIFESPAN_HINT "use a number of seconds from 60 to 86400, e.g. 1200 (the default)"
#define SHORT_HINT "use 60 seconds or more (the default is 1200)"
#define LONG_HINT "use 86400 seconds (a day) or less (the default is 1200)"

START_TEST(test_lifespan_invalid) {
  static const struct { int64_t v; const char *msg; } bad[] = {
      {0, "lifespan_seconds is 0: the idle timeout must be a positive number of seconds"},
      {-1, "lifespan_seconds is -1: the idle timeout must be a positive number of seconds"},
      {INT64_MIN, "lifespan_seconds is -9223372036854775808: the idle timeout must be a positive "
                  "number of seconds"},
  };
  boxlint_binding b = valid();
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    b.lifespan_seconds = integer(bad[i].v);
    run(&b, CFG);
    expect1("invalid-lifespan", E, "lifespan_seconds", bad[i].msg, LIFESPAN_HINT);
  }
  /* An error is not switched off with the warnings, and no unusual-lifespan comes with it. */
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "unusual-lifespan", 16, BOXLINT_SEVERITY_OFF,
                                               NULL), BOXLINT_OK);
  b.lifespan_seconds = integer(0);
  run(&b, CFG);
  expect1("invalid-lifespan", E, "lifespan_seconds", bad[0].msg, LIFESPAN_HINT);
}
END_TEST

START_TEST(test_lifespan_not_integer) {
  static const char *const texts[] = {"12.5", "\"1200\"", "False", "inf"};
  static const char hint[] = "give the idle timeout in whole seconds, e.g. 1200 (the default)";
  char msg[96];
  boxlint_binding b = valid();
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    b.lifespan_seconds = not_integer(texts[i]);
    run(&b, CFG);
    snprintf(msg, sizeof msg, "lifespan_seconds must be an integer, not %s", texts[i]);
    expect1("invalid-lifespan", E, "lifespan_seconds", msg, hint);
  }
  b.lifespan_seconds = not_integer(NULL);
  run(&b, CFG);
  expect1("invalid-lifespan", E, "lifespan_seconds",
          "lifespan_seconds must be an integer, not this value", hint);
  b.lifespan_seconds.present = 0; /* absent: the SDK's default, 1200 */
  run(&b, CFG);
  expect_clean();
}
END_TEST

START_TEST(test_lifespan_unusual) {
  boxlint_binding b = valid();
  static const int64_t ok[] = {60, 61, 1200, 86399, 86400};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    b.lifespan_seconds = integer(ok[i]);
    run(&b, CFG);
    expect_clean();
  }
  b.lifespan_seconds = integer(1);
  run(&b, CFG);
  expect1("unusual-lifespan", W, "lifespan_seconds",
          "lifespan_seconds is 1: under a minute, the sandbox is killed after 1 s idle, before a "
          "slow cell finishes or between two cells", SHORT_HINT);
  b.lifespan_seconds = integer(59);
  run(&b, CFG);
  expect1("unusual-lifespan", W, "lifespan_seconds",
          "lifespan_seconds is 59: under a minute, the sandbox is killed after 59 s idle, before "
          "a slow cell finishes or between two cells", SHORT_HINT);
  b.lifespan_seconds = integer(86401);
  run(&b, CFG);
  expect1("unusual-lifespan", W, "lifespan_seconds",
          "lifespan_seconds is 86401: over 86400 s, an idle sandbox is kept for more than a day",
          LONG_HINT);
  b.lifespan_seconds = integer(INT64_MAX);
  run(&b, CFG);
  expect1("unusual-lifespan", W, "lifespan_seconds",
          "lifespan_seconds is 9223372036854775807: over 86400 s, an idle sandbox is kept for "
          "more than a day", LONG_HINT);
  run(&b, NULL); /* without options: the rule's default severity */
  ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
  ck_assert_int_eq(boxlint_report_diag(R, 0)->severity, W);
}
END_TEST

/* A config sets the warning's severity, or switches it off. */
START_TEST(test_lifespan_unusual_config) {
  boxlint_binding b = valid();
  b.lifespan_seconds = integer(30);
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "unusual-lifespan", 16, E, NULL), BOXLINT_OK);
  run(&b, CFG);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
  ck_assert_str_eq(boxlint_report_diag(R, 0)->rule, "unusual-lifespan");
  ck_assert_int_eq(boxlint_report_diag(R, 0)->severity, E);
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "unusual-lifespan", 16,
                                               BOXLINT_SEVERITY_INFO, NULL), BOXLINT_OK);
  run(&b, CFG);
  ck_assert_int_eq(boxlint_report_diag(R, 0)->severity, BOXLINT_SEVERITY_INFO);
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "unusual-lifespan", 16, BOXLINT_SEVERITY_OFF,
                                               NULL), BOXLINT_OK);
  run(&b, CFG);
  expect_clean();
}
END_TEST

/*==============================================================================================
 * MARK: Unknown fields
 *============================================================================================*/

#define WHY "add_code_interpreter does not take it"

START_TEST(test_unknown_field_nearest) {
  static const struct { const char *field, *nearest; } cases[] = {
      {"lifespan", "lifespan_seconds"}, {"templateid", "template_id"},
      {"template", "template_id"},      {"verison", "version"},
      {"network", "network_policy"},    {"Version", "version"},
      {"lifespan_secs", "lifespan_seconds"},
  };
  char msg[96], hint[64];
  boxlint_binding b = valid();
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    boxlint_span f = {cases[i].field, strlen(cases[i].field)};
    b.extra_fields = &f;
    b.nextra_fields = 1;
    run(&b, CFG);
    snprintf(msg, sizeof msg, "unknown field \"%s\": " WHY, cases[i].field);
    snprintf(hint, sizeof hint, "did you mean \"%s\"?", cases[i].nearest);
    expect1("unknown-field", W, cases[i].field, msg, hint);
  }
}
END_TEST

START_TEST(test_unknown_field_far) {
  static const boxlint_span f[] = {SP("zzzzzzzzzzzz"), SP("cpu_count")};
  static const char known[] =
      "known fields: template_id, version, lifespan_seconds, network_policy";
  boxlint_binding b = valid();
  b.extra_fields = f;
  b.nextra_fields = 2;
  run(&b, CFG);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 2);
  expect_at(0, "unknown-field", W, "zzzzzzzzzzzz", "unknown field \"zzzzzzzzzzzz\": " WHY, known);
  expect_at(1, "unknown-field", W, "cpu_count", "unknown field \"cpu_count\": " WHY, known);
  /* Known keys passed as extra would be a caller's mistake, but a binding without extras and
   * the same values is clean. */
  b.nextra_fields = 0;
  run(&b, CFG);
  expect_clean();
}
END_TEST

START_TEST(test_unknown_field_config) {
  static const boxlint_span f[] = {SP("lifespan")};
  boxlint_binding b = valid();
  b.extra_fields = f;
  b.nextra_fields = 1;
  run(&b, NULL);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "unknown-field", 13, BOXLINT_SEVERITY_OFF,
                                               NULL), BOXLINT_OK);
  run(&b, CFG);
  expect_clean();
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "unknown-field", 13, E, NULL), BOXLINT_OK);
  run(&b, CFG);
  expect1("unknown-field", E, "lifespan", "unknown field \"lifespan\": " WHY,
          "did you mean \"lifespan_seconds\"?");
}
END_TEST

/*==============================================================================================
 * MARK: The report
 *============================================================================================*/

/* Every problem at once, in field order (all at offset 0 of their field). */
START_TEST(test_every_problem_at_once) {
  static const boxlint_span f[] = {SP("lifespan")};
  boxlint_binding b = valid();
  b.template_id = (boxlint_span)SP("My-Template");
  b.version = integer(0);
  b.lifespan_seconds = integer(10);
  b.extra_fields = f;
  b.nextra_fields = 1;
  run(&b, CFG);
  static const char *const rules[] = {"invalid-template-id", "invalid-version",
                                      "unusual-lifespan", "unknown-field"};
  ck_assert_uint_eq(boxlint_report_diag_count(R), 4);
  for (size_t i = 0; i < 4; i++) ck_assert_str_eq(boxlint_report_diag(R, i)->rule, rules[i]);
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 0);
}
END_TEST

/* Findings are appended: what the report held stays, and a second call adds to it. */
START_TEST(test_appends) {
  boxlint_span c = SP("FROM x");
  ck_assert_int_eq(boxlint_check_commands(R, &c, 1, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
  boxlint_binding b = valid();
  b.version = integer(0);
  ck_assert_int_eq(boxlint_check_binding(R, &b, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_check_binding(R, &b, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 3);
  ck_assert_str_eq(boxlint_report_diag(R, 0)->rule, "denied-instruction");
  ck_assert_str_eq(boxlint_report_diag(R, 1)->rule, "invalid-version");
  ck_assert_str_eq(boxlint_report_diag(R, 2)->rule, "invalid-version");
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 1); /* the instructions are kept */
}
END_TEST

START_TEST(test_einval) {
  boxlint_binding b = valid();
  ck_assert_int_eq(boxlint_check_binding(NULL, &b, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_check_binding(R, NULL, NULL), BOXLINT_EINVAL);
  b.nextra_fields = 1; /* a count without its array */
  ck_assert_int_eq(boxlint_check_binding(R, &b, NULL), BOXLINT_EINVAL);
  b = valid();
  b.template_id = (boxlint_span){NULL, 3}; /* a length without its bytes */
  ck_assert_int_eq(boxlint_check_binding(R, &b, NULL), BOXLINT_EINVAL);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
}
END_TEST

/* A status is this call's: an earlier out-of-memory in the same report (not cleared) does not
 * make a complete check fail, and the report still says that it is incomplete. */
START_TEST(test_status_is_this_calls) {
  boxlint_binding b = valid();
  R->oom = 1;
  ck_assert_int_eq(boxlint_check_binding(R, &b, NULL), BOXLINT_OK);
  ck_assert_int_eq(R->oom, 1);
}
END_TEST

/*==============================================================================================
 * MARK: The rule table
 *============================================================================================*/

START_TEST(test_rule_table) {
  static const struct { const char *id; boxlint_severity sev; int settable; } rules[] = {
      {"invalid-template-id", E, 0}, {"invalid-version", E, 0}, {"invalid-lifespan", E, 0},
      {"unusual-lifespan", W, 1},    {"not-static", BOXLINT_SEVERITY_INFO, 1},
      {"python-syntax", E, 0},       {"missing-field", E, 0},  {"unknown-field", W, 1},
  };
  for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
    const char *id = rules[i].id;
    const boxlint_rule_info *ri = boxlint_rule_find(id, strlen(id));
    ck_assert_msg(ri != NULL, "rule %s missing", id);
    ck_assert_int_eq(ri->severity, rules[i].sev);
    ck_assert(ri->summary[0] && ri->description[0] && ri->bad[0] && ri->good[0]);
    ck_assert_str_ne(ri->bad, ri->good);
    /* A config may set a warning's (or info's) severity; an error cannot be lowered. */
    boxlint_status st = boxlint_config_set_severity(CFG, id, strlen(id), BOXLINT_SEVERITY_OFF,
                                                    NULL);
    ck_assert_msg(st == (rules[i].settable ? BOXLINT_OK : BOXLINT_EINVAL), "%s: %d", id, (int)st);
  }
  /* A fresh config starts from the defaults. */
  boxlint_config *c = NULL;
  ck_assert_int_eq(boxlint_config_new(&c, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_config_get_severity(c, "not-static", 10, E), BOXLINT_SEVERITY_INFO);
  ck_assert_int_eq(boxlint_config_get_severity(c, "unusual-lifespan", 16, E), W);
  boxlint_config_free(c);
}
END_TEST

/* The examples of `boxlint explain`: each binding rule's bad example fires it, the good one
 * does not (read here by hand: the examples are one-field JSON objects). */
START_TEST(test_explain_examples) {
  static const struct { const char *id; boxlint_binding bad, good; } ex[] = {
      {"invalid-template-id", {SP("My Template"), 1, 0, NULL, {0}, {0}, NULL, 0},
       {SP("my-template"), 1, 0, NULL, {0}, {0}, NULL, 0}},
      {"invalid-version", {SP("python-4g"), 1, 0, NULL, {1, 1, 0, NULL}, {0}, NULL, 0},
       {SP("python-4g"), 1, 0, NULL, {1, 1, 1, NULL}, {0}, NULL, 0}},
      {"invalid-lifespan", {SP("python-4g"), 1, 0, NULL, {0}, {1, 1, 0, NULL}, NULL, 0},
       {SP("python-4g"), 1, 0, NULL, {0}, {1, 1, 1200, NULL}, NULL, 0}},
      {"unusual-lifespan", {SP("python-4g"), 1, 0, NULL, {0}, {1, 1, 10, NULL}, NULL, 0},
       {SP("python-4g"), 1, 0, NULL, {0}, {1, 1, 1200, NULL}, NULL, 0}},
  };
  for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
    const boxlint_rule_info *ri = boxlint_rule_find(ex[i].id, strlen(ex[i].id));
    ck_assert_ptr_nonnull(ri);
    /* The table's texts are the ones modelled here. */
    const char *val = i == 0 ? "\"My Template\"" : i == 1 ? "\"version\": 0"
                    : i == 2 ? "\"lifespan_seconds\": 0" : "\"lifespan_seconds\": 10";
    ck_assert_msg(strstr(ri->bad, val) != NULL, "%s: bad example %s", ex[i].id, ri->bad);
    run(&ex[i].bad, CFG);
    ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
    ck_assert_str_eq(boxlint_report_diag(R, 0)->rule, ex[i].id);
    run(&ex[i].good, CFG);
    expect_clean();
  }
}
END_TEST

/*==============================================================================================
 * MARK: Out of memory
 *============================================================================================*/

/* A binding with every problem, several unknown fields among them. */
static boxlint_binding oom_binding(void) {
  static const boxlint_span f[] = {SP("lifespan"), SP("zzzzzzzzzzzz"), SP("verison")};
  boxlint_binding b = valid();
  b.template_id = (boxlint_span)SP("My Template \xc3\xa9!");
  b.version = not_integer("1.5");
  b.lifespan_seconds = integer(86401);
  b.extra_fields = f;
  b.nextra_fields = 3;
  return b;
}

static boxlint_status oom_round(failer *f) {
  boxlint_alloc a = failer_alloc(f);
  boxlint_report *r = NULL;
  boxlint_status st = boxlint_report_new(&r, &a);
  if (st != BOXLINT_OK) {
    ck_assert_int_eq(st, BOXLINT_ENOMEM);
    ck_assert_ptr_null(r);
    return st;
  }
  boxlint_binding b = oom_binding();
  st = boxlint_check_binding(r, &b, NULL);
  ck_assert_msg(st == BOXLINT_OK || st == BOXLINT_ENOMEM, "status %d", (int)st);
  for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
    const boxlint_diag *d = boxlint_report_diag(r, i);
    ck_assert_ptr_nonnull(d->rule);
    ck_assert_ptr_nonnull(d->message); /* readable, whatever failed */
    (void)strlen(d->message);
  }
  if (st == BOXLINT_OK) { /* a success is the complete answer */
    run(&b, NULL);
    ck_assert_uint_eq(boxlint_report_diag_count(r), boxlint_report_diag_count(R));
    for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
      const boxlint_diag *d = boxlint_report_diag(r, i), *e = boxlint_report_diag(R, i);
      ck_assert_str_eq(d->rule, e->rule);
      ck_assert_str_eq(d->message, e->message);
      ck_assert_str_eq(d->hint, e->hint);
      ck_assert_str_eq(d->path, e->path);
    }
  }
  boxlint_report_free(r);
  ck_assert_int_eq(f->live, 0); /* nothing leaks, by the allocator's own count */
  return st;
}

START_TEST(test_oom_fail_after_n) {
  long n = 0;
  for (;; n++) {
    ck_assert_msg(n < 10000, "no success after %ld allocations", n);
    failer f = {.left = n};
    if (oom_round(&f) == BOXLINT_OK) {
      ck_assert_int_eq(f.failed, 0);
      break;
    }
    ck_assert_int_eq(f.failed, 1);
  }
  ck_assert_int_gt(n, 2); /* the loop went through the check, not only report_new */
}
END_TEST

/* Fail one allocation only: a refused allocation is never swallowed into a wrong OK. */
START_TEST(test_oom_fail_once) {
  for (long n = 0;; n++) {
    ck_assert_msg(n < 10000, "runaway");
    failer f = {.left = n, .once = 1};
    boxlint_status st = oom_round(&f);
    if (!f.failed) {
      ck_assert_int_eq(st, BOXLINT_OK);
      ck_assert_int_gt(n, 2);
      break;
    }
    ck_assert_msg(st == BOXLINT_ENOMEM, "allocation %ld failed but the call returned %d", n,
                  (int)st);
  }
}
END_TEST

/*==============================================================================================
 * Suite
 *============================================================================================*/


/* The field lists the checks report by, as the command reads a file with them. */
START_TEST(test_field_lists) {
  const char *const t[] = {"name", "commands", "cpu_count", "memory_mb", "network_policy"};
  const char *const b[] = {"template_id", "version", "lifespan_seconds", "network_policy"};
  for (size_t i = 0; i < 5; i++) ck_assert_str_eq(boxlint_template_field(i), t[i]);
  ck_assert_ptr_null(boxlint_template_field(5));
  ck_assert_ptr_null(boxlint_template_field((size_t)-1));
  for (size_t i = 0; i < 4; i++) ck_assert_str_eq(boxlint_binding_field(i), b[i]);
  ck_assert_ptr_null(boxlint_binding_field(4));
  /* an unknown field's hint names the nearest of these */
  boxlint_binding bd;
  memset(&bd, 0, sizeof bd);
  bd.has_template_id = 1;
  bd.template_id.ptr = "py";
  bd.template_id.len = 2;
  boxlint_span extra = {"lifespan_secs", 13};
  bd.extra_fields = &extra;
  bd.nextra_fields = 1;
  ck_assert_int_eq(boxlint_check_binding(R, &bd, NULL), BOXLINT_OK);
  const boxlint_diag *d = boxlint_report_diag(R, 0);
  ck_assert_ptr_nonnull(d);
  ck_assert_str_eq(d->rule, "unknown-field");
  ck_assert_str_eq(d->hint, "did you mean \"lifespan_seconds\"?");
}
END_TEST

/* The names a binding needs and takes from the library rather than restating them: words of
 * severities, keywords, fix safety and the policy options, the policy's fields, and the sizes
 * the option structs' _init functions write. */
START_TEST(test_names_for_bindings) {
  boxlint_severity sev = BOXLINT_SEVERITY_INFO;
  const char *const sevs[] = {"off", "info", "warning", "error"};
  for (int i = 0; i < 4; i++) {
    ck_assert_int_eq(boxlint_severity_parse(sevs[i], strlen(sevs[i]), &sev), BOXLINT_OK);
    ck_assert_int_eq(sev, i);
  }
  ck_assert_int_eq(boxlint_severity_parse("Error", 5, &sev), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_severity_parse("errors", 6, &sev), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_severity_parse("err", 3, &sev), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_severity_parse("", 0, &sev), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_severity_parse(NULL, 0, &sev), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_severity_parse("info", 4, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(sev, BOXLINT_SEVERITY_ERROR);

  for (int k = BOXLINT_KW_ADD; k <= BOXLINT_KW_WORKDIR; k++) {
    const char *n = boxlint_keyword_name((boxlint_keyword)k);
    ck_assert_int_eq(boxlint_keyword_parse(n, strlen(n)), k);
  }
  ck_assert_int_eq(boxlint_keyword_parse("run", 3), BOXLINT_KW_RUN);
  ck_assert_int_eq(boxlint_keyword_parse("WorkDir", 7), BOXLINT_KW_WORKDIR);
  ck_assert_int_eq(boxlint_keyword_parse("RUNX", 3), BOXLINT_KW_RUN); /* `len` bytes only */
  ck_assert_int_eq(boxlint_keyword_parse("RU", 2), BOXLINT_KW_NONE);
  ck_assert_int_eq(boxlint_keyword_parse("RUN ", 4), BOXLINT_KW_NONE);
  ck_assert_int_eq(boxlint_keyword_parse("", 0), BOXLINT_KW_NONE);
  ck_assert_int_eq(boxlint_keyword_parse("*", 1), BOXLINT_KW_NONE);
  ck_assert_int_eq(boxlint_keyword_parse(NULL, 3), BOXLINT_KW_NONE);

  ck_assert_str_eq(boxlint_fix_safety_str(BOXLINT_FIX_SAFE), "safe");
  ck_assert_str_eq(boxlint_fix_safety_str(BOXLINT_FIX_UNSAFE), "unsafe");
  ck_assert_ptr_null(boxlint_fix_safety_str((boxlint_fix_safety)2));
  ck_assert_str_eq(boxlint_policy_unmatched_str(BOXLINT_UNMATCHED_ALLOW), "allow");
  ck_assert_str_eq(boxlint_policy_unmatched_str(BOXLINT_UNMATCHED_DENY), "deny");
  ck_assert_ptr_null(boxlint_policy_unmatched_str((boxlint_policy_unmatched)2));
  ck_assert_str_eq(boxlint_policy_compat_str(BOXLINT_COMPAT_NONE), "none");
  ck_assert_str_eq(boxlint_policy_compat_str(BOXLINT_COMPAT_E2B), "e2b");
  ck_assert_ptr_null(boxlint_policy_compat_str((boxlint_policy_compat)2));
  ck_assert_str_eq(boxlint_emit_format_str(BOXLINT_EMIT_NFTABLES), "nftables");
  ck_assert_str_eq(boxlint_emit_format_str(BOXLINT_EMIT_DNSMASQ), "dnsmasq");
  ck_assert_str_eq(boxlint_emit_format_str(BOXLINT_EMIT_NGINX), "nginx");
  ck_assert_ptr_null(boxlint_emit_format_str((boxlint_emit_format)3));
  const char *const pf[] = {"type", "allow_out", "deny_out"};
  for (size_t i = 0; i < 3; i++) ck_assert_str_eq(boxlint_policy_field(i), pf[i]);
  ck_assert_ptr_null(boxlint_policy_field(3));
  ck_assert_ptr_null(boxlint_policy_field((size_t)-1));

  boxlint_options o;
  boxlint_options_init(&o);
  ck_assert_uint_eq(boxlint_options_size(), o.size);
  ck_assert_uint_eq(boxlint_options_size(), sizeof o);
  boxlint_policy_options po;
  boxlint_policy_options_init(&po);
  ck_assert_uint_eq(boxlint_policy_options_size(), po.size);
  ck_assert_uint_eq(boxlint_policy_options_size(), sizeof po);
  ck_assert_int_eq(boxlint_options_check(&o), BOXLINT_OK);
  o.escape = '`';
  ck_assert_int_eq(boxlint_options_check(&o), BOXLINT_OK);
  o.escape = '/';
  ck_assert_int_eq(boxlint_options_check(&o), BOXLINT_EINVAL);
  o.escape = '\\';
  o.cpu_min = 9;
  ck_assert_int_eq(boxlint_options_check(&o), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_options_check(NULL), BOXLINT_EINVAL);
  boxlint_user_rule ur;
  memset(&ur, 0xff, sizeof ur);
  boxlint_user_rule_init(&ur);
  ck_assert_int_eq(ur.severity, BOXLINT_SEVERITY_WARNING);
  ck_assert_int_eq(ur.instruction, BOXLINT_KW_NONE);
  ck_assert_uint_eq(ur.id.len + ur.pattern.len + ur.message.len, 0);
  boxlint_user_rule_init(NULL);
  const char *const uf[] = {"id", "severity", "instruction", "pattern", "message"};
  for (size_t i = 0; i < 5; i++) ck_assert_str_eq(boxlint_user_rule_field(i), uf[i]);
  ck_assert_ptr_null(boxlint_user_rule_field(5));
  boxlint_emit_options eo;
  boxlint_emit_options_init(&eo);
  ck_assert_uint_eq(boxlint_emit_options_size(), eo.size);
  ck_assert_uint_eq(boxlint_emit_options_size(), sizeof eo);
}
END_TEST

/* boxlint_rule_explain: the text `boxlint explain` prints and the bindings' explain() return. */
START_TEST(test_rule_explain) {
  static const boxlint_rule_info r = {"demo-rule", BOXLINT_SEVERITY_WARNING, "One line.",
                                      "Why it matters.", "RUN a \\\n  b\n\nRUN c", ""};
  char *text = NULL;
  size_t n = 1;
  ck_assert_int_eq(boxlint_rule_explain(&r, &text, &n, NULL), BOXLINT_OK);
  const char *want = "demo-rule (warning): One line.\n\nWhy it matters.\n\nBad:\n"
                     "    RUN a \\\n      b\n    \n    RUN c\nGood:\n";
  ck_assert_str_eq(text, want);
  ck_assert_uint_eq(n, strlen(want));
  boxlint_buffer_free(text, NULL);
  const boxlint_rule_info *ri = boxlint_rule_find("invalid-version", 15);
  ck_assert_int_eq(boxlint_rule_explain(ri, &text, &n, NULL), BOXLINT_OK);
  ck_assert_ptr_nonnull(strstr(text, "invalid-version (error): "));
  ck_assert_ptr_nonnull(strstr(text, "\n\nBad:\n    "));
  ck_assert_int_eq(text[n - 1], '\n');
  boxlint_buffer_free(text, NULL);
  ck_assert_int_eq(boxlint_rule_explain(NULL, &text, &n, NULL), BOXLINT_EINVAL);
  ck_assert_ptr_null(text);
  ck_assert_uint_eq(n, 0);
  ck_assert_int_eq(boxlint_rule_explain(ri, NULL, &n, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_rule_explain(ri, &text, NULL, NULL), BOXLINT_EINVAL);
}
END_TEST

static Suite *binding_suite(void) {
  Suite *s = suite_create("binding");
  TCase *tc = tcase_create("template_id");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_valid_ids);
  tcase_add_test(tc, test_missing_template_id);
  tcase_add_test(tc, test_template_id_not_string);
  tcase_add_test(tc, test_template_id_empty);
  tcase_add_test(tc, test_template_id_invalid);
  tcase_add_test(tc, test_template_id_length);
  tcase_add_test(tc, test_template_id_span);
  suite_add_tcase(s, tc);

  tc = tcase_create("numbers");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_version_bounds);
  tcase_add_test(tc, test_version_not_integer);
  tcase_add_test(tc, test_lifespan_invalid);
  tcase_add_test(tc, test_lifespan_not_integer);
  tcase_add_test(tc, test_lifespan_unusual);
  tcase_add_test(tc, test_lifespan_unusual_config);
  suite_add_tcase(s, tc);

  tc = tcase_create("fields");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_unknown_field_nearest);
  tcase_add_test(tc, test_unknown_field_far);
  tcase_add_test(tc, test_unknown_field_config);
  tcase_add_test(tc, test_field_lists);
  tcase_add_test(tc, test_names_for_bindings);
  suite_add_tcase(s, tc);

  tc = tcase_create("report");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_every_problem_at_once);
  tcase_add_test(tc, test_appends);
  tcase_add_test(tc, test_einval);
  tcase_add_test(tc, test_status_is_this_calls);
  tcase_add_test(tc, test_rule_table);
  tcase_add_test(tc, test_explain_examples);
  tcase_add_test(tc, test_rule_explain);
  suite_add_tcase(s, tc);

  tc = tcase_create("oom");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_oom_fail_after_n);
  tcase_add_test(tc, test_oom_fail_once);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(binding_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

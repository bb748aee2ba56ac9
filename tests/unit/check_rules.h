/* check_rules.h: what the parts of the check_rules suite share: check_rules.c and
 * check_rules_structure.c, check_rules_report.c, one executable, ctest check_rules. */
#ifndef BOXLINT_TESTS_CHECK_RULES_H
#define BOXLINT_TESTS_CHECK_RULES_H
/*
 * Unit tests of the command checker: each rule of design.md §2.1 on boxlint_check_commands, with
 * a case that fires and a close case that must not, each pinned to its position (command index,
 * line, column in code points, end, byte offset) and to a piece of its message or hint. The
 * expectations come from docs/design.md (cited as §N) and BuildKit's behaviour, not the code.
 *
 * Tests of bugs found in review live in the TCase "regressions".
 */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "boxlint/boxlint.h"
#include "failing_alloc.h"
#include "guard_page.h"

/*==============================================================================================
 * Helpers
 *============================================================================================*/

static boxlint_report *R;
static boxlint_report *R2; /* a second report some tests make; freed even when they fail */

static inline void setup(void) { ck_assert_int_eq(boxlint_report_new(&R, NULL), BOXLINT_OK); }
static inline void teardown(void) {
  boxlint_report_free(R);
  boxlint_report_free(R2);
  R = R2 = NULL;
}

/* A span over a string literal, embedded NULs included (no terminator counted). */
#define S(lit) ((boxlint_span){(lit), sizeof(lit) - 1})
#define SP(lit) {(lit), sizeof(lit) - 1}

static inline boxlint_status run_spans(const boxlint_span *c, size_t n, const boxlint_options *o) {
  boxlint_report_clear(R);
  return boxlint_check_commands(R, c, n, o);
}

/* Check one command, given as a literal. */
#define CHECK1(lit) ck_assert_int_eq(run1((lit), sizeof(lit) - 1, NULL), BOXLINT_OK)
#define CHECK1_OPTS(lit, o) ck_assert_int_eq(run1((lit), sizeof(lit) - 1, (o)), BOXLINT_OK)
static inline boxlint_status run1(const char *p, size_t n, const boxlint_options *o) {
  boxlint_span s = {p, n};
  return run_spans(&s, 1, o);
}

static inline int contains(const char *hay, const char *needle) {
  return needle == NULL || (hay != NULL && strstr(hay, needle) != NULL);
}

static inline void dump_report(void) {
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    fprintf(stderr, "  [%zu] %s cmd=%d %u:%u-%u:%u off=%zu-%zu msg=\"%s\" hint=\"%s\"\n", i,
            d->rule, (int)d->command, d->line, d->column, d->end_line, d->end_column, d->offset,
            d->end_offset, d->message, d->hint ? d->hint : "(null)");
  }
}

/* The first diagnostic of `rule` on command `cmd`, or NULL. */
static inline const boxlint_diag *find(const char *rule, int32_t cmd) {
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    if (strcmp(d->rule, rule) == 0 && d->command == cmd) return d;
  }
  return NULL;
}

static inline size_t count_rule(const char *rule) {
  size_t n = 0;
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++)
    n += strcmp(boxlint_report_diag(R, i)->rule, rule) == 0;
  return n;
}

/* Assert that a diagnostic of `rule` exists on `cmd` with exactly these positions, severity
 * error, and message/hint containing the given substrings (NULL: not checked). */
#define EXPECT(rule, cmd, l, c, el, ec, off, eoff, msg, hint)                                    \
  expect_at(__LINE__, rule, cmd, l, c, el, ec, off, eoff, msg, hint)
static inline const boxlint_diag *expect_at(int at, const char *rule, int32_t cmd, uint32_t l,
                                            uint32_t c, uint32_t el, uint32_t ec, size_t off,
                                            size_t eoff, const char *msg, const char *hint) {
  const boxlint_diag *d = find(rule, cmd);
  if (!d) dump_report();
  ck_assert_msg(d != NULL, "line %d: no %s on command %d", at, rule, (int)cmd);
  int ok = d->severity == BOXLINT_SEVERITY_ERROR && d->line == l && d->column == c &&
           d->end_line == el && d->end_column == ec && d->offset == off && d->end_offset == eoff;
  if (!ok) dump_report();
  ck_assert_msg(ok,
                "line %d: %s: got sev=%d %u:%u-%u:%u off %zu-%zu, want %u:%u-%u:%u off %zu-%zu",
                at, rule, (int)d->severity, d->line, d->column, d->end_line, d->end_column,
                d->offset, d->end_offset, l, c, el, ec, off, eoff);
  ck_assert_msg(contains(d->message, msg), "line %d: %s message \"%s\" lacks \"%s\"", at, rule,
                d->message, msg);
  ck_assert_msg(contains(d->hint, hint), "line %d: %s hint \"%s\" lacks \"%s\"", at, rule,
                d->hint ? d->hint : "(null)", hint);
  ck_assert_ptr_eq(d->path, NULL);
  return d;
}

/* The same, checking the start position only (where the end is the subject of a known bug). */
#define EXPECT_START(rule, cmd, l, c, off, msg) expect_start_at(__LINE__, rule, cmd, l, c, off, msg)
static inline void expect_start_at(int at, const char *rule, int32_t cmd, uint32_t l, uint32_t c,
                                   size_t off, const char *msg) {
  const boxlint_diag *d = find(rule, cmd);
  if (!d) dump_report();
  ck_assert_msg(d != NULL, "line %d: no %s on command %d", at, rule, (int)cmd);
  ck_assert_msg(d->severity == BOXLINT_SEVERITY_ERROR && d->line == l && d->column == c &&
                    d->offset == off,
                "line %d: %s: got %u:%u off %zu, want %u:%u off %zu", at, rule, d->line,
                d->column, d->offset, l, c, off);
  ck_assert_msg(contains(d->message, msg), "line %d: message \"%s\" lacks \"%s\"", at, d->message,
                msg);
}

/* The rules under test are all errors (docs/design.md §2.1). Warnings (§2.3) may come and go with
 * other work, so "clean" and counts are about errors only. */
static inline size_t nerrors(void) {
  return boxlint_report_count_at_least(R, BOXLINT_SEVERITY_ERROR);
}

/* Error diagnostic number i, in report order. */
static inline const boxlint_diag *error_at(size_t i) {
  for (size_t k = 0; k < boxlint_report_diag_count(R); k++) {
    const boxlint_diag *d = boxlint_report_diag(R, k);
    if (d->severity == BOXLINT_SEVERITY_ERROR && i-- == 0) return d;
  }
  return NULL;
}

/* No error at all. */
#define EXPECT_CLEAN() expect_clean_at(__LINE__)
static inline void expect_clean_at(int at) {
  if (nerrors()) dump_report();
  ck_assert_msg(nerrors() == 0, "line %d: expected no errors, got %zu", at, nerrors());
}

/* No diagnostic of `rule`. */
#define EXPECT_NONE(rule) expect_none_at(__LINE__, rule)
static inline void expect_none_at(int at, const char *rule) {
  size_t n = count_rule(rule);
  if (n) dump_report();
  ck_assert_msg(n == 0, "line %d: expected no %s, got %zu", at, rule, n);
}

/* Exactly `n` errors in total. */
#define EXPECT_COUNT(n) expect_count_at(__LINE__, n)
static inline void expect_count_at(int at, size_t n) {
  if (nerrors() != n) dump_report();
  ck_assert_msg(nerrors() == n, "line %d: expected %zu errors, got %zu", at, n, nerrors());
}

/* Accept a command: no diagnostic. */
#define ACCEPT(lit)                                                                               \
  do {                                                                                            \
    CHECK1(lit);                                                                                  \
    EXPECT_CLEAN();                                                                               \
  } while (0)

#define GUARD1(lit, gvar)                                                                         \
  do {                                                                                            \
    gvar = guard((lit), sizeof(lit) - 1);                                                         \
    ck_assert_int_eq(run1(gvar.p, sizeof(lit) - 1, NULL), BOXLINT_OK);                            \
  } while (0)

static inline boxlint_options opts_default(void) {
  boxlint_options o;
  boxlint_options_init(&o);
  return o;
}

void rules_add_structure(Suite *s);
void rules_add_report(Suite *s);

#endif

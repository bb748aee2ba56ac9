/* check_warnings.h: what the parts of the check_warnings suite share: check_warnings.c and
 * check_warnings_secrets.c, check_warnings_config.c, one executable, ctest check_warnings. */
#ifndef BOXLINT_TESTS_CHECK_WARNINGS_H
#define BOXLINT_TESTS_CHECK_WARNINGS_H
/*
 * Unit tests of the warnings (design.md §2.2, §2.3, issue 5): for each warning, cases that fire,
 * pinned to rule id, severity, command index, line, column (code points), end and a piece of the
 * message, and close cases that must not fire (quoted text, comments inside continuations,
 * heredoc bodies that are data, -y spelled otherwise, ...). Then the config: severity
 * overrides, errors that cannot be lowered, user rules (PCRE2), match limits, suppressions in
 * fragments, and the errors-only mode (no config) that must stay unchanged.
 *
 * The expectations come from docs/design.md, the issue and each rule's explain text (rules.c), not
 * from the code. Where the library disagrees and the library is wrong, the test lives in the
 * TCase "known_bugs" (fixed since; they run by default as regressions).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS (tests/unit/guard_page.h) */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxlint/boxlint.h"
#include "guard_page.h"

/*==============================================================================================
 * Helpers
 *============================================================================================*/

static boxlint_report *R;
static boxlint_config *CFG;
static boxlint_options OPTS;

static inline void setup(void) {
  ck_assert_int_eq(boxlint_report_new(&R, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_config_new(&CFG, NULL), BOXLINT_OK);
  boxlint_options_init(&OPTS);
  OPTS.config = CFG;
}

static inline void teardown(void) {
  boxlint_report_free(R);
  boxlint_config_free(CFG);
  R = NULL;
  CFG = NULL;
}

#define SP(lit) {(lit), sizeof(lit) - 1}
#define S(lit) ((boxlint_span){(lit), sizeof(lit) - 1})

#define W BOXLINT_SEVERITY_WARNING
#define E BOXLINT_SEVERITY_ERROR
#define I BOXLINT_SEVERITY_INFO

static inline void run_spans(const boxlint_span *c, size_t n) {
  boxlint_report_clear(R);
  ck_assert_int_eq(boxlint_check_commands(R, c, n, &OPTS), BOXLINT_OK);
}

/* Check a list of commands given as string literals. */
#define CMDS(...)                                                                                  \
  run_spans((const boxlint_span[]){__VA_ARGS__},                                                  \
            sizeof((const boxlint_span[]){__VA_ARGS__}) / sizeof(boxlint_span))
/* Check one command. */
#define CMD(lit) CMDS(SP(lit))

/* Check a fragment. */
#define FRAG(lit) run_frag((lit), sizeof(lit) - 1)
static inline void run_frag(const char *p, size_t n) {
  boxlint_report_clear(R);
  ck_assert_int_eq(boxlint_check_fragment(R, p, n, &OPTS), BOXLINT_OK);
}

static inline void dump_report(void) {
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    fprintf(stderr, "  [%zu] %s sev=%d cmd=%d %u:%u-%u:%u off=%zu-%zu msg=\"%s\" hint=\"%s\"\n", i,
            d->rule, (int)d->severity, (int)d->command, d->line, d->column, d->end_line,
            d->end_column, d->offset, d->end_offset, d->message, d->hint ? d->hint : "(null)");
  }
}

static inline int contains(const char *hay, const char *needle) {
  return needle == NULL || (hay != NULL && strstr(hay, needle) != NULL);
}

static inline size_t count_rule(const char *rule) {
  size_t n = 0;
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++)
    n += strcmp(boxlint_report_diag(R, i)->rule, rule) == 0;
  return n;
}

/* Assert a diagnostic of `rule` on command `cmd` starting at l:c exists, ends at el:ec, has
 * severity `sev` and a message containing `msg`. */
#define EXPECT(rule, sev, cmd, l, c, el, ec, msg) expect_at(__LINE__, rule, sev, cmd, l, c, el, ec, msg)
static inline const boxlint_diag *expect_at(int at, const char *rule, boxlint_severity sev,
                                            int32_t cmd, uint32_t l, uint32_t c, uint32_t el,
                                            uint32_t ec, const char *msg) {
  const boxlint_diag *d = NULL;
  for (size_t i = 0; i < boxlint_report_diag_count(R) && !d; i++) {
    const boxlint_diag *x = boxlint_report_diag(R, i);
    if (!strcmp(x->rule, rule) && x->command == cmd && x->line == l && x->column == c) d = x;
  }
  if (!d) dump_report();
  ck_assert_msg(d != NULL, "line %d: no %s on command %d at %u:%u", at, rule, (int)cmd, l, c);
  int ok = d->severity == sev && d->end_line == el && d->end_column == ec;
  if (!ok) dump_report();
  ck_assert_msg(ok, "line %d: %s: got sev=%d end %u:%u, want sev=%d end %u:%u", at, rule,
                (int)d->severity, d->end_line, d->end_column, (int)sev, el, ec);
  if (!contains(d->message, msg)) dump_report();
  ck_assert_msg(contains(d->message, msg), "line %d: %s message \"%s\" lacks \"%s\"", at, rule,
                d->message, msg);
  ck_assert_ptr_eq(d->path, NULL);
  return d;
}

#define HINT(d, h) ck_assert_msg(contains((d)->hint, h), "hint \"%s\" lacks \"%s\"", \
                                 (d)->hint ? (d)->hint : "(null)", h)

/* Assert `rule` does not appear in the report. */
#define NONE(rule) expect_none_at(__LINE__, rule)
static inline void expect_none_at(int at, const char *rule) {
  if (count_rule(rule)) dump_report();
  ck_assert_msg(count_rule(rule) == 0, "line %d: unexpected %s", at, rule);
}

/* Assert the report holds exactly n diagnostics. */
#define TOTAL(n) expect_total_at(__LINE__, n)
static inline void expect_total_at(int at, size_t n) {
  size_t got = boxlint_report_diag_count(R);
  if (got != n) dump_report();
  ck_assert_msg(got == n, "line %d: %zu diagnostics, want %zu", at, got, n);
}

/* Assert the report has no diagnostic below error (no warning, no info). */
#define NO_WARNINGS() no_warnings_at(__LINE__)
static inline void no_warnings_at(int at) {
  size_t n = boxlint_report_diag_count(R) - boxlint_report_count_at_least(R, E);
  if (n) dump_report();
  ck_assert_msg(n == 0, "line %d: %zu warnings, want none", at, n);
}

/* Assert no diagnostic prints `secret` in its message, hint or fix. */
#define NO_LEAK(secret) no_leak_at(__LINE__, secret)
static inline void no_leak_at(int at, const char *secret) {
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    int leak = contains(d->message, secret) || (d->hint && contains(d->hint, secret)) ||
               (d->fix && d->fix->text && contains(d->fix->text, secret)) ||
               (d->fix && d->fix->description && contains(d->fix->description, secret));
    if (leak) dump_report();
    ck_assert_msg(!leak, "line %d: diagnostic %zu (%s) prints the secret \"%s\"", at, i, d->rule,
                  secret);
  }
}

/* Secrets that look real (secret-in-command), in check_warnings_secrets.c and here. */
#define GHP "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
#define AWS "AKIAIOSFODNN7EXAMPLE"

void warnings_add_secrets(Suite *s);
void warnings_add_config(Suite *s);

#endif

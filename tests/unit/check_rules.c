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

static void setup(void) { ck_assert_int_eq(boxlint_report_new(&R, NULL), BOXLINT_OK); }
static void teardown(void) {
  boxlint_report_free(R);
  boxlint_report_free(R2);
  R = R2 = NULL;
}

/* A span over a string literal, embedded NULs included (no terminator counted). */
#define S(lit) ((boxlint_span){(lit), sizeof(lit) - 1})
#define SP(lit) {(lit), sizeof(lit) - 1}

static boxlint_status run_spans(const boxlint_span *c, size_t n, const boxlint_options *o) {
  boxlint_report_clear(R);
  return boxlint_check_commands(R, c, n, o);
}

/* Check one command, given as a literal. */
#define CHECK1(lit) ck_assert_int_eq(run1((lit), sizeof(lit) - 1, NULL), BOXLINT_OK)
#define CHECK1_OPTS(lit, o) ck_assert_int_eq(run1((lit), sizeof(lit) - 1, (o)), BOXLINT_OK)
static boxlint_status run1(const char *p, size_t n, const boxlint_options *o) {
  boxlint_span s = {p, n};
  return run_spans(&s, 1, o);
}

static int contains(const char *hay, const char *needle) {
  return needle == NULL || (hay != NULL && strstr(hay, needle) != NULL);
}

static void dump_report(void) {
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    fprintf(stderr, "  [%zu] %s cmd=%d %u:%u-%u:%u off=%zu-%zu msg=\"%s\" hint=\"%s\"\n", i,
            d->rule, (int)d->command, d->line, d->column, d->end_line, d->end_column, d->offset,
            d->end_offset, d->message, d->hint ? d->hint : "(null)");
  }
}

/* The first diagnostic of `rule` on command `cmd`, or NULL. */
static const boxlint_diag *find(const char *rule, int32_t cmd) {
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    if (strcmp(d->rule, rule) == 0 && d->command == cmd) return d;
  }
  return NULL;
}

static size_t count_rule(const char *rule) {
  size_t n = 0;
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++)
    n += strcmp(boxlint_report_diag(R, i)->rule, rule) == 0;
  return n;
}

/* Assert that a diagnostic of `rule` exists on `cmd` with exactly these positions, severity
 * error, and message/hint containing the given substrings (NULL: not checked). */
#define EXPECT(rule, cmd, l, c, el, ec, off, eoff, msg, hint)                                    \
  expect_at(__LINE__, rule, cmd, l, c, el, ec, off, eoff, msg, hint)
static const boxlint_diag *expect_at(int at, const char *rule, int32_t cmd, uint32_t l,
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
static void expect_start_at(int at, const char *rule, int32_t cmd, uint32_t l, uint32_t c,
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
static size_t nerrors(void) { return boxlint_report_count_at_least(R, BOXLINT_SEVERITY_ERROR); }

/* Error diagnostic number i, in report order. */
static const boxlint_diag *error_at(size_t i) {
  for (size_t k = 0; k < boxlint_report_diag_count(R); k++) {
    const boxlint_diag *d = boxlint_report_diag(R, k);
    if (d->severity == BOXLINT_SEVERITY_ERROR && i-- == 0) return d;
  }
  return NULL;
}

/* No error at all. */
#define EXPECT_CLEAN() expect_clean_at(__LINE__)
static void expect_clean_at(int at) {
  if (nerrors()) dump_report();
  ck_assert_msg(nerrors() == 0, "line %d: expected no errors, got %zu", at, nerrors());
}

/* No diagnostic of `rule`. */
#define EXPECT_NONE(rule) expect_none_at(__LINE__, rule)
static void expect_none_at(int at, const char *rule) {
  size_t n = count_rule(rule);
  if (n) dump_report();
  ck_assert_msg(n == 0, "line %d: expected no %s, got %zu", at, rule, n);
}

/* Exactly `n` errors in total. */
#define EXPECT_COUNT(n) expect_count_at(__LINE__, n)
static void expect_count_at(int at, size_t n) {
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

static boxlint_options opts_default(void) {
  boxlint_options o;
  boxlint_options_init(&o);
  return o;
}

/*==============================================================================================
 * denied-instruction (docs/design.md §2.1)
 *============================================================================================*/

START_TEST(test_denied_from) {
  CHECK1("FROM ubuntu:22.04");
  EXPECT_COUNT(1);
  EXPECT("denied-instruction", 0, 1, 1, 1, 5, 0, 4, "FROM", "base image");
  const boxlint_diag *d = find("denied-instruction", 0);
  ck_assert(contains(d->message, "base image") || contains(d->message, "systemd"));
  /* lower case is the same keyword (§1) */
  CHECK1("  from ubuntu");
  EXPECT("denied-instruction", 0, 1, 3, 1, 7, 2, 6, "FROM", NULL);
}
END_TEST

START_TEST(test_denied_copy_add) {
  CHECK1("COPY . /app");
  EXPECT_COUNT(1);
  EXPECT("denied-instruction", 0, 1, 1, 1, 5, 0, 4, "COPY", "heredoc");
  ck_assert(contains(find("denied-instruction", 0)->message, "build context"));
  ck_assert(contains(find("denied-instruction", 0)->hint, "curl"));
  CHECK1("ADD https://example.com/x.tgz /opt/");
  EXPECT_COUNT(1);
  EXPECT("denied-instruction", 0, 1, 1, 1, 4, 0, 3, "ADD", "curl");
  ck_assert(contains(find("denied-instruction", 0)->message, "build context"));
}
END_TEST

START_TEST(test_denied_cmd_entrypoint) {
  CHECK1("CMD [\"python\", \"app.py\"]");
  EXPECT_COUNT(1);
  EXPECT("denied-instruction", 0, 1, 1, 1, 4, 0, 3, "CMD", NULL);
  ck_assert(contains(find("denied-instruction", 0)->message, "PID 1"));
  ck_assert(find("denied-instruction", 0)->hint != NULL);
  CHECK1("\tENTRYPOINT /start.sh");
  EXPECT_COUNT(1);
  EXPECT("denied-instruction", 0, 1, 2, 1, 12, 1, 11, "ENTRYPOINT", NULL);
  ck_assert(contains(find("denied-instruction", 0)->message, "Jupyter"));
}
END_TEST

/* The three kinds have three distinct messages and hints. */
START_TEST(test_denied_messages_distinct) {
  boxlint_span c[] = {S("FROM x"), S("COPY a b"), S("CMD x"), S("ADD a b"), S("ENTRYPOINT x")};
  ck_assert_int_eq(run_spans(c, 5, NULL), BOXLINT_OK);
  EXPECT_COUNT(5);
  const boxlint_diag *f = find("denied-instruction", 0), *cp = find("denied-instruction", 1),
                     *cm = find("denied-instruction", 2), *ad = find("denied-instruction", 3),
                     *en = find("denied-instruction", 4);
  ck_assert(f && cp && cm && ad && en);
  ck_assert_str_ne(f->hint, cp->hint);
  ck_assert_str_ne(f->hint, cm->hint);
  ck_assert_str_ne(cp->hint, cm->hint);
  ck_assert_str_eq(cp->hint, ad->hint); /* COPY and ADD share a reason */
  ck_assert_str_eq(cm->hint, en->hint); /* CMD and ENTRYPOINT share a reason */
  ck_assert(contains(ad->message, "ADD") && !contains(ad->message, "COPY"));
  ck_assert(contains(en->message, "ENTRYPOINT"));
}
END_TEST

START_TEST(test_denied_onbuild_triggers) {
  boxlint_span c[] = {S("ONBUILD COPY . /app"), S("ONBUILD ADD x /"), S("ONBUILD CMD [\"x\"]"),
                      S("ONBUILD ENTRYPOINT [\"/x\"]"), S("onbuild from alpine")};
  ck_assert_int_eq(run_spans(c, 5, NULL), BOXLINT_OK);
  EXPECT("denied-instruction", 0, 1, 9, 1, 13, 8, 12, "ONBUILD COPY", "heredoc");
  EXPECT("denied-instruction", 1, 1, 9, 1, 12, 8, 11, "ONBUILD ADD", NULL);
  EXPECT("denied-instruction", 2, 1, 9, 1, 12, 8, 11, "ONBUILD CMD", NULL);
  EXPECT("denied-instruction", 3, 1, 9, 1, 19, 8, 18, "ONBUILD ENTRYPOINT", NULL);
  EXPECT("denied-instruction", 4, 1, 9, 1, 13, 8, 12, "FROM", NULL);
  /* the trigger on a continuation line (V10: "ONBUILD \\" | "COPY . /") */
  CHECK1("ONBUILD \\\nCOPY . /");
  EXPECT("denied-instruction", 0, 2, 1, 2, 5, 10, 14, "ONBUILD COPY", NULL);
}
END_TEST

START_TEST(test_denied_close_cases_allowed) {
  /* Words that contain a denied keyword, or a denied keyword as an argument, are fine. */
  ACCEPT("RUN echo FROM COPY ADD CMD ENTRYPOINT");
  ACCEPT("RUN cp -r /a /b");
  ACCEPT("ONBUILD RUN echo COPY");
  ACCEPT("ENV FROM=1");
  ACCEPT("HEALTHCHECK CMD curl -f http://localhost/");
  ACCEPT("LABEL maintainer=x");
}
END_TEST

/*==============================================================================================
 * unknown-instruction (docs/design.md §2.1, §2.5 fix)
 *============================================================================================*/

START_TEST(test_unknown_did_you_mean) {
  CHECK1("RUNN apt-get update");
  EXPECT_COUNT(1);
  const boxlint_diag *d =
      EXPECT("unknown-instruction", 0, 1, 1, 1, 5, 0, 4, "RUNN", "did you mean RUN?");
  ck_assert_ptr_nonnull(d->fix);
  ck_assert_uint_eq(d->fix->offset, 0);
  ck_assert_uint_eq(d->fix->length, 4);
  ck_assert_str_eq(d->fix->text, "RUN");
  ck_assert_uint_eq(d->fix->text_len, 3);

  CHECK1("  FORM x");
  d = EXPECT("unknown-instruction", 0, 1, 3, 1, 7, 2, 6, "FORM", "did you mean FROM?");
  ck_assert_ptr_nonnull(d->fix);
  ck_assert_uint_eq(d->fix->offset, 2);
  ck_assert_uint_eq(d->fix->length, 4);
  ck_assert_str_eq(d->fix->text, "FROM");

  CHECK1("WORKDI /app");
  d = EXPECT("unknown-instruction", 0, 1, 1, 1, 7, 0, 6, "WORKDI", "did you mean WORKDIR?");
  ck_assert_str_eq(d->fix->text, "WORKDIR");
  ck_assert_uint_eq(d->fix->length, 6);

  /* The suggestion keeps lower case when the keyword was not all upper case (§9). */
  CHECK1("Runn x");
  EXPECT("unknown-instruction", 0, 1, 1, 1, 5, 0, 4, "Runn", "did you mean run?");
  CHECK1("ARGS x");
  EXPECT("unknown-instruction", 0, 1, 1, 1, 5, 0, 4, "ARGS", "did you mean ARG?");
  CHECK1("EOF");
  EXPECT("unknown-instruction", 0, 1, 1, 1, 4, 0, 3, "EOF", "did you mean ENV?");
}
END_TEST

/* `cp` is at distance 2 of both CMD and COPY: BuildKit picks at random, boxlint must pick the
 * same one every time (docs/design.md §2.1: ties broken the same way every time). */
START_TEST(test_unknown_tie_deterministic) {
  char first[32] = "";
  for (int i = 0; i < 20; i++) {
    CHECK1("cp a b");
    const boxlint_diag *d = EXPECT("unknown-instruction", 0, 1, 1, 1, 3, 0, 2, "cp", "did you mean");
    ck_assert(contains(d->hint, "cmd?") || contains(d->hint, "copy?"));
    if (i == 0) snprintf(first, sizeof first, "%s", d->hint);
    else ck_assert_str_eq(d->hint, first);
  }
  /* and with a fresh report */
  boxlint_report *r2;
  ck_assert_int_eq(boxlint_report_new(&r2, NULL), BOXLINT_OK);
  boxlint_span s = S("cp a b");
  ck_assert_int_eq(boxlint_check_commands(r2, &s, 1, NULL), BOXLINT_OK);
  ck_assert_str_eq(boxlint_report_diag(r2, 0)->hint, first);
  boxlint_report_free(r2);
}
END_TEST

START_TEST(test_unknown_forgot_run) {
  CHECK1("pip install --no-cache-dir numpy");
  EXPECT_COUNT(1);
  const boxlint_diag *d =
      EXPECT("unknown-instruction", 0, 1, 1, 1, 4, 0, 3, "pip", "did you forget RUN?");
  ck_assert_ptr_nonnull(d->fix);
  ck_assert_uint_eq(d->fix->offset, 0);
  ck_assert_uint_eq(d->fix->length, 0);
  ck_assert_str_eq(d->fix->text, "RUN ");
  ck_assert_uint_eq(d->fix->text_len, 4);

  /* with leading blanks the insertion goes before the word */
  CHECK1("   apt-get install -y curl");
  d = EXPECT("unknown-instruction", 0, 1, 4, 1, 11, 3, 10, "apt-get", "did you forget RUN?");
  ck_assert_uint_eq(d->fix->offset, 3);
  ck_assert_uint_eq(d->fix->length, 0);
  ck_assert_str_eq(d->fix->text, "RUN ");

  /* beyond distance 2 there is no suggestion (§9: XYZZY, ENTRY) */
  CHECK1("XYZZY");
  EXPECT("unknown-instruction", 0, 1, 1, 1, 6, 0, 5, "XYZZY", "did you forget RUN?");
  CHECK1("ENTRY x");
  EXPECT("unknown-instruction", 0, 1, 1, 1, 6, 0, 5, "ENTRY", "did you forget RUN?");
}
END_TEST

START_TEST(test_unknown_close_cases) {
  /* all 18 keywords, any ASCII case, are known */
  static const char *const kws[] = {"ARG a", "ENV a=b", "EXPOSE 80", "HEALTHCHECK NONE",
                                    "LABEL a=b", "MAINTAINER me", "ONBUILD RUN x", "RUN x",
                                    "SHELL [\"/bin/sh\", \"-c\"]", "STOPSIGNAL SIGTERM",
                                    "USER root", "VOLUME /data", "WORKDIR /app",
                                    "rUn x", "wOrKdIr /x", "healthcheck cmd true"};
  for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++) {
    ck_assert_int_eq(run1(kws[i], strlen(kws[i]), NULL), BOXLINT_OK);
    if (nerrors()) {
      dump_report();
      ck_abort_msg("\"%s\" should be accepted", kws[i]);
    }
    const boxlint_instruction *in = boxlint_report_instruction(R, 0);
    ck_assert_int_ne(in->keyword, BOXLINT_KW_NONE);
  }
  /* VT and FF separate the keyword like spaces (§1) but are control characters */
  CHECK1("RUN\vx");
  EXPECT_NONE("unknown-instruction");
  EXPECT("control-character", 0, 1, 4, 1, 5, 3, 4, "0x0b", NULL);
}
END_TEST

/*==============================================================================================
 * empty-command
 *============================================================================================*/

START_TEST(test_empty_command) {
  CHECK1("");
  EXPECT_COUNT(1);
  EXPECT("empty-command", 0, 1, 1, 1, 1, 0, 0, "empty", NULL);
  CHECK1("  \t ");
  EXPECT_COUNT(1);
  EXPECT("empty-command", 0, 1, 1, 1, 5, 0, 4, "empty", NULL);
  CHECK1("\n");
  EXPECT_COUNT(1);
  EXPECT("empty-command", 0, 1, 1, 2, 1, 0, 1, "empty", NULL);
  CHECK1("# install deps");
  EXPECT_COUNT(1);
  EXPECT("empty-command", 0, 1, 1, 1, 15, 0, 14, "comment", NULL);
  /* a comment never continues (§3), even if it ends with the escape character */
  CHECK1("  # note \\");
  EXPECT_COUNT(1);
  EXPECT("empty-command", 0, 1, 1, 1, 11, 0, 10, "comment", NULL);
  EXPECT_NONE("dangling-continuation");
  /* a comment-only command of several lines */
  CHECK1("# a\n\n# b\n");
  EXPECT_COUNT(1);
  EXPECT("empty-command", 0, 1, 1, 4, 1, 0, 9, "comment", NULL);
  /* the instruction list still has one entry per command */
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 1);
  ck_assert_int_eq(boxlint_report_instruction(R, 0)->keyword, BOXLINT_KW_NONE);
}
END_TEST

START_TEST(test_empty_close_cases) {
  ACCEPT("RUN true");
  ACCEPT("RUN");          /* RUN with no arguments is accepted (§11) */
  ACCEPT("RUN # not a comment: there are no inline comments (§3)");
  ACCEPT("   RUN x");
}
END_TEST

/*==============================================================================================
 * too-many-commands, command-too-long
 *============================================================================================*/

START_TEST(test_too_many_commands) {
  boxlint_span c[70];
  for (size_t i = 0; i < 70; i++) c[i] = S("RUN true");
  ck_assert_int_eq(run_spans(c, 64, NULL), BOXLINT_OK);
  EXPECT_CLEAN();
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 64);

  ck_assert_int_eq(run_spans(c, 65, NULL), BOXLINT_OK);
  EXPECT_COUNT(1);
  ck_assert_uint_eq(count_rule("too-many-commands"), 1);
  const boxlint_diag *d = find("too-many-commands", 64);
  ck_assert_ptr_nonnull(d);
  ck_assert_str_eq(d->rule, "too-many-commands");
  ck_assert_int_eq(d->severity, BOXLINT_SEVERITY_ERROR);
  /* it points at the first command over the limit */
  ck_assert_int_eq(d->command, 64);
  ck_assert(contains(d->message, "65"));
  ck_assert(contains(d->message, "64"));
  /* every command is still checked and listed */
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 65);

  /* configurable */
  boxlint_options o = opts_default();
  o.max_commands = 3;
  ck_assert_int_eq(run_spans(c, 3, &o), BOXLINT_OK);
  EXPECT_CLEAN();
  ck_assert_int_eq(run_spans(c, 4, &o), BOXLINT_OK);
  ck_assert_uint_eq(count_rule("too-many-commands"), 1);
  ck_assert(contains(find("too-many-commands", 3)->message, "3"));
  o.max_commands = 100;
  ck_assert_int_eq(run_spans(c, 70, &o), BOXLINT_OK);
  EXPECT_CLEAN();
}
END_TEST

START_TEST(test_command_too_long) {
  static char buf[5000];
  memcpy(buf, "RUN ", 4);
  memset(buf + 4, 'a', sizeof buf - 4);
  ck_assert_int_eq(run1(buf, 4096, NULL), BOXLINT_OK);
  EXPECT_CLEAN();
  ck_assert_int_eq(run1(buf, 4097, NULL), BOXLINT_OK);
  EXPECT_COUNT(1);
  EXPECT("command-too-long", 0, 1, 4097, 1, 4098, 4096, 4097, "4097", "curl");
  ck_assert(contains(find("command-too-long", 0)->message, "4096"));

  boxlint_options o = opts_default();
  o.max_command_bytes = 10;
  CHECK1_OPTS("RUN echo a", &o);
  EXPECT_CLEAN();
  CHECK1_OPTS("RUN echo ab", &o);
  EXPECT("command-too-long", 0, 1, 11, 1, 12, 10, 11, "11", NULL);
  o.max_command_bytes = 8192;
  ck_assert_int_eq(run1(buf, 5000, &o), BOXLINT_OK);
  EXPECT_CLEAN();
}
END_TEST

/*==============================================================================================
 * Bytes: nul-byte, bare-cr, control-character, invalid-utf8
 *============================================================================================*/

START_TEST(test_nul_byte) {
  CHECK1("RUN echo a\0b");
  EXPECT_COUNT(1);
  EXPECT("nul-byte", 0, 1, 11, 1, 12, 10, 11, "NUL", NULL);
  CHECK1("\0RUN x");
  EXPECT("nul-byte", 0, 1, 1, 1, 2, 0, 1, "NUL", NULL);
  /* the escape \0 written as text is fine */
  ACCEPT("RUN printf 'a\\0b'");
}
END_TEST

START_TEST(test_bare_cr) {
  CHECK1("RUN echo a\rFROM x");
  EXPECT("bare-cr", 0, 1, 11, 1, 12, 10, 11, "carriage return", "LF");
  /* V3: a CR separates the keyword, so this is FROM */
  CHECK1("FROM\revil");
  EXPECT("bare-cr", 0, 1, 5, 1, 6, 4, 5, NULL, NULL);
  EXPECT("denied-instruction", 0, 1, 1, 1, 5, 0, 4, "FROM", NULL);
  /* "RUN a \\\r " is not a continuation (V3): just the CR */
  CHECK1("RUN a \\\r ");
  EXPECT("bare-cr", 0, 1, 8, 1, 9, 7, 8, NULL, NULL);
  EXPECT_NONE("dangling-continuation");
  /* a final CR with no LF is bare too */
  CHECK1("RUN a\r");
  EXPECT("bare-cr", 0, 1, 6, 1, 7, 5, 6, NULL, NULL);
}
END_TEST

START_TEST(test_crlf_is_fine) {
  ACCEPT("RUN a\r\n");
  ACCEPT("RUN a \\\r\n  b");
  ACCEPT("RUN a \\\r\n  b\r\n");
  ACCEPT("RUN <<EOF\r\nbody\r\nEOF\r\n");
  ACCEPT("RUN a\r\n\r\n");
}
END_TEST

START_TEST(test_control_character) {
  CHECK1("RUN echo \va");
  EXPECT_COUNT(1);
  EXPECT("control-character", 0, 1, 10, 1, 11, 9, 10, "0x0b", NULL);
  CHECK1("RUN echo \fa");
  EXPECT("control-character", 0, 1, 10, 1, 11, 9, 10, "0x0c", NULL);
  CHECK1("RUN echo \x7f");
  EXPECT("control-character", 0, 1, 10, 1, 11, 9, 10, "0x7f", NULL);
  CHECK1("RUN \x01 \x01");
  EXPECT_COUNT(1); /* one diagnostic per kind, at the first one */
  EXPECT("control-character", 0, 1, 5, 1, 6, 4, 5, "0x01", NULL);
  CHECK1("RUN \x1b[1m");
  EXPECT("control-character", 0, 1, 5, 1, 6, 4, 5, "0x1b", NULL);
  /* V4: "RUN echo \\\f" is not a continuation, only a control character */
  CHECK1("RUN echo \\\f");
  EXPECT("control-character", 0, 1, 11, 1, 12, 10, 11, "0x0c", NULL);
  EXPECT_NONE("dangling-continuation");
  /* tab and LF are allowed */
  ACCEPT("RUN\techo\ta");
  ACCEPT("RUN echo a \\\n\tb");
}
END_TEST

START_TEST(test_invalid_utf8) {
  CHECK1("RUN echo \xff");
  EXPECT_COUNT(1);
  EXPECT("invalid-utf8", 0, 1, 10, 1, 11, 9, 10, "0xff", NULL);
  CHECK1("RUN echo \xc0\x80");
  EXPECT("invalid-utf8", 0, 1, 10, 1, 11, 9, 10, "0xc0", NULL); /* overlong NUL */
  CHECK1("RUN echo \xed\xa0\x80");
  EXPECT("invalid-utf8", 0, 1, 10, 1, 11, 9, 10, "0xed", NULL); /* surrogate U+D800 */
  CHECK1("RUN echo \xe2\x82");
  EXPECT("invalid-utf8", 0, 1, 10, 1, 11, 9, 10, "0xe2", NULL); /* truncated at the end */
  CHECK1("RUN echo \xf4\x90\x80\x80");
  EXPECT("invalid-utf8", 0, 1, 10, 1, 11, 9, 10, "0xf4", NULL); /* > U+10FFFF */
  CHECK1("RUN echo \x80");
  EXPECT_START("invalid-utf8", 0, 1, 10, 9, "0x80"); /* lone continuation byte */
  /* column counts code points: é is one column, two bytes */
  CHECK1("RUN \xc3\xa9\xff");
  EXPECT("invalid-utf8", 0, 1, 6, 1, 7, 6, 7, "0xff", NULL);
  /* valid UTF-8 of every length in the arguments is fine */
  ACCEPT("RUN echo \xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xb3 \xef\xbf\xbf");
}
END_TEST

/* A command may have problems of several byte kinds: each is reported. */
START_TEST(test_byte_problems_all_reported) {
  CHECK1("RUN \x01\xff\r\0");
  EXPECT("control-character", 0, 1, 5, 1, 6, 4, 5, NULL, NULL);
  EXPECT("invalid-utf8", 0, 1, 6, 1, 7, 5, 6, NULL, NULL);
  EXPECT("bare-cr", 0, 1, 7, 1, 8, 6, 7, NULL, NULL);
  EXPECT("nul-byte", 0, 1, 8, 1, 9, 7, 8, NULL, NULL);
  /* sorted by position */
  size_t n = boxlint_report_diag_count(R);
  for (size_t i = 1; i < n; i++)
    ck_assert_uint_le(boxlint_report_diag(R, i - 1)->offset, boxlint_report_diag(R, i)->offset);
}
END_TEST

/*==============================================================================================
 * non-ascii-syntax (docs/design.md §2.1; V8, V9, V11)
 *============================================================================================*/

START_TEST(test_nonascii_leading_space) {
  CHECK1("\xc2\xa0" "FROM evil"); /* NBSP */
  EXPECT("non-ascii-syntax", 0, 1, 1, 1, 2, 0, 2, "white space", NULL);
  EXPECT("denied-instruction", 0, 1, 2, 1, 6, 2, 6, "FROM", NULL);
  CHECK1("\xe3\x80\x80" "RUN x"); /* U+3000 */
  EXPECT_COUNT(1);
  EXPECT("non-ascii-syntax", 0, 1, 1, 1, 2, 0, 3, "white space", NULL);
  CHECK1("\xe2\x80\xa8" "RUN x"); /* U+2028 */
  EXPECT_COUNT(1);
  EXPECT("non-ascii-syntax", 0, 1, 1, 1, 2, 0, 3, "white space", NULL);
  CHECK1(" \t\xc2\x85RUN x"); /* U+0085 after ASCII blanks */
  EXPECT("non-ascii-syntax", 0, 1, 1, 1, 4, 0, 4, NULL, NULL);
  /* ASCII leading blanks are fine */
  ACCEPT(" \t RUN x");
}
END_TEST

START_TEST(test_nonascii_keyword_folding) {
  /* V9: U+0130 folds to i */
  CHECK1("ENTRYPO\xc4\xb0NT [\"/evil\"]");
  EXPECT("non-ascii-syntax", 0, 1, 1, 1, 11, 0, 11, "ENTRYPOINT", "ASCII");
  EXPECT("denied-instruction", 0, 1, 1, 1, 11, 0, 11, "ENTRYPOINT", NULL);
  CHECK1("WORKD\xc4\xb0R /app");
  EXPECT_COUNT(1);
  EXPECT("non-ascii-syntax", 0, 1, 1, 1, 8, 0, 8, "WORKDIR", NULL);
  ck_assert_int_eq(boxlint_report_instruction(R, 0)->keyword, BOXLINT_KW_WORKDIR);
  /* Kelvin sign folds to k */
  CHECK1("HEALTHCHEC\xe2\x84\xaa NONE");
  EXPECT_COUNT(1);
  EXPECT("non-ascii-syntax", 0, 1, 1, 1, 12, 0, 13, "HEALTHCHECK", NULL);
  /* ı (U+0131) does not fold: unknown, and still non-ASCII */
  CHECK1("RUN\xc4\xb1 x");
  EXPECT("non-ascii-syntax", 0, 1, 1, 1, 5, 0, 5, NULL, NULL);
  EXPECT("unknown-instruction", 0, 1, 1, 1, 5, 0, 5, NULL, NULL);
  /* V9 on ONBUILD itself */
  CHECK1("ONBU\xc4\xb0LD ENTRYPOINT [\"/x\"]");
  EXPECT("non-ascii-syntax", 0, 1, 1, 1, 8, 0, 8, "ONBUILD", NULL);
  EXPECT("denied-instruction", 0, 1, 9, 1, 19, 9, 19, "ENTRYPOINT", NULL);
  /* and in a trigger's keyword */
  CHECK1("ONBUILD R\xc4\xb0N x");
  EXPECT("non-ascii-syntax", 0, 1, 9, 1, 12, 8, 12, NULL, NULL);
  /* §10: ONBUILD ONBUİLD passes BuildKit's chaining check, but boxlint still rejects it */
  CHECK1("ONBUILD ONBU\xc4\xb0LD RUN x");
  EXPECT("non-ascii-syntax", 0, 1, 9, 1, 16, 8, 16, "ONBUILD", NULL);
  /* non-ASCII in the arguments is fine */
  ACCEPT("RUN echo \xc4\xb0stanbul \xe2\x84\xaa");
  ACCEPT("ONBUILD RUN echo \xc3\xa9");
}
END_TEST

START_TEST(test_nonascii_flags) {
  /* V11: byte 0xA0 of à splits the flag word: --network=host is hidden in --mount */
  CHECK1("RUN --mount=type=cache,target=/x\xc3\xa0--network=host true");
  EXPECT_START("non-ascii-syntax", 0, 1, 33, 32, "flags");
  CHECK1("RUN --mount=type=cache,target=/\xc3\xa9 true");
  EXPECT_START("non-ascii-syntax", 0, 1, 32, 31, "flags");
  /* in an ONBUILD trigger's flags too */
  CHECK1("ONBUILD RUN --mount=type=cache,target=/x\xc3\xa0--network=host true");
  EXPECT_START("non-ascii-syntax", 0, 1, 41, 40, "flags");
  /* where there are no arguments, the end is the end of the flags */
  CHECK1("RUN --mount=type=cache,target=/\xc3\xa9");
  EXPECT("non-ascii-syntax", 0, 1, 32, 1, 33, 31, 33, "flags", NULL);
  /* the same text after the flags is an argument */
  ACCEPT("RUN --mount=type=cache,target=/x echo \xc3\xa0--network=host");
}
END_TEST

/*==============================================================================================
 * multiple-instructions
 *============================================================================================*/

START_TEST(test_multiple_instructions) {
  /* V1 */
  CHECK1("RUN true\nFROM evil");
  EXPECT_COUNT(1);
  EXPECT("multiple-instructions", 0, 2, 1, 2, 10, 9, 18, "FROM", NULL);
  CHECK1("RUN true\r\nFROM evil");
  EXPECT("multiple-instructions", 0, 2, 1, 2, 10, 10, 19, "FROM", NULL);
  /* the second instruction is named even when unknown */
  CHECK1("RUN a\nfoo bar");
  EXPECT("multiple-instructions", 0, 2, 1, 2, 8, 6, 13, "foo", NULL);
  CHECK1("RUN a\n  run b");
  EXPECT("multiple-instructions", 0, 2, 3, 2, 8, 8, 13, "RUN", NULL);
  /* a trailing comment */
  CHECK1("RUN a\n# done");
  EXPECT_COUNT(1);
  EXPECT("multiple-instructions", 0, 2, 1, 2, 7, 6, 12, "comment", NULL);
  /* after blank lines */
  CHECK1("RUN a\n\n   \nUSER x");
  EXPECT("multiple-instructions", 0, 4, 1, 4, 7, 11, 17, "USER", NULL);
  /* after a heredoc */
  CHECK1("RUN <<EOF\nx\nEOF\nRUN y");
  EXPECT_COUNT(1);
  EXPECT("multiple-instructions", 0, 4, 1, 4, 6, 16, 21, "RUN", NULL);
  /* V1 inside a JSON string: a raw LF still ends the line */
  CHECK1("RUN [\"a\nFROM evil\"]");
  EXPECT("multiple-instructions", 0, 2, 1, 2, 12, 8, 19, "FROM", NULL);
}
END_TEST

START_TEST(test_multiple_close_cases) {
  ACCEPT("RUN a\n");
  ACCEPT("RUN a\r\n");
  ACCEPT("RUN a\n\n\n");
  ACCEPT("RUN a\n  \t\n");
  ACCEPT("RUN a \\\n  && b");
  /* V5: a comment or blank line inside a continuation does not end the instruction */
  ACCEPT("RUN a \\\n# c\n  && b");
  ACCEPT("RUN a \\\n\n  && b");
  /* V2 harmless direction: one RUN "echo FROM evil" */
  ACCEPT("RUN echo \\\nFROM evil");
  /* a heredoc body may hold anything */
  ACCEPT("RUN <<EOF\nFROM evil\n# c\nEOF");
}
END_TEST

/*==============================================================================================
 * dangling-continuation (§4, V2, V4, V5)
 *============================================================================================*/

START_TEST(test_dangling_continuation) {
  CHECK1("RUN apt-get update \\");
  EXPECT_COUNT(1);
  const boxlint_diag *d =
      EXPECT("dangling-continuation", 0, 1, 20, 1, 21, 19, 20, "continuation", NULL);
  ck_assert_ptr_nonnull(d->fix);
  ck_assert_uint_eq(d->fix->offset, 19);
  ck_assert_uint_eq(d->fix->length, 1);
  ck_assert_uint_eq(d->fix->text_len, 0);
  /* blanks after the escape still continue */
  CHECK1("RUN a \\ \t");
  EXPECT("dangling-continuation", 0, 1, 7, 1, 8, 6, 7, NULL, NULL);
  /* V2: a keyword split across commands */
  CHECK1("FR\\");
  EXPECT("dangling-continuation", 0, 1, 3, 1, 4, 2, 3, NULL, NULL);
  CHECK1("\\");
  EXPECT("dangling-continuation", 0, 1, 1, 1, 2, 0, 1, NULL, NULL);
  EXPECT_NONE("empty-command"); /* not empty: it swallows the next command */
  /* a trailing LF after the escape: the blank line is skipped, still dangling */
  CHECK1("RUN a \\\n");
  EXPECT("dangling-continuation", 0, 1, 7, 1, 8, 6, 7, NULL, NULL);
  /* through a comment line, and through blank continuation lines (V5 + V2) */
  CHECK1("RUN a \\\n# comment");
  EXPECT_COUNT(1);
  EXPECT("dangling-continuation", 0, 1, 7, 1, 8, 6, 7, NULL, NULL);
  EXPECT_NONE("multiple-instructions");
  CHECK1("RUN a \\\n\n   \n");
  EXPECT_COUNT(1);
  EXPECT("dangling-continuation", 0, 1, 7, 1, 8, 6, 7, NULL, NULL);
  /* on a later line */
  CHECK1("RUN a \\\n  b \\");
  EXPECT("dangling-continuation", 0, 2, 5, 2, 6, 12, 13, NULL, NULL);
  /* V4: "RUN x # \\" does continue (no inline comments) */
  CHECK1("RUN x # \\");
  EXPECT("dangling-continuation", 0, 1, 9, 1, 10, 8, 9, NULL, NULL);
  /* trailing CRs are stripped before the test (V3) */
  CHECK1("FR\\\r\n");
  EXPECT("dangling-continuation", 0, 1, 3, 1, 4, 2, 3, NULL, NULL);
  EXPECT_NONE("bare-cr");
}
END_TEST

START_TEST(test_dangling_close_cases) {
  /* two or more escape characters never continue (§4) */
  ACCEPT("RUN echo \\\\");
  ACCEPT("RUN echo \\\\\\");
  /* text after the escape stops it (§4: "RUN x \\ # c") */
  ACCEPT("RUN x \\ # c");
  /* a backtick is not the default escape (V4) */
  ACCEPT("RUN echo `");
  ACCEPT("RUN a \\\n  b");
}
END_TEST

START_TEST(test_dangling_backtick_escape) {
  boxlint_options o = opts_default();
  o.escape = '`';
  CHECK1_OPTS("RUN echo `", &o);
  EXPECT_COUNT(1);
  const boxlint_diag *d = EXPECT("dangling-continuation", 0, 1, 10, 1, 11, 9, 10, NULL, "`");
  ck_assert_ptr_nonnull(d->fix);
  ck_assert_uint_eq(d->fix->offset, 9);
  ck_assert_uint_eq(d->fix->length, 1);
  /* with the backtick escape a backslash is plain text */
  CHECK1_OPTS("RUN echo \\", &o);
  EXPECT_CLEAN();
  CHECK1_OPTS("RUN a `\n  b", &o);
  EXPECT_CLEAN();
  CHECK1_OPTS("RUN a ``", &o);
  EXPECT_CLEAN();
  /* and a backslash continuation line no longer hides a second instruction */
  CHECK1_OPTS("RUN a \\\nFROM x", &o);
  EXPECT("multiple-instructions", 0, 2, 1, 2, 7, 8, 14, "FROM", NULL);
  /* the multiple-instructions hint names the escape character in use */
  ck_assert(contains(find("multiple-instructions", 0)->hint, "`"));
}
END_TEST

/*==============================================================================================
 * Heredocs: unterminated-heredoc, ambiguous-heredoc (§6, V6, V7)
 *============================================================================================*/

START_TEST(test_unterminated_heredoc) {
  CHECK1("RUN <<EOF\necho hi");
  EXPECT_COUNT(1);
  EXPECT("unterminated-heredoc", 0, 1, 5, 1, 7, 4, 6, "EOF", "EOF");
  /* the second of two heredocs is missing (heredoc_multi_missing_second) */
  CHECK1("RUN cat <<A - <<B\na\nA\nb");
  EXPECT_COUNT(1);
  EXPECT("unterminated-heredoc", 0, 1, 15, 1, 17, 14, 16, "\"B\"", NULL);
  /* terminators must match exactly: not "EOF ", not " EOF", not "eof" (V7) */
  CHECK1("RUN <<EOF\nx\nEOF \n eof\n EOF");
  EXPECT("unterminated-heredoc", 0, 1, 5, 1, 7, 4, 6, NULL, NULL);
  /* <<- strips tabs, never spaces */
  CHECK1("RUN <<-EOF\n  EOF");
  EXPECT("unterminated-heredoc", 0, 1, 5, 1, 7, 4, 6, NULL, "tabs");
  /* in an ONBUILD trigger, and lower-case run */
  CHECK1("ONBUILD RUN <<EOF\nx");
  EXPECT("unterminated-heredoc", 0, 1, 13, 1, 15, 12, 14, NULL, NULL);
  CHECK1("run cat <<EOF");
  EXPECT("unterminated-heredoc", 0, 1, 9, 1, 11, 8, 10, NULL, NULL);
  /* heredocs open even where a shell would not: << EOF, 0<<EOF, after #, $(( 1 <<2 )) (V7) */
  CHECK1("RUN cat << EOF");
  EXPECT("unterminated-heredoc", 0, 1, 9, 1, 11, 8, 10, NULL, NULL);
  CHECK1("RUN cat 0<<EOF");
  EXPECT("unterminated-heredoc", 0, 1, 10, 1, 12, 9, 11, NULL, NULL);
  CHECK1("RUN echo hi # <<EOF");
  EXPECT("unterminated-heredoc", 0, 1, 15, 1, 17, 14, 16, NULL, NULL);
  CHECK1("RUN echo $(( 1 <<2 ))");
  EXPECT("unterminated-heredoc", 0, 1, 16, 1, 18, 15, 17, "\"2\"", NULL);
  /* COPY bodies are read too, and COPY is also denied */
  CHECK1("COPY <<EOF /x\nbody");
  EXPECT("denied-instruction", 0, 1, 1, 1, 5, 0, 4, NULL, NULL);
  EXPECT("unterminated-heredoc", 0, 1, 6, 1, 8, 5, 7, NULL, NULL);
  /* RUN ["cat"] <<EOF is not valid JSON: shell form with a heredoc (§6) */
  CHECK1("RUN [\"cat\"] <<EOF");
  EXPECT("unterminated-heredoc", 0, 1, 13, 1, 15, 12, 14, NULL, NULL);
}
END_TEST

START_TEST(test_heredoc_close_cases) {
  ACCEPT("RUN <<EOF\necho hi\nEOF");
  ACCEPT("RUN <<EOF\necho hi\nEOF\n");
  ACCEPT("RUN <<EOF\necho hi\nEOF\r\n");
  ACCEPT("RUN <<-EOF\n\techo hi\n\t\tEOF");
  ACCEPT("RUN <<'EOF'\n$HOME\nEOF");
  ACCEPT("RUN <<\"EOF\"\nx\nEOF");
  ACCEPT("RUN cat <<A - <<B\na\nA\nb\nB");
  ACCEPT("RUN python3 <<EOF\nprint('h\xc3\xa9llo')\nEOF"); /* non-ASCII body */
  ACCEPT("RUN echo \"h\xc3\xa9llo\" && cat <<EOF\nx\nEOF");   /* non-ASCII on the line */
  ACCEPT("RUN <<EOF\nbody ends with \\\nEOF");            /* bodies never continue */
  /* no heredoc at all: these lines end the command (V7) */
  ACCEPT("RUN cat <<- EOF");
  ACCEPT("RUN cat<<EOF");
  ACCEPT("RUN cat <<EOF<in");
  ACCEPT("RUN echo \"<<EOF\"");
  ACCEPT("RUN echo \\<<EOF");
  ACCEPT("RUN cat <<<EOF");
  ACCEPT("RUN cat <<\"\"");
  ACCEPT("RUN [\"cat\", \"<<EOF\"]");
  ACCEPT("ENV A=<<EOF");
  ACCEPT("LABEL a=<<EOF");
  ACCEPT("RUN cat <<EOF # it's");      /* a stray quote: lexer error, no heredoc */
  ACCEPT("RUN echo ${ <<EOF");
  ACCEPT("ONBUILD RUN cat <<'LABEL x=y' \"");
}
END_TEST

/* V6, V7: heredocs whose names look like instructions. */
START_TEST(test_heredoc_smuggling_shapes) {
  /* V6: the heredoc ends at line 2; FROM evil is a second instruction */
  CHECK1("RUN <<'RUN echo \\'\nRUN echo \\\nFROM evil");
  EXPECT_COUNT(1);
  EXPECT("multiple-instructions", 0, 3, 1, 3, 10, 30, 39, "FROM", NULL);
  /* V7: tab-stripped terminator with <<- */
  CHECK1("RUN <<-'EXPOSE 80'\n\tEXPOSE 80\nFROM evil\nEXPOSE 80");
  EXPECT_COUNT(1);
  EXPECT("multiple-instructions", 0, 3, 1, 3, 10, 30, 39, "FROM", NULL);
  /* V7: the ONBUILD lexer-error case, the three strings joined */
  CHECK1("ONBUILD RUN cat <<'LABEL x=y' \"\nENTRYPOINT [\"/evil\"]\nLABEL x=y");
  EXPECT("multiple-instructions", 0, 2, 1, 2, 21, 32, 52, "ENTRYPOINT", NULL);
}
END_TEST

/* ambiguous-heredoc is optional; boxlint fires it where its shell model is not sure (a `$`
 * followed by a non-ASCII letter, or a BOM in the shell words). It must never fire on an
 * ordinary heredoc. */
START_TEST(test_ambiguous_heredoc) {
  CHECK1("RUN echo $\xc3\xa9 <<EOF\nx\nEOF");
  EXPECT("ambiguous-heredoc", 0, 1, 13, 1, 15, 13, 15, "heredoc", "<<EOF");
  CHECK1("RUN echo \xef\xbb\xbf <<EOF\nx\nEOF");
  EXPECT("ambiguous-heredoc", 0, 1, 12, 1, 14, 13, 15, NULL, NULL);
  /* close: ordinary heredocs with quotes, fds, several openers, non-ASCII in the body */
  static const char *const ok[] = {
      "RUN <<EOF\nx\nEOF", "RUN <<'EOF'\nx\nEOF", "RUN <<\"EOF\"\nx\nEOF",
      "RUN <<E\"O\"F\nx\nEOF", "RUN <<E\\OF\nx\nEOF", "RUN 3<<EOF\nx\nEOF",
      "RUN <<-EOF\n\tx\n\tEOF", "RUN cat <<A <<B\n\xc3\xa9\nA\n\xe2\x82\xac\nB",
      "RUN --mount=type=cache,target=/root/.cache pip install -r /dev/stdin <<EOF\nnumpy\nEOF",
      "RUN echo \"caf\xc3\xa9\" $HOME ${HOME:-/root} <<EOF\nx\nEOF"};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    ck_assert_int_eq(run1(ok[i], strlen(ok[i]), NULL), BOXLINT_OK);
    if (nerrors()) {
      dump_report();
      ck_abort_msg("\"%s\" should be accepted", ok[i]);
    }
    ck_assert_uint_ge(boxlint_report_instruction(R, 0)->nheredocs, 1);
  }
}
END_TEST

/*==============================================================================================
 * invalid-onbuild (§10, §11)
 *============================================================================================*/

START_TEST(test_invalid_onbuild) {
  CHECK1("ONBUILD");
  EXPECT_COUNT(1);
  EXPECT("invalid-onbuild", 0, 1, 1, 1, 8, 0, 7, "ONBUILD requires at least one argument", NULL);
  CHECK1("ONBUILD   ");
  EXPECT("invalid-onbuild", 0, 1, 1, 1, 8, 0, 7, "at least one argument", NULL);
  CHECK1("ONBUILD ONBUILD RUN x");
  EXPECT_COUNT(1);
  EXPECT("invalid-onbuild", 0, 1, 9, 1, 16, 8, 15, "Chaining ONBUILD", NULL);
  CHECK1("onbuild onbuild run x");
  EXPECT("invalid-onbuild", 0, 1, 9, 1, 16, 8, 15, "Chaining ONBUILD", NULL);
  CHECK1("ONBUILD FROM alpine");
  EXPECT("invalid-onbuild", 0, 1, 9, 1, 13, 8, 12, "FROM isn't allowed as an ONBUILD trigger",
         NULL);
  CHECK1("ONBUILD MAINTAINER me");
  EXPECT_COUNT(1);
  EXPECT("invalid-onbuild", 0, 1, 9, 1, 19, 8, 18,
         "MAINTAINER isn't allowed as an ONBUILD trigger", NULL);
  /* flags on ONBUILD itself: unknown flag (§10) */
  CHECK1("ONBUILD --x RUN y");
  EXPECT("invalid-flag", 0, 1, 9, 1, 12, 8, 11, "unknown flag: --x", NULL);
}
END_TEST

START_TEST(test_onbuild_close_cases) {
  ACCEPT("ONBUILD RUN echo hi");
  ACCEPT("onbuild run echo hi");
  ACCEPT("ONBUILD RUN --mount=type=cache,target=/x echo hi");
  ACCEPT("ONBUILD RUN <<EOF\necho\nEOF");
  ACCEPT("ONBUILD WORKDIR /app");
  ACCEPT("ONBUILD \\\n  RUN x");
  /* the trigger is the instruction; its keyword is reported */
  CHECK1("ONBUILD USER nobody");
  EXPECT_CLEAN();
  ck_assert_int_eq(boxlint_report_instruction(R, 0)->keyword, BOXLINT_KW_ONBUILD);
  ck_assert_int_eq(boxlint_report_instruction(R, 0)->trigger, BOXLINT_KW_USER);
}
END_TEST

/*==============================================================================================
 * missing-arguments / invalid-arguments (§7, §11)
 *============================================================================================*/

START_TEST(test_args_env_label) {
  CHECK1("ENV");
  EXPECT_COUNT(1);
  EXPECT("missing-arguments", 0, 1, 1, 1, 4, 0, 3, "ENV requires at least one argument", NULL);
  CHECK1("LABEL");
  EXPECT("missing-arguments", 0, 1, 1, 1, 6, 0, 5, "LABEL requires at least one argument", NULL);
  CHECK1("ENV a");
  EXPECT_COUNT(1);
  EXPECT("invalid-arguments", 0, 1, 5, 1, 6, 4, 5, "ENV must have two arguments", NULL);
  CHECK1("LABEL version");
  EXPECT("invalid-arguments", 0, 1, 7, 1, 14, 6, 13, "LABEL must have two arguments", NULL);
  CHECK1("ENV a=b c");
  EXPECT_COUNT(1);
  EXPECT("invalid-arguments", 0, 1, 9, 1, 10, 8, 9, "can't find = in \"c\"", "name=value");
  CHECK1("LABEL a=b c d=e");
  EXPECT("invalid-arguments", 0, 1, 11, 1, 12, 10, 11, "can't find = in \"c\"", NULL);
  CHECK1("ENV =b");
  EXPECT_COUNT(1);
  EXPECT("invalid-arguments", 0, 1, 5, 1, 7, 4, 6, "ENV names can not be blank", NULL);
  CHECK1("LABEL =b");
  EXPECT("invalid-arguments", 0, 1, 7, 1, 9, 6, 8, "LABEL names can not be blank", NULL);
  /* columns count code points */
  CHECK1("LABEL a=\"\xc3\xa9\" b");
  EXPECT("invalid-arguments", 0, 1, 13, 1, 14, 13, 14, "\"b\"", NULL);
}
END_TEST

START_TEST(test_args_env_label_ok) {
  ACCEPT("ENV a b");              /* old form NAME value */
  ACCEPT("ENV a b c");
  ACCEPT("ENV a=b");
  ACCEPT("ENV a=b c=d");
  ACCEPT("ENV a=\"b c\" d='e f'");
  ACCEPT("ENV a=b\\ c");
  ACCEPT("ENV a=");
  ACCEPT("LABEL \"com.example.vendor\"=\"ACME\"");
  ACCEPT("ENV PATH=/x:$PATH \\\n    LANG=C.UTF-8");
}
END_TEST

START_TEST(test_args_arg_expose_volume) {
  CHECK1("ARG");
  EXPECT_COUNT(1);
  EXPECT("missing-arguments", 0, 1, 1, 1, 4, 0, 3, "ARG requires at least one argument", NULL);
  CHECK1("ARG =b");
  EXPECT("invalid-arguments", 0, 1, 5, 1, 7, 4, 6, "ARG names can not be blank", NULL);
  ACCEPT("ARG a");
  ACCEPT("ARG a=b c");
  CHECK1("EXPOSE");
  EXPECT("missing-arguments", 0, 1, 1, 1, 7, 0, 6, "EXPOSE requires at least one argument", NULL);
  ACCEPT("EXPOSE 8888/tcp");
  CHECK1("VOLUME");
  EXPECT("missing-arguments", 0, 1, 1, 1, 7, 0, 6, "VOLUME requires at least one argument", NULL);
  CHECK1("VOLUME [\"\"]");
  EXPECT_COUNT(1);
  EXPECT("invalid-arguments", 0, 1, 8, 1, 12, 7, 11,
         "VOLUME specified can not be an empty string", NULL);
  CHECK1("VOLUME [\"/a\", \" \"]");
  EXPECT("invalid-arguments", 0, 1, 8, 1, 19, 7, 18, "empty string", NULL);
  ACCEPT("VOLUME [\"/data\"]");
  ACCEPT("VOLUME /a /b");
}
END_TEST

START_TEST(test_args_exactly_one) {
  static const struct { const char *in, *msg; uint32_t ec; } rows[] = {
      {"USER", "USER requires exactly one argument", 5},
      {"WORKDIR", "WORKDIR requires exactly one argument", 8},
      {"STOPSIGNAL", "STOPSIGNAL requires exactly one argument", 11},
      {"MAINTAINER", "MAINTAINER requires exactly one argument", 11},
      {"USER   ", "USER requires exactly one argument", 5}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    ck_assert_int_eq(run1(rows[i].in, strlen(rows[i].in), NULL), BOXLINT_OK);
    EXPECT_COUNT(1);
    EXPECT("missing-arguments", 0, 1, 1, 1, rows[i].ec, 0, rows[i].ec - 1, rows[i].msg, NULL);
  }
  /* "exactly one" only fires when the argument is missing (§11 notes) */
  ACCEPT("USER a b");
  ACCEPT("WORKDIR /a b");
  ACCEPT("STOPSIGNAL SIGTERM");
  ACCEPT("MAINTAINER John Doe <j@example.com>");
}
END_TEST

START_TEST(test_args_healthcheck) {
  CHECK1("HEALTHCHECK");
  EXPECT_COUNT(1);
  EXPECT("missing-arguments", 0, 1, 1, 1, 12, 0, 11, "HEALTHCHECK requires at least one argument",
         NULL);
  CHECK1("HEALTHCHECK NONE x");
  EXPECT_COUNT(1);
  EXPECT("invalid-arguments", 0, 1, 18, 1, 19, 17, 18, "HEALTHCHECK NONE takes no arguments", NULL);
  CHECK1("HEALTHCHECK CMD");
  EXPECT_COUNT(1);
  EXPECT("missing-arguments", 0, 1, 13, 1, 16, 12, 15, "Missing command after HEALTHCHECK CMD",
         NULL);
  CHECK1("HEALTHCHECK FOO x");
  EXPECT_COUNT(1);
  EXPECT("invalid-arguments", 0, 1, 13, 1, 16, 12, 15, "Unknown type \"FOO\" in HEALTHCHECK (try CMD)",
         NULL);
  CHECK1("HEALTHCHECK CMD [\"curl\", 1]");
  EXPECT_COUNT(1);
  EXPECT("invalid-arguments", 0, 1, 17, 1, 28, 16, 27, "strings only", NULL);
  ACCEPT("HEALTHCHECK NONE");
  ACCEPT("HEALTHCHECK none");
  ACCEPT("HEALTHCHECK CMD curl -f http://localhost:8888/ || exit 1");
  ACCEPT("HEALTHCHECK --interval=30s --timeout=3s --retries=3 CMD [\"curl\", \"-f\", \"x\"]");
}
END_TEST

START_TEST(test_args_shell) {
  CHECK1("SHELL");
  EXPECT_COUNT(1);
  EXPECT("missing-arguments", 0, 1, 1, 1, 6, 0, 5, "SHELL requires at least one argument", NULL);
  CHECK1("SHELL []");
  EXPECT("missing-arguments", 0, 1, 1, 1, 6, 0, 5, "SHELL requires at least one argument", NULL);
  CHECK1("SHELL /bin/bash -c");
  EXPECT_COUNT(1);
  EXPECT("invalid-arguments", 0, 1, 7, 1, 19, 6, 18, "SHELL requires the arguments to be in JSON form",
         "[\"/bin/bash\"");
  /* single quotes are not JSON (§7 fallback), so not JSON form */
  CHECK1("SHELL ['/bin/bash', '-c']");
  EXPECT("invalid-arguments", 0, 1, 7, 1, 26, 6, 25, "JSON form", NULL);
  ACCEPT("SHELL [\"/bin/bash\", \"-o\", \"pipefail\", \"-c\"]");
  ACCEPT("SHELL [ \"/bin/sh\" , \"-c\" ]  ");
}
END_TEST

/* A valid JSON array with a non-string element is a hard error (§7). */
START_TEST(test_args_json_nonstring) {
  CHECK1("RUN [\"echo\", 1]");
  EXPECT_COUNT(1);
  EXPECT("invalid-arguments", 0, 1, 5, 1, 16, 4, 15,
         "when using JSON array syntax, arrays must be comprised of strings only", "quote");
  CHECK1("RUN [null]");
  EXPECT("invalid-arguments", 0, 1, 5, 1, 11, 4, 10, "strings only", NULL);
  CHECK1("RUN [\"a\", [\"b\"]]");
  EXPECT("invalid-arguments", 0, 1, 5, 1, 17, 4, 16, "strings only", NULL);
  CHECK1("RUN [\"a\", {\"b\": 1}]");
  EXPECT("invalid-arguments", 0, 1, 5, 1, 20, 4, 19, "strings only", NULL);
  CHECK1("SHELL [\"/bin/sh\", true]");
  EXPECT_COUNT(1);
  EXPECT("invalid-arguments", 0, 1, 7, 1, 24, 6, 23, "strings only", NULL);
  CHECK1("VOLUME [1]");
  EXPECT_COUNT(1);
  EXPECT("invalid-arguments", 0, 1, 8, 1, 11, 7, 10, "strings only", NULL);
  CHECK1("ONBUILD RUN [false]");
  EXPECT("invalid-arguments", 0, 1, 13, 1, 20, 12, 19, "strings only", NULL);
  /* CMD is denied; whatever else is said, it is rejected */
  CHECK1("CMD [1]");
  EXPECT("denied-instruction", 0, 1, 1, 1, 4, 0, 3, NULL, NULL);
  /* not valid JSON: shell form, accepted (§7 fallback) */
  ACCEPT("RUN [\"echo\", 1] && true");
  ACCEPT("RUN ['echo', 1]");
  ACCEPT("RUN [\"echo\", 1");
  ACCEPT("RUN []");
  ACCEPT("RUN [\"echo\", \"\\u00e9\\n\"]");
  ACCEPT("RUN [1, 2] x");
}
END_TEST

/*==============================================================================================
 * invalid-flag (§8, §11)
 *============================================================================================*/

START_TEST(test_flag_unknown) {
  CHECK1("RUN --networ=host curl x");
  EXPECT_COUNT(1);
  EXPECT("invalid-flag", 0, 1, 5, 1, 18, 4, 17, "unknown flag: --networ", "did you mean --network?");
  CHECK1("RUN --mnt=type=cache,target=/x true");
  EXPECT("invalid-flag", 0, 1, 5, 1, 31, 4, 30, "unknown flag: --mnt", "--mount");
  CHECK1("HEALTHCHECK --intervl=5s CMD x");
  EXPECT("invalid-flag", 0, 1, 13, 1, 25, 12, 24, "unknown flag: --intervl", "--interval");
  CHECK1("RUN --privileged true");
  EXPECT("invalid-flag", 0, 1, 5, 1, 17, 4, 16, "unknown flag: --privileged", NULL);
  /* flags on instructions that take none (§8) */
  CHECK1("ENV --foo=bar a=b");
  EXPECT_COUNT(1);
  EXPECT("invalid-flag", 0, 1, 5, 1, 14, 4, 13, "unknown flag: --foo", NULL);
  CHECK1("WORKDIR --parents /app");
  EXPECT_COUNT(1);
  EXPECT("invalid-flag", 0, 1, 9, 1, 18, 8, 17, "unknown flag: --parents", NULL);
  CHECK1("USER --x root");
  EXPECT("invalid-flag", 0, 1, 6, 1, 9, 5, 8, "unknown flag: --x", NULL);
  /* flags on a continuation line are positioned there */
  CHECK1("RUN \\\n    --netwrk=none true");
  EXPECT("invalid-flag", 0, 2, 5, 2, 18, 10, 23, "--netwrk", NULL);
}
END_TEST

START_TEST(test_flag_values) {
  CHECK1("RUN --mount true");
  EXPECT_COUNT(1);
  EXPECT("invalid-flag", 0, 1, 5, 1, 12, 4, 11, "missing a value on flag: --mount", NULL);
  CHECK1("RUN --network true");
  EXPECT("invalid-flag", 0, 1, 5, 1, 14, 4, 13, "missing a value on flag: --network", NULL);
  CHECK1("RUN --network=bridge true");
  EXPECT_COUNT(1);
  EXPECT("invalid-flag", 0, 1, 5, 1, 21, 4, 20, "invalid network mode \"bridge\"", NULL);
  CHECK1("RUN --security=privileged true");
  EXPECT_COUNT(1);
  EXPECT("invalid-flag", 0, 1, 5, 1, 26, 4, 25, "security \"privileged\" is not valid", NULL);
  CHECK1("RUN --network=host --network=none true");
  EXPECT_COUNT(1);
  EXPECT("invalid-flag", 0, 1, 20, 1, 34, 19, 33, "duplicate flag specified: --network", NULL);
  CHECK1("HEALTHCHECK --timeout=3s --timeout=4s CMD x");
  EXPECT("invalid-flag", 0, 1, 26, 1, 38, 25, 37, "duplicate flag specified: --timeout", NULL);
  /* bad --mount type and key */
  CHECK1("RUN --mount=type=volume,target=/x true");
  EXPECT_COUNT(1);
  EXPECT("invalid-flag", 0, 1, 5, 1, 34, 4, 33, "volume", "bind");
  CHECK1("RUN --mount=type=cache,targte=/x true");
  EXPECT_COUNT(1);
  EXPECT("invalid-flag", 0, 1, 5, 1, 33, 4, 32, "targte", NULL);
  /* HEALTHCHECK limits (§11) */
  CHECK1("HEALTHCHECK --interval=1ns CMD true");
  EXPECT_COUNT(1);
  EXPECT("invalid-flag", 0, 1, 13, 1, 27, 12, 26, "Interval \"interval\" cannot be less than 1ms",
         NULL);
  CHECK1("HEALTHCHECK --retries=-1 CMD true");
  EXPECT_COUNT(1);
  EXPECT("invalid-flag", 0, 1, 13, 1, 25, 12, 24, "--retries cannot be negative (-1)", NULL);
  /* flags of an ONBUILD trigger are checked at their position */
  CHECK1("ONBUILD RUN --network=bad x");
  EXPECT("invalid-flag", 0, 1, 13, 1, 26, 12, 25, "invalid network mode \"bad\"", NULL);
}
END_TEST

START_TEST(test_flag_close_cases) {
  ACCEPT("RUN --network=none true");
  ACCEPT("RUN --network=host true");
  ACCEPT("RUN --network=default true");
  ACCEPT("RUN --security=sandbox true");
  ACCEPT("RUN --security=insecure true");
  ACCEPT("RUN --mount=type=cache,target=/root/.cache --mount=type=tmpfs,target=/tmp pip install x");
  ACCEPT("RUN --mount=type=secret,id=tok,required cat /run/secrets/tok");
  ACCEPT("RUN --mount=type=bind,source=/a,target=/b,ro true");
  ACCEPT("RUN --device=/dev/fuse --device=/dev/kvm true");
  ACCEPT("RUN -- --network=bad true");   /* a bare -- ends the flags (§8) */
  ACCEPT("RUN -x --network=bad");       /* -x is not a flag: the flags ended */
  ACCEPT("RUN echo --network=bad");
  ACCEPT("HEALTHCHECK --interval=1ms --retries=0 CMD true");
  ACCEPT("HEALTHCHECK --interval=0s --start-period=5m --start-interval=2s CMD true");
  ACCEPT("ENV a=--foo");
}
END_TEST

/*==============================================================================================
 * Every problem at once, positions, the instruction list
 *============================================================================================*/

START_TEST(test_every_problem_at_once) {
  boxlint_span c[] = {
      S("RUN apt-get update"),           /* 0: fine */
      S("FROM x\nRUN y"),                /* 1: denied + multiple-instructions */
      S("RUNN a \\"),                    /* 2: unknown + dangling */
      S("ENV"),                          /* 3: missing-arguments */
      S("RUN --network=bad <<EOF\nx"),   /* 4: invalid-flag + unterminated */
      S(""),                             /* 5: empty */
      S("RUN ok"),                       /* 6: fine */
  };
  ck_assert_int_eq(run_spans(c, 7, NULL), BOXLINT_OK);
  static const struct { int32_t cmd; const char *rule; } want[] = {
      {1, "denied-instruction"}, {1, "multiple-instructions"}, {2, "unknown-instruction"},
      {2, "dangling-continuation"}, {3, "missing-arguments"}, {4, "invalid-flag"},
      {4, "unterminated-heredoc"}, {5, "empty-command"}};
  EXPECT_COUNT(sizeof want / sizeof want[0]);
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const boxlint_diag *d = error_at(i);
    ck_assert_int_eq(d->command, want[i].cmd);
    ck_assert_str_eq(d->rule, want[i].rule);
  }
  /* positions are relative to each command */
  EXPECT("multiple-instructions", 1, 2, 1, 2, 6, 7, 12, "RUN", NULL);
  EXPECT("dangling-continuation", 2, 1, 8, 1, 9, 7, 8, NULL, NULL);
  EXPECT("unterminated-heredoc", 4, 1, 19, 1, 21, 18, 20, NULL, NULL);
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 7);
  ck_assert_uint_ge(boxlint_report_count_at_least(R, BOXLINT_SEVERITY_WARNING), 8);
}
END_TEST

/* Diagnostics are sorted by command, then by position, whatever order the checks run in. */
START_TEST(test_sorted_by_command_then_position) {
  boxlint_span c[] = {S("RUN --network=bad \x01 x\nFROM y"), S("\xc2\xa0" "ENV"),
                      S("ONBUILD ONBUILD \xff")};
  ck_assert_int_eq(run_spans(c, 3, NULL), BOXLINT_OK);
  size_t n = boxlint_report_diag_count(R);
  ck_assert_uint_ge(n, 6);
  for (size_t i = 1; i < n; i++) {
    const boxlint_diag *a = boxlint_report_diag(R, i - 1), *b = boxlint_report_diag(R, i);
    ck_assert_int_le(a->command, b->command);
    if (a->command == b->command) ck_assert_uint_le(a->offset, b->offset);
  }
  EXPECT("invalid-flag", 0, 1, 5, 1, 18, 4, 17, NULL, NULL);
  EXPECT("control-character", 0, 1, 19, 1, 20, 18, 19, NULL, NULL);
  EXPECT("multiple-instructions", 0, 2, 1, 2, 7, 22, 28, "FROM", NULL);
  EXPECT("non-ascii-syntax", 1, 1, 1, 1, 2, 0, 2, NULL, NULL);
  EXPECT("missing-arguments", 1, 1, 2, 1, 5, 2, 5, NULL, NULL);
  EXPECT("invalid-utf8", 2, 1, 17, 1, 18, 16, 17, NULL, NULL);
  EXPECT("invalid-onbuild", 2, 1, 9, 1, 16, 8, 15, NULL, NULL);
}
END_TEST

START_TEST(test_instruction_list) {
  boxlint_span c[] = {
      S("RUN --mount=type=cache,target=/root/.cache --network=none pip install x"),
      S("  ENV A=1 \\\n    B=2"),
      S("RUN <<EOF cat - <<-'END'\necho \"$A\"\nEOF\n\tbody\n\tEND\n"),
      S("ONBUILD RUN echo hi"),
      S("SHELL [\"/bin/bash\", \"-c\"]"),
      S("RUN --mount=\"type=cache,target=/a b\" ls"),
      S("pip install x"),
  };
  ck_assert_int_eq(run_spans(c, 7, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 7);
  ck_assert_ptr_null(boxlint_report_instruction(R, 7));

  const boxlint_instruction *in = boxlint_report_instruction(R, 0);
  ck_assert_int_eq(in->keyword, BOXLINT_KW_RUN);
  ck_assert_int_eq(in->trigger, BOXLINT_KW_NONE);
  ck_assert_uint_eq(in->keyword_text.len, 3);
  ck_assert(memcmp(in->keyword_text.ptr, "RUN", 3) == 0);
  ck_assert_uint_eq(in->nflags, 2);
  ck_assert_uint_eq(in->flags[0].len, strlen("--mount=type=cache,target=/root/.cache"));
  ck_assert(memcmp(in->flags[0].ptr, "--mount=type=cache,target=/root/.cache", in->flags[0].len) == 0);
  ck_assert(memcmp(in->flags[1].ptr, "--network=none", in->flags[1].len) == 0);
  ck_assert_uint_eq(in->args.len, strlen("pip install x"));
  ck_assert(memcmp(in->args.ptr, "pip install x", in->args.len) == 0);
  ck_assert_int_eq(in->json, 0);
  ck_assert_uint_eq(in->line, 1);
  ck_assert_uint_eq(in->end_line, 1);
  ck_assert_uint_eq(in->nheredocs, 0);
  ck_assert_ptr_eq(in->text.ptr, c[0].ptr);
  ck_assert_uint_eq(in->text.len, c[0].len);
  ck_assert_uint_eq(in->offset, 0);
  ck_assert_uint_eq(in->end_offset, c[0].len);

  in = boxlint_report_instruction(R, 1);
  ck_assert_int_eq(in->keyword, BOXLINT_KW_ENV);
  ck_assert_uint_eq(in->line, 1);
  ck_assert_uint_eq(in->end_line, 2);
  /* continuation lines keep their leading white space (§2, §4 joining) */
  ck_assert_uint_eq(in->logical.len, strlen("ENV A=1     B=2"));
  ck_assert(memcmp(in->logical.ptr, "ENV A=1     B=2", in->logical.len) == 0);
  ck_assert(memcmp(in->args.ptr, "A=1     B=2", in->args.len) == 0);

  in = boxlint_report_instruction(R, 2);
  ck_assert_int_eq(in->keyword, BOXLINT_KW_RUN);
  ck_assert_uint_eq(in->line, 1);
  ck_assert_uint_eq(in->end_line, 5);
  ck_assert_uint_eq(in->nheredocs, 2);
  const boxlint_heredoc *h = &in->heredocs[0];
  ck_assert(h->name.len == 3 && memcmp(h->name.ptr, "EOF", 3) == 0);
  ck_assert_int_eq(h->chomp, 0);
  ck_assert_int_eq(h->expand, 1);
  ck_assert_uint_eq(h->body.len, strlen("echo \"$A\"\n"));
  ck_assert(memcmp(h->body.ptr, "echo \"$A\"\n", h->body.len) == 0);
  ck_assert_ptr_eq(h->body.ptr, c[2].ptr + strlen("RUN <<EOF cat - <<-'END'\n")); /* input */
  ck_assert_uint_eq(h->line, 2);
  ck_assert_uint_eq(h->end_line, 3);
  h = &in->heredocs[1];
  ck_assert(h->name.len == 3 && memcmp(h->name.ptr, "END", 3) == 0);
  ck_assert_int_eq(h->chomp, 1);
  ck_assert_int_eq(h->expand, 0);
  ck_assert_uint_eq(h->body.len, strlen("\tbody\n"));
  ck_assert(memcmp(h->body.ptr, "\tbody\n", h->body.len) == 0);
  ck_assert_uint_eq(h->line, 4);
  ck_assert_uint_eq(h->end_line, 5);

  in = boxlint_report_instruction(R, 3);
  ck_assert_int_eq(in->keyword, BOXLINT_KW_ONBUILD);
  ck_assert_int_eq(in->trigger, BOXLINT_KW_RUN);

  in = boxlint_report_instruction(R, 4);
  ck_assert_int_eq(in->keyword, BOXLINT_KW_SHELL);
  ck_assert_int_eq(in->json, 1);

  /* flags are unquoted as BuildKit does (§8) */
  in = boxlint_report_instruction(R, 5);
  ck_assert_uint_eq(in->nflags, 1);
  ck_assert_uint_eq(in->flags[0].len, strlen("--mount=type=cache,target=/a b"));
  ck_assert(memcmp(in->flags[0].ptr, "--mount=type=cache,target=/a b", in->flags[0].len) == 0);
  ck_assert(memcmp(in->args.ptr, "ls", in->args.len) == 0);

  /* unknown keywords are listed as NONE, with their text */
  in = boxlint_report_instruction(R, 6);
  ck_assert_int_eq(in->keyword, BOXLINT_KW_NONE);
  ck_assert(in->keyword_text.len == 3 && memcmp(in->keyword_text.ptr, "pip", 3) == 0);

  ck_assert_str_eq(boxlint_keyword_name(BOXLINT_KW_WORKDIR), "WORKDIR");
  ck_assert_str_eq(boxlint_keyword_name(BOXLINT_KW_NONE), "");
}
END_TEST

/*==============================================================================================
 * The report, options and arguments
 *============================================================================================*/

START_TEST(test_report_reuse) {
  boxlint_span bad[] = {S("FROM x"), S("RUNN y")};
  boxlint_span good[] = {S("RUN a")};
  ck_assert_int_eq(boxlint_check_commands(R, bad, 2, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 2);
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 2);
  /* a second call appends diagnostics and replaces the instruction list */
  ck_assert_int_eq(boxlint_check_commands(R, bad, 2, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 4);
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 2);
  boxlint_report_clear(R);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 0);
  ck_assert_ptr_null(boxlint_report_diag(R, 0));
  ck_assert_ptr_null(boxlint_report_instruction(R, 0));
  ck_assert_int_eq(boxlint_check_commands(R, good, 1, NULL), BOXLINT_OK);
  EXPECT_CLEAN();
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 1);
  /* many rounds on one report give the same answer as a fresh report */
  for (int round = 0; round < 50; round++) {
    boxlint_report_clear(R);
    ck_assert_int_eq(boxlint_check_commands(R, bad, 2, NULL), BOXLINT_OK);
    EXPECT_COUNT(2);
    EXPECT("denied-instruction", 0, 1, 1, 1, 5, 0, 4, "FROM", NULL);
    EXPECT("unknown-instruction", 1, 1, 1, 1, 5, 0, 4, "RUNN", "RUN");
  }
  /* zero commands */
  boxlint_report_clear(R);
  ck_assert_int_eq(boxlint_check_commands(R, NULL, 0, NULL), BOXLINT_OK);
  EXPECT_CLEAN();
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 0);
}
END_TEST

START_TEST(test_invalid_arguments_einval) {
  boxlint_span c[] = {S("RUN a")};
  ck_assert_int_eq(boxlint_check_commands(NULL, c, 1, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_check_commands(R, NULL, 1, NULL), BOXLINT_EINVAL);
  boxlint_options o = opts_default();
  o.escape = 'x';
  ck_assert_int_eq(boxlint_check_commands(R, c, 1, &o), BOXLINT_EINVAL);
  o = opts_default();
  o.escape = 0;
  ck_assert_int_eq(boxlint_check_commands(R, c, 1, &o), BOXLINT_EINVAL);
  o = opts_default();
  o.size = 0; /* not initialised */
  ck_assert_int_eq(boxlint_check_commands(R, c, 1, &o), BOXLINT_EINVAL);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
  ck_assert_int_eq(boxlint_report_new(NULL, NULL), BOXLINT_EINVAL);
  /* NULL is tolerated where documented */
  boxlint_report_free(NULL);
  boxlint_report_clear(NULL);
  boxlint_options_init(NULL);
  ck_assert_uint_eq(boxlint_report_diag_count(NULL), 0);
  ck_assert_uint_eq(boxlint_report_instruction_count(NULL), 0);
  ck_assert_ptr_null(boxlint_report_diag(NULL, 0));
  ck_assert_ptr_null(boxlint_report_instruction(NULL, 0));
  ck_assert_uint_eq(boxlint_report_count_at_least(NULL, BOXLINT_SEVERITY_INFO), 0);
  /* defaults */
  o = opts_default();
  ck_assert_uint_eq(o.size, sizeof o);
  ck_assert_uint_eq(o.max_commands, 64);
  ck_assert_uint_eq(o.max_command_bytes, 4096);
  ck_assert_int_eq(o.escape, '\\');
  ck_assert_str_eq(boxlint_status_str(BOXLINT_ENOMEM), "BOXLINT_ENOMEM");
  ck_assert_str_eq(boxlint_severity_str(BOXLINT_SEVERITY_ERROR), "error");
}
END_TEST

/* Every rule id of §2.1 is in the rule table as an error, with texts. */
START_TEST(test_rule_table) {
  static const char *const ids[] = {
      "denied-instruction", "unknown-instruction", "empty-command", "too-many-commands",
      "command-too-long", "nul-byte", "bare-cr", "control-character", "invalid-utf8",
      "non-ascii-syntax", "multiple-instructions", "dangling-continuation",
      "unterminated-heredoc", "ambiguous-heredoc", "invalid-onbuild", "missing-arguments",
      "invalid-arguments", "invalid-flag"};
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    const boxlint_rule_info *ri = boxlint_rule_find(ids[i], strlen(ids[i]));
    ck_assert_msg(ri != NULL, "rule %s missing", ids[i]);
    ck_assert_str_eq(ri->id, ids[i]);
    ck_assert_int_eq(ri->severity, BOXLINT_SEVERITY_ERROR);
    ck_assert(ri->summary && *ri->summary && ri->description && *ri->description);
  }
  ck_assert_ptr_null(boxlint_rule_find("no-such-rule", 12));
  ck_assert_ptr_null(boxlint_rule_find("denied-instruction", 6)); /* a prefix is not a match */
  size_t n = 0;
  ck_assert_ptr_nonnull(boxlint_rules(&n));
  ck_assert_uint_ge(n, sizeof ids / sizeof ids[0]);
}
END_TEST

/* The rule table says which rules a config may set (lib/src/report/rules.def): every error is
 * fixed (set_severity refuses it, get_severity gives the caller's default), every warning and
 * info may be set and switched off. */
START_TEST(test_rule_table_configurable) {
  boxlint_config *c = NULL;
  ck_assert_int_eq(boxlint_config_new(&c, NULL), BOXLINT_OK);
  size_t n = 0, errors = 0, others = 0;
  const boxlint_rule_info *all = boxlint_rules(&n);
  for (size_t i = 0; i < n; i++) {
    const char *id = all[i].id;
    size_t len = strlen(id);
    if (all[i].severity == BOXLINT_SEVERITY_ERROR) {
      errors++;
      ck_assert_msg(boxlint_config_set_severity(c, id, len, BOXLINT_SEVERITY_OFF, NULL) ==
                        BOXLINT_EINVAL, "error %s must not be settable", id);
      ck_assert_int_eq(boxlint_config_get_severity(c, id, len, BOXLINT_SEVERITY_INFO),
                       BOXLINT_SEVERITY_INFO);
    } else {
      others++;
      ck_assert_int_eq(boxlint_config_get_severity(c, id, len, BOXLINT_SEVERITY_ERROR),
                       all[i].severity); /* a fresh config holds the default */
      ck_assert_msg(boxlint_config_set_severity(c, id, len, BOXLINT_SEVERITY_OFF, NULL) == BOXLINT_OK,
                    "%s must be settable", id);
      ck_assert_int_eq(boxlint_config_get_severity(c, id, len, BOXLINT_SEVERITY_ERROR),
                       BOXLINT_SEVERITY_OFF);
    }
    ck_assert_ptr_eq(boxlint_rule_find(id, len), &all[i]); /* ids are unique */
  }
  ck_assert_uint_gt(errors, 0);
  ck_assert_uint_gt(others, 0);
  boxlint_config_free(c);
}
END_TEST

/* boxlint_keyword_denied is the one list of denied-instruction's keywords: for each of the 18
 * keywords the rule fires exactly when it says so. */
START_TEST(test_keyword_denied) {
  int denied = 0;
  ck_assert_int_eq(boxlint_keyword_denied(BOXLINT_KW_NONE), 0);
  for (int k = BOXLINT_KW_ADD; k <= BOXLINT_KW_WORKDIR; k++) {
    const char *name = boxlint_keyword_name((boxlint_keyword)k);
    char cmd[64];
    int len = snprintf(cmd, sizeof cmd, "%s x", name);
    ck_assert_int_eq(run1(cmd, (size_t)len, NULL), BOXLINT_OK);
    int fired = 0;
    for (size_t i = 0; i < boxlint_report_diag_count(R); i++)
      fired |= !strcmp(boxlint_report_diag(R, i)->rule, "denied-instruction");
    int d = boxlint_keyword_denied((boxlint_keyword)k);
    ck_assert_msg(d == fired, "%s: denied %d, rule fired %d", name, d, fired);
    denied += d;
  }
  ck_assert_int_eq(denied, 5);
  ck_assert_int_eq(boxlint_keyword_denied(BOXLINT_KW_FROM), 1);
  ck_assert_int_eq(boxlint_keyword_denied(BOXLINT_KW_ENTRYPOINT), 1);
  ck_assert_int_eq(boxlint_keyword_denied(BOXLINT_KW_RUN), 0);
  ck_assert_int_eq(boxlint_keyword_denied((boxlint_keyword)99), 0);
}
END_TEST

/* diag.h: boxlint_nearest_word, Levenshtein over bytes with unit costs, ASCII case-blind, the
 * earlier word on a tie, NULL and over-long words skipped. */
START_TEST(test_nearest_word) {
  static const char *const w[] = {"type", "allow_out", "deny_out"};
  size_t d = 0;
  ck_assert_uint_eq(boxlint_nearest_word("allow_ot", 8, w, 3, &d), 1);
  ck_assert_uint_eq(d, 1);
  ck_assert_uint_eq(boxlint_nearest_word("TYPE", 4, w, 3, &d), 0); /* case-blind: exact */
  ck_assert_uint_eq(d, 0);
  ck_assert_uint_eq(boxlint_nearest_word("deny", 4, w, 3, &d), 0); /* type and deny_out: 4 */
  ck_assert_uint_eq(d, 4);
  ck_assert_uint_eq(boxlint_nearest_word("deny_ou", 7, w, 3, &d), 2);
  ck_assert_uint_eq(d, 1);
  ck_assert_uint_eq(boxlint_nearest_word("tpye", 4, w, 3, &d), 0); /* a swap is two edits */
  ck_assert_uint_eq(d, 2);
  /* Over bytes: U+00FC is two bytes, so "typ\xc3\xbc" is one substitution and one insertion. */
  ck_assert_uint_eq(boxlint_nearest_word("typ\xc3\xbc", 5, w, 3, &d), 0);
  ck_assert_uint_eq(d, 2);
  static const char *const tie[] = {"ab", "ba", "ac"};
  ck_assert_uint_eq(boxlint_nearest_word("aa", 2, tie, 3, &d), 0); /* ab and ba and ac: 1 */
  ck_assert_uint_eq(d, 1);
  ck_assert_uint_eq(boxlint_nearest_word("zz", 2, tie + 1, 2, &d), 0); /* relative index */
  ck_assert_uint_eq(d, 2);
  /* The text holds no NUL terminator of its own: only `len` bytes count. */
  ck_assert_uint_eq(boxlint_nearest_word("typeXYZ", 4, w, 3, &d), 0);
  ck_assert_uint_eq(d, 0);
  ck_assert_uint_eq(boxlint_nearest_word(NULL, 0, w, 3, &d), 0); /* "" : 4 insertions */
  ck_assert_uint_eq(d, 4);
  /* No candidate: n, and SIZE_MAX. */
  ck_assert_uint_eq(boxlint_nearest_word("type", 4, w, 0, &d), 0);
  ck_assert_uint_eq(d, SIZE_MAX);
  ck_assert_uint_eq(boxlint_nearest_word("type", 4, NULL, 0, NULL), 0);
  static const char *const holes[] = {NULL, "deny_out", NULL};
  ck_assert_uint_eq(boxlint_nearest_word("type", 4, holes, 3, &d), 1);
  ck_assert_uint_eq(d, 7);
  char longw[300];
  memset(longw, 'a', sizeof longw - 1);
  longw[sizeof longw - 1] = 0;
  const char *const lw[] = {longw, "b"};
  ck_assert_uint_eq(boxlint_nearest_word(longw, 299, lw, 2, &d), 1); /* over 255 bytes: skipped */
  ck_assert_uint_eq(d, 299);
  ck_assert_uint_eq(boxlint_nearest_word(longw, 299, lw, 1, &d), 1); /* none: n */
  ck_assert_uint_eq(d, SIZE_MAX);
  longw[255] = 0;
  ck_assert_uint_eq(boxlint_nearest_word(longw, 255, lw, 2, &d), 0); /* 255 bytes: a word */
  ck_assert_uint_eq(d, 0);
}
END_TEST

/*==============================================================================================
 * Inputs right before an unreadable page: one-byte over-reads crash
 *============================================================================================*/

START_TEST(test_guard_page_inputs) {
  guarded g;
  GUARD1("RUN a \\", g);
  EXPECT("dangling-continuation", 0, 1, 7, 1, 8, 6, 7, NULL, NULL);
  unguard(&g);
  GUARD1("RUN <<EOF\nx\nEO", g);
  EXPECT("unterminated-heredoc", 0, 1, 5, 1, 7, 4, 6, NULL, NULL);
  unguard(&g);
  GUARD1("RUN <<EOF\nx\nEOF", g);
  EXPECT_CLEAN();
  unguard(&g);
  GUARD1("RUN echo \xe2\x82", g);
  EXPECT("invalid-utf8", 0, 1, 10, 1, 11, 9, 10, NULL, NULL);
  unguard(&g);
  GUARD1("RUN --network", g);
  EXPECT("invalid-flag", 0, 1, 5, 1, 14, 4, 13, "missing a value", NULL);
  unguard(&g);
  GUARD1("ENV a", g);
  EXPECT("invalid-arguments", 0, 1, 5, 1, 6, 4, 5, NULL, NULL);
  unguard(&g);
  GUARD1("RUN [\"a\", 1", g);
  EXPECT_CLEAN();
  unguard(&g);
  GUARD1("RUN [\"a\\u00", g);
  EXPECT_CLEAN();
  unguard(&g);
  GUARD1("RUN --mount=type=cache,target=/x\xc3", g);
  EXPECT("invalid-utf8", 0, 1, 33, 1, 34, 32, 33, NULL, NULL);
  unguard(&g);
  GUARD1("HEALTHCHECK --interval=1", g);
  EXPECT("invalid-flag", 0, 1, 13, 1, 25, 12, 24, NULL, NULL);
  unguard(&g);
  GUARD1("RUN echo ${x", g);
  EXPECT_CLEAN();
  unguard(&g);
  GUARD1("RUN cat <<'EOF", g);
  EXPECT_CLEAN(); /* unterminated quote: lexer error, no heredoc (§6) */
  unguard(&g);
  GUARD1("ONBUILD RUN <<E\\", g);
  unguard(&g);
  GUARD1("\xef\xbb", g);
  EXPECT("invalid-utf8", 0, 1, 1, 1, 2, 0, 1, NULL, NULL);
  unguard(&g);
  GUARD1("ENTRYPO\xc4", g);
  unguard(&g);
  GUARD1("LABEL a=\"b\\", g);
  unguard(&g);
  /* an empty command at the page end */
  g = guard("", 0);
  ck_assert_int_eq(run1(g.p, 0, NULL), BOXLINT_OK);
  EXPECT("empty-command", 0, 1, 1, 1, 1, 0, 0, NULL, NULL);
  unguard(&g);
}
END_TEST

/*==============================================================================================
 * Out of memory
 *============================================================================================*/

static const boxlint_span OOM_CMDS[] = {
    SP("RUN --mount=type=cache,target=/root/.cache --network=none pip install x"),
    SP("FROM x\nRUN y"),
    SP("RUNN a \\"),
    SP("ENV a=b c"),
    SP("RUN --network=bad <<EOF cat - <<-'END'\nx\nEOF\n\tEND\n"),
    SP("ONBUILD COPY . /"),
    SP(""),
    SP("\xc2\xa0RUN \x01\xff\r x"),
    SP("HEALTHCHECK --interval=1ns --retries=-1 CMD [\"a\", 1]"),
    SP("VOLUME [\"\"]"),
    SP("RUN echo $\xc3\xa9 <<EOF\nx\nEOF"),
    SP("pip install numpy pandas"),
    SP("SHELL /bin/sh"),
};

static boxlint_status oom_round(failer *f, size_t ncmds) {
  boxlint_alloc a = failer_alloc(f);
  boxlint_report *r = NULL;
  boxlint_status st = boxlint_report_new(&r, &a);
  if (st != BOXLINT_OK) {
    ck_assert_int_eq(st, BOXLINT_ENOMEM);
    ck_assert_ptr_null(r);
    return st;
  }
  st = boxlint_check_commands(r, OOM_CMDS, ncmds, NULL);
  ck_assert_msg(st == BOXLINT_OK || st == BOXLINT_ENOMEM, "status %d", (int)st);
  /* whatever is in the report is readable */
  for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
    const boxlint_diag *d = boxlint_report_diag(r, i);
    ck_assert_ptr_nonnull(d->rule);
    ck_assert_ptr_nonnull(d->message);
    (void)strlen(d->message);
  }
  if (st == BOXLINT_OK) {
    /* a success must be the complete answer */
    boxlint_report_clear(R);
    ck_assert_int_eq(boxlint_check_commands(R, OOM_CMDS, ncmds, NULL), BOXLINT_OK);
    ck_assert_uint_eq(boxlint_report_diag_count(r), boxlint_report_diag_count(R));
    for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
      ck_assert_str_eq(boxlint_report_diag(r, i)->rule, boxlint_report_diag(R, i)->rule);
      ck_assert_str_eq(boxlint_report_diag(r, i)->message, boxlint_report_diag(R, i)->message);
    }
    ck_assert_uint_eq(boxlint_report_instruction_count(r), ncmds);
  }
  boxlint_report_free(r);
  ck_assert_int_eq(f->live, 0); /* nothing leaks, by the allocator's own count */
  return st;
}

START_TEST(test_oom_fail_after_n) {
  size_t ncmds = sizeof OOM_CMDS / sizeof OOM_CMDS[0];
  long n = 0;
  for (;; n++) {
    ck_assert_msg(n < 100000, "no success after %ld allocations", n);
    failer f = {.left = n};
    boxlint_status st = oom_round(&f, ncmds);
    if (st == BOXLINT_OK) {
      ck_assert_int_eq(f.failed, 0);
      break;
    }
    ck_assert_int_eq(f.failed, 1);
  }
  ck_assert_int_gt(n, 2); /* the loop went through the interesting part */
}
END_TEST

/* Fail one allocation only: a refused allocation must never be swallowed into a wrong OK. */
START_TEST(test_oom_fail_once) {
  size_t ncmds = sizeof OOM_CMDS / sizeof OOM_CMDS[0];
  for (long n = 0;; n++) {
    ck_assert_msg(n < 100000, "runaway");
    failer f = {.left = n, .once = 1};
    boxlint_status st = oom_round(&f, ncmds);
    if (!f.failed) {
      ck_assert_int_eq(st, BOXLINT_OK);
      break;
    }
    ck_assert_msg(st == BOXLINT_ENOMEM, "allocation %ld failed but the call returned %d", n,
                  (int)st);
  }
}
END_TEST

/* diag.h: "a warm report checks commands without allocating except for new diagnostics". */
START_TEST(bug_warm_report_allocates) {
  failer f = {.left = 1 << 30};
  boxlint_alloc a = failer_alloc(&f);
  ck_assert_int_eq(boxlint_report_new(&R2, &a), BOXLINT_OK);
  boxlint_report *r = R2;
  boxlint_span c[] = {S("RUN apt-get update && apt-get install -y curl"), S("ENV A=1"),
                      S("WORKDIR /app")};
  ck_assert_int_eq(boxlint_check_commands(r, c, 3, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(r), 0);
  boxlint_report_clear(r);
  long before = f.calls;
  ck_assert_int_eq(boxlint_check_commands(r, c, 3, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(r), 0);
  ck_assert_uint_eq(boxlint_report_instruction_count(r), 3);
  ck_assert_msg(f.calls == before, "a warm report allocated %ld times", f.calls - before);
  boxlint_report_free(r);
  R2 = NULL;
  ck_assert_int_eq(f.live, 0);
}
END_TEST

/*==============================================================================================
 * Regressions: bugs found in review, fixed
 *============================================================================================*/

/* docs/design.md §2.1 non-ascii-syntax covers the leading white space of an ONBUILD trigger; §10:
 * `ONBUILD \u00a0COPY . /` has trigger COPY because the trigger is TrimSpace'd. */
START_TEST(test_nonascii_before_onbuild_trigger) {
  CHECK1("ONBUILD \xc2\xa0RUN x");
  EXPECT("non-ascii-syntax", 0, 1, 9, 1, 10, 8, 10, "ONBUILD trigger", NULL);
  CHECK1("ONBUILD \xe3\x80\x80RUN x");
  EXPECT("non-ascii-syntax", 0, 1, 9, 1, 10, 8, 11, NULL, NULL);
  CHECK1("ONBUILD \xc2\xa0" "COPY . /");
  EXPECT("non-ascii-syntax", 0, 1, 9, 1, 10, 8, 10, NULL, NULL);
  EXPECT("denied-instruction", 0, 1, 10, 1, 14, 10, 14, "ONBUILD COPY", NULL);
  ACCEPT("ONBUILD  \t RUN x");
}
END_TEST

/* §9: the "did you mean" distance is Levenshtein on runes; `\u200bFROM` -> FROM. boxlint
 * measures bytes, so a zero-width space (3 bytes) pushes FROM out of reach and the hint says
 * "did you forget RUN?" with a fix that inserts `RUN ` before an invisible-character keyword. */
START_TEST(bug_suggestion_distance_in_runes) {
  CHECK1("\xe2\x80\x8b" "FROM x");
  EXPECT("unknown-instruction", 0, 1, 1, 1, 6, 0, 7, NULL, "did you mean FROM?");
  CHECK1("R\xc3\xbcN x"); /* RüN: one substitution from RUN */
  EXPECT("unknown-instruction", 0, 1, 1, 1, 4, 0, 4, NULL, "did you mean RUN?");
}
END_TEST

/* §8 and BuildKit's commands_runnetwork.go / commands_runsecurity.go: the allowed values are
 * looked up in a map, case-sensitively. `--network=HOST` fails the build with
 * `invalid network mode "HOST"`; boxlint compares case-insensitively and accepts it. */
START_TEST(bug_network_security_case_sensitive) {
  CHECK1("RUN --network=HOST true");
  EXPECT("invalid-flag", 0, 1, 5, 1, 19, 4, 18, "invalid network mode \"HOST\"", NULL);
  CHECK1("RUN --security=Insecure true");
  EXPECT("invalid-flag", 0, 1, 5, 1, 24, 4, 23, "security \"Insecure\" is not valid", NULL);
}
END_TEST

/* diag.h: "columns count Unicode code points (invalid bytes count one each)". A stray
 * continuation byte (0x80-0xBF) is not counted, so it has no width and shifts later columns. */
START_TEST(bug_invalid_byte_columns) {
  CHECK1("RUN echo \x80");
  EXPECT("invalid-utf8", 0, 1, 10, 1, 11, 9, 10, "0x80", NULL);
  CHECK1("LABEL a=\x80\x80 b");
  EXPECT("invalid-arguments", 0, 1, 12, 1, 13, 11, 12, "\"b\"", NULL);
  CHECK1("LABEL a=\xe2\x82 b"); /* truncated sequence: two invalid bytes, two columns */
  EXPECT("invalid-arguments", 0, 1, 12, 1, 13, 11, 12, "\"b\"", NULL);
}
END_TEST

/* docs/design.md §2.5 end position: a non-ASCII flag's span runs to the start of the arguments,
 * taking in the blank between the last flag and the arguments. */
START_TEST(bug_flag_span_end) {
  CHECK1("RUN --mount=type=cache,target=/x\xc3\xa0--network=host true");
  EXPECT("non-ascii-syntax", 0, 1, 33, 1, 48, 32, 48, "flags", NULL);
  CHECK1("RUN --mount=type=cache,target=/\xc3\xa9 true");
  EXPECT("non-ascii-syntax", 0, 1, 32, 1, 33, 31, 33, "flags", NULL);
}
END_TEST

/* BuildKit (I/parse.go parseHealthcheck / parseOptInterval) skips empty values:
 * `if s == "" { return 0, nil }` and `if flRetries.Value != "" {...}`. So `--interval=` and
 * `--retries=` are accepted (the flags have a value, an empty one: §8 bflag), but boxlint reports
 * `time: invalid duration ""` and `invalid value for --retries`. */
START_TEST(bug_healthcheck_empty_values) {
  ACCEPT("HEALTHCHECK --interval= --timeout= --start-period= --start-interval= CMD true");
  ACCEPT("HEALTHCHECK --retries= CMD true");
}
END_TEST

/*==============================================================================================*/

/* BuildKit's scanner rejects a physical line of 64 KiB or more; with the command limit raised,
 * boxlint still reports it (rule command-too-long, at the line), and not a line of 65535. */
START_TEST(test_rules_line_64k) {
  static char buf[70010];
  boxlint_options o;
  boxlint_options_init(&o);
  o.max_command_bytes = 0; /* no command limit: only the line limit applies */
  for (size_t len = 65535; len <= 65536; len++) {
    memcpy(buf, "RUN echo ", 9);
    memset(buf + 9, 'a', len - 9);
    boxlint_span sp = {buf, len};
    boxlint_report *r;
    ck_assert_int_eq(boxlint_report_new(&r, NULL), BOXLINT_OK);
    ck_assert_int_eq(boxlint_check_commands(r, &sp, 1, &o), BOXLINT_OK);
    size_t n = boxlint_report_diag_count(r);
    if (len == 65535) {
      ck_assert_uint_eq(n, 0);
    } else {
      ck_assert_uint_eq(n, 1);
      const boxlint_diag *d = boxlint_report_diag(r, 0);
      ck_assert_str_eq(d->rule, "command-too-long");
      ck_assert_int_eq(d->command, 0);
      ck_assert_uint_eq(d->line, 1);
      ck_assert_uint_eq(d->column, 1);
      ck_assert_ptr_nonnull(strstr(d->message, "a line of 65536 bytes"));
    }
    boxlint_report_free(r);
  }
}
END_TEST

static Suite *rules_suite(void) {
  Suite *s = suite_create("check_rules");
  TCase *tc;

  tc = tcase_create("denied");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_denied_from);
  tcase_add_test(tc, test_denied_copy_add);
  tcase_add_test(tc, test_denied_cmd_entrypoint);
  tcase_add_test(tc, test_denied_messages_distinct);
  tcase_add_test(tc, test_denied_onbuild_triggers);
  tcase_add_test(tc, test_denied_close_cases_allowed);
  suite_add_tcase(s, tc);

  tc = tcase_create("unknown");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_unknown_did_you_mean);
  tcase_add_test(tc, test_unknown_tie_deterministic);
  tcase_add_test(tc, test_unknown_forgot_run);
  tcase_add_test(tc, test_unknown_close_cases);
  suite_add_tcase(s, tc);

  tc = tcase_create("limits");
  tcase_add_test(tc, test_rules_line_64k);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_empty_command);
  tcase_add_test(tc, test_empty_close_cases);
  tcase_add_test(tc, test_too_many_commands);
  tcase_add_test(tc, test_command_too_long);
  suite_add_tcase(s, tc);

  tc = tcase_create("bytes");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_nul_byte);
  tcase_add_test(tc, test_bare_cr);
  tcase_add_test(tc, test_crlf_is_fine);
  tcase_add_test(tc, test_control_character);
  tcase_add_test(tc, test_invalid_utf8);
  tcase_add_test(tc, test_byte_problems_all_reported);
  tcase_add_test(tc, test_nonascii_leading_space);
  tcase_add_test(tc, test_nonascii_keyword_folding);
  tcase_add_test(tc, test_nonascii_flags);
  tcase_add_test(tc, test_nonascii_before_onbuild_trigger);
  suite_add_tcase(s, tc);

  tc = tcase_create("structure");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_multiple_instructions);
  tcase_add_test(tc, test_multiple_close_cases);
  tcase_add_test(tc, test_dangling_continuation);
  tcase_add_test(tc, test_dangling_close_cases);
  tcase_add_test(tc, test_dangling_backtick_escape);
  tcase_add_test(tc, test_unterminated_heredoc);
  tcase_add_test(tc, test_heredoc_close_cases);
  tcase_add_test(tc, test_heredoc_smuggling_shapes);
  tcase_add_test(tc, test_ambiguous_heredoc);
  tcase_add_test(tc, test_invalid_onbuild);
  tcase_add_test(tc, test_onbuild_close_cases);
  suite_add_tcase(s, tc);

  tc = tcase_create("arguments");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_args_env_label);
  tcase_add_test(tc, test_args_env_label_ok);
  tcase_add_test(tc, test_args_arg_expose_volume);
  tcase_add_test(tc, test_args_exactly_one);
  tcase_add_test(tc, test_args_healthcheck);
  tcase_add_test(tc, test_args_shell);
  tcase_add_test(tc, test_args_json_nonstring);
  tcase_add_test(tc, test_flag_unknown);
  tcase_add_test(tc, test_flag_values);
  tcase_add_test(tc, test_flag_close_cases);
  suite_add_tcase(s, tc);

  tc = tcase_create("report");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_every_problem_at_once);
  tcase_add_test(tc, test_sorted_by_command_then_position);
  tcase_add_test(tc, test_instruction_list);
  tcase_add_test(tc, test_report_reuse);
  tcase_add_test(tc, test_invalid_arguments_einval);
  tcase_add_test(tc, test_rule_table);
  tcase_add_test(tc, test_rule_table_configurable);
  tcase_add_test(tc, test_keyword_denied);
  tcase_add_test(tc, test_nearest_word);
  tcase_add_test(tc, test_guard_page_inputs);
  suite_add_tcase(s, tc);

  tc = tcase_create("oom");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_oom_fail_after_n);
  tcase_add_test(tc, test_oom_fail_once);
  suite_add_tcase(s, tc);

  /* Regression tests of bugs found in review (fixed since; they run by default). */
  {
    tc = tcase_create("regressions");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, bug_suggestion_distance_in_runes);
    tcase_add_test(tc, bug_network_security_case_sensitive);
    tcase_add_test(tc, bug_warm_report_allocates);
    tcase_add_test(tc, bug_invalid_byte_columns);
    tcase_add_test(tc, bug_flag_span_end);
    tcase_add_test(tc, bug_healthcheck_empty_values);
    suite_add_tcase(s, tc);
  }
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(rules_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

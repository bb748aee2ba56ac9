/*
 * The smuggling vectors of fuzz/smuggling-vectors.txt (V1-V14), each as a regression test: the
 * command list is rejected with the rule that explains it, at the command and position where
 * the trick is. Every case also runs the soundness oracle: whenever boxlint accepts a list,
 * `base + "\n".join(commands)` split as BuildKit would gives exactly one instruction per
 * command, with the keyword boxlint reported, none denied.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxlint/boxlint.h"

#define MAXC 8

typedef struct expect {
  int command;
  const char *rule;
  unsigned line, column; /* 0: not checked */
} expect;

static const char BASE[] = "FROM ubuntu:24.04\nRUN echo base\n";

/* Split base + "\n".join(cmds) and compare with what boxlint reported per command. */
static void soundness_oracle(const char *const *cmds, size_t n, char escape) {
  boxlint_report *r;
  ck_assert_int_eq(boxlint_report_new(&r, NULL), BOXLINT_OK);
  boxlint_span sp[MAXC];
  for (size_t i = 0; i < n; i++) {
    sp[i].ptr = cmds[i];
    sp[i].len = strlen(cmds[i]);
  }
  boxlint_options o;
  boxlint_options_init(&o);
  o.escape = escape;
  ck_assert_int_eq(boxlint_check_commands(r, sp, n, &o), BOXLINT_OK);
  size_t errors = boxlint_report_count_at_least(r, BOXLINT_SEVERITY_ERROR);
  if (errors) {
    boxlint_report_free(r);
    return;
  }
  boxlint_keyword kw[MAXC];
  for (size_t i = 0; i < n; i++) kw[i] = boxlint_report_instruction(r, i)->keyword;
  char joined[16384];
  size_t len = 0;
  if (escape == '`') len += (size_t)snprintf(joined, sizeof joined, "# escape=`\n");
  len += (size_t)snprintf(joined + len, sizeof joined - len, "%s", BASE);
  for (size_t i = 0; i < n; i++)
    len += (size_t)snprintf(joined + len, sizeof joined - len, "%s%s", i ? "\n" : "", cmds[i]);
  boxlint_report_clear(r);
  ck_assert_int_eq(boxlint_split_fragment(r, joined, len, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_instruction_count(r), n + 2);
  for (size_t i = 0; i < n; i++) {
    const boxlint_instruction *in = boxlint_report_instruction(r, i + 2);
    ck_assert_int_eq(in->keyword, kw[i]);
    ck_assert(in->keyword != BOXLINT_KW_FROM && in->keyword != BOXLINT_KW_COPY &&
              in->keyword != BOXLINT_KW_ADD && in->keyword != BOXLINT_KW_CMD &&
              in->keyword != BOXLINT_KW_ENTRYPOINT);
  }
  boxlint_report_free(r);
}

/* Check a list and require each expected diagnostic (rule at command, line, column). */
static void vector(const char *const *cmds, size_t n, char escape, const expect *want, size_t nw) {
  boxlint_report *r;
  ck_assert_int_eq(boxlint_report_new(&r, NULL), BOXLINT_OK);
  boxlint_span sp[MAXC];
  for (size_t i = 0; i < n; i++) {
    sp[i].ptr = cmds[i];
    sp[i].len = strlen(cmds[i]);
  }
  boxlint_options o;
  boxlint_options_init(&o);
  o.escape = escape;
  ck_assert_int_eq(boxlint_check_commands(r, sp, n, &o), BOXLINT_OK);
  for (size_t k = 0; k < nw; k++) {
    int found = 0;
    for (size_t i = 0; i < boxlint_report_diag_count(r) && !found; i++) {
      const boxlint_diag *d = boxlint_report_diag(r, i);
      found = d->command == want[k].command && !strcmp(d->rule, want[k].rule) &&
              d->severity == BOXLINT_SEVERITY_ERROR &&
              (!want[k].line || (d->line == want[k].line && d->column == want[k].column));
    }
    if (!found) {
      for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
        const boxlint_diag *d = boxlint_report_diag(r, i);
        fprintf(stderr, "  got [%s] command %d %u:%u %s\n", d->rule, d->command, d->line,
                d->column, d->message);
      }
      ck_abort_msg("expected [%s] at command %d %u:%u", want[k].rule, want[k].command,
                   want[k].line, want[k].column);
    }
  }
  boxlint_report_free(r);
  soundness_oracle(cmds, n, escape);
}

#define V(cmds, ...)                                                                   \
  do {                                                                                 \
    static const char *const c_[] = cmds;                                              \
    static const expect e_[] = {__VA_ARGS__};                                          \
    vector(c_, sizeof c_ / sizeof c_[0], '\\', e_, sizeof e_ / sizeof e_[0]);          \
  } while (0)
#define L(...) {__VA_ARGS__}

START_TEST(test_smuggling_v1_embedded_newline) {
  V(L("RUN true\nFROM evil"), {0, "multiple-instructions", 2, 1});
  V(L("RUN true\r\nFROM evil"), {0, "multiple-instructions", 2, 1});
  V(L("CMD [\"a\nFROM evil\"]"), {0, "denied-instruction", 1, 1}, {0, "multiple-instructions", 2, 1});
}
END_TEST

START_TEST(test_smuggling_v2_trailing_continuation) {
  V(L("FR\\", "OM evil"), {0, "dangling-continuation", 1, 3}, {0, "unknown-instruction", 1, 1});
  V(L("ENTRY\\", "POINT [\"/x\"]"), {0, "dangling-continuation", 1, 6});
  V(L("\\", "COPY . /"), {0, "dangling-continuation", 1, 1}, {1, "denied-instruction", 1, 1});
  V(L(" \\ \t", "COPY . /"), {0, "dangling-continuation", 1, 2});
  V(L("FR\\", "# c", "", "OM x"), {0, "dangling-continuation", 1, 3}, {1, "empty-command", 1, 1},
    {2, "empty-command", 0, 0});
  V(L("RUN echo \\", "FROM evil"), {0, "dangling-continuation", 1, 10});
}
END_TEST

START_TEST(test_smuggling_v3_cr) {
  V(L("FR\\\r", "OM evil"), {0, "bare-cr", 1, 4}, {0, "dangling-continuation", 1, 3});
  V(L("FROM\revil"), {0, "bare-cr", 1, 5}, {0, "denied-instruction", 1, 1});
  V(L("\rFROM evil"), {0, "bare-cr", 1, 1});
  V(L("RUN a \\\r ", "FROM x"), {0, "bare-cr", 1, 8}, {1, "denied-instruction", 1, 1});
}
END_TEST

START_TEST(test_smuggling_v4_not_a_continuation) {
  /* BuildKit ends the instruction: the next string is its own instruction, checked as such. */
  V(L("RUN echo \\\\\\", "FROM evil"), {1, "denied-instruction", 1, 1});
  V(L("RUN echo \\\f", "FROM evil"), {0, "control-character", 1, 11}, {1, "denied-instruction", 1, 1});
  V(L("RUN echo \\\v", "FROM evil"), {0, "control-character", 1, 11}, {1, "denied-instruction", 1, 1});
  V(L("RUN echo \\\xc2\xa0", "FROM evil"), {1, "denied-instruction", 1, 1});
  V(L("RUN echo \\ # c", "FROM evil"), {1, "denied-instruction", 1, 1});
  V(L("# note \\", "FROM evil"), {0, "empty-command", 1, 1}, {1, "denied-instruction", 1, 1});
  V(L("\xc2\xa0# note \\", "FROM evil"), {0, "empty-command", 1, 1}, {1, "denied-instruction", 1, 1});
  V(L("RUN echo `", "FROM evil"), {1, "denied-instruction", 1, 1});
  {
    /* The mirror case under a backtick escape: a backslash does not continue. */
    static const char *const c[] = {"RUN echo \\", "FROM evil"};
    static const expect e[] = {{1, "denied-instruction", 1, 1}};
    vector(c, 2, '`', e, 1);
    static const char *const c2[] = {"RUN echo `", "FROM evil"};
    static const expect e2[] = {{0, "dangling-continuation", 1, 10}};
    vector(c2, 2, '`', e2, 1);
  }
}
END_TEST

START_TEST(test_smuggling_v5_continuation_through_comments) {
  V(L("RUN a \\", "# c", "FROM x"), {0, "dangling-continuation", 1, 7});
  V(L("RUN a \\", "", "FROM x"), {0, "dangling-continuation", 1, 7});
  V(L("RUN a \\", "   ", "FROM x"), {0, "dangling-continuation", 1, 7});
  V(L("RUN a \\\n# c"), {0, "dangling-continuation", 1, 7});
  V(L("RUN a \\\n\n  "), {0, "dangling-continuation", 1, 7});
}
END_TEST

START_TEST(test_smuggling_v6_ignored_heredoc) {
  V(L("RUN <<'RUN echo \\'", "RUN echo \\", "FROM evil"), {0, "unterminated-heredoc", 1, 5},
    {2, "denied-instruction", 1, 1});
}
END_TEST

START_TEST(test_smuggling_v7_heredoc_models) {
  /* A lexer error (stray quote) means no heredoc: the next strings are instructions. */
  V(L("ONBUILD RUN cat <<'LABEL x=y' \"", "ENTRYPOINT [\"/evil\"]", "LABEL x=y"),
    {1, "denied-instruction", 1, 1});
  V(L("RUN cat <<EOF # it's", "ENTRYPOINT [\"/evil\"]"), {1, "denied-instruction", 1, 1});
  V(L("RUN cat <<EOF ${", "ENTRYPOINT [\"/evil\"]"), {1, "denied-instruction", 1, 1});
  V(L("RUN cat <<EOF ${x!}", "ENTRYPOINT [\"/evil\"]"), {1, "denied-instruction", 1, 1});
  /* <<- strips tabs from the terminator. */
  V(L("RUN <<-'EXPOSE 80'", "\tEXPOSE 80", "FROM evil", "EXPOSE 80"),
    {0, "unterminated-heredoc", 1, 5}, {2, "denied-instruction", 1, 1});
  V(L("RUN <<-'EXPOSE 80'\n\tEXPOSE 80", "FROM evil"), {1, "denied-instruction", 1, 1});
  /* Not heredocs: the following lines are instructions of their own. */
  V(L("RUN <<- EOF\nFROM x\nEOF"), {0, "multiple-instructions", 2, 1});
  V(L("RUN cat<<EOF\nFROM x\nEOF"), {0, "multiple-instructions", 2, 1});
  V(L("RUN cat <<EOF<in\nFROM x\nEOF"), {0, "multiple-instructions", 2, 1});
  V(L("RUN echo \"<<EOF\"\nFROM x\nEOF"), {0, "multiple-instructions", 2, 1});
  V(L("RUN echo \\<<EOF\nFROM x\nEOF"), {0, "multiple-instructions", 2, 1});
  V(L("RUN cat <<<EOF\nFROM x\nEOF"), {0, "multiple-instructions", 2, 1});
  V(L("RUN cat <<\"\"\nFROM x\n"), {0, "multiple-instructions", 2, 1});
  V(L("RUN [\"cat\", \"<<EOF\"]\nFROM x\nEOF"), {0, "multiple-instructions", 2, 1});
  V(L("ENV A <<EOF\nFROM x\nEOF"), {0, "multiple-instructions", 2, 1});
  V(L("LABEL a=<<EOF\nFROM x\nEOF"), {0, "multiple-instructions", 2, 1});
  /* Heredocs that swallow what follows (so an unclosed one is an error). */
  V(L("RUN cat << EOF", "FROM x"), {0, "unterminated-heredoc", 1, 9});
  V(L("RUN cat <<\tEOF", "FROM x"), {0, "unterminated-heredoc", 1, 9});
  V(L("RUN cat 0<<EOF", "FROM x"), {0, "unterminated-heredoc", 0, 0});
  V(L("RUN echo $(( 1 <<2 ))", "FROM x"), {0, "unterminated-heredoc", 0, 0});
  V(L("RUN echo hi # <<EOF", "FROM x"), {0, "unterminated-heredoc", 0, 0});
  V(L("RUN cat\xc2\xa0<<EOF", "FROM x"), {0, "unterminated-heredoc", 0, 0});
  V(L("run cat <<EOF", "FROM x"), {0, "unterminated-heredoc", 0, 0});
  V(L("ONBUILD RUN cat <<EOF", "FROM x"), {0, "unterminated-heredoc", 0, 0});
  /* Exact terminators only. */
  V(L("RUN cat <<EOF\nEOF \nFROM x"), {0, "unterminated-heredoc", 1, 9});
  V(L("RUN cat <<EOF\n EOF\nFROM x"), {0, "unterminated-heredoc", 1, 9});
  V(L("RUN cat <<EOF\neof\nFROM x"), {0, "unterminated-heredoc", 1, 9});
  {
    static const char *const c[] = {"RUN cat <<EOF\nFROM x\nEOF\r", "RUN true"};
    vector(c, 2, '\\', NULL, 0); /* EOF\r terminates: accepted, and the oracle agrees */
  }
}
END_TEST

START_TEST(test_smuggling_v8_unicode_space) {
  V(L("\xc2\xa0" "FROM evil"), {0, "non-ascii-syntax", 1, 1}, {0, "denied-instruction", 1, 2});
  V(L("\xe3\x80\x80" "ENTRYPOINT [\"/x\"]"), {0, "non-ascii-syntax", 1, 1}, {0, "denied-instruction", 1, 2});
  V(L("\xe2\x80\xa8" "COPY . /"), {0, "non-ascii-syntax", 1, 1}, {0, "denied-instruction", 1, 2});
  V(L("\xc2\x85" "FROM x"), {0, "non-ascii-syntax", 1, 1}, {0, "denied-instruction", 1, 2});
  V(L("\v\f\rADD x /"), {0, "control-character", 1, 1}, {0, "bare-cr", 1, 3},
    {0, "denied-instruction", 1, 4});
  /* A zero-width space is not white space: an unknown keyword. */
  V(L("\xe2\x80\x8b" "FROM x"), {0, "non-ascii-syntax", 1, 1});
}
END_TEST

START_TEST(test_smuggling_v9_case_mapping) {
  V(L("ENTRYPO\xc4\xb0NT [\"/evil\"]"), {0, "non-ascii-syntax", 1, 1}, {0, "denied-instruction", 1, 1});
  V(L("ONBU\xc4\xb0LD ENTRYPOINT [\"/x\"]"), {0, "non-ascii-syntax", 1, 1},
    {0, "denied-instruction", 1, 9});
  V(L("HEALTHCHEC\xe2\x84\xaa CMD true"), {0, "non-ascii-syntax", 1, 1});
}
END_TEST

START_TEST(test_smuggling_v10_onbuild) {
  V(L("ONBUILD COPY . /app"), {0, "denied-instruction", 1, 9});
  V(L("ONBUILD ADD x /"), {0, "denied-instruction", 1, 9});
  V(L("ONBUILD ENTRYPOINT [\"/x\"]"), {0, "denied-instruction", 1, 9});
  V(L("ONBUILD CMD x"), {0, "denied-instruction", 1, 9});
  V(L("onbuild \xc2\xa0" "copy . /"), {0, "non-ascii-syntax", 1, 9}, {0, "denied-instruction", 1, 10});
  V(L("ONBUILD \\", "COPY . /"), {0, "dangling-continuation", 1, 9}, {1, "denied-instruction", 1, 1});
  V(L("ONBUILD \\\nCOPY . /"), {0, "denied-instruction", 2, 1});
}
END_TEST

START_TEST(test_smuggling_v11_flag_bytes) {
  V(L("RUN --mount=type=cache,target=/x\xc3\xa0--network=host true"), {0, "non-ascii-syntax", 1, 33});
  V(L("RUN --mount=type=cache,target=/x\xc3\xa0--security=insecure true"), {0, "non-ascii-syntax", 1, 33});
}
END_TEST

START_TEST(test_smuggling_v12_directives) {
  V(L("# syntax=docker.io/evil/frontend"), {0, "empty-command", 1, 1});
  V(L("# escape=`"), {0, "empty-command", 1, 1});
}
END_TEST

START_TEST(test_smuggling_v13_base) {
  boxlint_report *r;
  boxlint_base_info info;
  ck_assert_int_eq(boxlint_report_new(&r, NULL), BOXLINT_OK);
  static const struct { const char *base; int ok; unsigned line, column; } cases[] = {
      {"FROM alpine", 0, 1, 12},
      {"FROM alpine\n", 1, 0, 0},
      {"FROM alpine\nRUN a \\\n", 0, 2, 7},
      {"FROM alpine\nRUN <<EOF\nx\n", 0, 2, 1},
      {"# just a comment\n", 0, 1, 1},
      {"", 0, 1, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    boxlint_report_clear(r);
    ck_assert_int_eq(boxlint_check_base(&info, r, cases[i].base, strlen(cases[i].base)), BOXLINT_OK);
    ck_assert_int_eq(info.appendable, cases[i].ok);
    if (!cases[i].ok) {
      ck_assert_uint_ge(boxlint_report_diag_count(r), 1);
      const boxlint_diag *d = boxlint_report_diag(r, 0);
      ck_assert_str_eq(d->rule, "base-not-appendable");
      ck_assert_uint_eq(d->line, cases[i].line);
      ck_assert_uint_eq(d->column, cases[i].column);
    } else {
      ck_assert_uint_eq(boxlint_report_diag_count(r), 0);
    }
  }
  ck_assert_int_eq(boxlint_check_base(&info, r, "# escape=`\nFROM x\n", 18), BOXLINT_OK);
  ck_assert_int_eq(info.escape, '`');
  ck_assert_int_eq(info.appendable, 1);
  boxlint_report_free(r);
}
END_TEST

START_TEST(test_smuggling_v14_accepted_lists_are_sound) {
  /* Lists boxlint accepts: the oracle checks BuildKit's reading of the joined file. */
  static const char *const ok1[] = {"RUN apt-get update && \\\n    # comment\n    apt-get install -y curl",
                                    "RUN <<EOF\nFROM is text here\nEOF", "ENV A=1", "RUN true\n"};
  static const char *const ok2[] = {"RUN cat <<'A' <<\"B\"\na\nA\nb\nB", "LABEL a=b",
                                    "RUN echo \\\\", "WORKDIR /app"};
  static const char *const ok3[] = {"  RUN x", "\tUSER root", "ONBUILD RUN echo hi",
                                    "HEALTHCHECK CMD curl -f http://localhost/ || exit 1"};
  vector(ok1, 4, '\\', NULL, 0);
  vector(ok2, 4, '\\', NULL, 0);
  vector(ok3, 4, '\\', NULL, 0);
  boxlint_report *r;
  ck_assert_int_eq(boxlint_report_new(&r, NULL), BOXLINT_OK);
  boxlint_span sp[4];
  for (size_t i = 0; i < 4; i++) {
    sp[i].ptr = ok1[i];
    sp[i].len = strlen(ok1[i]);
  }
  ck_assert_int_eq(boxlint_check_commands(r, sp, 4, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_diag_count(r), 0);
  boxlint_report_free(r);
}
END_TEST

static Suite *smuggling_suite(void) {
  Suite *s = suite_create("smuggling");
  TCase *tc = tcase_create("vectors");
  tcase_add_test(tc, test_smuggling_v1_embedded_newline);
  tcase_add_test(tc, test_smuggling_v2_trailing_continuation);
  tcase_add_test(tc, test_smuggling_v3_cr);
  tcase_add_test(tc, test_smuggling_v4_not_a_continuation);
  tcase_add_test(tc, test_smuggling_v5_continuation_through_comments);
  tcase_add_test(tc, test_smuggling_v6_ignored_heredoc);
  tcase_add_test(tc, test_smuggling_v7_heredoc_models);
  tcase_add_test(tc, test_smuggling_v8_unicode_space);
  tcase_add_test(tc, test_smuggling_v9_case_mapping);
  tcase_add_test(tc, test_smuggling_v10_onbuild);
  tcase_add_test(tc, test_smuggling_v11_flag_bytes);
  tcase_add_test(tc, test_smuggling_v12_directives);
  tcase_add_test(tc, test_smuggling_v13_base);
  tcase_add_test(tc, test_smuggling_v14_accepted_lists_are_sound);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(smuggling_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

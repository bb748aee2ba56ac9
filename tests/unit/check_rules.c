/* The check_rules suite (check_rules.h says what it tests), and its main(). */
#include "check_rules.h"

/*==============================================================================================
 * denied-instruction (docs/design.md §2.1)
 *============================================================================================*/

START_TEST(test_denied_from) {
  CHECK1("FROM ubuntu:22.04");
  EXPECT_COUNT(1);
  EXPECT("denied-instruction", 0, 1, 1, 1, 5, 0, 4, "FROM", "base image");
  const boxlint_diag *d = find("denied-instruction", 0);
  ck_assert(contains(d->message, "base image") || contains(d->message, "systemd"));
  /* lower case is the same keyword */
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

  /* The suggestion keeps lower case when the keyword was not all upper case. */
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

  /* beyond distance 2 there is no suggestion (XYZZY, ENTRY) */
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
  /* VT and FF separate the keyword like spaces but are control characters */
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
  /* a comment never continues, even if it ends with the escape character */
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

/* A logical line that is only Unicode white space once its lines are joined: E1 at the end of
 * one line (before the escape) and 9A 80 on the next make U+1680, which BuildKit trims. Each
 * line alone is invalid UTF-8, not white space, so BuildKit starts an instruction there (with
 * no name): the instruction is the bytes read, in a command and in a fragment's check as in its
 * split (a fuzz finding: the check recorded an empty instruction at the start). */
START_TEST(test_empty_after_join) {
  static const char cmd[] = "\xe1\\\n\x9a\x80";
  CHECK1(cmd);
  EXPECT_COUNT(2);
  EXPECT_START("invalid-utf8", 0, 1, 1, 0, "0xe1");
  EXPECT_START("empty-command", 0, 1, 1, 0, "only Unicode white space once its lines are joined");
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 1);
  const boxlint_instruction *in = boxlint_report_instruction(R, 0);
  ck_assert_uint_eq(in->offset, 0);
  ck_assert_uint_eq(in->end_offset, 5);
  ck_assert_uint_eq(in->line, 1);
  ck_assert_uint_eq(in->end_line, 2);
  static const char frag[] = "RUN a\n\xe1\\\n\x9a\x80\nRUN b\n";
  boxlint_report *split, *check;
  ck_assert_int_eq(boxlint_report_new(&split, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_report_new(&check, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_split_fragment(split, frag, sizeof frag - 1, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_check_fragment(check, frag, sizeof frag - 1, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_instruction_count(split), 3);
  ck_assert_uint_eq(boxlint_report_instruction_count(check), 3);
  for (size_t i = 0; i < 3; i++) {
    const boxlint_instruction *a = boxlint_report_instruction(split, i);
    const boxlint_instruction *b = boxlint_report_instruction(check, i);
    ck_assert_uint_eq(a->offset, b->offset);
    ck_assert_uint_eq(a->end_offset, b->end_offset);
    ck_assert_uint_eq(a->line, b->line);
    ck_assert_uint_eq(a->end_line, b->end_line);
  }
  ck_assert_uint_eq(boxlint_report_instruction(check, 1)->offset, 6);
  ck_assert_uint_eq(boxlint_report_instruction(check, 1)->end_offset, 12);
  boxlint_report_free(split);
  boxlint_report_free(check);
}
END_TEST

START_TEST(test_empty_close_cases) {
  ACCEPT("RUN true");
  ACCEPT("RUN");          /* RUN with no arguments is accepted */
  ACCEPT("RUN # not a comment: there are no inline comments");
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
  /* ONBUILD ONBUİLD passes BuildKit's chaining check, but boxlint still rejects it */
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
  tcase_add_test(tc, test_empty_after_join);
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
  rules_add_structure(s);
  rules_add_report(s);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(rules_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

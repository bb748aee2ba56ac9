/* The check_rules suite, part structure (structure, arguments). Helpers: check_rules.h. */
#include "check_rules.h"

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
 * dangling-continuation
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
  /* two or more escape characters never continue */
  ACCEPT("RUN echo \\\\");
  ACCEPT("RUN echo \\\\\\");
  /* text after the escape stops it ("RUN x \\ # c") */
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
 * Heredocs: unterminated-heredoc, ambiguous-heredoc
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
  /* RUN ["cat"] <<EOF is not valid JSON: shell form with a heredoc */
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
 * invalid-onbuild
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
  /* flags on ONBUILD itself: unknown flag */
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
 * missing-arguments / invalid-arguments
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
  /* "exactly one" only fires when the argument is missing */
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
  /* single quotes are not JSON, so not JSON form */
  CHECK1("SHELL ['/bin/bash', '-c']");
  EXPECT("invalid-arguments", 0, 1, 7, 1, 26, 6, 25, "JSON form", NULL);
  ACCEPT("SHELL [\"/bin/bash\", \"-o\", \"pipefail\", \"-c\"]");
  ACCEPT("SHELL [ \"/bin/sh\" , \"-c\" ]  ");
}
END_TEST

/* A valid JSON array with a non-string element is a hard error. */
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
  /* not valid JSON: shell form, accepted */
  ACCEPT("RUN [\"echo\", 1] && true");
  ACCEPT("RUN ['echo', 1]");
  ACCEPT("RUN [\"echo\", 1");
  ACCEPT("RUN []");
  ACCEPT("RUN [\"echo\", \"\\u00e9\\n\"]");
  ACCEPT("RUN [1, 2] x");
}
END_TEST

/*==============================================================================================
 * invalid-flag
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
  /* flags on instructions that take none */
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
  /* HEALTHCHECK limits */
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
  ACCEPT("RUN -- --network=bad true");   /* a bare -- ends the flags */
  ACCEPT("RUN -x --network=bad");       /* -x is not a flag: the flags ended */
  ACCEPT("RUN echo --network=bad");
  ACCEPT("HEALTHCHECK --interval=1ms --retries=0 CMD true");
  ACCEPT("HEALTHCHECK --interval=0s --start-period=5m --start-interval=2s CMD true");
  ACCEPT("ENV a=--foo");
}
END_TEST

void rules_add_structure(Suite *s) {
  TCase *tc;

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
}

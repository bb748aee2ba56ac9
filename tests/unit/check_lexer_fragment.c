/* The check_lexer suite, part fragment (fragment, base, api). Helpers: check_lexer.h. */
#include "check_lexer.h"

/*==============================================================================================
 * check_fragment: file positions of diagnostics (docs/design.md §2.4, §2.5)
 *============================================================================================*/

START_TEST(test_fragment_positions) {
  CHECKF("RUN a\n\n  FROM x\nRUNN b\n  cp  x y\nRUN \\\n  --network=bad x\n");
  NINSTR(5);
  EXPECT("denied-instruction", 1, 3, 3, 3, 7, 9, 13, "FROM");
  const boxlint_diag *d = EXPECT("unknown-instruction", 2, 4, 1, 4, 5, 16, 20, "RUNN");
  ck_assert_ptr_nonnull(d->fix);
  ck_assert_uint_eq(d->fix->offset, 16); /* fixes are file offsets in a fragment */
  ck_assert_uint_eq(d->fix->length, 4);
  EXPECT("unknown-instruction", 3, 5, 3, 5, 5, 25, 27, "cp");
  EXPECT("invalid-flag", 4, 7, 3, 7, 16, 41, 54, "invalid network mode");
  /* sorted by instruction */
  for (size_t i = 1; i < boxlint_report_diag_count(R); i++)
    ck_assert_int_le(boxlint_report_diag(R, i - 1)->command, boxlint_report_diag(R, i)->command);
  /* columns count code points across the file */
  CHECKF("# caf\xc3\xa9\nLABEL a=\"\xc3\xa9\xe2\x82\xac\" b\n");
  EXPECT("invalid-arguments", 0, 2, 14, 2, 15, 24, 25, "\"b\"");
  /* a heredoc does not shift later positions */
  CHECKF("RUN <<EOF\nFROM x\nEOF\nENV\n");
  NINSTR(2);
  ck_assert_uint_eq(nerrors(), 1);
  EXPECT("missing-arguments", 1, 4, 1, 4, 4, 21, 24, "ENV");
  /* a BOM is not a column */
  CHECKF("\xef\xbb\xbf" "FROM x");
  EXPECT("denied-instruction", 0, 1, 1, 1, 5, 3, 7, "FROM");
}
END_TEST

START_TEST(test_fragment_accepts_real_dockerfile) {
  CHECKF("# syntax=docker/dockerfile:1\n"
         "ARG PY=3.12\n"
         "ENV DEBIAN_FRONTEND=noninteractive \\\n"
         "    LANG=C.UTF-8\n"
         "\n"
         "# system packages\n"
         "RUN apt-get update \\\n"
         "    # keep the list sorted\n"
         "    && apt-get install -y --no-install-recommends curl git \\\n"
         "\n"
         "    && rm -rf /var/lib/apt/lists/*\n"
         "RUN --mount=type=cache,target=/root/.cache pip install --no-cache-dir numpy\n"
         "RUN <<EOF cat > /etc/motd\n"
         "Welcome\n"
         "EOF\n"
         "WORKDIR /home/user\n"
         "USER root\n");
  EXPECT_NO_ERRORS();
  NINSTR(7);
  INSTR(2, BOXLINT_KW_RUN, 7, 11, 114, 259);
}
END_TEST

START_TEST(test_fragment_no_command_limit) {
  static char buf[70 * 9];
  for (size_t i = 0; i < 70; i++) memcpy(buf + 9 * i, "RUN true\n", 9);
  checkf_buf(buf, sizeof buf);
  NINSTR(70);
  EXPECT_NO_ERRORS();
  ck_assert_ptr_null(find("too-many-commands", 64));
}
END_TEST

START_TEST(test_fragment_directive_errors) {
  /* a repeated directive and a bad escape token */
  CHECKF("# escape=`\n# escape=\\\nRUN x");
  ck_assert_uint_ge(nerrors(), 1);
  ck_assert_ptr_nonnull(strstr(boxlint_report_diag(R, 0)->message, "only one"));
  ck_assert_uint_eq(boxlint_report_diag(R, 0)->line, 2);
  CHECKF("# escape=x\nRUN x");
  ck_assert_uint_ge(nerrors(), 1);
  ck_assert_ptr_nonnull(strstr(boxlint_report_diag(R, 0)->message, "invalid escape token"));
  ck_assert_uint_eq(boxlint_report_diag(R, 0)->line, 1);
}
END_TEST

/*==============================================================================================
 * check_base (docs/design.md §2.6, V13)
 *============================================================================================*/

static boxlint_base_info base_check(const char *p, size_t n) {
  boxlint_base_info bi;
  memset(&bi, 0x55, sizeof bi);
  boxlint_report_clear(R);
  IN = p;
  INLEN = n;
  ck_assert_int_eq(boxlint_check_base(&bi, R, p, n), BOXLINT_OK);
  return bi;
}
#define BASE(lit) base_check((lit), sizeof(lit) - 1)

START_TEST(test_base_appendable) {
  boxlint_base_info bi = BASE("FROM e2bdev/code-interpreter:latest\nRUN apt-get update\n");
  ck_assert_int_eq(bi.appendable, 1);
  ck_assert_int_eq(bi.escape, '\\');
  ck_assert_uint_eq(bi.instructions, 2);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
  /* trailing blank lines and comments are fine */
  bi = BASE("FROM x\nRUN a\n\n# trailing\n");
  ck_assert_int_eq(bi.appendable, 1);
  ck_assert_uint_eq(bi.instructions, 2);
  /* a complete heredoc at the end */
  bi = BASE("FROM x\nRUN <<EOF\nbody\nEOF\n");
  ck_assert_int_eq(bi.appendable, 1);
  /* CRLF ending */
  bi = BASE("FROM x\r\n");
  ck_assert_int_eq(bi.appendable, 1);
}
END_TEST

START_TEST(test_base_not_appendable) {
  /* V13: no trailing newline */
  boxlint_base_info bi = BASE("FROM alpine");
  ck_assert_int_eq(bi.appendable, 0);
  ck_assert_uint_eq(bi.instructions, 1);
  const boxlint_diag *d = EXPECT("base-not-appendable", -1, 1, 12, 1, 12, 11, 11, "newline");
  ck_assert_ptr_nonnull(d->fix);
  ck_assert_uint_eq(d->fix->offset, 11);
  ck_assert_uint_eq(d->fix->length, 0);
  ck_assert_str_eq(d->fix->text, "\n");
  /* ends inside a continuation */
  bi = BASE("FROM x\nRUN a \\\n");
  ck_assert_int_eq(bi.appendable, 0);
  EXPECT("base-not-appendable", -1, 2, 7, 2, 8, 13, 14, "continuation");
  /* through a comment line */
  bi = BASE("FROM x\nRUN a \\\n# c\n");
  ck_assert_int_eq(bi.appendable, 0);
  ck_assert_ptr_nonnull(find("base-not-appendable", -1));
  /* ends inside an open heredoc */
  bi = BASE("FROM x\nRUN <<EOF\nbody\n");
  ck_assert_int_eq(bi.appendable, 0);
  d = find("base-not-appendable", -1);
  ck_assert_ptr_nonnull(d);
  ck_assert_ptr_nonnull(strstr(d->message, "heredoc"));
  ck_assert_uint_eq(d->line, 2);
  /* only comments: appended text could be a directive (V12) */
  bi = BASE("# just a comment\n\n");
  ck_assert_int_eq(bi.appendable, 0);
  ck_assert_uint_eq(bi.instructions, 0);
  d = find("base-not-appendable", -1);
  ck_assert_ptr_nonnull(d);
  ck_assert_ptr_nonnull(strstr(d->message, "no instruction"));
  bi = BASE("");
  ck_assert_int_eq(bi.appendable, 0);
  ck_assert_uint_eq(bi.instructions, 0);
  /* with the backtick escape, a trailing backtick continues */
  bi = BASE("# escape=`\nFROM x\nRUN a `\n");
  ck_assert_int_eq(bi.appendable, 0);
  ck_assert_int_eq(bi.escape, '`');
  EXPECT("base-not-appendable", -1, 3, 7, 3, 8, 24, 25, "continuation");
}
END_TEST

START_TEST(test_base_escape) {
  boxlint_base_info bi = BASE("# escape=`\nFROM x\nRUN a `\n  b\n");
  ck_assert_int_eq(bi.appendable, 1);
  ck_assert_int_eq(bi.escape, '`');
  ck_assert_uint_eq(bi.instructions, 2);
  /* a trailing backslash is plain text under the backtick escape */
  bi = BASE("# escape=`\nFROM x\nRUN a \\\n");
  ck_assert_int_eq(bi.appendable, 1);
  ck_assert_int_eq(bi.escape, '`');
  /* and a backtick is plain text under the default */
  bi = BASE("FROM x\nRUN a `\n");
  ck_assert_int_eq(bi.appendable, 1);
  ck_assert_int_eq(bi.escape, '\\');
  /* a directive after an instruction does not count */
  bi = BASE("FROM x\n# escape=`\nRUN a\n");
  ck_assert_int_eq(bi.escape, '\\');
  /* the returned escape makes the commands checked the way BuildKit will read them */
  bi = BASE("# escape=`\nFROM x\n");
  boxlint_options o;
  boxlint_options_init(&o);
  o.escape = bi.escape;
  boxlint_span c = {"RUN echo `", 10};
  boxlint_report_clear(R);
  ck_assert_int_eq(boxlint_check_commands(R, &c, 1, &o), BOXLINT_OK);
  ck_assert_ptr_nonnull(find("dangling-continuation", 0));
}
END_TEST

/*==============================================================================================
 * Arguments, guard pages, out of memory
 *============================================================================================*/

START_TEST(test_einval) {
  boxlint_base_info bi;
  ck_assert_int_eq(boxlint_split_fragment(NULL, "RUN x", 5, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_check_fragment(NULL, "RUN x", 5, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_split_fragment(R, NULL, 5, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_check_fragment(R, NULL, 5, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_split_fragment(R, NULL, 0, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 0);
  ck_assert_int_eq(boxlint_check_base(NULL, R, "FROM x\n", 7), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_check_base(&bi, NULL, "FROM x\n", 7), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_check_base(&bi, R, NULL, 7), BOXLINT_EINVAL);
  boxlint_options o;
  boxlint_options_init(&o);
  o.escape = '/';
  ck_assert_int_eq(boxlint_split_fragment(R, "RUN x", 5, &o), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_check_fragment(R, "RUN x", 5, &o), BOXLINT_EINVAL);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
}
END_TEST

START_TEST(test_guard_page_fragments) {
  static const char *const inputs[] = {
      "RUN a \\",
      "RUN <<EOF\nbody\nEO",
      "RUN <<EOF\nbody\nEOF",
      "RUN <<-EOF\n\t\t",
      "\xef\xbb\xbf",
      "\xef\xbb",
      "# escape=`",
      "# escape=`\nRUN a `",
      "RUN cat <<'EOF",
      "RUN cat <<E\\",
      "RUN echo ${x:-",
      "RUN \"a\\",
      "RUN a\r",
      "ONBUILD RUN <<EOF",
      "HEALTHCHECK CMD [\"a\"",
      "RUN --mount=type=cache,target=/x\xc3",
      "ENV a=\"b",
      "  \t",
      "#",
  };
  for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
    size_t n = strlen(inputs[i]);
    guarded g = guard(inputs[i], n);
    boxlint_report_clear(R);
    ck_assert_int_eq(boxlint_split_fragment(R, g.p, n, NULL), BOXLINT_OK);
    boxlint_report_clear(R);
    ck_assert_int_eq(boxlint_check_fragment(R, g.p, n, NULL), BOXLINT_OK);
    boxlint_base_info bi;
    boxlint_report_clear(R);
    ck_assert_int_eq(boxlint_check_base(&bi, R, g.p, n), BOXLINT_OK);
    ck_assert_int_eq(bi.appendable, 0); /* none ends with a newline */
    boxlint_span s = {g.p, n};
    boxlint_report_clear(R);
    ck_assert_int_eq(boxlint_check_commands(R, &s, 1, NULL), BOXLINT_OK);
    unguard(&g);
  }
  /* the results at the page end are the right ones */
  guarded g = guard("RUN a\nRUN <<EOF\nbody\nEOF", 24);
  IN = g.p;
  INLEN = 24;
  boxlint_report_clear(R);
  ck_assert_int_eq(boxlint_split_fragment(R, g.p, 24, NULL), BOXLINT_OK);
  NINSTR(2);
  HEREDOC(1, 0, "EOF", "body\n", 0, 1, 3, 4);
  unguard(&g);
}
END_TEST

static const char OOM_FRAGMENT[] =
    "\xef\xbb\xbf# escape=`\n"
    "FROM x\n"
    "RUN a `\n# c\n\n  b\n"
    "RUN <<A cat - <<-'B'\nalpha\nA\n\tbeta\n\tB\n"
    "COPY <<EOF /x\nbody\nEOF\n"
    "ONBUILD RUN --network=bad echo\n"
    "ENV a=b c\n"
    "RUNN x\n"
    "RUN echo $\xc3\xa9 <<EOF\nx\nEOF\n"
    "RUN <<EOF\nunterminated\n";

/* 0: split, 1: check fragment, 2: check base */
static void oom_loop(int which) {
  for (long n = 0;; n++) {
    ck_assert_msg(n < 100000, "no success");
    failer f = {.left = n};
    boxlint_alloc a = failer_alloc(&f);
    boxlint_report *r = NULL;
    boxlint_status st = boxlint_report_new(&r, &a);
    if (st == BOXLINT_OK) {
      size_t len = sizeof OOM_FRAGMENT - 1;
      boxlint_base_info bi;
      if (which == 0) st = boxlint_split_fragment(r, OOM_FRAGMENT, len, NULL);
      else if (which == 1) st = boxlint_check_fragment(r, OOM_FRAGMENT, len, NULL);
      else st = boxlint_check_base(&bi, r, OOM_FRAGMENT, len);
      for (size_t i = 0; i < boxlint_report_diag_count(r); i++)
        (void)strlen(boxlint_report_diag(r, i)->message);
      boxlint_report_free(r);
    } else {
      ck_assert_ptr_null(r);
    }
    ck_assert_msg(st == BOXLINT_OK || st == BOXLINT_ENOMEM, "status %d at n=%ld", (int)st, n);
    ck_assert_int_eq(f.live, 0);
    if (st == BOXLINT_OK) {
      ck_assert_msg(!f.failed, "an allocation failed at n=%ld but the call returned OK", n);
      break;
    }
  }
}

START_TEST(test_oom_split) { oom_loop(0); }
END_TEST
START_TEST(test_oom_check_fragment) { oom_loop(1); }
END_TEST
START_TEST(test_oom_check_base) { oom_loop(2); }
END_TEST

void lexer_add_fragment(Suite *s) {
  TCase *tc;

  tc = tcase_create("fragment");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_fragment_positions);
  tcase_add_test(tc, test_fragment_accepts_real_dockerfile);
  tcase_add_test(tc, test_fragment_no_command_limit);
  tcase_add_test(tc, test_fragment_directive_errors);
  suite_add_tcase(s, tc);

  tc = tcase_create("base");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_base_appendable);
  tcase_add_test(tc, test_base_not_appendable);
  tcase_add_test(tc, test_base_escape);
  suite_add_tcase(s, tc);

  tc = tcase_create("api");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_einval);
  tcase_add_test(tc, test_guard_page_fragments);
  tcase_add_test(tc, test_oom_split);
  tcase_add_test(tc, test_oom_check_fragment);
  tcase_add_test(tc, test_oom_check_base);
  suite_add_tcase(s, tc);
}

/* The check_rules suite, part report (report, oom, regressions). Helpers: check_rules.h. */
#include "check_rules.h"

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
  /* continuation lines keep their leading white space */
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

  /* flags are unquoted as BuildKit does */
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

/* Every rule id of docs/design.md §2.1 is in the rule table as an error, with texts. */
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
  EXPECT_CLEAN(); /* unterminated quote: lexer error, no heredoc */
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

/* the "did you mean" distance is Levenshtein on runes; `\u200bFROM` -> FROM. boxlint
 * measures bytes, so a zero-width space (3 bytes) pushes FROM out of reach and the hint says
 * "did you forget RUN?" with a fix that inserts `RUN ` before an invisible-character keyword. */
START_TEST(bug_suggestion_distance_in_runes) {
  CHECK1("\xe2\x80\x8b" "FROM x");
  EXPECT("unknown-instruction", 0, 1, 1, 1, 6, 0, 7, NULL, "did you mean FROM?");
  CHECK1("R\xc3\xbcN x"); /* RüN: one substitution from RUN */
  EXPECT("unknown-instruction", 0, 1, 1, 1, 4, 0, 4, NULL, "did you mean RUN?");
}
END_TEST

/* BuildKit's commands_runnetwork.go / commands_runsecurity.go: the allowed values are
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
 * `--retries=` are accepted (the flags have a value, an empty one, as BuildKit's bflag reads
 * them), but boxlint reports `time: invalid duration ""` and `invalid value for --retries`. */
START_TEST(bug_healthcheck_empty_values) {
  ACCEPT("HEALTHCHECK --interval= --timeout= --start-period= --start-interval= CMD true");
  ACCEPT("HEALTHCHECK --retries= CMD true");
}
END_TEST

void rules_add_report(Suite *s) {
  TCase *tc;

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
}

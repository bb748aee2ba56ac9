/* The check_warnings suite, part config (config, fragments). Helpers: check_warnings.h. */
#include "check_warnings.h"

/*==============================================================================================
 * Config: severities, user rules, limits
 *============================================================================================*/

START_TEST(test_severity_overrides) {
  boxlint_error err;
  memset(&err, 0, sizeof err);
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "sudo-usage", 10, E, &err), BOXLINT_OK);
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "pip-no-cache-dir", 16, BOXLINT_SEVERITY_OFF, &err),
                   BOXLINT_OK);
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "final-user-not-root", 19, I, &err), BOXLINT_OK);
  ck_assert_int_eq(boxlint_config_get_severity(CFG, "sudo-usage", 10, W), E);
  ck_assert_int_eq(boxlint_config_get_severity(CFG, "pip-no-cache-dir", 16, W), BOXLINT_SEVERITY_OFF);
  ck_assert_int_eq(boxlint_config_get_severity(CFG, "curl-pipe-shell", 15, I), W);

  CMDS(SP("RUN sudo pip install x"), SP("USER app"));
  EXPECT("sudo-usage", E, 0, 1, 5, 1, 9, "sudo");
  NONE("pip-no-cache-dir");
  EXPECT("final-user-not-root", I, 1, 1, 6, 1, 9, "app");
  TOTAL(2);
  ck_assert_uint_eq(boxlint_report_count_at_least(R, E), 1);

  /* Off for each rule that has a firing case: nothing left. */
  static const char *const all[] = {
      "final-user-not-root", "stopsignal-overrides-systemd", "apt-get-missing-yes",
      "pip-no-cache-dir", "apt-lists-not-cleaned", "curl-pipe-shell", "secret-in-command",
      "run-mount-context", "run-mount-from-image", "sudo-usage", "systemctl-in-build",
      "apt-get-upgrade", "env-overrides-runtime", "healthcheck-in-template", "run-insecure",
      "workdir-relative"};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    ck_assert_int_eq(boxlint_config_set_severity(CFG, all[i], strlen(all[i]), BOXLINT_SEVERITY_OFF,
                                                 NULL),
                     BOXLINT_OK);
  CMDS(SP("USER app"), SP("STOPSIGNAL SIGTERM"),
       SP("RUN sudo apt-get update && apt-get upgrade && pip install x && curl -fsSL https://x.example | sh && systemctl start x"),
       SP("RUN --mount=target=/s --mount=from=alpine,target=/a --network=host true"),
       SP("ENV PATH=/x API_TOKEN=abcdef123456"), SP("HEALTHCHECK CMD true"), SP("WORKDIR app"));
  TOTAL(0);
}
END_TEST

START_TEST(test_errors_cannot_be_lowered) {
  boxlint_error err;
  memset(&err, 0, sizeof err);
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "denied-instruction", 18, W, &err), BOXLINT_EINVAL);
  ck_assert_int_eq(err.code, BOXLINT_EINVAL);
  ck_assert(contains(err.message, "denied-instruction"));
  memset(&err, 0, sizeof err);
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "denied-instruction", 18, BOXLINT_SEVERITY_OFF, &err),
                   BOXLINT_EINVAL);
  ck_assert_int_eq(err.code, BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "multiple-instructions", 21, I, NULL),
                   BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "invalid-name", 12, BOXLINT_SEVERITY_OFF, NULL),
                   BOXLINT_EINVAL);
  /* Unknown rule, bad severity, NULLs. */
  memset(&err, 0, sizeof err);
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "no-such-rule", 12, W, &err), BOXLINT_EINVAL);
  ck_assert(contains(err.message, "no-such-rule"));
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "sudo-usage", 10, (boxlint_severity)7, NULL),
                   BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_config_set_severity(NULL, "sudo-usage", 10, W, NULL), BOXLINT_EINVAL);
  /* A prefix of a rule id is not the rule. */
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "sudo-usage", 4, BOXLINT_SEVERITY_OFF, NULL),
                   BOXLINT_EINVAL);

  /* The errors stay errors. */
  CMDS(SP("FROM ubuntu"), SP("RUN true\nRUN false"), SP("RUN sudo true"));
  EXPECT("denied-instruction", E, 0, 1, 1, 1, 5, "FROM");
  ck_assert_uint_eq(count_rule("multiple-instructions"), 1);
  EXPECT("sudo-usage", W, 2, 1, 5, 1, 9, "sudo");
}
END_TEST

static boxlint_status add_rule(const char *id, boxlint_severity sev, boxlint_keyword kw,
                               const char *pat, const char *msg, boxlint_error *err) {
  boxlint_user_rule u;
  u.id = (boxlint_span){id, strlen(id)};
  u.severity = sev;
  u.instruction = kw;
  u.pattern = (boxlint_span){pat, strlen(pat)};
  u.message = (boxlint_span){msg, strlen(msg)};
  return boxlint_config_add_rule(CFG, &u, err);
}

/* With every warning and a user rule on, the regular expressions (PCRE2, JIT) and the shell
 * splitter must not read past the end of a command: each input ends right before an unreadable
 * page, and what it ends with is what the rule looks at. */
#define GUARDED(lit)                                                                              \
  do {                                                                                            \
    guarded g_ = guard((lit), sizeof(lit) - 1);                                                   \
    boxlint_span s_ = {g_.p, sizeof(lit) - 1};                                                    \
    run_spans(&s_, 1);                                                                            \
    unguard(&g_);                                                                                 \
  } while (0)

START_TEST(test_guard_page_with_warnings) {
  ck_assert_int_eq(add_rule("tail-word", W, BOXLINT_KW_RUN, "[a-z]+$", "ends with a word", NULL),
                   BOXLINT_OK);
  GUARDED("RUN echo " AWS);
  EXPECT("secret-in-command", W, 0, 1, 10, 1, 30, "AWS access key id");
  GUARDED("RUN git clone https://alice:hunter22@git.example.com/r");
  EXPECT("secret-in-command", W, 0, 1, 29, 1, 37, "password in a URL");
  GUARDED("RUN curl -fsSL https://example.com/install.sh | sh");
  EXPECT("curl-pipe-shell", W, 0, 1, 5, 1, 51, "piped into sh");
  EXPECT("tail-word", W, 0, 1, 49, 1, 51, "ends with a word");
  GUARDED("RUN apt-get update && apt-get install -y curl");
  EXPECT("apt-lists-not-cleaned", W, 0, 1, 5, 1, 19, "apt-get update");
  EXPECT("tail-word", W, 0, 1, 42, 1, 46, NULL);
  GUARDED("RUN <<EOF\nset -e\npip install httpx\nEOF");
  EXPECT("pip-no-cache-dir", W, 0, 3, 1, 3, 12, "pip install");
  EXPECT("tail-word", W, 0, 3, 13, 3, 18, NULL); /* in the heredoc body, before its EOF line */
}
END_TEST

START_TEST(test_user_rule_fires_on_its_instruction) {
  ck_assert_int_eq(add_rule("plain-http", E, BOXLINT_KW_RUN, "curl\\s+http://", "plain http download", NULL),
                   BOXLINT_OK);
  ck_assert_uint_eq(boxlint_config_rule_count(CFG), 1);
  ck_assert_str_eq(boxlint_config_rule_id(CFG, 0), "plain-http");
  ck_assert_ptr_null(boxlint_config_rule_id(CFG, 1));

  CMDS(SP("RUN curl  http://x.example/a -o /a"), SP("LABEL cmd=\"curl http://x\""),
       SP("ENV X=\"curl http://x\""), SP("ONBUILD RUN curl http://z.example"),
       SP("RUN curl https://x.example"));
  const boxlint_diag *d = EXPECT("plain-http", E, 0, 1, 5, 1, 18, "plain http download");
  (void)d;
  EXPECT("plain-http", E, 3, 1, 13, 1, 25, "plain http download");
  ck_assert_uint_eq(count_rule("plain-http"), 2);
  TOTAL(2);

  /* Continuations are joined and a comment line inside is dropped before matching. */
  CMD("RUN curl \\\n# http://nope\n  http://x.example/a");
  ck_assert_uint_eq(count_rule("plain-http"), 1);
  /* One report per rule and command. */
  CMD("RUN curl http://a && curl http://b");
  ck_assert_uint_eq(count_rule("plain-http"), 1);
  EXPECT("plain-http", E, 0, 1, 5, 1, 17, "plain http");
}
END_TEST

START_TEST(test_user_rule_any_instruction_and_heredoc) {
  ck_assert_int_eq(add_rule("no-maintainer", I, BOXLINT_KW_NONE, "maintainer", "", NULL), BOXLINT_OK);
  CMDS(SP("LABEL maintainer=me"), SP("RUN echo maintainer"), SP("ENV X=1"),
       SP("RUN cat <<EOF > /etc/motd\nour maintainer is me\nEOF"));
  EXPECT("no-maintainer", I, 0, 1, 7, 1, 17, "no-maintainer"); /* empty message: the id */
  EXPECT("no-maintainer", I, 1, 1, 10, 1, 20, "no-maintainer");
  /* the match inside a heredoc body, at its body position */
  EXPECT("no-maintainer", I, 3, 2, 5, 2, 15, "no-maintainer");
  TOTAL(3);

  /* Its severity can be changed, and it can be switched off, like a built-in warning. */
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "no-maintainer", 13, E, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_config_get_severity(CFG, "no-maintainer", 13, W), E);
  CMD("LABEL maintainer=me");
  EXPECT("no-maintainer", E, 0, 1, 7, 1, 17, "no-maintainer");
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "no-maintainer", 13, BOXLINT_SEVERITY_OFF, NULL),
                   BOXLINT_OK);
  CMD("LABEL maintainer=me");
  TOTAL(0);
}
END_TEST

START_TEST(test_user_rule_compile_errors) {
  static const struct {
    const char *pat;
    size_t off;
  } bad[] = {{"ab(c", 4}, {"a)b", 1}, {"[z-a]", 3}, {"x{2,1}", 5}, {"abc\\", 4}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    boxlint_error err;
    memset(&err, 0, sizeof err);
    ck_assert_int_eq(add_rule("bad", W, BOXLINT_KW_RUN, bad[i].pat, "m", &err), BOXLINT_EREGEX);
    ck_assert_int_eq(err.code, BOXLINT_EREGEX);
    ck_assert_msg(err.offset == bad[i].off, "%s: offset %zu, want %zu", bad[i].pat, err.offset,
                  bad[i].off);
    ck_assert(err.message[0] != 0);
  }
  ck_assert_uint_eq(boxlint_config_rule_count(CFG), 0);
  /* NULL err is allowed. */
  ck_assert_int_eq(add_rule("bad", W, BOXLINT_KW_RUN, "(", "m", NULL), BOXLINT_EREGEX);
  /* The config still works. */
  CMD("RUN sudo true");
  EXPECT("sudo-usage", W, 0, 1, 5, 1, 9, "sudo");
}
END_TEST

START_TEST(test_user_rule_bad_ids) {
  boxlint_error err;
  ck_assert_int_eq(add_rule("mine", W, BOXLINT_KW_RUN, "x", "m", NULL), BOXLINT_OK);
  memset(&err, 0, sizeof err);
  ck_assert_int_eq(add_rule("mine", I, BOXLINT_KW_ENV, "y", "m", &err), BOXLINT_EINVAL);
  ck_assert(contains(err.message, "mine"));
  memset(&err, 0, sizeof err);
  ck_assert_int_eq(add_rule("sudo-usage", W, BOXLINT_KW_RUN, "x", "m", &err), BOXLINT_EINVAL);
  ck_assert(contains(err.message, "sudo-usage"));
  ck_assert_int_eq(add_rule("denied-instruction", W, BOXLINT_KW_RUN, "x", "m", NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(add_rule("regex-limit", W, BOXLINT_KW_RUN, "x", "m", NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(add_rule("", W, BOXLINT_KW_RUN, "x", "m", NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(add_rule("Upper", W, BOXLINT_KW_RUN, "x", "m", NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(add_rule("has space", W, BOXLINT_KW_RUN, "x", "m", NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(add_rule("off-rule", BOXLINT_SEVERITY_OFF, BOXLINT_KW_RUN, "x", "m", NULL),
                   BOXLINT_EINVAL);
  ck_assert_uint_eq(boxlint_config_rule_count(CFG), 1);
}
END_TEST

START_TEST(test_user_rule_match_limit) {
  /* Nested quantifiers over a long run of a's that ends in b: exponential backtracking. */
  ck_assert_int_eq(add_rule("catastrophic", W, BOXLINT_KW_RUN, "(a+)+$", "aaa", NULL), BOXLINT_OK);
  boxlint_config_set_limits(CFG, 1000, 0);
  char cmd[200];
  memcpy(cmd, "RUN ", 4);
  memset(cmd + 4, 'a', 150);
  cmd[154] = 'b';
  boxlint_span s = {cmd, 155};
  run_spans(&s, 1);
  const boxlint_diag *d = EXPECT("regex-limit", W, 0, 1, 1, 1, 156, "catastrophic");
  ck_assert(contains(d->message, "not checked"));
  NONE("catastrophic");
  TOTAL(1);

  /* Anchored at the start of a heredoc body (bodies are matched on their own). */
  ck_assert_int_eq(add_rule("anchored", W, BOXLINT_KW_RUN, "^(a+)+$", "aaa", NULL), BOXLINT_OK);
  char hd[300];
  size_t n = 0;
  memcpy(hd, "RUN cat <<EOF > /x\n", 19);
  n = 19;
  memset(hd + n, 'a', 150);
  n += 150;
  memcpy(hd + n, "b\nEOF", 5);
  n += 5;
  boxlint_span h = {hd, n};
  run_spans(&h, 1);
  ck_assert_uint_eq(count_rule("regex-limit"), 2); /* one per rule */
  NONE("catastrophic");
  NONE("anchored");

  /* A match that succeeds is still reported under the limit. */
  CMD("RUN aaaa");
  EXPECT("catastrophic", W, 0, 1, 5, 1, 9, "aaa");
}
END_TEST

START_TEST(test_user_rule_default_limits_terminate) {
  /* With the default limits the same pattern must hit the limit rather than run for ages. */
  ck_assert_int_eq(add_rule("catastrophic", W, BOXLINT_KW_NONE, "(a+)+$", "aaa", NULL), BOXLINT_OK);
  char cmd[4000];
  memcpy(cmd, "RUN ", 4);
  memset(cmd + 4, 'a', 3000);
  cmd[3004] = 'b';
  boxlint_span s = {cmd, 3005};
  run_spans(&s, 1);
  EXPECT("regex-limit", W, 0, 1, 1, 1, 3006, "catastrophic");
  NONE("catastrophic");
}
END_TEST

/*==============================================================================================
 * Fragments: suppressions
 *============================================================================================*/

START_TEST(test_suppression) {
  FRAG("# boxlint ignore=sudo-usage,apt-get-missing-yes -- legacy base\nRUN sudo apt-get install curl\n");
  TOTAL(0);
  /* Only the next instruction. */
  FRAG("# boxlint ignore=sudo-usage -- x\nRUN sudo true\nRUN sudo false\n");
  EXPECT("sudo-usage", W, 1, 3, 5, 3, 9, "sudo");
  TOTAL(1);
  /* Only the named rules. */
  FRAG("# boxlint ignore=sudo-usage -- x\nRUN sudo pip install x\n");
  EXPECT("pip-no-cache-dir", W, 0, 2, 10, 2, 21, "pip install");
  TOTAL(1);
  /* A multi-line instruction after the comment. */
  FRAG("RUN true\n# boxlint ignore=apt-lists-not-cleaned -- cache mount in CI\nRUN apt-get update && \\\n    apt-get install -y curl\n");
  TOTAL(0);
}
END_TEST

/* One syntax for every file kind (report/suppress.c): `# boxlint: ignore=` as in Python files,
 * the older `# boxlint ignore=` the same; every comment line right before an instruction
 * applies to it; a directive that applies to nothing or does not parse is reported at the part
 * at fault, never passed over. */
START_TEST(test_suppression_syntax) {
  FRAG("# boxlint: ignore=sudo-usage -- x\nRUN sudo true\n");
  TOTAL(0);
  FRAG("# boxlint: ignore = sudo-usage,apt-get-missing-yes\r\nRUN sudo apt-get install curl\r\n");
  TOTAL(0);
  /* the comment lines right before the instruction, each spelling */
  FRAG("# boxlint: ignore=sudo-usage\n# why: the base has sudo\n# boxlint ignore=pip-no-cache-dir\n"
       "RUN sudo pip install x\n");
  TOTAL(0);
  /* unused, the new spelling: at the id */
  FRAG("# boxlint: ignore=curl-pipe-shell -- x\nRUN pip install x\n");
  EXPECT("pip-no-cache-dir", W, 0, 2, 5, 2, 16, "pip install");
  const boxlint_diag *d = EXPECT("unused-suppression", W, 0, 1, 19, 1, 34,
                                 "the suppression of curl-pipe-shell suppresses nothing on the "
                                 "next instruction");
  HINT(d, "remove curl-pipe-shell from the boxlint ignore comment");
  TOTAL(2);
  /* a blank line after it, or the end of the file: it applies to nothing, and says so */
  FRAG("# boxlint: ignore=sudo-usage\n\nRUN sudo true\n");
  EXPECT("sudo-usage", W, 0, 3, 5, 3, 9, "sudo");
  EXPECT("unused-suppression", W, 0, 1, 19, 1, 29, "a blank line or the end of the file follows");
  TOTAL(2);
  FRAG("RUN true\nRUN true\n# boxlint ignore=sudo-usage\n");
  EXPECT("unused-suppression", W, 1, 3, 18, 3, 28, "the suppression of sudo-usage suppresses "
         "nothing (a suppression applies to the instruction right after its comment lines");
  TOTAL(1);
  /* malformed: reported at the part at fault; it suppresses nothing */
  FRAG("# boxlint: ignroe=sudo-usage\nRUN sudo true\n");
  EXPECT("sudo-usage", W, 0, 2, 5, 2, 9, "sudo");
  d = EXPECT("unused-suppression", W, 0, 1, 12, 1, 18,
             "malformed boxlint suppression comment, it suppresses nothing: unknown directive "
             "'ignroe' (the directive is 'ignore=')");
  HINT(d, "write '# boxlint: ignore=rule-a,rule-b -- reason'");
  TOTAL(2);
  FRAG("# boxlint: ignore\nRUN true\n");
  EXPECT("unused-suppression", W, 0, 1, 12, 1, 18, "'ignore' takes '=' and the rule ids");
  TOTAL(1);
  FRAG("# boxlint ignore=\nRUN true\n");
  EXPECT("unused-suppression", W, 0, 1, 11, 1, 18, "no rule id after 'ignore='");
  TOTAL(1);
  FRAG("# boxlint ignore=sudo_usage,Sudo\nRUN true\n");
  EXPECT("unused-suppression", W, 0, 1, 29, 1, 33,
         "'Sudo' is not a rule id (ids hold a-z, 0-9, '-', '_' and '.')");
  TOTAL(1);
  FRAG("# boxlint-ignore=sudo-usage\nRUN sudo true\n");
  EXPECT("unused-suppression", W, 0, 1, 3, 1, 28,
         "'boxlint-ignore=sudo-usage' is not a boxlint directive");
  TOTAL(2);
  FRAG("# boxlint: ignore=sudo-usage because\nRUN sudo true\n");
  EXPECT("unused-suppression", W, 0, 1, 30, 1, 37, "'because' after the rule ids");
  TOTAL(2);
  /* not directives: prose that names boxlint */
  FRAG("# boxlint checks this file\n# boxlinter: ignore=x\nRUN true\n");
  TOTAL(0);
  /* the config's severity of unused-suppression applies to all of these */
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "unused-suppression", 18,
                                               BOXLINT_SEVERITY_ERROR, NULL), BOXLINT_OK);
  FRAG("# boxlint: ignroe=x\nRUN true\n");
  EXPECT("unused-suppression", E, 0, 1, 12, 1, 18, "unknown directive");
  /* without a config no warning runs: nothing is reported */
  OPTS.config = NULL;
  FRAG("# boxlint: ignroe=x\nRUN true\n");
  TOTAL(0);
}
END_TEST

START_TEST(test_unused_suppression) {
  FRAG("# boxlint ignore=curl-pipe-shell -- x\nRUN pip install x\n");
  EXPECT("pip-no-cache-dir", W, 0, 2, 5, 2, 16, "pip install");
  const boxlint_diag *d = EXPECT("unused-suppression", W, 0, 1, 18, 1, 33, "curl-pipe-shell");
  ck_assert(contains(d->message, "suppresses nothing"));
  ck_assert_ptr_nonnull(d->hint);
  TOTAL(2);
  /* An unknown name suppresses nothing either. */
  FRAG("RUN true\n# boxlint ignore=no-such-rule -- x\nRUN true\n");
  EXPECT("unused-suppression", W, 1, 2, 18, 2, 30, "no-such-rule");
  TOTAL(1);
  /* An error cannot be suppressed: it stays, and the suppression is reported. */
  FRAG("# boxlint ignore=denied-instruction -- no\nFROM ubuntu:24.04\n");
  EXPECT("denied-instruction", E, 0, 2, 1, 2, 5, "FROM");
  d = EXPECT("unused-suppression", W, 0, 1, 18, 1, 36, "denied-instruction");
  ck_assert(contains(d->message, "error"));
  TOTAL(2);
  /* Mixed: the used one is silent, the error and the stale one are reported. */
  FRAG("# boxlint ignore=pip-no-cache-dir,denied-instruction,curl-pipe-shell -- x\nRUN pip install x\n");
  EXPECT("unused-suppression", W, 0, 1, 35, 1, 53, "denied-instruction");
  EXPECT("unused-suppression", W, 0, 1, 54, 1, 69, "curl-pipe-shell");
  TOTAL(2);
  /* unused-suppression itself can be switched off. */
  ck_assert_int_eq(boxlint_config_set_severity(CFG, "unused-suppression", 18, BOXLINT_SEVERITY_OFF, NULL),
                   BOXLINT_OK);
  FRAG("# boxlint ignore=curl-pipe-shell -- x\nRUN true\n");
  TOTAL(0);
}
END_TEST

void warnings_add_config(Suite *s) {
  TCase *tc;

  tc = tcase_create("config");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_severity_overrides);
  tcase_add_test(tc, test_errors_cannot_be_lowered);
  tcase_add_test(tc, test_guard_page_with_warnings);
  tcase_add_test(tc, test_user_rule_fires_on_its_instruction);
  tcase_add_test(tc, test_user_rule_any_instruction_and_heredoc);
  tcase_add_test(tc, test_user_rule_compile_errors);
  tcase_add_test(tc, test_user_rule_bad_ids);
  tcase_add_test(tc, test_user_rule_match_limit);
  tcase_add_test(tc, test_user_rule_default_limits_terminate);
  suite_add_tcase(s, tc);

  tc = tcase_create("fragments");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_suppression);
  tcase_add_test(tc, test_unused_suppression);
  tcase_add_test(tc, test_suppression_syntax);
  suite_add_tcase(s, tc);
}

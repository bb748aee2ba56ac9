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

static void setup(void) {
  ck_assert_int_eq(boxlint_report_new(&R, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_config_new(&CFG, NULL), BOXLINT_OK);
  boxlint_options_init(&OPTS);
  OPTS.config = CFG;
}

static void teardown(void) {
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

static void run_spans(const boxlint_span *c, size_t n) {
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
static void run_frag(const char *p, size_t n) {
  boxlint_report_clear(R);
  ck_assert_int_eq(boxlint_check_fragment(R, p, n, &OPTS), BOXLINT_OK);
}

static void dump_report(void) {
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    fprintf(stderr, "  [%zu] %s sev=%d cmd=%d %u:%u-%u:%u off=%zu-%zu msg=\"%s\" hint=\"%s\"\n", i,
            d->rule, (int)d->severity, (int)d->command, d->line, d->column, d->end_line,
            d->end_column, d->offset, d->end_offset, d->message, d->hint ? d->hint : "(null)");
  }
}

static int contains(const char *hay, const char *needle) {
  return needle == NULL || (hay != NULL && strstr(hay, needle) != NULL);
}

static size_t count_rule(const char *rule) {
  size_t n = 0;
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++)
    n += strcmp(boxlint_report_diag(R, i)->rule, rule) == 0;
  return n;
}

/* Assert a diagnostic of `rule` on command `cmd` starting at l:c exists, ends at el:ec, has
 * severity `sev` and a message containing `msg`. */
#define EXPECT(rule, sev, cmd, l, c, el, ec, msg) expect_at(__LINE__, rule, sev, cmd, l, c, el, ec, msg)
static const boxlint_diag *expect_at(int at, const char *rule, boxlint_severity sev, int32_t cmd,
                                     uint32_t l, uint32_t c, uint32_t el, uint32_t ec,
                                     const char *msg) {
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
static void expect_none_at(int at, const char *rule) {
  if (count_rule(rule)) dump_report();
  ck_assert_msg(count_rule(rule) == 0, "line %d: unexpected %s", at, rule);
}

/* Assert the report holds exactly n diagnostics. */
#define TOTAL(n) expect_total_at(__LINE__, n)
static void expect_total_at(int at, size_t n) {
  size_t got = boxlint_report_diag_count(R);
  if (got != n) dump_report();
  ck_assert_msg(got == n, "line %d: %zu diagnostics, want %zu", at, got, n);
}

/* Assert the report has no diagnostic below error (no warning, no info). */
#define NO_WARNINGS() no_warnings_at(__LINE__)
static void no_warnings_at(int at) {
  size_t n = boxlint_report_diag_count(R) - boxlint_report_count_at_least(R, E);
  if (n) dump_report();
  ck_assert_msg(n == 0, "line %d: %zu warnings, want none", at, n);
}

/* Assert no diagnostic prints `secret` in its message, hint or fix. */
#define NO_LEAK(secret) no_leak_at(__LINE__, secret)
static void no_leak_at(int at, const char *secret) {
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

/*==============================================================================================
 * docs/design.md §2.2: final-user-not-root
 *============================================================================================*/

START_TEST(test_final_user_fires) {
  CMDS(SP("RUN useradd -m app"), SP("USER app"), SP("RUN id"));
  const boxlint_diag *d = EXPECT("final-user-not-root", W, 1, 1, 6, 1, 9, "USER app");
  HINT(d, "USER root");
  TOTAL(1);
  ck_assert_uint_eq(d->offset, 5);
  ck_assert_uint_eq(d->end_offset, 8);

  /* The last USER counts, with a group. */
  CMDS(SP("USER root:root"), SP("USER app:app"));
  EXPECT("final-user-not-root", W, 1, 1, 6, 1, 13, "app:app");
  TOTAL(1);

  /* A user id that is not 0, and root with a non-root... user first: 1000:0. */
  CMDS(SP("USER 1000:0"));
  EXPECT("final-user-not-root", W, 0, 1, 6, 1, 12, "1000:0");

  /* Lower-case keyword; continuation puts the user on line 2. */
  CMDS(SP("user app"));
  EXPECT("final-user-not-root", W, 0, 1, 6, 1, 9, "app");
  CMDS(SP("USER \\\n  app"));
  EXPECT("final-user-not-root", W, 0, 2, 3, 2, 6, "app");
  TOTAL(1);
}
END_TEST

START_TEST(test_final_user_not_fired) {
  /* Back to root by name or by id, with or without group. */
  CMDS(SP("USER app"), SP("RUN id"), SP("USER root"));
  TOTAL(0);
  CMDS(SP("USER app"), SP("USER 0:0"));
  TOTAL(0);
  CMDS(SP("USER app"), SP("USER 0"));
  TOTAL(0);
  CMDS(SP("USER app"), SP("USER root:root"));
  TOTAL(0);
  CMDS(SP("USER app"), SP("USER root   "));
  TOTAL(0);
  /* A variable: boxlint cannot know the user, so it does not guess. */
  CMDS(SP("USER app"), SP("USER $U"));
  TOTAL(0);
  CMDS(SP("USER ${APP_USER}"));
  TOTAL(0);
  /* No USER at all, and USER only as text. */
  CMDS(SP("RUN useradd -m app && echo USER app"), SP("LABEL user=app"));
  TOTAL(0);
}
END_TEST

START_TEST(test_final_user_fragment) {
  FRAG("RUN true\nUSER app\nRUN echo hi\n");
  EXPECT("final-user-not-root", W, 1, 2, 6, 2, 9, "USER app");
  TOTAL(1);
  /* A FROM (a fragment that is a whole Dockerfile) starts a new stage: the earlier USER no longer
   * decides the final user. FROM itself stays a denied-instruction error. */
  FRAG("USER app\nFROM ubuntu:24.04\nRUN true\n");
  NONE("final-user-not-root");
  EXPECT("denied-instruction", E, 1, 2, 1, 2, 5, "FROM");
  /* ... but a USER after the FROM counts. */
  FRAG("USER root\nFROM ubuntu:24.04\nUSER app\n");
  EXPECT("final-user-not-root", W, 2, 3, 6, 3, 9, "app");
}
END_TEST

/*==============================================================================================
 * docs/design.md §2.2: stopsignal-overrides-systemd
 *============================================================================================*/

START_TEST(test_stopsignal) {
  CMD("STOPSIGNAL SIGTERM");
  const boxlint_diag *d = EXPECT("stopsignal-overrides-systemd", W, 0, 1, 1, 1, 19, "SIGTERM");
  ck_assert(contains(d->message, "SIGRTMIN+3"));
  ck_assert_ptr_nonnull(d->hint);
  TOTAL(1);
  CMDS(SP("RUN true"), SP("STOPSIGNAL 9"));
  EXPECT("stopsignal-overrides-systemd", W, 1, 1, 1, 1, 13, "9");
  CMD("stopsignal SIGKILL");
  EXPECT("stopsignal-overrides-systemd", W, 0, 1, 1, 1, 19, "SIGKILL");

  /* What systemd expects already: by name and by number (SIGRTMIN+3 is 37 on Linux). */
  CMD("STOPSIGNAL SIGRTMIN+3");
  TOTAL(0);
  CMD("STOPSIGNAL 37");
  TOTAL(0);
  /* Text in another instruction. */
  CMD("RUN echo STOPSIGNAL SIGTERM");
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * docs/design.md §2.3: apt-get-missing-yes
 *============================================================================================*/

START_TEST(test_apt_missing_yes_fires) {
  CMD("RUN apt-get update && apt-get install curl && rm -rf /var/lib/apt/lists/*");
  const boxlint_diag *d = EXPECT("apt-get-missing-yes", W, 0, 1, 23, 1, 38, "without -y");
  HINT(d, "-y");
  TOTAL(1);

  CMD("RUN apt install curl");
  EXPECT("apt-get-missing-yes", W, 0, 1, 5, 1, 16, "apt without -y");
  CMD("RUN /usr/bin/apt-get install --no-install-recommends curl");
  EXPECT("apt-get-missing-yes", W, 0, 1, 5, 1, 29, "without -y");
  CMD("RUN apt-get -q install curl");
  EXPECT("apt-get-missing-yes", W, 0, 1, 5, 1, 23, "without -y");
  CMD("RUN apt-get remove curl");
  EXPECT("apt-get-missing-yes", W, 0, 1, 5, 1, 19, "without -y");
  /* Env assignments and wrappers in front. */
  CMD("RUN DEBIAN_FRONTEND=noninteractive apt-get install tzdata");
  EXPECT("apt-get-missing-yes", W, 0, 1, 36, 1, 51, "without -y");
  /* Second command of a continuation; the commented line in between is not read. */
  CMD("RUN apt-get update && \\\n # apt-get install foo\n apt-get install x && rm -rf /var/lib/apt/lists/*");
  EXPECT("apt-get-missing-yes", W, 0, 3, 2, 3, 17, "without -y");
  TOTAL(1);
  /* Several commands: each on its own index. */
  CMDS(SP("RUN true"), SP("RUN apt-get install a"), SP("RUN apt-get install -y b"));
  EXPECT("apt-get-missing-yes", W, 1, 1, 5, 1, 20, "without -y");
  TOTAL(1);
}
END_TEST

START_TEST(test_apt_missing_yes_heredoc_script) {
  /* RUN <<EOF: the body IS the script, so the rule applies there, at body positions. */
  CMD("RUN <<EOF\napt-get install curl\nEOF");
  EXPECT("apt-get-missing-yes", W, 0, 2, 1, 2, 16, "without -y");
  TOTAL(1);
  CMD("RUN bash <<EOF\nset -e\napt-get install curl\nEOF");
  EXPECT("apt-get-missing-yes", W, 0, 3, 1, 3, 16, "without -y");
  CMD("RUN <<EOF\napt-get install -y curl\nEOF");
  TOTAL(0);
}
END_TEST

START_TEST(test_apt_missing_yes_not_fired) {
  static const boxlint_span ok[] = {
      /* quoted text and arguments are not commands */
      SP("RUN echo \"apt-get install foo\""),
      SP("RUN echo 'apt-get install foo'"),
      SP("RUN echo apt-get install foo"),
      /* a comment inside a continuation */
      SP("RUN apt-get update && \\\n # apt-get install foo\n apt-get install -y x && rm -rf /var/lib/apt/lists/*"),
      /* heredoc bodies that are data */
      SP("RUN cat <<EOF > /etc/notes\napt-get install foo\nEOF"),
      SP("RUN python3 <<EOF\nimport os  # apt-get install foo\nEOF"),
      /* -y spelled otherwise */
      SP("RUN apt-get install --yes curl"),
      SP("RUN apt-get install --assume-yes curl"),
      SP("RUN apt-get -qy install curl"),
      SP("RUN apt-get -yq install curl"),
      SP("RUN apt-get -qq install curl"),
      SP("RUN apt-get install curl git -y"),
      SP("RUN apt-get install curl \\\n    git \\\n    -y"),
      SP("RUN apt-get -o APT::Get::Assume-Yes=true install curl"),
      SP("RUN apt-get --option=APT::Get::Assume-Yes=true install curl"),
      SP("RUN apt install -y curl"),
      /* not an install */
      SP("RUN apt-get update && rm -rf /var/lib/apt/lists/*"),
      SP("RUN apt-cache policy curl"),
      SP("RUN dpkg -i /tmp/x.deb"),
      SP("RUN apt-get download curl"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  NONE("apt-get-missing-yes");
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * docs/design.md §2.3: pip-no-cache-dir
 *============================================================================================*/

START_TEST(test_pip_fires) {
  CMD("RUN pip install torch");
  const boxlint_diag *d = EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 16, "pip install");
  HINT(d, "--no-cache-dir");
  TOTAL(1);
  CMD("RUN pip3 install torch");
  EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 17, "pip install");
  CMD("RUN python3 -m pip install torch");
  EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 27, "pip install");
  CMD("RUN python -m pip install -U pip");
  EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 26, "pip install");
  CMD("RUN /opt/conda/bin/pip install numpy");
  EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 31, "pip install");
  CMD("RUN pip3.11 install numpy");
  EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 20, "pip install");
  CMD("RUN pip --disable-pip-version-check install numpy");
  EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 44, "pip install");
  CMD("RUN apt-get install -y python3-pip && \\\n    pip install \\\n      torch");
  EXPECT("pip-no-cache-dir", W, 0, 2, 5, 2, 16, "pip install");
  TOTAL(1);
  /* In a heredoc script. */
  CMD("RUN <<EOF\npip install torch\nEOF");
  EXPECT("pip-no-cache-dir", W, 0, 2, 1, 2, 12, "pip install");
  /* ENV PIP_NO_CACHE_DIR after the install does not help the earlier one. */
  CMDS(SP("RUN pip install a"), SP("ENV PIP_NO_CACHE_DIR=1"), SP("RUN pip install b"));
  EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 16, "pip install");
  TOTAL(1);
}
END_TEST

START_TEST(test_pip_not_fired) {
  static const boxlint_span ok[] = {
      SP("RUN pip install --no-cache-dir torch"),
      SP("RUN pip install torch --no-cache-dir"),
      SP("RUN pip --no-cache-dir install torch"),
      SP("RUN python3 -m pip install --no-cache-dir torch"),
      SP("RUN pip3 install --no-cache-dir -r https://example.com/req.txt"),
      SP("RUN echo \"pip install torch\""),
      SP("RUN pip download torch"),
      SP("RUN pip uninstall -y torch"),
      SP("RUN pip list"),
      SP("RUN cat <<EOF > /tmp/README\npip install torch\nEOF"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
  /* ENV PIP_NO_CACHE_DIR earlier in the template: pip reads it, no cache. Both ENV forms. */
  CMDS(SP("ENV PIP_NO_CACHE_DIR=1"), SP("RUN pip install torch"), SP("RUN python3 -m pip install x"));
  TOTAL(0);
  CMDS(SP("ENV PIP_NO_CACHE_DIR 1"), SP("RUN pip3 install torch"));
  TOTAL(0);
  CMDS(SP("ENV A=1 PIP_NO_CACHE_DIR=off"), SP("RUN pip install torch"));
  TOTAL(0);
}
END_TEST

START_TEST(test_pip_env_reset_by_from) {
  FRAG("ENV PIP_NO_CACHE_DIR=1\nFROM python:3.12\nRUN pip install torch\n");
  EXPECT("pip-no-cache-dir", W, 2, 3, 5, 3, 16, "pip install");
  FRAG("ENV PIP_NO_CACHE_DIR=1\nRUN pip install torch\n");
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * docs/design.md §2.3: apt-lists-not-cleaned
 *============================================================================================*/

START_TEST(test_apt_lists_fires) {
  CMD("RUN apt-get update && apt-get install -y curl");
  const boxlint_diag *d = EXPECT("apt-lists-not-cleaned", W, 0, 1, 5, 1, 19, "apt-get update");
  HINT(d, "rm -rf /var/lib/apt/lists/*");
  TOTAL(1);
  CMD("RUN apt update && apt install -y curl");
  EXPECT("apt-lists-not-cleaned", W, 0, 1, 5, 1, 15, "update");
  /* apt-get clean keeps the lists. */
  CMD("RUN apt-get update && apt-get install -y curl && apt-get clean");
  EXPECT("apt-lists-not-cleaned", W, 0, 1, 5, 1, 19, "update");
  /* Removing them in a later RUN does not take them out of this layer. */
  CMDS(SP("RUN apt-get update && apt-get install -y curl"), SP("RUN rm -rf /var/lib/apt/lists/*"));
  EXPECT("apt-lists-not-cleaned", W, 0, 1, 5, 1, 19, "update");
  TOTAL(1);
  /* A cache mount of something else does not help. */
  CMD("RUN --mount=type=cache,target=/root/.cache apt-get update && apt-get install -y curl");
  EXPECT("apt-lists-not-cleaned", W, 0, 1, 44, 1, 58, "update");
  /* Continuation: positions on line 2. */
  CMD("RUN set -eux; \\\n    apt-get update; \\\n    apt-get install -y curl");
  EXPECT("apt-lists-not-cleaned", W, 0, 2, 5, 2, 19, "update");
  /* A heredoc script. */
  CMD("RUN <<EOF\napt-get update\napt-get install -y curl\nEOF");
  ck_assert_uint_eq(count_rule("apt-lists-not-cleaned"), 1);
  TOTAL(1);
}
END_TEST

START_TEST(test_apt_lists_not_fired) {
  static const boxlint_span ok[] = {
      SP("RUN apt-get update && apt-get install -y curl && rm -rf /var/lib/apt/lists/*"),
      SP("RUN apt-get update && apt-get install -y curl && apt-get dist-clean"),
      SP("RUN apt-get update \\\n && apt-get install -y curl \\\n && rm -rf /var/lib/apt/lists/* /tmp/*"),
      SP("RUN --mount=type=cache,target=/var/lib/apt/lists apt-get update && apt-get install -y curl"),
      SP("RUN --mount=type=cache,target=/var/lib/apt/lists,sharing=locked \\\n    apt-get update && apt-get install -y curl"),
      SP("RUN apt-get install -y curl"), /* no update: no lists downloaded here */
      SP("RUN echo \"apt-get update\""),
      SP("RUN cat <<EOF > /etc/notes\napt-get update\nEOF"),
      SP("RUN <<EOF\napt-get update\napt-get install -y curl\nrm -rf /var/lib/apt/lists/*\nEOF"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * apt-get-upgrade (boxlint's own)
 *============================================================================================*/

START_TEST(test_apt_upgrade) {
  CMD("RUN apt-get update && apt-get upgrade -y && rm -rf /var/lib/apt/lists/*");
  const boxlint_diag *d = EXPECT("apt-get-upgrade", W, 0, 1, 23, 1, 38, "upgrades every package");
  ck_assert_ptr_nonnull(d->hint);
  TOTAL(1);
  CMD("RUN apt-get -y dist-upgrade");
  EXPECT("apt-get-upgrade", W, 0, 1, 5, 1, 28, "apt-get");
  TOTAL(1);
  CMD("RUN apt full-upgrade -y");
  EXPECT("apt-get-upgrade", W, 0, 1, 5, 1, 21, "apt");
  /* Without -y it is also missing -y. */
  CMD("RUN apt-get upgrade");
  EXPECT("apt-get-upgrade", W, 0, 1, 5, 1, 20, "upgrades");
  EXPECT("apt-get-missing-yes", W, 0, 1, 5, 1, 20, "without -y");
  TOTAL(2);

  static const boxlint_span ok[] = {
      SP("RUN apt-get install -y unattended-upgrades"),
      SP("RUN apt-get install -y --only-upgrade curl"),
      SP("RUN echo \"apt-get upgrade -y\""),
      SP("RUN pip install --no-cache-dir --upgrade pip"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * docs/design.md §2.3: curl-pipe-shell
 *============================================================================================*/

START_TEST(test_curl_pipe_shell) {
  CMD("RUN curl -fsSL https://x.example/i.sh | sh");
  const boxlint_diag *d = EXPECT("curl-pipe-shell", W, 0, 1, 5, 1, 43, "piped into sh");
  HINT(d, "sha256sum");
  TOTAL(1);
  CMD("RUN curl -fsSL https://x.example/i.sh | bash -s -- --yes");
  EXPECT("curl-pipe-shell", W, 0, 1, 5, 1, 45, "bash");
  CMD("RUN curl -fsSL https://x.example/i.sh|sh");
  EXPECT("curl-pipe-shell", W, 0, 1, 5, 1, 41, "sh");
  CMD("RUN curl -fsSL https://x.example/i.py | python3");
  EXPECT("curl-pipe-shell", W, 0, 1, 5, 1, 48, "python3");
  CMD("RUN wget -qO- https://x.example/i.sh | sudo -E bash -");
  EXPECT("curl-pipe-shell", W, 0, 1, 5, 1, 52, "bash");
  EXPECT("sudo-usage", W, 0, 1, 40, 1, 44, "sudo");
  TOTAL(2);
  /* Continuation, and a later stage of an && list. */
  CMD("RUN apt-get install -y curl && \\\n    curl -fsSL https://x.example/i.sh \\\n    | bash");
  EXPECT("curl-pipe-shell", W, 0, 2, 5, 3, 11, "bash");
  /* A heredoc script. */
  CMD("RUN <<EOF\ncurl -fsSL https://x.example/i.sh | sh\nEOF");
  EXPECT("curl-pipe-shell", W, 0, 2, 1, 2, 39, "sh");

  static const boxlint_span ok[] = {
      SP("RUN curl -fsSL https://x.example/a.tgz | tar -xz -C /opt"),
      SP("RUN curl -fsSLo /tmp/i.sh https://x.example/i.sh && sh /tmp/i.sh"),
      SP("RUN echo \"curl -fsSL https://x.example/i.sh | sh\""),
      SP("RUN curl -fsSL https://x.example/key.asc | gpg --dearmor -o /usr/share/keyrings/x.gpg"),
      SP("RUN cat <<EOF > /opt/README\ncurl -fsSL https://x.example/i.sh | sh\nEOF"),
      SP("RUN curl -fsSL https://x.example/i.sh -o i.sh; sh i.sh"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * docs/design.md §2.3: sudo-usage
 *============================================================================================*/

START_TEST(test_sudo_usage) {
  CMD("RUN sudo apt-get install -y curl");
  const boxlint_diag *d = EXPECT("sudo-usage", W, 0, 1, 5, 1, 9, "sudo");
  ck_assert(contains(d->message, "root"));
  TOTAL(1);
  CMD("RUN /usr/bin/sudo -u app pip install --no-cache-dir x");
  EXPECT("sudo-usage", W, 0, 1, 5, 1, 18, "sudo");
  TOTAL(1);
  CMD("RUN true && \\\n  sudo systemctl enable redis");
  EXPECT("sudo-usage", W, 0, 2, 3, 2, 7, "sudo");
  TOTAL(1);
  /* sudo does not hide the command behind it from the other rules. */
  CMD("RUN sudo pip install x");
  EXPECT("sudo-usage", W, 0, 1, 5, 1, 9, "sudo");
  EXPECT("pip-no-cache-dir", W, 0, 1, 10, 1, 21, "pip install");
  TOTAL(2);

  static const boxlint_span ok[] = {
      SP("RUN apt-get install -y sudo"),
      SP("RUN usermod -aG sudo app"),
      SP("RUN echo \"%sudo ALL=(ALL) NOPASSWD:ALL\" >> /etc/sudoers"),
      SP("RUN echo sudo"),
      SP("RUN cat <<EOF > /etc/sudoers.d/app\napp ALL=(ALL) NOPASSWD: ALL\nEOF"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * systemctl-in-build (boxlint's own)
 *============================================================================================*/

START_TEST(test_systemctl_in_build) {
  CMD("RUN systemctl start redis-server");
  const boxlint_diag *d = EXPECT("systemctl-in-build", W, 0, 1, 5, 1, 20, "systemctl start");
  HINT(d, "systemctl enable");
  TOTAL(1);
  CMD("RUN systemctl daemon-reload");
  EXPECT("systemctl-in-build", W, 0, 1, 5, 1, 28, "daemon-reload");
  CMD("RUN systemctl --quiet restart jupyter");
  EXPECT("systemctl-in-build", W, 0, 1, 5, 1, 30, "restart");
  CMD("RUN systemctl enable redis && systemctl status redis");
  EXPECT("systemctl-in-build", W, 0, 1, 31, 1, 47, "status");
  TOTAL(1);

  static const boxlint_span ok[] = {
      SP("RUN systemctl enable redis-server"),
      SP("RUN systemctl disable apt-daily.timer && systemctl mask apt-daily.service"),
      SP("RUN echo systemctl start redis"),
      SP("RUN echo \"systemctl restart x\" > /tmp/x"),
      SP("RUN cat <<EOF > /usr/local/bin/restart-jupyter\nsystemctl restart jupyter\nEOF"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * docs/design.md §2.3: run-mount-context, run-mount-from-image; run-insecure (boxlint's own)
 *============================================================================================*/

START_TEST(test_run_mount_context) {
  CMD("RUN --mount=target=/src make -C /src");
  const boxlint_diag *d = EXPECT("run-mount-context", W, 0, 1, 5, 1, 24, "build context");
  ck_assert_ptr_nonnull(d->hint);
  TOTAL(1);
  CMD("RUN --mount=type=bind,source=.,target=/src make");
  EXPECT("run-mount-context", W, 0, 1, 5, 1, 43, "bind");
  /* The second of two mounts. */
  CMD("RUN --mount=type=cache,target=/root/.cache/pip --mount=target=/src make");
  EXPECT("run-mount-context", W, 0, 1, 48, 1, 67, "bind");
  TOTAL(1);

  static const boxlint_span ok[] = {
      SP("RUN --mount=type=cache,target=/root/.cache make"),
      SP("RUN --mount=type=tmpfs,target=/tmp make"),
      SP("RUN --mount=type=secret,id=tok cat /run/secrets/tok"),
      SP("RUN --mount=type=ssh git clone git@github.com:o/r.git"),
      SP("RUN echo --mount=target=/src"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

START_TEST(test_run_mount_from_image) {
  CMD("RUN --mount=from=alpine,target=/a cp /a/bin/x /usr/bin/");
  const boxlint_diag *d = EXPECT("run-mount-from-image", W, 0, 1, 5, 1, 34, "from=alpine");
  ck_assert_ptr_nonnull(d->hint);
  TOTAL(1); /* not also run-mount-context: it reads the image, not the context */
  CMD("RUN --mount=type=bind,from=python:3.12,target=/py ls /py");
  EXPECT("run-mount-from-image", W, 0, 1, 5, 1, 50, "python:3.12");
  TOTAL(1);
  CMD("RUN --network=none --mount=type=cache,from=builder,target=/c ls");
  EXPECT("run-mount-from-image", W, 0, 1, 20, 1, 61, "builder");
  TOTAL(1);

  CMD("RUN --mount=type=cache,target=/root/.cache,id=from ls");
  TOTAL(0);
}
END_TEST

START_TEST(test_run_insecure) {
  CMD("RUN --network=host curl -fsSLo /x https://x.example/x");
  const boxlint_diag *d = EXPECT("run-insecure", W, 0, 1, 5, 1, 19, "--network=host");
  HINT(d, "remove");
  TOTAL(1);
  CMD("RUN --security=insecure mount -t tmpfs none /mnt");
  EXPECT("run-insecure", W, 0, 1, 5, 1, 24, "--security=insecure");
  TOTAL(1);

  static const boxlint_span ok[] = {
      SP("RUN --network=none make"),
      SP("RUN --network=default make"),
      SP("RUN --security=sandbox make"),
      SP("RUN echo --network=host"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * env-overrides-runtime, healthcheck-in-template, workdir-relative (boxlint's own)
 *============================================================================================*/

START_TEST(test_env_overrides_runtime) {
  CMD("ENV PATH=/opt/conda/bin");
  const boxlint_diag *d = EXPECT("env-overrides-runtime", W, 0, 1, 5, 1, 24, "ENV PATH");
  HINT(d, "$PATH");
  TOTAL(1);
  CMD("ENV PATH /opt/bin");
  EXPECT("env-overrides-runtime", W, 0, 1, 5, 1, 18, "PATH");
  CMD("ENV LD_PRELOAD=/usr/lib/libjemalloc.so");
  EXPECT("env-overrides-runtime", W, 0, 1, 5, 1, 39, "LD_PRELOAD");
  CMD("ENV A=1 PYTHONHOME=/opt/py");
  EXPECT("env-overrides-runtime", W, 0, 1, 9, 1, 27, "PYTHONHOME");
  TOTAL(1);
  CMD("ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64");
  EXPECT("env-overrides-runtime", W, 0, 1, 5, 1, 42, "LD_LIBRARY_PATH");

  static const boxlint_span ok[] = {
      SP("ENV PATH=/opt/conda/bin:$PATH"),
      SP("ENV PATH=\"/opt/conda/bin:${PATH}\""),
      SP("ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH"),
      SP("ENV MYPATH=/opt"),
      SP("RUN export PATH=/opt/bin"),
      SP("ARG PATH=/opt/bin"),
      SP("LABEL PATH=/opt/bin"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

START_TEST(test_healthcheck_in_template) {
  CMD("HEALTHCHECK --interval=5s CMD curl -f http://localhost:8888/");
  const boxlint_diag *d = EXPECT("healthcheck-in-template", W, 0, 1, 1, 1, 61, "HEALTHCHECK");
  ck_assert_ptr_nonnull(d->hint);
  TOTAL(1);
  CMD("healthcheck CMD true");
  EXPECT("healthcheck-in-template", W, 0, 1, 1, 1, 21, "HEALTHCHECK");

  CMD("HEALTHCHECK NONE");
  TOTAL(0);
  CMD("healthcheck none");
  TOTAL(0);
  CMD("RUN echo HEALTHCHECK CMD true");
  TOTAL(0);
}
END_TEST

START_TEST(test_workdir_relative) {
  CMD("WORKDIR app");
  const boxlint_diag *d = EXPECT("workdir-relative", W, 0, 1, 9, 1, 12, "app");
  HINT(d, "/home/user/");
  TOTAL(1);
  CMD("WORKDIR src/app");
  EXPECT("workdir-relative", W, 0, 1, 9, 1, 16, "src/app");
  CMD("WORKDIR ../x");
  EXPECT("workdir-relative", W, 0, 1, 9, 1, 13, "../x");

  CMDS(SP("WORKDIR /app"), SP("WORKDIR $HOME/app"), SP("WORKDIR ${APP_DIR}"), SP("RUN cd app"));
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * docs/design.md §2.3: secret-in-command
 *============================================================================================*/

#define GHP "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
#define AWS "AKIAIOSFODNN7EXAMPLE"

START_TEST(test_secret_url) {
  CMD("RUN pip install --no-cache-dir --index-url=https://user:s3cretPass@pypi.example.com/simple pkg");
  const boxlint_diag *d = EXPECT("secret-in-command", W, 0, 1, 57, 1, 67, "password in a URL");
  ck_assert(contains(d->message, "****"));
  ck_assert_ptr_nonnull(d->hint);
  NO_LEAK("s3cretPass");
  TOTAL(1);
  CMD("RUN git clone https://alice:hunter22@git.example.com/r.git /opt/r");
  EXPECT("secret-in-command", W, 0, 1, 29, 1, 37, "password in a URL");
  NO_LEAK("hunter22");
  TOTAL(1);
  CMD("RUN pip install --no-cache-dir --index-url \\\n  https://u:pa55word@host.example/simple x");
  EXPECT("secret-in-command", W, 0, 2, 13, 2, 21, "URL");
  NO_LEAK("pa55word");
  TOTAL(1);
}
END_TEST

START_TEST(test_secret_tokens) {
  CMD("RUN echo " AWS " > /tmp/id");
  const boxlint_diag *d = EXPECT("secret-in-command", W, 0, 1, 10, 1, 30, "AWS access key id");
  ck_assert(contains(d->message, "****"));
  NO_LEAK(AWS);
  NO_LEAK("IOSFODNN7EXAMPLE");
  TOTAL(1);

  CMD("RUN git clone https://" GHP "@github.com/o/r");
  EXPECT("secret-in-command", W, 0, 1, 23, 1, 63, "GitHub token");
  NO_LEAK(GHP);
  NO_LEAK("abcdefghijklmnopqrstuvwxyz0123456789");
  TOTAL(1);

  /* token in a URL's password: one report, not one per pattern */
  CMD("RUN git clone https://x-access-token:" GHP "@github.com/o/r");
  EXPECT("secret-in-command", W, 0, 1, 38, 1, 78, "GitHub token");
  NO_LEAK(GHP);
  TOTAL(1);

  CMD("RUN echo glpat-abcdefghij0123456789xy");
  EXPECT("secret-in-command", W, 0, 1, 10, 1, 38, "GitLab token");
  NO_LEAK("glpat-abcdefghij0123456789xy");
  NO_LEAK("abcdefghij0123456789xy");

  CMD("RUN curl -H 'Authorization: Bearer xoxb-1234567890-abcdefghij' https://slack.com/api/x");
  EXPECT("secret-in-command", W, 0, 1, 36, 1, 62, "Slack token");
  NO_LEAK("xoxb-1234567890-abcdefghij");
  NO_LEAK("1234567890-abcdefghij");
  TOTAL(1);
}
END_TEST

/* The assignment keywords are matched without regard to case, Unicode case folding included
 * (U+017F folds to s): a quick pre-check before PCRE2 must not drop these. */
START_TEST(test_secret_assignment_case_folding) {
  CMD("RUN echo PaSsWoRd=hunter22abc");
  EXPECT("secret-in-command", W, 0, 1, 19, 1, 30, "credential");
  NO_LEAK("hunter22abc");
  TOTAL(1);
  CMD("RUN echo pa\xc5\xbf\xc5\xbfword=hunter22abc");
  EXPECT("secret-in-command", W, 0, 1, 19, 1, 30, "credential");
  NO_LEAK("hunter22abc");
  TOTAL(1);
  CMD("RUN echo api-KEY: zzzz9999");
  EXPECT("secret-in-command", W, 0, 1, 19, 1, 27, "credential");
  TOTAL(1);
  CMD("RUN echo passage=hunter22abc tokenizer apiary accent"); /* near misses */
  TOTAL(0);
}
END_TEST

START_TEST(test_secret_private_key_heredoc) {
  CMD("RUN cat <<EOF > /root/.ssh/id_rsa\n-----BEGIN RSA PRIVATE KEY-----\n"
      "MIIEpAIBAAKCAQEAsecretKeyMaterial\n-----END RSA PRIVATE KEY-----\nEOF");
  const boxlint_diag *d = EXPECT("secret-in-command", W, 0, 2, 1, 2, 32, "private key");
  ck_assert(contains(d->message, "****"));
  NO_LEAK("MIIEpAIBAAKCAQEAsecretKeyMaterial");
  TOTAL(1);
  /* In a heredoc script too (the body is scanned whether data or script). */
  CMD("RUN <<EOF\nexport AWS_ACCESS_KEY_ID=" AWS "\nEOF");
  EXPECT("secret-in-command", W, 0, 2, 26, 2, 46, "AWS");
  NO_LEAK(AWS);
  TOTAL(1);
}
END_TEST

START_TEST(test_secret_assignments) {
  CMD("RUN mysql --password=hunter2secret -e 'select 1'");
  const boxlint_diag *d = EXPECT("secret-in-command", W, 0, 1, 22, 1, 35, "credential");
  ck_assert(contains(d->message, "****"));
  NO_LEAK("hunter2secret");
  TOTAL(1);
  CMD("RUN echo \"api_key: abcd1234efgh\" > /etc/app.yaml");
  EXPECT("secret-in-command", W, 0, 1, 20, 1, 32, "credential");
  NO_LEAK("abcd1234efgh");
  CMD("LABEL token=abcd1234efgh");
  EXPECT("secret-in-command", W, 0, 1, 13, 1, 25, "credential");
  NO_LEAK("abcd1234efgh");
}
END_TEST

START_TEST(test_secret_env_arg) {
  CMD("ENV API_TOKEN=abcdef123456");
  const boxlint_diag *d = EXPECT("secret-in-command", W, 0, 1, 15, 1, 27, "ENV API_TOKEN");
  ck_assert(contains(d->message, "****"));
  NO_LEAK("abcdef123456");
  TOTAL(1);
  CMD("ARG DB_PASSWORD=letmein99");
  EXPECT("secret-in-command", W, 0, 1, 17, 1, 26, "ARG DB_PASSWORD");
  NO_LEAK("letmein99");
  CMD("ENV AWS_SECRET_ACCESS_KEY wJalrXUtnFEMI");
  EXPECT("secret-in-command", W, 0, 1, 27, 1, 40, "AWS_SECRET_ACCESS_KEY");
  NO_LEAK("wJalrXUtnFEMI");
  CMD("ENV DEBUG=1 HF_TOKEN=\"hf_abcdefgh\"");
  EXPECT("secret-in-command", W, 0, 1, 22, 1, 35, "HF_TOKEN");
  NO_LEAK("hf_abcdefgh");
  TOTAL(1);
  /* One report per secret: ENV GITHUB_TOKEN=ghp_... is one finding, not name + token. */
  CMD("ENV GITHUB_TOKEN=" GHP);
  EXPECT("secret-in-command", W, 0, 1, 18, 1, 58, "GITHUB_TOKEN");
  NO_LEAK(GHP);
  TOTAL(1);
  CMD("ARG GITHUB_TOKEN=" GHP);
  ck_assert_uint_eq(count_rule("secret-in-command"), 1);
  NO_LEAK(GHP);
  CMD("RUN export GITHUB_TOKEN=" GHP " && git clone https://github.com/o/r");
  ck_assert_uint_eq(count_rule("secret-in-command"), 1);
  EXPECT("secret-in-command", W, 0, 1, 25, 1, 65, "GitHub token");
  NO_LEAK(GHP);
}
END_TEST

START_TEST(test_secret_not_fired) {
  static const boxlint_span ok[] = {
      SP("ARG TOKEN"),
      SP("ARG GITHUB_TOKEN"),
      SP("ENV TOKEN=$TOKEN"),
      SP("ENV API_TOKEN=${API_TOKEN}"),
      SP("ENV TOKEN=\"$TOKEN\""),
      SP("ENV GPG_KEY=A035C8C19219BA821ECEA86B64E628F8D684696D"),
      SP("ENV TOKENIZERS_PARALLELISM=false"),
      SP("ENV JUPYTER_TOKEN="),
      SP("RUN git clone https://git@github.com/o/r /opt/r"),
      SP("RUN pip install --no-cache-dir --index-url https://__token__@pypi.example.com/simple x"),
      SP("RUN curl -fsSLo /x https://host.example:8443/path/x"),
      SP("RUN mysql password=$PASSWORD"),
      SP("RUN mysql --password=\"${DB_PASSWORD}\" -e 'select 1'"),
      SP("RUN jupyter lab --ServerApp.token='' --generate-config"),
      SP("RUN echo hello"),
      SP("RUN --mount=type=secret,id=gh,env=GITHUB_TOKEN git clone https://github.com/o/r"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  NONE("secret-in-command");
  TOTAL(0);
}
END_TEST

/* Issue 12, point 5: a value that says where a secret is (a path, a variable, nothing) is not
 * one. Each near miss stands next to a true positive that still warns, at its position. */
START_TEST(test_secret_location_names) {
  /* *_FILE, *_PATH, *_DIR, *_FILENAME, *_DIRECTORY (any case): the value is where the secret is. */
  CMD("ARG TOKEN_FILE=/run/secrets/t"); /* the issue's own example */
  TOTAL(0);
  CMD("ENV PASSWORD_FILE=/run/secrets/db");
  TOTAL(0);
  CMD("ENV password_file=secrets.txt");
  TOTAL(0);
  CMD("ENV SECRET_PATH=/etc/x");
  TOTAL(0);
  CMD("ENV TOKEN_FILENAME=token.txt");
  TOTAL(0);
  CMD("ENV PRIVATE_KEY_DIR=~/.ssh");
  TOTAL(0);
  CMD("ENV API_KEY_Directory=keys");
  TOTAL(0);
  CMD("ARG PASSWORD_FILE");
  TOTAL(0);
  CMD("ENV PASSWORD=hunter2");
  EXPECT("secret-in-command", W, 0, 1, 14, 1, 21, "ENV PASSWORD is set to a literal value");
  NO_LEAK("hunter2");
  TOTAL(1);
  /* The suffix ends the name: the content of a token file is the secret. */
  CMD("ENV TOKEN_FILE_CONTENT=abc123def456");
  EXPECT("secret-in-command", W, 0, 1, 24, 1, 36, "ENV TOKEN_FILE_CONTENT is set to a literal");
  TOTAL(1);
  /* A location that holds a secret anyway is reported as what it holds. */
  CMD("ENV TOKEN_FILE=" GHP);
  EXPECT("secret-in-command", W, 0, 1, 16, 1, 56, "a GitHub token");
  NO_LEAK(GHP);
  TOTAL(1);

  /* *_URL and *_URI without credentials; with them, the credential is reported, not the URL. */
  CMD("ENV AUTH_URL=https://auth.example.com/oauth");
  TOTAL(0);
  CMD("ENV TOKEN_URL=https://login.example.com/token");
  TOTAL(0);
  CMD("ENV AUTH_URL=https://u:p4ssw0rd@auth.example.com/oauth");
  EXPECT("secret-in-command", W, 0, 1, 24, 1, 32, "a password in a URL");
  NO_LEAK("p4ssw0rd");
  TOTAL(1);
  CMD("ENV TOKEN_URL=https://h.example/x?access_token=abcd1234efgh");
  EXPECT("secret-in-command", W, 0, 1, 48, 1, 60, "a credential assigned literally");
  NO_LEAK("abcd1234efgh");
  TOTAL(1);

  /* The same names in RUN, LABEL and heredoc bodies (the assignment pattern). */
  CMD("RUN export TOKEN_FILE=/run/secrets/t && make");
  TOTAL(0);
  CMD("RUN echo \"password_file: /run/secrets/db\" > /etc/app.yaml");
  TOTAL(0);
  CMD("RUN export TOKEN_FILE=" GHP " && make");
  EXPECT("secret-in-command", W, 0, 1, 23, 1, 63, "a GitHub token");
  TOTAL(1);
  CMD("RUN echo \"password: hunter2xyz\" > /etc/app.yaml");
  EXPECT("secret-in-command", W, 0, 1, 21, 1, 31, "a credential assigned literally");
  NO_LEAK("hunter2xyz");
  TOTAL(1);
  CMD("RUN cat <<EOF > /etc/app.env\nDB_PASSWORD_FILE=/run/secrets/db\nAPI_TOKEN=${API_TOKEN}\n"
      "DB_PASSWORD=hunter2xyz\nEOF");
  EXPECT("secret-in-command", W, 0, 4, 13, 4, 23, "a credential assigned literally");
  TOTAL(1);
}
END_TEST

START_TEST(test_secret_path_values) {
  /* Absolute, ./, ../, ~/ and ~user/ paths. */
  static const boxlint_span ok[] = {
      SP("ENV API_TOKEN=/run/secrets/api"),
      SP("ENV API_TOKEN=\"/run/secrets/api\""),
      SP("ENV API_KEY=./keys/api"),
      SP("ENV API_KEY=../keys/api"),
      SP("ENV PRIVATE_KEY=~/.ssh/id_ed25519"),
      SP("ENV PRIVATE_KEY=~app/.ssh/id_ed25519"),
      SP("ENV TOKEN=/home/${USER}/.config/token"),
      /* Google's client libraries read a key file from this variable: a path by definition. */
      SP("ENV GOOGLE_APPLICATION_CREDENTIALS=/run/secrets/gcp.json"),
      SP("ENV PASSWORD /run/secrets/x"),
      SP("RUN echo password=/run/secrets/pw > /etc/app.conf"),
      SP("RUN mysql --password-file=/run/secrets/db -e 'select 1'"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
  /* Not paths: relative without ./, a literal after the path, and base64 (which holds '/':
   * one AWS secret key in 64 starts with it) with '+', "//" or a random run of letters and
   * digits. */
  CMD("ENV API_KEY=keys/api");
  EXPECT("secret-in-command", W, 0, 1, 13, 1, 21, "ENV API_KEY is set to a literal value");
  TOTAL(1);
  CMD("ENV PASSWORD /run/secrets/x hunter2");
  EXPECT("secret-in-command", W, 0, 1, 14, 1, 36, "ENV PASSWORD is set to a literal value");
  TOTAL(1);
  CMD("ENV AWS_SECRET_ACCESS_KEY=/K7MDENG+bPxRfiCYEXAMPLEKEY");
  EXPECT("secret-in-command", W, 0, 1, 27, 1, 54, "ENV AWS_SECRET_ACCESS_KEY is set to a literal");
  NO_LEAK("K7MDENG");
  TOTAL(1);
  CMD("ENV AWS_SECRET_ACCESS_KEY=/wJalrXUtnFEMI/K7MDENGbPxRfiCY9EXAMPLEKEY");
  EXPECT("secret-in-command", W, 0, 1, 27, 1, 68, "ENV AWS_SECRET_ACCESS_KEY is set to a literal");
  TOTAL(1);
  CMD("ENV PASSWORD=//evil");
  EXPECT("secret-in-command", W, 0, 1, 14, 1, 20, "ENV PASSWORD is set to a literal value");
  TOTAL(1);
  CMD("ENV PRIVATE_KEY=~Zq9!x");
  EXPECT("secret-in-command", W, 0, 1, 17, 1, 23, "ENV PRIVATE_KEY is set to a literal value");
  TOTAL(1);
  CMD("ENV GOOGLE_CREDENTIALS=eyJ0eXBlIjoic2VydmljZV9hY2NvdW50In0");
  EXPECT("secret-in-command", W, 0, 1, 24, 1, 59, "ENV GOOGLE_CREDENTIALS is set to a literal");
  TOTAL(1);
}
END_TEST

START_TEST(test_secret_variables_and_empty) {
  static const boxlint_span ok[] = {
      SP("ARG GITHUB_TOKEN"),
      SP("ENV API_KEY=$API_KEY"),
      SP("ENV TOKEN=${TOKEN:-}"),
      SP("ENV TOKEN=${TOKEN-}"),
      SP("ENV AUTH_TOKEN=\"$AUTH_TOKEN\""),
      SP("ENV AUTH_TOKEN=\"${AUTH_TOKEN}\""),
      SP("ENV NPM_TOKEN=${NPM_TOKEN:?required}"),
      SP("ENV TOKEN=${TOKEN:-/run/secrets/t}"),
      SP("ENV TOKEN=${TOKEN:-${GH_TOKEN}}"),
      SP("ENV PASSWORD=\"\""),
      SP("ENV PASSWORD=''"),
      SP("RUN --mount=type=secret,id=token cat /run/secrets/token"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
  /* A default is what the image gets: templates are built without build arguments. */
  CMD("ENV TOKEN=${TOKEN:-abc12345}");
  EXPECT("secret-in-command", W, 0, 1, 11, 1, 29, "ENV TOKEN defaults to a literal value");
  NO_LEAK("abc12345");
  TOTAL(1);
  CMD("ARG TOKEN=\"${TOKEN:-${GH_TOKEN:-abc12345}}\"");
  EXPECT("secret-in-command", W, 0, 1, 11, 1, 44, "ARG TOKEN defaults to a literal value");
  NO_LEAK("abc12345");
  TOTAL(1);
  CMD("ENV PASSWORD=\"hunter2\"");
  EXPECT("secret-in-command", W, 0, 1, 14, 1, 23, "ENV PASSWORD is set to a literal value");
  TOTAL(1);
  CMD("RUN --mount=type=secret,id=token TOKEN=abcd1234efgh make");
  EXPECT("secret-in-command", W, 0, 1, 40, 1, 52, "a credential assigned literally");
  TOTAL(1);
}
END_TEST

/* The real corpus (tests/data/corpus/real-dockerfiles): no secret-in-command hit. Its near
 * misses, from moby__buildkit/vendor__github.com__tonistiigi__go-actions-cache__Dockerfile
 * lines 16-25: ARGs without values and secret mounts that name a secret by its id. */
START_TEST(test_secret_corpus_near_misses) {
  FRAG("ARG ACTIONS_CACHE_URL\n"
       "ARG ACTIONS_RESULTS_URL\n"
       "RUN --mount=target=. \\\n"
       "    --mount=target=/go/pkg/mod,type=cache \\\n"
       "    --mount=target=/root/.cache,type=cache \\\n"
       "    --mount=type=secret,id=GITHUB_TOKEN,env=GITHUB_TOKEN \\\n"
       "    --mount=type=secret,id=ACTIONS_RUNTIME_TOKEN,env=ACTIONS_RUNTIME_TOKEN \\\n"
       "    CGO_ENABLED=0 xx-go test -v -coverprofile=/tmp/coverage.txt -covermode=atomic "
       "${TESTFLAGS} ./...\n");
  NONE("secret-in-command");
  EXPECT("run-mount-context", W, 2, 3, 5, 3, 21, "build context");
  TOTAL(1);
  /* The same RUN with the token written in. */
  FRAG("RUN --mount=type=secret,id=GITHUB_TOKEN,env=GITHUB_TOKEN \\\n"
       "    ACTIONS_RUNTIME_TOKEN=abcd1234efgh xx-go test ./...\n");
  EXPECT("secret-in-command", W, 0, 2, 27, 2, 39, "a credential assigned literally");
  TOTAL(1);
}
END_TEST

/* Placeholders are reported: `changeme` is a password that takes effect, and `your-token` or
 * <your-token> is where the author is about to paste the real one; the rule's advice (pass it
 * at run time) is what they need then. No form tells a placeholder from a weak secret. */
START_TEST(test_secret_placeholders) {
  /* /work/shared/seeds/sandbox-code-interpreter-guide.txt, "1. Packages and connecting to
   * Buddy": export BUDDY_TOKEN="your-personal-access-token", export
   * ANTHROPIC_API_KEY="your-anthropic-key", written as template commands. */
  CMD("RUN export BUDDY_TOKEN=\"your-personal-access-token\"");
  EXPECT("secret-in-command", W, 0, 1, 25, 1, 51, "a credential assigned literally");
  TOTAL(1);
  CMD("RUN export ANTHROPIC_API_KEY=\"your-anthropic-key\"");
  EXPECT("secret-in-command", W, 0, 1, 31, 1, 49, "a credential assigned literally");
  TOTAL(1);
  /* The same guide: export BUDDY_WORKSPACE="your-workspace" (not a secret name). */
  CMD("RUN export BUDDY_WORKSPACE=\"your-workspace\"");
  TOTAL(0);
  CMD("ENV POSTGRES_PASSWORD=changeme");
  EXPECT("secret-in-command", W, 0, 1, 23, 1, 31, "ENV POSTGRES_PASSWORD is set to a literal");
  TOTAL(1);
  CMD("ENV API_KEY=<your-token>");
  EXPECT("secret-in-command", W, 0, 1, 13, 1, 25, "ENV API_KEY is set to a literal value");
  TOTAL(1);
  /* Real secrets stay reported, whatever the name. */
  CMD("ENV API_KEY=sk-live-abc123def456ghi789");
  EXPECT("secret-in-command", W, 0, 1, 13, 1, 39, "ENV API_KEY is set to a literal value");
  NO_LEAK("abc123def456ghi789");
  TOTAL(1);
}
END_TEST

/*==============================================================================================
 * The good examples of `boxlint explain` (rules.c): each lints clean of its own rule, and none
 * is a secret-in-command. Each is read as what it shows: Dockerfile text (a fragment, and a
 * command when it is one instruction), a base (FROM ...), a template or a NetworkPolicy in the
 * explain texts' JSON-like notation, or prose (checked for secrets only).
 *============================================================================================*/

static const char *ex_ws(const char *p) {
  while (*p == ' ' || *p == '\n') p++;
  return p;
}

/* A JSON string without escapes (as the examples write them) at p; NULL if there is none. */
static const char *ex_string(const char *p, boxlint_span *out) {
  const char *e = *p == '"' ? strchr(p + 1, '"') : NULL;
  if (!e) return NULL;
  *out = (boxlint_span){p + 1, (size_t)(e - p - 1)};
  return e + 1;
}

/* A JSON array of such strings at p: at most `cap` into out, their number in *n. */
static const char *ex_strings(const char *p, boxlint_span *out, size_t cap, size_t *n) {
  *n = 0;
  if (*p != '[') return NULL;
  for (p = ex_ws(p + 1); p && *p == '"'; p = p ? ex_ws(p) : NULL) {
    boxlint_span v;
    p = ex_string(p, &v);
    if (p && *n < cap) out[(*n)++] = v;
    if (p && *p == ',') p = ex_ws(p + 1);
  }
  return p && *p == ']' ? p + 1 : NULL;
}

/* A template: a flat object of "name", "commands", "cpu_count", "memory_mb" and unknown keys. */
static int ex_template(const char *p, boxlint_template *t, boxlint_span *extra, size_t cap) {
  memset(t, 0, sizeof *t);
  t->extra_fields = extra;
  for (p = ex_ws(p + 1); p && *p == '"';) {
    boxlint_span k, v, list[8];
    size_t n = 0;
    p = ex_string(p, &k);
    ck_assert_ptr_nonnull(p);
    p = ex_ws(ex_ws(p) + 1); /* after ':' */
    int is = 0;
#define KEY(lit) (k.len == sizeof(lit) - 1 && !memcmp(k.ptr, lit, k.len))
    if (*p == '"') {
      p = ex_string(p, &v);
      if ((is = KEY("name"))) t->name = v, t->has_name = 1;
    } else if (*p == '[') {
      p = ex_strings(p, list, 8, &n);
      if ((is = KEY("commands"))) t->has_commands = 1; /* the examples' lists are empty */
    } else {
      char *end;
      long long x = strtoll(p, &end, 10);
      boxlint_number num = {1, 1, x, NULL};
      if ((is = KEY("cpu_count"))) t->cpu_count = num;
      if (KEY("memory_mb")) t->memory_mb = num, is = 1;
      p = end;
    }
#undef KEY
    if (!is && t->nextra_fields < cap) extra[t->nextra_fields++] = k;
    p = p ? ex_ws(p) : NULL;
    if (p && *p == ',') p = ex_ws(p + 1);
  }
  return p && *p == '}';
}

/* A policy: {"type": ..., "allow_out": [...], "deny_out": [...]}, or allow_out [...],
 * deny_out [...] (filtered), or a bare list of entries (allowed, with ALL_TRAFFIC denied). */
static void ex_policy(const char *p, boxlint_policy_spec *sp, boxlint_span *allow,
                      boxlint_span *deny, size_t cap) {
  static const boxlint_span all = SP("ALL_TRAFFIC");
  memset(sp, 0, sizeof *sp);
  sp->type = S("filtered");
  sp->allow_out = allow;
  sp->deny_out = deny;
  if (*p == '[') {
    ck_assert_ptr_nonnull(ex_strings(p, allow, cap, &sp->n_allow));
    deny[0] = all;
    sp->n_deny = 1;
    return;
  }
  const char *t = strstr(p, "\"type\"");
  if (t) ck_assert_ptr_nonnull(ex_string(ex_ws(ex_ws(t + 6) + 1), &sp->type));
  const char *a = strstr(p, "allow_out"), *d = strstr(p, "deny_out");
  if (a) ck_assert_ptr_nonnull(ex_strings(strchr(a, '['), allow, cap, &sp->n_allow));
  if (d) ck_assert_ptr_nonnull(ex_strings(strchr(d, '['), deny, cap, &sp->n_deny));
}

static int is_policy_example(const char *g) {
  return g[0] == '[' || strstr(g, "allow_out") || strstr(g, "deny_out") ||
         (g[0] == '{' && strstr(g, "\"type\""));
}

/* No diagnostic of `rule` in the report (with the example in the message). */
static void ex_clean(const char *rule, const char *how, const char *good) {
  if (count_rule(rule)) dump_report();
  ck_assert_msg(count_rule(rule) == 0, "explain %s: the good example (%s) \"%s\" has %s", rule,
                how, good, rule);
}

static void ex_check_policy(const boxlint_rule_info *ri) {
  boxlint_policy_spec sp;
  boxlint_span allow[8], deny[8];
  ex_policy(ri->good, &sp, allow, deny, 8);
  boxlint_policy_options po;
  boxlint_policy_options_init(&po);
  if (strstr(ri->bad, "--unmatched deny")) po.unmatched = BOXLINT_UNMATCHED_DENY;
  if (!strncmp(ri->summary, "E2B:", 4)) po.compat = BOXLINT_COMPAT_E2B;
  boxlint_policy *pol = NULL;
  boxlint_report_clear(R);
  boxlint_status st = boxlint_policy_new(&pol, R, &sp, &po, NULL);
  ck_assert(st == BOXLINT_OK || st == BOXLINT_ESYNTAX);
  boxlint_policy_free(pol);
  ex_clean(ri->id, "a NetworkPolicy", ri->good);
}

static void ex_check_text(const boxlint_rule_info *ri) {
  const char *g = ri->good;
  size_t n = strlen(g);
  if (!strncmp(g, "FROM ", 5)) { /* a base: templates never hold FROM */
    boxlint_base_info bi;
    boxlint_report_clear(R);
    ck_assert_int_eq(boxlint_check_base(&bi, R, g, n), BOXLINT_OK);
    ex_clean(ri->id, "a base", g);
    return;
  }
  run_frag(g, n);
  ex_clean(ri->id, "a fragment", g);
  NONE("secret-in-command");
  if (boxlint_report_instruction_count(R) == 1) {
    run_spans(&(boxlint_span){g, n}, 1);
    ex_clean(ri->id, "a command", g);
  }
}

/* The rule's own pair: the bad example warns, the good one (a path) does not. */
START_TEST(test_secret_explain_pair) {
  const boxlint_rule_info *ri = boxlint_rule_find("secret-in-command", 17);
  ck_assert_ptr_nonnull(ri);
  run_spans(&(boxlint_span){ri->bad, strlen(ri->bad)}, 1);
  ck_assert_uint_eq(count_rule("secret-in-command"), 1);
  ck_assert_str_eq(boxlint_report_diag(R, 0)->rule, "secret-in-command");
  ck_assert(contains(boxlint_report_diag(R, 0)->message, "is set to a literal value"));
  run_spans(&(boxlint_span){ri->good, strlen(ri->good)}, 1);
  TOTAL(0);
  ck_assert(contains(ri->description, "Not secrets"));
}
END_TEST

START_TEST(test_explain_good_examples) {
  size_t n = 0, kinds[5] = {0};
  const boxlint_rule_info *rules = boxlint_rules(&n);
  ck_assert_uint_gt(n, 0);
  for (size_t i = 0; i < n; i++) {
    const boxlint_rule_info *ri = &rules[i];
    const char *g = ri->good;
    /* Whatever it is, as a command it holds no secret. */
    run_spans(&(boxlint_span){g, strlen(g)}, 1);
    if (count_rule("secret-in-command")) fprintf(stderr, "explain %s: good example\n", ri->id);
    NONE("secret-in-command");
    if (is_policy_example(g)) {
      ex_check_policy(ri);
      kinds[0]++;
    } else if (g[0] == '{') {
      boxlint_template t;
      boxlint_span extra[8];
      ck_assert_msg(ex_template(g, &t, extra, 8), "explain %s: unreadable template", ri->id);
      boxlint_report_clear(R);
      ck_assert_int_eq(boxlint_check_template(R, &t, &OPTS), BOXLINT_OK);
      ex_clean(ri->id, "a template", g);
      kinds[1]++;
    } else if ((g[0] >= 'A' && g[0] <= 'Z') || g[0] == '#') {
      ex_check_text(ri);
      kinds[2]++;
    } else if (!strncmp(g, "client.", 7)) {
      /* Python: the SDK call checks clean of its own rule, and so does nothing else fail. */
      boxlint_report_clear(R);
      ck_assert_int_eq(boxlint_check_python(R, g, strlen(g), &OPTS, NULL), BOXLINT_OK);
      ck_assert_msg(!count_rule(ri->id), "explain %s: the good Python example fires", ri->id);
      const char *b = ri->bad;
      boxlint_report_clear(R);
      boxlint_status bst = boxlint_check_python(R, b, strlen(b), &OPTS, NULL);
      ck_assert_msg(count_rule(ri->id) > 0 && (bst == BOXLINT_OK || bst == BOXLINT_ESYNTAX),
                    "explain %s: the bad Python example does not fire", ri->id);
      kinds[4]++;
    } else {
      kinds[3]++; /* prose: "(supervise services with systemd units)" */
    }
  }
  /* Each kind is met (a reader that recognises nothing would pass vacuously). */
  ck_assert(kinds[0] >= 10 && kinds[1] >= 4 && kinds[2] >= 30 && kinds[4] >= 3);
  ck_assert_uint_le(kinds[3], 6);
}
END_TEST

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

/*==============================================================================================
 * Errors-only mode: no config, no warnings
 *============================================================================================*/

static const boxlint_span EVERY_WARNING[] = {
    SP("STOPSIGNAL SIGTERM"),
    SP("RUN sudo apt-get update && apt-get upgrade && pip install x && curl -fsSL https://x.example/i | sh"),
    SP("RUN systemctl start x"),
    SP("RUN --mount=target=/s --mount=from=alpine,target=/a --network=host true"),
    SP("ENV PATH=/x API_TOKEN=abcdef123456"),
    SP("RUN git clone https://u:hunter22@git.example.com/r " GHP),
    SP("HEALTHCHECK CMD true"),
    SP("WORKDIR app"),
    SP("RUN <<EOF\napt-get install curl\nEOF"),
    SP("USER app"),
};

START_TEST(test_errors_only_mode) {
  /* With the config every rule fires at least once ... */
  run_spans(EVERY_WARNING, sizeof EVERY_WARNING / sizeof EVERY_WARNING[0]);
  static const char *const all[] = {
      "final-user-not-root", "stopsignal-overrides-systemd", "apt-get-missing-yes",
      "pip-no-cache-dir", "apt-lists-not-cleaned", "curl-pipe-shell", "secret-in-command",
      "run-mount-context", "run-mount-from-image", "sudo-usage", "systemctl-in-build",
      "apt-get-upgrade", "env-overrides-runtime", "healthcheck-in-template", "run-insecure",
      "workdir-relative"};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    if (!count_rule(all[i])) dump_report();
    ck_assert_msg(count_rule(all[i]) > 0, "%s does not fire on EVERY_WARNING", all[i]);
  }
  NO_LEAK("hunter22");
  NO_LEAK(GHP);
  ck_assert_uint_eq(boxlint_report_count_at_least(R, E), 0);

  /* ... and without one, nothing. */
  OPTS.config = NULL;
  run_spans(EVERY_WARNING, sizeof EVERY_WARNING / sizeof EVERY_WARNING[0]);
  TOTAL(0);
  ck_assert_uint_eq(boxlint_report_instruction_count(R),
                    sizeof EVERY_WARNING / sizeof EVERY_WARNING[0]);
  /* Errors are the same with and without a config. */
  static const boxlint_span errs[] = {SP("FROM ubuntu"), SP("RUN sudo true\nUSER app"), SP("WORKDIR")};
  run_spans(errs, 3);
  size_t n = boxlint_report_diag_count(R);
  ck_assert_uint_gt(n, 0);
  NO_WARNINGS();
  OPTS.config = CFG;
  run_spans(errs, 3);
  ck_assert_uint_eq(boxlint_report_count_at_least(R, E), n);
  /* Fragments too. */
  OPTS.config = NULL;
  FRAG("USER app\nRUN sudo pip install x\nSTOPSIGNAL 9\n");
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * Known bugs (run with BOXLINT_KNOWN_BUGS=1)
 *============================================================================================*/

/* apt-get options that take a separate value (-o, -t, -c) are read as the verb, so the verb is
 * never found: install without -y and upgrade are missed. */
START_TEST(kb_apt_option_value_taken_as_verb) {
  CMD("RUN apt-get -o Dpkg::Options::=--force-confold install curl");
  EXPECT("apt-get-missing-yes", W, 0, 1, 5, 1, 55, "without -y");
  CMD("RUN apt-get -t bookworm-backports install curl");
  EXPECT("apt-get-missing-yes", W, 0, 1, 5, 1, 42, "without -y");
  CMD("RUN apt-get -o Dpkg::Options::=--force-confnew -y dist-upgrade");
  EXPECT("apt-get-upgrade", W, 0, 1, 5, 1, 63, "upgrades");
}
END_TEST

/* `RUN <<EOF cat > /x` is not a heredoc script: BuildKit runs `<<EOF cat > /x` with the body as
 * cat's stdin (only a command line that is exactly the heredoc makes the body the script). */
START_TEST(kb_heredoc_opener_with_command_is_data) {
  CMD("RUN <<EOF cat > /etc/notes\napt-get install foo\nEOF");
  NONE("apt-get-missing-yes");
  TOTAL(0);
}
END_TEST

/* PIP_NO_CACHE_DIR given to pip in the same command does what ENV PIP_NO_CACHE_DIR=1 does,
 * which the rule's own hint offers. */
START_TEST(kb_pip_inline_env) {
  CMD("RUN PIP_NO_CACHE_DIR=1 pip install torch");
  NONE("pip-no-cache-dir");
}
END_TEST

/* A cache mount on pip's cache keeps it out of the image, as the apt lists cache mount does. */
START_TEST(kb_pip_cache_mount) {
  CMD("RUN --mount=type=cache,target=/root/.cache/pip pip install torch");
  NONE("pip-no-cache-dir");
}
END_TEST

/* Exec form runs the program without a shell, but it still runs apt-get / pip. */
START_TEST(kb_exec_form_run) {
  CMD("RUN [\"apt-get\", \"install\", \"curl\"]");
  ck_assert_uint_eq(count_rule("apt-get-missing-yes"), 1);
  CMD("RUN [\"pip\", \"install\", \"torch\"]");
  ck_assert_uint_eq(count_rule("pip-no-cache-dir"), 1);
}
END_TEST

/* ONBUILD USER root does not change this image's user: it runs in a later build. */
START_TEST(kb_onbuild_user) {
  CMDS(SP("USER app"), SP("ONBUILD USER root"));
  EXPECT("final-user-not-root", W, 0, 1, 6, 1, 9, "app");
}
END_TEST

/* BuildKit expands USER and WORKDIR with its shell lexer, which removes quotes. */
START_TEST(kb_quoted_user_workdir) {
  CMDS(SP("USER app"), SP("USER \"root\""));
  NONE("final-user-not-root");
  CMD("WORKDIR \"/app\"");
  NONE("workdir-relative");
}
END_TEST

/* Docker parses STOPSIGNAL case-insensitively and with or without SIG: RTMIN+3 is SIGRTMIN+3. */
START_TEST(kb_stopsignal_spellings) {
  CMD("STOPSIGNAL RTMIN+3");
  NONE("stopsignal-overrides-systemd");
  CMD("STOPSIGNAL sigrtmin+3");
  NONE("stopsignal-overrides-systemd");
}
END_TEST

/* A token found later in the command hides an earlier URL password or assignment: the dedup
 * ("one report per stretch of text") compares against the end of the last report of any
 * pattern, not against overlapping text. */
START_TEST(kb_secret_hidden_by_later_token) {
  CMD("RUN curl https://alice:hunter22@git.example.com/x && echo " AWS);
  ck_assert_uint_eq(count_rule("secret-in-command"), 2);
  EXPECT("secret-in-command", W, 0, 1, 24, 1, 32, "password in a URL");
  CMD("RUN mysql --password=hunter2secret && echo " AWS);
  ck_assert_uint_eq(count_rule("secret-in-command"), 2);
  EXPECT("secret-in-command", W, 0, 1, 22, 1, 35, "credential");
}
END_TEST

/* A URL whose password is a variable holds no secret, like password=$PASSWORD. */
START_TEST(kb_secret_url_variable_password) {
  CMD("RUN pip install --no-cache-dir --index-url=https://user:${PIP_TOKEN}@pypi.example.com/simple x");
  NONE("secret-in-command");
  CMD("RUN git clone https://oauth2:$GL_TOKEN@gitlab.example.com/o/r.git");
  NONE("secret-in-command");
}
END_TEST

/* PWD is the shell's working directory, not a password. */
START_TEST(kb_secret_env_pwd) {
  CMD("ENV PWD=/workspace");
  NONE("secret-in-command");
}
END_TEST

/* A command without RUN is an unknown-instruction error whose hint quotes the command, secret
 * included; and no secret-in-command is reported for it. The secret is printed. */
START_TEST(kb_secret_leak_in_unknown_instruction_hint) {
  CMD("pip install --index-url=https://u:s3cretPass@pypi.example.com/simple pkg");
  NO_LEAK("s3cretPass");
}
END_TEST

/* Without a config no warning runs, so every suppression is reported as "suppresses nothing":
 * a warning in the errors-only mode, and a false one (sudo-usage would have fired). */
START_TEST(kb_unused_suppression_without_config) {
  OPTS.config = NULL;
  FRAG("# boxlint ignore=sudo-usage -- legacy\nRUN sudo true\n");
  TOTAL(0);
}
END_TEST

/* A suppression of final-user-not-root before the USER it is reported on does not work (the
 * rule is emitted after the suppressions were applied) and is itself reported as unused. */
START_TEST(kb_suppress_final_user) {
  FRAG("RUN true\n# boxlint ignore=final-user-not-root -- services run as app\nUSER app\n");
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * Suite
 *============================================================================================*/

static Suite *warnings_suite(void) {
  Suite *s = suite_create("warnings");
  TCase *tc;

  tc = tcase_create("template_wide");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_final_user_fires);
  tcase_add_test(tc, test_final_user_not_fired);
  tcase_add_test(tc, test_final_user_fragment);
  tcase_add_test(tc, test_stopsignal);
  suite_add_tcase(s, tc);

  tc = tcase_create("apt_pip");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_apt_missing_yes_fires);
  tcase_add_test(tc, test_apt_missing_yes_heredoc_script);
  tcase_add_test(tc, test_apt_missing_yes_not_fired);
  tcase_add_test(tc, test_pip_fires);
  tcase_add_test(tc, test_pip_not_fired);
  tcase_add_test(tc, test_pip_env_reset_by_from);
  tcase_add_test(tc, test_apt_lists_fires);
  tcase_add_test(tc, test_apt_lists_not_fired);
  tcase_add_test(tc, test_apt_upgrade);
  suite_add_tcase(s, tc);

  tc = tcase_create("run");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_curl_pipe_shell);
  tcase_add_test(tc, test_sudo_usage);
  tcase_add_test(tc, test_systemctl_in_build);
  tcase_add_test(tc, test_run_mount_context);
  tcase_add_test(tc, test_run_mount_from_image);
  tcase_add_test(tc, test_run_insecure);
  suite_add_tcase(s, tc);

  tc = tcase_create("other_instructions");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_env_overrides_runtime);
  tcase_add_test(tc, test_healthcheck_in_template);
  tcase_add_test(tc, test_workdir_relative);
  suite_add_tcase(s, tc);

  tc = tcase_create("secrets");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_secret_url);
  tcase_add_test(tc, test_secret_tokens);
  tcase_add_test(tc, test_secret_assignment_case_folding);
  tcase_add_test(tc, test_secret_private_key_heredoc);
  tcase_add_test(tc, test_secret_assignments);
  tcase_add_test(tc, test_secret_env_arg);
  tcase_add_test(tc, test_secret_not_fired);
  tcase_add_test(tc, test_secret_location_names);
  tcase_add_test(tc, test_secret_path_values);
  tcase_add_test(tc, test_secret_variables_and_empty);
  tcase_add_test(tc, test_secret_corpus_near_misses);
  tcase_add_test(tc, test_secret_placeholders);
  suite_add_tcase(s, tc);

  tc = tcase_create("explain_examples");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_explain_good_examples);
  tcase_add_test(tc, test_secret_explain_pair);
  suite_add_tcase(s, tc);

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

  tc = tcase_create("errors_only");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_errors_only_mode);
  suite_add_tcase(s, tc);

  const char *kb = "1"; /* the known bugs are fixed: they run as regressions */
  if (kb && !strcmp(kb, "1")) {
    tc = tcase_create("known_bugs");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, kb_apt_option_value_taken_as_verb);
    tcase_add_test(tc, kb_heredoc_opener_with_command_is_data);
    tcase_add_test(tc, kb_pip_inline_env);
    tcase_add_test(tc, kb_pip_cache_mount);
    tcase_add_test(tc, kb_exec_form_run);
    tcase_add_test(tc, kb_onbuild_user);
    tcase_add_test(tc, kb_quoted_user_workdir);
    tcase_add_test(tc, kb_stopsignal_spellings);
    tcase_add_test(tc, kb_secret_hidden_by_later_token);
    tcase_add_test(tc, kb_secret_url_variable_password);
    tcase_add_test(tc, kb_secret_env_pwd);
    tcase_add_test(tc, kb_secret_leak_in_unknown_instruction_hint);
    tcase_add_test(tc, kb_suppress_final_user);
    tcase_add_test(tc, kb_unused_suppression_without_config);
    suite_add_tcase(s, tc);
  }
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(warnings_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* consumer.c: a program built against an *installed* libboxlint (tests/packaging/install/run.sh).
 * It checks that headers and library agree on the version, lints one command and prints
 * its diagnostics as `command:line:col: severity: message [rule]`, then validates a
 * NetworkPolicy with a non-ASCII entry, whose message names its A-label (computed by libidn2,
 * which a static link must bring in), and prints `path: message [rule]` and `fix: text`.
 * Exit 0 when it ran. */
#include <stdio.h>
#include <string.h>
#include <boxlint/boxlint.h>

static boxlint_status check_policy(boxlint_report *report) {
  static const char entry[] = "b\xc3\xbc" "cher.de"; /* U+00FC */
  boxlint_span allow[1], deny[1];
  boxlint_policy_spec spec;
  boxlint_policy *policy = NULL;
  boxlint_status st;
  size_t i, n;

  memset(&spec, 0, sizeof spec);
  spec.type.ptr = "filtered";
  spec.type.len = 8;
  allow[0].ptr = entry;
  allow[0].len = sizeof entry - 1;
  deny[0].ptr = "ALL_TRAFFIC";
  deny[0].len = 11;
  spec.allow_out = allow;
  spec.n_allow = 1;
  spec.deny_out = deny;
  spec.n_deny = 1;
  boxlint_report_clear(report);
  st = boxlint_policy_new(&policy, report, &spec, NULL, NULL);
  boxlint_policy_free(policy);
  if (st != BOXLINT_ESYNTAX) { /* the entry is refused: the user writes the A-label */
    fprintf(stderr, "consumer: boxlint_policy_new: %s\n", boxlint_status_str(st));
    return st == BOXLINT_OK ? BOXLINT_EINVAL : st;
  }
  n = boxlint_report_diag_count(report);
  for (i = 0; i < n; i++) {
    const boxlint_diag *d = boxlint_report_diag(report, i);
    printf("%s: %s [%s]\n", d->path ? d->path : "-", d->message, d->rule);
    if (d->fix) printf("fix: %s\n", d->fix->text);
  }
  return BOXLINT_OK;
}

int main(void) {
  static const char cmd[] = "pip install x";
  boxlint_span commands[1];
  boxlint_report *report = NULL;
  boxlint_status st;
  size_t i, n;

  printf("libboxlint %s (headers %s)\n", boxlint_version(), BOXLINT_VERSION_STRING);
  if (strcmp(boxlint_version(), BOXLINT_VERSION_STRING) != 0) {
    fprintf(stderr, "consumer: library %s does not match headers %s\n", boxlint_version(),
            BOXLINT_VERSION_STRING);
    return 2;
  }
  st = boxlint_report_new(&report, NULL);
  if (st != BOXLINT_OK) {
    fprintf(stderr, "consumer: boxlint_report_new: %s\n", boxlint_status_str(st));
    return 2;
  }
  commands[0].ptr = cmd;
  commands[0].len = sizeof cmd - 1;
  st = boxlint_check_commands(report, commands, 1, NULL);
  if (st != BOXLINT_OK) {
    fprintf(stderr, "consumer: boxlint_check_commands: %s\n", boxlint_status_str(st));
    boxlint_report_free(report);
    return 2;
  }
  n = boxlint_report_diag_count(report);
  for (i = 0; i < n; i++) {
    const boxlint_diag *d = boxlint_report_diag(report, i);
    printf("%d:%u:%u: %s: %s [%s]\n", (int)d->command, (unsigned)d->line, (unsigned)d->column,
           boxlint_severity_str(d->severity), d->message, d->rule);
  }
  st = check_policy(report);
  boxlint_report_free(report);
  return st == BOXLINT_OK ? 0 : 2;
}

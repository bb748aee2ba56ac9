/* consumer.c: a program built against an *installed* libboxlint (tests/install/run.sh).
 * It checks that headers and library agree on the version, lints one command and prints
 * its diagnostics as `command:line:col: severity: message [rule]`. Exit 0 when it ran. */
#include <stdio.h>
#include <string.h>
#include <boxlint/boxlint.h>

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
  boxlint_report_free(report);
  return 0;
}

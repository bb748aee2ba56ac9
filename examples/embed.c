/* embed.c: linting template commands from C with libboxlint.
 *
 * Build against an installed boxlint, either way:
 *   cc embed.c $(pkg-config --cflags --libs libboxlint) -o embed
 *   target_link_libraries(embed PRIVATE boxlint::boxlint)      # after find_package(boxlint)
 *
 * Prints each finding as `command:line:col: severity: message [rule]` plus its hint, and exits 1
 * when any finding is an error, as a server would answer 422. */
#include <stdio.h>
#include <string.h>
#include <boxlint/boxlint.h>

int main(void) {
  /* Commands are (pointer, length) spans: they need no NUL terminator and are never written. */
  static const char *const texts[] = {
      "RUN apt-get update && apt-get install -y curl",
      "pip install pydantic-ai",  /* unknown-instruction: did you forget RUN? */
      "COPY app.py /app/",        /* denied-instruction: templates have no build context */
  };
  boxlint_span commands[sizeof texts / sizeof texts[0]];
  size_t ncommands = sizeof texts / sizeof texts[0];
  boxlint_report *report = NULL;
  boxlint_status st;
  size_t i;
  int errors = 0;

  for (i = 0; i < ncommands; i++) {
    commands[i].ptr = texts[i];
    commands[i].len = strlen(texts[i]);
  }

  /* NULL allocator: the C library's malloc and free. */
  st = boxlint_report_new(&report, NULL);
  if (st != BOXLINT_OK) {
    fprintf(stderr, "embed: %s\n", boxlint_status_str(st));
    return 2;
  }

  /* NULL options: the platform's limits (64 commands, 4096 bytes each), escape character '\'. */
  st = boxlint_check_commands(report, commands, ncommands, NULL);
  if (st != BOXLINT_OK) { /* EINVAL or ENOMEM; findings are never a failure */
    fprintf(stderr, "embed: %s\n", boxlint_status_str(st));
    boxlint_report_free(report);
    return 2;
  }

  /* Every finding of every command, ordered by command then position. Strings are owned by
   * the report and stay valid until it is cleared or freed. */
  for (i = 0; i < boxlint_report_diag_count(report); i++) {
    const boxlint_diag *d = boxlint_report_diag(report, i);
    printf("commands[%d]:%u:%u: %s: %s [%s]\n", (int)d->command, (unsigned)d->line,
           (unsigned)d->column, boxlint_severity_str(d->severity), d->message, d->rule);
    if (d->hint)
      printf("    hint: %s\n", d->hint);
    if (d->severity == BOXLINT_SEVERITY_ERROR)
      errors = 1;
  }

  boxlint_report_free(report);
  return errors;
}

/* `boxlint [lint] [options] FILE... | -c CMD...`: lint every input given, in this order: the
 * platform's base (--base), the -c commands, each FILE; and print what was found as one output
 * (one JSON document, one SARIF log). Owns the lint command's own argument rule (at least
 * one input) and its exit code: 2 when an input could not be checked, else 1 when a finding is at
 * or above --fail-on, else 0. Called by main.c; calls args.c, lint_run.c and output.c. */
#include <stdlib.h>
#include "cli.h"

static int lint_all(cli *c, const lint_args *a) {
  if (!a->npaths && !a->ninline)
    return cli_usage_error(c, "nothing to lint: give FILE... (- for standard input) or -c COMMAND",
                           NULL);
  cli_begin(c);
  int io_error = 0;
  if (a->base) {
    char *btext = NULL;
    size_t blen;
    int appendable;
    if (cli_lint_base(c, a->base, &btext, &blen, &appendable)) io_error = 1;
    free(btext);
  }
  if (a->ninline && cli_lint_inline(c, a->inline_cmds, a->ninline)) io_error = 1;
  for (size_t k = 0; k < a->npaths; k++)
    if (cli_lint_path(c, a->paths[k])) io_error = 1;
  cli_finish(c);
  return io_error ? EXIT_USAGE : c->worst;
}

int cli_cmd_lint(cli *c, int argc, char **argv) {
  lint_args a;
  int rc = cli_args_parse(c, argc, argv, &a);
  if (rc == CLI_ARGS_GO) rc = lint_all(c, &a);
  cli_args_free(c, &a);
  return rc;
}

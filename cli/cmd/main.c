/* The boxlint command's entry point: `main` sets up the state every command starts from and
 * hands argv to the sub-command its first argument names (lint when it names none). Owns the
 * list of sub-commands and nothing else. Calls only the commands' entry points (cmd.h), which
 * take it from there: argv -> command -> load -> library -> output. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/cmd.h"

static const struct {
  const char *name;
  int (*run)(cli *c, int argc, char **argv);
} COMMANDS[] = {
    {"policy", cli_cmd_policy},   {"rules", cli_cmd_rules},     {"help", cli_cmd_help},
    {"explain", cli_cmd_explain}, {"version", cli_cmd_version}, {"--version", cli_cmd_version},
    {"lint", cli_cmd_lint},       {"render", cli_cmd_render},   {"lsp", cli_cmd_lsp},
};

/* Colour when standard output is a terminal that can show it: never with NO_COLOR set and not
 * empty (no-color.org), always with FORCE_COLOR set and not empty, "0" or "false" (a CI log
 * that renders escapes), else only on a TTY whose TERM is set and not "dumb". --no-color wins
 * over all of them (args.c). */
static int want_color(void) {
  const char *nc = getenv("NO_COLOR"), *fc = getenv("FORCE_COLOR"), *term = getenv("TERM");
  if (nc && *nc) return 0;
  if (fc && *fc && strcmp(fc, "0") && strcmp(fc, "false")) return 1;
  if (!term || !*term || !strcmp(term, "dumb")) return 0;
  return isatty(STDOUT_FILENO);
}

/* Standard streams, --fail-on error, the library's default options, and colour. Standard error
 * is buffered (a line at a time on a terminal, else in blocks): a finding or a summary is one
 * write, not one per fputc. */
static void cli_init(cli *c) {
  memset(c, 0, sizeof *c);
  c->out = stdout;
  c->err = stderr;
  setvbuf(stderr, NULL, isatty(STDERR_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
  c->fail_on = BOXLINT_SEVERITY_ERROR;
  boxlint_options_init(&c->opts);
  c->color = want_color();
}

/* A report that could not be written (a full disk, a closed pipe's EIO) is an I/O error, exit
 * code 2, whatever the findings were: a CI step must not pass on output it lost. */
static int finish(int rc) {
  errno = 0;
  if (fflush(stdout) == EOF || ferror(stdout)) {
    int e = errno; /* 0 when the error was met by an earlier write (ferror) */
    fprintf(stderr, "boxlint: cannot write to standard output%s%s\n", e ? ": " : "",
            e ? strerror(e) : "");
    rc = EXIT_USAGE;
  }
  if (fflush(stderr) == EOF || ferror(stderr)) rc = EXIT_USAGE; /* nowhere left to say so */
  return rc;
}

int main(int argc, char **argv) {
  cli c;
  cli_init(&c);
  for (size_t k = 0; argc > 1 && k < sizeof COMMANDS / sizeof *COMMANDS; k++)
    if (!strcmp(argv[1], COMMANDS[k].name)) return finish(COMMANDS[k].run(&c, argc - 1, argv + 1));
  return finish(cli_cmd_lint(&c, argc, argv)); /* no sub-command: options start at argv[1] */
}

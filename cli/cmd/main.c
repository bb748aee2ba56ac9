/* The boxlint command's entry point: `main` sets up the state every command starts from and
 * hands argv to the sub-command its first argument names (lint when it names none). Owns the
 * list of sub-commands and nothing else. Calls only the commands' entry points (cmd.h), which
 * take it from there: argv -> command -> load -> library -> output. */
#define _POSIX_C_SOURCE 200809L
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

/* Standard streams, --fail-on error, the library's default options, and colour when standard
 * output is a terminal and NO_COLOR is unset or empty. */
static void cli_init(cli *c) {
  memset(c, 0, sizeof *c);
  c->out = stdout;
  c->err = stderr;
  c->fail_on = BOXLINT_SEVERITY_ERROR;
  boxlint_options_init(&c->opts);
  const char *nc = getenv("NO_COLOR");
  c->color = isatty(fileno(stdout)) && !(nc && *nc);
}

int main(int argc, char **argv) {
  cli c;
  cli_init(&c);
  for (size_t k = 0; argc > 1 && k < sizeof COMMANDS / sizeof *COMMANDS; k++)
    if (!strcmp(argv[1], COMMANDS[k].name)) return COMMANDS[k].run(&c, argc - 1, argv + 1);
  return cli_cmd_lint(&c, argc, argv); /* no sub-command: its options start at argv[1] */
}

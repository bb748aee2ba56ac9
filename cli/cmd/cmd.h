/* cli/cmd/: the sub-commands and their command lines: main.c dispatches argv to one, args.c
 * parses lint's and render's options from the table options.def. The folder's whole interface
 * (main.c is its only user); the commands call lsp/, fix/, output/ and input/. */
#ifndef BOXLINT_CLI_CMD_H
#define BOXLINT_CLI_CMD_H
#include "fix/fix.h"

/*==============================================================================================
 * MARK: Commands (main.c dispatches to these)
 * Each returns the exit code. argv[0] is the sub-command's word ("rules"), or the program's
 * name when `boxlint` is called without one (lint); its arguments start at argv[1].
 *============================================================================================*/

int cli_cmd_lint(cli *c, int argc, char **argv);    /* lint_cmd.c */
int cli_cmd_render(cli *c, int argc, char **argv);  /* render_cmd.c */
int cli_cmd_rules(cli *c, int argc, char **argv);   /* rules_cmd.c: rules, explain, help, */
int cli_cmd_explain(cli *c, int argc, char **argv); /*   version */
int cli_cmd_help(cli *c, int argc, char **argv);
int cli_cmd_version(cli *c, int argc, char **argv);
int cli_cmd_policy(cli *c, int argc, char **argv);  /* policy_cmd.c */
int cli_cmd_lsp(cli *c, int argc, char **argv);     /* lsp_cmd.c: the language server */

/*==============================================================================================
 * MARK: args.c: the command line of lint and render
 *============================================================================================*/

/* What lint and render were given besides the options kept in `cli`. */
typedef struct lint_args {
  const char **paths;          /* FILE... in order ("-": standard input) */
  size_t npaths;
  boxlint_span *inline_cmds;   /* -c CMD... in order */
  size_t ninline;
  const char *base;            /* --base FILE, or NULL */
  const char **excludes;       /* --exclude GLOB... (cli_walk) */
  size_t nexcludes;
  int fix;                     /* --fix, --diff: an enum fix_mode (FIX_NONE without) */
  int force_exclude;           /* --force-exclude: FILEs named follow the walk's rules */
} lint_args;

enum { CLI_ARGS_GO = -1 };
/* Parse argv[1..] into `c` (format, fail_on, config_path, compat, color) and `a`, then load
 * --config into c->config. Returns CLI_ARGS_GO, or the exit code when the command is done: after
 * --help (the usage printed) or a usage, memory or config error (one message printed). `a` is
 * filled in every case; cli_args_free releases it and c's configs. */
int cli_args_parse(cli *c, int argc, char **argv, lint_args *a);
void cli_args_free(cli *c, lint_args *a);
/* One row of options.def: an option's spellings (either may be NULL), its value's name (NULL:
 * none) and its --help text ('\n' between lines). */
typedef struct cli_option {
  const char *lng, *shrt, *arg, *help;
} cli_option;
/* The rows as --help lists them: "  -h, --help  this text", the spellings and the value's name
 * in a column `col` wide, the help's lines from column col + 2; after spellings that fill the
 * column two spaces, after longer ones `over` (lint's and policy's texts, written by hand before
 * the table, differ there). */
void cli_options_print(FILE *f, const cli_option *o, size_t n, int col, int over);
/* The full usage text (`boxlint help`, `--help`). */
void cli_usage(FILE *f);
/* A usage error: one line on c->err naming what was wrong (and `arg`, quoted, unless NULL) and
 * where the usage is. Returns EXIT_USAGE. */
int cli_usage_error(cli *c, const char *what, const char *arg);
/* The words of --format and --fail-on, for every sub-command that takes them: 0 with *out
 * set, or -1 for any other word (*out unchanged). --fail-on takes the library's severity
 * words but "off". */
int cli_format_word(const char *word, enum format *out);
int cli_fail_on_word(const char *word, boxlint_severity *out);

/*==============================================================================================
 * MARK: lint_print.c: one input checked, then its findings out through output/
 * Each returns 0, or -1 after printing why the input could not be checked (the exit code 2).
 *============================================================================================*/

/* The same, reading `path` first ("-": standard input). */
int cli_lint_path(cli *c, const char *path);
/* A file found by a walk (or named with --force-exclude): as cli_lint_path, but read by the
 * walk's rules (cli_file_kind with `walk`): a file of kind NONE is skipped silently (0). */
int cli_lint_found(cli *c, const char *path);
/* Commands given with -c. */
int cli_lint_inline(cli *c, const boxlint_span *cmds, size_t n);
/* Check the platform's base Dockerfile: sets c->opts.escape from it and *appendable, reports its
 * findings like a file's. *text holds the file (the caller frees it, also on failure). */
int cli_lint_base(cli *c, const char *path, char **text, size_t *len, int *appendable);

#endif

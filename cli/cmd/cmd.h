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
  unsigned jobs;               /* -j, --jobs N: threads checking a walked DIR's files (1: the
                                  main thread alone); default cli_default_jobs() */
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
/* cli_lint_path and cli_lint_found in two halves, so that the first may run on another thread
 * (lint_jobs.c) while the second, which prints, runs on the main thread in the walk's order. */
typedef struct cli_lint_job {
  char *buf;                   /* the file's bytes */
  size_t len;
  checked k;                   /* what was found in them */
  int rc;                      /* 0, or -1: not read or not checked (the problem reported) */
} cli_lint_job;
/* Read `path` and check it (`found`: by the walk's rules) into `j`; prints nothing but
 * problems (cli_problem_report). Returns j->rc. */
int cli_lint_read(cli *c, const char *path, int found, cli_lint_job *j);
/* Print j's findings (when it was checked and is not skipped) and release `j`. Returns j->rc. */
int cli_lint_show(cli *c, cli_lint_job *j);
/* The same in two halves (lint_jobs.c frees `j` on the thread that made it). */
int cli_lint_print(cli *c, const cli_lint_job *j);
void cli_lint_job_free(cli_lint_job *j);
/* A file found by a walk (or named with --force-exclude): as cli_lint_path, but read by the
 * walk's rules (cli_file_kind with `walk`): a file of kind NONE is skipped silently (0). */
int cli_lint_found(cli *c, const char *path);
/* Commands given with -c. */
int cli_lint_inline(cli *c, const boxlint_span *cmds, size_t n);
/* Check the platform's base Dockerfile: sets c->opts.escape from it and *appendable, reports its
 * findings like a file's. *text holds the file (the caller frees it, also on failure). */
int cli_lint_base(cli *c, const char *path, char **text, size_t *len, int *appendable);

/*==============================================================================================
 * MARK: lint_jobs.c: a walked directory's files checked by several threads
 *============================================================================================*/

/* The number of CPUs the process may run on (sched_getaffinity), at least 1, at most
 * CLI_MAX_JOBS: --jobs's default. */
enum { CLI_MAX_JOBS = 1024 };
unsigned cli_default_jobs(void);
/* The files a walk finds, read and checked by up to `n` worker threads (started as files come)
 * while the main thread walks; each file's problems and findings printed by the main thread, in
 * the order the walk found the files, as the one-thread path prints them (byte for byte, on
 * both streams, and the same exit code). At most 16n files are held at once. */
typedef struct lint_jobs lint_jobs;
/* NULL when out of memory (the caller then checks on the main thread). */
lint_jobs *cli_jobs_new(cli *c, unsigned n);
/* Walk `dir` as cli_walk does, the files found checked by the workers; returns when every one
 * is printed: 0, or -1 when something could not be walked or a file could not be checked. */
int cli_jobs_walk(lint_jobs *j, const char *dir, const char *const *excludes, size_t nexcludes);
/* Stop and join the workers, release everything. NULL: nothing. */
void cli_jobs_free(lint_jobs *j);

#endif

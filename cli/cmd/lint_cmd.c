/* `boxlint [lint] [options] FILE... | -c CMD...`: lint every input given, in this order: the
 * platform's base (--base), the -c commands, each FILE; and print what was found as one output
 * (one JSON document, one SARIF log). Owns the lint command's own argument rule (at least
 * one input) and its exit code: 2 when an input could not be checked, else 1 when a finding is at
 * or above --fail-on, else 0. With --fix or --diff each FILE goes through fix_run.c instead.
 * A FILE that is a directory is walked (input/'s cli_walk) and each file found is linted
 * (cli_lint_found), by several threads with -j N > 1 (lint_jobs.c; its default the CPUs the
 * process may use), the output the same; --fix and --diff take one file at a time;
 * with --force-exclude, so is a FILE named, after cli_walk_skips.
 * Called by main.c; calls args.c, lint_print.c, lint_jobs.c, input/ (cli_walk), fix/ and
 * output/. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmd/cmd.h"

typedef struct input_ctx {
  const lint_args *a;
  FILE *text_out;
  lint_jobs *jobs;             /* a DIR's files on several threads (lint_jobs.c), or NULL */
} input_ctx;

/* A file found by a walk of a directory given on the command line. */
static int found(cli *c, const char *path, void *ctx) {
  const input_ctx *in = ctx;
  if (in->a->fix) return cli_fix_found(c, path, (enum fix_mode)in->a->fix, in->text_out);
  return cli_lint_found(c, path);
}

/* One FILE of the command line: checked whatever its name; a directory is walked. With
 * --force-exclude a FILE follows the walk's rules: passed over silently where a walk would pass
 * over it (cli_walk_skips), read by its kind as a walk reads it (skipped when it is not ours). */
static int lint_input(cli *c, const lint_args *a, const char *path, FILE *text_out,
                      lint_jobs *jobs) {
  input_ctx in = {a, text_out, jobs};
  struct stat st;
  if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    return jobs ? cli_jobs_walk(jobs, path, a->excludes, a->nexcludes)
                : cli_walk(c, path, a->excludes, a->nexcludes, found, &in);
  int is_stdin = !strcmp(path, "-");
  if (a->force_exclude && (!is_stdin || c->stdin_name)) { /* standard input: by its name */
    const char *name = is_stdin ? c->stdin_name : path;
    cli_kind k;
    if (cli_file_kind(c, name, NULL, 0, 1, &k)) return -1;
    if (k == CLI_KIND_NONE || k == CLI_KIND_CONFIG) return 0; /* by its name: not even read */
    if (cli_walk_skips(c, name, a->excludes, a->nexcludes)) return 0;
    return found(c, path, &in);
  }
  return a->fix ? cli_fix_path(c, path, (enum fix_mode)a->fix, text_out) : cli_lint_path(c, path);
}

static int lint_all(cli *c, const lint_args *a) {
  if (!a->npaths && !a->ninline)
    return cli_usage_error(c, "nothing to lint: give FILE... (- for standard input) or -c COMMAND",
                           NULL);
  if (a->fix && a->ninline)
    return cli_usage_error(c, "--fix and --diff take files, not -c", NULL);
  /* --diff, and --fix of standard input, print text on stdout: the findings go to stderr. */
  FILE *text_out = c->out;
  for (size_t k = 0; k < a->npaths && a->fix; k++)
    if (a->fix == FIX_DIFF || !strcmp(a->paths[k], "-")) c->out = c->err;
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
  /* Several threads for a walked directory, unless --fix or --diff (a file at a time). */
  unsigned njobs = a->jobs ? a->jobs : cli_default_jobs();
  lint_jobs *jobs = njobs > 1 && !a->fix ? cli_jobs_new(c, njobs) : NULL;
  for (size_t k = 0; k < a->npaths; k++)
    if (lint_input(c, a, a->paths[k], text_out, jobs)) io_error = 1;
  cli_jobs_free(jobs);
  cli_finish(c);
  if (a->fix) cli_fix_summary(c, (enum fix_mode)a->fix);
  c->out = text_out;
  return io_error ? EXIT_USAGE : c->worst;
}

int cli_cmd_lint(cli *c, int argc, char **argv) {
  lint_args a;
  int rc = cli_args_parse(c, argc, argv, &a);
  if (rc == CLI_ARGS_GO) rc = lint_all(c, &a);
  cli_args_free(c, &a);
  return rc;
}

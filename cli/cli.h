/* The boxlint command's shared types and the calls between its files. Data flows one way:
 *
 *   argv -> main.c (picks the sub-command) -> a command: lint_cmd.c, render_cmd.c, rules_cmd.c,
 *   policy_cmd.c -> args.c (the lint/render command line), lint_run.c (one input through
 *   input.c's files and configs, template_load.c's JSON-to-spans, the library) -> output.c, the
 *   one door into the formats (out_text.c, out_json.c, out_sarif.c, out_github.c, which share
 *   out_int.h and out_position.c; `boxlint policy` also takes out_json.c's cli_diag_json for its
 *   own document) -> standard output.
 *
 * A file calls only the files after it in that line, never back: the output modules never call
 * a command, and the commands never call each other. Everything uses the library's public API
 * only, plus jansson for JSON (read and written, never pasted together). */
#ifndef BOXLINT_CLI_H
#define BOXLINT_CLI_H
#include <stdio.h>
#include <jansson.h>
#include "boxlint/boxlint.h"

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2 };
enum format { FMT_TEXT, FMT_JSON, FMT_SARIF, FMT_GITHUB };
/* UNIT_POLICY: `boxlint policy FILE`, a NetworkPolicy file or a template's network_policy; its
 * findings' paths ("network_policy.allow_out[2]") are resolved from `policy_off`. */
enum unit_kind { UNIT_FRAGMENT, UNIT_JSON, UNIT_INLINE, UNIT_POLICY };

#define CLI_MAX_INPUT_BYTES (16u * 1024u * 1024u) /* larger inputs are refused, not read */

/* One linted input and its findings. */
typedef struct unit {
  const char *path;
  enum unit_kind kind;
  const char *text;            /* the file's bytes (fragment or JSON); NULL for -c */
  size_t len;
  const boxlint_span *cmds;    /* JSON and inline: the commands */
  size_t ncmds;
  size_t cmds_off;             /* JSON: offset of the commands array, or SIZE_MAX */
  const boxlint_report *reports[2]; /* the template's report, and the policy's (or NULL) */
  const boxlint_config *config;
  size_t policy_off;           /* UNIT_POLICY: offset of the policy object, or SIZE_MAX */
  const boxlint_diag *extra;   /* findings of the command itself, after the reports' */
  size_t nextra;
} unit;

typedef struct cli {
  enum format format;
  boxlint_severity fail_on;
  int color;
  boxlint_options opts;
  const char *config_path;   /* --config */
  boxlint_config *config;    /* loaded from --config, or NULL */
  unsigned compat;           /* policy compat bits */
  FILE *out, *err;
  json_t *json_files;        /* --format json */
  json_t *sarif_results;     /* --format sarif */
  json_t *sarif_rules;       /* rule id -> index (object) */
  json_t *sarif_rule_list;
  int worst;                 /* exit code so far */
  struct cfg_cache { char *path; boxlint_config *cfg; } *cache; /* configs found upward */
  size_t ncache;
} cli;

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
} lint_args;

enum { CLI_ARGS_GO = -1 };
/* Parse argv[1..] into `c` (format, fail_on, config_path, compat, color) and `a`, then load
 * --config into c->config. Returns CLI_ARGS_GO, or the exit code when the command is done: after
 * --help (the usage printed) or a usage, memory or config error (one message printed). `a` is
 * filled in every case; cli_args_free releases it and c's configs. */
int cli_args_parse(cli *c, int argc, char **argv, lint_args *a);
void cli_args_free(cli *c, lint_args *a);
/* The full usage text (`boxlint help`, `--help`). */
void cli_usage(FILE *f);
/* A usage error: one line on c->err naming what was wrong (and `arg`, quoted, unless NULL) and
 * where the usage is. Returns EXIT_USAGE. */
int cli_usage_error(cli *c, const char *what, const char *arg);

/*==============================================================================================
 * MARK: lint_run.c: one input through config, load, library and output
 * Each returns 0, or -1 after printing why the input could not be checked (the exit code 2).
 *============================================================================================*/

/* A file's bytes: JSON (cli_looks_like_json) or a Dockerfile fragment. */
int cli_lint_text(cli *c, const char *path, const char *text, size_t len);
/* The same, reading `path` first ("-": standard input). */
int cli_lint_path(cli *c, const char *path);
/* Commands given with -c. */
int cli_lint_inline(cli *c, const boxlint_span *cmds, size_t n);
/* Check the platform's base Dockerfile: sets c->opts.escape from it and *appendable, reports its
 * findings like a file's. *text holds the file (the caller frees it, also on failure). */
int cli_lint_base(cli *c, const char *path, char **text, size_t *len, int *appendable);

/*==============================================================================================
 * MARK: template_load.c: a .json input into spans
 *============================================================================================*/

/* A .json input: a template object or a bare array of commands. The spans point into `root`. */
typedef struct loaded_json {
  json_t *root;
  boxlint_span *cmds;
  size_t ncmds;
  size_t cmds_off;             /* offset of the commands array in the text, or SIZE_MAX */
  int is_template;
  boxlint_template tpl;
  boxlint_span *extra;         /* the template's unknown keys (tpl.extra_fields) */
  char num_text[2][64];        /* cpu_count, memory_mb as written when not integers */
  json_t *policy;              /* network_policy object, or NULL */
  size_t policy_off;
  boxlint_span *policy_lists[2]; /* allow_out, deny_out (cli_load_policy_spec) */
} loaded_json;

/* Does the input read as JSON: a .json path, or standard input starting with '[' or '{'? */
int cli_looks_like_json(const char *path, const char *buf, size_t len);
/* Parse `text` into `l` (always initialised; cli_loaded_free it). Returns 0, or -1 with the
 * problem printed at its line and column. */
int cli_load_json(cli *c, const char *path, const char *text, size_t len, loaded_json *l);
/* The template's network_policy (l->policy, not NULL) as a spec whose lists `l` owns. Returns 0,
 * or -1 (a malformed member printed at its position; nothing printed when out of memory). */
int cli_load_policy_spec(cli *c, const char *path, const char *text, size_t len, loaded_json *l,
                         boxlint_policy_spec *spec);
void cli_loaded_free(loaded_json *l);

/*==============================================================================================
 * MARK: input.c: files and configuration
 *============================================================================================*/

/* Read `path` ("-": standard input) whole, up to CLI_MAX_INPUT_BYTES. Returns 0 with *buf
 * malloc'd (the caller frees it), or -1 with the problem printed and *buf NULL. */
int cli_read_file(cli *c, const char *path, char **buf, size_t *len);
/* Load a config file; prints the problem with its position and returns NULL on failure. */
boxlint_config *cli_load_config(cli *c, const char *path);
/* The config that applies to `path`: --config, else .boxlint.json searched upward (cached). */
int cli_config_for(cli *c, const char *path, const boxlint_config **out);
void cli_configs_free(cli *c);

/*==============================================================================================
 * MARK: output.c and out_json.c: findings out, in c->format
 *============================================================================================*/

void cli_begin(cli *c);
/* Print (text, github) or collect (json, sarif) the unit's findings; raises c->worst to
 * EXIT_FINDINGS when one is at or above c->fail_on. */
void cli_emit_unit(cli *c, const unit *u);
/* Print what was collected (json, sarif). */
void cli_finish(cli *c);
/* One diagnostic as DESIGN §5's JSON object; `u` NULL: no file to take positions from. */
json_t *cli_diag_json(const unit *u, const boxlint_diag *d, boxlint_severity sev);

#endif

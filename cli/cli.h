/* Shared between the CLI's source files. */
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

/* A finding's position in the file (for text, SARIF and GitHub output). */
typedef struct fpos {
  int has;
  uint32_t line, col, end_line, end_col;
  size_t off, end_off;
} fpos;

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

/* input.c */
int cli_read_file(cli *c, const char *path, char **buf, size_t *len);
/* Load a config file; prints the problem with its position and returns NULL on failure. */
boxlint_config *cli_load_config(cli *c, const char *path);
/* The config that applies to `path`: --config, else .boxlint.json searched upward (cached). */
int cli_config_for(cli *c, const char *path, const boxlint_config **out);
void cli_configs_free(cli *c);

/* output.c */
boxlint_severity cli_severity(const unit *u, const boxlint_diag *d);
void cli_position(const unit *u, const boxlint_diag *d, fpos *p);
/* One diagnostic as DESIGN §5's JSON object; `u` NULL: no file to take positions from. */
json_t *cli_diag_json(const unit *u, const boxlint_diag *d, boxlint_severity sev);
/* The SARIF artifactLocation of the file `path` names, for results and fixes alike: an absolute
 * path as a file:// URI, a relative one as a relative reference with "uriBaseId": "%SRCROOT%"
 * (the working directory, which cli_finish declares in run.originalUriBaseIds), percent-encoded.
 * NULL for "-" (standard input: no artifact; leave physicalLocation out) and when out of memory.
 * The caller owns the result. */
json_t *cli_sarif_artifact(const char *path);
void cli_emit_unit(cli *c, const unit *u);
void cli_begin(cli *c);
void cli_finish(cli *c);

/* policy_cmd.c: `boxlint policy ...`: argv[0] is "policy". Returns the exit code. */
int boxlint_cli_policy(int argc, char **argv, FILE *out, FILE *err);

#endif

/* The boxlint command's shared state: the exit codes, the output formats and the `cli` struct
 * every part of the command reads (with the two records it holds: a config's "fragments" and a
 * problem). Nothing else: each folder's calls are in its own header, and calls go one way:
 *
 *   cmd/ (main.c, the sub-commands, the options) -> lsp/ (the language server) -> fix/ (--fix,
 *   --diff) -> output/ (the formats) -> input/ (reading, kinds, checking) -> walk/ (directories
 *   and gitignore rules, libc only, no knowledge of `cli`)
 *
 * A folder includes another's one header (cmd/cmd.h, lsp/lsp.h, fix/fix.h, output/output.h,
 * input/input.h, walk/walk.h) and nothing else of it; tests/repo/layering_test.py checks it. Every
 * file uses the library's public API only, plus jansson for JSON. */
#ifndef BOXLINT_CLI_H
#define BOXLINT_CLI_H
#ifndef BOXLINT_WASI
#include <pthread.h>
typedef pthread_mutex_t cli_mutex;
#else
/* The WebAssembly build of the command (wasm/): WASI has no threads, so -j N checks on the main
   thread (cmd/lint_jobs.c) and nothing is ever locked. */
typedef int cli_mutex;
#endif
#include <stdio.h>
#include <sys/stat.h>
#include <jansson.h>
#include "boxlint/boxlint.h"

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2 };
enum format { FMT_TEXT, FMT_JSON, FMT_SARIF, FMT_GITHUB };

#define CLI_MAX_INPUT_BYTES (16u * 1024u * 1024u) /* larger inputs are refused, not read */

/* The "fragments" globs of a config (input.c): which files a walk (input/dir.c) reads as Dockerfile
 * fragments. A glob with a '/' is relative to `dir`, the config file's directory (absolute). */
typedef struct cli_fragments {
  char *dir;
  char **globs;
  size_t n;
} cli_fragments;

/* Why an input or its configuration could not be checked (problem.c): made by the loaders
 * (input.c, template_load.c) and lint_run.c, printed by the command, published by the language
 * server. Every string is borrowed for the duration of the report. */
typedef struct cli_problem {
  const char *path;            /* the file it is about (the input, its config), or NULL */
  uint32_t line, column;       /* 1-based, the column in code points; 0: no position */
  size_t offset, end_offset;   /* the byte range in that file's text, or SIZE_MAX */
  const char *rule;            /* "invalid-input", "invalid-config", "io-error", or the
                                  library's rule of a Python syntax error */
  const char *message;         /* the text after "boxlint: PATH:LINE:COLUMN: " */
  const char *hint;            /* what to do (the editor shows it; not printed), or NULL */
} cli_problem;

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
  /* configs found upward, each with its "fragments", each entry allocated once (an entry and
     its "fragments" stay where they are until cli_configs_free) */
  struct cfg_cache { char *path; boxlint_config *cfg; cli_fragments frag; } **cache;
  size_t ncache;
  /* A directory checked by several threads (cmd/lint_jobs.c): each worker checks with a copy
     of the command's cli whose `cache_owner` is the command's own; the configs found upward
     are then the owner's, looked up and added under the owner's `cache_lock` (NULL while one
     thread checks). */
  struct cli *cache_owner;
  cli_mutex *cache_lock;
  /* A walk's last lookup (input.c, with `walking` only): the directory and its cache entry, so
     that the files of one directory do not each look upward for a .boxlint.json. */
  char last_dir[4096];         /* PATH_MAX on Linux (input.c asserts it) */
  struct cfg_cache *last_cfg;
  cli_fragments config_frag; /* --config's "fragments" */
  const char *stdin_name;    /* --stdin-filename: what standard input is named and read as */
  int kind;                  /* --kind: 0 auto (by name), else the cli_kind every file named
                                and standard input are read as (FRAGMENT, PYTHON or JSON) */
  int walking;               /* set by input/dir.c around a found file: cli_read_file opens it only
                                if it is a regular file, not through a link, never blocking */
  int stdin_noted;           /* the note on how standard input was read was printed (kind.c) */
  /* Where problems go (problem.c): NULL, printed on `err`; the language server keeps them. */
  void (*on_problem)(struct cli *c, const struct cli_problem *p, void *ctx);
  void *problem_ctx;
  char **said;               /* configuration problems printed (each once per command) */
  size_t nsaid;
  int unsafe_fixes;          /* --unsafe-fixes: --fix and --diff apply unsafe fixes too */
  struct cli_fix_tally {     /* --fix and --diff so far (fix_run.c): findings whose fix was */
    size_t fixed, remaining, hidden; /* applied, findings left, unsafe fixes left unapplied */
  } fix_tally;
} cli;

#endif

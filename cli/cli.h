/* The boxlint command's shared types and the calls between its files. Data flows one way:
 *
 *   argv -> main.c (picks the sub-command) -> a command: lint_cmd.c, render_cmd.c, rules_cmd.c,
 *   policy_cmd.c, lsp.c (the language server; lsp_actions.c, lsp_io.c, lsp_doc.c, lsp.h) -> args.c (the lint/render command line), walk.c (a directory's files, handed
 *   back to lint_cmd.c through a callback; gitignore.c), lint_run.c (one input through
 *   kind.c's decision of what it is, input.c's files and configs, template_load.c's
 *   JSON-to-spans, the library; problem.c's records of what stopped it) -> output.c, the
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
#include <sys/stat.h>
#include <jansson.h>
#include "boxlint/boxlint.h"

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2 };
enum format { FMT_TEXT, FMT_JSON, FMT_SARIF, FMT_GITHUB };
/* UNIT_POLICY: `boxlint policy FILE`, a NetworkPolicy file or a template's network_policy; its
 * findings' paths ("network_policy.allow_out[2]") are resolved from `policy_off`. */
/* UNIT_PYTHON: a .py file; its findings carry file positions and file edits, as a fragment's. */
enum unit_kind { UNIT_FRAGMENT, UNIT_JSON, UNIT_INLINE, UNIT_POLICY, UNIT_PYTHON };

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

/* The "fragments" globs of a config (input.c): which files a walk (walk.c) reads as Dockerfile
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
  /* configs found upward, each with its "fragments" */
  struct cfg_cache { char *path; boxlint_config *cfg; cli_fragments frag; } *cache;
  size_t ncache;
  cli_fragments config_frag; /* --config's "fragments" */
  const char *stdin_name;    /* --stdin-filename: what standard input is named and read as */
  int walking;               /* set by walk.c around a found file: cli_read_file opens it only
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

/*==============================================================================================
 * MARK: problem.c: problems as data
 *============================================================================================*/

/* Hand `p` to c->on_problem, or print it on c->err as "boxlint: PATH:LINE:COLUMN: MESSAGE"
 * ("boxlint: PATH: MESSAGE" without a position, "boxlint: MESSAGE" without a path). */
void cli_problem_report(cli *c, const cli_problem *p);
/* The same from parts: `offset` SIZE_MAX when not known; `line` 0 for no position. */
void cli_problemf(cli *c, const char *path, uint32_t line, uint32_t column, size_t offset,
                  const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
void cli_problem_print(FILE *f, const cli_problem *p);

/*==============================================================================================
 * MARK: kind.c: what a file is (the one decision every entrance takes)
 *============================================================================================*/

typedef enum cli_kind {
  CLI_KIND_NONE,               /* nothing of boxlint's: passed over by a walk and the editor */
  CLI_KIND_TEMPLATE, CLI_KIND_COMMANDS, CLI_KIND_BINDING, CLI_KIND_POLICY, /* JSON */
  CLI_KIND_FRAGMENT, CLI_KIND_PYTHON,
  CLI_KIND_CONFIG,             /* .boxlint.json: the configuration, never a template */
  CLI_KIND_JSON                /* cli_name_kind only: a *.json whose content decides */
} cli_kind;
/* The kind a file's name gives (its last component): CONFIG for ".boxlint.json", PYTHON for
 * *.py, JSON for another *.json, FRAGMENT for *.Dockerfile, Dockerfile.*, *.dockerfrag or when
 * `frag_hit` (a "fragments" glob names it), else NONE (an ordinary `Dockerfile` among them). */
cli_kind cli_name_kind(const char *path, int frag_hit);
/* Is `path` (or standard input's --stdin-filename) a Python source file, by its name? */
int cli_is_python(const cli *c, const char *path);
/* Does a glob of `frag` name the file: `name` its last component, `rel` its path from
 * frag->dir (NULL when it is not below it: the globs with a '/' match nothing)? */
int cli_fragments_hit(const cli_fragments *frag, const char *name, const char *rel);
/* A JSON document's kind. `walk` (the walk's rules): TEMPLATE only for an object with a key of a
 * template ("commands", "network_policy", "cpu_count", "memory_mb"), COMMANDS only for a
 * non-empty array of strings, POLICY only with "allow_out", "deny_out" or a known "type", else
 * NONE. Without `walk` (a file named): any array is COMMANDS, any other root a TEMPLATE (the
 * loader says what is wrong with it). "template_id": BINDING; only policy keys: POLICY. */
cli_kind cli_json_kind(json_t *root, int walk);
/* The kind of `path` holding `text` ("-": standard input, named by c->stdin_name if given;
 * without it, JSON when the text starts with '[' or '{', else a fragment, with one note on
 * c->err when it looks like Python or JSON). `walk`: the walk's rules (a name that is not ours
 * unless a "fragments" glob names it, JSON by its content, invalid JSON NONE unless it names a
 * key of a template, binding or policy: then TEMPLATE, for the loader to report); else the reading
 * of a file named on the command line (JSON by its root, invalid JSON a TEMPLATE for the loader
 * to report, any other name a FRAGMENT). CONFIG in both. `text` NULL: by the name alone (JSON
 * for a *.json), to pass over a file without reading it. Returns 0, or -1 when the config that
 * would give its "fragments" could not be loaded (reported). */
int cli_file_kind(cli *c, const char *path, const char *text, size_t len, int walk,
                  cli_kind *out);
/* Does the text look like Python (SDK names, or a first line such as import, from ... import,
 * def, class, a decorator, #!...python)? */
int cli_text_looks_python(const char *text, size_t len);
/* "a template", "a Dockerfile fragment", ... for messages. */
const char *cli_kind_name(cli_kind k);

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
int cli_cmd_lsp(cli *c, int argc, char **argv);     /* lsp.c: the language server */

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
  const char **excludes;       /* --exclude GLOB... (walk.c) */
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
/* The full usage text (`boxlint help`, `--help`). */
void cli_usage(FILE *f);
/* A usage error: one line on c->err naming what was wrong (and `arg`, quoted, unless NULL) and
 * where the usage is. Returns EXIT_USAGE. */
int cli_usage_error(cli *c, const char *what, const char *arg);

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
  enum { LJ_COMMANDS, LJ_TEMPLATE, LJ_BINDING, LJ_POLICY } kind; /* what the root is */
  int looks_template;          /* LJ_TEMPLATE with at least one template key */
  boxlint_template tpl;
  boxlint_binding bind;        /* LJ_BINDING */
  char tid_text[64];           /* a template_id that is not a string, as written */
  boxlint_span *extra;         /* the template's unknown keys (tpl.extra_fields) */
  char num_text[2][64];        /* cpu_count, memory_mb as written when not integers */
  json_t *policy;              /* network_policy object, or NULL */
  size_t policy_off;
  boxlint_span *policy_lists[2]; /* allow_out, deny_out (cli_load_policy_spec) */
} loaded_json;

/* Parse `text` into `l` (always initialised; cli_loaded_free it): what the root is from
 * cli_json_kind (a file named: any object a template unless it is a binding or a policy).
 * Returns 0, or -1 with the problem reported ("invalid-input", at its line, column and byte
 * offset: cli_problem_report). */
int cli_load_json(cli *c, const char *path, const char *text, size_t len, loaded_json *l);
/* The template's network_policy (l->policy, not NULL) as a spec whose lists `l` owns. Returns 0,
 * or -1 (a malformed member reported at its position; nothing reported when out of memory). */
int cli_load_policy_spec(cli *c, const char *path, const char *text, size_t len, loaded_json *l,
                         boxlint_policy_spec *spec);
void cli_loaded_free(loaded_json *l);

/*==============================================================================================
 * MARK: lint_run.c: one input through config, load, library and output
 * Each returns 0, or -1 after printing why the input could not be checked (the exit code 2).
 *============================================================================================*/

/* An input checked, its findings not yet printed: the unit and what it points into. */
typedef struct checked {
  unit u;
  loaded_json l;
  boxlint_report *r, *pr;
  cli_kind kind;               /* what the input is (cli_file_kind) */
  int skipped;                 /* nothing to show: k->kind is NONE or CONFIG */
} checked;
/* Check a file's bytes, read as its kind (cli_file_kind: Python, JSON, a Dockerfile fragment),
 * into `k`, which cli_checked_free releases in every case. Returns 0, or -1 (why reported:
 * cli_problem_report). `path` "-" is standard input, named by --stdin-filename if given. With
 * `found` (the walk's rules: a file a walk found, or named with --force-exclude, or open in the
 * editor), a file of kind NONE is skipped: 0 is returned with k->skipped set. The
 * configuration (.boxlint.json) is always skipped; named without `found`, it is loaded as a
 * config, so that its problems are reported. */
int cli_check_text(cli *c, const char *path, const char *text, size_t len, checked *k);
int cli_check_found(cli *c, const char *path, const char *text, size_t len, int found,
                    checked *k);
void cli_checked_free(checked *k);
/* cli_check_text, then the findings out through output.c. */
int cli_lint_text(cli *c, const char *path, const char *text, size_t len);
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

/*==============================================================================================
 * MARK: fix_run.c, fix_edits.c, fix_diff.c: --fix and --diff (docs/command.md "Fixes")
 *============================================================================================*/

enum fix_mode { FIX_NONE, FIX_APPLY, FIX_DIFF };
/* Fix one path (lint_cmd.c calls this instead of cli_lint_path): check it, apply its fixes
 * (boxlint_apply_fixes), check the result again, and repeat while fixes apply (at most 10
 * passes); a result that no longer loads is never kept. FIX_APPLY: the file is replaced
 * atomically by cli_fix_write (or refused, see there; "-": the fixed text goes to `text_out`),
 * then the findings that remain are emitted. FIX_DIFF: a unified diff on `text_out`, nothing
 * written, no finding emitted, c->worst raised to EXIT_FINDINGS when the file would change.
 * Returns 0, or -1 after printing why (the exit code 2). */
int cli_fix_path(cli *c, const char *path, enum fix_mode mode, FILE *text_out);
/* The passes of cli_fix_path on a text in memory named `path` (the editor server's "fix all"):
 * *out the fixed text (malloc'd, NUL-terminated), or NULL when nothing changes. Returns 0, or
 * -1 (why printed on c->err: the text does not load, a fixed text would not, no memory). */
int cli_fix_text(cli *c, const char *path, const char *text, size_t len, char **out,
                 size_t *out_len);
/* A file found by a walk: as cli_fix_path, but JSON that is not a template, an array of
 * commands, a binding or a policy is skipped silently (0), as cli_lint_found skips it. */
int cli_fix_found(cli *c, const char *path, enum fix_mode mode, FILE *text_out);
/* After every path: one line on c->err, "boxlint: N found, M fixed, K remaining" (--diff:
 * "fixed by the diff"), then "; J unsafe fix(es) available with --unsafe-fixes" when some were
 * left unapplied for want of it; nothing when nothing was found. Found is fixed + remaining (a
 * fix that reveals a finding adds one). */
void cli_fix_summary(cli *c, enum fix_mode mode);

/* fix_write.c: --fix's file, open from its reading to its replacement. */
typedef struct cli_fix_file {
  int fd, dfd;              /* the file as read (read-only), its directory */
  char *name;               /* its name in that directory (malloc'd) */
  struct stat st;           /* fstat when opened */
} cli_fix_file;
/* Open `path` and read it whole into *buf (malloc'd): a symbolic link named on the command line
 * is followed, one found by a walk (`found`) refused; only a regular file, up to
 * CLI_MAX_INPUT_BYTES. Returns 0 (cli_fix_close it), or -1 with why printed and nothing open. */
int cli_fix_open(cli *c, const char *path, int found, cli_fix_file *f, char **buf,
                 size_t *len);
/* Replace the file with `text` atomically, keeping owner, group, mode and extended attributes
 * (ACLs), unless the user could not write it in place, it has several hard links, what it has
 * cannot be kept, or it is no longer `orig` (checked just before the rename). Returns 0, or -1
 * with why printed on c->err and the file untouched. */
int cli_fix_write(cli *c, const char *path, cli_fix_file *f, const char *orig, size_t olen,
                  const char *text, size_t len);
void cli_fix_close(cli_fix_file *f);

/* A unit's fixes as edits of its file (fix_edits.c), ready for boxlint_apply_fixes. */
typedef struct fix_edits {
  boxlint_fix *fix;         /* `n` edits; each `text` malloc'd, owned here; each with the
                               safety of the fix it is made of */
  size_t *nfind;            /* `n` counts: how many findings propose each edit */
  const boxlint_fix **ptr;  /* `n` pointers to them */
  size_t n, cap;
} fix_edits;
/* Every shown finding's fix in `u` as an edit of u->text (identical edits once). `e` is
 * initialised in every case; cli_fix_edits_free releases it. Returns 0, or -1 out of memory. */
int cli_fix_edits(const unit *u, fix_edits *e);
void cli_fix_edits_free(fix_edits *e);
/* The edits of one finding's fix alone (none when it has no fix), as cli_fix_edits makes them. */
int cli_fix_edit_one(const unit *u, const boxlint_diag *d, fix_edits *e);
/* `a` -> `b` as a unified diff of `path` ("--- a/PATH", "+++ b/PATH", 3 lines of context) on
 * `f`; nothing when they are equal. Returns 0, or -1 out of memory (nothing printed). */
int cli_diff_print(FILE *f, const char *path, const char *a, size_t alen, const char *b,
                   size_t blen);

/*==============================================================================================
 * MARK: walk.c: a directory given to lint (what it reads and skips: docs/command.md)
 *============================================================================================*/

/* What a walk calls for each file it finds, with its path: the directory as given, then the
 * path inside it ("src/a/t.py"). Nonzero counts as a failure (the walk goes on). */
typedef int (*cli_walk_fn)(cli *c, const char *path, void *ctx);
/* Walk directory `dir` depth first, the entries of each directory in bytewise (strcmp) order,
 * calling `each` for every file whose name is ours (cli_name_kind: *.py, *.json but not
 * .boxlint.json, *.Dockerfile, Dockerfile.*, *.dockerfrag, and what the "fragments" globs of the
 * directory's config name; the content of a JSON file decides when it is read). Skipped:
 * hidden directories (but `dir` itself is walked whatever its name), node_modules, __pycache__, site-packages, virtual
 * environments (a directory holding pyvenv.cfg or conda-meta/), symbolic links (to a file or a
 * directory: the walk stays in the tree) and what is not a regular file or a directory, what an
 * --exclude glob matches (`excludes`: without '/', a name; with one, a path from `dir`) and,
 * inside a git work tree only, what git ignores (.gitignore files from the work tree's root
 * down, .git/info/exclude). `each` runs with c->walking set.
 * Returns 0, or -1 when something could not be walked (each printed as `boxlint: PATH:
 * reason`, the rest still walked) or a call of `each` failed. */
int cli_walk(cli *c, const char *dir, const char *const *excludes, size_t nexcludes,
             cli_walk_fn each, void *ctx);
/* Would a walk pass over the file `path` because of where it is (its kind aside: that is
 * cli_file_kind's)? 1 when a directory on its way is skipped (hidden, node_modules,
 * __pycache__, site-packages, a virtual environment), an --exclude glob matches it or a
 * directory above it, or git ignores it, as a walk from the working directory (when the file
 * is below it; else from the root of the git work tree holding it) would find; else 0 (also
 * when its directory does not exist). Used by --force-exclude and the language server. */
int cli_walk_skips(cli *c, const char *path, const char *const *excludes, size_t nexcludes);

/*==============================================================================================
 * MARK: input.c: files and configuration
 *============================================================================================*/

/* Read `path` ("-": standard input) whole, up to CLI_MAX_INPUT_BYTES. Returns 0 with *buf
 * malloc'd (the caller frees it), or -1 with the problem reported ("io-error") and *buf NULL. */
int cli_read_file(cli *c, const char *path, char **buf, size_t *len);
/* Load a config file; reports the problem ("invalid-config", with the config's path and
 * position: cli_problem_report) and returns NULL on failure. These loaders are the command's
 * only reading of a .boxlint.json: other commands (policy) load configs through them. */
boxlint_config *cli_load_config(cli *c, const char *path);
/* The same, keeping its "fragments" in *frag (left empty on failure; cli_fragments_free it). */
boxlint_config *cli_load_config_frag(cli *c, const char *path, cli_fragments *frag);
/* The same from a text in memory named `path` (`frag` may be NULL). */
boxlint_config *cli_load_config_text(cli *c, const char *path, const char *text, size_t len,
                                     cli_fragments *frag);
void cli_fragments_free(cli_fragments *frag);
/* The config that applies to `path`: --config, else .boxlint.json searched upward (cached). */
int cli_config_for(cli *c, const char *path, const boxlint_config **out);
/* The "fragments" of the config that applies to the files of directory `dir` (as
 * cli_config_for finds it; c->config_frag with --config). Returns 0, or -1 (why printed).
 * *out stays valid until the next call of cli_config_for or cli_fragments_for. */
int cli_fragments_for(cli *c, const char *dir, const cli_fragments **out);
void cli_configs_free(cli *c);

/*==============================================================================================
 * MARK: output.c and out_json.c: findings out, in c->format
 *============================================================================================*/

/* What the calls between cli_capture_begin and cli_capture_end print on c->err, kept instead
 * (--fix's re-checks, fix_run.c, which quote it): the text, malloc'd and NUL-terminated, or
 * NULL when nothing was printed or it could not be kept. The caller frees it. The language
 * server does not use it: it takes problems as records (c->on_problem). */
typedef struct cli_capture {
  FILE *saved, *mem;
  char *text;
  size_t len;
} cli_capture;
void cli_capture_begin(cli *c, cli_capture *cap);
char *cli_capture_end(cli *c, cli_capture *cap);

void cli_begin(cli *c);
/* Print (text, github) or collect (json, sarif) the unit's findings; raises c->worst to
 * EXIT_FINDINGS when one is at or above c->fail_on. */
void cli_emit_unit(cli *c, const unit *u);
/* Print what was collected (json, sarif). */
void cli_finish(cli *c);
/* The severity `d` is shown with: its own (the library applied the unit's config). */
boxlint_severity cli_shown_severity(const unit *u, const boxlint_diag *d);
/* Each finding of the unit that is shown (its reports', then its own), with its severity. */
typedef void (*cli_shown_fn)(const unit *u, const boxlint_diag *d, boxlint_severity sev,
                             void *ctx);
void cli_each_shown(const unit *u, cli_shown_fn fn, void *ctx);
/* The byte range of the unit's text that `d` is about (out_position.c): 1, or 0 when there is
 * no text to point into. */
int cli_finding_span(const unit *u, const boxlint_diag *d, size_t *start, size_t *end);
/* Between these (out_position.c), positions in `u` are found through an index of its text built
 * once, so that showing every finding is linear in the file (one unit at a time per thread;
 * u's text must not change meanwhile). Outside, each position scans, with the same answers. */
void cli_positions_begin(const unit *u);
void cli_positions_end(void);
/* One diagnostic as the JSON object docs/command.md documents for `--format json`; `u` NULL: no
 * file to take positions from. */
json_t *cli_diag_json(const unit *u, const boxlint_diag *d, boxlint_severity sev);

#endif

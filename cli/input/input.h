/* cli/input/: reading an input into what the library checks. What a file is (kind.c), why it
 * could not be checked (problem.c), files and configs (input.c), JSON into spans (template_load.c)
 * and positions in JSON text (jsonpos.c), one input checked (lint_run.c), and the walk of a
 * directory with the kind decision as its filter (dir.c, over walk/). The folder's whole
 * interface; it calls walk/ and the library, nothing else of the command. */
#ifndef BOXLINT_CLI_INPUT_H
#define BOXLINT_CLI_INPUT_H
#include <stddef.h>
#include <stdint.h>
#include "cli.h"

/* UNIT_POLICY: `boxlint policy FILE`, a NetworkPolicy file or a template's network_policy; its
 * findings' paths ("network_policy.allow_out[2]") are resolved from `policy_off`. */
/* UNIT_PYTHON: a .py file; its findings carry file positions and file edits, as a fragment's. */
enum unit_kind { UNIT_FRAGMENT, UNIT_JSON, UNIT_INLINE, UNIT_POLICY, UNIT_PYTHON };

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
  boxlint_python_cache *pycache; /* Python: what the last check of the same document kept, for
                                    boxlint_check_python_cached (the language server's open
                                    document); NULL: a full check (the command line) */
} unit;

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
/* `s` as a line of text output may show it (a path, a message): each control byte, DEL and
 * backslash written as a C escape (\n, \x1b, \\), so that a file's name can never start a
 * line of its own (a forged finding or GitHub workflow command) or drive the terminal. Returns
 * `s` itself when nothing needs escaping, else `buf` (n bytes; CLI_VISIBLE_MAX holds any path
 * escaped, longer text is cut). */
#define CLI_VISIBLE_MAX (4 * 4096 + 1)
const char *cli_visible(const char *s, char *buf, size_t n);

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
 * of a file named on the command line (c->kind when --kind gave one; JSON by its root, invalid
 * JSON a TEMPLATE for the loader to report; any other name a FRAGMENT only when a "fragments"
 * glob names it, else refused). CONFIG in both. `text` NULL: by the name alone (JSON for a
 * *.json), to pass over a file without reading it. Returns 0, or -1 when the config that would
 * give its "fragments" could not be loaded, or a named file is of no kind of boxlint's
 * ("unknown-kind"; both reported). */
int cli_file_kind(cli *c, const char *path, const char *text, size_t len, int walk,
                  cli_kind *out);
/* Does the text look like Python (SDK names, or a first line such as import, from ... import,
 * def, class, a decorator, #!...python)? */
int cli_text_looks_python(const char *text, size_t len);
/* "a template", "a Dockerfile fragment", ... for messages. */
const char *cli_kind_name(cli_kind k);

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
 * MARK: lint_run.c: one input through config, load and library
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
/* cli_check_found with `pycache` (NULL: none) for a Python file's check: the language server's
 * open document, checked again after each edit with the same options and config objects. */
int cli_check_cached(cli *c, const char *path, const char *text, size_t len, int found,
                     boxlint_python_cache *pycache, checked *k);
void cli_checked_free(checked *k);
/* cli_check_text, then the findings out through output.c. */
int cli_lint_text(cli *c, const char *path, const char *text, size_t len);

/*==============================================================================================
 * MARK: dir.c: a directory given to lint (what it reads and skips: docs/command.md)
 *============================================================================================*/

/* What a walk calls for each file it finds, with its path: the directory as given, then the
 * path inside it ("src/a/t.py"). Nonzero counts as a failure (the walk goes on). */
typedef int (*cli_walk_fn)(cli *c, const char *path, void *ctx);
/* Walk directory `dir` depth first, the entries of each directory in bytewise (strcmp) order,
 * calling `each` for every file whose name is ours (cli_name_kind: *.py, *.json but not
 * .boxlint.json, *.Dockerfile, Dockerfile.*, *.dockerfrag, and what the "fragments" globs of
 * the directory's config name; the content of a JSON file decides when it is read). Skipped:
 * hidden directories (but `dir` itself is walked whatever its name), node_modules,
 * __pycache__, site-packages, virtual environments (a directory holding pyvenv.cfg or
 * conda-meta/), symbolic links (to a file or a directory: the walk stays in the tree) and what
 * is not a regular file or a directory, what an --exclude glob matches (`excludes`: without
 * '/', a name; with one, a path from `dir`) and, inside a git work tree only, what git ignores
 * (.gitignore files from the work tree's root down, .git/info/exclude). `each` runs with
 * c->walking set. Returns 0, or -1 when something could not be walked (each printed as
 * `boxlint: PATH: reason`, the rest still walked) or a call of `each` failed. */
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
 * *out stays valid until cli_configs_free (the cache's entries never move). With workers
 * (cmd/lint_jobs.c), both are called from any thread: a worker's copy of the cli reaches the
 * command's cache through c->cache_owner, under its lock. */
int cli_fragments_for(cli *c, const char *dir, const cli_fragments **out);
void cli_configs_free(cli *c);

/*==============================================================================================
 * MARK: jsonpos.c: positions inside JSON text that jansson has already validated
 *============================================================================================*/

/* Offset of the first non-space byte at or after i. */
size_t jp_ws(const char *s, size_t n, size_t i);
/* Offset just past the value that starts at i. */
size_t jp_skip(const char *s, size_t n, size_t i);
/* The value of member `key` of the object at `obj` ('{'); SIZE_MAX when absent. Also gives the
 * offset of the key's opening quote in *key_off (may be NULL). */
size_t jp_member(const char *s, size_t n, size_t obj, const char *key, size_t *key_off);
/* Element `idx` of the array at `arr` ('['); SIZE_MAX when absent. */
size_t jp_element(const char *s, size_t n, size_t arr, size_t idx);
/* Raw offset in the JSON text of decoded byte `d` of the string literal at `str` ('"'). */
size_t jp_string_offset(const char *s, size_t n, size_t str, size_t d);
/* The same from a point of the literal already passed: raw offset *at (a character's or an
 * escape's start) where *decoded bytes have been decoded, for d >= *decoded; both moved to the
 * start of what holds byte d, so that offsets asked in order cost one pass over the literal. */
size_t jp_string_resume(const char *s, size_t n, size_t *at, size_t *decoded, size_t d);
/* 1-based line and column (code points) of offset `off`. */
void jp_line_col(const char *s, size_t n, size_t off, uint32_t *line, uint32_t *col);
/* Follow a path "a.b[2].c" from the root value; SIZE_MAX when absent. */
size_t jp_path(const char *s, size_t n, const char *path);
/* The same from the value at offset `at` ("" names that value itself); SIZE_MAX when absent. */
size_t jp_path_at(const char *s, size_t n, size_t at, const char *path);

/* An index of one text, so that many positions cost what one does (issue 23: a file with 80,000
 * findings): line and column from a checkpoint every JP_BLOCK bytes (line, column and line start
 * there), then at most JP_BLOCK bytes scanned; an object's members and an array's elements
 * tabled on the first lookup in them (members sorted by key), so a path costs a binary search
 * per component instead of a scan of every sibling before it. Built in O(n), memory about n/5
 * bytes plus the tables; the text must not change while it is in use. The jp_ix_* calls take
 * the index or NULL (NULL: the plain scans above, same answers), and an index that ran out of
 * memory answers by those scans too. */
enum { JP_BLOCK = 64 };
typedef struct jp_index jp_index;
/* NULL when out of memory (the jp_ix_* calls then scan). */
jp_index *jp_index_new(const char *s, size_t n);
void jp_index_free(jp_index *ix);
void jp_ix_line_col(const jp_index *ix, const char *s, size_t n, size_t off, uint32_t *line,
                    uint32_t *col);
/* The offset where the line holding `off` starts. */
size_t jp_ix_line_start(const jp_index *ix, const char *s, size_t n, size_t off);
size_t jp_ix_element(jp_index *ix, const char *s, size_t n, size_t arr, size_t idx);
/* The number of elements of the array at `arr` (0 when it is not an array). */
size_t jp_ix_count(jp_index *ix, const char *s, size_t n, size_t arr);
size_t jp_ix_member(jp_index *ix, const char *s, size_t n, size_t obj, const char *key,
                    size_t *key_off);
size_t jp_ix_path_at(jp_index *ix, const char *s, size_t n, size_t at, const char *path);

#endif

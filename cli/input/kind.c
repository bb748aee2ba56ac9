/* What kind a file is: the one decision that the walk (dir.c's filter), the checking of an
 * input (lint_run.c), the JSON loader (template_load.c), --force-exclude (cmd/lint_cmd.c) and
 * the language server (lsp/session.c) all take from here, so that they pick the same files and
 * read them the same way (docs/command.md and docs/editors.md). From the name: `*.py` is Python,
 * `.boxlint.json` the configuration, `*.json` JSON whose content decides, `*.Dockerfile`,
 * `Dockerfile.*`, `*.dockerfrag` and what a "fragments" glob of the config names are Dockerfile
 * fragments, anything else (an ordinary `Dockerfile`, a README, a notebook) nothing of
 * boxlint's: passed over by a walk, refused when named (unless --kind says what to read it as,
 * c->kind). From a
 * JSON text's content: a template (an object with a template's keys), a bare array of command
 * strings, a binding (an object with "template_id"), a NetworkPolicy (an object with only "type",
 * "allow_out", "deny_out"), or another document (package.json, tsconfig.json); a text that
 * does not parse is a broken template (its loader reports where) when it names a key only
 * boxlint's documents have, else another document (a tsconfig.json with comments). Standard input
 * without --stdin-filename is read as JSON when it starts with '[' or '{', else as a fragment;
 * when it looks like Python or JSON, one note says how it was read. Calls input.c
 * (cli_fragments_for), gitignore.c's matcher and jansson. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "input/input.h"
#include "walk/walk.h"

static int ends_with(const char *s, size_t n, const char *suffix) {
  size_t k = strlen(suffix);
  return n >= k && !memcmp(s + n - k, suffix, k);
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

cli_kind cli_name_kind(const char *path, int frag_hit) {
  const char *name = base_name(path);
  size_t n = strlen(name);
  if (!strcmp(name, ".boxlint.json")) return CLI_KIND_CONFIG;
  if (ends_with(name, n, ".py")) return CLI_KIND_PYTHON;
  if (ends_with(name, n, ".json")) return CLI_KIND_JSON;
  if (frag_hit || (n > 11 && (ends_with(name, n, ".Dockerfile") ||
                               !strncmp(name, "Dockerfile.", 11) || ends_with(name, n, ".dockerfrag"))))
    return CLI_KIND_FRAGMENT;
  return CLI_KIND_NONE;
}

int cli_is_python(const cli *c, const char *path) {
  if (!strcmp(path, "-") && c->stdin_name) path = c->stdin_name;
  return cli_name_kind(path, 0) == CLI_KIND_PYTHON;
}

int cli_fragments_hit(const cli_fragments *frag, const char *name, const char *rel) {
  for (size_t i = 0; frag && i < frag->n; i++) {
    const char *g = frag->globs[i];
    while (g[0] == '.' && g[1] == '/') g += 2;
    while (g[0] == '/') g++;
    size_t n = strlen(g);
    if (n && g[n - 1] == '/') continue; /* directories only: never a file */
    const char *text = memchr(g, '/', n) ? rel : name;
    if (text && gi_wildmatch(g, n, text, strlen(text), GI_PATHNAME)) return 1;
  }
  return 0;
}

/* Does the object have a key of a template: its commands, resources or network_policy ("name"
 * alone is every package.json's)? */
static int has_template_key(json_t *o) {
  for (size_t i = 1; boxlint_template_field(i); i++) /* the library's fields but the name */
    if (json_object_get(o, boxlint_template_field(i))) return 1;
  return 0;
}

/* Is `key` one of the library's NetworkPolicy fields (0 type, 1 allow_out, 2 deny_out)? */
static int policy_field(const char *key) {
  for (size_t i = 0; boxlint_policy_field(i); i++)
    if (!strcmp(key, boxlint_policy_field(i))) return 1;
  return 0;
}

/* Are the object's keys, at least one, only a NetworkPolicy's? */
static int only_policy_keys(json_t *o) {
  const char *key;
  json_t *v;
  json_object_foreach(o, key, v) {
    if (!policy_field(key)) return 0;
  }
  return json_object_size(o) > 0;
}

/* Is `t` a type the library knows ("disabled", "open", "filtered")? */
static int known_policy_type(json_t *t) {
  const char *s = json_string_value(t);
  for (int k = BOXLINT_POLICY_DISABLED; s && k <= BOXLINT_POLICY_FILTERED; k++)
    if (!strcmp(s, boxlint_policy_type_str((boxlint_policy_type)k))) return 1;
  return 0;
}

cli_kind cli_json_kind(json_t *root, int walk) {
  if (json_is_array(root)) {
    if (!walk) return CLI_KIND_COMMANDS;
    for (size_t i = 0; i < json_array_size(root); i++)
      if (!json_is_string(json_array_get(root, i))) return CLI_KIND_NONE;
    return json_array_size(root) ? CLI_KIND_COMMANDS : CLI_KIND_NONE;
  }
  if (!json_is_object(root)) return walk ? CLI_KIND_NONE : CLI_KIND_TEMPLATE;
  if (json_object_get(root, boxlint_binding_field(0))) return CLI_KIND_BINDING; /* template_id */
  if (only_policy_keys(root) &&
      (!walk || json_object_get(root, boxlint_policy_field(1)) || /* allow_out, deny_out */
       json_object_get(root, boxlint_policy_field(2)) ||
       known_policy_type(json_object_get(root, boxlint_policy_field(0)))))
    return CLI_KIND_POLICY;
  return !walk || has_template_key(root) ? CLI_KIND_TEMPLATE : CLI_KIND_NONE;
}

/* Does a text that is not valid JSON name a key only boxlint's documents have? Then it is a
 * broken template, binding or policy, which its loader reports; other invalid JSON (a
 * tsconfig.json with comments) is passed over. */
static int quoted_in(const char *text, size_t len, const char *key) {
  size_t n = strlen(key);
  for (size_t i = 0; i + n + 2 <= len; i++)
    if (text[i] == '"' && !memcmp(text + i + 1, key, n) && text[i + n + 1] == '"') return 1;
  return 0;
}

static int names_our_key(const char *text, size_t len) {
  /* the library's fields: a template's but "name" (every package.json has one), a binding's
   * template_id, a policy's lists */
  for (size_t i = 1; boxlint_template_field(i); i++)
    if (quoted_in(text, len, boxlint_template_field(i))) return 1;
  return quoted_in(text, len, boxlint_binding_field(0)) ||
         quoted_in(text, len, boxlint_policy_field(1)) ||
         quoted_in(text, len, boxlint_policy_field(2));
}

/* The first byte of `text` that is not white space, or -1. */
static int first_byte(const char *text, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r')
      return (unsigned char)text[i];
  return -1;
}

/* Does line `s` (up to `e`) start with the word `w` (followed by a blank or `more`)? */
static int starts_word(const char *s, const char *e, const char *w, char more) {
  size_t n = strlen(w);
  return (size_t)(e - s) > n && !memcmp(s, w, n) && (s[n] == ' ' || s[n] == '\t' || s[n] == more);
}

int cli_text_looks_python(const char *text, size_t len) {
  static const char *const sdk[] = {"code_interpreter", "add_code_interpreter", "NetworkPolicy(",
                                    "templates.create(", "templates.update("};
  for (size_t k = 0; k < sizeof sdk / sizeof *sdk; k++) {
    size_t n = strlen(sdk[k]);
    for (size_t i = 0; i + n <= len; i++)
      if (text[i] == sdk[k][0] && !memcmp(text + i, sdk[k], n)) return 1;
  }
  /* the first line that is not blank or a comment (a #! line naming python counts) */
  for (size_t i = 0; i < len;) {
    const char *s = text + i, *nl = memchr(s, '\n', len - i), *e = nl ? nl : text + len;
    i = (size_t)(e - text) + 1;
    if (s[0] == '#' && s + 1 < e && s[1] == '!') {
      for (const char *p = s; p + 6 <= e; p++)
        if (!memcmp(p, "python", 6)) return 1;
      continue;
    }
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
    if (s == e || *s == '#') continue;
    if (starts_word(s, e, "import", 0) || starts_word(s, e, "def", 0) ||
        starts_word(s, e, "class", 0) || starts_word(s, e, "async", 0) || *s == '@')
      return 1;
    if (starts_word(s, e, "from", 0)) { /* "from x import y", not the instruction FROM */
      for (const char *p = s + 5; p + 8 <= e; p++)
        if (!memcmp(p, " import ", 8)) return 1;
    }
    return 0;
  }
  return 0;
}

/* Standard input without --stdin-filename: JSON when it starts with '[' or '{', else a fragment;
 * the note, once per command, when it looks like Python or JSON. */
static cli_kind stdin_kind(cli *c, const char *text, size_t len) {
  int b = first_byte(text, len), json = b == '[' || b == '{';
  int py = !json && cli_text_looks_python(text, len);
  if ((json || py) && !c->stdin_noted) {
    c->stdin_noted = 1;
    if (json)
      fputs("boxlint: note: standard input was read as JSON (a template, a binding, a policy or "
            "an array of commands) because it starts with '[' or '{'; name it to choose "
            "(--stdin-filename app.py: Python, --stdin-filename x.Dockerfile: a fragment)\n",
            c->err);
    else
      fputs("boxlint: note: standard input looks like Python but was read as a Dockerfile "
            "fragment; give --stdin-filename app.py to read it as Python\n",
            c->err);
  }
  if (!json) return CLI_KIND_FRAGMENT;
  json_error_t e;
  json_t *root = json_loadb(text, len, JSON_ALLOW_NUL, &e);
  cli_kind k = root ? cli_json_kind(root, 0) : CLI_KIND_TEMPLATE;
  json_decref(root);
  return k;
}

/* Does a "fragments" glob of the config that applies to `path` name it? Returns 0 or 1, or -1
 * when that config could not be loaded (reported). */
static int fragment_glob(cli *c, const char *path) {
  char dir[PATH_MAX], real[PATH_MAX], file[PATH_MAX + NAME_MAX + 2];
  const char *slash = strrchr(path, '/');
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
  if (!dir[0]) strcpy(dir, "/");
  if (!slash && !getcwd(dir, sizeof dir)) strcpy(dir, "."); /* as cli_config_for looks */
  const cli_fragments *f;
  if (cli_fragments_for(c, dir, &f)) return -1;
  if (!f->n) return 0;
  const char *rel = NULL;
  if (f->dir && realpath(dir, real)) {
    snprintf(file, sizeof file, "%s/%s", strcmp(real, "/") ? real : "", base_name(path));
    size_t k = strlen(f->dir);
    if (!strncmp(file, f->dir, k) && (file[k] == '/' || (k && f->dir[k - 1] == '/')))
      rel = file + k + (file[k] == '/');
  }
  return cli_fragments_hit(f, base_name(path), rel);
}

int cli_file_kind(cli *c, const char *path, const char *text, size_t len, int walk,
                  cli_kind *out) {
  *out = CLI_KIND_NONE;
  cli_kind k = walk ? CLI_KIND_NONE : (cli_kind)c->kind; /* --kind: for what is named */
  if (k != CLI_KIND_NONE) {
    /* as asked, whatever the name */
  } else if (!strcmp(path, "-") && !c->stdin_name) {
    *out = stdin_kind(c, text, len);
    return 0;
  } else {
    k = cli_name_kind(!strcmp(path, "-") ? c->stdin_name : path, 0);
  }
  const char *name = !strcmp(path, "-") && c->stdin_name ? c->stdin_name : path;
  if (k == CLI_KIND_NONE) {
    int hit = fragment_glob(c, name);
    if (hit < 0) return -1;
    k = hit ? CLI_KIND_FRAGMENT : CLI_KIND_NONE;
    if (!hit && !walk) { /* named, of no kind of boxlint's: refused, never guessed */
      cli_problemf(c, name, 0, 0, SIZE_MAX, "unknown-kind",
                   "not a file boxlint checks by its name (templates and other JSON are *.json, "
                   "Python *.py, Dockerfile fragments *.Dockerfile, Dockerfile.*, *.dockerfrag "
                   "or a \"fragments\" glob of the configuration); to read it as a fragment "
                   "anyway, pass --kind fragment");
      return -1;
    }
  } else if (k == CLI_KIND_JSON && text) {
    json_error_t e;
    json_t *root = json_loadb(text, len, JSON_ALLOW_NUL, &e);
    k = root                                  ? cli_json_kind(root, walk)
        : walk && !names_our_key(text, len) ? CLI_KIND_NONE
                                              : CLI_KIND_TEMPLATE;
    json_decref(root);
  }
  *out = k;
  return 0;
}

const char *cli_kind_name(cli_kind k) {
  static const char *const names[] = {"not a file boxlint checks", "a template",
                                      "an array of commands", "a binding", "a NetworkPolicy",
                                      "a Dockerfile fragment", "Python", "the configuration",
                                      "JSON"};
  return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

/* Files and configuration: reading an input whole (a file or standard input, up to
 * CLI_MAX_INPUT_BYTES), loading a .boxlint.json into a boxlint_config (every problem reported at
 * its line and column, as a problem record of problem.c; its "fragments" globs, which the
 * library does not need, kept for dir.c and kind.c),
 * and finding the config that applies to a file (--config, or the nearest .boxlint.json upward,
 * each loaded once). Owns the config file's format. Called by cmd/ (args.c, render_cmd.c),
 * lint_run.c, dir.c and lsp/; calls the library's config API and jsonpos.c. */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE /* madvise */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#ifndef BOXLINT_WASI /* the WebAssembly build (wasm/): no madvise in WASI */
#include <sys/mman.h>
#endif
#include <sys/stat.h>
#include <unistd.h>
#include "input/input.h"

/* Open `path` for cli_read_file: NULL with the problem printed. A file a walk found
 * (c->walking) is opened only when it is a regular file, not through a symbolic link and
 * without blocking (a FIFO); a file named is opened as named (a link followed, a FIFO read). */
static FILE *open_input(cli *c, const char *path) {
  struct stat st;
  FILE *f = NULL;
  int fd = -1;
  if (c->walking) {
    fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0) goto sys_error;
    if (!S_ISREG(st.st_mode)) {
      cli_problemf(c, path, 0, 0, SIZE_MAX, "io-error", "not a regular file; not read");
      close(fd);
      return NULL;
    }
  } else if (stat(path, &st) != 0) {
    goto sys_error;
  }
  if (S_ISDIR(st.st_mode)) {
    cli_problemf(c, path, 0, 0, SIZE_MAX, "io-error", "is a directory");
    return NULL;
  }
  if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > CLI_MAX_INPUT_BYTES) {
    cli_problemf(c, path, 0, 0, SIZE_MAX, "io-error",
                 "file is %lld bytes, more than the %u-byte limit; not read",
                 (long long)st.st_size, CLI_MAX_INPUT_BYTES);
    if (fd >= 0) close(fd);
    return NULL;
  }
  f = fd >= 0 ? fdopen(fd, "rb") : fopen(path, "rb");
  if (f) return f;
sys_error:
  cli_problemf(c, path, 0, 0, SIZE_MAX, "io-error", "%s", strerror(errno));
  if (fd >= 0) close(fd);
  return NULL;
}

int cli_read_file(cli *c, const char *path, char **buf, size_t *len) {
  FILE *f;
  int is_stdin = !strcmp(path, "-");
  *buf = NULL;
  *len = 0;
  if (is_stdin) {
    f = stdin;
  } else if (!(f = open_input(c, path))) {
    return -1;
  }
  /* A regular file is read into a buffer of its size (+1, to see the end): no regrowth, no
   * copy, and memory of the file's size. Other inputs grow the buffer as they arrive. */
  size_t cap = 4096, n = 0;
  if (!is_stdin) {
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0)
      cap = (size_t)st.st_size + 1;
  }
  size_t cap0 = cap;
  char *b = malloc(cap);
#ifdef MADV_POPULATE_WRITE
  /* A large file: map the buffer's pages in one call rather than one fault at a time inside
   * read() (where a virtual machine makes each fault costly). A hint: failure changes nothing. */
  if (b && cap >= ((size_t)1 << 20)) {
    uintptr_t pg = 4096, a = ((uintptr_t)b + pg - 1) & ~(pg - 1), z = ((uintptr_t)b + cap) & ~(pg - 1);
    if (z > a) (void)madvise((void *)a, (size_t)(z - a), MADV_POPULATE_WRITE);
  }
#endif
  int rc = -1;
  if (!b) goto out;
  for (;;) {
    if (n == cap) {
      if (cap > CLI_MAX_INPUT_BYTES) {
        cli_problemf(c, path, 0, 0, SIZE_MAX, "io-error",
                     "input larger than the %u-byte limit; not read", CLI_MAX_INPUT_BYTES);
        goto out;
      }
      char *nb = realloc(b, cap * 2);
      if (!nb) goto out;
      b = nb;
      cap *= 2;
    }
    size_t r = fread(b + n, 1, cap - n, f);
    n += r;
    if (r == 0) break;
  }
  if (ferror(f)) {
    cli_problemf(c, path, 0, 0, SIZE_MAX, "io-error", "read error: %s", strerror(errno));
    goto out;
  }
  *buf = b;
  *len = n;
  b = NULL;
  rc = 0;
out:
  if (rc && !b && n == 0 && cap == cap0)
    cli_problemf(c, path, 0, 0, SIZE_MAX, "io-error", "out of memory");
  free(b);
  if (!is_stdin) fclose(f);
  return rc;
}

/* A config file being read: its name and text, for messages with positions. */
typedef struct cfg_src {
  cli *c;
  const char *path, *text;
  size_t len;
} cfg_src;

/* Report a config problem ("invalid-config") at offset `off` of the file (SIZE_MAX: no
 * position). */
static void config_error(const cfg_src *src, size_t off, const char *msg) {
  uint32_t line = 0, col = 0;
  if (off != SIZE_MAX) jp_line_col(src->text, src->len, off, &line, &col);
  cli_problemf(src->c, src->path, line, col, line ? off : SIZE_MAX, "invalid-config",
               "invalid config: %s", msg);
}

/* A severity word or an instruction as a .boxlint.json writes them: the library's words. */
static int parse_severity(const char *s, boxlint_severity *out) {
  return boxlint_severity_parse(s, strlen(s), out) == BOXLINT_OK ? 0 : -1;
}

static boxlint_keyword keyword_of(const char *s) { return boxlint_keyword_parse(s, strlen(s)); }

/* The top level has "rules", "user_rules", "fragments" and "target-version" only. */
static int config_keys(const cfg_src *src, json_t *root) {
  char msg[512];
  const char *key;
  json_t *val;
  json_object_foreach(root, key, val) {
    if (strcmp(key, "rules") && strcmp(key, "user_rules") && strcmp(key, "fragments") &&
        strcmp(key, "target-version")) {
      size_t ko = SIZE_MAX;
      jp_member(src->text, src->len, jp_ws(src->text, src->len, 0), key, &ko);
      snprintf(msg, sizeof msg,
               "unknown key \"%s\" (expected \"rules\", \"user_rules\", \"fragments\" or "
               "\"target-version\")", key);
      config_error(src, ko, msg);
      return -1;
    }
  }
  return 0;
}

/* A user rule's members are known and strings, and it has an id and a pattern. */
static int user_rule_fields(const cfg_src *src, json_t *rule, size_t at) {
  char msg[512];
  const char *key;
  json_t *fv;
  json_object_foreach(rule, key, fv) {
    size_t k = 0; /* the library's names of a user rule's members */
    while (boxlint_user_rule_field(k) && strcmp(boxlint_user_rule_field(k), key)) k++;
    if (!boxlint_user_rule_field(k)) {
      size_t ko = SIZE_MAX;
      jp_member(src->text, src->len, at, key, &ko);
      snprintf(msg, sizeof msg, "unknown key \"%s\" in a user rule (id, severity, instruction, pattern, message)", key);
      config_error(src, ko, msg);
      return -1;
    }
    if (!json_is_string(fv)) {
      snprintf(msg, sizeof msg, "\"%s\" must be a string", key);
      config_error(src, jp_member(src->text, src->len, at, key, NULL), msg);
      return -1;
    }
  }
  if (!json_object_get(rule, "id") || !json_object_get(rule, "pattern")) {
    config_error(src, at, "a user rule needs \"id\" and \"pattern\"");
    return -1;
  }
  return 0;
}

/* user_rules[i] (at offset `at`), checked and added to `cfg`. */
static int user_rule(const cfg_src *src, boxlint_config *cfg, json_t *val, size_t at) {
  const char *text = src->text;
  size_t len = src->len;
  if (!json_is_object(val)) {
    config_error(src, at, "a user rule must be an object");
    return -1;
  }
  if (user_rule_fields(src, val, at)) return -1;
  json_t *id = json_object_get(val, "id"), *pat = json_object_get(val, "pattern");
  boxlint_user_rule r;
  boxlint_user_rule_init(&r); /* the defaults: WARNING, every instruction */
  r.id.ptr = json_string_value(id);
  r.id.len = json_string_length(id);
  r.pattern.ptr = json_string_value(pat);
  r.pattern.len = json_string_length(pat);
  json_t *m = json_object_get(val, "message");
  r.message.ptr = m ? json_string_value(m) : "";
  r.message.len = m ? json_string_length(m) : 0;
  json_t *sv = json_object_get(val, "severity");
  if (sv && (parse_severity(json_string_value(sv), &r.severity) || r.severity == BOXLINT_SEVERITY_OFF)) {
    config_error(src, jp_member(text, len, at, "severity", NULL),
                 "severity must be \"info\", \"warning\" or \"error\"");
    return -1;
  }
  json_t *ins = json_object_get(val, "instruction");
  if (ins && strcmp(json_string_value(ins), "*") && json_string_length(ins)) {
    r.instruction = keyword_of(json_string_value(ins));
    if (!r.instruction) {
      char msg[512];
      snprintf(msg, sizeof msg, "unknown instruction \"%s\"", json_string_value(ins));
      config_error(src, jp_member(text, len, at, "instruction", NULL), msg);
      return -1;
    }
  }
  boxlint_error err;
  boxlint_status st = boxlint_config_add_rule(cfg, &r, &err);
  if (st == BOXLINT_OK) return 0;
  size_t off;
  if (st == BOXLINT_EREGEX) {
    size_t lit = jp_member(text, len, at, "pattern", NULL);
    off = lit == SIZE_MAX ? at : jp_string_offset(text, len, lit, err.offset);
  } else {
    off = jp_member(text, len, at, "id", NULL);
  }
  config_error(src, off, err.message);
  return -1;
}

static int config_user_rules(const cfg_src *src, boxlint_config *cfg, json_t *root) {
  json_t *ur = json_object_get(root, "user_rules"), *val;
  if (ur && !json_is_array(ur)) {
    config_error(src, jp_path(src->text, src->len, "user_rules"), "\"user_rules\" must be an array");
    return -1;
  }
  size_t i;
  json_array_foreach(ur, i, val) {
    char where[64];
    snprintf(where, sizeof where, "user_rules[%zu]", i);
    if (user_rule(src, cfg, val, jp_path(src->text, src->len, where))) return -1;
  }
  return 0;
}

/* "rules": {"rule-id": "off|info|warning|error"}. */
static int config_rules(const cfg_src *src, boxlint_config *cfg, json_t *root) {
  json_t *rules = json_object_get(root, "rules"), *val;
  if (rules && !json_is_object(rules)) {
    config_error(src, jp_path(src->text, src->len, "rules"), "\"rules\" must be an object");
    return -1;
  }
  size_t rules_off = jp_path(src->text, src->len, "rules");
  const char *key;
  json_object_foreach(rules, key, val) {
    boxlint_severity sev;
    size_t vo = jp_member(src->text, src->len, rules_off, key, NULL);
    if (!json_is_string(val) || parse_severity(json_string_value(val), &sev)) {
      config_error(src, vo, "a rule's severity must be \"off\", \"info\", \"warning\" or \"error\"");
      return -1;
    }
    boxlint_error err;
    if (boxlint_config_set_severity(cfg, key, strlen(key), sev, &err) != BOXLINT_OK) {
      config_error(src, vo, err.message);
      return -1;
    }
  }
  return 0;
}

/* "target-version": "py38" ... "py314", the Python version whose grammar .py files are read
 * with (the library keeps it in the config). */
static int config_target(const cfg_src *src, boxlint_config *cfg, json_t *root) {
  json_t *tv = json_object_get(root, "target-version");
  if (!tv) return 0;
  int minor = 0;
  if (!json_is_string(tv) ||
      boxlint_python_version_parse(json_string_value(tv), json_string_length(tv), &minor) !=
          BOXLINT_OK) {
    config_error(src, jp_path(src->text, src->len, "target-version"),
                 "\"target-version\" must be \"py38\", \"py39\", \"py310\", \"py311\", "
                 "\"py312\", \"py313\" or \"py314\"");
    return -1;
  }
  boxlint_config_set_python_minor(cfg, minor);
  return 0;
}

void cli_fragments_free(cli_fragments *frag) {
  for (size_t i = 0; i < frag->n; i++) free(frag->globs[i]);
  free(frag->globs);
  free(frag->dir);
  memset(frag, 0, sizeof *frag);
}

/* "fragments": ["glob", ...], kept in `frag` (when not NULL) with the config's directory. */
static int config_fragments(const cfg_src *src, json_t *root, cli_fragments *frag) {
  json_t *fr = json_object_get(root, "fragments"), *val;
  if (!fr) return 0;
  if (!json_is_array(fr)) {
    config_error(src, jp_path(src->text, src->len, "fragments"),
                 "\"fragments\" must be an array of globs");
    return -1;
  }
  size_t i;
  json_array_foreach(fr, i, val) {
    if (!json_is_string(val) || !json_string_value(val)[0]) {
      char where[64];
      snprintf(where, sizeof where, "fragments[%zu]", i);
      config_error(src, jp_path(src->text, src->len, where),
                   "a fragments glob must be a non-empty string");
      return -1;
    }
  }
  if (!frag || !json_array_size(fr)) return 0;
  char dir[PATH_MAX], abs[PATH_MAX];
  const char *slash = strrchr(src->path, '/');
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - src->path) : 1, slash ? src->path : ".");
  if (!dir[0]) strcpy(dir, "/");
  frag->dir = strdup(realpath(dir, abs) ? abs : dir);
  frag->globs = calloc(json_array_size(fr), sizeof *frag->globs);
  int oom = !frag->dir || !frag->globs;
  json_array_foreach(fr, i, val) {
    if (oom || !(frag->globs[i] = strdup(json_string_value(val)))) oom = 1;
    else frag->n++;
  }
  if (!oom) return 0;
  cli_problemf(src->c, NULL, 0, 0, SIZE_MAX, "out-of-memory", "out of memory");
  cli_fragments_free(frag);
  return -1;
}

boxlint_config *cli_load_config(cli *c, const char *path) {
  return cli_load_config_frag(c, path, NULL);
}

boxlint_config *cli_load_config_frag(cli *c, const char *path, cli_fragments *frag) {
  char *text;
  size_t len;
  if (cli_read_file(c, path, &text, &len)) return NULL;
  boxlint_config *cfg = cli_load_config_text(c, path, text, len, frag);
  free(text);
  return cfg;
}

boxlint_config *cli_load_config_text(cli *c, const char *path, const char *text, size_t len,
                                     cli_fragments *frag) {
  cfg_src src = {c, path, text, len};
  json_error_t je;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
  boxlint_config *cfg = NULL;
  if (!root) {
    cli_problemf(c, path, (uint32_t)(je.line > 0 ? je.line : 0),
                 (uint32_t)(je.column > 0 ? je.column : 0),
                 SIZE_MAX, /* jansson's line and column: where the bad token starts */
                 "invalid-config", "invalid config: %s", je.text);
  } else if (!json_is_object(root)) {
    config_error(&src, jp_ws(text, len, 0), "expected a JSON object");
  } else if (boxlint_config_new(&cfg, NULL) != BOXLINT_OK) {
    cli_problemf(c, NULL, 0, 0, SIZE_MAX, "out-of-memory", "out of memory");
  } else if (config_keys(&src, root) ||
             /* user rules first, so that "rules" can set their severities too */
             config_user_rules(&src, cfg, root) || config_rules(&src, cfg, root) ||
             config_fragments(&src, root, frag) || config_target(&src, cfg, root)) {
    boxlint_config_free(cfg);
    cfg = NULL;
  }
  json_decref(root);
  return cfg;
}

/* The nearest .boxlint.json in directory `dir` or above it into `found` ("" when there is none).
 * `dir` is used as scratch. */
static void find_config(char dir[PATH_MAX], char found[PATH_MAX + 16]) {
  found[0] = 0;
  for (;;) {
    char cand[PATH_MAX + 16];
    snprintf(cand, PATH_MAX + 16, "%s/.boxlint.json", dir);
    struct stat st;
    if (stat(cand, &st) == 0 && S_ISREG(st.st_mode)) {
      snprintf(found, PATH_MAX + 16, "%s", cand);
      return;
    }
    char *slash = strrchr(dir, '/');
    if (!slash) {
      /* a relative path: continue from the working directory's absolute form */
      char abs[PATH_MAX];
      if (!realpath(dir, abs) || !strcmp(abs, dir)) return;
      snprintf(dir, PATH_MAX, "%s", abs);
      continue;
    }
    if (slash == dir) {
      if (!dir[1]) return;
      dir[1] = 0;
      continue;
    }
    *slash = 0;
  }
}

/* The cache entry of config file `found` ("" for none) in `o`'s cache, or NULL. */
static struct cfg_cache *cache_find(const cli *o, const char *found) {
  for (size_t i = 0; i < o->ncache; i++)
    if (!strcmp(o->cache[i]->path, found)) return o->cache[i];
  return NULL;
}

/* The config file `found` ("" for none) loaded (problems reported through `c`) into a new entry
 * of `o`'s cache. Returns 0, or -1. */
static int cache_add(cli *c, cli *o, const char *found, struct cfg_cache **out) {
  boxlint_config *cfg = NULL;
  cli_fragments frag = {NULL, NULL, 0};
  if (found[0]) {
    cfg = cli_load_config_frag(c, found, &frag);
    if (!cfg) return -1;
  } else if (boxlint_config_new(&cfg, NULL) != BOXLINT_OK) {
    cli_problemf(c, NULL, 0, 0, SIZE_MAX, "out-of-memory", "out of memory");
    return -1;
  }
  struct cfg_cache **nc = realloc(o->cache, (o->ncache + 1) * sizeof *o->cache);
  struct cfg_cache *e = malloc(sizeof *e);
  char *p = strdup(found);
  if (nc) o->cache = nc;
  if (!nc || !e || !p) {
    free(p);
    free(e);
    boxlint_config_free(cfg);
    cli_fragments_free(&frag);
    return -1;
  }
  e->path = p;
  e->cfg = cfg;
  e->frag = frag;
  o->cache[o->ncache++] = e;
  *out = e;
  return 0;
}

/* The cached config for the files of directory `dir` (scratch), loaded when first needed: in
 * the command's cache (c->cache_owner's when `c` is a worker's copy), under its lock when
 * threads share it. */
static int config_entry(cli *c, char dir[PATH_MAX], struct cfg_cache **out) {
  char found[PATH_MAX + 16];
  find_config(dir, found);
  cli *o = c->cache_owner ? c->cache_owner : c;
#ifndef BOXLINT_WASI
  if (o->cache_lock) pthread_mutex_lock(o->cache_lock);
#endif
  int rc = 0;
  if (!(*out = cache_find(o, found))) rc = cache_add(c, o, found, out);
#ifndef BOXLINT_WASI
  if (o->cache_lock) pthread_mutex_unlock(o->cache_lock);
#endif
  return rc;
}

int cli_config_for(cli *c, const char *path, const boxlint_config **out) {
  if (c->config) {
    *out = c->config;
    return 0;
  }
  /* The directory of `path` (or the working directory), then its parents. */
  char dir[PATH_MAX];
  if (!path || !strcmp(path, "-") || !strchr(path, '/')) {
    if (!getcwd(dir, sizeof dir)) strcpy(dir, ".");
  } else {
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = 0;
    if (!dir[0]) strcpy(dir, "/");
  }
  /* A walk meets a directory's files one after another: its config is looked up once (a walk
   * is one reading of the tree; the language server, which does not walk, looks each time). */
  if (c->walking && c->last_cfg && !strcmp(c->last_dir, dir)) {
    *out = c->last_cfg->cfg;
    return 0;
  }
  _Static_assert(sizeof c->last_dir >= PATH_MAX, "a directory fits in cli.last_dir");
  char key[PATH_MAX];
  size_t klen = strlen(dir) + 1;
  memcpy(key, dir, klen); /* config_entry uses `dir` as scratch */
  struct cfg_cache *e;
  if (config_entry(c, dir, &e)) return -1;
  if (c->walking) {
    memcpy(c->last_dir, key, klen);
    c->last_cfg = e;
  }
  *out = e->cfg;
  return 0;
}

int cli_fragments_for(cli *c, const char *dir, const cli_fragments **out) {
  if (c->config) {
    *out = &c->config_frag;
    return 0;
  }
  char d[PATH_MAX];
  snprintf(d, sizeof d, "%s", dir);
  for (size_t n = strlen(d); n > 1 && d[n - 1] == '/'; n--) d[n - 1] = 0;
  struct cfg_cache *e;
  if (config_entry(c, d, &e)) return -1;
  *out = &e->frag;
  return 0;
}

void cli_configs_free(cli *c) {
  for (size_t i = 0; i < c->ncache; i++) {
    free(c->cache[i]->path);
    boxlint_config_free(c->cache[i]->cfg);
    cli_fragments_free(&c->cache[i]->frag);
    free(c->cache[i]);
  }
  free(c->cache);
  c->cache = NULL;
  c->ncache = 0;
  c->last_cfg = NULL;
  boxlint_config_free(c->config);
  c->config = NULL;
  cli_fragments_free(&c->config_frag);
  for (size_t i = 0; i < c->nsaid; i++) free(c->said[i]);
  free(c->said);
  c->said = NULL;
  c->nsaid = 0;
}

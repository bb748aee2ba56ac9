/* Reading inputs and configuration files. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "jsonpos.h"

int cli_read_file(cli *c, const char *path, char **buf, size_t *len) {
  FILE *f;
  int is_stdin = !strcmp(path, "-");
  *buf = NULL;
  *len = 0;
  if (is_stdin) {
    f = stdin;
  } else {
    struct stat st;
    if (stat(path, &st) != 0) {
      fprintf(c->err, "boxlint: %s: %s\n", path, strerror(errno));
      return -1;
    }
    if (S_ISDIR(st.st_mode)) {
      fprintf(c->err, "boxlint: %s: is a directory\n", path);
      return -1;
    }
    if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > CLI_MAX_INPUT_BYTES) {
      fprintf(c->err, "boxlint: %s: file is %lld bytes, more than the %u-byte limit; not read\n",
              path, (long long)st.st_size, CLI_MAX_INPUT_BYTES);
      return -1;
    }
    f = fopen(path, "rb");
    if (!f) {
      fprintf(c->err, "boxlint: %s: %s\n", path, strerror(errno));
      return -1;
    }
  }
  size_t cap = 4096, n = 0;
  char *b = malloc(cap);
  int rc = -1;
  if (!b) goto out;
  for (;;) {
    if (n == cap) {
      if (cap > CLI_MAX_INPUT_BYTES) {
        fprintf(c->err, "boxlint: %s: input larger than the %u-byte limit; not read\n", path,
                CLI_MAX_INPUT_BYTES);
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
    fprintf(c->err, "boxlint: %s: read error: %s\n", path, strerror(errno));
    goto out;
  }
  *buf = b;
  *len = n;
  b = NULL;
  rc = 0;
out:
  if (rc && !b && n == 0 && cap == 4096) fprintf(c->err, "boxlint: %s: out of memory\n", path);
  free(b);
  if (!is_stdin) fclose(f);
  return rc;
}

/* Report a config problem at the JSON value `path` of the file. */
static void config_error(cli *c, const char *file, const char *text, size_t len, size_t off,
                         const char *msg) {
  uint32_t line = 0, col = 0;
  if (off != SIZE_MAX) jp_line_col(text, len, off, &line, &col);
  if (line)
    fprintf(c->err, "boxlint: %s:%u:%u: invalid config: %s\n", file, line, col, msg);
  else
    fprintf(c->err, "boxlint: %s: invalid config: %s\n", file, msg);
}

static int parse_severity(const char *s, boxlint_severity *out) {
  if (!strcmp(s, "off")) *out = BOXLINT_SEVERITY_OFF;
  else if (!strcmp(s, "info")) *out = BOXLINT_SEVERITY_INFO;
  else if (!strcmp(s, "warning")) *out = BOXLINT_SEVERITY_WARNING;
  else if (!strcmp(s, "error")) *out = BOXLINT_SEVERITY_ERROR;
  else return -1;
  return 0;
}

static boxlint_keyword keyword_of(const char *s) {
  for (int k = 1; k <= BOXLINT_KW_WORKDIR; k++) {
    const char *n = boxlint_keyword_name((boxlint_keyword)k);
    size_t i = 0;
    while (n[i] && s[i] && (s[i] == n[i] || s[i] == n[i] + 32)) i++;
    if (!n[i] && !s[i]) return (boxlint_keyword)k;
  }
  return BOXLINT_KW_NONE;
}

boxlint_config *cli_load_config(cli *c, const char *path) {
  char *text;
  size_t len;
  if (cli_read_file(c, path, &text, &len)) return NULL;
  json_error_t je;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
  boxlint_config *cfg = NULL;
  char msg[512];
  if (!root) {
    fprintf(c->err, "boxlint: %s:%d:%d: invalid config: %s\n", path, je.line, je.column, je.text);
    goto out;
  }
  if (!json_is_object(root)) {
    config_error(c, path, text, len, jp_ws(text, len, 0), "expected a JSON object");
    goto out;
  }
  if (boxlint_config_new(&cfg, NULL) != BOXLINT_OK) {
    fprintf(c->err, "boxlint: out of memory\n");
    goto out;
  }
  const char *key;
  json_t *val;
  json_object_foreach(root, key, val) {
    if (strcmp(key, "rules") && strcmp(key, "user_rules")) {
      size_t ko;
      jp_member(text, len, jp_ws(text, len, 0), key, &ko);
      snprintf(msg, sizeof msg, "unknown key \"%s\" (expected \"rules\" or \"user_rules\")", key);
      config_error(c, path, text, len, ko, msg);
      goto fail;
    }
  }
  /* user rules first, so that "rules" can set their severities too */
  json_t *ur = json_object_get(root, "user_rules");
  if (ur && !json_is_array(ur)) {
    config_error(c, path, text, len, jp_path(text, len, "user_rules"), "\"user_rules\" must be an array");
    goto fail;
  }
  size_t i;
  json_array_foreach(ur, i, val) {
    char where[64];
    snprintf(where, sizeof where, "user_rules[%zu]", i);
    size_t at = jp_path(text, len, where);
    if (!json_is_object(val)) {
      config_error(c, path, text, len, at, "a user rule must be an object");
      goto fail;
    }
    const char *fields[] = {"id", "severity", "instruction", "pattern", "message"};
    json_t *rule = val, *fv;
    json_object_foreach(rule, key, fv) {
      size_t k = 0;
      while (k < 5 && strcmp(fields[k], key)) k++;
      if (k == 5) {
        size_t ko;
        jp_member(text, len, at, key, &ko);
        snprintf(msg, sizeof msg, "unknown key \"%s\" in a user rule (id, severity, instruction, pattern, message)", key);
        config_error(c, path, text, len, ko, msg);
        goto fail;
      }
      if (!json_is_string(fv)) {
        snprintf(msg, sizeof msg, "\"%s\" must be a string", key);
        config_error(c, path, text, len, jp_member(text, len, at, key, NULL), msg);
        goto fail;
      }
    }
    json_t *id = json_object_get(val, "id"), *pat = json_object_get(val, "pattern");
    if (!id || !pat) {
      config_error(c, path, text, len, at, "a user rule needs \"id\" and \"pattern\"");
      goto fail;
    }
    boxlint_user_rule r;
    memset(&r, 0, sizeof r);
    r.id.ptr = json_string_value(id);
    r.id.len = json_string_length(id);
    r.pattern.ptr = json_string_value(pat);
    r.pattern.len = json_string_length(pat);
    json_t *m = json_object_get(val, "message");
    r.message.ptr = m ? json_string_value(m) : "";
    r.message.len = m ? json_string_length(m) : 0;
    r.severity = BOXLINT_SEVERITY_WARNING;
    json_t *sv = json_object_get(val, "severity");
    if (sv && (parse_severity(json_string_value(sv), &r.severity) || r.severity == BOXLINT_SEVERITY_OFF)) {
      config_error(c, path, text, len, jp_member(text, len, at, "severity", NULL),
                   "severity must be \"info\", \"warning\" or \"error\"");
      goto fail;
    }
    json_t *ins = json_object_get(val, "instruction");
    if (ins && strcmp(json_string_value(ins), "*") && json_string_length(ins)) {
      r.instruction = keyword_of(json_string_value(ins));
      if (!r.instruction) {
        snprintf(msg, sizeof msg, "unknown instruction \"%s\"", json_string_value(ins));
        config_error(c, path, text, len, jp_member(text, len, at, "instruction", NULL), msg);
        goto fail;
      }
    }
    boxlint_error err;
    boxlint_status st = boxlint_config_add_rule(cfg, &r, &err);
    if (st != BOXLINT_OK) {
      size_t off;
      if (st == BOXLINT_EREGEX) {
        size_t lit = jp_member(text, len, at, "pattern", NULL);
        off = lit == SIZE_MAX ? at : jp_string_offset(text, len, lit, err.offset);
      } else {
        off = jp_member(text, len, at, "id", NULL);
      }
      config_error(c, path, text, len, off, err.message);
      goto fail;
    }
  }
  json_t *rules = json_object_get(root, "rules");
  if (rules && !json_is_object(rules)) {
    config_error(c, path, text, len, jp_path(text, len, "rules"), "\"rules\" must be an object");
    goto fail;
  }
  size_t rules_off = jp_path(text, len, "rules");
  json_object_foreach(rules, key, val) {
    boxlint_severity sev;
    size_t vo = jp_member(text, len, rules_off, key, NULL);
    if (!json_is_string(val) || parse_severity(json_string_value(val), &sev)) {
      config_error(c, path, text, len, vo, "a rule's severity must be \"off\", \"info\", \"warning\" or \"error\"");
      goto fail;
    }
    boxlint_error err;
    if (boxlint_config_set_severity(cfg, key, strlen(key), sev, &err) != BOXLINT_OK) {
      config_error(c, path, text, len, vo, err.message);
      goto fail;
    }
  }
  goto out;
fail:
  boxlint_config_free(cfg);
  cfg = NULL;
out:
  json_decref(root);
  free(text);
  return cfg;
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
  char found[PATH_MAX + 16] = "";
  for (;;) {
    char cand[PATH_MAX + 16];
    snprintf(cand, sizeof cand, "%s/.boxlint.json", dir);
    struct stat st;
    if (stat(cand, &st) == 0 && S_ISREG(st.st_mode)) {
      snprintf(found, sizeof found, "%s", cand);
      break;
    }
    char *slash = strrchr(dir, '/');
    if (!slash) {
      /* a relative path: continue from the working directory's absolute form */
      char abs[PATH_MAX];
      if (!realpath(dir, abs) || !strcmp(abs, dir)) break;
      snprintf(dir, sizeof dir, "%s", abs);
      continue;
    }
    if (slash == dir) {
      if (!dir[1]) break;
      dir[1] = 0;
      continue;
    }
    *slash = 0;
  }
  for (size_t i = 0; i < c->ncache; i++) {
    if (!strcmp(c->cache[i].path, found)) {
      *out = c->cache[i].cfg;
      return 0;
    }
  }
  boxlint_config *cfg = NULL;
  if (found[0]) {
    cfg = cli_load_config(c, found);
    if (!cfg) return -1;
  } else if (boxlint_config_new(&cfg, NULL) != BOXLINT_OK) {
    fprintf(c->err, "boxlint: out of memory\n");
    return -1;
  }
  void *nc = realloc(c->cache, (c->ncache + 1) * sizeof *c->cache);
  char *p = strdup(found);
  if (!nc || !p) {
    free(p);
    if (nc) c->cache = nc;
    boxlint_config_free(cfg);
    return -1;
  }
  c->cache = nc;
  c->cache[c->ncache].path = p;
  c->cache[c->ncache].cfg = cfg;
  c->ncache++;
  *out = cfg;
  return 0;
}

void cli_configs_free(cli *c) {
  for (size_t i = 0; i < c->ncache; i++) {
    free(c->cache[i].path);
    boxlint_config_free(c->cache[i].cfg);
  }
  free(c->cache);
  c->cache = NULL;
  c->ncache = 0;
  boxlint_config_free(c->config);
  c->config = NULL;
}

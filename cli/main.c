/* The boxlint command. Uses only the public API, plus jansson for JSON. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "jsonpos.h"

static void usage(FILE *f) {
  fputs("usage: boxlint [lint] [options] FILE...    lint templates and Dockerfile fragments\n"
        "       boxlint [lint] [options] -c CMD...   lint commands given inline (repeatable)\n"
        "       boxlint policy FILE [--host H] [--ip A] [--compat e2b] [--unmatched allow|deny]\n"
        "       boxlint render --base FILE TEMPLATE  print the Dockerfile the platform builds\n"
        "       boxlint rules | explain RULE | version\n"
        "\n"
        "A .json FILE is a template object {name, commands, cpu_count, memory_mb,\n"
        "network_policy} or an array of command strings; any other FILE is a Dockerfile\n"
        "fragment, split into instructions as BuildKit does; - reads standard input.\n"
        "\n"
        "options:\n"
        "  --format text|json|sarif|github   output format (default text)\n"
        "  --config FILE        configuration (default: .boxlint.json searched upward)\n"
        "  --base FILE          the platform's base Dockerfile (appendability, escape)\n"
        "  --fail-on error|warning|info   lowest severity that makes the exit code 1\n"
        "  --compat e2b         add E2B's own NetworkPolicy rejections\n"
        "  --no-color           no colours (also NO_COLOR=1)\n"
        "exit codes: 0 nothing at or above --fail-on, 1 findings, 2 usage, I/O or malformed input\n",
        f);
}

/* A usage error: one line on stderr naming what was wrong, and where the usage is. */
static int usage_error(cli *c, const char *what, const char *arg) {
  fprintf(c->err, "boxlint: %s%s%s%s; see 'boxlint --help'\n", what, arg ? " '" : "",
          arg ? arg : "", arg ? "'" : "");
  return EXIT_USAGE;
}

/* ---- loading templates ---------------------------------------------------------------- */

typedef struct loaded {
  json_t *root;
  boxlint_span *cmds;
  size_t ncmds;
  size_t cmds_off;
  int is_template;
  boxlint_template tpl;
  boxlint_span *extra;
  char num_text[2][64];
  json_t *policy; /* network_policy object, or NULL */
  size_t policy_off;
} loaded;

static void loaded_free(loaded *l) {
  free(l->cmds);
  free(l->extra);
  json_decref(l->root);
  memset(l, 0, sizeof *l);
}

static void bad_input(cli *c, const char *path, const char *text, size_t len, size_t off,
                      const char *what) {
  uint32_t line = 1, col = 1;
  if (off != SIZE_MAX) jp_line_col(text, len, off, &line, &col);
  fprintf(c->err, "boxlint: %s:%u:%u: %s\n", path, line, col, what);
}

static int load_commands(cli *c, const char *path, const char *text, size_t len, json_t *arr,
                         size_t arr_off, loaded *l) {
  size_t n = json_array_size(arr);
  l->cmds = calloc(n ? n : 1, sizeof *l->cmds);
  if (!l->cmds) return -1;
  for (size_t i = 0; i < n; i++) {
    json_t *s = json_array_get(arr, i);
    if (!json_is_string(s)) {
      char msg[96];
      snprintf(msg, sizeof msg, "commands[%zu] must be a string, not %s", i,
               json_is_integer(s) || json_is_real(s) ? "a number"
               : json_is_null(s) ? "null" : json_is_boolean(s) ? "a boolean"
               : json_is_array(s) ? "an array" : "an object");
      bad_input(c, path, text, len, jp_element(text, len, arr_off, i), msg);
      return -1;
    }
    l->cmds[i].ptr = json_string_value(s);
    l->cmds[i].len = json_string_length(s);
  }
  l->ncmds = n;
  l->cmds_off = arr_off;
  return 0;
}

static void number_field(json_t *v, boxlint_number *out, char *buf, size_t cap) {
  if (!v) return;
  out->present = 1;
  if (json_is_integer(v)) {
    out->is_integer = 1;
    out->value = (int64_t)json_integer_value(v);
    return;
  }
  char *s = json_dumps(v, JSON_ENCODE_ANY);
  snprintf(buf, cap, "%s", s ? s : "this value");
  free(s);
  out->text = buf;
}

/* A .json input: a template object or a bare array. Returns 0, or -1 (message printed). */
static int load_json(cli *c, const char *path, const char *text, size_t len, loaded *l) {
  memset(l, 0, sizeof *l);
  json_error_t e;
  l->root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &e);
  if (!l->root) {
    fprintf(c->err, "boxlint: %s:%d:%d: invalid JSON: %s\n", path, e.line, e.column, e.text);
    return -1;
  }
  size_t root_off = jp_ws(text, len, 0);
  if (json_is_array(l->root)) return load_commands(c, path, text, len, l->root, root_off, l);
  if (!json_is_object(l->root)) {
    bad_input(c, path, text, len, root_off,
              "expected a template object or an array of command strings");
    return -1;
  }
  l->is_template = 1;
  l->cmds_off = SIZE_MAX;
  boxlint_template *t = &l->tpl;
  l->extra = calloc(json_object_size(l->root) + 1, sizeof *l->extra);
  if (!l->extra) return -1;
  const char *key;
  json_t *v;
  json_object_foreach(l->root, key, v) {
    size_t vo = jp_member(text, len, root_off, key, NULL);
    if (!strcmp(key, "name")) {
      if (!json_is_string(v)) {
        bad_input(c, path, text, len, vo, "\"name\" must be a string");
        return -1;
      }
      t->has_name = 1;
      t->name.ptr = json_string_value(v);
      t->name.len = json_string_length(v);
    } else if (!strcmp(key, "commands")) {
      if (!json_is_array(v)) {
        bad_input(c, path, text, len, vo, "\"commands\" must be an array of strings");
        return -1;
      }
      if (load_commands(c, path, text, len, v, vo, l)) return -1;
      t->has_commands = 1;
    } else if (!strcmp(key, "cpu_count")) {
      number_field(v, &t->cpu_count, l->num_text[0], sizeof l->num_text[0]);
    } else if (!strcmp(key, "memory_mb")) {
      number_field(v, &t->memory_mb, l->num_text[1], sizeof l->num_text[1]);
    } else if (!strcmp(key, "network_policy")) {
      if (!json_is_object(v) && !json_is_null(v)) {
        bad_input(c, path, text, len, vo, "\"network_policy\" must be an object");
        return -1;
      }
      if (json_is_object(v)) {
        l->policy = v;
        l->policy_off = vo;
      }
    } else {
      l->extra[t->nextra_fields].ptr = key;
      l->extra[t->nextra_fields].len = strlen(key);
      t->nextra_fields++;
    }
  }
  t->extra_fields = l->extra;
  t->commands = l->cmds;
  t->ncommands = l->ncmds;
  return 0;
}

/* Validate the template's network_policy into its own report. */
static int check_policy(cli *c, const char *path, const char *text, size_t len, const loaded *l,
                        boxlint_report *r) {
  json_t *p = l->policy;
  boxlint_policy_spec spec;
  memset(&spec, 0, sizeof spec);
  json_t *type = json_object_get(p, "type");
  if (type && !json_is_null(type)) {
    if (!json_is_string(type)) {
      bad_input(c, path, text, len, jp_member(text, len, l->policy_off, "type", NULL),
                "\"network_policy.type\" must be a string");
      return -1;
    }
    spec.type.ptr = json_string_value(type);
    spec.type.len = json_string_length(type);
  }
  const char *names[2] = {"allow_out", "deny_out"};
  boxlint_span *lists[2] = {NULL, NULL};
  size_t counts[2] = {0, 0};
  int rc = 0;
  for (int k = 0; k < 2 && rc == 0; k++) {
    json_t *a = json_object_get(p, names[k]);
    if (!a || json_is_null(a)) continue;
    size_t ao = jp_member(text, len, l->policy_off, names[k], NULL);
    if (!json_is_array(a)) {
      char msg[96];
      snprintf(msg, sizeof msg, "\"network_policy.%s\" must be an array of strings", names[k]);
      bad_input(c, path, text, len, ao, msg);
      rc = -1;
      break;
    }
    counts[k] = json_array_size(a);
    lists[k] = calloc(counts[k] ? counts[k] : 1, sizeof *lists[k]);
    if (!lists[k]) { rc = -1; break; }
    for (size_t i = 0; i < counts[k]; i++) {
      json_t *s = json_array_get(a, i);
      if (!json_is_string(s)) {
        char msg[96];
        snprintf(msg, sizeof msg, "network_policy.%s[%zu] must be a string", names[k], i);
        bad_input(c, path, text, len, jp_element(text, len, ao, i), msg);
        rc = -1;
        break;
      }
      lists[k][i].ptr = json_string_value(s);
      lists[k][i].len = json_string_length(s);
    }
  }
  if (rc == 0) {
    spec.allow_out = lists[0];
    spec.n_allow = counts[0];
    spec.deny_out = lists[1];
    spec.n_deny = counts[1];
    boxlint_policy_options po;
    boxlint_policy_options_init(&po);
    po.compat = c->compat;
    boxlint_policy *pol = NULL;
    boxlint_status st = boxlint_policy_new(&pol, r, &spec, &po, NULL);
    boxlint_policy_free(pol);
    if (st == BOXLINT_ENOMEM || st == BOXLINT_EINVAL) {
      fprintf(c->err, "boxlint: %s: %s\n", path, boxlint_status_str(st));
      rc = -1;
    }
  }
  free(lists[0]);
  free(lists[1]);
  return rc;
}

/* ---- linting --------------------------------------------------------------------------- */

static int looks_like_json(const char *path, const char *buf, size_t len) {
  size_t pl = strlen(path);
  if (pl >= 5 && !strcmp(path + pl - 5, ".json")) return 1;
  if (strcmp(path, "-")) return 0;
  for (size_t i = 0; i < len; i++) {
    if (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r') continue;
    return buf[i] == '[' || buf[i] == '{';
  }
  return 0;
}

static int lint_text(cli *c, const char *path, const char *text, size_t len) {
  boxlint_options opts = c->opts;
  if (cli_config_for(c, path, &opts.config)) return -1;
  boxlint_report *r = NULL, *pr = NULL;
  if (boxlint_report_new(&r, NULL) != BOXLINT_OK) return -1;
  unit u;
  memset(&u, 0, sizeof u);
  u.path = path;
  u.text = text;
  u.len = len;
  u.config = opts.config;
  u.cmds_off = SIZE_MAX;
  int rc = 0;
  loaded l;
  memset(&l, 0, sizeof l);
  boxlint_status st;
  if (looks_like_json(path, text, len)) {
    if (load_json(c, path, text, len, &l)) {
      rc = -1;
      goto out;
    }
    u.kind = UNIT_JSON;
    u.cmds = l.cmds;
    u.ncmds = l.ncmds;
    u.cmds_off = l.cmds_off;
    st = l.is_template ? boxlint_check_template(r, &l.tpl, &opts)
                       : boxlint_check_commands(r, l.cmds, l.ncmds, &opts);
    if (st == BOXLINT_OK && l.policy) {
      if (boxlint_report_new(&pr, NULL) != BOXLINT_OK || check_policy(c, path, text, len, &l, pr)) {
        rc = -1;
        goto out;
      }
    }
  } else {
    u.kind = UNIT_FRAGMENT;
    st = boxlint_check_fragment(r, text, len, &opts);
  }
  if (st != BOXLINT_OK) {
    fprintf(c->err, "boxlint: %s: %s\n", path, boxlint_status_str(st));
    rc = -1;
    goto out;
  }
  u.reports[0] = r;
  u.reports[1] = pr;
  cli_emit_unit(c, &u);
out:
  loaded_free(&l);
  boxlint_report_free(r);
  boxlint_report_free(pr);
  return rc;
}

static int lint_path(cli *c, const char *path) {
  char *buf;
  size_t len;
  if (cli_read_file(c, path, &buf, &len)) return -1;
  int rc = lint_text(c, path, buf, len);
  free(buf);
  return rc;
}

static int lint_inline(cli *c, const boxlint_span *cmds, size_t n) {
  boxlint_options opts = c->opts;
  if (cli_config_for(c, NULL, &opts.config)) return -1;
  boxlint_report *r;
  if (boxlint_report_new(&r, NULL) != BOXLINT_OK) return -1;
  boxlint_status st = boxlint_check_commands(r, cmds, n, &opts);
  if (st != BOXLINT_OK) {
    fprintf(c->err, "boxlint: %s\n", boxlint_status_str(st));
    boxlint_report_free(r);
    return -1;
  }
  unit u;
  memset(&u, 0, sizeof u);
  u.path = "<command-line>";
  u.kind = UNIT_INLINE;
  u.cmds = cmds;
  u.ncmds = n;
  u.cmds_off = SIZE_MAX;
  u.config = opts.config;
  u.reports[0] = r;
  cli_emit_unit(c, &u);
  boxlint_report_free(r);
  return 0;
}

/* Check the base; findings are reported like a file's. Returns -1 on I/O error. */
static int load_base(cli *c, const char *path, char **text, size_t *len, int *appendable) {
  if (cli_read_file(c, path, text, len)) return -1;
  boxlint_report *r;
  if (boxlint_report_new(&r, NULL) != BOXLINT_OK) return -1;
  boxlint_base_info info;
  if (boxlint_check_base(&info, r, *text, *len) != BOXLINT_OK) {
    fprintf(c->err, "boxlint: %s: out of memory\n", path);
    boxlint_report_free(r);
    return -1;
  }
  c->opts.escape = info.escape;
  *appendable = info.appendable;
  if (boxlint_report_diag_count(r)) {
    unit u;
    memset(&u, 0, sizeof u);
    u.path = path;
    u.kind = UNIT_FRAGMENT;
    u.text = *text;
    u.len = *len;
    u.cmds_off = SIZE_MAX;
    u.reports[0] = r;
    cli_emit_unit(c, &u);
  }
  boxlint_report_free(r);
  return 0;
}

/* ---- subcommands ----------------------------------------------------------------------- */

static int cmd_rules(cli *c) {
  size_t n;
  const boxlint_rule_info *r = boxlint_rules(&n);
  for (size_t i = 0; i < n; i++)
    fprintf(c->out, "%-28s %-8s %s\n", r[i].id, boxlint_severity_str(r[i].severity), r[i].summary);
  return EXIT_CLEAN;
}

static int cmd_explain(cli *c, const char *id) {
  const boxlint_rule_info *r = boxlint_rule_find(id, strlen(id));
  if (!r) {
    fprintf(c->err, "boxlint: unknown rule '%s' (boxlint rules lists them)\n", id);
    return EXIT_USAGE;
  }
  fprintf(c->out, "%s (%s): %s\n\n%s\n\nBad:\n", r->id, boxlint_severity_str(r->severity),
          r->summary, r->description);
  for (const char *p = r->bad; *p;) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    fprintf(c->out, "    %.*s\n", (int)n, p);
    p += n + (e != NULL);
  }
  fputs("Good:\n", c->out);
  for (const char *p = r->good; *p;) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    fprintf(c->out, "    %.*s\n", (int)n, p);
    p += n + (e != NULL);
  }
  return EXIT_CLEAN;
}

/* render --base FILE TEMPLATE: print base + "\n".join(commands) when the template is accepted. */
static int cmd_render(cli *c, const char *base_path, const char *tpl_path) {
  char *base = NULL, *text = NULL;
  size_t blen, tlen;
  int appendable = 0, rc = EXIT_USAGE;
  FILE *saved = c->out;
  c->out = c->err; /* findings go to stderr; stdout is the Dockerfile */
  if (load_base(c, base_path, &base, &blen, &appendable)) goto out;
  if (cli_read_file(c, tpl_path, &text, &tlen)) goto out;
  loaded l;
  if (load_json(c, tpl_path, text, tlen, &l)) {
    loaded_free(&l);
    goto out;
  }
  c->fail_on = BOXLINT_SEVERITY_ERROR;
  if (lint_text(c, tpl_path, text, tlen)) {
    loaded_free(&l);
    goto out;
  }
  rc = c->worst;
  if (rc == EXIT_CLEAN && appendable) {
    fwrite(base, 1, blen, saved);
    for (size_t i = 0; i < l.ncmds; i++) {
      if (i) fputc('\n', saved);
      fwrite(l.cmds[i].ptr, 1, l.cmds[i].len, saved);
    }
    if (l.ncmds && (l.cmds[l.ncmds - 1].len == 0 || l.cmds[l.ncmds - 1].ptr[l.cmds[l.ncmds - 1].len - 1] != '\n'))
      fputc('\n', saved);
  } else if (rc == EXIT_CLEAN) {
    rc = EXIT_FINDINGS;
  }
  if (rc != EXIT_CLEAN)
    fprintf(c->err, "boxlint: %s: not rendered: the template is rejected\n", tpl_path);
  loaded_free(&l);
out:
  c->out = saved;
  free(base);
  free(text);
  return rc;
}

int main(int argc, char **argv) {
  cli c;
  memset(&c, 0, sizeof c);
  c.out = stdout;
  c.err = stderr;
  c.fail_on = BOXLINT_SEVERITY_ERROR;
  boxlint_options_init(&c.opts);
  const char *nc = getenv("NO_COLOR");
  c.color = isatty(fileno(stdout)) && !(nc && *nc);

  int i = 1, render = 0;
  if (i < argc && !strcmp(argv[i], "policy")) return boxlint_cli_policy(argc - i, argv + i, c.out, c.err);
  if (i < argc && !strcmp(argv[i], "rules")) return cmd_rules(&c);
  if (i < argc && !strcmp(argv[i], "help")) {
    usage(c.out);
    return EXIT_CLEAN;
  }
  if (i < argc && !strcmp(argv[i], "explain")) {
    if (i + 2 != argc) return usage_error(&c, "explain takes one rule id: boxlint explain RULE", NULL);
    return cmd_explain(&c, argv[i + 1]);
  }
  if (i < argc && (!strcmp(argv[i], "version") || !strcmp(argv[i], "--version"))) {
    fprintf(c.out, "boxlint %s\n", boxlint_version());
    return EXIT_CLEAN;
  }
  if (i < argc && !strcmp(argv[i], "lint")) i++;
  else if (i < argc && !strcmp(argv[i], "render")) {
    render = 1;
    i++;
  }

  const char **paths = calloc((size_t)argc, sizeof *paths);
  boxlint_span *inline_cmds = calloc((size_t)argc, sizeof *inline_cmds);
  const char *base = NULL;
  size_t npaths = 0, ninline = 0;
  int rc = EXIT_CLEAN;
  if (!paths || !inline_cmds) {
    fputs("boxlint: out of memory\n", c.err);
    rc = EXIT_USAGE;
    goto done;
  }
  for (; i < argc; i++) {
    const char *a = argv[i];
    const char *val = NULL;
#define OPT_VALUE(name)                                                                   \
  (!strcmp(a, name) ? (i + 1 < argc ? (val = argv[++i], 1) : -1)                          \
                    : (!strncmp(a, name "=", sizeof(name)) ? (val = a + sizeof(name), 1) : 0))
    int m;
    if ((m = OPT_VALUE("--format")) != 0) {
      if (m < 0) goto missing;
      if (!strcmp(val, "text")) c.format = FMT_TEXT;
      else if (!strcmp(val, "json")) c.format = FMT_JSON;
      else if (!strcmp(val, "sarif")) c.format = FMT_SARIF;
      else if (!strcmp(val, "github")) c.format = FMT_GITHUB;
      else {
        rc = usage_error(&c, "unknown format (--format takes text, json, sarif or github):", val);
        goto done;
      }
    } else if ((m = OPT_VALUE("--fail-on")) != 0) {
      if (m < 0) goto missing;
      if (!strcmp(val, "error")) c.fail_on = BOXLINT_SEVERITY_ERROR;
      else if (!strcmp(val, "warning")) c.fail_on = BOXLINT_SEVERITY_WARNING;
      else if (!strcmp(val, "info")) c.fail_on = BOXLINT_SEVERITY_INFO;
      else {
        rc = usage_error(&c, "--fail-on takes error, warning or info, not", val);
        goto done;
      }
    } else if ((m = OPT_VALUE("--base")) != 0) {
      if (m < 0) goto missing;
      base = val;
    } else if ((m = OPT_VALUE("--config")) != 0) {
      if (m < 0) goto missing;
      c.config_path = val;
    } else if ((m = OPT_VALUE("--compat")) != 0) {
      if (m < 0) goto missing;
      if (strcmp(val, "e2b")) {
        rc = usage_error(&c, "--compat takes e2b, not", val);
        goto done;
      }
      c.compat = BOXLINT_COMPAT_E2B;
    } else if ((m = OPT_VALUE("-c")) != 0) {
      if (m < 0) goto missing;
      inline_cmds[ninline].ptr = val;
      inline_cmds[ninline].len = strlen(val);
      ninline++;
    } else if (!strcmp(a, "--no-color")) {
      c.color = 0;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(c.out);
      goto done;
    } else if (a[0] == '-' && a[1] != 0) {
      rc = usage_error(&c, "unknown option", a);
      goto done;
    } else {
      paths[npaths++] = a;
    }
    continue;
  missing:
    fprintf(c.err, "boxlint: option '%s' needs a value; see 'boxlint --help'\n", a);
    rc = EXIT_USAGE;
    goto done;
  }
  if (c.config_path && !(c.config = cli_load_config(&c, c.config_path))) {
    rc = EXIT_USAGE;
    goto done;
  }
  if (render) {
    if (!base || npaths != 1 || ninline) {
      rc = usage_error(&c, "render takes --base FILE and one TEMPLATE: boxlint render --base FILE TEMPLATE", NULL);
      goto done;
    }
    rc = cmd_render(&c, base, paths[0]);
    goto done;
  }
  if (!npaths && !ninline) {
    rc = usage_error(&c, "nothing to lint: give FILE... (- for standard input) or -c COMMAND", NULL);
    goto done;
  }
  cli_begin(&c);
  int io_error = 0;
  if (base) {
    char *btext;
    size_t blen;
    int appendable;
    if (load_base(&c, base, &btext, &blen, &appendable)) io_error = 1;
    else free(btext);
  }
  if (ninline && lint_inline(&c, inline_cmds, ninline)) io_error = 1;
  for (size_t k = 0; k < npaths; k++)
    if (lint_path(&c, paths[k])) io_error = 1;
  cli_finish(&c);
  rc = io_error ? EXIT_USAGE : c.worst;
done:
  cli_configs_free(&c);
  free(paths);
  free(inline_cmds);
  return rc;
}

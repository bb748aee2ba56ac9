/* Checking one input, the middle of every lint: find its config (input.c), read it into spans
 * (input.c for files, template_load.c for JSON), run the library's checks (a fragment, a
 * template and its network_policy, commands, the platform's base) and hand the reports to
 * output.c as one unit. Owns the choice of check for each kind of input and the messages for
 * inputs that could not be checked (exit code 2). Called by lint_cmd.c and render_cmd.c; calls
 * input.c, template_load.c, the library and output.c. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* Validate the template's network_policy into its own report. */
static int check_policy(cli *c, const char *path, const char *text, size_t len, loaded_json *l,
                        const boxlint_config *config, boxlint_report *r) {
  boxlint_policy_spec spec;
  if (cli_load_policy_spec(c, path, text, len, l, &spec)) return -1;
  boxlint_policy_options po;
  boxlint_policy_options_init(&po);
  po.compat = c->compat;
  po.config = config;
  boxlint_policy *pol = NULL;
  boxlint_status st = boxlint_policy_new(&pol, r, &spec, &po, NULL);
  boxlint_policy_free(pol);
  if (st == BOXLINT_ENOMEM || st == BOXLINT_EINVAL) {
    fprintf(c->err, "boxlint: %s: %s\n", path, boxlint_status_str(st));
    return -1;
  }
  return 0;
}

/* A .json input: the template (or the bare commands, or a binding) into `r`, its
 * network_policy (or the policy that is the whole file) into *pr. */
static int check_json(cli *c, unit *u, const boxlint_options *opts, loaded_json *l,
                      boxlint_report *r, boxlint_report **pr, boxlint_status *st) {
  if (cli_load_json(c, u->path, u->text, u->len, l)) return -1;
  u->kind = l->kind == LJ_POLICY ? UNIT_POLICY : UNIT_JSON;
  u->cmds = l->cmds;
  u->ncmds = l->ncmds;
  u->cmds_off = l->cmds_off;
  u->policy_off = l->kind == LJ_POLICY ? l->policy_off : SIZE_MAX;
  *st = l->kind == LJ_TEMPLATE  ? boxlint_check_template(r, &l->tpl, opts)
        : l->kind == LJ_BINDING ? boxlint_check_binding(r, &l->bind, opts)
        : l->kind == LJ_POLICY  ? BOXLINT_OK
                                : boxlint_check_commands(r, l->cmds, l->ncmds, opts);
  if (*st == BOXLINT_OK && l->policy) {
    if (boxlint_report_new(pr, NULL) != BOXLINT_OK ||
        check_policy(c, u->path, u->text, u->len, l, opts->config, *pr))
      return -1;
  }
  return 0;
}

static int is_policy_type(json_t *t) {
  const char *s = json_string_value(t);
  return s && (!strcmp(s, "disabled") || !strcmp(s, "open") || !strcmp(s, "filtered"));
}

/* Is a JSON text found by a walk something boxlint checks? Invalid JSON and other documents
 * (package.json, tsconfig.json) are not. */
static int json_is_ours(const char *text, size_t len) {
  json_error_t e;
  json_t *root = json_loadb(text, len, JSON_ALLOW_NUL, &e);
  int ours = 0;
  if (json_is_array(root)) {
    ours = json_array_size(root) > 0;
    for (size_t i = 0; i < json_array_size(root); i++)
      if (!json_is_string(json_array_get(root, i))) ours = 0;
  } else if (json_is_object(root)) {
    /* "name" alone is every package.json's: a template needs its commands or its resources. */
    int pol = 1;
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v) {
      if (strcmp(key, "type") && strcmp(key, "allow_out") && strcmp(key, "deny_out")) pol = 0;
    }
    ours = json_object_get(root, "commands") || json_object_get(root, "template_id") ||
           json_object_get(root, "network_policy") ||
           (json_object_get(root, "name") &&
            (json_object_get(root, "cpu_count") || json_object_get(root, "memory_mb"))) ||
           (pol && json_object_size(root) > 0 &&
            (json_object_get(root, "allow_out") || json_object_get(root, "deny_out") ||
             is_policy_type(json_object_get(root, "type"))));
  }
  json_decref(root);
  return ours;
}

int cli_is_python(const cli *c, const char *path) {
  if (!strcmp(path, "-") && c->stdin_name) path = c->stdin_name;
  size_t n = strlen(path);
  return n >= 3 && !strcmp(path + n - 3, ".py");
}

/* A Python file: its SDK calls checked by the library. */
static int check_python(cli *c, unit *u, const boxlint_options *opts, boxlint_report *r) {
  boxlint_policy_options po;
  boxlint_policy_options_init(&po);
  po.compat = c->compat;
  po.config = opts->config;
  u->kind = UNIT_PYTHON;
  boxlint_status st = boxlint_check_python(r, u->text, u->len, opts, &po);
  if (st == BOXLINT_ESYNTAX && boxlint_report_diag_count(r)) {
    const boxlint_diag *d = boxlint_report_diag(r, boxlint_report_diag_count(r) - 1);
    fprintf(c->err, "boxlint: %s:%u:%u: %s\n", u->path, d->line, d->column, d->message);
    return -1;
  }
  if (st != BOXLINT_OK) {
    fprintf(c->err, "boxlint: %s: %s\n", u->path, boxlint_status_str(st));
    return -1;
  }
  return 0;
}

void cli_checked_free(checked *k) {
  cli_loaded_free(&k->l);
  boxlint_report_free(k->r);
  boxlint_report_free(k->pr);
  memset(k, 0, sizeof *k);
}

int cli_check_found(cli *c, const char *path, const char *text, size_t len, int found,
                    checked *k) {
  memset(k, 0, sizeof *k);
  const char *name = !strcmp(path, "-") && c->stdin_name ? c->stdin_name : path;
  int python = cli_is_python(c, path), json = !python && cli_looks_like_json(name, text, len);
  if (found && json && !json_is_ours(text, len)) {
    k->skipped = 1;
    return 0;
  }
  boxlint_options opts = c->opts;
  if (cli_config_for(c, name, &opts.config)) return -1;
  if (boxlint_report_new(&k->r, NULL) != BOXLINT_OK) return -1;
  unit *u = &k->u;
  u->path = name;
  u->text = text;
  u->len = len;
  u->config = opts.config;
  u->cmds_off = SIZE_MAX;
  u->policy_off = SIZE_MAX;
  boxlint_status st = BOXLINT_OK;
  if (python) {
    if (check_python(c, u, &opts, k->r)) return -1;
  } else if (json) {
    if (check_json(c, u, &opts, &k->l, k->r, &k->pr, &st)) return -1;
  } else {
    u->kind = UNIT_FRAGMENT;
    st = boxlint_check_fragment(k->r, text, len, &opts);
  }
  if (st != BOXLINT_OK) {
    fprintf(c->err, "boxlint: %s: %s\n", name, boxlint_status_str(st));
    return -1;
  }
  u->reports[0] = k->r;
  u->reports[1] = k->pr;
  return 0;
}

int cli_check_text(cli *c, const char *path, const char *text, size_t len, checked *k) {
  return cli_check_found(c, path, text, len, 0, k);
}

int cli_lint_text(cli *c, const char *path, const char *text, size_t len) {
  checked k;
  int rc = cli_check_text(c, path, text, len, &k);
  if (rc == 0) cli_emit_unit(c, &k.u);
  cli_checked_free(&k);
  return rc;
}

static int lint_read(cli *c, const char *path, int found) {
  char *buf;
  size_t len;
  if (cli_read_file(c, path, &buf, &len)) return -1;
  checked k;
  int rc = cli_check_found(c, path, buf, len, found, &k);
  if (rc == 0 && !k.skipped) cli_emit_unit(c, &k.u);
  cli_checked_free(&k);
  free(buf);
  return rc;
}

int cli_lint_path(cli *c, const char *path) { return lint_read(c, path, 0); }

int cli_lint_found(cli *c, const char *path) { return lint_read(c, path, 1); }

int cli_lint_inline(cli *c, const boxlint_span *cmds, size_t n) {
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

int cli_lint_base(cli *c, const char *path, char **text, size_t *len, int *appendable) {
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

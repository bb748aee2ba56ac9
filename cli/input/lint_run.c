/* Checking one input, the middle of every lint: its kind (kind.c), its config (input.c), read
 * into spans (input.c for files, template_load.c for JSON), the library's checks (a fragment, a
 * template and its network_policy, commands), the reports kept as one unit for the caller to
 * print (cmd/lint_print.c, fix/) or publish (lsp/). Owns the check run for each kind and the
 * problems (problem.c) of inputs that could not be checked (exit code 2). Calls kind.c,
 * input.c, template_load.c, problem.c and the library. */
#include <stdlib.h>
#include <string.h>
#include "input/input.h"

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
    cli_problemf(c, path, 0, 0, SIZE_MAX, "invalid-input", "%s", boxlint_status_str(st));
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

/* A Python file: its SDK calls checked by the library. */
static int check_python(cli *c, unit *u, const boxlint_options *opts, boxlint_report *r) {
  boxlint_policy_options po;
  boxlint_policy_options_init(&po);
  po.compat = c->compat;
  po.config = opts->config;
  u->kind = UNIT_PYTHON;
  boxlint_status st = boxlint_check_python_cached(u->pycache, r, u->text, u->len, opts, &po);
  /* A file that does not parse (or whose encoding cannot be read) and could reach the SDK is a
   * finding, python-syntax or python-encoding, printed as the others in every format; one that
   * cannot reach it the library leaves without any. */
  if (st != BOXLINT_OK && !(st == BOXLINT_ESYNTAX && boxlint_report_diag_count(r))) {
    cli_problemf(c, u->path, 0, 0, SIZE_MAX, "invalid-input", "%s", boxlint_status_str(st));
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

/* The configuration named on the command line: loaded as the command loads one (its problems
 * reported); it has no findings of its own. */
static int check_config(cli *c, const char *path, const char *text, size_t len) {
  boxlint_config *cfg = cli_load_config_text(c, path, text, len, NULL);
  boxlint_config_free(cfg);
  return cfg ? 0 : -1;
}

int cli_check_found(cli *c, const char *path, const char *text, size_t len, int found,
                    checked *k) {
  return cli_check_cached(c, path, text, len, found, NULL, k);
}

int cli_check_cached(cli *c, const char *path, const char *text, size_t len, int found,
                     boxlint_python_cache *pycache, checked *k) {
  memset(k, 0, sizeof *k);
  const char *name = !strcmp(path, "-") && c->stdin_name ? c->stdin_name : path;
  if (cli_file_kind(c, path, text, len, found, &k->kind)) return -1;
  if (k->kind == CLI_KIND_NONE || k->kind == CLI_KIND_CONFIG) {
    k->skipped = 1; /* not ours; a configuration named is checked as one */
    return found || k->kind == CLI_KIND_NONE ? 0 : check_config(c, name, text, len);
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
  u->pycache = pycache;
  boxlint_status st = BOXLINT_OK;
  if (k->kind == CLI_KIND_PYTHON) {
    if (check_python(c, u, &opts, k->r)) return -1;
  } else if (k->kind == CLI_KIND_FRAGMENT) {
    u->kind = UNIT_FRAGMENT;
    st = boxlint_check_fragment(k->r, text, len, &opts);
  } else if (check_json(c, u, &opts, &k->l, k->r, &k->pr, &st)) {
    return -1;
  }
  if (st != BOXLINT_OK) {
    cli_problemf(c, name, 0, 0, SIZE_MAX, "invalid-input", "%s", boxlint_status_str(st));
    return -1;
  }
  u->reports[0] = k->r;
  u->reports[1] = k->pr;
  return 0;
}

int cli_check_text(cli *c, const char *path, const char *text, size_t len, checked *k) {
  return cli_check_found(c, path, text, len, 0, k);
}

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
                        boxlint_report *r) {
  boxlint_policy_spec spec;
  if (cli_load_policy_spec(c, path, text, len, l, &spec)) return -1;
  boxlint_policy_options po;
  boxlint_policy_options_init(&po);
  po.compat = c->compat;
  boxlint_policy *pol = NULL;
  boxlint_status st = boxlint_policy_new(&pol, r, &spec, &po, NULL);
  boxlint_policy_free(pol);
  if (st == BOXLINT_ENOMEM || st == BOXLINT_EINVAL) {
    fprintf(c->err, "boxlint: %s: %s\n", path, boxlint_status_str(st));
    return -1;
  }
  return 0;
}

/* A .json input: the template (or the bare commands) into `r`, its network_policy into *pr. */
static int check_json(cli *c, unit *u, const boxlint_options *opts, loaded_json *l,
                      boxlint_report *r, boxlint_report **pr, boxlint_status *st) {
  if (cli_load_json(c, u->path, u->text, u->len, l)) return -1;
  u->kind = UNIT_JSON;
  u->cmds = l->cmds;
  u->ncmds = l->ncmds;
  u->cmds_off = l->cmds_off;
  *st = l->is_template ? boxlint_check_template(r, &l->tpl, opts)
                       : boxlint_check_commands(r, l->cmds, l->ncmds, opts);
  if (*st == BOXLINT_OK && l->policy) {
    if (boxlint_report_new(pr, NULL) != BOXLINT_OK ||
        check_policy(c, u->path, u->text, u->len, l, *pr))
      return -1;
  }
  return 0;
}

int cli_lint_text(cli *c, const char *path, const char *text, size_t len) {
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
  loaded_json l;
  memset(&l, 0, sizeof l);
  boxlint_status st;
  if (cli_looks_like_json(path, text, len)) {
    if (check_json(c, &u, &opts, &l, r, &pr, &st)) {
      rc = -1;
      goto out;
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
  cli_loaded_free(&l);
  boxlint_report_free(r);
  boxlint_report_free(pr);
  return rc;
}

int cli_lint_path(cli *c, const char *path) {
  char *buf;
  size_t len;
  if (cli_read_file(c, path, &buf, &len)) return -1;
  int rc = cli_lint_text(c, path, buf, len);
  free(buf);
  return rc;
}

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

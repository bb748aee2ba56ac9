/* One input checked (input/'s lint_run.c), then its findings printed through output/: a file,
 * standard input, a file a walk found, commands given with -c, the platform's base Dockerfile.
 * Called by lint_cmd.c and render_cmd.c. */
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"

int cli_lint_text(cli *c, const char *path, const char *text, size_t len) {
  checked k;
  int rc = cli_check_text(c, path, text, len, &k);
  if (rc == 0) cli_emit_unit(c, &k.u);
  cli_checked_free(&k);
  return rc;
}

int cli_lint_read(cli *c, const char *path, int found, cli_lint_job *j) {
  memset(j, 0, sizeof *j);
  j->rc = cli_read_file(c, path, &j->buf, &j->len);
  if (j->rc == 0) j->rc = cli_check_found(c, path, j->buf, j->len, found, &j->k);
  return j->rc;
}

int cli_lint_print(cli *c, const cli_lint_job *j) {
  if (j->rc == 0 && !j->k.skipped) cli_emit_unit(c, &j->k.u);
  return j->rc;
}

void cli_lint_job_free(cli_lint_job *j) {
  cli_checked_free(&j->k);
  free(j->buf);
  j->buf = NULL;
}

int cli_lint_show(cli *c, cli_lint_job *j) {
  int rc = cli_lint_print(c, j);
  cli_lint_job_free(j);
  return rc;
}

static int lint_read(cli *c, const char *path, int found) {
  cli_lint_job j;
  cli_lint_read(c, path, found, &j);
  return cli_lint_show(c, &j);
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
    cli_problemf(c, NULL, 0, 0, SIZE_MAX, "invalid-input", "%s", boxlint_status_str(st));
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
    cli_problemf(c, path, 0, 0, SIZE_MAX, "out-of-memory", "out of memory");
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

/* The one door into the output formats: cli_begin, cli_emit_unit (once per linted input) and
 * cli_finish. Owns what every format shares: the findings shown (at the severities the
 * library gave them under the unit's config), the exit code they make (c->worst
 * against --fail-on), and printing the collected JSON documents. Called by the commands; calls
 * the format modules (out_text.c, out_json.c, out_sarif.c, out_github.c), which never call back. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdlib.h>
#include <string.h>
#include "output/out_int.h"

/* The severity `d` is shown with: its own. The library applied the unit's config to every
 * finding it made (a warning switched off was not reported at all), so the command, the
 * language server and the bindings show the same severities without applying it again. */
boxlint_severity cli_shown_severity(const unit *u, const boxlint_diag *d) {
  (void)u;
  return d->severity;
}

void cli_capture_begin(cli *c, cli_capture *cap) {
  cap->text = NULL;
  cap->len = 0;
  cap->saved = c->err;
  cap->mem = open_memstream(&cap->text, &cap->len);
  if (cap->mem) c->err = cap->mem;
}

char *cli_capture_end(cli *c, cli_capture *cap) {
  c->err = cap->saved;
  if (cap->mem) fclose(cap->mem);
  if (cap->text && !*cap->text) {
    free(cap->text);
    cap->text = NULL;
  }
  return cap->text;
}

void cli_begin(cli *c) {
  if (c->format == FMT_JSON) out_json_begin(c);
  if (c->format == FMT_SARIF) out_sarif_begin(c);
}

void cli_each_shown(const unit *u, cli_shown_fn fn, void *ctx) {
  for (int k = 0; k < 3; k++) { /* the two reports, then the unit's own findings */
    const boxlint_report *r = k < 2 ? u->reports[k] : NULL;
    size_t n = r ? boxlint_report_diag_count(r) : k == 2 ? u->nextra : 0;
    for (size_t i = 0; i < n; i++) {
      const boxlint_diag *d = r ? boxlint_report_diag(r, i) : &u->extra[i];
      boxlint_severity sev = cli_shown_severity(u, d);
      if (sev != BOXLINT_SEVERITY_OFF) fn(u, d, sev, ctx);
    }
  }
}

typedef struct emit_ctx {
  cli *c;
  out_secrets sec;
  json_t *diags;
  int has_error;
} emit_ctx;

static void emit_one(const unit *u, const boxlint_diag *d, boxlint_severity sev, void *ctx) {
  emit_ctx *x = ctx;
  cli *c = x->c;
  x->has_error |= sev == BOXLINT_SEVERITY_ERROR;
  if (sev >= c->fail_on && c->worst < EXIT_FINDINGS) c->worst = EXIT_FINDINGS;
  switch (c->format) {
  case FMT_TEXT: out_text_diag(c, u, d, sev, &x->sec); break;
  case FMT_JSON: json_array_append_new(x->diags, cli_diag_json(u, d, sev)); break;
  case FMT_SARIF: out_sarif_diag(c, u, d, sev); break;
  case FMT_GITHUB: out_github_diag(c, u, d, sev); break;
  }
}

void cli_emit_unit(cli *c, const unit *u) {
  emit_ctx x;
  x.c = c;
  x.sec = (out_secrets){NULL, 0, 0};
  x.has_error = 0;
  cli_positions_begin(u); /* every finding's position from one index of the file */
  if (c->format == FMT_TEXT) out_text_secrets(u, &x.sec);
  x.diags = c->format == FMT_JSON ? json_array() : NULL;
  cli_each_shown(u, emit_one, &x);
  out_text_secrets_free(&x.sec);
  cli_positions_end();
  if (c->format == FMT_JSON) out_json_unit(c, u, x.diags, x.has_error);
}

void cli_finish(cli *c) {
  json_t *root = c->format == FMT_JSON    ? out_json_finish(c)
                 : c->format == FMT_SARIF ? out_sarif_finish(c)
                                          : NULL;
  if (root) {
    json_dumpf(root, c->out, JSON_INDENT(2) | JSON_ENSURE_ASCII);
    fputc('\n', c->out);
    json_decref(root);
  }
}

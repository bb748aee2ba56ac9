/* GitHub Actions output: one workflow command per finding (::error, ::warning or ::notice with
 * file, line, col, endLine, endColumn and the rule as title), which the Actions runner turns into
 * annotations on the pull request. Owns the format and its escaping; called by output.c, calls
 * out_position.c. */
#include "output/out_int.h"

static void gh_escape(FILE *f, const char *s, int property) {
  for (; *s; s++) {
    if (*s == '%') fputs("%25", f);
    else if (*s == '\r') fputs("%0D", f);
    else if (*s == '\n') fputs("%0A", f);
    else if (property && *s == ':') fputs("%3A", f);
    else if (property && *s == ',') fputs("%2C", f);
    else fputc(*s, f);
  }
}

void out_github_diag(cli *c, const unit *u, const boxlint_diag *d, boxlint_severity sev) {
  fpos p;
  cli_position(u, d, &p);
  fprintf(c->out, "::%s file=", sev == BOXLINT_SEVERITY_ERROR ? "error"
                                : sev == BOXLINT_SEVERITY_WARNING ? "warning" : "notice");
  gh_escape(c->out, u->path, 1);
  if (p.has)
    fprintf(c->out, ",line=%u,col=%u,endLine=%u,endColumn=%u", p.line, p.col, p.end_line,
            p.end_col);
  fputs(",title=", c->out);
  gh_escape(c->out, d->rule, 1);
  fputs("::", c->out);
  gh_escape(c->out, d->message, 0);
  if (d->hint) {
    fputs("%0Ahint: ", c->out);
    gh_escape(c->out, d->hint, 0);
  }
  if (d->fix && d->fix->description && d->fix->description[0]) {
    fputs(d->fix->safety == BOXLINT_FIX_SAFE ? "%0Afix: " : "%0Afix (unsafe): ", c->out);
    gh_escape(c->out, d->fix->description, 0);
  }
  fputc('\n', c->out);
}

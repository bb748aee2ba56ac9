/* Problems as data: why an input or its configuration could not be checked (a file that cannot
 * be read, invalid JSON, a malformed template member, an invalid .boxlint.json, a Python syntax
 * error), as a record with its path, position, rule and message. The loaders (input.c,
 * template_load.c) and lint_run.c make the records; the command prints each on standard error
 * as `boxlint: PATH:LINE:COLUMN: MESSAGE` (exit code 2), the language server (lsp/session.c)
 * takes them through c->on_problem and publishes them as diagnostics. Calls nothing of the command's. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "input/input.h"

const char *cli_visible(const char *s, char *buf, size_t n) {
  static const char esc[] = "abtnvfr"; /* \a (7) to \r (13) */
  size_t k = 0;
  int plain = 1;
  for (const char *q = s; *q && plain; q++)
    plain = (unsigned char)*q >= 0x20 && *q != 0x7f && *q != '\\';
  if (plain || n < 5) return s;
  for (; *s && k + 5 < n; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '\\') k += (size_t)snprintf(buf + k, n - k, "\\\\");
    else if (ch >= 7 && ch <= 13) k += (size_t)snprintf(buf + k, n - k, "\\%c", esc[ch - 7]);
    else if (ch < 0x20 || ch == 0x7f) k += (size_t)snprintf(buf + k, n - k, "\\x%02x", ch);
    else buf[k++] = (char)ch;
  }
  buf[k] = 0;
  return buf;
}

void cli_problem_print(FILE *f, const cli_problem *p) {
  char vp[CLI_VISIBLE_MAX], vm[CLI_VISIBLE_MAX];
  const char *path = p->path ? cli_visible(p->path, vp, sizeof vp) : NULL;
  const char *msg = cli_visible(p->message, vm, sizeof vm);
  if (p->line)
    fprintf(f, "boxlint: %s:%u:%u: %s\n", path, p->line, p->column, msg);
  else if (path)
    fprintf(f, "boxlint: %s: %s\n", path, msg);
  else
    fprintf(f, "boxlint: %s\n", msg);
}

/* Has the command printed this configuration problem already (each input that the config
 * applies to meets it again)? Remembers it when not. */
static int config_said(cli *c, const cli_problem *p) {
  if (!p->rule || strcmp(p->rule, "invalid-config") || !p->path) return 0;
  char *key = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&key, &n);
  if (!f) return 0;
  fprintf(f, "%s:%u:%u: %s", p->path, p->line, p->column, p->message);
  fclose(f);
  for (size_t i = 0; key && i < c->nsaid; i++) {
    if (!strcmp(c->said[i], key)) {
      free(key);
      return 1;
    }
  }
  char **ns = key ? realloc(c->said, (c->nsaid + 1) * sizeof *ns) : NULL;
  if (!ns) {
    free(key);
    return 0;
  }
  c->said = ns;
  c->said[c->nsaid++] = key;
  return 0;
}

void cli_problem_report(cli *c, const cli_problem *p) {
  if (c->on_problem) c->on_problem(c, p, c->problem_ctx);
  else if (!config_said(c, p)) cli_problem_print(c->err, p);
}

void cli_problemf(cli *c, const char *path, uint32_t line, uint32_t column, size_t offset,
                  const char *rule, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  char *big = NULL;
  if (n >= (int)sizeof buf && (big = malloc((size_t)n + 1))) {
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  cli_problem p = {path, line, line ? column : 0, offset, offset, rule, big ? big : buf, NULL};
  cli_problem_report(c, &p);
  free(big);
}

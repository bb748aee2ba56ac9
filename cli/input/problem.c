/* Problems as data: why an input or its configuration could not be checked (a file that cannot
 * be read, invalid JSON, a malformed template member, an invalid .boxlint.json, a Python syntax
 * error), as a record with its path, position, rule and message. The loaders (input.c,
 * template_load.c) and lint_run.c make the records; the command prints each on standard error
 * as `boxlint: PATH:LINE:COLUMN: MESSAGE` (exit code 2), the language server (lsp/session.c)
 * takes them through c->on_problem and publishes them as diagnostics. Calls nothing of the command's. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "input/input.h"

void cli_problem_print(FILE *f, const cli_problem *p) {
  if (p->line)
    fprintf(f, "boxlint: %s:%u:%u: %s\n", p->path, p->line, p->column, p->message);
  else if (p->path)
    fprintf(f, "boxlint: %s: %s\n", p->path, p->message);
  else
    fprintf(f, "boxlint: %s\n", p->message);
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

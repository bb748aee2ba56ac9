/* The commands that only print what boxlint knows: `boxlint rules` (every rule, its default
 * severity and summary), `boxlint explain RULE` (what it catches, why, a bad and a good example),
 * `boxlint help` (the usage) and `boxlint version`. Owns their output. Called by main.c; calls
 * the library's rule table and args.c (the usage text, usage errors). */
#include <string.h>
#include "cmd/cmd.h"

int cli_cmd_rules(cli *c, int argc, char **argv) {
  (void)argc, (void)argv;
  size_t n;
  const boxlint_rule_info *r = boxlint_rules(&n);
  for (size_t i = 0; i < n; i++)
    fprintf(c->out, "%-28s %-8s %s\n", r[i].id, boxlint_severity_str(r[i].severity), r[i].summary);
  return EXIT_CLEAN;
}

int cli_cmd_explain(cli *c, int argc, char **argv) {
  if (argc != 2) return cli_usage_error(c, "explain takes one rule id: boxlint explain RULE", NULL);
  const char *id = argv[1];
  const boxlint_rule_info *r = boxlint_rule_find(id, strlen(id));
  if (!r) {
    fprintf(c->err, "boxlint: unknown rule '%s' (boxlint rules lists them)\n", id);
    return EXIT_USAGE;
  }
  char *text;
  size_t n;
  if (boxlint_rule_explain(r, &text, &n, NULL) != BOXLINT_OK) {
    fputs("boxlint: out of memory\n", c->err);
    return EXIT_USAGE;
  }
  fwrite(text, 1, n, c->out);
  boxlint_buffer_free(text, NULL);
  return EXIT_CLEAN;
}

int cli_cmd_help(cli *c, int argc, char **argv) {
  (void)argc, (void)argv;
  cli_usage(c->out);
  return EXIT_CLEAN;
}

int cli_cmd_version(cli *c, int argc, char **argv) {
  (void)argc, (void)argv;
  fprintf(c->out, "boxlint %s\n", boxlint_version());
  return EXIT_CLEAN;
}

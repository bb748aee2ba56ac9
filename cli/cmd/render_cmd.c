/* `boxlint render --base FILE TEMPLATE`: print the Dockerfile the platform builds, the base and
 * then the template's commands joined by newlines, but only when the template is accepted (no
 * error; findings go to standard error, so that standard output is the Dockerfile alone) and
 * the base can take appended commands. Owns that rule and the rendering. Called by main.c; calls
 * args.c, input.c, template_load.c, lint_run.c. */
#include <stdlib.h>
#include "cmd/cmd.h"

/* base + "\n".join(commands), ending in a newline when there are commands. */
static void print_dockerfile(FILE *f, const char *base, size_t blen, const loaded_json *l) {
  fwrite(base, 1, blen, f);
  for (size_t i = 0; i < l->ncmds; i++) {
    if (i) fputc('\n', f);
    fwrite(l->cmds[i].ptr, 1, l->cmds[i].len, f);
  }
  const boxlint_span *last = l->ncmds ? &l->cmds[l->ncmds - 1] : NULL;
  if (last && (last->len == 0 || last->ptr[last->len - 1] != '\n')) fputc('\n', f);
}

static int render(cli *c, const char *base_path, const char *tpl_path) {
  char *base = NULL, *text = NULL;
  size_t blen, tlen;
  int appendable = 0, rc = EXIT_USAGE;
  FILE *saved = c->out;
  c->out = c->err; /* findings go to stderr; stdout is the Dockerfile */
  if (cli_lint_base(c, base_path, &base, &blen, &appendable)) goto out;
  if (cli_read_file(c, tpl_path, &text, &tlen)) goto out;
  loaded_json l;
  if (cli_load_json(c, tpl_path, text, tlen, &l)) {
    cli_loaded_free(&l);
    goto out;
  }
  c->fail_on = BOXLINT_SEVERITY_ERROR;
  if (cli_lint_text(c, tpl_path, text, tlen)) {
    cli_loaded_free(&l);
    goto out;
  }
  rc = c->worst;
  if (rc == EXIT_CLEAN && appendable) print_dockerfile(saved, base, blen, &l);
  else if (rc == EXIT_CLEAN) rc = EXIT_FINDINGS;
  char vb[CLI_VISIBLE_MAX];
  if (rc != EXIT_CLEAN)
    fprintf(c->err, "boxlint: %s: not rendered: the template is rejected\n",
            cli_visible(tpl_path, vb, sizeof vb));
  cli_loaded_free(&l);
out:
  c->out = saved;
  free(base);
  free(text);
  return rc;
}

int cli_cmd_render(cli *c, int argc, char **argv) {
  lint_args a;
  int rc = cli_args_parse(c, argc, argv, &a);
  if (rc == CLI_ARGS_GO && (!a.base || a.npaths != 1 || a.ninline))
    rc = cli_usage_error(
        c, "render takes --base FILE and one TEMPLATE: boxlint render --base FILE TEMPLATE", NULL);
  else if (rc == CLI_ARGS_GO && (a.fix || a.nexcludes))
    rc = cli_usage_error(c, "render prints the Dockerfile: --fix, --diff and --exclude are lint's",
                         NULL);
  else if (rc == CLI_ARGS_GO)
    rc = render(c, a.base, a.paths[0]);
  cli_args_free(c, &a);
  return rc;
}

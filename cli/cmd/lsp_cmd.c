/* `boxlint lsp [--stdio] [--debounce MS]`: the language server's command line; the server is
 * lsp/'s lsp_serve. Called by main.c. */
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"
#include "lsp/lsp.h"

static int lsp_usage(cli *c, int code) {
  fputs("usage: boxlint lsp [--stdio] [--debounce MS]\n"
        "  A Language Server Protocol 3.17 server on standard input and output for templates,\n"
        "  bindings, policies, Dockerfile fragments and Python files with SDK calls.\n",
        code ? c->err : c->out);
  return code;
}

int cli_cmd_lsp(cli *c, int argc, char **argv) {
  int debounce_ms = 150;
  for (int i = 1; i < argc; i++) {
    char *end;
    if (!strcmp(argv[i], "--stdio")) continue;
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return lsp_usage(c, 0);
    if (!strcmp(argv[i], "--debounce") && i + 1 < argc) {
      long v = strtol(argv[++i], &end, 10);
      if (*end || end == argv[i] || v < 0 || v > 10000)
        return cli_usage_error(c, "--debounce takes milliseconds from 0 to 10000:", argv[i]);
      debounce_ms = (int)v;
      continue;
    }
    return cli_usage_error(c, "unknown argument to boxlint lsp:", argv[i]);
  }
  return lsp_serve(c, debounce_ms);
}

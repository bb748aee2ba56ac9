/* `boxlint lsp [--stdio] [--debounce MS]`: the language server's command line (its options
 * are options.def's LSP rows); the server is lsp/'s lsp_serve. Called by main.c. */
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include "cmd/cmd.h"
#include "lsp/lsp.h"

/* A server checks the same documents again and again: what one check frees, the next takes
 * again. glibc would hand the top of its heap back to the system after a check of a large
 * file, and map its largest blocks afresh, whenever its thresholds (which move with what was
 * freed last) say so; then every page is faulted in again at each check, which costs more
 * than the check on a 100 KB Python file (issue 28). Blocks up to 32 MiB come from the heap,
 * and up to 64 MiB of free heap is kept. */
static void keep_memory(void) {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

static int lsp_usage(cli *c, int code) {
  fputs("usage: boxlint lsp [--stdio] [--debounce MS]\n"
        "  A Language Server Protocol 3.17 server on standard input and output for templates,\n"
        "  bindings, policies, Dockerfile fragments and Python files with SDK calls.\n",
        code ? c->err : c->out);
  return code;
}

/* The options (options.def's LSP rows); a value follows its option as the next argument. */
#define OPT_LINT(id, lng, shrt)
#define OPT_POLICY(id, lng, shrt)
#define OPT_LSP(id, lng, shrt) LSP_##id,
#define X(cmd, id, kind, lng, shrt, arg, help, man) OPT_##cmd(id, lng, shrt)
enum lsp_opt {
#include "cmd/options.def"
  LSP_COUNT
};
#undef OPT_LSP
#define OPT_LSP(id, lng, shrt) {lng, shrt},
static const struct {
  const char *lng, *shrt;
} LSP_OPTS[LSP_COUNT] = {
#include "cmd/options.def"
};
#undef X

static enum lsp_opt lsp_opt_of(const char *a) {
  int o = 0;
  for (; o < LSP_COUNT; o++)
    if ((LSP_OPTS[o].lng && !strcmp(a, LSP_OPTS[o].lng)) ||
        (LSP_OPTS[o].shrt && !strcmp(a, LSP_OPTS[o].shrt)))
      break;
  return (enum lsp_opt)o;
}

int cli_cmd_lsp(cli *c, int argc, char **argv) {
  int debounce_ms = 150;
  for (int i = 1; i < argc; i++) {
    char *end;
    enum lsp_opt o = lsp_opt_of(argv[i]);
    if (o == LSP_STDIO) continue;
    if (o == LSP_HELP) return lsp_usage(c, 0);
    if (o == LSP_DEBOUNCE && i + 1 < argc) {
      long v = strtol(argv[++i], &end, 10);
      if (*end || end == argv[i] || v < 0 || v > 10000)
        return cli_usage_error(c, "--debounce takes milliseconds from 0 to 10000:", argv[i]);
      debounce_ms = (int)v;
      continue;
    }
    return cli_usage_error(c, "unknown argument to boxlint lsp:", argv[i]);
  }
  keep_memory();
  return lsp_serve(c, debounce_ms);
}

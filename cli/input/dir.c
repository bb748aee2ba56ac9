/* A directory given to lint, and a file named with --force-exclude or open in the editor: the
 * walk (walk/, a library that knows nothing of boxlint's files) with boxlint's filter, the kind
 * of a file by its name (kind.c) and the "fragments" globs of the directory's config (input.c),
 * and its errors printed as `boxlint: PATH: reason`. Called by the commands and the language
 * server; calls walk/, kind.c and input.c. */
#define _XOPEN_SOURCE 700
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "input/input.h"
#include "walk/walk.h"

typedef struct dir_walk {
  cli *c;
  cli_walk_fn each;
  void *ctx;
  const char *dir;    /* the directory as given */
  cli_fragments frag; /* the config's "fragments", copied */
  size_t frag_off;    /* where the path from the config's directory starts, or SIZE_MAX */
} dir_walk;

/* What could not be walked, as a problem record (printed `boxlint: PATH: reason`), so that a
 * walk whose files are checked by several threads (cmd/lint_jobs.c) prints it in its place. */
static void on_error(void *ctx, const char *path, const char *why) {
  cli_problemf(((dir_walk *)ctx)->c, path, 0, 0, SIZE_MAX, "io-error", "%s", why);
}

/* The same for cli_walk_skips (the language server's too): printed on c->err. */
static void on_skip_error(void *ctx, const char *path, const char *why) {
  cli *c = ((dir_walk *)ctx)->c;
  char vb[CLI_VISIBLE_MAX];
  if (path) fprintf(c->err, "boxlint: %s: %s\n", cli_visible(path, vb, sizeof vb), why);
  else fprintf(c->err, "boxlint: %s\n", why);
}

/* The "fragments" globs of the config that applies to the directory, copied; frag_off where the path from the config's directory starts
 * in the real paths the walk gives (`root`, the walked directory's, then below). Returns 0, or
 * -1 (why printed). */
static int on_start(void *ctx, const char *root) {
  dir_walk *w = ctx;
  const cli_fragments *f;
  if (cli_fragments_for(w->c, w->dir, &f)) return -1;
  w->frag_off = SIZE_MAX;
  if (f->n && !(w->frag.globs = calloc(f->n, sizeof *w->frag.globs))) goto oom;
  for (; w->frag.n < f->n; w->frag.n++)
    if (!(w->frag.globs[w->frag.n] = strdup(f->globs[w->frag.n]))) goto oom;
  if (f->dir) { /* the walked directory is the config's, or below it */
    size_t k = strlen(f->dir);
    const char *a = root;
    if (!strncmp(a, f->dir, k) && (a[k] == 0 || a[k] == '/' || (k && f->dir[k - 1] == '/')))
      w->frag_off = k + (k && f->dir[k - 1] != '/');
  }
  return 0;
oom:
  cli_problemf(w->c, NULL, 0, 0, SIZE_MAX, "out-of-memory", "out of memory");
  return -1;
}

/* Is the file `name` (at `path`) one that can hold templates: its kind by name (kind.c), the
 * config's "fragments" consulted only for a name that is not ours otherwise? The configuration
 * is not (a JSON file's content decides when it is read). */
static int want(void *ctx, const char *name, const char *path) {
  const dir_walk *w = ctx;
  cli_kind k = cli_name_kind(name, 0);
  if (k == CLI_KIND_NONE) {
    const char *from_cfg = w->frag_off == SIZE_MAX ? NULL : path + w->frag_off;
    k = cli_name_kind(name, cli_fragments_hit(&w->frag, name, from_cfg));
  }
  return k != CLI_KIND_NONE && k != CLI_KIND_CONFIG;
}

/* A file found: the caller's callback with c->walking set (cli_read_file then opens it only if
 * it is a regular file, not through a link, never blocking). */
static int each(void *ctx, const char *path) {
  dir_walk *w = ctx;
  int was = w->c->walking;
  w->c->walking = 1;
  int rc = w->each(w->c, path, w->ctx);
  w->c->walking = was;
  return rc;
}

int cli_walk(cli *c, const char *dir, const char *const *excludes, size_t nexcludes,
             cli_walk_fn fn, void *ctx) {
  dir_walk w;
  memset(&w, 0, sizeof w);
  w.c = c;
  w.each = fn;
  w.ctx = ctx;
  w.dir = dir;
  w.frag_off = SIZE_MAX;
  wk_hooks h = {on_start, want, each, on_error, &w};
  int rc = wk_walk(dir, excludes, nexcludes, &h);
  cli_fragments_free(&w.frag);
  return rc;
}

int cli_walk_skips(cli *c, const char *path, const char *const *excludes, size_t nexcludes) {
  dir_walk w;
  memset(&w, 0, sizeof w);
  w.c = c;
  wk_hooks h = {NULL, NULL, NULL, on_skip_error, &w};
  return wk_skips(path, excludes, nexcludes, &h);
}

/* A test-only door into cli/gitignore.c, for tests/oracle/walk_test.py to compare with `git
 * check-ignore --no-index`: `gitignore_probe ROOT` reads paths relative to the work tree ROOT
 * from standard input, NUL-terminated, and prints for each "1 PATH\n" when git would ignore it,
 * else "0 PATH\n". It decides as the walk does (walk.c): the frames of the .gitignore files from
 * ROOT down, each directory above the path checked first (nothing inside an ignored directory
 * is re-included), .git/info/exclude under the root's frame. Exit code 2 on a usage, read or
 * memory problem. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "walk/walk.h"

/* Push the frame of directory `dir` (ROOT/prefix), its paths starting at byte `base`. */
static int push(gi_stack *s, const char *dir, size_t base, int root) {
  char path[8192];
  char *g = NULL, *e = NULL, *ep = NULL;
  size_t gl = 0, el = 0;
  snprintf(path, sizeof path, "%s/.gitignore", dir);
  int err = gi_read(path, 1, &g, &gl);
  if (!err && root) err = gi_exclude_path(dir, &ep);
  if (!err && ep) err = gi_read(ep, 0, &e, &el);
  if (!err && gi_stack_push(s, g, gl, e, el, base, root)) err = ENOMEM;
  if (err) fprintf(stderr, "gitignore_probe: %s: %s\n", dir, strerror(err));
  free(g);
  free(e);
  free(ep);
  return err ? -1 : 0;
}

/* Is `rel` ignored? `full` is ROOT "/" rel, its relative part from byte `off`. */
static int ignored(char *full, size_t off, int *out) {
  gi_stack s = {NULL, 0, 0};
  int rc = 0;
  *out = 0;
  full[off - 1] = 0;
  if (push(&s, full, off, 1)) rc = -1;
  full[off - 1] = '/';
  for (char *p = full + off; !rc && (p = strchr(p, '/')); p++) {
    *p = 0;
    if (gi_stack_ignored(&s, full, (size_t)(p - full), 1)) {
      *out = 1;
      *p = '/';
      break;
    }
    rc = push(&s, full, (size_t)(p - full) + 1, 0);
    *p = '/';
  }
  struct stat st;
  if (!rc && !*out)
    *out = gi_stack_ignored(&s, full, strlen(full),
                            lstat(full, &st) == 0 && S_ISDIR(st.st_mode));
  gi_stack_free(&s);
  return rc;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fputs("usage: gitignore_probe ROOT < NUL-separated paths\n", stderr);
    return 2;
  }
  char full[8192], rel[4096];
  size_t off = (size_t)snprintf(full, sizeof full, "%s/", argv[1]), n = 0;
  int ch;
  while ((ch = getchar()) != EOF) {
    if (ch && n + 1 < sizeof rel) {
      rel[n++] = (char)ch;
      continue;
    }
    rel[n] = 0;
    n = 0;
    snprintf(full + off, sizeof full - off, "%s", rel);
    int ign;
    if (ignored(full, off, &ign)) return 2;
    printf("%d %s\n", ign, rel);
  }
  return 0;
}

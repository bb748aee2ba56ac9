/* Shared by the test-only probes of lib/src/python/ (pytokens_probe.c, pyparse_probe.c): a file
 * read whole, and each path from the command line or, with none, from standard input. */
#ifndef PROBE_UTIL_H
#define PROBE_UTIL_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bytes of `path` (malloc'd, *len bytes), or NULL when it cannot be read. */
static char *probe_slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap);
  while (b) {
    n += fread(b + n, 1, cap - n, f);
    if (n < cap) break;
    char *nb = realloc(b, cap * 2);
    if (!nb) free(b);
    b = nb;
    cap *= 2;
  }
  if (b && ferror(f)) {
    free(b);
    b = NULL;
  }
  fclose(f);
  *len = n;
  return b;
}

/* fn(path, ctx) for argv[i..argc), or for each non-empty line of standard input when there are
 * none; nonzero when any call was. */
static int probe_each_path(int argc, char **argv, int i, int (*fn)(const char *, const void *),
                           const void *ctx) {
  int bad = 0;
  if (i < argc) {
    for (; i < argc; i++) bad |= fn(argv[i], ctx) != 0;
    return bad;
  }
  char line[8192];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\r\n")] = 0;
    if (line[0]) bad |= fn(line, ctx) != 0;
  }
  return bad;
}

#endif

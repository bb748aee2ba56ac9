/* Test helper for fix_test.py: `diff_tool PATH OLD NEW` prints cli_diff_print's unified diff of
 * the files OLD and NEW, labelled PATH (cli/fix_diff.c, built in on its own), so that the test can
 * give it any pair of texts and check that `patch -p1` and `git apply` turn OLD into NEW. */
#include <stdio.h>
#include <stdlib.h>
#include "fix/fix.h"

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  for (size_t r; buf && (r = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += r;
    if (n == cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) free(buf);
      buf = nb;
    }
  }
  fclose(f);
  *len = n;
  return buf;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fputs("usage: diff_tool PATH OLD NEW\n", stderr);
    return 2;
  }
  size_t al = 0, bl = 0;
  char *a = slurp(argv[2], &al), *b = slurp(argv[3], &bl);
  int rc = a && b && !cli_diff_print(stdout, argv[1], a, al, b, bl) ? 0 : 2;
  free(a);
  free(b);
  return rc;
}

/* A main() for the fuzz targets without libFuzzer (libgit2's standalone driver): every file
 * of the directories and files named on the command line goes once through
 * LLVMFuzzerTestOneInput. The ctests fuzz_replay_<target> run it over corpus/<target>/, so any
 * compiler (and gcc's sanitizers) replays the corpus.
 *
 * Exit status: 0 when every input ran (an oracle failure or a sanitizer aborts the process);
 * 1 when a path cannot be read or no input was found. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "standalone_driver: %s: %s\n", path, strerror(errno));
    return -1;
  }
  size_t cap = 4096, len = 0;
  uint8_t *buf = malloc(cap);
  while (buf) {
    len += fread(buf + len, 1, cap - len, f);
    if (len < cap) break;
    uint8_t *nb = realloc(buf, cap * 2);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap *= 2;
  }
  int bad = ferror(f);
  fclose(f);
  if (!buf || bad) {
    fprintf(stderr, "standalone_driver: %s: cannot read\n", path);
    free(buf);
    return -1;
  }
  /* An exact-size copy, so that ASan sees a read past the input's end. */
  uint8_t *exact = malloc(len ? len : 1);
  if (!exact) {
    free(buf);
    return -1;
  }
  if (len) memcpy(exact, buf, len);
  free(buf);
  LLVMFuzzerTestOneInput(exact, len);
  free(exact);
  return 0;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run every regular file of `dir` in name order. Returns the count, or -1. */
static long run_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "standalone_driver: %s: %s\n", dir, strerror(errno));
    return -1;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      char **nn = realloc(names, cap * sizeof *nn);
      if (!nn) break;
      names = nn;
    }
    size_t l = strlen(dir) + strlen(e->d_name) + 2;
    names[n] = malloc(l);
    if (!names[n]) break;
    snprintf(names[n], l, "%s/%s", dir, e->d_name);
    n++;
  }
  closedir(d);
  if (n) qsort(names, n, sizeof *names, cmp_names);
  long count = 0;
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (count >= 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
      if (run_file(names[i]) == 0) count++;
      else count = -1;
    }
    free(names[i]);
  }
  free(names);
  return count;
}

int main(int argc, char **argv) {
  long total = 0;
  if (argc < 2) {
    fprintf(stderr, "usage: %s <corpus dir or file>...\n", argv[0]);
    return 1;
  }
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "standalone_driver: %s: %s\n", argv[i], strerror(errno));
      return 1;
    }
    long n = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : (run_file(argv[i]) == 0 ? 1 : -1);
    if (n < 0) return 1;
    total += n;
  }
  printf("%s: %ld inputs replayed\n", argv[0], total);
  if (total == 0) {
    fprintf(stderr, "standalone_driver: no input found\n");
    return 1;
  }
  return 0;
}

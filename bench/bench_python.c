/* Python reader benchmark (not a test): MB/s of boxlint_check_python, in process, over every .py
 * file of the trees named (a standard library), with a config (every warning at its default
 * severity, as the command checks). Two passes over the same bytes:
 *   as is          each file as written: a file that cannot reach the SDK is read (tokens, tree)
 *                  and decided quiet;
 *   full analysis  each file with a first line `import budai`, so that every file reaches the
 *                  SDK and the whole analysis runs on it (names, scopes, aliases, reflection).
 * Each figure is the median of RUNS passes over the whole tree. With --json, one JSON object
 * per line (bench/python_stdlib.py prints them beside CPython's ast.parse and an older build).
 *
 * Usage: bench_python [--runs N] [--json] DIR...  (a Release build for meaningful numbers) */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "boxlint/boxlint.h"

typedef struct file {
  char *text; /* with PREFIX before it: text + PREFIX_LEN is the file as written */
  size_t len;
} file;

static const char PREFIX[] = "import budai\n";
#define PREFIX_LEN (sizeof PREFIX - 1)

static file *files;
static size_t nfiles, capfiles, total;
static int failed;

static int add_file(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)ftw;
  size_t pl = strlen(path);
  if (flag != FTW_F || pl < 3 || strcmp(path + pl - 3, ".py") || !S_ISREG(st->st_mode)) return 0;
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t n = (size_t)st->st_size;
  char *b = malloc(PREFIX_LEN + n + 1);
  if (!b || fread(b + PREFIX_LEN, 1, n, f) != n) {
    free(b);
    fclose(f);
    return 0;
  }
  fclose(f);
  memcpy(b, PREFIX, PREFIX_LEN);
  if (nfiles == capfiles) {
    size_t nc = capfiles ? capfiles * 2 : 1024;
    file *v = realloc(files, nc * sizeof *v);
    if (!v) {
      free(b);
      failed = 1;
      return 1;
    }
    files = v;
    capfiles = nc;
  }
  files[nfiles].text = b;
  files[nfiles].len = n;
  nfiles++;
  total += n;
  return 0;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* One pass over every file; the seconds it took, the findings and the files refused in *out. */
static double pass(const boxlint_options *o, int full, size_t out[2]) {
  boxlint_report *r = NULL;
  if (boxlint_report_new(&r, NULL) != BOXLINT_OK) return -1;
  out[0] = out[1] = 0;
  double t0 = now();
  for (size_t i = 0; i < nfiles; i++) {
    const char *s = full ? files[i].text : files[i].text + PREFIX_LEN;
    size_t n = files[i].len + (full ? PREFIX_LEN : 0);
    boxlint_report_clear(r);
    boxlint_status st = boxlint_check_python(r, s, n, o, NULL);
    out[0] += boxlint_report_diag_count(r);
    out[1] += st == BOXLINT_ESYNTAX;
  }
  double dt = now() - t0;
  boxlint_report_free(r);
  return dt;
}

int main(int argc, char **argv) {
  int runs = 7, json = 0, ndirs = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--json")) json = 1;
    else if (nftw(argv[i], add_file, 32, FTW_PHYS) == 0) ndirs++;
    else fprintf(stderr, "bench_python: %s: cannot walk\n", argv[i]);
  }
  if (runs < 1 || !ndirs || !nfiles || failed) {
    fprintf(stderr, "usage: bench_python [--runs N] [--json] DIR...  (no .py file read)\n");
    return 2;
  }
  boxlint_config *cfg = NULL;
  if (boxlint_config_new(&cfg, NULL) != BOXLINT_OK) return 2;
  boxlint_options o;
  boxlint_options_init(&o);
  o.config = cfg;
  double *t = malloc((size_t)runs * sizeof *t);
  if (!t) return 2;
  static const char *const names[] = {"as is", "full analysis"};
  for (int full = 0; full < 2; full++) {
    size_t counts[2] = {0, 0};
    pass(&o, full, counts); /* warm: page cache, allocator */
    for (int r = 0; r < runs; r++) t[r] = pass(&o, full, counts);
    qsort(t, (size_t)runs, sizeof *t, cmp);
    double med = t[runs / 2];
    double bytes = (double)total + (full ? (double)(PREFIX_LEN * nfiles) : 0);
    if (json)
      printf("{\"pass\": \"%s\", \"files\": %zu, \"bytes\": %.0f, \"median_s\": %.6f, "
             "\"mb_s\": %.1f, \"findings\": %zu, \"refused\": %zu, \"runs\": %d}\n",
             names[full], nfiles, bytes, med, bytes / med / 1e6, counts[0], counts[1], runs);
    else
      printf("boxlint_check_python, %-13s %zu files, %.2f MB: median %.1f ms, %.1f MB/s "
             "(%zu findings, %zu files refused; median of %d)\n",
             names[full], nfiles, bytes / 1e6, med * 1e3, bytes / med / 1e6, counts[0],
             counts[1], runs);
  }
  free(t);
  boxlint_config_free(cfg);
  for (size_t i = 0; i < nfiles; i++) free(files[i].text);
  free(files);
  return 0;
}

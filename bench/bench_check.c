/*
 * bench_check: how fast boxlint checks templates, side by side with a ceiling measured in the
 * same run on the same buffers (a plain per-byte table-lookup loop). Not a test: it prints
 * medians over repeated runs after a warm-up.
 *
 *   bench_check            full run (about a minute)
 *   bench_check --quick    fewer repetitions
 *   bench_check --dump F   write the workload as JSON (for bench/peers) and exit
 *   bench_check --json     print the main figures as one JSON object (for bench/peers)
 *   bench_check --findings print every finding of the workload, default rules then all
 *                          warnings, one a line (bench/cli.sh prints their md5: a change made
 *                          for speed must leave it as it was)
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "boxlint/boxlint.h"
#include "workload.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int RUNS = 21;
static double MIN_RUN_S = 0.15;

typedef void (*body_fn)(void *ctx);

/* Median seconds per call of fn(ctx) over RUNS runs (each repeats until MIN_RUN_S). */
static double measure(body_fn fn, void *ctx) {
  double t[64];
  fn(ctx); /* warm-up */
  for (int r = 0; r < RUNS; r++) {
    size_t reps = 0;
    double t0 = now(), t1;
    do {
      fn(ctx);
      reps++;
      t1 = now();
    } while (t1 - t0 < MIN_RUN_S);
    t[r] = (t1 - t0) / (double)reps;
  }
  qsort(t, (size_t)RUNS, sizeof t[0], cmp_double);
  return t[RUNS / 2];
}

/* Several bodies measured in turn, round after round, so that each round compares them on the
 * machine in the same state (a shared machine's speed drifts over seconds). t[i]: median
 * seconds per call of body i; ratio[i]: median over rounds of t_round[0] / t_round[i]. */
static void measure_paired(size_t k, body_fn *fn, void **ctx, double *t, double *ratio) {
  double all[8][64], rat[8][64];
  for (size_t i = 0; i < k; i++) fn[i](ctx[i]); /* warm-up */
  for (int r = 0; r < RUNS; r++) {
    for (size_t i = 0; i < k; i++) {
      size_t reps = 0;
      double t0 = now(), t1;
      do {
        fn[i](ctx[i]);
        reps++;
        t1 = now();
      } while (t1 - t0 < MIN_RUN_S);
      all[i][r] = (t1 - t0) / (double)reps;
    }
    for (size_t i = 0; i < k; i++) rat[i][r] = all[0][r] / all[i][r];
  }
  for (size_t i = 0; i < k; i++) {
    qsort(all[i], (size_t)RUNS, sizeof all[i][0], cmp_double);
    qsort(rat[i], (size_t)RUNS, sizeof rat[i][0], cmp_double);
    t[i] = all[i][RUNS / 2];
    ratio[i] = rat[i][RUNS / 2];
  }
}

typedef struct job {
  const workload *w;
  boxlint_report *r;
  const boxlint_options *o;
  size_t errors;
  unsigned long long acc;
} job;

static void run_check(void *vctx) {
  job *j = vctx;
  size_t errors = 0;
  for (size_t i = 0; i < j->w->n; i++) {
    boxlint_report_clear(j->r);
    boxlint_check_commands(j->r, j->w->t[i].cmds, j->w->t[i].ncmds, j->o);
    errors += boxlint_report_count_at_least(j->r, BOXLINT_SEVERITY_ERROR);
  }
  j->errors = errors;
}

/* The ceiling: one table lookup per byte of every command, in the same template order. */
static const unsigned char CLASS[256] = {
  ['\t'] = 1, ['\n'] = 2, ['\r'] = 3, ['\\'] = 4, ['<'] = 5, ['"'] = 6, ['\''] = 7, ['#'] = 8,
};
static void run_ceiling(void *vctx) {
  job *j = vctx;
  unsigned long long acc = 0;
  for (size_t i = 0; i < j->w->n; i++)
    for (size_t k = 0; k < j->w->t[i].ncmds; k++) {
      const unsigned char *p = (const unsigned char *)j->w->t[i].cmds[k].ptr;
      size_t n = j->w->t[i].cmds[k].len;
      for (size_t b = 0; b < n; b++) acc += CLASS[p[b]];
    }
  j->acc += acc;
}

typedef struct figures {
  double tpl_per_s, ns_per_cmd, mb_s, ratio;
} figures;

static figures figures_of(const workload *w, double s, double ratio) {
  figures f;
  f.tpl_per_s = (double)w->n / s;
  f.ns_per_cmd = s * 1e9 / (double)w->total_cmds;
  f.mb_s = (double)w->total_bytes / s / 1e6;
  f.ratio = ratio;
  return f;
}

/* ---- the real corpus ------------------------------------------------------------------------ */

typedef struct corpus {
  char **text;
  size_t *len;
  size_t n, bytes;
} corpus;

static void load_dir(corpus *c, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    if (de->d_name[0] == '.') continue;
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
    struct stat st;
    if (stat(p, &st)) continue;
    if (S_ISDIR(st.st_mode)) {
      load_dir(c, p);
      continue;
    }
    if (!strstr(de->d_name, "Dockerfile")) continue;
    FILE *f = fopen(p, "rb");
    if (!f) continue;
    char *b = malloc((size_t)st.st_size + 1);
    size_t n = b ? fread(b, 1, (size_t)st.st_size, f) : 0;
    fclose(f);
    c->text = realloc(c->text, (c->n + 1) * sizeof *c->text);
    c->len = realloc(c->len, (c->n + 1) * sizeof *c->len);
    c->text[c->n] = b;
    c->len[c->n] = n;
    c->n++;
    c->bytes += n;
  }
  closedir(d);
}

typedef struct cjob {
  const corpus *c;
  boxlint_report *r;
  int check;
  const boxlint_options *o;
} cjob;

static void run_corpus(void *vctx) {
  cjob *j = vctx;
  for (size_t i = 0; i < j->c->n; i++) {
    boxlint_report_clear(j->r);
    if (j->check) boxlint_check_fragment(j->r, j->c->text[i], j->c->len[i], j->o);
    else boxlint_split_fragment(j->r, j->c->text[i], j->c->len[i], NULL);
  }
}

static void run_corpus_ceiling(void *vctx) {
  cjob *j = vctx;
  unsigned long long acc = 0;
  for (size_t i = 0; i < j->c->n; i++) {
    const unsigned char *p = (const unsigned char *)j->c->text[i];
    size_t n = j->c->len[i];
    for (size_t b = 0; b < n; b++) acc += CLASS[p[b]];
  }
  if (acc == 42) puts("");
}

/* ---- allocations per command ------------------------------------------------------------- */

static size_t g_allocs; /* benchmark-only counter, single-threaded */
static void *c_malloc(void *ctx, size_t n) { (void)ctx; g_allocs++; return malloc(n); }
static void *c_realloc(void *ctx, void *p, size_t o, size_t n) { (void)ctx; (void)o; g_allocs++; return realloc(p, n); }
static void c_free(void *ctx, void *p) { (void)ctx; free(p); }

/* ---- every finding of the workload, for the digest -------------------------------------- */

static void put_opt(const char *s) { fputs(s ? s : "-", stdout); }

static void print_findings(const workload *w, boxlint_report *r, const boxlint_options *o,
                           const char *name) {
  for (size_t i = 0; i < w->n; i++) {
    boxlint_report_clear(r);
    boxlint_check_commands(r, w->t[i].cmds, w->t[i].ncmds, o);
    for (size_t k = 0; k < boxlint_report_diag_count(r); k++) {
      const boxlint_diag *d = boxlint_report_diag(r, k);
      printf("%s %zu %d %s %s %u:%u-%u:%u %zu-%zu ", name, i, (int)d->command, d->rule,
             boxlint_severity_str(d->severity), d->line, d->column, d->end_line, d->end_column,
             d->offset, d->end_offset);
      put_opt(d->message);
      fputs(" | ", stdout);
      put_opt(d->hint);
      if (d->fix) {
        printf(" | fix %zu+%zu ", d->fix->offset, d->fix->length);
        fwrite(d->fix->text, 1, d->fix->text_len, stdout);
      }
      fputc('\n', stdout);
    }
  }
}

/* ---- JSON dump for the peers ------------------------------------------------------------- */

static void json_str(FILE *f, const char *p, size_t n) {
  fputc('"', f);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c == '\n') fputs("\\n", f);
    else if (c == '\r') fputs("\\r", f);
    else if (c == '\t') fputs("\\t", f);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

static void dump(const workload *w, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) { perror(path); exit(2); }
  fputs("[", f);
  for (size_t i = 0; i < w->n; i++) {
    fputs(i ? ",\n[" : "\n[", f);
    for (size_t k = 0; k < w->t[i].ncmds; k++) {
      if (k) fputc(',', f);
      json_str(f, w->t[i].cmds[k].ptr, w->t[i].cmds[k].len);
    }
    fputc(']', f);
  }
  fputs("\n]\n", f);
  fclose(f);
}

int main(int argc, char **argv) {
  const char *dump_path = NULL;
  int json = 0, findings = 0;
  const char *corpus_dir = BOXLINT_CORPUS_DIR "/real-dockerfiles";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) { RUNS = 7; MIN_RUN_S = 0.05; }
    else if (!strcmp(argv[i], "--dump") && i + 1 < argc) dump_path = argv[++i];
    else if (!strcmp(argv[i], "--json")) json = 1;
    else if (!strcmp(argv[i], "--findings")) findings = 1;
    else if (!strcmp(argv[i], "--corpus") && i + 1 < argc) corpus_dir = argv[++i];
    else { fprintf(stderr, "usage: bench_check [--quick] [--json] [--findings] [--dump FILE] [--corpus DIR]\n"); return 2; }
  }
  workload w;
  if (wl_make(&w, 20261130, 1000, 1, 64, 0, 5)) { fputs("out of memory\n", stderr); return 2; }
  if (dump_path) {
    dump(&w, dump_path);
    wl_free(&w);
    return 0;
  }
  boxlint_report *r;
  boxlint_config *cfg;
  boxlint_report_new(&r, NULL);
  boxlint_config_new(&cfg, NULL);
  boxlint_options def, all;
  boxlint_options_init(&def);
  boxlint_options_init(&all);
  all.config = cfg;
  if (findings) {
    print_findings(&w, r, &def, "default");
    print_findings(&w, r, &all, "warnings");
    boxlint_config_free(cfg);
    boxlint_report_free(r);
    wl_free(&w);
    return 0;
  }

  /* The ceiling and the checks, round after round on the same buffers. */
  job cj = {&w, r, &def, 0, 0}, dj = {&w, r, &def, 0, 0}, aj = {&w, r, &all, 0, 0};
  body_fn fns[3] = {run_ceiling, run_check, run_check};
  void *ctxs[3] = {&cj, &dj, &aj};
  double tm[3], ratio[3];
  measure_paired(3, fns, ctxs, tm, ratio);
  double ceiling_s = tm[0];
  figures fd = figures_of(&w, tm[1], ratio[1]);
  figures fa = figures_of(&w, tm[2], ratio[2]);
  double ceiling_mb = (double)w.total_bytes / ceiling_s / 1e6;

  /* A typical 8-command template, with its own ceiling. */
  workload w8;
  wl_make(&w8, 7, 200, 8, 8, 0, 0);
  job c8 = {&w8, r, &def, 0, 0}, j8 = {&w8, r, &def, 0, 0}, j8w = {&w8, r, &all, 0, 0};
  void *ctx8[3] = {&c8, &j8, &j8w};
  double tm8[3], ratio8[3];
  measure_paired(3, fns, ctx8, tm8, ratio8);
  double t8 = tm8[1] / (double)w8.n, t8w = tm8[2] / (double)w8.n;

  /* For scale: 8 short commands of the kind the platform's documentation shows. */
  static const char *const DOC8[] = {
      "RUN pip install --no-cache-dir pydantic-ai",
      "RUN pip install --no-cache-dir httpx",
      "RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg && rm -rf /var/lib/apt/lists/*",
      "ENV PYTHONUNBUFFERED=1",
      "WORKDIR /home/user",
      "RUN pip install --no-cache-dir numpy pandas matplotlib",
      "ARG VERSION=1.0",
      "EXPOSE 8000"};
  boxlint_span doc8[8];
  size_t doc8_bytes = 0;
  for (size_t i = 0; i < 8; i++) {
    doc8[i].ptr = DOC8[i];
    doc8[i].len = strlen(DOC8[i]);
    doc8_bytes += doc8[i].len;
  }
  wl_template doc8_t = {doc8, 8, doc8_bytes};
  workload wd = {0};
  wd.t = &doc8_t;
  wd.n = 1;
  wd.total_cmds = 8;
  wd.total_bytes = doc8_bytes;
  job cd = {&wd, r, &def, 0, 0}, jd = {&wd, r, &def, 0, 0};
  body_fn fd2[2] = {run_ceiling, run_check};
  void *ctxd[2] = {&cd, &jd};
  double tmd[2], ratiod[2];
  measure_paired(2, fd2, ctxd, tmd, ratiod);

  if (json) {
    printf("{\"templates\": %zu, \"commands\": %zu, \"bytes\": %zu, \"default_mb_s\": %.1f, "
           "\"warnings_mb_s\": %.1f, \"ceiling_mb_s\": %.1f, \"default_ns_per_command\": %.1f, "
           "\"warnings_ns_per_command\": %.1f, \"default_templates_per_s\": %.0f, "
           "\"template8_us\": %.3f}\n",
           w.n, w.total_cmds, w.total_bytes, fd.mb_s, fa.mb_s, ceiling_mb, fd.ns_per_cmd,
           fa.ns_per_cmd, fd.tpl_per_s, t8 * 1e6);
    return 0;
  }

  printf("boxlint %s bench_check: medians of %d rounds after a warm-up; each round times the ceiling\n"
         "and boxlint one after the other, and the ratio is the median of the rounds' ratios\n", boxlint_version(), RUNS);
  printf("workload: %zu templates, %zu commands (1-64 per template), %.2f MB, 5%% invalid, seed 20261130\n\n",
         w.n, w.total_cmds, (double)w.total_bytes / 1e6);
  printf("%-34s %14s %12s %10s %10s\n", "", "templates/s", "ns/command", "MB/s", "ceiling");
  printf("%-34s %14.0f %12.1f %10.1f %9.0f%%\n", "check, default rules (errors)", fd.tpl_per_s,
         fd.ns_per_cmd, fd.mb_s, fd.ratio * 100);
  printf("%-34s %14.0f %12.1f %10.1f %9.0f%%\n", "check, all warnings on", fa.tpl_per_s,
         fa.ns_per_cmd, fa.mb_s, fa.ratio * 100);
  printf("%-34s %14s %12.1f %10.1f %9s\n", "ceiling: per-byte table lookup", "",
         ceiling_s * 1e9 / (double)w.total_cmds, ceiling_mb, "100%");
  printf("all warnings on / default rules: %.2fx the time per command (same run)\n",
         fa.ns_per_cmd / fd.ns_per_cmd);
  printf("\ntypical 8-command template (%zu bytes on average): %.3f us default (%.0f%% of the "
         "ceiling, %.3f us), %.3f us with warnings\n",
         w8.total_bytes / w8.n, t8 * 1e6, ratio8[1] * 100, tm8[0] / (double)w8.n * 1e6, t8w * 1e6);
  printf("8 short commands as in the platform's documentation (%zu bytes): %.3f us default (%.0f%% "
         "of the ceiling)\n", doc8_bytes, tmd[1] * 1e6, ratiod[1] * 100);

  /* Real corpus. */
  corpus c = {0};
  load_dir(&c, corpus_dir);
  if (c.n) {
    cjob kc = {&c, r, 0, &def}, ks = {&c, r, 0, &def}, ke = {&c, r, 1, &def}, kw = {&c, r, 1, &all};
    body_fn cf[4] = {run_corpus_ceiling, run_corpus, run_corpus, run_corpus};
    void *cc[4] = {&kc, &ks, &ke, &kw};
    double ct[4], cr[4];
    measure_paired(4, cf, cc, ct, cr);
    printf("\nreal corpus: %zu files, %.2f MB\n", c.n, (double)c.bytes / 1e6);
    printf("  %-32s %10.1f MB/s  %5.0f%% of ceiling\n", "split (boxlint_split_fragment)", (double)c.bytes / ct[1] / 1e6, cr[1] * 100);
    printf("  %-32s %10.1f MB/s  %5.0f%% of ceiling\n", "check as fragments, errors", (double)c.bytes / ct[2] / 1e6, cr[2] * 100);
    printf("  %-32s %10.1f MB/s  %5.0f%% of ceiling\n", "check as fragments, warnings", (double)c.bytes / ct[3] / 1e6, cr[3] * 100);
    printf("  %-32s %10.1f MB/s\n", "ceiling", (double)c.bytes / ct[0] / 1e6);
  } else {
    printf("\nreal corpus: not found at %s (skipped)\n", corpus_dir);
  }

  /* Scaling: cost per byte across sizes (linear means a flat ns/byte column). */
  printf("\nscaling (default rules): us/template grows linearly with the number of commands; ns/byte\n"
         "falls as commands grow (a fixed cost per command, then a cost per byte)\n");
  printf("  %-10s %-10s %14s %12s\n", "commands", "bytes/cmd", "us/template", "ns/byte");
  static const size_t NC[] = {1, 8, 64}, NB[] = {100, 1000, 4000};
  for (size_t a = 0; a < 3; a++)
    for (size_t b = 0; b < 3; b++) {
      workload ws;
      wl_make(&ws, 11 + a * 3 + b, NC[a] == 64 ? 8 : 64, NC[a], NC[a], NB[b], 0);
      job js = {&ws, r, &def, 0, 0};
      double s = measure(run_check, &js);
      printf("  %-10zu %-10zu %14.2f %12.2f\n", NC[a], NB[b], s * 1e6 / (double)ws.n,
             s * 1e9 / (double)ws.total_bytes);
      wl_free(&ws);
    }

  /* Pathological inputs: nothing quadratic. */
  printf("\npathological inputs (default rules), size doubled each row: us should double\n");
  for (int kind = 0; kind < 3; kind++) {
    static const char *names[] = {"many diagnostics (64 bad commands)", "one long continuation",
                                  "many heredocs on one line"};
    printf("  %s\n", names[kind]);
    for (size_t size = 1024; size <= 16384; size *= 2) {
      char *buf = malloc(size * 2 + 64);
      size_t n = 0;
      boxlint_span sp[64];
      size_t ns = 1;
      if (kind == 0) {
        /* each command: unknown keyword, NUL, bare CR, dangling continuation */
        size_t per = size / 64;
        for (size_t i = 0; i < 64; i++) {
          sp[i].ptr = buf + n;
          size_t s0 = n;
          n += (size_t)sprintf(buf + n, "pipx install x\rq");
          while (n - s0 + 3 < per) buf[n++] = 'a';
          buf[n++] = 0;
          buf[n++] = '\\';
          sp[i].len = n - s0;
        }
        ns = 64;
      } else if (kind == 1) {
        n += (size_t)sprintf(buf, "RUN a");
        while (n + 8 < size) n += (size_t)sprintf(buf + n, " \\\n  b");
        sp[0].ptr = buf;
        sp[0].len = n;
      } else {
        n += (size_t)sprintf(buf, "RUN cat");
        size_t k = 0;
        while (n + 16 < size / 2) n += (size_t)sprintf(buf + n, " <<E%zu", k++);
        for (size_t i = 0; i < k; i++) n += (size_t)sprintf(buf + n, "\nx\nE%zu", i);
        sp[0].ptr = buf;
        sp[0].len = n;
      }
      boxlint_options big;
      boxlint_options_init(&big);
      big.max_command_bytes = 0;
      workload wp = {0};
      wl_template t = {sp, ns, n};
      wp.t = &t;
      wp.n = 1;
      wp.total_cmds = ns;
      wp.total_bytes = n;
      job jp = {&wp, r, &big, 0, 0};
      double s = measure(run_check, &jp);
      printf("    %6zu bytes %10.2f us %8.2f ns/byte (%zu errors)\n", n, s * 1e6, s * 1e9 / (double)n, jp.errors);
      free(buf);
    }
  }

  /* Heap allocations per command with a warm report. */
  boxlint_alloc counting = {c_malloc, c_realloc, c_free, NULL};
  boxlint_report *cr;
  boxlint_report_new(&cr, &counting);
  workload wc;
  wl_make(&wc, 99, 200, 1, 64, 0, 0);
  job jc = {&wc, cr, &def, 0, 0};
  run_check(&jc); /* warm */
  g_allocs = 0;
  run_check(&jc);
  printf("\nheap allocations with a warm report: %zu for %zu valid commands (%.3f per command; "
         "diagnostics excluded: %zu errors)\n", g_allocs, wc.total_cmds,
         (double)g_allocs / (double)wc.total_cmds, jc.errors);
  boxlint_report_free(cr);
  wl_free(&wc);
  wl_free(&w8);
  wl_free(&w);
  boxlint_config_free(cfg);
  boxlint_report_free(r);
  return 0;
}

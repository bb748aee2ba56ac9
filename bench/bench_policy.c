/* Policy decision benchmark (not a test): decisions per second of the compiled engine
 * (boxlint_policy_decide) and of the linear reference scan (boxlint__policy_decide_linear), side
 * by side in one run, at 10, 1,000 and 10,000 entries. Each figure is the median of RUNS timed
 * runs; each run repeats a fixed mix of destinations (a third host only, a third address only,
 * a third both; about half of them matching an entry) for at least MIN_RUN_NS.
 *
 * Usage: bench_policy [runs]   (build with CMAKE_BUILD_TYPE=Release for meaningful numbers) */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "boxlint/boxlint.h"
#include "policy/policy_int.h"

#define NQUERIES 4096
#define MIN_RUN_NS 100000000.0 /* 0.1 s */

typedef boxlint_status (*decide_fn)(boxlint_decision *, const boxlint_policy *, const char *,
                                    size_t, const char *, size_t);

typedef struct q {
  const char *host, *ip;
  size_t hl, il;
} q;

static uint64_t rnd(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Entry i of a policy: a spread of IPv4 /24s and /32s, IPv6 /64s, names and wildcards. */
static void make_entry(char *o, size_t cap, size_t i, int deny) {
  unsigned k = (unsigned)(i % 10);
  unsigned a = (unsigned)i + (deny ? 40000u : 0u);
  if (k < 3)
    snprintf(o, cap, "%u.%u.%u.0/24", 11u + a / 65536u, (a / 256u) % 256u, a % 256u);
  else if (k < 4)
    snprintf(o, cap, "%u.%u.%u.%u", 100u + a / 65536u, (a / 256u) % 256u, a % 256u, 1u + k);
  else if (k < 5)
    snprintf(o, cap, "2001:db8:%x:%x::/64", a / 65536u + 1u, a % 65536u);
  else if (k < 8)
    snprintf(o, cap, "host%u.svc%u.example.com", a, a % 97u);
  else
    snprintf(o, cap, "*.svc%u.zone%u.example.org", a, a % 13u);
}

static void make_query(uint64_t *s, char *h, char *ip, q *out, size_t n_entries) {
  unsigned kind = (unsigned)(rnd(s) % 3); /* 0 host, 1 ip, 2 both */
  int hit = rnd(s) % 2 == 0;
  unsigned a = (unsigned)(rnd(s) % (n_entries + 1)) + (rnd(s) % 2 ? 40000u : 0u);
  if (!hit) a += 100000u;
  out->host = out->ip = NULL;
  if (kind != 1) {
    if (rnd(s) % 2)
      snprintf(h, 128, "host%u.svc%u.example.com", a, a % 97u);
    else
      snprintf(h, 128, "api.v%u.svc%u.zone%u.example.org", (unsigned)(rnd(s) % 9), a, a % 13u);
    out->host = h;
    out->hl = strlen(h);
  }
  if (kind != 0) {
    if (rnd(s) % 4)
      snprintf(ip, 64, "%u.%u.%u.%u", 11u + a / 65536u, (a / 256u) % 256u, a % 256u,
               (unsigned)(rnd(s) % 256));
    else
      snprintf(ip, 64, "2001:db8:%x:%x::%x", a / 65536u + 1u, a % 65536u, (unsigned)(rnd(s) % 9999));
    out->ip = ip;
    out->il = strlen(ip);
  }
}

/* Decisions per second, median of `runs`. */
static double measure(decide_fn fn, const boxlint_policy *p, const q *qs, int runs,
                      unsigned *sink) {
  double *rate = malloc((size_t)runs * sizeof *rate);
  if (!rate) return 0;
  for (int r = 0; r < runs; r++) {
    size_t done = 0;
    double t0 = now_ns(), t;
    do {
      for (size_t i = 0; i < NQUERIES; i++) {
        boxlint_decision d;
        fn(&d, p, qs[i].host, qs[i].hl, qs[i].ip, qs[i].il);
        *sink += (unsigned)d.verdict + (unsigned)d.index;
      }
      done += NQUERIES;
      t = now_ns() - t0;
    } while (t < MIN_RUN_NS);
    rate[r] = (double)done / (t / 1e9);
  }
  qsort(rate, (size_t)runs, sizeof *rate, cmp_double);
  double m = rate[runs / 2];
  free(rate);
  return m;
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 7;
  if (runs < 1) runs = 1;
  static const size_t sizes[] = {10, 1000, 10000};
  unsigned sink = 0;
  printf("boxlint policy decisions, median of %d runs (each >= %.1f s over %d mixed destinations)\n",
         runs, MIN_RUN_NS / 1e9, NQUERIES);
  printf("%-9s %-10s %-10s %16s %16s %10s\n", "entries", "allow_out", "deny_out",
         "compiled dec/s", "linear dec/s", "speed-up");
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    size_t n = sizes[si], na = n / 2, nd = n - n / 2;
    char(*text)[96] = malloc(n * sizeof *text);
    boxlint_span *allow = malloc(na * sizeof *allow), *deny = malloc(nd * sizeof *deny);
    q *qs = malloc(NQUERIES * sizeof *qs);
    char(*hb)[128] = malloc(NQUERIES * sizeof *hb);
    char(*ib)[64] = malloc(NQUERIES * sizeof *ib);
    if (!text || !allow || !deny || !qs || !hb || !ib) {
      fprintf(stderr, "bench_policy: out of memory\n");
      return 2;
    }
    for (size_t i = 0; i < na; i++) {
      make_entry(text[i], sizeof text[i], i, 0);
      allow[i].ptr = text[i];
      allow[i].len = strlen(text[i]);
    }
    for (size_t i = 0; i < nd; i++) {
      make_entry(text[na + i], sizeof text[na + i], i, 1);
      deny[i].ptr = text[na + i];
      deny[i].len = strlen(text[na + i]);
    }
    boxlint_policy_spec spec = {{"filtered", 8}, allow, na, deny, nd};
    boxlint_policy_options o;
    boxlint_policy_options_init(&o);
    o.max_entries = n;
    boxlint_policy *p = NULL;
    double t0 = now_ns();
    boxlint_status st = boxlint_policy_new(&p, NULL, &spec, &o, NULL);
    double build_ms = (now_ns() - t0) / 1e6;
    if (st != BOXLINT_OK) {
      fprintf(stderr, "bench_policy: compiling %zu entries: %s\n", n, boxlint_status_str(st));
      return 2;
    }
    uint64_t s = 0xbe4c4u + n;
    for (size_t i = 0; i < NQUERIES; i++) make_query(&s, hb[i], ib[i], &qs[i], na);
    /* The engines must agree before their speed means anything. */
    size_t matched = 0;
    for (size_t i = 0; i < NQUERIES; i++) {
      boxlint_decision a, b;
      boxlint_policy_decide(&a, p, qs[i].host, qs[i].hl, qs[i].ip, qs[i].il);
      boxlint__policy_decide_linear(&b, p, qs[i].host, qs[i].hl, qs[i].ip, qs[i].il);
      if (a.verdict != b.verdict || a.reason != b.reason || a.index != b.index || a.list != b.list) {
        fprintf(stderr, "bench_policy: engines disagree on query %zu\n", i);
        return 2;
      }
      matched += a.reason == BOXLINT_REASON_RULE;
    }
    double c = measure(boxlint_policy_decide, p, qs, runs, &sink);
    double l = measure(boxlint__policy_decide_linear, p, qs, runs, &sink);
    printf("%-9zu %-10zu %-10zu %16.0f %16.0f %9.1fx   (compile %.2f ms; %zu/%d decided by an "
           "entry)\n",
           n, na, nd, c, l, l > 0 ? c / l : 0.0, build_ms, matched, NQUERIES);
    boxlint_policy_free(p);
    free(text);
    free(allow);
    free(deny);
    free(qs);
    free(hb);
    free(ib);
  }
  return sink == 0xdeadbeefu; /* keep the work observable */
}

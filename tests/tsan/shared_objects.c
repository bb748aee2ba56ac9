/* The shared-objects run of shared_objects.h: the allocators, the work of one round, the
 * threads. */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */
#include "shared_objects.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "boxlint/boxlint.h"

/*==============================================================================================
 * MARK: The shared objects' allocator: a bump arena that is not thread-safe
 *============================================================================================*/

#define ARENA_BYTES ((size_t)64 << 20)

typedef struct arena {
  boxlint_alloc a;
  pthread_t owner;        /* the thread that made the shared objects */
  int refuse;             /* NULL to any other thread */
  atomic_int sharing;     /* 1 while the threads run */
  atomic_long other_thread, while_shared;
  unsigned char *buf;
  size_t cap, used;       /* plain, unsynchronised: a second thread here is a race */
} arena;

/* Count the call; 0 when it must be refused. */
static int arena_note(arena *g) {
  int ok = 1;
  if (atomic_load(&g->sharing)) atomic_fetch_add(&g->while_shared, 1);
  if (!pthread_equal(pthread_self(), g->owner)) {
    atomic_fetch_add(&g->other_thread, 1);
    ok = !g->refuse;
  }
  return ok;
}

static void *arena_bump(arena *g, size_t n) {
  size_t need = (n + 15u) & ~(size_t)15u;
  if (need < n || need > g->cap - g->used) return NULL;
  void *p = g->buf + g->used;
  g->used += need;
  return p;
}

static void *arena_malloc(void *ctx, size_t n) {
  arena *g = ctx;
  return arena_note(g) ? arena_bump(g, n) : NULL;
}

static void *arena_realloc(void *ctx, void *p, size_t old_n, size_t n) {
  arena *g = ctx;
  if (!arena_note(g)) return NULL;
  void *q = arena_bump(g, n);
  if (q && p) memcpy(q, p, old_n < n ? old_n : n);
  return q;
}

static void arena_free(void *ctx, void *p) {
  (void)p; /* an arena frees everything at once */
  arena_note(ctx);
}

/*==============================================================================================
 * MARK: A thread's own allocator: libc, counting calls from other threads
 *============================================================================================*/

typedef struct own {
  boxlint_alloc a;
  pthread_t owner;
  atomic_long *other_thread;
  long calls; /* plain: only the owner may touch it */
} own;

static void own_note(own *o) {
  if (!pthread_equal(pthread_self(), o->owner)) atomic_fetch_add(o->other_thread, 1);
  o->calls++;
}

static void *own_malloc(void *ctx, size_t n) {
  own_note(ctx);
  return malloc(n ? n : 1);
}

static void *own_realloc(void *ctx, void *p, size_t old_n, size_t n) {
  (void)old_n;
  own_note(ctx);
  return realloc(p, n ? n : 1);
}

static void own_free(void *ctx, void *p) {
  own_note(ctx);
  free(p);
}

static void own_init(own *o, atomic_long *other_thread) {
  o->a = (boxlint_alloc){own_malloc, own_realloc, own_free, o};
  o->owner = pthread_self();
  o->other_thread = other_thread;
  o->calls = 0;
}

/*==============================================================================================
 * MARK: One round: check, check Python, decide, emit; its results as one digest string
 *============================================================================================*/

#define DIGEST 8192

typedef struct env {
  const boxlint_config *config;
  const boxlint_policy *policy;
  char ref[DIGEST]; /* the main thread's results before sharing */
  pthread_barrier_t start;
  arena *arena;
  atomic_long own_other_thread;
} env;

typedef struct digest {
  char s[DIGEST];
  size_t n;
  int failed;
} digest;

static void dput(digest *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(d->s + d->n, sizeof d->s - d->n, fmt, ap);
  va_end(ap);
  if (k < 0 || (size_t)k >= sizeof d->s - d->n) d->failed = 1;
  else d->n += (size_t)k;
}

static void dreport(digest *d, const boxlint_report *r, boxlint_status st) {
  if (st != BOXLINT_OK) d->failed = 1;
  for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
    const boxlint_diag *g = boxlint_report_diag(r, i);
    dput(d, "%s@%d:%u:%u;", g->rule, (int)g->command, (unsigned)g->line, (unsigned)g->column);
  }
  dput(d, "|");
}

static const char *const COMMANDS[] = {
    "RUN curl -fsSL https://get.example.com/install.sh | bash",
    "ENV API_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
    "RUN <<EOF\necho TODO: pin the version\npip install httpx\nEOF",
    "RUN echo registry.example.com/app:latest && curl -u admin:hunter2secret@x https://h/",
    "RUN pip install pydantic-ai",
};

/* Its commands run the built-in patterns but match no user rule: the finding of a user rule in
 * a Python file names its rule with memory of the call's temporary report (python/place.c). */
static const char PYTHON[] =
    "client.code_interpreter.templates.create(\n"
    "    name=\"my-py\",\n"
    "    commands=[\"RUN apt-get install -y git\", \"ENV DB_PASSWORD=s3cr3t-value-here\"],\n"
    "    cpu_count=2, memory_mb=4096)\n"
    "client.agents.add_code_interpreter(\"prm_abc\", template_id=\"my-py\", version=1,\n"
    "    network_policy={\"type\": \"filtered\", \"allow_out\": [\"pypi.org\"], \"deny_out\": []})\n";

static const char *const HOSTS[] = {"pypi.org", "files.pythonhosted.org", "api.github.com",
                                    "github.com", "example.com", "10.1.2.3", NULL};

static uint64_t fnv(const char *s, size_t n) {
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211u;
  return h;
}

static void round_checks(const env *e, boxlint_report *r, digest *d) {
  boxlint_options o;
  boxlint_options_init(&o);
  o.config = e->config;
  boxlint_span cmds[sizeof COMMANDS / sizeof *COMMANDS];
  for (size_t i = 0; i < sizeof COMMANDS / sizeof *COMMANDS; i++)
    cmds[i] = (boxlint_span){COMMANDS[i], strlen(COMMANDS[i])};
  boxlint_report_clear(r);
  dreport(d, r, boxlint_check_commands(r, cmds, sizeof cmds / sizeof *cmds, &o));
  boxlint_report_clear(r);
  dreport(d, r, boxlint_check_python(r, PYTHON, sizeof PYTHON - 1, &o, NULL));
}

static void round_policy(const env *e, boxlint_report *r, const boxlint_alloc *a, digest *d) {
  for (size_t i = 0; HOSTS[i]; i++) {
    boxlint_decision dec;
    int ip = HOSTS[i][0] >= '0' && HOSTS[i][0] <= '9';
    size_t n = strlen(HOSTS[i]);
    if (boxlint_policy_decide(&dec, e->policy, ip ? NULL : HOSTS[i], ip ? 0 : n,
                              ip ? HOSTS[i] : NULL, ip ? n : 0) != BOXLINT_OK)
      d->failed = 1;
    dput(d, "%d/%d/%d/%d;", (int)dec.verdict, (int)dec.reason, (int)dec.list, (int)dec.index);
  }
  /* a resolver's address, so that a policy of names and a deny-all is emitted, not refused */
  const char *const resolvers[] = {"198.51.100.53"};
  boxlint_emit_options eo;
  boxlint_emit_options_init(&eo);
  eo.resolvers = resolvers;
  eo.nresolvers = 1;
  for (int f = 0; f < 2; f++) {
    char *out = NULL;
    size_t len = 0;
    boxlint_report_clear(r);
    boxlint_status st = boxlint_policy_emit(e->policy, f ? BOXLINT_EMIT_DNSMASQ
                                                         : BOXLINT_EMIT_NFTABLES,
                                            &eo, r, &out, &len, a);
    dreport(d, r, st);
    dput(d, "%zu:%016llx;", len, out ? (unsigned long long)fnv(out, len) : 0ull);
    boxlint_buffer_free(out, a);
  }
}

static void one_round(const env *e, boxlint_report *r, const boxlint_alloc *a, digest *d) {
  d->n = 0;
  d->s[0] = 0;
  d->failed = 0;
  round_checks(e, r, d);
  round_policy(e, r, a, d);
}

/*==============================================================================================
 * MARK: The shared objects and the threads
 *============================================================================================*/

static int make_config(boxlint_config **c, const boxlint_alloc *a) {
  static const struct { const char *id, *pattern; boxlint_keyword kw; } RULES[] = {
      {"no-curl-pipe", "curl[^|]*\\|\\s*(?:ba)?sh\\b", BOXLINT_KW_RUN},
      {"no-latest-tag", ":latest\\b", BOXLINT_KW_NONE},
      {"no-todo", "\\bTODO\\b", BOXLINT_KW_NONE},
      {"long-pip", "pip\\s+install(?:\\s+[\\w.-]+){1,8}", BOXLINT_KW_RUN},
  };
  if (boxlint_config_new(c, a) != BOXLINT_OK) return -1;
  for (size_t i = 0; i < sizeof RULES / sizeof *RULES; i++) {
    boxlint_user_rule u = {{RULES[i].id, strlen(RULES[i].id)}, BOXLINT_SEVERITY_WARNING,
                           RULES[i].kw, {RULES[i].pattern, strlen(RULES[i].pattern)},
                           {"user rule", 9}};
    if (boxlint_config_add_rule(*c, &u, NULL) != BOXLINT_OK) return -1;
  }
  return 0;
}

static int make_policy(boxlint_policy **p, const boxlint_alloc *a) {
  static const char *const ALLOW[] = {"pypi.org", "*.pythonhosted.org", "github.com",
                                      "*.github.com"};
  boxlint_span allow[4], deny[1] = {{"ALL_TRAFFIC", 11}};
  for (size_t i = 0; i < 4; i++) allow[i] = (boxlint_span){ALLOW[i], strlen(ALLOW[i])};
  boxlint_policy_spec sp = {{"filtered", 8}, allow, 4, deny, 1};
  return boxlint_policy_new(p, NULL, &sp, NULL, a) == BOXLINT_OK ? 0 : -1;
}

typedef struct worker {
  env *e;
  int iters;
  long mismatches, failures, calls;
} worker;

static void *work(void *arg) {
  worker *w = arg;
  own o;
  own_init(&o, &w->e->own_other_thread);
  boxlint_report *r = NULL;
  digest *d = malloc(sizeof *d);
  if (!d || boxlint_report_new(&r, &o.a) != BOXLINT_OK) w->failures++;
  pthread_barrier_wait(&w->e->start);
  for (int i = 0; d && r && i < w->iters; i++) {
    one_round(w->e, r, &o.a, d);
    if (d->failed) w->failures++;
    if (strcmp(d->s, w->e->ref)) w->mismatches++;
  }
  boxlint_report_free(r);
  free(d);
  w->calls = o.calls;
  return NULL;
}

/* The reference: the same round, by the main thread, before any sharing. */
static int reference(env *e) {
  boxlint_report *r = NULL;
  digest *d = malloc(sizeof *d);
  int rc = -1;
  if (d && boxlint_report_new(&r, NULL) == BOXLINT_OK) {
    one_round(e, r, NULL, d);
    /* the user rules, a secret and the policy's sets must all be in it */
    if (!d->failed && strstr(d->s, "no-curl-pipe@0") && strstr(d->s, "no-todo@2") &&
        strstr(d->s, "no-latest-tag@3") && strstr(d->s, "secret-in-command@1")) {
      memcpy(e->ref, d->s, d->n + 1);
      rc = 0;
    }
  }
  boxlint_report_free(r);
  free(d);
  return rc;
}

static void run_threads(env *e, int nthreads, int iters, shared_result *res) {
  pthread_t tid[64];
  worker w[64];
  int started = 0;
  if (nthreads > 64) nthreads = 64;
  pthread_barrier_init(&e->start, NULL, (unsigned)nthreads + 1);
  atomic_store(&e->arena->sharing, 1);
  for (; started < nthreads; started++) {
    w[started] = (worker){e, iters, 0, 0, 0};
    if (pthread_create(&tid[started], NULL, work, &w[started])) break;
  }
  if (started < nthreads) { /* the barrier cannot be passed: not a test of anything */
    fprintf(stderr, "pthread_create failed after %d threads\n", started);
    exit(2);
  }
  pthread_barrier_wait(&e->start);
  for (int i = 0; i < started; i++) {
    pthread_join(tid[i], NULL);
    res->mismatches += w[i].mismatches;
    res->failures += w[i].failures;
    res->own_calls += w[i].calls;
  }
  atomic_store(&e->arena->sharing, 0);
  pthread_barrier_destroy(&e->start);
}

int shared_objects_run(int nthreads, int iters, int refuse_other_threads, shared_result *res) {
  memset(res, 0, sizeof *res);
  res->threads = nthreads;
  res->iterations = iters;
  arena *g = calloc(1, sizeof *g);
  env *e = calloc(1, sizeof *e);
  boxlint_config *cfg = NULL;
  boxlint_policy *pol = NULL;
  if (!g || !e || !(g->buf = malloc(ARENA_BYTES))) {
    res->failures++;
  } else {
    g->a = (boxlint_alloc){arena_malloc, arena_realloc, arena_free, g};
    g->owner = pthread_self();
    g->refuse = refuse_other_threads;
    g->cap = ARENA_BYTES;
    e->arena = g;
    if (make_config(&cfg, &g->a) || make_policy(&pol, &g->a)) res->failures++;
    e->config = cfg;
    e->policy = pol;
    if (!res->failures && reference(e)) res->failures++;
    if (!res->failures) run_threads(e, nthreads, iters, res);
    res->arena_calls_other_thread = atomic_load(&g->other_thread);
    res->arena_calls_while_shared = atomic_load(&g->while_shared);
    res->own_calls_other_thread = atomic_load(&e->own_other_thread);
    res->arena_used = g->used;
  }
  boxlint_config_free(cfg);
  boxlint_policy_free(pol);
  if (g) free(g->buf);
  free(g);
  free(e);
  return res->arena_calls_other_thread || res->arena_calls_while_shared ||
                 res->own_calls_other_thread || res->mismatches || res->failures
             ? 1
             : 0;
}

void shared_result_print(const shared_result *res, FILE *f) {
  fprintf(f, "threads: %d, rounds per thread: %d\n", res->threads, res->iterations);
  fprintf(f, "shared objects' arena: %zu bytes, calls from another thread: %ld, calls while "
             "shared: %ld\n",
          res->arena_used, res->arena_calls_other_thread, res->arena_calls_while_shared);
  fprintf(f, "threads' own allocators: %ld calls, from another thread: %ld\n", res->own_calls,
          res->own_calls_other_thread);
  fprintf(f, "results unlike the reference: %ld, failed calls: %ld\n", res->mismatches,
          res->failures);
}

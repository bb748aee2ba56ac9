/* A walked directory's files checked by several threads (-j, --jobs N), printed as one thread
 * prints them. The main thread walks (input/'s cli_walk) and queues each file found in a ring of
 * 2N slots; up to N worker threads, started as files come, take the slots in order, read and
 * check each file (cli_lint_read) with a copy of the command's cli whose problems are kept in
 * the slot instead of printed; the main thread prints the oldest slot once it is checked
 * (its problems, then its findings: cli_lint_show), in the walk's order, and reuses it. So
 * only the main thread writes on stdout and stderr, in the order the one-thread path writes,
 * and memory holds at most 2N files. What the main thread itself meets during the walk (a
 * directory it cannot read, a config it cannot load) is kept too, and printed before the file
 * the walk found next. The configs found upward are shared through the command's cache
 * (c->cache_owner, under c->cache_lock); the library's compiled configs are shared as they
 * are (immutable); each check has its own report. Called by lint_cmd.c; calls lint_print.c,
 * input/ (cli_walk, problems) and nothing that prints from a worker. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/cmd.h"

unsigned cli_default_jobs(void) {
  long n = 0;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) n = CPU_COUNT(&set);
  if (n < 1) n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1u : n > CLI_MAX_JOBS ? (unsigned)CLI_MAX_JOBS : (unsigned)n;
}

/* Problems kept to be reported later, on the main thread, each with a copy of its strings. */
typedef struct kept {
  struct kept_one { cli_problem p; char *strings; } *v; /* p's strings point into `strings` */
  size_t n, cap;
  int oom;          /* one could not be kept: "out of memory" is reported in its place */
} kept;

static const char *put(char **at, const char *s) {
  if (!s) return NULL;
  char *r = *at;
  size_t k = strlen(s) + 1;
  memcpy(r, s, k);
  *at += k;
  return r;
}

static void keep(kept *k, const cli_problem *p) {
  size_t need = 1;
  const char *s[4] = {p->path, p->rule, p->message, p->hint};
  for (int i = 0; i < 4; i++) need += s[i] ? strlen(s[i]) + 1 : 0;
  if (k->n == k->cap) {
    size_t cap = k->cap ? 2 * k->cap : 4;
    struct kept_one *nv = realloc(k->v, cap * sizeof *nv);
    if (nv) {
      k->v = nv;
      k->cap = cap;
    }
  }
  char *b = k->n < k->cap ? malloc(need) : NULL, *at = b;
  if (!b) {
    k->oom = 1;
    return;
  }
  struct kept_one *o = &k->v[k->n++];
  o->strings = b;
  o->p = *p;
  o->p.path = put(&at, p->path);
  o->p.rule = put(&at, p->rule);
  o->p.message = put(&at, p->message);
  o->p.hint = put(&at, p->hint);
}

static void kept_free(kept *k) {
  for (size_t i = 0; i < k->n; i++) free(k->v[i].strings);
  free(k->v);
  memset(k, 0, sizeof *k);
}

/* Report what `k` kept through `c` (printed, once each for a config's problem), then free it. */
static void replay(cli *c, kept *k) {
  for (size_t i = 0; i < k->n; i++) cli_problem_report(c, &k->v[i].p);
  if (k->oom) cli_problemf(c, NULL, 0, 0, SIZE_MAX, "out-of-memory", "out of memory");
  kept_free(k);
}

/* A file found by the walk, from its queueing to its printing. */
typedef struct slot {
  char *path;          /* as the walk spelled it */
  kept pre;            /* what the main thread met before the walk found this file */
  kept own;            /* the file's own problems (the worker's) */
  cli_lint_job job;    /* the file read and checked */
  int done;            /* checked (under the lock) */
} slot;

typedef struct worker {
  struct lint_jobs *j;
  cli c;               /* the command's cli, copied: problems kept in `cur`, configs shared */
  slot *cur;
  pthread_t tid;
} worker;

struct lint_jobs {
  cli *c;
  unsigned n;                     /* workers at most */
  pthread_mutex_t mu;             /* the ring's indexes, `done`, `stop` */
  pthread_cond_t work, done;      /* a file to take; a file checked */
  pthread_mutex_t cache_mu;       /* the command's config cache (c->cache_lock) */
  slot *ring;
  size_t cap;                     /* 2n slots */
  size_t head, next, tail;        /* the oldest not printed, the next to take, the next free */
  worker *w;
  unsigned started;
  int stop;
  int failed;                     /* a file of this walk could not be read or checked */
  kept pending;                   /* the main thread's problems since the last file queued */
  void (*on_problem)(cli *c, const cli_problem *p, void *ctx); /* the command's own */
  void *problem_ctx;
};

static void keep_worker(cli *c, const cli_problem *p, void *ctx) {
  (void)c;
  keep(&((worker *)ctx)->cur->own, p);
}

static void keep_main(cli *c, const cli_problem *p, void *ctx) {
  (void)c;
  keep(&((lint_jobs *)ctx)->pending, p);
}

static void *work(void *arg) {
  worker *w = arg;
  lint_jobs *j = w->j;
  pthread_mutex_lock(&j->mu);
  for (;;) {
    while (!j->stop && j->next == j->tail) pthread_cond_wait(&j->work, &j->mu);
    if (j->next == j->tail) break; /* stopped, nothing left */
    slot *s = &j->ring[j->next++ % j->cap];
    pthread_mutex_unlock(&j->mu);
    w->cur = s;
    cli_lint_read(&w->c, s->path, 1, &s->job);
    w->cur = NULL;
    pthread_mutex_lock(&j->mu);
    s->done = 1;
    pthread_cond_signal(&j->done); /* only the main thread waits for it */
  }
  pthread_mutex_unlock(&j->mu);
  return NULL;
}

lint_jobs *cli_jobs_new(cli *c, unsigned n) {
  lint_jobs *j = calloc(1, sizeof *j);
  if (!j) return NULL;
  j->c = c;
  j->n = n;
  j->cap = 2 * (size_t)n;
  j->ring = calloc(j->cap, sizeof *j->ring);
  j->w = calloc(n, sizeof *j->w);
  int ok = j->ring && j->w;
  int mu = ok && !pthread_mutex_init(&j->mu, NULL);
  int cmu = mu && !pthread_mutex_init(&j->cache_mu, NULL);
  int work = cmu && !pthread_cond_init(&j->work, NULL);
  if (!work || pthread_cond_init(&j->done, NULL)) {
    if (work) pthread_cond_destroy(&j->work);
    if (cmu) pthread_mutex_destroy(&j->cache_mu);
    if (mu) pthread_mutex_destroy(&j->mu);
    free(j->ring);
    free(j->w);
    free(j);
    return NULL;
  }
  /* jansson seeds its hash function on first use: done here, before any worker parses. */
  json_object_seed(0);
  c->cache_lock = &j->cache_mu;
  return j;
}

void cli_jobs_free(lint_jobs *j) {
  if (!j) return;
  pthread_mutex_lock(&j->mu);
  j->stop = 1;
  pthread_cond_broadcast(&j->work);
  pthread_mutex_unlock(&j->mu);
  for (unsigned i = 0; i < j->started; i++) pthread_join(j->w[i].tid, NULL);
  j->c->cache_lock = NULL;
  pthread_cond_destroy(&j->done);
  pthread_cond_destroy(&j->work);
  pthread_mutex_destroy(&j->cache_mu);
  pthread_mutex_destroy(&j->mu);
  kept_free(&j->pending);
  free(j->ring);
  free(j->w);
  free(j);
}

/* Print the oldest slot, once it is checked: what the main thread met before it, its own
 * problems, its findings; through the command's own problem hook (printing). */
static void show_head(lint_jobs *j) {
  slot *s = &j->ring[j->head % j->cap];
  pthread_mutex_lock(&j->mu);
  while (!s->done) pthread_cond_wait(&j->done, &j->mu);
  pthread_mutex_unlock(&j->mu);
  cli *c = j->c;
  c->on_problem = j->on_problem;
  c->problem_ctx = j->problem_ctx;
  replay(c, &s->pre);
  replay(c, &s->own);
  if (cli_lint_show(c, &s->job)) j->failed = 1;
  c->on_problem = keep_main;
  c->problem_ctx = j;
  free(s->path);
  memset(s, 0, sizeof *s);
  j->head++;
}

/* One more worker, when fewer than n run: 0, or -1 when none could be started. */
static int add_worker(lint_jobs *j) {
  if (j->started == j->n) return 0;
  worker *w = &j->w[j->started];
  w->j = j;
  w->c = *j->c;
  w->c.cache_owner = j->c;
  w->c.walking = 1; /* what dir.c sets around a found file: opened only if regular */
  w->c.on_problem = keep_worker;
  w->c.problem_ctx = w;
  if (pthread_create(&w->tid, NULL, work, w) == 0) {
    j->started++;
    return 0;
  }
  j->n = j->started; /* no more tries */
  return j->started ? 0 : -1;
}

/* Check a file on the main thread, in its place: everything before it printed first. */
static int check_here(lint_jobs *j, const char *path) {
  while (j->head != j->tail) show_head(j);
  cli *c = j->c;
  c->on_problem = j->on_problem;
  c->problem_ctx = j->problem_ctx;
  replay(c, &j->pending);
  int rc = cli_lint_found(c, path);
  c->on_problem = keep_main;
  c->problem_ctx = j;
  return rc;
}

/* The walk's callback: queue the file (after printing the oldest when the ring is full). */
static int found(cli *c, const char *path, void *ctx) {
  (void)c;
  lint_jobs *j = ctx;
  if (add_worker(j)) return check_here(j, path);
  if (j->tail - j->head == j->cap) show_head(j);
  slot *s = &j->ring[j->tail % j->cap];
  if (!(s->path = strdup(path))) return check_here(j, path);
  s->pre = j->pending;
  memset(&j->pending, 0, sizeof j->pending);
  pthread_mutex_lock(&j->mu);
  j->tail++;
  pthread_cond_signal(&j->work);
  pthread_mutex_unlock(&j->mu);
  return 0;
}

int cli_jobs_walk(lint_jobs *j, const char *dir, const char *const *excludes, size_t nexcludes) {
  cli *c = j->c;
  j->on_problem = c->on_problem;
  j->problem_ctx = c->problem_ctx;
  j->failed = 0;
  c->on_problem = keep_main;
  c->problem_ctx = j;
  int rc = cli_walk(c, dir, excludes, nexcludes, found, j);
  while (j->head != j->tail) show_head(j);
  c->on_problem = j->on_problem;
  c->problem_ctx = j->problem_ctx;
  replay(c, &j->pending);
  return rc || j->failed ? -1 : 0;
}

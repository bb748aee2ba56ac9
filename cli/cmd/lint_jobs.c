/* A walked directory's files checked by several threads (-j, --jobs N), printed as one thread
 * prints them. The main thread walks (input/'s cli_walk) and queues each file found in a ring of
 * 16N slots; up to N worker threads, started as files come, take the slots in order, read and
 * check each file (cli_lint_read) with a copy of the command's cli whose problems are kept in
 * the slot instead of printed, and format its findings into memory as the output would print
 * them (text, github; json's entry of "files"); the main thread prints the checked slots from
 * the oldest on (each one's problems, then its findings), in the walk's order, and reuses
 * them. So only the main thread writes on stdout and stderr, in the order the one-thread path
 * writes, and memory holds at most 16N files (and, past the oldest, no more than HELD_BYTES of
 * their text). What the main thread itself meets during the walk (a directory it cannot read,
 * a config it cannot load) is kept too, and printed before the file the walk found next. The
 * configs found upward are shared through the command's cache (c->cache_owner, under
 * c->cache_lock); the library's compiled configs are shared as they are (immutable); each
 * check has its own report. Called by lint_cmd.c; calls lint_print.c, input/ (cli_walk,
 * problems) and nothing that prints from a worker. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "cmd/cmd.h"
#ifdef BOXLINT_WASI
/* The WebAssembly build of the command (wasm/): WASI has no threads. -j N is accepted and a
 * directory's files are checked on the main thread, the path -j 1 takes, so the output is the
 * same. */
unsigned cli_default_jobs(void) { return 1; }
lint_jobs *cli_jobs_new(cli *c, unsigned n) {
  (void)c;
  (void)n;
  return NULL;
}
int cli_jobs_walk(lint_jobs *j, const char *dir, const char *const *excludes, size_t nexcludes) {
  (void)j;
  (void)dir;
  (void)excludes;
  (void)nexcludes;
  return -1; /* never called: lint_cmd.c walks on the main thread when cli_jobs_new gave NULL */
}
void cli_jobs_free(lint_jobs *j) { (void)j; }
#else
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
  struct worker *by;   /* the worker that checked it */
  int rendered;        /* its findings already formatted by the worker (text, github, json): */
  char *out;           /* the bytes to print (text, github) */
  size_t nout;
  json_t *json;        /* its entry of "files" (json) */
  int worst;           /* the exit code its findings make (cli_emit_unit's c->worst) */
  int done;            /* checked (under the lock) */
} slot;

/* A worker thread. What it allocated for a file is freed by it too, after the main thread
 * printed the file (its `trash`): memory freed on another thread goes to that thread's cache
 * and costs both threads the allocator's locks. */
typedef struct trash {
  cli_lint_job job;
  char *out;
} trash;

typedef struct worker {
  struct lint_jobs *j;
  cli c;               /* the command's cli, copied: problems kept in `cur`, configs shared */
  slot *cur;
  trash *trash, *spare; /* files printed, to free (filled under the lock); the other array */
  size_t ntrash;
  pthread_t tid;
} worker;

/* Format a checked file's findings on the worker, as the main thread would print them, into
 * memory: the bytes of text and github output, the "files" entry of json. SARIF numbers the
 * rules in the order of the whole log, so it is formatted by the main thread. Nothing is
 * formatted when memory runs out: the main thread formats it then. */
static void render(worker *w, slot *s) {
  cli *c = &w->c;
  if (s->job.rc || s->job.k.skipped) return;
  c->worst = EXIT_CLEAN;
  if (c->format == FMT_TEXT || c->format == FMT_GITHUB) {
    FILE *m = open_memstream(&s->out, &s->nout), *o = c->out;
    if (!m) return;
    c->out = m;
    flockfile(m); /* once, not at every character (see show_ready) */
    cli_emit_unit(c, &s->job.k.u);
    funlockfile(m);
    c->out = o;
    int bad = ferror(m);
    if (fclose(m) || bad) {
      free(s->out);
      s->out = NULL;
      return;
    }
  } else if (c->format == FMT_JSON) {
    if (!(c->json_files = json_array())) return;
    cli_emit_unit(c, &s->job.k.u);
    s->json = c->json_files;
    c->json_files = NULL;
  } else {
    return;
  }
  s->worst = c->worst;
  s->rendered = 1;
}

/* The bytes of text that the files checked and not yet printed may hold before a worker waits
 * (it still takes the oldest file): with the ring's size, what bounds memory. */
#define HELD_BYTES ((size_t)64 << 20)

/* The ring: slots [head, next) are taken by workers (being checked or done), [next, tail)
 * queued, the rest free. Its size is 16 slots per worker, so that the threads wake each other
 * once per several files, not once per file (a small file takes tens of microseconds, about
 * what waking a thread does): the main thread sleeps until half the ring is checked or every
 * file taken is, a sleeping worker is woken when a few files are queued. */
struct lint_jobs {
  cli *c;
  unsigned n, nw;                 /* workers at most; the size of `w` */
  pthread_mutex_t mu;             /* everything below but the ring's slots being worked on */
  pthread_cond_t work, done;      /* files to take; files checked (the main thread waits) */
  pthread_mutex_t cache_mu;       /* the command's config cache (c->cache_lock) */
  slot *ring;
  size_t cap;                     /* 16n slots */
  size_t head, next, tail;        /* the oldest not printed, the next to take, the next free */
  size_t ndone;                   /* slots done and not printed */
  size_t held;                    /* their bytes of text */
  unsigned idle;                  /* workers waiting for `work` */
  int main_waits;                 /* the main thread waits for `done` */
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

/* May a worker take the next queued file? (Under the lock.) The oldest always, so that the
 * main thread, which frees the bytes, is never kept waiting for it. */
static int can_take(const lint_jobs *j) {
  return j->next != j->tail && (j->held < HELD_BYTES || j->next == j->head);
}

/* Is there enough for the main thread to print? (Under the lock.) The oldest file is checked,
 * and half the ring is, or every file taken is (the workers then wait for more, or for bytes
 * to be freed). */
static int main_ready(const lint_jobs *j) {
  return j->head != j->tail && j->ring[j->head % j->cap].done &&
         (j->ndone >= j->cap / 2 || j->ndone == j->next - j->head);
}

/* A worker: take the next file, check it, mark it done; wake the main thread when it has
 * enough to print. Signals are sent after the lock is released, so that the woken thread does
 * not wake only to wait for the lock. */
static void *work(void *arg) {
  worker *w = arg;
  lint_jobs *j = w->j;
  int wake = 0; /* the main thread is to be woken */
  pthread_mutex_lock(&j->mu);
  for (;;) {
    while (!j->stop && !can_take(j)) {
      if (wake) pthread_cond_signal(&j->done); /* before sleeping: under the lock */
      wake = 0;
      j->idle++;
      pthread_cond_wait(&j->work, &j->mu);
      j->idle--;
    }
    if (!can_take(j)) break; /* stopped, nothing left */
    slot *s = &j->ring[j->next++ % j->cap];
    trash *old = w->trash; /* the main thread fills the other array meanwhile */
    size_t ntrash = w->ntrash;
    w->trash = w->spare;
    w->spare = old;
    w->ntrash = 0;
    pthread_mutex_unlock(&j->mu);
    if (wake) pthread_cond_signal(&j->done);
    wake = 0;
    for (size_t i = 0; i < ntrash; i++) {
      cli_lint_job_free(&old[i].job);
      free(old[i].out);
    }
    w->cur = s;
    s->by = w;
    cli_lint_read(&w->c, s->path, 1, &s->job);
    w->cur = NULL;
    render(w, s);
    pthread_mutex_lock(&j->mu);
    s->done = 1;
    j->ndone++;
    j->held += s->job.len;
    wake = j->main_waits && main_ready(j);
    if (wake) j->main_waits = 0; /* one signal is enough */
  }
  pthread_mutex_unlock(&j->mu);
  if (wake) pthread_cond_signal(&j->done);
  return NULL;
}

lint_jobs *cli_jobs_new(cli *c, unsigned n) {
  lint_jobs *j = calloc(1, sizeof *j);
  if (!j) return NULL;
  j->c = c;
  j->n = j->nw = n;
  j->cap = 16 * (size_t)n;
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
  for (unsigned i = 0; i < j->started; i++) {
    pthread_join(j->w[i].tid, NULL);
    for (size_t k = 0; k < j->w[i].ntrash; k++) {
      cli_lint_job_free(&j->w[i].trash[k].job);
      free(j->w[i].trash[k].out);
    }
  }
  for (unsigned i = 0; i < j->nw; i++) {
    free(j->w[i].trash);
    free(j->w[i].spare);
  }
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

/* Print one slot (checked): what the main thread met before it, its own problems, its
 * findings, through the command's own problem hook (printing); then free what the main thread
 * made (the file's job is its worker's to free). */
static void show(lint_jobs *j, slot *s) {
  cli *c = j->c;
  c->on_problem = j->on_problem;
  c->problem_ctx = j->problem_ctx;
  replay(c, &s->pre);
  replay(c, &s->own);
  if (s->rendered) {
    if (s->out) fwrite(s->out, 1, s->nout, c->out);
    if (s->json) json_array_extend(c->json_files, s->json);
    json_decref(s->json);
    s->json = NULL;
    if (s->worst > c->worst) c->worst = s->worst;
  }
  if (s->rendered ? s->job.rc : cli_lint_print(c, &s->job)) j->failed = 1;
  c->on_problem = keep_main;
  c->problem_ctx = j;
  free(s->path);
  s->path = NULL;
}

/* Wait until main_ready, then print the checked files from the oldest on, in order. The
 * workers are woken first if queued files wait for them. */
static void show_ready(lint_jobs *j) {
  pthread_mutex_lock(&j->mu);
  if (j->idle && can_take(j)) pthread_cond_broadcast(&j->work);
  while (!main_ready(j)) {
    j->main_waits = 1;
    pthread_cond_wait(&j->done, &j->mu);
  }
  j->main_waits = 0;
  size_t k = 0, bytes = 0; /* the checked slots from the oldest on: no worker touches them */
  while (j->head + k != j->next && j->ring[(j->head + k) % j->cap].done) k++;
  pthread_mutex_unlock(&j->mu);
  /* The main thread alone writes on both streams: one lock of each for the lot, not one per
   * character (stdio locks every call once a process has threads). */
  flockfile(j->c->out);
  flockfile(j->c->err);
  for (size_t i = 0; i < k; i++) {
    slot *s = &j->ring[(j->head + i) % j->cap];
    bytes += s->job.len;
    show(j, s);
  }
  funlockfile(j->c->err);
  funlockfile(j->c->out);
  pthread_mutex_lock(&j->mu);
  for (size_t i = 0; i < k; i++) { /* each file's job to the worker that made it */
    slot *s = &j->ring[(j->head + i) % j->cap];
    s->by->trash[s->by->ntrash++] = (trash){s->job, s->out};
    memset(s, 0, sizeof *s);
  }
  j->head += k;
  j->ndone -= k;
  j->held -= bytes;
  int wake = j->idle && can_take(j);
  pthread_mutex_unlock(&j->mu);
  if (wake) pthread_cond_broadcast(&j->work);
}

/* One more worker, when fewer than n run: 0, or -1 when none could be started. */
static int add_worker(lint_jobs *j) {
  if (j->started == j->n) return 0;
  worker *w = &j->w[j->started];
  if (!w->trash) w->trash = malloc(j->cap * sizeof *w->trash);
  if (!w->spare) w->spare = malloc(j->cap * sizeof *w->spare);
  if (!w->trash || !w->spare) {
    j->n = j->started; /* no more tries */
    return j->started ? 0 : -1;
  }
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
  while (j->head != j->tail) show_ready(j);
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
  if (j->tail - j->head == j->cap) show_ready(j);
  slot *s = &j->ring[j->tail % j->cap];
  if (!(s->path = strdup(path))) return check_here(j, path);
  s->pre = j->pending;
  memset(&j->pending, 0, sizeof j->pending);
  pthread_mutex_lock(&j->mu);
  j->tail++;
  /* a sleeping worker is woken for a few files at a time (and by show_ready) */
  int wake = j->idle && j->tail - j->next >= j->cap / (4 * (size_t)j->started) && can_take(j);
  pthread_mutex_unlock(&j->mu);
  if (wake) pthread_cond_signal(&j->work);
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
  while (j->head != j->tail) show_ready(j);
  c->on_problem = j->on_problem;
  c->problem_ctx = j->problem_ctx;
  replay(c, &j->pending);
  return rc || j->failed ? -1 : 0;
}
#endif /* BOXLINT_WASI */

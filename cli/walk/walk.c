/* Walking a directory: depth first, the entries of each directory in bytewise
 * order, calling back for every regular file the caller's filter wants (boxlint's: input/dir.c,
 * the kind of a file by its name and the config's "fragments" globs). Owns what a walk skips:
 * hidden directories, node_modules, __pycache__, virtual environments (pyvenv.cfg, conda-meta,
 * site-packages), symbolic links (to a file or a directory: a walk never leaves the tree) and
 * what is not a regular file, what --exclude names, and what git ignores in the git work tree
 * the directory is in (and in work trees found inside it; outside one a .gitignore means
 * nothing). Every directory is opened once, without following a link and without blocking, before
 * anything in it is read (an unreadable directory is one error). Walk errors are
 * handed to the caller's `error` hook and the walk goes on. Knows nothing of boxlint's files or of
 * the command: libc and gitignore.c (the patterns) only. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "walk/walk.h"

/* A path that grows and shrinks as the walk goes down and up. */
typedef struct pbuf {
  char *s;
  size_t len, cap;
} pbuf;

/* Append '/' (unless the path is empty or ends with one) and `name`. Returns 0, or -1. */
static int pb_add(pbuf *b, const char *name) {
  size_t n = strlen(name), sep = b->len && b->s[b->len - 1] != '/';
  if (b->len + sep + n + 1 > b->cap) {
    size_t cap = (b->len + sep + n + 1) * 2;
    char *s = realloc(b->s, cap);
    if (!s) return -1;
    b->s = s;
    b->cap = cap;
  }
  if (sep) b->s[b->len++] = '/';
  memcpy(b->s + b->len, name, n + 1);
  b->len += n;
  return 0;
}

static void pb_cut(pbuf *b, size_t len) {
  b->len = len;
  if (b->s) b->s[len] = 0;
}

/* An --exclude glob, read once: with a '/' it matches a path, else a name. */
typedef struct glob {
  char *p;
  size_t len;
  int slash, dir_only;
} glob;

typedef struct walk {
  const wk_hooks *h;
  glob *excl;
  size_t nexcl;
  pbuf abs;        /* the real path of the walked directory, then the path inside it */
  pbuf disp;       /* the same, spelled from the directory as given: what is reported */
  size_t rel_off;  /* where in `abs` the path inside the walked directory starts */
  gi_stack gi;
  int in_repo; /* inside a git work tree: its .gitignore files count */
  int failed;
} walk;

static void walk_say(walk *w, const char *path, const char *why) {
  if (w->h->error) w->h->error(w->h->ctx, path, why);
  w->failed = 1;
}

static void walk_error(walk *w, const char *path, int err) { walk_say(w, path, strerror(err)); }

/* `s` as a glob: a leading "./" or "/" dropped (it is relative anyway), a trailing '/' meaning
 * directories only. The text is copied. Returns 0, or -1 out of memory. */
static int glob_init(glob *g, const char *s) {
  while (s[0] == '.' && s[1] == '/') s += 2;
  while (s[0] == '/') s++;
  size_t n = strlen(s);
  g->dir_only = 0;
  while (n && s[n - 1] == '/') n--, g->dir_only = 1;
  g->len = n;
  g->slash = memchr(s, '/', n) != NULL;
  if (!(g->p = malloc(n + 1))) return -1;
  memcpy(g->p, s, n);
  g->p[n] = 0;
  return 0;
}

/* Does one of the globs match the entry `name`, at `path` (NULL: the globs with a '/' match
 * nothing here)? */
static int glob_hit(const glob *g, size_t n, const char *name, const char *path, int is_dir) {
  for (size_t i = 0; i < n; i++) {
    if (g[i].dir_only && !is_dir) continue;
    if (g[i].slash ? path && gi_wildmatch(g[i].p, g[i].len, path, strlen(path), GI_PATHNAME)
                   : gi_wildmatch(g[i].p, g[i].len, name, strlen(name), GI_PATHNAME))
      return 1;
  }
  return 0;
}

/* Is the file `name` (at w->abs) one the caller wants? */
static int wanted(const walk *w, const char *name) {
  return !w->h->want || w->h->want(w->h->ctx, name, w->abs.s);
}

/* Does directory `dir` hold `name`: a directory ('d'), a regular file ('f'), either ('e')? */
static int holds(pbuf *dir, const char *name, char kind) {
  size_t len = dir->len;
  struct stat st;
  int r = pb_add(dir, name) == 0 && stat(dir->s, &st) == 0 &&
          (kind == 'd'   ? S_ISDIR(st.st_mode)
           : kind == 'f' ? S_ISREG(st.st_mode)
                         : S_ISDIR(st.st_mode) || S_ISREG(st.st_mode));
  pb_cut(dir, len);
  return r;
}

/* Push the ignore frame of directory `dir` (its .gitignore; a repository's root: also its
 * info/exclude), whose paths start at byte `base` of w->abs. Returns 0, or -1 (nothing
 * pushed, why printed). A file that cannot be read is reported and the walk goes on. */
static int push_frame(walk *w, const char *dir, size_t base, int root) {
  pbuf p = {NULL, 0, 0};
  char *gtext = NULL, *etext = NULL, *epath = NULL;
  size_t glen = 0, elen = 0;
  int oom = pb_add(&p, dir) || pb_add(&p, ".gitignore");
  int err = oom ? 0 : gi_read(p.s, 1, &gtext, &glen);
  if (err && err != ENOMEM) walk_error(w, p.s, err);
  oom |= err == ENOMEM;
  if (!oom && root) {
    err = gi_exclude_path(dir, &epath);
    if (!err && epath) err = gi_read(epath, 0, &etext, &elen);
    if (err && err != ENOMEM) walk_error(w, epath, err);
    oom |= err == ENOMEM;
  }
  int rc = 0;
  if (oom || gi_stack_push(&w->gi, gtext, glen, etext, elen, base, root)) {
    walk_say(w, dir, "out of memory");
    rc = -1;
  }
  free(p.s);
  free(gtext);
  free(etext);
  free(epath);
  return rc;
}

static void walk_dir(walk *w, int fd);

/* Open the directory at w->disp for reading its names: never through a symbolic link (unless it
 * is the directory named, `follow`), never blocking. Returns the descriptor, or -1 (printed). */
static int open_dir(walk *w, int follow) {
  int fd = open(w->disp.s, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC |
                                 (follow ? 0 : O_NOFOLLOW));
  if (fd < 0) walk_error(w, w->disp.s, errno);
  return fd;
}

/* A directory met in the walk (at w->abs, w->disp): skipped, or walked with its own frame. */
/* A directory a walk does not enter, by its name alone. */
static int skipped_name(const char *name) {
  return name[0] == '.' || !strcmp(name, "node_modules") || !strcmp(name, "__pycache__") ||
         !strcmp(name, "site-packages");
}

/* Does the walk pass over directory `name` (at w->abs, `disp` the same spelled to open it)? */
static int skipped_dir(walk *w, const char *name, pbuf *disp) {
  return skipped_name(name) || glob_hit(w->excl, w->nexcl, name, w->abs.s + w->rel_off, 1) ||
         gi_stack_ignored(&w->gi, w->abs.s, w->abs.len, 1) || holds(disp, "pyvenv.cfg", 'f') ||
         holds(disp, "conda-meta", 'd');
}

static void visit_dir(walk *w, const char *name) {
  if (skipped_dir(w, name, &w->disp)) return;
  int fd = open_dir(w, 0); /* first: an unreadable directory is one error, nothing read in it */
  if (fd < 0) return;
  int root = holds(&w->disp, ".git", 'e'), in_repo = w->in_repo; /* a work tree inside */
  int framed = in_repo || root;
  if (framed && push_frame(w, w->disp.s, w->abs.len + 1, root)) {
    close(fd);
    return;
  }
  w->in_repo = framed;
  walk_dir(w, fd);
  w->in_repo = in_repo;
  if (framed) gi_stack_pop(&w->gi);
}

/* A file met in the walk (at w->abs, w->disp; `name` its last part): handed to the caller's
 * `each` when wanted (which opens it not through a link, only if regular: it may have changed). */
static void visit_file(walk *w, const char *name) {
  if (!wanted(w, name) || glob_hit(w->excl, w->nexcl, name, w->abs.s + w->rel_off, 0) ||
      gi_stack_ignored(&w->gi, w->abs.s, w->abs.len, 0))
    return;
  if (w->h->each && w->h->each(w->h->ctx, w->disp.s)) w->failed = 1;
}

/* An entry of the directory being walked. A symbolic link is not followed (to a file or a
 * directory: the walk stays in the tree, and has no loops); a FIFO, socket or device is not
 * opened. */
static void visit(walk *w, const char *name) {
  size_t alen = w->abs.len, dlen = w->disp.len;
  struct stat st;
  if (pb_add(&w->abs, name) || pb_add(&w->disp, name)) {
    walk_error(w, w->disp.s, ENOMEM);
  } else if (lstat(w->disp.s, &st) != 0) {
    walk_error(w, w->disp.s, errno);
  } else if (S_ISDIR(st.st_mode)) {
    visit_dir(w, name);
  } else if (S_ISREG(st.st_mode)) {
    visit_file(w, name);
  }
  pb_cut(&w->abs, alen);
  pb_cut(&w->disp, dlen);
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in directory w->disp (open as `fd`, which is closed), sorted bytewise, into *out
 * (NULL-terminated, malloc'd). Returns 0, or -1 (why printed; *out NULL). */
static int read_names(walk *w, int fd, char ***out) {
  *out = NULL;
  DIR *d = fdopendir(fd);
  if (!d) {
    walk_error(w, w->disp.s, errno);
    close(fd);
    return -1;
  }
  char **v = NULL;
  size_t n = 0, cap = 0;
  int err = 0;
  for (;;) {
    errno = 0;
    struct dirent *e = readdir(d);
    if (!e) {
      err = errno;
      break;
    }
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    if (n + 1 >= cap) {
      char **nv = realloc(v, (cap = cap ? cap * 2 : 32) * sizeof *v);
      if (!nv) {
        err = ENOMEM;
        break;
      }
      v = nv;
    }
    if (!(v[n] = strdup(e->d_name))) {
      err = ENOMEM;
      break;
    }
    n++;
  }
  closedir(d);
  if (v) v[n] = NULL;
  if (err) {
    walk_error(w, w->disp.s, err);
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
    return -1;
  }
  if (n) qsort(v, n, sizeof *v, by_name);
  *out = v;
  return 0;
}

static void walk_dir(walk *w, int fd) {
  char **names;
  if (read_names(w, fd, &names) || !names) return;
  for (size_t i = 0; names[i]; i++) visit(w, names[i]);
  for (size_t i = 0; names[i]; i++) free(names[i]);
  free(names);
}

/* `n` bytes of `s` as the whole path. Returns 0, or -1. */
static int pb_setn(pbuf *b, const char *s, size_t n) {
  pb_cut(b, 0);
  if (pb_add(b, "")) return -1;
  if (n + 1 > b->cap) {
    char *ns = realloc(b->s, n + 1);
    if (!ns) return -1;
    b->s = ns;
    b->cap = n + 1;
  }
  memcpy(b->s, s, n);
  pb_cut(b, n);
  return 0;
}

/* The length of the work tree's path when the real directory `abs` is in a git repository (a
 * prefix of `abs`; 1 for "/"), else SIZE_MAX. */
static size_t find_repo(const char *abs) {
  size_t n = strlen(abs), r = SIZE_MAX;
  pbuf d = {NULL, 0, 0};
  while (pb_setn(&d, abs, n) == 0) {
    if (holds(&d, ".git", 'e')) {
      r = n;
      break;
    }
    if (n <= 1) break;
    while (n > 0 && abs[n - 1] != '/') n--;
    if (n > 1) n--; /* the parent, without its trailing '/' unless it is "/" */
  }
  free(d.s);
  return r;
}

/* The frames of the repository's .gitignore files from its root `abs`[0, root) down to the
 * walked directory `abs`, then the walked directory's path in w->abs. Returns 0, or -1. */
static int start_frames(walk *w, char *abs, size_t root) {
  size_t n = strlen(abs);
  for (size_t k = root;;) {
    char c = abs[k];
    abs[k] = 0;
    int rc = push_frame(w, abs, k + (abs[k - 1] != '/'), k == root);
    abs[k] = c;
    if (rc) return -1;
    if (k == n) return 0;
    const char *next = strchr(abs + k + 1, '/');
    k = next ? (size_t)(next - abs) : n;
  }
}

static void walk_free(walk *w) {
  for (size_t i = 0; i < w->nexcl; i++) free(w->excl[i].p);
  free(w->excl);
  free(w->abs.s);
  free(w->disp.s);
  gi_stack_free(&w->gi);
}

int wk_walk(const char *dir, const char *const *excludes, size_t nexcludes, const wk_hooks *h) {
  walk w;
  memset(&w, 0, sizeof w);
  w.h = h;
  char *abs = realpath(dir, NULL);
  if (!abs) {
    walk_error(&w, dir, errno);
    return -1;
  }
  int rc = -1;
  if (pb_setn(&w.abs, abs, strlen(abs)) || pb_setn(&w.disp, dir, strlen(dir)) ||
      (nexcludes && !(w.excl = calloc(nexcludes, sizeof *w.excl)))) {
    walk_say(&w, NULL, "out of memory");
    goto out;
  }
  for (; w.nexcl < nexcludes; w.nexcl++) {
    if (glob_init(&w.excl[w.nexcl], excludes[w.nexcl])) {
      walk_say(&w, NULL, "out of memory");
      goto out;
    }
  }
  w.rel_off = w.abs.len + (w.abs.s[w.abs.len - 1] != '/');
  size_t root = find_repo(abs);
  w.in_repo = root != SIZE_MAX;
  int fd = open_dir(&w, 1);
  if (fd < 0) goto out;
  if ((h->start && h->start(h->ctx, w.abs.s)) || (w.in_repo && start_frames(&w, abs, root))) {
    close(fd);
    goto out;
  }
  walk_dir(&w, fd);
  rc = w.failed ? -1 : 0;
out:
  walk_free(&w);
  free(abs);
  return rc;
}

/* The directory below which a named file's directories count as a walk's: the working
 * directory when `rdir` is in it, else the git work tree holding it, else `rdir` itself. The
 * length of its prefix of `rdir`. */
static size_t named_base(const char *rdir) {
  char cwd[PATH_MAX];
  size_t n = strlen(rdir);
  if (getcwd(cwd, sizeof cwd)) {
    size_t k = strlen(cwd);
    if (!strncmp(rdir, cwd, k) && (rdir[k] == 0 || rdir[k] == '/' || k == 1)) return k;
  }
  size_t root = find_repo(rdir);
  return root != SIZE_MAX ? root : n;
}

/* The directories of w->abs (a real path) below byte `base` (the directory a walk would start
 * from, which a walk enters whatever it is) and the file `name`, as a walk meets them, with the
 * frames of the git work tree whose root ends at byte `root` (SIZE_MAX: none): 1 when one is
 * passed over (a skipped directory, a virtual environment, an --exclude glob, what git
 * ignores), else 0. */
static int named_skipped(walk *w, size_t base, size_t root, const char *name) {
  char *abs = w->abs.s;
  size_t n = w->abs.len;
  pbuf d = {NULL, 0, 0};
  int skip = 0;
  for (size_t k = root < base ? root : base;;) { /* k: the end of a directory's path */
    char ch = abs[k];
    abs[k] = 0;
    const char *last = abs + k;
    while (last > abs && last[-1] != '/') last--;
    if (k > base)
      skip = pb_setn(&d, abs, k) == 0 &&
             (skipped_name(last) || glob_hit(w->excl, w->nexcl, last, abs + w->rel_off, 1) ||
              holds(&d, "pyvenv.cfg", 'f') || holds(&d, "conda-meta", 'd'));
    if (!skip && root != SIZE_MAX && k > root && k > base)
      skip = gi_stack_ignored(&w->gi, abs, k, 1);
    int oom = !skip && root != SIZE_MAX && k >= root &&
              push_frame(w, abs, k + (abs[k - 1] != '/'), k == root);
    abs[k] = ch;
    if (skip || oom || k >= n) break;
    const char *next = strchr(abs + k + 1, '/');
    k = next ? (size_t)(next - abs) : n;
  }
  free(d.s);
  if (skip || pb_add(&w->abs, name)) return skip;
  return glob_hit(w->excl, w->nexcl, name, w->abs.s + w->rel_off, 0) ||
         (root != SIZE_MAX && gi_stack_ignored(&w->gi, w->abs.s, w->abs.len, 0));
}

int wk_skips(const char *path, const char *const *excludes, size_t nexcludes, const wk_hooks *h) {
  const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
  if (!dir[0]) strcpy(dir, "/");
  char *rdir = realpath(dir, NULL);
  if (!rdir || !*name) {
    free(rdir);
    return 0; /* nothing a walk could meet: not passed over here */
  }
  walk w;
  memset(&w, 0, sizeof w);
  w.h = h;
  int skip = 0;
  if (pb_setn(&w.abs, rdir, strlen(rdir)) ||
      (nexcludes && !(w.excl = calloc(nexcludes, sizeof *w.excl))))
    goto out;
  for (; w.nexcl < nexcludes; w.nexcl++)
    if (glob_init(&w.excl[w.nexcl], excludes[w.nexcl])) goto out;
  size_t base = named_base(rdir), root = find_repo(rdir);
  w.rel_off = base == 1 ? 1 : base + 1; /* base 1: "/" */
  skip = named_skipped(&w, base, root, name);
out:
  walk_free(&w);
  free(rdir);
  return skip;
}

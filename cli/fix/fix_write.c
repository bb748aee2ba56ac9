/* `boxlint --fix`'s file on disk (what it writes and refuses: docs/command.md "Fixes"): opened
 * once when read, and replaced when written only if the user could have written it in place.
 * Reading: the path as given on the command line may be a symbolic link (its target is the
 * file fixed); a path found by a walk never is
 * (O_NOFOLLOW); only a regular file is read (fstat on the open descriptor; O_NONBLOCK, so that
 * a FIFO never blocks). Writing refuses, with the file left as it was: a file with several hard
 * links (replacing it would split them), a read-only file, one the user may not write, one whose
 * owner, group, mode or extended attributes (POSIX ACLs are `system.posix_acl_*` attributes)
 * the new file cannot keep, and one that changed since it was read (device, inode, size, mtime
 * and ctime to the nanosecond, and the bytes, compared just before the rename). Otherwise: a
 * temporary file `.boxlint-fix-XXXXXX` beside it (through a descriptor of the directory, so that
 * the directory cannot be swapped under it), with its owner, group, extended attributes and mode,
 * fsync, a write lease on the file, the last check, an exchange with it (RENAME_EXCHANGE), the
 * replaced file checked again under the temporary name (and exchanged back if it changed), fsync
 * of the directory. SIGTERM, SIGINT and SIGHUP during that window
 * remove the temporary file, then end the program as the signal would have. Owns those checks
 * and their messages. Called by fix_run.c; calls libc only. */
#define _GNU_SOURCE /* AT_EACCESS, O_NOFOLLOW, the xattr calls */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h> /* renameat2, RENAME_EXCHANGE (glibc 2.28) */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifndef BOXLINT_WASI
#include <sys/xattr.h>
#endif
#include <time.h>
#include <unistd.h>
#include "fix/fix.h"

/* BOXLINT_WASI: the WebAssembly build of the command (wasm/CMakeLists.txt) reads files as here
 * but writes none: WASI has no signals to guard the temporary file with, and no owners, modes,
 * hard-link counts or extended attributes to check and keep, so cli_fix_write refuses (below). */
#ifndef BOXLINT_WASI
/*==============================================================================================
 * MARK: the temporary file and the signals that must not leave it behind
 *============================================================================================*/

/* The temporary file of the write under way, for the signal handler: set and cleared only with
 * the signals blocked. A CLI-only global (the library has none): one write at a time. */
static volatile sig_atomic_t tmp_active;
static int tmp_dfd = -1;
static char tmp_name[32];
static const int fix_signals[] = {SIGTERM, SIGINT, SIGHUP};
enum { NSIG_FIX = (int)(sizeof fix_signals / sizeof fix_signals[0]) };

/* Async-signal-safe: unlinkat, and the default action through raise (SA_RESETHAND put it back,
 * SA_NODEFER lets it arrive at once). */
static void on_fix_signal(int sig) {
  int saved = errno;
  if (tmp_active) (void)unlinkat(tmp_dfd, tmp_name, 0);
  raise(sig);
  errno = saved;
}

typedef struct sig_window {
  struct sigaction old[NSIG_FIX];
  sigset_t set;
} sig_window;

static void window_open(sig_window *w) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_fix_signal;
  sa.sa_flags = (int)(SA_RESETHAND | SA_NODEFER);
  sigemptyset(&sa.sa_mask);
  sigemptyset(&w->set);
  for (int k = 0; k < NSIG_FIX; k++) {
    sigaddset(&w->set, fix_signals[k]);
    sigaction(fix_signals[k], NULL, &w->old[k]);
    /* a signal the caller ignores (nohup) stays ignored */
    if (w->old[k].sa_handler != SIG_IGN) sigaction(fix_signals[k], &sa, NULL);
  }
}

static void window_close(sig_window *w) {
  for (int k = 0; k < NSIG_FIX; k++) sigaction(fix_signals[k], &w->old[k], NULL);
}

/* Create the temporary file in `dfd` with signals blocked, so that a signal either comes before
 * it exists or finds it recorded. Returns its descriptor, or -1 with errno set. */
static int tmp_create(sig_window *w, int dfd) {
  static unsigned counter;
  static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  sigset_t old;
  sigprocmask(SIG_BLOCK, &w->set, &old);
  int fd = -1;
  for (int tries = 0; tries < 100 && fd < 0; tries++) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t v = (uint64_t)ts.tv_nsec * 2654435761u ^ (uint64_t)getpid() << 20 ^ ++counter;
    char name[] = ".boxlint-fix-XXXXXX";
    for (size_t k = sizeof name - 7; k < sizeof name - 1; k++, v /= 62) name[k] = abc[v % 62];
    fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) {
      memcpy(tmp_name, name, sizeof name);
      tmp_dfd = dfd;
      tmp_active = 1;
    } else if (errno != EEXIST) {
      break;
    }
  }
  int err = errno;
  sigprocmask(SIG_SETMASK, &old, NULL);
  errno = err;
  return fd;
}

/* Rename the temporary file over `name` (keep != 0), or remove it; with signals blocked. */
static int tmp_finish(sig_window *w, int dfd, const char *name, int keep) {
  sigset_t old;
  sigprocmask(SIG_BLOCK, &w->set, &old);
  int rc = keep ? renameat(dfd, tmp_name, dfd, name) : 0;
  int err = errno;
  if (!keep || rc) (void)unlinkat(dfd, tmp_name, 0);
  tmp_active = 0;
  sigprocmask(SIG_SETMASK, &old, NULL);
  errno = err;
  return rc;
}

/* Swap the temporary file and `name` (renameat2's RENAME_EXCHANGE), so that the file that was at
 * `name` is still there to look at, under the temporary name, after the new one is in place.
 * Returns 0; -1 with errno set (ENOSYS, EINVAL: the kernel or the file system has no exchange). */
static int tmp_exchange(sig_window *w, int dfd, const char *name) {
  sigset_t old;
  sigprocmask(SIG_BLOCK, &w->set, &old);
#ifdef RENAME_EXCHANGE
  int rc = renameat2(dfd, tmp_name, dfd, name, RENAME_EXCHANGE);
#else
  int rc = -1;
  errno = ENOSYS;
#endif
  int err = errno;
  sigprocmask(SIG_SETMASK, &old, NULL);
  errno = err;
  return rc;
}

/* Test hooks (tests/cli/fix_safety_test.py, fix_race_test.py): BOXLINT_TEST_PAUSE_BEFORE_RENAME
 * sleeps inside the write window, after the temporary file is complete and before the last check,
 * and BOXLINT_TEST_PAUSE_AFTER_CHECK after the last check and before the rename, so that a test
 * can change the file or send a signal at a known point (SECONDS, a fraction allowed). The
 * command's only; the library reads no environment. */
static void test_pause(const char *var) {
  const char *s = getenv(var);
  double secs = s ? strtod(s, NULL) : 0;
  if (!(secs > 0)) return;
  if (secs > 3600) secs = 3600;
  struct timespec ts = {(time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9)};
  while (nanosleep(&ts, &ts) && errno == EINTR) {
  }
}

#endif /* BOXLINT_WASI */

/* `boxlint: PATH: ...` on standard error, the path escaped as the text output escapes it (a
 * name holding a newline or an escape sequence forges no line). */
__attribute__((format(printf, 3, 4))) static void say(cli *c, const char *path, const char *fmt,
                                                      ...) {
  char vb[CLI_VISIBLE_MAX];
  va_list ap;
  va_start(ap, fmt);
  fprintf(c->err, "boxlint: %s: ", cli_visible(path, vb, sizeof vb));
  vfprintf(c->err, fmt, ap);
  va_end(ap);
}

/*==============================================================================================
 * MARK: opening and reading
 *============================================================================================*/

/* Split `p` into its directory, opened, and its last name (malloc'd). Returns 0, or -1. */
static int open_dir(const char *p, int *dfd, char **name) {
  const char *slash = strrchr(p, '/');
  char *dir = NULL;
  if (slash) {
    size_t dl = slash == p ? 1 : (size_t)(slash - p);
    if (!(dir = malloc(dl + 1))) return -1;
    memcpy(dir, p, dl);
    dir[dl] = 0;
  }
  *name = strdup(slash ? slash + 1 : p);
  *dfd = *name ? open(dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
  int err = *name ? errno : ENOMEM;
  free(dir);
  if (*dfd < 0) {
    free(*name);
    *name = NULL;
    errno = err;
    return -1;
  }
  return 0;
}

/* Read the open regular file whole (at most CLI_MAX_INPUT_BYTES). Returns 0, or -1 with errno
 * set (EFBIG: over the limit). */
static int read_all(int fd, size_t hint, char **buf, size_t *len) {
  size_t cap = hint + 1, n = 0;
  char *b = malloc(cap);
  if (!b) return errno = ENOMEM, -1;
  for (;;) {
    if (n == cap) {
      char *nb = cap > CLI_MAX_INPUT_BYTES ? NULL : realloc(b, cap * 2);
      if (!nb) {
        free(b);
        return errno = cap > CLI_MAX_INPUT_BYTES ? EFBIG : ENOMEM, -1;
      }
      b = nb;
      cap *= 2;
    }
    ssize_t r = read(fd, b + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      int err = errno;
      free(b);
      return errno = err, -1;
    }
    if (r == 0) break;
    n += (size_t)r;
  }
  *buf = b;
  *len = n;
  return 0;
}

/* Open the file (see the top) into `f`. Returns NULL, or what is wrong with errno set (0: the
 * reason needs none). */
static const char *fix_open_file(const char *path, int found, cli_fix_file *f) {
  char *real = found ? NULL : realpath(path, NULL); /* a link named by the user: its target */
  if (!found && !real) return "";
  int rc = open_dir(found ? path : real, &f->dfd, &f->name);
  free(real);
  if (rc) return "";
  f->fd = openat(f->dfd, f->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (f->fd < 0 && errno == ELOOP && found)
    return errno = 0, "it is a symbolic link found in a directory, which --fix never follows";
  if (f->fd < 0) return "";
  if (fstat(f->fd, &f->st)) return "";
  if (!S_ISREG(f->st.st_mode)) return errno = 0, "it is not a regular file";
  return NULL;
}

int cli_fix_open(cli *c, const char *path, int found, cli_fix_file *f, char **buf,
                 size_t *len) {
  memset(f, 0, sizeof *f);
  f->fd = f->dfd = -1;
  *buf = NULL;
  *len = 0;
  const char *what = fix_open_file(path, found, f);
  if (!what && (unsigned long long)f->st.st_size > CLI_MAX_INPUT_BYTES) {
    say(c, path, "file is %lld bytes, more than the %u-byte limit; not read\n",
        (long long)f->st.st_size, CLI_MAX_INPUT_BYTES);
    cli_fix_close(f);
    return -1;
  }
  if (!what && read_all(f->fd, (size_t)f->st.st_size, buf, len)) what = "";
  if (!what) return 0;
  int err = errno;
  if (*what && err) say(c, path, "not fixed: %s: %s\n", what, strerror(err));
  else if (*what) say(c, path, "not fixed: %s\n", what);
  else if (err == EFBIG)
    say(c, path, "input larger than the %u-byte limit; not read\n",
            CLI_MAX_INPUT_BYTES);
  else say(c, path, "%s\n", strerror(err));
  cli_fix_close(f);
  return -1;
}

void cli_fix_close(cli_fix_file *f) {
  if (f->fd >= 0) close(f->fd);
  if (f->dfd >= 0) close(f->dfd);
  free(f->name);
  f->fd = f->dfd = -1;
  f->name = NULL;
}

#ifdef BOXLINT_WASI
int cli_fix_write(cli *c, const char *path, cli_fix_file *f, const char *orig, size_t olen,
                  const char *text, size_t len) {
  (void)f, (void)orig, (void)olen, (void)text, (void)len;
  say(c, path, "not fixed: the WebAssembly build of boxlint writes no files "
                  "(WASI has no owners, modes or signals to keep them safe); use --diff, or the "
                  "native command; the file is unchanged\n");
  return -1;
}
#else
/*==============================================================================================
 * MARK: what the new file must keep
 *============================================================================================*/

/* Why a file could not be written in place by this user, before anything is created: NULL, or
 * the reason in `why` (errno in *err, or 0). */
static const char *before_write(const cli_fix_file *f, char *why, size_t n, int *err) {
  *err = 0;
  if (f->st.st_nlink > 1) {
    snprintf(why, n,
             "it has %ju hard links, and replacing it would split them (the other names would "
             "keep the old text)",
             (uintmax_t)f->st.st_nlink);
    return why;
  }
  if (!(f->st.st_mode & 0222)) {
    snprintf(why, n, "it is read-only (mode %04o)", (unsigned)(f->st.st_mode & 07777));
    return why;
  }
  if (faccessat(f->dfd, f->name, W_OK, AT_EACCESS)) {
    *err = errno;
    return "you may not write it";
  }
  return NULL;
}

/* A list of extended attribute names from flistxattr (malloc'd; NULL with *n 0 when none). */
static int xattr_names(int fd, char **list, size_t *n) {
  *list = NULL;
  *n = 0;
  for (int tries = 0; tries < 5; tries++) {
    ssize_t want = flistxattr(fd, NULL, 0);
    if (want < 0) return errno == ENOTSUP ? 0 : -1;
    if (want == 0) return 0;
    char *b = malloc((size_t)want);
    if (!b) return errno = ENOMEM, -1;
    ssize_t got = flistxattr(fd, b, (size_t)want);
    if (got >= 0) return *list = b, *n = (size_t)got, 0;
    free(b);
    if (errno != ERANGE) return -1;
  }
  return errno = ERANGE, -1;
}

/* The value of attribute `name` of `fd` (malloc'd, at least 1 byte). Returns its length, or -1. */
static ssize_t xattr_get(int fd, const char *name, char **val) {
  *val = NULL;
  for (int tries = 0; tries < 5; tries++) {
    ssize_t want = fgetxattr(fd, name, NULL, 0);
    if (want < 0) return -1;
    char *b = malloc((size_t)want + 1);
    if (!b) return errno = ENOMEM, -1;
    ssize_t got = fgetxattr(fd, name, b, (size_t)want);
    if (got >= 0) return *val = b, got;
    free(b);
    if (errno != ERANGE) return -1;
  }
  return errno = ERANGE, -1;
}

static int in_list(const char *list, size_t n, const char *name) {
  for (size_t k = 0; k < n; k += strlen(list + k) + 1)
    if (!strcmp(list + k, name)) return 1;
  return 0;
}

/* Give `tfd` every extended attribute of `fd` (an ACL is one), and none it has beyond them
 * (a default ACL of the directory). An attribute that cannot be set is kept only if the new file
 * already has it with the same value. Returns 0, or -1 with *bad the attribute (static buffer). */
static int copy_xattrs(int fd, int tfd, const char **bad) {
  static char badname[256];
  char *names, *tnames;
  size_t n, tn;
  *bad = "(the list)";
  if (xattr_names(fd, &names, &n)) return -1;
  if (xattr_names(tfd, &tnames, &tn)) return free(names), -1;
  int rc = 0;
  for (size_t k = 0; k < tn && !rc; k += strlen(tnames + k) + 1)
    if (!in_list(names, n, tnames + k) && fremovexattr(tfd, tnames + k) && errno != ENODATA)
      rc = -1, *bad = tnames + k;
  for (size_t k = 0; k < n && !rc; k += strlen(names + k) + 1) {
    char *v, *tv;
    ssize_t vl = xattr_get(fd, names + k, &v), tl;
    if (vl < 0) {
      rc = -1;
    } else if (fsetxattr(tfd, names + k, v, (size_t)vl, 0)) {
      int err = errno;
      tl = xattr_get(tfd, names + k, &tv);
      if (tl != vl || memcmp(v, tv, (size_t)vl)) rc = -1;
      free(tv);
      errno = err;
    }
    free(v);
    if (rc) *bad = names + k;
  }
  if (rc && *bad != badname) snprintf(badname, sizeof badname, "%s", *bad), *bad = badname;
  int err = errno;
  free(names);
  free(tnames);
  errno = err;
  return rc;
}

/* Fill the temporary file: the text, owner and group (never another's than the original's),
 * extended attributes, mode, fsync. Returns NULL, or the reason with *err. */
static const char *fill_tmp(const cli_fix_file *f, int tfd, const char *text, size_t len,
                            char *why, size_t wn, int *err) {
  static const char *const write_err = "cannot write a temporary file in its directory";
  for (size_t done = 0; done < len;) {
    ssize_t w = write(tfd, text + done, len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return *err = w < 0 ? errno : ENOSPC, write_err;
    done += (size_t)w;
  }
  struct stat ts;
  if (fstat(tfd, &ts)) return *err = errno, write_err;
  if ((ts.st_uid != f->st.st_uid || ts.st_gid != f->st.st_gid) &&
      fchown(tfd, f->st.st_uid, f->st.st_gid)) {
    *err = errno;
    snprintf(why, wn, "it belongs to user %ju, group %ju, which a file boxlint writes cannot keep",
             (uintmax_t)f->st.st_uid, (uintmax_t)f->st.st_gid);
    return why;
  }
  const char *bad;
  if (copy_xattrs(f->fd, tfd, &bad)) {
    *err = errno;
    snprintf(why, wn, "cannot keep its extended attribute %s", bad);
    return why;
  }
  if (fchmod(tfd, f->st.st_mode & 07777) || fstat(tfd, &ts))
    return *err = errno, "cannot set the temporary file's mode";
  if ((ts.st_mode & 07777) != (f->st.st_mode & 07777)) {
    *err = 0;
    snprintf(why, wn, "cannot keep its mode %04o", (unsigned)(f->st.st_mode & 07777));
    return why;
  }
  if (fsync(tfd)) return *err = errno, "cannot sync the temporary file";
  return NULL;
}

/*==============================================================================================
 * MARK: unchanged since read, and the write
 *============================================================================================*/

static int same_time(struct timespec a, struct timespec b) {
  return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* Is the file at `at` (its name; after the exchange, the temporary name) the one read, as it was
 * read: that inode, the same size, mtime (and ctime, before the exchange: a rename sets it) to
 * the nanosecond, and the same bytes? */
static int unchanged(const cli_fix_file *f, const char *at, int with_ctime, const char *orig,
                     size_t olen) {
  struct stat now, named;
  if (fstat(f->fd, &now) || fstatat(f->dfd, at, &named, AT_SYMLINK_NOFOLLOW)) return 0;
  if (named.st_dev != f->st.st_dev || named.st_ino != f->st.st_ino) return 0;
  if (now.st_size != f->st.st_size || (size_t)now.st_size != olen ||
      !same_time(now.st_mtim, f->st.st_mtim) ||
      (with_ctime && !same_time(now.st_ctim, f->st.st_ctim)))
    return 0;
  char buf[65536];
  for (size_t off = 0; off <= olen;) {
    size_t want = olen - off < sizeof buf ? olen - off + 1 : sizeof buf; /* +1: see the end */
    ssize_t r = pread(f->fd, buf, want, (off_t)off);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 || (size_t)r > olen - off || memcmp(buf, orig + off, (size_t)r)) return 0;
    if (r == 0) return off == olen;
    off += (size_t)r;
  }
  return 1;
}

/* A write lease on the file read (fcntl F_SETLEASE, F_WRLCK), held from the last check to the
 * end of the write: it is granted only when no other process has the file open, and while it is
 * held another process's open(2) of the file waits (up to /proc/sys/fs/lease-break-time) and
 * breaks it, which F_GETLEASE then shows. So an editor that opens the file to write it in place
 * after the check is seen, and the write rolled back before it can write. The break's SIGIO is
 * ignored while the lease is held (its default action would end the program). A file the user
 * does not own (without CAP_LEASE) or a file system without leases gets none: the checks on
 * identity and bytes, before and after the exchange, are then what is left. */
typedef struct fix_lease {
  int held;
  struct sigaction old_io;
} fix_lease;

/* Returns 0 (with a lease or without one), or -1 when another process keeps the file open. */
static int lease_take(const cli_fix_file *f, fix_lease *l) {
  struct sigaction ign;
  memset(&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  sigemptyset(&ign.sa_mask);
  sigaction(SIGIO, &ign, &l->old_io);
  l->held = 0;
  for (int tries = 0; tries < 40; tries++) { /* about 200 ms for a reader to finish */
    if (fcntl(f->fd, F_SETLEASE, F_WRLCK) == 0) return l->held = 1, 0;
    if (errno != EAGAIN && errno != EBUSY) return 0;
    struct timespec ts = {0, 5000000};
    nanosleep(&ts, NULL);
  }
  sigaction(SIGIO, &l->old_io, NULL);
  return -1;
}

static int lease_broken(const cli_fix_file *f, const fix_lease *l) {
  return l->held && fcntl(f->fd, F_GETLEASE) != F_WRLCK;
}

static void lease_drop(const cli_fix_file *f, fix_lease *l) {
  if (l->held) (void)fcntl(f->fd, F_SETLEASE, F_UNLCK);
  l->held = 0;
  sigaction(SIGIO, &l->old_io, NULL);
}

static void sync_dir(int dfd) {
  if (fsync(dfd)) { /* some file systems refuse fsync on a directory: best effort */
  }
}

/* Put the complete temporary file in place of the file read, unless the file changed. With
 * RENAME_EXCHANGE the file that was at the name is, after the swap, under the temporary name: it
 * is checked again there (identity, size, mtime, bytes, the lease), and a change that came
 * between the last check and the swap swaps it back. Without the exchange (ENOSYS, EINVAL),
 * a plain rename. Returns 0 (in place), 1 (changed: nothing written), -1 (errno set), or -2 (changed,
 * and the swap back failed: the changed file is under the temporary name, which is kept). */
static int put_in_place(sig_window *w, const cli_fix_file *f, const fix_lease *l,
                        const char *orig, size_t olen) {
  if (lease_broken(f, l) || !unchanged(f, f->name, 1, orig, olen)) return 1;
  test_pause("BOXLINT_TEST_PAUSE_AFTER_CHECK");
  if (tmp_exchange(w, f->dfd, f->name)) {
    if (errno != ENOSYS && errno != EINVAL) return -1;
    if (lease_broken(f, l) || !unchanged(f, f->name, 1, orig, olen)) return 1;
    return tmp_finish(w, f->dfd, f->name, 1) ? -1 : 0;
  }
  if (lease_broken(f, l) || !unchanged(f, tmp_name, 0, orig, olen)) {
    /* the other writer's file back at its name; ours, now under the temporary name, removed */
    return tmp_exchange(w, f->dfd, f->name) ? -2 : 1;
  }
  return 0;
}

int cli_fix_write(cli *c, const char *path, cli_fix_file *f, const char *orig, size_t olen,
                  const char *text, size_t len) {
  char why[512];
  int err = 0, tfd = -1;
  const char *what = before_write(f, why, sizeof why, &err);
  sig_window w;
  fix_lease l = {0};
  int leased = 0;
  if (!what) {
    window_open(&w);
    tfd = tmp_create(&w, f->dfd);
    if (tfd < 0) what = "cannot create a temporary file in its directory", err = errno;
    else what = fill_tmp(f, tfd, text, len, why, sizeof why, &err);
    if (tfd >= 0 && close(tfd) && !what) what = "cannot write a temporary file", err = errno;
    if (!what) test_pause("BOXLINT_TEST_PAUSE_BEFORE_RENAME");
    int rc = 0;
    if (!what && lease_take(f, &l)) what = "another process has it open", err = 0;
    else if (!what) leased = 1, rc = put_in_place(&w, f, &l, orig, olen);
    if (!what && rc == -1) what = "cannot rename a temporary file over it", err = errno;
    if (!what && rc == -2) {
      /* the only copy of the other writer's change is the temporary file: it stays */
      tmp_active = 0;
      say(c, path, "changed while boxlint was fixing it, and the fixed file is in its place: the "
                   "changed one is %s in its directory\n", tmp_name);
      if (leased) lease_drop(f, &l);
      window_close(&w);
      return -1;
    }
    /* in place (rc 0): the temporary name holds the file read, or nothing; else our new file */
    if (tfd >= 0) tmp_finish(&w, f->dfd, f->name, 0);
    if (leased) lease_drop(f, &l);
    window_close(&w);
    if (!what && rc == 1) {
      say(c, path, "not fixed: changed while boxlint was fixing it: nothing "
                      "written\n");
      return -1;
    }
  }
  if (!what) {
    sync_dir(f->dfd);
    return 0;
  }
  if (err) say(c, path, "not fixed: %s: %s; the file is unchanged\n", what,
                   strerror(err));
  else say(c, path, "not fixed: %s; the file is unchanged\n", what);
  return -1;
}
#endif /* BOXLINT_WASI */

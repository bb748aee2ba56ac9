/* What the command (cli/) needs of POSIX beyond wasi-libc, for boxlint-cli.wasm only
 * (wasm/CMakeLists.txt): realpath, strerror in the GNU C library's words (wasi_cli.h), and the
 * working directory the command starts in.
 *
 * The working directory: wasi-libc starts every program in "/", and resolves a relative path
 * against that before it looks among the directories the host opened for it (node:wasi's
 * preopens; bindings/node/bin/boxlint.js opens "/"). So the host says where the user is, in
 * BOXLINT_WASI_CWD (a path of the module's file system), and the command moves there before
 * main; the variable is then removed, so the command sees the environment it was given. */
#define _DEFAULT_SOURCE
#include "wasi_cli.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* wasi_cli.h's strerror: here, the C library's, which <string.h> declared under the other name */
#undef strerror
char *strerror(int err);

/* The errors whose words differ between musl (wasi-libc) and glibc, in glibc's words; any other
 * in the C library's (the same in both). */
char *boxlint_wasi_strerror(int err) {
  switch (err) {
  case EIO: return (char *)"Input/output error";
  case ENOMEM: return (char *)"Cannot allocate memory";
  case EBUSY: return (char *)"Device or resource busy";
  case EXDEV: return (char *)"Invalid cross-device link";
  case EMFILE: return (char *)"Too many open files";
  case ENOTTY: return (char *)"Inappropriate ioctl for device";
  case ESPIPE: return (char *)"Illegal seek";
  case ERANGE: return (char *)"Numerical result out of range";
  case ENAMETOOLONG: return (char *)"File name too long";
  case ELOOP: return (char *)"Too many levels of symbolic links";
  case EOVERFLOW: return (char *)"Value too large for defined data type";
  case EILSEQ: return (char *)"Invalid or incomplete multibyte or wide character";
  case ENOTSUP: return (char *)"Operation not supported";
  case EDQUOT: return (char *)"Disk quota exceeded";
  default: return strerror(err);
  }
}

__attribute__((constructor)) static void boxlint_wasi_cwd(void) {
  const char *cwd = getenv("BOXLINT_WASI_CWD");
  if (cwd && *cwd) (void)chdir(cwd);
  unsetenv("BOXLINT_WASI_CWD");
}

/* Append component `s` (n bytes) to the absolute path `p` (length *pl, "/" alone for the root).
 * Returns 0, or -1 (ENAMETOOLONG). */
static int push(char *p, size_t *pl, const char *s, size_t n) {
  size_t at = *pl == 1 ? 1 : *pl + 1;
  if (at + n + 1 > PATH_MAX) return errno = ENAMETOOLONG, -1;
  if (*pl != 1) p[*pl] = '/';
  memcpy(p + at, s, n);
  *pl = at + n;
  p[*pl] = 0;
  return 0;
}

/* The last component of `p` dropped (the root stays the root). */
static void pop(char *p, size_t *pl) {
  while (*pl > 1 && p[*pl - 1] != '/') (*pl)--;
  if (*pl > 1) (*pl)--;
  p[*pl] = 0;
}

/* POSIX realpath: `path` made absolute (against getcwd), each component looked up in turn with
 * symbolic links replaced by their targets (at most 40), "." and ".." and repeated slashes
 * resolved. Every component must exist, and all but the last be directories. Into `resolved`
 * (PATH_MAX bytes), or malloc'd when it is NULL; NULL with errno set on failure. */
char *realpath(const char *restrict path, char *restrict resolved) {
  char out[PATH_MAX], todo[PATH_MAX], link[PATH_MAX];
  size_t ol, links = 0;
  if (!path) return errno = EINVAL, NULL;
  if (!*path) return errno = ENOENT, NULL;
  if (strlen(path) >= sizeof todo) return errno = ENAMETOOLONG, NULL;
  strcpy(todo, path);
  if (path[0] == '/') {
    strcpy(out, "/");
  } else if (!getcwd(out, sizeof out)) {
    return NULL;
  }
  ol = strlen(out);
  size_t at = 0; /* what of todo is done */
  while (todo[at]) {
    while (todo[at] == '/') at++;
    size_t n = strcspn(todo + at, "/");
    const char *comp = todo + at;
    at += n;
    if (n == 0 || (n == 1 && comp[0] == '.')) continue;
    if (n == 2 && comp[0] == '.' && comp[1] == '.') {
      pop(out, &ol);
      continue;
    }
    if (push(out, &ol, comp, n)) return NULL;
    struct stat st;
    if (lstat(out, &st)) return NULL;
    if (S_ISLNK(st.st_mode)) {
      if (++links > 40) return errno = ELOOP, NULL;
      ssize_t ln = readlink(out, link, sizeof link - 1);
      if (ln < 0) return NULL;
      size_t rest = strlen(todo + at);
      if ((size_t)ln + rest + 1 >= sizeof todo) return errno = ENAMETOOLONG, NULL;
      memmove(todo + ln, todo + at, rest + 1); /* the target, then what was left */
      memcpy(todo, link, (size_t)ln);
      at = 0;
      if (link[0] == '/') {
        strcpy(out, "/");
        ol = 1;
      } else {
        pop(out, &ol);
      }
    } else if (!S_ISDIR(st.st_mode) && todo[at]) {
      return errno = ENOTDIR, NULL;
    }
  }
  if (!resolved && !(resolved = malloc(ol + 1))) return NULL;
  memcpy(resolved, out, ol + 1);
  return resolved;
}

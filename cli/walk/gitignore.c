/* What git ignores, decided as git decides it (gitignore(5)) without running git. Owns the glob
 * semantics of git's wildmatch (gi_wildmatch), the reading of a .gitignore into patterns
 * (gi_list: comments, trailing spaces, '!', trailing '/', anchoring), the order in which git
 * consults the patterns (the deepest .gitignore first, its last matching line wins; then
 * .git/info/exclude), and where a repository keeps info/exclude. Calls only libc. Used by walk.c
 * and tests/oracle/gitignore_probe.c (compared there with `git check-ignore`). */
#define _XOPEN_SOURCE 700
#include "walk/walk.h"
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef unsigned char uchar;

/* Results of the matcher, as git's: the two aborts tell the callers up the recursion that no
 * other split of the text can match (the text ran out; a '*' cannot cross the next '/'). */
enum { WM_MATCH = 0, WM_NOMATCH = 1, WM_ABORT_ALL = -1, WM_ABORT_TO_STARSTAR = -2, WM_GO = 2 };

/* A pattern and a text being matched: [p, pe) and [t, te); `pat` where the pattern began, `t0`
 * where the text began, `last_slash` its last '/' (NULL: none).
 *
 * git's matcher tries every split of the text among the stars: exponential in the number of
 * stars (`*a*a*a*a*a*a*a*a*a*a*a*a*b` against 36 a's: a billion tries). This one computes the
 * same results as git's (the same recursion, the same abort values) but remembers them: what a
 * run of stars starting at pattern byte s returns at text byte k (`memo`, row 2*row[s]), and
 * what its loop over the places the rest could start returns from k on (row 2*row[s]+1), each
 * computed once. A result is a function of (s, k) alone, so remembering changes no answer; the
 * work is then about (pattern length) x (text length). Stored as result + 3; 0: not yet known. */
typedef struct wm {
  const uchar *pat, *pe, *t0, *te, *last_slash;
  unsigned flags;
  signed char *memo; /* NULL: nothing remembered (a pattern with one star, or out of memory) */
  const unsigned *row;
  size_t tn; /* text length + 1: the length of a memo row */
} wm;

enum { MEMO_STAR = 0, MEMO_REST = 1 };

/* The memo row `which` of the run of stars starting at `s`, indexed by text offset. */
static signed char *memo_row(const wm *w, const uchar *s, int which) {
  return w->memo + ((size_t)w->row[s - w->pat] * 2 + (size_t)which) * w->tn;
}

static int dowild(const wm *w, const uchar *p, const uchar *t);

static int is_special(uchar ch) { return ch == '*' || ch == '?' || ch == '[' || ch == '\\'; }

/* The [:name:] classes, ASCII only, as git's ctype has them. */
static int in_class(const uchar *s, size_t n, uchar c, int *known) {
  static const char *const names[] = {"alnum", "alpha", "blank", "cntrl", "digit", "graph",
                                      "lower", "print", "punct", "space", "upper", "xdigit"};
  int alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'), digit = c >= '0' && c <= '9';
  int graph = c > 0x20 && c < 0x7f;
  int r[] = {alpha || digit,
             alpha,
             c == ' ' || c == '\t',
             c < 0x20 || c == 0x7f,
             digit,
             graph,
             c >= 'a' && c <= 'z',
             c >= 0x20 && c < 0x7f,
             graph && !alpha && !digit,
             c == ' ' || c == '\t' || c == '\n' || c == '\r',
             c >= 'A' && c <= 'Z',
             digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')};
  for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
    if (strlen(names[k]) == n && !memcmp(names[k], s, n)) {
      *known = 1;
      return r[k];
    }
  }
  *known = 0;
  return 0;
}

/* "[:" at *pp inside a bracket: a class name up to ":]", or a plain '[' when there is no ":]"
 * before the next ']'. Sets *pc to the character that counts as the previous one for a range.
 * Returns WM_GO, or WM_ABORT_ALL (no ']' at all, or an unknown class). */
static int bracket_class(const wm *w, const uchar **pp, uchar tc, int *matched, uchar *pc) {
  const uchar *s = *pp + 2, *p = s;
  while (p < w->pe && *p != ']') p++;
  if (p == w->pe) return WM_ABORT_ALL;
  if (p == s || p[-1] != ':') { /* not a class: the '[' is a member */
    *pp = s - 2;
    *pc = '[';
    if (tc == '[') *matched = 1;
    return WM_GO;
  }
  int known;
  if (in_class(s, (size_t)(p - s - 1), tc, &known)) *matched = 1;
  if (!known) return WM_ABORT_ALL;
  *pp = p;
  *pc = 0;
  return WM_GO;
}

/* A bracket expression at *pp against the text character `tc`. Returns WM_GO with *pp at its
 * closing ']', or WM_NOMATCH / WM_ABORT_ALL. */
static int bracket(const wm *w, const uchar **pp, uchar tc) {
  const uchar *p = *pp + 1, *pe = w->pe;
  int negated = p < pe && (*p == '!' || *p == '^');
  if (negated) p++;
  uchar prev = 0, pc;
  int matched = 0;
  for (;;) {
    if (p >= pe) return WM_ABORT_ALL;
    pc = *p;
    if (pc == '\\') {
      if (++p >= pe) return WM_ABORT_ALL;
      pc = *p;
      if (tc == pc) matched = 1;
    } else if (pc == '-' && prev && p + 1 < pe && p[1] != ']') {
      pc = *++p;
      if (pc == '\\') {
        if (++p >= pe) return WM_ABORT_ALL;
        pc = *p;
      }
      if (tc <= pc && tc >= prev) matched = 1;
      pc = 0;
    } else if (pc == '[' && p + 1 < pe && p[1] == ':') {
      if (bracket_class(w, &p, tc, &matched, &pc) != WM_GO) return WM_ABORT_ALL;
    } else if (tc == pc) {
      matched = 1;
    }
    prev = pc;
    if (++p < pe && *p == ']') break;
  }
  if (matched == negated || ((w->flags & GI_PATHNAME) && tc == '/')) return WM_NOMATCH;
  *pp = p;
  return WM_GO;
}

/* After the run of stars at `s` (p just past it, match_slash as they decided): try each place
 * the rest of the pattern could start, from t on. Every place tried before the result is found
 * has the same result (the loop goes on from there), so they are all remembered. */
static int star_rest(const wm *w, const uchar *s, const uchar *p, const uchar *t, int match_slash) {
  signed char *loop = w->memo ? memo_row(w, s, MEMO_REST) : NULL;
  const uchar *from = t;
  int r;
  for (;; t++) {
    if (t == w->te) {
      r = WM_ABORT_ALL;
      break;
    }
    if (loop && loop[t - w->t0]) { /* known here (then not rescanned for the literal) */
      r = loop[t - w->t0] - 3;
      break;
    }
    if (!is_special(*p)) { /* skip straight to the next place the literal occurs */
      while (t < w->te && (match_slash || *t != '/') && *t != *p) t++;
      if (t == w->te || *t != *p) {
        r = WM_NOMATCH; /* at the end of the text, that place itself would say WM_ABORT_ALL */
        break;
      }
    }
    if (loop && loop[t - w->t0]) {
      r = loop[t - w->t0] - 3;
      break;
    }
    int m = dowild(w, p, t);
    if (m != WM_NOMATCH) {
      if (!match_slash || m != WM_ABORT_TO_STARSTAR) {
        r = m;
        break;
      }
    } else if (!match_slash && *t == '/') {
      r = WM_ABORT_TO_STARSTAR;
      break;
    }
  }
  if (loop) {
    size_t end = (size_t)(t - w->t0) + (t < w->te || r == WM_ABORT_ALL);
    memset(loop + (from - w->t0), r + 3, end - (size_t)(from - w->t0));
  }
  return r;
}

/* The stars at `s` (p just past them) at text `t`, when they do not hand back to the main loop:
 * a "**" segment first tries matching no directory; a trailing run matches the rest of the text
 * (a single '*' only within the last name); else the rest of the pattern is tried at each place. */
static int star_at(const wm *w, const uchar *s, const uchar *p, const uchar *t, int match_slash,
                   int starstar) {
  signed char *seen = w->memo ? memo_row(w, s, MEMO_STAR) + (t - w->t0) : NULL;
  if (seen && *seen) return *seen - 3;
  int r;
  if (starstar && p < w->pe && *p == '/' && dowild(w, p + 1, t) == WM_MATCH) r = WM_MATCH;
  else if (p == w->pe) r = !match_slash && w->last_slash && t <= w->last_slash ? WM_NOMATCH
                                                                                : WM_MATCH;
  else r = star_rest(w, s, p, t, match_slash);
  if (seen) *seen = (signed char)(r + 3);
  return r;
}

/* A run of '*' at *pp. Returns a result, or WM_GO with *pp and *tp where the main loop goes on
 * (a single '*' before a '/' under GI_PATHNAME: the rest of this directory's name). */
static int star(const wm *w, const uchar **pp, const uchar **tp) {
  const uchar *s = *pp, *p = s, *t = *tp, *pe = w->pe;
  int pathname = (w->flags & GI_PATHNAME) != 0, match_slash = !pathname, starstar = 0;
  while (p < pe && *p == '*') p++;
  if (p - s >= 2 && pathname) {
    int lead = s == w->pat || s[-1] == '/';
    int trail = p == pe || *p == '/' || (*p == '\\' && p + 1 < pe && p[1] == '/');
    if (lead && trail) starstar = match_slash = 1; /* "**" as a whole segment: any directories */
  }
  if (!match_slash && p < pe && *p == '/') {
    const uchar *slash = memchr(t, '/', (size_t)(w->te - t));
    if (!slash) return WM_NOMATCH;
    *pp = p;
    *tp = slash;
    return WM_GO;
  }
  return star_at(w, s, p, t, match_slash, starstar);
}

static int dowild(const wm *w, const uchar *p, const uchar *t) {
  for (; p < w->pe; t++, p++) {
    if (t == w->te && *p != '*') return WM_ABORT_ALL;
    int r = WM_GO;
    switch (*p) {
    case '\\':
      if (++p == w->pe || *t != *p) return WM_NOMATCH;
      break;
    case '?':
      if ((w->flags & GI_PATHNAME) && *t == '/') return WM_NOMATCH;
      break;
    case '*':
      r = star(w, &p, &t);
      break;
    case '[':
      r = bracket(w, &p, *t);
      break;
    default:
      if (*t != *p) return WM_NOMATCH;
      break;
    }
    if (r != WM_GO) return r;
  }
  return t == w->te ? WM_MATCH : WM_NOMATCH;
}

int gi_wildmatch(const char *pat, size_t plen, const char *text, size_t tlen, unsigned flags) {
  const uchar *t0 = (const uchar *)text, *last = NULL;
  for (size_t k = tlen; k-- > 0;) {
    if (t0[k] == '/') {
      last = t0 + k;
      break;
    }
  }
  wm w = {(const uchar *)pat, (const uchar *)pat + plen, t0, t0 + tlen, last, flags, NULL,
          NULL, tlen + 1};
  size_t stars = 0;
  for (size_t k = 0; k < plen; k++) stars += pat[k] == '*';
  /* With one star git's way is already linear; with more, the memo (on the stack when small). */
  union {
    unsigned u[256];
    signed char c[2048];
  } small;
  void *mem = NULL;
  if (stars >= 2 && tlen < (SIZE_MAX / 4 - plen) / (2 * stars)) {
    size_t rows = plen * sizeof(unsigned), need = rows + 2 * stars * (tlen + 1);
    mem = need <= sizeof small ? (void *)&small : malloc(need);
    if (mem) {
      unsigned *row = mem, n = 0;
      for (size_t k = 0; k < plen; k++) {
        row[k] = n;
        n += pat[k] == '*';
      }
      w.row = row;
      w.memo = (signed char *)mem + rows;
      memset(w.memo, 0, need - rows);
    }
  }
  int r = dowild(&w, w.pat, t0) == WM_MATCH;
  if (mem != (void *)&small) free(mem);
  return r;
}

/*==============================================================================================
 * A .gitignore's patterns
 *============================================================================================*/

enum { PF_NEGATIVE = 1, PF_MUSTBEDIR = 2, PF_NODIR = 4 };

typedef struct gi_pat {
  char *p;       /* without '!', the trailing '/' and (when anchored) the leading '/' */
  size_t len;
  size_t prefix; /* length of the leading part without glob characters */
  unsigned flags;
} gi_pat;

struct gi_list {
  gi_pat *v;
  size_t n, cap;
};

/* The line's length once its trailing spaces are dropped, unless a backslash escapes them. */
static size_t trim_trailing_spaces(const char *s, size_t n) {
  size_t end = n, i = 0;
  int in_spaces = 0;
  for (; i < n; i++) {
    if (s[i] == ' ') {
      if (!in_spaces) end = i;
      in_spaces = 1;
    } else {
      if (s[i] == '\\' && ++i == n) return n;
      in_spaces = 0;
    }
  }
  return in_spaces ? end : n;
}

/* One line (no comment, not empty) into a pattern appended to `l`. Returns 0 or -1 (memory). */
static int add_pattern(gi_list *l, const char *s, size_t n) {
  unsigned flags = 0;
  if (n && s[0] == '!') {
    flags |= PF_NEGATIVE;
    s++, n--;
  }
  if (n && s[n - 1] == '/') {
    flags |= PF_MUSTBEDIR;
    n--;
  }
  if (!memchr(s, '/', n)) flags |= PF_NODIR;
  else if (s[0] == '/') s++, n--; /* anchored: matched from the .gitignore's directory */
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16;
    gi_pat *v = realloc(l->v, cap * sizeof *v);
    if (!v) return -1;
    l->v = v;
    l->cap = cap;
  }
  gi_pat *p = &l->v[l->n];
  if (!(p->p = malloc(n + 1))) return -1;
  if (n) memcpy(p->p, s, n);
  p->p[n] = 0;
  p->len = n;
  p->flags = flags;
  for (p->prefix = 0; p->prefix < n && !is_special((uchar)s[p->prefix]); p->prefix++) continue;
  l->n++;
  return 0;
}

int gi_list_parse(const char *text, size_t len, gi_list **out) {
  gi_list *l = calloc(1, sizeof *l);
  *out = l;
  if (!l) return -1;
  size_t i = 0;
  if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) i = 3;
  while (i < len) {
    const char *s = text + i, *nl = memchr(s, '\n', len - i);
    size_t n = nl ? (size_t)(nl - s) : len - i;
    i += n + 1;
    if (!n || s[0] == '#') continue;
    if (s[n - 1] == '\r') n--;
    const char *nul = memchr(s, 0, n); /* git reads a line as a C string */
    if (nul) n = (size_t)(nul - s);
    if (add_pattern(l, s, trim_trailing_spaces(s, n))) {
      gi_list_free(l);
      *out = NULL;
      return -1;
    }
  }
  return 0;
}

void gi_list_free(gi_list *l) {
  if (!l) return;
  for (size_t i = 0; i < l->n; i++) free(l->v[i].p);
  free(l->v);
  free(l);
}

/* A pattern with a '/' against the path: its literal head compared first, then the rest matched
 * on its own (so a "**" right after the head counts as a leading one, as in git). */
static int match_pathname(const gi_pat *p, const char *path, size_t len) {
  if (p->prefix > len || memcmp(p->p, path, p->prefix)) return 0;
  if (p->prefix == p->len) return len == p->len;
  return gi_wildmatch(p->p + p->prefix, p->len - p->prefix, path + p->prefix, len - p->prefix,
                      GI_PATHNAME);
}

enum gi_verdict gi_list_match(const gi_list *l, const char *path, size_t len, int is_dir) {
  const char *base = path;
  for (size_t k = len; k > 0; k--) {
    if (path[k - 1] == '/') {
      base = path + k;
      break;
    }
  }
  size_t blen = len - (size_t)(base - path);
  for (size_t i = l->n; i-- > 0;) {
    const gi_pat *p = &l->v[i];
    if ((p->flags & PF_MUSTBEDIR) && !is_dir) continue;
    int m = (p->flags & PF_NODIR) ? gi_wildmatch(p->p, p->len, base, blen, 0)
                                  : match_pathname(p, path, len);
    if (m) return (p->flags & PF_NEGATIVE) ? GI_KEPT : GI_IGNORED;
  }
  return GI_NONE;
}

/*==============================================================================================
 * The frames of a walk
 *============================================================================================*/

struct gi_frame {
  gi_list *ign, *exc; /* the directory's .gitignore; a root's info/exclude (either NULL) */
  size_t base;
  int root;
};

int gi_stack_push(gi_stack *s, const char *gitignore, size_t glen, const char *exclude,
                  size_t elen, size_t base, int repo_root) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 16;
    struct gi_frame *f = realloc(s->f, cap * sizeof *f);
    if (!f) return -1;
    s->f = f;
    s->cap = cap;
  }
  struct gi_frame fr = {NULL, NULL, base, repo_root};
  if ((gitignore && gi_list_parse(gitignore, glen, &fr.ign)) ||
      (exclude && repo_root && gi_list_parse(exclude, elen, &fr.exc))) {
    gi_list_free(fr.ign);
    return -1;
  }
  s->f[s->n++] = fr;
  return 0;
}

void gi_stack_pop(gi_stack *s) {
  if (!s->n) return;
  s->n--;
  gi_list_free(s->f[s->n].ign);
  gi_list_free(s->f[s->n].exc);
}

void gi_stack_free(gi_stack *s) {
  while (s->n) gi_stack_pop(s);
  free(s->f);
  s->f = NULL;
  s->cap = 0;
}

int gi_stack_ignored(const gi_stack *s, const char *path, size_t len, int is_dir) {
  for (size_t i = s->n; i-- > 0;) {
    const struct gi_frame *f = &s->f[i];
    if (f->base > len) continue;
    enum gi_verdict v = GI_NONE;
    if (f->ign) v = gi_list_match(f->ign, path + f->base, len - f->base, is_dir);
    if (v == GI_NONE && f->root && f->exc)
      v = gi_list_match(f->exc, path + f->base, len - f->base, is_dir);
    if (v != GI_NONE) return v == GI_IGNORED;
    if (f->root) break; /* an enclosing repository's patterns do not reach in here */
  }
  return 0;
}

/*==============================================================================================
 * Files
 *============================================================================================*/

enum { GI_MAX_BYTES = 16 * 1024 * 1024 };

/* Read `path` whole; `nofollow`: a symbolic link counts as no file. Opened without blocking and
 * read only when it is a regular file (a FIFO named .gitignore is no file). */
static int read_all(const char *path, int nofollow, char **buf, size_t *len) {
  *buf = NULL;
  *len = 0;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
  if (fd < 0) return errno == ENOENT || errno == ENOTDIR || errno == ELOOP ? 0 : errno;
  struct stat st;
  int err = 0;
  char *b = NULL;
  if (fstat(fd, &st) != 0) err = errno;
  else if (!S_ISREG(st.st_mode)) err = 0; /* a directory named .gitignore: nothing to read */
  else if (st.st_size > GI_MAX_BYTES) err = EFBIG;
  else if (!(b = malloc((size_t)st.st_size + 1))) err = ENOMEM;
  size_t n = 0;
  while (b && !err && n < (size_t)st.st_size) { /* what was there when it was opened */
    ssize_t r = read(fd, b + n, (size_t)st.st_size - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) err = errno;
    if (r <= 0) break;
    n += (size_t)r;
  }
  close(fd);
  if (err) {
    free(b);
    return err;
  }
  *buf = b;
  *len = n;
  return 0;
}

int gi_read(const char *path, int nofollow, char **buf, size_t *len) {
  return read_all(path, nofollow, buf, len);
}

/* a + "/" + b, malloc'd (b absolute: b alone). */
static char *join(const char *a, const char *b, size_t blen) {
  size_t alen = b[0] == '/' ? 0 : strlen(a);
  char *r = malloc(alen + blen + 2);
  if (!r) return NULL;
  memcpy(r, a, alen);
  if (alen) r[alen++] = '/';
  memcpy(r + alen, b, blen);
  r[alen + blen] = 0;
  return r;
}

/* The first line of file `dir`/`name` after `prefix`, trimmed, as a path from `dir` (malloc'd);
 * NULL when there is no such file or it does not start with `prefix` (*err: ENOMEM when out of
 * memory). */
static char *path_in_file(const char *dir, const char *name, const char *prefix, int *err) {
  char *fn = join(dir, name, strlen(name)), *text = NULL, *r = NULL;
  size_t n = 0, pl = strlen(prefix);
  if (!fn) {
    *err = ENOMEM;
    return NULL;
  }
  if (read_all(fn, 0, &text, &n) == 0 && text) {
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' ')) n--;
    if (n > pl && !memcmp(text, prefix, pl) && !memchr(text, 0, n) &&
        !(r = join(dir, text + pl, n - pl)))
      *err = ENOMEM;
  }
  free(fn);
  free(text);
  return r;
}

int gi_exclude_path(const char *workdir, char **out) {
  *out = NULL;
  char *dotgit = join(workdir, ".git", 4), *gitdir = NULL, *common = NULL;
  int err = 0;
  struct stat st;
  if (!dotgit) return ENOMEM;
  if (stat(dotgit, &st) != 0) goto done;
  if (S_ISDIR(st.st_mode)) {
    gitdir = dotgit;
    dotgit = NULL;
  } else if (!(gitdir = path_in_file(workdir, ".git", "gitdir: ", &err))) {
    goto done;
  }
  common = path_in_file(gitdir, "commondir", "", &err);
  if (!err) *out = join(common ? common : gitdir, "info/exclude", 12);
  if (!err && !*out) err = ENOMEM;
done:
  free(dotgit);
  free(gitdir);
  free(common);
  return err;
}

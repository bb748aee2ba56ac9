/* `boxlint --diff`: a file before and after its fixes as a unified diff that `patch -p1` and
 * `git apply` take: "--- a/PATH" and "+++ b/PATH" (PATH quoted as git quotes it), hunks "@@ -l,n +l,n @@" with 3 lines of
 * context, "\ No newline at end of file" after a last line without one. Lines are compared as
 * bytes, their line feed included; the changed lines are the complement of a longest common
 * subsequence found with Myers' greedy algorithm (1986) after the common head and tail are set
 * aside, which is quick because fixes change few lines. Past MAX_D differing lines the middle is
 * shown as one change (still a correct diff). Called by fix_run.c; calls nothing of boxlint. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "fix/fix.h"

enum { CONTEXT = 3, MAX_D = 1024 };

/* A text's lines: line i is [at[i], at[i + 1]), its line feed included. */
typedef struct lines {
  const char *s;
  size_t *at;
  size_t n;
} lines;

static int split(lines *l, const char *s, size_t len) {
  size_t n = 0;
  for (size_t i = 0; i < len; i++) n += s[i] == '\n';
  if (len && s[len - 1] != '\n') n++;
  l->s = s;
  l->n = n;
  l->at = malloc((n + 1) * sizeof *l->at);
  if (!l->at) return -1;
  size_t k = 0;
  l->at[k++] = 0;
  for (size_t i = 0; i < len; i++)
    if (s[i] == '\n' && k <= n) l->at[k++] = i + 1;
  l->at[n] = len;
  return 0;
}

static int same(const lines *a, size_t i, const lines *b, size_t j) {
  size_t la = a->at[i + 1] - a->at[i], lb = b->at[j + 1] - b->at[j];
  return la == lb && !memcmp(a->s + a->at[i], b->s + b->at[j], la);
}

/*==============================================================================================
 * MARK: Myers
 *============================================================================================*/

/* The forward pass over lines [a0, a0 + n) of `a` and [b0, b0 + m) of `b`: fills v with the
 * furthest x of every diagonal k at every step d (v[d*d + k + d]) and returns the edit distance,
 * or -1 past MAX_D (or out of memory). */
static ptrdiff_t forward(const lines *a, size_t a0, size_t n, const lines *b, size_t b0,
                         size_t m, ptrdiff_t **vp) {
  ptrdiff_t N = (ptrdiff_t)n, M = (ptrdiff_t)m, *v = NULL;
  size_t cap = 0;
  for (ptrdiff_t d = 0; d <= N + M && d <= MAX_D; d++) {
    size_t need = (size_t)(d + 1) * (size_t)(d + 1);
    if (need > cap) {
      size_t nc = cap ? cap * 4 : 64;
      while (nc < need) nc *= 2;
      ptrdiff_t *nv = realloc(v, nc * sizeof *nv);
      if (!nv) break;
      v = nv;
      cap = nc;
    }
    ptrdiff_t *cur = v + d * d + d, *prev = d ? v + (d - 1) * (d - 1) + (d - 1) : NULL;
    for (ptrdiff_t k = -d; k <= d; k += 2) {
      ptrdiff_t x = !d ? 0
                    : (k == -d || (k != d && prev[k - 1] < prev[k + 1])) ? prev[k + 1]
                                                                       : prev[k - 1] + 1;
      ptrdiff_t y = x - k;
      while (x < N && y < M && same(a, a0 + (size_t)x, b, b0 + (size_t)y)) x++, y++;
      cur[k] = x;
      if (x >= N && y >= M) {
        *vp = v;
        return d;
      }
    }
  }
  free(v);
  *vp = NULL;
  return -1;
}

/* Mark the lines of [a0, a0 + n) in da and of [b0, b0 + m) in ib that are not in a longest
 * common subsequence. Returns 0, or -1 out of memory. */
static int mark(const lines *a, size_t a0, size_t n, const lines *b, size_t b0, size_t m,
                char *da, char *ib) {
  ptrdiff_t *v;
  ptrdiff_t D = forward(a, a0, n, b, b0, m, &v);
  if (D < 0) { /* too different (or no memory for the walk): all of it changed */
    memset(da + a0, 1, n);
    memset(ib + b0, 1, m);
    return 0;
  }
  ptrdiff_t x = (ptrdiff_t)n, y = (ptrdiff_t)m;
  for (ptrdiff_t d = D; d > 0; d--) {
    ptrdiff_t k = x - y, *prev = v + (d - 1) * (d - 1) + (d - 1);
    int down = k == -d || (k != d && prev[k - 1] < prev[k + 1]);
    ptrdiff_t pk = down ? k + 1 : k - 1, px = prev[pk], py = px - pk;
    if (down)
      ib[b0 + (size_t)py] = 1; /* (px, py) -> (px, py + 1): line py of b inserted */
    else
      da[a0 + (size_t)px] = 1; /* (px, py) -> (px + 1, py): line px of a deleted */
    x = px;
    y = py;
  }
  free(v);
  return 0;
}

/*==============================================================================================
 * MARK: Hunks
 *============================================================================================*/

/* One row of the aligned texts: a context line (' '), a deletion ('-') or an insertion ('+'),
 * with the line numbers (0-based) of both texts where it stands. */
typedef struct row {
  char op;
  size_t i, j;
} row;

static void put_line(FILE *f, char op, const lines *l, size_t k) {
  size_t s = l->at[k], e = l->at[k + 1];
  fputc(op, f);
  fwrite(l->s + s, 1, e - s, f);
  if (e == s || l->s[e - 1] != '\n') fputs("\n\\ No newline at end of file\n", f);
}

static void put_hunk(FILE *f, const row *r, size_t from, size_t to, const lines *a,
                     const lines *b) {
  size_t na = 0, nb = 0;
  for (size_t k = from; k < to; k++) {
    na += r[k].op != '+';
    nb += r[k].op != '-';
  }
  fprintf(f, "@@ -%zu,%zu +%zu,%zu @@\n", r[from].i + (na ? 1 : 0), na, r[from].j + (nb ? 1 : 0),
          nb);
  for (size_t k = from; k < to; k++) {
    if (r[k].op == '+')
      put_line(f, '+', b, r[k].j);
    else
      put_line(f, r[k].op, a, r[k].i);
  }
}

/* The rows, then the hunks: each change with CONTEXT rows around it, changes closer than
 * 2 * CONTEXT rows in one hunk. */
static int put_hunks(FILE *f, const lines *a, const lines *b, const char *da, const char *ib) {
  row *r = malloc((a->n + b->n + 1) * sizeof *r);
  if (!r) return -1;
  size_t nr = 0, i = 0, j = 0;
  while (i < a->n || j < b->n) {
    row x = {' ', i, j};
    if (i < a->n && da[i])
      x.op = '-', i++;
    else if (j < b->n && ib[j])
      x.op = '+', j++;
    else
      i++, j++;
    r[nr++] = x;
  }
  size_t k = 0;
  while (k < nr) {
    while (k < nr && r[k].op == ' ') k++;
    if (k == nr) break;
    size_t from = k > CONTEXT ? k - CONTEXT : 0, last = k;
    for (size_t t = k + 1; t < nr && t <= last + 2 * CONTEXT + 1; t++)
      if (r[t].op != ' ') last = t;
    size_t to = last + 1 + CONTEXT < nr ? last + 1 + CONTEXT : nr;
    put_hunk(f, r, from, to, a, b);
    k = last + 1;
  }
  free(r);
  return 0;
}

/* One header line: `mark` (the "---" or "+++"), then `side` ("a/", "b/") and the path as git
 * writes them: in double quotes with C escapes (\n, \t, \", \\, ..., \ooo in octal for the other
 * control bytes and every byte from 0x7f up, git's core.quotePath) when the path holds one of
 * those, else as it is; followed by a tab when it holds a space (so that patch(1) does not read
 * what follows the space as a date). `git apply` and GNU patch read both forms back. */
static void put_name(FILE *f, const char *mark, const char *side, const char *path) {
  static const char esc[] = "abtnvfr"; /* the letters of bytes 7 to 13 */
  const unsigned char *p = (const unsigned char *)path;
  int quote = 0;
  for (size_t i = 0; p[i]; i++)
    quote |= p[i] < 0x20 || p[i] >= 0x7f || p[i] == '"' || p[i] == '\\';
  fprintf(f, "%s %s%s", mark, quote ? "\"" : "", side);
  for (size_t i = 0; quote && p[i]; i++) {
    if (p[i] >= 7 && p[i] <= 13) fprintf(f, "\\%c", esc[p[i] - 7]);
    else if (p[i] == '"' || p[i] == '\\') fprintf(f, "\\%c", p[i]);
    else if (p[i] < 0x20 || p[i] >= 0x7f) fprintf(f, "\\%03o", p[i]);
    else fputc(p[i], f);
  }
  fprintf(f, "%s%s\n", quote ? "\"" : path, strchr(path, ' ') ? "\t" : "");
}

int cli_diff_print(FILE *f, const char *path, const char *a, size_t alen, const char *b,
                   size_t blen) {
  if (alen == blen && !memcmp(a, b, alen)) return 0;
  lines la = {0}, lb = {0};
  char *da = NULL, *ib = NULL;
  int rc = -1;
  if (split(&la, a, alen) || split(&lb, b, blen)) goto out;
  da = calloc(la.n + 1, 1);
  ib = calloc(lb.n + 1, 1);
  if (!da || !ib) goto out;
  size_t head = 0, tail = 0;
  while (head < la.n && head < lb.n && same(&la, head, &lb, head)) head++;
  while (tail < la.n - head && tail < lb.n - head &&
         same(&la, la.n - 1 - tail, &lb, lb.n - 1 - tail))
    tail++;
  if (mark(&la, head, la.n - head - tail, &lb, head, lb.n - head - tail, da, ib)) goto out;
  while (path[0] == '.' && path[1] == '/') path += 2;
  put_name(f, "---", "a/", path);
  put_name(f, "+++", "b/", path);
  rc = put_hunks(f, &la, &lb, da, ib);
out:
  free(la.at);
  free(lb.at);
  free(da);
  free(ib);
  return rc;
}

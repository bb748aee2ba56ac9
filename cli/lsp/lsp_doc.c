/* Documents of `boxlint lsp`: their text as the client edits it, and positions. A position is
 * (line, character): lines end at \n, \r\n or \r (LSP 3.17 §Text Documents), and `character`
 * counts UTF-16 code units, UTF-8 bytes or code points, as negotiated. The text always holds
 * valid UTF-8 (jansson has decoded it from JSON), so a code point is 1 to 4 bytes and takes two
 * UTF-16 units from 4 bytes on. Owns the conversions and the file: URI mapping; calls libc and
 * jansson only. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lsp/lsp.h"

/* Bytes of the UTF-8 sequence led by c (1 for a stray continuation byte). */
static size_t seq_len(unsigned char c) { return c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4; }

/* Units of one character of `bytes` bytes in the encoding. */
static int64_t units(enum lsp_enc enc, size_t bytes) {
  return enc == LSP_UTF8 ? (int64_t)bytes : enc == LSP_UTF32 ? 1 : bytes == 4 ? 2 : 1;
}

/* The start of line `line`, or -1. */
static int line_start(const char *t, size_t n, int64_t line, size_t *at) {
  size_t i = 0;
  for (int64_t l = 0; l < line; l++) {
    while (i < n && t[i] != '\n' && t[i] != '\r') i++;
    if (i == n) return -1;
    i += t[i] == '\r' && i + 1 < n && t[i + 1] == '\n' ? 2 : 1;
  }
  *at = i;
  return 0;
}

/* The offset of character `ch` of the line that starts at i (its end when the line is shorter;
 * the start of the character holding it). */
static size_t in_line(const char *t, size_t n, enum lsp_enc enc, size_t i, int64_t ch) {
  int64_t u = 0;
  while (i < n && t[i] != '\n' && t[i] != '\r') {
    size_t l = seq_len((unsigned char)t[i]);
    if (i + l > n) l = n - i;
    int64_t w = units(enc, l);
    if (u + w > ch) break; /* ch is inside this character: its start */
    u += w;
    i += l;
  }
  return i;
}

int lsp_offset(const char *t, size_t n, enum lsp_enc enc, int64_t line, int64_t ch, size_t *off) {
  size_t i;
  if (line < 0 || ch < 0 || line_start(t, n, line, &i)) return -1;
  *off = in_line(t, n, enc, i, ch);
  return 0;
}

int lsp_doc_offset(const lsp_doc *d, enum lsp_enc enc, int64_t line, int64_t ch, size_t *off) {
  if (!d->ls_ok) return lsp_offset(d->text, d->len, enc, line, ch, off);
  if (line < 0 || ch < 0 || (uint64_t)line >= d->nls) return -1; /* nls: the breaks + 1 */
  *off = in_line(d->text, d->len, enc, d->ls[line], ch);
  return 0;
}

/* The first index of the increasing starts ls[0..n) whose start is after x. */
static size_t starts_after(const size_t *ls, size_t n, size_t x) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    if (ls[m] > x) hi = m;
    else lo = m + 1;
  }
  return lo;
}

/* The walk shared by the scan and the checkpoints: over characters from `i` (a character
 * start) to `stop`, the line and the units since the line's start. A line ends at \n, at \r\n
 * (counted at the \n) and at a lone \r; the text is valid UTF-8. */
/* Bytes from t[i] before `stop` that are ASCII and no line break (\n, \r): one unit each in
 * every encoding. Eight at a time while none of the eight is one of those. */
static size_t plain_run(const char *t, size_t i, size_t stop) {
  const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
  size_t j = i;
  while (j + 8 <= stop) {
    uint64_t x;
    memcpy(&x, t + j, 8);
    uint64_t lf = x ^ (ones * '\n'), cr = x ^ (ones * '\r');
    if ((x | ((lf - ones) & ~lf) | ((cr - ones) & ~cr)) & high) break;
    j += 8;
  }
  while (j < stop && (unsigned char)t[j] < 0x80 && t[j] != '\n' && t[j] != '\r') j++;
  return j - i;
}

/* t[0, n) is ASCII without \r. */
static int ascii_no_cr(const char *t, size_t n) {
  const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
  uint64_t bad = 0;
  size_t j = 0;
  for (; j + 8 <= n; j += 8) {
    uint64_t x;
    memcpy(&x, t + j, 8);
    uint64_t cr = x ^ (ones * '\r');
    bad |= (x | ((cr - ones) & ~cr)) & high;
  }
  for (; j < n; j++)
    if ((unsigned char)t[j] >= 0x80 || t[j] == '\r') bad = 1;
  return !bad;
}

static void walk(const char *t, size_t n, enum lsp_enc enc, size_t i, size_t stop, int clip,
                 int64_t *line, int64_t *u, size_t *next) {
  int64_t l = *line, w = *u;
  while (i < stop) {
    size_t r = plain_run(t, i, stop);
    w += (int64_t)r;
    i += r;
    if (i >= stop) break;
    if (t[i] == '\n' || (t[i] == '\r' && !(i + 1 < n && t[i + 1] == '\n'))) {
      l++;
      w = 0;
      i++;
      continue;
    }
    size_t s = seq_len((unsigned char)t[i]);
    if (i + s > n) s = n - i;
    if (clip && i + s > stop) s = stop - i; /* not valid UTF-8: as far as asked */
    for (size_t j = 1; j < s; j++) /* not valid UTF-8: a line break is never inside */
      if (t[i + j] == '\n' || t[i + j] == '\r') s = j;
    w += units(enc, s);
    i += s;
  }
  *line = l;
  *u = w;
  *next = i;
}

static _Thread_local struct {
  const char *t;
  size_t n, nb;
  enum lsp_enc enc;
  int64_t *line, *u; /* before the first character starting at or after k * LSP_BLOCK */
  size_t *at;        /* that character's offset */
  int ascii;         /* the text is ASCII without \r: a byte is a character and a unit */
  const size_t *ls;  /* a document's line starts (lsp_positions_begin_doc), or NULL */
  size_t nls;
  size_t hint;       /* the line of the last position asked: a publish asks them in order */
  int ascii_doc;     /* the document has no byte that is not ASCII, nor \r */
  int tried;         /* the checkpoints were built for a document's scope, or could not be */
} scope;

/* The line holding offset x: the last k with ls[k] <= x (ls[0] = 0), from the hint's line or a
 * few after it, else by a binary search. */
static size_t line_of(size_t x) {
  size_t k = scope.hint < scope.nls ? scope.hint : 0;
  if (scope.ls[k] <= x)
    for (int step = 0; step < 4; step++, k++)
      if (k + 1 == scope.nls || scope.ls[k + 1] > x) return scope.hint = k;
  return scope.hint = starts_after(scope.ls, scope.nls, x) - 1;
}

void lsp_positions_end(void) {
  free(scope.line);
  free(scope.u);
  free(scope.at);
  memset(&scope, 0, sizeof scope);
}

/* The checkpoints of t[0, n) into the scope (scope.line NULL when out of memory). */
static void checkpoints(const char *t, size_t n, enum lsp_enc enc) {
  size_t nb = n / LSP_BLOCK + 1;
  scope.line = malloc(nb * sizeof *scope.line);
  scope.u = malloc(nb * sizeof *scope.u);
  scope.at = malloc(nb * sizeof *scope.at);
  if (!scope.line || !scope.u || !scope.at) {
    free(scope.line);
    free(scope.u);
    free(scope.at);
    scope.line = scope.u = NULL;
    scope.at = NULL;
    return;
  }
  int64_t l = 0, w = 0;
  size_t i = 0;
  scope.ascii = ascii_no_cr(t, n);
  if (scope.ascii) {
    /* ASCII and no \r (every character one byte and one unit, lines end at \n): each block's
     * start is a character's, on the line of the \n before it */
    const char *lf = memchr(t, '\n', n);
    size_t ls = 0; /* the start of the line of offset k * LSP_BLOCK */
    for (size_t k = 0; k < nb; k++) {
      size_t stop = k * LSP_BLOCK;
      while (lf && (size_t)(lf - t) < stop) {
        l++;
        ls = (size_t)(lf - t) + 1;
        lf = memchr(lf + 1, '\n', n - ls);
      }
      scope.line[k] = l;
      scope.u[k] = (int64_t)(stop - ls);
      scope.at[k] = stop;
    }
  } else {
    for (size_t k = 0; k < nb; k++) {
      size_t stop = k * LSP_BLOCK;
      if (i < stop) walk(t, n, enc, i, stop, 0, &l, &w, &i);
      scope.line[k] = l;
      scope.u[k] = w;
      scope.at[k] = i;
    }
  }
  scope.nb = nb;
}

void lsp_positions_begin(const char *t, size_t n, enum lsp_enc enc) {
  lsp_positions_end();
  checkpoints(t, n, enc);
  if (!scope.line) return;
  scope.t = t;
  scope.n = n;
  scope.enc = enc;
}

void lsp_positions_begin_doc(const lsp_doc *d, enum lsp_enc enc) {
  if (!d->ls_ok) {
    lsp_positions_begin(d->text, d->len, enc);
    return;
  }
  lsp_positions_end();
  scope.t = d->text;
  scope.n = d->len;
  scope.enc = enc;
  scope.ls = d->ls;
  scope.nls = d->nls;
  scope.ascii_doc = d->nonascii == 0;
}

/* A position this far into its line is found from the checkpoints (built once per scope), so
 * that the findings of a long line cost what its length does, not that times their number. */
enum { LINE_SCAN = 1024 };

void lsp_position(const char *t, size_t n, enum lsp_enc enc, size_t off, int64_t *line,
                  int64_t *ch) {
  if (off > n) off = n;
  if (scope.ascii_doc && scope.t == t && scope.n == n && scope.enc == enc) {
    size_t k = line_of(off);
    *line = (int64_t)k;
    *ch = (int64_t)(off - scope.ls[k]);
    return;
  }
  if (scope.ascii && scope.t == t && scope.n == n && scope.enc == enc && scope.line) {
    size_t k = off / LSP_BLOCK, ls = scope.at[k] - (size_t)scope.u[k];
    int64_t l = scope.line[k];
    for (size_t i = scope.at[k]; i < off; i++)
      if (t[i] == '\n') {
        l++;
        ls = i + 1;
      }
    *line = l;
    *ch = (int64_t)(off - ls);
    return;
  }
  while (off > 0 && off < n && ((unsigned char)t[off] & 0xC0) == 0x80) off--;
  /* an offset between \r and \n is the end of the line */
  size_t stop = off > 0 && t[off - 1] == '\r' && off < n && t[off] == '\n' ? off - 1 : off;
  int64_t l = 0, u = 0;
  size_t i = 0;
  int same = scope.t == t && scope.n == n && scope.enc == enc;
  if (same && scope.ls) {
    size_t k = line_of(stop);
    if (stop - scope.ls[k] > LINE_SCAN && !scope.tried) {
      scope.tried = 1;
      checkpoints(t, n, enc);
    }
    if (stop - scope.ls[k] <= LINE_SCAN || !scope.line) {
      l = (int64_t)k; /* a line's start: the walk from 0 passes it with no units counted */
      i = scope.ls[k];
      walk(t, n, enc, i, stop, 1, &l, &u, &i);
      *line = l;
      *ch = u;
      return;
    }
  }
  if (same && scope.line) {
    size_t k = stop / LSP_BLOCK;
    if (k > 0 && scope.at[k] > stop) k--;
    l = scope.line[k];
    u = scope.u[k];
    i = scope.at[k];
  }
  walk(t, n, enc, i, stop, 1, &l, &u, &i);
  *line = l;
  *ch = u;
}

json_t *lsp_pos_json(const char *t, size_t n, enum lsp_enc enc, size_t off) {
  int64_t l, c;
  lsp_position(t, n, enc, off, &l, &c);
  return json_pack("{sIsI}", "line", (json_int_t)l, "character", (json_int_t)c);
}

json_t *lsp_range_json(const char *t, size_t n, enum lsp_enc enc, size_t a, size_t b) {
  return json_pack("{soso}", "start", lsp_pos_json(t, n, enc, a), "end",
                   lsp_pos_json(t, n, enc, b < a ? a : b));
}

static int pos_offset(const lsp_doc *d, enum lsp_enc enc, json_t *p, size_t *off) {
  json_t *l = json_object_get(p, "line"), *c = json_object_get(p, "character");
  if (!json_is_integer(l) || !json_is_integer(c)) return -1;
  return lsp_doc_offset(d, enc, json_integer_value(l), json_integer_value(c), off);
}

int lsp_doc_range_offsets(const lsp_doc *d, enum lsp_enc enc, json_t *range, size_t *a,
                          size_t *b, const char **why) {
  if (!json_is_object(range) || pos_offset(d, enc, json_object_get(range, "start"), a) ||
      pos_offset(d, enc, json_object_get(range, "end"), b)) {
    *why = "the range is not a valid position pair in the document";
    return -1;
  }
  if (*b < *a) {
    *why = "the range ends before it starts";
    return -1;
  }
  return 0;
}

int lsp_range_offsets(const char *t, size_t n, enum lsp_enc enc, json_t *range, size_t *a,
                      size_t *b, const char **why) {
  lsp_doc tmp = {.text = (char *)(uintptr_t)t, .len = n}; /* no line starts: plain scans */
  return lsp_doc_range_offsets(&tmp, enc, range, a, b, why);
}

static int reserve(lsp_doc *d, size_t need) {
  if (need + 1 <= d->cap) return 0;
  size_t cap = d->cap ? d->cap : 256;
  while (cap < need + 1) cap *= 2;
  char *p = realloc(d->text, cap);
  if (!p) return -1;
  d->text = p;
  d->cap = cap;
  return 0;
}

/* Does a line start at q: after \n, or after a \r that no \n follows (a \r at the end too)? */
static int is_start(const char *t, size_t n, size_t q) {
  return q > 0 && (t[q - 1] == '\n' || (t[q - 1] == '\r' && (q >= n || t[q] != '\n')));
}

static int ls_reserve(lsp_doc *d, size_t need) {
  if (need <= d->capls) return 0;
  size_t cap = d->capls ? d->capls : 64;
  while (cap < need) cap *= 2;
  size_t *p = realloc(d->ls, cap * sizeof *p);
  if (!p) return -1;
  d->ls = p;
  d->capls = cap;
  return 0;
}

static int ls_push(lsp_doc *d, size_t q) {
  if (ls_reserve(d, d->nls + 1)) return -1;
  d->ls[d->nls++] = q;
  return 0;
}

/* Every line start of the text (ls_ok 0 when out of memory). */
static void ls_build(lsp_doc *d) {
  const char *t = d->text;
  size_t n = d->len;
  d->nls = 0;
  d->ls_ok = 0;
  if (ls_push(d, 0)) return;
  if (!memchr(t, '\r', n)) {
    for (const char *p = memchr(t, '\n', n); p; p = memchr(p + 1, '\n', n - (size_t)(p + 1 - t)))
      if (ls_push(d, (size_t)(p - t) + 1)) return;
  } else {
    for (size_t q = 1; q <= n; q++)
      if (is_start(t, n, q) && ls_push(d, q)) return;
  }
  d->ls_ok = 1;
}

/* After bytes [a, b) of the text became sl bytes: a start depends on the bytes before it and at
 * it, so the starts before a stay, those after b move by the change of length, and those from
 * a to a + sl are found again in the new text. */
static void ls_update(lsp_doc *d, size_t a, size_t b, size_t sl) {
  if (!d->ls_ok) {
    ls_build(d);
    return;
  }
  size_t lo = a ? starts_after(d->ls, d->nls, a - 1) : 1, hi = starts_after(d->ls, d->nls, b);
  size_t tail = d->nls - hi, k = 0, q0 = a ? a : 1, q1 = a + sl;
  for (size_t q = q0; q <= q1; q++) k += (size_t)is_start(d->text, d->len, q);
  if (ls_reserve(d, lo + k + tail)) {
    d->ls_ok = 0;
    return;
  }
  memmove(d->ls + lo + k, d->ls + hi, tail * sizeof *d->ls);
  for (size_t i = lo + k; i < lo + k + tail; i++) d->ls[i] = d->ls[i] - b + a + sl;
  for (size_t q = q0, w = lo; q <= q1; q++)
    if (is_start(d->text, d->len, q)) d->ls[w++] = q;
  d->nls = lo + k + tail;
}

/* The bytes of t[0, n) that are not ASCII, or \r. */
static size_t count_nonascii(const char *t, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += (unsigned char)t[i] >= 0x80 || t[i] == '\r';
  return k;
}

int lsp_doc_set(lsp_doc *d, const char *text, size_t len) {
  if (reserve(d, len)) return -1;
  d->nonascii = count_nonascii(text, len);
  memcpy(d->text, text, len);
  d->len = len;
  d->text[len] = 0;
  ls_build(d);
  return 0;
}

void lsp_doc_text_free(lsp_doc *d) {
  free(d->text);
  free(d->ls);
  free(d->ck);
  d->text = NULL;
  d->ls = d->ck = NULL;
  d->len = d->cap = d->nls = d->capls = d->nck = d->capck = d->nonascii = 0;
  d->ls_ok = 0;
}

int lsp_change_span(const lsp_doc *d, enum lsp_enc enc, json_t *change, size_t *a, size_t *b,
                    const char **s, size_t *sl, const char **why) {
  json_t *tx = json_object_get(change, "text"), *range = json_object_get(change, "range");
  if (!json_is_string(tx)) {
    *why = "a content change without a text";
    return -1;
  }
  *s = json_string_value(tx);
  *sl = json_string_length(tx);
  if (!range) {
    *a = 0;
    *b = d->len;
    return 1;
  }
  return lsp_doc_range_offsets(d, enc, range, a, b, why);
}

int lsp_doc_replace(lsp_doc *d, size_t a, size_t b, const char *s, size_t sl) {
  size_t nl = d->len - (b - a) + sl;
  if (reserve(d, nl)) return -1;
  d->nonascii = d->nonascii - count_nonascii(d->text + a, b - a) + count_nonascii(s, sl);
  memmove(d->text + a + sl, d->text + b, d->len - b);
  memcpy(d->text + a, s, sl);
  d->len = nl;
  d->text[nl] = 0;
  ls_update(d, a, b, sl);
  return 0;
}

int lsp_doc_change(lsp_doc *d, enum lsp_enc enc, json_t *change, const char **why) {
  size_t a, b, sl;
  const char *s;
  int k = lsp_change_span(d, enc, change, &a, &b, &s, &sl, why);
  if (k < 0) return -1;
  if (k ? lsp_doc_set(d, s, sl) : lsp_doc_replace(d, a, b, s, sl)) {
    *why = "out of memory";
    return -1;
  }
  return 0;
}

static int hexval(char c) {
  return c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
}

char *lsp_uri_path(const char *uri) {
  if (strncmp(uri, "file://", 7)) return NULL;
  const char *p = uri + 7;
  if (*p != '/') { /* file://host/path: only the local host */
    if (strncmp(p, "localhost/", 10)) return NULL;
    p += 9;
  }
  size_t n = strlen(p);
  char *o = malloc(n + 1), *w = o;
  if (!o) return NULL;
  for (size_t i = 0; i < n; i++) {
    int h, l;
    if (p[i] == '%' && i + 2 < n + 1 && (h = hexval(p[i + 1])) >= 0 && (l = hexval(p[i + 2])) >= 0) {
      *w++ = (char)(h * 16 + l);
      i += 2;
    } else if (p[i] == '?' || p[i] == '#') {
      break;
    } else {
      *w++ = p[i];
    }
  }
  *w = 0;
  return o;
}

char *lsp_path_uri(const char *path) {
  static const char hx[] = "0123456789ABCDEF";
  size_t n = strlen(path);
  char *o = malloc(7 + n * 3 + 1), *w = o;
  if (!o) return NULL;
  memcpy(w, "file://", 7);
  w += 7;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)path[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        strchr("/-._~", c)) {
      *w++ = (char)c;
    } else {
      *w++ = '%';
      *w++ = hx[c >> 4];
      *w++ = hx[c & 15];
    }
  }
  *w = 0;
  return o;
}

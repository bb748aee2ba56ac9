/* A message's JSON parsed as json_loadb(body, len, JSON_ALLOW_NUL) parses it, with its long
 * string literals (a whole text in didOpen or didChange: 100 KB) decoded here instead of by
 * jansson, whose lexer takes a hundred-odd instructions a byte. Each literal of LONG_STR bytes or
 * more is validated and decoded as jansson does (the escapes, \u with its surrogate pairs, no
 * control character, UTF-8 as jansson's utf8_check_first and utf8_check_full accept it), and
 * stands in the body jansson parses as a short marker string, which the decoded text replaces in
 * the tree. Anything else falls back on json_loadb of the body as it came, which then gives
 * the answer and the error: a literal this decoder refuses or is not sure of, a parse of the
 * marked body that fails, a marker that is not found exactly once among the values (a key, or a
 * client's string equal to one). A marked body that parses is the body's structure with other
 * strings in it, so the body parses too, to the same tree once the texts are put back. Calls
 * libc and jansson only. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lsp/lsp.h"

enum { LONG_STR = 4096, MAX_LONG = 8, MAX_DEPTH = 64 };

typedef struct long_str {
  size_t q, e; /* the literal's opening quote and closing quote in the body */
  char *s;     /* decoded */
  size_t n;
} long_str;

static int hex(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Four hex digits at t[i..]: their value, or -1. */
static int32_t hex4(const char *t, size_t n, size_t i) {
  if (i + 4 > n) return -1;
  int32_t v = 0;
  for (size_t k = 0; k < 4; k++) {
    int h = hex(t[i + k]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

static size_t put_utf8(char *o, int32_t v) {
  if (v < 0x80) {
    o[0] = (char)v;
    return 1;
  }
  if (v < 0x800) {
    o[0] = (char)(0xC0 | (v >> 6));
    o[1] = (char)(0x80 | (v & 0x3F));
    return 2;
  }
  if (v < 0x10000) {
    o[0] = (char)(0xE0 | (v >> 12));
    o[1] = (char)(0x80 | ((v >> 6) & 0x3F));
    o[2] = (char)(0x80 | (v & 0x3F));
    return 3;
  }
  o[0] = (char)(0xF0 | (v >> 18));
  o[1] = (char)(0x80 | ((v >> 12) & 0x3F));
  o[2] = (char)(0x80 | ((v >> 6) & 0x3F));
  o[3] = (char)(0x80 | (v & 0x3F));
  return 4;
}

/* The escape after the backslash at t[i] into o: its length in the body (0: refused), its
 * decoded bytes in *ol. */
static size_t escape(const char *t, size_t n, size_t i, char *o, size_t *ol) {
  if (i + 1 >= n) return 0;
  char c = t[i + 1];
  char one = c == '"' || c == '\\' || c == '/' ? c : c == 'b' ? '\b' : c == 'f' ? '\f'
             : c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : 0;
  if (one) {
    *o = one;
    *ol = 1;
    return 2;
  }
  if (c != 'u') return 0;
  int32_t v = hex4(t, n, i + 2);
  if (v < 0 || (v >= 0xDC00 && v <= 0xDFFF)) return 0;
  if (v >= 0xD800 && v <= 0xDBFF) { /* a pair, or refused */
    if (i + 7 >= n || t[i + 6] != '\\' || t[i + 7] != 'u') return 0;
    int32_t w = hex4(t, n, i + 8);
    if (w < 0xDC00 || w > 0xDFFF) return 0;
    *ol = put_utf8(o, 0x10000 + ((v - 0xD800) << 10) + (w - 0xDC00));
    return 12;
  }
  *ol = put_utf8(o, v);
  return 6;
}

/* The UTF-8 sequence at t[i] as jansson reads one: its length, or 0 (refused). */
static size_t utf8_seq(const unsigned char *t, size_t n, size_t i) {
  unsigned char c = t[i];
  size_t k = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (!k || i + k > n) return 0;
  int32_t v = k == 2 ? c & 0x1F : k == 3 ? c & 0x0F : c & 0x07;
  for (size_t j = 1; j < k; j++) {
    if ((t[i + j] & 0xC0) != 0x80) return 0;
    v = (v << 6) | (t[i + j] & 0x3F);
  }
  if ((k == 3 && v < 0x800) || (k == 4 && v < 0x10000) || v > 0x10FFFF ||
      (v >= 0xD800 && v <= 0xDFFF))
    return 0;
  return k;
}

/* Bytes from t[i] that are printable ASCII but '"' and '\\', eight at a time. */
static size_t plain(const char *t, size_t i, size_t n) {
  const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
  size_t j = i;
  while (j + 8 <= n) {
    uint64_t x, q, b;
    memcpy(&x, t + j, 8);
    q = x ^ (ones * '"');
    b = x ^ (ones * '\\');
    if ((x | ((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((b - ones) & ~b)) & high) break;
    j += 8;
  }
  while (j < n && (unsigned char)t[j] >= 0x20 && (unsigned char)t[j] < 0x80 && t[j] != '"' &&
         t[j] != '\\')
    j++;
  return j - i;
}

/* The literal whose body starts at t[i] decoded into o (room for its raw length): the offset
 * of its closing quote, or SIZE_MAX when jansson would refuse it. */
static size_t decode(const char *t, size_t n, size_t i, char *o, size_t *ol) {
  size_t w = 0;
  for (;;) {
    size_t r = plain(t, i, n);
    memcpy(o + w, t + i, r);
    w += r;
    i += r;
    if (i >= n) return SIZE_MAX;
    unsigned char c = (unsigned char)t[i];
    if (c == '"') break;
    size_t k, el = 0;
    if (c == '\\') k = escape(t, n, i, o + w, &el);
    else if (c < 0x20) k = 0;
    else k = el = utf8_seq((const unsigned char *)t, n, i);
    if (!k) return SIZE_MAX;
    if (c >= 0x80) memcpy(o + w, t + i, k);
    w += el;
    i += k;
  }
  *ol = w;
  return i;
}

/* The closing quote of the literal whose body starts at t[i] (a backslash escapes the byte
 * after it), or SIZE_MAX. */
static size_t literal_end(const char *t, size_t n, size_t i) {
  for (;;) {
    i += plain(t, i, n);
    if (i >= n) return SIZE_MAX;
    if (t[i] == '"') return i;
    i += t[i] == '\\' ? 2 : 1;
  }
}

/* The long literals of the body, decoded, in order: their number, or -1 (the plain parse; what
 * was decoded is in ls[] to be freed). */
static int find_long(const char *t, size_t n, long_str *ls) {
  int k = 0;
  const char *q;
  for (size_t i = 0; (q = memchr(t + i, '"', n - i)) != NULL;) {
    size_t s = (size_t)(q - t) + 1, e = literal_end(t, n, s);
    if (e == SIZE_MAX) return -1; /* jansson says what is wrong */
    if (e - s >= LONG_STR) {
      if (k == MAX_LONG || !(ls[k].s = malloc(e - s))) return -1;
      if (decode(t, n, s, ls[k].s, &ls[k].n) != e) return -1;
      ls[k].q = s - 1;
      ls[k].e = e;
      k++;
    }
    i = e + 1;
  }
  return k;
}

/* The marker of long literal k, as a JSON literal (in m, its length returned) or decoded. */
static size_t marker(int k, int json, char *m) {
  return (size_t)snprintf(m, 32, json ? "\"\\u0000lsp-long-%d\"" : "%clsp-long-%d", json ? k : 0,
                          k);
}

/* The long literal a string value marks, or -1. */
static int marked(json_t *v, int nl) {
  char m[32];
  size_t n = json_string_length(v);
  const char *s = json_string_value(v);
  if (n < 11 || n > 12 || s[0] || memcmp(s + 1, "lsp-long-", 9)) return -1;
  int k = s[10] - '0';
  if (k < 0 || k >= nl || marker(k, 0, m) != n || memcmp(m, s, n)) return -1;
  return k;
}

/* Count in seen[] the markers among the values under v, or (`ls` not NULL) put the texts in
 * their place. Returns 0, or -1 (too deep, out of memory). */
static int put_back(json_t *v, int nl, int *seen, const long_str *ls, int depth) {
  if (depth > MAX_DEPTH) return -1;
  if (json_is_object(v)) {
    for (void *it = json_object_iter(v); it; it = json_object_iter_next(v, it)) {
      json_t *x = json_object_iter_value(it);
      int k = json_is_string(x) ? marked(x, nl) : -1;
      if (k >= 0 && !ls) seen[k]++;
      if (k >= 0 && ls && json_object_iter_set_new(v, it, json_stringn_nocheck(ls[k].s, ls[k].n)))
        return -1;
      if (k < 0 && put_back(x, nl, seen, ls, depth + 1)) return -1;
    }
  } else if (json_is_array(v)) {
    for (size_t i = 0; i < json_array_size(v); i++) {
      json_t *x = json_array_get(v, i);
      int k = json_is_string(x) ? marked(x, nl) : -1;
      if (k >= 0 && !ls) seen[k]++;
      if (k >= 0 && ls && json_array_set_new(v, i, json_stringn_nocheck(ls[k].s, ls[k].n)))
        return -1;
      if (k < 0 && put_back(x, nl, seen, ls, depth + 1)) return -1;
    }
  }
  return 0;
}

/* The body with its long literals as markers, parsed and the texts put back; NULL: the plain
 * parse. */
static json_t *parse_marked(const char *body, size_t len, const long_str *ls, int nl) {
  char *mb = malloc(len + 1), m[32];
  if (!mb) return NULL;
  size_t w = 0, i = 0;
  for (int k = 0; k < nl; k++) {
    memcpy(mb + w, body + i, ls[k].q - i);
    w += ls[k].q - i;
    size_t ml = marker(k, 1, m);
    memcpy(mb + w, m, ml);
    w += ml;
    i = ls[k].e + 1;
  }
  memcpy(mb + w, body + i, len - i);
  w += len - i;
  json_error_t e;
  json_t *root = json_loadb(mb, w, JSON_ALLOW_NUL, &e);
  free(mb);
  int seen[MAX_LONG] = {0}, ok = root && !put_back(root, nl, seen, NULL, 0);
  for (int k = 0; ok && k < nl; k++) ok = seen[k] == 1;
  if (!ok || put_back(root, nl, seen, ls, 0)) {
    json_decref(root);
    return NULL;
  }
  return root;
}

json_t *lsp_json_parse(const char *body, size_t len, json_error_t *e) {
  long_str ls[MAX_LONG];
  memset(ls, 0, sizeof ls);
  int nl = len >= LONG_STR ? find_long(body, len, ls) : 0;
  json_t *root = nl > 0 ? parse_marked(body, len, ls, nl) : NULL;
  for (int k = 0; k < MAX_LONG; k++) free(ls[k].s);
  return root ? root : json_loadb(body, len, JSON_ALLOW_NUL, e);
}

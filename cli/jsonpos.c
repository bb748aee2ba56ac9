/* Positions inside JSON text: jansson validates and decodes, this finds where values are, so
 * that diagnostics point into the file where the offending value is. */
#include "jsonpos.h"
#include <string.h>

size_t jp_ws(const char *s, size_t n, size_t i) {
  while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
  return i;
}

static size_t skip_string(const char *s, size_t n, size_t i) {
  for (i++; i < n && s[i] != '"'; i++)
    if (s[i] == '\\') i++;
  return i < n ? i + 1 : n;
}

size_t jp_skip(const char *s, size_t n, size_t i) {
  i = jp_ws(s, n, i);
  if (i >= n) return n;
  if (s[i] == '"') return skip_string(s, n, i);
  if (s[i] == '{' || s[i] == '[') {
    size_t depth = 0;
    for (; i < n; i++) {
      if (s[i] == '"') {
        i = skip_string(s, n, i) - 1;
      } else if (s[i] == '{' || s[i] == '[') {
        depth++;
      } else if (s[i] == '}' || s[i] == ']') {
        if (--depth == 0) return i + 1;
      }
    }
    return n;
  }
  while (i < n && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\n' &&
         s[i] != '\t' && s[i] != '\r')
    i++;
  return i;
}

size_t jp_member(const char *s, size_t n, size_t obj, const char *key, size_t *key_off) {
  size_t kl = strlen(key);
  size_t i = jp_ws(s, n, obj);
  if (i >= n || s[i] != '{') return SIZE_MAX;
  i++;
  for (;;) {
    i = jp_ws(s, n, i);
    if (i >= n || s[i] != '"') return SIZE_MAX;
    size_t ks = i, ke = skip_string(s, n, i);
    i = jp_ws(s, n, ke);
    if (i >= n || s[i] != ':') return SIZE_MAX;
    size_t v = jp_ws(s, n, i + 1);
    /* Keys with escapes are compared raw: good enough to locate, never to decide. */
    if (ke - ks - 2 == kl && !memcmp(s + ks + 1, key, kl)) {
      if (key_off) *key_off = ks;
      return v;
    }
    i = jp_ws(s, n, jp_skip(s, n, v));
    if (i >= n || s[i] != ',') return SIZE_MAX;
    i++;
  }
}

size_t jp_element(const char *s, size_t n, size_t arr, size_t idx) {
  size_t i = jp_ws(s, n, arr);
  if (i >= n || s[i] != '[') return SIZE_MAX;
  i = jp_ws(s, n, i + 1);
  if (i < n && s[i] == ']') return SIZE_MAX;
  for (size_t k = 0;; k++) {
    i = jp_ws(s, n, i);
    if (k == idx) return i;
    i = jp_ws(s, n, jp_skip(s, n, i));
    if (i >= n || s[i] != ',') return SIZE_MAX;
    i++;
  }
}

static unsigned hexv(char c) {
  return (unsigned)(c >= '0' && c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
}

size_t jp_string_offset(const char *s, size_t n, size_t str, size_t d) {
  size_t i = str + 1, dec = 0;
  while (i < n && s[i] != '"') {
    size_t raw, out;
    if (s[i] != '\\') {
      raw = 1;
      out = 1;
    } else if (i + 1 < n && s[i + 1] == 'u' && i + 5 < n) {
      unsigned v = hexv(s[i + 2]) << 12 | hexv(s[i + 3]) << 8 | hexv(s[i + 4]) << 4 | hexv(s[i + 5]);
      raw = 6;
      if (v >= 0xD800 && v < 0xDC00 && i + 11 < n && s[i + 6] == '\\' && s[i + 7] == 'u') {
        raw = 12;
        out = 4;
      } else {
        out = v < 0x80 ? 1 : v < 0x800 ? 2 : 3;
      }
    } else {
      raw = 2;
      out = 1;
    }
    if (d < dec + out) return i;
    dec += out;
    i += raw;
  }
  return i; /* the closing quote: the end of the string */
}

void jp_line_col(const char *s, size_t n, size_t off, uint32_t *line, uint32_t *col) {
  uint32_t l = 1, c = 1;
  if (off > n) off = n;
  for (size_t i = 0; i < off; i++) {
    if (s[i] == '\n') {
      l++;
      c = 1;
    } else if (((unsigned char)s[i] & 0xC0) != 0x80) {
      c++;
    }
  }
  *line = l;
  *col = c;
}

size_t jp_path(const char *s, size_t n, const char *path) {
  return jp_path_at(s, n, 0, path);
}

size_t jp_path_at(const char *s, size_t n, size_t at, const char *path) {
  size_t v = at <= n ? jp_ws(s, n, at) : SIZE_MAX;
  const char *p = path;
  while (*p && v != SIZE_MAX) {
    if (*p == '.') p++;
    if (*p == '[') {
      size_t idx = 0;
      for (p++; *p >= '0' && *p <= '9'; p++) idx = idx * 10 + (size_t)(*p - '0');
      if (*p == ']') p++;
      v = jp_element(s, n, v, idx);
    } else {
      char key[128];
      size_t k = 0;
      while (*p && *p != '.' && *p != '[' && k < sizeof key - 1) key[k++] = *p++;
      key[k] = 0;
      v = jp_member(s, n, v, key, NULL);
    }
  }
  return v;
}

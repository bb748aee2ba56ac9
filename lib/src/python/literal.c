/* Python string literals with Python's semantics: the prefix (r, b, u, f in any case and
 * combination), the quote and triple quote, and every escape of a str or bytes literal (\n and
 * the other letters, octal, \x, \u, \U, \N{name} through libunistring's name table, a line
 * continuation), f-strings' doubled braces. Each decoded byte keeps the source offset of the
 * character that produced it, so that a finding inside a value points into the file. Calls
 * libunistring (uniname.h) only. */
#include <string.h>
#include <uniname.h>
#include "python/python_int.h"

void bl_py_piece(const char *s, const bl_pytok *t, bl_piece *p) {
  memset(p, 0, sizeof *p);
  size_t i = t->start;
  for (; s[i] != '\'' && s[i] != '"'; i++) {
    char c = (char)boxlint__lower((unsigned char)s[i]);
    p->flags |= c == 'r' ? BL_LIT_RAW : c == 'b' ? BL_LIT_BYTES : c == 'f' ? BL_LIT_FSTRING : 0u;
  }
  p->quote = s[i];
  p->start = t->start;
  p->end = t->end;
  size_t q = 1;
  if (t->end - i >= 6 && s[i + 1] == s[i] && s[i + 2] == s[i]) {
    p->flags |= BL_LIT_TRIPLE;
    q = 3;
  }
  p->body = i + q;
  p->body_end = t->end - q;
}

/* Append `n` bytes produced by the source character at `src`. */
static int put(const boxlint__mem *m, bl_pystr *o, size_t *cap, const char *b, size_t n,
               size_t src, size_t src_end, uint32_t piece) {
  if (o->len + n + 1 > *cap || !o->bytes) {
    size_t nc = (*cap ? *cap * 2 : 64);
    while (nc < o->len + n + 1) nc *= 2;
    char *nb = boxlint__realloc(m, o->bytes, *cap, nc);
    if (!nb) return -1;
    o->bytes = nb;
    size_t *ns = boxlint__realloc(m, o->src, *cap * sizeof *ns, nc * sizeof *ns);
    if (!ns) return -1;
    o->src = ns;
    size_t *ne = boxlint__realloc(m, o->src_end, *cap * sizeof *ne, nc * sizeof *ne);
    if (!ne) return -1;
    o->src_end = ne;
    uint32_t *np = boxlint__realloc(m, o->piece, *cap * sizeof *np, nc * sizeof *np);
    if (!np) return -1;
    o->piece = np;
    *cap = nc;
  }
  for (size_t k = 0; k < n; k++) {
    o->bytes[o->len] = b[k];
    o->src[o->len] = src;
    o->src_end[o->len] = src_end;
    o->piece[o->len] = piece;
    o->len++;
  }
  return 0;
}

/* Code point `cp` as UTF-8 (a lone surrogate as its three-byte form, which is not valid
 * UTF-8 and is reported as such). */
static size_t utf8(uint32_t cp, char *b) {
  if (cp < 0x80) { b[0] = (char)cp; return 1; }
  if (cp < 0x800) {
    b[0] = (char)(0xC0 | (cp >> 6));
    b[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    b[0] = (char)(0xE0 | (cp >> 12));
    b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    b[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  b[0] = (char)(0xF0 | (cp >> 18));
  b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  b[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = (char)(c | 0x20);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* \N{name}: the code point, or UINT32_MAX. Names are matched without regard to case. */
static uint32_t named(const char *s, size_t n) {
  char name[128];
  if (n == 0 || n >= sizeof name) return UINT32_MAX;
  for (size_t i = 0; i < n; i++) {
    if ((unsigned char)s[i] >= 0x80) return UINT32_MAX;
    name[i] = (char)((unsigned char)(s[i] - 'a') < 26 ? s[i] - 32 : s[i]);
  }
  name[n] = 0;
  ucs4_t c = unicode_name_character(name);
  return c == UNINAME_INVALID ? UINT32_MAX : (uint32_t)c;
}

typedef struct dec {
  const boxlint__mem *m;
  const char *s;
  const bl_piece *p;
  uint32_t index;
  bl_pystr *o;
  size_t cap;
  const char **err;
  size_t *err_off;
} dec;

static int bad(dec *d, size_t off, const char *msg) {
  *d->err = msg;
  *d->err_off = off;
  return 1;
}

/* \x, \u, \U with exactly `digits` hex digits at i (after the letter). */
static int hex_escape(dec *d, size_t bs, size_t i, int digits, uint32_t *cp) {
  uint32_t v = 0;
  for (int k = 0; k < digits; k++) {
    int h = i + (size_t)k < d->p->body_end ? hexval(d->s[i + (size_t)k]) : -1;
    if (h < 0)
      return bad(d, bs, digits == 2 ? "truncated \\xXX escape"
                        : digits == 4 ? "truncated \\uXXXX escape" : "truncated \\UXXXXXXXX escape");
    v = v * 16 + (uint32_t)h;
  }
  if (v > 0x10FFFF) return bad(d, bs, "illegal Unicode character in \\U escape");
  *cp = v;
  return 0;
}

/* The escape whose backslash is at `bs` (not raw); *next receives the offset after it. */
static int escape(dec *d, size_t bs, size_t *next) {
  const char *s = d->s;
  int bytes = (d->p->flags & BL_LIT_BYTES) != 0;
  char c = s[bs + 1], b[4];
  size_t i = bs + 2;
  uint32_t cp = UINT32_MAX;
  static const char from[] = "\\'\"abfnrtv", to[] = "\\'\"\a\b\f\n\r\t\v";
  const char *f = strchr(from, c);
  if (c == '\n' || c == '\r') { /* a line continuation: nothing */
    *next = i + (c == '\r' && i < d->p->body_end && s[i] == '\n');
    return 0;
  }
  if (c && f) cp = (unsigned char)to[f - from];
  else if (c >= '0' && c <= '7') {
    cp = (uint32_t)(c - '0');
    for (int k = 0; k < 2 && i < d->p->body_end && s[i] >= '0' && s[i] <= '7'; k++, i++)
      cp = cp * 8 + (uint32_t)(s[i] - '0');
    if (bytes) cp &= 0xFF;
  } else if (c == 'x') {
    if (hex_escape(d, bs, i, 2, &cp)) return 1;
    i += 2;
  } else if (!bytes && (c == 'u' || c == 'U')) {
    if (hex_escape(d, bs, i, c == 'u' ? 4 : 8, &cp)) return 1;
    i += c == 'u' ? 4 : 8;
  } else if (!bytes && c == 'N') {
    size_t e = i;
    while (e < d->p->body_end && s[e] != '}') e++;
    if (i >= d->p->body_end || s[i] != '{' || e >= d->p->body_end ||
        (cp = named(s + i + 1, e - i - 1)) == UINT32_MAX)
      return bad(d, bs, "malformed or unknown \\N character escape");
    i = e + 1;
  } else { /* not an escape: the backslash stays */
    *next = bs + 1;
    return put(d->m, d->o, &d->cap, "\\", 1, bs, bs + 1, d->index) ? -1 : 0;
  }
  *next = i;
  size_t l;
  if (bytes) { b[0] = (char)cp; l = 1; }
  else l = utf8(cp, b);
  return put(d->m, d->o, &d->cap, b, l, bs, i, d->index) ? -1 : 0;
}

/* One source character at i, not an escape: a line break is \n whatever its bytes. */
static int plain(dec *d, size_t i, size_t *next) {
  const char *s = d->s;
  unsigned char c = (unsigned char)s[i];
  if (c == '\r') {
    *next = i + 1 + (i + 1 < d->p->body_end && s[i + 1] == '\n');
    return put(d->m, d->o, &d->cap, "\n", 1, i, *next, d->index) ? -1 : 0;
  }
  size_t l = 1;
  if (c >= 0x80) {
    if (d->p->flags & BL_LIT_BYTES) return bad(d, i, "bytes can only contain ASCII literal characters");
    uint32_t cp;
    l = boxlint__utf8_decode((const unsigned char *)s + i, d->p->body_end - i, &cp);
    if (!l) return bad(d, i, "the source is not valid UTF-8");
  }
  if ((d->p->flags & BL_LIT_FSTRING) && (c == '{' || c == '}')) {
    if (i + 1 < d->p->body_end && (unsigned char)s[i + 1] == c) {
      l = 2; /* {{ or }} */
    } else if (c == '{') {
      /* A replacement field: the value is known only at run time; skip to its closing brace
       * (nested fields of a format spec included). */
      d->o->dynamic = 1;
      size_t j = i + 1;
      for (int depth = 1; j < d->p->body_end && depth; j++)
        depth += s[j] == '{' ? 1 : s[j] == '}' ? -1 : 0;
      *next = j;
      return 0;
    } else {
      return bad(d, i, "f-string: single '}' is not allowed");
    }
    *next = i + l;
    return put(d->m, d->o, &d->cap, s + i, 1, i, i + l, d->index) ? -1 : 0;
  }
  *next = i + l;
  return put(d->m, d->o, &d->cap, s + i, l, i, i + l, d->index) ? -1 : 0;
}

int bl_py_decode(const boxlint__mem *m, const char *s, const bl_piece *p, uint32_t index,
                 bl_pystr *out, const char **err, size_t *err_off) {
  dec d = {m, s, p, index, out, out->cap, err, err_off};
  int raw = (p->flags & BL_LIT_RAW) != 0, rc = 0;
  for (size_t i = p->body; rc == 0 && i < p->body_end;) {
    size_t next = i + 1;
    if (s[i] == '\\' && raw) {
      /* Raw: the backslash and the character after it both stay (a line break as \n). */
      rc = put(m, out, &d.cap, "\\", 1, i, i + 1, index);
      if (rc == 0 && i + 1 < p->body_end) rc = plain(&d, i + 1, &next);
    } else if (s[i] == '\\') {
      rc = escape(&d, i, &next);
    } else {
      rc = plain(&d, i, &next);
    }
    i = next;
  }
  /* The entry one past the end: where a byte appended would go. */
  if (rc == 0 && put(m, out, &d.cap, "", 0, 0, 0, index)) rc = -1;
  out->cap = d.cap;
  if (rc) return rc;
  out->src[out->len] = p->body_end;
  out->src_end[out->len] = p->body_end;
  out->piece[out->len] = index;
  return 0;
}

void bl_pystr_free(const boxlint__mem *m, bl_pystr *v) {
  boxlint__free(m, v->bytes);
  boxlint__free(m, v->src);
  boxlint__free(m, v->src_end);
  boxlint__free(m, v->piece);
  memset(v, 0, sizeof *v);
}

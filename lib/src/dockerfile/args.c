/*
 * Arguments as BuildKit's instruction parser checks them (docs/design.md §2.1), plus
 * the strict JSON reader that decides exec form (Go's encoding/json). Flags are in flags.c.
 */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "dockerfile/dockerfile_int.h"

/* ---- JSON ------------------------------------------------------------------------------ */

#define JSON_MAX_DEPTH 10000 /* encoding/json's limit: deeper is a syntax error */

typedef struct js {
  const unsigned char *p, *e;
} js;

static void js_ws(js *j) {
  while (j->p < j->e && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
}

static int js_hex(unsigned char c) {
  return boxlint__is_digit(c) || ((unsigned char)((c | 0x20) - 'a') < 6);
}

/* A string at j->p ('"'). Returns 0 or -1. */
static int js_string(js *j) {
  j->p++;
  while (j->p < j->e) {
    unsigned char c = *j->p++;
    if (c == '"') return 0;
    if (c < 0x20) return -1;
    if (c == '\\') {
      if (j->p >= j->e) return -1;
      c = *j->p++;
      if (c == 'u') {
        for (int k = 0; k < 4; k++)
          if (j->p >= j->e || !js_hex(*j->p++)) return -1;
      } else if (!strchr("\"\\/bfnrt", c) || c == 0) {
        return -1;
      }
    }
  }
  return -1;
}

static int js_number(js *j) {
  if (j->p < j->e && *j->p == '-') j->p++;
  if (j->p >= j->e) return -1;
  if (*j->p == '0') j->p++;
  else if (*j->p >= '1' && *j->p <= '9') while (j->p < j->e && boxlint__is_digit(*j->p)) j->p++;
  else return -1;
  if (j->p < j->e && *j->p == '.') {
    j->p++;
    if (j->p >= j->e || !boxlint__is_digit(*j->p)) return -1;
    while (j->p < j->e && boxlint__is_digit(*j->p)) j->p++;
  }
  if (j->p < j->e && (*j->p == 'e' || *j->p == 'E')) {
    j->p++;
    if (j->p < j->e && (*j->p == '+' || *j->p == '-')) j->p++;
    if (j->p >= j->e || !boxlint__is_digit(*j->p)) return -1;
    while (j->p < j->e && boxlint__is_digit(*j->p)) j->p++;
  }
  return 0;
}

static int js_lit(js *j, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(j->e - j->p) < n || memcmp(j->p, w, n) != 0) return -1;
  j->p += n;
  return 0;
}

/* One value, iteratively: containers are tracked with a bit stack (1 = object). */
static int js_value(js *j) {
  unsigned char stack[JSON_MAX_DEPTH / 8 + 1];
  size_t depth = 0;
  for (;;) {
    /* Parse a value start. */
    js_ws(j);
    if (j->p >= j->e) return -1;
    unsigned char c = *j->p;
    int opened = 0;
    if (c == '[' || c == '{') {
      if (depth >= JSON_MAX_DEPTH) return -1;
      if (c == '{') stack[depth / 8] = (unsigned char)(stack[depth / 8] | (1u << (depth % 8)));
      else stack[depth / 8] = (unsigned char)(stack[depth / 8] & ~(1u << (depth % 8)));
      depth++;
      j->p++;
      js_ws(j);
      if (j->p < j->e && *j->p == (c == '[' ? ']' : '}')) {
        j->p++;
        depth--;
      } else if (c == '{') {
        if (j->p >= j->e || *j->p != '"' || js_string(j)) return -1;
        js_ws(j);
        if (j->p >= j->e || *j->p++ != ':') return -1;
        continue; /* parse the member's value */
      } else {
        opened = 1;
      }
    } else if (c == '"') {
      if (js_string(j)) return -1;
    } else if (c == 't') {
      if (js_lit(j, "true")) return -1;
    } else if (c == 'f') {
      if (js_lit(j, "false")) return -1;
    } else if (c == 'n') {
      if (js_lit(j, "null")) return -1;
    } else if (c == '-' || boxlint__is_digit(c)) {
      if (js_number(j)) return -1;
    } else {
      return -1;
    }
    if (opened) continue; /* first element of an array */
    /* After a value: close containers or go on with the next element. */
    for (;;) {
      if (depth == 0) return 0;
      js_ws(j);
      if (j->p >= j->e) return -1;
      int obj = (stack[(depth - 1) / 8] >> ((depth - 1) % 8)) & 1;
      c = *j->p++;
      if (c == (obj ? '}' : ']')) {
        depth--;
        continue;
      }
      if (c != ',') return -1;
      if (obj) {
        js_ws(j);
        if (j->p >= j->e || *j->p != '"' || js_string(j)) return -1;
        js_ws(j);
        if (j->p >= j->e || *j->p++ != ':') return -1;
      }
      break;
    }
  }
}

static const unsigned char *trim_left_space(const unsigned char *p, const unsigned char *e) {
  size_t l;
  while (p < e && (l = bl_lex_space(p, e)) != 0) p += l;
  return p;
}

int bl_json_array(const char *s, size_t n, size_t *count) {
  js j = {(const unsigned char *)s, (const unsigned char *)s + n};
  j.p = trim_left_space(j.p, j.e);
  *count = 0;
  if (j.p >= j.e || *j.p != '[') return BL_JSON_NO;
  const unsigned char *start = j.p;
  if (js_value(&j)) return BL_JSON_NO;
  js_ws(&j);
  if (j.p != j.e) return BL_JSON_NO;
  /* Valid: now walk the top-level elements for their kinds. */
  j.p = start + 1;
  js_ws(&j);
  if (*j.p == ']') return BL_JSON_STRINGS;
  int strings_only = 1;
  for (;;) {
    js_ws(&j);
    if (*j.p != '"') strings_only = 0;
    (void)js_value(&j); /* valid by construction */
    (*count)++;
    js_ws(&j);
    if (*j.p++ == ']') break;
  }
  return strings_only ? BL_JSON_STRINGS : BL_JSON_NONSTRING;
}

static void put_utf8(const boxlint__mem *m, bl_buf *b, uint32_t c, int *err) {
  char u[4];
  if (bl_buf_put(m, b, u, boxlint__utf8_encode(c, u))) *err = 1;
}

static uint32_t hex4(const unsigned char *p) {
  uint32_t v = 0;
  for (int k = 0; k < 4; k++) {
    unsigned char c = p[k];
    v = v * 16 + (uint32_t)(boxlint__is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  return v;
}

int bl_json_element(const boxlint__mem *m, const char *s, size_t n, size_t i, bl_buf *out) {
  js j = {(const unsigned char *)s, (const unsigned char *)s + n};
  j.p = trim_left_space(j.p, j.e) + 1;
  out->len = 0;
  for (size_t k = 0;; k++) {
    js_ws(&j);
    if (j.p >= j.e || *j.p == ']') return -1;
    if (k == i) break;
    if (js_value(&j)) return -1;
    js_ws(&j);
    if (j.p < j.e && *j.p == ',') j.p++;
  }
  if (*j.p != '"') return -1;
  int err = 0;
  if (bl_buf_put(m, out, "", 0)) return -1;
  for (j.p++; j.p < j.e && *j.p != '"';) {
    unsigned char c = *j.p++;
    if (c != '\\') {
      if (bl_buf_putc(m, out, (char)c)) return -1;
      continue;
    }
    c = *j.p++;
    switch (c) {
    case 'b': c = '\b'; break;
    case 'f': c = '\f'; break;
    case 'n': c = '\n'; break;
    case 'r': c = '\r'; break;
    case 't': c = '\t'; break;
    case 'u': {
      uint32_t v = hex4(j.p);
      j.p += 4;
      if (v >= 0xD800 && v < 0xDC00 && j.e - j.p >= 6 && j.p[0] == '\\' && j.p[1] == 'u') {
        uint32_t lo = hex4(j.p + 2);
        if (lo >= 0xDC00 && lo < 0xE000) {
          v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
          j.p += 6;
        }
      }
      if (v >= 0xD800 && v < 0xE000) v = 0xFFFD;
      put_utf8(m, out, v, &err);
      continue;
    }
    default: break; /* \" \\ \/ */
    }
    if (bl_buf_putc(m, out, (char)c)) return -1;
  }
  return err ? -1 : 0;
}

/* ---- parseWords (ENV, LABEL, ARG): word boundaries only; words keep their quotes -------- */

typedef struct pw_word { size_t s, e, eq; } pw_word; /* eq: offset of the first '=' or SIZE_MAX */
typedef void (*pw_fn)(void *ctx, const pw_word *w);

/* Byte classes of the ASCII path: 1 space, 2 a quote, 3 '='. */
static const unsigned char PW_CLS[256] = {[' '] = 1, ['\''] = 2, ['"'] = 2, ['='] = 3};

/* The next byte of p[k..e) with a class (a space, a quote or '='), or e: sixteen bytes at a
 * time with SSE2 while that many remain. */
static inline size_t pw_ascii_next(const unsigned char *p, size_t k, size_t e) {
#if defined(__SSE2__)
  const __m128i sp = _mm_set1_epi8(' '), q1 = _mm_set1_epi8('\''), q2 = _mm_set1_epi8('"'),
                eq = _mm_set1_epi8('=');
  for (; e - k >= 16; k += 16) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + k));
    __m128i c = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, sp), _mm_cmpeq_epi8(x, q1)),
                             _mm_or_si128(_mm_cmpeq_epi8(x, q2), _mm_cmpeq_epi8(x, eq)));
    unsigned m = (unsigned)_mm_movemask_epi8(c);
    if (m) return k + (size_t)__builtin_ctz(m);
  }
#endif
  while (k < e && !PW_CLS[p[k]]) k++;
  return k;
}

/* The word of printable ASCII that starts at p[k] (not a space): returns its end, with w->eq
 * set. A quote runs to its closing quote, or the end ('=' inside counts too). */
static inline size_t pw_ascii_word(const unsigned char *p, size_t k, size_t e, pw_word *w) {
  w->eq = SIZE_MAX;
  for (; (k = pw_ascii_next(p, k, e)) < e; k++) {
    unsigned char cls = PW_CLS[p[k]];
    if (cls == 1) break;
    if (cls == 3) {
      if (w->eq == SIZE_MAX) w->eq = k;
      continue;
    }
    unsigned char q = p[k++];
    while (k < e && p[k] != q) {
      if (p[k] == '=' && w->eq == SIZE_MAX) w->eq = k;
      k++;
    }
    if (k == e) break;
  }
  return k;
}

/* The fast path: printable ASCII without the escape character. Words split at spaces outside
 * quotes; a raw word is never empty, so it always counts (a quoted "" is a blank word). */
static size_t parse_words_ascii(const unsigned char *p, size_t s, size_t e, pw_fn fn, void *ctx) {
  size_t n = 0;
  pw_word w = {0, 0, SIZE_MAX};
  for (size_t k = s; k < e;) {
    while (k < e && p[k] == ' ') k++;
    if (k == e) break;
    w.s = k;
    k = w.e = pw_ascii_word(p, k, e, &w);
    n++;
    if (fn) fn(ctx, &w);
  }
  return n;
}

/* Go's unicode.IsSpace. */
static inline int pw_space(uint32_t ch) {
  return ch == ' ' || (ch >= 0x80 ? bl_is_space_rune(ch) : (ch >= 0x09 && ch <= 0x0D));
}

/* The rune at p[pos] (pos < e) and its width; an invalid byte is U+FFFD of width 1. */
static inline size_t pw_decode(const unsigned char *p, size_t pos, size_t e, uint32_t *ch) {
  size_t width = boxlint__utf8_decode(p + pos, e - pos, ch);
  if (!width) { *ch = 0xFFFD; width = 1; }
  return width;
}

/* The end of word `w` at `pos`: counted, and given to `fn`. */
static inline void pw_emit(pw_word *w, size_t pos, size_t *n, pw_fn fn, void *ctx) {
  w->e = pos;
  ++*n;
  if (fn) fn(ctx, w);
}

/* The general path, rune by rune as Go's parseWords: white space splits words outside quotes,
 * the escape character takes the next rune (not inside single quotes), and a word that held a
 * quote counts even when it is blank. */
static size_t parse_words_runes(const unsigned char *p, size_t s, size_t e, unsigned char esc,
                                pw_fn fn, void *ctx) {
  enum { SP, WORD, QUOTE } phase = SP;
  unsigned char quote = 0;
  int blank_ok = 0;
  size_t n = 0, len_in_word = 0, width = 0;
  pw_word w = {0, 0, SIZE_MAX};
  uint32_t ch = 0;
  for (size_t pos = s; pos <= e; pos += width) {
    width = 0;
    if (pos != e) {
      if (p[pos] < 0x80) { ch = p[pos]; width = 1; }
      else width = pw_decode(p, pos, e, &ch);
    }
    if (phase == SP) {
      if (pos == e) break;
      if (pw_space(ch)) continue;
      phase = WORD;
      w.s = pos;
      w.eq = SIZE_MAX;
      len_in_word = 0;
    }
    if (pos == e) {
      if (blank_ok || len_in_word) pw_emit(&w, pos, &n, fn, ctx);
      break;
    }
    if (phase == WORD) {
      if (pw_space(ch)) {
        phase = SP;
        if (blank_ok || len_in_word) pw_emit(&w, pos, &n, fn, ctx);
        blank_ok = 0;
        continue;
      }
      if (ch == '\'' || ch == '"') {
        quote = (unsigned char)ch;
        blank_ok = 1;
        phase = QUOTE;
      }
      if (ch == esc) {
        if (pos + width == e) continue;
        len_in_word++;
        pos += width;
        width = pw_decode(p, pos, e, &ch);
      } else if (ch == '=' && w.eq == SIZE_MAX) {
        w.eq = pos;
      }
      len_in_word++;
      continue;
    }
    /* QUOTE */
    if (ch == quote) phase = WORD;
    if (ch == esc && quote != '\'') {
      if (pos + width == e) { phase = WORD; continue; }
      len_in_word++;
      pos += width;
      width = pw_decode(p, pos, e, &ch);
    } else if (ch == '=' && w.eq == SIZE_MAX) {
      w.eq = pos;
    }
    len_in_word++;
  }
  return n;
}

/* Calls `fn` for each word of logical [s, e). Returns the number of words. */
static size_t parse_words(const bl_check *ck, const char *L, size_t s, size_t e, pw_fn fn,
                          void *ctx) {
  const unsigned char *p = (const unsigned char *)L;
  unsigned char esc = (unsigned char)ck->cx.esc;
  if (bl_lex_printable(p + s, e - s, esc) == e - s) return parse_words_ascii(p, s, e, fn, ctx);
  return parse_words_runes(p, s, e, esc, fn, ctx);
}

typedef struct kv_ctx {
  bl_check *ck;
  const bl_read *rd;
  const char *kw;
  int arg; /* ARG: words without '=' are fine */
  int done;
} kv_ctx;

static void kv_word(void *vctx, const pw_word *w) {
  kv_ctx *k = vctx;
  if (k->done) return;
  const char *L = k->rd->logical;
  if (w->eq == SIZE_MAX) {
    if (k->arg) return;
    boxlint_diag *d = bl_emit_l(k->ck, k->rd, BL_R_INVALID_ARGUMENTS, w->s, w->e,
                                "Syntax error - can't find = in \"%s\". Must be of the form: "
                                "name=value", bl_q(k->ck, L + w->s, w->e - w->s));
    bl_hint(k->ck, d, "%s takes name=value pairs; quote values that contain spaces", k->kw);
    k->done = 1;
    return;
  }
  if (w->eq == w->s) {
    boxlint_diag *d = bl_emit_l(k->ck, k->rd, BL_R_INVALID_ARGUMENTS, w->s, w->e,
                                "%s names can not be blank", k->kw);
    bl_hint(k->ck, d, "write the name before '=': %s NAME=value", k->kw);
    k->done = 1;
  }
}

/* ---- Arguments per instruction --------------------------------------------------------- */

static int upper_eq(const char *p, size_t n, const char *w) { return boxlint__ieq(p, n, w); }

static void json_nonstring(bl_check *ck, const bl_read *rd, const bl_cmdline *c, size_t at) {
  boxlint_diag *d = bl_emit_l(ck, rd, BL_R_INVALID_ARGUMENTS, at, c->args_l + c->args_n,
                              "when using JSON array syntax, arrays must be comprised of strings "
                              "only");
  bl_hint(ck, d, "quote every element, e.g. [\"sleep\", \"10\"]");
}

static void check_healthcheck(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  const char *L = rd->logical;
  size_t a = c->args_l, e = c->args_l + c->args_n, t = a;
  while (t < e && L[t] != ' ' && L[t] != '\t' && (unsigned char)L[t] != 0x85 &&
         (unsigned char)L[t] != 0xA0)
    t++;
  size_t rest = t;
  while (rest < e && (L[rest] == ' ' || L[rest] == '\t')) rest++;
  if (upper_eq(L + a, t - a, "none")) {
    if (rest < e)
      bl_emit_l(ck, rd, BL_R_INVALID_ARGUMENTS, rest, e, "HEALTHCHECK NONE takes no arguments");
    return;
  }
  if (!upper_eq(L + a, t - a, "cmd")) {
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_INVALID_ARGUMENTS, a, t,
                                "Unknown type \"%s\" in HEALTHCHECK (try CMD)",
                                bl_q(ck, L + a, t - a));
    bl_hint(ck, d, "write HEALTHCHECK CMD <command> or HEALTHCHECK NONE");
    return;
  }
  if (rest == e) {
    bl_emit_l(ck, rd, BL_R_MISSING_ARGUMENTS, a, t, "Missing command after HEALTHCHECK CMD");
    return;
  }
  if (c->json == BL_JSON_NONSTRING) json_nonstring(ck, rd, c, rest);
}

static void check_volume(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  if (c->json != BL_JSON_STRINGS) return;
  if (c->json_count == 0) {
    bl_emit_l(ck, rd, BL_R_MISSING_ARGUMENTS, c->kw_l, c->kw_l + c->kw_n,
              "VOLUME requires at least one argument");
    return;
  }
  bl_buf b = {0};
  for (size_t i = 0; i < c->json_count; i++) {
    if (bl_json_element(ck->cx.m, rd->logical + c->args_l, c->args_n, i, &b)) {
      ck->cx.oom = 1;
      break;
    }
    size_t s = 0, e = b.len;
    while (s < e && (b.p[s] == ' ' || b.p[s] == '\t')) s++;
    if (s == e) {
      bl_emit_l(ck, rd, BL_R_INVALID_ARGUMENTS, c->args_l, c->args_l + c->args_n,
                "VOLUME specified can not be an empty string");
      break;
    }
  }
  bl_buf_free(ck->cx.m, &b);
}


/* parseNameVal in one pass: the first word decides between NAME=value pairs and the old
 * NAME value form. */
typedef struct nv_ctx {
  kv_ctx kv;
  int first_seen, legacy;
} nv_ctx;

static void nv_word(void *vctx, const pw_word *w) {
  nv_ctx *n = vctx;
  if (!n->first_seen) {
    n->first_seen = 1;
    n->legacy = w->eq == SIZE_MAX;
  }
  if (!n->legacy) kv_word(&n->kv, w);
}

static void check_name_values(bl_check *ck, const bl_read *rd, const bl_cmdline *c,
                              const char *kwname) {
  const char *L = rd->logical;
  size_t s = c->args_l, e = c->args_l + c->args_n;
  nv_ctx n = {{ck, rd, kwname, 0, 0}, 0, 0};
  if (parse_words(ck, L, s, e, nv_word, &n) == 0 || !n.legacy) return;
  /* The old form NAME value: needs a second word after white space. */
  size_t k = s;
  while (k < e && L[k] != ' ' && L[k] != '\t' && L[k] != '\v' && L[k] != '\f' && L[k] != '\r') k++;
  if (k == e) {
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_INVALID_ARGUMENTS, s, e, "%s must have two arguments",
                                kwname);
    bl_hint(ck, d, "give a value: %s %s=value", kwname, bl_q(ck, L + s, e - s));
  }
}

void bl_check_arguments(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  const char *kwname = boxlint_keyword_name(c->folded);
  size_t kw_e = c->kw_l + c->kw_n;
  if (c->json == BL_JSON_NONSTRING && c->folded != BOXLINT_KW_HEALTHCHECK) {
    json_nonstring(ck, rd, c, c->args_l);
    return;
  }
  switch (c->folded) {
  case BOXLINT_KW_ENV:
  case BOXLINT_KW_LABEL:
    if (!c->args_n) {
      boxlint_diag *d = bl_emit_l(ck, rd, BL_R_MISSING_ARGUMENTS, c->kw_l, kw_e,
                                  "%s requires at least one argument", kwname);
      bl_hint(ck, d, "write %s NAME=value", kwname);
      return;
    }
    check_name_values(ck, rd, c, kwname);
    return;
  case BOXLINT_KW_ARG: {
    if (!c->args_n) {
      boxlint_diag *d = bl_emit_l(ck, rd, BL_R_MISSING_ARGUMENTS, c->kw_l, kw_e,
                                  "ARG requires at least one argument");
      bl_hint(ck, d, "write ARG NAME or ARG NAME=default");
      return;
    }
    kv_ctx k = {ck, rd, "ARG", 1, 0};
    parse_words(ck, rd->logical, c->args_l, c->args_l + c->args_n, kv_word, &k);
    return;
  }
  case BOXLINT_KW_EXPOSE:
    if (!c->args_n)
      bl_emit_l(ck, rd, BL_R_MISSING_ARGUMENTS, c->kw_l, kw_e,
                "EXPOSE requires at least one argument");
    return;
  case BOXLINT_KW_VOLUME:
    if (!c->args_n) {
      bl_emit_l(ck, rd, BL_R_MISSING_ARGUMENTS, c->kw_l, kw_e,
                "VOLUME requires at least one argument");
      return;
    }
    check_volume(ck, rd, c);
    return;
  case BOXLINT_KW_USER:
  case BOXLINT_KW_WORKDIR:
  case BOXLINT_KW_STOPSIGNAL:
  case BOXLINT_KW_MAINTAINER:
    if (!c->args_n)
      bl_emit_l(ck, rd, BL_R_MISSING_ARGUMENTS, c->kw_l, kw_e, "%s requires exactly one argument",
                kwname);
    return;
  case BOXLINT_KW_HEALTHCHECK:
    if (!c->args_n) {
      boxlint_diag *d = bl_emit_l(ck, rd, BL_R_MISSING_ARGUMENTS, c->kw_l, kw_e,
                                  "HEALTHCHECK requires at least one argument");
      bl_hint(ck, d, "write HEALTHCHECK CMD <command> or HEALTHCHECK NONE");
      return;
    }
    check_healthcheck(ck, rd, c);
    return;
  case BOXLINT_KW_SHELL:
    if (!c->args_n || (c->json == BL_JSON_STRINGS && c->json_count == 0)) {
      boxlint_diag *d = bl_emit_l(ck, rd, BL_R_MISSING_ARGUMENTS, c->kw_l, kw_e,
                                  "SHELL requires at least one argument");
      bl_hint(ck, d, "write SHELL [\"/bin/bash\", \"-c\"]");
    } else if (c->json != BL_JSON_STRINGS) {
      boxlint_diag *d = bl_emit_l(ck, rd, BL_R_INVALID_ARGUMENTS, c->args_l, c->args_l + c->args_n,
                                  "SHELL requires the arguments to be in JSON form");
      bl_hint(ck, d, "write SHELL [\"/bin/bash\", \"-c\"]");
    }
    return;
  default:
    return;
  }
}

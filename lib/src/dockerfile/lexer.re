/*
 * The Dockerfile lexer: byte classes, keywords, white space, heredoc openers, and the reader
 * that turns physical lines into one logical instruction exactly as BuildKit's parser does
 * (frontend/dockerfile/parser: scanLines, trimNewline, trimLeadingWhitespace, isComment,
 * trimContinuationCharacter, splitCommand, extractBuilderFlags, heredocsFromLine).
 *
 * re2c generates this file's C at build time (lib/CMakeLists.txt). Every block lexes a span
 * that has no NUL terminator: the end is a fake sentinel (re2c:eof) checked against `lim`.
 */
#include <stddef.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "dockerfile/dockerfile_int.h"


/*!re2c
  re2c:api = custom;
  re2c:api:style = free-form;
  re2c:define:YYCTYPE = "unsigned char";
  re2c:define:YYPEEK = "(cur < lim ? *cur : 0)";
  re2c:define:YYSKIP = "++cur;";
  re2c:define:YYBACKUP = "mar = cur;";
  re2c:define:YYRESTORE = "cur = mar;";
  re2c:define:YYLESSTHAN = "(cur >= lim)";
  re2c:yyfill:enable = 0;
  re2c:eof = 0;

  // Valid UTF-8 sequences of 2 to 4 bytes (no overlongs, surrogates or > U+10FFFF).
  u2 = [\xc2-\xdf][\x80-\xbf];
  u3 = "\xe0"[\xa0-\xbf][\x80-\xbf] | [\xe1-\xec\xee\xef][\x80-\xbf]{2} | "\xed"[\x80-\x9f][\x80-\xbf];
  u4 = "\xf0"[\x90-\xbf][\x80-\xbf]{2} | [\xf1-\xf3][\x80-\xbf]{3} | "\xf4"[\x80-\x8f][\x80-\xbf]{2};

  // Go's unicode.IsSpace, in UTF-8.
  uspace = [\t\n\x0b\x0c\r ] | "\xc2\x85" | "\xc2\xa0" | "\xe1\x9a\x80"
         | "\xe2\x80"[\x80-\x8a\xa8\xa9\xaf] | "\xe2\x81\x9f" | "\xe3\x80\x80";
*/

size_t bl_lex_space(const unsigned char *p, const unsigned char *lim) {
  const unsigned char *cur = p, *mar;
  (void)mar;
  /*!re2c
    uspace { return (size_t)(cur - p); }
    *      { return 0; }
    $      { return 0; }
  */
}

boxlint_keyword bl_lex_keyword(const unsigned char *p, size_t n) {
  const unsigned char *cur = p, *lim = p + n, *mar;
  boxlint_keyword kw;
  (void)mar;
  /*!re2c
    'add'          { kw = BOXLINT_KW_ADD; goto done; }
    'arg'          { kw = BOXLINT_KW_ARG; goto done; }
    'cmd'          { kw = BOXLINT_KW_CMD; goto done; }
    'copy'         { kw = BOXLINT_KW_COPY; goto done; }
    'entrypoint'   { kw = BOXLINT_KW_ENTRYPOINT; goto done; }
    'env'          { kw = BOXLINT_KW_ENV; goto done; }
    'expose'       { kw = BOXLINT_KW_EXPOSE; goto done; }
    'from'         { kw = BOXLINT_KW_FROM; goto done; }
    'healthcheck'  { kw = BOXLINT_KW_HEALTHCHECK; goto done; }
    'label'        { kw = BOXLINT_KW_LABEL; goto done; }
    'maintainer'   { kw = BOXLINT_KW_MAINTAINER; goto done; }
    'onbuild'      { kw = BOXLINT_KW_ONBUILD; goto done; }
    'run'          { kw = BOXLINT_KW_RUN; goto done; }
    'shell'        { kw = BOXLINT_KW_SHELL; goto done; }
    'stopsignal'   { kw = BOXLINT_KW_STOPSIGNAL; goto done; }
    'user'         { kw = BOXLINT_KW_USER; goto done; }
    'volume'       { kw = BOXLINT_KW_VOLUME; goto done; }
    'workdir'      { kw = BOXLINT_KW_WORKDIR; goto done; }
    *              { return BOXLINT_KW_NONE; }
    $              { return BOXLINT_KW_NONE; }
  */
done:
  return cur == lim ? kw : BOXLINT_KW_NONE;
}

/* 1 when none of the 8 bytes of x is below 0x20 or above 0x7E (printable ASCII only). */
static inline int all_printable(uint64_t x) {
  const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
  uint64_t below = (x - ones * 0x20) & ~x & high;   /* a byte < 0x20 */
  uint64_t above = ((x + ones * (0x7F - 0x7E)) | x) & high; /* a byte > 0x7E */
  return (below | above) == 0;
}

/* Exact per-byte SWAR: 1 when every byte of x is printable ASCII, TAB or LF. */
static inline int printable_tab_lf(uint64_t x) {
  const uint64_t lo7 = 0x7F7F7F7F7F7F7F7Full, high = 0x8080808080808080ull;
  const uint64_t ones = 0x0101010101010101ull;
  uint64_t ge20 = ((x & lo7) + ones * 0x60) & high;      /* (b & 0x7F) >= 0x20 */
  uint64_t t = x ^ (ones * 0x09), l = x ^ (ones * 0x0A), d = x ^ (ones * 0x7F);
  uint64_t tab = ~(((t & lo7) + lo7) | t) & high;        /* b == 0x09 */
  uint64_t lf = ~(((l & lo7) + lo7) | l) & high;         /* b == 0x0A */
  uint64_t del = ~(((d & lo7) + lo7) | d) & high;        /* b == 0x7F */
  uint64_t ok = (ge20 & ~x & ~del) | tab | lf;           /* x & high: b >= 0x80 */
  return ok == high;
}

enum bl_byte_problem bl_lex_bytes(const unsigned char *buf, size_t len, size_t *pos, size_t *n) {
  const unsigned char *lim = buf + len, *cur = buf + *pos, *mar, *tok;
  (void)mar;
  for (;;) {
#if defined(__SSE2__)
    /* Fast path: 32, then 16 bytes at a time while they are printable ASCII, TAB or LF. With
     * one added, as signed bytes, exactly the bytes outside 0x20-0x7E compare below 0x21. */
    {
      const __m128i one = _mm_set1_epi8(1), lo = _mm_set1_epi8(0x21), tab = _mm_set1_epi8('\t'),
                    lf = _mm_set1_epi8('\n');
#define BL_BAD16(x)                                                                              \
  _mm_andnot_si128(_mm_or_si128(_mm_cmpeq_epi8((x), tab), _mm_cmpeq_epi8((x), lf)),              \
                   _mm_cmplt_epi8(_mm_add_epi8((x), one), lo))
      while (lim - cur >= 32) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)cur);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(cur + 16));
        if (_mm_movemask_epi8(_mm_or_si128(BL_BAD16(a), BL_BAD16(b)))) break;
        cur += 32;
      }
      while (lim - cur >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)cur);
        if (_mm_movemask_epi8(BL_BAD16(x))) goto slow;
        cur += 16;
      }
      /* The last 1-15 bytes: one more load that overlaps bytes already accepted. */
      if (cur < lim && lim - buf >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(lim - 16));
        if (!_mm_movemask_epi8(BL_BAD16(x))) cur = lim;
      }
#undef BL_BAD16
    }
  slow:
#endif
    /* Then eight at a time (the portable path), then the DFA for the rest (CR, controls,
     * UTF-8). */
    while (lim - cur >= 8) {
      uint64_t x;
      memcpy(&x, cur, 8);
      if (!all_printable(x) && !printable_tab_lf(x)) break;
      cur += 8;
    }
    tok = cur;
    /*!re2c
      [\t\n\x20-\x7e]+ | "\r\n" | u2 | u3 | u4 { continue; }
      "\x00"      { *pos = (size_t)(tok - buf); *n = 1; return BL_BYTES_NUL; }
      "\r"        { *pos = (size_t)(tok - buf); *n = 1; return BL_BYTES_BARE_CR; }
      [\x01-\x08\x0b\x0c\x0e-\x1f\x7f]
                  { *pos = (size_t)(tok - buf); *n = 1; return BL_BYTES_CONTROL; }
      *           { *pos = (size_t)(tok - buf); *n = 1; return BL_BYTES_BAD_UTF8; }
      $           { *pos = len; *n = 0; return BL_BYTES_OK; }
    */
  }
}

int bl_lex_heredoc_word(const char *w, size_t n, size_t *ndigits, int *chomp, size_t *rest) {
  const unsigned char *p = (const unsigned char *)w, *cur = p, *lim = p + n, *mar;
  (void)mar;
  /*!re2c
    [0-9]* "<<" { goto opener; }
    *               { return 0; }
    $               { return 0; }
  */
opener:
  *ndigits = (size_t)(cur - p) - 2;
  *chomp = 0;
  if (cur < lim && *cur == '-') {
    *chomp = 1;
    cur++;
  }
  while (cur < lim && (*cur == ' ' || *cur == '\t' || *cur == '\n' || *cur == '\f' || *cur == '\r'))
    cur++;
  *rest = (size_t)(cur - p);
  if (memchr(cur, '<', (size_t)(lim - cur))) return 0;
  return 1;
}

/* ============================================================================================
 * The reader
 * ==========================================================================================*/

int bl_is_blank(const unsigned char *p, const unsigned char *e) {
  while (p < e) {
    if (*p == ' ' || *p == '\t') {
      p++;
      continue;
    }
    if (*p > ' ' && *p < 0x80) return 0;
    size_t l = bl_lex_space(p, e);
    if (!l) return 0;
    p += l;
  }
  return 1;
}

static const unsigned char *skip_space(const unsigned char *p, const unsigned char *e) {
  size_t l;
  p = bl_skip_spaces8(p, e);
  for (;;) {
    while (p < e && (*p == ' ' || *p == '\t')) p++;
    if (p >= e || (*p > ' ' && *p < 0x80)) return p;
    if ((l = bl_lex_space(p, e)) == 0) return p;
    p += l;
  }
}

int bl_is_comment(const unsigned char *p, const unsigned char *e) {
  p = skip_space(p, e);
  return p < e && *p == '#';
}

/* The first '\n' in p[0..n), or NULL: the first 64 bytes 16 at a time with SSE2 (most lines
 * end there, and memchr's set-up costs more than such a scan), the rest with memchr. */
static const unsigned char *find_lf(const unsigned char *p, size_t n) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i lf = _mm_set1_epi8('\n');
  for (; n - i >= 16 && i < 64; i += 16) { /* the first 64 bytes here; a longer line: memchr */
    int m = _mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + i)), lf));
    if (m) return p + i + (size_t)__builtin_ctz((unsigned)m);
  }
  if (n - i >= 16) return memchr(p + i, '\n', n - i);
#endif
  for (; i < n; i++)
    if (p[i] == '\n') return p + i;
  return NULL;
}

/* The first line feed at or after pos (< cx->len) in the bit map, or cx->len. */
static inline size_t map_lf(const bl_ctx *cx, size_t pos) {
  size_t w = pos / 64, last = (cx->len - 1) / 64;
  uint64_t b = cx->lfm[w] & (~0ull << (pos & 63));
  while (!b) {
    if (++w > last) return cx->len;
    b = cx->lfm[w];
  }
  return w * 64 + (size_t)__builtin_ctzll(b);
}

/* bl_line_end, inlined in the reader. With the bit map, the input has no CR to trim. */
static inline size_t line_end(const bl_ctx *cx, size_t pos, size_t *next) {
  size_t e;
  if (pos >= cx->len) {
    e = cx->len;
  } else if (cx->lfm) {
    e = map_lf(cx, pos);
    *next = e < cx->len ? e + 1 : cx->len;
    return e;
  } else {
    const unsigned char *lf = find_lf(cx->buf + pos, cx->len - pos);
    e = lf ? (size_t)(lf - cx->buf) : cx->len;
  }
  *next = e < cx->len ? e + 1 : cx->len;
  while (e > pos && (cx->buf[e - 1] == '\r' || cx->buf[e - 1] == '\n')) e--;
  return e;
}

size_t bl_line_end(const bl_ctx *cx, size_t pos, size_t *next) { return line_end(cx, pos, next); }

/* BuildKit's continuation regex ([^E])E[ \t]*$|^E[ \t]*$ on the line [s, e). Returns the
 * offset of E, or SIZE_MAX. */
static size_t continuation_at(const bl_ctx *cx, size_t s, size_t e) {
  size_t k = e;
  while (k > s && (cx->buf[k - 1] == ' ' || cx->buf[k - 1] == '\t')) k--;
  if (k == s || cx->buf[k - 1] != (unsigned char)cx->esc) return SIZE_MAX;
  if (k - 1 == s || cx->buf[k - 2] != (unsigned char)cx->esc) return k - 1;
  return SIZE_MAX;
}

/* Record that input bytes [p, p+n) are the next part of the logical line, which starts at
 * logical offset *l; the bytes are copied once the line is complete. */
static int push_seg(bl_ctx *cx, size_t *l, size_t p, size_t n) {
  if (!n) return 0;
  if (cx->nsegs == cx->capsegs) {
    size_t cap = cx->capsegs ? cx->capsegs * 2 : 32;
    bl_seg *s = boxlint__realloc(cx->m, cx->segs, cx->capsegs * sizeof *s, cap * sizeof *s);
    if (!s) return -1;
    cx->segs = s;
    cx->capsegs = cap;
  }
  cx->segs[cx->nsegs].l = *l;
  cx->segs[cx->nsegs].p = p;
  cx->segs[cx->nsegs].n = n;
  cx->nsegs++;
  *l += n;
  return 0;
}

size_t bl_logical_to_input(const bl_ctx *cx, const bl_read *rd, size_t l) {
  size_t lo = 0, hi = rd->nsegs;
  if (!hi) return rd->first; /* (no segment: cx->segs may still be NULL) */
  const bl_seg *s = cx->segs + rd->seg0;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (s[mid].l <= l) lo = mid; else hi = mid;
  }
  if (l >= s[lo].l + s[lo].n) return s[lo].p + s[lo].n; /* the end of the logical line */
  return s[lo].p + (l - s[lo].l);
}

/* Go's unicode.IsSpace applied to a single byte as a rune (extractBuilderFlags' quirk). */
static int byte_is_space(unsigned char c) {
  return c == ' ' || (c >= 0x09 && c <= 0x0D) || c == 0x85 || c == 0xA0;
}

static int add_flag(bl_ctx *cx, size_t ls, size_t le, const bl_buf *val) {
  if (cx->nflags == cx->capflags) {
    size_t cap = cx->capflags ? cx->capflags * 2 : 8;
    bl_flag *f = boxlint__realloc(cx->m, cx->flags, cx->capflags * sizeof *f, cap * sizeof *f);
    if (!f) return -1;
    cx->flags = f;
    cx->capflags = cap;
  }
  char *v = boxlint__rstrdup(cx->r, val->p ? val->p : "", val->len);
  if (!v) return -1;
  bl_flag *f = &cx->flags[cx->nflags++];
  f->l_start = ls;
  f->l_end = le;
  f->value.ptr = v;
  f->value.len = val->len;
  return 0;
}

/* Append byte c as the rune U+00cc (Go's rune(line[pos]) written with WriteRune). */
static int put_latin1(bl_ctx *cx, bl_buf *b, unsigned char c) {
  if (c < 0x80) return bl_buf_putc(cx->m, b, (char)c);
  char u[4];
  return bl_buf_put(cx->m, b, u, boxlint__utf8_encode(c, u));
}

/* extractBuilderFlags on logical bytes [s, e). Sets flags and where the arguments begin. */
static int extract_flags(bl_ctx *cx, const char *L, size_t s, size_t e, bl_cmdline *c) {
  enum { IN_SPACES, IN_WORD, IN_QUOTE } phase = IN_SPACES;
  /* The flag being read, in a warm scratch buffer (the heredoc lexer uses it only later). */
  bl_buf *wp = &cx->shpool[2];
  wp->len = 0;
#define w (*wp)
  int blank_ok = 0, rc = 0;
  unsigned char quote = 0, ch = 0;
  size_t ws = s;
  c->flag0 = cx->nflags;
  c->flags_l = s;
  size_t rest = e;
  for (size_t pos = s; pos <= e; pos++) {
    if (pos != e) ch = (unsigned char)L[pos];
    if (phase == IN_SPACES) {
      if (pos == e) break;
      if (byte_is_space(ch)) continue;
      if (ch != '-' || pos + 1 == e || L[pos + 1] != '-') {
        rest = pos;
        goto out;
      }
      phase = IN_WORD;
      ws = pos;
    }
    if ((phase == IN_WORD || phase == IN_QUOTE) && pos == e) {
      if (!(w.len == 2 && w.p[0] == '-' && w.p[1] == '-') && (blank_ok || w.len > 0))
        if (add_flag(cx, ws, pos, &w)) goto oom;
      break;
    }
    if (phase == IN_WORD) {
      if (byte_is_space(ch)) {
        phase = IN_SPACES;
        if (w.len == 2 && w.p[0] == '-' && w.p[1] == '-') {
          rest = pos;
          goto out;
        }
        if (blank_ok || w.len > 0)
          if (add_flag(cx, ws, pos, &w)) goto oom;
        w.len = 0;
        blank_ok = 0;
        continue;
      }
      if (ch == '\'' || ch == '"') {
        quote = ch;
        blank_ok = 1;
        phase = IN_QUOTE;
        continue;
      }
      if (ch == (unsigned char)cx->esc) {
        if (pos + 1 == e) continue;
        pos++;
        ch = (unsigned char)L[pos];
      }
      if (put_latin1(cx, &w, ch)) goto oom;
      continue;
    }
    /* IN_QUOTE */
    if (ch == quote) {
      phase = IN_WORD;
      continue;
    }
    if (ch == (unsigned char)cx->esc) {
      if (pos + 1 == e) {
        phase = IN_WORD;
        continue;
      }
      pos++;
      ch = (unsigned char)L[pos];
    }
    if (put_latin1(cx, &w, ch)) goto oom;
  }
out:
#undef w
  c->flags_end = rest;
  c->nflags = cx->nflags - c->flag0;
  return rc;
oom:
  return -1;
}

/* trim_space without the shortcut (below): Unicode white space, Go's IsSpace. */
static void trim_space_slow(const char *L, size_t *s, size_t *e) {
  const unsigned char *p = (const unsigned char *)L;
  size_t l;
  for (;;) {
    while (*s < *e && (p[*s] == ' ' || p[*s] == '\t')) ++*s;
    if (*s == *e || (p[*s] > ' ' && p[*s] < 0x80)) break; /* printable ASCII: done */
    if ((l = bl_lex_space(p + *s, p + *e)) == 0) break;
    *s += l;
  }
  /* Trailing: step back over complete space characters. */
  for (;;) {
    if (*e > *s && p[*e - 1] > ' ' && p[*e - 1] < 0x80) break;
    size_t k = *e, found = 0;
    for (size_t back = 1; back <= 3 && back <= k - *s; back++) {
      if (bl_lex_space(p + k - back, p + k) == back) {
        found = back;
        break;
      }
    }
    if (!found) break;
    *e -= found;
  }
}

/* Trim Go unicode white space from both ends of logical [*s, *e); most text starts and ends
 * with a printable ASCII character, and is left as it is without a call. */
static inline void trim_space(const char *L, size_t *s, size_t *e) {
  const unsigned char *p = (const unsigned char *)L;
  if (*s < *e && p[*s] > ' ' && p[*s] < 0x80 && p[*e - 1] > ' ' && p[*e - 1] < 0x80) return;
  trim_space_slow(L, s, e);
}

static boxlint_keyword fold_keyword(const unsigned char *p, size_t n) {
  char tmp[16];
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    if (o == sizeof tmp) return BOXLINT_KW_NONE;
    if (p[i] < 0x80) tmp[o++] = (char)p[i++];
    else if (i + 1 < n && p[i] == 0xC4 && p[i + 1] == 0xB0) { tmp[o++] = 'i'; i += 2; }
    else if (i + 2 < n && p[i] == 0xE2 && p[i + 1] == 0x84 && p[i + 2] == 0xAA) { tmp[o++] = 'k'; i += 3; }
    else return BOXLINT_KW_NONE;
  }
  return bl_lex_keyword((const unsigned char *)tmp, o);
}

/* splitCommand on logical [s, e), then the per-keyword JSON decision. */
static int split_command(bl_ctx *cx, const char *L, size_t s, size_t e, bl_cmdline *c) {
  /* Every field is written below (no memset: a block clear of the record costs more than the
   * rest of a short command's split). */
  trim_space(L, &s, &e);
  size_t k = s;
  unsigned char hi = 0;
  for (unsigned char ch; k < e && (ch = (unsigned char)L[k]) != ' ' && ch != '\t' && ch != '\v' &&
                         ch != '\f' && ch != '\r';
       k++)
    hi |= ch;
  c->kw_l = s;
  c->kw_n = k - s;
  c->kw_nonascii = hi >= 0x80;
  const unsigned char *kp = (const unsigned char *)L + s;
  c->kw = c->kw_nonascii ? BOXLINT_KW_NONE : bl_lex_keyword(kp, c->kw_n);
  c->folded = c->kw_nonascii ? fold_keyword(kp, c->kw_n) : c->kw;
  size_t a = k;
  while (a < e && (L[a] == ' ' || L[a] == '\t' || L[a] == '\v' || L[a] == '\f' || L[a] == '\r')) a++;
  c->flag0 = cx->nflags;
  c->nflags = 0;
  c->flags_l = c->flags_end = a;
  c->json = BL_JSON_NO;
  c->json_count = 0;
  size_t args = a;
  if (k < e && (L[a] == '-' || byte_is_space((unsigned char)L[a]))) { /* flags may follow */
    if (extract_flags(cx, L, a, e, c)) return -1;
    args = c->flags_end;
  }
  size_t ae = e;
  trim_space(L, &args, &ae);
  c->args_l = args;
  c->args_n = ae - args;
  switch (c->folded) {
  case BOXLINT_KW_RUN: case BOXLINT_KW_CMD: case BOXLINT_KW_ENTRYPOINT: case BOXLINT_KW_SHELL:
  case BOXLINT_KW_ADD: case BOXLINT_KW_COPY: case BOXLINT_KW_VOLUME:
    if (c->args_n && L[args] == '[') /* args are trimmed: JSON must start right here */
      c->json = bl_json_array(L + args, c->args_n, &c->json_count);
    break;
  case BOXLINT_KW_HEALTHCHECK: {
    size_t t = args;
    while (t < ae && !byte_is_space((unsigned char)L[t])) t++;
    while (t < ae && byte_is_space((unsigned char)L[t])) t++;
    if (t > args) c->json = bl_json_array(L + t, ae - t, &c->json_count);
    break;
  }
  default:
    break;
  }
  return 0;
}

/* The file descriptor digits before "<<" (a ParseUint overflow: BuildKit ignores it, fd 0). */
static uint32_t heredoc_fd(const char *w, size_t nd) {
  uint32_t fd = 0;
  for (size_t i = 0; i < nd; i++) {
    if (fd > 429496728u) return 0;
    fd = fd * 10 + (uint32_t)(w[i] - '0');
  }
  return fd;
}

static int add_heredoc_name(bl_ctx *cx, bl_read *rd, const char *w, size_t n, int *status) {
  size_t nd, rest;
  int chomp;
  if (!bl_lex_heredoc_word(w, n, &nd, &chomp, &rest) || rest == n) return 0;
  /* A plain name (printable ASCII, no white space, quote, '$' or '\\'): the shell-word lexer
   * would return it unchanged as the one word of both scans. */
  size_t k = rest;
  while (k < n && (unsigned char)w[k] > ' ' && (unsigned char)w[k] < 0x7F && w[k] != '$' &&
         w[k] != '\'' && w[k] != '"' && w[k] != '\\')
    k++;
  if (k == n) {
    boxlint_heredoc *h = &rd->heredocs[rd->nheredocs++];
    memset(h, 0, sizeof *h);
    char *nm = boxlint__rstrdup(cx->r, w + rest, n - rest);
    if (!nm) return -1;
    h->name.ptr = nm;
    h->name.len = n - rest;
    h->chomp = chomp;
    h->expand = 1;
    h->fd = heredoc_fd(w, nd);
    return 0;
  }
  int rc = bl_shlex_words(cx->m, &cx->w2, w + rest, n - rest, 0, 0, cx->shpool);
  if (rc == BL_SHLEX_NOMEM) return -1;
  if (rc != BL_SHLEX_OK) {
    *status = rc == BL_SHLEX_UNSURE ? BL_HD_UNSURE : BL_HD_BUILDKIT_ERROR;
    return 0;
  }
  if (cx->w2.n != 1) return 0;
  rc = bl_shlex_words(cx->m, &cx->w3, w + rest, n - rest, 1, 0, cx->shpool);
  if (rc == BL_SHLEX_NOMEM) return -1;
  if (rc != BL_SHLEX_OK || cx->w3.n != 1) {
    *status = rc == BL_SHLEX_UNSURE ? BL_HD_UNSURE : BL_HD_BUILDKIT_ERROR;
    return 0;
  }
  size_t nl, rl;
  const char *name = bl_word(&cx->w2, 0, &nl);
  const char *raw = bl_word(&cx->w3, 0, &rl);
  size_t q1 = 0, q2 = 0;
  for (size_t i = 0; i < nl; i++) q1 += name[i] == '\'' || name[i] == '"';
  for (size_t i = 0; i < rl; i++) q2 += raw[i] == '\'' || raw[i] == '"';
  boxlint_heredoc *h = &rd->heredocs[rd->nheredocs++];
  memset(h, 0, sizeof *h);
  char *nm = boxlint__rstrdup(cx->r, name, nl);
  if (!nm) return -1;
  h->name.ptr = nm;
  h->name.len = nl;
  h->chomp = chomp;
  h->expand = q1 == q2;
  h->fd = heredoc_fd(w, nd);
  return 0;
}

static int has_lt_lt(const char *p, size_t n) {
  const char *e = p + n;
  while (p + 1 < e && (p = memchr(p, '<', (size_t)(e - p - 1))) != NULL) {
    if (p[1] == '<') return 1;
    p++;
  }
  return 0;
}

static int heredoc_capable(const bl_read *rd) {
  const bl_cmdline *c = &rd->cmd;
  if (c->folded == BOXLINT_KW_ONBUILD) {
    if (!rd->has_trigger) return 0;
    c = &rd->trig;
  }
  return (c->folded == BOXLINT_KW_RUN || c->folded == BOXLINT_KW_COPY ||
          c->folded == BOXLINT_KW_ADD) && c->json != BL_JSON_STRINGS;
}

/* A line of the input being read: [pos, e) is its content, `next` the start of the line after. */
typedef struct rd_line {
  size_t pos, e, next;
  uint32_t line;
} rd_line;

/* Skip blank and comment lines from ln->pos: returns 1 with ln on the instruction's first line
 * (rd->start, rd->first and the comment right before it set), or 0 at the end of the input. */
static int skip_to_instruction(const bl_ctx *cx, rd_line *ln, bl_read *rd) {
  size_t prev_comment_s = SIZE_MAX, prev_comment_e = 0;
  for (;;) {
    if (ln->pos >= cx->len) {
      rd->start = rd->end = rd->first = cx->len;
      rd->line = rd->end_line = ln->line;
      return 0;
    }
    ln->e = line_end(cx, ln->pos, &ln->next);
    const unsigned char *f = skip_space(cx->buf + ln->pos, cx->buf + ln->e);
    size_t first = (size_t)(f - cx->buf);
    if (first == ln->e) { /* blank */
      prev_comment_s = SIZE_MAX;
    } else if (*f == '#') {
      prev_comment_s = ln->pos;
      prev_comment_e = ln->e;
    } else {
      rd->start = ln->pos;
      rd->first = first;
      break;
    }
    ln->pos = ln->next;
    ln->line++;
  }
  if (prev_comment_s != SIZE_MAX) {
    rd->comment_start = prev_comment_s;
    rd->comment_end = prev_comment_e;
  }
  return 1;
}

/* The first line (left-trimmed), then the continuation lines: their segments, and the logical
 * length in *llen. Leaves ln on the last line read. Returns 0, or -1 when memory ran out. */
static int read_continuations(bl_ctx *cx, rd_line *ln, bl_read *rd, size_t *llen) {
  size_t esc_at = continuation_at(cx, rd->first, ln->e);
  if (push_seg(cx, llen, rd->first, (esc_at == SIZE_MAX ? ln->e : esc_at) - rd->first)) return -1;
  while (esc_at != SIZE_MAX) {
    rd->dangling_at = esc_at;
    if (ln->next >= cx->len) {
      rd->dangling = 1;
      break;
    }
    ln->pos = ln->next;
    ln->line++;
    ln->e = line_end(cx, ln->pos, &ln->next);
    const unsigned char *f = skip_space(cx->buf + ln->pos, cx->buf + ln->e);
    if (f < cx->buf + ln->e && *f == '#') continue; /* a comment line */
    if (f == cx->buf + ln->e) {                      /* a blank line */
      rd->empty_continuation = 1;
      continue;
    }
    esc_at = continuation_at(cx, ln->pos, ln->e);
    if (push_seg(cx, llen, ln->pos, (esc_at == SIZE_MAX ? ln->e : esc_at) - ln->pos)) return -1;
  }
  return 0;
}

/* The logical line, in the report: cut from the byte check's copy of the input when there is
 * one (a single segment is used where it lies, several are moved down in order, each to an
 * offset at or before its own), else copied from the segments. 0, or -1 on OOM. */
static int copy_logical(bl_ctx *cx, bl_read *rd, size_t llen) {
  char *L;
  if (cx->copy) {
    size_t n = cx->nsegs - rd->seg0; /* (none: cx->segs may still be NULL) */
    const bl_seg *sg = n ? cx->segs + rd->seg0 : NULL;
    L = n ? cx->copy + sg[0].p : cx->copy;
    for (size_t i = 1; i < n; i++) memmove(L + sg[i].l, cx->copy + sg[i].p, sg[i].n);
  } else {
    L = cx->scratch_logical ? boxlint__rtmp(cx->r, llen + 1) : boxlint__ralloc(cx->r, llen + 1);
    if (!L) return -1;
    for (size_t i = rd->seg0; i < cx->nsegs; i++)
      memcpy(L + cx->segs[i].l, cx->buf + cx->segs[i].p, cx->segs[i].n);
  }
  L[llen] = 0;
  rd->logical = L;
  rd->llen = llen;
  return 0;
}

/* The instruction, and an ONBUILD trigger (parseSubCommand). 0, or -1 on OOM. */
static int split_instruction(bl_ctx *cx, bl_read *rd) {
  if (split_command(cx, rd->logical, 0, rd->llen, &rd->cmd)) return -1;
  if (rd->cmd.folded == BOXLINT_KW_ONBUILD && rd->cmd.args_n) {
    rd->has_trigger = 1;
    if (split_command(cx, rd->logical, rd->cmd.args_l, rd->cmd.args_l + rd->cmd.args_n, &rd->trig))
      return -1;
  }
  return 0;
}

/* The heredoc names of the logical line, where BuildKit looks for them. Returns 1 when there
 * are bodies to read, 0 when not (none, or rd->hd_status says why), -1 when memory ran out. */
static int read_heredoc_names(bl_ctx *cx, bl_read *rd) {
  if (rd->dangling || cx->no_lt || !heredoc_capable(rd) || !has_lt_lt(rd->logical, rd->llen))
    return 0;
  int rc = bl_shlex_words(cx->m, &cx->w1, rd->logical, rd->llen, 1, 1, cx->shpool);
  if (rc == BL_SHLEX_NOMEM) return -1;
  if (rc == BL_SHLEX_UNSURE) {
    rd->hd_status = BL_HD_UNSURE;
    return 0;
  }
  if (rc != BL_SHLEX_OK || cx->w1.n == 0) return 0; /* a lexer error: no heredoc at all */
  rd->heredocs = boxlint__ralloc(cx->r, cx->w1.n * sizeof *rd->heredocs);
  if (!rd->heredocs) return -1;
  for (size_t i = 0; i < cx->w1.n; i++) {
    size_t wl;
    const char *w = bl_word(&cx->w1, i, &wl);
    int st = BL_HD_OK;
    if (add_heredoc_name(cx, rd, w, wl, &st)) return -1;
    if (st != BL_HD_OK) {
      rd->hd_status = st;
      rd->nheredocs = 0;
      return 0;
    }
  }
  return 1;
}

/* The body of heredoc h from ln->next: up to its terminator line (then 1, ln on that line) or
 * the end of the input (then 0). */
static int read_heredoc_body(const bl_ctx *cx, rd_line *ln, boxlint_heredoc *h) {
  size_t body = ln->next;
  h->line = ln->line + 1;
  ln->pos = ln->next;
  while (ln->pos < cx->len) {
    ln->e = line_end(cx, ln->pos, &ln->next);
    ln->line++;
    size_t s = ln->pos;
    if (h->chomp)
      while (s < ln->e && cx->buf[s] == '\t') s++;
    if (ln->e - s == h->name.len && memcmp(cx->buf + s, h->name.ptr, ln->e - s) == 0) {
      h->body.ptr = (const char *)cx->buf + body;
      h->body.len = ln->pos - body;
      h->end_line = ln->line;
      return 1;
    }
    ln->pos = ln->next;
  }
  h->body.ptr = (const char *)cx->buf + body;
  h->body.len = cx->len - body;
  h->end_line = ln->line;
  return 0;
}

/* The heredoc bodies after the instruction's last line, in order. */
static void read_heredoc_bodies(const bl_ctx *cx, rd_line *ln, bl_read *rd) {
  for (size_t i = 0; i < rd->nheredocs; i++) {
    if (!read_heredoc_body(cx, ln, &rd->heredocs[i])) {
      rd->hd_status = BL_HD_UNTERMINATED;
      rd->hd_bad = i;
      rd->nheredocs = i + 1; /* the later ones are never read */
      rd->end = cx->len;
      rd->end_line = ln->line;
      return;
    }
  }
  rd->end = ln->next;
  rd->end_line = ln->line;
}

/* The record cleared for a read, field by field up to `cmd` (which split_command writes in
 * full; a block clear of the whole record is a slow `rep stos` on common CPUs). */
static void read_clear(bl_read *rd) {
  rd->found = 0;
  rd->start = rd->end = rd->first = 0;
  rd->line = rd->end_line = 0;
  rd->comment_start = rd->comment_end = 0;
  rd->logical = NULL;
  rd->llen = rd->seg0 = rd->nsegs = 0;
  rd->dangling = 0;
  rd->dangling_at = 0;
  rd->empty_continuation = 0;
  rd->has_trigger = 0;
  rd->heredocs = NULL;
  rd->nheredocs = 0;
  rd->hd_status = BL_HD_OK;
  rd->hd_bad = 0;
}

int bl_read_instruction(bl_ctx *cx, size_t pos, uint32_t line, bl_read *rd) {
  read_clear(rd);
  rd->seg0 = cx->nsegs;
  rd_line ln = {pos, 0, 0, line};
  size_t llen = 0;
  if (!skip_to_instruction(cx, &ln, rd)) {
    memset(&rd->cmd, 0, sizeof rd->cmd);
    return 0;
  }
  rd->found = 1;
  rd->line = ln.line;
  if (read_continuations(cx, &ln, rd, &llen)) return -1;
  rd->nsegs = cx->nsegs - rd->seg0;
  rd->end = ln.next;
  rd->end_line = ln.line;
  if (copy_logical(cx, rd, llen) || split_instruction(cx, rd)) return -1;
  /* Heredocs: only where BuildKit looks for them, then their bodies, in order. */
  int names = read_heredoc_names(cx, rd);
  if (names <= 0) return names;
  read_heredoc_bodies(cx, &ln, rd);
  return 0;
}

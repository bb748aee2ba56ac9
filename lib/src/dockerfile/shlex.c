/*
 * BuildKit's shell-word lexer (frontend/dockerfile/shell, `ProcessWords` with no variables set
 * and SkipUnsetEnv), reimplemented for one purpose: deciding exactly which words of a RUN,
 * COPY or ADD line BuildKit takes as heredoc openers, and what the heredoc names are.
 *
 * The model is faithful to the quirks that decide word boundaries, not to expansion:
 *  - one word buffer is shared by every nested `${...}` scan, and each nested scan clears it
 *    (so text before `${x:-y}` in the same word is dropped, as BuildKit drops it);
 *  - `<<` swallows the spaces, tabs and CRs that follow it into the same word;
 *  - an unterminated quote or a malformed `${...}` is an error, and BuildKit then opens no
 *    heredoc at all on that line.
 * Where the result would depend on Unicode letter classes or on text/scanner's handling of
 * a BOM or invalid bytes, it answers BL_SHLEX_UNSURE and the caller rejects conservatively.
 */
#include <string.h>
#include "dockerfile/dockerfile_int.h"

#define SH_EOF 0xFFFFFFFFu

int bl_buf_put(const boxlint__mem *m, bl_buf *b, const void *p, size_t n) {
  if (n > SIZE_MAX - b->len - 1) return -1;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + n + 1) cap *= 2;
    char *q = boxlint__realloc(m, b->p, b->cap, cap);
    if (!q) return -1;
    b->p = q;
    b->cap = cap;
  }
  if (n) memcpy(b->p + b->len, p, n);
  b->len += n;
  b->p[b->len] = 0;
  return 0;
}

int bl_buf_putc(const boxlint__mem *m, bl_buf *b, char c) { return bl_buf_put(m, b, &c, 1); }

void bl_buf_free(const boxlint__mem *m, bl_buf *b) {
  boxlint__free(m, b->p);
  b->p = NULL;
  b->len = b->cap = 0;
}

void bl_words_free(const boxlint__mem *m, bl_words *w) {
  bl_buf_free(m, &w->text);
  boxlint__free(m, w->ends);
  w->ends = NULL;
  w->n = w->cap = 0;
}

int bl_is_space_rune(uint32_t c) {
  if (c <= 0xFF) return c == ' ' || (c >= 0x09 && c <= 0x0D) || c == 0x85 || c == 0xA0;
  return c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
         c == 0x202F || c == 0x205F || c == 0x3000;
}

typedef struct sh {
  const boxlint__mem *m;
  const unsigned char *s;
  size_t n, pos;
  int raw_quotes, raw_escapes;
  bl_buf wbuf; /* BuildKit's shared sw.wordsBuffer */
  int status;  /* first failure */
} sh;

typedef struct sh_words {
  bl_words *out; /* NULL: words are discarded (nested scans) */
  int in_word;
} sh_words;

static void sh_fail(sh *st, int status) {
  if (st->status == BL_SHLEX_OK) st->status = status;
}

static uint32_t sh_peek_w(sh *st, size_t *w) {
  if (st->pos >= st->n) {
    *w = 0;
    return SH_EOF;
  }
  unsigned char b = st->s[st->pos];
  if (b && b < 0x80) { /* ASCII: no decoding */
    *w = 1;
    return b;
  }
  uint32_t c;
  size_t l = boxlint__utf8_decode(st->s + st->pos, st->n - st->pos, &c);
  if (!l || c == 0 || c == 0xFEFF) {
    /* text/scanner reports these through its error hook and goes on; not modelled. */
    sh_fail(st, BL_SHLEX_UNSURE);
    *w = 1;
    return 0xFFFD;
  }
  *w = l;
  return c;
}
static uint32_t sh_peek(sh *st) {
  size_t w;
  return sh_peek_w(st, &w);
}
static uint32_t sh_next(sh *st) {
  size_t w;
  uint32_t c = sh_peek_w(st, &w);
  st->pos += w;
  return c;
}

static void put_rune(sh *st, bl_buf *b, uint32_t c) {
  if (!b) return; /* the top-level result is not needed: only the words are */
  if (c < 0x80 && b->len + 2 <= b->cap) { /* common case: room for the byte and the NUL */
    b->p[b->len++] = (char)c;
    b->p[b->len] = 0;
    return;
  }
  char u[4];
  size_t l = boxlint__utf8_encode(c, u);
  if (bl_buf_put(st->m, b, u, l)) sh_fail(st, BL_SHLEX_NOMEM);
}
static void put_str(sh *st, bl_buf *b, const char *p, size_t n) {
  if (!b) return;
  if (bl_buf_put(st->m, b, p, n)) sh_fail(st, BL_SHLEX_NOMEM);
}

static void w_emit(sh *st, sh_words *w) {
  if (w->out) {
    bl_words *o = w->out;
    if (o->n == o->cap) {
      size_t cap = o->cap ? o->cap * 2 : 16;
      size_t *e = boxlint__realloc(st->m, o->ends, o->cap * sizeof *e, cap * sizeof *e);
      if (!e) { sh_fail(st, BL_SHLEX_NOMEM); return; }
      o->ends = e;
      o->cap = cap;
    }
    if (bl_buf_put(st->m, &o->text, st->wbuf.p, st->wbuf.len)) { sh_fail(st, BL_SHLEX_NOMEM); return; }
    o->ends[o->n++] = o->text.len;
  }
  st->wbuf.len = 0;
  w->in_word = 0;
}
static void w_raw_char(sh *st, sh_words *w, uint32_t c) {
  put_rune(st, &st->wbuf, c);
  w->in_word = 1;
}
static void w_char(sh *st, sh_words *w, uint32_t c) {
  if (c < 0x80 ? (c == ' ' || (c >= 0x09 && c <= 0x0D)) : bl_is_space_rune(c)) {
    if (w->in_word && st->wbuf.len) w_emit(st, w);
  } else {
    w_raw_char(st, w, c);
  }
}
static void w_string(sh *st, sh_words *w, const char *p, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint32_t c;
    size_t l = boxlint__utf8_decode((const unsigned char *)p + i, n - i, &c);
    if (!l) { c = 0xFFFD; l = 1; }
    w_char(st, w, c);
    i += l;
  }
}
static void w_raw_string(sh *st, sh_words *w, const char *p, size_t n) {
  put_str(st, &st->wbuf, p, n);
  w->in_word = 1;
}
static void w_finish(sh *st, sh_words *w) {
  if (st->wbuf.len) w_emit(st, w);
}

static int stop_on(sh *st, uint32_t stop, int raw_escapes, bl_buf *res, sh_words *words,
                   bl_buf *tmp_buf);

static int is_special_param(uint32_t c) {
  return c == '@' || c == '*' || c == '#' || c == '?' || c == '-' || c == '$' || c == '!' ||
         c == '0';
}

/* processName: appends the name to `out`. */
static void process_name(sh *st, bl_buf *out) {
  size_t start = out->len;
  for (;;) {
    uint32_t c = sh_peek(st);
    if (c == SH_EOF) return;
    if (c >= 0x80) { /* Unicode letters and digits are not modelled */
      sh_fail(st, BL_SHLEX_UNSURE);
      return;
    }
    if (out->len == start && boxlint__is_digit((unsigned char)c)) {
      while ((c = sh_peek(st)) != SH_EOF && c < 0x80 && boxlint__is_digit((unsigned char)c))
        put_rune(st, out, sh_next(st));
      return;
    }
    if (out->len == start && is_special_param(c)) {
      put_rune(st, out, sh_next(st));
      return;
    }
    if (!boxlint__is_alpha((unsigned char)c) && !boxlint__is_digit((unsigned char)c) && c != '_')
      return;
    put_rune(st, out, sh_next(st));
  }
}

/* Appends buffer `b` (maybe never allocated) to `res`. */
static inline void put_buf(sh *st, bl_buf *res, const bl_buf *b) {
  put_str(st, res, b->p ? b->p : "", b->len);
}

/* ${name<op>word}: the operators :- :+ :? - + ? # % (ch is the first byte after the name).
 * Returns 0 or -1 (st->status set). */
static int dollar_modifier(sh *st, bl_buf *res, uint32_t ch, const bl_buf *name, bl_buf *word) {
  char chs[8];
  size_t nchs = 0;
  int null_is_unset = 0;
  if (ch == ':') {
    null_is_unset = 1;
    chs[nchs++] = ':';
    ch = sh_next(st);
    if (ch == SH_EOF || ch >= 0x80) { /* an error either way in BuildKit, or unmodelled */
      sh_fail(st, ch == SH_EOF ? BL_SHLEX_ERROR : BL_SHLEX_UNSURE);
      return -1;
    }
  }
  chs[nchs++] = (char)ch;
  int raw = ch == '#' || ch == '%';
  if (null_is_unset && raw) {
    sh_fail(st, BL_SHLEX_ERROR);
    return -1;
  }
  sh_words discard = {NULL, 0};
  if (stop_on(st, '}', raw, word, &discard, NULL)) return -1;
  put_str(st, res, "${", 2);
  put_buf(st, res, name);
  put_str(st, res, chs, nchs);
  put_buf(st, res, word);
  put_str(st, res, "}", 1);
  return 0;
}

/* ${name/pattern/replacement} and ${name//pattern/replacement} (after the first '/').
 * Returns 0 or -1. */
static int dollar_replace(sh *st, bl_buf *res, const bl_buf *name, bl_buf *word) {
  if (sh_peek(st) == '/') sh_next(st);
  int rc = -1;
  bl_buf repl = {0};
  sh_words discard = {NULL, 0};
  if (stop_on(st, '/', 1, word, &discard, NULL) == 0 &&
      stop_on(st, '}', 1, &repl, &discard, NULL) == 0) {
    put_str(st, res, "${", 2);
    put_buf(st, res, name);
    put_str(st, res, "/", 1);
    put_buf(st, res, word);
    put_str(st, res, "/", 1);
    put_buf(st, res, &repl);
    put_str(st, res, "}", 1);
    rc = 0;
  }
  bl_buf_free(st->m, &repl);
  return rc;
}

/* processDollar: appends its result to `res`. Returns 0 or -1 (error, st->status set). */
static int process_dollar(sh *st, bl_buf *res) {
  sh_next(st); /* '$' */
  if (sh_peek(st) != '{') {
    put_str(st, res, "$", 1);
    process_name(st, res); /* unset variable: "$" + name, or "$" alone */
    return st->status ? -1 : 0;
  }
  sh_next(st);
  uint32_t c = sh_peek(st);
  if (c == SH_EOF || c == '{' || c == '}' || c == ':') {
    sh_fail(st, BL_SHLEX_ERROR);
    return -1;
  }
  bl_buf name = {0};
  process_name(st, &name);
  uint32_t ch = sh_next(st);
  int rc = -1;
  bl_buf word = {0};
  switch (ch) {
  case '}':
    put_str(st, res, "${", 2);
    put_buf(st, res, &name);
    put_str(st, res, "}", 1);
    rc = 0;
    break;
  case ':': case '+': case '-': case '?': case '#': case '%':
    rc = dollar_modifier(st, res, ch, &name, &word);
    break;
  case '/':
    rc = dollar_replace(st, res, &name, &word);
    break;
  default:
    sh_fail(st, BL_SHLEX_ERROR);
    break;
  }
  bl_buf_free(st->m, &name);
  bl_buf_free(st->m, &word);
  return st->status ? -1 : rc;
}

static int single_quote(sh *st, bl_buf *res) {
  uint32_t c = sh_next(st);
  if (st->raw_quotes) put_rune(st, res, c);
  for (;;) {
    c = sh_next(st);
    if (c == SH_EOF) {
      sh_fail(st, BL_SHLEX_ERROR);
      return -1;
    }
    if (c == '\'') {
      if (st->raw_quotes) put_rune(st, res, c);
      return st->status ? -1 : 0;
    }
    put_rune(st, res, c);
  }
}

static int double_quote(sh *st, bl_buf *res) {
  uint32_t c = sh_next(st);
  if (st->raw_quotes) put_rune(st, res, c);
  for (;;) {
    if (st->status) return -1;
    c = sh_peek(st);
    if (c == SH_EOF) {
      sh_fail(st, BL_SHLEX_ERROR);
      return -1;
    }
    if (c == '"') {
      sh_next(st);
      if (st->raw_quotes) put_rune(st, res, c);
      return st->status ? -1 : 0;
    }
    if (c == '$') {
      if (process_dollar(st, res)) return -1;
      continue;
    }
    c = sh_next(st);
    if (c == '\\') {
      if (st->raw_escapes) put_rune(st, res, c);
      uint32_t p = sh_peek(st);
      if (p == SH_EOF) continue; /* "ignore \ at end of word": the loop then fails */
      if (p == '"' || p == '$' || p == '\\') c = sh_next(st);
    }
    put_rune(st, res, c);
  }
}

static void possible_heredoc(sh *st, bl_buf *tmp) {
  sh_next(st);
  if (sh_peek(st) != '<') {
    put_str(st, tmp, "<", 1);
    return;
  }
  sh_next(st);
  put_str(st, tmp, "<<", 2);
  uint32_t c;
  while ((c = sh_peek(st)) == '\t' || c == '\r' || c == ' ') put_rune(st, tmp, sh_next(st));
}

/* processStopOn. The escape character is always backslash here (BuildKit's heredoc lexer). */
static int stop_on(sh *st, uint32_t stop, int raw_escapes, bl_buf *res, sh_words *words,
                   bl_buf *tmp_buf) {
  int saved = st->raw_escapes;
  st->raw_escapes = raw_escapes;
  st->wbuf.len = 0; /* the shared buffer is reset by every scan, nested ones included */
  bl_buf local = {0};
  bl_buf *tp = tmp_buf ? tmp_buf : &local; /* the caller's warm buffer at the top level */
#define tmp (*tp)
  int rc = 0;
  for (;;) {
    if (st->status) { rc = -1; break; }
    uint32_t c = sh_peek(st);
    if (c == SH_EOF) break;
    if (stop != SH_EOF && c == stop) {
      sh_next(st);
      w_finish(st, words);
      goto done;
    }
    tmp.len = 0;
    if (c == '$') {
      if (process_dollar(st, &tmp)) { rc = -1; break; }
      put_str(st, res, tmp.p, tmp.len);
      w_string(st, words, tmp.p, tmp.len);
    } else if (c == '<' || c == '\'' || c == '"') {
      if (c == '<') possible_heredoc(st, &tmp);
      else if ((c == '\'' ? single_quote(st, &tmp) : double_quote(st, &tmp))) { rc = -1; break; }
      put_str(st, res, tmp.p ? tmp.p : "", tmp.len);
      w_raw_string(st, words, tmp.p ? tmp.p : "", tmp.len);
    } else {
      c = sh_next(st);
      if (c == '\\') {
        if (st->raw_escapes) {
          w_raw_char(st, words, c);
          put_rune(st, res, c);
        }
        c = sh_next(st);
        if (c == SH_EOF) break;
        w_raw_char(st, words, c);
      } else {
        w_char(st, words, c);
      }
      put_rune(st, res, c);
    }
  }
  if (rc == 0 && stop != SH_EOF) {
    sh_fail(st, BL_SHLEX_ERROR);
    rc = -1;
  }
  if (rc == 0) w_finish(st, words);
done:
#undef tmp
  bl_buf_free(st->m, &local);
  st->raw_escapes = saved;
  if (st->status) rc = -1;
  return rc;
}

/* The lexer on text of printable ASCII and ASCII white space with no quote, '$' or '\\': words
 * are the runs between white space, except that "<<" keeps the spaces, tabs and CRs after it
 * (possibleHeredoc). Returns 1 when it applied (words in `out`), 0 when the text needs the full
 * lexer, -1 when memory ran out. */
static int plain_words(const boxlint__mem *m, bl_words *out, const unsigned char *s, size_t n) {
  /* 0: a word byte, 1: white space (ASCII, as the lexer's IsSpace sees it), 2: '<', 3: a byte
   * that needs the full lexer (quotes, '$', '\\', controls, DEL, non-ASCII). */
  static const char CLS[257] = /* by byte value, 32 per row */
      "33333333311111333333333333333333" /* 00 */
      "10303003000000000000000000002000" /* 20 */
      "00000000000000000000000000003000" /* 40 */
      "00000000000000000000000000000003" /* 60 */
      "33333333333333333333333333333333" /* 80 */
      "33333333333333333333333333333333" /* A0 */
      "33333333333333333333333333333333" /* C0 */
      "33333333333333333333333333333333" /* E0 */;
  for (size_t i = 0; i < n; i++)
    if (CLS[s[i]] == '3') return 0;
  out->text.len = 0;
  out->n = 0;
  for (size_t i = 0; i < n;) {
    while (i < n && CLS[s[i]] == '1') i++;
    if (i == n) break;
    size_t w = i;
    while (i < n && CLS[s[i]] != '1') {
      if (s[i] == '<' && i + 1 < n && s[i + 1] == '<') {
        i += 2;
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
      } else {
        i++;
      }
    }
    if (out->n == out->cap) {
      size_t cap = out->cap ? out->cap * 2 : 16;
      size_t *e = boxlint__realloc(m, out->ends, out->cap * sizeof *e, cap * sizeof *e);
      if (!e) return -1;
      out->ends = e;
      out->cap = cap;
    }
    if (bl_buf_put(m, &out->text, s + w, i - w)) return -1;
    out->ends[out->n++] = out->text.len;
  }
  return 1;
}

int bl_shlex_words(const boxlint__mem *m, bl_words *out, const char *s, size_t n, int raw_quotes,
                   int raw_escapes, bl_buf pool[3]) {
  int plain = plain_words(m, out, (const unsigned char *)s, n);
  if (plain) {
    if (plain > 0) return BL_SHLEX_OK;
    out->text.len = 0;
    out->n = 0;
    return BL_SHLEX_NOMEM;
  }
  return bl_shlex_words_full(m, out, s, n, raw_quotes, raw_escapes, pool);
}

int bl_shlex_words_full(const boxlint__mem *m, bl_words *out, const char *s, size_t n,
                        int raw_quotes, int raw_escapes, bl_buf pool[3]) {
  sh st;
  memset(&st, 0, sizeof st);
  st.m = m;
  st.s = (const unsigned char *)s;
  st.n = n;
  st.raw_quotes = raw_quotes;
  st.raw_escapes = raw_escapes;
  out->text.len = 0;
  out->n = 0;
  pool[0].len = pool[1].len = pool[2].len = 0;
  st.wbuf = pool[1];
  sh_words words = {out, 0};
  stop_on(&st, SH_EOF, raw_escapes, NULL, &words, &pool[2]);
  pool[1] = st.wbuf; /* keep the (possibly grown) buffer warm */
  if (st.status) {
    out->text.len = 0;
    out->n = 0;
  }
  return st.status;
}

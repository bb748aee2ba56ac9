/*
 * A small shell splitter for RUN scripts: words (unquoted) and operators, then simple commands
 * with their command word found after assignments and wrappers (sudo, env, nohup...). It is
 * what lets the rules see commands rather than text, so that a quoted string, a comment or an
 * argument is never mistaken for a command. It runs on every RUN with the warnings on: the
 * byte loop copies the runs of ordinary bytes in one tight loop, by a table.
 */
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "warnings/warnings_int.h"

#define SH_MAX_WORDS 4096

/* What a byte does where a word may start or end: SH_BLANK (TAB, CR, space), SH_OP (an
 * operator: & | ; ( ) and newline), SH_HASH ('#', a comment where a word would start), else 0. */
enum { SH_BLANK = 1, SH_OP = 2, SH_HASH = 4 };
static const unsigned char SH_LEAD[256] = {
    ['\t'] = SH_BLANK, ['\r'] = SH_BLANK, [' '] = SH_BLANK, ['&'] = SH_OP, ['|'] = SH_OP,
    [';'] = SH_OP, ['('] = SH_OP, [')'] = SH_OP, ['\n'] = SH_OP, ['#'] = SH_HASH,
};

/* '1' for the bytes with a meaning to the splitter (white space, operators, quotes, '\\', '$'),
 * by byte value; the others are copied as they are. */
static const char SH_SPECIAL[257] =
    "00000000011001000000000000000000" /* 00 */
    "10101011110000000000000000010000" /* 20 */
    "00000000000000000000000000001000" /* 40 */
    "00000000000000000000000000001000" /* 60 */
    "00000000000000000000000000000000" /* 80 */
    "00000000000000000000000000000000" /* A0 */
    "00000000000000000000000000000000" /* C0 */
    "00000000000000000000000000000000" /* E0 */;

/* Room for one more word: the array doubles (in the arena) up to SH_MAX_WORDS. Returns 0,
 * 1 when it is full (the splitter stops there), -1 when memory ran out. */
static int grow_words(bl_check *ck, bl_sh_script *out, size_t *cap) {
  if (*cap >= SH_MAX_WORDS) return 1;
  bl_sh_word *nw = boxlint__rtmp(ck->cx.r, sizeof(bl_sh_word) * *cap * 2);
  if (!nw) return -1;
  memcpy(nw, out->w, sizeof(bl_sh_word) * *cap);
  out->w = nw;
  *cap *= 2;
  return 0;
}

/* The operator at text[i] (SH_OP): &&, ||, |, ( and ), or ';' for ; & and newline. Returns
 * the offset after it. */
static size_t read_operator(const char *text, size_t i, size_t e, bl_sh_word *w) {
  char c = text[i];
  if ((c == '&' || c == '|') && i + 1 < e && text[i + 1] == c) {
    w->op = c == '&' ? '&' : '|';
    i += 2;
  } else {
    w->op = c == '|' ? 'p' : (c == '(' || c == ')') ? (unsigned char)c : ';';
    i++;
  }
  w->e = i;
  return i;
}

/* Copy the bytes from text[i] that are not SH_SPECIAL to *o; returns where they end. Sixteen
 * at a time with SSE2, stopping at a superset of the special bytes: every byte up to 0x20
 * (TAB, LF, CR and space among them), 0x22-0x29 (" $ & ' ( ) with # and %), ';', '\\' and
 * '|'. The caller copies a byte that is not special as it is, so stopping early changes
 * nothing but the speed. */
static size_t copy_plain(const char *text, size_t i, size_t e, char **out) {
  char *o = *out;
#if defined(__SSE2__)
  const __m128i c20 = _mm_set1_epi8(0x20), c21 = _mm_set1_epi8(0x21), c2a = _mm_set1_epi8(0x2a),
                sc = _mm_set1_epi8(';'), bs = _mm_set1_epi8('\\'), br = _mm_set1_epi8('|');
  while (e - i >= 16) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(text + i));
    __m128i low = _mm_cmpeq_epi8(_mm_min_epu8(x, c20), x);                     /* <= 0x20 */
    __m128i q = _mm_and_si128(_mm_cmpgt_epi8(x, c21), _mm_cmplt_epi8(x, c2a)); /* 22-29 */
    __m128i eq = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, sc), _mm_cmpeq_epi8(x, bs)),
                              _mm_cmpeq_epi8(x, br));
    int m = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(low, q), eq));
    /* All 16 stored, k kept: the buffer (twice the input) has room for them, since at least
     * 16 input bytes remain. */
    _mm_storeu_si128((__m128i *)(void *)o, x);
    if (m) {
      size_t k = (size_t)__builtin_ctz((unsigned)m);
      *out = o + k;
      return i + k;
    }
    o += 16;
    i += 16;
  }
#endif
  while (i < e && SH_SPECIAL[(unsigned char)text[i]] == '0') *o++ = text[i++];
  *out = o;
  return i;
}

/* The word at text[*at]: its unquoted text goes to `o` (not terminated), w->quoted is set when
 * some part was quoted, and *at moves past the word. Returns the end of the text in `o`. */
static char *read_word(const char *text, size_t *at, size_t e, char *o, bl_sh_word *w) {
  size_t i = *at;
  int depth = 0;
  while (i < e) {
    i = copy_plain(text, i, e, &o);
    if (i == e) break;
    char c = text[i];
    if (depth == 0 && (SH_LEAD[(unsigned char)c] & (SH_BLANK | SH_OP))) break;
    if (c == '\\' && i + 1 < e) {
      if (text[i + 1] != '\n') *o++ = text[i + 1];
      w->quoted = 1;
      i += 2;
    } else if (c == '\'') {
      w->quoted = 1;
      for (i++; i < e && text[i] != '\''; i++) *o++ = text[i];
      i++;
    } else if (c == '"') {
      w->quoted = 1;
      for (i++; i < e && text[i] != '"'; i++) {
        if (text[i] == '\\' && i + 1 < e && strchr("\"\\$`", text[i + 1])) i++;
        *o++ = text[i];
      }
      i++;
    } else if (c == '$' && i + 1 < e && text[i + 1] == '(') {
      depth++;
      *o++ = c;
      *o++ = '(';
      i += 2;
    } else if (depth && c == ')') {
      depth--;
      *o++ = c;
      i++;
    } else {
      *o++ = c;
      i++;
    }
  }
  *at = i > e ? e : i;
  return o;
}

int bl_sh_split(bl_check *ck, const char *text, size_t s, size_t e, bl_sh_script *out) {
  size_t cap = 64;
  out->n = 0;
  /* The first 64 words, then the word texts back to back, each NUL-terminated: one block. */
  if (e - s > (SIZE_MAX - sizeof(bl_sh_word) * cap) / 2 - 1) return -1;
  out->w = boxlint__rtmp(ck->cx.r, sizeof(bl_sh_word) * cap + 2 * (e - s) + 1);
  if (!out->w) return -1;
  char *buf = (char *)(out->w + cap);
  /* The count and the array in locals, stored back at the end: the word texts are written
   * through a char pointer, which may alias anything, and would otherwise make every word
   * reload and store out->n. */
  size_t n = 0;
  bl_sh_word *words = out->w;
  size_t i = s;
  while (i < e) {
    unsigned lead = SH_LEAD[(unsigned char)text[i]];
    if (lead == SH_BLANK) { /* a run of blanks (indented lines), then what follows it */
      do i++;
      while (i < e && (lead = SH_LEAD[(unsigned char)text[i]]) == SH_BLANK);
      if (i == e) break;
    }
    if (lead == SH_HASH) { /* a comment to the end of the line */
      while (i < e && text[i] != '\n') i++;
      continue;
    }
    if (n == cap) {
      out->n = n;
      int full = grow_words(ck, out, &cap);
      if (full < 0) return -1;
      if (full) break;
      words = out->w;
    }
    bl_sh_word *w = &words[n];
    w->s = i;
    w->quoted = 0;
    if (lead == SH_OP) {
      w->text = NULL;
      w->len = 0;
      i = read_operator(text, i, e, w);
      n++;
      continue;
    }
    w->op = 0;
    char *o = read_word(text, &i, e, buf, w);
    w->e = i;
    w->len = (size_t)(o - buf);
    *o++ = 0;
    w->text = buf;
    buf = o;
    n++;
  }
  out->n = n;
  return 0;
}

/* ---- Simple commands ------------------------------------------------------------------------ */

static int is_assignment(const bl_sh_word *w) {
  if (w->op || !w->len || w->quoted) return 0;
  const char *t = w->text;
  if (!((*t >= 'A' && *t <= 'Z') || (*t >= 'a' && *t <= 'z') || *t == '_')) return 0;
  for (; *t && *t != '='; t++)
    if (!((*t >= 'A' && *t <= 'Z') || (*t >= 'a' && *t <= 'z') || (*t >= '0' && *t <= '9') ||
          *t == '_'))
      return 0;
  return *t == '=';
}

/* The command word of the simple command [cmd->b, cmd->e): after assignments and wrappers
 * (sudo with its options, env, nohup, time, exec, command); cmd->e when there is none. Sets
 * cmd->sudo. */
static size_t command_word(const bl_sh_script *sc, bl_sh_cmd *cmd) {
  const bl_sh_word *w = sc->w;
  size_t c = cmd->b;
  for (;;) {
    while (c < cmd->e && is_assignment(&w[c])) c++;
    if (c >= cmd->e) return c;
    const char *name = bl_sh_base_name(&w[c]);
    enum bl_sh_name k = bl_sh_name_kind(name);
    if (k == BL_SH_SUDO) {
      cmd->sudo = (int)c + 1;
      c++;
      while (c < cmd->e && w[c].text[0] == '-') {
        /* options with a value: -u user, -g group, -C n, -h host */
        int takes = strlen(w[c].text) == 2 && strchr("ugCh", w[c].text[1]);
        c += takes ? 2 : 1;
      }
    } else if (k == BL_SH_WRAPPER) {
      c++;
      while (c < cmd->e && w[c].text[0] == '-') c++;
    } else {
      cmd->name = name;
      cmd->kind = (int)k;
      return c;
    }
  }
}

int bl_sh_next_cmd(const bl_sh_script *sc, bl_sh_cmd *cmd) {
  size_t i = cmd->e; /* after the previous command (0 at the start) */
  for (;;) {
    int pipe_in = 0;
    while (i < sc->n && sc->w[i].op) {
      pipe_in = sc->w[i].op == 'p';
      i++;
    }
    if (i >= sc->n) return 0;
    cmd->b = cmd->e = i;
    cmd->sudo = 0;
    cmd->pipe_in = pipe_in;
    size_t e = i;
    while (e < sc->n && !sc->w[e].op) e++;
    cmd->e = e;
    cmd->pipe_out = e < sc->n && sc->w[e].op == 'p';
    cmd->c = command_word(sc, cmd);
    if (cmd->c < cmd->e) return 1;
    i = cmd->e; /* only assignments and wrappers: no command */
  }
}

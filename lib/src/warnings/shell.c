/*
 * A small shell splitter for RUN scripts: words (unquoted) and operators, then simple commands
 * with their command word found after assignments and wrappers (sudo, env, nohup...). It is
 * what lets the rules see commands rather than text, so that a quoted string, a comment or an
 * argument is never mistaken for a command. It runs on every RUN with the warnings on: with
 * SSE2 the tokens come from bit masks of 64 bytes at a time (the blanks, and the bytes that may
 * end a word), and a plain word is copied 16 bytes at a time; whatever needs more (quotes, a
 * backslash, $(, a comment) goes one token at a time through the byte loop, which is all of the
 * splitter without SSE2.
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

/* What the splitter has made so far: the words (out->w, regrown in the arena), their count and
 * room, and where the next word's text goes. */
typedef struct sh_out {
  bl_check *ck;
  bl_sh_script *out;
  bl_sh_word *w;
  size_t n, cap;
  size_t cmd; /* the first word after the last operator */
  char *buf;
} sh_out;

/* One token from text[*at]: the blanks there, then a comment, an operator or a word; *at moves
 * past it. Returns 0, 1 when the words are full (the splitter stops there), -1 when memory ran
 * out. With SSE2 it is the splitter's slow path, kept out of the loop by blocks (whose
 * registers it would take when inlined). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int sh_step(sh_out *so, const char *text, size_t *at, size_t e) {
  size_t i = *at;
  unsigned lead = SH_LEAD[(unsigned char)text[i]];
  if (lead == SH_BLANK) { /* a run of blanks (indented lines), then what follows it */
    do i++;
    while (i < e && (lead = SH_LEAD[(unsigned char)text[i]]) == SH_BLANK);
    *at = i;
    if (i == e) return 0;
  }
  if (lead == SH_HASH) { /* a comment to the end of the line */
    while (i < e && text[i] != '\n') i++;
    *at = i;
    return 0;
  }
  if (so->n == so->cap) {
    so->out->n = so->n;
    int full = grow_words(so->ck, so->out, &so->cap);
    if (full) return full;
    so->w = so->out->w;
  }
  bl_sh_word *w = &so->w[so->n++];
  w->s = i;
  w->quoted = 0;
  if (lead == SH_OP) {
    w->text = NULL;
    w->len = 0;
    *at = read_operator(text, i, e, w);
    so->w[so->cmd].cmd_end = (unsigned short)(so->n - 1); /* this one's own when cmd is it */
    so->cmd = so->n;
    return 0;
  }
  w->op = 0;
  char *o = read_word(text, &i, e, so->buf, w);
  w->e = i;
  w->len = (size_t)(o - so->buf);
  *o++ = 0;
  w->text = so->buf;
  so->buf = o;
  *at = i;
  return 0;
}

#if defined(__SSE2__)
/* block_masks's bits for 16 bytes. */
static inline void masks16(__m128i x, unsigned *stop, unsigned *blank) {
  const __m128i c29 = _mm_set1_epi8(0x29), sc = _mm_set1_epi8(';'), c20 = _mm_set1_epi8(0x20),
                br = _mm_set1_epi8('|'), tab = _mm_set1_epi8('\t'), cr = _mm_set1_epi8('\r');
  __m128i low = _mm_cmpeq_epi8(_mm_min_epu8(x, c29), x);
  __m128i bar = _mm_cmpeq_epi8(_mm_or_si128(x, c20), br); /* '\\' | 0x20 is '|' */
  __m128i bl = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, c20), _mm_cmpeq_epi8(x, tab)),
                            _mm_cmpeq_epi8(x, cr));
  *stop = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(low, _mm_cmpeq_epi8(x, sc)), bar));
  *blank = (unsigned)_mm_movemask_epi8(bl);
}

/* The 64 bytes at p as bit masks (bit k: p[k]): *stop, a superset of the bytes that end a word
 * or need read_word (0x00-0x29: the blanks, LF, quotes, $ & ( ), with ! # % and the controls;
 * and ; \ |), and *blank, the blanks among them (space, TAB, CR). */
static inline void block_masks(const char *p, uint64_t *stop, uint64_t *blank) {
  uint64_t st = 0, bk = 0;
  for (int j = 0; j < 64; j += 16) {
    unsigned m, b;
    masks16(_mm_loadu_si128((const __m128i *)(const void *)(p + j)), &m, &b);
    st |= (uint64_t)m << j;
    bk |= (uint64_t)b << j;
  }
  *stop = st;
  *blank = bk;
}

/* A byte's bits in block_masks's masks, one at a time: for the end of a script shorter than
 * 16 bytes. */
static inline void byte_masks(unsigned char c, size_t k, uint64_t *stop, uint64_t *blank) {
  *stop |= (uint64_t)(c <= 0x29 || c == ';' || c == '\\' || c == '|') << k;
  *blank |= (uint64_t)(c == ' ' || c == '\t' || c == '\r') << k;
}

/* The masks of the script's last 64 bytes (or of all of it, from s, when shorter: the positions
 * from e on count as blanks), from the returned offset: read where they are, 16 bytes at a
 * time, the last 16 again for the end of a shorter script (a padded copy would be read back
 * before its stores are done, which costs more). */
static size_t tail_masks(const char *text, size_t s, size_t e, uint64_t *stop, uint64_t *blank) {
  if (e - s >= 64) {
    block_masks(text + e - 64, stop, blank);
    return e - 64;
  }
  size_t len = e - s, c = 0;
  uint64_t st = 0, bk = 0;
  for (; c < len; c += 16) {
    size_t from = c + 16 <= len ? s + c : e - 16, drop = s + c - from; /* bytes read again */
    if (len < 16) {
      for (size_t k = 0; k < len; k++) byte_masks((unsigned char)text[s + k], k, &st, &bk);
      break;
    }
    unsigned m, b;
    masks16(_mm_loadu_si128((const __m128i *)(const void *)(text + from)), &m, &b);
    st |= (uint64_t)(m >> drop) << c;
    bk |= (uint64_t)(b >> drop) << c;
  }
  *stop = st | ~(uint64_t)0 << len;
  *blank = bk | ~(uint64_t)0 << len;
  return s;
}

/* The masks of the block at b: from the script, or from the tail's (tst and tbl, from tb);
 * blanks from e on. */
static inline void masks_at(const char *text, size_t b, size_t e, size_t tb, uint64_t tst,
                            uint64_t tbl, uint64_t *stop, uint64_t *blank) {
  if (e - b >= 64 && b < e) {
    block_masks(text + b, stop, blank);
  } else if (b >= e) {
    *stop = *blank = ~(uint64_t)0;
  } else {
    uint64_t past = ~(uint64_t)0 << (e - b);
    *stop = tst >> (b - tb) | past;
    *blank = tbl >> (b - tb) | past;
  }
}

/* The k bytes at p to o, reading and writing none after them: for the words near the end of
 * the script. */
static inline void copy_exact(char *o, const char *p, size_t k) {
  if (k >= 16) {
    for (size_t c = 0; c + 16 < k; c += 16)
      _mm_storeu_si128((__m128i *)(void *)(o + c),
                       _mm_loadu_si128((const __m128i *)(const void *)(p + c)));
    _mm_storeu_si128((__m128i *)(void *)(o + k - 16),
                     _mm_loadu_si128((const __m128i *)(const void *)(p + k - 16)));
  } else if (k >= 8) {
    uint64_t a, b;
    memcpy(&a, p, 8);
    memcpy(&b, p + k - 8, 8);
    memcpy(o, &a, 8);
    memcpy(o + k - 8, &b, 8);
  } else if (k >= 4) {
    uint32_t a, b;
    memcpy(&a, p, 4);
    memcpy(&b, p + k - 4, 4);
    memcpy(o, &a, 4);
    memcpy(o + k - 4, &b, 4);
  } else {
    o[0] = p[0];
    o[k / 2] = p[k / 2];
    o[k - 1] = p[k - 1];
  }
}

/* The plain word [j, end) as w, its text copied to buf; returns where the next text goes. By
 * 16 bytes, two at least, when 32 bytes of the script follow the word (the output, twice the
 * script, then has room), else exactly. */
static inline char *put_word(bl_sh_word *w, char *buf, const char *text, size_t j, size_t end,
                             size_t e) {
  size_t k = end - j;
  const char *src = text + j;
  if (e - end >= 32) {
    _mm_storeu_si128((__m128i *)(void *)buf, _mm_loadu_si128((const __m128i *)(const void *)src));
    _mm_storeu_si128((__m128i *)(void *)(buf + 16),
                     _mm_loadu_si128((const __m128i *)(const void *)(src + 16)));
    for (size_t c = 32; c < k; c += 16)
      _mm_storeu_si128((__m128i *)(void *)(buf + c),
                       _mm_loadu_si128((const __m128i *)(const void *)(src + c)));
  } else {
    copy_exact(buf, src, k);
  }
  w->s = j;
  w->e = end;
  w->quoted = 0;
  w->op = 0;
  w->len = k;
  w->text = buf;
  buf[k] = 0;
  return buf + k + 1;
}

/* The tokens of the script 64 bytes at a time, from bit masks: the words (runs of bytes that
 * are not stops) and the stop bytes that are not blanks start tokens, all found at once rather
 * than one after the other. A word may end in the next block, whose masks are at hand. A word
 * whose stop byte is a blank or an operator is copied as it is; an operator is
 * read_operator's. Anything else (a comment, a quote, a backslash, $, !, a word longer than a
 * block, the words' array full) is sh_step's, for one token, and the blocks go on after it. */
static int split_blocks(sh_out *so, const char *text, size_t s, size_t e) {
  bl_sh_word *words = so->w;
  size_t n = so->n, cap = so->cap, cmd = so->cmd, base = s, j = s;
  /* The stops and blanks of the block at base, of the next one and of the script's end; carry:
   * the block before ended in a word. */
  uint64_t st, bl, nst, nbl, tst, tbl, skip = 0, carry = 0;
  char *buf = so->buf;
  size_t tb = tail_masks(text, s, e, &tst, &tbl);
  masks_at(text, base, e, tb, tst, tbl, &st, &bl);
  masks_at(text, base + 64, e, tb, tst, tbl, &nst, &nbl);
  size_t lo = 0; /* the block's first byte still to split */
  while (base < e) {
    uint64_t wd = ~st, prev = wd << 1 | carry, we = st & prev, from = ~(uint64_t)0 << lo;
    uint64_t t = ((wd & ~prev) | (st & ~bl)) & ~skip & from;
    size_t last = nst ? 64 + (size_t)(unsigned)__builtin_ctzll(nst) : 128; /* a word's end */
    we &= we - carry; /* the end of the word from the block before */
    we &= from << 1;  /* and those of the words of sh_step's token */
    skip = 0;
    for (; t; t &= t - 1) {
      size_t p = (size_t)(unsigned)__builtin_ctzll(t);
      j = base + p;
      if (n == cap) goto slow;
      if (!(wd >> p & 1)) { /* an operator, or sh_step's */
        if (SH_LEAD[(unsigned char)text[j]] != SH_OP) goto slow;
        words[cmd].cmd_end = (unsigned short)n; /* this one's own when cmd is n */
        cmd = n + 1;
        bl_sh_word *w = &words[n++];
        w->s = j;
        w->quoted = 0;
        w->text = NULL;
        w->len = 0;
        if (read_operator(text, j, e, w) - j == 2) { /* the second byte starts no token */
          t &= ~((uint64_t)2 << p);
          skip = p == 63;
        }
        continue;
      }
      size_t q = we ? (size_t)(unsigned)__builtin_ctzll(we) : last;
      we &= we - 1;
      if (q == 128) goto slow; /* longer than the next block */
      if (!((q < 64 ? bl : nbl) >> (q & 63) & 1) && SH_LEAD[(unsigned char)text[base + q]] != SH_OP)
        goto slow;
      buf = put_word(&words[n++], buf, text, j, base + q, e);
    }
    carry = wd >> 63;
    base += 64;
    lo = 0;
    st = nst;
    bl = nbl;
    masks_at(text, base + 64, e, tb, tst, tbl, &nst, &nbl);
    continue;
  slow:
    so->n = n;
    so->cmd = cmd;
    so->buf = buf;
    int r = sh_step(so, text, &j, e);
    if (r) return r < 0 ? -1 : 0;
    words = so->w;
    n = so->n;
    cap = so->cap;
    cmd = so->cmd;
    buf = so->buf;
    carry = skip = 0;
    if (j - base >= 64 && j - base < 128) { /* on in the next block, whose masks are at hand */
      base += 64;
      st = nst;
      bl = nbl;
      masks_at(text, base + 64, e, tb, tst, tbl, &nst, &nbl);
    } else if (j - base >= 128) {
      base = j;
      masks_at(text, base, e, tb, tst, tbl, &st, &bl);
      masks_at(text, base + 64, e, tb, tst, tbl, &nst, &nbl);
    }
    lo = j - base; /* the bytes before j are sh_step's */
  }
  so->n = n;
  so->cmd = cmd;
  return 0;
}
#endif

int bl_sh_split(bl_check *ck, const char *text, size_t s, size_t e, bl_sh_script *out) {
  size_t cap = 64;
  out->n = 0;
  /* The first 64 words, then the word texts back to back, each NUL-terminated: one block. */
  if (e - s > (SIZE_MAX - sizeof(bl_sh_word) * cap) / 2 - 1) return -1;
  out->w = boxlint__rtmp(ck->cx.r, sizeof(bl_sh_word) * cap + 2 * (e - s) + 1);
  if (!out->w) return -1;
  sh_out so = {ck, out, out->w, 0, cap, 0, (char *)(out->w + cap)};
#if defined(__SSE2__)
  int r = split_blocks(&so, text, s, e);
#else
  int r = 0;
  for (size_t i = s; i < e && !r;) r = sh_step(&so, text, &i, e);
#endif
  if (r < 0) return -1;
  if (so.cmd < so.n) so.w[so.cmd].cmd_end = (unsigned short)so.n;
  out->n = so.n;
  return 0;
}

/* ---- Simple commands ------------------------------------------------------------------------ */

/* '2' for the bytes a variable's name may start with (A-Z a-z _), '1' for the digits, by byte
 * value. */
static const char SH_NAME[257] =
    "00000000000000000000000000000000" /* 00 */
    "00000000000000001111111111000000" /* 20 */
    "02222222222222222222222222200002" /* 40 */
    "02222222222222222222222222200000" /* 60 */
    "00000000000000000000000000000000" /* 80 */
    "00000000000000000000000000000000" /* A0 */
    "00000000000000000000000000000000" /* C0 */
    "00000000000000000000000000000000" /* E0 */;

/* The command name of word w (bl_sh_base_name), or NULL when w is an assignment (NAME=value,
 * unquoted): one pass over the word for both, the name's bytes having no '/'. */
static const char *name_or_assignment(const bl_sh_word *w) {
  const char *t = w->text, *b = t;
  if (!w->quoted && SH_NAME[(unsigned char)*t] == '2') {
    do t++;
    while (SH_NAME[(unsigned char)*t] != '0');
    if (*t == '=') return NULL;
  }
  for (; *t; t++)
    if (*t == '/') b = t + 1;
  return b;
}

/* The command word of the simple command [cmd->b, cmd->e): after assignments and wrappers
 * (sudo with its options, env, nohup, time, exec, command); cmd->e when there is none. Sets
 * cmd->sudo. */
static size_t command_word(const bl_sh_script *sc, bl_sh_cmd *cmd) {
  const bl_sh_word *w = sc->w;
  size_t c = cmd->b;
  for (;;) {
    const char *name = NULL;
    while (c < cmd->e && !(name = name_or_assignment(&w[c]))) c++;
    if (c >= cmd->e) return c;
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
    size_t e = sc->w[i].cmd_end; /* else the first operator after i */
    if (!e)
      for (e = i; e < sc->n && !sc->w[e].op;) e++;
    cmd->e = e;
    cmd->pipe_out = e < sc->n && sc->w[e].op == 'p';
    cmd->c = command_word(sc, cmd);
    if (cmd->c < cmd->e) return 1;
    i = cmd->e; /* only assignments and wrappers: no command */
  }
}

/*
 * dockerfile/: reading a command exactly as BuildKit does, and the instruction checks of design.md
 * §2.1. The folder owns the re2c reader (lexer.re, generated at build time: byte classes,
 * keywords, continuations, splitCommand, extractBuilderFlags, heredoc openers), its vector byte
 * scans (bytes.c) and BuildKit's shell-word lexer (shlex.c); the instruction record filled from what was read, with the errors
 * of §2.1 (instruction.c, the folder's door); and the checks of arguments (args.c, with the
 * JSON exec-form reader) and flags (flags.c). This header is private to the folder and to the
 * folders above that read instructions (warnings/, lint/). It may call report/ only.
 */
#ifndef boxlint_DOCKERFILE_INT_H
#define boxlint_DOCKERFILE_INT_H

#include <string.h>
#include "report/emit.h"

/* ---- Growable byte buffer and word list (scratch, owned by a check call) ---------------- */
typedef struct bl_buf {
  char *p;
  size_t len, cap;
} bl_buf;

typedef struct bl_words {
  bl_buf text;   /* all words, back to back */
  size_t *ends;  /* end offset of word i in text */
  size_t n, cap;
} bl_words;

int bl_buf_put(const boxlint__mem *m, bl_buf *b, const void *p, size_t n); /* 0 or -1 (OOM) */
int bl_buf_putc(const boxlint__mem *m, bl_buf *b, char c);
void bl_buf_free(const boxlint__mem *m, bl_buf *b);
void bl_words_free(const boxlint__mem *m, bl_words *w);
static inline const char *bl_word(const bl_words *w, size_t i, size_t *len) {
  size_t s = i ? w->ends[i - 1] : 0;
  *len = w->ends[i] - s;
  return w->text.p + s;
}

/* ---- Lexer primitives (lexer.re) -------------------------------------------------------- */

/* Length of the Unicode white-space character (Go's unicode.IsSpace) at p, or 0. */
size_t bl_lex_space(const unsigned char *p, const unsigned char *lim);
/* The keyword that exactly spells p[0..n) case-insensitively (ASCII), or NONE. */
boxlint_keyword bl_lex_keyword(const unsigned char *p, size_t n);

/* Byte classes of a command, one problem kind at a time. */
enum bl_byte_problem { BL_BYTES_OK = 0, BL_BYTES_NUL, BL_BYTES_BARE_CR, BL_BYTES_CONTROL,
                       BL_BYTES_BAD_UTF8 };
/* Scan from *pos for the next problem byte; sets *pos to it and returns its kind (and its
 * length in *n), or BL_BYTES_OK at the end. */
enum bl_byte_problem bl_lex_bytes(const unsigned char *buf, size_t len, size_t *pos, size_t *n);

/* Length of the longest prefix of p[0..n) that is printable ASCII (0x20-0x7E) other than
 * `except`. */
size_t bl_lex_printable(const unsigned char *p, size_t n, unsigned char except);

/* p after the spaces that start [p, e), eight at a time while that many remain (the reader
 * skips a line's indentation with it); p itself where the bytes' order in a word is unknown. */
static inline const unsigned char *bl_skip_spaces8(const unsigned char *p, const unsigned char *e) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (; e - p >= 8; p += 8) {
    uint64_t x;
    memcpy(&x, p, 8);
    x ^= 0x2020202020202020ull; /* a space is a zero byte; the first other byte is the lowest */
    if (x) return p + (__builtin_ctzll(x) >> 3);
  }
#else
  (void)e;
#endif
  return p;
}

/* BuildKit's heredoc word test ^(\d*)<<(-?)\s*([^<]*)$ . Returns 1 on a match, with the fd
 * digits' length, chomp flag and where the name part starts. */
int bl_lex_heredoc_word(const char *w, size_t n, size_t *ndigits, int *chomp, size_t *rest);

/* ---- BuildKit's shell-word lexer, as used for heredoc detection (shlex.c) --------------- */
enum { BL_SHLEX_OK = 0, BL_SHLEX_ERROR = -1, BL_SHLEX_NOMEM = -2, BL_SHLEX_UNSURE = -3 };
/* `pool`: three scratch buffers kept warm by the caller (no allocation once they have grown). */
int bl_shlex_words(const boxlint__mem *m, bl_words *out, const char *s, size_t n, int raw_quotes,
                   int raw_escapes, bl_buf pool[3]);
/* The same without the shortcut for plain ASCII text (the tests compare the two). */
int bl_shlex_words_full(const boxlint__mem *m, bl_words *out, const char *s, size_t n,
                        int raw_quotes, int raw_escapes, bl_buf pool[3]);

/* Go's unicode.IsSpace for a code point. */
int bl_is_space_rune(uint32_t c);

/* ---- JSON exec form (args.c) ------------------------------------------------------------ */
enum { BL_JSON_NO = 0, BL_JSON_STRINGS = 1, BL_JSON_NONSTRING = 2 };
/* Go's parseJSON: left-trim white space, require '[', then encoding/json into []any. Returns
 * BL_JSON_NO (not JSON: BuildKit falls back to shell form), BL_JSON_STRINGS (sets *count),
 * or BL_JSON_NONSTRING (a valid array with a non-string element: BuildKit rejects it). */
int bl_json_array(const char *p, size_t n, size_t *count);
/* Decode element i (0-based) of an array that bl_json_array accepted as strings, into `out`.
 * Returns 0, or -1 on OOM / missing element. */
int bl_json_element(const boxlint__mem *m, const char *p, size_t n, size_t i, bl_buf *out);

/* ---- The reader (lexer.re) -------------------------------------------------------------- */

/* Logical bytes [l, l+n) came from input bytes [p, p+n). */
typedef struct bl_seg {
  size_t l, p, n;
} bl_seg;

typedef struct bl_flag {
  size_t l_start, l_end; /* the raw flag word in the logical line */
  boxlint_span value;    /* unquoted, as BuildKit sees it (report arena) */
} bl_flag;

/* splitCommand + extractBuilderFlags + the JSON decision, on a part of the logical line. */
typedef struct bl_cmdline {
  size_t kw_l, kw_n;       /* the keyword as written */
  boxlint_keyword kw;      /* exact ASCII match, else NONE */
  boxlint_keyword folded;  /* match under Go's strings.ToLower (U+0130, U+212A fold) */
  int kw_nonascii;
  size_t flags_l, flags_end; /* where flags may stand, and where they ended */
  size_t flag0, nflags;    /* range in bl_ctx.flags */
  size_t args_l, args_n;   /* arguments after the flags, trimmed as BuildKit trims them */
  int json;                /* BL_JSON_* */
  size_t json_count;
} bl_cmdline;

enum { BL_HD_OK = 0, BL_HD_UNTERMINATED, BL_HD_UNSURE, BL_HD_BUILDKIT_ERROR };

typedef struct bl_read {
  int found;                 /* an instruction was found */
  size_t start, end;         /* input bytes of the instruction: first line .. after last line */
  size_t first;              /* first byte of the first line after BuildKit's leading trim */
  uint32_t line, end_line;   /* relative lines (the input's first line is 1) */
  size_t comment_start, comment_end; /* the comment line right before it, if any (else equal) */
  char *logical;             /* report arena, NUL-terminated */
  size_t llen;
  size_t seg0, nsegs;        /* range in bl_ctx.segs */
  int dangling;              /* the input ended inside a continuation */
  size_t dangling_at;        /* input offset of the last escape character */
  int empty_continuation;    /* a blank line inside the continuation (BuildKit warns) */
  bl_cmdline cmd;
  int has_trigger;           /* ONBUILD with a trigger */
  boxlint_heredoc *heredocs; /* report arena */
  size_t nheredocs;
  int hd_status;             /* BL_HD_* */
  size_t hd_bad;             /* the heredoc that is unterminated */
  bl_cmdline trig;           /* set only when has_trigger (last: not cleared up front) */
} bl_read;

typedef struct bl_ctx {
  boxlint_report *r;
  const boxlint__mem *m;
  const unsigned char *buf;
  size_t len;
  char esc;
  bl_seg *segs;
  size_t nsegs, capsegs;
  bl_flag *flags;
  size_t nflags, capflags;
  bl_words w1, w2, w3;
  bl_buf shpool[3]; /* the shell-word lexer's buffers */
  int oom;
  int scratch_logical; /* the logical line goes to the report's scratch arena: a read that
                          only finds where an instruction ends keeps nothing */
  const uint64_t *lfm; /* the line feeds of buf as bits (bl_lex_clean_lines), or NULL: whoever
                          sets buf clears it */
  uint64_t *lfbuf;     /* where bl_lex_clean_lines writes them */
  size_t caplfm;
  char *copy;          /* with lfm: a copy of buf (len + 1 bytes, in the arena the logical line
                          goes to) that the reader may cut the logical line from, or NULL */
  int no_lt;           /* 1 when bl_lex_clean_lines found no '<' in buf (so no heredoc) */
} bl_ctx;

/* Read the next instruction at or after input offset `pos` (a line start, on line `line`).
 * Blank and comment lines before it are skipped. Returns 0, or -1 when memory ran out. */
int bl_read_instruction(bl_ctx *cx, size_t pos, uint32_t line, bl_read *out);
/* Input offset of logical offset `l` of `rd` (for positions). */
size_t bl_logical_to_input(const bl_ctx *cx, const bl_read *rd, size_t l);
/* 1 when input bytes [p, e) hold only white space (BuildKit's blank line). */
int bl_is_blank(const unsigned char *p, const unsigned char *e);
/* 1 when the line [p, e) is a comment (first non-space character is '#'). */
int bl_is_comment(const unsigned char *p, const unsigned char *e);
/* The common case of bl_lex_bytes in one pass: returns 1 when every byte of the input is
 * printable ASCII, TAB or LF, with cx->lfm set to a bit map of its line feeds (in the report's
 * scratch, kept warm) that bl_line_end then reads instead of searching, cx->copy to a copy of
 * the input (where the reader cuts the logical line) and cx->no_lt to whether no '<' occurs;
 * else 0 with cx->lfm and cx->copy NULL (cx->oom and the report's oom set when memory ran
 * out). Call it once per input, before reading its one instruction. */
int bl_lex_clean_lines(bl_ctx *cx);

/* End of line content at/after p: the LF position or the end, and after trailing CRs trimmed. */
size_t bl_line_end(const bl_ctx *cx, size_t pos, size_t *next);

/* ---- The checker (instruction.c) -------------------------------------------------------- */
typedef struct bl_check {
  bl_ctx cx;
  bl_sink em;         /* where diagnostics go: command index, input and its coordinates */
  const boxlint_options *opts;
  int lean;           /* opts->no_instructions on a fragment: nothing per instruction is kept */
  int bad_utf8;       /* the input has invalid UTF-8: no regular expression runs on it */
  void *md;           /* the warnings' bl_rx (PCRE2 match state from the report's allocator),
                         made on first use (warnings.c) */
  /* Template-wide state for the warnings (warnings.c). */
  int32_t last_user_cmd;
  size_t last_user_off, last_user_end;
  uint32_t last_user_line, last_user_col, last_user_eline, last_user_ecol;
  const char *last_user_text;
  int last_user_root;
  int pip_no_cache;   /* ENV PIP_NO_CACHE_DIR was set */
  size_t sec_s[8], sec_e[8]; /* input ranges already reported as secrets (this instruction) */
  int nsec;
} bl_check;

/* Emitting through the check's sink (report/emit.h); `ck` is a bl_check *. */
#define bl_position(ck, o, line, col) bl_sink_position(&(ck)->em, o, line, col)
#define bl_emit(ck, ...) bl_sink_emit(&(ck)->em, __VA_ARGS__)
#define bl_emit_sev(ck, ...) bl_sink_emit_sev(&(ck)->em, __VA_ARGS__)
#define bl_hint(ck, ...) bl_sink_hint(&(ck)->em, __VA_ARGS__)
#define bl_q(ck, p, n) bl_sink_q(&(ck)->em, p, n)
/* The same over logical bytes [ls, le) of `rd` (instruction.c). */
boxlint_diag *bl_emit_l(bl_check *ck, const bl_read *rd, const char *rule, size_t ls, size_t le,
                        const char *fmt, ...) BOXLINT_PRINTF(6, 7);

/* Check the input (ck->cx.buf) as one command against design.md §2.1, filling `in` (unless NULL)
 * with the instruction read into `rd` (instruction.c). Returns 1 when there is an instruction
 * (the warnings may run on it), 0 when there is none (an empty command), -1 when memory ran
 * out. */
int bl_check_instruction(bl_check *ck, boxlint_instruction *in, bl_read *rd);
/* Splitting only (boxlint_split_fragment): fill `in` from the instruction read, and report a
 * heredoc that is not closed (the lines after it would be misread). 0, or -1 on OOM. */
int bl_split_instruction(bl_check *ck, const bl_read *rd, boxlint_instruction *in);

/* Warnings and user rules (warnings.c): after the errors of one instruction, and once after
 * the last command of a template. */
void bl_warn_instruction(bl_check *ck, const bl_read *rd);
void bl_warn_finish(bl_check *ck);
void bl_warn_free(bl_check *ck);

/* Argument (args.c) and flag (flags.c) checks of one instruction or ONBUILD trigger. */
void bl_check_arguments(bl_check *ck, const bl_read *rd, const bl_cmdline *c);
void bl_check_flags(bl_check *ck, const bl_read *rd, const bl_cmdline *c);

#endif

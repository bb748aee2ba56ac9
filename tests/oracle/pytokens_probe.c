/* A test-only door into lib/src/python/ (the tokenizer tokens.c, the lexer lexer.re, the literal
 * decoder literal.c) for tests/oracle/python_tokens_test.py, which compares what it prints with
 * CPython's tokenize module, ast.literal_eval and compile().
 *
 *   pytokens_probe [-t] [-s] [-c] [FILE...]
 *
 * reads each FILE (or, with none, each path named on a line of standard input) and prints
 *   F PATH                         the file
 *   T KIND L C EL EC               -t (the default): each token, as tokenize reports it: line
 *                                  1-based, column 0-based in code points (an invalid UTF-8
 *                                  byte counts one; a UTF-8 BOM is not counted); a NEWLINE or
 *                                  NL ends on its own line, after its line break
 *   E L C MESSAGE                  -t: the tokenizer's syntax error (the tokens before it are
 *                                  printed)
 *   S L C EL EC s|b|f HEX          -s: each group of adjacent STRING tokens (only COMMENT and NL
 *                                  between them: the reader's concatenation) decoded, as str
 *                                  (UTF-8), bytes, or an f-string with replacement fields (the
 *                                  constant parts); HEX is empty for an empty value
 *   X L C EL EC L2 C2 MESSAGE      -s: the group whose decoding fails, and where (L2 C2)
 *   C OK | C SYNTAX L C MESSAGE | C STATUS N
 *                                  -c: boxlint_check_python's verdict (python-syntax, with the
 *                                  line and column it reports, column 1-based as diagnostics
 *                                  are)
 * Exit code 0, or 2 when a file cannot be read or memory runs out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boxlint/boxlint.h"
#include "python/python_int.h"
#include "probe_util.h"

static const char *const KIND[] = {"ENDMARKER", "NAME", "NUMBER", "STRING", "OP",
                                   "NEWLINE",   "NL",   "COMMENT", "INDENT", "DEDENT"};

/* Line and column of increasing offsets, in one pass over the text. */
typedef struct pos {
  const char *s;
  size_t n, off, bol; /* offset reached, offset of its line's start */
  size_t line, col;
} pos;

static int is_break(const pos *p, size_t i) { return p->s[i] == '\n' || p->s[i] == '\r'; }

static void advance(pos *p, size_t to) {
  while (p->off < to) {
    unsigned char b = (unsigned char)p->s[p->off];
    if (is_break(p, p->off)) {
      p->off += (b == '\r' && p->off + 1 < p->n && p->s[p->off + 1] == '\n') ? 2 : 1;
      p->line++;
      p->col = 0;
      continue;
    }
    uint32_t cp;
    size_t l = b < 0x80 ? 1 : boxlint__utf8_decode((const unsigned char *)p->s + p->off,
                                                   p->n - p->off, &cp);
    p->off += l ? l : 1;
    p->col++;
  }
}

/* The position of `off`; p must not have passed it. */
static void at(pos *p, size_t off, size_t *line, size_t *col) {
  advance(p, off);
  *line = p->line;
  *col = p->col;
}

static pos pos_start(const char *s, size_t n) {
  pos p = {s, n, 0, 0, 1, 0};
  if (n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3)) p.off = 3; /* tokenize drops the BOM */
  return p;
}

static void print_tokens(const char *s, size_t n, const bl_pytoks *t) {
  pos p = pos_start(s, n);
  for (size_t i = 0; i < t->n; i++) {
    const bl_pytok *k = &t->v[i];
    size_t l, c, el, ec;
    at(&p, k->start, &l, &c);
    if (k->end > k->start && (s[k->end - 1] == '\n' || s[k->end - 1] == '\r')) {
      el = l;
      ec = c + (k->end - k->start); /* the line break, in ASCII */
    } else {
      pos q = p;
      at(&q, k->end, &el, &ec);
    }
    printf("T %s %zu %zu %zu %zu\n", KIND[k->kind], l, c, el, ec);
  }
  if (t->err) {
    size_t l, c;
    at(&p, t->err_off, &l, &c);
    printf("E %zu %zu %s\n", l, c, t->err);
  }
}

static void hex(const char *b, size_t n) {
  for (size_t i = 0; i < n; i++) printf("%02x", (unsigned char)b[i]);
}

/* One group of adjacent string tokens, t->v[a..b] (b the last STRING). Returns -1 on OOM. */
static int print_group(const boxlint__mem *m, const char *s, pos *p, const bl_pytoks *t,
                       size_t a, size_t b) {
  bl_pystr v;
  memset(&v, 0, sizeof v);
  const char *err = NULL;
  size_t eo = 0, l, c, el, ec;
  uint32_t index = 0;
  int rc = 0;
  for (size_t i = a; i <= b && rc == 0; i++) {
    if (t->v[i].kind != BL_PT_STRING) continue;
    bl_piece pc;
    bl_py_piece(s, &t->v[i], &pc);
    int bytes = (pc.flags & BL_LIT_BYTES) != 0;
    if (index && bytes != v.is_bytes) {
      err = "cannot mix bytes and nonbytes literals";
      eo = pc.start;
      rc = 1;
      break;
    }
    v.is_bytes = bytes;
    rc = bl_py_decode(m, s, &pc, index++, &v, &err, &eo);
  }
  if (rc < 0) {
    bl_pystr_free(m, &v);
    return -1;
  }
  at(p, t->v[a].start, &l, &c);
  pos q = *p;
  at(&q, t->v[b].end, &el, &ec);
  if (rc) {
    size_t l2, c2;
    pos r = pos_start(s, p->n); /* the error may lie before the group's end */
    at(&r, eo, &l2, &c2);
    printf("X %zu %zu %zu %zu %zu %zu %s\n", l, c, el, ec, l2, c2, err);
  } else {
    printf("S %zu %zu %zu %zu %c ", l, c, el, ec, v.dynamic ? 'f' : v.is_bytes ? 'b' : 's');
    hex(v.bytes, v.len);
    printf("\n");
  }
  bl_pystr_free(m, &v);
  return 0;
}

static int print_strings(const boxlint__mem *m, const char *s, size_t n, const bl_pytoks *t) {
  pos p = pos_start(s, n);
  for (size_t i = 0; i < t->n; i++) {
    if (t->v[i].kind != BL_PT_STRING) continue;
    size_t last = i, j = i + 1;
    for (; j < t->n; j++) {
      bl_pytok_kind k = t->v[j].kind;
      if (k == BL_PT_STRING) last = j;
      else if (k != BL_PT_COMMENT && k != BL_PT_NL) break;
    }
    if (print_group(m, s, &p, t, i, last)) return -1;
    i = last;
  }
  return 0;
}

static int print_check(const char *s, size_t n) {
  boxlint_report *r;
  if (boxlint_report_new(&r, NULL) != BOXLINT_OK) return -1;
  boxlint_options o;
  boxlint_options_init(&o);
  o.python_minor = 11; /* its oracle is CPython 3.11 */
  boxlint_status st = boxlint_check_python(r, s, n, &o, NULL);
  if (st == BOXLINT_OK) {
    printf("C OK\n");
  } else if (st == BOXLINT_ESYNTAX && boxlint_report_diag_count(r) > 0) {
    const boxlint_diag *d = boxlint_report_diag(r, boxlint_report_diag_count(r) - 1);
    printf("C SYNTAX %u %u %s\n", d->line, d->column, d->message);
  } else {
    printf("C STATUS %d\n", (int)st);
  }
  boxlint_report_free(r);
  return st == BOXLINT_ENOMEM ? -1 : 0;
}

typedef struct modes {
  int tokens, strings, check;
} modes;

static int run(const char *path, modes md) {
  size_t n;
  char *s = probe_slurp(path, &n);
  if (!s) {
    fprintf(stderr, "pytokens_probe: cannot read %s\n", path);
    return -1;
  }
  boxlint__mem m;
  boxlint__mem_init(&m, NULL);
  bl_pytoks t;
  int rc = bl_py_tokenize(&m, s, n, 11, &t); /* its oracle is CPython 3.11 */
  printf("F %s\n", path);
  if (rc == 0 && md.tokens) print_tokens(s, n, &t);
  if (rc == 0 && md.strings) rc = print_strings(&m, s, n, &t);
  if (rc == 0 && md.check) rc = print_check(s, n);
  bl_py_tokens_free(&m, &t);
  free(s);
  if (rc) fprintf(stderr, "pytokens_probe: out of memory on %s\n", path);
  return rc;
}

static int run_path(const char *path, const void *ctx) { return run(path, *(const modes *)ctx); }

int main(int argc, char **argv) {
  modes md = {0, 0, 0};
  int i = 1;
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    if (!strcmp(argv[i], "-t")) md.tokens = 1;
    else if (!strcmp(argv[i], "-s")) md.strings = 1;
    else if (!strcmp(argv[i], "-c")) md.check = 1;
    else {
      fprintf(stderr, "usage: pytokens_probe [-t] [-s] [-c] [FILE...]\n");
      return 2;
    }
  }
  if (!md.tokens && !md.strings && !md.check) md.tokens = 1;
  int bad = probe_each_path(argc, argv, i, run_path, &md);
  return bad ? 2 : 0;
}

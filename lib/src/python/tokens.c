/* The Python tokenizer of the target version (3.8 to 3.14, `minor`): the lexer's tokens
 * (lexer.re) into the token stream of CPython's tokenize module (NEWLINE and NL, INDENT and
 * DEDENT, COMMENT, ENDMARKER; an f-string or t-string one STRING, read through its fields from
 * 3.12, PEP 701; a t prefix a name before 3.14; a line that starts with a continuation as each
 * version reads it), with the errors CPython's tokenizer raises: unterminated strings, unmatched or unclosed brackets, bad
 * indentation and dedentation, inconsistent tabs, an indented block missing or unexpected,
 * characters that are not Python, NUL bytes. Calls lexer.re only. */
#include <string.h>
#include "python/python_int.h"

#define MAX_INDENT 100 /* CPython's MAXINDENT */
#define MAX_DEPTH 200  /* CPython's MAXLEVEL */

typedef struct tz {
  const boxlint__mem *m;
  const char *s;
  size_t n, pos;
  bl_pytoks *out;
  size_t cols[MAX_INDENT + 1], alts[MAX_INDENT + 1]; /* indentation, tab size 8 and 1 */
  int nind;
  size_t open[MAX_DEPTH]; /* offsets of the open brackets */
  int depth;
  int line_has_tokens;    /* a token other than a comment on this logical line */
  int want_indent;        /* the last logical line ended with ':' */
  size_t last_sig;        /* index of the last significant token + 1, or 0 */
  int minor;              /* CPython 3.minor's tokenizer */
} tz;

static int push(tz *z, bl_pytok_kind k, size_t start, size_t end) {
  bl_pytoks *t = z->out;
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 256 + z->n / 4; /* a token every few bytes */
    bl_pytok *v = boxlint__realloc(z->m, t->v, t->cap * sizeof *v, cap * sizeof *v);
    if (!v) return -1;
    t->v = v;
    t->cap = cap;
  }
  t->v[t->n].kind = k;
  t->v[t->n].flags = 0;
  t->v[t->n].start = start;
  t->v[t->n].end = end;
  t->n++;
  return 0;
}

static int fail(tz *z, size_t off, const char *msg) {
  if (!z->out->err) {
    z->out->err = msg;
    z->out->err_off = off;
  }
  return 1;
}

/* At the start of a line outside brackets: measure the indentation and, on a line with code,
 * emit INDENT or DEDENTs. Returns 0, 1 on a syntax error, -1 when out of memory. */
static int indentation(tz *z) {
  size_t col = 0, alt = 0, p = z->pos, cont = 0;
  for (; p < z->n; p++) {
    char c = z->s[p];
    if (c == ' ') { col++; alt++; }
    else if (c == '\t') { col = (col / 8 + 1) * 8; alt++; }
    else if (c == '\f') { col = alt = 0; }
    else if (c == '\\' && z->minor >= 10 && p + 1 < z->n &&
             (z->s[p + 1] == '\n' || z->s[p + 1] == '\r')) {
      /* 3.10+: indentation is not split over lines by a backslash; the column of the first
       * one (when not 0) is the line's indentation, measured on after it */
      if (!cont) cont = col;
      size_t at = p + 1;
      p += z->s[p + 1] == '\r' && p + 2 < z->n && z->s[p + 2] == '\n' ? 2 : 1;
      if (p + 1 >= z->n) return fail(z, at, "unexpected EOF while parsing");
    } else break;
  }
  if (cont) col = alt = cont;
  z->pos = p;
  size_t l;
  bl_pylex k = bl_py_lex((const unsigned char *)z->s + p, (const unsigned char *)z->s + z->n, &l);
  if (k == BL_PYL_NEWLINE || k == BL_PYL_COMMENT || k == BL_PYL_EOF) return 0; /* blank line */
  /* 3.9's tokenizer takes a line that starts with a continuation as it takes a blank one: no
   * indentation of its own (3.8's measures the backslash's column, 3.10's the next line's) */
  if (k == BL_PYL_CONTINUATION && z->minor == 9) return 0;
  /* CPython's tokenizer finds the errors of the indentation itself (tabs, levels) before its
   * parser sees an INDENT that is missing or unexpected. */
  size_t top = z->cols[z->nind], atop = z->alts[z->nind];
  if (col == top) {
    if (alt != atop) return fail(z, p, "inconsistent use of tabs and spaces in indentation");
    if (z->want_indent) return fail(z, p, "expected an indented block");
  } else if (col > top) {
    /* CPython's tokenizer: indent + 1 >= MAXINDENT, so that 99 levels are the most */
    if (z->nind + 1 >= MAX_INDENT) return fail(z, p, "too many levels of indentation");
    if (alt <= atop) return fail(z, p, "inconsistent use of tabs and spaces in indentation");
    if (!z->want_indent) return fail(z, p, "unexpected indent");
    z->nind++;
    z->cols[z->nind] = col;
    z->alts[z->nind] = alt;
    if (push(z, BL_PT_INDENT, p, p)) return -1;
  } else {
    size_t ind = (size_t)z->nind;
    while (ind > 0 && col < z->cols[ind]) ind--;
    if (col != z->cols[ind])
      return fail(z, p, "unindent does not match any outer indentation level");
    if (alt != z->alts[ind])
      return fail(z, p, "inconsistent use of tabs and spaces in indentation");
    if (z->want_indent) return fail(z, p, "expected an indented block");
    for (; z->nind > (int)ind; z->nind--)
      if (push(z, BL_PT_DEDENT, p, p)) return -1;
  }
  z->want_indent = 0;
  return 0;
}

/* An operator: brackets change the depth and must match. */
static int bracket(tz *z, size_t p) {
  char c = z->s[p];
  if (c == '(' || c == '[' || c == '{') {
    if (z->depth == MAX_DEPTH) return fail(z, p, "too many nested parentheses");
    z->open[z->depth++] = p;
  } else if (c == ')' || c == ']' || c == '}') {
    if (!z->depth) {
      return fail(z, p, c == ')' ? "unmatched ')'" : c == ']' ? "unmatched ']'" : "unmatched '}'");
    }
    char o = z->s[z->open[z->depth - 1]];
    if ((o == '(' && c != ')') || (o == '[' && c != ']') || (o == '{' && c != '}'))
      return fail(z, p, "closing parenthesis does not match opening parenthesis");
    z->depth--;
  }
  return 0;
}

static int newline(tz *z, size_t p, size_t l) {
  int logical = z->depth == 0 && z->line_has_tokens;
  if (push(z, logical ? BL_PT_NEWLINE : BL_PT_NL, p, p + l)) return -1;
  if (logical) {
    const bl_pytok *last = z->last_sig ? &z->out->v[z->last_sig - 1] : NULL;
    z->want_indent = last && last->kind == BL_PT_OP && z->s[last->start] == ':' &&
                     last->end - last->start == 1;
    z->line_has_tokens = 0;
  }
  return 0;
}

static const char *lex_error(bl_pylex k) {
  switch (k) {
  case BL_PYL_BAD_CONTINUATION: return "unexpected character after line continuation character";
  case BL_PYL_UNTERMINATED: return "unterminated string literal";
  case BL_PYL_UNTERMINATED3: return "unterminated triple-quoted string literal";
  case BL_PYL_BAD_NUMBER: return "leading zeros in decimal integer literals are not permitted";
  case BL_PYL_NUL: return "source code cannot contain null bytes";
  case BL_PYL_BAD_CHAR: return "invalid character in the source";
  default: return NULL;
  }
}

/* A number that runs into a name ("0x", "1_", "1e", "0b2", "1abc"): CPython's
 * verify_end_of_number, which lets a number touch only the keywords that may follow one (and,
 * else, for, if, in, is, not, or; with a warning). Returns the message, or NULL. */
static const char *number_end(const tz *z, size_t p, size_t end) {
  static const char *const after[] = {"and", "else", "for", "if", "in", "is", "not", "or"};
  const char *s = z->s;
  unsigned char c = end < z->n ? (unsigned char)s[end] : 0;
  if (!(c == '_' || c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')))
    return NULL;
  for (size_t i = 0; i < sizeof after / sizeof *after; i++) {
    size_t l = strlen(after[i]);
    if (z->n - end >= l && !memcmp(s + end, after[i], l)) return NULL;
  }
  char b = s[p] == '0' && p + 1 < z->n ? (char)(s[p + 1] | 0x20) : 0; /* "0x" is "0" here */
  /* before 3.10 a number may touch a name (`1if`, `1pass`: two tokens), but for "0x" */
  if (z->minor < 10 && !(end == p + 1 && (b == 'x' || b == 'o' || b == 'b'))) return NULL;
  return b == 'x' ? "invalid hexadecimal literal" : b == 'o' ? "invalid octal literal"
         : b == 'b' ? "invalid binary literal"
         : (s[end - 1] | 0x20) == 'j' ? "invalid imaginary literal" : "invalid decimal literal";
}

/*----------------------------------------------------------------------------------------------
 * f-strings and t-strings as 3.12's tokenizer reads them (PEP 701): a replacement field holds
 * tokens (strings with any quotes, f-strings nested to any depth, comments, line breaks,
 * backslashes), its end is found by reading them, and the string's end only after its fields.
 *--------------------------------------------------------------------------------------------*/

typedef struct fscan {
  const char *s;
  size_t n;
  const char *err;
  size_t err_off;
  int nest;
} fscan;

static size_t fs_err(fscan *f, size_t off, const char *msg) {
  if (!f->err) {
    f->err = msg;
    f->err_off = off;
  }
  return SIZE_MAX;
}

/* The prefix at i: its length, and whether it holds f or t (*fmt) and r (*raw). */
static size_t fs_prefix(const char *s, size_t i, size_t n, int *fmt, int *raw) {
  size_t k = i;
  *fmt = *raw = 0;
  while (k < n && s[k] != '\'' && s[k] != '"') {
    char c = (char)(s[k] | 0x20);
    if (c == 'f' || c == 't') *fmt = 1;
    if (c == 'r') *raw = 1;
    k++;
  }
  return k - i;
}

static size_t fs_field(fscan *f, size_t i, char q, int triple, int raw, int expr_only);

/* A body from i (or, spec, a format spec, to its '}'): where the closing quotes (or the '}')
 * are, or SIZE_MAX. */
static size_t fs_body(fscan *f, size_t i, char q, int triple, int raw, int spec, size_t start) {
  const char *s = f->s;
  while (i < f->n) {
    char c = s[i];
    if (c == q && (!triple || (i + 2 < f->n && s[i + 1] == q && s[i + 2] == q)))
      return spec ? fs_err(f, i, "f-string: expecting '}'") : i;
    if ((c == '\n' || c == '\r') && !triple)
      return fs_err(f, start, spec ? "f-string: expecting '}'" : "unterminated f-string literal");
    if (c == '\\' && i + 1 < f->n && s[i + 1] != '{' && s[i + 1] != '}') {
      int named = !raw && s[i + 1] == 'N';
      i += (!raw && s[i + 1] == '\r' && i + 2 < f->n && s[i + 2] == '\n') ? 3 : 2;
      if (named && i < f->n && s[i] == '{') { /* \N{...} */
        while (i < f->n && s[i] != '}' && s[i] != q && s[i] != '\n') i++;
        if (i < f->n && s[i] == '}') i++;
      }
      continue;
    }
    if (c == '{') {
      if (!spec && i + 1 < f->n && s[i + 1] == '{') {
        i += 2;
        continue;
      }
      if ((i = fs_field(f, i, q, triple, raw, 0)) == SIZE_MAX) return i;
      continue;
    }
    if (c == '}') {
      if (spec) return i;
      if (i + 1 < f->n && s[i + 1] == '}') {
        i += 2;
        continue;
      }
      return fs_err(f, i, "f-string: single '}' is not allowed");
    }
    i++;
  }
  return fs_err(f, start, triple ? "unterminated triple-quoted f-string literal"
                                 : "unterminated f-string literal");
}

/* A string literal of any prefix at i (in a field of a string quoted with `outer`, or 0): its
 * end, or SIZE_MAX. */
static size_t fs_string(fscan *f, size_t i, char outer) {
  int fmt, raw;
  size_t pl = fs_prefix(f->s, i, f->n, &fmt, &raw), b = i + pl;
  size_t len;
  bl_pylex k = bl_py_lex((const unsigned char *)f->s + i, (const unsigned char *)f->s + f->n,
                         &len);
  if (outer && (k == BL_PYL_UNTERMINATED || k == BL_PYL_UNTERMINATED3) && b < f->n &&
      f->s[b] == outer) /* the enclosing string's quote, where the field should end */
    return fs_err(f, i, "f-string: expecting '}'");
  if (!fmt || b >= f->n) {
    if (k == BL_PYL_UNTERMINATED) return fs_err(f, i, "unterminated string literal");
    if (k == BL_PYL_UNTERMINATED3) return fs_err(f, i, "unterminated triple-quoted string literal");
    return i + len;
  }
  char q = f->s[b];
  int triple = b + 2 < f->n && f->s[b + 1] == q && f->s[b + 2] == q;
  if (++f->nest > 150) return fs_err(f, i, "too many nested f-strings");
  size_t e = fs_body(f, b + (triple ? 3 : 1), q, triple, raw, 0, i);
  f->nest--;
  return e == SIZE_MAX ? e : e + (triple ? 3 : 1);
}

/* The replacement field whose '{' is at i: past its '}', or (expr_only) where its expression
 * ends (the '!', ':', '=' or '}' after it), or SIZE_MAX. */
static size_t fs_field(fscan *f, size_t i, char q, int triple, int raw, int expr_only) {
  const char *s = f->s;
  int depth = 0;
  size_t j = i + 1;
  while (j < f->n) {
    char c = s[j];
    if (depth == 0 && expr_only && (c == '}' || c == ':' ||
                                    ((c == '!' || c == '=') && !(j + 1 < f->n && s[j + 1] == '='))))
      return j;
    if (depth == 0) {
      if (c == '}') return j + 1;
      if (c == ':') { /* a format spec, which may hold fields: bounded as nested strings are */
        if (++f->nest > 150) return fs_err(f, j, "f-string: expressions nested too deeply");
        j = fs_body(f, j + 1, q, triple, raw, 1, i);
        f->nest--;
        return j == SIZE_MAX ? j : j + 1;
      }
      if (c == '!' && !(j + 1 < f->n && s[j + 1] == '=')) {
        j++;
        continue;
      }
      if (c == '=' && !(j + 1 < f->n && s[j + 1] == '=')) {
        j++;
        continue;
      }
    }
    size_t l;
    bl_pylex k = bl_py_lex((const unsigned char *)s + j, (const unsigned char *)s + f->n, &l);
    switch (k) {
    case BL_PYL_EOF: j = f->n; continue;
    case BL_PYL_STRING: case BL_PYL_UNTERMINATED: case BL_PYL_UNTERMINATED3:
      if ((j = fs_string(f, j, q)) == SIZE_MAX) return j;
      continue;
    case BL_PYL_OP:
      if (c == '(' || c == '[' || c == '{') depth++;
      else if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
      else if (c == ')' || c == ']') return fs_err(f, j, c == ')' ? "f-string: unmatched ')'"
                                                                 : "f-string: unmatched ']'");
      break;
    default: break;
    }
    j += l ? l : 1;
  }
  return fs_err(f, i, "f-string: expecting '}'");
}

size_t bl_py_fstring_end(const char *s, size_t n, size_t i, const char **err, size_t *err_off) {
  fscan f = {s, n, NULL, 0, 0};
  size_t e = fs_string(&f, i, 0);
  *err = f.err;
  *err_off = f.err_off;
  return e;
}

size_t bl_py_fstring_field_end(const char *s, size_t e, size_t i, int raw) {
  /* within a token already read: its quotes are past e, so none is met */
  fscan f = {s, e, NULL, 0, 0};
  return fs_field(&f, i, 0, 1, raw, 0);
}

size_t bl_py_fstring_expr_end(const char *s, size_t e, size_t i) {
  fscan f = {s, e, NULL, 0, 0};
  return fs_field(&f, i, 0, 1, 0, 1);
}

static int token(tz *z, bl_pylex k, size_t p, size_t l) {
  static const bl_pytok_kind kinds[] = {
    [BL_PYL_NAME] = BL_PT_NAME, [BL_PYL_NUMBER] = BL_PT_NUMBER, [BL_PYL_STRING] = BL_PT_STRING,
    [BL_PYL_OP] = BL_PT_OP};
  uint32_t flags = 0;
  if ((k == BL_PYL_STRING || k == BL_PYL_UNTERMINATED || k == BL_PYL_UNTERMINATED3) &&
      z->minor >= 12) {
    int fmt, raw;
    fs_prefix(z->s, p, z->n, &fmt, &raw);
    if (fmt) { /* its end is after its fields (PEP 701) */
      const char *err;
      size_t eo, end = bl_py_fstring_end(z->s, z->n, p, &err, &eo);
      if (end == SIZE_MAX) return fail(z, eo, err);
      l = end - p;
      k = BL_PYL_STRING;
      flags = BL_PTF_PEP701;
      z->pos = end;
    }
  }
  const char *e = k == BL_PYL_NUMBER ? number_end(z, p, p + l) : lex_error(k);
  if (e) return fail(z, k == BL_PYL_NUMBER ? p + l : p, e);
  if (k == BL_PYL_OP) {
    int rc = bracket(z, p);
    if (rc) return rc;
  }
  if (push(z, kinds[k], p, p + l)) return -1;
  z->out->v[z->out->n - 1].flags = flags;
  z->line_has_tokens = 1;
  z->last_sig = z->out->n;
  return 0;
}

/* The end: an unclosed bracket, a missing block, then NEWLINE, DEDENTs and ENDMARKER. */
static int finish(tz *z, int after_continuation, size_t cont_at) {
  if (z->depth) {
    char c = z->s[z->open[z->depth - 1]];
    return fail(z, z->open[z->depth - 1],
                c == '(' ? "'(' was never closed" : c == '[' ? "'[' was never closed"
                                                              : "'{' was never closed");
  }
  /* CPython points after the backslash */
  if (after_continuation) return fail(z, cont_at, "unexpected EOF while parsing");
  if (z->line_has_tokens && push(z, BL_PT_NEWLINE, z->n, z->n)) return -1;
  if (z->line_has_tokens) {
    const bl_pytok *last = &z->out->v[z->last_sig - 1];
    if (last->kind == BL_PT_OP && z->s[last->start] == ':') z->want_indent = 1;
  }
  if (z->want_indent) return fail(z, z->n, "expected an indented block");
  for (; z->nind > 0; z->nind--)
    if (push(z, BL_PT_DEDENT, z->n, z->n)) return -1;
  return push(z, BL_PT_ENDMARKER, z->n, z->n) ? -1 : 0;
}

int bl_py_tokenize(const boxlint__mem *m, const char *s, size_t n, int minor, bl_pytoks *out) {
  memset(out, 0, sizeof *out);
  tz z;
  memset(&z, 0, sizeof z);
  z.m = m;
  z.s = s;
  z.n = n;
  z.out = out;
  z.minor = minor;
  if (n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3)) z.pos = 3;
  /* CPython refuses a NUL byte anywhere (in a string or a comment too) before reading a token:
   * read up to it, then report it whatever came first. */
  const char *nul = memchr(s, 0, n);
  if (nul) z.n = (size_t)(nul - s);
  int bol = 1, cont = 0, rc = 0;
  while (rc == 0) {
    if (bol && !z.depth && !cont) rc = indentation(&z);
    if (rc) break;
    bol = 0;
    size_t l, p = z.pos;
    bl_pylex k = bl_py_lex((const unsigned char *)s + p, (const unsigned char *)s + z.n, &l);
    cont = 0;
    if ((k == BL_PYL_STRING || k == BL_PYL_UNTERMINATED || k == BL_PYL_UNTERMINATED3) &&
        minor < 14) {
      size_t q = p; /* a t-string is 3.14's (PEP 750): before, `t` is a name */
      while (s[q] != '\'' && s[q] != '"') q++;
      if (memchr(s + p, 't', q - p) || memchr(s + p, 'T', q - p)) {
        k = BL_PYL_NAME;
        l = q - p;
      }
    }
    z.pos = p + l;
    if (k == BL_PYL_EOF) {
      rc = finish(&z, 0, 0);
      break;
    }
    if (k == BL_PYL_SPACE) continue;
    if (k == BL_PYL_CONTINUATION) {
      cont = 1;
      if (z.pos >= z.n) rc = finish(&z, 1, p + 1);
      continue;
    }
    if (k == BL_PYL_COMMENT) rc = push(&z, BL_PT_COMMENT, p, p + l);
    else if (k == BL_PYL_NEWLINE) {
      rc = newline(&z, p, l);
      bol = 1;
    } else rc = token(&z, k, p, l);
  }
  if (rc >= 0 && nul) {
    while (out->n && out->v[out->n - 1].start >= z.n) out->n--; /* made by the cut */
    out->err = "source code cannot contain null bytes";
    out->err_off = z.n;
  }
  return rc < 0 ? -1 : 0;
}

void bl_py_tokens_free(const boxlint__mem *m, bl_pytoks *t) {
  boxlint__free(m, t->v);
  memset(t, 0, sizeof *t);
}

void bl_py_line_col(const char *s, size_t n, size_t off, uint32_t *line, uint32_t *col) {
  uint32_t ln = 1, c = 1;
  if (off > n) off = n;
  /* A UTF-8 byte order mark is not a column, as in fragments. */
  size_t i0 = off >= 3 && n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3) ? 3 : 0;
  for (size_t i = i0; i < off;) {
    unsigned char b = (unsigned char)s[i];
    if (b == '\n' || b == '\r') {
      i += (b == '\r' && i + 1 < off && s[i + 1] == '\n') ? 2 : 1;
      ln++;
      c = 1;
      continue;
    }
    uint32_t cp;
    size_t l = b < 0x80 ? 1 : boxlint__utf8_decode((const unsigned char *)s + i, n - i, &cp);
    i += l ? l : 1;
    c++;
  }
  *line = ln;
  *col = c;
}

/* The parser's string literals: adjacent pieces (bytes and str not mixed; t-strings, 3.14, with
 * t-strings only) and the replacement fields of f-strings and t-strings. Before 3.12 they are
 * read as CPython 3.11 reads them (Parser/string_parser.c:
 * fstring_find_literal, fstring_find_expr, fstring_compile_expr): each field's expression is
 * tokenized and parsed on its own as "(" text ")" (star_expressions), its nodes BL_PYF_INNER
 * with the file's offsets; from 3.12 a piece the tokenizer read as PEP 701 has (BL_LIT_PEP701)
 * its fields' ends found as the tokenizer found them (bl_py_fstring_expr_end: any token inside,
 * nested quotes, backslashes, comments) and its format specs nested two deep. Escape errors are
 * not this file's (scan.c decodes every literal).
 * Calls tokens.c and literal.c. */
#include <string.h>
#include "python/parse_int.h"

#define MAX_NEST 200 /* CPython's MAXLEVEL */

typedef struct fs {
  bl_pp *p;
  const char *s;  /* p->s */
  size_t e;       /* the body's end */
  int raw;
  int pep701;     /* read as 3.12+ reads it (a BL_LIT_PEP701 piece) */
  size_t err_at;  /* where CPython reports the string's errors: the token after the group */
  size_t tok;     /* the string token (SIZE_MAX inside a field) */
} fs;

static size_t fs_fail(fs *f, const char *msg) {
  pp_hard(f->p, msg, f->err_at);
  return SIZE_MAX;
}

/* Literal text from i: where a field's '{' is, or (at level > 0) the spec's '}', or the end. */
static size_t literal(fs *f, size_t i, int lvl) {
  const char *s = f->s;
  while (i < f->e) {
    char c = s[i++];
    if (!f->raw && c == '\\' && i < f->e) {
      c = s[i++];
      if (c == 'N') {
        if (i < f->e && s[i++] == '{')
          while (i < f->e && s[i++] != '}') {}
        continue;
      }
    }
    if (c != '{' && c != '}') continue;
    if (lvl == 0) {
      if (i < f->e && s[i] == c) {
        i++;
        continue;
      }
      if (c == '}') return fs_fail(f, "f-string: single '}' is not allowed");
    }
    return i - 1;
  }
  return i;
}

/* The end of the expression of the field whose '{' is at i: the '!', ':', '=' or '}' that
 * ends it outside brackets and strings. */
static size_t expr_end(fs *f, size_t i) {
  const char *s = f->s;
  if (f->pep701) {
    size_t j = bl_py_fstring_expr_end(s, f->e, i);
    return j == SIZE_MAX ? fs_fail(f, "f-string: expecting '}'") : j;
  }
  char open[MAX_NEST], q = 0;
  int depth = 0, triple = 0;
  size_t j = i + 1;
  for (; j < f->e; j++) {
    char c = s[j];
    if (c == '\\') return fs_fail(f, "f-string expression part cannot include a backslash");
    if (q) {
      if (c == q && !triple) q = 0;
      else if (c == q && j + 2 < f->e && s[j + 1] == c && s[j + 2] == c) q = 0, j += 2;
    } else if (c == '\'' || c == '"') {
      q = c;
      triple = j + 2 < f->e && s[j + 1] == c && s[j + 2] == c;
      if (triple) j += 2;
    } else if (c == '(' || c == '[' || c == '{') {
      if (depth == MAX_NEST) return fs_fail(f, "f-string: too many nested parenthesis");
      open[depth++] = c;
    } else if (c == '#') {
      return fs_fail(f, "f-string expression part cannot include '#'");
    } else if (!depth && (c == '!' || c == ':' || c == '}' || c == '=' || c == '<' || c == '>')) {
      if (j + 1 < f->e && s[j + 1] == '=' && c != ':' && c != '}') {
        j++;
        continue;
      }
      if (c != '<' && c != '>') break;
    } else if (c == ')' || c == ']' || c == '}') {
      if (!depth) return fs_fail(f, "f-string: unmatched bracket");
      char o = open[--depth];
      if ((o == '(') != (c == ')') || (o == '[') != (c == ']'))
        return fs_fail(f, "f-string: closing parenthesis does not match opening parenthesis");
    }
  }
  if (q) return fs_fail(f, "f-string: unterminated string");
  if (depth) return fs_fail(f, "f-string: unmatched bracket");
  if (j >= f->e) return fs_fail(f, "f-string: expecting '}'");
  return j;
}

/* Parse text [a, b) of p->s as CPython parses a field: "(" text ")" as star_expressions. */
static bl_pynode *field_expr(bl_pp *p, size_t a, size_t b, size_t err_at, int pep701) {
  size_t len = b - a;
  bl_pynode *r = NULL;
  char *buf = boxlint__malloc(p->m, len + 2);
  bl_pytoks toks;
  memset(&toks, 0, sizeof toks);
  size_t *sig = NULL;
  bl_pp q;
  memset(&q, 0, sizeof q);
  if (!buf) return pp_oom(p);
  buf[0] = '(';
  memcpy(buf + 1, p->s + a, len);
  buf[len + 1] = ')';
  if (bl_py_tokenize(p->m, buf, len + 2, p->minor, &toks)) goto oom;
  if (toks.err) {
    pp_hard(p, toks.err, p->delta + a - 1 + toks.err_off);
    goto done;
  }
  if (!(sig = boxlint__malloc(p->m, (toks.n + 1) * sizeof *sig))) goto oom;
  for (size_t i = 0; i < toks.n; i++)
    if (toks.v[i].kind != BL_PT_COMMENT && toks.v[i].kind != BL_PT_NL) sig[q.nsig++] = i;
  q.m = p->m;
  q.arena = p->arena;
  q.s = buf;
  q.n = len + 2;
  q.tv = toks.v;
  q.sig = sig;
  q.delta = p->delta + a - 1;
  q.inner = 1;
  q.minor = p->minor;
  q.field_paren = pep701;
  q.depth = p->depth;
  q.max_depth = p->max_depth;
  q.bracket_cost = p->bracket_cost;
  q.nreal = q.nsig++;
  q.endtok.kind = BL_PT_ENDMARKER;
  q.endtok.start = q.endtok.end = len + 2;
  if (!(q.code = pp_classify(p->m, buf, toks.v, sig, q.nreal))) goto oom;
  if (!pp_enter(&q) && !pp_check_idents(&q)) {
    r = pp_star_expressions(&q);
    if (r && !(pp_eat(&q, T_NEWLINE) && pp_at(&q, T_END))) r = NULL;
  }
  p->nnodes += q.nnodes;
  if (q.oom) goto oom;
  if (q.err) pp_hard(p, q.err, q.err_off);
  else if (!r) pp_hard(p, "f-string: invalid syntax", err_at);
  goto done;
oom:
  pp_oom(p);
  r = NULL;
done:
  boxlint__free(p->m, q.code);
  boxlint__free(p->m, sig);
  bl_py_tokens_free(p->m, &toks);
  boxlint__free(p->m, buf);
  return r;
}

static size_t fparse(fs *f, bl_pynode *js, size_t i, int lvl);

static int blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

/* The field whose '{' is at i, as a FORMATTEDVALUE of js: past its '}', or SIZE_MAX. */
static size_t field(fs *f, bl_pynode *js, size_t i, int lvl) {
  bl_pp *p = f->p;
  const char *s = f->s;
  if (lvl >= (f->pep701 ? 3 : 2)) return fs_fail(f, "f-string: expressions nested too deeply");
  size_t j = expr_end(f, i), k = i + 1;
  if (j == SIZE_MAX) return j;
  while (k < j && blank(s[k])) k++;
  if (k == j) return fs_fail(f, "f-string: empty expression not allowed");
  bl_pynode *fv = pp_node_at(p, BL_PK_FORMATTEDVALUE, pp_off(p, i), pp_off(p, j)), *e;
  if (!fv) return SIZE_MAX;
  if (!p->inner) fv->tok = f->tok;
  if (!(e = field_expr(p, i + 1, j, f->err_at, f->pep701))) return SIZE_MAX;
  pp_add(fv, e, BL_PR_VALUE);
  pp_add(js, fv, BL_PR_VALUE);
  if (s[j] == '=') /* f'{x=}': the expression's text is part of the value */
    for (j++; j < f->e && (blank(s[j]) || s[j] == '\v' || (f->pep701 && s[j] == '#'));) {
      if (s[j] == '#') /* 3.12+: a comment, to the line's end */
        while (j < f->e && s[j] != '\n' && s[j] != '\r') j++;
      else
        j++;
    }
  if (j < f->e && s[j] == '!') {
    char conv = ++j < f->e ? s[j++] : 0;
    if (!conv) return fs_fail(f, "f-string: expecting '}'");
    if (conv != 's' && conv != 'r' && conv != 'a')
      return fs_fail(f, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
    if (f->pep701) /* 3.12+: blanks may follow the conversion */
      while (j < f->e && blank(s[j])) j++;
  }
  if (j < f->e && s[j] == ':') {
    if (++j >= f->e) return fs_fail(f, "f-string: expecting '}'");
    bl_pynode *spec = pp_node_at(p, BL_PK_JOINEDSTR, pp_off(p, j), pp_off(p, j));
    if (!spec) return SIZE_MAX;
    if (!p->inner) spec->tok = f->tok;
    if ((j = fparse(f, spec, j, lvl + 1)) == SIZE_MAX) return j;
    spec->end = pp_off(p, j);
    pp_add(fv, spec, BL_PR_FORMAT);
  }
  if (j >= f->e || s[j] != '}') return fs_fail(f, "f-string: expecting '}'");
  fv->end = pp_off(p, j + 1);
  return j + 1;
}

/* Literal text and fields from i: to the end (level 0) or to the spec's '}' (returned). */
static size_t fparse(fs *f, bl_pynode *js, size_t i, int lvl) {
  for (;;) {
    i = literal(f, i, lvl);
    if (i == SIZE_MAX || i >= f->e || f->s[i] == '}') break;
    i = field(f, js, i, lvl);
    if (i == SIZE_MAX) break;
  }
  if (i != SIZE_MAX && lvl > 0 && (i >= f->e || f->s[i] != '}'))
    return fs_fail(f, "f-string: expecting '}'");
  return i;
}

bl_pynode *pp_strings(bl_pp *p) {
  size_t t0 = p->pos;
  int bytes = -1, fstr = 0, tmpl = -1;
  for (; pp_at(p, T_STRING); p->pos++) {
    bl_piece pc;
    bl_py_piece(p->s, pp_tok(p, p->pos), &pc);
    int b = (pc.flags & BL_LIT_BYTES) != 0, t = (pc.flags & BL_LIT_TEMPLATE) != 0;
    if (t && b) return pp_hard(p, "'b' and 't' prefixes are incompatible", pp_off(p, pc.start));
    if (tmpl >= 0 && t != tmpl) { /* 3.14: a t-string is concatenated with t-strings only */
      size_t at = pp_off(p, pc.start);
      while (pp_at(p, T_STRING)) p->pos++;
      return pp_hard(p, "cannot mix t-string literals with string or bytes literals", at);
    }
    tmpl = t;
    if (bytes >= 0 && b != bytes) {
      while (pp_at(p, T_STRING)) p->pos++;
      return pp_hard(p, "cannot mix bytes and nonbytes literals",
                     pp_off(p, pp_tok(p, p->pos)->start));
    }
    bytes = b;
    fstr |= (pc.flags & BL_LIT_FSTRING) != 0;
  }
  bl_pynode *n = pp_node(p, tmpl > 0 ? BL_PK_TEMPLATESTR : fstr ? BL_PK_JOINEDSTR
                                                                : BL_PK_CONSTANT, t0);
  if (!n) return NULL;
  pp_end(p, n);
  if (!fstr) {
    n->flags |= bytes ? BL_PYF_BYTES : BL_PYF_STR;
    return n;
  }
  fs f = {p, p->s, 0, 0, 0, pp_off(p, pp_tok(p, p->pos)->start), SIZE_MAX};
  for (size_t i = t0; i < p->pos; i++) {
    bl_piece pc;
    bl_py_piece(p->s, pp_tok(p, i), &pc);
    if (!(pc.flags & BL_LIT_FSTRING)) continue;
    f.e = pc.body_end;
    f.raw = (pc.flags & BL_LIT_RAW) != 0;
    f.pep701 = (pc.flags & BL_LIT_PEP701) != 0;
    f.tok = p->inner ? SIZE_MAX : i;
    if (fparse(&f, n, pc.body, 0) == SIZE_MAX) return NULL;
  }
  return n;
}

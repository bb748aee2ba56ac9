/* The parser of Python 3.11's grammar (CPython's Grammar/python.gram, as `ast.parse` reads a
 * file): the entry point, the parser's tokens and nodes, identifiers (NFKC, CPython's
 * verify_identifier), and the simple statements. Compound statements are in parse_stmt.c,
 * expressions in parse_expr.c and parse_args.c, strings in parse_fstr.c, patterns in
 * parse_pat.c. Calls tokens.c (a replacement field's text) and ident.c (NFKC, XID). */
#include <stdlib.h>
#include <string.h>
#include "python/parse_int.h"
#include "python/encoding.h"

/*----------------------------------------------------------------------------------------------
 * Tokens
 *--------------------------------------------------------------------------------------------*/

static const char *const KEYWORDS[] = {
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
  "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if",
  "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
  "while", "with", "yield"};

/* Where the keywords of a first character start in KEYWORDS (sorted by byte): the search
 * goes on from there while the first characters are not greater. */
static const uint8_t KW_FIRST[128] = {
  ['F'] = 0, ['N'] = 1, ['T'] = 2, ['a'] = 3, ['b'] = 8, ['c'] = 9, ['d'] = 11, ['e'] = 13,
  ['f'] = 16, ['g'] = 19, ['i'] = 20, ['l'] = 24, ['n'] = 25, ['o'] = 27, ['p'] = 28,
  ['r'] = 29, ['t'] = 31, ['w'] = 32, ['y'] = 34};

static const char *const OPS[] = {
  "(", ")", "[", "]", "{", "}", ":", ",", ";", "+", "-", "*", "/", "|", "&", "<", ">", "=", ".",
  "%", "==", "!=", "<=", ">=", "~", "^", "<<", ">>", "**", "//", "@", "->", "...", ":=",
  "+=", "-=", "*=", "/=", "//=", "%=", "**=", ">>=", "<<=", "&=", "|=", "^=", "@="};

/* The one-character operators: their index in OPS plus one, by character. */
static const uint8_t OP1[128] = {
  ['('] = 1, [')'] = 2, ['['] = 3, [']'] = 4, ['{'] = 5, ['}'] = 6, [':'] = 7, [','] = 8,
  [';'] = 9, ['+'] = 10, ['-'] = 11, ['*'] = 12, ['/'] = 13, ['|'] = 14, ['&'] = 15,
  ['<'] = 16, ['>'] = 17, ['='] = 18, ['.'] = 19, ['%'] = 20, ['~'] = 25, ['^'] = 26,
  ['@'] = 31};

static int classify(const char *s, const bl_pytok *t) {
  size_t l = t->end - t->start;
  const char *b = s + t->start;
  switch (t->kind) {
  case BL_PT_NEWLINE: return T_NEWLINE;
  case BL_PT_INDENT: return T_INDENT;
  case BL_PT_DEDENT: return T_DEDENT;
  case BL_PT_NUMBER: return T_NUMBER;
  case BL_PT_STRING: return T_STRING;
  case BL_PT_NAME:
    if (l < 2 || l > 8 || !((b[0] >= 'a' && b[0] <= 'y') || b[0] == 'F' || b[0] == 'N' ||
                            b[0] == 'T'))
      return T_NAME;
    for (size_t k = KW_FIRST[(unsigned char)b[0]];
         k < sizeof KEYWORDS / sizeof *KEYWORDS && KEYWORDS[k][0] <= b[0]; k++)
      if (KEYWORDS[k][0] == b[0] && !strncmp(KEYWORDS[k], b, l) && !KEYWORDS[k][l])
        return K_FALSE + (int)k;
    return T_NAME;
  case BL_PT_OP:
    if (l == 1 && (unsigned char)b[0] < 128 && OP1[(unsigned char)b[0]])
      return O_LPAR + OP1[(unsigned char)b[0]] - 1;
    for (size_t k = 0; k < sizeof OPS / sizeof *OPS; k++)
      if (OPS[k][0] == b[0] && strlen(OPS[k]) == l && !memcmp(OPS[k], b, l))
        return O_LPAR + (int)k;
    return T_OP;
  default: return T_END;
  }
}

uint8_t *pp_classify(const boxlint__mem *m, const char *s, const bl_pytok *tv, const size_t *sig,
                     size_t nsig) {
  uint8_t *code = boxlint__malloc(m, nsig + 1);
  if (!code) return NULL;
  for (size_t i = 0; i < nsig; i++) code[i] = (uint8_t)classify(s, &tv[sig[i]]);
  code[nsig] = T_END;
  return code;
}

int pp_name_is(bl_pp *p, size_t i, const char *word) {
  if (i >= p->nsig || p->code[i] != T_NAME) return 0;
  const bl_pytok *t = pp_tok(p, i);
  size_t l = strlen(word);
  return t->end - t->start == l && !memcmp(p->s + t->start, word, l);
}

int pp_starts_expr(int c) {
  switch (c) {
  case T_NAME: case T_NUMBER: case T_STRING: case K_FALSE: case K_NONE: case K_TRUE:
  case K_AWAIT: case K_LAMBDA: case K_NOT: case O_LPAR: case O_LSQB: case O_LBRACE:
  case O_PLUS: case O_MINUS: case O_TILDE: case O_ELLIPSIS:
    return 1;
  default:
    return 0;
  }
}

int pp_enter(bl_pp *p) {
  if (p->depth >= p->max_depth) {
    pp_hard(p, BL_PY_STACK_MSG, pp_off(p, pp_tok(p, p->pos)->start));
    return -1;
  }
  p->depth++;
  return 0;
}

void bl_py_limits(int minor, int *max_depth, int *bracket_cost, size_t *tree_depth) {
  /* Measured on each CPython (tests/oracle/python_versions_test.py probes each at t-1, t and
   * t+1): `x = -...-1` and `x = not ... x` and `x = 1 if 1 else ...` take 1679 operators in 3.8
   * (its LL(1) parser's stack, MAXSTACK 1700, where the descent from an expression to an atom,
   * a bracket's or the innermost one's, costs about 17 entries: 98 nested parentheses around
   * a name, 99 brackets), 5967 in 3.9 and 3.10 (the PEG parser's MAXSTACK 6000), 5966 in 3.13
   * and 3.14; a lambda counts two. 3.11 and 3.12 build the tree (ast.parse) with a recursion
   * limit of about 3000 nodes deep: 2994 and 2996 nodes (the module counted). */
  *bracket_cost = minor <= 8 ? 15 : 0;
  *max_depth = minor <= 8 ? 1697 : minor <= 10 ? 5969 : 5968;
  *tree_depth = minor == 11 ? 2994 : minor == 12 ? 2996 : BL_PY_MAX_TREE_DEPTH;
}

void pp_leave(bl_pp *p) { p->depth--; }

int pp_bracket_enter(bl_pp *p) {
  if (!p->bracket_cost) return 0;
  if (p->depth + p->bracket_cost >= p->max_depth) {
    pp_hard(p, BL_PY_STACK_MSG, pp_off(p, pp_tok(p, p->pos)->start));
    return -1;
  }
  p->depth += p->bracket_cost;
  return 0;
}

void pp_bracket_leave(bl_pp *p) { p->depth -= p->bracket_cost; }

/*----------------------------------------------------------------------------------------------
 * Errors and nodes
 *--------------------------------------------------------------------------------------------*/

void *pp_fail(bl_pp *p, const char *msg, size_t file_off) {
  if (!p->trying && !p->smsg) {
    p->smsg = msg;
    p->soff = file_off;
  }
  return NULL;
}

void *pp_hard(bl_pp *p, const char *msg, size_t file_off) {
  if (!p->err) {
    p->err = msg;
    p->err_off = file_off;
  }
  return NULL;
}

void *pp_oom(bl_pp *p) {
  p->oom = 1;
  return NULL;
}

bl_pynode *pp_node_at(bl_pp *p, int kind, size_t start, size_t end) {
  bl_pynode *n = boxlint__arena_alloc(p->arena, p->m, sizeof *n);
  if (!n) return pp_oom(p);
  memset(n, 0, sizeof *n);
  n->kind = (uint8_t)kind;
  n->start = start;
  n->end = end;
  n->tok = SIZE_MAX;
  if (p->inner) n->flags |= BL_PYF_INNER;
  p->nnodes++;
  return n;
}

bl_pynode *pp_node(bl_pp *p, int kind, size_t tok) {
  const bl_pytok *t = pp_tok(p, tok);
  bl_pynode *n = pp_node_at(p, kind, pp_off(p, t->start), pp_off(p, t->end));
  if (n && !p->inner) n->tok = tok;
  return n;
}

void pp_add(bl_pynode *parent, bl_pynode *kid, int role) {
  kid->role = (uint8_t)role;
  kid->parent = parent;
  kid->next = NULL;
  if (parent->last) parent->last->next = kid;
  else parent->kid = kid;
  parent->last = kid;
  parent->nkids++;
}

void pp_end(bl_pp *p, bl_pynode *n) {
  size_t i = p->pos;
  while (i > 0 && (p->code[i - 1] == T_NEWLINE || p->code[i - 1] == T_INDENT ||
                   p->code[i - 1] == T_DEDENT))
    i--;
  if (i == 0) return;
  size_t e = pp_off(p, pp_tok(p, i - 1)->end);
  if (e > n->end) n->end = e;
}

void pp_span(bl_pynode *n, const bl_pynode *first, const bl_pynode *last) {
  n->start = first->start;
  n->tok = first->tok;
  n->end = last->end;
}

/* No byte of s[0..n) is over 0x7f (eight at a time). */
static int all_ascii(const char *s, size_t n) {
  size_t i = 0;
  for (uint64_t w; i + 8 <= n; i += 8)
    if ((memcpy(&w, s + i, 8), w & 0x8080808080808080u)) return 0;
  for (; i < n; i++)
    if ((unsigned char)s[i] >= 0x80) return 0;
  return 1;
}

/* The NFKC form of an identifier's bytes b[0..len) when it differs from them (ident.c). */
static int nfkc(bl_pp *p, const char *b, size_t len, const char **norm, size_t *norm_len) {
  if (p->ascii) return 0;
  const char *o;
  size_t ol;
  if (bl_py_nfkc_in(p->arena, p->m, b, len, &o, &ol)) return -1;
  if (o) {
    *norm = o;
    *norm_len = ol;
  }
  return 0;
}

int pp_ident_span(bl_pp *p, bl_pynode *n, size_t a, size_t b, int second) {
  if (second) {
    n->ident2 = pp_off(p, a);
    n->ident2_end = pp_off(p, b);
    return 0;
  }
  n->ident = pp_off(p, a);
  n->ident_end = pp_off(p, b);
  if (nfkc(p, p->s + a, b - a, &n->norm, &n->norm_len)) {
    pp_oom(p);
    return -1;
  }
  return 0;
}

int pp_ident(bl_pp *p, bl_pynode *n, size_t tok) {
  const bl_pytok *t = pp_tok(p, tok);
  return pp_ident_span(p, n, t->start, t->end, 0);
}

bl_pynode *pp_namedef(bl_pp *p, size_t tok) {
  bl_pynode *n = pp_node(p, BL_PK_NAMEDEF, tok);
  if (!n || pp_ident(p, n, tok)) return NULL;
  return n;
}

/* CPython's tokenizer checks a name with a non-ASCII character (verify_identifier): the first
 * character XID_Start or '_', the others XID_Continue, as written (before NFKC). */
static int check_ident(bl_pp *p, const bl_pytok *t) {
  size_t bad, i = t->start;
  while (i < t->end && (unsigned char)p->s[i] < 0x80) i++;
  if (i == t->end) return 0; /* an ASCII name the lexer took is an identifier */
  if (bl_py_ident_valid(p->s + t->start, t->end - t->start, &bad)) return 0;
  uint32_t cp; /* a byte that is not UTF-8: another encoding (a probe's file), not checked */
  if (!boxlint__utf8_decode((const unsigned char *)p->s + t->start + bad, t->end - t->start - bad,
                            &cp))
    return 0;
  pp_hard(p, "invalid character in identifier", pp_off(p, t->start + bad));
  return -1;
}

int pp_check_idents(bl_pp *p) {
  if (p->ascii) return 0;
  for (size_t i = 0; i < p->nsig; i++)
    if (p->code[i] == T_NAME && check_ident(p, pp_tok(p, i))) return -1;
  return 0;
}

int bl_pyast_ident_eq(const char *s, const bl_pynode *a, const char *name, size_t len) {
  if (a->norm) return a->norm_len == len && !memcmp(a->norm, name, len);
  return a->ident_end - a->ident == len && !memcmp(s + a->ident, name, len);
}

/*----------------------------------------------------------------------------------------------
 * Simple statements
 *--------------------------------------------------------------------------------------------*/

/* `del` del_targets, before ';' or NEWLINE. */
static bl_pynode *del_stmt(bl_pp *p, bl_pynode *st) {
  for (;;) {
    bl_pynode *t = pp_primary(p);
    if (!t) return NULL;
    if (pp_target(p, t, BL_PYF_DEL, 0)) return NULL;
    pp_add(st, t, BL_PR_TARGET);
    if (!pp_eat(p, O_COMMA)) break;
    if (pp_at(p, O_SEMI) || pp_at(p, T_NEWLINE)) break;
  }
  return st;
}

/* `global` / `nonlocal` NAME (',' NAME)* */
static bl_pynode *names_stmt(bl_pp *p, bl_pynode *st) {
  do {
    if (!pp_at(p, T_NAME)) return NULL;
    bl_pynode *d = pp_namedef(p, p->pos);
    if (!d) return NULL;
    pp_add(st, d, BL_PR_NAME);
    p->pos++;
  } while (pp_eat(p, O_COMMA));
  return st;
}

/* A dotted name: its text span [*a, *b) (text offsets); token positions consumed. */
static int dotted_name(bl_pp *p, size_t *a, size_t *b) {
  if (!pp_at(p, T_NAME)) return -1;
  *a = pp_tok(p, p->pos)->start;
  *b = pp_tok(p, p->pos)->end;
  p->pos++;
  while (pp_at(p, O_DOT)) {
    p->pos++;
    if (!pp_at(p, T_NAME)) return -1;
    *b = pp_tok(p, p->pos)->end;
    p->pos++;
  }
  return 0;
}

/* One alias: a dotted name (import) or a name (from ... import), `as` NAME. */
static bl_pynode *alias(bl_pp *p, int dotted) {
  size_t t0 = p->pos, a = 0, b = 0;
  if (dotted ? dotted_name(p, &a, &b) : !pp_at(p, T_NAME)) return NULL;
  if (!dotted) {
    a = pp_tok(p, t0)->start;
    b = pp_tok(p, t0)->end;
    p->pos++;
  }
  bl_pynode *al = pp_node(p, BL_PK_ALIAS, t0);
  if (!al || pp_ident_span(p, al, a, b, 0)) return NULL;
  size_t bound = t0;
  if (pp_eat(p, K_AS)) {
    if (!pp_at(p, T_NAME)) return NULL;
    bound = p->pos++;
    pp_ident_span(p, al, pp_tok(p, bound)->start, pp_tok(p, bound)->end, 1);
  }
  bl_pynode *d = pp_namedef(p, bound);
  if (!d) return NULL;
  pp_add(al, d, BL_PR_NAME);
  pp_end(p, al);
  return al;
}

static bl_pynode *import_from(bl_pp *p, bl_pynode *st) {
  size_t dots = p->pos, ndots = 0, a = 0, b = 0;
  while (pp_at(p, O_DOT) || pp_at(p, O_ELLIPSIS)) {
    p->pos++;
    ndots++;
  }
  if (ndots) pp_ident_span(p, st, pp_tok(p, dots)->start, pp_tok(p, p->pos - 1)->end, 1);
  if (pp_at(p, T_NAME)) {
    if (dotted_name(p, &a, &b) || pp_ident_span(p, st, a, b, 0)) return NULL;
  } else if (!ndots) {
    return NULL;
  } else {
    st->ident = st->ident_end = st->ident2_end;
  }
  if (!pp_eat(p, K_IMPORT)) return NULL;
  if (pp_eat(p, O_STAR)) {
    st->flags |= BL_PYF_STAR;
    return st;
  }
  int paren = pp_eat(p, O_LPAR);
  for (;;) {
    bl_pynode *al = alias(p, 0);
    if (!al) return NULL;
    pp_add(st, al, BL_PR_ITEM);
    if (!pp_eat(p, O_COMMA) || (paren && pp_at(p, O_RPAR))) break;
    if (!paren && (pp_at(p, T_NEWLINE) || pp_at(p, O_SEMI)))
      return pp_fail(p, "trailing comma not allowed without surrounding parentheses",
                     pp_off(p, pp_tok(p, p->pos)->start));
  }
  if (paren && !pp_eat(p, O_RPAR)) return NULL;
  return st;
}

static bl_pynode *import_name(bl_pp *p, bl_pynode *st) {
  do {
    bl_pynode *al = alias(p, 1);
    if (!al) return NULL;
    pp_add(st, al, BL_PR_ITEM);
  } while (pp_eat(p, O_COMMA));
  return st;
}

/* A statement that begins with a keyword: the node filled, or NULL. */
static bl_pynode *keyword_stmt(bl_pp *p, int c, size_t t0) {
  static const uint8_t kinds[] = {
    [K_PASS] = BL_PK_PASS, [K_BREAK] = BL_PK_BREAK, [K_CONTINUE] = BL_PK_CONTINUE,
    [K_RETURN] = BL_PK_RETURN, [K_RAISE] = BL_PK_RAISE, [K_GLOBAL] = BL_PK_GLOBAL,
    [K_NONLOCAL] = BL_PK_NONLOCAL, [K_DEL] = BL_PK_DELETE, [K_ASSERT] = BL_PK_ASSERT,
    [K_IMPORT] = BL_PK_IMPORT, [K_FROM] = BL_PK_IMPORTFROM};
  bl_pynode *st = pp_node(p, kinds[c], t0), *e;
  if (!st) return NULL;
  p->pos++;
  switch (c) {
  case K_RETURN:
    if (pp_starts_expr(pp_peek(p)) || pp_at(p, O_STAR)) {
      if (!(e = pp_star_expressions(p))) return NULL;
      pp_add(st, e, BL_PR_VALUE);
    }
    return st;
  case K_RAISE:
    if (!pp_starts_expr(pp_peek(p))) return st;
    if (!(e = pp_expression(p))) return NULL;
    pp_add(st, e, BL_PR_VALUE);
    if (pp_eat(p, K_FROM)) {
      if (!(e = pp_expression(p))) return NULL;
      pp_add(st, e, BL_PR_CAUSE);
    }
    return st;
  case K_GLOBAL: case K_NONLOCAL: return names_stmt(p, st);
  case K_DEL: return del_stmt(p, st);
  case K_ASSERT:
    if (!(e = pp_expression(p))) return NULL;
    pp_add(st, e, BL_PR_TEST);
    if (pp_eat(p, O_COMMA)) {
      if (!(e = pp_expression(p))) return NULL;
      pp_add(st, e, BL_PR_VALUE);
    }
    return st;
  case K_IMPORT: return import_name(p, st);
  case K_FROM: return import_from(p, st);
  default: return st;
  }
}

/* target ':' annotation ['=' annotated_rhs] */
static bl_pynode *annassign(bl_pp *p, bl_pynode *target) {
  bl_pynode *st = pp_node_at(p, BL_PK_ANNASSIGN, target->start, target->end), *e;
  if (!st) return NULL;
  p->pos++; /* ':' */
  if (!(e = pp_expression(p))) return NULL;
  if (!pp_single_target(target)) /* CPython's message once the annotation is read */
    return pp_fail(p, target->kind == BL_PK_TUPLE
                          ? "only single target (not tuple) can be annotated"
                          : "illegal target for annotation", target->start);
  st->tok = target->tok;
  if (target->kind == BL_PK_NAME && !(target->flags & BL_PYF_PAREN)) st->flags |= BL_PYF_SIMPLE;
  pp_target(p, target, BL_PYF_STORE, 0);
  pp_add(st, target, BL_PR_TARGET);
  pp_add(st, e, BL_PR_ANNOTATION);
  if (pp_eat(p, O_EQUAL)) {
    if (!(e = pp_rhs(p))) return NULL;
    pp_add(st, e, BL_PR_VALUE);
  }
  return st;
}

/* (star_targets '=')+ (yield_expr | star_expressions), or an augmented assignment. */
static bl_pynode *assign(bl_pp *p, bl_pynode *target, int c) {
  int aug = c != O_EQUAL;
  bl_pynode *st = pp_node_at(p, aug ? BL_PK_AUGASSIGN : BL_PK_ASSIGN, target->start,
                             target->end), *e;
  if (!st) return NULL;
  st->tok = target->tok;
  if (aug) {
    if (!pp_single_target(target))
      return pp_fail(p, "illegal expression for augmented assignment", target->start);
    pp_target(p, target, BL_PYF_STORE, 0);
    pp_ident_span(p, st, pp_tok(p, p->pos)->start, pp_tok(p, p->pos)->end, 0);
    pp_add(st, target, BL_PR_TARGET);
    p->pos++;
    if (!(e = pp_rhs(p))) return NULL;
    pp_add(st, e, BL_PR_VALUE);
    return st;
  }
  for (;;) {
    if (pp_target(p, target, BL_PYF_STORE, 1)) return NULL;
    pp_add(st, target, BL_PR_TARGET);
    p->pos++; /* '=' */
    if (!(e = pp_rhs(p))) return NULL;
    if (!pp_at(p, O_EQUAL)) break;
    target = e;
  }
  pp_add(st, e, BL_PR_VALUE);
  return st;
}

static bl_pynode *simple_stmt(bl_pp *p, bl_pynode *parent, int role) {
  size_t t0 = p->pos;
  int ta = pp_type_alias(p, parent, role);
  if (ta) return ta > 0 ? parent->last : NULL;
  int c = pp_peek(p);
  bl_pynode *st;
  if ((c >= K_PASS && c <= K_RETURN) || c == K_BREAK || c == K_CONTINUE || c == K_GLOBAL ||
      c == K_NONLOCAL || c == K_DEL || c == K_ASSERT || c == K_IMPORT || c == K_FROM) {
    st = keyword_stmt(p, c, t0);
  } else {
    bl_pynode *e = c == K_YIELD ? pp_yield_expr(p) : pp_star_expressions(p);
    if (!e) return NULL;
    c = pp_peek(p);
    if (c == O_COLON && e->kind != BL_PK_YIELD && e->kind != BL_PK_YIELDFROM) {
      st = annassign(p, e);
    } else if ((c == O_EQUAL || (c >= O_AUG_FIRST && c <= O_AUG_LAST)) &&
               e->kind != BL_PK_YIELD && e->kind != BL_PK_YIELDFROM) {
      st = assign(p, e, c);
    } else {
      st = pp_node_at(p, BL_PK_EXPR, e->start, e->end);
      if (st) {
        st->tok = e->tok;
        pp_add(st, e, BL_PR_VALUE);
      }
    }
  }
  if (st) pp_end(p, st);
  return st;
}

int pp_simple_stmts(bl_pp *p, bl_pynode *parent, int role) {
  for (;;) {
    bl_pynode *st = simple_stmt(p, parent, role);
    if (!st) return -1;
    if (st->parent != parent) pp_add(parent, st, role);
    if (pp_eat(p, O_SEMI)) {
      if (pp_at(p, T_NEWLINE)) break;
      continue;
    }
    if (!pp_at(p, T_NEWLINE)) return -1;
    break;
  }
  p->pos++;
  return 0;
}

static int statement(bl_pp *p, bl_pynode *parent, int role) {
  int rc = pp_compound(p, parent, role);
  if (rc) return rc > 0 ? 0 : -1;
  return pp_simple_stmts(p, parent, role);
}

int pp_statements(bl_pp *p, bl_pynode *parent, int role) {
  while (!pp_at(p, T_DEDENT) && !pp_at(p, T_END))
    if (statement(p, parent, role)) return -1;
  return 0;
}

int pp_block(bl_pp *p, bl_pynode *parent, int role) {
  if (!pp_eat(p, T_NEWLINE)) return pp_simple_stmts(p, parent, role);
  if (!pp_eat(p, T_INDENT)) { /* (3.9's tokenizer may let a block's line through unindented) */
    pp_fail(p, "expected an indented block", pp_off(p, pp_tok(p, p->pos)->start));
    return -1;
  }
  if (pp_enter(p)) return -1;
  int rc = pp_statements(p, parent, role);
  pp_leave(p);
  if (rc || !pp_eat(p, T_DEDENT)) return -1;
  return 0;
}

/*----------------------------------------------------------------------------------------------
 * The entry point
 *--------------------------------------------------------------------------------------------*/

/* The first node deeper than `limit` (the root at depth 1), or NULL (a walk without
 * recursion). */
static const bl_pynode *too_deep(const bl_pynode *root, size_t limit) {
  size_t d = 1;
  for (const bl_pynode *n = root; n;) {
    if (d > limit) return n;
    if (n->kid) {
      n = n->kid;
      d++;
      continue;
    }
    while (n && n != root && !n->next) {
      n = n->parent;
      d--;
    }
    n = n && n != root ? n->next : NULL;
  }
  return NULL;
}

/* The tokenizer's errors that CPython reports only when its parser reaches them (an INDENT or
 * DEDENT it cannot take, a continuation or EOF error): a syntax error before them comes first.
 * Its other errors (characters, numbers, strings, brackets) come first wherever they are. */
static int reached_only(const char *msg) {
  static const char *const late[] = {
    "unexpected indent", "expected an indented block",
    "unindent does not match any outer indentation level",
    "inconsistent use of tabs and spaces in indentation", "too many levels of indentation",
    "unexpected character after line continuation character", "unexpected EOF while parsing"};
  for (size_t k = 0; k < sizeof late / sizeof *late; k++)
    if (!strcmp(msg, late[k])) return 1;
  return 0;
}

/* Does a line break lie in s[a, b)? */
static int line_between(const char *s, size_t a, size_t b) {
  for (size_t i = a; i < b; i++)
    if (s[i] == '\n' || s[i] == '\r') return 1;
  return 0;
}

/* The error to report: the parser's, or (toks->err set) the tokenizer's when CPython's would
 * report it rather than the parser's: when the parser got to it, or when it is one CPython's
 * tokenizer raises wherever it is (it reads the rest of the file after a syntax error, also
 * after one of an f-string or a literal), but for an unclosed bracket on the error's line or
 * after. The parser's own checks of identifiers (the tokenizer's, in CPython) and its nesting
 * limit (a MemoryError) stand. */
static void verdict(const bl_pp *p, const bl_pytoks *toks, int parsed, bl_pyast *out) {
  const char *msg = p->err ? p->err : p->smsg ? p->smsg : parsed ? NULL : "invalid syntax";
  size_t off = p->err ? p->err_off : p->smsg ? p->soff : pp_tok(p, p->far)->start;
  const char *te = toks->err;
  int stands = p->err && (!strcmp(p->err, "invalid character in identifier") ||
                          !strcmp(p->err, "too deeply nested") ||
                          !strcmp(p->err, BL_PY_STACK_MSG) ||
                          !strcmp(p->err, BL_PY_RECURSION_MSG));
  if (te && !stands) {
    int reached = !msg || (!p->err && p->far >= p->nreal);
    if ((reached || !reached_only(te)) &&
        (reached || strstr(te, "was never closed") == NULL ||
         (toks->err_off < off && line_between(p->s, toks->err_off, off)))) {
      msg = te;
      off = toks->err_off;
      /* a block missing at the end of the file: CPython points at the header's line end */
      if (!strcmp(te, "expected an indented block") && off == p->n && p->nreal)
        off = pp_tok(p, p->nreal - 1)->start;
    }
  }
  out->err = msg;
  out->err_off = msg ? off : 0;
}

int bl_py_parse(const boxlint__mem *m, boxlint__arena *arena, const char *s, size_t n,
                const bl_pytoks *toks, const size_t *sig, size_t nsig, int minor,
                bl_pyast *out) {
  memset(out, 0, sizeof *out);
  bl_pp p;
  memset(&p, 0, sizeof p);
  p.m = m;
  p.arena = arena;
  p.minor = minor;
  size_t tree_limit;
  bl_py_limits(minor, &p.max_depth, &p.bracket_cost, &tree_limit);
  p.s = s;
  p.n = n;
  p.tv = toks->v;
  p.sig = sig;
  p.nreal = nsig;
  p.nsig = nsig + 1;
  p.endtok.kind = BL_PT_ENDMARKER;
  p.endtok.start = p.endtok.end = toks->err ? toks->err_off : n;
  p.code = pp_classify(m, s, toks->v, sig, nsig);
  p.ascii = all_ascii(s, n);
  if (!p.code) return -1;
  bl_pynode *root = NULL;
  if (!pp_check_idents(&p)) {
    root = pp_node_at(&p, BL_PK_MODULE, 0, n);
    if (root) root->tok = 0;
    if (root && (pp_statements(&p, root, BL_PR_BODY) || !pp_at(&p, T_END))) root = NULL;
  }
  boxlint__free(m, p.code);
  out->nnodes = p.nnodes;
  if (p.oom) return -1;
  const bl_pynode *deep = root ? too_deep(root, tree_limit) : NULL;
  if (deep && !p.err) {
    p.err = tree_limit < BL_PY_MAX_TREE_DEPTH ? BL_PY_RECURSION_MSG : "too deeply nested";
    p.err_off = deep->start;
  }
  verdict(&p, toks, root != NULL, out);
  if (!out->err) out->root = root;
  return 0;
}

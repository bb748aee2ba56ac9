/* The parser's match statement: the soft keywords `match` and `case` (a statement that begins
 * with `match` is a match statement when `match subject:` NEWLINE follows, else an ordinary
 * statement), and the patterns of PEP 634 (literal, capture, wildcard `_`, value, group,
 * sequence, mapping, class, or and as patterns). */
#include <string.h>
#include "python/parse_int.h"

static bl_pynode *pattern(bl_pp *p);

static size_t here(bl_pp *p) { return pp_off(p, pp_tok(p, p->pos)->start); }

static bl_pynode *wrap(bl_pp *p, int kind, bl_pynode *kid, int role) {
  bl_pynode *n = pp_node_at(p, kind, kid->start, kid->end);
  if (!n) return NULL;
  n->tok = kid->tok;
  pp_add(n, kid, role);
  return n;
}

static int is_imaginary(bl_pp *p, size_t tok) {
  const bl_pytok *t = pp_tok(p, tok);
  char c = p->s[t->end - 1];
  return c == 'j' || c == 'J';
}

/* signed_number !('+' | '-') | complex_number, as an expression. */
static bl_pynode *number(bl_pp *p) {
  bl_pynode *n = NULL, *e, *b;
  size_t t0 = p->pos;
  if (pp_at(p, O_MINUS) && !(n = pp_node(p, BL_PK_UNARYOP, p->pos))) return NULL;
  if (n) {
    const bl_pytok *t = pp_tok(p, p->pos++);
    n->ident = pp_off(p, t->start);
    n->ident_end = pp_off(p, t->end);
  }
  if (!pp_at(p, T_NUMBER) || !(e = pp_node(p, BL_PK_CONSTANT, p->pos))) return NULL;
  e->flags |= BL_PYF_NUM;
  size_t num = p->pos++;
  if (n) {
    pp_add(n, e, BL_PR_OPERAND);
    pp_end(p, n);
    e = n;
  }
  if (!pp_at(p, O_PLUS) && !pp_at(p, O_MINUS)) return e;
  if (is_imaginary(p, num))
    return pp_hard(p, "real number required in complex literal", pp_off(p, pp_tok(p, num)->start));
  if (!(n = wrap(p, BL_PK_BINOP, e, BL_PR_LEFT))) return NULL;
  n->tok = p->inner ? SIZE_MAX : t0;
  const bl_pytok *t = pp_tok(p, p->pos++);
  n->ident = pp_off(p, t->start);
  n->ident_end = pp_off(p, t->end);
  if (!pp_at(p, T_NUMBER)) return NULL;
  if (!is_imaginary(p, p->pos))
    return pp_hard(p, "imaginary number required in complex literal", here(p));
  if (!(b = pp_node(p, BL_PK_CONSTANT, p->pos))) return NULL;
  b->flags |= BL_PYF_NUM;
  p->pos++;
  pp_add(n, b, BL_PR_RIGHT);
  pp_end(p, n);
  return n;
}

/* NAME ('.' NAME)*: a NAME or an ATTRIBUTE chain. */
static bl_pynode *name_or_attr(bl_pp *p) {
  bl_pynode *a = pp_node(p, BL_PK_NAME, p->pos), *n;
  if (!a || pp_ident(p, a, p->pos)) return NULL;
  p->pos++;
  while (pp_at(p, O_DOT)) {
    if (!(n = wrap(p, BL_PK_ATTRIBUTE, a, BL_PR_VALUE))) return NULL;
    p->pos++;
    if (!pp_at(p, T_NAME) || pp_ident(p, n, p->pos)) return NULL;
    p->pos++;
    pp_end(p, n);
    a = n;
  }
  return a;
}

/* A capture target: a NAME, not `_`, not followed by '.', '(' or '='. */
static bl_pynode *capture(bl_pp *p) {
  if (!pp_at(p, T_NAME)) return NULL;
  if (pp_name_is(p, p->pos, "_")) return pp_fail(p, "cannot use '_' as a target", here(p));
  int c = pp_peek2(p);
  if (c == O_DOT || c == O_LPAR || c == O_EQUAL) return NULL;
  bl_pynode *d = pp_namedef(p, p->pos);
  if (d) p->pos++;
  return d;
}

/* '*' NAME or '*' '_' */
static bl_pynode *star_pattern(bl_pp *p) {
  bl_pynode *n = pp_node(p, BL_PK_MATCHSTAR, p->pos), *d;
  if (!n) return NULL;
  p->pos++;
  if (pp_name_is(p, p->pos, "_") && pp_peek2(p) != O_DOT && pp_peek2(p) != O_LPAR &&
      pp_peek2(p) != O_EQUAL) {
    p->pos++;
  } else {
    if (!(d = capture(p))) return NULL;
    pp_add(n, d, BL_PR_NAME);
  }
  pp_end(p, n);
  return n;
}

static bl_pynode *maybe_star(bl_pp *p) {
  return pp_at(p, O_STAR) ? star_pattern(p) : pattern(p);
}

static int starts_pattern(int c) {
  return c == O_STAR || c == T_NAME || c == T_NUMBER || c == T_STRING || c == O_MINUS ||
         c == O_LPAR || c == O_LSQB || c == O_LBRACE || c == K_NONE || c == K_TRUE ||
         c == K_FALSE;
}

/* The rest of a sequence after `first`, to `close` (not consumed; 0 for an open sequence). */
static bl_pynode *sequence(bl_pp *p, bl_pynode *seq, bl_pynode *first, int close) {
  bl_pynode *e;
  if (first) pp_add(seq, first, BL_PR_ELT);
  while (pp_eat(p, O_COMMA)) {
    if (close ? pp_at(p, close) : !starts_pattern(pp_peek(p))) break;
    if (!(e = maybe_star(p))) return NULL;
    pp_add(seq, e, BL_PR_ELT);
  }
  return seq;
}

/* '(' ')' | '(' pattern ')' | '(' open_sequence ')' | '[' ... ']' */
static bl_pynode *bracketed(bl_pp *p) {
  int close = pp_at(p, O_LPAR) ? O_RPAR : O_RSQB;
  bl_pynode *seq = pp_node(p, BL_PK_MATCHSEQUENCE, p->pos), *e;
  if (!seq) return NULL;
  p->pos++;
  if (pp_eat(p, close)) {
    pp_end(p, seq);
    return seq;
  }
  if (!(e = maybe_star(p))) return NULL;
  if (close == O_RPAR && !pp_at(p, O_COMMA)) {
    if (e->kind == BL_PK_MATCHSTAR || !pp_eat(p, O_RPAR)) return NULL;
    return e; /* a group */
  }
  if (!sequence(p, seq, e, close) || !pp_eat(p, close)) return NULL;
  pp_end(p, seq);
  return seq;
}

/* A mapping key: literal_expr | attr */
static bl_pynode *key(bl_pp *p) {
  int c = pp_peek(p);
  if (c == T_NUMBER || c == O_MINUS) return number(p);
  if (c == T_STRING) return pp_strings(p);
  if (c == K_NONE || c == K_TRUE || c == K_FALSE) {
    bl_pynode *n = pp_node(p, BL_PK_CONSTANT, p->pos);
    if (!n) return NULL;
    n->flags |= c == K_NONE ? BL_PYF_NONE : c == K_TRUE ? BL_PYF_TRUE : BL_PYF_FALSE;
    p->pos++;
    return n;
  }
  if (c != T_NAME || pp_peek2(p) != O_DOT) return NULL;
  return name_or_attr(p);
}

static bl_pynode *mapping(bl_pp *p) {
  bl_pynode *m = pp_node(p, BL_PK_MATCHMAPPING, p->pos), *k, *v;
  if (!m) return NULL;
  p->pos++;
  while (!pp_at(p, O_RBRACE)) {
    if (pp_eat(p, O_DOUBLESTAR)) {
      if (!(v = capture(p))) return NULL;
      pp_add(m, v, BL_PR_NAME);
      pp_eat(p, O_COMMA);
      break;
    }
    if (!(k = key(p)) || !pp_eat(p, O_COLON) || !(v = pattern(p))) return NULL;
    pp_add(m, k, BL_PR_KEY);
    pp_add(m, v, BL_PR_VALUE);
    if (!pp_eat(p, O_COMMA)) break;
  }
  if (!pp_eat(p, O_RBRACE)) return NULL;
  pp_end(p, m);
  return m;
}

/* cls '(' [patterns] [keyword patterns] ')' */
static bl_pynode *class_pattern(bl_pp *p, bl_pynode *cls) {
  bl_pynode *c = wrap(p, BL_PK_MATCHCLASS, cls, BL_PR_FUNC), *e;
  if (!c) return NULL;
  p->pos++; /* '(' */
  int kw = 0;
  while (!pp_at(p, O_RPAR)) {
    if (pp_at(p, T_NAME) && pp_peek2(p) == O_EQUAL) {
      bl_pynode *k = pp_node(p, BL_PK_KEYWORD, p->pos);
      if (!k || pp_ident(p, k, p->pos)) return NULL;
      p->pos += 2;
      if (!(e = pattern(p))) return NULL;
      pp_add(k, e, BL_PR_VALUE);
      pp_end(p, k);
      pp_add(c, k, BL_PR_KEYWORD);
      kw = 1;
    } else {
      if (kw) return pp_fail(p, "positional patterns follow keyword patterns", here(p));
      if (!(e = pattern(p))) return NULL;
      pp_add(c, e, BL_PR_ARG);
    }
    if (!pp_eat(p, O_COMMA)) break;
  }
  if (!pp_eat(p, O_RPAR)) return NULL;
  pp_end(p, c);
  return c;
}

/* A NAME: `_`, a capture, a value (attr) or a class pattern. */
static bl_pynode *named(bl_pp *p) {
  bl_pynode *n;
  int c = pp_peek2(p);
  if (pp_name_is(p, p->pos, "_")) {
    if (!(n = pp_node(p, BL_PK_MATCHAS, p->pos))) return NULL;
    p->pos++;
    return n;
  }
  if (c != O_DOT && c != O_LPAR) {
    bl_pynode *d = capture(p);
    return d ? wrap(p, BL_PK_MATCHAS, d, BL_PR_NAME) : NULL;
  }
  bl_pynode *a = name_or_attr(p);
  if (!a) return NULL;
  if (pp_at(p, O_LPAR)) return class_pattern(p, a);
  if (pp_at(p, O_EQUAL)) return NULL;
  return wrap(p, BL_PK_MATCHVALUE, a, BL_PR_VALUE);
}

static bl_pynode *closed(bl_pp *p) {
  bl_pynode *n;
  int c = pp_peek(p);
  switch (c) {
  case T_NUMBER: case O_MINUS:
    return (n = number(p)) ? wrap(p, BL_PK_MATCHVALUE, n, BL_PR_VALUE) : NULL;
  case T_STRING:
    return (n = pp_strings(p)) ? wrap(p, BL_PK_MATCHVALUE, n, BL_PR_VALUE) : NULL;
  case K_NONE: case K_TRUE: case K_FALSE:
    if (!(n = pp_node(p, BL_PK_MATCHSINGLETON, p->pos))) return NULL;
    n->flags |= c == K_NONE ? BL_PYF_NONE : c == K_TRUE ? BL_PYF_TRUE : BL_PYF_FALSE;
    p->pos++;
    return n;
  case T_NAME: return named(p);
  case O_LPAR: case O_LSQB: return bracketed(p);
  case O_LBRACE: return mapping(p);
  default: return NULL;
  }
}

/* or_pattern ['as' capture] */
static bl_pynode *pattern(bl_pp *p) {
  if (pp_enter(p)) return NULL;
  bl_pynode *a = closed(p), *o = NULL, *b, *d;
  if (a && pp_at(p, O_VBAR) && (o = wrap(p, BL_PK_MATCHOR, a, BL_PR_ELT))) {
    while (a && pp_eat(p, O_VBAR)) {
      if ((a = closed(p))) pp_add(o, a, BL_PR_ELT);
    }
    if (a) {
      pp_end(p, o);
      a = o;
    }
  }
  if (a && pp_eat(p, K_AS)) {
    if (!(d = capture(p)) || !(b = wrap(p, BL_PK_MATCHAS, a, BL_PR_PATTERN))) {
      a = NULL;
    } else {
      pp_add(b, d, BL_PR_NAME);
      pp_end(p, b);
      a = b;
    }
  }
  pp_leave(p);
  return a;
}

/* patterns: open_sequence_pattern | pattern */
static bl_pynode *patterns(bl_pp *p) {
  size_t t0 = p->pos;
  bl_pynode *e = maybe_star(p), *seq;
  if (!e) return NULL;
  if (!pp_at(p, O_COMMA)) return e->kind == BL_PK_MATCHSTAR ? NULL : e;
  if (!(seq = pp_node(p, BL_PK_MATCHSEQUENCE, t0)) || !sequence(p, seq, e, 0)) return NULL;
  pp_end(p, seq);
  return seq;
}

/* "case" patterns ['if' named_expression] ':' block */
static bl_pynode *case_block(bl_pp *p) {
  if (!pp_name_is(p, p->pos, "case")) return NULL;
  bl_pynode *c = pp_node(p, BL_PK_MATCHCASE, p->pos), *e;
  if (!c) return NULL;
  p->pos++;
  if (!(e = patterns(p))) return NULL;
  pp_add(c, e, BL_PR_PATTERN);
  if (pp_eat(p, K_IF)) {
    if (!(e = pp_named_expression(p))) return NULL;
    pp_add(c, e, BL_PR_TEST);
  }
  if (!pp_eat(p, O_COLON) || pp_block(p, c, BL_PR_BODY)) return NULL;
  pp_end(p, c);
  return c;
}

/* subject_expr: star_named_expression ',' [star_named_expressions] | named_expression */
static bl_pynode *subject(bl_pp *p) {
  bl_pynode *e = pp_star_named_expression(p);
  if (!e) return NULL;
  if (pp_at(p, O_COMMA)) return pp_star_named_expressions(p, e, e->tok);
  return e->kind == BL_PK_STARRED ? NULL : e;
}

int pp_match(bl_pp *p, bl_pynode *parent, int role) {
  size_t t0 = p->pos;
  p->pos++;
  p->trying++;
  bl_pynode *e = subject(p), *m, *c;
  int ok = e && pp_eat(p, O_COLON) && pp_eat(p, T_NEWLINE);
  p->trying--;
  if (PP_FAILED(p)) return -1;
  if (!ok) {
    p->pos = t0;
    return 0;
  }
  if (!(m = pp_node(p, BL_PK_MATCH, t0))) return -1;
  pp_add(m, e, BL_PR_SUBJECT);
  if (!pp_eat(p, T_INDENT) || pp_enter(p)) return -1;
  do {
    if (!(c = case_block(p))) break;
    pp_add(m, c, BL_PR_CASE);
  } while (!pp_at(p, T_DEDENT));
  pp_leave(p);
  if (!c || !pp_eat(p, T_DEDENT)) return -1;
  pp_end(p, m);
  pp_add(parent, m, role);
  return 1;
}

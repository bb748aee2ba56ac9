/* The parser's expressions: conditional expressions and lambdas down to atoms, the displays
 * (tuples, lists, sets, dicts and their comprehensions), yield. Calls' arguments, subscripts,
 * targets and comprehension clauses are in parse_args.c, strings in parse_fstr.c. */
#include <string.h>
#include "python/parse_int.h"

/* A node of `kind` over [first, last] (their spans), `first` its first child. */
static bl_pynode *over(bl_pp *p, int kind, bl_pynode *first, int role) {
  bl_pynode *n = pp_node_at(p, kind, first->start, first->end);
  if (!n) return NULL;
  n->tok = first->tok;
  pp_add(n, first, role);
  return n;
}

/* The operator token at pos as the node's ident, consumed. */
static void op_ident(bl_pp *p, bl_pynode *n) {
  const bl_pytok *t = pp_tok(p, p->pos);
  n->ident = pp_off(p, t->start);
  n->ident_end = pp_off(p, t->end);
  p->pos++;
}

static bl_pynode *lambdef(bl_pp *p) {
  bl_pynode *l = pp_node(p, BL_PK_LAMBDA, p->pos), *e;
  if (!l) return NULL;
  p->pos++;
  if (pp_enter(p)) return NULL; /* a lambda is two levels of CPython's parser */
  if (!(e = pp_params(p, 1))) goto fail;
  pp_add(l, e, BL_PR_ARGS);
  if (!pp_eat(p, O_COLON) || !(e = pp_expression(p))) goto fail;
  pp_leave(p);
  pp_add(l, e, BL_PR_VALUE);
  pp_end(p, l);
  return l;
fail:
  pp_leave(p);
  return NULL;
}

/* An expression that another follows inside brackets (`f(a b)`): CPython's invalid_expression
 * names the missing comma, unless the first is a soft keyword or a NAME before a STRING. */
static void comma_hint(bl_pp *p, const bl_pynode *a, size_t t0) {
  if (p->trying || p->smsg || !pp_starts_expr(pp_peek(p))) return;
  if (p->code[t0] == T_NAME && (p->code[t0 + 1] == T_STRING || pp_name_is(p, t0, "match") ||
                                pp_name_is(p, t0, "case") || pp_name_is(p, t0, "_")))
    return;
  long depth = 0;
  for (size_t i = 0; i < p->pos; i++) {
    int c = p->code[i];
    depth += c == O_LPAR || c == O_LSQB || c == O_LBRACE;
    depth -= c == O_RPAR || c == O_RSQB || c == O_RBRACE;
  }
  if (depth <= 0) return;
  size_t pos = p->pos, far = p->far; /* the second expression must be one */
  p->trying++;
  bl_pynode *b = pp_expression(p);
  p->trying--;
  p->pos = pos;
  p->far = far;
  if (b) pp_fail(p, "invalid syntax. Perhaps you forgot a comma?", a->start);
}

/* Does a level of the disjunction act on the token that follows its first operand? */
static int continues(int c) {
  switch (c) {
  case O_DOUBLESTAR: case O_VBAR: case O_CIRCUMFLEX: case O_AMPER: case O_LSHIFT:
  case O_RSHIFT: case O_PLUS: case O_MINUS: case O_STAR: case O_SLASH: case O_DOUBLESLASH:
  case O_PERCENT: case O_AT: case O_EQEQUAL: case O_NOTEQUAL: case O_LESS: case O_LESSEQUAL:
  case O_GREATER: case O_GREATEREQUAL: case K_IN: case K_NOT: case K_IS: case K_AND: case K_OR:
    return 1;
  default:
    return 0;
  }
}

/* pp_disjunction, the common case without its dozen levels: an expression that starts with a
 * primary (no prefix operator) has it parsed here, at the depth factor() parses it at; when no
 * operator follows, every level would return it as it is, and so does this; else it waits in
 * p->pre for factor() to take, and the levels go on from there. The same tree, errors and
 * furthest token. */
static bl_pynode *disjunction(bl_pp *p) {
  int c = pp_peek(p);
  if (c == K_NOT || c == O_PLUS || c == O_MINUS || c == O_TILDE || c == K_AWAIT || p->pre)
    return pp_disjunction(p);
  if (pp_enter(p)) return NULL;
  bl_pynode *a = pp_primary(p);
  pp_leave(p);
  if (!a || !continues(pp_peek(p))) return a;
  p->pre = a;
  return pp_disjunction(p);
}

bl_pynode *pp_expression(bl_pp *p) {
  if (pp_enter(p)) return NULL;
  bl_pynode *r, *e;
  size_t t0 = p->pos;
  if (pp_at(p, K_LAMBDA)) {
    r = lambdef(p);
  } else if ((r = disjunction(p)) && !pp_at(p, K_IF)) {
    comma_hint(p, r, t0);
  } else if (r) {
    size_t at = r->start;
    if (!(r = over(p, BL_PK_IFEXP, r, BL_PR_VALUE))) goto out;
    p->pos++;
    if (!(e = pp_disjunction(p))) goto fail;
    pp_add(r, e, BL_PR_TEST);
    if (!pp_eat(p, K_ELSE)) {
      r = pp_fail(p, "expected 'else' after 'if' expression", at);
      goto out;
    }
    if (!(e = pp_expression(p))) goto fail;
    pp_add(r, e, BL_PR_ORELSE);
    pp_end(p, r);
  }
  goto out;
fail:
  r = NULL;
out:
  pp_leave(p);
  return r;
}

bl_pynode *pp_named_expression(bl_pp *p) {
  if (pp_at(p, T_NAME) && pp_peek2(p) == O_COLONEQUAL) {
    bl_pynode *t = pp_node(p, BL_PK_NAME, p->pos), *n, *e;
    if (!t || pp_ident(p, t, p->pos)) return NULL;
    t->flags |= BL_PYF_STORE;
    p->pos += 2;
    if (!(n = over(p, BL_PK_NAMEDEXPR, t, BL_PR_TARGET)) || !(e = pp_expression(p))) return NULL;
    pp_add(n, e, BL_PR_VALUE);
    pp_end(p, n);
    return n;
  }
  bl_pynode *e = pp_expression(p);
  if (e && pp_at(p, O_COLONEQUAL))
    return pp_fail(p, "cannot use assignment expressions with this expression", e->start);
  return e;
}

/* 'or' / 'and' chains: one BOOLOP with all the operands. */
static bl_pynode *inversion(bl_pp *p);

static bl_pynode *boolop(bl_pp *p, int op) {
  bl_pynode *a = op == K_OR ? boolop(p, K_AND) : inversion(p), *n = NULL, *b;
  if (!a || !pp_at(p, op)) return a;
  if (!(n = over(p, BL_PK_BOOLOP, a, BL_PR_VALUE))) return NULL;
  n->ident = pp_off(p, pp_tok(p, p->pos)->start);
  n->ident_end = pp_off(p, pp_tok(p, p->pos)->end);
  while (pp_eat(p, op)) {
    if (!(b = op == K_OR ? boolop(p, K_AND) : inversion(p))) return NULL;
    pp_add(n, b, BL_PR_VALUE);
  }
  pp_end(p, n);
  return n;
}

bl_pynode *pp_disjunction(bl_pp *p) { return boolop(p, K_OR); }

/* The comparison operator at pos, consumed: 1, or 0 when there is none. */
static int compop(bl_pp *p) {
  int c = pp_peek(p);
  switch (c) {
  case O_EQEQUAL: case O_NOTEQUAL: case O_LESS: case O_LESSEQUAL: case O_GREATER:
  case O_GREATEREQUAL: case K_IN:
    p->pos++;
    return 1;
  case K_NOT:
    if (pp_peek2(p) != K_IN) return 0;
    p->pos += 2;
    return 1;
  case K_IS:
    p->pos++;
    pp_eat(p, K_NOT);
    return 1;
  default:
    return 0;
  }
}

static bl_pynode *comparison(bl_pp *p) {
  bl_pynode *a = pp_bitwise_or(p), *n = NULL, *b;
  if (!a) return NULL;
  while (compop(p)) {
    if (!n && !(n = over(p, BL_PK_COMPARE, a, BL_PR_LEFT))) return NULL;
    if (!(b = pp_bitwise_or(p))) return NULL;
    pp_add(n, b, BL_PR_RIGHT);
  }
  if (!n) return a;
  pp_end(p, n);
  return n;
}

static bl_pynode *inversion(bl_pp *p) {
  if (p->pre || !pp_at(p, K_NOT)) return comparison(p); /* p->pre: the operand is parsed */
  if (pp_enter(p)) return NULL;
  bl_pynode *n = pp_node(p, BL_PK_UNARYOP, p->pos), *e = NULL;
  if (n) {
    op_ident(p, n);
    if ((e = inversion(p))) {
      pp_add(n, e, BL_PR_OPERAND);
      pp_end(p, n);
    }
  }
  pp_leave(p);
  return e ? n : NULL;
}

/* The binary operators by precedence, from bitwise_or (level 0) to term (level 5). */
static const uint8_t LEVELS[6][6] = {
  {O_VBAR}, {O_CIRCUMFLEX}, {O_AMPER}, {O_LSHIFT, O_RSHIFT}, {O_PLUS, O_MINUS},
  {O_STAR, O_SLASH, O_DOUBLESLASH, O_PERCENT, O_AT}};

static bl_pynode *factor(bl_pp *p);

static int level_op(int level, int c) {
  for (int k = 0; k < 6 && LEVELS[level][k]; k++)
    if (LEVELS[level][k] == c) return 1;
  return 0;
}

static bl_pynode *binop(bl_pp *p, int level) {
  bl_pynode *a = level == 5 ? factor(p) : binop(p, level + 1), *b;
  while (a && level_op(level, pp_peek(p))) {
    bl_pynode *n = over(p, BL_PK_BINOP, a, BL_PR_LEFT);
    if (!n) return NULL;
    op_ident(p, n);
    if (!(b = level == 5 ? factor(p) : binop(p, level + 1))) return NULL;
    pp_add(n, b, BL_PR_RIGHT);
    pp_end(p, n);
    a = n;
  }
  return a;
}

bl_pynode *pp_bitwise_or(bl_pp *p) { return binop(p, 0); }

/* await_primary ['**' factor] */
static bl_pynode *power(bl_pp *p) {
  bl_pynode *a, *b;
  if (p->pre) { /* parsed by disjunction() */
    a = p->pre;
    p->pre = NULL;
  } else if (pp_at(p, K_AWAIT)) {
    if (!(a = pp_node(p, BL_PK_AWAIT, p->pos))) return NULL;
    p->pos++;
    if (!(b = pp_primary(p))) return NULL;
    pp_add(a, b, BL_PR_VALUE);
    pp_end(p, a);
  } else if (!(a = pp_primary(p))) {
    return NULL;
  }
  if (!pp_at(p, O_DOUBLESTAR)) return a;
  bl_pynode *n = over(p, BL_PK_BINOP, a, BL_PR_LEFT);
  if (!n) return NULL;
  op_ident(p, n);
  if (!(b = factor(p))) return NULL;
  pp_add(n, b, BL_PR_RIGHT);
  pp_end(p, n);
  return n;
}

static bl_pynode *factor(bl_pp *p) {
  if (p->pre) { /* the operand parsed by disjunction(), at this depth: power() takes it */
    p->depth++;
    bl_pynode *e = power(p);
    p->depth--;
    return e;
  }
  int c = pp_peek(p);
  if (pp_enter(p)) return NULL;
  bl_pynode *n, *e = NULL;
  if (c == O_PLUS || c == O_MINUS || c == O_TILDE) {
    if ((n = pp_node(p, BL_PK_UNARYOP, p->pos))) {
      op_ident(p, n);
      if ((e = factor(p))) {
        pp_add(n, e, BL_PR_OPERAND);
        pp_end(p, n);
        e = n;
      }
    }
  } else {
    e = power(p);
  }
  pp_leave(p);
  return e;
}

/* primary: atom ('.' NAME | '(' arguments ')' | '[' slices ']')* */
bl_pynode *pp_primary(bl_pp *p) {
  bl_pynode *a = pp_atom(p), *n, *e;
  while (a) {
    int c = pp_peek(p);
    if (c == O_DOT) {
      if (!(n = over(p, BL_PK_ATTRIBUTE, a, BL_PR_VALUE))) return NULL;
      p->pos++;
      if (!pp_at(p, T_NAME) || pp_ident(p, n, p->pos)) return NULL;
      p->pos++;
    } else if (c == O_LPAR) {
      if (!(n = over(p, BL_PK_CALL, a, BL_PR_FUNC)) || pp_bracket_enter(p)) return NULL;
      p->pos++;
      int rc = pp_call_args(p, n, 1);
      pp_bracket_leave(p);
      if (rc) return NULL;
    } else if (c == O_LSQB) {
      if (!(n = over(p, BL_PK_SUBSCRIPT, a, BL_PR_VALUE)) || pp_bracket_enter(p)) return NULL;
      p->pos++;
      e = pp_slices(p);
      pp_bracket_leave(p);
      if (!e) return NULL;
      pp_add(n, e, BL_PR_SLICE);
      if (!pp_eat(p, O_RSQB)) return NULL;
    } else {
      break;
    }
    pp_end(p, n);
    a = n;
  }
  return a;
}

bl_pynode *pp_yield_expr(bl_pp *p) {
  bl_pynode *y = pp_node(p, BL_PK_YIELD, p->pos), *e = NULL;
  if (!y) return NULL;
  p->pos++;
  if (pp_eat(p, K_FROM)) {
    y->kind = BL_PK_YIELDFROM;
    if (!(e = pp_expression(p))) return NULL;
  } else if (pp_starts_expr(pp_peek(p)) || pp_at(p, O_STAR)) {
    if (!(e = pp_star_expressions(p))) return NULL;
  }
  if (e) pp_add(y, e, BL_PR_VALUE);
  pp_end(p, y);
  return y;
}

bl_pynode *pp_rhs(bl_pp *p) {
  return pp_at(p, K_YIELD) ? pp_yield_expr(p) : pp_star_expressions(p);
}

/* '*' bitwise_or, or the expression `inner` parses. */
static bl_pynode *starred(bl_pp *p, int named) {
  if (!pp_at(p, O_STAR)) return named ? pp_named_expression(p) : pp_expression(p);
  bl_pynode *n = pp_node(p, BL_PK_STARRED, p->pos), *e;
  if (!n) return NULL;
  p->pos++;
  if (!(e = pp_bitwise_or(p))) return NULL;
  pp_add(n, e, BL_PR_VALUE);
  pp_end(p, n);
  return n;
}

bl_pynode *pp_star_expression(bl_pp *p) { return starred(p, 0); }
bl_pynode *pp_star_named_expression(bl_pp *p) { return starred(p, 1); }

/* first (',' element)* [','] as a TUPLE; elements star_expression or star_named_expression. */
static bl_pynode *tuple_rest(bl_pp *p, bl_pynode *first, int named) {
  bl_pynode *t = over(p, BL_PK_TUPLE, first, BL_PR_ELT), *e;
  if (!t) return NULL;
  while (pp_eat(p, O_COMMA)) {
    if (!pp_starts_expr(pp_peek(p)) && !pp_at(p, O_STAR)) break;
    if (!(e = starred(p, named))) return NULL;
    pp_add(t, e, BL_PR_ELT);
  }
  pp_end(p, t);
  return t;
}

bl_pynode *pp_star_expressions(bl_pp *p) {
  bl_pynode *e = pp_star_expression(p);
  if (!e || !pp_at(p, O_COMMA)) return e;
  return tuple_rest(p, e, 0);
}

bl_pynode *pp_star_named_expressions(bl_pp *p, bl_pynode *first, size_t tok) {
  (void)tok;
  return tuple_rest(p, first, 1);
}

static int comp_next(bl_pp *p) { return pp_at(p, K_FOR) || pp_at(p, K_ASYNC); }

/* '(' ... ')': a tuple, a group (the node inside, BL_PYF_PAREN), a generator expression. */
static bl_pynode *paren(bl_pp *p) {
  size_t t0 = p->pos;
  bl_pynode *n, *e;
  p->pos++;
  if (pp_eat(p, O_RPAR)) {
    if (!(n = pp_node(p, BL_PK_TUPLE, t0))) return NULL;
    n->flags |= BL_PYF_PAREN;
    pp_end(p, n);
    return n;
  }
  if (pp_at(p, K_YIELD)) {
    if (!(e = pp_yield_expr(p)) || !pp_eat(p, O_RPAR)) return NULL;
    e->flags |= BL_PYF_PAREN;
    return e;
  }
  if (!(e = pp_star_named_expression(p))) return NULL;
  if (e->kind != BL_PK_STARRED && comp_next(p)) {
    if (!(n = pp_node(p, BL_PK_GENEXP, t0))) return NULL;
    pp_add(n, e, BL_PR_ELT);
    if (pp_comprehension(p, n) || !pp_eat(p, O_RPAR)) return NULL;
  } else if (pp_at(p, O_COMMA)) {
    if (!(n = pp_star_named_expressions(p, e, t0)) || !pp_eat(p, O_RPAR)) return NULL;
    n->start = pp_off(p, pp_tok(p, t0)->start);
    n->tok = p->inner ? SIZE_MAX : t0;
    n->flags |= BL_PYF_PAREN;
  } else {
    /* 3.12+ reads a field as star_expressions, without the parentheses around it; 3.8's
     * ast.parse takes `(*a)` (its compiler refuses it) */
    if (e->kind == BL_PK_STARRED && p->minor >= 9 &&
        !(p->field_paren && t0 == 0 && pp_peek2(p) == T_NEWLINE))
      return pp_fail(p, "cannot use starred expression here", e->start);
    if (!pp_eat(p, O_RPAR)) return NULL;
    e->flags |= BL_PYF_PAREN;
    return e;
  }
  pp_end(p, n);
  return n;
}

/* The elements after the first of a list or set, to the closer (consumed). */
static int elements(bl_pp *p, bl_pynode *n, int close) {
  bl_pynode *e;
  while (pp_eat(p, O_COMMA)) {
    if (pp_at(p, close)) break;
    if (!(e = pp_star_named_expression(p))) return -1;
    pp_add(n, e, BL_PR_ELT);
  }
  return pp_eat(p, close) ? 0 : -1;
}

static bl_pynode *list(bl_pp *p) {
  bl_pynode *n = pp_node(p, BL_PK_LIST, p->pos), *e;
  if (!n) return NULL;
  p->pos++;
  if (!pp_eat(p, O_RSQB)) {
    if (!(e = pp_star_named_expression(p))) return NULL;
    pp_add(n, e, BL_PR_ELT);
    if (e->kind != BL_PK_STARRED && comp_next(p)) {
      n->kind = BL_PK_LISTCOMP;
      if (pp_comprehension(p, n) || !pp_eat(p, O_RSQB)) return NULL;
    } else if (elements(p, n, O_RSQB)) {
      return NULL;
    }
  }
  pp_end(p, n);
  return n;
}

/* The items of a dict after its first (or from the start when first is 0). */
static int dict_items(bl_pp *p, bl_pynode *n, int first) {
  bl_pynode *k, *v;
  while (first || pp_eat(p, O_COMMA)) {
    first = 0;
    if (pp_at(p, O_RBRACE)) break;
    if (pp_eat(p, O_DOUBLESTAR)) {
      if (!(v = pp_bitwise_or(p))) return -1;
      pp_add(n, v, BL_PR_DSTAR);
      continue;
    }
    if (!(k = pp_expression(p)) || !pp_eat(p, O_COLON) || !(v = pp_expression(p))) return -1;
    pp_add(n, k, BL_PR_KEY);
    pp_add(n, v, BL_PR_VALUE);
  }
  return pp_eat(p, O_RBRACE) ? 0 : -1;
}

/* 3.8: a set's elements are no assignment expressions unless parenthesized (3.9's grammar
 * takes them). 0, or -1 with the error. */
static int set_walrus(bl_pp *p, const bl_pynode *n) {
  if (p->minor >= 9 || (n->kind != BL_PK_SET && n->kind != BL_PK_SETCOMP)) return 0;
  for (const bl_pynode *k = n->kid; k; k = k->next)
    if (k->role == BL_PR_ELT && k->kind == BL_PK_NAMEDEXPR && !(k->flags & BL_PYF_PAREN)) {
      pp_fail(p, "invalid syntax", k->kid->end);
      return -1;
    }
  return 0;
}

static bl_pynode *brace(bl_pp *p) {
  bl_pynode *n = pp_node(p, BL_PK_DICT, p->pos), *e, *v;
  if (!n) return NULL;
  p->pos++;
  if (pp_eat(p, O_RBRACE)) {
  } else if (pp_at(p, O_DOUBLESTAR)) {
    if (dict_items(p, n, 1)) return NULL;
  } else {
    if (!(e = pp_star_named_expression(p))) return NULL;
    int bare_walrus = e->kind == BL_PK_NAMEDEXPR && !(e->flags & BL_PYF_PAREN);
    if (e->kind != BL_PK_STARRED && !bare_walrus && pp_eat(p, O_COLON)) {
      if (!(v = pp_expression(p))) return NULL;
      pp_add(n, e, BL_PR_KEY);
      pp_add(n, v, BL_PR_VALUE);
      if (comp_next(p)) {
        n->kind = BL_PK_DICTCOMP;
        if (pp_comprehension(p, n) || !pp_eat(p, O_RBRACE)) return NULL;
      } else if (dict_items(p, n, 0)) {
        return NULL;
      }
    } else {
      n->kind = BL_PK_SET;
      pp_add(n, e, BL_PR_ELT);
      if (e->kind != BL_PK_STARRED && comp_next(p)) {
        n->kind = BL_PK_SETCOMP;
        if (pp_comprehension(p, n) || !pp_eat(p, O_RBRACE)) return NULL;
      } else if (elements(p, n, O_RBRACE)) {
        return NULL;
      }
    }
  }
  if (set_walrus(p, n)) return NULL;
  pp_end(p, n);
  return n;
}

static bl_pynode *constant(bl_pp *p, uint32_t flags) {
  bl_pynode *n = pp_node(p, BL_PK_CONSTANT, p->pos);
  if (!n) return NULL;
  n->flags |= flags;
  p->pos++;
  return n;
}

bl_pynode *pp_atom(bl_pp *p) {
  bl_pynode *n;
  /* 3.8's parser: an atom is a descent of its stack as deep as a bracket's */
  if (p->bracket_cost && p->depth + p->bracket_cost >= p->max_depth)
    return pp_hard(p, BL_PY_STACK_MSG, pp_off(p, pp_tok(p, p->pos)->start));
  switch (pp_peek(p)) {
  case T_NAME:
    if (!(n = pp_node(p, BL_PK_NAME, p->pos)) || pp_ident(p, n, p->pos)) return NULL;
    p->pos++;
    return n;
  case K_TRUE: return constant(p, BL_PYF_TRUE);
  case K_FALSE: return constant(p, BL_PYF_FALSE);
  case K_NONE: return constant(p, BL_PYF_NONE);
  case T_NUMBER: return constant(p, BL_PYF_NUM);
  case O_ELLIPSIS: return constant(p, BL_PYF_ELLIPSIS);
  case T_STRING: return pp_strings(p);
  case O_LPAR: case O_LSQB: case O_LBRACE: {
    int c = pp_peek(p);
    if (pp_bracket_enter(p)) return NULL;
    n = c == O_LPAR ? paren(p) : c == O_LSQB ? list(p) : brace(p);
    pp_bracket_leave(p);
    return n;
  }
  default: return NULL;
  }
}

/* The parser's calls' arguments, subscripts, comprehension clauses and assignment targets. A
 * target is read as the expression it is written as (a primary, or a whole star_expressions
 * for an assignment), then checked against the grammar of targets (pp_target). */
#include <string.h>
#include "python/parse_int.h"

static size_t here(bl_pp *p) { return pp_off(p, pp_tok(p, p->pos)->start); }

/* '*' expression, as in calls and subscripts (starred_expression). */
static bl_pynode *starred_expression(bl_pp *p) {
  bl_pynode *n = pp_node(p, BL_PK_STARRED, p->pos), *e;
  if (!n) return NULL;
  p->pos++;
  if (!(e = pp_expression(p))) return NULL;
  pp_add(n, e, BL_PR_VALUE);
  pp_end(p, n);
  return n;
}

/* NAME '=' expression, or '**' expression (ident empty). */
static bl_pynode *keyword(bl_pp *p) {
  bl_pynode *k = pp_node(p, BL_PK_KEYWORD, p->pos), *e;
  if (!k) return NULL;
  if (pp_eat(p, O_DOUBLESTAR)) {
    k->ident = k->ident_end = k->start;
  } else {
    if (pp_ident(p, k, p->pos)) return NULL;
    p->pos += 2;
  }
  if (!(e = pp_expression(p))) return NULL;
  pp_add(k, e, BL_PR_VALUE);
  pp_end(p, k);
  return k;
}

/* The generator expression that is a call's only argument: `lpar` its '(' token. */
static int genexp_arg(bl_pp *p, bl_pynode *call, bl_pynode *e, size_t lpar) {
  bl_pynode *g = pp_node(p, BL_PK_GENEXP, lpar);
  if (!g) return -1;
  pp_add(g, e, BL_PR_ELT);
  if (pp_comprehension(p, g)) return -1;
  if (!pp_at(p, O_RPAR)) {
    pp_fail(p, "Generator expression must be parenthesized", e->start);
    return -1;
  }
  p->pos++;
  pp_end(p, g);
  pp_add(call, g, BL_PR_ARG);
  return 0;
}

static int call_args(bl_pp *p, bl_pynode *call, int genexp, size_t lpar);

/* A positional argument: assignment_expression | expression !':=', not followed by '='.
 * Returns 0, 1 when it was a generator expression (the call's ')' consumed), -1. */
static int positional(bl_pp *p, bl_pynode *call, int genexp, int *state, size_t lpar) {
  bl_pynode *e = pp_named_expression(p);
  if (!e) return -1;
  if (pp_at(p, O_EQUAL)) {
    pp_fail(p, "expression cannot contain assignment, perhaps you meant \"==\"?", e->start);
    return -1;
  }
  if (pp_at(p, K_FOR) || pp_at(p, K_ASYNC)) {
    if (genexp) return genexp_arg(p, call, e, lpar) ? -1 : 1;
    pp_fail(p, "Generator expression must be parenthesized", e->start);
    return -1;
  }
  if (*state && !p->late) /* reported where CPython's parser stops: after the arguments */
    p->late = *state == 2 ? "positional argument follows keyword argument unpacking"
                          : "positional argument follows keyword argument";
  pp_add(call, e, BL_PR_ARG);
  return 0;
}

int pp_call_args(bl_pp *p, bl_pynode *call, int genexp) {
  size_t lpar = p->pos - 1;
  const char *late = p->late;
  p->late = NULL;
  int rc = call_args(p, call, genexp, lpar);
  if (rc == 0 && p->late) {
    pp_fail(p, p->late, pp_off(p, pp_tok(p, p->far)->start));
    rc = -1;
  }
  p->late = late;
  return rc;
}

static int call_args(bl_pp *p, bl_pynode *call, int genexp, size_t lpar) {
  int state = 0; /* 1 after a keyword, 2 after '**' */
  size_t nargs = 0;
  while (!pp_at(p, O_RPAR)) {
    bl_pynode *e;
    int c = pp_peek(p);
    if (c == O_STAR) {
      if (state == 2) {
        pp_fail(p, "iterable argument unpacking follows keyword argument unpacking", here(p));
        return -1;
      }
      if (!(e = starred_expression(p))) return -1;
      pp_add(call, e, BL_PR_ARG);
    } else if (c == O_DOUBLESTAR || (c == T_NAME && pp_peek2(p) == O_EQUAL)) {
      if (!(e = keyword(p))) return -1;
      pp_add(call, e, BL_PR_KEYWORD);
      if (c == O_DOUBLESTAR) state = 2;
      else if (!state) state = 1;
    } else {
      int rc = positional(p, call, genexp && nargs == 0, &state, lpar);
      if (rc) return rc < 0 ? -1 : 0; /* 1: the generator expression and its ')' */
    }
    nargs++;
    if (!pp_eat(p, O_COMMA)) break;
  }
  return pp_eat(p, O_RPAR) ? 0 : -1;
}

/* slice: [expression] ':' [expression] [':' [expression]] | named_expression; or a starred
 * expression (*star set). */
static bl_pynode *slice(bl_pp *p, int *star) {
  bl_pynode *lower = NULL, *n, *e;
  if (pp_at(p, O_STAR)) {
    if (p->minor < 11) return NULL; /* `a[*b]` is 3.11's (PEP 646) */
    *star = 1;
    return starred_expression(p);
  }
  size_t t0 = p->pos;
  if (!pp_at(p, O_COLON)) {
    /* an unparenthesized `a[x := 1]` is 3.10's */
    if (!(lower = p->minor >= 10 ? pp_named_expression(p) : pp_expression(p)) ||
        !pp_at(p, O_COLON))
      return lower;
    if (lower->kind == BL_PK_NAMEDEXPR && !(lower->flags & BL_PYF_PAREN)) return NULL;
  }
  if (!(n = pp_node(p, BL_PK_SLICE, t0))) return NULL;
  if (lower) pp_add(n, lower, BL_PR_LOWER);
  p->pos++; /* ':' */
  if (pp_starts_expr(pp_peek(p))) {
    if (!(e = pp_expression(p))) return NULL;
    pp_add(n, e, BL_PR_UPPER);
  }
  if (pp_eat(p, O_COLON) && pp_starts_expr(pp_peek(p))) {
    if (!(e = pp_expression(p))) return NULL;
    pp_add(n, e, BL_PR_STEP);
  }
  pp_end(p, n);
  return n;
}

bl_pynode *pp_slices(bl_pp *p) {
  int star = 0;
  bl_pynode *e = slice(p, &star), *t;
  if (!e || (!star && !pp_at(p, O_COMMA))) return e;
  if (!(t = pp_node_at(p, BL_PK_TUPLE, e->start, e->end))) return NULL;
  t->tok = e->tok;
  pp_add(t, e, BL_PR_ELT);
  while (pp_eat(p, O_COMMA)) {
    if (pp_at(p, O_RSQB)) break;
    if (!(e = slice(p, &star))) return NULL;
    pp_add(t, e, BL_PR_ELT);
  }
  pp_end(p, t);
  return t;
}

/* ('async'? 'for' star_targets 'in' disjunction ('if' disjunction)*)+ */
int pp_comprehension(bl_pp *p, bl_pynode *parent) {
  do {
    bl_pynode *c = pp_node(p, BL_PK_COMPREHENSION, p->pos), *e;
    if (!c) return -1;
    if (pp_eat(p, K_ASYNC)) c->flags |= BL_PYF_ASYNC;
    if (!pp_eat(p, K_FOR) || !(e = pp_star_targets(p))) return -1;
    pp_add(c, e, BL_PR_TARGET);
    if (!pp_eat(p, K_IN) || !(e = pp_disjunction(p))) return -1;
    pp_add(c, e, BL_PR_ITER);
    while (pp_eat(p, K_IF)) {
      if (!(e = pp_disjunction(p))) return -1;
      pp_add(c, e, BL_PR_TEST);
    }
    pp_end(p, c);
    pp_add(parent, c, BL_PR_GENERATOR);
  } while (pp_at(p, K_FOR) || (pp_at(p, K_ASYNC) && pp_peek2(p) == K_FOR));
  return 0;
}

/*----------------------------------------------------------------------------------------------
 * Targets
 *--------------------------------------------------------------------------------------------*/

static const char *target_msg(const bl_pynode *n, unsigned ctx) {
  int del = ctx == BL_PYF_DEL;
  switch (n->kind) {
  case BL_PK_CALL: return del ? "cannot delete function call" : "cannot assign to function call";
  case BL_PK_CONSTANT: return del ? "cannot delete literal" : "cannot assign to literal";
  case BL_PK_STARRED:
    return del ? "cannot delete starred" : "starred assignment target must be in a list or tuple";
  case BL_PK_NAMEDEXPR:
    return del ? "cannot delete named expression" : "cannot assign to named expression";
  case BL_PK_LISTCOMP: case BL_PK_SETCOMP: case BL_PK_DICTCOMP: case BL_PK_GENEXP:
    return del ? "cannot delete comprehension" : "cannot assign to comprehension";
  default: return del ? "cannot delete expression" : "cannot assign to expression";
  }
}

static void set_ctx(bl_pynode *n, unsigned ctx) {
  n->flags = (n->flags & ~(uint32_t)BL_PYF_CTX) | ctx;
}

int pp_target(bl_pp *p, bl_pynode *n, unsigned ctx, int star) {
  switch (n->kind) {
  case BL_PK_NAME: case BL_PK_ATTRIBUTE: case BL_PK_SUBSCRIPT:
    set_ctx(n, ctx);
    return 0;
  case BL_PK_STARRED:
    if (!star || ctx == BL_PYF_DEL) break;
    set_ctx(n, ctx);
    return pp_target(p, n->kid, ctx, 1);
  case BL_PK_TUPLE: case BL_PK_LIST:
    for (bl_pynode *k = n->kid; k; k = k->next)
      if (pp_target(p, k, ctx, star)) return -1;
    set_ctx(n, ctx);
    return 0;
  default:
    break;
  }
  pp_fail(p, target_msg(n, ctx), n->start);
  return -1;
}

int pp_single_target(const bl_pynode *n) {
  return n->kind == BL_PK_NAME || n->kind == BL_PK_ATTRIBUTE || n->kind == BL_PK_SUBSCRIPT;
}

/* star_target: '*' (!'*' star_target) | a primary that is a target */
bl_pynode *pp_star_target(bl_pp *p) {
  if (pp_at(p, O_STAR)) {
    bl_pynode *n = pp_node(p, BL_PK_STARRED, p->pos), *e;
    if (!n) return NULL;
    p->pos++;
    if (pp_at(p, O_STAR) || pp_enter(p)) return NULL;
    e = pp_star_target(p);
    pp_leave(p);
    if (!e) return NULL;
    pp_add(n, e, BL_PR_VALUE);
    set_ctx(n, BL_PYF_STORE);
    pp_end(p, n);
    return n;
  }
  bl_pynode *e = pp_primary(p);
  if (!e || pp_target(p, e, BL_PYF_STORE, 1)) return NULL;
  return e;
}

static int starts_target(int c) {
  return c == O_STAR || (pp_starts_expr(c) && c != K_AWAIT && c != K_LAMBDA && c != K_NOT &&
                         c != O_PLUS && c != O_MINUS && c != O_TILDE);
}

bl_pynode *pp_star_targets(bl_pp *p) {
  bl_pynode *e = pp_star_target(p), *t;
  if (!e || !pp_at(p, O_COMMA)) return e;
  if (!(t = pp_node_at(p, BL_PK_TUPLE, e->start, e->end))) return NULL;
  t->tok = e->tok;
  set_ctx(t, BL_PYF_STORE);
  pp_add(t, e, BL_PR_ELT);
  while (pp_eat(p, O_COMMA)) {
    if (!starts_target(pp_peek(p))) break;
    if (!(e = pp_star_target(p))) return NULL;
    pp_add(t, e, BL_PR_ELT);
  }
  pp_end(p, t);
  return t;
}

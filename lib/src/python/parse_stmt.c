/* The parser's compound statements (if, while, for, with, try, def, class, decorators, async)
 * and the parameters of a def or a lambda. The match statement is in parse_pat.c. */
#include <string.h>
#include "python/parse_int.h"

/* A starred element at the top of a `for` iterable (`for x in *a, b`): 3.9+. */
static const bl_pynode *top_starred(const bl_pynode *e) {
  if (e->kind == BL_PK_STARRED) return e;
  if (e->kind != BL_PK_TUPLE || (e->flags & BL_PYF_PAREN)) return NULL;
  for (const bl_pynode *k = e->kid; k; k = k->next)
    if (k->kind == BL_PK_STARRED) return k;
  return NULL;
}

/* ':' block, the block's statements added to st with `role`. */
static int colon_block(bl_pp *p, bl_pynode *st, int role) {
  if (!pp_eat(p, O_COLON)) return -1;
  return pp_block(p, st, role);
}

/* ['else' ':' block] */
static int else_block(bl_pp *p, bl_pynode *st) {
  if (!pp_eat(p, K_ELSE)) return 0;
  return colon_block(p, st, BL_PR_ORELSE);
}

/* keyword test ':' block, the node kind given. */
static bl_pynode *test_block(bl_pp *p, int kind) {
  bl_pynode *st = pp_node(p, kind, p->pos), *e;
  if (!st) return NULL;
  p->pos++;
  if (!(e = pp_named_expression(p))) return NULL;
  pp_add(st, e, BL_PR_TEST);
  if (colon_block(p, st, BL_PR_BODY)) return NULL;
  return st;
}

/* if ... (elif ...)* [else ...]: each elif one IF in the ORELSE of the one before. */
static bl_pynode *if_stmt(bl_pp *p) {
  bl_pynode *st = test_block(p, BL_PK_IF), *cur = st;
  if (!st) return NULL;
  while (pp_at(p, K_ELIF)) {
    bl_pynode *e = test_block(p, BL_PK_IF);
    if (!e) return NULL;
    pp_add(cur, e, BL_PR_ORELSE);
    cur = e;
  }
  if (else_block(p, cur)) return NULL;
  for (bl_pynode *n = st; n; n = n->last) { /* each elif is the last child of the one before */
    pp_end(p, n);
    if (n == cur) break;
  }
  return st;
}

static bl_pynode *while_stmt(bl_pp *p) {
  bl_pynode *st = test_block(p, BL_PK_WHILE);
  if (!st || else_block(p, st)) return NULL;
  return st;
}

/* ['async'] 'for' star_targets 'in' star_expressions ':' block [else] */
static bl_pynode *for_stmt(bl_pp *p, size_t t0, int async) {
  bl_pynode *st = pp_node(p, BL_PK_FOR, t0), *e;
  if (!st) return NULL;
  if (async) st->flags |= BL_PYF_ASYNC;
  p->pos++; /* for */
  if (!(e = pp_star_targets(p))) return NULL;
  pp_add(st, e, BL_PR_TARGET);
  if (!pp_eat(p, K_IN)) return NULL;
  if (!(e = pp_star_expressions(p))) return NULL;
  if (p->minor < 9 && top_starred(e)) /* 3.8: 'for' exprlist 'in' testlist */
    return pp_fail(p, "invalid syntax", top_starred(e)->start);
  pp_add(st, e, BL_PR_ITER);
  if (colon_block(p, st, BL_PR_BODY) || else_block(p, st)) return NULL;
  return st;
}

/* expression ['as' star_target &(',' | ')' | ':')] */
static bl_pynode *with_item(bl_pp *p) {
  bl_pynode *e = pp_expression(p), *it, *t;
  if (!e) return NULL;
  if (!(it = pp_node_at(p, BL_PK_WITHITEM, e->start, e->end))) return NULL;
  it->tok = e->tok;
  pp_add(it, e, BL_PR_VALUE);
  if (pp_eat(p, K_AS)) {
    if (!(t = pp_star_target(p))) return NULL;
    int c = pp_peek(p);
    if (c != O_COMMA && c != O_RPAR && c != O_COLON) return NULL;
    pp_add(it, t, BL_PR_TARGET);
    it->end = t->end;
  }
  return it;
}

static int with_items(bl_pp *p, bl_pynode *st, int paren) {
  for (;;) {
    bl_pynode *it = with_item(p);
    if (!it) return -1;
    pp_add(st, it, BL_PR_ITEM);
    if (!pp_eat(p, O_COMMA)) return 0;
    if (paren && pp_at(p, O_RPAR)) return 0;
  }
}

/* ['async'] 'with' ( '(' items [','] ')' | items ) ':' block */
static bl_pynode *with_stmt(bl_pp *p, size_t t0, int async) {
  bl_pynode *st = pp_node(p, BL_PK_WITH, t0);
  if (!st) return NULL;
  if (async) st->flags |= BL_PYF_ASYNC;
  p->pos++; /* with */
  if (pp_at(p, O_LPAR) && p->minor >= 9) { /* 3.8: a parenthesized group is an expression */
    size_t save = p->pos;
    p->pos++;
    p->trying++;
    int ok = !with_items(p, st, 1) && pp_eat(p, O_RPAR) && pp_at(p, O_COLON);
    p->trying--;
    if (PP_FAILED(p)) return NULL;
    if (!ok) {
      p->pos = save;
      st->kid = st->last = NULL;
      st->nkids = 0;
    }
  }
  if (!st->nkids && with_items(p, st, 0)) return NULL;
  if (colon_block(p, st, BL_PR_BODY)) return NULL;
  return st;
}

/* 'except' ['*'] [expression ['as' NAME]] ':' block; *star -1 unknown, 0 plain, 1 except* */
static bl_pynode *handler(bl_pp *p, int *star) {
  bl_pynode *h = pp_node(p, BL_PK_EXCEPTHANDLER, p->pos), *e;
  if (!h) return NULL;
  size_t at = h->start;
  p->pos++;
  if (p->minor < 11 && pp_at(p, O_STAR)) return NULL; /* except* is 3.11's */
  int s = pp_eat(p, O_STAR);
  if (*star >= 0 && s != *star)
    return pp_fail(p, "cannot have both 'except' and 'except*' on the same 'try'", at);
  *star = s;
  if (s || !pp_at(p, O_COLON)) {
    if (!(e = pp_expression(p))) return NULL;
    if (pp_at(p, O_COMMA)) {
      /* `except A, B:` is 3.14's (PEP 758), without `as`; 3.10+ name the parentheses */
      if (p->minor < 10) return NULL;
      if (p->minor < 14) return pp_fail(p, "multiple exception types must be parenthesized", e->start);
      bl_pynode *t = pp_node_at(p, BL_PK_TUPLE, e->start, e->end), *x;
      if (!t) return NULL;
      t->tok = e->tok;
      pp_add(t, e, BL_PR_ELT);
      while (pp_eat(p, O_COMMA)) {
        if (!pp_starts_expr(pp_peek(p))) break;
        if (!(x = pp_expression(p))) return NULL;
        pp_add(t, x, BL_PR_ELT);
      }
      pp_end(p, t);
      if (pp_at(p, K_AS))
        return pp_fail(p, "multiple exception types must be parenthesized when using 'as'",
                       e->start);
      e = t;
    }
    pp_add(h, e, BL_PR_TEST);
    if (pp_eat(p, K_AS)) {
      if (!pp_at(p, T_NAME) || !(e = pp_namedef(p, p->pos))) return NULL;
      p->pos++;
      pp_add(h, e, BL_PR_NAME);
    }
  }
  if (colon_block(p, h, BL_PR_BODY)) return NULL;
  pp_end(p, h);
  return h;
}

static bl_pynode *try_stmt(bl_pp *p) {
  bl_pynode *st = pp_node(p, BL_PK_TRY, p->pos);
  if (!st) return NULL;
  p->pos++;
  if (colon_block(p, st, BL_PR_BODY)) return NULL;
  int star = -1;
  while (pp_at(p, K_EXCEPT)) {
    bl_pynode *h = handler(p, &star);
    if (!h) return NULL;
    pp_add(st, h, BL_PR_HANDLER);
  }
  if (star == 1) st->kind = BL_PK_TRYSTAR;
  if (star >= 0 && else_block(p, st)) return NULL;
  if (pp_eat(p, K_FINALLY)) {
    if (colon_block(p, st, BL_PR_FINAL)) return NULL;
  } else if (star < 0) {
    return pp_fail(p, "expected 'except' or 'finally' block", pp_off(p, pp_tok(p, p->pos)->start));
  }
  return st;
}

/* '[' type_param (',' type_param)* [','] ']' (3.12+; defaults 3.13+): each a TYPEVAR,
 * TYPEVARTUPLE or PARAMSPEC child [TYPEPARAM] of st. 0, or -1. */
static int type_params(bl_pp *p, bl_pynode *st) {
  int n = 0; /* a parameter without a default may follow one with (3.13's parser) */
  p->pos++; /* '[' */
  do {
    if (n && pp_at(p, O_RSQB)) break;
    size_t t0 = p->pos;
    int kind = pp_eat(p, O_STAR) ? BL_PK_TYPEVARTUPLE
               : pp_eat(p, O_DOUBLESTAR) ? BL_PK_PARAMSPEC : BL_PK_TYPEVAR;
    if (!pp_at(p, T_NAME)) return -1;
    bl_pynode *tp = pp_node(p, kind, t0), *e;
    if (!tp || !(e = pp_namedef(p, p->pos))) return -1;
    p->pos++;
    pp_add(tp, e, BL_PR_NAME);
    if (pp_at(p, O_COLON)) {
      if (kind != BL_PK_TYPEVAR) {
        p->pos++;
        if (!pp_expression(p)) return -1; /* CPython names the kind once it is read */
        pp_fail(p, kind == BL_PK_TYPEVARTUPLE ? "cannot use bound with TypeVarTuple"
                                              : "cannot use bound with ParamSpec",
                pp_off(p, pp_tok(p, t0 + 2)->start));
        return -1;
      }
      p->pos++;
      if (!(e = pp_expression(p))) return -1;
      pp_add(tp, e, BL_PR_ANNOTATION);
    }
    if (pp_at(p, O_EQUAL) && p->minor >= 13) {
      p->pos++;
      if (!(e = kind == BL_PK_TYPEVARTUPLE ? pp_star_expression(p) : pp_expression(p)))
        return -1;
      pp_add(tp, e, BL_PR_DEFAULT);
    }
    pp_end(p, tp);
    pp_add(st, tp, BL_PR_TYPEPARAM);
    n++;
  } while (pp_eat(p, O_COMMA));
  return pp_eat(p, O_RSQB) ? 0 : -1;
}

/* `type` NAME [type_params] '=' expression (3.12+), `type` at pos: 1 parsed into parent, 0 not
 * a type statement (nothing consumed), -1. */
int pp_type_alias(bl_pp *p, bl_pynode *parent, int role) {
  if (p->minor < 12 || !pp_name_is(p, p->pos, "type") || pp_peek2(p) != T_NAME) return 0;
  size_t i3 = p->pos + 2 < p->nsig ? p->pos + 2 : p->nsig - 1;
  if (p->code[i3] != O_LSQB && p->code[i3] != O_EQUAL) return 0;
  bl_pynode *st = pp_node(p, BL_PK_TYPEALIAS, p->pos), *e;
  if (!st) return -1;
  p->pos++;
  if (!(e = pp_namedef(p, p->pos))) return -1;
  p->pos++;
  pp_add(st, e, BL_PR_NAME);
  if (pp_at(p, O_LSQB) && type_params(p, st)) return -1;
  if (!pp_eat(p, O_EQUAL) || !(e = pp_expression(p))) return -1;
  pp_add(st, e, BL_PR_VALUE);
  pp_end(p, st);
  pp_add(parent, st, role);
  return 1;
}

/* 'def' NAME '(' [params] ')' ['->' expression] ':' block, after decorators and 'async' */
static int funcdef(bl_pp *p, bl_pynode *st) {
  bl_pynode *e;
  st->kind = BL_PK_FUNCDEF;
  p->pos++; /* def */
  if (!pp_at(p, T_NAME) || !(e = pp_namedef(p, p->pos))) return -1;
  p->pos++;
  pp_add(st, e, BL_PR_NAME);
  if (p->minor >= 12 && pp_at(p, O_LSQB) && type_params(p, st)) return -1;
  if (!pp_eat(p, O_LPAR)) return -1;
  if (!(e = pp_params(p, 0))) return -1;
  pp_add(st, e, BL_PR_ARGS);
  if (!pp_eat(p, O_RPAR)) return -1;
  if (pp_eat(p, O_RARROW)) {
    if (!(e = pp_expression(p))) return -1;
    pp_add(st, e, BL_PR_RETURNS);
  }
  return colon_block(p, st, BL_PR_BODY);
}

/* 'class' NAME ['(' [arguments] ')'] ':' block */
static int classdef(bl_pp *p, bl_pynode *st) {
  bl_pynode *e;
  st->kind = BL_PK_CLASSDEF;
  p->pos++;
  if (!pp_at(p, T_NAME) || !(e = pp_namedef(p, p->pos))) return -1;
  p->pos++;
  pp_add(st, e, BL_PR_NAME);
  if (p->minor >= 12 && pp_at(p, O_LSQB) && type_params(p, st)) return -1;
  if (pp_eat(p, O_LPAR) && pp_call_args(p, st, 0)) return -1;
  return colon_block(p, st, BL_PR_BODY);
}

/* 3.8's decorator: dotted_name ['(' [arglist] ')'] (the relaxed grammar is 3.9's, PEP 614):
 * 0, or 1 with *at where CPython 3.8 reports the token that breaks it. */
static int old_decorator(const bl_pynode *e, size_t *at) {
  if (e->kind == BL_PK_CALL && !(e->flags & BL_PYF_PAREN)) e = e->kid; /* its FUNC */
  for (const bl_pynode *d = e;; d = d->kid) {
    if (d->kind == BL_PK_NAME && !(d->flags & BL_PYF_PAREN)) return 0;
    if (d->kind == BL_PK_ATTRIBUTE && !(d->flags & BL_PYF_PAREN)) continue;
    *at = (d->flags & BL_PYF_PAREN) ? d->start - (d->start > 0)  /* its '(' */
          : d->kind == BL_PK_CALL ? d->end                       /* the next '(' */
          : d->kind == BL_PK_SUBSCRIPT ? d->kid->end             /* its '[' */
          : d->start;
    return 1;
  }
}

/* ('@' named_expression NEWLINE)* then a def, an async def or a class. */
static bl_pynode *definition(bl_pp *p) {
  bl_pynode *st = pp_node(p, BL_PK_FUNCDEF, p->pos), *e;
  if (!st) return NULL;
  while (pp_eat(p, O_AT)) {
    if (!(e = pp_named_expression(p))) return NULL;
    size_t at;
    if (p->minor < 9 && old_decorator(e, &at)) return pp_fail(p, "invalid syntax", at);
    pp_add(st, e, BL_PR_DECORATOR);
    if (!pp_eat(p, T_NEWLINE)) return NULL;
  }
  if (pp_at(p, K_ASYNC) && pp_peek2(p) == K_DEF) {
    st->flags |= BL_PYF_ASYNC;
    p->pos++;
  }
  int c = pp_peek(p);
  if (c == K_DEF) return funcdef(p, st) ? NULL : st;
  if (c == K_CLASS && !(st->flags & BL_PYF_ASYNC)) return classdef(p, st) ? NULL : st;
  return NULL;
}

int pp_compound(bl_pp *p, bl_pynode *parent, int role) {
  size_t t0 = p->pos;
  bl_pynode *st;
  switch (pp_peek(p)) {
  case K_IF: st = if_stmt(p); break;
  case K_WHILE: st = while_stmt(p); break;
  case K_FOR: st = for_stmt(p, t0, 0); break;
  case K_WITH: st = with_stmt(p, t0, 0); break;
  case K_TRY: st = try_stmt(p); break;
  case K_DEF: case K_CLASS: case O_AT: st = definition(p); break;
  case K_ASYNC: {
    int c = pp_peek2(p);
    if (c == K_DEF) st = definition(p);
    else if (c == K_FOR || c == K_WITH) {
      p->pos++;
      st = c == K_FOR ? for_stmt(p, t0, 1) : with_stmt(p, t0, 1);
    } else {
      p->pos++;
      return -1;
    }
    break;
  }
  case T_NAME:
    if (p->minor >= 10 && pp_name_is(p, p->pos, "match")) return pp_match(p, parent, role);
    return 0;
  default: return 0;
  }
  if (!st) return -1;
  if (st->kind != BL_PK_IF) pp_end(p, st);
  pp_add(parent, st, role);
  return 1;
}

/*----------------------------------------------------------------------------------------------
 * Parameters
 *--------------------------------------------------------------------------------------------*/

/* NAME [':' annotation]: an ARG (annotations in a def only; `*args: *Ts` when star). */
static bl_pynode *param(bl_pp *p, int lambda, int star) {
  if (!pp_at(p, T_NAME)) return NULL;
  bl_pynode *a = pp_node(p, BL_PK_ARG, p->pos), *e;
  if (!a || !(e = pp_namedef(p, p->pos))) return NULL;
  p->pos++;
  pp_add(a, e, BL_PR_NAME);
  if (!lambda && pp_eat(p, O_COLON)) {
    /* `*args: *Ts` is 3.11's */
    if (!(e = star && p->minor >= 11 ? pp_star_expression(p) : pp_expression(p))) return NULL;
    pp_add(a, e, BL_PR_ANNOTATION);
  }
  pp_end(p, a);
  return a;
}

typedef struct pstate {
  int slash, star, kwarg, bare, defaults, n;
} pstate;

/* One item of the list: '/', '*' [param], '**' param, or param ['=' default]. */
static bl_pynode *param_item(bl_pp *p, bl_pynode *args, int lambda, pstate *ps) {
  bl_pynode *a = NULL, *e;
  size_t at = pp_off(p, pp_tok(p, p->pos)->start);
  if (ps->kwarg) return pp_fail(p, "arguments cannot follow var-keyword argument", at);
  if (pp_eat(p, O_SLASH)) {
    if (ps->slash || ps->star || !ps->n)
      return pp_fail(p, ps->slash ? "/ may appear only once" : "invalid syntax", at);
    ps->slash = 1;
    for (bl_pynode *k = args->kid; k; k = k->next) k->flags |= BL_PYF_POSONLY;
    return args;
  }
  if (pp_eat(p, O_STAR)) {
    if (ps->star) return pp_fail(p, "* argument may appear only once", at);
    ps->star = 1;
    if (pp_at(p, O_COMMA)) {
      ps->bare = 1;
      return args;
    }
    if (!(a = param(p, lambda, 1))) return NULL;
    a->flags |= BL_PYF_VARARG;
  } else if (pp_eat(p, O_DOUBLESTAR)) {
    if (!(a = param(p, lambda, 0))) return NULL;
    a->flags |= BL_PYF_KWARG;
    ps->kwarg = 1;
  } else {
    if (!(a = param(p, lambda, 0))) return NULL;
    if (pp_eat(p, O_EQUAL)) {
      if (!(e = pp_expression(p))) return NULL;
      pp_add(a, e, BL_PR_DEFAULT);
      pp_end(p, a);
      ps->defaults = 1;
    } else if (!ps->star && ps->defaults) {
      return pp_fail(p, "non-default argument follows default argument", a->start);
    }
    if (ps->star) {
      a->flags |= BL_PYF_KWONLY;
      ps->bare = 0;
    }
    ps->n++;
  }
  pp_add(args, a, BL_PR_ARG);
  if (pp_at(p, O_EQUAL)) return pp_fail(p, "var-positional argument cannot have default value", at);
  return args;
}

bl_pynode *pp_params(bl_pp *p, int lambda) {
  int close = lambda ? O_COLON : O_RPAR;
  bl_pynode *args = pp_node(p, BL_PK_ARGUMENTS, p->pos);
  if (!args) return NULL;
  args->end = args->start;
  pstate ps;
  memset(&ps, 0, sizeof ps);
  while (!pp_at(p, close)) {
    if (!param_item(p, args, lambda, &ps)) return NULL;
    if (!pp_eat(p, O_COMMA)) break;
  }
  if (ps.bare)
    return pp_fail(p, "named arguments must follow bare *", pp_off(p, pp_tok(p, p->pos)->start));
  if (args->nkids) pp_end(p, args);
  return args;
}

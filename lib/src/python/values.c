/* The values of the expressions the SDK's calls take (analyze.c finds the calls): literals as
 * reader.c reads them, a NetworkPolicy call with its arguments, anything else a DYNAMIC value
 * naming what it is; and each call recorded with its arguments. Calls reader.c. */
#include <string.h>
#include "python/ast.h"

#define TOK(rd, i) (&(rd)->toks.v[(rd)->sig[(i)]])


/* The significant token that starts at or after byte `off`. */
static size_t tok_at(const bl_pyreader *rd, size_t off) {
  size_t lo = 0, hi = rd->nsig;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (TOK(rd, mid)->start < off) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

bl_pyval *bl_py_dynamic(bl_pyreader *rd, size_t start, size_t end, const char *why) {
  bl_pyval *v = boxlint__arena_alloc(&rd->arena, rd->m, sizeof *v);
  if (!v) return NULL;
  memset(v, 0, sizeof *v);
  v->kind = BL_PV_DYNAMIC;
  v->start = start;
  v->end = end;
  v->why = why;
  v->next_free = rd->vals; /* every value is on the list (cache.c moves them after an edit) */
  rd->vals = v;
  return v;
}

static bl_pyval *dyn(bl_pyreader *rd, const bl_pynode *n, const char *why) {
  return bl_py_dynamic(rd, n->start, n->end, why);
}

/* A dict whose keys are not all str literals is known only at run time. */
static void dict_keys(bl_pyval *v) {
  if (!v) return;
  if (v->kind == BL_PV_DICT)
    for (size_t i = 0; i < v->nitems; i++)
      if (!v->keys[i] || v->keys[i]->kind != BL_PV_STR || v->keys[i]->str.is_bytes) {
        v->kind = BL_PV_DYNAMIC;
        v->why = "a dict whose keys are not all string literals";
        return;
      }
  if (v->kind == BL_PV_DICT || v->kind == BL_PV_LIST || v->kind == BL_PV_TUPLE ||
      v->kind == BL_PV_SET)
    for (size_t i = 0; i < v->nitems; i++) dict_keys(v->items[i]);
}

static int call_args(bl_pyreader *rd, const bl_pynode *call, bl_pyarg **args, size_t *nargs);

static const char *dynamic_why(const bl_pynode *n) {
  switch (n->kind) {
  case BL_PK_CALL: return "a call";
  case BL_PK_ATTRIBUTE: return "an attribute";
  case BL_PK_SUBSCRIPT: return "a subscript";
  case BL_PK_LISTCOMP: case BL_PK_SETCOMP: case BL_PK_DICTCOMP: case BL_PK_GENEXP:
    return "a comprehension";
  case BL_PK_IFEXP: return "a conditional expression";
  case BL_PK_LAMBDA: return "a lambda";
  case BL_PK_AWAIT: return "an await expression";
  case BL_PK_NAMEDEXPR: return "an assignment expression";
  case BL_PK_JOINEDSTR: return "an f-string with replacement fields";
  case BL_PK_TEMPLATESTR: return "a template string";
  case BL_PK_STARRED: return "unpacking";
  default: return "an expression";
  }
}

/* The value of an expression node, as reader.c reads literals; DYNAMIC otherwise. */
bl_pyval *bl_py_node_value(bl_pyreader *rd, const bl_pynode *n) {
  if (n->flags & BL_PYF_INNER) return dyn(rd, n, "an expression inside an f-string");
  if (bl_py_sdk_call(rd, n) == BL_CALL_POLICY) {
    bl_pyval *v = boxlint__arena_alloc(&rd->arena, rd->m, sizeof *v);
    if (!v) return NULL;
    memset(v, 0, sizeof *v);
    v->kind = BL_PV_POLICY;
    v->next_free = rd->vals; /* on the list of every value */
    rd->vals = v;
    v->start = n->start;
    v->end = n->end;
    v->close = n->end - 1;
    v->open = TOK(rd, tok_at(rd, bl_py_child(n, BL_PR_FUNC)->end))->start;
    return call_args(rd, n, &v->args, &v->nargs) ? NULL : v;
  }
  int literal = n->kind == BL_PK_CONSTANT || n->kind == BL_PK_LIST || n->kind == BL_PK_TUPLE ||
                n->kind == BL_PK_SET || n->kind == BL_PK_DICT || n->kind == BL_PK_NAME ||
                (n->kind == BL_PK_UNARYOP && n->kid && n->kid->kind == BL_PK_CONSTANT &&
                 (n->kid->flags & BL_PYF_NUM) && n->ident_end == n->ident + 1 &&
                 (rd->s[n->ident] == '-' || rd->s[n->ident] == '+'));
  if (!literal) return dyn(rd, n, dynamic_why(n));
  size_t i = n->tok;
  bl_pyval *v = bl_py_parse_expr(rd, &i);
  if (!v) return NULL;
  if (v->kind == BL_PV_DYNAMIC) { /* the whole expression, whatever the reader skipped */
    v->start = n->start;
    v->end = n->end;
  } else if ((i < rd->nsig ? TOK(rd, i)->start : rd->n) < n->end) {
    return dyn(rd, n, "an expression"); /* the reader stopped inside it */
  }
  dict_keys(v);
  return v;
}

static int call_args(bl_pyreader *rd, const bl_pynode *call, bl_pyarg **args, size_t *nargs) {
  size_t cap = call->nkids + 1;
  *nargs = 0;
  *args = boxlint__arena_alloc(&rd->arena, rd->m, cap * sizeof **args);
  if (!*args) return -1;
  for (const bl_pynode *c = call->kid; c; c = c->next) {
    if (c->role != BL_PR_ARG && c->role != BL_PR_KEYWORD) continue;
    bl_pyarg *a = &(*args)[(*nargs)++];
    memset(a, 0, sizeof *a);
    const bl_pynode *v = c->role == BL_PR_KEYWORD ? bl_py_child(c, BL_PR_VALUE) : c;
    if (c->kind == BL_PK_STARRED) {
      a->star = 1;
      v = bl_py_child(c, BL_PR_VALUE);
    } else if (c->role == BL_PR_KEYWORD && c->ident_end == c->ident) {
      a->star = 2;
    } else if (c->role == BL_PR_KEYWORD) {
      a->name = c->ident;
      a->name_end = c->ident_end;
      a->norm = c->norm;
      a->norm_len = c->norm_len;
    }
    if (!v) v = c;
    a->v = a->star ? dyn(rd, v, a->star == 1 ? "*args" : "**kwargs") : bl_py_node_value(rd, v);
    if (!a->v) return -1;
  }
  return 0;
}

int bl_py_add_call(bl_pyreader *rd, int kind, const bl_pynode *n) {
  return bl_py_add_call_partial(rd, kind, n, NULL);
}

static int same_keyword(const bl_pyreader *rd, const bl_pyarg *a, const bl_pyarg *b) {
  const char *x = a->norm ? a->norm : rd->s + a->name, *y = b->norm ? b->norm : rd->s + b->name;
  size_t xl = a->norm ? a->norm_len : a->name_end - a->name;
  size_t yl = b->norm ? b->norm_len : b->name_end - b->name;
  return xl && xl == yl && !memcmp(x, y, xl);
}

/* The partial's arguments but the method, those the call passes again by keyword left out
 * (functools.partial lets the call's keywords win), then the call's. */
static int partial_args(bl_pyreader *rd, const bl_pynode *partial, bl_pycall *c) {
  bl_pyarg *pa, *v;
  size_t np;
  if (call_args(rd, partial, &pa, &np)) return -1;
  v = boxlint__arena_alloc(&rd->arena, rd->m, (np + c->nargs + 1) * sizeof *v);
  if (!v) return -1;
  size_t k = 0;
  int skipped = 0;
  for (size_t i = 0; i < np; i++) {
    if (!skipped && pa[i].name == pa[i].name_end && !pa[i].star) { /* the method */
      skipped = 1;
      continue;
    }
    int again = 0;
    for (size_t j = 0; j < c->nargs && !again; j++) again = same_keyword(rd, &pa[i], &c->args[j]);
    if (!again) v[k++] = pa[i];
  }
  for (size_t j = 0; j < c->nargs; j++) v[k++] = c->args[j];
  c->args = v;
  c->nargs = k;
  return 0;
}

int bl_py_add_call_partial(bl_pyreader *rd, int kind, const bl_pynode *n, const bl_pynode *partial) {
  if (rd->ncalls == rd->cap_calls) {
    size_t nc = rd->cap_calls ? rd->cap_calls * 2 : 8;
    bl_pycall *v = boxlint__realloc(rd->m, rd->calls, rd->cap_calls * sizeof *v, nc * sizeof *v);
    if (!v) return -1;
    rd->calls = v;
    rd->cap_calls = nc;
  }
  const bl_pynode *f = bl_py_child(n, BL_PR_FUNC);
  bl_pycall *c = &rd->calls[rd->ncalls];
  memset(c, 0, sizeof *c);
  c->kind = (bl_call_kind)kind;
  c->name = f->ident;
  c->name_end = f->ident_end;
  if (c->name == c->name_end) { /* partial(...)(...): the callee */
    c->name = f->start;
    c->name_end = f->end;
  }
  c->start = n->start;
  c->end = n->end;
  if (n->flags & BL_PYF_INNER) {
    rd->ncalls++;
    c->inner = 1;
    return 0;
  }
  c->open = TOK(rd, tok_at(rd, f->end))->start;
  c->close = n->end - 1;
  if (kind == BL_CALL_POLICY) {
    c->policy = bl_py_node_value(rd, n);
    if (!c->policy) return -1;
  } else if (call_args(rd, n, &c->args, &c->nargs) || (partial && partial_args(rd, partial, c))) {
    return -1;
  }
  rd->ncalls++;
  return 0;
}

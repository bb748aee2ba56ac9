/* The calls a file makes through what boxlint does not follow: create() and update() on a
 * receiver that may be the SDK's, calls through a name a reference was bound to or through a
 * callee that holds a reference (getattr(...)(...)), a callee computed by a call where the file
 * reflects; and the SDK's names (NetworkPolicy, add_code_interpreter) bound by the file itself,
 * whose calls may not be the SDK's. Each is a not-static reference (analyze.c records them). */
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <stdlib.h>
#include "python/ast.h"
#include "python/encoding.h"

/* The name an expression starts from (`t` of `t.a().b[0].c`), or NULL. */
static const bl_pynode *root_name(const bl_pynode *n) {
  while (n && (n->kind == BL_PK_ATTRIBUTE || n->kind == BL_PK_CALL || n->kind == BL_PK_SUBSCRIPT))
    n = bl_py_child(n, n->kind == BL_PK_CALL ? BL_PR_FUNC : BL_PR_VALUE);
  return n && n->kind == BL_PK_NAME ? n : NULL;
}

/* The names that a statement holding the reference binds (`t = client.code_interpreter...`,
 * `make = partial(...)`): calls through them are the SDK's, unread. Up to 64 kept. */
static size_t ref_aliases(const bl_pyreader *rd, const bl_pynode **out, size_t cap) {
  size_t k = 0;
  for (size_t i = 0; i < rd->nrefs; i++) {
    const bl_pynode *x = rd->refs[i].node;
    while (x && x->parent && x->parent->kind != BL_PK_ASSIGN && x->parent->kind != BL_PK_ANNASSIGN &&
           x->parent->kind != BL_PK_NAMEDEXPR && x->parent->kind != BL_PK_WITHITEM)
      x = x->parent;
    if (!x || !x->parent) continue;
    for (const bl_pynode *t = x->parent->kid; t && k < cap; t = t->next)
      if (t->role == BL_PR_TARGET && t->kind == BL_PK_NAME) out[k++] = t;
  }
  return k;
}

static int same_ident(const bl_pyreader *rd, const bl_pynode *a, const bl_pynode *b) {
  const char *x = a->norm ? a->norm : rd->s + a->ident, *y = b->norm ? b->norm : rd->s + b->ident;
  size_t xl = a->norm ? a->norm_len : a->ident_end - a->ident;
  size_t yl = b->norm ? b->norm_len : b->ident_end - b->ident;
  return xl == yl && !memcmp(x, y, xl);
}

/* A file that reaches the SDK other than by direct calls: a create() or update() on any other
 * receiver, and any call through a name the reference was bound to, may be the SDK's, through
 * what boxlint did not follow, and is said so at the call too. */
static int by_ptr(const void *a, const void *b) {
  uintptr_t x = (uintptr_t) * (const bl_pynode *const *)a, y = (uintptr_t) * (const bl_pynode *const *)b;
  return x < y ? -1 : x > y;
}

/* The calls whose callee holds a reference (getattr(...)(...), partial(...)(...)), sorted by
 * address: one climb from each reference. NULL with *n = 0 when there are none. */
static const bl_pynode **called_through(bl_pyreader *rd, size_t nrefs, size_t *n) {
  size_t cap = 0;
  const bl_pynode **v = NULL;
  *n = 0;
  for (size_t i = 0; i < nrefs; i++)
    for (const bl_pynode *x = rd->refs[i].node; x && x->parent; x = x->parent) {
      /* `vars(x)`: the reference is the callee itself, already reported */
      if (x->role != BL_PR_FUNC || x->parent->kind != BL_PK_CALL || x == rd->refs[i].node)
        continue;
      if (*n == cap) {
        size_t nc = cap ? cap * 2 : 16;
        const bl_pynode **w = boxlint__realloc(rd->m, v, cap * sizeof *v, nc * sizeof *v);
        if (!w) {
          boxlint__free(rd->m, v);
          rd->oom = 1;
          return NULL;
        }
        v = w;
        cap = nc;
      }
      v[(*n)++] = x->parent;
    }
  if (*n) qsort(v, *n, sizeof *v, by_ptr);
  return v;
}

/* `x.files.create`: a method of a receiver that is an attribute other than `templates`, which
 * the SDK's create and update are not (an SDK object stored in an attribute is a reference
 * reported where it is stored). */
static int not_templates(const bl_pyreader *rd, const bl_pynode *f) {
  const bl_pynode *r = bl_py_child(f, BL_PR_VALUE);
  return r && r->kind == BL_PK_ATTRIBUTE && !bl_py_ident_is(rd, r, "templates");
}

int bl_py_calls_through(bl_pyreader *rd, const bl_pynode *root) {
  const bl_pynode *alias[64];
  size_t na = ref_aliases(rd, alias, 64), nrefs = rd->nrefs, nc;
  for (size_t i = 0; i < na; i++) { /* for cache.c: an edit may not rename to or from them */
    if (rd->nalias == 64) { /* an empty span: no identifier edit at all */
      rd->alias[0] = rd->alias[1] = 0;
      break;
    }
    rd->alias[2 * rd->nalias] = alias[i]->ident;
    rd->alias[2 * rd->nalias + 1] = alias[i]->norm ? alias[i]->ident : alias[i]->ident_end;
    rd->nalias++;
  }
  if (!nrefs && !rd->reflect_at) return 0;
  const bl_pynode **through = called_through(rd, nrefs, &nc);
  if (rd->oom) return -1;
  int rc = 0;
  for (const bl_pynode *n = root; !rc && n; n = bl_py_next(n)) {
    if (n->kind != BL_PK_CALL || bl_py_sdk_call(rd, n) >= 0) continue;
    const bl_pynode *f = bl_py_child(n, BL_PR_FUNC), *r = root_name(f);
    int hit = ((bl_py_attr_is(rd, f, "create") || bl_py_attr_is(rd, f, "update")) && !not_templates(rd, f)) ||
              (nc && bsearch(&n, through, nc, sizeof *through, by_ptr));
    for (size_t i = 0; !hit && r && i < na; i++) hit = same_ident(rd, r, alias[i]);
    /* with reflection in the file, a callee computed by a call (attrgetter(...)(client)) */
    if (!hit && rd->reflect_at && f && f->kind == BL_PK_CALL &&
        !(n->parent && n->role == BL_PR_FUNC && n->parent->kind == BL_PK_CALL))
      hit = 1; /* the outermost call of the chain only: said once */
    if (hit)
      rc = bl_py_add_ref(rd, n, "a call on a receiver that may be the SDK's (the file reaches the "
                          "SDK other than by direct calls)");
  }
  boxlint__free(rd->m, through);
  return rc;
}

/* Is the NAMEDEF n the name bound by an import from the SDK (`from budai import NetworkPolicy`)? */
static int sdk_import(const bl_pyreader *rd, const bl_pynode *n) {
  const bl_pynode *al = n->parent, *im = al ? al->parent : NULL;
  if (!al || al->kind != BL_PK_ALIAS || !im || im->kind != BL_PK_IMPORTFROM) return 0;
  size_t l = im->ident_end - im->ident;
  return im->ident2_end == im->ident2 && l >= 5 && !memcmp(rd->s + im->ident, "budai", 5) &&
         (l == 5 || rd->s[im->ident + 5] == '.');
}

/* NetworkPolicy or add_code_interpreter bound by the file other than by an import from the SDK
 * (a class, def, parameter, assignment, for or with target, match capture...): a call of that
 * name may call what the file bound there, so each is checked and said not-static once. */
int bl_py_shadowed_calls(bl_pyreader *rd) {
  static const char *const W[] = {"NetworkPolicy", "add_code_interpreter"};
  for (size_t w = 0; w < 2; w++) {
    const bl_pynode *at = NULL;
    for (size_t i = 0; i < rd->nocc && !at; i++) {
      const bl_pynode *n = rd->occ[i];
      if (n->kind == BL_PK_ATTRIBUTE || !bl_py_ident_is(rd, n, W[w])) continue;
      if (n->kind == BL_PK_NAME && (n->flags & BL_PYF_CTX) == BL_PYF_LOAD) continue;
      if (n->kind == BL_PK_NAMEDEF && (sdk_import(rd, n) || (n->parent && (n->parent->kind == BL_PK_GLOBAL || n->parent->kind == BL_PK_NONLOCAL))))
        continue;
      at = n;
    }
    if (!at) continue;
    uint32_t line, col;
    bl_py_line_col(rd->s, rd->n, at->start, &line, &col);
    char *why = boxlint__arena_alloc(&rd->arena, rd->m, 200);
    if (!why) return -1;
    snprintf(why, 200, "%s is bound by the file at line %u (a definition, parameter, assignment, "
             "import or capture), so this call may not be the SDK's", W[w], (unsigned)line);
    for (size_t i = 0; i < rd->ncalls; i++) {
      const bl_pycall *c = &rd->calls[i];
      int k = w ? BL_CALL_BIND : BL_CALL_POLICY;
      if ((int)c->kind != k || c->name_end - c->name != strlen(W[w]) ||
          memcmp(rd->s + c->name, W[w], c->name_end - c->name) ||
          (c->name > 0 && rd->s[c->name - 1] == '.'))
        continue;
      if (bl_py_add_call_ref(rd, c, why)) return -1;
    }
  }
  return 0;
}

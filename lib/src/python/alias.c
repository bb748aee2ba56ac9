/* Names bound to the SDK's objects (analyze.c calls it once the tree is read): `ci =
 * client.code_interpreter`, `t = ci.templates`, `create = t.create`, `p = partial(create, ...)`.
 * Each such name holds one abstract value: the client's code_interpreter, its templates, a bound
 * method of them (create or update; get, delete and list read only), or a functools.partial of
 * a method with the arguments it fixes. A name is followed only when every binding of its
 * identifier in the whole file (any scope) is a plain `NAME = value` of the same abstract
 * value, it is no builtin, no parameter, import, def, class, global/nonlocal, del, for or with
 * target, pattern capture or attribute store of that identifier exists, and every read of it
 * is a step towards a call of the SDK (`ci.templates.create(...)`, `t.get(...)`, `p(...)`) or
 * the value of another followed name. Then the calls through it are the SDK's, checked as
 * direct calls, and the reference its binding made (a not-static) is dropped; otherwise the
 * reference stays and says why. Nothing is followed when the file reaches names by their text
 * (the taint): the calls are checked and the references kept. */
#include <stdlib.h>
#include <string.h>
#include "python/ast.h"

enum { AK_NONE, AK_CI, AK_TPL, AK_METH, AK_PART, AK_RO };

struct bl_pyalias {
  const char *key;
  size_t klen;
  int kind, meth;              /* AK_*, and BL_CALL_CREATE/UPDATE for AK_METH and AK_PART */
  const bl_pynode *partial;    /* AK_PART: the partial(...) call of one binding */
  int conflict, clean;
  size_t reads;               /* the reads of it (a name never read is kept as a reference:
                                 another module may import it) */
};

static const bl_pynode *child(const bl_pynode *n, int role) { return bl_py_child(n, role); }

static void key_of(const bl_pyreader *rd, const bl_pynode *n, const char **k, size_t *kl) {
  *k = n->norm ? n->norm : rd->s + n->ident;
  *kl = n->norm ? n->norm_len : n->ident_end - n->ident;
}

static struct bl_pyalias *find(const bl_pyreader *rd, const bl_pynode *n) {
  if (!rd->naliases || n->ident_end <= n->ident) return NULL;
  const char *k;
  size_t kl;
  key_of(rd, n, &k, &kl);
  for (size_t i = 0; i < rd->naliases; i++)
    if (rd->aliases[i].klen == kl && !memcmp(rd->aliases[i].key, k, kl)) return &rd->aliases[i];
  return NULL;
}

/* One step along an attribute: what `x.attr` is when x is of kind k. */
static int step(const bl_pyreader *rd, int k, const bl_pynode *attr, int *meth) {
  if (bl_py_attr_is(rd, attr, "code_interpreter")) return AK_CI;
  if (k == AK_CI && bl_py_ident_is(rd, attr, "templates")) return AK_TPL;
  if (k == AK_TPL && (bl_py_ident_is(rd, attr, "create") || bl_py_ident_is(rd, attr, "update"))) {
    *meth = bl_py_ident_is(rd, attr, "create") ? BL_CALL_CREATE : BL_CALL_UPDATE;
    return AK_METH;
  }
  if (k == AK_TPL && (bl_py_ident_is(rd, attr, "get") || bl_py_ident_is(rd, attr, "delete") ||
                      bl_py_ident_is(rd, attr, "list")))
    return AK_RO;
  return AK_NONE;
}

/* Is the CALL n functools.partial(...) (the name bound by no more than that import)? */
static int is_partial(const bl_pyreader *rd, const bl_pynode *n) {
  const bl_pynode *f = child(n, BL_PR_FUNC);
  if (!f) return 0;
  if (f->kind == BL_PK_NAME) return rd->partial_ok && bl_py_ident_is(rd, f, "partial");
  const bl_pynode *v = child(f, BL_PR_VALUE);
  return rd->functools_ok && bl_py_attr_is(rd, f, "partial") && v && v->kind == BL_PK_NAME &&
         bl_py_ident_is(rd, v, "functools");
}

/* The first positional argument of a call, or NULL. */
static const bl_pynode *first_arg(const bl_pynode *call) {
  for (const bl_pynode *c = call->kid; c; c = c->next)
    if (c->role == BL_PR_ARG) return c->kind == BL_PK_STARRED ? NULL : c;
  return NULL;
}

/* The abstract value of an expression, following the clean names only (all the candidates
 * while `tentative`). Chains are short: each step needs one of the SDK's attribute names. */
static int kind_of(const bl_pyreader *rd, const bl_pynode *n, int *meth,
                   const bl_pynode **partial, int depth) {
  if (!n || depth > 8) return AK_NONE;
  switch (n->kind) {
  case BL_PK_NAME: {
    const struct bl_pyalias *a = find(rd, n);
    if (!a || !a->clean) return AK_NONE;
    *meth = a->meth;
    *partial = a->partial;
    return a->kind;
  }
  case BL_PK_ATTRIBUTE: {
    if (bl_py_attr_is(rd, n, "code_interpreter")) return AK_CI;
    int k = kind_of(rd, child(n, BL_PR_VALUE), meth, partial, depth + 1);
    return k == AK_CI || k == AK_TPL ? step(rd, k, n, meth) : AK_NONE;
  }
  case BL_PK_CALL: {
    if (!is_partial(rd, n)) return AK_NONE;
    const bl_pynode *p = NULL;
    if (kind_of(rd, first_arg(n), meth, &p, depth + 1) != AK_METH) return AK_NONE;
    *partial = n;
    return AK_PART;
  }
  default: return AK_NONE;
  }
}

int bl_py_alias_call(const bl_pyreader *rd, const bl_pynode *call, const bl_pynode **partial) {
  int meth = -1;
  const bl_pynode *p = NULL;
  int k = kind_of(rd, child(call, BL_PR_FUNC), &meth, &p, 0);
  if (partial) *partial = k == AK_PART ? p : NULL;
  return k == AK_METH || k == AK_PART ? meth : -1;
}

/* A `NAME = value` (any scope) whose value may be an alias: the value, or NULL. */
static const bl_pynode *binding_value(const bl_pynode *st) {
  if (st->kind == BL_PK_ASSIGN && st->nkids == 2 && st->kid->kind == BL_PK_NAME) return st->last;
  if (st->kind == BL_PK_ANNASSIGN && (st->flags & BL_PYF_SIMPLE) && st->kid->kind == BL_PK_NAME)
    return child(st, BL_PR_VALUE);
  return NULL;
}

/* Is x (a chain's top) the value of a binding of a clean name of kind k? */
static int bound_as(const bl_pyreader *rd, const bl_pynode *x, int k) {
  const bl_pynode *p = x->parent;
  if (!p || binding_value(p) != x) return 0;
  const struct bl_pyalias *a = find(rd, p->kid);
  return a && a->clean && a->kind == k;
}

/* Is the read n of the name a (clean so far) a step towards a call of the SDK? */
static int use_ok(const bl_pyreader *rd, const bl_pynode *n, const struct bl_pyalias *a) {
  const bl_pynode *x = n;
  int k = a->kind, meth = a->meth;
  while (x->parent && x->parent->kind == BL_PK_ATTRIBUTE && x->role == BL_PR_VALUE) {
    if ((x->parent->flags & BL_PYF_CTX) != BL_PYF_LOAD) return 0;
    k = k == AK_CI || k == AK_TPL ? step(rd, k, x->parent, &meth) : AK_NONE;
    if (!k) return 0;
    x = x->parent;
  }
  const bl_pynode *p = x->parent;
  if (!p) return 0;
  if (p->kind == BL_PK_CALL && x->role == BL_PR_FUNC)
    return k == AK_METH || k == AK_PART || k == AK_RO;
  if (k != AK_RO && bound_as(rd, x, k)) return 1;
  if (k == AK_METH && p->kind == BL_PK_CALL && x->role == BL_PR_ARG && first_arg(p) == x &&
      is_partial(rd, p))
    return (p->parent && p->role == BL_PR_FUNC && p->parent->kind == BL_PK_CALL) ||
           bound_as(rd, p, AK_PART);
  return 0;
}

/* Is `name` bound in the file only by `from functools import name` (or `import functools`)? */
static int only_imported(const bl_pyreader *rd, const char *name, int from) {
  int seen = 0;
  for (size_t i = 0; i < rd->nocc; i++) {
    const bl_pynode *n = rd->occ[i];
    if (n->kind == BL_PK_ATTRIBUTE || !bl_py_ident_is(rd, n, name)) continue;
    if (n->kind == BL_PK_NAME && (n->flags & BL_PYF_CTX) == BL_PYF_LOAD) continue;
    const bl_pynode *al = n->parent, *im = al ? al->parent : NULL;
    if (n->kind != BL_PK_NAMEDEF || !al || al->kind != BL_PK_ALIAS || !im || al->ident2_end > al->ident2)
      return 0;
    if (from && !(im->kind == BL_PK_IMPORTFROM && im->ident_end - im->ident == 9 &&
                  !memcmp(rd->s + im->ident, "functools", 9) && im->ident2_end == im->ident2 &&
                  bl_py_ident_is(rd, al, name)))
      return 0;
    if (!from && !(im->kind == BL_PK_IMPORT && al->ident_end - al->ident == 9 &&
                   !memcmp(rd->s + al->ident, "functools", 9)))
      return 0;
    seen = 1;
  }
  return seen;
}

static int add_alias(bl_pyreader *rd, const bl_pynode *name, int k, int meth,
                     const bl_pynode *partial, size_t *cap) {
  struct bl_pyalias *a = find(rd, name);
  if (a) {
    if (a->kind != k || a->meth != meth || (k == AK_PART && a->partial != partial))
      a->conflict = 1;
    return 0;
  }
  if (rd->naliases == *cap) {
    size_t nc = *cap ? *cap * 2 : 8;
    struct bl_pyalias *v = boxlint__arena_alloc(&rd->arena, rd->m, nc * sizeof *v);
    if (!v) return -1;
    if (rd->naliases) memcpy(v, rd->aliases, rd->naliases * sizeof *v);
    rd->aliases = v;
    *cap = nc;
  }
  a = &rd->aliases[rd->naliases++];
  memset(a, 0, sizeof *a);
  key_of(rd, name, &a->key, &a->klen);
  a->kind = k;
  a->meth = meth;
  a->partial = partial;
  a->clean = 1; /* tentatively, while the candidates are collected */
  return 0;
}

/* Is node n inside (or) `top`? */
static int within(const bl_pynode *n, const bl_pynode *top) {
  for (; n; n = n->parent)
    if (n == top) return 1;
  return 0;
}

/* Drop the references made inside `top` (the value of a followed binding, or a partial called
 * at once). */
static void drop_refs(bl_pyreader *rd, const bl_pynode *top) {
  size_t k = 0;
  for (size_t i = 0; i < rd->nrefs; i++)
    if (!(rd->refs[i].start >= top->start && rd->refs[i].end <= top->end &&
          within(rd->refs[i].node, top)))
      rd->refs[k++] = rd->refs[i];
  rd->nrefs = k;
}

static int by_start(const void *a, const void *b) {
  const bl_pycall *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* Every `NAME = value` whose value may be of the SDK, in *out (NULL when none); 0, -1 OOM. */
static int candidates(bl_pyreader *rd, const bl_pynode *root, const bl_pynode ***out, size_t *nb) {
  size_t capb = 0;
  const bl_pynode **binds = NULL;
  *nb = 0;
  for (const bl_pynode *n = root; n; n = bl_py_next(n)) {
    if (n->kind < BL_PK_ASSIGN || n->kind > BL_PK_ANNASSIGN || !binding_value(n)) continue;
    if (*nb == capb) {
      size_t nc = capb ? capb * 2 : 16;
      const bl_pynode **v = boxlint__realloc(rd->m, binds, capb * sizeof *v, nc * sizeof *v);
      if (!v) {
        boxlint__free(rd->m, binds);
        return -1;
      }
      binds = v;
      capb = nc;
    }
    binds[(*nb)++] = n;
  }
  *out = binds;
  return 0;
}

/* For cache.c: an edit may not rename to or from the aliases (an NFKC name, or past 64 names:
 * no identifier edit at all, as an empty span says). A name bound twice or a builtin's is not
 * clean. */
static void note_aliases(bl_pyreader *rd) {
  for (size_t i = 0; i < rd->naliases; i++) {
    const struct bl_pyalias *a = &rd->aliases[i];
    int in_src = a->key >= rd->s && a->key < rd->s + rd->n;
    if (rd->nalias == 64) {
      rd->alias[0] = rd->alias[1] = 0;
      break;
    }
    size_t at = in_src ? (size_t)(a->key - rd->s) : 0;
    rd->alias[2 * rd->nalias] = at;
    rd->alias[2 * rd->nalias + 1] = in_src ? at + a->klen : at;
    rd->nalias++;
  }
  for (size_t i = 0; i < rd->naliases; i++) {
    struct bl_pyalias *a = &rd->aliases[i];
    if (a->conflict || bl_py_builtin_word(a->key, a->klen)) a->clean = 0;
  }
}

/* Is the occurrence n of alias a one that keeps it followed (a read that leads to an SDK call,
 * or a binding of the same kind)? */
static int occurrence_ok(const bl_pyreader *rd, const bl_pynode *n, const struct bl_pyalias *a) {
  unsigned ctx = n->flags & BL_PYF_CTX;
  if (n->kind == BL_PK_NAMEDEF) return 0;
  if (n->kind == BL_PK_ATTRIBUTE) return ctx == BL_PYF_LOAD;
  if (ctx == BL_PYF_STORE) {
    int meth = -1;
    const bl_pynode *p = NULL;
    return n->parent && n->parent->kid == n && binding_value(n->parent) &&
           kind_of(rd, binding_value(n->parent), &meth, &p, 0) == a->kind && meth == a->meth;
  }
  return ctx == BL_PYF_LOAD && use_ok(rd, n, a);
}

/* Every occurrence of a candidate's identifier, until none is found unclean: the number of
 * aliases left clean (a name never read is not one: another module may import it). */
static int clean_aliases(bl_pyreader *rd) {
  for (int changed = 1, round = 0; changed; round++) {
    changed = 0;
    for (size_t i = 0; i < rd->nocc; i++) {
      const bl_pynode *n = rd->occ[i];
      struct bl_pyalias *a = find(rd, n);
      if (!a || !a->clean) continue;
      if (!round && n->kind != BL_PK_NAMEDEF && n->kind != BL_PK_ATTRIBUTE &&
          (n->flags & BL_PYF_CTX) == BL_PYF_LOAD)
        a->reads++;
      if (!occurrence_ok(rd, n, a)) {
        a->clean = 0;
        changed = 1;
      }
    }
  }
  int nclean = 0;
  for (size_t i = 0; i < rd->naliases; i++) {
    if (!rd->aliases[i].reads) rd->aliases[i].clean = 0;
    nclean += rd->aliases[i].clean;
  }
  return nclean;
}

/* The calls through the aliases, checked as direct calls; 0, -1 out of memory. */
static int calls_through_aliases(bl_pyreader *rd, const bl_pynode *root) {
  size_t before = rd->ncalls;
  for (const bl_pynode *n = root; n; n = bl_py_next(n)) {
    if (n->kind != BL_PK_CALL) continue;
    const bl_pynode *f = child(n, BL_PR_FUNC);
    if (!f || (f->kind != BL_PK_NAME && f->kind != BL_PK_CALL && f->kind != BL_PK_ATTRIBUTE))
      continue;
    if (bl_py_sdk_call_direct(rd, n) >= 0) continue; /* recorded already */
    const bl_pynode *p = NULL;
    int k = bl_py_alias_call(rd, n, &p);
    if (k < 0) continue;
    if (bl_py_add_call_partial(rd, k, n, p)) return -1;
    if (f->kind == BL_PK_CALL && !rd->taint) drop_refs(rd, f);
  }
  if (rd->ncalls > before) qsort(rd->calls, rd->ncalls, sizeof *rd->calls, by_start);
  return 0;
}

int bl_py_aliases(bl_pyreader *rd, const bl_pynode *root) {
  rd->partial_ok = only_imported(rd, "partial", 1);
  rd->functools_ok = only_imported(rd, "functools", 0);
  size_t cap = 0, nb = 0;
  const bl_pynode **binds = NULL;
  if (candidates(rd, root, &binds, &nb)) goto oom;
  /* the candidates of the SDK, to a fixed point */
  for (int changed = 1, round = 0; changed && round < 8; round++) {
    changed = 0;
    for (size_t i = 0; i < nb; i++) {
      int meth = -1;
      const bl_pynode *p = NULL;
      int k = kind_of(rd, binding_value(binds[i]), &meth, &p, 0);
      if (!k || k == AK_RO) continue;
      size_t before = rd->naliases;
      if (add_alias(rd, binds[i]->kid, k, meth, p, &cap)) goto oom;
      changed |= rd->naliases != before;
    }
  }
  note_aliases(rd);
  int nclean = clean_aliases(rd);
  if (!nclean) rd->naliases = 0;
  /* the references the followed bindings made are no longer unknown */
  if (!rd->taint && nclean)
    for (size_t i = 0; i < nb; i++) {
      const struct bl_pyalias *a = find(rd, binds[i]->kid);
      if (a && a->clean) drop_refs(rd, binding_value(binds[i]));
    }
  boxlint__free(rd->m, binds);
  binds = NULL;
  if (!nclean && !rd->partial_ok && !rd->functools_ok) return 0;
  if (calls_through_aliases(rd, root)) goto oom;
  return 0;
oom:
  boxlint__free(rd->m, binds);
  rd->oom = 1;
  return -1;
}

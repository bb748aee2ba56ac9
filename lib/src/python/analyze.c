/* What the file's syntax tree (parse.c) says about the SDK: every call of `templates.create`,
 * `templates.update`, `add_code_interpreter` and `NetworkPolicy` with its arguments as values
 * (reader.c reads the literals), every reference to the SDK that is not such a direct call (a
 * not-static finding: boxlint cannot follow it), and the names the file binds, so that a name
 * stands for its literal only when nothing else in the file can change or replace it.
 *
 * The rule for names is sound by construction: a name's value is known only when it is bound
 * exactly once, by a module-level `NAME = literal` (or `NAME: T = literal`), and every other
 * occurrence of the identifier anywhere in the file (any scope, any kind of binding, parameter,
 * import, declaration, pattern capture, attribute of that name, string naming it) is a read
 * that only a literal display carries into an SDK call's argument (or into another such
 * module-level literal, itself known). Anything in the file that can reach names by their text
 * (globals(), vars(), locals(), exec, eval, setattr, __dict__, frames, a star import, ...)
 * makes every name unknown. Calls tokens.c's tokens, reader.c and literal.c. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <stdlib.h>
#include "python/ast.h"
#include "python/encoding.h"

#define TOK(rd, i) (&(rd)->toks.v[(rd)->sig[(i)]])

/*----------------------------------------------------------------------------------------------
 * Nodes
 *--------------------------------------------------------------------------------------------*/

const bl_pynode *bl_py_child(const bl_pynode *n, int role) {
  for (const bl_pynode *c = n ? n->kid : NULL; c; c = c->next)
    if (c->role == role) return c;
  return NULL;
}

int bl_py_ident_is(const bl_pyreader *rd, const bl_pynode *n, const char *name) {
  return n && n->ident_end > n->ident && bl_pyast_ident_eq(rd->s, n, name, strlen(name));
}

int bl_py_attr_is(const bl_pyreader *rd, const bl_pynode *n, const char *name) {
  return n && n->kind == BL_PK_ATTRIBUTE && bl_py_ident_is(rd, n, name);
}

/* Pre-order successor within the tree. */
const bl_pynode *bl_py_next(const bl_pynode *n) {
  if (n->kid) return n->kid;
  for (; n; n = n->parent)
    if (n->next) return n->next;
  return NULL;
}

/* The SDK call a CALL node is, or -1: as written, or through the names alias.c follows. */
int bl_py_sdk_call(const bl_pyreader *rd, const bl_pynode *call) {
  int k = bl_py_sdk_call_direct(rd, call);
  if (k >= 0 || !(rd->naliases || rd->partial_ok || rd->functools_ok)) return k;
  return call && call->kind == BL_PK_CALL ? bl_py_alias_call(rd, call, NULL) : -1;
}

int bl_py_sdk_call_direct(const bl_pyreader *rd, const bl_pynode *call) {
  if (!call || call->kind != BL_PK_CALL) return -1;
  const bl_pynode *f = bl_py_child(call, BL_PR_FUNC);
  if (!f) return -1;
  if (bl_py_attr_is(rd, f, "create") || bl_py_attr_is(rd, f, "update")) {
    const bl_pynode *t = bl_py_child(f, BL_PR_VALUE);
    if (bl_py_attr_is(rd, t, "templates") && bl_py_attr_is(rd, bl_py_child(t, BL_PR_VALUE), "code_interpreter"))
      return bl_py_attr_is(rd, f, "create") ? BL_CALL_CREATE : BL_CALL_UPDATE;
    return -1;
  }
  if ((f->kind == BL_PK_ATTRIBUTE || f->kind == BL_PK_NAME) && bl_py_ident_is(rd, f, "add_code_interpreter"))
    return BL_CALL_BIND;
  if ((f->kind == BL_PK_ATTRIBUTE || f->kind == BL_PK_NAME) && bl_py_ident_is(rd, f, "NetworkPolicy"))
    return BL_CALL_POLICY;
  return -1;
}

/*----------------------------------------------------------------------------------------------
 * Names
 *--------------------------------------------------------------------------------------------*/


/* The NFKC form of s[0..n) in the arena (s itself when ASCII). */
int bl_py_name_key(bl_pyreader *rd, const char *s, size_t n, const char **out, size_t *outlen) {
  if (bl_py_nfkc_in(&rd->arena, rd->m, s, n, out, outlen)) return -1;
  if (!*out) *out = s; /* ASCII, or already normal */
  return 0;
}

bl_pyname **bl_py_name_slot(bl_pyreader *rd, const char *k, size_t kl) {
  size_t mask = rd->cap_names - 1;
  for (size_t h = boxlint__fnv1a(k, kl) & mask;; h = (h + 1) & mask) {
    bl_pyname **b = &rd->names[h];
    if (!*b || ((*b)->klen == kl && !memcmp((*b)->key, k, kl))) return b;
  }
}

/* The entry of a name (created when absent; entries live in the arena, so a pointer to one stays
 * valid while the table grows); NULL when out of memory. */
bl_pyname *bl_py_name_entry(bl_pyreader *rd, const char *k, size_t kl) {
  if ((rd->nnames + 1) * 2 > rd->cap_names) {
    size_t nc = rd->cap_names ? rd->cap_names * 2 : 64, oc = rd->cap_names;
    bl_pyname **old = rd->names;
    rd->names = boxlint__malloc(rd->m, nc * sizeof *rd->names);
    if (!rd->names) {
      rd->names = old;
      return NULL;
    }
    memset(rd->names, 0, nc * sizeof *rd->names);
    rd->cap_names = nc;
    for (size_t i = 0; i < oc; i++)
      if (old[i]) *bl_py_name_slot(rd, old[i]->key, old[i]->klen) = old[i];
    boxlint__free(rd->m, old);
  }
  bl_pyname **b = bl_py_name_slot(rd, k, kl);
  if (!*b) {
    bl_pyname *e = boxlint__arena_alloc(&rd->arena, rd->m, sizeof *e);
    if (!e) return NULL;
    memset(e, 0, sizeof *e);
    e->key = k;
    e->klen = kl;
    *b = e;
    rd->nnames++;
  }
  return *b;
}

static bl_pyname *node_name(bl_pyreader *rd, const bl_pynode *n) {
  if (n->norm) return bl_py_name_entry(rd, n->norm, n->norm_len);
  return bl_py_name_entry(rd, rd->s + n->ident, n->ident_end - n->ident);
}

/* A module-level `NAME = value` or `NAME: T = value` with NAME its only target: the value. */
static const bl_pynode *module_binding(const bl_pynode *stmt) {
  if (!stmt || !stmt->parent || stmt->parent->kind != BL_PK_MODULE) return NULL;
  if (stmt->kind == BL_PK_ASSIGN && stmt->nkids == 2 && stmt->kid->kind == BL_PK_NAME)
    return stmt->last;
  if (stmt->kind == BL_PK_ANNASSIGN && (stmt->flags & BL_PYF_SIMPLE) && stmt->kid->kind == BL_PK_NAME)
    return bl_py_child(stmt, BL_PR_VALUE);
  return NULL;
}

static int carried(const bl_pyreader *rd, const bl_pynode *n, const bl_pynode **owner);

/* The outermost literal display (list, tuple, set, dict value) that holds n, or n. */
static const bl_pynode *display_top(const bl_pynode *n) {
  const bl_pynode *x = n;
  while (x->parent && ((x->role == BL_PR_ELT && (x->parent->kind == BL_PK_LIST ||
                                                  x->parent->kind == BL_PK_TUPLE ||
                                                  x->parent->kind == BL_PK_SET)) ||
                       (x->role == BL_PR_VALUE && x->parent->kind == BL_PK_DICT)))
    x = x->parent;
  return x;
}

/* Where an SDK call's result goes, since it keeps its arguments (a NetworkPolicy its lists, a
 * binding its policy, a template handle its commands): discarded (1); into another SDK call,
 * as carried() says (1, or 2 with *owner); bound by a module-level `X = call(...)` (3, *owner X,
 * whose reads of the handle's plain fields are harmless); anywhere else (0). */
static int result_kept(const bl_pyreader *rd, const bl_pynode *call, const bl_pynode **owner) {
  const bl_pynode *q = call->parent && call->parent->kind == BL_PK_AWAIT ? call->parent : call;
  if (!q->parent || (q->flags & BL_PYF_INNER)) return 0;
  if (q->parent->kind == BL_PK_EXPR) return 1;
  if (q->role == BL_PR_VALUE && module_binding(q->parent) == q) {
    *owner = q->parent->kid;
    return 3;
  }
  return carried(rd, q, owner);
}

/* A read carried only by literal displays: into an SDK call's argument (1, or as result_kept()
 * says), into a module-level binding's value (2, *owner its NAME node), or neither (0). */
static int carried(const bl_pyreader *rd, const bl_pynode *n, const bl_pynode **owner) {
  const bl_pynode *x = display_top(n), *p = x->parent;
  if (!p || (x->flags & BL_PYF_INNER)) return 0;
  if (x->role == BL_PR_ARG && bl_py_sdk_call(rd, p) >= 0) return result_kept(rd, p, owner);
  if (x->role == BL_PR_VALUE && p->kind == BL_PK_KEYWORD && p->ident_end > p->ident &&
      bl_py_sdk_call(rd, p->parent) >= 0)
    return result_kept(rd, p->parent, owner);
  if (x->role == BL_PR_VALUE && module_binding(p) == x) {
    *owner = p->kid;
    return 2;
  }
  return 0;
}

/* Is n carried by displays into an SDK call's argument (whatever becomes of its result)? */
static int carried_into_kept_call(const bl_pyreader *rd, const bl_pynode *n) {
  const bl_pynode *x = display_top(n), *p = x->parent;
  return p && ((x->role == BL_PR_ARG && bl_py_sdk_call(rd, p) >= 0) ||
               (x->role == BL_PR_VALUE && p->kind == BL_PK_KEYWORD && bl_py_sdk_call(rd, p->parent) >= 0));
}

/* The plain fields of the SDK's handles (Template, AgentToolBinding): reading one gives a
 * string or a number, which cannot change what the handle keeps. */
static int plain_field(const bl_pyreader *rd, const bl_pynode *a) {
  static const char *const F[] = {"id", "status", "name", "error_message", "env_id", "agent_id",
                                  "template_id", "version", "created_at", "updated_at",
                                  "project_id", "custom_template_id", "cpu_count", "memory_mb",
                                  "type", "tool_name"};
  if (!a || a->kind != BL_PK_ATTRIBUTE || (a->flags & BL_PYF_CTX) != BL_PYF_LOAD) return 0;
  for (size_t i = 0; i < sizeof F / sizeof *F; i++)
    if (bl_py_ident_is(rd, a, F[i])) return 1;
  return 0;
}

/* `h.id`, `h.wait_until_ready(...)` or `h.refresh()` whose result (h itself) is discarded or
 * read for a plain field: a read of an SDK handle that reaches nothing it keeps. */
static int handle_read(const bl_pyreader *rd, const bl_pynode *n) {
  const bl_pynode *a = n->parent;
  if (!a || n->role != BL_PR_VALUE || a->kind != BL_PK_ATTRIBUTE) return 0;
  if (plain_field(rd, a)) return 1;
  if (!(bl_py_ident_is(rd, a, "wait_until_ready") || bl_py_ident_is(rd, a, "refresh"))) return 0;
  const bl_pynode *c = a->parent;
  if (!c || a->role != BL_PR_FUNC || c->kind != BL_PK_CALL) return 0;
  const bl_pynode *q = c->parent && c->parent->kind == BL_PK_AWAIT ? c->parent : c;
  return (q->parent && q->parent->kind == BL_PK_EXPR) ||
         (q->role == BL_PR_VALUE && plain_field(rd, q->parent));
}

/* Why an occurrence of a name (NAME or NAMEDEF node) that is not its one binding may change
 * what the name stands for. */
static const char *occurrence_why(const bl_pynode *n) {
  const bl_pynode *p = n->parent;
  if (n->kind == BL_PK_NAMEDEF) {
    switch (p ? p->kind : 0) {
    case BL_PK_ARG: return "a name that is also a parameter";
    case BL_PK_FUNCDEF: case BL_PK_CLASSDEF: return "a name that a def or class also binds";
    case BL_PK_ALIAS: return "a name that an import also binds";
    case BL_PK_GLOBAL: case BL_PK_NONLOCAL: return "a name declared global or nonlocal";
    case BL_PK_EXCEPTHANDLER: return "a name that an except clause also binds";
    default: return "a name that a match pattern also binds";
    }
  }
  if ((n->flags & BL_PYF_CTX) == BL_PYF_DEL) return "a name that del removes";
  if ((n->flags & BL_PYF_CTX) == BL_PYF_STORE) return "a name bound more than once";
  if (p && p->kind == BL_PK_ATTRIBUTE) return "a name whose value is used as a receiver";
  if (p && p->kind == BL_PK_SUBSCRIPT) return "a name whose value is subscripted";
  if (p && p->kind == BL_PK_CALL) return n->role == BL_PR_FUNC ? "a name that is called"
                                                             : "a name passed to another call";
  if (p && (p->kind == BL_PK_ASSIGN || p->kind == BL_PK_ANNASSIGN || p->kind == BL_PK_NAMEDEXPR))
    return "a name whose value is also bound to another name";
  return "a name used elsewhere in a way that may change its value";
}

static int bad(bl_pyreader *rd, bl_pyname *b, const char *why, size_t off) {
  (void)rd;
  if (!b->why) {
    b->why = why;
    b->why_off = off;
  }
  return 0;
}

/* A read of a name that cannot change its value: a comparison or `in` (1), `len(NAME)` (2, while
 * len is the builtin), or one that hands out its elements and nothing else: a subscript or a
 * slice read, the iterable of a for or a comprehension, the value unpacked into a tuple or list
 * of targets (3). 0 otherwise. */
static int pure_read(const bl_pyreader *rd, const bl_pynode *n) {
  const bl_pynode *p = n->parent;
  if (!p || (n->flags & BL_PYF_INNER)) return 0;
  switch (p->kind) {
  case BL_PK_COMPARE: return 1;
  case BL_PK_CALL: {
    const bl_pynode *f = bl_py_child(p, BL_PR_FUNC);
    return n->role == BL_PR_ARG && p->nkids == 2 && f && f->kind == BL_PK_NAME &&
                   bl_py_ident_is(rd, f, "len")
               ? 2
               : 0;
  }
  case BL_PK_SUBSCRIPT:
    return n->role == BL_PR_VALUE && (p->flags & BL_PYF_CTX) == BL_PYF_LOAD ? 3 : 0;
  case BL_PK_FOR: case BL_PK_COMPREHENSION: return n->role == BL_PR_ITER ? 3 : 0;
  case BL_PK_ASSIGN: {
    if (n->role != BL_PR_VALUE) return 0;
    for (const bl_pynode *t = p->kid; t; t = t->next)
      if (t->role == BL_PR_TARGET && t->kind != BL_PK_TUPLE && t->kind != BL_PK_LIST) return 0;
    return 3;
  }
  default: return 0;
  }
}

/* A private name (`__CMDS`, not a dunder) inside a class is that class's mangled name
 * (`_Builder__CMDS`, the class name's leading underscores stripped, as CPython mangles): the
 * occurrence is one of the mangled name, which is marked as changed by it (the unmangled name
 * too stays marked by the occurrence itself). 0, -1 out of memory. */
static int mangled(bl_pyreader *rd, const bl_pynode *n) {
  size_t l = n->ident_end - n->ident;
  const char *w = rd->s + n->ident;
  if (n->norm || l < 3 || w[0] != '_' || w[1] != '_' || (w[l - 1] == '_' && w[l - 2] == '_'))
    return 0;
  const bl_pynode *c = n->parent;
  while (c && c->kind != BL_PK_CLASSDEF) c = c->parent;
  const bl_pynode *cn = c ? bl_py_child(c, BL_PR_NAME) : NULL;
  if (!cn || cn->norm) return 0;
  size_t a = cn->ident;
  while (a < cn->ident_end && rd->s[a] == '_') a++;
  if (a == cn->ident_end) return 0; /* a class named only with underscores mangles nothing */
  size_t kl = 1 + (cn->ident_end - a) + l;
  char *k = boxlint__arena_alloc(&rd->arena, rd->m, kl);
  if (!k) return -1;
  k[0] = '_';
  memcpy(k + 1, rd->s + a, cn->ident_end - a);
  memcpy(k + 1 + (cn->ident_end - a), w, l);
  bl_pyname *e = bl_py_name_entry(rd, k, kl);
  if (!e) return -1;
  e->nstore++;
  return bad(rd, e, "a name that a class's private name (mangled) also reaches", n->start);
}

/* One NAME or NAMEDEF node. */
static int occurrence(bl_pyreader *rd, const bl_pynode *n) {
  if (n->ident_end <= n->ident) return 0;
  if (mangled(rd, n)) return -1;
  bl_pyname *b = node_name(rd, n);
  if (!b) return -1;
  if (n->kind == BL_PK_NAME && (n->flags & BL_PYF_CTX) == BL_PYF_STORE && n->role == BL_PR_TARGET &&
      module_binding(n->parent) && n->parent->kid == n) {
    b->nbind++;
    b->value = module_binding(n->parent);
    if (b->nbind > 1) bad(rd, b, "a name bound more than once", n->start);
    return 0;
  }
  const bl_pynode *owner = NULL;
  int load = n->kind == BL_PK_NAME && (n->flags & BL_PYF_CTX) == BL_PYF_LOAD;
  int c = load ? carried(rd, n, &owner) : 0;
  if (c == 1) return 0;
  if (c >= 2) {
    bl_pyname *o = node_name(rd, owner);
    struct bl_pyowner *w = boxlint__arena_alloc(&rd->arena, rd->m, sizeof *w);
    if (!o || !w) return -1;
    w->name = o;
    w->holder = c == 3;
    w->next = b->owners;
    b->owners = w;
    return 0;
  }
  if (!load) b->nstore++;
  if (load) switch (pure_read(rd, n)) {
    case 1: return 0;
    case 2:
      b->len_read = 1;
      return 0;
    case 3:
      if (!b->elem_why) {
        b->elem_why = "a name whose elements are read and may be changed through them";
        b->elem_off = n->start;
      }
      return 0;
    default: break;
    }
  if (load && handle_read(rd, n)) { /* harmless when the name holds an SDK handle */
    if (!b->handle_why) b->handle_why = "a name whose value is used as a receiver";
    return 0;
  }
  if (c == 0 && load && carried_into_kept_call(rd, n))
    return bad(rd, b, "a name whose value an SDK call's result keeps, and that result may "
                      "change it", n->start);
  return bad(rd, b, occurrence_why(n), n->start);
}

/*----------------------------------------------------------------------------------------------
 * What reaches names by their text, and references to the SDK that are not direct calls
 *--------------------------------------------------------------------------------------------*/

static const char *const TAINT_NAMES[] = {"globals", "vars", "locals", "exec", "eval", "compile",
                                          "setattr", "delattr", "__import__", "__builtins__",
                                          "breakpoint"};
static const char *const TAINT_ATTRS[] = {"__dict__", "__globals__", "f_globals", "f_locals",
                                          "_getframe", "modules", "get_referrers",
                                          "get_referents", "get_objects", "__setattr__",
                                          "__delattr__", "currentframe", "__builtins__"};
static const char *const TAINT_MODULES[] = {"gc", "ctypes", "inspect", "importlib", "builtins",
                                            "__main__", "pickle", "code", "runpy"};

static void taint(bl_pyreader *rd, const char *why, size_t off) {
  if (!rd->taint) {
    rd->taint = why;
    rd->taint_off = off;
  }
}

/* A reference over [start, end), its node n (NULL: none, as for a whole call's span). */
static int add_span_ref(bl_pyreader *rd, const bl_pynode *n, size_t start, size_t end,
                        const char *why) {
  if (rd->nrefs == rd->cap_refs) {
    size_t nc = rd->cap_refs ? rd->cap_refs * 2 : 8;
    bl_pyref *v = boxlint__realloc(rd->m, rd->refs, rd->cap_refs * sizeof *v, nc * sizeof *v);
    if (!v) return -1;
    rd->refs = v;
    rd->cap_refs = nc;
  }
  bl_pyref *r = &rd->refs[rd->nrefs++];
  r->node = n;
  r->start = start;
  r->end = end;
  r->why = why;
  return 0;
}

int bl_py_add_ref(bl_pyreader *rd, const bl_pynode *n, const char *why) {
  return add_span_ref(rd, n, n->start, n->end, why);
}

int bl_py_add_call_ref(bl_pyreader *rd, const bl_pycall *c, const char *why) {
  return add_span_ref(rd, NULL, c->start, c->end, why);
}

/* A string constant's value, decoded into *tmp: 1, or 0 when n is not a plain str literal (or
 * cannot be decoded), or -1 when out of memory (rd->oom set). */
static int const_str(bl_pyreader *rd, const bl_pynode *n, bl_pystr *tmp) {
  memset(tmp, 0, sizeof *tmp);
  if (!n || n->kind != BL_PK_CONSTANT || !(n->flags & BL_PYF_STR) || n->tok == SIZE_MAX) return 0;
  uint32_t k = 0;
  for (size_t i = n->tok; i < rd->nsig && TOK(rd, i)->start < n->end; i++, k++) {
    if (TOK(rd, i)->kind != BL_PT_STRING) break;
    bl_piece p;
    bl_py_piece(rd->s, TOK(rd, i), &p);
    const char *err;
    size_t eo;
    int rc = bl_py_decode(rd->m, rd->s, &p, k, tmp, &err, &eo);
    if (rc) {
      bl_pystr_free(rd->m, tmp);
      if (rc < 0) rd->oom = 1;
      return rc < 0 ? -1 : 0;
    }
  }
  return 1;
}

/* A string constant whose text the analysis reads (cache.c may not reuse a check after an
 * edit inside it). 0, -1 out of memory. */
static int note_read(bl_pyreader *rd, const bl_pynode *n) {
  if (!n || n->kind != BL_PK_CONSTANT) return 0;
  if (rd->nlit_reads + 2 > rd->cap_lit_reads) {
    size_t nc = rd->cap_lit_reads ? rd->cap_lit_reads * 2 : 16;
    size_t *v = boxlint__realloc(rd->m, rd->lit_reads, rd->cap_lit_reads * sizeof *v, nc * sizeof *v);
    if (!v) return -1;
    rd->lit_reads = v;
    rd->cap_lit_reads = nc;
  }
  rd->lit_reads[rd->nlit_reads++] = n->start;
  rd->lit_reads[rd->nlit_reads++] = n->end;
  return 0;
}

static const char *const SDK_MEMBERS[] = {"code_interpreter", "templates", "create", "update",
                                          "add_code_interpreter", "NetworkPolicy", "agents"};

/* A string constant given to a call that looks an attribute up by its text (getattr(module,
 * "NAME"), operator.attrgetter("NAME")): the name it spells may be reached through it. (A
 * function of another module that does the same is reflection outside the file: docs/python.md.) */
static int string_constant(bl_pyreader *rd, const bl_pynode *n) {
  if (n->role != BL_PR_ARG || !n->parent || n->parent->kind != BL_PK_CALL) return 0;
  const bl_pynode *f = bl_py_child(n->parent, BL_PR_FUNC);
  if (!(bl_py_ident_is(rd, f, "getattr") || bl_py_ident_is(rd, f, "hasattr") ||
        bl_py_ident_is(rd, f, "attrgetter") || bl_py_ident_is(rd, f, "methodcaller") ||
        bl_py_ident_is(rd, f, "getattr_static")))
    return 0;
  if (note_read(rd, n)) return -1;
  bl_pystr v;
  int got = const_str(rd, n, &v);
  if (got <= 0) return got;
  int rc = 0;
  if (v.len && v.len < 256) {
    char *c = boxlint__arena_alloc(&rd->arena, rd->m, v.len);
    bl_pyname *b = c ? bl_py_name_entry(rd, memcpy(c, v.bytes, v.len), v.len) : NULL;
    if (!b) rc = -1;
    else bad(rd, b, "a name that a string in the file also spells (getattr, attrgetter)",
             n->start);
  }
  bl_pystr_free(rd->m, &v);
  return rc;
}

static int contains(const char *b, size_t l, const char *w) {
  size_t wl = strlen(w);
  for (const char *p = b; l >= wl && (p = memchr(p, w[0], l - wl + 1 - (size_t)(p - b))) != NULL; p++)
    if (!memcmp(p, w, wl)) return 1;
  return 0;
}

/* A string that spells the SDK's own names (code_interpreter, add_code_interpreter,
 * NetworkPolicy), wherever it is: the SDK may be reached by that text (a dict of attributes, a
 * lookup boxlint does not see). Only literals whose source may spell one are decoded. */
static int sdk_string(bl_pyreader *rd, const bl_pynode *n) {
  if (!(n->flags & BL_PYF_STR) || n->tok == SIZE_MAX || n->end - n->start > 4096) return 0;
  const char *b = rd->s + n->start;
  size_t l = n->end - n->start;
  if (!memchr(b, '\\', l) && !contains(b, l, "interpreter") && !contains(b, l, "Policy"))
    return 0;
  bl_pystr v;
  int got = const_str(rd, n, &v);
  if (got <= 0) return got;
  int rc = 0;
  static const char *const W[] = {"code_interpreter", "add_code_interpreter", "NetworkPolicy"};
  for (size_t i = 0; !rc && i < sizeof W / sizeof *W; i++)
    if (strlen(W[i]) == v.len && !memcmp(W[i], v.bytes, v.len))
      rc = bl_py_add_ref(rd, n, "a string spelling a name of the SDK, which may reach it by its text");
  bl_pystr_free(rd->m, &v);
  return rc;
}

/* getattr(x, name), operator.attrgetter/methodcaller(name): a computed attribute name may reach
 * the SDK or any name of the module. */
static int attribute_by_text(bl_pyreader *rd, const bl_pynode *call) {
  const bl_pynode *f = bl_py_child(call, BL_PR_FUNC);
  int ga = f && (f->kind == BL_PK_NAME || f->kind == BL_PK_ATTRIBUTE) &&
           (bl_py_ident_is(rd, f, "getattr") || bl_py_ident_is(rd, f, "hasattr"));
  int ag = f && (f->kind == BL_PK_NAME || f->kind == BL_PK_ATTRIBUTE) &&
           (bl_py_ident_is(rd, f, "attrgetter") || bl_py_ident_is(rd, f, "methodcaller"));
  if (!ga && !ag) return 0;
  const bl_pynode *a = bl_py_child(call, BL_PR_ARG);
  if (ga && a) {
    a = a->next;
    while (a && a->role != BL_PR_ARG) a = a->next;
  }
  if (note_read(rd, a)) return -1;
  bl_pystr v;
  int got = const_str(rd, a, &v);
  if (got < 0) return -1;
  if (!got) {
    taint(rd, "getattr with a computed name", call->start);
    return bl_py_add_ref(rd, call, "an attribute looked up by a computed name, which may be the SDK");
  }
  int rc = 0;
  for (size_t i = 0; i < sizeof SDK_MEMBERS / sizeof *SDK_MEMBERS; i++)
    if (strlen(SDK_MEMBERS[i]) == v.len && !memcmp(SDK_MEMBERS[i], v.bytes, v.len))
      rc = bl_py_add_ref(rd, call, "a member of the SDK looked up by its name");
  bl_pystr_free(rd->m, &v);
  return rc;
}

/* Is the ATTRIBUTE `.code_interpreter` n the receiver of `.templates.create` or `.update`, or of
 * `.templates.get(...)` or `.delete(...)` called directly? */
static int direct_templates_call(const bl_pyreader *rd, const bl_pynode *n) {
  const bl_pynode *t = n->parent;
  if (!bl_py_attr_is(rd, t, "templates") || n->role != BL_PR_VALUE) return 0;
  const bl_pynode *m = t->parent;
  if (!m || t->role != BL_PR_VALUE || m->kind != BL_PK_ATTRIBUTE) return 0;
  if (bl_py_ident_is(rd, m, "create") || bl_py_ident_is(rd, m, "update"))
    return 1; /* when it is not called, the method is the reference reported */
  if (!(bl_py_ident_is(rd, m, "get") || bl_py_ident_is(rd, m, "delete"))) return 0;
  return m->parent && m->role == BL_PR_FUNC && m->parent->kind == BL_PK_CALL;
}

/* Attributes and names that refer to the SDK other than as a direct call. */
static int sdk_reference(bl_pyreader *rd, const bl_pynode *n) {
  int called = n->parent && n->role == BL_PR_FUNC && n->parent->kind == BL_PK_CALL;
  if (bl_py_attr_is(rd, n, "code_interpreter") && !direct_templates_call(rd, n))
    return bl_py_add_ref(rd, n, "a reference to code_interpreter that is not a direct call of "
                          "templates.create or templates.update");
  if ((bl_py_attr_is(rd, n, "create") || bl_py_attr_is(rd, n, "update")) && !called &&
      bl_py_attr_is(rd, bl_py_child(n, BL_PR_VALUE), "templates"))
    return bl_py_add_ref(rd, n, "a method of templates used other than by a direct call");
  if (bl_py_attr_is(rd, n, "templates") && n->parent && n->role == BL_PR_VALUE &&
      (bl_py_attr_is(rd, n->parent, "create") || bl_py_attr_is(rd, n->parent, "update")) &&
      !bl_py_attr_is(rd, bl_py_child(n, BL_PR_VALUE), "code_interpreter")) {
    const bl_pynode *r = bl_py_child(n, BL_PR_VALUE);
    while (r && r->kind == BL_PK_ATTRIBUTE) r = bl_py_child(r, BL_PR_VALUE);
    if (r && r->kind != BL_PK_NAME)
      return bl_py_add_ref(rd, n, "templates reached through an expression boxlint cannot follow");
  }
  if ((n->kind == BL_PK_NAME || n->kind == BL_PK_ATTRIBUTE) && !called &&
      (bl_py_ident_is(rd, n, "add_code_interpreter") || bl_py_ident_is(rd, n, "NetworkPolicy")))
    return bl_py_add_ref(rd, n, "an SDK function used other than by a direct call");
  if (n->kind == BL_PK_ALIAS && n->ident2_end > n->ident2) {
    bl_pynode probe = *n; /* the imported name's last part */
    size_t d = n->ident_end;
    while (d > n->ident && rd->s[d - 1] != '.') d--;
    probe.ident = d;
    probe.norm = NULL;
    if (bl_py_ident_is(rd, &probe, "NetworkPolicy") || bl_py_ident_is(rd, &probe, "add_code_interpreter"))
      return bl_py_add_ref(rd, n, "an SDK name imported under another name");
  }
  return 0;
}

static int is_one_of(const bl_pyreader *rd, const bl_pynode *n, const char *const *v, size_t nv) {
  for (size_t i = 0; i < nv; i++)
    if (bl_py_ident_is(rd, n, v[i])) return 1;
  return 0;
}

#define N_OF(a) (sizeof a / sizeof *a)

/* vars(x), x.__dict__, x.__getattribute__(...): any attribute of any object (the client's
 * code_interpreter among them) reached by its text. */
static int attributes_by_text(bl_pyreader *rd, const bl_pynode *n) {
  if ((n->kind == BL_PK_NAME && bl_py_ident_is(rd, n, "vars")) ||
      (n->kind == BL_PK_ATTRIBUTE && (bl_py_ident_is(rd, n, "__dict__") ||
                                      bl_py_ident_is(rd, n, "__getattribute__") ||
                                      bl_py_ident_is(rd, n, "__getattr__"))))
    return bl_py_add_ref(rd, n, "attributes reached by their text, which may be the SDK's");
  return 0;
}

static int taints(bl_pyreader *rd, const bl_pynode *n) {
  if (attributes_by_text(rd, n)) return -1;
  if (n->kind == BL_PK_NAME && is_one_of(rd, n, TAINT_NAMES, N_OF(TAINT_NAMES)))
    taint(rd, "a name the file may reach by its text (globals(), exec, setattr, ...)", n->start);
  else if (n->kind == BL_PK_ATTRIBUTE && is_one_of(rd, n, TAINT_ATTRS, N_OF(TAINT_ATTRS)))
    taint(rd, "a name the file may reach by its text (__dict__, frames, sys.modules, ...)",
          n->start);
  else if (n->kind == BL_PK_IMPORTFROM && (n->flags & BL_PYF_STAR))
    taint(rd, "a name that a star import may rebind", n->start);
  else if (n->kind == BL_PK_ALIAS) {
    bl_pynode probe = *n;
    size_t d = n->ident;
    while (d < n->ident_end && rd->s[d] != '.') d++;
    probe.ident_end = d; /* the top-level module */
    probe.norm = NULL;
    const bl_pynode *from = n->parent && n->parent->kind == BL_PK_IMPORTFROM ? n->parent : NULL;
    if (from) {
      probe.ident = from->ident;
      probe.ident_end = from->ident;
      while (probe.ident_end < from->ident_end && rd->s[probe.ident_end] != '.') probe.ident_end++;
    }
    if (probe.ident_end > probe.ident && is_one_of(rd, &probe, TAINT_MODULES, N_OF(TAINT_MODULES)))
      taint(rd, "a name that a module imported by the file can reach (gc, inspect, ctypes, ...)",
            n->start);
    if (from && is_one_of(rd, n, TAINT_NAMES, N_OF(TAINT_NAMES)))
      taint(rd, "a name the file may reach by its text (globals(), exec, setattr, ...)", n->start);
  }
  return 0;
}

/* exec/eval/compile of a string: code boxlint does not read. */
static int exec_call(bl_pyreader *rd, const bl_pynode *n) {
  const bl_pynode *f = bl_py_child(n, BL_PR_FUNC);
  if (f && f->kind == BL_PK_NAME && (bl_py_ident_is(rd, f, "exec") || bl_py_ident_is(rd, f, "eval")))
    return bl_py_add_ref(rd, n, "code run by exec or eval, which boxlint does not read");
  return 0;
}

#define EQ(w, lit) (!memcmp((w), (lit), sizeof(lit) - 1))

/* Is the identifier one that the checks above look for? Most identifiers of a file are not, and
 * need none of them: a switch on the length, then a few comparisons. */
static int special_word(const char *w, size_t l) {
  switch (l) {
  case 3: return EQ(w, "get");
  case 4: return EQ(w, "exec") || EQ(w, "eval") || EQ(w, "vars");
  case 6: return EQ(w, "create") || EQ(w, "update") || EQ(w, "delete") || EQ(w, "locals");
  case 7:
    return EQ(w, "getattr") || EQ(w, "hasattr") || EQ(w, "globals") || EQ(w, "compile") ||
           EQ(w, "setattr") || EQ(w, "delattr") || EQ(w, "modules");
  case 8: return EQ(w, "__dict__") || EQ(w, "f_locals");
  case 9: return EQ(w, "templates") || EQ(w, "f_globals") || EQ(w, "_getframe");
  case 10: return EQ(w, "attrgetter") || EQ(w, "__import__") || EQ(w, "breakpoint");
  case 11:
    return EQ(w, "__globals__") || EQ(w, "get_objects") || EQ(w, "__setattr__") ||
           EQ(w, "__delattr__") || EQ(w, "__getattr__");
  case 12: return EQ(w, "methodcaller") || EQ(w, "__builtins__") || EQ(w, "currentframe");
  case 13: return EQ(w, "NetworkPolicy") || EQ(w, "get_referrers") || EQ(w, "get_referents");
  case 16: return EQ(w, "code_interpreter") || EQ(w, "__getattribute__");
  case 20: return EQ(w, "add_code_interpreter");
  default: return 0;
  }
}

int bl_py_special_word(const char *w, size_t l) { return special_word(w, l); }

static int special(const bl_pyreader *rd, const bl_pynode *n) {
  if (!n || n->ident_end <= n->ident) return 0;
  if (n->norm) return special_word(n->norm, n->norm_len);
  return special_word(rd->s + n->ident, n->ident_end - n->ident);
}

/* What one node says: a name's occurrence, an SDK call, a reference, a taint. */
/* Keep a name's or an attribute's node for bl_py_names (most files never need it). */
static int keep(bl_pyreader *rd, const bl_pynode *n) {
  if (n->ident_end <= n->ident) return 0;
  if (rd->nocc == rd->cap_occ) {
    size_t nc = rd->cap_occ ? rd->cap_occ * 2 : 256;
    const bl_pynode **v = boxlint__realloc(rd->m, rd->occ, rd->cap_occ * sizeof *v, nc * sizeof *v);
    if (!v) return -1;
    rd->occ = v;
    rd->cap_occ = nc;
  }
  rd->occ[rd->nocc++] = n;
  return 0;
}

int bl_py_names(bl_pyreader *rd) {
  if (rd->names_done) return 0;
  if (rd->frozen) { /* the tree is no longer read (cache.c) */
    rd->stale = 1;
    return 0;
  }
  rd->names_done = 1;
  for (size_t i = 0; i < rd->nocc; i++) {
    const bl_pynode *n = rd->occ[i];
    if (n->kind != BL_PK_ATTRIBUTE) {
      if (occurrence(rd, n)) return -1;
      continue;
    }
    bl_pyname *b = node_name(rd, n);
    if (!b) return -1;
    bad(rd, b, "a name that is also an attribute's name (the module may be reached as an "
               "object)", n->start);
  }
  return 0;
}

/* Is the identifier of n (or s[a, b)) in reflect.c's table for `where`? */
static int reflect_span(const bl_pyreader *rd, const bl_pynode *n, size_t a, size_t b,
                        unsigned where) {
  if (n->norm && a == n->ident && b == n->ident_end)
    return bl_py_reflect_word(n->norm, n->norm_len, where);
  return b > a && bl_py_reflect_word(rd->s + a, b - a, where);
}

/* Reflection of the table: a name read, an attribute, an imported module or name. */
static void reflection(bl_pyreader *rd, const bl_pynode *n) {
  if (rd->reflect_at) return;
  int hit = 0;
  if (n->kind == BL_PK_NAME)
    hit = (n->flags & BL_PYF_CTX) == BL_PYF_LOAD && reflect_span(rd, n, n->ident, n->ident_end, 1);
  else if (n->kind == BL_PK_ATTRIBUTE)
    hit = reflect_span(rd, n, n->ident, n->ident_end, 2);
  else if (n->kind == BL_PK_ALIAS) {
    const bl_pynode *from = n->parent && n->parent->kind == BL_PK_IMPORTFROM ? n->parent : NULL;
    size_t a = from ? from->ident : n->ident, e = from ? from->ident_end : n->ident_end, d = a;
    while (d < e && rd->s[d] != '.') d++;
    hit = (!from || from->ident2_end == from->ident2) && reflect_span(rd, n, a, d, 4);
    if (!hit && from) { /* from operator import attrgetter */
      size_t p = n->ident_end;
      while (p > n->ident && rd->s[p - 1] != '.') p--;
      hit = reflect_span(rd, n, p, n->ident_end, 3);
    }
  }
  if (hit) rd->reflect_at = n;
}

/* With reflection in the file, every SDK call it reaches is said not-static once, at the call,
 * naming the first reflection and its line (a file-wide effect: reflection may reach any). A
 * file with no SDK call to mark (`timeit.timeit("...")`: the calls may be in the text) and
 * nothing else said not-static is said so once, at the reflection. */
static int reflected_calls(bl_pyreader *rd) {
  const bl_pynode *n = rd->reflect_at;
  if (!n) return 0;
  size_t l = n->ident_end - n->ident;
  size_t outer = 0;
  for (size_t i = 0; i < rd->ncalls; i++) outer += !rd->calls[i].inner;
  if (!outer) /* unless something else is said not-static already */
    return rd->nrefs ? 0 : bl_py_add_ref(rd, n, "reflection or code run from text");
  uint32_t line, col;
  bl_py_line_col(rd->s, rd->n, n->start, &line, &col);
  char *why = boxlint__arena_alloc(&rd->arena, rd->m, 200);
  if (!why) return -1;
  snprintf(why, 200, "reflection or code run from text in the file (%.*s at line %u) may change "
           "this call", (int)(l > 40 ? 40 : l), rd->s + n->ident, (unsigned)line);
  for (size_t i = 0; i < rd->ncalls; i++) {
    const bl_pycall *c = &rd->calls[i];
    if (c->inner) continue;
    if (bl_py_add_call_ref(rd, c, why)) return -1;
  }
  return 0;
}

/* What one node says: an SDK call, a reference, a taint; names are kept for later. */
static int visit(bl_pyreader *rd, const bl_pynode *n) {
  if (n->kind == BL_PK_NAME || n->kind == BL_PK_ATTRIBUTE || n->kind == BL_PK_ALIAS)
    reflection(rd, n);
  switch (n->kind) {
  case BL_PK_NAME:
    if (keep(rd, n)) return -1;
    return special(rd, n) ? sdk_reference(rd, n) || taints(rd, n) : 0;
  case BL_PK_NAMEDEF: return keep(rd, n);
  case BL_PK_ATTRIBUTE:
    if (keep(rd, n)) return -1;
    if (!special(rd, n)) return 0;
    if (bl_py_attr_is(rd, n, "code_interpreter")) rd->has_ci = 1;
    return sdk_reference(rd, n) || taints(rd, n);
  case BL_PK_CONSTANT: return string_constant(rd, n) || sdk_string(rd, n);
  case BL_PK_CALL: {
    const bl_pynode *f = bl_py_child(n, BL_PR_FUNC);
    if (!special(rd, f)) return 0;
    int k = bl_py_sdk_call(rd, n);
    int rc = k >= 0 ? bl_py_add_call(rd, k, n) : attribute_by_text(rd, n);
    return rc ? rc : exec_call(rd, n);
  }
  case BL_PK_ALIAS: case BL_PK_IMPORTFROM: return sdk_reference(rd, n) || taints(rd, n);
  default: return 0;
  }
}

int bl_py_analyze(bl_pyreader *rd, const bl_pynode *root) {
  for (const bl_pynode *n = root; n; n = bl_py_next(n))
    if (visit(rd, n) || rd->oom) return -1;
  if (rd->has_ci && bl_py_aliases(rd, root)) return -1;
  if (bl_py_shadowed_calls(rd) || reflected_calls(rd)) return -1;
  return bl_py_calls_through(rd, root);
}


/* The reader of SDK calls: from the tokens (tokens.c) it finds every `templates.create`,
 * `templates.update`, `add_code_interpreter` and `NetworkPolicy` call, reads their arguments as
 * Python values where they are literals (literal.c decodes the strings), records the names bound
 * at module level (and how often each name is bound anywhere), and the `# boxlint: ignore=`
 * comments. Anything that is known only at run time becomes a DYNAMIC value naming what it is.
 * Calls tokens.c and literal.c. */
#include <string.h>
#include "python/python_int.h"

#define TOK(rd, i) (&(rd)->toks.v[(rd)->sig[(i)]])

static int op_is(const bl_pyreader *rd, size_t i, const char *op) {
  if (i >= rd->nsig) return 0;
  const bl_pytok *t = TOK(rd, i);
  size_t l = strlen(op);
  return t->kind == BL_PT_OP && t->end - t->start == l && !memcmp(rd->s + t->start, op, l);
}

static int name_is(const bl_pyreader *rd, size_t i, const char *name) {
  if (i >= rd->nsig) return 0;
  const bl_pytok *t = TOK(rd, i);
  size_t l = strlen(name);
  return t->kind == BL_PT_NAME && t->end - t->start == l && !memcmp(rd->s + t->start, name, l);
}

static int kind_is(const bl_pyreader *rd, size_t i, bl_pytok_kind k) {
  return i < rd->nsig && TOK(rd, i)->kind == k;
}

static bl_pyval *new_val(bl_pyreader *rd, bl_pv_kind k, size_t i) {
  bl_pyval *v = boxlint__arena_alloc(&rd->arena, rd->m, sizeof *v);
  if (!v) {
    rd->oom = 1;
    return NULL;
  }
  memset(v, 0, sizeof *v);
  v->kind = k;
  v->start = i < rd->nsig ? TOK(rd, i)->start : rd->n;
  v->end = i < rd->nsig ? TOK(rd, i)->end : rd->n;
  v->next_free = rd->vals;
  rd->vals = v;
  return v;
}

static void syntax(bl_pyreader *rd, size_t off, const char *msg) {
  if (!rd->err) {
    rd->err = msg;
    rd->err_off = off;
  }
}

/* Does the expression end at token i (a comma, a closer, the end of the statement)? */
static int at_end(const bl_pyreader *rd, size_t i) {
  if (i >= rd->nsig) return 1;
  const bl_pytok *t = TOK(rd, i);
  if (t->kind == BL_PT_NEWLINE || t->kind == BL_PT_ENDMARKER) return 1;
  return op_is(rd, i, ",") || op_is(rd, i, ")") || op_is(rd, i, "]") || op_is(rd, i, "}") ||
         op_is(rd, i, ":") || op_is(rd, i, ";") || op_is(rd, i, "=");
}

/* Skip the rest of an expression from token i: up to a comma or closer at this depth. */
static size_t skip_expr(const bl_pyreader *rd, size_t i) {
  int depth = 0;
  for (; i < rd->nsig; i++) {
    const bl_pytok *t = TOK(rd, i);
    if (t->kind == BL_PT_NEWLINE || t->kind == BL_PT_ENDMARKER) break;
    if (op_is(rd, i, "(") || op_is(rd, i, "[") || op_is(rd, i, "{")) depth++;
    else if (op_is(rd, i, ")") || op_is(rd, i, "]") || op_is(rd, i, "}")) {
      if (!depth) break;
      depth--;
    } else if (!depth && (op_is(rd, i, ",") || op_is(rd, i, ":") || op_is(rd, i, ";") ||
                          op_is(rd, i, "=")))
      break;
  }
  return i;
}

/* What follows an atom that makes the expression dynamic. */
static const char *why_after(const bl_pyreader *rd, size_t i) {
  if (op_is(rd, i, "(")) return "a call";
  if (op_is(rd, i, ".")) return "an attribute";
  if (op_is(rd, i, "[")) return "a subscript";
  if (name_is(rd, i, "for") || name_is(rd, i, "async")) return "a comprehension";
  if (name_is(rd, i, "if")) return "a conditional expression";
  return "an expression";
}

static bl_pyval *parse_expr(bl_pyreader *rd, size_t *i);

static bl_pyval *dynamic(bl_pyreader *rd, size_t start, size_t *i, const char *why) {
  bl_pyval *v = new_val(rd, BL_PV_DYNAMIC, start);
  size_t e = skip_expr(rd, *i);
  if (v) {
    v->why = why;
    if (e > start) v->end = TOK(rd, e - 1)->end;
  }
  *i = e;
  return v;
}

/* Adjacent string literals, concatenated. */
static bl_pyval *parse_strings(bl_pyreader *rd, size_t *i) {
  bl_pyval *v = new_val(rd, BL_PV_STR, *i);
  if (!v) return NULL;
  uint32_t k = 0;
  size_t np = 0;
  while (kind_is(rd, *i + np, BL_PT_STRING)) np++;
  v->pieces = boxlint__arena_alloc(&rd->arena, rd->m, np * sizeof *v->pieces);
  if (!v->pieces) {
    rd->oom = 1;
    return NULL;
  }
  v->npieces = np;
  v->str.arena = &rd->strs; /* the value lives as long as the reader */
  for (; kind_is(rd, *i, BL_PT_STRING); (*i)++, k++) {
    bl_piece p;
    bl_py_piece(rd->s, TOK(rd, *i), &p);
    v->pieces[k] = p;
    int bytes = (p.flags & BL_LIT_BYTES) != 0;
    if (k && bytes != v->str.is_bytes) syntax(rd, p.start, "cannot mix bytes and nonbytes literals");
    v->str.is_bytes = bytes;
    const char *err = NULL;
    size_t eo = 0;
    int rc = bl_py_decode(rd->m, rd->s, &p, k, &v->str, &err, &eo);
    if (rc < 0) {
      rd->oom = 1;
      return NULL;
    }
    if (rc > 0) syntax(rd, eo, err);
    v->end = p.end;
  }
  int tmpl = 0;
  for (size_t k2 = 0; k2 < np; k2++) tmpl |= (v->pieces[k2].flags & BL_LIT_TEMPLATE) != 0;
  if (tmpl) { /* a Template, never a str (PEP 750) */
    v->kind = BL_PV_DYNAMIC;
    v->why = "a template string";
  } else if (v->str.dynamic) {
    v->kind = BL_PV_DYNAMIC;
    v->why = "an f-string with replacement fields";
  }
  return v;
}

/* An integer literal's value; *overflow when it needs more than 63 bits. */
static int64_t int_value(const char *s, size_t n, int *overflow) {
  unsigned base = 10;
  size_t i = 0;
  if (n > 2 && s[0] == '0') {
    char b = (char)(s[1] | 0x20);
    base = b == 'x' ? 16 : b == 'o' ? 8 : b == 'b' ? 2 : 10;
    if (base != 10) i = 2;
  }
  uint64_t v = 0;
  for (; i < n; i++) {
    if (s[i] == '_') continue;
    unsigned d = s[i] <= '9' ? (unsigned)(s[i] - '0') : (unsigned)((s[i] | 0x20) - 'a' + 10);
    if (v > (UINT64_MAX - d) / base) *overflow = 1;
    v = v * base + d;
  }
  if (v > (uint64_t)INT64_MAX) *overflow = 1;
  return *overflow ? INT64_MAX : (int64_t)v;
}

static bl_pyval *parse_number(bl_pyreader *rd, size_t *i, int neg) {
  const bl_pytok *t = TOK(rd, *i);
  const char *s = rd->s + t->start;
  size_t n = t->end - t->start;
  int is_int = 1;
  for (size_t k = 0; k < n; k++) {
    char c = (char)(s[k] | 0x20);
    if (c == '.' || c == 'j' || (c == 'e' && !(n > 1 && (s[1] | 0x20) == 'x'))) is_int = 0;
  }
  bl_pyval *v = new_val(rd, is_int ? BL_PV_INT : BL_PV_FLOAT, *i);
  (*i)++;
  if (!v || !is_int) return v;
  v->ival = int_value(s, n, &v->overflow);
  if (neg) v->ival = -v->ival;
  return v;
}

/* Elements up to `closer` into v->items (and keys for a dict). */
static int parse_items(bl_pyreader *rd, size_t *i, bl_pyval *v, const char *closer) {
  size_t cap = 0;
  while (*i < rd->nsig && !op_is(rd, *i, closer)) {
    if (op_is(rd, *i, "*") || op_is(rd, *i, "**")) return 1;
    bl_pyval *key = NULL, *e = parse_expr(rd, i);
    if (!e) return -1;
    if (v->kind == BL_PV_DICT || (v->kind == BL_PV_SET && v->nitems == 0 && op_is(rd, *i, ":"))) {
      if (!op_is(rd, *i, ":")) return 1;
      v->kind = BL_PV_DICT;
      (*i)++;
      key = e;
      if (!(e = parse_expr(rd, i))) return -1;
    }
    if (name_is(rd, *i, "for") || name_is(rd, *i, "async")) return 2;
    if (v->nitems == cap) {
      size_t nc = cap ? cap * 2 : 8;
      bl_pyval **ni = boxlint__arena_alloc(&rd->arena, rd->m, nc * sizeof *ni);
      bl_pyval **nk = boxlint__arena_alloc(&rd->arena, rd->m, nc * sizeof *nk);
      if (!ni || !nk) return -1;
      if (cap) {
        memcpy(ni, v->items, cap * sizeof *ni);
        memcpy(nk, v->keys, cap * sizeof *nk);
      }
      v->items = ni;
      v->keys = nk;
      cap = nc;
    }
    v->keys[v->nitems] = key;
    v->items[v->nitems++] = e;
    v->trailing_comma = 0;
    if (op_is(rd, *i, ",")) {
      (*i)++;
      v->trailing_comma = 1;
    } else if (!op_is(rd, *i, closer)) {
      return 1;
    }
  }
  return 0;
}

/* [..], (..), {..}: a display of literals, or DYNAMIC (a comprehension, unpacking). */
static bl_pyval *parse_display(bl_pyreader *rd, size_t *i) {
  size_t start = *i;
  const char *closer = op_is(rd, start, "[") ? "]" : op_is(rd, start, "(") ? ")" : "}";
  bl_pv_kind k = *closer == ']' ? BL_PV_LIST : *closer == ')' ? BL_PV_TUPLE : BL_PV_SET;
  bl_pyval *v = new_val(rd, k, start);
  if (!v) return NULL;
  v->open = TOK(rd, start)->start;
  (*i)++;
  if (k == BL_PV_SET && op_is(rd, *i, "}")) v->kind = BL_PV_DICT;
  int rc = parse_items(rd, i, v, closer);
  if (rc < 0) {
    rd->oom = 1;
    return NULL;
  }
  if (rc > 0) {
    /* The whole display, brackets included, is known only at run time. */
    size_t e = skip_expr(rd, start + 1);
    bl_pyval *d = new_val(rd, BL_PV_DYNAMIC, start);
    if (!d) return NULL;
    d->why = rc == 2 ? "a comprehension" : "unpacking or an expression";
    if (e < rd->nsig && op_is(rd, e, closer)) d->end = TOK(rd, e++)->end;
    else if (e > start) d->end = TOK(rd, e - 1)->end;
    *i = e;
    return d;
  }
  if (!op_is(rd, *i, closer)) return v;
  v->close = TOK(rd, *i)->start;
  v->end = TOK(rd, *i)->end;
  (*i)++;
  /* (x) is x, not a tuple. */
  if (k == BL_PV_TUPLE && v->nitems == 1 && !v->trailing_comma) return v->items[0];
  return v;
}

static bl_pyval *parse_name(bl_pyreader *rd, size_t *i) {
  size_t start = *i;
  if (name_is(rd, start, "True") || name_is(rd, start, "False") || name_is(rd, start, "None")) {
    (*i)++;
    return new_val(rd, BL_PV_CONST, start);
  }
  /* NetworkPolicy(...) or mod.NetworkPolicy(...) */
  size_t j = start;
  while (kind_is(rd, j, BL_PT_NAME) && op_is(rd, j + 1, ".")) j += 2;
  if (name_is(rd, j, "NetworkPolicy") && op_is(rd, j + 1, "(")) {
    bl_pyval *v = new_val(rd, BL_PV_POLICY, start);
    if (!v) return NULL;
    v->open = TOK(rd, j + 1)->start;
    *i = j + 1;
    if (bl_py_call_args(rd, i, &v->args, &v->nargs)) return NULL;
    v->close = TOK(rd, *i - 1)->start;
    v->end = TOK(rd, *i - 1)->end;
    return v;
  }
  (*i)++;
  return new_val(rd, BL_PV_NAME, start);
}

static bl_pyval *parse_atom(bl_pyreader *rd, size_t *i) {
  size_t start = *i;
  if (kind_is(rd, start, BL_PT_STRING)) return parse_strings(rd, i);
  if (kind_is(rd, start, BL_PT_NUMBER)) return parse_number(rd, i, 0);
  if ((op_is(rd, start, "-") || op_is(rd, start, "+")) && kind_is(rd, start + 1, BL_PT_NUMBER)) {
    (*i)++;
    bl_pyval *v = parse_number(rd, i, op_is(rd, start, "-"));
    if (v) v->start = TOK(rd, start)->start;
    return v;
  }
  if (op_is(rd, start, "[") || op_is(rd, start, "(") || op_is(rd, start, "{"))
    return parse_display(rd, i);
  if (name_is(rd, start, "lambda")) {
    /* Its parameters end at the ':' that starts its body. */
    size_t j = skip_expr(rd, start + 1);
    while (op_is(rd, j, "=") || op_is(rd, j, ",")) j = skip_expr(rd, j + 1); /* x=1, y */
    *i = op_is(rd, j, ":") ? j + 1 : j;
    bl_pyval *d = dynamic(rd, *i, i, "a lambda");
    if (d) d->start = TOK(rd, start)->start;
    return d;
  }
  if (name_is(rd, start, "await")) return dynamic(rd, start, i, "an await expression");
  if (kind_is(rd, start, BL_PT_NAME)) return parse_name(rd, i);
  return dynamic(rd, start, i, "an expression");
}

static bl_pyval *parse_expr(bl_pyreader *rd, size_t *i) {
  size_t start = *i;
  bl_pyval *v = parse_atom(rd, i);
  if (!v || v->kind == BL_PV_DYNAMIC || at_end(rd, *i)) return v;
  /* `x for ...`: the display or the call around it is a comprehension or a generator. */
  if (name_is(rd, *i, "for") || name_is(rd, *i, "async")) return v;
  const char *why = why_after(rd, *i);
  if (v->kind == BL_PV_NAME && op_is(rd, *i, "(")) why = "a call";
  return dynamic(rd, start, i, why);
}

/* The arguments of a call, from its '(' at token *i to past its ')'. */
int bl_py_call_args(bl_pyreader *rd, size_t *i, bl_pyarg **args, size_t *nargs) {
  size_t cap = 0;
  (*i)++;
  *args = NULL;
  *nargs = 0;
  while (*i < rd->nsig && !op_is(rd, *i, ")")) {
    bl_pyarg a;
    memset(&a, 0, sizeof a);
    a.star = op_is(rd, *i, "*") ? 1 : op_is(rd, *i, "**") ? 2 : 0;
    if (a.star) (*i)++;
    if (!a.star && kind_is(rd, *i, BL_PT_NAME) && op_is(rd, *i + 1, "=")) {
      a.name = TOK(rd, *i)->start;
      a.name_end = TOK(rd, *i)->end;
      *i += 2;
    }
    size_t vs = *i;
    a.v = a.star ? dynamic(rd, vs, i, a.star == 1 ? "*args" : "**kwargs") : parse_expr(rd, i);
    if (!a.v) return -1;
    if (name_is(rd, *i, "for") || name_is(rd, *i, "async")) a.v = dynamic(rd, vs, i, "a generator");
    if (!a.v) return -1;
    if (*nargs == cap) {
      size_t nc = cap ? cap * 2 : 8;
      bl_pyarg *na = boxlint__arena_alloc(&rd->arena, rd->m, nc * sizeof *na);
      if (!na) return -1;
      if (cap) memcpy(na, *args, cap * sizeof *na);
      *args = na;
      cap = nc;
    }
    /* Repeated keywords and positional arguments after keywords are the parser's errors
     * (parse.c), the repeated ones the signature check's (check.c). */
    (*args)[(*nargs)++] = a;
    if (op_is(rd, *i, ",")) (*i)++;
    else if (!op_is(rd, *i, ")")) *i = skip_expr(rd, *i + 1);
  }
  if (*i < rd->nsig) (*i)++;
  return 0;
}

bl_pyval *bl_py_parse_expr(bl_pyreader *rd, size_t *i) { return parse_expr(rd, i); }

bl_pyval *bl_py_parse_policy(bl_pyreader *rd, size_t *i) { return parse_name(rd, i); }

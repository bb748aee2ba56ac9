/* The file-wide pass of the reader: the significant tokens, the suppression comments, every name
 * the file binds (and how often), the module-level `NAME = literal` bindings, and the SDK calls
 * (reader.c reads their arguments). Resolves a name used as an argument to its literal. Calls
 * tokens.c, literal.c and reader.c. */
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

static int is_name(const bl_pyreader *rd, size_t i) {
  return i < rd->nsig && TOK(rd, i)->kind == BL_PT_NAME;
}

/*----------------------------------------------------------------------------------------------
 * Names bound in the file
 *--------------------------------------------------------------------------------------------*/

static size_t hash(const char *s, size_t n) {
  size_t h = 1469598103934665603u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211u;
  return h;
}

static struct bl_pybind *bind_slot(bl_pyreader *rd, size_t s, size_t e) {
  size_t mask = rd->cap_binds - 1;
  for (size_t h = hash(rd->s + s, e - s) & mask;; h = (h + 1) & mask) {
    struct bl_pybind *b = &rd->binds[h];
    if (!b->name_end) return b;
    if (b->name_end - b->name == e - s && !memcmp(rd->s + b->name, rd->s + s, e - s)) return b;
  }
}

/* Count a binding of the name token i; `expr` the module-level literal's first token or
 * SIZE_MAX. */
static int bind(bl_pyreader *rd, size_t i, size_t expr) {
  if (!is_name(rd, i)) return 0;
  if ((rd->nbinds + 1) * 2 > rd->cap_binds) {
    size_t nc = rd->cap_binds ? rd->cap_binds * 2 : 64;
    struct bl_pybind *old = rd->binds;
    size_t oc = rd->cap_binds;
    rd->binds = boxlint__malloc(rd->m, nc * sizeof *rd->binds);
    if (!rd->binds) {
      rd->binds = old;
      return -1;
    }
    memset(rd->binds, 0, nc * sizeof *rd->binds);
    rd->cap_binds = nc;
    for (size_t k = 0; k < oc; k++)
      if (old[k].name_end) *bind_slot(rd, old[k].name, old[k].name_end) = old[k];
    boxlint__free(rd->m, old);
  }
  const bl_pytok *t = TOK(rd, i);
  struct bl_pybind *b = bind_slot(rd, t->start, t->end);
  if (!b->name_end) {
    b->name = t->start;
    b->name_end = t->end;
    rd->nbinds++;
  }
  b->count++;
  b->expr = b->count == 1 ? expr : SIZE_MAX;
  return 0;
}

static int is_open(const bl_pyreader *rd, size_t i) {
  return op_is(rd, i, "(") || op_is(rd, i, "[") || op_is(rd, i, "{");
}
static int is_close(const bl_pyreader *rd, size_t i) {
  return op_is(rd, i, ")") || op_is(rd, i, "]") || op_is(rd, i, "}");
}

static int is_augassign(const bl_pyreader *rd, size_t i) {
  static const char *const ops[] = {"+=", "-=", "*=", "/=", "//=", "%=", "**=", ">>=", "<<=",
                                    "&=", "|=", "^=", "@=", ":="};
  for (size_t k = 0; k < sizeof ops / sizeof *ops; k++)
    if (op_is(rd, i, ops[k])) return 1;
  return 0;
}

/* The names a statement [a, b) binds, by keyword (def, class, import, for, as, global, del). */
static int keyword_binds(bl_pyreader *rd, size_t a, size_t b) {
  for (size_t i = a; i < b; i++) {
    if (name_is(rd, i, "def") || name_is(rd, i, "class") || name_is(rd, i, "as") ||
        name_is(rd, i, "global") || name_is(rd, i, "nonlocal") || name_is(rd, i, "del") ||
        name_is(rd, i, "import")) {
      for (size_t j = i + 1; j < b && (is_name(rd, j) || op_is(rd, j, ",") || op_is(rd, j, ".") ||
                                       op_is(rd, j, "(")); j++)
        if (is_name(rd, j) && !op_is(rd, j - 1, ".") && !name_is(rd, j, "as") &&
            !op_is(rd, j + 1, ".") && bind(rd, j, SIZE_MAX))
          return -1;
    } else if (name_is(rd, i, "for")) {
      for (size_t j = i + 1; j < b && !name_is(rd, j, "in"); j++)
        if (is_name(rd, j) && bind(rd, j, SIZE_MAX)) return -1;
    } else if (is_augassign(rd, i) && is_name(rd, i - 1) && bind(rd, i - 1, SIZE_MAX)) {
      return -1;
    }
  }
  return 0;
}

/* One statement [a, b): its assignment targets, and a module-level `NAME = expr`. */
static int statement(bl_pyreader *rd, size_t a, size_t b, int module_level) {
  size_t last_eq = SIZE_MAX;
  int depth = 0;
  for (size_t i = a; i < b; i++) {
    if (is_open(rd, i)) depth++;
    else if (is_close(rd, i)) depth--;
    else if (!depth && op_is(rd, i, "=")) last_eq = i;
  }
  if (keyword_binds(rd, a, b)) return -1;
  /* NAME.append(...), NAME[0] = ...: the value bound is changed, so it is not the literal. */
  if (is_name(rd, a) && (op_is(rd, a + 1, ".") || op_is(rd, a + 1, "[")) && bind(rd, a, SIZE_MAX))
    return -1;
  if (last_eq == SIZE_MAX) return 0;
  /* NAME = expr, NAME = NAME = expr, NAME: annotation = expr */
  int simple = module_level && is_name(rd, a) &&
               (op_is(rd, a + 1, "=") || op_is(rd, a + 1, ":"));
  depth = 0;
  for (size_t i = a; i < last_eq; i++) {
    if (is_open(rd, i)) depth++;
    else if (is_close(rd, i)) depth--;
    else if (!depth && is_name(rd, i) && !op_is(rd, i - 1, ".") && !op_is(rd, i + 1, ".") &&
             !op_is(rd, i + 1, "(") && !op_is(rd, i + 1, "[") &&
             !(i > a && op_is(rd, i - 1, ":") && op_is(rd, a + 1, ":"))) {
      if (bind(rd, i, simple && (op_is(rd, i + 1, "=") || op_is(rd, i + 1, ":")) ? last_eq + 1
                                                                                   : SIZE_MAX))
        return -1;
    }
  }
  return 0;
}

static int bindings(bl_pyreader *rd) {
  int level = 0;
  size_t a = 0;
  for (size_t i = 0; i < rd->nsig; i++) {
    const bl_pytok *t = TOK(rd, i);
    int depth_zero_semi = op_is(rd, i, ";");
    if (t->kind == BL_PT_NEWLINE || t->kind == BL_PT_ENDMARKER || t->kind == BL_PT_INDENT ||
        t->kind == BL_PT_DEDENT || depth_zero_semi) {
      if (i > a && statement(rd, a, i, level == 0)) return -1;
      if (t->kind == BL_PT_INDENT) level++;
      if (t->kind == BL_PT_DEDENT) level--;
      a = i + 1;
    }
  }
  return 0;
}

bl_pyval *bl_py_resolve(bl_pyreader *rd, const bl_pyval *name) {
  const bl_pyval *cur = name;
  for (int hops = 0; hops < 16; hops++) {
    const char *why = NULL;
    struct bl_pybind *b = rd->cap_binds ? bind_slot(rd, cur->start, cur->end) : NULL;
    if (!b || !b->name_end) why = "a name the file does not bind at module level";
    else if (b->count > 1) why = "a name bound more than once";
    else if (b->expr == SIZE_MAX) why = "a name not bound to a literal at module level";
    if (!why && !b->value) {
      size_t i = b->expr;
      b->value = bl_py_parse_expr(rd, &i);
      if (!b->value) return NULL;
      if (b->value->kind != BL_PV_DYNAMIC && i < rd->nsig && !op_is(rd, i, ";") &&
          TOK(rd, i)->kind != BL_PT_NEWLINE) {
        b->value->kind = BL_PV_DYNAMIC;
        b->value->why = "an expression";
      }
    }
    if (!why && b->value->kind == BL_PV_NAME) {
      cur = b->value;
      continue;
    }
    if (!why && b->value->kind != BL_PV_DYNAMIC) return b->value;
    bl_pyval *d = boxlint__arena_alloc(&rd->arena, rd->m, sizeof *d);
    if (!d) return NULL;
    memset(d, 0, sizeof *d);
    d->kind = BL_PV_DYNAMIC;
    d->start = name->start;
    d->end = name->end;
    d->why = why ? why : b->value->why;
    return d;
  }
  bl_pyval *d = boxlint__arena_alloc(&rd->arena, rd->m, sizeof *d);
  if (d) {
    memset(d, 0, sizeof *d);
    d->kind = BL_PV_DYNAMIC;
    d->start = name->start;
    d->end = name->end;
    d->why = "a chain of names";
  }
  return d;
}

/*----------------------------------------------------------------------------------------------
 * Suppressions and calls
 *--------------------------------------------------------------------------------------------*/

/* `# boxlint: ignore=a,b` or `# boxlint ignore=a,b` (spaces allowed around the punctuation). */
static int suppression(bl_pyreader *rd, const bl_pytok *t) {
  const char *s = rd->s;
  size_t i = t->start + 1, e = t->end;
  while (i < e && (s[i] == ' ' || s[i] == '\t')) i++;
  if (e - i < 7 || memcmp(s + i, "boxlint", 7)) return 0;
  i += 7;
  size_t ws = i;
  while (i < e && (s[i] == ' ' || s[i] == '\t')) i++;
  if (i < e && s[i] == ':') {
    i++;
    while (i < e && (s[i] == ' ' || s[i] == '\t')) i++;
  } else if (i == ws) {
    return 0;
  }
  if (e - i < 6 || memcmp(s + i, "ignore", 6)) return 0;
  i += 6;
  while (i < e && (s[i] == ' ' || s[i] == '\t')) i++;
  if (i >= e || s[i] != '=') return 0;
  i++;
  while (i < e && (s[i] == ' ' || s[i] == '\t')) i++;
  /* The rule list ends at the first blank, as in fragments (`ignore=a,b -- why`). */
  for (size_t j = i; j < e; j++)
    if (s[j] == ' ' || s[j] == '\t') {
      e = j;
      break;
    }
  if (rd->nsups == rd->cap_sups) {
    size_t nc = rd->cap_sups ? rd->cap_sups * 2 : 8;
    bl_pysup *v = boxlint__realloc(rd->m, rd->sups, rd->cap_sups * sizeof *v, nc * sizeof *v);
    if (!v) return -1;
    rd->sups = v;
    rd->cap_sups = nc;
  }
  bl_pysup *p = &rd->sups[rd->nsups++];
  p->start = t->start;
  p->end = t->end;
  p->ids = i;
  p->ids_end = e;
  uint32_t col;
  bl_py_line_col(rd->s, rd->n, t->start, &p->line, &col);
  return 0;
}

static int add_call(bl_pyreader *rd, bl_call_kind k, size_t name_tok, size_t *i) {
  if (rd->ncalls == rd->cap_calls) {
    size_t nc = rd->cap_calls ? rd->cap_calls * 2 : 8;
    bl_pycall *v = boxlint__realloc(rd->m, rd->calls, rd->cap_calls * sizeof *v, nc * sizeof *v);
    if (!v) return -1;
    rd->calls = v;
    rd->cap_calls = nc;
  }
  bl_pycall *c = &rd->calls[rd->ncalls];
  memset(c, 0, sizeof *c);
  c->kind = k;
  c->name = TOK(rd, name_tok)->start;
  c->name_end = TOK(rd, name_tok)->end;
  c->open = TOK(rd, name_tok + 1)->start;
  if (k == BL_CALL_POLICY) {
    /* From the start of `budai.NetworkPolicy`, as a binding's argument is read. */
    size_t j = name_tok;
    while (j >= 2 && op_is(rd, j - 1, ".") && is_name(rd, j - 2)) j -= 2;
    c->policy = bl_py_parse_policy(rd, &j);
    if (!c->policy) return -1;
  } else {
    size_t j = name_tok + 1;
    if (bl_py_call_args(rd, &j, &c->args, &c->nargs)) return -1;
  }
  rd->ncalls++;
  (void)i;
  return 0;
}

/* The SDK calls, in the order they appear. */
static int calls(bl_pyreader *rd) {
  for (size_t i = 0; i < rd->nsig; i++) {
    if (!is_name(rd, i) || !op_is(rd, i + 1, "(") || name_is(rd, i - 1, "def") ||
        name_is(rd, i - 1, "class") || (i > 0 && name_is(rd, i - 1, "import")))
      continue;
    int k = -1;
    if ((name_is(rd, i, "create") || name_is(rd, i, "update")) && op_is(rd, i - 1, ".") &&
        name_is(rd, i - 2, "templates"))
      k = name_is(rd, i, "create") ? BL_CALL_CREATE : BL_CALL_UPDATE;
    else if (name_is(rd, i, "add_code_interpreter"))
      k = BL_CALL_BIND;
    else if (name_is(rd, i, "NetworkPolicy"))
      k = BL_CALL_POLICY;
    if (k >= 0 && add_call(rd, (bl_call_kind)k, i, &i)) return -1;
  }
  return 0;
}

/* Every string literal of the file is decoded once, for the errors CPython reports; adjacent
 * literals may not mix bytes and str. */
static int strings(bl_pyreader *rd) {
  int prev = -1; /* the previous significant token was a literal: 1 bytes, 0 str */
  for (size_t i = 0; i < rd->toks.n && !rd->err; i++) {
    const bl_pytok *t = &rd->toks.v[i];
    if (t->kind == BL_PT_NL || t->kind == BL_PT_COMMENT) continue;
    if (t->kind != BL_PT_STRING) {
      prev = -1;
      continue;
    }
    bl_piece p;
    bl_py_piece(rd->s, t, &p);
    int bytes = (p.flags & BL_LIT_BYTES) != 0;
    if (prev >= 0 && prev != bytes) {
      rd->err = "cannot mix bytes and nonbytes literals";
      rd->err_off = t->start;
      return 0;
    }
    prev = bytes;
    bl_pystr v;
    memset(&v, 0, sizeof v);
    const char *err = NULL;
    size_t eo = 0;
    int rc = bl_py_decode(rd->m, rd->s, &p, 0, &v, &err, &eo);
    bl_pystr_free(rd->m, &v);
    if (rc < 0) return -1;
    if (rc > 0) {
      rd->err = err;
      rd->err_off = eo;
    }
  }
  return 0;
}

/* A coding declaration (PEP 263) on line 1 or 2 naming another encoding than UTF-8. */
static int other_encoding(const char *s, size_t n) {
  size_t i = 0;
  for (int line = 0; line < 2 && i < n; line++) {
    size_t e = i;
    while (e < n && s[e] != '\n' && s[e] != '\r') e++;
    size_t h = i;
    while (h < e && (s[h] == ' ' || s[h] == '\t' || s[h] == '\f')) h++;
    if (h < e && s[h] == '#') {
      for (size_t k = h; k + 7 < e; k++) {
        if (memcmp(s + k, "coding", 6) || (s[k + 6] != ':' && s[k + 6] != '=')) continue;
        size_t v = k + 7;
        while (v < e && (s[v] == ' ' || s[v] == '\t')) v++;
        char enc[16];
        size_t l = 0;
        while (v < e && l < sizeof enc - 1 &&
               (boxlint__is_alpha((unsigned char)s[v]) || boxlint__is_digit((unsigned char)s[v]) ||
                s[v] == '-' || s[v] == '_' || s[v] == '.'))
          enc[l++] = (char)boxlint__lower((unsigned char)s[v++]);
        enc[l] = 0;
        return strncmp(enc, "utf-8", 5) && strncmp(enc, "utf_8", 5) && strncmp(enc, "utf8", 4);
      }
    } else if (h < e) {
      return 0; /* code before the declaration: none */
    }
    i = e + (e < n && s[e] == '\r' && e + 1 < n && s[e + 1] == '\n') + 1;
  }
  return 0;
}

/* The offset of the first byte that is not UTF-8, when the file declares no other encoding. */
static int utf8_error(const char *s, size_t n, size_t *off) {
  if (other_encoding(s, n)) return 0;
  for (size_t i = 0; i < n;) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    uint32_t cp;
    size_t l = boxlint__utf8_decode((const unsigned char *)s + i, n - i, &cp);
    if (!l) {
      *off = i;
      return 1;
    }
    i += l;
  }
  return 0;
}

int bl_py_read(bl_pyreader *rd, const boxlint__mem *m, const char *s, size_t n) {
  memset(rd, 0, sizeof *rd);
  rd->m = m;
  rd->s = s;
  rd->n = n;
  if (utf8_error(s, n, &rd->err_off)) {
    rd->err = "the file is not valid UTF-8 (and declares no other encoding)";
    return 0;
  }
  if (bl_py_tokenize(m, s, n, &rd->toks)) return -1;
  if (rd->toks.err) {
    rd->err = rd->toks.err;
    rd->err_off = rd->toks.err_off;
    return 0;
  }
  rd->sig = boxlint__malloc(m, (rd->toks.n + 1) * sizeof *rd->sig);
  if (!rd->sig) return -1;
  for (size_t i = 0; i < rd->toks.n; i++) {
    const bl_pytok *t = &rd->toks.v[i];
    if (t->kind == BL_PT_COMMENT && suppression(rd, t)) return -1;
    if (t->kind != BL_PT_COMMENT && t->kind != BL_PT_NL) rd->sig[rd->nsig++] = i;
  }
  if (strings(rd) || rd->err) return rd->err ? 0 : -1;
  if (bindings(rd) || calls(rd) || rd->oom) return -1;
  return 0;
}

void bl_py_reader_free(bl_pyreader *rd) {
  for (bl_pyval *v = rd->vals; v; v = v->next_free) bl_pystr_free(rd->m, &v->str);
  boxlint__arena_free(&rd->arena, rd->m);
  bl_py_tokens_free(rd->m, &rd->toks);
  boxlint__free(rd->m, rd->sig);
  boxlint__free(rd->m, rd->calls);
  boxlint__free(rd->m, rd->sups);
  boxlint__free(rd->m, rd->binds);
  memset(rd, 0, sizeof *rd);
}

/* An identifier edit that a kept check (cache.c) takes: the edit lies inside one NAME token,
 * outside the lines any SDK call's findings read, and turns an ASCII identifier into another;
 * neither is a keyword, a soft keyword, a dunder, a word the analysis or the resolution looks
 * for (analyze.c, resolve.c, the SDK's parameters), a builtin, a name bound to a reference to
 * the SDK, nor a name the resolution read (bl_pyname.asked). Then every name the check
 * resolved has the same occurrences, the tree the same shape, and the findings only move. */
#include <string.h>
#include "python/cache_int.h"

static const char *const KEYWORDS[] = {
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
    "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if",
    "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
    "while", "with", "yield", "match", "case", "_", "type", "print", "exec"};

/* Identifier-shaped strings that analyze.c, values.c, reader.c and check.c compare names with
 * (what special_word and the builtins do not already hold). */
static const char *const WORDS[] = {
    "NetworkPolicy", "add_code_interpreter", "code_interpreter", "templates", "agents", "create",
    "update", "delete", "get", "getattr_static", "hasattr", "attrgetter", "methodcaller",
    "wait_until_ready", "refresh", "gc", "ctypes", "inspect", "importlib", "builtins", "pickle",
    "code", "runpy", "id", "status", "name", "error_message", "env_id", "agent_id", "template_id",
    "version", "created_at", "updated_at", "project_id", "custom_template_id", "cpu_count",
    "memory_mb", "tool_name", "commands", "lifespan_seconds", "network_policy", "allow_out",
    "deny_out", "interpreter", "Policy", "boxlint",
    /* reach.c's words: a file that names none of them is quiet (reflection says nothing) */
    "budai", "BudClient", "AsyncBudClient", "get_code_interpreter", "remove_code_interpreter"};

static int in_list(const char *w, size_t l, const char *const *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strlen(v[i]) == l && !memcmp(v[i], w, l)) return 1;
  return 0;
}

static int ident_char(unsigned char b) {
  return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_';
}

/* The NAME tokens, [start, end) pairs in c->idents; the names an edit may not touch. */
static int add_name(boxlint_python_cache *c, const char *k, size_t kl, size_t *cap) {
  if (c->names_len + kl + 1 > *cap) {
    size_t nc = (*cap + kl + 1) * 2;
    char *v = boxlint__realloc(&c->mem, c->names, *cap, nc);
    if (!v) return -1;
    c->names = v;
    *cap = nc;
  }
  memcpy(c->names + c->names_len, k, kl);
  c->names[c->names_len + kl] = '\0';
  c->names_len += kl + 1;
  return 0;
}

int bl_py_cache_names(boxlint_python_cache *c) {
  const bl_pyreader *rd = &c->kp.rd;
  size_t cap = 0, n = 0;
  for (size_t i = 0; i < rd->nsig; i++) n += rd->toks.v[rd->sig[i]].kind == BL_PT_NAME;
  c->idents = boxlint__malloc(&c->mem, (2 * n + 1) * sizeof *c->idents);
  c->ident_moves = boxlint__malloc(&c->mem, (2 * n + 2) * sizeof *c->ident_moves);
  if (!c->idents || !c->ident_moves) return -1;
  memset(c->ident_moves, 0, (2 * n + 2) * sizeof *c->ident_moves);
  for (size_t i = 0; i < rd->nsig; i++) {
    const bl_pytok *t = &rd->toks.v[rd->sig[i]];
    if (t->kind != BL_PT_NAME) continue;
    c->idents[c->nidents++] = t->start;
    c->idents[c->nidents++] = t->end;
  }
  c->no_idents = 0;
  for (size_t i = 0; i < rd->cap_names; i++)
    if (rd->names[i] && rd->names[i]->asked &&
        add_name(c, rd->names[i]->key, rd->names[i]->klen, &cap))
      return -1;
  for (size_t i = 0; i < rd->nalias; i++) {
    size_t a = rd->alias[2 * i], b = rd->alias[2 * i + 1];
    if (a == b) c->no_idents = 1; /* not ASCII: compared in NFKC */
    else if (add_name(c, rd->s + a, b - a, &cap)) return -1;
  }
  return 0;
}

/* May identifier w[0..l) be written or unwritten by an edit? */
static int free_name(const boxlint_python_cache *c, const char *w, size_t l) {
  if (!l || (w[0] >= '0' && w[0] <= '9') || (l >= 2 && w[0] == '_' && w[1] == '_')) return 0;
  for (size_t i = 0; i < l; i++)
    if (!ident_char((unsigned char)w[i])) return 0;
  if (in_list(w, l, KEYWORDS, sizeof KEYWORDS / sizeof *KEYWORDS) ||
      in_list(w, l, WORDS, sizeof WORDS / sizeof *WORDS) || bl_py_special_word(w, l) ||
      bl_py_reflect_word(w, l, 7) ||
      bl_py_builtin_word(w, l))
    return 0;
  for (size_t i = 0; i < c->names_len;) {
    size_t k = strlen(c->names + i);
    if (k == l && !memcmp(c->names + i, w, l)) return 0;
    i += k + 1;
  }
  return 1;
}

/* Entry i now: the tree's prefix sum over [0, i] added (Fenwick, 1-based inside). */
size_t bl_py_cache_ident(const boxlint_python_cache *c, size_t i) {
  size_t v = c->idents[i];
  for (size_t k = i + 1; k > 0; k &= k - 1) v += c->ident_moves[k];
  return v;
}

/* Every entry at `at` or past it moves by d: they are a suffix of the sorted entries. */
void bl_py_cache_idents_move(boxlint_python_cache *c, size_t at, size_t d) {
  size_t lo = 0, hi = c->nidents;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (bl_py_cache_ident(c, mid) < at) lo = mid + 1;
    else hi = mid;
  }
  for (size_t k = lo + 1; k <= c->nidents; k += k & (~k + 1)) c->ident_moves[k] += d;
}

/* The NAME token that holds [p, at], as an index into c->idents, or SIZE_MAX. */
static size_t ident_at(const boxlint_python_cache *c, size_t p, size_t at) {
  size_t lo = 0, hi = c->nidents / 2;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (bl_py_cache_ident(c, 2 * mid) <= p) lo = mid + 1;
    else hi = mid;
  }
  if (!lo || at > bl_py_cache_ident(c, 2 * (lo - 1) + 1)) return SIZE_MAX;
  return lo - 1;
}

int bl_py_cache_ident_ok(boxlint_python_cache *c, const char *buf, size_t len, size_t p,
                         size_t at, size_t *move_at) {
  if (c->no_idents || p < c->head) return 0;
  size_t i = ident_at(c, p, at);
  if (i == SIZE_MAX) return 0;
  size_t s = bl_py_cache_ident(c, 2 * i), e0 = bl_py_cache_ident(c, 2 * i + 1);
  size_t e1 = e0 - at + (len - (c->len - at));
  const char *t = c->text;
  if (!free_name(c, t + s, e0 - s) || !free_name(c, buf + s, e1 - s)) return 0;
  /* no string prefix, no number: what follows and precedes stays apart from the name */
  if (s && (ident_char((unsigned char)t[s - 1]) || t[s - 1] == '"' || t[s - 1] == '\'')) return 0;
  if (e1 < len && (ident_char((unsigned char)buf[e1]) || buf[e1] == '"' || buf[e1] == '\''))
    return 0;
  for (size_t k = 0; k < c->ndeps; k++)
    if (c->deps[k].a < e0 && s < c->deps[k].b) return 0;
  /* the names' keys that are this token's bytes: an entry of its own text from now on */
  bl_pyreader *rd = &c->kp.rd;
  for (size_t k = 0; k < rd->cap_names; k++) {
    bl_pyname *b = rd->names[k];
    if (b && (uintptr_t)b->key >= (uintptr_t)(t + s) && (uintptr_t)b->key < (uintptr_t)(t + e0)) {
      char *copy = boxlint__arena_alloc(&rd->arena, rd->m, b->klen + 1);
      if (!copy) return 0;
      memcpy(copy, b->key, b->klen);
      b->key = copy;
    }
  }
  /* bytes typed before the name's first: what starts there (the name) stays where it is */
  *move_at = p == at && p == s ? p + 1 : at;
  return 1;
}

/* What a name stands for (analyze.c found its occurrences): the literal of its one module-level
 * binding when nothing in the file can change it, or why not. Calls analyze.c's name table and
 * bl_py_node_value. */
#include <stdlib.h>
#include <string.h>
#include "python/python_int.h"

static int immutable(const bl_pyval *v) {
  return v->kind == BL_PV_STR || v->kind == BL_PV_INT || v->kind == BL_PV_FLOAT ||
         v->kind == BL_PV_CONST;
}

/* CPython 3.11's builtins (dir(builtins), without the _ names): a module-level binding of one of
 * these names is not what a read sees before it runs (a function called earlier sees the
 * builtin), so such a name is never known. Sorted, for bsearch. */
static const char *const BUILTINS[] = {
    "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BaseExceptionGroup",
    "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError",
    "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError",
    "ConnectionResetError", "DeprecationWarning", "EOFError", "Ellipsis", "EncodingWarning",
    "EnvironmentError", "Exception", "ExceptionGroup", "False", "FileExistsError",
    "FileNotFoundError", "FloatingPointError", "FutureWarning", "GeneratorExit", "IOError",
    "ImportError", "ImportWarning", "IndentationError", "IndexError", "InterruptedError",
    "IsADirectoryError", "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError",
    "ModuleNotFoundError", "NameError", "None", "NotADirectoryError", "NotImplemented",
    "NotImplementedError", "OSError", "OverflowError", "PendingDeprecationWarning",
    "PermissionError", "ProcessLookupError", "RecursionError", "ReferenceError",
    "ResourceWarning", "RuntimeError", "RuntimeWarning", "StopAsyncIteration", "StopIteration",
    "SyntaxError", "SyntaxWarning", "SystemError", "SystemExit", "TabError", "TimeoutError",
    "True", "TypeError", "UnboundLocalError", "UnicodeDecodeError", "UnicodeEncodeError",
    "UnicodeError", "UnicodeTranslateError", "UnicodeWarning", "UserWarning", "ValueError",
    "Warning", "ZeroDivisionError", "abs", "aiter", "all", "anext", "any", "ascii", "bin",
    "bool", "breakpoint", "bytearray", "bytes", "callable", "chr", "classmethod", "compile",
    "complex", "copyright", "credits", "delattr", "dict", "dir", "divmod", "enumerate", "eval",
    "exec", "exit", "filter", "float", "format", "frozenset", "getattr", "globals", "hasattr",
    "hash", "help", "hex", "id", "input", "int", "isinstance", "issubclass", "iter", "len",
    "license", "list", "locals", "map", "max", "memoryview", "min", "next", "object", "oct",
    "open", "ord", "pow", "print", "property", "quit", "range", "repr", "reversed", "round",
    "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple", "type",
    "vars", "zip",
};

static int by_name(const void *k, const void *e) {
  const bl_pyname *b = k;
  const char *n = *(const char *const *)e;
  size_t l = strlen(n);
  int c = memcmp(b->key, n, b->klen < l ? b->klen : l);
  return c ? c : b->klen < l ? -1 : b->klen > l;
}

int bl_py_builtin_word(const char *w, size_t l) {
  bl_pyname b;
  memset(&b, 0, sizeof b);
  b.key = w;
  b.klen = l;
  return bsearch(&b, BUILTINS, sizeof BUILTINS / sizeof *BUILTINS, sizeof *BUILTINS, by_name) != NULL;
}

static int is_builtin(const bl_pyname *b) {
  return bsearch(b, BUILTINS, sizeof BUILTINS / sizeof *BUILTINS, sizeof *BUILTINS, by_name) != NULL;
}

/* Nothing in the file can change what the name holds: bound once, used only as reads carried
 * into SDK calls or module-level literals whose names are themselves clean. */
/* The name's entry is read (cache.c keeps the names a check read): 0, or 1 when the check kept
 * must be done again whole (rd->stale set), since it did not read this one. */
static int ask(bl_pyreader *rd, bl_pyname *b) {
  if (!b || b->asked) return 0;
  if (rd->frozen) {
    rd->stale = 1;
    return 1;
  }
  b->asked = 1;
  return 0;
}

/* Is `len` the builtin wherever it is read (nothing in the file binds it)? */
static int len_builtin(bl_pyreader *rd) {
  const char *k = "len";
  bl_pyname *l = rd->cap_names ? *bl_py_name_slot(rd, k, 3) : NULL;
  if (l && ask(rd, l)) return 0;
  return !l || (!l->nbind && !l->nstore);
}

/* Are the elements a read hands out immutable (str, numbers, constants)? */
static int immutable_items(const bl_pyval *v) {
  if (v->kind != BL_PV_LIST && v->kind != BL_PV_TUPLE && v->kind != BL_PV_SET &&
      v->kind != BL_PV_DICT)
    return immutable(v);
  for (size_t i = 0; i < v->nitems; i++)
    if (!v->items[i] || !immutable(v->items[i])) return 0;
  return 1;
}

static int clean(bl_pyreader *rd, bl_pyname *b, int holder, int depth) {
  if (ask(rd, b)) return 0;
  if (!b || b->nbind != 1 || b->why || (!holder && b->handle_why) || depth > 32) return 0;
  /* the value held is an element of its own: one handed out may be changed */
  if (b->elem_why || (b->len_read && !len_builtin(rd))) return 0;
  /* whether its owners are clean, once per name (a cycle, or a chain past 32, is not) */
  if (b->owners_clean == 1) return 0;
  if (b->owners_clean) return b->owners_clean == 2;
  if (rd->frozen) { /* not asked in the check kept (cache.c): it is done again whole */
    rd->stale = 1;
    return 0;
  }
  b->owners_clean = 1;
  int ok = 1;
  for (const struct bl_pyowner *o = b->owners; o && ok; o = o->next)
    ok = clean(rd, o->name, o->holder, depth + 1);
  b->owners_clean = ok ? 2 : 3;
  return ok;
}

/* The literal a name stands for, or NULL with *why (rd->oom on allocation failure). */
static const bl_pyval *resolve_entry(bl_pyreader *rd, bl_pyname *b, int depth, const char **why) {
  if (ask(rd, b)) {
    *why = "a name not read yet";
    return NULL;
  }
  if (rd->taint) *why = rd->taint;
  else if (!b || !b->nbind) *why = "a name not bound by one module-level assignment";
  else if (is_builtin(b)) *why = "a builtin's name, which reads before the binding see";
  else if (b->why || b->handle_why) *why = b->why ? b->why : b->handle_why;
  else if (depth > 32 || b->state == 1) *why = "a chain of names";
  if (*why) return NULL;
  if (b->state == 3) *why = b->dyn_why;
  if (b->state >= 2) return b->resolved;
  if (rd->frozen) { /* the tree is no longer read (cache.c): the check is done again whole */
    rd->stale = 1;
    *why = "a name not read yet";
    return NULL;
  }
  b->state = 1;
  bl_pyval *v = bl_py_node_value(rd, b->value);
  if (!v) {
    rd->oom = 1;
    return NULL;
  }
  if (v->kind == BL_PV_NAME) {
    const char *k;
    size_t kl;
    bl_pyname *t = NULL;
    if (bl_py_name_key(rd, rd->s + v->start, v->end - v->start, &k, &kl) || !(t = bl_py_name_entry(rd, k, kl))) {
      rd->oom = 1;
      return NULL;
    }
    v = (bl_pyval *)resolve_entry(rd, t, depth + 1, why);
  } else if (v->kind == BL_PV_DYNAMIC) {
    *why = v->why;
    v = NULL;
  }
  if (v && b->elem_why && !immutable_items(v)) *why = b->elem_why;
  if (v && !*why && b->len_read && !len_builtin(rd))
    *why = "a name passed to len, which the file binds";
  if (v && !immutable(v))
    for (struct bl_pyowner *o = b->owners; o && !*why; o = o->next)
      if (!clean(rd, o->name, o->holder, 0))
        *why = "a name whose value another name also holds, and that name may change it";
  b->state = *why ? 3 : 2;
  b->dyn_why = *why;
  b->resolved = *why ? NULL : v;
  return b->resolved;
}

bl_pyval *bl_py_resolve(bl_pyreader *rd, const bl_pyval *name) {
  const char *k;
  size_t kl;
  if (bl_py_names(rd)) {
    rd->oom = 1;
    return NULL;
  }
  if (bl_py_name_key(rd, rd->s + name->start, name->end - name->start, &k, &kl)) return NULL;
  bl_pyname *b = rd->cap_names ? *bl_py_name_slot(rd, k, kl) : NULL;
  const char *why = NULL;
  const bl_pyval *v = resolve_entry(rd, b, 0, &why);
  if (rd->oom) return NULL;
  if (v) return (bl_pyval *)v;
  return bl_py_dynamic(rd, name->start, name->end,
                       why ? why : "a name whose value depends on itself");
}

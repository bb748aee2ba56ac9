/* Whether a Python file can reach the SDK at all: the one predicate that decides whether a file
 * that does not parse is a finding (python-syntax, python-encoding) and whether reflection in a
 * file says anything (analyze.c). Calls ident.c.
 *
 * A file reaches the SDK when it imports `budai` in any form or names one of its calls or
 * resources: an identifier whose NFKC form is one of the words below (CPython folds
 * `ｂｕｄａｉ` to `budai`), or a string literal whose text holds one (`__import__("budai")`,
 * `getattr(c, "code_interpreter")`). What cannot be read as tokens (the rest of a file after
 * the tokenizer's error, a file in an encoding boxlint refuses) is searched as bytes, so that
 * a broken file is quiet only when none of the words appears anywhere in it.
 *
 * A file that reaches the SDK only through a value handed to it (a client passed in as a
 * parameter from another module, then used by getattr with computed names) is out of any
 * static reader's sight: the runtime guard and the platform's own check are for that. */
#include <string.h>

#include "python/encoding.h"
#include "python/python_int.h"

/* The SDK's module, its clients and the names of its calls and resources. */
static const struct {
  const char *w;
  size_t n;
} words[] = {
#define W(s) {s, sizeof s - 1}
    W("budai"),          W("BudClient"),           W("AsyncBudClient"),
    W("NetworkPolicy"),  W("code_interpreter"),    W("add_code_interpreter"),
    W("get_code_interpreter"), W("remove_code_interpreter"),
#undef W
};
enum { NWORDS = sizeof words / sizeof words[0] };

/* Does s[a, b) hold one of the words anywhere? */
static int bytes_hold(const char *s, size_t a, size_t b) {
  for (size_t k = 0; k < NWORDS; k++) {
    const char *w = words[k].w;
    size_t wl = words[k].n;
    for (size_t i = a; i + wl <= b;) {
      const char *p = memchr(s + i, w[0], b - wl + 1 - i);
      if (!p) break;
      if (!memcmp(p, w, wl)) return 1;
      i = (size_t)(p - s) + 1;
    }
  }
  return 0;
}

/* Is the identifier s[a, b) one of the words? 1, 0, -1 out of memory. */
static int name_is(const char *s, size_t a, size_t b) {
  size_t n = b - a;
  int ascii = 1;
  for (size_t i = a; i < b && ascii; i++) ascii = (unsigned char)s[i] < 0x80;
  if (ascii && (n < 5 || n > 23)) return 0; /* shorter than budai, longer than the longest */
  for (size_t k = 0; k < NWORDS; k++) {
    int eq = bl_py_nfkc_equals(s + a, n, words[k].w, words[k].n);
    if (eq) return eq;
  }
  return 0;
}

int bl_py_reaches_sdk(const char *s, size_t n, const bl_pytoks *t) {
  if (!t) return bytes_hold(s, 0, n);
  size_t read = 0; /* the tokens cover s[0, read) */
  for (size_t i = 0; i < t->n; i++) {
    const bl_pytok *k = &t->v[i];
    if (k->end > read) read = k->end;
    if (k->kind == BL_PT_NAME) {
      int r = name_is(s, k->start, k->end);
      if (r) return 1; /* out of memory (-1) too: it may (loud, never a silent pass) */
    } else if (k->kind == BL_PT_STRING && bytes_hold(s, k->start, k->end)) {
      return 1;
    }
  }
  if (t->err) {
    size_t from = t->err_off < read ? t->err_off : read;
    return bytes_hold(s, from, n);
  }
  return 0;
}

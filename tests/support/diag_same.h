/* tests/support/diag_same.h: are two diagnostics the same, field by field (rule, severity,
 * command, path, positions, message, hint, detail, fix)? The oracle of the cached Python
 * check's unit test (tests/unit/check_python_cache.c) and its fuzz target
 * (fuzz/python_cached_fuzzer.c), which compare it with a whole check. */
#ifndef BOXLINT_TESTS_DIAG_SAME_H
#define BOXLINT_TESTS_DIAG_SAME_H

#include <string.h>
#include "boxlint/diag.h"

static inline int diag_same_str(const char *a, const char *b) {
  return (!a && !b) || (a && b && !strcmp(a, b));
}

static inline int diag_same(const boxlint_diag *x, const boxlint_diag *y) {
  int ok = !strcmp(x->rule, y->rule) && x->severity == y->severity &&
           x->command == y->command && diag_same_str(x->path, y->path) && x->line == y->line &&
           x->column == y->column && x->end_line == y->end_line &&
           x->end_column == y->end_column && x->offset == y->offset &&
           x->end_offset == y->end_offset && diag_same_str(x->message, y->message) &&
           diag_same_str(x->hint, y->hint) && diag_same_str(x->detail, y->detail) &&
           (!x->fix) == (!y->fix);
  if (ok && x->fix)
    ok = x->fix->offset == y->fix->offset && x->fix->length == y->fix->length &&
         x->fix->text_len == y->fix->text_len &&
         !memcmp(x->fix->text, y->fix->text, x->fix->text_len) &&
         diag_same_str(x->fix->description, y->fix->description) &&
         x->fix->safety == y->fix->safety;
  return ok;
}

#endif

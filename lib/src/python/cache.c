/* boxlint_check_python_cached: the check of a Python file that an editor checks again after
 * each edit. The cache keeps its own copy of the last text; for now every call is a full check
 * (boxlint_check_python), the contract that a reuse of the last check must keep. */
#include <string.h>
#include "python/python_int.h"

struct boxlint_python_cache {
  boxlint__mem mem;
  char *text; /* the last text checked, and its length */
  size_t len;
};

boxlint_status boxlint_python_cache_new(boxlint_python_cache **out, const boxlint_alloc *alloc) {
  if (!out) return BOXLINT_EINVAL;
  *out = NULL;
  boxlint__mem m;
  boxlint__mem_init(&m, alloc);
  boxlint_python_cache *c = boxlint__malloc(&m, sizeof *c);
  if (!c) return BOXLINT_ENOMEM;
  memset(c, 0, sizeof *c);
  c->mem = m;
  *out = c;
  return BOXLINT_OK;
}

void boxlint_python_cache_free(boxlint_python_cache *c) {
  if (!c) return;
  boxlint__mem m = c->mem;
  boxlint__free(&m, c->text);
  boxlint__free(&m, c);
}

boxlint_status boxlint_check_python_cached(boxlint_python_cache *c, boxlint_report *r,
                                           const char *buf, size_t len,
                                           const boxlint_options *opts,
                                           const boxlint_policy_options *popts) {
  boxlint_status st = boxlint_check_python(r, buf, len, opts, popts);
  if (!c || st == BOXLINT_EINVAL) return st;
  char *t = boxlint__malloc(&c->mem, len ? len : 1);
  if (!t) return st; /* the cache keeps nothing: the next call is a full check */
  if (len) memcpy(t, buf, len);
  boxlint__free(&c->mem, c->text);
  c->text = t;
  c->len = len;
  return st;
}

/* boxlint_python_policies: the NetworkPolicies a Python file writes, handed out as values. Each
 * `NetworkPolicy(...)` call and each `network_policy=` argument of `add_code_interpreter` (a
 * dict or a NetworkPolicy, inline or through a name bound once at module level) is one policy,
 * once even when a binding takes a NetworkPolicy written elsewhere in the file. A policy whose
 * every field is a literal is given as a boxlint_policy_spec (strings copied into the report);
 * one with a part known only when the code runs is given as not static, with what that part
 * is; never guessed. Checking them is boxlint_check_python's: this file reports nothing. Calls
 * encoding.c, reader.c and resolve.c (bl_py_resolve). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "python/python_int.h"
#include "python/encoding.h"
#include "boxlint/source.h"

typedef struct pyp {
  boxlint_report *r;
  bl_pyreader *rd;
  boxlint_python_policy *v;
  size_t n;
  size_t *seen;       /* value start offsets already taken (decoded text) */
} pyp;

static const bl_pyval *resolved(pyp *k, const bl_pyval *v) {
  return v && v->kind == BL_PV_NAME ? bl_py_resolve(k->rd, v) : v;
}

/* Is argument `a` the keyword `kw` (its NFKC form, as Python compares names)? */
static int kw_is(const char *s, const bl_pyarg *a, const char *kw) {
  size_t kl = strlen(kw);
  if (a->norm) return a->norm_len == kl && !memcmp(a->norm, kw, kl);
  return a->name_end - a->name == kl && !memcmp(s + a->name, kw, kl);
}

/* Parameter `pos`/`kw` of a call's arguments; NULL when not given. *star set when an unpacked
 * argument could give it. */
static const bl_pyval *param(pyp *k, const bl_pyarg *args, size_t n, size_t pos, const char *kw,
                             int *star) {
  size_t p = 0;
  const bl_pyval *positional = NULL;
  int after_star = 0;
  for (size_t i = 0; i < n; i++) {
    if (args[i].star) {
      *star = 1;
      after_star |= args[i].star == 1;
    } else if (args[i].name_end > args[i].name) {
      if (kw_is(k->rd->s, &args[i], kw)) return args[i].v;
    } else if (!after_star && p++ == pos) {
      positional = args[i].v;
    }
  }
  return positional;
}

/* Mark the policy not static ("WHAT is WHY, known only when the code runs") or invalid ("WHAT
 * WHY"); the first reason is kept. Returns 0, -1 out of memory. */
static int not_read(pyp *k, boxlint_python_policy *p, boxlint_python_policy_state st,
                    const char *what, const char *why) {
  if (p->state != BOXLINT_PYPOLICY_STATIC) return 0;
  p->state = st;
  p->why = st == BOXLINT_PYPOLICY_NOT_STATIC
               ? boxlint__rprintf(k->r, "%s is %s, known only when the code runs", what, why)
               : boxlint__rprintf(k->r, "%s %s", what, why);
  return p->why ? 0 : -1;
}

static int is_str(const bl_pyval *v) { return v && v->kind == BL_PV_STR && !v->str.is_bytes; }

/* `None`: the SDK's default; True, False and `...` are of the wrong type (check.c says so). */
static int is_none(const pyp *k, const bl_pyval *v) {
  return v && v->kind == BL_PV_CONST && v->end - v->start == 4 &&
         !memcmp(k->rd->s + v->start, "None", 4);
}

/* One list of the policy (`l` 0 allow_out, 1 deny_out) into spans copied into the report. */
static int read_list(pyp *k, boxlint_python_policy *p, int l, const bl_pyval *v) {
  static const char *const names[] = {"allow_out", "deny_out"};
  if (!v || is_none(k, v)) return 0;
  if (v->kind == BL_PV_DYNAMIC)
    return not_read(k, p, BOXLINT_PYPOLICY_NOT_STATIC, names[l], v->why ? v->why : "dynamic");
  if (v->kind != BL_PV_LIST && v->kind != BL_PV_TUPLE)
    return not_read(k, p, BOXLINT_PYPOLICY_INVALID, names[l], "is not a list of strings");
  boxlint_span *s = boxlint__ralloc(k->r, (v->nitems + 1) * sizeof *s);
  if (!s) return -1;
  for (size_t i = 0; i < v->nitems; i++) {
    const bl_pyval *e = resolved(k, v->items[i]);
    if (!e) return -1;
    char what[32];
    snprintf(what, sizeof what, "%s[%zu]", names[l], i);
    if (e->kind == BL_PV_DYNAMIC) {
      if (not_read(k, p, BOXLINT_PYPOLICY_NOT_STATIC, what, e->why ? e->why : "dynamic")) return -1;
    } else if (!is_str(e)) {
      if (not_read(k, p, BOXLINT_PYPOLICY_INVALID, what, "is not a string")) return -1;
    } else {
      s[i].ptr = boxlint__rstrdup(k->r, e->str.bytes, e->str.len);
      s[i].len = e->str.len;
      if (!s[i].ptr) return -1;
    }
  }
  if (l) p->spec.deny_out = s, p->spec.n_deny = v->nitems;
  else p->spec.allow_out = s, p->spec.n_allow = v->nitems;
  return 0;
}

/* The fields of a policy value (a dict or a NetworkPolicy call). */
static int read_fields(pyp *k, boxlint_python_policy *p, const bl_pyval *v) {
  static const char *const names[] = {"type", "allow_out", "deny_out"};
  for (size_t f = 0; f < 3; f++) {
    const bl_pyval *x = NULL;
    int star = 0;
    if (v->kind == BL_PV_DICT) {
      for (size_t i = 0; i < v->nitems; i++) {
        const bl_pyval *key = v->keys[i];
        if (!key) star = 1; /* **other in the dict */
        else if (is_str(key) && key->str.len == strlen(names[f]) &&
                 !memcmp(key->str.bytes, names[f], key->str.len))
          x = v->items[i];
      }
    } else {
      x = param(k, v->args, v->nargs, f, names[f], &star);
    }
    if (star && !x && not_read(k, p, BOXLINT_PYPOLICY_NOT_STATIC, names[f],
                               "possibly in unpacked arguments"))
      return -1;
    x = resolved(k, x);
    if (k->rd->oom) return -1;
    if (f > 0) {
      if (read_list(k, p, (int)f - 1, x)) return -1;
    } else if (is_str(x)) {
      p->spec.type.ptr = boxlint__rstrdup(k->r, x->str.bytes, x->str.len);
      p->spec.type.len = x->str.len;
      if (!p->spec.type.ptr) return -1;
    } else if (x && x->kind == BL_PV_DYNAMIC) {
      if (not_read(k, p, BOXLINT_PYPOLICY_NOT_STATIC, "type", x->why ? x->why : "dynamic")) return -1;
    } else if (x && !is_none(k, x)) {
      if (not_read(k, p, BOXLINT_PYPOLICY_INVALID, "type", "is not a string")) return -1;
    }
  }
  return 0;
}

/* One policy value (`binding`: a network_policy argument). Returns 0, -1 out of memory. */
static int add(pyp *k, const bl_pyval *v, int binding, const bl_pysrc *src, size_t cap) {
  if (!v || v->kind == BL_PV_CONST) return 0; /* absent or None: no policy */
  for (size_t i = 0; i < k->n; i++)
    if (k->seen[i] == v->start) return 0;
  if (k->n == cap) return 0; /* not reached: one value per call at most */
  boxlint_python_policy *p = &k->v[k->n];
  k->seen[k->n++] = v->start;
  memset(p, 0, sizeof *p);
  p->in_binding = binding;
  p->offset = bl_py_source_offset(src, v->start);
  p->end_offset = bl_py_source_offset(src, v->end);
  bl_py_line_col(k->rd->s, k->rd->n, v->start, &p->line, &p->column);
  if (v->kind == BL_PV_DYNAMIC)
    return not_read(k, p, BOXLINT_PYPOLICY_NOT_STATIC, "network_policy", v->why ? v->why : "dynamic");
  if (v->kind != BL_PV_DICT && v->kind != BL_PV_POLICY)
    return not_read(k, p, BOXLINT_PYPOLICY_INVALID, "network_policy", "is not a dict or a NetworkPolicy");
  return read_fields(k, p, v);
}

static int by_offset(const void *a, const void *b) {
  const boxlint_python_policy *x = a, *y = b;
  return (x->offset > y->offset) - (x->offset < y->offset);
}

static boxlint_status read_all(pyp *k, const bl_pysrc *src) {
  size_t cap = k->rd->ncalls;
  k->v = boxlint__ralloc(k->r, (cap + 1) * sizeof *k->v);
  k->seen = boxlint__ralloc(k->r, (cap + 1) * sizeof *k->seen);
  if (!k->v || !k->seen) return BOXLINT_ENOMEM;
  /* Bindings first, so that a NetworkPolicy a binding takes is counted as the binding's. */
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < k->rd->ncalls; i++) {
      const bl_pycall *c = &k->rd->calls[i];
      if ((c->kind == BL_CALL_BIND) != (pass == 0) || (pass && c->kind != BL_CALL_POLICY)) continue;
      const bl_pyval *v = c->policy;
      bl_pyval inner;
      if (c->inner) { /* a call inside an f-string's replacement field: not read */
        if (c->kind != BL_CALL_POLICY) continue;
        memset(&inner, 0, sizeof inner);
        inner.kind = BL_PV_DYNAMIC;
        inner.start = c->start;
        inner.end = c->end;
        inner.why = "a call inside an f-string's replacement field";
        v = &inner;
      } else if (c->kind == BL_CALL_BIND) {
        int star = 0;
        v = resolved(k, param(k, c->args, c->nargs, 4, "network_policy", &star));
        if (!v && star) { /* a policy the unpacked arguments may give: at the call */
          memset(&inner, 0, sizeof inner);
          inner.kind = BL_PV_DYNAMIC;
          inner.start = c->start;
          inner.end = c->end;
          inner.why = "possibly in unpacked arguments";
          v = &inner;
        }
      }
      if (k->rd->oom || add(k, v, c->kind == BL_CALL_BIND, src, cap)) return BOXLINT_ENOMEM;
    }
  }
  qsort(k->v, k->n, sizeof *k->v, by_offset);
  return k->r->oom ? BOXLINT_ENOMEM : BOXLINT_OK;
}

boxlint_status boxlint_python_policies(boxlint_report *report, const char *buf, size_t len,
                                       const boxlint_python_policy **out, size_t *n) {
  return boxlint_python_policies_opts(report, buf, len, NULL, out, n);
}

boxlint_status boxlint_python_policies_opts(boxlint_report *report, const char *buf, size_t len,
                                            const boxlint_options *opts,
                                            const boxlint_python_policy **out, size_t *n) {
  if (out) *out = NULL;
  if (n) *n = 0;
  if (!report || !out || !n || (!buf && len)) return BOXLINT_EINVAL;
  if (!bl_py_minor_ok(opts)) return BOXLINT_EINVAL;
  if (!buf) buf = "";
  bl_pysrc src;
  bl_pyreader rd;
  memset(&rd, 0, sizeof rd);
  boxlint_status st = BOXLINT_ENOMEM;
  int read = 0;
  if (bl_py_source(&report->mem, buf, len, &src) == 0) {
    /* a broken file that cannot reach the SDK has no policy, and no error either */
    if (src.err) st = bl_py_reaches_sdk(buf, len, NULL) ? BOXLINT_ESYNTAX : BOXLINT_OK;
    else if ((read = 1, bl_py_read(&rd, &report->mem, src.text, src.len, bl_py_minor(opts)) == 0))
      st = !rd.err                                   ? BOXLINT_OK
           : bl_py_reaches_sdk(rd.s, rd.n, &rd.toks) ? BOXLINT_ESYNTAX
                                                     : BOXLINT_OK;
  }
  pyp k = {report, &rd, NULL, 0, NULL};
  if (st == BOXLINT_OK && !src.err && !rd.err) st = read_all(&k, &src);
  if (read) bl_py_reader_free(&rd);
  bl_py_source_free(&report->mem, &src);
  if (st != BOXLINT_OK) return st;
  *out = k.v;
  *n = k.n;
  return BOXLINT_OK;
}

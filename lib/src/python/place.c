/* Moving a call's findings into the Python file: a finding inside a command goes to the
 * character of the literal that produced the offending byte (an escape's backslash), across
 * concatenated pieces and triple-quoted lines; a finding about a field to that value's literal;
 * a policy entry's to the entry (its index in the file's list, dynamic entries counted); the
 * rest to the called name. Fixes become edits of the file (edit.c). Calls edit.c and
 * tokens.c's line counting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "python/python_int.h"
#include "lint/lint_int.h"
#include "report/emit.h"

static int starts(const char *path, const char *prefix, const char **rest) {
  size_t l = strlen(prefix);
  if (strncmp(path, prefix, l)) return 0;
  *rest = path + l;
  return 1;
}

/* A policy path ("network_policy.allow_out[3]", "deny_out", "network_policy") relative to
 * the policy: *list 0/1 or -1, *idx the checked index or SIZE_MAX. Returns 0 if not a policy's. */
static int policy_path(const char *path, int *list, size_t *idx) {
  const char *r = path;
  if (starts(path, "network_policy", &r) && *r == '.') r++;
  else if (!strcmp(path, "network_policy")) r = "";
  *list = -1;
  *idx = SIZE_MAX;
  if (!*r || !strcmp(r, "type")) return 1;
  const char *rest;
  if (starts(r, "allow_out", &rest)) *list = 0;
  else if (starts(r, "deny_out", &rest)) *list = 1;
  else return 0;
  if (*rest == '[') *idx = (size_t)strtoull(rest + 1, NULL, 10);
  return 1;
}

/* The value a field finding is about, or NULL (then the call's name). */
static const bl_pyval *field_value(const bl_pytarget *t, const boxlint_diag *d, size_t *file_idx) {
  /* t->field[] holds create()'s arguments in order; for a binding, [0] template_id, [2] version
   * and [3] lifespan_seconds (lint_int.h's lists) */
  const char *const *tpl = bl_template_fields;
  const char *const bind[] = {bl_binding_params[BL_BP_TEMPLATE_ID], "",
                              bl_binding_params[BL_BP_VERSION],
                              bl_binding_params[BL_BP_LIFESPAN_SECONDS]};
  const char *p = d->path;
  *file_idx = SIZE_MAX;
  if (!p || !strcmp(d->rule, BL_R_MISSING_FIELD) || !strcmp(d->rule, BL_R_UNKNOWN_FIELD))
    return NULL;
  int bindcall = t->call->kind == BL_CALL_BIND;
  for (int f = 0; f < 4; f++)
    if (*(bindcall ? bind : tpl)[f] && !strcmp(p, (bindcall ? bind : tpl)[f])) return t->field[f];
  const bl_pypolicy *pol = t->policy;
  int list;
  size_t idx;
  if (!pol || !policy_path(p, &list, &idx)) return NULL;
  if (list < 0) return pol->type ? pol->type : pol->v;
  const bl_pyval *l = pol->lists[list];
  if (!l) return pol->v;
  if (idx == SIZE_MAX || idx >= pol->nchecked[list] || !pol->map[list]) return l;
  *file_idx = pol->map[list][idx];
  return l->items[*file_idx];
}

/* The keyword argument named like an unknown field. */
static const bl_pyarg *keyword(const char *s, const bl_pycall *c, const char *name) {
  size_t l = strlen(name);
  for (size_t i = 0; i < c->nargs; i++)
    if (c->args[i].name_end - c->args[i].name == l && !memcmp(s + c->args[i].name, name, l))
      return &c->args[i];
  return NULL;
}

/* Where the finding goes: [*a, *b) of the file. */
static void span(const char *s, const bl_pytarget *t, const boxlint_diag *d, size_t *a, size_t *b,
                 const bl_pyval **fv, size_t *file_idx) {
  *a = t->call->name;
  *b = t->call->name_end;
  *fv = NULL;
  *file_idx = SIZE_MAX;
  if (d->command >= 0 && (size_t)d->command < t->ncmds) {
    const bl_pystr *str = &t->cmds[d->command]->str;
    size_t o = d->offset < str->len ? d->offset : str->len;
    size_t e = d->end_offset < str->len ? d->end_offset : str->len;
    *a = str->src[o];
    *b = e > o ? str->src_end[e - 1] : *a;
    *fv = t->cmds[d->command];
    return;
  }
  if (d->path && !strcmp(d->rule, BL_R_UNKNOWN_FIELD)) {
    const bl_pyarg *k = keyword(s, t->call, d->path);
    if (k) {
      *a = k->name;
      *b = k->name_end;
    }
    return;
  }
  const bl_pyval *v = field_value(t, d, file_idx);
  if (v) {
    *a = v->start;
    *b = v->end;
    *fv = v;
  }
}

/* The path with a policy entry's index in the file's list. */
static const char *file_path(boxlint_report *to, const boxlint_diag *d, size_t file_idx) {
  if (!d->path) return NULL;
  const char *br = strrchr(d->path, '[');
  if (file_idx == SIZE_MAX || !br) return boxlint__rstrdup(to, d->path, strlen(d->path));
  return boxlint__rprintf(to, "%.*s[%zu]", (int)(br - d->path), d->path, file_idx);
}

static const char *dup(boxlint_report *to, const char *p) {
  return p ? boxlint__rstrdup(to, p, strlen(p)) : NULL;
}

/* `text` with each "allow_out[N]"/"deny_out[N]" naming the entry's index in the file's list
 * (the policy was checked without the entries known only at run time). */
static const char *remap(boxlint_report *to, const char *text, const bl_pypolicy *pol) {
  const char *na = text && pol ? strstr(text, "allow_out[") : NULL;
  const char *nd = text && pol ? strstr(text, "deny_out[") : NULL;
  if (!na && !nd) return dup(to, text); /* no entry named: the text as it is */
  size_t n = strlen(text), cap = n * 2 + 64, w = 0;
  char *o = boxlint__ralloc(to, cap);
  if (!o) return NULL;
  for (size_t i = 0; i < n && w + 32 < cap;) {
    /* the next "allow_out[" and "deny_out[" at or after i */
    if (na && na < text + i) na = strstr(text + i, "allow_out[");
    if (nd && nd < text + i) nd = strstr(text + i, "deny_out[");
    size_t next = na && (!nd || na < nd) ? (size_t)(na - text) : nd ? (size_t)(nd - text) : n;
    if (next > i) { /* the characters before it, as far as the room goes */
      size_t r = next - i < cap - 32 - w ? next - i : cap - 32 - w;
      memcpy(o + w, text + i, r);
      w += r;
      i += r;
      continue;
    }
    int l = na == text + i ? 0 : 1;
    if (!pol->map[l]) {
      o[w++] = text[i++];
      continue;
    }
    size_t k = i + (l ? 9 : 10), idx = 0, d = k;
    while (d < n && text[d] >= '0' && text[d] <= '9' && d - k < 9) idx = idx * 10 + (size_t)(text[d++] - '0');
    if (d == k || d >= n || text[d] != ']' || idx >= pol->nchecked[l]) {
      o[w++] = text[i++];
      continue;
    }
    /* "%s[%zu]": at most 31 bytes, and w + 32 < cap */
    memcpy(o + w, text + i, k - i); /* the list's name and '[' */
    w += k - i;
    char digits[24];
    size_t nq = 0, v = pol->map[l][idx];
    do {
      digits[nq++] = (char)('0' + v % 10);
      v /= 10;
    } while (v);
    while (nq) o[w++] = digits[--nq];
    o[w++] = ']';
    i = d + 1;
  }
  o[w < cap ? w : cap - 1] = 0;
  return o;
}

/* A hint in JSON's spelling (`add "cpu_count": 2`) in a call's (`pass cpu_count=2`). */
static const char *python_hint(boxlint_report *to, const char *h) {
  if (!h || strncmp(h, "add \"", 5)) return dup(to, h);
  const char *q = strchr(h + 5, '"');
  if (!q || q[1] != ':' || q[2] != ' ') return dup(to, h);
  int value = strchr("\"[{0123456789", q[3]) != NULL; /* a value, or words about one */
  return boxlint__rprintf(to, "pass %.*s%s%s", (int)(q - h - 5), h + 5, value ? "=" : ": ",
                          q + 3);
}

/* The fix of `d` as an edit of the file, or the reason there is none in *why. */
static void fix(boxlint_report *to, const char *s, size_t n, const bl_pytarget *t,
                const boxlint_diag *d, const bl_pyval *fv, boxlint_diag *o) {
  const boxlint_fix *f = d->fix;
  boxlint_fix e;
  const char *why = NULL;
  int ok = 0;
  int list;
  size_t idx;
  const char *desc = remap(to, f->description, t->policy);
  if (d->command >= 0 && fv) {
    ok = bl_py_edit_string(to, s, fv, f->offset, f->length, f->text, f->text_len, &e, &why);
  } else if (t->policy && d->path && policy_path(d->path, &list, &idx)) {
    if (f->length == 0)
      ok = bl_py_edit_insert_deny(to, s, n, t->policy, f->text, f->text_len, &e, &why);
    else if (fv && fv->kind == BL_PV_STR)
      ok = bl_py_edit_string(to, s, fv, 0, fv->str.len, f->text, f->text_len, &e, &why);
  } else if (fv && fv->kind == BL_PV_STR) {
    ok = bl_py_edit_string(to, s, fv, f->offset, f->length, f->text, f->text_len, &e, &why);
  }
  if (ok) {
    boxlint__diag_fix(to, o, e.offset, e.length, e.text, e.text_len, desc ? desc : "");
    boxlint__diag_fix_safety(o, f->safety); /* unsafe in the JSON: unsafe in the file */
  } else {
    const char *h = boxlint__rprintf(to, "%s%s(no automatic fix: %s)", o->hint ? o->hint : "",
                                     o->hint ? " " : "", why ? why : "the value is not one literal");
    if (h) o->hint = h;
  }
}

int bl_py_place(boxlint_report *to, const boxlint_report *from, size_t first, const char *s,
                size_t n, const bl_pytarget *t) {
  for (size_t i = first; i < from->ndiags; i++) {
    const boxlint_diag *d = &from->diags[i];
    int32_t cmd = d->command >= 0 && (size_t)d->command < t->ncmds
                      ? (int32_t)t->cmd_index[d->command] : -1;
    /* A built-in rule's id is static; a user rule's lives in `from`, freed after this call:
     * the report keeps its own copy. */
    const boxlint_rule_info *ri = boxlint_rule_find(d->rule, strlen(d->rule));
    const char *rule = ri ? ri->id : boxlint__rstrdup(to, d->rule, strlen(d->rule));
    boxlint_diag *o = rule ? boxlint__report_add(to, rule, d->severity, cmd) : NULL;
    if (!o) return -1;
    size_t a, b, file_idx;
    const bl_pyval *fv;
    span(s, t, d, &a, &b, &fv, &file_idx);
    o->detail = d->detail;
    o->path = d->command >= 0 && cmd >= 0 ? boxlint__rprintf(to, "commands[%d]", cmd)
                                          : file_path(to, d, file_idx);
    o->message = remap(to, d->message, t->policy);
    const char *h = python_hint(to, d->hint);
    o->hint = remap(to, h, t->policy);
    if (!o->message) {
      o->message = ""; /* out of memory: the report stays well-formed */
      return -1;
    }
    o->offset = a;
    o->end_offset = b;
    /* line and column: check.c's one sweep over the file */
    if (d->fix) fix(to, s, n, t, d, fv, o);
  }
  return to->oom ? -1 : 0;
}

/* boxlint_check_python: each SDK call that reader.c found, checked as the platform would check
 * it. `templates.create` and `.update` as a template (lint/), `add_code_interpreter` as a binding
 * (lint/binding.c) with its network_policy, a `NetworkPolicy(...)` on its own as a policy
 * (policy/). Arguments known only at run time are reported as not-static and left out.
 * place.c moves each finding into the file; the suppressions are applied here. Calls
 * reader.c, scan.c, place.c, lint/ and policy/ through the public API. */
#include <string.h>
#include "python/python_int.h"
#include "lint/lint_int.h"
#include "report/emit.h"
#include "python/encoding.h"
#include "boxlint/source.h"

typedef struct pyck {
  boxlint_report *r;       /* the caller's */
  boxlint_report *tmp;     /* one call's checks */
  bl_pyreader *rd;
  const boxlint_options *opts;
  const boxlint_policy_options *popts;
  const size_t *done;      /* policy values already checked (their start offsets) */
  size_t ndone;
} pyck;

static const char *const CALL_NAME[] = {"templates.create", "templates.update",
                                        "add_code_interpreter", "NetworkPolicy"};

/* The not-static info for argument `what` of `call`. */
/* not-static's severity: info, or what a project's config sets (it may switch it off; no
 * comment in the file can). */
static boxlint_severity not_static_severity(const pyck *k) {
  return boxlint_config_get_severity(k->opts->config, BL_R_NOT_STATIC, sizeof BL_R_NOT_STATIC - 1,
                                     BOXLINT_SEVERITY_INFO);
}

static int not_static(pyck *k, const bl_pycall *call, const char *what, const bl_pyval *v) {
  boxlint_severity sev = not_static_severity(k);
  if (sev == BOXLINT_SEVERITY_OFF) return 0;
  boxlint_diag *d = boxlint__report_add(k->r, BL_R_NOT_STATIC, sev, -1);
  if (!d) return -1;
  d->path = what;
  int plural = !strcmp(what, "the arguments");
  d->message = boxlint__rmsg(k->r, "%s of %s %s %s, known only when the code runs: not "
                             "checked", what, CALL_NAME[call->kind], plural ? "are" : "is",
                             v->why ? v->why : "dynamic");
  d->hint = "give the value as a literal, or as a name bound once at module level to one";
  d->offset = v->start;
  d->end_offset = v->end;
  return k->r->oom ? -1 : 0;
}

/* A value with names resolved; NULL when out of memory. */
static const bl_pyval *value(pyck *k, const bl_pyval *v) {
  if (v && v->kind == BL_PV_NAME) return bl_py_resolve(k->rd, v);
  return v;
}

/* The argument that fills parameter `pos` (or keyword `kw`) of a call; NULL when not given.
 * Sets *unknown when a *args or **kwargs could be giving it. */
static const bl_pyval *arg(const bl_pyarg *args, size_t n, size_t pos, const char *kw,
                           int *unknown) {
  size_t p = 0;
  size_t kl = strlen(kw);
  for (size_t i = 0; i < n; i++) {
    if (args[i].star) {
      *unknown = 1;
      if (args[i].star == 1) return NULL; /* the positions after *args are not known */
      continue;
    }
    if (args[i].name_end == args[i].name) {
      if (p++ == pos) return args[i].v;
    }
  }
  (void)kl;
  return NULL;
}

/* Is argument a the keyword kw (its NFKC form, as Python compares names)? */
static int kw_is(const char *s, const bl_pyarg *a, const char *kw) {
  size_t kl = strlen(kw);
  if (a->norm) return a->norm_len == kl && !memcmp(a->norm, kw, kl);
  return a->name_end - a->name == kl && !memcmp(s + a->name, kw, kl);
}

static const bl_pyval *kwarg(const char *s, const bl_pyarg *args, size_t n, const char *kw) {
  for (size_t i = 0; i < n; i++)
    if (args[i].name_end > args[i].name && kw_is(s, &args[i], kw)) return args[i].v;
  return NULL;
}

/* Parameter `pos`/`kw` of the call: positional or keyword. */
static const bl_pyval *param(pyck *k, const bl_pyarg *args, size_t n, size_t pos, const char *kw,
                             int *unknown) {
  const bl_pyval *v = kwarg(k->rd->s, args, n, kw);
  if (!v) v = arg(args, n, pos, kw, unknown);
  return v;
}

/* A str (bytes are not: the platform takes text, as the SDK's signatures say). */
static int is_str(const bl_pyval *v) { return v && v->kind == BL_PV_STR && !v->str.is_bytes; }

/* `None`, the SDK's default (as if the argument were not given); True, False and `...` are values
 * of the wrong type wherever a field is taken. */
static int is_none(const pyck *k, const bl_pyval *v) {
  return v && v->kind == BL_PV_CONST && v->end - v->start == 4 &&
         !memcmp(k->rd->s + v->start, "None", 4);
}

static int is_list(const bl_pyval *v) {
  return v && (v->kind == BL_PV_LIST || v->kind == BL_PV_TUPLE);
}

/* A type the platform rejects. */
static int bad_type(pyck *k, const char *path, const bl_pyval *v, const char *want) {
  boxlint_diag *d =
      boxlint__report_add(k->r, BL_R_INVALID_ARGUMENT_TYPE, BOXLINT_SEVERITY_ERROR, -1);
  if (!d) return -1;
  d->path = path;
  d->message = boxlint__rmsg(k->r, "%s must be %s%s", path, want,
                             v->kind == BL_PV_STR && v->str.is_bytes ? ", not bytes" : "");
  d->offset = v->start;
  d->end_offset = v->end;
  return k->r->oom ? -1 : 0;
}

/* A number field into `out` (the text of anything that is not an integer). */
static void number(pyck *k, const bl_pyval *v, boxlint_number *out) {
  memset(out, 0, sizeof *out);
  if (!v) return;
  out->present = 1;
  if (v->kind == BL_PV_INT && !v->overflow) {
    out->is_integer = 1;
    out->value = v->ival;
    return;
  }
  const char *q = boxlint__quote(k->tmp, k->rd->s + v->start, v->end - v->start, 40);
  out->text = q ? q : "this value";
}

/*----------------------------------------------------------------------------------------------
 * Policies
 *--------------------------------------------------------------------------------------------*/

/* The fields of a policy value (a dict or NetworkPolicy(...)). Returns 0, -1 out of memory. */
static int policy_fields(pyck *k, const bl_pyval *v, bl_pypolicy *p, const char *prefix) {
  (void)prefix;
  memset(p, 0, sizeof *p);
  p->v = v;
  static const char *const names[] = {"type", "allow_out", "deny_out"};
  for (int f = 0; f < 3; f++) {
    const bl_pyval *x = NULL;
    if (v->kind == BL_PV_DICT) {
      for (size_t i = 0; i < v->nitems; i++) {
        const bl_pyval *key = v->keys[i];
        if (key && key->kind == BL_PV_STR && key->str.len == strlen(names[f]) &&
            !memcmp(key->str.bytes, names[f], key->str.len))
          x = v->items[i];
      }
    } else {
      int unknown = 0;
      x = param(k, v->args, v->nargs, (size_t)f, names[f], &unknown);
    }
    x = value(k, x);
    if (f == 0) p->type = x;
    else p->lists[f - 1] = x;
    if (k->rd->oom) return -1;
  }
  return 0;
}

/* One list of the policy into spans (dynamic entries reported and left out). */
static int policy_list(pyck *k, const bl_pycall *call, bl_pypolicy *p, int l,
                       const char *path, boxlint_span **out, size_t *nout) {
  const bl_pyval *v = p->lists[l];
  *out = NULL;
  *nout = 0;
  if (!v || is_none(k, v)) return 0;
  if (v->kind == BL_PV_DYNAMIC) return not_static(k, call, path, v);
  if (!is_list(v)) return bad_type(k, path, v, "a list of strings");
  *out = boxlint__ralloc(k->tmp, (v->nitems + 1) * sizeof **out);
  p->map[l] = boxlint__ralloc(k->tmp, (v->nitems + 1) * sizeof *p->map[l]);
  if (!*out || !p->map[l]) return -1;
  for (size_t i = 0; i < v->nitems; i++) {
    const bl_pyval *e = value(k, v->items[i]);
    if (!e) return -1;
    const char *ep = boxlint__rprintf(k->r, "%s[%zu]", path, i);
    if (!ep) return -1;
    if (e->kind == BL_PV_DYNAMIC) {
      if (not_static(k, call, ep, e)) return -1;
      continue;
    }
    if (!is_str(e)) {
      if (bad_type(k, ep, e, "a string")) return -1;
      continue;
    }
    (*out)[*nout].ptr = e->str.bytes;
    (*out)[*nout].len = e->str.len;
    p->map[l][(*nout)++] = i;
  }
  p->nchecked[l] = *nout;
  return 0;
}

/* A policy that is not wholly known (a value known only at run time, or of the wrong type):
 * the findings about the lists as a whole, or about the type, would be guesses. */
static void drop_guesses(boxlint_report *tmp, size_t first, int type_unknown) {
  static const char *const lists[] = {BL_R_ALLOW_WITHOUT_EFFECT, BL_R_DENY_WITHOUT_EFFECT,
                                      BL_R_FILTERED_EMPTY_IS_OPEN, BL_R_SHADOWED_ENTRY,
                                      BL_R_DUPLICATE_ENTRY, BL_R_DOMAINS_REQUIRE_DENY_ALL};
  size_t w = first;
  for (size_t i = first; i < tmp->ndiags; i++) {
    const char *rule = tmp->diags[i].rule;
    int gone = type_unknown && (!strcmp(rule, BL_R_INVALID_POLICY_TYPE) ||
                                !strcmp(rule, BL_R_LISTS_NOT_ALLOWED));
    for (size_t j = 0; j < sizeof lists / sizeof *lists; j++) gone |= !strcmp(rule, lists[j]);
    if (!gone) tmp->diags[w++] = tmp->diags[i];
  }
  tmp->ndiags = w;
}

/* Check a policy value; `prefix` "network_policy" in a binding, "" on its own. */
static int check_policy(pyck *k, const bl_pycall *call, const bl_pyval *v, const char *prefix,
                        bl_pypolicy *p) {
  if (policy_fields(k, v, p, prefix)) return -1;
  boxlint_policy_spec spec;
  memset(&spec, 0, sizeof spec);
  const char *pt = *prefix ? "network_policy.type" : "type";
  size_t before = k->r->ndiags;
  int type_unknown = 0;
  if (is_str(p->type)) {
    spec.type.ptr = p->type->str.bytes;
    spec.type.len = p->type->str.len;
  } else if (p->type && !is_none(k, p->type)) {
    if (p->type->kind == BL_PV_DYNAMIC ? not_static(k, call, pt, p->type)
                                       : bad_type(k, pt, p->type, "a string"))
      return -1;
    type_unknown = 1; /* the entries are still checked, as a filtered policy's */
    spec.type.ptr = "filtered";
    spec.type.len = 8;
  }
  boxlint_span *lists[2];
  const char *paths[2] = {*prefix ? "network_policy.allow_out" : "allow_out",
                          *prefix ? "network_policy.deny_out" : "deny_out"};
  for (int l = 0; l < 2; l++)
    if (policy_list(k, call, p, l, paths[l], &lists[l], l ? &spec.n_deny : &spec.n_allow))
      return -1;
  spec.allow_out = lists[0];
  spec.deny_out = lists[1];
  boxlint_policy_options po;
  boxlint_policy_options_init(&po);
  if (k->popts) { /* as much as the caller's version of the struct holds */
    memcpy(&po, k->popts, k->popts->size < sizeof po ? k->popts->size : sizeof po);
    if (po.size > sizeof po) po.size = sizeof po;
  }
  if (!po.config) po.config = k->opts->config; /* the severities the file is checked with */
  po.path_prefix.ptr = prefix;
  po.path_prefix.len = strlen(prefix);
  boxlint_policy *pol = NULL;
  size_t first = k->tmp->ndiags;
  boxlint_status st = boxlint_policy_new(&pol, k->tmp, &spec, &po, &k->r->mem.a);
  boxlint_policy_free(pol);
  if (k->r->ndiags > before) drop_guesses(k->tmp, first, type_unknown);
  return st == BOXLINT_ENOMEM ? -1 : 0;
}

/*----------------------------------------------------------------------------------------------
 * The SDK's signatures: what Python itself refuses with TypeError
 *--------------------------------------------------------------------------------------------*/

typedef struct bl_sig {
  const char *const *params; /* positional-or-keyword, in order */
  size_t nparams, nrequired;
} bl_sig;

/* create(): the template's fields but network_policy (lint_int.h); add_code_interpreter():
 * agent_id, then a binding's fields. */
#define SIG_CREATE bl_template_fields
static const char *const SIG_UPDATE[] = {"template_id", "commands"};
#define SIG_BIND bl_binding_params
static const char *const SIG_POLICY[] = {"type", "allow_out", "deny_out"};
static const bl_sig SIGS[] = {{SIG_CREATE, 4, 4}, {SIG_UPDATE, 2, 2}, {SIG_BIND, 5, 2},
                              {SIG_POLICY, 3, 0}};

/* The call that takes keyword `kw`, when another call does. */
static const char *owner_of(const char *s, const bl_pyarg *a, bl_call_kind not) {
  for (size_t c = 0; c < 4; c++)
    for (size_t i = 0; c != not && i < SIGS[c].nparams; i++)
      if (kw_is(s, a, SIGS[c].params[i]))
        return c == BL_CALL_BIND ? "agents.add_code_interpreter" : CALL_NAME[c];
  return NULL;
}

static int type_error(pyck *k, const char *rule, size_t a, size_t b, const char *msg,
                      const char *hint) {
  boxlint_diag *d = boxlint__report_add(k->r, rule, BOXLINT_SEVERITY_ERROR, -1);
  if (!d) return -1;
  d->offset = a;
  d->end_offset = b;
  d->message = msg;
  d->hint = hint;
  return k->r->oom || !msg ? -1 : 0;
}

/* The nearest parameter of the call to an unknown keyword (edit distance 2 at most). */
static const char *nearest(const char *w, size_t wl, const bl_sig *sg) {
  const char *best = NULL;
  size_t bd = 3;
  for (size_t i = 0; i < sg->nparams; i++) {
    size_t pl = strlen(sg->params[i]), d[32];
    if (wl > 30 || pl > 30) continue;
    for (size_t j = 0; j <= pl; j++) d[j] = j;
    for (size_t x = 1; x <= wl; x++) {
      size_t prev = d[0];
      d[0] = x;
      for (size_t j = 1; j <= pl; j++) {
        size_t t = d[j], c = prev + (w[x - 1] != sg->params[i][j - 1]);
        if (d[j] + 1 < c) c = d[j] + 1;
        if (d[j - 1] + 1 < c) c = d[j - 1] + 1;
        d[j] = c;
        prev = t;
      }
    }
    if (d[pl] < bd) {
      bd = d[pl];
      best = sg->params[i];
    }
  }
  return best;
}

static int unknown_keyword(pyck *k, const bl_pycall *c, const bl_pyarg *a) {
  const char *s = k->rd->s;
  size_t l = a->name_end - a->name;
  const char *w = a->norm ? a->norm : s + a->name;
  size_t wl = a->norm ? a->norm_len : l;
  const char *q = boxlint__quote(k->r, w, wl, 40);
  if (!q) q = "";
  const char *other = owner_of(s, a, c->kind), *near = nearest(w, wl, &SIGS[c->kind]);
  const char *hint = other ? boxlint__rmsg(k->r, "'%s' is an argument of %s, not of %s", q, other,
                                           CALL_NAME[c->kind])
                     : near ? boxlint__rmsg(k->r, "did you mean \"%s\"?", near) : NULL;
  return type_error(k, BL_R_UNKNOWN_ARGUMENT, a->name, a->name_end,
                    boxlint__rmsg(k->r, "%s() got an unexpected keyword argument '%s' (the SDK "
                                  "raises TypeError)", CALL_NAME[c->kind], q), hint);
}

/* Keywords the call's signature does not take, too many positional arguments, an argument given
 * twice, a required one missing: each an error, as Python raises TypeError for them. */
static int signature(pyck *k, const bl_pycall *c, const bl_pyarg *args, size_t nargs) {
  const bl_sig *sg = &SIGS[c->kind];
  unsigned given = 0;
  size_t pos = 0;
  int stars = 0;
  for (size_t i = 0; i < nargs; i++) {
    const bl_pyarg *a = &args[i];
    if (a->star) {
      stars = 1;
      continue;
    }
    size_t p = sg->nparams;
    if (a->name_end == a->name) {
      if (stars) continue;
      p = pos++;
      if (p >= sg->nparams) {
        if (type_error(k, BL_R_UNKNOWN_ARGUMENT, a->v->start, a->v->end,
                       boxlint__rmsg(k->r, "%s() takes %zu positional arguments but %zu were "
                                     "given (the SDK raises TypeError)", CALL_NAME[c->kind],
                                     sg->nparams, pos), NULL))
          return -1;
        continue;
      }
    } else {
      for (p = 0; p < sg->nparams && !kw_is(k->rd->s, a, sg->params[p]); p++) {}
      if (p == sg->nparams) {
        if (unknown_keyword(k, c, a)) return -1;
        continue;
      }
    }
    if ((given >> p & 1u) &&
        type_error(k, BL_R_UNKNOWN_ARGUMENT, a->name_end > a->name ? a->name : a->v->start,
                   a->name_end > a->name ? a->name_end : a->v->end,
                   boxlint__rmsg(k->r, "%s() got multiple values for argument '%s' (the SDK "
                                 "raises TypeError)", CALL_NAME[c->kind], sg->params[p]), NULL))
      return -1;
    given |= 1u << p;
  }
  for (size_t p = 0; !stars && p < sg->nrequired; p++)
    if (!(given >> p & 1u) && (c->kind == BL_CALL_UPDATE || (c->kind == BL_CALL_BIND && !p)) &&
        type_error(k, BL_R_MISSING_FIELD, c->name, c->name_end,
                   boxlint__rmsg(k->r, "%s() is missing the required argument '%s' (the SDK "
                                 "raises TypeError)", CALL_NAME[c->kind], sg->params[p]), NULL))
      return -1;
  return 0;
}

/*----------------------------------------------------------------------------------------------
 * Templates and bindings
 *--------------------------------------------------------------------------------------------*/

/* A template's fields: create()'s parameters, in its order. */
#define TPL_PARAMS SIG_CREATE
static const char *const BIND_PARAMS[] = {"template_id", "agent_id", "version",
                                          "lifespan_seconds", "network_policy"};

/* The commands argument into spans; dynamic elements reported and left out. */
static int commands(pyck *k, const bl_pycall *c, const bl_pyval *v, bl_pytarget *t,
                    boxlint_span **spans) {
  *spans = NULL;
  if (v->kind == BL_PV_DYNAMIC) return not_static(k, c, "commands", v);
  if (!is_list(v)) return bad_type(k, "commands", v, "a list of strings");
  *spans = boxlint__ralloc(k->tmp, (v->nitems + 1) * sizeof **spans);
  t->cmds = boxlint__ralloc(k->tmp, (v->nitems + 1) * sizeof *t->cmds);
  t->cmd_index = boxlint__ralloc(k->tmp, (v->nitems + 1) * sizeof *t->cmd_index);
  if (!*spans || !t->cmds || !t->cmd_index) return -1;
  for (size_t i = 0; i < v->nitems; i++) {
    const bl_pyval *e = value(k, v->items[i]);
    if (!e) return -1;
    const char *ep = boxlint__rprintf(k->r, "commands[%zu]", i);
    if (!ep) return -1;
    if (e->kind == BL_PV_DYNAMIC) {
      if (not_static(k, c, ep, e)) return -1;
    } else if (!is_str(e)) {
      if (bad_type(k, ep, e, "a string")) return -1;
    } else {
      (*spans)[t->ncmds] = (boxlint_span){e->str.bytes, e->str.len};
      t->cmd_index[t->ncmds] = i;
      t->cmds[t->ncmds++] = e;
    }
  }
  return 0;
}

/* Drop the findings [first, end) of tmp about fields that were skipped (`skip` bits) and, for
 * an update, the fields it does not need. */
static void drop(boxlint_report *tmp, size_t first, unsigned skip, int update,
                 const char *const *names, size_t nnames) {
  size_t w = first;
  for (size_t i = first; i < tmp->ndiags; i++) {
    const boxlint_diag *d = &tmp->diags[i];
    int gone = update && !strcmp(d->rule, BL_R_MISSING_FIELD);
    for (size_t f = 0; f < nnames && d->path && !gone; f++)
      if ((skip >> f & 1u) && !strcmp(d->path, names[f])) gone = 1;
    if (!gone) tmp->diags[w++] = *d;
  }
  tmp->ndiags = w;
}

static int check_template(pyck *k, const bl_pycall *c, bl_pytarget *t) {
  boxlint_template tpl;
  memset(&tpl, 0, sizeof tpl);
  unsigned skip = 0;
  int unknown = 0;
  int update = c->kind == BL_CALL_UPDATE;
  for (size_t f = 0; f < (update ? 2u : 4u); f++) {
    const char *kw = update && f == 0 ? "template_id" : TPL_PARAMS[f];
    const bl_pyval *v = value(k, param(k, c->args, c->nargs, f, kw, &unknown));
    if (k->rd->oom) return -1;
    t->field[f] = v;
    if (!v) continue;
    if (v->kind == BL_PV_DYNAMIC && f != 1) {
      skip |= 1u << f;
      if (not_static(k, c, TPL_PARAMS[f], v)) return -1;
      continue;
    }
    if (f == 0 && !is_str(v)) {
      if (bad_type(k, "name", v, "a string")) return -1;
      skip |= 1u;
    } else if (f == 0) {
      tpl.has_name = 1;
      tpl.name = (boxlint_span){v->str.bytes, v->str.len};
    } else if (f == 1) {
      boxlint_span *spans;
      if (commands(k, c, v, t, &spans)) return -1;
      tpl.has_commands = 1;
      tpl.commands = spans;
      tpl.ncommands = t->ncmds;
    } else {
      number(k, v, f == 2 ? &tpl.cpu_count : &tpl.memory_mb);
    }
  }
  boxlint_status st = boxlint_check_template(k->tmp, &tpl, k->opts);
  if (st == BOXLINT_ENOMEM) return -1;
  drop(k->tmp, 0, skip, c->kind == BL_CALL_UPDATE || unknown, TPL_PARAMS, 4);
  return 0;
}

static int check_binding(pyck *k, const bl_pycall *c, bl_pytarget *t, bl_pypolicy *pol) {
  boxlint_binding b;
  memset(&b, 0, sizeof b);
  unsigned skip = 0;
  int unknown = 0;
  static const size_t pos[] = {1, 0, 2, 3, 4}; /* agent_id is the first positional */
  const bl_pyval *vals[5];
  for (size_t f = 0; f < 5; f++) {
    vals[f] = value(k, param(k, c->args, c->nargs, pos[f], BIND_PARAMS[f], &unknown));
    if (k->rd->oom) return -1;
    if (vals[f] && vals[f]->kind == BL_PV_DYNAMIC && f != 1) {
      skip |= 1u << f;
      if (not_static(k, c, BIND_PARAMS[f], vals[f])) return -1;
      vals[f] = NULL;
    }
  }
  t->field[BL_F_TEMPLATE_ID] = vals[0];
  t->field[BL_F_VERSION] = vals[2];
  t->field[BL_F_LIFESPAN] = vals[3];
  if (vals[0]) {
    b.has_template_id = 1;
    if (is_str(vals[0])) b.template_id = (boxlint_span){vals[0]->str.bytes, vals[0]->str.len};
    else {
      b.template_id_not_string = 1;
      b.template_text = boxlint__quote(k->tmp, k->rd->s + vals[0]->start,
                                       vals[0]->end - vals[0]->start, 40);
    }
  }
  number(k, vals[2], &b.version);
  number(k, vals[3], &b.lifespan_seconds);
  if (boxlint_check_binding(k->tmp, &b, k->opts) == BOXLINT_ENOMEM) return -1;
  drop(k->tmp, 0, skip, unknown, BIND_PARAMS, 5);
  const bl_pyval *np = vals[4];
  if (np && !is_none(k, np)) {
    if (np->kind != BL_PV_DICT && np->kind != BL_PV_POLICY)
      return bad_type(k, "network_policy", np, "a dict or a NetworkPolicy");
    if (check_policy(k, c, np, "network_policy", pol)) return -1;
    t->policy = pol;
  }
  return 0;
}

/*----------------------------------------------------------------------------------------------
 * The file
 *--------------------------------------------------------------------------------------------*/

/* `*args`, `**kwargs`: the arguments they give are known only at run time. */
static int stars(pyck *k, const bl_pycall *c, const bl_pyarg *a) {
  const bl_pyval *v = a->v;
  size_t st = v->start;
  while (st > 0 && k->rd->s[st - 1] == '*') st--;
  const char *what = boxlint__rstrdup(k->r, k->rd->s + st, v->end - st);
  if (!what) return -1;
  bl_pyval e = *v;
  e.start = st;
  e.why = a->star == 1 ? "unpacked positional arguments" : "unpacked keyword arguments";
  return not_static(k, c, what, &e);
}

/* One call: its checks into k->tmp, then into the file's report. */
static int check_call(pyck *k, const bl_pycall *c, size_t *policies, size_t *npolicies) {
  bl_pytarget t;
  bl_pypolicy pol;
  memset(&t, 0, sizeof t);
  t.call = c;
  boxlint_report_clear(k->tmp);
  int rc = 0;
  if (c->inner) {
    bl_pyval e;
    memset(&e, 0, sizeof e);
    e.start = c->start;
    e.end = c->end;
    e.why = "a call inside an f-string's replacement field";
    return not_static(k, c, "the arguments", &e);
  }
  /* `create(...)`: the documentation's elided arguments, not a call to check. */
  if (c->nargs == 1 && !c->args[0].star && c->args[0].name_end == c->args[0].name &&
      c->args[0].v->end - c->args[0].v->start == 3 &&
      !memcmp(k->rd->s + c->args[0].v->start, "...", 3)) {
    bl_pyval e = *c->args[0].v;
    e.why = "elided (...)";
    return not_static(k, c, "the arguments", &e);
  }
  const bl_pyarg *args = c->kind == BL_CALL_POLICY ? c->policy->args : c->args;
  size_t nargs = c->kind == BL_CALL_POLICY ? c->policy->nargs : c->nargs;
  for (size_t i = 0; i < nargs; i++)
    if (args[i].star && stars(k, c, &args[i])) return -1;
  if (signature(k, c, args, nargs)) return -1;
  if (c->kind == BL_CALL_CREATE || c->kind == BL_CALL_UPDATE) {
    rc = check_template(k, c, &t);
  } else if (c->kind == BL_CALL_BIND) {
    rc = check_binding(k, c, &t, &pol);
    if (!rc && t.policy) policies[(*npolicies)++] = pol.v->start;
  } else {
    for (size_t i = 0; i < *npolicies; i++)
      if (policies[i] == c->policy->start) return 0; /* checked as a binding's */
    rc = check_policy(k, c, c->policy, "", &pol);
    t.policy = &pol;
  }
  if (rc == 0) rc = bl_py_place(k->r, k->tmp, 0, k->rd->s, k->rd->n, &t);
  return rc || k->tmp->oom ? -1 : 0;
}

/* The references to the SDK that are not direct calls. */
static int references(pyck *k) {
  /* reflection in a file that cannot reach the SDK affects no call of it: nothing to say */
  if (k->rd->nrefs && !bl_py_reaches_sdk(k->rd->s, k->rd->n, &k->rd->toks)) return 0;
  for (size_t i = 0; i < k->rd->nrefs; i++) {
    const bl_pyref *f = &k->rd->refs[i];
    boxlint_severity sev = not_static_severity(k);
    if (sev == BOXLINT_SEVERITY_OFF) return 0;
    boxlint_diag *d = boxlint__report_add(k->r, BL_R_NOT_STATIC, sev, -1);
    if (!d) return -1;
    d->offset = f->start;
    d->end_offset = f->end;
    d->message = boxlint__rmsg(k->r, "%s: the SDK calls made through it are known only when "
                               "the code runs: not checked", f->why);
    d->hint = "call client.code_interpreter.templates.create/update, "
              "client.agents.add_code_interpreter and NetworkPolicy directly, with literal "
              "arguments";
  }
  return k->r->oom ? -1 : 0;
}

/* The file's first syntax error, when the file could reach the SDK; a file that cannot reach it
 * gets nothing at all (BOXLINT_OK), however broken: it is not one that boxlint reads. (Most such
 * files are not even parsed: bl_py_read's quiet; one with a suppression comment is.) */
static boxlint_status syntax_error(boxlint_report *r, const bl_pyreader *rd) {
  if (!bl_py_reaches_sdk(rd->s, rd->n, &rd->toks)) return BOXLINT_OK;
  boxlint_diag *d = boxlint__report_add(r, BL_R_PYTHON_SYNTAX, BOXLINT_SEVERITY_ERROR, -1);
  if (!d) return BOXLINT_ENOMEM;
  d->offset = d->end_offset = rd->err_off;
  bl_py_line_col(rd->s, rd->n, rd->err_off, &d->line, &d->column);
  d->end_line = d->line;
  d->end_column = d->column;
  d->message = boxlint__rprintf(r, "invalid Python: %s", rd->err);
  if (!d->message) d->message = rd->err;
  return r->oom ? BOXLINT_ENOMEM : BOXLINT_ESYNTAX;
}

/* A file whose encoding boxlint cannot read as CPython does: an input error, never a pass. */
static boxlint_status encoding_error(boxlint_report *r, const char *s, size_t n,
                                    const bl_pysrc *src) {
  if (!bl_py_reaches_sdk(s, n, NULL)) return BOXLINT_OK; /* its bytes name nothing of the SDK */
  boxlint_diag *d = boxlint__report_add(r, BL_R_PYTHON_ENCODING, BOXLINT_SEVERITY_ERROR, -1);
  if (!d) return BOXLINT_ENOMEM;
  d->offset = d->end_offset = src->err_off;
  bl_py_line_col(s, n, src->err_off, &d->line, &d->column);
  d->end_line = d->line;
  d->end_column = d->column;
  char buf[256];
  bl_py_source_message(src, buf, sizeof buf);
  d->message = boxlint__rmsg(r, "%s", buf);
  return r->oom ? BOXLINT_ENOMEM : BOXLINT_ESYNTAX;
}

static size_t file_offset(const bl_pysrc *src, size_t off) {
  return bl_py_source_offset(src, off > src->len ? src->len : off);
}

/* Findings [first, end) of a decoded file back to the file's own byte offsets (lines and
 * columns, in code points, are the same). A fix is an edit of the decoded text: one whose text
 * is ASCII is the same edit of the file (every encoding read keeps ASCII as it is); any other
 * is dropped, since writing it would need the file's encoding. */
static void to_file_offsets(boxlint_report *r, size_t first, const bl_pysrc *src) {
  if (!src->map) return;
  for (size_t i = first; i < r->ndiags; i++) {
    boxlint_diag *d = &r->diags[i];
    d->offset = file_offset(src, d->offset);
    d->end_offset = file_offset(src, d->end_offset);
    boxlint_fix *f = (boxlint_fix *)(uintptr_t)d->fix; /* the report's own */
    int ascii = f != NULL;
    for (size_t j = 0; f && j < f->text_len; j++) ascii &= (unsigned char)f->text[j] < 0x80;
    if (!ascii) {
      d->fix = NULL;
      continue;
    }
    size_t a = file_offset(src, f->offset), b = file_offset(src, f->offset + f->length);
    f->offset = a;
    f->length = b - a;
  }
}

/* unused-suppression's severity: the config's; without a config none is reported, as in
 * fragments (the Dockerfile warnings a comment may name did not run). */
boxlint_severity bl_py_unused_severity(const boxlint_options *opts) {
  if (!opts->config) return BOXLINT_SEVERITY_OFF;
  return boxlint_config_get_severity(opts->config, BL_R_UNUSED_SUPPRESSION,
                                     sizeof BL_R_UNUSED_SUPPRESSION - 1, BOXLINT_SEVERITY_WARNING);
}

int bl_py_finish(boxlint_report *r, size_t first, const bl_pyreader *rd,
                 const boxlint_options *opts) {
  if (bl_py_order_and_place(r, first, rd->s, rd->n)) return -1;
  if (bl_py_suppress(r, first, rd, bl_py_unused_severity(opts))) return -1;
  /* what the suppressions reported goes in its place */
  if (rd->nsups && bl_py_order_and_place(r, first, rd->s, rd->n)) return -1;
  return 0;
}

/* Every call (bindings first, so that a policy they take is checked once, as theirs), then the
 * references, into k->r; with kp, each call's findings' range kept. 0, -1 out of memory. */
static int check_calls(pyck *k, size_t *policies, size_t *npol, bl_pykeep *kp) {
  bl_pyreader *rd = k->rd;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < rd->ncalls; i++)
      if ((rd->calls[i].kind == BL_CALL_BIND) == (pass == 0)) {
        if (kp) kp->lo[i] = k->r->ndiags;
        if (check_call(k, &rd->calls[i], policies, npol)) return -1;
        if (kp) kp->hi[i] = k->r->ndiags;
      }
  if (kp) kp->refs_lo = k->r->ndiags;
  return rd->err ? 0 : references(k);
}

static boxlint_status check_text(boxlint_report *r, const char *buf, size_t len,
                                 const boxlint_options *opts, const boxlint_policy_options *popts,
                                 bl_pykeep *kp) {
  bl_pyreader own, *rd = kp ? &kp->rd : &own;
  pyck k = {kp ? kp->raw : r, NULL, rd, opts, popts, NULL, 0};
  size_t first = r->ndiags, *policies = NULL, npol = 0;
  boxlint_status st = BOXLINT_ENOMEM;
  if (bl_py_read(rd, kp ? kp->m : &r->mem, buf, len, bl_py_minor(opts))) goto out;
  if (rd->quiet) {
    st = BOXLINT_OK;
    goto out;
  }
  if (rd->err) {
    st = syntax_error(r, rd);
    goto out;
  }
  if (boxlint_report_new(&k.tmp, &r->mem.a) != BOXLINT_OK) goto out;
  policies = boxlint__malloc(kp ? kp->m : &r->mem, (rd->ncalls + 1) * sizeof *policies);
  if (kp) {
    kp->lo = boxlint__malloc(kp->m, (rd->ncalls + 1) * sizeof *kp->lo);
    kp->hi = boxlint__malloc(kp->m, (rd->ncalls + 1) * sizeof *kp->hi);
    if (!kp->lo || !kp->hi) goto out;
  }
  if (!policies || check_calls(&k, policies, &npol, kp)) goto out;
  if (rd->err) {
    r->ndiags = first;
    st = syntax_error(r, rd);
    goto out;
  }
  if (kp && (kp->raw->oom || bl_py_copy_diags(r, kp->raw->diags, kp->raw->ndiags))) goto out;
  if (bl_py_finish(r, first, rd, opts)) goto out;
  st = r->oom ? BOXLINT_ENOMEM : BOXLINT_OK;
out:
  boxlint_report_free(k.tmp);
  if (kp && st == BOXLINT_OK && !rd->err && !rd->quiet) {
    kp->policies = policies;
    kp->npol = npol;
    return st;
  }
  boxlint__free(kp ? kp->m : &r->mem, policies);
  if (kp) bl_py_keep_release(kp);
  else bl_py_reader_free(rd);
  return st;
}

void bl_py_keep_release(bl_pykeep *kp) {
  boxlint__free(kp->m, kp->lo);
  boxlint__free(kp->m, kp->hi);
  boxlint__free(kp->m, kp->policies);
  if (kp->rd.m) bl_py_reader_free(&kp->rd);
  kp->lo = kp->hi = kp->policies = NULL;
  kp->npol = 0;
}

int bl_py_recheck_call(bl_pykeep *kp, boxlint_report *into, boxlint_report *tmp, size_t ci,
                       const boxlint_options *opts, const boxlint_policy_options *popts) {
  pyck k = {into, tmp, &kp->rd, opts, popts, NULL, 0};
  size_t own[1], nown = 0;
  const bl_pycall *c = &kp->rd.calls[ci];
  if (c->kind == BL_CALL_BIND) return check_call(&k, c, own, &nown);
  return check_call(&k, c, kp->policies, &kp->npol);
}

boxlint_status bl_py_check_keep(bl_pykeep *kp, boxlint_report *r, const char *s, size_t n,
                                const boxlint_options *opts, const boxlint_policy_options *popts,
                                int *kept) {
  boxlint_report_clear(kp->raw);
  boxlint_status st = check_text(r, s, n, opts, popts, kp);
  *kept = st == BOXLINT_OK && kp->rd.m != NULL; /* a quiet file is not kept */
  return st;
}

boxlint_status boxlint_check_python(boxlint_report *r, const char *buf, size_t len,
                                    const boxlint_options *opts,
                                    const boxlint_policy_options *popts) {
  if (!r || (!buf && len)) return BOXLINT_EINVAL;
  if (!bl_py_minor_ok(opts)) return BOXLINT_EINVAL;
  if (!buf) buf = "";
  boxlint_options def;
  if (!opts) {
    boxlint_options_init(&def);
    opts = &def;
  }
  bl_pysrc src;
  size_t first = r->ndiags;
  if (bl_py_source(&r->mem, buf, len, &src)) {
    bl_py_source_free(&r->mem, &src);
    return BOXLINT_ENOMEM;
  }
  boxlint_status st = src.err ? encoding_error(r, buf, len, &src)
                              : check_text(r, src.text, src.len, opts, popts, NULL);
  to_file_offsets(r, first, &src);
  bl_py_source_free(&r->mem, &src);
  return st;
}

/* boxlint_check_python_cached: the check of a Python file that an editor checks again after
 * each edit. A whole check (check.c) keeps its reader and each SDK call's findings before they
 * are ordered and suppressed; with them this file keeps the string literals' places, the bytes
 * each call's findings read (the call's lines and those of every value it reaches through a
 * name) and the options by value. cache_edit.c decides whether the next text is an edit that
 * the kept check can take; anything else is a whole check again. */
#include <string.h>
#include "python/cache_int.h"
#include "python/encoding.h"
#include "config/config_int.h"

boxlint_status boxlint_python_cache_new(boxlint_python_cache **out, const boxlint_alloc *alloc) {
  if (!out) return BOXLINT_EINVAL;
  *out = NULL;
  boxlint__mem m;
  boxlint__mem_init(&m, alloc);
  boxlint_python_cache *c = boxlint__malloc(&m, sizeof *c);
  if (!c) return BOXLINT_ENOMEM;
  memset(c, 0, sizeof *c);
  c->mem = m;
  c->kp.m = &c->mem;
  *out = c;
  return BOXLINT_OK;
}

static void cfg_free(boxlint_python_cache *c, bl_pycfg *f) {
  boxlint__free(&c->mem, f->sev);
  memset(f, 0, sizeof *f);
}

/* Everything kept of the last check, but the text. */
static void drop(boxlint_python_cache *c) {
  if (c->kept) bl_py_keep_release(&c->kp);
  c->kept = 0;
  for (size_t i = 0; i < c->nextra; i++) boxlint_report_free(c->extra[i]);
  c->nextra = 0;
  boxlint__free(&c->mem, c->lo);
  boxlint__free(&c->mem, c->hi);
  boxlint__free(&c->mem, c->lits);
  boxlint__free(&c->mem, c->names);
  boxlint__free(&c->mem, c->idents);
  boxlint__free(&c->mem, c->ident_moves);
  c->ident_moves = NULL;
  boxlint__free(&c->mem, c->lines);
  boxlint__free(&c->mem, c->plain);
  c->plain = NULL;
  c->lines = NULL;
  c->nlines = 0;
  c->idents = NULL;
  c->nidents = 0;
  c->lo = c->hi = NULL;
  c->lits = NULL;
  c->names = NULL;
  c->nlits = c->ndeps = c->ncur = c->names_len = 0;
  cfg_free(c, &c->opts.config);
  cfg_free(c, &c->opts.pconfig);
}

void boxlint_python_cache_free(boxlint_python_cache *c) {
  if (!c) return;
  drop(c);
  boxlint__mem m = c->mem;
  boxlint_report_free(c->kp.raw);
  boxlint_report_free(c->tmp);
  boxlint__free(&m, c->extra);
  boxlint__free(&m, c->cur);
  boxlint__free(&m, c->deps);
  boxlint__free(&m, c->text);
  boxlint__free(&m, c);
}

void bl_py_cache_stats(const boxlint_python_cache *c, size_t out[4]) {
  for (int i = 0; i < 4; i++) out[i] = c ? c->stats[i] : 0;
}

/*----------------------------------------------------------------------------------------------
 * The options, by value
 *--------------------------------------------------------------------------------------------*/

/* A config's fingerprint: 0, -1 out of memory, 1 when it cannot be compared by value (user
 * rules: their compiled patterns are not kept as text). */
static int cfg_take(boxlint_python_cache *c, const boxlint_config *cfg, bl_pycfg *f) {
  memset(f, 0, sizeof *f);
  if (!cfg) return 0;
  if (cfg->nrules) return 1;
  f->present = 1;
  f->sev = boxlint__malloc(&c->mem, (BL_NWARNINGS + 1) * sizeof *f->sev);
  if (!f->sev) return -1;
  memcpy(f->sev, cfg->sev, BL_NWARNINGS * sizeof *f->sev);
  f->match_limit = cfg->match_limit;
  f->depth_limit = cfg->depth_limit;
  f->jit = cfg->jit;
  return 0;
}

static int cfg_same(const bl_pycfg *f, const boxlint_config *cfg) {
  if (!cfg) return !f->present;
  return f->present && !cfg->nrules && !memcmp(f->sev, cfg->sev, BL_NWARNINGS * sizeof *f->sev) &&
         f->match_limit == cfg->match_limit && f->depth_limit == cfg->depth_limit &&
         f->jit == cfg->jit;
}

/* The policy options as check.c reads them (as much as the caller's version holds). */
static void popts_read(const boxlint_policy_options *popts, boxlint_policy_options *po) {
  boxlint_policy_options_init(po);
  if (popts) memcpy(po, popts, popts->size < sizeof *po ? popts->size : sizeof *po);
}

static int opts_take(boxlint_python_cache *c, const boxlint_options *o,
                     const boxlint_policy_options *popts) {
  bl_pyopts *f = &c->opts;
  f->max_commands = o->max_commands;
  f->max_command_bytes = o->max_command_bytes;
  f->escape = o->escape;
  f->cpu_min = o->cpu_min;
  f->cpu_max = o->cpu_max;
  f->memory_min = o->memory_min;
  f->memory_max = o->memory_max;
  f->no_instructions = o->no_instructions;
  f->minor = bl_py_minor(o);
  boxlint_policy_options po;
  popts_read(popts, &po);
  f->has_popts = popts != NULL;
  f->max_entries = po.max_entries;
  f->unmatched = (int)po.unmatched;
  f->compat = po.compat;
  int a = cfg_take(c, o->config, &f->config);
  if (a) return a;
  return cfg_take(c, po.config, &f->pconfig);
}

static int opts_same(const boxlint_python_cache *c, const boxlint_options *o,
                     const boxlint_policy_options *popts) {
  const bl_pyopts *f = &c->opts;
  boxlint_policy_options po;
  popts_read(popts, &po);
  return f->max_commands == o->max_commands && f->max_command_bytes == o->max_command_bytes &&
         f->escape == o->escape && f->cpu_min == o->cpu_min && f->cpu_max == o->cpu_max &&
         f->memory_min == o->memory_min && f->memory_max == o->memory_max &&
         f->no_instructions == o->no_instructions && f->minor == bl_py_minor(o) &&
         f->has_popts == (popts != NULL) &&
         f->max_entries == po.max_entries && f->unmatched == (int)po.unmatched &&
         f->compat == po.compat && cfg_same(&f->config, o->config) &&
         cfg_same(&f->pconfig, po.config);
}

/*----------------------------------------------------------------------------------------------
 * Copies of findings
 *--------------------------------------------------------------------------------------------*/

static const char *dup(boxlint_report *r, const char *p) {
  return p ? boxlint__rstrdup(r, p, strlen(p)) : NULL;
}

int bl_py_copy_diags(boxlint_report *r, const boxlint_diag *d, size_t n) {
  for (size_t i = 0; i < n; i++) {
    boxlint_diag *o = boxlint__report_add(r, d[i].rule, d[i].severity, d[i].command);
    if (!o) return -1;
    *o = d[i];
    o->path = dup(r, d[i].path);
    o->message = dup(r, d[i].message);
    o->hint = dup(r, d[i].hint);
    o->detail = dup(r, d[i].detail);
    if (d[i].fix) {
      boxlint_fix *f = boxlint__ralloc(r, sizeof *f);
      if (!f) return -1;
      *f = *d[i].fix;
      f->text = boxlint__rstrdup(r, d[i].fix->text, d[i].fix->text_len);
      f->description = dup(r, d[i].fix->description);
      o->fix = f;
    }
  }
  return r->oom ? -1 : 0;
}

int bl_py_cache_emit(boxlint_python_cache *c, boxlint_report *r, const boxlint_options *opts) {
  size_t first = r->ndiags;
  c->reuses++;
  if (bl_py_copy_diags(r, c->cur, c->ncur)) return -1;
  return bl_py_cache_finish(c, r, first, bl_py_unused_severity(opts));
}

/*----------------------------------------------------------------------------------------------
 * What a whole check keeps
 *--------------------------------------------------------------------------------------------*/

void bl_py_line_span(const char *s, size_t n, size_t start, size_t end, size_t *a, size_t *b) {
  while (start > 0 && s[start - 1] != '\n' && s[start - 1] != '\r') start--;
  while (end < n && s[end] != '\n' && s[end] != '\r') end++;
  *a = start;
  *b = end;
}

static int add_dep(boxlint_python_cache *c, size_t start, size_t end, size_t call) {
  if (c->ndeps == c->cap_deps) {
    size_t nc = c->cap_deps ? c->cap_deps * 2 : 256;
    bl_pydep *v = boxlint__realloc(&c->mem, c->deps, c->cap_deps * sizeof *v, nc * sizeof *v);
    if (!v) return -1;
    c->deps = v;
    c->cap_deps = nc;
  }
  bl_pydep *d = &c->deps[c->ndeps++];
  bl_py_line_span(c->text, c->len, start, end, &d->a, &d->b);
  d->call = call;
  return 0;
}

/* The lines of value v and of everything it reaches (through names the check resolved). -1
 * when out of memory or too deep to follow (then nothing is reused). */
static int deps_of(boxlint_python_cache *c, const bl_pyval *v, size_t call, int depth) {
  if (!v) return 0;
  if (depth > 64 || add_dep(c, v->start, v->end, call)) return -1;
  bl_pyreader *rd = &c->kp.rd;
  if (v->kind == BL_PV_NAME) {
    const char *k;
    size_t kl;
    if (bl_py_name_key(rd, rd->s + v->start, v->end - v->start, &k, &kl)) return -1;
    const bl_pyname *b = rd->cap_names ? *bl_py_name_slot(rd, k, kl) : NULL;
    return b && b->state == 2 ? deps_of(c, b->resolved, call, depth + 1) : 0;
  }
  for (size_t i = 0; i < v->nitems; i++)
    if (deps_of(c, v->items[i], call, depth + 1) ||
        (v->keys && deps_of(c, v->keys[i], call, depth + 1)))
      return -1;
  for (size_t i = 0; i < v->nargs; i++)
    if (deps_of(c, v->args[i].v, call, depth + 1)) return -1;
  return 0;
}

static int build_deps(boxlint_python_cache *c) {
  const bl_pyreader *rd = &c->kp.rd;
  for (size_t i = 0; i < rd->ncalls; i++) {
    const bl_pycall *k = &rd->calls[i];
    if (add_dep(c, k->start, k->end, i) || deps_of(c, k->policy, i, 0)) return -1;
    for (size_t j = 0; j < k->nargs; j++)
      if (deps_of(c, k->args[j].v, i, 0)) return -1;
  }
  return 0;
}

/* The string literals, with the runs of adjacent ones. */
static int build_lits(boxlint_python_cache *c) {
  const bl_pyreader *rd = &c->kp.rd;
  size_t n = 0;
  for (size_t i = 0; i < rd->nsig; i++) n += rd->toks.v[rd->sig[i]].kind == BL_PT_STRING;
  c->lits = boxlint__malloc(&c->mem, (n + 1) * sizeof *c->lits);
  if (!c->lits) return -1;
  int prev = 0;
  for (size_t i = 0; i < rd->nsig; i++) {
    const bl_pytok *t = &rd->toks.v[rd->sig[i]];
    if (t->kind != BL_PT_STRING) {
      prev = 0;
      continue;
    }
    bl_pylit *l = &c->lits[c->nlits];
    l->start = t->start;
    l->end = t->end;
    l->flags = t->flags;
    l->run = prev ? c->lits[c->nlits - 1].run : (uint32_t)c->nlits;
    c->nlits++;
    prev = 1;
  }
  for (size_t i = c->nlits; i-- > 0;)
    c->lits[i].run_end = i + 1 < c->nlits && c->lits[i + 1].run == c->lits[i].run
                             ? c->lits[i + 1].run_end : (uint32_t)(i + 1);
  return 0;
}

/* The raw findings into cur, each call's range, the second line's end. */
static int build_cur(boxlint_python_cache *c) {
  const boxlint_report *raw = c->kp.raw;
  size_t nc = c->kp.rd.ncalls;
  if (raw->ndiags > c->cap_cur) {
    boxlint_diag *v = boxlint__realloc(&c->mem, c->cur, c->cap_cur * sizeof *v,
                                       raw->ndiags * sizeof *v);
    if (!v) return -1;
    c->cur = v;
    c->cap_cur = raw->ndiags;
  }
  if (raw->ndiags) memcpy(c->cur, raw->diags, raw->ndiags * sizeof *c->cur);
  c->ncur = raw->ndiags;
  c->lo = boxlint__malloc(&c->mem, (nc + 1) * sizeof *c->lo);
  c->hi = boxlint__malloc(&c->mem, (nc + 1) * sizeof *c->hi);
  if (!c->lo || !c->hi) return -1;
  if (nc) memcpy(c->lo, c->kp.lo, nc * sizeof *c->lo);
  if (nc) memcpy(c->hi, c->kp.hi, nc * sizeof *c->hi);
  c->refs_lo = c->kp.refs_lo;
  size_t h = 0;
  for (int line = 0; line < 2 && h < c->len; line++) {
    while (h < c->len && c->text[h] != '\n' && c->text[h] != '\r') h++;
    if (h < c->len) h++;
  }
  c->head = h;
  return 0;
}

/* The findings kept moved into one report of their own, the reports of the calls checked again
 * freed (so that memory does not grow with the edits). 0, -1 out of memory (nothing changed). */
static int compact(boxlint_python_cache *c) {
  boxlint_report *nr = NULL;
  if (boxlint_report_new(&nr, &c->mem.a) != BOXLINT_OK) return -1;
  if (bl_py_copy_diags(nr, c->cur, c->ncur) || nr->ndiags != c->ncur) {
    boxlint_report_free(nr);
    return -1;
  }
  if (c->ncur) memcpy(c->cur, nr->diags, c->ncur * sizeof *c->cur);
  for (size_t i = 0; i < c->nextra; i++) boxlint_report_free(c->extra[i]);
  boxlint_report_clear(c->kp.raw); /* its findings' strings: copied too */
  c->extra[0] = nr;
  c->nextra = 1;
  return 0;
}

/* A whole check of buf, keeping what the next one may reuse. */
static boxlint_status full(boxlint_python_cache *c, boxlint_report *r, const char *buf,
                           size_t len, const boxlint_options *opts,
                           const boxlint_policy_options *popts) {
  drop(c);
  c->stats[0]++;
  c->reuses = 0;
  if (len + 1 > c->cap) {
    size_t cap = len + len / 8 + 4096;
    char *t = boxlint__realloc(&c->mem, c->text, c->cap, cap);
    if (!t) return boxlint_check_python(r, buf, len, opts, popts);
    c->text = t;
    c->cap = cap;
  }
  if (len) memcpy(c->text, buf, len);
  c->len = len;
  bl_pysrc src;
  int plain = bl_py_source(&r->mem, c->text, len, &src) || src.err || src.map;
  bl_py_source_free(&r->mem, &src);
  if (!c->kp.raw && boxlint_report_new(&c->kp.raw, &c->mem.a) != BOXLINT_OK) plain = 1;
  if (!c->tmp && boxlint_report_new(&c->tmp, &c->mem.a) != BOXLINT_OK) plain = 1;
  if (plain) return boxlint_check_python(r, buf, len, opts, popts);
  int kept = 0;
  boxlint_status st = bl_py_check_keep(&c->kp, r, c->text, len, opts, popts, &kept);
  c->kept = kept;
  if (kept && (opts_take(c, opts, popts) || build_lits(c) || build_deps(c) || build_cur(c) ||
               bl_py_cache_names(c) || bl_py_cache_lines(c)))
    drop(c);
  return st;
}

boxlint_status boxlint_check_python_cached(boxlint_python_cache *c, boxlint_report *r,
                                           const char *buf, size_t len,
                                           const boxlint_options *opts,
                                           const boxlint_policy_options *popts) {
  if (!c || !r || (!buf && len)) return boxlint_check_python(r, buf, len, opts, popts);
  if (!buf) buf = "";
  if (!bl_py_minor_ok(opts)) return BOXLINT_EINVAL;
  boxlint_options def;
  if (!opts) {
    boxlint_options_init(&def);
    opts = &def;
  }
  if (c->kept && c->nextra >= 64 && compact(c)) drop(c);
  if (c->kept && c->reuses < 4096 && opts_same(c, opts, popts)) {
    boxlint_status st;
    size_t first = r->ndiags;
    if (bl_py_cache_reuse(c, r, buf, len, opts, popts, &st)) return st;
    r->ndiags = first; /* nothing of a reuse begun stays */
  }
  return full(c, r, buf, len, opts, popts);
}

/* Template-wide checks: name, resources, required fields (docs/design.md §2.2); the field checks
 * that bindings share (lint_int.h: field diagnostics, the slug rule, unknown-field). Calls
 * report/, config/ (severities) and lint/check.c (the commands). */
#include <stdio.h>
#include <string.h>
#include "lint/lint_int.h"
#include "report/emit.h"

boxlint_diag *bl_field_diag(boxlint_report *r, const char *rule, boxlint_severity sev,
                            const char *path) {
  boxlint_diag *d = boxlint__report_add(r, rule, sev, -1);
  if (d) d->path = path;
  return d;
}

static boxlint_diag *field(boxlint_report *r, const char *rule, const char *path) {
  return bl_field_diag(r, rule, BOXLINT_SEVERITY_ERROR, path);
}

/* A slug close to `p` (lower-cased, other characters as '-'), for the hint. */
static const char *slugify(boxlint_report *r, const char *p, size_t n) {
  char *o = boxlint__ralloc(r, 64);
  if (!o) return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n && k < 63; i++) {
    unsigned char c = boxlint__lower((unsigned char)p[i]);
    if ((c >= 'a' && c <= 'z') || boxlint__is_digit(c) || c == '_') o[k++] = (char)c;
    else if (k && o[k - 1] != '-') o[k++] = '-';
  }
  while (k && (o[k - 1] == '-' || o[k - 1] == '_')) k--;
  size_t s = 0;
  while (s < k && (o[s] == '-' || o[s] == '_')) s++;
  memmove(o, o + s, k - s);
  o[k - s] = 0;
  return k - s ? o : NULL;
}

/* Why `s` breaks the slug rule, or NULL; `*bad` the first character outside the set. */
static const char *slug_problem(boxlint_span s, size_t *bad) {
  *bad = SIZE_MAX;
  if (s.len == 0) return "is empty";
  if (s.len > 63) return "is longer than 63 characters";
  for (size_t i = 0; i < s.len; i++) {
    unsigned char c = (unsigned char)s.ptr[i];
    if (!((c >= 'a' && c <= 'z') || boxlint__is_digit(c) || c == '-' || c == '_')) {
      *bad = i;
      return "may only hold a-z, 0-9, '-' and '_'";
    }
  }
  unsigned char f = (unsigned char)s.ptr[0], l = (unsigned char)s.ptr[s.len - 1];
  if (!((f >= 'a' && f <= 'z') || boxlint__is_digit(f)) ||
      !((l >= 'a' && l <= 'z') || boxlint__is_digit(l)))
    return "must start and end with a letter or digit";
  return NULL;
}

boxlint_diag *bl_check_slug(boxlint_report *r, boxlint_span s, const char *rule, const char *path,
                            const char *what, const char *fallback_hint, const char **slug) {
  size_t bad;
  const char *why = slug_problem(s, &bad);
  *slug = NULL;
  if (!why) return NULL;
  boxlint_diag *d = field(r, rule, path);
  if (!d) return NULL;
  const char *q = boxlint__quote(r, s.ptr, s.len, 80);
  d->message = boxlint__rmsg(r, "%s \"%s\" %s", what, q ? q : "", why);
  if (bad != SIZE_MAX) {
    /* The offending character, into the value (a whole UTF-8 sequence when it is one). */
    uint32_t cp;
    size_t l = boxlint__utf8_decode((const unsigned char *)s.ptr + bad, s.len - bad, &cp);
    d->offset = bad;
    d->end_offset = bad + (l ? l : 1);
  }
  *slug = slugify(r, s.ptr, s.len);
  d->hint = *slug ? boxlint__rprintf(r, "did you mean \"%s\"?", *slug) : fallback_hint;
  return d;
}

static void check_name(boxlint_report *r, boxlint_span name) {
  const char *slug;
  boxlint_diag *d = bl_check_slug(r, name, BL_R_INVALID_NAME, "name", "template name",
                                  "use 1-63 characters of a-z, 0-9, '-' and '_', e.g. "
                                  "\"my-template\"", &slug);
  if (d && slug) boxlint__diag_fix(r, d, 0, name.len, slug, strlen(slug), "use the slug");
  boxlint__diag_fix_safety(d, BOXLINT_FIX_UNSAFE); /* a name its author did not write */
}

static void check_number(boxlint_report *r, const boxlint_number *v, const char *path,
                         int64_t lo, int64_t hi, const char *unit) {
  if (!v->present) return;
  boxlint_diag *d;
  if (!v->is_integer) {
    d = field(r, BL_R_INVALID_RESOURCES, path);
    if (!d) return;
    d->message = boxlint__rmsg(r, "%s must be an integer, not %s", path,
                               v->text ? v->text : "this value");
  } else if (v->value < lo || v->value > hi) {
    d = field(r, BL_R_INVALID_RESOURCES, path);
    if (!d) return;
    d->message = boxlint__rmsg(r, "%s is %lld, outside the platform's bounds %lld-%lld%s", path,
                               (long long)v->value, (long long)lo, (long long)hi, unit);
  } else {
    return;
  }
  d->hint = boxlint__rprintf(r, "use an integer from %lld to %lld", (long long)lo, (long long)hi);
}

/* "known fields: a, b, c" into the report's arena; NULL on OOM. */
static const char *known_list(boxlint_report *r, const char *const *known, size_t nknown) {
  static const char head[] = "known fields: ";
  size_t n = sizeof head - 1;
  for (size_t i = 0; i < nknown; i++) n += strlen(known[i]) + (i ? 2 : 0);
  char *o = boxlint__ralloc(r, n + 1), *p = o;
  if (!o) return NULL;
  memcpy(p, head, sizeof head - 1);
  p += sizeof head - 1;
  for (size_t i = 0; i < nknown; i++) {
    if (i) *p++ = ',', *p++ = ' ';
    memcpy(p, known[i], strlen(known[i]));
    p += strlen(known[i]);
  }
  *p = 0;
  return o;
}

void bl_unknown_field(boxlint_report *r, boxlint_span f, const boxlint_options *opts,
                      const char *const *known, size_t nknown, const char *why) {
  boxlint_severity sev = boxlint_config_get_severity(
      opts->config, BL_R_UNKNOWN_FIELD, sizeof BL_R_UNKNOWN_FIELD - 1, BOXLINT_SEVERITY_WARNING);
  if (sev == BOXLINT_SEVERITY_OFF) return;
  const char *q = boxlint__quote(r, f.ptr, f.len, 60);
  boxlint_diag *d = boxlint__report_add(r, BL_R_UNKNOWN_FIELD, sev, -1);
  if (!d) return;
  d->path = boxlint__rstrdup(r, f.ptr, f.len);
  d->message = boxlint__rmsg(r, "unknown field \"%s\": %s", q ? q : "", why);
  /* The nearest known key; a prefix or substring relation (cpus, memory) counts as close. */
  size_t best = 99, bi = 0;
  for (size_t i = 0; i < nknown; i++) {
    size_t kl = strlen(known[i]);
    size_t dist = boxlint__edit_distance(f.ptr, f.len, known[i], kl, BL_EDIT_FOLD, 99);
    size_t pre = 0;
    while (pre < f.len && pre < kl && boxlint__lower((unsigned char)f.ptr[pre]) == known[i][pre]) pre++;
    if (pre >= 3) dist = dist < 2 ? dist : 2;
    if (f.len >= 3 && f.len < kl)
      for (size_t k = 0; k + f.len <= kl; k++)
        if (!memcmp(known[i] + k, f.ptr, f.len)) { dist = dist < 2 ? dist : 2; break; }
    if (dist < best) { best = dist; bi = i; }
  }
  if (best <= 4 && best < f.len + 3)
    d->hint = boxlint__rprintf(r, "did you mean \"%s\"?", known[bi]);
  else
    d->hint = known_list(r, known, nknown);
}

const char *const bl_template_fields[BL_TF_N] = {"name", "commands", "cpu_count", "memory_mb",
                                                 "network_policy"};

const char *boxlint_template_field(size_t i) { return i < BL_TF_N ? bl_template_fields[i] : NULL; }

static void unknown_field(boxlint_report *r, boxlint_span f, const boxlint_options *opts) {
  bl_unknown_field(r, f, opts, bl_template_fields, BL_TF_N, "the platform ignores it");
}

boxlint_status boxlint_check_template(boxlint_report *r, const boxlint_template *t,
                                      const boxlint_options *opts) {
  boxlint_options def;
  if (!r || !t) return BOXLINT_EINVAL;
  if (!opts) {
    boxlint_options_init(&def);
    opts = &def;
  }
  size_t first = r->ndiags;
  const char *const *names = bl_template_fields;
  int present[4] = {t->has_name, t->has_commands, t->cpu_count.present, t->memory_mb.present};
  for (int i = 0; i < 4; i++) {
    if (present[i]) continue;
    boxlint_diag *d = field(r, BL_R_MISSING_FIELD, names[i]);
    if (!d) break;
    d->message = boxlint__rmsg(r, "the template has no \"%s\"", names[i]);
    d->hint = i == 0 ? "add \"name\": \"my-template\""
            : i == 1 ? "add \"commands\": [\"RUN ...\"]"
            : i == 2 ? "add \"cpu_count\": 2" : "add \"memory_mb\": 4096";
  }
  for (size_t i = 0; i < t->nextra_fields; i++) unknown_field(r, t->extra_fields[i], opts);
  if (t->has_name) check_name(r, t->name);
  check_number(r, &t->cpu_count, names[BL_TF_CPU_COUNT], opts->cpu_min, opts->cpu_max, " vCPUs");
  check_number(r, &t->memory_mb, names[BL_TF_MEMORY_MB], opts->memory_min, opts->memory_max,
               " MiB");
  boxlint__report_sort(r, first);
  boxlint_status st = boxlint_check_commands(r, t->commands, t->has_commands ? t->ncommands : 0,
                                             opts);
  if (st == BOXLINT_OK && r->oom) st = BOXLINT_ENOMEM;
  return st;
}

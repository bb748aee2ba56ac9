/* Agent bindings: the arguments of `agents.add_code_interpreter` (docs/design.md §6): template_id
 * (missing-field, invalid-template-id), version (invalid-version), lifespan_seconds
 * (invalid-lifespan, the warning unusual-lifespan) and unknown fields. Its network_policy is
 * checked apart (policy/). Calls report/, config/ (severities) and the field checks that
 * template.c shares (lint_int.h). */
#include <string.h>
#include "lint/lint_int.h"
#include "report/emit.h"

/* The idle timeouts that are not unusual: a minute to a day. */
#define LIFESPAN_MIN 60
#define LIFESPAN_MAX 86400

const char *const bl_binding_params[BL_BP_N] = {"agent_id", "template_id", "version",
                                                "lifespan_seconds", "network_policy"};
/* A binding's fields: add_code_interpreter's parameters after agent_id. */
#define KNOWN (bl_binding_params + 1)
#define NKNOWN (BL_BP_N - 1)
#define F_TEMPLATE_ID bl_binding_params[BL_BP_TEMPLATE_ID]
#define F_VERSION bl_binding_params[BL_BP_VERSION]
#define F_LIFESPAN bl_binding_params[BL_BP_LIFESPAN_SECONDS]

const char *boxlint_binding_field(size_t i) { return i < NKNOWN ? KNOWN[i] : NULL; }

/* A message that the report could not hold is the empty string, never NULL. */
static void set_message(boxlint_diag *d, const char *m) { d->message = m ? m : ""; }

static void check_template_id(boxlint_report *r, const boxlint_binding *b) {
  boxlint_diag *d;
  if (!b->has_template_id) {
    d = bl_field_diag(r, BL_R_MISSING_FIELD, BOXLINT_SEVERITY_ERROR, F_TEMPLATE_ID);
    if (!d) return;
    d->message = "the binding has no \"template_id\"";
    d->hint = "add \"template_id\": a builtin id such as \"python-4g\" or the name of one of "
              "your templates";
    return;
  }
  if (b->template_id_not_string) {
    d = bl_field_diag(r, BL_R_INVALID_TEMPLATE_ID, BOXLINT_SEVERITY_ERROR, F_TEMPLATE_ID);
    if (!d) return;
    set_message(d, boxlint__rprintf(r, "template_id must be a string, not %s",
                                    b->template_text ? b->template_text : "this value"));
    d->hint = "give a string: a builtin id such as \"python-4g\" or the name of one of your "
              "templates";
    return;
  }
  const char *slug;
  /* No fix: the id names a template that exists elsewhere, and the slug is only a guess. */
  (void)bl_check_slug(r, b->template_id, BL_R_INVALID_TEMPLATE_ID, F_TEMPLATE_ID, F_TEMPLATE_ID,
                      "use a builtin id such as \"python-4g\" or a template name: 1-63 "
                      "characters of a-z, 0-9, '-' and '_'",
                      &slug);
}

/* Not an integer: the rule's message names the value as `text` spells it. */
static boxlint_diag *not_integer(boxlint_report *r, const char *rule, const char *path,
                                 const boxlint_number *v) {
  boxlint_diag *d = bl_field_diag(r, rule, BOXLINT_SEVERITY_ERROR, path);
  if (d)
    set_message(d, boxlint__rprintf(r, "%s must be an integer, not %s", path,
                                    v->text ? v->text : "this value"));
  return d;
}

static void check_version(boxlint_report *r, const boxlint_number *v) {
  if (!v->present) return;
  boxlint_diag *d;
  if (!v->is_integer) {
    if (!(d = not_integer(r, BL_R_INVALID_VERSION, F_VERSION, v))) return;
  } else if (v->value < 1) {
    if (!(d = bl_field_diag(r, BL_R_INVALID_VERSION, BOXLINT_SEVERITY_ERROR, F_VERSION))) return;
    set_message(d, boxlint__rprintf(r, "version is %lld: agent versions are numbered from 1",
                                    (long long)v->value));
  } else {
    return;
  }
  d->hint = "use the agent's version number, 1 or more (the default is 1)";
}

static void check_lifespan(boxlint_report *r, const boxlint_number *v,
                           const boxlint_options *opts) {
  if (!v->present) return;
  boxlint_diag *d;
  if (!v->is_integer) {
    if (!(d = not_integer(r, BL_R_INVALID_LIFESPAN, F_LIFESPAN, v))) return;
    d->hint = "give the idle timeout in whole seconds, e.g. 1200 (the default)";
    return;
  }
  long long s = (long long)v->value;
  if (s <= 0) {
    if (!(d = bl_field_diag(r, BL_R_INVALID_LIFESPAN, BOXLINT_SEVERITY_ERROR, F_LIFESPAN)))
      return;
    set_message(d, boxlint__rprintf(r, "lifespan_seconds is %lld: the idle timeout must be a "
                                       "positive number of seconds", s));
    d->hint = "use a number of seconds from 60 to 86400, e.g. 1200 (the default)";
    return;
  }
  if (s >= LIFESPAN_MIN && s <= LIFESPAN_MAX) return;
  boxlint_severity sev = boxlint_config_get_severity(opts->config, BL_R_UNUSUAL_LIFESPAN,
                                                     sizeof BL_R_UNUSUAL_LIFESPAN - 1,
                                                     BOXLINT_SEVERITY_WARNING);
  if (sev == BOXLINT_SEVERITY_OFF) return;
  if (!(d = bl_field_diag(r, BL_R_UNUSUAL_LIFESPAN, sev, F_LIFESPAN))) return;
  if (s < LIFESPAN_MIN) {
    set_message(d, boxlint__rprintf(r, "lifespan_seconds is %lld: under a minute, the sandbox "
                                       "is killed after %lld s idle, before a slow cell finishes "
                                       "or between two cells", s, s));
    d->hint = "use 60 seconds or more (the default is 1200)";
  } else {
    set_message(d, boxlint__rprintf(r, "lifespan_seconds is %lld: over 86400 s, an idle "
                                       "sandbox is kept for more than a day", s));
    d->hint = "use 86400 seconds (a day) or less (the default is 1200)";
  }
}

boxlint_status boxlint_check_binding(boxlint_report *r, const boxlint_binding *b,
                                     const boxlint_options *opts) {
  boxlint_options def;
  if (!r || !b || (b->nextra_fields && !b->extra_fields) ||
      (b->has_template_id && !b->template_id_not_string && b->template_id.len &&
       !b->template_id.ptr))
    return BOXLINT_EINVAL;
  if (!opts) {
    boxlint_options_init(&def);
    opts = &def;
  }
  size_t first = r->ndiags;
  int oom = r->oom;
  r->oom = 0;
  check_template_id(r, b);
  check_version(r, &b->version);
  check_lifespan(r, &b->lifespan_seconds, opts);
  for (size_t i = 0; i < b->nextra_fields; i++)
    bl_unknown_field(r, b->extra_fields[i], opts, KNOWN, NKNOWN,
                     "add_code_interpreter does not take it");
  boxlint__report_sort(r, first);
  boxlint_status st = r->oom ? BOXLINT_ENOMEM : BOXLINT_OK;
  r->oom |= oom;
  return st;
}

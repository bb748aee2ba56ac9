/* policy/ owns NetworkPolicies (docs/design.md §3): everything behind boxlint/policy.h, with
 * policy_int.h private to the folder. Data flows one way: an entry's bytes -> a parsed entry
 * (entry.c; idna.c and messages.c say what is wrong with an invalid one) -> a compiled policy
 * (compile.c, driven by validate.c, which also reports every finding) -> a decision (decide.c).
 * This file is the door: the options, boxlint_policy_new and the policy rules' descriptions.
 * Calls go down that line, never back: entry.c calls no other file of the folder, idna.c calls
 * entry.c, messages.c calls idna.c and entry.c, compile.c takes parsed entries and calls none,
 * decide.c calls entry.c and reads compile.c's tables, validate.c calls entry.c, messages.c and
 * compile.c, and this file calls validate.c and compile.c. The names of the public enums live
 * with what they name (type and list: compile.c; verdict and reason: decide.c). Out of the
 * folder, the policy code calls only the report (arena, diagnostics, fixes and the allocator of
 * internal.h), the rule table (rules.c) and libidn2 (idna.c). */
#include <string.h>
#include "policy_int.h"

/*==============================================================================================
 * MARK: Policies
 *============================================================================================*/

void boxlint_policy_options_init(boxlint_policy_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->size = sizeof *o;
  o->max_entries = BOXLINT_POLICY_DEFAULT_MAX_ENTRIES;
  o->unmatched = BOXLINT_UNMATCHED_ALLOW;
  o->compat = BOXLINT_COMPAT_NONE;
  o->path_prefix.ptr = NULL;
  o->path_prefix.len = 0;
  o->config = NULL;
}

/* The caller's options over the defaults (`opts` NULL: the defaults), checked. */
static boxlint_status options_of(boxlint_policy_options *o, const boxlint_policy_options *opts) {
  boxlint_policy_options_init(o);
  if (opts) {
    if (opts->size < offsetof(boxlint_policy_options, max_entries) + sizeof(size_t))
      return BOXLINT_EINVAL;
    memcpy(o, opts, opts->size < sizeof *o ? opts->size : sizeof *o);
    o->size = sizeof *o;
  }
  if (!o->max_entries) o->max_entries = BOXLINT_POLICY_DEFAULT_MAX_ENTRIES;
  if (o->max_entries > BOXLINT_POLICY_HARD_MAX_ENTRIES) return BOXLINT_EINVAL;
  if (o->unmatched != BOXLINT_UNMATCHED_ALLOW && o->unmatched != BOXLINT_UNMATCHED_DENY)
    return BOXLINT_EINVAL;
  if (o->compat & ~(unsigned)BOXLINT_COMPAT_E2B) return BOXLINT_EINVAL;
  if (o->path_prefix.len && !o->path_prefix.ptr) return BOXLINT_EINVAL;
  return BOXLINT_OK;
}

/* Every span of the spec points somewhere (NULL only when empty). */
static int spec_ok(const boxlint_policy_spec *spec) {
  if (!spec || (!spec->allow_out && spec->n_allow) || (!spec->deny_out && spec->n_deny))
    return 0;
  for (size_t i = 0; i < spec->n_allow; i++)
    if (!spec->allow_out[i].ptr && spec->allow_out[i].len) return 0;
  for (size_t i = 0; i < spec->n_deny; i++)
    if (!spec->deny_out[i].ptr && spec->deny_out[i].len) return 0;
  return 1;
}

boxlint_status boxlint_policy_new(boxlint_policy **out, boxlint_report *report,
                                  const boxlint_policy_spec *spec,
                                  const boxlint_policy_options *opts, const boxlint_alloc *alloc) {
  if (!out) return BOXLINT_EINVAL;
  *out = NULL;
  boxlint_policy_options o;
  if (!spec_ok(spec) || options_of(&o, opts) != BOXLINT_OK) return BOXLINT_EINVAL;

  boxlint__mem m;
  boxlint__mem_init(&m, alloc);
  boxlint_report *own = NULL;
  if (!report) {
    if (boxlint_report_new(&own, alloc) != BOXLINT_OK) return BOXLINT_ENOMEM;
    report = own;
  }
  boxlint_policy *p = boxlint__malloc(&m, sizeof *p);
  if (!p) {
    boxlint_report_free(own);
    return BOXLINT_ENOMEM;
  }
  memset(p, 0, sizeof *p);
  p->mem = m;
  p->unmatched = o.unmatched;
  p->any[0] = p->any[1] = p->all[0] = p->all[1] = -1;
  int oom0 = report->oom;
  report->oom = 0;
  boxlint_status st = boxlint__policy_validate(p, report, spec, &o);
  /* Out of memory, the report is incomplete (a finding may be missing): say so rather than
   * ESYNTAX. Every message is still set (boxlint__rmsg gives "" when formatting fails). */
  if (report->oom) st = BOXLINT_ENOMEM;
  report->oom |= oom0;
  boxlint_report_free(own);
  if (st != BOXLINT_OK) {
    boxlint_policy_free(p);
    return st;
  }
  *out = p;
  return BOXLINT_OK;
}

size_t boxlint_policy_options_size(void) { return sizeof(boxlint_policy_options); }

/*==============================================================================================
 * MARK: Enforcement (emit.c)
 *============================================================================================*/

void boxlint_emit_options_init(boxlint_emit_options *opts) {
  if (!opts) return;
  memset(opts, 0, sizeof *opts);
  opts->size = sizeof *opts;
  opts->table = "boxlint";
  opts->proxy_http_port = 15080;
  opts->proxy_tls_port = 15443;
}

size_t boxlint_emit_options_size(void) { return sizeof(boxlint_emit_options); }

const char *boxlint_emit_format_str(boxlint_emit_format format) {
  switch (format) {
  case BOXLINT_EMIT_NFTABLES: return "nftables";
  case BOXLINT_EMIT_DNSMASQ: return "dnsmasq";
  case BOXLINT_EMIT_NGINX: return "nginx";
  }
  return NULL;
}

boxlint_status boxlint_policy_emit(const boxlint_policy *policy, boxlint_emit_format format,
                                   const boxlint_emit_options *opts, boxlint_report *report,
                                   char **out, size_t *out_len, const boxlint_alloc *alloc) {
  if (out) *out = NULL;
  if (out_len) *out_len = 0;
  if (!policy || !report || !out || !out_len ||
      (format != BOXLINT_EMIT_NFTABLES && format != BOXLINT_EMIT_DNSMASQ &&
       format != BOXLINT_EMIT_NGINX))
    return BOXLINT_EINVAL;
  boxlint_emit_options o;
  boxlint_emit_options_init(&o);
  if (opts) {
    if (opts->size < offsetof(boxlint_emit_options, nresolvers) + sizeof opts->nresolvers)
      return BOXLINT_EINVAL;
    memcpy(&o, opts, sizeof o < opts->size ? sizeof o : opts->size);
    o.size = sizeof o;
    if (!o.table) o.table = "boxlint";
  }
  int oom0 = report->oom;
  report->oom = 0;
  boxlint_status st = boxlint__policy_emit(policy, format, &o, report, out, out_len, alloc);
  if (report->oom && st == BOXLINT_OK) {
    boxlint_buffer_free(*out, alloc);
    *out = NULL;
    *out_len = 0;
    st = BOXLINT_ENOMEM;
  }
  report->oom |= oom0;
  return st;
}

/*==============================================================================================
 * MARK: Rule descriptions
 *============================================================================================*/

const boxlint_rule_info *boxlint__policy_rules(size_t *count) {
  /* The policy rules are the tail of the one rule table (rules.c). */
  size_t n, first = boxlint__rules_policy_first();
  const boxlint_rule_info *all = boxlint_rules(&n);
  if (count) *count = n - first;
  return all + first;
}

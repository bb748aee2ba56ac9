/* Private to lint/: the field checks that templates (template.c) and agent bindings
 * (binding.c) share: field diagnostics, the slug rule of template names and ids, and
 * unknown-field with the nearest known key. Implemented in template.c; calls report/ and
 * config/ (a config's severity for unknown-field). */
#ifndef boxlint_LINT_INT_H
#define boxlint_LINT_INT_H

#include "report/internal.h"

/* The fields of a template: templates.create()'s parameters in its order, then the binding's
 * network_policy, which a template file may carry; and add_code_interpreter()'s parameters in
 * its order, whose body (all but agent_id) is an agent binding's fields. One list each, for the
 * checks here, the SDK's signatures in Python files and the places of their findings, and the
 * command (boxlint_template_field, boxlint_binding_field). */
enum { BL_TF_NAME, BL_TF_COMMANDS, BL_TF_CPU_COUNT, BL_TF_MEMORY_MB, BL_TF_NETWORK_POLICY, BL_TF_N };
extern const char *const bl_template_fields[BL_TF_N];
enum { BL_BP_AGENT_ID, BL_BP_TEMPLATE_ID, BL_BP_VERSION, BL_BP_LIFESPAN_SECONDS,
       BL_BP_NETWORK_POLICY, BL_BP_N };
extern const char *const bl_binding_params[BL_BP_N];

/* Append a diagnostic of `rule` about a field: command -1, `path` the field's name (static
 * storage). NULL on OOM. */
boxlint_diag *bl_field_diag(boxlint_report *r, const char *rule, boxlint_severity sev,
                            const char *path);

/* Check `s` against the slug rule (1-63 characters of a-z, 0-9, '-' and '_', starting and ending
 * with a letter or digit). When it breaks it, append an error of `rule` at `path` whose message
 * is `<what> "<s>" <why>`, whose offset and end offset cover the first character outside the
 * set (a whole UTF-8 sequence), and whose hint names the nearest slug, or is `fallback_hint`
 * when none is near. Returns that diagnostic and stores the slug (or NULL) in `*slug`, so the
 * caller may attach a fix; NULL when `s` is valid or on OOM. */
boxlint_diag *bl_check_slug(boxlint_report *r, boxlint_span s, const char *rule, const char *path,
                            const char *what, const char *fallback_hint, const char **slug);

/* An `unknown-field` for the field named `f` (its severity under `opts->config`; nothing when
 * switched off): the message is `unknown field "<f>": <why>`, the hint the nearest of the
 * `nknown` keys (edit distance, or a shared prefix or substring of 3 characters or more), else
 * the list of known keys. */
void bl_unknown_field(boxlint_report *r, boxlint_span f, const boxlint_options *opts,
                      const char *const *known, size_t nknown, const char *why);

#endif

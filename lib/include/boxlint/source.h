/* boxlint/source.h: where templates are written. Agent bindings (the arguments of
 * `agents.add_code_interpreter`, or a binding .json file) and Python source files whose SDK calls
 * create templates, update them and bind them (DESIGN §6). */
#ifndef boxlint_SOURCE_H
#define boxlint_SOURCE_H

#include "boxlint/export.h"
#include "boxlint/diag.h"
#include "boxlint/dockerfile.h"
#include "boxlint/policy.h"

#ifdef __cplusplus
extern "C" {
#endif

/*==============================================================================================
 * MARK: Bindings
 *============================================================================================*/

/** An agent binding as `agents.add_code_interpreter` takes it (its network_policy is checked
 *  apart, with boxlint_policy_new). Spans are borrowed for the duration of the call. */
typedef struct boxlint_binding {
  boxlint_span template_id;        /**< a builtin id ("python-4g") or a template name */
  int has_template_id;             /**< 0: reported as missing-field */
  int template_id_not_string;      /**< the value is not a string; `template_text` spells it */
  const char *template_text;       /**< NUL-terminated, or NULL */
  boxlint_number version;          /**< absent: the SDK's default, 1 */
  boxlint_number lifespan_seconds; /**< absent: the SDK's default, 1200 */
  const boxlint_span *extra_fields; /**< names of other fields: each an unknown-field warning */
  size_t nextra_fields;
} boxlint_binding;

/**
 * Check a binding's fields: `missing-field` (no template_id), `invalid-template-id`,
 * `invalid-version` (not an integer >= 1), `invalid-lifespan` (not an integer > 0), the warning
 * `unusual-lifespan` (an idle timeout under a minute or over a day) and `unknown-field`. Each
 * diagnostic has `command` -1 and `path` set to the field's name. Appends to `report`.
 * @return BOXLINT_OK, BOXLINT_EINVAL for a NULL argument, BOXLINT_ENOMEM.
 */
BOXLINT_API boxlint_status boxlint_check_binding(boxlint_report *report,
                                                 const boxlint_binding *binding,
                                                 const boxlint_options *opts);

/*==============================================================================================
 * MARK: Python source
 *============================================================================================*/

/**
 * Check the SDK calls of a Python source file: every `templates.create`, `templates.update`,
 * `add_code_interpreter` and `NetworkPolicy` call (any receiver, awaited or not) whose arguments
 * are literals, with Python's literal semantics, or names bound once at module level to one.
 * Their values are checked as boxlint_check_template, boxlint_check_commands,
 * boxlint_check_binding and boxlint_policy_new check them, and each diagnostic is moved into the
 * file: `line`, `column` (code points), `offset` and the end point at the offending character
 * inside the literal that holds it, `command` the index in its call's `commands` or -1, `path`
 * the argument ("commands[1]", "network_policy.allow_out[0]"). A fix is an edit of the file
 * (`offset` and `length` in file bytes) in the literal's own syntax. An argument known only at
 * run time gives one `not-static` (info). `# boxlint: ignore=RULE,...` (the older
 * `# boxlint ignore=...` is the same; the syntax is boxlint_check_fragment's) on the literal's
 * line, or alone on the line before, suppresses non-errors other than not-static; a listed
 * rule that suppresses nothing, and a comment that starts as a boxlint directive but does not
 * parse, are `unused-suppression` (reported only with a config, at its severity).
 *
 * Every finding is at the severity of `opts->config` (see boxlint_options.config): also the
 * NetworkPolicy warnings, unless `popts->config` names another config.
 *
 * @param popts policy options (compat bits); NULL for the defaults.
 * @return BOXLINT_OK; BOXLINT_ESYNTAX when the file is not valid Python: the report then holds
 *         one `python-syntax` error at the first problem (and nothing else); BOXLINT_EINVAL,
 *         BOXLINT_ENOMEM.
 */
BOXLINT_API boxlint_status boxlint_check_python(boxlint_report *report, const char *buf,
                                                size_t len, const boxlint_options *opts,
                                                const boxlint_policy_options *popts);

#ifdef __cplusplus
}
#endif
#endif

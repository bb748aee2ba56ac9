/* boxlint/source.h: where templates are written. Agent bindings (the arguments of
 * `agents.add_code_interpreter`, or a binding .json file) and Python source files whose SDK calls
 * create templates, update them and bind them (docs/design.md §6). */
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

/** The fields of an agent binding, the names boxlint_check_binding reports them by: 0
 *  "template_id", 1 "version", 2 "lifespan_seconds", 3 "network_policy" (add_code_interpreter's
 *  parameters after agent_id, in its order); NULL for `i` past the last. Static storage. */
BOXLINT_API const char *boxlint_binding_field(size_t i);

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
 * @return BOXLINT_OK; BOXLINT_ESYNTAX when the file is not valid Python (or its encoding cannot
 *         be read as CPython reads it) and could reach the SDK (it imports `budai` or names one
 *         of its clients, calls or resources): the report then holds one `python-syntax` (or
 *         `python-encoding`) error at the first problem, and nothing else. A broken file that
 *         cannot reach the SDK is BOXLINT_OK with nothing reported. BOXLINT_EINVAL,
 *         BOXLINT_ENOMEM.
 */
BOXLINT_API boxlint_status boxlint_check_python(boxlint_report *report, const char *buf,
                                                size_t len, const boxlint_options *opts,
                                                const boxlint_policy_options *popts);

/**
 * What a Python file's check keeps for the next check of the same file after an edit (an
 * editor's open document). It holds a copy of the last text and what was read of it; it is
 * used by one thread at a time and is never shared. Made with `alloc` (NULL: malloc).
 */
typedef struct boxlint_python_cache boxlint_python_cache;

BOXLINT_API boxlint_status boxlint_python_cache_new(boxlint_python_cache **out,
                                                    const boxlint_alloc *alloc);
BOXLINT_API void boxlint_python_cache_free(boxlint_python_cache *cache);

/**
 * boxlint_check_python, keeping in `cache` what it read: the report gets exactly the
 * diagnostics, in the same order, and the same status that boxlint_check_python gives for the
 * same arguments. When the text differs from the cache's last one by an edit that cannot change
 * what the rest of the file gives, and the options, configs and policy options are the same,
 * only the part the edit touches is read and checked again; any other case is a full check.
 * The cache then holds this text. `cache` NULL is boxlint_check_python.
 *
 * The edits taken (docs/python.md): inside one string literal's body (the SDK calls whose
 * findings read its lines are checked again, the other findings move), inside one identifier
 * that no check read (the findings move), none. Options and configs are compared by value
 * (a config's severities and limits); a config with user rules is always a full check. The
 * report's strings are its own (copied): it does not depend on the cache afterwards.
 */
BOXLINT_API boxlint_status boxlint_check_python_cached(boxlint_python_cache *cache,
                                                       boxlint_report *report, const char *buf,
                                                       size_t len, const boxlint_options *opts,
                                                       const boxlint_policy_options *popts);

/** What boxlint_python_policies could read of one policy. */
typedef enum boxlint_python_policy_state {
  BOXLINT_PYPOLICY_STATIC = 0,     /**< every field is a literal: `spec` holds the policy */
  BOXLINT_PYPOLICY_NOT_STATIC = 1, /**< a field or an entry is known only when the code runs */
  BOXLINT_PYPOLICY_INVALID = 2     /**< a field has a type the SDK rejects (not a str, a list) */
} boxlint_python_policy_state;

/** One NetworkPolicy of a Python file. */
typedef struct boxlint_python_policy {
  size_t offset, end_offset;  /**< the policy's expression in the file, in bytes: the
                                   `NetworkPolicy(...)` call, the dict, or the expression
                                   known only at run time (the whole add_code_interpreter
                                   call when unpacked arguments may give the policy) */
  uint32_t line, column;      /**< where `offset` is: 1-based, the column in code points */
  int in_binding;             /**< 1: the network_policy argument of add_code_interpreter */
  boxlint_python_policy_state state;
  const char *why;            /**< not STATIC: the first part not read and why, such as
                                   "allow_out[1] is a call, known only when the code runs"
                                   or "type is not a string" (NUL-terminated); else NULL */
  boxlint_policy_spec spec;   /**< STATIC: the type and the lists as the file writes them
                                   (decoded strings, ready for boxlint_policy_new); otherwise
                                   what could be read, not to be compiled */
} boxlint_python_policy;

/**
 * The NetworkPolicies a Python file writes, as values, in file order: each `NetworkPolicy(...)`
 * call (any receiver) and each `network_policy` argument of `add_code_interpreter` (a dict or a
 * NetworkPolicy, written inline or through a name bound once at module level, as
 * boxlint_check_python reads it). A NetworkPolicy that a binding takes is listed once. A policy
 * with a part known only when the code runs is BOXLINT_PYPOLICY_NOT_STATIC, never guessed.
 * This reads; it checks nothing and adds no diagnostic: boxlint_check_python reports the
 * findings of the same policies (each one's lie between its `offset` and `end_offset`).
 *
 * @param report owns what is handed out (`*out`, its strings and spans): valid until the
 *               report is cleared or freed; required.
 * @param out receives the array (NULL when there is none), `n` its length.
 * @return BOXLINT_OK; BOXLINT_ESYNTAX when the file is not Python that boxlint reads (its
 *         encoding, or a syntax error: boxlint_check_python reports where), with nothing handed
 *         out; BOXLINT_EINVAL for a NULL argument; BOXLINT_ENOMEM.
 */
BOXLINT_API boxlint_status boxlint_python_policies(boxlint_report *report, const char *buf,
                                                   size_t len, const boxlint_python_policy **out,
                                                   size_t *n);

/** boxlint_python_policies with options: the file read with the grammar of the Python version
 *  that `opts` names (boxlint_options.python_minor, else its config's target version, else
 *  3.14); nothing else of `opts` is used. NULL is the defaults. BOXLINT_EINVAL also for options
 *  boxlint_options_check refuses. */
BOXLINT_API boxlint_status boxlint_python_policies_opts(boxlint_report *report, const char *buf,
                                                        size_t len, const boxlint_options *opts,
                                                        const boxlint_python_policy **out,
                                                        size_t *n);

#ifdef __cplusplus
}
#endif
#endif

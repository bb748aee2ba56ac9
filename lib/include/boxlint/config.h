/* boxlint/config.h: compiled configurations: warning severities and user rules (PCRE2). */
#ifndef boxlint_CONFIG_H
#define boxlint_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include "boxlint/export.h"
#include "boxlint/diag.h"
#include "boxlint/dockerfile.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Why a call failed, with a position into the offending input (a pattern, a rule id).
 *  Filled only on failure; pass NULL when you do not need it. */
typedef struct boxlint_error {
  boxlint_status code;
  size_t offset;      /**< byte offset into the offending input */
  char message[192];  /**< NUL-terminated, names what was wrong */
} boxlint_error;

/**
 * A configuration: which warnings run at which severity, plus user rules. Build it with
 * boxlint_config_new() and the setters, then pass it in boxlint_options.config.
 *
 * Without a config, a check of commands or a fragment gets the errors of docs/design.md §2.1 only
 * (the gatekeeper mode; boxlint_options.config says what else runs); with one, it also runs
 * every warning that is not switched off, at the config's severity, and every user rule. The
 * library applies the config to every finding it makes (commands, fragments, template and
 * binding fields, NetworkPolicies through boxlint_policy_options.config, Python files), so a
 * caller shows each diagnostic's own severity. The `boxlint` command and the bindings check
 * with the defaults (boxlint_config_new) when no configuration file names others.
 *
 * @note Setters are not thread-safe. Once you stop calling them, the config is immutable and
 * may be shared by any number of threads and checks at once.
 */
typedef struct boxlint_config boxlint_config;

/** Create a config with every built-in warning at its default severity and no user rule.
 *  @param out receives the config (free with boxlint_config_free). @param alloc NULL for libc.
 *  @return BOXLINT_OK, BOXLINT_EINVAL (NULL out), BOXLINT_ENOMEM. */
BOXLINT_API boxlint_status boxlint_config_new(boxlint_config **out, const boxlint_alloc *alloc);

/** Free a config. NULL is a no-op. */
BOXLINT_API void boxlint_config_free(boxlint_config *config);

/**
 * Set the severity of a warning (built-in or user rule), or switch it off with
 * BOXLINT_SEVERITY_OFF. The errors of docs/design.md §2.1 cannot be switched off or lowered: asking
 * to is BOXLINT_EINVAL with a message in `err`.
 * @param rule,len the rule id. @return BOXLINT_OK, BOXLINT_EINVAL (unknown rule or an error
 * rule), BOXLINT_ENOMEM.
 */
BOXLINT_API boxlint_status boxlint_config_set_severity(boxlint_config *config, const char *rule,
                                                       size_t len, boxlint_severity severity,
                                                       boxlint_error *err);

/** A user rule: report `message` when `pattern` matches an instruction. */
typedef struct boxlint_user_rule {
  boxlint_span id;           /**< [a-z0-9-]+, not a built-in rule id */
  boxlint_severity severity; /**< INFO, WARNING or ERROR */
  boxlint_keyword instruction; /**< the instruction it applies to; NONE: every instruction */
  boxlint_span pattern;      /**< PCRE2 (UTF mode), matched against the logical instruction
                                  (keyword, flags and arguments, continuations joined) and
                                  against each heredoc body */
  boxlint_span message;
} boxlint_user_rule;

/** The members of a user rule as a `.boxlint.json` and the bindings name them: 0 "id",
 *  1 "severity", 2 "instruction", 3 "pattern", 4 "message"; NULL for `i` past the last.
 *  Static storage. */
BOXLINT_API const char *boxlint_user_rule_field(size_t i);

/** Fill `rule` with the defaults of a user rule: every span empty, severity WARNING (the
 *  severity a `.boxlint.json` rule without "severity" has), every instruction. NULL is a
 *  no-op. */
BOXLINT_API void boxlint_user_rule_init(boxlint_user_rule *rule);

/**
 * Compile and add a user rule. The pattern is compiled once here (JIT where available); every
 * match later runs with match and depth limits, and a match that hits a limit is reported as
 * `regex-limit`, never passed silently.
 * @return BOXLINT_OK; BOXLINT_EREGEX with err->offset into the pattern; BOXLINT_EINVAL for a bad
 * id, severity or a duplicate id; BOXLINT_ENOMEM.
 */
BOXLINT_API boxlint_status boxlint_config_add_rule(boxlint_config *config,
                                                   const boxlint_user_rule *rule,
                                                   boxlint_error *err);

/** Set the PCRE2 match limit (default 100000) and depth limit (default 1000) for every pattern
 *  of the config. 0 leaves a limit unchanged. */
BOXLINT_API void boxlint_config_set_limits(boxlint_config *config, uint32_t match_limit,
                                           uint32_t depth_limit);

/** The config's `"target-version"`: the Python version (3.`minor`, BOXLINT_PYTHON_MINOR_MIN
 *  to BOXLINT_PYTHON_MINOR_MAX) whose grammar Python files are read with when
 *  boxlint_options.python_minor is 0; 0 unsets it (the default, 3.14). A `.boxlint.json`
 *  writes it `"target-version": "py38"` ... `"py314"` (boxlint_python_version_parse).
 *  @return BOXLINT_OK, or BOXLINT_EINVAL (NULL config, another minor). */
BOXLINT_API boxlint_status boxlint_config_set_python_minor(boxlint_config *config, int minor);

/** The config's target version as set by boxlint_config_set_python_minor, or 0 when it sets
 *  none (or `config` is NULL). Thread-safe. */
BOXLINT_API int boxlint_config_get_python_minor(const boxlint_config *config);

/** The severity `rule` has under `config`: its override, or `def` when the config does not
 *  set it (or `config` is NULL). Used to apply a config to findings of other checks, such as
 *  a NetworkPolicy's warnings. Thread-safe. */
BOXLINT_API boxlint_severity boxlint_config_get_severity(const boxlint_config *config,
                                                         const char *rule, size_t len,
                                                         boxlint_severity def);

/** Number of user rules in the config, and the id of rule `i` (borrowed; NULL out of range). */
BOXLINT_API size_t boxlint_config_rule_count(const boxlint_config *config);
BOXLINT_API const char *boxlint_config_rule_id(const boxlint_config *config, size_t i);

#ifdef __cplusplus
}
#endif
#endif

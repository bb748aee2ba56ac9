/* boxlint/dockerfile.h: checking template commands, Dockerfile fragments and the base. */
#ifndef boxlint_DOCKERFILE_H
#define boxlint_DOCKERFILE_H

#include <stddef.h>
#include <stdint.h>
#include "boxlint/export.h"
#include "boxlint/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/*==============================================================================================
 * MARK: Instructions
 *============================================================================================*/

/** The 18 Dockerfile keywords. BOXLINT_KW_NONE: empty, unknown or not ASCII. */
typedef enum boxlint_keyword {
  BOXLINT_KW_NONE = 0,
  BOXLINT_KW_ADD, BOXLINT_KW_ARG, BOXLINT_KW_CMD, BOXLINT_KW_COPY, BOXLINT_KW_ENTRYPOINT,
  BOXLINT_KW_ENV, BOXLINT_KW_EXPOSE, BOXLINT_KW_FROM, BOXLINT_KW_HEALTHCHECK, BOXLINT_KW_LABEL,
  BOXLINT_KW_MAINTAINER, BOXLINT_KW_ONBUILD, BOXLINT_KW_RUN, BOXLINT_KW_SHELL,
  BOXLINT_KW_STOPSIGNAL, BOXLINT_KW_USER, BOXLINT_KW_VOLUME, BOXLINT_KW_WORKDIR
} boxlint_keyword;

/** Upper-case name of `kw` ("WORKDIR"), or "" for BOXLINT_KW_NONE. Static storage. */
BOXLINT_API const char *boxlint_keyword_name(boxlint_keyword kw);

/** The keyword named `name` (`len` bytes), ASCII letters in any case as BuildKit reads them
 *  ("run", "Workdir"); BOXLINT_KW_NONE for anything else (empty, unknown, NULL). */
BOXLINT_API boxlint_keyword boxlint_keyword_parse(const char *name, size_t len);

/** Whether templates may not use `kw` (FROM, COPY, ADD, CMD and ENTRYPOINT: the rule
 *  denied-instruction, for an instruction and for an ONBUILD trigger). 1 or 0. */
BOXLINT_API int boxlint_keyword_denied(boxlint_keyword kw);

/** A heredoc opened by RUN, COPY, ADD or an ONBUILD with one of those (BuildKit rules). */
typedef struct boxlint_heredoc {
  boxlint_span name;  /**< terminator word, unquoted (owned by the report) */
  boxlint_span body;  /**< body lines, into the input, without the terminator line */
  uint32_t fd;        /**< file descriptor digits before `<<`, 0 when absent */
  int chomp;          /**< `<<-`: leading tabs are stripped */
  int expand;         /**< no quote in the name: variables expand in the body */
  uint32_t line;      /**< line of the first body line */
  uint32_t end_line;  /**< line of the terminator */
} boxlint_heredoc;

/**
 * One command as BuildKit reads it. Spans named "input" point into the caller's buffer (valid
 * while it lives); the others point into the report (valid until it is cleared or freed).
 */
typedef struct boxlint_instruction {
  boxlint_keyword keyword;     /**< NONE when unknown, empty or not ASCII */
  boxlint_keyword trigger;     /**< ONBUILD only: the trigger's keyword (NONE otherwise) */
  boxlint_span keyword_text;   /**< the keyword as written, unknown ones included (report) */
  boxlint_span text;           /**< the whole command or fragment instruction (input) */
  boxlint_span logical;        /**< the logical line: continuations joined, comments and
                                    blank continuation lines dropped, escapes removed (report) */
  boxlint_span args;           /**< the arguments after the flags, trimmed (report) */
  const boxlint_span *flags;   /**< `nflags` flags, unquoted as BuildKit does (report) */
  size_t nflags;
  const boxlint_heredoc *heredocs; /**< `nheredocs` heredocs in order of appearance */
  size_t nheredocs;
  int json;                    /**< arguments are a JSON array (exec form) */
  uint32_t line, end_line;     /**< first and last line (command- or file-relative, 1-based) */
  size_t offset, end_offset;   /**< byte range of `text` in the input */
} boxlint_instruction;

/** Number of instructions the last check or split put in `report`. */
BOXLINT_API size_t boxlint_report_instruction_count(const boxlint_report *report);

/** Instruction `i` (command `i` of a command list), borrowed; NULL when out of range. */
BOXLINT_API const boxlint_instruction *boxlint_report_instruction(const boxlint_report *report,
                                                                  size_t i);

/*==============================================================================================
 * MARK: Options
 *============================================================================================*/

/** Default limits of the platform (docs/design.md §2.1). */
#define BOXLINT_DEFAULT_MAX_COMMANDS 64u
#define BOXLINT_DEFAULT_MAX_COMMAND_BYTES 4096u

/** Options of a check. Initialise with boxlint_options_init(), then change fields: new fields
 *  are only ever added at the end, and `size` lets the library tell versions apart. */
typedef struct boxlint_options {
  size_t size;              /**< sizeof(boxlint_options), set by boxlint_options_init */
  size_t max_commands;      /**< default 64 */
  size_t max_command_bytes; /**< default 4096 */
  char escape;              /**< '\\' (default) or '`', as a base's `# escape=` sets it */
  /** The warnings, their severities and the user rules (boxlint/config.h), applied by the
   *  library to every finding it makes. NULL (the default) is the gatekeeper mode: the
   *  Dockerfile warnings, the user rules and `unused-suppression` do not run, so a command
   *  list or fragment gets the errors only; the field and policy warnings, which need
   *  no config, are reported at their default severities (`unknown-field`,
   *  `unusual-lifespan`, the NetworkPolicy warnings of boxlint_check_python). The `boxlint`
   *  command and the Python and Node bindings always check with a config (a `.boxlint.json`,
   *  or the defaults): a caller that wants their answer passes a config made by
   *  boxlint_config_new (every warning at its default severity). */
  const struct boxlint_config *config;
  int64_t cpu_min, cpu_max;       /**< bounds of cpu_count (default 1..8) */
  int64_t memory_min, memory_max; /**< bounds of memory_mb in MiB (default 512..16384) */
  int no_instructions;      /**< 1: boxlint_check_fragment keeps no instruction list (the
                                 report's instruction count stays 0) and no copy of any
                                 logical line, so that a report's memory grows with its
                                 findings, not with the fragment; default 0 */
  /** The Python version whose grammar boxlint_check_python, boxlint_check_python_cached and
   *  boxlint_python_policies read a `.py` file with: the minor version N of Python 3.N, from
   *  BOXLINT_PYTHON_MINOR_MIN (3.8) to BOXLINT_PYTHON_MINOR_MAX (3.14). 0 (the default) is
   *  the config's `"target-version"` (boxlint_config_set_python_minor) when `config` sets
   *  one, else BOXLINT_PYTHON_MINOR_DEFAULT. Any other value is BOXLINT_EINVAL. A caller
   *  compiled against a header without this field (a shorter `size`) gets 0. */
  int python_minor;
} boxlint_options;

/** The Python versions a `.py` file can be read as (boxlint_options.python_minor): 3.8 to
 *  3.14, and 3.14 when nothing says otherwise. */
#define BOXLINT_PYTHON_MINOR_MIN 8
#define BOXLINT_PYTHON_MINOR_MAX 14
#define BOXLINT_PYTHON_MINOR_DEFAULT 14

/** A target version as the command line and `.boxlint.json` spell it: "py38" ... "py314"
 *  (exactly, lower case) into *minor (8 ... 14). BOXLINT_OK, or BOXLINT_EINVAL (NULL
 *  argument or any other text). */
BOXLINT_API boxlint_status boxlint_python_version_parse(const char *text, size_t len,
                                                        int *minor);

/** Fill `opts` with the defaults. NULL is a no-op. */
BOXLINT_API void boxlint_options_init(boxlint_options *opts);

/** sizeof(boxlint_options) in this library: the size boxlint_options_init writes, so that a
 *  caller compiled against an older header (a binding) can give it room enough. */
BOXLINT_API size_t boxlint_options_size(void);

/** Whether the checks accept `opts` as they are: BOXLINT_OK, or BOXLINT_EINVAL (what the
 *  checks would return) for a NULL or too short struct, an escape other than '\\' and '`',
 *  bounds in the wrong order (cpu_min > cpu_max, memory_min > memory_max), or a python_minor
 *  other than 0 and BOXLINT_PYTHON_MINOR_MIN..BOXLINT_PYTHON_MINOR_MAX. Checks nothing else;
 *  the bindings ask it before they call. */
BOXLINT_API boxlint_status boxlint_options_check(const boxlint_options *opts);

/*==============================================================================================
 * MARK: Checking
 *============================================================================================*/

/**
 * Check a template's commands as BuildKit will read `base + "\n".join(commands)`.
 *
 * Appends every diagnostic of every command to `report` (nothing is cleared first) and sets
 * the report's instruction list to one parsed instruction per command, in order.
 *
 * @param report  receives the findings; required.
 * @param commands  `ncommands` spans; a span may contain any bytes (NUL included) and need not
 *                  be NUL-terminated. Only read, never written. May be NULL when `ncommands` is 0.
 * @param opts  limits and escape character; NULL means the defaults.
 * @return BOXLINT_OK (even when the commands have errors), BOXLINT_EINVAL on a NULL report or an
 *         invalid option, BOXLINT_ENOMEM (the report then holds what was found so far).
 * @note Re-entrant; thread-safe when each thread uses its own report.
 */
BOXLINT_API boxlint_status boxlint_check_commands(boxlint_report *report,
                                                  const boxlint_span *commands, size_t ncommands,
                                                  const boxlint_options *opts);

/**
 * Split a Dockerfile fragment into its instructions exactly as BuildKit splits a file (a leading
 * BOM and parser directives honoured, comment and blank lines between instructions dropped),
 * then check each instruction as one command. Positions are file lines and columns; `command`
 * is the instruction's index. The command-count limit does not apply to a fragment.
 *
 * A comment `# boxlint: ignore=rule-a,rule-b -- reason` (the older `# boxlint ignore=...` is
 * read as the same) among the comment lines right before an instruction suppresses those
 * warnings (never errors) for it; a listed rule that suppresses nothing, and a comment that
 * starts as a boxlint directive but does not parse, are `unused-suppression` warnings at the
 * comment. Suppression comments are read only with a config (`opts->config`).
 *
 * @param buf,len the fragment; need not be NUL-terminated.
 * @param opts NULL for the defaults; the escape character comes from the fragment's own
 *             `# escape=` directive when it has one.
 */
BOXLINT_API boxlint_status boxlint_check_fragment(boxlint_report *report, const char *buf,
                                                  size_t len, const boxlint_options *opts);

/**
 * Split a fragment into instructions without checking them: the report's instruction list is
 * replaced by one instruction per logical instruction, and diagnostics are added only for what
 * makes the file unreadable to BuildKit (an unterminated heredoc at the end).
 */
BOXLINT_API boxlint_status boxlint_split_fragment(boxlint_report *report, const char *buf,
                                                  size_t len, const boxlint_options *opts);

/** What boxlint_check_base found. */
typedef struct boxlint_base_info {
  int appendable;          /**< 1 when commands can be appended safely */
  char escape;             /**< escape character the base sets ('\\' or '`') */
  size_t instructions;     /**< number of instructions in the base */
} boxlint_base_info;

/**
 * Check that a base Dockerfile takes appended commands (docs/design.md §2.6): it ends in a newline,
 * its last instruction is complete (not in a continuation or heredoc), and it has an instruction.
 * Problems are added to `report` as "base-not-appendable" errors with their positions.
 * @param out receives the result; required. Use `out->escape` as boxlint_options.escape.
 */
BOXLINT_API boxlint_status boxlint_check_base(boxlint_base_info *out, boxlint_report *report,
                                              const char *buf, size_t len);

/*==============================================================================================
 * MARK: Templates
 *============================================================================================*/

/** A number field as it came in (JSON, keyword arguments): absent, an integer, or something
 *  else (a fraction, a string, a boolean) that `text` spells for the message. */
typedef struct boxlint_number {
  int present;
  int is_integer;
  int64_t value;
  const char *text; /**< NUL-terminated, or NULL */
} boxlint_number;

/** A template as the platform receives it. Fields not `present`/`has_` are reported as
 *  missing-field. Spans are borrowed for the duration of the call. */
typedef struct boxlint_template {
  boxlint_span name;
  int has_name;
  const boxlint_span *commands;
  size_t ncommands;
  int has_commands;
  boxlint_number cpu_count;
  boxlint_number memory_mb;
  const boxlint_span *extra_fields; /**< names of other fields the template has: each is
                                         reported as unknown-field with the nearest known key */
  size_t nextra_fields;
} boxlint_template;

/**
 * Check a whole template: the name (`invalid-name`), the resources (`invalid-resources`),
 * absent fields (`missing-field`), unknown fields (`unknown-field`, a warning), then the commands as boxlint_check_commands does (and, with a
 * config, the template-wide warnings). Field diagnostics have `command` -1 and `path` set to the
 * field name. Appends to `report`; the instruction list is replaced.
 */
BOXLINT_API boxlint_status boxlint_check_template(boxlint_report *report,
                                                  const boxlint_template *tpl,
                                                  const boxlint_options *opts);

/** The fields of a template object, the names boxlint_check_template reports them by: 0
 *  "name", 1 "commands", 2 "cpu_count", 3 "memory_mb" (templates.create()'s parameters, in its
 *  order), 4 "network_policy"; NULL for `i` past the last. Static storage. */
BOXLINT_API const char *boxlint_template_field(size_t i);

/*==============================================================================================
 * MARK: Rules
 *============================================================================================*/

/** Static description of a rule. */
typedef struct boxlint_rule_info {
  const char *id;            /**< e.g. "unknown-instruction" */
  boxlint_severity severity; /**< default severity */
  const char *summary;       /**< one line */
  const char *description;   /**< what it catches and why it matters in a sandbox template */
  const char *bad;           /**< an example that fires */
  const char *good;          /**< the corrected example */
} boxlint_rule_info;

/** All rules, in a stable order. @param count receives the number (required). */
BOXLINT_API const boxlint_rule_info *boxlint_rules(size_t *count);

/** The rule named `id` (`len` bytes), or NULL. */
BOXLINT_API const boxlint_rule_info *boxlint_rule_find(const char *id, size_t len);

/**
 * The explanation of a rule as `boxlint explain RULE` prints it and the bindings' explain()
 * return it: "ID (SEVERITY): SUMMARY", a blank line, the description, a blank line, then
 * "Bad:" and "Good:" each followed by its example, every line indented by four spaces.
 * @param out receives a new NUL-terminated buffer of `*out_len` bytes, allocated with `alloc`
 *            (NULL: libc); free it with boxlint_buffer_free (boxlint/fix.h) and the same
 *            allocator.
 * @return BOXLINT_OK, BOXLINT_EINVAL (a NULL argument), BOXLINT_ENOMEM (*out NULL).
 */
BOXLINT_API boxlint_status boxlint_rule_explain(const boxlint_rule_info *rule, char **out,
                                                size_t *out_len, const boxlint_alloc *alloc);

#ifdef __cplusplus
}
#endif
#endif

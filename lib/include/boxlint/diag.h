/* boxlint/diag.h: status codes, spans, diagnostics and reports. */
#ifndef boxlint_DIAG_H
#define boxlint_DIAG_H

#include <stddef.h>
#include <stdint.h>
#include "boxlint/export.h"
#include "boxlint/alloc.h"

#ifdef __cplusplus
extern "C" {
#endif

/*==============================================================================================
 * MARK: Status
 *============================================================================================*/

/** Result of a call. Values are never renumbered or reused. Findings in the input are not
 *  failures: a call that found problems returns BOXLINT_OK and puts them in its report. */
typedef enum boxlint_status {
  BOXLINT_OK = 0,
  BOXLINT_EINVAL = -1,  /**< an argument is invalid (NULL where not allowed, bad option) */
  BOXLINT_ENOMEM = -2,  /**< an allocation failed; outputs are left empty, nothing leaks */
  BOXLINT_ESYNTAX = -3, /**< malformed input that cannot be linted (config, JSON) */
  BOXLINT_ELIMIT = -4,  /**< an input exceeds a hard limit */
  BOXLINT_EREGEX = -5   /**< a regular expression failed to compile or hit a match limit */
} boxlint_status;

/** A static, NUL-terminated name for `status` ("BOXLINT_ENOMEM"); "unknown" for others. */
BOXLINT_API const char *boxlint_status_str(boxlint_status status);

/** A read-only byte span. Never NUL-terminated unless documented so. */
typedef struct boxlint_span {
  const char *ptr;
  size_t len;
} boxlint_span;

/*==============================================================================================
 * MARK: Diagnostics
 *============================================================================================*/

/** Severity of a finding, ordered: OFF < INFO < WARNING < ERROR. */
typedef enum boxlint_severity {
  BOXLINT_SEVERITY_OFF = 0,
  BOXLINT_SEVERITY_INFO = 1,
  BOXLINT_SEVERITY_WARNING = 2,
  BOXLINT_SEVERITY_ERROR = 3
} boxlint_severity;

/** The severity named `name` (`len` bytes): "off", "info", "warning" or "error", exactly as
 *  boxlint_severity_str spells them (a `.boxlint.json` and the bindings take these words).
 *  @param out receives it (required). @return BOXLINT_OK, or BOXLINT_EINVAL for any other
 *  text (`*out` unchanged) or a NULL `out`. */
BOXLINT_API boxlint_status boxlint_severity_parse(const char *name, size_t len,
                                                  boxlint_severity *out);

/** "error", "warning", "info" or "off". */
BOXLINT_API const char *boxlint_severity_str(boxlint_severity severity);

/** Whether applying a fix keeps what the template or policy does (docs/command.md "Fixes").
 *  Safe fixes are applied by `--fix`, the editor's "fix all" and the bindings' helpers;
 *  unsafe ones are shown, marked, and applied only when asked for (`--unsafe-fixes`). */
typedef enum boxlint_fix_safety {
  BOXLINT_FIX_SAFE = 0,  /**< the fixed text does what the text evidently meant, nothing else */
  BOXLINT_FIX_UNSAFE = 1 /**< the fix changes what the input does (e.g. egress, a name) */
} boxlint_fix_safety;

/** "safe" or "unsafe", the word of a fix's applicability in the command's JSON and SARIF
 *  output and in the bindings; NULL for other values. Static storage. */
BOXLINT_API const char *boxlint_fix_safety_str(boxlint_fix_safety safety);

/** A machine-readable fix: replace bytes [offset, offset + length) of the command (or file, for
 *  fragments) with `text`. Only attached when the replacement is certain; `safety` says whether
 *  it may be applied without asking. */
typedef struct boxlint_fix {
  size_t offset;
  size_t length;
  const char *text; /**< NUL-terminated replacement, `text_len` bytes */
  size_t text_len;
  const char *description; /**< NUL-terminated, e.g. "insert `RUN `" */
  boxlint_fix_safety safety; /**< BOXLINT_FIX_SAFE (0, so a zeroed fix is safe) or _UNSAFE */
} boxlint_fix;

/**
 * One finding. All strings are NUL-terminated and owned by the report that holds the diagnostic:
 * valid until that report is cleared or freed. `rule` and `detail` point to static storage.
 *
 * Positions: `line` and `column` are 1-based; columns count Unicode code points (invalid bytes
 * count one each). For a command list they are relative to the command, and `offset` is a byte
 * offset into that command; for a fragment they are file positions and `offset` is into the
 * file. The end (`end_line`, `end_column`, `end_offset`) is exclusive. A finding about the whole
 * template, or about a field, has `command` -1 and a zero line.
 */
typedef struct boxlint_diag {
  const char *rule;           /**< stable rule id, e.g. "denied-instruction" */
  boxlint_severity severity;
  int32_t command;            /**< index of the command, or -1 */
  const char *path;           /**< field path ("network_policy.allow_out[2]") or NULL */
  uint32_t line, column;
  uint32_t end_line, end_column;
  size_t offset, end_offset;
  const char *message;        /**< names the offending text */
  const char *hint;           /**< or NULL */
  const char *detail;         /**< sub-reason for some rules (policy entries), or NULL */
  const boxlint_fix *fix;     /**< or NULL */
} boxlint_diag;

/*==============================================================================================
 * MARK: Reports
 *============================================================================================*/

/** A growing list of diagnostics plus, after a command check, each command's parsed
 *  instruction. One report may be reused for many calls (cleared in between): its memory is
 *  kept, so a warm report checks commands without allocating except for new diagnostics.
 *  @note A report is used by one thread at a time; distinct reports need no locking. */
typedef struct boxlint_report boxlint_report;

/** Create an empty report. @param out receives the report (caller frees it with
 *  boxlint_report_free). @param alloc allocator, or NULL for libc.
 *  @return BOXLINT_OK, BOXLINT_EINVAL if `out` is NULL, or BOXLINT_ENOMEM. */
BOXLINT_API boxlint_status boxlint_report_new(boxlint_report **out, const boxlint_alloc *alloc);

/** Free a report and everything it owns. NULL is a no-op. */
BOXLINT_API void boxlint_report_free(boxlint_report *report);

/** Forget all diagnostics and instructions; every pointer obtained from the report becomes
 *  invalid. Memory is kept for reuse. NULL is a no-op. */
BOXLINT_API void boxlint_report_clear(boxlint_report *report);

/** Number of diagnostics (0 for NULL). */
BOXLINT_API size_t boxlint_report_diag_count(const boxlint_report *report);

/** Diagnostic `i`, borrowed from the report; NULL when `i` is out of range. Diagnostics are
 *  ordered by command, then position. */
BOXLINT_API const boxlint_diag *boxlint_report_diag(const boxlint_report *report, size_t i);

/** Number of diagnostics whose severity is at least `min`. */
BOXLINT_API size_t boxlint_report_count_at_least(const boxlint_report *report,
                                                 boxlint_severity min);

/*==============================================================================================
 * MARK: Hints
 *============================================================================================*/

/**
 * The word nearest to a text, for a "did you mean" hint: the word of `words` that the fewest
 * single-byte insertions, deletions and substitutions turn `text` into (Levenshtein distance
 * over bytes, unit costs, ASCII letters compared case-blind), the earlier word on a tie. This is
 * the measure of boxlint's own hints for field names; keyword hints count code points, as
 * BuildKit does.
 * @param text,len the text (`len` bytes; NULL only with 0).
 * @param words,n the candidates, NUL-terminated; NULL entries and words over 255 bytes are
 *  skipped.
 * @param distance receives the nearest word's distance, or SIZE_MAX when there is none; may be
 *  NULL.
 * @return the nearest word's index, or `n` when there is none (no candidate).
 * @note Pure: no allocation, any thread.
 */
BOXLINT_API size_t boxlint_nearest_word(const char *text, size_t len, const char *const *words,
                                        size_t n, size_t *distance);

#ifdef __cplusplus
}
#endif
#endif

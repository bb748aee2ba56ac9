/* Private: emitting diagnostics into a report, and the rule ids the checks emit.
 *
 * A bl_sink is where one input's diagnostics go: the report, the input that positions count
 * in (line and column of a byte offset, columns in code points), the command index and the
 * offset and line of the input in reported coordinates, and the severities a config sets.
 * Every check (dockerfile/, warnings/, lint/) emits through one; the sink knows nothing of
 * Dockerfiles, so this module calls nothing above report/. */
#ifndef boxlint_REPORT_EMIT_H
#define boxlint_REPORT_EMIT_H

#include "report/internal.h"

typedef struct bl_sink {
  boxlint_report *r;
  const boxlint_severity *sev; /* a config's severities (indexed as BL_WARNINGS), or NULL */
  const unsigned char *buf;    /* the input the positions count in */
  size_t len;
  int32_t command;    /* index reported in diagnostics */
  size_t off_base;    /* offset of the input in reported coordinates (fragments: the file) */
  uint32_t line_base; /* line number of the input's first line */
} bl_sink;

/* Line and column of input offset `o`, in reported coordinates. */
void bl_sink_position(const bl_sink *s, size_t o, uint32_t *line, uint32_t *col);
/* Emit a diagnostic of `rule` (its severity under the sink's config) over input bytes [b, e). */
boxlint_diag *bl_sink_emit(bl_sink *s, const char *rule, size_t b, size_t e, const char *fmt, ...)
    BOXLINT_PRINTF(5, 6);
/* With an explicit severity (user rules); OFF emits nothing. */
boxlint_diag *bl_sink_emit_sev(bl_sink *s, const char *rule, boxlint_severity sev, size_t b,
                               size_t e, const char *fmt, ...) BOXLINT_PRINTF(6, 7);
/* The same with a va_list: the sink's severity for `rule`. */
boxlint_diag *bl_sink_emitv(bl_sink *s, const char *rule, size_t b, size_t e, const char *fmt,
                            va_list ap);
void bl_sink_hint(bl_sink *s, boxlint_diag *d, const char *fmt, ...) BOXLINT_PRINTF(3, 4);
/* Quote text for a message (control bytes escaped, at most 60 code points); never NULL. */
const char *bl_sink_q(bl_sink *s, const char *p, size_t n);

/* Rule ids of DESIGN §2.1 (rules.c: the table is their one definition). */
extern const char BL_R_DENIED[], BL_R_UNKNOWN[], BL_R_EMPTY[], BL_R_TOO_MANY[], BL_R_TOO_LONG[],
    BL_R_NUL[], BL_R_BARE_CR[], BL_R_CONTROL[], BL_R_UTF8[], BL_R_NONASCII[], BL_R_MULTIPLE[],
    BL_R_DANGLING[], BL_R_UNTERMINATED[], BL_R_AMBIGUOUS[], BL_R_ONBUILD[], BL_R_MISSING_ARGS[],
    BL_R_INVALID_ARGS[], BL_R_FLAG[], BL_R_BASE[];

/* Built-in warnings whose severity a config may change (index = position in this list). */
extern const char *const BL_WARNINGS[];
extern const size_t BL_NWARNINGS;

/* A config's severities (indexed as BL_WARNINGS), or NULL for a NULL config. Read as data,
 * the way bl_sink.sev is, so that a check below config/ (policy/) applies a config without
 * calling config/: the array is the first member of struct boxlint_config (config_int.h
 * asserts it). */
static inline const boxlint_severity *bl_config_sevs(const struct boxlint_config *c) {
  return c ? *(boxlint_severity *const *)(const void *)c : NULL;
}

/* Default severity of a rule id (ERROR for an unknown id: user rules carry their own). */
boxlint_severity bl_rule_severity(const char *rule);
/* Severity of `rule` under the overrides `sev` (indexed as BL_WARNINGS; NULL: none), or `def`. */
boxlint_severity bl_severity_override(const boxlint_severity *sev, const char *rule,
                                      boxlint_severity def);

#endif

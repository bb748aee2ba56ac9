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

/* The rule table (report/rules.def), as names for the checks:
 * - BL_R_<NAME>: the rule's id, e.g. BL_R_DENIED_INSTRUCTION is "denied-instruction" (defined in
 *   rules.c; a diagnostic's `rule` points to it). Emit with these, never with a literal id.
 * - BL_RI_<NAME>: the rule's index in the table (boxlint_rules()), BL_NRULES rules.
 * - WI_<NAME>: for a rule a config may set, its slot among the config's severities (an index
 *   into BL_WARNINGS and boxlint_config's sev), BL_NWARN slots. */
#define BL_RULE(n, id, sev, cfg, ...) extern const char BL_R_##n[sizeof id];
#include "report/rules.def"
#undef BL_RULE

typedef enum bl_rule_index {
#define BL_RULE(n, ...) BL_RI_##n,
#include "report/rules.def"
#undef BL_RULE
  BL_NRULES
} bl_rule_index;

#define BL_WI_CONFIG(n) WI_##n,
#define BL_WI_FIXED(n)
enum {
#define BL_RULE(n, id, sev, cfg, ...) BL_WI_##cfg(n)
#include "report/rules.def"
#undef BL_RULE
  BL_NWARN
};
#undef BL_WI_CONFIG
#undef BL_WI_FIXED

/* Built-in rules whose severity a config may change (index = WI_*), BL_NWARNINGS == BL_NWARN. */
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

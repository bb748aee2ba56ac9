/* Emitting diagnostics: positions, severities, messages and hints into a report (emit.h). */
#include <string.h>
#include "report/emit.h"

/* Line and column of input offset o, relative to the input's first line. Columns count code
 * points; a byte that is not part of valid UTF-8 counts as one. */
void bl_sink_position(const bl_sink *s, size_t o, uint32_t *line, uint32_t *col) {
  const unsigned char *b = s->buf;
  uint32_t l = s->line_base, c = 1;
  if (o > s->len) o = s->len;
  for (size_t i = 0; i < o;) {
    if (b[i] == '\n') {
      l++;
      c = 1;
      i++;
      continue;
    }
    uint32_t cp;
    size_t w = b[i] < 0x80 ? 1 : boxlint__utf8_decode(b + i, s->len - i, &cp);
    i += w ? w : 1;
    c++;
  }
  *line = l;
  *col = c;
}

static boxlint_diag *emit_v(bl_sink *s, const char *rule, boxlint_severity sev, size_t b,
                            size_t e, const char *fmt, va_list ap) {
  boxlint_report *r = s->r;
  if (sev == BOXLINT_SEVERITY_OFF) return NULL;
  boxlint_diag *d = boxlint__report_add(r, rule, sev, s->command);
  if (!d) return NULL;
  if (e < b) e = b;
  bl_sink_position(s, b, &d->line, &d->column);
  bl_sink_position(s, e, &d->end_line, &d->end_column);
  d->offset = s->off_base + b;
  d->end_offset = s->off_base + e;
  const char *m = boxlint__rvprintf(r, fmt, ap);
  d->message = m ? m : "";
  return d;
}

boxlint_severity bl_severity_override(const boxlint_severity *sev, const char *rule,
                                      boxlint_severity def) {
  if (!sev) return def;
  for (size_t i = 0; i < BL_NWARNINGS; i++) /* the BL_R_* ids by address, the common case */
    if (BL_WARNINGS[i] == rule) return sev[i];
  for (size_t i = 0; i < BL_NWARNINGS; i++)
    if (!strcmp(BL_WARNINGS[i], rule)) return sev[i];
  return def;
}

/* Errors cannot be lowered or switched off (rules.def: an error is FIXED). */
static boxlint_severity severity_of(const bl_sink *s, const char *rule) {
  boxlint_severity def = bl_rule_severity(rule);
  return def == BOXLINT_SEVERITY_ERROR ? def : bl_severity_override(s->sev, rule, def);
}

boxlint_diag *bl_sink_emitv(bl_sink *s, const char *rule, size_t b, size_t e, const char *fmt,
                            va_list ap) {
  return emit_v(s, rule, severity_of(s, rule), b, e, fmt, ap);
}

boxlint_diag *bl_sink_emit(bl_sink *s, const char *rule, size_t b, size_t e, const char *fmt,
                           ...) {
  va_list ap;
  va_start(ap, fmt);
  boxlint_diag *d = emit_v(s, rule, severity_of(s, rule), b, e, fmt, ap);
  va_end(ap);
  return d;
}

boxlint_diag *bl_sink_emit_sev(bl_sink *s, const char *rule, boxlint_severity sev, size_t b,
                               size_t e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  boxlint_diag *d = emit_v(s, rule, sev, b, e, fmt, ap);
  va_end(ap);
  return d;
}

void bl_sink_hint(bl_sink *s, boxlint_diag *d, const char *fmt, ...) {
  if (!d) return;
  if (!strchr(fmt, '%')) { /* a literal: static storage, nothing to format */
    d->hint = fmt;
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  d->hint = boxlint__rvprintf(s->r, fmt, ap);
  va_end(ap);
}

const char *bl_sink_q(bl_sink *s, const char *p, size_t n) {
  const char *q = boxlint__quote(s->r, p, n, 60);
  return q ? q : "";
}

/* report/: the bottom of the library. It owns the allocator plumbing and the arena (alloc.c),
 * reports with their diagnostics, instructions and the strings they own (this file), emitting
 * a diagnostic with its position and severity through a sink (emit.c), and the rule table:
 * ids, default severities, explanations (rules.c). It calls nothing else in the library; the
 * one thing it does for a module above it, freeing a check's scratch buffers with the report,
 * goes through the function pointer that module leaves in the report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/internal.h"

const char *boxlint_status_str(boxlint_status status) {
  switch (status) {
  case BOXLINT_OK: return "BOXLINT_OK";
  case BOXLINT_EINVAL: return "BOXLINT_EINVAL";
  case BOXLINT_ENOMEM: return "BOXLINT_ENOMEM";
  case BOXLINT_ESYNTAX: return "BOXLINT_ESYNTAX";
  case BOXLINT_ELIMIT: return "BOXLINT_ELIMIT";
  case BOXLINT_EREGEX: return "BOXLINT_EREGEX";
  }
  return "unknown";
}

const char *boxlint_severity_str(boxlint_severity severity) {
  switch (severity) {
  case BOXLINT_SEVERITY_ERROR: return "error";
  case BOXLINT_SEVERITY_WARNING: return "warning";
  case BOXLINT_SEVERITY_INFO: return "info";
  case BOXLINT_SEVERITY_OFF: return "off";
  }
  return "off";
}

boxlint_status boxlint_severity_parse(const char *name, size_t len, boxlint_severity *out) {
  if (!out || (!name && len)) return BOXLINT_EINVAL;
  for (int s = BOXLINT_SEVERITY_OFF; s <= BOXLINT_SEVERITY_ERROR; s++) {
    const char *n = boxlint_severity_str((boxlint_severity)s);
    if (strlen(n) == len && !memcmp(n, name, len)) {
      *out = (boxlint_severity)s;
      return BOXLINT_OK;
    }
  }
  return BOXLINT_EINVAL;
}

const char *boxlint_fix_safety_str(boxlint_fix_safety safety) {
  switch (safety) {
  case BOXLINT_FIX_SAFE: return "safe";
  case BOXLINT_FIX_UNSAFE: return "unsafe";
  }
  return NULL;
}

const char *boxlint_version(void) { return BOXLINT_VERSION_STRING; }

boxlint_status boxlint_report_new(boxlint_report **out, const boxlint_alloc *alloc) {
  if (!out) return BOXLINT_EINVAL;
  *out = NULL;
  boxlint__mem m;
  boxlint__mem_init(&m, alloc);
  boxlint_report *r = boxlint__malloc(&m, sizeof *r);
  if (!r) return BOXLINT_ENOMEM;
  memset(r, 0, sizeof *r);
  r->mem = m;
  *out = r;
  return BOXLINT_OK;
}

void boxlint_report_free(boxlint_report *r) {
  if (!r) return;
  boxlint__mem m = r->mem;
  if (r->scratch_free) r->scratch_free(r);
  boxlint__arena_free(&r->arena, &m);
  boxlint__arena_free(&r->tmp, &m);
  boxlint__free(&m, r->diags);
  boxlint__free(&m, r->instrs);
  boxlint__free(&m, r);
}

void boxlint_report_clear(boxlint_report *r) {
  if (!r) return;
  boxlint__arena_reset(&r->arena);
  boxlint__arena_reset(&r->tmp);
  r->ndiags = 0;
  r->ninstrs = 0;
  r->oom = 0;
}

size_t boxlint_report_diag_count(const boxlint_report *r) { return r ? r->ndiags : 0; }

const boxlint_diag *boxlint_report_diag(const boxlint_report *r, size_t i) {
  return r && i < r->ndiags ? &r->diags[i] : NULL;
}

size_t boxlint_report_count_at_least(const boxlint_report *r, boxlint_severity min) {
  size_t n = 0;
  if (!r) return 0;
  for (size_t i = 0; i < r->ndiags; i++) n += r->diags[i].severity >= min;
  return n;
}

size_t boxlint_report_instruction_count(const boxlint_report *r) { return r ? r->ninstrs : 0; }

const boxlint_instruction *boxlint_report_instruction(const boxlint_report *r, size_t i) {
  return r && i < r->ninstrs ? &r->instrs[i] : NULL;
}

void *boxlint__ralloc(boxlint_report *r, size_t n) {
  void *p = boxlint__arena_alloc(&r->arena, &r->mem, n);
  if (!p) r->oom = 1;
  return p;
}

void *boxlint__rtmp(boxlint_report *r, size_t n) {
  void *p = boxlint__arena_alloc(&r->tmp, &r->mem, n);
  if (!p) r->oom = 1;
  return p;
}

/* p[0..n) and a NUL in `s` (n + 1 bytes from one of the report's arenas), or NULL. */
static char *dup_into(char *s, const char *p, size_t n) {
  if (!s) return NULL;
  if (n) memcpy(s, p, n);
  s[n] = 0;
  return s;
}

char *boxlint__rtmpdup(boxlint_report *r, const char *p, size_t n) {
  return n == SIZE_MAX ? NULL : dup_into(boxlint__rtmp(r, n + 1), p, n);
}

void boxlint__rtmp_reset(boxlint_report *r) { boxlint__arena_reset(&r->tmp); }

char *boxlint__rstrdup(boxlint_report *r, const char *p, size_t n) {
  return n == SIZE_MAX ? NULL : dup_into(boxlint__ralloc(r, n + 1), p, n);
}

/* Decimal digits of v, right-aligned in d[0..24); returns where they start. */
static size_t put_dec(char d[24], unsigned long long v) {
  size_t i = 24;
  do {
    d[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  return i;
}

/* printf for the conversions boxlint's messages use (%s %.*s %c %d %u %zu %lld %02x %%),
 * without stdio's set-up cost. Returns the length written to out[0..cap) (NUL-terminated),
 * or -1 for any other conversion or when the text does not fit: the caller then formats with
 * vsnprintf. */
static int format_small(char *out, size_t cap, const char *fmt, va_list ap) {
  size_t o = 0;
  for (const char *f = fmt; *f; f++) {
    const char *s = f;
    size_t n = 1;
    char num[24];
    if (*f != '%') { /* a run of literal text */
      while (f[n] && f[n] != '%') n++;
      f += n - 1;
    } else {
      f++;
      if (*f == '%') {
        s = "%";
      } else if (*f == 's') {
        s = va_arg(ap, const char *);
        if (!s) s = "(null)";
        n = strlen(s);
      } else if (f[0] == '.' && f[1] == '*' && f[2] == 's') {
        int prec = va_arg(ap, int);
        s = va_arg(ap, const char *);
        if (!s) return -1;
        const char *z = prec < 0 ? NULL : memchr(s, 0, (size_t)prec);
        n = prec < 0 ? strlen(s) : z ? (size_t)(z - s) : (size_t)prec;
        f += 2;
      } else if (*f == 'c') {
        num[0] = (char)va_arg(ap, int);
        s = num;
      } else if (*f == 'd' || *f == 'u' || (f[0] == 'z' && f[1] == 'u') ||
                 (f[0] == 'l' && f[1] == 'l' && f[2] == 'd')) {
        unsigned long long v;
        int neg = 0;
        if (*f == 'd' || *f == 'l') {
          long long x = *f == 'd' ? va_arg(ap, int) : va_arg(ap, long long);
          neg = x < 0;
          v = neg ? 0ull - (unsigned long long)x : (unsigned long long)x;
          f += *f == 'l' ? 2 : 0;
        } else if (*f == 'u') {
          v = va_arg(ap, unsigned);
        } else {
          v = va_arg(ap, size_t);
          f++;
        }
        size_t i = put_dec(num, v);
        if (neg) num[--i] = '-';
        s = num + i;
        n = 24 - i;
      } else if (f[0] == '0' && f[1] == '2' && f[2] == 'x') {
        static const char HEX[] = "0123456789abcdef";
        unsigned v = va_arg(ap, unsigned);
        size_t i = 24;
        do {
          num[--i] = HEX[v & 15];
          v >>= 4;
        } while (v);
        while (i > 22) num[--i] = '0';
        s = num + i;
        n = 24 - i;
        f += 2;
      } else {
        return -1;
      }
    }
    if (n >= cap - o) return -1;
    memcpy(out + o, s, n);
    o += n;
  }
  out[o] = 0;
  return (int)o;
}

const char *boxlint__rvprintf(boxlint_report *r, const char *fmt, va_list ap) {
  /* Most messages fit a stack buffer: format once, then copy; else format again to size. */
  char stack[512];
  va_list ap2;
  va_copy(ap2, ap);
  int n = format_small(stack, sizeof stack, fmt, ap2);
  va_end(ap2);
  if (n < 0) {
    va_copy(ap2, ap);
    n = vsnprintf(stack, sizeof stack, fmt, ap2);
    va_end(ap2);
  }
  if (n < 0) return NULL;
  char *s = boxlint__ralloc(r, (size_t)n + 1);
  if (!s) return NULL;
  if ((size_t)n < sizeof stack)
    memcpy(s, stack, (size_t)n + 1);
  else
    vsnprintf(s, (size_t)n + 1, fmt, ap);
  return s;
}

const char *boxlint__rprintf(boxlint_report *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const char *s = boxlint__rvprintf(r, fmt, ap);
  va_end(ap);
  return s;
}

const char *boxlint__rmsg(boxlint_report *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const char *s = boxlint__rvprintf(r, fmt, ap);
  va_end(ap);
  return s ? s : "";
}

boxlint_diag *boxlint__report_add(boxlint_report *r, const char *rule, boxlint_severity sev,
                                  int32_t command) {
  if (r->ndiags == r->cap_diags) {
    size_t cap = r->cap_diags ? r->cap_diags * 2 : 16;
    boxlint_diag *d = boxlint__realloc(&r->mem, r->diags, r->cap_diags * sizeof *d,
                                       cap * sizeof *d);
    if (!d) {
      r->oom = 1;
      return NULL;
    }
    r->diags = d;
    r->cap_diags = cap;
  }
  boxlint_diag *d = &r->diags[r->ndiags++];
  memset(d, 0, sizeof *d);
  d->rule = rule;
  d->severity = sev;
  d->command = command;
  d->message = "";
  return d;
}

void boxlint__diag_fix(boxlint_report *r, boxlint_diag *d, size_t offset, size_t length,
                       const char *text, size_t text_len, const char *description) {
  boxlint_fix *f = boxlint__ralloc(r, sizeof *f);
  if (!f) return;
  f->offset = offset;
  f->length = length;
  f->text = boxlint__rstrdup(r, text, text_len);
  f->text_len = text_len;
  f->description = description;
  f->safety = BOXLINT_FIX_SAFE;
  if (f->text) d->fix = f;
}

void boxlint__diag_fix_safety(boxlint_diag *d, boxlint_fix_safety safety) {
  if (d && d->fix) ((boxlint_fix *)(uintptr_t)d->fix)->safety = safety; /* the report's own */
}

boxlint_instruction *boxlint__report_add_instruction(boxlint_report *r) {
  boxlint_instruction *in = boxlint__report_push_instruction(r);
  if (in) memset(in, 0, sizeof *in);
  return in;
}

boxlint_instruction *boxlint__report_push_instruction(boxlint_report *r) {
  if (r->ninstrs == r->cap_instrs) {
    size_t cap = r->cap_instrs ? r->cap_instrs * 2 : 16;
    boxlint_instruction *p = boxlint__realloc(&r->mem, r->instrs, r->cap_instrs * sizeof *p,
                                              cap * sizeof *p);
    if (!p) {
      r->oom = 1;
      return NULL;
    }
    r->instrs = p;
    r->cap_instrs = cap;
  }
  return &r->instrs[r->ninstrs++];
}

static int diag_before(const boxlint_diag *a, const boxlint_diag *b) {
  if (a->command != b->command) return a->command < b->command;
  return a->offset < b->offset;
}

void boxlint__report_sort(boxlint_report *r, size_t from) {
  /* Insertion sort: diagnostics arrive almost in order, and it is stable. */
  for (size_t i = from + 1; i < r->ndiags; i++) {
    boxlint_diag x = r->diags[i];
    size_t j = i;
    while (j > from && diag_before(&x, &r->diags[j - 1])) {
      r->diags[j] = r->diags[j - 1];
      j--;
    }
    r->diags[j] = x;
  }
}

const char *boxlint__quote(boxlint_report *r, const char *p, size_t n, size_t max_cp) {
  /* Worst case: every byte becomes 4 bytes, plus "..." and NUL. */
  size_t lim = n;
  size_t cp = 0, i = 0;
  for (; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    if ((c & 0xC0) != 0x80) {
      if (cp == max_cp) break;
      cp++;
    }
  }
  lim = i;
  int cut = lim < n;
  if (lim > (SIZE_MAX - 8) / 4) return NULL;
  char *out = boxlint__ralloc(r, lim * 4 + 8);
  if (!out) return NULL;
  size_t o = 0;
  static const char hex[] = "0123456789abcdef";
  for (i = 0; i < lim; i++) {
    unsigned char c = (unsigned char)p[i];
    if (c == '\n') { out[o++] = '\\'; out[o++] = 'n'; }
    else if (c == '\r') { out[o++] = '\\'; out[o++] = 'r'; }
    else if (c == '\t') { out[o++] = '\\'; out[o++] = 't'; }
    else if (c < 0x20 || c == 0x7f) {
      out[o++] = '\\'; out[o++] = 'x'; out[o++] = hex[c >> 4]; out[o++] = hex[c & 15];
    } else if (c >= 0x80) {
      uint32_t cpv;
      size_t l = boxlint__utf8_decode((const unsigned char *)p + i, lim - i, &cpv);
      if (!l) {
        out[o++] = '\\'; out[o++] = 'x'; out[o++] = hex[c >> 4]; out[o++] = hex[c & 15];
      } else {
        memcpy(out + o, p + i, l);
        o += l;
        i += l - 1;
      }
    } else out[o++] = (char)c;
  }
  if (cut) { out[o++] = '.'; out[o++] = '.'; out[o++] = '.'; }
  out[o] = 0;
  return out;
}

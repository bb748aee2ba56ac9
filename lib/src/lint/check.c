/*
 * lint/: the library's entry points for Dockerfile input, on top of everything else. This file
 * checks a list of commands, a fragment file (split as BuildKit splits it, with suppression
 * comments) and a base: for each command it sets the input, runs the instruction checks of
 * dockerfile/ and then the warnings of warnings/, and sorts the report; template.c adds the
 * template-wide checks. It owns the checker's scratch buffers, kept warm in the report between
 * calls. It may call report/, config/, dockerfile/ and warnings/; nothing calls it.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "config/config_int.h"
#include "dockerfile/dockerfile_int.h"
#include "report/suppress.h"

void boxlint_options_init(boxlint_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->size = sizeof *o;
  o->max_commands = BOXLINT_DEFAULT_MAX_COMMANDS;
  o->max_command_bytes = BOXLINT_DEFAULT_MAX_COMMAND_BYTES;
  o->escape = '\\';
  o->cpu_min = 1;
  o->cpu_max = 8;
  o->memory_min = 512;
  o->memory_max = 16384;
}

size_t boxlint_options_size(void) { return sizeof(boxlint_options); }

/* ---- Entry points ---------------------------------------------------------------------- */

/* The checker's growable buffers live in the report between calls, so that a warm report
 * checks commands without allocating. */
typedef struct bl_scratch {
  bl_seg *segs;
  size_t capsegs;
  bl_flag *flags;
  size_t capflags;
  bl_words w1, w2, w3;
  bl_buf shpool[3];
  uint64_t *lfbuf;
  size_t caplfm;
} bl_scratch;

static void scratch_release(const boxlint__mem *m, bl_scratch *s) {
  boxlint__free(m, s->segs);
  boxlint__free(m, s->flags);
  boxlint__free(m, s->lfbuf);
  bl_words_free(m, &s->w1);
  bl_words_free(m, &s->w2);
  bl_words_free(m, &s->w3);
  for (int i = 0; i < 3; i++) bl_buf_free(m, &s->shpool[i]);
}

static void scratch_free(boxlint_report *r) {
  if (!r->scratch) return;
  scratch_release(&r->mem, r->scratch);
  boxlint__free(&r->mem, r->scratch);
  r->scratch = NULL;
}

/* Returns -1 when the report's scratch cannot be allocated. */
static int ctx_init(bl_check *ck, boxlint_report *r, const boxlint_options *opts) {
  memset(ck, 0, sizeof *ck);
  if (!r->scratch) {
    r->scratch = boxlint__malloc(&r->mem, sizeof(bl_scratch));
    if (!r->scratch) {
      r->oom = 1;
      return -1;
    }
    memset(r->scratch, 0, sizeof(bl_scratch));
    r->scratch_free = scratch_free; /* the report frees it through its owner */
  }
  bl_scratch *s = r->scratch;
  {
    ck->cx.segs = s->segs;
    ck->cx.capsegs = s->capsegs;
    ck->cx.flags = s->flags;
    ck->cx.capflags = s->capflags;
    ck->cx.w1 = s->w1;
    ck->cx.w2 = s->w2;
    ck->cx.w3 = s->w3;
    memcpy(ck->cx.shpool, s->shpool, sizeof s->shpool);
    ck->cx.lfbuf = s->lfbuf;
    ck->cx.caplfm = s->caplfm;
  }
  ck->cx.r = r;
  ck->em.r = r;
  ck->em.sev = opts->config ? opts->config->sev : NULL;
  ck->cx.m = &r->mem;
  ck->cx.esc = opts->escape;
  ck->opts = opts;
  ck->em.line_base = 1;
  ck->last_user_cmd = -1;
  return 0;
}

static void ctx_free(bl_check *ck) {
  boxlint_report *r = ck->cx.r;
  bl_warn_free(ck);
  bl_scratch tmp = {ck->cx.segs, ck->cx.capsegs, ck->cx.flags, ck->cx.capflags,
                    ck->cx.w1, ck->cx.w2, ck->cx.w3, {{0}}, ck->cx.lfbuf, ck->cx.caplfm};
  memcpy(tmp.shpool, ck->cx.shpool, sizeof tmp.shpool);
  *(bl_scratch *)r->scratch = tmp;
}

/* Check the current input as one command: the instruction checks, then the warnings. */
static int check_command(bl_check *ck, boxlint_instruction *in) {
  bl_read rd;
  boxlint__rtmp_reset(ck->cx.r); /* the previous instruction's scratch: shell words, lines */
  ck->cx.scratch_logical = ck->lean;
  int rc = bl_check_instruction(ck, in, &rd);
  ck->cx.scratch_logical = 0;
  if (rc <= 0) return rc;
  if (ck->opts->config && !ck->bad_utf8) bl_warn_instruction(ck, &rd);
  return ck->cx.oom ? -1 : 0;
}

/* The input that the reader reads and that positions count in. */
static void set_input(bl_check *ck, const unsigned char *buf, size_t len, size_t off_base,
                      uint32_t line_base) {
  ck->cx.buf = ck->em.buf = buf;
  ck->cx.len = ck->em.len = len;
  ck->cx.lfm = NULL;
  ck->cx.copy = NULL;
  ck->cx.no_lt = 0;
  ck->em.off_base = off_base;
  ck->em.line_base = line_base;
}

/* Options from before `no_instructions` was added are accepted: it is then 0. */
#define BOXLINT__OPTIONS_V1 offsetof(boxlint_options, no_instructions)

/* ... and from before `python_minor`: it is then 0 (the config's, or the default). */
#define BOXLINT__OPTIONS_V2 (offsetof(boxlint_options, python_minor) + sizeof(int))

static int options_ok(const boxlint_options *o) {
  int minor = o->size >= BOXLINT__OPTIONS_V2 ? o->python_minor : 0;
  return o->size >= BOXLINT__OPTIONS_V1 && (o->escape == '\\' || o->escape == '`') &&
         o->cpu_min <= o->cpu_max && o->memory_min <= o->memory_max &&
         (minor == 0 || (minor >= BOXLINT_PYTHON_MINOR_MIN && minor <= BOXLINT_PYTHON_MINOR_MAX));
}

boxlint_status boxlint_python_version_parse(const char *text, size_t len, int *minor) {
  if (!text || !minor || len < 4 || len > 5 || memcmp(text, "py3", 3)) return BOXLINT_EINVAL;
  int v = 0;
  for (size_t i = 3; i < len; i++) {
    if (text[i] < '0' || text[i] > '9') return BOXLINT_EINVAL;
    v = v * 10 + (text[i] - '0');
  }
  if ((len == 5 && text[3] == '0') || v < BOXLINT_PYTHON_MINOR_MIN ||
      v > BOXLINT_PYTHON_MINOR_MAX)
    return BOXLINT_EINVAL;
  *minor = v;
  return BOXLINT_OK;
}

boxlint_status boxlint_options_check(const boxlint_options *opts) {
  return opts && options_ok(opts) ? BOXLINT_OK : BOXLINT_EINVAL;
}

/* Options (NULL: the defaults, in *def), their validation, and the check's context. */
static boxlint_status begin(bl_check *ck, boxlint_report *report, const boxlint_options **opts,
                            boxlint_options *def) {
  if (!*opts) {
    boxlint_options_init(def);
    *opts = def;
  }
  if (!options_ok(*opts)) return BOXLINT_EINVAL;
  return ctx_init(ck, report, *opts) ? BOXLINT_ENOMEM : BOXLINT_OK;
}

boxlint_status boxlint_check_commands(boxlint_report *report, const boxlint_span *commands,
                                      size_t ncommands, const boxlint_options *opts) {
  boxlint_options def;
  bl_check ck;
  if (!report || (ncommands && !commands)) return BOXLINT_EINVAL;
  boxlint_status st = begin(&ck, report, &opts, &def);
  if (st != BOXLINT_OK) return st;
  size_t first = report->ndiags;
  report->ninstrs = 0;
  int rc = 0;
  if (opts->max_commands && ncommands > opts->max_commands) {
    ck.em.command = (int32_t)(opts->max_commands > INT32_MAX ? INT32_MAX : opts->max_commands);
    set_input(&ck, (const unsigned char *)"", 0, 0, 1);
    boxlint_diag *d = bl_emit(&ck, BL_R_TOO_MANY_COMMANDS, 0, 0,
                              "%zu commands, more than the limit of %zu", ncommands,
                              opts->max_commands);
    bl_hint(&ck, d, "join related steps into one RUN with && and line continuations");
  }
  for (size_t i = 0; i < ncommands && rc == 0; i++) {
    boxlint_instruction *in = boxlint__report_push_instruction(report); /* check_command fills it */
    if (!in) { rc = -1; break; }
    ck.em.command = (int32_t)(i > INT32_MAX ? INT32_MAX : i);
    set_input(&ck, (const unsigned char *)(commands[i].ptr ? commands[i].ptr : ""),
              commands[i].ptr ? commands[i].len : 0, 0, 1);
    rc = check_command(&ck, in);
    if (rc) memset(in, 0, sizeof *in); /* out of memory before it was filled */
  }
  if (rc == 0 && opts->config) bl_warn_finish(&ck);
  ctx_free(&ck);
  boxlint__report_sort(report, first);
  return rc || report->oom ? BOXLINT_ENOMEM : BOXLINT_OK;
}

/* Go's parser-directive regexp: ^#\s*([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$ on a left-trimmed
 * line. Returns 1 with the key and value, else 0. */
static int directive(const unsigned char *p, const unsigned char *e, boxlint_span *key,
                     boxlint_span *val) {
#define ISS(c) ((c) == ' ' || (c) == '\t' || (c) == '\n' || (c) == '\f' || (c) == '\r')
  if (p >= e || *p != '#') return 0;
  p++;
  while (p < e && ISS(*p)) p++;
  if (p >= e || !boxlint__is_alpha(*p)) return 0;
  const unsigned char *k = p;
  while (p < e && (boxlint__is_alpha(*p) || boxlint__is_digit(*p))) p++;
  key->ptr = (const char *)k;
  key->len = (size_t)(p - k);
  while (p < e && ISS(*p)) p++;
  if (p >= e || *p != '=') return 0;
  p++;
  while (p < e && ISS(*p)) p++;
  while (e > p && ISS(e[-1])) e--;
  if (p >= e) return 0;
  val->ptr = (const char *)p;
  val->len = (size_t)(e - p);
  return 1;
#undef ISS
}

/* BOM and parser directives at the top of a file. Returns where instructions may start, and
 * sets the escape character; reports bad directives. */
static size_t file_prologue(bl_check *ck, uint32_t *line) {
  size_t pos = 0, next;
  if (ck->cx.len >= 3 && !memcmp(ck->cx.buf, "\xEF\xBB\xBF", 3)) pos = 3;
  int seen_escape = 0, seen_syntax = 0, seen_check = 0;
  while (pos < ck->cx.len) {
    size_t e = bl_line_end(&ck->cx, pos, &next);
    const unsigned char *p = ck->cx.buf + pos, *end = ck->cx.buf + e;
    size_t l;
    while (p < end && (l = bl_lex_space(p, end)) != 0) p += l;
    boxlint_span key, val;
    if (!directive(p, end, &key, &val)) break;
    int *seen;
    if (boxlint__ieq(key.ptr, key.len, "escape")) seen = &seen_escape;
    else if (boxlint__ieq(key.ptr, key.len, "syntax")) seen = &seen_syntax;
    else if (boxlint__ieq(key.ptr, key.len, "check")) seen = &seen_check;
    else break;
    size_t s = (size_t)((const unsigned char *)key.ptr - ck->cx.buf);
    if ((*seen)++) {
      bl_emit(ck, BL_R_INVALID_ARGUMENTS, s, e, "only one %s parser directive can be used",
              bl_q(ck, key.ptr, key.len));
    } else if (seen == &seen_escape) {
      if (val.len == 1 && (val.ptr[0] == '\\' || val.ptr[0] == '`'))
        ck->cx.esc = val.ptr[0];
      else
        bl_emit(ck, BL_R_INVALID_ARGUMENTS, s, e,
                "invalid escape token '%s' does not match ` or \\",
                bl_q(ck, val.ptr, val.len));
    }
    pos = next;
    (*line)++;
  }
  return pos;
}

/* Suppression comments (report/suppress.h: the one syntax, `# boxlint: ignore=rule-a,rule-b
 * -- reason`, the older `# boxlint ignore=` read as the same): those among the comment lines
 * right before an instruction apply to it; each listed rule's warnings and infos on that
 * instruction are dropped (errors never), and a listed id that dropped nothing is reported as
 * unused-suppression (so is an id listed twice). A directive comment with a blank line or the
 * end of the file after it applies to nothing, and a malformed one or one listing more than
 * BL_SUP_MAX_IDS ids suppresses nothing: each is reported, never passed over in silence.
 * Linear in the comments and the findings (issue 23: one comment with 80,000 ids took 18 s):
 * the findings are grouped by instruction once, and each comment's ids are hashed. */
typedef struct sup {
  size_t s, e;    /* the comment line */
  int32_t index;  /* the instruction it applies to (or, detached, the one it is reported on) */
  int attached;   /* among the comment lines right before instruction `index` */
} sup;
typedef struct sups {
  sup *v;
  size_t n, cap;
} sups;
typedef struct sup_ord { int32_t command; size_t i; } sup_ord;
typedef struct sup_run {
  bl_check *ck;
  const unsigned char *file; /* the fragment; ids are offsets in it */
  size_t flen;
  size_t at;           /* a line start before the next comment, and its line number */
  uint32_t line;
  size_t first, nd;    /* the findings the comments apply to: [first, first + nd) */
  sup_ord *ord;        /* those findings by instruction, then as emitted */
  unsigned char *gone; /* dropped, by index from `first` */
  size_t j;            /* the next of ord to look at (comments come in instruction order) */
} sup_run;

/* The directive comments among the lines [a, b) between two instructions (blank and comment
 * lines only), in file order: those after the last blank line of the gap are attached to
 * instruction `index` when `attach`. Returns 0, or -1 out of memory. */
static int sup_gap(boxlint_report *r, const unsigned char *f, size_t a, size_t b, int32_t index,
                   int attach, sups *v) {
  size_t block = v->n; /* the first candidate after the last blank line */
  for (size_t ls = a; ls < b;) {
    const unsigned char *nl = memchr(f + ls, '\n', b - ls);
    size_t le = nl ? (size_t)(nl - f) : b, i = ls;
    while (i < le && (f[i] == ' ' || f[i] == '\t' || f[i] == '\r' || f[i] == '\f' || f[i] == '\v'))
      i++;
    bl_sup_comment c;
    if (i >= le || f[i] != '#') {
      block = v->n;
    } else if (bl_sup_read((const char *)f, i, le, &c) != BL_SUP_NONE) {
      if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 8;
        sup *ns = boxlint__ralloc(r, cap * sizeof *ns);
        if (!ns) return -1;
        if (v->n) memcpy(ns, v->v, v->n * sizeof *ns);
        v->v = ns;
        v->cap = cap;
      }
      v->v[v->n++] = (sup){i, le, index, 0};
    }
    ls = nl ? le + 1 : b;
  }
  for (size_t k = block; attach && k < v->n; k++) v->v[k].attached = 1;
  return 0;
}

/* The input set to the line holding offset `s` (its start returned), so that a finding's
 * position is counted from there, not from the file's start: comments come in file order, and
 * the line number is carried from one to the next. */
static size_t sup_line(sup_run *x, size_t s) {
  size_t ls = s;
  while (ls > x->at && x->file[ls - 1] != '\n') ls--;
  for (size_t i = x->at; i < ls; i++) x->line += x->file[i] == '\n';
  x->at = ls;
  set_input(x->ck, x->file + ls, x->flen - ls, ls, x->line);
  return ls;
}

typedef struct sup_unused_ctx { sup_run *x; size_t ls; int attached; } sup_unused_ctx;

/* An id [a, b) of the comment that dropped nothing (the input is set to the comment's line). */
static int sup_unused(void *ctx, size_t a, size_t b) {
  sup_unused_ctx *u = ctx;
  bl_check *ck = u->x->ck;
  const char *f = (const char *)u->x->file;
  const char *m = bl_sup_unused_message(ck->cx.r, f, a, b, u->attached
                                          ? "on the next instruction"
                                          : "(a suppression applies to the instruction right "
                                            "after its comment lines; a blank line or the end "
                                            "of the file follows this one)");
  boxlint_diag *d = bl_emit(ck, BL_R_UNUSED_SUPPRESSION, a - u->ls, b - u->ls, "%s", m);
  if (d) bl_hint(ck, d, "%s", bl_sup_unused_hint(ck->cx.r, f, a, b));
  return 0;
}

/* One comment over its instruction's findings. Returns 0, or -1 out of memory. */
static int sup_apply(sup_run *x, const sup *c) {
  bl_check *ck = x->ck;
  boxlint_report *r = ck->cx.r;
  const char *f = (const char *)x->file;
  bl_sup_comment sc;
  while (x->j < x->nd && x->ord[x->j].command < c->index) x->j++;
  (void)bl_sup_read(f, c->s, c->e, &sc);
  size_t ls = sup_line(x, c->s);
  ck->em.command = c->index;
  if (sc.kind != BL_SUP_IGNORE) { /* malformed, or over the limit: it suppresses nothing */
    size_t a, b;
    bl_sup_bad_span(&sc, &a, &b);
    boxlint_diag *d = bl_emit(ck, BL_R_UNUSED_SUPPRESSION, a - ls, b - ls, "%s",
                              bl_sup_bad_message(r, f, &sc));
    bl_hint(ck, d, "%s", bl_sup_bad_hint(&sc));
    return 0;
  }
  bl_sup_table t;
  if (bl_sup_table_init(&t, &r->mem, f, &sc)) return -1;
  for (size_t k = x->j; c->attached && k < x->nd && x->ord[k].command == c->index; k++)
    if (bl_sup_table_silences(&t, &r->diags[x->ord[k].i])) x->gone[x->ord[k].i - x->first] = 1;
  sup_unused_ctx u = {x, ls, c->attached};
  (void)bl_sup_table_unused(&t, sup_unused, &u);
  bl_sup_table_free(&t, &r->mem);
  return 0;
}

static int by_command(const void *p, const void *q) {
  const sup_ord *a = p, *b = q;
  if (a->command != b->command) return a->command < b->command ? -1 : 1;
  return a->i < b->i ? -1 : a->i > b->i;
}

/* Every comment of the fragment (in instruction order) over the findings from `first`.
 * Returns 0, or -1 out of memory. */
static int apply_suppressions(bl_check *ck, size_t first, const sup *v, size_t nsup) {
  boxlint_report *r = ck->cx.r;
  sup_run x = {ck, ck->cx.buf, ck->cx.len, 0, 1, first, r->ndiags - first, NULL, NULL, 0};
  x.ord = boxlint__malloc(&r->mem, (x.nd + 1) * sizeof *x.ord);
  x.gone = boxlint__malloc(&r->mem, x.nd + 1);
  int rc = !x.ord || !x.gone ? -1 : 0;
  if (!rc) {
    memset(x.gone, 0, x.nd + 1);
    for (size_t i = 0; i < x.nd; i++) x.ord[i] = (sup_ord){r->diags[first + i].command, first + i};
    qsort(x.ord, x.nd, sizeof *x.ord, by_command);
    for (size_t i = 0; !rc && i < nsup; i++) rc = sup_apply(&x, &v[i]);
  }
  if (!rc) { /* drop what was suppressed, keeping the order of the rest */
    size_t w = first;
    for (size_t i = first; i < r->ndiags; i++)
      if (i >= first + x.nd || !x.gone[i - first]) r->diags[w++] = r->diags[i];
    r->ndiags = w;
  }
  boxlint__free(&r->mem, x.ord);
  boxlint__free(&r->mem, x.gone);
  return rc;
}

/* A fragment most of whose instructions are unknown words is likely no Dockerfile at all (a
 * notebook or notes read as one with --kind fragment): "insert RUN" or "replace with SHELL" on
 * each of them would turn the file into something else, so there those fixes are unsafe (shown,
 * applied only when asked for). Two or more, on more than half of the instructions. */
static void most_unknown_fixes_unsafe(boxlint_report *r, size_t first, int32_t ninstrs) {
  size_t n = 0;
  for (size_t i = first; i < r->ndiags; i++)
    n += r->diags[i].fix && !strcmp(r->diags[i].rule, BL_R_UNKNOWN_INSTRUCTION);
  if (n < 2 || n * 2 <= (size_t)ninstrs) return;
  for (size_t i = first; i < r->ndiags; i++) {
    boxlint_diag *d = &r->diags[i];
    if (d->fix && !strcmp(d->rule, BL_R_UNKNOWN_INSTRUCTION))
      ((boxlint_fix *)(uintptr_t)d->fix)->safety = BOXLINT_FIX_UNSAFE; /* the report's own */
  }
}

/* Split (and optionally check) a fragment. */
static boxlint_status fragment(boxlint_report *report, const char *buf, size_t len,
                               const boxlint_options *opts, int check) {
  boxlint_options def;
  bl_check ck;
  if (!report || (len && !buf)) return BOXLINT_EINVAL;
  boxlint_status st = begin(&ck, report, &opts, &def);
  if (st != BOXLINT_OK) return st;
  ck.lean = check && opts->size >= BOXLINT__OPTIONS_V1 + sizeof opts->no_instructions &&
            opts->no_instructions;
  size_t first = report->ndiags;
  report->ninstrs = 0;
  set_input(&ck, (const unsigned char *)(buf ? buf : ""), buf ? len : 0, 0, 1);
  ck.em.command = -1;
  uint32_t line = 1;
  size_t pos = file_prologue(&ck, &line);
  int rc = 0;
  const unsigned char *file = ck.cx.buf;
  size_t flen = ck.cx.len;
  int32_t index = 0;
  sups sv = {NULL, 0, 0};
  while (rc == 0) {
    bl_read rd;
    set_input(&ck, file, flen, 0, 1);
    ck.cx.nsegs = ck.cx.nflags = 0;
    /* Checked, the instruction is read again as a command below: this read only finds its end,
     * and its logical line need not outlive it. */
    boxlint__rtmp_reset(report);
    ck.cx.scratch_logical = check;
    int rrc = bl_read_instruction(&ck.cx, pos, line, &rd);
    ck.cx.scratch_logical = 0;
    if (rrc) { rc = -1; break; }
    if (!rd.found) break;
    boxlint_instruction lean_in; /* no_instructions: filled, checked and dropped */
    boxlint_instruction *in = ck.lean ? memset(&lean_in, 0, sizeof lean_in)
                                      : boxlint__report_add_instruction(report);
    if (!in) { rc = -1; break; }
    if (!check) {
      ck.em.command = index;
      rc = bl_split_instruction(&ck, &rd, in);
    } else {
      /* Check the instruction's own bytes as one command, at its file position. */
      set_input(&ck, file + rd.start, rd.end - rd.start, rd.start, rd.line);
      ck.em.command = index;
      rc = check_command(&ck, in);
      /* Suppressions are applied after the last instruction (final-user-not-root is decided
       * only then), and only when warnings run at all. */
      if (rc == 0 && opts->config && sup_gap(report, file, pos, rd.start, index, 1, &sv))
        rc = -1;
    }
    index++;
    pos = rd.end;
    line = rd.end_line + 1;
    if (rd.end >= flen) break;
  }
  if (rc == 0 && check && opts->config) bl_warn_finish(&ck);
  if (rc == 0 && check) most_unknown_fixes_unsafe(report, first, index);
  /* directive comments after the last instruction: reported on it */
  if (rc == 0 && check && opts->config && pos < flen &&
      sup_gap(report, file, pos, flen, index ? index - 1 : -1, 0, &sv))
    rc = -1;
  set_input(&ck, file, flen, 0, 1);
  if (rc == 0 && sv.n && apply_suppressions(&ck, first, sv.v, sv.n)) rc = -1;
  ctx_free(&ck);
  boxlint__report_sort(report, first);
  return rc || report->oom ? BOXLINT_ENOMEM : BOXLINT_OK;
}

boxlint_status boxlint_check_fragment(boxlint_report *report, const char *buf, size_t len,
                                      const boxlint_options *opts) {
  return fragment(report, buf, len, opts, 1);
}

boxlint_status boxlint_split_fragment(boxlint_report *report, const char *buf, size_t len,
                                      const boxlint_options *opts) {
  return fragment(report, buf, len, opts, 0);
}

boxlint_status boxlint_check_base(boxlint_base_info *out, boxlint_report *report, const char *buf,
                                  size_t len) {
  if (!out || !report || (len && !buf)) return BOXLINT_EINVAL;
  boxlint_options opts;
  boxlint_options_init(&opts);
  bl_check ck;
  if (ctx_init(&ck, report, &opts)) return BOXLINT_ENOMEM;
  set_input(&ck, (const unsigned char *)(buf ? buf : ""), buf ? len : 0, 0, 1);
  ck.em.command = -1;
  memset(out, 0, sizeof *out);
  uint32_t line = 1;
  size_t pos = file_prologue(&ck, &line);
  int rc = 0, ok = 1;
  bl_read rd, last;
  memset(&last, 0, sizeof last);
  for (;;) {
    ck.cx.nsegs = ck.cx.nflags = 0;
    if (bl_read_instruction(&ck.cx, pos, line, &rd)) { rc = -1; break; }
    if (!rd.found) break;
    out->instructions++;
    last = rd;
    pos = rd.end;
    line = rd.end_line + 1;
    if (rd.end >= ck.cx.len) break;
  }
  if (!rc) {
    boxlint_diag *d = NULL;
    if (!out->instructions) {
      d = bl_emit(&ck, BL_R_BASE_NOT_APPENDABLE, 0, ck.cx.len,
                  "the base has no instruction: appended text could be read as a parser "
                  "directive");
      ok = 0;
    } else if (last.dangling) {
      d = bl_emit(&ck, BL_R_BASE_NOT_APPENDABLE, last.dangling_at, last.dangling_at + 1,
                  "the base ends inside a line continuation: the first command would be joined "
                  "onto its last instruction");
      ok = 0;
    } else if (last.hd_status == BL_HD_UNTERMINATED) {
      d = bl_emit(&ck, BL_R_BASE_NOT_APPENDABLE, last.start, ck.cx.len,
                  "the base ends inside a heredoc: the commands would be read as its body");
      ok = 0;
    }
    if (ok && (ck.cx.len == 0 || ck.cx.buf[ck.cx.len - 1] != '\n')) {
      d = bl_emit(&ck, BL_R_BASE_NOT_APPENDABLE, ck.cx.len, ck.cx.len,
                  "the base does not end with a newline: the first command would be joined onto "
                  "its last line");
      if (d) boxlint__diag_fix(report, d, ck.cx.len, 0, "\n", 1, "append a newline");
      ok = 0;
    }
    (void)d;
  }
  out->appendable = ok && !rc;
  out->escape = ck.cx.esc;
  ctx_free(&ck);
  return rc || report->oom ? BOXLINT_ENOMEM : BOXLINT_OK;
}

/* The file-wide pass of the reader: the significant tokens, the suppression comments, the
 * string literals' errors, then the syntax tree (parse.c) and what it says about the SDK
 * (analyze.c). Calls tokens.c, literal.c, parse.c and analyze.c. */
#include <string.h>
#include <stddef.h>
#include "python/ast.h"
#include "boxlint/config.h"

/*----------------------------------------------------------------------------------------------
 * Suppressions
 *--------------------------------------------------------------------------------------------*/

/* A boxlint directive comment (report/suppress.h reads it: the one syntax of every file kind),
 * kept with the line it applies to. */
static int suppression(bl_pyreader *rd, const bl_pytok *t, uint32_t line) {
  bl_sup_comment c;
  if (bl_sup_read(rd->s, t->start, t->end, &c) == BL_SUP_NONE) return 0;
  if (rd->nsups == rd->cap_sups) {
    size_t nc = rd->cap_sups ? rd->cap_sups * 2 : 8;
    bl_pysup *v = boxlint__realloc(rd->m, rd->sups, rd->cap_sups * sizeof *v, nc * sizeof *v);
    if (!v) return -1;
    rd->sups = v;
    rd->cap_sups = nc;
  }
  bl_pysup *p = &rd->sups[rd->nsups++];
  /* Alone on its line, it is about the next line; after code, about its own. */
  p->next_line = t == rd->toks.v || t[-1].kind == BL_PT_NL || t[-1].kind == BL_PT_NEWLINE;
  p->start = t->start;
  p->end = t->end;
  p->c = c;
  p->line = line + (p->next_line ? 1u : 0u);
  return 0;
}

/* Every string literal of the file is decoded once, for the errors CPython reports; adjacent
 * literals may not mix bytes and str. */
/* Can decoding the piece fail? Not for a literal with no escape to read (none, or raw), no
 * replacement field, and no byte a bytes literal refuses (the file is valid UTF-8 already). */
static int needs_decoding(const char *s, const bl_piece *p) {
  if (p->flags & BL_LIT_FSTRING) return 1;
  size_t n = p->body_end - p->body;
  if (!(p->flags & BL_LIT_RAW) && memchr(s + p->body, '\\', n)) return 1;
  if (p->flags & BL_LIT_BYTES)
    for (size_t i = p->body; i < p->body_end; i++)
      if ((unsigned char)s[i] >= 0x80) return 1;
  return 0;
}

static int strings(bl_pyreader *rd) {
  int prev = -1; /* the previous significant token was a literal: 1 bytes, 0 str */
  for (size_t i = 0; i < rd->toks.n && !rd->err; i++) {
    const bl_pytok *t = &rd->toks.v[i];
    if (t->kind == BL_PT_NL || t->kind == BL_PT_COMMENT) continue;
    if (t->kind != BL_PT_STRING) {
      prev = -1;
      continue;
    }
    bl_piece p;
    bl_py_piece(rd->s, t, &p);
    int bytes = (p.flags & BL_LIT_BYTES) != 0;
    if (prev >= 0 && prev != bytes) {
      rd->err = "cannot mix bytes and nonbytes literals";
      rd->err_off = t->start;
      return 0;
    }
    prev = bytes;
    if (!needs_decoding(rd->s, &p)) continue;
    bl_pystr v;
    memset(&v, 0, sizeof v);
    const char *err = NULL;
    size_t eo = 0;
    int rc = bl_py_decode(rd->m, rd->s, &p, 0, &v, &err, &eo);
    bl_pystr_free(rd->m, &v);
    if (rc < 0) return -1;
    if (rc > 0) {
      rd->err = err;
      rd->err_off = eo;
    }
  }
  return 0;
}

/* The line breaks in s[a, b): \n, \r\n, \r (memchr's pace when there is no \r). */
static uint32_t count_lines(const char *s, size_t n, size_t a, size_t b) {
  uint32_t k = 0;
  if (!memchr(s + a, '\r', b - a)) {
    for (const char *p = s + a, *e = s + b; (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
      k++;
    return k;
  }
  for (size_t i = a; i < b; i++)
    if (s[i] == '\n' || (s[i] == '\r' && (i + 1 >= n || s[i + 1] != '\n'))) k++;
  return k;
}

/* Could the comment be a suppression (it names boxlint)? */
static int is_suppression(const char *s, const bl_pytok *t) {
  for (size_t i = t->start; i + 7 <= t->end; i++)
    if (s[i] == 'b' && !memcmp(s + i, "boxlint", 7)) return 1;
  return 0;
}

/* The version a check reads with (python_int.h). */
int bl_py_minor_ok(const boxlint_options *o) {
  int minor = o && o->size >= offsetof(boxlint_options, python_minor) + sizeof o->python_minor
                  ? o->python_minor : 0;
  return !minor || (minor >= BOXLINT_PYTHON_MINOR_MIN && minor <= BOXLINT_PYTHON_MINOR_MAX);
}

int bl_py_minor(const boxlint_options *o) {
  /* a caller's struct from before python_minor (shorter) has none: the config's, the default */
  int minor = o && o->size >= offsetof(boxlint_options, python_minor) + sizeof o->python_minor
                  ? o->python_minor : 0;
  if (!minor && o) minor = boxlint_config_get_python_minor(o->config);
  return minor >= BOXLINT_PYTHON_MINOR_MIN && minor <= BOXLINT_PYTHON_MINOR_MAX
             ? minor : BOXLINT_PYTHON_MINOR_DEFAULT;
}

int bl_py_read(bl_pyreader *rd, const boxlint__mem *m, const char *s, size_t n, int minor) {
  memset(rd, 0, sizeof *rd);
  rd->m = m;
  rd->s = s;
  rd->n = n;
  rd->minor = minor;
  if (bl_py_tokenize(m, s, n, minor, &rd->toks)) return -1;
  rd->sig = boxlint__malloc(m, (rd->toks.n + 1) * sizeof *rd->sig);
  if (!rd->sig) return -1;
  size_t at = 0;
  uint32_t line = 1;
  for (size_t i = 0; i < rd->toks.n; i++) {
    const bl_pytok *t = &rd->toks.v[i];
    if (t->kind == BL_PT_COMMENT && is_suppression(s, t)) {
      line += count_lines(s, n, at, t->start); /* counted once over the file */
      at = t->start;
      if (suppression(rd, t, line)) return -1;
    }
    if (t->kind != BL_PT_COMMENT && t->kind != BL_PT_NL) rd->sig[rd->nsig++] = i;
  }
  /* A file that cannot reach the SDK says nothing, parsed or not, so it is not parsed; one
   * with a suppression comment is, for its unused-suppression findings. */
  if (!rd->nsups && !bl_py_reaches_sdk(s, n, &rd->toks)) {
    rd->quiet = 1;
    return 0;
  }
  /* The first error CPython meets: a literal's (escapes, found here for every literal), the
   * tokenizer's or the grammar's (the parser decides between these two), whichever comes
   * first in the file. */
  if (strings(rd)) return -1;
  const char *serr = rd->err;
  size_t soff = rd->err_off;
  rd->err = NULL;
  bl_pyast ast;
  if (bl_py_parse(m, &rd->arena, s, n, &rd->toks, rd->sig, rd->nsig, minor, &ast)) return -1;
  if (ast.err && !(serr && soff < ast.err_off)) {
    rd->err = ast.err;
    rd->err_off = ast.err_off;
  } else if (serr) {
    rd->err = serr;
    rd->err_off = soff;
  }
  if (rd->err) return 0;
  if (bl_py_analyze(rd, ast.root) || rd->oom) return -1;
  return 0;
}

void bl_py_reader_free(bl_pyreader *rd) {
  for (bl_pyval *v = rd->vals; v; v = v->next_free)
    if (!v->str.arena) bl_pystr_free(rd->m, &v->str); /* else in rd->strs */
  boxlint__arena_free(&rd->strs, rd->m);
  boxlint__arena_free(&rd->arena, rd->m);
  bl_py_tokens_free(rd->m, &rd->toks);
  boxlint__free(rd->m, rd->sig);
  boxlint__free(rd->m, rd->calls);
  boxlint__free(rd->m, rd->sups);
  boxlint__free(rd->m, rd->names);
  boxlint__free(rd->m, rd->refs);
  boxlint__free(rd->m, rd->occ);
  boxlint__free(rd->m, rd->lit_reads);
  memset(rd, 0, sizeof *rd);
}

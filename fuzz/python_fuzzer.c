/* python: a Python source file checked (boxlint_check_python), its tokens (the tokenizer of
 * lib/src/python/, through its private header), and its fixes applied (boxlint_apply_fixes).
 *
 * Input: byte 0 = option bits, then the source.
 *   bit 0  with a config (warnings, suppressions, more fixes)
 *   bit 1  the policy options' E2B compat bits
 *   bit 2  out of memory: the report uses an allocator that fails after the first (last input
 *          byte % 64) allocations (BOXLINT_ENOMEM or a well-formed report, nothing leaks)
 *
 * Oracles: the status is BOXLINT_OK or BOXLINT_ESYNTAX, and ESYNTAX is one `python-syntax` (or
 * `python-encoding`) error and nothing else (at the tokenizer's error when it has one, when the
 * file could reach the SDK; nothing at all when it cannot); every diagnostic keeps the
 * report contract inside the source, its line and column (and end) are those of its offsets
 * (recomputed here: Python's line breaks, code points, an invalid byte counts one), its fix
 * lies inside the source; applying every fix gives a file that is still valid Python to the
 * checker when the original was; the tokens are in order, do not overlap, stay inside the
 * source, and (without an error) only blanks and line continuations lie between them. */
#include "fuzz_util.h"
#include "python/python_int.h"
#include "python/encoding.h"

/* Line and column of `off` (1-based, columns in code points), computed apart from the
 * library's bl_py_line_col: a line starts after \n, after \r\n, after a \r not before \n; a
 * UTF-8 BOM is not a column. */
static void line_col(const uint8_t *s, size_t n, size_t off, int one_byte, uint32_t *line,
                     uint32_t *col) {
  size_t bol = off >= 3 && n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3) ? 3 : 0;
  uint32_t ln = 1;
  for (size_t i = 0; i < off && i < n; i++) {
    if (s[i] == '\n' || (s[i] == '\r' && !(i + 1 < n && s[i + 1] == '\n' && i + 1 < off))) {
      ln++;
      bol = i + 1;
    }
  }
  uint32_t c = 1;
  for (size_t i = bol; i < off && i < n;) {
    uint32_t cp;
    size_t l = s[i] < 0x80 || one_byte ? 1 : boxlint__utf8_decode(s + i, n - i, &cp);
    i += l ? l : 1;
    c++;
  }
  *line = ln;
  *col = c;
}

/* `one_byte`: the file was decoded from a single-byte encoding, a character per byte. */
static void check_positions(const boxlint_diag *d, const uint8_t *s, size_t n, int one_byte) {
  uint32_t l, c, el, ec;
  line_col(s, n, d->offset, one_byte, &l, &c);
  line_col(s, n, d->end_offset, one_byte, &el, &ec);
  if (d->line != l || d->column != c || d->end_line != el || d->end_column != ec) {
    fprintf(stderr, "%s at %u:%u-%u:%u, offsets %zu-%zu are %u:%u-%u:%u\n", d->rule, d->line,
            d->column, d->end_line, d->end_column, d->offset, d->end_offset, l, c, el, ec);
    fz_fail("a diagnostic's line and column are not those of its offset");
  }
}

/* The tokens of s: in order, inside, only blanks between them; the error inside. */
static void check_tokens(const char *s, size_t n, int minor) {
  boxlint__mem m;
  boxlint__mem_init(&m, NULL);
  bl_pytoks t;
  if (bl_py_tokenize(&m, s, n, minor, &t)) fz_fail("out of memory in the tokenizer");
  size_t prev = n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3) ? 3 : 0;
  for (size_t i = 0; i < t.n; i++) {
    const bl_pytok *k = &t.v[i];
    FZ_ASSERT(k->kind <= BL_PT_DEDENT);
    FZ_ASSERT(k->start <= k->end && k->end <= n && k->start >= prev);
    if (k->kind == BL_PT_INDENT || k->kind == BL_PT_DEDENT || k->kind == BL_PT_ENDMARKER)
      FZ_ASSERT(k->start == k->end);
    else if (k->kind != BL_PT_NEWLINE)
      FZ_ASSERT(k->start < k->end);
    for (size_t j = prev; !t.err && j < k->start; j++) /* what no token holds */
      FZ_ASSERT(strchr(" \t\f\\\r\n", s[j]) && s[j] != 0);
    prev = k->end;
  }
  if (t.err) FZ_ASSERT(t.err_off <= n);
  else FZ_ASSERT(t.n > 0 && t.v[t.n - 1].kind == BL_PT_ENDMARKER && prev == n);
  bl_py_tokens_free(&m, &t);
}

/* Check s and the report's contract. Returns 1 when the status is ESYNTAX. */
static int check(const char *s, size_t n, const boxlint_options *o,
                 const boxlint_policy_options *po, boxlint_report **out) {
  boxlint_report *r;
  if (boxlint_report_new(&r, NULL) != BOXLINT_OK) fz_fail("report_new");
  boxlint_status st = boxlint_check_python(r, s, n, o, po);
  FZ_ASSERT(st == BOXLINT_OK || st == BOXLINT_ESYNTAX);
  boxlint__mem m;
  boxlint__mem_init(&m, NULL);
  bl_pysrc src;
  if (bl_py_source(&m, s, n, &src)) fz_fail("out of memory in the encoding reader");
  int one_byte = src.map != NULL;
  bl_py_source_free(&m, &src);
  size_t nd = boxlint_report_diag_count(r);
  for (size_t i = 0; i < nd; i++) {
    const boxlint_diag *d = boxlint_report_diag(r, i);
    fz_check_diag(d, n);
    check_positions(d, (const uint8_t *)s, n, one_byte);
    FZ_ASSERT((st == BOXLINT_ESYNTAX) ==
              (!strcmp(d->rule, "python-syntax") || !strcmp(d->rule, "python-encoding")));
  }
  if (st == BOXLINT_ESYNTAX) {
    if (nd != 1) fz_dump(r, "syntax error");
    FZ_ASSERT(nd == 1);
  }
  *out = r;
  return st == BOXLINT_ESYNTAX;
}

/* Every fix of r applied to s: the result must check without python-syntax. */
static void apply_fixes(const char *s, size_t n, const boxlint_report *r,
                        const boxlint_options *o, const boxlint_policy_options *po) {
  size_t nd = boxlint_report_diag_count(r), nf = 0;
  const boxlint_fix **fixes = malloc((nd ? nd : 1) * sizeof *fixes);
  if (!fixes) fz_fail("out of memory in the harness");
  for (size_t i = 0; i < nd; i++)
    if (boxlint_report_diag(r, i)->fix) fixes[nf++] = boxlint_report_diag(r, i)->fix;
  if (nf) {
    char *fixed;
    size_t fl;
    FZ_ASSERT(boxlint_apply_fixes(s, n, fixes, nf, &fixed, &fl, NULL, NULL) == BOXLINT_OK);
    boxlint_report *again;
    if (check(fixed, fl, o, po, &again)) {
      fz_dump(r, "before the fixes");
      fz_dump(again, "after the fixes");
      fprintf(stderr, "-- fixed source:\n%.*s\n", (int)fl, fixed);
      fz_fail("applying the fixes made the file invalid Python");
    }
    boxlint_report_free(again);
    boxlint_buffer_free(fixed, NULL);
  }
  free(fixes);
}

static void out_of_memory(const uint8_t *data, size_t size, const char *s, size_t n,
                          const boxlint_options *o, const boxlint_policy_options *po) {
  fz_failer failer;
  boxlint_alloc failing = fz_failing(&failer, data, size);
  boxlint_report *r = NULL;
  if (boxlint_report_new(&r, &failing) != BOXLINT_OK) return;
  boxlint_status st = boxlint_check_python(r, s, n, o, po);
  FZ_ASSERT(st == BOXLINT_OK || st == BOXLINT_ESYNTAX || st == BOXLINT_ENOMEM);
  for (size_t i = 0; i < boxlint_report_diag_count(r); i++)
    fz_check_diag(boxlint_report_diag(r, i), n);
  boxlint_report_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  uint8_t bits = data[0];
  const char *s = (const char *)data + 1;
  size_t n = size - 1;
  boxlint_options o;
  boxlint_options_init(&o);
  boxlint_config *config = NULL;
  if ((bits & 1) && boxlint_config_new(&config, NULL) != BOXLINT_OK) fz_fail("config_new");
  o.config = config;
  boxlint_policy_options po;
  boxlint_policy_options_init(&po);
  if (bits & 2) po.compat = BOXLINT_COMPAT_E2B;
  /* bits 3-7: the Python version read, 3.8 ... 3.14 */
  o.python_minor = BOXLINT_PYTHON_MINOR_MIN + (bits >> 3) % (BOXLINT_PYTHON_MINOR_MAX -
                                                            BOXLINT_PYTHON_MINOR_MIN + 1);

  if (bits & 4) {
    out_of_memory(data, size, s, n, &o, &po);
  } else {
    check_tokens(s, n, o.python_minor);
    boxlint_report *r;
    int syntax = check(s, n, &o, &po, &r);
    /* A tokenizer error makes the file an input error (which one CPython reports, the
     * tokenizer's or the parser's, is tests/oracle/python_grammar_test.py's to compare), when the
     * file is read as it is (a file decoded from another encoding is tokenized as its decoded
     * text, or refused first). */
    boxlint__mem m;
    boxlint__mem_init(&m, NULL);
    bl_pysrc src;
    if (bl_py_source(&m, s, n, &src)) fz_fail("out of memory in the encoding reader");
    bl_pytoks t;
    if (bl_py_tokenize(&m, s, n, o.python_minor, &t)) fz_fail("out of memory in the tokenizer");
    /* ... when it could reach the SDK (reach.c); one that cannot gets nothing */
    if (t.err && !src.map)
      FZ_ASSERT(syntax == (src.err ? bl_py_holds_sdk_word(s, 0, n)
                                   : bl_py_reaches_sdk(s, n, &t)));
    if (!syntax && t.err && !src.map) FZ_ASSERT(boxlint_report_diag_count(r) == 0);
    bl_py_tokens_free(&m, &t);
    bl_py_source_free(&m, &src);
    if (!syntax) apply_fixes(s, n, r, &o, &po);
    boxlint_report_free(r);
  }
  boxlint_config_free(config);
  return 0;
}

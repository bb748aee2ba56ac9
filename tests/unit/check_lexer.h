/* check_lexer.h: what the parts of the check_lexer suite share: check_lexer.c and
 * check_lexer_fragment.c, one executable, ctest check_lexer. */
#ifndef BOXLINT_TESTS_CHECK_LEXER_H
#define BOXLINT_TESTS_CHECK_LEXER_H
/*
 * Unit tests of the reader and splitter: boxlint_split_fragment, boxlint_check_fragment and
 * boxlint_check_base against what BuildKit does (the vectors of
 * fuzz/smuggling-vectors.txt cited as VN) and docs/design.md §2.4, §2.6.
 *
 *
 */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "boxlint/boxlint.h"
#include "failing_alloc.h"
#include "guard_page.h"
#include "dockerfile/dockerfile_int.h"

/*==============================================================================================
 * Helpers
 *============================================================================================*/

static boxlint_report *R;
static const char *IN; /* the fragment under test */
static size_t INLEN;

static inline void setup(void) { ck_assert_int_eq(boxlint_report_new(&R, NULL), BOXLINT_OK); }
static inline void teardown(void) {
  boxlint_report_free(R);
  R = NULL;
}

static inline void dump_report(void) {
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    fprintf(stderr, "  [%zu] %s cmd=%d %u:%u-%u:%u off=%zu-%zu msg=\"%s\"\n", i, d->rule,
            (int)d->command, d->line, d->column, d->end_line, d->end_column, d->offset,
            d->end_offset, d->message);
  }
  for (size_t i = 0; i < boxlint_report_instruction_count(R); i++) {
    const boxlint_instruction *in = boxlint_report_instruction(R, i);
    fprintf(stderr, "  I%zu %s lines %u-%u off %zu-%zu nhd=%zu logical=\"%.*s\"\n", i,
            boxlint_keyword_name(in->keyword), in->line, in->end_line, in->offset,
            in->end_offset, in->nheredocs, (int)in->logical.len, in->logical.ptr);
  }
}

static inline size_t nerrors(void) {
  return boxlint_report_count_at_least(R, BOXLINT_SEVERITY_ERROR);
}

/* Split a literal fragment (embedded NULs allowed). */
#define SPLIT(lit) split_buf((lit), sizeof(lit) - 1, NULL)
#define SPLIT_OPTS(lit, o) split_buf((lit), sizeof(lit) - 1, (o))
static inline void split_buf(const char *p, size_t n, const boxlint_options *o) {
  boxlint_report_clear(R);
  IN = p;
  INLEN = n;
  ck_assert_int_eq(boxlint_split_fragment(R, p, n, o), BOXLINT_OK);
}
#define CHECKF(lit) checkf_buf((lit), sizeof(lit) - 1)
static inline void checkf_buf(const char *p, size_t n) {
  boxlint_report_clear(R);
  IN = p;
  INLEN = n;
  ck_assert_int_eq(boxlint_check_fragment(R, p, n, NULL), BOXLINT_OK);
}

/* The number of instructions. */
#define NINSTR(n) ninstr_at(__LINE__, n)
static inline void ninstr_at(int at, size_t n) {
  size_t got = boxlint_report_instruction_count(R);
  if (got != n) dump_report();
  ck_assert_msg(got == n, "line %d: expected %zu instructions, got %zu", at, n, got);
}

/* Instruction i has keyword kw, spans file lines [l, el] and bytes [off, eoff). */
#define INSTR(i, kw, l, el, off, eoff) instr_at(__LINE__, i, kw, l, el, off, eoff)
static inline const boxlint_instruction *instr_at(int at, size_t i, boxlint_keyword kw, uint32_t l,
                                                  uint32_t el, size_t off, size_t eoff) {
  const boxlint_instruction *in = boxlint_report_instruction(R, i);
  if (!in) dump_report();
  ck_assert_msg(in != NULL, "line %d: no instruction %zu", at, i);
  int ok = in->keyword == kw && in->line == l && in->end_line == el && in->offset == off &&
           in->end_offset == eoff;
  if (!ok) dump_report();
  ck_assert_msg(ok, "line %d: instruction %zu: got %s lines %u-%u off %zu-%zu, want %s %u-%u "
                "off %zu-%zu", at, i, boxlint_keyword_name(in->keyword), in->line, in->end_line,
                in->offset, in->end_offset, boxlint_keyword_name(kw), l, el, off, eoff);
  /* text is the input bytes of the instruction */
  ck_assert_ptr_eq(in->text.ptr, IN + in->offset);
  ck_assert_uint_eq(in->text.len, in->end_offset - in->offset);
  return in;
}

static inline int span_is(boxlint_span s, const char *lit) {
  return s.len == strlen(lit) && (s.len == 0 || memcmp(s.ptr, lit, s.len) == 0);
}
#define SPAN_EQ(sp, lit)                                                                          \
  ck_assert_msg(span_is((sp), (lit)), "span \"%.*s\" != \"%s\"", (int)(sp).len,                  \
                (sp).ptr ? (sp).ptr : "", (lit))

/* Heredoc j of instruction i. */
#define HEREDOC(i, j, name, body, chomp, expand, l, el)                                           \
  heredoc_at(__LINE__, i, j, name, body, sizeof(body) - 1, chomp, expand, l, el)
static inline const boxlint_heredoc *heredoc_at(int at, size_t i, size_t j, const char *name,
                                                const char *body, size_t blen, int chomp,
                                                int expand, uint32_t l, uint32_t el) {
  const boxlint_instruction *in = boxlint_report_instruction(R, i);
  ck_assert_msg(in != NULL, "line %d: no instruction %zu", at, i);
  if (j >= in->nheredocs) dump_report();
  ck_assert_msg(j < in->nheredocs, "line %d: instruction %zu has %zu heredocs", at, i,
                in->nheredocs);
  const boxlint_heredoc *h = &in->heredocs[j];
  ck_assert_msg(span_is(h->name, name), "line %d: name \"%.*s\" != \"%s\"", at, (int)h->name.len,
                h->name.ptr, name);
  ck_assert_msg(h->body.len == blen && memcmp(h->body.ptr, body, blen) == 0,
                "line %d: body \"%.*s\" != \"%.*s\"", at, (int)h->body.len, h->body.ptr,
                (int)blen, body);
  /* the body points into the input */
  ck_assert_msg(h->body.ptr >= IN && h->body.ptr + h->body.len <= IN + INLEN,
                "line %d: body not in the input", at);
  ck_assert_msg(h->chomp == chomp && h->expand == expand && h->line == l && h->end_line == el,
                "line %d: chomp=%d expand=%d lines %u-%u, want %d %d %u-%u", at, h->chomp,
                h->expand, h->line, h->end_line, chomp, expand, l, el);
  return h;
}
#define NHEREDOCS(i, n)                                                                           \
  ck_assert_uint_eq(boxlint_report_instruction(R, (i))->nheredocs, (n))

static inline const boxlint_diag *find(const char *rule, int32_t cmd) {
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    if (strcmp(d->rule, rule) == 0 && d->command == cmd) return d;
  }
  return NULL;
}

#define EXPECT(rule, cmd, l, c, el, ec, off, eoff, msg)                                          \
  expect_at(__LINE__, rule, cmd, l, c, el, ec, off, eoff, msg)
static inline const boxlint_diag *expect_at(int at, const char *rule, int32_t cmd, uint32_t l,
                                            uint32_t c, uint32_t el, uint32_t ec, size_t off,
                                            size_t eoff, const char *msg) {
  const boxlint_diag *d = find(rule, cmd);
  if (!d) dump_report();
  ck_assert_msg(d != NULL, "line %d: no %s on command %d", at, rule, (int)cmd);
  int ok = d->severity == BOXLINT_SEVERITY_ERROR && d->line == l && d->column == c &&
           d->end_line == el && d->end_column == ec && d->offset == off && d->end_offset == eoff;
  if (!ok) dump_report();
  ck_assert_msg(ok, "line %d: %s: got %u:%u-%u:%u off %zu-%zu, want %u:%u-%u:%u off %zu-%zu", at,
                rule, d->line, d->column, d->end_line, d->end_column, d->offset, d->end_offset,
                l, c, el, ec, off, eoff);
  ck_assert_msg(msg == NULL || strstr(d->message, msg), "line %d: message \"%s\" lacks \"%s\"",
                at, d->message, msg);
  return d;
}

#define EXPECT_NO_ERRORS()                                                                        \
  do {                                                                                            \
    if (nerrors()) dump_report();                                                                 \
    ck_assert_uint_eq(nerrors(), 0);                                                              \
  } while (0)

void lexer_add_fragment(Suite *s);

#endif

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

static void setup(void) { ck_assert_int_eq(boxlint_report_new(&R, NULL), BOXLINT_OK); }
static void teardown(void) {
  boxlint_report_free(R);
  R = NULL;
}

static void dump_report(void) {
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

static size_t nerrors(void) { return boxlint_report_count_at_least(R, BOXLINT_SEVERITY_ERROR); }

/* Split a literal fragment (embedded NULs allowed). */
#define SPLIT(lit) split_buf((lit), sizeof(lit) - 1, NULL)
#define SPLIT_OPTS(lit, o) split_buf((lit), sizeof(lit) - 1, (o))
static void split_buf(const char *p, size_t n, const boxlint_options *o) {
  boxlint_report_clear(R);
  IN = p;
  INLEN = n;
  ck_assert_int_eq(boxlint_split_fragment(R, p, n, o), BOXLINT_OK);
}
#define CHECKF(lit) checkf_buf((lit), sizeof(lit) - 1)
static void checkf_buf(const char *p, size_t n) {
  boxlint_report_clear(R);
  IN = p;
  INLEN = n;
  ck_assert_int_eq(boxlint_check_fragment(R, p, n, NULL), BOXLINT_OK);
}

/* The number of instructions. */
#define NINSTR(n) ninstr_at(__LINE__, n)
static void ninstr_at(int at, size_t n) {
  size_t got = boxlint_report_instruction_count(R);
  if (got != n) dump_report();
  ck_assert_msg(got == n, "line %d: expected %zu instructions, got %zu", at, n, got);
}

/* Instruction i has keyword kw, spans file lines [l, el] and bytes [off, eoff). */
#define INSTR(i, kw, l, el, off, eoff) instr_at(__LINE__, i, kw, l, el, off, eoff)
static const boxlint_instruction *instr_at(int at, size_t i, boxlint_keyword kw, uint32_t l,
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

static int span_is(boxlint_span s, const char *lit) {
  return s.len == strlen(lit) && (s.len == 0 || memcmp(s.ptr, lit, s.len) == 0);
}
#define SPAN_EQ(sp, lit)                                                                          \
  ck_assert_msg(span_is((sp), (lit)), "span \"%.*s\" != \"%s\"", (int)(sp).len,                  \
                (sp).ptr ? (sp).ptr : "", (lit))

/* Heredoc j of instruction i. */
#define HEREDOC(i, j, name, body, chomp, expand, l, el)                                           \
  heredoc_at(__LINE__, i, j, name, body, sizeof(body) - 1, chomp, expand, l, el)
static const boxlint_heredoc *heredoc_at(int at, size_t i, size_t j, const char *name,
                                         const char *body, size_t blen, int chomp, int expand,
                                         uint32_t l, uint32_t el) {
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

static const boxlint_diag *find(const char *rule, int32_t cmd) {
  for (size_t i = 0; i < boxlint_report_diag_count(R); i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    if (strcmp(d->rule, rule) == 0 && d->command == cmd) return d;
  }
  return NULL;
}

#define EXPECT(rule, cmd, l, c, el, ec, off, eoff, msg)                                          \
  expect_at(__LINE__, rule, cmd, l, c, el, ec, off, eoff, msg)
static const boxlint_diag *expect_at(int at, const char *rule, int32_t cmd, uint32_t l,
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


/*==============================================================================================
 * Splitting: instructions, lines, continuations, comments (§2, §3, §4)
 *============================================================================================*/

/* The byte classifier's vector paths (32, 16, an overlapping tail load, 8 at a time) and the
 * printable-prefix scan must agree with their definitions for every byte value at every
 * position of short and long inputs. */
START_TEST(test_byte_classes_every_position) {
  size_t checked = 0, wrong = 0;
  for (int b = 0; b < 256; b++) {
    enum bl_byte_problem want = BL_BYTES_OK;
    if (b == 0) want = BL_BYTES_NUL;
    else if (b == '\r') want = BL_BYTES_BARE_CR;
    else if ((b < 0x20 && b != '\t' && b != '\n') || b == 0x7F) want = BL_BYTES_CONTROL;
    else if (b >= 0x80) want = BL_BYTES_BAD_UTF8;
    for (size_t len = 1; len <= 70; len++)
      for (size_t at = 0; at < len; at++) {
        unsigned char buf[70];
        memset(buf, 'a', sizeof buf);
        buf[at] = (unsigned char)b;
        /* The printable-ASCII prefix (parseWords' shortcut) on the same input. */
        for (int e = 0; e < 2; e++) {
          unsigned char except = e ? '\\' : '`';
          int printable = b >= 0x20 && b < 0x7F && b != except;
          if (bl_lex_printable(buf, len, except) != (printable ? len : at) && !wrong++)
            fprintf(stderr, "printable prefix wrong for 0x%02x at %zu of %zu\n", b, at, len);
        }
        size_t pos = 0, n = 99;
        enum bl_byte_problem got = bl_lex_bytes(buf, len, &pos, &n);
        if (got != want || pos != (want == BL_BYTES_OK ? len : at) ||
            n != (want == BL_BYTES_OK ? 0u : 1u)) {
          if (!wrong++)
            fprintf(stderr, "byte 0x%02x at %zu of %zu: kind %d at %zu, want %d\n", b, at, len,
                    (int)got, pos, (int)want);
        }
        checked++;
      }
  }
  ck_assert_uint_eq(wrong, 0);
  ck_assert_uint_eq(checked, 256u * 70 * 71 / 2);
}
END_TEST

/* The shell-word lexer's shortcut for plain text must split exactly as the full lexer does:
 * random strings over the bytes that decide word boundaries ("<<" and the white space it
 * swallows, the other white space, digits, quotes, '$', a control byte). */
START_TEST(test_shlex_plain_shortcut_matches_full_lexer) {
  static const char alpha[] = "ab<< \t\r\v\f\n-0<E1\x01\x7f\"$'\\";
  boxlint__mem mem;
  boxlint__mem_init(&mem, NULL);
  bl_words a = {{0}, 0, 0, 0}, b = {{0}, 0, 0, 0};
  bl_buf pa[3] = {{0}}, pb[3] = {{0}};
  uint64_t seed = 20261130;
  size_t differ = 0, plain = 0;
  for (int it = 0; it < 200000; it++) {
    char s[24];
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    size_t n = (size_t)(seed >> 59) % 20;
    int quotes = (int)(seed >> 20) & 1, escapes = (int)(seed >> 21) & 1, is_plain = 1;
    for (size_t i = 0; i < n; i++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      s[i] = alpha[(seed >> 33) % (sizeof alpha - 1)];
      is_plain &= !strchr("\x01\x7f\"$'\\", s[i]);
    }
    plain += (size_t)is_plain;
    int r1 = bl_shlex_words(&mem, &a, s, n, quotes, escapes, pa);
    int r2 = bl_shlex_words_full(&mem, &b, s, n, quotes, escapes, pb);
    if (r1 != r2 || a.n != b.n || a.text.len != b.text.len ||
        (a.n && memcmp(a.ends, b.ends, a.n * sizeof *a.ends)) ||
        (a.text.len && memcmp(a.text.p, b.text.p, a.text.len))) {
      if (!differ++) fprintf(stderr, "shortcut differs on [%.*s]\n", (int)n, s);
    }
  }
  bl_words_free(&mem, &a);
  bl_words_free(&mem, &b);
  for (int i = 0; i < 3; i++) {
    bl_buf_free(&mem, &pa[i]);
    bl_buf_free(&mem, &pb[i]);
  }
  ck_assert_uint_eq(differ, 0);
  ck_assert_uint_gt(plain, 10000); /* the shortcut really ran */
}
END_TEST

START_TEST(test_split_basic) {
  SPLIT("FROM ubuntu\n\n# a comment\nRUN apt-get update\n  \nENV A=1\n");
  NINSTR(3);
  INSTR(0, BOXLINT_KW_FROM, 1, 1, 0, 12);
  INSTR(1, BOXLINT_KW_RUN, 4, 4, 25, 44);
  const boxlint_instruction *in = INSTR(2, BOXLINT_KW_ENV, 6, 6, 47, 55);
  SPAN_EQ(in->keyword_text, "ENV");
  SPAN_EQ(in->args, "A=1");
  ck_assert_uint_eq(nerrors(), 0);
  /* no trailing newline, lower case, leading blanks */
  SPLIT("  run a\n\twOrKdIr /x");
  NINSTR(2);
  INSTR(0, BOXLINT_KW_RUN, 1, 1, 0, 8);
  in = INSTR(1, BOXLINT_KW_WORKDIR, 2, 2, 8, 19);
  SPAN_EQ(in->keyword_text, "wOrKdIr");
  /* empty and comment-only fragments have no instruction */
  SPLIT("");
  NINSTR(0);
  SPLIT("# only\n\n   # comments\n");
  NINSTR(0);
}
END_TEST

START_TEST(test_split_continuations) {
  /* comment lines inside a continuation are skipped, their own escape does not matter (§3) */
  SPLIT("RUN a \\\n# comment \\\n  b\nRUN c");
  NINSTR(2);
  const boxlint_instruction *in = INSTR(0, BOXLINT_KW_RUN, 1, 3, 0, 24);
  SPAN_EQ(in->logical, "RUN a   b");
  INSTR(1, BOXLINT_KW_RUN, 4, 4, 24, 29);
  /* blank and white-space-only continuation lines are skipped (§4) */
  SPLIT("RUN a \\\n\n   \n\t\n  b\nRUN c");
  NINSTR(2);
  in = INSTR(0, BOXLINT_KW_RUN, 1, 5, 0, 19);
  SPAN_EQ(in->logical, "RUN a   b");
  /* V5: a continuation through a comment and a blank line swallows FROM */
  SPLIT("RUN a \\\n# c\n\nFROM x\nUSER y");
  NINSTR(2);
  in = INSTR(0, BOXLINT_KW_RUN, 1, 4, 0, 20);
  SPAN_EQ(in->logical, "RUN a FROM x");
  INSTR(1, BOXLINT_KW_USER, 5, 5, 20, 26);
  /* V2: pieces are joined with no separator: FR\ + OM gives FROM */
  SPLIT("FR\\\nOM evil");
  NINSTR(1);
  in = INSTR(0, BOXLINT_KW_FROM, 1, 2, 0, 11);
  SPAN_EQ(in->logical, "FROM evil");
  /* a lone escape line contributes nothing: the keyword comes from the next line (§4) */
  SPLIT("\\\nCOPY . /");
  NINSTR(1);
  INSTR(0, BOXLINT_KW_COPY, 1, 2, 0, 10);
  /* only space and tab may follow the escape; two escapes never continue (§4) */
  SPLIT("RUN a \\ \t\n b\nRUN c \\\\\nRUN d \\\\\\\nRUN e");
  NINSTR(4);
  INSTR(0, BOXLINT_KW_RUN, 1, 2, 0, 13);
  INSTR(1, BOXLINT_KW_RUN, 3, 3, 13, 22);
  INSTR(2, BOXLINT_KW_RUN, 4, 4, 22, 32);
  INSTR(3, BOXLINT_KW_RUN, 5, 5, 32, 37);
  /* V4: RUN x # \ continues, RUN x \ # c does not */
  SPLIT("RUN x # \\\nFROM a\nRUN y \\ # c\nFROM b");
  NINSTR(3);
  in = INSTR(0, BOXLINT_KW_RUN, 1, 2, 0, 17);
  SPAN_EQ(in->logical, "RUN x # FROM a");
  INSTR(1, BOXLINT_KW_RUN, 3, 3, 17, 29);
  INSTR(2, BOXLINT_KW_FROM, 4, 4, 29, 35);
  /* V3: trailing CRs are stripped before the test */
  SPLIT("FR\\\r\nOM evil\r\n");
  NINSTR(1);
  in = INSTR(0, BOXLINT_KW_FROM, 1, 2, 0, 14);
  SPAN_EQ(in->logical, "FROM evil");
  /* a top-level comment never starts a continuation (§3) */
  SPLIT("# note \\\nFROM evil");
  NINSTR(1);
  INSTR(0, BOXLINT_KW_FROM, 2, 2, 9, 18);
  /* continuation lines keep their leading white space (§2) */
  SPLIT("RUN a \\\n    && b");
  in = INSTR(0, BOXLINT_KW_RUN, 1, 2, 0, 16);
  SPAN_EQ(in->logical, "RUN a     && b");
}
END_TEST

START_TEST(test_split_eof_inside_continuation) {
  /* §4: reaching EOF inside a continuation is allowed: what was collected is the instruction */
  SPLIT("RUN a\nRUN b \\");
  NINSTR(2);
  const boxlint_instruction *in = INSTR(1, BOXLINT_KW_RUN, 2, 2, 6, 13);
  SPAN_EQ(in->args, "b");
  ck_assert_uint_eq(nerrors(), 0);
  SPLIT("RUN b \\\n# trailing comment\n\n");
  NINSTR(1);
  INSTR(0, BOXLINT_KW_RUN, 1, 3, 0, 28);
}
END_TEST

START_TEST(test_split_escape_directive) {
  /* # escape=` makes the backtick the escape character; a backslash is then plain text */
  SPLIT("# escape=`\nRUN a `\n  b\nRUN c \\\nRUN d");
  NINSTR(3);
  const boxlint_instruction *in = INSTR(0, BOXLINT_KW_RUN, 2, 3, 11, 23);
  SPAN_EQ(in->logical, "RUN a   b");
  INSTR(1, BOXLINT_KW_RUN, 4, 4, 23, 31);
  INSTR(2, BOXLINT_KW_RUN, 5, 5, 31, 36);
  /* the key is case-insensitive and blanks are allowed (§5) */
  SPLIT("#  ESCAPE = `\nRUN a `\nb");
  NINSTR(1);
  INSTR(0, BOXLINT_KW_RUN, 2, 3, 14, 23);
  /* after a syntax directive it still counts */
  SPLIT("# syntax=docker/dockerfile:1\n# escape=`\nRUN a `\nb");
  NINSTR(1);
  /* a directive after an instruction, a blank line or a comment is an ordinary comment (§5) */
  SPLIT("# hello\n# escape=`\nRUN a `\nRUN b");
  NINSTR(2);
  SPLIT("\n# escape=`\nRUN a `\nRUN b");
  NINSTR(2);
  SPLIT("RUN x\n# escape=`\nRUN a `\nRUN b");
  NINSTR(3);
  /* options.escape is only the default: the fragment's own directive wins */
  boxlint_options o;
  boxlint_options_init(&o);
  o.escape = '`';
  SPLIT_OPTS("RUN a `\nb", &o);
  NINSTR(1);
  SPLIT_OPTS("# escape=\\\nRUN a `\nRUN b", &o);
  NINSTR(2);
}
END_TEST

START_TEST(test_split_bom) {
  /* §2: a BOM at the start of the file is dropped */
  SPLIT("\xef\xbb\xbfRUN a\nRUN b");
  NINSTR(2);
  const boxlint_instruction *in = INSTR(0, BOXLINT_KW_RUN, 1, 1, 3, 9);
  SPAN_EQ(in->keyword_text, "RUN");
  INSTR(1, BOXLINT_KW_RUN, 2, 2, 9, 14);
  /* and a directive may follow it */
  SPLIT("\xef\xbb\xbf# escape=`\nRUN a `\nb");
  NINSTR(1);
  /* anywhere else U+FEFF is part of the keyword, which is unknown (§2) */
  SPLIT("RUN a\n\xef\xbb\xbfRUN b");
  NINSTR(2);
  in = INSTR(1, BOXLINT_KW_NONE, 2, 2, 6, 14);
  SPAN_EQ(in->keyword_text, "\xef\xbb\xbfRUN");
}
END_TEST

START_TEST(test_split_line_breaks) {
  /* §2: only LF splits lines; a bare CR and U+2028 are text inside the line */
  SPLIT("RUN a\rb\nRUN c\xe2\x80\xa8" "d");
  NINSTR(2);
  INSTR(0, BOXLINT_KW_RUN, 1, 1, 0, 8);
  INSTR(1, BOXLINT_KW_RUN, 2, 2, 8, 17);
  /* V1: a raw LF inside a JSON string still ends the line */
  SPLIT("CMD [\"a\nFROM evil\"]");
  NINSTR(2);
  INSTR(1, BOXLINT_KW_FROM, 2, 2, 8, 19); /* FROM evil"] */
}
END_TEST

/*==============================================================================================
 * Heredocs (§6, V6, V7, §14)
 *============================================================================================*/

START_TEST(test_heredoc_basic) {
  SPLIT("RUN <<EOF\necho hi\nEOF\nRUN next");
  NINSTR(2);
  INSTR(0, BOXLINT_KW_RUN, 1, 3, 0, 22);
  HEREDOC(0, 0, "EOF", "echo hi\n", 0, 1, 2, 3);
  INSTR(1, BOXLINT_KW_RUN, 4, 4, 22, 30);
  /* bodies are raw: comments, escapes and instructions inside are body (§6) */
  SPLIT("RUN cat <<EOF\n# not a comment \\\nFROM evil\n\nEOF\nUSER x");
  NINSTR(2);
  HEREDOC(0, 0, "EOF", "# not a comment \\\nFROM evil\n\n", 0, 1, 2, 5);
  INSTR(1, BOXLINT_KW_USER, 6, 6, 47, 53);
  /* an empty body */
  SPLIT("RUN <<EOF\nEOF\nRUN x");
  NINSTR(2);
  HEREDOC(0, 0, "EOF", "", 0, 1, 2, 2);
  /* a CRLF terminator ends it (§2: trailing CR/LF stripped) */
  SPLIT("RUN <<EOF\r\nx\r\nEOF\r\nRUN y");
  NINSTR(2);
  HEREDOC(0, 0, "EOF", "x\r\n", 0, 1, 2, 3);
  /* lower-case run opens heredocs too */
  SPLIT("run <<EOF\nFROM x\nEOF");
  NINSTR(1);
  HEREDOC(0, 0, "EOF", "FROM x\n", 0, 1, 2, 3);
}
END_TEST

START_TEST(test_heredoc_exact_terminator) {
  /* V7: "EOF ", " EOF" and "eof" do not terminate */
  SPLIT("RUN <<EOF\nEOF \n EOF\neof\nEOF\nRUN x");
  NINSTR(2);
  HEREDOC(0, 0, "EOF", "EOF \n EOF\neof\n", 0, 1, 2, 5);
  /* <<- strips leading tabs of the terminator, never spaces */
  SPLIT("RUN <<-EOF\n\tbody\n  EOF\n\t\tEOF\nRUN x");
  NINSTR(2);
  HEREDOC(0, 0, "EOF", "\tbody\n  EOF\n", 1, 1, 2, 4);
  INSTR(1, BOXLINT_KW_RUN, 5, 5, 29, 34);
  /* without the dash, a tab-indented terminator does not count */
  SPLIT("RUN <<EOF\n\tEOF\nEOF");
  NINSTR(1);
  HEREDOC(0, 0, "EOF", "\tEOF\n", 0, 1, 2, 3);
  /* heredoc bodies never continue (§4) */
  SPLIT("RUN <<EOF\nline \\\nEOF\nRUN y");
  NINSTR(2);
}
END_TEST

START_TEST(test_heredoc_names) {
  /* §6: quotes are removed from the name; expand is false when a quote was removed */
  SPLIT("RUN <<'EOF'\n$x\nEOF\nRUN <<\"EOF\"\n$x\nEOF\nRUN <<E\"O\"F\n$x\nEOF\nRUN <<E\\OF\n$x\nEOF");
  NINSTR(4);
  HEREDOC(0, 0, "EOF", "$x\n", 0, 0, 2, 3);
  HEREDOC(1, 0, "EOF", "$x\n", 0, 0, 5, 6);
  HEREDOC(2, 0, "EOF", "$x\n", 0, 0, 8, 9);
  HEREDOC(3, 0, "EOF", "$x\n", 0, 1, 11, 12); /* escapes do not count as quotes */
  /* names with blanks and shell characters */
  SPLIT("RUN <<'EXPOSE 80'\nx\nEXPOSE 80\nRUN <<E\\ OF\ny\nE OF\nRUN <<EOF;echo\nz\nEOF;echo");
  NINSTR(3);
  HEREDOC(0, 0, "EXPOSE 80", "x\n", 0, 0, 2, 3);
  HEREDOC(1, 0, "E OF", "y\n", 0, 1, 5, 6);
  HEREDOC(2, 0, "EOF;echo", "z\n", 0, 1, 8, 9);
  SPLIT("RUN <<$X\nbody\n$X");
  NINSTR(1);
  HEREDOC(0, 0, "$X", "body\n", 0, 1, 2, 3);
}
END_TEST

START_TEST(test_heredoc_openers) {
  /* << EOF and <<\tEOF are heredocs (§6) */
  SPLIT("RUN cat << EOF\nFROM x\nEOF\nRUN cat <<\tEND\nFROM y\nEND");
  NINSTR(2);
  HEREDOC(0, 0, "EOF", "FROM x\n", 0, 1, 2, 3);
  HEREDOC(1, 0, "END", "FROM y\n", 0, 1, 5, 6);
  /* <<- EOF is not: the next line is an instruction */
  SPLIT("RUN cat <<- EOF\nFROM x\nEOF");
  NINSTR(3);
  NHEREDOCS(0, 0);
  INSTR(1, BOXLINT_KW_FROM, 2, 2, 16, 23);
  /* cat<<EOF is not */
  SPLIT("RUN cat<<EOF\nFROM x");
  NINSTR(2);
  NHEREDOCS(0, 0);
  /* 0<<EOF is, and 3<<EOF records its fd */
  SPLIT("RUN cat 0<<EOF\nFROM x\nEOF\nRUN cat 3<<EOF\nFROM y\nEOF");
  NINSTR(2);
  HEREDOC(0, 0, "EOF", "FROM x\n", 0, 1, 2, 3);
  const boxlint_heredoc *h = HEREDOC(1, 0, "EOF", "FROM y\n", 0, 1, 5, 6);
  ck_assert_uint_eq(h->fd, 3);
  /* $(( 1 <<2 )) opens a heredoc named 2; a shell comment does not hide one (§6) */
  SPLIT("RUN echo $(( 1 <<2 ))\nFROM x\n2\nRUN echo hi # <<EOF\nFROM y\nEOF");
  NINSTR(2);
  HEREDOC(0, 0, "2", "FROM x\n", 0, 1, 2, 3);
  HEREDOC(1, 0, "EOF", "FROM y\n", 0, 1, 5, 6);
  /* not heredocs: "<<EOF", \<<EOF, <<<EOF, <<EOF<in, <<"" (V7) */
  SPLIT("RUN echo \"<<EOF\"\nRUN echo \\<<EOF\nRUN cat <<<EOF\nRUN cat <<EOF<in\nRUN cat <<\"\"\n"
        "RUN x");
  NINSTR(6);
  for (size_t i = 0; i < 6; i++) NHEREDOCS(i, 0);
  /* non-ASCII white space splits shell words: cat\u00a0<<EOF is a heredoc (§6) */
  SPLIT("RUN cat\xc2\xa0<<EOF\nFROM x\nEOF");
  NINSTR(1);
  HEREDOC(0, 0, "EOF", "FROM x\n", 0, 1, 2, 3);
  /* ...but <<\u00a0EOF is not */
  SPLIT("RUN cat <<\xc2\xa0" "EOF\nFROM x");
  NINSTR(2);
}
END_TEST

START_TEST(test_heredoc_several_and_continued) {
  /* several heredocs on one line are read one after another (§6) */
  SPLIT("RUN cat <<A - <<'B' >f\nalpha\nA\nbeta\nB\nRUN z");
  NINSTR(2);
  INSTR(0, BOXLINT_KW_RUN, 1, 5, 0, 38);
  HEREDOC(0, 0, "A", "alpha\n", 0, 1, 2, 3);
  HEREDOC(0, 1, "B", "beta\n", 0, 0, 4, 5);
  INSTR(1, BOXLINT_KW_RUN, 6, 6, 38, 43);
  /* the opener on a continuation line: bodies start after the whole logical line */
  SPLIT("RUN cat \\\n  <<EOF \\\n  > /x\nbody\nEOF\nRUN z");
  NINSTR(2);
  INSTR(0, BOXLINT_KW_RUN, 1, 5, 0, 36);
  HEREDOC(0, 0, "EOF", "body\n", 0, 1, 4, 5);
  /* V6: the heredoc name ends with a backslash; line 2 terminates it */
  SPLIT("RUN <<'RUN echo \\'\nRUN echo \\\nFROM evil");
  NINSTR(2);
  HEREDOC(0, 0, "RUN echo \\", "", 0, 0, 2, 2);
  INSTR(1, BOXLINT_KW_FROM, 3, 3, 30, 39);
  /* V7: tab-stripped terminator with <<- */
  SPLIT("RUN <<-'EXPOSE 80'\n\tEXPOSE 80\nFROM evil\nEXPOSE 80");
  NINSTR(3);
  HEREDOC(0, 0, "EXPOSE 80", "", 1, 0, 2, 2);
  INSTR(1, BOXLINT_KW_FROM, 3, 3, 30, 40);
  INSTR(2, BOXLINT_KW_EXPOSE, 4, 4, 40, 49);
}
END_TEST

START_TEST(test_heredoc_lexer_error_disables) {
  /* a single stray quote anywhere on the line, even in a comment, disables heredocs (§14) */
  SPLIT("RUN cat <<EOF # it's\nRUN x\nEOF");
  NINSTR(3);
  NHEREDOCS(0, 0);
  INSTR(1, BOXLINT_KW_RUN, 2, 2, 21, 27);
  INSTR(2, BOXLINT_KW_NONE, 3, 3, 27, 30);
  /* V7: the ONBUILD case with an unterminated double quote */
  SPLIT("ONBUILD RUN cat <<'LABEL x=y' \"\nENTRYPOINT [\"/evil\"]\nLABEL x=y");
  NINSTR(3);
  NHEREDOCS(0, 0);
  INSTR(1, BOXLINT_KW_ENTRYPOINT, 2, 2, 32, 53);
  INSTR(2, BOXLINT_KW_LABEL, 3, 3, 53, 62);
  /* ${ with no }, ${}, ${x!} are lexer errors too */
  SPLIT("RUN echo ${ <<EOF\nFROM a\nRUN echo ${} <<EOF\nFROM b\nRUN echo ${x!} <<EOF\nFROM c");
  NINSTR(6);
  INSTR(1, BOXLINT_KW_FROM, 2, 2, 18, 25);
  INSTR(3, BOXLINT_KW_FROM, 4, 4, 44, 51);
  INSTR(5, BOXLINT_KW_FROM, 6, 6, 72, 78);
}
END_TEST

START_TEST(test_heredoc_which_instructions) {
  /* exec form never opens a heredoc (§6) */
  SPLIT("RUN [\"cat\", \"<<EOF\"]\nFROM x");
  NINSTR(2);
  NHEREDOCS(0, 0);
  ck_assert_int_eq(boxlint_report_instruction(R, 0)->json, 1);
  /* RUN ["cat"] <<EOF is not valid JSON, so shell form with a heredoc */
  SPLIT("RUN [\"cat\"] <<EOF\nFROM x\nEOF");
  NINSTR(1);
  HEREDOC(0, 0, "EOF", "FROM x\n", 0, 1, 2, 3);
  ck_assert_int_eq(boxlint_report_instruction(R, 0)->json, 0);
  /* ENV, CMD, LABEL never open heredocs */
  SPLIT("ENV A=<<EOF\nFROM a\nCMD cat <<EOF\nFROM b\nLABEL a=<<EOF\nFROM c");
  NINSTR(6);
  for (size_t i = 0; i < 6; i += 2) NHEREDOCS(i, 0);
  /* COPY and ADD bodies are read exactly (docs/design.md §2) */
  SPLIT("COPY <<EOF /etc/x\nFROM evil\nRUN \\\nEOF\nRUN ok");
  NINSTR(2);
  INSTR(0, BOXLINT_KW_COPY, 1, 4, 0, 38);
  HEREDOC(0, 0, "EOF", "FROM evil\nRUN \\\n", 0, 1, 2, 4);
  INSTR(1, BOXLINT_KW_RUN, 5, 5, 38, 44);
  SPLIT("ADD <<-'A' <<B /dst/\n\tx\n\tA\ny\nB\nRUN ok");
  NINSTR(2);
  HEREDOC(0, 0, "A", "\tx\n", 1, 0, 2, 3);
  HEREDOC(0, 1, "B", "y\n", 0, 1, 4, 5);
  /* ONBUILD RUN/COPY heredocs (§6, V7) */
  SPLIT("ONBUILD RUN <<EOF\nFROM x\nEOF\nonbuild copy <<EOF /y\nFROM z\nEOF\nRUN y");
  NINSTR(3);
  const boxlint_instruction *in = INSTR(0, BOXLINT_KW_ONBUILD, 1, 3, 0, 29);
  ck_assert_int_eq(in->trigger, BOXLINT_KW_RUN);
  HEREDOC(0, 0, "EOF", "FROM x\n", 0, 1, 2, 3);
  in = INSTR(1, BOXLINT_KW_ONBUILD, 4, 6, 29, 62);
  ck_assert_int_eq(in->trigger, BOXLINT_KW_COPY);
  HEREDOC(1, 0, "EOF", "FROM z\n", 0, 1, 5, 6);
  /* ONBUILD of something else does not */
  SPLIT("ONBUILD ENV a=<<EOF\nFROM x");
  NINSTR(2);
}
END_TEST

/* §5: the heredoc lexer always uses backslash, even under # escape=` */
START_TEST(test_heredoc_backtick_escape) {
  SPLIT("# escape=`\nRUN cat <<E\\OF\nbody\nEOF\nRUN x");
  NINSTR(2);
  HEREDOC(0, 0, "EOF", "body\n", 0, 1, 3, 4);
  /* and the continuation before it uses the backtick */
  SPLIT("# escape=`\nRUN cat `\n  <<EOF\nbody\nEOF\nRUN x");
  NINSTR(2);
  HEREDOC(0, 0, "EOF", "body\n", 0, 1, 4, 5);
}
END_TEST

START_TEST(test_heredoc_unterminated_split) {
  /* §6: a missing terminator rejects the file; split reports it */
  SPLIT("RUN a\nRUN cat <<EOF\nbody\nmore");
  NINSTR(2);
  INSTR(1, BOXLINT_KW_RUN, 2, 4, 6, 29);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
  EXPECT("unterminated-heredoc", 1, 2, 9, 2, 11, 14, 16, "EOF");
  /* the second of two */
  SPLIT("RUN cat <<A <<B\na\nA\nb");
  NINSTR(1);
  EXPECT("unterminated-heredoc", 0, 1, 13, 1, 15, 12, 14, "\"B\"");
  /* a complete fragment has no diagnostic from split, whatever its instructions */
  SPLIT("FROM x\nCOPY . /\nRUNN y\nENV");
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
  NINSTR(4);
}
END_TEST

/*==============================================================================================
 * check_fragment: file positions of diagnostics (docs/design.md §2.4, §2.5)
 *============================================================================================*/

START_TEST(test_fragment_positions) {
  CHECKF("RUN a\n\n  FROM x\nRUNN b\n  cp  x y\nRUN \\\n  --network=bad x\n");
  NINSTR(5);
  EXPECT("denied-instruction", 1, 3, 3, 3, 7, 9, 13, "FROM");
  const boxlint_diag *d = EXPECT("unknown-instruction", 2, 4, 1, 4, 5, 16, 20, "RUNN");
  ck_assert_ptr_nonnull(d->fix);
  ck_assert_uint_eq(d->fix->offset, 16); /* fixes are file offsets in a fragment */
  ck_assert_uint_eq(d->fix->length, 4);
  EXPECT("unknown-instruction", 3, 5, 3, 5, 5, 25, 27, "cp");
  EXPECT("invalid-flag", 4, 7, 3, 7, 16, 41, 54, "invalid network mode");
  /* sorted by instruction */
  for (size_t i = 1; i < boxlint_report_diag_count(R); i++)
    ck_assert_int_le(boxlint_report_diag(R, i - 1)->command, boxlint_report_diag(R, i)->command);
  /* columns count code points across the file */
  CHECKF("# caf\xc3\xa9\nLABEL a=\"\xc3\xa9\xe2\x82\xac\" b\n");
  EXPECT("invalid-arguments", 0, 2, 14, 2, 15, 24, 25, "\"b\"");
  /* a heredoc does not shift later positions */
  CHECKF("RUN <<EOF\nFROM x\nEOF\nENV\n");
  NINSTR(2);
  ck_assert_uint_eq(nerrors(), 1);
  EXPECT("missing-arguments", 1, 4, 1, 4, 4, 21, 24, "ENV");
  /* a BOM is not a column */
  CHECKF("\xef\xbb\xbf" "FROM x");
  EXPECT("denied-instruction", 0, 1, 1, 1, 5, 3, 7, "FROM");
}
END_TEST

START_TEST(test_fragment_accepts_real_dockerfile) {
  CHECKF("# syntax=docker/dockerfile:1\n"
         "ARG PY=3.12\n"
         "ENV DEBIAN_FRONTEND=noninteractive \\\n"
         "    LANG=C.UTF-8\n"
         "\n"
         "# system packages\n"
         "RUN apt-get update \\\n"
         "    # keep the list sorted\n"
         "    && apt-get install -y --no-install-recommends curl git \\\n"
         "\n"
         "    && rm -rf /var/lib/apt/lists/*\n"
         "RUN --mount=type=cache,target=/root/.cache pip install --no-cache-dir numpy\n"
         "RUN <<EOF cat > /etc/motd\n"
         "Welcome\n"
         "EOF\n"
         "WORKDIR /home/user\n"
         "USER root\n");
  EXPECT_NO_ERRORS();
  NINSTR(7);
  INSTR(2, BOXLINT_KW_RUN, 7, 11, 114, 259);
}
END_TEST

START_TEST(test_fragment_no_command_limit) {
  static char buf[70 * 9];
  for (size_t i = 0; i < 70; i++) memcpy(buf + 9 * i, "RUN true\n", 9);
  checkf_buf(buf, sizeof buf);
  NINSTR(70);
  EXPECT_NO_ERRORS();
  ck_assert_ptr_null(find("too-many-commands", 64));
}
END_TEST

START_TEST(test_fragment_directive_errors) {
  /* §5: a repeated directive and a bad escape token */
  CHECKF("# escape=`\n# escape=\\\nRUN x");
  ck_assert_uint_ge(nerrors(), 1);
  ck_assert_ptr_nonnull(strstr(boxlint_report_diag(R, 0)->message, "only one"));
  ck_assert_uint_eq(boxlint_report_diag(R, 0)->line, 2);
  CHECKF("# escape=x\nRUN x");
  ck_assert_uint_ge(nerrors(), 1);
  ck_assert_ptr_nonnull(strstr(boxlint_report_diag(R, 0)->message, "invalid escape token"));
  ck_assert_uint_eq(boxlint_report_diag(R, 0)->line, 1);
}
END_TEST

/*==============================================================================================
 * check_base (docs/design.md §2.6, V13)
 *============================================================================================*/

static boxlint_base_info base_check(const char *p, size_t n) {
  boxlint_base_info bi;
  memset(&bi, 0x55, sizeof bi);
  boxlint_report_clear(R);
  IN = p;
  INLEN = n;
  ck_assert_int_eq(boxlint_check_base(&bi, R, p, n), BOXLINT_OK);
  return bi;
}
#define BASE(lit) base_check((lit), sizeof(lit) - 1)

START_TEST(test_base_appendable) {
  boxlint_base_info bi = BASE("FROM e2bdev/code-interpreter:latest\nRUN apt-get update\n");
  ck_assert_int_eq(bi.appendable, 1);
  ck_assert_int_eq(bi.escape, '\\');
  ck_assert_uint_eq(bi.instructions, 2);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
  /* trailing blank lines and comments are fine */
  bi = BASE("FROM x\nRUN a\n\n# trailing\n");
  ck_assert_int_eq(bi.appendable, 1);
  ck_assert_uint_eq(bi.instructions, 2);
  /* a complete heredoc at the end */
  bi = BASE("FROM x\nRUN <<EOF\nbody\nEOF\n");
  ck_assert_int_eq(bi.appendable, 1);
  /* CRLF ending */
  bi = BASE("FROM x\r\n");
  ck_assert_int_eq(bi.appendable, 1);
}
END_TEST

START_TEST(test_base_not_appendable) {
  /* V13: no trailing newline */
  boxlint_base_info bi = BASE("FROM alpine");
  ck_assert_int_eq(bi.appendable, 0);
  ck_assert_uint_eq(bi.instructions, 1);
  const boxlint_diag *d = EXPECT("base-not-appendable", -1, 1, 12, 1, 12, 11, 11, "newline");
  ck_assert_ptr_nonnull(d->fix);
  ck_assert_uint_eq(d->fix->offset, 11);
  ck_assert_uint_eq(d->fix->length, 0);
  ck_assert_str_eq(d->fix->text, "\n");
  /* ends inside a continuation */
  bi = BASE("FROM x\nRUN a \\\n");
  ck_assert_int_eq(bi.appendable, 0);
  EXPECT("base-not-appendable", -1, 2, 7, 2, 8, 13, 14, "continuation");
  /* through a comment line */
  bi = BASE("FROM x\nRUN a \\\n# c\n");
  ck_assert_int_eq(bi.appendable, 0);
  ck_assert_ptr_nonnull(find("base-not-appendable", -1));
  /* ends inside an open heredoc */
  bi = BASE("FROM x\nRUN <<EOF\nbody\n");
  ck_assert_int_eq(bi.appendable, 0);
  d = find("base-not-appendable", -1);
  ck_assert_ptr_nonnull(d);
  ck_assert_ptr_nonnull(strstr(d->message, "heredoc"));
  ck_assert_uint_eq(d->line, 2);
  /* only comments: appended text could be a directive (V12) */
  bi = BASE("# just a comment\n\n");
  ck_assert_int_eq(bi.appendable, 0);
  ck_assert_uint_eq(bi.instructions, 0);
  d = find("base-not-appendable", -1);
  ck_assert_ptr_nonnull(d);
  ck_assert_ptr_nonnull(strstr(d->message, "no instruction"));
  bi = BASE("");
  ck_assert_int_eq(bi.appendable, 0);
  ck_assert_uint_eq(bi.instructions, 0);
  /* with the backtick escape, a trailing backtick continues */
  bi = BASE("# escape=`\nFROM x\nRUN a `\n");
  ck_assert_int_eq(bi.appendable, 0);
  ck_assert_int_eq(bi.escape, '`');
  EXPECT("base-not-appendable", -1, 3, 7, 3, 8, 24, 25, "continuation");
}
END_TEST

START_TEST(test_base_escape) {
  boxlint_base_info bi = BASE("# escape=`\nFROM x\nRUN a `\n  b\n");
  ck_assert_int_eq(bi.appendable, 1);
  ck_assert_int_eq(bi.escape, '`');
  ck_assert_uint_eq(bi.instructions, 2);
  /* a trailing backslash is plain text under the backtick escape */
  bi = BASE("# escape=`\nFROM x\nRUN a \\\n");
  ck_assert_int_eq(bi.appendable, 1);
  ck_assert_int_eq(bi.escape, '`');
  /* and a backtick is plain text under the default */
  bi = BASE("FROM x\nRUN a `\n");
  ck_assert_int_eq(bi.appendable, 1);
  ck_assert_int_eq(bi.escape, '\\');
  /* a directive after an instruction does not count */
  bi = BASE("FROM x\n# escape=`\nRUN a\n");
  ck_assert_int_eq(bi.escape, '\\');
  /* the returned escape makes the commands checked the way BuildKit will read them */
  bi = BASE("# escape=`\nFROM x\n");
  boxlint_options o;
  boxlint_options_init(&o);
  o.escape = bi.escape;
  boxlint_span c = {"RUN echo `", 10};
  boxlint_report_clear(R);
  ck_assert_int_eq(boxlint_check_commands(R, &c, 1, &o), BOXLINT_OK);
  ck_assert_ptr_nonnull(find("dangling-continuation", 0));
}
END_TEST

/*==============================================================================================
 * Arguments, guard pages, out of memory
 *============================================================================================*/

START_TEST(test_einval) {
  boxlint_base_info bi;
  ck_assert_int_eq(boxlint_split_fragment(NULL, "RUN x", 5, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_check_fragment(NULL, "RUN x", 5, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_split_fragment(R, NULL, 5, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_check_fragment(R, NULL, 5, NULL), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_split_fragment(R, NULL, 0, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 0);
  ck_assert_int_eq(boxlint_check_base(NULL, R, "FROM x\n", 7), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_check_base(&bi, NULL, "FROM x\n", 7), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_check_base(&bi, R, NULL, 7), BOXLINT_EINVAL);
  boxlint_options o;
  boxlint_options_init(&o);
  o.escape = '/';
  ck_assert_int_eq(boxlint_split_fragment(R, "RUN x", 5, &o), BOXLINT_EINVAL);
  ck_assert_int_eq(boxlint_check_fragment(R, "RUN x", 5, &o), BOXLINT_EINVAL);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 0);
}
END_TEST

START_TEST(test_split_replaces_instructions) {
  SPLIT("RUN a\nRUN b\nRUN c");
  NINSTR(3);
  /* without clearing, a new split replaces the list */
  ck_assert_int_eq(boxlint_split_fragment(R, "RUN z", 5, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 1);
}
END_TEST

START_TEST(test_guard_page_fragments) {
  static const char *const inputs[] = {
      "RUN a \\",
      "RUN <<EOF\nbody\nEO",
      "RUN <<EOF\nbody\nEOF",
      "RUN <<-EOF\n\t\t",
      "\xef\xbb\xbf",
      "\xef\xbb",
      "# escape=`",
      "# escape=`\nRUN a `",
      "RUN cat <<'EOF",
      "RUN cat <<E\\",
      "RUN echo ${x:-",
      "RUN \"a\\",
      "RUN a\r",
      "ONBUILD RUN <<EOF",
      "HEALTHCHECK CMD [\"a\"",
      "RUN --mount=type=cache,target=/x\xc3",
      "ENV a=\"b",
      "  \t",
      "#",
  };
  for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
    size_t n = strlen(inputs[i]);
    guarded g = guard(inputs[i], n);
    boxlint_report_clear(R);
    ck_assert_int_eq(boxlint_split_fragment(R, g.p, n, NULL), BOXLINT_OK);
    boxlint_report_clear(R);
    ck_assert_int_eq(boxlint_check_fragment(R, g.p, n, NULL), BOXLINT_OK);
    boxlint_base_info bi;
    boxlint_report_clear(R);
    ck_assert_int_eq(boxlint_check_base(&bi, R, g.p, n), BOXLINT_OK);
    ck_assert_int_eq(bi.appendable, 0); /* none ends with a newline */
    boxlint_span s = {g.p, n};
    boxlint_report_clear(R);
    ck_assert_int_eq(boxlint_check_commands(R, &s, 1, NULL), BOXLINT_OK);
    unguard(&g);
  }
  /* the results at the page end are the right ones */
  guarded g = guard("RUN a\nRUN <<EOF\nbody\nEOF", 24);
  IN = g.p;
  INLEN = 24;
  boxlint_report_clear(R);
  ck_assert_int_eq(boxlint_split_fragment(R, g.p, 24, NULL), BOXLINT_OK);
  NINSTR(2);
  HEREDOC(1, 0, "EOF", "body\n", 0, 1, 3, 4);
  unguard(&g);
}
END_TEST

static const char OOM_FRAGMENT[] =
    "\xef\xbb\xbf# escape=`\n"
    "FROM x\n"
    "RUN a `\n# c\n\n  b\n"
    "RUN <<A cat - <<-'B'\nalpha\nA\n\tbeta\n\tB\n"
    "COPY <<EOF /x\nbody\nEOF\n"
    "ONBUILD RUN --network=bad echo\n"
    "ENV a=b c\n"
    "RUNN x\n"
    "RUN echo $\xc3\xa9 <<EOF\nx\nEOF\n"
    "RUN <<EOF\nunterminated\n";

/* 0: split, 1: check fragment, 2: check base */
static void oom_loop(int which) {
  for (long n = 0;; n++) {
    ck_assert_msg(n < 100000, "no success");
    failer f = {.left = n};
    boxlint_alloc a = failer_alloc(&f);
    boxlint_report *r = NULL;
    boxlint_status st = boxlint_report_new(&r, &a);
    if (st == BOXLINT_OK) {
      size_t len = sizeof OOM_FRAGMENT - 1;
      boxlint_base_info bi;
      if (which == 0) st = boxlint_split_fragment(r, OOM_FRAGMENT, len, NULL);
      else if (which == 1) st = boxlint_check_fragment(r, OOM_FRAGMENT, len, NULL);
      else st = boxlint_check_base(&bi, r, OOM_FRAGMENT, len);
      for (size_t i = 0; i < boxlint_report_diag_count(r); i++)
        (void)strlen(boxlint_report_diag(r, i)->message);
      boxlint_report_free(r);
    } else {
      ck_assert_ptr_null(r);
    }
    ck_assert_msg(st == BOXLINT_OK || st == BOXLINT_ENOMEM, "status %d at n=%ld", (int)st, n);
    ck_assert_int_eq(f.live, 0);
    if (st == BOXLINT_OK) {
      ck_assert_msg(!f.failed, "an allocation failed at n=%ld but the call returned OK", n);
      break;
    }
  }
}

START_TEST(test_oom_split) { oom_loop(0); }
END_TEST
START_TEST(test_oom_check_fragment) { oom_loop(1); }
END_TEST
START_TEST(test_oom_check_base) { oom_loop(2); }
END_TEST

/*==============================================================================================*/

static Suite *lexer_suite(void) {
  Suite *s = suite_create("check_lexer");
  TCase *tc;

  tc = tcase_create("split");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_byte_classes_every_position);
  tcase_add_test(tc, test_shlex_plain_shortcut_matches_full_lexer);
  tcase_add_test(tc, test_split_basic);
  tcase_add_test(tc, test_split_continuations);
  tcase_add_test(tc, test_split_eof_inside_continuation);
  tcase_add_test(tc, test_split_escape_directive);
  tcase_add_test(tc, test_split_bom);
  tcase_add_test(tc, test_split_line_breaks);
  tcase_add_test(tc, test_split_replaces_instructions);
  suite_add_tcase(s, tc);

  tc = tcase_create("heredoc");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_heredoc_basic);
  tcase_add_test(tc, test_heredoc_exact_terminator);
  tcase_add_test(tc, test_heredoc_names);
  tcase_add_test(tc, test_heredoc_openers);
  tcase_add_test(tc, test_heredoc_several_and_continued);
  tcase_add_test(tc, test_heredoc_lexer_error_disables);
  tcase_add_test(tc, test_heredoc_which_instructions);
  tcase_add_test(tc, test_heredoc_backtick_escape);
  tcase_add_test(tc, test_heredoc_unterminated_split);
  suite_add_tcase(s, tc);

  tc = tcase_create("fragment");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_fragment_positions);
  tcase_add_test(tc, test_fragment_accepts_real_dockerfile);
  tcase_add_test(tc, test_fragment_no_command_limit);
  tcase_add_test(tc, test_fragment_directive_errors);
  suite_add_tcase(s, tc);

  tc = tcase_create("base");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_base_appendable);
  tcase_add_test(tc, test_base_not_appendable);
  tcase_add_test(tc, test_base_escape);
  suite_add_tcase(s, tc);

  tc = tcase_create("api");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_einval);
  tcase_add_test(tc, test_guard_page_fragments);
  tcase_add_test(tc, test_oom_split);
  tcase_add_test(tc, test_oom_check_fragment);
  tcase_add_test(tc, test_oom_check_base);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(lexer_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

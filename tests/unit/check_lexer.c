/* The check_lexer suite (check_lexer.h says what it tests), and its main(). */
#include "check_lexer.h"

/*==============================================================================================
 * Splitting: instructions, lines, continuations, comments (as BuildKit splits a file)
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
  /* comment lines inside a continuation are skipped, their own escape does not matter */
  SPLIT("RUN a \\\n# comment \\\n  b\nRUN c");
  NINSTR(2);
  const boxlint_instruction *in = INSTR(0, BOXLINT_KW_RUN, 1, 3, 0, 24);
  SPAN_EQ(in->logical, "RUN a   b");
  INSTR(1, BOXLINT_KW_RUN, 4, 4, 24, 29);
  /* blank and white-space-only continuation lines are skipped */
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
  /* a lone escape line contributes nothing: the keyword comes from the next line */
  SPLIT("\\\nCOPY . /");
  NINSTR(1);
  INSTR(0, BOXLINT_KW_COPY, 1, 2, 0, 10);
  /* only space and tab may follow the escape; two escapes never continue */
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
  /* a top-level comment never starts a continuation */
  SPLIT("# note \\\nFROM evil");
  NINSTR(1);
  INSTR(0, BOXLINT_KW_FROM, 2, 2, 9, 18);
  /* continuation lines keep their leading white space */
  SPLIT("RUN a \\\n    && b");
  in = INSTR(0, BOXLINT_KW_RUN, 1, 2, 0, 16);
  SPAN_EQ(in->logical, "RUN a     && b");
}
END_TEST

START_TEST(test_split_eof_inside_continuation) {
  /* reaching EOF inside a continuation is allowed: what was collected is the instruction */
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
  /* the key is case-insensitive and blanks are allowed */
  SPLIT("#  ESCAPE = `\nRUN a `\nb");
  NINSTR(1);
  INSTR(0, BOXLINT_KW_RUN, 2, 3, 14, 23);
  /* after a syntax directive it still counts */
  SPLIT("# syntax=docker/dockerfile:1\n# escape=`\nRUN a `\nb");
  NINSTR(1);
  /* a directive after an instruction, a blank line or a comment is an ordinary comment */
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
  /* a BOM at the start of the file is dropped */
  SPLIT("\xef\xbb\xbfRUN a\nRUN b");
  NINSTR(2);
  const boxlint_instruction *in = INSTR(0, BOXLINT_KW_RUN, 1, 1, 3, 9);
  SPAN_EQ(in->keyword_text, "RUN");
  INSTR(1, BOXLINT_KW_RUN, 2, 2, 9, 14);
  /* and a directive may follow it */
  SPLIT("\xef\xbb\xbf# escape=`\nRUN a `\nb");
  NINSTR(1);
  /* anywhere else U+FEFF is part of the keyword, which is unknown */
  SPLIT("RUN a\n\xef\xbb\xbfRUN b");
  NINSTR(2);
  in = INSTR(1, BOXLINT_KW_NONE, 2, 2, 6, 14);
  SPAN_EQ(in->keyword_text, "\xef\xbb\xbfRUN");
}
END_TEST

START_TEST(test_split_line_breaks) {
  /* only LF splits lines; a bare CR and U+2028 are text inside the line */
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
 * Heredocs
 *============================================================================================*/

START_TEST(test_heredoc_basic) {
  SPLIT("RUN <<EOF\necho hi\nEOF\nRUN next");
  NINSTR(2);
  INSTR(0, BOXLINT_KW_RUN, 1, 3, 0, 22);
  HEREDOC(0, 0, "EOF", "echo hi\n", 0, 1, 2, 3);
  INSTR(1, BOXLINT_KW_RUN, 4, 4, 22, 30);
  /* bodies are raw: comments, escapes and instructions inside are body */
  SPLIT("RUN cat <<EOF\n# not a comment \\\nFROM evil\n\nEOF\nUSER x");
  NINSTR(2);
  HEREDOC(0, 0, "EOF", "# not a comment \\\nFROM evil\n\n", 0, 1, 2, 5);
  INSTR(1, BOXLINT_KW_USER, 6, 6, 47, 53);
  /* an empty body */
  SPLIT("RUN <<EOF\nEOF\nRUN x");
  NINSTR(2);
  HEREDOC(0, 0, "EOF", "", 0, 1, 2, 2);
  /* a CRLF terminator ends it (trailing CR/LF stripped) */
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
  /* heredoc bodies never continue */
  SPLIT("RUN <<EOF\nline \\\nEOF\nRUN y");
  NINSTR(2);
}
END_TEST

START_TEST(test_heredoc_names) {
  /* quotes are removed from the name; expand is false when a quote was removed */
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
  /* << EOF and <<\tEOF are heredocs */
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
  /* $(( 1 <<2 )) opens a heredoc named 2; a shell comment does not hide one */
  SPLIT("RUN echo $(( 1 <<2 ))\nFROM x\n2\nRUN echo hi # <<EOF\nFROM y\nEOF");
  NINSTR(2);
  HEREDOC(0, 0, "2", "FROM x\n", 0, 1, 2, 3);
  HEREDOC(1, 0, "EOF", "FROM y\n", 0, 1, 5, 6);
  /* not heredocs: "<<EOF", \<<EOF, <<<EOF, <<EOF<in, <<"" (V7) */
  SPLIT("RUN echo \"<<EOF\"\nRUN echo \\<<EOF\nRUN cat <<<EOF\nRUN cat <<EOF<in\nRUN cat <<\"\"\n"
        "RUN x");
  NINSTR(6);
  for (size_t i = 0; i < 6; i++) NHEREDOCS(i, 0);
  /* non-ASCII white space splits shell words: cat\u00a0<<EOF is a heredoc */
  SPLIT("RUN cat\xc2\xa0<<EOF\nFROM x\nEOF");
  NINSTR(1);
  HEREDOC(0, 0, "EOF", "FROM x\n", 0, 1, 2, 3);
  /* ...but <<\u00a0EOF is not */
  SPLIT("RUN cat <<\xc2\xa0" "EOF\nFROM x");
  NINSTR(2);
}
END_TEST

START_TEST(test_heredoc_several_and_continued) {
  /* several heredocs on one line are read one after another */
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
  /* a single stray quote anywhere on the line, even in a comment, disables heredocs */
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
  /* exec form never opens a heredoc */
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
  /* ONBUILD RUN/COPY heredocs */
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

/* the heredoc lexer always uses backslash, even under # escape=` */
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
  /* a missing terminator rejects the file; split reports it */
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

START_TEST(test_split_replaces_instructions) {
  SPLIT("RUN a\nRUN b\nRUN c");
  NINSTR(3);
  /* without clearing, a new split replaces the list */
  ck_assert_int_eq(boxlint_split_fragment(R, "RUN z", 5, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_instruction_count(R), 1);
}
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
  lexer_add_fragment(s);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(lexer_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*
 * Unit tests of lib/src/python/encoding.c (a Python file's encoding as CPython 3.11 reads it) and
 * ident.c (identifiers: XID checks and NFKC). Each behaviour here was checked against CPython
 * 3.11 (python3 FILE and compile() of the bytes); tests/oracle/python_encoding_test.py compares the
 * same functions with CPython over every byte, codec alias and code point.
 */
#include <check.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "python/encoding.h"
#include "failing_alloc.h"

static boxlint__mem M;

static void setup(void) { boxlint__mem_init(&M, NULL); }

/* Read s[0..n): rc 0, the caller frees. */
static bl_pysrc read_src(const char *s, size_t n) {
  bl_pysrc src;
  ck_assert_int_eq(bl_py_source(&M, s, n, &src), 0);
  return src;
}

/* Accepted, as `codec`, with the UTF-8 text `text` (NULL: the input itself, no copy). */
static void accept_at(const char *s, size_t n, const char *codec, const char *text, size_t tl) {
  bl_pysrc src = read_src(s, n);
  ck_assert_msg(src.err == NULL, "%s: refused: %s (%s) at %zu", s, src.err, src.err_detail,
                src.err_off);
  ck_assert_str_eq(src.encoding, codec);
  if (!text) {
    ck_assert_ptr_eq(src.text, s);
    ck_assert_uint_eq(src.len, n);
    ck_assert_ptr_null(src.owned);
    ck_assert_ptr_null(src.map);
  } else {
    ck_assert_ptr_eq(src.text, src.owned);
    ck_assert_uint_eq(src.len, tl);
    ck_assert_mem_eq(src.text, text, tl);
    ck_assert_int_eq(src.owned[tl], 0);
    ck_assert_uint_eq(src.map[tl], n);
  }
  bl_py_source_free(&M, &src);
}
#define ACCEPT(lit, codec, text) accept_at((lit), sizeof(lit) - 1, (codec), (text), sizeof(text) - 1)
#define IN_PLACE(lit, codec) accept_at((lit), sizeof(lit) - 1, (codec), NULL, 0)

/* Refused at byte `off` with the message `msg` (formatted), the codec `codec` (NULL: none). */
static void refuse_at(const char *s, size_t n, size_t off, const char *codec, const char *msg) {
  bl_pysrc src = read_src(s, n);
  ck_assert_msg(src.err != NULL, "%s: accepted as %s", s, src.encoding);
  char buf[256];
  size_t l = bl_py_source_message(&src, buf, sizeof buf);
  ck_assert_str_eq(buf, msg);
  ck_assert_uint_eq(l, strlen(msg));
  ck_assert_uint_eq(src.err_off, off);
  if (codec) ck_assert_str_eq(src.encoding, codec);
  else ck_assert_ptr_null(src.encoding);
  ck_assert_ptr_null(src.owned);
  ck_assert_ptr_null(src.map);
  bl_py_source_free(&M, &src);
}
#define REFUSE(lit, off, codec, msg) refuse_at((lit), sizeof(lit) - 1, (off), (codec), (msg))

#define NOT_UTF8 "the file is not valid UTF-8 (and declares no other encoding)"
#define CANNOT(name) "the file declares the encoding " name \
                     ", which boxlint cannot read exactly as Python does"

/*==============================================================================================
 * MARK: UTF-8
 *============================================================================================*/

START_TEST(test_utf8_in_place) {
  IN_PLACE("", "utf-8");
  IN_PLACE("x = 1\n", "utf-8");
  IN_PLACE("x = '\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80'\n", "utf-8");
  IN_PLACE("\xef\xbb\xbfx = 1\n", "utf-8"); /* the BOM stays: the tokenizer skips it */
  IN_PLACE("# coding: utf-8\nx = '\xc3\xa9'\n", "utf-8");
  IN_PLACE("#!/usr/bin/python3\n# -*- coding: UTF-8 -*-\n", "utf-8");
  IN_PLACE("# coding: utf8\n", "utf-8");       /* codecs.lookup: utf_8 */
  IN_PLACE("# coding: u8\n", "utf-8");
  IN_PLACE("# coding: cp65001\n", "utf-8");
  IN_PLACE("# coding: utf_8_sig\n", "utf-8");  /* get_normal_name: utf-8-* is utf-8 */
  IN_PLACE("# coding: utf-8-whatever\n", "utf-8");
  IN_PLACE("# coding: utf--8--sig\n", "utf-8-sig");
  IN_PLACE("\xef\xbb\xbf# coding: utf-8\n", "utf-8");
  IN_PLACE("\xef\xbb\xbf# coding: UTF_8_SIG\n", "utf-8");
}
END_TEST

START_TEST(test_utf8_invalid) {
  REFUSE("x = '\xff'\n", 5, "utf-8", NOT_UTF8);
  REFUSE("# \xc0\x80 overlong\n", 2, "utf-8", NOT_UTF8);
  REFUSE("# \xed\xa0\x80 surrogate\n", 2, "utf-8", NOT_UTF8);
  REFUSE("# \xf4\x90\x80\x80 past U+10FFFF\n", 2, "utf-8", NOT_UTF8);
  REFUSE("x = 1 # \xe2\x82", 8, "utf-8", NOT_UTF8); /* truncated at the end */
  REFUSE("\xef\xbb\xbf# \xe9\n", 5, "utf-8", NOT_UTF8);
  REFUSE("# coding: utf8\nx = '\xe9'\n", 20, "utf-8",
         "the file declares the encoding utf8 but is not valid UTF-8");
  REFUSE("# coding: utf-8\n# \xed\xa0\x80\n", 18, "utf-8",
         "the file declares the encoding utf-8 but is not valid UTF-8");
}
END_TEST

/*==============================================================================================
 * MARK: The declaration
 *============================================================================================*/

#define L1_TEXT(head) head "x = '\xc3\xa9'\n"
#define L1(head) ACCEPT(head "x = '\xe9'\n", "iso8859-1", L1_TEXT(head))

START_TEST(test_declaration_spellings) {
  L1("# coding: latin-1\n");
  L1("# coding=latin-1\n");
  L1("#coding:latin-1\n");
  L1("# -*- coding: latin-1 -*-\n");
  L1("# vim: set fileencoding=latin-1 :\n");
  L1("# coding:\t latin-1\n");
  L1("\t \f# coding: latin-1\n");
  L1("# encoding: latin-1\n");
  L1("# xcoding=latin-1\n");
  L1("# coding: \n# coding: latin-1\n"); /* an empty name: line 2 is looked at */
  L1("# coding: LATIN-1\n");
  L1("# coding: Latin_1\n");
  L1("# coding: latin1\n");
  L1("# coding: L1\n");
  L1("# coding: iso-8859-1\n");
  L1("# coding: ISO_8859-1\n");
  L1("# coding: iso8859_1\n");
  L1("# coding: iso-latin-1\n");
  L1("# coding: iso-latin-1-foo\n");
  L1("# coding: latin-1-unix\n");
  L1("# coding: cp819\n");
  L1("# coding: 8859\n");
  L1("# coding: iso8859.1\n");   /* '.' as '_' when the name itself is no alias */
  L1("# coding: --latin--1--\n"); /* runs of '-' and '_' are one '_', none at the ends */
  L1("# coding: latin-1\n# coding: cp1252\n"); /* the first one */
  L1("# coding: latin-1 then coding: cp1252\n");
  ACCEPT("# coding: windows-1252\nx = '\x80'\n", "cp1252",
         "# coding: windows-1252\nx = '\xe2\x82\xac'\n");
  ACCEPT("# coding: 1251\nx = '\xe9'\n", "cp1251", "# coding: 1251\nx = '\xd0\xb9'\n");
  ACCEPT("# coding: KOI8_R\nx = '\xc1'\n", "koi8-r", "# coding: KOI8_R\nx = '\xd0\xb0'\n");
  ACCEPT("# coding: us-ascii\nx = 1\n", "ascii", "# coding: us-ascii\nx = 1\n");
  ACCEPT("# coding: ANSI_X3.4-1968\n", "ascii", "# coding: ANSI_X3.4-1968\n");
  ACCEPT("# coding: charmap\n\xff", "charmap", "# coding: charmap\n\xc3\xbf");
}
END_TEST

START_TEST(test_declaration_places) {
  L1("#!/usr/bin/env python3\n# coding: latin-1\n");
  L1("\n# coding: latin-1\n");
  L1("  \t\n# coding: latin-1\n");
  L1("#!/x\r\n# coding: latin-1\r\n");
  L1("#!/x\r# coding: latin-1\r");
  ACCEPT("# coding: latin-1", "iso8859-1", "# coding: latin-1");
  /* Not a declaration: after code, on line 3, a space before ':' (then UTF-8, and the byte
   * 0xE9 is an error at its offset). */
  REFUSE("x = 1  # coding: latin-1\nx = '\xe9'\n", 30, "utf-8", NOT_UTF8);
  REFUSE("import os\n# coding: latin-1\nx = '\xe9'\n", 33, "utf-8", NOT_UTF8);
  REFUSE("#!python\n#\n# coding: latin-1\nx = '\xe9'\n", 34, "utf-8", NOT_UTF8);
  REFUSE("# coding : latin-1\nx = '\xe9'\n", 24, "utf-8", NOT_UTF8);
  REFUSE("# coding: coding: latin-1\n", 10, NULL, CANNOT("coding"));
  /* python3 FILE reads line 1 as UTF-8 before it knows line 2's declaration. */
  REFUSE("# \xe9\n# coding: latin-1\n", 2, "iso8859-1",
         "the first line is not valid UTF-8, as Python requires before the declaration of the "
         "encoding latin-1 on line 2");
}
END_TEST

START_TEST(test_bom) {
  REFUSE("\xef\xbb\xbf# coding: latin-1\n", 13, NULL,
         "the file starts with a UTF-8 byte order mark but declares the encoding latin-1");
  REFUSE("\xef\xbb\xbf# coding: utf8\n", 13, NULL,
         "the file starts with a UTF-8 byte order mark but declares the encoding utf8");
  REFUSE("\xef\xbb\xbf#!x\n# coding: foo\n", 17, NULL,
         "the file starts with a UTF-8 byte order mark but declares the encoding foo");
}
END_TEST

/*==============================================================================================
 * MARK: Decoding
 *============================================================================================*/

START_TEST(test_decode_map) {
  static const char s[] = "# coding: cp1252\nx = '\x80\xe9" "a'\n";
  bl_pysrc src = read_src(s, sizeof s - 1);
  ck_assert_ptr_null(src.err);
  /* "\x80" -> U+20AC (3 bytes), "\xe9" -> U+00E9 (2 bytes) */
  ck_assert_uint_eq(src.len, sizeof s - 1 + 2 + 1);
  size_t q = 22; /* the decoded and the original offset of '\x80' */
  for (size_t i = 0; i < q; i++) ck_assert_uint_eq(bl_py_source_offset(&src, i), i);
  for (size_t i = q; i < q + 3; i++) ck_assert_uint_eq(src.map[i], 22);
  for (size_t i = q + 3; i < q + 5; i++) ck_assert_uint_eq(src.map[i], 23);
  ck_assert_uint_eq(src.map[q + 5], 24);  /* 'a' */
  ck_assert_uint_eq(src.map[src.len], sizeof s - 1);
  ck_assert_uint_eq(bl_py_source_offset(&src, src.len), sizeof s - 1);
  bl_py_source_free(&M, &src);
  ck_assert_ptr_null(src.owned);
  bl_py_source_free(&M, &src); /* twice is harmless */
  /* In place: the offsets are the input's. */
  src = read_src("x\n", 2);
  ck_assert_uint_eq(bl_py_source_offset(&src, 1), 1);
  bl_py_source_free(&M, &src);
}
END_TEST

START_TEST(test_undefined_bytes) {
  REFUSE("# coding: cp1252\nx = '\x81'\n", 22, "cp1252",
         "the file declares the encoding cp1252, which has no character for this byte (Python "
         "cannot decode the file)");
  /* compile() decodes the declaration's own line too (python3 FILE reads it raw). */
  REFUSE("# coding: cp1252 \x81\n", 17, "cp1252",
         "the file declares the encoding cp1252, which has no character for this byte (Python "
         "cannot decode the file)");
  REFUSE("# coding: ascii\nx = '\xe9'\n", 21, "ascii",
         "the file declares the encoding ascii, which has no character for this byte (Python "
         "cannot decode the file)");
  REFUSE("# coding: iso8859-3\n\xa5", 20, "iso8859-3",
         "the file declares the encoding iso8859-3, which has no character for this byte "
         "(Python cannot decode the file)");
}
END_TEST

/* Every byte of latin-1 is its code point. */
START_TEST(test_latin1_all_bytes) {
  char s[32 + 256];
  static const char head[] = "# coding: latin-1\n";
  memcpy(s, head, sizeof head - 1);
  for (int b = 0; b < 256; b++) s[sizeof head - 1 + (size_t)b] = (char)b;
  bl_pysrc src = read_src(s, sizeof head - 1 + 256);
  ck_assert_ptr_null(src.err);
  ck_assert_uint_eq(src.len, sizeof head - 1 + 128 + 2 * 128);
  size_t o = sizeof head - 1;
  for (unsigned b = 0; b < 256; b++) {
    uint32_t cp;
    size_t l = boxlint__utf8_decode((const unsigned char *)src.text + o, src.len - o, &cp);
    ck_assert_uint_eq(cp, b);
    ck_assert_uint_eq(src.map[o], sizeof head - 1 + b);
    o += l;
  }
  bl_py_source_free(&M, &src);
}
END_TEST

/*==============================================================================================
 * MARK: Refused encodings
 *============================================================================================*/

START_TEST(test_refused) {
  /* The smuggling: in UTF-7, "+AAo-" is a line break, and CPython runs the call. */
  REFUSE("# -*- coding: utf-7 -*-\n# +AAo-client.code_interpreter.templates.update(\"x\", "
         "commands=[\"FROM attacker/image\"])\n", 14, NULL, CANNOT("utf-7"));
  REFUSE("# coding: utf-16\n", 10, NULL, CANNOT("utf-16"));
  REFUSE("# coding: UTF-32\n", 10, NULL, CANNOT("UTF-32"));
  REFUSE("# coding: shift_jis\n", 10, NULL, CANNOT("shift_jis"));
  REFUSE("# coding: euc-jp\n", 10, NULL, CANNOT("euc-jp"));
  REFUSE("# coding: gbk\n", 10, NULL, CANNOT("gbk"));
  REFUSE("# coding: big5\n", 10, NULL, CANNOT("big5"));
  REFUSE("# coding: hz\n", 10, NULL, CANNOT("hz"));
  REFUSE("# coding: iso2022_jp\n", 10, NULL, CANNOT("iso2022_jp"));
  REFUSE("# coding: unicode_escape\n", 10, NULL, CANNOT("unicode_escape"));
  REFUSE("# coding: raw-unicode-escape\n", 10, NULL, CANNOT("raw-unicode-escape"));
  REFUSE("# coding: punycode\n", 10, NULL, CANNOT("punycode"));
  REFUSE("# coding: rot13\n", 10, NULL, CANNOT("rot13"));
  REFUSE("# coding: idna\n", 10, NULL, CANNOT("idna"));
  REFUSE("# coding: cp037\n", 10, NULL, CANNOT("cp037"));
  REFUSE("# coding: mac-roman\n", 10, NULL, CANNOT("mac-roman")); /* iconv differs */
  REFUSE("# coding: cp864\n", 10, NULL, CANNOT("cp864"));         /* 0x25 is not '%' */
  REFUSE("# coding: foo\n", 10, NULL, CANNOT("foo"));
  REFUSE("# coding: aliases\n", 10, NULL, CANNOT("aliases")); /* a module, no codec */
  REFUSE("# coding: utf8-sig\n", 10, NULL, CANNOT("utf8-sig")); /* no such alias */
  REFUSE("# coding: iso8859.1.x\n", 10, NULL, CANNOT("iso8859.1.x"));
  REFUSE("#!x\n  # coding=gb2312 -*-\n", 15, NULL, CANNOT("gb2312"));
}
END_TEST

START_TEST(test_long_name) {
  char s[200] = "# coding: ";
  size_t n = strlen(s);
  memset(s + n, 'a', 100);
  n += 100;
  s[n++] = '\n';
  bl_pysrc src = read_src(s, n);
  ck_assert_ptr_nonnull(src.err);
  ck_assert_uint_eq(strlen(src.err_detail), sizeof src.err_detail - 1);
  ck_assert_uint_eq(src.err_off, 10);
  char buf[300], small[20];
  size_t l = bl_py_source_message(&src, buf, sizeof buf);
  ck_assert_uint_eq(l, strlen(buf));
  ck_assert_uint_eq(bl_py_source_message(&src, small, sizeof small), l); /* truncated */
  ck_assert_uint_eq(strlen(small), sizeof small - 1);
  bl_py_source_free(&M, &src);
  src = read_src("x\n", 2);
  ck_assert_uint_eq(bl_py_source_message(&src, small, sizeof small), 0);
  ck_assert_str_eq(small, "");
  bl_py_source_free(&M, &src);
}
END_TEST

/* Every codec listed opens in this system's iconv, and names itself as CPython does. */
START_TEST(test_codec_list) {
  const char *name, *ic, *mod;
  size_t i = 0;
  for (; (mod = bl_py_codec(i, &name, &ic)); i++) {
    if (!ic) continue;
    iconv_t cd = iconv_open("UTF-8", ic);
    ck_assert_msg(cd != (iconv_t)-1, "iconv cannot open %s (%s)", ic, mod);
    iconv_close(cd);
    char src[64];
    int l = snprintf(src, sizeof src, "# coding: %s\nx = 1\n", mod);
    bl_pysrc s = read_src(src, (size_t)l);
    ck_assert_ptr_null(s.err);
    ck_assert_str_eq(s.encoding, name);
    bl_py_source_free(&M, &s);
  }
  ck_assert_uint_ge(i, 40);
}
END_TEST

/*==============================================================================================
 * MARK: Identifiers
 *============================================================================================*/

static void ident(const char *s, int valid, size_t bad) {
  size_t off = 99;
  ck_assert_msg(bl_py_ident_valid(s, strlen(s), &off) == valid, "%s", s);
  ck_assert_uint_eq(off, valid ? 0 : bad);
}

START_TEST(test_ident_valid) {
  ident("abc", 1, 0);
  ident("_x1", 1, 0);
  ident("\xc3\xa9t\xc3\xa9", 1, 0);                      /* été */
  ident("\xef\xbd\x95\xef\xbd\x90", 1, 0);               /* fullwidth "up" */
  ident("\xe2\x84\x98", 1, 0);                           /* U+2118, Other_ID_Start */
  ident("a\xc2\xb7", 1, 0);                              /* U+00B7 continues */
  ident("\xc2\xb7" "a", 0, 0);                           /* but does not start */
  ident("1a", 0, 0);
  ident("a$", 0, 1);
  ident("a\xe2\x80\x8b", 0, 1);                          /* U+200B zero width space */
  ident("ab\xf0\x9f\x98\x80", 0, 2);                     /* an emoji */
  ident("a\xff", 0, 1);                                  /* not UTF-8 */
  ident("a\xcc\x81", 1, 0);                              /* a combining mark continues */
  ident("\xcc\x81" "a", 0, 0);
  size_t off = 99;
  ck_assert_int_eq(bl_py_ident_valid("", 0, &off), 0);
  ck_assert_uint_eq(off, 0);
}
END_TEST

static void nfkc(const char *s, const char *want) {
  char *out = (char *)1;
  size_t l = 0;
  ck_assert_int_eq(bl_py_nfkc(&M, s, strlen(s), &out, &l), 0);
  if (!want) {
    ck_assert_ptr_null(out);
    ck_assert_uint_eq(l, strlen(s));
    return;
  }
  ck_assert_ptr_nonnull(out);
  ck_assert_uint_eq(l, strlen(want));
  ck_assert_str_eq(out, want);
  boxlint__free(&M, out);
}

START_TEST(test_nfkc) {
  nfkc("update", NULL);
  nfkc("", NULL);
  nfkc("\xef\xbd\x95\xef\xbd\x90\xef\xbd\x84\xef\xbd\x81\xef\xbd\x94\xef\xbd\x85", "update");
  nfkc("\xef\xac\x81le", "file");                  /* U+FB01 the ligature fi */
  nfkc("\xe2\x84\x8c", "H");                       /* U+210C black-letter H */
  nfkc("\xf0\x9d\x90\xae", "u");                   /* U+1D42E mathematical bold u */
  nfkc("e\xcc\x81", "\xc3\xa9");                   /* composed */
  nfkc("\xc3\xa9", "\xc3\xa9");                    /* non-ASCII, unchanged: still a copy */
}
END_TEST

/*==============================================================================================
 * MARK: Out of memory
 *============================================================================================*/

START_TEST(test_oom) {
  static const char s[] = "# coding: latin-1\nx = '\xe9'\n";
  long n = 0;
  for (;; n++) {
    ck_assert_msg(n < 100, "no success after %ld allocations", n);
    failer f = {.left = n};
    boxlint_alloc a = failer_alloc(&f);
    boxlint__mem m;
    boxlint__mem_init(&m, &a);
    bl_pysrc src;
    int rc = bl_py_source(&m, s, sizeof s - 1, &src);
    bl_py_source_free(&m, &src);
    ck_assert_int_eq(f.live, 0);
    char *out = NULL;
    size_t l;
    int rc2 = bl_py_nfkc(&m, "\xef\xbd\x95", 3, &out, &l);
    if (out) boxlint__free(&m, out);
    ck_assert_int_eq(f.live, 0);
    if (rc == 0 && rc2 == 0) {
      ck_assert_ptr_null(src.err);
      break;
    }
    ck_assert_int_eq(f.failed, 1);
    ck_assert_ptr_null(out);
  }
  ck_assert_int_eq(n, 3); /* the copy, the map, the identifier */
  /* UTF-8 needs no memory at all. */
  failer f = {.left = 0};
  boxlint_alloc a = failer_alloc(&f);
  boxlint__mem m;
  boxlint__mem_init(&m, &a);
  bl_pysrc src;
  ck_assert_int_eq(bl_py_source(&m, "x = 1\n", 6, &src), 0);
  ck_assert_int_eq(f.failed, 0);
  bl_py_source_free(&m, &src);
}
END_TEST

static Suite *encoding_suite(void) {
  Suite *s = suite_create("check_python_encoding");
  TCase *tc = tcase_create("encoding");
  tcase_add_checked_fixture(tc, setup, NULL);
  tcase_add_test(tc, test_utf8_in_place);
  tcase_add_test(tc, test_utf8_invalid);
  tcase_add_test(tc, test_declaration_spellings);
  tcase_add_test(tc, test_declaration_places);
  tcase_add_test(tc, test_bom);
  tcase_add_test(tc, test_decode_map);
  tcase_add_test(tc, test_undefined_bytes);
  tcase_add_test(tc, test_latin1_all_bytes);
  tcase_add_test(tc, test_refused);
  tcase_add_test(tc, test_long_name);
  tcase_add_test(tc, test_codec_list);
  suite_add_tcase(s, tc);
  tc = tcase_create("ident");
  tcase_add_checked_fixture(tc, setup, NULL);
  tcase_add_test(tc, test_ident_valid);
  tcase_add_test(tc, test_nfkc);
  tcase_add_test(tc, test_oom);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(encoding_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The language server's documents (cli/lsp_doc.c), against a reference written here: random
 * UTF-8 texts with 1- to 4-byte characters, LF, CRLF and lone CR line ends, and no final newline
 * or one; every character boundary's position in UTF-8, UTF-16 and UTF-32 computed by decoding,
 * compared with lsp_position, and turned back into the same offset by lsp_offset; a character
 * past its line's end clamped to it; a line past the last refused; and random incremental
 * changes applied with lsp_doc_change, compared with the text spliced by hand. Seeded (printed;
 * BOXLINT_SEED replays one). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jansson.h>
#include "lsp/lsp.h"
#include "random_text.h"

static uint64_t rng;
static uint32_t rnd(uint32_t n) { return rt_next(&rng, n); }

static const char *const PIECES[] = {"a", "b", " ", "\n", "\r\n", "\r", "\xc3\xa9", "\xe2\x82\xac",
                                     "\xf0\x9f\x98\x80", "#", "\xed\x9f\xbf", "\xf4\x8f\xbf\xbf"};

/* A random text of n pieces into b (NUL-terminated); returns its length. */
static size_t random_text(char *b, size_t n) {
  return rt_text(&rng, b, n, PIECES, sizeof PIECES / sizeof *PIECES);
}

/* The same of ASCII pieces and \n only (then the document's positions take no scan). */
static const char *const ASCII_PIECES[] = {"a", "b", " ", "\n", "#"};
static size_t random_ascii(char *b, size_t n) {
  return rt_text(&rng, b, n, ASCII_PIECES, sizeof ASCII_PIECES / sizeof *ASCII_PIECES);
}

static size_t seq(unsigned char c) { return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4; }

/* The reference position of offset `off` (a character boundary, not inside CRLF). */
static void ref_position(const char *t, size_t off, enum lsp_enc enc, int64_t *line, int64_t *ch) {
  int64_t l = 0, c = 0;
  for (size_t i = 0; i < off;) {
    unsigned char x = (unsigned char)t[i];
    if (x == '\r' && t[i + 1] == '\n') {
      l++, c = 0, i += 2;
    } else if (x == '\n' || x == '\r') {
      l++, c = 0, i++;
    } else {
      size_t s = seq(x);
      c += enc == LSP_UTF8 ? (int64_t)s : enc == LSP_UTF32 ? 1 : s == 4 ? 2 : 1;
      i += s;
    }
  }
  *line = l;
  *ch = c;
}

/* Character boundaries of t, without the offset between CR and LF. */
static size_t boundaries(const char *t, size_t n, size_t *out) {
  size_t k = 0;
  for (size_t i = 0; i <= n;) {
    out[k++] = i;
    if (i == n) break;
    i += t[i] == '\r' && t[i + 1] == '\n' ? 2 : seq((unsigned char)t[i]);
  }
  return k;
}

START_TEST(test_lsp_positions_round_trip) {
  static char t[4096];
  static size_t bs[4096];
  for (int round = 0; round < 300; round++) {
    size_t n = random_text(t, (size_t)rnd(200));
    size_t nb = boundaries(t, n, bs);
    for (enum lsp_enc enc = LSP_UTF16; enc <= LSP_UTF32; enc++) {
      int64_t last_line = 0;
      for (size_t k = 0; k < nb; k++) {
        int64_t rl, rc, l, c;
        ref_position(t, bs[k], enc, &rl, &rc);
        lsp_position(t, n, enc, bs[k], &l, &c);
        ck_assert_msg(l == rl && c == rc, "enc %d off %zu: (%lld,%lld), want (%lld,%lld)", enc,
                      bs[k], (long long)l, (long long)c, (long long)rl, (long long)rc);
        size_t off;
        ck_assert_int_eq(lsp_offset(t, n, enc, l, c, &off), 0);
        ck_assert_uint_eq(off, bs[k]);
        ck_assert_int_eq(lsp_offset(t, n, enc, l, c + 1000, &off), 0); /* clamped */
        ck_assert(off >= bs[k] && off <= n);
        last_line = l;
      }
      size_t off;
      ck_assert_int_eq(lsp_offset(t, n, enc, last_line + 1, 0, &off), -1);
      ck_assert_int_eq(lsp_offset(t, n, enc, -1, 0, &off), -1);
    }
  }
}
END_TEST

/* The document's line starts against a scan, and its positions (lsp_positions_begin_doc) and
 * offsets (lsp_doc_offset) against the reference, at every character boundary. */
static void check_doc_positions(const lsp_doc *d, enum lsp_enc enc) {
  static size_t bs[1 << 16];
  ck_assert(d->ls_ok);
  size_t na = 0;
  for (size_t q = 0; q < d->len; q++) na += (unsigned char)d->text[q] >= 0x80 || d->text[q] == '\r';
  ck_assert_uint_eq(d->nonascii, na);
  size_t nl = 1;
  for (size_t q = 1; q <= d->len; q++)
    if (d->text[q - 1] == '\n' || (d->text[q - 1] == '\r' && (q == d->len || d->text[q] != '\n'))) {
      ck_assert_uint_lt(nl, d->nls);
      ck_assert_uint_eq(d->ls[nl], q);
      nl++;
    }
  ck_assert_uint_eq(nl, d->nls);
  size_t nb = boundaries(d->text, d->len, bs);
  lsp_positions_begin_doc(d, enc);
  for (size_t k = 0; k < nb; k++) {
    int64_t rl, rc, l, c;
    ref_position(d->text, bs[k], enc, &rl, &rc);
    lsp_position(d->text, d->len, enc, bs[k], &l, &c);
    ck_assert_msg(l == rl && c == rc, "doc enc %d off %zu: (%lld,%lld), want (%lld,%lld)", enc,
                  bs[k], (long long)l, (long long)c, (long long)rl, (long long)rc);
    size_t off;
    ck_assert_int_eq(lsp_doc_offset(d, enc, l, c, &off), 0);
    ck_assert_uint_eq(off, bs[k]);
  }
  lsp_positions_end();
  size_t off;
  ck_assert_int_eq(lsp_doc_offset(d, enc, (int64_t)d->nls, 0, &off), -1);
}

START_TEST(test_lsp_incremental_changes) {
  static char want[1 << 16], ins[512];
  static size_t bs[1 << 16];
  for (int round = 0; round < 100; round++) {
    lsp_doc d;
    memset(&d, 0, sizeof d);
    int ascii = round % 3 == 0; /* ASCII edits of an ASCII text in a third of the rounds */
    size_t n = ascii ? random_ascii(want, (size_t)rnd(100)) : random_text(want, (size_t)rnd(100));
    ck_assert_int_eq(lsp_doc_set(&d, want, n), 0);
    enum lsp_enc enc = (enum lsp_enc)rnd(3);
    for (int step = 0; step < 40; step++) {
      size_t nb = boundaries(want, n, bs);
      size_t a = bs[rnd((uint32_t)nb)], b = bs[rnd((uint32_t)nb)];
      if (a > b) {
        size_t x = a;
        a = b;
        b = x;
      }
      size_t il = ascii ? random_ascii(ins, (size_t)rnd(6)) : random_text(ins, (size_t)rnd(6));
      json_t *ch = json_pack("{s{so so}s s%}", "range", "start",
                             lsp_pos_json(d.text, d.len, enc, a), "end",
                             lsp_pos_json(d.text, d.len, enc, b), "text", ins, il);
      ck_assert_ptr_nonnull(ch);
      const char *why = NULL;
      ck_assert_msg(lsp_doc_change(&d, enc, ch, &why) == 0, "%s", why ? why : "");
      json_decref(ch);
      memmove(want + a + il, want + b, n - b + 1);
      memcpy(want + a, ins, il);
      n = n - (b - a) + il;
      ck_assert_uint_eq(d.len, n);
      ck_assert(!memcmp(d.text, want, n));
      check_doc_positions(&d, enc);
    }
    /* a change at a line past the end is refused, the text unchanged */
    json_t *bad = json_pack("{s{s{sisi}s{sisi}}ss}", "range", "start", "line", 100000, "character",
                            0, "end", "line", 100000, "character", 0, "text", "x");
    const char *why = NULL;
    ck_assert_int_eq(lsp_doc_change(&d, enc, bad, &why), -1);
    ck_assert_ptr_nonnull(why);
    ck_assert_uint_eq(d.len, n);
    json_decref(bad);
    lsp_doc_text_free(&d);
  }
}
END_TEST

/* Lines far longer than the scan of a line (1024 bytes): the document's scope builds its
 * checkpoints and answers the same. */
START_TEST(test_lsp_long_lines) {
  static char t[1 << 17];
  for (int round = 0; round < 20; round++) {
    size_t n = 0;
    for (int part = 0; part < 4; part++) {
      size_t run = 500 + rnd(3000);
      for (size_t i = 0; i < run; i++) {
        const char *p = rnd(8) ? "a" : rnd(2) ? "\xc3\xa9" : "\xf0\x9f\x98\x80";
        memcpy(t + n, p, strlen(p));
        n += strlen(p);
      }
      n += random_text(t + n, 3);
    }
    t[n] = 0;
    lsp_doc d;
    memset(&d, 0, sizeof d);
    ck_assert_int_eq(lsp_doc_set(&d, t, n), 0);
    check_doc_positions(&d, (enum lsp_enc)rnd(3));
    lsp_doc_text_free(&d);
  }
}
END_TEST

/* lsp_json_parse against json_loadb on messages with long strings (lsp_json.c decodes those):
 * escapes of every kind, surrogate pairs, \u0000, UTF-8 of 2 to 4 bytes, now and then a piece
 * jansson refuses (a lone surrogate, a control character, UTF-8 that is overlong, a surrogate,
 * past U+10FFFF or cut short, a bad escape), several long strings, a long key, a string equal
 * to a marker, a body cut short: the same tree (the same dump), or the same error. */
static const char *const GOOD[] = {"a", "bc d", "\\n", "\\\"", "\\\\", "\\/",
                                   "\\b\\f\\r\\t", "\\u00e9", "\\uD83D\\uDE00", "\\u0000",
                                   "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\\u20AC",
                                   "\xf4\x8f\xbf\xbf", "\\ud7ff"};
static const char *const BAD[] = {"\\uD800", "\\uDC00", "\x01", "\n", "\xc0\x80",
                                  "\xed\xa0\x80", "\xf5\x80\x80\x80", "\xc3", "\\x",
                                  "\\u12G4", "\x80", "\xf4\x90\x80\x80", "\xe0\x80\x80",
                                  "\\uD83D\\u0041", "\x7f", "\\uD83Dx"};

static size_t long_literal(char *b, size_t at) {
  size_t w = at, want = 4000 + rnd(300);
  b[w++] = '"';
  size_t bad = rnd(4) ? SIZE_MAX : at + rnd((uint32_t)want);
  while (w - at < want) {
    const char *p = w >= bad ? BAD[rnd(sizeof BAD / sizeof *BAD)] : GOOD[rnd(sizeof GOOD / sizeof *GOOD)];
    if (w >= bad) bad = SIZE_MAX;
    memcpy(b + w, p, strlen(p));
    w += strlen(p);
  }
  b[w++] = '"';
  return w - at;
}

START_TEST(test_lsp_json_parse) {
  static char b[1 << 17];
  for (int round = 0; round < 400; round++) {
    size_t w = 0;
    int nlong = rnd(10) ? 1 + (int)rnd(3) : 9;
    w += (size_t)sprintf(b + w, "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{");
    for (int k = 0; k < nlong; k++) {
      if (k && rnd(5) == 0) { /* a long key */
        w += long_literal(b, w);
        w += (size_t)sprintf(b + w, ":%d,", k);
      }
      w += (size_t)sprintf(b + w, k % 2 ? "\"a%d\":[1,{\"x\":" : "\"t%d\":", k);
      w += long_literal(b, w);
      w += (size_t)sprintf(b + w, k % 2 ? "}]," : ",");
    }
    if (rnd(8) == 0) w += (size_t)sprintf(b + w, "\"m\":\"\\u0000lsp-long-%d\",", (int)rnd(3));
    w += (size_t)sprintf(b + w, "\"v\":%d}}", round);
    if (rnd(10) == 0) w = rnd((uint32_t)w); /* cut short */
    json_error_t e1, e2;
    memset(&e1, 0, sizeof e1);
    memset(&e2, 0, sizeof e2);
    json_t *a = lsp_json_parse(b, w, &e1), *r = json_loadb(b, w, JSON_ALLOW_NUL, &e2);
    ck_assert_msg(!a == !r, "round %d: parsed %d, jansson %d (%s)", round, !!a, !!r, e2.text);
    if (!a) {
      ck_assert_str_eq(e1.text, e2.text);
      ck_assert_int_eq(e1.position, e2.position);
      continue;
    }
    char *da = json_dumps(a, JSON_COMPACT), *dr = json_dumps(r, JSON_COMPACT);
    ck_assert_ptr_nonnull(da);
    ck_assert_ptr_nonnull(dr);
    ck_assert_msg(!strcmp(da, dr), "round %d: the trees differ", round);
    free(da);
    free(dr);
    json_decref(a);
    json_decref(r);
  }
}
END_TEST

START_TEST(test_lsp_uris) {
  char *p = lsp_uri_path("file:///tmp/a%20b/t%C3%A9.py");
  ck_assert_str_eq(p, "/tmp/a b/t\xc3\xa9.py");
  char *u = lsp_path_uri(p);
  ck_assert_str_eq(u, "file:///tmp/a%20b/t%C3%A9.py");
  free(p);
  free(u);
  ck_assert_ptr_null(lsp_uri_path("untitled:Untitled-1"));
  ck_assert_ptr_null(lsp_uri_path("file://otherhost/x"));
  p = lsp_uri_path("file://localhost/x/y.json");
  ck_assert_str_eq(p, "/x/y.json");
  free(p);
}
END_TEST

int main(void) {
  const char *s = getenv("BOXLINT_SEED");
  rng = s ? strtoull(s, NULL, 10) : (uint64_t)time(NULL) * 2654435761u + 1;
  printf("check_lsp_doc: seed %llu (BOXLINT_SEED replays it)\n", (unsigned long long)rng);
  Suite *suite = suite_create("check_lsp_doc");
  TCase *tc = tcase_create("lsp_doc");
  tcase_add_test(tc, test_lsp_positions_round_trip);
  tcase_add_test(tc, test_lsp_incremental_changes);
  tcase_add_test(tc, test_lsp_long_lines);
  tcase_add_test(tc, test_lsp_json_parse);
  tcase_add_test(tc, test_lsp_uris);
  suite_add_tcase(suite, tc);
  SRunner *sr = srunner_create(suite);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

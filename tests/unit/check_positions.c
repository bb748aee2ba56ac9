/* The position indexes of issue 23 against the plain scans they replace, at every offset of
 * random texts: cli/jsonpos.c's jp_index (line and column, the line's start, array elements,
 * object members, paths) and cli/lsp_doc.c's scope (lsp_position in UTF-8, UTF-16 and UTF-32,
 * inside lsp_positions_begin/_end and outside). The plain scans are the reference (their own
 * tests hold them to decoding: check_lsp_doc, the cli tests); here each index must give the
 * same answer everywhere, including offsets inside a character, past the end and on every
 * block boundary. Seeded (printed; BOXLINT_SEED replays one). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "input/input.h"
#include "lsp/lsp.h"
#include "random_text.h"

static uint64_t rng;
static uint32_t rnd(uint32_t n) { return rt_next(&rng, n); }

static const char *const PIECES[] = {"a", "b", " ", "\n", "\r\n", "\r", "\xc3\xa9", "\xe2\x82\xac",
                                     "\xf0\x9f\x98\x80", "\"", "\n\n", "\xf4\x8f\xbf\xbf"};

/* A random text of n pieces into b (NUL-terminated); returns its length. */
static size_t random_text(char *b, size_t n) {
  return rt_text(&rng, b, n, PIECES, sizeof PIECES / sizeof *PIECES);
}

/* ASCII without \r: lsp_positions_begin's checkpoints from the line breaks alone */
static const char *const ASCII_PIECES[] = {"a", "b", " ", "\n", "\"", "\n\n", "abcdefghij",
                                           "0123456789abcdefghijklmnopqrstuvwxyz"};

static size_t random_ascii(char *b, size_t n) {
  return rt_text(&rng, b, n, ASCII_PIECES, sizeof ASCII_PIECES / sizeof *ASCII_PIECES);
}

typedef struct jb {
  char *p;
  size_t n;
} jb;

static void put(jb *b, const char *s) {
  size_t l = strlen(s);
  memcpy(b->p + b->n, s, l);
  b->n += l;
  b->p[b->n] = 0;
}

static const char *const keys[] = {"a", "b", "ab", "allow_out", "type", "k\\u0041", "\xc3\xa9", "c"};
enum { NKEYS = sizeof keys / sizeof *keys };

static void ws(jb *b) {
  static const char *const w[] = {"", " ", "\n", "\r\n  ", "\t", ""};
  put(b, w[rnd(6)]);
}

/* A random JSON value (depth-limited): strings with escapes and UTF-8, numbers, nested arrays
 * and objects whose keys repeat (jp_member takes the first). */
static void value(jb *b, int depth) {
  uint32_t k = depth > 2 ? rnd(3) : rnd(6);
  if (k == 0) {
    put(b, "\"x\\\"\\u00e9\xe2\x82\xac\\\\y\"");
  } else if (k == 1) {
    put(b, rnd(2) ? "-12.5e3" : "true");
  } else if (k == 2) {
    put(b, "\"s\"");
  } else if (k == 3 || k == 4) {
    size_t m = depth ? rnd(6) : rnd(150); /* the top one past many 64-byte blocks */
    put(b, "[");
    for (size_t i = 0; i < m; i++) {
      ws(b);
      value(b, depth + 1);
      ws(b);
      if (i + 1 < m) put(b, ",");
    }
    put(b, "]");
  } else {
    size_t m = depth ? rnd(6) : rnd(40);
    put(b, "{");
    for (size_t i = 0; i < m; i++) {
      ws(b);
      put(b, "\"");
      put(b, keys[rnd(NKEYS)]);
      put(b, "\"");
      ws(b);
      put(b, ":");
      ws(b);
      value(b, depth + 1);
      if (i + 1 < m) put(b, ",");
    }
    put(b, "}");
  }
}

START_TEST(jp_lines_every_offset) {
  char *t = malloc(8 * 4096 + 1);
  for (int round = 0; round < 200; round++) {
    size_t n = random_text(t, rnd(round < 100 ? 300 : 4096));
    jp_index *ix = jp_index_new(t, n);
    ck_assert_ptr_nonnull(ix);
    uint32_t l0 = 1, c0 = 1; /* jp_line_col's answer, carried from one offset to the next */
    for (size_t off = 0; off <= n + 2; off++) {
      uint32_t l1, c1;
      if (off % 61 == 0 || n < 600) {
        jp_line_col(t, n, off, &l0, &c0);
      } else if (off <= n) {
        if (t[off - 1] == '\n') l0++, c0 = 1;
        else if (((unsigned char)t[off - 1] & 0xC0) != 0x80) c0++;
      }
      jp_ix_line_col(ix, t, n, off, &l1, &c1);
      ck_assert_msg(l0 == l1 && c0 == c1, "offset %zu of %zu: %u:%u, index %u:%u", off, n, l0,
                    c0, l1, c1);
      size_t s0 = jp_ix_line_start(NULL, t, n, off), s1 = jp_ix_line_start(ix, t, n, off);
      ck_assert_msg(s0 == s1, "line start of offset %zu: %zu, index %zu", off, s0, s1);
      size_t o = off > n ? n : off;
      ck_assert(s0 <= o && (s0 == 0 || t[s0 - 1] == '\n') && !memchr(t + s0, '\n', o - s0));
    }
    jp_index_free(ix);
  }
  free(t);
}
END_TEST

/* Every container of the text (found by a scan outside strings): elements 0..count+1, every key,
 * and random paths from it, with the index and without. */
static void compare_containers(jp_index *ix, const char *s, size_t n) {
  int in_str = 0;
  for (size_t i = 0; i < n; i++) {
    if (in_str) {
      if (s[i] == '\\') i++;
      else if (s[i] == '"') in_str = 0;
      continue;
    }
    if (s[i] == '"') in_str = 1;
    if (s[i] == '[') {
      size_t count = jp_ix_count(ix, s, n, i);
      for (size_t k = 0; k < count + 2; k++)
        ck_assert_uint_eq(jp_ix_element(ix, s, n, i, k), jp_element(s, n, i, k));
      ck_assert_uint_eq(jp_element(s, n, i, count), SIZE_MAX);
      ck_assert_uint_eq(jp_ix_count(NULL, s, n, i), count);
    }
    if (s[i] == '{')
      for (size_t k = 0; k < NKEYS; k++) {
        size_t ko0 = 0, ko1 = 0;
        ck_assert_uint_eq(jp_ix_member(ix, s, n, i, keys[k], &ko1),
                          jp_member(s, n, i, keys[k], &ko0));
        ck_assert_uint_eq(ko0, ko1);
      }
    if (s[i] == '[' || s[i] == '{') {
      char path[64] = "";
      for (int c = 0; c < 3; c++) {
        size_t l = strlen(path);
        if (rnd(2)) snprintf(path + l, sizeof path - l, "[%u]", rnd(8));
        else snprintf(path + l, sizeof path - l, ".%s", keys[rnd(NKEYS)]);
        ck_assert_uint_eq(jp_ix_path_at(ix, s, n, i, path), jp_path_at(s, n, i, path));
      }
    }
  }
}

START_TEST(jp_containers_every_value) {
  jb b = {malloc(1 << 24), 0};
  for (int round = 0; round < 300; round++) {
    b.n = 0;
    ws(&b);
    value(&b, 0);
    ws(&b);
    jp_index *ix = jp_index_new(b.p, b.n);
    ck_assert_ptr_nonnull(ix);
    compare_containers(ix, b.p, b.n);
    ck_assert_uint_eq(jp_ix_path_at(ix, b.p, b.n, 0, ""), jp_path(b.p, b.n, ""));
    jp_index_free(ix);
  }
  free(b.p);
}
END_TEST

/* jp_string_resume, asked in increasing order (with repeats) from one cursor, answers as
 * jp_string_offset from the literal's start, through escapes of every length. */
START_TEST(jp_string_resume_in_order) {
  static const char *const parts[] = {"a", "\xc3\xa9", "\\n", "\\\"", "\\u00e9", "\\u20ac",
                                      "\\ud83d\\ude00", "\\u0041", "\xf0\x9f\x98\x80"};
  char t[8192];
  for (int round = 0; round < 300; round++) {
    size_t n = 0;
    t[n++] = '"';
    for (uint32_t k = rnd(600); k > 0; k--) {
      const char *p = parts[rnd(sizeof parts / sizeof *parts)];
      memcpy(t + n, p, strlen(p));
      n += strlen(p);
    }
    t[n++] = '"';
    size_t at = 1, dec = 0;
    for (size_t d = 0; d < 4 * n; d += rnd(3)) {
      size_t want = jp_string_offset(t, n, 0, d), got = jp_string_resume(t, n, &at, &dec, d);
      ck_assert_msg(want == got, "decoded byte %zu: %zu, resumed %zu", d, want, got);
      if (want == n - 1) break;
    }
  }
}
END_TEST

START_TEST(lsp_scope_every_offset) {
  char *t = malloc(8 * 4096 + 1);
  for (int round = 0; round < 120; round++) {
    size_t n = round < 80 ? random_text(t, rnd(round < 50 ? 300 : 1500))
                          : random_ascii(t, rnd(round < 100 ? 300 : 800));
    for (int e = 0; e < 3; e++) {
      enum lsp_enc enc = e == 0 ? LSP_UTF16 : e == 1 ? LSP_UTF8 : LSP_UTF32;
      size_t m = n + 2;
      int64_t *ref = malloc(2 * m * sizeof *ref);
      for (size_t off = 0; off < m; off++) lsp_position(t, n, enc, off, &ref[2 * off], &ref[2 * off + 1]);
      lsp_positions_begin(t, n, enc);
      for (size_t k = 0; k < m; k++) {
        size_t off = k % 3 == 0 ? m - 1 - k : k; /* in and out of order */
        int64_t l, c;
        lsp_position(t, n, enc, off, &l, &c);
        ck_assert_msg(l == ref[2 * off] && c == ref[2 * off + 1],
                      "enc %d offset %zu of %zu: %lld:%lld, scope %lld:%lld", e, off, n,
                      (long long)ref[2 * off], (long long)ref[2 * off + 1], (long long)l,
                      (long long)c);
      }
      /* another text of the same length is not answered from the scope's checkpoints */
      char *u = malloc(n + 1);
      memset(u, 'x', n);
      u[n] = 0;
      int64_t l, c;
      lsp_position(u, n, enc, n, &l, &c);
      ck_assert(l == 0 && c == (int64_t)n);
      free(u);
      lsp_positions_end();
      free(ref);
    }
  }
  free(t);
}
END_TEST

int main(void) {
  const char *env = getenv("BOXLINT_SEED");
  rng = env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL);
  if (!rng) rng = 1;
  printf("check_positions: BOXLINT_SEED=%llu\n", (unsigned long long)rng);
  Suite *s = suite_create("positions");
  TCase *tc = tcase_create("index");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, jp_lines_every_offset);
  tcase_add_test(tc, jp_containers_every_value);
  tcase_add_test(tc, jp_string_resume_in_order);
  tcase_add_test(tc, lsp_scope_every_offset);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

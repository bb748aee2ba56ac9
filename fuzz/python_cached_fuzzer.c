/* python_cached: boxlint_check_python_cached against boxlint_check_python, on a text and the
 * texts a few edits make of it, one cache throughout.
 *
 * Input: byte 0 = option bits (bit 0: with a config), then the text, then up to 8 edits, each
 * after a 0xFF byte: two bytes of position (little-endian, modulo the text's length + 1), one
 * byte whose low 3 bits are how many bytes to delete there, then the bytes to insert.
 *
 * Oracle: after the text and after each edit, the cached check gives the same status and the
 * same diagnostics (rule, severity, command, path, positions, message, hint, detail, fix), in
 * the same order, as a whole check of the same text. */
#include "fuzz_util.h"
#include "diag_same.h"


static void compare(const boxlint_report *a, const boxlint_report *b) {
  size_t n = boxlint_report_diag_count(a);
  if (n != boxlint_report_diag_count(b)) {
    fprintf(stderr, "%zu findings, cached %zu\n", n, boxlint_report_diag_count(b));
    fz_fail("the cached check has other findings");
  }
  for (size_t i = 0; i < n; i++) {
    const boxlint_diag *x = boxlint_report_diag(a, i), *y = boxlint_report_diag(b, i);
    int ok = diag_same(x, y);
    if (!ok) {
      fprintf(stderr, "finding %zu: %s %zu-%zu '%s' / cached %s %zu-%zu '%s'\n", i, x->rule,
              x->offset, x->end_offset, x->message, y->rule, y->offset, y->end_offset,
              y->message);
      fz_fail("a finding of the cached check differs");
    }
  }
}

/* Check t[0..n) both ways; the text is copied to a buffer of its exact size. */
static void both(boxlint_python_cache *c, boxlint_report *a, boxlint_report *b, const char *t,
                 size_t n, const boxlint_options *o) {
  char *copy = malloc(n ? n : 1);
  if (!copy) return;
  if (n) memcpy(copy, t, n);
  boxlint_report_clear(a);
  boxlint_report_clear(b);
  boxlint_status x = boxlint_check_python(a, copy, n, o, NULL);
  boxlint_status y = boxlint_check_python_cached(c, b, copy, n, o, NULL);
  free(copy);
  if (x == BOXLINT_ENOMEM || y == BOXLINT_ENOMEM) return;
  if (x != y) {
    fprintf(stderr, "status %d, cached %d\n", (int)x, (int)y);
    fz_fail("the cached check has another status");
  }
  compare(a, b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 65536) return 0;
  boxlint_span part[9];
  size_t np = fz_cut(data + 1, size - 1, FZ_SEP, part, 9);
  boxlint_config *cfg = NULL;
  boxlint_options o;
  boxlint_options_init(&o);
  if ((data[0] & 1) && boxlint_config_new(&cfg, NULL) == BOXLINT_OK) o.config = cfg;
  boxlint_report *a = NULL, *b = NULL;
  boxlint_python_cache *c = NULL;
  char *t = malloc(size + 1);
  size_t n = part[0].len;
  if (t && boxlint_report_new(&a, NULL) == BOXLINT_OK &&
      boxlint_report_new(&b, NULL) == BOXLINT_OK &&
      boxlint_python_cache_new(&c, NULL) == BOXLINT_OK) {
    memcpy(t, part[0].ptr, n);
    both(c, a, b, t, n, &o);
    for (size_t e = 1; e < np; e++) {
      const uint8_t *p = (const uint8_t *)part[e].ptr;
      if (part[e].len < 3) continue;
      size_t at = ((size_t)p[0] | (size_t)p[1] << 8) % (n + 1), del = p[2] & 7u;
      if (del > n - at) del = n - at;
      size_t ins = part[e].len - 3;
      memmove(t + at + ins, t + at + del, n - at - del); /* room: size + 1 >= every text */
      memcpy(t + at, p + 3, ins);
      n = n - del + ins;
      both(c, a, b, t, n, &o);
    }
  }
  boxlint_python_cache_free(c);
  boxlint_report_free(a);
  boxlint_report_free(b);
  boxlint_config_free(cfg);
  free(t);
  return 0;
}

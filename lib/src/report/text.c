/* Text measures shared by every folder: the edit distance behind the "did you mean" hints
 * (keywords, flags, field names) and the public boxlint_nearest_word (internal.h). */
#include <stdint.h>
#include <string.h>
#include "report/internal.h"

/* The unit at a[*i] (a < end), advancing *i: a byte, or a code point (a byte that is not valid
 * UTF-8 is one unit, U+FFFD); ASCII letters lower-cased when folding. */
static inline uint32_t next_unit(const unsigned char *a, size_t n, size_t *i, unsigned mode) {
  uint32_t u = a[*i];
  size_t w = 1;
  if ((mode & BL_EDIT_RUNES) && u >= 0x80) {
    w = boxlint__utf8_decode(a + *i, n - *i, &u);
    if (!w) {
      u = 0xFFFD;
      w = 1;
    }
  }
  *i += w;
  return (mode & BL_EDIT_FOLD) && u < 0x80 ? boxlint__lower((unsigned char)u) : u;
}

static int all_ascii(const unsigned char *p, size_t n) {
  unsigned char hi = 0;
  for (size_t i = 0; i < n; i++) hi |= p[i];
  return hi < 0x80;
}

/* The distance of two ASCII strings of at most BL_EDIT_MAX bytes, their lengths at most
 * limit - 1 apart: bytes are units, folded up front when `fold`. */
static size_t ascii_distance(const unsigned char *pa, size_t an, const unsigned char *pb,
                             size_t bn, int fold, size_t limit) {
  unsigned char ub[BL_EDIT_MAX];
  size_t row[BL_EDIT_MAX + 1];
  for (size_t j = 0; j < bn; j++) ub[j] = fold ? boxlint__lower(pb[j]) : pb[j];
  for (size_t j = 0; j <= bn; j++) row[j] = j;
  for (size_t r = 1; r <= an; r++) {
    unsigned char ua = fold ? boxlint__lower(pa[r - 1]) : pa[r - 1];
    size_t prev = row[0], low = r;
    row[0] = r;
    for (size_t j = 1; j <= bn; j++) {
      size_t cur = row[j];
      size_t sub = prev + (ua != ub[j - 1]);
      size_t del = cur + 1, ins = row[j - 1] + 1;
      size_t v = sub < del ? sub : del;
      v = v < ins ? v : ins;
      row[j] = v;
      low = v < low ? v : low;
      prev = cur;
    }
    if (low >= limit) return limit; /* no later row can get under the limit */
  }
  return row[bn] < limit ? row[bn] : limit;
}

size_t boxlint__edit_distance(const char *a, size_t an, const char *b, size_t bn, unsigned mode,
                              size_t limit) {
  const unsigned char *pa = (const unsigned char *)a, *pb = (const unsigned char *)b;
  /* ASCII on both sides (keywords, flags, field names against what was written, mostly):
   * bytes are units whatever the mode, so nothing is decoded. */
  if (bn <= BL_EDIT_MAX && all_ascii(pa, an) && all_ascii(pb, bn)) {
    if ((an > bn ? an - bn : bn - an) >= limit) return limit;
    if (an <= BL_EDIT_MAX) return ascii_distance(pa, an, pb, bn, (mode & BL_EDIT_FOLD) != 0, limit);
    mode &= ~(unsigned)BL_EDIT_RUNES;
  }
  uint32_t ub[BL_EDIT_MAX];
  size_t row[BL_EDIT_MAX + 1], nb = 0, na = 0;
  for (size_t i = 0; i < bn;) {
    if (nb == BL_EDIT_MAX) return limit;
    ub[nb++] = next_unit(pb, bn, &i, mode);
  }
  for (size_t i = 0; i < an; na++) (void)next_unit(pa, an, &i, mode);
  /* The distance is at least the difference of the lengths. */
  if ((na > nb ? na - nb : nb - na) >= limit) return limit;
  for (size_t j = 0; j <= nb; j++) row[j] = j;
  size_t i = 0;
  for (size_t r = 1; r <= na; r++) {
    uint32_t ua = next_unit(pa, an, &i, mode);
    size_t prev = row[0], low = r;
    row[0] = r;
    for (size_t j = 1; j <= nb; j++) {
      size_t cur = row[j];
      size_t sub = prev + (ua != ub[j - 1]);
      size_t del = row[j] + 1, ins = row[j - 1] + 1;
      row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
      if (row[j] < low) low = row[j];
      prev = cur;
    }
    if (low >= limit) return limit; /* no later row can get under the limit */
  }
  return row[nb] < limit ? row[nb] : limit;
}

size_t boxlint_nearest_word(const char *text, size_t len, const char *const *words, size_t n,
                            size_t *distance) {
  size_t best = n, best_d = SIZE_MAX;
  if (!text) len = 0;
  for (size_t k = 0; words && k < n; k++) {
    if (!words[k]) continue;
    size_t wl = strlen(words[k]);
    if (wl > BL_EDIT_MAX) continue;
    size_t d = boxlint__edit_distance(text ? text : "", len, words[k], wl, BL_EDIT_FOLD, best_d);
    if (d < best_d) {
      best_d = d;
      best = k;
    }
  }
  if (distance) *distance = best_d;
  return best;
}

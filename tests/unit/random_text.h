/* Random texts for the property tests of positions (check_lsp_doc.c, check_positions.c): a
 * seeded xorshift generator the file keeps, and texts made of pieces the test chooses (line ends
 * of every kind, 1- to 4-byte characters). */
#ifndef RANDOM_TEXT_H
#define RANDOM_TEXT_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A number in [0, n) from the generator state *s (never 0). */
static uint32_t rt_next(uint64_t *s, uint32_t n) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (uint32_t)(*s % n);
}

/* n pieces drawn from pieces[0..np) into b (NUL-terminated); returns the text's length. */
static size_t rt_text(uint64_t *s, char *b, size_t n, const char *const *pieces, size_t np) {
  size_t w = 0;
  for (size_t i = 0; i < n; i++) {
    const char *p = pieces[rt_next(s, (uint32_t)np)];
    size_t l = strlen(p);
    memcpy(b + w, p, l);
    w += l;
  }
  b[w] = 0;
  return w;
}

#endif

/*
 * dockerfile/: the byte scans of a command that need no re2c automaton, sixteen bytes at a time
 * with SSE2: the common case of the byte check with the line feeds found in the same pass (a bit
 * map that the reader's bl_line_end reads), and the printable-ASCII prefix. The automaton-driven
 * lexing is in lexer.re; both are declared in dockerfile_int.h. It may call report/ only.
 */
#include <stddef.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "dockerfile/dockerfile_int.h"

#if defined(__SSE2__)
/* The line feeds of 16 bytes (a bit per byte); the bytes outside printable ASCII, TAB and LF
 * are or-ed into *bad. */
static inline unsigned lf16(__m128i x, __m128i *bad) {
  const __m128i one = _mm_set1_epi8(1), lo = _mm_set1_epi8(0x21), tab = _mm_set1_epi8('\t'),
                lf = _mm_set1_epi8('\n');
  __m128i l = _mm_cmpeq_epi8(x, lf);
  *bad = _mm_or_si128(*bad, _mm_andnot_si128(_mm_or_si128(_mm_cmpeq_epi8(x, tab), l),
                                             _mm_cmplt_epi8(_mm_add_epi8(x, one), lo)));
  return (unsigned)_mm_movemask_epi8(l);
}
#define BL_LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#endif

/* The bit map's words, in the context's buffer (kept warm by the caller), or NULL. */
static uint64_t *lf_words(bl_ctx *cx, size_t n) {
  if (n > cx->caplfm) {
    size_t cap = n < 64 ? 64 : n * 2;
    uint64_t *m = boxlint__realloc(cx->m, cx->lfbuf, cx->caplfm * sizeof *m, cap * sizeof *m);
    if (!m) { /* never swallowed: the check answers out of memory */
      cx->oom = 1;
      cx->r->oom = 1;
      return NULL;
    }
    cx->lfbuf = m;
    cx->caplfm = cap;
  }
  return cx->lfbuf;
}

int bl_lex_clean_lines(bl_ctx *cx) {
  const unsigned char *p = cx->buf;
  size_t len = cx->len, k = 0;
  uint64_t *m = lf_words(cx, len / 64 + 1);
  cx->lfm = NULL;
  if (!m) return 0; /* out of memory (reported): the slow way, for what it finds */
#if defined(__SSE2__)
  __m128i bad = _mm_setzero_si128();
  for (; len - k >= 64; k += 64) {
    uint64_t a = lf16(BL_LD(p + k), &bad), b = lf16(BL_LD(p + k + 16), &bad),
             c = lf16(BL_LD(p + k + 32), &bad), d = lf16(BL_LD(p + k + 48), &bad);
    m[k / 64] = a | b << 16 | c << 32 | d << 48;
  }
  uint64_t last = 0; /* the last word, from up to three 16-byte blocks and the tail */
  size_t k0 = k;
  for (; len - k >= 16; k += 16) last |= (uint64_t)lf16(BL_LD(p + k), &bad) << (k - k0);
  if (k < len && len >= 16) { /* the last 1-15 bytes: a load that ends at the input's end */
    unsigned l = lf16(BL_LD(p + len - 16), &bad) >> (16 - (len - k));
    last |= (uint64_t)l << (k - k0);
    k = len;
  }
  m[k0 / 64] = last;
  if (_mm_movemask_epi8(bad)) return 0;
#else
  m[0] = 0;
#endif
  for (; k < len; k++) { /* a short input (or no SSE2) */
    unsigned char ch = p[k];
    if (k % 64 == 0) m[k / 64] = 0;
    if (ch == '\n') m[k / 64] |= 1ull << (k & 63);
    else if ((ch < 0x20 && ch != '\t') || ch > 0x7E) return 0;
  }
  cx->lfm = m;
  return 1;
}

size_t bl_lex_printable(const unsigned char *p, size_t n, unsigned char except) {
  size_t i = 0;
#if defined(__SSE2__)
  /* As signed bytes, everything below 0x20 and every byte from 0x80 compares less than 0x20. */
  const __m128i sp = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7F),
                ex = _mm_set1_epi8((char)except);
  for (; n - i >= 16; i += 16) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
    __m128i bad = _mm_or_si128(_mm_cmplt_epi8(x, sp),
                               _mm_or_si128(_mm_cmpeq_epi8(x, del), _mm_cmpeq_epi8(x, ex)));
    int m = _mm_movemask_epi8(bad);
    if (m) return i + (size_t)__builtin_ctz((unsigned)m);
  }
  if (i < n && n >= 16) { /* the last bytes: a load that ends at p + n */
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + n - 16));
    __m128i bad = _mm_or_si128(_mm_cmplt_epi8(x, sp),
                               _mm_or_si128(_mm_cmpeq_epi8(x, del), _mm_cmpeq_epi8(x, ex)));
    unsigned m = (unsigned)_mm_movemask_epi8(bad) >> (16 - (n - i));
    return m ? i + (size_t)__builtin_ctz(m) : n;
  }
#endif
  while (i < n && p[i] >= 0x20 && p[i] < 0x7F && p[i] != except) i++;
  return i;
}

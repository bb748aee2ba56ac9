/*
 * dockerfile/: the byte scans of a command that need no re2c automaton, sixteen bytes at a time
 * with SSE2: the common case of the byte check, which in the same sweep finds the line feeds (a
 * bit map that the reader's bl_line_end reads), tells whether a '<' occurs, and copies the
 * command into the report, where the reader cuts the logical line from the copy instead of
 * copying it again; and the printable-ASCII prefix. The automaton-driven lexing is in
 * lexer.re; both are declared in dockerfile_int.h. It may call report/ only.
 */
#include <stddef.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "dockerfile/dockerfile_int.h"

#if defined(__SSE2__)
/* The line feeds of the 16 bytes at p (a bit per byte), which are stored at o; the bytes
 * outside printable ASCII, TAB and LF are or-ed into *bad, the '<' into *lt. */
static inline unsigned lf16(const unsigned char *p, char *o, __m128i *bad, __m128i *lt) {
  const __m128i one = _mm_set1_epi8(1), lo = _mm_set1_epi8(0x21), tab = _mm_set1_epi8('\t'),
                lf = _mm_set1_epi8('\n'), lts = _mm_set1_epi8('<');
  __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
  _mm_storeu_si128((__m128i *)(void *)o, x);
  __m128i l = _mm_cmpeq_epi8(x, lf);
  *bad = _mm_or_si128(*bad, _mm_andnot_si128(_mm_or_si128(_mm_cmpeq_epi8(x, tab), l),
                                             _mm_cmplt_epi8(_mm_add_epi8(x, one), lo)));
  *lt = _mm_or_si128(*lt, _mm_cmpeq_epi8(x, lts));
  return (unsigned)_mm_movemask_epi8(l);
}
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
  cx->copy = NULL;
  cx->no_lt = 0;
  if (!m) return 0; /* out of memory (reported): the slow way, for what it finds */
  /* The copy: len + 1 bytes, so that the logical line cut from it can end with a NUL. */
  char *o = cx->scratch_logical ? boxlint__rtmp(cx->r, len + 1) : boxlint__ralloc(cx->r, len + 1);
  if (!o) { /* never swallowed: the check answers out of memory */
    cx->oom = 1;
    return 0;
  }
  unsigned lt_any = 0;
#if defined(__SSE2__)
  __m128i bad = _mm_setzero_si128(), lt = _mm_setzero_si128();
  for (; len - k >= 64; k += 64) {
    uint64_t a = lf16(p + k, o + k, &bad, &lt), b = lf16(p + k + 16, o + k + 16, &bad, &lt),
             c = lf16(p + k + 32, o + k + 32, &bad, &lt),
             d = lf16(p + k + 48, o + k + 48, &bad, &lt);
    m[k / 64] = a | b << 16 | c << 32 | d << 48;
  }
  uint64_t last = 0; /* the last word, from up to three 16-byte blocks and the tail */
  size_t k0 = k;
  for (; len - k >= 16; k += 16) last |= (uint64_t)lf16(p + k, o + k, &bad, &lt) << (k - k0);
  if (k < len && len >= 16) { /* the last 1-15 bytes: a load (and store) that ends at the end */
    unsigned l = lf16(p + len - 16, o + len - 16, &bad, &lt) >> (16 - (len - k));
    last |= (uint64_t)l << (k - k0);
    k = len;
  }
  m[k0 / 64] = last;
  if (_mm_movemask_epi8(bad)) return 0;
  lt_any = (unsigned)_mm_movemask_epi8(lt);
#else
  m[0] = 0;
#endif
  for (; k < len; k++) { /* a short input (or no SSE2) */
    unsigned char ch = p[k];
    o[k] = (char)ch;
    lt_any |= ch == '<';
    if (k % 64 == 0) m[k / 64] = 0;
    if (ch == '\n') m[k / 64] |= 1ull << (k & 63);
    else if ((ch < 0x20 && ch != '\t') || ch > 0x7E) return 0;
  }
  cx->lfm = m;
  cx->copy = o;
  cx->no_lt = lt_any == 0;
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

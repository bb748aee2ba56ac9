/* A test-only door into lib/src/python/encoding.c and ident.c for
 * tests/oracle/python_encoding_test.py, which compares what it prints with CPython 3.11.
 *
 *   pyenc_probe [FILE...]   each FILE (or, with none, each path named on a line of standard
 *                           input) read with bl_py_source:
 *                             F PATH
 *                             V OK CODEC            accepted, CODEC the codec's name
 *                             V ERR OFF CODEC MSG   refused at byte OFF (CODEC "-": none)
 *                             H HEX                 OK: the UTF-8 text (empty: nothing)
 *                             M BAD                 OK: the offset map is not consistent
 *   pyenc_probe -l          the codecs read: C MODULE NAME ICONV ("-": read in place)
 *   pyenc_probe -i          bl_py_ident_valid over U+0080..U+10FFFF (no surrogates): the
 *                           ranges of valid start (S FIRST LAST) and continue characters
 *                           (C FIRST LAST), hex, inclusive
 *   pyenc_probe -n          bl_py_nfkc of each code point U+0080..U+10FFFF (no surrogates)
 *                           that it changes: N CP HEX
 * Exit code 0, or 2 when a file cannot be read or memory runs out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boxlint/boxlint.h"
#include "python/encoding.h"

static boxlint__mem M;

static void hex(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) printf("%02x", (unsigned char)s[i]);
}

static int map_ok(const bl_pysrc *src, size_t n) {
  if (!src->map) return src->text != NULL && src->len == n;
  if (src->map[src->len] != n) return 0;
  for (size_t i = 0; i < src->len; i++)
    if (src->map[i] >= n || (i && src->map[i] < src->map[i - 1])) return 0;
  return 1;
}

static int one(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 2;
  size_t cap = 4096, n = 0;
  char *s = malloc(cap);
  for (size_t r; s && (r = fread(s + n, 1, cap - n, f)) > 0;) {
    n += r;
    if (n == cap) s = realloc(s, cap *= 2);
  }
  fclose(f);
  if (!s) return 2;
  bl_pysrc src;
  int rc = bl_py_source(&M, s, n, &src);
  printf("F %s\n", path);
  if (rc == 0 && src.err) {
    char msg[256];
    bl_py_source_message(&src, msg, sizeof msg);
    printf("V ERR %zu %s %s\n", src.err_off, src.encoding ? src.encoding : "-", msg);
  } else if (rc == 0) {
    printf("V OK %s\nH ", src.encoding);
    hex(src.text, src.len);
    printf("\n");
    if (!map_ok(&src, n)) printf("M BAD\n");
  }
  bl_py_source_free(&M, &src);
  free(s);
  return rc ? 2 : 0;
}

static size_t utf8(uint32_t c, char *b) {
  if (c < 0x800) {
    b[0] = (char)(0xC0 | (c >> 6));
    b[1] = (char)(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    b[0] = (char)(0xE0 | (c >> 12));
    b[1] = (char)(0x80 | ((c >> 6) & 0x3F));
    b[2] = (char)(0x80 | (c & 0x3F));
    return 3;
  }
  b[0] = (char)(0xF0 | (c >> 18));
  b[1] = (char)(0x80 | ((c >> 12) & 0x3F));
  b[2] = (char)(0x80 | ((c >> 6) & 0x3F));
  b[3] = (char)(0x80 | (c & 0x3F));
  return 4;
}

/* Ranges of code points for which valid(start) holds. */
static void ranges(char tag, int start) {
  uint32_t first = 0;
  int in = 0;
  for (uint32_t c = 0x80; c <= 0x110000; c++) {
    int v = 0;
    if (c < 0x110000 && (c < 0xD800 || c > 0xDFFF)) {
      char b[5] = {'a'};
      size_t l = utf8(c, b + (start ? 0 : 1)) + (start ? 0 : 1), bad;
      v = bl_py_ident_valid(b, l, &bad);
    }
    if (v && !in) first = c;
    if (!v && in) printf("%c %x %x\n", tag, (unsigned)first, (unsigned)(c - 1));
    in = v;
  }
}

static int nfkc_all(void) {
  for (uint32_t c = 0x80; c < 0x110000; c++) {
    if (c >= 0xD800 && c <= 0xDFFF) continue;
    char b[4], *out;
    size_t l = utf8(c, b), ol;
    if (bl_py_nfkc(&M, b, l, &out, &ol)) return 2;
    if (ol != l || memcmp(out, b, l)) {
      printf("N %x ", (unsigned)c);
      hex(out, ol);
      printf("\n");
    }
    boxlint__free(&M, out);
  }
  return 0;
}

int main(int argc, char **argv) {
  boxlint__mem_init(&M, NULL);
  if (argc == 2 && !strcmp(argv[1], "-l")) {
    const char *name, *ic, *mod;
    for (size_t i = 0; (mod = bl_py_codec(i, &name, &ic)); i++)
      printf("C %s %s %s\n", mod, name, ic ? ic : "-");
    return 0;
  }
  if (argc == 2 && !strcmp(argv[1], "-i")) {
    ranges('S', 1);
    ranges('C', 0);
    return 0;
  }
  if (argc == 2 && !strcmp(argv[1], "-n")) return nfkc_all();
  int rc = 0;
  if (argc > 1) {
    for (int i = 1; i < argc; i++) rc |= one(argv[i]);
    return rc;
  }
  char line[4096];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    if (*line) rc |= one(line);
  }
  return rc;
}

/* Private to python/: a Python source file's encoding as CPython 3.11 reads it (encoding.c), and
 * identifiers as its tokenizer and parser take them (ident.c). */
#ifndef BOXLINT_PYTHON_ENCODING_H
#define BOXLINT_PYTHON_ENCODING_H
#include <stddef.h>
#include "report/internal.h"

/*----------------------------------------------------------------------------------------------
 * Encodings (encoding.c)
 *
 * The encoding is the PEP 263 declaration that CPython's tokenizer finds (a comment matching
 * `^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)` on line 1, or on line 2 when line 1 is blank or only
 * a comment), UTF-8 without one, UTF-8 after a UTF-8 byte order mark. The name is normalised as
 * the tokenizer's get_normal_name and the codec registry (encodings.aliases) do. UTF-8 and its
 * aliases are read in place; the single-byte codecs that glibc's iconv(3) decodes byte for byte
 * as CPython does (tests/oracle/python_encoding_test.py proves it for every byte) are decoded
 * into a UTF-8 copy; every other encoding is refused, since a reader that decodes it otherwise than
 * CPython could be shown a comment where CPython runs a call (`# coding: utf-7` and `+AAo-`).
 *--------------------------------------------------------------------------------------------*/

typedef struct bl_pysrc {
  const char *text; size_t len;   /* UTF-8 text to tokenize: the input itself when it is UTF-8
                                     (no copy; a BOM is left in place) */
  char *owned;                     /* the decoded copy (NUL-terminated), or NULL */
  size_t *map;                     /* for a decoded copy: map[i] = offset in the ORIGINAL bytes of
                                      the character that produced decoded byte i, len+1 entries
                                      (map[len] = original length); NULL when text is the input */
  const char *encoding;            /* the codec's name as CPython's codecs.lookup() gives it
                                      ("utf-8", "iso8859-1", "cp1252"), static; NULL when the
                                      declared encoding is refused */
  const char *err;                 /* NULL, or a static printf format naming the problem, with
                                      exactly one %s: err_detail (see bl_py_source_message) */
  char err_detail[64];             /* the encoding name as declared (for the message; "UTF-8"
                                      without a declaration), NUL-terminated, truncated */
  size_t err_off;                  /* byte offset in the original input of the problem (the
                                      declared name, or the byte that cannot be decoded) */
} bl_pysrc;

/* Read s[0..n) as CPython would. Returns 0 (src->err set when the file cannot be read exactly:
 * an encoding refused, a byte the codec cannot decode, a BOM with a non-UTF-8 declaration,
 * invalid UTF-8), or -1 when out of memory. bl_py_source_free it in every case. */
int bl_py_source(const boxlint__mem *m, const char *s, size_t n, bl_pysrc *out);
void bl_py_source_free(const boxlint__mem *m, bl_pysrc *src);
/* src->err formatted with src->err_detail into buf[0..cap) (truncated, NUL-terminated); returns
 * the message's full length, 0 when there is no error. */
size_t bl_py_source_message(const bl_pysrc *src, char *buf, size_t cap);
/* The original offset of decoded offset `off` (off <= src->len). */
static inline size_t bl_py_source_offset(const bl_pysrc *src, size_t off) {
  return src->map ? src->map[off] : off;
}

/* The codecs read, for tests: the i-th codec's CPython module (encodings.<module>), its name,
 * and the iconv(3) name it is decoded with (NULL: UTF-8, read in place). NULL past the end. */
const char *bl_py_codec(size_t i, const char **name, const char **iconv_name);

/*----------------------------------------------------------------------------------------------
 * Identifiers (ident.c)
 *--------------------------------------------------------------------------------------------*/

/* The NFKC normal form of the UTF-8 identifier s[0..n) (libunistring's u8_normalize), as
 * CPython's parser stores a non-ASCII identifier: *out is a copy in `m` (NUL-terminated,
 * *outlen bytes), or NULL when s is ASCII (unchanged; *outlen = n). Returns 0, -1 when out of
 * memory. */
int bl_py_nfkc(const boxlint__mem *m, const char *s, size_t n, char **out, size_t *outlen);
/* The same into `ar`, as the parser and the analysis keep names: *out NULL when the NFKC form is
 * the identifier itself (ASCII, or already normal) or s is not UTF-8. 0, or -1 out of memory. */
int bl_py_nfkc_in(boxlint__arena *ar, const boxlint__mem *m, const char *s, size_t n,
                  const char **out, size_t *outlen);
/* 1 when the NFKC form of the identifier s[0..n) is the ASCII word w[0..wl), 0 when not, -1 when
 * out of memory. */
int bl_py_nfkc_equals(const char *s, size_t n, const char *w, size_t wl);
/* 1 when s[0..n) is an identifier as CPython 3.11's tokenizer verifies one (the characters as
 * written, before NFKC: XID_Start or `_`, then XID_Continue), else 0 with *bad_off the offset
 * of the first character that is not (or of the first byte that is not UTF-8; 0 when n = 0). */
int bl_py_ident_valid(const char *s, size_t n, size_t *bad_off);

#endif

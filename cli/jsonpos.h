/* Positions inside JSON text that jansson has already validated. */
#ifndef BOXLINT_JSONPOS_H
#define BOXLINT_JSONPOS_H
#include <stddef.h>
#include <stdint.h>

/* Offset of the first non-space byte at or after i. */
size_t jp_ws(const char *s, size_t n, size_t i);
/* Offset just past the value that starts at i. */
size_t jp_skip(const char *s, size_t n, size_t i);
/* The value of member `key` of the object at `obj` ('{'); SIZE_MAX when absent. Also gives the
 * offset of the key's opening quote in *key_off (may be NULL). */
size_t jp_member(const char *s, size_t n, size_t obj, const char *key, size_t *key_off);
/* Element `idx` of the array at `arr` ('['); SIZE_MAX when absent. */
size_t jp_element(const char *s, size_t n, size_t arr, size_t idx);
/* Raw offset in the JSON text of decoded byte `d` of the string literal at `str` ('"'). */
size_t jp_string_offset(const char *s, size_t n, size_t str, size_t d);
/* 1-based line and column (code points) of offset `off`. */
void jp_line_col(const char *s, size_t n, size_t off, uint32_t *line, uint32_t *col);
/* Follow a path "a.b[2].c" from the root value; SIZE_MAX when absent. */
size_t jp_path(const char *s, size_t n, const char *path);
/* The same from the value at offset `at` ("" names that value itself); SIZE_MAX when absent. */
size_t jp_path_at(const char *s, size_t n, size_t at, const char *path);

#endif

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
/* The same from a point of the literal already passed: raw offset *at (a character's or an
 * escape's start) where *decoded bytes have been decoded, for d >= *decoded; both moved to the
 * start of what holds byte d, so that offsets asked in order cost one pass over the literal. */
size_t jp_string_resume(const char *s, size_t n, size_t *at, size_t *decoded, size_t d);
/* 1-based line and column (code points) of offset `off`. */
void jp_line_col(const char *s, size_t n, size_t off, uint32_t *line, uint32_t *col);
/* Follow a path "a.b[2].c" from the root value; SIZE_MAX when absent. */
size_t jp_path(const char *s, size_t n, const char *path);
/* The same from the value at offset `at` ("" names that value itself); SIZE_MAX when absent. */
size_t jp_path_at(const char *s, size_t n, size_t at, const char *path);

/* An index of one text, so that many positions cost what one does (issue 23: a file with 80,000
 * findings): line and column from a checkpoint every JP_BLOCK bytes (line, column and line start
 * there), then at most JP_BLOCK bytes scanned; an object's members and an array's elements
 * tabled on the first lookup in them (members sorted by key), so a path costs a binary search
 * per component instead of a scan of every sibling before it. Built in O(n), memory about n/5
 * bytes plus the tables; the text must not change while it is in use. The jp_ix_* calls take
 * the index or NULL (NULL: the plain scans above, same answers), and an index that ran out of
 * memory answers by those scans too. */
enum { JP_BLOCK = 64 };
typedef struct jp_index jp_index;
/* NULL when out of memory (the jp_ix_* calls then scan). */
jp_index *jp_index_new(const char *s, size_t n);
void jp_index_free(jp_index *ix);
void jp_ix_line_col(const jp_index *ix, const char *s, size_t n, size_t off, uint32_t *line,
                    uint32_t *col);
/* The offset where the line holding `off` starts. */
size_t jp_ix_line_start(const jp_index *ix, const char *s, size_t n, size_t off);
size_t jp_ix_element(jp_index *ix, const char *s, size_t n, size_t arr, size_t idx);
/* The number of elements of the array at `arr` (0 when it is not an array). */
size_t jp_ix_count(jp_index *ix, const char *s, size_t n, size_t arr);
size_t jp_ix_member(jp_index *ix, const char *s, size_t n, size_t obj, const char *key,
                    size_t *key_off);
size_t jp_ix_path_at(jp_index *ix, const char *s, size_t n, size_t at, const char *path);

#endif

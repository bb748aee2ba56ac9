/* cli/lsp/: `boxlint lsp`, the language server (server.c: the loop and the method table;
 * handlers.c, lsp_actions.c: the methods; session.c: what they share, in lsp_int.h), over
 * lsp_io.c (the base protocol's framing) and lsp_doc.c (documents, their edits, and positions in
 * the negotiated encoding), which call nothing of the command's. The folder's whole interface:
 * lsp_serve for cmd/lsp_cmd.c; framing and positions for the tests' probes. It calls fix/,
 * output/ and input/. */
#ifndef BOXLINT_CLI_LSP_H
#define BOXLINT_CLI_LSP_H
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include "cli.h"

/* Serve on standard input and output until `exit` or the end of input, publishing a changed
 * document `debounce_ms` after its last change. Returns the exit code: 0 after shutdown, else 1. */
int lsp_serve(cli *c, int debounce_ms);

/*==============================================================================================
 * MARK: lsp_io.c
 *============================================================================================*/

typedef struct lsp_io {
  int in_fd, out_fd;
  char *buf;
  size_t len, cap;
  size_t max_body; /* a larger Content-Length is refused (its body skipped) */
  size_t skip;     /* bytes of a refused body still to throw away */
} lsp_io;

enum { LSP_MSG = 0, LSP_EOF = -1, LSP_TIMEOUT = -2, LSP_BAD = -3, LSP_TOO_LARGE = -4 };

void lsp_io_init(lsp_io *io, int in_fd, int out_fd, size_t max_body);
void lsp_io_free(lsp_io *io);
/* The next message's body (malloc'd, NUL-terminated) in *body: LSP_MSG. Otherwise LSP_TIMEOUT
 * (nothing complete within timeout_ms; -1 waits forever), LSP_EOF, or LSP_BAD / LSP_TOO_LARGE
 * with *why (the framing error; the reader has already moved past it). */
int lsp_read(lsp_io *io, int timeout_ms, char **body, size_t *blen, const char **why);
/* Send `msg` (its reference taken). Returns 0, or -1 when it could not be written. */
int lsp_write(lsp_io *io, json_t *msg);
/* Send a message's body of `n` bytes as it is (framed). Returns 0, or -1. */
int lsp_write_raw(lsp_io *io, const char *body, size_t n);

/*==============================================================================================
 * MARK: lsp_json.c
 *============================================================================================*/

/* json_loadb(body, len, JSON_ALLOW_NUL, e): the same tree, or NULL and the same error, with its
 * long strings (a whole text) decoded faster than jansson does. */
json_t *lsp_json_parse(const char *body, size_t len, json_error_t *e);

/*==============================================================================================
 * MARK: lsp_doc.c
 *============================================================================================*/

/* How a position's `character` counts: the specification's position encodings. */
enum lsp_enc { LSP_UTF16, LSP_UTF8, LSP_UTF32 };

typedef struct lsp_pubcache lsp_pubcache; /* lsp_pub.c's: the last publish's Diagnostics */

typedef struct lsp_doc {
  char *uri;
  char *path;         /* the file it names (file: URIs), or the URI itself */
  char *text;
  size_t len, cap;
  int64_t version;
  int dirty;          /* changed since its diagnostics were last published */
  int64_t due_ms;     /* when dirty: when to publish (the debounce) */
  lsp_pubcache *pub;  /* the bodies of its last published Diagnostics, or NULL */
  boxlint_python_cache *pycache; /* a Python file's: what its last check kept, for the next
                                    (boxlint_check_python_cached); NULL: full checks */
  size_t *ls;         /* where each line starts (ls[0] = 0), kept by lsp_doc_set and
                         lsp_doc_replace, valid when ls_ok (else out of memory: plain scans) */
  size_t nls, capls;
  int ls_ok;
  size_t nonascii;    /* bytes of the text that are not ASCII, or \r: with none, a character is
                         a byte and a unit, and a position its line and its offset in it */
  size_t *ck;         /* lsp_pub.c's: offsets of the text where its scan of a Python file's
                         strings and comments is between tokens, increasing (lsp_pub_edit) */
  size_t nck, capck;
} lsp_doc;

/* The byte offset of LSP position (line, ch) in t[0..n): a character past the end of its line
 * is the line's end (as the specification says), one inside a UTF-8 or UTF-16 sequence the
 * start of its character. Returns 0, or -1 for a line past the last or a negative value. */
int lsp_offset(const char *t, size_t n, enum lsp_enc enc, int64_t line, int64_t ch, size_t *off);
/* The LSP position of byte offset `off` (clamped to n, moved back to a character start). */
void lsp_position(const char *t, size_t n, enum lsp_enc enc, size_t off, int64_t *line,
                  int64_t *ch);
/* lsp_offset in a document's text, from its line starts (d->ls) when it has them. */
int lsp_doc_offset(const lsp_doc *d, enum lsp_enc enc, int64_t line, int64_t ch, size_t *off);
/* Between these, lsp_position on exactly (t, n, enc) answers from checkpoints built once (line
 * and units every LSP_BLOCK bytes), then at most LSP_BLOCK bytes scanned: a publish of many
 * findings is linear in the document (issue 23). One scope per thread; t must not change
 * meanwhile. Out of memory, or outside, the plain scan answers the same. */
enum { LSP_BLOCK = 64 };
void lsp_positions_begin(const char *t, size_t n, enum lsp_enc enc);
void lsp_positions_end(void);
/* The same scope over a document's text, from its line starts when it has them (then nothing is
 * built: a position is its line's start found by a binary search and that line scanned up to
 * it; the checkpoints are built, once, for a position far into a long line). */
void lsp_positions_begin_doc(const lsp_doc *d, enum lsp_enc enc);
/* {"line", "character"} of `off`. */
json_t *lsp_pos_json(const char *t, size_t n, enum lsp_enc enc, size_t off);
/* {"start", "end"} of [a, b). */
json_t *lsp_range_json(const char *t, size_t n, enum lsp_enc enc, size_t a, size_t b);
/* A Range object into byte offsets. Returns 0, or -1 with *why. */
int lsp_range_offsets(const char *t, size_t n, enum lsp_enc enc, json_t *range, size_t *a,
                      size_t *b, const char **why);
/* The same in a document's text, from its line starts. */
int lsp_doc_range_offsets(const lsp_doc *d, enum lsp_enc enc, json_t *range, size_t *a,
                          size_t *b, const char **why);
/* What one TextDocumentContentChangeEvent replaces: bytes [*a, *b) of the text by (*s, *sl).
 * Returns 0 (a range), 1 (no range: the whole text), or -1 with *why. */
int lsp_change_span(const lsp_doc *d, enum lsp_enc enc, json_t *change, size_t *a, size_t *b,
                    const char **s, size_t *sl, const char **why);
/* Replace bytes [a, b) of the text by s[0..sl). Returns 0, or -1 out of memory (unchanged). */
int lsp_doc_replace(lsp_doc *d, size_t a, size_t b, const char *s, size_t sl);
/* Apply one TextDocumentContentChangeEvent (with a range: incremental; without: the whole
 * text). Returns 0, or -1 with *why (the document unchanged). */
int lsp_doc_change(lsp_doc *d, enum lsp_enc enc, json_t *change, const char **why);
/* Set the whole text. Returns 0, or -1 out of memory. */
int lsp_doc_set(lsp_doc *d, const char *text, size_t len);
/* Free what is kept of the text: the text, its line starts and lsp_pub.c's offsets (ck). */
void lsp_doc_text_free(lsp_doc *d);
/* The path a file: URI names (percent-decoded, malloc'd); NULL for another scheme. */
char *lsp_uri_path(const char *uri);
/* The file: URI of an absolute path (malloc'd). */
char *lsp_path_uri(const char *path);

#endif

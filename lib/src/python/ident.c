/* Identifiers as CPython 3.11 takes them (encoding.h).
 *
 * The tokenizer takes a name as a run of ASCII letters, digits, '_' and bytes >= 0x80, then
 * verifies the characters as written (verify_identifier: _PyUnicode_ScanIdentifier, the first
 * XID_Start or '_', the others XID_Continue); the parser then stores the NFKC normal form of a
 * non-ASCII name (_PyPegen_new_identifier), with no second check. So `ｕｐｄａｔｅ` is the name
 * `update`, and the checks of the characters are on the raw form.
 *
 * libunistring answers both here; its Unicode version may differ from Python 3.11's (14.0).
 * What a difference could do (tests/oracle/python_encoding_test.py counts them over every code
 * point):
 * - validity: boxlint says valid where CPython says invalid: CPython refuses the file, so no call
 *   in it runs; boxlint says invalid where CPython says valid: boxlint refuses a file CPython
 *   runs, loudly (a syntax error, never a silent pass). Neither hides a call.
 * - NFKC: a character that CPython folds to ASCII but boxlint folds otherwise (or not at all)
 *   could spell an SDK name that boxlint does not recognise: that hides a call, and the test
 *   fails on it. The other way round (boxlint folds to ASCII, CPython does not) makes boxlint
 *   see a call that does not exist: a false finding, counted, not a failure. */
#include <stdlib.h>
#include <string.h>
#ifndef BOXLINT_NO_UNISTRING
#include <unictype.h>
#include <uninorm.h>
#endif
#include <errno.h>

#include "python/encoding.h"

/* libunistring's NFKC of the non-ASCII identifier s[0..n) into buf (or malloc'd: the caller frees
 * what is not buf); NULL with errno set on failure. */
static uint8_t *normalize(const char *s, size_t n, uint8_t *buf, size_t *len) {
#ifdef BOXLINT_NO_UNISTRING
  /* A build without libunistring (wasm/): no NFKC. Never reached for a name the file keeps:
   * bl_py_ident_valid refuses every non-ASCII identifier there. */
  uint8_t *u = buf && *len >= n ? buf : malloc(n ? n : 1);
  if (!u) return NULL;
  memcpy(u, s, n);
  *len = n;
  return u;
#else
  return u8_normalize(UNINORM_NFKC, (const uint8_t *)s, n, buf, len);
#endif
}

#ifdef BOXLINT_NO_UNISTRING
/* Without Unicode's tables a non-ASCII identifier is refused (a syntax error, loud), never
 * taken unchecked: an unfolded name could hide an SDK call. */
static int uc_is_property_xid_start(uint32_t cp) { return cp < 0x80 && ((cp | 32) - 'a' < 26u); }
static int uc_is_property_xid_continue(uint32_t cp) {
  return uc_is_property_xid_start(cp) || cp == '_' || (cp - '0' < 10u);
}
#endif

static int ascii(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)s[i] >= 0x80) return 0;
  return 1;
}

int bl_py_nfkc(const boxlint__mem *m, const char *s, size_t n, char **out, size_t *outlen) {
  *out = NULL;
  *outlen = n;
  if (ascii(s, n)) return 0;
  size_t len = 0;
  uint8_t *u = normalize(s, n, NULL, &len);
  if (!u) return -1; /* ENOMEM: u8_normalize has no other failure on a UTF-8 input */
  char *c = boxlint__malloc(m, len + 1);
  if (c) {
    memcpy(c, u, len);
    c[len] = 0;
    *out = c;
    *outlen = len;
  }
  free(u);
  return c ? 0 : -1;
}

int bl_py_nfkc_equals(const char *s, size_t n, const char *w, size_t wl) {
  if (ascii(s, n)) return n == wl && !memcmp(s, w, n);
  uint8_t buf[256];
  size_t len = sizeof buf;
  uint8_t *u = normalize(s, n, buf, &len);
  if (!u) return errno == ENOMEM ? -1 : 0; /* not UTF-8: no identifier the tokenizer keeps */
  int eq = len == wl && !memcmp(u, w, wl);
  if (u != buf) free(u);
  return eq;
}

int bl_py_nfkc_in(boxlint__arena *ar, const boxlint__mem *m, const char *s, size_t n,
                  const char **out, size_t *outlen) {
  *out = NULL;
  *outlen = n;
  if (ascii(s, n)) return 0;
  uint8_t buf[256];
  size_t len = sizeof buf;
  uint8_t *u = normalize(s, n, buf, &len);
  if (!u) return errno == ENOMEM ? -1 : 0; /* not UTF-8 (a probe's other encoding): as written */
  int rc = 0;
  if (len != n || memcmp(u, s, n)) {
    char *c = boxlint__arena_alloc(ar, m, len ? len : 1);
    if (c) {
      memcpy(c, u, len);
      *out = c;
      *outlen = len;
    } else {
      rc = -1;
    }
  }
  if (u != buf) free(u);
  return rc;
}

int bl_py_ident_valid(const char *s, size_t n, size_t *bad_off) {
  *bad_off = 0;
  if (!n) return 0;
  for (size_t i = 0; i < n;) {
    uint32_t cp;
    size_t l = boxlint__utf8_decode((const unsigned char *)s + i, n - i, &cp);
    int ok = l && (i == 0 ? cp == '_' || uc_is_property_xid_start(cp)
                          : uc_is_property_xid_continue(cp));
    if (!ok) {
      *bad_off = i;
      return 0;
    }
    i += l;
  }
  return 1;
}

/* Private: what config/ and warnings/ use of PCRE2, for a build without it (BOXLINT_NO_PCRE2,
 * the WebAssembly build of wasm/, where no PCRE2 built from Debian's source is at hand).
 * Nothing compiles: a user rule is refused with BOXLINT_EREGEX and NO_PCRE2_MESSAGE, and the
 * built-in secret patterns are absent, so secret-in-command and the secret-name check of ENV
 * and ARG never match. Contexts are one constant object, never written; no state is kept. */
#ifndef boxlint_NO_PCRE2_H
#define boxlint_NO_PCRE2_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define NO_PCRE2_MESSAGE "user rules need PCRE2, which this build of boxlint leaves out"

typedef size_t PCRE2_SIZE;
typedef const unsigned char *PCRE2_SPTR;
typedef unsigned char PCRE2_UCHAR;
typedef struct pcre2_code pcre2_code;
typedef struct pcre2_general_context pcre2_general_context;
typedef struct pcre2_compile_context pcre2_compile_context;
typedef struct pcre2_match_context pcre2_match_context;
typedef struct pcre2_match_data pcre2_match_data;

enum {
  PCRE2_UTF = 1, PCRE2_ANCHORED = 2, PCRE2_NO_UTF_CHECK = 4, PCRE2_JIT_COMPLETE = 1,
  PCRE2_CONFIG_JIT = 1, PCRE2_ERROR_NOMATCH = -1, PCRE2_ERROR_MATCHLIMIT = -47,
  PCRE2_ERROR_DEPTHLIMIT = -53, PCRE2_ERROR_HEAPLIMIT = -63, PCRE2_ERROR_JIT_STACKLIMIT = -46,
  PCRE2_ERROR_NOMEMORY = -48, PCRE2_ERROR_HEAP_FAILED = 121, BL_NO_PCRE2_ERROR = 199
};

static const char bl_no_pcre2_object; /* the address every "context" is; never written */
#define BL_NO_PCRE2_OBJ(T) ((T *)(uintptr_t)&bl_no_pcre2_object)

static inline pcre2_general_context *pcre2_general_context_create(
    void *(*m)(PCRE2_SIZE, void *), void (*f)(void *, void *), void *d) {
  (void)m, (void)f, (void)d;
  return BL_NO_PCRE2_OBJ(pcre2_general_context);
}
static inline pcre2_compile_context *pcre2_compile_context_create(pcre2_general_context *g) {
  (void)g;
  return BL_NO_PCRE2_OBJ(pcre2_compile_context);
}
static inline pcre2_match_context *pcre2_match_context_create(pcre2_general_context *g) {
  (void)g;
  return BL_NO_PCRE2_OBJ(pcre2_match_context);
}
static inline pcre2_match_data *pcre2_match_data_create(uint32_t n, pcre2_general_context *g) {
  (void)n, (void)g;
  return BL_NO_PCRE2_OBJ(pcre2_match_data);
}
static inline int pcre2_config(uint32_t what, void *where) {
  (void)what;
  *(uint32_t *)where = 0;
  return 0;
}
static inline pcre2_code *pcre2_compile(PCRE2_SPTR p, PCRE2_SIZE n, uint32_t o, int *ec,
                                        PCRE2_SIZE *eo, pcre2_compile_context *c) {
  (void)p, (void)n, (void)o, (void)c;
  *ec = BL_NO_PCRE2_ERROR;
  *eo = 0;
  return NULL;
}
static inline int pcre2_jit_compile(pcre2_code *c, uint32_t o) { return (void)c, (void)o, 0; }
static inline int pcre2_get_error_message(int ec, PCRE2_UCHAR *buf, PCRE2_SIZE n) {
  (void)ec;
  return snprintf((char *)buf, n, "%s", NO_PCRE2_MESSAGE);
}
static inline int pcre2_match(const pcre2_code *c, PCRE2_SPTR s, PCRE2_SIZE n, PCRE2_SIZE st,
                              uint32_t o, pcre2_match_data *md, pcre2_match_context *mc) {
  (void)c, (void)s, (void)n, (void)st, (void)o, (void)md, (void)mc;
  return PCRE2_ERROR_NOMATCH; /* nothing compiled, nothing matches */
}
static inline PCRE2_SIZE *pcre2_get_ovector_pointer(pcre2_match_data *md) {
  (void)md;
  return NULL; /* read only after a match, which never happens */
}
static inline int pcre2_set_match_limit(pcre2_match_context *c, uint32_t v) { return (void)c, (void)v, 0; }
static inline int pcre2_set_depth_limit(pcre2_match_context *c, uint32_t v) { return (void)c, (void)v, 0; }
static inline void pcre2_code_free(pcre2_code *c) { (void)c; }
static inline void pcre2_match_data_free(pcre2_match_data *m) { (void)m; }
static inline void pcre2_match_context_free(pcre2_match_context *m) { (void)m; }
static inline void pcre2_compile_context_free(pcre2_compile_context *m) { (void)m; }
static inline void pcre2_general_context_free(pcre2_general_context *m) { (void)m; }

#endif

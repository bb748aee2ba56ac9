/* Private: the compiled config and the PCRE2 plumbing shared with the warnings. */
#ifndef boxlint_CONFIG_INT_H
#define boxlint_CONFIG_INT_H

#ifdef BOXLINT_NO_PCRE2
#include "config/no_pcre2.h" /* no regex engine: user rules refused, no secret patterns */
#else
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif
#include "report/emit.h"

/* Built-in patterns, compiled once per config. */
enum bl_pattern {
  BL_RE_SECRET_TOKEN,   /* known token formats */
  BL_RE_SECRET_ASSIGN,  /* password=..., token=... */
  BL_RE_URL_USERINFO,   /* scheme://user:pass@host */
  BL_RE_SECRET_NAME,    /* ENV/ARG names that look secret */
  BL_NPATTERNS
};

typedef struct bl_urule {
  char *id;
  boxlint_severity sev;
  boxlint_keyword kw;
  pcre2_code *code;
  char *message;
} bl_urule;

/* A config's allocator (`mem`, through `gctx`) serves its construction, its setters and its
 * free only: those run on one thread. What a check needs while it runs is a bl_rx, from the
 * caller's allocator, because a config is shared by threads and its allocator need not be
 * thread-safe (alloc.h). */
struct boxlint_config {
  boxlint_severity *sev; /* BL_NWARNINGS entries; first: report/emit.h's bl_config_sevs */
  boxlint__mem mem;
  pcre2_general_context *gctx;
  pcre2_compile_context *cctx;
  uint32_t match_limit, depth_limit;
  bl_urule *rules;
  size_t nrules, caprules;
  pcre2_code *re[BL_NPATTERNS];
  int jit;
  int python_minor;      /* "target-version": 8..14, or 0 (unset) */
};

_Static_assert(offsetof(struct boxlint_config, sev) == 0,
               "bl_config_sevs reads a config's severities as its first member");

/* Severity of `rule` under `cfg` (its override, or `def`). */
boxlint_severity bl_config_severity(const boxlint_config *cfg, const char *rule,
                                    boxlint_severity def);

/* One check's PCRE2 state: its general context, match context (with the config's limits) and
 * match data, all from the caller's allocator `m` (the report's), never the config's. PCRE2
 * allocates while it matches only through these (the match data's backtracking frames; the
 * match context's in PCRE2 before 10.41), so a check calls no allocator but its caller's. */
typedef struct bl_rx {
  const boxlint__mem *m;
  pcre2_general_context *gctx;
  pcre2_match_context *mctx;
  pcre2_match_data *md; /* the last match's ovector */
} bl_rx;

/* Make a check's state for matching `cfg`'s patterns, from `m` (which must outlive it); NULL
 * when memory ran out. Freed by bl_rx_free (NULL: no-op). */
bl_rx *bl_rx_new(const boxlint_config *cfg, const boxlint__mem *m);
void bl_rx_free(bl_rx *rx);

/* Run a compiled pattern on [s, s+n) from `start`. Returns >0 on a match (ovector in rx->md),
 * 0 on no match, -1 when a limit was hit, -2 on another error. */
int bl_re_match(const bl_rx *rx, const pcre2_code *re, const char *s, size_t n, size_t start);

#endif

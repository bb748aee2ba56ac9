/* Private: the compiled config and the PCRE2 plumbing shared with the warnings. */
#ifndef boxlint_CONFIG_INT_H
#define boxlint_CONFIG_INT_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
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

struct boxlint_config {
  boxlint__mem mem;
  pcre2_general_context *gctx;
  pcre2_compile_context *cctx;
  pcre2_match_context *mctx;
  uint32_t match_limit, depth_limit;
  boxlint_severity *sev; /* BL_NWARNINGS entries */
  bl_urule *rules;
  size_t nrules, caprules;
  pcre2_code *re[BL_NPATTERNS];
  int jit;
};

/* Severity of `rule` under `cfg` (its override, or `def`). */
boxlint_severity bl_config_severity(const boxlint_config *cfg, const char *rule,
                                    boxlint_severity def);

/* Run a compiled pattern on [s, s+n) from `start`. Returns >0 on a match (ovector in md),
 * 0 on no match, -1 when a limit was hit, -2 on another error. */
int bl_re_match(const boxlint_config *cfg, const pcre2_code *re, pcre2_match_data *md,
                const char *s, size_t n, size_t start);

#endif

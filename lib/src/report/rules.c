/* The rule table (rules.def) as data: the ids, the list of rules a config may set, and the
 * public rule descriptions. */
#include <string.h>
#include "report/emit.h"

/* The ids: one char array per rule (emit.h declares them), so that every diagnostic's `rule`
 * points to the same storage. */
#define BL_RULE(n, id, sev, cfg, ...) const char BL_R_##n[] = id;
#include "report/rules.def"
#undef BL_RULE

/* Errors are FIXED, warnings and infos CONFIG: a config cannot lower or switch off an error. */
#define BL_IS_FIXED_FIXED 1
#define BL_IS_FIXED_CONFIG 0
#define BL_RULE(n, id, sev, cfg, ...)                                                           \
  _Static_assert((BOXLINT_SEVERITY_##sev == BOXLINT_SEVERITY_ERROR) == BL_IS_FIXED_##cfg,       \
                 "rule " id ": an error must be FIXED, a warning or info CONFIG");
#include "report/rules.def"
#undef BL_RULE

/* The rules whose severity a config may set, in table order (index = WI_*). */
#define BL_WARNING_CONFIG(n) BL_R_##n,
#define BL_WARNING_FIXED(n)
const char *const BL_WARNINGS[] = {
#define BL_RULE(n, id, sev, cfg, ...) BL_WARNING_##cfg(n)
#include "report/rules.def"
#undef BL_RULE
};
const size_t BL_NWARNINGS = sizeof BL_WARNINGS / sizeof BL_WARNINGS[0];
_Static_assert(sizeof BL_WARNINGS / sizeof BL_WARNINGS[0] == BL_NWARN,
               "BL_WARNINGS and the WI_* slots come from the same rows");

static const boxlint_rule_info RULES[] = {
#define BL_RULE(n, id, sev, cfg, summary, description, bad, good)                               \
  {BL_R_##n, BOXLINT_SEVERITY_##sev, summary, description, bad, good},
#include "report/rules.def"
#undef BL_RULE
};
_Static_assert(sizeof RULES / sizeof RULES[0] == BL_NRULES, "one row per BL_RI_*");

size_t boxlint__rules_policy_first(void) { return BL_RI_INVALID_POLICY_TYPE; }

const boxlint_rule_info *boxlint_rules(size_t *count) {
  if (count) *count = sizeof RULES / sizeof RULES[0];
  return RULES;
}

const boxlint_rule_info *boxlint_rule_find(const char *id, size_t len) {
  if (!id) return NULL;
  for (size_t i = 0; i < sizeof RULES / sizeof RULES[0]; i++)
    if (len && RULES[i].id[0] == id[0] && strlen(RULES[i].id) == len &&
        !memcmp(RULES[i].id, id, len))
      return &RULES[i];
  return NULL;
}

/* `n` bytes of `s` at buf + *len (nothing written when `buf` is NULL: counting only). */
static void put(char *buf, size_t *len, const char *s, size_t n) {
  if (buf) memcpy(buf + *len, s, n);
  *len += n;
}

static void put_s(char *buf, size_t *len, const char *s) { put(buf, len, s, strlen(s)); }

/* Each line of `text`, indented by four spaces. */
static void put_indented(char *buf, size_t *len, const char *text) {
  for (const char *p = text; *p;) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    put(buf, len, "    ", 4);
    put(buf, len, p, n);
    put(buf, len, "\n", 1);
    p += n + (e != NULL);
  }
}

/* The explanation of `r` into `buf` (NULL: only measured); its length. */
static size_t explain_into(char *buf, const boxlint_rule_info *r) {
  size_t len = 0;
  put_s(buf, &len, r->id);
  put_s(buf, &len, " (");
  put_s(buf, &len, boxlint_severity_str(r->severity));
  put_s(buf, &len, "): ");
  put_s(buf, &len, r->summary);
  put_s(buf, &len, "\n\n");
  put_s(buf, &len, r->description);
  put_s(buf, &len, "\n\nBad:\n");
  put_indented(buf, &len, r->bad);
  put_s(buf, &len, "Good:\n");
  put_indented(buf, &len, r->good);
  return len;
}

boxlint_status boxlint_rule_explain(const boxlint_rule_info *rule, char **out, size_t *out_len,
                                    const boxlint_alloc *alloc) {
  if (out) *out = NULL;
  if (out_len) *out_len = 0;
  if (!rule || !out || !out_len) return BOXLINT_EINVAL;
  size_t n = explain_into(NULL, rule);
  boxlint__mem m;
  boxlint__mem_init(&m, alloc);
  char *o = boxlint__malloc(&m, n + 1);
  if (!o) return BOXLINT_ENOMEM;
  explain_into(o, rule);
  o[n] = '\0';
  *out = o;
  *out_len = n;
  return BOXLINT_OK;
}

boxlint_severity bl_rule_severity(const char *rule) {
  /* The checks emit with the BL_R_* ids, which are the table's own storage: found by address
   * first, then by text (another pointer to the same id). */
  for (size_t i = 0; i < sizeof RULES / sizeof RULES[0]; i++)
    if (RULES[i].id == rule) return RULES[i].severity;
  const boxlint_rule_info *r = boxlint_rule_find(rule, strlen(rule));
  return r ? r->severity : BOXLINT_SEVERITY_ERROR;
}

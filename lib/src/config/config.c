/* config/: configs: warning severities and user rules, compiled once with PCRE2 (JIT where it
 * exists), and the PCRE2 plumbing the warnings match with (config_int.h). A compiled config is
 * immutable, and its allocator is called only by its constructor, setters and free: a check
 * matches with a bl_rx made from the caller's allocator. It may call report/ only (the rule
 * table, the allocator). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "config/config_int.h"

static void *pc_malloc(PCRE2_SIZE n, void *ctx) { return boxlint__malloc(ctx, n); }
static void pc_free(void *p, void *ctx) { boxlint__free(ctx, p); }

/* Built-in patterns. Kept simple and bounded: no nested quantifiers over overlapping classes. */
static const char *const PATTERNS[BL_NPATTERNS] = {
  /* AWS access key ids, GitHub, GitLab and Slack tokens, private key blocks, OpenAI-style keys.
   * Every alternative starts with a literal, so PCRE2 only tries the few places that could. */
  "(?<![A-Za-z0-9])(?:(?:AKIA|ASIA)[0-9A-Z]{16}"
  "|gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255}"
  "|glpat-[A-Za-z0-9_-]{20,}"
  "|xox[abposr]-[A-Za-z0-9-]{10,}"
  "|sk-(?:proj-)?[A-Za-z0-9_-]{32,}"
  "|-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----)",
  /* password=value, token: value (a literal, not a $variable). Anchored on the keyword, not
   * on a leading [a-z0-9_]* run, so that the scan stays linear. */
  "(?i)(?<![a-z])(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key)[a-z0-9_]*+"
  "[\"']?+[ \t]*+(?:=|:[ \t])[ \t]*+[\"']?+(?![=\"'$\\s])([^\\s\"'&;|]{4,})",
  /* credentials in a URL: anchored on "://" */
  "://([^\\s/@:\"']++):([^\\s/@\"']++)@[^\\s/\"']",
  /* a variable name that looks secret */
  "(?i)^(?:[a-z0-9_]*_)?(?:password|passwd|secret|token|api_?key|access_?key|private_?key"
  "|credentials?|auth)(?:_[a-z0-9_]*)?$",
};

boxlint_status boxlint_config_new(boxlint_config **out, const boxlint_alloc *alloc) {
  if (!out) return BOXLINT_EINVAL;
  *out = NULL;
  boxlint__mem m;
  boxlint__mem_init(&m, alloc);
  boxlint_config *c = boxlint__malloc(&m, sizeof *c);
  if (!c) return BOXLINT_ENOMEM;
  memset(c, 0, sizeof *c);
  c->mem = m;
  c->match_limit = 100000;
  c->depth_limit = 1000;
  c->sev = boxlint__malloc(&m, (BL_NWARNINGS ? BL_NWARNINGS : 1) * sizeof *c->sev);
  c->gctx = pcre2_general_context_create(pc_malloc, pc_free, &c->mem);
  if (!c->sev || !c->gctx) goto oom;
  c->cctx = pcre2_compile_context_create(c->gctx);
  if (!c->cctx) goto oom;
  for (size_t i = 0; i < BL_NWARNINGS; i++) {
    const boxlint_rule_info *ri = boxlint_rule_find(BL_WARNINGS[i], strlen(BL_WARNINGS[i]));
    c->sev[i] = ri ? ri->severity : BOXLINT_SEVERITY_WARNING;
  }
  uint32_t jit = 0;
  pcre2_config(PCRE2_CONFIG_JIT, &jit);
  c->jit = jit != 0;
  for (int i = 0; i < BL_NPATTERNS; i++) {
    int ec;
    PCRE2_SIZE eo;
    /* The secret patterns run anchored at the offsets warnings.c proposes. */
    uint32_t opt = PCRE2_UTF | (i == BL_RE_SECRET_NAME ? 0u : PCRE2_ANCHORED);
    c->re[i] = pcre2_compile((PCRE2_SPTR)PATTERNS[i], strlen(PATTERNS[i]), opt, &ec, &eo, c->cctx);
#ifdef BOXLINT_NO_PCRE2
    continue; /* no regex engine (no_pcre2.h): the pattern stays NULL and never matches */
#endif
    if (!c->re[i]) goto oom; /* the built-in patterns compile: only memory can fail */
    if (c->jit) pcre2_jit_compile(c->re[i], PCRE2_JIT_COMPLETE);
  }
  *out = c;
  return BOXLINT_OK;
oom:
  boxlint_config_free(c);
  return BOXLINT_ENOMEM;
}

void boxlint_config_free(boxlint_config *c) {
  if (!c) return;
  boxlint__mem m = c->mem;
  for (int i = 0; i < BL_NPATTERNS; i++) pcre2_code_free(c->re[i]);
  for (size_t i = 0; i < c->nrules; i++) {
    pcre2_code_free(c->rules[i].code);
    boxlint__free(&m, c->rules[i].id);
    boxlint__free(&m, c->rules[i].message);
  }
  boxlint__free(&m, c->rules);
  pcre2_compile_context_free(c->cctx);
  pcre2_general_context_free(c->gctx);
  boxlint__free(&m, c->sev);
  boxlint__free(&m, c);
}

static boxlint_status fail(boxlint_error *err, boxlint_status code, size_t offset,
                           const char *fmt, const char *a, size_t alen) {
  if (err) {
    err->code = code;
    err->offset = offset;
    snprintf(err->message, sizeof err->message, fmt, (int)(alen > 80 ? 80 : alen), a);
  }
  return code;
}

boxlint_status boxlint_config_set_severity(boxlint_config *c, const char *rule, size_t len,
                                           boxlint_severity sev, boxlint_error *err) {
  if (!c || !rule || sev > BOXLINT_SEVERITY_ERROR)
    return fail(err, BOXLINT_EINVAL, 0, "invalid argument%.*s", "", 0);
  for (size_t i = 0; i < BL_NWARNINGS; i++) {
    if (strlen(BL_WARNINGS[i]) == len && !memcmp(BL_WARNINGS[i], rule, len)) {
      c->sev[i] = sev;
      return BOXLINT_OK;
    }
  }
  for (size_t i = 0; i < c->nrules; i++) {
    if (strlen(c->rules[i].id) == len && !memcmp(c->rules[i].id, rule, len)) {
      c->rules[i].sev = sev;
      return BOXLINT_OK;
    }
  }
  if (boxlint_rule_find(rule, len))
    return fail(err, BOXLINT_EINVAL, 0,
                "'%.*s' is an error that keeps the template buildable: it cannot be switched off "
                "or lowered", rule, len);
  return fail(err, BOXLINT_EINVAL, 0, "unknown rule '%.*s'", rule, len);
}

const char *boxlint_user_rule_field(size_t i) {
  static const char *const fields[] = {"id", "severity", "instruction", "pattern", "message"};
  return i < sizeof fields / sizeof fields[0] ? fields[i] : NULL;
}

void boxlint_user_rule_init(boxlint_user_rule *r) {
  if (!r) return;
  memset(r, 0, sizeof *r);
  r->severity = BOXLINT_SEVERITY_WARNING;
  r->instruction = BOXLINT_KW_NONE;
}

boxlint_status boxlint_config_add_rule(boxlint_config *c, const boxlint_user_rule *r,
                                       boxlint_error *err) {
  if (!c || !r || !r->id.ptr || !r->pattern.ptr)
    return fail(err, BOXLINT_EINVAL, 0, "invalid argument%.*s", "", 0);
  if (!r->id.len || r->id.len > 64)
    return fail(err, BOXLINT_EINVAL, 0, "a rule id needs 1 to 64 characters%.*s", "", 0);
  for (size_t i = 0; i < r->id.len; i++) {
    unsigned char ch = (unsigned char)r->id.ptr[i];
    if (!((ch >= 'a' && ch <= 'z') || boxlint__is_digit(ch) || ch == '-' || ch == '_' || ch == '.'))
      return fail(err, BOXLINT_EINVAL, i, "rule id '%.*s' may only hold a-z, 0-9, '-', '_', '.'",
                  r->id.ptr, r->id.len);
  }
  if (boxlint_rule_find(r->id.ptr, r->id.len))
    return fail(err, BOXLINT_EINVAL, 0, "rule id '%.*s' is a built-in rule", r->id.ptr, r->id.len);
  for (size_t i = 0; i < c->nrules; i++)
    if (strlen(c->rules[i].id) == r->id.len && !memcmp(c->rules[i].id, r->id.ptr, r->id.len))
      return fail(err, BOXLINT_EINVAL, 0, "duplicate rule id '%.*s'", r->id.ptr, r->id.len);
  if (r->severity < BOXLINT_SEVERITY_INFO || r->severity > BOXLINT_SEVERITY_ERROR)
    return fail(err, BOXLINT_EINVAL, 0, "severity must be info, warning or error%.*s", "", 0);
  int ec;
  PCRE2_SIZE eo;
  pcre2_code *code = pcre2_compile((PCRE2_SPTR)r->pattern.ptr, r->pattern.len, PCRE2_UTF, &ec, &eo,
                                   c->cctx);
  if (!code) {
    if (ec == PCRE2_ERROR_HEAP_FAILED || ec == PCRE2_ERROR_NOMEMORY)
      return fail(err, BOXLINT_ENOMEM, 0, "out of memory%.*s", "", 0);
    if (err) {
      PCRE2_UCHAR msg[120];
      pcre2_get_error_message(ec, msg, sizeof msg);
      err->code = BOXLINT_EREGEX;
      err->offset = eo;
      snprintf(err->message, sizeof err->message, "invalid pattern at offset %zu: %s", (size_t)eo,
               (const char *)msg);
    }
    return BOXLINT_EREGEX;
  }
  if (c->jit) pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
  if (c->nrules == c->caprules) {
    size_t cap = c->caprules ? c->caprules * 2 : 4;
    bl_urule *nr = boxlint__realloc(&c->mem, c->rules, c->caprules * sizeof *nr, cap * sizeof *nr);
    if (!nr) {
      pcre2_code_free(code);
      return fail(err, BOXLINT_ENOMEM, 0, "out of memory%.*s", "", 0);
    }
    c->rules = nr;
    c->caprules = cap;
  }
  bl_urule *u = &c->rules[c->nrules];
  u->id = boxlint__malloc(&c->mem, r->id.len + 1);
  u->message = boxlint__malloc(&c->mem, r->message.len + 1);
  if (!u->id || !u->message) {
    boxlint__free(&c->mem, u->id);
    boxlint__free(&c->mem, u->message);
    pcre2_code_free(code);
    return fail(err, BOXLINT_ENOMEM, 0, "out of memory%.*s", "", 0);
  }
  memcpy(u->id, r->id.ptr, r->id.len);
  u->id[r->id.len] = 0;
  if (r->message.len) memcpy(u->message, r->message.ptr, r->message.len);
  u->message[r->message.len] = 0;
  u->sev = r->severity;
  u->kw = r->instruction;
  u->code = code;
  c->nrules++;
  return BOXLINT_OK;
}

void boxlint_config_set_limits(boxlint_config *c, uint32_t match_limit, uint32_t depth_limit) {
  if (!c) return;
  if (match_limit) c->match_limit = match_limit;
  if (depth_limit) c->depth_limit = depth_limit;
}

boxlint_status boxlint_config_set_python_minor(boxlint_config *c, int minor) {
  if (!c || (minor && (minor < BOXLINT_PYTHON_MINOR_MIN || minor > BOXLINT_PYTHON_MINOR_MAX)))
    return BOXLINT_EINVAL;
  c->python_minor = minor;
  return BOXLINT_OK;
}

int boxlint_config_get_python_minor(const boxlint_config *c) { return c ? c->python_minor : 0; }

size_t boxlint_config_rule_count(const boxlint_config *c) { return c ? c->nrules : 0; }

const char *boxlint_config_rule_id(const boxlint_config *c, size_t i) {
  return c && i < c->nrules ? c->rules[i].id : NULL;
}

boxlint_severity bl_config_severity(const boxlint_config *c, const char *rule,
                                    boxlint_severity def) {
  return bl_severity_override(c ? c->sev : NULL, rule, def);
}

bl_rx *bl_rx_new(const boxlint_config *c, const boxlint__mem *m) {
  bl_rx *rx = boxlint__malloc(m, sizeof *rx);
  if (!rx) return NULL;
  rx->m = m;
  rx->mctx = NULL;
  rx->md = NULL;
  /* The memory functions' data is `m` itself: pc_malloc and pc_free take a boxlint__mem. */
  rx->gctx = pcre2_general_context_create(pc_malloc, pc_free, (void *)(uintptr_t)m);
  if (rx->gctx) rx->mctx = pcre2_match_context_create(rx->gctx);
  if (rx->mctx) rx->md = pcre2_match_data_create(16, rx->gctx);
  if (!rx->md) {
    bl_rx_free(rx);
    return NULL;
  }
  pcre2_set_match_limit(rx->mctx, c->match_limit);
  pcre2_set_depth_limit(rx->mctx, c->depth_limit);
  return rx;
}

void bl_rx_free(bl_rx *rx) {
  if (!rx) return;
  pcre2_match_data_free(rx->md);
  pcre2_match_context_free(rx->mctx);
  pcre2_general_context_free(rx->gctx);
  boxlint__free(rx->m, rx);
}

int bl_re_match(const bl_rx *rx, const pcre2_code *re, const char *s, size_t n, size_t start) {
  /* The subject was validated as UTF-8 by the byte checks only when the command has no
   * invalid-utf8 error; the caller passes PCRE2 a valid subject or none at all. */
  int rc = pcre2_match(re, (PCRE2_SPTR)s, n, start, PCRE2_NO_UTF_CHECK, rx->md, rx->mctx);
  if (rc >= 0) return rc == 0 ? 1 : rc;
  if (rc == PCRE2_ERROR_NOMATCH) return 0;
  if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT ||
      rc == PCRE2_ERROR_JIT_STACKLIMIT)
    return -1;
  return -2;
}

boxlint_severity boxlint_config_get_severity(const boxlint_config *c, const char *rule,
                                             size_t len, boxlint_severity def) {
  if (!c || !rule) return def;
  for (size_t i = 0; i < BL_NWARNINGS; i++)
    if (strlen(BL_WARNINGS[i]) == len && !memcmp(BL_WARNINGS[i], rule, len)) return c->sev[i];
  for (size_t i = 0; i < c->nrules; i++)
    if (strlen(c->rules[i].id) == len && !memcmp(c->rules[i].id, rule, len)) return c->rules[i].sev;
  return def;
}

/*
 * Warnings: what keeps a template good rather than buildable. They run only with a config
 * (boxlint_options.config), after the errors of each instruction, and look at the parsed
 * instruction (logical line, flags, arguments, heredoc bodies), never at raw text.
 */
#include <string.h>
#include "config_int.h"

/* Built-in warnings whose severity a config may set (ids must be in the rule table). */
const char *const BL_WARNINGS[] = {
  "unknown-field",
  "unused-suppression",
  "regex-limit",
  /* NetworkPolicy warnings (egress_*.c emits them; a config may set their severity) */
  "allow-without-effect",
  "deny-without-effect",
  "filtered-empty-is-open",
  "duplicate-entry",
  "shadowed-entry",
  "broad-wildcard",
  "any-host",
  "mapped-address",
};
const size_t BL_NWARNINGS = sizeof BL_WARNINGS / sizeof BL_WARNINGS[0];

static pcre2_match_data *match_data(bl_check *ck) {
  const boxlint_config *cfg = ck->opts->config;
  if (!ck->md) ck->md = pcre2_match_data_create(16, cfg->gctx);
  if (!ck->md) ck->cx.oom = 1;
  return ck->md;
}

void bl_warn_free(bl_check *ck) {
  pcre2_match_data_free(ck->md);
  ck->md = NULL;
}

static void limit_hit(bl_check *ck, const char *id, size_t s, size_t e) {
  boxlint_diag *d = bl_emit(ck, "regex-limit", s, e,
                            "rule %s hit the regular-expression match limit on this command; "
                            "it was not checked", id);
  bl_hint(ck, d, "simplify the rule's pattern (avoid nested quantifiers) or raise the limits");
}

/* User rules: each matches the logical instruction and each heredoc body; one report per
 * rule and command (the first match). */
static void user_rules(bl_check *ck, const bl_read *rd) {
  const boxlint_config *cfg = ck->opts->config;
  if (!cfg->nrules) return;
  pcre2_match_data *md = match_data(ck);
  if (!md) return;
  const char *L = rd->logical;
  size_t ls = rd->cmd.kw_l, le = rd->cmd.args_l + rd->cmd.args_n;
  for (size_t i = 0; i < cfg->nrules; i++) {
    const bl_urule *u = &cfg->rules[i];
    if (u->sev == BOXLINT_SEVERITY_OFF) continue;
    if (u->kw != BOXLINT_KW_NONE && u->kw != rd->cmd.folded &&
        !(rd->has_trigger && u->kw == rd->trig.folded))
      continue;
    int rc = bl_re_match(cfg, u->code, md, L + ls, le - ls, 0);
    size_t s = 0, e = 0;
    int in_body = 0;
    if (rc > 0) {
      PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
      s = ls + ov[0];
      e = ls + ov[1];
    }
    for (size_t h = 0; rc == 0 && h < rd->nheredocs; h++) {
      const boxlint_heredoc *hd = &rd->heredocs[h];
      rc = bl_re_match(cfg, u->code, md, hd->body.ptr, hd->body.len, 0);
      if (rc > 0) {
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        size_t base = (size_t)(hd->body.ptr - (const char *)ck->cx.buf);
        s = base + ov[0];
        e = base + ov[1];
        in_body = 1;
      }
    }
    const char *id = boxlint__rstrdup(ck->cx.r, u->id, strlen(u->id));
    if (!id) return;
    if (rc == -1) {
      limit_hit(ck, id, rd->start, rd->end);
    } else if (rc > 0) {
      if (in_body)
        bl_emit_sev(ck, id, u->sev, s, e, "%s", u->message[0] ? u->message : id);
      else {
        size_t is = bl_logical_to_input(&ck->cx, rd, s);
        size_t ie = e > s ? bl_logical_to_input(&ck->cx, rd, e - 1) + 1 : is;
        bl_emit_sev(ck, id, u->sev, is, ie, "%s", u->message[0] ? u->message : id);
      }
    }
  }
}

void bl_warn_instruction(bl_check *ck, const bl_read *rd) {
  user_rules(ck, rd);
}

void bl_warn_finish(bl_check *ck) { (void)ck; }

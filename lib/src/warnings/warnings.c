/*
 * warnings/: what keeps a template good rather than buildable, the sandbox warnings of design.md
 * §2.2 and §2.3, and the user rules of a config. They run only with a config
 * (boxlint_options.config), after the errors of each instruction, and they look at the parsed
 * instruction: the logical line (continuations joined, comment lines dropped), flags as BuildKit
 * unquotes them, and heredoc bodies, never at raw text. This file is the folder's door: the
 * entry points (bl_warn_instruction, bl_warn_finish, bl_warn_free), the dispatch per
 * instruction, the rules of ENV, ARG, USER, STOPSIGNAL, HEALTHCHECK and WORKDIR, and the user
 * rules; shell.c cuts RUN scripts into commands and words, run.c holds the RUN rules and
 * secrets.c secret-in-command. It may call report/, config/ and dockerfile/ only; lint/ calls it.
 */
#include "warnings/warnings_int.h"

bl_rx *bl_warn_rx(bl_check *ck) {
  /* From the report's allocator (ck->cx.m): the config is shared, its allocator is not ours. */
  if (!ck->md) ck->md = bl_rx_new(ck->opts->config, ck->cx.m);
  if (!ck->md) ck->cx.oom = 1;
  return ck->md;
}

void bl_warn_free(bl_check *ck) {
  bl_rx_free(ck->md);
  ck->md = NULL;
}

/* ---- ENV and ARG ---------------------------------------------------------------------------- */

/* ENV NAME=val (nl: the name's length) that breaks the base's runtime: why, or NULL. */
static const char *env_breaks_runtime(const char *name, size_t nl, const char *val) {
  if (nl == 4 && !memcmp(name, "PATH", 4) && !strstr(val, "$PATH") && !strstr(val, "${PATH}"))
    return "replaces PATH, so the base's Python, Jupyter and shim are no longer found";
  if (nl == 10 && !memcmp(name, "LD_PRELOAD", 10) && val[0])
    return "loads a library into every process of the sandbox, systemd and Jupyter included";
  if (nl == 15 && !memcmp(name, "LD_LIBRARY_PATH", 15) && !strstr(val, "$LD_LIBRARY_PATH") &&
      !strstr(val, "${LD_LIBRARY_PATH}") && val[0])
    return "changes which shared libraries every process of the sandbox loads";
  if (nl == 10 && !memcmp(name, "PYTHONHOME", 10))
    return "points every Python of the sandbox, Jupyter's included, at another installation";
  return NULL;
}

/* ENV and ARG: PIP_NO_CACHE_DIR, variables the runtime depends on, and names that look secret
 * with literal values. */
static void check_env_arg(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  bl_sh_script sc = {NULL, 0, 0};
  if (bl_sh_split(ck, rd->logical, c->args_l, c->args_l + c->args_n, &sc)) return;
  int env = c->folded == BOXLINT_KW_ENV;
  int legacy = env && sc.n && !strchr(sc.w[0].text ? sc.w[0].text : "=", '=');
  for (size_t i = 0; i < sc.n; i++) {
    const bl_sh_word *w = &sc.w[i];
    if (w->op || !w->text) continue;
    const char *eq = strchr(w->text, '=');
    size_t nl = eq ? (size_t)(eq - w->text) : w->len;
    const char *val = eq ? eq + 1 : "";
    size_t vs = w->s, ve = w->e;
    if (legacy) { /* ENV NAME value words */
      if (i > 0) break;
      val = sc.n > 1 && sc.w[1].text ? sc.w[1].text : "";
      if (sc.n > 1) { vs = sc.w[1].s; ve = sc.w[sc.n - 1].e; }
    } else if (eq) {
      vs = w->s + nl + 1;
    }
    if (env && nl == 16 && !memcmp(w->text, "PIP_NO_CACHE_DIR", 16) && val[0])
      ck->pip_no_cache = 1;
    const char *bad = NULL;
    if (env && bl_warn_on(ck, WI_ENV_OVERRIDES_RUNTIME) &&
        (bad = env_breaks_runtime(w->text, nl, val)) != NULL) {
      const char *nm = boxlint__rstrdup(ck->cx.r, w->text, nl);
      boxlint_diag *d = bl_emit_l(ck, rd, BL_R_ENV_OVERRIDES_RUNTIME, w->s, legacy ? ve : w->e,
                                  "ENV %s %s", nm ? nm : "", bad);
      bl_hint(ck, d, "extend instead of replacing, e.g. ENV PATH=/opt/tool/bin:$PATH");
    }
    if (val[0] && bl_warn_on(ck, WI_SECRET_IN_COMMAND))
      bl_warn_env_arg_secret(ck, rd, c, w->text, nl, val, vs, ve, !legacy || sc.n <= 2);
  }
}

/* ---- USER, STOPSIGNAL, HEALTHCHECK, WORKDIR ------------------------------------------------- */

static int is_root_user(const char *p, size_t n) {
  size_t u = 0;
  while (u < n && p[u] != ':') u++;
  int user_root = (u == 4 && !memcmp(p, "root", 4)) || (u == 1 && p[0] == '0');
  if (!user_root) return 0;
  if (u == n) return 1;
  const char *g = p + u + 1;
  size_t gl = n - u - 1;
  return (gl == 4 && !memcmp(g, "root", 4)) || (gl == 1 && g[0] == '0');
}

/* The first word of the arguments, unquoted as BuildKit's word expansion does. */
static const char *unquoted_arg(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  bl_sh_script sc = {NULL, 0, 0};
  if (bl_sh_split(ck, rd->logical, c->args_l, c->args_l + c->args_n, &sc) || !sc.n ||
      sc.w[0].op)
    return NULL;
  return sc.w[0].text;
}

/* Remember the last USER; final-user-not-root is decided after the last command
 * (bl_warn_finish). */
static void remember_user(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  const char *L = rd->logical;
  size_t s = c->args_l, e = c->args_l + c->args_n;
  while (e > s && (L[e - 1] == ' ' || L[e - 1] == '\t')) e--;
  const char *u = unquoted_arg(ck, rd, c);
  if (!u) u = "";
  ck->last_user_cmd = ck->em.command;
  ck->last_user_root = is_root_user(u, strlen(u)) || strchr(u, '$') != NULL;
  ck->last_user_text = boxlint__rstrdup(ck->cx.r, L + s, e - s);
  size_t is = bl_logical_to_input(&ck->cx, rd, s);
  size_t ie = e > s ? bl_logical_to_input(&ck->cx, rd, e - 1) + 1 : is;
  ck->last_user_off = ck->em.off_base + is;
  ck->last_user_end = ck->em.off_base + ie;
  bl_position(ck, is, &ck->last_user_line, &ck->last_user_col);
  bl_position(ck, ie, &ck->last_user_eline, &ck->last_user_ecol);
}

static int stopsignal_is_systemds(const char *v) {
  if (!v) return 1;
  if (bl_eq(v, "37")) return 1;
  if (boxlint__ieq(v, 3, "sig")) v += 3;
  return boxlint__ieq(v, strlen(v), "rtmin+3");
}

static void rule_stopsignal(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  const char *L = rd->logical;
  size_t s = c->args_l, e = c->args_l + c->args_n;
  if (stopsignal_is_systemds(unquoted_arg(ck, rd, c))) return; /* what systemd expects */
  if (!bl_warn_on(ck, WI_STOPSIGNAL_OVERRIDES_SYSTEMD)) return;
  boxlint_diag *d = bl_emit_l(ck, rd, BL_R_STOPSIGNAL_OVERRIDES_SYSTEMD, c->kw_l, e,
                              "STOPSIGNAL %s replaces SIGRTMIN+3, the signal systemd (PID 1) "
                              "shuts down on: the sandbox no longer stops cleanly",
                              bl_q(ck, L + s, e - s));
  bl_hint(ck, d, "remove it; stop services through their systemd units");
}

static void rule_healthcheck(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  if (c->args_n >= 4 && boxlint__ieq(rd->logical + c->args_l, 4, "none")) return;
  if (!c->args_n || !bl_warn_on(ck, WI_HEALTHCHECK_IN_TEMPLATE)) return;
  boxlint_diag *d = bl_emit_l(ck, rd, BL_R_HEALTHCHECK_IN_TEMPLATE, c->kw_l, c->args_l + c->args_n,
                              "HEALTHCHECK runs a command in every sandbox on a timer and "
                              "replaces the base's own; %s", "the platform does not use it");
  bl_hint(ck, d, "remove it; supervise services with systemd units (Restart=on-failure)");
}

static void rule_workdir(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  const char *L = rd->logical;
  size_t s = c->args_l;
  const char *dir = unquoted_arg(ck, rd, c);
  if (!dir || !dir[0] || dir[0] == '/' || dir[0] == '$' || c->json ||
      !bl_warn_on(ck, WI_WORKDIR_RELATIVE))
    return;
  boxlint_diag *d = bl_emit_l(ck, rd, BL_R_WORKDIR_RELATIVE, s, s + c->args_n,
                              "WORKDIR %s is relative to the base image's working directory, "
                              "which the platform may change", bl_q(ck, L + s, c->args_n));
  bl_hint(ck, d, "use an absolute path, e.g. WORKDIR /home/user/%s", bl_q(ck, L + s, c->args_n));
}

/* ---- User rules ----------------------------------------------------------------------------- */

static void limit_hit(bl_check *ck, const char *id, size_t s, size_t e) {
  boxlint_diag *d = bl_emit(ck, BL_R_REGEX_LIMIT, s, e,
                            "rule %s hit the regular-expression match limit on this command; "
                            "it was not checked", id);
  bl_hint(ck, d, "simplify the rule's pattern (avoid nested quantifiers) or raise the limits");
}

/* Whether user rule `u` applies to the instruction (its keyword, or ONBUILD's trigger's). */
static int user_rule_applies(const bl_urule *u, const bl_read *rd) {
  if (u->sev == BOXLINT_SEVERITY_OFF) return 0;
  return u->kw == BOXLINT_KW_NONE || u->kw == rd->cmd.folded ||
         (rd->has_trigger && u->kw == rd->trig.folded);
}

/* Match user rule `u` on the logical instruction, then on each heredoc body: the PCRE2 result
 * of the last try, and on a match its input bytes [*is, *ie). */
static int user_rule_match(bl_check *ck, const bl_read *rd, const bl_urule *u, const bl_rx *rx,
                           size_t *is, size_t *ie) {
  size_t ls = rd->cmd.kw_l, le = rd->cmd.args_l + rd->cmd.args_n;
  int rc = bl_re_match(rx, u->code, rd->logical + ls, le - ls, 0);
  if (rc > 0) {
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(rx->md);
    size_t s = ls + ov[0], e = ls + ov[1];
    *is = bl_logical_to_input(&ck->cx, rd, s);
    *ie = e > s ? bl_logical_to_input(&ck->cx, rd, e - 1) + 1 : *is;
    return rc;
  }
  for (size_t h = 0; rc == 0 && h < rd->nheredocs; h++) {
    const boxlint_heredoc *hd = &rd->heredocs[h];
    rc = bl_re_match(rx, u->code, hd->body.ptr, hd->body.len, 0);
    if (rc > 0) {
      PCRE2_SIZE *ov = pcre2_get_ovector_pointer(rx->md);
      size_t base = (size_t)(hd->body.ptr - (const char *)ck->cx.buf);
      *is = base + ov[0];
      *ie = base + ov[1];
    }
  }
  return rc;
}

/* Each user rule matches the logical instruction and each heredoc body; one report per rule
 * and command (the first match). */
static void user_rules(bl_check *ck, const bl_read *rd) {
  const boxlint_config *cfg = ck->opts->config;
  if (!cfg->nrules) return;
  const bl_rx *rx = bl_warn_rx(ck);
  if (!rx) return;
  for (size_t i = 0; i < cfg->nrules; i++) {
    const bl_urule *u = &cfg->rules[i];
    if (!user_rule_applies(u, rd)) continue;
    size_t is = 0, ie = 0;
    int rc = user_rule_match(ck, rd, u, rx, &is, &ie);
    const char *id = boxlint__rstrdup(ck->cx.r, u->id, strlen(u->id));
    if (!id) return;
    if (rc == -1)
      limit_hit(ck, id, rd->start, rd->end);
    else if (rc > 0)
      bl_emit_sev(ck, id, u->sev, is, ie, "%s", u->message[0] ? u->message : id);
  }
}

/* ---- Per instruction and per template --------------------------------------------------- */

/* The rules of instruction `c` (the instruction, or an ONBUILD's trigger when `trigger`). */
static void per_keyword(bl_check *ck, const bl_read *rd, const bl_cmdline *c, int trigger) {
  switch (c->folded) {
  case BOXLINT_KW_FROM:
    if (trigger) break;
    /* A new stage (in a fragment that is a whole Dockerfile): USER and ENV start afresh. */
    ck->last_user_cmd = -1;
    ck->pip_no_cache = 0;
    break;
  case BOXLINT_KW_RUN:
    bl_warn_run(ck, rd, c);
    break;
  case BOXLINT_KW_ENV:
  case BOXLINT_KW_ARG:
    check_env_arg(ck, rd, c);
    break;
  case BOXLINT_KW_USER:
    /* A trigger runs in later builds, not in this image. */
    if (!trigger) remember_user(ck, rd, c);
    break;
  case BOXLINT_KW_STOPSIGNAL:
    rule_stopsignal(ck, rd, c);
    break;
  case BOXLINT_KW_HEALTHCHECK:
    rule_healthcheck(ck, rd, c);
    break;
  case BOXLINT_KW_WORKDIR:
    rule_workdir(ck, rd, c);
    break;
  default:
    break;
  }
}

void bl_warn_instruction(bl_check *ck, const bl_read *rd) {
  const bl_cmdline *c = &rd->cmd;
  ck->nsec = 0;
  int trigger = rd->has_trigger && c->folded == BOXLINT_KW_ONBUILD;
  const bl_cmdline *t = trigger ? &rd->trig : c;
  if (t->folded) per_keyword(ck, rd, t, trigger);
  if (bl_warn_on(ck, WI_SECRET_IN_COMMAND)) {
    /* Unknown instructions too: a forgotten RUN still carries its secret. */
    int assignments = !t->folded || t->folded == BOXLINT_KW_RUN || t->folded == BOXLINT_KW_LABEL ||
                      t->folded == BOXLINT_KW_HEALTHCHECK;
    bl_warn_secrets(ck, rd, rd->logical, c->folded ? c->flags_l : c->kw_l, rd->llen, 0,
                    assignments);
    for (size_t h = 0; h < rd->nheredocs; h++) {
      const boxlint_heredoc *hd = &rd->heredocs[h];
      size_t base = (size_t)(hd->body.ptr - (const char *)ck->cx.buf);
      bl_warn_secrets(ck, rd, (const char *)ck->cx.buf, base, base + hd->body.len, 1, 1);
    }
  }
  user_rules(ck, rd);
}

void bl_warn_finish(bl_check *ck) {
  if (ck->last_user_cmd < 0 || ck->last_user_root) return;
  boxlint_severity sev = bl_config_severity(ck->opts->config, BL_R_FINAL_USER_NOT_ROOT,
                                            BOXLINT_SEVERITY_WARNING);
  if (sev == BOXLINT_SEVERITY_OFF) return;
  boxlint_report *r = ck->cx.r;
  boxlint_diag *d = boxlint__report_add(r, BL_R_FINAL_USER_NOT_ROOT, sev, ck->last_user_cmd);
  if (!d) return;
  d->line = ck->last_user_line;
  d->column = ck->last_user_col;
  d->end_line = ck->last_user_eline;
  d->end_column = ck->last_user_ecol;
  d->offset = ck->last_user_off;
  d->end_offset = ck->last_user_end;
  d->message = boxlint__rmsg(r, "the template ends as USER %s: the base starts systemd as PID "
                                "1, which then runs without root and cannot start the sandbox's "
                                "services", ck->last_user_text ? ck->last_user_text : "");
  d->hint = "switch back with USER root at the end; run your own services as that user through "
            "systemd units (User=) instead";
}

/*
 * The RUN rules: the flags (run-mount-context, run-mount-from-image, run-insecure), then each
 * simple command of the script (sudo-usage, curl-pipe-shell, apt-get-missing-yes,
 * apt-get-upgrade, pip-no-cache-dir, systemctl-in-build), then what the whole RUN leaves behind
 * (apt-lists-not-cleaned). The script is the shell form's arguments, the exec form's words, a
 * heredoc body that is the script, and the script of `sh -c '...'` (two levels deep).
 */
#include "warnings/warnings_int.h"

/* What a RUN has done so far, across its simple commands (and the scripts inside them). */
typedef struct run_state {
  int apt_update, apt_install, lists_cleaned;
  size_t apt_s, apt_e;          /* where apt-get update/install was seen */
  int fetch_piped;              /* a curl/wget stage feeds the next stage */
  size_t fetch_s;
  int pip_cache_mount;          /* RUN --mount=type=cache of pip's cache */
  int depth;                    /* nesting of sh -c scripts */
} run_state;

/* One simple command being checked. */
typedef struct run_cmd {
  bl_check *ck;
  const bl_read *rd;
  const bl_sh_script *sc;
  const bl_sh_cmd *sm;
  const bl_sh_word *w; /* the script's words */
  const char *name;    /* the command's name (basename of its word) */
  size_t a;            /* its first argument */
  enum bl_sh_name kind; /* what the name is (bl_sh_name_kind) */
} run_cmd;

static const char FETCH_HINT[] =
    "download to a file with curl -fsSLo, check its checksum (sha256sum -c), then run it";

/* Diagnostic over script offsets [s, e) (logical line, or input bytes). */
static boxlint_diag *emit_at(const run_cmd *x, const char *rule, size_t s, size_t e,
                             const char *fmt, const char *arg) {
  if (x->sc->in_input) return bl_emit(x->ck, rule, s, e, fmt, arg);
  return bl_emit_l(x->ck, x->rd, rule, s, e, fmt, arg);
}

static int memmem_s(const char *p, size_t n, const char *needle) {
  size_t m = strlen(needle);
  for (size_t i = 0; i + m <= n; i++)
    if (!memcmp(p + i, needle, m)) return 1;
  return 0;
}

static int is_pip(const char *n) {
  return bl_eq(n, "pip") || bl_eq(n, "pip3") || (!strncmp(n, "pip3.", 5) && n[5]);
}

static void walk_script(bl_check *ck, const bl_read *rd, const bl_sh_script *sc, run_state *st);

/* ---- Per simple command --------------------------------------------------------------------- */

/* Only a few command names matter; most commands are none of them. */
static int worth_a_look(const char *name, const bl_sh_cmd *sm, const run_state *st) {
  switch (name[0]) {
  case 'a': case 'b': case 'c': case 'd': case 'k': case 'p': case 'r': case 's': case 'w': case 'z':
    return 1;
  default:
    return sm->sudo || st->fetch_piped;
  }
}

static void rule_sudo(const run_cmd *x) {
  if (!x->sm->sudo || !bl_warn_on(x->ck, WI_SUDO_USAGE)) return;
  const bl_sh_word *sw = &x->w[x->sm->sudo - 1];
  boxlint_diag *d = emit_at(x, BL_R_SUDO_USAGE, sw->s, sw->e,
                            "%s: template commands already run as root", "sudo");
  bl_hint(x->ck, d, "remove sudo; the base image may not even have it installed");
}

/* curl | sh: a download piped into a shell or Python; then whether this stage is a download
 * that feeds the next one. */
static void rule_fetch_piped(const run_cmd *x, run_state *st) {
  const char *cmd = x->name;
  if (st->fetch_piped && x->sm->pipe_in &&
      (x->kind == BL_SH_SHELL || !strncmp(cmd, "python", 6)) &&
      bl_warn_on(x->ck, WI_CURL_PIPE_SHELL)) {
    boxlint_diag *d = emit_at(x, BL_R_CURL_PIPE_SHELL, st->fetch_s, x->w[x->sm->c].e,
                              "a downloaded script is piped into %s: it runs unchecked, and a "
                              "partial download runs half a script", cmd);
    bl_hint(x->ck, d, FETCH_HINT);
  }
  st->fetch_piped = 0;
  if ((x->kind == BL_SH_CURL || x->kind == BL_SH_WGET) && x->sm->pipe_out) {
    st->fetch_piped = 1;
    st->fetch_s = x->w[x->sm->c].s;
  }
}

/* The script of `sh -c 'script'` (arg): its commands, each reported at the argument word. */
static void run_inner_script(const run_cmd *x, run_state *st, const bl_sh_word *arg) {
  const char *t = arg->text;
  if ((strstr(t, "$(curl") || strstr(t, "$(wget") || strstr(t, "`curl") || strstr(t, "`wget")) &&
      bl_warn_on(x->ck, WI_CURL_PIPE_SHELL)) {
    boxlint_diag *d = emit_at(x, BL_R_CURL_PIPE_SHELL, x->w[x->sm->c].s, arg->e,
                              "a downloaded script is run by %s -c: it runs unchecked", x->name);
    bl_hint(x->ck, d, FETCH_HINT);
  }
  bl_sh_script inner = {NULL, 0, x->sc->in_input};
  if (bl_sh_split(x->ck, arg->text, 0, arg->len, &inner)) return;
  for (size_t i = 0; i < inner.n; i++) { /* positions: the whole argument */
    inner.w[i].s = arg->s;
    inner.w[i].e = arg->e;
  }
  run_state sub = *st;
  sub.depth = st->depth + 1;
  sub.fetch_piped = 0;
  walk_script(x->ck, x->rd, &inner, &sub);
  st->apt_update |= sub.apt_update;
  st->lists_cleaned |= sub.lists_cleaned;
  if (sub.apt_update && !st->apt_e) {
    st->apt_s = sub.apt_s;
    st->apt_e = sub.apt_e;
  }
}

/* sh -c 'script' (or -ec, -xc...): the first such option's script. */
static void run_shell_c(const run_cmd *x, run_state *st) {
  if (x->kind != BL_SH_SHELL || st->depth >= 2) return;
  const bl_sh_word *w = x->w;
  for (size_t k = x->a; k + 1 < x->sm->e; k++) {
    if (!bl_eq(w[k].text, "-c") &&
        !(w[k].text[0] == '-' && w[k].text[1] != '-' && strchr(w[k].text, 'c')))
      continue;
    run_inner_script(x, st, &w[k + 1]);
    return;
  }
}

/* apt's options: whether one says yes (-y, --yes, -qq, -o APT::Get::Assume-Yes=...), and the
 * first word that is not an option (the verb), or SIZE_MAX. */
static int apt_says_yes(const run_cmd *x, size_t *verb) {
  const bl_sh_word *w = x->w;
  int yes = 0;
  *verb = SIZE_MAX;
  for (size_t k = x->a; k < x->sm->e; k++) {
    const char *t = w[k].text;
    if (t[0] != '-') { /* not an option: the verb, or a package (most words) */
      if (*verb == SIZE_MAX) *verb = k;
      continue;
    }
    /* Options that take the next word as their value: -o -t -c, and four long ones (told
     * apart by the byte after "--" first: most options are none of them). */
    int takes_value;
    if (t[1] != '-')
      takes_value = (t[1] == 'o' || t[1] == 't' || t[1] == 'c') && !t[2];
    else
      takes_value = (t[2] == 'o' && bl_eq(t, "--option")) ||
                    (t[2] == 't' && bl_eq(t, "--target-release")) ||
                    (t[2] == 'd' && bl_eq(t, "--default-release")) ||
                    (t[2] == 'c' && bl_eq(t, "--config-file"));
    if (takes_value) {
      if (bl_eq(t, "-o") && k + 1 < x->sm->e && strstr(w[k + 1].text, "Assume-Yes=")) yes = 1;
      k++;
      continue;
    }
    if (t[1] != '-') {
      if (strchr(t + 1, 'y') && t[1] != 'o' && t[1] != 't' && t[1] != 'c') yes = 1;
      if (bl_eq(t, "-qq") || bl_eq(t, "-q=2")) yes = 1; /* quiet level 2 implies -y */
    } else {
      if (bl_eq(t, "--yes") || bl_eq(t, "--assume-yes") || !strncmp(t, "--assume-yes=", 13) ||
          bl_eq(t, "--force-yes"))
        yes = 1;
      if (!strncmp(t, "--option=", 9) && strstr(t, "Assume-Yes=")) yes = 1;
    }
  }
  return yes;
}

static int apt_changes_packages(const char *v) {
  return bl_eq(v, "install") || bl_eq(v, "reinstall") || bl_eq(v, "build-dep") ||
         bl_eq(v, "dist-upgrade") || bl_eq(v, "upgrade") || bl_eq(v, "full-upgrade") ||
         bl_eq(v, "remove") || bl_eq(v, "purge") || bl_eq(v, "autoremove");
}

/* apt-get / apt / aptitude: remember update and install; a verb that changes packages without
 * -y, and upgrades. */
static void rule_apt(const run_cmd *x, run_state *st) {
  size_t verb;
  int yes = apt_says_yes(x, &verb);
  if (verb == SIZE_MAX) return;
  const char *v = x->w[verb].text, *cmd = x->name;
  size_t s = x->w[x->sm->c].s, e = x->w[verb].e;
  if (bl_eq(v, "update")) {
    st->apt_update = 1;
    st->apt_s = s;
    st->apt_e = e;
    return;
  }
  if (!apt_changes_packages(v)) return;
  if (bl_eq(v, "install")) {
    st->apt_install = 1;
    if (!st->apt_update) {
      st->apt_s = s;
      st->apt_e = e;
    }
  }
  if (!yes && x->kind != BL_SH_APTITUDE && bl_warn_on(x->ck, WI_APT_GET_MISSING_YES)) {
    boxlint_diag *d = emit_at(x, BL_R_APT_GET_MISSING_YES, s, e,
                              "%s without -y: the build is not interactive, so apt stops at its "
                              "confirmation prompt and the build fails", cmd);
    bl_hint(x->ck, d, "write %s-get %s -y ...", "apt", v);
  }
  if ((bl_eq(v, "upgrade") || bl_eq(v, "dist-upgrade") || bl_eq(v, "full-upgrade")) &&
      bl_warn_on(x->ck, WI_APT_GET_UPGRADE)) {
    boxlint_diag *d = emit_at(x, BL_R_APT_GET_UPGRADE, s, e,
                              "%s upgrades every package of the base image, including systemd "
                              "and the Python that Jupyter runs on", cmd);
    bl_hint(x->ck, d, "install the packages you need (apt-get install -y pkg=version) and leave "
                      "the base's packages to the platform");
  }
}

/* What removes the package lists (rm /var/lib/apt/lists..., apt dist-clean) and what downloads
 * them besides update (apt install --update). */
static void track_apt_lists(const run_cmd *x, run_state *st) {
  const bl_sh_word *w = x->w;
  if (x->kind == BL_SH_RM) {
    for (size_t k = x->a; k < x->sm->e; k++)
      if (w[k].text[0] == '/' && !strncmp(w[k].text, "/var/lib/apt/lists", 18))
        st->lists_cleaned = 1;
  }
  if (x->kind != BL_SH_APT_GET && x->kind != BL_SH_APT) return;
  /* dist-clean (apt 3) removes the lists; plain clean keeps them. --update on install runs an
   * update first. */
  for (size_t k = x->a; k < x->sm->e; k++) {
    if (w[k].text[0] != 'd' && w[k].text[0] != '-') continue; /* a package name */
    if (bl_eq(w[k].text, "dist-clean") || bl_eq(w[k].text, "distclean")) st->lists_cleaned = 1;
    if (bl_eq(w[k].text, "--update") && !st->apt_update) {
      st->apt_update = 1;
      st->apt_s = w[x->sm->c].s;
      st->apt_e = w[k].e;
    }
  }
}

/* pip install (or python -m pip install) without --no-cache-dir. */
static void rule_pip(const run_cmd *x, const run_state *st) {
  const bl_sh_word *w = x->w;
  const bl_sh_cmd *sm = x->sm;
  size_t pip_at = SIZE_MAX, a = x->a;
  if (x->name[0] != 'p') return; /* neither pip nor python */
  if (is_pip(x->name)) pip_at = sm->c;
  else if (!strncmp(x->name, "python", 6) && a + 1 < sm->e && bl_sh_word_is(&w[a], "-m") &&
           (bl_sh_word_is(&w[a + 1], "pip") || bl_sh_word_is(&w[a + 1], "pip3")))
    pip_at = a + 1;
  if (pip_at == SIZE_MAX) return;
  size_t k = pip_at + 1;
  while (k < sm->e && w[k].text[0] == '-') k++;
  if (k >= sm->e || !bl_sh_word_is(&w[k], "install")) return;
  int nocache = st->pip_cache_mount;
  for (size_t j = pip_at + 1; j < sm->e; j++)
    if (w[j].text[0] == '-' && w[j].text[1] == '-' &&
        (bl_eq(w[j].text, "--no-cache-dir") || !strncmp(w[j].text, "--no-cache-dir=", 15)))
      nocache = 1;
  for (size_t j = sm->b; j < sm->c; j++)
    if (!strncmp(w[j].text, "PIP_NO_CACHE_DIR=", 17) && w[j].text[17]) nocache = 1;
  if (nocache || x->ck->pip_no_cache || !bl_warn_on(x->ck, WI_PIP_NO_CACHE_DIR)) return;
  boxlint_diag *d = emit_at(x, BL_R_PIP_NO_CACHE_DIR, w[sm->c].s, w[k].e,
                            "%s install keeps its download cache in the image, which every "
                            "sandbox of the template then carries", "pip");
  bl_hint(x->ck, d, "add --no-cache-dir (or set ENV PIP_NO_CACHE_DIR=1 once)");
}

/* systemctl start/stop/... during the build (enable is what works). */
static void rule_systemctl(const run_cmd *x) {
  if (x->kind != BL_SH_SYSTEMCTL || !bl_warn_on(x->ck, WI_SYSTEMCTL_IN_BUILD)) return;
  const bl_sh_word *w = x->w;
  size_t k = x->a;
  while (k < x->sm->e && w[k].text[0] == '-') k++;
  if (k >= x->sm->e) return;
  const char *v = w[k].text;
  if (bl_eq(v, "start") || bl_eq(v, "restart") || bl_eq(v, "reload") || bl_eq(v, "stop") ||
      bl_eq(v, "try-restart") || bl_eq(v, "reload-or-restart") || bl_eq(v, "daemon-reload") ||
      bl_eq(v, "is-active") || bl_eq(v, "status")) {
    boxlint_diag *d = emit_at(x, BL_R_SYSTEMCTL_IN_BUILD, w[x->sm->c].s, w[k].e,
                              "systemctl %s during the build: systemd is not running while the "
                              "image is built, so this fails or does nothing", v);
    bl_hint(x->ck, d, "use systemctl enable <unit>: systemd (PID 1 in the sandbox) starts it at "
                      "boot");
  }
}

static void run_simple(bl_check *ck, const bl_read *rd, const bl_sh_script *sc,
                       const bl_sh_cmd *sm, run_state *st) {
  const char *name = sm->name; /* found with the command word */
  if (!worth_a_look(name, sm, st)) return;
  run_cmd x = {ck, rd, sc, sm, sc->w, name, sm->c + 1, (enum bl_sh_name)sm->kind};
  rule_sudo(&x);
  rule_fetch_piped(&x, st);
  run_shell_c(&x, st);
  if (x.kind == BL_SH_APT_GET || x.kind == BL_SH_APT || x.kind == BL_SH_APTITUDE) rule_apt(&x, st);
  track_apt_lists(&x, st);
  rule_pip(&x, st);
  rule_systemctl(&x);
}

static void walk_script(bl_check *ck, const bl_read *rd, const bl_sh_script *sc, run_state *st) {
  bl_sh_cmd sm = {0, 0, 0, 0, 0, 0, NULL, 0};
  while (bl_sh_next_cmd(sc, &sm)) run_simple(ck, rd, sc, &sm, st);
}

/* ---- Per RUN -------------------------------------------------------------------------------- */

/* A --mount flag whose value holds `needle` (a cache of pip's, of the apt lists...). */
static int mount_mentions(const bl_check *ck, const bl_cmdline *c, const char *needle,
                          const char *also) {
  int found = 0;
  for (size_t i = 0; i < c->nflags; i++) {
    const boxlint_span *f = &ck->cx.flags[c->flag0 + i].value;
    if (f->len > 8 && !memcmp(f->ptr, "--mount=", 8) && memmem_s(f->ptr, f->len, needle) &&
        (!also || memmem_s(f->ptr, f->len, also)))
      found = 1;
  }
  return found;
}

/* Exec form: no shell, but the program and its arguments are still what runs. */
static void walk_exec_form(bl_check *ck, const bl_read *rd, const bl_cmdline *c, run_state *st) {
  if (!c->json_count) return;
  bl_sh_script sc = {NULL, 0, 0};
  sc.w = boxlint__rtmp(ck->cx.r, sizeof(bl_sh_word) * c->json_count);
  if (!sc.w) return;
  bl_buf b = {0};
  for (size_t i = 0; i < c->json_count; i++) {
    if (bl_json_element(ck->cx.m, rd->logical + c->args_l, c->args_n, i, &b)) break;
    bl_sh_word *x = &sc.w[sc.n++];
    memset(x, 0, sizeof *x);
    x->s = c->args_l;
    x->e = c->args_l + c->args_n;
    x->text = boxlint__rtmpdup(ck->cx.r, b.p ? b.p : "", b.len);
    x->len = b.len;
    x->quoted = 1;
    if (!x->text) { sc.n--; break; }
  }
  bl_buf_free(ck->cx.m, &b);
  walk_script(ck, rd, &sc, st);
}

/* BuildKit runs the first heredoc's body as the script when the line is the opener alone
 * (RUN <<EOF); a shell with only options beside the opener (RUN bash -ex <<EOF) reads it too.
 * Anything else (RUN cat <<EOF > f, RUN python3 <<EOF) gets the body as data. */
static int body_is_script(const bl_read *rd, const bl_sh_script *sc) {
  if (!rd->nheredocs) return 0;
  size_t others = 0, opener = 0, first_other = SIZE_MAX;
  int shell_only = 1;
  for (size_t k = 0; k < sc->n; k++) {
    const bl_sh_word *x = &sc->w[k];
    if (x->op) { shell_only = 0; continue; }
    if (!strncmp(x->text, "<<", 2)) {
      opener++;
      if (x->len == 2 || (x->len == 3 && x->text[2] == '-')) k++; /* "<< EOF": the name */
      continue;
    }
    if (first_other == SIZE_MAX) {
      first_other = k;
      if (!bl_sh_is_shell(bl_sh_base_name(x))) shell_only = 0;
    } else if (x->text[0] != '-') {
      shell_only = 0;
    }
    others++;
  }
  return opener == 1 && (others == 0 || shell_only);
}

/* The first heredoc's body as the script (offsets in the input); what it does to the apt lists
 * counts for the RUN, reported at the opener. */
static void walk_heredoc_body(bl_check *ck, const bl_read *rd, const bl_cmdline *c,
                              run_state *st) {
  const boxlint_heredoc *h = &rd->heredocs[0];
  bl_sh_script bs = {NULL, 0, 1};
  size_t base = (size_t)(h->body.ptr - (const char *)ck->cx.buf);
  if (bl_sh_split(ck, (const char *)ck->cx.buf, base, base + h->body.len, &bs)) return;
  run_state bst = *st;
  bst.fetch_piped = 0;
  walk_script(ck, rd, &bs, &bst);
  st->apt_update |= bst.apt_update;
  st->apt_install |= bst.apt_install;
  st->lists_cleaned |= bst.lists_cleaned;
  if (!st->apt_e && bst.apt_e) { /* report at the opener */
    st->apt_s = c->args_l;
    st->apt_e = c->args_l + 2;
  }
}

/* Only a RUN that downloads lists (update) leaves them in its layer; a cache mount of the
 * lists keeps them out of the image. */
static void rule_apt_lists(bl_check *ck, const bl_read *rd, const bl_cmdline *c,
                           const run_state *st) {
  if (!st->apt_update || st->lists_cleaned || !bl_warn_on(ck, WI_APT_LISTS_NOT_CLEANED)) return;
  if (mount_mentions(ck, c, "/var/lib/apt", NULL)) return;
  boxlint_diag *d = bl_emit_l(ck, rd, BL_R_APT_LISTS_NOT_CLEANED, st->apt_s, st->apt_e,
                              "apt-get %s leaves the package lists in the image (tens of MB in "
                              "every sandbox)", "update");
  bl_hint(ck, d, "end the same RUN with && rm -rf /var/lib/apt/lists/*");
}

/* Scripts BuildKit runs: the shell-form arguments, and a heredoc body when the heredoc is the
 * script (`RUN <<EOF`, `RUN bash <<EOF`). */
static void check_run_script(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  run_state st;
  memset(&st, 0, sizeof st);
  st.pip_cache_mount = mount_mentions(ck, c, "type=cache", "pip");
  if (c->json) {
    walk_exec_form(ck, rd, c, &st);
    return;
  }
  bl_sh_script sc = {NULL, 0, 0};
  if (bl_sh_split(ck, rd->logical, c->args_l, c->args_l + c->args_n, &sc)) return;
  walk_script(ck, rd, &sc, &st);
  if (body_is_script(rd, &sc)) walk_heredoc_body(ck, rd, c, &st);
  rule_apt_lists(ck, rd, c, &st);
}

/* ---- RUN flags ------------------------------------------------------------------------------ */

/* --mount=...: from= another image, or a bind mount of the (absent) build context. */
static void rule_mount(bl_check *ck, const bl_read *rd, const bl_flag *f) {
  const char *v = f->value.ptr;
  size_t n = f->value.len;
  const char *type = "bind", *from = NULL;
  size_t tl = 4, fl = 0;
  for (size_t s = 8; s < n;) {
    size_t e = s;
    while (e < n && v[e] != ',') e++;
    if (e - s > 5 && !memcmp(v + s, "type=", 5)) { type = v + s + 5; tl = e - s - 5; }
    if (e - s > 5 && !memcmp(v + s, "from=", 5)) { from = v + s + 5; fl = e - s - 5; }
    s = e + 1;
  }
  if (from && bl_warn_on(ck, WI_RUN_MOUNT_FROM_IMAGE)) {
    const char *q = bl_q(ck, from, fl);
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_RUN_MOUNT_FROM_IMAGE, f->l_start, f->l_end,
                                "RUN --mount from=%s pulls another image into the build, as "
                                "FROM or COPY --from would", q);
    bl_hint(ck, d, "install what you need with RUN (apt-get, pip, curl) instead of mounting "
                   "another image");
  } else if (tl == 4 && !memcmp(type, "bind", 4) && bl_warn_on(ck, WI_RUN_MOUNT_CONTEXT)) {
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_RUN_MOUNT_CONTEXT, f->l_start, f->l_end,
                                "RUN --mount of type %s reads the build context, and templates "
                                "are built without one", "bind");
    bl_hint(ck, d, "write files with a heredoc in RUN, or fetch them with curl");
  }
}

static void check_run_flags(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  for (size_t i = 0; i < c->nflags; i++) {
    const bl_flag *f = &ck->cx.flags[c->flag0 + i];
    const char *v = f->value.ptr;
    size_t n = f->value.len;
    if (n > 8 && !memcmp(v, "--mount=", 8)) {
      rule_mount(ck, rd, f);
    } else if (((n == 19 && !memcmp(v, "--security=insecure", 19)) ||
                (n == 14 && !memcmp(v, "--network=host", 14))) &&
               bl_warn_on(ck, WI_RUN_INSECURE)) {
      boxlint_diag *d = bl_emit_l(ck, rd, BL_R_RUN_INSECURE, f->l_start, f->l_end,
                                  "%s needs a builder entitlement the platform does not grant: "
                                  "the build fails", bl_q(ck, v, n));
      bl_hint(ck, d, "remove the flag");
    }
  }
}

void bl_warn_run(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  check_run_flags(ck, rd, c);
  check_run_script(ck, rd, c);
}

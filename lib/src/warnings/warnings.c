/*
 * Warnings: what keeps a template good rather than buildable (DESIGN §2.2, §2.3). They run only
 * with a config (boxlint_options.config), after the errors of each instruction, and they look
 * at the parsed instruction: the logical line (continuations joined, comment lines dropped),
 * flags as BuildKit unquotes them, and heredoc bodies, never at raw text. RUN scripts are cut
 * into simple commands and words by a small shell splitter, so a quoted string, a comment or an
 * argument is never mistaken for a command.
 */
#include <string.h>
#include "config/config_int.h"
#include "dockerfile/dockerfile_int.h"


/* Indexes into BL_WARNINGS (same order). */
enum {
  WI_UNKNOWN_FIELD,
  WI_UNUSED_SUPPRESSION,
  WI_REGEX_LIMIT,
  WI_FINAL_USER_NOT_ROOT,
  WI_STOPSIGNAL_OVERRIDES_SYSTEMD,
  WI_APT_GET_MISSING_YES,
  WI_PIP_NO_CACHE_DIR,
  WI_APT_LISTS_NOT_CLEANED,
  WI_CURL_PIPE_SHELL,
  WI_SECRET_IN_COMMAND,
  WI_RUN_MOUNT_CONTEXT,
  WI_RUN_MOUNT_FROM_IMAGE,
  WI_SUDO_USAGE,
  WI_SYSTEMCTL_IN_BUILD,
  WI_APT_GET_UPGRADE,
  WI_ENV_OVERRIDES_RUNTIME,
  WI_HEALTHCHECK_IN_TEMPLATE,
  WI_RUN_INSECURE,
  WI_WORKDIR_RELATIVE,
};

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

static int is_on(const bl_check *ck, size_t wi) {
  return ck->opts->config->sev[wi] != BOXLINT_SEVERITY_OFF;
}

/* ---- A shell splitter for RUN scripts ----------------------------------------------------- */

#define SH_MAX_WORDS 4096

typedef struct sh_word {
  size_t s, e;       /* raw extent in the script */
  char *text;        /* unquoted (arena), NUL-terminated */
  size_t len;
  int quoted;        /* some part was quoted */
  unsigned char op;  /* 0 for a word; else an operator: '&' (&&), '|' (||), 'p' (|), ';' (; & or
                        newline), '(' ')' */
} sh_word;

typedef struct sh_script {
  sh_word *w;
  size_t n;
  /* where the script's offsets point: logical line of `rd`, or input bytes */
  int in_input;
} sh_script;

static int op_char(char c) { return c == '&' || c == '|' || c == ';' || c == '(' || c == ')' || c == '\n'; }

/* '1' for the bytes with a meaning to the splitter (white space, operators, quotes, '\\', '$'),
 * by byte value; the others are copied as they are. */
static const char SH_SPECIAL[257] =
    "00000000011001000000000000000000" /* 00 */
    "10101011110000000000000000010000" /* 20 */
    "00000000000000000000000000001000" /* 40 */
    "00000000000000000000000000001000" /* 60 */
    "00000000000000000000000000000000" /* 80 */
    "00000000000000000000000000000000" /* A0 */
    "00000000000000000000000000000000" /* C0 */
    "00000000000000000000000000000000" /* E0 */;

/* Split [s, e) of `text` into words and operators. Quotes and backslashes are removed from the
 * text of words; `$(...)` and backquotes stay inside the word they are in. */
static int shell_split(bl_check *ck, const char *text, size_t s, size_t e, sh_script *out) {
  out->n = 0;
  out->w = boxlint__ralloc(ck->cx.r, sizeof(sh_word) * 64);
  size_t cap = 64;
  if (!out->w) return -1;
  /* Word texts live back to back in one buffer, each NUL-terminated. */
  char *buf = boxlint__ralloc(ck->cx.r, 2 * (e - s) + 1);
  if (!buf) return -1;
  size_t i = s;
  while (i < e) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r') { i++; continue; }
    if (out->n == cap) {
      if (cap >= SH_MAX_WORDS) break;
      sh_word *nw = boxlint__ralloc(ck->cx.r, sizeof(sh_word) * cap * 2);
      if (!nw) return -1;
      memcpy(nw, out->w, sizeof(sh_word) * cap);
      out->w = nw;
      cap *= 2;
    }
    sh_word *w = &out->w[out->n];
    memset(w, 0, sizeof *w);
    w->s = i;
    if (c == '#') { /* a comment to the end of the line */
      while (i < e && text[i] != '\n') i++;
      continue;
    }
    if (op_char(c)) {
      if ((c == '&' || c == '|') && i + 1 < e && text[i + 1] == c) {
        w->op = c == '&' ? '&' : '|';
        i += 2;
      } else {
        w->op = c == '|' ? 'p' : (c == '(' || c == ')') ? (unsigned char)c : ';';
        i++;
      }
      w->e = i;
      out->n++;
      continue;
    }
    /* A word. */
    char *o = buf;
    int depth = 0;
    while (i < e) {
      while (i < e && SH_SPECIAL[(unsigned char)text[i]] == '0') *o++ = text[i++];
      if (i == e) break;
      c = text[i];
      if (depth == 0 && (c == ' ' || c == '\t' || c == '\r' || op_char(c))) break;
      if (c == '\\' && i + 1 < e) {
        if (text[i + 1] != '\n') *o++ = text[i + 1];
        w->quoted = 1;
        i += 2;
      } else if (c == '\'') {
        w->quoted = 1;
        for (i++; i < e && text[i] != '\''; i++) *o++ = text[i];
        i++;
      } else if (c == '"') {
        w->quoted = 1;
        for (i++; i < e && text[i] != '"'; i++) {
          if (text[i] == '\\' && i + 1 < e && strchr("\"\\$`", text[i + 1])) i++;
          *o++ = text[i];
        }
        i++;
      } else if (c == '$' && i + 1 < e && text[i + 1] == '(') {
        depth++;
        *o++ = c;
        *o++ = '(';
        i += 2;
      } else if (depth && c == ')') {
        depth--;
        *o++ = c;
        i++;
      } else {
        *o++ = c;
        i++;
      }
    }
    if (i > e) i = e;
    w->e = i;
    w->len = (size_t)(o - buf);
    *o++ = 0;
    w->text = buf;
    buf = o;
    out->n++;
  }
  return 0;
}

/* Diagnostic over a script span. */
static boxlint_diag *emit_s(bl_check *ck, const bl_read *rd, const sh_script *sc, const char *rule,
                            size_t s, size_t e, const char *fmt, const char *arg) {
  if (sc->in_input) return bl_emit(ck, rule, s, e, fmt, arg);
  return bl_emit_l(ck, rd, rule, s, e, fmt, arg);
}

/* strcmp(a, b) == 0, inline: the rules compare words with short literals many times per
 * command, and a library call costs more than the comparison. */
static inline int eq(const char *a, const char *b) {
  while (*b && *a == *b) a++, b++;
  return *a == *b;
}

static int word_is(const sh_word *w, const char *s) { return !w->op && w->text && eq(w->text, s); }

/* The command name of word w: its basename ("/usr/bin/apt-get" -> "apt-get"). */
static const char *base_name(const sh_word *w) {
  const char *p = strrchr(w->text, '/');
  return p ? p + 1 : w->text;
}

/* A simple command: words [b, e) of the script, the command word at c (after assignments and
 * wrappers such as env, sudo, nohup). */
typedef struct simple {
  size_t b, e, c;
  int sudo;       /* index of a sudo word + 1, or 0 */
  int pipe_in;    /* fed by a pipe */
  int pipe_out;   /* feeds a pipe */
} simple;

static int is_assignment(const sh_word *w) {
  if (w->op || !w->len || w->quoted) return 0;
  const char *t = w->text;
  if (!((*t >= 'A' && *t <= 'Z') || (*t >= 'a' && *t <= 'z') || *t == '_')) return 0;
  for (; *t && *t != '='; t++)
    if (!((*t >= 'A' && *t <= 'Z') || (*t >= 'a' && *t <= 'z') || (*t >= '0' && *t <= '9') || *t == '_')) return 0;
  return *t == '=';
}

/* Cut the script into simple commands; calls fn for each. */
typedef void (*simple_fn)(bl_check *ck, const bl_read *rd, const sh_script *sc, const simple *sm,
                          void *ctx);

static void each_simple(bl_check *ck, const bl_read *rd, const sh_script *sc, simple_fn fn, void *ctx) {
  size_t i = 0;
  int pipe_in = 0;
  while (i < sc->n) {
    while (i < sc->n && sc->w[i].op) {
      pipe_in = sc->w[i].op == 'p';
      i++;
    }
    if (i >= sc->n) break;
    simple sm = {i, i, i, 0, pipe_in, 0};
    while (sm.e < sc->n && !sc->w[sm.e].op) sm.e++;
    sm.pipe_out = sm.e < sc->n && sc->w[sm.e].op == 'p';
    size_t c = sm.b;
    for (;;) {
      while (c < sm.e && is_assignment(&sc->w[c])) c++;
      if (c >= sm.e) break;
      const char *n = base_name(&sc->w[c]);
      if (eq(n, "sudo")) {
        sm.sudo = (int)c + 1;
        c++;
        while (c < sm.e && sc->w[c].text[0] == '-') {
          /* options with a value: -u user, -g group, -C n, -h host */
          int takes = strlen(sc->w[c].text) == 2 && strchr("ugCh", sc->w[c].text[1]);
          c += takes ? 2 : 1;
        }
      } else if (eq(n, "env") || eq(n, "nohup") || eq(n, "time") ||
                 eq(n, "exec") || eq(n, "command")) {
        c++;
        while (c < sm.e && sc->w[c].text[0] == '-') c++;
      } else {
        break;
      }
    }
    sm.c = c;
    if (c < sm.e) fn(ck, rd, sc, &sm, ctx);
    pipe_in = 0;
    i = sm.e;
  }
}

static int memmem_s(const char *p, size_t n, const char *needle) {
  size_t m = strlen(needle);
  for (size_t i = 0; i + m <= n; i++)
    if (!memcmp(p + i, needle, m)) return 1;
  return 0;
}

/* ---- RUN rules ---------------------------------------------------------------------------- */

typedef struct run_state {
  int apt_update, apt_install, lists_cleaned;
  size_t apt_s, apt_e;          /* where apt-get update/install was seen */
  int fetch_piped;              /* a curl/wget stage feeds the next stage */
  size_t fetch_s;
  int pip_cache_mount;          /* RUN --mount=type=cache of pip's cache */
  int depth;                    /* nesting of sh -c scripts */
} run_state;

static int is_shell(const char *n) {
  return eq(n, "sh") || eq(n, "bash") || eq(n, "dash") || eq(n, "zsh") ||
         eq(n, "ash") || eq(n, "ksh");
}

static int is_pip(const char *n) {
  return eq(n, "pip") || eq(n, "pip3") || (!strncmp(n, "pip3.", 5) && n[5]);
}

static void each_simple(bl_check *ck, const bl_read *rd, const sh_script *sc, simple_fn fn, void *ctx);

static void run_simple(bl_check *ck, const bl_read *rd, const sh_script *sc, const simple *sm,
                       void *vctx) {
  run_state *st = vctx;
  const sh_word *w = sc->w;
  const char *cmd = base_name(&w[sm->c]);
  size_t a = sm->c + 1; /* first argument */
  /* Only a few command names matter; most commands are none of them. */
  switch (cmd[0]) {
  case 'a': case 'b': case 'c': case 'd': case 'k': case 'p': case 'r': case 's': case 'w': case 'z':
    break;
  default:
    if (!sm->sudo && !st->fetch_piped) return;
    break;
  }

  if (sm->sudo && is_on(ck, WI_SUDO_USAGE)) {
    const sh_word *sw = &w[sm->sudo - 1];
    boxlint_diag *d = emit_s(ck, rd, sc, "sudo-usage", sw->s, sw->e,
                             "%s: template commands already run as root", "sudo");
    bl_hint(ck, d, "remove sudo; the base image may not even have it installed");
  }

  /* curl | sh */
  if (st->fetch_piped && sm->pipe_in && (is_shell(cmd) || !strncmp(cmd, "python", 6)) &&
      is_on(ck, WI_CURL_PIPE_SHELL)) {
    boxlint_diag *d = emit_s(ck, rd, sc, "curl-pipe-shell", st->fetch_s, w[sm->c].e,
                             "a downloaded script is piped into %s: it runs unchecked, and a "
                             "partial download runs half a script", cmd);
    bl_hint(ck, d, "download to a file with curl -fsSLo, check its checksum (sha256sum -c), "
                   "then run it");
  }
  st->fetch_piped = 0;
  if ((eq(cmd, "curl") || eq(cmd, "wget")) && sm->pipe_out) {
    st->fetch_piped = 1;
    st->fetch_s = w[sm->c].s;
  }

  /* sh -c 'script': the script's commands, reported at the argument word. */
  if (is_shell(cmd) && st->depth < 2) {
    for (size_t k = a; k + 1 < sm->e; k++) {
      if (!eq(w[k].text, "-c") && !(w[k].text[0] == '-' && w[k].text[1] != '-' && strchr(w[k].text, 'c')))
        continue;
      const sh_word *arg = &w[k + 1];
      if ((strstr(arg->text, "$(curl") || strstr(arg->text, "$(wget") || strstr(arg->text, "`curl") ||
           strstr(arg->text, "`wget")) && is_on(ck, WI_CURL_PIPE_SHELL)) {
        boxlint_diag *d = emit_s(ck, rd, sc, "curl-pipe-shell", w[sm->c].s, arg->e,
                                 "a downloaded script is run by %s -c: it runs unchecked", cmd);
        bl_hint(ck, d, "download to a file with curl -fsSLo, check its checksum (sha256sum -c), "
                       "then run it");
      }
      sh_script inner = {NULL, 0, sc->in_input};
      if (!shell_split(ck, arg->text, 0, arg->len, &inner)) {
        for (size_t i = 0; i < inner.n; i++) { /* positions: the whole argument */
          inner.w[i].s = arg->s;
          inner.w[i].e = arg->e;
        }
        run_state sub = *st;
        sub.depth = st->depth + 1;
        sub.fetch_piped = 0;
        each_simple(ck, rd, &inner, run_simple, &sub);
        st->apt_update |= sub.apt_update;
        st->lists_cleaned |= sub.lists_cleaned;
        if (sub.apt_update && !st->apt_e) {
          st->apt_s = sub.apt_s;
          st->apt_e = sub.apt_e;
        }
      }
      break;
    }
  }

  /* apt-get / apt */
  if (eq(cmd, "apt-get") || eq(cmd, "apt") || eq(cmd, "aptitude")) {
    int yes = 0;
    size_t verb = SIZE_MAX;
    for (size_t k = a; k < sm->e; k++) {
      const char *t = w[k].text;
      /* Options that take the next word as their value. */
      int takes_value = eq(t, "-o") || eq(t, "-t") || eq(t, "-c") ||
                        eq(t, "--option") || eq(t, "--target-release") ||
                        eq(t, "--default-release") || eq(t, "--config-file");
      if (takes_value) {
        if (eq(t, "-o") && k + 1 < sm->e && strstr(w[k + 1].text, "Assume-Yes=")) yes = 1;
        k++;
        continue;
      }
      if (t[0] == '-' && t[1] != '-') {
        if (strchr(t + 1, 'y') && t[1] != 'o' && t[1] != 't' && t[1] != 'c') yes = 1;
        if (eq(t, "-qq") || eq(t, "-q=2")) yes = 1; /* quiet level 2 implies -y */
        if (eq(t, "-o") && k + 1 < sm->e && strstr(w[k + 1].text, "Assume-Yes=")) yes = 1;
      } else if (t[0] == '-') {
        if (eq(t, "--yes") || eq(t, "--assume-yes") || !strncmp(t, "--assume-yes=", 13) ||
            eq(t, "--force-yes"))
          yes = 1;
        if (!strncmp(t, "--option=", 9) && strstr(t, "Assume-Yes=")) yes = 1;
      } else if (verb == SIZE_MAX) {
        verb = k;
      }
    }
    if (verb != SIZE_MAX) {
      const char *v = w[verb].text;
      if (eq(v, "update")) {
        st->apt_update = 1;
        st->apt_s = w[sm->c].s;
        st->apt_e = w[verb].e;
      } else if (eq(v, "install") || eq(v, "reinstall") || eq(v, "build-dep") ||
                 eq(v, "dist-upgrade") || eq(v, "upgrade") || eq(v, "full-upgrade") ||
                 eq(v, "remove") || eq(v, "purge") || eq(v, "autoremove")) {
        if (eq(v, "install")) {
          st->apt_install = 1;
          if (!st->apt_update) {
            st->apt_s = w[sm->c].s;
            st->apt_e = w[verb].e;
          }
        }
        if (!yes && !eq(cmd, "aptitude") && is_on(ck, WI_APT_GET_MISSING_YES)) {
          boxlint_diag *d = emit_s(ck, rd, sc, "apt-get-missing-yes", w[sm->c].s, w[verb].e,
                                   "%s without -y: the build is not interactive, so apt stops at "
                                   "its confirmation prompt and the build fails", cmd);
          bl_hint(ck, d, "write %s-get %s -y ...", "apt", v);
        }
        if ((eq(v, "upgrade") || eq(v, "dist-upgrade") || eq(v, "full-upgrade")) &&
            is_on(ck, WI_APT_GET_UPGRADE)) {
          boxlint_diag *d = emit_s(ck, rd, sc, "apt-get-upgrade", w[sm->c].s, w[verb].e,
                                   "%s upgrades every package of the base image, including systemd "
                                   "and the Python that Jupyter runs on", cmd);
          bl_hint(ck, d, "install the packages you need (apt-get install -y pkg=version) and leave "
                         "the base's packages to the platform");
        }
      }
    }
  }
  if (eq(cmd, "rm")) {
    for (size_t k = a; k < sm->e; k++)
      if (!strncmp(w[k].text, "/var/lib/apt/lists", 18)) st->lists_cleaned = 1;
  }
  if (eq(cmd, "apt-get") || eq(cmd, "apt")) {
    /* dist-clean (apt 3) removes the lists; plain clean keeps them. --update on install runs
     * an update first. */
    for (size_t k = a; k < sm->e; k++) {
      if (eq(w[k].text, "dist-clean") || eq(w[k].text, "distclean")) st->lists_cleaned = 1;
      if (eq(w[k].text, "--update") && !st->apt_update) {
        st->apt_update = 1;
        st->apt_s = w[sm->c].s;
        st->apt_e = w[k].e;
      }
    }
  }

  /* pip install without --no-cache-dir */
  size_t pip_at = SIZE_MAX;
  if (is_pip(cmd)) pip_at = sm->c;
  else if (!strncmp(cmd, "python", 6) && a + 1 < sm->e && word_is(&w[a], "-m") &&
           (word_is(&w[a + 1], "pip") || word_is(&w[a + 1], "pip3")))
    pip_at = a + 1;
  if (pip_at != SIZE_MAX) {
    size_t k = pip_at + 1;
    while (k < sm->e && w[k].text[0] == '-') k++;
    if (k < sm->e && word_is(&w[k], "install")) {
      int nocache = 0;
      for (size_t j = pip_at + 1; j < sm->e; j++)
        if (eq(w[j].text, "--no-cache-dir") || !strncmp(w[j].text, "--no-cache-dir=", 15)) nocache = 1;
      for (size_t j = sm->b; j < sm->c; j++)
        if (!strncmp(w[j].text, "PIP_NO_CACHE_DIR=", 17) && w[j].text[17]) nocache = 1;
      if (st->pip_cache_mount) nocache = 1;
      if (!nocache && !ck->pip_no_cache && is_on(ck, WI_PIP_NO_CACHE_DIR)) {
        boxlint_diag *d = emit_s(ck, rd, sc, "pip-no-cache-dir", w[sm->c].s, w[k].e,
                                 "%s install keeps its download cache in the image, which every "
                                 "sandbox of the template then carries", "pip");
        bl_hint(ck, d, "add --no-cache-dir (or set ENV PIP_NO_CACHE_DIR=1 once)");
      }
    }
  }

  /* systemctl during the build */
  if (eq(cmd, "systemctl") && is_on(ck, WI_SYSTEMCTL_IN_BUILD)) {
    size_t k = a;
    while (k < sm->e && w[k].text[0] == '-') k++;
    if (k < sm->e) {
      const char *v = w[k].text;
      if (eq(v, "start") || eq(v, "restart") || eq(v, "reload") ||
          eq(v, "stop") || eq(v, "try-restart") || eq(v, "reload-or-restart") ||
          eq(v, "daemon-reload") || eq(v, "is-active") || eq(v, "status")) {
        boxlint_diag *d = emit_s(ck, rd, sc, "systemctl-in-build", w[sm->c].s, w[k].e,
                                 "systemctl %s during the build: systemd is not running while the "
                                 "image is built, so this fails or does nothing", v);
        bl_hint(ck, d, "use systemctl enable <unit>: systemd (PID 1 in the sandbox) starts it at "
                       "boot");
      }
    }
  }
}

/* Scripts BuildKit runs: the shell-form arguments, and a heredoc body when the heredoc is the
 * script (`RUN <<EOF`, `RUN bash <<EOF`). */
static void check_run_script(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  run_state st;
  memset(&st, 0, sizeof st);
  for (size_t i = 0; i < c->nflags; i++) {
    const boxlint_span *f = &ck->cx.flags[c->flag0 + i].value;
    if (f->len > 8 && !memcmp(f->ptr, "--mount=", 8) && memmem_s(f->ptr, f->len, "type=cache") &&
        memmem_s(f->ptr, f->len, "pip"))
      st.pip_cache_mount = 1;
  }
  sh_script sc = {NULL, 0, 0};
  if (c->json) {
    /* Exec form: no shell, but the program and its arguments are still what runs. */
    if (!c->json_count) return;
    sc.w = boxlint__ralloc(ck->cx.r, sizeof(sh_word) * c->json_count);
    if (!sc.w) return;
    bl_buf b = {0};
    for (size_t i = 0; i < c->json_count; i++) {
      if (bl_json_element(ck->cx.m, rd->logical + c->args_l, c->args_n, i, &b)) break;
      sh_word *x = &sc.w[sc.n++];
      memset(x, 0, sizeof *x);
      x->s = c->args_l;
      x->e = c->args_l + c->args_n;
      x->text = boxlint__rstrdup(ck->cx.r, b.p ? b.p : "", b.len);
      x->len = b.len;
      x->quoted = 1;
      if (!x->text) { sc.n--; break; }
    }
    bl_buf_free(ck->cx.m, &b);
    each_simple(ck, rd, &sc, run_simple, &st);
    return;
  }
  if (shell_split(ck, rd->logical, c->args_l, c->args_l + c->args_n, &sc)) return;
  each_simple(ck, rd, &sc, run_simple, &st);
  /* A body that is the script: the command words before the opener are empty or a shell. */
  /* BuildKit runs the body as the script when the line is the opener alone (RUN <<EOF);
   * a shell with only options beside the opener (RUN bash -ex <<EOF) reads it too. Anything
   * else (RUN cat <<EOF > f, RUN python3 <<EOF) gets the body as data. */
  int body_is_script = 0;
  if (rd->nheredocs) {
    size_t others = 0, opener = 0, first_other = SIZE_MAX;
    int shell_only = 1;
    for (size_t k = 0; k < sc.n; k++) {
      const sh_word *x = &sc.w[k];
      if (x->op) { shell_only = 0; continue; }
      if (!strncmp(x->text, "<<", 2)) {
        opener++;
        if (x->len == 2 || (x->len == 3 && x->text[2] == '-')) k++; /* "<< EOF": the name */
        continue;
      }
      if (first_other == SIZE_MAX) {
        first_other = k;
        if (!is_shell(base_name(x))) shell_only = 0;
      } else if (x->text[0] != '-') {
        shell_only = 0;
      }
      others++;
    }
    body_is_script = opener == 1 && (others == 0 || shell_only);
  }
  if (body_is_script) {
    const boxlint_heredoc *h = &rd->heredocs[0];
    sh_script bs = {NULL, 0, 1};
    size_t base = (size_t)(h->body.ptr - (const char *)ck->cx.buf);
    if (!shell_split(ck, (const char *)ck->cx.buf, base, base + h->body.len, &bs)) {
      run_state bst = st;
      bst.fetch_piped = 0;
      each_simple(ck, rd, &bs, run_simple, &bst);
      st.apt_update |= bst.apt_update;
      st.apt_install |= bst.apt_install;
      st.lists_cleaned |= bst.lists_cleaned;
      if (!st.apt_e && bst.apt_e) { /* report at the opener */
        st.apt_s = c->args_l;
        st.apt_e = c->args_l + 2;
      }
    }
  }
  /* Only a RUN that downloads lists (update) leaves them in its layer. */
  if (st.apt_update && !st.lists_cleaned && is_on(ck, WI_APT_LISTS_NOT_CLEANED)) {
    /* A cache mount of the lists keeps them out of the image. */
    int cached = 0;
    for (size_t i = 0; i < c->nflags; i++) {
      const boxlint_span *f = &ck->cx.flags[c->flag0 + i].value;
      if (f->len > 8 && !memcmp(f->ptr, "--mount=", 8) && memmem_s(f->ptr, f->len, "/var/lib/apt"))
        cached = 1;
    }
    if (!cached) {
      boxlint_diag *d = bl_emit_l(ck, rd, "apt-lists-not-cleaned", st.apt_s, st.apt_e,
                                  "apt-get %s leaves the package lists in the image (tens of MB in "
                                  "every sandbox)", "update");
      bl_hint(ck, d, "end the same RUN with && rm -rf /var/lib/apt/lists/*");
    }
  }
}

/* ---- Secrets ------------------------------------------------------------------------------ */

/* "ghp_**** (40 characters)": a token's public prefix at most, never the secret. */
static const char *mask(bl_check *ck, const char *p, size_t n) {
  static const char *const prefixes[] = {"github_pat_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_",
                                         "glpat-", "xoxb-", "xoxp-", "xoxa-", "xoxo-", "xoxr-",
                                         "xoxs-", "sk-proj-", "sk-", "AKIA", "ASIA", 0};
  size_t keep = 0;
  for (int i = 0; prefixes[i]; i++) {
    size_t l = strlen(prefixes[i]);
    if (n > l + 8 && !memcmp(p, prefixes[i], l)) {
      keep = l;
      break;
    }
  }
  char buf[16];
  memcpy(buf, p, keep);
  buf[keep] = 0;
  const char *m = boxlint__rprintf(ck->cx.r, "%s**** (%zu characters)", buf, n);
  return m ? m : "****";
}

static const char *token_kind(const char *p) {
  if (!strncmp(p, "AKIA", 4) || !strncmp(p, "ASIA", 4)) return "an AWS access key id";
  if (!strncmp(p, "gh", 2) || !strncmp(p, "github_pat_", 11)) return "a GitHub token";
  if (!strncmp(p, "glpat-", 6)) return "a GitLab token";
  if (!strncmp(p, "xox", 3)) return "a Slack token";
  if (!strncmp(p, "-----BEGIN", 10)) return "a private key";
  return "an API key";
}

static const char SECRET_HINT[] =
    "remove it: everything in a template command is stored in the image that every sandbox of "
    "the template gets; pass credentials at run time instead (environment of the sandbox, a "
    "secret store)";

/* Run the secret patterns over [s, e) of `text` (logical line, or input when in_input). */
/* Where a pattern can start: the secret patterns are compiled anchored (PCRE2_ANCHORED), and
 * this cheap scan proposes the few offsets where each could match, so that PCRE2 runs on a
 * handful of places per command instead of every byte. */
static int is_alnum_c(unsigned char c) { return boxlint__is_alpha(c) || boxlint__is_digit(c); }

/* First characters of the secret patterns: bit 1 token, bit 2 assignment keyword, bit 4 ':'. */
static const unsigned char SECRET_FIRST[256] = {
  ['A'] = 1 | 2, ['g'] = 1, ['x'] = 1, ['s'] = 1 | 2, ['-'] = 1, ['a'] = 2, ['p'] = 2, ['P'] = 2,
  ['S'] = 2, ['t'] = 2, ['T'] = 2, [':'] = 4,
};

/* Whether the anchored token pattern can match at p[0..n): its alternatives' literal starts. */
static int token_start(const char *p, size_t n) {
  if (n < 3) return 0;
  switch (p[0]) {
  case 'A': return n >= 4 && (p[1] == 'K' || p[1] == 'S') && p[2] == 'I' && p[3] == 'A';
  case 'g':
    return p[1] == 'h' || (n >= 11 && !memcmp(p, "github_pat_", 11)) ||
           (n >= 6 && !memcmp(p, "glpat-", 6));
  case 'x': return p[1] == 'o' && p[2] == 'x';
  case 's': return p[1] == 'k' && p[2] == '-';
  case '-': return n >= 11 && !memcmp(p, "-----BEGIN ", 11);
  default: return 0;
  }
}

/* Whether the anchored, caseless assignment pattern can match at p[0..n): its keywords start
 * with pas, pwd, sec, tok, api or acc. A non-ASCII byte may be a letter that folds to ASCII
 * (U+017F to s, U+212A to k): then PCRE2 decides. */
static int assign_start(const char *p, size_t n) {
  if (n < 3) return 0;
  unsigned char a = (unsigned char)p[0], b = (unsigned char)p[1], c = (unsigned char)p[2];
  if (a >= 0x80 || b >= 0x80 || c >= 0x80) return 1;
  a = boxlint__lower(a);
  b = boxlint__lower(b);
  c = boxlint__lower(c);
  switch (a) {
  case 'p': return (b == 'a' && c == 's') || (b == 'w' && c == 'd');
  case 's': return b == 'e' && c == 'c';
  case 't': return b == 'o' && c == 'k';
  case 'a': return (b == 'p' && c == 'i') || (b == 'c' && c == 'c');
  default: return 0;
  }
}

/* ---- What is not a secret (issue 12) --------------------------------------------------------
 * A secret-looking name with a value that only says where the secret is: a path, a variable,
 * nothing. These run only after a pattern matched (the assignment pattern in RUN, LABEL and
 * heredoc bodies; the name pattern of ENV/ARG), never in the scan for candidates. */

/* Names whose value is a location: *_FILE (the convention of the official images and of
 * Docker secrets: POSTGRES_PASSWORD_FILE=/run/secrets/db), *_PATH, *_DIR, *_URL... Compared
 * without regard to case, at the end of the name only (TOKEN_FILE_MODE is not one). A value
 * that holds a secret anyway (a token, https://user:pass@host, ?token=...) is still scanned
 * for one by the caller. */
static int names_a_location(const char *p, size_t n) {
  static const char *const suffixes[] = {"_file", "_files", "_filename", "_path", "_dir",
                                         "_directory", "_url", "_uri", 0};
  for (int i = 0; suffixes[i]; i++) {
    size_t l = strlen(suffixes[i]);
    if (n > l && boxlint__ieq(p + n - l, l, suffixes[i])) return 1;
  }
  return 0;
}

/* Whether p[0..n) is a file-system path as a template writes one: /abs, ./rel, ../rel, ~/x or
 * ~user/x (BuildKit does not expand ~; the program reading the variable may), in the characters
 * of file names (and $VAR, ${VAR} parts). A relative name without ./ (secrets/t) is not taken
 * for a path: a secret can look like that. Base64 secrets contain '/' too (an AWS secret access
 * key starts with one in 64 cases), so a path has no '+', '=' or "//", and none of its parts is
 * a run of 12 or more letters and digits mixing upper case, lower case and digits without '.',
 * '-' or '_' (random, not a name). */
static int is_path(const char *p, size_t n) {
  size_t i = 0;
  if (n >= 1 && p[0] == '/') i = 1;
  else if (n >= 2 && p[0] == '.' && p[1] == '/') i = 2;
  else if (n >= 3 && p[0] == '.' && p[1] == '.' && p[2] == '/') i = 3;
  else if (n >= 1 && p[0] == '~') {
    i = 1; /* ~ or ~user, then '/' or the end */
    while (i < n && (is_alnum_c((unsigned char)p[i]) || p[i] == '_' || p[i] == '-' || p[i] == '.'))
      i++;
    if (i < n && p[i++] != '/') return 0;
  } else {
    return 0;
  }
  size_t seg = i;
  int up = 0, lo = 0, dg = 0, sep = 0;
  for (; i <= n; i++) {
    unsigned char c = i < n ? (unsigned char)p[i] : '/';
    if (c == '/') {
      if (i == seg && i < n) return 0; /* "//" */
      if (i - seg >= 12 && up && lo && dg && !sep) return 0;
      seg = i + 1;
      up = lo = dg = sep = 0;
    } else if (c >= 'A' && c <= 'Z') {
      up = 1;
    } else if (c >= 'a' && c <= 'z') {
      lo = 1;
    } else if (boxlint__is_digit(c)) {
      dg = 1;
    } else if (c == '.' || c == '-' || c == '_') {
      sep = 1;
    } else if (c < 0x80 && (c == 0 || !strchr("~@:,${}", c))) {
      return 0;
    }
  }
  return 1;
}

/* ${NAME:-word}, ${NAME-word}, ${NAME:+word}, ${NAME+word} at the start of p[0..n): the word,
 * which becomes the value when NAME is unset (set, for +). Templates are built without build
 * arguments, so a default is what the image gets. 0 for $NAME, ${NAME}, ${NAME:?message},
 * $(command) and anything else. */
static int var_default(const char *p, size_t n, const char **w, size_t *wn) {
  if (n < 4 || p[0] != '$' || p[1] != '{') return 0;
  size_t i = 2;
  while (i < n && (is_alnum_c((unsigned char)p[i]) || p[i] == '_')) i++;
  if (i == 2 || i >= n) return 0;
  if (p[i] == ':') i++;
  if (i >= n || (p[i] != '-' && p[i] != '+')) return 0;
  size_t s = ++i;
  for (int depth = 1; i < n; i++) {
    if (p[i] == '{') depth++;
    else if (p[i] == '}' && --depth == 0) break;
  }
  *w = p + s;
  *wn = i - s;
  return 1;
}

/* Whether an ENV/ARG value (unquoted) holds no secret by its form: empty, a variable reference
 * ($X, ${X}, "$X") whose default, if any, holds none either, or a path (only a one-word value
 * can be one). Otherwise *lit is the literal the image gets: the value, or the default. */
static int value_holds_no_secret(const char *p, size_t n, int one_word, const char **lit,
                                 size_t *litn) {
  int is_default = 0;
  for (;;) { /* a loop, not recursion: ${A:-${B:-...}} nests as deep as the input allows */
    if (n == 0) return 1;
    if (p[0] == '$') {
      const char *w;
      size_t wn;
      if (!var_default(p, n, &w, &wn)) return 1; /* $X, ${X}, $(...): not a literal */
      p = w;
      n = wn;
      is_default = 1;
      continue;
    }
    if ((one_word || is_default) && is_path(p, n)) return 1;
    *lit = p;
    *litn = n;
    return 0;
  }
}

/* An assignment match (name from ms, value [vs, ve)) that names a location or whose value is a
 * path: TOKEN_FILE=/run/secrets/t, password_file: secrets.txt, token=~/.config/t. The name is
 * the keyword the pattern matched and the name bytes after it. */
static int assignment_holds_no_secret(const char *text, size_t ms, size_t vs, size_t ve) {
  size_t ne = ms;
  while (ne < vs && (is_alnum_c((unsigned char)text[ne]) || text[ne] == '_' ||
                     (unsigned char)text[ne] >= 0x80))
    ne++;
  return names_a_location(text + ms, ne - ms) || is_path(text + vs, ve - vs);
}

static void scan_secrets(bl_check *ck, const bl_read *rd, const char *text, size_t s, size_t e,
                         int in_input, int assignments) {
  const boxlint_config *cfg = ck->opts->config;
  pcre2_match_data *md = NULL;
  int reports = 0;
  size_t skip_to = s; /* after a match, later candidates inside it are not tried */
  for (size_t i = s; i < e && reports < 16; i++) {
    while (i < e && !SECRET_FIRST[(unsigned char)text[i]]) i++; /* to the next candidate */
    if (i == e) break;
    unsigned bits = SECRET_FIRST[(unsigned char)text[i]];
    if (i < skip_to) continue;
    unsigned char prev = i > s ? (unsigned char)text[i - 1] : ' ';
    /* Which anchored pattern can start here; PCRE2 runs only where one can. */
    int tok = (bits & 1) && !is_alnum_c(prev) && token_start(text + i, e - i);
    int asg = (bits & 2) && assignments && !boxlint__is_alpha(prev) && assign_start(text + i, e - i);
    enum bl_pattern k;
    if (tok) k = BL_RE_SECRET_TOKEN;
    else if (asg) k = BL_RE_SECRET_ASSIGN;
    else if ((bits & 4) && e - i >= 3 && text[i + 1] == '/' && text[i + 2] == '/') k = BL_RE_URL_USERINFO;
    else continue;
    if (!md && !(md = match_data(ck))) return;
    int rc = bl_re_match(cfg, cfg->re[k], md, text + s, e - s, i - s);
    if (rc == 0 && k == BL_RE_SECRET_TOKEN && asg) {
      k = BL_RE_SECRET_ASSIGN; /* 'A' and 's' start both */
      rc = bl_re_match(cfg, cfg->re[k], md, text + s, e - s, i - s);
    }
    if (rc == -1) {
      boxlint_diag *d = bl_emit(ck, "regex-limit", rd->start, rd->end,
                                "the secret-in-command patterns hit the match limit on this "
                                "command; it was not checked for %s", "secrets");
      bl_hint(ck, d, "split the command");
      return;
    }
    if (rc <= 0) continue;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    size_t ms = s + ov[0], me = s + ov[1];
    size_t vs = ms, ve = me; /* the secret itself */
    const char *what;
    if (k == BL_RE_SECRET_TOKEN) {
      what = token_kind(text + ms);
    } else if (k == BL_RE_URL_USERINFO) {
      vs = s + ov[4];
      ve = s + ov[5];
      what = "a password in a URL";
    } else {
      vs = s + ov[2];
      ve = s + ov[3];
      what = "a credential assigned literally";
    }
    if (text[vs] == '$') continue; /* a variable, not a literal secret */
    if (k == BL_RE_SECRET_ASSIGN && assignment_holds_no_secret(text, ms, vs, ve)) continue;
    if (k != BL_RE_SECRET_TOKEN && bl_re_match(cfg, cfg->re[BL_RE_SECRET_TOKEN], md, text + s, e - s, vs - s) > 0) {
      /* The value is a known token format: name it (more useful than "a password"). */
      ov = pcre2_get_ovector_pointer(md);
      vs = s + ov[0];
      ve = s + ov[1];
      what = token_kind(text + vs);
    }
    skip_to = ve;
    /* One report per secret: skip a match that overlaps one already reported. */
    size_t is = in_input ? vs : bl_logical_to_input(&ck->cx, rd, vs);
    size_t ie = in_input ? ve : (ve > vs ? bl_logical_to_input(&ck->cx, rd, ve - 1) + 1 : is);
    int seen = 0;
    for (int q = 0; q < ck->nsec; q++) seen |= is < ck->sec_e[q] && ie > ck->sec_s[q];
    if (seen) continue;
    if (ck->nsec < 8) {
      ck->sec_s[ck->nsec] = is;
      ck->sec_e[ck->nsec] = ie;
      ck->nsec++;
    }
    reports++;
    boxlint_diag *d;
    const char *m = mask(ck, text + vs, ve - vs);
    if (in_input)
      d = bl_emit(ck, "secret-in-command", vs, ve, "%s (%s) is baked into the image", what, m);
    else
      d = bl_emit_l(ck, rd, "secret-in-command", vs, ve, "%s (%s) is baked into the image", what, m);
    bl_hint(ck, d, "%s", SECRET_HINT);
  }
}

/* ENV/ARG `name` (nl bytes) set to `val` (unquoted; [vs, ve) of the logical line): a
 * secret-looking name with a literal value, or with a literal default. */
static void env_arg_secret(bl_check *ck, const bl_read *rd, const bl_cmdline *c, const char *name,
                           size_t nl, const char *val, size_t vs, size_t ve, int one_word) {
  const char *lit = NULL;
  size_t litn = 0;
  /* $X and ${X} skip the name pattern; other values are looked at only when the name matched. */
  if (val[0] == '$' && !var_default(val, strlen(val), &lit, &litn)) return;
  const boxlint_config *cfg = ck->opts->config;
  pcre2_match_data *md = match_data(ck);
  if (!md || bl_re_match(cfg, cfg->re[BL_RE_SECRET_NAME], md, name, nl, 0) <= 0) return;
  if (value_holds_no_secret(val, strlen(val), one_word, &lit, &litn)) return;
  if (names_a_location(name, nl)) {
    /* The value says where the secret is; it may still hold one (a token, user:pass@, ?token=). */
    scan_secrets(ck, rd, rd->logical, vs, ve, 0, 1);
    return;
  }
  if (ck->nsec < 8) {
    ck->sec_s[ck->nsec] = bl_logical_to_input(&ck->cx, rd, vs);
    ck->sec_e[ck->nsec] = ve > vs ? bl_logical_to_input(&ck->cx, rd, ve - 1) + 1 : ck->sec_s[ck->nsec];
    ck->nsec++;
  }
  const char *nm = boxlint__rstrdup(ck->cx.r, name, nl);
  boxlint_diag *d = bl_emit_l(ck, rd, "secret-in-command", vs, ve,
                              "%s %s %s a literal value (%s), which is baked into the image",
                              boxlint_keyword_name(c->folded), nm ? nm : "",
                              lit == val ? "is set to" : "defaults to", mask(ck, lit, litn));
  bl_hint(ck, d, "%s", SECRET_HINT);
}

/* ENV and ARG: names that look secret, with literal values. */
static void check_env_arg(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  sh_script sc = {NULL, 0, 0};
  if (shell_split(ck, rd->logical, c->args_l, c->args_l + c->args_n, &sc)) return;
  int legacy = c->folded == BOXLINT_KW_ENV && sc.n && !strchr(sc.w[0].text ? sc.w[0].text : "=", '=');
  for (size_t i = 0; i < sc.n; i++) {
    const sh_word *w = &sc.w[i];
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
    if (c->folded == BOXLINT_KW_ENV && nl == 16 && !memcmp(w->text, "PIP_NO_CACHE_DIR", 16) && val[0])
      ck->pip_no_cache = 1;
    if (c->folded == BOXLINT_KW_ENV && is_on(ck, WI_ENV_OVERRIDES_RUNTIME)) {
      const char *bad = NULL;
      if (nl == 4 && !memcmp(w->text, "PATH", 4) && !strstr(val, "$PATH") && !strstr(val, "${PATH}"))
        bad = "replaces PATH, so the base's Python, Jupyter and shim are no longer found";
      else if (nl == 10 && !memcmp(w->text, "LD_PRELOAD", 10) && val[0])
        bad = "loads a library into every process of the sandbox, systemd and Jupyter included";
      else if (nl == 15 && !memcmp(w->text, "LD_LIBRARY_PATH", 15) && !strstr(val, "$LD_LIBRARY_PATH") &&
               !strstr(val, "${LD_LIBRARY_PATH}") && val[0])
        bad = "changes which shared libraries every process of the sandbox loads";
      else if (nl == 10 && !memcmp(w->text, "PYTHONHOME", 10))
        bad = "points every Python of the sandbox, Jupyter's included, at another installation";
      if (bad) {
        const char *nm = boxlint__rstrdup(ck->cx.r, w->text, nl);
        boxlint_diag *d = bl_emit_l(ck, rd, "env-overrides-runtime", w->s, legacy ? ve : w->e,
                                    "ENV %s %s", nm ? nm : "", bad);
        bl_hint(ck, d, "extend instead of replacing, e.g. ENV PATH=/opt/tool/bin:$PATH");
      }
    }
    if (val[0] && is_on(ck, WI_SECRET_IN_COMMAND))
      env_arg_secret(ck, rd, c, w->text, nl, val, vs, ve, !legacy || sc.n <= 2);
  }
}

/* ---- RUN flags ---------------------------------------------------------------------------- */

static void check_run_flags(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  for (size_t i = 0; i < c->nflags; i++) {
    const bl_flag *f = &ck->cx.flags[c->flag0 + i];
    const char *v = f->value.ptr;
    size_t n = f->value.len;
    if (n > 8 && !memcmp(v, "--mount=", 8)) {
      const char *type = "bind";
      size_t tl = 4;
      const char *from = NULL;
      size_t fl = 0;
      for (size_t s = 8; s < n;) {
        size_t e = s;
        while (e < n && v[e] != ',') e++;
        if (e - s > 5 && !memcmp(v + s, "type=", 5)) { type = v + s + 5; tl = e - s - 5; }
        if (e - s > 5 && !memcmp(v + s, "from=", 5)) { from = v + s + 5; fl = e - s - 5; }
        s = e + 1;
      }
      if (from && is_on(ck, WI_RUN_MOUNT_FROM_IMAGE)) {
        const char *q = bl_q(ck, from, fl);
        boxlint_diag *d = bl_emit_l(ck, rd, "run-mount-from-image", f->l_start, f->l_end,
                                    "RUN --mount from=%s pulls another image into the build, as "
                                    "FROM or COPY --from would", q);
        bl_hint(ck, d, "install what you need with RUN (apt-get, pip, curl) instead of mounting "
                       "another image");
      } else if (tl == 4 && !memcmp(type, "bind", 4) && is_on(ck, WI_RUN_MOUNT_CONTEXT)) {
        boxlint_diag *d = bl_emit_l(ck, rd, "run-mount-context", f->l_start, f->l_end,
                                    "RUN --mount of type %s reads the build context, and templates "
                                    "are built without one", "bind");
        bl_hint(ck, d, "write files with a heredoc in RUN, or fetch them with curl");
      }
    } else if ((n == 19 && !memcmp(v, "--security=insecure", 19)) ||
               (n == 14 && !memcmp(v, "--network=host", 14))) {
      if (is_on(ck, WI_RUN_INSECURE)) {
        boxlint_diag *d = bl_emit_l(ck, rd, "run-insecure", f->l_start, f->l_end,
                                    "%s needs a builder entitlement the platform does not grant: "
                                    "the build fails", bl_q(ck, v, n));
        bl_hint(ck, d, "remove the flag");
      }
    }
  }
}

/* ---- User rules ----------------------------------------------------------------------------- */

static void limit_hit(bl_check *ck, const char *id, size_t s, size_t e) {
  boxlint_diag *d = bl_emit(ck, "regex-limit", s, e,
                            "rule %s hit the regular-expression match limit on this command; "
                            "it was not checked", id);
  bl_hint(ck, d, "simplify the rule's pattern (avoid nested quantifiers) or raise the limits");
}

/* Each user rule matches the logical instruction and each heredoc body; one report per rule
 * and command (the first match). */
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
      if (in_body) {
        bl_emit_sev(ck, id, u->sev, s, e, "%s", u->message[0] ? u->message : id);
      } else {
        size_t is = bl_logical_to_input(&ck->cx, rd, s);
        size_t ie = e > s ? bl_logical_to_input(&ck->cx, rd, e - 1) + 1 : is;
        bl_emit_sev(ck, id, u->sev, is, ie, "%s", u->message[0] ? u->message : id);
      }
    }
  }
}

/* ---- Per instruction and per template --------------------------------------------------- */

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
  sh_script sc = {NULL, 0, 0};
  if (shell_split(ck, rd->logical, c->args_l, c->args_l + c->args_n, &sc) || !sc.n || sc.w[0].op)
    return NULL;
  return sc.w[0].text;
}

static int stopsignal_is_systemds(const char *v) {
  if (!v) return 1;
  if (eq(v, "37")) return 1;
  if (boxlint__ieq(v, 3, "sig")) v += 3;
  return boxlint__ieq(v, strlen(v), "rtmin+3");
}

static void per_keyword(bl_check *ck, const bl_read *rd, const bl_cmdline *c, int trigger) {
  const char *L = rd->logical;
  switch (c->folded) {
  case BOXLINT_KW_FROM:
    if (trigger) break;
    /* A new stage (in a fragment that is a whole Dockerfile): USER and ENV start afresh. */
    ck->last_user_cmd = -1;
    ck->pip_no_cache = 0;
    break;
  case BOXLINT_KW_RUN:
    check_run_flags(ck, rd, c);
    check_run_script(ck, rd, c);
    break;
  case BOXLINT_KW_ENV:
  case BOXLINT_KW_ARG:
    check_env_arg(ck, rd, c);
    break;
  case BOXLINT_KW_USER: {
    /* Remember the last USER; final-user-not-root is decided after the last command. A trigger
     * runs in later builds, not in this image. */
    if (trigger) break;
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
    break;
  }
  case BOXLINT_KW_STOPSIGNAL: {
    size_t s = c->args_l, e = c->args_l + c->args_n;
    if (stopsignal_is_systemds(unquoted_arg(ck, rd, c))) break; /* what systemd expects */
    if (is_on(ck, WI_STOPSIGNAL_OVERRIDES_SYSTEMD)) {
      boxlint_diag *d = bl_emit_l(ck, rd, "stopsignal-overrides-systemd", c->kw_l, e,
                                  "STOPSIGNAL %s replaces SIGRTMIN+3, the signal systemd (PID 1) "
                                  "shuts down on: the sandbox no longer stops cleanly",
                                  bl_q(ck, L + s, e - s));
      bl_hint(ck, d, "remove it; stop services through their systemd units");
    }
    break;
  }
  case BOXLINT_KW_HEALTHCHECK: {
    size_t s = c->args_l;
    if (c->args_n >= 4 && boxlint__ieq(L + s, 4, "none")) break;
    if (c->args_n && is_on(ck, WI_HEALTHCHECK_IN_TEMPLATE)) {
      boxlint_diag *d = bl_emit_l(ck, rd, "healthcheck-in-template", c->kw_l, c->args_l + c->args_n,
                                  "HEALTHCHECK runs a command in every sandbox on a timer and "
                                  "replaces the base's own; %s", "the platform does not use it");
      bl_hint(ck, d, "remove it; supervise services with systemd units (Restart=on-failure)");
    }
    break;
  }
  case BOXLINT_KW_WORKDIR: {
    size_t s = c->args_l;
    const char *dir = unquoted_arg(ck, rd, c);
    if (dir && dir[0] && dir[0] != '/' && dir[0] != '$' && !c->json && is_on(ck, WI_WORKDIR_RELATIVE)) {
      boxlint_diag *d = bl_emit_l(ck, rd, "workdir-relative", s, s + c->args_n,
                                  "WORKDIR %s is relative to the base image's working directory, "
                                  "which the platform may change", bl_q(ck, L + s, c->args_n));
      bl_hint(ck, d, "use an absolute path, e.g. WORKDIR /home/user/%s", bl_q(ck, L + s, c->args_n));
    }
    break;
  }
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
  if (is_on(ck, WI_SECRET_IN_COMMAND)) {
    /* Unknown instructions too: a forgotten RUN still carries its secret. */
    int assignments = !t->folded || t->folded == BOXLINT_KW_RUN || t->folded == BOXLINT_KW_LABEL ||
                      t->folded == BOXLINT_KW_HEALTHCHECK;
    scan_secrets(ck, rd, rd->logical, c->folded ? c->flags_l : c->kw_l, rd->llen, 0, assignments);
    for (size_t h = 0; h < rd->nheredocs; h++) {
      const boxlint_heredoc *hd = &rd->heredocs[h];
      size_t base = (size_t)(hd->body.ptr - (const char *)ck->cx.buf);
      scan_secrets(ck, rd, (const char *)ck->cx.buf, base, base + hd->body.len, 1, 1);
    }
  }
  user_rules(ck, rd);
}

void bl_warn_finish(bl_check *ck) {
  if (ck->last_user_cmd < 0 || ck->last_user_root) return;
  boxlint_severity sev = bl_config_severity(ck->opts->config, "final-user-not-root",
                                            BOXLINT_SEVERITY_WARNING);
  if (sev == BOXLINT_SEVERITY_OFF) return;
  boxlint_report *r = ck->cx.r;
  boxlint_diag *d = boxlint__report_add(r, "final-user-not-root", sev, ck->last_user_cmd);
  if (!d) return;
  d->line = ck->last_user_line;
  d->column = ck->last_user_col;
  d->end_line = ck->last_user_eline;
  d->end_column = ck->last_user_ecol;
  d->offset = ck->last_user_off;
  d->end_offset = ck->last_user_end;
  d->message = boxlint__rprintf(r, "the template ends as USER %s: the base starts systemd as PID "
                                   "1, which then runs without root and cannot start the sandbox's "
                                   "services", ck->last_user_text ? ck->last_user_text : "");
  if (!d->message) d->message = "";
  d->hint = "switch back with USER root at the end; run your own services as that user through "
            "systemd units (User=) instead";
}

/*
 * Checking commands, fragments and the base: the rules of DESIGN §2.1 over what the reader
 * (dockerfile_lexer.re) says BuildKit sees.
 */
#include <stdio.h>
#include <string.h>
#include "config_int.h"

static const char *const KW_NAMES[] = {"", "ADD", "ARG", "CMD", "COPY", "ENTRYPOINT", "ENV",
                                       "EXPOSE", "FROM", "HEALTHCHECK", "LABEL", "MAINTAINER",
                                       "ONBUILD", "RUN", "SHELL", "STOPSIGNAL", "USER", "VOLUME",
                                       "WORKDIR"};

const char *boxlint_keyword_name(boxlint_keyword kw) {
  return (unsigned)kw < sizeof KW_NAMES / sizeof KW_NAMES[0] ? KW_NAMES[kw] : "";
}

void boxlint_options_init(boxlint_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->size = sizeof *o;
  o->max_commands = BOXLINT_DEFAULT_MAX_COMMANDS;
  o->max_command_bytes = BOXLINT_DEFAULT_MAX_COMMAND_BYTES;
  o->escape = '\\';
  o->cpu_min = 1;
  o->cpu_max = 8;
  o->memory_min = 512;
  o->memory_max = 16384;
}

/* ---- Emitting --------------------------------------------------------------------------- */

/* Line and column of input offset o, relative to the input's first line. Columns count code
 * points; a byte that is not part of valid UTF-8 counts as one. */
static void pos_of(const bl_check *ck, size_t o, uint32_t *line, uint32_t *col) {
  const unsigned char *b = ck->cx.buf;
  uint32_t l = ck->line_base, c = 1;
  if (o > ck->cx.len) o = ck->cx.len;
  for (size_t i = 0; i < o;) {
    if (b[i] == '\n') {
      l++;
      c = 1;
      i++;
      continue;
    }
    uint32_t cp;
    size_t w = b[i] < 0x80 ? 1 : boxlint__utf8_decode(b + i, ck->cx.len - i, &cp);
    i += w ? w : 1;
    c++;
  }
  *line = l;
  *col = c;
}

void bl_position(const bl_check *ck, size_t o, uint32_t *line, uint32_t *col) {
  pos_of(ck, o, line, col);
}

static boxlint_diag *emit_v(bl_check *ck, const char *rule, boxlint_severity sev, size_t s,
                            size_t e, const char *fmt, va_list ap) {
  boxlint_report *r = ck->cx.r;
  if (sev == BOXLINT_SEVERITY_OFF) return NULL;
  boxlint_diag *d = boxlint__report_add(r, rule, sev, ck->command);
  if (!d) return NULL;
  if (e < s) e = s;
  pos_of(ck, s, &d->line, &d->column);
  pos_of(ck, e, &d->end_line, &d->end_column);
  d->offset = ck->off_base + s;
  d->end_offset = ck->off_base + e;
  const char *m = boxlint__rvprintf(r, fmt, ap);
  d->message = m ? m : "";
  return d;
}

static boxlint_severity severity_of(const bl_check *ck, const char *rule) {
  boxlint_severity def = bl_rule_severity(rule);
  return def == BOXLINT_SEVERITY_ERROR ? def : bl_config_severity(ck->opts->config, rule, def);
}

boxlint_diag *bl_emit(bl_check *ck, const char *rule, size_t s, size_t e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  boxlint_diag *d = emit_v(ck, rule, severity_of(ck, rule), s, e, fmt, ap);
  va_end(ap);
  return d;
}

boxlint_diag *bl_emit_l(bl_check *ck, const bl_read *rd, const char *rule, size_t ls, size_t le,
                        const char *fmt, ...) {
  size_t s = bl_logical_to_input(&ck->cx, rd, ls);
  size_t e = le > ls ? bl_logical_to_input(&ck->cx, rd, le - 1) + 1 : s;
  va_list ap;
  va_start(ap, fmt);
  boxlint_diag *d = emit_v(ck, rule, severity_of(ck, rule), s, e, fmt, ap);
  va_end(ap);
  return d;
}

boxlint_diag *bl_emit_sev(bl_check *ck, const char *rule, boxlint_severity sev, size_t s,
                          size_t e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  boxlint_diag *d = emit_v(ck, rule, sev, s, e, fmt, ap);
  va_end(ap);
  return d;
}

void bl_hint(bl_check *ck, boxlint_diag *d, const char *fmt, ...) {
  if (!d) return;
  if (!strchr(fmt, '%')) { /* a literal: static storage, nothing to format */
    d->hint = fmt;
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  d->hint = boxlint__rvprintf(ck->cx.r, fmt, ap);
  va_end(ap);
}

const char *bl_q(bl_check *ck, const char *p, size_t n) {
  const char *q = boxlint__quote(ck->cx.r, p, n, 60);
  return q ? q : "";
}

/* ---- Rules ------------------------------------------------------------------------------ */

static void check_bytes(bl_check *ck) {
  static const char *const rule[] = {NULL, BL_R_NUL, BL_R_BARE_CR, BL_R_CONTROL, BL_R_UTF8};
  size_t pos = 0, n;
  enum bl_byte_problem p = bl_lex_bytes(ck->cx.buf, ck->cx.len, &pos, &n);
  ck->bad_utf8 = 0;
  if (p == BL_BYTES_OK) return; /* the common case */
  size_t first[5] = {0}, count[5] = {0};
  for (; p != BL_BYTES_OK; p = bl_lex_bytes(ck->cx.buf, ck->cx.len, &pos, &n)) {
    if (!count[p]++) first[p] = pos;
    pos += n;
  }
  ck->bad_utf8 = count[BL_BYTES_BAD_UTF8] != 0;
  for (int k = 1; k <= 4; k++) {
    if (!count[k]) continue;
    unsigned char b = ck->cx.buf[first[k]];
    char more[48] = "";
    if (count[k] > 1) snprintf(more, sizeof more, " (%zu in the command)", count[k]);
    boxlint_diag *d;
    switch (k) {
    case BL_BYTES_NUL:
      d = bl_emit(ck, rule[k], first[k], first[k] + 1, "NUL byte in the command%s", more);
      bl_hint(ck, d, "remove the NUL byte; Dockerfiles are text");
      break;
    case BL_BYTES_BARE_CR:
      d = bl_emit(ck, rule[k], first[k], first[k] + 1,
                  "carriage return not followed by a line feed%s", more);
      bl_hint(ck, d, "BuildKit reads a lone CR as a separator, not a line break; use LF (or "
                     "CRLF) line endings");
      break;
    case BL_BYTES_CONTROL:
      d = bl_emit(ck, rule[k], first[k], first[k] + 1, "control character 0x%02x in the command%s",
                  b, more);
      bl_hint(ck, d, "only TAB and LF may appear; remove it or write it as an escape inside a "
                     "string the shell interprets");
      break;
    default:
      d = bl_emit(ck, rule[k], first[k], first[k] + 1, "invalid UTF-8 byte 0x%02x%s", b, more);
      bl_hint(ck, d, "save the template as UTF-8");
      break;
    }
  }
}

static const char KW_ORDER[][12] = {"add", "arg", "cmd", "copy", "entrypoint", "env", "expose",
                                    "from", "healthcheck", "label", "maintainer", "onbuild",
                                    "run", "shell", "stopsignal", "user", "volume", "workdir"};

/* Levenshtein distance over code points, unit costs (agext/levenshtein as BuildKit uses it),
 * between the runes ra[0..n) (ASCII lower-cased) and the lower-case keyword b[0..bn), bn < 16;
 * `limit` or more once no cell of a row is below `limit` (the distance can only grow). */
static size_t distance(const uint32_t *ra, size_t n, const char *b, size_t bn, size_t limit) {
  size_t row[16];
  for (size_t j = 0; j <= bn; j++) row[j] = j;
  for (size_t i = 1; i <= n; i++) {
    size_t prev = row[0], low = i;
    row[0] = i;
    for (size_t j = 1; j <= bn; j++) {
      size_t cur = row[j];
      size_t sub = prev + (ra[i - 1] != (unsigned char)b[j - 1]);
      size_t del = row[j] + 1, ins = row[j - 1] + 1;
      row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
      if (row[j] < low) low = row[j];
      prev = cur;
    }
    if (low >= limit) return limit;
  }
  return row[bn];
}

static void unknown_instruction(bl_check *ck, const bl_read *rd, const bl_cmdline *c,
                                const char *context) {
  const char *L = rd->logical;
  const char *kw = L + c->kw_l;
  size_t n = c->kw_n, best_d = 3, best = SIZE_MAX;
  /* The keyword as runes, once; a keyword whose length differs by best_d or more cannot be
   * nearer (the distance is at least the difference of the lengths). */
  uint32_t ra[64];
  size_t nr = 0;
  for (size_t i = 0; i < n && nr <= 16;) {
    uint32_t cp;
    size_t w = boxlint__utf8_decode((const unsigned char *)kw + i, n - i, &cp);
    if (!w) { cp = 0xFFFD; w = 1; }
    ra[nr++] = cp < 0x80 ? boxlint__lower((unsigned char)cp) : cp;
    i += w;
  }
  for (size_t i = 0; i < sizeof KW_ORDER / sizeof KW_ORDER[0] && nr <= 16; i++) {
    size_t bn = strlen(KW_ORDER[i]);
    if ((nr > bn ? nr - bn : bn - nr) >= best_d) continue;
    size_t d = distance(ra, nr, KW_ORDER[i], bn, best_d);
    if (d < best_d) {
      best_d = d;
      best = i;
    }
  }
  boxlint_diag *d = bl_emit_l(ck, rd, BL_R_UNKNOWN, c->kw_l, c->kw_l + n,
                              "unknown instruction%s: %s", context, bl_q(ck, kw, n));
  if (!d) return;
  size_t s = bl_logical_to_input(&ck->cx, rd, c->kw_l);
  int contiguous = n && bl_logical_to_input(&ck->cx, rd, c->kw_l + n - 1) + 1 - s == n;
  if (best != SIZE_MAX) {
    char sug[12];
    int upper = 1;
    for (size_t i = 0; i < n; i++) upper &= !((unsigned char)(kw[i] - 'a') < 26);
    size_t sl = strlen(KW_ORDER[best]);
    for (size_t i = 0; i < sl; i++)
      sug[i] = upper ? (char)(KW_ORDER[best][i] - 32) : KW_ORDER[best][i];
    sug[sl] = 0;
    bl_hint(ck, d, "did you mean %s?", sug);
    if (contiguous) {
      const char *desc = boxlint__rprintf(ck->cx.r, "replace with %s", sug);
      boxlint__diag_fix(ck->cx.r, d, ck->off_base + s, n, sug, sl, desc ? desc : "");
    }
  } else {
    /* Quote the command up to where a credential could start ('=', ':', '@'): the hint must
     * never repeat a secret. */
    size_t q = c->kw_l;
    while (q < rd->llen && q - c->kw_l < 60 && L[q] != '=' && L[q] != ':' && L[q] != '@' &&
           L[q] != '\n')
      q++;
    while (q > c->kw_l + n && L[q - 1] == ' ') q--;
    bl_hint(ck, d, "did you forget RUN? Shell commands are written as: RUN %s%s",
            bl_q(ck, kw, q - c->kw_l), q < rd->llen ? " ..." : "");
    boxlint__diag_fix(ck->cx.r, d, ck->off_base + s, 0, "RUN ", 4, "insert RUN");
  }
}

static int is_denied(boxlint_keyword k) {
  return k == BOXLINT_KW_FROM || k == BOXLINT_KW_COPY || k == BOXLINT_KW_ADD ||
         k == BOXLINT_KW_CMD || k == BOXLINT_KW_ENTRYPOINT;
}

static void denied(bl_check *ck, const bl_read *rd, const bl_cmdline *c, int trigger) {
  const char *name = boxlint_keyword_name(c->folded);
  const char *pre = trigger ? "ONBUILD " : "";
  const char *why, *hint;
  switch (c->folded) {
  case BOXLINT_KW_FROM:
    why = "it would replace the platform's base image (systemd + Jupyter), and the sandbox "
          "would not start";
    hint = "remove it: templates always build on the platform's base image; install what you "
           "need with RUN (apt-get, pip, curl)";
    break;
  case BOXLINT_KW_COPY:
    why = "templates are built without a build context, so there is nothing to copy";
    hint = "write small files with a heredoc in RUN (RUN <<EOF > /path/file ... EOF) and fetch "
           "hosted files with RUN curl -fsSL <url> -o /path/file";
    break;
  case BOXLINT_KW_ADD:
    why = "templates are built without a build context, and ADD's downloads and archive "
          "unpacking are done more visibly in RUN";
    hint = "write small files with a heredoc in RUN (RUN <<EOF > /path/file ... EOF) and fetch "
           "hosted files with RUN curl -fsSL <url> -o /path/file";
    break;
  default:
    why = "it would override systemd as PID 1, so Jupyter and the execution shim never start";
    hint = "remove it: the sandbox's entrypoint is fixed; do setup work in RUN, and start "
           "services as systemd units";
    break;
  }
  boxlint_diag *d = bl_emit_l(ck, rd, BL_R_DENIED, c->kw_l, c->kw_l + c->kw_n,
                              "%s%s is not allowed in a template: %s", pre, name, why);
  bl_hint(ck, d, "%s", hint);
}

static int has_nonascii(const char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)p[i] >= 0x80) return 1;
  return 0;
}

/* Keyword, flags, arguments of one instruction or trigger. */
static void check_cmdline(bl_check *ck, const bl_read *rd, const bl_cmdline *c, int trigger) {
  const char *L = rd->logical;
  const char *ctx = trigger ? " as ONBUILD trigger" : "";
  if (c->kw_nonascii) {
    boxlint_diag *d;
    if (c->folded)
      d = bl_emit_l(ck, rd, BL_R_NONASCII, c->kw_l, c->kw_l + c->kw_n,
                    "non-ASCII letter in the keyword \"%s\": BuildKit reads it as %s",
                    bl_q(ck, L + c->kw_l, c->kw_n), boxlint_keyword_name(c->folded));
    else
      d = bl_emit_l(ck, rd, BL_R_NONASCII, c->kw_l, c->kw_l + c->kw_n,
                    "non-ASCII character in the keyword \"%s\"", bl_q(ck, L + c->kw_l, c->kw_n));
    bl_hint(ck, d, "write the keyword in plain ASCII letters");
    if (!c->folded) unknown_instruction(ck, rd, c, ctx);
  } else if (!c->kw) {
    if (c->kw_n) unknown_instruction(ck, rd, c, ctx);
  }
  if (c->flags_end > c->flags_l && has_nonascii(L + c->flags_l, c->flags_end - c->flags_l)) {
    size_t i = c->flags_l, end = c->flags_end;
    while ((unsigned char)L[i] < 0x80) i++;
    for (size_t k = 0; k < c->nflags; k++) {
      const bl_flag *f = &ck->cx.flags[c->flag0 + k];
      if (f->l_end > i) { end = f->l_end; }
    }
    while (end > i && (L[end - 1] == ' ' || L[end - 1] == '\t')) end--;
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_NONASCII, i, end,
                                "non-ASCII character in the flags: BuildKit splits flags at the "
                                "bytes 0x85 and 0xA0, so a flag can hide inside another");
    bl_hint(ck, d, "keep flags ASCII; put non-ASCII text in the arguments");
  }
  if (!c->folded) return;
  if (is_denied(c->folded)) {
    denied(ck, rd, c, trigger);
    /* A non-string JSON element fails BuildKit's parser stage whatever the keyword. */
    if (c->json == BL_JSON_NONSTRING) bl_check_arguments(ck, rd, c);
    return;
  }
  if (c->nflags) bl_check_flags(ck, rd, c);
  if (c->folded == BOXLINT_KW_ONBUILD) return; /* the trigger is checked by the caller */
  /* RUN takes any arguments (shell form, or JSON strings): nothing to check in the common case. */
  if (c->folded != BOXLINT_KW_RUN || c->json == BL_JSON_NONSTRING) bl_check_arguments(ck, rd, c);
}

static void check_onbuild(bl_check *ck, const bl_read *rd) {
  const bl_cmdline *c = &rd->cmd;
  const char *L = rd->logical;
  if (!rd->has_trigger) {
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_ONBUILD, c->kw_l, c->kw_l + c->kw_n,
                                "ONBUILD requires at least one argument");
    bl_hint(ck, d, "write ONBUILD RUN <command>");
    return;
  }
  const bl_cmdline *t = &rd->trig;
  if (t->kw_l > c->flags_end && has_nonascii(L + c->flags_end, t->kw_l - c->flags_end)) {
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_NONASCII, c->flags_end, t->kw_l,
                                "non-ASCII white space before the ONBUILD trigger: BuildKit "
                                "trims it");
    bl_hint(ck, d, "use ASCII spaces");
  }
  /* ToUpper leaves U+0130 as it is, so only the ASCII spelling is refused by BuildKit. */
  if (t->kw == BOXLINT_KW_ONBUILD || t->kw == BOXLINT_KW_FROM || t->kw == BOXLINT_KW_MAINTAINER) {
    boxlint_diag *d;
    if (t->kw == BOXLINT_KW_ONBUILD)
      d = bl_emit_l(ck, rd, BL_R_ONBUILD, t->kw_l, t->kw_l + t->kw_n,
                    "Chaining ONBUILD via `ONBUILD ONBUILD` isn't allowed");
    else
      d = bl_emit_l(ck, rd, BL_R_ONBUILD, t->kw_l, t->kw_l + t->kw_n,
                    "%s isn't allowed as an ONBUILD trigger", boxlint_keyword_name(t->kw));
    bl_hint(ck, d, "remove the ONBUILD");
  }
  if (t->folded == BOXLINT_KW_ONBUILD || t->folded == BOXLINT_KW_MAINTAINER) {
    if (t->kw_nonascii) check_cmdline(ck, rd, t, 1);
    return;
  }
  check_cmdline(ck, rd, t, 1);
}

static void check_heredocs(bl_check *ck, const bl_read *rd) {
  const char *L = rd->logical;
  if (rd->hd_status == BL_HD_UNTERMINATED) {
    const boxlint_heredoc *h = &rd->heredocs[rd->hd_bad];
    /* Point at the opener: the (hd_bad+1)-th "<<" of the line is a good approximation. */
    size_t at = rd->cmd.kw_l, seen = 0;
    for (size_t i = 0; i + 1 < rd->llen; i++) {
      if (L[i] == '<' && L[i + 1] == '<') {
        at = i;
        if (seen++ == rd->hd_bad) break;
        i++;
      }
    }
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_UNTERMINATED, at, at + 2,
                                "heredoc \"%s\" is not closed in this command: BuildKit would "
                                "read the next commands as its body",
                                bl_q(ck, h->name.ptr, h->name.len));
    bl_hint(ck, d, "end the command with a line that is exactly %s%s",
            bl_q(ck, h->name.ptr, h->name.len), h->chomp ? " (leading tabs allowed)" : "");
  } else if (rd->hd_status == BL_HD_UNSURE || rd->hd_status == BL_HD_BUILDKIT_ERROR) {
    size_t at = rd->cmd.kw_l;
    for (size_t i = 0; i + 1 < rd->llen; i++)
      if (L[i] == '<' && L[i + 1] == '<') { at = i; break; }
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_AMBIGUOUS, at, at + 2,
                                rd->hd_status == BL_HD_UNSURE
                                    ? "cannot tell whether BuildKit opens a heredoc here (non-ASCII "
                                      "text or a byte order mark in the shell words of the line)"
                                    : "BuildKit cannot read this heredoc's name and rejects the "
                                      "Dockerfile");
    bl_hint(ck, d, "write the heredoc as <<EOF or <<'EOF' with an ASCII name, and keep "
                   "non-ASCII text in the body");
  }
}

/* After the instruction: only blank lines may follow. */
static void check_rest(bl_check *ck, const bl_read *rd) {
  size_t pos = rd->end, next;
  while (pos < ck->cx.len) {
    size_t e = bl_line_end(&ck->cx, pos, &next);
    if (!bl_is_blank(ck->cx.buf + pos, ck->cx.buf + e)) {
      const unsigned char *p = ck->cx.buf + pos;
      size_t s = pos;
      while (s < e && (p[s - pos] == ' ' || p[s - pos] == '\t')) s++;
      boxlint_diag *d;
      if (bl_is_comment(ck->cx.buf + pos, ck->cx.buf + e)) {
        d = bl_emit(ck, BL_R_MULTIPLE, s, e,
                    "a comment line after the instruction: the command must hold exactly one "
                    "instruction");
        bl_hint(ck, d, "remove the comment line");
      } else {
        size_t k = s;
        while (k < e && ck->cx.buf[k] != ' ' && ck->cx.buf[k] != '\t') k++;
        boxlint_keyword kw = bl_lex_keyword(ck->cx.buf + s, k - s);
        d = bl_emit(ck, BL_R_MULTIPLE, s, e,
                    "a second instruction (%s) after %s: the platform would build it as a separate "
                    "instruction that is not checked as its own command",
                    kw ? boxlint_keyword_name(kw) : bl_q(ck, (const char *)ck->cx.buf + s, k - s),
                    rd->cmd.folded ? boxlint_keyword_name(rd->cmd.folded) : "the instruction");
        bl_hint(ck, d, "put each instruction in its own command, or end the line with %c to "
                       "continue the same instruction", ck->cx.esc);
      }
      return;
    }
    pos = next;
  }
}

/* Write every field of `in` (it may be uninitialised) from the instruction read. */
static int fill_instruction(bl_check *ck, const bl_read *rd, boxlint_instruction *in) {
  const bl_cmdline *c = &rd->cmd;
  const char *L = rd->logical ? rd->logical : "";
  boxlint_span *f = NULL;
  if (c->nflags) {
    f = boxlint__ralloc(ck->cx.r, c->nflags * sizeof *f);
    if (!f) return -1;
    for (size_t i = 0; i < c->nflags; i++) f[i] = ck->cx.flags[c->flag0 + i].value;
  }
  *in = (boxlint_instruction){
      .keyword = c->folded,
      .trigger = rd->has_trigger ? rd->trig.folded : BOXLINT_KW_NONE,
      .keyword_text = {L + c->kw_l, c->kw_n},
      .text = {(const char *)ck->cx.buf + rd->start, rd->end - rd->start},
      .logical = {L, rd->llen},
      .args = {L + c->args_l, c->args_n},
      .flags = f,
      .nflags = c->nflags,
      .heredocs = rd->heredocs,
      .nheredocs = rd->nheredocs,
      .json = c->json == BL_JSON_STRINGS,
      .line = rd->line + ck->line_base - 1,
      .end_line = rd->end_line + ck->line_base - 1,
      .offset = ck->off_base + rd->start,
      .end_offset = ck->off_base + rd->end,
  };
  return 0;
}

/* Check the current input (ck->cx.buf) as one command. */
static int check_command(bl_check *ck, boxlint_instruction *in) {
  bl_read rd;
  ck->cx.nsegs = 0;
  ck->cx.nflags = 0;
  check_bytes(ck);
  if (ck->opts->max_command_bytes && ck->cx.len > ck->opts->max_command_bytes) {
    boxlint_diag *d = bl_emit(ck, BL_R_TOO_LONG, ck->opts->max_command_bytes, ck->cx.len,
                              "command is %zu bytes, more than the limit of %zu", ck->cx.len,
                              ck->opts->max_command_bytes);
    bl_hint(ck, d, "split it into several commands, or fetch a script with RUN curl -fsSL "
                   "<url> | sh");
  }
  /* BuildKit's scanner refuses a physical line of 64 KiB or more (bufio.MaxScanTokenSize). */
  if (ck->cx.len >= 65536) {
    for (size_t pos = 0, next; pos < ck->cx.len; pos = next) {
      const unsigned char *lf = memchr(ck->cx.buf + pos, '\n', ck->cx.len - pos);
      next = lf ? (size_t)(lf - ck->cx.buf) + 1 : ck->cx.len;
      size_t line = next - pos - (lf != NULL);
      if (line >= 65536) {
        boxlint_diag *d = bl_emit(ck, BL_R_TOO_LONG, pos, pos + 1,
                                  "a line of %zu bytes: BuildKit rejects the whole Dockerfile when "
                                  "a line reaches 64 KiB", line);
        bl_hint(ck, d, "split the line with line continuations");
        break;
      }
    }
  }
  if (bl_read_instruction(&ck->cx, 0, 1, &rd)) return -1;
  if (!rd.found || (!rd.cmd.kw_n && !rd.dangling)) {
    int comment = 0;
    for (size_t pos = 0, next; pos < ck->cx.len && !comment; pos = next) {
      size_t e = bl_line_end(&ck->cx, pos, &next);
      comment = bl_is_comment(ck->cx.buf + pos, ck->cx.buf + e);
    }
    boxlint_diag *d = bl_emit(ck, BL_R_EMPTY, 0, ck->cx.len,
                              comment ? "the command is only a comment" : "the command is empty");
    bl_hint(ck, d, "remove it, or write one instruction such as RUN <command>");
    if (in)
      *in = (boxlint_instruction){.keyword_text = {"", 0},
                                  .text = {(const char *)ck->cx.buf, ck->cx.len},
                                  .logical = {"", 0},
                                  .args = {"", 0},
                                  .line = ck->line_base,
                                  .end_line = ck->line_base,
                                  .offset = ck->off_base,
                                  .end_offset = ck->off_base};
    return 0;
  }
  if (in && fill_instruction(ck, &rd, in)) return -1;
  /* Leading white space: BuildKit trims Unicode white space, boxlint accepts only ASCII. */
  if (has_nonascii((const char *)ck->cx.buf + rd.start, rd.first - rd.start) ||
      has_nonascii(rd.logical, rd.cmd.kw_l)) {
    boxlint_diag *d = bl_emit(ck, BL_R_NONASCII, rd.start, rd.first,
                              "non-ASCII white space before the instruction: BuildKit trims it "
                              "and reads the keyword after it");
    bl_hint(ck, d, "use ASCII spaces or tabs");
  }
  if (rd.dangling) {
    boxlint_diag *d = bl_emit(ck, BL_R_DANGLING, rd.dangling_at, rd.dangling_at + 1,
                              "the command ends inside a line continuation: BuildKit would join "
                              "the next command onto this instruction");
    bl_hint(ck, d, "remove the trailing %c", ck->cx.esc);
    if (d) {
      char e[2] = {ck->cx.esc, 0};
      boxlint__diag_fix(ck->cx.r, d, ck->off_base + rd.dangling_at, 1, e, 0,
                        "remove the trailing escape character");
    }
  }
  if (rd.cmd.kw_n) {
    check_cmdline(ck, &rd, &rd.cmd, 0);
    if (rd.cmd.folded == BOXLINT_KW_ONBUILD) check_onbuild(ck, &rd);
  }
  if (rd.hd_status != BL_HD_OK) check_heredocs(ck, &rd);
  if (!rd.dangling && rd.hd_status != BL_HD_UNTERMINATED && rd.end < ck->cx.len)
    check_rest(ck, &rd);
  if (ck->opts->config && !ck->bad_utf8) bl_warn_instruction(ck, &rd);
  return ck->cx.oom ? -1 : 0;
}

/* ---- Entry points ---------------------------------------------------------------------- */

/* The checker's growable buffers live in the report between calls, so that a warm report
 * checks commands without allocating. */
typedef struct bl_scratch {
  bl_seg *segs;
  size_t capsegs;
  bl_flag *flags;
  size_t capflags;
  bl_words w1, w2, w3;
  bl_buf shpool[3];
} bl_scratch;

static void scratch_release(const boxlint__mem *m, bl_scratch *s) {
  boxlint__free(m, s->segs);
  boxlint__free(m, s->flags);
  bl_words_free(m, &s->w1);
  bl_words_free(m, &s->w2);
  bl_words_free(m, &s->w3);
  for (int i = 0; i < 3; i++) bl_buf_free(m, &s->shpool[i]);
}

void boxlint__scratch_free(boxlint_report *r) {
  if (!r->scratch) return;
  scratch_release(&r->mem, r->scratch);
  boxlint__free(&r->mem, r->scratch);
  r->scratch = NULL;
}

/* Returns -1 when the report's scratch cannot be allocated. */
static int ctx_init(bl_check *ck, boxlint_report *r, const boxlint_options *opts) {
  memset(ck, 0, sizeof *ck);
  if (!r->scratch) {
    r->scratch = boxlint__malloc(&r->mem, sizeof(bl_scratch));
    if (!r->scratch) {
      r->oom = 1;
      return -1;
    }
    memset(r->scratch, 0, sizeof(bl_scratch));
  }
  bl_scratch *s = r->scratch;
  {
    ck->cx.segs = s->segs;
    ck->cx.capsegs = s->capsegs;
    ck->cx.flags = s->flags;
    ck->cx.capflags = s->capflags;
    ck->cx.w1 = s->w1;
    ck->cx.w2 = s->w2;
    ck->cx.w3 = s->w3;
    memcpy(ck->cx.shpool, s->shpool, sizeof s->shpool);
  }
  ck->cx.r = r;
  ck->cx.m = &r->mem;
  ck->cx.esc = opts->escape;
  ck->opts = opts;
  ck->line_base = 1;
  ck->last_user_cmd = -1;
  return 0;
}

static void ctx_free(bl_check *ck) {
  boxlint_report *r = ck->cx.r;
  bl_warn_free(ck);
  bl_scratch tmp = {ck->cx.segs, ck->cx.capsegs, ck->cx.flags, ck->cx.capflags,
                    ck->cx.w1, ck->cx.w2, ck->cx.w3, {{0}}};
  memcpy(tmp.shpool, ck->cx.shpool, sizeof tmp.shpool);
  *(bl_scratch *)r->scratch = tmp;
}

static int options_ok(const boxlint_options *o) {
  return o->size >= sizeof *o && (o->escape == '\\' || o->escape == '`') &&
         o->cpu_min <= o->cpu_max && o->memory_min <= o->memory_max;
}

/* Options (NULL: the defaults, in *def), their validation, and the check's context. */
static boxlint_status begin(bl_check *ck, boxlint_report *report, const boxlint_options **opts,
                            boxlint_options *def) {
  if (!*opts) {
    boxlint_options_init(def);
    *opts = def;
  }
  if (!options_ok(*opts)) return BOXLINT_EINVAL;
  return ctx_init(ck, report, *opts) ? BOXLINT_ENOMEM : BOXLINT_OK;
}

boxlint_status boxlint_check_commands(boxlint_report *report, const boxlint_span *commands,
                                      size_t ncommands, const boxlint_options *opts) {
  boxlint_options def;
  bl_check ck;
  if (!report || (ncommands && !commands)) return BOXLINT_EINVAL;
  boxlint_status st = begin(&ck, report, &opts, &def);
  if (st != BOXLINT_OK) return st;
  size_t first = report->ndiags;
  report->ninstrs = 0;
  int rc = 0;
  if (opts->max_commands && ncommands > opts->max_commands) {
    ck.command = (int32_t)(opts->max_commands > INT32_MAX ? INT32_MAX : opts->max_commands);
    ck.cx.buf = (const unsigned char *)"";
    boxlint_diag *d = bl_emit(&ck, BL_R_TOO_MANY, 0, 0,
                              "%zu commands, more than the limit of %zu", ncommands,
                              opts->max_commands);
    bl_hint(&ck, d, "join related steps into one RUN with && and line continuations");
  }
  for (size_t i = 0; i < ncommands && rc == 0; i++) {
    boxlint_instruction *in = boxlint__report_push_instruction(report); /* check_command fills it */
    if (!in) { rc = -1; break; }
    ck.command = (int32_t)(i > INT32_MAX ? INT32_MAX : i);
    ck.cx.buf = (const unsigned char *)(commands[i].ptr ? commands[i].ptr : "");
    ck.cx.len = commands[i].ptr ? commands[i].len : 0;
    ck.off_base = 0;
    ck.line_base = 1;
    rc = check_command(&ck, in);
    if (rc) memset(in, 0, sizeof *in); /* out of memory before it was filled */
  }
  if (rc == 0 && opts->config) bl_warn_finish(&ck);
  ctx_free(&ck);
  boxlint__report_sort(report, first);
  return rc || report->oom ? BOXLINT_ENOMEM : BOXLINT_OK;
}

/* Go's parser-directive regexp: ^#\s*([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$ on a left-trimmed
 * line. Returns 1 with the key and value, else 0. */
static int directive(const unsigned char *p, const unsigned char *e, boxlint_span *key,
                     boxlint_span *val) {
#define ISS(c) ((c) == ' ' || (c) == '\t' || (c) == '\n' || (c) == '\f' || (c) == '\r')
  if (p >= e || *p != '#') return 0;
  p++;
  while (p < e && ISS(*p)) p++;
  if (p >= e || !boxlint__is_alpha(*p)) return 0;
  const unsigned char *k = p;
  while (p < e && (boxlint__is_alpha(*p) || boxlint__is_digit(*p))) p++;
  key->ptr = (const char *)k;
  key->len = (size_t)(p - k);
  while (p < e && ISS(*p)) p++;
  if (p >= e || *p != '=') return 0;
  p++;
  while (p < e && ISS(*p)) p++;
  while (e > p && ISS(e[-1])) e--;
  if (p >= e) return 0;
  val->ptr = (const char *)p;
  val->len = (size_t)(e - p);
  return 1;
#undef ISS
}

/* BOM and parser directives at the top of a file. Returns where instructions may start, and
 * sets the escape character; reports bad directives. */
static size_t file_prologue(bl_check *ck, uint32_t *line) {
  size_t pos = 0, next;
  if (ck->cx.len >= 3 && !memcmp(ck->cx.buf, "\xEF\xBB\xBF", 3)) pos = 3;
  int seen_escape = 0, seen_syntax = 0, seen_check = 0;
  while (pos < ck->cx.len) {
    size_t e = bl_line_end(&ck->cx, pos, &next);
    const unsigned char *p = ck->cx.buf + pos, *end = ck->cx.buf + e;
    size_t l;
    while (p < end && (l = bl_lex_space(p, end)) != 0) p += l;
    boxlint_span key, val;
    if (!directive(p, end, &key, &val)) break;
    int *seen;
    if (boxlint__ieq(key.ptr, key.len, "escape")) seen = &seen_escape;
    else if (boxlint__ieq(key.ptr, key.len, "syntax")) seen = &seen_syntax;
    else if (boxlint__ieq(key.ptr, key.len, "check")) seen = &seen_check;
    else break;
    size_t s = (size_t)((const unsigned char *)key.ptr - ck->cx.buf);
    if ((*seen)++) {
      bl_emit(ck, BL_R_INVALID_ARGS, s, e, "only one %s parser directive can be used",
              bl_q(ck, key.ptr, key.len));
    } else if (seen == &seen_escape) {
      if (val.len == 1 && (val.ptr[0] == '\\' || val.ptr[0] == '`'))
        ck->cx.esc = val.ptr[0];
      else
        bl_emit(ck, BL_R_INVALID_ARGS, s, e, "invalid escape token '%s' does not match ` or \\",
                bl_q(ck, val.ptr, val.len));
    }
    pos = next;
    (*line)++;
  }
  return pos;
}

/* `# boxlint ignore=rule-a,rule-b -- reason` on the line before an instruction: drop those
 * warnings from the instruction's findings (from index `first`), and report names that
 * suppressed nothing. Errors are never suppressed. */
static void apply_suppression(bl_check *ck, size_t cs, size_t ce, int32_t command) {
  const unsigned char *p = ck->cx.buf + cs, *e = ck->cx.buf + ce;
  while (p < e && (*p == ' ' || *p == '\t')) p++;
  if (p >= e || *p++ != '#') return;
  while (p < e && (*p == ' ' || *p == '\t')) p++;
  static const char kw[] = "boxlint";
  if ((size_t)(e - p) < 7 || memcmp(p, kw, 7)) return;
  p += 7;
  while (p < e && (*p == ' ' || *p == '\t')) p++;
  if ((size_t)(e - p) < 7 || memcmp(p, "ignore=", 7)) return;
  p += 7;
  boxlint_report *r = ck->cx.r;
  while (p < e && *p != ' ' && *p != '\t') {
    const unsigned char *id = p;
    while (p < e && *p != ',' && *p != ' ' && *p != '\t') p++;
    size_t n = (size_t)(p - id);
    if (p < e && *p == ',') p++;
    if (!n) continue;
    size_t hits = 0, k = 0;
    for (size_t i = 0; i < r->ndiags; i++) {
      boxlint_diag *d = &r->diags[i];
      int match = d->command == command && strlen(d->rule) == n && !memcmp(d->rule, id, n);
      if (match && d->severity < BOXLINT_SEVERITY_ERROR) {
        hits++;
        continue;
      }
      r->diags[k++] = *d;
    }
    r->ndiags = k;
    if (hits) continue;
    size_t s = (size_t)(id - ck->cx.buf);
    const boxlint_rule_info *ri = boxlint_rule_find((const char *)id, n);
    boxlint_diag *d;
    ck->command = command;
    if (ri && ri->severity == BOXLINT_SEVERITY_ERROR)
      d = bl_emit(ck, "unused-suppression", s, s + n,
                  "%s is an error and cannot be suppressed", bl_q(ck, (const char *)id, n));
    else
      d = bl_emit(ck, "unused-suppression", s, s + n,
                  "the suppression of %s suppresses nothing on the next instruction",
                  bl_q(ck, (const char *)id, n));
    bl_hint(ck, d, "remove %s from the boxlint ignore comment", bl_q(ck, (const char *)id, n));
  }
}

/* Split (and optionally check) a fragment. */
static boxlint_status fragment(boxlint_report *report, const char *buf, size_t len,
                               const boxlint_options *opts, int check) {
  boxlint_options def;
  bl_check ck;
  if (!report || (len && !buf)) return BOXLINT_EINVAL;
  boxlint_status st = begin(&ck, report, &opts, &def);
  if (st != BOXLINT_OK) return st;
  size_t first = report->ndiags;
  report->ninstrs = 0;
  ck.cx.buf = (const unsigned char *)(buf ? buf : "");
  ck.cx.len = buf ? len : 0;
  ck.command = -1;
  uint32_t line = 1;
  size_t pos = file_prologue(&ck, &line);
  int rc = 0;
  const unsigned char *file = ck.cx.buf;
  size_t flen = ck.cx.len;
  int32_t index = 0;
  struct sup { size_t s, e; int32_t index; } *sups = NULL;
  size_t nsup = 0, capsup = 0;
  while (rc == 0) {
    bl_read rd;
    ck.cx.buf = file;
    ck.cx.len = flen;
    ck.cx.nsegs = ck.cx.nflags = 0;
    ck.off_base = 0;
    ck.line_base = 1;
    if (bl_read_instruction(&ck.cx, pos, line, &rd)) { rc = -1; break; }
    if (!rd.found) break;
    boxlint_instruction *in = boxlint__report_add_instruction(report);
    if (!in) { rc = -1; break; }
    if (!check) {
      ck.command = index;
      rc = fill_instruction(&ck, &rd, in);
      if (rd.hd_status == BL_HD_UNTERMINATED) check_heredocs(&ck, &rd);
    } else {
      /* Check the instruction's own bytes as one command, at its file position. */
      ck.cx.buf = file + rd.start;
      ck.cx.len = rd.end - rd.start;
      ck.off_base = rd.start;
      ck.line_base = rd.line;
      ck.command = index;
      rc = check_command(&ck, in);
      /* Suppressions are applied after the last instruction (final-user-not-root is decided
       * only then), and only when warnings run at all. */
      if (rc == 0 && opts->config && rd.comment_end > rd.comment_start) {
        if (nsup == capsup) {
          size_t cap = capsup ? capsup * 2 : 8;
          struct sup *ns = boxlint__ralloc(report, cap * sizeof *ns);
          if (!ns) { rc = -1; break; }
          if (nsup) memcpy(ns, sups, nsup * sizeof *ns);
          sups = ns;
          capsup = cap;
        }
        sups[nsup].s = rd.comment_start;
        sups[nsup].e = rd.comment_end;
        sups[nsup].index = index;
        nsup++;
      }
    }
    index++;
    pos = rd.end;
    line = rd.end_line + 1;
    if (rd.end >= flen) break;
  }
  if (rc == 0 && check && opts->config) bl_warn_finish(&ck);
  ck.cx.buf = file;
  ck.cx.len = flen;
  ck.off_base = 0;
  ck.line_base = 1;
  for (size_t i = 0; rc == 0 && i < nsup; i++) apply_suppression(&ck, sups[i].s, sups[i].e, sups[i].index);
  ctx_free(&ck);
  boxlint__report_sort(report, first);
  return rc || report->oom ? BOXLINT_ENOMEM : BOXLINT_OK;
}

boxlint_status boxlint_check_fragment(boxlint_report *report, const char *buf, size_t len,
                                      const boxlint_options *opts) {
  return fragment(report, buf, len, opts, 1);
}

boxlint_status boxlint_split_fragment(boxlint_report *report, const char *buf, size_t len,
                                      const boxlint_options *opts) {
  return fragment(report, buf, len, opts, 0);
}

boxlint_status boxlint_check_base(boxlint_base_info *out, boxlint_report *report, const char *buf,
                                  size_t len) {
  if (!out || !report || (len && !buf)) return BOXLINT_EINVAL;
  boxlint_options opts;
  boxlint_options_init(&opts);
  bl_check ck;
  if (ctx_init(&ck, report, &opts)) return BOXLINT_ENOMEM;
  ck.cx.buf = (const unsigned char *)(buf ? buf : "");
  ck.cx.len = buf ? len : 0;
  ck.command = -1;
  memset(out, 0, sizeof *out);
  uint32_t line = 1;
  size_t pos = file_prologue(&ck, &line);
  int rc = 0, ok = 1;
  bl_read rd, last;
  memset(&last, 0, sizeof last);
  for (;;) {
    ck.cx.nsegs = ck.cx.nflags = 0;
    if (bl_read_instruction(&ck.cx, pos, line, &rd)) { rc = -1; break; }
    if (!rd.found) break;
    out->instructions++;
    last = rd;
    pos = rd.end;
    line = rd.end_line + 1;
    if (rd.end >= ck.cx.len) break;
  }
  if (!rc) {
    boxlint_diag *d = NULL;
    if (!out->instructions) {
      d = bl_emit(&ck, BL_R_BASE, 0, ck.cx.len,
                  "the base has no instruction: appended text could be read as a parser "
                  "directive");
      ok = 0;
    } else if (last.dangling) {
      d = bl_emit(&ck, BL_R_BASE, last.dangling_at, last.dangling_at + 1,
                  "the base ends inside a line continuation: the first command would be joined "
                  "onto its last instruction");
      ok = 0;
    } else if (last.hd_status == BL_HD_UNTERMINATED) {
      d = bl_emit(&ck, BL_R_BASE, last.start, ck.cx.len,
                  "the base ends inside a heredoc: the commands would be read as its body");
      ok = 0;
    }
    if (ok && (ck.cx.len == 0 || ck.cx.buf[ck.cx.len - 1] != '\n')) {
      d = bl_emit(&ck, BL_R_BASE, ck.cx.len, ck.cx.len,
                  "the base does not end with a newline: the first command would be joined onto "
                  "its last line");
      if (d) boxlint__diag_fix(report, d, ck.cx.len, 0, "\n", 1, "append a newline");
      ok = 0;
    }
    (void)d;
  }
  out->appendable = ok && !rc;
  out->escape = ck.cx.esc;
  ctx_free(&ck);
  return rc || report->oom ? BOXLINT_ENOMEM : BOXLINT_OK;
}

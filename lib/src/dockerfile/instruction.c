/*
 * dockerfile/: reading a command exactly as BuildKit does (the re2c reader in lexer.re, the
 * shell-word lexer in shlex.c), the instruction record, and the instruction checks of design.md
 * §2.1. This file is the folder's door: it fills the instruction record from what the reader
 * read, and checks what is wrong with one command as BuildKit sees it: bytes, the keyword
 * (unknown, denied, non-ASCII), ONBUILD, heredocs, anything after the instruction; the argument
 * checks are in args.c and the flag checks in flags.c. It emits through the check's sink
 * (report/emit.h) and may call report/ only; warnings/ and lint/ call it.
 */
#include <stdio.h>
#include <string.h>
#include "dockerfile/dockerfile_int.h"

static const char *const KW_NAMES[] = {"", "ADD", "ARG", "CMD", "COPY", "ENTRYPOINT", "ENV",
                                       "EXPOSE", "FROM", "HEALTHCHECK", "LABEL", "MAINTAINER",
                                       "ONBUILD", "RUN", "SHELL", "STOPSIGNAL", "USER", "VOLUME",
                                       "WORKDIR"};

static const unsigned char KW_LENS[] = {0, 3, 3, 3, 4, 10, 3, 6, 4, 11, 5, 10, 7, 3, 5, 10, 4, 6, 7};
_Static_assert(sizeof KW_LENS == sizeof KW_NAMES / sizeof KW_NAMES[0], "a length per keyword");

const char *boxlint_keyword_name(boxlint_keyword kw) {
  return (unsigned)kw < sizeof KW_NAMES / sizeof KW_NAMES[0] ? KW_NAMES[kw] : "";
}

boxlint_keyword boxlint_keyword_parse(const char *name, size_t len) {
  if (!name) return BOXLINT_KW_NONE;
  for (size_t k = 1; k < sizeof KW_NAMES / sizeof KW_NAMES[0]; k++) {
    const char *n = KW_NAMES[k];
    size_t i = 0;
    while (i < len && n[i] && (name[i] == n[i] || name[i] == n[i] + ('a' - 'A'))) i++;
    if (i == len && !n[i]) return (boxlint_keyword)k;
  }
  return BOXLINT_KW_NONE;
}

boxlint_diag *bl_emit_l(bl_check *ck, const bl_read *rd, const char *rule, size_t ls, size_t le,
                        const char *fmt, ...) {
  size_t s = bl_logical_to_input(&ck->cx, rd, ls);
  size_t e = le > ls ? bl_logical_to_input(&ck->cx, rd, le - 1) + 1 : s;
  va_list ap;
  va_start(ap, fmt);
  boxlint_diag *d = bl_sink_emitv(&ck->em, rule, s, e, fmt, ap);
  va_end(ap);
  return d;
}

/* ---- Rules ------------------------------------------------------------------------------ */

static void check_bytes(bl_check *ck) {
  static const char *const rule[] = {NULL, BL_R_NUL_BYTE, BL_R_BARE_CR, BL_R_CONTROL_CHARACTER,
                                     BL_R_INVALID_UTF8};
  size_t pos = 0, n;
  ck->bad_utf8 = 0;
  if (bl_lex_clean_lines(&ck->cx)) return; /* the common case, with the line feeds found */
  enum bl_byte_problem p = bl_lex_bytes(ck->cx.buf, ck->cx.len, &pos, &n);
  if (p == BL_BYTES_OK) return;
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

/* Whether the distance of ASCII word w[0..n) to keyword k[0..kl) (upper-case letters) is at
 * least `limit` because they share too few letters: an alignment matches at most `shared` pairs
 * of equal units, the fewer of w's bytes whose letter k holds and of k's letters w holds, so
 * the distance is at least max(n, kl) - shared. Bytes are told apart by their low five bits
 * (the letters' case folded), which can only count more of them as shared. */
static int too_few_shared(const char *w, size_t n, const char *k, size_t kl, uint32_t wset,
                          size_t limit) {
  uint32_t kset = 0;
  size_t in_w = 0, in_k = 0;
  for (size_t j = 0; j < kl; j++) {
    kset |= 1u << (k[j] & 31);
    in_w += (wset >> (k[j] & 31)) & 1;
  }
  for (size_t i = 0; i < n; i++) in_k += (kset >> (w[i] & 31)) & 1;
  size_t shared = in_w < in_k ? in_w : in_k, longer = n > kl ? n : kl;
  return longer - shared >= limit;
}

static void unknown_instruction(bl_check *ck, const bl_read *rd, const bl_cmdline *c,
                                const char *context) {
  const char *L = rd->logical;
  const char *kw = L + c->kw_l;
  size_t n = c->kw_n, best_d = 3, best = SIZE_MAX;
  /* The nearest keyword under distance 3, the first of a tie in alphabetical order: Levenshtein
   * over code points with unit costs (agext/levenshtein as BuildKit uses it), ASCII letters
   * case-blind. */
  uint32_t wset = 0; /* the word's bytes by their low five bits, letters folded */
  for (size_t i = 0; i < n; i++) wset |= 1u << (kw[i] & 31);
  for (size_t i = 1; i < sizeof KW_NAMES / sizeof KW_NAMES[0]; i++) {
    /* An ASCII keyword has as many units as bytes: a keyword whose length differs by the best
     * distance so far or more cannot be nearer, and is not measured; nor one that shares too
     * few letters (below). */
    size_t kl = KW_LENS[i];
    if (!c->kw_nonascii && ((n > kl ? n - kl : kl - n) >= best_d ||
                            too_few_shared(kw, n, KW_NAMES[i], kl, wset, best_d)))
      continue;
    size_t d = boxlint__edit_distance(kw, n, KW_NAMES[i], kl, BL_EDIT_RUNES | BL_EDIT_FOLD, best_d);
    if (d < best_d) {
      best_d = d;
      best = i;
    }
  }
  boxlint_diag *d = bl_emit_l(ck, rd, BL_R_UNKNOWN_INSTRUCTION, c->kw_l, c->kw_l + n,
                              "unknown instruction%s: %s", context, bl_q(ck, kw, n));
  if (!d) return;
  size_t s = bl_logical_to_input(&ck->cx, rd, c->kw_l);
  int contiguous = n && bl_logical_to_input(&ck->cx, rd, c->kw_l + n - 1) + 1 - s == n;
  if (best != SIZE_MAX) {
    char sug[12];
    int upper = 1;
    for (size_t i = 0; i < n; i++) upper &= !((unsigned char)(kw[i] - 'a') < 26);
    size_t sl = strlen(KW_NAMES[best]);
    for (size_t i = 0; i < sl; i++)
      sug[i] = upper ? KW_NAMES[best][i] : (char)boxlint__lower((unsigned char)KW_NAMES[best][i]);
    sug[sl] = 0;
    bl_hint(ck, d, "did you mean %s?", sug);
    if (contiguous) {
      const char *desc = boxlint__rprintf(ck->cx.r, "replace with %s", sug);
      boxlint__diag_fix(ck->cx.r, d, ck->em.off_base + s, n, sug, sl, desc ? desc : "");
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
    boxlint__diag_fix(ck->cx.r, d, ck->em.off_base + s, 0, "RUN ", 4, "insert RUN");
  }
}

/* The keywords a template may not use (denied-instruction): the one list of them. */
int boxlint_keyword_denied(boxlint_keyword k) {
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
  boxlint_diag *d = bl_emit_l(ck, rd, BL_R_DENIED_INSTRUCTION, c->kw_l, c->kw_l + c->kw_n,
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
      d = bl_emit_l(ck, rd, BL_R_NON_ASCII_SYNTAX, c->kw_l, c->kw_l + c->kw_n,
                    "non-ASCII letter in the keyword \"%s\": BuildKit reads it as %s",
                    bl_q(ck, L + c->kw_l, c->kw_n), boxlint_keyword_name(c->folded));
    else
      d = bl_emit_l(ck, rd, BL_R_NON_ASCII_SYNTAX, c->kw_l, c->kw_l + c->kw_n,
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
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_NON_ASCII_SYNTAX, i, end,
                                "non-ASCII character in the flags: BuildKit splits flags at the "
                                "bytes 0x85 and 0xA0, so a flag can hide inside another");
    bl_hint(ck, d, "keep flags ASCII; put non-ASCII text in the arguments");
  }
  if (!c->folded) return;
  if (boxlint_keyword_denied(c->folded)) {
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
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_INVALID_ONBUILD, c->kw_l, c->kw_l + c->kw_n,
                                "ONBUILD requires at least one argument");
    bl_hint(ck, d, "write ONBUILD RUN <command>");
    return;
  }
  const bl_cmdline *t = &rd->trig;
  if (t->kw_l > c->flags_end && has_nonascii(L + c->flags_end, t->kw_l - c->flags_end)) {
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_NON_ASCII_SYNTAX, c->flags_end, t->kw_l,
                                "non-ASCII white space before the ONBUILD trigger: BuildKit "
                                "trims it");
    bl_hint(ck, d, "use ASCII spaces");
  }
  /* ToUpper leaves U+0130 as it is, so only the ASCII spelling is refused by BuildKit. */
  if (t->kw == BOXLINT_KW_ONBUILD || t->kw == BOXLINT_KW_FROM || t->kw == BOXLINT_KW_MAINTAINER) {
    boxlint_diag *d;
    if (t->kw == BOXLINT_KW_ONBUILD)
      d = bl_emit_l(ck, rd, BL_R_INVALID_ONBUILD, t->kw_l, t->kw_l + t->kw_n,
                    "Chaining ONBUILD via `ONBUILD ONBUILD` isn't allowed");
    else
      d = bl_emit_l(ck, rd, BL_R_INVALID_ONBUILD, t->kw_l, t->kw_l + t->kw_n,
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
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_UNTERMINATED_HEREDOC, at, at + 2,
                                "heredoc \"%s\" is not closed in this command: BuildKit would "
                                "read the next commands as its body",
                                bl_q(ck, h->name.ptr, h->name.len));
    bl_hint(ck, d, "end the command with a line that is exactly %s%s",
            bl_q(ck, h->name.ptr, h->name.len), h->chomp ? " (leading tabs allowed)" : "");
  } else if (rd->hd_status == BL_HD_UNSURE || rd->hd_status == BL_HD_BUILDKIT_ERROR) {
    size_t at = rd->cmd.kw_l;
    for (size_t i = 0; i + 1 < rd->llen; i++)
      if (L[i] == '<' && L[i + 1] == '<') { at = i; break; }
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_AMBIGUOUS_HEREDOC, at, at + 2,
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
        d = bl_emit(ck, BL_R_MULTIPLE_INSTRUCTIONS, s, e,
                    "a comment line after the instruction: the command must hold exactly one "
                    "instruction");
        bl_hint(ck, d, "remove the comment line");
      } else {
        size_t k = s;
        while (k < e && ck->cx.buf[k] != ' ' && ck->cx.buf[k] != '\t') k++;
        boxlint_keyword kw = bl_lex_keyword(ck->cx.buf + s, k - s);
        d = bl_emit(ck, BL_R_MULTIPLE_INSTRUCTIONS, s, e,
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
      .line = rd->line + ck->em.line_base - 1,
      .end_line = rd->end_line + ck->em.line_base - 1,
      .offset = ck->em.off_base + rd->start,
      .end_offset = ck->em.off_base + rd->end,
  };
  return 0;
}

/* The limits on the command's size: the platform's, and BuildKit's 64 KiB line. */
static void check_size(bl_check *ck) {
  if (ck->opts->max_command_bytes && ck->cx.len > ck->opts->max_command_bytes) {
    boxlint_diag *d = bl_emit(ck, BL_R_COMMAND_TOO_LONG, ck->opts->max_command_bytes, ck->cx.len,
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
        boxlint_diag *d = bl_emit(ck, BL_R_COMMAND_TOO_LONG, pos, pos + 1,
                                  "a line of %zu bytes: BuildKit rejects the whole Dockerfile when "
                                  "a line reaches 64 KiB", line);
        bl_hint(ck, d, "split the line with line continuations");
        break;
      }
    }
  }
}

/* An input with no instruction: empty, blank or only comments; `joined_blank`: an instruction
 * was read whose logical line is only Unicode white space (see bl_check_instruction). */
static void empty_command(bl_check *ck, boxlint_instruction *in, int joined_blank) {
  int comment = 0;
  for (size_t pos = 0, next; pos < ck->cx.len && !comment; pos = next) {
    size_t e = bl_line_end(&ck->cx, pos, &next);
    comment = bl_is_comment(ck->cx.buf + pos, ck->cx.buf + e);
  }
  boxlint_diag *d = bl_emit(ck, BL_R_EMPTY_COMMAND, 0, ck->cx.len, "%s",
                            joined_blank ? "the command is only Unicode white space once its "
                                           "lines are joined: BuildKit trims it and reads an "
                                           "instruction with no name"
                            : comment    ? "the command is only a comment"
                                         : "the command is empty");
  bl_hint(ck, d, "remove it, or write one instruction such as RUN <command>");
  if (in)
    *in = (boxlint_instruction){.keyword_text = {"", 0},
                                .text = {(const char *)ck->cx.buf, ck->cx.len},
                                .logical = {"", 0},
                                .args = {"", 0},
                                .line = ck->em.line_base,
                                .end_line = ck->em.line_base,
                                .offset = ck->em.off_base,
                                .end_offset = ck->em.off_base};
}

/* What is wrong with the instruction read, from its leading white space to its end. */
static void check_read(bl_check *ck, const bl_read *rd) {
  /* Leading white space: BuildKit trims Unicode white space, boxlint accepts only ASCII. */
  if (has_nonascii((const char *)ck->cx.buf + rd->start, rd->first - rd->start) ||
      has_nonascii(rd->logical, rd->cmd.kw_l)) {
    boxlint_diag *d = bl_emit(ck, BL_R_NON_ASCII_SYNTAX, rd->start, rd->first,
                              "non-ASCII white space before the instruction: BuildKit trims it "
                              "and reads the keyword after it");
    bl_hint(ck, d, "use ASCII spaces or tabs");
  }
  if (rd->dangling) {
    boxlint_diag *d = bl_emit(ck, BL_R_DANGLING_CONTINUATION, rd->dangling_at, rd->dangling_at + 1,
                              "the command ends inside a line continuation: BuildKit would join "
                              "the next command onto this instruction");
    bl_hint(ck, d, "remove the trailing %c", ck->cx.esc);
    if (d) {
      char e[2] = {ck->cx.esc, 0};
      boxlint__diag_fix(ck->cx.r, d, ck->em.off_base + rd->dangling_at, 1, e, 0,
                        "remove the trailing escape character");
    }
  }
  if (rd->cmd.kw_n) {
    check_cmdline(ck, rd, &rd->cmd, 0);
    if (rd->cmd.folded == BOXLINT_KW_ONBUILD) check_onbuild(ck, rd);
  }
  if (rd->hd_status != BL_HD_OK) check_heredocs(ck, rd);
  if (!rd->dangling && rd->hd_status != BL_HD_UNTERMINATED && rd->end < ck->cx.len)
    check_rest(ck, rd);
}

int bl_check_instruction(bl_check *ck, boxlint_instruction *in, bl_read *rd) {
  ck->cx.nsegs = 0;
  ck->cx.nflags = 0;
  check_bytes(ck);
  check_size(ck);
  if (bl_read_instruction(&ck->cx, 0, 1, rd)) return -1;
  if (!rd->found || (!rd->cmd.kw_n && !rd->dangling)) {
    empty_command(ck, in, rd->found);
    /* Read, but blank: a logical line that is only Unicode white space once its lines are
     * joined (E1 \ LF 9A 80 is U+1680). BuildKit still reads an instruction there, with no
     * name, over the lines read: the instruction is the one read, as a fragment's split has it. */
    if (rd->found && in && fill_instruction(ck, rd, in)) return -1;
    return 0;
  }
  if (in && fill_instruction(ck, rd, in)) return -1;
  check_read(ck, rd);
  return ck->cx.oom ? -1 : 1;
}

int bl_split_instruction(bl_check *ck, const bl_read *rd, boxlint_instruction *in) {
  int rc = fill_instruction(ck, rd, in);
  if (rd->hd_status == BL_HD_UNTERMINATED) check_heredocs(ck, rd);
  return rc;
}

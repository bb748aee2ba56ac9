/* Text output, compiler style: `path:line:col: severity: message [rule]`, the source line with a
 * caret under the finding, then the hint; colours when c->color. The bytes of a secret found by
 * secret-in-command are printed as '*', in every line that shows them. Owns the text format
 * only; called by output.c, calls out_position.c. */
#include <stdlib.h>
#include <string.h>
#include "output/out_int.h"

static const char *sev_color(boxlint_severity s) {
  return s == BOXLINT_SEVERITY_ERROR     ? "\033[1;31m"
         : s == BOXLINT_SEVERITY_WARNING ? "\033[1;33m"
                                         : "\033[1;36m";
}

/* Is byte i of command `cmd` (or of the file, -1) in a secret? Binary search of the merged
 * ranges: the cost per byte does not grow with the number of secrets. */
static int in_secret(const out_secrets *sec, int32_t cmd, size_t i) {
  size_t lo = 0, hi = sec ? sec->n : 0;
  while (lo < hi) { /* the first range after (cmd, i) */
    size_t mid = lo + (hi - lo) / 2;
    const out_secret *r = &sec->v[mid];
    if (r->cmd < cmd || (r->cmd == cmd && r->s <= i)) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && sec->v[lo - 1].cmd == cmd && i < sec->v[lo - 1].e;
}

/* The source line holding [off, end), with a caret under the span; bytes of a secret (of
 * command `cmd`, or -1 for file offsets) are printed as '*'. `bol` is where that line starts.
 * What is read is bounded (400 bytes of the line, a caret of 200): a long line with many
 * findings costs the same per finding as a short one. */
static void print_source(cli *c, const char *text, size_t len, size_t bol, size_t off,
                         size_t end, uint32_t column, const out_secrets *sec, int32_t cmd) {
  if (!text || off > len || (sec && sec->failed)) return;
  size_t s = bol, e = s;
  while (e < len && e < s + 401 && text[e] != '\n') e++;
  if (e > s && text[e - 1] == '\r' && (e == len || text[e] == '\n')) e--;
  fputs("    ", c->out);
  for (size_t i = s; i < e && i < s + 400; i++) {
    unsigned char ch = (unsigned char)text[i];
    if (in_secret(sec, cmd, i)) {
      if ((ch & 0xC0) != 0x80) fputc('*', c->out);
      continue;
    }
    fputc(ch == '\t' ? ' ' : (ch < 0x20 || ch == 0x7f) ? '?' : ch, c->out);
  }
  fputs("\n    ", c->out);
  for (uint32_t i = 1; i < column && i < 400; i++) fputc(' ', c->out);
  size_t width = 0;
  for (size_t i = off; i < end && i < len && text[i] != '\n' && width <= 200; i++) {
    if (text[i] == '\r' && (i + 1 == len || text[i + 1] == '\n')) break; /* the line's \r */
    width += ((unsigned char)text[i] & 0xC0) != 0x80;
  }
  if (c->color) fputs("\033[1;32m", c->out);
  fputc('^', c->out);
  for (size_t i = 1; i < width && i < 200; i++) fputc('~', c->out);
  if (c->color) fputs("\033[0m", c->out);
  fputc('\n', c->out);
}

/* The start of the line holding `off` in a command's text (-c: short, argv). */
static size_t line_start(const char *text, size_t off) {
  while (off > 0 && text[off - 1] != '\n') off--;
  return off;
}

void out_text_diag(cli *c, const unit *u, const boxlint_diag *d, boxlint_severity sev,
                   const out_secrets *sec) {
  fpos p;
  cli_position(u, d, &p);
  char vb[CLI_VISIBLE_MAX];
  const char *path = cli_visible(u->path, vb, sizeof vb); /* a name never starts a line */
  if (p.has)
    fprintf(c->out, "%s:%u:%u: ", path, p.line, p.col);
  else if (u->kind == UNIT_INLINE && d->command >= 0)
    fprintf(c->out, "%s:commands[%d]:%u:%u: ", path, d->command, d->line, d->column);
  else
    fprintf(c->out, "%s: ", path);
  const char *s = boxlint_severity_str(sev);
  if (c->color) fprintf(c->out, "%s%s:\033[0m ", sev_color(sev), s);
  else fprintf(c->out, "%s: ", s);
  fprintf(c->out, "%s [%s]\n", d->message, d->rule);
  if (p.has && u->text)
    print_source(c, u->text, u->len, cli_line_start(u, p.off), p.off, p.end_off, p.col, sec, -1);
  else if (u->kind == UNIT_INLINE && d->command >= 0 && (size_t)d->command < u->ncmds && d->line)
    print_source(c, u->cmds[d->command].ptr, u->cmds[d->command].len,
                 line_start(u->cmds[d->command].ptr,
                            d->offset <= u->cmds[d->command].len ? d->offset : 0),
                 d->offset, d->end_offset, d->column, sec, d->command);
  if (d->hint)
    fprintf(c->out, "    %shint:%s %s\n", c->color ? "\033[1m" : "", c->color ? "\033[0m" : "",
            d->hint);
  /* the fix --fix applies ("fix:"), or one it applies only with --unsafe-fixes */
  if (d->fix && d->fix->description && d->fix->description[0])
    fprintf(c->out, "    %sfix%s:%s %s\n", c->color ? "\033[1m" : "",
            d->fix->safety == BOXLINT_FIX_SAFE ? "" : " (unsafe)", c->color ? "\033[0m" : "",
            d->fix->description);
}

static int by_place(const void *p, const void *q) {
  const out_secret *a = p, *b = q;
  if (a->cmd != b->cmd) return a->cmd < b->cmd ? -1 : 1;
  return a->s < b->s ? -1 : a->s > b->s;
}

void out_text_secrets(const unit *u, out_secrets *sec) {
  size_t cap = 0;
  sec->v = NULL;
  sec->n = 0;
  sec->failed = 0;
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; u->reports[k] && i < boxlint_report_diag_count(u->reports[k]); i++) {
      const boxlint_diag *d = boxlint_report_diag(u->reports[k], i);
      if (strcmp(d->rule, "secret-in-command")) continue;
      if (sec->n == cap) {
        cap = cap ? 2 * cap : 16;
        out_secret *nv = realloc(sec->v, cap * sizeof *nv);
        if (!nv) {
          sec->failed = 1;
          return;
        }
        sec->v = nv;
      }
      fpos p;
      cli_position(u, d, &p);
      sec->v[sec->n++] = p.has ? (out_secret){-1, p.off, p.end_off}
                               : (out_secret){d->command, d->offset, d->end_offset};
    }
  if (sec->n < 2) return;
  qsort(sec->v, sec->n, sizeof *sec->v, by_place);
  size_t w = 0;
  for (size_t i = 1; i < sec->n; i++) {
    out_secret *last = &sec->v[w];
    if (sec->v[i].cmd == last->cmd && sec->v[i].s <= last->e) {
      if (sec->v[i].e > last->e) last->e = sec->v[i].e;
    } else {
      sec->v[++w] = sec->v[i];
    }
  }
  sec->n = w + 1;
}

void out_text_secrets_free(out_secrets *sec) {
  free(sec->v);
  sec->v = NULL;
  sec->n = 0;
}

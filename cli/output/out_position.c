/* Where a finding is in its file: a fragment's findings carry their own position; in a JSON file
 * (a template, an array of commands, a NetworkPolicy) a command's finding points inside the
 * command's string literal and a field's at the value its path names. Owns cli_position, which
 * every format calls; it calls only jsonpos.c, on text jansson has already validated. */
#include <string.h>
#include "output/out_int.h"

/* The unit whose findings are being shown (cli_positions_begin to _end, one per thread) and its
 * text's index, built on the first position asked: a file with many findings then costs one
 * pass over its text, not one per finding (issue 23). Outside a scope, or out of memory, the
 * plain scans of jsonpos.c answer the same. */
static _Thread_local struct {
  const unit *u;
  const char *text;
  size_t len;
  jp_index *ix;
  int built;
  size_t lit[2], at[2], dec[2]; /* where the last start [0] and end [1] were found in a literal */
} scope;

void cli_positions_begin(const unit *u) {
  cli_positions_end();
  scope.u = u;
  scope.text = u->text;
  scope.len = u->len;
  scope.lit[0] = scope.lit[1] = SIZE_MAX;
}

void cli_positions_end(void) {
  jp_index_free(scope.ix);
  memset(&scope, 0, sizeof scope);
}

/* The index of u's text when u is the unit in scope (built now if need be), else NULL. */
static jp_index *index_of(const unit *u) {
  if (!u->text || scope.u != u || scope.text != u->text || scope.len != u->len) return NULL;
  if (!scope.built) {
    scope.built = 1;
    scope.ix = jp_index_new(u->text, u->len);
  }
  return scope.ix;
}

/* The raw offset of decoded byte `d` of the literal at `lit`: in scope, resumed from where the
 * last start (k 0) or end (k 1) was found in that literal when `d` is not before it, so that
 * the findings of one long command (in order) cost one pass over it, not one each. */
static size_t string_off(const unit *u, int k, size_t lit, size_t d) {
  if (scope.u != u || scope.text != u->text || scope.len != u->len)
    return jp_string_offset(u->text, u->len, lit, d);
  if (scope.lit[k] != lit || d < scope.dec[k]) {
    scope.lit[k] = lit;
    scope.at[k] = lit + 1;
    scope.dec[k] = 0;
  }
  return jp_string_resume(u->text, u->len, &scope.at[k], &scope.dec[k], d);
}

size_t cli_line_start(const unit *u, size_t off) {
  return jp_ix_line_start(index_of(u), u->text, u->len, off);
}

/* Where a field's finding points in a JSON unit: the value its path names, from the root (a
 * template) or from the policy object with the "network_policy" prefix dropped (UNIT_POLICY), so
 * that an entry's finding points at the entry's string literal and a list's at the list. A
 * finding about the whole policy (path "network_policy": filtered-empty-is-open) points at its
 * "type" value, or at the object when there is no type. A path that is not in the file (a
 * missing deny_out) points at the start of its nearest ancestor that is, with an empty span.
 * Returns 0 when nothing could be found. */
static int field_span(const unit *u, jp_index *ix, const char *path, size_t *s, size_t *e) {
  size_t base = 0;
  const char *rel = path;
  if (u->kind == UNIT_POLICY) {
    if (u->policy_off == SIZE_MAX) return 0;
    base = u->policy_off;
    if (!strncmp(rel, "network_policy", 14) && (!rel[14] || rel[14] == '.' || rel[14] == '['))
      rel += 14;
  }
  int whole_policy = u->kind == UNIT_POLICY ? !*rel : !strcmp(rel, "network_policy");
  char buf[256];
  size_t n = strlen(rel);
  if (n >= sizeof buf) n = sizeof buf - 1;
  memcpy(buf, rel, n);
  buf[n] = 0;
  for (int exact = 1;; exact = 0) {
    size_t v = jp_ix_path_at(ix, u->text, u->len, base, buf);
    if (v != SIZE_MAX) {
      size_t t = exact && whole_policy ? jp_ix_member(ix, u->text, u->len, v, "type", NULL) : SIZE_MAX;
      if (t != SIZE_MAX) v = t;
      *s = v;
      *e = exact ? jp_skip(u->text, u->len, v) : v;
      return 1;
    }
    if (!n) return 0;
    while (n > 0 && buf[n - 1] != '.' && buf[n - 1] != '[') n--; /* drop the last component */
    if (n > 0) n--;
    buf[n] = 0;
  }
}

void cli_position(const unit *u, const boxlint_diag *d, fpos *p) {
  memset(p, 0, sizeof *p);
  if (u->kind == UNIT_FRAGMENT || u->kind == UNIT_PYTHON) {
    if (!d->line) return;
    p->has = 1;
    p->line = d->line;
    p->col = d->column;
    p->end_line = d->end_line;
    p->end_col = d->end_column;
    p->off = d->offset;
    p->end_off = d->end_offset;
    return;
  }
  if ((u->kind != UNIT_JSON && u->kind != UNIT_POLICY) || !u->text) return;
  size_t s = SIZE_MAX, e = SIZE_MAX;
  jp_index *ix = index_of(u);
  if (d->command >= 0 && u->cmds_off != SIZE_MAX) {
    size_t lit = jp_ix_element(ix, u->text, u->len, u->cmds_off, (size_t)d->command);
    if (lit == SIZE_MAX) lit = u->cmds_off;
    if (u->text[lit] == '"') {
      s = string_off(u, 0, lit, d->offset);
      e = d->end_offset > d->offset ? string_off(u, 1, lit, d->end_offset - 1) + 1 : s;
    } else {
      s = lit;
      e = jp_skip(u->text, u->len, lit);
    }
  } else if (!d->path || !field_span(u, ix, d->path, &s, &e)) {
    /* Nowhere better: the start of the policy, or of the document. */
    s = jp_ws(u->text, u->len, u->kind == UNIT_POLICY && u->policy_off != SIZE_MAX ? u->policy_off : 0);
    e = s;
  }
  p->has = 1;
  p->off = s;
  p->end_off = e;
  jp_ix_line_col(ix, u->text, u->len, s, &p->line, &p->col);
  jp_ix_line_col(ix, u->text, u->len, e, &p->end_line, &p->end_col);
}

size_t cli_command_literal(const unit *u, int32_t command) {
  if (command < 0 || u->cmds_off == SIZE_MAX || !u->text) return SIZE_MAX;
  return jp_ix_element(index_of(u), u->text, u->len, u->cmds_off, (size_t)command);
}

int cli_finding_span(const unit *u, const boxlint_diag *d, size_t *start, size_t *end) {
  fpos p;
  cli_position(u, d, &p);
  *start = p.off;
  *end = p.end_off;
  return p.has;
}

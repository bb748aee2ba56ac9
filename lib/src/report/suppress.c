/* Suppression comments (suppress.h): the one reader of `# boxlint: ignore=...` for every file
 * kind, the table of a comment's ids, and the wording of what is reported about a comment.
 * Calls the rest of report/ only (arena, rule table). */
#include <string.h>
#include "report/suppress.h"

static int blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static int word_char(unsigned char c) { return boxlint__is_alpha(c) || c == '-' || c == '_'; }

/* The characters of rule ids: built-in ids and user rule ids (config.h). */
static int id_char(unsigned char c) {
  return (c >= 'a' && c <= 'z') || boxlint__is_digit(c) || c == '-' || c == '_' || c == '.';
}

static bl_sup_kind bad(bl_sup_comment *o, bl_sup_problem p, size_t a, size_t b) {
  o->kind = BL_SUP_MALFORMED;
  o->problem = p;
  o->bad = a;
  o->bad_end = b > a ? b : a;
  return o->kind;
}

int bl_sup_next_id(const char *s, size_t *i, size_t end, size_t *a, size_t *b) {
  while (*i < end && s[*i] == ',') (*i)++;
  if (*i >= end) return 0;
  *a = *i;
  while (*i < end && s[*i] != ',') (*i)++;
  *b = *i;
  return 1;
}

/* The rule list from `j` (after `ignore=` and its blanks) to the end of the comment `ce`. */
static bl_sup_kind read_ids(const char *s, size_t j, size_t ce, size_t eq, bl_sup_comment *o) {
  o->ids = j;
  while (j < ce && !blank(s[j])) j++;
  o->ids_end = j;
  size_t i = o->ids, a, b;
  while (bl_sup_next_id(s, &i, o->ids_end, &a, &b)) {
    for (size_t k = a; k < b; k++)
      if (!id_char((unsigned char)s[k])) return bad(o, BL_SUP_BAD_ID, a, b);
    o->nids++;
  }
  if (!o->nids) return bad(o, BL_SUP_NO_IDS, eq, o->ids_end);
  while (j < ce && blank(s[j])) j++;
  if (j < ce && !(ce - j >= 2 && s[j] == '-' && s[j + 1] == '-'))
    return bad(o, BL_SUP_TRAILING, j, ce);
  o->kind = o->nids > BL_SUP_MAX_IDS ? BL_SUP_TOO_MANY : BL_SUP_IGNORE;
  return o->kind;
}

bl_sup_kind bl_sup_read(const char *s, size_t cs, size_t ce, bl_sup_comment *o) {
  memset(o, 0, sizeof *o);
  size_t i = cs;
  if (i >= ce || s[i] != '#') return BL_SUP_NONE;
  i++;
  while (i < ce && blank(s[i])) i++;
  if (ce - i < 7 || memcmp(s + i, "boxlint", 7)) return BL_SUP_NONE;
  size_t at = i;
  i += 7;
  if (i >= ce) return BL_SUP_NONE; /* "# boxlint" alone */
  unsigned char c = (unsigned char)s[i];
  if (boxlint__is_alpha(c) || boxlint__is_digit(c)) return BL_SUP_NONE; /* boxlinter */
  size_t j = i;
  while (j < ce && blank(s[j])) j++;
  int colon = j < ce && s[j] == ':';
  if (colon) {
    j++;
    while (j < ce && blank(s[j])) j++;
  } else if (j == i) {
    if (c != '-' && c != '_' && c != '=') return BL_SUP_NONE; /* "# boxlint, the linter" */
    size_t e = i; /* boxlint-ignore=, boxlint=...: a directive misspelt */
    while (e < ce && !blank(s[e])) e++;
    return bad(o, BL_SUP_SPELLING, at, e);
  }
  size_t w = j;
  while (j < ce && word_char((unsigned char)s[j])) j++;
  size_t we = j;
  while (j < ce && blank(s[j])) j++;
  int ignore = we - w == 6 && !memcmp(s + w, "ignore", 6);
  if (!colon && !ignore && !(we > w && j < ce && s[j] == '='))
    return BL_SUP_NONE; /* prose: "# boxlint checks this file" */
  if (!ignore) {
    size_t e = we;
    if (e == w)
      while (e < ce && !blank(s[e])) e++;
    return bad(o, BL_SUP_DIRECTIVE, w, e);
  }
  if (j >= ce || s[j] != '=') return bad(o, BL_SUP_NO_EQUALS, w, we);
  size_t eq = w;
  j++;
  while (j < ce && blank(s[j])) j++;
  return read_ids(s, j, ce, eq, o);
}

/*----------------------------------------------------------------------------------------------
 * A comment's ids
 *--------------------------------------------------------------------------------------------*/

static bl_sup_id *id_find(const bl_sup_table *t, const char *w, size_t wl) {
  for (size_t h = boxlint__fnv1a(w, wl) & t->mask;; h = (h + 1) & t->mask) {
    bl_sup_id *e = &t->t[h];
    if (e->b == 0 || (e->b - e->a == wl && !memcmp(t->s + e->a, w, wl))) return e;
  }
}

int bl_sup_table_init(bl_sup_table *t, const boxlint__mem *m, const char *s,
                      const bl_sup_comment *c) {
  size_t cap = 16;
  while (cap < c->nids * 2) cap *= 2;
  t->s = s;
  t->c = c;
  t->mask = cap - 1;
  t->t = boxlint__malloc(m, cap * sizeof *t->t);
  if (!t->t) return -1;
  memset(t->t, 0, cap * sizeof *t->t);
  size_t i = c->ids, a, b;
  while (bl_sup_next_id(s, &i, c->ids_end, &a, &b)) {
    bl_sup_id *e = id_find(t, s + a, b - a);
    if (!e->b) {
      e->a = a;
      e->b = b;
    }
  }
  return 0;
}

void bl_sup_table_free(bl_sup_table *t, const boxlint__mem *m) {
  boxlint__free(m, t->t);
  t->t = NULL;
}

int bl_sup_table_silences(bl_sup_table *t, const boxlint_diag *d) {
  if (d->severity >= BOXLINT_SEVERITY_ERROR || !strcmp(d->rule, BL_R_NOT_STATIC)) return 0;
  bl_sup_id *e = id_find(t, d->rule, strlen(d->rule));
  if (!e->b) return 0;
  e->used = 1;
  return 1;
}

int bl_sup_table_unused(bl_sup_table *t, int (*fn)(void *ctx, size_t a, size_t b), void *ctx) {
  bl_sup_id *u = id_find(t, BL_R_UNUSED_SUPPRESSION, sizeof BL_R_UNUSED_SUPPRESSION - 1);
  size_t i = t->c->ids, a, b;
  while (bl_sup_next_id(t->s, &i, t->c->ids_end, &a, &b)) {
    bl_sup_id *x = id_find(t, t->s + a, b - a);
    if (x->used && x->a == a) continue;
    if (u->b && u->a > a) { /* silenced by the later unused-suppression */
      u->used = 1;
      continue;
    }
    int rc = fn(ctx, a, b);
    if (rc) return rc;
  }
  return 0;
}

/*----------------------------------------------------------------------------------------------
 * What is reported
 *--------------------------------------------------------------------------------------------*/

static const char *q(boxlint_report *r, const char *p, size_t n) {
  const char *x = boxlint__quote(r, p, n, 60);
  return x ? x : "";
}

const char *bl_sup_unused_message(boxlint_report *r, const char *s, size_t a, size_t b,
                                  const char *scope) {
  const boxlint_rule_info *ri = boxlint_rule_find(s + a, b - a);
  if (ri && ri->severity == BOXLINT_SEVERITY_ERROR)
    return boxlint__rmsg(r, "%s is an error and cannot be suppressed", q(r, s + a, b - a));
  if (b - a == sizeof BL_R_NOT_STATIC - 1 && !memcmp(s + a, BL_R_NOT_STATIC, b - a))
    return boxlint__rmsg(r, "not-static cannot be suppressed inline: it is the only sign that a "
                            "value went unchecked (a config may turn it off for a project)");
  return boxlint__rmsg(r, "the suppression of %s suppresses nothing %s", q(r, s + a, b - a),
                       scope);
}

const char *bl_sup_unused_hint(boxlint_report *r, const char *s, size_t a, size_t b) {
  const char *h = boxlint__rprintf(r, "remove %s from the boxlint ignore comment",
                                   q(r, s + a, b - a));
  return h ? h : "remove it from the boxlint ignore comment";
}

const char *bl_sup_bad_message(boxlint_report *r, const char *s, const bl_sup_comment *c) {
  const char *x = q(r, s + c->bad, c->bad_end - c->bad);
  static const char head[] = "malformed boxlint suppression comment, it suppresses nothing: ";
  switch (c->kind == BL_SUP_TOO_MANY ? BL_SUP_OK : c->problem) {
  case BL_SUP_SPELLING:
    return boxlint__rmsg(r, "%s'%s' is not a boxlint directive", head, x);
  case BL_SUP_DIRECTIVE:
    if (c->bad == c->bad_end)
      return boxlint__rmsg(r, "%sno directive after 'boxlint:' (the directive is 'ignore=')", head);
    return boxlint__rmsg(r, "%sunknown directive '%s' (the directive is 'ignore=')", head, x);
  case BL_SUP_NO_EQUALS:
    return boxlint__rmsg(r, "%s'ignore' takes '=' and the rule ids", head);
  case BL_SUP_NO_IDS:
    return boxlint__rmsg(r, "%sno rule id after 'ignore='", head);
  case BL_SUP_BAD_ID:
    return boxlint__rmsg(r, "%s'%s' is not a rule id (ids hold a-z, 0-9, '-', '_' and '.')",
                         head, x);
  case BL_SUP_TRAILING:
    return boxlint__rmsg(r, "%s'%s' after the rule ids (a reason follows ' -- ', and the ids "
                            "are separated by commas without blanks)", head, x);
  case BL_SUP_OK:
    break;
  }
  return boxlint__rmsg(r, "a boxlint ignore comment lists %zu rule ids, more than the %d it "
                          "may: it suppresses nothing", c->nids, BL_SUP_MAX_IDS);
}

const char *bl_sup_bad_hint(const bl_sup_comment *c) {
  if (c->kind == BL_SUP_TOO_MANY) return "list only the rules that need silencing here";
  return "write '# boxlint: ignore=rule-a,rule-b -- reason'";
}

void bl_sup_bad_span(const bl_sup_comment *c, size_t *a, size_t *b) {
  *a = c->kind == BL_SUP_TOO_MANY ? c->ids : c->bad;
  *b = c->kind == BL_SUP_TOO_MANY ? c->ids_end : c->bad_end;
}

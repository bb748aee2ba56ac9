/* Fixes as edits of Python source, in the literal's own syntax: text going into a literal is
 * escaped for its prefix and quote (a raw string takes it only when no escape is needed, else
 * the fix is refused with the reason; an f-string doubles its braces; a bytes literal escapes
 * non-ASCII), and an entry added to a list keeps the list's layout (one line, or one entry per
 * line at the last entry's indentation). Calls nothing but the report's arena. */
#include <string.h>
#include "python/python_int.h"

/* `text` escaped for piece `p` into the report's arena; NULL with *why when impossible. */
static char *encode(boxlint_report *r, const bl_piece *p, const char *text, size_t tl,
                    size_t *out_len, const char **why) {
  char *o = boxlint__ralloc(r, tl * 4 + 1), *w = o;
  if (!o) return NULL;
  int raw = (p->flags & BL_LIT_RAW) != 0, triple = (p->flags & BL_LIT_TRIPLE) != 0;
  int bytes = (p->flags & BL_LIT_BYTES) != 0, fstr = (p->flags & BL_LIT_FSTRING) != 0;
  for (size_t i = 0; i < tl; i++) {
    unsigned char c = (unsigned char)text[i];
    int nl = c == '\n' || c == '\r';
    if (raw && (c == '\\' || c == (unsigned char)p->quote || (nl && !triple) || c == '\r' ||
                (c < 0x20 && c != '\n' && c != '\t') || (bytes && c >= 0x80))) {
      *why = "the text needs an escape, and the literal is a raw string";
      return NULL;
    }
    if (fstr && (c == '{' || c == '}')) *w++ = (char)c;
    if (!raw && (c == '\\' || c == (unsigned char)p->quote)) {
      *w++ = '\\';
      *w++ = (char)c;
    } else if (!raw && c == '\n' && !triple) {
      *w++ = '\\';
      *w++ = 'n';
    } else if (!raw && c == '\t') {
      *w++ = '\\';
      *w++ = 't';
    } else if (!raw && (c < 0x20 || c == 0x7f || (bytes && c >= 0x80)) && c != '\n') {
      static const char hx[] = "0123456789abcdef";
      *w++ = '\\';
      *w++ = 'x';
      *w++ = hx[c >> 4];
      *w++ = hx[c & 15];
    } else {
      *w++ = (char)c;
    }
  }
  *w = 0;
  *out_len = (size_t)(w - o);
  return o;
}

static void set(boxlint_fix *f, size_t off, size_t len, const char *text, size_t tl) {
  f->offset = off;
  f->length = len;
  f->text = text;
  f->text_len = tl;
  f->description = NULL;
  f->safety = BOXLINT_FIX_SAFE; /* place.c gives it the safety of the fix it carries */
}

/* Whether b[0..n) is the body of a raw literal quoted by q: a backslash always takes the next
 * character (a line break included), so an edit must not part them; no line break outside a
 * triple-quoted literal, no closing quote inside one, no quote at its end. */
static int raw_body_ok(const char *b, size_t n, char q, int triple) {
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    char c = b[i];
    if (c == '\\') {
      if (i + 1 == n) return 0;
      i += b[i + 1] == '\r' && i + 2 < n && b[i + 2] == '\n' ? 2 : 1;
      run = 0;
    } else if (c == q) {
      if (!triple || ++run == 3) return 0;
    } else {
      if (!triple && (c == '\n' || c == '\r')) return 0;
      run = 0;
    }
  }
  return run == 0;
}

int bl_py_edit_string(boxlint_report *r, const char *s, const bl_pyval *v, size_t o, size_t l,
                      const char *text, size_t tl, boxlint_fix *fix, const char **why) {
  const bl_pystr *str = &v->str;
  *why = NULL;
  if (v->kind != BL_PV_STR || !v->npieces || o + l > str->len || o + l < o) {
    *why = "the value is not one string literal";
    return 0;
  }
  /* Whole-value replacement across pieces: one literal in the first piece's style. */
  if (o == 0 && l == str->len && v->npieces > 1) {
    const bl_piece *p = &v->pieces[0];
    size_t el;
    char *enc = encode(r, p, text, tl, &el, why);
    if (!enc) return 0;
    size_t pre = p->body - p->start, post = p->end - p->body_end;
    char *lit = boxlint__ralloc(r, pre + el + post + 1);
    if (!lit) return 0;
    memcpy(lit, s + p->start, pre);
    memcpy(lit + pre, enc, el);
    memcpy(lit + pre + el, s + p->body_end, post);
    lit[pre + el + post] = 0;
    set(fix, v->start, v->end - v->start, lit, pre + el + post);
    return 1;
  }
  uint32_t piece = str->piece[o < str->len ? o : str->len];
  if (l && str->piece[o + l - 1] != piece) {
    *why = "the text to replace spans two concatenated literals";
    return 0;
  }
  if ((o > 0 && o < str->len && str->src[o] == str->src[o - 1]) ||
      (o + l < str->len && o + l > 0 && str->src[o + l] == str->src[o + l - 1])) {
    *why = "the text to replace begins or ends inside an escape sequence";
    return 0;
  }
  size_t a = str->src[o], b = l ? str->src_end[o + l - 1] : a;
  size_t el;
  const bl_piece *p = &v->pieces[piece];
  char *enc = encode(r, p, text, tl, &el, why);
  if (!enc) return 0;
  if (p->flags & BL_LIT_RAW) { /* the literal as it would be, checked whole */
    size_t n1 = a - p->body, n2 = p->body_end - b;
    char *nb = boxlint__ralloc(r, n1 + el + n2 + 1);
    if (!nb) return 0;
    memcpy(nb, s + p->body, n1);
    memcpy(nb + n1, enc, el);
    memcpy(nb + n1 + el, s + b, n2);
    if (!raw_body_ok(nb, n1 + el + n2, p->quote, (p->flags & BL_LIT_TRIPLE) != 0)) {
      *why = "the edit would part a backslash from the character it keeps in a raw string";
      return 0;
    }
  }
  set(fix, a, b - a, enc, el);
  return 1;
}

/* The quote of the first string literal in v (or '"'). */
static char quote_of(const bl_pyval *v) {
  if (!v) return '"';
  if (v->kind == BL_PV_STR && v->npieces) return v->pieces[0].quote;
  for (size_t i = 0; v->kind == BL_PV_POLICY && i < v->nargs; i++) {
    char q = quote_of(v->args[i].v);
    if (q != '"') return q;
  }
  for (size_t i = 0; i < v->nitems; i++) {
    char q = quote_of(v->keys ? v->keys[i] : NULL);
    if (q != '"' || (v->keys && v->keys[i])) return q;
    q = quote_of(v->items[i]);
    if (q != '"') return q;
  }
  return '"';
}

/* The indentation of the line holding offset `at`. */
static void indent_of(const char *s, size_t at, size_t *a, size_t *b) {
  size_t ls = at;
  while (ls > 0 && s[ls - 1] != '\n' && s[ls - 1] != '\r') ls--;
  size_t e = ls;
  while (e < at && (s[e] == ' ' || s[e] == '\t')) e++;
  *a = ls;
  *b = e;
}

static int same_line(const char *s, size_t a, size_t b) {
  for (size_t i = a; i < b; i++)
    if (s[i] == '\n' || s[i] == '\r') return 0;
  return 1;
}

/* Insert `item` after the last of `n` elements (`last_end`) of a bracket opened at `open`,
 * or just inside `close` when empty. */
static int insert_item(boxlint_report *r, const char *s, size_t open, size_t close, size_t n,
                       size_t last_start, size_t last_end, const char *item, size_t il,
                       boxlint_fix *fix) {
  if (!n) {
    char *t = boxlint__rstrdup(r, item, il);
    if (!t) return 0;
    set(fix, open + 1, 0, t, il);
    return 1;
  }
  int one_line = same_line(s, open, last_end);
  size_t ia, ib;
  indent_of(s, last_start, &ia, &ib);
  const char *nl = "\n";
  for (size_t i = open; i < last_end; i++)
    if (s[i] == '\r') { nl = (s[i + 1] == '\n') ? "\r\n" : "\r"; break; }
  const char *t = one_line ? boxlint__rprintf(r, ", %.*s", (int)il, item)
                           : boxlint__rprintf(r, ",%s%.*s%.*s", nl, (int)(ib - ia), s + ia,
                                              (int)il, item);
  (void)close;
  if (!t) return 0;
  set(fix, last_end, 0, t, strlen(t));
  return 1;
}

int bl_py_edit_insert_deny(boxlint_report *r, const char *s, size_t n, const bl_pypolicy *p,
                           const char *text, size_t tl, boxlint_fix *fix, const char **why) {
  (void)n;
  char q = quote_of(p->v);
  bl_piece pc;
  memset(&pc, 0, sizeof pc);
  pc.quote = q;
  size_t el;
  *why = NULL;
  char *enc = encode(r, &pc, text, tl, &el, why);
  if (!enc) return 0;
  const char *lit = boxlint__rprintf(r, "%c%s%c", q, enc, q);
  if (!lit) return 0;
  const bl_pyval *d = p->lists[1];
  if (d && (d->kind == BL_PV_LIST || d->kind == BL_PV_TUPLE) && d->close) {
    if (d->kind == BL_PV_TUPLE && d->nitems == 0) {
      const char *t = boxlint__rprintf(r, "%s,", lit);
      if (!t) return 0;
      set(fix, d->open + 1, 0, t, strlen(t));
      return 1;
    }
    const bl_pyval *last = d->nitems ? d->items[d->nitems - 1] : NULL;
    return insert_item(r, s, d->open, d->close, d->nitems, last ? last->start : 0,
                       last ? last->end : 0, lit, strlen(lit), fix);
  }
  if (d) {
    *why = "deny_out is not a list literal";
    return 0;
  }
  const bl_pyval *v = p->v;
  const char *member = v->kind == BL_PV_DICT
                           ? boxlint__rprintf(r, "%cdeny_out%c: [%s]", q, q, lit)
                           : boxlint__rprintf(r, "deny_out=[%s]", lit);
  if (!member) return 0;
  size_t cnt = v->kind == BL_PV_DICT ? v->nitems : v->nargs;
  const bl_pyval *last = !cnt ? NULL : v->kind == BL_PV_DICT ? v->items[cnt - 1] : v->args[cnt - 1].v;
  size_t last_start = !last ? 0 : v->kind == BL_PV_DICT && v->keys[cnt - 1] ? v->keys[cnt - 1]->start
                    : v->kind == BL_PV_POLICY && v->args[cnt - 1].name_end ? v->args[cnt - 1].name
                    : last->start;
  return insert_item(r, s, v->open, v->close, cnt, last_start, last ? last->end : 0, member,
                     strlen(member), fix);
}

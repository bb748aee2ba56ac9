/* A unit's fixes as edits of its file, in the file's own syntax (docs/command.md "Fixes"): what
 * boxlint_apply_fixes takes. Owns the translation of each kind of fix:
 *   - a fragment's (and any file kind whose fixes the library already makes file-relative, such
 *     as Python's): copied as they are;
 *   - a JSON command's (`command` >= 0): relative to the decoded command string, mapped into its
 *     string literal (jsonpos.c) with the replacement JSON-escaped; a field's (`command` -1, a
 *     path such as "name"): relative to the decoded value of the string at that path, likewise;
 *     an edit that does not start and end between escapes re-encodes the whole literal;
 *   - a NetworkPolicy fix (a path under "network_policy", or any fix of a UNIT_POLICY file):
 *     list-relative (boxlint_policy_new): `offset` an entry index, `length` the entries replaced,
 *     `text` the new entry, in the list the fix's description names ("allow_out", "deny_out");
 *     a replaced entry's literal is re-encoded, an inserted one keeps the list's layout, and a
 *     missing list is added as a member after the policy's last one, in the same style.
 * Each edit carries the safety of the finding's fix (boxlint_fix_safety) and how many findings
 * propose it (identical edits of several findings are one edit); fix_run.c chooses which to
 * apply and counts them. Only the findings the output shows carry an edit (cli_each_shown).
 * Called by fix_run.c; calls jsonpos.c, output/ and jansson (decoding a literal). */
#include <stdlib.h>
#include <string.h>
#include "fix/fix.h"

/*==============================================================================================
 * MARK: Buffers and the edit list
 *============================================================================================*/

typedef struct sbuf {
  char *p;
  size_t n, cap;
  int oom;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n) {
  if (b->oom) return;
  if (b->cap - b->n <= n) {
    size_t cap = b->cap ? b->cap : 64;
    while (cap - b->n <= n && cap < SIZE_MAX / 2) cap *= 2;
    char *p = cap - b->n > n ? realloc(b->p, cap) : NULL;
    if (!p) {
      b->oom = 1;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  if (n) memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}

/* `s` as the inside of a JSON string literal: `"` and `\` escaped, control characters as \n,
 * \t, ... or \u00XX; everything else (non-ASCII UTF-8 included) as it is. */
static void sb_json(sbuf *b, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  size_t from = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch >= 0x20 && ch != '"' && ch != '\\') continue;
    sb_put(b, s + from, i - from);
    from = i + 1;
    char esc[6] = {'\\', 0, 0, 0, 0, 0};
    size_t el = 2;
    switch (ch) {
    case '"': esc[1] = '"'; break;
    case '\\': esc[1] = '\\'; break;
    case '\n': esc[1] = 'n'; break;
    case '\t': esc[1] = 't'; break;
    case '\r': esc[1] = 'r'; break;
    case '\b': esc[1] = 'b'; break;
    case '\f': esc[1] = 'f'; break;
    default:
      memcpy(esc + 1, "u00", 3);
      esc[4] = hex[ch >> 4];
      esc[5] = hex[ch & 15];
      el = 6;
    }
    sb_put(b, esc, el);
  }
  sb_put(b, s + from, n - from);
}

/* A quoted JSON string literal of `s`. */
static void sb_literal(sbuf *b, const char *s, size_t n) {
  sb_put(b, "\"", 1);
  sb_json(b, s, n);
  sb_put(b, "\"", 1);
}

/* Add the edit [off, off + len) -> b's text, taking b's buffer (identical edits are dropped
 * once all are in: drop_repeats). Returns 0, or -1 out of memory (b released either way). */
static int add_edit(fix_edits *e, size_t off, size_t len, sbuf *b) {
  if (!b->oom && !b->p) sb_put(b, "", 0); /* an empty replacement still gets a buffer */
  if (b->oom) {
    free(b->p);
    return -1;
  }
  if (e->n == e->cap) {
    size_t cap = e->cap ? e->cap * 2 : 16;
    boxlint_fix *v = realloc(e->fix, cap * sizeof *v);
    if (v) e->fix = v;
    size_t *nf = v ? realloc(e->nfind, cap * sizeof *nf) : NULL;
    if (!nf) {
      free(b->p);
      return -1;
    }
    e->nfind = nf;
    e->cap = cap;
  }
  e->nfind[e->n] = 1;
  boxlint_fix *f = &e->fix[e->n++];
  f->offset = off;
  f->length = len;
  f->text = b->p;
  f->text_len = b->n;
  f->description = "";
  f->safety = BOXLINT_FIX_SAFE; /* diag_edit gives it the finding's */
  return 0;
}

static int edit_cmp(const void *a, const void *b) {
  const boxlint_fix *x = *(const boxlint_fix *const *)a, *y = *(const boxlint_fix *const *)b;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  if (x->length != y->length) return x->length < y->length ? -1 : 1;
  if (x->text_len != y->text_len) return x->text_len < y->text_len ? -1 : 1;
  if (x->safety != y->safety) return x->safety < y->safety ? -1 : 1;
  int r = memcmp(x->text, y->text, x->text_len);
  return r ? r : x < y ? -1 : x > y; /* equal edits in the order they were added */
}

/* Keep each identical edit once (the first added; the same text and safety), counting the
 * findings of the others in it, the others in their order: sorted, so
 * that 400,000 fixes cost n log n, not a scan of the list per edit (issue 23). Returns 0, or
 * -1 out of memory. */
static int drop_repeats(fix_edits *e) {
  if (e->n < 2) return 0;
  boxlint_fix **by = malloc(e->n * sizeof *by);
  unsigned char *dup = calloc(e->n, 1);
  if (!by || !dup) {
    free(by);
    free(dup);
    return -1;
  }
  for (size_t i = 0; i < e->n; i++) by[i] = &e->fix[i];
  qsort(by, e->n, sizeof *by, edit_cmp);
  for (size_t i = 1; i < e->n; i++) {
    const boxlint_fix *x = by[i - 1], *y = by[i];
    if (x->offset == y->offset && x->length == y->length && x->text_len == y->text_len &&
        x->safety == y->safety && !memcmp(x->text, y->text, x->text_len)) {
      dup[by[i] - e->fix] = 1;
      e->nfind[x - e->fix] += e->nfind[y - e->fix];
      by[i] = by[i - 1]; /* the next one compares with the kept edit: the same text */
    }
  }
  size_t k = 0;
  for (size_t i = 0; i < e->n; i++) {
    if (dup[i]) {
      free((char *)e->fix[i].text);
    } else {
      e->nfind[k] = e->nfind[i];
      e->fix[k++] = e->fix[i];
    }
  }
  e->n = k;
  free(by);
  free(dup);
  return 0;
}

void cli_fix_edits_free(fix_edits *e) {
  for (size_t i = 0; i < e->n; i++) free((char *)e->fix[i].text);
  free(e->fix);
  free(e->nfind);
  free(e->ptr);
  memset(e, 0, sizeof *e);
}

/*==============================================================================================
 * MARK: Edits inside a JSON string literal
 *============================================================================================*/

/* The raw offset of decoded byte `d` of the literal at `lit`, or SIZE_MAX when `d` falls inside
 * the bytes one escape decodes to (\u00e9 is two bytes): no raw boundary there. */
static size_t raw_boundary(const char *s, size_t n, size_t lit, size_t d) {
  size_t r = jp_string_offset(s, n, lit, d);
  if (d > 0 && jp_string_offset(s, n, lit, d - 1) == r) return SIZE_MAX;
  return r;
}

/* Fix `f`, relative to the decoded value of the string literal at `lit`, as an edit. */
static int string_edit(const unit *u, size_t lit, const boxlint_fix *f, fix_edits *e) {
  const char *s = u->text;
  size_t n = u->len;
  if (lit >= n || s[lit] != '"') return 0;
  size_t end = jp_skip(s, n, lit);
  json_error_t err;
  json_t *v = json_loadb(s + lit, end - lit, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
  if (!json_is_string(v)) {
    json_decref(v);
    return 0;
  }
  const char *dec = json_string_value(v);
  size_t dl = json_string_length(v);
  int rc = 0;
  if (f->offset <= dl && f->length <= dl - f->offset) {
    size_t a = f->offset, z = f->offset + f->length;
    size_t ra = raw_boundary(s, n, lit, a), rz = raw_boundary(s, n, lit, z);
    sbuf b = {0};
    if (ra != SIZE_MAX && rz != SIZE_MAX) {
      sb_json(&b, f->text, f->text_len);
      rc = add_edit(e, ra, rz - ra, &b);
    } else {
      sb_put(&b, "\"", 1);
      sb_json(&b, dec, a);
      sb_json(&b, f->text, f->text_len);
      sb_json(&b, dec + z, dl - z);
      sb_put(&b, "\"", 1);
      rc = add_edit(e, lit, end - lit, &b);
    }
  }
  json_decref(v);
  return rc;
}

/*==============================================================================================
 * MARK: NetworkPolicy lists
 *============================================================================================*/

static int ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Where `word` first occurs in `text` as a word of its own, or NULL. */
static const char *first_word(const char *text, const char *word) {
  size_t wl = strlen(word);
  for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
    if ((p == text || !ident_char(p[-1])) && !ident_char(p[wl])) return p;
  return NULL;
}

/* The list a policy fix edits: the first of "allow_out" and "deny_out" that its description
 * names, else the one in the finding's path; NULL when neither names one. */
static const char *fix_list(const boxlint_diag *d) {
  const char *texts[2] = {d->fix->description, d->path};
  for (int t = 0; t < 2; t++) {
    if (!texts[t]) continue;
    const char *a = first_word(texts[t], "allow_out"), *b = first_word(texts[t], "deny_out");
    if (a && (!b || a < b)) return "allow_out";
    if (b) return "deny_out";
  }
  return NULL;
}

/* The separator to write before a new last item of the container that opens at `open`, whose
 * `count` items start at `first` (the last two: `prev_end`, `last_start`): the one between its
 * last two items; with one item, a new line indented like it when it is on a line of its own
 * after the opening bracket, else ", ". */
static void item_sep(sbuf *b, const char *s, size_t open, size_t first, size_t count,
                     size_t prev_end, size_t last_start) {
  if (count >= 2) {
    sb_put(b, s + prev_end, last_start - prev_end);
    return;
  }
  if (!memchr(s + open + 1, '\n', first - open - 1)) {
    sb_put(b, ", ", 2);
    return;
  }
  size_t ls = first;
  while (ls > 0 && s[ls - 1] != '\n') ls--;
  size_t w = ls;
  while (w < first && (s[w] == ' ' || s[w] == '\t')) w++;
  sb_put(b, ",\n", 2);
  sb_put(b, s + ls, w - ls);
}

/* While cli_fix_edits runs: the index of the unit's text (jsonpos.c), so that the commands
 * array and the policy's lists are walked once, not once per fix; NULL otherwise. */
static _Thread_local jp_index *fx_ix;

/* Entry `idx` of the list at `arr`: its start, and its end in *end. */
static size_t entry_at(const char *s, size_t n, size_t arr, size_t idx, size_t *end) {
  size_t at = jp_ix_element(fx_ix, s, n, arr, idx);
  *end = at == SIZE_MAX ? SIZE_MAX : jp_skip(s, n, at);
  return at;
}

static size_t entry_count(const char *s, size_t n, size_t arr) {
  return jp_ix_count(fx_ix, s, n, arr);
}

/* Insert the entry `text` before entry `idx` of the list at `arr` (at the end when `idx` is
 * past it), keeping the list's layout. */
static int list_insert(const unit *u, size_t arr, size_t idx, const boxlint_fix *f,
                       fix_edits *e) {
  const char *s = u->text;
  size_t n = u->len, count = entry_count(s, n, arr);
  sbuf b = {0};
  if (count == 0) { /* [] -> ["X"] */
    sb_put(&b, "[", 1);
    sb_literal(&b, f->text, f->text_len);
    sb_put(&b, "]", 1);
    return add_edit(e, arr, jp_skip(s, n, arr) - arr, &b);
  }
  size_t first_end, first = entry_at(s, n, arr, 0, &first_end);
  if (idx >= count) {
    size_t last_end, prev_end = 0, last = entry_at(s, n, arr, count - 1, &last_end);
    if (count >= 2) entry_at(s, n, arr, count - 2, &prev_end);
    item_sep(&b, s, arr, first, count, prev_end, last);
    sb_literal(&b, f->text, f->text_len);
    return add_edit(e, last_end, 0, &b);
  }
  /* Before entry idx: the new literal, then the separator that follows an entry there. */
  size_t at_end, at = entry_at(s, n, arr, idx, &at_end), other_end;
  sb_literal(&b, f->text, f->text_len);
  if (idx + 1 < count) {
    size_t next = entry_at(s, n, arr, idx + 1, &other_end);
    sb_put(&b, s + at_end, next - at_end);
  } else if (idx > 0) {
    entry_at(s, n, arr, idx - 1, &other_end);
    sb_put(&b, s + other_end, at - other_end);
  } else {
    sb_put(&b, ", ", 2);
  }
  return add_edit(e, at, 0, &b);
}

/* The members of the object at `obj`: their number, and the last two (m[1] the last). */
typedef struct member {
  size_t ks, ke, vs, ve; /* key literal [ks, ke), value [vs, ve) */
} member;

static size_t last_members(const char *s, size_t n, size_t obj, member m[2]) {
  size_t i = jp_ws(s, n, obj), count = 0;
  if (i >= n || s[i] != '{') return 0;
  i = jp_ws(s, n, i + 1);
  while (i < n && s[i] == '"') {
    member x;
    x.ks = i;
    x.ke = jp_skip(s, n, i);
    size_t colon = jp_ws(s, n, x.ke);
    if (colon >= n || s[colon] != ':') break;
    x.vs = jp_ws(s, n, colon + 1);
    x.ve = jp_skip(s, n, x.vs);
    m[0] = m[1];
    m[1] = x;
    count++;
    i = jp_ws(s, n, x.ve);
    if (i >= n || s[i] != ',') break;
    i = jp_ws(s, n, i + 1);
  }
  return count;
}

/* Add the member `"name": ["text"]` to the policy object at `pol`, after its last member and in
 * its style (separator, space around the colon). */
static int add_list_member(const unit *u, size_t pol, const char *name, const boxlint_fix *f,
                           fix_edits *e) {
  const char *s = u->text;
  size_t n = u->len;
  member m[2];
  memset(m, 0, sizeof m);
  size_t count = last_members(s, n, pol, m);
  sbuf b = {0};
  if (count == 0) {
    sb_put(&b, "{\"", 2);
    sb_put(&b, name, strlen(name));
    sb_put(&b, "\": [", 4);
    sb_literal(&b, f->text, f->text_len);
    sb_put(&b, "]}", 2);
    size_t o = jp_ws(s, n, pol);
    return add_edit(e, o, jp_skip(s, n, o) - o, &b);
  }
  size_t first = count >= 2 ? 0 : m[1].ks;
  item_sep(&b, s, jp_ws(s, n, pol), first, count, m[0].ve, m[1].ks);
  sb_put(&b, "\"", 1);
  sb_put(&b, name, strlen(name));
  sb_put(&b, "\"", 1);
  sb_put(&b, s + m[1].ke, m[1].vs - m[1].ke); /* the colon as the last member writes it */
  sb_put(&b, "[", 1);
  sb_literal(&b, f->text, f->text_len);
  sb_put(&b, "]", 1);
  return add_edit(e, m[1].ve, 0, &b);
}

/* A list-relative policy fix as an edit. */
static int policy_edit(const unit *u, const boxlint_diag *d, fix_edits *e) {
  const char *s = u->text;
  size_t n = u->len;
  const boxlint_fix *f = d->fix;
  size_t pol = u->kind == UNIT_POLICY ? u->policy_off
                                      : jp_ix_member(fx_ix, s, n, jp_ws(s, n, 0), "network_policy", NULL);
  const char *name = fix_list(d);
  if (pol == SIZE_MAX || !name) return 0;
  size_t arr = jp_ix_member(fx_ix, s, n, pol, name, NULL);
  if (arr == SIZE_MAX || s[arr] == 'n') { /* absent or null: only an insertion makes it */
    if (f->length) return 0;
    if (arr == SIZE_MAX) return add_list_member(u, pol, name, f, e);
    sbuf b = {0};
    sb_put(&b, "[", 1);
    sb_literal(&b, f->text, f->text_len);
    sb_put(&b, "]", 1);
    return add_edit(e, arr, jp_skip(s, n, arr) - arr, &b);
  }
  if (s[arr] != '[') return 0;
  if (!f->length) return list_insert(u, arr, f->offset, f, e);
  /* Entries [offset, offset + length) replaced by one; removing entries is never a fix. */
  size_t e0, e1;
  size_t a = entry_at(s, n, arr, f->offset, &e0);
  size_t z = f->offset + f->length > f->offset
                 ? entry_at(s, n, arr, f->offset + f->length - 1, &e1)
                 : SIZE_MAX;
  if (a == SIZE_MAX || z == SIZE_MAX || !f->text_len) return 0;
  sbuf b = {0};
  sb_literal(&b, f->text, f->text_len);
  return add_edit(e, a, e1 - a, &b);
}

/*==============================================================================================
 * MARK: A unit's edits
 *============================================================================================*/

/* Is `d` about the NetworkPolicy of a JSON unit? */
static int is_policy(const unit *u, const boxlint_diag *d) {
  if (u->kind == UNIT_POLICY) return 1;
  const char *p = d->path;
  return d->command < 0 && p && !strncmp(p, "network_policy", 14) &&
         (!p[14] || p[14] == '.' || p[14] == '[');
}

static int diag_edit1(const unit *u, const boxlint_diag *d, fix_edits *e) {
  const boxlint_fix *f = d->fix;
  if (u->kind != UNIT_JSON && u->kind != UNIT_POLICY) {
    sbuf b = {0};
    sb_put(&b, f->text, f->text_len);
    return add_edit(e, f->offset, f->length, &b);
  }
  if (is_policy(u, d)) return policy_edit(u, d, e);
  size_t lit = SIZE_MAX;
  if (d->command >= 0 && u->cmds_off != SIZE_MAX)
    lit = jp_ix_element(fx_ix, u->text, u->len, u->cmds_off, (size_t)d->command);
  else if (d->command < 0 && d->path)
    lit = jp_ix_path_at(fx_ix, u->text, u->len, 0, d->path);
  return lit == SIZE_MAX ? 0 : string_edit(u, lit, f, e);
}

/* d's fix as an edit (or none), with the fix's safety. */
static int diag_edit(const unit *u, const boxlint_diag *d, fix_edits *e) {
  size_t n0 = e->n;
  int rc = diag_edit1(u, d, e);
  for (size_t i = n0; i < e->n; i++) e->fix[i].safety = d->fix->safety;
  return rc;
}

static int edits_ptr(fix_edits *e) {
  if (drop_repeats(e)) return -1;
  if (e->n) {
    e->ptr = malloc(e->n * sizeof *e->ptr);
    if (!e->ptr) return -1;
    for (size_t i = 0; i < e->n; i++) e->ptr[i] = &e->fix[i];
  }
  return 0;
}

int cli_fix_edit_one(const unit *u, const boxlint_diag *d, fix_edits *e) {
  memset(e, 0, sizeof *e);
  if (!u->text || u->kind == UNIT_INLINE || !d->fix || (!d->fix->text && d->fix->text_len))
    return 0;
  return diag_edit(u, d, e) ? -1 : edits_ptr(e);
}

static int all_edits(const unit *u, fix_edits *e);

int cli_fix_edits(const unit *u, fix_edits *e) {
  memset(e, 0, sizeof *e);
  if (!u->text || u->kind == UNIT_INLINE) return 0;
  if (u->kind == UNIT_JSON || u->kind == UNIT_POLICY) fx_ix = jp_index_new(u->text, u->len);
  int rc = all_edits(u, e);
  jp_index_free(fx_ix);
  fx_ix = NULL;
  return rc ? -1 : edits_ptr(e);
}

typedef struct edits_ctx {
  fix_edits *e;
  int failed;
} edits_ctx;

static void one_edit(const unit *u, const boxlint_diag *d, boxlint_severity sev, void *ctx) {
  edits_ctx *x = ctx;
  (void)sev;
  if (x->failed || !d->fix || (!d->fix->text && d->fix->text_len)) return;
  if (diag_edit(u, d, x->e)) x->failed = 1;
}

/* Every shown finding's edit (the output's own choice of what is shown), into `e`. Returns 0,
 * or -1 out of memory. */
static int all_edits(const unit *u, fix_edits *e) {
  edits_ctx x = {e, 0};
  cli_each_shown(u, one_edit, &x);
  return x.failed ? -1 : 0;
}

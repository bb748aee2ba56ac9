/* The publish of a checked document's findings without building and dumping a JSON tree per
 * finding each time (issue 28: on a 100 KB Python file with 329 findings, building the
 * Diagnostic objects and jansson's dump of the 110 KB message took longer than the check).
 * A finding's Diagnostic is its range and a body (severity, source, code, message, rule link,
 * fix flag) that does not depend on where it is. Each body is dumped by jansson once, and kept
 * with the document (`lsp_pubcache`), keyed by what it is made of; the next publish of the
 * document takes the bodies of the findings it shares with the last one from there, writes each
 * range's four integers, and the message is the envelope jansson dumps with the items between
 * its array's brackets. Only the bodies of the current findings are kept. The same Diagnostic
 * (`lsp_finding_body`) makes the JSON tree of the plain publish (reuse off). With the findings
 * kept in order at their byte ranges, an edit inside a comment of a Python file moves them
 * instead of a check (lsp_pub_edit, lsp_pub_again: why this is exact is said there). Called by
 * session.c, server.c and handlers.c (a document's edits, its cache freed); calls
 * lsp_doc.c (positions), lsp_io.c (the write), the library's rule table and jansson, never
 * session.c. */
#define _POSIX_C_SOURCE 200809L /* strncasecmp */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lsp/lsp_int.h"

typedef struct pub_entry {
  uint64_t h;
  char *key;   /* severity, fix flag, code \0 message \0 hint \0 */
  size_t klen;
  char *body;  /* the Diagnostic's members after "range", as jansson dumps them (JSON_EMBED) */
  size_t blen;
  int quotes;  /* an input error, or a message or hint that may quote a comment (a '#') */
} pub_entry;

/* A published finding: its bytes in the text as it is now, and its body. */
typedef struct pub_item {
  size_t a, b, e;
} pub_item;

struct lsp_pubcache {
  pub_entry *e;
  size_t n, cap;
  size_t *slot; /* open addressing: index + 1 into e, 0 empty */
  size_t nslot; /* a power of two, at least twice n */
  pub_item *it; /* the findings published, in order */
  size_t nit, capit;
  int comments; /* a Python file without an input error, no message quoting a comment: an
                   edit inside a comment changes no finding but where it is (lsp_pub_edit) */
  int edited;   /* such edits since the publish, each applied to it[] */
  size_t len;   /* the bytes of the message published: the next one's buffer starts so */
};

json_t *lsp_finding_body(const server *s, int sev, const char *code, const char *message,
                         const char *hint, int fix) {
  size_t ml = strlen(message), hl = hint && *hint ? strlen(hint) : 0;
  char *m = malloc(ml + hl + 2);
  if (!m) return NULL;
  memcpy(m, message, ml);
  if (hl) {
    m[ml] = '\n';
    memcpy(m + ml + 1, hint, hl);
  }
  m[ml + (hl ? hl + 1 : 0)] = 0;
  /* the library's messages are UTF-8 (what they quote is escaped), as the JSON output needs */
  json_t *msg = json_string(m);
  free(m);
  json_t *j = json_pack("{sissssso}", "severity", sev, "source", "boxlint", "code", code,
                        "message", msg ? msg : json_string("(the message is not valid UTF-8)"));
  if (j && s->rule_docs && boxlint_rule_find(code, strlen(code))) {
    size_t n = strlen(s->rule_docs) + strlen(code) + sizeof "/rules/.md";
    char *href = malloc(n);
    if (href) {
      snprintf(href, n, "%s/rules/%s.md", s->rule_docs, code);
      json_object_set_new(j, "codeDescription", json_pack("{ss}", "href", href));
      free(href);
    }
  }
  if (j && fix) json_object_set_new(j, "data", json_pack("{sb}", "fix", 1));
  return j;
}

void lsp_pubcache_free(lsp_pubcache *c) {
  if (!c) return;
  for (size_t i = 0; i < c->n; i++) {
    free(c->e[i].key);
    free(c->e[i].body);
  }
  free(c->e);
  free(c->slot);
  free(c->it);
  free(c);
}

/* The key's hash, eight bytes at a time (a finding's key is a hundred bytes or so). */
static uint64_t key_hash(const char *p, size_t n) {
  const uint64_t k = 0x9E3779B97F4A7C15u;
  uint64_t h = 14695981039346656037u ^ n, w;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    memcpy(&w, p + i, 8);
    h = (h ^ w) * k;
    h ^= h >> 29;
  }
  w = 0;
  memcpy(&w, p + i, n - i);
  h = (h ^ w) * k;
  return h ^ (h >> 32);
}

static pub_entry *cache_find(lsp_pubcache *c, uint64_t h, const char *key, size_t klen) {
  if (!c || !c->nslot) return NULL;
  for (size_t i = (size_t)h & (c->nslot - 1);; i = (i + 1) & (c->nslot - 1)) {
    size_t k = c->slot[i];
    if (!k) return NULL;
    pub_entry *e = &c->e[k - 1];
    if (e->h == h && e->klen == klen && !memcmp(e->key, key, klen)) return e;
  }
}

/* Add an entry (key and body taken over). Returns 0, or -1 out of memory (nothing taken). */
static int cache_add(lsp_pubcache *c, uint64_t h, char *key, size_t klen, char *body,
                     size_t blen, int quotes) {
  if (c->n == c->cap) {
    size_t cap = c->cap ? c->cap * 2 : 64;
    pub_entry *ne = realloc(c->e, cap * sizeof *ne);
    if (!ne) return -1;
    c->e = ne;
    c->cap = cap;
  }
  if ((c->n + 1) * 2 > c->nslot) {
    size_t ns = c->nslot ? c->nslot * 2 : 128;
    size_t *sl = calloc(ns, sizeof *sl);
    if (!sl) return -1;
    for (size_t k = 0; k < c->n; k++) {
      size_t i = (size_t)c->e[k].h & (ns - 1);
      while (sl[i]) i = (i + 1) & (ns - 1);
      sl[i] = k + 1;
    }
    free(c->slot);
    c->slot = sl;
    c->nslot = ns;
  }
  c->e[c->n] = (pub_entry){h, key, klen, body, blen, quotes};
  size_t i = (size_t)h & (c->nslot - 1);
  while (c->slot[i]) i = (i + 1) & (c->nslot - 1);
  c->slot[i] = ++c->n;
  return 0;
}

static int put(lsp_pub *p, const char *t, size_t n) {
  if (p->failed) return -1;
  if (p->len + n + 1 > p->cap) {
    size_t cap = p->cap ? p->cap : 4096;
    while (p->len + n + 1 > cap) cap *= 2;
    char *b = realloc(p->buf, cap);
    if (!b) {
      p->failed = 1;
      return -1;
    }
    p->buf = b;
    p->cap = cap;
  }
  memcpy(p->buf + p->len, t, n);
  p->len += n;
  return 0;
}

static int dump_into(const char *t, size_t n, void *ctx) { return put(ctx, t, n); }

int lsp_pub_begin(server *s, lsp_doc *d, int python, lsp_pub *p) {
  memset(p, 0, sizeof *p);
  p->s = s;
  p->d = d;
  if (d->pub && d->pub->len && (p->buf = malloc(d->pub->len + 4096)) != NULL)
    p->cap = d->pub->len + 4096; /* about the last one's size: no copy as it grows */
  p->next = calloc(1, sizeof *p->next);
  if (p->next) p->next->comments = python;
  json_t *params = json_object();
  json_object_set_new(params, "uri", json_string(d->uri));
  if (d->version >= 0) json_object_set_new(params, "version", json_integer(d->version));
  /* the items go between the array's brackets: "diagnostics" set last, so the dump ends with
   * them (jansson keeps the order members were set in; checked below) */
  json_object_set_new(params, "diagnostics", json_array());
  json_t *env = json_pack("{sssssO}", "jsonrpc", "2.0", "method",
                          "textDocument/publishDiagnostics", "params", params);
  json_decref(params);
  int rc = !p->next || !env || json_dump_callback(env, dump_into, p, JSON_COMPACT) ||
           p->len < 4 || memcmp(p->buf + p->len - 4, "[]}}", 4);
  json_decref(env);
  if (rc) {
    lsp_pub_abandon(p);
    return -1;
  }
  p->len -= 3; /* after the '[' */
  return 0;
}

/* The cache key of a finding in p->key. */
static int make_key(lsp_pub *p, int sev, int fix, const char *code, const char *message,
                    const char *hint) {
  size_t cl = strlen(code) + 1, ml = strlen(message) + 1, hl = hint ? strlen(hint) + 1 : 1;
  size_t need = 2 + cl + ml + hl;
  if (need > p->kcap) {
    char *k = realloc(p->key, need);
    if (!k) return -1;
    p->key = k;
    p->kcap = need;
  }
  p->key[0] = (char)sev;
  p->key[1] = (char)(fix ? 1 : 0);
  memcpy(p->key + 2, code, cl);
  memcpy(p->key + 2 + cl, message, ml);
  memcpy(p->key + 2 + cl + ml, hint ? hint : "", hl);
  p->klen = need;
  return 0;
}

/* The body of a finding: from this publish's entries, the last publish's, or dumped now. */
static const pub_entry *body_of(lsp_pub *p, int sev, int fix, const char *code,
                                const char *message, const char *hint) {
  if (make_key(p, sev, fix, code, message, hint)) return NULL;
  uint64_t h = key_hash(p->key, p->klen);
  const pub_entry *e = cache_find(p->next, h, p->key, p->klen);
  if (e) return e;
  pub_entry *old = cache_find(p->d->pub, h, p->key, p->klen);
  char *key, *body;
  size_t blen = 0;
  int quotes;
  if (old) { /* taken over: the last publish's cache is freed once this one is sent, or when it
                fails (lsp_publish then publishes the plain way); never matched again */
    key = old->key;
    body = old->body;
    blen = old->blen;
    quotes = old->quotes;
    old->key = old->body = NULL;
    old->klen = SIZE_MAX;
  } else {
    key = malloc(p->klen);
    if (key) memcpy(key, p->key, p->klen);
    json_t *j = lsp_finding_body(p->s, sev, code, message, hint, fix);
    body = j ? json_dumps(j, JSON_COMPACT | JSON_EMBED) : NULL;
    blen = body ? strlen(body) : 0;
    json_decref(j);
    quotes = !strcmp(code, "python-syntax") || !strcmp(code, "python-encoding") ||
             strchr(message, '#') || (hint && strchr(hint, '#'));
  }
  if (!key || !body || cache_add(p->next, h, key, p->klen, body, blen, quotes)) {
    free(key);
    free(body);
    return NULL;
  }
  return &p->next->e[p->next->n - 1];
}

/* v in decimal at the end of t[0..*k): *k moves back to its first character. */
static void put_int(char *t, size_t *k, int64_t v) {
  uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  do {
    t[--*k] = (char)('0' + m % 10);
    m /= 10;
  } while (m);
  if (v < 0) t[--*k] = '-';
}

/* name{"line":L,"character":C} at w, the integers as jansson writes them. Returns its end. */
static char *put_pos(lsp_pub *p, char *w, const char *name, size_t nl, size_t off) {
  int64_t l, c;
  lsp_position(p->d->text, p->d->len, p->s->enc, off, &l, &c);
  char li[24], ci[24];
  size_t lk = sizeof li, ck = sizeof ci;
  put_int(li, &lk, l);
  put_int(ci, &ck, c);
  memcpy(w, name, nl);
  w += nl;
  memcpy(w, "{\"line\":", 8);
  w += 8;
  memcpy(w, li + lk, sizeof li - lk);
  w += sizeof li - lk;
  memcpy(w, ",\"character\":", 13);
  w += 13;
  memcpy(w, ci + ck, sizeof ci - ck);
  w += sizeof ci - ck;
  *w++ = '}';
  return w;
}

static void put_item(lsp_pub *p, size_t a, size_t b, const pub_entry *e) {
  char r[160]; /* the range: 33 bytes and four integers of at most 20 characters */
  char *w = r;
  if (p->count) *w++ = ',';
  memcpy(w, "{\"range\":", 9);
  w = put_pos(p, w + 9, "{\"start\":", 9, a);
  w = put_pos(p, w, ",\"end\":", 7, b < a ? a : b);
  memcpy(w, "},", 2);
  put(p, r, (size_t)(w + 2 - r));
  put(p, e->body, e->blen);
  put(p, "}", 1);
  p->count++;
}

void lsp_pub_add(lsp_pub *p, size_t a, size_t b, int sev, const char *code, const char *message,
                 const char *hint, int fix) {
  if (p->failed) return;
  const pub_entry *e = body_of(p, sev, fix, code, message, hint);
  if (!e) {
    p->failed = 1;
    return;
  }
  lsp_pubcache *c = p->next;
  if (c->nit == c->capit) {
    size_t cap = c->capit ? c->capit * 2 : 64;
    pub_item *ni = realloc(c->it, cap * sizeof *ni);
    if (!ni) {
      p->failed = 1;
      return;
    }
    c->it = ni;
    c->capit = cap;
  }
  c->it[c->nit++] = (pub_item){a, b, (size_t)(e - c->e)};
  if (e->quotes) c->comments = 0; /* every edit is checked again */
  put_item(p, a, b, e);
}

void lsp_pub_abandon(lsp_pub *p) {
  free(p->buf);
  free(p->key);
  lsp_pubcache_free(p->next);
  memset(p, 0, sizeof *p);
}

int lsp_pub_send(lsp_pub *p) {
  if (p->failed || put(p, "]}}", 3)) {
    lsp_pub_abandon(p);
    return -1;
  }
  if (p->again) { /* the cache's own items: it stays */
    int rc = lsp_write_raw(&p->s->io, p->buf, p->len) ? 1 : 0;
    p->d->pub->edited = 0;
    lsp_pub_abandon(p);
    return rc;
  }
  int rc = lsp_write_raw(&p->s->io, p->buf, p->len) ? 1 : 0;
  p->next->len = p->len;
  lsp_pubcache_free(p->d->pub);
  p->d->pub = p->next;
  p->next = NULL;
  lsp_pub_abandon(p);
  return rc;
}

/*==============================================================================================
 * MARK: Edits inside a comment of a Python file
 *============================================================================================*/

/* A Python file's comments are read by its tokenizer alone, and only two ways: a comment that
 * names boxlint is a suppression, and one on line 1 or 2 may declare the encoding. An edit
 * inside another comment that leaves it a comment (no line break, no NUL) changes no token
 * but that comment, so the same findings come out, those after it moved by the edit's length
 * (on the same line, lines unchanged), provided none of them spans the comment or quotes it.
 * The tokenizer's view, from the start of the file (valid Python: the last check found no
 * input error): strings, single or triple quoted, with backslash escapes (raw strings too
 * keep a quote after a backslash), and comments from '#' outside them to the line's end. What
 * is typed is no control character (a line break, NUL, a form feed), and ASCII when the file
 * may declare its encoding. */

/* The scan below visits an offset between tokens from what comes before it alone (up to and
 * including the line break that ends a comment or a string left open), so one it visited in a
 * text stays one after a change of the bytes after it: the scan may start there. It notes one
 * every CK_GAP bytes or so in d->ck; an edit at byte a keeps those before a (ck_cut). */
enum { CK_GAP = 1024 };

static void ck_cut(lsp_doc *d, size_t a) {
  while (d->nck && d->ck[d->nck - 1] >= a) d->nck--;
}

static void ck_note(lsp_doc *d, size_t i) {
  if (d->nck && i < d->ck[d->nck - 1] + CK_GAP) return;
  if (d->nck == d->capck) {
    size_t cap = d->capck ? d->capck * 2 : 64;
    size_t *p = realloc(d->ck, cap * sizeof *p);
    if (!p) return; /* not noted: a later scan starts further back */
    d->ck = p;
    d->capck = cap;
  }
  d->ck[d->nck++] = i;
}

/* The comment [*h, *e) holding bytes [a, b) (after its '#', before its line break), or 0. */
static int in_comment(lsp_doc *d, size_t a, size_t b, size_t *h, size_t *e) {
  const char *t = d->text;
  size_t n = d->len, i = d->nck ? d->ck[d->nck - 1] : 0; /* ck_cut: all before a */
  size_t next = i;
  while (i < a) {
    if (i >= next) {
      ck_note(d, i);
      next = i + CK_GAP;
    }
    char c = t[i];
    if (c == '#') {
      size_t j = i;
      while (j < n && t[j] != '\n' && t[j] != '\r') j++;
      if (a <= j) {
        *h = i;
        *e = j;
        return b <= j;
      }
      i = j;
    } else if (c == '"' || c == '\'') {
      int triple = i + 2 < n && t[i + 1] == c && t[i + 2] == c;
      for (i += triple ? 3 : 1; i < n; i++) {
        if (t[i] == '\\') {
          i += i + 2 < n && t[i + 1] == '\r' && t[i + 2] == '\n' ? 2 : 1;
        } else if (t[i] == c && (!triple || (i + 2 < n && t[i + 1] == c && t[i + 2] == c))) {
          i += triple ? 3 : 1;
          break;
        } else if (!triple && (t[i] == '\n' || t[i] == '\r')) {
          break;
        }
      }
      if (i > a) return 0; /* inside a string */
    } else {
      i++;
    }
  }
  return 0;
}

static int names_boxlint(const char *t, size_t n) {
  for (size_t i = 0; i + 7 <= n; i++)
    if (!strncasecmp(t + i, "boxlint", 7)) return 1;
  return 0;
}

/* The line of offset h is the third or later. */
static int past_line_two(const char *t, size_t h) {
  int k = 0;
  for (size_t i = 0; i < h && k < 2; i++)
    k += t[i] == '\n' || (t[i] == '\r' && !(i + 1 < h && t[i + 1] == '\n'));
  return k >= 2;
}

/* Lines 1 and 2 may declare an encoding (they say "coding"): then a byte that is not ASCII may
 * be one the codec refuses (cp1252 has no 0x81), which is an error of the whole file. */
static int may_declare(const char *t, size_t n) {
  size_t i = 0;
  for (int line = 0; line < 2 && i < n; line++) {
    size_t j = i;
    while (j < n && t[j] != '\n' && t[j] != '\r') j++;
    for (size_t k = i; k + 6 <= j; k++)
      if (!memcmp(t + k, "coding", 6)) return 1;
    i = j + (j + 1 < n && t[j] == '\r' && t[j + 1] == '\n' ? 2 : 1);
  }
  return 0;
}

/* Is replacing bytes [a, b) of d's text by s[0..sl) an edit inside a comment, as above? */
static int comment_edit(lsp_doc *d, size_t a, size_t b, const char *s, size_t sl,
                        size_t *h, size_t *e) {
  int ascii = may_declare(d->text, d->len);
  for (size_t i = 0; i < sl; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c == 0x7f || (ascii && c >= 0x80)) return 0; /* line breaks, NUL, ... */
  }
  if (!in_comment(d, a, b, h, e) || a <= *h || !past_line_two(d->text, *h) ||
      names_boxlint(d->text + *h, *e - *h))
    return 0;
  /* the new comment names boxlint only where the old did, or across the edit */
  char w[6 + 64 + 6];
  size_t lo = a - *h > 6 ? a - 6 : *h, hi = *e - b > 6 ? b + 6 : *e, k = 0;
  if (sl > 64) return 0;
  memcpy(w, d->text + lo, a - lo);
  k = a - lo;
  memcpy(w + k, s, sl);
  k += sl;
  memcpy(w + k, d->text + b, hi - b);
  k += hi - b;
  return !names_boxlint(w, k);
}

void lsp_pub_edit(lsp_doc *d, size_t a, size_t b, const char *s, size_t sl, int whole) {
  ck_cut(d, whole ? 0 : a);
  lsp_pubcache *c = d->pub;
  if (!c || !c->comments) return;
  size_t h, e;
  if (whole || !comment_edit(d, a, b, s, sl, &h, &e)) {
    c->comments = 0;
    return;
  }
  for (size_t i = 0; i < c->nit; i++) {
    pub_item *x = &c->it[i];
    if (x->a <= e && x->b >= h) { /* spans or touches the comment */
      c->comments = 0;
      return;
    }
  }
  for (size_t i = 0; i < c->nit; i++) {
    pub_item *x = &c->it[i];
    if (x->a >= b) {
      x->a = x->a - b + a + sl;
      x->b = x->b - b + a + sl;
    }
  }
  c->edited = 1;
}

void lsp_pub_forget(lsp_doc *d) {
  d->nck = 0; /* the text may be another */
  lsp_pubcache_free(d->pub);
  d->pub = NULL;
}

int lsp_pub_again(server *s, lsp_doc *d) {
  lsp_pubcache *c = d->pub;
  if (!c || !c->comments || !c->edited) return -1;
  lsp_pub p;
  if (lsp_pub_begin(s, d, 0, &p)) return -1;
  lsp_pubcache_free(p.next); /* not needed: the document's cache is the list */
  p.next = NULL;
  p.again = 1;
  lsp_positions_begin_doc(d, s->enc);
  for (size_t i = 0; i < c->nit; i++) put_item(&p, c->it[i].a, c->it[i].b, &c->e[c->it[i].e]);
  lsp_positions_end();
  return lsp_pub_send(&p);
}

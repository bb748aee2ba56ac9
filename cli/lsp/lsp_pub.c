/* The publish of a checked document's findings without building and dumping a JSON tree per
 * finding each time (issue 28: on a 100 KB Python file with 329 findings, building the
 * Diagnostic objects and jansson's dump of the 110 KB message took longer than the check).
 * A finding's Diagnostic is its range and a body (severity, source, code, message, rule link,
 * fix flag) that does not depend on where it is. Each body is dumped by jansson once, and kept
 * with the document (`lsp_pubcache`), keyed by what it is made of; the next publish of the
 * document takes the bodies of the findings it shares with the last one from there, writes each
 * range's four integers, and the message is the envelope jansson dumps with the items between
 * its array's brackets. Only the bodies of the current findings are kept. The same Diagnostic
 * (`lsp_finding_body`) makes the JSON tree of the plain publish (reuse off) and of code
 * actions. Called by session.c and server.c, handlers.c (freeing a document's cache); calls
 * lsp_doc.c (positions), lsp_io.c (the write), the library's rule table and jansson, never
 * session.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lsp/lsp_int.h"

typedef struct pub_entry {
  uint64_t h;
  char *key;   /* severity, fix flag, code \0 message \0 hint \0 */
  size_t klen;
  char *body;  /* the Diagnostic's members after "range", as jansson dumps them (JSON_EMBED) */
  size_t blen;
} pub_entry;

struct lsp_pubcache {
  pub_entry *e;
  size_t n, cap;
  size_t *slot; /* open addressing: index + 1 into e, 0 empty */
  size_t nslot; /* a power of two, at least twice n */
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
  free(c);
}

static uint64_t fnv(const char *p, size_t n) {
  uint64_t h = 14695981039346656037u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 1099511628211u;
  return h;
}

static const pub_entry *cache_find(const lsp_pubcache *c, uint64_t h, const char *key,
                                   size_t klen) {
  if (!c || !c->nslot) return NULL;
  for (size_t i = (size_t)h & (c->nslot - 1);; i = (i + 1) & (c->nslot - 1)) {
    size_t k = c->slot[i];
    if (!k) return NULL;
    const pub_entry *e = &c->e[k - 1];
    if (e->h == h && e->klen == klen && !memcmp(e->key, key, klen)) return e;
  }
}

/* Add an entry (key and body taken over). Returns 0, or -1 out of memory (nothing taken). */
static int cache_add(lsp_pubcache *c, uint64_t h, char *key, size_t klen, char *body,
                     size_t blen) {
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
  c->e[c->n] = (pub_entry){h, key, klen, body, blen};
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

int lsp_pub_begin(server *s, lsp_doc *d, lsp_pub *p) {
  memset(p, 0, sizeof *p);
  p->s = s;
  p->d = d;
  p->next = calloc(1, sizeof *p->next);
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
  uint64_t h = fnv(p->key, p->klen);
  const pub_entry *e = cache_find(p->next, h, p->key, p->klen);
  if (e) return e;
  e = cache_find(p->d->pub, h, p->key, p->klen);
  char *key = malloc(p->klen), *body = NULL;
  size_t blen = 0;
  if (e) {
    body = malloc(e->blen + 1);
    if (body) memcpy(body, e->body, (blen = e->blen) + 1);
  } else {
    json_t *j = lsp_finding_body(p->s, sev, code, message, hint, fix);
    body = j ? json_dumps(j, JSON_COMPACT | JSON_EMBED) : NULL;
    blen = body ? strlen(body) : 0;
    json_decref(j);
  }
  if (!key || !body || (memcpy(key, p->key, p->klen), cache_add(p->next, h, key, p->klen, body, blen))) {
    free(key);
    free(body);
    return NULL;
  }
  return &p->next->e[p->next->n - 1];
}

static void put_pos(lsp_pub *p, const char *name, size_t off) {
  int64_t l, c;
  lsp_position(p->d->text, p->d->len, p->s->enc, off, &l, &c);
  char t[96];
  int n = snprintf(t, sizeof t, "%s{\"line\":%" JSON_INTEGER_FORMAT ",\"character\":%"
                   JSON_INTEGER_FORMAT "}", name, (json_int_t)l, (json_int_t)c);
  put(p, t, (size_t)n);
}

void lsp_pub_add(lsp_pub *p, size_t a, size_t b, int sev, const char *code, const char *message,
                 const char *hint, int fix) {
  if (p->failed) return;
  const pub_entry *e = body_of(p, sev, fix, code, message, hint);
  if (!e) {
    p->failed = 1;
    return;
  }
  put(p, p->count ? ",{\"range\":" : "{\"range\":", p->count ? 10 : 9);
  put_pos(p, "{\"start\":", a);
  put_pos(p, ",\"end\":", b < a ? a : b);
  put(p, "},", 2);
  put(p, e->body, e->blen);
  put(p, "}", 1);
  p->count++;
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
  int rc = lsp_write_raw(&p->s->io, p->buf, p->len) ? 1 : 0;
  lsp_pubcache_free(p->d->pub);
  p->d->pub = p->next;
  p->next = NULL;
  lsp_pub_abandon(p);
  return rc;
}

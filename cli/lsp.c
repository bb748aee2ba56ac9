/* `boxlint lsp`: a Language Server Protocol 3.17 server over standard input and output (DESIGN
 * §8). One thread, one loop: read a message (lsp_io.c) with a deadline, answer it at once, and
 * when a changed document's debounce has run out, check its latest text and publish. A
 * document is checked exactly as the command checks a file of its name (lint_run.c's
 * cli_check_text, the .boxlint.json found upward from it, re-read when one changes); its fixes
 * are the command's (fix_edits.c per finding, fix_run.c's passes for "fix all"). Owns the
 * lifecycle, the dispatch and the protocol's error codes, the open documents (lsp_doc.c) and
 * what the configuration's failures look like in an editor. Nothing but protocol messages is
 * written to standard output; logs go to standard error. Called by main.c; calls lsp_io.c,
 * lsp_doc.c, lint_run.c, fix_edits.c, fix_run.c, input.c, output.c's severity and position. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "lsp.h"

enum { /* JSON-RPC and LSP error codes */
  E_PARSE = -32700, E_INVALID_REQUEST = -32600, E_METHOD = -32601, E_PARAMS = -32602,
  E_INTERNAL = -32603, E_NOT_INITIALIZED = -32002
};
enum { S_NEW, S_RUNNING, S_SHUTDOWN };
#define MAX_BODY ((size_t)64 * 1024 * 1024)

typedef struct server {
  cli *c;
  lsp_io io;
  enum lsp_enc enc;
  int state;
  int exit_code;             /* >= 0: `exit` received */
  int debounce_ms;
  int watch_dynamic;         /* the client registers file watchers dynamically */
  lsp_doc *docs;
  size_t ndocs, capdocs;
  char **cfg_paths;          /* configuration files whose diagnostics are published */
  size_t ncfg;
} server;

/* Checking a document with the command's code: its findings, or what stopped the check. */
typedef struct doc_check {
  checked k;
  int ok;                    /* cli_check_text succeeded */
  char *why;                 /* what it printed (malloc'd), when it did not */
} doc_check;

static int64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void logf_(server *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("boxlint lsp: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  (void)s;
}

/*==============================================================================================
 * MARK: Messages out
 *============================================================================================*/

static void send(server *s, json_t *m) {
  if (m && lsp_write(&s->io, m)) logf_(s, "cannot write to standard output");
}

static void reply(server *s, json_t *id, json_t *result) {
  send(s, json_pack("{sssOso}", "jsonrpc", "2.0", "id", id, "result",
                    result ? result : json_null()));
}

static void reply_error(server *s, json_t *id, int code, const char *msg) {
  send(s, json_pack("{sssOs{siss}}", "jsonrpc", "2.0", "id", id ? id : json_null(), "error",
                    "code", code, "message", msg));
}

static void notify(server *s, const char *method, json_t *params) {
  send(s, json_pack("{ssssso}", "jsonrpc", "2.0", "method", method, "params", params));
}

/*==============================================================================================
 * MARK: Documents
 *============================================================================================*/

static lsp_doc *doc_find(server *s, const char *uri) {
  for (size_t i = 0; uri && i < s->ndocs; i++)
    if (!strcmp(s->docs[i].uri, uri)) return &s->docs[i];
  return NULL;
}

static const char *param_uri(json_t *params) {
  return json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
}

static int is_config_path(const char *path) {
  size_t n = strlen(path);
  return n >= 13 && !strcmp(path + n - 13, ".boxlint.json") && (n == 13 || path[n - 14] == '/');
}

static void doc_check_run(server *s, const lsp_doc *d, doc_check *dc) {
  size_t wl = 0;
  dc->why = NULL;
  FILE *saved = s->c->err, *m = open_memstream(&dc->why, &wl);
  if (m) s->c->err = m;
  dc->ok = cli_check_text(s->c, d->path, d->text, d->len, &dc->k) == 0;
  s->c->err = saved;
  if (m) fclose(m);
}

static void doc_check_free(doc_check *dc) {
  cli_checked_free(&dc->k);
  free(dc->why);
}

/* Each shown finding of a successful check, with its byte range in the document. */
typedef void (*finding_fn)(const unit *u, const boxlint_diag *d, boxlint_severity sev, size_t a,
                           size_t b, void *ctx);
static void each_finding(const doc_check *dc, finding_fn fn, void *ctx) {
  const unit *u = &dc->k.u;
  for (int k = 0; k < 3; k++) {
    const boxlint_report *r = k < 2 ? u->reports[k] : NULL;
    size_t n = r ? boxlint_report_diag_count(r) : k == 2 ? u->nextra : 0;
    for (size_t i = 0; i < n; i++) {
      const boxlint_diag *d = r ? boxlint_report_diag(r, i) : &u->extra[i];
      boxlint_severity sev = cli_shown_severity(u, d);
      if (sev == BOXLINT_SEVERITY_OFF) continue;
      size_t a = 0, b = 0;
      if (!cli_finding_span(u, d, &a, &b)) a = b = 0;
      fn(u, d, sev, a, b, ctx);
    }
  }
}

/*==============================================================================================
 * MARK: Diagnostics
 *============================================================================================*/

static json_t *diag_json(const lsp_doc *doc, enum lsp_enc enc, size_t a, size_t b, int sev,
                         const char *code, const char *message, const char *hint) {
  json_t *j = json_pack("{sosissssss}", "range", lsp_range_json(doc->text, doc->len, enc, a, b),
                        "severity", sev, "source", "boxlint", "code", code, "message", message);
  if (j && hint && *hint) {
    char *m = NULL;
    size_t ml = 0;
    FILE *f = open_memstream(&m, &ml);
    if (f) {
      fprintf(f, "%s\n%s", message, hint);
      fclose(f);
      json_object_set_new(j, "message", json_string(m ? m : message));
      free(m);
    }
  }
  return j;
}

static int lsp_severity(boxlint_severity s) {
  return s == BOXLINT_SEVERITY_ERROR ? 1 : s == BOXLINT_SEVERITY_WARNING ? 2 : 3;
}

typedef struct diag_ctx {
  server *s;
  const lsp_doc *doc;
  json_t *arr;
} diag_ctx;

static void add_finding(const unit *u, const boxlint_diag *d, boxlint_severity sev, size_t a,
                        size_t b, void *ctx) {
  (void)u;
  diag_ctx *x = ctx;
  json_t *j = diag_json(x->doc, x->s->enc, a, b, lsp_severity(sev), d->rule, d->message, d->hint);
  if (j && d->fix) json_object_set_new(j, "data", json_pack("{sb}", "fix", 1));
  json_array_append_new(x->arr, j);
}

/* A message "boxlint: PATH:LINE:COL: text" or "boxlint: PATH: text" that `why` holds: the
 * path's length, LINE and COL (0 when absent) and where the text starts. */
static int split_why(const char *why, const char *path, uint32_t *line, uint32_t *col,
                     const char **text) {
  size_t pl = strlen(path);
  if (strncmp(why, "boxlint: ", 9) || strncmp(why + 9, path, pl) || why[9 + pl] != ':') return 0;
  const char *p = why + 10 + pl;
  char *e;
  *line = *col = 0;
  unsigned long l = strtoul(p, &e, 10);
  if (e != p && *e == ':') {
    unsigned long c = strtoul(e + 1, &e, 10);
    if (*e == ':' && l <= UINT32_MAX && c <= UINT32_MAX) {
      *line = (uint32_t)l;
      *col = (uint32_t)c;
      p = e + 1;
    }
  }
  while (*p == ' ') p++;
  *text = p;
  return 1;
}

/* The byte offset of 1-based line and code-point column (the command's positions). */
static size_t offset_of(const char *t, size_t n, uint32_t line, uint32_t col) {
  size_t off;
  if (!line || lsp_offset(t, n, LSP_UTF32, line - 1, col ? col - 1 : 0, &off)) return 0;
  return off;
}

/* The configuration file named by a failed check's message, when it is not the document. */
static char *config_of(const char *why, const char *doc_path) {
  if (strncmp(why, "boxlint: ", 9) || !strncmp(why + 9, doc_path, strlen(doc_path))) return NULL;
  const char *p = why + 9, *e = strstr(p, ".boxlint.json:");
  if (!e) return NULL;
  size_t n = (size_t)(e - p) + 13;
  char *o = malloc(n + 1);
  if (o) {
    memcpy(o, p, n);
    o[n] = 0;
  }
  return o;
}

static void publish_on(server *s, const char *uri, int64_t version, json_t *diags) {
  json_t *p = json_pack("{ssso}", "uri", uri, "diagnostics", diags);
  if (p && version >= 0) json_object_set_new(p, "version", json_integer(version));
  notify(s, "textDocument/publishDiagnostics", p);
}

/* Publish the diagnostics of configuration file `path` (from its failure message `why`, or
 * none), remembering which files have some so that they are cleared when they load again. */
static void publish_config(server *s, const char *path, const char *why, const char *text,
                           size_t len) {
  size_t i = 0;
  while (i < s->ncfg && strcmp(s->cfg_paths[i], path)) i++;
  if (!why && i == s->ncfg) return;
  char *uri = lsp_path_uri(path);
  if (!uri) return;
  json_t *arr = json_array();
  if (why) {
    uint32_t line = 0, col = 0;
    const char *msg = why;
    split_why(why, path, &line, &col, &msg);
    size_t off = text ? offset_of(text, len, line, col) : 0;
    lsp_doc tmp = {.text = (char *)(text ? text : ""), .len = text ? len : 0};
    char *m = strdup(msg);
    if (m) m[strcspn(m, "\n")] = 0;
    json_array_append_new(arr, diag_json(&tmp, s->enc, off, off, 1, "invalid-config",
                                         m ? m : msg, NULL));
    free(m);
    if (i == s->ncfg) {
      char **np = realloc(s->cfg_paths, (s->ncfg + 1) * sizeof *np), *dup = strdup(path);
      if (np) s->cfg_paths = np;
      if (np && dup) s->cfg_paths[s->ncfg++] = dup;
      else free(dup);
    }
  } else {
    free(s->cfg_paths[i]);
    s->cfg_paths[i] = s->cfg_paths[--s->ncfg];
  }
  publish_on(s, uri, -1, arr);
  free(uri);
}

/* A configuration file open in the editor: its text checked as the command loads a config. */
static void publish_config_doc(server *s, lsp_doc *d) {
  char *why = NULL;
  size_t wl = 0;
  FILE *saved = s->c->err, *m = open_memstream(&why, &wl);
  if (m) s->c->err = m;
  boxlint_config *cfg = cli_load_config_text(s->c, d->path, d->text, d->len, NULL);
  s->c->err = saved;
  if (m) fclose(m);
  boxlint_config_free(cfg);
  publish_config(s, d->path, cfg ? NULL : (why && *why ? why : "boxlint: invalid config"),
                 d->text, d->len);
  free(why);
}

/* Why a document could not be checked, as one diagnostic (and the configuration's own). */
static void add_failure(server *s, const lsp_doc *d, const doc_check *dc, json_t *arr) {
  const boxlint_report *r = dc->k.r;
  if (dc->k.u.kind == UNIT_PYTHON && r && boxlint_report_diag_count(r)) {
    const boxlint_diag *pd = boxlint_report_diag(r, boxlint_report_diag_count(r) - 1);
    json_array_append_new(arr, diag_json(d, s->enc, pd->offset, pd->end_offset, 1, pd->rule,
                                         pd->message, pd->hint));
    return;
  }
  const char *why = dc->why && *dc->why ? dc->why : "boxlint: the file could not be checked";
  char *cfg = config_of(why, d->path);
  uint32_t line = 0, col = 0;
  const char *msg = why;
  char *one = NULL;
  if (cfg) {
    publish_config(s, cfg, why, NULL, 0);
    size_t n = strlen(cfg) + 64;
    one = malloc(n);
    if (one) snprintf(one, n, "the configuration %s is invalid; nothing was checked", cfg);
  } else {
    split_why(why, d->path, &line, &col, &msg);
  }
  size_t off = offset_of(d->text, d->len, line, col);
  char *m = one ? one : strdup(msg);
  if (m) m[strcspn(m, "\n")] = 0;
  json_array_append_new(arr, diag_json(d, s->enc, off, off, 1, cfg ? "invalid-config" : "invalid-input",
                                       m ? m : msg, NULL));
  free(m);
  free(cfg);
}

static void publish(server *s, lsp_doc *d) {
  d->dirty = 0;
  if (is_config_path(d->path)) {
    publish_config_doc(s, d);
    return;
  }
  doc_check dc;
  doc_check_run(s, d, &dc);
  json_t *arr = json_array();
  if (dc.ok) {
    diag_ctx x = {s, d, arr};
    each_finding(&dc, add_finding, &x);
  } else {
    add_failure(s, d, &dc, arr);
  }
  doc_check_free(&dc);
  publish_on(s, d->uri, d->version, arr);
}

/*==============================================================================================
 * MARK: Code actions
 *============================================================================================*/

/* Does code action kind `kind` pass the request's `only` filter (absent: every kind)? */
static int kind_wanted(json_t *only, const char *kind) {
  if (!json_is_array(only)) return 1;
  size_t i;
  json_t *o;
  json_array_foreach(only, i, o) {
    const char *k = json_string_value(o);
    size_t kl = k ? strlen(k) : 0;
    if (k && !strncmp(kind, k, kl) && (kind[kl] == 0 || kind[kl] == '.')) return 1;
  }
  return 0;
}

/* The text edits of `e` (offsets into the document) as LSP TextEdits. */
static json_t *text_edits(server *s, const lsp_doc *d, const fix_edits *e) {
  json_t *arr = json_array();
  for (size_t i = 0; i < e->n; i++) {
    const boxlint_fix *f = &e->fix[i];
    json_array_append_new(arr, json_pack("{soso}", "range",
                                         lsp_range_json(d->text, d->len, s->enc, f->offset,
                                                        f->offset + f->length),
                                         "newText", json_stringn(f->text, f->text_len)));
  }
  return arr;
}

static json_t *workspace_edit(const char *uri, json_t *edits) {
  json_t *changes = json_object();
  json_object_set_new(changes, uri, edits);
  return json_pack("{so}", "changes", changes);
}

/* The client's diagnostic in `ctx_diags` that is `d` (same code and range), or NULL. */
static json_t *client_diag(json_t *ctx_diags, const char *rule, json_t *range) {
  size_t i;
  json_t *cd;
  json_array_foreach(ctx_diags, i, cd) {
    const char *code = json_string_value(json_object_get(cd, "code"));
    if (code && !strcmp(code, rule) && json_equal(json_object_get(cd, "range"), range)) return cd;
  }
  return NULL;
}

typedef struct action_ctx {
  server *s;
  const lsp_doc *doc;
  json_t *actions, *ctx_diags;
  size_t ra, rb;             /* the requested range */
  int any_fix;
} action_ctx;

static void add_quickfix(const unit *u, const boxlint_diag *d, boxlint_severity sev, size_t a,
                         size_t b, void *ctx) {
  action_ctx *x = ctx;
  if (!d->fix) return;
  x->any_fix = 1;
  json_t *range = lsp_range_json(x->doc->text, x->doc->len, x->s->enc, a, b);
  json_t *cd = client_diag(x->ctx_diags, d->rule, range);
  int overlaps = a <= x->rb && x->ra <= b;
  fix_edits e;
  if (!x->actions || (!cd && !overlaps) || cli_fix_edit_one(u, d, &e)) {
    json_decref(range);
    return;
  }
  if (e.n) {
    json_t *diag = cd ? json_incref(cd)
                      : diag_json(x->doc, x->s->enc, a, b, lsp_severity(sev), d->rule,
                                  d->message, d->hint);
    const char *desc = d->fix->description && *d->fix->description ? d->fix->description : NULL;
    char title[256];
    snprintf(title, sizeof title, "%s%s (boxlint %s)", desc ? "" : "Fix: ", desc ? desc : d->message,
             d->rule);
    json_array_append_new(x->actions,
                          json_pack("{sssss[o]sbso}", "title", title, "kind", "quickfix",
                                    "diagnostics", diag, "isPreferred", 1, "edit",
                                    workspace_edit(x->doc->uri, text_edits(x->s, x->doc, &e))));
  }
  cli_fix_edits_free(&e);
  json_decref(range);
}

/* "Fix all boxlint findings": the command's passes; one edit over what differs. */
static void add_fix_all(server *s, const lsp_doc *d, json_t *actions) {
  char *fixed = NULL, *why = NULL;
  size_t fl = 0, wl = 0;
  FILE *saved = s->c->err, *m = open_memstream(&why, &wl);
  if (m) s->c->err = m;
  int rc = cli_fix_text(s->c, d->path, d->text, d->len, &fixed, &fl);
  s->c->err = saved;
  if (m) fclose(m);
  if (rc) logf_(s, "%s: fix all: %s", d->uri, why && *why ? why : "failed");
  free(why);
  if (rc || !fixed) {
    free(fixed);
    return;
  }
  size_t pre = 0, suf = 0;
  while (pre < fl && pre < d->len && fixed[pre] == d->text[pre]) pre++;
  while (suf < fl - pre && suf < d->len - pre && fixed[fl - 1 - suf] == d->text[d->len - 1 - suf])
    suf++;
  /* whole characters: move the edit's ends off UTF-8 continuation bytes */
  while (pre > 0 && ((unsigned char)d->text[pre] & 0xC0) == 0x80) pre--;
  while (suf > 0 && ((unsigned char)d->text[d->len - suf] & 0xC0) == 0x80) suf--;
  json_t *edit = json_pack("{soso}", "range",
                           lsp_range_json(d->text, d->len, s->enc, pre, d->len - suf), "newText",
                           json_stringn(fixed + pre, fl - suf - pre));
  json_array_append_new(actions, json_pack("{ssssso}", "title", "Fix all boxlint findings", "kind",
                                           "source.fixAll.boxlint", "edit",
                                           workspace_edit(d->uri, json_pack("[o]", edit))));
  free(fixed);
}

static void code_action(server *s, json_t *id, json_t *params) {
  lsp_doc *d = doc_find(s, param_uri(params));
  if (!d) {
    reply_error(s, id, E_PARAMS, "unknown document: open it first (textDocument/didOpen)");
    return;
  }
  json_t *ctx = json_object_get(params, "context"), *only = json_object_get(ctx, "only");
  const char *why;
  action_ctx x = {s, d, json_array(), json_object_get(ctx, "diagnostics"), 0, 0, 0};
  if (lsp_range_offsets(d->text, d->len, s->enc, json_object_get(params, "range"), &x.ra, &x.rb,
                        &why)) {
    json_decref(x.actions);
    reply_error(s, id, E_PARAMS, why);
    return;
  }
  if (is_config_path(d->path)) {
    reply(s, id, x.actions);
    return;
  }
  doc_check dc;
  doc_check_run(s, d, &dc);
  if (dc.ok) {
    json_t *keep = x.actions;
    if (!kind_wanted(only, "quickfix")) x.actions = NULL; /* only look for fixes */
    each_finding(&dc, add_quickfix, &x);
    x.actions = keep;
  }
  doc_check_free(&dc);
  if (x.any_fix && kind_wanted(only, "source.fixAll.boxlint")) add_fix_all(s, d, x.actions);
  reply(s, id, x.actions);
}

/*==============================================================================================
 * MARK: Hover
 *============================================================================================*/

static void md_rule(FILE *f, const char *id) {
  const boxlint_rule_info *ri = boxlint_rule_find(id, strlen(id));
  if (!ri) {
    fprintf(f, "**%s**\n\n", id);
    return;
  }
  static const char *const sev[] = {"off", "info", "warning", "error"};
  fprintf(f, "**%s** (%s): %s\n\n%s\n\n", ri->id, sev[ri->severity & 3], ri->summary,
          ri->description);
  if (ri->bad && *ri->bad) fprintf(f, "Fires on:\n```\n%s\n```\n", ri->bad);
  if (ri->good && *ri->good) fprintf(f, "Instead:\n```\n%s\n```\n", ri->good);
  fputs("\n", f);
}

typedef struct hover_ctx {
  size_t off;
  FILE *f;
  int n;
  size_t a, b;               /* the hovered range */
  const char *seen[16];
} hover_ctx;

static void add_hover(const unit *u, const boxlint_diag *d, boxlint_severity sev, size_t a,
                      size_t b, void *ctx) {
  (void)u;
  (void)sev;
  hover_ctx *h = ctx;
  if (!(a <= h->off && (h->off < b || (a == b && h->off == a)))) return;
  for (int i = 0; i < h->n && i < 16; i++)
    if (!strcmp(h->seen[i], d->rule)) return;
  if (h->n < 16) h->seen[h->n] = d->rule;
  if (!h->n++) {
    h->a = a;
    h->b = b;
  }
  md_rule(h->f, d->rule);
}

/* A fragment's instruction keyword under the offset: whether templates may use it. */
static void keyword_hover(const doc_check *dc, const lsp_doc *d, hover_ctx *h) {
  const boxlint_report *r = dc->k.r;
  if (dc->k.u.kind != UNIT_FRAGMENT || !r) return;
  for (size_t i = 0; i < boxlint_report_instruction_count(r); i++) {
    const boxlint_instruction *in = boxlint_report_instruction(r, i);
    size_t a = in->offset;
    while (a < in->end_offset && a < d->len && (d->text[a] == ' ' || d->text[a] == '\t')) a++;
    size_t b = a + in->keyword_text.len;
    if (h->off < a || h->off >= b || b > d->len) continue;
    static const boxlint_keyword denied[] = {BOXLINT_KW_FROM, BOXLINT_KW_COPY, BOXLINT_KW_ADD,
                                             BOXLINT_KW_CMD, BOXLINT_KW_ENTRYPOINT};
    int deny = 0;
    for (size_t k = 0; k < sizeof denied / sizeof *denied; k++) deny |= in->keyword == denied[k];
    if (deny) {
      md_rule(h->f, "denied-instruction");
    } else if (in->keyword != BOXLINT_KW_NONE) {
      fprintf(h->f, "**%s**: a Dockerfile instruction templates may use; it runs in the "
                    "sandbox image's build, appended to the platform's base.\n\n",
              boxlint_keyword_name(in->keyword));
    } else {
      md_rule(h->f, "unknown-instruction");
    }
    h->a = a;
    h->b = b;
    h->n++;
    return;
  }
}

static void hover(server *s, json_t *id, json_t *params) {
  lsp_doc *d = doc_find(s, param_uri(params));
  if (!d) {
    reply_error(s, id, E_PARAMS, "unknown document: open it first (textDocument/didOpen)");
    return;
  }
  json_t *p = json_object_get(params, "position");
  size_t off;
  if (lsp_offset(d->text, d->len, s->enc, json_integer_value(json_object_get(p, "line")),
                 json_integer_value(json_object_get(p, "character")), &off) ||
      !json_is_integer(json_object_get(p, "line")) ||
      !json_is_integer(json_object_get(p, "character"))) {
    reply_error(s, id, E_PARAMS, "the position is not in the document");
    return;
  }
  char *md = NULL;
  size_t ml = 0;
  hover_ctx h = {.off = off, .f = open_memstream(&md, &ml)};
  if (!h.f) {
    reply_error(s, id, E_INTERNAL, "out of memory");
    return;
  }
  if (!is_config_path(d->path)) {
    doc_check dc;
    doc_check_run(s, d, &dc);
    if (dc.ok) each_finding(&dc, add_hover, &h);
    if (dc.ok && !h.n) keyword_hover(&dc, d, &h);
    doc_check_free(&dc);
  }
  fclose(h.f);
  json_t *res = NULL;
  if (h.n && md)
    res = json_pack("{s{ssss}so}", "contents", "kind", "markdown", "value", md, "range",
                    lsp_range_json(d->text, d->len, s->enc, h.a, h.b));
  free(md);
  reply(s, id, res);
}

/*==============================================================================================
 * MARK: Lifecycle and documents
 *============================================================================================*/

/* The position encoding: the first of the client's that the server knows, else UTF-16. */
static void negotiate(server *s, json_t *params) {
  json_t *encs = json_object_get(json_object_get(json_object_get(params, "capabilities"),
                                                 "general"), "positionEncodings");
  size_t i;
  json_t *e;
  s->enc = LSP_UTF16;
  json_array_foreach(encs, i, e) {
    const char *n = json_string_value(e);
    if (!n) continue;
    if (!strcmp(n, "utf-8")) s->enc = LSP_UTF8;
    else if (!strcmp(n, "utf-32")) s->enc = LSP_UTF32;
    else if (strcmp(n, "utf-16")) continue;
    break;
  }
}

static void initialize(server *s, json_t *id, json_t *params) {
  negotiate(s, params);
  json_t *caps = json_object_get(params, "capabilities");
  s->watch_dynamic = json_is_true(json_object_get(
      json_object_get(json_object_get(caps, "workspace"), "didChangeWatchedFiles"),
      "dynamicRegistration"));
  json_t *opt = json_object_get(json_object_get(params, "initializationOptions"), "debounceMs");
  if (json_is_integer(opt) && json_integer_value(opt) >= 0 && json_integer_value(opt) <= 10000)
    s->debounce_ms = (int)json_integer_value(opt);
  static const char *const enc[] = {"utf-16", "utf-8", "utf-32"};
  json_t *res = json_pack(
      "{s{sss{sbsis{sb}}s{s[ss]}sb}s{ssss}}", "capabilities", "positionEncoding", enc[s->enc],
      "textDocumentSync", "openClose", 1, "change", 2, "save", "includeText", 0,
      "codeActionProvider", "codeActionKinds", "quickfix", "source.fixAll.boxlint",
      "hoverProvider", 1, "serverInfo", "name", "boxlint", "version", boxlint_version());
  s->state = S_RUNNING;
  reply(s, id, res);
}

static void initialized(server *s) {
  if (!s->watch_dynamic) return;
  send(s, json_pack("{sssssss{s[{sssss{s[{ss}]}}]}}", "jsonrpc", "2.0", "id", "boxlint-watch",
                    "method", "client/registerCapability", "params", "registrations", "id",
                    "boxlint-config", "method", "workspace/didChangeWatchedFiles",
                    "registerOptions", "watchers", "globPattern", "**/.boxlint.json"));
}

static void did_open(server *s, json_t *params) {
  json_t *td = json_object_get(params, "textDocument");
  const char *uri = json_string_value(json_object_get(td, "uri"));
  json_t *text = json_object_get(td, "text");
  if (!uri || !json_is_string(text)) {
    logf_(s, "didOpen without a uri or a text: dropped");
    return;
  }
  lsp_doc *d = doc_find(s, uri);
  if (!d) {
    if (s->ndocs == s->capdocs) {
      size_t cap = s->capdocs ? s->capdocs * 2 : 8;
      lsp_doc *nd = realloc(s->docs, cap * sizeof *nd);
      if (!nd) return;
      s->docs = nd;
      s->capdocs = cap;
    }
    d = &s->docs[s->ndocs];
    memset(d, 0, sizeof *d);
    d->uri = strdup(uri);
    d->path = lsp_uri_path(uri);
    if (!d->path) d->path = strdup(uri);
    if (!d->uri || !d->path) {
      free(d->uri);
      free(d->path);
      return;
    }
    s->ndocs++;
  }
  if (lsp_doc_set(d, json_string_value(text), json_string_length(text))) return;
  d->version = json_integer_value(json_object_get(td, "version"));
  publish(s, d);
}

static void did_change(server *s, json_t *params) {
  lsp_doc *d = doc_find(s, param_uri(params));
  if (!d) {
    logf_(s, "didChange of a document that is not open: dropped");
    return;
  }
  size_t i;
  json_t *ch;
  const char *why;
  json_array_foreach(json_object_get(params, "contentChanges"), i, ch) {
    if (lsp_doc_change(d, s->enc, ch, &why)) {
      logf_(s, "%s: change %zu dropped: %s", d->uri, i, why);
      break;
    }
  }
  json_t *v = json_object_get(json_object_get(params, "textDocument"), "version");
  if (json_is_integer(v)) d->version = json_integer_value(v);
  d->dirty = 1;
  d->due_ms = now_ms() + s->debounce_ms;
}

static void did_close(server *s, json_t *params) {
  lsp_doc *d = doc_find(s, param_uri(params));
  if (!d) return;
  if (is_config_path(d->path)) publish_config(s, d->path, NULL, NULL, 0);
  else publish_on(s, d->uri, -1, json_array());
  free(d->uri);
  free(d->path);
  free(d->text);
  *d = s->docs[--s->ndocs];
}

/* A .boxlint.json changed: configurations are read again, every document checked again, and
 * each configuration that had diagnostics loaded again to clear or renew them. */
static void reload_configs(server *s) {
  cli_configs_free(s->c);
  for (size_t i = 0; i < s->ndocs; i++) {
    s->docs[i].dirty = 1;
    s->docs[i].due_ms = 0;
  }
  for (size_t i = s->ncfg; i-- > 0;) {
    char *why = NULL, *path = strdup(s->cfg_paths[i]), *text = NULL;
    size_t wl = 0, len = 0;
    if (!path) continue;
    FILE *saved = s->c->err, *m = open_memstream(&why, &wl);
    if (m) s->c->err = m;
    boxlint_config *cfg = NULL;
    if (!cli_read_file(s->c, path, &text, &len))
      cfg = cli_load_config_text(s->c, path, text, len, NULL);
    s->c->err = saved;
    if (m) fclose(m);
    publish_config(s, path, cfg || !text ? NULL : why, text, len);
    boxlint_config_free(cfg);
    free(text);
    free(why);
    free(path);
  }
}

static void watched(server *s, json_t *params) {
  size_t i;
  json_t *ch;
  json_array_foreach(json_object_get(params, "changes"), i, ch) {
    const char *uri = json_string_value(json_object_get(ch, "uri"));
    char *p = uri ? lsp_uri_path(uri) : NULL;
    int cfg = p && is_config_path(p);
    free(p);
    if (cfg) {
      reload_configs(s);
      return;
    }
  }
}

/*==============================================================================================
 * MARK: Dispatch
 *============================================================================================*/

static void request(server *s, const char *method, json_t *id, json_t *params) {
  if (!strcmp(method, "initialize")) {
    if (s->state != S_NEW) reply_error(s, id, E_INVALID_REQUEST, "initialize was already sent");
    else initialize(s, id, params);
    return;
  }
  if (s->state == S_NEW) {
    reply_error(s, id, E_NOT_INITIALIZED, "the server is not initialized: send initialize first");
    return;
  }
  if (s->state == S_SHUTDOWN) {
    reply_error(s, id, E_INVALID_REQUEST, "the server is shut down: only exit is accepted");
    return;
  }
  if (!strcmp(method, "shutdown")) {
    s->state = S_SHUTDOWN;
    reply(s, id, NULL);
  } else if (!strcmp(method, "textDocument/codeAction")) {
    code_action(s, id, params);
  } else if (!strcmp(method, "textDocument/hover")) {
    hover(s, id, params);
  } else {
    char msg[160];
    snprintf(msg, sizeof msg, "unknown method: %.120s", method);
    reply_error(s, id, E_METHOD, msg);
  }
}

static void notification(server *s, const char *method, json_t *params) {
  if (!strcmp(method, "exit")) {
    s->exit_code = s->state == S_SHUTDOWN ? 0 : 1;
    return;
  }
  if (s->state != S_RUNNING) return; /* before initialize, after shutdown: dropped */
  if (!strcmp(method, "initialized")) initialized(s);
  else if (!strcmp(method, "textDocument/didOpen")) did_open(s, params);
  else if (!strcmp(method, "textDocument/didChange")) did_change(s, params);
  else if (!strcmp(method, "textDocument/didClose")) did_close(s, params);
  else if (!strcmp(method, "textDocument/didSave")) {
    lsp_doc *d = doc_find(s, param_uri(params));
    if (d && is_config_path(d->path)) reload_configs(s);
  } else if (!strcmp(method, "workspace/didChangeWatchedFiles")) watched(s, params);
  /* $/cancelRequest: every request is answered before the next message is read, so there is
   * never one left to cancel. $/setTrace, and the rest: nothing to do. */
}

static void handle(server *s, const char *body, size_t len) {
  json_error_t e;
  json_t *m = json_loadb(body, len, 0, &e);
  if (!m) {
    char msg[256];
    snprintf(msg, sizeof msg, "parse error: the body is not JSON: %s (at byte %d)", e.text,
             e.position);
    reply_error(s, NULL, E_PARSE, msg);
    return;
  }
  json_t *id = json_object_get(m, "id"), *method = json_object_get(m, "method");
  json_t *params = json_object_get(m, "params");
  int id_ok = json_is_integer(id) || json_is_string(id);
  if (!json_is_object(m) || (id && !id_ok) ||
      (json_object_get(m, "jsonrpc") && !json_is_string(json_object_get(m, "jsonrpc")))) {
    reply_error(s, id_ok ? id : NULL, E_INVALID_REQUEST, "invalid request: not a JSON-RPC 2.0 message");
  } else if (!method && id) {
    /* a response to the server's own request (client/registerCapability): nothing to do */
  } else if (!json_is_string(method) || (params && !json_is_object(params) && !json_is_array(params))) {
    if (id) reply_error(s, id, E_INVALID_REQUEST, "invalid request: method or params malformed");
    else logf_(s, "a malformed notification: dropped");
  } else if (id) {
    request(s, json_string_value(method), id, params);
  } else {
    notification(s, json_string_value(method), params);
  }
  json_decref(m);
}

static void publish_due(server *s) {
  int64_t t = now_ms();
  for (size_t i = 0; i < s->ndocs; i++)
    if (s->docs[i].dirty && s->docs[i].due_ms <= t) publish(s, &s->docs[i]);
}

/* Milliseconds until the next debounced publication, or -1 when none is waiting. */
static int next_timeout(const server *s) {
  int64_t t = now_ms(), due = INT64_MAX;
  for (size_t i = 0; i < s->ndocs; i++)
    if (s->docs[i].dirty && s->docs[i].due_ms < due) due = s->docs[i].due_ms;
  if (due == INT64_MAX) return -1;
  return due <= t ? 0 : due - t > INT_MAX ? INT_MAX : (int)(due - t);
}

static void server_free(server *s) {
  for (size_t i = 0; i < s->ndocs; i++) {
    free(s->docs[i].uri);
    free(s->docs[i].path);
    free(s->docs[i].text);
  }
  free(s->docs);
  for (size_t i = 0; i < s->ncfg; i++) free(s->cfg_paths[i]);
  free(s->cfg_paths);
  lsp_io_free(&s->io);
  cli_configs_free(s->c);
}

static int lsp_usage(cli *c, int code) {
  fputs("usage: boxlint lsp [--stdio] [--debounce MS]\n"
        "  A Language Server Protocol 3.17 server on standard input and output for templates,\n"
        "  bindings, policies, Dockerfile fragments and Python files with SDK calls.\n",
        code ? c->err : c->out);
  return code;
}

int cli_cmd_lsp(cli *c, int argc, char **argv) {
  server s;
  memset(&s, 0, sizeof s);
  s.c = c;
  s.exit_code = -1;
  s.debounce_ms = 150;
  for (int i = 1; i < argc; i++) {
    char *end;
    if (!strcmp(argv[i], "--stdio")) continue;
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return lsp_usage(c, 0);
    if (!strcmp(argv[i], "--debounce") && i + 1 < argc) {
      long v = strtol(argv[++i], &end, 10);
      if (*end || end == argv[i] || v < 0 || v > 10000)
        return cli_usage_error(c, "--debounce takes milliseconds from 0 to 10000:", argv[i]);
      s.debounce_ms = (int)v;
      continue;
    }
    return cli_usage_error(c, "unknown argument to boxlint lsp:", argv[i]);
  }
  lsp_io_init(&s.io, STDIN_FILENO, STDOUT_FILENO, MAX_BODY);
  while (s.exit_code < 0) {
    char *body;
    size_t len;
    const char *why;
    int rc = lsp_read(&s.io, next_timeout(&s), &body, &len, &why);
    if (rc == LSP_EOF) {
      s.exit_code = s.state == S_SHUTDOWN ? 0 : 1;
      break;
    }
    if (rc == LSP_BAD || rc == LSP_TOO_LARGE) {
      logf_(&s, "%s", why);
      if (rc == LSP_TOO_LARGE) reply_error(&s, NULL, E_INVALID_REQUEST, why);
    } else if (rc == LSP_MSG) {
      handle(&s, body, len);
      free(body);
    }
    publish_due(&s);
  }
  int code = s.exit_code;
  server_free(&s);
  return code;
}

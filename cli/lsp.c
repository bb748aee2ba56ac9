/* `boxlint lsp`: a Language Server Protocol 3.17 server on standard input and output (design.md
 * §8). One thread, one loop: read a message (lsp_io.c) with a deadline, answer it at once, and
 * when a changed document's debounce has run out, check its latest text and publish. A
 * document is checked exactly as the command checks a file of its name (lint_run.c's
 * cli_check_found with the walk's rules, the .boxlint.json found upward from it, re-read when
 * one changes): a file the walk passes over (kind.c's NONE, or cli_walk_skips) gets an empty
 * list of diagnostics and one line in the client's log. What stopped a check arrives as problem
 * records (problem.c, through c->on_problem), never as text. Owns the lifecycle, the dispatch
 * and the protocol's error codes, the open documents (lsp_doc.c), the diagnostics and what the
 * configuration's failures look like in an editor; code actions and hover are lsp_actions.c's.
 * Nothing but protocol messages is written to standard output; logs go to standard error.
 * Called by main.c; calls lsp_actions.c, lsp_io.c, lsp_doc.c, lint_run.c, kind.c, walk.c,
 * input.c, output.c's severity and position. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "lsp_server.h"

static int64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void lsp_log(server *s, const char *fmt, ...) {
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

void lsp_send(server *s, json_t *m) {
  if (m && lsp_write(&s->io, m)) lsp_log(s, "cannot write to standard output");
}

void lsp_reply(server *s, json_t *id, json_t *result) {
  lsp_send(s, json_pack("{sssOso}", "jsonrpc", "2.0", "id", id, "result",
                    result ? result : json_null()));
}

void lsp_reply_error(server *s, json_t *id, int code, const char *msg) {
  lsp_send(s, json_pack("{sssOs{siss}}", "jsonrpc", "2.0", "id", id ? id : json_null(), "error",
                    "code", code, "message", msg));
}

static void notify(server *s, const char *method, json_t *params) {
  lsp_send(s, json_pack("{ssssso}", "jsonrpc", "2.0", "method", method, "params", params));
}

/*==============================================================================================
 * MARK: Documents
 *============================================================================================*/

lsp_doc *lsp_doc_find(server *s, const char *uri) {
  for (size_t i = 0; uri && i < s->ndocs; i++)
    if (!strcmp(s->docs[i].uri, uri)) return &s->docs[i];
  return NULL;
}

const char *lsp_param_uri(json_t *params) {
  return json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
}

int lsp_is_config_path(const char *path) { return cli_name_kind(path, 0) == CLI_KIND_CONFIG; }

/*==============================================================================================
 * MARK: Problems: the records the command's loaders make (problem.c), kept or logged
 *============================================================================================*/

static char *dup_or_null(const char *t) { return t ? strdup(t) : NULL; }

/* c->on_problem while the server runs: kept in s->collect, else logged. */
static void on_problem(cli *c, const cli_problem *p, void *ctx) {
  (void)c;
  server *s = ctx;
  lsp_problems *l = s->collect;
  cli_problem *np = l ? realloc(l->p, (l->n + 1) * sizeof *np) : NULL;
  if (!np) {
    lsp_log(s, "%s%s%s", p->path ? p->path : "", p->path ? ": " : "", p->message);
    return;
  }
  l->p = np;
  np[l->n] = *p;
  np[l->n].path = dup_or_null(p->path);
  np[l->n].rule = dup_or_null(p->rule);
  np[l->n].message = dup_or_null(p->message);
  np[l->n].hint = dup_or_null(p->hint);
  l->n++;
}

void lsp_problems_begin(server *s, lsp_problems *into) {
  into->p = NULL;
  into->n = 0;
  s->collect = into;
}

void lsp_problems_end(server *s) { s->collect = NULL; }

void lsp_problems_free(lsp_problems *l) {
  for (size_t i = 0; i < l->n; i++) {
    free((char *)l->p[i].path);
    free((char *)l->p[i].rule);
    free((char *)l->p[i].message);
    free((char *)l->p[i].hint);
  }
  free(l->p);
  l->p = NULL;
  l->n = 0;
}

void lsp_check_run(server *s, const lsp_doc *d, lsp_check *dc) {
  memset(dc, 0, sizeof *dc);
  lsp_problems_begin(s, &dc->why);
  dc->skipped = cli_walk_skips(s->c, d->path, NULL, 0);
  if (dc->skipped) {
    dc->ok = 1;
  } else {
    dc->ok = cli_check_found(s->c, d->path, d->text, d->len, 1, &dc->k) == 0;
    dc->skipped = dc->ok && dc->k.skipped;
  }
  lsp_problems_end(s);
}

void lsp_check_free(lsp_check *dc) {
  cli_checked_free(&dc->k);
  lsp_problems_free(&dc->why);
}

typedef struct span_ctx {
  lsp_finding_fn fn;
  void *ctx;
} span_ctx;

static void with_span(const unit *u, const boxlint_diag *d, boxlint_severity sev, void *ctx) {
  const span_ctx *x = ctx;
  size_t a = 0, b = 0;
  if (!cli_finding_span(u, d, &a, &b)) a = b = 0;
  x->fn(u, d, sev, a, b, x->ctx);
}

void lsp_each_finding(const lsp_check *dc, lsp_finding_fn fn, void *ctx) {
  span_ctx x = {fn, ctx};
  cli_positions_begin(&dc->k.u); /* one index of the text for every finding's span */
  cli_each_shown(&dc->k.u, with_span, &x);
  cli_positions_end();
}

/*==============================================================================================
 * MARK: Diagnostics
 *============================================================================================*/

json_t *lsp_diag_json(const lsp_doc *doc, enum lsp_enc enc, size_t a, size_t b, int sev,
                      const char *code, const char *message, const char *hint) {
  char *m = NULL;
  size_t ml = 0;
  FILE *f = open_memstream(&m, &ml);
  if (!f) return NULL;
  fputs(message, f);
  if (hint && *hint) fprintf(f, "\n%s", hint);
  fclose(f);
  /* the library's messages are UTF-8 (what they quote is escaped), as the JSON output needs */
  json_t *msg = json_string(m ? m : message);
  json_t *j = json_pack("{sosissssso}", "range", lsp_range_json(doc->text, doc->len, enc, a, b),
                        "severity", sev, "source", "boxlint", "code", code, "message",
                        msg ? msg : json_string("(the message is not valid UTF-8)"));
  free(m);
  return j;
}

int lsp_severity(boxlint_severity s) {
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
  json_t *j = lsp_diag_json(x->doc, x->s->enc, a, b, lsp_severity(sev), d->rule, d->message, d->hint);
  if (j && x->s->rule_docs && boxlint_rule_find(d->rule, strlen(d->rule))) {
    size_t n = strlen(x->s->rule_docs) + strlen(d->rule) + sizeof "/rules/.md";
    char *href = malloc(n);
    if (href) {
      snprintf(href, n, "%s/rules/%s.md", x->s->rule_docs, d->rule);
      json_object_set_new(j, "codeDescription", json_pack("{ss}", "href", href));
      free(href);
    }
  }
  if (j && d->fix) json_object_set_new(j, "data", json_pack("{sb}", "fix", 1));
  json_array_append_new(x->arr, j);
}

/* The byte offset of 1-based line and code-point column (the command's positions). */
static size_t offset_of(const char *t, size_t n, uint32_t line, uint32_t col) {
  size_t off;
  if (!line || lsp_offset(t, n, LSP_UTF32, line - 1, col ? col - 1 : 0, &off)) return 0;
  return off;
}

static void publish_on(server *s, const char *uri, int64_t version, json_t *diags) {
  json_t *p = json_pack("{ssso}", "uri", uri, "diagnostics", diags);
  if (p && version >= 0) json_object_set_new(p, "version", json_integer(version));
  notify(s, "textDocument/publishDiagnostics", p);
}

/* A problem's range in `text` (the file it is about; NULL: not at hand, the range from its line
 * and column, counted in code points), as an LSP Diagnostic. */
static json_t *problem_diag(server *s, const cli_problem *p, const char *text, size_t len) {
  lsp_doc tmp = {.text = (char *)(text ? text : ""), .len = text ? len : 0};
  size_t a = 0, b = 0;
  if (text && p->offset != SIZE_MAX && p->offset <= len) {
    a = p->offset;
    b = p->end_offset != SIZE_MAX && p->end_offset >= a && p->end_offset <= len ? p->end_offset : a;
  } else if (text) {
    a = b = offset_of(text, len, p->line, p->column);
  }
  const char *msg = p->message ? p->message : "out of memory"; /* a copy that failed */
  char *m = strdup(msg);
  if (m) m[strcspn(m, "\n")] = 0;
  json_t *j = lsp_diag_json(&tmp, s->enc, a, b, 1, p->rule ? p->rule : "invalid-input",
                            m ? m : msg, p->hint);
  free(m);
  if (j && !text && p->line) {
    json_t *pos = json_pack("{sIsI}", "line", (json_int_t)p->line - 1, "character",
                            (json_int_t)(p->column ? p->column - 1 : 0));
    json_object_set_new(j, "range", json_pack("{sOso}", "start", pos, "end", pos));
  }
  return j;
}

/* Publish the diagnostics of configuration file `path` (from its problem `why`, or none),
 * remembering which files have some so that they are cleared when they load again. */
static void publish_config(server *s, const char *path, const cli_problem *why,
                           const char *text, size_t len) {
  size_t i = 0;
  while (i < s->ncfg && strcmp(s->cfg_paths[i], path)) i++;
  if (!why && i == s->ncfg) return;
  char *uri = lsp_path_uri(path);
  if (!uri) return;
  json_t *arr = json_array();
  if (why) {
    json_array_append_new(arr, problem_diag(s, why, text, len));
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
  lsp_problems why;
  lsp_problems_begin(s, &why);
  boxlint_config *cfg = cli_load_config_text(s->c, d->path, d->text, d->len, NULL);
  lsp_problems_end(s);
  boxlint_config_free(cfg);
  cli_problem none = {d->path, 0, 0, SIZE_MAX, SIZE_MAX, "invalid-config", "invalid config", NULL};
  publish_config(s, d->path, cfg ? NULL : why.n ? &why.p[0] : &none, d->text, d->len);
  lsp_problems_free(&why);
}

/* Why a document could not be checked, as diagnostics: its own problems where they are; a
 * problem of another file (its configuration) on that file, and on the document's first line
 * naming it. */
static void add_failure(server *s, const lsp_doc *d, const lsp_check *dc, json_t *arr) {
  cli_problem none = {d->path, 0, 0, SIZE_MAX, SIZE_MAX, "invalid-input",
                      "the file could not be checked", NULL};
  for (size_t i = 0; i < (dc->why.n ? dc->why.n : 1); i++) {
    const cli_problem *p = dc->why.n ? &dc->why.p[i] : &none;
    if (!p->path || !strcmp(p->path, d->path)) {
      json_array_append_new(arr, problem_diag(s, p, d->text, d->len));
      continue;
    }
    publish_config(s, p->path, p, NULL, 0);
    size_t n = strlen(p->path) + 64;
    char *one = malloc(n);
    if (one) snprintf(one, n, "the configuration %s is invalid; nothing was checked", p->path);
    json_array_append_new(arr, lsp_diag_json(d, s->enc, 0, 0, 1, "invalid-config",
                                             one ? one : "the configuration is invalid", NULL));
    free(one);
  }
}

/* A document the walk passes over: said once in the client's log (window/logMessage). */
static void tell_skipped(server *s, const lsp_doc *d, int by_kind) {
  for (size_t i = 0; i < s->ntold; i++)
    if (!strcmp(s->told[i], d->uri)) return;
  char **nt = realloc(s->told, (s->ntold + 1) * sizeof *nt), *u = strdup(d->uri);
  if (nt) s->told = nt;
  if (!nt || !u) {
    free(u);
    return;
  }
  s->told[s->ntold++] = u;
  char msg[PATH_MAX + 256];
  snprintf(msg, sizeof msg,
           "%.*s: not checked: %s, which `boxlint .` passes over too (see docs/command.md "
           "for the files boxlint reads)",
           PATH_MAX, d->path,
           by_kind ? "not a template, binding, policy, fragment or Python file"
                   : "where it is (a hidden or skipped directory, or ignored by git)");
  notify(s, "window/logMessage", json_pack("{siss}", "type", 3, "message", msg));
}

static void forget_told(server *s, const char *uri) {
  for (size_t i = 0; i < s->ntold; i++) {
    if (strcmp(s->told[i], uri)) continue;
    free(s->told[i]);
    s->told[i] = s->told[--s->ntold];
    return;
  }
}

static void publish(server *s, lsp_doc *d) {
  d->dirty = 0;
  if (lsp_is_config_path(d->path)) {
    publish_config_doc(s, d);
    return;
  }
  lsp_check dc;
  lsp_check_run(s, d, &dc);
  json_t *arr = json_array();
  if (dc.skipped) {
    tell_skipped(s, d, dc.k.skipped);
  } else if (dc.ok) {
    diag_ctx x = {s, d, arr};
    lsp_positions_begin(d->text, d->len, s->enc); /* one index of the document per publish */
    lsp_each_finding(&dc, add_finding, &x);
    lsp_positions_end();
  } else {
    add_failure(s, d, &dc, arr);
  }
  lsp_check_free(&dc);
  publish_on(s, d->uri, d->version, arr);
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

/* Where findings link to: the client's initializationOptions.docsUrl, else the build's
 * BOXLINT_DOCS_URL, else the docs/ installed beside the program (docs/rules/<id>.md). */
static void docs_url(server *s, const char *given) {
  free(s->rule_docs);
  s->rule_docs = NULL;
  if (given && *given) {
    s->rule_docs = strdup(given);
    return;
  }
  if (*BOXLINT_DOCS_URL) {
    s->rule_docs = strdup(BOXLINT_DOCS_URL);
    return;
  }
  char exe[PATH_MAX], cand[PATH_MAX + 64], real[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return;
  exe[n] = 0;
  char *slash = strrchr(exe, '/');
  if (!slash) return;
  *slash = 0;
  snprintf(cand, sizeof cand, "%s/%s", exe, BOXLINT_README_FROM_BINDIR);
  if (realpath(cand, real)) s->rule_docs = lsp_path_uri(real);
}

static void initialize(server *s, json_t *id, json_t *params) {
  negotiate(s, params);
  json_t *caps = json_object_get(params, "capabilities");
  s->watch_dynamic = json_is_true(json_object_get(
      json_object_get(json_object_get(caps, "workspace"), "didChangeWatchedFiles"),
      "dynamicRegistration"));
  docs_url(s, json_string_value(json_object_get(json_object_get(params, "initializationOptions"),
                                                "docsUrl")));
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
  lsp_reply(s, id, res);
}

static void initialized(server *s) {
  if (!s->watch_dynamic) return;
  lsp_send(s, json_pack("{sssssss{s[{sssss{s[{ss}]}}]}}", "jsonrpc", "2.0", "id", "boxlint-watch",
                    "method", "client/registerCapability", "params", "registrations", "id",
                    "boxlint-config", "method", "workspace/didChangeWatchedFiles",
                    "registerOptions", "watchers", "globPattern", "**/.boxlint.json"));
}

/* The name a document is checked under: its file's path (or its URI), with ".py" or ".json"
 * added when the client says it is Python or JSON and the name does not (an untitled buffer),
 * and ".Dockerfile" to a buffer that is not a file (untitled) in the dockerfile language: a
 * file's own name decides what it is (an ordinary Dockerfile is not a fragment). */
static char *check_path(const char *uri, const char *lang) {
  char *p = lsp_uri_path(uri);
  const char *base = p ? p : uri;
  size_t n = strlen(base);
  const char *ext = !lang ? NULL : !strcmp(lang, "python") ? ".py"
                    : !strcmp(lang, "json") || !strcmp(lang, "jsonc") ? ".json"
                    : !strcmp(lang, "dockerfile") && !p ? ".Dockerfile" : NULL;
  if (ext && (n < strlen(ext) || strcmp(base + n - strlen(ext), ext))) {
    char *o = malloc(n + strlen(ext) + 1);
    if (o) {
      memcpy(o, base, n);
      strcpy(o + n, ext);
    }
    free(p);
    return o;
  }
  return p ? p : strdup(uri);
}

static void did_open(server *s, json_t *params) {
  json_t *td = json_object_get(params, "textDocument");
  const char *uri = json_string_value(json_object_get(td, "uri"));
  json_t *text = json_object_get(td, "text");
  if (!uri || !json_is_string(text)) {
    lsp_log(s, "didOpen without a uri or a text: dropped");
    return;
  }
  lsp_doc *d = lsp_doc_find(s, uri);
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
    d->path = check_path(uri, json_string_value(json_object_get(td, "languageId")));
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
  lsp_doc *d = lsp_doc_find(s, lsp_param_uri(params));
  if (!d) {
    lsp_log(s, "didChange of a document that is not open: dropped");
    return;
  }
  size_t i;
  json_t *ch;
  const char *why;
  json_array_foreach(json_object_get(params, "contentChanges"), i, ch) {
    if (lsp_doc_change(d, s->enc, ch, &why)) {
      lsp_log(s, "%s: change %zu dropped: %s", d->uri, i, why);
      break;
    }
  }
  json_t *v = json_object_get(json_object_get(params, "textDocument"), "version");
  if (json_is_integer(v)) d->version = json_integer_value(v);
  d->dirty = 1;
  d->due_ms = now_ms() + s->debounce_ms;
}

static void did_close(server *s, json_t *params) {
  lsp_doc *d = lsp_doc_find(s, lsp_param_uri(params));
  if (!d) return;
  if (lsp_is_config_path(d->path)) publish_config(s, d->path, NULL, NULL, 0);
  else publish_on(s, d->uri, -1, json_array());
  forget_told(s, d->uri);
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
    /* a copy: publish_config may remove the entry it names */
    char *path = strdup(s->cfg_paths[i]), *text = NULL;
    size_t len = 0;
    if (!path) continue;
    lsp_problems why;
    lsp_problems_begin(s, &why);
    boxlint_config *cfg = NULL;
    if (!cli_read_file(s->c, path, &text, &len))
      cfg = cli_load_config_text(s->c, path, text, len, NULL);
    lsp_problems_end(s);
    cli_problem none = {path, 0, 0, SIZE_MAX, SIZE_MAX, "invalid-config", "invalid config", NULL};
    publish_config(s, path, cfg || !text ? NULL : why.n ? &why.p[0] : &none, text, len);
    boxlint_config_free(cfg);
    free(text);
    lsp_problems_free(&why);
    free(path);
  }
}

static void watched(server *s, json_t *params) {
  size_t i;
  json_t *ch;
  json_array_foreach(json_object_get(params, "changes"), i, ch) {
    const char *uri = json_string_value(json_object_get(ch, "uri"));
    char *p = uri ? lsp_uri_path(uri) : NULL;
    int cfg = p && lsp_is_config_path(p);
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
    if (s->state != S_NEW) lsp_reply_error(s, id, E_INVALID_REQUEST, "initialize was already sent");
    else initialize(s, id, params);
    return;
  }
  if (s->state == S_NEW) {
    lsp_reply_error(s, id, E_NOT_INITIALIZED, "the server is not initialized: send initialize first");
    return;
  }
  if (s->state == S_SHUTDOWN) {
    lsp_reply_error(s, id, E_INVALID_REQUEST, "the server is shut down: only exit is accepted");
    return;
  }
  if (!strcmp(method, "shutdown")) {
    s->state = S_SHUTDOWN;
    lsp_reply(s, id, NULL);
  } else if (!strcmp(method, "textDocument/codeAction")) {
    lsp_code_action(s, id, params);
  } else if (!strcmp(method, "textDocument/hover")) {
    lsp_hover(s, id, params);
  } else {
    char msg[160];
    snprintf(msg, sizeof msg, "unknown method: %.120s", method);
    lsp_reply_error(s, id, E_METHOD, msg);
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
    lsp_doc *d = lsp_doc_find(s, lsp_param_uri(params));
    if (d && lsp_is_config_path(d->path)) reload_configs(s);
  } else if (!strcmp(method, "workspace/didChangeWatchedFiles")) watched(s, params);
  /* $/cancelRequest: every request is answered before the next message is read, so there is
   * never one left to cancel. $/setTrace, and the rest: nothing to do. */
}

static void handle(server *s, const char *body, size_t len) {
  json_error_t e;
  json_t *m = json_loadb(body, len, JSON_ALLOW_NUL, &e); /* a document may hold NUL bytes */
  if (!m) {
    char msg[256];
    snprintf(msg, sizeof msg, "parse error: the body is not JSON: %s (at byte %d)", e.text,
             e.position);
    lsp_reply_error(s, NULL, E_PARSE, msg);
    return;
  }
  json_t *id = json_object_get(m, "id"), *method = json_object_get(m, "method");
  json_t *params = json_object_get(m, "params");
  if (json_is_null(params)) params = NULL; /* "params": null, as Emacs's jsonrpc sends it */
  int id_ok = json_is_integer(id) || json_is_string(id);
  if (!json_is_object(m) || (id && !id_ok) ||
      (json_object_get(m, "jsonrpc") && !json_is_string(json_object_get(m, "jsonrpc")))) {
    lsp_reply_error(s, id_ok ? id : NULL, E_INVALID_REQUEST, "invalid request: not a JSON-RPC 2.0 message");
  } else if (!method && id) {
    /* a response to the server's own request (client/registerCapability): nothing to do */
  } else if (!json_is_string(method) || (params && !json_is_object(params) && !json_is_array(params))) {
    if (id) lsp_reply_error(s, id, E_INVALID_REQUEST, "invalid request: method or params malformed");
    else lsp_log(s, "a malformed notification: dropped");
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
  for (size_t i = 0; i < s->ntold; i++) free(s->told[i]);
  free(s->told);
  s->c->on_problem = NULL;
  free(s->rule_docs);
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
  c->on_problem = on_problem; /* problems as data: published, or logged */
  c->problem_ctx = &s;
  signal(SIGPIPE, SIG_IGN); /* a client gone is a failed write and the end of input, not death */
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
      lsp_log(&s, "%s", why);
      if (rc == LSP_TOO_LARGE) lsp_reply_error(&s, NULL, E_INVALID_REQUEST, why);
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

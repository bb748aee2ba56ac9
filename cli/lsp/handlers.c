/* `boxlint lsp`'s handlers of the lifecycle and of the documents: initialize (the position
 * encoding, the rule reference's URL, the debounce), initialized (the configuration watcher),
 * shutdown, exit; didOpen, didChange (the debounce: published by server.c's loop when due),
 * didClose, didSave and didChangeWatchedFiles (a .boxlint.json changed: every document checked
 * again). Each is a row of server.c's method table; calls session.c, lsp_doc.c and input/. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lsp/lsp_int.h"


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

void lsp_initialize(server *s, json_t *id, json_t *params) {
  if (s->state != S_NEW) {
    lsp_reply_error(s, id, E_INVALID_REQUEST, "initialize was already sent");
    return;
  }
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
  json_t *reuse = json_object_get(json_object_get(params, "initializationOptions"), "reuse");
  if (json_is_boolean(reuse)) s->reuse = json_is_true(reuse);
  static const char *const enc[] = {"utf-16", "utf-8", "utf-32"};
  json_t *res = json_pack(
      "{s{sss{sbsis{sb}}s{s[ss]}sb}s{ssss}}", "capabilities", "positionEncoding", enc[s->enc],
      "textDocumentSync", "openClose", 1, "change", 2, "save", "includeText", 0,
      "codeActionProvider", "codeActionKinds", "quickfix", "source.fixAll.boxlint",
      "hoverProvider", 1, "serverInfo", "name", "boxlint", "version", boxlint_version());
  s->state = S_RUNNING;
  lsp_reply(s, id, res);
}

void lsp_initialized(server *s, json_t *id, json_t *params) {
  (void)id, (void)params;
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

/* A new cache for a Python document's checks (none for another kind, or out of memory: full
 * checks). Also after a configuration changed, so that nothing of a check under the old one is
 * reused, however the cache compares configs (the price: one whole check). */
static void pycache_fresh(lsp_doc *d) {
  boxlint_python_cache_free(d->pycache);
  d->pycache = NULL;
  if (cli_name_kind(d->path, 0) == CLI_KIND_PYTHON &&
      boxlint_python_cache_new(&d->pycache, NULL) != BOXLINT_OK)
    d->pycache = NULL;
}

void lsp_did_open(server *s, json_t *id, json_t *params) {
  (void)id;
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
    pycache_fresh(d);
  }
  lsp_pub_forget(d);
  if (lsp_doc_set(d, json_string_value(text), json_string_length(text))) return;
  d->version = json_integer_value(json_object_get(td, "version"));
  lsp_publish(s, d);
}

void lsp_did_change(server *s, json_t *id, json_t *params) {
  (void)id;
  lsp_doc *d = lsp_doc_find(s, lsp_param_uri(params));
  if (!d) {
    lsp_log(s, "didChange of a document that is not open: dropped");
    return;
  }
  size_t i;
  json_t *ch;
  const char *why;
  json_array_foreach(json_object_get(params, "contentChanges"), i, ch) {
    size_t a, b, sl;
    const char *t;
    int whole = lsp_change_span(d, s->enc, ch, &a, &b, &t, &sl, &why);
    if (whole >= 0) lsp_pub_edit(d, a, b, t, sl, whole);
    if (whole >= 0 && (whole ? lsp_doc_set(d, t, sl) : lsp_doc_replace(d, a, b, t, sl))) {
      lsp_pub_forget(d);
      whole = -1;
      why = "out of memory";
    }
    if (whole < 0) {
      lsp_log(s, "%s: change %zu dropped: %s", d->uri, i, why);
      break;
    }
  }
  json_t *v = json_object_get(json_object_get(params, "textDocument"), "version");
  if (json_is_integer(v)) d->version = json_integer_value(v);
  d->dirty = 1;
  d->due_ms = lsp_now_ms() + s->debounce_ms;
}

void lsp_did_close(server *s, json_t *id, json_t *params) {
  (void)id;
  lsp_doc *d = lsp_doc_find(s, lsp_param_uri(params));
  if (!d) return;
  if (lsp_is_config_path(d->path)) lsp_publish_config(s, d->path, NULL, NULL, 0);
  else lsp_publish_on(s, d->uri, -1, json_array());
  lsp_forget_told(s, d->uri);
  lsp_pubcache_free(d->pub);
  boxlint_python_cache_free(d->pycache);
  free(d->uri);
  free(d->path);
  lsp_doc_text_free(d);
  *d = s->docs[--s->ndocs];
}

/* A .boxlint.json changed: configurations are read again, every document checked again, and
 * each configuration that had diagnostics loaded again to clear or renew them. */
static void reload_configs(server *s) {
  cli_configs_free(s->c);
  for (size_t i = 0; i < s->ndocs; i++) {
    lsp_pub_forget(&s->docs[i]);
    if (s->docs[i].pycache) pycache_fresh(&s->docs[i]);
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
    lsp_publish_config(s, path, cfg || !text ? NULL : why.n ? &why.p[0] : &none, text, len);
    boxlint_config_free(cfg);
    free(text);
    lsp_problems_free(&why);
    free(path);
  }
}

void lsp_watched(server *s, json_t *id, json_t *params) {
  (void)id;
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

void lsp_did_save(server *s, json_t *id, json_t *params) {
  (void)id;
  lsp_doc *d = lsp_doc_find(s, lsp_param_uri(params));
  if (d && lsp_is_config_path(d->path)) reload_configs(s);
}

void lsp_stats(server *s, json_t *id, json_t *params) {
  (void)params;
  lsp_reply(s, id, json_pack("{sIsI}", "moved", (json_int_t)s->moved, "checked",
                             (json_int_t)s->checked));
}

void lsp_shutdown(server *s, json_t *id, json_t *params) {
  (void)params;
  s->state = S_SHUTDOWN;
  lsp_reply(s, id, NULL);
}

void lsp_exit(server *s, json_t *id, json_t *params) {
  (void)id, (void)params;
  s->exit_code = s->state == S_SHUTDOWN ? 0 : 1;
}

/* `boxlint lsp`: a Language Server Protocol 3.17 server over standard input and output.
 * One thread, one loop: read a message (lsp_io.c) with a deadline, answer it at once through
 * the method table, and when a changed document's debounce has run out, check its latest text
 * and publish (session.c). Owns the loop, the table from a method's name to its handler
 * (handlers.c: the lifecycle and the documents; lsp_actions.c: code actions and hover), the
 * rules every method obeys in each state of the server, and the protocol's malformed messages.
 * Called by cmd/lsp_cmd.c (lsp_serve); calls the handlers, session.c and lsp_io.c. */
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lsp/lsp_int.h"

/*==============================================================================================
 * MARK: The method table
 *============================================================================================*/

/* A method the server knows: a request (answered) or a notification (never answered), and
 * whether it is taken in every state (initialize, exit: they check the state themselves).
 * Otherwise a request is refused before initialize and after shutdown, and a notification
 * dropped then. $/cancelRequest is not here: every request is answered before the next
 * message is read, so there is never one left to cancel; $/setTrace and the rest are dropped. */
typedef struct lsp_method {
  const char *name;
  int request;
  int any_state;
  lsp_handler fn;
} lsp_method;

static const lsp_method METHODS[] = {
    {"initialize", 1, 1, lsp_initialize},
    {"shutdown", 1, 0, lsp_shutdown},
    {"textDocument/codeAction", 1, 0, lsp_code_action},
    {"textDocument/hover", 1, 0, lsp_hover},
    {"$/boxlint/stats", 1, 0, lsp_stats},
    {"exit", 0, 1, lsp_exit},
    {"initialized", 0, 0, lsp_initialized},
    {"textDocument/didOpen", 0, 0, lsp_did_open},
    {"textDocument/didChange", 0, 0, lsp_did_change},
    {"textDocument/didClose", 0, 0, lsp_did_close},
    {"textDocument/didSave", 0, 0, lsp_did_save},
    {"workspace/didChangeWatchedFiles", 0, 0, lsp_watched},
};

static const lsp_method *find_method(const char *name, int request) {
  for (size_t i = 0; i < sizeof METHODS / sizeof *METHODS; i++)
    if (METHODS[i].request == request && !strcmp(METHODS[i].name, name)) return &METHODS[i];
  return NULL;
}

static void request(server *s, const char *method, json_t *id, json_t *params) {
  const lsp_method *m = find_method(method, 1);
  if (!m || !m->any_state) {
    if (s->state == S_NEW) {
      lsp_reply_error(s, id, E_NOT_INITIALIZED,
                      "the server is not initialized: send initialize first");
      return;
    }
    if (s->state == S_SHUTDOWN) {
      lsp_reply_error(s, id, E_INVALID_REQUEST, "the server is shut down: only exit is accepted");
      return;
    }
  }
  if (m) {
    m->fn(s, id, params);
    return;
  }
  char msg[160];
  snprintf(msg, sizeof msg, "unknown method: %.120s", method);
  lsp_reply_error(s, id, E_METHOD, msg);
}

static void notification(server *s, const char *method, json_t *params) {
  const lsp_method *m = find_method(method, 0);
  if (m && (m->any_state || s->state == S_RUNNING)) m->fn(s, NULL, params);
  /* before initialize, after shutdown, or not known: dropped */
}

/*==============================================================================================
 * MARK: The loop
 *============================================================================================*/

static void handle(server *s, const char *body, size_t len) {
  json_error_t e;
  json_t *m = lsp_json_parse(body, len, &e); /* a document may hold NUL bytes */
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
  int64_t t = lsp_now_ms();
  for (size_t i = 0; i < s->ndocs; i++)
    if (s->docs[i].dirty && s->docs[i].due_ms <= t) lsp_publish(s, &s->docs[i]);
}

/* Milliseconds until the next debounced publication, or -1 when none is waiting. */
static int next_timeout(const server *s) {
  int64_t t = lsp_now_ms(), due = INT64_MAX;
  for (size_t i = 0; i < s->ndocs; i++)
    if (s->docs[i].dirty && s->docs[i].due_ms < due) due = s->docs[i].due_ms;
  if (due == INT64_MAX) return -1;
  return due <= t ? 0 : due - t > INT_MAX ? INT_MAX : (int)(due - t);
}

static void server_free(server *s) {
  for (size_t i = 0; i < s->ndocs; i++) {
    free(s->docs[i].uri);
    free(s->docs[i].path);
    lsp_doc_text_free(&s->docs[i]);
    lsp_pubcache_free(s->docs[i].pub);
    boxlint_python_cache_free(s->docs[i].pycache);
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

int lsp_serve(cli *c, int debounce_ms) {
  server s;
  memset(&s, 0, sizeof s);
  s.c = c;
  s.exit_code = -1;
  s.debounce_ms = debounce_ms;
  s.reuse = 1;
  c->on_problem = lsp_on_problem; /* problems as data: published, or logged */
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

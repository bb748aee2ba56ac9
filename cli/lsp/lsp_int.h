/* Private to the language server's files: the state they share, session.c's calls (messages
 * out, documents, problems, checking and publishing), and the handlers server.c's method table
 * names (handlers.c, lsp_actions.c). Calls go one way: server.c -> handlers.c, lsp_actions.c ->
 * session.c -> lsp_pub.c -> lsp_io.c, lsp_doc.c. Nothing outside cli/lsp/ includes this
 * header. */
#ifndef BOXLINT_CLI_LSP_SERVER_H
#define BOXLINT_CLI_LSP_SERVER_H
#include "fix/fix.h"
#include "lsp/lsp.h"

enum { /* JSON-RPC and LSP error codes */
  E_PARSE = -32700, E_INVALID_REQUEST = -32600, E_METHOD = -32601, E_PARAMS = -32602,
  E_INTERNAL = -32603, E_NOT_INITIALIZED = -32002
};
enum { S_NEW, S_RUNNING, S_SHUTDOWN };
#define MAX_BODY ((size_t)64 * 1024 * 1024)

/* Problems (cli_problem) kept while a check runs, their strings copied. */
typedef struct lsp_problems {
  cli_problem *p;
  size_t n;
} lsp_problems;

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
  char *rule_docs;           /* the docs' URL (a finding links to docs/rules/<id>.md), or NULL */
  size_t ncfg;
  lsp_problems *collect;     /* where c->on_problem keeps problems now; NULL: they are logged */
  char **told;               /* documents the log has said are passed over (their URIs) */
  size_t ntold;
  uint64_t moved, checked;   /* publishes of findings moved (an edit in a comment), and after a
                                check: $/boxlint/stats, for the benchmark */
  int reuse;                 /* publish from the last publish's Diagnostics (lsp_pub.c) and
                                check a Python document with its cache; 0: every Diagnostic
                                built and dumped again, every check a whole one
                                (initializationOptions {"reuse": false}, the benchmark's
                                baseline) */
} server;

/* Checking a document with the command's code: its findings, or what stopped the check. */
typedef struct lsp_check {
  checked k;
  int ok;                    /* the check succeeded */
  int skipped;               /* a file the walk passes over (its kind, or where it is): nothing
                                is published for it, no code action offered */
  lsp_problems why;          /* the problems that stopped it, when it did not succeed */
} lsp_check;

/*==============================================================================================
 * MARK: session.c
 *============================================================================================*/

/* Milliseconds of a monotonic clock. */
int64_t lsp_now_ms(void);
/* c->on_problem while the server runs (ctx: the server): kept in s->collect, else logged. */
void lsp_on_problem(cli *c, const cli_problem *p, void *ctx);
/* Log a line on standard error ("boxlint lsp: ..."). */
void lsp_log(server *s, const char *fmt, ...);
void lsp_send(server *s, json_t *m);
void lsp_reply(server *s, json_t *id, json_t *result);
/* An error response (`id` NULL: null, when the request's id could not be read). */
void lsp_reply_error(server *s, json_t *id, int code, const char *msg);
lsp_doc *lsp_doc_find(server *s, const char *uri);
/* params.textDocument.uri, or NULL. */
const char *lsp_param_uri(json_t *params);
int lsp_is_config_path(const char *path);
/* Problems reported between these (cli_problem_report) are kept in `into` instead of logged. */
void lsp_problems_begin(server *s, lsp_problems *into);
void lsp_problems_end(server *s);
void lsp_problems_free(lsp_problems *l);
/* Check a document as a walk checks a file of its name (cli_check_found with the walk's
 * rules; cli_walk_skips): skipped when the walk would pass over it; its problems kept. */
void lsp_check_run(server *s, const lsp_doc *d, lsp_check *dc);
/* The same when the walk has just answered `skip` (cli_walk_skips), the problems it reported in
 * `why` (taken over). */
void lsp_check_after(server *s, const lsp_doc *d, int skip, lsp_problems *why, lsp_check *dc);
void lsp_check_free(lsp_check *dc);
/* Each shown finding of a successful check, with its byte range in the document. */
typedef void (*lsp_finding_fn)(const unit *u, const boxlint_diag *d, boxlint_severity sev,
                               size_t a, size_t b, void *ctx);
void lsp_each_finding(const lsp_check *dc, lsp_finding_fn fn, void *ctx);
/* An LSP Diagnostic: the message with the hint on a second line. */
json_t *lsp_diag_json(const lsp_doc *doc, enum lsp_enc enc, size_t a, size_t b, int sev,
                      const char *code, const char *message, const char *hint);
int lsp_severity(boxlint_severity s);
/* textDocument/publishDiagnostics of `uri` (`version` -1: none), `diags` taken over. */
void lsp_publish_on(server *s, const char *uri, int64_t version, json_t *diags);
/* Publish the diagnostics of configuration file `path` (from its problem `why`, or none, with
 * its `text` when at hand), remembering which files have some so that they are cleared when
 * they load again. */
void lsp_publish_config(server *s, const char *path, const cli_problem *why, const char *text,
                        size_t len);
/* Check document `d` (no longer dirty) and publish its diagnostics. */
void lsp_publish(server *s, lsp_doc *d);
/* The log may say again that the document `uri` is passed over (it was closed). */
void lsp_forget_told(server *s, const char *uri);

/*==============================================================================================
 * MARK: lsp_pub.c
 *============================================================================================*/

/* A finding's Diagnostic but its range: severity, source, code, the message with the hint on a
 * second line, the rule's page (codeDescription) when the server links rules, data.fix. */
json_t *lsp_finding_body(const server *s, int sev, const char *code, const char *message,
                         const char *hint, int fix);
/* A publishDiagnostics being written for a document. */
typedef struct lsp_pub {
  server *s;
  lsp_doc *d;
  lsp_pubcache *next;        /* this publish's bodies: the document's cache once sent */
  char *buf, *key;
  size_t len, cap, klen, kcap, count;
  int failed;                /* out of memory: the caller publishes the plain way */
  int again;                 /* the document's cache published again (lsp_pub_again) */
} lsp_pub;
/* Begin (the envelope) the publish of a check's findings, `python` when the check read a
 * Python file. Returns 0, or -1 (out of memory: nothing to abandon). */
int lsp_pub_begin(server *s, lsp_doc *d, int python, lsp_pub *p);
/* One finding at bytes [a, b) of the document, in the order they are to be published. */
void lsp_pub_add(lsp_pub *p, size_t a, size_t b, int sev, const char *code, const char *message,
                 const char *hint, int fix);
/* Send it and keep its bodies with the document. Returns 0; 1 when it could not be written;
 * -1 when it could not be made (out of memory: nothing sent, the caller publishes the plain
 * way). Either way `p` is released. */
int lsp_pub_send(lsp_pub *p);
void lsp_pub_abandon(lsp_pub *p);
void lsp_pubcache_free(lsp_pubcache *c);
/* Before bytes [a, b) of d's text are replaced by s[0..sl) (`whole`: the whole text): an edit
 * inside a comment of a Python file moves the published findings after it; any other edit
 * means the next publish checks the text. */
void lsp_pub_edit(lsp_doc *d, size_t a, size_t b, const char *s, size_t sl, int whole);
/* The next publish checks the text (the document opened again, a configuration changed). */
void lsp_pub_forget(lsp_doc *d);
/* When every change since the last publish was inside a comment (lsp_pub_edit), publish its
 * findings where they now are: 0, or 1 when it could not be written. -1: the text must be
 * checked. */
int lsp_pub_again(server *s, lsp_doc *d);

/*==============================================================================================
 * MARK: The handlers: one per row of server.c's method table (`id` NULL for a notification)
 *============================================================================================*/

typedef void (*lsp_handler)(server *s, json_t *id, json_t *params);
/* handlers.c: the lifecycle and the documents. */
void lsp_initialize(server *s, json_t *id, json_t *params);
void lsp_initialized(server *s, json_t *id, json_t *params);
void lsp_shutdown(server *s, json_t *id, json_t *params);
void lsp_exit(server *s, json_t *id, json_t *params);
void lsp_did_open(server *s, json_t *id, json_t *params);
void lsp_did_change(server *s, json_t *id, json_t *params);
void lsp_did_close(server *s, json_t *id, json_t *params);
void lsp_did_save(server *s, json_t *id, json_t *params);
void lsp_watched(server *s, json_t *id, json_t *params);
/* lsp_actions.c: textDocument/codeAction and textDocument/hover. */
void lsp_code_action(server *s, json_t *id, json_t *params);
void lsp_hover(server *s, json_t *id, json_t *params);
/* handlers.c: $/boxlint/stats, {"moved": N, "checked": N} (the publishes of each kind so far). */
void lsp_stats(server *s, json_t *id, json_t *params);

#endif

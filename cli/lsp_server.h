/* Private to the server's two halves: lsp.c (lifecycle, dispatch, documents, diagnostics,
 * configuration) and lsp_actions.c (code actions and hover), which share the server's state
 * and the checking of a document. */
#ifndef BOXLINT_CLI_LSP_SERVER_H
#define BOXLINT_CLI_LSP_SERVER_H
#include "cli.h"
#include "lsp.h"

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
  char *rule_docs;           /* the rule reference's URL (a finding links to docs#rule), or NULL */
  size_t ncfg;
  lsp_problems *collect;     /* where c->on_problem keeps problems now; NULL: they are logged */
  char **told;               /* documents the log has said are passed over (their URIs) */
  size_t ntold;
} server;

/* Checking a document with the command's code: its findings, or what stopped the check. */
typedef struct lsp_check {
  checked k;
  int ok;                    /* the check succeeded */
  int skipped;               /* a file the walk passes over (its kind, or where it is): nothing
                                is published for it, no code action offered */
  lsp_problems why;          /* the problems that stopped it, when it did not succeed */
} lsp_check;

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
void lsp_check_free(lsp_check *dc);
/* Each shown finding of a successful check, with its byte range in the document. */
typedef void (*lsp_finding_fn)(const unit *u, const boxlint_diag *d, boxlint_severity sev,
                               size_t a, size_t b, void *ctx);
void lsp_each_finding(const lsp_check *dc, lsp_finding_fn fn, void *ctx);
/* An LSP Diagnostic: the message with the hint on a second line. */
json_t *lsp_diag_json(const lsp_doc *doc, enum lsp_enc enc, size_t a, size_t b, int sev,
                      const char *code, const char *message, const char *hint);
int lsp_severity(boxlint_severity s);

/* lsp_actions.c: textDocument/codeAction and textDocument/hover. */
void lsp_code_action(server *s, json_t *id, json_t *params);
void lsp_hover(server *s, json_t *id, json_t *params);

#endif

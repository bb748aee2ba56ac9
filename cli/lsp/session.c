/* `boxlint lsp`'s session: the state every handler shares and what they do with it.
 * Messages out (lsp_io.c's framing), the open documents, the problems the command's loaders
 * report (problem.c's records, through c->on_problem, never text), checking a document exactly
 * as the command checks a file of its name (input/'s cli_check_found with the walk's rules, the
 * .boxlint.json found upward from it): a file the walk passes over (kind.c's NONE, or
 * cli_walk_skips) gets an empty list of diagnostics and one line in the client's log; and the
 * diagnostics published, with what the configuration's failures look like in an editor.
 * Nothing but protocol messages is written to standard output; logs go to standard error.
 * Called by the handlers (handlers.c, lsp_actions.c) and the loop (server.c), never calling
 * them; calls lsp_io.c, lsp_doc.c, input/ and output/'s severity and position. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lsp/lsp_int.h"

int64_t lsp_now_ms(void) {
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
  /* The command buffers stderr fully when it is not a terminal; an editor shows the server's
   * log as it comes, so each line goes out whole and at once. */
  fflush(stderr);
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
void lsp_on_problem(cli *c, const cli_problem *p, void *ctx) {
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
  lsp_problems why;
  lsp_problems_begin(s, &why);
  int skip = cli_walk_skips(s->c, d->path, NULL, 0);
  lsp_problems_end(s);
  lsp_check_after(s, d, skip, &why, dc);
}

void lsp_check_after(server *s, const lsp_doc *d, int skip, lsp_problems *why, lsp_check *dc) {
  memset(dc, 0, sizeof *dc);
  dc->why = *why; /* taken over, the check's problems after them */
  why->p = NULL;
  why->n = 0;
  s->collect = &dc->why;
  dc->skipped = skip;
  if (dc->skipped) {
    dc->ok = 1;
  } else {
    /* without the reuse (the benchmark's baseline), a whole check each time */
    dc->ok = cli_check_cached(s->c, d->path, d->text, d->len, 1, s->reuse ? d->pycache : NULL,
                              &dc->k) == 0;
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
  json_t *body = lsp_finding_body(x->s, lsp_severity(sev), d->rule, d->message, d->hint,
                                  d->fix != NULL);
  json_t *j = json_pack("{so}", "range", lsp_range_json(x->doc->text, x->doc->len, x->s->enc,
                                                        a, b));
  if (j && body) json_object_update(j, body);
  json_decref(body);
  json_array_append_new(x->arr, j);
}

static void pub_finding(const unit *u, const boxlint_diag *d, boxlint_severity sev, size_t a,
                        size_t b, void *ctx) {
  (void)u;
  lsp_pub_add(ctx, a, b, lsp_severity(sev), d->rule, d->message, d->hint, d->fix != NULL);
}

/* The findings of a successful check published from the document's last Diagnostics
 * (lsp_pub.c). Returns 0, or -1 when out of memory (nothing sent). */
static int publish_reusing(server *s, lsp_doc *d, const lsp_check *dc) {
  lsp_pub p;
  if (lsp_pub_begin(s, d, dc->k.u.kind == UNIT_PYTHON, &p)) return -1;
  lsp_positions_begin_doc(d, s->enc); /* the document's line starts */
  lsp_each_finding(dc, pub_finding, &p);
  lsp_positions_end();
  int rc = lsp_pub_send(&p);
  if (rc > 0) lsp_log(s, "cannot write to standard output");
  return rc < 0 ? -1 : 0;
}

/* The byte offset of 1-based line and code-point column (the command's positions). */
static size_t offset_of(const char *t, size_t n, uint32_t line, uint32_t col) {
  size_t off;
  if (!line || lsp_offset(t, n, LSP_UTF32, line - 1, col ? col - 1 : 0, &off)) return 0;
  return off;
}

void lsp_publish_on(server *s, const char *uri, int64_t version, json_t *diags) {
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
void lsp_publish_config(server *s, const char *path, const cli_problem *why,
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
  lsp_publish_on(s, uri, -1, arr);
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
  lsp_publish_config(s, d->path, cfg ? NULL : why.n ? &why.p[0] : &none, d->text, d->len);
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
    lsp_publish_config(s, p->path, p, NULL, 0);
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

void lsp_forget_told(server *s, const char *uri) {
  for (size_t i = 0; i < s->ntold; i++) {
    if (strcmp(s->told[i], uri)) continue;
    free(s->told[i]);
    s->told[i] = s->told[--s->ntold];
    return;
  }
}

void lsp_publish(server *s, lsp_doc *d) {
  d->dirty = 0;
  if (lsp_is_config_path(d->path)) {
    publish_config_doc(s, d);
    return;
  }
  lsp_problems why = {NULL, 0};
  int skip = -1; /* the walk not asked yet */
  if (s->reuse && d->pub) { /* only comments edited: the findings moved, not checked again */
    lsp_problems_begin(s, &why);
    skip = cli_walk_skips(s->c, d->path, NULL, 0);
    lsp_problems_end(s);
    int rc = skip ? -1 : lsp_pub_again(s, d);
    if (rc > 0) lsp_log(s, "cannot write to standard output");
    if (rc >= 0) {
      lsp_problems_free(&why);
      s->moved++;
      return;
    }
  }
  s->checked++;
  lsp_check dc;
  if (skip >= 0) lsp_check_after(s, d, skip, &why, &dc); /* the walk's answer of just now */
  else lsp_check_run(s, d, &dc);
  if (s->reuse && dc.ok && !dc.skipped && !publish_reusing(s, d, &dc)) {
    lsp_check_free(&dc);
    return;
  }
  lsp_pubcache_free(d->pub); /* not what was published last */
  d->pub = NULL;
  json_t *arr = json_array();
  if (dc.skipped) {
    tell_skipped(s, d, dc.k.skipped);
  } else if (dc.ok) {
    diag_ctx x = {s, d, arr};
    lsp_positions_begin_doc(d, s->enc); /* the document's line starts */
    lsp_each_finding(&dc, add_finding, &x);
    lsp_positions_end();
  } else {
    add_failure(s, d, &dc, arr);
  }
  lsp_check_free(&dc);
  lsp_publish_on(s, d->uri, d->version, arr);
}

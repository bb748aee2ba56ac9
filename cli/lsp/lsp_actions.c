/* Code actions and hover of `boxlint lsp`. A quick fix is the edit the command
 * makes of one finding's fix (fix_edits.c; an unsafe one titled "(unsafe)" and never
 * preferred), "fix all" the command's passes (fix_run.c: safe fixes only) as one edit over
 * what changed; hover explains the rules whose findings lie under the position, or
 * says whether a fragment's instruction keyword is allowed. A row each of server.c's
 * method table; calls session.c's checking of a document, lsp_doc.c's positions, fix/ and the
 * library's rule table. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lsp/lsp_int.h"

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
                      : lsp_diag_json(x->doc, x->s->enc, a, b, lsp_severity(sev), d->rule,
                                  d->message, d->hint);
    const char *desc = d->fix->description && *d->fix->description ? d->fix->description : NULL;
    /* an unsafe fix (it changes what the template or policy does) says so, and is never the
     * preferred one an editor applies without a look */
    int safe = d->fix->safety == BOXLINT_FIX_SAFE;
    char title[256];
    snprintf(title, sizeof title, "%s%s%s (boxlint %s)", desc ? "" : "Fix: ",
             desc ? desc : d->message, safe ? "" : " (unsafe)", d->rule);
    json_array_append_new(x->actions,
                          json_pack("{sssss[o]sbso}", "title", title, "kind", "quickfix",
                                    "diagnostics", diag, "isPreferred", safe, "edit",
                                    workspace_edit(x->doc->uri, text_edits(x->s, x->doc, &e))));
  }
  cli_fix_edits_free(&e);
  json_decref(range);
}

/* "Fix all boxlint findings": the command's passes, which apply safe fixes only (the server
 * never sets --unsafe-fixes); one edit over what differs. */
static void add_fix_all(server *s, const lsp_doc *d, json_t *actions) {
  char *fixed = NULL;
  size_t fl = 0;
  int rc = cli_fix_text(s->c, d->path, d->text, d->len, &fixed, &fl); /* problems: logged */
  if (rc) lsp_log(s, "%s: fix all: failed", d->uri);
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

void lsp_code_action(server *s, json_t *id, json_t *params) {
  lsp_doc *d = lsp_doc_find(s, lsp_param_uri(params));
  if (!d) {
    lsp_reply_error(s, id, E_PARAMS, "unknown document: open it first (textDocument/didOpen)");
    return;
  }
  json_t *ctx = json_object_get(params, "context"), *only = json_object_get(ctx, "only");
  const char *why;
  action_ctx x = {s, d, json_array(), json_object_get(ctx, "diagnostics"), 0, 0, 0};
  if (lsp_doc_range_offsets(d, s->enc, json_object_get(params, "range"), &x.ra, &x.rb, &why)) {
    json_decref(x.actions);
    lsp_reply_error(s, id, E_PARAMS, why);
    return;
  }
  if (lsp_is_config_path(d->path)) {
    lsp_reply(s, id, x.actions);
    return;
  }
  lsp_check dc;
  lsp_check_run(s, d, &dc);
  if (dc.ok && !dc.skipped) { /* a file the walk passes over: no action */
    json_t *keep = x.actions;
    if (!kind_wanted(only, "quickfix")) x.actions = NULL; /* only look for fixes */
    lsp_positions_begin_doc(d, s->enc); /* the document's line starts */
    lsp_each_finding(&dc, add_quickfix, &x);
    lsp_positions_end();
    x.actions = keep;
  }
  lsp_check_free(&dc);
  if (x.any_fix && kind_wanted(only, "source.fixAll.boxlint")) add_fix_all(s, d, x.actions);
  lsp_reply(s, id, x.actions);
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
  fprintf(f, "**%s** (%s): %s\n\n%s\n\n", ri->id, boxlint_severity_str(ri->severity), ri->summary,
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
static void keyword_hover(const lsp_check *dc, const lsp_doc *d, hover_ctx *h) {
  const boxlint_report *r = dc->k.r;
  if (dc->k.u.kind != UNIT_FRAGMENT || !r) return;
  for (size_t i = 0; i < boxlint_report_instruction_count(r); i++) {
    const boxlint_instruction *in = boxlint_report_instruction(r, i);
    size_t a = in->offset;
    while (a < in->end_offset && a < d->len && (d->text[a] == ' ' || d->text[a] == '\t')) a++;
    size_t b = a + in->keyword_text.len;
    if (h->off < a || h->off >= b || b > d->len) continue;
    if (boxlint_keyword_denied(in->keyword)) {
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

void lsp_hover(server *s, json_t *id, json_t *params) {
  lsp_doc *d = lsp_doc_find(s, lsp_param_uri(params));
  if (!d) {
    lsp_reply_error(s, id, E_PARAMS, "unknown document: open it first (textDocument/didOpen)");
    return;
  }
  json_t *p = json_object_get(params, "position");
  size_t off;
  if (lsp_doc_offset(d, s->enc, json_integer_value(json_object_get(p, "line")),
                     json_integer_value(json_object_get(p, "character")), &off) ||
      !json_is_integer(json_object_get(p, "line")) ||
      !json_is_integer(json_object_get(p, "character"))) {
    lsp_reply_error(s, id, E_PARAMS, "the position is not in the document");
    return;
  }
  char *md = NULL;
  size_t ml = 0;
  hover_ctx h = {.off = off, .f = open_memstream(&md, &ml)};
  if (!h.f) {
    lsp_reply_error(s, id, E_INTERNAL, "out of memory");
    return;
  }
  if (!lsp_is_config_path(d->path)) {
    lsp_check dc;
    lsp_check_run(s, d, &dc);
    if (dc.ok && !dc.skipped) lsp_each_finding(&dc, add_hover, &h);
    if (dc.ok && !dc.skipped && !h.n) keyword_hover(&dc, d, &h);
    lsp_check_free(&dc);
  }
  fclose(h.f);
  json_t *res = NULL;
  if (h.n && md)
    res = json_pack("{s{ssss}so}", "contents", "kind", "markdown", "value", md, "range",
                    lsp_range_json(d->text, d->len, s->enc, h.a, h.b));
  free(md);
  lsp_reply(s, id, res);
}


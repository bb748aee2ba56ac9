/* `boxlint policy`'s output, shared by the JSON and Python runs (policy_cmd.c, policy_py.c):
 * the findings through output/ exactly as `boxlint FILE` prints a file, the decisions as text
 * and JSON, the normal form of a policy, and --emit's rules. Calls output/ and the library;
 * nothing of the command's files. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "boxlint/boxlint.h"
#include "cmd/policy_cmd.h"

void pol_text_decision(FILE *f, const char *label, const pol_query *q, const boxlint_decision *d) {
  fprintf(f, "%sdecision: ", label);
  if (q->host) fprintf(f, "host %s", q->host);
  if (q->host && q->ip) fputs(", ", f);
  if (q->ip) fprintf(f, "ip %s", q->ip);
  fprintf(f, ": %s", boxlint_verdict_str(d->verdict));
  if (d->list != BOXLINT_LIST_NONE)
    fprintf(f, " by %s[%d] '%.*s'", boxlint_policy_list_str(d->list), (int)d->index,
            (int)d->entry.len, d->entry.ptr);
  fprintf(f, " [%s]\n", boxlint_decision_reason_str(d->reason));
}

json_t *pol_normalized_json(const boxlint_policy_spec *spec, const boxlint_policy *p) {
  json_t *o = json_object();
  boxlint_policy_type t = BOXLINT_POLICY_DISABLED;
  int type_ok = 1;
  if (p) {
    t = boxlint_policy_get_type(p);
  } else if (spec->type.ptr) {
    type_ok = 0;
    for (int k = 0; k < 3; k++) {
      const char *name = boxlint_policy_type_str((boxlint_policy_type)k);
      if (spec->type.len == strlen(name) && !memcmp(spec->type.ptr, name, strlen(name))) {
        t = (boxlint_policy_type)k;
        type_ok = 1;
      }
    }
  }
  json_object_set_new(o, "type", type_ok ? json_string(boxlint_policy_type_str(t)) : json_null());
  for (int l = 0; l < 2; l++) {
    json_t *a = json_array();
    const boxlint_span *s = l ? spec->deny_out : spec->allow_out;
    size_t n = l ? spec->n_deny : spec->n_allow;
    for (size_t i = 0; i < n; i++) {
      boxlint_policy_entry e;
      if (s[i].ptr && boxlint_policy_entry_parse(&e, s[i].ptr, s[i].len) == BOXLINT_OK)
        json_array_append_new(a, json_stringn(e.text, e.text_len));
      else
        json_array_append_new(a, json_null()); /* invalid: see its diagnostic */
    }
    json_object_set_new(o, l ? "deny_out" : "allow_out", a);
  }
  return o;
}

json_t *pol_decision_json(const pol_query *q, const boxlint_decision *d) {
  json_t *o = json_object();
  json_object_set_new(o, "host", q->host ? json_string(q->host) : json_null());
  json_object_set_new(o, "ip", q->ip ? json_string(q->ip) : json_null());
  json_object_set_new(o, "verdict", json_string(boxlint_verdict_str(d->verdict)));
  json_object_set_new(o, "reason", json_string(boxlint_decision_reason_str(d->reason)));
  if (d->list != BOXLINT_LIST_NONE) {
    json_object_set_new(o, "list", json_string(boxlint_policy_list_str(d->list)));
    json_object_set_new(o, "index", json_integer(d->index));
    json_object_set_new(o, "entry", json_stringn(d->entry.ptr, d->entry.len));
  } else {
    json_object_set_new(o, "list", json_null());
    json_object_set_new(o, "index", json_null());
    json_object_set_new(o, "entry", json_null());
  }
  return o;
}

void pol_decide_all(const pol_cli *c, const boxlint_policy *p, boxlint_decision *ds) {
  for (size_t i = 0; p && i < c->nq; i++) {
    const pol_query *q = &c->q[i];
    boxlint_policy_decide(&ds[i], p, q->host, q->host ? strlen(q->host) : 0, q->ip,
                          q->ip ? strlen(q->ip) : 0);
  }
}

int pol_print_findings(const pol_cli *c, FILE *to, const unit *u) {
  cli k;
  memset(&k, 0, sizeof k);
  k.format = c->format;
  k.fail_on = c->fail_on;
  k.color = c->color;
  k.out = to;
  k.err = c->err;
  cli_begin(&k);
  cli_emit_unit(&k, u);
  cli_finish(&k);
  return k.worst >= EXIT_FINDINGS;
}

int pol_emit_rules(pol_cli *c, const unit *u, boxlint_report *r, const boxlint_policy *p, int rc) {
  char *text = NULL;
  size_t len = 0;
  c->eo.resolvers = c->resolvers;
  size_t before = boxlint_report_diag_count(r);
  if (p) {
    boxlint_status st = boxlint_policy_emit(p, (boxlint_emit_format)c->emit, &c->eo, r, &text,
                                            &len, NULL);
    if (st == BOXLINT_EINVAL) {
      fprintf(c->err, "boxlint policy: --nft-table, --nft-iifname and --proxy-user take "
                      "letters, digits, '_' and '-' (an interface name also '.', at most 15 "
                      "bytes), --resolver an IPv4 or IPv6 address\n");
      return POL_EXIT_USAGE;
    }
    if (st != BOXLINT_OK) {
      fprintf(c->err, "boxlint policy: %s\n", boxlint_status_str(st));
      return POL_EXIT_USAGE;
    }
  }
  int findings = pol_print_findings(c, c->err, u); /* standard output is the rules */
  /* the refusals of a Python file's policy: its position is the policy's (the unit has none) */
  for (size_t i = before; u->kind == UNIT_PYTHON && i < boxlint_report_diag_count(r); i++) {
    const boxlint_diag *d = boxlint_report_diag(r, i);
    fprintf(c->err, "%s: error: %s [%s]\n", c->shown_v, d->message, d->rule);
    if (d->hint) fprintf(c->err, "    hint: %s\n", d->hint);
  }
  const char *what = c->emit == (int)BOXLINT_EMIT_NGINX ? "nginx configuration"
                     : c->emit ? "dnsmasq configuration" : "nftables script";
  int no_resolver = 0; /* refused for want of a resolver: a usage error */
  for (size_t i = before; !text && i < boxlint_report_diag_count(r); i++)
    no_resolver |= !strncmp(boxlint_report_diag(r, i)->message, "no resolver given", 17);
  if (!text && p && !c->eo.nresolvers && no_resolver) {
    fprintf(c->err, "boxlint policy: %s: no %s written: %s; give the resolver's address with "
                    "--resolver ADDR\n", c->shown, what,
            c->emit == (int)BOXLINT_EMIT_NGINX
                ? "the proxy connects to the names it allows, which it resolves through it"
                : "the policy names hosts and drops every other address, DNS to the resolver too");
    return POL_EXIT_USAGE;
  }
  if (!text) {
    fprintf(c->err, "boxlint policy: %s: no %s written: %s\n", c->shown, what,
            p ? "the policy cannot be enforced exactly (unenforceable-entry)" : "the policy has errors");
    return POL_EXIT_FINDINGS;
  }
  fwrite(text, 1, len, c->out);
  boxlint_buffer_free(text, NULL);
  return findings ? POL_EXIT_FINDINGS : rc;
}

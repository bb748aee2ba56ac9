/* `boxlint policy FILE [--host H] [--ip A] ...`: validate a NetworkPolicy (DESIGN §3) and print
 * decisions, as text or as the JSON object of DESIGN §5. Uses only the public API; jansson
 * reads the file and builds every JSON value. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "boxlint/boxlint.h"
#include "cli.h"

enum { POL_EXIT_CLEAN = 0, POL_EXIT_FINDINGS = 1, POL_EXIT_USAGE = 2 };

static const char POL_USAGE[] =
    "usage: boxlint policy FILE [options]\n"
    "Validate a NetworkPolicy and decide destinations under it.\n"
    "FILE is a JSON NetworkPolicy {\"type\", \"allow_out\", \"deny_out\"} or a template object\n"
    "with a \"network_policy\" member; - reads standard input.\n"
    "\n"
    "  --host H               decide the host name H (an IP literal counts as the address)\n"
    "  --ip A                 decide the address A\n"
    "                         A --host immediately followed by --ip is ONE decision for that\n"
    "                         host at that address (`--host pypi.org --ip 151.101.0.223`);\n"
    "                         any other --host or --ip is a decision of its own.\n"
    "  --compat e2b           also report what E2B's API rejects or enforces differently\n"
    "  --unmatched allow|deny verdict for destinations matched by neither list (default allow,\n"
    "                         as E2B enforces)\n"
    "  --max-entries N        entries allowed per list (default 1024)\n"
    "  --format text|json     output format (default text)\n"
    "  --fail-on error|warning|info  exit 1 when a finding is at least this severe (default error)\n"
    "  --no-color             accepted for symmetry with `boxlint lint` (output is not coloured)\n"
    "\n"
    "Exit status: 0 nothing at or above --fail-on, 1 findings, 2 usage, I/O or malformed JSON.\n"
    "Decision reasons: rule, default, policy-disabled, policy-open, invalid-destination,\n"
    "needs-ip (a host-only question whose answer depends on the address: give --ip too).\n";

/* A finding of the command itself (the library never sees JSON keys). */
typedef struct pol_finding {
  const char *rule;
  boxlint_severity severity;
  char *path, *message, *hint;
} pol_finding;

typedef struct pol_query {
  const char *host, *ip;
} pol_query;

typedef struct pol_cli {
  FILE *out, *err;
  const char *file, *shown;
  int json;
  boxlint_severity fail_on;
  boxlint_policy_options opts;
  pol_query *q;
  size_t nq;
  pol_finding *f;
  size_t nf;
} pol_cli;

static char *pol_dupf(const char *fmt, const char *a, const char *b) {
  size_t n = strlen(fmt) + strlen(a) + (b ? strlen(b) : 0) + 1;
  char *s = malloc(n);
  if (s) snprintf(s, n, fmt, a, b ? b : "");
  return s;
}

/*==============================================================================================
 * MARK: Reading the policy
 *============================================================================================*/

static char *pol_read_all(const char *path, size_t *len, FILE *err, const char *shown) {
  FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  if (!fp) {
    fprintf(err, "boxlint policy: %s: %s\n", shown, strerror(errno));
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    if (n == cap) {
      char *nb = cap > ((size_t)1 << 30) ? NULL : realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
    size_t k = fread(buf + n, 1, cap - n, fp);
    n += k;
    if (k == 0) break;
  }
  int bad = !buf || ferror(fp);
  if (fp != stdin) fclose(fp);
  if (bad) {
    fprintf(err, "boxlint policy: %s: %s\n", shown, buf ? "read error" : "out of memory");
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

/* Spans of a JSON array of strings (`v` NULL or null: empty). Returns 0, or -1 with a message. */
static int pol_get_list(const json_t *v, const char *path, const char *shown, boxlint_span **out,
                    size_t *n, FILE *err) {
  *out = NULL;
  *n = 0;
  if (!v || json_is_null(v)) return 0;
  if (!json_is_array(v)) {
    fprintf(err, "%s: error: %s: expected an array of strings\n", shown, path);
    return -1;
  }
  size_t k = json_array_size(v);
  if (!k) return 0;
  boxlint_span *s = calloc(k, sizeof *s);
  if (!s) {
    fprintf(err, "boxlint policy: out of memory\n");
    return -1;
  }
  for (size_t i = 0; i < k; i++) {
    const json_t *e = json_array_get(v, i);
    if (!json_is_string(e)) {
      fprintf(err, "%s: error: %s[%zu]: expected a string, not %s\n", shown, path, i,
              json_is_object(e) ? "an object" : json_is_array(e) ? "an array"
              : json_is_number(e) ? "a number" : json_is_boolean(e) ? "a boolean" : "null");
      free(s);
      return -1;
    }
    s[i].ptr = json_string_value(e);
    s[i].len = json_string_length(e);
  }
  *out = s;
  *n = k;
  return 0;
}

typedef struct pol_in {
  boxlint_policy_spec spec;
  boxlint_span *allow, *deny;
} pol_in;

/* Fill `in` from the policy object `np` (NULL or null: absent). */
static int pol_get_policy(pol_in *in, const json_t *np, const char *shown, FILE *err) {
  memset(in, 0, sizeof *in);
  if (!np || json_is_null(np)) return 0;
  if (!json_is_object(np)) {
    fprintf(err, "%s: error: network_policy: expected an object\n", shown);
    return -1;
  }
  const json_t *t = json_object_get(np, "type");
  if (t && !json_is_null(t)) {
    if (!json_is_string(t)) {
      fprintf(err, "%s: error: network_policy.type: expected a string\n", shown);
      return -1;
    }
    in->spec.type.ptr = json_string_value(t);
    in->spec.type.len = json_string_length(t);
  }
  if (pol_get_list(json_object_get(np, "allow_out"), "network_policy.allow_out", shown, &in->allow,
               &in->spec.n_allow, err) ||
      pol_get_list(json_object_get(np, "deny_out"), "network_policy.deny_out", shown, &in->deny,
               &in->spec.n_deny, err)) {
    free(in->allow);
    free(in->deny);
    return -1;
  }
  in->spec.allow_out = in->allow;
  in->spec.deny_out = in->deny;
  return 0;
}

static size_t pol_edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b), row[64];
  if (la > 60 || lb > 60) return 99;
  for (size_t j = 0; j <= lb; j++) row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t prev = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t cur = row[j];
      int ca = a[i - 1] | 0x20, cb = b[j - 1] | 0x20; /* case-blind */
      size_t best = prev + (ca != cb);
      if (row[j] + 1 < best) best = row[j] + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      prev = cur;
    }
  }
  return row[lb];
}

static void pol_unknown_fields(pol_cli *c, json_t *np) {
  static const char *const known[] = {"type", "allow_out", "deny_out"};
  const char *key;
  json_t *v;
  if (!json_is_object(np)) return;
  json_object_foreach(np, key, v) {
    (void)v;
    size_t best = 99, bi = 0;
    for (size_t k = 0; k < 3; k++) {
      if (!strcmp(key, known[k])) best = 0;
      size_t dd = pol_edit_distance(key, known[k]);
      if (strlen(key) >= 4 && strstr(known[k], key)) dd = 1; /* "allow" for "allow_out" */
      if (best && dd < best) {
        best = dd;
        bi = k;
      }
    }
    if (!best) continue;
    pol_finding *nf = realloc(c->f, (c->nf + 1) * sizeof *c->f);
    if (!nf) return;
    c->f = nf;
    pol_finding *f = &c->f[c->nf++];
    f->rule = "unknown-field";
    f->severity = BOXLINT_SEVERITY_WARNING;
    f->path = pol_dupf("network_policy.%s%s", key, NULL);
    f->message = pol_dupf("unknown field '%s' in network_policy; it is ignored%s", key, NULL);
    f->hint = best <= 2 ? pol_dupf("did you mean '%s'?%s", known[bi], NULL)
                        : pol_dupf("a NetworkPolicy has 'type', 'allow_out' and 'deny_out'%s%s", "",
                               NULL);
  }
}

/*==============================================================================================
 * MARK: Output
 *============================================================================================*/

/* Policy fixes are list-relative: insert `replacement` into the list the description names at
 * index `offset`. */
static json_t *pol_diag_json(const boxlint_diag *d) { return cli_diag_json(NULL, d, d->severity); }

static json_t *pol_finding_json(const pol_finding *f) {
  boxlint_diag d;
  memset(&d, 0, sizeof d);
  d.rule = f->rule;
  d.severity = f->severity;
  d.path = f->path;
  d.message = f->message ? f->message : "";
  d.hint = f->hint;
  return pol_diag_json(&d);
}

static void pol_text_diag(pol_cli *c, const char *rule, boxlint_severity sev, const char *message,
                      const char *hint, const boxlint_fix *fix) {
  fprintf(c->out, "%s: %s: %s [%s]\n", c->shown, boxlint_severity_str(sev), message, rule);
  if (hint) fprintf(c->out, "    hint: %s\n", hint);
  if (fix) fprintf(c->out, "    fix: %s\n", fix->description);
}

static json_t *pol_normalized_json(const pol_in *in, const boxlint_policy *p) {
  json_t *o = json_object();
  boxlint_policy_type t = BOXLINT_POLICY_DISABLED;
  int type_ok = 1;
  if (p) {
    t = boxlint_policy_get_type(p);
  } else if (in->spec.type.ptr) {
    type_ok = 0;
    for (int k = 0; k < 3; k++) {
      const char *name = boxlint_policy_type_str((boxlint_policy_type)k);
      if (in->spec.type.len == strlen(name) && !memcmp(in->spec.type.ptr, name, strlen(name))) {
        t = (boxlint_policy_type)k;
        type_ok = 1;
      }
    }
  }
  json_object_set_new(o, "type", type_ok ? json_string(boxlint_policy_type_str(t)) : json_null());
  for (int l = 0; l < 2; l++) {
    json_t *a = json_array();
    const boxlint_span *s = l ? in->spec.deny_out : in->spec.allow_out;
    size_t n = l ? in->spec.n_deny : in->spec.n_allow;
    for (size_t i = 0; i < n; i++) {
      boxlint_policy_entry e;
      if (boxlint_policy_entry_parse(&e, s[i].ptr, s[i].len) == BOXLINT_OK)
        json_array_append_new(a, json_stringn(e.text, e.text_len));
      else
        json_array_append_new(a, json_null()); /* invalid: see its diagnostic */
    }
    json_object_set_new(o, l ? "deny_out" : "allow_out", a);
  }
  return o;
}

static void pol_text_decision(pol_cli *c, const pol_query *q, const boxlint_decision *d) {
  fputs("decision: ", c->out);
  if (q->host) fprintf(c->out, "host %s", q->host);
  if (q->host && q->ip) fputs(", ", c->out);
  if (q->ip) fprintf(c->out, "ip %s", q->ip);
  fprintf(c->out, ": %s", boxlint_verdict_str(d->verdict));
  if (d->list != BOXLINT_LIST_NONE)
    fprintf(c->out, " by %s[%d] '%.*s'", boxlint_policy_list_str(d->list), (int)d->index,
            (int)d->entry.len, d->entry.ptr);
  fprintf(c->out, " [%s]\n", boxlint_decision_reason_str(d->reason));
}

static json_t *pol_decision_json(const pol_query *q, const boxlint_decision *d) {
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

/*==============================================================================================
 * MARK: The command
 *============================================================================================*/

static int pol_usage_error(pol_cli *c, const char *msg, const char *arg) {
  fprintf(c->err, "boxlint policy: %s%s%s\n%s", msg, arg ? " " : "", arg ? arg : "", POL_USAGE);
  return POL_EXIT_USAGE;
}

static int pol_add_query(pol_cli *c, const char *host, const char *ip) {
  pol_query *nq = realloc(c->q, (c->nq + 1) * sizeof *c->q);
  if (!nq) return -1;
  c->q = nq;
  c->q[c->nq].host = host;
  c->q[c->nq].ip = ip;
  c->nq++;
  return 0;
}

/* An option's value: "--opt=V" or "--opt V". NULL when missing. */
static const char *pol_opt_value(int argc, char **argv, int *i, const char *name) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (!strncmp(a, name, n) && a[n] == '=') return a + n + 1;
  if (strcmp(a, name)) return NULL;
  if (*i + 1 >= argc) return NULL;
  return argv[++*i];
}

static int pol_is_opt(const char *a, const char *name) {
  size_t n = strlen(name);
  return !strncmp(a, name, n) && (a[n] == 0 || a[n] == '=');
}

static int pol_parse_args(pol_cli *c, int argc, char **argv) {
  int host_open = 0; /* the previous option was --host and its decision has no address yet */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(POL_USAGE, c->out);
      return -2;
    }
    if (pol_is_opt(a, "--host")) {
      if (!(v = pol_opt_value(argc, argv, &i, "--host"))) return pol_usage_error(c, "--host needs a value", NULL);
      if (pol_add_query(c, v, NULL)) return pol_usage_error(c, "out of memory", NULL);
      host_open = 1;
      continue;
    }
    if (pol_is_opt(a, "--ip")) {
      if (!(v = pol_opt_value(argc, argv, &i, "--ip"))) return pol_usage_error(c, "--ip needs a value", NULL);
      if (host_open) c->q[c->nq - 1].ip = v;
      else if (pol_add_query(c, NULL, v)) return pol_usage_error(c, "out of memory", NULL);
      host_open = 0;
      continue;
    }
    host_open = 0;
    if (pol_is_opt(a, "--compat")) {
      if (!(v = pol_opt_value(argc, argv, &i, "--compat")) || strcmp(v, "e2b"))
        return pol_usage_error(c, "--compat takes e2b, not", v ? v : "(nothing)");
      c->opts.compat |= BOXLINT_COMPAT_E2B;
    } else if (pol_is_opt(a, "--unmatched")) {
      v = pol_opt_value(argc, argv, &i, "--unmatched");
      if (v && !strcmp(v, "allow")) c->opts.unmatched = BOXLINT_UNMATCHED_ALLOW;
      else if (v && !strcmp(v, "deny")) c->opts.unmatched = BOXLINT_UNMATCHED_DENY;
      else return pol_usage_error(c, "--unmatched takes allow or deny, not", v ? v : "(nothing)");
    } else if (pol_is_opt(a, "--format")) {
      v = pol_opt_value(argc, argv, &i, "--format");
      if (v && !strcmp(v, "json")) c->json = 1;
      else if (v && !strcmp(v, "text")) c->json = 0;
      else return pol_usage_error(c, "--format takes text or json, not", v ? v : "(nothing)");
    } else if (pol_is_opt(a, "--fail-on")) {
      v = pol_opt_value(argc, argv, &i, "--fail-on");
      if (v && !strcmp(v, "error")) c->fail_on = BOXLINT_SEVERITY_ERROR;
      else if (v && !strcmp(v, "warning")) c->fail_on = BOXLINT_SEVERITY_WARNING;
      else if (v && !strcmp(v, "info")) c->fail_on = BOXLINT_SEVERITY_INFO;
      else return pol_usage_error(c, "--fail-on takes error, warning or info, not", v ? v : "(nothing)");
    } else if (pol_is_opt(a, "--max-entries")) {
      v = pol_opt_value(argc, argv, &i, "--max-entries");
      char *end = NULL;
      unsigned long x = v ? strtoul(v, &end, 10) : 0;
      if (!v || !*v || *end || x == 0 || x > BOXLINT_POLICY_HARD_MAX_ENTRIES)
        return pol_usage_error(c, "--max-entries takes a number from 1 to 65535, not",
                           v ? v : "(nothing)");
      c->opts.max_entries = x;
    } else if (!strcmp(a, "--no-color")) {
      /* nothing to switch off */
    } else if (a[0] == '-' && a[1]) {
      return pol_usage_error(c, "unknown option", a);
    } else if (c->file) {
      return pol_usage_error(c, "one FILE only; extra argument", a);
    } else {
      c->file = a;
    }
  }
  if (!c->file) return pol_usage_error(c, "missing FILE", NULL);
  return 0;
}

int boxlint_cli_policy(int argc, char **argv, FILE *out, FILE *err) {
  pol_cli c;
  memset(&c, 0, sizeof c);
  c.out = out;
  c.err = err;
  c.fail_on = BOXLINT_SEVERITY_ERROR;
  boxlint_policy_options_init(&c.opts);
  int rc = pol_parse_args(&c, argc, argv);
  if (rc) {
    free(c.q);
    return rc == -2 ? POL_EXIT_CLEAN : rc;
  }
  c.shown = strcmp(c.file, "-") ? c.file : "<stdin>";

  json_t *root = NULL;
  boxlint_report *r = NULL;
  boxlint_policy *p = NULL;
  pol_in in;
  memset(&in, 0, sizeof in);
  rc = POL_EXIT_USAGE;
  size_t len = 0;
  char *text = pol_read_all(c.file, &len, err, c.shown);
  if (!text) goto done;
  json_error_t je;
  root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
  free(text);
  if (!root) {
    fprintf(err, "%s:%d:%d: error: invalid JSON: %s\n", c.shown, je.line, je.column, je.text);
    goto done;
  }
  if (!json_is_object(root)) {
    fprintf(err, "%s: error: expected a JSON object (a NetworkPolicy or a template)\n", c.shown);
    goto done;
  }
  /* A template carries the policy in "network_policy"; anything else is the policy itself. */
  json_t *np = root;
  if (json_object_get(root, "network_policy") || json_object_get(root, "commands") ||
      json_object_get(root, "name"))
    np = json_object_get(root, "network_policy");
  if (pol_get_policy(&in, np, c.shown, err)) goto done;
  if (np) pol_unknown_fields(&c, np);

  if (boxlint_report_new(&r, NULL) != BOXLINT_OK) {
    fprintf(err, "boxlint policy: out of memory\n");
    goto done;
  }
  boxlint_status st = boxlint_policy_new(&p, r, &in.spec, &c.opts, NULL);
  if (st != BOXLINT_OK && st != BOXLINT_ESYNTAX) {
    fprintf(err, "boxlint policy: %s\n", boxlint_status_str(st));
    goto done;
  }

  size_t nd = boxlint_report_diag_count(r);
  size_t failing = boxlint_report_count_at_least(r, c.fail_on);
  for (size_t i = 0; i < c.nf; i++) failing += c.f[i].severity >= c.fail_on;
  rc = failing ? POL_EXIT_FINDINGS : POL_EXIT_CLEAN;

  boxlint_decision *ds = c.nq ? calloc(c.nq, sizeof *ds) : NULL;
  if (c.nq && !ds) {
    fprintf(err, "boxlint policy: out of memory\n");
    rc = POL_EXIT_USAGE;
    goto done;
  }
  for (size_t i = 0; p && i < c.nq; i++) {
    const pol_query *q = &c.q[i];
    boxlint_policy_decide(&ds[i], p, q->host, q->host ? strlen(q->host) : 0, q->ip,
                          q->ip ? strlen(q->ip) : 0);
  }

  if (c.json) {
    json_t *o = json_object();
    json_object_set_new(o, "ok", json_boolean(rc == POL_EXIT_CLEAN));
    json_t *diags = json_array();
    for (size_t i = 0; i < nd; i++) json_array_append_new(diags, pol_diag_json(boxlint_report_diag(r, i)));
    for (size_t i = 0; i < c.nf; i++) json_array_append_new(diags, pol_finding_json(&c.f[i]));
    json_object_set_new(o, "diagnostics", diags);
    json_object_set_new(o, "normalized", pol_normalized_json(&in, p));
    json_t *dec = json_array();
    for (size_t i = 0; p && i < c.nq; i++) json_array_append_new(dec, pol_decision_json(&c.q[i], &ds[i]));
    json_object_set_new(o, "decisions", dec);
    if (json_dumpf(o, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0) fputc('\n', out);
    else rc = POL_EXIT_USAGE;
    json_decref(o);
  } else {
    for (size_t i = 0; i < nd; i++) {
      const boxlint_diag *d = boxlint_report_diag(r, i);
      pol_text_diag(&c, d->rule, d->severity, d->message, d->hint, d->fix);
    }
    for (size_t i = 0; i < c.nf; i++)
      pol_text_diag(&c, c.f[i].rule, c.f[i].severity, c.f[i].message ? c.f[i].message : "",
                c.f[i].hint, NULL);
    if (!p && c.nq)
      fprintf(out, "%s: no decisions: the policy has errors\n", c.shown);
    for (size_t i = 0; p && i < c.nq; i++) pol_text_decision(&c, &c.q[i], &ds[i]);
  }
  free(ds);

done:
  boxlint_policy_free(p);
  boxlint_report_free(r);
  free(in.allow);
  free(in.deny);
  json_decref(root);
  for (size_t i = 0; i < c.nf; i++) {
    free(c.f[i].path);
    free(c.f[i].message);
    free(c.f[i].hint);
  }
  free(c.f);
  free(c.q);
  return rc;
}

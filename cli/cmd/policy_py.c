/* `boxlint policy FILE.py`: the policies of a Python file. The library reads them
 * (boxlint_python_policies: each NetworkPolicy(...) call and network_policy= argument, with its
 * position, static or not) and checks the file (boxlint_check_python, as `boxlint lint` does);
 * the findings shown are those inside a policy. Each static policy is compiled and decided
 * under --host/--ip, its decisions labelled FILE:line:column; one known only when the code runs
 * is said to be not static, never guessed. --emit takes a file with exactly one policy. Called
 * by policy_cmd.c (FILE read); calls the library, output/ (and its cli_diag_json) and
 * policy_out.c's findings, decisions and rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/policy_cmd.h"

typedef struct pol_py {
  pol_cli *c;
  unit u;
  const boxlint_python_policy *pp; /* the file's policies (owned by `pr`) */
  size_t np;
  boxlint_report *r, *pr;          /* the file's findings; the policies and scratch */
  boxlint_diag *shown;             /* the findings inside a policy */
  size_t nshown;
} pol_py;

/* The findings of the file inside one of its policies, into k->shown. Returns 0, -1. */
static int inside_policies(pol_py *k) {
  size_t n = boxlint_report_diag_count(k->r);
  k->shown = calloc(n + 1, sizeof *k->shown);
  if (!k->shown) return -1;
  for (size_t i = 0; i < n; i++) {
    const boxlint_diag *d = boxlint_report_diag(k->r, i);
    for (size_t j = 0; j < k->np; j++) {
      if (d->offset >= k->pp[j].offset && d->offset < k->pp[j].end_offset) {
        k->shown[k->nshown++] = *d;
        break;
      }
    }
  }
  return 0;
}

/* Compile policy `p` into a scratch report (its findings are the file's, already shown):
 * the compiled policy, or NULL when it is not static or has errors. */
static boxlint_policy *compile(pol_py *k, const boxlint_python_policy *p, boxlint_report *scratch) {
  boxlint_policy *pol = NULL;
  if (p->state != BOXLINT_PYPOLICY_STATIC) return NULL;
  if (boxlint_policy_new(&pol, scratch, &p->spec, &k->c->opts, NULL) != BOXLINT_OK) {
    boxlint_policy_free(pol);
    return NULL;
  }
  return pol;
}

/* Why a policy has no decisions (NULL: it has). */
static const char *no_decisions(const boxlint_python_policy *p, const boxlint_policy *pol) {
  if (p->state == BOXLINT_PYPOLICY_NOT_STATIC) return "the policy is not static";
  if (p->state == BOXLINT_PYPOLICY_INVALID || !pol) return "the policy has errors";
  return NULL;
}

/* One policy's member of "policies" (--format json). */
static json_t *policy_json(pol_py *k, const boxlint_python_policy *p, const boxlint_policy *pol,
                           const boxlint_decision *ds) {
  json_t *o = json_object();
  json_object_set_new(o, "line", json_integer(p->line));
  json_object_set_new(o, "column", json_integer(p->column));
  json_object_set_new(o, "offset", json_integer((json_int_t)p->offset));
  json_object_set_new(o, "binding", json_boolean(p->in_binding));
  json_object_set_new(o, "static", json_boolean(p->state == BOXLINT_PYPOLICY_STATIC));
  json_object_set_new(o, "why", p->why ? json_string(p->why) : json_null());
  json_object_set_new(o, "normalized", p->state == BOXLINT_PYPOLICY_STATIC
                                           ? pol_normalized_json(&p->spec, pol) : json_null());
  json_t *dec = json_array();
  for (size_t i = 0; pol && i < k->c->nq; i++)
    json_array_append_new(dec, pol_decision_json(&k->c->q[i], &ds[i]));
  json_object_set_new(o, "decisions", dec);
  return o;
}

/* Every policy compiled and decided: printed as text (after `label`) or collected as JSON. */
static int decide_each(pol_py *k, FILE *f, json_t *policies) {
  pol_cli *c = k->c;
  boxlint_decision *ds = calloc(c->nq + 1, sizeof *ds);
  if (!ds) return -1;
  for (size_t j = 0; j < k->np; j++) {
    const boxlint_python_policy *p = &k->pp[j];
    boxlint_report *scratch = NULL;
    if (boxlint_report_new(&scratch, NULL) != BOXLINT_OK) break;
    boxlint_policy *pol = compile(k, p, scratch);
    pol_decide_all(c, pol, ds);
    const char *why = no_decisions(p, pol);
    size_t ln = strlen(k->u.path) + 32;
    char *label = malloc(ln);
    if (!label) {
      boxlint_policy_free(pol);
      boxlint_report_free(scratch);
      break;
    }
    snprintf(label, ln, "%s:%u:%u: ", k->u.path, p->line, p->column);
    if (policies) {
      json_array_append_new(policies, policy_json(k, p, pol, ds));
    } else if (why && c->nq) {
      fprintf(f, "%sno decisions: %s%s%s\n", label, why, p->why ? ": " : "", p->why ? p->why : "");
    }
    for (size_t i = 0; !policies && pol && i < c->nq; i++) pol_text_decision(f, label, &c->q[i], &ds[i]);
    free(label);
    boxlint_policy_free(pol);
    boxlint_report_free(scratch);
  }
  free(ds);
  return 0;
}

/* --format json: the findings inside the policies, and each policy with its decisions. */
static int print_json(pol_py *k, int ok) {
  pol_cli *c = k->c;
  json_t *o = json_object(), *diags = json_array(), *policies = json_array();
  json_object_set_new(o, "ok", json_boolean(ok));
  cli_positions_begin(&k->u);
  for (size_t i = 0; i < k->nshown; i++)
    json_array_append_new(diags, cli_diag_json(&k->u, &k->shown[i], k->shown[i].severity));
  cli_positions_end();
  json_object_set_new(o, "diagnostics", diags);
  int rc = decide_each(k, NULL, policies);
  json_object_set_new(o, "policies", policies);
  if (rc == 0 && json_dumpf(o, c->out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0) fputc('\n', c->out);
  else rc = -1;
  json_decref(o);
  return rc;
}

/* --emit: exactly one policy, static; its rules as a JSON file's are. */
static int emit_one(pol_py *k, int rc) {
  pol_cli *c = k->c;
  if (k->np != 1) {
    fprintf(c->err, "boxlint policy: %s: --emit writes the rules of one policy, and the file has "
                    "%zu%s", c->shown_v, k->np, k->np ? " (at" : "");
    for (size_t j = 0; j < k->np; j++)
      fprintf(c->err, "%s%u:%u", j ? ", " : " ", k->pp[j].line, k->pp[j].column);
    fprintf(c->err, "%s; give a file with one policy (a JSON policy file)\n", k->np ? ")" : "");
    return POL_EXIT_USAGE;
  }
  const boxlint_python_policy *p = &k->pp[0];
  if (p->state == BOXLINT_PYPOLICY_NOT_STATIC) {
    pol_print_findings(c, c->err, &k->u);
    fprintf(c->err, "boxlint policy: %s:%u:%u: --emit: the policy is not static (%s); give its "
                    "values as literals\n", c->shown, p->line, p->column, p->why);
    return POL_EXIT_USAGE;
  }
  boxlint_report *scratch = NULL;
  if (boxlint_report_new(&scratch, NULL) != BOXLINT_OK) {
    fprintf(c->err, "boxlint policy: out of memory\n");
    return POL_EXIT_USAGE;
  }
  boxlint_policy *pol = compile(k, p, scratch);
  rc = pol_emit_rules(c, &k->u, scratch, pol, rc);
  boxlint_policy_free(pol);
  boxlint_report_free(scratch);
  return rc;
}

/* Check the file as `boxlint lint` does and read its policies. Returns 0; 1 when the file is
 * not valid Python (the finding printed); -1 (why printed). */
static int load(pol_py *k) {
  pol_cli *c = k->c;
  boxlint_options o;
  boxlint_options_init(&o);
  /* the version: --target-version, else the config's "target-version" (o has no config: the
   * lint checks run as they did, in the gatekeeper mode) */
  o.python_minor = c->python_minor ? c->python_minor
                                   : boxlint_config_get_python_minor(c->opts.config);
  if (boxlint_report_new(&k->r, NULL) != BOXLINT_OK || boxlint_report_new(&k->pr, NULL) != BOXLINT_OK) {
    fprintf(c->err, "boxlint: %s: out of memory\n", c->shown);
    return -1;
  }
  boxlint_status st = boxlint_check_python(k->r, c->text, c->len, &o, &c->opts);
  if (st == BOXLINT_ESYNTAX && boxlint_report_diag_count(k->r)) {
    /* a finding of the file's content (python-syntax, python-encoding): no policy can be read
     * from it, which is said, and the exit is a finding's */
    const boxlint_diag *d = boxlint_report_diag(k->r, boxlint_report_diag_count(k->r) - 1);
    fprintf(c->err, "boxlint: %s:%u:%u: %s [%s]\n", c->shown, d->line, d->column, d->message,
            d->rule);
    return 1;
  }
  if (st == BOXLINT_OK) st = boxlint_python_policies_opts(k->pr, c->text, c->len, &o, &k->pp, &k->np);
  if (st != BOXLINT_OK) {
    fprintf(c->err, "boxlint: %s: %s\n", c->shown, boxlint_status_str(st));
    return -1;
  }
  if (inside_policies(k)) {
    fprintf(c->err, "boxlint: %s: out of memory\n", c->shown);
    return -1;
  }
  return 0;
}

int pol_run_python(pol_cli *c) {
  pol_py k;
  memset(&k, 0, sizeof k);
  k.c = c;
  int rc = POL_EXIT_USAGE, loaded = load(&k);
  if (loaded == 1) rc = POL_EXIT_FINDINGS;
  if (loaded == 0) {
    k.u.path = c->format == FMT_SARIF ? c->file : c->shown;
    k.u.kind = UNIT_PYTHON;
    k.u.text = c->text;
    k.u.len = c->len;
    k.u.cmds_off = SIZE_MAX;
    k.u.policy_off = SIZE_MAX;
    k.u.extra = k.shown;
    k.u.nextra = k.nshown;
    size_t failing = 0;
    for (size_t i = 0; i < k.nshown; i++) failing += k.shown[i].severity >= c->fail_on;
    rc = failing ? POL_EXIT_FINDINGS : POL_EXIT_CLEAN;
    if (!k.np && c->emit < 0)
      fprintf(c->err, "boxlint policy: %s: no NetworkPolicy in the file (no NetworkPolicy(...) call, "
                      "no network_policy= argument)\n", c->shown_v);
    if (c->emit >= 0) {
      rc = emit_one(&k, rc);
    } else if (c->format == FMT_JSON) {
      if (print_json(&k, rc == POL_EXIT_CLEAN)) rc = POL_EXIT_USAGE;
    } else {
      pol_print_findings(c, c->out, &k.u);
      if (decide_each(&k, c->format == FMT_SARIF ? c->err : c->out, NULL)) rc = POL_EXIT_USAGE;
    }
  }
  free(k.shown);
  boxlint_report_free(k.r);
  boxlint_report_free(k.pr);
  return rc;
}

/* `boxlint policy FILE [--host H] [--ip A] ...`: validate a NetworkPolicy and print decisions,
 * as text, as the JSON object docs/policy.md documents, as SARIF or as GitHub annotations; or
 * --emit the rules that enforce it. FILE is read and loaded as `boxlint lint` reads and loads
 * it (input.c's cli_read_file, template_load.c's cli_load_json and cli_load_policy_spec: the
 * same limits and the same messages); a .py FILE goes to policy_py.c. Every finding carries
 * its position in FILE (a UNIT_POLICY unit: out_position.c resolves the finding's path from
 * the policy object) and is printed by output.c. Owns the policy command's options and usage,
 * its own findings (unknown fields of the policy object), the decisions and its JSON document.
 * Called by main.c; calls input/ (input.c, template_load.c, jsonpos.c), output/ (and its
 * cli_diag_json), policy_py.c and policy_out.c. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include "boxlint/boxlint.h"
#include "cmd/policy_cmd.h"

static const char POL_USAGE[] =
    "usage: boxlint policy FILE [options]\n"
    "Validate a NetworkPolicy and decide destinations under it.\n"
    "FILE is a JSON NetworkPolicy {\"type\", \"allow_out\", \"deny_out\"} or a template object\n"
    "with a \"network_policy\" member; - reads standard input. A Python FILE (.py) holds a\n"
    "policy in each NetworkPolicy(...) call and network_policy= argument: each is validated\n"
    "and decided, labelled FILE:line:column; one whose values are known only when the code\n"
    "runs is reported as not static, never guessed.\n"
    "\n";
#define ROW_LINT(lng, shrt, arg, help)
#define ROW_POLICY(lng, shrt, arg, help) {lng, shrt, arg, help},
#define ROW_LSP(lng, shrt, arg, help)
static const cli_option POL_ROWS[] = {
#define X(cmd, id, kind, lng, shrt, arg, help, man) ROW_##cmd(lng, shrt, arg, help)
#include "cmd/options.def"
#undef X
};
/* After the options. */
static const char POL_USAGE_END[] =
    "--emit takes one policy: a Python FILE with several (or none) is refused (exit 2).\n"
    "\n"
    "Findings point into FILE: an entry's at its string, a list's at the list, a bad type at the\n"
    "type, one about the whole policy (filtered-empty-is-open) at its type.\n"
    "Exit status: 0 nothing at or above --fail-on, 1 findings, 2 usage, I/O or malformed JSON.\n"
    "Decision reasons: rule, default, policy-disabled, policy-open, invalid-destination,\n"
    "needs-ip (a host-only question whose answer depends on the address: give --ip too).\n";

static char *pol_dupf(const char *fmt, const char *a, const char *b) {
  size_t n = strlen(fmt) + strlen(a) + (b ? strlen(b) : 0) + 1;
  char *s = malloc(n);
  if (s) snprintf(s, n, fmt, a, b ? b : "");
  return s;
}

/*==============================================================================================
 * MARK: Loading the policy (as `boxlint lint` loads a .json file)
 *============================================================================================*/

/* Does the object have a key of a template or a binding (that a NetworkPolicy has not)? */
static int pol_has_template_key(const json_t *o) {
  for (size_t i = 0; boxlint_template_field(i); i++)
    if (json_object_get(o, boxlint_template_field(i))) return 1;
  for (size_t i = 0; boxlint_binding_field(i); i++)
    if (json_object_get(o, boxlint_binding_field(i))) return 1;
  return 0;
}

/* Load c->text with cli_load_json, then find the policy: the object itself, or a template's
 * (a binding's) network_policy (absent: the empty spec, a disabled policy). Returns 0 with
 * *spec filled (its lists owned by `l`) and *policy_off set (SIZE_MAX: no policy object), or
 * -1 with the problem printed at its line and column (exit 2). */
static int pol_load_json(pol_cli *c, loaded_json *l, boxlint_policy_spec *spec,
                         size_t *policy_off) {
  memset(l, 0, sizeof *l);
  memset(spec, 0, sizeof *spec);
  *policy_off = SIZE_MAX;
  size_t root_off = jp_ws(c->text, c->len, 0);
  if (root_off < c->len && c->text[root_off] == '[') { /* lint's list of commands, not ours */
    uint32_t line = 1, col = 1;
    jp_line_col(c->text, c->len, root_off, &line, &col);
    fprintf(c->err, "boxlint: %s:%u:%u: expected a JSON object (a NetworkPolicy or a template), "
                    "not an array\n", c->shown_v, line, col);
    return -1;
  }
  if (cli_load_json(c->base, c->shown, c->text, c->len, l)) return -1;
  if (!l->policy && l->kind == LJ_TEMPLATE && !pol_has_template_key(l->root)) {
    l->policy = l->root; /* a policy object with keys of its own (reported as unknown-field) */
    l->policy_off = root_off;
  }
  if (!l->policy) return 0;
  if (cli_load_policy_spec(c->base, c->shown, c->text, c->len, l, spec)) return -1;
  *policy_off = l->policy_off;
  return 0;
}

/* The policy object's keys that a NetworkPolicy does not have: unknown-field warnings, with the
 * nearest field as the hint (the library's one edit distance, boxlint_nearest_word). */
static void pol_unknown_fields(pol_cli *c, json_t *np) {
  const char *const known[] = {boxlint_policy_field(0), boxlint_policy_field(1),
                               boxlint_policy_field(2)}; /* the library's: type, allow_out, deny_out */
  const char *key;
  json_t *v;
  if (!json_is_object(np)) return;
  json_object_foreach(np, key, v) {
    (void)v;
    if (!strcmp(key, known[0]) || !strcmp(key, known[1]) || !strcmp(key, known[2])) continue;
    size_t best;
    size_t bi = boxlint_nearest_word(key, strlen(key), known, 3, &best);
    for (size_t k = 0; k < 3; k++)
      if (best > 1 && strlen(key) >= 4 && strstr(known[k], key)) { /* "allow" for "allow_out" */
        best = 1;
        bi = k;
      }
    /* a finding of the command's: the config's severity applied here, as the library does */
    boxlint_severity sev = boxlint_config_get_severity(c->opts.config, "unknown-field", 13,
                                                       BOXLINT_SEVERITY_WARNING);
    if (sev == BOXLINT_SEVERITY_OFF) continue;
    pol_finding *nf = realloc(c->f, (c->nf + 1) * sizeof *c->f);
    if (!nf) return;
    c->f = nf;
    pol_finding *f = &c->f[c->nf++];
    f->rule = "unknown-field";
    f->severity = sev;
    f->path = pol_dupf("network_policy.%s%s", key, NULL);
    f->message = pol_dupf("unknown field '%s' in network_policy; it is ignored%s", key, NULL);
    f->hint = best <= 2 && bi < 3
                  ? pol_dupf("did you mean '%s'?%s", known[bi], NULL)
                  : pol_dupf("a NetworkPolicy has 'type', 'allow_out' and 'deny_out'%s%s", "", NULL);
  }
}

/*==============================================================================================
 * MARK: Output
 *============================================================================================*/

/* The policy object of docs/policy.md; each diagnostic as the lint command's, with its position. */
static int pol_emit_json(const pol_cli *c, const unit *u, const boxlint_policy_spec *spec,
                         const boxlint_policy *p, const boxlint_decision *ds, int ok) {
  json_t *o = json_object();
  json_object_set_new(o, "ok", json_boolean(ok));
  json_t *diags = json_array();
  const boxlint_report *r = u->reports[1];
  cli_positions_begin(u); /* one index of the file for every position */
  for (size_t i = 0; r && i < boxlint_report_diag_count(r); i++) {
    const boxlint_diag *d = boxlint_report_diag(r, i);
    json_array_append_new(diags, cli_diag_json(u, d, d->severity));
  }
  for (size_t i = 0; i < u->nextra; i++)
    json_array_append_new(diags, cli_diag_json(u, &u->extra[i], u->extra[i].severity));
  cli_positions_end();
  json_object_set_new(o, "diagnostics", diags);
  json_object_set_new(o, "normalized", pol_normalized_json(spec, p));
  json_t *dec = json_array();
  for (size_t i = 0; p && i < c->nq; i++) json_array_append_new(dec, pol_decision_json(&c->q[i], &ds[i]));
  json_object_set_new(o, "decisions", dec);
  int rc = 0;
  if (o && json_dumpf(o, c->out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0) fputc('\n', c->out);
  else rc = -1;
  json_decref(o);
  return rc;
}

/* Text, SARIF and GitHub output through output.c, exactly as `boxlint FILE` prints a file; then
 * the decisions (on standard error for SARIF, whose standard output is the log alone). */
static void pol_emit_formatted(const pol_cli *c, const unit *u, const boxlint_policy *p,
                               const boxlint_decision *ds) {
  pol_print_findings(c, c->out, u);
  FILE *f = c->format == FMT_SARIF ? c->err : c->out;
  if (!p && c->nq) fprintf(f, "%s: no decisions: the policy has errors\n", c->shown_v);
  for (size_t i = 0; p && i < c->nq; i++) pol_text_decision(f, "", &c->q[i], &ds[i]);
}

/*==============================================================================================
 * MARK: Arguments
 *============================================================================================*/

/* A usage error: one line on standard error, `pre'arg'post` (arg NULL: `pre` alone). */
static int pol_usage_error(const pol_cli *c, const char *pre, const char *arg, const char *post) {
  if (arg) fprintf(c->err, "boxlint policy: %s'%s'%s; see 'boxlint policy --help'\n", pre, arg, post);
  else fprintf(c->err, "boxlint policy: %s; see 'boxlint policy --help'\n", pre);
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

#define OPT_LINT_VAL(id, lng)
#define OPT_LINT_FLAG(id, lng)
#define OPT_POLICY_VAL(id, lng) O_##id,
#define OPT_POLICY_FLAG(id, lng)
#define OPT_LSP_VAL(id, lng)
#define OPT_LSP_FLAG(id, lng)
#define X(cmd, id, kind, lng, shrt, arg, help, man) OPT_##cmd##_##kind(id, lng)
enum pol_opt {
#include "cmd/options.def"
  O_COUNT
};
#undef OPT_POLICY_VAL
#define OPT_POLICY_VAL(id, lng) lng,
static const char *const POL_OPTS[O_COUNT] = {
#include "cmd/options.def"
};
#undef X

/* Is argv[*i] option `name` ("--opt V" or "--opt=V")? 1 with *v set (and *i past a separate
 * value), 0 when it is another argument, -1 when the value is missing. */
static int pol_opt_value(int argc, char **argv, int *i, const char *name, const char **v) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (strncmp(a, name, n)) return 0;
  if (a[n] == '=') {
    *v = a + n + 1;
    return 1;
  }
  if (a[n]) return 0;
  if (*i + 1 >= argc) return -1;
  *v = argv[++*i];
  return 1;
}

static int pol_pick(const char *v, const char *const *names, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(v, names[i])) return (int)i;
  return -1;
}

/* One valued option (not --host, --ip). Returns 0 or the usage exit code. */
static int pol_set_option(pol_cli *c, enum pol_opt o, const char *v) {
  /* the library's words of --unmatched */
  const char *const unmatched[] = {boxlint_policy_unmatched_str(BOXLINT_UNMATCHED_ALLOW),
                                   boxlint_policy_unmatched_str(BOXLINT_UNMATCHED_DENY)};
  int k;
  char *end = NULL;
  unsigned long x;
  switch (o) {
  case O_COMPAT:
    if (strcmp(v, "e2b")) return pol_usage_error(c, "--compat takes e2b, not ", v, "");
    c->opts.compat |= BOXLINT_COMPAT_E2B;
    return 0;
  case O_TARGET_VERSION:
    if (boxlint_python_version_parse(v, strlen(v), &c->python_minor) != BOXLINT_OK)
      return pol_usage_error(c, "--target-version takes py38 to py314, not ", v, "");
    return 0;
  case O_UNMATCHED:
    if ((k = pol_pick(v, unmatched, 2)) < 0)
      return pol_usage_error(c, "--unmatched takes allow or deny, not ", v, "");
    c->opts.unmatched = k ? BOXLINT_UNMATCHED_DENY : BOXLINT_UNMATCHED_ALLOW;
    return 0;
  case O_FORMAT:
    if (cli_format_word(v, &c->format))
      return pol_usage_error(c, "--format takes text, json, sarif or github, not ", v, "");
    return 0;
  case O_FAIL_ON:
    if (cli_fail_on_word(v, &c->fail_on))
      return pol_usage_error(c, "--fail-on takes error, warning or info, not ", v, "");
    return 0;
  case O_MAX_ENTRIES:
    x = strtoul(v, &end, 10);
    if (!*v || *end || *v == '-' || *v == '+' || x == 0 || x > BOXLINT_POLICY_HARD_MAX_ENTRIES)
      return pol_usage_error(c, "--max-entries takes a number from 1 to 65535, not ", v, "");
    c->opts.max_entries = x;
    return 0;
  case O_EMIT:
    for (k = 0; boxlint_emit_format_str((boxlint_emit_format)k); k++) /* the library's words */
      if (!strcmp(v, boxlint_emit_format_str((boxlint_emit_format)k))) break;
    if (!boxlint_emit_format_str((boxlint_emit_format)k))
      return pol_usage_error(c, "--emit takes nftables, dnsmasq or nginx, not ", v, "");
    c->emit = k;
    return 0;
  case O_NFT_TABLE:
    c->eo.table = v;
    return 0;
  case O_NFT_IIF:
    c->eo.iifname = v;
    return 0;
  case O_PROXY_USER:
    c->eo.proxy_user = v;
    return 0;
  case O_RESOLVER:
    if (c->eo.nresolvers == 16) return pol_usage_error(c, "at most 16 --resolver, not ", v, "");
    c->resolvers[c->eo.nresolvers++] = v;
    return 0;
  default:
    return 0;
  }
}

/* Returns 0, -2 after --help, or the usage exit code (the message printed). */
static int pol_parse_args(pol_cli *c, int argc, char **argv) {
  int host_open = 0; /* the previous option was --host and its decision has no address yet */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(POL_USAGE, c->out);
      cli_options_print(c->out, POL_ROWS, sizeof POL_ROWS / sizeof *POL_ROWS, 23, 2);
      fputs(POL_USAGE_END, c->out);
      return -2;
    }
    int m = 0, o = 0;
    for (; o < O_COUNT && !(m = pol_opt_value(argc, argv, &i, POL_OPTS[o], &v)); o++) continue;
    if (m < 0) return pol_usage_error(c, "option ", POL_OPTS[o], " needs a value");
    if (m > 0 && (o == O_HOST || (o == O_IP && !host_open))) {
      if (pol_add_query(c, o == O_HOST ? v : NULL, o == O_HOST ? NULL : v)) {
        fputs("boxlint policy: out of memory\n", c->err);
        return POL_EXIT_USAGE;
      }
    } else if (m > 0 && o == O_IP) {
      c->q[c->nq - 1].ip = v;
    } else if (m > 0) {
      int rc = pol_set_option(c, (enum pol_opt)o, v);
      if (rc) return rc;
    } else if (!strcmp(a, "--no-color")) {
      c->color = 0;
    } else if (!strcmp(a, "--")) { /* the end of the options: what follows is the FILE */
      if (c->file || argc - i > 2)
        return pol_usage_error(c, "one FILE only; extra argument ", argv[argc - 1], "");
      if (i + 1 < argc) c->file = argv[i + 1];
      break;
    } else if (a[0] == '-' && a[1]) {
      return pol_usage_error(c, "unknown option ", a, "");
    } else if (c->file) {
      return pol_usage_error(c, "one FILE only; extra argument ", a, "");
    } else {
      c->file = a;
    }
    host_open = m > 0 && o == O_HOST;
  }
  if (!c->file) return pol_usage_error(c, "missing FILE", NULL, NULL);
  if (c->emit >= 0 && c->nq)
    return pol_usage_error(c, "--emit writes rules; --host and --ip go without it", NULL, NULL);
  if (c->emit >= 0 && (c->format == FMT_JSON || c->format == FMT_SARIF))
    return pol_usage_error(c, "--emit prints its findings as text or github, not json or sarif",
                           NULL, NULL);
  if (c->emit < 0 && (c->eo.iifname || c->eo.nresolvers || c->eo.proxy_user ||
                      strcmp(c->eo.table, "boxlint")))
    return pol_usage_error(c, "--nft-table, --nft-iifname, --proxy-user and --resolver go with "
                              "--emit", NULL, NULL);
  if (c->emit == (int)BOXLINT_EMIT_DNSMASQ && c->eo.proxy_user)
    return pol_usage_error(c, "--proxy-user goes with --emit nftables or nginx", NULL, NULL);
  return 0;
}

/*==============================================================================================
 * MARK: The command
 *============================================================================================*/

/* The command's own findings as diagnostics (freed by the caller; NULL when there are none). */
static boxlint_diag *pol_extra(const pol_cli *c) {
  boxlint_diag *x = c->nf ? calloc(c->nf, sizeof *x) : NULL;
  for (size_t i = 0; x && i < c->nf; i++) {
    x[i].rule = c->f[i].rule;
    x[i].severity = c->f[i].severity;
    x[i].command = -1;
    x[i].path = c->f[i].path;
    x[i].message = c->f[i].message ? c->f[i].message : "";
    x[i].hint = c->f[i].hint;
  }
  return x;
}

/* Compile the spec (the policy of the JSON FILE, `policy_off` its offset), decide, print.
 * Returns the exit code. */
static int pol_run(pol_cli *c, const boxlint_policy_spec *spec, size_t policy_off,
                   boxlint_report *r, boxlint_policy **p) {
  boxlint_status st = boxlint_policy_new(p, r, spec, &c->opts, NULL);
  if (st != BOXLINT_OK && st != BOXLINT_ESYNTAX) {
    fprintf(c->err, "boxlint policy: %s\n", boxlint_status_str(st));
    return POL_EXIT_USAGE;
  }
  size_t failing = boxlint_report_count_at_least(r, c->fail_on);
  for (size_t i = 0; i < c->nf; i++) failing += c->f[i].severity >= c->fail_on;
  int rc = failing ? POL_EXIT_FINDINGS : POL_EXIT_CLEAN;
  boxlint_decision *ds = c->nq ? calloc(c->nq, sizeof *ds) : NULL;
  boxlint_diag *extra = pol_extra(c);
  if ((c->nq && !ds) || (c->nf && !extra)) {
    fprintf(c->err, "boxlint policy: out of memory\n");
    free(ds);
    free(extra);
    return POL_EXIT_USAGE;
  }
  pol_decide_all(c, *p, ds);
  unit u;
  memset(&u, 0, sizeof u);
  u.path = c->format == FMT_SARIF ? c->file : c->shown;
  u.kind = UNIT_POLICY;
  u.text = c->text;
  u.len = c->len;
  u.cmds_off = SIZE_MAX;
  u.policy_off = policy_off;
  u.reports[1] = r;
  u.extra = extra;
  u.nextra = extra ? c->nf : 0;
  if (c->emit >= 0) {
    rc = pol_emit_rules(c, &u, r, *p, rc);
  } else if (c->format == FMT_JSON) {
    if (pol_emit_json(c, &u, spec, *p, ds, rc == POL_EXIT_CLEAN)) rc = POL_EXIT_USAGE;
  } else {
    pol_emit_formatted(c, &u, *p, ds);
  }
  free(ds);
  free(extra);
  return rc;
}

/* A JSON FILE: load, compile, decide, print. Returns the exit code. */
static int pol_run_json(pol_cli *c) {
  loaded_json l;
  boxlint_policy_spec spec;
  size_t policy_off;
  boxlint_report *r = NULL;
  boxlint_policy *p = NULL;
  int rc = POL_EXIT_USAGE;
  if (pol_load_json(c, &l, &spec, &policy_off) == 0) {
    if (l.policy) pol_unknown_fields(c, l.policy);
    if (boxlint_report_new(&r, NULL) != BOXLINT_OK) fprintf(c->err, "boxlint policy: out of memory\n");
    else rc = pol_run(c, &spec, policy_off, r, &p);
  }
  boxlint_policy_free(p);
  boxlint_report_free(r);
  cli_loaded_free(&l);
  return rc;
}

int cli_cmd_policy(cli *base, int argc, char **argv) {
  pol_cli c;
  memset(&c, 0, sizeof c);
  c.base = base;
  c.out = base->out;
  c.err = base->err;
  c.fail_on = BOXLINT_SEVERITY_ERROR;
  const char *nc = getenv("NO_COLOR");
  c.color = isatty(fileno(c.out)) && !(nc && *nc);
  boxlint_policy_options_init(&c.opts);
  boxlint_emit_options_init(&c.eo);
  c.emit = -1;
  int rc = pol_parse_args(&c, argc, argv);
  if (rc) {
    free(c.q);
    return rc == -2 ? POL_EXIT_CLEAN : rc;
  }
  c.shown = strcmp(c.file, "-") ? c.file : "<stdin>";
  c.shown_v = cli_visible(c.shown, c.shown_buf, sizeof c.shown_buf);
  /* The warnings' severities: the config that applies to the file, found as lint finds it. */
  const boxlint_config *cfg = NULL;
  if (cli_config_for(base, c.file, &cfg)) {
    cli_configs_free(base);
    free(c.q);
    return POL_EXIT_USAGE;
  }
  c.opts.config = cfg;
  if (cli_read_file(base, c.file, &c.text, &c.len)) rc = POL_EXIT_USAGE;
  else if (cli_is_python(base, c.file)) rc = pol_run_python(&c);
  else rc = pol_run_json(&c);
  free(c.text);
  for (size_t i = 0; i < c.nf; i++) {
    free(c.f[i].path);
    free(c.f[i].message);
    free(c.f[i].hint);
  }
  free(c.f);
  free(c.q);
  cli_configs_free(base);
  return rc;
}

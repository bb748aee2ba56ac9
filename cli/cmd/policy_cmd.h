/* Private to `boxlint policy`: policy_cmd.c (the command line, a JSON policy or template),
 * policy_py.c (the policies of a Python file) and policy_out.c (the findings, the decisions and
 * --emit, which both print). Nothing outside cmd/ includes this header. */
#ifndef BOXLINT_CLI_POLICY_CMD_H
#define BOXLINT_CLI_POLICY_CMD_H
#include "cmd/cmd.h"

enum { POL_EXIT_CLEAN = 0, POL_EXIT_FINDINGS = 1, POL_EXIT_USAGE = 2 };

/* A finding of the command itself (the library never sees JSON keys). */
typedef struct pol_finding {
  const char *rule;
  boxlint_severity severity;
  char *path, *message, *hint;
} pol_finding;

/* One --host/--ip decision asked for. */
typedef struct pol_query {
  const char *host, *ip;
} pol_query;

typedef struct pol_cli {
  cli *base;         /* the command's state: input.c and template_load.c read through it */
  FILE *out, *err;
  const char *file, *shown;
  const char *shown_v;       /* shown as a line of text may hold it (cli_visible) */
  char shown_buf[CLI_VISIBLE_MAX];
  enum format format;
  int color;
  boxlint_severity fail_on;
  boxlint_policy_options opts;
  pol_query *q;
  size_t nq;
  pol_finding *f;
  size_t nf;
  char *text;        /* the file's bytes, kept for positions */
  size_t len;
  int emit;          /* -1, or the boxlint_emit_format of --emit */
  boxlint_emit_options eo;
  const char *resolvers[16];
  int python_minor;  /* --target-version, or 0: the config's, else the default */
} pol_cli;

/* Findings of `u` through output.c in c->format, exactly as `boxlint FILE` prints a file (to
 * c->out; --emit passes its standard error). Returns 1 when one is at or above --fail-on. */
int pol_print_findings(const pol_cli *c, FILE *to, const unit *u);
/* "decision: host H, ip A: VERDICT by LIST[i] 'ENTRY' [reason]" on `f`, after `label` (a
 * "FILE:line:column: " of the policy in a Python file, or ""). */
void pol_text_decision(FILE *f, const char *label, const pol_query *q, const boxlint_decision *d);
json_t *pol_decision_json(const pol_query *q, const boxlint_decision *d);
/* The "normalized" member: the type and each entry's normal form (null when invalid). */
json_t *pol_normalized_json(const boxlint_policy_spec *spec, const boxlint_policy *p);
/* The decisions of every query under `p` into `ds` (c->nq of them). */
void pol_decide_all(const pol_cli *c, const boxlint_policy *p, boxlint_decision *ds);
/* --emit: the rules of `p` (NULL: it did not compile) on standard output, the findings of `u`
 * on standard error. Returns the exit code (`rc` when all went well). */
int pol_emit_rules(pol_cli *c, const unit *u, boxlint_report *r, const boxlint_policy *p, int rc);

/* policy_py.c: `boxlint policy FILE.py`, c->text read. Returns the exit code. */
int pol_run_python(pol_cli *c);

#endif

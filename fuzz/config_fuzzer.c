/* config: a config with a user rule (PCRE2) and severity changes cut from the input, then a
 * check that runs them (docs/design.md §2.3).
 *
 * Input: byte 0 = option bits, byte 1 = the rule's instruction, then fields separated by 0xFF:
 *   rule id, pattern, message, severity changes, then the commands.
 *   bits 0-1  the rule's severity: 0 info, 1 warning, 2 error, 3 off (invalid: rejected)
 *   bits 2-3  PCRE2 limits: 0 default, 1 match 100 / depth 10, 2 match 1 / depth 1, 3 none set
 *   bit 4     check the commands as a fragment (joined with LF) as well
 *   bit 5     out of memory: build the config and check with an allocator that fails after
 *             the first (last input byte % 64) allocations (BOXLINT_ENOMEM, nothing leaks)
 *   byte 1    the rule's instruction, modulo 19 (0: every instruction)
 *   Severity changes are LF-separated lines "rule-id=N", N the severity digit 0-3 (the last
 *   character), applied with boxlint_config_set_severity; a built-in error must refuse it.
 *
 * Oracles: a config never lowers or removes the built-in errors of docs/design.md §2.1 (the check
 * without the config reports exactly the same errors); a rule id that was added is listed. */
#include "fuzz_util.h"

#define MAX_PIECES 80

typedef struct err_key {
  const char *rule;
  int32_t command;
  size_t offset, end_offset;
} err_key;

static err_key *errors_of(const boxlint_report *r, size_t *n) {
  size_t cap = boxlint_report_diag_count(r);
  err_key *k = malloc((cap ? cap : 1) * sizeof *k);
  if (!k) fz_fail("out of memory in the harness");
  *n = 0;
  for (size_t i = 0; i < cap; i++) {
    const boxlint_diag *d = boxlint_report_diag(r, i);
    if (!fz_builtin_error(d->rule)) continue;
    /* A built-in error keeps its severity whatever the config says. */
    FZ_ASSERT(d->severity == BOXLINT_SEVERITY_ERROR);
    err_key e = {d->rule, d->command, d->offset, d->end_offset};
    k[(*n)++] = e;
  }
  return k;
}

static void same_errors(const boxlint_report *a, const boxlint_report *b) {
  size_t na, nb;
  err_key *ea = errors_of(a, &na), *eb = errors_of(b, &nb);
  int same = na == nb;
  for (size_t i = 0; same && i < na; i++)
    same = !strcmp(ea[i].rule, eb[i].rule) && ea[i].command == eb[i].command &&
           ea[i].offset == eb[i].offset && ea[i].end_offset == eb[i].end_offset;
  if (!same) {
    fz_dump(a, "with config");
    fz_dump(b, "without config");
    fz_fail("a config changed the built-in errors");
  }
  free(ea);
  free(eb);
}

static void set_severities(boxlint_config *c, boxlint_span spec) {
  const char *p = spec.ptr, *e = spec.ptr + spec.len;
  while (p < e) {
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    const char *end = nl ? nl : e;
    size_t n = (size_t)(end - p);
    if (n >= 2) {
      unsigned sev = (unsigned char)p[n - 1] & 3u;
      size_t idn = n - 1;
      if (idn && p[idn - 1] == '=') idn--;
      boxlint_error err;
      boxlint_status st =
          boxlint_config_set_severity(c, p, idn, (boxlint_severity)sev, &err);
      FZ_ASSERT(st == BOXLINT_OK || st == BOXLINT_EINVAL);
      if (st == BOXLINT_OK) {
        const boxlint_rule_info *ri = boxlint_rule_find(p, idn);
        if (ri && ri->severity == BOXLINT_SEVERITY_ERROR)
          fz_fail("set_severity accepted a change to a built-in error");
        FZ_ASSERT(boxlint_config_get_severity(c, p, idn, BOXLINT_SEVERITY_INFO) ==
                  (boxlint_severity)sev);
      } else {
        FZ_ASSERT(err.code == st && memchr(err.message, 0, sizeof err.message));
      }
    }
    p = nl ? nl + 1 : e;
  }
}

static void out_of_memory(const uint8_t *data, size_t size, const boxlint_user_rule *rule,
                          const boxlint_span *cmd, size_t ncmd) {
  fz_failer failer;
  boxlint_alloc failing = fz_failing(&failer, data, size);
  boxlint_config *c = NULL;
  boxlint_report *r = NULL;
  boxlint_status st = boxlint_config_new(&c, &failing);
  if (st != BOXLINT_OK) {
    FZ_ASSERT(st == BOXLINT_ENOMEM && c == NULL);
    return;
  }
  boxlint_error err;
  st = boxlint_config_add_rule(c, rule, &err);
  FZ_ASSERT(st == BOXLINT_OK || st == BOXLINT_EINVAL || st == BOXLINT_EREGEX ||
            st == BOXLINT_ENOMEM);
  FZ_ASSERT(st != BOXLINT_OK || boxlint_config_rule_count(c) == 1);
  FZ_ASSERT(st == BOXLINT_OK || boxlint_config_rule_count(c) == 0);
  if (boxlint_report_new(&r, &failing) == BOXLINT_OK) {
    boxlint_options o;
    boxlint_options_init(&o);
    o.config = c;
    st = boxlint_check_commands(r, cmd, ncmd, &o);
    FZ_ASSERT(st == BOXLINT_OK || st == BOXLINT_ENOMEM);
    for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
      const boxlint_diag *d = boxlint_report_diag(r, i);
      fz_check_diag(d, d->command >= 0 && (size_t)d->command < ncmd ? cmd[d->command].len
                                                                      : SIZE_MAX);
    }
  }
  boxlint_report_free(r);
  boxlint_config_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  uint8_t bits = data[0];
  boxlint_span f[MAX_PIECES];
  size_t nf = fz_cut(data + 2, size - 2, FZ_SEP, f, MAX_PIECES);
  boxlint_span none = {"", 0};
  boxlint_span id = nf > 0 ? f[0] : none, pattern = nf > 1 ? f[1] : none,
               message = nf > 2 ? f[2] : none, sevs = nf > 3 ? f[3] : none;
  const boxlint_span *cmd = nf > 4 ? f + 4 : NULL;
  size_t ncmd = nf > 4 ? nf - 4 : 0;

  boxlint_config *c;
  if (boxlint_config_new(&c, NULL) != BOXLINT_OK) fz_fail("config_new");
  static const boxlint_severity sevmap[4] = {BOXLINT_SEVERITY_INFO, BOXLINT_SEVERITY_WARNING,
                                             BOXLINT_SEVERITY_ERROR, BOXLINT_SEVERITY_OFF};
  boxlint_user_rule rule;
  memset(&rule, 0, sizeof rule);
  rule.id = id;
  rule.severity = sevmap[bits & 3];
  rule.instruction = (boxlint_keyword)(data[1] % 19u);
  rule.pattern = pattern;
  rule.message = message;
  if (bits & 32) {
    boxlint_config_free(c);
    out_of_memory(data, size, &rule, cmd, ncmd);
    return 0;
  }
  boxlint_error err;
  memset(&err, 0, sizeof err);
  boxlint_status st = boxlint_config_add_rule(c, &rule, &err);
  FZ_ASSERT(st == BOXLINT_OK || st == BOXLINT_EINVAL || st == BOXLINT_EREGEX);
  if (st == BOXLINT_OK) {
    size_t k = boxlint_config_rule_count(c);
    FZ_ASSERT(k == 1);
    const char *rid = boxlint_config_rule_id(c, 0);
    FZ_ASSERT(rid && strlen(rid) == id.len && !memcmp(rid, id.ptr, id.len));
    FZ_ASSERT(boxlint_config_rule_id(c, 1) == NULL);
    /* The same id twice is refused. */
    FZ_ASSERT(boxlint_config_add_rule(c, &rule, NULL) == BOXLINT_EINVAL);
  } else {
    FZ_ASSERT(err.code == st && memchr(err.message, 0, sizeof err.message));
    FZ_ASSERT(boxlint_config_rule_count(c) == 0);
    if (st == BOXLINT_EREGEX) FZ_ASSERT(err.offset <= pattern.len);
  }
  set_severities(c, sevs);
  switch ((bits >> 2) & 3) {
  case 1: boxlint_config_set_limits(c, 100, 10); break;
  case 2: boxlint_config_set_limits(c, 1, 1); break;
  case 3: boxlint_config_set_limits(c, 0, 0); break;
  default: break;
  }

  boxlint_options o;
  boxlint_options_init(&o);
  o.max_commands = 0;
  o.config = c;
  boxlint_report *r, *plain;
  if (boxlint_report_new(&r, NULL) != BOXLINT_OK) fz_fail("report_new");
  if (boxlint_report_new(&plain, NULL) != BOXLINT_OK) fz_fail("report_new");
  FZ_ASSERT(boxlint_check_commands(r, cmd, ncmd, &o) == BOXLINT_OK);
  for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
    const boxlint_diag *d = boxlint_report_diag(r, i);
    FZ_ASSERT(d->command >= -1 && (d->command < 0 || (size_t)d->command < ncmd));
    fz_check_diag(d, d->command >= 0 ? cmd[d->command].len : SIZE_MAX);
  }
  o.config = NULL;
  FZ_ASSERT(boxlint_check_commands(plain, cmd, ncmd, &o) == BOXLINT_OK);
  same_errors(r, plain);

  if ((bits & 16) && ncmd) {
    fz_buf j = {0};
    for (size_t i = 0; i < ncmd; i++) {
      if (i) fz_put(&j, "\n", 1);
      fz_put(&j, cmd[i].ptr, cmd[i].len);
    }
    boxlint_report_clear(r);
    boxlint_report_clear(plain);
    o.config = c;
    FZ_ASSERT(boxlint_check_fragment(r, j.p, j.len, &o) == BOXLINT_OK);
    for (size_t i = 0; i < boxlint_report_diag_count(r); i++)
      fz_check_diag(boxlint_report_diag(r, i), j.len);
    o.config = NULL;
    FZ_ASSERT(boxlint_check_fragment(plain, j.p, j.len, &o) == BOXLINT_OK);
    same_errors(r, plain);
    free(j.p);
  }

  boxlint_report_free(r);
  boxlint_report_free(plain);
  boxlint_config_free(c);
  return 0;
}

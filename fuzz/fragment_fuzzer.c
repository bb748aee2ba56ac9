/* fragment: a Dockerfile fragment split (boxlint_split_fragment) and checked
 * (boxlint_check_fragment), the pre-commit use of docs/design.md §2.4.
 *
 * Input: byte 0 = option bits, then the fragment.
 *   bit 0  escape character '`' in the options (a `# escape=` directive in the file wins)
 *   bit 1  with a config (warnings, suppressions)
 *   bit 2  out of memory: the check's report and config use an allocator that fails after
 *          the first (last input byte % 64) allocations (BOXLINT_ENOMEM, nothing leaks)
 *
 * Oracles: split and check see the same instructions (count, byte ranges, keywords); the
 * instructions are in order, do not overlap and stay inside the file; every diagnostic keeps
 * the report contract; and a config never changes the errors of docs/design.md §2.1 (a config or a
 * `# boxlint ignore=` comment cannot switch a soundness check off). */
#include "fuzz_util.h"

typedef struct err_key {
  const char *rule;
  int32_t command;
  size_t offset, end_offset;
} err_key;

/* The built-in errors of `r`, in report order. */
static err_key *errors_of(const boxlint_report *r, size_t *n) {
  size_t cap = boxlint_report_diag_count(r);
  err_key *k = malloc((cap ? cap : 1) * sizeof *k);
  if (!k) fz_fail("out of memory in the harness");
  *n = 0;
  for (size_t i = 0; i < cap; i++) {
    const boxlint_diag *d = boxlint_report_diag(r, i);
    if (d->severity != BOXLINT_SEVERITY_ERROR || !fz_builtin_error(d->rule)) continue;
    err_key e = {d->rule, d->command, d->offset, d->end_offset};
    k[(*n)++] = e;
  }
  return k;
}

/* The check under an allocator that fails: ENOMEM or OK, and a well-formed report. */
static void out_of_memory(const uint8_t *data, size_t size, const char *buf, size_t len,
                          int with_config, char escape) {
  fz_failer failer;
  boxlint_alloc failing = fz_failing(&failer, data, size);
  boxlint_options o;
  boxlint_options_init(&o);
  o.escape = escape;
  boxlint_config *config = NULL;
  boxlint_report *r = NULL;
  if (with_config && boxlint_config_new(&config, &failing) != BOXLINT_OK) return;
  o.config = config;
  if (boxlint_report_new(&r, &failing) == BOXLINT_OK) {
    boxlint_status st = boxlint_check_fragment(r, buf, len, &o);
    FZ_ASSERT(st == BOXLINT_OK || st == BOXLINT_ENOMEM);
    for (size_t i = 0; i < boxlint_report_diag_count(r); i++)
      fz_check_diag(boxlint_report_diag(r, i), len);
    for (size_t i = 0; i < boxlint_report_instruction_count(r); i++)
      fz_check_instruction(boxlint_report_instruction(r, i), len);
    boxlint_report_clear(r);
    st = boxlint_split_fragment(r, buf, len, &o);
    FZ_ASSERT(st == BOXLINT_OK || st == BOXLINT_ENOMEM);
    boxlint_base_info info;
    st = boxlint_check_base(&info, r, buf, len);
    FZ_ASSERT(st == BOXLINT_OK || st == BOXLINT_ENOMEM);
  }
  boxlint_report_free(r);
  boxlint_config_free(config);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  if (data[0] & 4) {
    out_of_memory(data, size, (const char *)data + 1, size - 1, data[0] & 2,
                  (data[0] & 1) ? '`' : '\\');
    return 0;
  }
  uint8_t bits = data[0];
  const char *buf = (const char *)data + 1;
  size_t len = size - 1;

  boxlint_options o;
  boxlint_options_init(&o);
  o.escape = (bits & 1) ? '`' : '\\';
  boxlint_config *config = NULL;
  if (bits & 2) {
    if (boxlint_config_new(&config, NULL) != BOXLINT_OK) fz_fail("config_new");
  }

  boxlint_report *split, *check;
  if (boxlint_report_new(&split, NULL) != BOXLINT_OK) fz_fail("report_new");
  if (boxlint_report_new(&check, NULL) != BOXLINT_OK) fz_fail("report_new");
  FZ_ASSERT(boxlint_split_fragment(split, buf, len, &o) == BOXLINT_OK);
  o.config = config;
  FZ_ASSERT(boxlint_check_fragment(check, buf, len, &o) == BOXLINT_OK);

  size_t n = boxlint_report_instruction_count(split);
  if (boxlint_report_instruction_count(check) != n) {
    fz_dump(split, "split");
    fz_dump(check, "check");
    fz_fail("split and check disagree on the number of instructions");
  }
  size_t prev_end = 0;
  for (size_t i = 0; i < n; i++) {
    const boxlint_instruction *a = boxlint_report_instruction(split, i);
    const boxlint_instruction *b = boxlint_report_instruction(check, i);
    fz_check_instruction(a, len);
    fz_check_instruction(b, len);
    FZ_ASSERT(a->offset >= prev_end);
    prev_end = a->end_offset;
    if (a->offset != b->offset || a->end_offset != b->end_offset || a->keyword != b->keyword ||
        a->trigger != b->trigger || a->line != b->line || a->end_line != b->end_line) {
      fz_dump(split, "split");
      fz_dump(check, "check");
      fz_fail("split and check disagree on an instruction");
    }
  }
  for (size_t i = 0; i < boxlint_report_diag_count(split); i++)
    fz_check_diag(boxlint_report_diag(split, i), len);
  for (size_t i = 0; i < boxlint_report_diag_count(check); i++) {
    const boxlint_diag *d = boxlint_report_diag(check, i);
    FZ_ASSERT(d->command >= -1 && (d->command < 0 || (size_t)d->command < n));
    fz_check_diag(d, len);
  }

  if (config) {
    /* The same check without a config: the built-in errors must be exactly the same. */
    boxlint_report *plain;
    if (boxlint_report_new(&plain, NULL) != BOXLINT_OK) fz_fail("report_new");
    o.config = NULL;
    FZ_ASSERT(boxlint_check_fragment(plain, buf, len, &o) == BOXLINT_OK);
    size_t na, nb;
    err_key *ea = errors_of(check, &na), *eb = errors_of(plain, &nb);
    int same = na == nb;
    for (size_t i = 0; same && i < na; i++)
      same = !strcmp(ea[i].rule, eb[i].rule) && ea[i].command == eb[i].command &&
             ea[i].offset == eb[i].offset && ea[i].end_offset == eb[i].end_offset;
    if (!same) {
      fz_dump(check, "with config");
      fz_dump(plain, "without config");
      fz_fail("a config changed the built-in errors");
    }
    free(ea);
    free(eb);
    boxlint_report_free(plain);
  }

  boxlint_report_free(split);
  boxlint_report_free(check);
  boxlint_config_free(config);
  return 0;
}

/* base: boxlint_check_base on a base Dockerfile (docs/design.md §2.6).
 *
 * Input: the whole input is the base.
 *
 * Oracles: the base-not-appendable errors agree with `appendable`; and whenever the base is
 * appendable, appending commands works as promised: `base + "RUN true"` and
 * `base + "# escape=`\nRUN true"` split into the base's instructions plus one RUN that starts
 * exactly where the appended text does (no directive, continuation or heredoc of the base
 * reaches it), and the escape character boxlint reports is the one the split used: a command
 * ending in that escape character joins the next line. */
#include "fuzz_util.h"

static void appended(const uint8_t *data, size_t size, const boxlint_base_info *info,
                     size_t base_errors, const char *tail, size_t extra, size_t skip) {
  fz_buf j = {0};
  fz_put(&j, data, size);
  fz_put(&j, tail, strlen(tail));
  boxlint_report *s;
  if (boxlint_report_new(&s, NULL) != BOXLINT_OK) fz_fail("report_new");
  FZ_ASSERT(boxlint_split_fragment(s, j.p, j.len, NULL) == BOXLINT_OK);
  size_t n = boxlint_report_instruction_count(s);
  const boxlint_instruction *last = n ? boxlint_report_instruction(s, n - 1) : NULL;
  int ok = n == info->instructions + extra && last && last->keyword == BOXLINT_KW_RUN &&
           last->offset >= size &&
           boxlint_report_count_at_least(s, BOXLINT_SEVERITY_ERROR) == base_errors;
  if (ok) ok = boxlint_report_instruction(s, n - extra)->offset == size + skip;
  if (!ok) {
    fprintf(stderr, "BASE: appendable base, appended \"%s\" misread\n-- base (%zu bytes):\n",
            tail, size);
    fwrite(data, 1, size, stderr);
    fprintf(stderr, "\n-- end; base instructions %zu, escape %c\n", info->instructions,
            info->escape);
    fz_dump(s, "split");
    fz_fail("appendable base oracle (docs/design.md §2.6)");
  }
  boxlint_report_free(s);
  free(j.p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  boxlint_report *r;
  if (boxlint_report_new(&r, NULL) != BOXLINT_OK) fz_fail("report_new");
  boxlint_base_info info;
  FZ_ASSERT(boxlint_check_base(&info, r, (const char *)data, size) == BOXLINT_OK);
  FZ_ASSERT(info.escape == '\\' || info.escape == '`');
  size_t base_errors = 0;
  for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
    const boxlint_diag *d = boxlint_report_diag(r, i);
    fz_check_diag(d, size);
    base_errors += !strcmp(d->rule, "base-not-appendable");
  }
  FZ_ASSERT(info.appendable == (base_errors == 0));
  /* An appendable base may still have errors of its own (a bad directive: BuildKit fails the
   * build); appended commands must add none. */
  size_t own = boxlint_report_count_at_least(r, BOXLINT_SEVERITY_ERROR);
  if (info.appendable) {
    FZ_ASSERT(info.instructions > 0);
    if (info.escape == '`') {
      /* The split honours the base's directive: a backtick continues, a backslash does not. */
      appended(data, size, &info, own, "RUN a `\nRUN b\n", 1, 0);
      appended(data, size, &info, own, "RUN a \\\nRUN b\n", 2, 0);
    } else {
      appended(data, size, &info, own, "RUN true", 1, 0);
      /* Not a directive after an instruction: a comment, and '`' is no escape character. */
      appended(data, size, &info, own, "# escape=`\nRUN a `\nRUN b", 2, 11);
    }
  }
  boxlint_report_free(r);
  return 0;
}

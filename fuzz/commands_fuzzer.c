/* commands: a template's command list, checked as boxlint_check_commands does, plus the
 * soundness oracle of docs/design.md §1.
 *
 * Input: byte 0 = option bits, byte 1 = command byte limit, then the commands separated by 0xFF.
 *   bit 0     escape character '`' (as a base with `# escape=`` sets it), else '\'
 *   bit 1     with a config (every built-in warning runs)
 *   bits 2-3  max_commands: 0 default (64), 1 -> 2, 2 -> 0 (no limit), 3 -> 1
 *   bit 4     out of memory: the report and config use an allocator that fails after the
 *             first (last input byte % 64) allocations; the check may return BOXLINT_ENOMEM
 *   byte 1    max_command_bytes: 0 default (4096), 255 -> 0 (no limit), n -> 8 * n
 *
 * Oracle (a), soundness: whenever the list is accepted (no error-severity diagnostic), split
 * `base + "\n".join(commands)` with boxlint_split_fragment. It must give the base's instruction
 * and then exactly one instruction per command, inside that command's bytes, with the keyword
 * boxlint reported for the command, never a denied keyword and never a denied ONBUILD trigger;
 * the split must not find an unterminated heredoc. When the list has errors, the oracle runs on
 * the commands that drew none (which must be accepted as a list of their own).
 *
 * Also: the byte rules (nul-byte, bare-cr, control-character, invalid-utf8) agree with a
 * reference scan; every diagnostic and instruction keeps the report contract. */
#include "fuzz_util.h"

#define MAX_PIECES 160

static const char BASE_BACKSLASH[] = "FROM ubuntu:24.04\n";
static const char BASE_BACKTICK[] = "# escape=`\nFROM x\n";

static void soundness(boxlint_report *r, const boxlint_span *cmd, size_t n, char escape) {
  const char *base = escape == '`' ? BASE_BACKTICK : BASE_BACKSLASH;
  size_t blen = strlen(base);
  boxlint_keyword *kw = malloc((n ? n : 1) * sizeof *kw);
  size_t *start = malloc((n + 1) * sizeof *start);
  if (!kw || !start) fz_fail("out of memory in the harness");
  for (size_t i = 0; i < n; i++) kw[i] = boxlint_report_instruction(r, i)->keyword;

  fz_buf j = {0};
  fz_put(&j, base, blen);
  for (size_t i = 0; i < n; i++) {
    if (i) fz_put(&j, "\n", 1);
    start[i] = j.len;
    fz_put(&j, cmd[i].ptr, cmd[i].len);
  }
  start[n] = j.len + 1; /* the end of the last command (one past the would-be separator) */

  boxlint_report *s;
  if (boxlint_report_new(&s, NULL) != BOXLINT_OK) fz_fail("report_new");
  if (boxlint_split_fragment(s, j.p, j.len, NULL) != BOXLINT_OK) fz_fail("split_fragment");
  size_t got = boxlint_report_instruction_count(s);
  int bad = got != n + 1;
  const char *why = "the instruction count differs from the command count";
  if (!bad && boxlint_report_count_at_least(s, BOXLINT_SEVERITY_ERROR)) {
    bad = 1;
    why = "the split of the accepted list reports an error (BuildKit would fail the build)";
  }
  for (size_t i = 0; i < n && !bad; i++) {
    const boxlint_instruction *in = boxlint_report_instruction(s, i + 1);
    fz_check_instruction(in, j.len);
    if (in->keyword != kw[i]) {
      bad = 1;
      why = "the split keyword differs from the keyword reported for the command";
    } else if (fz_denied(in->keyword)) {
      bad = 1;
      why = "a denied instruction was accepted";
    } else if (in->keyword == BOXLINT_KW_ONBUILD && fz_denied(in->trigger)) {
      bad = 1;
      why = "a denied ONBUILD trigger was accepted";
    } else if (in->offset < start[i] || in->end_offset > start[i + 1]) {
      bad = 1;
      why = "an instruction reaches outside its command's bytes";
    }
  }
  if (bad) {
    fprintf(stderr, "SOUNDNESS: %s\n-- joined (%zu bytes):\n", why, j.len);
    fwrite(j.p, 1, j.len, stderr);
    fprintf(stderr, "\n-- end\n");
    for (size_t i = 0; i < n; i++)
      fprintf(stderr, "  command %zu at %zu: keyword %s\n", i, start[i],
              boxlint_keyword_name(kw[i]));
    fz_dump(r, "check");
    fz_dump(s, "split");
    fz_fail("soundness oracle (docs/design.md §1)");
  }
  boxlint_report_free(s);
  free(j.p);
  free(start);
  free(kw);
}

/* Length of the valid UTF-8 sequence at p[0..n) (RFC 3629: no overlongs, no surrogates,
 * nothing above U+10FFFF), 0 when invalid. Written apart from the library's decoder. */
static size_t utf8_len(const unsigned char *p, size_t n) {
  unsigned char c = p[0];
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF; /* the range of the second byte */
  if (c >= 0xC2 && c <= 0xDF) len = 2;
  else if (c == 0xE0) { len = 3; lo = 0xA0; }
  else if (c == 0xED) { len = 3; hi = 0x9F; }
  else if (c >= 0xE1 && c <= 0xEF) len = 3;
  else if (c == 0xF0) { len = 4; lo = 0x90; }
  else if (c == 0xF4) { len = 4; hi = 0x8F; }
  else if (c >= 0xF1 && c <= 0xF3) len = 4;
  else return 0;
  if (n < len || p[1] < lo || p[1] > hi) return 0;
  for (size_t i = 2; i < len; i++)
    if (p[i] < 0x80 || p[i] > 0xBF) return 0;
  return len;
}

/* The byte rules of docs/design.md §2.1 by a reference scan: each kind reported once per command,
 * at its first byte, exactly when the command has one. */
static void byte_rules(const boxlint_report *r, const boxlint_span *cmd, size_t n) {
  static const char *const rules[4] = {"nul-byte", "bare-cr", "control-character",
                                       "invalid-utf8"};
  for (size_t c = 0; c < n; c++) {
    const unsigned char *p = (const unsigned char *)cmd[c].ptr;
    size_t len = cmd[c].len, want[4] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX};
    for (size_t i = 0; i < len;) {
      unsigned char b = p[i];
      int k = -1;
      size_t step = 1;
      if (b == 0) k = 0;
      else if (b == '\r') k = i + 1 < len && p[i + 1] == '\n' ? -1 : 1;
      else if ((b < 0x20 && b != '\t' && b != '\n') || b == 0x7F) k = 2;
      else if (b >= 0x80) {
        step = utf8_len(p + i, len - i);
        if (!step) { k = 3; step = 1; }
      }
      if (k >= 0 && want[k] == SIZE_MAX) want[k] = i;
      i += step;
    }
    for (int k = 0; k < 4; k++) {
      size_t got = SIZE_MAX, seen = 0;
      for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
        const boxlint_diag *d = boxlint_report_diag(r, i);
        if (d->command != (int32_t)c || strcmp(d->rule, rules[k])) continue;
        seen++;
        got = d->offset;
      }
      if (seen > 1 || got != want[k]) {
        fprintf(stderr, "command %zu: %s expected at %zu, reported %zu time(s), at %zu\n", c,
                rules[k], want[k], seen, got);
        fz_dump(r, "check");
        fz_fail("byte rules disagree with the reference scan");
      }
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  uint8_t bits = data[0], lim = data[1];
  boxlint_span cmd[MAX_PIECES];
  size_t n = fz_cut(data + 2, size - 2, FZ_SEP, cmd, MAX_PIECES);

  boxlint_options o;
  boxlint_options_init(&o);
  o.escape = (bits & 1) ? '`' : '\\';
  static const size_t maxc[4] = {BOXLINT_DEFAULT_MAX_COMMANDS, 2, 0, 1};
  o.max_commands = maxc[(bits >> 2) & 3];
  o.max_command_bytes = lim == 0 ? BOXLINT_DEFAULT_MAX_COMMAND_BYTES : lim == 255 ? 0 : 8u * lim;
  fz_failer failer;
  boxlint_alloc failing = fz_failing(&failer, data, size);
  const boxlint_alloc *alloc = (bits & 16) ? &failing : NULL;
  boxlint_config *config = NULL;
  boxlint_report *r = NULL;
  if (bits & 2) {
    boxlint_status st = boxlint_config_new(&config, alloc);
    if (st != BOXLINT_OK) {
      FZ_ASSERT(alloc && st == BOXLINT_ENOMEM && config == NULL);
      return 0;
    }
    o.config = config;
  }
  if (boxlint_report_new(&r, alloc) != BOXLINT_OK) {
    FZ_ASSERT(alloc && r == NULL);
    boxlint_config_free(config);
    return 0;
  }
  boxlint_status st = boxlint_check_commands(r, cmd, n, &o);
  if (st != BOXLINT_OK) {
    /* Out of memory: what the report holds is still well-formed. */
    FZ_ASSERT(alloc && st == BOXLINT_ENOMEM);
    for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
      const boxlint_diag *d = boxlint_report_diag(r, i);
      FZ_ASSERT(d->command >= 0 && (size_t)d->command < n);
      fz_check_diag(d, strcmp(d->rule, "too-many-commands") ? cmd[d->command].len : SIZE_MAX);
    }
    for (size_t i = 0; i < boxlint_report_instruction_count(r); i++)
      fz_check_instruction(boxlint_report_instruction(r, i), cmd[i].len);
    boxlint_report_free(r);
    boxlint_config_free(config);
    return 0;
  }
  FZ_ASSERT(boxlint_report_instruction_count(r) == n);
  for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
    const boxlint_diag *d = boxlint_report_diag(r, i);
    FZ_ASSERT(d->command >= 0 && (size_t)d->command < n);
    fz_check_diag(d, strcmp(d->rule, "too-many-commands") ? cmd[d->command].len : SIZE_MAX);
    if (i) FZ_ASSERT(boxlint_report_diag(r, i - 1)->command <= d->command);
  }
  for (size_t i = 0; i < n; i++)
    fz_check_instruction(boxlint_report_instruction(r, i), cmd[i].len);
  byte_rules(r, cmd, n);

  if (boxlint_report_count_at_least(r, BOXLINT_SEVERITY_ERROR) == 0) {
    soundness(r, cmd, n, o.escape);
  } else if (!alloc) {
    /* Most inputs have a rejected command. Keep the commands that drew no error: each is
     * checked on its own, so the survivors are accepted as a list, and the oracle runs on
     * nearly every input, with commands side by side that the whole list never had. */
    boxlint_span *keep = malloc(n * sizeof *keep);
    unsigned char *bad = calloc(n, 1);
    if (!keep || !bad) fz_fail("out of memory in the harness");
    for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
      const boxlint_diag *d = boxlint_report_diag(r, i);
      if (d->severity == BOXLINT_SEVERITY_ERROR && strcmp(d->rule, "too-many-commands"))
        bad[d->command] = 1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
      if (!bad[i]) keep[k++] = cmd[i];
    boxlint_options ko = o;
    ko.max_commands = 0;
    boxlint_report *kr;
    if (boxlint_report_new(&kr, NULL) != BOXLINT_OK) fz_fail("report_new");
    FZ_ASSERT(boxlint_check_commands(kr, keep, k, &ko) == BOXLINT_OK);
    if (boxlint_report_count_at_least(kr, BOXLINT_SEVERITY_ERROR)) {
      fz_dump(r, "list");
      fz_dump(kr, "accepted commands of the list");
      fz_fail("commands accepted in a list are rejected on their own");
    }
    soundness(kr, keep, k, o.escape);
    boxlint_report_free(kr);
    free(keep);
    free(bad);
  }

  /* A warm report (cleared, scratch kept) must give the same answer. */
  size_t nd = boxlint_report_diag_count(r);
  boxlint_report_clear(r);
  st = boxlint_check_commands(r, cmd, n, &o);
  FZ_ASSERT(st == BOXLINT_OK || (alloc && st == BOXLINT_ENOMEM));
  FZ_ASSERT(st != BOXLINT_OK || boxlint_report_diag_count(r) == nd);

  boxlint_report_free(r);
  boxlint_config_free(config);
  return 0;
}

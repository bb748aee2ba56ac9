/* template: boxlint_check_template with fields cut from the input (docs/design.md §2.2).
 *
 * Input: byte 0 = which fields are present, byte 1 = option bits, bytes 2-3 = cpu_count,
 * bytes 4-5 = memory_mb (little-endian int16), then pieces separated by 0xFF:
 *   name, extra field names (LF-separated), the number's text, then the commands.
 *   byte 0  bit 0 name, bit 1 commands, bit 2 cpu_count, bit 3 memory_mb present;
 *           bit 4 cpu_count, bit 5 memory_mb is not an integer (the text piece spells it);
 *           bit 6 cpu_count = INT64_MIN, bit 7 memory_mb = INT64_MAX
 *   byte 1  bit 0 with a config; bit 1 escape '`'; bit 2 narrow bounds (cpu 2..4, memory
 *           1024..2048); bit 3 inverted bounds (invalid options: EINVAL); bit 4 out of
 *           memory (the report uses an allocator that fails after the first (last input
 *           byte % 64) allocations)
 *
 * Oracles: field findings carry command -1 and a path; the commands' findings are those of
 * boxlint_check_commands on the same commands; every diagnostic keeps the report contract. */
#include "fuzz_util.h"

#define MAX_PIECES 100

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 6) return 0;
  uint8_t have = data[0], bits = data[1];
  int16_t cpu = (int16_t)(uint16_t)(data[2] | (unsigned)data[3] << 8);
  int16_t mem = (int16_t)(uint16_t)(data[4] | (unsigned)data[5] << 8);
  boxlint_span f[MAX_PIECES];
  size_t nf = fz_cut(data + 6, size - 6, FZ_SEP, f, MAX_PIECES);
  boxlint_span none = {"", 0};

  boxlint_span extra[64];
  size_t nextra = 0;
  if (nf > 1 && f[1].len) nextra = fz_cut((const uint8_t *)f[1].ptr, f[1].len, '\n', extra, 64);
  char *text = NULL;
  if (nf > 2) {
    text = malloc(f[2].len + 1);
    if (!text) fz_fail("out of memory in the harness");
    memcpy(text, f[2].ptr, f[2].len);
    text[f[2].len] = 0;
  }

  boxlint_template t;
  memset(&t, 0, sizeof t);
  t.has_name = have & 1;
  t.name = nf > 0 ? f[0] : none;
  t.has_commands = (have >> 1) & 1;
  t.commands = nf > 3 ? f + 3 : NULL;
  t.ncommands = nf > 3 ? nf - 3 : 0;
  t.cpu_count.present = (have >> 2) & 1;
  t.cpu_count.is_integer = !((have >> 4) & 1);
  t.cpu_count.value = (have & 64) ? INT64_MIN : cpu;
  t.cpu_count.text = t.cpu_count.is_integer ? NULL : text;
  t.memory_mb.present = (have >> 3) & 1;
  t.memory_mb.is_integer = !((have >> 5) & 1);
  t.memory_mb.value = (have & 128) ? INT64_MAX : mem;
  t.memory_mb.text = t.memory_mb.is_integer ? NULL : text;
  t.extra_fields = nextra ? extra : NULL;
  t.nextra_fields = nextra;

  boxlint_options o;
  boxlint_options_init(&o);
  boxlint_config *config = NULL;
  if (bits & 1) {
    if (boxlint_config_new(&config, NULL) != BOXLINT_OK) fz_fail("config_new");
    o.config = config;
  }
  if (bits & 2) o.escape = '`';
  if (bits & 4) {
    o.cpu_min = 2;
    o.cpu_max = 4;
    o.memory_min = 1024;
    o.memory_max = 2048;
  }
  if (bits & 8) o.cpu_min = o.cpu_max + 1;

  boxlint_report *r = NULL, *c;
  if (bits & 16) {
    fz_failer failer;
    boxlint_alloc failing = fz_failing(&failer, data, size);
    if (boxlint_report_new(&r, &failing) == BOXLINT_OK) {
      boxlint_status st = boxlint_check_template(r, &t, &o);
      FZ_ASSERT(st == BOXLINT_OK || st == BOXLINT_ENOMEM || ((bits & 8) && st == BOXLINT_EINVAL));
      for (size_t i = 0; i < boxlint_report_diag_count(r); i++)
        fz_check_diag(boxlint_report_diag(r, i), SIZE_MAX);
    }
    boxlint_report_free(r);
    boxlint_config_free(config);
    free(text);
    return 0;
  }
  if (boxlint_report_new(&r, NULL) != BOXLINT_OK) fz_fail("report_new");
  if (boxlint_report_new(&c, NULL) != BOXLINT_OK) fz_fail("report_new");
  boxlint_status st = boxlint_check_template(r, &t, &o);
  if (bits & 8) {
    FZ_ASSERT(st == BOXLINT_EINVAL);
  } else {
    FZ_ASSERT(st == BOXLINT_OK);
    size_t ncmd = t.has_commands ? t.ncommands : 0;
    FZ_ASSERT(boxlint_report_instruction_count(r) == ncmd);
    size_t fields = 0;
    for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
      const boxlint_diag *d = boxlint_report_diag(r, i);
      if (d->command < 0) {
        FZ_ASSERT(d->command == -1 && d->path != NULL);
        fz_check_diag(d, SIZE_MAX);
        fields++;
      } else {
        FZ_ASSERT((size_t)d->command < ncmd);
        fz_check_diag(d, strcmp(d->rule, "too-many-commands") ? t.commands[d->command].len
                                                               : SIZE_MAX);
      }
    }
    /* The commands' own findings, minus the template-wide warnings of a config. */
    FZ_ASSERT(boxlint_check_commands(c, t.commands, ncmd, &o) == BOXLINT_OK);
    size_t cmd_diags = 0;
    for (size_t i = 0; i < boxlint_report_diag_count(c); i++)
      cmd_diags += boxlint_report_diag(c, i)->command >= 0;
    if (fields + cmd_diags != boxlint_report_diag_count(r)) {
      fz_dump(r, "template");
      fz_dump(c, "commands");
      fz_fail("the template's findings are not its fields' plus its commands'");
    }
  }
  boxlint_report_free(r);
  boxlint_report_free(c);
  boxlint_config_free(config);
  free(text);
  return 0;
}

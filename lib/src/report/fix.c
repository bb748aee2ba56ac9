/* Applying fixes to a buffer (boxlint/fix.h): one implementation for the command line's --fix
 * and --diff, the bindings and the editor server. Owns the order in which fixes are taken and
 * which of them conflict; the caller's buffer and fix array are never written. Calls only the
 * allocator plumbing of report/alloc.c.
 *
 * Conflicts, in the order fixes are taken (offset, then insertions before replacements, then
 * input order): a fix is left out when it starts before the end of one already taken (an
 * overlap, or an insertion strictly inside a replaced range), or when it is an insertion at the
 * offset of an insertion already taken (their order would be a guess). Touching is not
 * overlapping: a replacement of [a, b) and one of [b, c) are both applied, and so is an
 * insertion at a or b next to a replacement of [a, b). */
#include <stdlib.h>
#include <string.h>
#include "report/internal.h"
#include "boxlint/fix.h"

/* One fix to consider: where it starts, whether it replaces anything, its input index. */
typedef struct fix_key {
  size_t off, idx;
  int repl;
  int take;
} fix_key;

static int key_cmp(const void *pa, const void *pb) {
  const fix_key *a = pa, *b = pb;
  if (a->off != b->off) return a->off < b->off ? -1 : 1;
  if (a->repl != b->repl) return a->repl - b->repl; /* insertions first */
  return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Is fix `f` usable on a buffer of `len` bytes at all? */
static int fix_valid(const boxlint_fix *f, size_t len) {
  if (!f || f->offset > len || f->length > len - f->offset) return 0;
  return f->text || f->text_len == 0;
}

/* Mark the fixes to take, in order; returns the output length in *out_len, or 0 on overflow. */
static int choose(const boxlint_fix *const *fixes, fix_key *keys, size_t nk, size_t len,
                  size_t *out_len) {
  size_t end = 0, size = len;
  int have_ins = 0;
  size_t ins_at = 0;
  for (size_t i = 0; i < nk; i++) {
    const boxlint_fix *f = fixes[keys[i].idx];
    if (f->offset < end) continue;
    if (!f->length && have_ins && ins_at == f->offset) continue;
    if (!f->length) {
      have_ins = 1;
      ins_at = f->offset;
    }
    size -= f->length;
    if (f->text_len > SIZE_MAX - 1 - size) return 0;
    size += f->text_len;
    end = f->offset + f->length;
    keys[i].take = 1;
  }
  *out_len = size;
  return 1;
}

/* Copy `buf` with the taken fixes applied into `out`. */
static void splice(const char *buf, size_t len, const boxlint_fix *const *fixes,
                   const fix_key *keys, size_t nk, char *out, unsigned char *applied) {
  size_t from = 0, w = 0;
  for (size_t i = 0; i < nk; i++) {
    if (!keys[i].take) continue;
    const boxlint_fix *f = fixes[keys[i].idx];
    if (f->offset > from) memcpy(out + w, buf + from, f->offset - from);
    w += f->offset - from;
    if (f->text_len) memcpy(out + w, f->text, f->text_len);
    w += f->text_len;
    from = f->offset + f->length;
    if (applied) applied[keys[i].idx] = 1;
  }
  if (len > from) memcpy(out + w, buf + from, len - from);
  w += len - from;
  out[w] = 0;
}

boxlint_status boxlint_apply_fixes(const char *buf, size_t len, const boxlint_fix *const *fixes,
                                   size_t n, char **out, size_t *out_len,
                                   unsigned char *applied, const boxlint_alloc *alloc) {
  if (out) *out = NULL;
  if (out_len) *out_len = 0;
  if (!out || !out_len || (!buf && len) || (!fixes && n)) return BOXLINT_EINVAL;
  if (applied && n) memset(applied, 0, n);
  boxlint__mem m;
  boxlint__mem_init(&m, alloc);
  size_t nk = 0;
  for (size_t i = 0; i < n; i++) nk += fix_valid(fixes[i], len) ? 1u : 0u;
  fix_key *keys = NULL;
  if (nk) {
    if (nk > SIZE_MAX / sizeof *keys) return BOXLINT_ENOMEM;
    keys = boxlint__malloc(&m, nk * sizeof *keys);
    if (!keys) return BOXLINT_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
      if (!fix_valid(fixes[i], len)) continue;
      keys[k].off = fixes[i]->offset;
      keys[k].idx = i;
      keys[k].repl = fixes[i]->length > 0;
      keys[k].take = 0;
      k++;
    }
    qsort(keys, nk, sizeof *keys, key_cmp);
  }
  size_t size = len;
  char *o = NULL;
  if (choose(fixes, keys, nk, len, &size)) o = boxlint__malloc(&m, size + 1);
  if (!o) {
    boxlint__free(&m, keys);
    return BOXLINT_ENOMEM;
  }
  splice(buf, len, fixes, keys, nk, o, applied);
  boxlint__free(&m, keys);
  *out = o;
  *out_len = size;
  return BOXLINT_OK;
}

void boxlint_buffer_free(char *buf, const boxlint_alloc *alloc) {
  if (!buf) return;
  boxlint__mem m;
  boxlint__mem_init(&m, alloc);
  boxlint__free(&m, buf);
}

/* boxlint/fix.h: applying fixes to a buffer, one implementation for the command line, the
 * bindings and the editor server. */
#ifndef boxlint_FIX_H
#define boxlint_FIX_H

#include "boxlint/export.h"
#include "boxlint/alloc.h"
#include "boxlint/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Apply edits to `buf` (`len` bytes): each fix replaces [offset, offset + length) of the buffer
 * with its `text`. Fixes are taken in offset order (ties: insertions first, then input order);
 * a fix that overlaps one already taken, or that touches the same point as one (two insertions
 * at one offset), or lies outside the buffer, is left for a later run and not applied. The input
 * is never written. Touching is not overlapping: replacements of [a, b) and [b, c) are both
 * applied, and so is an insertion at a or at b beside a replacement of [a, b) (before it at a,
 * after it at b); an insertion strictly inside a replaced range is not.
 *
 * Safety is the caller's choice: every fix given is applied, whatever its `safety`. To do what
 * `boxlint --fix` does, pass only the fixes whose `safety` is BOXLINT_FIX_SAFE (and the unsafe
 * ones too only when the user asked for them, as `--unsafe-fixes` does); the command, the
 * editor server's "fix all" and the bindings' helpers all filter so before calling this.
 *
 * @param fixes `n` pointers (NULL entries are skipped); the array is not modified.
 * @param out receives a new buffer of `*out_len` bytes plus a NUL, allocated with `alloc`
 *            (NULL: libc); free it with boxlint_buffer_free and the same allocator.
 * @param applied if not NULL, `n` flags: 1 where the fix was applied, else 0.
 * @return BOXLINT_OK, BOXLINT_EINVAL (NULL `out`/`out_len`, or `buf`/`fixes` NULL with a
 *         length), BOXLINT_ENOMEM (*out NULL).
 */
BOXLINT_API boxlint_status boxlint_apply_fixes(const char *buf, size_t len,
                                               const boxlint_fix *const *fixes, size_t n,
                                               char **out, size_t *out_len,
                                               unsigned char *applied,
                                               const boxlint_alloc *alloc);

/** Free a buffer returned by boxlint_apply_fixes. NULL is a no-op. */
BOXLINT_API void boxlint_buffer_free(char *buf, const boxlint_alloc *alloc);

#ifdef __cplusplus
}
#endif
#endif

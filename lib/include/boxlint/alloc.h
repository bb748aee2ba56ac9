/* boxlint/alloc.h: the allocator hook. */
#ifndef boxlint_ALLOC_H
#define boxlint_ALLOC_H

#include <stddef.h>
#include "boxlint/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * An allocator, passed to every constructor and stored in the object it builds (yyjson's shape).
 * A NULL `const boxlint_alloc *` anywhere means the C library's malloc, realloc and free.
 * `realloc` receives the old size so that arena and pool allocators can be plugged in.
 * Any function may return NULL; boxlint then returns BOXLINT_ENOMEM and leaks nothing.
 *
 * Which thread calls it. boxlint starts no thread: an allocator is called only from inside a
 * boxlint call, on the caller's thread, and only by the calls below. None of them needs it to
 * be thread-safe as long as the objects are used as boxlint.h says (a report by one thread at a
 * time; a compiled object built and freed by one thread, shared in between).
 *  - A report's allocator (boxlint_report_new): by the calls given that report, and by
 *    boxlint_report_clear and boxlint_report_free.
 *  - A compiled object's allocator (boxlint_config_new, boxlint_policy_new): while it is built
 *    (the constructor; a config's setters, boxlint_config_set_severity, _add_rule, _set_limits)
 *    and by its free, never by a call that uses it: a check with the config in
 *    boxlint_options.config (its PCRE2 match data and match context come from the check's
 *    report), boxlint_policy_decide (allocates nothing), boxlint_policy_emit (its scratch comes
 *    from the report), boxlint_check_python, the getters. So threads may share a config or a
 *    policy made with an arena, each using a report with an allocator of its own.
 *  - The allocator passed to a call for its output (boxlint_policy_emit, boxlint_apply_fixes):
 *    by that call, and by boxlint_buffer_free when given it.
 *  - boxlint_policy_new with a NULL report makes its temporary report with its `alloc`.
 */
typedef struct boxlint_alloc {
  void *(*malloc)(void *ctx, size_t size);
  void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t size);
  void (*free)(void *ctx, void *ptr);
  void *ctx;
} boxlint_alloc;

#ifdef __cplusplus
}
#endif
#endif

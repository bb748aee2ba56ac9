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

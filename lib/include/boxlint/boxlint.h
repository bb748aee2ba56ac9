/* boxlint/boxlint.h: the whole public API.
 *
 * Threading, in one place: nothing in boxlint is global or mutable after construction.
 * Compiled objects (policies, configs) may be shared between threads; a report is used by one
 * thread at a time. Every call is re-entrant. */
#ifndef boxlint_BOXLINT_H
#define boxlint_BOXLINT_H

#include "boxlint/export.h"
#include "boxlint/version.h"
#include "boxlint/alloc.h"
#include "boxlint/diag.h"
#include "boxlint/dockerfile.h"
#include "boxlint/config.h"
#include "boxlint/policy.h"
#include "boxlint/fix.h"
#include "boxlint/source.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The library's version at run time, "MAJOR.MINOR.PATCH" (static storage). */
BOXLINT_API const char *boxlint_version(void);

#ifdef __cplusplus
}
#endif
#endif

/*
 * Helpers shared by the unit tests of boxlint_check_python (check_python.c: calls, literals,
 * not-static, argument types, syntax errors, suppressions, the API's edges and out of memory;
 * check_python_syntax.c: syntax errors, tricky valid files, suppressions; check_python_fix.c:
 * fixes in Python syntax, applied with boxlint_apply_fixes). One
 * executable, ctest `check_python`.
 */
#ifndef CHECK_PYTHON_H
#define CHECK_PYTHON_H
#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include "boxlint/boxlint.h"

/* The start of a call whose first command literal opens at column 52 (byte 51). */
#define UPD "c.code_interpreter.templates.update('i', commands=["

#define W BOXLINT_SEVERITY_WARNING
#define E BOXLINT_SEVERITY_ERROR
#define I BOXLINT_SEVERITY_INFO

/* The report of the last check (warnings on: a default config). */
extern boxlint_report *R;
extern boxlint_config *CFG; /* the checks' config (py_setup makes it) */

void py_setup(void);
void py_teardown(void);

/* Check `n` bytes of `src`, copied into a malloc'd buffer of exactly `n` bytes (no NUL after
 * it: ASan sees any read past the end); the status must be `want`. */
void py_check(const char *src, size_t n, boxlint_status want);
#define CHECK(lit) py_check((lit), sizeof(lit) - 1, BOXLINT_OK)
#define CHECK_ST(lit, st) py_check((lit), sizeof(lit) - 1, (st))

/* Diagnostic `i`: its rule, severity, path (NULL: none), start and end (1-based, code points),
 * and a message that contains `msg`. The offsets must agree with the line and column (counted
 * here independently). */
const boxlint_diag *py_diag(size_t i, const char *rule, boxlint_severity sev, const char *path,
                            uint32_t line, uint32_t col, uint32_t end_line, uint32_t end_col,
                            const char *msg);
/* Exactly `n` diagnostics. */
void py_count(size_t n);
/* No diagnostic of `rule`. */
void py_none_of(const char *rule);
void py_dump(void);

/* The fix of `d`: replace [off, off + len) of the file with `text`. */
void py_fix(const boxlint_diag *d, size_t off, size_t len, const char *text);
/* `d` has no fix, and its hint says "(no automatic fix: <why>)". */
void py_no_fix(const boxlint_diag *d, const char *why);
/* Apply every fix of the report to the checked text with boxlint_apply_fixes: the result is
 * exactly `want`; checking it again gives BOXLINT_OK, no python-syntax, and no `gone` (NULL:
 * no finding of the rules that were fixed). The report then holds the second check. */
void py_apply(const char *want, const char *gone);

Suite *python_syntax_suite(void);
Suite *python_fix_suite(void);
Suite *python_sound_suite(void);
Suite *python_versions_suite(void);
extern int PY_MINOR; /* the checks' boxlint_options.python_minor (0: the default), reset by
                        py_setup */

#endif

/* cli/fix/: --fix and --diff (fix_run.c's passes, fix_edits.c, fix_write.c, fix_diff.c). The
 * folder's whole interface; it calls input/ (checking) and output/ (the findings that remain). */
#ifndef BOXLINT_CLI_FIX_H
#define BOXLINT_CLI_FIX_H
#include <sys/stat.h>
#include "output/output.h"

/*==============================================================================================
 * MARK: fix_run.c, fix_edits.c, fix_diff.c: --fix and --diff (docs/command.md "Fixes")
 *============================================================================================*/

enum fix_mode { FIX_NONE, FIX_APPLY, FIX_DIFF };
/* Fix one path (lint_cmd.c calls this instead of cli_lint_path): check it, apply its fixes
 * (boxlint_apply_fixes), check the result again, and repeat while fixes apply (at most 10
 * passes); a result that no longer loads is never kept. FIX_APPLY: the file is replaced
 * atomically by cli_fix_write (or refused, see there; "-": the fixed text goes to `text_out`),
 * then the findings that remain are emitted. FIX_DIFF: a unified diff on `text_out`, nothing
 * written, no finding emitted, c->worst raised to EXIT_FINDINGS when the file would change.
 * Returns 0, or -1 after printing why (the exit code 2). */
int cli_fix_path(cli *c, const char *path, enum fix_mode mode, FILE *text_out);
/* The passes of cli_fix_path on a text in memory named `path` (the editor server's "fix all"):
 * *out the fixed text (malloc'd, NUL-terminated), or NULL when nothing changes. Returns 0, or
 * -1 (why printed on c->err: the text does not load, a fixed text would not, no memory). */
int cli_fix_text(cli *c, const char *path, const char *text, size_t len, char **out,
                 size_t *out_len);
/* A file found by a walk: as cli_fix_path, but JSON that is not a template, an array of
 * commands, a binding or a policy is skipped silently (0), as cli_lint_found skips it. */
int cli_fix_found(cli *c, const char *path, enum fix_mode mode, FILE *text_out);
/* After every path: one line on c->err, "boxlint: N found, M fixed, K remaining" (--diff:
 * "fixed by the diff"), then "; J unsafe fix(es) available with --unsafe-fixes" when some were
 * left unapplied for want of it; nothing when nothing was found. Found is fixed + remaining (a
 * fix that reveals a finding adds one). */
void cli_fix_summary(cli *c, enum fix_mode mode);

/* fix_write.c: --fix's file, open from its reading to its replacement. */
typedef struct cli_fix_file {
  int fd, dfd;              /* the file as read (read-only), its directory */
  char *name;               /* its name in that directory (malloc'd) */
  struct stat st;           /* fstat when opened */
} cli_fix_file;
/* Open `path` and read it whole into *buf (malloc'd): a symbolic link named on the command line
 * is followed, one found by a walk (`found`) refused; only a regular file, up to
 * CLI_MAX_INPUT_BYTES. Returns 0 (cli_fix_close it), or -1 with why printed and nothing open. */
int cli_fix_open(cli *c, const char *path, int found, cli_fix_file *f, char **buf,
                 size_t *len);
/* Replace the file with `text` atomically, keeping owner, group, mode and extended attributes
 * (ACLs), unless the user could not write it in place, it has several hard links, what it has
 * cannot be kept, or it is no longer `orig` (checked just before the rename). Returns 0, or -1
 * with why printed on c->err and the file untouched. */
int cli_fix_write(cli *c, const char *path, cli_fix_file *f, const char *orig, size_t olen,
                  const char *text, size_t len);
void cli_fix_close(cli_fix_file *f);

/* A unit's fixes as edits of its file (fix_edits.c), ready for boxlint_apply_fixes. */
typedef struct fix_edits {
  boxlint_fix *fix;         /* `n` edits; each `text` malloc'd, owned here; each with the
                               safety of the fix it is made of */
  size_t *nfind;            /* `n` counts: how many findings propose each edit */
  const boxlint_fix **ptr;  /* `n` pointers to them */
  size_t n, cap;
} fix_edits;
/* Every shown finding's fix in `u` as an edit of u->text (identical edits once). `e` is
 * initialised in every case; cli_fix_edits_free releases it. Returns 0, or -1 out of memory. */
int cli_fix_edits(const unit *u, fix_edits *e);
void cli_fix_edits_free(fix_edits *e);
/* The edits of one finding's fix alone (none when it has no fix), as cli_fix_edits makes them. */
int cli_fix_edit_one(const unit *u, const boxlint_diag *d, fix_edits *e);
/* `a` -> `b` as a unified diff of `path` ("--- a/PATH", "+++ b/PATH", 3 lines of context) on
 * `f`; nothing when they are equal. Returns 0, or -1 out of memory (nothing printed). */
int cli_diff_print(FILE *f, const char *path, const char *a, size_t alen, const char *b,
                   size_t blen);

#endif

/* `boxlint --fix` and `--diff` on one path: read it, check it (lint_run.c's cli_check_text),
 * turn the findings' fixes into edits of the file (fix_edits.c), apply the safe ones (the
 * unsafe ones too with --unsafe-fixes: boxlint_fix_safety) with boxlint_apply_fixes, check the
 * result again, and repeat while fixes apply, since fixes left out for overlapping apply in the
 * next pass (at most FIX_MAX_PASSES). A result that no longer loads (invalid JSON, a Python
 * syntax error) is never kept: nothing is written and stderr says why. Then, --fix: the file,
 * read through fix_write.c, is replaced by it atomically when the user could write it in place
 * and it did not change meanwhile (standard input: the text goes to stdout) and the findings
 * that remain are emitted; --diff: a unified diff (fix_diff.c), nothing written. Owns the
 * passes, their messages and the closing summary (found, fixed, remaining, unsafe fixes left
 * unapplied). Called by cmd/lint_cmd.c and lsp/; calls fix_edits.c, fix_write.c, fix_diff.c,
 * input/ (lint_run.c, input.c), output/ and the library's boxlint_apply_fixes. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fix/fix.h"

enum { FIX_MAX_PASSES = 10 };

/* A path's text before and after its fixes, and both checked. */
typedef struct fix_state {
  char *orig;       /* as read (malloc'd) */
  size_t olen;
  char *cur;        /* after the passes so far: `orig`, or a boxlint_apply_fixes buffer */
  size_t clen;
  checked k0, k;    /* `orig` checked; `cur` checked when it is not `orig` */
  int changed;
  size_t fixed;     /* findings whose fix the passes applied */
} fix_state;

static const unit *current(const fix_state *fs) { return fs->changed ? &fs->k.u : &fs->k0.u; }

/* Everything the passes made (not `orig`, which belongs to the caller). */
static void fix_state_free(fix_state *fs) {
  if (fs->changed) {
    cli_checked_free(&fs->k);
    boxlint_buffer_free(fs->cur, NULL);
  }
  cli_checked_free(&fs->k0);
}

/* The edits of `e` to apply: the safe ones, and the unsafe ones when `unsafe`. Their pointers
 * (e->ptr[i] is &e->fix[i] when made) and finding counts are moved to the front of e->ptr and
 * e->nfind, in order. Returns how many. */
static size_t choose_edits(fix_edits *e, int unsafe) {
  size_t k = 0;
  for (size_t i = 0; i < e->n; i++) {
    if (e->fix[i].safety != BOXLINT_FIX_SAFE && !unsafe) continue;
    e->ptr[k] = &e->fix[i];
    e->nfind[k++] = e->nfind[i];
  }
  return k;
}

/* One pass: the unit's fixes that `c` allows applied to its text into *out (NULL when none
 * applies, or the text would not change); *fixed grows by the findings whose edit applied.
 * Returns 0, or -1 out of memory. */
static int fix_pass(const cli *c, const unit *u, char **out, size_t *out_len, size_t *fixed) {
  *out = NULL;
  fix_edits e;
  if (cli_fix_edits(u, &e)) {
    cli_fix_edits_free(&e);
    return -1;
  }
  int rc = 0;
  size_t n = choose_edits(&e, c->unsafe_fixes);
  unsigned char *applied = n ? malloc(n) : NULL;
  if (n && !applied) {
    rc = -1;
  } else if (n) {
    char *buf;
    size_t len, got = 0;
    if (boxlint_apply_fixes(u->text, u->len, e.ptr, n, &buf, &len, applied, NULL) != BOXLINT_OK)
      rc = -1;
    else if (len == u->len && !memcmp(buf, u->text, len))
      boxlint_buffer_free(buf, NULL);
    else
      *out = buf, *out_len = len;
    for (size_t i = 0; *out && i < n; i++) got += applied[i] ? e.nfind[i] : 0;
    *fixed += got;
  }
  free(applied);
  cli_fix_edits_free(&e);
  return rc;
}

/* cli_check_text on a fixed text, with what it would print about the text kept in *why
 * (malloc'd, or NULL) instead of printed. */
static int recheck(cli *c, const char *path, const char *text, size_t len, checked *k,
                   char **why) {
  cli_capture cap;
  cli_capture_begin(c, &cap);
  int rc = cli_check_text(c, path, text, len, k);
  *why = cli_capture_end(c, &cap);
  return rc;
}

/* The passes. Returns 0, or -1 (why printed: a fixed text would not load, or no memory). */
static int fix_loop(cli *c, const char *path, fix_state *fs) {
  for (int pass = 0; pass < FIX_MAX_PASSES; pass++) {
    char *next;
    size_t nl;
    size_t fixed = 0;
    if (fix_pass(c, current(fs), &next, &nl, &fixed)) {
      char vb[CLI_VISIBLE_MAX];
      fprintf(c->err, "boxlint: %s: out of memory while fixing; nothing written\n",
              cli_visible(path, vb, sizeof vb));
      return -1;
    }
    if (!next) break;
    checked nk;
    char *why;
    if (recheck(c, path, next, nl, &nk, &why)) {
      const char *w = why && !strncmp(why, "boxlint: ", 9) ? why + 9 : why;
      size_t wn = w ? strlen(w) : 0;
      while (wn && w[wn - 1] == '\n') wn--;
      fprintf(c->err,
              "boxlint: %s: fixes not applied: the fixed file would not load (%.*s); nothing "
              "written\n",
              path, (int)(wn < INT_MAX ? wn : 0), w ? w : "");
      free(why);
      cli_checked_free(&nk);
      boxlint_buffer_free(next, NULL);
      return -1;
    }
    free(why);
    if (fs->changed) {
      cli_checked_free(&fs->k);
      boxlint_buffer_free(fs->cur, NULL);
    }
    fs->k = nk;
    fs->cur = next;
    fs->clen = nl;
    fs->changed = 1;
    fs->fixed += fixed;
  }
  return 0;
}

static void tally_one(const unit *u, const boxlint_diag *d, boxlint_severity sev, void *ctx) {
  (void)u;
  (void)sev;
  cli *c = ctx;
  c->fix_tally.remaining++;
  if (d->fix && d->fix->safety != BOXLINT_FIX_SAFE && !c->unsafe_fixes) c->fix_tally.hidden++;
}

/* Count a path in c's tally: `fixed`, then u's shown findings as remaining, and those of them
 * with an unsafe fix that --unsafe-fixes would have applied as hidden. */
static void tally(cli *c, const unit *u, size_t fixed) {
  c->fix_tally.fixed += fixed;
  cli_each_shown(u, tally_one, c);
}

/* After the passes: write, print or diff the result, and emit what remains. */
static int fix_finish(cli *c, const char *path, enum fix_mode mode, fix_state *fs,
                      cli_fix_file *ff, FILE *text_out) {
  int same = fs->clen == fs->olen && !memcmp(fs->cur, fs->orig, fs->olen);
  if (mode == FIX_DIFF) {
    if (same) {
      tally(c, current(fs), fs->fixed);
      return 0;
    }
    if (cli_diff_print(text_out, path, fs->orig, fs->olen, fs->cur, fs->clen)) {
      char vb[CLI_VISIBLE_MAX];
      fprintf(c->err, "boxlint: %s: out of memory while making the diff\n",
              cli_visible(path, vb, sizeof vb));
      tally(c, &fs->k0.u, 0);
      return -1;
    }
    tally(c, current(fs), fs->fixed);
    if (c->worst < EXIT_FINDINGS) c->worst = EXIT_FINDINGS;
    return 0;
  }
  if (!strcmp(path, "-")) {
    fwrite(fs->cur, 1, fs->clen, text_out);
    fflush(text_out);
  } else if (!same && cli_fix_write(c, path, ff, fs->orig, fs->olen, fs->cur, fs->clen)) {
    cli_emit_unit(c, &fs->k0.u); /* the file keeps its findings */
    tally(c, &fs->k0.u, 0);
    return -1;
  }
  cli_emit_unit(c, current(fs));
  tally(c, current(fs), fs->fixed);
  return 0;
}

static int fix_read(cli *c, const char *path, int found, enum fix_mode mode, FILE *text_out) {
  fix_state fs;
  memset(&fs, 0, sizeof fs);
  cli_fix_file ff = {.fd = -1, .dfd = -1};
  /* --fix of a file: read through the descriptor that fix_write.c checks before replacing it */
  if (mode == FIX_APPLY && strcmp(path, "-")) {
    if (cli_fix_open(c, path, found, &ff, &fs.orig, &fs.olen)) return -1;
  } else if (cli_read_file(c, path, &fs.orig, &fs.olen)) {
    return -1;
  }
  int rc = -1;
  if (cli_check_found(c, path, fs.orig, fs.olen, found, &fs.k0)) goto out;
  rc = 0;
  if (fs.k0.skipped) goto out; /* a walk's JSON file that is none of ours */
  fs.cur = fs.orig;
  fs.clen = fs.olen;
  if (fix_loop(c, path, &fs)) {
    if (mode == FIX_APPLY) cli_emit_unit(c, &fs.k0.u);
    tally(c, &fs.k0.u, 0);
    rc = -1;
    goto out;
  }
  rc = fix_finish(c, path, mode, &fs, &ff, text_out);
out:
  fix_state_free(&fs);
  free(fs.orig);
  cli_fix_close(&ff);
  return rc;
}

int cli_fix_text(cli *c, const char *path, const char *text, size_t len, char **out,
                 size_t *out_len) {
  fix_state fs;
  memset(&fs, 0, sizeof fs);
  *out = NULL;
  *out_len = 0;
  fs.orig = (char *)text; /* only read: fix_loop never writes or frees `orig` */
  fs.olen = len;
  int rc = -1;
  if (cli_check_text(c, path, text, len, &fs.k0)) goto out;
  fs.cur = fs.orig;
  fs.clen = fs.olen;
  if (fix_loop(c, path, &fs)) goto out;
  rc = 0;
  if (fs.changed && (fs.clen != len || memcmp(fs.cur, text, len))) {
    *out = malloc(fs.clen + 1);
    if (!*out) rc = -1;
    else {
      memcpy(*out, fs.cur, fs.clen);
      (*out)[fs.clen] = 0;
      *out_len = fs.clen;
    }
  }
out:
  fix_state_free(&fs);
  return rc;
}

int cli_fix_path(cli *c, const char *path, enum fix_mode mode, FILE *text_out) {
  return fix_read(c, path, 0, mode, text_out);
}

int cli_fix_found(cli *c, const char *path, enum fix_mode mode, FILE *text_out) {
  return fix_read(c, path, 1, mode, text_out);
}

void cli_fix_summary(cli *c, enum fix_mode mode) {
  const struct cli_fix_tally *t = &c->fix_tally;
  if (!t->fixed && !t->remaining) return; /* nothing found: nothing to say */
  fprintf(c->err, "boxlint: %zu found, %zu %s, %zu remaining", t->fixed + t->remaining, t->fixed,
          mode == FIX_DIFF ? "fixed by the diff" : "fixed", t->remaining);
  if (t->hidden)
    fprintf(c->err, "; %zu unsafe fix%s available with --unsafe-fixes", t->hidden,
            t->hidden == 1 ? "" : "es");
  fputc('\n', c->err);
}

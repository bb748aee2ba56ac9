/* Private: suppression comments, one syntax for every file kind (docs/configuration.md, its
 * suppressions), read here for lint/ (Dockerfile fragments) and python/ (Python files):
 *
 *     # boxlint: ignore=rule-a,rule-b -- reason
 *
 * `#`, blanks, `boxlint`, `:`, `ignore`, `=` (blanks allowed around `:` and `=`), then the rule
 * ids, separated by commas, up to the first blank (empty items between commas are skipped),
 * then nothing, or blanks and `--` and a reason. The older spelling without the colon,
 * `# boxlint ignore=...`, is read as the same thing. A comment that starts as a boxlint
 * directive (`boxlint:`; `boxlint` then a word and `=`; `boxlint ignore`; `boxlint` followed
 * at once by punctuation, as in `boxlint-ignore=`) but does not parse is malformed: it
 * suppresses nothing, and the caller reports it as `unused-suppression`
 * (BL_R_UNUSED_SUPPRESSION) with the problem named. So is a list of more than BL_SUP_MAX_IDS
 * ids (a documented limit). What a comment applies to is the caller's: in a Python file the
 * line it is on or, alone on its line, the next; in a fragment the instruction that the
 * comment lines right before it introduce.
 * Errors and `not-static` are never suppressed. Everything here is linear in the comment and
 * in the findings it is applied to. */
#ifndef boxlint_REPORT_SUPPRESS_H
#define boxlint_REPORT_SUPPRESS_H

#include "report/emit.h"

/* At most this many rule ids in one comment (there are far fewer rules). */
#define BL_SUP_MAX_IDS 256

typedef enum bl_sup_kind {
  BL_SUP_NONE = 0,   /* not a boxlint directive (any other comment) */
  BL_SUP_IGNORE,     /* a suppression: its ids in [ids, ids_end) */
  BL_SUP_MALFORMED,  /* starts as a directive but does not parse: `problem`, at [bad, bad_end) */
  BL_SUP_TOO_MANY    /* more than BL_SUP_MAX_IDS ids: suppresses nothing */
} bl_sup_kind;

typedef enum bl_sup_problem {
  BL_SUP_OK = 0,
  BL_SUP_SPELLING,   /* `boxlint` followed by punctuation other than `:` (boxlint-ignore=) */
  BL_SUP_DIRECTIVE,  /* a word other than `ignore` (boxlint: ignroe=) */
  BL_SUP_NO_EQUALS,  /* `ignore` without `=` */
  BL_SUP_NO_IDS,     /* `ignore=` and no rule id */
  BL_SUP_BAD_ID,     /* an id with a character rule ids do not have */
  BL_SUP_TRAILING    /* text after the ids that is not ` -- reason` */
} bl_sup_problem;

typedef struct bl_sup_comment {
  bl_sup_kind kind;
  bl_sup_problem problem;
  size_t ids, ids_end; /* the rule list (IGNORE, TOO_MANY); offsets into the text */
  size_t nids;         /* the ids in it */
  size_t bad, bad_end; /* MALFORMED: the bytes at fault */
} bl_sup_comment;

/* Read the comment text s[cs, ce), `cs` at its `#`. Returns out->kind. */
bl_sup_kind bl_sup_read(const char *s, size_t cs, size_t ce, bl_sup_comment *out);

/* The next id of a list from *i to `end`: 1 with the id in [*a, *b), 0 at the end. */
int bl_sup_next_id(const char *s, size_t *i, size_t end, size_t *a, size_t *b);

/* One suppression's ids, hashed, and which of them silenced a finding. */
typedef struct bl_sup_id {
  size_t a, b;
  int used;
} bl_sup_id;

typedef struct bl_sup_table {
  const char *s;
  const bl_sup_comment *c;
  bl_sup_id *t;
  size_t mask;
} bl_sup_table;

/* The table of an IGNORE comment of `s`, from `m`. Returns 0, or -1 out of memory. */
int bl_sup_table_init(bl_sup_table *t, const boxlint__mem *m, const char *s,
                      const bl_sup_comment *c);
void bl_sup_table_free(bl_sup_table *t, const boxlint__mem *m);

/* Does the comment silence finding `d` (it lists its rule, and the finding is neither an error
 * nor not-static)? The id is marked used. */
int bl_sup_table_silences(bl_sup_table *t, const boxlint_diag *d);

/* Each id to report, in the order listed: one that silenced nothing, and each repetition of
 * an id. An `unused-suppression` later in the same list silences the report of the ids before
 * it, as if each id were applied in turn. `fn` gets the id's [a, b); its first nonzero return
 * is returned. */
int bl_sup_table_unused(bl_sup_table *t, int (*fn)(void *ctx, size_t a, size_t b), void *ctx);

/* The message and hint of an unused id s[a, b) (`scope` ends the message: "on the next
 * instruction"), and of a MALFORMED or TOO_MANY comment, into `r`'s arena; never NULL. */
const char *bl_sup_unused_message(boxlint_report *r, const char *s, size_t a, size_t b,
                                  const char *scope);
const char *bl_sup_unused_hint(boxlint_report *r, const char *s, size_t a, size_t b);
const char *bl_sup_bad_message(boxlint_report *r, const char *s, const bl_sup_comment *c);
const char *bl_sup_bad_hint(const bl_sup_comment *c);
/* Where a MALFORMED or TOO_MANY comment is reported: [*a, *b). */
void bl_sup_bad_span(const bl_sup_comment *c, size_t *a, size_t *b);

#endif

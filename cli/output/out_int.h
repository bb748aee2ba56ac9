/* Private to the output modules: output.c (the dispatch), out_position.c (where a finding is in
 * its file) and one file per format, out_text.c, out_json.c, out_sarif.c, out_github.c. The
 * dispatch calls the formats; the formats call out_position.c and jsonpos.c, never each other,
 * never the dispatch, never a command. Nothing outside these files includes this header. */
#ifndef BOXLINT_CLI_OUT_INT_H
#define BOXLINT_CLI_OUT_INT_H
#include "output/output.h"

/*==============================================================================================
 * MARK: out_position.c
 *============================================================================================*/

/* A finding's position in the file (for text, SARIF and GitHub output). */
typedef struct fpos {
  int has;
  uint32_t line, col, end_line, end_col;
  size_t off, end_off;
} fpos;

/* Where `d` is in the unit's text: a fragment's own position; in a JSON file the command's string
 * literal or the field's value. p->has is 0 when there is no file text to point into (-c). */
void cli_position(const unit *u, const boxlint_diag *d, fpos *p);
/* The offset where the line of u's text holding `off` starts (from the index of the unit in
 * scope, cli_positions_begin, without a scan back over a long line). */
size_t cli_line_start(const unit *u, size_t off);
/* The offset of command `command`'s element in a JSON unit's commands array, or SIZE_MAX. */
size_t cli_command_literal(const unit *u, int32_t command);

/*==============================================================================================
 * MARK: out_text.c
 *============================================================================================*/

/* Byte ranges of the text being printed that hold secrets: never printed. */
/* The bytes of a unit's secrets, as ranges sorted by (cmd, s) and merged where they touch. */
typedef struct out_secret {
  int32_t cmd; /* the command the range is in (offsets in it), or -1 (offsets in the file) */
  size_t s, e;
} out_secret;
typedef struct out_secrets {
  out_secret *v; /* malloc'd; NULL with n 0 when the unit has none */
  size_t n;
  int failed;    /* out of memory: nothing of the source is printed (no secret in clear) */
} out_secrets;

/* The ranges of every secret-in-command finding of the unit, before any is printed (however
 * many: masking never depends on how many come before). out_text_secrets_free after. */
void out_text_secrets(const unit *u, out_secrets *sec);
void out_text_secrets_free(out_secrets *sec);
/* path:line:col: severity: message [rule], the source line with a caret, the hint. */
void out_text_diag(cli *c, const unit *u, const boxlint_diag *d, boxlint_severity sev,
                   const out_secrets *sec);

/*==============================================================================================
 * MARK: out_json.c (cli_diag_json, for one diagnostic, is in output.h: the policy command uses it)
 *============================================================================================*/

void out_json_begin(cli *c);
/* The unit's entry of "files": path, ok (no error), commands, and `diags` (taken over). */
void out_json_unit(cli *c, const unit *u, json_t *diags, int has_error);
/* The whole document; the collected files are handed over to it. */
json_t *out_json_finish(cli *c);

/*==============================================================================================
 * MARK: out_sarif.c
 *============================================================================================*/

void out_sarif_begin(cli *c);
/* One result, its rule added to the driver's rules on first use. */
void out_sarif_diag(cli *c, const unit *u, const boxlint_diag *d, boxlint_severity sev);
/* The SARIF 2.1.0 log; the collected results and rules are handed over to it. */
json_t *out_sarif_finish(cli *c);

/*==============================================================================================
 * MARK: out_github.c
 *============================================================================================*/

/* One workflow command (::error file=...,line=...::message). */
void out_github_diag(cli *c, const unit *u, const boxlint_diag *d, boxlint_severity sev);

#endif

/* cli/output/: findings out, in c->format (output.c, the one door into the formats out_*.c, which
 * share out_int.h; out_position.c: where a finding is in its file). The folder's whole
 * interface; it calls input/ (units, positions in JSON) and nothing above. */
#ifndef BOXLINT_CLI_OUTPUT_H
#define BOXLINT_CLI_OUTPUT_H
#include "input/input.h"

/*==============================================================================================
 * MARK: output.c and out_json.c: findings out, in c->format
 *============================================================================================*/

/* What the calls between cli_capture_begin and cli_capture_end print on c->err, kept instead
 * (--fix's re-checks, fix_run.c, which quote it): the text, malloc'd and NUL-terminated, or
 * NULL when nothing was printed or it could not be kept. The caller frees it. The language
 * server does not use it: it takes problems as records (c->on_problem). */
typedef struct cli_capture {
  FILE *saved, *mem;
  char *text;
  size_t len;
} cli_capture;
void cli_capture_begin(cli *c, cli_capture *cap);
char *cli_capture_end(cli *c, cli_capture *cap);

void cli_begin(cli *c);
/* Print (text, github) or collect (json, sarif) the unit's findings; raises c->worst to
 * EXIT_FINDINGS when one is at or above c->fail_on. */
void cli_emit_unit(cli *c, const unit *u);
/* Print what was collected (json, sarif). */
void cli_finish(cli *c);
/* The severity `d` is shown with: its own (the library applied the unit's config). */
boxlint_severity cli_shown_severity(const unit *u, const boxlint_diag *d);
/* Each finding of the unit that is shown (its reports', then its own), with its severity. */
typedef void (*cli_shown_fn)(const unit *u, const boxlint_diag *d, boxlint_severity sev,
                             void *ctx);
void cli_each_shown(const unit *u, cli_shown_fn fn, void *ctx);
/* The byte range of the unit's text that `d` is about (out_position.c): 1, or 0 when there is
 * no text to point into. */
int cli_finding_span(const unit *u, const boxlint_diag *d, size_t *start, size_t *end);
/* Between these (out_position.c), positions in `u` are found through an index of its text built
 * once, so that showing every finding is linear in the file (one unit at a time per thread;
 * u's text must not change meanwhile). Outside, each position scans, with the same answers. */
void cli_positions_begin(const unit *u);
void cli_positions_end(void);
/* One diagnostic as the JSON object docs/command.md documents for `--format json`; `u` NULL: no
 * file to take positions from. */
json_t *cli_diag_json(const unit *u, const boxlint_diag *d, boxlint_severity sev);

#endif

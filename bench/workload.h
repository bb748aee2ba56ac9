/* The benchmark workload: templates of 1 to 64 commands, generated from a fixed seed. Shared by
 * bench_check.c and the peer comparison (bench_check --dump writes it as JSON). */
#ifndef BOXLINT_BENCH_WORKLOAD_H
#define BOXLINT_BENCH_WORKLOAD_H
#include <stddef.h>
#include <stdint.h>
#include "boxlint/boxlint.h"

typedef struct wl_template {
  boxlint_span *cmds;
  size_t ncmds;
  size_t bytes;
} wl_template;

typedef struct workload {
  wl_template *t;
  size_t n;
  char *arena; /* all command text */
  size_t arena_len, arena_cap;
  size_t total_cmds, total_bytes;
} workload;

/* `ntemplates` templates; commands per template from [min_cmds, max_cmds]; target bytes per
 * command roughly `cmd_bytes` (0: varied 20-600); `invalid_pct` percent of commands invalid. */
int wl_make(workload *w, uint64_t seed, size_t ntemplates, size_t min_cmds, size_t max_cmds,
            size_t cmd_bytes, unsigned invalid_pct);
void wl_free(workload *w);

#endif

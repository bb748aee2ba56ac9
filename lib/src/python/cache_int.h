/* Private to python/cache*.c: what boxlint_check_python_cached keeps between two checks of one
 * file (cache.c: the whole check and what is kept of it; cache_edit.c: an edit that a kept
 * check can take without reading the file again). */
#ifndef BOXLINT_PYTHON_CACHE_INT_H
#define BOXLINT_PYTHON_CACHE_INT_H
#include "python/python_int.h"

/* One string literal token of the text; `run` and `run_end` the literals (indices into the
 * cache's array) of the adjacent literals it is concatenated with. */
typedef struct bl_pylit {
  size_t start, end;
  uint32_t run, run_end;
  uint32_t flags;          /* the token's (BL_PTF_*) */
} bl_pylit;

/* Bytes [a, b) of the text that call `call`'s findings read: its own lines, and the lines of
 * each value it reaches, through the names it resolved. An edit there checks the call again. */
typedef struct bl_pydep {
  size_t a, b;
  size_t call;
} bl_pydep;

/* A config as far as a check reads it, by value (a freed config's address may come back). */
typedef struct bl_pycfg {
  int present;
  boxlint_severity *sev; /* BL_NWARNINGS entries, the cache's copy */
  uint32_t match_limit, depth_limit;
  int jit;
} bl_pycfg;

typedef struct bl_pyopts {
  size_t max_commands, max_command_bytes;
  char escape;
  int64_t cpu_min, cpu_max, memory_min, memory_max;
  int no_instructions;
  int minor;               /* the Python version read (bl_py_minor): a check under another is
                              never reused */
  bl_pycfg config;
  int has_popts;
  size_t max_entries;
  int unmatched;
  unsigned compat;
  bl_pycfg pconfig;
} bl_pyopts;

struct boxlint_python_cache {
  boxlint__mem mem;
  char *text;              /* the last text checked (its own copy), `cap` bytes of room */
  size_t len, cap;
  size_t head;             /* the end of the text's second line: an edit before it is read
                              whole (an encoding declaration lives there) */
  int kept;                /* kp holds the check of `text`, to reuse */
  bl_pykeep kp;
  bl_pyopts opts;          /* what it was checked with */
  boxlint_report *tmp;     /* one call's checks */
  boxlint_report **extra;  /* the findings of calls checked again (their strings) */
  size_t nextra, cap_extra;
  boxlint_diag *cur;       /* the raw findings now: kp's order (calls, then references) */
  size_t ncur, cap_cur;
  size_t *lo, *hi;         /* call i's raw findings: cur[lo[i], hi[i]) */
  size_t refs_lo;          /* the references': cur[refs_lo, ncur) */
  bl_pylit *lits;
  size_t nlits;
  bl_pydep *deps;
  size_t ndeps, cap_deps;
  char *names;             /* the identifiers an identifier edit may not touch (NUL-separated) */
  size_t names_len;
  size_t *idents;          /* the NAME tokens: [start, end) pairs, nidents entries, as the
                              check kept read them; bl_py_cache_ident adds what moved them */
  size_t *ident_moves;     /* a Fenwick tree over idents of what edits added (mod 2^N) */
  size_t nidents;
  int no_idents;           /* no identifier edit is taken */
  size_t *lines;           /* where each line starts (line 1: 0, or 3 past a BOM) */
  unsigned char *plain;    /* per line: ASCII, no \r (an edit taken keeps it so) */
  size_t nlines;
  size_t reuses;           /* since the last whole check: after 4096 (values that the checks
                              again added to the reader), a whole check */
  size_t stats[4];         /* full checks, reused after a string edit, an identifier edit, none */
};

/* The line [a, b) around bytes [start, end) of s[0..n). */
void bl_py_line_span(const char *s, size_t n, size_t start, size_t end, size_t *a, size_t *b);
/* The reuse of the kept check for the text buf[0..len) when it differs from the cache's by an
 * edit it can take (cache_edit.c): 1 done (r holds the findings, *st the status), 0 when the
 * check must be done whole (the cache may then be half changed: the caller starts it again). */
int bl_py_cache_reuse(boxlint_python_cache *c, boxlint_report *r, const char *buf, size_t len,
                      const boxlint_options *opts, const boxlint_policy_options *popts,
                      boxlint_status *st);
/* The NAME tokens and the names an identifier edit may not touch (cache_name.c). 0, -1. */
int bl_py_cache_names(boxlint_python_cache *c);
/* May the edit of bytes [p, at) (buf the new text) be taken as an identifier edit? Then
 * *move_at is where what follows starts moving (an offset at it moves, one before stays). */
int bl_py_cache_ident_ok(boxlint_python_cache *c, const char *buf, size_t len, size_t p,
                         size_t at, size_t *move_at);
/* Entry i of idents where the text is now; every entry from `from` on moved by d. */
size_t bl_py_cache_ident(const boxlint_python_cache *c, size_t i);
void bl_py_cache_idents_move(boxlint_python_cache *c, size_t at, size_t d);
/* The line starts of the text (cache_place.c). 0, -1 out of memory. */
int bl_py_cache_lines(boxlint_python_cache *c);
/* bl_py_finish from the line starts kept (cache_place.c). 0, -1 out of memory. */
int bl_py_cache_finish(const boxlint_python_cache *c, boxlint_report *r, size_t first,
                       boxlint_severity unused);
/* r gets the cache's findings now (cur), positioned and suppressed. 0, -1 out of memory. */
int bl_py_cache_emit(boxlint_python_cache *c, boxlint_report *r, const boxlint_options *opts);

#endif

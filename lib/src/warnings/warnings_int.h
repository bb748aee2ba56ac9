/* Private to lib/src/warnings/. Sections follow the files:
 * shell.c (RUN scripts cut into words and simple commands) -> run.c (the RUN rules) and
 * secrets.c (secret-in-command) -> warnings.c (the entry points, the dispatch per instruction,
 * the other keywords' rules and the user rules). Everything here runs on every command when the
 * warnings are on: the small helpers are `static inline`, the rest is called once per script,
 * instruction or match, never per byte. */
#ifndef boxlint_WARNINGS_INT_H
#define boxlint_WARNINGS_INT_H

#include <string.h>
#include "config/config_int.h"
#include "dockerfile/dockerfile_int.h"

/*==============================================================================================
 * MARK: Shared by the rules (warnings.c)
 *============================================================================================*/

/* Whether warning `wi` (WI_*) is on under the check's config. */
static inline int bl_warn_on(const bl_check *ck, size_t wi) {
  return ck->opts->config->sev[wi] != BOXLINT_SEVERITY_OFF;
}

/* The check's PCRE2 state (match context and data), made on first use from the report's
 * allocator and freed by bl_warn_free; NULL (and ck->cx.oom set) when memory ran out. */
bl_rx *bl_warn_rx(bl_check *ck);

/* strcmp(a, b) == 0, inline: the rules compare words with short literals many times per
 * command, and a library call costs more than the comparison. */
static inline int bl_eq(const char *a, const char *b) {
  while (*b && *a == *b) a++, b++;
  return *a == *b;
}

/*==============================================================================================
 * MARK: Shell words and simple commands (shell.c)
 *============================================================================================*/

typedef struct bl_sh_word {
  size_t s, e;       /* raw extent in the script */
  char *text;        /* unquoted (arena), NUL-terminated */
  size_t len;
  int quoted;        /* some part was quoted */
  unsigned char op;  /* 0 for a word; else an operator: '&' (&&), '|' (||), 'p' (|), ';' (; & or
                        newline), '(' ')' */
  unsigned short cmd_end; /* set by bl_sh_split in the first word after an operator (and in the
                             first word): the index of the next operator, or of the end; else
                             0 (unknown) */
} bl_sh_word;

typedef struct bl_sh_script {
  bl_sh_word *w;
  size_t n;
  /* where the script's offsets point: logical line of `rd`, or input bytes */
  int in_input;
} bl_sh_script;

/* Split [s, e) of `text` into words and operators (in the report arena). Quotes and
 * backslashes are removed from the text of words; `$(...)` and backquotes stay inside the word
 * they are in. Returns 0, or -1 when memory ran out. */
int bl_sh_split(bl_check *ck, const char *text, size_t s, size_t e, bl_sh_script *out);

/* A simple command: words [b, e) of the script, the command word at c (after assignments and
 * wrappers such as env, sudo, nohup). */
typedef struct bl_sh_cmd {
  size_t b, e, c;
  int sudo;       /* index of a sudo word + 1, or 0 */
  int pipe_in;    /* fed by a pipe */
  int pipe_out;   /* feeds a pipe */
  const char *name; /* the command word's base name (bl_sh_base_name) */
  int kind;         /* and what it is (enum bl_sh_name) */
} bl_sh_cmd;

/* Walk the simple commands of a script: start with a zeroed `cmd`; each call fills it with the
 * next command that has a command word (after the previous one's words) and returns 1, or
 * returns 0 at the end. */
int bl_sh_next_cmd(const bl_sh_script *sc, bl_sh_cmd *cmd);

/* The command name of word w: its basename ("/usr/bin/apt-get" -> "apt-get"). */
static inline const char *bl_sh_base_name(const bl_sh_word *w) {
  const char *b = w->text; /* after the last '/' before the NUL, as strrchr finds it */
  for (const char *t = w->text; *t; t++)
    if (*t == '/') b = t + 1;
  return b;
}

static inline int bl_sh_word_is(const bl_sh_word *w, const char *s) {
  return !w->op && w->text && bl_eq(w->text, s);
}

/* The command names the RUN rules and the command-word search tell apart, found once per
 * command by bl_sh_name_kind instead of a comparison per rule. */
enum bl_sh_name {
  BL_SH_OTHER = 0, BL_SH_SUDO, BL_SH_WRAPPER /* env nohup time exec command */,
  BL_SH_SHELL /* sh bash dash zsh ash ksh */, BL_SH_CURL, BL_SH_WGET, BL_SH_APT_GET, BL_SH_APT,
  BL_SH_APTITUDE, BL_SH_RM, BL_SH_SYSTEMCTL
};

/* The kind of command name n (NUL-terminated): a switch on its first byte, then the few names
 * that start with it. */
static inline enum bl_sh_name bl_sh_name_kind(const char *n) {
  switch (n[0]) {
  case 'a':
    if (bl_eq(n, "apt-get")) return BL_SH_APT_GET;
    if (bl_eq(n, "apt")) return BL_SH_APT;
    if (bl_eq(n, "aptitude")) return BL_SH_APTITUDE;
    return bl_eq(n, "ash") ? BL_SH_SHELL : BL_SH_OTHER;
  case 'b': return bl_eq(n, "bash") ? BL_SH_SHELL : BL_SH_OTHER;
  case 'c':
    if (bl_eq(n, "curl")) return BL_SH_CURL;
    return bl_eq(n, "command") ? BL_SH_WRAPPER : BL_SH_OTHER;
  case 'd': return bl_eq(n, "dash") ? BL_SH_SHELL : BL_SH_OTHER;
  case 'e': return bl_eq(n, "env") || bl_eq(n, "exec") ? BL_SH_WRAPPER : BL_SH_OTHER;
  case 'k': return bl_eq(n, "ksh") ? BL_SH_SHELL : BL_SH_OTHER;
  case 'n': return bl_eq(n, "nohup") ? BL_SH_WRAPPER : BL_SH_OTHER;
  case 'r': return bl_eq(n, "rm") ? BL_SH_RM : BL_SH_OTHER;
  case 's':
    if (bl_eq(n, "sudo")) return BL_SH_SUDO;
    if (bl_eq(n, "sh")) return BL_SH_SHELL;
    return bl_eq(n, "systemctl") ? BL_SH_SYSTEMCTL : BL_SH_OTHER;
  case 't': return bl_eq(n, "time") ? BL_SH_WRAPPER : BL_SH_OTHER;
  case 'w': return bl_eq(n, "wget") ? BL_SH_WGET : BL_SH_OTHER;
  case 'z': return bl_eq(n, "zsh") ? BL_SH_SHELL : BL_SH_OTHER;
  default: return BL_SH_OTHER;
  }
}

static inline int bl_sh_is_shell(const char *n) { return bl_sh_name_kind(n) == BL_SH_SHELL; }

/*==============================================================================================
 * MARK: The rules of RUN (run.c) and secret-in-command (secrets.c)
 *============================================================================================*/

/* RUN's flags (run-mount-*, run-insecure) and its script: the shell-form arguments, the exec
 * form's words, and a heredoc body that is the script. */
void bl_warn_run(bl_check *ck, const bl_read *rd, const bl_cmdline *c);

/* Secrets in [s, e) of `text` (the logical line of `rd`, or input bytes when `in_input`): known
 * token formats, passwords in URLs, and with `assignments` password=... and the like. Masked
 * in the report; one report per secret (ck->sec_s/sec_e). */
void bl_warn_secrets(bl_check *ck, const bl_read *rd, const char *text, size_t s, size_t e,
                     int in_input, int assignments);

/* For the tests: the offsets of [s, e) of `text` where bl_warn_secrets (with assignments) tries
 * a pattern before any match, as its scan for candidates finds them: `scan` 2 the AVX2 scan (when
 * the build has it and the processor too, else 1), 1 the SSE2 scan (else 0), 0 every offset.
 * `ascii`: the text is known to be ASCII, as the byte check's line map says. The first `cap`
 * are written to `out`; returns how many were written. The three must agree on any text. */
size_t bl_secret_starts(const char *text, size_t s, size_t e, int ascii, int scan, size_t *out,
                        size_t cap);

/* ENV/ARG `name` (nl bytes) set to `val` (unquoted; [vs, ve) of the logical line): a
 * secret-looking name with a literal value, or with a literal default. `one_word`: the value is
 * one word (only then may it be a path). */
void bl_warn_env_arg_secret(bl_check *ck, const bl_read *rd, const bl_cmdline *c,
                            const char *name, size_t nl, const char *val, size_t vs, size_t ve,
                            int one_word);

#endif

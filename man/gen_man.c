/* Writes the man page from its template (man/boxlint.1.in) and the options table
 * (cli/cmd/options.def): a line "@OPTIONS LINT@" (or POLICY, LSP) becomes that command's rows,
 * each a .TP entry, its tag from the row's spellings and value, its text the row's MAN (roff)
 * or HELP (plain words); "@VERSION@" becomes the version. Every '-' of the table's text is
 * written as "\-" (roff's minus: what a user types). Run by CMake at build time.
 *
 * Usage: gen_man TEMPLATE OUTPUT VERSION */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct row {
  const char *cmd, *lng, *shrt, *arg, *help, *man;
} row;

static const row ROWS[] = {
#define X(cmd, id, kind, lng, shrt, arg, help, man) {#cmd, lng, shrt, arg, help, man},
#include "cmd/options.def"
#undef X
};

/* `s` with '-' as "\-". `join` (HELP's words as a sentence): line ends as spaces, the first
 * letter a capital, a full stop at the end, a line starting with '.' or '\'' guarded with
 * "\&". */
static void put_text(FILE *f, const char *s, int join) {
  int bol = 1;
  size_t n = strlen(s);
  if (join && *s >= 'a' && *s <= 'z') {
    fputc(*s - 'a' + 'A', f);
    s++;
    bol = 0;
  }
  for (; *s; s++) {
    if (bol && join && (*s == '.' || *s == '\'')) fputs("\\&", f);
    bol = 0;
    if (*s == '-') fputs("\\-", f);
    else if (*s == '\n' && join) fputc(' ', f);
    else {
      fputc(*s, f);
      bol = *s == '\n';
    }
  }
  if (join && n && s[-1] != '.') fputc('.', f);
}

/* The tag line: ".B --no-color", ".BI --config \" FILE\"", ".BR --format \" \" text | json",
 * ".BR -h \", \" --help", ".BI -j \" N\" \", --jobs \" N". */
static void put_tag(FILE *f, const row *r) {
  const char *name = r->lng ? r->lng : r->shrt;
  int placeholder = r->arg && r->arg[0] >= 'A' && r->arg[0] <= 'Z';
  if (r->lng && r->shrt && !r->arg) {
    fputs(".BR ", f);
    put_text(f, r->shrt, 0);
    fputs(" \", \" ", f);
    put_text(f, r->lng, 0);
  } else if (r->lng && r->shrt && placeholder) { /* ".BI -j \" N\" \", --jobs \" N" */
    fputs(".BI ", f);
    put_text(f, r->shrt, 0);
    fprintf(f, " \" %s\" \", ", r->arg);
    put_text(f, r->lng, 0);
    fprintf(f, " \" %s", r->arg);
  } else if (!r->arg) {
    fputs(".B ", f);
    put_text(f, name, 0);
  } else if (placeholder) {
    fputs(".BI ", f);
    put_text(f, name, 0);
    fprintf(f, " \" %s\"", r->arg);
  } else {
    fputs(".BR ", f);
    put_text(f, name, 0);
    fputs(" \" \"", f);
    for (const char *a = r->arg; *a;) {
      size_t k = strcspn(a, "|");
      fputc(' ', f);
      fprintf(f, "%.*s", (int)k, a);
      a += k;
      if (*a) {
        fputs(" |", f);
        a++;
      }
    }
  }
  fputc('\n', f);
}

static void put_rows(FILE *f, const char *cmd) {
  for (size_t i = 0; i < sizeof ROWS / sizeof *ROWS; i++) {
    const row *r = &ROWS[i];
    if (strcmp(r->cmd, cmd)) continue;
    fputs(".TP\n", f);
    put_tag(f, r);
    put_text(f, r->man ? r->man : r->help, !r->man);
    fputc('\n', f);
  }
}

/* One template line (without its '\n'). Returns 0, or -1 for an unknown "@OPTIONS X@". */
static int put_line(FILE *f, const char *line, const char *version) {
  char cmd[16];
  if (sscanf(line, "@OPTIONS %15[A-Z]@", cmd) == 1) {
    for (size_t i = 0; i < sizeof ROWS / sizeof *ROWS; i++) {
      if (!strcmp(ROWS[i].cmd, cmd)) {
        put_rows(f, cmd);
        return 0;
      }
    }
    fprintf(stderr, "gen_man: no options of %s in the table\n", cmd);
    return -1;
  }
  for (const char *v; (v = strstr(line, "@VERSION@")); line = v + strlen("@VERSION@"))
    fprintf(f, "%.*s%s", (int)(v - line), line, version);
  fprintf(f, "%s\n", line);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fputs("usage: gen_man TEMPLATE OUTPUT VERSION\n", stderr);
    return 2;
  }
  FILE *in = fopen(argv[1], "r"), *out = in ? fopen(argv[2], "w") : NULL;
  if (!in || !out) {
    perror(in ? argv[2] : argv[1]);
    return 1;
  }
  char line[4096];
  int rc = 0;
  while (!rc && fgets(line, sizeof line, in)) {
    line[strcspn(line, "\n")] = 0;
    rc = put_line(out, line, argv[3]);
  }
  fclose(in);
  if (fclose(out) || rc) {
    remove(argv[2]);
    return 1;
  }
  return 0;
}

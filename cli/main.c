/* The boxlint command. Uses only the public API (plus jansson for JSON). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "boxlint/boxlint.h"
#include "cli.h"

#define MAX_INPUT_BYTES (16u * 1024u * 1024u) /* larger inputs are refused, not read */

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2 };
enum format { FMT_TEXT, FMT_JSON };

typedef struct cli {
  enum format format;
  boxlint_severity fail_on;
  int color;
  boxlint_options opts;
  FILE *out, *err;
  json_t *files; /* JSON output */
  int worst;     /* exit code so far */
} cli;

static void usage(FILE *f) {
  fputs("usage: boxlint [lint] [options] FILE...     lint templates (.json command arrays) and\n"
        "                                             Dockerfile fragments; - reads stdin\n"
        "       boxlint [lint] [options] -c CMD...    lint commands given inline (repeatable)\n"
        "       boxlint policy FILE [--host H] [--ip A] ...   check a NetworkPolicy\n"
        "       boxlint rules | explain RULE | version\n"
        "options:\n"
        "  --format text|json   output format (default text)\n"
        "  --base FILE          the platform's base Dockerfile (appendability, escape)\n"
        "  --fail-on error|warning|info   lowest severity that makes the exit code 1\n"
        "  --no-color           no ANSI colours (also NO_COLOR=1)\n"
        "exit codes: 0 no findings at or above --fail-on, 1 findings, 2 usage or I/O error\n",
        f);
}

/* Read a whole file (or stdin for "-") with a size cap. Returns 0, or prints why and returns -1. */
static int read_input(cli *c, const char *path, char **buf, size_t *len) {
  FILE *f;
  int is_stdin = !strcmp(path, "-");
  *buf = NULL;
  *len = 0;
  if (is_stdin) {
    f = stdin;
  } else {
    struct stat st;
    if (stat(path, &st) != 0) {
      fprintf(c->err, "boxlint: %s: %s\n", path, strerror(errno));
      return -1;
    }
    if (S_ISDIR(st.st_mode)) {
      fprintf(c->err, "boxlint: %s: is a directory\n", path);
      return -1;
    }
    if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > MAX_INPUT_BYTES) {
      fprintf(c->err, "boxlint: %s: file is %lld bytes, more than the %u-byte limit; not read\n",
              path, (long long)st.st_size, MAX_INPUT_BYTES);
      return -1;
    }
    f = fopen(path, "rb");
    if (!f) {
      fprintf(c->err, "boxlint: %s: %s\n", path, strerror(errno));
      return -1;
    }
  }
  size_t cap = 4096, n = 0;
  char *b = malloc(cap);
  if (!b) goto oom;
  for (;;) {
    if (n == cap) {
      if (cap > MAX_INPUT_BYTES) {
        fprintf(c->err, "boxlint: %s: input larger than the %u-byte limit; not read\n", path,
                MAX_INPUT_BYTES);
        free(b);
        if (!is_stdin) fclose(f);
        return -1;
      }
      char *nb = realloc(b, cap * 2);
      if (!nb) goto oom;
      b = nb;
      cap *= 2;
    }
    size_t r = fread(b + n, 1, cap - n, f);
    n += r;
    if (r == 0) break;
  }
  if (ferror(f)) {
    fprintf(c->err, "boxlint: %s: read error: %s\n", path, strerror(errno));
    free(b);
    if (!is_stdin) fclose(f);
    return -1;
  }
  if (!is_stdin) fclose(f);
  *buf = b;
  *len = n;
  return 0;
oom:
  free(b);
  if (!is_stdin) fclose(f);
  fprintf(c->err, "boxlint: %s: out of memory\n", path);
  return -1;
}

/* ---- Output ------------------------------------------------------------------------------ */

static const char *sev_color(boxlint_severity s) {
  return s == BOXLINT_SEVERITY_ERROR ? "\033[1;31m" : s == BOXLINT_SEVERITY_WARNING ? "\033[1;33m" : "\033[1;36m";
}

/* The source line holding input offset `off` of `text`, for the caret display. */
static void print_source(cli *c, const char *text, size_t len, size_t off, size_t end,
                         uint32_t column) {
  if (!text || off > len) return;
  size_t s = off, e = off;
  while (s > 0 && text[s - 1] != '\n') s--;
  while (e < len && text[e] != '\n') e++;
  if (e > s && text[e - 1] == '\r') e--;
  fputs("    ", c->out);
  for (size_t i = s; i < e; i++) {
    unsigned char ch = (unsigned char)text[i];
    if (ch == '\t') fputc(' ', c->out);
    else if (ch < 0x20 || ch == 0x7f) fputc('?', c->out);
    else fputc(ch, c->out);
  }
  fputs("\n    ", c->out);
  for (uint32_t i = 1; i < column; i++) fputc(' ', c->out);
  size_t width = 0;
  for (size_t i = off; i < end && i < e; i++) width += ((unsigned char)text[i] & 0xC0) != 0x80;
  if (c->color) fputs("\033[1;32m", c->out);
  fputc('^', c->out);
  for (size_t i = 1; i < width && i < 200; i++) fputc('~', c->out);
  if (c->color) fputs("\033[0m", c->out);
  fputc('\n', c->out);
}

/* One linted unit: a fragment (text = the file, offsets are file offsets) or a command list
 * (texts[i] = command i, offsets are command offsets). */
typedef struct unit {
  const char *path;
  const char *file_text; size_t file_len;      /* fragments */
  const boxlint_span *cmds; size_t ncmds;      /* command lists */
} unit;

static json_t *diag_json(const boxlint_diag *d) {
  json_t *o = json_object();
  json_object_set_new(o, "rule", json_string(d->rule));
  json_object_set_new(o, "severity", json_string(boxlint_severity_str(d->severity)));
  json_object_set_new(o, "path", d->path ? json_string(d->path) : json_null());
  json_object_set_new(o, "command", d->command >= 0 ? json_integer(d->command) : json_null());
  json_object_set_new(o, "line", d->line ? json_integer(d->line) : json_null());
  json_object_set_new(o, "column", d->line ? json_integer(d->column) : json_null());
  json_object_set_new(o, "end_line", d->line ? json_integer(d->end_line) : json_null());
  json_object_set_new(o, "end_column", d->line ? json_integer(d->end_column) : json_null());
  json_object_set_new(o, "offset", json_integer((json_int_t)d->offset));
  json_object_set_new(o, "message", json_string(d->message));
  json_object_set_new(o, "hint", d->hint ? json_string(d->hint) : json_null());
  if (d->fix) {
    json_t *f = json_object();
    json_object_set_new(f, "description", json_string(d->fix->description));
    json_object_set_new(f, "offset", json_integer((json_int_t)d->fix->offset));
    json_object_set_new(f, "length", json_integer((json_int_t)d->fix->length));
    json_object_set_new(f, "replacement", json_stringn(d->fix->text, d->fix->text_len));
    json_object_set_new(o, "fix", f);
  } else {
    json_object_set_new(o, "fix", json_null());
  }
  json_object_set_new(o, "detail", d->detail ? json_string(d->detail) : json_null());
  return o;
}

static void report_unit(cli *c, const unit *u, const boxlint_report *r) {
  size_t nd = boxlint_report_diag_count(r);
  int has_error = boxlint_report_count_at_least(r, BOXLINT_SEVERITY_ERROR) > 0;
  if (boxlint_report_count_at_least(r, c->fail_on) > 0 && c->worst < EXIT_FINDINGS)
    c->worst = EXIT_FINDINGS;
  if (c->format == FMT_JSON) {
    json_t *f = json_object();
    json_object_set_new(f, "path", json_string(u->path));
    json_object_set_new(f, "ok", json_boolean(!has_error));
    json_t *cmds = json_array();
    for (size_t i = 0; i < boxlint_report_instruction_count(r); i++) {
      const boxlint_instruction *in = boxlint_report_instruction(r, i);
      json_t *o = json_object();
      json_object_set_new(o, "index", json_integer((json_int_t)i));
      if (in->keyword)
        json_object_set_new(o, "instruction", json_string(boxlint_keyword_name(in->keyword)));
      else if (in->keyword_text.len)
        json_object_set_new(o, "instruction", json_stringn(in->keyword_text.ptr, in->keyword_text.len));
      else
        json_object_set_new(o, "instruction", json_null());
      if (in->trigger)
        json_object_set_new(o, "trigger", json_string(boxlint_keyword_name(in->trigger)));
      json_object_set_new(o, "line", json_integer(in->line));
      json_object_set_new(o, "end_line", json_integer(in->end_line));
      json_array_append_new(cmds, o);
    }
    json_object_set_new(f, "commands", cmds);
    json_t *diags = json_array();
    for (size_t i = 0; i < nd; i++) json_array_append_new(diags, diag_json(boxlint_report_diag(r, i)));
    json_object_set_new(f, "diagnostics", diags);
    json_array_append_new(c->files, f);
    return;
  }
  for (size_t i = 0; i < nd; i++) {
    const boxlint_diag *d = boxlint_report_diag(r, i);
    const char *sev = boxlint_severity_str(d->severity);
    if (u->cmds && d->command >= 0)
      fprintf(c->out, "%s:commands[%d]:%u:%u: ", u->path, d->command, d->line, d->column);
    else if (d->line)
      fprintf(c->out, "%s:%u:%u: ", u->path, d->line, d->column);
    else
      fprintf(c->out, "%s: ", u->path);
    if (c->color) fprintf(c->out, "%s%s:\033[0m ", sev_color(d->severity), sev);
    else fprintf(c->out, "%s: ", sev);
    fprintf(c->out, "%s [%s]\n", d->message, d->rule);
    if (d->line) {
      if (u->cmds && d->command >= 0 && (size_t)d->command < u->ncmds)
        print_source(c, u->cmds[d->command].ptr, u->cmds[d->command].len, d->offset,
                     d->end_offset, d->column);
      else if (u->file_text)
        print_source(c, u->file_text, u->file_len, d->offset, d->end_offset, d->column);
    }
    if (d->hint) fprintf(c->out, "    %shint:%s %s\n", c->color ? "\033[1m" : "", c->color ? "\033[0m" : "", d->hint);
  }
}

/* ---- Linting ----------------------------------------------------------------------------- */

static int lint_commands(cli *c, const char *path, const boxlint_span *cmds, size_t n) {
  boxlint_report *r;
  if (boxlint_report_new(&r, NULL) != BOXLINT_OK) return -1;
  boxlint_status st = boxlint_check_commands(r, cmds, n, &c->opts);
  if (st != BOXLINT_OK) {
    fprintf(c->err, "boxlint: %s: %s\n", path, boxlint_status_str(st));
    boxlint_report_free(r);
    return -1;
  }
  unit u = {path, NULL, 0, cmds, n};
  report_unit(c, &u, r);
  boxlint_report_free(r);
  return 0;
}

static int lint_json(cli *c, const char *path, const char *buf, size_t len) {
  json_error_t e;
  json_t *root = json_loadb(buf, len, JSON_ALLOW_NUL, &e);
  if (!root) {
    fprintf(c->err, "boxlint: %s:%d:%d: invalid JSON: %s\n", path, e.line, e.column, e.text);
    return -1;
  }
  json_t *arr = root;
  if (json_is_object(root)) arr = json_object_get(root, "commands");
  if (!json_is_array(arr)) {
    fprintf(c->err, "boxlint: %s: expected a JSON array of command strings%s\n", path,
            json_is_object(root) ? " in \"commands\"" : "");
    json_decref(root);
    return -1;
  }
  size_t n = json_array_size(arr);
  boxlint_span *cmds = calloc(n ? n : 1, sizeof *cmds);
  if (!cmds) {
    json_decref(root);
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    json_t *s = json_array_get(arr, i);
    if (!json_is_string(s)) {
      fprintf(c->err, "boxlint: %s: commands[%zu] is not a string\n", path, i);
      free(cmds);
      json_decref(root);
      return -1;
    }
    cmds[i].ptr = json_string_value(s);
    cmds[i].len = json_string_length(s);
  }
  int rc = lint_commands(c, path, cmds, n);
  free(cmds);
  json_decref(root);
  return rc;
}

static int lint_fragment(cli *c, const char *path, const char *buf, size_t len) {
  boxlint_report *r;
  if (boxlint_report_new(&r, NULL) != BOXLINT_OK) return -1;
  boxlint_status st = boxlint_check_fragment(r, buf, len, &c->opts);
  if (st != BOXLINT_OK) {
    fprintf(c->err, "boxlint: %s: %s\n", path, boxlint_status_str(st));
    boxlint_report_free(r);
    return -1;
  }
  unit u = {path, buf, len, NULL, 0};
  report_unit(c, &u, r);
  boxlint_report_free(r);
  return 0;
}

static int looks_like_json(const char *path, const char *buf, size_t len) {
  size_t pl = strlen(path);
  if (pl >= 5 && !strcmp(path + pl - 5, ".json")) return 1;
  if (strcmp(path, "-")) return 0;
  for (size_t i = 0; i < len; i++) {
    if (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r') continue;
    return buf[i] == '[' || buf[i] == '{';
  }
  return 0;
}

static int lint_path(cli *c, const char *path) {
  char *buf;
  size_t len;
  if (read_input(c, path, &buf, &len)) return -1;
  int rc = looks_like_json(path, buf, len) ? lint_json(c, path, buf, len)
                                           : lint_fragment(c, path, buf, len);
  free(buf);
  return rc;
}

static int load_base(cli *c, const char *path) {
  char *buf;
  size_t len;
  if (read_input(c, path, &buf, &len)) return -1;
  boxlint_report *r;
  if (boxlint_report_new(&r, NULL) != BOXLINT_OK) {
    free(buf);
    return -1;
  }
  boxlint_base_info info;
  if (boxlint_check_base(&info, r, buf, len) != BOXLINT_OK) {
    fprintf(c->err, "boxlint: %s: out of memory\n", path);
    boxlint_report_free(r);
    free(buf);
    return -1;
  }
  c->opts.escape = info.escape;
  if (!info.appendable || boxlint_report_diag_count(r)) {
    unit u = {path, buf, len, NULL, 0};
    report_unit(c, &u, r);
  }
  boxlint_report_free(r);
  free(buf);
  return 0;
}

static int cmd_rules(cli *c) {
  size_t n;
  const boxlint_rule_info *r = boxlint_rules(&n);
  for (size_t i = 0; i < n; i++)
    fprintf(c->out, "%-28s %-8s %s\n", r[i].id, boxlint_severity_str(r[i].severity), r[i].summary);
  return EXIT_CLEAN;
}

static int cmd_explain(cli *c, const char *id) {
  const boxlint_rule_info *r = boxlint_rule_find(id, strlen(id));
  if (!r) {
    fprintf(c->err, "boxlint: unknown rule '%s' (see boxlint rules)\n", id);
    return EXIT_USAGE;
  }
  fprintf(c->out, "%s (%s): %s\n\n%s\n\nBad:\n    %s\nGood:\n    %s\n", r->id,
          boxlint_severity_str(r->severity), r->summary, r->description, r->bad, r->good);
  return EXIT_CLEAN;
}

int main(int argc, char **argv) {
  cli c;
  memset(&c, 0, sizeof c);
  c.out = stdout;
  c.err = stderr;
  c.fail_on = BOXLINT_SEVERITY_ERROR;
  boxlint_options_init(&c.opts);
  const char *nc = getenv("NO_COLOR");
  c.color = isatty(fileno(stdout)) && !(nc && *nc);

  int i = 1;
  if (i < argc && !strcmp(argv[i], "policy")) return boxlint_cli_policy(argc - i, argv + i, c.out, c.err);
  if (i < argc && !strcmp(argv[i], "rules")) return cmd_rules(&c);
  if (i < argc && !strcmp(argv[i], "explain")) {
    if (i + 1 >= argc) {
      fputs("boxlint: explain needs a rule id\n", c.err);
      return EXIT_USAGE;
    }
    return cmd_explain(&c, argv[i + 1]);
  }
  if (i < argc && (!strcmp(argv[i], "version") || !strcmp(argv[i], "--version"))) {
    fprintf(c.out, "boxlint %s\n", boxlint_version());
    return EXIT_CLEAN;
  }
  if (i < argc && !strcmp(argv[i], "lint")) i++;

  const char **paths = calloc((size_t)argc, sizeof *paths);
  boxlint_span *inline_cmds = calloc((size_t)argc, sizeof *inline_cmds);
  const char *base = NULL;
  size_t npaths = 0, ninline = 0;
  int rc = EXIT_CLEAN;
  if (!paths || !inline_cmds) {
    fputs("boxlint: out of memory\n", c.err);
    rc = EXIT_USAGE;
    goto done;
  }
  for (; i < argc; i++) {
    const char *a = argv[i];
    const char *val = NULL;
#define OPT_VALUE(name)                                                                   \
  (!strcmp(a, name) ? (i + 1 < argc ? (val = argv[++i], 1) : -1)                          \
                    : (!strncmp(a, name "=", sizeof(name)) ? (val = a + sizeof(name), 1) : 0))
    int m;
    if ((m = OPT_VALUE("--format")) != 0) {
      if (m < 0) goto missing;
      if (!strcmp(val, "text")) c.format = FMT_TEXT;
      else if (!strcmp(val, "json")) c.format = FMT_JSON;
      else {
        fprintf(c.err, "boxlint: unknown format '%s' (text, json)\n", val);
        rc = EXIT_USAGE;
        goto done;
      }
    } else if ((m = OPT_VALUE("--fail-on")) != 0) {
      if (m < 0) goto missing;
      if (!strcmp(val, "error")) c.fail_on = BOXLINT_SEVERITY_ERROR;
      else if (!strcmp(val, "warning")) c.fail_on = BOXLINT_SEVERITY_WARNING;
      else if (!strcmp(val, "info")) c.fail_on = BOXLINT_SEVERITY_INFO;
      else {
        fprintf(c.err, "boxlint: --fail-on takes error, warning or info, not '%s'\n", val);
        rc = EXIT_USAGE;
        goto done;
      }
    } else if ((m = OPT_VALUE("--base")) != 0) {
      if (m < 0) goto missing;
      base = val;
    } else if ((m = OPT_VALUE("-c")) != 0) {
      if (m < 0) goto missing;
      inline_cmds[ninline].ptr = val;
      inline_cmds[ninline].len = strlen(val);
      ninline++;
    } else if (!strcmp(a, "--no-color")) {
      c.color = 0;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(c.out);
      goto done;
    } else if (a[0] == '-' && a[1] != 0) {
      fprintf(c.err, "boxlint: unknown option '%s'\n", a);
      usage(c.err);
      rc = EXIT_USAGE;
      goto done;
    } else {
      paths[npaths++] = a;
    }
    continue;
  missing:
    fprintf(c.err, "boxlint: option '%s' needs a value\n", a);
    rc = EXIT_USAGE;
    goto done;
  }
  if (!npaths && !ninline) {
    usage(c.err);
    rc = EXIT_USAGE;
    goto done;
  }
  if (c.format == FMT_JSON) c.files = json_array();
  int io_error = 0;
  if (base && load_base(&c, base)) io_error = 1;
  if (ninline && lint_commands(&c, "<command-line>", inline_cmds, ninline)) io_error = 1;
  for (size_t k = 0; k < npaths; k++)
    if (lint_path(&c, paths[k])) io_error = 1;
  if (c.format == FMT_JSON) {
    json_t *root = json_object();
    json_object_set_new(root, "version", json_string(boxlint_version()));
    json_object_set_new(root, "files", c.files);
    c.files = NULL;
    json_dumpf(root, c.out, JSON_INDENT(2) | JSON_ENSURE_ASCII);
    fputc('\n', c.out);
    json_decref(root);
  }
  rc = io_error ? EXIT_USAGE : c.worst;
done:
  json_decref(c.files);
  free(paths);
  free(inline_cmds);
  return rc;
}

/* JSON output, the object docs/command.md documents: {"version", "files": [{"path", "ok", "commands",
 * "diagnostics"}]}, built with jansson (a file name that is not UTF-8: "path" with U+FFFD and
 * "path_bytes", its bytes as Latin-1 characters). Owns the JSON shapes: cli_diag_json (one
 * diagnostic, also used by `boxlint policy` for its own document), the commands list, the
 * document. Called by output.c and cmd/'s policy; calls out_position.c. */
#include <stdlib.h>
#include <string.h>
#include "output/out_int.h"

static json_t *jint_or_null(int has, json_int_t v) { return has ? json_integer(v) : json_null(); }

json_t *cli_diag_json(const unit *u, const boxlint_diag *d, boxlint_severity sev) {
  json_t *o = json_object();
  json_object_set_new(o, "rule", json_string(d->rule));
  json_object_set_new(o, "severity", json_string(boxlint_severity_str(sev)));
  json_object_set_new(o, "path", d->path ? json_string(d->path) : json_null());
  json_object_set_new(o, "command", d->command >= 0 ? json_integer(d->command) : json_null());
  if (d->line) {
    json_object_set_new(o, "line", json_integer(d->line));
    json_object_set_new(o, "column", json_integer(d->column));
    json_object_set_new(o, "end_line", json_integer(d->end_line));
    json_object_set_new(o, "end_column", json_integer(d->end_column));
    json_object_set_new(o, "offset", json_integer((json_int_t)d->offset));
  } else {
    /* A field's finding: its position in the file, when there is a file. */
    fpos p = {0, 0, 0, 0, 0, 0, 0};
    if (u) cli_position(u, d, &p);
    json_object_set_new(o, "line", jint_or_null(p.has, p.line));
    json_object_set_new(o, "column", jint_or_null(p.has, p.col));
    json_object_set_new(o, "end_line", jint_or_null(p.has, p.end_line));
    json_object_set_new(o, "end_column", jint_or_null(p.has, p.end_col));
    json_object_set_new(o, "offset", jint_or_null(p.has, (json_int_t)p.off));
  }
  /* Where the finding is in the file, as the text and SARIF formats and the editor show it
   * (for a command of a JSON template, "line" and "column" above are in the command). */
  if (u && u->text) {
    fpos f = {0, 0, 0, 0, 0, 0, 0};
    cli_position(u, d, &f);
    if (f.has)
      json_object_set_new(o, "file", json_pack("{sIsIsIsIsIsI}", "line", (json_int_t)f.line,
                                               "column", (json_int_t)f.col, "end_line",
                                               (json_int_t)f.end_line, "end_column",
                                               (json_int_t)f.end_col, "offset", (json_int_t)f.off,
                                               "end_offset", (json_int_t)f.end_off));
  }
  json_object_set_new(o, "message", json_string(d->message));
  json_object_set_new(o, "hint", d->hint ? json_string(d->hint) : json_null());
  if (d->fix) {
    json_t *f = json_object();
    json_object_set_new(f, "description", json_string(d->fix->description));
    json_object_set_new(f, "offset", json_integer((json_int_t)d->fix->offset));
    json_object_set_new(f, "length", json_integer((json_int_t)d->fix->length));
    json_object_set_new(f, "replacement", json_stringn(d->fix->text, d->fix->text_len));
    json_object_set_new(f, "applicability",
                        json_string(d->fix->safety == BOXLINT_FIX_SAFE ? "safe" : "unsafe"));
    json_object_set_new(o, "fix", f);
  } else {
    json_object_set_new(o, "fix", json_null());
  }
  json_object_set_new(o, "detail", d->detail ? json_string(d->detail) : json_null());
  return o;
}

static json_t *commands_json(const boxlint_report *r) {
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
  return cmds;
}

/* The length of the well-formed UTF-8 sequence at s[0, n) (as jansson checks it: no overlong
 * form, no surrogate, nothing above U+10FFFF), or 0 when s[0] does not start one. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
  unsigned char c = s[0], lo = 0x80, hi = 0xBF;
  size_t len;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) len = 2;
  else if (c >= 0xE0 && c <= 0xEF) len = 3;
  else if (c >= 0xF0 && c <= 0xF4) len = 4;
  else return 0;
  if (c == 0xE0) lo = 0xA0;
  else if (c == 0xED) hi = 0x9F;
  else if (c == 0xF0) lo = 0x90;
  else if (c == 0xF4) hi = 0x8F;
  if (n < len || s[1] < lo || s[1] > hi) return 0;
  for (size_t i = 2; i < len; i++)
    if (s[i] < 0x80 || s[i] > 0xBF) return 0;
  return len;
}

/* A file's "path" (docs/command.md: the JSON output): the name as a string when it is UTF-8. A name
 * that is not keeps "path", each byte that is not part of a UTF-8 character replaced by U+FFFD,
 * and adds "path_bytes": the exact bytes, one character per byte (U+0000 to U+00FF, so that
 * encoding the string as Latin-1 gives the bytes back). */
static void set_path(json_t *o, const char *path) {
  json_t *s = json_string(path);
  if (s) {
    json_object_set_new(o, "path", s);
    return;
  }
  const unsigned char *p = (const unsigned char *)path;
  size_t n = strlen(path);
  char *shown = malloc(3 * n + 1), *bytes = malloc(2 * n + 1);
  if (shown && bytes) {
    size_t a = 0, b = 0;
    for (size_t i = 0, k; i < n; i += k) {
      if ((k = utf8_seq(p + i, n - i))) {
        memcpy(shown + a, p + i, k);
        a += k;
      } else {
        memcpy(shown + a, "\xEF\xBF\xBD", 3);
        a += 3;
        k = 1;
      }
    }
    for (size_t i = 0; i < n; i++) { /* Latin-1 to UTF-8 */
      if (p[i] < 0x80) {
        bytes[b++] = (char)p[i];
      } else {
        bytes[b++] = (char)(0xC0 | (p[i] >> 6));
        bytes[b++] = (char)(0x80 | (p[i] & 0x3F));
      }
    }
    json_object_set_new(o, "path", json_stringn(shown, a));
    json_object_set_new(o, "path_bytes", json_stringn(bytes, b));
  }
  free(shown);
  free(bytes);
}

void out_json_begin(cli *c) { c->json_files = json_array(); }

void out_json_unit(cli *c, const unit *u, json_t *diags, int has_error) {
  json_t *f = json_object();
  set_path(f, u->path);
  json_object_set_new(f, "ok", json_boolean(!has_error));
  json_object_set_new(f, "commands", u->reports[0] ? commands_json(u->reports[0]) : json_array());
  json_object_set_new(f, "diagnostics", diags);
  json_array_append_new(c->json_files, f);
}

json_t *out_json_finish(cli *c) {
  json_t *root = json_object();
  json_object_set_new(root, "version", json_string(boxlint_version()));
  json_object_set_new(root, "files", c->json_files);
  c->json_files = NULL;
  return root;
}

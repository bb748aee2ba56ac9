/* Output formats: text (compiler style), json (DESIGN §5), sarif (2.1.0), github annotations.
 * JSON and SARIF are built with jansson, never by pasting strings. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "jsonpos.h"

boxlint_severity cli_severity(const unit *u, const boxlint_diag *d) {
  if (d->severity == BOXLINT_SEVERITY_ERROR) return d->severity;
  return boxlint_config_get_severity(u->config, d->rule, strlen(d->rule), d->severity);
}

/* Where a field's finding points in a JSON unit: the value its path names, from the root (a
 * template) or from the policy object with the "network_policy" prefix dropped (UNIT_POLICY), so
 * that an entry's finding points at the entry's string literal and a list's at the list. A
 * finding about the whole policy (path "network_policy": filtered-empty-is-open) points at its
 * "type" value, or at the object when there is no type. A path that is not in the file (a
 * missing deny_out) points at the start of its nearest ancestor that is, with an empty span.
 * Returns 0 when nothing could be found. */
static int field_span(const unit *u, const char *path, size_t *s, size_t *e) {
  size_t base = 0;
  const char *rel = path;
  if (u->kind == UNIT_POLICY) {
    if (u->policy_off == SIZE_MAX) return 0;
    base = u->policy_off;
    if (!strncmp(rel, "network_policy", 14) && (!rel[14] || rel[14] == '.' || rel[14] == '['))
      rel += 14;
  }
  int whole_policy = u->kind == UNIT_POLICY ? !*rel : !strcmp(rel, "network_policy");
  char buf[256];
  size_t n = strlen(rel);
  if (n >= sizeof buf) n = sizeof buf - 1;
  memcpy(buf, rel, n);
  buf[n] = 0;
  for (int exact = 1;; exact = 0) {
    size_t v = jp_path_at(u->text, u->len, base, buf);
    if (v != SIZE_MAX) {
      size_t t = exact && whole_policy ? jp_member(u->text, u->len, v, "type", NULL) : SIZE_MAX;
      if (t != SIZE_MAX) v = t;
      *s = v;
      *e = exact ? jp_skip(u->text, u->len, v) : v;
      return 1;
    }
    if (!n) return 0;
    while (n > 0 && buf[n - 1] != '.' && buf[n - 1] != '[') n--; /* drop the last component */
    if (n > 0) n--;
    buf[n] = 0;
  }
}

void cli_position(const unit *u, const boxlint_diag *d, fpos *p) {
  memset(p, 0, sizeof *p);
  if (u->kind == UNIT_FRAGMENT) {
    if (!d->line) return;
    p->has = 1;
    p->line = d->line;
    p->col = d->column;
    p->end_line = d->end_line;
    p->end_col = d->end_column;
    p->off = d->offset;
    p->end_off = d->end_offset;
    return;
  }
  if ((u->kind != UNIT_JSON && u->kind != UNIT_POLICY) || !u->text) return;
  size_t s = SIZE_MAX, e = SIZE_MAX;
  if (d->command >= 0 && u->cmds_off != SIZE_MAX) {
    size_t lit = jp_element(u->text, u->len, u->cmds_off, (size_t)d->command);
    if (lit == SIZE_MAX) lit = u->cmds_off;
    if (u->text[lit] == '"') {
      s = jp_string_offset(u->text, u->len, lit, d->offset);
      e = d->end_offset > d->offset ? jp_string_offset(u->text, u->len, lit, d->end_offset - 1) + 1 : s;
    } else {
      s = lit;
      e = jp_skip(u->text, u->len, lit);
    }
  } else if (!d->path || !field_span(u, d->path, &s, &e)) {
    /* Nowhere better: the start of the policy, or of the document. */
    s = jp_ws(u->text, u->len, u->kind == UNIT_POLICY && u->policy_off != SIZE_MAX ? u->policy_off : 0);
    e = s;
  }
  p->has = 1;
  p->off = s;
  p->end_off = e;
  jp_line_col(u->text, u->len, s, &p->line, &p->col);
  jp_line_col(u->text, u->len, e, &p->end_line, &p->end_col);
}

/* ---- text -------------------------------------------------------------------------------- */

static const char *sev_color(boxlint_severity s) {
  return s == BOXLINT_SEVERITY_ERROR     ? "\033[1;31m"
         : s == BOXLINT_SEVERITY_WARNING ? "\033[1;33m"
                                         : "\033[1;36m";
}

/* Byte ranges of the text being printed that hold secrets: never printed. */
typedef struct secrets {
  size_t s[64], e[64];
  int32_t cmd[64];
  size_t n;
} secrets;

static int in_secret(const secrets *sec, int32_t cmd, size_t i) {
  for (size_t k = 0; sec && k < sec->n; k++)
    if (sec->cmd[k] == cmd && i >= sec->s[k] && i < sec->e[k]) return 1;
  return 0;
}

/* The source line holding [off, end), with a caret under the span; bytes of a secret (of
 * command `cmd`, or -1 for file offsets) are printed as '*'. */
static void print_source(cli *c, const char *text, size_t len, size_t off, size_t end,
                         uint32_t column, const secrets *sec, int32_t cmd) {
  if (!text || off > len) return;
  size_t s = off, e = off;
  while (s > 0 && text[s - 1] != '\n') s--;
  while (e < len && text[e] != '\n') e++;
  if (e > s && text[e - 1] == '\r') e--;
  fputs("    ", c->out);
  for (size_t i = s; i < e && i < s + 400; i++) {
    unsigned char ch = (unsigned char)text[i];
    if (in_secret(sec, cmd, i)) {
      if ((ch & 0xC0) != 0x80) fputc('*', c->out);
      continue;
    }
    fputc(ch == '\t' ? ' ' : (ch < 0x20 || ch == 0x7f) ? '?' : ch, c->out);
  }
  fputs("\n    ", c->out);
  for (uint32_t i = 1; i < column && i < 400; i++) fputc(' ', c->out);
  size_t width = 0;
  for (size_t i = off; i < end && i < e; i++) width += ((unsigned char)text[i] & 0xC0) != 0x80;
  if (c->color) fputs("\033[1;32m", c->out);
  fputc('^', c->out);
  for (size_t i = 1; i < width && i < 200; i++) fputc('~', c->out);
  if (c->color) fputs("\033[0m", c->out);
  fputc('\n', c->out);
}

static void text_diag(cli *c, const unit *u, const boxlint_diag *d, boxlint_severity sev,
                      const secrets *sec) {
  fpos p;
  cli_position(u, d, &p);
  if (p.has)
    fprintf(c->out, "%s:%u:%u: ", u->path, p.line, p.col);
  else if (u->kind == UNIT_INLINE && d->command >= 0)
    fprintf(c->out, "%s:commands[%d]:%u:%u: ", u->path, d->command, d->line, d->column);
  else
    fprintf(c->out, "%s: ", u->path);
  const char *s = boxlint_severity_str(sev);
  if (c->color) fprintf(c->out, "%s%s:\033[0m ", sev_color(sev), s);
  else fprintf(c->out, "%s: ", s);
  fprintf(c->out, "%s [%s]\n", d->message, d->rule);
  if (p.has && u->text)
    print_source(c, u->text, u->len, p.off, p.end_off, p.col, sec, -1);
  else if (u->kind == UNIT_INLINE && d->command >= 0 && (size_t)d->command < u->ncmds && d->line)
    print_source(c, u->cmds[d->command].ptr, u->cmds[d->command].len, d->offset, d->end_offset,
                 d->column, sec, d->command);
  if (d->hint)
    fprintf(c->out, "    %shint:%s %s\n", c->color ? "\033[1m" : "", c->color ? "\033[0m" : "",
            d->hint);
}

/* ---- json -------------------------------------------------------------------------------- */

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

/* ---- sarif ------------------------------------------------------------------------------- */

static const char *sarif_level(boxlint_severity s) {
  return s == BOXLINT_SEVERITY_ERROR ? "error" : s == BOXLINT_SEVERITY_WARNING ? "warning" : "note";
}

static size_t sarif_rule_index(cli *c, const char *id) {
  json_t *idx = json_object_get(c->sarif_rules, id);
  if (idx) return (size_t)json_integer_value(idx);
  size_t i = json_array_size(c->sarif_rule_list);
  json_t *r = json_object();
  json_object_set_new(r, "id", json_string(id));
  const boxlint_rule_info *ri = boxlint_rule_find(id, strlen(id));
  if (ri) {
    json_t *sd = json_object(), *fd = json_object(), *help = json_object(), *dc = json_object();
    json_object_set_new(sd, "text", json_string(ri->summary));
    json_object_set_new(fd, "text", json_string(ri->description));
    char buf[2048];
    snprintf(buf, sizeof buf, "%s\n\nBad:\n    %s\nGood:\n    %s", ri->description, ri->bad, ri->good);
    json_object_set_new(help, "text", json_string(buf));
    json_object_set_new(dc, "level", json_string(sarif_level(ri->severity)));
    json_object_set_new(r, "shortDescription", sd);
    json_object_set_new(r, "fullDescription", fd);
    json_object_set_new(r, "help", help);
    json_object_set_new(r, "defaultConfiguration", dc);
  } else {
    json_t *sd = json_object(), *dc = json_object();
    json_object_set_new(sd, "text", json_string("user rule from the boxlint configuration"));
    json_object_set_new(r, "shortDescription", sd);
    json_object_set_new(r, "fullDescription", json_deep_copy(sd));
    json_object_set_new(r, "help", json_deep_copy(sd));
    json_object_set_new(dc, "level", json_string("warning"));
    json_object_set_new(r, "defaultConfiguration", dc);
  }
  json_array_append_new(c->sarif_rule_list, r);
  json_object_set_new(c->sarif_rules, id, json_integer((json_int_t)i));
  return i;
}

static json_t *sarif_region(const fpos *p) {
  json_t *reg = json_object();
  json_object_set_new(reg, "startLine", json_integer(p->line));
  json_object_set_new(reg, "startColumn", json_integer(p->col));
  json_object_set_new(reg, "endLine", json_integer(p->end_line));
  json_object_set_new(reg, "endColumn", json_integer(p->end_col > p->col || p->end_line > p->line ? p->end_col : p->col + 1));
  json_object_set_new(reg, "byteOffset", json_integer((json_int_t)p->off));
  json_object_set_new(reg, "byteLength", json_integer((json_int_t)(p->end_off - p->off)));
  return reg;
}

/* Artifact locations. SARIF 2.1.0 forbids a relative reference that begins with '/' (§3.4.3;
 * SARIF1004 in Microsoft's validator), so a file's path is never written as it was given:
 *   /abs/t.json         "uri": "file:///abs/t.json"                    (absolute URI, no base)
 *   t.json, ./a//t.json "uri": "t.json", "a/t.json", "uriBaseId": "%SRCROOT%"
 *   ../t.json           "uri": "file:///parent-of-cwd/t.json"
 * %SRCROOT% is the working directory (run.originalUriBaseIds, cli_finish), which is what relative
 * paths on the command line are relative to. "." and ".." segments are resolved lexically, as
 * any consumer resolving the reference against its base would (RFC 3986 §5.2.4), so `a/../t.json`
 * is `t.json`. A path that climbs out of the working directory ("../t.json") would be a legal
 * relative reference, but GitHub code scanning takes relative URIs as paths from the repository
 * root, where "../" matches nothing; as an absolute file:// URI it is rebased onto the checkout
 * (made relative) whenever it lies inside it, which is right when boxlint runs in a
 * subdirectory. Every byte other than an unreserved character or the '/' between segments is
 * percent-encoded (space %20, % %25, # %23, ? %3F, : %3A, each byte of a UTF-8 character), so a
 * file name is never read as a scheme, query or fragment, and file names that are not UTF-8
 * still give an ASCII URI. */

/* Writes bytes [s, s+n) to `out` percent-encoded (RFC 3986 §2.1, upper-case hex): A-Z a-z 0-9
 * - . _ ~ and '/' stay. `out` has room for 3n bytes; returns the bytes written. */
static size_t uri_encode(char *out, const char *s, size_t n) {
  static const char hex[] = "0123456789ABCDEF";
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
        ch == '-' || ch == '.' || ch == '_' || ch == '~' || ch == '/') {
      out[o++] = (char)ch;
    } else {
      out[o++] = '%';
      out[o++] = hex[ch >> 4];
      out[o++] = hex[ch & 15];
    }
  }
  return o;
}

/* Path `p` (n bytes) with empty and "." segments dropped and each ".." taking out the segment
 * before it. `abs`: the result starts with '/' and ".." stops at the root (POSIX: "/.." is "/");
 * otherwise the ".." that climb above the start are kept ("../../x"). Never longer than the
 * input: `out` has room for n + 1 bytes. Returns the length (0: a relative path to "."). */
static size_t path_normalize(char *out, const char *p, size_t n, int abs) {
  size_t o = 0, base;
  if (abs) out[o++] = '/';
  base = o;
  for (size_t i = 0; i < n;) {
    while (i < n && p[i] == '/') i++;
    size_t s = i;
    while (i < n && p[i] != '/') i++;
    size_t len = i - s;
    if (len == 0 || (len == 1 && p[s] == '.')) continue;
    if (len == 2 && p[s] == '.' && p[s + 1] == '.') {
      size_t last = o; /* the last segment kept is out[last, o) */
      while (last > base && out[last - 1] != '/') last--;
      if (o > base && !(o - last == 2 && out[last] == '.' && out[last + 1] == '.')) {
        o = last > base ? last - 1 : base;
        continue;
      }
      if (abs) continue;
    }
    if (o > base) out[o++] = '/';
    memcpy(out + o, p + s, len);
    o += len;
  }
  return o;
}

/* The working directory (malloc'd), or NULL: out of memory, or it has no name (removed). */
static char *cwd_dup(void) {
  for (size_t cap = 256; cap <= ((size_t)1 << 20); cap *= 2) {
    char *b = malloc(cap);
    if (!b) return NULL;
    if (getcwd(b, cap)) return b;
    free(b);
    if (errno != ERANGE) return NULL;
  }
  return NULL;
}

/* "file://" + the absolute path `p` (n bytes) normalised and percent-encoded, ending in '/' when
 * `dir` (a base URI must, SARIF §3.14.14). NULL when out of memory. */
static json_t *file_uri(const char *p, size_t n, int dir) {
  if (n > SIZE_MAX / 4 - 16) return NULL;
  char *norm = malloc(n + 2), *uri = malloc(3 * n + 16);
  json_t *s = NULL;
  if (norm && uri) {
    size_t nl = path_normalize(norm, p, n, 1);
    memcpy(uri, "file://", 7);
    size_t ul = 7 + uri_encode(uri + 7, norm, nl);
    if (dir && uri[ul - 1] != '/') uri[ul++] = '/';
    s = json_stringn(uri, ul);
  }
  free(norm);
  free(uri);
  return s;
}

json_t *cli_sarif_artifact(const char *path) {
  if (!path || !*path || !strcmp(path, "-")) return NULL;
  size_t n = strlen(path);
  if (n > SIZE_MAX / 4 - 16) return NULL;
  json_t *a = json_object(), *uri = NULL;
  int based = 0;
  if (path[0] == '/') {
    uri = file_uri(path, n, 0);
  } else {
    char *rel = malloc(n + 1), *enc = malloc(3 * n + 2);
    size_t rl = rel && enc ? path_normalize(rel, path, n, 0) : 0;
    int climbs = rl >= 2 && rel[0] == '.' && rel[1] == '.' && (rl == 2 || rel[2] == '/');
    if (!rel || !enc) {
      /* out of memory: no location */
    } else if (climbs) {
      char *cwd = cwd_dup(), *full = NULL;
      size_t cl = cwd ? strlen(cwd) : 0;
      if (cwd && cl <= SIZE_MAX / 8 - n && (full = malloc(cl + 1 + rl))) {
        memcpy(full, cwd, cl);
        full[cl] = '/';
        memcpy(full + cl + 1, rel, rl);
        uri = file_uri(full, cl + 1 + rl, 0);
      }
      free(cwd);
      free(full);
    } else {
      /* "." (an empty result) cannot name a file that was read; spelled out all the same */
      uri = rl ? json_stringn(enc, uri_encode(enc, rel, rl)) : json_string(".");
      based = 1;
    }
    free(rel);
    free(enc);
  }
  if (!a || !uri) {
    json_decref(a);
    json_decref(uri);
    return NULL;
  }
  if (json_object_set_new(a, "uri", uri) ||
      (based && json_object_set_new(a, "uriBaseId", json_string("%SRCROOT%")))) {
    json_decref(a);
    return NULL;
  }
  return a;
}

/* Standard input and commands given with -c are no artifact a consumer could open: their results
 * have no physicalLocation (a made-up "stdin" relative to %SRCROOT% would name a file that does
 * not exist, and an artifactLocation needs a uri or an index, §3.4); the location's message
 * says where instead, with the line and column, and the logical location names the command. */
static json_t *unit_artifact(const unit *u) {
  return u->kind == UNIT_INLINE ? NULL : cli_sarif_artifact(u->path);
}

/* run.originalUriBaseIds: %SRCROOT% is the working directory as a file:// URI ending in '/'.
 * NULL when the working directory has no name (then a consumer has to be told the base). */
static json_t *sarif_base_ids(void) {
  char *cwd = cwd_dup();
  json_t *uri = cwd ? file_uri(cwd, strlen(cwd), 1) : NULL;
  free(cwd);
  if (!uri) return NULL;
  json_t *ids = json_object(), *root = json_object(), *desc = json_object();
  json_object_set_new(desc, "text", json_string("The working directory boxlint ran in: the files "
                                                "named on its command line by relative paths."));
  json_object_set_new(root, "uri", uri);
  json_object_set_new(root, "description", desc);
  json_object_set_new(ids, "%SRCROOT%", root);
  return ids;
}

/* A SARIF fix: the fix's byte range mapped into the file (JSON strings escape the text). */
static json_t *sarif_fix(const unit *u, const boxlint_diag *d) {
  if (!d->fix || !u->text) return NULL;
  size_t s, e;
  json_t *text;
  if (u->kind == UNIT_FRAGMENT) {
    s = d->fix->offset;
    e = s + d->fix->length;
    text = json_stringn(d->fix->text, d->fix->text_len);
  } else if (u->kind == UNIT_JSON && d->command >= 0 && u->cmds_off != SIZE_MAX) {
    size_t lit = jp_element(u->text, u->len, u->cmds_off, (size_t)d->command);
    if (lit == SIZE_MAX || u->text[lit] != '"') return NULL;
    s = jp_string_offset(u->text, u->len, lit, d->fix->offset);
    e = d->fix->length ? jp_string_offset(u->text, u->len, lit, d->fix->offset + d->fix->length - 1) + 1 : s;
    json_t *tmp = json_stringn(d->fix->text, d->fix->text_len);
    char *enc = json_dumps(tmp, JSON_ENCODE_ANY);
    json_decref(tmp);
    if (!enc) return NULL;
    size_t el = strlen(enc);
    text = json_stringn(enc + 1, el >= 2 ? el - 2 : 0); /* without the quotes */
    free(enc);
  } else {
    return NULL;
  }
  /* Standard input: no artifact to change (the JSON output still has the fix). */
  json_t *art = unit_artifact(u);
  if (!art) {
    json_decref(text);
    return NULL;
  }
  json_t *del = json_object(), *ins = json_object(), *rep = json_object(), *ch = json_object();
  json_object_set_new(del, "byteOffset", json_integer((json_int_t)s));
  json_object_set_new(del, "byteLength", json_integer((json_int_t)(e - s)));
  json_object_set_new(ins, "text", text);
  json_object_set_new(rep, "deletedRegion", del);
  json_object_set_new(rep, "insertedContent", ins);
  json_t *reps = json_array();
  json_array_append_new(reps, rep);
  json_object_set_new(ch, "artifactLocation", art);
  json_object_set_new(ch, "replacements", reps);
  json_t *changes = json_array();
  json_array_append_new(changes, ch);
  json_t *fix = json_object(), *desc = json_object();
  json_object_set_new(desc, "text", json_string(d->fix->description));
  json_object_set_new(fix, "description", desc);
  json_object_set_new(fix, "artifactChanges", changes);
  json_t *fixes = json_array();
  json_array_append_new(fixes, fix);
  return fixes;
}

static void sarif_diag(cli *c, const unit *u, const boxlint_diag *d, boxlint_severity sev) {
  json_t *res = json_object(), *msg = json_object();
  json_object_set_new(res, "ruleId", json_string(d->rule));
  json_object_set_new(res, "ruleIndex", json_integer((json_int_t)sarif_rule_index(c, d->rule)));
  json_object_set_new(res, "level", json_string(sarif_level(sev)));
  char buf[4096];
  snprintf(buf, sizeof buf, "%s%s%s", d->message, d->hint ? "\nhint: " : "", d->hint ? d->hint : "");
  json_object_set_new(msg, "text", json_string(buf));
  json_object_set_new(res, "message", msg);
  fpos p;
  cli_position(u, d, &p);
  json_t *art = unit_artifact(u), *loc = json_object(), *locs = json_array();
  if (art) {
    json_t *phys = json_object();
    json_object_set_new(phys, "artifactLocation", art);
    if (p.has) json_object_set_new(phys, "region", sarif_region(&p));
    json_object_set_new(loc, "physicalLocation", phys);
  } else {
    /* standard input or -c (unit_artifact): where, in words; -c positions are the command's */
    const char *where = u->kind == UNIT_INLINE ? "the command line (-c)" : "standard input";
    uint32_t line = p.has ? p.line : u->kind == UNIT_INLINE ? d->line : 0;
    uint32_t col = p.has ? p.col : d->column;
    json_t *lm = json_object();
    char text[128];
    if (line) snprintf(text, sizeof text, "%s, line %u, column %u", where, line, col);
    else snprintf(text, sizeof text, "%s", where);
    json_object_set_new(lm, "text", json_string(text));
    json_object_set_new(loc, "message", lm);
  }
  if (d->path || d->command >= 0) {
    json_t *ll = json_array(), *l = json_object();
    char name[256];
    if (d->path) snprintf(name, sizeof name, "%s", d->path);
    else snprintf(name, sizeof name, "commands[%d]", d->command);
    json_object_set_new(l, "fullyQualifiedName", json_string(name));
    json_array_append_new(ll, l);
    json_object_set_new(loc, "logicalLocations", ll);
  }
  json_array_append_new(locs, loc);
  json_object_set_new(res, "locations", locs);
  json_t *fixes = sarif_fix(u, d);
  if (fixes) json_object_set_new(res, "fixes", fixes);
  json_array_append_new(c->sarif_results, res);
}

/* ---- github ------------------------------------------------------------------------------ */

static void gh_escape(FILE *f, const char *s, int property) {
  for (; *s; s++) {
    if (*s == '%') fputs("%25", f);
    else if (*s == '\r') fputs("%0D", f);
    else if (*s == '\n') fputs("%0A", f);
    else if (property && *s == ':') fputs("%3A", f);
    else if (property && *s == ',') fputs("%2C", f);
    else fputc(*s, f);
  }
}

static void github_diag(cli *c, const unit *u, const boxlint_diag *d, boxlint_severity sev) {
  fpos p;
  cli_position(u, d, &p);
  fprintf(c->out, "::%s file=", sev == BOXLINT_SEVERITY_ERROR ? "error"
                                : sev == BOXLINT_SEVERITY_WARNING ? "warning" : "notice");
  gh_escape(c->out, u->path, 1);
  if (p.has)
    fprintf(c->out, ",line=%u,col=%u,endLine=%u,endColumn=%u", p.line, p.col, p.end_line,
            p.end_col);
  fputs(",title=", c->out);
  gh_escape(c->out, d->rule, 1);
  fputs("::", c->out);
  gh_escape(c->out, d->message, 0);
  if (d->hint) {
    fputs("%0Ahint: ", c->out);
    gh_escape(c->out, d->hint, 0);
  }
  fputc('\n', c->out);
}

/* ---- driver ------------------------------------------------------------------------------ */

void cli_begin(cli *c) {
  if (c->format == FMT_JSON) c->json_files = json_array();
  if (c->format == FMT_SARIF) {
    c->sarif_results = json_array();
    c->sarif_rules = json_object();
    c->sarif_rule_list = json_array();
  }
}

void cli_emit_unit(cli *c, const unit *u) {
  int has_error = 0;
  secrets sec;
  sec.n = 0;
  if (c->format == FMT_TEXT) {
    for (int k = 0; k < 2; k++)
      for (size_t i = 0; u->reports[k] && i < boxlint_report_diag_count(u->reports[k]); i++) {
        const boxlint_diag *d = boxlint_report_diag(u->reports[k], i);
        if (strcmp(d->rule, "secret-in-command") || sec.n == 64) continue;
        fpos p;
        cli_position(u, d, &p);
        if (p.has) {
          sec.s[sec.n] = p.off;
          sec.e[sec.n] = p.end_off;
          sec.cmd[sec.n] = -1;
        } else {
          sec.s[sec.n] = d->offset;
          sec.e[sec.n] = d->end_offset;
          sec.cmd[sec.n] = d->command;
        }
        sec.n++;
      }
  }
  json_t *diags = c->format == FMT_JSON ? json_array() : NULL;
  for (int k = 0; k < 3; k++) { /* the two reports, then the unit's own findings */
    const boxlint_report *r = k < 2 ? u->reports[k] : NULL;
    size_t n = r ? boxlint_report_diag_count(r) : k == 2 ? u->nextra : 0;
    for (size_t i = 0; i < n; i++) {
      const boxlint_diag *d = r ? boxlint_report_diag(r, i) : &u->extra[i];
      boxlint_severity sev = cli_severity(u, d);
      if (sev == BOXLINT_SEVERITY_OFF) continue;
      has_error |= sev == BOXLINT_SEVERITY_ERROR;
      if (sev >= c->fail_on && c->worst < EXIT_FINDINGS) c->worst = EXIT_FINDINGS;
      switch (c->format) {
      case FMT_TEXT: text_diag(c, u, d, sev, &sec); break;
      case FMT_JSON: json_array_append_new(diags, cli_diag_json(u, d, sev)); break;
      case FMT_SARIF: sarif_diag(c, u, d, sev); break;
      case FMT_GITHUB: github_diag(c, u, d, sev); break;
      }
    }
  }
  if (c->format == FMT_JSON) {
    json_t *f = json_object();
    json_object_set_new(f, "path", json_string(u->path));
    json_object_set_new(f, "ok", json_boolean(!has_error));
    json_object_set_new(f, "commands", u->reports[0] ? commands_json(u->reports[0]) : json_array());
    json_object_set_new(f, "diagnostics", diags);
    json_array_append_new(c->json_files, f);
  }
}

void cli_finish(cli *c) {
  json_t *root = NULL;
  if (c->format == FMT_JSON) {
    root = json_object();
    json_object_set_new(root, "version", json_string(boxlint_version()));
    json_object_set_new(root, "files", c->json_files);
    c->json_files = NULL;
  } else if (c->format == FMT_SARIF) {
    json_t *driver = json_object(), *tool = json_object(), *run = json_object(),
           *runs = json_array();
    json_object_set_new(driver, "name", json_string("boxlint"));
    json_object_set_new(driver, "version", json_string(boxlint_version()));
    json_object_set_new(driver, "semanticVersion", json_string(boxlint_version()));
    json_object_set_new(driver, "rules", c->sarif_rule_list);
    json_object_set_new(tool, "driver", driver);
    json_object_set_new(run, "tool", tool);
    json_t *bases = sarif_base_ids();
    if (bases) json_object_set_new(run, "originalUriBaseIds", bases);
    json_object_set_new(run, "results", c->sarif_results);
    json_object_set_new(run, "columnKind", json_string("unicodeCodePoints"));
    json_array_append_new(runs, run);
    root = json_object();
    json_object_set_new(root, "$schema", json_string("https://json.schemastore.org/sarif-2.1.0.json"));
    json_object_set_new(root, "version", json_string("2.1.0"));
    json_object_set_new(root, "runs", runs);
    c->sarif_results = c->sarif_rule_list = NULL;
    json_decref(c->sarif_rules);
    c->sarif_rules = NULL;
  }
  if (root) {
    json_dumpf(root, c->out, JSON_INDENT(2) | JSON_ENSURE_ASCII);
    fputc('\n', c->out);
    json_decref(root);
  }
}

/* SARIF 2.1.0 output, for code-scanning services: one run whose driver lists the rules used,
 * results with physical locations (artifact URI and region), logical locations (the command or
 * the field) and fixes as artifact changes. Owns the SARIF log and its artifact locations (file
 * paths as URIs relative to %SRCROOT%, the working directory, or as file:// URIs). Called by
 * output.c; calls out_position.c and jsonpos.c (a fix's range inside a JSON string literal). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output/out_int.h"

static const char *sarif_level(boxlint_severity s) {
  return s == BOXLINT_SEVERITY_ERROR ? "error" : s == BOXLINT_SEVERITY_WARNING ? "warning" : "note";
}

/* helpUri: the rule's page, docs/rules/<id>.md under BOXLINT_HELP_URL (the docs/ directory, set
 * by CMake); a user rule links to where user rules are described. */
static json_t *sarif_help_uri(const char *id, int builtin) {
  return builtin ? json_sprintf("%s/rules/%s.md", BOXLINT_HELP_URL, id)
                 : json_sprintf("%s/configuration.md#user-rules", BOXLINT_HELP_URL);
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
    json_object_set_new(r, "helpUri", sarif_help_uri(id, 1));
    json_object_set_new(r, "defaultConfiguration", dc);
  } else {
    json_t *sd = json_object(), *dc = json_object();
    json_object_set_new(sd, "text", json_string("user rule from the boxlint configuration"));
    json_object_set_new(r, "shortDescription", sd);
    json_object_set_new(r, "fullDescription", json_deep_copy(sd));
    json_object_set_new(r, "help", json_deep_copy(sd));
    json_object_set_new(r, "helpUri", sarif_help_uri(id, 0));
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
 * %SRCROOT% is the working directory (run.originalUriBaseIds, out_sarif_finish), which is what
 * relative paths on the command line are relative to. "." and ".." segments are resolved
 * lexically, as any consumer resolving the reference against its base would (RFC 3986 §5.2.4), so
 * `a/../t.json` is `t.json`. A path that climbs out of the working directory ("../t.json") would be a legal
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

/* The artifactLocation of the file `path` names, for results and fixes alike: an absolute path
 * as a file:// URI, a relative one as a relative reference with "uriBaseId": "%SRCROOT%" (the
 * working directory, which out_sarif_finish declares in run.originalUriBaseIds),
 * percent-encoded. NULL for "-" (standard input: no artifact; leave physicalLocation out) and
 * when out of memory. The caller owns the result. */
static json_t *sarif_artifact(const char *path) {
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
  return u->kind == UNIT_INLINE ? NULL : sarif_artifact(u->path);
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
  if (u->kind == UNIT_FRAGMENT || u->kind == UNIT_PYTHON) {
    s = d->fix->offset;
    e = s + d->fix->length;
    text = json_stringn(d->fix->text, d->fix->text_len);
  } else if (u->kind == UNIT_JSON && d->command >= 0 && u->cmds_off != SIZE_MAX) {
    size_t lit = cli_command_literal(u, d->command);
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
  /* An unsafe fix says so where a viewer shows it (the description) and in the property bag. */
  int safe = d->fix->safety == BOXLINT_FIX_SAFE;
  json_t *fix = json_object(), *desc = json_object(), *props = json_object();
  char dt[1024];
  snprintf(dt, sizeof dt, "%s%s", d->fix->description ? d->fix->description : "",
           safe ? "" : " (unsafe: applied by boxlint --fix only with --unsafe-fixes)");
  json_object_set_new(desc, "text", json_string(dt));
  json_object_set_new(props, "applicability", json_string(safe ? "safe" : "unsafe"));
  json_object_set_new(fix, "description", desc);
  json_object_set_new(fix, "artifactChanges", changes);
  json_object_set_new(fix, "properties", props);
  json_t *fixes = json_array();
  json_array_append_new(fixes, fix);
  return fixes;
}

void out_sarif_diag(cli *c, const unit *u, const boxlint_diag *d,
                    boxlint_severity sev) {
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

void out_sarif_begin(cli *c) {
  c->sarif_results = json_array();
  c->sarif_rules = json_object();
  c->sarif_rule_list = json_array();
}

json_t *out_sarif_finish(cli *c) {
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
  json_t *root = json_object();
  json_object_set_new(root, "$schema", json_string("https://json.schemastore.org/sarif-2.1.0.json"));
  json_object_set_new(root, "version", json_string("2.1.0"));
  json_object_set_new(root, "runs", runs);
  c->sarif_results = c->sarif_rule_list = NULL;
  json_decref(c->sarif_rules);
  c->sarif_rules = NULL;
  return root;
}

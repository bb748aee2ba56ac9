/* Reading a .json input into what the library takes: a template object {name, commands,
 * cpu_count, memory_mb, network_policy} into a boxlint_template, a bare array into command
 * spans, a template's network_policy into a boxlint_policy_spec. Every span points into the
 * jansson tree (kept in loaded_json); a malformed value is a problem record (problem.c) at its
 * line and column in the file. Owns the JSON-to-spans step only: it runs no check and prints no
 * finding; what the root is comes from kind.c (cli_json_kind). Called by lint_run.c and
 * render_cmd.c; calls kind.c, problem.c, jsonpos.c and jansson. */
#include <stdlib.h>
#include <string.h>
#include "input/input.h"

void cli_loaded_free(loaded_json *l) {
  free(l->cmds);
  free(l->extra);
  free(l->policy_lists[0]);
  free(l->policy_lists[1]);
  json_decref(l->root);
  memset(l, 0, sizeof *l);
}

/* Malformed input: a problem "invalid-input" at offset `off` (the start of the file when
 * `off` is SIZE_MAX), printed as `boxlint: path:line:column: what`. */
static void bad_input(cli *c, const char *path, const char *text, size_t len, size_t off,
                      const char *what) {
  uint32_t line = 1, col = 1;
  if (off != SIZE_MAX) jp_line_col(text, len, off, &line, &col);
  cli_problemf(c, path, line, col, off == SIZE_MAX ? 0 : off, "invalid-input", "%s", what);
}

static int load_commands(cli *c, const char *path, const char *text, size_t len, json_t *arr,
                         size_t arr_off, loaded_json *l) {
  size_t n = json_array_size(arr);
  l->cmds = calloc(n ? n : 1, sizeof *l->cmds);
  if (!l->cmds) return -1;
  for (size_t i = 0; i < n; i++) {
    json_t *s = json_array_get(arr, i);
    if (!json_is_string(s)) {
      char msg[96];
      snprintf(msg, sizeof msg, "commands[%zu] must be a string, not %s", i,
               json_is_integer(s) || json_is_real(s) ? "a number"
               : json_is_null(s) ? "null" : json_is_boolean(s) ? "a boolean"
               : json_is_array(s) ? "an array" : "an object");
      bad_input(c, path, text, len, jp_element(text, len, arr_off, i), msg);
      return -1;
    }
    l->cmds[i].ptr = json_string_value(s);
    l->cmds[i].len = json_string_length(s);
  }
  l->ncmds = n;
  l->cmds_off = arr_off;
  return 0;
}

/* cpu_count, memory_mb: an integer as its value; anything else as written (the library says
 * what is wrong with it). */
static void number_field(json_t *v, boxlint_number *out, char *buf, size_t cap) {
  if (!v) return;
  out->present = 1;
  if (json_is_integer(v)) {
    out->is_integer = 1;
    out->value = (int64_t)json_integer_value(v);
    return;
  }
  char *s = json_dumps(v, JSON_ENCODE_ANY);
  snprintf(buf, cap, "%s", s ? s : "this value");
  free(s);
  out->text = buf;
}

/* Is `key` the library's template field `i` (0 name, 1 commands, 2 cpu_count, 3 memory_mb,
 * 4 network_policy) or binding field (0 template_id, 1 version, 2 lifespan_seconds)? */
static int tfield(const char *key, size_t i) { return !strcmp(key, boxlint_template_field(i)); }
static int bfield(const char *key, size_t i) { return !strcmp(key, boxlint_binding_field(i)); }

/* One member of a template object (`vo`: its value's offset). Returns 0, or -1 (printed). */
static int load_template_field(cli *c, const char *path, const char *text, size_t len,
                               const char *key, json_t *v, size_t vo, loaded_json *l) {
  boxlint_template *t = &l->tpl;
  if (tfield(key, 0)) {
    if (!json_is_string(v)) {
      bad_input(c, path, text, len, vo, "\"name\" must be a string");
      return -1;
    }
    t->has_name = 1;
    t->name.ptr = json_string_value(v);
    t->name.len = json_string_length(v);
  } else if (tfield(key, 1)) {
    if (!json_is_array(v)) {
      bad_input(c, path, text, len, vo, "\"commands\" must be an array of strings");
      return -1;
    }
    if (load_commands(c, path, text, len, v, vo, l)) return -1;
    t->has_commands = 1;
  } else if (tfield(key, 2)) {
    number_field(v, &t->cpu_count, l->num_text[0], sizeof l->num_text[0]);
  } else if (tfield(key, 3)) {
    number_field(v, &t->memory_mb, l->num_text[1], sizeof l->num_text[1]);
  } else if (tfield(key, 4)) {
    if (!json_is_object(v) && !json_is_null(v)) {
      bad_input(c, path, text, len, vo, "\"network_policy\" must be an object");
      return -1;
    }
    if (json_is_object(v)) {
      l->policy = v;
      l->policy_off = vo;
    }
  } else {
    l->extra[t->nextra_fields].ptr = key;
    l->extra[t->nextra_fields].len = strlen(key);
    t->nextra_fields++;
  }
  return 0;
}

/* One member of a binding object (`vo`: its value's offset). Returns 0, or -1 (printed). */
static int load_binding_field(cli *c, const char *path, const char *text, size_t len,
                              const char *key, json_t *v, size_t vo, loaded_json *l) {
  boxlint_binding *b = &l->bind;
  if (bfield(key, 0)) {
    b->has_template_id = 1;
    if (json_is_string(v)) {
      b->template_id.ptr = json_string_value(v);
      b->template_id.len = json_string_length(v);
    } else {
      char *t = json_dumps(v, JSON_ENCODE_ANY);
      snprintf(l->tid_text, sizeof l->tid_text, "%s", t ? t : "this value");
      free(t);
      b->template_id_not_string = 1;
      b->template_text = l->tid_text;
    }
  } else if (bfield(key, 1)) {
    number_field(v, &b->version, l->num_text[0], sizeof l->num_text[0]);
  } else if (bfield(key, 2)) {
    number_field(v, &b->lifespan_seconds, l->num_text[1], sizeof l->num_text[1]);
  } else if (tfield(key, 4)) {
    return load_template_field(c, path, text, len, key, v, vo, l);
  } else {
    l->extra[l->tpl.nextra_fields].ptr = key;
    l->extra[l->tpl.nextra_fields].len = strlen(key);
    l->tpl.nextra_fields++;
  }
  return 0;
}

int cli_load_json(cli *c, const char *path, const char *text, size_t len, loaded_json *l) {
  memset(l, 0, sizeof *l);
  json_error_t e;
  l->root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &e);
  if (!l->root) {
    cli_problemf(c, path, (uint32_t)(e.line > 0 ? e.line : 0),
                 (uint32_t)(e.column > 0 ? e.column : 0),
                 SIZE_MAX, /* jansson's line and column: where the bad token starts */
                 "invalid-input", "invalid JSON: %s", e.text);
    return -1;
  }
  size_t root_off = jp_ws(text, len, 0);
  cli_kind k = cli_json_kind(l->root, 0); /* kind.c: the one decision */
  l->kind = LJ_COMMANDS;
  if (k == CLI_KIND_COMMANDS) return load_commands(c, path, text, len, l->root, root_off, l);
  if (!json_is_object(l->root)) {
    bad_input(c, path, text, len, root_off,
              "expected a template object or an array of command strings");
    return -1;
  }
  l->cmds_off = SIZE_MAX;
  l->extra = calloc(json_object_size(l->root) + 1, sizeof *l->extra);
  if (!l->extra) return -1;
  l->kind = k == CLI_KIND_BINDING ? LJ_BINDING : k == CLI_KIND_POLICY ? LJ_POLICY : LJ_TEMPLATE;
  l->is_template = l->kind == LJ_TEMPLATE;
  if (l->kind == LJ_POLICY) {
    l->policy = l->root;
    l->policy_off = root_off;
    return 0;
  }
  const char *key;
  json_t *v;
  json_object_foreach(l->root, key, v) {
    size_t vo = jp_member(text, len, root_off, key, NULL);
    if (l->kind == LJ_BINDING ? load_binding_field(c, path, text, len, key, v, vo, l)
                              : load_template_field(c, path, text, len, key, v, vo, l))
      return -1;
  }
  l->bind.extra_fields = l->extra;
  l->bind.nextra_fields = l->kind == LJ_BINDING ? l->tpl.nextra_fields : 0;
  l->tpl.extra_fields = l->extra;
  l->tpl.commands = l->cmds;
  l->tpl.ncommands = l->ncmds;
  return 0;
}

/* network_policy.allow_out or .deny_out (absent or null: empty) into l->policy_lists[k]. */
static int load_policy_list(cli *c, const char *path, const char *text, size_t len,
                            loaded_json *l, int k, size_t *count) {
  static const char *const names[2] = {"allow_out", "deny_out"};
  json_t *a = json_object_get(l->policy, names[k]);
  if (!a || json_is_null(a)) return 0;
  size_t ao = jp_member(text, len, l->policy_off, names[k], NULL);
  if (!json_is_array(a)) {
    char msg[96];
    snprintf(msg, sizeof msg, "\"network_policy.%s\" must be an array of strings", names[k]);
    bad_input(c, path, text, len, ao, msg);
    return -1;
  }
  *count = json_array_size(a);
  boxlint_span *list = calloc(*count ? *count : 1, sizeof *list);
  if (!list) return -1;
  l->policy_lists[k] = list;
  for (size_t i = 0; i < *count; i++) {
    json_t *s = json_array_get(a, i);
    if (!json_is_string(s)) {
      char msg[96];
      snprintf(msg, sizeof msg, "network_policy.%s[%zu] must be a string", names[k], i);
      bad_input(c, path, text, len, jp_element(text, len, ao, i), msg);
      return -1;
    }
    list[i].ptr = json_string_value(s);
    list[i].len = json_string_length(s);
  }
  return 0;
}

int cli_load_policy_spec(cli *c, const char *path, const char *text, size_t len, loaded_json *l,
                         boxlint_policy_spec *spec) {
  memset(spec, 0, sizeof *spec);
  json_t *type = json_object_get(l->policy, "type");
  if (type && !json_is_null(type)) {
    if (!json_is_string(type)) {
      bad_input(c, path, text, len, jp_member(text, len, l->policy_off, "type", NULL),
                "\"network_policy.type\" must be a string");
      return -1;
    }
    spec->type.ptr = json_string_value(type);
    spec->type.len = json_string_length(type);
  }
  if (load_policy_list(c, path, text, len, l, 0, &spec->n_allow) ||
      load_policy_list(c, path, text, len, l, 1, &spec->n_deny))
    return -1;
  spec->allow_out = l->policy_lists[0];
  spec->deny_out = l->policy_lists[1];
  return 0;
}

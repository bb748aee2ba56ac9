/* The command line of `boxlint [lint]` and `boxlint render`, which take the same options: parsing
 * them into the cli state and a lint_args, loading --config, the usage text and the one-line
 * usage errors. The options are the LINT rows of options.def (their spellings, and their lines
 * of --help); this file owns what each one does and every usage message (`boxlint policy` has
 * its own, in policy_cmd.c). Called by the commands; calls input/ (cli_load_config) only. */
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"

#define ROW_LINT(lng, shrt, arg, help) {lng, shrt, arg, help},
#define ROW_POLICY(lng, shrt, arg, help)
#define ROW_LSP(lng, shrt, arg, help)
static const cli_option LINT_ROWS[] = {
#define X(cmd, id, kind, lng, shrt, arg, help, man) ROW_##cmd(lng, shrt, arg, help)
#include "cmd/options.def"
#undef X
};

void cli_options_print(FILE *f, const cli_option *o, size_t n, int col, int over) {
  for (size_t i = 0; i < n; i++, o++) {
    char left[64];
    int w = snprintf(left, sizeof left, "%s%s%s%s%s", o->lng && o->shrt ? o->shrt : "",
                     o->lng && o->shrt ? ", " : "", o->lng ? o->lng : o->shrt,
                     o->arg ? " " : "", o->arg ? o->arg : "");
    fprintf(f, "  %-*s%*s", col, left, w > col ? over : w == col ? 2 : 0, "");
    for (const char *h = o->help; *h;) {
      size_t k = strcspn(h, "\n");
      fprintf(f, "%.*s\n", (int)k, h);
      h += k;
      if (*h) {
        h++;
        fprintf(f, "%*s", col + 2, "");
      }
    }
  }
}

void cli_usage(FILE *f) {
  fputs("usage: boxlint [lint] [options] FILE...    lint templates and Dockerfile fragments\n"
        "       boxlint [lint] [options] DIR...     lint what a directory tree holds\n"
        "       boxlint [lint] [options] -c CMD...   lint commands given inline (repeatable)\n"
        "       boxlint policy FILE [policy options] validate and decide a NetworkPolicy\n"
        "       boxlint render --base FILE TEMPLATE  print the Dockerfile the platform builds\n"
        "       boxlint lsp [--stdio] [--debounce MS]  a language server on stdio, for editors\n"
        "       boxlint rules | explain RULE | version | help\n"
        "\n"
        "A .json FILE is a template object {name, commands, cpu_count, memory_mb,\n"
        "network_policy} or an array of command strings; any other FILE is a Dockerfile\n"
        "fragment, split into instructions as BuildKit does; - reads standard input.\n"
        "A DIR is walked in sorted order for *.py, *.json (templates, bindings, policies),\n"
        "*.Dockerfile and Dockerfile.* files, skipping hidden directories, node_modules,\n"
        "virtual environments and what git ignores.\n"
        "\n"
        "lint options (render takes the same; it needs --base):\n",
        f);
  cli_options_print(f, LINT_ROWS, sizeof LINT_ROWS / sizeof *LINT_ROWS, 21, 3);
  fputs("\n"
        "policy options (boxlint policy --help says more):\n"
        "  --host H  --ip A     decide a host name, an address, or a host at an address\n"
        "  --compat e2b  --unmatched allow|deny  --max-entries N\n"
        "  --format text|json|sarif|github  --fail-on error|warning|info  --no-color\n"
        "  --emit nftables|dnsmasq|nginx  the rules that enforce the policy; with --nft-table\n"
        "                       NAME, --nft-iifname NAME, --resolver ADDR (needed when the\n"
        "                       policy names hosts and drops every other address) and\n"
        "                       --proxy-user USER (the nginx proxy layer: TCP 80/443 by name)\n"
        "lsp options: --debounce MS (default 150), --stdio (the default; accepted), --help\n"
        "rules, explain RULE, version and help take no options.\n"
        "\n"
        "exit codes: 0 nothing at or above --fail-on, 1 findings, 2 usage, I/O or malformed input\n",
        f);
}

int cli_usage_error(cli *c, const char *what, const char *arg) {
  fprintf(c->err, "boxlint: %s%s%s%s; see 'boxlint --help'\n", what, arg ? " '" : "",
          arg ? arg : "", arg ? "'" : "");
  return EXIT_USAGE;
}

/* The options that take a value, as "--opt V" or "--opt=V" (options.def's LINT VAL rows), and
 * those that take none (its LINT FLAG rows). */
#define OPT_LINT_VAL(id, lng, shrt) OPT_##id,
#define OPT_LINT_FLAG(id, lng, shrt)
#define OPT_POLICY_VAL(id, lng, shrt)
#define OPT_POLICY_FLAG(id, lng, shrt)
#define OPT_LSP_VAL(id, lng, shrt)
#define OPT_LSP_FLAG(id, lng, shrt)
#define X(cmd, id, kind, lng, shrt, arg, help, man) OPT_##cmd##_##kind(id, lng, shrt)
enum lint_opt {
#include "cmd/options.def"
  OPT_COUNT
};
#undef OPT_LINT_VAL
#define OPT_LINT_VAL(id, lng, shrt) {lng, shrt},
static const struct {
  const char *lng, *shrt;
} LINT_OPTS[OPT_COUNT] = {
#include "cmd/options.def"
};
#undef OPT_LINT_VAL
#undef OPT_LINT_FLAG
#define OPT_LINT_VAL(id, lng, shrt)
#define OPT_LINT_FLAG(id, lng, shrt) FLAG_##id,
enum lint_flag {
#include "cmd/options.def"
  FLAG_COUNT
};
#undef OPT_LINT_FLAG
#define OPT_LINT_FLAG(id, lng, shrt) {lng, shrt},
static const struct {
  const char *lng, *shrt;
} LINT_FLAGS[FLAG_COUNT] = {
#include "cmd/options.def"
};
#undef X

/* The flag `a` is, or FLAG_COUNT. */
static enum lint_flag flag_of(const char *a) {
  int f = 0;
  for (; f < FLAG_COUNT; f++)
    if ((LINT_FLAGS[f].lng && !strcmp(a, LINT_FLAGS[f].lng)) ||
        (LINT_FLAGS[f].shrt && !strcmp(a, LINT_FLAGS[f].shrt)))
      break;
  return (enum lint_flag)f;
}

/* Is argv[*i] option `name`? 1 with *val set (and *i past a separate value), 0 when it is
 * another argument, -1 when the value is missing. */
static int opt_value(int argc, char **argv, int *i, const char *name, const char **val) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (!strcmp(a, name)) {
    if (*i + 1 >= argc) return -1;
    *val = argv[++*i];
    return 1;
  }
  if (!strncmp(a, name, n) && a[n] == '=') {
    *val = a + n + 1;
    return 1;
  }
  return 0;
}

/* --kind's word: 0 for auto, else the cli_kind. 0 with *out set, or -1. */
static int cli_kind_word(const char *word, int *out) {
  static const char *const words[] = {"auto", "fragment", "python", "json"};
  static const int kinds[] = {0, CLI_KIND_FRAGMENT, CLI_KIND_PYTHON, CLI_KIND_JSON};
  for (size_t k = 0; k < sizeof words / sizeof *words; k++)
    if (!strcmp(word, words[k])) {
      *out = kinds[k];
      return 0;
    }
  return -1;
}

int cli_format_word(const char *word, enum format *out) {
  static const char *const words[] = {"text", "json", "sarif", "github"};
  static const enum format fmt[] = {FMT_TEXT, FMT_JSON, FMT_SARIF, FMT_GITHUB};
  for (size_t k = 0; k < sizeof words / sizeof *words; k++)
    if (!strcmp(word, words[k])) {
      *out = fmt[k];
      return 0;
    }
  return -1;
}

int cli_fail_on_word(const char *word, boxlint_severity *out) {
  boxlint_severity s = BOXLINT_SEVERITY_OFF;
  if (boxlint_severity_parse(word, strlen(word), &s) != BOXLINT_OK || s == BOXLINT_SEVERITY_OFF)
    return -1;
  *out = s;
  return 0;
}

/* --jobs N: decimal digits only, 1 to CLI_MAX_JOBS. 0 with *out set, or -1. */
_Static_assert(CLI_MAX_JOBS == 1024, "set_option's message for --jobs names the limit");
static int jobs_word(const char *word, unsigned *out) {
  unsigned n = 0;
  if (!*word) return -1;
  for (const char *p = word; *p; p++) {
    if (*p < '0' || *p > '9') return -1;
    n = n * 10 + (unsigned)(*p - '0');
    if (n > CLI_MAX_JOBS) return -1;
  }
  if (n < 1) return -1;
  *out = n;
  return 0;
}

/* One valued option. Returns CLI_ARGS_GO, or the usage exit code (the message printed). */
static int set_option(cli *c, lint_args *a, enum lint_opt o, const char *val) {
  switch (o) {
  case OPT_FORMAT:
    if (cli_format_word(val, &c->format))
      return cli_usage_error(c, "unknown format (--format takes text, json, sarif or github):", val);
    break;
  case OPT_FAIL_ON:
    if (cli_fail_on_word(val, &c->fail_on))
      return cli_usage_error(c, "--fail-on takes error, warning or info, not", val);
    break;
  case OPT_BASE: a->base = val; break;
  case OPT_CONFIG: c->config_path = val; break;
  case OPT_COMPAT:
    if (strcmp(val, "e2b")) return cli_usage_error(c, "--compat takes e2b, not", val);
    c->compat = BOXLINT_COMPAT_E2B;
    break;
  case OPT_INLINE:
    a->inline_cmds[a->ninline].ptr = val;
    a->inline_cmds[a->ninline].len = strlen(val);
    a->ninline++;
    break;
  case OPT_EXCLUDE: a->excludes[a->nexcludes++] = val; break;
  case OPT_STDIN_NAME: c->stdin_name = val; break;
  case OPT_KIND:
    if (cli_kind_word(val, &c->kind))
      return cli_usage_error(c, "--kind takes auto, fragment, python or json, not", val);
    break;
  case OPT_JOBS:
    if (jobs_word(val, &a->jobs))
      return cli_usage_error(c, "-j (--jobs) takes a number of threads from 1 to 1024, not", val);
    break;
  case OPT_TARGET_VERSION:
    if (boxlint_python_version_parse(val, strlen(val), &c->opts.python_minor) != BOXLINT_OK)
      return cli_usage_error(c, "--target-version takes py38 to py314, not", val);
    break;
  case OPT_COUNT: break;
  }
  return CLI_ARGS_GO;
}

/* argv[*i] (and its value). Returns CLI_ARGS_GO, or the exit code when the command is done. */
static int parse_arg(cli *c, int argc, char **argv, int *i, lint_args *a) {
  const char *arg = argv[*i], *val = NULL;
  int m = 0, o = 0;
  for (; o < OPT_COUNT; o++) {
    if (LINT_OPTS[o].lng && (m = opt_value(argc, argv, i, LINT_OPTS[o].lng, &val))) break;
    if (LINT_OPTS[o].shrt && (m = opt_value(argc, argv, i, LINT_OPTS[o].shrt, &val))) break;
  }
  if (m < 0) {
    fprintf(c->err, "boxlint: option '%s' needs a value; see 'boxlint --help'\n", arg);
    return EXIT_USAGE;
  }
  if (m > 0) return set_option(c, a, (enum lint_opt)o, val);
  enum lint_flag f = flag_of(arg);
  switch (f) {
  case FLAG_NO_COLOR: c->color = 0; break;
  case FLAG_FORCE_EXCLUDE: a->force_exclude = 1; break;
  case FLAG_UNSAFE_FIXES: c->unsafe_fixes = 1; break;
  case FLAG_FIX:
  case FLAG_DIFF:
    if (a->fix && a->fix != (f == FLAG_FIX ? FIX_APPLY : FIX_DIFF))
      return cli_usage_error(c, "--fix and --diff exclude each other", NULL);
    a->fix = f == FLAG_FIX ? FIX_APPLY : FIX_DIFF;
    break;
  case FLAG_HELP: cli_usage(c->out); return EXIT_CLEAN;
  case FLAG_END: break; /* "--" ends the loop in cli_args_parse before it gets here */
  case FLAG_COUNT:
    if (arg[0] == '-' && arg[1] != 0) return cli_usage_error(c, "unknown option", arg);
    a->paths[a->npaths++] = arg;
    break;
  }
  return CLI_ARGS_GO;
}

int cli_args_parse(cli *c, int argc, char **argv, lint_args *a) {
  memset(a, 0, sizeof *a);
  a->paths = calloc((size_t)argc, sizeof *a->paths);
  a->inline_cmds = calloc((size_t)argc, sizeof *a->inline_cmds);
  a->excludes = calloc((size_t)argc, sizeof *a->excludes);
  if (!a->paths || !a->inline_cmds || !a->excludes) {
    fputs("boxlint: out of memory\n", c->err);
    return EXIT_USAGE;
  }
  int i = 1;
  for (; i < argc && strcmp(argv[i], "--"); i++) {
    int rc = parse_arg(c, argc, argv, &i, a);
    if (rc != CLI_ARGS_GO) return rc;
  }
  for (i++; i < argc; i++) a->paths[a->npaths++] = argv[i]; /* after "--": files, all */
  if (c->config_path && !(c->config = cli_load_config_frag(c, c->config_path, &c->config_frag)))
    return EXIT_USAGE;
  /* Only the JSON output lists a fragment's instructions: the others need none kept, and a
   * large fragment's report then holds its findings and no more. */
  c->opts.no_instructions = c->format != FMT_JSON;
  return CLI_ARGS_GO;
}

void cli_args_free(cli *c, lint_args *a) {
  cli_configs_free(c);
  free(a->paths);
  free(a->inline_cmds);
  free(a->excludes);
  memset(a, 0, sizeof *a);
}

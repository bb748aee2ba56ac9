/* The command line of `boxlint [lint]` and `boxlint render`, which take the same options: parsing
 * them into the cli state and a lint_args, loading --config, the usage text and the one-line
 * usage errors. Owns every option's spelling and every usage message (`boxlint policy` has its
 * own, in policy_cmd.c). Called by the commands; calls input.c (cli_load_config) only. */
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"

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
        "lint options (render takes the same; it needs --base):\n"
        "  --format text|json|sarif|github   output format (default text)\n"
        "  --config FILE        configuration (default: .boxlint.json searched upward)\n"
        "  --base FILE          the platform's base Dockerfile (appendability, escape)\n"
        "  --exclude GLOB       skip what GLOB matches in a walked DIR: a name, or with '/' a\n"
        "                       path from DIR (repeatable)\n"
        "  --force-exclude      apply --exclude and the walk's rules to FILEs named on the\n"
        "                       command line too (pre-commit passes every candidate)\n"
        "  --fail-on error|warning|info   lowest severity that makes the exit code 1\n"
        "  --compat e2b         add E2B's own NetworkPolicy rejections\n"
        "  --no-color           no colours (also NO_COLOR=1)\n"
        "  --stdin-filename NAME  the name of standard input (-): its kind (NAME.py is Python,\n"
        "                       NAME.json JSON), its config, and the path in the findings\n"
        "  -c CMD               a command to lint, given inline (repeatable)\n"
        "  --fix                apply every safe fix in place (atomically, never leaving a file\n"
        "                       that no longer parses), then report what remains, with a\n"
        "                       summary on standard error; with -, the fixed text goes to\n"
        "                       standard output and the findings to standard error\n"
        "  --diff               print the fixes as a unified diff (patch -p1) and write nothing;\n"
        "                       exit code 1 when a file would change\n"
        "  --unsafe-fixes       with --fix or --diff, also the fixes that change what a template\n"
        "                       or policy does (such as adding ALL_TRAFFIC to deny_out)\n"
        "  -h, --help           this text\n"
        "\n"
        "policy options (boxlint policy --help says more):\n"
        "  --host H  --ip A     decide a host name, an address, or a host at an address\n"
        "  --compat e2b  --unmatched allow|deny  --max-entries N\n"
        "  --format text|json|sarif|github  --fail-on error|warning|info  --no-color\n"
        "  --emit nftables|dnsmasq  the rules that enforce the policy; with --nft-table NAME,\n"
        "                       --nft-iifname NAME and --resolver ADDR (needed when the policy\n"
        "                       names hosts and drops every other address)\n"
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

/* The options that take a value, as "--opt V" or "--opt=V". */
enum lint_opt {
  OPT_FORMAT, OPT_FAIL_ON, OPT_BASE, OPT_CONFIG, OPT_COMPAT, OPT_INLINE, OPT_EXCLUDE,
  OPT_STDIN_NAME, OPT_COUNT
};
static const char *const LINT_OPTS[OPT_COUNT] = {"--format", "--fail-on", "--base",   "--config",
                                                 "--compat", "-c",        "--exclude",
                                                 "--stdin-filename"};

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

/* One valued option. Returns CLI_ARGS_GO, or the usage exit code (the message printed). */
static int set_option(cli *c, lint_args *a, enum lint_opt o, const char *val) {
  switch (o) {
  case OPT_FORMAT:
    if (!strcmp(val, "text")) c->format = FMT_TEXT;
    else if (!strcmp(val, "json")) c->format = FMT_JSON;
    else if (!strcmp(val, "sarif")) c->format = FMT_SARIF;
    else if (!strcmp(val, "github")) c->format = FMT_GITHUB;
    else return cli_usage_error(c, "unknown format (--format takes text, json, sarif or github):", val);
    break;
  case OPT_FAIL_ON:
    if (!strcmp(val, "error")) c->fail_on = BOXLINT_SEVERITY_ERROR;
    else if (!strcmp(val, "warning")) c->fail_on = BOXLINT_SEVERITY_WARNING;
    else if (!strcmp(val, "info")) c->fail_on = BOXLINT_SEVERITY_INFO;
    else return cli_usage_error(c, "--fail-on takes error, warning or info, not", val);
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
  case OPT_COUNT: break;
  }
  return CLI_ARGS_GO;
}

/* argv[*i] (and its value). Returns CLI_ARGS_GO, or the exit code when the command is done. */
static int parse_arg(cli *c, int argc, char **argv, int *i, lint_args *a) {
  const char *arg = argv[*i], *val = NULL;
  int m = 0, o = 0;
  for (; o < OPT_COUNT && !(m = opt_value(argc, argv, i, LINT_OPTS[o], &val)); o++) continue;
  if (m < 0) {
    fprintf(c->err, "boxlint: option '%s' needs a value; see 'boxlint --help'\n", arg);
    return EXIT_USAGE;
  }
  if (m > 0) return set_option(c, a, (enum lint_opt)o, val);
  if (!strcmp(arg, "--no-color")) {
    c->color = 0;
  } else if (!strcmp(arg, "--force-exclude")) {
    a->force_exclude = 1;
  } else if (!strcmp(arg, "--unsafe-fixes")) {
    c->unsafe_fixes = 1;
  } else if (!strcmp(arg, "--fix") || !strcmp(arg, "--diff")) {
    int mode = arg[2] == 'f' ? FIX_APPLY : FIX_DIFF;
    if (a->fix && a->fix != mode)
      return cli_usage_error(c, "--fix and --diff exclude each other", NULL);
    a->fix = mode;
  } else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
    cli_usage(c->out);
    return EXIT_CLEAN;
  } else if (arg[0] == '-' && arg[1] != 0) {
    return cli_usage_error(c, "unknown option", arg);
  } else {
    a->paths[a->npaths++] = arg;
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
  for (int i = 1; i < argc; i++) {
    int rc = parse_arg(c, argc, argv, &i, a);
    if (rc != CLI_ARGS_GO) return rc;
  }
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

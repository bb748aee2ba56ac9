#!/usr/bin/env python3
"""Usage errors in one line (issue 12, point 8): a bad option, a missing value, a bad value or
no input gives exactly one line on stderr that names the offending argument and points at
`--help`, nothing on stdout, and exit code 2; the full usage goes to stdout on --help only.
The same holds for `boxlint policy` (its own --help).

Usage: cli_usage_test.py PATH/TO/boxlint
"""
import os, subprocess, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN = os.path.abspath(sys.argv[1])
results = harness.Checks()
check, fails = results.check, results.fails


def run(args):
    p = subprocess.run([BIN] + args, capture_output=True, timeout=30,
                       env=dict(os.environ, NO_COLOR="1"))
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def one_line(name, args, want, see="see 'boxlint --help'"):
    rc, out, err = run(args)
    check(name + ": exit 2", rc == 2, rc)
    check(name + ": nothing on stdout", out == "", out)
    check(name + ": one line on stderr", err.count("\n") == 1 and err.endswith("\n"), err)
    check(name + ": names the problem", want in err, want, err)
    check(name + ": points at --help", see in err, err)


one_line("unknown option", ["--bogus", "x.json"], "unknown option '--bogus'")
one_line("unknown short option", ["-q", "x.json"], "unknown option '-q'")
one_line("unknown option after a file", ["x.json", "--formt=json"], "unknown option '--formt=json'")
one_line("missing value", ["--format"], "option '--format' needs a value")
one_line("missing -c value", ["-c"], "option '-c' needs a value")
one_line("bad format", ["--format", "xml", "-c", "RUN a"], "unknown format (--format takes text, json, sarif or github): 'xml'")
one_line("bad --fail-on", ["--fail-on=never", "-c", "RUN a"], "--fail-on takes error, warning or info, not 'never'")
one_line("--fail-on off (a severity word, not a threshold)", ["--fail-on=off", "-c", "RUN a"], "--fail-on takes error, warning or info, not 'off'")
one_line("bad --compat", ["--compat", "e2c", "-c", "RUN a"], "--compat takes e2b, not 'e2c'")
one_line("no input", [], "nothing to lint")
one_line("explain without a rule", ["explain"], "explain takes one rule id")
one_line("render without --base", ["render", "t.json"], "render takes --base FILE and one TEMPLATE")

for args in (["--help"], ["-h"], ["help"], ["-c", "RUN a", "--help"]):
    rc, out, err = run(args)
    check(" ".join(args) + ": exit 0", rc == 0, rc)
    check(" ".join(args) + ": usage on stdout", out.startswith("usage: boxlint") and "--format" in out
          and "exit codes" in out, out[:200])
    check(" ".join(args) + ": nothing on stderr", err == "", err)

# boxlint policy: the same rules, pointing at its own --help.
psee = "see 'boxlint policy --help'"
one_line("policy: unknown option", ["policy", "p.json", "--bogus"], "unknown option '--bogus'", psee)
one_line("policy: missing value", ["policy", "p.json", "--host"], "'--host' needs a value", psee)
rc, out, err = run(["policy", "--help"])
check("policy --help: exit 0", rc == 0, rc)
check("policy --help: usage on stdout", out.startswith("usage: boxlint policy"), out[:200])
check("policy --help: nothing on stderr", err == "", err)

# --help names every option of every sub-command, taken from each one's parser (issue 24):
# the rows of the options table (cli/cmd/options.def, "FILE:COMMAND") and the literals compared
# with an argument.
import re

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "cli")


def parsed_options(name):
    name, _, cmd = name.partition(":")
    text = open(os.path.join(SRC, name), encoding="utf-8").read()
    opts = set()
    if cmd:
        for row in re.findall(r'^X\(' + cmd + r',\s*\w+,\s*\w+,\s*(NULL|"[^"]*"),\s*(NULL|"[^"]*")', text, re.M):
            opts.update(o.strip('"') for o in row if o != "NULL")
        return opts
    for table in re.findall(r"static const char \*const (?:LINT|POL)_OPTS\[[^\]]*\] = \{(.*?)\};", text, re.S):
        opts.update(re.findall(r'"(-[-\w]*)"', table))
    opts.update(re.findall(r'strcmp\(\s*(?:a|arg|argv\[i\])\s*,\s*"(-[-\w]+)"\s*\)', text))
    return opts


def names(text, opt):
    return re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", text) is not None


PARSERS = {"lint": ["cmd/args.c", "cmd/options.def:LINT"],
           "policy": ["cmd/policy_cmd.c", "cmd/options.def:POLICY"],
           "lsp": ["cmd/lsp_cmd.c", "cmd/options.def:LSP"]}
# Options the engineers of `entr` and `fix` add to lint at the same time: --help names them now.
COMING = {"lint": {"--force-exclude", "--unsafe-fixes"}}
rc, usage, _ = run(["--help"])
for cmd, files in PARSERS.items():
    opts = set().union(*(parsed_options(f) for f in files)) | COMING.get(cmd, set())
    check("%s: options found in its parser" % cmd, len(opts) >= 3, sorted(opts))
    missing = sorted(o for o in opts if not names(usage, o))
    check("--help names every %s option" % cmd, not missing, missing)
_, pusage, _ = run(["policy", "--help"])
missing = sorted(o for o in set().union(*map(parsed_options, PARSERS["policy"]))
                 if not names(pusage, o))
check("policy --help names every policy option", not missing, missing)
for sub in ("lint", "policy", "render", "lsp", "rules", "explain", "version"):
    check("--help names the sub-command " + sub, names(usage, sub), sub)

results.print_fails()
print(f"usage: {results.passed} passed, {len(fails)} failed")
results.exit()

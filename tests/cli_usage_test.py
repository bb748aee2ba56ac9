#!/usr/bin/env python3
"""Usage errors in one line (issue 12, point 8): a bad option, a missing value, a bad value or
no input gives exactly one line on stderr that names the offending argument and points at
`--help`, nothing on stdout, and exit code 2; the full usage goes to stdout on --help only.
The same holds for `boxlint policy` (its own --help).

Usage: cli_usage_test.py PATH/TO/boxlint
"""
import os, subprocess, sys

BIN = os.path.abspath(sys.argv[1])
fails, n = [], 0


def check(name, cond, *info):
    global n
    n += 1
    if not cond:
        fails.append((name,) + info)


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

for x in fails:
    print("FAIL", *x)
print(f"usage: {n - len(fails)} passed, {len(fails)} failed")
sys.exit(1 if fails else 0)

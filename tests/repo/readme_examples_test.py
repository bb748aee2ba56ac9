#!/usr/bin/env python3
"""The examples of the README and of the pages of docs/ hold in the repository (issues 24, 25):
every file that a `boxlint` command in them names, and every repository file they link to (from
the page's own directory), exists; every `$ boxlint policy ...` example runs verbatim from the
repository's root, and prints exactly what the page shows under it (standard output, and exit
code 0 or 1). The rule pages, docs/rules/, have their own test (rule_docs).

Usage: readme_examples_test.py PATH/TO/boxlint PATH/TO/README.md
"""
import glob
import os
import re
import shlex
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN, README = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
ROOT = os.path.dirname(README)
results = harness.Checks()
check, fails = results.check, results.fails
PATH_EXT = (".json", ".py", ".c", ".h", ".md", ".lua", ".toml", ".yaml", ".yml", ".Dockerfile",
            ".dockerfrag", ".mjs", ".js")


def blocks(text):
    """Each fenced block: (its info string, its lines)."""
    out, cur, info = [], None, None
    for line in text.splitlines():
        if line.startswith("```"):
            if cur is None:
                cur, info = [], line[3:].strip()
            else:
                out.append((info, cur))
                cur = None
        elif cur is not None:
            cur.append(line)
    return out


def commands(lines):
    """`$ ` commands of a block, with continuation lines, and the lines shown after each."""
    out, i = [], 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            i += 1
            continue
        cmd = lines[i][2:]
        while cmd.endswith("\\") and i + 1 < len(lines):
            i += 1
            cmd = cmd[:-1] + " " + lines[i].strip()
        i += 1
        shown = []
        while i < len(lines) and not lines[i].startswith("$ "):
            shown.append(lines[i])
            i += 1
        out.append((cmd, shown))
    return out


def path_args(argv):
    """The arguments of a boxlint command that name files of the repository."""
    for a in argv[1:]:
        if a.startswith("-") or " " in a or any(c in a for c in "*?[<>$"):
            continue
        if "/" in a or a.endswith(PATH_EXT):
            yield a


PAGES = [README] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
texts = {p: open(p, encoding="utf-8").read() for p in PAGES}
text = "\n".join(texts.values())
cmds = [c for info, lines in blocks(text) for c in commands(lines)]
boxlint_cmds = [(shlex.split(c), shown) for c, shown in cmds if c.split()[:1] == ["boxlint"]]
check("README has boxlint commands", len(boxlint_cmds) >= 5, len(boxlint_cmds))

# Every file a command names exists (from the repository's root, where the README's commands run).
named = sorted({p for argv, _ in boxlint_cmds for p in path_args(argv)})
check("commands name files", "examples/quickstart-policy.json" in named, named)
for p in named:
    check("file named in a README command exists: " + p, os.path.isfile(os.path.join(ROOT, p)), p)
# Every repository file a page links to (from its own directory), and every examples/ file it
# names, exists.
linked = {os.path.relpath(os.path.normpath(os.path.join(os.path.dirname(page), p)), ROOT)
          for page, t in texts.items() for p in re.findall(r"\]\(((?!https?:|#|mailto:)[^)\s#]+)", t)}
linked |= set(re.findall(r"`(examples/[^`\s]+)`", text))
for p in sorted(linked):
    check("file the README links or names exists: " + p, os.path.exists(os.path.join(ROOT, p)), p)

# Each `boxlint policy` example, run verbatim, prints what the README shows.
policy = [(argv, shown) for argv, shown in boxlint_cmds if argv[1:2] == ["policy"]]
check("README has boxlint policy examples", len(policy) >= 4, len(policy))
env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
env["NO_COLOR"] = "1"
for argv, shown in policy:
    p = subprocess.run([BIN] + argv[1:], cwd=ROOT, capture_output=True, timeout=60, env=env)
    out = p.stdout.decode("utf-8", "replace")
    label = " ".join(argv)
    check("runs (exit 0 or 1): " + label, p.returncode in (0, 1), p.returncode,
          p.stderr.decode("utf-8", "replace")[:400])
    check("prints what the README shows: " + label, out.splitlines() == shown,
          "\n".join(x for x in __import__("difflib").unified_diff(shown, out.splitlines(), "README", "boxlint",
                                                                  lineterm=""))[:2000])

results.print_fails()
print("readme_examples: %d pages; %d files named by commands, %d linked or named, %d policy examples "
      "run; %d/%d checks hold" % (len(PAGES), len(named), len(linked), len(policy), results.passed, results.n))
results.exit()

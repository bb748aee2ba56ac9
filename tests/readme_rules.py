#!/usr/bin/env python3
"""The README's "Rule reference" is the rule table: one heading per rule (the anchor `boxlint
lsp` links each diagnostic's codeDescription to), its severity and summary, as `boxlint rules`
prints them. Fails when they differ; `--write` rewrites the section.

usage: readme_rules.py BOXLINT README.md [--write]"""
import re
import subprocess
import sys

BIN, README = sys.argv[1], sys.argv[2]
START, END = "## Rule reference\n", "<!-- end of the rule reference -->\n"

rules = []
for line in subprocess.run([BIN, "rules"], capture_output=True, check=True).stdout.decode().splitlines():
    m = re.match(r"(\S+)\s+(error|warning|info|off)\s+(.*)$", line)
    if m:
        rules.append(m.groups())
section = [START, "\n",
           "Every rule, as `boxlint rules` lists it; `boxlint explain RULE` says what it catches, why it\n",
           "matters in a sandbox, with a bad and a good example. Editors and SARIF logs (`helpUri`)\n",
           "link each finding here. The rules come from one table, `lib/src/report/rules.def`.\n", "\n"]
for rid, sev, summary in rules:
    section += ["### %s\n" % rid, "\n", "%s. %s.\n" % (sev.capitalize(), summary[0].upper() + summary[1:]), "\n"]
section.append(END)
text = open(README, encoding="utf-8").read()
if START in text:
    a = text.index(START)
    b = text.index(END, a) + len(END)
    new = text[:a] + "".join(section) + text[b:]
else:
    new = text.rstrip("\n") + "\n\n" + "".join(section)
if "--write" in sys.argv:
    open(README, "w", encoding="utf-8").write(new)
    print("readme_rules: %d rules written" % len(rules))
    sys.exit(0)
if new != text:
    print("readme_rules: the README's rule reference differs from `boxlint rules`; run\n"
          "  python3 tests/readme_rules.py build/test/cli/boxlint README.md --write")
    sys.exit(1)
print("readme_rules: %d rules, each with its heading" % len(rules))

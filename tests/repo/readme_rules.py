#!/usr/bin/env python3
"""The rule reference, docs/rules/README.md (the index of the rule pages that `boxlint lsp` and
SARIF link each finding to), is the rule table: one row per rule with its severity and summary,
as `boxlint rules` prints them, in that order. Fails when they differ; tools/gen_rule_docs.py
writes the pages from lib/src/report/rules.def.

usage: readme_rules.py BOXLINT docs/rules/README.md"""
import os
import re
import subprocess
import sys

BIN, INDEX = sys.argv[1], sys.argv[2]

rules = []
for line in subprocess.run([BIN, "rules"], capture_output=True, check=True).stdout.decode().splitlines():
    m = re.match(r"(\S+)\s+(error|warning|info|off)\s+(.*)$", line)
    if m:
        rules.append(m.groups())
text = open(INDEX, encoding="utf-8").read()
rows = [(rid, sev, summary.replace("\\|", "|")) for rid, sev, summary in
        re.findall(r"^\| \[([a-z0-9-]+)\]\(\1\.md\) \| (\w+) \| (.*) \|$", text, re.M)]
pages = [rid for rid, _, _ in rows if os.path.isfile(os.path.join(os.path.dirname(INDEX), rid + ".md"))]
if rows != rules or len(pages) != len(rows):
    print("readme_rules: the rule reference (%s) differs from `boxlint rules`; run\n"
          "  python3 tools/gen_rule_docs.py .\n  after changing lib/src/report/rules.def" % INDEX)
    for a, b in zip(rows, rules):
        if a != b:
            print("  first difference: %r against %r" % (a, b))
            break
    sys.exit(1)
print("readme_rules: %d rules, each with its page" % len(rules))

#!/usr/bin/env python3
"""Each rule id is written once (issue 24): lib/src/report/rules.def is the rule table, and a rule
id appears in lib/src as a string literal exactly once, in that table. Everything else names a
rule by the BL_R_* char array the table gives (report/emit.h).

1. The ids `boxlint rules` lists, the rows of rules.def and the rules that docs/rules/README.md
   lists (the rule pages' index) are the same list in the same order.
2. In lib/src (.c, .h, .re, .def), comments removed and adjacent literals joined as the compiler
   joins them, every rule id is the whole text of exactly one string literal, and that literal
   is in rules.def; a second one is named with its file and line.
3. Each row's NAME is its id in upper case with '_' for '-' (BL_R_DENIED_INSTRUCTION is
   "denied-instruction"), so that a call site's name says which id it emits.
4. In SARIF, each rule's helpUri is one absolute base URL (the docs/ directory) then the path of
   a page of docs/: rules/<id>.md for a built-in rule, and a heading's anchor of
   configuration.md for a user rule.

usage: rule_ids_test.py SOURCE_DIR BOXLINT"""
import json
import os
import re
import subprocess
import sys
import tempfile

SRC, BIN = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
TABLE = os.path.join("lib", "src", "report", "rules.def")
failures = []


def fail(msg):
    failures.append(msg)


# ---- 1. The command, the table and the rule pages ----------------------------------------------

out = subprocess.run([BIN, "rules"], capture_output=True, check=True).stdout.decode()
cli_ids = [line.split()[0] for line in out.splitlines() if line.strip()]

table_text = open(os.path.join(SRC, TABLE), encoding="utf-8").read()
rows = re.findall(r'^BL_RULE\(([A-Z0-9_]+), "([^"]*)", (ERROR|WARNING|INFO), (FIXED|CONFIG),',
                  table_text, re.M)
table_ids = [rid for _, rid, _, _ in rows]
if len(rows) != len(re.findall(r"^BL_RULE\(", table_text, re.M)):
    fail("%s: a BL_RULE row does not read BL_RULE(NAME, \"id\", SEVERITY, CONFIG, ..." % TABLE)

index = open(os.path.join(SRC, "docs", "rules", "README.md"), encoding="utf-8").read()
readme_ids = re.findall(r"^\| \[([a-z0-9-]+)\]\(\1\.md\) \|", index, re.M)
if not readme_ids:
    fail("docs/rules/README.md lists no rule")

for name, ids in (("rules.def", table_ids), ("docs/rules/README.md", readme_ids)):
    if ids != cli_ids:
        only_a, only_b = sorted(set(cli_ids) - set(ids)), sorted(set(ids) - set(cli_ids))
        fail("`boxlint rules` and %s differ: only in `boxlint rules`: %s; only in %s: %s%s"
             % (name, only_a or "-", name, only_b or "-",
                "; same ids, another order" if not only_a and not only_b else ""))
if len(set(cli_ids)) != len(cli_ids):
    fail("`boxlint rules` lists an id twice")

# ---- 2. Each id once in lib/src ---------------------------------------------------------------

TOKEN = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|\S', re.S)


def literals(text):
    """(line, text) of each string literal of C source `text`, adjacent literals joined."""
    found, cur, cur_line = [], None, 0
    for m in TOKEN.finditer(text):
        tok = m.group(0)
        if tok.startswith("/*") or tok.startswith("//"):
            continue  # a comment: adjacent literals stay adjacent across it
        if tok.startswith('"'):
            if cur is None:
                cur, cur_line = "", text.count("\n", 0, m.start()) + 1
            cur += tok[1:-1]
            continue
        if cur is not None:
            found.append((cur_line, cur))
            cur = None
    if cur is not None:
        found.append((cur_line, cur))
    return found


known = set(cli_ids) | set(table_ids)
where = {rid: [] for rid in known}
for root, dirs, files in os.walk(os.path.join(SRC, "lib", "src")):
    dirs.sort()
    for f in sorted(files):
        if not re.search(r"\.(c|h|re|def)$", f):
            continue
        path = os.path.join(root, f)
        rel = os.path.relpath(path, SRC)
        for line, lit in literals(open(path, encoding="utf-8", errors="replace").read()):
            if lit in where:
                where[lit].append("%s:%d" % (rel, line))

for rid in sorted(known):
    places = where[rid]
    if len(places) != 1:
        fail("%s is written as a string literal %d times in lib/src (once, in %s, is right): %s"
             % (rid, len(places), TABLE, ", ".join(places) or "nowhere"))
    elif not places[0].startswith(TABLE + ":"):
        fail("%s is written at %s, not in %s" % (rid, places[0], TABLE))

# ---- 3. Names ---------------------------------------------------------------------------------

for name, rid, _, _ in rows:
    if name != rid.upper().replace("-", "_"):
        fail("%s: the row of %s is named %s, not %s"
             % (TABLE, rid, name, rid.upper().replace("-", "_")))

# ---- 4. SARIF's helpUri: the rule's heading -------------------------------------------------

def anchor(heading):
    """The anchor GitHub gives a heading: lower case, spaces to '-', punctuation dropped."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


DOCS = os.path.join(SRC, "docs")
with tempfile.TemporaryDirectory() as tmp:
    cfg = os.path.join(tmp, "boxlint.json")
    with open(cfg, "w") as f:
        json.dump({"user_rules": [{"id": "no-latest", "severity": "warning", "instruction": "RUN",
                                   "pattern": ":latest", "message": "pin versions"}]}, f)
    p = subprocess.run([BIN, "--format", "sarif", "--config", cfg, "-c", "FROM x",
                        "-c", "RUN docker pull a:latest", "-c", "RUN sudo true"],
                       capture_output=True, cwd=tmp)
sarif_rules = json.loads(p.stdout)["runs"][0]["tool"]["driver"]["rules"]
bases = set()
for r in sarif_rules:
    uri = r.get("helpUri", "")
    page = "rules/%s.md" % r["id"] if r["id"] in known else "configuration.md#"
    base, _, rest = uri.partition("/" + page.split("#")[0])
    bases.add(base)
    if r["id"] in known and (not rest == "" or not uri.endswith("/" + page)):
        fail("SARIF rule %s: helpUri %r does not name its page, %s" % (r["id"], uri, page))
    path, _, frag = (page.split("#")[0] + rest).partition("#")
    text = open(os.path.join(DOCS, path), encoding="utf-8").read() if os.path.isfile(os.path.join(DOCS, path)) else None
    if text is None or (frag and frag not in {anchor(h) for h in re.findall(r"^#+ (.+)$", text, re.M)}):
        fail("SARIF rule %s: helpUri %r names no page or heading of docs/" % (r["id"], uri))
    if not re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", base):
        fail("SARIF rule %s: helpUri %r is not an absolute URI" % (r["id"], uri))
if len(bases) != 1 or len(sarif_rules) < 3 or all(r["id"] in known for r in sarif_rules):
    fail("SARIF rules %s: expected three or more, a user rule among them, with one base URL (%s)"
         % ([r["id"] for r in sarif_rules], sorted(bases)))

if failures:
    for f in failures:
        print("rule_ids: FAIL: " + f)
    sys.exit(1)
print("rule_ids: %d rules; `boxlint rules`, rules.def and the %d rules of docs/rules/ agree; each id "
      "is one string literal in lib/src; %d SARIF helpUris name pages of docs/"
      % (len(cli_ids), len(readme_ids), len(sarif_rules)))

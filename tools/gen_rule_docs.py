#!/usr/bin/env python3
"""docs/rules/: one page per rule, and the index, generated from the rule table.

lib/src/report/rules.def holds every rule once: BL_RULE(NAME, "id", SEVERITY, CONFIG, summary,
description, bad, good), which the library compiles (`boxlint rules`, `boxlint explain`), and
BL_RULE_DOC(NAME, fix, file, command, bad, good), the rest of the page. This script reads both
and writes docs/rules/<id>.md and docs/rules/README.md. tests/repo/rule_docs_test.py checks that
the pages are what it writes and runs every example of every page.

usage: gen_rule_docs.py SOURCE_DIR [--check]   (--check: write nothing, exit 1 when a page differs)
"""
import json
import os
import re
import sys

TABLE = os.path.join("lib", "src", "report", "rules.def")
TOKEN = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|[A-Za-z_]\w*|[(),]|\S', re.S)
ESC = {"n": "\n", "t": "\t", "r": "\r", "v": "\v", "f": "\f", "a": "\a", "b": "\b",
       "\\": "\\", '"': '"', "'": "'", "?": "?"}


def c_string(lit):
    """The text of one C string literal (its quotes included), escapes decoded."""
    out, i, body = [], 0, lit[1:-1]
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = body[i + 1]
        if e in ESC:
            out.append(ESC[e])
            i += 2
        elif e in "01234567":
            m = re.match(r"[0-7]{1,3}", body[i + 1:])
            out.append(chr(int(m.group(0), 8)))
            i += 1 + len(m.group(0))
        elif e == "x":
            m = re.match(r"[0-9a-fA-F]+", body[i + 2:])
            out.append(chr(int(m.group(0), 16)))
            i += 2 + len(m.group(0))
        elif e in "uU":
            n = 4 if e == "u" else 8
            out.append(chr(int(body[i + 2:i + 2 + n], 16)))
            i += 2 + n
        else:
            raise ValueError("unknown escape \\" + e)
    return "".join(out)


def rows(text, macro):
    """The argument lists of each `macro(...)` row: a string (adjacent literals joined) or a name."""
    found, toks = [], [t for t in TOKEN.findall(text) if not t.startswith(("/*", "//"))]
    i = 0
    while i < len(toks):
        if toks[i] != macro or toks[i + 1] != "(":
            i += 1
            continue
        args, cur, i = [], None, i + 2
        while toks[i] != ")":
            t = toks[i]
            if t == ",":
                args.append(cur)
                cur = None
            elif t.startswith('"'):
                cur = (cur or "") + c_string(t)
            else:
                cur = t
            i += 1
        args.append(cur)
        found.append(args)
    return found


def table(src):
    text = open(os.path.join(src, TABLE), encoding="utf-8").read()
    rules = [dict(zip(("name", "id", "severity", "config", "summary", "description", "bad", "good"), r))
             for r in rows(text, "BL_RULE")]
    docs = {r[0]: dict(zip(("fix", "file", "command", "doc_bad", "doc_good"), r[1:]))
            for r in rows(text, "BL_RULE_DOC")}
    for r in rules:
        if r["name"] not in docs:
            raise SystemExit("gen_rule_docs: %s has no BL_RULE_DOC row in %s" % (r["name"], TABLE))
        r.update(docs.pop(r["name"]))
    if docs:
        raise SystemExit("gen_rule_docs: BL_RULE_DOC rows without a rule: %s" % sorted(docs))
    return rules


def example(rule, which):
    """(file name, file text or None, shell lines before the command, the command)."""
    text = rule["doc_" + which]
    if text == "SAME":
        text = rule[which]
        text = text if rule["file"] != "commands.json" else json.dumps([text], ensure_ascii=False)
    command = rule["command"] or "boxlint " + rule["file"]
    if text.startswith("$ "):
        return rule["file"], None, [text[2:]], command
    return rule["file"], text if text.endswith("\n") else text + "\n", [], command


LANG = {".json": "json", ".py": "python", ".Dockerfile": "dockerfile"}


def example_md(rule, which):
    name, text, shell, command = example(rule, which)
    out = []
    if text is not None:
        lang = next((v for k, v in LANG.items() if name.endswith(k)), "text")
        fence = "````" if "```" in text else "```"
        out += ["`%s`:" % name, "", fence + lang, text.rstrip("\n"), fence, ""]
    out += ["```console"] + ["$ " + s for s in shell] + ["$ " + command, "```", ""]
    return out


def sentence(s):
    s = s[0].upper() + s[1:]
    return s if s.endswith(".") else s + "."


def page(rule):
    sev = rule["severity"].lower()
    if rule["config"] == "FIXED":
        how = "an error: no configuration or comment can lower it or switch it off"
    else:
        how = "a %s by default: `.boxlint.json` may set its severity or switch it off" % sev
    out = ["<!-- Generated from lib/src/report/rules.def by tools/gen_rule_docs.py: edit the table,"
           " not this page. -->", "", "# %s" % rule["id"], "",
           "%s (%s)." % (sentence(rule["summary"])[:-1], how), "",
           "## What it catches, and why", "", rule["description"], "",
           "## A failing example", ""]
    out += example_md(rule, "bad")
    out += ["## A passing example", ""]
    out += example_md(rule, "good")
    out += ["## The fix", "", rule["fix"], "",
            "`boxlint explain %s` prints the summary, this explanation and a short example of each "
            "kind. Every rule: [the rule index](README.md)." % rule["id"]]
    return "\n".join(out) + "\n"


def index(rules):
    out = ["<!-- Generated from lib/src/report/rules.def by tools/gen_rule_docs.py: edit the table,"
           " not this page. -->", "", "# Rules", "",
           "Every rule boxlint reports, in the order `boxlint rules` lists them, with its default "
           "severity. Each page says what the rule catches and why, shows a failing and a passing "
           "example (both run by the `rule_docs` test) and the fix. Errors can never be switched "
           "off; a warning's or an info's severity is set in `.boxlint.json` "
           "([configuration](../configuration.md)).", "",
           "| rule | severity | what it catches |", "|---|---|---|"]
    for r in rules:
        out.append("| [%s](%s.md) | %s | %s |" % (r["id"], r["id"], r["severity"].lower(),
                                                   r["summary"].replace("|", "\\|")))
    return "\n".join(out) + "\n"


def pages(src):
    rules = table(src)
    got = {"README.md": index(rules)}
    for r in rules:
        got[r["id"] + ".md"] = page(r)
    return got


def main():
    src = os.path.abspath(sys.argv[1])
    out_dir = os.path.join(src, "docs", "rules")
    want = pages(src)
    have = {f for f in os.listdir(out_dir) if f.endswith(".md")} if os.path.isdir(out_dir) else set()
    stale = sorted(f for f in want if not os.path.isfile(os.path.join(out_dir, f))
                   or open(os.path.join(out_dir, f), encoding="utf-8").read() != want[f])
    extra = sorted(have - set(want))
    if "--check" in sys.argv:
        for f in stale:
            print("gen_rule_docs: docs/rules/%s differs from the table" % f)
        for f in extra:
            print("gen_rule_docs: docs/rules/%s is no rule's page" % f)
        return 1 if stale or extra else 0
    os.makedirs(out_dir, exist_ok=True)
    for f in stale:
        open(os.path.join(out_dir, f), "w", encoding="utf-8").write(want[f])
    for f in extra:
        os.remove(os.path.join(out_dir, f))
    print("gen_rule_docs: %d pages, %d written, %d removed" % (len(want), len(stale), len(extra)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

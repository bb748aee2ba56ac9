#!/usr/bin/env python3
"""docs/rules/ is the rule table, and its examples hold (issue 25).

1. The pages are what tools/gen_rule_docs.py writes from lib/src/report/rules.def (`--check`),
   and docs/rules/README.md lists, in order, the ids `boxlint rules` lists, each with its page.
2. Every example of every page is run as the page writes it, in a new directory: each file
   shown ("`NAME`:" then a fenced block) is written with a final newline, each `$ ` line of the
   console block is run (a `boxlint` line with the boxlint under test). The failing example must
   report the page's rule ("[id]" in the output), the passing one must not. A rule the command
   reports as an input error (exit code 2, the reason on standard error: python-syntax,
   python-encoding) is asked of `boxlint lsp`, which publishes it with the rule as its code.

usage: rule_docs_test.py SOURCE_DIR BOXLINT"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

SRC, BIN = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
DOCS = os.path.join(SRC, "docs", "rules")
fails, n = [], 0


def check(name, cond, *info):
    global n
    n += 1
    if not cond:
        fails.append((name,) + tuple(str(x)[:600] for x in info))


# ---- 1. The pages and the table ----------------------------------------------------------------
gen = subprocess.run([sys.executable, os.path.join(SRC, "tools", "gen_rule_docs.py"), SRC, "--check"],
                     capture_output=True, text=True)
check("docs/rules/ is what tools/gen_rule_docs.py writes (run it to regenerate)", gen.returncode == 0,
      gen.stdout + gen.stderr)
out = subprocess.run([BIN, "rules"], capture_output=True, check=True, text=True).stdout
ids = [line.split()[0] for line in out.splitlines() if line.strip()]
listed = re.findall(r"^\| \[([a-z0-9-]+)\]\(\1\.md\) \|", open(os.path.join(DOCS, "README.md")).read(), re.M)
check("docs/rules/README.md lists the ids of `boxlint rules`, in order", listed == ids, listed, ids)
pages = sorted(f[:-3] for f in os.listdir(DOCS) if f.endswith(".md") and f != "README.md")
check("one page per rule", pages == sorted(ids), sorted(set(pages) ^ set(ids)))


# ---- 2. The examples ---------------------------------------------------------------------------
def section(text, title):
    m = re.search(r"^## " + re.escape(title) + r"\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return m.group(1) if m else ""


def parse(sec):
    """The files a section shows and the `$ ` lines of its console block."""
    files = {}
    for m in re.finditer(r"^`([^`]+)`:\n\n(`{3,})\w*\n(.*?)\n\2$", sec, re.S | re.M):
        files[m.group(1)] = m.group(3) + "\n"
    console = re.search(r"^```console\n(.*?)\n```$", sec, re.S | re.M)
    lines = [l[2:] for l in console.group(1).splitlines() if l.startswith("$ ")] if console else []
    return files, lines


def lsp_codes(path, text):
    """The codes `boxlint lsp` publishes for a file of this text (languageId from its name)."""
    def frame(msg):
        body = json.dumps(msg).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body
    lang = "python" if path.endswith(".py") else "json" if path.endswith(".json") else "dockerfile"
    msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": "file://" + path, "languageId": lang, "version": 1, "text": text}}}]
    p = subprocess.Popen([BIN, "lsp", "--debounce", "0"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=os.path.dirname(path))
    p.stdin.write(b"".join(frame(m) for m in msgs))
    p.stdin.flush()
    codes = None
    while codes is None:
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            c = p.stdout.read(1)
            if not c:
                break
            head += c
        m = re.search(rb"Content-Length: (\d+)", head)
        if not m:
            break
        msg = json.loads(p.stdout.read(int(m.group(1))))
        if msg.get("method") == "textDocument/publishDiagnostics":
            codes = [d.get("code") for d in msg["params"]["diagnostics"]]
    p.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}) +
                  frame({"jsonrpc": "2.0", "method": "exit"}))
    p.stdin.close()
    p.wait(timeout=30)
    return codes or []


env = dict(os.environ, NO_COLOR="1")
ran = 0
for rid in ids:
    text = open(os.path.join(DOCS, rid + ".md"), encoding="utf-8").read()
    for title, must in (("A failing example", True), ("A passing example", False)):
        files, lines = parse(section(text, title))
        label = "%s: %s" % (rid, title.lower())
        check(label + ": a boxlint command", lines and lines[-1].startswith("boxlint "), lines)
        if not lines:
            continue
        with tempfile.TemporaryDirectory() as d:
            for name, body in files.items():
                open(os.path.join(d, name), "w", encoding="utf-8").write(body)
            output, code = "", None
            for line in lines:
                if line.startswith("boxlint "):
                    p = subprocess.run([BIN] + shlex.split(line)[1:], cwd=d, capture_output=True,
                                       env=env, timeout=60)
                    output += (p.stdout + p.stderr).decode("utf-8", "replace")
                    code = p.returncode
                else:
                    subprocess.run(["sh", "-c", line], cwd=d, check=True, env=env, timeout=60)
            ran += 1
            reported = "[%s]" % rid in output
            if must and not reported and code == 2 and len(files) <= 1:
                # an input error: its rule is in what the language server publishes
                name = shlex.split(lines[-1])[-1]
                path = os.path.join(d, name)
                reported = rid in lsp_codes(path, open(path, encoding="utf-8", errors="replace").read())
            elif not must and code != 2 and rid in ("python-syntax", "python-encoding"):
                name = shlex.split(lines[-1])[-1]
                path = os.path.join(d, name)
                reported = reported or rid in lsp_codes(path, open(path, encoding="utf-8").read())
            check(label + (": reports the rule" if must else ": does not report the rule"),
                  reported == must, code, output)
            check(label + ": exit code 0, 1 or 2", code in (0, 1, 2), code, output)

for f in fails:
    print("FAIL", *f)
print("rule_docs: %d pages; %d examples run; %d/%d checks hold" % (len(pages), ran, n - len(fails), n))
sys.exit(1 if fails else 0)

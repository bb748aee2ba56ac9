#!/usr/bin/env python3
"""The editor snippets of docs/editors.md name only what each client declares (issue 24): every JSON
snippet of the page is VS Code settings whose names the Generic LSP Client extension declares
(tests/data/editors/glspc.json); every Lua snippet passes vim.lsp.start / vim.lsp.start_client
and nvim_create_autocmd only the keys Neovim documents, and reads only documented fields of the
autocommand's event (tests/data/editors/neovim.json). Then the Neovim 0.7 snippet itself, as the
page writes it, runs in headless Neovim when it is installed (with the boxlint under test first
on PATH): a template with a finding is opened and the finding must arrive.

Usage: editors_test.py PATH/TO/boxlint PATH/TO/docs/editors.md
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN, README = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "editors")
results = harness.Checks()
check, fails = results.check, results.fails


def section(text, title):
    m = re.search(r"^## " + re.escape(title) + r"\n(.*?)(?=^## )", text, re.S | re.M)
    return m.group(1) if m else ""


def snippets(text, lang):
    return re.findall(r"^```" + lang + r"\n(.*?)^```", text, re.S | re.M)


def table_after(src, start):
    """The text of the Lua table constructor that opens at or after `start`: its braces
    balanced, strings skipped."""
    i = src.index("{", start)
    depth, j, quote = 0, i, None
    while j < len(src):
        c = src[j]
        if quote:
            if c == "\\":
                j += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return src[i + 1:j]
        j += 1
    raise ValueError("unbalanced table")


def top_keys(body):
    """The `name =` keys at the top level of a table's body."""
    keys, depth, quote, i = [], 0, None, 0
    while i < len(body):
        c = body[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c in "{([":
            depth += 1
        elif c in "})]":
            depth -= 1
        elif depth == 0:
            m = re.match(r"([A-Za-z_]\w*)\s*=(?!=)", body[i:])
            if m and (i == 0 or not (body[i - 1].isalnum() or body[i - 1] in "_.")):
                keys.append(m.group(1))
                i += m.end()
                continue
        i += 1
    return keys


text = open(README, encoding="utf-8").read()
editors = text if text.startswith("# Editors\n") else section(text, "Editors")
check("the page is Editors", editors, None)
glspc = set(json.load(open(os.path.join(DATA, "glspc.json")))["settings"])
nvim = json.load(open(os.path.join(DATA, "neovim.json")))

# VS Code: each JSON snippet is settings.json; every glspc.* name is declared.
jsons = snippets(editors, "json")
check("Editors has a VS Code snippet", len(jsons) >= 1, len(jsons))
for sn in jsons:
    try:
        settings = json.loads(sn)
    except ValueError as e:
        check("JSON snippet parses", False, str(e), sn)
        continue
    names = sorted(settings)
    undeclared = [k for k in names if k not in glspc]
    check("VS Code snippet: every setting is declared by glspc", not undeclared, undeclared, sorted(glspc))
    check("VS Code snippet: names the server's command and its arguments",
          settings.get("glspc.serverCommand") == "boxlint" and settings.get("glspc.serverCommandArguments") == ["lsp"],
          settings)

# Neovim: the keys of each configuration table and the fields of the event read.
luas = snippets(editors, "lua")
check("Editors has the Neovim snippets", len(luas) >= 2, len(luas))
calls = {r"vim\.lsp\.start\(": "vim.lsp.start_client", r"vim\.lsp\.start_client\(": "vim.lsp.start_client",
         r"nvim_create_autocmd\(\s*\"\w+\"\s*,": "nvim_create_autocmd"}
for k, sn in enumerate(luas):
    seen = 0
    for pat, decl in calls.items():
        for m in re.finditer(pat, sn):
            keys = top_keys(table_after(sn, m.end()))
            seen += 1
            bad = [x for x in keys if x not in nvim[decl]]
            check("Lua snippet %d: %s keys are documented" % (k + 1, m.group(0)), keys and not bad, bad, keys)
    check("Lua snippet %d: a client configuration found" % (k + 1), seen >= 2, seen)
    for cb in re.finditer(r"function\((\w+)\)", sn):
        fields = set(re.findall(r"\b" + cb.group(1) + r"\.(\w+)", sn))
        bad = sorted(fields - set(nvim["autocmd callback"]))
        check("Lua snippet %d: the event's fields are documented" % (k + 1), not bad, bad)

# The Neovim 0.7 snippet (vim.lsp.start_client: the one Debian's Neovim has) run as written.
start_client = [sn for sn in luas if "vim.lsp.start_client(" in sn]
check("a Neovim 0.7 snippet", len(start_client) == 1, len(start_client))
nvim_bin = shutil.which("nvim")
if not nvim_bin:
    print("editors_test: note: nvim is not installed; the Neovim snippet was not run")
elif start_client:
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, "snippet.lua"), "w").write(start_client[0])
        tpl = os.path.join(d, "template.json")
        open(tpl, "w").write('{"name": "t", "commands": ["WROKDIR /srv"], "cpu_count": 2, "memory_mb": 4096}\n')
        probe = os.path.join(d, "probe.lua")
        open(probe, "w").write(
            'vim.cmd("edit " .. vim.fn.fnameescape(%s))\n'
            'local ok = vim.wait(15000, function()\n'
            '  for _, x in ipairs(vim.diagnostic.get(0)) do\n'
            '    if x.user_data and x.user_data.lsp and x.user_data.lsp.code == "unknown-instruction" then return true end\n'
            '  end\n'
            '  return false\n'
            'end, 50)\n'
            'io.stdout:write(ok and "SHOWN\\n" or ("NOT SHOWN " .. vim.inspect(vim.diagnostic.get(0)) .. "\\n"))\n'
            'vim.cmd("qall!")\n' % json.dumps(tpl))
        env = dict(os.environ, PATH=os.path.dirname(BIN) + os.pathsep + os.environ.get("PATH", ""))
        p = subprocess.run([nvim_bin, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "filetype on",
                            "-c", "luafile " + os.path.join(d, "snippet.lua"), "-c", "luafile " + probe],
                           capture_output=True, text=True, timeout=120, env=env, cwd=d, stdin=subprocess.DEVNULL)
        out = p.stdout + p.stderr
        check("the page's Neovim 0.7 snippet shows boxlint's finding", "SHOWN\n" in out and "NOT SHOWN" not in out,
              p.returncode, out[-600:])

results.print_fails()
print("editors: %d JSON and %d Lua snippets checked; %d/%d checks hold" % (len(jsons), len(luas), results.passed, results.n))
results.exit()

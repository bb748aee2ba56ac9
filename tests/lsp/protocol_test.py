#!/usr/bin/env python3
"""`boxlint lsp` on messages real clients send but vscode-jsonrpc cannot produce, written raw:
"params": null (Emacs's jsonrpc sends it), ids of the wrong type, a batch, a notification
before initialize, a character inside a surrogate pair, and EOF without exit. Then the files the
server checks: those `boxlint .` checks, and for the others (package.json, tsconfig.json, an
ordinary Dockerfile, a file in node_modules) an empty list, one log line, no code action; and a
configuration problem from its record, on the configuration and on the document.

usage: protocol_test.py BOXLINT"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN = sys.argv[1]
results = harness.Checks(echo=harness.say_each)
check = results.check


class Server:
    def __init__(self, cwd=None):
        self.p = subprocess.Popen([BIN, "lsp", "--debounce", "0"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
        self.logs = []

    def raw(self, body):
        b = body.encode() if isinstance(body, str) else body
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
        self.p.stdin.flush()

    def send(self, **m):
        self.raw(json.dumps(dict(jsonrpc="2.0", **m)))

    def recv(self):
        h = b""
        while not h.endswith(b"\r\n\r\n"):
            c = self.p.stdout.read(1)
            if not c:
                return None
            h += c
        n = int(h.split(b":")[1].split(b"\r")[0])
        return json.loads(self.p.stdout.read(n))

    def recv_id(self, i):
        while True:
            m = self.recv()
            if m is None or m.get("id") == i:
                return m

    def recv_pub(self, uri):
        """The next publishDiagnostics for `uri`; window/logMessage notifications met on the way
        are kept in self.logs, publications for other URIs for a later call."""
        self.pending = getattr(self, "pending", [])
        for i, p in enumerate(self.pending):
            if p["uri"] == uri:
                return self.pending.pop(i)
        while True:
            m = self.recv()
            if m is None:
                return None
            if m.get("method") == "window/logMessage":
                self.logs.append(m["params"]["message"])
            if m.get("method") == "textDocument/publishDiagnostics":
                if m["params"]["uri"] == uri:
                    return m["params"]
                self.pending.append(m["params"])


s = Server()
s.send(method="textDocument/didOpen", params={"textDocument": {"uri": "file:///x.py", "text": "", "version": 1}})
s.send(id=1, method="initialize", params=None)
r = s.recv_id(1)
check('"params": null on initialize: answered', r and "result" in r, r)
s.send(id=2, method="textDocument/hover", params={"textDocument": {"uri": "file:///x.py"},
                                                  "position": {"line": 0, "character": 0}})
r = s.recv_id(2)
check("a didOpen before initialize was dropped: the document is unknown (-32602)",
      r and r.get("error", {}).get("code") == -32602, r)
s.send(id=3, method="boxlint/none", params=None)
r = s.recv_id(3)
check('"params": null on a request: MethodNotFound, not InvalidRequest',
      r and r.get("error", {}).get("code") == -32601, r)
s.raw('{"jsonrpc": "2.0", "id": {"a": 1}, "method": "shutdown"}')
r = s.recv_id(None)
check("an id that is an object: InvalidRequest with id null", r and r["error"]["code"] == -32600, r)
s.raw('[{"jsonrpc": "2.0", "id": 4, "method": "shutdown"}]')
r = s.recv_id(None)
check("a batch (LSP has none): InvalidRequest with id null", r and r["error"]["code"] == -32600, r)
s.raw('{"jsonrpc": "2.0", "id": 5, "method": 12}')
r = s.recv_id(5)
check("a method that is not a string: InvalidRequest", r and r["error"]["code"] == -32600, r)
s.raw('{"jsonrpc": "2.0", "method": 12}')  # a malformed notification: no answer, one log line
text = "RUN echo \U0001F600 && apt-get install curl\n"
s.send(method="textDocument/didOpen", params={"textDocument": {"uri": "file:///t/a.Dockerfile", "version": 1,
                                                                "languageId": "dockerfile", "text": text}})
r = s.recv()
d = r and r["params"]["diagnostics"]
check("didOpen after initialize: apt-get-missing-yes at UTF-16 column 15 (after the emoji)",
      d and d[0]["code"] == "apt-get-missing-yes" and d[0]["range"]["start"]["character"] == 15, r)
# [10, 12) starts between the two halves of the emoji's surrogate pair: the emoji's start (9);
# "\U0001F600 " becomes "x", so apt-get moves to column 13
s.send(method="textDocument/didChange", params={
    "textDocument": {"uri": "file:///t/a.Dockerfile", "version": 2},
    "contentChanges": [{"range": {"start": {"line": 0, "character": 10}, "end": {"line": 0, "character": 12}},
                        "text": "x"}]})
r = s.recv()
d = r and r["params"]["diagnostics"]
check("a change starting inside a surrogate pair replaces the whole character",
      d and r["params"]["version"] == 2 and d[0]["range"]["start"]["character"] == 13, r)
# an untitled Python buffer is checked as Python (its languageId), not as a fragment
s.send(method="textDocument/didOpen", params={"textDocument": {
    "uri": "untitled:Untitled-1", "version": 1, "languageId": "python",
    "text": 'c.code_interpreter.templates.update("t", commands=["pip install x"])\n'}})
r = s.recv()
d = r and r["params"]["diagnostics"]
check("an untitled Python buffer: unknown-instruction at 1:53 (UTF-16 0:52)",
      d and d[0]["code"] == "unknown-instruction" and d[0]["range"]["start"] == {"line": 0, "character": 52}, r)
# a NUL byte in a document (\u0000 in JSON) is a finding, not a parse error
s.send(method="textDocument/didOpen", params={"textDocument": {
    "uri": "file:///t/nul.Dockerfile", "version": 1, "languageId": "dockerfile", "text": "RUN echo a\u0000b\n"}})
r = s.recv()
d = r and r.get("params", {}).get("diagnostics")
check("a NUL byte in a document: nul-byte at 0:10", d and d[0]["code"] == "nul-byte" and
      d[0]["range"]["start"] == {"line": 0, "character": 10}, r)
# a whole text of more than 4 KiB (its string decoded apart from jansson's parse): escapes,
# surrogate pairs and \u0000 read as jansson reads them; a lone surrogate in one refused as
# jansson refuses it
long_line = "# " + "\u00e9\u20ac\U0001F600\"\\/\t x" * 500 + "\n"
s.send(method="textDocument/didOpen", params={"textDocument": {
    "uri": "file:///t/long.Dockerfile", "version": 1, "languageId": "dockerfile",
    "text": long_line + "RUN echo \U0001F600a\u0000b\n"}})
r = s.recv()
d = r and r.get("params", {}).get("diagnostics")
check("a 9 KB whole text with escapes: nul-byte at 1:12 (UTF-16, after a surrogate pair)",
      d and d[0]["code"] == "nul-byte" and d[0]["range"]["start"] == {"line": 1, "character": 12}, r)
body = json.dumps(dict(jsonrpc="2.0", method="textDocument/didChange", params={
    "textDocument": {"uri": "file:///t/long.Dockerfile", "version": 2},
    "contentChanges": [{"text": long_line + "RUN x\n"}]}))
s.raw(body.replace("RUN x", "RUN \\ud800x"))
r = s.recv()
check("a lone surrogate in a long text: jansson's parse error",
      r and r.get("error", {}).get("code") == -32700 and
      "invalid Unicode '\\uD800'" in r["error"]["message"], r)
s.send(id=41, method="$/boxlint/stats")
r = s.recv_id(41)
check("$/boxlint/stats: the publishes so far, none moved (no comment edited)",
      r and r["result"]["moved"] == 0 and r["result"]["checked"] >= 4, r)
# a binding and a policy file: their findings at the value
s.send(method="$/setTrace", params={"value": "verbose"})
s.send(method="$/cancelRequest", params={"id": 12345})
s.send(method="textDocument/didOpen", params={"textDocument": {
    "uri": "file:///t/binding.json", "version": 1, "languageId": "json",
    "text": '{"template_id": "python-4g",\n "version": 0}\n'}})
r = s.recv()
b = r and r["params"]["diagnostics"]
check("$/setTrace and $/cancelRequest accepted; a binding: invalid-version at 1:12-1:13",
      b and b[0]["code"] == "invalid-version" and b[0]["range"] == {"start": {"line": 1, "character": 12},
                                                                      "end": {"line": 1, "character": 13}}, r)
s.send(method="textDocument/didOpen", params={"textDocument": {
    "uri": "file:///t/policy.json", "version": 1, "languageId": "json",
    "text": '{"type": "filtered", "allow_out": ["pypi.org"], "deny_out": []}'}})
r = s.recv()
b = r and r["params"]["diagnostics"]
check("a policy: allow-without-effect at the entry 0:35-0:45 (no newline at the end)",
      b and b[0]["code"] == "allow-without-effect" and b[0]["range"] == {"start": {"line": 0, "character": 35},
                                                                          "end": {"line": 0, "character": 45}}, r)
check("no codeDescription without a docsUrl or installed docs",
      d and "codeDescription" not in d[0], d)
s.p.stdin.close()
code = s.p.wait(timeout=30)
check("the input closed without shutdown and exit: exit code 1", code == 1, code)
err = s.p.stderr.read().decode()
lines = err.splitlines()
check("stderr holds the log and only it: every line is 'boxlint lsp: ...', the malformed "
      "notification's among them",
      lines and all(l.startswith("boxlint lsp: ") for l in lines) and
      any("a malformed notification: dropped" in l for l in lines), err)

# installed: the program in PREFIX/bin, docs/ in PREFIX/share/doc/boxlint (cmake --install)
with tempfile.TemporaryDirectory() as prefix:
    os.makedirs(os.path.join(prefix, "bin"))
    os.makedirs(os.path.join(prefix, "share", "doc", "boxlint", "docs", "rules"))
    shutil.copy(BIN, os.path.join(prefix, "bin", "boxlint"))
    page = os.path.join(prefix, "share", "doc", "boxlint", "docs", "rules", "denied-instruction.md")
    open(page, "w").write("# denied-instruction\n")
    BIN = os.path.join(prefix, "bin", "boxlint")
    s = Server()
    s.send(id=1, method="initialize", params={"capabilities": {}})
    s.recv_id(1)
    s.send(method="textDocument/didOpen", params={"textDocument": {
        "uri": "file:///t/a.Dockerfile", "version": 1, "languageId": "dockerfile", "text": "COPY . /x\n"}})
    r = s.recv()
    d = r and r["params"]["diagnostics"]
    check("installed: codeDescription links the installed page of the rule",
          d and d[0].get("codeDescription", {}).get("href") == "file://" + page, d)
    s.p.stdin.close()
    s.p.wait(timeout=30)

# The files the server checks are those `boxlint .` checks (kind.c, walk.c): for the others an
# empty list (so stale diagnostics clear), one line in the client's log per document, no action.
BIN = os.path.abspath(sys.argv[1])  # the build's program again (the installed copy above is gone)
with tempfile.TemporaryDirectory() as w:
    os.makedirs(os.path.join(w, "templates"))
    os.makedirs(os.path.join(w, "node_modules", "x"))
    s = Server(cwd=w)
    s.send(id=1, method="initialize", params={"capabilities": {}})
    s.recv_id(1)
    uri = lambda rel: "file://" + os.path.join(w, rel)
    TPL = '{"name": "t", "commands": ["COPY a /b"], "cpu_count": 2, "memory_mb": 4096}\n'
    others = {
        "package.json": ("json", json.dumps({"name": "web", "version": "1.0.0", "private": True,
                                             "scripts": {"build": "vite build"}}, indent=2)),
        "tsconfig.json": ("json", json.dumps({"compilerOptions": {"strict": True}})),
        "Dockerfile": ("dockerfile", "FROM python:3.12\nCOPY . /app\nCMD [\"python\"]\n"),
        "node_modules/x/t.json": ("json", TPL),
    }
    for rel, (lang, text) in others.items():
        s.send(method="textDocument/didOpen", params={"textDocument": {
            "uri": uri(rel), "version": 1, "languageId": lang, "text": text}})
        r = s.recv_pub(uri(rel))
        check("not boxlint's: %s: an empty diagnostics list" % rel, r and r["diagnostics"] == [], r)
        said = [m for m in s.logs if os.path.join(w, rel) + ": not checked" in m]
        check("not boxlint's: %s: said once in the log (window/logMessage)" % rel, len(said) == 1, s.logs)
    s.send(method="textDocument/didOpen", params={"textDocument": {
        "uri": uri("templates/t.json"), "version": 1, "languageId": "json", "text": TPL}})
    r = s.recv_pub(uri("templates/t.json"))
    check("a real template next to them: denied-instruction",
          r and [d["code"] for d in r["diagnostics"]] == ["denied-instruction"], r)
    # a template being typed, not valid JSON for now: still checked (it names "commands"), the
    # loader's problem at its place; not said to be passed over
    s.send(method="textDocument/didOpen", params={"textDocument": {
        "uri": uri("templates/b.json"), "version": 1, "languageId": "json",
        "text": '{"name": "t", "commands": [}\n'}})
    r = s.recv_pub(uri("templates/b.json"))
    d = r and r["diagnostics"]
    check("a template that does not parse (yet): invalid-input at 0:27, from the problem record",
          d and len(d) == 1 and d[0]["code"] == "invalid-input" and
          d[0]["range"]["start"] == {"line": 0, "character": 27} and
          d[0]["message"].startswith("invalid JSON: ") and not any("b.json" in m for m in s.logs), r)
    # edited: still nothing, and not said again
    s.send(method="textDocument/didChange", params={
        "textDocument": {"uri": uri("package.json"), "version": 2},
        "contentChanges": [{"text": '{"name": "web", "commands": 1}'.replace("commands", "scripts")}]})
    r = s.recv_pub(uri("package.json"))
    check("package.json edited: still an empty list", r and r["diagnostics"] == [] and r["version"] == 2, r)
    check("package.json edited: not said again",
          len([m for m in s.logs if "package.json: not checked" in m]) == 1, s.logs)
    for i, rel in enumerate(("package.json", "Dockerfile")):
        s.send(id=10 + i, method="textDocument/codeAction", params={
            "textDocument": {"uri": uri(rel)},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 4}},
            "context": {"diagnostics": []}})
        r = s.recv_id(10 + i)
        check("not boxlint's: %s: no code action (not even fix all)" % rel, r and r.get("result") == [], r)
        s.send(id=20 + i, method="textDocument/hover", params={
            "textDocument": {"uri": uri(rel)}, "position": {"line": 0, "character": 1}})
        r = s.recv_id(20 + i)
        check("not boxlint's: %s: no hover" % rel, r and r.get("result") is None, r)
    # a configuration problem, as a record: on the configuration at its position, and on the
    # document's first line naming the configuration
    cfg = os.path.join(w, ".boxlint.json")
    ctext = '{"rules": {"no-such-rule": "off"}}\n'
    open(cfg, "w").write(ctext)
    s.send(method="workspace/didChangeWatchedFiles", params={"changes": [{"uri": "file://" + cfg, "type": 2}]})
    r = s.recv_pub(uri("templates/t.json"))
    d = r and r["diagnostics"]
    check("invalid config: one diagnostic on the document, line 1, naming the configuration",
          d and len(d) == 1 and d[0]["code"] == "invalid-config" and d[0]["range"]["start"]["line"] == 0
          and cfg in d[0]["message"], r)
    r = s.recv_pub("file://" + cfg)
    d = r and r["diagnostics"]
    col = ctext.index('"off"')
    check("invalid config: on the configuration at the rule's severity (0:%d), the message as printed" % col,
          d and d[0]["code"] == "invalid-config" and d[0]["range"]["start"] == {"line": 0, "character": col}
          and d[0]["message"].startswith("invalid config: ") and "no-such-rule" in d[0]["message"], r)
    open(cfg, "w").write("{}\n")
    s.pending = []  # the configuration was published once per document checked
    s.send(method="workspace/didChangeWatchedFiles", params={"changes": [{"uri": "file://" + cfg, "type": 2}]})
    for _ in range(5):  # publications of the broken configuration may still be on their way
        r = s.recv_pub("file://" + cfg)
        if not r or r["diagnostics"] == []:
            break
    check("the configuration fixed: its diagnostics cleared", r and r["diagnostics"] == [], r)
    s.send(id=30, method="shutdown")
    s.recv_id(30)
    s.send(method="exit")
    check("exit after shutdown: 0", s.p.wait(timeout=30) == 0)
print("FAILED: %d" % results.failed if results.failed else "OK")
results.exit()

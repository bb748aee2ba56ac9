#!/usr/bin/env python3
"""`boxlint lsp` after each of hundreds of edits says exactly what a fresh check of the same text
says. One server (as it ships: each publish made from the last one's Diagnostics) takes random
edits (a fixed seed) as incremental didChange events, several to a message at times, and now and
then a whole-text change: inserts and deletions inside a line, across lines and statements,
that break and mend the syntax (quotes, brackets, commas, comment signs, backslashes, line
breaks of each kind), with characters of two, three and four UTF-8 bytes (the last a UTF-16
surrogate pair: positions count UTF-16 units, the default). After each, its publishDiagnostics
is compared with that of a second server with {"reuse": false}, to which the client's own copy
of the text is opened anew (didClose, didOpen), and every 40 edits with a server just started.
The documents: Python files of tests/data/python/docs (SDK calls), the example template, a
policy, and a Dockerfile fragment. The check cannot pass vacuously: the publishes must differ
from one another (findings come and go, syntax errors among them).

usage: incremental_test.py BOXLINT [SOURCE_DIR]"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN = os.path.abspath(sys.argv[1])
SRC = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "..")
EDITS = 300
results = harness.Checks(echo=harness.say_each)
check = results.check


class Server:
    def __init__(self, reuse=None, cwd=None):
        opts = {} if reuse is None else {"reuse": reuse}
        self.p = subprocess.Popen([BIN, "lsp", "--debounce", "0"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd)
        self.send(id=0, method="initialize", params={"capabilities": {},
                                                     "initializationOptions": opts})
        self.recv()
        self.send(method="initialized", params={})

    def send(self, **m):
        b = json.dumps(dict(jsonrpc="2.0", **m)).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
        self.p.stdin.flush()

    def recv(self):
        h = b""
        while not h.endswith(b"\r\n\r\n"):
            c = self.p.stdout.read(1)
            if not c:
                raise EOFError("the server ended")
            h += c
        n = int(h.split(b":")[1].split(b"\r")[0])
        return json.loads(self.p.stdout.read(n))

    def publish(self):
        while True:
            m = self.recv()
            if m.get("method") == "textDocument/publishDiagnostics":
                return m["params"]

    def open(self, uri, text, version):
        self.send(method="textDocument/didOpen", params={"textDocument": {
            "uri": uri, "languageId": language(uri), "version": version, "text": text}})
        return self.publish()

    def fresh(self, uri, text, version):
        """The diagnostics of `text` as a new document."""
        self.send(method="textDocument/didClose", params={"textDocument": {"uri": uri}})
        self.publish()  # the close clears the document's diagnostics
        return self.open(uri, text, version)

    def close(self):
        self.send(id=1, method="shutdown")
        while self.recv().get("id") != 1:
            pass
        self.send(method="exit")
        self.p.stdin.close()
        self.p.wait()


def language(uri):
    return "python" if uri.endswith(".py") else "json" if uri.endswith(".json") else "dockerfile"


def position(text, off):
    """LSP (line, character) of str offset `off`: lines end at \\n, \\r\\n or \\r; characters in
    UTF-16 units."""
    line, start, i = 0, 0, 0
    while i < off:
        c = text[i]
        if c == "\n" or (c == "\r" and not (i + 1 < len(text) and text[i + 1] == "\n")):
            line, start = line + 1, i + 1
        i += 1
    return {"line": line, "character": len(text[start:off].encode("utf-16-le")) // 2}


PIECES = ['"', "'", "(", ")", "[", "]", "{", "}", ",", ":", "#", "\\", "\n", "\r\n", "\r", " ",
          "    ", "x", "RUN ", "pip install ", "é", "€", "\U0001F600", "ünï", "\t", "=",
          "apt-get install curl", "# boxlint: ignore=curl-pipe-shell", '"""', "ALL_TRAFFIC",
          "\U0001F600\U0001F601", "\u00a0"]


def snap(text, off):
    """An offset between \r and \n has no LSP position: the line's end, before the \r."""
    return off - 1 if 0 < off < len(text) and text[off - 1] == "\r" and text[off] == "\n" else off


def random_edit(r, text):
    """(a, b, new): replace text[a:b] (code points) with `new`."""
    a, b, new = random_span(r, text)
    a = snap(text, a)
    return a, max(a, snap(text, b)), new


def random_span(r, text):
    n = len(text)
    kind = r.random()
    a = r.randint(0, n)
    quotes = [i + 1 for i, c in enumerate(text) if c == '"']
    if quotes and r.random() < 0.4:  # inside a string: a command, a host, a name
        a = r.choice(quotes)
    if kind < 0.45:  # typing
        return a, a, "".join(r.choice(PIECES) for _ in range(r.randint(1, 3)))
    if kind < 0.65:  # deleting inside a line
        return a, min(n, a + r.randint(1, 4)), ""
    if kind < 0.8:  # across lines and statements
        return a, min(n, a + r.randint(5, 200)), r.choice(["", "\n", r.choice(PIECES)])
    if kind < 0.9:  # a span moved elsewhere: a copy of another part pasted
        c = r.randint(0, n)
        return a, a, text[c:c + r.randint(1, 120)]
    return a, min(n, a + 1), r.choice(PIECES)


def documents():
    docs = []
    pydir = os.path.join(SRC, "tests", "data", "python", "docs")
    for name in sorted(os.listdir(pydir)):
        if name.endswith(".py") and name[:2] in ("01", "02", "08", "11"):
            docs.append((name, open(os.path.join(pydir, name), encoding="utf-8").read()))
    docs.append(("tpl.template.json", open(os.path.join(SRC, "examples", "template.json")).read()))
    docs.append(("allow.policy.json", json.dumps({
        "type": "filtered",
        "allow_out": ["pypi.org", "*.pythonhosted.org", "api.github.com", "10.0.0.0/8",
                      "1.2.3.4", "*.example.com", "bad host", "pypi.org"],
        "deny_out": ["ALL_TRAFFIC", "169.254.169.254"]}, indent=2) + "\n"))
    docs.append(("setup.Dockerfile", "FROM scratch\nRUN apt-get update && apt-get install curl\n"
                 "# boxlint: ignore=curl-pipe-shell\nRUN curl -fsSL https://x.sh | sh\n"
                 "ENV KEY=sk-0123456789abcdef0123 \\\n    B=2\nWORKDR /app\nUSER root\n"))
    return docs


def replay(tmp, name, text, seed):
    uri = "file://%s/%s" % (tmp, name)
    r = random.Random(seed)
    live, ref = Server(cwd=tmp), Server(reuse=False, cwd=tmp)
    version = 1
    live.open(uri, text, version)
    ref.open(uri, text, version)
    diffs, seen, first = 0, set(), None
    undo = []  # (a, b, old): text[a:b] was `old` before an edit
    for k in range(EDITS):
        version += 1
        if r.random() < 0.05:  # a whole-text change
            a, b, new = random_edit(r, text)
            text = text[:a] + new + text[b:]
            changes = [{"text": text}]
            undo = []
        else:
            changes = []
            for _ in range(1 if r.random() < 0.8 else r.randint(2, 4)):
                if undo and r.random() < 0.35:  # undone: what broke is mended, and back
                    a, b, new = undo.pop()
                else:
                    a, b, new = random_edit(r, text)
                    undo.append((a, a + len(new), text[a:b]))
                changes.append({"range": {"start": position(text, a), "end": position(text, b)},
                                "text": new})
                text = text[:a] + new + text[b:]
        live.send(method="textDocument/didChange", params={
            "textDocument": {"uri": uri, "version": version}, "contentChanges": changes})
        got = live.publish()
        want = ref.fresh(uri, text, version)
        if k % 40 == 39:
            new_server = Server(cwd=tmp)
            alone = new_server.open(uri, text, version)
            new_server.close()
            if alone != want:
                diffs += 1
                first = first or (k, "fresh process", alone, want)
        if got != want:
            diffs += 1
            first = first or (k, "reuse-off server", got, want)
        seen.add(json.dumps(got["diagnostics"], sort_keys=True))
        if len(text) > 20000:  # keep the document an editor's size
            text = text[:10000]
            undo = []
            version += 1
            live.send(method="textDocument/didChange", params={
                "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]})
            live.publish()
    live.close()
    ref.close()
    return diffs, len(seen), first


def main():
    tmp = tempfile.mkdtemp()
    try:
        total_seen = 0
        for i, (name, text) in enumerate(documents()):
            diffs, nseen, first = replay(tmp, name, text, 28 + i)
            check("%s: %d edits, each publish the same as a fresh check's (%d distinct lists)"
                  % (name, EDITS, nseen), diffs == 0,
                  "%d differences; the first after edit %s, against the %s:\n%s\n%s"
                  % ((diffs,) + first[:2] + tuple(json.dumps(x)[:2000] for x in first[2:]))
                  if first else "")
            check("%s: the edits change what is published (more than 5 distinct lists)" % name,
                  nseen > 5, nseen)
            total_seen += nseen
        # surrogate pairs: an edit after a four-byte character, in UTF-16 units, and a finding
        # after it, the same from both servers
        uri = "file://%s/emoji.Dockerfile" % tmp
        text = "RUN echo \U0001F600\U0001F600 && apt-get install curl\n"
        live, ref = Server(cwd=tmp), Server(reuse=False, cwd=tmp)
        live.open(uri, text, 1)
        ref.open(uri, text, 1)
        live.send(method="textDocument/didChange", params={
            "textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": {
                "start": {"line": 0, "character": 13}, "end": {"line": 0, "character": 13}},
                "text": "\u20ac"}]})
        got = live.publish()
        text = "RUN echo \U0001F600\U0001F600\u20ac && apt-get install curl\n"
        want = ref.fresh(uri, text, 2)
        d = got["diagnostics"]
        check("after two surrogate pairs and a euro sign: apt-get-missing-yes at UTF-16 column 18",
              d and d[0]["code"] == "apt-get-missing-yes" and
              d[0]["range"]["start"] == {"line": 0, "character": 18} and got == want, (got, want))
        live.close()
        ref.close()
        check("the documents' publishes were of many kinds (%d distinct lists)" % total_seen,
              total_seen > 100, total_seen)
    finally:
        shutil.rmtree(tmp)
    print("FAILED: %d" % results.failed if results.failed else "OK")
    results.exit()


main()

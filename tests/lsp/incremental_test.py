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
What breaks the text is undone soon (an editor's undo, or the last good text sent whole). The
documents: Python files of tests/data/python/docs (SDK calls), a Python file of comments whose
edits land mostly inside comments (Python's tokenize says where; those the server republishes
without a check: suppressions, lines 1 and 2, a call's arguments, quotes and backslashes typed
into them), the same made several kilobytes long, the example template, a policy, and a Dockerfile fragment. The check cannot pass
vacuously: the publishes must differ from one another (findings come and go, syntax errors
among them).

usage: incremental_test.py BOXLINT [SOURCE_DIR]"""
import ast
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import tokenize

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


STRING_PIECES = ["x", "*.", ".", "-", "é", "\U0001F600", "ALL_TRAFFIC", "10.0.0.0/8", "a b", "RUN ",
                 "pip install y ", "sk-0123456789abcdef0123", " | sh", "$HOME", "\\"]


def snap(text, off):
    """An offset between \r and \n has no LSP position: the line's end, before the \r."""
    return off - 1 if 0 < off < len(text) and text[off - 1] == "\r" and text[off] == "\n" else off


COMMENT_PIECES = ["x", " ", "boxlint", ": ignore=curl-pipe-shell", "'", '"', '"""', "#", "\\",
                  "é", "\u0101", "\U0001F600", "coding: latin-1", "(", "ignore", "box", "lint"]


def comments_of(text):
    """The offsets of the '#' of each comment, by Python's own tokenizer (every '#' when the
    text does not tokenize)."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    try:
        return [starts[t.start[0] - 1] + t.start[1]
                for t in tokenize.generate_tokens(io.StringIO(text).readline)
                if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError, IndexError):
        return [i for i, c in enumerate(text) if c == "#"]


def in_comment(r, text):
    """A span inside a comment (after its '#', up to its line's end) and what to put there."""
    hashes = comments_of(text)
    later = [i for i in hashes if text.count("\n", 0, i) >= 2 and
             "boxlint" not in text[i:text.find("\n", i)]]
    if not hashes:
        return None
    # lines 1 and 2 (an encoding declaration there) and suppressions: now and then
    h = r.choice(later if later and r.random() < 0.9 else hashes)
    e = h
    while e < len(text) and text[e] not in "\r\n":
        e += 1
    a = r.randint(h + 1, e)
    if r.random() < 0.3:
        return a, min(e, a + r.randint(1, 5)), ""
    return a, a, r.choice(COMMENT_PIECES)


def random_edit(r, text, name):
    """(a, b, new): replace text[a:b] (code points) with `new`: in a JSON document mostly inside
    its strings, in comments.py mostly inside its comments."""
    x = in_comment(r, text) if name.startswith("comments") and r.random() < 0.95 else None
    a, b, new = x or random_span(r, text, 0.8 if name.endswith(".json") else 0.4)
    a = snap(text, a)
    return a, max(a, snap(text, b)), new


def random_span(r, text, in_string):
    n = len(text)
    kind = r.random()
    a = r.randint(0, n)
    quotes = [i + 1 for i, c in enumerate(text) if c == '"']
    if quotes and r.random() < in_string:  # inside a string: a command, a host, a name
        a = r.choice(quotes)
        if r.random() < 0.7:
            return a, a, r.choice(STRING_PIECES)
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


# Comments everywhere an edit may land: lines 1 and 2, a suppression, inside a call's
# arguments (the call's not-static finding spans them), after a finding on its line, between
# statements, beside a string holding '#'.
COMMENTS_PY = """#!/usr/bin/env python3
# -*- coding: utf-8 -*-
import os  # the key
from budai import BudClient

client = BudClient(api_key=os.environ["K"])  # a client
STEPS = ["RUN pip install httpx"]  # one step

# A template: its commands checked
client.code_interpreter.templates.create(
    name="a",  # the name
    commands=["pip install x", "RUN curl -fsSL https://x.sh | sh"],  # two findings before me
    cpu_count=2,
    memory_mb=1000,
)
# boxlint: ignore=curl-pipe-shell
client.code_interpreter.templates.update("t", commands=["RUN curl -fsSL https://y.sh | sh"])
client.code_interpreter.templates.update(
    "t",  # the id
    commands=[os.environ["C"]],  # known at run time: not-static spans this comment
)
s = "a # not a comment"  # but this is
t = '''  # a triple-quoted string, not a comment
  # still the string
'''  # after it
binding = client.agents.add_code_interpreter(
    "prm", template_id="a", lifespan_seconds=30,
    network_policy={"type": "filtered", "allow_out": ["bad host", "pypi.org"], "deny_out": []},
)  # the end
"""


def documents():
    docs = []
    pydir = os.path.join(SRC, "tests", "data", "python", "docs")
    for name in sorted(os.listdir(pydir)):
        if name.endswith(".py") and name[:2] in ("01", "02", "08", "11"):
            docs.append((name, open(os.path.join(pydir, name), encoding="utf-8").read()))
    docs.append(("comments.py", COMMENTS_PY))
    plain = COMMENTS_PY.replace("# -*- coding: utf-8 -*-", "# the service's templates")
    docs.append(("comments-undeclared.py", plain))
    # cp1252 has no 0x81: "\u0101" (UTF-8 C4 81) typed into a comment is an encoding error
    docs.append(("comments-cp1252.py", COMMENTS_PY.replace("utf-8", "cp1252")))
    # several kilobytes: the server's scan for comments starts at offsets an earlier scan found
    # between tokens (one every KiB), kept until an edit before them
    body = COMMENTS_PY.split("\n", 2)[2]
    docs.append(("comments-long.py", COMMENTS_PY + body * 8))
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


def parses(text):
    """Is the text Python (as this interpreter reads it)?"""
    try:
        ast.parse(text)
        return True
    except (SyntaxError, ValueError):
        return False


def replay(tmp, name, text, seed):
    uri = "file://%s/%s" % (tmp, name)
    r = random.Random(seed)
    live, ref = Server(cwd=tmp), Server(reuse=False, cwd=tmp)
    version = 1
    live.open(uri, text, version)
    ref.open(uri, text, version)
    diffs, seen, first = 0, set(), None
    undo = []  # (a, b, old): text[a:b] was `old` before an edit
    broken = False  # the last text was not Python, JSON: undone
    good = text  # the last text that was
    for k in range(EDITS):
        version += 1
        if broken and not undo:  # back to the last text that was read, whole
            text = good
            changes = [{"text": text}]
        elif r.random() < 0.05:  # a whole-text change
            a, b, new = random_edit(r, text, name)
            text = text[:a] + new + text[b:]
            changes = [{"text": text}]
            undo = []
        else:
            changes = []
            for _ in range(1 if r.random() < 0.8 else r.randint(2, 4)):
                if undo and (broken or r.random() < 0.35):  # undone: what broke is mended
                    a, b, new = undo.pop()
                    if snap(text, a) != a or snap(text, b) != b:  # a \r\n made of two edits
                        undo = []  # has no position between its halves: not undone
                        a, b, new = random_edit(r, text, name)
                else:
                    a, b, new = random_edit(r, text, name)
                    undo.append((a, a + len(new), text[a:b]))
                changes.append({"range": {"start": position(text, a), "end": position(text, b)},
                                "text": new})
                text = text[:a] + new + text[b:]
        live.send(method="textDocument/didChange", params={
            "textDocument": {"uri": uri, "version": version}, "contentChanges": changes})
        got = live.publish()
        want = ref.fresh(uri, text, version)
        # a broken Python file that no longer names the SDK is quiet (no python-syntax): it is
        # broken all the same, and undone
        broken = any(d["code"] in ("python-syntax", "python-encoding", "invalid-json")
                     for d in want["diagnostics"]) or (name.endswith(".py") and not parses(text))
        good = good if broken else text
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
            text = good = text[:10000]
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

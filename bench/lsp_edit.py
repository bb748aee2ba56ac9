#!/usr/bin/env python3
"""`boxlint lsp` as an editor drives it: the time from a didChange to its publishDiagnostics.

Two servers run side by side on the same edits, one edit to each in turn so that both see the
same load: "reuse" (the server as it ships) and "baseline" (initializationOptions
{"reuse": false}: every Diagnostic built and dumped again and every check a whole one, as before
issue 28). Each opens the
same document, then takes a few hundred edits typed one character at a time (a word typed, then
erased with backspace) at places of one kind, each timed from the write of the didChange to the
arrival of the publishDiagnostics with its version; the two answers are compared (the same
diagnostics, or the bench fails). The documents are generated with a fixed seed: a 100 KB
Python file with 200-odd SDK calls (bench/lsp_docs.py) and a 4 KB template. The client's own
cost is stated: the round trip of a request the server answers at once (an unknown method).
Which way each server published a row's edits is asked after the row, outside the clock
($/boxlint/stats): "moved" (an edit in a comment: the last findings moved, no check) and
"checked".

usage: lsp_edit.py BOXLINT [EDITS]   (EDITS per kind and document, default 300)"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp_docs  # noqa: E402

BIN = sys.argv[1]
EDITS = int(sys.argv[2]) if len(sys.argv) > 2 else 300


def frame(m):
    b = json.dumps(m).encode()
    return b"Content-Length: %d\r\n\r\n" % len(b) + b


class Server:
    """A client over the server's standard input and output: messages written whole, read with
    reads of up to 1 MiB at a time into one buffer, only the framing looked at while the clock runs."""

    def __init__(self, reuse):
        self.p = subprocess.Popen([BIN, "lsp", "--debounce", "0"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        self.fi, self.fo = self.p.stdin.fileno(), self.p.stdout.fileno()
        self.buf = bytearray()
        # one read buffer for the whole run: os.read(fd, 1 MiB) would allocate (mmap) a fresh
        # MiB for every read and fault its pages in, about 0.7 ms per 110 KB publish, which is
        # the client's cost, not the server's
        self.rbuf = bytearray(1 << 20)
        self.rmv = memoryview(self.rbuf)
        self.write(frame({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "capabilities": {}, "initializationOptions": {"reuse": reuse}}}))
        self.body()
        self.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))

    def write(self, b):
        view = memoryview(b)
        while view:
            view = view[os.write(self.fi, view):]

    def body(self):
        """The next message's body (bytes)."""
        while True:
            i = self.buf.find(b"\r\n\r\n")
            if i >= 0:
                n = int(self.buf[16:i])
                if len(self.buf) >= i + 4 + n:
                    b = bytes(self.buf[i + 4:i + 4 + n])
                    del self.buf[:i + 4 + n]
                    return b
            k = os.readv(self.fo, [self.rmv])
            if not k:
                raise EOFError("the server ended")
            self.buf += self.rmv[:k]

    def publish(self):
        """The next publishDiagnostics (bytes), other notifications passed over."""
        while True:
            b = self.body()
            if b.find(b'"textDocument/publishDiagnostics"', 0, 200) >= 0:
                return b

    def stats(self):
        """The server's counts of publishes: (moved, checked)."""
        self.write(frame({"jsonrpc": "2.0", "id": "stats", "method": "$/boxlint/stats"}))
        while True:
            m = json.loads(self.body())
            if m.get("id") == "stats":
                return m["result"]["moved"], m["result"]["checked"]

    def close(self):
        self.write(frame({"jsonrpc": "2.0", "id": 1, "method": "shutdown"}))
        self.body()
        self.write(frame({"jsonrpc": "2.0", "method": "exit"}))
        self.p.wait()


def ping(s, n):
    ts = []
    for i in range(n):
        m = frame({"jsonrpc": "2.0", "id": 100 + i, "method": "$/boxlint/ping"})
        t = time.perf_counter()
        s.write(m)
        s.body()
        ts.append(time.perf_counter() - t)
    return ts


def utf16_pos(text, off):
    """(line, character) of str offset `off`, characters in UTF-16 units."""
    line = text.count("\n", 0, off)
    start = text.rfind("\n", 0, off) + 1
    return line, len(text[start:off].encode("utf-16-le")) // 2


def typing(text, spots, n, seed, letters="abcdefghijklmnopqrstuvwxyz"):
    """n edits: at a spot, a word typed a character at a time, then erased; the next spot."""
    r = random.Random(seed)
    edits = []
    while len(edits) < n:
        at = r.choice(spots)
        word = "".join(r.choice(letters) for _ in range(r.randint(1, 6)))
        for k in range(len(word)):
            edits.append((at + k, at + k, word[k]))
        for k in range(len(word), 0, -1):
            edits.append((at + k - 1, at + k, ""))
    return edits[:n]


def spots_of(text, kind):
    """Offsets where an edit of this kind goes."""
    out = []
    if kind == "string":  # inside a command string of an SDK call or a template
        for ln_start in lsp_docs.line_starts(text):
            line = text[ln_start:text.find("\n", ln_start)]
            q = line.find('"RUN ')
            if q >= 0:
                out.append(ln_start + q + 5)
    elif kind == "code":  # code between calls: the loop counter's name
        i = text.find("attempt += 1")
        while i >= 0:
            out.append(i + len("attempt"))
            i = text.find("attempt += 1", i + 1)
    elif kind == "comment":
        i = text.find("# ")
        while i >= 0:
            out.append(i + 2)
            i = text.find("# ", i + 1)
    elif kind == "number":  # a template's memory_mb
        i = text.find('"memory_mb": ')
        out.append(i + len('"memory_mb": ') + 1)
    return out


def run(doc_name, uri, text, kinds, seed):
    servers = {"baseline": Server(False), "reuse": Server(True)}
    for s in servers.values():
        s.write(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": lsp_docs.language(uri), "version": 1,
                             "text": text}}}))
        s.publish()
    rows = []
    pings = {m: ping(s, 300) for m, s in servers.items()}
    version = 1
    for kind in kinds:
        full = kind.startswith("full")
        cur = text
        spots = spots_of(text, kind.split(" ")[-1] if full else kind)
        times = {m: [] for m in servers}
        before = {m: s.stats() for m, s in servers.items()}
        digits = kind == "number"
        for a, b, ins in typing(text, spots, EDITS, seed, "0123456789" if digits else
                                "abcdefghijklmnopqrstuvwxyz"):
            version += 1
            la, ca = utf16_pos(cur, a)
            lb, cb = utf16_pos(cur, b)
            cur = cur[:a] + ins + cur[b:]
            change = {"text": cur} if full else {
                "range": {"start": {"line": la, "character": ca},
                          "end": {"line": lb, "character": cb}}, "text": ins}
            msg = frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}})
            got = {}
            for m, s in servers.items():
                t = time.perf_counter()
                s.write(msg)
                body = s.publish()
                times[m].append(time.perf_counter() - t)
                got[m] = json.loads(body)["params"]
            for m, p in got.items():
                if p.get("version") != version:
                    sys.exit("%s: a publish of version %s after version %d" % (m, p.get("version"), version))
            if got["reuse"]["diagnostics"] != got["baseline"]["diagnostics"]:
                sys.exit("%s, %s: the servers differ after version %d" % (doc_name, kind, version))
        paths = {}
        for m, s in servers.items():
            (m1, c1), (m0, c0) = s.stats(), before[m]
            paths[m] = "%d/%d" % (m1 - m0, c1 - c0)
        # the document back as it was, for the next kind
        for s in servers.values():
            s.write(frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version + 1},
                "contentChanges": [{"text": text}]}}))
            s.publish()
        version += 1
        ndiag = len(got["reuse"]["diagnostics"])
        for m in servers:
            rows.append((doc_name, kind, m, times[m], ndiag, paths[m]))
    for s in servers.values():
        s.close()
    return rows, pings


def stats(ts):
    ts = sorted(ts)
    n = len(ts)

    def q(p):
        return ts[min(n - 1, int(p * n))] * 1e3
    return q(0.5), q(0.95), q(0.99), ts[-1] * 1e3


def main():
    tmp = tempfile.mkdtemp()
    py = lsp_docs.python_file()
    tpl = lsp_docs.template_file()
    docs = [("python %d KB" % (len(py.encode()) // 1000), "file://%s/service.py" % tmp, py,
             ["string", "code", "comment", "full string"]),
            ("template %d KB" % (len(tpl.encode()) // 1000), "file://%s/big.template.json" % tmp,
             tpl, ["string", "number", "full string"])]
    print("boxlint lsp: didChange to publishDiagnostics, ms (%d edits per row; --debounce 0)"
          % EDITS)
    print("%-16s %-12s %-9s %6s %9s %8s %8s %8s %8s" % ("document", "edit", "server", "diags",
                                                        "moved/chk", "median", "p95", "p99",
                                                        "max"))
    allp = {}
    for name, uri, text, kinds in docs:
        rows, pings = run(name, uri, text, kinds, 28)
        for m, ts in pings.items():
            allp.setdefault(m, []).extend(ts)
        for doc, kind, m, ts, nd, path in rows:
            print("%-16s %-12s %-9s %6d %9s %8.3f %8.3f %8.3f %8.3f" % (
                (doc, kind, m, nd, path) + stats(ts)), flush=True)
    for m, ts in allp.items():
        print("%-16s %-12s %-9s %6s %9s %8.3f %8.3f %8.3f %8.3f" % (
            ("client", "ping", m, "-", "-") + stats(ts)))
    os.rmdir(tmp)


main()

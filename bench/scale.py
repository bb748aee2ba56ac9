#!/usr/bin/env python3
"""The shapes issue 23 found quadratic (or worse), each at four sizes, doubling, with the median
wall clock and the ratio per doubling (about 2 when linear, 4 when quadratic; near 1 when a fixed
cost, such as starting the process or walking the files, outweighs the work that grows).

  scale.py BOXLINT [--runs N] [--timeout S] [--only NAME]

Shapes: --diff of a fragment with a fix on every line and of a JSON array with a fix in every
command (the de-duplication of edits, the commands' literals); a JSON array of erroneous commands in each output format (text, SARIF, GitHub, JSON: finding each
position in the file); `boxlint policy` on a NetworkPolicy whose every CIDR has host bits set;
the language server publishing a document with a finding on every line (time from didOpen to
publishDiagnostics); a fragment whose every instruction has a finding and a suppression comment,
and one comment listing tens of thousands of rule ids; the gitignore wildcard
`*a*a*a*a*a*a*a*a*a*a*a*a*b` (as --exclude and as a .gitignore in a git repository) against
names of growing length. A run past --timeout seconds (default 60) is printed as such and the
shape's larger sizes are skipped."""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BIN = os.path.abspath(sys.argv[1])
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
TIMEOUT = float(sys.argv[sys.argv.index("--timeout") + 1]) if "--timeout" in sys.argv else 60
ONLY = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
PATTERN = "*a*a*a*a*a*a*a*a*a*a*a*a*b"


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def frag_fixes(d, n):
    write(os.path.join(d, "f.Dockerfile"), "pip install x\n" * n)  # each: RUN inserted
    return [BIN, "--diff", os.path.join(d, "f.Dockerfile")]


def json_fixes(d, n):
    write(os.path.join(d, "w.json"), json.dumps(["WROKDIR /x"] * n, indent=1))  # each: WORKDIR
    return [BIN, "--diff", os.path.join(d, "w.json")]


def json_cmds(fmt):
    def make(d, n):
        write(os.path.join(d, "c.json"), json.dumps(["FROM ubuntu"] * n, indent=1))
        return [BIN, "--format", fmt, os.path.join(d, "c.json")]
    return make


def policy_cidrs(d, n):
    allow = ["10.%d.%d.1/24" % (i >> 8 & 255, i & 255) for i in range(n)]
    write(os.path.join(d, "p.json"), json.dumps({"type": "filtered", "allow_out": allow}, indent=1))
    return [BIN, "policy", "--max-entries", str(n), os.path.join(d, "p.json")]


def frag_sup_each(d, n):
    write(os.path.join(d, "s.Dockerfile"),
          "# boxlint ignore=apt-get-missing-yes,r1,r2\nRUN apt-get install curl\n" * n)
    return [BIN, os.path.join(d, "s.Dockerfile")]


def frag_sup_ids(d, n):
    write(os.path.join(d, "i.Dockerfile"), "# boxlint ignore=" + ",".join("r%d" % i for i in range(n))
          + ",apt-get-missing-yes\nRUN apt-get install curl\n")
    return [BIN, os.path.join(d, "i.Dockerfile")]


def long_names(d, n, gitignore):
    """100 fragments named by a number, n - 3 characters of 'a' and .Dockerfile (a walk matches
    the patterns against the files it would read): none matches PATTERN."""
    root = os.path.join(d, "tree%d" % n)
    if not os.path.isdir(root):
        os.makedirs(root)
        for i in range(100):
            write(os.path.join(root, "%03d" % i + "a" * (n - 3) + ".Dockerfile"), "RUN echo\n")
        if gitignore:
            subprocess.run(["git", "init", "-q", root], check=True)
            write(os.path.join(root, ".gitignore"), PATTERN + "\n")
    return [BIN, root] if gitignore else [BIN, "--exclude", PATTERN, root]


def shapes():
    yield "--diff, fragment, fixes", [25000, 50000, 100000, 200000], frag_fixes, None
    yield "--diff, JSON commands, fixes", [10000, 20000, 40000, 80000], json_fixes, None
    for fmt in ["text", "sarif", "github", "json"]:
        yield "JSON commands, " + fmt, [10000, 20000, 40000, 80000], json_cmds(fmt), None
    yield "policy, CIDRs", [8191, 16383, 32767, 65535], policy_cidrs, None
    yield "lsp publish, findings", [4000, 8000, 16000, 32000], None, "lsp"
    yield "suppression per instruction", [10000, 20000, 40000, 80000], frag_sup_each, None
    yield "rule ids in one comment", [10000, 20000, 40000, 80000], frag_sup_ids, None
    yield "--exclude wildcard, name", [30, 60, 120, 240], lambda d, n: long_names(d, n, 0), None
    yield ".gitignore wildcard, name", [30, 60, 120, 240], lambda d, n: long_names(d, n, 1), None


def timed(args):
    """Median of RUNS runs, the last exit code, or (None, why) past the timeout."""
    ts, rc = [], None
    for _ in range(RUNS):
        t = time.perf_counter()
        try:
            p = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return None, "timeout"
        ts.append(time.perf_counter() - t)
        rc = p.returncode
    return statistics.median(ts), rc


class Lsp:
    def __init__(self):
        self.p = subprocess.Popen([BIN, "lsp", "--debounce", "0"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.send(id=1, method="initialize", params={"capabilities": {}})
        self.recv(lambda m: m.get("id") == 1)
        self.send(method="initialized", params={})

    def send(self, **m):
        b = json.dumps(dict(jsonrpc="2.0", **m)).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
        self.p.stdin.flush()

    def recv(self, want):
        while True:
            h = b""
            while not h.endswith(b"\r\n\r\n"):
                c = self.p.stdout.read(1)
                if not c:
                    raise EOFError
                h += c
            n = int(h.split(b":")[1].split(b"\r")[0])
            m = json.loads(self.p.stdout.read(n))
            if want(m):
                return m

    def close(self):
        self.p.stdin.close()
        self.p.kill()
        self.p.wait()


def lsp_publish(d, n):
    """didOpen of a fragment with a finding on each of n lines, to its publishDiagnostics."""
    text = "RUN apt-get install curl\n" * n
    ts = []
    for r in range(RUNS):
        s = Lsp()
        uri = "file://" + os.path.join(d, "doc%d.Dockerfile" % r)
        t = time.perf_counter()
        s.send(method="textDocument/didOpen", params={"textDocument": {
            "uri": uri, "languageId": "dockerfile", "version": 1, "text": text}})
        m = s.recv(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        ts.append(time.perf_counter() - t)
        s.close()
        if len(m["params"]["diagnostics"]) < n:
            return None, "only %d findings" % len(m["params"]["diagnostics"])
        if time.perf_counter() - t > TIMEOUT:
            return None, "timeout"
    return statistics.median(ts), 0


def main():
    tmp = tempfile.mkdtemp()
    print("%-30s %8s %12s %7s %s" % ("shape", "size", "median s", "ratio", "exit"))
    try:
        for name, sizes, make, kind in shapes():
            if ONLY and ONLY not in name:
                continue
            prev = None
            for n in sizes:
                t, rc = lsp_publish(tmp, n) if kind == "lsp" else timed(make(tmp, n))
                if t is None:
                    print("%-30s %8d %12s %7s %s" % (name, n, "> %g" % TIMEOUT, "-", rc))
                    break
                ratio = "%.2f" % (t / prev) if prev else "-"
                print("%-30s %8d %12.4f %7s %d" % (name, n, t, ratio, rc), flush=True)
                prev = t
    finally:
        shutil.rmtree(tmp)


main()

#!/usr/bin/env python3
"""The shapes issue 23 found quadratic, each run once at a size where the quadratic code took
minutes (release build: 400,000 fixes 52 s, 80,000 erroneous commands 271 s, 65,535 CIDRs 55 s,
32,000 findings in the language server 13.9 s per publish, one comment with 80,000 rule ids
18 s; here larger still, under the sanitizers), each checked for the right output: every
finding, every fix, the last one at its right line and column.

THE GUARD IS THE TIMEOUT: nothing here measures time (the project's tests never assert on it);
ctest's TIMEOUT on this test (tests/CMakeLists.txt) and the per-run timeout below are what fail
when a shape goes quadratic again. bench/scale.py shows the ratios per doubling.

usage: scale_test.py BOXLINT"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN = sys.argv[1]
RUN_TIMEOUT = 150  # seconds, per run: the guard, with ctest's TIMEOUT
results = harness.Checks(echo=harness.say_each)
check = results.check
tmp = tempfile.mkdtemp()


def put(name, text):
    p = os.path.join(tmp, name)
    with open(p, "w") as f:
        f.write(text)
    return p


def run(args, stdin=None):
    try:
        p = subprocess.run([BIN] + args, input=stdin, capture_output=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, b"", b"timeout"
    return p.returncode, p.stdout, p.stderr


def fixes():
    n = 400000
    p = put("fixes.Dockerfile", "pip install x\n" * n)
    # every line an unknown word: the fixes are unsafe (the file may be no Dockerfile at all)
    rc, out, err = run(["--diff", "--unsafe-fixes", p])
    plus = [l for l in out.split(b"\n") if l.startswith(b"+") and not l.startswith(b"+++")]
    check("--diff, %d fixes in a fragment: exit 1" % n, rc == 1, (rc, err[:200]))
    check("... every line fixed", len(plus) == n and set(plus) == {b"+RUN pip install x"},
          (len(plus), plus[:2]))
    m = 100000
    p = put("fixes.json", json.dumps(["WROKDIR /x"] * m, indent=1))
    rc, out, err = run(["--diff", p])
    plus = [l for l in out.split(b"\n") if l.startswith(b"+") and not l.startswith(b"+++")]
    check("--diff, %d fixes in a JSON array: every command fixed" % m,
          rc == 1 and len(plus) == m and plus[-1] == b'+ "WORKDIR /x"', (rc, len(plus), plus[-1:]))


def json_positions():
    n = 100000
    p = put("cmds.json", json.dumps(["FROM ubuntu"] * n, indent=1))
    rc, out, err = run([p])
    lines = [l for l in out.split(b"\n") if b"[denied-instruction]" in l]  # and too-many-commands
    check("text, %d erroneous commands: one finding each" % n, rc == 1 and len(lines) == n,
          (rc, len(lines), err[:200]))
    check("... the last at its line and column",
          lines and lines[-1].startswith(("%s:%d:3: error" % (p, n + 1)).encode()), lines[-1:])
    rc, out, err = run(["--format", "github", p])
    lines = out.split(b"\n")
    check("github: every finding, the last at line %d" % (n + 1),
          rc == 1 and sum(b"title=denied-instruction" in l for l in lines) == n and
          (",line=%d,col=3," % (n + 1)).encode() in lines[-2], (rc, lines[-2:]))
    rc, out, err = run(["--format", "sarif", p])
    try:
        res = json.loads(out)["runs"][0]["results"]
    except ValueError:
        res = []
    check("sarif: every result, the last at line %d" % (n + 1),
          len(res) == n + 1 and res[-1]["locations"][0]["physicalLocation"]["region"]["startLine"] == n + 1,
          (rc, len(res)))


def policy():
    n = 65535
    allow = ["10.%d.%d.1/24" % (i >> 8 & 255, i & 255) for i in range(n)]
    p = put("policy.json", json.dumps({"type": "filtered", "allow_out": allow}, indent=1))
    rc, out, err = run(["policy", "--max-entries", str(n), p])
    lines = [l for l in out.split(b"\n") if b"[invalid-policy-entry]" in l]
    check("policy, %d CIDRs with host bits set: one finding each" % n,
          rc == 1 and len(lines) == n, (rc, len(lines), err[:200]))
    check("... the last at its line and column",
          lines and lines[-1].startswith(("%s:%d:3: error" % (p, n + 3)).encode()), lines[-1:])
    rc, out, err = run(["policy", "/dev/zero"])
    check("policy /dev/zero: stops at the 16 MiB limit, exit 2",
          rc == 2 and b"larger than the 16777216-byte limit" in err, (rc, err[:200]))


def frame(m):
    b = json.dumps(dict(jsonrpc="2.0", **m)).encode()
    return b"Content-Length: %d\r\n\r\n" % len(b) + b


def lsp():
    n = 100000
    text = "RUN apt-get install curl\n" * n
    fixable = "pip install x\n" * n  # each: unknown-instruction, its fix inserting RUN
    uri2 = "file://" + tmp + "/fix.Dockerfile"
    msgs = [dict(id=1, method="initialize", params={"capabilities": {}}),
            dict(method="initialized", params={}),
            dict(method="textDocument/didOpen", params={"textDocument": {
                "uri": "file://" + tmp + "/doc.Dockerfile", "languageId": "dockerfile",
                "version": 1, "text": text}}),
            dict(method="textDocument/didOpen", params={"textDocument": {
                "uri": uri2, "languageId": "dockerfile", "version": 1, "text": fixable}}),
            dict(id=3, method="textDocument/codeAction", params={
                "textDocument": {"uri": uri2}, "context": {"diagnostics": [], "only": ["quickfix"]},
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": n, "character": 0}}}),
            dict(id=2, method="shutdown"), dict(method="exit")]
    try:
        p = subprocess.run([BIN, "lsp", "--debounce", "0"], input=b"".join(frame(m) for m in msgs),
                           capture_output=True, timeout=RUN_TIMEOUT)
        out = p.stdout
    except subprocess.TimeoutExpired:
        out = b""
    diags = actions = None
    while out:
        h, _, rest = out.partition(b"\r\n\r\n")
        k = int(h.split(b":")[1])
        m = json.loads(rest[:k])
        out = rest[k:]
        if m.get("method") == "textDocument/publishDiagnostics" and "doc." in m["params"]["uri"]:
            diags = m["params"]["diagnostics"]
        if m.get("id") == 3:
            actions = m.get("result")
    check("lsp: a document with %d findings published, each at its line" % n,
          diags is not None and len(diags) == n and
          all(d["range"]["start"] == {"line": i, "character": 4} for i, d in enumerate(diags)),
          None if diags is None else (len(diags), diags[-1:]))
    edits = [a["edit"]["changes"][uri2][0] for a in actions or [] if a.get("kind") == "quickfix"]
    check("lsp: a code action over %d fixable findings, each fix at its line" % n,
          len(edits) == n and all(e["range"]["start"] == {"line": i, "character": 0} and
                                  e["newText"] == "RUN " for i, e in enumerate(edits)),
          None if actions is None else (len(edits), edits[-1:]))


def suppressions():
    n = 100000
    p = put("sup.Dockerfile", "# boxlint ignore=apt-get-missing-yes,r1\nRUN apt-get install curl\n" * n)
    rc, out, err = run(["--format", "json", p])
    ds = json.loads(out)["files"][0]["diagnostics"] if rc == 0 else []
    check("%d instructions, each with a suppression: each finding suppressed, r1 reported" % n,
          rc == 0 and len(ds) == n and all(d["rule"] == "unused-suppression" for d in ds) and
          ds[-1]["line"] == 2 * n - 1 and ds[-1]["column"] == 38, (rc, len(ds), ds[-1:]))
    ids = ",".join("r%d" % i for i in range(80000))
    p = put("ids.Dockerfile", "# boxlint ignore=" + ids + ",apt-get-missing-yes\nRUN apt-get install curl\n")
    rc, out, err = run(["--format", "json", p])
    ds = json.loads(out)["files"][0]["diagnostics"] if rc == 0 else []
    check("a comment with 80,001 ids: suppresses nothing, one unused-suppression",
          [d["rule"] for d in ds] == ["unused-suppression", "apt-get-missing-yes"] and
          "80001 rule ids, more than the 256" in ds[0]["message"], ds)
    for k, want in ((255, 255), (256, 2)):
        ids = ",".join("r%d" % i for i in range(k))
        p = put("ids%d.Dockerfile" % k, "# boxlint ignore=" + ids + ",apt-get-missing-yes\nRUN apt-get install curl\n")
        rc, out, err = run(["--format", "json", p])
        ds = json.loads(out)["files"][0]["diagnostics"] if rc == 0 else []
        rules = sorted(set(d["rule"] for d in ds))
        check("a comment with %d ids: %s" % (k + 1, "applies" if k < 256 else "suppresses nothing"),
              len(ds) == want and rules == (["unused-suppression"] if k < 256 else
                                            ["apt-get-missing-yes", "unused-suppression"]),
              (len(ds), rules))


try:
    for case in (fixes, json_positions, policy, lsp, suppressions):
        case()
finally:
    shutil.rmtree(tmp)
print("scale: %d failed" % results.failed)
results.exit()

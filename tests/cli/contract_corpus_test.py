#!/usr/bin/env python3
"""Completeness and fidelity on real Dockerfiles (docs/design.md §1), by the command's JSON contract
(design.md §5): `boxlint --format json FILE...` on every file of the real corpus (one process),
then, file by file against BuildKit's own split (EXPECTED.jsonl):

- the commands are exactly BuildKit's instructions: keyword, first and last line, in order;
- no error but `denied-instruction` on FROM/COPY/ADD/CMD/ENTRYPOINT, and `command-too-long` on
  instructions of more than 4096 bytes; and each of those is reported on its own instruction
  (denied: at the keyword's line; too long: on a line of that instruction, where the limit is
  crossed), so nothing denied or too long goes unreported;
- the one file BuildKit rejects (a Go template, not a Dockerfile) is not accepted either;
- `ok` is false exactly for the files with an error, and the exit code is 1.

Usage: contract_corpus_test.py PATH/TO/boxlint CORPUS_DIR (tests/data/corpus/real-dockerfiles)
"""
import json, os, subprocess, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN, CORPUS = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
DENIED = {"from", "copy", "add", "cmd", "entrypoint"}
LIMIT = 4096
results = harness.Checks()
check, fails = results.check, results.fails


expected = [json.loads(line) for line in open(os.path.join(CORPUS, "EXPECTED.jsonl"))]
paths = [os.path.join(CORPUS, e["file"]) for e in expected]
# the corpus's files are named NAME__Dockerfile: fragments only when asked (--kind)
p = subprocess.run([BIN, "--format", "json", "--fail-on", "error", "--kind", "fragment"] + paths,
                   capture_output=True, timeout=300)
doc = json.loads(p.stdout)
files = {f["path"]: f for f in doc["files"]}
check("one report per file", len(doc["files"]) == len(paths), len(doc["files"]), len(paths))
check("exit code 1 (the corpus has denied instructions)", p.returncode == 1, p.returncode,
      p.stderr[-300:])

nfiles = ninstr = too_long = denied = 0
for e, path in zip(expected, paths):
    name = e["file"]
    f = files.get(path)
    if f is None:
        check(name + ": reported", False)
        continue
    errs = [d for d in f.get("diagnostics", []) if d.get("severity") == "error"]
    if e.get("error"):
        # BuildKit rejects this file; boxlint must not accept it.
        check(name + ": rejected as BuildKit rejects it", errs and f.get("ok") is False, e["error"])
        continue
    nfiles += 1
    want = [(i["kw"], i["start"], i["end"]) for i in e["instructions"]]
    got = [((c.get("instruction") or "").lower(), c.get("line"), c.get("end_line"))
           for c in f.get("commands", [])]
    ninstr += len(want)
    if got != want:
        k = next((k for k in range(min(len(got), len(want))) if got[k] != want[k]),
                 min(len(got), len(want)))
        check(name + ": split as BuildKit splits it", False, "got", got[k:k + 1], "want", want[k:k + 1])
        continue
    with open(path, "rb") as fh:
        lines = fh.read().split(b"\n")
    size = [len(b"\n".join(lines[s - 1:t])) for _, s, t in want]
    # What must be reported, per command: denied keywords, and sizes over the limit.
    must = set()
    for k, (kw, start, _) in enumerate(want):
        if kw in DENIED:
            must.add(("denied-instruction", k))
        if size[k] > LIMIT:
            must.add(("command-too-long", k))
    seen = set()
    for d in errs:
        k = d.get("command")
        key = (d.get("rule"), k)
        if key in must and isinstance(k, int):
            _, start, end = want[k]
            at = d.get("line")
            where = at == start if key[0] == "denied-instruction" else start <= at <= end
            check(name + ": %s at the right line" % key[0], where, k, at, (start, end))
            seen.add(key)
            continue
        check(name + ": no false error", False, d.get("rule"), "command", k, "line", d.get("line"),
              d.get("message"))
    for key in sorted(must - seen, key=str):
        check(name + ": reported", False, key)
    too_long += sum(1 for r, _ in must if r == "command-too-long")
    denied += sum(1 for r, _ in must if r == "denied-instruction")
    check(name + ": ok", f.get("ok") is (not must), f.get("ok"), len(must))

check("the corpus holds 246 files", len(expected) == 246, len(expected))
check("26 instructions over 4096 bytes (docs/design.md §1)", too_long == 26, too_long)
results.print_fails(30)
print(f"real corpus: {nfiles} files, {ninstr} instructions, {denied} denied, {too_long} too long")
print(f"real corpus: {results.passed} passed, {len(fails)} failed")
results.exit()

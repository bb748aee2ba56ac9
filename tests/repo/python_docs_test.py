#!/usr/bin/env python3
"""Templates where they are written: every Python example of the platform's documentation
(tests/data/python/docs, copied verbatim) and the literal forms of tests/data/python/cases,
each next to its JSON twins (X.py with X.*.json: the same template, binding, policy or
commands written as JSON). boxlint must report on the .py file what it reports on the twins,
and at the same place: for each finding, the text its range covers and the text before it in
its literal are decoded on both sides (Python's own tokenize and eval; json) and must be equal.
Arguments: the boxlint binary, the tests/data directory."""
import glob, io, json, os, re, subprocess, sys, tokenize
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN, DATA = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
results = harness.Checks()
check, fails = results.check, results.fails

def lint(path):
    p = subprocess.run([BIN, "--format", "json", "--fail-on", "info", path], capture_output=True,
                       timeout=60, env=dict(os.environ, NO_COLOR="1"))
    out = json.loads(p.stdout.decode()) if p.stdout else {"files": []}
    diags = [d for f in out["files"] for d in f["diagnostics"]]
    return p.returncode, diags, p.stderr.decode()

def index_of(text, line, col, breaks=r"\r\n|\r|\n"):
    """String index of 1-based (line, code-point column); lines end at `breaks` (Python's line
    breaks for a file, only \\n inside a command, as BuildKit counts)."""
    at = 0
    for _ in range(line - 1):
        m = re.compile(breaks).search(text, at)
        if not m:
            return len(text)
        at = m.end()
    return at + col - 1

# ---- Python side: the literal around an index ------------------------------------------------

def py_strings(text):
    """Groups of adjacent string tokens: [(start, end, [(start, end, tokentext)])] in indices."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    groups, cur = [], None
    for t in tokenize.generate_tokens(io.StringIO(text).readline):
        if t.type == tokenize.STRING:
            a = starts[t.start[0] - 1] + t.start[1]
            b = starts[t.end[0] - 1] + t.end[1]
            if cur is None:
                cur = []
                groups.append(cur)
            cur.append((a, b, text[a:b]))
        elif t.type not in (tokenize.NL, tokenize.COMMENT):
            cur = None
    return groups

def py_value(src):
    v = eval(src, {"__builtins__": {}})
    return v.decode("latin-1") if isinstance(v, bytes) else v

def py_decoded_prefix(groups, idx):
    """The decoded text of the literal group holding index idx, up to idx; None when outside."""
    for g in groups:
        done = ""
        for a, b, tok in g:
            m = re.match(r"([A-Za-z]*)('''|\"\"\"|'|\")", tok)
            body = a + m.end()
            if body <= idx <= b - len(m.group(2)):
                part = tok[:m.end()] + tok[m.end():idx - a] + m.group(2)
                return done + py_value(part)
            done += py_value(tok)
    return None

# ---- JSON side -------------------------------------------------------------------------------

JSTR = re.compile(r'"(?:[^"\\]|\\.)*"')

def js_decoded_prefix(text, idx):
    for m in JSTR.finditer(text):
        if m.start() + 1 <= idx <= m.end() - 1:
            return json.loads(text[m.start():idx] + '"')
    return None

# ---- the comparison --------------------------------------------------------------------------

def covered(kind, text, groups, d):
    """(decoded text before the range in its literal, decoded text of the range); for a range
    over whole values, (None, the value). A JSON finding inside a command has positions in the
    command (docs/design.md §5's JSON output)."""
    if kind == "json" and d["command"] is not None:
        doc = json.loads(text)
        cmd = (doc if isinstance(doc, list) else doc["commands"])[d["command"]]
        a = index_of(cmd, d["line"], d["column"], r"\n")
        b = index_of(cmd, d["end_line"], d["end_column"], r"\n")
        return cmd[:a], cmd[a:b]
    a = index_of(text, d["line"], d["column"])
    b = index_of(text, d["end_line"], d["end_column"])
    if kind == "py":
        pa, pb = py_decoded_prefix(groups, a), py_decoded_prefix(groups, b)
    else:
        pa, pb = js_decoded_prefix(text, a), js_decoded_prefix(text, b)
    if pa is not None and pb is not None and pb.startswith(pa):
        return pa, pb[len(pa):]
    raw = text[a:b]
    try:
        return None, (py_value(raw) if kind == "py" else json.loads(raw))
    except Exception as e:
        return None, ("<not a value: %r>" % raw)

def compare(py):
    stem = py[:-3]
    twins = sorted(glob.glob(stem + ".*.json"))
    rc, pdiags, err = lint(py)
    name = os.path.relpath(py, DATA)
    check(name + ": checked", rc in (0, 1) and not err, rc, err)
    ptext = open(py, encoding="utf-8").read()
    groups = py_strings(ptext)
    want = []
    for j in twins:
        jrc, jd, jerr = lint(j)
        check(os.path.relpath(j, DATA) + ": checked", jrc in (0, 1) and not jerr, jrc, jerr)
        jtext = open(j, encoding="utf-8").read()
        want += [(d, jtext) for d in jd]
    got = [d for d in pdiags if d["rule"] != "not-static"]
    key = lambda d: (d["rule"], d["severity"], d["message"])
    check(name + ": the same findings as its JSON twins",
          sorted(map(key, got)) == sorted(key(d) for d, _ in want),
          sorted(map(key, got)), sorted(key(d) for d, _ in want))
    pool = list(want)
    for d in got:
        m = next((w for w in pool if key(w[0]) == key(d)), None)
        if not m:
            continue
        pool.remove(m)
        jd, jtext = m
        pc, jc = covered("py", ptext, groups, d), covered("json", jtext, None, jd)
        check("%s:%d:%d %s: at the place its twin names" % (name, d["line"], d["column"], d["rule"]),
              pc == jc, pc, jc)
    return pdiags

for py in sorted(glob.glob(os.path.join(DATA, "python", "docs", "*.py")) +
                 glob.glob(os.path.join(DATA, "python", "cases", "*.py"))):
    diags = compare(py)
    base = os.path.basename(py)
    statics = [(d["line"], d["column"], d["path"]) for d in diags if d["rule"] == "not-static"]
    expect = {"01-quick-start.py": [(17, 17, "template_id")],
              "11-async-client.py": [(11, 79, "template_id")],
              "12-error-handling.py": [(4, 52, "the arguments")]}.get(base, [])
    check(base + ": not-static where the value is known only at run time", statics == expect,
          statics, expect)

results.print_fails(sep="\n  ")
print("python docs: %d passed, %d failed" % (results.passed, len(fails)))
results.exit()

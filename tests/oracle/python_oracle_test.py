#!/usr/bin/env python3
"""The execution oracle for Python files (the contract docs/python.md states): for every SDK call
that CPython executes, boxlint either checks exactly the values CPython computes (the findings
of the same values written as JSON), or reports `not-static` at that call; a file it cannot
decode as CPython does is an input error (a python-encoding finding, exit 1), never a pass.

Each case, tests/data/python/oracle/<family>/*.py (its first line says what it tries), is run
by CPython 3.11 (/usr/bin/python3, or $BOXLINT_ORACLE_PYTHON; skipped, 77, when it is not a
3.11) with the stub SDK of tests/data/python/oracle/stub first on sys.path, in an empty
temporary directory, 10 s at most. The stub has the SDK's real signatures and records every
call of templates.create/.update, agents.add_code_interpreter and NetworkPolicy(...): its bound
arguments as the SDK would send them (JSON), whether binding them raised TypeError, and the
span of the call expression in the case file (the CALL instruction's positions; a call made
from an exec() string or through functools.partial is the span of the case file's expression
that led to it). Executions with the same kind and span are one call site (a loop).

Each executed call becomes its JSON twin, linted with `boxlint --format json`: create as a
template {name, commands, cpu_count, memory_mb}; update as {"name": template_id, "commands"}
(its missing-field findings for cpu_count/memory_mb ignored); add_code_interpreter as a binding
with the members the call passed (agent_id dropped; a NetworkPolicy as its three fields when the
binding is made); a NetworkPolicy that no binding took as a policy {type, allow_out, deny_out},
its defaults filled in. A value JSON cannot hold (bytes, a set, an object) or a twin that
boxlint refuses as input means the platform rejects the call: the .py must have an error there.

The case file itself is linted (a copy, in the temporary directory) and each call site judged:
  input error   boxlint refused the .py: a python-encoding or python-syntax finding (or exit 2)
                (counted apart, never a pass unless CPython also could not run the file,
                which makes the case a defect).
  not-static    a not-static finding lies in the call's span (its lines; columns only where two
                call sites share a line), or on a line the case declares with
                `# oracle: not-static-at=LINE[,LINE]` (for a reference boxlint flags away from
                the call, e.g. the alias `t = client.code_interpreter.templates`). A not-static
                explains the twin's findings under the same argument (commands, network_policy,
                name...; a not-static that names no argument, e.g. `**kw`, or a declared one,
                explains all); the findings it does not explain must still be there.
  exact         the multiset of (rule, severity) of the .py's findings in the span equals the
                twin's (not-static and unused-suppression left out). A twin finding the span
                lacks may be found outside every executed call's span, at the literal a name
                was bound to (matched by rule, severity, message and field path); such a
                finding that no call accounts for is a false alarm.
  BYPASS        the .py lacks a finding the twin has and nothing explains it (an error: loudly;
                a warning or info: "BYPASS (warning)"); also exit 0 while a call's twin has an
                unexplained error. A call that raised TypeError in the stub (the SDK raises)
                needs an error finding (any rule) or a not-static in its span.
  FALSE ALARM   the span has a finding the twin does not.
  (slow)        any boxlint run of the case over 1 s: counted and printed ("over 1 s"), never
                a failure (tests do not assert on time; bench/python_scale.py measures).

Suppressions: when the case has `# boxlint: ignore=` comments, the soundness comparison uses the
case with those comments neutralised (same length, so every position stays), and the real file
must report exactly what the documented semantics leave of that: a comment removes warnings and
infos of its rules on its own line when it follows code there, on the next line when it stands
alone; errors and not-static are never removed (unused-suppression is not compared); a comment
listing more than 256 rule ids removes nothing (the documented limit). A finding
removed that should stay is a BYPASS, one kept that should go a FALSE ALARM.

A case that executes no SDK call at all tests nothing and fails. Output: one line per family,
`family: N cases, C executed calls, S checked exactly, T not-static, E input errors,
B bypasses, F false alarms, W over 1 s`, then the failures; exit 1 on any failure.
Arguments: the boxlint binary (default build/test/cli/boxlint), optionally the cases directory
and family names to run."""
import codecs, collections, io, json, os, re, shutil, subprocess, sys, tempfile, time, tokenize

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      os.path.join(HERE, "..", "..", "build", "test", "cli", "boxlint"))
CASES = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else
                        os.path.join(HERE, "..", "data", "python", "oracle"))
ONLY = set(sys.argv[3:])
STUB = os.path.join(CASES, "stub")
PY = os.environ.get("BOXLINT_ORACLE_PYTHON", "/usr/bin/python3")
SLOW = 1.0
IGNORED = ("not-static", "unused-suppression")
VERBOSE = os.environ.get("BOXLINT_ORACLE_VERBOSE") == "1"  # a line per call site

def skip(why):
    print("SKIPPED: " + why)
    sys.exit(77)

if not os.path.exists(PY):
    skip(PY + " is not installed")
ver = subprocess.run([PY, "-c", "import sys; print(sys.version_info[:2] == (3, 11))"],
                     capture_output=True, text=True)
if ver.stdout.strip() != "True":
    skip(PY + " is not CPython 3.11")

# ---- running ---------------------------------------------------------------------------------

def run_case(path, tmp):
    """The calls CPython makes running the case: a list of records (see stub/budai)."""
    out = os.path.join(tmp, "calls.jsonl")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": STUB, "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHONNOUSERSITE": "1", "HOME": tmp, "LC_ALL": "C.UTF-8",
           "BUDAI_ORACLE_OUT": out, "BUDAI_ORACLE_CASE": path}
    try:
        p = subprocess.run([PY, "-s", path], cwd=tmp, env=env, capture_output=True,
                           timeout=10, stdin=subprocess.DEVNULL)
        rc, err = p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, err = "timeout", ""
    recs = []
    if os.path.exists(out):
        with open(out, encoding="utf-8") as fh:
            recs = [json.loads(l) for l in fh if l.strip()]
    return recs, rc, err

def lint(path):
    t0 = time.monotonic()
    p = subprocess.run([BIN, "--format", "json", path], capture_output=True, timeout=120,
                       env=dict(os.environ, NO_COLOR="1"), cwd=os.path.dirname(path))
    dt = time.monotonic() - t0
    try:
        out = json.loads(p.stdout.decode()) if p.stdout.strip() else {"files": []}
        diags = [d for f in out["files"] for d in f["diagnostics"]]
    except ValueError:
        diags = None
    return p.returncode, diags, p.stderr.decode("utf-8", "replace"), dt

# ---- the source: lines, columns, suppression comments ----------------------------------------

def source_text(raw):
    """The text CPython compiles (its encoding rules), or None."""
    try:
        enc = tokenize.detect_encoding(io.BytesIO(raw).readline)[0]
        if raw.startswith(codecs.BOM_UTF8):
            raw = raw[3:]
            enc = "utf-8"
        return raw.decode(enc), enc
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return None, None

def split_lines(text):
    return re.split(r"\r\n|\r|\n", text) if text is not None else []

MAX_IDS = 256  # rule ids one comment may list (docs/configuration.md); a comment listing more silences nothing
# The syntax of docs/configuration.md: a comment that does not parse (an id with other characters, text after
# the ids without " -- ") silences nothing.
SUP = re.compile(r"#[ \t]*boxlint(?:[ \t]*:[ \t]*|[ \t]+)ignore[ \t]*=[ \t]*([a-z0-9_.,-]*)"
                 r"(?:[ \t]+--.*|[ \t\r]*)$")

def suppressions(text):
    """[(rule, effective line, (line, col) of the comment)] for the file's comment tokens."""
    sups = []
    if text is None:
        return sups
    lines = split_lines(text)
    try:
        for t in tokenize.generate_tokens(io.StringIO(text).readline):
            if t.type != tokenize.COMMENT:
                continue
            m = SUP.match(t.string)
            if not m:
                continue
            ln, col = t.start
            before = lines[ln - 1][:col] if ln - 1 < len(lines) else ""
            eff = ln if before.strip() else ln + 1
            ids = [r for r in m.group(1).split(",") if r]
            if len(ids) > MAX_IDS:  # the documented limit: such a comment silences nothing
                continue
            sups += [(r, eff, (ln, col)) for r in ids]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return sups

def neutralised(text, enc, raw):
    """The file with its suppression comments made inert (same length), or None."""
    if text is None:
        return None
    lines = text.splitlines(True)
    starts = [0]
    for l in lines:
        starts.append(starts[-1] + len(l))
    chars = list(text)
    hit = False
    try:
        for t in tokenize.generate_tokens(io.StringIO(text).readline):
            if t.type == tokenize.COMMENT and SUP.match(t.string):
                at = starts[t.start[0] - 1] + t.start[1] + t.string.index("boxlint") + 6
                chars[at] = "X"
                hit = True
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    if not hit:
        return None
    bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
    if enc != "utf-8" or bom + text.encode("utf-8", "surrogatepass") != raw:
        return None  # only a file whose text re-encodes to its bytes is rewritten
    return bom + "".join(chars).encode("utf-8", "surrogatepass")

def declared_not_static(raw):
    return {int(x) for m in re.finditer(rb"#\s*oracle:\s*not-static-at=([\d,]+)", raw)
            for x in m.group(1).split(b",") if x}

# ---- twins -----------------------------------------------------------------------------------

def unrepresentable(v):
    if isinstance(v, dict):
        return "$unrepresentable" in v or any(unrepresentable(x) for x in v.values())
    if isinstance(v, list):
        return any(unrepresentable(x) for x in v)
    return False

def twin_of(rec):
    """(kind of twin, JSON document) of an executed call that bound its arguments."""
    g, a = rec["given"], rec["all"]
    if rec["kind"] == "create":
        return {k: a[k] for k in ("name", "commands", "cpu_count", "memory_mb")}
    if rec["kind"] == "update":
        return {"name": a["template_id"], "commands": a["commands"]}
    if rec["kind"] == "bind":
        return {k: g[k] for k in ("template_id", "version", "lifespan_seconds", "network_policy")
                if k in g}
    return {k: a[k] for k in ("type", "allow_out", "deny_out")}

TWIN_CACHE = {}

def twin_findings(rec, tmp):
    """(diags or None when the platform rejects it as a whole, twin text, seconds)."""
    if rec.get("raised"):
        return None, "(raised TypeError: %s)" % rec.get("message"), 0.0
    doc = twin_of(rec)
    text = json.dumps(doc, indent=1, ensure_ascii=False)
    if unrepresentable(doc):
        return None, text, 0.0
    if text in TWIN_CACHE:
        return TWIN_CACHE[text] + (0.0,)
    path = os.path.join(tmp, "twin%d.json" % len(TWIN_CACHE))
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    rc, diags, err, dt = lint(path)
    if rc == 2 or diags is None:
        res = (None, text + "\n(boxlint refused the twin: %s)" % err.strip()[:300])
    else:
        res = ([d for d in diags if d["rule"] not in IGNORED and not (
            rec["kind"] == "update" and d["rule"] == "missing-field" and
            (d.get("path") in ("cpu_count", "memory_mb") or
             re.search(r"cpu_count|memory_mb", d.get("message", ""))))], text)
    TWIN_CACHE[text] = res
    return res + (dt,)

# ---- judging ---------------------------------------------------------------------------------

def dpath(d):
    """A finding's field path; a JSON twin's finding inside a command names its command."""
    if d.get("path"):  # a policy's path with or without its binding's "network_policy."
        return re.sub(r"^network_policy\.", "", d["path"])
    return "commands[%d]" % d["command"] if d.get("command") is not None else None

def root(path):
    if not path:
        return None
    r = re.split(r"[.\[]", path)[0]
    return "policy" if r in ("network_policy", "type", "allow_out", "deny_out") else r

FIELD_PATH = re.compile(r"^[a-z_]+(\[\d+\])*(\.[a-z_]+(\[\d+\])*)*$")

def explains(ns, td):
    """Does the not-static finding ns (None: declared) explain the twin's finding td?"""
    if ns is None or not dpath(ns) or not FIELD_PATH.match(dpath(ns)):
        return True
    return dpath(td) is None or root(dpath(td)) == root(dpath(ns))

def path_ok(a, b):
    return dpath(a) is None or dpath(b) is None or dpath(a) == dpath(b)

def judge(rec, want, S, NS, floating, used):
    """The verdict on one execution: (kind, [detail lines]). kind in exact, not-static,
    bypass, false-alarm."""
    ns_here = list(NS)
    if want is None:  # the platform rejects the call (TypeError, bad type, refused twin)
        if any(d["severity"] == "error" for d in S):
            return "exact", []
        if ns_here:
            return "not-static", []
        return "bypass", ["BYPASS: no error finding in the span, while the SDK or the "
                           "platform rejects the call"]
    left = list(S)
    deficit = []
    notes = []
    for td in want:
        m = next((d for d in left if (d["rule"], d["severity"], d["message"]) ==
                  (td["rule"], td["severity"], td["message"])), None)
        if m is None:
            m = next((d for d in left if (d["rule"], d["severity"]) ==
                      (td["rule"], td["severity"])), None)
            if m is not None:
                notes.append("note: message differs: %r vs the twin's %r" %
                             (m["message"], td["message"]))
        if m is not None:
            left.remove(m)
        else:
            deficit.append(td)
    missing = []
    for td in deficit:
        fits = [i for i, d in enumerate(floating) if
                (d["rule"], d["severity"], d["message"]) ==
                (td["rule"], td["severity"], td["message"]) and path_ok(d, td)]
        f = next((i for i in fits if i not in used), fits[0] if fits else None)
        if f is not None:
            used.add(f)
            continue
        if any(explains(ns, td) for ns in ns_here):
            continue
        missing.append(td)
    det = []
    kind = "not-static" if ns_here else "exact"
    if missing:
        kind = "bypass"
        for td in missing:
            det.append("%s: the twin has %s %s at %s: %s" % (
                "BYPASS" if td["severity"] == "error" else "BYPASS (%s)" % td["severity"],
                td["severity"], td["rule"], dpath(td), td["message"][:120]))
    if left:
        if kind != "bypass":
            kind = "false-alarm"
        for d in left:
            det.append("FALSE ALARM: %d:%d %s %s: %s (not in the twin)" % (
                d["line"], d["column"], d["severity"], d["rule"], d["message"][:120]))
    return kind, det + notes

def in_span(d, span, shared):
    l0, l1, c0, c1 = span
    line, col = d["line"], d["column"] - 1
    if line < l0 or line > l1:
        return False
    if line == l0 and l0 in shared and col < c0:
        return False
    if line == l1 and l1 in shared and col >= c1:
        return False
    return True

def char_span(span, lines):
    """CPython's UTF-8 byte columns as code-point columns of the decoded lines."""
    if not span:
        return span
    l0, l1, c0, c1 = span
    def conv(ln, c):
        if 0 < ln <= len(lines):
            return len(lines[ln - 1].encode("utf-8", "surrogatepass")[:c].decode("utf-8", "replace"))
        return c
    return [l0, l1, conv(l0, c0), conv(l1, c1)]

def decoding_refusal(path, err):
    """Is boxlint's exit 2 a refusal of the file's encoding (the contract's input error)?
    Anything else on a file CPython ran (e.g. "invalid Python") is a false alarm. In the
    encodings family any exit 2 counts as a refusal."""
    fam = os.path.basename(os.path.dirname(path))
    return fam == "encodings" or bool(re.search(r"encod|decod|coding", err, re.I))

def refusal(rc, diags, err):
    """Did boxlint refuse the file (its encoding, its syntax)? (refused, why): a
    python-encoding or python-syntax finding, or exit 2 with its message on stderr."""
    if rc == 2:
        return True, err
    for d in diags or []:
        if d["rule"] in ("python-encoding", "python-syntax"):
            return True, d["rule"] + ": " + d["message"]
    return False, ""

# ---- one case --------------------------------------------------------------------------------

Stats = lambda: collections.Counter()

def check_case(path, stats, failures):
    name = os.path.relpath(path, CASES)
    raw = open(path, "rb").read()
    first = raw.split(b"\n", 1)[0]
    det = []
    if not first.lstrip(codecs.BOM_UTF8).startswith(b"#"):
        det.append("DEFECT: the case does not start with a comment saying what it tries")
    tmp = tempfile.mkdtemp(prefix="boxlint-oracle-")
    try:
        recs, prc, perr = run_case(path, tmp)
        text, enc = source_text(raw)
        lines = split_lines(text)
        copy = os.path.join(tmp, "case.py")
        with open(copy, "wb") as fh:
            fh.write(raw)
        rc, diags, err, dt = lint(copy)
        times = [dt]
        neut = neutralised(text, enc, raw)
        if neut is not None:
            ncopy = os.path.join(tmp, "case_neutral.py")
            with open(ncopy, "wb") as fh:
                fh.write(neut)
            nrc, ndiags, nerr, ndt = lint(ncopy)
            times.append(ndt)
        else:
            nrc, ndiags, nerr = rc, diags, err
        # the call sites
        consumed = {pid for r in recs if r["kind"] == "bind" and not r.get("raised")
                    for pid in r.get("policies", [])}
        sites = collections.OrderedDict()
        for r in recs:
            if r["kind"] == "policy" and r.get("id") in consumed:
                continue
            if r.get("span") is None:
                det.append("DEFECT: a %s call made outside the case file" % r["kind"])
                continue
            sites.setdefault((r["kind"], tuple(r["span"])), []).append(r)
        if not sites:
            det.append("DEFECT: CPython executed no SDK call (exit %s)%s" % (
                prc, ": " + perr.strip().splitlines()[-1] if perr.strip() else ""))
            stats["defects"] += 1
        stats["calls"] += len(sites)
        if max(times) > SLOW:
            stats["slow"] += 1
            det.append("note: boxlint took %.2f s (a figure, not a failure)" % max(times))
        refused, why = refusal(rc, diags, err)
        nrefused, nwhy = refusal(nrc, ndiags, nerr)
        if (refused or nrefused) and sites and not decoding_refusal(path, why or nwhy):
            stats["false"] += 1
            det.append("FALSE ALARM: boxlint refuses a file that CPython compiled and ran: " +
                       (why or nwhy).strip()[:300])
            failures.append((name, det))
            return
        if refused or nrefused:
            stats["input"] += len(sites)
            if VERBOSE:
                print("  %s: input error: %s" % (name, (why or nwhy).strip()[:200]))
            if refused != nrefused or rc != nrc:
                det.append("FALSE ALARM: exit %s with its suppression comments, %s without" %
                           (rc, nrc))
                stats["false"] += 1
            if any(not l.startswith("note:") for l in det):
                failures.append((name, det))
            return
        if diags is None or ndiags is None or rc not in (0, 1):
            det.append("boxlint failed: exit %s, %s" % (rc, (err or nerr).strip()[:300]))
            stats["false"] += 1
            failures.append((name, det))
            return
        if err.strip():
            det.append("note: boxlint's stderr: " + err.strip()[:200])
        cspans = {k: char_span(list(k[1]), lines) for k in sites}
        line_count = collections.Counter()
        for sp in cspans.values():
            for ln in {sp[0], sp[1]}:
                line_count[ln] += 1
        shared = {ln for ln, n in line_count.items() if n > 1}
        declared = declared_not_static(raw)
        checked = [d for d in ndiags if d["rule"] not in IGNORED]
        statics = [d for d in ndiags if d["rule"] == "not-static"]
        floating = [d for d in checked if not any(in_span(d, sp, shared) for sp in cspans.values())]
        used = set()
        file_bypass = False
        for key, group in sites.items():
            sp = cspans[key]
            S = [d for d in checked if in_span(d, sp, shared)]
            NS = [d for d in statics if sp[0] <= d["line"] <= sp[1]]
            if any(d["line"] in declared for d in statics):
                NS.append(None)
            verdicts = []
            for r in group:
                want, ttext, tdt = twin_findings(r, tmp)
                times.append(tdt)
                verdicts.append(judge(r, want, S, NS, floating, used) + (ttext,))
            order = ["bypass", "false-alarm", "not-static", "exact"]
            kind, vdet, ttext = min(verdicts, key=lambda v: order.index(v[0]))
            where = "%s at %d:%d-%d:%d" % (key[0], sp[0], sp[2] + 1, sp[1], sp[3] + 1)
            if len(group) > 1:
                where += " (executed %d times)" % len(group)
            if kind == "bypass":
                stats["bypass"] += 1
                severe = any(l.startswith("BYPASS:") for l in vdet)
                det.append("%s %s" % ("BYPASS" if severe else "BYPASS (warning)", where))
                det += ["    " + l for l in vdet] + ["    twin: " + ttext.replace("\n", " ")]
                file_bypass |= severe and rc == 0
            elif kind == "false-alarm":
                stats["false"] += 1
                det.append("FALSE ALARM " + where)
                det += ["    " + l for l in vdet] + ["    twin: " + ttext.replace("\n", " ")]
            elif kind == "not-static":
                stats["static"] += 1
            else:
                stats["exact"] += 1
            if VERBOSE:
                print("  %s: %s %s" % (name, where, kind))
                for l in vdet:
                    if l.startswith("note:"):
                        print("      " + l)
        for i, d in enumerate(floating):
            if i not in used:
                stats["false"] += 1
                det.append("FALSE ALARM %d:%d %s %s outside every executed call, and no call's "
                           "twin has it: %s" % (d["line"], d["column"], d["severity"], d["rule"],
                                                d["message"][:120]))
        if file_bypass:
            det.append("BYPASS: boxlint exits 0 on a file whose executed calls have errors")
        # the suppressions, against the neutralised file's findings
        if neut is not None:
            sups = suppressions(text)
            gone = {(r, ln) for r, ln, _ in sups}
            expect = [d for d in ndiags if d["rule"] != "unused-suppression" and not (
                d["severity"] in ("warning", "info") and d["rule"] != "not-static" and
                (d["rule"], d["line"]) in gone)]
            got = [d for d in diags if d["rule"] != "unused-suppression"]
            k = lambda d: (d["rule"], d["severity"], d["line"], d["column"], d["message"])
            ce, cg = collections.Counter(map(k, expect)), collections.Counter(map(k, got))
            for x in sorted((ce - cg).elements()):
                stats["bypass"] += 1
                det.append("%s: %d:%d %s %s removed by a suppression that does not cover it" % (
                    "BYPASS" if x[1] == "error" or x[0] == "not-static" else "BYPASS (%s)" % x[1],
                    x[2], x[3], x[1], x[0]))
            for x in sorted((cg - ce).elements()):
                stats["false"] += 1
                det.append("FALSE ALARM: %d:%d %s %s kept although a suppression covers it" % (
                    x[2], x[3], x[1], x[0]))
        if max(times) > SLOW and not any(l.startswith("note: boxlint took") for l in det):
            stats["slow"] += 1
            det.append("note: a boxlint run took %.2f s (a figure, not a failure)" % max(times))
        if any(not l.startswith("note:") for l in det):
            failures.append((name, det))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

def main():
    if not os.access(BIN, os.X_OK):
        print("FAIL: no boxlint at " + BIN)
        return 1
    failures, lines = [], []
    families = sorted(d for d in os.listdir(CASES) if d != "stub" and
                      os.path.isdir(os.path.join(CASES, d)) and (not ONLY or d in ONLY))
    total = Stats()
    for fam in families:
        stats = Stats()
        cases = sorted(f for f in os.listdir(os.path.join(CASES, fam)) if f.endswith(".py"))
        for c in cases:
            check_case(os.path.join(CASES, fam, c), stats, failures)
        total += stats
        lines.append("%s: %d cases, %d executed calls, %d checked exactly, %d not-static, "
                     "%d input errors, %d bypasses, %d false alarms, %d over 1 s" % (
                         fam, len(cases), stats["calls"], stats["exact"], stats["static"],
                         stats["input"], stats["bypass"], stats["false"], stats["slow"]))
    for l in lines:
        print(l)
    for name, det in failures:
        print("\nFAIL " + name)
        for l in det:
            print("  " + l)
    bad = total["bypass"] + total["false"] + total["defects"] + len(failures)
    print("\npython oracle: %d cases failed%s" % (
        len(failures), ", %d BYPASSES" % total["bypass"] if total["bypass"] else ""))
    return 1 if bad else 0

sys.exit(main())

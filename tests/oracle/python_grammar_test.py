#!/usr/bin/python3
"""The Python parser (lib/src/python/parse*.c) against CPython 3.11's ast.parse, through
tests/oracle/pyparse_probe.c (its output format is described at the top of that file).

  python_grammar_test.py PROBE [--seed N] [--gen N] [--mutants N] [--jobs N] [--extra DIR]...
                               [--scale SECONDS]

a. The standard library of this interpreter (every .py under its stdlib directory), and of
   each --extra DIR: the verdict (valid, or a syntax error) must be ast.parse's for every file;
   the files ast.parse rejects are counted and compared too.
b. Generated valid sources (seeded; tests/oracle/python_gen.py's gen_module): the same.
c. Mutants of the standard library (and of the --extra trees): a file's tokens (tokenize) with
   one token deleted, one duplicated, or two adjacent ones swapped (seeded). Whatever
   ast.parse says is the oracle: a mutant it takes must parse (no false rejection), and of
   those it rejects, at most 1% may parse. How often the error is on ast.parse's line is
   printed, not required.
d. Scale: big sources (40,000 keyword arguments, a 10 MB literal, long chains, many fields)
   must each take less than --scale seconds, whole probe run included (linear parsing).

Files that declare an encoding other than UTF-8 (or one that contradicts their BOM) are
skipped (the library reads UTF-8) and counted. Prints a line per corpus; fails on any
disagreement of (a) and (b), any false rejection, more than 1% of (c)'s rejections accepted,
and any (d) too slow or not ast.parse's verdict. Exit 77 (skipped) when the interpreter is
not a 3.11. Standard library only; run with Debian's /usr/bin/python3.
"""
import argparse
import ast
import concurrent.futures
import io
import os
import random
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import tokenize
import warnings

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from python_gen import gen_module  # noqa: E402  (beside this file)

SHOW = 10  # disagreements printed per corpus
CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def other_encoding(data):
    """The file declares an encoding other than UTF-8 (PEP 263, line 1 or 2)."""
    for line in data.splitlines()[:2]:
        m = CODING.match(line)
        if m:
            enc = m.group(1).lower().replace(b"_", b"-")
            return not (enc.startswith(b"utf-8") or enc == b"utf8")
        if line.strip() and not line.lstrip().startswith(b"#"):
            return False
    return False


def oracle(data):
    """ast.parse's verdict: None, or (line, column) of the SyntaxError (0, 0 when unknown)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ast.parse(data)
            return None
        except SyntaxError as e:
            return (e.lineno or 0, (e.offset or 1) - 1, e.msg)
        except (ValueError, MemoryError, RecursionError) as e:  # NUL bytes, too complex
            return (0, 0, str(e))


def run_probe(probe, paths):
    """{path: None | (line, col, msg)}"""
    p = subprocess.run([probe, "-V", "11"], input="\n".join(paths) + "\n", capture_output=True, text=True,
                       errors="surrogateescape", check=False)
    if p.returncode != 0:
        raise RuntimeError("probe failed (%d): %s" % (p.returncode, p.stderr[-2000:]))
    out, cur = {}, None
    for line in p.stdout.split("\n"):
        tag, _, rest = line.partition(" ")
        if tag == "F":
            cur = rest
            out[cur] = "missing"
        elif tag == "OK":
            out[cur] = None
        elif tag == "ERR":
            l, c, msg = rest.split(" ", 2)
            out[cur] = (int(l), int(c), msg)
    return out


def compare(probe, items, work):
    """items: [(name, bytes)] -> counts and examples of disagreements."""
    res = {"files": 0, "skipped": 0, "rejected": 0, "caught": 0, "accepted": 0,
           "false": 0, "same_line": 0, "bad": []}
    paths, datas = [], {}
    for k, (name, data) in enumerate(items):
        if other_encoding(data):
            res["skipped"] += 1
            continue
        path = os.path.join(work, "f%d.py" % k)
        with open(path, "wb") as f:
            f.write(data)
        paths.append(path)
        datas[path] = (name, data)
    got = run_probe(probe, paths) if paths else {}
    for path in paths:
        name, data = datas[path]
        want, have = oracle(data), got.get(path, "missing")
        if want is not None and want[2].startswith("encoding problem"):
            res["skipped"] += 1  # a coding declaration against the BOM: not the parser's
            continue
        res["files"] += 1
        if have == "missing":
            res["bad"].append((name, "no verdict from the probe"))
            continue
        if want is None and have is not None:
            res["false"] += 1
            res["bad"].append((name, "ast.parse takes it; probe: %d:%d %s" % have))
        elif want is not None:
            res["rejected"] += 1
            if have is None:
                res["accepted"] += 1
                res["bad"].append((name, "probe takes it; ast.parse: %d:%d %s" % want))
            else:
                res["caught"] += 1
                res["same_line"] += want[0] == have[0] or want[0] == 0  # 0: no line
    return res


def merge(parts):
    out = None
    for r in parts:
        if out is None:
            out = r
            continue
        for k, v in r.items():
            out[k] = out[k] + v
    return out


# ---- the corpora -------------------------------------------------------------------------

def tree_files(root):
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in ("__pycache__", "site-packages",
                                                      "dist-packages"))
        out += [os.path.join(d, f) for f in sorted(files) if f.endswith(".py")]
    return out


def read(path):
    with open(path, "rb") as f:
        return f.read()


def significant(data):
    """The NAME, NUMBER, STRING and OP tokens of data as (start, end) byte offsets, or None."""
    try:
        text = data.decode("utf-8")
        toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (SyntaxError, UnicodeDecodeError, tokenize.TokenError, IndentationError):
        return None, None
    starts, pos = [0], 0
    for line in text.splitlines(keepends=True):
        pos += len(line)
        starts.append(pos)
    keep = (tokenize.NAME, tokenize.NUMBER, tokenize.STRING, tokenize.OP)
    spans = [(starts[t.start[0] - 1] + t.start[1], starts[t.end[0] - 1] + t.end[1])
             for t in toks if t.type in keep]
    return text, spans


def mutant(r, text, spans):
    """One token deleted, duplicated, or two adjacent ones swapped."""
    k = r.randrange(3)
    i = r.randrange(len(spans) - 1)
    (a, b), (c, d) = spans[i], spans[i + 1]
    if k == 0:
        out = text[:a] + text[b:]
    elif k == 1:
        out = text[:b] + " " + text[a:b] + text[b:]
    else:
        out = text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
    return out.encode("utf-8", "surrogatepass")


def mutants(seed, index, count, sources):
    """`count` mutants, the index-th batch, of files among `sources` (paths)."""
    r = random.Random("mutants:%d:%d" % (seed, index))
    out = []
    while len(out) < count:
        path = r.choice(sources)
        text, spans = significant(read(path))
        if not spans or len(spans) < 2:
            continue
        for _ in range(min(count - len(out), 8)):
            out.append(("%s~%d" % (path, len(out)), mutant(r, text, spans)))
    return out


def job(kind, probe, payload):
    work = tempfile.mkdtemp(prefix="pygrammar.")
    try:
        if kind == "files":
            items = [(p, read(p)) for p in payload]
        elif kind == "gen":
            seed, lo, hi = payload
            items = [("generated #%d" % i, gen_module(random.Random("gen:%d:%d" % (seed, i))))
                     for i in range(lo, hi)]
        else:
            seed, index, count, sources = payload
            items = mutants(seed, index, count, sources)
        return kind, compare(probe, items, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


SCALE = [  # (name, source): each must take well under a second (linear parsing)
    ("40,000 keyword arguments",
     lambda: "f(" + ", ".join("a%d=%d" % (i, i) for i in range(40000)) + ")\n"),
    ("a 10 MB literal", lambda: "x = '" + "a" * 10_000_000 + "'\n"),
    ("a.b.c... 2,500 deep", lambda: "x = a" + ".b" * 2500 + "\n"),
    ("x+x+... 2,500 terms", lambda: "x = x" + "+x" * 2500 + "\n"),
    ("f()()... 2,500 calls", lambda: "x = f" + "()" * 2500 + "\n"),
    ("100,000 elements", lambda: "x = [" + "a, " * 100000 + "]\n"),
    ("100,000 statements", lambda: "x = 1; " * 100000 + "\n"),
    ("100,000 f-string fields", lambda: "x = f'" + "{a!r:>{w}}" * 100000 + "'\n"),
    ("a 1 MB f-string field", lambda: "x = f'{[" + "a, " * 330000 + "a]}'\n"),
    ("199 nested brackets", lambda: "x = " + "([{" * 66 + "x" + "}])" * 66 + "\n"),
    ("900 nested lambdas", lambda: "x = " + "lambda: " * 900 + "x\n"),
    ("2,000 elifs", lambda: "if a:\n    pass\n" + "elif b:\n    pass\n" * 2000),
    ("with ( and 50,000 items", lambda: "with (" + "a, " * 50000 + "b) as c: pass\n"),
    ("match ( and 50,000 items", lambda: "match (" + "a, " * 50000 + "b)\n"),
]


def scale(probe, limit):
    """The SCALE sources, each timed: the time is printed, never judged (tests do not assert
    on time; a parser gone quadratic on one of these takes minutes, which the test's ctest
    TIMEOUT stops; `limit`, what a run takes well under on an idle machine, is printed beside
    the first). Returns the number
    of failures: verdicts unlike ast.parse's."""
    import time
    fails = 0
    print("scale: times for reading (an idle machine: each well under %g s)" % limit)
    work = tempfile.mkdtemp(prefix="pygrammar.")
    try:
        for name, make in SCALE:
            data = make().encode()
            path = os.path.join(work, "scale.py")
            with open(path, "wb") as f:
                f.write(data)
            t = time.monotonic()
            have = run_probe(probe, [path])[path]
            dt = time.monotonic() - t
            want = oracle(data)
            ok = (have is None) == (want is None)
            fails += not ok
            print("scale: %-28s %6.2f s  %s%s" % (name, dt, "OK" if have is None else
                                                  "ERR %d:%d %s" % have,
                                                  "" if ok else "  <- FAIL"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return fails


def report(title, res, strict):
    rej = res["rejected"]
    acc = 100.0 * res["accepted"] / rej if rej else 0.0
    same = 100.0 * res["same_line"] / res["caught"] if res["caught"] else 100.0
    print("%s: %d files (%d skipped: another encoding), %d rejected by ast.parse, of them %d "
          "rejected by boxlint, %d accepted (%.2f%%), %d false rejections, error lines equal "
          "%.1f%%, %d disagreements" % (title, res["files"], res["skipped"], rej, res["caught"],
                                        res["accepted"], acc, res["false"], same,
                                        len(res["bad"])))
    for name, why in res["bad"][:SHOW]:
        print("  %s: %s" % (name, why))
    if strict:
        return len(res["bad"])
    return res["false"] + (1 if acc > 1.0 else 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("probe")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gen", type=int, default=3000)
    ap.add_argument("--mutants", type=int, default=4000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--extra", action="append", default=[])
    ap.add_argument("--scale", type=float, default=5.0,
                    help="seconds each scale source may take (sanitizers included); 0: none")
    a = ap.parse_args()
    if sys.version_info[:2] != (3, 11):
        print("SKIPPED: the oracle is CPython 3.11 (this is %d.%d)" % sys.version_info[:2])
        return 77
    stdlib = tree_files(sysconfig.get_paths()["stdlib"])
    extra = [p for d in a.extra for p in tree_files(d)]
    sources = [p for p in stdlib + extra if os.path.getsize(p) < 60000]
    tasks = [("files", stdlib[i::a.jobs * 4]) for i in range(a.jobs * 4)]
    tasks += [("extra", extra[i:i + 200]) for i in range(0, len(extra), 200)]
    step = 100
    tasks += [("gen", (a.seed, i, min(i + step, a.gen))) for i in range(0, a.gen, step)]
    tasks += [("mutants", (a.seed, k, min(step, a.mutants - k * step), sources))
              for k in range((a.mutants + step - 1) // step)]
    results = {}
    with concurrent.futures.ProcessPoolExecutor(a.jobs) as ex:
        futs = [ex.submit(job, "files" if k == "extra" else k, a.probe, payload)
                for k, payload in tasks]
        for (k, _), f in zip(tasks, futs):
            _, res = f.result()
            results.setdefault(k, []).append(res)
    fails = report("stdlib", merge(results["files"]), True)
    if extra:
        fails += report("extra", merge(results["extra"]), True)
    if a.gen:
        fails += report("generated", merge(results["gen"]), True)
    if a.mutants:
        fails += report("mutants", merge(results["mutants"]), False)
    if a.scale:
        fails += scale(a.probe, a.scale)
    print("FAIL" if fails else "PASS")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""The Python parser (lib/src/python/parse*.c, tokens.c) under each --target-version against that
CPython itself, through tests/oracle/pyparse_probe.c (-V MINOR).

  python_versions_test.py PROBE [--versions 8,9,...] [--sample N] [--jobs N] [--list]

The oracles: CPython 3.8 to 3.13 from pyenv ($PYENV_ROOT, else ~/.pyenv: versions/3.M.*/bin/
python3, the newest of each minor), and CPython 3.14 as the npm package pyodide runs it in Node
(tests/oracle/pyodide_parse.mjs; `npm ci --prefix tests/oracle`). A version that is absent is
said skipped; with none at all the test exits 77.

For each version present:
a. Generated cases (CASES below, LIMITS, and near-miss mutants of each case: one token
   deleted, or two adjacent ones swapped): the verdict (valid, or a syntax error) must be that
   CPython's `ast.parse`'s. How often the error is on CPython's line is printed (as
   python_grammar_test.py prints it), with the cases where it is not, not required.
b. That version's own standard library (its Lib/**/*.py; for 3.14, the .py files of pyodide's
   python_stdlib.zip): every file must get ast.parse's verdict. The probe reads every file;
   CPython is asked about each file the probe refuses, about every file whose name says it is
   bad on purpose (bad*, *fail*, *error*), and about one accepted file in --sample (so that
   the test stays within about a minute on two cores).
Prints a line per version and corpus with the counts, then PASS or FAIL.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SHOW = int(os.environ.get("PYVERSIONS_SHOW", "12"))
CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")

# The oracle run by each CPython: paths on standard input, one JSON verdict a line.
VERDICTS = r'''
import ast, json, sys, warnings
print(json.dumps({"version": "%d.%d.%d" % sys.version_info[:3]}))
for path in sys.stdin.read().split("\n"):
    if not path:
        continue
    with open(path, "rb") as f:
        data = f.read()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ast.parse(data)
            v = None
        except SyntaxError as e:
            v = [e.lineno or 0, (e.offset or 1) - 1, e.msg]
        except (ValueError, MemoryError, RecursionError, OverflowError) as e:
            v = [0, 0, str(e)]
    print(json.dumps(v))
'''


def pyenv_pythons():
    """{minor: interpreter} of the CPythons 3.8 to 3.13 under pyenv."""
    roots = [os.environ.get("PYENV_ROOT", ""), os.path.expanduser("~/.pyenv"), "/root/.pyenv"]
    out = {}
    for minor in range(8, 14):
        for root in roots:
            if not root:
                continue
            found = sorted(glob.glob(os.path.join(root, "versions", "3.%d.*" % minor, "bin",
                                                  "python3")),
                           key=lambda p: [int(x) for x in re.findall(r"\d+", p.split("/")[-3])])
            found = [p for p in found if re.search(r"/3\.%d\.\d+/" % minor, p)]
            if found:
                out[minor] = found[-1]
                break
    return out


def pyodide_ready():
    return shutil.which("node") and os.path.isdir(os.path.join(HERE, "node_modules", "pyodide"))


def oracle(minor, interp, paths):
    """[None | (line, col, msg)] for paths, and the version CPython says it is."""
    data = "\n".join(paths) + "\n"
    if minor == 14:
        # the deep cases need V8's stack near the thread's (8 MiB by default)
        import resource
        soft = resource.getrlimit(resource.RLIMIT_STACK)[0]
        kib = 7000 if soft == resource.RLIM_INFINITY or soft >= 8 << 20 else soft // 1024 - 1024
        cmd = ["node", "--stack-size=%d" % max(kib, 900), os.path.join(HERE, "pyodide_parse.mjs")]
    else:
        cmd = [interp, "-I", "-c", VERDICTS]
    p = subprocess.run(cmd, input=data, capture_output=True, text=True, check=False)
    lines = [l for l in p.stdout.split("\n") if l]
    if p.returncode != 0 or len(lines) != len(paths) + 1:
        raise RuntimeError("oracle 3.%d failed (%d): %s" % (minor, p.returncode,
                                                              p.stderr[-1500:]))
    version = json.loads(lines[0])["version"]
    return [None if l == "null" else tuple(json.loads(l)) for l in lines[1:]], version


def probe(exe, minor, paths):
    """{path: None | (line, col, msg)}"""
    p = subprocess.run([exe, "-V", str(minor)], input="\n".join(paths) + "\n",
                       capture_output=True, text=True, errors="surrogateescape", check=False)
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


# ---- the generated cases ---------------------------------------------------------------------

CASES = [
    # 3.12: type parameters and the type statement (PEP 695)
    "def f[T](x: T) -> T: pass\n", "class A[T]: pass\n", "class A[T](B, metaclass=M): pass\n",
    "type X = int\n", "type X[T] = list[T]\n", "type X[T: int, *Ts, **P] = T\n",
    "def f[*Ts, **P, T: int](): pass\n", "def f[T: (int, str)](): pass\n",
    "async def f[T](): pass\n", "def f[T,](): pass\n", "def f[](): pass\n",
    "class A[]: pass\n", "type X[] = int\n", "type X\n", "type = 1\n", "type(x)\n",
    "type.x = 1\n", "type X = int, str\n", "type X = yield\n", "type X: int = 1\n",
    "def f[*Ts: int](): pass\n", "def f[**P: int](): pass\n", "def f[T, T](): pass\n",
    "class A[T]:\n    type Y = T\n", "def f[T=int](): pass\n", "class A[T=int, U=str]: pass\n",
    "type X[*Ts=*tuple[int]] = Ts\n", "type X[**P=[int]] = P\n", "def f[T=int, U](): pass\n",
    "def f[T: int = int](): pass\n", "def f[*Ts=int](): pass\n", "x = type\n",
    "print(type, match, case, _)\n", "type type = type\n", "type match = 1\n",
    # f-strings (PEP 701 in 3.12)
    "f'{\"a\"}'\n", 'f"{"a"}"\n', "f'{a!r:{b}}'\n", "f'{\\'a\\'}'\n", "f'''{a # c\n}'''\n",
    "f'{a # c\n}'\n", "f'{x:{y:{z}}}'\n", "f'{f\"{f'{1}'}\"}'\n", "f'{\"\\n\"}'\n",
    "f'{1}{2}' 'a' f'{3}'\n", "f'{x=}'\n", "f'{x = !r:>10}'\n", "f'{ x }'\n", "f'{}'\n",
    "f'{ }'\n", "f'{x!}'\n", "f'{x!z}'\n", "f'{x:}'\n", "f'}'\n", "f'{'\n", "f'{{}}'\n",
    "f'{a:{b:{c:{d}}}}'\n", "f'{lambda x: 1}'\n", "f'{(lambda x: 1)}'\n", "f'{yield}'\n",
    "f'{*a}'\n", "f'{*a,}'\n", "f'{a, b}'\n", "f'{a := 1}'\n", "f'{(a := 1)}'\n",
    "f'''{\n1\n+\n2\n}'''\n", "f'{1 +\n2}'\n", "f'{\"\"\"a\"\"\"}'\n", "rf'{a}\\d'\n",
    "f'\\{a}'\n", "f'{a}\\N{DIGIT ONE}'\n", "fr'\\N{x}{a}'\n", "f'{a!r=}'\n", "f'{a:{b}=}'\n",
    "f'{\"a\" if b else \"c\"}'\n", "f'{f\"{\"nested\"}\"}'\n", "f\"{'a' 'b'}\"\n",
    "x = f'{a}' f'{b}'\n", "f'{x:#x}'\n", "f'{x:{{}}}'\n", "f'{x!r:{y!s:>{z}}}'\n",
    "f'{3:}'\n", "f'{a[\"b\"]}'\n", "f'{a['b']}'\n", "f'{\\n}'\n", "f'{x}}'\n", "f'{{x}'\n",
    "f'{x\n}'\n", "f'''{x\n!r}'''\n", "f'{x!r }'\n", "f'{x! r}'\n",
    # 3.14: template strings (PEP 750) and except without parentheses (PEP 758)
    "t'x'\n", "t'{x}'\n", "tr'x{y}'\n", "Rt'x'\n", "rT'{a!r:>{w}}'\n", "bt'x'\n", "ft'x'\n",
    "ut'x'\n", "tb'x'\n", "t'{a}' 'b'\n", "t'a' b'c'\n", "t'a' t'b'\n", "t'a' f'b'\n",
    "t'''{\na\n}'''\n", "t'{x=}'\n", "t'{'\n", "x = t\n", "t = 1; t'x'\n", "t\"\"\n",
    "try: pass\nexcept A, B: pass\n", "try: pass\nexcept* A, B: pass\n",
    "try: pass\nexcept A, B as e: pass\n", "try: pass\nexcept (A, B) as e: pass\n",
    "try: pass\nexcept A, B,: pass\n", "try: pass\nexcept A, *B: pass\n",
    "try: pass\nexcept A, : pass\n",
    # each version's own grammar
    "match x:\n case 1: pass\n", "match = 1\nmatch.x\n", "case = 1\n",
    "with (a as b, c as d): pass\n", "with (a, b): pass\n", "with (a as b): pass\n",
    "with (a, b as c): pass\n", "with (a as b,): pass\n", "with (yield): pass\n",
    "@a[0].b\ndef f(): pass\n", "@(lambda x: x)\ndef f(): pass\n", "@a.b.c(1)\ndef f(): pass\n",
    "@a(1)(2)\ndef f(): pass\n", "@(a)\ndef f(): pass\n", "@a.b\nclass A: pass\n",
    "@x := y\ndef f(): pass\n", "@a if b else c\ndef f(): pass\n",
    "try: pass\nexcept* A: pass\n", "try: pass\nexcept *A: pass\n",
    "a[*b]\n", "a[*b] = 1\n", "a[1, *b]\n", "del a[*b]\n", "for x in *a, *b: pass\n",
    "for x in *a: pass\n", "for x in (*a, *b): pass\n", "a[x:=1]\n", "a[(x:=1)]\n",
    "a[b:=1, c]\n", "a[b:=1:2]\n", "def f(*a: *b): pass\n", "def f(a: *b): pass\n",
    "x = *a, *b\n", "def f():\n  return *a, *b\n", "{x := 1}\n", "{(x := 1)}\n",
    "{1, x := 2}\n", "[x := 1, 2]\n", "(x := 1, 2)\n", "f(x := 1)\n", "{x := 1 for y in z}\n",
    "{x: (y := 1)}\n", "x = (yield)\n", "def f(a, /, b): pass\n", "lambda a, /: 1\n",
    "print(f'{x=}')\n", "def f(): yield *a, b\n", "x: int = *a, *b\n", "del (a), [b]\n",
    "with a as b, c as d: pass\n", "async def f():\n  async with a as b: pass\n",
    "async def f():\n  [x async for x in y]\n", "async def f():\n  await x\n",
    "nonlocal_ = 1\n", "global x\n", "if x:\n  pass\nelif y:\n  pass\nelse:\n  pass\n",
    "x = 1 if y else 2\n", "a = b = c\n", "a, *b = c\n", "(*a,) = b\n", "[*a] = b\n",
    "print(*a, **b, c=1)\n", "f(**a, *b)\n", "f(a=1, b)\n", "f(a for a in b, c)\n",
    "f(a for a in b)\n", "class A(x for x in y): pass\n", "x = a if b\n",
    "from . import (a, b,)\n", "from . import a,\n", "import a.b as c\n", "from .a import *\n",
    "def f(*, a): pass\n", "def f(*): pass\n", "def f(**a, b): pass\n", "def f(a=1, b): pass\n",
    "lambda *a, **b: 1\n", "x = [i for i in range(3) if i if i]\n", "x = {**a, **b}\n",
    "x = {a: b for a, b in c}\n", "x = 1_000\n", "x = 0x_f\n", "x = 1__0\n", "x = 0777\n",
    "x = 1if 1else 2\n", "x = 0x1for x in y\n", "print 'x'\n", "exec 'x'\n",
    "x = `a`\n", "x = a <> b\n", "x = 10L\n", "def f((a, b)): pass\n", "raise E, 'x'\n",
    "assert (a, b)\n", "x = not\n", "async = 1\n", "await = 1\n", "def async(): pass\n",
    "print(match(x))\n", "match x:\n case [a, *b]: pass\n case {1: a, **r}: pass\n",
    "match x:\n case A(b=1) | B(): pass\n case _: pass\n",
    "match x, y:\n case (1, 2) if z: pass\n", "match x:\n case 1 + 2j: pass\n",
    "match x:\n case a.b: pass\n case str() as s: pass\n",
    "try:\n  pass\nfinally:\n  return\n", "def f():\n  try:\n    pass\n  finally:\n    return 1\n",
    "for x in y:\n  try:\n    pass\n  finally:\n    break\n",
    "x = 'a' b'b'\n", "x = u'a' 'b'\n", "x = ur'a'\n", "x = b'\\xff' rb'\\d'\n",
    "x = '\\N{LATIN SMALL LETTER A}'\n", "x = '\\N{nope}'\n", "x = b'\\u0041'\n",
    "x = '''a\n", "x = 'a\n", "x = (1,\n", "x = [1, 2)\n", ")\n", "x = 1\n  y = 2\n",
    "if x:\npass\n", "if x:\n  pass\n pass\n", "if x:\n\tpass\n        pass\n",
    "x = 1 \\\n+ 2\n", "x = 1 \\ + 2\n", "x = 1\n\\\n", "\\\n", "\\\nx = 1\n", "x = (1 +\n\\\n2)\n",
    "if x:\n    y = 1\n\\\n", "if x:\n    y = 1\n    \\\n", "x = 1\n \\\n", "x \\\n= 1\n",
    "def f():\n    x = 1\n\\\n    return x\n", "x = 1 \\\n", "x = [\n\\\n]\n",
    "\\\n\\\n", "# c\n\\\n", "x = 1\\\n\n", "\\\n\n",
    "if 1:\n    x = 1\n\\\n    y = 2\n", "if 1:\n    x = 1\n\\\n y = 2\n",
    "if 1:\n    x = 1\n\\\ny = 2\n", "x = 1\n\\\n    y = 2\n", "x = (1,\n\\\n  2)\n",
    "if 1:\n    x = 1\n    \\\n    y = 2\n", "if 1:\n    x = 1\n    \\\n        y = 2\n",
    "if 1:\n\\\n    pass\n", "x = 1 + \\\n\\\n2\n", "  \\\nx = 1\n", "\\\n  x = 1\n",
    "if 1:\n    pass\n  \\\n    pass\n", "x=1\n\\\n# c\ny=2\n", "x=1\n\\\n\ny=2\n",
    "x = \u00e9t\u00e9 = 1\n", "\u212b = 1\n", "x\u00b7y = 1\n", "\u00b7x = 1\n",
]

LIMIT_KINDS = {
    # name: (maker, the nesting counts probed around: each at t-1, t, t+1)
    "unary": (lambda n: "x = " + "-" * n + "1\n", (1000, 1679, 2992, 2993, 5968, 5969)),
    "not": (lambda n: "x = " + "not " * n + "x\n", (1000, 1679, 2993, 5969)),
    "ifexp": (lambda n: "x = " + "1 if 1 else " * n + "1\n", (999, 1679, 2993, 5969)),
    "parens": (lambda n: "x = " + "(" * n + "1" + ")" * n + "\n", (99, 200)),
    "brackets": (lambda n: "x = " + "[" * n + "]" * n + "\n", (99, 200)),
    "calls": (lambda n: "x = " + "f(" * n + ")" * n + "\n", (99, 200)),
    "indent": (lambda n: "".join(" " * i + "if 1:\n" for i in range(n)) + " " * n + "pass\n",
               (99, 100)),
    "indent-tabs": (lambda n: "".join("\t" * i + "while 1:\n" for i in range(n)) +
                    "\t" * n + "pass\n", (99, 100)),
}


def limit_cases():
    out = []
    for name, (make, points) in LIMIT_KINDS.items():
        for t in points:
            for n in (t - 1, t, t + 1):
                out.append(("limit %s %d" % (name, n), make(n)))
    return out


TOKEN = re.compile(r"""[A-Za-z_]\w*|\d\w*|'[^'\n]*'|"[^"\n]*"|\*\*|//|->|:=|==|!=|<=|>=|\S""")


def mutants(src, r, count):
    """Near misses of src: one token deleted, or two adjacent ones swapped."""
    toks = [(m.start(), m.end()) for m in TOKEN.finditer(src)]
    out = []
    if len(toks) < 2:
        return out
    for _ in range(count):
        i = r.randrange(len(toks) - 1)
        (a, b), (c, d) = toks[i], toks[i + 1]
        if r.randrange(2):
            out.append(src[:a] + src[b:])
        else:
            out.append(src[:a] + src[c:d] + src[b:c] + src[a:b] + src[d:])
    return out


def generated():
    r = random.Random("python_versions")
    items = [("case %r" % c, c) for c in CASES]
    for c in CASES:
        items += [("mutant %r of %r" % (m, c), m) for m in mutants(c, r, 3)]
    items += limit_cases()
    return items


# ---- the standard libraries ------------------------------------------------------------------

def other_encoding(data):
    for line in data.splitlines()[:2]:
        m = CODING.match(line)
        if m:
            enc = m.group(1).lower().replace(b"_", b"-")
            return not (enc.startswith(b"utf-8") or enc == b"utf8")
        if line.strip() and not line.lstrip().startswith(b"#"):
            return False
    return False


def stdlib_files(minor, interp, work):
    """The .py files of that version's standard library."""
    if minor == 14:
        zpath = os.path.join(HERE, "node_modules", "pyodide", "python_stdlib.zip")
        if not os.path.exists(zpath):
            return []
        root = os.path.join(work, "stdlib314")
        with zipfile.ZipFile(zpath) as z:
            names = [n for n in z.namelist() if n.endswith(".py")]
            z.extractall(root, names)
    else:
        root = subprocess.run([interp, "-I", "-c",
                               "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
                              capture_output=True, text=True, check=True).stdout.strip()
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in ("__pycache__", "site-packages",
                                                      "dist-packages"))
        out += [os.path.join(d, f) for f in sorted(files) if f.endswith(".py")]
    return out


def on_purpose(path):
    base = os.path.basename(path).lower()
    return base.startswith("bad") or "fail" in base or "error" in base or "syntax" in base


# ---- the comparison --------------------------------------------------------------------------

def same(want, have, line_too):
    if (want is None) != (have is None):
        return False
    return want is None or not line_too or want[0] == 0 or want[0] == have[0]


def describe(v):
    return "valid" if v is None else "%d:%d %s" % v


def run_version(minor, interp, exe, sample, work):
    """Lines to print and the number of disagreements."""
    lines, bad = [], 0
    wdir = os.path.join(work, "v%d" % minor)
    os.makedirs(wdir)
    # a. the generated cases
    items = generated()
    paths = []
    for k, (_, src) in enumerate(items):
        p = os.path.join(wdir, "g%d.py" % k)
        with open(p, "w", encoding="utf-8") as f:
            f.write(src)
        paths.append(p)
    want, version = oracle(minor, interp, paths)
    have = probe(exe, minor, paths)
    diffs, other_line = [], []
    nrej = both = 0
    for (name, _), p, w in zip(items, paths, want):
        h = have.get(p, "missing")
        nrej += w is not None
        line = "  3.%d %s: CPython %s; boxlint %s" % (minor, name, describe(w),
                                                     describe(h) if h != "missing"
                                                     else "no verdict")
        if h == "missing" or not same(w, h, False):
            diffs.append(line)
        elif w is not None:
            both += 1
            if not same(w, h, True):
                other_line.append(line)
    lines.append("3.%d (CPython %s) generated: %d cases (%d refused by CPython), %d "
                 "disagreements; error lines equal %.1f%%" % (
                     minor, version, len(items), nrej, len(diffs),
                     100.0 * (both - len(other_line)) / both if both else 100.0))
    lines += diffs[:SHOW]
    lines += [l + "  (line only)" for l in other_line[:3]]
    bad += len(diffs)
    # b. the standard library
    files = [p for p in stdlib_files(minor, interp, wdir)]
    datas = {}
    kept = []
    for p in files:
        with open(p, "rb") as f:
            d = f.read()
        if other_encoding(d):
            continue
        kept.append(p)
    have = probe(exe, minor, kept)
    r = random.Random("stdlib:%d" % minor)
    ask = [p for p in kept if have.get(p) is not None or on_purpose(p) or
           r.randrange(sample) == 0]
    want, _ = oracle(minor, interp, ask) if ask else ([], version)
    diffs = []
    asked = dict(zip(ask, want))
    refused = sum(1 for v in want if v is not None)
    for p in kept:
        h = have.get(p, "missing")
        if p in asked and asked[p] is not None and asked[p][2].startswith("encoding problem"):
            continue  # a coding declaration against the BOM: not the parser's
        if p in asked:
            if h == "missing" or not same(asked[p], h, False):
                diffs.append("  3.%d %s: CPython %s; boxlint %s" % (
                    minor, p, describe(asked[p]), describe(h) if h != "missing" else "none"))
        elif h is not None:
            diffs.append("  3.%d %s: boxlint %s" % (minor, p, describe(h)))
    lines.append("3.%d stdlib: %d files read (%d in another encoding left out), %d asked of "
                 "CPython, %d refused by it, %d disagreements" % (
                     minor, len(kept), len(files) - len(kept), len(ask), refused, len(diffs)))
    lines += diffs[:SHOW]
    bad += len(diffs)
    del datas
    return lines, bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("probe")
    ap.add_argument("--versions", default="8,9,10,11,12,13,14")
    ap.add_argument("--sample", type=int, default=8,
                    help="ask CPython about one accepted stdlib file in N")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    a = ap.parse_args()
    want = [int(v) for v in a.versions.split(",")]
    found = pyenv_pythons()
    if pyodide_ready():
        found[14] = "pyodide"
    todo = [m for m in want if m in found]
    for m in want:
        if m not in found:
            print("3.%d: SKIPPED (%s)" % (m, "no pyodide: npm ci --prefix tests/oracle"
                                           if m == 14 else "no CPython 3.%d under pyenv" % m))
    if not todo:
        print("SKIPPED: no CPython of any target version here")
        return 77
    work = tempfile.mkdtemp(prefix="pyversions.")
    fails = 0
    try:
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            futs = [ex.submit(run_version, m, found[m], a.probe, a.sample, work) for m in todo]
            for f in futs:
                lines, bad = f.result()
                print("\n".join(lines))
                fails += bad
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("compared: %s; skipped: %s" % (
        ", ".join("3.%d" % m for m in todo) or "none",
        ", ".join("3.%d" % m for m in want if m not in found) or "none"))
    print("FAIL" if fails else "PASS")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

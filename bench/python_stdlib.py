#!/usr/bin/env python3
"""The Python reader on a standard library tree, side by side in one run: boxlint_check_python in
process (bench_python: as written, and with `import budai` first so that every file gets the
whole analysis), an older build's bench_python on the same tree when --before names one (the
figure from before a change), and CPython's own `ast.parse` of the same files in every CPython
found (the running one, the pyenv versions 3.8 to 3.13 when present), each timed in its own
process over the files it parses. Medians of --runs passes; MB/s over the bytes each read.

  python_stdlib.py BENCH_PYTHON [--before OLD_BENCH_PYTHON] [--tree DIR] [--runs N]

The tree defaults to Debian's /usr/lib/python3.11 (the figure docs/benchmarks.md quotes), else
the running interpreter's library. Not a test: nothing is asserted."""
import glob
import json
import os
import subprocess
import sys
import sysconfig

args = sys.argv[1:]


def opt(name, default=None):
    if name in args:
        i = args.index(name)
        v = args[i + 1]
        del args[i:i + 2]
        return v
    return default


RUNS = int(opt("--runs", "7"))
BEFORE = opt("--before")
TREE = opt("--tree")
if not args:
    sys.exit(__doc__)
BENCH = args[0]
if TREE is None:
    TREE = "/usr/lib/python3.11" if os.path.isdir("/usr/lib/python3.11") else \
        sysconfig.get_paths()["stdlib"]

AST_TIMER = r'''
import ast, json, os, statistics, sys, time, warnings
warnings.simplefilter("ignore")
tree, runs = sys.argv[1], int(sys.argv[2])
srcs = []
for d, dirs, names in os.walk(tree):
    dirs[:] = sorted(x for x in dirs if x != "__pycache__")
    for n in sorted(names):
        p = os.path.join(d, n)
        if n.endswith(".py") and os.path.isfile(p) and not os.path.islink(p):
            with open(p, "rb") as f:
                srcs.append(f.read())
ok = []
for s in srcs:
    try:
        ast.parse(s)
        ok.append(s)
    except (SyntaxError, ValueError):
        pass
times = []
for r in range(runs + 1):
    t0 = time.perf_counter()
    for s in ok:
        ast.parse(s)
    times.append(time.perf_counter() - t0)
med = statistics.median(times[1:])
b = sum(map(len, ok))
print(json.dumps({"version": "%d.%d.%d" % sys.version_info[:3], "files": len(ok),
                  "skipped": len(srcs) - len(ok), "bytes": b, "median_s": med,
                  "mb_s": b / med / 1e6}))
'''


def pythons():
    seen, out = set(), []
    def minor(p):  # the pyenv versions 3.8 and later (the target versions), in order
        v = os.path.basename(os.path.dirname(os.path.dirname(p))).split(".")
        return int(v[1]) if len(v) > 1 and v[1].isdigit() else 0
    found = glob.glob("/root/.pyenv/versions/3.*/bin/python3") + \
        glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3"))
    cands = [sys.executable] + sorted((p for p in found if minor(p) >= 8), key=minor)
    for p in cands:
        real = os.path.realpath(p)
        if os.path.exists(real) and real not in seen:
            seen.add(real)
            out.append(p)
    return out


def bench(binary, label):
    p = subprocess.run([binary, "--runs", str(RUNS), "--json", TREE], capture_output=True,
                       text=True)
    if p.returncode:
        print("%s: failed: %s" % (label, p.stderr.strip()))
        return
    for line in p.stdout.splitlines():
        r = json.loads(line)
        print("| %s, %s | %d files, %.2f MB | %.1f ms | %.1f MB/s | %d findings, %d refused |" % (
            label, r["pass"], r["files"], r["bytes"] / 1e6, r["median_s"] * 1e3, r["mb_s"],
            r["findings"], r["refused"]))


print("tree: %s, median of %d passes\n" % (TREE, RUNS))
print("| reader | files, bytes | median pass | throughput | notes |")
print("|---|---|---|---|---|")
bench(BENCH, "boxlint (this build)")
if BEFORE:
    bench(BEFORE, "boxlint (before)")
for py in pythons():
    p = subprocess.run([py, "-c", AST_TIMER, TREE, str(RUNS)], capture_output=True, text=True)
    if p.returncode:
        print("| CPython %s ast.parse | failed: %s | | | |" % (py, p.stderr.strip()[-200:]))
        continue
    r = json.loads(p.stdout)
    print("| CPython %s `ast.parse` | %d files, %.2f MB | %.1f ms | %.1f MB/s | %d files it "
          "does not parse left out |" % (r["version"], r["files"], r["bytes"] / 1e6,
                                         r["median_s"] * 1e3, r["mb_s"], r["skipped"]))

#!/usr/bin/env python3
"""The Python reader at scale: the command on the adversarial shapes of a .py file, each at four
sizes, doubling, with the median wall clock and the ratio per doubling (about 2 when linear,
4 when quadratic), and the whole command on the standard library tree beside `cat` of the same
files (MB/s).

  python_scale.py BOXLINT [--runs N] [--tree DIR]

Shapes: nested brackets (CPython's tokenizer stops at 200 levels: boxlint reports the same
limit), a string literal of megabytes in a call, a call with tens of thousands of keyword
arguments, a suppression comment listing tens of thousands of rule ids, many SDK calls with
findings, a long chain of binary operators, a long module-level list bound to a name, an
f-string with many fields. The tree is the running interpreter's standard library unless --tree
names another (Debian's /usr/lib/python3.11 is the figure docs/benchmarks.md quotes)."""
import json
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time

BIN = sys.argv[1]
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
T = "client.code_interpreter.templates.create("


def shapes():
    yield "nested brackets", [50, 100, 150, 199], lambda n: "x = " + "[" * n + "]" * n + "\n"
    yield "100,000 nested brackets", [12500, 25000, 50000, 100000], \
        lambda n: "x = " + "[" * n + "]" * n + "\n"
    yield "f-string fields", [12500, 25000, 50000, 100000], \
        lambda n: "x = f'" + "{a}" * n + "'\n"
    yield "10 MB-scale literal", [1 << 20, 2 << 20, 4 << 20, 8 << 20], \
        lambda n: T + "name='n', commands=['RUN echo " + "a" * n + "'], cpu_count=2, memory_mb=4096)\n"
    yield "keywords in one call", [5000, 10000, 20000, 40000], \
        lambda n: T + ", ".join("k%d=%d" % (i, i) for i in range(n)) + ")\n"
    yield "rule ids in one comment", [10000, 20000, 40000, 80000], \
        lambda n: T + "name='n', commands=['RUN sudo x'], cpu_count=2, memory_mb=4096)  # boxlint: ignore=" \
        + ",".join("r%d" % i for i in range(n)) + ",sudo-usage\n"
    yield "SDK calls with findings", [1000, 2000, 4000, 8000], \
        lambda n: "".join(T + "name='n', commands=['RUN sudo x', 'pip install y'], cpu_count=2, "
                          "memory_mb=4096)\n" for _ in range(n))
    yield "binary operator chain", [5000, 10000, 20000, 40000], lambda n: "x = " + " + ".join(["1"] * n) + "\n"
    yield "module-level list, used", [5000, 10000, 20000, 40000], \
        lambda n: "S = [" + ", ".join("'RUN echo %d'" % i for i in range(n)) + "]\n" + T + \
        "name='n', commands=S, cpu_count=2, memory_mb=4096)\n"


def timed(args):
    best = []
    for _ in range(RUNS):
        t = time.perf_counter()
        p = subprocess.run(args, capture_output=True)
        best.append(time.perf_counter() - t)
    return statistics.median(best), p.returncode, p.stderr.decode(errors="replace")


def main():
    tmp = tempfile.mkdtemp()
    print("%-26s %10s %12s %9s %s" % ("shape", "size", "median s", "ratio", "exit"))
    for name, sizes, make in shapes():
        prev = None
        for n in sizes:
            path = os.path.join(tmp, "case.py")
            with open(path, "w") as f:
                f.write(make(n))
            t, rc, err = timed([BIN, "--format", "json", path])
            ratio = "%.2f" % (t / prev) if prev else "-"
            print("%-26s %10d %12.4f %9s %d%s" % (name, n, t, ratio, rc,
                                                 "  " + err.strip()[:80] if rc == 2 else ""))
            prev = t
    tree = sys.argv[sys.argv.index("--tree") + 1] if "--tree" in sys.argv else \
        sysconfig.get_paths()["stdlib"]
    # the whole command on the tree (its walk, as a user runs it), and cat of the same files
    p = subprocess.run([BIN, "--format", "json", tree], capture_output=True)
    files = [f["path"] for f in json.loads(p.stdout)["files"]]
    size = sum(os.path.getsize(f) for f in files)
    tb = statistics.median(timed([BIN, "--format", "json", tree])[0] for _ in range(RUNS))
    chunks = [files[i:i + 500] for i in range(0, len(files), 500)]

    def cat_all():
        t = time.perf_counter()
        for c in chunks:
            subprocess.run(["cat"] + c, capture_output=True)
        return time.perf_counter() - t
    tc = statistics.median(cat_all() for _ in range(RUNS))
    print("the tree %s: %d files, %.2f MB: boxlint %.3f s (%.1f MB/s), cat of the same files "
          "%.3f s (%.1f MB/s)" % (tree, len(files), size / 1e6, tb, size / 1e6 / tb, tc,
                                  size / 1e6 / tc))

main()

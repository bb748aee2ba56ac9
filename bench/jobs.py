#!/usr/bin/env python3
"""Trees on every core (issue 28): the whole command on a directory with -j 1 and -j 2 in the
same run, side by side, and ruff (its npm WebAssembly package, @astral-sh/ruff-wasm-nodejs, in
one Node.js process checking file after file) on the same Python files as a reference point.

  jobs.py BOXLINT [--runs N] [--tree DIR]

Trees: the standard library's .py files (Debian's python3, /usr/lib/python3.X, when it is there,
else the running interpreter's; --tree names another), copied (regular files only, no
site-packages) to a temporary directory; and 10,000 generated template JSON files in 100
directories. Wall clock medians of N runs (default 10; ruff 5) by hyperfine when it is
installed, else by repeated timing here; MB/s and files/s from them; the mean CPU time (user
and system, every thread) beside them, and the load average before and after, since -j 2 can
only gain where the machine has a CPU free. Output goes to /dev/null:
what is timed is reading, checking and printing, as a user runs it. ruff is installed with npm
into a temporary directory; without npm or the package the line says it was skipped."""
import json
import os
import random
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BIN = os.path.abspath(sys.argv[1])
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 10
RUFF_RUNS = max(5, RUNS // 2)
HYPERFINE = shutil.which("hyperfine")


def stdlib_dir():
    if "--tree" in sys.argv:
        return sys.argv[sys.argv.index("--tree") + 1]
    probe = "import sysconfig; print(sysconfig.get_paths()['stdlib'])"
    for py in ("/usr/bin/python3", sys.executable):
        if os.path.exists(py):
            p = subprocess.run([py, "-c", probe], capture_output=True, text=True)
            if p.returncode == 0 and os.path.isdir(p.stdout.strip()):
                return p.stdout.strip()
    raise SystemExit("jobs.py: no standard library found (give --tree DIR)")


def copy_py(src, dst):
    """The regular .py files below `src` (not through links, no site-packages) into `dst`."""
    files = []
    for dirpath, dirs, names in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d not in ("site-packages", "dist-packages")
                         and not os.path.islink(os.path.join(dirpath, d)))
        for n in sorted(names):
            p = os.path.join(dirpath, n)
            if n.endswith(".py") and os.path.isfile(p) and not os.path.islink(p):
                q = os.path.join(dst, os.path.relpath(p, src))
                os.makedirs(os.path.dirname(q), exist_ok=True)
                shutil.copyfile(p, q)
                files.append(q)
    return files


COMMANDS = ["RUN pip install --no-cache-dir pydantic-ai", "RUN pip install httpx",
            "RUN apt-get update && apt-get install -y --no-install-recommends git",
            "RUN sudo apt-get install -y curl", "ENV PYTHONUNBUFFERED=1", "WORKDIR /home/user",
            "RUN npm install -g typescript", "USER user", "RUN curl -fsSL https://x.sh | bash",
            "ENV API_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", "pip install numpy"]


def templates(dst, n=10000):
    rng = random.Random(28)
    files = []
    for i in range(n):
        t = {"name": "tpl-%d" % i, "commands": rng.sample(COMMANDS, rng.randrange(1, 7)),
             "cpu_count": rng.choice([1, 2, 4, 8]), "memory_mb": rng.choice([1024, 2048, 4096])}
        if rng.random() < 0.3:
            t["network_policy"] = {"type": "filtered", "allow_out": ["pypi.org", "*.pythonhosted.org"],
                                   "deny_out": rng.choice([[], ["ALL_TRAFFIC"]])}
        p = os.path.join(dst, "d%02d" % (i % 100), "t%05d.json" % i)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            json.dump(t, f, indent=2)
        files.append(p)
    return files


def medians(cmds, runs, warmup, tmp):
    """(median wall clock, mean CPU time: user + system) of each command (a list of argv), in
    one hyperfine run."""
    if HYPERFINE:
        out = os.path.join(tmp, "h.json")
        subprocess.run([HYPERFINE, "-N", "-i", "--warmup", str(warmup), "--runs", str(runs),
                        "--export-json", out] + [shlex.join(c) for c in cmds],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return [(r["median"], r["user"] + r["system"]) for r in json.load(open(out))["results"]]
    times, cpu = [[] for _ in cmds], [0.0 for _ in cmds]
    for _ in range(warmup):
        for c in cmds:
            subprocess.run(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(runs):  # interleaved, so that drift touches each alike
        for k, c in enumerate(cmds):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times[k].append(time.perf_counter() - t)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[k] += (r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) / runs
    return [(statistics.median(t), u) for t, u in zip(times, cpu)]


def cpus_free():
    """How many CPUs are free now: two busy loops at once against one (1.0: the other CPU is
    taken by another process; 2.0: both are free)."""
    spin = [sys.executable, "-c", "n = 0\nfor i in range(3000000): n += i"]
    t = time.perf_counter()
    subprocess.run(spin)
    one = time.perf_counter() - t
    t = time.perf_counter()
    ps = [subprocess.Popen(spin) for _ in range(2)]
    for p in ps:
        p.wait()
    return 2 * one / (time.perf_counter() - t)


def line(what, files, size, t):
    t, cpu = t
    print("%-44s %7d %8.2f %9.3f %9.1f %10.0f %8.3f" % (what, len(files), size / 1e6, t,
                                                       size / 1e6 / t, len(files) / t, cpu))


RUFF_JS = r"""
const fs = require('fs');
const { Workspace, PositionEncoding } = require('@astral-sh/ruff-wasm-nodejs');
const ws = new Workspace(Workspace.defaultSettings(), PositionEncoding.UTF16);
const files = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
let n = 0, failed = 0;
for (const f of files) {
  try { n += ws.check(fs.readFileSync(f, 'utf8')).length; } catch (e) { failed++; }
}
console.log(Workspace.version() + ' ' + files.length + ' ' + n + ' ' + failed);
"""


def ruff(tmp):
    """A directory with @astral-sh/ruff-wasm-nodejs and the checking script, or why not."""
    if not shutil.which("npm") or not shutil.which("node"):
        return None, "node or npm is not installed"
    d = os.path.join(tmp, "ruff")
    os.makedirs(d)
    p = subprocess.run("npm init -y >/dev/null && npm install --no-audit --no-fund --silent "
                       "@astral-sh/ruff-wasm-nodejs", shell=True, cwd=d, capture_output=True,
                       text=True, timeout=600)
    if p.returncode:
        return None, "npm install @astral-sh/ruff-wasm-nodejs failed: " + p.stderr.strip()[-300:]
    with open(os.path.join(d, "check.js"), "w") as f:
        f.write(RUFF_JS)
    return d, None


def ruff_line(tmp, py, pysize):
    """ruff on the same files, or a line saying why it was skipped."""
    d, why = ruff(tmp)
    if not d:
        print("ruff check (WebAssembly): SKIPPED: " + why)
        return
    lst = os.path.join(tmp, "stdlib.list")
    with open(lst, "w") as f:
        f.write("".join(p + "\n" for p in py))
    p = subprocess.run(["node", os.path.join(d, "check.js"), lst], cwd=d, capture_output=True,
                       text=True)
    if p.returncode:
        print("ruff check (WebAssembly): SKIPPED: it failed: " + p.stderr.strip()[-300:])
        return
    version, nfiles, ndiags, failed = p.stdout.split()
    (t,) = medians([["node", os.path.join(d, "check.js"), lst]], RUFF_RUNS, 1, tmp)
    print("the same standard library files, ruff %s's default rules through its WebAssembly "
          "package (one Node.js process, one thread; %s findings, %s files it could not "
          "check; median of %d runs)" % (version, ndiags, failed, RUFF_RUNS))
    line("  ruff check (@astral-sh/ruff-wasm-nodejs)", py, pysize, t)


def main():
    tmp = tempfile.mkdtemp(prefix="boxlint-jobs-bench-")
    try:
        src = stdlib_dir()
        py = copy_py(src, os.path.join(tmp, "stdlib"))
        pysize = sum(os.path.getsize(f) for f in py)
        tpl = templates(os.path.join(tmp, "templates"))
        tplsize = sum(os.path.getsize(f) for f in tpl)
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        print("trees on every core: the command on a directory, -j 1 and -j 2 in one run (%d CPUs "
              "this process may use; %s, %d runs each, median)" %
              (cpus, "hyperfine" if HYPERFINE else "timed here: hyperfine not installed", RUNS))
        print("before: load average %.2f %.2f %.2f, CPUs free %.2f (two busy loops at once against "
              "one; -j 2 gains only where a second CPU is free)" % (os.getloadavg() + (cpus_free(),)))
        print("%-44s %7s %8s %9s %9s %10s %8s" % ("", "files", "MB", "median s", "MB/s", "files/s",
                                                "CPU s"))
        for name, d, files, size in (("the standard library (%s)" % src, "stdlib", py, pysize),
                                     ("10,000 generated templates", "templates", tpl, tplsize)):
            tree = os.path.join(tmp, d)
            t1, t2 = medians([[BIN, "-j", "1", tree], [BIN, "-j", "2", tree]], RUNS, 2, tmp)
            print(name)
            line("  boxlint -j 1", files, size, t1)
            line("  boxlint -j 2", files, size, t2)
            print("  -j 2 takes %.0f%% of -j 1's time (%.2fx as fast); CPU time %.2fx -j 1's" %
                  (100 * t2[0] / t1[0], t1[0] / t2[0], t2[1] / t1[1]))
        ruff_line(tmp, py, pysize)
        print("after: load average %.2f %.2f %.2f, CPUs free %.2f" % (os.getloadavg() + (cpus_free(),)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()

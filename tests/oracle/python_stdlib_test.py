#!/usr/bin/env python3
"""Every supported CPython's own standard library lints clean: no finding at all and exit 0,
under that version's --target-version. The standard library never reaches the SDK, so it is
the largest body of honest code there is on which boxlint must say nothing: not a syntax error
(each version's grammar), not a not-static for its reflection (getattr, `__dict__`, exec...
say nothing in a file that cannot reach the SDK).

The trees: the pyenv CPythons 3.8 to 3.13 (`$PYENV_ROOT` or ~/.pyenv, and /root/.pyenv), their
`lib/python3.X` without site-packages; Debian's /usr/lib/python3.X; CPython 3.14's as the npm
package pyodide ships it (tests/oracle/node_modules/pyodide/python_stdlib.zip), when its .py
files are there. A version that is absent is said skipped; none at all is exit 77.

  python_stdlib_test.py BOXLINT"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

BIN = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))


def trees():
    """(label, minor, directory) of every standard library found."""
    roots = {os.environ.get("PYENV_ROOT", ""), os.path.expanduser("~/.pyenv"), "/root/.pyenv"}
    seen = set()
    for root in sorted(r for r in roots if r):
        for d in sorted(glob.glob(os.path.join(root, "versions", "3.*", "lib", "python3.*"))):
            m = re.search(r"python3\.(\d+)$", d)
            if m and 8 <= int(m.group(1)) <= 13 and os.path.realpath(d) not in seen:
                seen.add(os.path.realpath(d))
                yield "CPython %s (pyenv)" % d.split("/versions/")[1].split("/")[0], \
                    int(m.group(1)), d
    for d in sorted(glob.glob("/usr/lib/python3.*")):
        m = re.search(r"python3\.(\d+)$", d)
        if m and 8 <= int(m.group(1)) <= 14 and os.path.isfile(os.path.join(d, "os.py")):
            yield "Debian's python3.%s" % m.group(1), int(m.group(1)), d


def pyodide_tree(tmp):
    """CPython 3.14's standard library from pyodide's zip, extracted; None when absent."""
    z = os.path.join(HERE, "node_modules", "pyodide", "python_stdlib.zip")
    if not os.path.isfile(z):
        return None
    with zipfile.ZipFile(z) as f:
        names = [n for n in f.namelist() if n.endswith(".py")]
        if not names:
            return None
        out = os.path.join(tmp, "pyodide-stdlib")
        for n in names:
            f.extract(n, out)
    return out


def has_target_version():
    p = subprocess.run([BIN, "--help"], capture_output=True, text=True)
    return "--target-version" in p.stdout + p.stderr


def lint(minor, d, flag):
    args = [BIN, "--format", "json", "--exclude", "site-packages", "-j", "2"]
    if flag:
        args += ["--target-version", "py3%d" % minor]
    p = subprocess.run(args + [d], capture_output=True, timeout=1200)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def main():
    tmp = tempfile.mkdtemp(prefix="boxlint-stdlib-")
    fails, compared, skipped = [], [], []
    try:
        found = sorted(trees(), key=lambda t: (t[1], t[0]))
        pz = pyodide_tree(tmp)
        if pz:
            found.append(("CPython 3.14 (pyodide)", 14, pz))
        else:
            skipped.append("3.14 (pyodide's standard library not installed: make deps)")
        have = {m for _, m, _ in found}
        for m in range(8, 14):
            if m not in have:
                skipped.append("3.%d (absent)" % m)
        if not found:
            print("python stdlib: skipped, no standard library found: " + "; ".join(skipped))
            return 77
        flag = has_target_version()
        for label, minor, d in found:
            rc, out, err = lint(minor, d, flag)
            try:
                doc = json.loads(out)
            except ValueError:
                fails.append("%s: not JSON (exit %s): %s" % (label, rc, err.strip()[:300]))
                continue
            files = doc.get("files", [])
            diags = [(f["path"], x["line"], x["column"], x["rule"], x["message"])
                     for f in files for x in f["diagnostics"]]
            compared.append("%s: %d files" % (label, len(files)))
            if rc != 0 or diags or err.strip():
                fails.append("%s: exit %s, %d findings, stderr %r; the first: %s" % (
                    label, rc, len(diags), err.strip()[:300],
                    "; ".join("%s:%d:%d %s %s" % x for x in diags[:8])))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("python stdlib: compared %s%s" % (", ".join(compared),
                                            "; skipped " + "; ".join(skipped) if skipped else ""))
    for f in fails:
        print("FAIL " + f)
    return 1 if fails else 0


sys.exit(main())

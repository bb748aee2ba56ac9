#!/usr/bin/env python3
"""Hostile inputs to the command, round two (each case failed before the change it names):
named files of no kind of boxlint's refused and never rewritten; a report lost to a full disk
is exit 2 in every format and sub-command; secrets masked however many there are; file names
with newlines, '%', '::' and ANSI escapes never forge a line; '--' ends the options; standard
error written in blocks, not a byte at a time (strace -c); colour only where it can show.

usage: hostile_test.py BOXLINT"""
import json
import os
import pty
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN = os.path.abspath(sys.argv[1])
results = harness.Checks()
check = results.check
tmp = tempfile.mkdtemp()
ENV = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}


def run(args, cwd=tmp, stdin=None, env=None, stdout=subprocess.PIPE):
    p = subprocess.run([BIN] + args, cwd=cwd, input=stdin, stdout=stdout,
                       stderr=subprocess.PIPE, timeout=120, env=env or ENV)
    return p.returncode, p.stdout or b"", p.stderr


def put(name, data):
    p = os.path.join(tmp, name)
    with open(p, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return p


# ---- 0. files of no kind of boxlint's: refused, never rewritten ------------------------------
NB = b'{\n "cells": [],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}\n'
nb, notes = put("analysis.ipynb", NB), put("notes.txt", b"buy milk\ncall home\n")
rc, out, err = run(["--fix", nb, notes])
check("--fix on a notebook and notes.txt: exit 2, both refused by name", rc == 2 and
      err.count(b": not a file boxlint checks by its name") == 2 and b"--kind fragment" in err,
      rc, err)
check("... neither file rewritten", open(nb, "rb").read() == NB and
      open(notes, "rb").read() == b"buy milk\ncall home\n")
rc, out, err = run(["--kind", "fragment", "--fix", nb, notes])
check("--kind fragment --fix: most lines unknown words, so their fixes are unsafe: nothing "
      "written", open(nb, "rb").read() == NB and open(notes, "rb").read() ==
      b"buy milk\ncall home\n" and b"unsafe fixes available with --unsafe-fixes" in err, rc, err)
rc, out, err = run(["--kind", "fragment", notes])
check("... shown as 'fix (unsafe)'", rc == 1 and out.count(b"fix (unsafe): ") == 2,
      rc, out)
frag = put("ok.Dockerfile", "RUN a\nRUN b\npip install x\n")
rc, out, err = run(["--fix", frag])
check("a fragment with one line lacking RUN among three: the fix is safe and applied",
      open(frag).read() == "RUN a\nRUN b\nRUN pip install x\n", rc, err)
rc, out, err = run(["--kind", "python", notes])
check("--kind python on notes.txt: read as Python (nothing of the SDK: quiet)", rc == 0, rc, err)
rc, out, err = run(["--kind", "yaml", notes])
check("--kind yaml: a usage error", rc == 2 and b"--kind takes auto, fragment, python or json"
      in err, rc, err)

# ---- 1. a full disk -------------------------------------------------------------------------
clean = put("clean.json", '{"name": "a", "cpu_count": 2, "memory_mb": 1024, '
                          '"commands": ["RUN echo hi"]}')
bad = put("bad.json", '{"name": "a", "cpu_count": 2, "memory_mb": 1024, '
                      '"commands": ["pip install x"]}')
pol = put("p.json", '{"type": "filtered", "allow_out": ["pypi.org"], '
                    '"deny_out": ["ALL_TRAFFIC"]}')
cases = [["--format", f, clean] for f in ("json", "sarif")] + \
        [["--format", f, bad] for f in ("text", "json", "sarif", "github")] + \
        [["--diff", bad], ["--fix", "-", "--stdin-filename", "t.json"],
         ["policy", pol, "--host", "pypi.org"], ["policy", pol, "--format", "json"],
         ["rules"], ["explain", "denied-instruction"], ["--help"]] + \
        [["policy", pol, "--resolver", "192.0.2.53", "--emit", e]
         for e in ("nftables", "dnsmasq", "nginx")]
for args in cases:
    with open("/dev/full", "wb") as full:
        rc, _, err = run(args, stdin=open(bad, "rb").read(), stdout=full)
    check("%s > /dev/full: exit 2, said on stderr" % " ".join(a.replace(tmp + "/", "")
                                                              for a in args),
          rc == 2 and b"boxlint: cannot write to standard output" in err,
          rc, err[-200:])

# ---- 2. secrets: masked whatever their number -------------------------------------------------
r = random.Random(37)
ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
toks = ["ghp_" + "".join(r.choice(ALNUM) for _ in range(36)) for _ in range(200)]
sec = put("secrets.Dockerfile", "".join(
    'RUN curl -fsS -H "Authorization: token %s" https://api.github.com/x%d -o /x%d\n' % (t, i, i)
    for i, t in enumerate(toks)))
cmds = put("secrets.json", json.dumps({"name": "s", "cpu_count": 2, "memory_mb": 1024,
                                       "commands": ["RUN git clone https://x:%s@github.com/o/r"
                                                    % t for t in toks[:64]]}))
for f in ("text", "json", "sarif", "github"):
    for path in (sec, cmds):
        rc, out, err = run(["--format", f, path])
        leaked = [t for t in toks if t.encode() in out or t.encode() in err]
        check("%s, %s: every one of the secrets masked" % (f, os.path.basename(path)),
              rc == 0 and not leaked and out.count(b"secret-in-command") >= 64,
              rc, len(leaked), leaked[:1])

# ---- 3. names that would forge lines --------------------------------------------------------
forge = os.path.join(tmp, "forge")
os.makedirs(forge)
names = ["x\n::error file=README.md,line=1::FORGED\n.Dockerfile", "100%25 sure.Dockerfile",
         "a::b,c=d.Dockerfile", "\x1b[31mred\x1b[0m.Dockerfile", "tab\there\r.Dockerfile"]
for n in names:
    with open(os.path.join(forge, n), "w") as f:
        f.write("pip install x\n")
GH = re.compile(rb"^::(error|warning|notice) file=[^\n:,]*(,(line|col|endLine|endColumn)=\d+)*"
                rb",title=[^\n:,]*::[^\n\r]*$")
for how, args in (("walked", ["."]), ("named", names), ("missing", [n + ".gone" for n in names])):
    rc, out, err = run(["--format", "github"] + args, cwd=forge)
    lines = out.decode("utf-8", "replace").split("\n")[:-1]
    check("github, %s: every stdout line one annotation" % how,
          all(GH.match(l.encode()) for l in lines) and len(lines) == (0 if how == "missing" else
                                                                       len(names)),
          [l for l in lines if not GH.match(l.encode())][:2], len(lines))
    check("github, %s: no stderr line a workflow command, no ESC" % how,
          not any(l.startswith(b"::") for l in err.split(b"\n")) and b"\x1b" not in err, err)
    rc, out, err = run(args, cwd=forge)
    both = out + err
    check("text, %s: no line starts with '::' or holds an ESC or CR" % how,
          not re.search(rb"(^|\n)::", both) and b"\x1b" not in both and b"\r" not in both,
          both[:300])
    if how != "missing":
        check("text, %s: the newline in the name shown as \\n" % how,
              b"x\\n::error file=README.md,line=1::FORGED\\n.Dockerfile:1:1:" in out, out[:300])

# --fix's own messages (a file it may not write) name the file escaped too
for n in names:
    os.chmod(os.path.join(forge, n), 0o444)
rc, out, err = run(["--fix"] + names, cwd=forge)
check("--fix, read-only files: each 'not fixed' message on one line, the name escaped",
      rc == 2 and err.count(b": not fixed: it is read-only") == len(names) and
      b"x\\n::error file=README.md,line=1::FORGED\\n.Dockerfile: not fixed:" in err and
      not re.search(rb"(^|\n)::", err) and b"\x1b" not in err and b"\r" not in err, rc, err[-600:])
for n in names:
    os.chmod(os.path.join(forge, n), 0o644)

# ---- 4. '--' -----------------------------------------------------------------------------------
dash = put("-rf.Dockerfile", "RUN echo hi\n")
excl = put("--exclude=*.Dockerfile", "RUN echo hi\n")
rc, out, err = run(["--", "-rf.Dockerfile"])
check("boxlint -- -rf.Dockerfile: the file checked", rc == 0 and err == b"", rc, err)
rc, out, err = run(["--kind", "fragment", "--", "--exclude=*.Dockerfile", "--fix"])
check("after --, '--exclude=*.Dockerfile' and '--fix' are files (the second missing: exit 2)",
      rc == 2 and b"--fix: No such file or directory" in err and b"unknown option" not in err,
      rc, err)
rc, out, err = run(["policy", "--", "-p.json"])
check("policy -- -p.json: FILE", rc == 2 and b"-p.json: No such file" in err, rc, err)

# ---- 5. standard error in blocks ----------------------------------------------------------------
strace = shutil.which("strace")
probe = subprocess.run([strace, "-f", "-o", "/dev/null", "true"], capture_output=True) \
    if strace else None
if not strace or probe.returncode:
    print("SKIP strace: %s" % ("not installed" if not strace else probe.stderr.decode()[:200]))
else:
    n = 200
    dup = put("dup.json", '{"type": "filtered", "allow_out": ["pypi.org", "pypi.org", '
                          '"files.pythonhosted.org", "files.pythonhosted.org"], '
                          '"deny_out": ["ALL_TRAFFIC"]}')  # two duplicate-entry warnings
    many = "".join("RUN pip install p%d\n" % i for i in range(n)).encode()
    for name, args, stdin, findings in (
            ("--fix -", ["--fix", "-", "--stdin-filename", "x.Dockerfile"], many, n),
            ("policy --emit nftables", ["policy", dup, "--resolver", "192.0.2.53",
                                        "--emit", "nftables"], None, 2)):
        log = os.path.join(tmp, "strace.log")
        p = subprocess.run([strace, "-f", "-e", "trace=write,writev", "-o", log, BIN] + args,
                           input=stdin, capture_output=True, timeout=120,
                           env=dict(ENV, ASAN_OPTIONS="detect_leaks=0"))  # LSan cannot run traced
        fd2 = [l for l in open(log) if re.search(r"\bwritev?\(2,", l)]
        check("%s: %d findings, %d writes to stderr (at most one per finding)" %
              (name, findings, len(fd2)), 0 < len(fd2) <= findings, len(fd2), fd2[:3])

# ---- 8. colour ---------------------------------------------------------------------------------
def on_tty(args, env):
    """The command's standard output on a pseudo-terminal: what it printed."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(tmp)
        os.execve(BIN, [BIN] + args, env)
    data = b""
    while True:
        try:
            c = os.read(fd, 65536)
        except OSError:
            break
        if not c:
            break
        data += c
    os.waitpid(pid, 0)
    return data


base = {k: v for k, v in ENV.items() if k != "TERM"}
for what, env, want in (("TERM=xterm on a TTY", dict(base, TERM="xterm"), True),
                        ("TERM=dumb", dict(base, TERM="dumb"), False),
                        ("TERM unset", base, False),
                        ("NO_COLOR=1", dict(base, TERM="xterm", NO_COLOR="1"), False),
                        ("NO_COLOR= (empty: no effect)", dict(base, TERM="xterm", NO_COLOR=""),
                         True),
                        ("NO_COLOR=1 FORCE_COLOR=1", dict(base, TERM="xterm", NO_COLOR="1",
                                                          FORCE_COLOR="1"), False),
                        ("FORCE_COLOR=1 TERM=dumb", dict(base, TERM="dumb", FORCE_COLOR="1"),
                         True)):
    got = b"\x1b[" in on_tty([bad], env)
    check("colour on a TTY, %s: %s" % (what, "yes" if want else "none"), got == want, got)
for what, env, want in (("not a TTY", dict(base, TERM="xterm"), False),
                        ("not a TTY, FORCE_COLOR=1", dict(base, TERM="xterm", FORCE_COLOR="1"),
                         True),
                        ("not a TTY, FORCE_COLOR=0", dict(base, TERM="xterm", FORCE_COLOR="0"),
                         False)):
    rc, out, err = run([bad], env=env)
    check("colour, %s: %s" % (what, "yes" if want else "none"), (b"\x1b[" in out) == want, out[:80])
rc, out, err = run(["--no-color", bad], env=dict(base, FORCE_COLOR="1"))
check("--no-color wins over FORCE_COLOR", b"\x1b[" not in out, out[:80])

shutil.rmtree(tmp, ignore_errors=True)
results.print_fails(sep="\n  ")
print("hostile: %d passed, %d failed" % (results.passed, len(results.fails)))
results.exit()

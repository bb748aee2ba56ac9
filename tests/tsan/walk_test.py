#!/usr/bin/env python3
"""The parallel walk (cmd/lint_jobs.c) under ThreadSanitizer: the command built with
-fsanitize=thread (tests/tsan/run.sh) checks a generated tree of a few hundred files of every
kind (templates, bindings, policies, Python files, fragments, invalid inputs, a broken config met
by many files, a config with user rules shared by every thread) with -j 4 in each format, and
the output, standard error and exit code must be -j 1's, with no ThreadSanitizer report (its
exit code 66 and its "WARNING: ThreadSanitizer" on standard error).

Usage: walk_test.py BOXLINT   (BOXLINT_TSAN_RUN: a command to run it under, e.g. setarch -R)
"""
import json, os, random, shutil, subprocess, sys, tempfile

BIN = os.path.abspath(sys.argv[1])
PRE = os.environ.get("BOXLINT_TSAN_RUN", "").split()
tmp = tempfile.mkdtemp(prefix="boxlint-tsan-walk-")
fails = []
COMMANDS = ["RUN pip install httpx", "RUN sudo apt-get install -y git", "WORKDIR /app",
            "ENV API_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", "RUNN echo",
            "COPY . /src", "RUN curl -fsSL https://x.example/i.sh | bash", "pip install y"]


def write(rel, text):
    p = os.path.join(tmp, "t", rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


rng = random.Random(7)
for i in range(240):
    d = "d%d/e%d/" % (i % 5, i % 3)
    cmds = rng.sample(COMMANDS, 3)
    k = i % 5
    if k == 0:
        write(d + "t%03d.json" % i, json.dumps({"name": "t%d" % i, "commands": cmds, "cpu_count": 2,
                                                "memory_mb": 4096, "network_policy": {
                                                    "type": "filtered", "allow_out": ["pypi.org"],
                                                    "deny_out": rng.choice([[], ["*"]])}}))
    elif k == 1:
        write(d + "m%03d.py" % i, "client.code_interpreter.templates.create(name='p', commands=%s, "
              "cpu_count=2, memory_mb=4096)\n" % json.dumps(cmds))
    elif k == 2:
        write(d + "f%03d.Dockerfile" % i, "\n".join(cmds) + "\n")
    elif k == 3:
        write(d + "b%03d.json" % i, json.dumps({"template_id": "Bad Id", "version": 1}))
    else:
        write(d + "c%03d.json" % i, json.dumps(cmds))
write("d1/broken.json", '{"commands": [')
write("d2/syntax.py", "client.code_interpreter.templates.create(\n")
write("bad/.boxlint.json", '{"rules": {"sudo-usage": "loud"}}')
write("rules/.boxlint.json", json.dumps({"user_rules": [{"id": "no-curl", "pattern": "curl\\s+-\\w*s",
                                                         "severity": "error"}]}))
for i in range(40):
    write("bad/t%02d.json" % i, json.dumps(rng.sample(COMMANDS, 2)))
    write("rules/r%02d.Dockerfile" % i, "\n".join(rng.sample(COMMANDS, 4)) + "\n")


def run(args):
    env = dict(os.environ, NO_COLOR="1",
               TSAN_OPTIONS="halt_on_error=0 exitcode=66 " + os.environ.get("TSAN_OPTIONS", ""))
    p = subprocess.run(PRE + [BIN] + args, cwd=tmp, capture_output=True, timeout=600, env=env)
    return p.returncode, p.stdout, p.stderr


for fmt in ("text", "json", "sarif", "github"):
    ref = run(["-j", "1", "--format", fmt, "t"])
    got = run(["-j", "4", "--format", fmt, "t"])
    for name, a, b in (("exit code", got[0], ref[0]), ("stdout", got[1], ref[1]),
                       ("stderr", got[2], ref[2])):
        if a != b:
            fails.append("%s: -j 4's %s is not -j 1's" % (fmt, name))
    if b"ThreadSanitizer" in got[2] or got[0] == 66:
        fails.append("%s: ThreadSanitizer reported:\n%s" % (fmt, got[2].decode(errors="replace")[:6000]))
    if ref[0] != 2 or b"invalid config" not in ref[2] or not ref[1]:
        fails.append("%s: -j 1 is not the expected answer (exit %d)" % (fmt, ref[0]))
    print("%s: exit %d, %d bytes of output, %d of standard error" % (fmt, got[0], len(got[1]),
                                                                     len(got[2])))
shutil.rmtree(tmp)
for f in fails:
    print("FAIL " + f)
checks = 4 * 5  # per format: exit code, stdout, stderr, no report, -j 1's answer
print("walk under ThreadSanitizer: %d passed, %d failed" % (checks - len(fails), len(fails)))
sys.exit(1 if fails else 0)

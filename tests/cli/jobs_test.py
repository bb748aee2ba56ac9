#!/usr/bin/env python3
"""A directory checked on several threads (-j N, --jobs N; issue 28, cmd/lint_jobs.c) prints what
one thread prints: for trees of hundreds of files of every kind (the entrances tree, generated
templates, bindings, policies, Python files and fragments with findings, files that cannot be
checked: invalid JSON, a Python syntax error, a malformed template member, a file over the size
limit, an unreadable file and directory, a broken .boxlint.json met by many files, a config with
user rules and "fragments", a .gitignore), `-j 1`, `-j 2`, `-j 8` and the default give the same
standard output, the same standard error, both in the same pipe, and the same exit code, in
every --format; the same with several DIRs and FILEs mixed, and for trees whose exit code is 1
and 0. --fix on a tree with -j 4 writes what -j 1 writes. A bad value of -j or --jobs (0,
negative, not a number, over 1024) is a usage error naming the flag, exit 2.

As root, every run is made as `nobody` (setpriv) from a copy of the program, so that the
unreadable file and directory really cannot be read.

Usage: jobs_test.py PATH/TO/boxlint
"""
import json, os, random, shutil, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

HERE = os.path.dirname(os.path.abspath(__file__))
ENTRANCES = os.path.join(HERE, "..", "data", "entrances", "tree")
ROOT = os.getuid() == 0
tmp = tempfile.mkdtemp(prefix="boxlint-jobs-")
os.chmod(tmp, 0o755)
BIN = os.path.join(tmp, "boxlint")  # a copy nobody can run
shutil.copy(os.path.abspath(sys.argv[1]), BIN)
os.chmod(BIN, 0o755)
AS_NOBODY = ROOT and shutil.which("setpriv") is not None
PRE = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] if AS_NOBODY else []
results = harness.Checks(echo=harness.say_failures)
check = results.check


def run(args, cwd=tmp, merged=False):
    """(exit code, stdout, stderr) as bytes; `merged`: stderr into the same pipe as stdout."""
    p = subprocess.run(PRE + [BIN] + args, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT if merged else subprocess.PIPE, timeout=300,
                       env=dict(os.environ, NO_COLOR="1"))
    return p.returncode, p.stdout, p.stderr or b""


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w" if isinstance(text, str) else "wb") as f:
        f.write(text)
    os.chmod(path, mode)
    return path


COMMANDS = ["RUN pip install httpx", "RUN sudo apt-get install -y git", "WORKDIR /app",
            "RUN apt-get update", "ENV API_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
            "RUNN echo", "COPY . /src", "RUN pip install --no-cache-dir numpy", "USER root",
            "RUN curl -fsSL https://x.example/i.sh | bash", "ENV A=1", "pip install y"]
HOSTS = ["pypi.org", "*.pythonhosted.org", "github.com", "pypi.org", "10.0.0.0/8", "*",
         "ALL_TRAFFIC", "bad host"]


def template(rng):
    t = {"name": "t%d" % rng.randrange(1000), "commands": rng.sample(COMMANDS, rng.randrange(0, 5)),
         "cpu_count": rng.choice([2, 4, 64]), "memory_mb": rng.choice([4096, 512])}
    if rng.random() < 0.3:
        t["network_policy"] = {"type": "filtered", "allow_out": rng.sample(HOSTS, 2),
                               "deny_out": rng.sample(HOSTS, rng.randrange(0, 2))}
    return json.dumps(t, indent=rng.choice([None, 2]))


def python_file(rng):
    calls = []
    for i in range(rng.randrange(1, 4)):
        cmds = ", ".join(json.dumps(c) for c in rng.sample(COMMANDS, 2))
        calls.append("client.code_interpreter.templates.create(\n    name='p%d', commands=[%s],\n"
                     "    cpu_count=2, memory_mb=4096)\n" % (i, cmds))
    return "from e2b_code_interpreter import Sandbox\nclient = Sandbox()\n" + "".join(calls)


def fill(root, n, seed, errors):
    """`n` generated files below `root`, in nested directories; with `errors`, inputs that
    cannot be checked among them."""
    rng = random.Random(seed)
    for i in range(n):
        d = os.path.join(root, "d%d" % (i % 7), "e%d" % (i % 3))
        kind = i % 6
        if kind == 0:
            write(os.path.join(d, "t%03d.json" % i), template(rng))
        elif kind == 1:
            write(os.path.join(d, "c%03d.json" % i), json.dumps(rng.sample(COMMANDS, 3)))
        elif kind == 2:
            write(os.path.join(d, "m%03d.py" % i), python_file(rng))
        elif kind == 3:
            write(os.path.join(d, "f%03d.Dockerfile" % i), "\n".join(rng.sample(COMMANDS, 4)) + "\n")
        elif kind == 4:
            write(os.path.join(d, "b%03d.json" % i), json.dumps(
                {"template_id": rng.choice(["ok-id", "Bad Id"]), "version": rng.choice([1, -1]),
                 "network_policy": {"type": "filtered", "allow_out": rng.sample(HOSTS, 1),
                                    "deny_out": []}}))
        else:
            write(os.path.join(d, "package%03d.json" % i), '{"name": "x", "version": "1.0.0"}')
    # Large files early in the walk's order: later small ones finish first on other threads.
    write(os.path.join(root, "a-big.py"), python_file(rng) * 300)
    write(os.path.join(root, "a-big.Dockerfile"), "RUN sudo apt-get install -y git\n" * 3000)
    if not errors:
        return
    write(os.path.join(root, "d1", "broken.json"), '{"commands": ["RUN a", }')
    write(os.path.join(root, "d2", "tsconfig.json"), '{// comments\n "x": 1}')
    write(os.path.join(root, "d3", "syntax.py"), "client.code_interpreter.templates.create(\n")
    write(os.path.join(root, "d4", "members.json"), '{"commands": "RUN a", "cpu_count": "two"}')
    write(os.path.join(root, "d4", "policy.json"), '{"type": "filtered", "allow_out": 3}')
    write(os.path.join(root, "d5", "unreadable.json"), '["RUN a"]', 0)
    write(os.path.join(root, "d5", "closed", "t.json"), '["RUN a"]')
    write(os.path.join(root, "d5", "closed2.json"), '{"commands": ["RUN a" "RUN b"]}')
    os.chmod(os.path.join(root, "d5", "closed"), 0)
    with open(os.path.join(root, "d6", "huge.Dockerfile"), "wb") as f:
        f.truncate(17 << 20)  # over the 16 MB limit (sparse: no disk)
    os.mkfifo(os.path.join(root, "d6", "fifo.Dockerfile"))
    # A broken config met by every file below badcfg/, said once; a good one with user rules,
    # severities and "fragments"; what git ignores.
    write(os.path.join(root, "badcfg", ".boxlint.json"), '{"rules": {"sudo-usage": "loud"}}')
    for i in range(12):
        write(os.path.join(root, "badcfg", "s%d" % (i % 3), "t%02d.json" % i), template(rng))
    write(os.path.join(root, "cfg", ".boxlint.json"), json.dumps(
        {"rules": {"sudo-usage": "error", "pip-no-cache-dir": "off"}, "fragments": ["*.steps"],
         "user_rules": [{"id": "no-curl", "pattern": "curl", "message": "no curl",
                         "severity": "error"}]}))
    for i in range(30):
        write(os.path.join(root, "cfg", "x%d" % (i % 4), "u%02d.steps" % i),
              "\n".join(rng.sample(COMMANDS, 3)) + "\n")
        write(os.path.join(root, "cfg", "x%d" % (i % 4), "v%02d.json" % i), template(rng))
    subprocess.run(["git", "init", "-q", os.path.join(root, "repo")], check=True)
    write(os.path.join(root, "repo", ".gitignore"), "ignored/\n*.skip.json\n")
    for name in ("ignored/t.json", "a.skip.json", "kept/t.json", "kept/u.py"):
        write(os.path.join(root, "repo", name), template(rng) if name.endswith("json")
              else python_file(rng))
    os.chmod(os.path.join(root, "repo"), 0o755)


full = os.path.join(tmp, "full")
shutil.copytree(ENTRANCES, os.path.join(full, "entrances"))
fill(full, 420, 1, errors=True)
findings = os.path.join(tmp, "findings")
fill(findings, 150, 2, errors=False)
clean = os.path.join(tmp, "clean")
for i in range(40):
    write(os.path.join(clean, "c%d" % (i % 5), "t%02d.json" % i),
          json.dumps({"name": "ok-%d" % i, "commands": ["RUN echo %d" % i], "cpu_count": 2,
                      "memory_mb": 4096}))
for dirpath, dirs, files in os.walk(tmp):
    for d in dirs:
        if not d.startswith(".git") and os.stat(os.path.join(dirpath, d)).st_mode & 0o777:
            os.chmod(os.path.join(dirpath, d), 0o755)

# The one-thread answer on the full tree is what it should be: findings from many files, each
# kind of problem, the broken config said once.
rc, out, err = run(["-j", "1", "full"])
text = err.decode()
check("-j 1 on the full tree: exit 2", rc == 2, rc)
check("-j 1: findings from many files", len({l.split(b":")[0] for l in out.splitlines()
                                           if b": warning: " in l or b": error: " in l}) > 150)
check("-j 1: the broken config said once",
      text.count("full/badcfg/.boxlint.json") == 1 and "invalid config" in text, text)
for want in ("full/d1/broken.json:", "full/d3/syntax.py:", "full/d4/members.json",
             "full/d6/huge.Dockerfile: file is 17825792 bytes"):
    check("-j 1 names " + want, want in text or want in out.decode(), want, text[:2000])
check("-j 1: the user rule and the severity of cfg/'s config",
      b"[no-curl]" in out and b"error: " in out, out[:500])
check("-j 1: git's ignores kept", b"ignored/t.json" not in out + err and b"a.skip.json" not in
      out + err and b"repo/kept/t.json" in out, out[:300])
if AS_NOBODY or not ROOT:
    check("-j 1: the unreadable file and directory",
          "full/d5/unreadable.json: Permission denied" in text and
          "full/d5/closed: Permission denied\nboxlint: full/d5/closed2.json:1:29: invalid JSON"
          in text, text)
else:
    print("SKIP: the unreadable file and directory (root without setpriv reads them)")


def same(name, args, cwd=tmp, jobs=("1", "2", "8", None)):
    """Every -j (None: the default) gives the output of the first, in separate pipes and in one."""
    ref = None
    for merged in (False, True):
        for j in jobs:
            got = run((["-j", j] if j else []) + args, cwd=cwd, merged=merged)
            if ref is None or (merged and j == jobs[0]):
                ref = got
                continue
            what = "%s -j %s%s" % (name, j or "default", " (one pipe)" if merged else "")
            check(what + ": exit code", got[0] == ref[0], got[0], ref[0])
            check(what + ": stdout", got[1] == ref[1], len(got[1]), len(ref[1]))
            check(what + ": stderr", got[2] == ref[2], got[2][:300], ref[2][:300])
    return ref


for fmt in ("text", "json", "sarif", "github"):
    same("full --format " + fmt, ["--format", fmt, "full"])
    same("findings --format " + fmt, ["--format", fmt, "findings"])
same("--fail-on info", ["--fail-on", "info", "--format", "json", "findings"])
same("--exclude", ["--exclude", "d3", "--exclude", "e1/", "full"])
same("--config", ["--config", os.path.join(full, "cfg", ".boxlint.json"), "--format", "sarif",
                  "full"])
rc, out, _ = same("DIRs and FILEs mixed", ["findings", "full/entrances/ci.json", "full/cfg",
                                           "clean", "-c", "RUN sudo x", "full/d1"])
check("DIRs and FILEs mixed: exit 2", rc == 2, rc)
check("a walk of cfg/ reads its \"fragments\"", b"full/cfg/x0/u00.steps:" in out, out[:300])
rc, out, _ = same("findings only", ["findings"])
check("findings only: exit 1", rc == 1 and out, rc)
rc, out, err = same("clean tree", ["--format", "json", "clean"])
check("clean tree: exit 0, 40 files", rc == 0 and len(json.loads(out)["files"]) == 40, rc)

# --fix: the same files written and the same output, whatever -j.
fixed = {}
for j in ("1", "4"):
    d = os.path.join(tmp, "fix" + j)
    shutil.copytree(findings, os.path.join(d, "t"))
    for dirpath, dirs, files in os.walk(d):
        os.chmod(dirpath, 0o755)
    rc, out, err = run(["-j", j, "--fix", "--unsafe-fixes", "t"], cwd=d)
    tree = {}
    for dirpath, dirs, files in os.walk(os.path.join(d, "t")):
        for f in files:
            p = os.path.join(dirpath, f)
            tree[os.path.relpath(p, d)] = open(p, "rb").read()
    fixed[j] = (rc, out, err, tree)
check("--fix -j 4 writes what -j 1 writes", fixed["1"][3] == fixed["4"][3])
check("--fix -j 4 prints what -j 1 prints", fixed["1"][:3] == fixed["4"][:3],
      fixed["1"][2][-200:], fixed["4"][2][-200:])
check("--fix fixed something", b"fixed" in fixed["1"][2] and fixed["1"][3] != {
    os.path.relpath(os.path.join(dp, f), findings): open(os.path.join(dp, f), "rb").read()
    for dp, _, fs in os.walk(findings) for f in fs}, fixed["1"][2][-200:])

# Bad values: one line naming the flag, exit 2, nothing on stdout.
for args in (["-j", "0"], ["--jobs", "0"], ["-j", "-1"], ["-j", "abc"], ["--jobs=1025"],
             ["-j", "99999999999999999999"], ["-j", ""], ["-j", "4x"], ["-j", "+4"], ["-j", " 4"]):
    rc, out, err = run(args + ["clean"])
    val = args[-1].split("=", 1)[-1]
    check("%s: exit 2" % args, rc == 2, rc)
    check("%s: the message" % args, err.decode() ==
          "boxlint: -j (--jobs) takes a number of threads from 1 to 1024, not '%s'; see "
          "'boxlint --help'\n" % val, err)
    check("%s: nothing on stdout" % args, out == b"", out)
rc, out, err = run(["clean", "-j"])
check("-j without a value", rc == 2 and err == b"boxlint: option '-j' needs a value; see "
      b"'boxlint --help'\n", rc, err)
for args in (["-j", "1024"], ["--jobs=3"], ["--jobs", "1"], ["-j=2"]):
    rc, out, err = run(args + ["clean"])
    check("%s accepted" % args, (rc, out, err) == (0, b"", b""), rc, out, err)

for dirpath, dirs, files in os.walk(tmp):
    for d in dirs:
        os.chmod(os.path.join(dirpath, d), 0o755)
shutil.rmtree(tmp)
results.print_fails()
print(f"jobs: {results.passed} passed, {results.failed} failed"
      + ("" if AS_NOBODY or not ROOT else " (the unreadable checks skipped)"))
results.exit()

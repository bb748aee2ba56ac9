#!/usr/bin/env python3
"""Every output format carries every path (issue 23 point 4): a file name that is not UTF-8 or
that holds a newline, a tab, a double quote, a backslash, a space or a '%', found by a walk and
named on the command line. JSON: "path" (U+FFFD for what is not UTF-8) and "path_bytes" (the
bytes as Latin-1 characters, only when the name is not UTF-8); SARIF: a percent-encoded URI;
GitHub: the name with '%', CR and LF escaped as the runner wants; --diff: names quoted as git
quotes them, so that `git apply` and `patch -p1` take the patch.

Usage: paths_test.py PATH/TO/boxlint
"""
import json, os, shutil, subprocess, sys, tempfile, urllib.parse
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN = os.path.abspath(sys.argv[1])
tmp = tempfile.mkdtemp()
ENV = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
ENV.update(NO_COLOR="1", HOME=tmp, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
results = harness.Checks()
check, fails = results.check, results.fails


def run(args, cwd):
    p = subprocess.run([BIN] + args, capture_output=True, timeout=60, env=ENV, cwd=cwd)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


NAMES = [b"bad\xff\xe9.Dockerfile", b"nl\nq\"b\\.Dockerfile", b"t\tab.Dockerfile",
         b"sp ace.Dockerfile", b"pc%20\xc3\xa9.Dockerfile", b"cr\r\x01\x7f.Dockerfile",
         b"half\xc3.Dockerfile", b"plain.Dockerfile"]
FIXABLE = b"pip install x\n"  # --fix makes it "RUN pip install x"
d = os.path.join(tmp, "tree")
os.makedirs(d)
for name in NAMES:
    with open(os.path.join(os.fsencode(d), name), "wb") as f:
        f.write(FIXABLE)
rels = sorted(b"tree/" + name for name in NAMES)

# JSON: every file has a "path"; exactly the names that are not UTF-8 have "path_bytes".
for args in (["tree"], [os.fsdecode(r) for r in rels]):
    rc, out, err = run(["--format", "json"] + args, cwd=tmp)
    files = json.loads(out)["files"] if out.startswith(b"{") else []
    got = [f.get("path_bytes", f.get("path", "")).encode("latin-1" if "path_bytes" in f
                                                         else "utf-8") for f in files]
    check("json: every file has its path (%s)" % args[0], all("path" in f for f in files) and
          len(files) == len(NAMES), files, err)
    check("json: the exact bytes back (%s)" % args[0], got == rels, got, rels)
    for f, r in zip(files, rels):
        try:
            r.decode("utf-8")
            utf8 = True
        except UnicodeDecodeError:
            utf8 = False
        check("json: path_bytes only when not UTF-8: %r" % r, ("path_bytes" in f) == (not utf8), f)
        check("json: path shows the name, U+FFFD for bad bytes: %r" % r,
              f.get("path") == r.decode("utf-8", "replace"), f.get("path"))

# SARIF: the URI, percent-decoded, gives the bytes back.
rc, out, err = run(["--format", "sarif", "tree"], cwd=tmp)
uris = []
try:
    for r in json.loads(out)["runs"][0]["results"]:
        uris.append(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
except (ValueError, KeyError, IndexError) as e:
    uris = [str(e)]
check("sarif: every path, percent-encoded", sorted(urllib.parse.unquote_to_bytes(u)
      for u in set(uris)) == rels and all(u.isascii() and "\n" not in u for u in uris), uris)

# GitHub: one line per finding, the name unescaped as the runner does gives the bytes back.
rc, out, err = run(["--format", "github", "tree"], cwd=tmp)
lines = out.split(b"\n")[:-1]
files = []
for line in lines:
    prop = line.split(b"::")[1] if line.count(b"::") >= 2 else b""
    v = prop[prop.find(b"file=") + 5:].split(b",")[0]
    for a, b in ((b"%0D", b"\r"), (b"%0A", b"\n"), (b"%3A", b":"), (b"%2C", b","), (b"%25", b"%")):
        v = v.replace(a, b)
    files.append(v)
check("github: every path, one line each", sorted(set(files)) == rels and
      all(line.startswith(b"::") for line in lines), lines)

# --diff: a patch that git apply and patch -p1 take, names quoted as git quotes them.
if shutil.which("git"):
    subprocess.run(["git", "init", "-q", d], env=ENV, check=True)
    rc, patch, err = run(["--diff", "."], cwd=d)
    check("--diff: exit 1, findings", rc == 1, rc, err)
    check("--diff: a newline in a name is quoted",
          b'--- "a/nl\\nq\\"b\\\\.Dockerfile"\n+++ "b/nl\\nq\\"b\\\\.Dockerfile"\n' in patch,
          patch[:600])
    check("--diff: bytes over 0x7f in octal", b'--- "a/bad\\377\\351.Dockerfile"\n' in patch,
          patch[:600])
    check("--diff: a space, a tab after the name", b"--- a/sp ace.Dockerfile\t\n" in patch,
          patch[:600])
    p = subprocess.run(["git", "apply", "--check", "-"], input=patch, capture_output=True,
                       cwd=d, env=ENV)
    check("--diff: git apply takes the patch", p.returncode == 0, p.stderr)
    p = subprocess.run(["git", "apply", "-"], input=patch, capture_output=True, cwd=d, env=ENV)
    changed = [name for name in NAMES
               if open(os.path.join(os.fsencode(d), name), "rb").read() == b"RUN " + FIXABLE]
    check("--diff: git apply fixes every file", p.returncode == 0 and changed == NAMES,
          p.stderr, changed)
    for name in NAMES:
        with open(os.path.join(os.fsencode(d), name), "wb") as f:
            f.write(FIXABLE)
    if shutil.which("patch"):
        p = subprocess.run(["patch", "-p1", "--dry-run"], input=patch, capture_output=True, cwd=d)
        check("--diff: patch -p1 takes the patch", p.returncode == 0, p.stdout, p.stderr)

shutil.rmtree(tmp)
results.print_fails()
print(f"paths: {results.passed} passed, {len(fails)} failed")
results.exit()

#!/usr/bin/env python3
"""`boxlint --fix` and `boxlint --diff` (design.md §7): each kind of fix edits the file in its own
syntax (a fragment as text, a JSON command or field re-escaped, a NetworkPolicy list keeping its
layout), --diff output is a patch that `patch -p1` and `git apply` take and that gives the same
bytes as --fix, a second --fix changes nothing, permissions are kept, a file that cannot be
written or whose fixed text would not load is left untouched (exit 2), and the exit code reflects
only what remains. Every fixed JSON file must still parse.

Usage: fix_test.py BOXLINT [DIFF_TOOL]   (DIFF_TOOL: tests/cli/diff_tool.c, for the random diffs)
"""
import json, os, shutil, stat, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN = os.path.abspath(sys.argv[1])
DIFF_TOOL = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
tmp = tempfile.mkdtemp()
os.chmod(tmp, 0o755)  # the unprivileged run below must reach its files
results = harness.Checks()
check, fails = results.check, results.fails


def run(args, cwd=None, stdin=None, as_nobody=False):
    pre, exe = None, BIN
    if as_nobody and os.getuid() == 0:
        def pre():  # root ignores permissions: run as nobody to see a read-only directory refuse
            os.setgid(65534)
            os.setuid(65534)
        # The build tree may sit under a directory nobody cannot enter (a checkout in a mode 0700
        # temporary directory): run a copy of the (statically linked) program from tmp.
        exe = os.path.join(tmp, "boxlint-for-nobody")
        if not os.path.exists(exe):
            shutil.copy(BIN, exe)
            os.chmod(exe, 0o755)
    p = subprocess.run([exe] + args, cwd=cwd, input=stdin, capture_output=True, timeout=30,
                       env=dict(os.environ, NO_COLOR="1"), preexec_fn=pre)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


_dirs = 0


def fresh_dir():
    global _dirs
    _dirs += 1
    d = os.path.join(tmp, "d%d" % _dirs)
    os.mkdir(d)
    return d


def put(d, name, data):
    p = os.path.join(d, name)
    with open(p, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
    return p


def get(p):
    with open(p, "rb") as f:
        return f.read()


def fix_case(name, fname, before, want, rc_want=0, flags=()):
    """--fix turns `before` into exactly `want` (bytes) with exit code `rc_want`; --diff in a fresh
    copy gives a patch that patch -p1 and git apply accept and that yields the same bytes; a
    second --fix changes nothing, not even the mtime; a JSON result still parses. `flags` go to
    every run (["--unsafe-fixes"] for the fixes that change what a template or policy does)."""
    flags = list(flags)
    d = fresh_dir()
    p = put(d, fname, before)
    rc, out, err = run(["--fix", fname] + flags, cwd=d)
    got = get(p)
    check(name + ": fixed bytes", got == want.encode(), got, want, err)
    check(name + ": exit code", rc == rc_want, rc, out, err)
    if fname.endswith(".json"):
        try:
            json.loads(got)
        except ValueError as e:
            check(name + ": result parses", False, str(e), got)
    st = os.stat(p)
    rc2, out2, err2 = run(["--fix", fname] + flags, cwd=d)
    st2 = os.stat(p)
    check(name + ": second --fix leaves the bytes", get(p) == got, get(p))
    check(name + ": second --fix leaves the mtime and inode",
          (st.st_mtime_ns, st.st_ino) == (st2.st_mtime_ns, st2.st_ino))
    check(name + ": second --fix exit code", rc2 == rc_want, rc2, err2)
    # --diff: nothing written, the patch gives the same bytes.
    d2 = fresh_dir()
    p2 = put(d2, fname, before)
    st = os.stat(p2)
    rc, out, err = run(["--diff", fname] + flags, cwd=d2)
    changed = before.encode() != want.encode()
    check(name + ": --diff exit code", rc == (1 if changed else 0), rc, err)
    check(name + ": --diff writes nothing", get(p2) == before.encode() and
          os.stat(p2).st_mtime_ns == st.st_mtime_ns)
    check(name + ": --diff output only when it changes", bool(out) == changed, out)
    if changed:
        check(name + ": --diff header", out.startswith("--- a/%s\n+++ b/%s\n@@ -" % (fname, fname)), out)
        g = subprocess.run(["git", "apply", "--check", "-"], cwd=d2, input=out.encode(),
                           capture_output=True)
        check(name + ": git apply --check", g.returncode == 0, g.stderr, out)
        pt = subprocess.run(["patch", "-p1", "--dry-run"], cwd=d2, input=out.encode(),
                            capture_output=True)
        check(name + ": patch --dry-run", pt.returncode == 0, pt.stdout, out)
        pt = subprocess.run(["patch", "-p1", "-s"], cwd=d2, input=out.encode(), capture_output=True)
        check(name + ": patch gives the --fix bytes", pt.returncode == 0 and get(p2) == want.encode(),
              pt.stdout, get(p2), want)
    return out


def diags(path, cwd=None):
    rc, out, err = run(["--format", "json", path], cwd=cwd)
    return [x for f in json.loads(out)["files"] for x in f["diagnostics"]]


# ---- fragments: edited as text ----------------------------------------------------------------
d = fresh_dir()
frag = put(d, "a.Dockerfile", "pip install x\n")
fx = [x["fix"] for x in diags(frag) if x["rule"] == "unknown-instruction"]
check("unknown-instruction carries the RUN fix", fx and fx[0]["replacement"] == "RUN " and
      fx[0]["offset"] == 0 and fx[0]["length"] == 0, fx)
fix_case("fragment: insert RUN", "a.Dockerfile", "pip install x\n", "RUN pip install x\n")
fix_case("fragment: WROKDIR", "b.Dockerfile", "RUN true\nWROKDIR /x\n", "RUN true\nWORKDIR /x\n")
fix_case("fragment: no newline at the end", "c.Dockerfile", "RUN a\nWROKDIR /x",
         "RUN a\nWORKDIR /x")
fix_case("fragment: CRLF", "crlf.Dockerfile", "pip install x\r\nRUN b\r\n",
         "RUN pip install x\r\nRUN b\r\n")
# Two fixes far apart: two hunks; the patch still gives the same bytes.
far_before = "wrokdir /a\n" + "".join("RUN echo %d\n" % i for i in range(12)) + "pip install y\n"
far_want = "workdir /a\n" + "".join("RUN echo %d\n" % i for i in range(12)) + "RUN pip install y\n"
out = fix_case("fragment: two hunks", "far.Dockerfile", far_before, far_want)
check("two hunks", out.count("\n@@ ") + out.startswith("@@") == 2, out)
check("hunk context", "@@ -1,4 +1,4 @@\n-wrokdir /a\n+workdir /a\n RUN echo 0\n" in out, out)
near_before = "wrokdir /a\nRUN 1\nRUN 2\nRUN 3\nRUN 4\nRUN 5\nRUN 6\nwrokdir /b\n"
out = fix_case("fragment: one hunk for close fixes", "near.Dockerfile", near_before,
               near_before.replace("wrokdir", "workdir"))
check("one hunk", out.count("@@ -") == 1 and "@@ -1,8 +1,8 @@" in out, out)
apart_before = near_before.replace("RUN 6\n", "RUN 6\nRUN 7\n")  # 7 lines between: two hunks
out = fix_case("fragment: two hunks 7 lines apart", "apart.Dockerfile", apart_before,
               apart_before.replace("wrokdir", "workdir"))
check("two hunks 7 lines apart", "@@ -1,4 +1,4 @@" in out and "@@ -6,4 +6,4 @@" in out, out)
# A finding without a fix stays, and sets the exit code; the fixable one is gone.
d = fresh_dir()
p = put(d, "m.Dockerfile", "pip install x\nFROM y\n")
fix_case("fragment: what cannot be fixed remains", "m.Dockerfile", "pip install x\nFROM y\n",
         "RUN pip install x\nFROM y\n", rc_want=1)
rc, out, err = run(["--fix", "m.Dockerfile"], cwd=d)
check("remaining finding printed", "m.Dockerfile:2:1: error:" in out and "[denied-instruction]" in out
      and "unknown-instruction" not in out, out)
# A file with no fix: untouched, exit 0.
fix_case("fragment: nothing to fix", "ok.Dockerfile", "RUN true\n", "RUN true\n")

# ---- JSON templates: commands and fields re-escaped --------------------------------------------
tpl = ('{\n  "name": "py",\n  "commands": ["pip install \\"a b\\"\\tc", "WROKDIR /x"],\n'
       '  "cpu_count": 2,\n  "memory_mb": 1024\n}\n')
fix_case("template: escapes kept", "t.json", tpl,
         tpl.replace('["pip', '["RUN pip').replace('"WROKDIR', '"WORKDIR'))
# The slug is an unsafe fix (a name its author did not write): applied with --unsafe-fixes only.
fix_case("template: name fix", "n.json",
         '{"name": "My Tpl", "commands": ["RUN a"], "cpu_count": 2, "memory_mb": 1024}',
         '{"name": "my-tpl", "commands": ["RUN a"], "cpu_count": 2, "memory_mb": 1024}',
         flags=["--unsafe-fixes"])
fix_case("template: name fix is unsafe", "n2.json",
         '{"name": "My Tpl", "commands": ["RUN a"], "cpu_count": 2, "memory_mb": 1024}',
         '{"name": "My Tpl", "commands": ["RUN a"], "cpu_count": 2, "memory_mb": 1024}', rc_want=1)
# A command starting with an escape, and a fix at the very end of a string.
fix_case("template: escape at the start", "e.json", '["\\u0070ip install x"]',
         '["RUN \\u0070ip install x"]')
fix_case("template: edit at the end of the string", "end.json", '["RUN echo hi \\\\"]',
         '["RUN echo hi "]')
fix_case("template: non-ASCII kept as is", "u.json", '["pip install caf\u00e9"]\n',
         '["RUN pip install caf\u00e9"]\n')

# ---- NetworkPolicy lists: allow-without-effect inserts ALL_TRAFFIC in the list's layout ---------
def policy_tpl(policy):
    return ('{\n  "name": "p",\n  "commands": ["RUN a"],\n  "cpu_count": 2,\n  "memory_mb": 1024,\n'
            '  "network_policy": ' + policy + "\n}\n")


cases = [
    ("empty list", '{"type": "filtered", "allow_out": ["pypi.org"], "deny_out": []}',
     '{"type": "filtered", "allow_out": ["pypi.org"], "deny_out": ["ALL_TRAFFIC"]}'),
    ("one-line list", '{"type": "filtered", "allow_out": ["pypi.org"], "deny_out": ["example.com"]}',
     '{"type": "filtered", "allow_out": ["pypi.org"], "deny_out": ["example.com", "ALL_TRAFFIC"]}'),
    ("multi-line list",
     '{\n    "type": "filtered",\n    "allow_out": ["pypi.org", "*.pythonhosted.org"],\n'
     '    "deny_out": [\n      "example.com",\n      "*.example.org"\n    ]\n  }',
     '{\n    "type": "filtered",\n    "allow_out": ["pypi.org", "*.pythonhosted.org"],\n'
     '    "deny_out": [\n      "example.com",\n      "*.example.org",\n      "ALL_TRAFFIC"\n    ]\n  }'),
    ("multi-line list of one",
     '{"type": "filtered", "allow_out": ["pypi.org"], "deny_out": [\n      "example.com"\n  ]}',
     '{"type": "filtered", "allow_out": ["pypi.org"], "deny_out": [\n      "example.com",\n'
     '      "ALL_TRAFFIC"\n  ]}'),
    ("deny_out absent, multi-line object",
     '{\n    "type": "filtered",\n    "allow_out": ["pypi.org", "*.pythonhosted.org"]\n  }',
     '{\n    "type": "filtered",\n    "allow_out": ["pypi.org", "*.pythonhosted.org"],\n'
     '    "deny_out": ["ALL_TRAFFIC"]\n  }'),
    ("deny_out absent, one-line object", '{"type":"filtered","allow_out":["pypi.org"]}',
     '{"type":"filtered","allow_out":["pypi.org"],"deny_out":["ALL_TRAFFIC"]}'),
    ("deny_out null", '{"type": "filtered", "allow_out": ["pypi.org"], "deny_out": null}',
     '{"type": "filtered", "allow_out": ["pypi.org"], "deny_out": ["ALL_TRAFFIC"]}'),
    # Two passes: the A-label replaces the entry, then allow-without-effect fires and is fixed.
    ("A-label, then ALL_TRAFFIC", '{"type": "filtered", "allow_out": ["b\u00fccher.de"], "deny_out": []}',
     '{"type": "filtered", "allow_out": ["xn--bcher-kva.de"], "deny_out": ["ALL_TRAFFIC"]}'),
]
for i, (name, before, after) in enumerate(cases):
    fix_case("policy: " + name, "pol%d.json" % i, policy_tpl(before), policy_tpl(after),
             flags=["--unsafe-fixes"])
    # without --unsafe-fixes: ALL_TRAFFIC is never added (egress would go from allow-all to
    # deny-all), safe fixes still are (the A-label)
    fix_case("policy, no --unsafe-fixes: " + name, "poln%d.json" % i, policy_tpl(before),
             policy_tpl(before.replace("b\u00fccher.de", "xn--bcher-kva.de")))
# A NetworkPolicy file (its root is the policy) and a binding's network_policy.
U = ["--unsafe-fixes"]
fix_case("policy file", "policy.json", '{\n  "type": "filtered",\n  "allow_out": ["pypi.org"]\n}\n',
         '{\n  "type": "filtered",\n  "allow_out": ["pypi.org"],\n  "deny_out": ["ALL_TRAFFIC"]\n}\n', flags=U)
fix_case("policy file, one line", "policy1.json", '{"type": "filtered", "allow_out": ["pypi.org"], "deny_out": []}',
         '{"type": "filtered", "allow_out": ["pypi.org"], "deny_out": ["ALL_TRAFFIC"]}', flags=U)
fix_case("binding's policy", "binding.json",
         '{"template_id": "python-4g", "network_policy": {"type": "filtered", "allow_out": ["pypi.org"]}}\n',
         '{"template_id": "python-4g", "network_policy": {"type": "filtered", "allow_out": ["pypi.org"], '
         '"deny_out": ["ALL_TRAFFIC"]}}\n', flags=U)

# ---- Python: the library's fixes are already file edits in Python syntax -------------------------
py = ("from e2b import Templates\n\nt = client.code_interpreter.templates.create(name='py', commands=['pip install x', \"WROKDIR /x\"],\n"
      "    cpu_count=2, memory_mb=1024)\n")
fix_case("python", "tpl.py", py, py.replace("'pip", "'RUN pip").replace('"WROKDIR', '"WORKDIR'))

d = fresh_dir()
p = put(d, "chk.json", policy_tpl(cases[0][1]))
check("allow-without-effect fires before", any(x["rule"] == "allow-without-effect" for x in diags(p)))
run(["--fix", p])
check("allow-without-effect stays without --unsafe-fixes",
      any(x["rule"] == "allow-without-effect" for x in diags(p)), diags(p))
run(["--fix", "--unsafe-fixes", p])
check("allow-without-effect gone after", not any(x["rule"] == "allow-without-effect" for x in diags(p)),
      diags(p))

# ---- safe and unsafe fixes (issue 24): ALL_TRAFFIC changes egress, so only --unsafe-fixes adds it --
def last_line(err):
    lines = err.splitlines()
    return lines[-1] if lines else ""


POL_LINE = '  "network_policy": {"type": "filtered", "allow_out": ["pypi.org"], "deny_out": []}'
AWE_MSG = ("allow_out[0]: 'pypi.org' has no effect: no deny_out entry overlaps it, and destinations "
           "matched by neither list are allowed")
d = fresh_dir()
before = policy_tpl(cases[0][1])
p = put(d, "s.json", before)
rc, out, err = run(["--fix", "s.json"], cwd=d)
check("unsafe: --fix leaves deny_out alone", get(p) == before.encode(), get(p))
check("unsafe: --fix exit code (a warning remains)", rc == 0, rc, err)
check("unsafe: --fix summary names the unsafe fix",
      err == "boxlint: 1 found, 0 fixed, 1 remaining; 1 unsafe fix available with --unsafe-fixes\n", err)
lines = out.splitlines()
check("unsafe: the finding remains, rule, position, message",
      lines[:1] == ["s.json:6:56: warning: %s [allow-without-effect]" % AWE_MSG], lines)
check("unsafe: text marks the fix", lines[1:] == [
    "    " + POL_LINE,
    "    " + " " * 55 + "^~~~~~~~~~",
    '    hint: to allow only what allow_out lists, add "ALL_TRAFFIC" to deny_out',
    '    fix (unsafe): add "ALL_TRAFFIC" to network_policy.deny_out'], lines)
rc, out, err = run(["--diff", "s.json"], cwd=d)
check("unsafe: --diff without the flag prints no diff", rc == 0 and out == "", rc, out)
check("unsafe: --diff summary",
      err.endswith("boxlint: 1 found, 0 fixed by the diff, 1 remaining; 1 unsafe fix available with "
                   "--unsafe-fixes\n"), err)
rc, out, err = run(["--diff", "--unsafe-fixes", "s.json"], cwd=d)
check("unsafe: --diff --unsafe-fixes", rc == 1 and
      '+  "network_policy": {"type": "filtered", "allow_out": ["pypi.org"], "deny_out": ["ALL_TRAFFIC"]}'
      in out.splitlines(), rc, out)
check("unsafe: --diff --unsafe-fixes summary on stderr, the patch clean",
      err == "boxlint: 1 found, 1 fixed by the diff, 0 remaining\n" and "boxlint" not in out, err)
rc, out, err = run(["--fix", "--unsafe-fixes", "s.json"], cwd=d)
check("unsafe: --fix --unsafe-fixes applies it", get(p) == policy_tpl(cases[0][2]).encode() and
      rc == 0 and out == "", get(p), out)
check("unsafe: --fix --unsafe-fixes summary", err == "boxlint: 1 found, 1 fixed, 0 remaining\n", err)
rc, out, err = run(["--fix", "s.json"], cwd=d)
check("no summary when nothing is found", err == "" and rc == 0, rc, err)

# Safe and unsafe in one file: RUN is inserted (revealing pip-no-cache-dir), deny_out untouched;
# two allow_out entries, two findings with the one unsafe edit: "2 unsafe fixes".
mixed = ('{\n  "name": "p",\n  "commands": ["pip install x"],\n  "cpu_count": 2,\n  "memory_mb": 1024,\n'
         '  "network_policy": {"type": "filtered", "allow_out": ["pypi.org", "*.pythonhosted.org"]}\n}\n')
p = put(d, "mixed.json", mixed)
rc, out, err = run(["--fix", "mixed.json"], cwd=d)
check("mixed: only the safe fix applied", get(p) == mixed.replace('["pip', '["RUN pip').encode(), get(p))
check("mixed: summary, plural",
      err == "boxlint: 4 found, 1 fixed, 3 remaining; 2 unsafe fixes available with --unsafe-fixes\n",
      err)

# Every format marks the fix's safety.
p = put(d, "fmt.json", policy_tpl(cases[0][1]).replace('["RUN a"]', '["pip install x"]'))
ds = diags(p)
awe = [x for x in ds if x["rule"] == "allow-without-effect"]
uni = [x for x in ds if x["rule"] == "unknown-instruction"]
check("json: unsafe fix marked", len(awe) == 1 and (awe[0]["line"], awe[0]["column"]) == (6, 56) and
      awe[0]["message"] == AWE_MSG and awe[0]["fix"]["applicability"] == "unsafe" and
      awe[0]["fix"]["replacement"] == "ALL_TRAFFIC", awe)
check("json: safe fix marked", len(uni) == 1 and (uni[0]["command"], uni[0]["line"], uni[0]["column"]) == (0, 1, 1) and
      uni[0]["message"] == "unknown instruction: pip" and uni[0]["fix"]["applicability"] == "safe", uni)
rc, out, err = run(["--format", "github", "fmt.json"], cwd=d)
gh = [x for x in out.splitlines() if "title=allow-without-effect" in x]
check("github: unsafe fix marked", len(gh) == 1 and gh[0].startswith(
    "::warning file=fmt.json,line=6,col=56,endLine=6,endColumn=66,title=allow-without-effect::") and
    gh[0].endswith('%0Afix (unsafe): add "ALL_TRAFFIC" to network_policy.deny_out'), gh)
gh = [x for x in out.splitlines() if "title=unknown-instruction" in x]
check("github: safe fix", len(gh) == 1 and gh[0].endswith("%0Afix: insert RUN"), gh)
rc, out, err = run(["fmt.json"], cwd=d)
check("text: safe fix line", "    fix: insert RUN" in out.splitlines(), out)

# Python: the flag survives into the .py file's fix; SARIF carries it on each fix.
qs = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "quickstart.py")).read()
p = put(d, "qs.py", qs.replace('"RUN pip install httpx"', '"pip install httpx"'))
ds = diags(p)
awe = [x for x in ds if x["rule"] == "allow-without-effect"]
check("python: unsafe fix marked", len(awe) == 2 and all(x["fix"]["applicability"] == "unsafe" and
      x["fix"]["replacement"] == '"ALL_TRAFFIC"' for x in awe) and
      [(x["line"], x["column"]) for x in awe] == [(16, 55), (16, 67)], awe)
rc, out, err = run(["--format", "sarif", "qs.py"], cwd=d)
import sarif_check  # noqa: E402  (the schema, and Microsoft's validator when installed)
try:
    (errs,) = sarif_check.validate_all([json.loads(out)])
    check("sarif with an unsafe fix: valid SARIF 2.1.0", not errs, *errs)
except sarif_check.MissingValidator as e:
    check("SARIF schema validator (Debian's python3-jsonschema)", False, str(e))
mt, why = sarif_check.multitool_validate([json.loads(out)])
if why:
    print("skipped: " + why)
else:
    check("sarif with an unsafe fix: Microsoft's validator", not mt[0], *mt[0])
res = json.loads(out)["runs"][0]["results"]
sf = {(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]):
      r.get("fixes", [{}])[0] for r in res}
a = sf.get(("allow-without-effect", 16), {})
check("sarif: unsafe fix", a.get("properties") == {"applicability": "unsafe"} and
      a["description"]["text"].endswith("(unsafe: applied by boxlint --fix only with --unsafe-fixes)"), a)
u = sf.get(("unknown-instruction", 13), {})
check("sarif: safe fix", u.get("properties") == {"applicability": "safe"} and
      u["description"]["text"] == "insert RUN", u)
rc, out, err = run(["--fix", "qs.py"], cwd=d)
check("python: --fix inserts RUN, leaves deny_out", b'["RUN pip install httpx"]' in get(p) and
      b'"deny_out": []' in get(p), get(p))
check("python: summary", last_line(err) == "boxlint: 4 found, 1 fixed, 3 remaining; 2 unsafe fixes "
      "available with --unsafe-fixes", err)
rc, out, err = run(["--fix", "--unsafe-fixes", "qs.py"], cwd=d)
check("python: --unsafe-fixes adds ALL_TRAFFIC", b'"deny_out": ["ALL_TRAFFIC"]' in get(p), get(p))
check("python: --unsafe-fixes summary", err == "boxlint: 3 found, 2 fixed, 1 remaining\n", err)

# ---- the result must load: a fix that would break the file is not written ----------------------
# "deny\u005fout" decodes to deny_out but is not spelled so: adding "deny_out" would make a
# duplicate key, which the re-check refuses.
d = fresh_dir()
bad = policy_tpl('{"type": "filtered", "allow_out": ["pypi.org"], "deny\\u005fout": []}')
p = put(d, "dup.json", bad)
rc, out, err = run(["--fix", "--unsafe-fixes", "dup.json"], cwd=d)
check("unloadable result: exit 2", rc == 2, rc, err)
check("unloadable result: message", "dup.json: fixes not applied: the fixed file would not load" in err
      and "nothing written" in err, err)
check("unloadable result: file untouched", get(p) == bad.encode())
check("unloadable result: findings still shown", "allow-without-effect" in out, out)
rc, out, err = run(["--diff", "--unsafe-fixes", "dup.json"], cwd=d)
check("unloadable result: --diff exit 2, no diff", rc == 2 and out == "", rc, out, err)

# ---- permissions, symbolic links, a directory that cannot be written ---------------------------
d = fresh_dir()
p = put(d, "perm.Dockerfile", "pip install x\n")
os.chmod(p, 0o640)
ino = os.stat(p).st_ino
rc, out, err = run(["--fix", p])
check("permissions kept", stat.S_IMODE(os.stat(p).st_mode) == 0o640, oct(os.stat(p).st_mode))
check("replaced by rename", os.stat(p).st_ino != ino and get(p) == b"RUN pip install x\n", get(p))
check("no temporary file left", sorted(os.listdir(d)) == ["perm.Dockerfile"], os.listdir(d))

target = put(d, "real.Dockerfile", "pip install x\n")
os.symlink("real.Dockerfile", os.path.join(d, "link.Dockerfile"))
rc, out, err = run(["--fix", os.path.join(d, "link.Dockerfile")])
check("symlink kept", os.path.islink(os.path.join(d, "link.Dockerfile")))
check("symlink target fixed", get(target) == b"RUN pip install x\n", get(target), err)

d = fresh_dir()
p = put(d, "ro.Dockerfile", "pip install x\n")
os.chmod(p, 0o666)
os.chmod(d, 0o555)
rc, out, err = run(["--fix", p], as_nobody=True)
os.chmod(d, 0o755)
check("read-only directory: exit 2", rc == 2, rc, out, err)
check("read-only directory: message", "ro.Dockerfile: not fixed: cannot create a temporary file" in err
      and "unchanged" in err, err)
check("read-only directory: untouched", get(p) == b"pip install x\n", get(p))
check("read-only directory: findings still shown", "unknown-instruction" in out, out)

# ---- standard input, formats, several files, usage -------------------------------------------
rc, out, err = run(["--fix", "-"], stdin=b"pip install x\nFROM y\n")
check("stdin: fixed text on stdout", out == "RUN pip install x\nFROM y\n", out)
check("stdin: findings on stderr", "denied-instruction" in err and rc == 1, rc, err)
rc, out, err = run(["--fix", "-"], stdin=b'["pip install x"]')
check("stdin JSON: fixed", out == '["RUN pip install x"]' and rc == 0, rc, out, err)
rc, out, err = run(["--fix", "-"], stdin=b"RUN true\n")
check("stdin: nothing to fix, echoed", out == "RUN true\n" and rc == 0, rc, out, err)

d = fresh_dir()
p = put(d, "j.Dockerfile", "pip install x\nFROM y\n")
rc, out, err = run(["--fix", "--format", "json", p])
doc = json.loads(out)
ds = doc["files"][0]["diagnostics"]
check("--fix --format json: what remains", [(x["rule"], x["line"]) for x in ds] ==
      [("pip-no-cache-dir", 1), ("denied-instruction", 2)] and rc == 1, ds)

d = fresh_dir()
put(d, "x.Dockerfile", "pip install x\n")
put(d, "y.json", '["WROKDIR /a"]')
rc, out, err = run(["--diff", "x.Dockerfile", "y.json"], cwd=d)
check("--diff of two files", out.count("--- a/") == 2 and rc == 1, out)
g = subprocess.run(["git", "apply", "--check", "-"], cwd=d, input=out.encode(), capture_output=True)
check("--diff of two files: git apply --check", g.returncode == 0, g.stderr)
rc, out, err = run(["--diff", "./x.Dockerfile"], cwd=d)
check("--diff path without ./", out.startswith("--- a/x.Dockerfile\n"), out)

# A directory: what the walk finds is fixed; JSON that is none of ours is left alone.
d = fresh_dir()
os.mkdir(os.path.join(d, "tree"))
put(d, "tree/x.Dockerfile", "pip install x\n")
put(d, "tree/t.json", '["WROKDIR /a"]')
pkg = put(d, "tree/package.json", '{"private": true, "dependencies": {}}')
rc, out, err = run(["--diff", "tree"], cwd=d)
check("walk --diff", rc == 1 and out.count("--- a/") == 2 and "package.json" not in out, rc, out, err)
rc, out, err = run(["--fix", "tree"], cwd=d)
check("walk --fix", rc == 0 and get(os.path.join(d, "tree/x.Dockerfile")) == b"RUN pip install x\n" and
      get(os.path.join(d, "tree/t.json")) == b'["WORKDIR /a"]', rc, out, err)
check("walk --fix leaves other JSON", get(pkg) == b'{"private": true, "dependencies": {}}' and
      err == "boxlint: 3 found, 2 fixed, 1 remaining\n", err)

d = fresh_dir()
p = put(d, "bad.json", '{"name": ')
rc, out, err = run(["--fix", p])
check("invalid JSON: exit 2", rc == 2 and "invalid JSON" in err and get(p) == b'{"name": ', rc, err)
rc, out, err = run(["--fix", os.path.join(d, "missing.Dockerfile")])
check("missing file: exit 2", rc == 2 and err, rc, err)
rc, out, err = run(["--fix", "-c", "pip install x"])
check("--fix with -c: usage", rc == 2 and "not -c" in err, rc, err)
rc, out, err = run(["--fix", "--diff", p])
check("--fix with --diff: usage", rc == 2 and "exclude each other" in err, rc, err)
rc, out, err = run(["--help"])
check("usage mentions --fix and --diff", "--fix" in out and "--diff" in out, out)

# ---- the diff itself, on random pairs of texts (diff_tool: cli/fix_diff.c alone) ---------------
# Empty files, a last line without a newline, CRLF, repeated lines, changes near each other and
# far apart: patch -p1 and git apply must turn OLD into NEW exactly.
if DIFF_TOOL:
    import random
    rnd = random.Random(20240611)
    pool = ["RUN a\n", "RUN b\n", "\n", "x\r\n", "WORKDIR /w\n", "same\n", "same\n", "  indented\n"]

    def text():
        t = "".join(rnd.choice(pool) for _ in range(rnd.choice([0, 1, 2, 5, 12, 30])))
        if t and rnd.random() < 0.3:
            t = t[:-1]  # no newline at the end
        return t

    bad = 0
    for i in range(150):
        old = text()
        new = old
        if rnd.random() < 0.8 or not old:
            lines = old.splitlines(True)
            for _ in range(rnd.randint(1, 4)):
                k = rnd.randint(0, len(lines))
                op = rnd.random()
                if op < 0.4:
                    lines.insert(k, rnd.choice(pool))
                elif op < 0.7 and k < len(lines):
                    del lines[k]
                elif k < len(lines):
                    lines[k] = rnd.choice(pool)
            new = "".join(lines)
            if rnd.random() < 0.2:
                new = new.rstrip("\n")
        d = fresh_dir()
        a, b = put(d, "old", old), put(d, "new", new)
        os.mkdir(os.path.join(d, "w"))
        target = put(os.path.join(d, "w"), "f.txt", old)
        p = subprocess.run([DIFF_TOOL, "f.txt", a, b], capture_output=True)
        diff = p.stdout
        ok = p.returncode == 0 and (diff == b"") == (old == new)
        if ok and diff:
            g = subprocess.run(["git", "apply", "--check", "-"], cwd=os.path.join(d, "w"), input=diff,
                               capture_output=True)
            pt = subprocess.run(["patch", "-p1", "-s", "--posix"], cwd=os.path.join(d, "w"), input=diff,
                                capture_output=True)
            ok = g.returncode == 0 and pt.returncode == 0 and get(target) == new.encode()
        if not ok:
            bad += 1
            check("random diff %d" % i, False, repr(old), repr(new), diff)
            if bad > 3:
                break
    check("random diffs checked", i == 149, i)

    # Hunk headers where a side is empty, as GNU diff writes them.
    def tool_diff(old, new):
        d = fresh_dir()
        p = subprocess.run([DIFF_TOOL, "f", put(d, "old", old), put(d, "new", new)], capture_output=True)
        return p.stdout.decode()

    check("diff from an empty file", tool_diff("", "a\nb\n") == "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n",
          tool_diff("", "a\nb\n"))
    check("diff to an empty file", tool_diff("a\n", "") == "--- a/f\n+++ b/f\n@@ -1,1 +0,0 @@\n-a\n",
          tool_diff("a\n", ""))
    check("diff adding a final newline",
          tool_diff("a\nb", "a\nb\n") == "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
          tool_diff("a\nb", "a\nb\n"))
    check("no diff for equal texts", tool_diff("a\n", "a\n") == "")

results.print_fails()
print(f"{results.passed} passed, {len(fails)} failed")
shutil.rmtree(tmp, ignore_errors=True)
results.exit()

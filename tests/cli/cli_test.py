#!/usr/bin/env python3
"""The boxlint command as users and CI call it: exit codes, output shapes, bad inputs."""
import json, os, subprocess, sys, tempfile
from urllib.parse import quote
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import sarif_check
import harness  # noqa: E402  (the checks, counted)

BIN, DATA = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
tmp = tempfile.mkdtemp()
results = harness.Checks()
check, fails = results.check, results.fails
sarif_docs = []  # (name, document): every SARIF log the tests produce, validated at the end

def sarif_doc(name, out):
    """A SARIF log that boxlint printed: parsed, and kept for the validators."""
    doc = json.loads(out)
    sarif_docs.append((name, doc))
    return doc

def file_uri(path):
    """What boxlint writes for an absolute path (the test's own temporary directories need no
    more than this; the exact encodings are spelled out in the SARIF URI tests)."""
    return "file://" + quote(os.path.realpath(path), safe="/")

def run(args, stdin=None, env=None):
    e = dict(os.environ, NO_COLOR="1")
    if env: e.update(env)
    p = subprocess.run([BIN] + args, input=stdin, capture_output=True, timeout=30, env=e)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

def write(name, text, mode="w"):
    p = os.path.join(tmp, name)
    with open(p, mode) as f:
        f.write(text)
    return p

# -c: "did you forget RUN?" with position, text format.
rc, out, err = run(["-c", "pip install pydantic-ai"])
check("forgot RUN rc", rc == 1, rc, err)
check("forgot RUN text", "<command-line>:commands[0]:1:1: error: unknown instruction: pip [unknown-instruction]" in out, out)
check("forgot RUN hint", "did you forget RUN?" in out, out)
check("caret", "\n    ^~~\n" in out, out)

# JSON shape (docs/design.md §5).
rc, out, err = run(["--format", "json", "-c", "RUN ok", "-c", "FROM x", "-c", "WORKDR /app"])
doc = json.loads(out)
check("json rc", rc == 1, rc)
check("json version", doc.get("version"), doc)
f = doc["files"][0]
check("json ok false", f["ok"] is False, f)
check("json commands", [(c["index"], c["instruction"], c["line"], c["end_line"]) for c in f["commands"]]
      == [(0, "RUN", 1, 1), (1, "FROM", 1, 1), (2, "WORKDR", 1, 1)], f["commands"])
d = {x["rule"]: x for x in f["diagnostics"]}
check("json denied", d.get("denied-instruction", {}).get("command") == 1, f["diagnostics"])
u = d.get("unknown-instruction", {})
check("json unknown", u.get("command") == 2 and u.get("line") == 1 and u.get("column") == 1
      and u.get("end_column") == 7 and u.get("hint") == "did you mean WORKDIR?", u)
check("json fix", (u.get("fix") or {}).get("replacement") == "WORKDIR", u)
for k in ("rule", "severity", "command", "line", "column", "end_line", "end_column", "offset", "message", "hint"):
    check("json member " + k, k in u, u)

# Clean input: exit 0, ok true.
rc, out, err = run(["--format", "json", os.path.join(DATA, "..", "..", "examples", "template.json")])
check("clean rc", rc == 0, rc, out, err)
check("clean ok", json.loads(out)["files"][0]["ok"] is True, out)

# A fragment file: file positions.
rc, out, err = run([os.path.join(DATA, "fragment.Dockerfile")])
check("fragment rc", rc == 1, rc, out)
check("fragment position", "fragment.Dockerfile:10:1: error: COPY is not allowed" in out, out)

# Standard input, as JSON and as a fragment.
rc, out, err = run(["--format", "json", "-"], stdin=b'["RUN a", "ADD x y"]')
check("stdin json", rc == 1 and json.loads(out)["files"][0]["diagnostics"][0]["command"] == 1, rc, out, err)
rc, out, err = run(["-"], stdin=b"RUN a\nENTRYPOINT x\n")
check("stdin fragment", rc == 1 and "-:2:1: error: ENTRYPOINT" in out, rc, out, err)

# Every problem at once, several files in one run.
p1 = write("a.json", json.dumps(["pip install x", "COPY a b", "RUN ok", "CMD x"]))
p2 = write("b.json", json.dumps(["RUN ok"]))
rc, out, err = run(["--format", "json", p1, p2])
doc = json.loads(out)
check("two files", len(doc["files"]) == 2 and doc["files"][1]["ok"] is True, out)
check("all problems", [(x["rule"], x["command"]) for x in doc["files"][0]["diagnostics"]] ==
      [("unknown-instruction", 0), ("denied-instruction", 1), ("denied-instruction", 3)], out)

# Exit code 2: usage, I/O and malformed input, with a message on stderr.
bad = write("bad.json", '["RUN a",\n  "RUN b"\n  "RUN c"]')
rc, out, err = run([bad])
check("invalid json rc", rc == 2, rc)
check("invalid json position", "bad.json:3:" in err, err)
rc, out, err = run([write("num.json", '["RUN a", 5]')])
check("non-string rc", rc == 2 and "num.json:1:11: commands[1] must be a string, not a number" in err, rc, err)
rc, out, err = run([os.path.join(tmp, "missing.json")])
check("missing rc", rc == 2 and "No such file" in err, rc, err)
empty = os.path.join(tmp, "empty-dir")
os.makedirs(empty, exist_ok=True)
rc, out, err = run([empty])
check("a directory is walked (an empty one: nothing, exit 0)", (rc, out, err) == (0, "", ""), rc, out, err)
rc, out, err = run(["--bogus", "x"])
check("bad flag rc", rc == 2 and "unknown option" in err, rc, err)
rc, out, err = run(["--format", "xml", "-c", "RUN a"])
check("bad format rc", rc == 2 and "unknown format" in err, rc, err)
rc, out, err = run([])
check("no input rc", rc == 2 and "nothing to lint" in err, rc, err)
rc, out, err = run(["--format"])
check("missing value rc", rc == 2 and "needs a value" in err, rc, err)
if os.geteuid() != 0:
    unreadable = write("unreadable.json", "[]")
    os.chmod(unreadable, 0)
    rc, out, err = run([unreadable])
    check("unreadable rc", rc == 2 and "Permission denied" in err, rc, err)
# A file that cannot be read even as root: reading /proc/self/mem at offset 0 fails (EIO).
if os.path.exists("/proc/self/mem"):
    rc, out, err = run(["/proc/self/mem"])
    check("unreadable file (read error)", rc == 2 and "/proc/self/mem" in err and "read error" in err, rc, err)

# --base: appendability and the escape character.
base_bad = write("base-bad", "FROM ubuntu")
rc, out, err = run(["--base", base_bad, "-c", "RUN true"])
check("base not appendable", rc == 1 and "[base-not-appendable]" in out, rc, out)
base_bt = write("base-bt", "# escape=`\nFROM ubuntu\n")
rc, out, err = run(["--format", "json", "--base", base_bt, "-c", "RUN echo `"])
check("base escape", rc == 1 and "dangling-continuation" in out, rc, out)
rc, out, err = run(["--format", "json", "--base", base_bt, "-c", "RUN echo \\"])
check("base escape backslash", rc == 0, rc, out)

# rules / explain.
rc, out, err = run(["rules"])
check("rules", rc == 0 and "denied-instruction" in out and "unknown-instruction" in out, rc)
rc, out, err = run(["explain", "denied-instruction"])
check("explain", rc == 0 and "systemd" in out and "Bad:" in out and "Good:" in out, rc, out)
rc, out, err = run(["explain", "no-such-rule"])
check("explain unknown", rc == 2, rc)


# ---- issue 4: formats, golden outputs -------------------------------------------------------
def run_in(cwd, args, stdin=None, env=None):
    e = dict(os.environ, NO_COLOR="1")
    if env: e.update(env)
    p = subprocess.run([BIN] + args, input=stdin, capture_output=True, timeout=30, env=e, cwd=cwd)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

for fmt in ("text", "json", "sarif", "github"):
    rc, out, err = run_in(DATA, ["--format", fmt, "golden/template.json"])
    want = open(os.path.join(DATA, "golden", "template.%s.out" % fmt)).read()
    if fmt == "sarif":
        # %SRCROOT% is the working directory, which differs between checkouts: the golden file
        # has @DATA_URI@ in its place.
        base = sarif_doc("golden sarif", out)["runs"][0].get("originalUriBaseIds", {}).get("%SRCROOT%", {})
        check("golden sarif %SRCROOT%", base.get("uri") == file_uri(DATA) + "/" and base.get("description", {}).get("text"), base)
        out = out.replace('"uri": "%s/"' % file_uri(DATA), '"uri": "@DATA_URI@"')
        # helpUri: the docs/ the build names (BOXLINT_DOCS_URL), then "/rules/<id>.md"; the
        # golden file has @HELP_URL@ in its place.
        help_base = json.loads(out)["runs"][0]["tool"]["driver"]["rules"][0].get("helpUri", "").rsplit("/rules/", 1)[0]
        check("golden sarif helpUri base", sarif_check.URI.fullmatch(help_base or "-"), help_base)
        out = out.replace('"helpUri": "%s/rules/' % help_base, '"helpUri": "@HELP_URL@/rules/')
    check("golden " + fmt, rc == 1 and out == want, rc, err,
          "\n".join(l for l in __import__("difflib").unified_diff(want.splitlines(), out.splitlines(), lineterm=""))[:2000])

# SARIF: the structure 2.1.0 requires, and what code-scanning reads.
rc, out, err = run_in(DATA, ["--format", "sarif", "golden/template.json"])
sarif = sarif_doc("sarif structure", out)
check("sarif version", sarif.get("version") == "2.1.0" and "$schema" in sarif, list(sarif))
run0 = sarif["runs"][0]
rules = run0["tool"]["driver"]["rules"]
check("sarif driver", run0["tool"]["driver"]["name"] == "boxlint" and rules, run0["tool"]["driver"].get("name"))
for r in rules:
    check("sarif rule " + r.get("id", "?"), all(k in r for k in ("id", "shortDescription", "fullDescription", "help", "helpUri", "defaultConfiguration"))
          and r["shortDescription"].get("text") and r["defaultConfiguration"].get("level") in ("error", "warning", "note")
          and r["helpUri"].endswith("/rules/%s.md" % r["id"]), r)
fixed = 0
for res in run0["results"]:
    ok = res["ruleId"] == rules[res["ruleIndex"]]["id"] and res["level"] in ("error", "warning", "note") and res["message"]["text"]
    loc = res["locations"][0]["physicalLocation"]
    ok = ok and loc["artifactLocation"] == {"uri": "golden/template.json", "uriBaseId": "%SRCROOT%"} and loc["region"]["startLine"] >= 1 and loc["region"]["startColumn"] >= 1
    check("sarif result " + res["ruleId"], ok, res)
    if "fixes" in res:
        fixed += 1
        check("sarif fix location " + res["ruleId"], res["fixes"][0]["artifactChanges"][0]["artifactLocation"]
              == {"uri": "golden/template.json", "uriBaseId": "%SRCROOT%"}, res["fixes"])
        ch = res["fixes"][0]["artifactChanges"][0]["replacements"][0]
        text = open(os.path.join(DATA, "golden", "template.json"), "rb").read()
        off, ln = ch["deletedRegion"]["byteOffset"], ch["deletedRegion"]["byteLength"]
        patched = text[:off] + ch["insertedContent"]["text"].encode() + text[off + ln:]
        check("sarif fix applies " + res["ruleId"], json.loads(patched) is not None, ch)
check("sarif fixes present", fixed >= 2, fixed)
# Applying the fixes of the two unknown instructions gives valid commands.
tpl = json.loads(open(os.path.join(DATA, "golden", "template.json")).read())

# ---- issue 12: SARIF artifact URIs that SARIF consumers accept ------------------------------------
# Absolute paths are file:// URIs; relative ones are relative references to %SRCROOT% (the working
# directory, in run.originalUriBaseIds); both percent-encoded (RFC 3986), the same in results and
# in fixes. A path that climbs out of the working directory becomes a file:// URI (for GitHub code
# scanning, which reads relative URIs from the repository root). Every log is validated below.
S = os.path.join(tmp, "sarif-uris")
two_fixes = json.dumps(["pip install x", "WORKDR /app"])  # two results, each with a fix
for rel in ("rel.json", "with space/t.json", "tëst dir/t.json", "100% #1?.json", "sub/keep"):
    os.makedirs(os.path.dirname(os.path.join(S, rel)), exist_ok=True)
    open(os.path.join(S, rel), "w").write(two_fixes)
SR = file_uri(S)  # file:///tmp/.../sarif-uris
BASE = "%SRCROOT%"

def sarif_uris(name, cwd, paths, want):
    rc, out, err = run_in(cwd, ["--format", "sarif"] + paths)
    doc = sarif_doc(name, out)
    run0 = doc["runs"][0]
    check(name + " rc", rc == 1, rc, err)
    check(name + " %SRCROOT%", run0.get("originalUriBaseIds", {}).get(BASE, {}).get("uri") == file_uri(cwd) + "/",
          run0.get("originalUriBaseIds"))
    got, got_fix = [], []
    for res in run0["results"]:
        a = res["locations"][0]["physicalLocation"]["artifactLocation"]
        got.append((a.get("uri"), a.get("uriBaseId")))
        fa = [ch["artifactLocation"] for f in res.get("fixes", []) for ch in f["artifactChanges"]]
        got_fix.append([(x.get("uri"), x.get("uriBaseId")) for x in fa])
    expect = [w for w in want for _ in range(2)]
    check(name + " uris", got == expect, "\n".join("%r\n  want %r" % (g, w) for g, w in zip(got, expect)) if len(got) == len(expect) else got)
    check(name + " fix uris", got_fix == [[w] for w in expect], got_fix)

sarif_uris("sarif uris", S,
           ["rel.json", "./rel.json", "sub/../rel.json", "with space/t.json", "tëst dir/t.json", "100% #1?.json",
            os.path.join(S, "tëst dir", "t.json"), os.path.join(S, "with space", "t.json"), S + "//./rel.json"],
           [("rel.json", BASE), ("rel.json", BASE), ("rel.json", BASE), ("with%20space/t.json", BASE),
            ("t%C3%ABst%20dir/t.json", BASE), ("100%25%20%231%3F.json", BASE),
            (SR + "/t%C3%ABst%20dir/t.json", None), (SR + "/with%20space/t.json", None), (SR + "/rel.json", None)])
sarif_uris("sarif uris climbing", os.path.join(S, "sub"), ["../rel.json", "../tëst dir/t.json", "../sub/../100% #1?.json"],
           [(SR + "/rel.json", None), (SR + "/t%C3%ABst%20dir/t.json", None), (SR + "/100%25%20%231%3F.json", None)])
# Standard input and -c name no file: no physicalLocation (and so no fix), the position in words.
for name, args, stdin, where in (("stdin", ["-"], two_fixes.encode(), "standard input, line 1, column 3"),
                                 ("inline", ["-c", "pip install x", "-c", "WORKDR /app"], None, "the command line (-c), line 1, column 1")):
    rc, out, err = run_in(S, ["--format", "sarif"] + args, stdin=stdin)
    res = sarif_doc("sarif " + name, out)["runs"][0]["results"]
    check("sarif %s results" % name, rc == 1 and len(res) == 2, rc, err, out)
    check("sarif %s no artifact" % name, all("physicalLocation" not in l and "fixes" not in r for r in res for l in r["locations"]), res)
    check("sarif %s where" % name, res and res[0]["locations"][0].get("message", {}).get("text") == where
          and res[0]["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "commands[0]", res)

# ---- templates ------------------------------------------------------------------------------
def tpl_file(obj, name="t.json", raw=None):
    return write(name, raw if raw is not None else json.dumps(obj, indent=1))

good = {"name": "ok-template", "commands": ["RUN true"], "cpu_count": 2, "memory_mb": 4096}
rc, out, err = run(["--format", "json", tpl_file(good)])
check("template clean", rc == 0 and json.loads(out)["files"][0]["diagnostics"] == [], rc, out, err)
for field, val, rule in (("name", "Bad Name", "invalid-name"), ("name", "-x", "invalid-name"), ("name", "a" * 64, "invalid-name"),
                         ("cpu_count", 0, "invalid-resources"), ("cpu_count", 9, "invalid-resources"), ("cpu_count", 1.5, "invalid-resources"),
                         ("cpu_count", "2", "invalid-resources"), ("memory_mb", 511, "invalid-resources"), ("memory_mb", 16385, "invalid-resources")):
    t = dict(good); t[field] = val
    rc, out, err = run(["--format", "json", tpl_file(t)])
    ds = json.loads(out)["files"][0]["diagnostics"]
    check("template %s=%r" % (field, val), rc == 1 and [(d["rule"], d["path"], d["command"]) for d in ds] == [(rule, field, None)], rc, ds)
for field in ("name", "commands", "cpu_count", "memory_mb"):
    t = dict(good); del t[field]
    rc, out, err = run(["--format", "json", tpl_file(t)])
    ds = json.loads(out)["files"][0]["diagnostics"]
    check("missing " + field, rc == 1 and [(d["rule"], d["path"]) for d in ds] == [("missing-field", field)], rc, ds)
t = dict(good); t["cpus"] = 2
rc, out, err = run(["--format", "json", tpl_file(t)])
d = json.loads(out)["files"][0]["diagnostics"]
check("unknown field", rc == 0 and d[0]["rule"] == "unknown-field" and d[0]["severity"] == "warning" and d[0]["hint"] == 'did you mean "cpu_count"?', rc, d)
check("unknown field position", d and d[0]["line"] == 8 and d[0]["column"] == 10, d)
rc, out, err = run(["--fail-on", "warning", tpl_file(t)])
check("fail-on warning", rc == 1, rc)
rc, out, err = run(["--fail-on", "info", tpl_file(good)])
check("fail-on info clean", rc == 0, rc)
# Wrong types are malformed input: exit 2 with the value's position.
for raw, where in (('{"name": 5, "commands": []}', "1:10"), ('{"name": "x", "commands": "RUN a"}', "1:27"),
                   ('{"name": "x", "commands": ["RUN a", null]}', "1:37"), ('{"commands": [], "network_policy": []}', "1:36"),
                   ('{"commands": [], "network_policy": {"allow_out": [1]}}', "1:51"), ('"RUN a"', "1:"), ('{"a": 1, "a": 2}', "1:")):
    rc, out, err = run([tpl_file(None, raw=raw)])
    check("malformed " + raw, rc == 2 and ("t.json:" + where) in err, rc, err)
# Several files, one bad: the others are still reported, exit 2.
rc, out, err = run(["--format", "json", tpl_file(good, "g.json"), tpl_file(None, "bad2.json", raw="[1")])
check("bad file among good", rc == 2 and len(json.loads(out)["files"]) == 1 and "bad2.json:1:" in err, rc, out, err)

# ---- inputs that are not templates -----------------------------------------------------------
rc, out, err = run([write("empty.json", "")])
check("empty json", rc == 2 and "invalid JSON" in err, rc, err)
rc, out, err = run([write("empty.Dockerfile", "")])
check("empty fragment", rc == 0, rc, out, err)
big = os.path.join(tmp, "big.json")
with open(big, "wb") as f:
    f.truncate(100 * 1024 * 1024)
rc, out, err = run([big])
check("100 MB refused", rc == 2 and "limit" in err and "not read" in err, rc, err)
os.unlink(big)

# ---- standard input without --stdin-filename: how it was read, and how to choose ----------------
NOTE_PY = ("boxlint: note: standard input looks like Python but was read as a Dockerfile fragment; "
           "give --stdin-filename app.py to read it as Python\n")
for name, text in (("import", "import os\nprint(os.getcwd())\n"),
                   ("from ... import", "# a comment\n\nfrom client import Client\n"),
                   ("#!python", "#!/usr/bin/env python3\nx = 1\n"),
                   ("def", "def f():\n    pass\n"),
                   ("the SDK's names", 'c.code_interpreter.templates.create(name="x", commands=[])\n')):
    rc, out, err = run(["-"], stdin=text.encode())
    check("stdin looks like Python (%s): one note, read as a fragment" % name,
          err == NOTE_PY and rc == 1 and out.startswith("-:"), rc, out, err)
rc, out, err = run(["-", "-"], stdin=b"import os\n")
check("stdin twice: the note once", err.count("note:") == 1, err)
rc, out, err = run(["--stdin-filename", "app.py", "-"], stdin=b"import os\n")
check("stdin named app.py: read as Python, no note", rc == 0 and out == "" and err == "", rc, out, err)
rc, out, err = run(["-"], stdin=b'{"name": "t", "commands": ["RUN true"], "cpu_count": 2, "memory_mb": 1024}')
check("stdin looks like JSON: read as JSON, one note saying so and how to choose",
      rc == 0 and out == "" and err.count("\n") == 1 and "read as JSON" in err and
      "--stdin-filename app.py" in err, rc, out, err)
for text in (b"FROM x\n", b"RUN from x import y\n", b"# from a import b\nRUN true\n", b"from python:3\n"):
    rc, out, err = run(["-"], stdin=text)
    check("stdin a fragment (%r): no note" % text, "note" not in err, err)

# ---- a file named: the command line's reading; .boxlint.json is the configuration ------------------
rc, out, err = run([write("Dockerfile", "FROM x\n")])
check("a Dockerfile named: refused (not a kind of boxlint's), nothing read", rc == 2 and out == ""
      and err == "boxlint: %s: not a file boxlint checks by its name (templates and other JSON "
      "are *.json, Python *.py, Dockerfile fragments *.Dockerfile, Dockerfile.*, *.dockerfrag "
      "or a \"fragments\" glob of the configuration); to read it as a fragment anyway, pass "
      "--kind fragment\n" % os.path.join(tmp, "Dockerfile"), rc, out, err)
rc, out, err = run(["--kind", "fragment", os.path.join(tmp, "Dockerfile")])
check("a Dockerfile named with --kind fragment: a fragment", rc == 1 and
      "denied-instruction" in out, rc, out, err)
cfgdir = os.path.join(tmp, "cfgnamed"); os.makedirs(cfgdir)
good_cfg = os.path.join(cfgdir, ".boxlint.json")
open(good_cfg, "w").write('{"rules": {"unknown-field": "off"}}')
rc, out, err = run([good_cfg])
check(".boxlint.json named: checked as the configuration, not a template", rc == 0 and out == "" and err == "", rc, out, err)
open(good_cfg, "w").write('{"rules": {"no-such-rule": "off"}}')
rc, out, err = run([good_cfg])
check(".boxlint.json named: its problem, exit 2", rc == 2 and out == "" and
      err == "boxlint: %s:1:28: invalid config: unknown rule 'no-such-rule'\n" % good_cfg, rc, out, err)
rc, out, err = run(["--force-exclude", good_cfg])
check(".boxlint.json with --force-exclude: passed over (a walk does not lint it)",
      rc == 0 and out == "" and err == "", rc, out, err)
os.unlink(good_cfg)

# ---- --force-exclude: named files follow the walk's rules ------------------------------------------
fe = os.path.join(tmp, "fe"); os.makedirs(os.path.join(fe, "node_modules"))
for rel, text in (("package.json", '{"name": "x", "version": "1.0.0"}'), ("Dockerfile", "FROM x\n"),
                  ("s.dockerfrag", "FROM x\n"), ("node_modules/n.Dockerfile", "FROM x\n"),
                  ("notes.txt", "FROM x\n")):
    open(os.path.join(fe, rel), "w").write(text)
big = os.path.join(fe, "video.bin")
with open(big, "wb") as f:
    f.truncate(100 * 1024 * 1024)
rc, out, err = run_in(fe, ["--force-exclude", "--format", "json", "package.json", "Dockerfile",
                           "s.dockerfrag", "node_modules/n.Dockerfile", "notes.txt", "video.bin"])
got = [f["path"] for f in json.loads(out)["files"]] if out.startswith("{") else out
check("--force-exclude: only the *.dockerfrag fragment; package.json, Dockerfile, node_modules, "
      "a text file and a 100 MB file (not read) passed over silently",
      rc == 1 and got == ["s.dockerfrag"] and err == "", rc, got, err)
rc, out, err = run_in(fe, ["--force-exclude", "--format", "json", "."])
got2 = [f["path"] for f in json.loads(out)["files"]] if out.startswith("{") else out
check("--force-exclude on named files = the walk of their directory", got2 == ["./s.dockerfrag"], got2)
os.unlink(big)
# JSON that does not parse: a broken template when it names a key only boxlint's documents have
# (reported where, exit 2), else another document (a tsconfig.json with comments: passed over)
brk = os.path.join(tmp, "brk"); os.makedirs(brk)
open(os.path.join(brk, "t.json"), "w").write('{"name": "t", "commands": [}\n')
open(os.path.join(brk, "tsconfig.json"), "w").write('{\n  // comments\n  "compilerOptions": {}\n}\n')
rc, out, err = run_in(tmp, ["brk"])
check("walk: a broken template reported at its position, tsconfig.json with comments passed over",
      rc == 2 and out == "" and err.startswith("boxlint: brk/t.json:1:28: invalid JSON: ") and
      err.count("\n") == 1, rc, out, err)
rc, out, err = run_in(brk, ["--force-exclude", "t.json", "tsconfig.json"])
check("--force-exclude: the same", rc == 2 and err.startswith("boxlint: t.json:1:28: invalid JSON")
      and "tsconfig" not in err, rc, err)

# an invalid configuration is said once, however many files it applies to (pre-commit passes many)
bc = os.path.join(tmp, "badcfg"); os.makedirs(bc)
open(os.path.join(bc, ".boxlint.json"), "w").write('{"rules": {"nope": "off"}}')
for f in ("a.Dockerfile", "b.Dockerfile", "README.md"):
    open(os.path.join(bc, f), "w").write("RUN true\n")
for args in (["--force-exclude", "a.Dockerfile", "b.Dockerfile", "README.md"], ["a.Dockerfile", "b.Dockerfile"]):
    rc, out, err = run_in(bc, args)
    check("invalid config said once: " + " ".join(args), rc == 2 and out == "" and err ==
          "boxlint: %s:1:20: invalid config: unknown rule 'nope'\n" % os.path.join(os.path.realpath(bc), ".boxlint.json"),
          rc, out, err)

# ---- config ---------------------------------------------------------------------------------
proj = os.path.join(tmp, "proj"); os.makedirs(os.path.join(proj, "templates", "deep"))
cfg = {"rules": {"unknown-field": "off"},
       "user_rules": [{"id": "no-latest", "severity": "error", "instruction": "RUN", "pattern": ":latest\\b", "message": "pin the version"}]}
open(os.path.join(proj, ".boxlint.json"), "w").write(json.dumps(cfg))
t = dict(good); t["cpus"] = 1; t["commands"] = ["RUN docker pull x:latest", "ENV A=x:latest"]
p = os.path.join(proj, "templates", "deep", "t.json"); open(p, "w").write(json.dumps(t))
rc, out, err = run(["--format", "json", p])
ds = json.loads(out)["files"][0]["diagnostics"]
check("config upward", rc == 1 and [(d["rule"], d["command"], d["column"]) for d in ds] == [("no-latest", 0, 18)], rc, ds, err)
rc, out, err = run(["--format", "json", "--config", write("empty-cfg.json", "{}"), p])
ds = json.loads(out)["files"][0]["diagnostics"]
check("--config overrides", rc == 0 and [d["rule"] for d in ds] == ["unknown-field"], rc, ds, err)
for raw, where, what in (('{"rules": {"denied-instruction": "off"}}', "1:34", "cannot be switched off"),
                         ('{"rules": {"unknown-instruction": "warning"}}', "1:35", "cannot be switched off or lowered"),
                         ('{"rules": {"no-such-rule": "off"}}', "1:28", "unknown rule"),
                         ('{"rules": {"unknown-field": "loud"}}', "1:29", "severity"),
                         ('{"user_rules": [{"id": "x", "pattern": "a(b"}]}', "1:44", "missing closing parenthesis"),
                         ('{"user_rules": [{"id": "x", "pattern": "a", "instruction": "RUNN"}]}', "1:60", "unknown instruction"),
                         ('{"user_rules": [{"id": "denied-instruction", "pattern": "a"}]}', "1:24", "built-in"),
                         ('{"colour": 1}', "1:2", "unknown key"), ('{"rules": ', "1:", "invalid config")):
    rc, out, err = run(["--config", write("cfg.json", raw), "-c", "RUN a"])
    check("bad config " + raw, rc == 2 and ("cfg.json:" + where) in err and what in err, rc, err)

# ---- suppressions -----------------------------------------------------------------------------
frag = write("s.Dockerfile", "# boxlint ignore=no-latest -- we pin by digest elsewhere\nRUN docker pull x:latest\n"
             "# boxlint ignore=no-latest,unknown-instruction\nRUN true\nRUN docker pull y:latest\n")
c2 = write("cfg2.json", json.dumps({"user_rules": [{"id": "no-latest", "severity": "warning", "pattern": ":latest\\b"}]}))
rc, out, err = run(["--format", "json", "--config", c2, frag])
ds = json.loads(out)["files"][0]["diagnostics"]
got = [(d["rule"], d["line"], d["column"]) for d in ds]
check("suppressions", got == [("unused-suppression", 3, 18), ("unused-suppression", 3, 28), ("no-latest", 5, 18)], got)
check("suppression of an error", any("cannot be suppressed" in d["message"] for d in ds), ds)

# ---- colour ------------------------------------------------------------------------------------
import pty
def run_tty(args, env_extra):
    m, s_ = pty.openpty()
    e = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}; e.update(env_extra)
    p = subprocess.Popen([BIN] + args, stdout=s_, stderr=subprocess.PIPE, env=e)
    os.close(s_)
    data = b""
    while True:
        try:
            chunk = os.read(m, 4096)
        except OSError:
            break
        if not chunk: break
        data += chunk
    p.wait(); os.close(m)
    return data.decode("utf-8", "replace")
check("colour on a terminal", "\x1b[" in run_tty(["-c", "FROM x"], {}), "")
check("NO_COLOR", "\x1b[" not in run_tty(["-c", "FROM x"], {"NO_COLOR": "1"}), "")
check("--no-color", "\x1b[" not in run_tty(["--no-color", "-c", "FROM x"], {}), "")

# ---- render -------------------------------------------------------------------------------------
base = write("base.Dockerfile", "FROM ubuntu:24.04\nRUN echo base\n")
rc, out, err = run(["render", "--base", base, tpl_file(good)])
check("render", rc == 0 and out == "FROM ubuntu:24.04\nRUN echo base\nRUN true\n", rc, repr(out), err)
rc, out, err = run(["render", "--base", base, tpl_file(dict(good, commands=["COPY a b"]))])
check("render refuses", rc == 1 and out == "" and "not rendered" in err, rc, out, err)
rc, out, err = run(["render", tpl_file(good)])
check("render usage", rc == 2, rc)

# ---- every SARIF log above: the SARIF 2.1.0 schema and text (sarif_check), and Microsoft's validator
# The validator is not vacuous: a log that breaks the schema and the text is refused.
broken = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal",
          "locations": [{"physicalLocation": {"artifactLocation": {"uri": "/tmp/t.json"}}}]}]}]}
try:
    verdicts = sarif_check.validate_all([doc for _, doc in sarif_docs] + [broken])
    errs = verdicts.pop()
    check("sarif_check refuses a broken log", any("fatal" in e for e in errs) and any("begins with a slash" in e for e in errs), errs)
    check("sarif logs checked", len(verdicts) >= 6, len(verdicts))
    for (name, _), errs in zip(sarif_docs, verdicts):
        check("sarif valid: " + name, not errs, *errs)
except sarif_check.MissingValidator as e:
    check("SARIF schema validator (Debian's python3-jsonschema)", False, str(e))
mt, why = sarif_check.multitool_validate([doc for _, doc in sarif_docs])
if why:
    print("skipped: " + why)
    print("skipped: " + why, file=sys.stderr)
else:
    for (name, _), errs in zip(sarif_docs, mt):
        check("sarif multitool: " + name, not errs, *errs)

results.print_fails()
print(f"{results.passed} passed, {len(fails)} failed")
results.exit()

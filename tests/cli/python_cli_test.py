#!/usr/bin/env python3
"""Python source files through the boxlint command: standard input with --stdin-filename,
invalid Python (a python-syntax finding at the first problem, exit 1, in every output format,
when the file could reach the SDK; nothing when it cannot; the other files still checked), every
output format on a Python file (SARIF validated like every other log: schema, text, Microsoft's
Multitool), JSON bindings and policies in lint, and --fix on the issue's own example.
Arguments: the boxlint binary, the tests/data directory."""
import ast, json, os, shutil, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import sarif_check
import harness  # noqa: E402  (the checks, counted)

BIN, DATA = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
tmp = tempfile.mkdtemp()
results = harness.Checks()
check, fails = results.check, results.fails

def run(args, stdin=None, cwd=None):
    p = subprocess.run([BIN] + args, input=stdin, capture_output=True, timeout=60, cwd=cwd,
                       env=dict(os.environ, NO_COLOR="1"))
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

def write(name, text):
    p = os.path.join(tmp, name)
    with open(p, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    return p

BAD = ('client.code_interpreter.templates.create(\n'
       '    name="py",\n'
       '    commands=["pip install x", "RUN true"],\n'
       '    cpu_count=2, memory_mb=4096)\n')

# ---- standard input ---------------------------------------------------------------------------
rc, out, err = run(["--stdin-filename", "src/app.py", "-"], stdin=BAD.encode())
check("stdin named .py is read as Python", rc == 1 and
      "src/app.py:3:16: error: unknown instruction: pip [unknown-instruction]" in out, rc, out, err)
rc, out, err = run(["-"], stdin=BAD.encode())
check("stdin without a name is a fragment", rc == 1 and "unknown-instruction" in out and
      "<stdin>" not in err, rc, out, err)
rc, out, err = run(["--format", "json", "--stdin-filename", "t.json", "-"],
                   stdin=b'{"template_id": "Bad Id"}')
doc = json.loads(out) if out else {}
check("stdin named .json is a binding", rc == 1 and doc["files"][0]["path"] == "t.json" and
      [d["rule"] for d in doc["files"][0]["diagnostics"]] == ["invalid-template-id"], rc, out, err)

# ---- invalid Python ---------------------------------------------------------------------------
bad = write("broken.py", 'from budai import BudClient\nx = (1,\ny = "ok"\n')
good = write("good.py", BAD)
rc, out, err = run([bad, good])
check("invalid Python that reaches the SDK: a finding, exit 1", rc == 1 and err == "", rc, out, err)
check("invalid Python: python-syntax at the first problem",
      "%s:2:5: error: invalid Python: '(' was never closed [python-syntax]" % bad in out, out)
check("invalid Python: the other files are still checked", "good.py:3:16: error" in out, out)
for fmt in ("json", "sarif", "github"):
    rc, out, err = run(["--format", fmt, bad])
    if fmt == "json":
        d = json.loads(out)["files"][0]["diagnostics"]
        ok = [(x["rule"], x["severity"], x["line"], x["column"]) for x in d] == \
            [("python-syntax", "error", 2, 5)]
    elif fmt == "sarif":
        log = json.loads(out)
        r0 = log["runs"][0]["results"]
        ok = [(r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
              for r in r0] == [("python-syntax", "error", 2)]
        try:
            ok = ok and not sarif_check.validate(log)
        except sarif_check.MissingValidator as e:
            check("SARIF schema validator", False, str(e))
    else:
        ok = "::error file=%s,line=2,col=5" % bad in out
    check("invalid Python in --format %s: the finding, exit 1" % fmt, ok and rc == 1, rc, out, err)
p = write("indent.py", "import budai\nif x:\n    y = 1\n  z = 2\n")
rc, out, err = run([p])
check("bad dedent", rc == 1 and "indent.py:4:3: error: invalid Python: unindent does not match any "
      "outer indentation level [python-syntax]" in out, rc, out, err)
for name, text in (("py2.py", 'print "hello"\n'), ("unclosed.py", "x = (1,\n"),
                   ("latin.py", 'x = "caf\xe9"\n')):
    p = os.path.join(tmp, name)
    with open(p, "wb") as f:
        f.write(text.encode("latin-1"))
    rc, out, err = run([p])
    check("a broken file that cannot reach the SDK: nothing, exit 0 (%s)" % name,
          (rc, out, err) == (0, "", ""), rc, out, err)
rc, out, err = run([tmp])
check("a tree with broken files: the reaching ones reported, exit 1", rc == 1 and
      "broken.py:2:5" in out and "py2.py" not in out and "latin.py" not in out, rc, out, err)
p = write("nocall.py", "import os\nprint(os.getcwd())\n")
rc, out, err = run([p])
check("a file without SDK calls: nothing, exit 0", (rc, out, err) == (0, "", ""), rc, out, err)

# ---- the formats ------------------------------------------------------------------------------
src = write("fmt.py", "# caf\u00e9\nX = ['RUN apt-get install curl']\n"
            "client.code_interpreter.templates.create(name='x', commands=X, cpu_count=2,"
            " memory_mb=4096)\nclient.code_interpreter.templates.update('x', commands=[\"pip install \\u00e9\"])\n")
rc, out, err = run(["--format", "json", src])
d = json.loads(out)["files"][0]["diagnostics"]
rules = [(x["rule"], x["line"], x["column"], x["end_column"], x["path"]) for x in d]
check("json: rules, positions in the .py file, paths",
      rules == [("apt-get-missing-yes", 2, 11, 26, "commands[0]"),
                ("unknown-instruction", 4, 58, 61, "commands[0]")], rules)
fx = [x for x in d if x["rule"] == "unknown-instruction"][0]["fix"]
check("json: the fix is an edit of the file", fx and fx["replacement"] == "RUN " and
      open(src, encoding="utf-8").read().encode()[fx["offset"]:fx["offset"] + 4] == b"pip ", fx)
rc, out, err = run(["--format", "sarif", src])
log = json.loads(out)
res = log["runs"][0]["results"]
reg = [r["locations"][0]["physicalLocation"]["region"] for r in res]
check("sarif: regions in the .py file", [(g["startLine"], g["startColumn"]) for g in reg] ==
      [(2, 11), (4, 58)], reg)
check("sarif: the fix's replacement", any("fixes" in r for r in res), res)
try:
    errs = sarif_check.validate(log)
    check("sarif valid (schema and text)", not errs, errs)
except sarif_check.MissingValidator as e:
    check("SARIF schema validator", False, str(e))
mt, why = sarif_check.multitool_validate([log])
if why:
    print("skipped: " + why)
else:
    check("sarif multitool", not mt[0], mt[0])
rc, out, err = run(["--format", "github", src])
check("github: annotations with the .py position",
      "::warning file=%s,line=2,col=11,endLine=2,endColumn=26" % src in out, out)

# ---- JSON bindings and policies ---------------------------------------------------------------
b = write("binding.json", '{"template_id": "python-4g", "version": 0, "lifespan_seconds": 30,\n'
          ' "network_policy": {"type": "filtered", "allow_out": ["pypi.org"]}}\n')
rc, out, err = run(["--format", "json", b])
d = json.loads(out)["files"][0]["diagnostics"]
got = sorted((x["rule"], x["line"], x["column"]) for x in d)
check("binding.json: each field at its value",
      got == [("allow-without-effect", 2, 55), ("invalid-version", 1, 41),
              ("unusual-lifespan", 1, 64)], got)
pol = write("policy.json", '{"type": "filtered", "allow_out": ["10.0.0.0/33"], "deny_out": ["ALL_TRAFFIC"]}')
rc, out, err = run(["--format", "json", pol])
d = json.loads(out)["files"][0]["diagnostics"]
check("policy.json: an invalid entry at its literal",
      [(x["rule"], x["line"], x["column"]) for x in d] == [("invalid-policy-entry", 1, 36)], d)

# ---- --fix on the example ---------------------------------------------------------------
f = write("fixme.py", 'from budai import BudClient\n\nclient = BudClient()\n'
          "tpl = client.code_interpreter.templates.create(\n    name='py-extra',\n"
          "    commands=[\n        'pip install x',\n        r\"RUN echo \\d\",\n    ],\n"
          "    cpu_count=2,\n    memory_mb=4096,\n)\n"
          'client.agents.add_code_interpreter(\n    "prm_abc",\n    template_id="py-extra",\n'
          '    network_policy={\n        "type": "filtered",\n'
          '        "allow_out": ["pypi.org"],\n    },\n)\n')
rc, out, err = run(["--fix", "--unsafe-fixes", f])  # ALL_TRAFFIC is an unsafe fix (issue 24)
text = open(f, encoding="utf-8").read()
try:
    ast.parse(text)
    parses = True
except SyntaxError:
    parses = False
check("--fix: the result is valid Python", parses, text)
check("--fix: RUN inserted in the literal's quotes", "        'RUN pip install x',\n" in text, text)
check("--fix: deny_out added in the dict's layout",
      '        "allow_out": ["pypi.org"],\n        "deny_out": ["ALL_TRAFFIC"],\n    },' in text, text)
rc, out, err = run(["--format", "json", f])
left = sorted({x["rule"] for x in json.loads(out)["files"][0]["diagnostics"]})
check("--fix: clean of those rules", "unknown-instruction" not in left and
      "allow-without-effect" not in left, left)
before = open(f, "rb").read()
mtime = os.stat(f).st_mtime_ns
rc, out, err = run(["--fix", f])
check("--fix twice: nothing changes", open(f, "rb").read() == before and
      os.stat(f).st_mtime_ns == mtime, rc, out, err)

# ---- --target-version and "target-version" ----------------------------------------------------
proj = os.path.join(tmp, "proj")
os.makedirs(proj)
tv = os.path.join(proj, "alias.py")
with open(tv, "w", encoding="utf-8") as fh:
    fh.write("type Commands = list[str]\n" + BAD)
rc, out, err = run([tv])
check("py314 by default: a type statement is Python", rc == 1 and "unknown-instruction" in out,
      rc, out, err)
rc, out, err = run(["--target-version", "py311", tv])
check("--target-version py311: a type statement is not", rc == 1 and
      "alias.py:1:6: error: invalid Python: invalid syntax [python-syntax]" in out, rc, out, err)
rc, out, err = run(["--target-version=py312", tv])
check("--target-version=py312 takes it", rc == 1, rc, out, err)
for bad_v in ("py37", "py315", "3.11", ""):
    rc, out, err = run(["--target-version", bad_v, tv])
    check("a bad --target-version is a usage error: " + bad_v,
          rc == 2 and out == "" and "--target-version takes py38 to py314" in err, rc, out, err)
with open(os.path.join(proj, ".boxlint.json"), "w", encoding="utf-8") as fh:
    fh.write('{"target-version": "py311"}\n')
rc, out, err = run([tv])
check("the config's target-version", rc == 1 and "invalid Python: invalid syntax" in out,
      rc, out, err)
rc, out, err = run(["--target-version", "py313", tv])
check("the command line overrides the config", rc == 1 and "unknown-instruction" in out,
      rc, out, err)
with open(os.path.join(proj, ".boxlint.json"), "w", encoding="utf-8") as fh:
    fh.write('{"target-version": 311}\n')
rc, out, err = run([tv])
check("a bad target-version is an invalid config at its value", rc == 2 and
      ".boxlint.json:1:20: invalid config: \"target-version\" must be" in err, rc, out, err)

shutil.rmtree(tmp, ignore_errors=True)
results.print_fails(sep="\n  ")
print("python cli: %d passed, %d failed" % (results.passed, len(fails)))
results.exit()

#!/usr/bin/env python3
"""The boxlint command as users and CI call it: exit codes, output shapes, bad inputs."""
import json, os, subprocess, sys, tempfile

BIN, DATA = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp()
fails = []
n = 0

def run(args, stdin=None, env=None):
    e = dict(os.environ, NO_COLOR="1")
    if env: e.update(env)
    p = subprocess.run([BIN] + args, input=stdin, capture_output=True, timeout=30, env=e)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

def check(name, cond, *info):
    global n
    n += 1
    if not cond:
        fails.append((name,) + info)

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

# JSON shape (DESIGN §5).
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
rc, out, err = run([tmp])
check("directory rc", rc == 2 and "is a directory" in err, rc, err)
rc, out, err = run(["--bogus", "x"])
check("bad flag rc", rc == 2 and "unknown option" in err, rc, err)
rc, out, err = run(["--format", "xml", "-c", "RUN a"])
check("bad format rc", rc == 2 and "unknown format" in err, rc, err)
rc, out, err = run([])
check("no input rc", rc == 2 and "usage" in err, rc, err)
rc, out, err = run(["--format"])
check("missing value rc", rc == 2 and "needs a value" in err, rc, err)
if os.geteuid() != 0:
    unreadable = write("unreadable.json", "[]")
    os.chmod(unreadable, 0)
    rc, out, err = run([unreadable])
    check("unreadable rc", rc == 2, rc, err)

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

for x in fails:
    print("FAIL", *x)
print(f"{n - len(fails)} passed, {len(fails)} failed")
sys.exit(1 if fails else 0)

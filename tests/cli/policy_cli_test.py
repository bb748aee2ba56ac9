#!/usr/bin/env python3
# Usage: policy_cli_test.py PATH/TO/boxlint PATH/TO/tests/data/policy
"""`boxlint policy`: JSON and text output (docs/design.md §5), decisions, exit codes, bad input."""
import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN, DATA = sys.argv[1], sys.argv[2]
results = harness.Checks()
check, fails = results.check, results.fails


def run(*args, stdin=None):
    p = subprocess.run([BIN, *args], input=stdin, capture_output=True, timeout=30)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def policy_json(*args, stdin=None):
    rc, out, err = run("policy", *args, "--format", "json", stdin=stdin)
    try:
        return rc, json.loads(out), err
    except ValueError:
        return rc, None, err + out


def data(name):
    return os.path.join(DATA, name)


def diag(doc, rule, path=None):
    for d in doc["diagnostics"]:
        if d["rule"] == rule and (path is None or d["path"] == path):
            return d
    return None


# The seed's example: valid, but both allow entries are without effect (default allow).
rc, doc, err = policy_json(data("seed.json"))
check("seed: exit 0", rc == 0, rc, err)
check("seed: ok", doc and doc["ok"] is True, doc)
if doc:
    check("seed: top-level members", set(doc) == {"ok", "diagnostics", "normalized", "decisions"}, list(doc))
    rules = [(d["rule"], d["path"], d["severity"]) for d in doc["diagnostics"]]
    check("seed: allow-without-effect x2", rules == [
        ("allow-without-effect", "network_policy.allow_out[0]", "warning"),
        ("allow-without-effect", "network_policy.allow_out[1]", "warning")], rules)
    d = diag(doc, "allow-without-effect", "network_policy.allow_out[0]")
    check("seed: hint names ALL_TRAFFIC", d and "ALL_TRAFFIC" in (d["hint"] or "") and "deny_out" in d["hint"], d)
    check("seed: fix adds ALL_TRAFFIC", d and d["fix"] and d["fix"]["replacement"] == "ALL_TRAFFIC"
          and "deny_out" in d["fix"]["description"], d)
    check("seed: message quotes entry", d and "'pypi.org'" in d["message"] and "allow_out[0]" in d["message"], d)
    check("seed: normalized", doc["normalized"] == {"type": "filtered", "allow_out": ["pypi.org", "*.pythonhosted.org"],
                                                   "deny_out": []}, doc["normalized"])
    check("seed: no decisions asked", doc["decisions"] == [], doc["decisions"])
rc, _, _ = run("policy", data("seed.json"), "--fail-on", "warning")
check("seed: --fail-on warning exits 1", rc == 1, rc)

# An allow-list, and decisions; a --host followed by --ip is one decision.
rc, doc, err = policy_json(data("allowlist.json"), "--host", "pypi.org", "--host", "github.com", "--ip", "140.82.112.3",
                           "--ip", "10.1.2.3", "--host", "files.pythonhosted.org", "--host", "pythonhosted.org",
                           "--ip", "::ffff:10.9.9.9", "--ip", "2001:db8::5", "--ip", "2001:db9::5",
                           "--host", "PyPI.org.", "--host", "pypi.org:443", "--ip", "010.0.0.1", "--host", "1.2.3.4")
check("allowlist: exit 0", rc == 0, rc, err)
if doc:
    check("allowlist: no diagnostics", doc["diagnostics"] == [], doc["diagnostics"])
    want = [
        ("pypi.org", None, "allow", "rule", "allow_out", 0, "pypi.org"),
        ("github.com", "140.82.112.3", "deny", "rule", "deny_out", 0, "0.0.0.0/0"),
        (None, "10.1.2.3", "allow", "rule", "allow_out", 2, "10.0.0.0/8"),
        ("files.pythonhosted.org", None, "allow", "rule", "allow_out", 1, "*.pythonhosted.org"),
        ("pythonhosted.org", "::ffff:10.9.9.9", "allow", "rule", "allow_out", 2, "10.0.0.0/8"),
        (None, "2001:db8::5", "allow", "rule", "allow_out", 3, "2001:db8::/32"),
        (None, "2001:db9::5", "deny", "rule", "deny_out", 0, "0.0.0.0/0"),
        ("PyPI.org.", None, "allow", "rule", "allow_out", 0, "pypi.org"),
        ("pypi.org:443", "010.0.0.1", "deny", "invalid-destination", None, None, None),
        ("1.2.3.4", None, "deny", "rule", "deny_out", 0, "0.0.0.0/0"),
    ]
    got = [(d["host"], d["ip"], d["verdict"], d["reason"], d["list"], d["index"], d["entry"]) for d in doc["decisions"]]
    check("allowlist: decisions", got == want, got)
    check("allowlist: decision members", all(set(d) == {"host", "ip", "verdict", "reason", "list", "index", "entry"}
                                             for d in doc["decisions"]), doc["decisions"][:1])

# Every invalid form, with its detail, in order; normalized is null where invalid.
rc, doc, err = policy_json(data("invalid.json"))
check("invalid: exit 1", rc == 1, rc, err)
if doc:
    check("invalid: ok false", doc["ok"] is False)
    details = [d["detail"] for d in doc["diagnostics"] if d["rule"] == "invalid-policy-entry"]
    want = ["empty", "url", "userinfo", "brackets", "zone", "path", "port", "ipv6-syntax", "ipv4-leading-zero",
            "ipv4-shorthand", "ipv4-nondecimal", "ipv4-range", "ipv4-trailing-dot", "prefix-syntax", "prefix-range",
            "host-bits", "unspecified", "mapped-prefix", "empty-label", "label-syntax", "numeric-tld",
            "wildcard-position", "leading-dot", "whitespace", "non-ascii"]
    check("invalid: details", details == want, details)
    paths = [d["path"] for d in doc["diagnostics"] if d["rule"] == "invalid-policy-entry"]
    check("invalid: paths", paths == ["network_policy.allow_out[%d]" % i for i in range(25)], paths)
    hb = diag(doc, "invalid-policy-entry", "network_policy.allow_out[15]")
    check("invalid: host-bits hint", hb and hb["hint"] == "did you mean 10.0.0.0/8 (the network) or 10.0.0.1/32 (the host)?", hb)
    check("invalid: host-bits message", hb and hb["message"] == "allow_out[15]: '10.0.0.1/8' has host bits set beyond the /8 prefix", hb)
    check("invalid: severity", all(d["severity"] == "error" for d in doc["diagnostics"]), doc["diagnostics"])
    norm = doc["normalized"]["allow_out"]
    check("invalid: normalized nulls", norm == [None] * 25 + ["pypi.org"], norm)
    check("invalid: normalized deny", doc["normalized"]["deny_out"] == ["0.0.0.0/0"], doc["normalized"])

# Text output: compiler style, hint lines, one line per decision.
rc, out, err = run("policy", data("invalid.json"))
check("text: exit 1", rc == 1, rc)
first = out.splitlines()[0] if out else ""
check("text: first line", first == data("invalid.json") + ":3:17: error: allow_out[0]: the entry is empty [invalid-policy-entry]", first)
check("text: hint line", "    hint: did you mean 'pypi.org'?" in out.splitlines(), out[:400])
rc, out, err = run("policy", data("allowlist.json"), "--host", "github.com", "--ip", "140.82.112.3", "--host", "example.com")
lines = out.splitlines()
check("text: decisions", lines == ["decision: host github.com, ip 140.82.112.3: deny by deny_out[0] '0.0.0.0/0' [rule]",
                                   "decision: host example.com: unknown [needs-ip]"], lines)
rc, out, err = run("policy", data("seed.json"), "--host", "github.com")
check("text: default", out.splitlines()[-1:] == ["decision: host github.com: allow [default]"], out)

# A host-only question that depends on a deny network needs the address.
with tempfile.TemporaryDirectory() as tmp:
    p = os.path.join(tmp, "p.json")
    json.dump({"type": "filtered", "deny_out": ["140.82.112.0/20"]}, open(p, "w"))
    rc, doc, err = policy_json(p, "--host", "github.com", "--host", "github.com", "--ip", "140.82.112.3")
    got = doc and [(d["verdict"], d["reason"], d["list"], d["index"]) for d in doc["decisions"]]
    check("needs-ip", got == [("unknown", "needs-ip", None, None), ("deny", "rule", "deny_out", 0)], got)
    # unmatched=deny
    json.dump({"type": "filtered", "allow_out": ["pypi.org"], "deny_out": ["10.0.0.0/8"]}, open(p, "w"))
    rc, doc, err = policy_json(p, "--unmatched", "deny", "--ip", "1.1.1.1", "--host", "pypi.org")
    got = doc and [(d["verdict"], d["reason"]) for d in doc["decisions"]]
    check("unmatched deny", got == [("deny", "default"), ("allow", "rule")], got)
    check("deny-without-effect", doc and diag(doc, "deny-without-effect", "network_policy.deny_out[0]") is None
          and rc == 0, doc and doc["diagnostics"])
    json.dump({"type": "filtered", "allow_out": ["10.0.0.0/8"], "deny_out": ["192.168.0.0/16"]}, open(p, "w"))
    rc, doc, err = policy_json(p, "--unmatched", "deny")
    d = doc and diag(doc, "deny-without-effect", "network_policy.deny_out[0]")
    check("deny-without-effect fires", rc == 0 and d and d["severity"] == "warning", doc)
    # disabled and open
    for typ, verdict, reason in (("disabled", "deny", "policy-disabled"), ("open", "allow", "policy-open")):
        json.dump({"type": typ}, open(p, "w"))
        rc, doc, err = policy_json(p, "--ip", "8.8.8.8")
        got = doc and [(d["verdict"], d["reason"]) for d in doc["decisions"]]
        check("type " + typ, rc == 0 and got == [(verdict, reason)], rc, got)
    json.dump({}, open(p, "w"))
    rc, doc, err = policy_json(p, "--host", "a.com")
    check("absent type is disabled", doc and doc["normalized"]["type"] == "disabled"
          and doc["decisions"][0]["reason"] == "policy-disabled", doc)
    json.dump({"type": "disabled", "allow_out": ["pypi.org"]}, open(p, "w"))
    rc, doc, err = policy_json(p)
    check("lists-not-allowed", rc == 1 and doc and diag(doc, "lists-not-allowed", "network_policy.allow_out"), rc, doc)
    json.dump({"type": "Filtered"}, open(p, "w"))
    rc, doc, err = policy_json(p)
    check("invalid-policy-type", rc == 1 and doc and diag(doc, "invalid-policy-type", "network_policy.type")
          and doc["normalized"]["type"] is None, rc, doc)
    json.dump({"type": "filtered", "allow_out": ["10.%d.%d.0/24" % (i // 256, i % 256) for i in range(1025)],
               "deny_out": ["ALL_TRAFFIC"]}, open(p, "w"))
    rc, doc, err = policy_json(p)
    check("too-many-entries", rc == 1 and doc and diag(doc, "too-many-entries", "network_policy.allow_out"), rc)
    rc, doc, err = policy_json(p, "--max-entries", "2000")
    check("--max-entries", rc == 0 and doc and doc["ok"], rc, err)
    json.dump({"type": "filtered", "allowOut": ["pypi.org"]}, open(p, "w"))
    rc, doc, err = policy_json(p)
    d = doc and diag(doc, "unknown-field", "network_policy.allowOut")
    check("unknown-field", d and d["hint"] == "did you mean 'allow_out'?" and d["severity"] == "warning", doc)
    json.dump({"Type": "filtered", "allow": ["pypi.org"], "xyzzy": 1}, open(p, "w"))
    rc, doc, err = policy_json(p)
    hints = doc and [(d["path"], d["hint"]) for d in doc["diagnostics"] if d["rule"] == "unknown-field"]
    check("unknown-field: case, prefix, nothing near", hints == [
        ("network_policy.Type", "did you mean 'type'?"), ("network_policy.allow", "did you mean 'allow_out'?"),
        ("network_policy.xyzzy", "a NetworkPolicy has 'type', 'allow_out' and 'deny_out'")], hints)

# E2B compatibility.
rc, doc, err = policy_json(data("seed.json"), "--compat", "e2b")
check("compat: exit 1", rc == 1, rc)
d = doc and diag(doc, "domains-require-deny-all")
check("compat: domains-require-deny-all", d and "ALL_TRAFFIC" in d["message"] and d["path"] == "network_policy.deny_out", d)
rc, doc, err = policy_json(data("allowlist.json"), "--compat", "e2b")
d = doc and diag(doc, "compat-ipv6", "network_policy.allow_out[3]")
check("compat: compat-ipv6", rc == 1 and d, rc, doc and doc["diagnostics"])

# A template object: its network_policy is checked, with network_policy.* paths.
rc, doc, err = policy_json(data("template.json"))
d = doc and diag(doc, "invalid-policy-entry", "network_policy.allow_out[0]")
check("template: checked", rc == 1 and d and d["detail"] == "port", rc, doc)

# Standard input.
rc, doc, err = policy_json("-", "--ip", "8.8.8.8", stdin=open(data("allowlist.json"), "rb").read())
check("stdin", rc == 0 and doc and doc["decisions"][0]["verdict"] == "deny", rc, err)

# Malformed input and usage: exit 2, message on stderr with the position.
rc, out, err = run("policy", data("malformed.json"))
check("malformed: exit 2", rc == 2, rc)
check("malformed: line and column", data("malformed.json") + ":2:" in err and "invalid JSON" in err, err)
rc, out, err = run("policy", "-", stdin=b"[1, 2]")
check("not an object: exit 2", rc == 2 and "object" in err, rc, err)
rc, out, err = run("policy", "-", stdin=b'{"allow_out": [1]}')
check("non-string entry: exit 2", rc == 2 and "network_policy.allow_out[0]" in err, rc, err)
# A valid allow_out and a bad deny_out: the lists read so far are freed once (a double free
# crashed here before).
rc, out, err = run("policy", "-", stdin=b'{"type": "filtered", "allow_out": ["pypi.org"], "deny_out": [7]}')
check("non-string deny entry after a valid allow_out: exit 2", rc == 2 and
      "network_policy.deny_out[0]" in err and "Sanitizer" not in err and "double free" not in err, rc, err)
rc, out, err = run("policy", "-", stdin=b'{"type": "open", "type": "filtered"}')
check("duplicate key: exit 2", rc == 2 and "duplicate" in err, rc, err)
rc, out, err = run("policy", os.path.join(DATA, "does-not-exist.json"))
check("missing file: exit 2", rc == 2 and err, rc, err)
# Usage errors: exactly one line on standard error, nothing on standard output, exit 2.
SEE = "; see 'boxlint policy --help'\n"
for args, want in (
        ([], "boxlint policy: missing FILE" + SEE),
        (["--format", "xml", data("seed.json")], "boxlint policy: --format takes text, json, sarif or github, not 'xml'" + SEE),
        (["--unmatched", "maybe", data("seed.json")], "boxlint policy: --unmatched takes allow or deny, not 'maybe'" + SEE),
        (["--compat", "e3b", data("seed.json")], "boxlint policy: --compat takes e2b, not 'e3b'" + SEE),
        (["--fail-on=notice", data("seed.json")], "boxlint policy: --fail-on takes error, warning or info, not 'notice'" + SEE),
        (["--fail-on=off", data("seed.json")], "boxlint policy: --fail-on takes error, warning or info, not 'off'" + SEE),
        (["--max-entries", "-3", data("seed.json")], "boxlint policy: --max-entries takes a number from 1 to 65535, not '-3'" + SEE),
        ([data("seed.json"), data("seed.json")], "boxlint policy: one FILE only; extra argument '%s'" % data("seed.json") + SEE),
        (["--bogus", data("seed.json")], "boxlint policy: unknown option '--bogus'" + SEE),
        ([data("seed.json"), "--no-colour"], "boxlint policy: unknown option '--no-colour'" + SEE),
        ([data("seed.json"), "--host"], "boxlint policy: option '--host' needs a value" + SEE),
        ([data("seed.json"), "--ip"], "boxlint policy: option '--ip' needs a value" + SEE),
        ([data("seed.json"), "--format"], "boxlint policy: option '--format' needs a value" + SEE)):
    rc, out, err = run("policy", *args)
    check("usage %s: one line, exit 2" % args, rc == 2 and err == want and out == "", rc, err[:300], out[:100])
for flag in ("--help", "-h"):
    rc, out, err = run("policy", data("seed.json"), flag)
    check(flag + ": usage on stdout", rc == 0 and out.startswith("usage: boxlint policy FILE") and "--host" in out
          and "ONE decision" in out and "sarif" in out and err == "", rc, err[:200])

# `boxlint lint` on a template checks its network_policy the same way (once lint reads templates).
rc, out, err = run("lint", "--format", "json", data("template.json"))
try:
    files = json.loads(out)["files"]
except (ValueError, KeyError, TypeError):
    files = None
if files is None:
    print("policy_cli_test: note: `boxlint lint` gave no JSON report for a template; lint check not run")
else:
    ds = [d for f in files for d in f.get("diagnostics", [])]
    hit = [d for d in ds if d.get("rule") == "invalid-policy-entry" and d.get("detail") == "port"]
    check("lint: template network_policy", hit and hit[0].get("path") == "network_policy.allow_out[0]" and rc == 1,
          rc, ds[:3])

# ---- positions (issue 12, point 6): every finding points into FILE ---------------------------
# Where each finding of the data files is: (rule, path) -> (line, column, end_line, end_column);
# the offset is that of the literal in the file. An entry's finding points at its string
# literal, a list's at the list, a bad type at the type, a policy-wide one at the type.
POS = {
    "positions.json": [
        ("invalid-policy-entry", "network_policy.allow_out[1]", "error", (5, 5, 5, 44), '"https://files.pythonhosted.org/simple"'),
        ("duplicate-entry", "network_policy.allow_out[2]", "warning", (6, 5, 6, 15), None),
        ("invalid-policy-entry", "network_policy.deny_out[1]", "error", (8, 31, 8, 43), '"10.0.0.1/8"'),
        ("unknown-field", "network_policy.alow_out", "warning", (9, 15, 9, 17), "[]"),
    ],
    "bad-type.json": [("invalid-policy-type", "network_policy.type", "error", (2, 11, 2, 21), '"Filtered"')],
    "lists.json": [("lists-not-allowed", "network_policy.deny_out", "error", (3, 15, 5, 4), "[\n")],
    "template-positions.json": [
        ("duplicate-entry", "network_policy.allow_out[1]", "warning", (8, 31, 8, 42), '"PyPI.org."'),
        ("invalid-policy-entry", "network_policy.deny_out[1]", "error", (9, 33, 9, 48), '"10.0.0.0/8:80"'),
    ],
    "template.json": [("invalid-policy-entry", "network_policy.allow_out[0]", "error", (6, 56, 6, 70), '"pypi.org:443"')],
}


SARIF_DOCS = []  # every policy SARIF log produced here, validated at the end


def source(name):
    return open(data(name), encoding="utf-8").read()


for name, want in POS.items():
    text = source(name)
    rc, doc, err = policy_json(data(name))
    if not doc:
        check(name + ": json", False, rc, err)
        continue
    # The contract's members stay (docs/design.md §5); each diagnostic gains its position in FILE.
    members = set(doc) == {"ok", "diagnostics", "normalized", "decisions"} and all(
        set(d) - {"file"} == {"rule", "severity", "path", "command", "line", "column", "end_line",
                              "end_column", "offset", "message", "hint", "fix", "detail"}
        and d["command"] is None
        and d.get("file", {}).get("line") == d["line"] and d["file"]["column"] == d["column"]
        for d in doc["diagnostics"])
    got = [(d["rule"], d["path"], d["severity"], (d["line"], d["column"], d["end_line"], d["end_column"]))
           for d in doc["diagnostics"]]
    check(name + ": json positions", rc == 1 and members and got == [w[:4] for w in want], rc, members, got)
    for (rule, path, _, _, lit), d in zip(want, doc["diagnostics"]):
        if lit is not None:
            check(name + ": json offset " + path, d["offset"] == text.encode().index(lit.encode()), d["offset"], lit)
    # Text: FILE:line:column, the source line, the caret under the literal, then the hint.
    rc, out, err = run("policy", data(name))
    lines = out.splitlines()
    for rule, path, sev, (l, c, el, ec), _ in want:
        head = [i for i, x in enumerate(lines) if x.startswith("%s:%d:%d: %s: " % (data(name), l, c, sev))
                and x.endswith("[%s]" % rule)]
        check(name + ": text position " + path, len(head) == 1, lines[:12])
        if len(head) != 1 or head[0] + 2 >= len(lines):
            continue
        i = head[0]
        src = text.splitlines()[l - 1]
        width = ec - c if el == l else len(src) - (c - 1)
        check(name + ": text excerpt " + path, lines[i + 1] == "    " + src, lines[i + 1])
        check(name + ": text caret " + path, lines[i + 2] == "    " + " " * (c - 1) + "^" + "~" * (width - 1),
              repr(lines[i + 2]), width)
        check(name + ": text hint " + path, i + 3 >= len(lines) or lines[i + 3].startswith("    hint: ")
              or lines[i + 3].startswith(data(name) + ":"), lines[i + 3:i + 4])
    # GitHub annotations.
    rc, out, err = run("policy", data(name), "--format", "github")
    lines = out.splitlines()
    check(name + ": github exit 1", rc == 1 and err == "", rc, err)
    for rule, path, sev, (l, c, el, ec), _ in want:
        pre = "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::" % (
            sev if sev != "info" else "notice", data(name).replace(":", "%3A").replace(",", "%2C"), l, c, el, ec, rule)
        check(name + ": github " + path, sum(x.startswith(pre) for x in lines) == 1, pre, lines)
    # SARIF.
    rc, out, err = run("policy", data(name), "--format", "sarif")
    try:
        log = json.loads(out)
    except ValueError:
        log = None
    check(name + ": sarif is one JSON document", rc == 1 and log is not None and log.get("version") == "2.1.0", rc, out[:200])
    if not log:
        continue
    SARIF_DOCS.append((name, log))
    res = log["runs"][0]["results"]
    rule_ids = [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]]
    got = []
    for r in res:
        loc = r["locations"][0]
        reg = loc["physicalLocation"].get("region", {})
        got.append((r["ruleId"], loc.get("logicalLocations", [{}])[0].get("fullyQualifiedName"),
                    r["level"], (reg.get("startLine"), reg.get("startColumn"), reg.get("endLine"), reg.get("endColumn"))))
        check(name + ": sarif artifact", loc["physicalLocation"]["artifactLocation"]["uri"].endswith(name), loc)
        check(name + ": sarif rule index", rule_ids[r["ruleIndex"]] == r["ruleId"], r)
    check(name + ": sarif positions", got == [w[:4] for w in want], got)
    for (rule, path, _, _, lit), r in zip(want, res):
        reg = r["locations"][0]["physicalLocation"].get("region", {})
        if lit is not None:
            check(name + ": sarif byteOffset " + path, reg.get("byteOffset") == text.encode().index(lit.encode()), reg)

# A template: `boxlint policy T` prints its network_policy's findings exactly as `boxlint T` does.
for fmt in ("text", "github", "json"):
    _, pout, _ = run("policy", data("template-positions.json"), "--format", fmt)
    _, lout, _ = run("--format", fmt, data("template-positions.json"))
    if fmt == "json":
        try:
            pd, ld = json.loads(pout)["diagnostics"], json.loads(lout)["files"][0]["diagnostics"]
        except (ValueError, KeyError, IndexError):
            pd, ld = None, []
        check("template: json diagnostics as lint's", pd == ld, pd, ld)
    else:
        check("template: %s as lint's" % fmt, pout == lout and pout, pout, lout)

# A policy-wide finding points at the type; a missing list at the policy object; stdin too.
rc, out, err = run("policy", "-", stdin=b'\n  {"type": "filtered"}\n')
check("filtered-empty-is-open: at the type", out.splitlines()[:3] == [
    "<stdin>:2:12: warning: type is 'filtered' but allow_out and deny_out are empty: every destination is allowed"
    " [filtered-empty-is-open]", '      {"type": "filtered"}', "               ^~~~~~~~~~"], out)
rc, doc, err = policy_json("-", "--compat", "e2b", stdin=b'{"allow_out": ["pypi.org", "ALL_TRAFFIC"],\n "type": "filtered"}')
d = doc and diag(doc, "domains-require-deny-all")
check("missing deny_out: at the policy", d and (d["line"], d["column"], d["offset"]) == (1, 1, 0), d)
rc, doc, err = policy_json("-", stdin=b'{"name": "t",\n "network_policy": {"type": "filtered"}}')
d = doc and diag(doc, "filtered-empty-is-open")
check("template filtered-empty-is-open: at the type", d and (d["line"], d["column"], d["end_column"]) == (2, 29, 39), d)

# Decisions: after the findings (text, github); on stderr under SARIF, so stdout stays the log.
rc, out, err = run("policy", data("seed.json"), "--format", "github", "--host", "github.com")
lines = out.splitlines()
check("github: decisions after the annotations", lines[-1:] == ["decision: host github.com: allow [default]"]
      and lines[0].startswith("::warning file=%s,line=1,col=36," % data("seed.json").replace(",", "%2C")), lines)
rc, out, err = run("policy", data("seed.json"), "--format", "sarif", "--host", "github.com")
try:
    json.loads(out)
    sarif_ok = True
except ValueError:
    sarif_ok = False
check("sarif: decisions on stderr", rc == 0 and sarif_ok and err == "decision: host github.com: allow [default]\n", rc, err)
if sarif_ok:
    SARIF_DOCS.append(("seed.json with decisions", json.loads(out)))
# Standard input has no artifact: the location says where in words, with the line and column.
rc, out, err = run("policy", "-", "--format", "sarif", stdin=open(data("bad-type.json"), "rb").read())
try:
    log = json.loads(out)
    loc = log["runs"][0]["results"][0]["locations"][0]
except (ValueError, KeyError, IndexError):
    log, loc = None, None
check("sarif stdin: position in words", rc == 1 and loc and "physicalLocation" not in loc
      and loc["message"]["text"] == "standard input, line 2, column 11"
      and loc["logicalLocations"][0]["fullyQualifiedName"] == "network_policy.type", rc, loc)
if log:
    SARIF_DOCS.append(("stdin", log))

# Every SARIF log above, as consumers check it: the 2.1.0 schema and the artifact-location rules
# (tests/support/sarif_check.py), and Microsoft's SARIF Multitool when it is installed.
try:
    import sarif_check
except ImportError:
    sarif_check = None
docs = [d for _, d in SARIF_DOCS]
errs = [["tests/support/sarif_check.py is missing"]] if sarif_check is None else []
if sarif_check and docs:
    try:
        errs = [["%s: %s" % (n, x) for x in e] for (n, _), e in zip(SARIF_DOCS, sarif_check.validate_all(docs))]
    except sarif_check.MissingValidator as e:
        errs = [["validator missing: %s" % e]]
    merrs, why = sarif_check.multitool_validate(docs)
    if why:
        print("policy_cli_test: note: " + why)
    errs += [["%s: %s" % (n, x) for x in e] for (n, _), e in zip(SARIF_DOCS, merrs or [])]
check("sarif: all %d policy logs valid" % (len(POS) + 2), len(docs) == len(POS) + 2 and not any(errs),
      len(docs), [x for e in errs for x in e][:10])

# Colours as `boxlint FILE`: on a terminal, unless --no-color or NO_COLOR.
def run_tty(*args, env=None):
    import pty
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen([BIN, *args], stdout=slave, stderr=subprocess.PIPE, env=env)
        os.close(slave)
        slave = None
        chunks = []
        while True:
            try:
                b = os.read(master, 65536)
            except OSError:
                break
            if not b:
                break
            chunks.append(b)
        p.wait(timeout=30)
        p.stderr.close()
        return p.returncode, b"".join(chunks).decode("utf-8", "replace")
    finally:
        if slave is not None:
            os.close(slave)
        os.close(master)


env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
rc, out = run_tty("policy", data("positions.json"), env=env)
check("tty: coloured", rc == 1 and "\033[1;31merror:\033[0m" in out and "\033[1;33mwarning:\033[0m" in out
      and "\033[1;32m^" in out, rc, repr(out[:300]))
rc, out = run_tty("policy", data("positions.json"), "--no-color", env=env)
check("tty: --no-color", rc == 1 and "\033" not in out and ":5:5: error: " in out, rc, repr(out[:300]))
rc, out = run_tty("policy", data("positions.json"), env=dict(env, NO_COLOR="1"))
check("tty: NO_COLOR", rc == 1 and "\033" not in out and ":5:5: error: " in out, rc, repr(out[:300]))

# ---- one reading with lint (issue 24): the same limit and the same words for the same problem --
with tempfile.TemporaryDirectory() as tmp:
    for name, body in (("bad-list.json", b'{"name": "t", "network_policy": {"allow_out": [1]}}'),
                       ("bad-type.json", b'{"name": "t", "network_policy": {"type": 5}}'),
                       ("bad-json.json", b'{"name": "t",'),
                       ("dup.json", b'{"type": "open", "type": "filtered"}')):
        f = os.path.join(tmp, name)
        open(f, "wb").write(body)
        prc, _, perr = run("policy", f)
        lrc, _, lerr = run("lint", f)
        check("same words as lint: " + name, prc == 2 and lrc == 2 and perr == lerr and perr.startswith("boxlint: " + f + ":1:"),
              prc, lrc, perr, lerr)
    big = os.path.join(tmp, "big.json")
    with open(big, "wb") as fh:
        fh.write(b"{" + b" " * (16 * 1024 * 1024) + b"}")
    prc, _, perr = run("policy", big)
    lrc, _, lerr = run("lint", big)
    check("same size limit as lint", prc == 2 and perr == lerr and "16777216-byte limit" in perr, prc, perr, lerr)

    # ---- DNS-safe --emit: names, a deny-all and no --resolver are refused (exit 2) ----------
    allow = os.path.join(tmp, "allow.json")
    json.dump({"type": "filtered", "allow_out": ["pypi.org", "*.pypi.org"], "deny_out": ["ALL_TRAFFIC"]}, open(allow, "w"))
    for fmt in ("nftables", "dnsmasq"):
        rc, out, err = run("policy", allow, "--emit", fmt)
        check("emit %s without a resolver: refused, exit 2" % fmt, rc == 2 and out == ""
              and "no resolver given: deny_out[0] 'ALL_TRAFFIC' drops every address" in err
              and "[unenforceable-entry]" in err and "--resolver ADDR" in err
              and err.rstrip().endswith("give the resolver's address with --resolver ADDR"), rc, out[:200], err)
        check("emit %s without a resolver: at the entry" % fmt, (allow + ":1:76: error: no resolver given") in err, err)
        rc, out, err = run("policy", allow, "--emit", fmt, "--resolver", "198.51.100.53")
        check("emit %s with --resolver: written" % fmt, rc == 0 and "198.51.100.53" in out and err == "", rc, err)
    json.dump({"type": "filtered", "allow_out": ["pypi.org"], "deny_out": []}, open(allow, "w"))
    rc, out, err = run("policy", allow, "--emit", "nftables", "--unmatched", "deny")
    check("emit --unmatched deny without a resolver: refused at the type", rc == 2 and out == ""
          and "destinations matched by neither list are denied (unmatched deny)" in err, rc, err)
    json.dump({"type": "filtered", "allow_out": ["203.0.113.0/24"], "deny_out": ["ALL_TRAFFIC"]}, open(allow, "w"))
    rc, out, err = run("policy", allow, "--emit", "nftables")
    check("emit: no host name, no resolver needed", rc == 0 and "table inet boxlint {" in out and err == "", rc, err)
    json.dump({"type": "filtered", "allow_out": [], "deny_out": ["evil.example"]}, open(allow, "w"))
    rc, out, err = run("policy", allow, "--emit", "nftables")
    check("emit: names, nothing dropped by default: no resolver needed", rc == 0 and out and err == "", rc, err)

    # ---- the proxy layer: --emit nginx and --proxy-user ------------------------------------
    json.dump({"type": "filtered", "allow_out": ["pypi.org"], "deny_out": ["ALL_TRAFFIC"]}, open(allow, "w"))
    rc, out, err = run("policy", allow, "--emit", "nginx", "--resolver", "198.51.100.53")
    check("emit nginx: written", rc == 0 and "ssl_preread on;" in out and "\t\tpypi.org allow;" in out
          and "resolver 198.51.100.53 ipv6=on;" in out and err == "", rc, err)
    rc, out, err = run("policy", allow, "--emit", "nginx")
    check("emit nginx without a resolver: refused, exit 2", rc == 2 and out == ""
          and (allow + ":1:10: error: no resolver given") in err
          and err.rstrip().endswith("give the resolver's address with --resolver ADDR"), rc, err)
    rc, out, err = run("policy", allow, "--emit", "nftables", "--resolver", "198.51.100.53",
                       "--proxy-user", "www-data")
    check("emit nftables --proxy-user: redirect, QUIC dropped", rc == 0 and
          "tcp dport 443 redirect to :15443" in out and "udp dport 443 drop" in out, rc, err)
    for args, words in ((["--proxy-user", "www-data"], "--proxy-user and --resolver go with --emit"),
                        (["--emit", "dnsmasq", "--proxy-user", "www-data"],
                         "--proxy-user goes with --emit nftables or nginx"),
                        (["--emit", "squid"], "--emit takes nftables, dnsmasq or nginx, not 'squid'"),
                        (["--emit", "nginx", "--proxy-user", "a b", "--resolver", "198.51.100.53"],
                         "--proxy-user take letters, digits")):
        rc, out, err = run("policy", allow, *args)
        check("proxy usage: %s" % " ".join(args), rc == 2 and out == "" and words in err, rc, err)
    json.dump({"type": "filtered", "allow_out": ["pypi.org", "203.0.113.0/26"], "deny_out": ["ALL_TRAFFIC"]},
              open(allow, "w"))
    rc, out, err = run("policy", allow, "--emit", "nginx", "--resolver", "198.51.100.53")
    check("emit nginx: an allowed address refused at the entry, exit 1", rc == 1 and out == ""
          and (allow + ":1:48: error: allow_out[1]: '203.0.113.0/26': allow_out allows an address") in err
          and "[unenforceable-entry]" in err and "no nginx configuration written" in err, rc, err)

    # ---- a Python file: its policies read, validated, decided; labelled by line:column ------
    app = os.path.join(tmp, "app.py")
    open(app, "w").write(
        "import os\n"
        "from budai import NetworkPolicy\n"
        "STRICT = NetworkPolicy('filtered', allow_out=['pypi.org', 'pypi.org'], deny_out=['ALL_TRAFFIC'])\n"
        "LOOSE = NetworkPolicy(type='filtered', allow_out=[os.environ['HOST']])\n"
        "client.agents.add_code_interpreter('agent', template_id='t', network_policy=STRICT)\n"
        "client.agents.add_code_interpreter('agent', template_id='t', network_policy={'type': 'open'})\n"
        "tpl = client.code_interpreter.templates.create(name='n', commands=['RUN pip install x'], cpu_count=2, memory_mb=512)\n")
    rc, out, err = run("policy", app, "--host", "pypi.org", "--ip", "203.0.113.1", "--ip", "198.51.100.7")
    lines = out.splitlines()
    check("python: not 'invalid JSON'", "invalid JSON" not in err and rc == 0, rc, err)
    check("python: findings inside the policies only", any(l.startswith(app + ":3:59: warning: ") and l.endswith("[duplicate-entry]") for l in lines)
          and any(l.startswith(app + ":4:51: info: ") and l.endswith("[not-static]") for l in lines)
          and not any("pip-no-cache-dir" in l for l in lines), lines)
    check("python: decisions labelled", [l for l in lines if "decision" in l] == [
        app + ":3:10: decision: host pypi.org, ip 203.0.113.1: allow by allow_out[0] 'pypi.org' [rule]",
        app + ":3:10: decision: ip 198.51.100.7: deny by deny_out[0] '0.0.0.0/0' [rule]",
        app + ":4:9: no decisions: the policy is not static: allow_out[0] is an attribute, known only when the code runs",
        app + ":6:77: decision: host pypi.org, ip 203.0.113.1: allow [policy-open]",
        app + ":6:77: decision: ip 198.51.100.7: allow [policy-open]"], [l for l in lines if "decision" in l])
    rc, doc, err = policy_json(app, "--host", "pypi.org")
    pols = doc and doc.get("policies")
    check("python json: three policies", pols and [(p["line"], p["column"], p["binding"], p["static"]) for p in pols]
          == [(3, 10, True, True), (4, 9, False, False), (6, 77, True, True)], pols)
    check("python json: decisions, why", pols and pols[0]["decisions"][0]["verdict"] == "allow" and pols[1]["decisions"] == []
          and "known only when the code runs" in pols[1]["why"] and pols[0]["normalized"]["deny_out"] == ["0.0.0.0/0"], pols)
    check("python json: diagnostics", doc and sorted(d["rule"] for d in doc["diagnostics"]) == ["duplicate-entry", "not-static"], doc)
    check("python json: the members", doc and set(doc) == {"ok", "diagnostics", "policies"} and pols and all(
        set(p) == {"line", "column", "offset", "binding", "static", "why", "normalized", "decisions"} for p in pols), doc)
    rc, out, err = run("policy", app, "--format", "github", "--host", "pypi.org")
    lines = out.splitlines()
    check("python github: annotations, then labelled decisions", rc == 0 and err == ""
          and lines[0].startswith("::warning file=%s,line=3,col=59," % app.replace(",", "%2C"))
          and lines[-1].startswith(app + ":6:77: decision: host pypi.org: allow"), rc, err, lines)
    rc, out, err = run("policy", app, "--format", "sarif", "--host", "pypi.org")
    try:
        res = json.loads(out)["runs"][0]["results"]
    except (ValueError, KeyError, IndexError):
        res = None
    check("python sarif: the log on stdout, decisions on stderr", rc == 0 and res is not None
          and sorted(r["ruleId"] for r in res) == ["duplicate-entry", "not-static"]
          and (app + ":3:10: decision: host pypi.org: allow by allow_out[0] 'pypi.org' [rule]") in err.splitlines(),
          rc, err, out[:300])
    rc, out, err = run("policy", app, "--emit", "nftables", "--resolver", "198.51.100.53")
    check("python --emit: three policies refused (exit 2)", rc == 2 and out == "" and
          "--emit writes the rules of one policy, and the file has 3 (at 3:10, 4:9, 6:77)" in err, rc, err)
    one = os.path.join(tmp, "one.py")
    open(one, "w").write("import os\nNetworkPolicy('filtered', [os.environ['H']], ['ALL_TRAFFIC'])\n")
    rc, out, err = run("policy", one, "--emit", "nftables", "--resolver", "198.51.100.53")
    check("python --emit: a policy not static is refused (exit 2)", rc == 2 and out == "" and
          (one + ":2:1: --emit: the policy is not static (allow_out[0] is an attribute") in err, rc, err)
    open(one, "w").write("NetworkPolicy('filtered', ['pypi.org', '*.pypi.org'], ['ALL_TRAFFIC'])\n")
    rc, out, err = run("policy", one, "--emit", "nftables")
    check("python --emit: no resolver: refused, exit 2", rc == 2 and out == "" and "--resolver ADDR" in err
          and "[unenforceable-entry]" in err, rc, err)
    rc, out, err = run("policy", one, "--emit", "dnsmasq", "--resolver", "198.51.100.53")
    check("python --emit: one static policy written", rc == 0 and "server=198.51.100.53" in out and err == "", rc, err)
    open(one, "w").write("NetworkPolicy('filtered',\n")
    rc, out, err = run("policy", one)
    lrc, lout, lerr = run("lint", one)
    check("python: syntax error, the finding lint reports, exit 1", rc == 1 and lrc == 1 and
          err == "boxlint: %s:1:14: invalid Python: '(' was never closed [python-syntax]\n" % one and
          ("%s:1:14: error: invalid Python: '(' was never closed [python-syntax]" % one) in lout,
          rc, err, lrc, lout)
    open(one, "w").write("Policy('filtered',\n")
    rc, out, err = run("policy", one)
    check("python: a broken file that cannot reach the SDK: no policy, exit 0", rc == 0 and
          out == "" and "no NetworkPolicy in the file" in err, rc, out, err)
    open(one, "w").write("print('nothing')\n")
    rc, out, err = run("policy", one)
    check("python: no policy said", rc == 0 and out == "" and "no NetworkPolicy in the file" in err, rc, err)

results.print_fails()
print("policy_cli_test: %d/%d checks hold" % (results.passed, results.n))
results.exit()

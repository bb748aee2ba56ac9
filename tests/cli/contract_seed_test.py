#!/usr/bin/env python3
"""The behaviours the platform's documentation names (docs/design.md §2.1), checked by the command's
JSON contract (design.md §5) as a server or SDK would read it: the deny-list with a message of its
own per instruction, "did you forget RUN?", the limits, NUL, bare CR, smuggling by newline and by
continuation, heredocs, and every problem of a list at once.

Each expectation names the rule, the command index, the position (line, column, end column) and a
part of the message or hint that names the offending text: a report with the right rule at the
wrong place, or a vague message, fails.

Usage: contract_seed_test.py PATH/TO/boxlint
"""
import json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN = os.path.abspath(sys.argv[1])
tmp = tempfile.mkdtemp()
results = harness.Checks()
check, fails = results.check, results.fails


def lint(cmds):
    """Lint a bare array of commands written to a .json file; (exit code, file report or None)."""
    path = os.path.join(tmp, "cmds.json")
    with open(path, "w") as f:
        json.dump(cmds, f)
    p = subprocess.run([BIN, "--format", "json", path], capture_output=True, timeout=30)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        return p.returncode, None
    if doc.get("files") and len(doc["files"]) == 1:
        return p.returncode, doc["files"][0]
    return p.returncode, None


def errors_of(report):
    return [d for d in report.get("diagnostics", []) if d.get("severity") == "error"]


def expect_clean(name, cmds):
    rc, f = lint(cmds)
    if f is None:
        check(name + ": JSON report", False, rc)
        return
    errs = errors_of(f)
    check(name + ": exit 0", rc == 0, rc, errs)
    check(name + ": no error", not errs, [(d["rule"], d.get("command")) for d in errs])
    check(name + ": ok", f.get("ok") is True, f.get("ok"))
    check(name + ": one instruction per command",
          [c.get("index") for c in f.get("commands", [])] == list(range(len(cmds))), f.get("commands"))


def expect(name, cmds, want):
    """want: list of (rule, command, line, column, end_column, text that the message or hint holds)."""
    rc, f = lint(cmds)
    if f is None:
        check(name + ": JSON report", False, rc)
        return []
    errs = errors_of(f)
    check(name + ": exit 1", rc == 1, rc)
    check(name + ": not ok", f.get("ok") is False, f.get("ok"))
    for rule, cmd, line, col, end_col, text in want:
        hit = [d for d in errs if d.get("rule") == rule and d.get("command") == cmd]
        if not hit:
            check(f"{name}: {rule} on command {cmd}", False,
                  [(d["rule"], d.get("command")) for d in errs])
            continue
        d = hit[0]
        check(f"{name}: {rule} position", (d.get("line"), d.get("column"), d.get("end_column"))
              == (line, col, end_col), (d.get("line"), d.get("column"), d.get("end_column")))
        said = (d.get("message") or "") + " | " + (d.get("hint") or "")
        check(f"{name}: {rule} names {text!r}", text in said, said)
    return errs


# "Did you forget RUN?" and "did you mean ...?", with their fixes.
e = expect("forgot RUN", ["pip install pydantic-ai"],
           [("unknown-instruction", 0, 1, 1, 4, "unknown instruction: pip"),
            ("unknown-instruction", 0, 1, 1, 4, "did you forget RUN?")])
if e:
    check("forgot RUN: fix inserts RUN", (e[0].get("fix") or {}).get("replacement") == "RUN "
          and e[0]["fix"].get("offset") == 0 and e[0]["fix"].get("length") == 0, e[0].get("fix"))
e = expect("typo RUNN", ["RUNN echo hi"], [("unknown-instruction", 0, 1, 1, 5, "did you mean RUN?")])
if e:
    check("typo RUNN: fix", (e[0].get("fix") or {}).get("replacement") == "RUN"
          and e[0]["fix"].get("length") == 4, e[0].get("fix"))
expect("typo WORKDR", ["WORKDR /app"], [("unknown-instruction", 0, 1, 1, 7, "did you mean WORKDIR?")])

# The deny-list: a message of its own for FROM, for COPY/ADD and for CMD/ENTRYPOINT.
msgs = {}
for kw, cmd, end, reason in [
        ("FROM", "FROM ubuntu:24.04", 5, "base image"),
        ("COPY", "COPY app.py /app/", 5, "build context"),
        ("ADD", "ADD https://x.example/a.tgz /opt/", 4, "build context"),
        ("CMD", 'CMD ["python3", "app.py"]', 4, "PID 1"),
        ("ENTRYPOINT", 'ENTRYPOINT ["/bin/sh"]', 11, "PID 1")]:
    e = expect("denied " + kw, [cmd], [("denied-instruction", 0, 1, 1, end, kw + " is not allowed"),
                                       ("denied-instruction", 0, 1, 1, end, reason)])
    if e:
        msgs[kw] = e[0].get("message")
        check("denied %s: hint" % kw, bool(e[0].get("hint")), e[0])
check("per-instruction messages", len({msgs.get("FROM"), msgs.get("COPY"), msgs.get("CMD")}) == 3
      and msgs.get("CMD") != msgs.get("ADD"), msgs)
expect("ONBUILD COPY", ["ONBUILD COPY . /x"],
       [("denied-instruction", 0, 1, 9, 13, "ONBUILD COPY is not allowed")])

# What the documentation shows as allowed.
expect_clean("allowed set", [
    "RUN pip install --no-cache-dir pydantic-ai", "ENV A=b", "WORKDIR /app", "USER root",
    "ARG X=1", "LABEL a=b", "EXPOSE 8080", 'SHELL ["/bin/bash", "-c"]',
    "RUN apt-get update && \\\n    # a comment\n    apt-get install -y curl"])
expect_clean("heredoc file", ["RUN <<EOF > /etc/app.conf\nkey=value\nFROM is just text here\nEOF"])
expect_clean("CRLF continuation", ["RUN echo a \\\r\n    b"])
expect_clean("trailing LF", ["RUN true\n"])

# Heredocs and smuggling.
expect("unterminated heredoc", ["RUN <<EOF\nkey=value", "FROM evil"],
       [("unterminated-heredoc", 0, 1, 5, 7, '"EOF"'),
        ("denied-instruction", 1, 1, 1, 5, "FROM is not allowed")])
expect("newline smuggling", ["RUN true\nFROM evil"],
       [("multiple-instructions", 0, 2, 1, 10, "(FROM)")])
expect("continuation smuggling", ["RUN echo \\", "FROM evil"],
       [("dangling-continuation", 0, 1, 10, 11, "continuation"),
        ("denied-instruction", 1, 1, 1, 5, "FROM is not allowed")])

# Limits: 64 commands, 4096 bytes, NUL, bare CR.
expect_clean("64 commands", ["RUN true"] * 64)
expect("65 commands", ["RUN true"] * 65,
       [("too-many-commands", 64, 1, 1, 1, "65 commands, more than the limit of 64")])
expect_clean("4096 bytes", ["RUN echo " + "a" * (4096 - 9)])
expect("4097 bytes", ["RUN echo " + "a" * (4097 - 9)],
       [("command-too-long", 0, 1, 4097, 4098, "4097 bytes, more than the limit of 4096")])
expect("NUL", ["RUN echo a\u0000b"], [("nul-byte", 0, 1, 11, 12, "NUL byte")])
expect("bare CR", ["RUN echo a\rFROM x"], [("bare-cr", 0, 1, 11, 12, "carriage return")])

# Every problem at once: each command's error, none lost after the first.
e = expect("every problem at once", ["pip install x", "COPY a b", "RUN ok", "CMD x"],
           [("unknown-instruction", 0, 1, 1, 4, "pip"),
            ("denied-instruction", 1, 1, 1, 5, "COPY"),
            ("denied-instruction", 3, 1, 1, 4, "CMD")])
check("every problem at once: nothing on RUN ok", all(d.get("command") != 2 for d in e), e)

results.print_fails()
print(f"seed behaviours: {results.passed} passed, {len(fails)} failed")
results.exit()

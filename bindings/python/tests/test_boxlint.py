"""Tests of the Python bindings against the library built in the same tree ($BOXLINT_LIBRARY)."""
import ctypes
import gc
import json
import os
import subprocess
import threading
import unittest

import boxlint
from boxlint import _ffi

GOOD = dict(name="my-py-extra", commands=["RUN pip install --no-cache-dir pydantic-ai"],
            cpu_count=2, memory_mb=4096)


def rules_of(result):
    return [d.rule for d in result.diagnostics]


class CleanTemplate(unittest.TestCase):
    def test_seed_quick_start_is_clean(self):
        r = boxlint.check_template(**GOOD)
        self.assertEqual(r.diagnostics, ())
        self.assertTrue(r.ok)
        self.assertEqual([(i.index, i.keyword, i.line) for i in r.instructions],
                         [(0, "RUN", 1)])

    def test_validate_returns_the_result(self):
        self.assertTrue(boxlint.validate_template(**GOOD).ok)

    def test_update_example_and_check_commands(self):
        r = boxlint.check_commands(["RUN pip install --no-cache-dir pydantic-ai",
                                    "RUN pip install --no-cache-dir httpx"])
        self.assertEqual(r.diagnostics, ())

    def test_version_from_the_c_library(self):
        self.assertEqual(boxlint.__version__, _ffi.lib.boxlint_version().decode())
        self.assertRegex(boxlint.__version__, r"^\d+\.\d+\.\d+$")


class SeedExamples(unittest.TestCase):
    def test_command_without_run(self):
        r = boxlint.check_commands(["pip install pydantic-ai"])
        (d,) = r.diagnostics
        self.assertEqual((d.rule, d.severity, d.command, d.line, d.column, d.end_column),
                         ("unknown-instruction", "error", 0, 1, 1, 4))
        self.assertIn("did you forget RUN?", d.hint)
        self.assertIsInstance(d.fix, boxlint.Fix)
        self.assertEqual(d.fix.apply("pip install pydantic-ai"), "RUN pip install pydantic-ai")

    def test_misspelt_keyword_suggests_it(self):
        (d,) = boxlint.check_commands(["WORKDRI /app"]).diagnostics
        self.assertEqual(d.rule, "unknown-instruction")
        self.assertIn("did you mean WORKDIR?", d.hint)
        self.assertEqual(d.fix.apply("WORKDRI /app"), "WORKDIR /app")

    def test_each_denied_instruction_has_its_message(self):
        cases = {
            "FROM python:3.12": "base image",
            "COPY app.py /app/": "build context",
            "ADD https://example.com/x.tgz /opt/": "build context",
            "CMD [\"python\"]": "PID 1",
            "ENTRYPOINT [\"python\"]": "PID 1",
        }
        messages = set()
        for cmd, needle in cases.items():
            with self.subTest(cmd=cmd):
                (d,) = boxlint.check_commands([cmd]).diagnostics
                self.assertEqual(d.rule, "denied-instruction")
                self.assertEqual(d.severity, "error")
                self.assertIn(cmd.split()[0], d.message)
                self.assertIn(needle, d.message + " " + (d.hint or ""))
                messages.add(d.message)
        self.assertEqual(len(messages), 5, "each instruction has its own message")

    def test_validation_error_lists_every_error(self):
        with self.assertRaises(boxlint.ValidationError) as cm:
            boxlint.validate_template(name="my-py-extra", commands=["FROM x", "pip install y"],
                                      cpu_count=2, memory_mb=4096)
        errs = cm.exception.errors
        self.assertEqual([e.rule for e in errs], ["denied-instruction", "unknown-instruction"])
        self.assertTrue(all(isinstance(e, boxlint.Diagnostic) for e in errs))
        self.assertIn("2 errors", str(cm.exception))
        self.assertIn("[denied-instruction]", str(cm.exception))

    def test_65_commands(self):
        r = boxlint.check_commands(["RUN true"] * 64)
        self.assertEqual(r.diagnostics, ())
        r = boxlint.check_commands(["RUN true"] * 65)
        self.assertEqual(rules_of(r), ["too-many-commands"])

    def test_4097_byte_command(self):
        ok = "RUN echo " + "x" * (4096 - 9)
        self.assertEqual(len(ok.encode()), 4096)
        self.assertEqual(boxlint.check_commands([ok]).diagnostics, ())
        r = boxlint.check_commands([ok + "x"])
        self.assertEqual(rules_of(r), ["command-too-long"])
        self.assertEqual(r.diagnostics[0].command, 0)

    def test_nul_byte(self):
        (d,) = boxlint.check_commands(["RUN echo a\x00b"]).diagnostics
        self.assertEqual((d.rule, d.column, d.offset), ("nul-byte", 11, 10))

    def test_bare_cr(self):
        (d,) = boxlint.check_commands(["RUN echo a\rb"]).diagnostics
        self.assertEqual(d.rule, "bare-cr")
        self.assertEqual(boxlint.check_commands(["RUN echo a\r\n"]).diagnostics, ())

    def test_columns_count_code_points_offsets_bytes(self):
        (d,) = boxlint.check_commands(["RUN echo é\x00"]).diagnostics
        self.assertEqual((d.rule, d.column, d.offset), ("nul-byte", 11, 11))

    def test_bytes_commands_reach_the_library_unchanged(self):
        self.assertEqual(rules_of(boxlint.check_commands([b"RUN echo \xff"])), ["invalid-utf8"])

    def test_limits_are_options(self):
        r = boxlint.check_commands(["RUN true"] * 3, options=boxlint.Options(max_commands=2))
        self.assertEqual(rules_of(r), ["too-many-commands"])

    def test_template_fields(self):
        r = boxlint.check_template(name="My Template", commands=["RUN true"], cpu_count=2.5,
                                   memory_mb=64, cpu_cont=1)
        by_rule = {(d.rule, d.path) for d in r.diagnostics}
        self.assertIn(("invalid-name", "name"), by_rule)
        self.assertIn(("invalid-resources", "cpu_count"), by_rule)
        self.assertIn(("invalid-resources", "memory_mb"), by_rule)
        self.assertIn(("unknown-field", "cpu_cont"), by_rule)
        cpu = next(d for d in r.diagnostics if d.path == "cpu_count")
        self.assertIn("2.5", cpu.message)
        self.assertIsNone(cpu.command)
        self.assertEqual(rules_of(boxlint.check_template(name="x", commands=[])),
                         ["missing-field", "missing-field"])

    def test_template_from_a_json_object(self):
        obj = json.loads('{"name": "t", "commands": ["RUN true"], "cpu_count": 2,'
                         ' "memory_mb": 4096, "network_policy": {"type": "disabled"}}')
        self.assertEqual(boxlint.check_template(**obj).diagnostics, ())

    def test_fragment(self):
        r = boxlint.check_fragment("RUN true\n\nFROM x\n")
        (d,) = r.diagnostics
        self.assertEqual((d.rule, d.command, d.line), ("denied-instruction", 1, 3))


class Policies(unittest.TestCase):
    SEED = {"type": "filtered", "allow_out": ["pypi.org", "*.pythonhosted.org"], "deny_out": []}

    def test_seed_example_alone_allows_everything(self):
        with boxlint.NetworkPolicy(**self.SEED) as p:
            self.assertIn("allow-without-effect", [d.rule for d in p.diagnostics])
            d = next(d for d in p.diagnostics if d.rule == "allow-without-effect")
            self.assertIn("ALL_TRAFFIC", d.hint)
            self.assertEqual(d.fix.text, "ALL_TRAFFIC")
            self.assertEqual((d.fix.unsafe, d.fix.applicability), (True, "unsafe"))
            self.assertEqual(p.decide(host="github.com").verdict, "allow")

    def test_seed_example_with_all_traffic_denied(self):
        p = boxlint.NetworkPolicy(type="filtered", allow_out=["pypi.org", "*.pythonhosted.org"],
                                  deny_out=["ALL_TRAFFIC"])
        try:
            self.assertEqual(p.diagnostics, ())
            self.assertEqual(p.deny_out, ("0.0.0.0/0",))
            ok = p.decide(host="pypi.org")
            self.assertEqual((ok.verdict, ok.reason, ok.list, ok.index, ok.entry),
                             ("allow", "rule", "allow_out", 0, "pypi.org"))
            self.assertTrue(ok.allowed and ok.by_name)
            files = p.decide(host="files.pythonhosted.org")
            self.assertEqual((files.verdict, files.index, files.entry),
                             ("allow", 1, "*.pythonhosted.org"))
            no = p.decide(host="github.com")
            self.assertEqual((no.verdict, no.reason, no.list, no.index, no.entry),
                             ("deny", "rule", "deny_out", 0, "0.0.0.0/0"))
            self.assertEqual(p.decide(ip="140.82.112.3").verdict, "deny")
        finally:
            p.close()

    def test_template_with_a_policy(self):
        r = boxlint.check_template(**GOOD, network_policy=self.SEED)
        d = next(d for d in r.diagnostics if d.rule == "allow-without-effect")
        self.assertEqual(d.severity, "warning")
        self.assertTrue(d.path.startswith("network_policy."))
        self.assertTrue(r.ok)
        with boxlint.NetworkPolicy.from_dict(self.SEED) as p:
            r2 = boxlint.check_template(**GOOD, network_policy=p)
        self.assertEqual(r.diagnostics, r2.diagnostics)

    def test_invalid_policy_raises_with_detail(self):
        with self.assertRaises(boxlint.PolicyError) as cm:
            boxlint.NetworkPolicy(type="filtered", allow_out=["https://pypi.org/simple"],
                                  deny_out=["10.0.0.1/8"])
        errs = cm.exception.errors
        self.assertEqual([(e.rule, e.path, e.detail) for e in errs],
                         [("invalid-policy-entry", "network_policy.allow_out[0]", "url"),
                          ("invalid-policy-entry", "network_policy.deny_out[0]", "host-bits")])
        self.assertIsInstance(cm.exception, boxlint.ValidationError)
        with self.assertRaises(boxlint.PolicyError):
            boxlint.NetworkPolicy(type="open", allow_out=["pypi.org"])
        with self.assertRaises(boxlint.PolicyError) as cm:
            boxlint.NetworkPolicy(type="filterd")
        self.assertEqual(cm.exception.errors[0].rule, "invalid-policy-type")

    def test_invalid_policy_in_a_template_is_reported(self):
        r = boxlint.check_template(**GOOD, network_policy={"type": "filtered",
                                                           "allow_out": ["pypi.org:443"]})
        (d,) = r.errors
        self.assertEqual((d.rule, d.detail, d.path),
                         ("invalid-policy-entry", "port", "network_policy.allow_out[0]"))
        self.assertRaises(boxlint.ValidationError, boxlint.validate_template, **GOOD,
                          network_policy={"type": "filtered", "allow_out": ["pypi.org:443"]})

    def test_unmatched_deny_and_compat(self):
        with boxlint.NetworkPolicy("filtered", ["pypi.org"], unmatched="deny") as p:
            d = p.decide(host="github.com")
            self.assertEqual((d.verdict, d.reason, d.entry), ("deny", "default", None))
        with self.assertRaises(boxlint.PolicyError) as cm:
            boxlint.NetworkPolicy("filtered", ["pypi.org"], compat="e2b")
        self.assertIn("domains-require-deny-all", [e.rule for e in cm.exception.errors])

    def test_needs_ip_and_invalid_destination(self):
        with boxlint.NetworkPolicy("filtered", ["pypi.org"], ["10.0.0.0/8"]) as p:
            self.assertEqual(p.decide(host="example.com").reason, "needs-ip")
            self.assertEqual(p.decide(host="example.com").verdict, "unknown")
            self.assertEqual(p.decide(host="example.com", ip="10.1.2.3").verdict, "deny")
            bad = p.decide(ip="010.1.2.3")
            self.assertEqual((bad.verdict, bad.reason), ("deny", "invalid-destination"))

    def test_disabled_and_open(self):
        with boxlint.NetworkPolicy() as p:
            self.assertEqual(p.type, "disabled")
            self.assertEqual(p.decide(host="pypi.org").reason, "policy-disabled")
        with boxlint.NetworkPolicy("open") as p:
            self.assertEqual(p.decide(ip="1.1.1.1").reason, "policy-open")

    def test_sdk_model_objects_are_accepted(self):
        class SdkPolicy:  # budai.NetworkPolicy's attributes
            type = "filtered"
            allow_out = ["pypi.org"]
            deny_out = ["ALL_TRAFFIC"]
        with boxlint.NetworkPolicy.from_dict(SdkPolicy()) as p:
            self.assertEqual(p.decide(host="pypi.org").verdict, "allow")
        self.assertTrue(boxlint.check_template(**GOOD, network_policy=SdkPolicy()).ok)

    def test_shared_between_threads(self):
        p = boxlint.NetworkPolicy("filtered", ["pypi.org", "*.pythonhosted.org"], ["ALL_TRAFFIC"])
        failures = []

        def work():
            for _ in range(500):
                if p.decide(host="files.pythonhosted.org").verdict != "allow" or \
                        p.decide(host="github.com").verdict != "deny":
                    failures.append(1)
        threads = [threading.Thread(target=work) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        p.close()
        self.assertEqual(failures, [])


PY_SOURCE = """from budai import Client, NetworkPolicy

client = Client()
client.code_interpreter.templates.create(
    name="my-py-extra",
    commands=["pip install x"],
    cpu_count=2,
    memory_mb=4096,
)
client.agents.add_code_interpreter(
    "prm_abc",
    template_id="my-py-extra",
    network_policy=NetworkPolicy(type="filtered", allow_out=["pypi.org"], deny_out=[]),
)
"""
PY_SAFE_FIXED = PY_SOURCE.replace('["pip install x"]', '["RUN pip install x"]')
PY_FIXED = PY_SAFE_FIXED.replace("deny_out=[])", 'deny_out=["ALL_TRAFFIC"])')


def line_col(text, needle):
    """1-based line and column (code points) of the first `needle`, and its byte offset."""
    i = text.index(needle)
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, col, len(text[:i].encode())


class PythonSource(unittest.TestCase):
    def test_findings_are_in_the_file_with_file_fixes(self):
        r = boxlint.check_python(PY_SOURCE)
        self.assertTrue(r.file_relative)
        self.assertEqual(rules_of(r), ["unknown-instruction", "allow-without-effect"])
        cmd, pol = r.diagnostics
        self.assertEqual((cmd.severity, cmd.command, cmd.path), ("error", 0, "commands[0]"))
        self.assertEqual((cmd.line, cmd.column, cmd.offset), line_col(PY_SOURCE, "pip install"))
        self.assertEqual((cmd.line, cmd.column), (6, 16))
        self.assertEqual((cmd.fix.offset, cmd.fix.length, cmd.fix.text),
                         (cmd.offset, 0, "RUN "))
        self.assertEqual((cmd.fix.unsafe, cmd.fix.applicability), (False, "safe"))
        self.assertEqual((pol.severity, pol.command, pol.path),
                         ("warning", None, "network_policy.allow_out[0]"))
        self.assertEqual((pol.line, pol.column, pol.offset), line_col(PY_SOURCE, '"pypi.org"'))
        self.assertEqual(pol.fix.text, '"ALL_TRAFFIC"')
        self.assertEqual(pol.fix.offset, PY_SOURCE.index("deny_out=[]") + len("deny_out=["))
        # the flag survives into the file's fix: ALL_TRAFFIC changes egress, an unsafe fix
        self.assertEqual((pol.fix.unsafe, pol.fix.applicability), (True, "unsafe"))
        self.assertEqual(pol.message, "allow_out[0]: 'pypi.org' has no effect: no deny_out entry "
                         "overlaps it, and destinations matched by neither list are allowed")
        self.assertFalse(r.ok)

    def test_apply_fixes_gives_the_exact_text_and_a_second_check_is_clean(self):
        r = boxlint.check_python(PY_SOURCE)
        # safe fixes only, unless asked: the unsafe one is shown, not applied
        self.assertEqual(boxlint.apply_fixes(PY_SOURCE, r.diagnostics), (PY_SAFE_FIXED, (True, False)))
        self.assertEqual(r.fixed(PY_SOURCE), PY_SAFE_FIXED)
        # the fixed command is a command now, and the default config's warnings run on it
        self.assertEqual([d.rule for d in boxlint.check_python(PY_SAFE_FIXED).diagnostics],
                         ["pip-no-cache-dir", "allow-without-effect"])
        fixed = boxlint.apply_fixes(PY_SOURCE, r.diagnostics, unsafe_fixes=True)
        self.assertEqual(fixed, (PY_FIXED, (True, True)))
        self.assertEqual(r.fixed(PY_SOURCE, unsafe_fixes=True), PY_FIXED)
        self.assertEqual(r.fixed(PY_SOURCE.encode(), unsafe_fixes=True), PY_FIXED.encode())
        self.assertEqual(rules_of(boxlint.check_python(PY_FIXED)), ["pip-no-cache-dir"])
        # Fix.apply applies the one fix it is called on, whatever its safety
        unsafe = boxlint.Fix(0, 0, "x", None, unsafe=True)
        self.assertEqual(unsafe.apply("ab"), "xab")
        self.assertEqual(boxlint.apply_fixes("ab", [unsafe]), ("ab", (False,)))

    def test_columns_are_code_points_offsets_are_bytes(self):
        src = ('from budai import Client\nclient = Client()\n'
               'client.code_interpreter.templates.create(name="t", commands=["RUN echo \u00e9", '
               '"pip install x"], cpu_count=2, memory_mb=4096)\n')
        (d,) = boxlint.check_python(src).diagnostics
        self.assertEqual(d.rule, "unknown-instruction")
        self.assertEqual((d.command, d.line), (1, 3))
        self.assertEqual((d.line, d.column, d.offset), line_col(src, "pip install"))
        self.assertEqual(d.offset - src.index("pip install"), 1)  # the 2 bytes of U+00E9
        want = src.replace('"pip install x"', '"RUN pip install x"')
        self.assertEqual(boxlint.check_python(src).fixed(src), want)
        self.assertEqual(boxlint.check_python(src.encode()).fixed(src.encode()), want.encode())

    def test_syntax_error_is_one_diagnostic_in_the_result(self):
        r = boxlint.check_python("x = (\n")
        (d,) = r.diagnostics
        self.assertEqual((d.rule, d.severity, d.line, d.column), ("python-syntax", "error", 1, 5))
        self.assertIn("never closed", d.message)
        self.assertFalse(r.ok)
        self.assertRaises(boxlint.ValidationError, r.raise_for_errors)

    def test_policy_options_and_config(self):
        src = ('from budai import NetworkPolicy\n'
               'p = NetworkPolicy(type="filtered", allow_out=["pypi.org"], '
               'deny_out=["ALL_TRAFFIC"])\n')
        self.assertEqual(boxlint.check_python(src).diagnostics, ())
        self.assertIn("domains-require-deny-all",
                      rules_of(boxlint.check_python(src.replace(', deny_out=["ALL_TRAFFIC"]', ""),
                                                    compat="e2b")))
        with boxlint.Config({"allow-without-effect": "off"}) as cfg:
            self.assertNotIn("allow-without-effect",
                             rules_of(boxlint.check_python(PY_SOURCE, config=cfg)))
        self.assertRaises(ValueError, boxlint.check_python, src, compat="aws")
        self.assertRaises(TypeError, boxlint.check_python, 3)

    def test_checks_and_fixes_run_in_threads(self):
        failures = []

        def work():
            for _ in range(100):
                r = boxlint.check_python(PY_SOURCE)
                if r.fixed(PY_SOURCE, unsafe_fixes=True) != PY_FIXED or \
                        rules_of(boxlint.check_python(PY_FIXED)) != ["pip-no-cache-dir"]:
                    failures.append(1)
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(failures, [])

    def test_not_static_and_suppression(self):
        src = ("import os\nfrom budai import Client\nclient = Client()\n"
               "client.code_interpreter.templates.create(name=os.environ['N'], "
               "commands=['RUN pip install --no-cache-dir x'], cpu_count=2, memory_mb=4096)\n")
        r = boxlint.check_python(src)
        self.assertEqual([(d.rule, d.severity, d.path, d.line) for d in r.diagnostics],
                         [("not-static", "info", "name", 4)])
        # not-static cannot be silenced inline: the comment is the unused one
        r = boxlint.check_python(src.replace("4096)\n", "4096)  # boxlint: ignore=not-static\n"))
        self.assertEqual([(d.rule, d.line) for d in r.diagnostics],
                         [("not-static", 4), ("unused-suppression", 4)])
        r = boxlint.check_python(src.replace("4096)\n", "4096)  # boxlint: ignore=bare-cr\n"))
        self.assertEqual([(d.rule, d.line) for d in r.diagnostics],
                         [("not-static", 4), ("unused-suppression", 4)])


class Bindings(unittest.TestCase):
    def test_a_good_binding_is_clean(self):
        self.assertEqual(boxlint.check_binding(template_id="python-4g").diagnostics, ())
        r = boxlint.check_binding(template_id="my-py-extra", version=2, lifespan_seconds=1200,
                                  network_policy={"type": "filtered", "allow_out": ["pypi.org"],
                                                  "deny_out": ["ALL_TRAFFIC"]})
        self.assertEqual(r.diagnostics, ())
        self.assertTrue(r.ok)

    def test_each_field_fails(self):
        r = boxlint.check_binding(version=0, lifespan_seconds=-5, agent_name="x")
        self.assertEqual([(d.rule, d.severity, d.path, d.command) for d in r.diagnostics],
                         [("missing-field", "error", "template_id", None),
                          ("invalid-version", "error", "version", None),
                          ("invalid-lifespan", "error", "lifespan_seconds", None),
                          ("unknown-field", "warning", "agent_name", None)])
        self.assertEqual(r.diagnostics[1].message,
                         "version is 0: agent versions are numbered from 1")
        self.assertRaises(boxlint.ValidationError, r.raise_for_errors)

    def test_values_of_the_wrong_type_are_findings_spelt_by_repr(self):
        r = boxlint.check_binding(template_id=42, version="1", lifespan_seconds=2.5)
        self.assertEqual([(d.rule, d.message) for d in r.diagnostics], [
            ("invalid-template-id", "template_id must be a string, not 42"),
            ("invalid-version", "version must be an integer, not '1'"),
            ("invalid-lifespan", "lifespan_seconds must be an integer, not 2.5")])
        (d,) = boxlint.check_binding(template_id="t", version=True).diagnostics
        self.assertEqual(d.message, "version must be an integer, not True")
        (d,) = boxlint.check_binding(template_id="t", version=10 ** 30).diagnostics
        self.assertEqual(d.message, f"version must be an integer, not {10 ** 30}")

    def test_invalid_template_id_and_unusual_lifespan(self):
        r = boxlint.check_binding(template_id="My Template", lifespan_seconds=30)
        self.assertEqual([(d.rule, d.severity) for d in r.diagnostics],
                         [("invalid-template-id", "error"), ("unusual-lifespan", "warning")])
        with boxlint.Config({"unusual-lifespan": "off"}) as cfg:
            r = boxlint.check_binding(template_id="t", lifespan_seconds=30, config=cfg)
            self.assertEqual(r.diagnostics, ())

    def test_network_policy_of_a_binding(self):
        r = boxlint.check_binding(template_id="t", network_policy=Policies.SEED)
        self.assertEqual([(d.rule, d.path) for d in r.diagnostics],
                         [("allow-without-effect", "network_policy.allow_out[0]"),
                          ("allow-without-effect", "network_policy.allow_out[1]")])
        with boxlint.NetworkPolicy.from_dict(Policies.SEED) as p:
            self.assertEqual(boxlint.check_binding(template_id="t", network_policy=p).diagnostics,
                             r.diagnostics)

    def test_from_a_json_object(self):
        obj = json.loads('{"template_id": "python-4g", "version": 1, "lifespan_seconds": 600}')
        self.assertEqual(boxlint.check_binding(**obj).diagnostics, ())


class ApplyFixes(unittest.TestCase):
    F = boxlint.Fix

    def test_overlapping_fixes_one_is_applied(self):
        fixes = [self.F(4, 4, "cat", None), self.F(6, 4, "XX", None), self.F(0, 0, ">", None)]
        self.assertEqual(boxlint.apply_fixes("RUN echo hi", fixes),
                         (">RUN cat hi", (True, False, True)))
        # the same fixes in another order: the earlier offset wins, not the list order
        self.assertEqual(boxlint.apply_fixes("RUN echo hi", fixes[::-1]).applied,
                         (True, False, True))
        # two insertions at one point: only the first given
        two = [self.F(3, 0, "a", None), self.F(3, 0, "b", None)]
        self.assertEqual(boxlint.apply_fixes("RUN", two), ("RUNa", (True, False)))

    def test_touching_fixes_are_both_applied(self):
        fixes = [self.F(0, 2, "A", None), self.F(2, 2, "B", None), self.F(4, 0, "!", None)]
        self.assertEqual(boxlint.apply_fixes("aabb", fixes), ("AB!", (True, True, True)))

    def test_out_of_range_fixes_are_not_applied(self):
        fixes = [self.F(3, 1, "x", None), self.F(2, 2, "x", None), self.F(-1, 0, "x", None),
                 self.F(0, 2 ** 70, "x", None), self.F(1, 1, "B", None)]
        self.assertEqual(boxlint.apply_fixes("abc", fixes),
                         ("aBc", (False, False, False, False, True)))
        self.assertEqual(boxlint.apply_fixes("abc", [self.F(3, 0, "d", None)]), ("abcd", (True,)))

    def test_offsets_are_utf8_bytes(self):
        text = "echo \u00e9t\u00e9 \U0001F600!"
        b = text.encode()
        # replace the second é (bytes 8-9) and the emoji (4 bytes)
        fixes = [self.F(8, 2, "e", None), self.F(b.index("\U0001F600".encode()), 4, ":)", None)]
        self.assertEqual(boxlint.apply_fixes(text, fixes), ("echo \u00e9te :)!", (True, True)))
        self.assertEqual(boxlint.apply_fixes(b, fixes), ("echo \u00e9te :)!".encode(),
                                                         (True, True)))
        self.assertEqual(self.F(5, 2, "E", None).apply(text), "echo Et\u00e9 \U0001F600!")

    def test_empty_list_and_empty_text(self):
        self.assertEqual(boxlint.apply_fixes("abc", []), ("abc", ()))
        self.assertEqual(boxlint.apply_fixes(b"", []), (b"", ()))
        self.assertEqual(boxlint.apply_fixes("", iter([self.F(0, 0, "x", None)])),
                         ("x", (True,)))

    def test_diagnostics_without_a_fix_are_skipped(self):
        r = boxlint.check_fragment("FROM x\npip install y\n")
        self.assertEqual(rules_of(r), ["denied-instruction", "unknown-instruction"])
        self.assertEqual(boxlint.apply_fixes("FROM x\npip install y\n", r.diagnostics),
                         ("FROM x\nRUN pip install y\n", (False, True)))
        self.assertEqual(r.fixed("FROM x\npip install y\n"), "FROM x\nRUN pip install y\n")

    def test_command_results_are_not_file_relative(self):
        r = boxlint.check_commands(["pip install x"])
        self.assertFalse(r.file_relative)
        self.assertRaisesRegex(ValueError, "check_python or check_fragment", r.fixed,
                               "pip install x")
        self.assertEqual(r.diagnostics[0].fix.apply("pip install x"), "RUN pip install x")

    def test_bad_arguments(self):
        self.assertRaises(TypeError, boxlint.apply_fixes, 3, [])
        self.assertRaisesRegex(TypeError, "fixes must be an iterable",
                               boxlint.apply_fixes, "x", self.F(0, 0, "y", None))
        self.assertRaisesRegex(TypeError, r"fixes\[0\] must be", boxlint.apply_fixes, "x",
                               [(0, 0, "y")])
        self.assertRaisesRegex(TypeError, r"fixes\[0\].offset", boxlint.apply_fixes, "x",
                               [self.F("0", 0, "y", None)])


class Configs(unittest.TestCase):
    def test_user_rule_and_severity(self):
        cfg = boxlint.Config(
            severities={"unknown-field": "off"},
            user_rules=[boxlint.UserRule(id="no-latest", pattern=r":latest\b",
                                         message="pin a version", instruction="RUN",
                                         severity="error")])
        with cfg:
            r = boxlint.check_template(**GOOD, extra=1, config=cfg)
            self.assertEqual(r.diagnostics, ())
            r = boxlint.check_commands(["RUN docker pull x:latest"], config=cfg)
            (d,) = r.diagnostics
            self.assertEqual((d.rule, d.severity, d.message), ("no-latest", "error",
                                                               "pin a version"))
            self.assertEqual(cfg.user_rule_ids, ("no-latest",))
            self.assertEqual(cfg.severity("unknown-field"), "off")

    def test_config_applies_to_policy_warnings(self):
        cfg = boxlint.Config({"allow-without-effect": "info"})
        r = boxlint.check_template(**GOOD, network_policy=Policies.SEED, config=cfg)
        self.assertEqual({d.severity for d in r.diagnostics if d.rule == "allow-without-effect"},
                         {"info"})
        # a compiled NetworkPolicy is checked again under the call's config
        with boxlint.NetworkPolicy(**Policies.SEED) as p:
            self.assertEqual({d.severity for d in p.diagnostics}, {"warning"})
            r = boxlint.check_template(**GOOD, network_policy=p, config=cfg)
            self.assertEqual([(d.rule, d.severity, d.path) for d in r.diagnostics],
                             [("allow-without-effect", "info", "network_policy.allow_out[0]"),
                              ("allow-without-effect", "info", "network_policy.allow_out[1]")])
        with boxlint.Config({"allow-without-effect": "off"}) as off:
            with boxlint.NetworkPolicy(**Policies.SEED, config=off) as p:
                self.assertEqual(p.diagnostics, ())
            r = boxlint.check_binding(template_id="t", network_policy=Policies.SEED, config=off)
            self.assertEqual(r.diagnostics, ())
        # errors stay errors whatever the config
        with self.assertRaises(boxlint.ConfigError):
            boxlint.Config({"invalid-policy-entry": "warning"})
        cfg.close()


# The Quick Start of the README (examples/quickstart.py): its update's command keeps pip's cache.
QUICKSTART = """from budai import Client

client = Client()
tpl = client.code_interpreter.templates.create(
    name="my-py-extra",
    commands=["RUN pip install --no-cache-dir pydantic-ai"],
    cpu_count=2,
    memory_mb=4096,
)
client.code_interpreter.templates.update("my-py-extra", commands=["RUN pip install httpx"])
"""


class Defaults(unittest.TestCase):
    """config=None is the built-in defaults, as the command without a .boxlint.json."""

    def test_check_template_of_the_quick_start_reports_pip_no_cache_dir(self):
        r = boxlint.check_template(name="my-py-extra", commands=["RUN pip install httpx"],
                                   cpu_count=2, memory_mb=4096)
        (d,) = r.diagnostics
        self.assertEqual((d.rule, d.severity, d.command, d.line, d.column, d.end_column),
                         ("pip-no-cache-dir", "warning", 0, 1, 5, 16))
        self.assertIn("pip install keeps its download cache in the image", d.message)
        self.assertEqual(r.diagnostics, boxlint.check_template(
            name="my-py-extra", commands=["RUN pip install httpx"], cpu_count=2, memory_mb=4096,
            config=None).diagnostics)
        self.assertTrue(r.ok)
        with boxlint.Config({"pip-no-cache-dir": "off"}) as off:
            self.assertEqual(boxlint.check_template(
                name="my-py-extra", commands=["RUN pip install httpx"], cpu_count=2,
                memory_mb=4096, config=off).diagnostics, ())
        with boxlint.Config({"pip-no-cache-dir": "error"}) as err:
            r = boxlint.check_commands(["RUN pip install httpx"], config=err)
            self.assertEqual([(d.rule, d.severity) for d in r.diagnostics],
                             [("pip-no-cache-dir", "error")])
        # the same answer for a fragment and a Python file
        self.assertEqual(rules_of(boxlint.check_fragment("RUN pip install httpx\n")),
                         ["pip-no-cache-dir"])

    def test_the_same_findings_as_the_command(self):
        r = boxlint.check_python(QUICKSTART)
        got = [(d.rule, d.severity, d.line, d.column) for d in r.diagnostics]
        self.assertEqual(got, [("pip-no-cache-dir", "warning", 10, 72)])
        cli = os.environ.get("BOXLINT_CLI")
        if not cli:
            self.skipTest("BOXLINT_CLI not set (run through ctest)")
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "quickstart.py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(QUICKSTART)
            with open(os.path.join(d, ".boxlint.json"), "w", encoding="utf-8") as f:
                f.write("{}")  # the defaults, and no config of a parent directory
            out = subprocess.run([cli, "--format", "json", path], capture_output=True,
                                 text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        (doc,) = json.loads(out.stdout)["files"]
        self.assertEqual([(x["rule"], x["severity"], x["line"], x["column"])
                          for x in doc["diagnostics"]], got)

    def test_a_config_gives_the_same_severities_as_the_command(self):
        # the library applies it, policy warnings and suppression reports included
        src = QUICKSTART + (
            'client.agents.add_code_interpreter("prm_abc", template_id="my-py-extra",\n'
            '    network_policy={"type": "filtered", "allow_out": ["pypi.org", "pypi.org"]})\n'
            "x = 1  # boxlint: ignroe=sudo-usage\n")
        rules = {"pip-no-cache-dir": "error", "allow-without-effect": "off",
                 "duplicate-entry": "info"}
        with boxlint.Config(rules) as cfg:
            got = [(d.rule, d.severity, d.line, d.column)
                   for d in boxlint.check_python(src, config=cfg).diagnostics]
        self.assertEqual(got, [("pip-no-cache-dir", "error", 10, 72),
                               ("duplicate-entry", "info", 12, 67),
                               ("unused-suppression", "warning", 13, 19)])
        cli = os.environ.get("BOXLINT_CLI")
        if not cli:
            self.skipTest("BOXLINT_CLI not set (run through ctest)")
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "app.py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(src)
            with open(os.path.join(d, ".boxlint.json"), "w", encoding="utf-8") as f:
                json.dump({"rules": rules}, f)
            out = subprocess.run([cli, "--format", "json", path], capture_output=True,
                                 text=True)
            with boxlint.Config.load(os.path.join(d, ".boxlint.json")) as loaded:
                again = [(x.rule, x.severity, x.line, x.column)
                         for x in boxlint.check_python(src, config=loaded).diagnostics]
        self.assertEqual(out.returncode, 1, out.stderr)
        (doc,) = json.loads(out.stdout)["files"]
        self.assertEqual([(x["rule"], x["severity"], x["line"], x["column"])
                          for x in doc["diagnostics"]], got)
        self.assertEqual(again, got)

    def test_boxlint_policy_uses_the_config_found_for_its_file(self):
        policy = {"type": "filtered", "allow_out": ["pypi.org", "pypi.org"]}
        rules = {"allow-without-effect": "off", "duplicate-entry": "error"}
        with boxlint.Config(rules) as cfg, boxlint.NetworkPolicy(**policy, config=cfg) as p:
            got = [(d.rule, d.severity, d.path) for d in p.diagnostics]
        self.assertEqual(got, [("duplicate-entry", "error", "network_policy.allow_out[1]")])
        cli = os.environ.get("BOXLINT_CLI")
        if not cli:
            self.skipTest("BOXLINT_CLI not set (run through ctest)")
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "policy.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(policy, f)
            with open(os.path.join(d, ".boxlint.json"), "w", encoding="utf-8") as f:
                json.dump({"rules": rules}, f)
            out = subprocess.run([cli, "policy", "--format", "json", path], capture_output=True,
                                 text=True)
        self.assertEqual(out.returncode, 1, out.stderr)  # the raised warning fails the run
        doc = json.loads(out.stdout)
        self.assertEqual([(x["rule"], x["severity"], x["path"]) for x in doc["diagnostics"]], got)
        self.assertEqual(doc["normalized"]["allow_out"], ["pypi.org", "pypi.org"])  # compiled

    def test_from_dict_like_the_cli_file(self):
        with boxlint.Config.from_dict({"rules": {"unknown-field": "error"},
                                       "user_rules": [{"id": "x", "pattern": "y"}]}) as c:
            self.assertEqual(c.severity("unknown-field"), "error")

    def test_refusals(self):
        with self.assertRaises(boxlint.ConfigError):
            boxlint.Config({"denied-instruction": "off"})  # errors cannot be switched off
        with self.assertRaises(boxlint.ConfigError):
            boxlint.Config({"no-such-rule": "warning"})
        with self.assertRaises(boxlint.ConfigError) as cm:
            boxlint.Config(user_rules=[{"id": "bad", "pattern": "a(b"}])
        self.assertEqual(cm.exception.status, "BOXLINT_EREGEX")
        with self.assertRaises(ValueError):
            boxlint.Config({"unknown-field": "loud"})


class ErrorHandling(unittest.TestCase):
    def test_closed_policy_raises(self):
        p = boxlint.NetworkPolicy("filtered", ["pypi.org"], ["ALL_TRAFFIC"])
        p.close()
        p.close()  # idempotent
        self.assertTrue(p.closed)
        with self.assertRaises(boxlint.ClosedError):
            p.decide(host="pypi.org")
        with self.assertRaises(boxlint.ClosedError):
            boxlint.check_template(**GOOD, network_policy=p)
        with self.assertRaises(boxlint.ClosedError):
            with p:
                pass

    def test_closed_config_raises(self):
        c = boxlint.Config()
        c.close()
        with self.assertRaisesRegex(boxlint.ClosedError, "Config is closed"):
            boxlint.check_commands(["RUN true"], config=c)

    def test_with_block_frees(self):
        with boxlint.NetworkPolicy("open") as p:
            pass
        self.assertTrue(p.closed)

    def test_close_while_in_use_defers_the_free(self):
        p = boxlint.NetworkPolicy("filtered", ["pypi.org"], ["ALL_TRAFFIC"])
        with p._use():
            p.close()
            self.assertIsNotNone(p._ptr)  # still held by the call in flight
        self.assertIsNone(p._ptr)

    def test_garbage_collector_fallback(self):
        p = boxlint.NetworkPolicy("open")
        del p
        gc.collect()

    def test_bad_types(self):
        cases = [
            (lambda: boxlint.check_commands("RUN true"), "commands must be a list of str"),
            (lambda: boxlint.check_commands(["RUN true", 3]), r"commands\[1\] must be a str"),
            (lambda: boxlint.check_template(**{**GOOD, "cpu_count": "2"}), "cpu_count must be"),
            (lambda: boxlint.check_template(**{**GOOD, "memory_mb": True}), "memory_mb must be"),
            (lambda: boxlint.check_template(**{**GOOD, "name": 7}), "name must be a str"),
            (lambda: boxlint.check_template(**GOOD, network_policy=["pypi.org"]),
             "network_policy must be"),
            (lambda: boxlint.check_template(**GOOD, network_policy={"alow_out": []}),
             "unknown key 'alow_out'"),
            (lambda: boxlint.NetworkPolicy("filtered", "pypi.org"),
             "allow_out must be a list"),
            (lambda: boxlint.NetworkPolicy(2), "type must be a str"),
            (lambda: boxlint.NetworkPolicy("open").decide(host=1), "host must be a str"),
            (lambda: boxlint.check_commands(["RUN true"], config={}), "config must be"),
            (lambda: boxlint.Config(severities=["x"]), "severities must be a mapping"),
        ]
        for fn, msg in cases:
            with self.subTest(msg=msg):
                self.assertRaisesRegex(TypeError, msg, fn)

    def test_fractional_resources_are_diagnostics_not_exceptions(self):
        r = boxlint.check_template(**{**GOOD, "cpu_count": 2.5, "memory_mb": 10 ** 30})
        self.assertEqual(rules_of(r), ["invalid-resources", "invalid-resources"])

    def test_decide_needs_a_destination(self):
        with boxlint.NetworkPolicy("open") as p:
            self.assertRaises(ValueError, p.decide)

    def test_emit_enforcement_rules(self):
        with boxlint.NetworkPolicy("filtered", ["pypi.org", "*.pythonhosted.org"],
                                   ["ALL_TRAFFIC"]) as p:
            conf = p.emit("dnsmasq", resolvers=["198.51.100.53"]).splitlines()
            self.assertIn("server=198.51.100.53", conf)
            self.assertIn("nftset=/pypi.org/4#inet#boxlint#allow4,6#inet#boxlint#allow6", conf)
            self.assertIn("address=/*.pypi.org/", conf)
            self.assertIn("address=/pythonhosted.org/", conf)
            script = p.emit("nftables", table="sandbox", iifname="veth0", resolvers=["198.51.100.53"])
            self.assertIn("table inet sandbox {", script)
            self.assertIn('iifname != "veth0" accept', script)
            self.assertIn("elements = { 0.0.0.0/0 }", script)
            self.assertRaises(ValueError, p.emit, "iptables")
            self.assertRaises(ValueError, p.emit, "nftables", table="two words")
            self.assertRaises(ValueError, p.emit, "dnsmasq", resolvers=["pypi.org"])
        with boxlint.NetworkPolicy("filtered", ["pypi.org", "10.0.0.0/8"], ["ALL_TRAFFIC"]) as p:
            with self.assertRaises(boxlint.PolicyError) as cm:
                p.emit("nftables", resolvers=["198.51.100.53"])
            self.assertEqual([d.rule for d in cm.exception.errors], ["unenforceable-entry"])
            self.assertEqual(cm.exception.errors[0].path, "network_policy.allow_out[0]")
        with boxlint.NetworkPolicy("filtered", ["pypi.org"], ["ALL_TRAFFIC"]) as p:
            with self.assertRaises(boxlint.PolicyError) as cm:  # DNS would be cut: no resolver
                p.emit("nftables")
            self.assertEqual(cm.exception.errors[0].path, "network_policy.deny_out[0]")
            self.assertIn("no resolver given", cm.exception.errors[0].message)

    def test_bad_option_values(self):
        self.assertRaises(ValueError, boxlint.NetworkPolicy, "open", unmatched="maybe")
        self.assertRaises(ValueError, boxlint.NetworkPolicy, "open", compat="aws")


class Rules(unittest.TestCase):
    def test_rules_and_explain(self):
        ids = [r.id for r in boxlint.rules()]
        for rid in ("denied-instruction", "unknown-instruction", "too-many-commands",
                    "command-too-long", "nul-byte", "bare-cr", "allow-without-effect"):
            self.assertIn(rid, ids)
        self.assertEqual(len(ids), len(set(ids)))
        text = boxlint.explain("unknown-instruction")
        self.assertTrue(text.startswith("unknown-instruction (error): "))
        self.assertIn("\nBad:\n    pip install pydantic-ai\n", text)
        self.assertEqual(boxlint.rule("nul-byte").severity, "error")
        self.assertRaises(KeyError, boxlint.explain, "no-such-rule")

    def test_explain_matches_the_cli(self):
        cli = os.environ.get("BOXLINT_CLI")
        if not cli:
            self.skipTest("BOXLINT_CLI not set")
        out = subprocess.run([cli, "explain", "denied-instruction"], capture_output=True,
                             text=True, check=True).stdout
        self.assertEqual(out, boxlint.explain("denied-instruction"))


class Layout(unittest.TestCase):
    """Every ctypes Structure matches the C headers, field for field."""

    def test_struct_layouts_match_the_headers(self):
        exe = os.environ.get("BOXLINT_LAYOUT")
        if not exe:
            self.skipTest("BOXLINT_LAYOUT not set (run through ctest)")
        layout = json.loads(subprocess.run([exe], capture_output=True, text=True,
                                           check=True).stdout)
        for name, want in layout.items():
            with self.subTest(struct=name):
                if name.startswith("enum "):
                    self.assertEqual(want["size"], ctypes.sizeof(ctypes.c_int))
                    continue
                cls = _ffi.STRUCTS[name]
                self.assertEqual(ctypes.sizeof(cls), want["size"])
                self.assertEqual([f[0] for f in cls._fields_], list(want["fields"]))
                for fname, off in want["fields"].items():
                    self.assertEqual(getattr(cls, fname).offset, off, fname)
        self.assertEqual(set(_ffi.STRUCTS), {n for n in layout if not n.startswith("enum ")})

    def test_options_init_never_overruns(self):
        o = _ffi.new_options(_ffi.boxlint_options, _ffi.lib.boxlint_options_init)
        self.assertEqual(o.size, ctypes.sizeof(_ffi.boxlint_options))
        self.assertEqual((o.max_commands, o.max_command_bytes, o.escape), (64, 4096, b"\\"))


if __name__ == "__main__":
    unittest.main()

"""Python bindings: Template, command and fragment checks."""
import json
import unittest

import boxlint
from boxlint import _ffi
from support import GOOD, rules_of


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
        # each error is an item of the platform's 422 body that also reads as its Diagnostic
        self.assertTrue(all(isinstance(e.diagnostic, boxlint.Diagnostic) for e in errs))
        self.assertEqual([e["loc"] for e in errs], [["body", "commands", 0],
                                                    ["body", "commands", 1]])
        self.assertEqual(cm.exception.body, {"detail": [dict(e) for e in errs]})
        self.assertIsInstance(cm.exception, ValueError)
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


if __name__ == "__main__":
    unittest.main()

"""Python bindings: Python source files: findings and fixes in the file."""
import threading
import unittest

import boxlint
from support import rules_of


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
        r = boxlint.check_python("import budai\nx = (\n")
        (d,) = r.diagnostics
        self.assertEqual((d.rule, d.severity, d.line, d.column), ("python-syntax", "error", 2, 5))
        self.assertIn("never closed", d.message)
        self.assertFalse(r.ok)
        self.assertRaises(boxlint.ValidationError, r.raise_for_errors)
        # a broken file that cannot reach the SDK: nothing, ok
        r = boxlint.check_python("x = (\n")
        self.assertEqual((r.ok, list(r.diagnostics)), (True, []))

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


if __name__ == "__main__":
    unittest.main()

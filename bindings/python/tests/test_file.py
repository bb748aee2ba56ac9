"""boxlint.check_file: a file as the command checks it (the command is $BOXLINT_CLI)."""
import os
import tempfile
import unittest

import boxlint


@unittest.skipUnless(os.environ.get("BOXLINT_CLI"), "BOXLINT_CLI is not set")
class CheckFileTest(unittest.TestCase):
    def setUp(self):
        os.environ["BOXLINT_COMMAND"] = os.environ["BOXLINT_CLI"]
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_template_positions_are_in_the_file(self):
        p = self.write("t.json", '{"name": "t",\n "commands": ["RUN true", "COPY . /a"],\n'
                                 ' "cpu_count": 2, "memory_mb": 4096}\n')
        r = boxlint.check_file(p)
        self.assertTrue(r.checked)
        self.assertEqual([(d.rule, d.severity, d.line, d.column, d.command)
                          for d in r.diagnostics], [("denied-instruction", "error", 2, 28, 1)])
        self.assertIn("COPY is not allowed", r.diagnostics[0].message)
        self.assertFalse(r.ok)

    def test_not_a_template_gives_nothing(self):
        for name, text in (("package.json", '{"name": "web", "version": "1.0.0"}\n'),
                           ("Dockerfile", "FROM debian\nCOPY . /a\n")):
            r = boxlint.check_file(self.write(name, text))
            self.assertFalse(r.checked, name)
            self.assertEqual(r.diagnostics, (), name)

    def test_text_is_checked_under_the_name(self):
        p = os.path.join(self.dir.name, "x.Dockerfile")
        r = boxlint.check_file(p, text="RUN pip install httpx\n")
        self.assertEqual([(d.rule, d.line, d.column) for d in r.diagnostics],
                         [("pip-no-cache-dir", 1, 5)])
        self.assertEqual(boxlint.check_file(p, text="RUN true\n").diagnostics, ())

    def test_unreadable_input_raises_with_the_commands_message(self):
        p = self.write("bad.json", '{"name": "t", "commands": [}\n')
        with self.assertRaises(boxlint.BoxlintError) as e:
            boxlint.check_file(p)
        self.assertIn("bad.json:1:", str(e.exception))
        with self.assertRaises(boxlint.BoxlintError):
            boxlint.check_file(os.path.join(self.dir.name, "missing.json"))


if __name__ == "__main__":
    unittest.main()

"""Python bindings: rules(), rule() and explain()."""
import os
import subprocess
import unittest

import boxlint


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


if __name__ == "__main__":
    unittest.main()

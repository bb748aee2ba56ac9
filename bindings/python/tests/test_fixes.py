"""Python bindings: apply_fixes and Result.fixed."""
import unittest

import boxlint
from support import rules_of


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


if __name__ == "__main__":
    unittest.main()

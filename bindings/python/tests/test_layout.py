"""Python bindings: The ctypes declarations (boxlint/_ffi.py) against the C headers."""
import ctypes
import json
import os
import subprocess
import unittest

from boxlint import _ffi


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

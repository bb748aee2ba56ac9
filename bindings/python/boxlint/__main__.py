"""``python -m boxlint FILE...``: the boxlint command itself, as the wheel carries it.

The wheel bundles the command built with the library (``boxlint/bin/boxlint``); this runs it in
place of the interpreter, so the checks, the output formats (``--format json|sarif|github``),
the options and the exit codes (0 clean, 1 findings, 2 usage or input errors) are exactly the
command's. Installed from a source tree without the bundled command, it runs ``boxlint`` from
``PATH`` instead.
"""
from __future__ import annotations

import os
import shutil
import sys


def command_path() -> str | None:
    """The bundled command, or ``boxlint`` on ``PATH``, or None."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "boxlint")
    if os.access(here, os.X_OK):
        return here
    return shutil.which("boxlint")


def main() -> int:
    exe = command_path()
    if exe is None:
        print("boxlint: this installation carries no boxlint command and none is on PATH "
              "(install the boxlint wheel, or the boxlint package)", file=sys.stderr)
        return 2
    os.execv(exe, [exe] + sys.argv[1:])
    return 2  # not reached: execv replaces the process or raises


if __name__ == "__main__":
    sys.exit(main())

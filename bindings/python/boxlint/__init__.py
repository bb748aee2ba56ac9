"""boxlint: lint code-interpreter sandbox templates before they reach the platform.

Python bindings over the C library ``libboxlint`` (ctypes; no compiler needed). They give the
same diagnostics as the server-side validator, in about a millisecond, before any network call::

    import boxlint
    result = boxlint.check_template(name="my-py-extra", commands=["pip install pydantic-ai"],
                                    cpu_count=2, memory_mb=4096)
    for d in result.diagnostics:
        print(d)

Without a :class:`Config` (``config=None``), a check uses the built-in defaults, as the
``boxlint`` command does without a ``.boxlint.json``: the platform's errors and every warning at
its default severity (pip cache, apt-get -y, secrets...). Pass a :class:`Config` to change
severities or switch warnings off; the library applies it to every finding (commands, fields,
network policies, Python files), so the bindings and the command report the same severities.

Threads: :class:`NetworkPolicy` and :class:`Config` objects are immutable once constructed and
may be shared by any number of threads; ``decide()``, the check functions and
:func:`apply_fixes` run in parallel (ctypes releases the GIL during the C calls). Each check call
uses its own C report, freed before it returns; results are plain Python objects. ``close()`` may
be called from any thread: a C object still in use by another thread is freed when that call
finishes, and using a closed object raises :class:`ClosedError`.

At run time, :func:`guard` wraps an SDK client so that the values a program actually sends
(built at run time, or hidden from the static reader by reflection) are checked before the
request: an error raises :class:`ValidationError` and nothing is sent.

The shared library is found through ``$BOXLINT_LIBRARY``, then next to this package, then
``ctypes.util.find_library("boxlint")``.
"""
from __future__ import annotations

# Each concern in a module of its own; this file only re-exports their public names.
from ._ffi import VERSION
from ._errors import (BoxlintError, ClosedError, ConfigError, ErrorItem, PolicyError,
                      ValidationError)
from ._types import (Decision, Diagnostic, Fix, Instruction, Options, Result,
                     RuleInfo, Severity, UserRule)  # noqa: F401 (Severity)
from ._config import Config
from ._checks import (check_binding, check_commands, check_fragment, check_python,
                      check_template, validate_template)
from ._fixes import FixResult, apply_fixes
from ._policy import NetworkPolicy, PolicyInput  # noqa: F401 (PolicyInput)
from ._rules import explain, rule, rules
from ._file import FileResult, check_file
from ._guard import TemplateWarning, guard, guard_policy

#: Version of the loaded C library ("MAJOR.MINOR.PATCH"), from ``boxlint_version()``.
__version__: str = VERSION

__all__ = [
    "__version__", "check_template", "validate_template", "check_commands", "check_fragment",
    "check_python", "check_binding", "apply_fixes", "FixResult",
    "NetworkPolicy", "Decision", "Config", "UserRule", "Options", "Result", "Diagnostic", "Fix",
    "Instruction", "RuleInfo", "rules", "rule", "explain", "BoxlintError", "ValidationError",
    "PolicyError", "ConfigError", "ClosedError", "check_file", "FileResult",
    "ErrorItem", "guard", "guard_policy", "TemplateWarning",
]

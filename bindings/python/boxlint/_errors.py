"""The exceptions this package raises, and the check of a C call's status."""
from __future__ import annotations

from typing import TYPE_CHECKING, List, Sequence

from . import _ffi

if TYPE_CHECKING:
    from ._types import Diagnostic


class BoxlintError(Exception):
    """Base class of every error this package raises (besides TypeError and MemoryError)."""


class ValidationError(BoxlintError):
    """The template (or policy) would be rejected by the platform.

    ``errors`` holds every error-severity :class:`Diagnostic`, like the SDK's
    ``ValidationError.errors``; ``diagnostics`` holds all findings, warnings included.
    """

    def __init__(self, diagnostics: Sequence["Diagnostic"]):
        self.diagnostics: List[Diagnostic] = list(diagnostics)
        self.errors: List[Diagnostic] = [d for d in self.diagnostics if d.severity == "error"]
        n = len(self.errors)
        head = f"{n} error{'s' if n != 1 else ''}"
        super().__init__(head + (": " + "; ".join(d.summary() for d in self.errors)
                                 if self.errors else ""))


class PolicyError(ValidationError):
    """A NetworkPolicy has errors (invalid type or entry, lists under disabled/open...)."""


class ConfigError(BoxlintError, ValueError):
    """A config setting was refused: unknown rule, an error rule lowered, a bad pattern.
    ``offset`` is the byte offset into the offending input (the pattern, for a regex error)."""

    def __init__(self, message: str, offset: int = 0, status: str = ""):
        super().__init__(message)
        self.offset = offset
        self.status = status


class ClosedError(BoxlintError, ValueError):
    """A NetworkPolicy or Config was used after ``close()``."""


def _check_status(st: int, what: str) -> None:
    if st == _ffi.BOXLINT_OK:
        return
    if st == _ffi.BOXLINT_ENOMEM:
        raise MemoryError(f"boxlint: out of memory in {what}")
    raise BoxlintError(f"boxlint: {what} failed: {_ffi.status_str(st)}")

"""The exceptions this package raises, and the check of a C call's status."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Dict, List, Sequence, Union

from . import _ffi

if TYPE_CHECKING:
    from ._types import Diagnostic


class BoxlintError(Exception):
    """Base class of every error this package raises (besides TypeError and MemoryError)."""


class ErrorItem(Dict[str, Any]):
    """One error in the platform's 422 shape (FastAPI/pydantic): a dict with ``loc`` (e.g.
    ``["body", "commands", 1]``), ``msg``, ``type`` (the rule id) and ``ctx`` (``hint``,
    ``line``, ``column``, ``severity``, ``fix``). It is also read as the :class:`Diagnostic`
    it was made from: ``item.rule``, ``item.path``, ``item.message``... (``item.diagnostic``
    is that diagnostic), so code written for either shape keeps working."""

    def __init__(self, diagnostic: "Diagnostic"):
        super().__init__(_detail_item(diagnostic))
        self.diagnostic = diagnostic

    def __getattr__(self, name: str) -> Any:
        if name == "diagnostic":  # not set yet (copy, pickle): no recursion
            raise AttributeError(name)
        return getattr(self.diagnostic, name)

    def __reduce__(self) -> Any:
        return (ErrorItem, (self.diagnostic,))


def _loc(d: "Diagnostic") -> List[Union[str, int]]:
    """``["body", ...]``: the command's index, or the field path split at dots and brackets
    (``network_policy.allow_out[2]`` is ``["body", "network_policy", "allow_out", 2]``)."""
    if d.command is not None:
        return ["body", "commands", d.command]
    out: List[Union[str, int]] = ["body"]
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", d.path or ""):
        out.append(int(part[1:-1]) if part.startswith("[") else part)
    return out


def _detail_item(d: "Diagnostic") -> Dict[str, Any]:
    fix = None
    if d.fix is not None:
        fix = {"offset": d.fix.offset, "length": d.fix.length, "text": d.fix.text,
               "description": d.fix.description, "applicability": d.fix.applicability}
    return {"loc": _loc(d), "msg": d.message, "type": d.rule,
            "ctx": {"hint": d.hint, "line": d.line, "column": d.column,
                    "severity": d.severity, "fix": fix}}


class ValidationError(BoxlintError, ValueError):
    """The template, binding or policy would be rejected by the platform (a ValueError, so
    handlers of ValueError catch it).

    ``errors`` holds one :class:`ErrorItem` per error-severity finding: a dict in the shape of
    one item of the platform's 422 ``detail`` list, which also reads as the
    :class:`Diagnostic` (``.rule``, ``.path``, ``.message``); ``body`` is the whole 422 body
    (``{"detail": [...]}``); ``diagnostics`` holds all findings, warnings included. ``str()``
    lists each error with its place (``commands[1]``, ``network_policy.allow_out[0]``)."""

    def __init__(self, diagnostics: Sequence["Diagnostic"]):
        self.diagnostics: List[Diagnostic] = list(diagnostics)
        self.errors: List[ErrorItem] = [ErrorItem(d) for d in self.diagnostics
                                        if d.severity == "error"]
        n = len(self.errors)
        head = f"{n} error{'s' if n != 1 else ''}"
        lines = [f"{_place(e.diagnostic)}: {e.diagnostic.summary()}" for e in self.errors]
        super().__init__(head + (":\n  " + "\n  ".join(lines) if lines else ""))

    @property
    def body(self) -> Dict[str, Any]:
        """The platform's 422 body: ``{"detail": [item, ...]}``, plain dicts (JSON-ready)."""
        return {"detail": [dict(e) for e in self.errors]}


def _place(d: "Diagnostic") -> str:
    if d.command is not None:
        return f"commands[{d.command}]" + (f":{d.line}:{d.column}" if d.line else "")
    return d.path or "the call"


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

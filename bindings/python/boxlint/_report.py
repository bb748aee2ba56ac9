"""A C report for one call, and its findings and instructions as Python objects."""
from __future__ import annotations

import ctypes
from typing import Any, List, Tuple

from . import _ffi
from ._errors import _check_status
from ._ffi import lib
from ._types import Diagnostic, Fix, Instruction


def _diag_from(d: _ffi.boxlint_diag) -> Diagnostic:
    fix = None
    if d.fix:
        f = d.fix.contents
        raw = ctypes.string_at(f.text, f.text_len) if f.text and f.text_len else b""
        fix = Fix(offset=f.offset, length=f.length, text=raw.decode("utf-8", "surrogateescape"),
                  description=_ffi.text(f.description), unsafe=f.safety == _ffi.FIX_UNSAFE)
    return Diagnostic(
        rule=_ffi.text(d.rule) or "", severity=_ffi.severity_name(d.severity),
        command=None if d.command < 0 else int(d.command), line=d.line, column=d.column,
        end_line=d.end_line, end_column=d.end_column, offset=d.offset, path=_ffi.text(d.path),
        message=_ffi.text(d.message) or "", hint=_ffi.text(d.hint), fix=fix,
        detail=_ffi.text(d.detail), end_offset=d.end_offset)


def _collect(report: int) -> List[Diagnostic]:
    return [_diag_from(lib.boxlint_report_diag(report, i).contents)
            for i in range(lib.boxlint_report_diag_count(report))]


def _instructions(report: int) -> Tuple[Instruction, ...]:
    out = []
    for i in range(lib.boxlint_report_instruction_count(report)):
        ins = lib.boxlint_report_instruction(report, i).contents
        out.append(Instruction(index=i, keyword=_ffi.keyword_name(ins.keyword),
                               trigger=_ffi.keyword_name(ins.trigger),
                               line=ins.line, end_line=ins.end_line))
    return tuple(out)


class _Report:
    """A C report for the duration of one call."""

    def __enter__(self) -> int:
        out = ctypes.c_void_p()
        _check_status(lib.boxlint_report_new(ctypes.byref(out), None), "boxlint_report_new")
        self.ptr = out.value
        return self.ptr  # type: ignore[return-value]

    def __exit__(self, *exc: Any) -> None:
        lib.boxlint_report_free(self.ptr)

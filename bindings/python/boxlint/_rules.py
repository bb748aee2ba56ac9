"""The rules the library knows, and their explanations."""
from __future__ import annotations

import ctypes
from typing import List, Optional

from . import _ffi
from ._errors import _check_status
from ._ffi import lib
from ._inputs import _typename
from ._types import RuleInfo


def _info(r: _ffi.boxlint_rule_info) -> RuleInfo:
    return RuleInfo(id=_ffi.text(r.id) or "", severity=_ffi.severity_name(r.severity),
                    summary=_ffi.text(r.summary) or "",
                    description=_ffi.text(r.description) or "", bad=_ffi.text(r.bad) or "",
                    good=_ffi.text(r.good) or "")


def rules() -> List[RuleInfo]:
    """Every rule the library knows, in its stable order."""
    n = ctypes.c_size_t()
    arr = lib.boxlint_rules(ctypes.byref(n))
    return [_info(arr[i]) for i in range(n.value)]


def _rule_info(rule_id: str) -> Optional[RuleInfo]:
    if not isinstance(rule_id, str):
        raise TypeError(f"rule id must be a str, not {_typename(rule_id)}")
    b = rule_id.encode()
    p = lib.boxlint_rule_find(b, len(b))
    return _info(p.contents) if p else None


def rule(rule_id: str) -> RuleInfo:
    """The rule ``rule_id``; KeyError when there is none."""
    info = _rule_info(rule_id)
    if info is None:
        raise KeyError(f"unknown rule {rule_id!r} (boxlint.rules() lists them)")
    return info


def explain(rule_id: str) -> str:
    """The explanation of a rule with a bad and a good example, as ``boxlint explain`` prints
    it; KeyError for an unknown rule."""
    rule(rule_id)  # KeyError for an unknown rule
    b = rule_id.encode()
    out, out_len = ctypes.c_void_p(), ctypes.c_size_t()
    _check_status(lib.boxlint_rule_explain(lib.boxlint_rule_find(b, len(b)), ctypes.byref(out),
                                           ctypes.byref(out_len), None), "boxlint_rule_explain")
    try:
        data = ctypes.string_at(out.value, out_len.value)  # type: ignore[arg-type]
        return data.decode("utf-8", "replace")
    finally:
        lib.boxlint_buffer_free(out, None)

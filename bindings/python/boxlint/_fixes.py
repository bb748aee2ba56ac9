"""Applying fixes to a text with the library's ``boxlint_apply_fixes``."""
from __future__ import annotations

import ctypes
from typing import Any, Iterable, List, NamedTuple, Optional, Tuple, Union

from . import _ffi
from ._errors import _check_status
from ._ffi import lib
from ._inputs import _text_bytes, _typename
from ._types import Diagnostic, Fix


class FixResult(NamedTuple):
    """What :func:`apply_fixes` did: the new text (str or bytes, as given) and, for each fix
    given, whether it was applied."""
    text: Union[str, bytes]
    applied: Tuple[bool, ...]


_SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1


def _c_fix(f: Any, i: int, keep: List[Any], unsafe_fixes: bool) -> Optional[Any]:
    """A pointer to a boxlint_fix for item ``i``, or None (skipped by the library) for a
    Diagnostic without a fix, for offsets no buffer has (negative or too large) and for an
    unsafe fix unless ``unsafe_fixes``."""
    if isinstance(f, Diagnostic):
        f = f.fix
    if f is None:
        return None
    if not isinstance(f, Fix):
        raise TypeError(f"fixes[{i}] must be a boxlint.Fix or Diagnostic, not {_typename(f)}")
    for name in ("offset", "length"):
        v = getattr(f, name)
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"fixes[{i}].{name} must be an int, not {_typename(v)}")
    if not isinstance(f.text, str):
        raise TypeError(f"fixes[{i}].text must be a str, not {_typename(f.text)}")
    if not (0 <= f.offset <= _SIZE_MAX and 0 <= f.length <= _SIZE_MAX):
        return None
    if f.unsafe and not unsafe_fixes:
        return None
    t = f.text.encode("utf-8", "surrogateescape")
    c = _ffi.boxlint_fix(offset=f.offset, length=f.length, text=_ffi.address(t),
                         text_len=len(t), description=None,
                         safety=_ffi.FIX_UNSAFE if f.unsafe else 0)
    keep.extend((t, c))
    return ctypes.pointer(c)


def apply_fixes(text: Union[str, bytes], fixes: Iterable[Union[Fix, Diagnostic, None]],
                unsafe_fixes: bool = False) -> FixResult:
    """Apply fixes to ``text`` in one pass with the library's ``boxlint_apply_fixes``, the
    implementation the CLI's ``--fix`` uses. Offsets are byte offsets into the UTF-8 encoding
    of ``text`` (a str is encoded, edited and decoded again; bytes stay bytes). ``fixes`` are
    :class:`Fix` objects or :class:`Diagnostic` objects (those without a fix are skipped).

    Fixes are taken in offset order (insertions first at one offset, then the order given); a
    fix that overlaps one already taken, a second insertion at the same offset, and a fix
    outside the text are not applied: ``applied`` says which were. Check the new text again to
    get the ones left out. An unsafe fix (:attr:`Fix.unsafe`) is not applied either unless
    ``unsafe_fixes`` is True, as ``boxlint --fix`` without ``--unsafe-fixes``. Only fixes whose
    offsets are in ``text`` make sense here: those of :func:`check_python` and
    :func:`check_fragment` results (see :meth:`Result.fixed`)."""
    b = _text_bytes(text, "text")
    if isinstance(fixes, (str, bytes, Fix, Diagnostic)):
        raise TypeError(f"fixes must be an iterable of Fix or Diagnostic, not {_typename(fixes)}")
    items = list(fixes)
    n = len(items)
    keep: List[Any] = []
    arr = (ctypes.POINTER(_ffi.boxlint_fix) * max(n, 1))()
    for i, f in enumerate(items):
        p = _c_fix(f, i, keep, unsafe_fixes)
        if p is not None:
            arr[i] = p
    applied = (ctypes.c_ubyte * max(n, 1))()
    out, out_len = ctypes.c_void_p(), ctypes.c_size_t()
    _check_status(lib.boxlint_apply_fixes(b, len(b), arr, n, ctypes.byref(out),
                                          ctypes.byref(out_len), applied, None),
                  "boxlint_apply_fixes")
    try:
        size = out_len.value
        data = ctypes.string_at(out.value, size) if size else b""  # type: ignore[arg-type]
    finally:
        lib.boxlint_buffer_free(out, None)
    flags = tuple(bool(applied[i]) for i in range(n))
    if isinstance(text, str):
        return FixResult(data.decode("utf-8", "surrogateescape"), flags)
    return FixResult(data, flags)

"""Python values as the library reads them (TypeError for what the platform would never
receive)."""
from __future__ import annotations

import numbers
from typing import Any, List

from . import _ffi


def _encode_commands(commands: Any, what: str = "commands") -> List[bytes]:
    if isinstance(commands, (str, bytes)) or not isinstance(commands, (list, tuple)):
        raise TypeError(f"{what} must be a list of str, not {type(commands).__name__}")
    out = []
    for i, c in enumerate(commands):
        if isinstance(c, str):
            out.append(c.encode("utf-8", "surrogateescape"))
        elif isinstance(c, (bytes, bytearray, memoryview)):
            out.append(bytes(c))
        else:
            raise TypeError(f"{what}[{i}] must be a str, not {type(c).__name__}")
    return out


def _number(name: str, v: Any, keep: List[bytes]) -> _ffi.boxlint_number:
    """An SDK number field as the platform would receive it (None: absent)."""
    n = _ffi.boxlint_number()
    if v is None:
        return n
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise TypeError(f"{name} must be an int, not {type(v).__name__} ({v!r})")
    n.present = 1
    if isinstance(v, numbers.Integral) and -2**63 <= int(v) < 2**63:
        n.is_integer = 1
        n.value = int(v)
    else:  # 2.5, 2.0, 10**30: the platform reports these as invalid-resources
        t = repr(float(v)) if isinstance(v, float) else str(v)
        b = t.encode()
        keep.append(b)
        n.text = b
    return n


def _text_bytes(text: Any, what: str) -> bytes:
    """A text argument as the library reads it: str as UTF-8 (lone surrogates from
    ``surrogateescape`` back to their bytes), bytes unchanged."""
    if isinstance(text, str):
        return text.encode("utf-8", "surrogateescape")
    if isinstance(text, (bytes, bytearray, memoryview)):
        return bytes(text)
    raise TypeError(f"{what} must be a str or bytes, not {type(text).__name__}")


def _spell(v: Any) -> str:
    """How a message names a value of the wrong type: its repr, cut at 40 code points as the
    library cuts the source text it quotes."""
    t = repr(v)
    return t if len(t) <= 40 else t[:40] + "..."


def _binding_number(v: Any, keep: List[bytes]) -> _ffi.boxlint_number:
    """A binding's number field: an int is an integer; anything else (2.5, "1", True) is
    passed as not an integer, spelt by its repr (None: absent, the SDK's default)."""
    n = _ffi.boxlint_number()
    if v is None:
        return n
    n.present = 1
    if isinstance(v, numbers.Integral) and not isinstance(v, bool) and \
            -2**63 <= int(v) < 2**63:
        n.is_integer = 1
        n.value = int(v)
    else:
        b = _spell(v).encode("utf-8", "surrogateescape")
        keep.append(b)
        n.text = b
    return n


def _typename(v: Any) -> str:
    return type(v).__name__

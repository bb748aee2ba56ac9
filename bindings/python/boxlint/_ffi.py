"""ctypes declarations of the boxlint C API (lib/include/boxlint/*.h).

Every Structure here mirrors a C struct field for field, in order; ctypes applies the platform
ABI's alignment and padding exactly as the C compiler does. ``tests/test_layout.py`` checks each
size and offset against a small C program compiled from the real headers.

Option structs (``boxlint_options``, ``boxlint_policy_options``, ``boxlint_emit_options``) carry
a ``size`` field and may grow at the end in later versions of the library. They are therefore
never allocated at their Python size: :func:`new_options` overlays the Python view on a zeroed
buffer of the library's own size (``boxlint_options_size()``...), so that the library's
``*_init`` can write all of its (possibly newer, longer) struct safely, and the fields that this
module does not know keep the library's defaults.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from ctypes import (
    POINTER, Structure, c_char, c_char_p, c_int, c_int32, c_int64, c_size_t, c_ubyte, c_uint,
    c_uint32, c_void_p,
)
from typing import Dict, List, Optional, Tuple, Type, TypeVar

# --- status, severity and other enums (C enums are int-sized on every supported ABI) ---------
BOXLINT_OK = 0
BOXLINT_EINVAL = -1
BOXLINT_ENOMEM = -2
BOXLINT_ESYNTAX = -3
BOXLINT_ELIMIT = -4
BOXLINT_EREGEX = -5

SEVERITY_OFF, SEVERITY_INFO, SEVERITY_WARNING, SEVERITY_ERROR = 0, 1, 2, 3

LIST_NONE, LIST_ALLOW_OUT, LIST_DENY_OUT = -1, 0, 1

# What the values mean (names of severities, keywords, policy options, formats and fields) is
# the library's to say: the functions at the end of this module ask it, nothing here restates it.


class boxlint_span(Structure):
    _fields_ = [("ptr", c_void_p), ("len", c_size_t)]


class boxlint_fix(Structure):
    # safety: boxlint_fix_safety, 0 safe, 1 unsafe (an enum: int-sized)
    _fields_ = [("offset", c_size_t), ("length", c_size_t), ("text", c_void_p),
                ("text_len", c_size_t), ("description", c_char_p), ("safety", c_int)]


FIX_UNSAFE = 1


class boxlint_diag(Structure):
    _fields_ = [("rule", c_char_p), ("severity", c_int), ("command", c_int32),
                ("path", c_char_p), ("line", c_uint32), ("column", c_uint32),
                ("end_line", c_uint32), ("end_column", c_uint32), ("offset", c_size_t),
                ("end_offset", c_size_t), ("message", c_char_p), ("hint", c_char_p),
                ("detail", c_char_p), ("fix", POINTER(boxlint_fix))]


class boxlint_heredoc(Structure):
    _fields_ = [("name", boxlint_span), ("body", boxlint_span), ("fd", c_uint32),
                ("chomp", c_int), ("expand", c_int), ("line", c_uint32), ("end_line", c_uint32)]


class boxlint_instruction(Structure):
    _fields_ = [("keyword", c_int), ("trigger", c_int), ("keyword_text", boxlint_span),
                ("text", boxlint_span), ("logical", boxlint_span), ("args", boxlint_span),
                ("flags", POINTER(boxlint_span)), ("nflags", c_size_t),
                ("heredocs", POINTER(boxlint_heredoc)), ("nheredocs", c_size_t),
                ("json", c_int), ("line", c_uint32), ("end_line", c_uint32),
                ("offset", c_size_t), ("end_offset", c_size_t)]


class boxlint_options(Structure):
    _fields_ = [("size", c_size_t), ("max_commands", c_size_t),
                ("max_command_bytes", c_size_t), ("escape", c_char), ("config", c_void_p),
                ("cpu_min", c_int64), ("cpu_max", c_int64), ("memory_min", c_int64),
                ("memory_max", c_int64), ("no_instructions", c_int)]


class boxlint_number(Structure):
    _fields_ = [("present", c_int), ("is_integer", c_int), ("value", c_int64),
                ("text", c_char_p)]


class boxlint_template(Structure):
    _fields_ = [("name", boxlint_span), ("has_name", c_int),
                ("commands", POINTER(boxlint_span)), ("ncommands", c_size_t),
                ("has_commands", c_int), ("cpu_count", boxlint_number),
                ("memory_mb", boxlint_number), ("extra_fields", POINTER(boxlint_span)),
                ("nextra_fields", c_size_t)]


class boxlint_binding(Structure):
    _fields_ = [("template_id", boxlint_span), ("has_template_id", c_int),
                ("template_id_not_string", c_int), ("template_text", c_char_p),
                ("version", boxlint_number), ("lifespan_seconds", boxlint_number),
                ("extra_fields", POINTER(boxlint_span)), ("nextra_fields", c_size_t)]


class boxlint_rule_info(Structure):
    _fields_ = [("id", c_char_p), ("severity", c_int), ("summary", c_char_p),
                ("description", c_char_p), ("bad", c_char_p), ("good", c_char_p)]


class boxlint_error(Structure):
    _fields_ = [("code", c_int), ("offset", c_size_t), ("message", c_char * 192)]


class boxlint_user_rule(Structure):
    _fields_ = [("id", boxlint_span), ("severity", c_int), ("instruction", c_int),
                ("pattern", boxlint_span), ("message", boxlint_span)]


class boxlint_policy_spec(Structure):
    _fields_ = [("type", boxlint_span), ("allow_out", POINTER(boxlint_span)),
                ("n_allow", c_size_t), ("deny_out", POINTER(boxlint_span)),
                ("n_deny", c_size_t)]


class boxlint_policy_options(Structure):
    _fields_ = [("size", c_size_t), ("max_entries", c_size_t), ("unmatched", c_int),
                ("compat", c_uint), ("path_prefix", boxlint_span), ("config", c_void_p)]


class boxlint_emit_options(Structure):
    _fields_ = [("size", c_size_t), ("table", c_char_p), ("iifname", c_char_p),
                ("resolvers", POINTER(c_char_p)), ("nresolvers", c_size_t),
                ("proxy_user", c_char_p), ("proxy_http_port", c_uint),
                ("proxy_tls_port", c_uint)]


class boxlint_decision(Structure):
    _fields_ = [("verdict", c_int), ("reason", c_int), ("list", c_int), ("index", c_int32),
                ("entry", boxlint_span), ("by_name", c_int)]


# Every struct this module declares, by C name (used by the layout test).
STRUCTS = {cls.__name__: cls for cls in (
    boxlint_span, boxlint_fix, boxlint_diag, boxlint_heredoc, boxlint_instruction,
    boxlint_options, boxlint_number, boxlint_template, boxlint_binding, boxlint_rule_info,
    boxlint_error,
    boxlint_user_rule, boxlint_policy_spec, boxlint_policy_options, boxlint_emit_options,
    boxlint_decision)}


# --- locating and loading the shared library ---------------------------------------------------

def _candidates() -> List[str]:
    found: List[str] = []
    env = os.environ.get("BOXLINT_LIBRARY")
    if env:
        return [env]  # an explicit choice is never second-guessed
    here = os.path.dirname(os.path.abspath(__file__))
    names = {"darwin": ["libboxlint.dylib", "libboxlint.0.dylib"],
             "win32": ["boxlint.dll", "libboxlint.dll"]}.get(
                 sys.platform, ["libboxlint.so", "libboxlint.so.0"])
    for d in (here, os.path.dirname(here)):
        found.extend(os.path.join(d, n) for n in names if os.path.exists(os.path.join(d, n)))
    system = ctypes.util.find_library("boxlint")
    if system:
        found.append(system)
    return found


def load_library() -> ctypes.CDLL:
    """Load libboxlint: ``$BOXLINT_LIBRARY``, then next to the package, then the system's."""
    tried = _candidates()
    errors = []
    for path in tried:
        try:
            return ctypes.CDLL(path)
        except OSError as exc:  # keep looking, report everything at the end
            errors.append(f"{path}: {exc}")
    if not tried:
        errors.append("no candidate: set BOXLINT_LIBRARY to the path of libboxlint.so, put the "
                      "library next to the boxlint package, or install it system-wide")
    raise ImportError("boxlint: cannot load the C library libboxlint (" + "; ".join(errors) + ")")


lib = load_library()
lib.boxlint_version.restype = c_char_p

#: The loaded library's version ("MAJOR.MINOR.PATCH"); these bindings need 0.x >= 0.1.
VERSION: str = lib.boxlint_version().decode()
_major, _minor = (int(x) for x in VERSION.split(".")[:2])
if (_major, _minor) < (0, 1) or _major != 0:
    raise ImportError(f"boxlint: these bindings need libboxlint 0.x >= 0.1, found {VERSION}")

_S = TypeVar("_S", bound=Structure)


def _fn(name: str, restype, *argtypes) -> None:
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)


_fn("boxlint_version", c_char_p)
_fn("boxlint_status_str", c_char_p, c_int)
_fn("boxlint_report_new", c_int, POINTER(c_void_p), c_void_p)
_fn("boxlint_report_free", None, c_void_p)
_fn("boxlint_report_diag_count", c_size_t, c_void_p)
_fn("boxlint_report_diag", POINTER(boxlint_diag), c_void_p, c_size_t)
_fn("boxlint_report_instruction_count", c_size_t, c_void_p)
_fn("boxlint_report_instruction", POINTER(boxlint_instruction), c_void_p, c_size_t)
_fn("boxlint_keyword_name", c_char_p, c_int)
_fn("boxlint_options_init", None, c_void_p)
_fn("boxlint_check_commands", c_int, c_void_p, POINTER(boxlint_span), c_size_t, c_void_p)
_fn("boxlint_check_fragment", c_int, c_void_p, c_char_p, c_size_t, c_void_p)
_fn("boxlint_check_template", c_int, c_void_p, POINTER(boxlint_template), c_void_p)
_fn("boxlint_check_binding", c_int, c_void_p, POINTER(boxlint_binding), c_void_p)
_fn("boxlint_check_python", c_int, c_void_p, c_char_p, c_size_t, c_void_p, c_void_p)
_fn("boxlint_apply_fixes", c_int, c_char_p, c_size_t, POINTER(POINTER(boxlint_fix)), c_size_t,
    POINTER(c_void_p), POINTER(c_size_t), POINTER(c_ubyte), c_void_p)
_fn("boxlint_buffer_free", None, c_void_p, c_void_p)
_fn("boxlint_rules", POINTER(boxlint_rule_info), POINTER(c_size_t))
_fn("boxlint_rule_find", POINTER(boxlint_rule_info), c_char_p, c_size_t)
_fn("boxlint_config_new", c_int, POINTER(c_void_p), c_void_p)
_fn("boxlint_config_free", None, c_void_p)
_fn("boxlint_config_set_severity", c_int, c_void_p, c_char_p, c_size_t, c_int,
    POINTER(boxlint_error))
_fn("boxlint_config_add_rule", c_int, c_void_p, POINTER(boxlint_user_rule),
    POINTER(boxlint_error))
_fn("boxlint_config_set_limits", None, c_void_p, c_uint32, c_uint32)
_fn("boxlint_config_set_python_minor", c_int, c_void_p, c_int)
_fn("boxlint_config_get_python_minor", c_int, c_void_p)
_fn("boxlint_python_version_parse", c_int, c_char_p, c_size_t, POINTER(c_int))
_fn("boxlint_config_get_severity", c_int, c_void_p, c_char_p, c_size_t, c_int)
_fn("boxlint_config_rule_count", c_size_t, c_void_p)
_fn("boxlint_config_rule_id", c_char_p, c_void_p, c_size_t)
_fn("boxlint_policy_options_init", None, c_void_p)
_fn("boxlint_policy_new", c_int, POINTER(c_void_p), c_void_p, POINTER(boxlint_policy_spec),
    c_void_p, c_void_p)
_fn("boxlint_policy_free", None, c_void_p)
_fn("boxlint_policy_get_type", c_int, c_void_p)
_fn("boxlint_policy_entry_count", c_size_t, c_void_p, c_int)
_fn("boxlint_policy_entry_text", boxlint_span, c_void_p, c_int, c_size_t)
_fn("boxlint_policy_decide", c_int, POINTER(boxlint_decision), c_void_p, c_char_p, c_size_t,
    c_char_p, c_size_t)
_fn("boxlint_emit_options_init", None, c_void_p)
_fn("boxlint_policy_emit", c_int, c_void_p, c_int, c_void_p, c_void_p, POINTER(c_void_p),
    POINTER(c_size_t), c_void_p)
_fn("boxlint_policy_type_str", c_char_p, c_int)
_fn("boxlint_policy_list_str", c_char_p, c_int)
_fn("boxlint_verdict_str", c_char_p, c_int)
_fn("boxlint_decision_reason_str", c_char_p, c_int)
_fn("boxlint_severity_str", c_char_p, c_int)
_fn("boxlint_severity_parse", c_int, c_char_p, c_size_t, POINTER(c_int))
_fn("boxlint_keyword_parse", c_int, c_char_p, c_size_t)
_fn("boxlint_fix_safety_str", c_char_p, c_int)
_fn("boxlint_policy_unmatched_str", c_char_p, c_int)
_fn("boxlint_policy_compat_str", c_char_p, c_uint)
_fn("boxlint_emit_format_str", c_char_p, c_int)
_fn("boxlint_policy_field", c_char_p, c_size_t)
_fn("boxlint_options_size", c_size_t)
_fn("boxlint_policy_options_size", c_size_t)
_fn("boxlint_emit_options_size", c_size_t)
_fn("boxlint_rule_explain", c_int, POINTER(boxlint_rule_info), POINTER(c_void_p),
    POINTER(c_size_t), c_void_p)
_fn("boxlint_options_check", c_int, c_void_p)
_fn("boxlint_user_rule_init", None, POINTER(boxlint_user_rule))
_fn("boxlint_user_rule_field", c_char_p, c_size_t)


def new_options(cls: Type[_S], init) -> _S:
    """A ``cls`` view over a zeroed buffer of the library's size of the struct
    (``<struct>_size()``; never less than the view), filled by the library's ``init`` (which
    sets ``size`` to that sizeof)."""
    size = getattr(lib, cls.__name__ + "_size")()
    buf = ctypes.create_string_buffer(max(size, ctypes.sizeof(cls)))
    view = cls.from_buffer(buf)  # keeps `buf` alive through view._objects
    init(ctypes.byref(view))
    return view


def status_str(status: int) -> str:
    return (lib.boxlint_status_str(status) or b"unknown").decode()


def text(p: Optional[bytes]) -> Optional[str]:
    """A C string from the library as str (invalid UTF-8 shown as U+FFFD), or None."""
    return None if p is None else p.decode("utf-8", "replace")


def span_bytes(s: boxlint_span) -> bytes:
    return ctypes.string_at(s.ptr, s.len) if s.ptr and s.len else b""


def address(b: bytes) -> int:
    """The address of a bytes object's buffer (valid while the object lives; never NULL, even
    for b"", so that the library never sees NULL plus an offset)."""
    return ctypes.cast(c_char_p(b), c_void_p).value  # type: ignore[return-value]


def spans(items: List[bytes]):
    """A C array of spans over `items` (bytes objects that the caller keeps alive)."""
    arr = (boxlint_span * max(len(items), 1))()
    for i, b in enumerate(items):
        arr[i].ptr = address(b)
        arr[i].len = len(b)
    return arr


# --- names: the library's words for its values -------------------------------------------------

def severity_name(value: int) -> str:
    """"error", "warning", "info" or "off" (boxlint_severity_str)."""
    return lib.boxlint_severity_str(value).decode()


def severity_value(name: str) -> Optional[int]:
    """The severity the library names ``name`` (boxlint_severity_parse), or None."""
    b = name.encode("utf-8", "surrogateescape")
    out = c_int()
    return out.value if lib.boxlint_severity_parse(b, len(b), ctypes.byref(out)) == 0 else None


def keyword_name(value: int) -> Optional[str]:
    """An instruction's keyword ("RUN"), or None for none (boxlint_keyword_name)."""
    return (lib.boxlint_keyword_name(value) or b"").decode() or None


def keyword_value(name: str) -> int:
    """The keyword ``name`` in any case (boxlint_keyword_parse); 0 (none) when unknown."""
    b = name.encode("utf-8", "surrogateescape")
    return int(lib.boxlint_keyword_parse(b, len(b)))


def fix_safety_name(value: int) -> str:
    """"safe" or "unsafe" (boxlint_fix_safety_str)."""
    return (lib.boxlint_fix_safety_str(value) or b"").decode()


def _names(fn, values) -> Dict[str, int]:
    out: Dict[str, int] = {}
    for v in values:
        n = fn(v)
        if n is None:
            break
        out[n.decode()] = v
    return out


#: The words of the policy options and of emit's formats, from the library: name -> value.
UNMATCHED: Dict[str, int] = _names(lib.boxlint_policy_unmatched_str, range(32))
COMPAT: Dict[Optional[str], int] = {None: 0}
for _k, _v in _names(lib.boxlint_policy_compat_str, [0] + [1 << i for i in range(31)]).items():
    COMPAT[_k] = _v
EMIT_FORMATS: Dict[str, int] = _names(lib.boxlint_emit_format_str, range(32))
#: The fields of a NetworkPolicy object ("type", "allow_out", "deny_out").
POLICY_FIELDS: Tuple[str, ...] = tuple(_names(lib.boxlint_policy_field, range(32)))
#: The members of a user rule ("id", "severity", "instruction", "pattern", "message").
USER_RULE_FIELDS: Tuple[str, ...] = tuple(_names(lib.boxlint_user_rule_field, range(32)))


def escape_ok(escape: object) -> bool:
    """Whether the checks take ``escape`` as the escape character (boxlint_options_check on
    the default options with that escape)."""
    if not isinstance(escape, str) or len(escape.encode("utf-8", "surrogateescape")) != 1:
        return False
    o = new_options(boxlint_options, lib.boxlint_options_init)
    o.escape = escape.encode("utf-8", "surrogateescape")
    return lib.boxlint_options_check(ctypes.byref(o)) == BOXLINT_OK


def _user_rule_severity() -> str:
    r = boxlint_user_rule()
    lib.boxlint_user_rule_init(ctypes.byref(r))
    return severity_name(r.severity)


#: The severity of a user rule that names none (boxlint_user_rule_init).
USER_RULE_SEVERITY: str = _user_rule_severity()


def _default_unmatched() -> str:
    o = new_options(boxlint_policy_options, lib.boxlint_policy_options_init)
    return lib.boxlint_policy_unmatched_str(o.unmatched).decode()


#: What a destination matched by no entry gets when nothing says otherwise
#: (boxlint_policy_options_init).
DEFAULT_UNMATCHED: str = _default_unmatched()

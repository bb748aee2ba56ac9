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

The shared library is found through ``$BOXLINT_LIBRARY``, then next to this package, then
``ctypes.util.find_library("boxlint")``.
"""
from __future__ import annotations

import ctypes
import json
import numbers
import os
import threading
from dataclasses import asdict, dataclass, field
from typing import (Any, Callable, Dict, Iterable, Iterator, List, Mapping, NamedTuple,
                    Optional, Sequence, Tuple, Union)

from . import _ffi
from ._ffi import lib

__all__ = [
    "__version__", "check_template", "validate_template", "check_commands", "check_fragment",
    "check_python", "check_binding", "apply_fixes", "FixResult",
    "NetworkPolicy", "Decision", "Config", "UserRule", "Options", "Result", "Diagnostic", "Fix",
    "Instruction", "RuleInfo", "rules", "rule", "explain", "BoxlintError", "ValidationError",
    "PolicyError", "ConfigError", "ClosedError",
]

#: Version of the loaded C library ("MAJOR.MINOR.PATCH"), from ``boxlint_version()``.
__version__: str = lib.boxlint_version().decode()

_major, _minor = (int(x) for x in __version__.split(".")[:2])
if (_major, _minor) < (0, 1) or _major != 0:
    raise ImportError(f"boxlint: these bindings need libboxlint 0.x >= 0.1, found {__version__}")

Severity = str  # "error" | "warning" | "info"
PolicyInput = Union["NetworkPolicy", Mapping[str, Any], Any, None]


# ---------------------------------------------------------------------------------------------
# Exceptions
# ---------------------------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------------------------
# Plain result types (copied out of C memory; they never reference it)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Fix:
    """Replace bytes ``[offset, offset + length)`` of the command (UTF-8) with ``text``.

    Policy fixes are list-relative: ``text`` replaces entries ``[offset, offset + length)`` of
    the list the fix's description names (``allow-without-effect`` and
    ``domains-require-deny-all``: insert into ``deny_out`` at index ``offset``, ``length`` 0; a
    non-ASCII entry of ``invalid-policy-entry``: replace that entry with its A-label,
    ``length`` 1).

    ``unsafe`` is True for a fix that changes what the template or policy does (adding
    ``ALL_TRAFFIC`` to ``deny_out`` turns egress from allow-all into deny-all; the slug of
    ``invalid-name`` renames the template): :meth:`Result.fixed` and :func:`apply_fixes` leave
    it out unless given ``unsafe_fixes=True``, as ``boxlint --fix`` does without
    ``--unsafe-fixes``. ``applicability`` says the same as ``"safe"`` or ``"unsafe"``, the
    word of the command's JSON output."""
    offset: int
    length: int
    text: str
    description: Optional[str]
    unsafe: bool = False

    @property
    def applicability(self) -> str:
        return "unsafe" if self.unsafe else "safe"

    def apply(self, command: str) -> str:
        """The command with this fix applied (offsets are UTF-8 byte offsets), through the
        library's :func:`apply_fixes`; a fix outside the text leaves it unchanged. This one
        fix is applied whatever its safety: calling this is the choice."""
        return apply_fixes(command, (self,), unsafe_fixes=True).text


@dataclass(frozen=True)
class Diagnostic:
    """One finding. ``command`` is the command's index, or None for a finding about a field
    (then ``path`` names it, e.g. ``network_policy.allow_out[2]``, and ``line`` is 0).
    Lines and columns are 1-based, columns count code points; offsets are UTF-8 byte offsets
    into the command; ends are exclusive."""
    rule: str
    severity: Severity
    command: Optional[int]
    line: int
    column: int
    end_line: int
    end_column: int
    offset: int
    path: Optional[str]
    message: str
    hint: Optional[str]
    fix: Optional[Fix]
    detail: Optional[str]
    end_offset: int = 0

    def summary(self) -> str:
        """``message [rule]``."""
        return f"{self.message} [{self.rule}]"

    def where(self) -> str:
        if self.command is not None:
            return f"commands[{self.command}]:{self.line}:{self.column}"
        return self.path or "template"

    def __str__(self) -> str:
        s = f"{self.where()}: {self.severity}: {self.summary()}"
        return s + (f"\n  hint: {self.hint}" if self.hint else "")

    def to_dict(self) -> Dict[str, Any]:
        """The diagnostic as the CLI's JSON output spells it."""
        return asdict(self)


@dataclass(frozen=True)
class Instruction:
    """How the library read one command: its keyword (None when unknown or empty), the
    ONBUILD trigger's keyword, and its first and last line."""
    index: int
    keyword: Optional[str]
    trigger: Optional[str]
    line: int
    end_line: int


@dataclass(frozen=True)
class Result:
    """What a check found. ``file_relative`` is True when positions and fix offsets are in the
    checked text itself (:func:`check_python`, :func:`check_fragment`), so that
    :meth:`fixed` can apply the fixes to it; command and field checks give fixes relative to a
    command or a policy list."""
    diagnostics: Tuple[Diagnostic, ...]
    instructions: Tuple[Instruction, ...] = ()
    file_relative: bool = False

    @property
    def fixes(self) -> List[Fix]:
        """The fix of every diagnostic that has one, in order."""
        return [d.fix for d in self.diagnostics if d.fix is not None]

    def fixed(self, text: Union[str, bytes], unsafe_fixes: bool = False) -> Union[str, bytes]:
        """``text`` (the text this result checked, as str or bytes) with every safe fix applied
        in one pass by :func:`apply_fixes`, and the unsafe ones too when ``unsafe_fixes``
        (:attr:`Fix.unsafe`). A fix that conflicts with another is left out: check the new text
        again and repeat (at most a few passes) to apply it too. ValueError for a result whose
        fixes are not offsets into the checked text (``file_relative`` False)."""
        if not self.file_relative:
            raise ValueError("fixed() needs a result of check_python or check_fragment: the "
                             "fixes of command and field checks are relative to a command or a "
                             "policy list (use Fix.apply on the command)")
        return apply_fixes(text, self.diagnostics, unsafe_fixes=unsafe_fixes).text

    @property
    def errors(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    @property
    def ok(self) -> bool:
        """True when nothing would make the platform reject the template."""
        return not self.errors

    def raise_for_errors(self) -> "Result":
        """Raise :class:`ValidationError` if there is an error; return self otherwise."""
        if not self.ok:
            raise ValidationError(self.diagnostics)
        return self


@dataclass(frozen=True)
class Decision:
    """The verdict for one destination. ``reason`` is one of rule, default, policy-disabled,
    policy-open, invalid-destination, needs-ip; ``list``/``index``/``entry`` name the deciding
    entry (normalised text) when ``reason`` is "rule"; ``by_name`` is True when a domain entry
    allowed it (connect by name and check the resolved addresses again)."""
    verdict: str
    reason: str
    list: Optional[str]
    index: Optional[int]
    entry: Optional[str]
    by_name: bool = False

    @property
    def allowed(self) -> bool:
        return self.verdict == "allow"


@dataclass(frozen=True)
class RuleInfo:
    id: str
    severity: Severity
    summary: str
    description: str
    bad: str
    good: str


@dataclass(frozen=True)
class Options:
    """Limits of a check; None keeps the library's default (64 commands, 4096 bytes,
    backslash escape, 1-8 vCPU, 512-16384 MiB)."""
    max_commands: Optional[int] = None
    max_command_bytes: Optional[int] = None
    escape: Optional[str] = None
    cpu_min: Optional[int] = None
    cpu_max: Optional[int] = None
    memory_min: Optional[int] = None
    memory_max: Optional[int] = None


@dataclass(frozen=True)
class UserRule:
    """A rule of your own: report ``message`` when the PCRE2 ``pattern`` matches an
    instruction (its logical line, and each heredoc body). ``instruction`` limits it to one
    keyword ("RUN"); None or "*" means every instruction."""
    id: str
    pattern: str
    message: str = ""
    severity: Severity = "warning"
    instruction: Optional[str] = None


# ---------------------------------------------------------------------------------------------
# Owned C objects: deterministic, thread-safe release
# ---------------------------------------------------------------------------------------------

class _Owned:
    """A C object freed by ``close()``, a ``with`` block, or (as a fallback) the garbage
    collector. Calls in flight keep it alive: the last one frees it after a concurrent close."""

    _ptr: Optional[int] = None
    _closed = True

    def _own(self, ptr: int, free: Callable[[int], None]) -> None:
        self._lock = threading.Lock()
        self._uses = 0
        self._free = free
        self._ptr = ptr
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def _acquire(self) -> int:
        lock = getattr(self, "_lock", None)
        if lock is None:
            raise ClosedError(f"{type(self).__name__} is closed")
        with lock:
            if self._closed or not self._ptr:
                raise ClosedError(f"{type(self).__name__} is closed")
            self._uses += 1
            return self._ptr

    def _release(self) -> None:
        with self._lock:
            self._uses -= 1
            if not (self._closed and self._uses == 0 and self._ptr):
                return
            ptr, self._ptr = self._ptr, None
        self._free(ptr)

    class _Use:
        __slots__ = ("owner", "ptr")

        def __init__(self, owner: "_Owned"):
            self.owner = owner
            self.ptr = 0

        def __enter__(self) -> int:
            self.ptr = self.owner._acquire()
            return self.ptr

        def __exit__(self, *exc: Any) -> None:
            self.owner._release()

    def _use(self) -> "_Owned._Use":
        return _Owned._Use(self)

    def close(self) -> None:
        """Free the C object now. Idempotent; later use raises :class:`ClosedError`."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            if self._closed:
                return
            self._closed = True
            if self._uses or not self._ptr:
                return
            ptr, self._ptr = self._ptr, None
        self._free(ptr)

    def __enter__(self):
        self._acquire()
        self._release()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: nothing sensible left to do
            pass


# ---------------------------------------------------------------------------------------------
# Config
# ---------------------------------------------------------------------------------------------

def _severity_value(sev: Any, what: str, allow_off: bool = True) -> int:
    if not isinstance(sev, str):
        raise TypeError(f"{what} must be a str ('error', 'warning', 'info'"
                        f"{', ' + repr('off') if allow_off else ''}), not {type(sev).__name__}")
    v = _ffi.SEVERITY_VALUES.get(sev.lower())
    if v is None or (v == _ffi.SEVERITY_OFF and not allow_off):
        raise ValueError(f"{what} must be 'error', 'warning', 'info'"
                         f"{' or ' + repr('off') if allow_off else ''}, not {sev!r}")
    return v


def _keyword_value(name: Optional[str], what: str) -> int:
    if name is None or name in ("", "*"):
        return 0
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a str such as 'RUN', not {type(name).__name__}")
    try:
        return _ffi.KEYWORDS.index(name.upper())
    except ValueError:
        raise ValueError(f"{what}: unknown instruction {name!r}") from None


class Config(_Owned):
    """Which warnings run at which severity, plus user rules (PCRE2), compiled once.

    ``severities`` maps rule ids to "error", "warning", "info" or "off" (errors of the
    platform cannot be switched off or lowered). ``user_rules`` are :class:`UserRule` objects
    or dicts with the same keys. Immutable once constructed: share it between threads freely.
    Use it as ``config=`` of the check functions; ``Config()`` enables every default warning.
    """

    def __init__(self, severities: Optional[Mapping[str, str]] = None,
                 user_rules: Optional[Sequence[Union[UserRule, Mapping[str, str]]]] = None, *,
                 match_limit: Optional[int] = None, depth_limit: Optional[int] = None):
        if severities is not None and not isinstance(severities, Mapping):
            raise TypeError(f"severities must be a mapping of rule id to severity, not "
                            f"{type(severities).__name__}")
        if user_rules is not None and (isinstance(user_rules, (str, bytes, Mapping))
                                       or not isinstance(user_rules, Sequence)):
            raise TypeError(f"user_rules must be a list, not {type(user_rules).__name__}")
        out = ctypes.c_void_p()
        _check_status(lib.boxlint_config_new(ctypes.byref(out), None), "boxlint_config_new")
        self._own(out.value, lib.boxlint_config_free)  # type: ignore[arg-type]
        try:
            for i, r in enumerate(user_rules or ()):
                self._add_rule(r if isinstance(r, UserRule) else self._rule_from(r, i), i)
            for rule_id, sev in (severities or {}).items():
                if not isinstance(rule_id, str):
                    raise TypeError(f"severities keys must be rule ids (str), not "
                                    f"{type(rule_id).__name__}")
                self._set_severity(rule_id, _severity_value(sev, f"severities[{rule_id!r}]"))
            if match_limit or depth_limit:
                lib.boxlint_config_set_limits(self._ptr, int(match_limit or 0),
                                              int(depth_limit or 0))
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _rule_from(obj: Any, i: int) -> UserRule:
        if not isinstance(obj, Mapping):
            raise TypeError(f"user_rules[{i}] must be a UserRule or a dict, not "
                            f"{type(obj).__name__}")
        unknown = set(obj) - {"id", "pattern", "message", "severity", "instruction"}
        if unknown:
            raise ValueError(f"user_rules[{i}]: unknown key {sorted(unknown)[0]!r} (id, severity,"
                             " instruction, pattern, message)")
        if "id" not in obj or "pattern" not in obj:
            raise ValueError(f"user_rules[{i}] needs 'id' and 'pattern'")
        return UserRule(**obj)

    def _add_rule(self, r: UserRule, i: int) -> None:
        for name in ("id", "pattern", "message"):
            if not isinstance(getattr(r, name), str):
                raise TypeError(f"user_rules[{i}].{name} must be a str, not "
                                f"{type(getattr(r, name)).__name__}")
        keep = [r.id.encode(), r.pattern.encode(), r.message.encode()]
        c = _ffi.boxlint_user_rule()
        for (fld, b) in zip(("id", "pattern", "message"), keep):
            getattr(c, fld).ptr = _ffi.address(b)
            getattr(c, fld).len = len(b)
        c.severity = _severity_value(r.severity, f"user_rules[{i}].severity", allow_off=False)
        c.instruction = _keyword_value(r.instruction, f"user_rules[{i}].instruction")
        err = _ffi.boxlint_error()
        st = lib.boxlint_config_add_rule(self._ptr, ctypes.byref(c), ctypes.byref(err))
        if st == _ffi.BOXLINT_ENOMEM:
            raise MemoryError("boxlint: out of memory adding a user rule")
        if st != _ffi.BOXLINT_OK:
            raise ConfigError(f"user_rules[{i}] ({r.id}): {err.message.decode('utf-8', 'replace')}",
                              err.offset, _ffi.status_str(st))

    def _set_severity(self, rule_id: str, sev: int) -> None:
        b = rule_id.encode()
        err = _ffi.boxlint_error()
        st = lib.boxlint_config_set_severity(self._ptr, b, len(b), sev, ctypes.byref(err))
        if st == _ffi.BOXLINT_ENOMEM:
            raise MemoryError("boxlint: out of memory setting a severity")
        if st != _ffi.BOXLINT_OK:
            raise ConfigError(err.message.decode("utf-8", "replace"), err.offset,
                              _ffi.status_str(st))

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> "Config":
        """A config from the ``.boxlint.json`` shape: ``{"rules": {id: severity},
        "user_rules": [{id, severity, instruction, pattern, message}]}``."""
        if not isinstance(obj, Mapping):
            raise TypeError(f"a config must be a dict, not {type(obj).__name__}")
        unknown = set(obj) - {"rules", "user_rules"}
        if unknown:
            raise ValueError(f"unknown key {sorted(unknown)[0]!r} (expected 'rules' or "
                             "'user_rules')")
        return cls(severities=obj.get("rules"), user_rules=obj.get("user_rules"))

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"]) -> "Config":
        """Read a ``.boxlint.json`` file."""
        with open(path, encoding="utf-8") as f:
            return cls.from_dict(json.load(f))

    def severity(self, rule_id: str, default: Optional[Severity] = None) -> Severity:
        """The severity ``rule_id`` has under this config (its default when not overridden;
        ``default`` for rules the library does not know)."""
        info = _rule_info(rule_id)
        d = info.severity if info else (default or "warning")
        b = rule_id.encode()
        with self._use() as p:
            v = lib.boxlint_config_get_severity(p, b, len(b), _ffi.SEVERITY_VALUES[d])
        return _ffi.SEVERITY_NAMES.get(v, "off")

    @property
    def user_rule_ids(self) -> Tuple[str, ...]:
        with self._use() as p:
            n = lib.boxlint_config_rule_count(p)
            return tuple((lib.boxlint_config_rule_id(p, i) or b"").decode() for i in range(n))


# ---------------------------------------------------------------------------------------------
# Reports -> Python objects
# ---------------------------------------------------------------------------------------------

def _diag_from(d: _ffi.boxlint_diag) -> Diagnostic:
    fix = None
    if d.fix:
        f = d.fix.contents
        raw = ctypes.string_at(f.text, f.text_len) if f.text and f.text_len else b""
        fix = Fix(offset=f.offset, length=f.length, text=raw.decode("utf-8", "surrogateescape"),
                  description=_ffi.text(f.description), unsafe=f.safety == _ffi.FIX_UNSAFE)
    return Diagnostic(
        rule=_ffi.text(d.rule) or "", severity=_ffi.SEVERITY_NAMES.get(d.severity, "error"),
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
        out.append(Instruction(index=i, keyword=_ffi.KEYWORDS[ins.keyword] or None
                               if 0 <= ins.keyword < len(_ffi.KEYWORDS) else None,
                               trigger=_ffi.KEYWORDS[ins.trigger] or None
                               if 0 <= ins.trigger < len(_ffi.KEYWORDS) else None,
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


# ---------------------------------------------------------------------------------------------
# Input conversion (TypeError for what the platform would never receive)
# ---------------------------------------------------------------------------------------------

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


def _options(options: Optional[Options], config_ptr: Optional[int],
             what: str = "options") -> _ffi.boxlint_options:
    o = _ffi.new_options(_ffi.boxlint_options, lib.boxlint_options_init)
    if options is not None:
        if not isinstance(options, Options):
            raise TypeError(f"{what} must be a boxlint.Options, not {type(options).__name__}")
        for name in ("max_commands", "max_command_bytes", "cpu_min", "cpu_max", "memory_min",
                     "memory_max"):
            v = getattr(options, name)
            if v is not None:
                if isinstance(v, bool) or not isinstance(v, int):
                    raise TypeError(f"Options.{name} must be an int, not {type(v).__name__}")
                setattr(o, name, v)
        if options.escape is not None:
            if options.escape not in ("\\", "`"):
                raise ValueError("Options.escape must be '\\\\' or '`'")
            o.escape = options.escape.encode()
    o.config = config_ptr
    return o


_DEFAULT_CONFIG: Optional[Config] = None
_DEFAULT_LOCK = threading.Lock()


def _default_config() -> Config:
    """The config of ``config=None``: every warning at its default severity (the command's
    answer without a ``.boxlint.json``). Made once, immutable, shared by every thread."""
    global _DEFAULT_CONFIG
    with _DEFAULT_LOCK:
        if _DEFAULT_CONFIG is None:
            _DEFAULT_CONFIG = Config()
        return _DEFAULT_CONFIG


def _config_use(config: Optional[Config]):
    if config is None:
        config = _default_config()
    if not isinstance(config, Config):
        raise TypeError(f"config must be a boxlint.Config, not {type(config).__name__}")
    return config._use()


# ---------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------

def check_commands(commands: Sequence[str], *, config: Optional[Config] = None,
                   options: Optional[Options] = None) -> Result:
    """Check a template's ``commands`` (a list of Dockerfile instructions, one per string) as
    the platform will read them appended to its base image."""
    encoded = _encode_commands(commands)
    arr = _ffi.spans(encoded)
    with _config_use(config) as cp, _Report() as r:
        o = _options(options, cp)
        _check_status(lib.boxlint_check_commands(r, arr, len(encoded), ctypes.byref(o)),
                      "boxlint_check_commands")
        return Result(tuple(_collect(r)), _instructions(r))


def check_fragment(text: Union[str, bytes], *, config: Optional[Config] = None,
                   options: Optional[Options] = None) -> Result:
    """Check a Dockerfile fragment (the pre-commit use): split into instructions as BuildKit
    does, each checked as one command; positions are file lines and columns."""
    b = _text_bytes(text, "text")
    with _config_use(config) as cp, _Report() as r:
        o = _options(options, cp)
        _check_status(lib.boxlint_check_fragment(r, b, len(b), ctypes.byref(o)),
                      "boxlint_check_fragment")
        return Result(tuple(_collect(r)), _instructions(r), file_relative=True)


def check_template(name: Optional[str] = None, commands: Optional[Sequence[str]] = None,
                   cpu_count: Optional[int] = None, memory_mb: Optional[int] = None,
                   network_policy: PolicyInput = None, config: Optional[Config] = None, *,
                   options: Optional[Options] = None, **extra_fields: Any) -> Result:
    """Check a template exactly as ``client.code_interpreter.templates.create(...)`` would
    send it, plus the ``network_policy`` of ``agents.add_code_interpreter(...)``.

    A field left out (or None) is reported as ``missing-field``; any other keyword argument is
    an unknown field (``unknown-field`` warning with the nearest known key), so
    ``check_template(**json.load(f))`` checks a template file as the CLI does.
    ``cpu_count``/``memory_mb`` that are not integers (2.5) are passed to the library as the
    platform receives them and reported as ``invalid-resources``; a str raises TypeError.
    ``network_policy`` is a dict (``{"type", "allow_out", "deny_out"}``), an SDK NetworkPolicy
    object, or a compiled :class:`NetworkPolicy` (checked again with its own options under
    this call's ``config``).

    ``config`` None uses the built-in defaults (every warning at its default severity), as the
    command does without a ``.boxlint.json``."""
    keep: List[bytes] = []
    tpl = _ffi.boxlint_template()
    if name is not None:
        if not isinstance(name, str):
            raise TypeError(f"name must be a str, not {type(name).__name__}")
        nb = name.encode("utf-8", "surrogateescape")
        keep.append(nb)
        tpl.has_name = 1
        tpl.name.ptr = _ffi.address(nb)
        tpl.name.len = len(nb)
    arr = None
    if commands is not None:
        encoded = _encode_commands(commands)
        keep.extend(encoded)
        arr = _ffi.spans(encoded)
        tpl.has_commands = 1
        tpl.commands = arr
        tpl.ncommands = len(encoded)
    tpl.cpu_count = _number("cpu_count", cpu_count, keep)
    tpl.memory_mb = _number("memory_mb", memory_mb, keep)
    extra = [k.encode() for k in extra_fields]
    keep.extend(extra)
    extra_arr = _ffi.spans(extra)
    tpl.extra_fields = extra_arr
    tpl.nextra_fields = len(extra)
    policy = _policy_input(network_policy)
    with _config_use(config) as cp, _Report() as r:
        o = _options(options, cp)
        _check_status(lib.boxlint_check_template(r, ctypes.byref(tpl), ctypes.byref(o)),
                      "boxlint_check_template")
        instructions = _instructions(r)
        if policy is not None:
            lib.boxlint_policy_free(policy[0].compile(r, *policy[1:], config_ptr=cp))
        return Result(tuple(_collect(r)), instructions)


def validate_template(name: Optional[str] = None, commands: Optional[Sequence[str]] = None,
                      cpu_count: Optional[int] = None, memory_mb: Optional[int] = None,
                      network_policy: PolicyInput = None, config: Optional[Config] = None, *,
                      options: Optional[Options] = None, **extra_fields: Any) -> Result:
    """:func:`check_template`, raising :class:`ValidationError` (``.errors``: every error
    diagnostic) when the platform would reject the template. Returns the result (warnings
    only) otherwise."""
    return check_template(name, commands, cpu_count, memory_mb, network_policy, config,
                          options=options, **extra_fields).raise_for_errors()


# ---------------------------------------------------------------------------------------------
# Python source files and agent bindings
# ---------------------------------------------------------------------------------------------

def check_python(source: Union[str, bytes], *, config: Optional[Config] = None,
                 options: Optional[Options] = None, compat: Optional[str] = None,
                 unmatched: str = "allow", max_entries: Optional[int] = None) -> Result:
    """Check the SDK calls of a Python source file (``templates.create``/``update``,
    ``add_code_interpreter``, ``NetworkPolicy(...)``) whose arguments are literals, as the CLI
    checks a ``.py`` file. Positions are in the file: ``line``/``column`` (code points) at the
    offending character inside the literal, ``offset`` a byte offset into the UTF-8 text;
    ``command`` is the index in its call's ``commands`` (or None), ``path`` the argument
    (``commands[1]``, ``network_policy.allow_out[0]``). Fixes are edits of the file in the
    literal's own syntax: apply them with :meth:`Result.fixed` or :func:`apply_fixes`.

    ``compat``, ``unmatched`` and ``max_entries`` are the policy options of
    :class:`NetworkPolicy`. A file that is not valid Python is not an exception: the result
    holds a single ``python-syntax`` error at the first problem (``ok`` is False and
    ``raise_for_errors()`` raises :class:`ValidationError`), as for any other error of the
    checked text."""
    b = _text_bytes(source, "source")
    _check_policy_args(compat, unmatched, max_entries)
    with _config_use(config) as cp, _Report() as r:
        popts = _policy_options(unmatched, _ffi.COMPAT[compat], max_entries, cp)
        o = _options(options, cp)
        st = lib.boxlint_check_python(r, b, len(b), ctypes.byref(o), ctypes.byref(popts))
        if st != _ffi.BOXLINT_ESYNTAX:  # ESYNTAX: the python-syntax diagnostic is the answer
            _check_status(st, "boxlint_check_python")
        return Result(tuple(_collect(r)), _instructions(r), file_relative=True)


def check_binding(template_id: Any = None, version: Any = None, lifespan_seconds: Any = None,
                  network_policy: PolicyInput = None, config: Optional[Config] = None, *,
                  options: Optional[Options] = None, **extra_fields: Any) -> Result:
    """Check an agent binding as ``client.agents.add_code_interpreter(...)`` sends it:
    ``template_id`` (None: ``missing-field``), ``version`` (an integer >= 1) and
    ``lifespan_seconds`` (an integer > 0; ``unusual-lifespan`` outside a minute to a day), with
    None meaning the SDK's default. Values of the wrong type are findings, not exceptions: a
    ``template_id`` that is not a str, or a number field that is not an int (2.5, "1", True),
    is passed to the library spelt by its repr and reported (``invalid-template-id``,
    ``invalid-version``, ``invalid-lifespan``). Any other keyword argument is an
    ``unknown-field`` warning, so ``check_binding(**json.load(f))`` checks a binding file.
    ``network_policy`` is checked as in :func:`check_template`. Diagnostics have ``command``
    None and ``path`` the field's name."""
    keep: List[bytes] = []
    b = _ffi.boxlint_binding()
    if template_id is not None:
        b.has_template_id = 1
        if isinstance(template_id, str):
            tb = template_id.encode("utf-8", "surrogateescape")
            b.template_id.ptr = _ffi.address(tb)
            b.template_id.len = len(tb)
        else:
            tb = _spell(template_id).encode("utf-8", "surrogateescape")
            b.template_id_not_string = 1
            b.template_text = tb
        keep.append(tb)
    b.version = _binding_number(version, keep)
    b.lifespan_seconds = _binding_number(lifespan_seconds, keep)
    extra = [k.encode("utf-8", "surrogateescape") for k in extra_fields]
    extra_arr = _ffi.spans(extra)
    b.extra_fields = extra_arr
    b.nextra_fields = len(extra)
    policy = _policy_input(network_policy)
    with _config_use(config) as cp, _Report() as r:
        o = _options(options, cp)
        _check_status(lib.boxlint_check_binding(r, ctypes.byref(b), ctypes.byref(o)),
                      "boxlint_check_binding")
        if policy is not None:
            lib.boxlint_policy_free(policy[0].compile(r, *policy[1:], config_ptr=cp))
        return Result(tuple(_collect(r)))


# ---------------------------------------------------------------------------------------------
# Fixes
# ---------------------------------------------------------------------------------------------

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
        data = ctypes.string_at(out.value, out_len.value) if out_len.value else b""
    finally:
        lib.boxlint_buffer_free(out, None)
    flags = tuple(bool(applied[i]) for i in range(n))
    if isinstance(text, str):
        return FixResult(data.decode("utf-8", "surrogateescape"), flags)
    return FixResult(data, flags)


# ---------------------------------------------------------------------------------------------
# NetworkPolicy
# ---------------------------------------------------------------------------------------------

class _PolicySpec:
    """A policy's fields, type-checked and encoded for boxlint_policy_spec."""

    def __init__(self, type: Any, allow_out: Any, deny_out: Any):
        if type is not None and not isinstance(type, str):
            raise TypeError(f"network_policy.type must be a str ('disabled', 'open', "
                            f"'filtered'), not {_typename(type)}")
        self.type = None if type is None else type.encode("utf-8", "surrogateescape")
        self.allow = _encode_commands([] if allow_out is None else allow_out,
                                      "network_policy.allow_out")
        self.deny = _encode_commands([] if deny_out is None else deny_out,
                                     "network_policy.deny_out")

    @classmethod
    def coerce(cls, p: Any) -> "_PolicySpec":
        return cls(*_policy_fields(p))

    def compile(self, report: Optional[int], unmatched: Optional[str], compat: int,
                max_entries: Optional[int], *, config_ptr: Optional[int] = None) -> Optional[int]:
        """boxlint_policy_new: the policy pointer (None when it has errors); its warnings at
        the severities of the config ``config_ptr`` (None: their defaults)."""
        spec = _ffi.boxlint_policy_spec()
        if self.type is not None:
            spec.type.ptr = _ffi.address(self.type)
            spec.type.len = len(self.type)
        allow, deny = _ffi.spans(self.allow), _ffi.spans(self.deny)
        spec.allow_out, spec.n_allow = allow, len(self.allow)
        spec.deny_out, spec.n_deny = deny, len(self.deny)
        o = _policy_options(unmatched, compat, max_entries, config_ptr)
        out = ctypes.c_void_p()
        st = lib.boxlint_policy_new(ctypes.byref(out), report, ctypes.byref(spec),
                                    ctypes.byref(o), None)
        if st == _ffi.BOXLINT_ESYNTAX:
            return None
        _check_status(st, "boxlint_policy_new")
        return out.value


def _typename(v: Any) -> str:
    return type(v).__name__


def _check_policy_args(compat: Any, unmatched: Any, max_entries: Any) -> None:
    """TypeError/ValueError for policy options the library would not understand."""
    if compat is not None and not isinstance(compat, str):
        raise TypeError(f"compat must be None or 'e2b', not {_typename(compat)}")
    if compat not in _ffi.COMPAT:
        raise ValueError(f"compat must be None or 'e2b', not {compat!r}")
    if not isinstance(unmatched, str):
        raise TypeError(f"unmatched must be 'allow' or 'deny', not {_typename(unmatched)}")
    if unmatched not in _ffi.UNMATCHED:
        raise ValueError(f"unmatched must be 'allow' or 'deny', not {unmatched!r}")
    if max_entries is not None and (isinstance(max_entries, bool)
                                    or not isinstance(max_entries, int)):
        raise TypeError(f"max_entries must be an int, not {_typename(max_entries)}")


def _policy_options(unmatched: Optional[str], compat: int, max_entries: Optional[int],
                    config_ptr: Optional[int] = None) -> _ffi.boxlint_policy_options:
    o = _ffi.new_options(_ffi.boxlint_policy_options, lib.boxlint_policy_options_init)
    o.config = config_ptr
    if unmatched is not None:
        o.unmatched = _ffi.UNMATCHED[unmatched]
    o.compat = compat
    if max_entries is not None:
        o.max_entries = max_entries
    return o


def _policy_fields(p: Any) -> Tuple[Any, Any, Any]:
    """(type, allow_out, deny_out) of a dict or of an object with those attributes (the SDK's
    NetworkPolicy model)."""
    if isinstance(p, Mapping):
        unknown = set(p) - {"type", "allow_out", "deny_out"}
        if unknown:
            raise TypeError(f"network_policy: unknown key {sorted(map(str, unknown))[0]!r} "
                            "(type, allow_out, deny_out)")
        return p.get("type"), p.get("allow_out"), p.get("deny_out")
    if all(hasattr(p, a) for a in ("type", "allow_out", "deny_out")):
        return p.type, p.allow_out, p.deny_out
    raise TypeError(f"network_policy must be a dict, a NetworkPolicy or None, not "
                    f"{_typename(p)}")


def _policy_input(p: PolicyInput) -> Optional[Tuple["_PolicySpec", Optional[str], int,
                                                   Optional[int]]]:
    """The spec and options (unmatched, compat bits, max_entries) of a ``network_policy``
    argument: a compiled :class:`NetworkPolicy` keeps its own options; None for None."""
    if isinstance(p, NetworkPolicy):
        with p._use():  # a closed policy raises ClosedError here
            return p._spec, p.unmatched, _ffi.COMPAT[p.compat], p._max_entries
    if p is None:
        return None
    return _PolicySpec.coerce(p), None, 0, None


class NetworkPolicy(_Owned):
    """A NetworkPolicy (``type``: "disabled" (default), "open" or "filtered"; ``allow_out`` /
    ``deny_out``: IPs, CIDRs, domains, ``*.`` wildcards, ``*``, ``ALL_TRAFFIC``) validated and
    compiled once. Allow beats deny; under "filtered" a destination matched by neither list
    gets ``unmatched`` ("allow": E2B's enforcement, or "deny"). ``compat="e2b"`` adds E2B's own
    rejections.

    Raises :class:`PolicyError` (``.errors``, each with ``detail`` for invalid entries) when the
    policy has errors; warnings are in ``.diagnostics``, at the severities of ``config`` (None:
    their defaults; a warning the config switches off is not there). Immutable: ``decide()``
    may be called from any number of threads at once. Free it with ``close()`` or a ``with``
    block."""

    def __init__(self, type: Optional[str] = None, allow_out: Sequence[str] = (),
                 deny_out: Sequence[str] = (), compat: Optional[str] = None,
                 unmatched: str = "allow", *, max_entries: Optional[int] = None,
                 config: Optional[Config] = None):
        spec = _PolicySpec(type, allow_out, deny_out)
        _check_policy_args(compat, unmatched, max_entries)
        with _config_use(config) as cp, _Report() as r:
            ptr = spec.compile(r, unmatched, _ffi.COMPAT[compat], max_entries, config_ptr=cp)
            diags = _collect(r)
        if ptr is None:
            raise PolicyError(diags)
        self._diagnostics: Tuple[Diagnostic, ...] = tuple(diags)
        self._spec = spec
        self._max_entries = max_entries
        self._own(ptr, lib.boxlint_policy_free)
        self.compat = compat
        self.unmatched = unmatched
        self.type: str = lib.boxlint_policy_type_str(lib.boxlint_policy_get_type(ptr)).decode()
        self.allow_out: Tuple[str, ...] = self._entries(ptr, _ffi.LIST_ALLOW_OUT)
        self.deny_out: Tuple[str, ...] = self._entries(ptr, _ffi.LIST_DENY_OUT)

    @classmethod
    def from_dict(cls, obj: Any, **kwargs: Any) -> "NetworkPolicy":
        """Compile the SDK's dict (``{"type", "allow_out", "deny_out"}``) or its NetworkPolicy
        model; ``kwargs`` are ``compat``, ``unmatched``, ``max_entries``."""
        t, a, d = _policy_fields(obj)
        return cls(t, () if a is None else a, () if d is None else d, **kwargs)

    @staticmethod
    def _entries(ptr: int, which: int) -> Tuple[str, ...]:
        return tuple(_ffi.span_bytes(lib.boxlint_policy_entry_text(ptr, which, i)).decode()
                     for i in range(lib.boxlint_policy_entry_count(ptr, which)))

    @property
    def diagnostics(self) -> Tuple[Diagnostic, ...]:
        """Warnings found while compiling (allow-without-effect, duplicate-entry...)."""
        return self._diagnostics

    def decide(self, host: Optional[str] = None, ip: Optional[str] = None) -> Decision:
        """The verdict for a destination given by host name (SNI/Host, no port), address, or
        both. A host-only query that depends on the address answers "unknown" (reason
        "needs-ip"): resolve it and ask again with ``ip``."""
        if host is None and ip is None:
            raise ValueError("decide() needs host=, ip= or both")
        args = []
        for label, v in (("host", host), ("ip", ip)):
            if v is None:
                args += [None, 0]
            elif isinstance(v, str):
                b = v.encode("utf-8", "surrogateescape")
                args += [b, len(b)]
            else:
                raise TypeError(f"{label} must be a str, not {_typename(v)}")
        out = _ffi.boxlint_decision()
        with self._use() as p:
            _check_status(lib.boxlint_policy_decide(ctypes.byref(out), p, *args),
                          "boxlint_policy_decide")
            entry = _ffi.span_bytes(out.entry).decode() if out.entry.ptr else None
        lst = lib.boxlint_policy_list_str(out.list)
        return Decision(verdict=lib.boxlint_verdict_str(out.verdict).decode(),
                        reason=lib.boxlint_decision_reason_str(out.reason).decode(),
                        list=lst.decode() if lst else None,
                        index=None if out.index < 0 else int(out.index), entry=entry,
                        by_name=bool(out.by_name))

    def emit(self, format: str, *, table: str = "boxlint", iifname: Optional[str] = None,
             resolvers: Sequence[str] = ()) -> str:
        """The rules that enforce this policy (the README's "Enforcing a policy"): ``format``
        "nftables" (a script for ``nft -f``) or "dnsmasq" (the configuration whose nftset= lines
        fill the script's sets).
        ``iifname``: filter what a host forwards from that interface instead of what the
        namespace sends; ``resolvers``: upstream DNS servers kept reachable (and dnsmasq's
        server= lines). Raises :class:`PolicyError` with the ``unenforceable-entry`` errors
        when no configuration enforces the policy exactly; ValueError for a bad option."""
        fmts = {"nftables": 0, "dnsmasq": 1}
        if format not in fmts:
            raise ValueError(f"format must be 'nftables' or 'dnsmasq', not {format!r}")
        if isinstance(resolvers, (str, bytes)):
            raise TypeError("resolvers must be a sequence of addresses, not one string")
        opts = _ffi.new_options(_ffi.boxlint_emit_options, lib.boxlint_emit_options_init)
        keep = [table.encode(), iifname.encode() if iifname is not None else None]
        res = (ctypes.c_char_p * max(len(resolvers), 1))(*[r.encode() for r in resolvers])
        opts.table, opts.iifname = keep[0], keep[1]
        opts.resolvers = ctypes.cast(res, ctypes.POINTER(ctypes.c_char_p))
        opts.nresolvers = len(resolvers)
        out, out_len = ctypes.c_void_p(), ctypes.c_size_t()
        with _Report() as r, self._use() as p:
            st = lib.boxlint_policy_emit(p, fmts[format], ctypes.byref(opts), r, ctypes.byref(out),
                                         ctypes.byref(out_len), None)
            diags = _collect(r)
        if st == _ffi.BOXLINT_EINVAL:
            raise ValueError("emit: table and iifname take letters, digits, '_' and '-' (an "
                             "interface name also '.', at most 15 bytes); resolvers, addresses")
        _check_status(st, "boxlint_policy_emit")
        if not out.value:
            raise PolicyError(diags)
        try:
            return ctypes.string_at(out.value, out_len.value).decode()
        finally:
            lib.boxlint_buffer_free(out, None)

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"allow_out={list(self.allow_out)!r}, " \
            f"deny_out={list(self.deny_out)!r}"
        return f"NetworkPolicy(type={getattr(self, 'type', None)!r}, {state})"


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------

def _info(r: _ffi.boxlint_rule_info) -> RuleInfo:
    return RuleInfo(id=_ffi.text(r.id) or "", severity=_ffi.SEVERITY_NAMES.get(r.severity, ""),
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
    r = rule(rule_id)

    def ind(s: str) -> str:
        lines = s.split("\n")
        if lines[-1] == "":
            lines.pop()
        return "".join(f"    {line}\n" for line in lines)

    return (f"{r.id} ({r.severity}): {r.summary}\n\n{r.description}\n\nBad:\n{ind(r.bad)}"
            f"Good:\n{ind(r.good)}")


# ---------------------------------------------------------------------------------------------
# Files, as the command checks them (_file.py)
# ---------------------------------------------------------------------------------------------

from ._file import FileResult, check_file  # noqa: E402  (needs the types above)

__all__ += ["check_file", "FileResult"]

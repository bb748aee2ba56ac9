"""Configuration: :class:`Config` (severities, user rules) and the options of a check."""
from __future__ import annotations

import ctypes
import json
import os
import threading
from typing import Any, Mapping, Optional, Sequence, Tuple, Union

from . import _ffi
from ._errors import ConfigError, _check_status
from ._ffi import lib
from ._owned import _Owned
from ._rules import _rule_info
from ._types import Options, Severity, UserRule


def _severity_value(sev: Any, what: str, allow_off: bool = True) -> int:
    if not isinstance(sev, str):
        raise TypeError(f"{what} must be a str ('error', 'warning', 'info'"
                        f"{', ' + repr('off') if allow_off else ''}), not {type(sev).__name__}")
    v = _ffi.severity_value(sev.lower())
    if v is None or (v == _ffi.SEVERITY_OFF and not allow_off):
        raise ValueError(f"{what} must be 'error', 'warning', 'info'"
                         f"{' or ' + repr('off') if allow_off else ''}, not {sev!r}")
    return v


def _keyword_value(name: Optional[str], what: str) -> int:
    if name is None or name in ("", "*"):
        return 0
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a str such as 'RUN', not {type(name).__name__}")
    k = _ffi.keyword_value(name)
    if not k:
        raise ValueError(f"{what}: unknown instruction {name!r}")
    return k


class Config(_Owned):
    """Which warnings run at which severity, plus user rules (PCRE2), compiled once.

    ``severities`` maps rule ids to "error", "warning", "info" or "off" (errors of the
    platform cannot be switched off or lowered). ``user_rules`` are :class:`UserRule` objects
    or dicts with the same keys. Immutable once constructed: share it between threads freely.
    Use it as ``config=`` of the check functions; ``Config()`` enables every default warning.
    """

    def __init__(self, severities: Optional[Mapping[str, str]] = None,
                 user_rules: Optional[Sequence[Union[UserRule, Mapping[str, str]]]] = None, *,
                 match_limit: Optional[int] = None, depth_limit: Optional[int] = None,
                 target_version: Optional[str] = None):
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
            if target_version is not None:
                self._set_target(target_version)
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _rule_from(obj: Any, i: int) -> UserRule:
        if not isinstance(obj, Mapping):
            raise TypeError(f"user_rules[{i}] must be a UserRule or a dict, not "
                            f"{type(obj).__name__}")
        unknown = set(obj) - set(_ffi.USER_RULE_FIELDS)
        if unknown:
            raise ValueError(f"user_rules[{i}]: unknown key {sorted(unknown)[0]!r} "
                             f"({', '.join(_ffi.USER_RULE_FIELDS)})")
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

    def _set_target(self, version: Any) -> None:
        """``target_version``: "py38" ... "py314", the Python version .py files are read as."""
        if not isinstance(version, str):
            raise TypeError(f"target_version must be a str such as 'py312', not "
                            f"{type(version).__name__}")
        minor = ctypes.c_int(0)
        raw = version.encode("utf-8")
        if lib.boxlint_python_version_parse(raw, len(raw), ctypes.byref(minor)) != _ffi.BOXLINT_OK:
            raise ValueError(f"target_version must be 'py38', 'py39', 'py310', 'py311', "
                             f"'py312', 'py313' or 'py314', not {version!r}")
        lib.boxlint_config_set_python_minor(self._ptr, minor.value)

    @property
    def target_version(self) -> Optional[str]:
        """The Python version Python files are read as ("py38" ... "py314"), or None: 3.14."""
        minor = lib.boxlint_config_get_python_minor(self._ptr)
        return f"py3{minor}" if minor else None

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
        unknown = set(obj) - {"rules", "user_rules", "target-version"}
        if unknown:
            raise ValueError(f"unknown key {sorted(unknown)[0]!r} (expected 'rules', "
                             "'user_rules' or 'target-version')")
        return cls(severities=obj.get("rules"), user_rules=obj.get("user_rules"),
                   target_version=obj.get("target-version"))

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
            v = lib.boxlint_config_get_severity(p, b, len(b), _ffi.severity_value(d))
        return _ffi.severity_name(v)

    @property
    def user_rule_ids(self) -> Tuple[str, ...]:
        with self._use() as p:
            n = lib.boxlint_config_rule_count(p)
            return tuple((lib.boxlint_config_rule_id(p, i) or b"").decode() for i in range(n))


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
            if not _ffi.escape_ok(options.escape):
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

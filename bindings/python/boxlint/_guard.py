"""The runtime guard: an SDK client whose template, binding and policy calls are checked with
the library, on the values the program actually passes, before anything is sent.

Three layers, each for what the one before cannot see: the ``boxlint`` command and the editor
read the source (early feedback, but no static reader sees a value built at run time or hidden
by reflection); :func:`guard` checks the values a program you trust really passes; the
platform's server checks them again, with the same library, for clients that cannot be trusted.
The guard is a wrapper in the caller's own process: code that goes around it (keeps the
unguarded client, digs the target out of the proxy, imports the SDK again) is not checked by it.
"""
from __future__ import annotations

import inspect
import os
import warnings
from collections.abc import Mapping
from dataclasses import replace
from inspect import Parameter, Signature
from typing import (Any, Callable, Dict, List, Optional, Sequence, Tuple, TypeVar, Union,
                    cast)

from ._checks import _check_template, check_binding
from ._config import Config, _config_use
from ._errors import ValidationError
from ._ffi import lib
from ._policy import _PolicySpec
from ._report import _collect, _Report
from ._types import Diagnostic

__all__ = ["guard", "guard_policy", "TemplateWarning", "WarningHandler", "ConfigInput"]

T = TypeVar("T")

#: A callback given every finding below error severity (warnings, infos) of a checked call.
WarningHandler = Callable[[Diagnostic], Any]
#: What ``config=`` takes: None (the defaults), a :class:`Config`, a path to a
#: ``.boxlint.json``, or its parsed dict.
ConfigInput = Union[None, Config, str, "os.PathLike[str]", Mapping]


class TemplateWarning(UserWarning):
    """A warning (or info) finding of a guarded call, given to :func:`warnings.warn` when no
    ``on_warning`` callback is set. ``diagnostic`` is the :class:`Diagnostic`."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(f"{_place(diagnostic)}: {diagnostic.severity}: {diagnostic.summary()}")
        self.diagnostic = diagnostic


def _place(d: Diagnostic) -> str:
    if d.command is not None:
        return f"commands[{d.command}]"
    return d.path or "the call"


# -- the SDK's documented signatures (used when the wrapped method's cannot be read) ---------

def _sig(*names: str, required: int) -> Signature:
    return Signature([Parameter(n, Parameter.POSITIONAL_OR_KEYWORD,
                                **({} if i < required else {"default": None}))
                      for i, n in enumerate(names)])


_CREATE, _UPDATE, _BIND, _POLICY = ("templates.create", "templates.update",
                                    "add_code_interpreter", "NetworkPolicy")
_SEED_SIGNATURES: Dict[str, Signature] = {
    _CREATE: _sig("name", "commands", "cpu_count", "memory_mb", required=4),
    _UPDATE: _sig("template_id", "commands", required=2),
    _BIND: _sig("agent_id", "template_id", "version", "lifespan_seconds", "network_policy",
                required=2),
    _POLICY: _sig("type", "allow_out", "deny_out", required=0),
}
_OWNER = {_CREATE: "templates.create", _UPDATE: "templates.update",
          _BIND: "agents.add_code_interpreter", _POLICY: "NetworkPolicy"}
#: The required arguments whose absence is an error of the call itself (the others are
#: missing fields, which the library reports), as the library's Python check has it.
_SIGNATURE_REQUIRED = {_CREATE: (), _UPDATE: ("template_id", "commands"), _BIND: ("agent_id",),
                       _POLICY: ()}


def _signature(fn: Any, call: str) -> Signature:
    """The wrapped method's own signature when it can be read and names its parameters (not a
    bare ``*args, **kwargs`` wrapper), else the SDK's documented one."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return _SEED_SIGNATURES[call]
    if not any(p.kind in (Parameter.POSITIONAL_ONLY, Parameter.POSITIONAL_OR_KEYWORD,
                          Parameter.KEYWORD_ONLY) for p in sig.parameters.values()):
        return _SEED_SIGNATURES[call]
    return sig


def _error(rule: str, message: str, path: Optional[str] = None,
           hint: Optional[str] = None, severity: str = "error") -> Diagnostic:
    return Diagnostic(rule=rule, severity=severity, command=None, line=0, column=0, end_line=0,
                      end_column=0, offset=0, path=path, message=message, hint=hint, fix=None,
                      detail=None)


def _quote(s: str) -> str:
    return s if len(s) <= 40 else s[:40] + "..."


def _distance(a: str, b: str) -> int:
    d = list(range(len(b) + 1))
    for x in range(1, len(a) + 1):
        prev, d[0] = d[0], x
        for j in range(1, len(b) + 1):
            t = d[j]
            d[j] = min(prev + (a[x - 1] != b[j - 1]), d[j] + 1, d[j - 1] + 1)
            prev = t
    return d[len(b)]


def _unknown_keyword(call: str, kw: str, names: Sequence[str]) -> Diagnostic:
    q = _quote(kw)
    other = next((c for c, s in _SEED_SIGNATURES.items() if c != call and kw in s.parameters),
                 None)
    hint = None
    if other is not None:
        hint = f"'{q}' is an argument of {_OWNER[other]}, not of {call}"
    elif len(kw) <= 30:
        best = min(((_distance(kw, n), i, n) for i, n in enumerate(names) if len(n) <= 30),
                   default=None)
        if best is not None and best[0] <= 2:
            hint = f'did you mean "{best[2]}"?'
    return _error("unknown-argument", f"{call}() got an unexpected keyword argument '{q}' "
                  "(the SDK raises TypeError)", hint=hint)


def _bind(call: str, sig: Signature, args: Tuple[Any, ...],
          kwargs: Mapping[str, Any]) -> Tuple[Dict[str, Any], List[Diagnostic]]:
    """The arguments by parameter name, as Python binds them, and an ``unknown-argument`` (or
    ``missing-field``) error for each binding Python would refuse with TypeError: too many
    positional arguments, an unknown keyword (one only a ``**kwargs`` would take included: the
    platform has no such field), an argument given twice, a required one missing. A parameter
    left out takes the signature's default, unless that is None."""
    params = list(sig.parameters.values())
    positional = [p for p in params
                  if p.kind in (Parameter.POSITIONAL_ONLY, Parameter.POSITIONAL_OR_KEYWORD)]
    star = any(p.kind == Parameter.VAR_POSITIONAL for p in params)
    by_kw = {p.name: p for p in params
             if p.kind in (Parameter.POSITIONAL_OR_KEYWORD, Parameter.KEYWORD_ONLY)}
    bound: Dict[str, Any] = {}
    diags: List[Diagnostic] = []
    for i, a in enumerate(args):
        if i < len(positional):
            bound[positional[i].name] = a
        elif not star:
            diags.append(_error("unknown-argument", f"{call}() takes {len(positional)} "
                                f"positional arguments but {i + 1} were given (the SDK raises "
                                "TypeError)"))
    for k, v in kwargs.items():
        if k not in by_kw:
            diags.append(_unknown_keyword(call, k, [p.name for p in params
                                                    if p.kind not in (Parameter.VAR_POSITIONAL,
                                                                      Parameter.VAR_KEYWORD)]))
        elif k in bound:
            diags.append(_error("unknown-argument", f"{call}() got multiple values for "
                                f"argument '{k}' (the SDK raises TypeError)"))
        else:
            bound[k] = v
    for p in params:  # a default the SDK fills in is what the platform receives (None: absent)
        if p.name not in bound and p.default is not Parameter.empty and p.default is not None \
                and p.kind not in (Parameter.VAR_POSITIONAL, Parameter.VAR_KEYWORD):
            bound[p.name] = p.default
    for name in _SIGNATURE_REQUIRED[call]:
        p = sig.parameters.get(name)
        if p is not None and p.default is Parameter.empty and name not in bound:
            diags.append(_error("missing-field", f"{call}() is missing the required argument "
                                f"'{name}' (the SDK raises TypeError)"))
    return bound, diags


# -- values as the platform receives them -------------------------------------------------------

def _raw_str(v: Any) -> str:
    """The text a str (or a str subclass) holds, whatever its methods say: what a JSON encoder
    sends, not what an overridden ``__str__`` or ``__iter__`` would show."""
    return str.__str__(v)


def _raw_items(v: Any) -> Optional[List[Any]]:
    """The elements a list or tuple (or a subclass) holds, read without its own methods; None
    for anything else (a generator, a set, a str...)."""
    if isinstance(v, list):
        return list.__getitem__(v, slice(None))
    if isinstance(v, tuple):
        return list(tuple.__getitem__(v, slice(None)))
    return None


def _two_faced(path: str, what: str) -> Diagnostic:
    return _error("invalid-argument-type", f"{path} is a {what} subclass whose own methods "
                  "show other values than it holds: what the SDK would send cannot be known",
                  path, hint=f"pass a plain {what}")


def _agrees(v: Any, raw: Any, path: str, diags: List[Diagnostic]) -> bool:
    """For a subclass of str, list, tuple or dict: True when what its own methods show (``str()``,
    iteration, ``items()``) is what it holds, so that the SDK, however it reads the value, sends
    what was checked; else an error in ``diags``. Plain types always agree."""
    if type(v) in (str, list, tuple, dict):
        return True
    try:
        if isinstance(v, str):
            seen: Any = str(v)
            ok = type(seen) is str and seen == raw
            what = "str"
        elif isinstance(v, dict):
            pairs = list(v.items())
            ok = len(pairs) == len(raw) and all(k in raw and raw[k] is x for k, x in pairs) \
                and all(v.get(k) is raw[k] and v[k] is raw[k] for k in raw)
            what = "dict"
        else:
            seen = list(iter(v))
            ok = len(seen) == len(raw) and all(a is b for a, b in zip(seen, raw)) \
                and len(v) == len(raw)
            what = "list" if isinstance(v, list) else "tuple"
    except Exception:  # noqa: BLE001 (a method that raises shows nothing to trust)
        ok, what = False, type(v).__mro__[1].__name__
    if not ok:
        diags.append(_two_faced(path, what))
    return ok


def _wrong_type(path: str, v: Any, want: str) -> Diagnostic:
    tail = ", not bytes" if isinstance(v, (bytes, bytearray)) else ""
    return _error("invalid-argument-type", f"{path} must be {want}{tail}", path)


def _str_list(path: str, v: Any, diags: List[Diagnostic]) -> Tuple[List[str], List[int]]:
    """The strings of a list field and their indexes; a wrong type is an error in ``diags``."""
    items = _raw_items(v)
    if items is None:
        diags.append(_wrong_type(path, v, "a list of strings"))
        return [], []
    _agrees(v, items, path, diags)
    out, where = [], []
    for i, e in enumerate(items):
        if isinstance(e, str):
            raw = _raw_str(e)
            _agrees(e, raw, f"{path}[{i}]", diags)
            out.append(raw)
            where.append(i)
        else:
            diags.append(_wrong_type(f"{path}[{i}]", e, "a string"))
    return out, where


_POLICY_FIELDS = ("type", "allow_out", "deny_out")


def _policy_value(v: Any, prefix: str,
                  diags: List[Diagnostic]) -> Optional[Dict[str, Any]]:
    """A network policy (a dict, the SDK's NetworkPolicy object or a compiled
    :class:`boxlint.NetworkPolicy`: anything with ``type``/``allow_out``/``deny_out``) as plain
    values, or None when a field has the wrong type (the errors are in ``diags``)."""
    where = prefix.rstrip(".") or "network_policy"
    if isinstance(v, Mapping):
        raw = dict(dict.items(v)) if isinstance(v, dict) else dict(v.items())
        if isinstance(v, dict):
            _agrees(v, raw, where, diags)
        for k in raw:
            if k not in _POLICY_FIELDS:
                diags.append(_error("unknown-field", f"unknown field \"{_quote(str(k))}\" in "
                                    f"{where}: the platform takes type, allow_out and deny_out",
                                    f"{prefix}{k}", severity="warning"))
        fields = [raw.get(f) for f in _POLICY_FIELDS]
    elif all(hasattr(v, f) for f in _POLICY_FIELDS):
        fields = [getattr(v, f) for f in _POLICY_FIELDS]
    else:
        diags.append(_wrong_type(where, v, "a dict or a NetworkPolicy"))
        return None
    n = len(diags)
    t, allow, deny = fields
    if t is not None and not isinstance(t, str):
        diags.append(_wrong_type(f"{prefix}type", t, "a string"))
    out: Dict[str, Any] = {"type": None if not isinstance(t, str) else _raw_str(t)}
    if isinstance(t, str):
        _agrees(t, out["type"], f"{prefix}type", diags)
    for name, lst in (("allow_out", allow), ("deny_out", deny)):
        out[name] = [] if lst is None else _str_list(f"{prefix}{name}", lst, diags)[0]
    return out if len(diags) == n else None


def _check_policy(fields: Dict[str, Any], config: Optional[Config]) -> List[Diagnostic]:
    """A NetworkPolicy on its own, as the library compiles it (paths
    ``network_policy.allow_out[0]``)."""
    spec = _PolicySpec(fields["type"], fields["allow_out"], fields["deny_out"])
    with _config_use(config) as cp, _Report() as r:
        ptr = spec.compile(r, None, 0, None, config_ptr=cp)
        if ptr is not None:
            lib.boxlint_policy_free(ptr)
        return _collect(r)


def _check(call: str, bound: Dict[str, Any], config: Optional[Config]) -> List[Diagnostic]:
    """The findings of one call's values (the arguments already bound by name)."""
    diags: List[Diagnostic] = []
    if call == _POLICY:
        # paths as in a request: the policy is sent as a binding's network_policy
        fields = _policy_value({k: bound.get(k) for k in _POLICY_FIELDS}, "network_policy.",
                               diags)
        return diags + (_check_policy(fields, config) if fields is not None else [])
    if call == _BIND:
        np = bound.get("network_policy")
        policy = None if np is None else _policy_value(np, "network_policy.", diags)
        # a policy with wrong types is left out: the rest of the binding is still checked
        r = check_binding(bound.get("template_id"), bound.get("version"),
                          bound.get("lifespan_seconds"), policy, config)
        return diags + list(r.diagnostics)
    update = call == _UPDATE
    name_key = "template_id" if update else "name"
    name = bound.get(name_key)
    if name is not None and not isinstance(name, str):
        diags.append(_wrong_type(name_key, name, "a string"))
        name = None
    elif name is not None:
        raw_name = _raw_str(name)
        _agrees(name, raw_name, name_key, diags)
        name = raw_name
    cmds: Optional[List[str]] = None
    index: List[int] = []
    if bound.get("commands") is not None:
        cmds, index = _str_list("commands", bound["commands"], diags)
        if _raw_items(bound["commands"]) is None:
            cmds = None
    r = _check_template(name, cmds, bound.get("cpu_count"), bound.get("memory_mb"), None,
                        config, None, (), spell_numbers=True)
    for d in r.diagnostics:
        if update and d.rule == "missing-field":
            continue  # an update sends only template_id and commands: nothing else is missing
        if name is None and name_key in bound and d.path == "name" and d.rule == "missing-field":
            continue  # the name had the wrong type: said once
        if cmds is None and "commands" in bound and d.path == "commands" and \
                d.rule == "missing-field":
            continue
        if d.command is not None and d.command < len(index):
            d = replace(d, command=index[d.command])  # back to the caller's index
        if update and d.path == "name":
            d = replace(d, path="template_id")
        diags.append(d)
    return diags


# -- the guard ----------------------------------------------------------------------------------

class _Settings:
    """What one guard checks with: immutable once made (shared by its proxies and threads)."""
    __slots__ = ("config", "on_warning", "source")

    def __init__(self, config: Optional[Config], on_warning: Optional[WarningHandler],
                 source: Any):
        self.config = config
        self.on_warning = on_warning
        self.source = source  # what guard() was given as config (to tell equal guards apart)

    def run(self, call: str, sig: Signature, args: Tuple[Any, ...],
            kwargs: Mapping[str, Any]) -> None:
        """Check one call: raise ValidationError on an error, report the rest."""
        bound, diags = _bind(call, sig, args, kwargs)
        diags += _check(call, bound, self.config)
        if any(d.severity == "error" for d in diags):
            raise ValidationError(diags)
        for d in diags:
            if self.on_warning is not None:
                self.on_warning(d)
            else:
                # the caller of the guarded method: run <- wrapper <- caller
                warnings.warn(TemplateWarning(d), stacklevel=3)


def _load_config(config: ConfigInput) -> Optional[Config]:
    if config is None or isinstance(config, Config):
        return config
    if isinstance(config, (str, os.PathLike)):
        return Config.load(config)
    if isinstance(config, Mapping):
        return Config.from_dict(config)
    raise TypeError(f"config must be None, a Config, a path or a dict, not "
                    f"{type(config).__name__}")


def _checked(method: Any, call: str, settings: _Settings) -> Any:
    """``method`` checked before it runs (an ``async def`` stays one: the check runs when the
    coroutine starts, and the SDK's method is not even called when it fails)."""
    sig = _signature(method, call)
    fn = getattr(method, "__func__", method)
    if inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(method):
        async def acall(*args: Any, **kwargs: Any) -> Any:
            settings.run(call, sig, args, kwargs)
            return await method(*args, **kwargs)
        wrapper: Any = acall
    else:
        def scall(*args: Any, **kwargs: Any) -> Any:
            settings.run(call, sig, args, kwargs)
            return method(*args, **kwargs)
        wrapper = scall
    for a in ("__name__", "__qualname__", "__doc__", "__module__"):
        try:
            setattr(wrapper, a, getattr(method, a))
        except (AttributeError, TypeError):
            pass
    wrapper.__signature__ = sig  # no __wrapped__: nothing should unwrap to the unchecked call
    wrapper._boxlint_guarded = True
    return wrapper


#: For each proxy kind, the attributes that lead to a checked call: another proxy's kind, or
#: the call's name.
_ROUTES: Dict[str, Dict[str, Tuple[str, str]]] = {
    "client": {"code_interpreter": ("proxy", "code_interpreter"), "agents": ("proxy", "agents")},
    "code_interpreter": {"templates": ("proxy", "templates")},
    "templates": {"create": ("call", _CREATE), "update": ("call", _UPDATE)},
    "agents": {"add_code_interpreter": ("call", _BIND)},
}


class _Proxy:
    """Forwards every attribute to the wrapped object, untouched, except the few on the way to
    a checked call. Holds no state besides what it wraps: attributes are looked up on the
    target at each access (so a client that replaces its namespaces is still guarded)."""
    __slots__ = ("_boxlint_target", "_boxlint_settings", "_boxlint_kind")

    def __init__(self, target: Any, settings: _Settings, kind: str):
        object.__setattr__(self, "_boxlint_target", target)
        object.__setattr__(self, "_boxlint_settings", settings)
        object.__setattr__(self, "_boxlint_kind", kind)

    def __getattr__(self, name: str) -> Any:
        target = object.__getattribute__(self, "_boxlint_target")
        value = getattr(target, name)
        route = _ROUTES[object.__getattribute__(self, "_boxlint_kind")].get(name)
        if route is None:
            return value
        settings = object.__getattribute__(self, "_boxlint_settings")
        if route[0] == "proxy":
            return _Proxy(value, settings, route[1])
        return _checked(value, route[1], settings)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(object.__getattribute__(self, "_boxlint_target"), name, value)

    def __delattr__(self, name: str) -> None:
        delattr(object.__getattribute__(self, "_boxlint_target"), name)

    def __dir__(self) -> List[str]:
        return dir(object.__getattribute__(self, "_boxlint_target"))

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # isinstance(guarded, BudClient) holds
        return type(object.__getattribute__(self, "_boxlint_target"))

    def __repr__(self) -> str:
        return f"<guarded {object.__getattribute__(self, '_boxlint_target')!r}>"

    # `with BudClient() as c` / `async with AsyncBudClient() as c`: the guarded client is bound
    def __enter__(self) -> Any:
        got = object.__getattribute__(self, "_boxlint_target").__enter__()
        return self if got is object.__getattribute__(self, "_boxlint_target") else got

    def __exit__(self, *exc: Any) -> Any:
        return object.__getattribute__(self, "_boxlint_target").__exit__(*exc)

    async def __aenter__(self) -> Any:
        got = await object.__getattribute__(self, "_boxlint_target").__aenter__()
        return self if got is object.__getattribute__(self, "_boxlint_target") else got

    async def __aexit__(self, *exc: Any) -> Any:
        return await object.__getattribute__(self, "_boxlint_target").__aexit__(*exc)


def guard(client: T, config: ConfigInput = None, *,
          on_warning: Optional[WarningHandler] = None) -> T:
    """A client that checks, with the library, the values of
    ``code_interpreter.templates.create`` / ``.update`` and ``agents.add_code_interpreter``
    (with its ``network_policy``: a dict or a NetworkPolicy object) before it calls the SDK.

    A call with an error raises :class:`ValidationError` (``.errors``: items of the platform's
    422 body; ``.body``: the body) and the SDK's method is never called, so nothing is sent.
    Warnings and infos go to ``on_warning(diagnostic)`` when given, else to
    :func:`warnings.warn` as :class:`TemplateWarning`. Works for ``BudClient`` and
    ``AsyncBudClient`` (the async methods stay coroutines: the check runs when the coroutine
    starts, before anything is awaited).

    ``config``: None (the defaults, as the ``boxlint`` command without a ``.boxlint.json``), a
    :class:`Config`, a path to a ``.boxlint.json`` or its parsed dict. Every other attribute is
    the client's own, untouched; neither the client nor the SDK module is modified. Guarding a
    guarded client returns it as is (same settings) or guards the original client with the new
    settings: a call is never checked twice. The guard is for a program you trust; the platform
    checks again on its side for clients that cannot be."""
    target: Any = client
    if type(target) is _Proxy:
        old = object.__getattribute__(target, "_boxlint_settings")
        if old.source is config and old.on_warning is on_warning:
            return client
        target = object.__getattribute__(target, "_boxlint_target")
    settings = _Settings(_load_config(config), on_warning, config)
    return cast(T, _Proxy(target, settings, "client"))


def guard_policy(cls: Callable[..., T], config: ConfigInput = None, *,
                 on_warning: Optional[WarningHandler] = None) -> Callable[..., T]:
    """A checked constructor for the SDK's ``NetworkPolicy`` (``cls``): its arguments (bound as
    ``cls``'s signature binds them, else ``type, allow_out, deny_out``) are checked as a policy
    before ``cls`` is called; errors raise :class:`ValidationError`, warnings are reported as
    by :func:`guard`. Use the returned function to build policies and ``cls`` itself for
    ``isinstance``. Guarding a guarded constructor returns it. (A policy built any other way is
    still checked where a guarded ``add_code_interpreter`` takes it.)"""
    if getattr(cls, "_boxlint_guarded", False):
        return cls
    settings = _Settings(_load_config(config), on_warning, config)
    return cast(Callable[..., T], _checked(cls, _POLICY, settings))


"""NetworkPolicy: validated and compiled once, decisions, enforcement rules."""
from __future__ import annotations

import ctypes
from typing import Any, List, Mapping, Optional, Sequence, Tuple, Union

from . import _ffi
from ._config import Config, _config_use
from ._errors import PolicyError, _check_status
from ._ffi import lib
from ._inputs import _encode_commands, _typename
from ._owned import _Owned
from ._report import _collect, _Report
from ._types import Decision, Diagnostic

PolicyInput = Union["NetworkPolicy", Mapping[str, Any], Any, None]


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
        unknown = set(p) - set(_ffi.POLICY_FIELDS)
        if unknown:
            raise TypeError(f"network_policy: unknown key {sorted(map(str, unknown))[0]!r} "
                            f"({', '.join(_ffi.POLICY_FIELDS)})")
        return p.get("type"), p.get("allow_out"), p.get("deny_out")
    if all(hasattr(p, a) for a in _ffi.POLICY_FIELDS):
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
                 unmatched: str = _ffi.DEFAULT_UNMATCHED, *, max_entries: Optional[int] = None,
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
        args: List[Any] = []
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
             resolvers: Sequence[str] = (), proxy_user: Optional[str] = None) -> str:
        """The rules that enforce this policy (the README's "Enforcing a policy"): ``format``
        "nftables" (a script for ``nft -f``), "dnsmasq" (the configuration whose nftset= lines
        fill the script's sets) or "nginx" (the proxy layer: TLS decided by SNI, HTTP by Host).
        ``proxy_user``: with "nftables", send TCP 80 and 443 to the proxy, accept that user's
        own connections and drop UDP 443; with "nginx", the user its workers run as.
        ``iifname``: filter what a host forwards from that interface instead of what the
        namespace sends; ``resolvers``: upstream DNS servers kept reachable (and dnsmasq's
        server= lines). Raises :class:`PolicyError` with the ``unenforceable-entry`` errors
        when no configuration enforces the policy exactly; ValueError for a bad option."""
        fmts = _ffi.EMIT_FORMATS
        if format not in fmts:
            raise ValueError(f"format must be 'nftables', 'dnsmasq' or 'nginx', not {format!r}")
        if isinstance(resolvers, (str, bytes)):
            raise TypeError("resolvers must be a sequence of addresses, not one string")
        opts = _ffi.new_options(_ffi.boxlint_emit_options, lib.boxlint_emit_options_init)
        keep = [table.encode(), iifname.encode() if iifname is not None else None,
                proxy_user.encode() if proxy_user is not None else None]
        res = (ctypes.c_char_p * max(len(resolvers), 1))(*[r.encode() for r in resolvers])
        opts.table, opts.iifname, opts.proxy_user = keep[0], keep[1], keep[2]
        opts.resolvers = ctypes.cast(res, ctypes.POINTER(ctypes.c_char_p))
        opts.nresolvers = len(resolvers)
        out, out_len = ctypes.c_void_p(), ctypes.c_size_t()
        with _Report() as r, self._use() as p:
            st = lib.boxlint_policy_emit(p, fmts[format], ctypes.byref(opts), r, ctypes.byref(out),
                                         ctypes.byref(out_len), None)
            diags = _collect(r)
        if st == _ffi.BOXLINT_EINVAL:
            raise ValueError("emit: table, iifname and proxy_user take letters, digits, '_' and "
                             "'-' (an interface name also '.', at most 15 bytes); resolvers, "
                             "addresses")
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

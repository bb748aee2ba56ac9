"""The checks: commands, fragments, templates, Python source files and agent bindings."""
from __future__ import annotations

import ctypes
from typing import Any, List, Optional, Sequence, Union

from . import _ffi
from ._config import Config, _config_use, _options
from ._errors import _check_status
from ._ffi import lib
from ._inputs import _binding_number, _encode_commands, _number, _spell, _text_bytes
from ._policy import PolicyInput, _check_policy_args, _policy_input, _policy_options
from ._report import _collect, _instructions, _Report
from ._types import Options, Result


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
    return _check_template(name, commands, cpu_count, memory_mb, network_policy, config,
                           options, list(extra_fields))


def _check_template(name: Optional[str], commands: Optional[Sequence[str]], cpu_count: Any,
                    memory_mb: Any, network_policy: PolicyInput, config: Optional[Config],
                    options: Optional[Options], extra_names: Sequence[str],
                    spell_numbers: bool = False) -> Result:
    """check_template; ``spell_numbers``: a number field of any type is passed to the library
    (spelt by its repr when not an int, True included) instead of raising TypeError, as the
    Python reader passes the text of a literal (the runtime guard)."""
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
    if spell_numbers:
        tpl.cpu_count = _binding_number(cpu_count, keep)
        tpl.memory_mb = _binding_number(memory_mb, keep)
    else:
        tpl.cpu_count = _number("cpu_count", cpu_count, keep)
        tpl.memory_mb = _number("memory_mb", memory_mb, keep)
    extra = [k.encode() for k in extra_names]
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


def check_python(source: Union[str, bytes], *, config: Optional[Config] = None,
                 options: Optional[Options] = None, compat: Optional[str] = None,
                 unmatched: str = _ffi.DEFAULT_UNMATCHED,
                 max_entries: Optional[int] = None) -> Result:
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

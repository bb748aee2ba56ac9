"""The plain result types: copied out of C memory, they never reference it."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Dict, List, Optional, Tuple, Union, cast

from ._errors import ValidationError
from ._ffi import FIX_UNSAFE, USER_RULE_SEVERITY, fix_safety_name

Severity = str  # "error" | "warning" | "info"


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
        return fix_safety_name(FIX_UNSAFE if self.unsafe else 0)

    def apply(self, command: str) -> str:
        """The command with this fix applied (offsets are UTF-8 byte offsets), through the
        library's :func:`apply_fixes`; a fix outside the text leaves it unchanged. This one
        fix is applied whatever its safety: calling this is the choice."""
        from ._fixes import apply_fixes  # _fixes reads these types: imported when called
        return cast(str, apply_fixes(command, (self,), unsafe_fixes=True).text)


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
        from ._fixes import apply_fixes
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
    severity: Severity = USER_RULE_SEVERITY
    instruction: Optional[str] = None

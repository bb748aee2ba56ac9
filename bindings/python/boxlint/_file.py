"""``check_file``: a file checked exactly as the command, the editor server and the pre-commit
hooks check it.

Which files are templates, bindings, policies, fragments or Python code, which ``.boxlint.json``
applies, what its severities and ``"fragments"`` say, which suppression comments hold, and where
each finding is in the file: all of that is decided once, by the command. ``check_file`` runs the
command this package carries (``boxlint/bin/boxlint``; ``$BOXLINT_COMMAND`` when set, else
``boxlint`` on ``PATH``) on the file with ``--format json --force-exclude`` and reads its
document back, so its answer cannot differ from theirs. A file the command would pass over in a
directory (``package.json``, an ordinary ``Dockerfile``, an excluded or git-ignored path) gives
an empty result with ``checked`` False.
"""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

PathLike = Union[str, "os.PathLike[str]"]


def _command() -> str:
    env = os.environ.get("BOXLINT_COMMAND")
    if env:
        return env
    from .__main__ import command_path
    exe = command_path()
    if exe is None:
        from . import BoxlintError
        raise BoxlintError("boxlint: check_file needs the boxlint command: this installation "
                           "carries none and there is none on PATH (install the boxlint wheel "
                           "or package, or set BOXLINT_COMMAND)")
    return exe


def _fix_from(obj: Optional[Dict[str, Any]]) -> Any:
    from . import Fix
    if not obj:
        return None
    have = {f.name for f in dataclasses.fields(Fix)}
    kw: Dict[str, Any] = {"offset": obj.get("offset", 0), "length": obj.get("length", 0),
                          "text": obj.get("replacement", ""),
                          "description": obj.get("description")}
    for k, v in obj.items():  # members the Fix type knows beyond these (e.g. applicability)
        if k in have and k not in kw:
            kw[k] = v
    return Fix(**kw)


def _diag_from(obj: Dict[str, Any]) -> Any:
    from . import Diagnostic
    cmd = obj.get("command")
    at = obj.get("file") or obj  # the position in the file (a JSON command's is "file")
    return Diagnostic(
        rule=obj.get("rule") or "", severity=obj.get("severity") or "error",
        command=None if cmd is None or cmd < 0 else int(cmd),
        line=at.get("line") or 0, column=at.get("column") or 0,
        end_line=at.get("end_line") or 0, end_column=at.get("end_column") or 0,
        offset=at.get("offset") or 0, path=obj.get("path"), message=obj.get("message") or "",
        hint=obj.get("hint"), fix=_fix_from(obj.get("fix")), detail=obj.get("detail"),
        end_offset=at.get("end_offset") or 0)


@dataclass(frozen=True)
class FileResult:
    """What the command found in one file. ``checked`` is False when the file is not one the
    command checks (then ``diagnostics`` is empty). Positions are in the file: 1-based
    ``line``/``column`` (code points); ``command`` and ``path`` say which command or field of
    the template a finding is about."""
    path: str
    checked: bool
    diagnostics: Tuple[Any, ...]

    @property
    def errors(self) -> List[Any]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> List[Any]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    @property
    def ok(self) -> bool:
        return not self.errors


def check_file(path: PathLike, *, text: Union[str, bytes, None] = None,
               config: Optional[PathLike] = None, args: Sequence[str] = ()) -> FileResult:
    """Check the file at ``path`` as ``boxlint PATH`` does in a directory walk: its kind from its
    name, its content and the configuration (``.boxlint.json`` found upward from it, or
    ``config``), then every finding with its severity and position. ``text`` checks that text
    under the name ``path`` instead of reading the file (an editor's unsaved buffer). ``args``
    are further command options (``["--compat", "e2b"]``). Raises :class:`BoxlintError` with
    the command's message when the file cannot be read or parsed (the command's exit code 2)."""
    from . import BoxlintError
    name = os.fspath(path)
    argv = [_command(), "--format", "json", "--force-exclude", "--no-color", *args]
    if config is not None:
        argv += ["--config", os.fspath(config)]
    data: Optional[bytes] = None
    if text is not None:
        data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else bytes(text)
        argv += ["--stdin-filename", name, "-"]
    else:
        argv.append(name if not name.startswith("-") else os.path.join(".", name))
    p = subprocess.run(argv, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=None if data is not None else subprocess.DEVNULL)
    if p.returncode not in (0, 1):
        msg = p.stderr.decode("utf-8", "replace").strip() or f"exit code {p.returncode}"
        raise BoxlintError(msg)
    try:
        doc = json.loads(p.stdout)
    except ValueError as e:
        raise BoxlintError(f"boxlint: the command's JSON output did not parse: {e}") from None
    files = doc.get("files") or []
    if not files:
        return FileResult(name, False, ())
    diags = tuple(_diag_from(d) for f in files for d in f.get("diagnostics") or [])
    return FileResult(name, True, diags)

#!/usr/bin/python3
"""The Python reader (lib/src/python/: lexer.re, tokens.c, literal.c, and boxlint_check_python)
against CPython 3.11 itself, through tests/oracle/pytokens_probe.c (its output format is
described at the top of that file).

  python_tokens_test.py PROBE BOXLINT [--seed N] [--count N] [--jobs N] [--keep DIR]

a. The standard library of this interpreter (every .py under its stdlib directory): the token
   stream of tokenize.tokenize (type, start, end, and the text for all but NEWLINE, NL, DEDENT)
   and every group of adjacent string literals decoded as ast.literal_eval decodes it. Files
   tokenize itself rejects are skipped and counted.
b. Generated valid sources (seeded; tests/oracle/python_gen.py): the same two comparisons, and
   boxlint_check_python must take every one (compile() does).
c. Invalid sources (mutations of generated ones): whenever the probe's boxlint_check_python
   says python-syntax, compile() must reject the file too. How many of compile()'s rejections
   boxlint catches is printed (the reader does not parse the whole grammar: not a failure).
d. The command on the standard library, many paths per invocation: never exit 2, never crash.

Prints `N files, M tokens, K disagreements` per corpus and fails on any disagreement. Exit 77
(skipped) when the interpreter is not a 3.11 (3.12 tokenizes f-strings into parts). Standard
library only; run with Debian's /usr/bin/python3.
"""
import ast
import concurrent.futures
import io
import os
import random
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import tokenize
import warnings

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from python_gen import gen_module, mutate  # noqa: E402  (beside this file)

SHOW = 12  # disagreements printed per corpus


# ---- The probe ---------------------------------------------------------------------------

def run_probe(probe, flags, paths):
    """{path: {"T": [(kind, l, c, el, ec)], "E": (l, c, msg) | None, "S": [...], "C": str}}"""
    p = subprocess.run([probe] + flags, input="\n".join(paths) + "\n", capture_output=True,
                       text=True, errors="surrogateescape", check=False)
    if p.returncode != 0:
        sys.exit("probe failed (%d): %s" % (p.returncode, p.stderr[-2000:]))
    out, cur = {}, None
    for line in p.stdout.split("\n"):  # not splitlines(): \x0b, \x85 are no line breaks
        tag, _, rest = line.partition(" ")
        if tag == "F":
            cur = out[rest] = {"T": [], "E": None, "S": [], "C": None}
        elif tag == "T":
            k, *nums = rest.split(" ")
            cur["T"].append((k,) + tuple(int(x) for x in nums))
        elif tag == "E":
            l, c, msg = rest.split(" ", 2)
            cur["E"] = (int(l), int(c), msg)
        elif tag == "S":
            f = rest.split(" ")
            cur["S"].append(("S", tuple(int(x) for x in f[:4]), f[4],
                             bytes.fromhex(f[5]) if len(f) > 5 else b""))
        elif tag == "X":
            f = rest.split(" ", 6)
            cur["S"].append(("X", tuple(int(x) for x in f[:4]), (int(f[4]), int(f[5])), f[6]))
        elif tag == "C":
            cur["C"] = rest
    return out


# ---- The oracle's tokens -----------------------------------------------------------------

SKIP_TYPES = {tokenize.ENCODING}


def oracle_tokens(data):
    """tokenize's stream, normalised to what the probe prints; None when tokenize rejects the
    source (TokenError, IndentationError, or an ERRORTOKEN: a character it cannot read)."""
    try:
        toks = list(tokenize.tokenize(io.BytesIO(data).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    if any(t.type == tokenize.ERRORTOKEN for t in toks):
        return None
    text = data.decode("utf-8-sig")
    ends_open = bool(text) and text[-1] not in "\r\n"
    lines = text.split("\n")
    eof = (len(lines), len(lines[-1]))  # where the source ends, as the probe counts
    out = []
    for t in toks:
        if t.type in SKIP_TYPES:
            continue
        name = tokenize.tok_name[t.type]
        start, end, s = t.start, t.end, t.string
        # 1. A last line without a line break: tokenize adds a NEWLINE '' one column wide
        #    after it; ours is empty, at the end of the source.
        if t.type == tokenize.NEWLINE and s == "":
            end = start
        # 2. A last line without a line break that is only a comment (tokenize: an NL '') or
        #    only blanks (a second NEWLINE '' after the last line's): no line break is there,
        #    ours has no token.
        if s == "" and (t.type == tokenize.NL or (
                t.type == tokenize.NEWLINE and out and out[-1][0] in ("NL", "NEWLINE"))):
            continue
        # 3. tokenize's INDENT spans the indentation (its text); ours is the empty token where
        #    the line's code starts, tokenize's end.
        if t.type == tokenize.INDENT:
            start, s = end, ""
        out.append((name, start[0], start[1], end[0], end[1], s))
    # 4. A last line without a line break: tokenize puts the DEDENTs and ENDMARKER at the end
    #    on (line after it, 0), or (its line, 0) when it is blank; ours are where it ends.
    i = len(out)
    while ends_open and i and out[i - 1][0] in ("DEDENT", "ENDMARKER"):
        i -= 1
        out[i] = (out[i][0],) + eof + eof + ("",)
    return out


def span_text(lines, l, c, el, ec):
    """The source between two tokenize positions (lines split after '\\n', kept)."""
    if l == el:
        return lines[l - 1][c:ec]
    return lines[l - 1][c:] + "".join(lines[l:el - 1]) + lines[el - 1][:ec]


def compare_tokens(name, data, got, oracle, report):
    """Append each disagreement to `report`; returns the number of tokens compared."""
    mine = got["T"]
    if got["E"] is not None:
        report.append("%s: syntax error %s, tokenize accepts the file" % (name, got["E"]))
        return 0
    text = data.decode("utf-8-sig", errors="surrogateescape")
    lines = [x + "\n" for x in text.split("\n")]  # tokenize's lines, not splitlines()'s
    n = max(len(mine), len(oracle))
    for i in range(n):
        a = mine[i] if i < len(mine) else None
        b = oracle[i] if i < len(oracle) else None
        if a is None or b is None or a != b[:5]:
            report.append("%s: token %d: ours %s, tokenize %s" % (name, i, a, b and b[:5]))
            return i
        if b[0] in ("NEWLINE", "NL", "DEDENT", "INDENT", "ENDMARKER"):
            continue
        s = span_text(lines, *a[1:5])
        if s != b[5]:
            report.append("%s: token %d %s: text %r, tokenize %r" % (name, i, a, s, b[5]))
            return i
    return n


# ---- String literals ---------------------------------------------------------------------

def oracle_groups(oracle):
    """Groups of adjacent STRING tokens (only COMMENT and NL between): (start, end) pairs."""
    groups, i = [], 0
    while i < len(oracle):
        if oracle[i][0] != "STRING":
            i += 1
            continue
        last, j = i, i + 1
        while j < len(oracle) and oracle[j][0] in ("STRING", "COMMENT", "NL"):
            if oracle[j][0] == "STRING":
                last = j
            j += 1
        groups.append(((oracle[i][1], oracle[i][2]), (oracle[last][3], oracle[last][4])))
        i = last + 1
    return groups


def python_value(src):
    """What CPython makes of a group of literals: ("s"|"b"|"f", bytes) or ("X", message).
    An f-string with replacement fields is "f" with its constant parts (outside the fields)."""
    expr = "(" + src + "\n)"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            node = ast.parse(expr, mode="eval").body
            if isinstance(node, ast.JoinedStr):
                fields = [v for v in node.values if isinstance(v, ast.FormattedValue)]
                consts = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
                if fields and selfdoc(node):
                    return ("f", None)  # f'{x=}': the text 'x=' is a constant of the AST
                return ("f" if fields else "s", consts.encode("utf-8", "surrogatepass"))
            v = ast.literal_eval(expr)
        except (SyntaxError, ValueError) as e:
            return ("X", str(e))
    if isinstance(v, bytes):
        return ("b", v)
    return ("s", v.encode("utf-8", "surrogatepass"))


def selfdoc(node):
    vals = node.values
    return any(isinstance(a, ast.Constant) and isinstance(b, ast.FormattedValue) and
               a.value.rstrip().endswith("=") for a, b in zip(vals, vals[1:]))


def compare_strings(name, data, got, oracle, report):
    """Each group decoded by the probe against CPython. Returns the number of groups."""
    text = data.decode("utf-8-sig", errors="surrogateescape")
    lines = [x + "\n" for x in text.split("\n")]
    groups = oracle_groups(oracle)
    if len(groups) != len(got["S"]):
        report.append("%s: %d string groups, tokenize %d" % (name, len(got["S"]), len(groups)))
        return 0
    for (start, end), g in zip(groups, got["S"]):
        pos = (start[0], start[1], end[0], end[1])
        src = span_text(lines, *pos)
        want = python_value(src)
        if g[1] != pos:
            report.append("%s: string group at %s, tokenize %s" % (name, g[1], pos))
        elif g[0] == "X" and want[0] != "X":
            report.append("%s: %r: ours %s at %s, CPython %s %r" % (
                name, src[:200], g[3], g[2], want[0], want[1]))
        elif g[0] == "S" and want[0] == "X":
            report.append("%s: %r: ours %s %r, CPython rejects: %s" % (
                name, src[:200], g[2], g[3], want[1]))
        elif g[0] == "S" and (g[2] != want[0] or (want[1] is not None and g[3] != want[1])):
            report.append("%s: %r: ours %s %r, CPython %s %r" % (
                name, src[:200], g[2], g[3], want[0], want[1]))
    return len(groups)


# ---- a. The standard library -------------------------------------------------------------

def stdlib_files():
    root = sysconfig.get_paths()["stdlib"]
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in ("__pycache__", "site-packages",
                                                      "dist-packages"))
        out += [os.path.join(d, f) for f in sorted(files) if f.endswith(".py")]
    return out


def compare_corpus(probe, paths, read, valid=False):
    """Tokens and strings of every path against tokenize and literal_eval; with `valid` (the
    files compile), boxlint_check_python must also take each. Returns the counts and the
    disagreements."""
    got = run_probe(probe, ["-t", "-s", "-c"] if valid else ["-t", "-s"], paths)
    res = {"files": 0, "tokens": 0, "groups": 0, "skipped": 0, "report": []}
    report = res["report"]
    for p in paths:
        data = read(p)
        oracle = oracle_tokens(data)
        if oracle is None:
            res["skipped"] += 1
            continue
        res["files"] += 1
        before = len(report)
        res["tokens"] += compare_tokens(p, data, got[p], oracle, report)
        if len(report) == before:
            res["groups"] += compare_strings(p, data, got[p], oracle, report)
        if valid and got[p]["C"] != "OK":
            report.append("%s: boxlint_check_python: %s; compile() accepts the file" % (
                p, got[p]["C"]))
    return res


def print_corpus(title, res):
    for r in res["report"][:SHOW]:
        print("  " + r)
    print("%s: %d files, %d tokens, %d disagreements (%d string groups; %d files tokenize "
          "rejects, skipped)" % (title, res["files"], res["tokens"], len(res["report"]),
                                 res["groups"], res["skipped"]))
    return len(res["report"])


def read_file(p):
    with open(p, "rb") as f:
        return f.read()


# ---- c. Invalid sources ------------------------------------------------------------------

def cpython_rejects(data):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(data, "<mutant>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError, UnicodeError, OverflowError, MemoryError,
                RecursionError):
            return True
    return False


def invalid_sources(probe, work, seed, indices):
    """Mutants of generated sources: boxlint's verdict against compile()'s."""
    mutants = []
    for i in indices:
        r = random.Random("bad:%d:%d" % (seed, i))
        kind, data = mutate(r, gen_module(r))
        path = os.path.join(work, "bad%05d.py" % i)
        with open(path, "wb") as f:
            f.write(data)
        mutants.append((path, kind, data))
    got = run_probe(probe, ["-c"], [m[0] for m in mutants])
    res = {"files": len(mutants), "rejected": 0, "caught": 0, "kinds": {}, "report": []}
    for path, kind, data in mutants:
        verdict = got[path]["C"]
        ours, theirs = verdict.startswith("SYNTAX"), cpython_rejects(data)
        k = res["kinds"].setdefault(kind, [0, 0, 0])
        k[0] += 1
        if theirs:
            res["rejected"] += 1
            k[1] += 1
            res["caught"] += ours
            k[2] += ours
        elif ours:
            res["report"].append("%s (%s): ours %s, compile() accepts" % (path, kind, verdict))
        if verdict.startswith("STATUS"):
            res["report"].append("%s (%s): status %s" % (path, kind, verdict))
    return res


def print_invalid(res):
    for r in res["report"][:SHOW]:
        print("  " + r)
    print("invalid: %d files, %d rejected by compile(), %d of them caught (%.1f%%), "
          "%d disagreements (false rejections)" % (
              res["files"], res["rejected"], res["caught"],
              100.0 * res["caught"] / max(res["rejected"], 1), len(res["report"])))
    for kind in sorted(res["kinds"]):
        n, r, c = res["kinds"][kind]
        print("  %-18s %5d mutants, %5d rejected by compile(), %5d caught" % (kind, n, r, c))
    return len(res["report"])


# ---- d. The command ----------------------------------------------------------------------

def command_on_stdlib(boxlint, paths):
    bad, chunk = [], 200
    for i in range(0, len(paths), chunk):
        part = paths[i:i + chunk]
        p = subprocess.run([boxlint, "--format", "json", "--target-version", "py311"] + part,
                           capture_output=True, check=False)
        if p.returncode not in (0, 1):
            bad.append("boxlint on %d paths from %s: exit %d: %s" % (
                len(part), part[0], p.returncode, p.stderr.decode(errors="replace")[-500:]))
    for r in bad[:SHOW]:
        print("  " + r)
    print("command: %d files in %d invocations, %d disagreements (exit 2 or a crash)" % (
        len(paths), (len(paths) + chunk - 1) // chunk, len(bad)))
    return len(bad)


def worker(k, jobs, probe, seed, count, work):
    """Share k of `jobs`: every jobs-th file of the standard library, generated source and
    mutant (each seeded by its index, so the run does not depend on the number of jobs)."""
    out = {"stdlib": compare_corpus(probe, stdlib_files()[k::jobs], read_file)}
    gen, out["invalid_gen"] = [], 0
    for i in range(k, count, jobs):
        src = gen_module(random.Random("gen:%d:%d" % (seed, i)))
        if cpython_rejects(src):
            out["invalid_gen"] += 1
            continue
        path = os.path.join(work, "gen%05d.py" % i)
        with open(path, "wb") as f:
            f.write(src)
        gen.append(path)
    out["generated"] = compare_corpus(probe, gen, read_file, valid=True)
    out["invalid"] = invalid_sources(probe, work, seed, range(k, count, jobs))
    return out


def merge(parts):
    """The workers' results summed (numbers), concatenated (lists), merged (dicts)."""
    def add(a, b):
        if isinstance(a, dict):
            return {key: add(a[key], b[key]) if key in a else b[key] for key in {**a, **b}}
        if isinstance(a, list) and a and isinstance(a[0], int):  # counts by kind
            return [x + y for x, y in zip(a, b)]
        return a + b
    out = parts[0]
    for p in parts[1:]:
        out = add(out, p)
    return out


def main():
    args = sys.argv[1:]
    opts = {"--seed": "1", "--count": "3000", "--keep": None, "--jobs": "2"}
    pos = []
    while args:
        a = args.pop(0)
        if a in opts:
            opts[a] = args.pop(0)
        else:
            pos.append(a)
    if len(pos) != 2:
        sys.exit(__doc__)
    probe, boxlint = pos
    if sys.version_info[:2] != (3, 11):
        print("skipped: the oracle must be CPython 3.11 (this is %s)" % sys.version.split()[0])
        return 77
    seed, count, jobs = int(opts["--seed"]), int(opts["--count"]), int(opts["--jobs"])
    print("oracle: CPython %s at %s; seed %d, %d sources" % (
        sys.version.split()[0], sys.executable, seed, count))
    work = opts["--keep"] or tempfile.mkdtemp(prefix="pytokens-")
    os.makedirs(work, exist_ok=True)
    with concurrent.futures.ProcessPoolExecutor(jobs) as ex:
        futures = [ex.submit(worker, k, jobs, probe, seed, count, work) for k in range(jobs)]
        failures = command_on_stdlib(boxlint, stdlib_files())
        res = merge([f.result() for f in futures])
    failures += print_corpus("stdlib", res["stdlib"])
    if res["invalid_gen"]:
        print("  generator: %d of %d sources not valid Python (skipped)" % (
            res["invalid_gen"], count))
    failures += print_corpus("generated", res["generated"])
    failures += print_invalid(res["invalid"])
    if not opts["--keep"]:
        shutil.rmtree(work)
    print("FAIL" if failures else "OK")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""The Python reader (lib/src/python/: lexer.re, tokens.c, literal.c, and boxlint_check_python)
against CPython 3.11 itself, through tests/pytokens_probe.c (its output format is described at
the top of that file).

  python_tokens_test.py PROBE BOXLINT [--seed N] [--count N] [--jobs N] [--keep DIR]

a. The standard library of this interpreter (every .py under its stdlib directory): the token
   stream of tokenize.tokenize (type, start, end, and the text for all but NEWLINE, NL, DEDENT)
   and every group of adjacent string literals decoded as ast.literal_eval decodes it. Files
   tokenize itself rejects are skipped and counted.
b. Generated valid sources (seeded): the same two comparisons.
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
import unicodedata
import warnings




SHOW = 12  # disagreements printed per corpus


# ---- The probe ---------------------------------------------------------------------------

def run_probe(probe, flags, paths):
    """{path: {"T": [(kind, l, c, el, ec)], "E": (l, c, msg) | None, "S": [...], "C": str}}"""
    p = subprocess.run([probe] + flags, input="\n".join(paths) + "\n", capture_output=True,
                       text=True, errors="surrogateescape", check=False)
    if p.returncode != 0:
        sys.exit("probe failed (%d): %s" % (p.returncode, p.stderr[-2000:]))
    out, cur = {}, None
    for line in p.stdout.splitlines():
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


# ---- b. Generated sources ----------------------------------------------------------------

NAMES = ["x", "y", "z", "_", "foo", "Bar_1", "__dunder__", "print", "len", "self", "café",
         "ñandú", "Ωmega", "変数", "ｘ", "µ", "ℌ", "l1", "O0", "match", "case", "type"]
STR_PREFIXES = ["", "", "", "u", "U", "r", "R", "f", "F", "fr", "fR", "Fr", "FR", "rf", "rF",
                "Rf", "RF"]
BYTES_PREFIXES = ["b", "B", "br", "bR", "Br", "BR", "rb", "rB", "Rb", "RB"]
BINOPS = ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "@", "==", "!=",
          "<", ">", "<=", ">=", "and", "or", "is", "in", ("not", "in"), ("is", "not")]
AUGOPS = ["+=", "-=", "*=", "/=", "//=", "%=", "**=", ">>=", "<<=", "&=", "|=", "^=", "@="]
ESCAPES = ["\\\\", "\\'", '\\"', "\\a", "\\b", "\\f", "\\n", "\\r", "\\t", "\\v", "\\0", "\\7",
           "\\12", "\\123", "\\377", "\\400", "\\777", "\\d", "\\q", "\\8", "\\9", "\\ ",
           "\\%"]
# \N{} names CPython knows that are not what unicodedata.name() gives: aliases, and names made
# by rule (Hangul syllables, ideographs).
ALIASES = ["LINE FEED", "LF", "NULL", "NUL", "BYTE ORDER MARK", "BOM", "ZWSP", "NBSP",
           "CHARACTER TABULATION", "ESCAPE", "ESC", "DEL", "SHY", "ZWNJ", "VS1",
           "LATIN CAPITAL LETTER GHA", "HANGUL SYLLABLE GA", "HANGUL SYLLABLE HIH",
           "CJK UNIFIED IDEOGRAPH-4E00", "CJK UNIFIED IDEOGRAPH-2B740",
           "CJK COMPATIBILITY IDEOGRAPH-F900", "KHITAN SMALL SCRIPT CHARACTER-18B00",
           "NUSHU CHARACTER-1B170"]
NON_ASCII = ["é", "中", "😀", "\u2028", "\x85", "\u00a0", "\u200b", "Ω", "\ufeff"]


class Gen:
    """A random module of valid Python 3.11 (as far as compile() goes: the test skips and
    counts any it rejects), exercising what a tokenizer must get right."""

    def __init__(self, r):
        self.r = r
        self.nl = r.choice(["\n", "\n", "\r\n"])

    # -- literals --

    def digits(self, alphabet, most=5, first=None):
        s = first if first is not None else self.r.choice(alphabet)
        for _ in range(self.r.randrange(most)):
            s += ("_" if self.r.random() < 0.25 else "") + self.r.choice(alphabet)
        return s

    def number(self):
        r, d = self.r, "0123456789"
        k = r.randrange(9)
        if k == 0:
            return r.choice(["0", "00", "0_0", "000", "0_00"])
        if k == 1:
            return self.digits(d, first=r.choice("123456789"))
        if k in (2, 3, 4):
            pre, alpha = r.choice([("x", "0123456789abcdefABCDEF"), ("o", "01234567"),
                                   ("b", "01")])
            pre = "0" + (pre.upper() if r.random() < 0.3 else pre)
            return pre + ("_" if r.random() < 0.2 else "") + self.digits(alpha)
        dp = self.digits(d)
        point = r.choice([dp + "." + self.digits(d), "." + dp, dp + ".", dp])
        if k in (5, 6) or point == dp:
            point += r.choice("eE") + r.choice(["", "+", "-"]) + self.digits(d)
        if k in (7, 8):
            point += r.choice("jJ")
        return point

    def name_escape(self):
        r = self.r
        if r.random() < 0.3:
            n = r.choice(ALIASES)
        else:
            n = None
            while not n:
                n = unicodedata.name(chr(r.randrange(0x30000)), None)
        # CPython matches names without regard to case, but for the names made by rule
        if r.random() < 0.2 and not n.startswith(("HANGUL SYLLABLE", "CJK UNIFIED")):
            n = n.lower()
        return "\\N{" + n + "}"

    def piece(self, raw, fmt, byt, q, triple):
        r = self.r
        k = r.random()
        if k < 0.3:
            s = "".join(r.choice("abc xyz019.,;:!?()[]<>=+-*/|&^%$@~`#\t\f") for _ in
                        range(r.randrange(1, 6)))
            return s
        if k < 0.36:
            return "'" if q == '"' else '"'
        if k < 0.40 and triple:
            return q + r.choice(["x", q + "x"])
        if k < 0.46 and triple:
            return self.nl
        if k < 0.50:
            return "\\" + self.nl  # a line continuation inside the string
        if k < 0.56 and not byt:
            return r.choice(NON_ASCII)
        if fmt and k < 0.70:
            return self.field(q)
        if raw:
            return "\\" + r.choice([q, "\\", "n", "x", "N", "u", "0", "a"])
        if k < 0.78:
            return r.choice(ESCAPES)
        if k < 0.84:
            return "\\x%02x" % r.randrange(256) if r.random() < 0.5 else "\\x%02X" % r.randrange(256)
        if byt:
            return r.choice(["\\u12ab", "\\U0001F600", "\\N{DASH}"])  # not escapes in bytes
        if k < 0.88:
            return "\\u%04x" % r.randrange(0x10000)
        if k < 0.92:
            return "\\U%08x" % r.randrange(0x110000)
        return self.name_escape()

    def field(self, q):
        """A replacement field of an f-string quoted with q, or a doubled brace."""
        r = self.r
        o = "'" if q == '"' else '"'
        if r.random() < 0.3:
            return r.choice(["{{", "}}", "{{}}"])
        e = r.choice(["x", "y + 1", "len(x)", "x[0]", "x != y", "x == y", " {1: 2}[1] ",
                      "(x := 3)", "[i for i in x]", o + "}" + o, o + "{" + o, o + "{}" + o,
                      "x" + "[" + o + "}" + o + "]", "f(" + o + ":" + o + ")", "x.y", " x "])
        if r.random() < 0.1:
            e += "="  # self-documenting
        conv = r.choice(["", "", "!r", "!s", "!a"])
        spec = r.choice(["", "", ":", ":>10", ":^{w}", ":{w}.{p}f", ":%Y-%m-%d", ":" + o + "^5",
                         ":{" + o + "}" + o + "}"])
        return "{" + e + conv + spec + "}"

    def string(self, byt):
        r = self.r
        prefix = r.choice(BYTES_PREFIXES if byt else STR_PREFIXES)
        raw, fmt = "r" in prefix.lower(), "f" in prefix.lower()
        quote = r.choice(["'", '"', "'''", '"""'])
        q, triple = quote[0], len(quote) == 3
        body = "".join(self.piece(raw, fmt, byt, q, triple) for _ in range(r.randrange(7)))
        if triple and body.endswith(q):
            body += "x"
        return prefix + quote + body + quote

    # -- expressions: lists of tokens --

    def atom(self):
        r = self.r
        k = r.random()
        if k < 0.3:
            return [r.choice(NAMES)]
        if k < 0.55:
            return [self.number()]
        if k < 0.9:
            byt = r.random() < 0.25
            return [self.string(byt) for _ in range(r.choice([1, 1, 1, 2, 3]))]
        return [r.choice(["True", "False", "None", "..."])]

    def expr(self, d=0):
        r = self.r
        k = r.random() if d < 3 else 0.0
        if k < 0.4:
            return self.atom()
        if k < 0.55:
            op = r.choice(BINOPS)
            return self.expr(d + 1) + (list(op) if isinstance(op, tuple) else [op]) + \
                self.expr(d + 1)
        if k < 0.6:
            u = r.choice(["-", "+", "~", "not"])
            return ["(", u] + self.expr(d + 1) + [")"] if u == "not" else [u] + self.expr(d + 1)
        if k < 0.7:
            return [r.choice(NAMES), "("] + self.args(d) + [")"]
        if k < 0.75:
            sub = self.expr(d + 1)
            if r.random() < 0.4:
                sub += [":"] + self.expr(d + 1)
            return [r.choice(NAMES), "["] + sub + ["]"]
        if k < 0.78:
            return [r.choice(NAMES), ".", r.choice(NAMES)]
        if k < 0.9:
            return self.display(d)
        if k < 0.95:
            return ["(", "lambda", r.choice(NAMES), ":"] + self.expr(d + 1) + [")"]
        return ["("] + self.expr(d + 1) + ["if"] + self.expr(d + 1) + ["else"] + \
            self.expr(d + 1) + [")"]

    def items(self, d, n, dict_=False):
        out = []
        for i in range(n):
            if i:
                out.append(",")
            if dict_:
                out += self.expr(d + 1) + [":"] + self.expr(d + 1)
            else:
                out += self.expr(d + 1)
        if n and self.r.random() < 0.3:
            out.append(",")
        return out

    def display(self, d):
        r = self.r
        k = r.randrange(4)
        n = r.randrange(4)
        if k == 0:
            return ["["] + self.items(d, n) + ["]"]
        if k == 1:
            inner = self.items(d, n)
            if n == 1 and inner[-1] != ",":
                inner.append(",")
            return ["("] + inner + [")"]
        if k == 2:
            return ["{"] + self.items(d, max(n, 1)) + ["}"]
        return ["{"] + self.items(d, n, dict_=True) + ["}"]

    def args(self, d):
        r = self.r
        out = self.items(d, r.randrange(3))
        kws = r.sample(["a", "b", "kw", "ñ"], r.randrange(3))
        for k in kws:
            if out and out[-1] != ",":
                out.append(",")
            out += [k, "="] + self.expr(d + 1)
        return out

    # -- statements: lines of (indentation, tokens) --

    def small(self, in_def):
        r = self.r
        k = r.randrange(12)
        n = r.choice(NAMES)
        if k == 0:
            return [n, r.choice(AUGOPS)] + self.expr()
        if k == 1:
            return [n, ":", r.choice(["int", "str"]), "="] + self.expr()
        if k == 2:
            e = self.expr()  # not a soft keyword first: `match (x)` could open a statement
            return e if e[0] not in ("match", "case", "type") else ["pass"]
        if k == 3:
            return r.choice([["pass"], ["del", n], ["import", "os"],
                             ["import", "os", ".", "path", "as", "p"],
                             ["from", ".", "import", "x"],
                             ["from", "a", ".", "b", "import", "(", "c", ",", "d", ",", ")"],
                             ["raise"], ["assert", n, ","] + self.atom()])
        if k == 4 and in_def:
            return ["return"] + self.expr()
        if k == 5:
            return [n, ",", "y", "="] + self.expr() + [","] + self.expr()
        return [n, "="] + self.expr()

    def simple(self, in_def):
        toks = self.small(in_def)
        while self.r.random() < 0.15:
            toks += [";"] + self.small(in_def)
        if self.r.random() < 0.05:
            toks.append(";")
        return toks

    def header(self):
        r = self.r
        k = r.randrange(7)
        if k == 0:
            return ["if"] + self.expr() + [":"], "if"
        if k == 1:
            return ["while"] + self.expr() + [":"], "while"
        if k == 2:
            return ["for", r.choice(NAMES), "in"] + self.expr() + [":"], "for"
        if k == 3:
            ps = r.sample(["a", "b", "c", "d", "é"], r.randrange(4))
            toks = ["def", r.choice(NAMES), "("]
            for i, p in enumerate(ps):
                toks += ([","] if i else []) + [p] + (["="] + self.expr() if i and i == len(ps) - 1 else [])
            toks += [")"] + (["->", "int"] if r.random() < 0.3 else []) + [":"]
            return toks, "def"
        if k == 4:
            return ["class", r.choice(NAMES), "(", ")", ":"], "class"
        if k == 5:
            return ["with"] + self.expr() + ["as", r.choice(NAMES), ":"], "with"
        return ["try", ":"], "try"

    def block(self, indent, depth, n, in_def):
        lines = []
        for _ in range(n):
            lines += self.stmt(indent, depth, in_def)
        return lines

    def suite(self, indent, depth, in_def):
        r = self.r
        extra = r.choice([" " * r.randint(1, 8), "\t", "\t  ", "  \t", "    "])
        return self.block(indent + extra, depth + 1, r.randint(1, 3), in_def)

    def stmt(self, indent, depth, in_def):
        r = self.r
        if depth >= 3 or r.random() > 0.3:
            return [(indent, self.simple(in_def))]
        head, kind = self.header()
        in_def = kind == "def" or (in_def and kind != "class")  # return: in a def only
        if kind != "try" and r.random() < 0.2:
            return [(indent, head + self.simple(in_def))]
        lines = [(indent, head)] + self.suite(indent, depth, in_def)
        if kind == "try":
            lines += [(indent, ["except", "Exception", "as", "e", ":"])] + \
                self.suite(indent, depth, in_def)
            if r.random() < 0.5:
                lines += [(indent, ["finally", ":"])] + self.suite(indent, depth, in_def)
        elif kind in ("if", "for", "while") and r.random() < 0.3:
            lines += [(indent, ["else", ":"])] + self.suite(indent, depth, in_def)
        return lines

    # -- text --

    def comment(self):
        r = self.r
        return "#" + "".join(r.choice("abc xyz#'\"\\é中\t{}") for _ in range(r.randrange(12)))

    def sep(self, prev, nxt, depth):
        r = self.r
        word = lambda c: c.isalnum() or c == "_" or ord(c) > 127 or c in "'\""  # noqa: E731
        need = word(prev) and word(nxt)  # also between strings: '' 'a' is not '''a'
        k = r.random()
        if depth > 0 and k < 0.1:
            s = (r.choice([" ", "  "]) + self.comment() if r.random() < 0.3 else "") + self.nl
            if r.random() < 0.2:
                s += r.choice(["", "   ", "\t"]) + self.nl
            return s + r.choice(["", " ", "    ", "\t", "        "])
        if k < 0.13:
            return r.choice([" ", ""]) + "\\" + self.nl + r.choice(["", " ", "    ", "\t"])
        if not need and k < 0.5:
            return ""
        return r.choice([" ", " ", " ", "  ", "\t", " \f "])

    def join(self, toks):
        s, depth = "", 0
        for i, t in enumerate(toks):
            if i:
                s += self.sep(s[-1], t[0], depth)
            s += t
            if t in ("(", "[", "{"):
                depth += 1
            elif t in (")", "]", "}"):
                depth -= 1
        return s

    def module(self):
        r = self.r
        out = []
        if r.random() < 0.05:
            out.append("\ufeff")
        for indent, toks in self.block("", 0, r.randint(1, 12), False):
            while r.random() < 0.15:
                out.append(r.choice(["", "  ", "\t", "\f", r.choice(["", "    ", "\t"]) +
                                     self.comment()]) + self.nl)
            line = ("\f" if r.random() < 0.03 else "") + indent + self.join(toks)
            if r.random() < 0.15:
                line += r.choice([" ", "  ", "\t"]) + self.comment()
            out.append(line + self.nl)
        text = "".join(out)
        k = r.random()
        if k < 0.1:
            text = text[:-len(self.nl)]
        elif k < 0.15:
            text += self.comment()
        elif k < 0.2:
            text += r.choice(["   ", "\t"])
        return text


def gen_module(rng):
    return Gen(rng).module().encode("utf-8", "surrogatepass")


# ---- c. Invalid sources ------------------------------------------------------------------

def _string_spans(text):
    """(start, end) character offsets of the STRING tokens of a valid source."""
    offs, o = [0], 0
    for line in text.split("\n"):
        o += len(line) + 1
        offs.append(o)
    spans = []
    for t in tokenize.generate_tokens(io.StringIO(text, newline="").readline):
        if t.type == tokenize.STRING:
            spans.append((offs[t.start[0] - 1] + t.start[1], offs[t.end[0] - 1] + t.end[1]))
    return spans


def _into_string(r, text, what):
    """Put `what` just after the opening quote of a random string literal."""
    spans = _string_spans(text)
    if not spans:
        return text + "\nv = '" + what + "'\n"
    a, _ = r.choice(spans)
    while text[a] not in "'\"":
        a += 1
    q = 3 if text[a:a + 3] in ("'''", '"""') else 1
    return text[:a + q] + what + text[a + q:]


def _at(r, text, chars):
    """A random offset of one of `chars`, or None."""
    pos = [i for i, c in enumerate(text) if c in chars]
    return r.choice(pos) if pos else None


def _indented_line(r, text, nl):
    lines = text.split(nl)
    idx = [i for i, ln in enumerate(lines) if ln[:1] in (" ", "\t") and ln.strip() and
           not ln.strip().startswith("#")]
    return lines, (r.choice(idx) if idx else None)


def mutate(r, text_bytes):
    """One mutation of a valid source: (kind, bytes). Not every mutant is invalid Python; the
    test asks compile()."""
    text = text_bytes.decode("utf-8", "surrogatepass")
    nl = "\r\n" if "\r\n" in text else "\n"
    kind = r.choice(["drop_quote", "drop_bracket", "add_bracket", "bad_dedent", "mix_tabs",
                     "nul_byte", "x_escape", "unknown_N", "bytes_non_ascii", "mix_bytes",
                     "f_brace", "delete_char", "insert_char", "truncate", "bad_number",
                     "u_escape", "bad_continuation", "unknown_char"])
    if kind in ("drop_quote", "drop_bracket", "delete_char"):
        i = _at(r, text, {"drop_quote": "'\"", "drop_bracket": "()[]{}"}.get(kind, text))
        if i is not None:
            text = text[:i] + text[i + 1:]
    elif kind == "add_bracket" or kind == "insert_char":
        i = r.randrange(len(text) + 1)
        c = r.choice("()[]{}" if kind == "add_bracket" else "'\"\\#:({[]}) \t\n\r;.")
        text = text[:i] + c + text[i:]
    elif kind in ("bad_dedent", "mix_tabs"):
        lines, i = _indented_line(r, text, nl)
        if i is not None:
            ln = lines[i]
            body = ln.lstrip(" \t")
            ind = ln[:len(ln) - len(body)]
            if kind == "bad_dedent":
                ind = ind[:-1] if len(ind) > 1 else ind + " "
            else:
                ind = ind.replace("        ", "\t", 1) if "        " in ind else \
                    ind.replace("\t", "        ", 1) if "\t" in ind else "\t" + ind[1:]
            lines[i] = ind + body
            text = nl.join(lines)
    elif kind == "nul_byte":
        i = r.randrange(len(text) + 1)
        text = text[:i] + "\0" + text[i:]
    elif kind == "x_escape":
        text = _into_string(r, text, r.choice(["\\x4", "\\x", "\\xg0", "\\x4'"]))
    elif kind == "u_escape":
        text = _into_string(r, text, r.choice(["\\u12", "\\U0011ffff", "\\U1234", "\\N",
                                               "\\N{", "\\N{}", "\\u"]))
    elif kind == "unknown_N":
        text = _into_string(r, text, r.choice([
            "\\N{NO SUCH NAME}", "\\N{TANGUT IDEOGRAPH-17000}", "\\N{LATIN SMALL LETTER  A}",
            "\\N{é}", "\\N{hangul syllable ga}", "\\N{HANGUL SYLLABLE GNJ}",
            "\\N{CJK UNIFIED IDEOGRAPH-4e00}", "\\N{CJK UNIFIED IDEOGRAPH-2A6E0}",
            "\\N{CJK UNIFIED IDEOGRAPH-4E0}", "\\N{cjk unified ideograph-4E00}"]))
    elif kind == "bytes_non_ascii":
        text += nl + "v = b'" + r.choice(["é", "a中", "\x7f", "\x80"]) + "'" + nl
    elif kind == "mix_bytes":
        text += nl + "v = (" + r.choice(["b'a' 'b'", "'a' b'b'", "f'a' b'b'", "b'' rb''"]) + ")" + nl
    elif kind == "f_brace":
        text += nl + "v = " + r.choice(["f'{'", "f'}'", "f'{x'", "f'{}'", "f'{x!}'", "f'{x!z}'",
                                        "f'{x:{y:{z}}}'", "f'{#}'", "f'{\\n}'", "f'{ }'",
                                        "f'a}b'", "f'{x}}'"]) + nl
    elif kind == "truncate":
        text = text[:r.randrange(len(text) + 1)]
    elif kind == "bad_number":
        text += nl + "v = " + r.choice(["09", "0_", "1__0", "0x", "1e", "1_", "0b2", "0o8",
                                        "1.e", "0x_", "00.j", "1_000_", "0777"]) + nl
    elif kind == "bad_continuation":
        i = r.randrange(len(text) + 1)
        text = text[:i] + "\\" + r.choice([" ", "x", ""]) + text[i:]
    else:  # unknown_char
        i = r.randrange(len(text) + 1)
        text = text[:i] + r.choice(["$", "?", "!", "`", "€", "\u00a0", "\x01"]) + text[i:]
    return kind, text.encode("utf-8", "surrogatepass")


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
        p = subprocess.run([boxlint, "--format", "json"] + part, capture_output=True,
                           check=False)
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

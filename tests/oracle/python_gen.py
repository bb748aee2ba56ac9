"""Random Python sources for tests/oracle/python_tokens_test.py: valid modules of Python 3.11 that
exercise a tokenizer and a literal decoder (names, numbers of every form, strings with every
prefix, quote and escape, f-string fields, brackets across lines, comments, continuations,
tabs and spaces, CRLF), and mutations of them that are often invalid. Deterministic for a given
random.Random. Standard library only."""
import io
import tokenize
import unicodedata


# ---- Valid sources -----------------------------------------------------------------------

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


# ---- Mutations ---------------------------------------------------------------------------

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

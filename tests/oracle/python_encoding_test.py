#!/usr/bin/env python3
"""The encoding of Python source files (lib/src/python/encoding.c) and identifiers (ident.c),
through tests/oracle/pyenc_probe.c, against CPython 3.11 itself.

1. codecs: every codec boxlint reads, over each of the 256 bytes (a file that declares the codec
   by its module name, then the byte): boxlint accepts exactly the bytes that
   bytes([b]).decode(codec) accepts, with the same text; every pair of defined bytes in one file
   (no state carries over from one byte to the next); ASCII stays ASCII and no other byte becomes
   ASCII; CPython accepts the declaration (compile() and `python3 file`) with the same codec name.
2. aliases: every key of encodings.aliases and every module of the encodings package, in several
   spellings, declared in a file: when boxlint accepts, CPython's codecs.lookup() gives the same
   codec; when CPython gives a codec boxlint reads, boxlint accepts it.
3. declarations: spellings and places of the declaration (line 1, line 2, after code, BOM, vim's
   fileencoding=, CR and CRLF lines, unknown names...), each run by CPython both ways (compile()
   of the bytes, and `python3 file`): boxlint accepts => both accept, with the same text and codec
   name; either refuses => boxlint refuses. Each case also pins boxlint's verdict.
4. refused: encodings that boxlint refuses though CPython runs a file written in them (which is
   why refusing, not guessing, is the call), the utf-7 smuggling among them.
5. identifiers: bl_py_ident_valid as a start and a continue character, and bl_py_nfkc, over every
   code point U+0080..U+10FFFF, against str.isidentifier() and unicodedata.normalize('NFKC');
   libunistring's Unicode may differ from Python's (14.0): the disagreements are counted, and
   only those that could hide an SDK call fail (a character that CPython folds to ASCII and
   boxlint does not fold the same way; see ident.c).

Usage: python_encoding_test.py PYENC_PROBE   (exit 77 unless this is CPython 3.11)
"""
import codecs, contextlib, encodings, encodings.aliases, io, os, pkgutil, subprocess, sys
import tempfile, tokenize, unicodedata

if sys.version_info[:2] != (3, 11):
    print(f"SKIPPED: the oracle is CPython 3.11, this is {sys.version.split()[0]}")
    sys.exit(77)

PROBE = sys.argv[1]
TMP = tempfile.mkdtemp(prefix="pyenc-")
fails = []


def fail(what):
    fails.append(what)
    if len(fails) <= 40:
        print("FAIL:", what)


def probe(files):
    """bl_py_source on each file: {path: (ok, codec, hex or (offset, message))}."""
    out = subprocess.run([PROBE], input="\n".join(files) + "\n", capture_output=True, text=True,
                         check=True).stdout
    res, cur = {}, None
    for line in out.splitlines():
        tag, _, rest = line.partition(" ")
        if tag == "F":
            cur = rest
        elif tag == "V" and rest.startswith("OK "):
            res[cur] = [True, rest[3:], ""]
        elif tag == "V":
            off, codec, msg = rest[4:].split(" ", 2)
            res[cur] = [False, codec, (int(off), msg)]
        elif tag == "H":
            res[cur][2] = rest
        elif tag == "M":
            fail(f"{cur}: the offset map is not consistent")
    return res


def write(name, data):
    path = os.path.join(TMP, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def cpython_compile(data):
    """compile() and run the bytes as an import would: (ok, what it printed)."""
    try:
        code = compile(data, "<probe>", "exec")
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(code, {})
        return True, buf.getvalue()
    except (SyntaxError, ValueError, UnicodeError, LookupError):
        return False, ""


def cpython_file(path):
    """`python3 file`: (ok, what it printed)."""
    r = subprocess.run([sys.executable, "-I", path], capture_output=True)
    return r.returncode == 0, r.stdout.decode("utf-8", "replace")


# ---- 1. codecs -------------------------------------------------------------------------------
CODECS = []
for line in subprocess.run([PROBE, "-l"], capture_output=True, text=True, check=True).stdout.splitlines():
    _, mod, name, ic = line.split()
    CODECS.append((mod, name, ic))
files, want = [], {}
for mod, name, ic in CODECS:
    head = b"# coding: " + mod.encode() + b"\n"
    for b in range(256):
        p = write(f"byte-{mod}-{b:02x}.py", head + bytes([b]))
        files.append(p)
        try:
            want[p] = (head + bytes([b])).decode(mod).encode("utf-8").hex()
        except UnicodeDecodeError:
            want[p] = None
    defined = bytes(b for b in range(256) if want[os.path.join(TMP, f"byte-{mod}-{b:02x}.py")])
    pairs = head + b"".join(bytes([x, y]) for x in defined for y in defined)
    p = write(f"pairs-{mod}.py", pairs)
    files.append(p)
    want[p] = pairs.decode(mod).encode("utf-8").hex()
    for b in range(256):  # ASCII stays ASCII, nothing else becomes ASCII (ic: single-byte)
        try:
            ch = bytes([b]).decode(mod)
        except UnicodeDecodeError:
            continue
        if ic != "-" and ((b < 0x80 and ch != chr(b)) or (b >= 0x80 and ord(ch) < 0x80)):
            fail(f"codec {mod}: byte {b:#x} decodes to {ch!r}, not ASCII-compatible")
    if codecs.lookup(mod).name != name:
        fail(f"codec {mod}: CPython names it {codecs.lookup(mod).name}, boxlint {name}")
    src = head + b"print('ok')\n"
    if cpython_compile(src) != (True, "ok\n") or cpython_file(write(f"run-{mod}.py", src)) != (True, "ok\n"):
        fail(f"codec {mod}: CPython does not run a file that declares it")
res = probe(files)
bad_bytes = 0
for p in files:
    ok, codec, got = res[p]
    exp = want[p]
    if (exp is None) != (not ok) or (ok and got != exp):
        bad_bytes += 1
        fail(f"{os.path.basename(p)}: boxlint {'OK ' + got[-12:] if ok else got}, CPython {exp and exp[-12:]}")
print(f"codecs: {len(CODECS)} codecs read ({sum(1 for c in CODECS if c[2] != '-')} through iconv), "
      f"{256 * len(CODECS)} single bytes and {len(CODECS)} files of every pair of defined bytes "
      f"compared with bytes.decode: {bad_bytes} disagreements")

# ---- 2. aliases ------------------------------------------------------------------------------
names = set(encodings.aliases.aliases) | {m.name for m in pkgutil.iter_modules(encodings.__path__)}
spellings = set()
for n in names:
    spellings |= {n, n.upper(), n.replace("_", "-"), n.replace("_", "."), "-" + n + "_",
                  n.replace("_", "--")}
spellings = sorted(s for s in spellings if s and all(c.isalnum() or c in "-_." for c in s))
READ = {name for _, name, _ in CODECS}
files, lookup = [], {}
for i, s in enumerate(spellings):
    p = write(f"alias-{i}.py", b"# coding: " + s.encode() + b"\n")
    files.append(p)
    normal = tokenize._get_normal_name(s)  # the C tokenizer's get_normal_name, in Python
    try:
        lookup[p] = (s, "utf-8" if normal == "utf-8" else codecs.lookup(normal).name)
    except LookupError:
        lookup[p] = (s, None)
res = probe(files)
accepted = wrong = missed = 0
for p in files:
    s, cp = lookup[p]
    ok, codec, _ = res[p]
    accepted += ok
    if ok and codec != cp:
        wrong += 1
        fail(f"alias {s!r}: boxlint reads it as {codec}, CPython as {cp}")
    if not ok and cp in READ:
        missed += 1
        fail(f"alias {s!r}: CPython reads it as {cp}, which boxlint reads, but boxlint refuses")
print(f"aliases: {len(spellings)} spellings of {len(names)} codec names and aliases: {accepted} "
      f"accepted, {wrong} read as another codec than CPython's, {missed} of a codec read but refused")

# ---- 3. declarations -------------------------------------------------------------------------
HIGH = b"x = '\xe9\x80\xe4'\nprint(ascii(x))\n"  # bytes that every codec below defines
UTF8 = "x = 'é€'\nprint(ascii(x))\n".encode()
ASCII = b"x = 'e'\nprint(ascii(x))\n"
BOM = b"\xef\xbb\xbf"
L1 = "ok iso8859-1"
CASES = [  # (label, head, body, boxlint's verdict: "ok CODEC" or "err")
    ("coding colon", b"# coding: latin-1\n", HIGH, L1),
    ("coding equals", b"# coding=latin-1\n", HIGH, L1),
    ("emacs", b"# -*- coding: latin-1 -*-\n", HIGH, L1),
    ("vim", b"# vim: set fileencoding=latin-1 :\n", HIGH, L1),
    ("no space", b"#coding:latin-1\n", HIGH, L1),
    ("tab after colon", b"# coding:\tlatin-1\n", HIGH, L1),
    ("tab before #", b"\t# coding: latin-1\n", HIGH, L1),
    ("form feed before #", b"\f# coding: latin-1\n", HIGH, L1),
    ("spaces before #", b"   # coding: latin-1\n", HIGH, L1),
    ("upper case", b"# coding: LATIN-1\n", HIGH, L1),
    ("Latin_1", b"# coding: Latin_1\n", HIGH, L1),
    ("latin1", b"# coding: latin1\n", HIGH, L1),
    ("L1", b"# coding: L1\n", HIGH, L1),
    ("iso-8859-1", b"# coding: iso-8859-1\n", HIGH, L1),
    ("ISO_8859-1", b"# coding: ISO_8859-1\n", HIGH, L1),
    ("iso8859_1", b"# coding: iso8859_1\n", HIGH, L1),
    ("iso-latin-1", b"# coding: iso-latin-1\n", HIGH, L1),
    ("latin-1-unix", b"# coding: latin-1-unix\n", HIGH, L1),
    ("iso-8859-1-windows", b"# coding: iso-8859-1-windows-3.1-latin-1\n", HIGH, L1),
    ("cp819", b"# coding: cp819\n", HIGH, L1),
    ("IBM819", b"# coding: IBM819\n", HIGH, L1),
    ("8859", b"# coding: 8859\n", HIGH, L1),
    ("latin", b"# coding: latin\n", HIGH, L1),
    ("iso8859.1 (dot)", b"# coding: iso8859.1\n", HIGH, L1),
    ("latin--1", b"# coding: latin--1\n", HIGH, L1),
    ("_latin1_", b"# coding: _latin1_\n", HIGH, L1),
    ("encoding: (vim/emacs word)", b"# encoding: latin-1\n", HIGH, L1),
    ("xcoding=", b"# xcoding=latin-1\n", HIGH, L1),
    ("windows-1252", b"# coding: windows-1252\n", HIGH, "ok cp1252"),
    ("CP1252", b"# coding: CP1252\n", HIGH, "ok cp1252"),
    ("1252", b"# coding: 1252\n", HIGH, "ok cp1252"),
    ("cp1252 then -*-", b"# coding=cp1252 -*-\n", HIGH, "ok cp1252"),
    ("cp1251", b"# coding: cp1251\n", HIGH, "ok cp1251"),
    ("koi8-r", b"# coding: koi8-r\n", HIGH, "ok koi8-r"),
    ("KOI8_U", b"# coding: KOI8_U\n", HIGH, "ok koi8-u"),
    ("iso-8859-15", b"# -*- coding: iso-8859-15 -*-\n", HIGH, "ok iso8859-15"),
    ("latin9", b"# coding: latin9\n", HIGH, "ok iso8859-15"),
    ("ibm437", b"# coding: ibm437\n", HIGH, "ok cp437"),
    ("greek", b"# coding: greek\n", HIGH, "ok iso8859-7"),
    ("charmap (latin-1)", b"# coding: charmap\n", HIGH, "ok charmap"),
    ("ascii", b"# coding: ascii\n", ASCII, "ok ascii"),
    ("ascii, a high byte", b"# coding: ascii\n", HIGH, "err"),
    ("us-ascii", b"# coding: us-ascii\n", ASCII, "ok ascii"),
    ("ANSI_X3.4-1968", b"# coding: ANSI_X3.4-1968\n", ASCII, "ok ascii"),
    ("646", b"# coding: 646\n", ASCII, "ok ascii"),
    ("line 2 after #!", b"#!/usr/bin/env python3\n# coding: latin-1\n", HIGH, L1),
    ("line 2 after blank", b"\n# coding: latin-1\n", HIGH, L1),
    ("line 2 after spaces", b"   \n# -*- coding: cp1252 -*-\n", HIGH, "ok cp1252"),
    ("line 2 after #", b"#\n# coding: cp1252\n", HIGH, "ok cp1252"),
    ("line 2 after an empty declaration", b"# coding: \n# coding: latin-1\n", HIGH, L1),
    ("line 2 after code", b"import os\n# coding: latin-1\n", HIGH, "err"),
    ("line 2 after a docstring", b'"""doc"""\n# coding: latin-1\n', HIGH, "err"),
    ("after code on line 1", b"x = 1  # coding: latin-1\n", HIGH, "err"),
    ("line 3", b"#!python\n#\n# coding: latin-1\n", HIGH, "err"),
    ("line 3 after blank", b"#!python\n\n# coding: latin-1\n", HIGH, "err"),
    ("line 1 not UTF-8, line 2", b"# \xe9\n# coding: latin-1\n", HIGH, "err"),
    ("CRLF", b"#!/x\r\n# coding: latin-1\r\n", HIGH.replace(b"\n", b"\r\n"), L1),
    ("CR only", b"#!/x\r# coding: latin-1\r", HIGH.replace(b"\n", b"\r"), L1),
    ("two declarations", b"# coding: latin-1\n# coding: cp1252\n", HIGH, L1),
    ("declaration on line 3 ignored", b"# coding: latin-1\n#\n# coding: foo\n", HIGH, L1),
    ("coding: coding:", b"# coding: coding: latin-1\n", HIGH, "err"),
    ("space before colon", b"# coding : latin-1\n", HIGH, "err"),
    ("space before colon, UTF-8", b"# coding : latin-1\n", UTF8, "ok utf-8"),
    ("no newline, no body", b"# coding: latin-1", b"", L1),
    ("BOM, latin-1", BOM + b"# coding: latin-1\n", HIGH, "err"),
    ("BOM, utf-8", BOM + b"# coding: utf-8\n", UTF8, "ok utf-8"),
    ("BOM, UTF8", BOM + b"# coding: UTF8\n", UTF8, "err"),
    ("BOM, utf_8_sig", BOM + b"# coding: utf_8_sig\n", UTF8, "ok utf-8"),
    ("BOM, no declaration", BOM, UTF8, "ok utf-8"),
    ("BOM, foo", BOM + b"# coding: foo\n", UTF8, "err"),
    ("utf8", b"# coding: utf8\n", UTF8, "ok utf-8"),
    ("u8", b"# coding: u8\n", UTF8, "ok utf-8"),
    ("UTF-8", b"# coding: UTF-8\n", UTF8, "ok utf-8"),
    ("utf8-sig (no such alias)", b"# coding: utf8-sig\n", UTF8, "err"),
    ("utf--8--sig", b"# coding: utf--8--sig\n", UTF8, "ok utf-8-sig"),
    ("cp65001", b"# coding: cp65001\n", UTF8, "ok utf-8"),
    ("utf-8-foo (get_normal_name)", b"# coding: utf-8-foo\n", UTF8, "ok utf-8"),
    ("utf_8_unknown", b"# coding: utf_8_unknown\n", UTF8, "ok utf-8"),
    ("latin-1-foo", b"# coding: latin-1-foo\n", HIGH, L1),
    ("utf-8, invalid", b"# coding: utf-8\n", HIGH, "err"),
    ("none, invalid", b"", HIGH, "err"),
    ("none, UTF-8", b"", UTF8, "ok utf-8"),
    ("cp1252, undefined byte", b"# coding: cp1252\n", b"x = '\x81'\n", "err"),
    ("cp1252, undefined byte in the declaration", b"# coding: cp1252 \x81\n", HIGH, "err"),
    ("foo", b"# coding: foo\n", ASCII, "err"),
    ("aliases (a module, no codec)", b"# coding: aliases\n", ASCII, "err"),
    ("utf-7", b"# coding: utf-7\n", ASCII, "err"),
    ("UTF-16", b"# coding: UTF-16\n", ASCII, "err"),
    ("euc-jp", b"# coding: euc-jp\n", ASCII, "err"),
    ("shift_jis", b"# coding: shift_jis\n", ASCII, "err"),
    ("mac-roman (iconv differs)", b"# coding: mac-roman\n", HIGH, "err"),
    ("rot13", b"# coding: rot13\n", ASCII, "err"),
    ("unicode_escape", b"# coding: unicode_escape\n", ASCII, "err"),
    ("raw-unicode-escape", b"# coding: raw-unicode-escape\n", ASCII, "err"),
    ("idna", b"# coding: idna\n", ASCII, "err"),
    ("punycode", b"# coding: punycode\n", ASCII, "err"),
]
files = [write(f"decl-{i}.py", h + b) for i, (_, h, b, _) in enumerate(CASES)]
res = probe(files)
n_ok = n_err = over = 0
for (label, head, body, verdict), p in zip(CASES, files):
    data = head + body
    ok, codec, got = res[p]
    c_ok, c_out = cpython_compile(data)
    f_ok, f_out = cpython_file(p)
    mine = f"ok {codec}" if ok else "err"
    if mine != verdict:
        fail(f"declaration {label!r}: boxlint says {mine}, the test expects {verdict}")
    if ok:
        n_ok += 1
        if not (c_ok and f_ok):
            fail(f"declaration {label!r}: boxlint accepts, CPython refuses "
                 f"(compile {c_ok}, file {f_ok})")
            continue
        if c_out != f_out:
            fail(f"declaration {label!r}: CPython's two readings differ: {c_out!r} {f_out!r}")
        text = bytes.fromhex(got).decode("utf-8")
        if body:  # the literal boxlint reads is the one CPython printed
            lit = text[text.index("x = '") + 5:]
            lit = lit[:lit.index("'")]
            if ascii(lit) + "\n" != c_out:
                fail(f"declaration {label!r}: boxlint reads {ascii(lit)}, CPython {c_out!r}")
        try:
            # CPython translates \r\n and \r before it looks for the declaration; tokenize's
            # readline splits at \n only
            lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            enc, _ = tokenize.detect_encoding(io.BytesIO(lines).readline)
            cname = "utf-8" if enc in ("utf-8", "utf-8-sig") and data.startswith(BOM) \
                else "utf-8" if enc == "utf-8" else codecs.lookup(enc).name
        except SyntaxError:
            cname = None
        if cname != codec:
            fail(f"declaration {label!r}: boxlint's codec {codec}, CPython's {cname}")
    else:
        n_err += 1
        over += c_ok and f_ok
        if "%s" in got[1]:
            fail(f"declaration {label!r}: message not formatted: {got[1]}")
print(f"declarations: {len(CASES)} spellings and places: {n_ok} accepted (CPython runs each "
      f"both ways with the same text and codec), {n_err} refused ({n_err - over} that CPython "
      f"refuses too, {over} that it runs in an encoding boxlint does not read)")

# ---- 4. refused encodings that CPython runs --------------------------------------------------
REFUSED = ["utf_7", "unicode_escape", "raw_unicode_escape", "shift_jis", "euc_jp", "gbk",
           "gb18030", "big5", "hz", "iso2022_jp", "euc_kr", "cp932", "mac_roman", "cp864",
           "cp037", "utf_16", "utf_32"]
PROGRAM = "s = '{}'\nprint('ran', ascii(s))\n"
SAMPLE = {"shift_jis": "日本", "euc_jp": "日本", "gbk": "中文", "gb18030": "中文", "big5": "中文",
          "hz": "中文", "iso2022_jp": "日本", "euc_kr": "한국", "cp932": "日本", "mac_roman": "é",
          "cp864": "\u066a", "cp037": "é", "utf_7": "é", "utf_16": "é", "utf_32": "é"}
runnable = refused = 0
for enc in REFUSED:
    head = f"# coding: {enc}\n".encode()
    data = head + PROGRAM.format(SAMPLE.get(enc, "x")).encode(enc)
    p = write(f"refused-{enc}.py", data)
    ok, codec, got = probe([p])[p]
    c_ok, c_out = cpython_compile(data)
    f_ok, f_out = cpython_file(p)
    runs = (c_ok and c_out.startswith("ran")) or (f_ok and f_out.startswith("ran"))
    runnable += runs
    if ok:
        fail(f"refused {enc}: boxlint accepts it")
    else:
        refused += 1
        if enc not in got[1] or got[0] != len(b"# coding: "):
            fail(f"refused {enc}: the message or its offset: {got}")
    print(f"  {enc}: boxlint {'accepts' if ok else 'refuses'}; CPython: compile() "
          f"{'runs it' if c_ok else 'refuses'}, python3 file {'runs it' if f_ok else 'refuses'}")
# The smuggling: what a UTF-8 reader sees as a comment, CPython runs.
attack = (b"# -*- coding: utf-7 -*-\n# +AAo-print('hidden call ran')\n")
p = write("smuggle.py", attack)
ok, _, got = probe([p])[p]
f_ok, f_out = cpython_file(p)
if ok or f_out.strip() != "hidden call ran":
    fail(f"utf-7 smuggling: boxlint {'accepts' if ok else 'refuses'}, CPython printed {f_out!r}")
if runnable < 10:
    fail(f"only {runnable} refused encodings are runnable by CPython")
print(f"refused: {refused} of {len(REFUSED)} encodings refused, {runnable} of them runnable by "
      f"CPython; the utf-7 smuggling: CPython printed {f_out.strip()!r}, boxlint: {got[1]!r}")

# ---- 5. identifiers --------------------------------------------------------------------------
out = subprocess.run([PROBE, "-i"], capture_output=True, text=True, check=True).stdout
mine = {"S": set(), "C": set()}
for line in out.splitlines():
    tag, a, b = line.split()
    mine[tag].update(range(int(a, 16), int(b, 16) + 1))
cps = [c for c in range(0x80, 0x110000) if not 0xD800 <= c <= 0xDFFF]
py = {"S": {c for c in cps if chr(c).isidentifier()},
      "C": {c for c in cps if ("a" + chr(c)).isidentifier()}}
nfkc_mine = {}
for line in subprocess.run([PROBE, "-n"], capture_output=True, text=True, check=True).stdout.splitlines():
    _, c, h = line.split()
    nfkc_mine[int(c, 16)] = bytes.fromhex(h).decode("utf-8")
nfkc_py = {}
for c in cps:
    n = unicodedata.normalize("NFKC", chr(c))
    if n != chr(c):
        nfkc_py[c] = n
dis = {k: (mine[k] - py[k], py[k] - mine[k]) for k in "SC"}
nfkc_diff = [c for c in set(nfkc_mine) | set(nfkc_py)
             if nfkc_mine.get(c, chr(c)) != nfkc_py.get(c, chr(c))]
hiding = [c for c in nfkc_diff if nfkc_py.get(c, chr(c)).isascii()]
false_ascii = [c for c in nfkc_diff if nfkc_mine.get(c, chr(c)).isascii() and c not in hiding]
for c in sorted(hiding)[:20]:
    fail(f"NFKC of U+{c:04X}: CPython {nfkc_py.get(c, chr(c))!r} (ASCII), boxlint "
         f"{nfkc_mine.get(c, chr(c))!r}: a name boxlint would not recognise")
print(f"identifiers: {len(cps)} code points (libunistring's Unicode against Python's "
      f"{unicodedata.unidata_version}); start: {len(dis['S'][0])} valid only for boxlint, "
      f"{len(dis['S'][1])} only for CPython; continue: {len(dis['C'][0])} only for boxlint, "
      f"{len(dis['C'][1])} only for CPython (none can hide a call: see ident.c)")
print(f"identifiers: NFKC changes {len(nfkc_py)} code points for CPython, {len(nfkc_mine)} for "
      f"boxlint; {len(nfkc_diff)} differ, {len(hiding)} of them fold to ASCII for CPython only "
      f"(could hide a call), {len(false_ascii)} fold to ASCII for boxlint only")
if nfkc_diff:
    print("  differing:", " ".join(f"U+{c:04X}" for c in sorted(nfkc_diff)[:30]))
for k in "SC":
    for side, s in (("boxlint", dis[k][0]), ("CPython", dis[k][1])):
        if s:
            print(f"  {'start' if k == 'S' else 'continue'} valid only for {side}:",
                  " ".join(f"U+{c:04X}" for c in sorted(s)[:20]))

print(f"python_encoding: {len(fails)} failures")
sys.exit(1 if fails else 0)

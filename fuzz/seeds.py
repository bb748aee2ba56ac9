#!/usr/bin/env python3
"""Regenerate the hand-made seeds of corpus/<target>/ (files named seed-*).

Sources: the string literals of tests/unit/check_*.c (command lists of the smuggling tests, single
commands of the rule and lexer tests, policy entries of the policy tests), tests/data, the
smuggling vectors of fuzz/smuggling-vectors.txt, and a sample of the real-world corpus
tests/data/corpus/real-dockerfiles (instructions as commands, a few whole files as fragments).
The corpus stays small: the sample is fixed (every Nth file, sorted), and long inputs are cut.

Run from the repository root: python3 fuzz/seeds.py [--out corpus]. Crashers found by the
fuzzers (crash-<sha1>) and inputs minimised from fuzzing runs are kept; only seed-* is rewritten.
The seed file formats are those documented at the top of each fuzz/<target>_fuzzer.c.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import sys

SEP = b"\xff"
KEYWORDS = {"add", "arg", "cmd", "copy", "entrypoint", "env", "expose", "from", "healthcheck",
            "label", "maintainer", "onbuild", "run", "shell", "stopsignal", "user", "volume",
            "workdir"}
TARGETS = ["commands", "fragment", "base", "policy_compile", "policy_decide", "config",
           "template", "python"]

# ---- C string literals -------------------------------------------------------------------

LIT = re.compile(rb'"((?:[^"\\\n]|\\.)*)"')


def decode_c(body):
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c != 0x5C:
            out.append(c)
            i += 1
            continue
        i += 1
        e = body[i:i + 1]
        simple = {b"n": 10, b"t": 9, b"r": 13, b"f": 12, b"v": 11, b"a": 7, b"b": 8,
                  b"\\": 92, b'"': 34, b"'": 39, b"?": 63, b"e": 27}
        if e in simple:
            out.append(simple[e])
            i += 1
        elif e == b"x":
            j = i + 1
            # Two digits at most: the tests split literals after \xNN, and the markdown
            # writes Go-style two-digit escapes.
            while j < len(body) and j < i + 3 and chr(body[j]) in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(body[i + 1:j], 16) & 0xFF)
            i = j
        elif e.isdigit():
            j = i
            while j < len(body) and j < i + 3 and chr(body[j]) in "01234567":
                j += 1
            out.append(int(body[i:j], 8) & 0xFF)
            i = j
        else:
            out.append(body[i])
            i += 1
    return bytes(out)


def literal_groups(src):
    """Comma-separated runs of string literals (adjacent literals concatenated)."""
    src = re.sub(rb"/\*.*?\*/", b" ", src, flags=re.S)
    src = re.sub(rb"//[^\n]*", b" ", src)
    groups, cur, pos = [], [], 0
    tok = re.compile(rb'\s*(?:(?P<lit>(?:"(?:[^"\\\n]|\\.)*"\s*)+)|(?P<comma>,)|(?P<other>.))',
                     re.S)
    expect_lit = False
    for m in tok.finditer(src):
        if m.group("lit") is not None:
            s = b"".join(decode_c(x.group(1)) for x in LIT.finditer(m.group("lit")))
            if cur and not expect_lit:
                groups.append(cur)
                cur = []
            cur.append(s)
            expect_lit = False
        elif m.group("comma") is not None and cur:
            expect_lit = True
        else:
            if cur:
                groups.append(cur)
                cur = []
            expect_lit = False
    if cur:
        groups.append(cur)
    return groups


def looks_like_command(s):
    if len(s) < 2 or len(s) > 2000:
        return False
    m = re.match(rb"[ \t]*([A-Za-z]+)", s)
    if m and m.group(1).decode().lower() in KEYWORDS:
        return True
    # Smuggling material: odd bytes, continuations, heredocs, comments, directives.
    return bool(re.search(rb"[\x00-\x08\x0b-\x1f\x7f-\xfe]|\\$|`$|<<|^\s*#", s))


ENTRY = re.compile(rb"^[\x21-\x7e]{1,80}$")


def looks_like_entry(s):
    if not s or len(s) > 300:
        return False
    if re.search(rb"[.:/*]", s) or s.lower() in (b"all_traffic", b"localhost"):
        return True
    return bool(re.search(rb"[\x00-\x20\x7f-\xff]", s)) and len(s) < 40


# ---- the smuggling vectors (smuggling-vectors.txt) ------------------------------------------

def smuggling_vectors(path):
    """Each line of fuzz/smuggling-vectors.txt, C literals separated by |: "a"|"b" -> [a, b]."""
    out = []
    for line in open(path, "rb").read().split(b"\n"):
        if not line.strip() or line.startswith(b"#"):
            continue
        parts = re.findall(rb'"((?:[^"\\]|\\.)*)"', line)
        if parts:
            out.append([decode_c(p) for p in parts])
    return out


# ---- output --------------------------------------------------------------------------------

class Corpus:
    def __init__(self, root):
        self.root = root
        self.files = {t: {} for t in TARGETS}

    def add(self, target, data, limit=6000):
        if len(data) > limit:
            return
        name = "seed-" + hashlib.sha1(data).hexdigest()[:16]
        self.files[target][name] = data

    def write(self):
        total = 0
        for t, files in self.files.items():
            d = os.path.join(self.root, t)
            os.makedirs(d, exist_ok=True)
            for old in glob.glob(os.path.join(d, "seed-*")):
                os.remove(old)
            for name, data in sorted(files.items()):
                with open(os.path.join(d, name), "wb") as f:
                    f.write(data)
                total += len(data)
            print(f"corpus/{t}: {len(files)} seeds")
        print(f"{total} bytes of seeds")


def commands_input(cmds, bits=0, limit=0):
    return bytes([bits, limit]) + SEP.join(cmds)


def split_instructions(data, expected):
    """The instructions of a real file, by the physical lines EXPECTED.jsonl gives."""
    lines = data.split(b"\n")
    out = []
    for ins in expected.get("instructions", []):
        s, e = ins["start"], ins["end"]
        out.append((ins["kw"], b"\n".join(lines[s - 1:e])))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="corpus")
    args = ap.parse_args()
    c = Corpus(args.out)

    # 1. Tests: command lists and single commands; policy entries.
    cmd_groups, singles, entries = [], set(), set()
    for path in sorted(glob.glob("tests/unit/check_*.c")):
        src = open(path, "rb").read()
        for g in literal_groups(src):
            if "policy" in os.path.basename(path):
                entries.update(s for s in g if looks_like_entry(s))
                continue
            cmds = [s for s in g if looks_like_command(s)]
            singles.update(cmds)
            if len(cmds) > 1 and len(cmds) == len(g):
                cmd_groups.append(cmds)
    for s in sorted(singles):
        c.add("commands", commands_input([s]))
        c.add("fragment", b"\x00" + s)
        if hashlib.sha1(s).digest()[0] % 4 == 0:
            c.add("config", b"\x01\x00" + SEP.join([b"my-rule", rb"curl\s+-k", b"insecure curl",
                                                 b"sudo-usage=0", s]))
    for g in cmd_groups:
        c.add("commands", commands_input(g))
        c.add("commands", commands_input(g, bits=1))  # backtick escape
        c.add("fragment", b"\x00" + b"\n".join(g))
        c.add("template", b"\x0f\x01\x02\x00\x00\x10" + SEP.join([b"my-template", b"", b""] + g))

    # 2. The smuggling vectors (fuzz/smuggling-vectors.txt), as lists, as fragments after a base, and as bases.
    for v in smuggling_vectors(os.path.join("fuzz", "smuggling-vectors.txt")):
        c.add("commands", commands_input(v))
        c.add("commands", commands_input(v, bits=2))  # with a config
        c.add("commands", commands_input(v, bits=1))  # backtick escape
        c.add("fragment", b"\x00FROM alpine\n" + b"\n".join(v))
        c.add("base", v[0])
        c.add("base", b"FROM alpine\n" + v[0] + b"\n")

    # 3. Real Dockerfiles: a fixed sample of instructions as commands and files as fragments.
    data_corpus = os.path.join("tests", "data", "corpus")
    real = os.path.join(data_corpus, "real-dockerfiles")
    expected = {}
    for line in open(os.path.join(real, "EXPECTED.jsonl")):
        j = json.loads(line)
        expected[j["file"]] = j
    files = sorted(expected)
    by_kw = {}
    for i, f in enumerate(files):
        data = open(os.path.join(real, f), "rb").read()
        if i % 40 == 0 and len(data) < 6000:
            c.add("fragment", b"\x02" + data)
            c.add("base", data)
        if i % 12 == 0:
            for kw, text in split_instructions(data, expected[f]):
                by_kw.setdefault(kw, []).append(text)
    for kw in sorted(by_kw):
        sample = [t for t in by_kw[kw] if len(t) < 1500][:6]
        for t in sample:
            c.add("commands", commands_input([t]))
        c.add("commands", commands_input(sample[:4], bits=2))
    for g in [[b"RUN apt-get update && apt-get install -y curl", b"USER user", b"WORKDIR /home/user"]]:
        c.add("template", b"\x0f\x01\x02\x00\x00\x10" + SEP.join([b"code-interpreter", b"", b""] + g))
    for d in sorted(glob.glob(os.path.join(data_corpus, "buildkit-fixtures",
                                           "testfiles", "*", "Dockerfile")))[::3]:
        data = open(d, "rb").read()
        c.add("fragment", b"\x00" + data, limit=4000)
    c.add("fragment", b"\x02" + open("tests/data/fragment.Dockerfile", "rb").read())

    # 4. Bases.
    for b in [b"FROM ubuntu:24.04\n", b"# escape=`\nFROM x\n", b"\xef\xbb\xbf# syntax=docker/dockerfile:1\nFROM x\n",
              b"FROM x\nRUN a \\\n", b"FROM x\nRUN <<EOF\nbody\nEOF\n", b"FROM x\nRUN <<EOF\nbody\n",
              b"FROM x", b"# c\n", b"", b"FROM x\r\n", b"# escape=`\nFROM x\nRUN a `\n",
              b"FROM x\nRUN <<-EOF\n\tbody\n\tEOF\n", b"FROM x\nONBUILD RUN <<EOF\nx\nEOF\n",
              # appendable, but with an error of its own (a bad directive: fails closed)
              b"# escape=\xa1\nFROM x\n", b"# escape=`\n# escape=\\\nFROM x\n"]:
        c.add("base", b)

    # 5. Policy entries: compile seeds (type line first), decide seeds (entries + destinations).
    for p in sorted(glob.glob("tests/data/policy/*.json")):
        try:
            j = json.load(open(p))
        except ValueError:
            continue
        pol = j.get("network_policy", j) if isinstance(j, dict) else {}
        if not isinstance(pol, dict):
            continue
        allow = [str(x).encode() for x in pol.get("allow_out", []) or []]
        deny = [str(x).encode() for x in pol.get("deny_out", []) or []]
        lines = [str(pol.get("type", "filtered")).encode()] + allow + [b"-" + x for x in deny]
        c.add("policy_compile", b"\x00" + b"\n".join(lines))
        c.add("policy_decide", b"\x00" + b"\n".join([b"+" + x for x in allow] + [b"-" + x for x in deny] +
                                                    [b"hpypi.org", b"ifiles.pythonhosted.org", b"b10.1.2.3 10.1.2.3",
                                                     b"i2001:db8::1", b"hexample.com"]))
    ent = sorted(entries)
    for i in range(0, len(ent), 8):
        chunk = ent[i:i + 8]
        c.add("policy_compile", b"\x01" + b"\n".join(chunk))
        c.add("policy_compile", b"\x09" + b"\n".join(b"-" + x for x in chunk))
        c.add("policy_decide", b"\x00" + b"\n".join(
            [b"+" + chunk[0]] + [b"-" + x for x in chunk[1:4]] + [b"h" + x for x in chunk] +
            [b"i" + x for x in chunk]))
    for t in [b"filtered", b"open", b"disabled", b"Filtered", b"", b"closed"]:
        c.add("policy_compile", b"\x00" + t + b"\npypi.org\n-ALL_TRAFFIC")
    c.add("policy_decide", b"\x04+*.example.com\n+10.0.0.0/8\n-*\n-0.0.0.0/0\nhapi.example.com\n"
                           b"hexample.com\ni10.2.3.4\ni::ffff:10.2.3.4\nba.example.com 10.9.9.9\n"
                           b"ba.example.com 8.8.8.8\nh10.0.0.1\nh[::1]\nhexample.com:443")
    c.add("policy_decide", b"\x00+2001:db8::/32\n+2001:db8:1::/48\n-::/0\n-2001:db8:1:2::/64\n"
                           b"i2001:db8:1:2::5\ni2001:db8::9\ni::1\nh*.x\nhlocalhost")

    # 6. Config: user rules and severities.
    for rid, pat, msg, sev, cmds in [
        (b"no-curl-k", rb"curl\s+(-k|--insecure)", b"insecure TLS", b"sudo-usage=0\ncurl-pipe-shell=3",
         [b"RUN curl -k https://x | sh", b"RUN sudo apt-get install x"]),
        (b"wget", rb"\bwget\b", b"use curl", b"apt-get-missing-yes=1", [b"RUN wget x", b"RUN apt-get install x"]),
        (b"deep", rb"(a+)+$", b"catastrophic", b"", [b"RUN " + b"a" * 40 + b"!"]),
        (b"denied-instruction", rb"x", b"built-in id", b"denied-instruction=0", [b"FROM x"]),
        (b"bad", rb"(", b"bad pattern", b"unknown-field=1", [b"RUN x"]),
        (b"body", rb"^secret", b"in a heredoc", b"", [b"RUN <<EOF\nsecret\nEOF"]),
    ]:
        for bits in (0x01, 0x06, 0x12):
            c.add("config", bytes([bits, 13]) + SEP.join([rid, pat, msg, sev] + cmds))

    # 7. Templates: field variations.
    for have, bits, cpu, mem, name, extra, text in [
        (0x0f, 0x01, 2, 4096, b"my-template", b"", b""),
        (0x00, 0x00, 0, 0, b"", b"", b""),
        (0x3f, 0x00, 2, 4096, b"My Template!", b"cpus\nmemory\nnetwork_policy\nteam", b"2.5"),
        (0x4f, 0x04, 9, 100, b"-x-", b"name", b""),
        (0x8f, 0x08, 1, 512, b"a" * 70, b"", b""),
    ]:
        hdr = bytes([have, bits]) + (cpu & 0xFFFF).to_bytes(2, "little") + (mem & 0xFFFF).to_bytes(2, "little")
        c.add("template", hdr + SEP.join([name, extra, text, b"RUN true", b"USER nobody", b"STOPSIGNAL SIGKILL"]))
    # 8. JSON exec forms: escapes decoded (\\u, surrogates), objects, numbers; heredoc names
    # with quotes, escapes and expansions.
    for cmd in [b'VOLUME ["\\u0020"]',
                b'VOLUME ["/data\\u00e9", "\\ud83d\\ude00", "\\ud800x", "\\b\\f\\n\\r\\t\\/\\"\\\\", "\\u0041\\u07ff\\uffff"]',
                b'RUN ["sh", "-c", "curl https://x \\u007c sh"]', b'CMD [{"a": 1, "b": [2, {"c": null}]}]',
                b'SHELL [{"a":"b","c":"d"}]', b'RUN ["a", 1.5e+10, -2E-3, true, false, null]', b'RUN ["a", 1e]',
                b'ENTRYPOINT ["\\u00"]', b'RUN ["sudo", "apt-get", "install", "\\u0078"]',
                b'RUN cat <<EOF\\', b'RUN cat <<"EOF', b'RUN cat <<E${x:-"a"}', b'RUN cat <<${x}', b'RUN cat <<E$(x)',
                b'RUN cat <<"E"\'O\'F', b'RUN cat <<E"O F"', b'RUN cat <<E\\ F', b'RUN cat <<E${x#y}', b'RUN cat <<E${x:?}',
                b'RUN cat <<E${\xc3\xa9}', b'RUN cat <<E${x:\xc3\xa9}', b'RUN cat <<E${', b'RUN <<`E`']:
        c.add("commands", commands_input([cmd]))
        c.add("commands", commands_input([cmd], bits=2))

    # 9. Out-of-memory variants: the last byte (% 64) is the number of allocations that succeed.
    oom_n = [0, 1, 2, 3, 5, 8, 12, 17, 23, 30, 38, 47, 56, 63]
    oom_cmds = [[b"RUN apt-get update && apt-get install -y curl"],
                [b"RUN <<EOF cat\nx\nEOF", b"ONBUILD RUN <<A <<B\na\nA\nb\nB", b"USER nobody"],
                [b"FROM x", b"RUN --mount=type=cache,target=/x --network=host sudo curl https://u:p@h | sh"],
                [b"HEALTHCHECK --interval=5s CMD true", b"ENV A=1 B=2", b"LABEL a=b", b"EXPOSE 80/tcp"],
                [b"frob x", b"RUN a \\", b"SHELL [\"sh\", 1]", b"RUN <<EOF"]]
    for k in oom_n:
        for g in oom_cmds:
            c.add("commands", commands_input(g + [bytes([k])], bits=0x12))
            c.add("commands", commands_input(g + [bytes([k])], bits=0x10))
        c.add("fragment", b"\x06FROM x\n# boxlint ignore=sudo-usage\nRUN sudo x\nRUN <<EOF\nbody\nEOF\n"
                          b"ONBUILD RUN a\nfrob\n#" + bytes([k]))
        c.add("fragment", b"\x04# escape=`\nFROM x\nRUN a `\n  b\n#" + bytes([k]))
        c.add("config", bytes([0x21, 13]) + SEP.join([b"no-curl-k", rb"curl\s+-k", b"insecure",
                                                     b"sudo-usage=0", b"RUN curl -k x", b"RUN <<EOF\ncurl -k\nEOF",
                                                     bytes([k])]))
        c.add("policy_compile", b"\x81pypi.org\n*.example.com\n10.0.0.0/8\n2001:db8::/32\n-ALL_TRAFFIC\n"
                                b"-*.bad.example.com\n-1.2.3.4\n" + bytes([k]))
        c.add("policy_compile", b"\x89a.com\na.com\n*.com\n0.0.0.0/1\n-*\n-::/0\nbad entry\n" + bytes([k]))
        c.add("template", b"\x3f\x11\x02\x00\x00\x10" + SEP.join([b"My Template", b"cpus\nmemroy", b"2.5",
                                                                 b"RUN true", b"USER nobody", bytes([k])]))

    # 10. Python sources: the documentation's examples and the literal forms (with and without a
    # config, the E2B compat bits, out of memory), SDK calls whose findings have fixes, and the
    # hard cases of the tokenizer and the literal decoder: f-string fields, \N{} names, CRLF
    # continuations, tabs, a NUL byte, bytes mixed with str.
    py = sorted(glob.glob("tests/data/python/*/*.py")) + ["examples/quickstart.py"]
    for i, p in enumerate(py):
        data = open(p, "rb").read()
        c.add("python", b"\x00" + data, limit=8000)
        c.add("python", bytes([1 + 2 * (i % 2)]) + data, limit=8000)
        c.add("python", b"\x05" + data[:3000] + bytes([i * 7 % 64]))
    sdk = (b"from e2b import Sandbox, NetworkPolicy\n"
           b"t = client.templates.create(name='My Template', commands=['pip install x',\n"
           b"    'RUN sudo apt-get install -y curl', \"RUN echo '\\N{EM DASH}'\"],\n"
           b"    cpu_count=3, memory_mb=1000,\n"
           b"    network_policy=NetworkPolicy(allow_out=['pypi.org', '*.'], deny_out=[]))\n"
           b"agents.add_code_interpreter(template_id='python-4g', version=0,\n"
           b"                            lifespan_seconds=5)  # boxlint: ignore=unusual-lifespan\n")
    hard = [sdk, sdk.replace(b"\n", b"\r\n"), sdk.replace(b"'", b'"""'),
            b"x = f'{\"}\"}' f'{x:{{}}}' f'{x!r:>{w}}' f'{x=}' rf'\\{x}' f'{ {1: 2}[1] }'\n",
            b"x = f'{x:{y:{z}}}'\n", b"x = f'{}'\n", b"x = f'{x!z}'\n", b"x = f'{#}'\n",
            b"s = '\\N{LINE FEED}\\N{CJK UNIFIED IDEOGRAPH-4E00}\\N{HANGUL SYLLABLE GANJ}'\n",
            b"s = '\\N{hangul syllable ga}\\N{cjk unified ideograph-4E00}\\N{nel}'\n",
            b"s = 'a\\\r\nb' b'\\x4'\n", b"if x:\n    a\n\tb\n", b"if x:\n  a\n b\n",
            b"x = (1,\n  2 # c\n)\n\\\n", b"x = 1 # a\x00b\n", b"x = b'\xc3\xa9' 'a'\n",
            b"\xef\xbb\xbfclass A:\n\tdef f(self):\n\t\treturn 0x_f + 0o7 + 1_0.5e-3j\n",
            b"x = '''\r\n\\\r\n'''\n", b"x = '\xe2\x82\xac' + \xe2\x82\xac\n", b"def f(:\n"]
    for h in hard:
        c.add("python", b"\x00" + h)
        c.add("python", b"\x01" + h)
    c.write()


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""`boxlint DIR` (cli/walk.c, docs/design.md §6, issue 14): which files a walk reports and in which
order, what it skips (hidden directories, node_modules, virtual environments, --exclude, what git
ignores), files and directories given by name, the config's "fragments", walk errors. Then the
gitignore matcher (cli/gitignore.c, through tests/gitignore_probe) and the walk itself against
git as the oracle (`git check-ignore --no-index -v`) on randomly generated repositories.

Usage: walk_test.py PATH/TO/boxlint PATH/TO/gitignore_probe
"""
import json, os, random, shutil, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN, PROBE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
if not shutil.which("git"):
    print("walk: skipped, git is not installed")
    sys.exit(77)
tmp = tempfile.mkdtemp()
ENV = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
ENV.update(NO_COLOR="1", HOME=tmp, XDG_CONFIG_HOME=os.path.join(tmp, "xdg"),
           GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
results = harness.Checks()
check, fails = results.check, results.fails


os.chmod(tmp, 0o755)  # the unprivileged runs below must reach their files


def run(args, cwd=tmp, stdin=None, exe=BIN, timeout=60, as_nobody=False):
    """The program's exit code, stdout, stderr; -9 and "timed out" when it runs over `timeout`.
    as_nobody: when the suite runs as root, run as nobody (root reads every directory), from a
    0755 copy of the program in tmp (the build tree may be in a directory nobody cannot enter)."""
    pre = None
    if as_nobody and os.geteuid() == 0:
        def pre():
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
        copy = os.path.join(tmp, "boxlint-for-nobody")
        if not os.path.exists(copy):
            shutil.copy(exe, copy)
            os.chmod(copy, 0o755)
        exe = copy
    try:
        p = subprocess.run([exe] + args, input=stdin, capture_output=True, timeout=timeout,
                           env=ENV, cwd=cwd, preexec_fn=pre)
    except subprocess.TimeoutExpired:
        return -9, "", "timed out after %s s" % timeout
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def paths_all(out):
    try:
        return [f["path"] for f in json.loads(out)["files"]]
    except (ValueError, KeyError) as e:
        return ["<not the JSON document: %s>" % e, out[:300]]


def git(root, *args, stdin=None):
    p = subprocess.run(["git", "-C", root] + list(args), input=stdin, capture_output=True,
                       timeout=60, env=ENV)
    if p.returncode > 1:
        raise SystemExit("git %s: %s" % (" ".join(args), p.stderr.decode()))
    return p.stdout


def make(root, files):
    """files: relative path -> text (bytes or str), or None for an empty directory."""
    for rel, text in files.items():
        p = os.path.join(root, rel)
        if text is None:
            os.makedirs(p, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(text if isinstance(text, bytes) else text.encode())


# ------------------------------------------------------------------------------------------------
# One project with every case, and the exact list a walk reports.
# ------------------------------------------------------------------------------------------------
OK, BAD = "RUN true\n", "FROM x\n"
TEMPLATE = json.dumps({"name": "t", "commands": ["RUN true"], "cpu_count": 2, "memory_mb": 1024})
proj = os.path.join(tmp, "proj")
os.makedirs(proj)
git(proj, "init", "-q")
make(proj, {
    ".gitignore": "# a comment\n"
                  "build/\n"
                  "/top.Dockerfile\n"
                  "!keep.Dockerfile\n"
                  "gen/**\n"
                  "!gen/ok.Dockerfile\n"
                  "spaced.Dockerfile   \n"
                  "docs/*.Dockerfile\n"
                  "**/tmp/\n"
                  "\\#hash.Dockerfile\n"
                  "\\!bang.Dockerfile\n"
                  "q?.Dockerfile\n"
                  "[ab]c.Dockerfile\n"
                  "src/anch.Dockerfile\n"
                  "outer-only.Dockerfile\n"
                  "sp\\ ace.Dockerfile\n",
    ".git/info/exclude": "excluded.Dockerfile\n",
    ".boxlint.json": json.dumps({"fragments": ["ci/*.steps", "*.frag"]}),
    "B.Dockerfile": OK, "a/i.Dockerfile": OK, "a-b.Dockerfile": OK, "a.Dockerfile": BAD,
    "top.Dockerfile": BAD, "b/top.Dockerfile": OK, "keep.Dockerfile": OK,
    "build/x.Dockerfile": BAD, "build/keep.Dockerfile": BAD,
    "gen/ok.Dockerfile": OK, "gen/no.Dockerfile": BAD,
    "spaced.Dockerfile": BAD, "docs/d.Dockerfile": BAD, "b/docs/d.Dockerfile": OK,
    "b/c/tmp/t.Dockerfile": BAD, "#hash.Dockerfile": BAD, "!bang.Dockerfile": BAD,
    "q1.Dockerfile": BAD, "q12.Dockerfile": OK, "ac.Dockerfile": BAD, "cc.Dockerfile": OK,
    "src/anch.Dockerfile": BAD, "sp ace.Dockerfile": BAD, "excluded.Dockerfile": BAD,
    "ci/build.steps": BAD, "ci/deep/x.steps": BAD, "other/y.frag": OK, "other/y.txt": BAD,
    "pkg/package.json": json.dumps({"name": "web", "version": "1.0.0", "private": True,
                                    "scripts": {"build": "vite build"},
                                    "dependencies": {"react": "^18.2.0"}}, indent=2),
    "pkg/tsconfig.json": json.dumps({"compilerOptions": {"strict": True}}),
    "pkg/t.json": TEMPLATE, "m.py": "x = 1\n",
    "node_modules/n.Dockerfile": BAD, ".hidden/h.Dockerfile": BAD,
    "venv/pyvenv.cfg": "home = /usr/bin\n", "venv/lib/v.Dockerfile": BAD,
    "conda/conda-meta/history": "", "conda/c.Dockerfile": BAD,
    "lib/site-packages/s.Dockerfile": BAD, "lib/l.Dockerfile": OK,
    "src/__pycache__/p.Dockerfile": BAD,
    "src/.gitignore": b"Dockerfile.*\r\n!Dockerfile.keep\r\n",
    "src/Dockerfile.dev": BAD, "src/Dockerfile.keep": OK, "src/deep/Dockerfile.x": BAD,
    "src/s.Dockerfile": OK, "src/spaced.Dockerfile": BAD,
    "outer-only.Dockerfile": BAD,
    "x.dockerfrag": OK, "Dockerfile": BAD, "README.md": BAD, "pkg/empty.json": "[]",
})
inner = os.path.join(proj, "inner")  # a repository inside: its own rules, not the outer ones
os.makedirs(inner)
git(inner, "init", "-q")
make(inner, {".gitignore": "x.Dockerfile\n", "x.Dockerfile": BAD, "outer-only.Dockerfile": OK})
os.symlink("src", os.path.join(proj, "linkdir"))                  # not followed
os.symlink("a.Dockerfile", os.path.join(proj, "link.Dockerfile"))  # a file: not followed either
os.symlink("missing", os.path.join(proj, "dangling.Dockerfile"))   # nothing to read

EXPECTED = ["B.Dockerfile", "a/i.Dockerfile", "a-b.Dockerfile", "a.Dockerfile",
            "b/docs/d.Dockerfile", "b/top.Dockerfile", "cc.Dockerfile", "ci/build.steps",
            "gen/ok.Dockerfile", "inner/outer-only.Dockerfile", "keep.Dockerfile",
            "lib/l.Dockerfile", "m.py", "other/y.frag", "pkg/t.json",
            "q12.Dockerfile", "src/Dockerfile.keep", "src/s.Dockerfile", "x.dockerfrag"]

def paths(out, keep_package_json=False):
    """The paths reported; a package.json found by a walk has its own check (below), so that the
    other checks stay exact about everything else."""
    return [p for p in paths_all(out) if keep_package_json or not p.endswith("pkg/package.json")]


rc, out, err = run(["--format", "json", "proj"])
check("walk: a package.json (not a template) is skipped silently",
      "proj/pkg/package.json" not in paths(out, True), paths(out, True))
got = paths(out)
check("walk: exactly these files, in this order", got == ["proj/" + p for p in EXPECTED],
      [p for p in got if p[5:] not in EXPECTED], [p for p in EXPECTED if "proj/" + p not in got], got)
check("walk: exit 1 (findings)", rc == 1, rc, err)
check("walk: nothing on stderr", err == "", err)
check("walk: the configuration, an ordinary Dockerfile, a README and an empty JSON array are "
      "not linted", not any(p.endswith(("/.boxlint.json", "/Dockerfile", "/README.md", "/empty.json"))
                            for p in paths(out, True)), paths(out, True))
by_path = {f["path"]: f for f in json.loads(out)["files"]} if out.startswith("{") else {}
check("walk: a found fragment is checked", [d["rule"] for d in by_path.get("proj/a.Dockerfile",
      {}).get("diagnostics", [])] == ["denied-instruction"], by_path.get("proj/a.Dockerfile"))
check("walk: a config fragment is checked as a fragment",
      [d["rule"] for d in by_path.get("proj/ci/build.steps", {}).get("diagnostics", [])]
      == ["denied-instruction"], by_path.get("proj/ci/build.steps"))

rc, out, err = run(["--format", "json", "proj/"])
check("walk: DIR/ spells paths once", paths(out) == ["proj/" + p for p in EXPECTED], paths(out))
rc, out, err = run(["--format", "json", "."], cwd=proj)
check("walk: boxlint . (a hidden name, given)", paths(out) == ["./" + p for p in EXPECTED],
      paths(out), err)

# --force-exclude: every file of the tree named (as pre-commit names them: relative, from the
# work tree's root), and the same files reported as the walk reports (symbolic links, which a
# walk does not follow, left out: pre-commit does not pass them either).
every = []
for d, dirs, files in os.walk(proj):
    for f in files:
        full = os.path.join(d, f)
        if not os.path.islink(full):
            every.append(os.path.relpath(full, proj))
rc, out, err = run(["--format", "json", "--force-exclude"] + sorted(every), cwd=proj)
check("--force-exclude on every file of the tree = the walk, file for file",
      sorted(paths(out)) == sorted(EXPECTED) and err == "", sorted(set(paths(out)) ^ set(EXPECTED)), err)
rc, out, err = run(["--format", "json", "--force-exclude"] +
                   [os.path.join(proj, p) for p in sorted(every)], cwd=os.path.join(proj, "src"))
check("--force-exclude, absolute paths from a subdirectory: the work tree's rules (gitignore) apply",
      set(paths(out)) <= set(os.path.join(proj, p) for p in EXPECTED) and
      os.path.join(proj, "gen/ok.Dockerfile") in paths(out) and
      os.path.join(proj, "gen/no.Dockerfile") not in paths(out), paths(out), err)

# A directory inside the repository: the .gitignore files above it apply (a name pattern, and
# one anchored with a middle '/'); the config above it gives its fragments.
rc, out, err = run(["--format", "json", "proj/src"])
check("subdirectory: the rules from the root down",
      paths(out) == ["proj/src/Dockerfile.keep", "proj/src/s.Dockerfile"], paths(out), err)
rc, out, err = run(["--format", "json", "proj/ci"])
check("subdirectory: the config's fragments, relative to its directory",
      paths(out) == ["proj/ci/build.steps"], paths(out), err)

# --exclude: a name (a directory and what it holds), a path from DIR, --exclude=, '**', a
# trailing '/' (directories only: m.py stays).
rc, out, err = run(["--format", "json", "--exclude", "a", "--exclude", "lib/l.Dockerfile",
                    "--exclude=*.frag", "--exclude", "**/Dockerfile.keep", "--exclude", "gen/",
                    "--exclude", "m.py/", "proj"])
gone = {"a/i.Dockerfile", "lib/l.Dockerfile", "other/y.frag", "src/Dockerfile.keep",
        "gen/ok.Dockerfile"}
check("--exclude", paths(out) == ["proj/" + p for p in EXPECTED if p not in gone], paths(out), err)
rc, out, err = run(["--format", "json", "--exclude", "proj/a.Dockerfile", "proj"])
check("--exclude: a path is relative to DIR", "proj/a.Dockerfile" in paths(out), paths(out))

# Given by name: always checked, even when ignored, excluded, or in a skipped directory; a
# JSON file given by name is linted whatever it holds.
named = ["proj/top.Dockerfile", "proj/build/x.Dockerfile", "proj/node_modules/n.Dockerfile",
         "proj/pkg/package.json"]
rc, out, err = run(["--format", "json", "--exclude", "top.Dockerfile"] + named)
check("named files are checked", paths(out, True) == named, paths(out, True), err)
named_files = {f["path"]: f for f in json.loads(out)["files"]} if out.startswith("{") else {}
check("named package.json is linted as a template", rc == 1 and "missing-field" in
      [d["rule"] for d in named_files.get("proj/pkg/package.json", {}).get("diagnostics", [])],
      rc, named_files.get("proj/pkg/package.json"))
for d, want in (("proj/.hidden", ["proj/.hidden/h.Dockerfile"]),
                ("proj/node_modules", ["proj/node_modules/n.Dockerfile"]),
                ("proj/venv", ["proj/venv/lib/v.Dockerfile"]),
                ("proj/build", ["proj/build/keep.Dockerfile", "proj/build/x.Dockerfile"])):
    rc, out, err = run(["--format", "json", d])
    check("named directory is walked: " + d, paths(out) == want, paths(out), err)

# Text output names each file as the walk spells it.
rc, out, err = run(["proj/gen", "proj/b"])
check("text output: clean files print nothing", rc == 0 and out == "" and err == "", rc, out, err)
rc, out, err = run(["proj/ci"])
check("text output: position", out.startswith("proj/ci/build.steps:1:1: error: FROM"), out)

# Walk errors: `boxlint: PATH: reason` on stderr, exit 2, the other inputs still checked.
rc, out, err = run(["--format", "json", "nope", "proj/gen"])
check("missing path: message", err == "boxlint: nope: No such file or directory\n", err)
check("missing path: exit 2", rc == 2, rc)
check("missing path: the rest checked", paths(out) == ["proj/gen/ok.Dockerfile"], paths(out))

longroot = os.path.join(tmp, "long")  # deeper than PATH_MAX: lstat fails inside the walk
os.makedirs(longroot)
make(longroot, {"a.Dockerfile": OK, "z.Dockerfile": OK})
d, depth = longroot, 0
while len(d) < 4300:
    name = "d" * 200
    fd = os.open(d if depth == 0 else ".", os.O_RDONLY)
    os.mkdir(name, dir_fd=fd)
    os.close(fd)
    os.chdir(os.path.join(d, name) if depth == 0 else name)
    d, depth = d + "/" + name, depth + 1
os.chdir(tmp)
rc, out, err = run(["--format", "json", "long"])
check("walk error: exit 2", rc == 2, rc, err)
check("walk error: one line, the path and the reason",
      err.count("\n") == 1 and err.startswith("boxlint: long/ddd") and
      err.endswith(": File name too long\n"), err)
check("walk error: the rest checked", paths(out) == ["long/a.Dockerfile", "long/z.Dockerfile"],
      paths(out))
# A file found that cannot be checked (over the input limit): exit 2, the walk goes on.
make(tmp, {"big/a.Dockerfile": OK, "big/b.Dockerfile": "#" * (16 * 1024 * 1024 + 1),
           "big/c.Dockerfile": OK})
rc, out, err = run(["--format", "json", "big"])
check("found file not checked: exit 2", rc == 2, rc, err)
check("found file not checked: why", err.startswith("boxlint: big/b.Dockerfile: ") and
      err.count("\n") == 1, err)
check("found file not checked: the rest", paths(out) == ["big/a.Dockerfile", "big/c.Dockerfile"],
      paths(out))
# An unreadable directory: one error (not also one for its .gitignore), the rest walked; in a
# git work tree and outside one. As nobody when the suite runs as root (root reads everything).
for where in ("locked", "proj/locked"):
    make(tmp, {where + "/in/x.Dockerfile": OK, where + "/y.Dockerfile": OK})
    os.chmod(os.path.join(tmp, where, "in"), 0)
    rc, out, err = run(["--format", "json", where], as_nobody=True)
    os.chmod(os.path.join(tmp, where, "in"), 0o755)
    check("unreadable directory: one error: " + where, rc == 2 and err == "boxlint: %s/in: "
          "Permission denied\n" % where and paths(out) == [where + "/y.Dockerfile"],
          rc, err, paths(out))
    shutil.rmtree(os.path.join(tmp, where))

# Outside a git work tree, .gitignore files mean nothing (the walked directory's, and those of
# the directories below it); a work tree found inside has its own.
make(tmp, {"plain/.gitignore": "*.Dockerfile\n", "plain/p.Dockerfile": OK,
           "plain/sub/.gitignore": "*.Dockerfile\n", "plain/sub/s.Dockerfile": BAD,
           "plain/repo/.gitignore": "i.Dockerfile\n", "plain/repo/i.Dockerfile": BAD,
           "plain/repo/k.Dockerfile": OK, "plain/repo/d/.gitignore": "j.Dockerfile\n",
           "plain/repo/d/j.Dockerfile": BAD})
git(os.path.join(tmp, "plain/repo"), "init", "-q")
if subprocess.run(["git", "-C", tmp, "rev-parse"], capture_output=True, env=ENV).returncode:
    rc, out, err = run(["--format", "json", "plain"])
    check("no repository: .gitignore not read",
          paths(out) == ["plain/p.Dockerfile", "plain/repo/k.Dockerfile", "plain/sub/s.Dockerfile"],
          paths(out), err)
    rc, out, err = run(["--format", "json", "plain/sub"])
    check("no repository: a subdirectory's .gitignore not read",
          paths(out) == ["plain/sub/s.Dockerfile"], paths(out), err)

# Symbolic links met in a walk are not followed, to a file or a directory, in the tree or out of
# it: neither linted nor fixed (a link named on the command line is followed).
outside = os.path.join(tmp, "outside")
make(outside, {"notes.txt": "pip install x\n", "d/o.Dockerfile": "pip install x\n"})
make(tmp, {"links/in.Dockerfile": OK})
os.symlink(os.path.join(outside, "notes.txt"), os.path.join(tmp, "links/evil.Dockerfile"))
os.symlink(os.path.join(outside, "d"), os.path.join(tmp, "links/dir"))
os.symlink("in.Dockerfile", os.path.join(tmp, "links/same.Dockerfile"))
rc, out, err = run(["--format", "json", "links"])
check("links: not followed by lint", rc == 0 and paths(out) == ["links/in.Dockerfile"] and
      err == "", rc, paths(out), err)
for mode in ("--fix", "--diff"):
    rc, out, err = run([mode, "links"])
    with open(os.path.join(outside, "notes.txt")) as f:
        kept = f.read()
    with open(os.path.join(outside, "d/o.Dockerfile")) as f:
        kept += f.read()
    check("links: %s leaves what is outside alone" % mode, rc == 0 and out == "" and err == ""
          and kept == "pip install x\n" * 2 and os.path.islink(os.path.join(tmp, "links/evil."
          "Dockerfile")), rc, out, err, kept)
rc, out, err = run(["--format", "json", "links/evil.Dockerfile"])
check("links: followed when named", rc == 1 and paths(out) == ["links/evil.Dockerfile"], rc, out)

# The walk never blocks: a FIFO named .gitignore, .git/info/exclude or like a fragment is not
# opened (a walk reads regular files only).
fifo = os.path.join(tmp, "fifo")
make(fifo, {"a.Dockerfile": OK, "d/b.Dockerfile": OK})
git(fifo, "init", "-q")
for f in (".gitignore", "d/.gitignore", ".git/info/exclude", "p.Dockerfile", "d/q.py"):
    if os.path.exists(os.path.join(fifo, f)):
        os.remove(os.path.join(fifo, f))
    os.mkfifo(os.path.join(fifo, f))
rc, out, err = run(["--format", "json", "fifo"], timeout=20)
check("FIFOs: the walk does not block", rc == 0 and err == "" and
      paths(out) == ["fifo/a.Dockerfile", "fifo/d/b.Dockerfile"], rc, paths(out), err)
rc, out, err = run(["--format", "json", "fifo/d"], timeout=20)
check("FIFOs: nor from a subdirectory", rc == 0 and paths(out) == ["fifo/d/b.Dockerfile"],
      rc, paths(out), err)

# The "fragments" key: --config's applies wherever the walk is (a name glob at any depth); its
# errors are the config's, with positions; an unknown key names it among the known ones.
make(tmp, {"cfg/frag.json": json.dumps({"fragments": ["*.steps"]})})
rc, out, err = run(["--format", "json", "--config", "cfg/frag.json", "proj/ci"])
check("--config fragments", paths(out) == ["proj/ci/build.steps", "proj/ci/deep/x.steps"],
      paths(out), err)
for text, want in (('{"fragments": "x"}', 'frag.json:1:15: invalid config: "fragments" must be'
                    ' an array of globs'),
                   ('{"fragments": ["a",\n  3]}', 'frag.json:2:3: invalid config: a fragments'
                    ' glob must be a non-empty string'),
                   ('{"fragments": [""]}', 'frag.json:1:16: invalid config: a fragments glob'
                    ' must be a non-empty string'),
                   ('{"fragment": []}', 'frag.json:1:2: invalid config: unknown key "fragment"'
                    ' (expected "rules", "user_rules", "fragments" or "target-version")')):
    make(tmp, {"cfg/frag.json": text})
    rc, out, err = run(["--config", "cfg/frag.json", "proj/ci"])
    check("config error: " + text, rc == 2 and err == "boxlint: cfg/" + want + "\n", rc, err)
make(tmp, {"cfgup/.boxlint.json": '{"fragments": [1]}', "cfgup/a.Dockerfile": OK})
rc, out, err = run(["cfgup"])
check("config error found upward", rc == 2 and "cfgup/.boxlint.json:1:16: invalid config" in err
      and err.count("\n") == 1, rc, err)

# ------------------------------------------------------------------------------------------------
# The matcher and the walk against git, on generated repositories.
# ------------------------------------------------------------------------------------------------
NAMES = ["a", "b", "ab", "ba", "abc", "doc", "Doc", "build", "x.Dockerfile", "Dockerfile.x",
         "y.log", "a b", "#c", "!n", "c]", "d-e", "foo", "foo.Dockerfile", "a[1]", "Ab"]
SEGS = ["a", "b", "ab", "*", "?", "a*", "*b", "[ab]", "[!a]", "[^b]*", "[a-c]*", "**", "***",
        "doc", "Doc", "build", "*.Dockerfile", "Dockerfile.*", "*.log", "\\#c", "\\!n", "a\\ b",
        "a?c", "[[:alpha:]]*", "[[:digit:]]", "[[:upper:]]*", "c\\]", "c]", "[]]", "foo*",
        "f*o", "**foo", "foo**", "d-e", "[a-]*", "\\*", "x.Docker?ile", "[x", "a[[]1]",
        "[[:bogus:]]", "*[[:punct:]]*", "?b*", "a/**/b"]


def gen_pattern(r):
    p = "/".join(r.choice(SEGS) for _ in range(r.choice([1, 1, 1, 2, 2, 3])))
    if r.random() < 0.2: p = "/" + p
    if r.random() < 0.2: p += "/"
    if r.random() < 0.25: p = "!" + p
    if r.random() < 0.1: p += "  "
    if r.random() < 0.05: p += "\\ "
    return p


def gen_ignore(r):
    lines = [gen_pattern(r) for _ in range(r.randint(1, 6))]
    if r.random() < 0.3: lines.insert(r.randrange(len(lines) + 1), "# " + gen_pattern(r))
    if r.random() < 0.3: lines.insert(r.randrange(len(lines) + 1), "")
    eol = "\r\n" if r.random() < 0.2 else "\n"
    return eol.join(lines) + (eol if r.random() < 0.8 else "")


def gen_repo(r, root):
    os.makedirs(root)
    git(root, "init", "-q")
    dirs, files = {""}, set()
    for _ in range(r.randint(6, 18)):
        parent = r.choice(sorted(dirs))
        rel = (parent + "/" if parent else "") + r.choice(NAMES)
        if rel in dirs or rel in files or any(rel.startswith(f + "/") for f in files):
            continue
        if r.random() < 0.4 and rel.count("/") < 3:
            dirs.add(rel)
            os.makedirs(os.path.join(root, rel), exist_ok=True)
        else:
            files.add(rel)
            make(root, {rel: OK})
    patterns = {}
    for d in sorted(dirs):
        if r.random() < (0.9 if d == "" else 0.35):
            patterns[d] = gen_ignore(r)
            make(root, {os.path.join(d, ".gitignore"): patterns[d]})
    if r.random() < 0.4:
        patterns[".git/info/exclude"] = gen_ignore(r)
        make(root, {".git/info/exclude": patterns[".git/info/exclude"]})
    return sorted(dirs - {""}) + sorted(files), files, patterns


def git_verdicts(root, rels):
    """git check-ignore --no-index -v -n: for each path, the pattern that decides (or none)."""
    out = git(root, "check-ignore", "--no-index", "-v", "-n", "-z", "--stdin",
              stdin=b"".join(os.fsencode(p) + b"\0" for p in rels)).split(b"\0")
    v = {}
    for i in range(0, len(out) - 3, 4):
        src, line, pat, path = out[i:i + 4]
        v[os.fsdecode(path)] = (pat != b"" and not pat.startswith(b"!"),
                                os.fsdecode(src) + ":" + line.decode() + ":" + os.fsdecode(pat))
    return v


def walk_order(root, rel=""):
    """Every file below root, depth first, names in bytewise order."""
    base = os.path.join(root, rel)
    for name in sorted(os.listdir(base), key=os.fsencode):
        sub = (rel + "/" if rel else "") + name
        if os.path.isdir(os.path.join(root, sub)):
            if not name.startswith("."):
                yield from walk_order(root, sub)
        else:
            yield sub


def probe_verdicts(root, rels):
    rc, out, err = run([root], exe=PROBE, stdin=b"".join(os.fsencode(p) + b"\0" for p in rels))
    v = {line[2:]: line[0] == "1" for line in out.splitlines()}
    check("probe ran in " + root, rc == 0 and len(v) == len(rels), rc, err)
    return v


# One tree, one .gitignore at a time (at the root, or in a/ or x/), every path compared: tricky
# patterns picked by hand, then generated ones (atoms glued into segments).
PAIR_DIRS = ["a", "a/b", "a/x", "a/x/y", "ab", "foo", "foo/a", "foox", "foox/y", "doc", "Doc",
             "build", "x", "x/build", "x/y", "x/y/z", "d-e", "Ab", "a b"]
PAIR_FILES = ["a/b/c", "a/x/b", "a/x/y/b", "ab/b", "foo/a/b", "foox/y/b", "doc/x.Dockerfile",
              "Doc/Dockerfile.x", "build/y.log", "x/build/z", "x/b", "#c", "!n", "c]", "-a",
              "d-e/f", "a[1]", "Ab/c", "q1", "q12", "x/y/z/w", "abc", "b", "a b/c", "a\\b",
              "]", "a.b", "B", "a" * 36, "a" * 35 + "b", "a/" + "a" * 30 + "/ab",
              "a/a/a/a/a/b", "aab/aab"]
HAND = ["a/**/b", "**/b", "a/**", "**", "foo**/b", "ab**", "a**/b", "*/b", "a/*", "/a", "a/",
        "/a/", "**/x/", "x/**/", "a/*/b", "a/**/y/b", "[!a]*", "[-b]*", "[b-]*", "[![:bogus:]]*",
        "[[:bogus:]]", "\\#c", "\\!n", "a\\ b", "a b  ", "a\\ b\\ ", "c]", "[]]", "[]a]*",
        "[", "[a", "*[", "\\", "a\\", "**/", "/", "!", "!a", "#c", " #c", "a[[]1]", "a[1]",
        "[[:alpha:]]", "[[:punct:]]", "[[:upper:]]*", "[[:space:]]*", "*.Dockerfile",
        "Dockerfile.*", "doc/*.Dockerfile", "***/b", "a/***", "a/**b", "a/b**", "-a", "[b-a]*",
        "?", "??", "*?*", "a?b", "x/**/z/", "x/**/**/w", "**/y/**", "/**/b", "foo*/b",
        "foo/**/", "*/", "/*", "[^a]*/", "a\\\\b", "a\\\\*", "\\]", "[\\]]", "[a\\-c]*",
        "a/b/\n!a/b/c", "a/\n!a/x", "*\n!*/", "x/*\n!x/y\nx/y/*\n!x/y/z", "\ufeffq1",
        # many stars (git's own matcher is exponential in them; kept small enough for git)
        "*a*a*a*b", "*a*a*a*", "a*a*a*a*a", "*a*?*a*[ab]*", "**/a/**/a/**/b", "**/a*/**/*b",
        "*/*a*/*a*a*", "a**a**a", "**a**a**", "*[a]*[a]*a*b*", "a/**/**/b/**", "**/**/*a*a*"]
ATOMS = ["a", "b", "x", "y", "z", "c", "foo", "doc", "*", "*", "?", "**", "[ab]", "[!a]", "[^b]",
         "[a-c]", "[-b]", "[]a]", "[[:alpha:]]", "[![:digit:]]", "[[:bogus:]]", "\\*", "\\[",
         "\\#", "\\!", "\\ ", "[", "]", "-", ".", "1"]


def gen_pair_pattern(r):
    segs = ["".join(r.choice(ATOMS) for _ in range(r.choice([1, 1, 2, 3])))
            for _ in range(r.choice([1, 1, 2, 2, 3, 4]))]
    p = "/".join(segs)
    if r.random() < 0.25: p = "/" + p
    if r.random() < 0.25: p += "/"
    if r.random() < 0.15: p = "!" + p
    if r.random() < 0.1: p += " " * r.randint(1, 2)
    return p


rng = random.Random(14)
pair_root = os.path.join(tmp, "pairs")
os.makedirs(pair_root)
git(pair_root, "init", "-q")
make(pair_root, {d: None for d in PAIR_DIRS})
make(pair_root, {f: OK for f in PAIR_FILES})
pair_rels = sorted(PAIR_DIRS + PAIR_FILES)
pairs = 0
for i, pat in enumerate(HAND + [gen_pair_pattern(rng) + ("\n" + gen_pair_pattern(rng)
                                                        if rng.random() < 0.4 else "")
                                for _ in range(200)]):
    where = "" if i % 4 else rng.choice(["", "a", "x"])
    for d in ("", "a", "x"):
        if os.path.exists(os.path.join(pair_root, d, ".gitignore")):
            os.remove(os.path.join(pair_root, d, ".gitignore"))
    make(pair_root, {os.path.join(where, ".gitignore"): pat + "\n"})
    verdict, probe = git_verdicts(pair_root, pair_rels), probe_verdicts(pair_root, pair_rels)
    for p in pair_rels:
        pairs += 1
        if p not in verdict or probe.get(p) != verdict[p][0]:
            check("matcher = git check-ignore: %r in %s/.gitignore, path %r" % (pat, where, p),
                  False, "git:", verdict.get(p), "boxlint:", probe.get(p))

# Generated repositories: .gitignore files at several depths, info/exclude; the matcher and the
# whole walk compared with git.
for k in range(40):
    root = os.path.join(tmp, "gen", "r%02d" % k)
    rels, files, patterns = gen_repo(rng, root)
    verdict, probe = git_verdicts(root, rels), probe_verdicts(root, rels)
    for p in rels:
        pairs += 1
        if p not in verdict or probe.get(p) != verdict[p][0]:
            check("matcher = git check-ignore: r%02d %r" % (k, p), False,
                  "git:", verdict.get(p), "boxlint:", probe.get(p), patterns)
    # The walk reports exactly the wanted files that git does not ignore, in walk order.
    want = [root + "/" + p for p in walk_order(root)
            if (p.endswith(".Dockerfile") or os.path.basename(p).startswith("Dockerfile."))
            and not verdict[p][0]]
    rc, out, err = run(["--format", "json", root])
    check("walk = git r%02d" % k, paths(out) == want and err == "",
          [p for p in paths(out) if p not in want], [p for p in want if p not in paths(out)],
          err, patterns)
check("enough pairs compared", pairs >= 10000, pairs)

# Patterns that are exponential for a backtracking matcher (and for git's): against long names
# they take milliseconds. The answers are known without git.
STARS = "*a" * 12 + "*b"
long_names = ["a" * 36 + ".Dockerfile", "a" * 100 + "c", "a" * 199 + "b",
              "/".join(["a"] * 60) + "/c", "/".join(["a"] * 60) + "/b"]
for pat, flags_want in ((STARS, [0, 0, 1, 0, 0]),
                        ("/".join(["**", "a"] * 12) + "/b", [0, 0, 0, 0, 1]),
                        ("*a" * 12 + "*", [1, 1, 1, 0, 0]),
                        ("a" + "*a" * 12 + "?b", [0, 0, 1, 0, 0])):
    adv = os.path.join(tmp, "adv")
    shutil.rmtree(adv, ignore_errors=True)
    make(adv, {".gitignore": pat + "\n"})
    git(adv, "init", "-q")
    rc, out, err = run([adv], exe=PROBE, timeout=20,
                       stdin=b"".join(os.fsencode(p) + b"\0" for p in long_names))
    got = [int(line[0]) for line in out.splitlines()]
    check("adversarial pattern %r: quick and right" % pat, rc == 0 and got == flags_want,
          rc, err, got, flags_want)
make(tmp, {"advwalk/" + "a" * 36 + ".Dockerfile": OK, "advwalk/" + "a" * 35 + "b.Dockerfile": OK})
rc, out, err = run(["--format", "json", "--exclude", STARS + ".Dockerfile", "advwalk"], timeout=20)
check("adversarial --exclude: quick and right", rc == 0 and paths(out) ==
      ["advwalk/" + "a" * 36 + ".Dockerfile"], rc, paths(out), err)
make(tmp, {"advwalk/.boxlint.json": json.dumps({"fragments": ["*a" * 14 + "*c.txt"]}),
           "advwalk/" + "a" * 40 + "c.txt": BAD, "advwalk/" + "a" * 40 + ".txt": BAD})
rc, out, err = run(["--format", "json", "advwalk"], timeout=20)
check("adversarial fragments glob: quick and right", rc == 1 and paths(out) ==
      ["advwalk/" + "a" * 36 + ".Dockerfile", "advwalk/" + "a" * 40 + "c.txt",
       "advwalk/" + "a" * 35 + "b.Dockerfile"], rc, paths(out), err)

shutil.rmtree(tmp)
results.print_fails()
print(f"walk: {results.passed} passed, {len(fails)} failed ({pairs} paths compared with git)")
results.exit()

#!/usr/bin/env python3
"""One answer from every entrance: the corpus of tests/data/entrances/tree (templates, bindings,
policies, fragments by every naming convention, Python files, each suppression form, and files
that are not templates: package.json, tsconfig.json, an ordinary Dockerfile, plain JSON, a text
file, a git-ignored template) checked through

  tree      boxlint --format json on the whole tree (the walk)
  file      boxlint --format json FILE, once per file the walk checks
  forced    boxlint --format json --force-exclude FILE, once per file of the tree
  lsp       boxlint lsp, each file opened as an editor opens it
  precommit pre-commit run --all-files with the hooks of .pre-commit-hooks.yaml
  python    the Python binding's boxlint.check_file(PATH)
  node      the Node binding's checkFile(PATH)

Each gives, per file, the set of findings (rule, severity, line, column); every entrance must
give the tree's, and nothing for the files that are not ours. The tree's own answer is held to
the rules each file must (and must not) report, written below by hand, so that the entrances
cannot agree on nothing.

usage: entrances_test.py BOXLINT SOURCE_DIR BINDINGS_LIBRARY [NODE]"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
LIB = os.path.abspath(sys.argv[3])
NODE = sys.argv[4] if len(sys.argv) > 4 else shutil.which("node")
CORPUS = os.path.join(SRC, "tests", "data", "entrances", "tree")

results = harness.Checks(echo=harness.say_failures)
check, fails = results.check, results.fails


# The rules each file of the corpus must report (and only those), by the tree walk. Files not
# listed get nothing. Severities come from the corpus's .boxlint.json: apt-lists-not-cleaned off,
# curl-pipe-shell raised to error, sudo-usage lowered to info.
EXPECTED = {
    "templates/quick.json": {("pip-no-cache-dir", "warning"), ("curl-pipe-shell", "error"),
                             ("allow-without-effect", "warning")},
    "ci.json": {("denied-instruction", "error"), ("unknown-instruction", "error")},
    "python.boxlint.json": {("invalid-name", "error"), ("invalid-resources", "error"),
                            ("unknown-field", "warning"), ("sudo-usage", "info")},
    "commands.json": {("pip-no-cache-dir", "warning"), ("denied-instruction", "error")},
    "binding.json": {("invalid-version", "error"), ("lists-not-allowed", "error")},
    "sub/policy.json": {("duplicate-entry", "warning"), ("any-host", "warning")},
    "base.Dockerfile": {("denied-instruction", "error"), ("unused-suppression", "warning")},
    "Dockerfile.extra": {("pip-no-cache-dir", "warning"), ("final-user-not-root", "warning")},
    "setup.dockerfrag": {("apt-get-missing-yes", "warning"), ("curl-pipe-shell", "error")},
    "Dockerfile.fragment": {("pip-no-cache-dir", "warning"), ("denied-instruction", "error")},
    "steps/install.txt": {("pip-no-cache-dir", "warning")},
    "app.py": {("sudo-usage", "info"), ("denied-instruction", "error"),
               ("allow-without-effect", "warning"), ("unused-suppression", "warning"),
               ("invalid-version", "error")},
}
# Findings that a suppression in the corpus removes: (file, rule, line) that must NOT appear.
SUPPRESSED = [("base.Dockerfile", "pip-no-cache-dir", 4),   # '# boxlint: ignore=' -- reason
              ("base.Dockerfile", "sudo-usage", 6),         # '# boxlint ignore=' (older form)
              ("app.py", "pip-no-cache-dir", 6),            # on the finding's line
              ("app.py", "sudo-usage", 13)]                 # older form, on the line before
# Where the unused suppressions are (file, line).
UNUSED = [("base.Dockerfile", 7), ("app.py", 14)]
NOT_OURS = ["package.json", "tsconfig.json", "Dockerfile", "sub/data.json", "notes.txt",
            "ignored/template.json", ".boxlint.json"]

tmp = tempfile.mkdtemp(prefix="boxlint-entrances-")
repo = os.path.join(tmp, "repo")
shutil.copytree(CORPUS, repo)
os.makedirs(os.path.join(repo, "ignored"))
shutil.copy(os.path.join(repo, "ci.json"), os.path.join(repo, "ignored", "template.json"))
with open(os.path.join(repo, ".gitignore"), "w") as f:
    f.write("ignored/\n")
env = dict(os.environ, NO_COLOR="1", GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
           GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com",
           PRE_COMMIT_HOME=os.path.join(tmp, "pre-commit-cache"),
           PATH=os.path.dirname(BIN) + os.pathsep + os.environ.get("PATH", ""))


def git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


git(repo, "init", "-q")
git(repo, "add", ".")
git(repo, "commit", "-q", "-m", "corpus")

FILES = sorted(os.path.relpath(os.path.join(d, n), repo)
               for d, ds, ns in os.walk(repo) if ".git" not in d.split(os.sep) for n in ns)
FILES = [f for f in FILES if not f.startswith(".git" + os.sep) and f != ".gitignore"]


def rel(p):
    p = os.path.normpath(p)
    return os.path.relpath(p, repo) if os.path.isabs(p) else p


def from_json_doc(text):
    """{file: set of (rule, severity, line, column)} from the command's JSON document."""
    out = {}
    doc = json.loads(text)
    for f in doc.get("files", []):
        s = out.setdefault(rel(f["path"]), set())
        for d in f.get("diagnostics", []):
            at = d.get("file") or d  # the position in the file (a JSON command's is "file")
            s.add((d["rule"], d["severity"], at.get("line") or 0, at.get("column") or 0))
    return out


def run(args, **kw):
    return subprocess.run([BIN, *args], cwd=repo, env=env, capture_output=True, timeout=120, **kw)


answers = {}

# tree
p = run(["--format", "json", "."])
check("tree: exit 1 (findings)", p.returncode == 1, p.stderr.decode())
answers["tree"] = from_json_doc(p.stdout) if p.returncode in (0, 1) else {}
tree = answers["tree"]
OURS = sorted(tree)

# file, forced
answers["file"], answers["forced"] = {}, {}
for f in OURS:
    p = run(["--format", "json", f])
    check("file %s: exit 0 or 1" % f, p.returncode in (0, 1), p.stderr.decode())
    if p.returncode in (0, 1):
        answers["file"].update(from_json_doc(p.stdout))
for f in FILES:
    p = run(["--format", "json", "--force-exclude", f])
    check("forced %s: exit 0 or 1" % f, p.returncode in (0, 1), p.stderr.decode())
    if p.returncode in (0, 1):
        answers["forced"].update(from_json_doc(p.stdout))


# lsp
def lsp_answers():
    srv = subprocess.Popen([BIN, "lsp", "--debounce", "0"], cwd=repo, env=env,
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)

    def send(**m):
        b = json.dumps(dict(jsonrpc="2.0", **m)).encode()
        srv.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
        srv.stdin.flush()

    def recv():
        h = b""
        while not h.endswith(b"\r\n\r\n"):
            c = srv.stdout.read(1)
            if not c:
                return None
            h += c
        n = int(re.search(rb"Content-Length: *(\d+)", h).group(1))
        return json.loads(srv.stdout.read(n))

    send(id=1, method="initialize", params={
        "processId": None, "rootUri": "file://" + repo,
        "capabilities": {"general": {"positionEncodings": ["utf-32"]},
                         "textDocument": {"publishDiagnostics": {}}}})
    while True:
        m = recv()
        if m is None or m.get("id") == 1:
            break
    send(method="initialized", params={})
    lang = {".py": "python", ".json": "json", ".txt": "plaintext"}
    out = {}
    sev = {1: "error", 2: "warning", 3: "info", 4: "hint"}
    for f in FILES:
        path = os.path.join(repo, f)
        uri = "file://" + path
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        ext = os.path.splitext(f)[1]
        send(method="textDocument/didOpen", params={"textDocument": {
            "uri": uri, "languageId": lang.get(ext, "dockerfile"), "version": 1, "text": text}})
        # A request after the notification: its answer comes after the document's diagnostics.
        send(id=2, method="textDocument/hover", params={"textDocument": {"uri": uri},
                                                        "position": {"line": 0, "character": 0}})
        while True:
            m = recv()
            if m is None or m.get("id") == 2:
                break
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                ds = m["params"]["diagnostics"]
                if ds:
                    out[f] = {(d.get("code"), sev.get(d.get("severity"), "?"),
                               d["range"]["start"]["line"] + 1,
                               d["range"]["start"]["character"] + 1) for d in ds}
                else:
                    out.pop(f, None)
    send(id=3, method="shutdown", params=None)
    send(method="exit", params=None)
    try:
        srv.wait(timeout=30)
    except subprocess.TimeoutExpired:
        srv.kill()
    return out


answers["lsp"] = lsp_answers()

# precommit
TEXT = re.compile(r"^(?P<p>[^\s:][^:]*):(?P<l>\d+):(?P<c>\d+): (?P<s>error|warning|info): .*\[(?P<r>[a-z0-9-]+)\]$")


def precommit_answers():
    tool = shutil.which("pre-commit")
    if not tool:
        check("pre-commit is installed (make deps installs Debian's pre-commit)", False)
        return {}
    hooks = os.path.join(tmp, "hooks")
    os.makedirs(hooks)
    shutil.copy(os.path.join(SRC, ".pre-commit-hooks.yaml"), hooks)
    git(hooks, "init", "-q")
    git(hooks, "add", ".")
    git(hooks, "commit", "-q", "-m", "hooks")
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hooks, env=env, check=True,
                         capture_output=True).stdout.decode().strip()
    with open(os.path.join(SRC, ".pre-commit-hooks.yaml")) as fh:
        ids = re.findall(r"^- id: *(\S+)", fh.read(), re.M)
    cfg = "repos:\n  - repo: %s\n    rev: %s\n    hooks:\n" % (hooks, rev)
    cfg += "".join("      - id: %s\n" % i for i in ids)
    with open(os.path.join(repo, ".pre-commit-config.yaml"), "w") as fh:
        fh.write(cfg)
    p = subprocess.run([tool, "run", "--all-files"], cwd=repo, env=env, capture_output=True,
                       timeout=600)
    os.remove(os.path.join(repo, ".pre-commit-config.yaml"))
    out = {}
    for line in p.stdout.decode().splitlines():
        m = TEXT.match(line)
        if m:
            out.setdefault(rel(m["p"]), set()).add((m["r"], m["s"], int(m["l"]), int(m["c"])))
    check("pre-commit ran the hooks %s (exit 1: findings)" % ids, p.returncode == 1,
          p.stdout.decode()[-2000:] + p.stderr.decode()[-2000:])
    return out


answers["precommit"] = precommit_answers()

# python, node
benv = dict(env, BOXLINT_COMMAND=BIN, BOXLINT_LIBRARY=LIB, ASAN_OPTIONS="detect_leaks=0",
            PYTHONPATH=os.path.join(SRC, "bindings", "python"), PYTHONDONTWRITEBYTECODE="1")
PY = """
import json, sys, boxlint
out = {}
for f in sys.argv[1:]:
    r = boxlint.check_file(f)
    if r.diagnostics:
        out[f] = [[d.rule, d.severity, d.line, d.column] for d in r.diagnostics]
print(json.dumps(out))
"""
JS = """
const b = require(process.argv[1]);
const out = {};
for (const f of process.argv.slice(2)) {
  const r = b.checkFile(f);
  if (r.diagnostics.length) out[f] = r.diagnostics.map((d) => [d.rule, d.severity, d.line, d.column]);
}
console.log(JSON.stringify(out));
"""


def binding_answers(name, argv):
    p = subprocess.run(argv + FILES, cwd=repo, env=benv, capture_output=True, timeout=300)
    check("%s binding: ran" % name, p.returncode == 0, p.stderr.decode()[-2000:])
    if p.returncode:
        return {}
    return {rel(f): {tuple(d) for d in ds} for f, ds in json.loads(p.stdout).items()}


answers["python"] = binding_answers("python", [sys.executable, "-c", PY])
node_dir = os.path.join(SRC, "bindings", "node")
npm = shutil.which("npm")
if NODE and npm and subprocess.run([NODE, "-e", 'require("koffi")'], cwd=node_dir,
                                   capture_output=True).returncode != 0:
    # as the bindings_node test does (bindings/node/scripts/test.sh): koffi from the lock file
    subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
                   cwd=node_dir, capture_output=True, timeout=600)
if NODE and subprocess.run([NODE, "-e", 'require("koffi")'], cwd=node_dir,
                           capture_output=True).returncode == 0:
    answers["node"] = binding_answers("node", [NODE, "-e", JS, node_dir])
else:
    check("node and koffi are installed (bindings/node: npm ci)", False)

# The tree's answer against the corpus's expectations.
for f in FILES:
    got = {(r, s) for r, s, _l, _c in tree.get(f, set())}
    want = EXPECTED.get(f, set())
    check("tree: %s reports %s" % (f, sorted(r for r, _ in want) or "nothing"), got == want,
          "got %s" % sorted(got))
for f, r, line in SUPPRESSED:
    check("tree: %s:%d %s is suppressed" % (f, line, r),
          not any(x[0] == r and x[2] == line for x in tree.get(f, set())))
for f, line in UNUSED:
    check("tree: %s:%d unused-suppression" % (f, line),
          any(x[0] == "unused-suppression" and x[2] == line for x in tree.get(f, set())))
for f in NOT_OURS:
    check("tree: %s is not checked" % f, f not in tree)

# Every entrance against the tree, file by file.
for name, ans in answers.items():
    if name == "tree":
        continue
    for f in FILES:
        want = tree.get(f, set())
        got = ans.get(f, set())
        if name == "file" and f not in OURS:
            continue  # only the files the walk checks are named without --force-exclude
        if name == "precommit" and f.startswith("ignored/"):
            continue  # not tracked by git: pre-commit never sees it
        check("%s: %s gives the tree's %d findings" % (name, f, len(want)), got == want,
              "missing %s, extra %s" % (sorted(want - got), sorted(got - want)))

total = sum(len(v) for v in tree.values())
print("entrances: %d files (%d checked by the walk, %d findings), %d entrances, %d checks, %d failed"
      % (len(FILES), len(OURS), total, len(answers), results.n, len(fails)))
shutil.rmtree(tmp, ignore_errors=True)
results.exit()

#!/usr/bin/env python3
"""The pre-commit hooks of .pre-commit-hooks.yaml, run by pre-commit itself (Debian's package)
on a repository made here: `boxlint` on every file with --force-exclude, so that it selects
exactly what `boxlint .` selects (asserted file by file on a tree holding each kind, each naming
convention, non-template JSON, an ordinary Dockerfile, the config, and files a walk passes
over), and `boxlint-python` on Python code that writes templates as SDK calls. The hook
repository pre-commit installs from is a git repository made here holding this source tree's
.pre-commit-hooks.yaml as it is (committed or not), so that pre-commit clones a few bytes once
rather than the whole tree on every run; the `boxlint` under test is first on PATH. Arguments:
the boxlint binary, the source tree."""
import json, os, re, shutil, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
results = harness.Checks()
check, fails = results.check, results.fails

tool = shutil.which("pre-commit")
if not tool:
    print("FAIL: pre-commit is not installed (make deps installs Debian's pre-commit)")
    sys.exit(1)

tmp = tempfile.mkdtemp()
repo = os.path.join(tmp, "repo")
os.makedirs(os.path.join(repo, "templates"))
env = dict(os.environ, PATH=os.path.dirname(BIN) + os.pathsep + os.environ.get("PATH", ""),
           PRE_COMMIT_HOME=os.path.join(tmp, "cache"), NO_COLOR="1", GIT_AUTHOR_NAME="t",
           GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
           GIT_COMMITTER_EMAIL="t@example.com")

def write(rel, text):
    with open(os.path.join(repo, rel), "w") as f:
        f.write(text)

def git(*args):
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)

def run_hook(hook, *files):
    p = subprocess.run([tool, "run", hook, "--files", *files], cwd=repo, env=env,
                       capture_output=True, timeout=300)
    return p.returncode, p.stdout.decode() + p.stderr.decode()

hooks = os.path.join(tmp, "hooks")
os.makedirs(hooks)
shutil.copy(os.path.join(SRC, ".pre-commit-hooks.yaml"), hooks)
for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "hooks"]):
    subprocess.run(["git", *args], cwd=hooks, env=env, check=True, capture_output=True)
rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hooks, env=env, check=True,
                     capture_output=True).stdout.decode().strip()

git("init", "-q")
write(".pre-commit-config.yaml", "repos:\n  - repo: %s\n    rev: %s\n    hooks:\n"
      "      - id: boxlint\n      - id: boxlint-python\n" % (hooks, rev))
write("app.py", 'client.code_interpreter.templates.create(\n    name="py-extra",\n'
      '    commands=["pip install pydantic-ai"],\n    cpu_count=2,\n    memory_mb=4096,\n)\n')
write("clean.py", 'client.code_interpreter.templates.create(name="py-extra", '
      'commands=["RUN pip install --no-cache-dir pydantic-ai"], cpu_count=2, memory_mb=4096)\n')
write("plain.py", "print('no SDK call here')\n")
write("templates/t.json", '{"name": "t", "commands": ["COPY a /b"], "cpu_count": 2, '
      '"memory_mb": 4096}\n')
git("add", ".")

rc, out = run_hook("boxlint-python", "app.py", "plain.py")
check("a Python file with a bad command fails the hook", rc == 1, rc, out)
check("the finding names the Python line and column",
      "app.py:3:16: error: unknown instruction: pip [unknown-instruction]" in out, out)
check("the hook is the Python one", "boxlint (Python SDK calls)" in out and "Failed" in out, out)

rc, out = run_hook("boxlint-python", "clean.py", "plain.py")
check("clean Python passes", rc == 0 and "Passed" in out, rc, out)

rc, out = run_hook("boxlint", "templates/t.json")
check("a template file fails the template hook", rc == 1 and "denied-instruction" in out, rc, out)

rc, out = run_hook("boxlint-python", "templates/t.json")
check("the Python hook does not take JSON files", rc == 0 and ("no files to check" in out.lower()
      or "Skipped" in out), rc, out)

# ------------------------------------------------------------------------------------------------
# The `boxlint` hook selects what `boxlint .` selects: a tree with every kind and every naming
# convention, and files a walk passes over, all committed; `pre-commit run --all-files` passes
# them all to the hook. Findings compared file by file (path, line, column, severity, rule).
# ------------------------------------------------------------------------------------------------
BAD_CMD = "RUN apt-get install curl"
tree = {
    ".boxlint.json": json.dumps({"fragments": ["ci/*.steps"]}),
    "templates/x.json": json.dumps({"name": "x", "commands": [BAD_CMD], "cpu_count": 2,
                                    "memory_mb": 4096}),
    "top.json": json.dumps({"name": "top", "commands": ["COPY a /b"], "cpu_count": 2,
                            "memory_mb": 4096}),
    "cmds.json": json.dumps(["WROKDIR /srv"]),
    "python.boxlint.json": json.dumps({"name": "p", "commands": [BAD_CMD], "cpu_count": 2,
                                       "memory_mb": 4096}),
    "binding.json": json.dumps({"template_id": "python-4g", "version": 0}),
    "policy.json": json.dumps({"type": "filtered", "allow_out": ["pypi.org"], "deny_out": []}),
    "base.Dockerfile": "FROM python:3.12\n",
    "Dockerfile.extra": BAD_CMD + "\n",
    "setup.dockerfrag": "ENTRYPOINT x\n",
    "Dockerfile.fragment": "WROKDIR /srv\n",
    "ci/build.steps": "CMD x\n",
    "app.py": 'client.code_interpreter.templates.create(name="py-extra",\n'
              '    commands=["pip install pydantic-ai"], cpu_count=2, memory_mb=4096)\n',
    # not boxlint's: nothing from either
    "package.json": json.dumps({"name": "web", "version": "1.0.0", "private": True,
                                "scripts": {"build": "vite build"}}, indent=2),
    "tsconfig.json": json.dumps({"compilerOptions": {"strict": True, "target": "es2022"}}),
    "Dockerfile": "FROM python:3.12\nCOPY . /app\nCMD [\"python\", \"app.py\"]\n",
    "README.md": "FROM x\n",
    "ci/other.txt": "FROM x\n",
    # where a walk does not go: committed all the same (gen/ is ignored, added with -f)
    ".hidden/h.Dockerfile": "FROM x\n",
    "node_modules/n.Dockerfile": "FROM x\n",
    "venv/pyvenv.cfg": "home = /usr/bin\n",
    "venv/v.Dockerfile": "FROM x\n",
    "gen/g.Dockerfile": "FROM x\n",
    ".gitignore": "gen/\n",
}
EXPECT_FILES = {"templates/x.json", "top.json", "cmds.json", "python.boxlint.json",
                "binding.json", "policy.json", "base.Dockerfile", "Dockerfile.extra",
                "setup.dockerfrag", "Dockerfile.fragment", "ci/build.steps", "app.py"}
tree_repo = os.path.join(tmp, "tree")
os.makedirs(tree_repo)
repo = tree_repo
git("init", "-q")
for rel, text in tree.items():
    os.makedirs(os.path.dirname(os.path.join(repo, rel)) or repo, exist_ok=True)
    write(rel, text)
write(".pre-commit-config.yaml", "repos:\n  - repo: %s\n    rev: %s\n    hooks:\n"
      "      - id: boxlint\n" % (hooks, rev))
git("add", ".")
git("add", "-f", "gen/g.Dockerfile")
git("commit", "-q", "-m", "tree")

LINE = re.compile(r"^(\S+?):(\d+):(\d+): (error|warning|info): .* \[([a-z0-9-]+)\]$")


def findings(text):
    """path -> sorted [(line, column, severity, rule)] from text output."""
    by = {}
    for line in text.splitlines():
        m = LINE.match(line.strip())
        if m:
            path = m.group(1)[2:] if m.group(1).startswith("./") else m.group(1)
            by.setdefault(path, []).append((int(m.group(2)), int(m.group(3)), m.group(4),
                                            m.group(5)))
    return {k: sorted(v) for k, v in by.items()}


p = subprocess.run([BIN, "."], cwd=repo, env=env, capture_output=True, timeout=60)
walk = findings(p.stdout.decode())
check("boxlint . : exit 1, nothing on stderr", p.returncode == 1 and p.stderr == b"",
      p.returncode, p.stderr.decode())
check("boxlint . : findings in exactly the files of every kind and convention",
      set(walk) == EXPECT_FILES, sorted(set(walk) ^ EXPECT_FILES))
p = subprocess.run([tool, "run", "boxlint", "--all-files"], cwd=repo, env=env,
                   capture_output=True, timeout=300)
out = p.stdout.decode() + p.stderr.decode()
hook = findings(out)
check("the hook (--all-files): fails on the findings", p.returncode == 1 and "Failed" in out,
      p.returncode, out)
for f in sorted(EXPECT_FILES | set(hook) | set(walk)):
    check("hook = boxlint . for " + f, hook.get(f) == walk.get(f), hook.get(f), walk.get(f))
check("the hook says nothing of what it passes over (package.json, Dockerfile, gen/, ...)",
      not any(w in out for w in ("package.json", "tsconfig", "README", "gen/", "node_modules",
                                 ".hidden", "venv/", "other.txt", "boxlint: ")), out)

# the same files named one by one on the command line with --force-exclude, as the hook does
files = subprocess.run(["git", "ls-files"], cwd=repo, env=env, capture_output=True,
                       check=True).stdout.decode().split()
p = subprocess.run([BIN, "--force-exclude"] + files, cwd=repo, env=env, capture_output=True,
                   timeout=60)
check("--force-exclude on every tracked file = boxlint .",
      findings(p.stdout.decode()) == walk and p.stderr == b"", p.stderr.decode())
# without it, named files keep the command line's reading: package.json is a template, and an
# ordinary Dockerfile is refused (exit 2, never guessed to be a fragment) unless --kind says so
p = subprocess.run([BIN, "package.json", "Dockerfile"], cwd=repo, env=env, capture_output=True,
                   timeout=60)
got = findings(p.stdout.decode())
check("without --force-exclude: package.json read as a template, Dockerfile refused",
      "package.json" in got and "Dockerfile" not in got and p.returncode == 2 and
      b"Dockerfile: not a file boxlint checks by its name" in p.stderr and
      b"--kind fragment" in p.stderr, got, p.stderr)
p = subprocess.run([BIN, "--kind", "fragment", "Dockerfile"], cwd=repo, env=env,
                   capture_output=True, timeout=60)
check("--kind fragment: the Dockerfile read as a fragment",
      "Dockerfile" in findings(p.stdout.decode()), p.stdout, p.stderr)
# --exclude applies to named files too
p = subprocess.run([BIN, "--force-exclude", "--exclude", "ci", "ci/build.steps", "app.py"],
                   cwd=repo, env=env, capture_output=True, timeout=60)
check("--force-exclude with --exclude: the excluded directory's file passed over",
      set(findings(p.stdout.decode())) == {"app.py"}, p.stdout.decode())
# from a subdirectory, a path with '..': the same rules (gen/ ignored, .hidden hidden)
p = subprocess.run([BIN, "--force-exclude", "../gen/g.Dockerfile", "../.hidden/h.Dockerfile",
                    "build.steps"], cwd=os.path.join(repo, "ci"), env=env, capture_output=True,
                   timeout=60)
check("--force-exclude from a subdirectory: only build.steps",
      set(findings(p.stdout.decode())) == {"build.steps"}, p.stdout.decode(), p.stderr.decode())

shutil.rmtree(tmp, ignore_errors=True)
results.print_fails(sep="\n  ")
print("pre-commit: %d passed, %d failed" % (results.passed, len(fails)))
results.exit()

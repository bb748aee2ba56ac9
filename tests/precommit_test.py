#!/usr/bin/env python3
"""The pre-commit hooks of .pre-commit-hooks.yaml, run by pre-commit itself (Debian's package)
on a repository made here: `boxlint` on template files, `boxlint-python` on Python code that
writes templates as SDK calls. The hook repository pre-commit installs from is a git
repository made here holding this source tree's .pre-commit-hooks.yaml as it is (committed or
not), so that pre-commit clones a few bytes once rather than the whole tree on every run; the
`boxlint` under test is first on PATH. Arguments: the boxlint binary, the source tree."""
import os, shutil, subprocess, sys, tempfile

BIN, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
fails, n = [], 0

def check(name, cond, *info):
    global n
    n += 1
    if not cond:
        fails.append((name,) + info)

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

rc, out = run_hook("boxlint", "app.py")
check("the template hook does not take Python files", rc == 0 and "no files to check" in out.lower()
      or "Skipped" in out, rc, out)

shutil.rmtree(tmp, ignore_errors=True)
for f in fails:
    print("FAIL", *f, sep="\n  ")
print("pre-commit: %d passed, %d failed" % (n - len(fails), len(fails)))
sys.exit(1 if fails else 0)

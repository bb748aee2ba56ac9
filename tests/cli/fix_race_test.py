#!/usr/bin/env python3
"""`--fix` against an editor that writes the same file at a random moment (docs/command.md,
"Fixes"): over RUNS runs, each edit must survive. An editor writes either in place (open, append,
close, as `echo >>` does) or by replacing the file (a new file renamed over it, as most editors
save). Whatever the order, the file afterwards holds the editor's line: either boxlint's fix came
first and the edit is on top of it, or boxlint saw the change and wrote nothing, or the edit
replaced the fixed file. An edit that is missing afterwards is a lost update.

To make the moments that matter likely, half of the runs widen the window between boxlint's last
check and its rename with the command's test hook BOXLINT_TEST_PAUSE_AFTER_CHECK (a random pause
of up to 3 ms), and the editor's delay is drawn across the whole run. Nothing here measures time.

usage: fix_race_test.py BOXLINT [RUNS]"""
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN = sys.argv[1]
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
results = harness.Checks(echo=harness.say_each)
check = results.check
rng = random.Random(37)
tmp = tempfile.mkdtemp()
path = os.path.join(tmp, "race.Dockerfile")
ORIG = "WORKDR /app\nRUN echo %d\n"
FIXED = "WORKDIR /app\nRUN echo %d\n"


def edit_in_place(line):
    with open(path, "a") as f:
        f.write(line)


def edit_by_rename(line):
    with open(path) as f:
        text = f.read()
    new = path + ".editor"
    with open(new, "w") as f:
        f.write(text + line)
    os.rename(new, path)


def run_once(i, pause, delay, how):
    with open(path, "w") as f:
        f.write(ORIG % i)
    env = dict(os.environ)
    if pause:
        env["BOXLINT_TEST_PAUSE_AFTER_CHECK"] = "%.6f" % pause
    line = "# edit %d\n" % i
    t = threading.Timer(delay, (edit_in_place if how == "in place" else edit_by_rename), (line,))
    p = subprocess.Popen([BIN, "--fix", path], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    t.start()
    out, err = p.communicate(timeout=60)
    t.join()
    with open(path) as f:
        final = f.read()
    return p.returncode, err.decode("utf-8", "replace"), final, line


# How long one --fix takes here (under the sanitizers, much longer than a release build).
t0 = time.monotonic()
for _ in range(5):
    subprocess.run([BIN, "--fix", "--diff", os.devnull], capture_output=True)
span = max((time.monotonic() - t0) / 5 * 1.5, 0.01)
print("one --fix: about %.1f ms; edits drawn over that and the pause" % (span / 1.5 * 1000))

lost, outcomes, odd = [], {}, []
for i in range(RUNS):
    pause = rng.uniform(0, 0.003) if i % 2 else 0.0
    delay = rng.uniform(0, span + pause)
    how = "in place" if rng.random() < 0.5 else "by rename"
    rc, err, final, line = run_once(i, pause, delay, how)
    if line not in final:
        lost.append((i, how, round(delay * 1000, 2), round(pause * 1000, 2), rc, err[-200:], final))
        continue
    body = final.replace(line, "", 1)
    if body == FIXED % i:
        kind = "fixed, the edit kept (made before the read or after the rename)"
    elif body == ORIG % i and "changed while boxlint was fixing it" in err:
        kind = "change seen, nothing written"
    elif body == ORIG % i:
        kind = "the edit replaced the fixed file"
    else:
        odd.append((i, how, rc, err[-200:], final))
        continue
    outcomes[kind] = outcomes.get(kind, 0) + 1

left = [n for n in os.listdir(tmp) if n.startswith(".boxlint-fix-")]
print("outcomes over %d runs: %s" % (RUNS, outcomes))
check("%d --fix runs against an editor at random moments: no edit lost" % RUNS, not lost,
      "%d lost, first: %r" % (len(lost), lost[:3]))
check("... every file afterwards is the original or the fixed one, with the edit", not odd,
      odd[:3])
check("... the race was met: some runs saw the change and wrote nothing",
      outcomes.get("change seen, nothing written", 0) > 0, outcomes)
check("... no temporary file left behind", not left, left)
print("%d/%d passed" % (results.passed, results.n))
results.exit()

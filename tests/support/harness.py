"""tests/support/harness.py: the checks of a test script, counted, and its exit code.

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
    import harness
    results = harness.Checks()
    check = results.check
    check("exit code 1", rc == 1, rc, err)     # name, condition, what to print if it fails
    ...
    results.print_fails()                       # FAIL name info... for each failed check
    print(f"{results.passed} passed, {results.failed} failed")
    results.exit()                              # 1 if a check failed, else 0

A script that says each check as it runs passes echo: harness.say_each (ok/FAIL and the name,
the info of a failure), harness.say_status (ok: name / FAIL: name) or harness.say_failures."""
import sys


def say_each(name, cond, info):
    """`ok   NAME` or `FAIL NAME: INFO` (repr of the info, when there is one)."""
    shown = ""
    if not cond and info and info != (None,):
        shown = ": %r" % (info[0] if len(info) == 1 else info,)
    print(("ok   " if cond else "FAIL ") + name + shown)
    sys.stdout.flush()


def say_status(name, cond, info):
    """`ok: NAME` or `FAIL: NAME`."""
    print("%s: %s" % ("ok" if cond else "FAIL", name))


def say_failures(name, cond, info):
    """Only failures, as they happen: `FAIL NAME` or `FAIL NAME: INFO`."""
    if not cond:
        print("FAIL " + name + ("" if not info or not info[0] else ": " + str(info[0])))


class Checks:
    """The checks of one script: how many, and the failed ones with their info."""

    def __init__(self, echo=None):
        self.n = 0
        self.fails = []  # (name, *info) of each failed check, in order
        self.echo = echo

    def check(self, name, cond, *info):
        self.n += 1
        if self.echo:
            self.echo(name, cond, info)
        if not cond:
            self.fails.append((name,) + info)

    @property
    def failed(self):
        return len(self.fails)

    @property
    def passed(self):
        return self.n - len(self.fails)

    def print_fails(self, limit=None, sep=" ", prefix="FAIL"):
        """FAIL and each failed check's name and info (the first `limit` only, if given)."""
        for x in self.fails[:limit]:
            print(prefix, *x, sep=sep)

    def exit(self):
        sys.exit(1 if self.fails else 0)

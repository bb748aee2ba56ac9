#!/usr/bin/env python3
"""What `boxlint --fix` writes and refuses (issue 23, cli/fix_write.c): a file the user could not
write in place (not writable by them, read-only, owned by another user) is refused with exit 2 and
a message naming it, the other files still fixed; owner, group, mode, extended attributes and
POSIX ACLs are kept (and a directory's default ACL not added); a file with several hard links is
refused; a file changed between its reading and the rename is refused ("changed while boxlint was
fixing it: nothing written"); only regular files are read (a FIFO does not block); a symbolic link
named on the command line has its target fixed, one found in a walk never; SIGTERM and SIGINT in
the write window leave no `.boxlint-fix-*` behind.

The permission checks run as `nobody` (setpriv, from util-linux) from a mode 0755 copy of the
program in this test's own mode 0755 directory, so that they really run unprivileged when the
suite runs as root; as another user they run as that user, and the checks that need root to set up
are skipped, saying so. The timing checks use the command's test hook
BOXLINT_TEST_PAUSE_BEFORE_RENAME (seconds slept after the temporary file is complete, before the
last check and the rename).

Usage: fix_safety_test.py BOXLINT
"""
import glob, os, shutil, signal, stat, struct, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import harness  # noqa: E402  (tests/support: the checks, counted)

BIN = os.path.abspath(sys.argv[1])
ROOT = os.getuid() == 0
tmp = tempfile.mkdtemp(prefix="boxlint-fix-safety-")
os.chmod(tmp, 0o755)
EXE = os.path.join(tmp, "boxlint")  # a copy that nobody can reach and run
shutil.copy(BIN, EXE)
os.chmod(EXE, 0o755)
NOBODY = 65534
results = harness.Checks(echo=harness.say_status)
check, fails, skipped = results.check, results.fails, []
BEFORE, AFTER = b"pip install x\n", b"RUN pip install x\n"


def skip(name, why):
    skipped.append(name)
    print("SKIP: %s (%s)" % (name, why))


def cmd(args, as_nobody):
    pre = []
    if as_nobody and ROOT:
        pre = (["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
               if shutil.which("setpriv") else ["runuser", "-u", "nobody", "--"])
    return pre + [EXE] + args


def env(pause=None):
    e = dict(os.environ, NO_COLOR="1")
    if pause is not None:
        e["BOXLINT_TEST_PAUSE_BEFORE_RENAME"] = str(pause)
    return e


def run(args, as_nobody=False, timeout=60):
    p = subprocess.run(cmd(args, as_nobody), capture_output=True, timeout=timeout, env=env())
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


_dirs = 0


def fresh_dir(mode=0o777):
    global _dirs
    _dirs += 1
    d = os.path.join(tmp, "d%d" % _dirs)
    os.mkdir(d)
    os.chmod(d, mode)
    return d


def put(d, name, data=BEFORE, mode=0o644, owner=None):
    p = os.path.join(d, name)
    with open(p, "wb") as f:
        f.write(data)
    os.chmod(p, mode)
    if owner is not None:
        os.chown(p, owner, owner)
    return p


def get(p):
    with open(p, "rb") as f:
        return f.read()


def xget(p, name):
    try:
        return os.getxattr(p, name)
    except OSError as e:
        return e


def leftovers(d):
    return glob.glob(os.path.join(d, ".boxlint-fix-*"))


def acl(entries):
    """A POSIX ACL as the kernel stores it in system.posix_acl_*: (tag, perm, id) entries."""
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", t, p, i) for t, p, i in entries)


UNDEF = 0xFFFFFFFF
ACL_USER_OBJ, ACL_USER, ACL_GROUP_OBJ, ACL_MASK, ACL_OTHER = 1, 2, 4, 0x10, 0x20

# ---- what the user could not write in place ---------------------------------------------------
if ROOT:
    d = fresh_dir()
    p = put(d, "rootfile.Dockerfile", mode=0o644, owner=0)  # root's 0644 in a 0777 directory
    mine = put(d, "mine.Dockerfile", owner=NOBODY)
    rc, out, err = run(["--fix", p, mine], as_nobody=True)
    check("not writable by the user: exit 2", rc == 2, rc, err)
    check("not writable by the user: message names the file and the reason",
          "rootfile.Dockerfile: not fixed: you may not write it: Permission denied" in err, err)
    check("not writable by the user: untouched, still root's",
          get(p) == BEFORE and os.stat(p).st_uid == 0, get(p), os.stat(p).st_uid)
    check("not writable by the user: the other file still fixed", get(mine) == AFTER, get(mine))
    check("not writable by the user: no temporary file", not leftovers(d), leftovers(d))

    d = fresh_dir()
    p = put(d, "shared.Dockerfile", mode=0o666, owner=0)  # writable, but root's: owner must stay
    rc, out, err = run(["--fix", p], as_nobody=True)
    check("another user's file: exit 2", rc == 2, rc, err)
    check("another user's file: message",
          "shared.Dockerfile: not fixed: it belongs to user 0, group 0, which a file boxlint "
          "writes cannot keep" in err, err)
    check("another user's file: untouched, owner kept",
          get(p) == BEFORE and os.stat(p).st_uid == 0, get(p), os.stat(p).st_uid)
    check("another user's file: no temporary file", not leftovers(d), leftovers(d))
else:
    skip("not writable by the user; another user's file", "needs root to make a root-owned file")

d = fresh_dir()
p = put(d, "ro.Dockerfile", mode=0o444, owner=NOBODY if ROOT else None)
rc, out, err = run(["--fix", p], as_nobody=True)
check("read-only file: exit 2", rc == 2, rc, err)
check("read-only file: message", "ro.Dockerfile: not fixed: it is read-only (mode 0444)" in err,
      err)
check("read-only file: untouched", get(p) == BEFORE, get(p))
if ROOT:
    rc, out, err = run(["--fix", p])
    check("read-only file, as root: refused too", rc == 2 and get(p) == BEFORE, rc, err)

# ---- owner, group, mode, extended attributes, ACLs kept ---------------------------------------
d = fresh_dir(0o755)
p = put(d, "attrs.Dockerfile", mode=0o640, owner=NOBODY if ROOT else None)
xattrs_ok = True
try:
    os.setxattr(p, "user.boxlint-test", b"kept\0value")
except OSError as e:
    xattrs_ok = False
    skip("extended attributes kept", "the file system refuses user.* attributes: %s" % e)
acl_val = acl([(ACL_USER_OBJ, 6, UNDEF), (ACL_USER, 6, 4242), (ACL_GROUP_OBJ, 4, UNDEF),
               (ACL_MASK, 6, UNDEF), (ACL_OTHER, 0, UNDEF)])
acl_ok = True
try:
    os.setxattr(p, "system.posix_acl_access", acl_val)
except OSError as e:
    acl_ok = False
    skip("ACL kept", "the file system refuses POSIX ACLs: %s" % e)
before = os.stat(p)
rc, out, err = run(["--fix", p])
after = os.stat(p)
check("attributes: fixed", rc == 0 and get(p) == AFTER, rc, get(p), err)
check("attributes: replaced (a new inode)", after.st_ino != before.st_ino)
check("attributes: mode kept", after.st_mode == before.st_mode,
      oct(before.st_mode), oct(after.st_mode))
check("attributes: owner and group kept",
      (after.st_uid, after.st_gid) == (before.st_uid, before.st_gid),
      (before.st_uid, before.st_gid), (after.st_uid, after.st_gid))
if xattrs_ok:
    check("attributes: user xattr kept", xget(p, "user.boxlint-test") == b"kept\0value",
          os.listxattr(p))
if acl_ok:
    check("attributes: ACL kept", xget(p, "system.posix_acl_access") == acl_val,
          os.listxattr(p))
check("attributes: no temporary file", not leftovers(d), leftovers(d))

d = fresh_dir(0o755)
try:
    os.setxattr(d, "system.posix_acl_default",
                acl([(ACL_USER_OBJ, 7, UNDEF), (ACL_USER, 7, 4242), (ACL_GROUP_OBJ, 5, UNDEF),
                     (ACL_MASK, 7, UNDEF), (ACL_OTHER, 5, UNDEF)]))
    dflt = True
except OSError as e:
    dflt = False
    skip("a directory's default ACL not added", "the file system refuses POSIX ACLs: %s" % e)
if dflt:
    p = os.path.join(d, "plain.Dockerfile")
    with open(p, "wb") as f:  # created before the default ACL would matter: strip what it gave
        f.write(BEFORE)
    for name in os.listxattr(p):
        if name.startswith("system.posix_acl"):
            os.removexattr(p, name)
    os.chmod(p, 0o644)
    rc, out, err = run(["--fix", p])
    check("default ACL: fixed", get(p) == AFTER, get(p), err)
    check("default ACL: the file gains no ACL",
          "system.posix_acl_access" not in os.listxattr(p), os.listxattr(p))
    check("default ACL: mode kept", stat.S_IMODE(os.stat(p).st_mode) == 0o644,
          oct(os.stat(p).st_mode))

# ---- hard links -------------------------------------------------------------------------------
d = fresh_dir(0o755)
p = put(d, "linked.Dockerfile")
other = os.path.join(d, "other-name.Dockerfile")
os.link(p, other)
rc, out, err = run(["--fix", p])
check("hard links: exit 2", rc == 2, rc, err)
check("hard links: message", "linked.Dockerfile: not fixed: it has 2 hard links" in err, err)
check("hard links: not split", os.stat(p).st_ino == os.stat(other).st_ino
      and get(p) == BEFORE, get(p))

# ---- changed while fixing ---------------------------------------------------------------------


def default_signals():
    """A runner that ignores SIGINT (a background job of a non-interactive shell) passes that on;
    the program keeps an ignored signal ignored, as nohup wants: give it the default action."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def paused_fix(p, pause, when_tmp):
    """--fix p with the pause hook; `when_tmp(proc)` is called once the temporary file exists."""
    d = os.path.dirname(p)
    proc = subprocess.Popen(cmd(["--fix", p], False), env=env(pause), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=default_signals)
    deadline = time.time() + 30
    while not leftovers(d) and proc.poll() is None and time.time() < deadline:
        time.sleep(0.01)
    saw = bool(leftovers(d))
    if saw:
        when_tmp(proc)
    out, err = proc.communicate(timeout=60)
    return saw, proc.returncode, err.decode("utf-8", "replace")


d = fresh_dir(0o755)
p = put(d, "appended.Dockerfile")


def append(_):
    with open(p, "ab") as f:
        f.write(b"FROM added-meanwhile\n")


saw, rc, err = paused_fix(p, 3, append)
check("changed meanwhile: the write window was reached", saw, err)
check("changed meanwhile: exit 2", rc == 2, rc, err)
check("changed meanwhile: message", "appended.Dockerfile: not fixed: changed while boxlint was "
      "fixing it: nothing written" in err, err)
check("changed meanwhile: the edit survives", get(p) == BEFORE + b"FROM added-meanwhile\n",
      get(p))
check("changed meanwhile: no temporary file", not leftovers(d), leftovers(d))

d = fresh_dir(0o755)
p = put(d, "sneaky.Dockerfile")


def rewrite_same_size_and_mtime(_):
    st = os.stat(p)
    with open(p, "r+b") as f:
        f.write(b"PIP")
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))  # only ctime tells


saw, rc, err = paused_fix(p, 3, rewrite_same_size_and_mtime)
check("same size and mtime, new ctime: refused",
      saw and rc == 2 and "changed while boxlint was fixing it" in err, saw, rc, err)
check("same size and mtime, new ctime: the edit survives", get(p) == b"PIP install x\n", get(p))

# ---- signals in the write window --------------------------------------------------------------
for sig in (signal.SIGTERM, signal.SIGINT):
    d = fresh_dir(0o755)
    p = put(d, "signal.Dockerfile")
    saw, rc, err = paused_fix(p, 30, lambda proc: proc.send_signal(sig))
    name = signal.Signals(sig).name
    check("%s: the write window was reached" % name, saw, err)
    check("%s: ends the program as the signal does" % name, rc == -sig, rc, err)
    check("%s: no temporary file left" % name, not leftovers(d), leftovers(d))
    check("%s: the file untouched" % name, get(p) == BEFORE, get(p))

# ---- only regular files; symbolic links -------------------------------------------------------
d = fresh_dir(0o755)
fifo = os.path.join(d, "pipe.Dockerfile")
os.mkfifo(fifo)
try:
    rc, out, err = run(["--fix", fifo], timeout=10)
    check("FIFO: refused, not blocked", rc == 2 and "pipe.Dockerfile: not fixed: it is not a "
          "regular file" in err, rc, err)
except subprocess.TimeoutExpired:
    check("FIFO: refused, not blocked", False, "timed out")

outside = fresh_dir(0o755)
target = put(outside, "notes.Dockerfile")
d = fresh_dir(0o755)
link = os.path.join(d, "named.Dockerfile")
os.symlink(target, link)
rc, out, err = run(["--fix", link])
check("link named on the command line: its target fixed, the link kept",
      get(target) == AFTER and os.path.islink(link), get(target), err)
check("link named on the command line: no temporary file anywhere",
      not leftovers(d) and not leftovers(outside))

target = put(outside, "evil-target.Dockerfile")
tree = fresh_dir(0o755)
put(tree, "good.Dockerfile")
os.symlink(target, os.path.join(tree, "evil.Dockerfile"))
rc, out, err = run(["--fix", tree])
check("link found in a walk: the file outside untouched", get(target) == BEFORE, get(target), err)
check("link found in a walk: the tree's own file fixed",
      get(os.path.join(tree, "good.Dockerfile")) == AFTER, err)

shutil.rmtree(tmp, ignore_errors=True)
results.print_fails(sep="\n  ", prefix="FAIL:")
print("fix_safety: %d checks, %d failed, %d skipped%s" % (
    results.n, len(fails), len(skipped), (": " + "; ".join(skipped)) if skipped else ""))
results.exit()

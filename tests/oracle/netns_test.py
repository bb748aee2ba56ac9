#!/usr/bin/env python3
"""Enforcement proven in the kernel (docs/design.md §9): for each test policy, the recipe of
docs/enforcement.md is run as written (its shell blocks extracted from the document; only the
values of its documented placeholders are the test's): `boxlint policy --emit nftables` and
`--emit dnsmasq`, the script and dnsmasq loaded into a sandbox network namespace, the
sandbox's resolv.conf; then every destination of a generated set is reached from inside it,
by address and by name, over TCP and UDP, and the outcome must be what `boxlint policy
--host/--ip` (boxlint_policy_decide) says; then the recipe's removal. A recipe that drifts from
what works fails here.

The proxy layer (the recipe's section 3: `--emit nginx`, nginx -t, the script written with
`--proxy-user`, nginx started in the sandbox) runs with every policy it can express: each name
is tried over TLS (curl, the name in SNI) and HTTP (the name in Host) at its own address; and
PROXY_POLICIES, where an allowed and a denied name share an address, take the ATTACKS (a name
in SNI or Host at another name's address, the request line against Host, no SNI, no Host, not
HTTP on 80, QUIC). Each connection's outcome (which server address answered, and the name that
server saw) is compared with the decision for the name it carries: an allowed name must reach
one of its own addresses under its own name, a denied one (or none) nothing. The servers use a
certificate the test makes (openssl req).

Namespaces (all made here, removed at the end, also on failure), joined through a router:
  sb   the sandbox: the emitted nftables rules, dnsmasq with the emitted configuration on
       127.0.0.1 (the recipe's); no route but its veth to the router
  dns  the upstream resolver, 198.51.100.53: dnsmasq answering the test names (host-record=)
  srv  the servers: every destination address, TCP 8080 and UDP 9090 (tests/oracle/netns_peer.py)
  rt   the router between them (forwarding on, nothing else)
Only documentation ranges are used (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24,
2001:db8::/32), every connection starts inside sb, and nothing is sent before every namespace
exists. Needs root, ip, nft and dnsmasq; exits 77 (skipped, said loudly) without them (the
document is read and its blocks checked first, also then).

usage: netns_test.py BOXLINT"""
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

BIN = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
PEER = os.path.join(HERE, "netns_peer.py")
PY = sys.executable
ROOT = os.path.dirname(os.path.dirname(HERE))
DOC = os.path.join(ROOT, "docs", "enforcement.md")
PHASES = ("settings", "emit", "load", "proxy-emit", "proxy-load", "proxy-unload", "unload")
TAG = "blt%d" % (os.getpid() % 100000)
NS = {k: TAG + k for k in ("sb", "dns", "srv", "rt")}
RESOLVER = "198.51.100.53"

# (type, allow_out, deny_out, unmatched); the seed's examples, every entry kind, overlaps,
# wildcard depth and apex, IPv6, mapped addresses, disabled/open, --unmatched deny.
POLICIES = [
    ("filtered", ["pypi.org", "*.pythonhosted.org"], ["ALL_TRAFFIC"], "allow"),
    ("filtered", ["pypi.org", "*.pythonhosted.org"], [], "allow"),
    ("disabled", [], [], "allow"),
    ("open", [], [], "allow"),
    ("filtered", [], [], "allow"),
    ("filtered", ["203.0.113.0/25"], ["ALL_TRAFFIC"], "allow"),
    ("filtered", [], ["203.0.113.0/25"], "allow"),
    ("filtered", ["203.0.113.10"], ["203.0.113.0/24"], "allow"),
    ("filtered", ["2001:db8:0:3::/64"], ["ALL_TRAFFIC"], "allow"),
    ("filtered", [], ["::/0"], "allow"),
    ("filtered", [], ["0.0.0.0/0"], "allow"),
    ("filtered", ["::ffff:203.0.113.20"], ["ALL_TRAFFIC"], "allow"),
    ("filtered", ["*.example.test"], ["ALL_TRAFFIC"], "allow"),
    ("filtered", ["example.test"], ["ALL_TRAFFIC"], "allow"),
    ("filtered", ["example.test", "*.example.test"], ["ALL_TRAFFIC"], "allow"),
    ("filtered", [], ["example.test"], "allow"),
    ("filtered", [], ["*.example.test"], "allow"),
    ("filtered", ["a.example.test"], ["*.example.test"], "allow"),
    ("filtered", ["*.a.example.test"], ["*.example.test"], "deny"),
    ("filtered", ["*.example.test"], ["b.example.test"], "allow"),
    ("filtered", ["pypi.org"], ["ALL_TRAFFIC"], "deny"),
    ("filtered", ["pypi.org"], [], "deny"),
    ("filtered", ["203.0.113.0/26", "pypi.org", "*.pypi.org"], ["ALL_TRAFFIC"], "allow"),
    ("filtered", ["*"], ["ALL_TRAFFIC"], "allow"),
    ("filtered", [], ["*"], "allow"),
    ("filtered", ["*"], ["pypi.org"], "allow"),
    ("filtered", ["pypi.org"], ["*"], "allow"),
    ("filtered", ["ALL_TRAFFIC"], ["pypi.org"], "allow"),
    ("filtered", ["203.0.113.0/24"], ["203.0.113.128/25"], "allow"),
    ("filtered", ["203.0.113.128/25"], ["203.0.113.0/24"], "deny"),
    ("filtered", ["2001:db8:0:3::100/120"], ["2001:db8:0:3::/64"], "allow"),
    ("filtered", ["2001:db8:0:3::1234"], ["ALL_TRAFFIC"], "allow"),
    ("filtered", [], ["2001:db8:0:3::/64", "203.0.113.0/24"], "allow"),
    ("filtered", ["*.pythonhosted.org"], ["ALL_TRAFFIC"], "allow"),
    ("filtered", ["files.pythonhosted.org"], ["*.pythonhosted.org"], "allow"),
    ("filtered", ["pypi.org", "*.pypi.org"], ["203.0.113.0/24"], "deny"),
    ("filtered", ["203.0.113.7", "2001:db8:0:3::7"], ["ALL_TRAFFIC"], "deny"),
    ("filtered", [], ["203.0.113.7"], "deny"),
    ("filtered", ["*.b.example.test"], ["*.example.test", "ALL_TRAFFIC"], "allow"),
    ("filtered", ["a.b.example.test"], ["*.b.example.test"], "deny"),
    ("filtered", ["pypi.org"], ["pypi.org"], "allow"),
    ("filtered", ["0.0.0.0/0"], ["203.0.113.0/24"], "allow"),
    ("filtered", ["::/0"], ["ALL_TRAFFIC"], "allow"),
    ("filtered", ["pypi.org"], ["*.org", "ALL_TRAFFIC"], "allow"),
    ("filtered", ["::ffff:203.0.113.130", "example.test", "*.example.test"], ["ALL_TRAFFIC"], "deny"),
    ("filtered", ["sub.example.test"], ["example.test"], "allow"),
    ("filtered", ["*.pythonhosted.org", "203.0.113.64/26"], ["*.files.pythonhosted.org"], "allow"),
    # what no configuration can express: refused, never enforced differently
    ("filtered", ["*.example.test"], ["b.example.test", "203.0.113.139"], "allow"),
    ("filtered", ["::ffff:203.0.113.130", "example.test"], ["*.example.test"], "deny"),
    ("filtered", ["203.0.113.0/26", "pypi.org"], ["ALL_TRAFFIC"], "allow"),
]
EXPECT_REFUSED = 3  # the last three
EXPECT_PROXY_REFUSED = 16  # of the others: a name's verdict depends on its address

FIXED_ADDRS = ["203.0.113.5", "203.0.113.7", "203.0.113.10", "203.0.113.20", "203.0.113.70",
               "203.0.113.130", "203.0.113.139", "2001:db8:0:3::7", "2001:db8:0:3::105",
               "2001:db8:0:3::1234", "2001:db8:0:3::9999", "::ffff:203.0.113.20",
               "::ffff:203.0.113.130"]
EXTRA_NAMES = ["unrelated.test", "pypi.org", "files.pythonhosted.org"]

# The proxy layer (docs/enforcement.md section 3): an allowed and a denied name on one address
# (SHARED), and a denied name with an address of its own (OWN).
STREAM_MODULE = "/usr/lib/nginx/modules/ngx_stream_module.so"
PROXY_USER = "www-data"
SHARED, OWN = "203.0.113.250", "203.0.113.251"
SHARED6, OWN6 = "2001:db8:0:3::250", "2001:db8:0:3::251"
ATTACK_NAMES = {"allowed.test": (SHARED, SHARED6), "denied.test": (SHARED, SHARED6),
                "w1.allowed.test": (SHARED, SHARED6), "private.test": (OWN, OWN6)}
PROXY_POLICIES = [
    ("filtered", ["allowed.test", "*.allowed.test"], ["ALL_TRAFFIC"], "allow"),
    ("filtered", [], ["denied.test", "private.test"], "allow"),
    ("filtered", ["allowed.test"], ["*.test"], "deny"),
    ("filtered", ["*.allowed.test", "allowed.test"], ["*.test", "ALL_TRAFFIC"], "allow"),
    ("filtered", ["*"], ["denied.test"], "allow"),
]
# The attempts on each of PROXY_POLICIES: (label, kind, address, name carried or None); the
# attacks are the ones whose label does not start with "honest".
ATTACKS = [
    ("honest TLS, allowed name", "tls", SHARED, "allowed.test"),
    ("honest HTTP, allowed name", "http", SHARED, "allowed.test"),
    ("honest TLS, subdomain", "tls", SHARED, "w1.allowed.test"),
    ("honest TLS, denied name", "tls", OWN, "private.test"),
    ("honest HTTP, denied name", "http", OWN, "private.test"),
    ("denied name in SNI to the shared address", "tls", SHARED, "denied.test"),
    ("denied name in Host to the shared address", "http", SHARED, "denied.test"),
    ("allowed name in SNI to the denied name's own address", "tls", OWN, "allowed.test"),
    ("allowed name in Host to the denied name's own address", "http", OWN, "allowed.test"),
    ("allowed name in the request line, denied name in Host", "absolute", SHARED,
     "allowed.test"),
    ("an address in Host, the shared one", "http", SHARED, SHARED),
    ("honest TLS over IPv6, allowed name", "tls", SHARED6, "allowed.test"),
    ("denied name in SNI to the shared IPv6 address", "tls", SHARED6, "denied.test"),
    ("allowed name in Host to the denied name's own IPv6 address", "http", OWN6, "allowed.test"),
    ("TLS without SNI", "tls-nosni", SHARED, None),
    ("HTTP/1.0 without Host", "http-nohost", SHARED, None),
    ("not HTTP on port 80", "raw80", SHARED, None),
    ("QUIC (UDP 443)", "quic", SHARED, None),
]


def read_recipe():
    """The shell blocks of docs/enforcement.md by phase, and its placeholders. Every ```sh block
    must be a phase (none untested); the settings block sets exactly the placeholders its table
    documents. Returns (blocks, placeholders), or raises ValueError saying what is wrong."""
    text = open(DOC, encoding="utf-8").read()
    blocks = {}
    for m in re.finditer(r"<!-- netns_test: ([\w-]+) -->\n```sh\n(.*?)```", text, re.S):
        if m.group(1) in blocks:
            raise ValueError("two blocks for phase " + m.group(1))
        blocks[m.group(1)] = m.group(2)
    n_sh = len(re.findall(r"^```sh$", text, re.M))
    if n_sh != len(blocks) or set(blocks) != set(PHASES):
        raise ValueError("%d sh blocks, phases %s; want one block each of %s" % (n_sh, sorted(blocks), PHASES))
    documented = re.findall(r"^\| `(\w+)` \|", text, re.M)
    settings = re.findall(r"^(\w+)=", blocks["settings"], re.M)
    if sorted(settings) != sorted(documented) or len(blocks["settings"].strip().splitlines()) != len(settings):
        raise ValueError("settings %s, documented placeholders %s" % (settings, documented))
    return blocks, documented


def run_phase(blocks, placeholders, phase, values):
    """One block of the recipe, verbatim, after the test's values of the placeholders (the
    documented ones only), with the boxlint under test first on PATH, from the repository."""
    if sorted(values) != sorted(placeholders):
        raise ValueError("values for %s, placeholders %s" % (sorted(values), placeholders))
    script = "".join("%s=%s\n" % (k, shlex.quote(v)) for k, v in values.items()) + blocks[phase]
    env = dict(os.environ, PATH=os.path.dirname(BIN) + os.pathsep + os.environ.get("PATH", ""))
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120,
                          env=env, cwd=ROOT)


def run(*cmd, ns=None, check=True, **kw):
    if ns:
        cmd = ("ip", "netns", "exec", ns) + cmd
    return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=120, **kw)


def names_of(allow, deny):
    """The names to try under a policy: each named domain, a child and a grandchild of it."""
    out = []
    for e in allow + deny:
        if e in ("*", "ALL_TRAFFIC") or e[0].isdigit() or ":" in e:
            continue
        x = e[2:] if e.startswith("*.") else e
        for n in (x, "w1." + x, "w2.w1." + x):
            if n not in out:
                out.append(n)
    return out + [n for n in EXTRA_NAMES if n not in out]


class Addresses:
    """One IPv4 and one IPv6 address per test name, never shared (a shared address would
    carry one name's verdict to another: docs/policy.md says so)."""

    def __init__(self):
        self.v4, self.v6 = {}, {}

    def of(self, name):
        if name not in self.v4:
            k = len(self.v4)
            self.v4[name] = "203.0.113.%d" % (140 + k)
            self.v6[name] = "2001:db8:0:3::a%03x" % k
        return self.v4[name], self.v6[name]


def topology(tmp):
    """Make the namespaces and links. Raises when any step fails (nothing sent yet)."""
    for ns in NS.values():
        run("ip", "netns", "add", ns)
    links = [("sb", "192.0.2", "2001:db8:0:1"), ("dns", "198.51.100", "2001:db8:0:2"),
             ("srv", "203.0.113", "2001:db8:0:3")]
    for k, (side, v4, v6) in enumerate(links):
        a, b = "%sa%d" % (TAG, k), "%sb%d" % (TAG, k)
        run("ip", "link", "add", a, "netns", NS[side], "type", "veth", "peer", "name", b,
            "netns", NS["rt"])
        run("ip", "addr", "add", v4 + ".1/24", "dev", b, ns=NS["rt"])
        run("ip", "addr", "add", v6 + "::1/64", "dev", b, "nodad", ns=NS["rt"])
        run("ip", "link", "set", b, "up", ns=NS["rt"])
        host = {"sb": ".2", "dns": ".53", "srv": ".1"}[side]
        if side == "srv":
            run("ip", "addr", "add", v4 + ".254/32", "dev", a, ns=NS[side])
        else:
            run("ip", "addr", "add", v4 + host + "/24", "dev", a, ns=NS[side])
            run("ip", "addr", "add", v6 + "::" + host[1:] + "/64", "dev", a, "nodad", ns=NS[side])
        run("ip", "link", "set", a, "up", ns=NS[side])
        run("ip", "link", "set", "lo", "up", ns=NS[side])
        if side == "srv":
            run("ip", "route", "add", v4 + ".1/32", "dev", a, ns=NS[side])
            run("ip", "route", "add", "default", "via", v4 + ".1", ns=NS[side])
            run("ip", "-6", "route", "add", v6 + "::1/128", "dev", a, ns=NS[side])
            run("ip", "-6", "route", "add", "default", "via", v6 + "::1", ns=NS[side])
        else:
            run("ip", "route", "add", "default", "via", v4 + ".1", ns=NS[side])
            run("ip", "-6", "route", "add", "default", "via", v6 + "::1", ns=NS[side])
    run("ip", "link", "set", "lo", "up", ns=NS["rt"])
    run("sysctl", "-q", "-w", "net.ipv4.ip_forward=1", ns=NS["rt"])
    run("sysctl", "-q", "-w", "net.ipv6.conf.all.forwarding=1", ns=NS["rt"])


def servers(addrs, tmp):
    """srv owns every destination address; its server and the upstream resolver start."""
    dev = TAG + "a2"  # on the link itself: IPv6 neighbour discovery answers only for those
    for a in addrs:
        if ":" in a:
            run("ip", "addr", "add", a + "/128", "dev", dev, "nodad", ns=NS["srv"])
        else:
            run("ip", "addr", "add", a + "/32", "dev", dev, ns=NS["srv"])
    cert, key = os.path.join(tmp, "srv.crt"), os.path.join(tmp, "srv.key")
    run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
        "/CN=boxlint netns test", "-addext", "subjectAltName=DNS:*.test,DNS:*.allowed.test",
        "-keyout", key, "-out", cert)
    srv = subprocess.Popen(["ip", "netns", "exec", NS["srv"], PY, PEER, "serve", cert, key],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    srv.stdout.readline()
    return srv


def upstream(names, addrs, tmp):
    conf = os.path.join(tmp, "upstream.conf")
    with open(conf, "w") as f:
        f.write("no-resolv\nno-hosts\nbind-interfaces\nlisten-address=%s\nport=53\n" % RESOLVER)
        for n in names:
            v4, v6 = addrs.of(n)
            f.write("host-record=%s,%s,%s\n" % (n, v4, v6))
        for n, a in ATTACK_NAMES.items():
            f.write("host-record=%s,%s,%s\n" % (n, a[0], a[1]))
    return subprocess.Popen(["ip", "netns", "exec", NS["dns"], "dnsmasq", "-k", "-C", conf,
                             "--pid-file=" + os.path.join(tmp, "up.pid")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def decide(pfile, unmatched, queries):
    """boxlint policy --host/--ip for each (host or None, ip): the verdicts."""
    args = [BIN, "policy", pfile, "--format", "json", "--unmatched", unmatched]
    for host, ip in queries:
        if host:
            args += ["--host", host]
        args += ["--ip", ip]
    p = subprocess.run(args, capture_output=True, text=True, timeout=60)
    return [d["verdict"] for d in json.loads(p.stdout)["decisions"]]



SRV_LINE = re.compile(r"srv (\S+) sni=(\S+) host=(\S+)")


def web_attempt(kind, addr, name):
    """One client connection from the sandbox (curl, openssl s_client, bash, or a datagram for
    QUIC's port): which server address answered and the name it saw, or None (refused)."""
    sb = ("ip", "netns", "exec", NS["sb"])
    at = "[%s]" % addr if ":" in addr else addr  # in --resolve
    get = "GET / HTTP/1.0\r\n\r\n"
    if kind == "tls":
        cmd = sb + ("curl", "-sk", "--max-time", "6", "--resolve", "%s:443:%s" % (name, at),
                    "https://%s/" % name)
    elif kind == "http":
        cmd = sb + ("curl", "-s", "--max-time", "6", "--resolve", "%s:80:%s" % (name, at),
                    "http://%s/" % name)
    elif kind == "absolute":
        cmd = sb + ("curl", "-s", "--max-time", "6", "--request-target", "http://%s/" % name,
                    "-H", "Host: denied.test", "http://%s/" % addr)
    elif kind == "tls-nosni":
        cmd = sb + ("timeout", "6", "openssl", "s_client", "-connect", addr + ":443",
                    "-noservername", "-quiet")
    elif kind == "http-nohost":
        cmd = sb + ("curl", "-s", "--max-time", "6", "--http1.0", "-H", "Host:",
                    "http://%s/" % addr)
    elif kind == "raw80":
        cmd = sb + ("timeout", "6", "bash", "-c", 'exec 3<>/dev/tcp/%s/80; printf "HELLO boxlint'
                    '\\r\\n\\r\\n" >&3; cat <&3' % addr)
    else:  # quic
        p = subprocess.run(sb + (PY, PEER, "udp", addr, "443"), capture_output=True, text=True,
                           timeout=30)
        return {"reached": addr if p.stdout.strip() == "echo" else None, "seen": None,
                "out": p.stdout.strip()}
    p = subprocess.run(cmd, input=get if kind == "tls-nosni" else None, capture_output=True,
                       text=True, timeout=30)
    m = SRV_LINE.search(p.stdout)
    if not m:
        return {"reached": None, "seen": None, "out": (p.stdout or p.stderr)[-80:].strip()}
    seen = m.group(2) if kind.startswith("tls") else m.group(3)
    return {"reached": m.group(1), "seen": None if seen == "-" else seen.lower(),
            "out": m.group(0)}


def web_agrees(want, name, own, got):
    """An allowed name must reach one of its own addresses and the server must see that name;
    a denied one (or a connection carrying no name) must reach nothing."""
    if want != "allow":
        return got["reached"] is None
    return got["reached"] in own and got["seen"] == name


def web_probes(k, pol, pfile, addrs, attack, totals):
    """The proxy layer's attempts under one policy; returns the disagreements."""
    typ, allow, deny, unmatched = pol
    tries = []  # (label, kind, addr, name, own addresses of the name)
    if attack:
        for label, kind, addr, name in ATTACKS:
            tries.append((label, kind, addr, name, set(ATTACK_NAMES.get(name, (name,)))))
    else:
        for n in names_of(allow, deny):
            v4 = addrs.of(n)[0]
            for kind in ("tls", "http"):
                tries.append(("honest " + kind.upper(), kind, v4, n, set(addrs.of(n))))
    named = [t for t in tries if t[3]]
    want = dict(zip([t[3] for t in named],
                    decide(pfile, unmatched, [(t[3], sorted(t[4])[-1]) for t in named])))
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(lambda t: web_attempt(t[1], t[2], t[3]), tries))
    bad = 0
    for (label, kind, addr, name, own), g in zip(tries, got):
        w = want[name] if name else "deny"  # what the layer cannot read is refused
        ok = web_agrees(w, name, own, g)
        totals["web_attempts"] += 1
        if attack and not label.startswith("honest"):
            key = label + (" (allowed)" if w == "allow" else "")
            totals["attacks"].setdefault(key, [0, 0])
            totals["attacks"][key][0] += 1
            totals["attacks"][key][1] += ok
        if not ok:
            bad += 1
            print("policy %2d: proxy: %s: %s to %s carrying %s: decide says %s, got %s" % (
                k, label, kind, addr, name, w, g["out"] or "nothing"))
    totals["web_disagreements"] += bad
    return bad


def proxy_phase(k, blocks, placeholders, values, totals):
    """The recipe's proxy-emit step: 1 written (nginx -t and nft -c accept them), 0 refused
    (unenforceable-entry), -1 failed."""
    em = run_phase(blocks, placeholders, "proxy-emit", values)
    if em.returncode != 0:
        if em.returncode == 1 and "unenforceable-entry" in em.stderr:
            totals["proxy_refused"] += 1
            return 0
        print("policy %2d: the recipe's proxy-emit step failed (exit %d): %s"
              % (k, em.returncode, em.stderr[-400:]))
        return -1
    totals["nginx_checked"] += 1  # nginx -t in the step itself
    if run("nft", "-c", "-f", os.path.join(values["DIR"], "rules.nft"), ns=NS["sb"],
           check=False).returncode != 0:
        print("policy %2d: nft -c -f rejects the proxy layer's script" % k)
        return -1
    # The router's form (--nft-iifname), not run here: the engines' own checks only.
    fwd = [os.path.join(values["DIR"], f) for f in ("fwd.nft", "fwd-nginx.conf")]
    for fmt, path in zip(("nftables", "nginx"), fwd):
        with open(path, "w") as fh:
            p = subprocess.run([BIN, "policy", values["POLICY"], "--unmatched",
                                values["BOXLINT_OPTS"].split()[-1], "--resolver", RESOLVER,
                                "--emit", fmt, "--proxy-user", PROXY_USER, "--nft-iifname",
                                TAG + "b0"], stdout=fh, stderr=subprocess.PIPE, text=True,
                               timeout=60)
        if p.returncode != 0:
            print("policy %2d: the router's %s form not written: %s" % (k, fmt, p.stderr[-300:]))
            return -1
    checks = (run("nft", "-c", "-f", fwd[0], ns=NS["rt"], check=False),
              run("nginx", "-t", "-q", "-c", fwd[1], "-g", "pid %s.pid;" % fwd[1], check=False))
    if any(c.returncode != 0 for c in checks):
        print("policy %2d: the router's form rejected: %s" % (k, [c.stderr[-300:] for c in checks]))
        return -1
    totals["nginx_checked"] += 1
    return 1



def one_policy(k, pol, addrs, tmp, totals, recipe, attack=False):
    typ, allow, deny, unmatched = pol
    pfile = os.path.join(tmp, "p%d.json" % k)
    with open(pfile, "w") as f:
        json.dump({"type": typ, "allow_out": allow, "deny_out": deny}, f)
    blocks, placeholders = recipe
    values = {"POLICY": pfile, "BOXLINT_OPTS": "--unmatched " + unmatched, "SANDBOX": NS["sb"],
              "RESOLVER": RESOLVER, "DIR": os.path.join(tmp, "p%d" % k), "PROXY_USER": PROXY_USER}
    em = run_phase(blocks, placeholders, "emit", values)
    if em.returncode != 0:
        refused = em.returncode == 1 and "unenforceable-entry" in em.stderr
        totals["refused"] += 1
        print("policy %2d refused%s: %s" % (k, "" if refused else " (WITHOUT unenforceable-entry: %r)"
                                           % em.stderr[-300:], json.dumps(pol)))
        return 0 if refused else 1
    script = os.path.join(values["DIR"], "rules.nft")
    if run("nft", "-c", "-f", script, ns=NS["sb"], check=False).returncode != 0:
        print("policy %2d: nft -c -f rejects the script" % k)
        return 1
    totals["nft_checked"] += 1
    proxy = proxy_phase(k, blocks, placeholders, values, totals)
    if proxy < 0:
        return 1
    ld = run_phase(blocks, placeholders, "load", values)
    web_bad = 0
    try:
        if ld.returncode != 0:
            print("policy %2d: the recipe's load step failed (exit %d): %s" % (k, ld.returncode, ld.stderr[-400:]))
            return 1
        if proxy:
            pl = run_phase(blocks, placeholders, "proxy-load", values)
            if pl.returncode != 0:
                print("policy %2d: the recipe's proxy-load step failed (exit %d): %s"
                      % (k, pl.returncode, pl.stderr[-400:]))
                return 1
            totals["proxied"] += 1
        conf = run("cat", "/etc/resolv.conf", ns=NS["sb"], check=False).stdout
        if "nameserver 127.0.0.1" not in conf.splitlines():
            print("policy %2d: the sandbox's resolv.conf is not the recipe's: %r" % (k, conf))
            return 1
        time.sleep(0.3)
        targets, queries = [], []
        for a in FIXED_ADDRS:
            targets.append({"ip": a})
            queries.append((None, a))
        for n in [] if attack else names_of(allow, deny):
            for fam, a in zip((4, 6), addrs.of(n)):
                targets.append({"name": n, "family": fam})
                queries.append((n, a))
        want = decide(pfile, unmatched, queries)
        p = subprocess.run(["ip", "netns", "exec", NS["sb"], PY, PEER, "probe", "127.0.0.1"],
                           input=json.dumps(targets), capture_output=True, text=True, timeout=300)
        got = json.loads(p.stdout)
        if proxy:
            web_bad = web_probes(k, pol, pfile, addrs, attack, totals)
    finally:
        if proxy and ld.returncode == 0:
            pu = run_phase(blocks, placeholders, "proxy-unload", values)
            if pu.returncode != 0:
                totals["unload_failures"] += 1
        un = run_phase(blocks, placeholders, "unload", values)
        left = run("nft", "list", "tables", ns=NS["sb"], check=False).stdout
        if un.returncode != 0 or "boxlint" in left or os.path.exists("/etc/netns/" + NS["sb"]):
            print("policy %2d: the recipe's removal left something (exit %d, tables %r): %s"
                  % (k, un.returncode, left, un.stderr[-300:]))
            totals["unload_failures"] += 1
            run("nft", "delete", "table", "inet", "boxlint", ns=NS["sb"], check=False)
            shutil.rmtree("/etc/netns/" + NS["sb"], ignore_errors=True)
    bad = 0
    for t, q, w, g in zip(targets, queries, want, got):
        ok = w == "allow"
        totals["destinations"] += 1
        if g["tcp"] != ok or g["udp"] != ok:
            bad += 1
            print("policy %2d: %s %s: decide says %s, the kernel: tcp %s udp %s (answer %s)" % (
                k, "name" if "name" in t else "address", q[0] or q[1], w, g["tcp"], g["udp"],
                g["answer"]))
    totals["policies"] += 1
    totals["disagreements"] += bad
    return bad + web_bad


def main():
    try:
        recipe = read_recipe()
    except (OSError, ValueError) as e:
        print("netns: FAIL: docs/enforcement.md: %s" % e)
        return 1
    # The document's own values (its DIR aside) write both files: no root needed.
    doc_values = dict((k, shlex.split(v)[0] if shlex.split(v) else "") for k, v in
                      re.findall(r"^(\w+)=(.*)$", recipe[0]["settings"], re.M))
    with tempfile.TemporaryDirectory() as d:
        doc_values["DIR"] = os.path.join(d, "out")
        em = run_phase(recipe[0], recipe[1], "emit", doc_values)
        files = [os.path.join(doc_values["DIR"], f) for f in ("rules.nft", "dnsmasq.conf")]
        if em.returncode != 0 or not all(os.path.exists(f) and os.path.getsize(f) for f in files):
            print("netns: FAIL: the recipe's emit step with the document's own values: exit %d %s"
                  % (em.returncode, em.stderr[-300:]))
            return 1
    if os.geteuid() != 0:
        print("SKIPPED: the network-namespace enforcement test needs root (it makes namespaces "
              "and loads nftables rules in them); run make test as root")
        return 77
    for tool in ("ip", "nft", "dnsmasq", "nginx", "curl", "openssl"):
        if not shutil.which(tool):
            print("SKIPPED: %s is not installed (make deps installs iproute2, nftables, "
                  "dnsmasq-base, nginx, libnginx-mod-stream, curl and openssl)" % tool)
            return 77
    if not os.path.exists(STREAM_MODULE):
        print("SKIPPED: nginx's stream module %s is not installed (make deps installs "
              "libnginx-mod-stream)" % STREAM_MODULE)
        return 77
    tmp = tempfile.mkdtemp(prefix="boxlint-netns-")
    procs, made = [], False
    try:
        try:
            topology(tmp)
            made = True
        except (subprocess.CalledProcessError, OSError) as e:
            print("SKIPPED: cannot make the test's network namespaces (%s); nothing was sent"
                  % (getattr(e, "stderr", "") or e).strip())
            return 77
        addrs = Addresses()
        all_names = []
        for _, allow, deny, _ in POLICIES:
            for n in names_of(allow, deny):
                if n not in all_names:
                    all_names.append(n)
                addrs.of(n)
        dest = [a for a in FIXED_ADDRS if not a.startswith("::ffff:")]
        dest += [SHARED, OWN, SHARED6, OWN6]
        dest += [a for n in all_names for a in addrs.of(n)]
        procs.append(servers(dest, tmp))
        procs.append(upstream(all_names, addrs, tmp))
        time.sleep(0.3)
        totals = dict(policies=0, destinations=0, disagreements=0, refused=0, nft_checked=0,
                      unload_failures=0, proxy_refused=0, nginx_checked=0, proxied=0,
                      web_attempts=0, web_disagreements=0, attacks={})
        failures = 0
        for k, pol in enumerate(POLICIES):
            failures += one_policy(k, pol, addrs, tmp, totals, recipe)
        for j, pol in enumerate(PROXY_POLICIES):
            failures += one_policy(len(POLICIES) + j, pol, addrs, tmp, totals, recipe, attack=True)
        print("netns: %(policies)d policies enforced and probed, %(destinations)d destinations "
              "(by address and by name, TCP and UDP), %(disagreements)d disagreements with "
              "boxlint_policy_decide; %(refused)d refused (unenforceable-entry); nft -c -f "
              "accepted %(nft_checked)d scripts; the recipe of docs/enforcement.md run for each, its "
              "removal incomplete %(unload_failures)d times" % totals)
        print("netns: proxy layer: %(proxied)d policies run through nginx, %(web_attempts)d "
              "connections from the sandbox (curl, openssl s_client, QUIC datagrams), "
              "%(web_disagreements)d disagreements with the decision for the name each carries; "
              "nginx -t accepted %(nginx_checked)d configurations (each policy's, and its "
              "router form's), %(proxy_refused)d policies "
              "refused for the proxy (unenforceable-entry)" % totals)
        for label, (n, ok) in sorted(totals["attacks"].items()):
            print("netns: attack %-73s %s: %d of %d policies" % (
                label + ":", "reached its name's own address, under that name"
                if "(allowed)" in label else "refused", ok, n))
        failures += totals["unload_failures"]
        if totals["refused"] != EXPECT_REFUSED:
            print("netns: FAIL: %d policies refused, %d expected" % (totals["refused"], EXPECT_REFUSED))
            failures += 1
        if totals["policies"] < 40:
            failures += 1
        if totals["proxy_refused"] != EXPECT_PROXY_REFUSED or totals["proxied"] != (
                len(POLICIES) - EXPECT_REFUSED - EXPECT_PROXY_REFUSED + len(PROXY_POLICIES)):
            print("netns: FAIL: %d policies refused for the proxy (%d expected), %d run through it"
                  % (totals["proxy_refused"], EXPECT_PROXY_REFUSED, totals["proxied"]))
            failures += 1
        if len(totals["attacks"]) < len(ATTACKS) - 5:
            failures += 1
        print("netns: OK" if not failures else "netns: FAILED")
        return 1 if failures else 0
    finally:
        for p in procs:
            p.kill()
            p.wait()
        for ns in NS.values():
            subprocess.run(["ip", "netns", "pids", ns], capture_output=True)
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree("/etc/netns/" + NS["sb"], ignore_errors=True)
        left = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        if TAG in left:
            print("netns: FAIL: namespaces left behind: " + left)
        del made


if __name__ == "__main__":
    sys.exit(main())

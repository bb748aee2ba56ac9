#!/usr/bin/env python3
"""The processes of tests/oracle/netns_test.py that run inside its network namespaces.

  netns_peer.py serve CERT KEY   (server namespace) TCP on [::]:8080 accepts and closes, UDP on
                                 [::]:9090 and [::]:443 (QUIC's port) echoes; HTTP on [::]:80
                                 and HTTPS on [::]:443 (CERT, KEY: the test's certificate)
                                 answer every request with "srv ADDRESS sni=NAME host=HOST",
                                 ADDRESS the one the client reached; dual-stack, so IPv4 too.
                                 Runs until killed.
  netns_peer.py udp ADDR PORT    (sandbox namespace) one datagram; prints "echo" or "none".
  netns_peer.py probe RESOLVER   (sandbox namespace) reads targets as JSON on stdin:
                                 [{"ip": A} | {"name": N, "family": 4|6}, ...]; connects to
                                 every address target first (the resolver's sets still empty),
                                 then resolves every name target at RESOLVER (a minimal DNS
                                 client: one A or AAAA query) and connects to its answer.
                                 Prints [{"tcp": bool, "udp": bool, "answer": A|None}, ...].
Every attempt is bounded: 1 s per connection or reply, a fixed number of attempts."""
import concurrent.futures
import json
import random
import socket
import struct
import sys
import threading

TCP_PORT, UDP_PORT, TIMEOUT = 8080, 9090, 1.0


def answer(c, sni):
    """Read one request (to its blank line, or what comes in 2 s), answer who was reached."""
    c.settimeout(2.0)
    data = b""
    try:
        while b"\r\n\r\n" not in data and len(data) < 65536:
            got = c.recv(4096)
            if not got:
                break
            data += got
    except OSError:
        pass
    host = "-"
    for line in data.split(b"\r\n")[1:]:
        if line.lower().startswith(b"host:"):
            host = line[5:].strip().decode("latin-1")
    local = c.getsockname()[0]
    if local.startswith("::ffff:"):
        local = local[7:]
    body = ("srv %s sni=%s host=%s\n" % (local, sni or "-", host)).encode()
    try:
        c.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n"
                  % len(body) + body)
    except OSError:
        pass
    finally:
        c.close()


def web(port, ctx):
    """HTTP (ctx None) or HTTPS on [::]:port, a thread per connection."""
    s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("::", port))
    s.listen(256)

    def one(c):
        if ctx is None:
            return answer(c, None)
        c.settimeout(3.0)
        try:
            t = ctx.wrap_socket(c, server_side=True)
        except OSError:
            c.close()
            return
        answer(t, getattr(t, "boxlint_sni", None))

    while True:
        c, _ = s.accept()
        threading.Thread(target=one, args=(c,), daemon=True).start()


def udp_echo(port):
    u = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    u.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    u.bind(("::", port))
    while True:
        data, peer = u.recvfrom(512)
        u.sendto(data, peer)


def serve(cert, key):
    import ssl
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)

    def sni(sock, name, _ctx):
        sock.boxlint_sni = name

    ctx.sni_callback = sni
    for target, args in ((web, (80, None)), (web, (443, ctx)), (udp_echo, (443,))):
        threading.Thread(target=target, args=args, daemon=True).start()
    t = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    t.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    t.bind(("::", TCP_PORT))
    t.listen(256)
    u = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    u.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    u.bind(("::", UDP_PORT))

    def echo():
        while True:
            data, peer = u.recvfrom(512)
            u.sendto(data, peer)

    threading.Thread(target=echo, daemon=True).start()
    print("serving", flush=True)
    while True:
        c, _ = t.accept()
        c.close()


def dns_query(resolver, name, family):
    """The first A (family 4) or AAAA (6) answer for name at resolver, or None."""
    qid = random.randrange(65536)
    qtype = 1 if family == 4 else 28
    q = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0)
    for label in name.split("."):
        q += bytes([len(label)]) + label.encode()
    q += b"\0" + struct.pack(">HH", qtype, 1)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(2.0)
    try:
        s.sendto(q, (resolver, 53))
        r, _ = s.recvfrom(4096)
    except OSError:
        return None
    finally:
        s.close()
    rid, flags, qd, an = struct.unpack(">HHHH", r[:8])
    if rid != qid or flags & 0xF or an == 0:
        return None
    i = 12
    for _ in range(qd):  # skip the question
        while r[i]:
            i += r[i] + 1
        i += 5
    for _ in range(an):
        if r[i] & 0xC0 == 0xC0:
            i += 2
        else:
            while r[i]:
                i += r[i] + 1
            i += 1
        atype, _, _, rdlen = struct.unpack(">HHIH", r[i:i + 10])
        i += 10
        if atype == qtype:
            fam = socket.AF_INET if family == 4 else socket.AF_INET6
            return socket.inet_ntop(fam, r[i:i + rdlen])
        i += rdlen
    return None


def attempt(ip):
    """TCP connect and UDP echo to ip: (tcp ok, udp ok)."""
    fam = socket.AF_INET6 if ":" in ip else socket.AF_INET
    ok_tcp = ok_udp = False
    t = socket.socket(fam, socket.SOCK_STREAM)
    t.settimeout(TIMEOUT)
    try:
        t.connect((ip, TCP_PORT))
        ok_tcp = True
    except OSError:
        pass
    finally:
        t.close()
    u = socket.socket(fam, socket.SOCK_DGRAM)
    u.settimeout(TIMEOUT)
    try:
        u.sendto(b"boxlint", (ip, UDP_PORT))
        ok_udp = u.recvfrom(64)[0] == b"boxlint"
    except OSError:
        pass
    finally:
        u.close()
    return ok_tcp, ok_udp


def udp(ip, port):
    fam = socket.AF_INET6 if ":" in ip else socket.AF_INET
    u = socket.socket(fam, socket.SOCK_DGRAM)
    u.settimeout(TIMEOUT)
    try:
        u.sendto(b"boxlint-quic", (ip, int(port)))
        print("echo" if u.recvfrom(64)[0] == b"boxlint-quic" else "none")
    except OSError:
        print("none")
    finally:
        u.close()


def probe(resolver):
    targets = json.load(sys.stdin)
    out = [None] * len(targets)
    with concurrent.futures.ThreadPoolExecutor(max_workers=64) as pool:
        addr = [i for i, t in enumerate(targets) if "ip" in t]
        for i, (tcp, udp) in zip(addr, pool.map(lambda i: attempt(targets[i]["ip"]), addr)):
            out[i] = {"tcp": tcp, "udp": udp, "answer": targets[i]["ip"]}

        def by_name(i):
            a = dns_query(resolver, targets[i]["name"], targets[i]["family"])
            tcp, udp = attempt(a) if a else (False, False)
            return {"tcp": tcp, "udp": udp, "answer": a}

        names = [i for i, t in enumerate(targets) if "name" in t]
        for i, res in zip(names, pool.map(by_name, names)):
            out[i] = res
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "udp":
        udp(sys.argv[2], sys.argv[3])
    else:
        probe(sys.argv[2])

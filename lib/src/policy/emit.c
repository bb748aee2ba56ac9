/* Enforcement (docs/design.md §9): a compiled policy as an nftables script and a dnsmasq config
 * that together decide each connection as boxlint_policy_decide decides it.
 *
 * Addresses and networks are the script's interval sets (allow4_net, deny6_net, ...), tried
 * allow first, then deny, then the unmatched verdict. Names cannot be matched by the kernel:
 * dnsmasq puts the addresses its answers give into the sets of the name's class (allow4/allow6
 * for a name the policy allows, deny4/deny6 for one it denies, none4/none6, referenced by no
 * rule, for one it leaves to the address), and the kernel matches those sets. dnsmasq's
 * `nftset=/x/` covers x and every subdomain without a more specific line; it has no `*.x`
 * form. So for each name x that an entry names (a "point"), the class of x itself (the apex)
 * and the class of its other subdomains (the subtree) must agree, or one of the two must be
 * refusable: a class whose by-name verdict is deny whatever the address is the same as a name
 * that does not resolve, which `address=` lines can say for the apex and subtree together or
 * for the subtree alone (the `*.x` form dnsmasq has for address= and server=), with `server=`
 * lines re-opening the other side. What still cannot be said is refused: an
 * `unenforceable-entry` error per point, and nothing written.
 * Called by policy.c's public boxlint_policy_emit; reads the compiled tables of compile.c, and
 * allocates from the caller's report and allocator only, never the shared policy's. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "policy/policy_int.h"
#include "report/emit.h"
#include "boxlint/version.h"

enum { CLS_NONE = 0, CLS_ALLOW = 1, CLS_DENY = 2 };
static const char *const CLS_SET[] = {"none", "allow", "deny"};

/*==============================================================================================
 * MARK: Output buffer
 *============================================================================================*/

typedef struct obuf {
  const boxlint__mem *m;
  char *b;
  size_t n, cap;
  int oom;
} obuf;

static void put(obuf *o, const char *s, size_t n) {
  if (o->oom) return;
  if (o->n + n + 1 > o->cap) {
    size_t cap = o->cap ? o->cap : 1024;
    while (cap < o->n + n + 1) cap *= 2;
    char *nb = boxlint__realloc(o->m, o->b, o->cap, cap);
    if (!nb) {
      o->oom = 1;
      return;
    }
    o->b = nb;
    o->cap = cap;
  }
  memcpy(o->b + o->n, s, n);
  o->n += n;
  o->b[o->n] = 0;
}

static void puts_(obuf *o, const char *s) { put(o, s, strlen(s)); }

static void putf(obuf *o, const char *fmt, ...) BOXLINT_PRINTF(2, 3);
static void putf(obuf *o, const char *fmt, ...) {
  char tmp[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  put(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/*==============================================================================================
 * MARK: Names: the classes of each point's apex and subtree
 *============================================================================================*/

typedef struct point {
  const char *name;
  size_t len;
  int apex, sub;        /* classes */
  int nft;              /* class of its nftset line */
  int block_apex, block_sub;
} point;

static const char *etext(const boxlint_policy *p, int l, int32_t i) {
  return p->text + p->entries[l][i].text_off;
}

/* Does list l match a name under `y` through a wildcard on y or one of its ancestors
 * (`self`: y's own wildcard counts)? */
static int wild_above(const boxlint_policy *p, int l, const char *y, size_t n, int self) {
  for (size_t i = self ? 0 : 1; i < n; i++) { /* y itself, then each suffix after a dot */
    if (i && y[i - 1] != '.') continue;
    const boxlint__dnode *nd = boxlint__dfind(p, y + i, n - i);
    if (nd && nd->wild[l] >= 0) return 1;
  }
  return 0;
}

static int cls_of(int a, int d) { return a ? CLS_ALLOW : d ? CLS_DENY : CLS_NONE; }

static int apex_class(const boxlint_policy *p, const char *x, size_t n) {
  const boxlint__dnode *nd = boxlint__dfind(p, x, n);
  int m[2];
  for (int l = 0; l < 2; l++)
    m[l] = p->any[l] >= 0 || (nd && nd->exact[l] >= 0) || wild_above(p, l, x, n, 0);
  return cls_of(m[0], m[1]);
}

static int sub_class(const boxlint_policy *p, const char *x, size_t n) {
  int m[2];
  for (int l = 0; l < 2; l++) m[l] = p->any[l] >= 0 || wild_above(p, l, x, n, 1);
  return cls_of(m[0], m[1]);
}

/* A class whose verdict by name is deny for every address: the same as a name that does not
 * resolve. A denied name is still allowed at an address allow_out lists; a name of no class
 * is decided by its address. */
static int blockable(const boxlint_policy *p, int c) {
  if (c == CLS_ALLOW || p->has_ip[0]) return 0;
  return c == CLS_DENY || p->all[1] >= 0 || p->unmatched == BOXLINT_UNMATCHED_DENY;
}

/* A class whose verdict by name is allow for every address: a name the policy allows, or one
 * of no class when no deny entry is an address and unmatched destinations are allowed. Two
 * such classes need not be told apart: an address in no set meets the unmatched verdict. */
static int always_allowed(const boxlint_policy *p, int c) {
  return c == CLS_ALLOW ||
         (c == CLS_NONE && !p->has_ip[1] && p->unmatched == BOXLINT_UNMATCHED_ALLOW);
}

static int point_cmp(const void *a, const void *b) {
  const point *x = a, *y = b;
  size_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(x->name, y->name, n);
  return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* The entry that names point x (its exact entry, else its wildcard), for a refusal. */
static void point_entry(const boxlint_policy *p, const point *pt, int *l, int32_t *i) {
  const boxlint__dnode *nd = boxlint__dfind(p, pt->name, pt->len);
  *l = 0;
  *i = 0;
  for (int k = 0; nd && k < 2; k++) {
    if (nd->exact[k] >= 0) {
      *l = k;
      *i = nd->exact[k];
      return;
    }
  }
  for (int k = 0; nd && k < 2; k++) {
    if (nd->wild[k] >= 0) {
      *l = k;
      *i = nd->wild[k];
      return;
    }
  }
}

static const char *cls_words(int c) {
  return c == CLS_ALLOW ? "allowed" : c == CLS_DENY ? "denied by name" : "decided by their address";
}

static void refuse(boxlint_report *r, const boxlint_policy *p, const point *pt) {
  int l;
  int32_t i;
  point_entry(p, pt, &l, &i);
  if ((size_t)i >= p->n[l]) return; /* a point is always an entry's name: not reached */
  boxlint_diag *d = boxlint__report_add(r, BL_R_UNENFORCEABLE_ENTRY, BOXLINT_SEVERITY_ERROR, -1);
  if (!d) return;
  const char *list = l ? "deny_out" : "allow_out";
  d->path = boxlint__rprintf(r, "network_policy.%s[%d]", list, (int)i);
  d->message = boxlint__rmsg(
      r, "%s[%d]: '%s': %.*s is %s and its subdomains are %s; dnsmasq gives a name and its "
         "subdomains one set, and neither side can be refused by the resolver instead (%s), so "
         "no emitted configuration enforces this policy exactly",
      list, (int)i, etext(p, l, i), (int)pt->len, pt->name, cls_words(pt->apex),
      cls_words(pt->sub),
      p->has_ip[0] ? "allow_out has addresses, so a name the resolver refuses could still be "
                     "allowed at one of them"
                   : "a name the policy leaves to its address is allowed at some addresses, so "
                     "it cannot be refused either");
  int exact = p->entries[l][i].kind == BOXLINT_ENTRY_DOMAIN;
  d->hint = boxlint__rmsg(r, "give %.*s and its subdomains the same verdict: add '%s%.*s' to %s",
                          (int)pt->len, pt->name, exact ? "*." : "", (int)pt->len, pt->name,
                          list);
}

/* The points and their lines; *np 0 when names play no part. The array is the report's
 * (boxlint__free(&r->mem, *out)): a policy is shared by threads, and its own allocator, which
 * need not be thread-safe, is never called after boxlint_policy_new. Returns -1 out of memory,
 * 1 when refused (errors in r), 0. */
static int collect_points(const boxlint_policy *p, boxlint_report *r, point **out, size_t *np) {
  *out = NULL;
  *np = 0;
  if (p->type != BOXLINT_POLICY_FILTERED || p->all[0] >= 0) return 0; /* names decide nothing */
  size_t cap = p->n[0] + p->n[1], n = 0;
  if (!cap) return 0;
  point *pts = boxlint__malloc(&r->mem, cap * sizeof *pts);
  if (!pts) return -1;
  for (int l = 0; l < 2; l++) {
    for (size_t i = 0; i < p->n[l]; i++) {
      const boxlint__pentry *e = &p->entries[l][i];
      if (e->kind != BOXLINT_ENTRY_DOMAIN && e->kind != BOXLINT_ENTRY_WILDCARD) continue;
      size_t skip = e->kind == BOXLINT_ENTRY_WILDCARD ? 2 : 0;
      memset(&pts[n], 0, sizeof pts[n]);
      pts[n].name = p->text + e->text_off + skip;
      pts[n].len = e->text_len - skip;
      n++;
    }
  }
  qsort(pts, n, sizeof *pts, point_cmp);
  size_t w = 0;
  for (size_t i = 0; i < n; i++)
    if (!w || point_cmp(&pts[w - 1], &pts[i])) pts[w++] = pts[i];
  *out = pts;
  *np = w;
  return 0;
}

/* The points and their lines (collect_points, then each point's classes). Returns -1 out of
 * memory, 1 when refused (errors in r), 0. */
static int analyse(const boxlint_policy *p, boxlint_report *r, point **out, size_t *np) {
  if (collect_points(p, r, out, np) < 0) return -1;
  point *pts = *out;
  size_t n = *np;
  int refused = 0;
  for (size_t i = 0; i < n; i++) {
    point *pt = &pts[i];
    pt->apex = apex_class(p, pt->name, pt->len);
    pt->sub = sub_class(p, pt->name, pt->len);
    pt->nft = pt->apex;
    if (pt->apex == pt->sub) continue;
    if (always_allowed(p, pt->apex) && always_allowed(p, pt->sub)) {
      pt->nft = CLS_ALLOW;
    } else if (blockable(p, pt->sub)) {
      pt->block_sub = 1;
    } else if (blockable(p, pt->apex)) {
      pt->block_apex = 1;
      pt->nft = pt->sub;
    } else {
      refuse(r, p, pt);
      refused = 1;
    }
  }
  return r->oom ? -1 : refused;
}

/*==============================================================================================
 * MARK: The nftables script
 *============================================================================================*/

static void set_decl(obuf *o, const char *name, int v6, int interval) {
  putf(o, "\tset %s {\n\t\ttype %s\n", name, v6 ? "ipv6_addr" : "ipv4_addr");
  if (interval) puts_(o, "\t\tflags interval\n\t\tauto-merge\n");
}

/* The networks of list l and family f as an interval set. */
static void net_set(obuf *o, const boxlint_policy *p, int l, int v6) {
  char name[32];
  snprintf(name, sizeof name, "%s%d_net", l ? "deny" : "allow", v6 ? 6 : 4);
  set_decl(o, name, v6, 1);
  int first = 1;
  for (size_t i = 0; i < p->n[l]; i++) {
    const boxlint__pentry *e = &p->entries[l][i];
    const char *t = p->text + e->text_off;
    if (e->kind == BOXLINT_ENTRY_ALL_TRAFFIC) t = v6 ? "::/0" : "0.0.0.0/0";
    else if ((e->kind != BOXLINT_ENTRY_ADDRESS && e->kind != BOXLINT_ENTRY_CIDR) ||
             e->family != (v6 ? 6 : 4))
      continue;
    putf(o, "%s%s", first ? "\t\telements = { " : ", ", t);
    first = 0;
  }
  if (!first) puts_(o, " }\n");
  puts_(o, "\t}\n");
}

static void nft_header(obuf *o, const boxlint_policy *p, const boxlint_emit_options *eo,
                       const boxlint_policy_entry *res, size_t nres) {
  putf(o, "#!/usr/sbin/nft -f\n# boxlint %s: NetworkPolicy enforcement, type %s", BOXLINT_VERSION_STRING,
       boxlint_policy_type_str(p->type));
  if (p->type == BOXLINT_POLICY_FILTERED)
    putf(o, ", destinations matched by neither list %s",
         p->unmatched == BOXLINT_UNMATCHED_DENY ? "denied" : "allowed");
  if (eo->iifname) putf(o, ".\n# Decides the traffic forwarded from interface %s.\n", eo->iifname);
  else puts_(o, ".\n# Decides the traffic this network namespace originates (output hook).\n");
  if (eo->proxy_user)
    putf(o, "# TCP 80 and 443 go to the proxy (boxlint policy --emit nginx) on ports %u and %u,\n"
            "# which decides them by name; its own connections (user %s) are accepted; UDP 443\n"
            "# (QUIC, which the proxy cannot read) is dropped, so clients fall back to TCP.\n",
         eo->proxy_http_port, eo->proxy_tls_port, eo->proxy_user);
  puts_(o, "# Always accepted: loopback, packets of established connections, IPv6 neighbour "
         "discovery");
  for (size_t i = 0; i < nres; i++) putf(o, "%s%s", i ? ", " : ", and DNS (port 53) to ", res[i].text);
  puts_(o, ".\n");
  if (p->type == BOXLINT_POLICY_FILTERED && p->has_name[0] + p->has_name[1])
    puts_(o, "# allow4/allow6 and deny4/deny6 hold the addresses that the resolver's answers give\n"
           "# for names the policy allows or denies (boxlint policy --emit dnsmasq, nftset=);\n"
           "# they never expire. none4/none6 take the answers for names the address decides.\n");
}

/* The proxy layer's redirect: the sandbox's TCP 80 and 443 to the proxy's ports, except the
 * proxy's own connections (output hook) and loopback. */
static void nft_proxy_chain(obuf *o, const boxlint_emit_options *eo) {
  putf(o, "\tchain proxy {\n\t\ttype nat hook %s priority -100; policy accept;\n",
       eo->iifname ? "prerouting" : "output");
  if (eo->iifname) putf(o, "\t\tiifname != \"%s\" accept\n", eo->iifname);
  else putf(o, "\t\tmeta skuid \"%s\" accept\n\t\toifname \"lo\" accept\n", eo->proxy_user);
  putf(o, "\t\ttcp dport 80 redirect to :%u\n\t\ttcp dport 443 redirect to :%u\n\t}\n",
       eo->proxy_http_port, eo->proxy_tls_port);
}

static int nft_script(const boxlint_policy *p, const boxlint_emit_options *eo,
                      const boxlint_policy_entry *res, size_t nres, obuf *o) {
  const char *t = eo->table;
  nft_header(o, p, eo, res, nres);
  putf(o, "table inet %s\ndelete table inet %s\ntable inet %s {\n", t, t, t);
  int filtered = p->type == BOXLINT_POLICY_FILTERED;
  for (int l = 0; filtered && l < 2; l++)
    for (int v6 = 0; v6 < 2; v6++) net_set(o, p, l, v6);
  for (int c = 0; filtered && c < 3; c++) {
    for (int v6 = 0; v6 < 2; v6++) {
      char name[16];
      snprintf(name, sizeof name, "%s%d", CLS_SET[c], v6 ? 6 : 4);
      set_decl(o, name, v6, 1);
      puts_(o, "\t}\n");
    }
  }
  if (eo->proxy_user) nft_proxy_chain(o, eo);
  putf(o, "\tchain egress {\n\t\ttype filter hook %s priority filter; policy accept;\n",
       eo->iifname ? "forward" : "output");
  if (eo->iifname) putf(o, "\t\tiifname != \"%s\" accept\n", eo->iifname);
  puts_(o, "\t\tct state established,related accept\n\t\toifname \"lo\" accept\n"
         "\t\ticmpv6 type { nd-neighbor-solicit, nd-neighbor-advert, nd-router-solicit } accept\n");
  if (eo->proxy_user && !eo->iifname) /* redirected: the filter still sees the first route */
    putf(o, "\t\tip daddr 127.0.0.1 tcp dport { %u, %u } accept\n"
            "\t\tip6 daddr ::1 tcp dport { %u, %u } accept\n"
            "\t\tmeta skuid \"%s\" tcp dport { 80, 443 } accept\n",
         eo->proxy_http_port, eo->proxy_tls_port, eo->proxy_http_port, eo->proxy_tls_port,
         eo->proxy_user);
  if (eo->proxy_user) puts_(o, "\t\tudp dport 443 drop\n");
  for (size_t i = 0; i < nres; i++)
    putf(o, "\t\t%s daddr %s meta l4proto { tcp, udp } th dport 53 accept\n",
         res[i].family == 6 ? "ip6" : "ip", res[i].text);
  if (filtered) {
    static const char *const rules[] = {
        "ip daddr @allow4_net accept", "ip6 daddr @allow6_net accept",
        "ip daddr @allow4 accept",     "ip6 daddr @allow6 accept",
        "ip daddr @deny4_net drop",    "ip6 daddr @deny6_net drop",
        "ip daddr @deny4 drop",        "ip6 daddr @deny6 drop"};
    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) putf(o, "\t\t%s\n", rules[i]);
  }
  int drop = p->type == BOXLINT_POLICY_DISABLED ||
             (filtered && p->unmatched == BOXLINT_UNMATCHED_DENY);
  putf(o, "\t\t%s\n\t}\n}\n", drop ? "drop" : "accept");
  return 0;
}

/*==============================================================================================
 * MARK: The dnsmasq configuration
 *============================================================================================*/

static void nftset_line(obuf *o, const char *t, const char *dom, size_t n, int c) {
  putf(o, "nftset=/%.*s/4#inet#%s#%s4,6#inet#%s#%s6\n", (int)n, dom, t, CLS_SET[c], t, CLS_SET[c]);
}

static void dnsmasq_conf(const boxlint_policy *p, const boxlint_emit_options *eo,
                         const boxlint_policy_entry *res, size_t nres, const point *pts,
                         size_t n, obuf *o) {
  const char *t = eo->table;
  putf(o, "# boxlint %s: resolver rules for NetworkPolicy enforcement, for dnsmasq 2.87 or later\n"
          "# (nftset=), with the nftables script of boxlint policy --emit nftables (table inet %s).\n",
       BOXLINT_VERSION_STRING, t);
  if (p->type != BOXLINT_POLICY_FILTERED || p->all[0] >= 0)
    puts_(o, "# The policy does not depend on host names: no name is routed to a set.\n");
  else
    puts_(o, "# The answers for a name go into the sets of its verdict (allow, deny, or none when its\n"
           "# address decides). A name the policy denies whatever its address is does not resolve\n"
           "# where its apex or subdomains are treated otherwise (address=/name/, NXDOMAIN).\n");
  for (size_t i = 0; i < nres; i++) putf(o, "server=%s\n", res[i].text);
  if (p->type != BOXLINT_POLICY_FILTERED || p->all[0] >= 0) return;
  int root = cls_of(p->any[0] >= 0, p->any[1] >= 0);
  if (root != CLS_NONE) nftset_line(o, t, "#", 1, root);
  int blocks = 0;
  for (size_t i = 0; i < n; i++) blocks |= pts[i].block_apex | pts[i].block_sub;
  for (size_t i = 0; i < n; i++) {
    const point *pt = &pts[i];
    nftset_line(o, t, pt->name, pt->len, pt->nft);
    if (!blocks) continue; /* nothing is refused: every name resolves */
    if (pt->block_apex) putf(o, "address=/%.*s/\n", (int)pt->len, pt->name);
    else putf(o, "server=/%.*s/#\n", (int)pt->len, pt->name);
    if (pt->block_sub) putf(o, "address=/*.%.*s/\n", (int)pt->len, pt->name);
    else putf(o, "server=/*.%.*s/#\n", (int)pt->len, pt->name);
  }
}

/*==============================================================================================
 * MARK: The proxy layer: an nginx configuration
 *============================================================================================*/

/* The proxy decides a connection by the name it carries (TLS's SNI, HTTP's Host) and connects
 * by that name, so a name's verdict must not depend on its address: it is the verdict of its
 * class (apex_class/sub_class) when allow_out has no address (a denied name is then denied at
 * every address) and the names of no class meet one verdict at every address: no deny_out
 * address, or deny_out covers every address, or unmatched destinations are denied. An IP
 * literal carried as the name meets that same verdict (no name entry matches it). */
enum { PV_DENY = 0, PV_ALLOW = 1 };

static int deny_covers_all(const boxlint_policy *p) {
  return p->all[1] >= 0; /* ALL_TRAFFIC, which `0.0.0.0/0` is read as; `::/0` is IPv6 only */
}

/* The entry that makes a name's verdict depend on its address, or -1 (*l its list). */
static int32_t proxy_blocker(const boxlint_policy *p, int *l) {
  if (p->type != BOXLINT_POLICY_FILTERED || p->all[0] >= 0) return -1;
  for (*l = 0; *l < 2; (*l)++) {
    if (*l == 1 && (deny_covers_all(p) || p->unmatched == BOXLINT_UNMATCHED_DENY)) break;
    for (size_t i = 0; i < p->n[*l]; i++) {
      int k = p->entries[*l][i].kind;
      if (k == BOXLINT_ENTRY_ADDRESS || k == BOXLINT_ENTRY_CIDR || k == BOXLINT_ENTRY_ALL_TRAFFIC)
        return (int32_t)i;
    }
  }
  return -1;
}

static int none_verdict(const boxlint_policy *p) {
  if (p->has_ip[1]) return PV_DENY; /* every address (proxy_blocker) */
  return p->unmatched == BOXLINT_UNMATCHED_DENY ? PV_DENY : PV_ALLOW;
}

static int pv_of(const boxlint_policy *p, int cls) {
  return cls == CLS_ALLOW ? PV_ALLOW : cls == CLS_DENY ? PV_DENY : none_verdict(p);
}

/* Does the proxy allow any name? Then it must resolve, and needs a resolver. */
static int proxy_allows_names(const boxlint_policy *p) {
  if (p->type != BOXLINT_POLICY_FILTERED) return p->type == BOXLINT_POLICY_OPEN;
  return p->all[0] >= 0 || p->has_name[0] || none_verdict(p) == PV_ALLOW;
}

/* Returns 1 refused (errors in r), 0, -1 out of memory. */
static int proxy_refusal(const boxlint_policy *p, size_t nres, boxlint_report *r) {
  int l;
  int32_t at = proxy_blocker(p, &l);
  if (at < 0 && (nres || !proxy_allows_names(p))) return 0;
  boxlint_diag *d = boxlint__report_add(r, BL_R_UNENFORCEABLE_ENTRY, BOXLINT_SEVERITY_ERROR, -1);
  if (!d) return -1;
  if (at < 0) {
    d->path = "network_policy.type";
    d->message = "no resolver given: the proxy connects to an allowed name by the name, which it "
                 "resolves through the policy's resolver, so no nginx configuration is written";
    d->hint = "give the sandbox's upstream resolver: boxlint policy --resolver ADDR";
    return r->oom ? -1 : 1;
  }
  const char *list = l ? "deny_out" : "allow_out";
  const boxlint__pentry *e = &p->entries[l][at];
  d->path = boxlint__rprintf(r, "network_policy.%s[%d]", list, (int)at);
  d->message = boxlint__rmsg(
      r, "%s[%d]: '%s': %s, so a name's verdict depends on the address it resolves to; the "
         "proxy decides by the name alone (it connects by the name and never sees the address "
         "first), so no nginx configuration enforces this policy exactly",
      list, (int)at, e->kind == BOXLINT_ENTRY_ALL_TRAFFIC ? "ALL_TRAFFIC" : etext(p, l, at),
      l ? "deny_out names some addresses but not all while unmatched destinations are allowed"
        : "allow_out allows an address whatever name a connection to it carries");
  d->hint = l ? "decide names by name: add ALL_TRAFFIC to deny_out (an allow-list) or remove the "
                "address entries; or enforce without the proxy layer (--emit nftables and "
                "dnsmasq only)"
              : "allow names rather than addresses, or enforce without the proxy layer "
                "(--emit nftables and dnsmasq only)";
  return r->oom ? -1 : 1;
}

static const char *const PV_WORD[] = {"deny", "allow"};

/* A one-label name that is one of map's own parameters, written with a backslash before it. */
static int map_keyword(const char *x, size_t n) {
  static const char *const kw[] = {"default", "hostnames", "include", "volatile"};
  for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
    if (strlen(kw[i]) == n && !memcmp(kw[i], x, n)) return 1;
  return 0;
}

/* One hostnames map from a name to "allow" or "deny", as boxlint_policy_decide decides it: a
 * line for each point's apex and subtree; nginx takes the exact name first, then the longest
 * `*.` suffix, whose class is the point's subtree class (sub_class), then the regular
 * expressions (IP literals), then the default: the class of a name under no point. */
static void nginx_map(obuf *o, const boxlint_policy *p, const point *pts, size_t np,
                      const char *var, const char *out) {
  putf(o, "\tmap %s %s {\n\t\thostnames;\n", var, out);
  int filtered = p->type == BOXLINT_POLICY_FILTERED, all = filtered && p->all[0] >= 0;
  int dflt = !filtered ? (p->type == BOXLINT_POLICY_OPEN) : all ? PV_ALLOW
             : pv_of(p, cls_of(p->any[0] >= 0, p->any[1] >= 0));
  int ipv = !filtered || all ? dflt : none_verdict(p);
  putf(o, "\t\tdefault %s;\n\t\t~^[0-9.]+$ %s;\n\t\t~^\\[ %s;\n", PV_WORD[dflt], PV_WORD[ipv],
       PV_WORD[ipv]);
  for (size_t i = 0; filtered && !all && i < np; i++) { /* each point once, sorted */
    const char *x = pts[i].name;
    size_t n = pts[i].len;
    putf(o, "\t\t%s%.*s %s;\n", map_keyword(x, n) ? "\\" : "", (int)n, x,
         PV_WORD[pv_of(p, apex_class(p, x, n))]);
    putf(o, "\t\t*.%.*s %s;\n", (int)n, x, PV_WORD[pv_of(p, sub_class(p, x, n))]);
  }
  puts_(o, "\t}\n");
}

static void nginx_resolver(obuf *o, const boxlint_policy_entry *res, size_t nres) {
  /* room in the maps' hash for names of 253 bytes and every list at its largest */
  puts_(o, "\tmap_hash_bucket_size 512;\n\tmap_hash_max_size 262144;\n\tresolver");
  for (size_t i = 0; i < nres; i++)
    putf(o, res[i].family == 6 ? " [%s]" : " %s", res[i].text);
  puts_(o, nres ? " ipv6=on;\n\tresolver_timeout 5s;\n" : " 127.0.0.1;\n");
}

static void nginx_listen(obuf *o, const boxlint_emit_options *eo, unsigned port,
                         const char *extra) {
  if (eo->iifname) putf(o, "\t\tlisten %u%s;\n\t\tlisten [::]:%u%s;\n", port, extra, port, extra);
  else putf(o, "\t\tlisten 127.0.0.1:%u%s;\n\t\tlisten [::1]:%u%s;\n", port, extra, port, extra);
}

#define LDH_RE "~^[A-Za-z0-9.-]+$ 1;\n\t\t~^\\[[0-9A-Fa-f:.]+\\]$ 1;\n\t\tdefault 0;\n\t}\n"

static void nginx_conf(const boxlint_policy *p, const boxlint_emit_options *eo,
                       const boxlint_policy_entry *res, size_t nres, const point *pts,
                       size_t np, obuf *o) {
  const char *user = eo->proxy_user ? eo->proxy_user : "www-data";
  putf(o, "# boxlint %s: NetworkPolicy enforcement by name, for nginx 1.22 or later with its\n"
          "# stream module (Debian: nginx, libnginx-mod-stream), with the nftables script of\n"
          "# boxlint policy --emit nftables --proxy-user %s (table inet %s), which sends the\n"
          "# sandbox's TCP 443 here on port %u and TCP 80 on port %u.\n"
          "# TLS is decided by its SNI (ssl_preread: never decrypted), HTTP by its Host, as\n"
          "# boxlint_policy_decide decides the name; an allowed connection is made to the name\n"
          "# (resolved here), never to the address the client chose. Refused: no SNI, a name\n"
          "# with bytes other than letters, digits, '.' and '-', a request that is not HTTP.\n",
       BOXLINT_VERSION_STRING, user, eo->table, eo->proxy_tls_port, eo->proxy_http_port);
  putf(o, "load_module /usr/lib/nginx/modules/ngx_stream_module.so;\nuser %s;\n"
          "worker_processes 1;\nevents {\n}\nstream {\n", user);
  nginx_resolver(o, res, nres);
  puts_(o, "\tmap $ssl_preread_server_name $boxlint_tls_ldh {\n\t\t" LDH_RE);
  nginx_map(o, p, pts, np, "$ssl_preread_server_name", "$boxlint_tls_verdict");
  puts_(o, "\tmap $boxlint_tls_ldh$boxlint_tls_verdict $boxlint_tls_upstream {\n"
           "\t\t1allow $ssl_preread_server_name:443;\n\t\tdefault boxlint_refused;\n\t}\n"
           "\tupstream boxlint_refused {\n\t\tserver 127.0.0.1:9 down;\n\t}\n\tserver {\n");
  nginx_listen(o, eo, eo->proxy_tls_port, "");
  puts_(o, "\t\tssl_preread on;\n\t\tproxy_pass $boxlint_tls_upstream;\n\t}\n}\nhttp {\n"
           "\taccess_log off;\n");
  nginx_resolver(o, res, nres);
  puts_(o, "\tmap $host $boxlint_http_ldh {\n\t\t" LDH_RE);
  nginx_map(o, p, pts, np, "$host", "$boxlint_http_verdict");
  puts_(o, "\tmap $boxlint_http_ldh$boxlint_http_verdict $boxlint_http_upstream {\n"
           "\t\t1allow $host;\n\t\tdefault \"\";\n\t}\n\tserver {\n");
  nginx_listen(o, eo, eo->proxy_http_port, " default_server");
  puts_(o, "\t\tserver_name \"\";\n\t\tlocation / {\n"
           "\t\t\tif ($boxlint_http_upstream = \"\") {\n\t\t\t\treturn 403;\n\t\t\t}\n"
           "\t\t\tproxy_pass http://$boxlint_http_upstream;\n"
           "\t\t\tproxy_set_header Host $host;\n\t\t\tproxy_http_version 1.1;\n"
           "\t\t\tproxy_buffering off;\n\t\t\tproxy_request_buffering off;\n\t\t}\n\t}\n}\n");
}

/*==============================================================================================
 * MARK: The resolver
 *============================================================================================*/

/* Without a resolver address, the script cannot keep DNS open: it accepts port 53 only to the
 * addresses it is given. That is harmless unless (a) names play a part, so the sandbox must
 * resolve through dnsmasq, whose upstream queries pass the same rules, and (b) the rules drop
 * an address nothing in the policy names: deny_out has ALL_TRAFFIC, '0.0.0.0/0' or '::/0', or
 * unmatched destinations are denied (allow_out's ALL_TRAFFIC makes names decide nothing). Then
 * the resolver would be dropped with everything else and no name would resolve. Returns the
 * index of the deny_out entry that drops every address, INT32_MAX for the unmatched verdict,
 * or -1 when no resolver is needed. */
static int32_t resolver_blocker(const boxlint_policy *p) {
  if (p->type != BOXLINT_POLICY_FILTERED || p->all[0] >= 0 || !(p->has_name[0] || p->has_name[1]))
    return -1;
  if (p->all[1] >= 0) return p->all[1];
  for (size_t i = 0; i < p->n[1]; i++)
    if (p->entries[1][i].kind == BOXLINT_ENTRY_CIDR && p->entries[1][i].plen == 0) return (int32_t)i;
  return p->unmatched == BOXLINT_UNMATCHED_DENY ? INT32_MAX : -1;
}

int boxlint_policy_needs_resolver(const boxlint_policy *policy) {
  return policy && resolver_blocker(policy) >= 0;
}

/* The refusal when no resolver is given and one is needed: an error at the entry that drops
 * every address (at the type for the unmatched verdict). Returns 1 refused, 0, -1 out of memory. */
static int resolver_refusal(const boxlint_policy *p, size_t nres, boxlint_report *r) {
  int32_t at = nres ? -1 : resolver_blocker(p);
  if (at < 0) return 0;
  boxlint_diag *d = boxlint__report_add(r, BL_R_UNENFORCEABLE_ENTRY, BOXLINT_SEVERITY_ERROR, -1);
  if (!d) return -1;
  int entry = at != INT32_MAX;
  d->path = entry ? boxlint__rprintf(r, "network_policy.deny_out[%d]", (int)at) : "network_policy.type";
  const char *what = entry ? boxlint__rprintf(r, "deny_out[%d] '%s' drops every address the "
                                             "policy does not allow", (int)at,
                                             p->entries[1][at].kind == BOXLINT_ENTRY_ALL_TRAFFIC
                                                 ? "ALL_TRAFFIC" : etext(p, 1, at))
                           : "destinations matched by neither list are denied (unmatched deny)";
  d->message = boxlint__rmsg(
      r, "no resolver given: %s, the resolver among them, while the policy names hosts, which "
         "resolve only through a resolver; rules without its address would block all DNS, so "
         "none are written", what ? what : "deny_out drops every address");
  d->hint = "give the sandbox's upstream resolver: boxlint policy --resolver ADDR (repeatable; "
            "boxlint_emit_options.resolvers), which the script keeps reachable on port 53 and "
            "dnsmasq forwards to";
  return r->oom ? -1 : 1;
}

/*==============================================================================================
 * MARK: Entry point
 *============================================================================================*/

/* A table name (or, `dots`, an interface name): letters, digits, '_', '-', 1 to `max` bytes. */
static int name_ok(const char *s, size_t max, int dots) {
  size_t n = s ? strlen(s) : 0;
  if (!n || n > max) return 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!(boxlint__is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '_' ||
          c == '-' || (c == '.' && dots)))
      return 0;
  }
  return 1;
}

boxlint_status boxlint__policy_emit(const boxlint_policy *p, boxlint_emit_format fmt,
                                    const boxlint_emit_options *eo, boxlint_report *r,
                                    char **out, size_t *out_len, const boxlint_alloc *alloc) {
  if (!name_ok(eo->table, 64, 0) || (eo->iifname && !name_ok(eo->iifname, 15, 1)) ||
      (eo->nresolvers && !eo->resolvers) || eo->nresolvers > 16 ||
      (eo->proxy_user && !name_ok(eo->proxy_user, 32, 0)) || !eo->proxy_http_port ||
      !eo->proxy_tls_port || eo->proxy_http_port > 65535 || eo->proxy_tls_port > 65535 ||
      eo->proxy_http_port == eo->proxy_tls_port)
    return BOXLINT_EINVAL;
  boxlint_policy_entry res[16];
  for (size_t i = 0; i < eo->nresolvers; i++) {
    const char *s = eo->resolvers[i];
    if (!s || boxlint_policy_entry_parse(&res[i], s, strlen(s)) != BOXLINT_OK ||
        res[i].kind != BOXLINT_ENTRY_ADDRESS)
      return BOXLINT_EINVAL;
  }
  point *pts = NULL;
  size_t n = 0;
  int a = fmt == BOXLINT_EMIT_NGINX ? proxy_refusal(p, eo->nresolvers, r)
                                     : resolver_refusal(p, eo->nresolvers, r);
  if (a == 0)
    a = fmt == BOXLINT_EMIT_NGINX ? collect_points(p, r, &pts, &n) : analyse(p, r, &pts, &n);
  boxlint_status st = BOXLINT_OK;
  if (a < 0) {
    st = BOXLINT_ENOMEM;
  } else if (a == 0) {
    boxlint__mem m;
    boxlint__mem_init(&m, alloc);
    obuf o = {&m, NULL, 0, 0, 0};
    if (fmt == BOXLINT_EMIT_NFTABLES) nft_script(p, eo, res, eo->nresolvers, &o);
    else if (fmt == BOXLINT_EMIT_NGINX) nginx_conf(p, eo, res, eo->nresolvers, pts, n, &o);
    else dnsmasq_conf(p, eo, res, eo->nresolvers, pts, n, &o);
    if (o.oom) {
      boxlint__free(&m, o.b);
      st = BOXLINT_ENOMEM;
    } else {
      *out = o.b;
      *out_len = o.n;
    }
  }
  boxlint__free(&r->mem, pts);
  return st;
}

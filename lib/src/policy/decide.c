/* Decisions: one destination under a compiled policy (docs/design.md §3), and the linear
 * reference that the tests and the fuzzer compare it with. Reads the compiled tables (through
 * the inline queries of policy_int.h) and parses destinations with entry.c; allocates nothing,
 * so any number of threads may decide on one policy at once. */
#include <string.h>
#include "policy_int.h"

/*==============================================================================================
 * MARK: Destinations
 *============================================================================================*/

typedef struct dest {
  int invalid;
  int has_name, has_addr;
  size_t fam; /* 0 IPv4, 1 IPv6 */
  boxlint__u128 addr;
  boxlint__entry host; /* host.e.text: the normalised name */
} dest;

static void parse_dest(dest *d, const char *host, size_t hl, const char *ip, size_t il) {
  d->invalid = d->has_name = d->has_addr = 0;
  d->fam = 0;
  d->addr.hi = d->addr.lo = 0;
  if (host) {
    if (boxlint__policy_entry_parse(&d->host, host, hl, 1)) {
      d->invalid = 1;
      return;
    }
    if (d->host.e.kind == BOXLINT_ENTRY_DOMAIN) {
      d->has_name = 1;
    } else if (d->host.e.kind == BOXLINT_ENTRY_ADDRESS) {
      d->has_addr = 1;
      d->fam = d->host.e.family == 6;
      d->addr = d->host.addr;
    } else {
      d->invalid = 1; /* a CIDR or all traffic is no destination */
      return;
    }
  }
  if (ip) {
    boxlint__entry a;
    if (boxlint__policy_entry_parse(&a, ip, il, 1) || a.e.kind != BOXLINT_ENTRY_ADDRESS) {
      d->invalid = 1;
      return;
    }
    size_t fam = a.e.family == 6;
    if (d->has_addr && (fam != d->fam || !boxlint__u128_eq(a.addr, d->addr))) {
      d->invalid = 1; /* the host literal and the address disagree */
      return;
    }
    d->has_addr = 1;
    d->fam = fam;
    d->addr = a.addr;
  }
}

/*==============================================================================================
 * MARK: The procedure shared by both engines
 *============================================================================================*/

static void set_out(boxlint_decision *out, boxlint_verdict v, boxlint_decision_reason r) {
  out->verdict = v;
  out->reason = r;
  out->list = BOXLINT_LIST_NONE;
  out->index = -1;
  out->entry.ptr = NULL;
  out->entry.len = 0;
  out->by_name = 0;
}

static void set_rule(boxlint_decision *out, const boxlint_policy *p, int l, int32_t i,
                     boxlint_verdict v, int by_name) {
  set_out(out, v, BOXLINT_REASON_RULE);
  out->list = (boxlint_policy_list)l;
  out->index = i;
  out->entry.ptr = p->text + p->entries[l][i].text_off;
  out->entry.len = p->entries[l][i].text_len;
  out->by_name = by_name;
}

/* What matched, per list: the best name entry and the best address entry (-1: none). */
typedef struct matches {
  int32_t name[2], ip[2], all[2];
  int narrow[2];
} matches;

/* The decision procedure of docs/design.md §3, shared by both engines. */
static void conclude(boxlint_decision *out, const boxlint_policy *p, const dest *d,
                     const matches *m) {
  const int A = 0, D = 1;
  if (m->name[A] >= 0) {
    set_rule(out, p, A, m->name[A], BOXLINT_VERDICT_ALLOW, 1);
    return;
  }
  if (d->has_addr ? m->ip[A] >= 0 : m->all[A] >= 0) {
    set_rule(out, p, A, d->has_addr ? m->ip[A] : m->all[A], BOXLINT_VERDICT_ALLOW, 0);
    return;
  }
  /* Host only, and an allow network could still match the address: a deny would be a guess. */
  int open_allow = !d->has_addr && m->narrow[A];
  int32_t deny = -1;
  if (m->name[D] >= 0) deny = m->name[D];
  else if (d->has_addr) deny = m->ip[D];
  else if (m->all[D] >= 0) deny = m->all[D];
  else if (m->narrow[D]) open_allow = 1; /* a deny network might match the address */
  if (deny >= 0 && !open_allow) {
    set_rule(out, p, D, deny, BOXLINT_VERDICT_DENY, 0);
  } else if (open_allow) {
    if (deny < 0 && !m->narrow[D] && p->unmatched == BOXLINT_UNMATCHED_ALLOW)
      set_out(out, BOXLINT_VERDICT_ALLOW, BOXLINT_REASON_DEFAULT);
    else
      set_out(out, BOXLINT_VERDICT_UNKNOWN, BOXLINT_REASON_NEEDS_IP);
  } else if (p->unmatched == BOXLINT_UNMATCHED_ALLOW) {
    set_out(out, BOXLINT_VERDICT_ALLOW, BOXLINT_REASON_DEFAULT);
  } else {
    set_out(out, BOXLINT_VERDICT_DENY, BOXLINT_REASON_DEFAULT);
  }
}

/* Steps 0-2. Returns 1 when they decided. */
static int prelude(boxlint_decision *out, const boxlint_policy *p, const dest *d) {
  if (d->invalid) {
    set_out(out, BOXLINT_VERDICT_DENY, BOXLINT_REASON_INVALID_DESTINATION);
    return 1;
  }
  if (p->type == BOXLINT_POLICY_DISABLED) {
    set_out(out, BOXLINT_VERDICT_DENY, BOXLINT_REASON_POLICY_DISABLED);
    return 1;
  }
  if (p->type == BOXLINT_POLICY_OPEN) {
    set_out(out, BOXLINT_VERDICT_ALLOW, BOXLINT_REASON_POLICY_OPEN);
    return 1;
  }
  return 0;
}

/*==============================================================================================
 * MARK: Decisions
 *============================================================================================*/

const char *boxlint_verdict_str(boxlint_verdict verdict) {
  switch (verdict) {
  case BOXLINT_VERDICT_ALLOW: return "allow";
  case BOXLINT_VERDICT_DENY: return "deny";
  case BOXLINT_VERDICT_UNKNOWN: return "unknown";
  }
  return "";
}

const char *boxlint_decision_reason_str(boxlint_decision_reason reason) {
  switch (reason) {
  case BOXLINT_REASON_RULE: return "rule";
  case BOXLINT_REASON_DEFAULT: return "default";
  case BOXLINT_REASON_POLICY_DISABLED: return "policy-disabled";
  case BOXLINT_REASON_POLICY_OPEN: return "policy-open";
  case BOXLINT_REASON_INVALID_DESTINATION: return "invalid-destination";
  case BOXLINT_REASON_NEEDS_IP: return "needs-ip";
  }
  return "";
}

boxlint_status boxlint_policy_decide(boxlint_decision *out, const boxlint_policy *p,
                                     const char *host, size_t host_len, const char *ip,
                                     size_t ip_len) {
  if (!out || !p || (!host && !ip)) return BOXLINT_EINVAL;
  dest d;
  parse_dest(&d, host, host_len, ip, ip_len);
  if (prelude(out, p, &d)) return BOXLINT_OK;
  matches m;
  for (int l = 0; l < 2; l++) {
    m.name[l] = m.ip[l] = -1;
    m.all[l] = p->all[l];
    m.narrow[l] = p->has_narrow_ip[l];
  }
  if (d.has_name) {
    const char *s = d.host.e.text;
    size_t n = d.host.e.text_len;
    int32_t exact[2] = {-1, -1}, wild[2] = {-1, -1};
    if (p->dt) {
      uint64_t h = 0, pw = 1;
      for (size_t i = n; i-- > 0;) {
        h += (uint64_t)(unsigned char)s[i] * pw;
        pw *= BOXLINT__NAME_HASH_MUL;
        if (i && s[i - 1] != '.') continue;
        const boxlint__dnode *nd = boxlint__dfind_h(p, s + i, n - i, h);
        if (!nd) continue;
        if (!i) {
          exact[0] = nd->exact[0];
          exact[1] = nd->exact[1];
        } else { /* right to left: a later hit is a longer suffix */
          if (nd->wild[0] >= 0) wild[0] = nd->wild[0];
          if (nd->wild[1] >= 0) wild[1] = nd->wild[1];
        }
      }
    }
    for (int l = 0; l < 2; l++)
      m.name[l] = exact[l] >= 0 ? exact[l] : wild[l] >= 0 ? wild[l] : p->any[l];
  }
  if (d.has_addr) {
    for (int l = 0; l < 2; l++) {
      const boxlint__segs *s = &p->inner[l][d.fam];
      m.ip[l] = d.fam ? boxlint__segs_at(s, d.addr, NULL)
                      : boxlint__segs_at4(s, (uint32_t)d.addr.lo);
      if (m.ip[l] >= 0 && l == 0) break; /* allow decides; the deny match is not needed */
    }
  }
  conclude(out, p, &d, &m);
  return BOXLINT_OK;
}

/*==============================================================================================
 * MARK: The linear reference
 *============================================================================================*/

boxlint_status boxlint__policy_decide_linear(boxlint_decision *out, const boxlint_policy *p,
                                             const char *host, size_t host_len, const char *ip,
                                             size_t ip_len) {
  if (!out || !p || (!host && !ip)) return BOXLINT_EINVAL;
  dest d;
  parse_dest(&d, host, host_len, ip, ip_len);
  if (prelude(out, p, &d)) return BOXLINT_OK;
  matches m;
  const char *h = d.host.e.text;
  size_t hn = d.host.e.text_len;
  for (int l = 0; l < 2; l++) {
    int best_name = 0, best_ip = 0; /* scores; 0 = no match */
    m.name[l] = m.ip[l] = m.all[l] = -1;
    m.narrow[l] = 0;
    for (size_t i = 0; i < p->n[l]; i++) {
      const boxlint__pentry *e = &p->entries[l][i];
      const char *t = p->text + e->text_off;
      int score = 0;
      switch (e->kind) {
      case BOXLINT_ENTRY_ALL_TRAFFIC:
        if (m.all[l] < 0) m.all[l] = (int32_t)i;
        if (d.has_addr && 1 > best_ip) {
          best_ip = 1;
          m.ip[l] = (int32_t)i;
        }
        break;
      case BOXLINT_ENTRY_ADDRESS:
      case BOXLINT_ENTRY_CIDR: {
        m.narrow[l] = 1;
        if (!d.has_addr || (e->family == 6) != (d.fam == 1)) break;
        boxlint__u128 hm = boxlint__u128_hostmask((e->family == 6 ? 128u : 32u) - e->plen);
        if ((d.addr.hi & ~hm.hi) == e->addr.hi && (d.addr.lo & ~hm.lo) == e->addr.lo &&
            e->plen + 1 > best_ip) {
          best_ip = e->plen + 1;
          m.ip[l] = (int32_t)i;
        }
        break;
      }
      case BOXLINT_ENTRY_DOMAIN:
        if (d.has_name && hn == e->text_len && !memcmp(h, t, hn)) score = 1000;
        break;
      case BOXLINT_ENTRY_WILDCARD: {
        size_t sl = e->text_len - 2u;
        if (d.has_name && hn >= sl + 2 && h[hn - sl - 1] == '.' && !memcmp(h + hn - sl, t + 2, sl))
          score = 2 + (int)sl;
        break;
      }
      case BOXLINT_ENTRY_ANY_HOST:
        if (d.has_name) score = 1;
        break;
      default: break;
      }
      if (score > best_name) {
        best_name = score;
        m.name[l] = (int32_t)i;
      }
    }
  }
  conclude(out, p, &d, &m);
  return BOXLINT_OK;
}

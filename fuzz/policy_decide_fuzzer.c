/* policy_decide: compile a small policy, then decide many destinations with the compiled engine
 * (boxlint_policy_decide) and with the linear-scan reference (boxlint__policy_decide_linear).
 *
 * Input: byte 0 = option bits, then lines (LF-separated):
 *   "+entry" or "-entry"   an allow_out / deny_out entry (invalid entries are dropped, so that
 *                          most inputs compile)
 *   "hHOST"                a destination with a host only
 *   "iIP"                  a destination with an address only
 *   "bHOST IP"             both (split at the first space)
 *   anything else          an allow_out entry
 *   bits 0-1  type: 0, 1 "filtered", 2 "open", 3 absent (disabled); lists only when filtered
 *   bit 2     unmatched destinations denied
 *   bit 3     E2B compatibility mode
 * Every entry also becomes destinations: its text as a host and as an address, and for `*.x`
 * the host `a.x`.
 *
 * Oracle (b): both engines give the same verdict, reason, list, index, entry and by_name. */
#include "fuzz_util.h"
#include "policy/policy_int.h"

#define MAX_LINES 400

static void same(const boxlint_policy *P, const char *host, size_t hn, const char *ip, size_t in) {
  boxlint_decision a, b;
  boxlint_status sa = boxlint_policy_decide(&a, P, host, hn, ip, in);
  boxlint_status sb = boxlint__policy_decide_linear(&b, P, host, hn, ip, in);
  FZ_ASSERT(sa == sb);
  if (sa != BOXLINT_OK) return;
  int eq = a.verdict == b.verdict && a.reason == b.reason && a.list == b.list &&
           a.index == b.index && a.by_name == b.by_name &&
           ((!a.entry.ptr && !b.entry.ptr) ||
            (a.entry.ptr && b.entry.ptr && a.entry.len == b.entry.len &&
             !memcmp(a.entry.ptr, b.entry.ptr, a.entry.len)));
  /* A decision by an entry names it; one without names none. */
  int shape = (a.reason == BOXLINT_REASON_RULE) == (a.list != BOXLINT_LIST_NONE) &&
              (a.list == BOXLINT_LIST_NONE) == (a.index < 0) &&
              (a.index < 0) == (a.entry.ptr == NULL) &&
              (a.verdict == BOXLINT_VERDICT_UNKNOWN) == (a.reason == BOXLINT_REASON_NEEDS_IP);
  if (!eq || !shape) {
    fprintf(stderr, "host %s%.*s%s ip %s%.*s%s\n", host ? "\"" : "", host ? (int)hn : 2,
            host ? host : "-", host ? "\"" : "", ip ? "\"" : "", ip ? (int)in : 1, ip ? ip : "-",
            ip ? "\"" : "");
    fprintf(stderr, "compiled %s %s %d[%d] %.*s by_name %d\nlinear   %s %s %d[%d] %.*s by_name %d\n",
            boxlint_verdict_str(a.verdict), boxlint_decision_reason_str(a.reason), (int)a.list,
            (int)a.index, (int)a.entry.len, a.entry.ptr ? a.entry.ptr : "", a.by_name,
            boxlint_verdict_str(b.verdict), boxlint_decision_reason_str(b.reason), (int)b.list,
            (int)b.index, (int)b.entry.len, b.entry.ptr ? b.entry.ptr : "", b.by_name);
    for (int l = 0; l < 2; l++)
      for (size_t i = 0; i < boxlint_policy_entry_count(P, (boxlint_policy_list)l); i++)
        fprintf(stderr, "  %s[%zu] %s\n", boxlint_policy_list_str((boxlint_policy_list)l), i,
                boxlint_policy_entry_text(P, (boxlint_policy_list)l, i).ptr);
    fz_fail(eq ? "a decision is malformed" : "compiled and linear engines disagree (oracle b)");
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  uint8_t bits = data[0];
  boxlint_span line[MAX_LINES];
  size_t nl = fz_cut(data + 1, size - 1, '\n', line, MAX_LINES);
  boxlint_span *list[2], *dest;
  list[0] = malloc(MAX_LINES * sizeof(boxlint_span));
  list[1] = malloc(MAX_LINES * sizeof(boxlint_span));
  dest = malloc(MAX_LINES * sizeof(boxlint_span));
  if (!list[0] || !list[1] || !dest) fz_fail("out of memory in the harness");
  size_t n[2] = {0, 0}, nd = 0;
  int filtered = (bits & 3) < 2;
  for (size_t i = 0; i < nl; i++) {
    boxlint_span s = line[i];
    char c = s.len ? s.ptr[0] : 0;
    if (c == 'h' || c == 'i' || c == 'b') {
      dest[nd++] = s;
      continue;
    }
    int l = c == '-';
    if (c == '-' || c == '+') {
      s.ptr++;
      s.len--;
    }
    boxlint_policy_entry pe;
    if (!filtered || boxlint_policy_entry_parse(&pe, s.ptr, s.len) != BOXLINT_OK) continue;
    list[l][n[l]++] = s;
  }

  boxlint_policy_spec spec;
  memset(&spec, 0, sizeof spec);
  static const char *const types[4] = {"filtered", "filtered", "open", NULL};
  if (types[bits & 3]) {
    spec.type.ptr = types[bits & 3];
    spec.type.len = strlen(spec.type.ptr);
  }
  spec.allow_out = n[0] ? list[0] : NULL;
  spec.n_allow = n[0];
  spec.deny_out = n[1] ? list[1] : NULL;
  spec.n_deny = n[1];
  boxlint_policy_options o;
  boxlint_policy_options_init(&o);
  o.unmatched = (bits & 4) ? BOXLINT_UNMATCHED_DENY : BOXLINT_UNMATCHED_ALLOW;
  o.compat = (bits & 8) ? BOXLINT_COMPAT_E2B : BOXLINT_COMPAT_NONE;

  boxlint_policy *p = NULL;
  boxlint_status st = boxlint_policy_new(&p, NULL, &spec, &o, NULL);
  FZ_ASSERT(st == BOXLINT_OK || st == BOXLINT_ESYNTAX);
  if (st == BOXLINT_OK) {
    for (size_t i = 0; i < nd; i++) {
      const char *s = dest[i].ptr + 1;
      size_t sl = dest[i].len - 1;
      if (dest[i].ptr[0] == 'h') {
        same(p, s, sl, NULL, 0);
      } else if (dest[i].ptr[0] == 'i') {
        same(p, NULL, 0, s, sl);
      } else {
        size_t k = 0;
        while (k < sl && s[k] != ' ') k++;
        same(p, s, k, k < sl ? s + k + 1 : s + k, k < sl ? sl - k - 1 : 0);
      }
    }
    char buf[BOXLINT_POLICY_ENTRY_MAX + 8];
    for (int l = 0; l < 2; l++) {
      for (size_t i = 0; i < n[l]; i++) {
        boxlint_span t = boxlint_policy_entry_text(p, (boxlint_policy_list)l, i);
        same(p, list[l][i].ptr, list[l][i].len, NULL, 0);
        same(p, NULL, 0, list[l][i].ptr, list[l][i].len);
        same(p, t.ptr, t.len, NULL, 0);
        same(p, NULL, 0, t.ptr, t.len);
        same(p, t.ptr, t.len, t.ptr, t.len);
        if (t.len >= 2 && t.ptr[0] == '*' && t.ptr[1] == '.' && t.len < sizeof buf - 2) {
          buf[0] = 'a';
          memcpy(buf + 1, t.ptr + 1, t.len - 1);
          same(p, buf, t.len, NULL, 0);
          same(p, buf + 2, t.len - 2, NULL, 0);
        }
        const char *slash = memchr(t.ptr, '/', t.len);
        if (slash) {
          /* The network address of a CIDR, and the same text with the host part changed. */
          size_t k = (size_t)(slash - t.ptr);
          same(p, NULL, 0, t.ptr, k);
          if (k < sizeof buf && k > 0) {
            memcpy(buf, t.ptr, k);
            buf[k - 1] = buf[k - 1] == '0' ? '1' : buf[k - 1] == ':' ? ':' : '0';
            same(p, NULL, 0, buf, k);
            same(p, buf, k, NULL, 0);
          }
        }
      }
    }
    same(p, NULL, 0, "0.0.0.0", 7);
    same(p, NULL, 0, "::", 2);
    same(p, "example.com", 11, NULL, 0);
  }
  boxlint_policy_free(p);
  free(list[0]);
  free(list[1]);
  free(dest);
  return 0;
}

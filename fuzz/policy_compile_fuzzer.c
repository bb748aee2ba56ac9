/* policy_compile: boxlint_policy_new on a NetworkPolicy cut from the input, and
 * boxlint_policy_entry_parse on each of its entries (docs/design.md §3).
 *
 * Input: byte 0 = option bits, then lines (LF-separated). A line starting with '-' is a
 * deny_out entry (without the '-'), any other line an allow_out entry; with bit 0-1 = 0 the
 * first line is the `type`.
 *   bits 0-1  type: 0 from the first line, 1 "filtered", 2 "open", 3 absent (disabled)
 *   bit 2     unmatched destinations denied
 *   bit 3     E2B compatibility mode
 *   bits 4-5  max_entries: 0 default, 1 -> 2, 2 -> 8, 3 -> the hard maximum
 *   bit 6     an empty path prefix instead of "network_policy"
 *   bit 7     out of memory: the policy and report use an allocator that fails after the
 *             first (last input byte % 64) allocations (BOXLINT_ENOMEM, nothing leaks)
 *
 * Oracles: (c) the normalised text of every accepted entry re-parses to itself (same text,
 * kind, family and prefix); the return code agrees with the error findings; a compiled policy
 * holds exactly the entries given, each with its normalised text; boxlint_policy_emit writes
 * both formats or refuses both, with unenforceable-entry errors only. */
#include "fuzz_util.h"

#define MAX_LINES 600

static void reparse(boxlint_span e, boxlint_policy_entry *pe) {
  boxlint_status st = boxlint_policy_entry_parse(pe, e.ptr, e.len);
  FZ_ASSERT(st == BOXLINT_OK || st == BOXLINT_ESYNTAX);
  FZ_ASSERT((st == BOXLINT_OK) == (pe->kind != BOXLINT_ENTRY_INVALID));
  FZ_ASSERT((st == BOXLINT_OK) == (pe->detail == NULL));
  FZ_ASSERT(pe->text_len == strlen(pe->text) && pe->text_len <= BOXLINT_POLICY_ENTRY_MAX);
  if (st != BOXLINT_OK) {
    FZ_ASSERT(pe->text_len == 0);
    return;
  }
  boxlint_policy_entry again;
  st = boxlint_policy_entry_parse(&again, pe->text, pe->text_len);
  if (st != BOXLINT_OK || again.text_len != pe->text_len || strcmp(again.text, pe->text) ||
      again.kind != pe->kind || again.family != pe->family ||
      again.prefix_len != pe->prefix_len) {
    fprintf(stderr, "entry \"%.*s\" -> \"%s\" (kind %d) -> %s \"%s\" (kind %d, detail %s)\n",
            (int)e.len, e.ptr, pe->text, (int)pe->kind, boxlint_status_str(st), again.text,
            (int)again.kind, again.detail ? again.detail : "-");
    fz_fail("a normalised entry does not re-parse to itself (oracle c)");
  }
}

/* Whether a line of the configuration outside a map block, after its indentation, begins with
 * the directive `name` followed by a blank or ';'. A destination's name may hold the same
 * letters ("ssl_certificate4.", or the bare name "ssl_certificate_key"), and a map's entries
 * are such names with their verdicts: only a directive counts. */
static int holds_directive(const char *conf, const char *name) {
  size_t k = strlen(name);
  int in_map = 0;
  const char *l = conf;
  for (;;) {
    while (*l == ' ' || *l == '\t') l++;
    const char *end = strchr(l, '\n');
    size_t n = end ? (size_t)(end - l) : strlen(l);
    if (in_map) {
      if (n == 1 && l[0] == '}') in_map = 0;
    } else if (n >= 5 && !memcmp(l, "map ", 4) && l[n - 1] == '{') {
      in_map = 1;
    } else if (n > k && !memcmp(l, name, k) && (l[k] == ' ' || l[k] == '\t' || l[k] == ';')) {
      return 1;
    }
    if (!end) return 0;
    l = end + 1;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  uint8_t bits = data[0];
  boxlint_span line[MAX_LINES];
  size_t nl = fz_cut(data + 1, size - 1, '\n', line, MAX_LINES);

  boxlint_policy_spec spec;
  memset(&spec, 0, sizeof spec);
  size_t first = 0;
  switch (bits & 3) {
  case 0: spec.type = line[0]; first = 1; break;
  case 1: spec.type.ptr = "filtered"; spec.type.len = 8; break;
  case 2: spec.type.ptr = "open"; spec.type.len = 4; break;
  default: break;
  }
  boxlint_span *allow = malloc(MAX_LINES * sizeof *allow);
  boxlint_span *deny = malloc(MAX_LINES * sizeof *deny);
  boxlint_policy_entry *pa = malloc(MAX_LINES * sizeof *pa);
  boxlint_policy_entry *pd = malloc(MAX_LINES * sizeof *pd);
  if (!allow || !deny || !pa || !pd) fz_fail("out of memory in the harness");
  size_t na = 0, nd = 0;
  for (size_t i = first; i < nl; i++) {
    if (line[i].len && line[i].ptr[0] == '-') {
      deny[nd].ptr = line[i].ptr + 1;
      deny[nd].len = line[i].len - 1;
      reparse(deny[nd], &pd[nd]);
      nd++;
    } else {
      allow[na] = line[i];
      reparse(allow[na], &pa[na]);
      na++;
    }
  }
  spec.allow_out = na ? allow : NULL;
  spec.n_allow = na;
  spec.deny_out = nd ? deny : NULL;
  spec.n_deny = nd;

  boxlint_policy_options o;
  boxlint_policy_options_init(&o);
  o.unmatched = (bits & 4) ? BOXLINT_UNMATCHED_DENY : BOXLINT_UNMATCHED_ALLOW;
  o.compat = (bits & 8) ? BOXLINT_COMPAT_E2B : BOXLINT_COMPAT_NONE;
  static const size_t maxe[4] = {0, 2, 8, BOXLINT_POLICY_HARD_MAX_ENTRIES};
  o.max_entries = maxe[(bits >> 4) & 3];
  if (bits & 64) {
    o.path_prefix.ptr = "";
    o.path_prefix.len = 0;
  }

  fz_failer failer;
  boxlint_alloc failing = fz_failing(&failer, data, size);
  const boxlint_alloc *alloc = (bits & 128) ? &failing : NULL;
  boxlint_report *r = NULL;
  if (boxlint_report_new(&r, alloc) != BOXLINT_OK) {
    FZ_ASSERT(alloc && r == NULL);
    goto done;
  }
  boxlint_policy *p = (boxlint_policy *)&r; /* must be reset to NULL on failure */
  boxlint_status st = boxlint_policy_new(&p, r, &spec, &o, alloc);
  if (st == BOXLINT_ENOMEM) {
    FZ_ASSERT(alloc && p == NULL);
    for (size_t i = 0; i < boxlint_report_diag_count(r); i++)
      fz_check_diag(boxlint_report_diag(r, i), SIZE_MAX);
    boxlint_report_free(r);
    goto done;
  }
  FZ_ASSERT(st == BOXLINT_OK || st == BOXLINT_ESYNTAX);
  size_t errors = boxlint_report_count_at_least(r, BOXLINT_SEVERITY_ERROR);
  for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
    const boxlint_diag *d = boxlint_report_diag(r, i);
    fz_check_diag(d, SIZE_MAX);
    FZ_ASSERT(d->command == -1);
  }
  if (st == BOXLINT_ESYNTAX) {
    FZ_ASSERT(p == NULL && errors > 0);
  } else {
    if (errors) {
      fz_dump(r, "policy");
      fz_fail("boxlint_policy_new returned OK with error findings");
    }
    FZ_ASSERT(p != NULL);
    int filtered = spec.type.ptr && spec.type.len == 8 && !memcmp(spec.type.ptr, "filtered", 8);
    if (filtered) {
      FZ_ASSERT(boxlint_policy_get_type(p) == BOXLINT_POLICY_FILTERED);
      FZ_ASSERT(boxlint_policy_entry_count(p, BOXLINT_LIST_ALLOW_OUT) == na);
      FZ_ASSERT(boxlint_policy_entry_count(p, BOXLINT_LIST_DENY_OUT) == nd);
      for (size_t i = 0; i < na; i++) {
        boxlint_span t = boxlint_policy_entry_text(p, BOXLINT_LIST_ALLOW_OUT, i);
        FZ_ASSERT(t.ptr && t.len == pa[i].text_len && !memcmp(t.ptr, pa[i].text, t.len));
      }
      for (size_t i = 0; i < nd; i++) {
        boxlint_span t = boxlint_policy_entry_text(p, BOXLINT_LIST_DENY_OUT, i);
        FZ_ASSERT(t.ptr && t.len == pd[i].text_len && !memcmp(t.ptr, pd[i].text, t.len));
      }
    }
    FZ_ASSERT(boxlint_policy_entry_text(p, BOXLINT_LIST_ALLOW_OUT, na).ptr == NULL);
    /* The enforcement rules: written whole, or refused with unenforceable-entry errors
     * only; the same analysis for both formats. */
    int refused[2];
    for (int f = 0; f < 2; f++) {
      boxlint_report *er;
      if (boxlint_report_new(&er, NULL) != BOXLINT_OK) fz_fail("report_new");
      char *out = NULL;
      size_t n = 0;
      boxlint_status es = boxlint_policy_emit(p, (boxlint_emit_format)f, NULL, er, &out, &n,
                                              NULL);
      /* the policy's own (failing) allocator holds the analysis' scratch */
      FZ_ASSERT(es == BOXLINT_OK || (alloc && es == BOXLINT_ENOMEM && !out));
      if (es != BOXLINT_OK) {
        boxlint_report_free(er);
        refused[0] = refused[1] = 0;
        break;
      }
      refused[f] = out == NULL;
      FZ_ASSERT(refused[f] == (boxlint_report_diag_count(er) > 0));
      for (size_t i = 0; i < boxlint_report_diag_count(er); i++) {
        fz_check_diag(boxlint_report_diag(er, i), SIZE_MAX);
        FZ_ASSERT(!strcmp(boxlint_report_diag(er, i)->rule, "unenforceable-entry"));
      }
      FZ_ASSERT(!out || strlen(out) == n);
      boxlint_buffer_free(out, NULL);
      boxlint_report_free(er);
    }
    FZ_ASSERT(refused[0] == refused[1]);
    /* The proxy layer: written whole with a resolver, or refused with unenforceable-entry
     * errors only; a written configuration never holds a key or certificate. */
    {
      static const char *const res[] = {"198.51.100.53"};
      boxlint_emit_options eo;
      boxlint_emit_options_init(&eo);
      eo.resolvers = res;
      eo.nresolvers = 1;
      boxlint_report *er;
      if (boxlint_report_new(&er, NULL) != BOXLINT_OK) fz_fail("report_new");
      char *out = NULL;
      size_t n = 0;
      boxlint_status es = boxlint_policy_emit(p, BOXLINT_EMIT_NGINX, &eo, er, &out, &n, NULL);
      FZ_ASSERT(es == BOXLINT_OK || (alloc && es == BOXLINT_ENOMEM && !out));
      FZ_ASSERT(es != BOXLINT_OK || (out == NULL) == (boxlint_report_diag_count(er) > 0));
      for (size_t i = 0; i < boxlint_report_diag_count(er); i++)
        FZ_ASSERT(!strcmp(boxlint_report_diag(er, i)->rule, "unenforceable-entry"));
      FZ_ASSERT(!out || (strlen(out) == n && !holds_directive(out, "ssl_certificate") &&
                         !holds_directive(out, "ssl_certificate_key")));
      boxlint_buffer_free(out, NULL);
      boxlint_report_free(er);
    }
    /* Every entry's own text as a destination: the compiled engine agrees with itself. */
    for (size_t i = 0; i < na; i++) {
      boxlint_decision dh;
      FZ_ASSERT(boxlint_policy_decide(&dh, p, allow[i].ptr, allow[i].len, NULL, 0) ==
                BOXLINT_OK);
      FZ_ASSERT(boxlint_policy_decide(&dh, p, NULL, 0, allow[i].ptr, allow[i].len) ==
                BOXLINT_OK);
    }
  }
  boxlint_policy_free(p);
  boxlint_report_free(r);
done:
  free(allow);
  free(deny);
  free(pa);
  free(pd);
  return 0;
}

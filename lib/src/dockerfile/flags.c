/*
 * Flags as BuildKit's instruction parser checks them (docs/design.md §2.1): the flag
 * set of each instruction (BFlags), unknown, duplicate and value-less flags, booleans, and the
 * values that can be judged without a build: RUN --network, --security and --mount, and the
 * HEALTHCHECK durations and retries.
 */
#include <string.h>
#include "dockerfile/dockerfile_int.h"

typedef struct flag_def {
  const char *name;
  int repeat; /* stringsType: may repeat */
} flag_def;

static const flag_def RUN_FLAGS[] = {{"device", 1}, {"mount", 1}, {"network", 0}, {"security", 0}, {0, 0}};
static const flag_def HEALTH_FLAGS[] = {{"interval", 0}, {"retries", 0}, {"start-interval", 0},
                                        {"start-period", 0}, {"timeout", 0}, {0, 0}};
static const flag_def COPY_FLAGS[] = {{"chmod", 0}, {"chown", 0}, {"exclude", 1}, {"from", 0},
                                      {"link", 0}, {"parents", 0}, {0, 0}};
static const flag_def ADD_FLAGS[] = {{"checksum", 0}, {"chmod", 0}, {"chown", 0}, {"exclude", 1},
                                     {"keep-git-dir", 0}, {"link", 0}, {"unpack", 0}, {0, 0}};
static const flag_def FROM_FLAGS[] = {{"platform", 0}, {0, 0}};
static const flag_def NO_FLAGS[] = {{0, 0}};

/* ---- Values ----------------------------------------------------------------------------- */

/* Go's time.ParseDuration, enough to compare with 1ms: returns 0 and the value in ns (saturated),
 * or -1 when BuildKit would fail to parse it. */
static int parse_duration(const char *s, size_t n, double *ns) {
  size_t i = 0;
  double total = 0;
  int neg = 0;
  if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  if (i == n) return -1;
  if (n - i == 1 && s[i] == '0') { *ns = 0; return 0; }
  while (i < n) {
    double v = 0, frac = 0, scale = 1;
    int digits = 0;
    while (i < n && boxlint__is_digit((unsigned char)s[i])) { v = v * 10 + (s[i++] - '0'); digits++; }
    if (i < n && s[i] == '.') {
      i++;
      while (i < n && boxlint__is_digit((unsigned char)s[i])) { frac = frac * 10 + (s[i++] - '0'); scale *= 10; digits++; }
    }
    if (!digits) return -1;
    size_t u = i;
    while (i < n && s[i] != '.' && !boxlint__is_digit((unsigned char)s[i])) i++;
    size_t ul = i - u;
    double unit;
    if (ul == 2 && !memcmp(s + u, "ns", 2)) unit = 1;
    else if (ul == 2 && (!memcmp(s + u, "us", 2))) unit = 1e3;
    else if (ul == 3 && (!memcmp(s + u, "\xc2\xb5s", 3) || !memcmp(s + u, "\xce\xbcs", 3))) unit = 1e3;
    else if (ul == 2 && !memcmp(s + u, "ms", 2)) unit = 1e6;
    else if (ul == 1 && s[u] == 's') unit = 1e9;
    else if (ul == 1 && s[u] == 'm') unit = 60e9;
    else if (ul == 1 && s[u] == 'h') unit = 3600e9;
    else return -1;
    total += (v + frac / scale) * unit;
  }
  *ns = neg ? -total : total;
  return 0;
}

static int span_is(const char *p, size_t n, const char *w) {
  return strlen(w) == n && !memcmp(p, w, n);
}

/* RUN --mount: BuildKit's key set and value checks, for what can be decided without the
 * build (fields with quotes are left alone: csv quoting is not modelled). */
static int mount_check(bl_check *ck, const bl_read *rd, const bl_flag *f, const char *v, size_t n) {
  if (memchr(v, '"', n)) return 0;
  static const char *const types[] = {"bind", "cache", "tmpfs", "secret", "ssh", 0};
  static const char *const keys[] = {"type", "from", "source", "src", "target", "dst",
                                     "destination", "readonly", "ro", "readwrite", "rw",
                                     "required", "size", "id", "sharing", "mode", "uid", "gid",
                                     "env", 0};
  size_t s = 0;
  while (s <= n) {
    size_t e = s;
    while (e < n && v[e] != ',') e++;
    const char *fld = v + s;
    size_t fl = e - s;
    const char *eq = memchr(fld, '=', fl);
    size_t kl = eq ? (size_t)(eq - fld) : fl;
    if (fl) {
      size_t k = 0;
      for (; keys[k]; k++)
        if (boxlint__ieq(fld, kl, keys[k])) break;
      if (!keys[k]) {
        bl_emit_l(ck, rd, BL_R_INVALID_FLAG, f->l_start, f->l_end, "unexpected key '%s' in '%s'",
                  bl_q(ck, fld, kl), bl_q(ck, fld, fl));
      } else if (!eq && k != 7 && k != 8 && k != 9 && k != 10 && k != 11) {
        bl_emit_l(ck, rd, BL_R_INVALID_FLAG, f->l_start, f->l_end,
                  "invalid field '%s' must be a key=value pair", bl_q(ck, fld, fl));
      } else if (k == 0) {
        const char *tv = eq + 1;
        size_t tl = fl - kl - 1, t = 0;
        for (; types[t]; t++)
          if (boxlint__ieq(tv, tl, types[t])) break;
        if (!types[t]) {
          boxlint_diag *d = bl_emit_l(ck, rd, BL_R_INVALID_FLAG, f->l_start, f->l_end,
                                      "unsupported mount type \"%s\"", bl_q(ck, tv, tl));
          bl_hint(ck, d, "type is one of bind, cache, tmpfs, secret, ssh");
        }
      }
    }
    s = e + 1;
  }
  return 0;
}

/* RUN --network and --security: BuildKit looks the values up in case-sensitive maps. */
static void check_run_flag(bl_check *ck, const bl_read *rd, const bl_flag *f, const char *name,
                           const char *val, size_t vl) {
  if (!strcmp(name, "network") && !span_is(val, vl, "default") && !span_is(val, vl, "none") &&
      !span_is(val, vl, "host")) {
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_INVALID_FLAG, f->l_start, f->l_end,
                                "invalid network mode \"%s\"", bl_q(ck, val, vl));
    bl_hint(ck, d, "--network takes default, none or host");
  } else if (!strcmp(name, "security") && !span_is(val, vl, "sandbox") &&
             !span_is(val, vl, "insecure")) {
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_INVALID_FLAG, f->l_start, f->l_end,
                                "security \"%s\" is not valid", bl_q(ck, val, vl));
    bl_hint(ck, d, "--security takes sandbox or insecure");
  } else if (!strcmp(name, "mount")) {
    mount_check(ck, rd, f, val, vl);
  }
}

/* HEALTHCHECK --retries (strconv.ParseInt, then not negative) and the durations; BuildKit skips
 * empty values, so `vl` is not 0. */
static void check_health_flag(bl_check *ck, const bl_read *rd, const bl_flag *f,
                              const char *name, const char *val, size_t vl) {
  if (!strcmp(name, "retries")) {
    size_t j = 0;
    int neg = vl && val[0] == '-';
    if (neg || (vl && val[0] == '+')) j = 1;
    int ok = j < vl;
    for (; j < vl; j++) ok &= boxlint__is_digit((unsigned char)val[j]);
    if (!ok)
      bl_emit_l(ck, rd, BL_R_INVALID_FLAG, f->l_start, f->l_end, "invalid value for --retries: %s",
                bl_q(ck, val, vl));
    else if (neg && vl > 1 && !(vl == 2 && val[1] == '0'))
      bl_emit_l(ck, rd, BL_R_INVALID_FLAG, f->l_start, f->l_end,
                "--retries cannot be negative (%s)",
                bl_q(ck, val, vl));
    return;
  }
  double ns;
  if (parse_duration(val, vl, &ns))
    bl_emit_l(ck, rd, BL_R_INVALID_FLAG, f->l_start, f->l_end, "time: invalid duration \"%s\"",
              bl_q(ck, val, vl));
  else if (ns != 0 && ns < 1e6) {
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_INVALID_FLAG, f->l_start, f->l_end,
                                "Interval \"%s\" cannot be less than 1ms", name);
    bl_hint(ck, d, "use a duration such as 30s");
  }
}

/* ---- Names ------------------------------------------------------------------------------ */

/* The flags `kw` takes (BuildKit's BFlags of its instruction). */
static const flag_def *flag_defs(boxlint_keyword kw) {
  switch (kw) {
  case BOXLINT_KW_RUN: return RUN_FLAGS;
  case BOXLINT_KW_HEALTHCHECK: return HEALTH_FLAGS;
  case BOXLINT_KW_COPY: return COPY_FLAGS;
  case BOXLINT_KW_ADD: return ADD_FLAGS;
  case BOXLINT_KW_FROM: return FROM_FLAGS;
  default: return NO_FLAGS;
  }
}

/* Index of the flag spelled name[0..nl) in `defs`, or of its terminator when there is none. */
static size_t flag_find(const flag_def *defs, const char *name, size_t nl) {
  size_t k = 0;
  for (; defs[k].name; k++)
    if (strlen(defs[k].name) == nl && !memcmp(defs[k].name, name, nl)) break;
  return k;
}

/* An unknown flag, with the closest known one (edit distance under 3, over bytes) as a hint. */
static void flag_unknown(bl_check *ck, const bl_read *rd, const bl_cmdline *c,
                         const flag_def *defs, const bl_flag *f, const char *name, size_t nl) {
  const char *best = NULL;
  size_t bd = 3;
  for (size_t j = 0; defs[j].name; j++) {
    size_t d = boxlint__edit_distance(name, nl, defs[j].name, strlen(defs[j].name), 0, bd);
    if (d < bd) { bd = d; best = defs[j].name; }
  }
  boxlint_diag *d = bl_emit_l(ck, rd, BL_R_INVALID_FLAG, f->l_start, f->l_end, "unknown flag: --%s",
                              bl_q(ck, name, nl));
  if (best) bl_hint(ck, d, "did you mean --%s?", best);
  else if (defs == NO_FLAGS)
    bl_hint(ck, d, "%s takes no flags",
            c->folded ? boxlint_keyword_name(c->folded) : "this instruction");
}

/* BuildKit's boolean flags (AddBool): COPY --link/--parents, ADD --link/--keep-git-dir/--unpack. */
static int flag_is_bool(const flag_def *defs, const char *name) {
  if (defs == COPY_FLAGS) return !strcmp(name, "link") || !strcmp(name, "parents");
  if (defs == ADD_FLAGS)
    return !strcmp(name, "link") || !strcmp(name, "keep-git-dir") || !strcmp(name, "unpack");
  return 0;
}

/* ---- The check -------------------------------------------------------------------------- */

/* The value of the known flag defs[k] (`eq`: its '=' in the flag, or NULL). */
static void check_flag_value(bl_check *ck, const bl_read *rd, const flag_def *defs, size_t k,
                             const bl_flag *f, const char *eq) {
  const char *v = f->value.ptr, *name = defs[k].name;
  size_t n = f->value.len;
  const char *val = eq ? eq + 1 : NULL;
  size_t vl = eq ? n - (size_t)(eq + 1 - v) : 0;
  if (flag_is_bool(defs, name)) {
    if (eq && !vl)
      bl_emit_l(ck, rd, BL_R_INVALID_FLAG, f->l_start, f->l_end, "missing a value on flag: --%s",
                name);
    else if (eq && !boxlint__ieq(val, vl, "true") && !boxlint__ieq(val, vl, "false"))
      bl_emit_l(ck, rd, BL_R_INVALID_FLAG, f->l_start, f->l_end,
                "expecting boolean value for flag --%s, not: %s", name, bl_q(ck, val, vl));
    return;
  }
  if (!eq) {
    boxlint_diag *d = bl_emit_l(ck, rd, BL_R_INVALID_FLAG, f->l_start, f->l_end,
                                "missing a value on flag: --%s", name);
    bl_hint(ck, d, "write --%s=<value>", name);
    return;
  }
  if (defs == RUN_FLAGS) check_run_flag(ck, rd, f, name, val, vl);
  else if (defs == HEALTH_FLAGS && vl) check_health_flag(ck, rd, f, name, val, vl);
}

void bl_check_flags(bl_check *ck, const bl_read *rd, const bl_cmdline *c) {
  const flag_def *defs = flag_defs(c->folded);
  unsigned used = 0;
  for (size_t i = 0; i < c->nflags; i++) {
    const bl_flag *f = &ck->cx.flags[c->flag0 + i];
    const char *v = f->value.ptr;
    size_t n = f->value.len;
    if (n < 2 || v[0] != '-' || v[1] != '-') {
      bl_emit_l(ck, rd, BL_R_INVALID_FLAG, f->l_start, f->l_end, "arg should start with -- : %s",
                bl_q(ck, v, n));
      continue;
    }
    const char *eq = memchr(v, '=', n);
    size_t nl = (eq ? (size_t)(eq - v) : n) - 2;
    size_t k = flag_find(defs, v + 2, nl);
    if (!defs[k].name) {
      flag_unknown(ck, rd, c, defs, f, v + 2, nl);
      continue;
    }
    if ((used >> k) & 1 && !defs[k].repeat) {
      bl_emit_l(ck, rd, BL_R_INVALID_FLAG, f->l_start, f->l_end, "duplicate flag specified: --%s",
                defs[k].name);
      continue;
    }
    used |= 1u << k;
    check_flag_value(ck, rd, defs, k, f, eq);
  }
}

/*
 * secret-in-command: known token formats, passwords in URLs, password=... assignments and
 * secret-looking ENV/ARG names with literal values, in the instruction and its heredoc bodies.
 * A secret is masked in every output (its public prefix at most). The scan runs on every command
 * with the warning on, so a table proposes the few offsets where an anchored pattern can start
 * and PCRE2 runs only there; what is not a secret (a path, a variable) is decided after a match.
 */
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* With GCC or Clang on x86-64, a second scan for AVX2, chosen at each scan by the processor's
 * features as the compiler's run time found them at start-up (__builtin_cpu_supports), the SSE2
 * one otherwise: see candidates32_avx2. */
#if defined(__SSE2__) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BL_SECRET_AVX2 1
#include <immintrin.h>
#endif
#include "warnings/warnings_int.h"

/* "ghp_**** (40 characters)": a token's public prefix at most, never the secret. */
static const char *mask(bl_check *ck, const char *p, size_t n) {
  static const char *const prefixes[] = {"github_pat_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_",
                                         "glpat-", "xoxb-", "xoxp-", "xoxa-", "xoxo-", "xoxr-",
                                         "xoxs-", "sk-proj-", "sk-", "AKIA", "ASIA", 0};
  size_t keep = 0;
  for (int i = 0; prefixes[i]; i++) {
    size_t l = strlen(prefixes[i]);
    if (n > l + 8 && !memcmp(p, prefixes[i], l)) {
      keep = l;
      break;
    }
  }
  char buf[16];
  memcpy(buf, p, keep);
  buf[keep] = 0;
  const char *m = boxlint__rprintf(ck->cx.r, "%s**** (%zu characters)", buf, n);
  return m ? m : "****";
}

static const char *token_kind(const char *p) {
  if (!strncmp(p, "AKIA", 4) || !strncmp(p, "ASIA", 4)) return "an AWS access key id";
  if (!strncmp(p, "gh", 2) || !strncmp(p, "github_pat_", 11)) return "a GitHub token";
  if (!strncmp(p, "glpat-", 6)) return "a GitLab token";
  if (!strncmp(p, "xox", 3)) return "a Slack token";
  if (!strncmp(p, "-----BEGIN", 10)) return "a private key";
  return "an API key";
}

static const char SECRET_HINT[] =
    "remove it: everything in a template command is stored in the image that every sandbox of "
    "the template gets; pass credentials at run time instead (environment of the sandbox, a "
    "secret store)";

/* Run the secret patterns over [s, e) of `text` (logical line, or input when in_input). */
/* Where a pattern can start: the secret patterns are compiled anchored (PCRE2_ANCHORED), and
 * this cheap scan proposes the few offsets where each could match, so that PCRE2 runs on a
 * handful of places per command instead of every byte. */
static int is_alnum_c(unsigned char c) { return boxlint__is_alpha(c) || boxlint__is_digit(c); }

/* First characters of the secret patterns: bit 1 token, bit 2 assignment keyword, bit 4 ':'. */
static const unsigned char SECRET_FIRST[256] = {
  ['A'] = 1 | 2, ['g'] = 1, ['x'] = 1, ['s'] = 1 | 2, ['-'] = 1, ['a'] = 2, ['p'] = 2, ['P'] = 2,
  ['S'] = 2, ['t'] = 2, ['T'] = 2, [':'] = 4,
};

/* Whether the anchored token pattern can match at p[0..n): its alternatives' literal starts. */
static int token_start(const char *p, size_t n) {
  if (n < 3) return 0;
  switch (p[0]) {
  case 'A': return n >= 4 && (p[1] == 'K' || p[1] == 'S') && p[2] == 'I' && p[3] == 'A';
  case 'g':
    return p[1] == 'h' || (n >= 11 && !memcmp(p, "github_pat_", 11)) ||
           (n >= 6 && !memcmp(p, "glpat-", 6));
  case 'x': return p[1] == 'o' && p[2] == 'x';
  case 's': return p[1] == 'k' && p[2] == '-';
  case '-': return n >= 11 && !memcmp(p, "-----BEGIN ", 11);
  default: return 0;
  }
}

/* Whether the anchored, caseless assignment pattern can match at p[0..n): its keywords start
 * with pas, pwd, sec, tok, api or acc. A non-ASCII byte may be a letter that folds to ASCII
 * (U+017F to s, U+212A to k): then PCRE2 decides. */
static int assign_start(const char *p, size_t n) {
  if (n < 3) return 0;
  unsigned char a = (unsigned char)p[0], b = (unsigned char)p[1], c = (unsigned char)p[2];
  if (a >= 0x80 || b >= 0x80 || c >= 0x80) return 1;
  a = boxlint__lower(a);
  b = boxlint__lower(b);
  c = boxlint__lower(c);
  switch (a) {
  case 'p': return (b == 'a' && c == 's') || (b == 'w' && c == 'd');
  case 's': return b == 'e' && c == 'c';
  case 't': return b == 'o' && c == 'k';
  case 'a': return (b == 'p' && c == 'i') || (b == 'c' && c == 'c');
  default: return 0;
  }
}

/* Whether the anchored URL pattern (BL_RE_URL_USERINFO, "://user:password@h") can match at
 * p[0..n), which starts with "://": its form checked byte by byte (\s is ASCII white space in
 * PCRE2 without UCP), so that PCRE2 runs only on a URL that has a user and a password. */
static int url_userinfo_start(const char *p, size_t n) {
#define URL_STOP(c) ((c) == ' ' || ((c) >= '\t' && (c) <= '\r') || (c) == '/' || (c) == '"' || \
                     (c) == '\'')
  size_t i = 3, s = 3;
  while (i < n && !URL_STOP(p[i]) && p[i] != '@' && p[i] != ':') i++;
  if (i == s || i >= n || p[i] != ':') return 0;
  s = ++i;
  while (i < n && !URL_STOP(p[i]) && p[i] != '@') i++;
  if (i == s || i + 1 >= n || p[i] != '@') return 0;
  return !URL_STOP(p[i + 1]);
#undef URL_STOP
}

/* ---- What is not a secret (issue 12) --------------------------------------------------------
 * A secret-looking name with a value that only says where the secret is: a path, a variable,
 * nothing. These run only after a pattern matched (the assignment pattern in RUN, LABEL and
 * heredoc bodies; the name pattern of ENV/ARG), never in the scan for candidates. */

/* Names whose value is a location: *_FILE (the convention of the official images and of
 * Docker secrets: POSTGRES_PASSWORD_FILE=/run/secrets/db), *_PATH, *_DIR, *_URL... Compared
 * without regard to case, at the end of the name only (TOKEN_FILE_MODE is not one). A value
 * that holds a secret anyway (a token, https://user:pass@host, ?token=...) is still scanned
 * for one by the caller. */
static int names_a_location(const char *p, size_t n) {
  static const char *const suffixes[] = {"_file", "_files", "_filename", "_path", "_dir",
                                         "_directory", "_url", "_uri", 0};
  for (int i = 0; suffixes[i]; i++) {
    size_t l = strlen(suffixes[i]);
    if (n > l && boxlint__ieq(p + n - l, l, suffixes[i])) return 1;
  }
  return 0;
}

/* Whether p[0..n) is a file-system path as a template writes one: /abs, ./rel, ../rel, ~/x or
 * ~user/x (BuildKit does not expand ~; the program reading the variable may), in the characters
 * of file names (and $VAR, ${VAR} parts). A relative name without ./ (secrets/t) is not taken
 * for a path: a secret can look like that. Base64 secrets contain '/' too (an AWS secret access
 * key starts with one in 64 cases), so a path has no '+', '=' or "//", and none of its parts is
 * a run of 12 or more letters and digits mixing upper case, lower case and digits without '.',
 * '-' or '_' (random, not a name). */
static int is_path(const char *p, size_t n) {
  size_t i = 0;
  if (n >= 1 && p[0] == '/') i = 1;
  else if (n >= 2 && p[0] == '.' && p[1] == '/') i = 2;
  else if (n >= 3 && p[0] == '.' && p[1] == '.' && p[2] == '/') i = 3;
  else if (n >= 1 && p[0] == '~') {
    i = 1; /* ~ or ~user, then '/' or the end */
    while (i < n && (is_alnum_c((unsigned char)p[i]) || p[i] == '_' || p[i] == '-' || p[i] == '.'))
      i++;
    if (i < n && p[i++] != '/') return 0;
  } else {
    return 0;
  }
  size_t seg = i;
  int up = 0, lo = 0, dg = 0, sep = 0;
  for (; i <= n; i++) {
    unsigned char c = i < n ? (unsigned char)p[i] : '/';
    if (c == '/') {
      if (i == seg && i < n) return 0; /* "//" */
      if (i - seg >= 12 && up && lo && dg && !sep) return 0;
      seg = i + 1;
      up = lo = dg = sep = 0;
    } else if (c >= 'A' && c <= 'Z') {
      up = 1;
    } else if (c >= 'a' && c <= 'z') {
      lo = 1;
    } else if (boxlint__is_digit(c)) {
      dg = 1;
    } else if (c == '.' || c == '-' || c == '_') {
      sep = 1;
    } else if (c < 0x80 && (c == 0 || !strchr("~@:,${}", c))) {
      return 0;
    }
  }
  return 1;
}

/* ${NAME:-word}, ${NAME-word}, ${NAME:+word}, ${NAME+word} at the start of p[0..n): the word,
 * which becomes the value when NAME is unset (set, for +). Templates are built without build
 * arguments, so a default is what the image gets. 0 for $NAME, ${NAME}, ${NAME:?message},
 * $(command) and anything else. */
static int var_default(const char *p, size_t n, const char **w, size_t *wn) {
  if (n < 4 || p[0] != '$' || p[1] != '{') return 0;
  size_t i = 2;
  while (i < n && (is_alnum_c((unsigned char)p[i]) || p[i] == '_')) i++;
  if (i == 2 || i >= n) return 0;
  if (p[i] == ':') i++;
  if (i >= n || (p[i] != '-' && p[i] != '+')) return 0;
  size_t s = ++i;
  for (int depth = 1; i < n; i++) {
    if (p[i] == '{') depth++;
    else if (p[i] == '}' && --depth == 0) break;
  }
  *w = p + s;
  *wn = i - s;
  return 1;
}

/* Whether an ENV/ARG value (unquoted) holds no secret by its form: empty, a variable reference
 * ($X, ${X}, "$X") whose default, if any, holds none either, or a path (only a one-word value
 * can be one). Otherwise *lit is the literal the image gets: the value, or the default. */
static int value_holds_no_secret(const char *p, size_t n, int one_word, const char **lit,
                                 size_t *litn) {
  int is_default = 0;
  for (;;) { /* a loop, not recursion: ${A:-${B:-...}} nests as deep as the input allows */
    if (n == 0) return 1;
    if (p[0] == '$') {
      const char *w;
      size_t wn;
      if (!var_default(p, n, &w, &wn)) return 1; /* $X, ${X}, $(...): not a literal */
      p = w;
      n = wn;
      is_default = 1;
      continue;
    }
    if ((one_word || is_default) && is_path(p, n)) return 1;
    *lit = p;
    *litn = n;
    return 0;
  }
}

/* An assignment match (name from ms, value [vs, ve)) that names a location or whose value is a
 * path: TOKEN_FILE=/run/secrets/t, password_file: secrets.txt, token=~/.config/t. The name is
 * the keyword the pattern matched and the name bytes after it. */
static int assignment_holds_no_secret(const char *text, size_t ms, size_t vs, size_t ve) {
  size_t ne = ms;
  while (ne < vs && (is_alnum_c((unsigned char)text[ne]) || text[ne] == '_' ||
                     (unsigned char)text[ne] >= 0x80))
    ne++;
  return names_a_location(text + ms, ne - ms) || is_path(text + vs, ve - vs);
}

/* One scan for secrets: [s, e) of `text`, the logical line of `rd` or input bytes. */
typedef struct secret_scan {
  bl_check *ck;
  const bl_read *rd;
  const char *text;
  size_t s, e;
  int in_input;
  const bl_rx *rx;
} secret_scan;

/* The secret in the match of pattern `k` (in sc->rx): sets [*vs, *ve) and returns what it is,
 * or NULL when the match holds no literal secret (a variable, a path, a location's name). */
static const char *matched_secret(const secret_scan *sc, enum bl_pattern k, size_t *vs,
                                  size_t *ve) {
  const boxlint_config *cfg = sc->ck->opts->config;
  const char *text = sc->text;
  size_t s = sc->s;
  PCRE2_SIZE *ov = pcre2_get_ovector_pointer(sc->rx->md);
  size_t ms = s + ov[0];
  const char *what;
  *vs = ms;
  *ve = s + ov[1]; /* the secret itself */
  if (k == BL_RE_SECRET_TOKEN) {
    what = token_kind(text + ms);
  } else if (k == BL_RE_URL_USERINFO) {
    *vs = s + ov[4];
    *ve = s + ov[5];
    what = "a password in a URL";
  } else {
    *vs = s + ov[2];
    *ve = s + ov[3];
    what = "a credential assigned literally";
  }
  if (text[*vs] == '$') return NULL; /* a variable, not a literal secret */
  if (k == BL_RE_SECRET_ASSIGN && assignment_holds_no_secret(text, ms, *vs, *ve)) return NULL;
  if (k != BL_RE_SECRET_TOKEN &&
      bl_re_match(sc->rx, cfg->re[BL_RE_SECRET_TOKEN], text + s, sc->e - s, *vs - s) > 0) {
    /* The value is a known token format: name it (more useful than "a password"). */
    ov = pcre2_get_ovector_pointer(sc->rx->md);
    *vs = s + ov[0];
    *ve = s + ov[1];
    what = token_kind(text + *vs);
  }
  return what;
}

/* Report the secret [vs, ve) (masked) unless it overlaps one already reported for this
 * instruction. Returns 1 when it was reported. */
static int report_secret(const secret_scan *sc, const char *what, size_t vs, size_t ve) {
  bl_check *ck = sc->ck;
  const bl_read *rd = sc->rd;
  size_t is = sc->in_input ? vs : bl_logical_to_input(&ck->cx, rd, vs);
  size_t ie = sc->in_input ? ve : (ve > vs ? bl_logical_to_input(&ck->cx, rd, ve - 1) + 1 : is);
  int seen = 0;
  for (int q = 0; q < ck->nsec; q++) seen |= is < ck->sec_e[q] && ie > ck->sec_s[q];
  if (seen) return 0;
  if (ck->nsec < 8) {
    ck->sec_s[ck->nsec] = is;
    ck->sec_e[ck->nsec] = ie;
    ck->nsec++;
  }
  boxlint_diag *d;
  const char *m = mask(ck, sc->text + vs, ve - vs);
  if (sc->in_input)
    d = bl_emit(ck, BL_R_SECRET_IN_COMMAND, vs, ve, "%s (%s) is baked into the image", what, m);
  else
    d = bl_emit_l(ck, rd, BL_R_SECRET_IN_COMMAND, vs, ve, "%s (%s) is baked into the image", what,
                  m);
  bl_hint(ck, d, "%s", SECRET_HINT);
  return 1;
}

#if defined(__SSE2__)
/* The second bytes (lower-cased by OR 0x20, as a bit of their low five bits) that may follow
 * a first byte (the same, indexed by its low five bits) where a pattern starts: the pairs
 * AKIA/ASIA, gh?_/github_pat_/glpat-, xox?-, sk-, -----BEGIN, and the assignment keywords
 * pas(sword), pwd, sec(ret), tok(en), api, acc(ess) begin with. Bytes that share the low five
 * bits pass too: a superset, as the candidates must be. */
#define P5(c) (1u << ((c) & 31))
static const uint32_t SECRET_PAIR[32] = {
    ['a' & 31] = P5('k') | P5('s') | P5('p') | P5('c'), ['g' & 31] = P5('h') | P5('i') | P5('l'),
    ['x' & 31] = P5('o'), ['t' & 31] = P5('o'), ['s' & 31] = P5('k') | P5('e'),
    ['-' & 31] = P5('-'), ['p' & 31] = P5('a') | P5('w'),
};
#undef P5

/* The three first bytes (lower-cased by OR 0x20) of a pair that SECRET_PAIR lets through: the
 * same starts to three bytes (AKIA/ASIA, gh, git(hub_pat_), glp(at-), xox, sk-, ---, pas,
 * pwd, sec, tok, api, acc). Every pattern needs three bytes. */
static inline int secret_triple(unsigned char f, unsigned char n, unsigned char t) {
  switch (f) {
  case 'a': return ((n == 'k' || n == 's' || n == 'p') && t == 'i') || (n == 'c' && t == 'c');
  case 'g': return n == 'h' || (n == 'i' && t == 't') || (n == 'l' && t == 'p');
  case 'x': return n == 'o' && t == 'x';
  case 's': return (n == 'k' && t == '-') || (n == 'e' && t == 'c');
  case 't': return n == 'o' && t == 'k';
  case '-': return n == '-' && t == '-';
  case 'p': return (n == 'a' && t == 's') || (n == 'w' && t == 'd');
  default: return 0;
  }
}

/* The candidates among the 16 offsets from i (i > s, at least 18 bytes from i to the end),
 * as a bit mask: a byte whose lower-case form is one of a g p s t x, or '-', after a byte that
 * is not a letter (as SECRET_FIRST proposes them), or ':'. When the bytes from i to i + 17 are
 * ASCII, a first byte is kept only when the two bytes after it may follow it (SECRET_PAIR,
 * then secret_triple); when one is not (assign_start then lets PCRE2 decide), the first bytes
 * alone. Either is a superset of the offsets the caller runs a pattern at. `ascii`: the whole
 * input is known to be ASCII (nothing to test). */
static inline unsigned candidates16(const char *text, size_t i, int ascii) {
  const __m128i lo = _mm_set1_epi8(0x20), a0 = _mm_set1_epi8(0x60), z1 = _mm_set1_epi8(0x7b),
                colon = _mm_set1_epi8(':');
  __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(text + i));
  __m128i p = _mm_loadu_si128((const __m128i *)(const void *)(text + i - 1));
  __m128i xl = _mm_or_si128(x, lo), pl = _mm_or_si128(p, lo);
  __m128i prev_alpha = _mm_and_si128(_mm_cmpgt_epi8(pl, a0), _mm_cmplt_epi8(pl, z1));
  unsigned not_after_letter = ~(unsigned)_mm_movemask_epi8(prev_alpha) & 0xFFFFu;
  unsigned colons = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, colon));
  __m128i first = _mm_or_si128(
      _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(xl, _mm_set1_epi8('a')),
                                _mm_cmpeq_epi8(xl, _mm_set1_epi8('g'))),
                   _mm_or_si128(_mm_cmpeq_epi8(xl, _mm_set1_epi8('p')),
                                _mm_cmpeq_epi8(xl, _mm_set1_epi8('s')))),
      _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(xl, _mm_set1_epi8('t')),
                                _mm_cmpeq_epi8(xl, _mm_set1_epi8('x'))),
                   _mm_cmpeq_epi8(x, _mm_set1_epi8('-'))));
  unsigned m = (unsigned)_mm_movemask_epi8(first) & not_after_letter;
  if (!m) return colons;
  if (!ascii) { /* a byte from 0x80 among the bytes from i to i + 17: the first bytes alone */
    __m128i x2 = _mm_loadu_si128((const __m128i *)(const void *)(text + i + 2));
    if (_mm_movemask_epi8(_mm_or_si128(x, x2))) return m | colons;
  }
  unsigned out = colons;
  for (; m; m &= m - 1) {
    unsigned k = (unsigned)__builtin_ctz(m);
    unsigned char f = (unsigned char)(text[i + k] | 0x20), n = (unsigned char)(text[i + k + 1] | 0x20);
    if (((SECRET_PAIR[f & 31] >> (n & 31)) & 1u) &&
        secret_triple(f, n, (unsigned char)(text[i + k + 2] | 0x20)))
      out |= 1u << k;
  }
  return out;
}
#endif

#if defined(BL_SECRET_AVX2)
/* The bytes a pattern starts with, as a nibble table per position (Teddy's method, as in
 * Hyperscan): bit b of L_k[v & 15] and of H_k[v >> 4] is set when v, lower-cased by OR 0x20,
 * may be byte k of a start of group b. The groups are a (k s p c, then i c), g (h i l, then any
 * byte), x (o, x), s (k e, then - c), t (o, k), - (-, -) and p (a w, then s d): those of
 * secret_triple. A byte passes position k for the groups in L_k[v & 15] & H_k[v >> 4], a
 * superset of the group's own bytes (never fewer). */
#define NIB16(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p) \
  _mm256_setr_epi8(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, a, b, c, d, e, f, g, h, i, j, k, \
                   l, m, n, o, p)
#define SECRET_L0 NIB16(0x40, 0x01, 0, 0x08, 0x10, 0, 0, 0x02, 0x04, 0, 0, 0, 0, 0x20, 0, 0)
#define SECRET_H0 NIB16(0, 0, 0x20, 0, 0, 0, 0x03, 0x5c, 0, 0, 0, 0, 0, 0, 0, 0)
#define SECRET_L1 NIB16(0x01, 0x40, 0, 0x01, 0, 0x08, 0, 0x40, 0x02, 0x02, 0, 0x09, 0x02, 0x20, 0, 0x14)
#define SECRET_H1 NIB16(0, 0, 0x20, 0, 0, 0, 0x5f, 0x41, 0, 0, 0, 0, 0, 0, 0, 0)
#define SECRET_L2 NIB16(0x02, 0x02, 0x02, 0x4b, 0x42, 0x02, 0x02, 0x02, 0x06, 0x03, 0x02, 0x12, 0x02, 0x2a, \
                        0x02, 0x02)
#define SECRET_H2 NIB16(0x02, 0x02, 0x2a, 0x02, 0x02, 0x02, 0x5b, 0x46, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, \
                        0x02, 0x02)

/* The groups whose byte k may be each of the 32 bytes v (already lower-cased). */
__attribute__((target("avx2"))) static inline __m256i nibble_groups(__m256i v, __m256i lo,
                                                                      __m256i hi) {
  const __m256i nib = _mm256_set1_epi8(0x0f);
  return _mm256_and_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(v, nib)),
                          _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nib)));
}

/* candidates16 for the 32 offsets from i (i > s, at least 34 bytes from i to the end), without
 * a branch on the text: the three bytes from each offset are tested by the nibble tables at
 * once, instead of a loop over the first bytes. A superset of candidates16's offsets; where a
 * byte from 0x80 is among them (and the input is not known to be ASCII), candidates16's. */
__attribute__((target("avx2"))) static unsigned candidates32_avx2(const char *text, size_t i,
                                                                  int ascii) {
  const __m256i lo = _mm256_set1_epi8(0x20);
  __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(text + i));
  __m256i x2 = _mm256_loadu_si256((const __m256i *)(const void *)(text + i + 2));
  if (!ascii && _mm256_movemask_epi8(_mm256_or_si256(x, x2)))
    return candidates16(text, i, 0) | candidates16(text, i + 16, 0) << 16;
  __m256i x1 = _mm256_loadu_si256((const __m256i *)(const void *)(text + i + 1));
  __m256i p = _mm256_loadu_si256((const __m256i *)(const void *)(text + i - 1));
  __m256i pl = _mm256_or_si256(p, lo);
  __m256i prev_alpha = _mm256_and_si256(_mm256_cmpgt_epi8(pl, _mm256_set1_epi8(0x60)),
                                        _mm256_cmpgt_epi8(_mm256_set1_epi8(0x7b), pl));
  __m256i g = _mm256_and_si256(
      _mm256_and_si256(nibble_groups(_mm256_or_si256(x, lo), SECRET_L0, SECRET_H0),
                       nibble_groups(_mm256_or_si256(x1, lo), SECRET_L1, SECRET_H1)),
      nibble_groups(_mm256_or_si256(x2, lo), SECRET_L2, SECRET_H2));
  /* A start not after a letter, or a ':' */
  __m256i none = _mm256_or_si256(_mm256_cmpeq_epi8(g, _mm256_setzero_si256()), prev_alpha);
  __m256i colon = _mm256_cmpeq_epi8(x, _mm256_set1_epi8(':'));
  return ~(unsigned)_mm256_movemask_epi8(none) | (unsigned)_mm256_movemask_epi8(colon);
}
#undef NIB16
#endif

/* Where the scan for candidates is: the block of `width` offsets from `base` (16 or 32, 0
 * before the first) and those of them left in `mask` (SSE2), so that each block of the text is
 * looked at once. */
typedef struct cand_cursor {
  size_t base, width;
  uint32_t mask;
  int ascii; /* the input is printable ASCII, TAB and LF (the byte check's line map exists) */
  int avx2;  /* the processor has AVX2: candidates32_avx2 */
} cand_cursor;

#if defined(__SSE2__)
/* The candidates of the block of offsets from nb (s < nb < e) into cc: 32 of them where 34
 * bytes remain, else 16 where 18 remain. No pattern starts in the last two bytes (each needs
 * three), so the last offsets before them are taken from the block that ends at e, whose
 * offsets before nb are dropped, when the text reaches back far enough for it; else from a
 * copy padded with spaces. With AVX2, the last up to 31 in one block. */
static void next_block(cand_cursor *cc, const char *text, size_t s, size_t nb, size_t e) {
  size_t left = e - nb;
  char tmp[72];
  if (left <= 2) {
    cc->mask = 0;
    cc->width = left;
    return;
  }
#if defined(BL_SECRET_AVX2)
  if (cc->avx2) {
    if (left >= 34) {
      cc->mask = candidates32_avx2(text, nb, cc->ascii);
      cc->width = 32;
    } else if (e - s >= 35) { /* the block from e - 34: its byte before is s or after it */
      cc->mask = candidates32_avx2(text, e - 34, cc->ascii) >> (34 - left);
      cc->width = left - 2;
    } else {
      memcpy(tmp, text + nb - 1, left + 1); /* at most 34 bytes */
      memset(tmp + left + 1, ' ', sizeof tmp - (left + 1));
      cc->mask = candidates32_avx2(tmp, 1, cc->ascii) & ((1u << (left - 2)) - 1);
      cc->width = left - 2;
    }
    return;
  }
#endif
  if (left >= 34) {
    cc->mask = candidates16(text, nb, cc->ascii) | candidates16(text, nb + 16, cc->ascii) << 16;
    cc->width = 32;
  } else if (left >= 18) {
    cc->mask = candidates16(text, nb, cc->ascii);
    cc->width = 16;
  } else if (e - s >= 19) { /* the block from e - 18, as above */
    cc->mask = candidates16(text, e - 18, cc->ascii) >> (18 - left);
    cc->width = left - 2;
  } else {
    memcpy(tmp, text + nb - 1, left + 1);
    memset(tmp + left + 1, ' ', 32);
    cc->mask = candidates16(tmp, 1, cc->ascii) & ((1u << (left - 2)) - 1);
    cc->width = left - 2;
  }
}
#endif

/* The next offset in [i, e) where a secret pattern may start (a superset of those
 * bl_warn_secrets runs one at, as SECRET_FIRST, the previous byte and the next two bytes
 * decide), or e: a block of offsets at a time with SSE2 or AVX2 (next_block), and without
 * SSE2 by SECRET_FIRST alone. The caller then tests them one by one, in order, from the first
 * call at i == s. */
static size_t next_candidate(cand_cursor *cc, const char *text, size_t s, size_t i, size_t e) {
#if defined(__SSE2__)
  if (i == s) { /* no byte before it: tested alone; the blocks start after it */
    cc->base = s + 1;
    cc->width = 0;
    cc->mask = 0;
    if (i < e && SECRET_FIRST[(unsigned char)text[i]]) return i;
    i++;
  }
  for (;;) {
    if (i < cc->base + cc->width) {
      uint32_t m = cc->mask & (0xFFFFFFFFu << (i - cc->base));
      if (m) return cc->base + (size_t)__builtin_ctz(m);
    }
    size_t nb = cc->base + cc->width; /* the next block */
    if (nb >= e) break;
    next_block(cc, text, s, nb, e);
    cc->base = nb;
    if (i < nb) i = nb;
  }
  if (i < cc->base + cc->width) i = cc->base + cc->width; /* none left in the last block */
#else
  (void)cc;
  (void)s;
#endif
  while (i < e && !SECRET_FIRST[(unsigned char)text[i]]) i++;
  return i;
}

/* Which anchored pattern can start at text[i] of the scanned [s, e): a token, else (with
 * `assignments`) a credential assignment, else a URL's password; -1 for none. *also_asg: the
 * assignment pattern can start there too ('A' and 's' start both). */
static int pattern_at(const char *text, size_t s, size_t i, size_t e, int assignments,
                      int *also_asg) {
  unsigned bits = SECRET_FIRST[(unsigned char)text[i]];
  if (!bits) return -1;
  unsigned char prev = i > s ? (unsigned char)text[i - 1] : ' ';
  int tok = (bits & 1) && !is_alnum_c(prev) && token_start(text + i, e - i);
  int asg = (bits & 2) && assignments && !boxlint__is_alpha(prev) && assign_start(text + i, e - i);
  *also_asg = tok && asg;
  if (tok) return BL_RE_SECRET_TOKEN;
  if (asg) return BL_RE_SECRET_ASSIGN;
  if ((bits & 4) && e - i >= 3 && text[i + 1] == '/' && text[i + 2] == '/' &&
      url_userinfo_start(text + i, e - i))
    return BL_RE_URL_USERINFO;
  return -1;
}

/* The scan's cursor at s: `ascii` as in cand_cursor, AVX2 when `avx2` and the processor has it. */
static cand_cursor cursor_at(size_t s, int ascii, int avx2) {
  cand_cursor cc = {s, 0, 0, ascii, 0};
#if defined(BL_SECRET_AVX2)
  cc.avx2 = avx2 && __builtin_cpu_supports("avx2");
#else
  (void)avx2;
#endif
  return cc;
}

void bl_warn_secrets(bl_check *ck, const bl_read *rd, const char *text, size_t s, size_t e,
                     int in_input, int assignments) {
  const boxlint_config *cfg = ck->opts->config;
  secret_scan sc = {ck, rd, text, s, e, in_input, NULL};
  int reports = 0;
  size_t skip_to = s; /* after a match, later candidates inside it are not tried */
  /* Every text scanned comes from the input (its logical line, a heredoc body), whose bytes
   * are all ASCII when the byte check left the line-feed map (dockerfile_int.h). */
  cand_cursor cc = cursor_at(s, ck->cx.lfm != NULL, 1);
  for (size_t i = s; i < e && reports < 16; i++) {
    i = next_candidate(&cc, text, s, i, e); /* to the next candidate */
    if (i == e) break;
    if (i < skip_to) continue;
    int asg;
    int pk = pattern_at(text, s, i, e, assignments, &asg);
    if (pk < 0) continue; /* PCRE2 runs only where a pattern can start */
    enum bl_pattern k = (enum bl_pattern)pk;
    if (!sc.rx && !(sc.rx = bl_warn_rx(ck))) return;
    int rc = bl_re_match(sc.rx, cfg->re[k], text + s, e - s, i - s);
    if (rc == 0 && k == BL_RE_SECRET_TOKEN && asg) {
      k = BL_RE_SECRET_ASSIGN;
      rc = bl_re_match(sc.rx, cfg->re[k], text + s, e - s, i - s);
    }
    if (rc == -1) {
      boxlint_diag *d = bl_emit(ck, BL_R_REGEX_LIMIT, rd->start, rd->end,
                                "the secret-in-command patterns hit the match limit on this "
                                "command; it was not checked for %s", "secrets");
      bl_hint(ck, d, "split the command");
      return;
    }
    if (rc <= 0) continue;
    size_t vs, ve;
    const char *what = matched_secret(&sc, k, &vs, &ve);
    if (!what) continue;
    skip_to = ve;
    reports += report_secret(&sc, what, vs, ve);
  }
}

size_t bl_secret_starts(const char *text, size_t s, size_t e, int ascii, int scan, size_t *out,
                        size_t cap) {
  cand_cursor cc = cursor_at(s, ascii, scan == 2);
  size_t n = 0;
  for (size_t i = s; i < e; i++) {
    if (scan && (i = next_candidate(&cc, text, s, i, e)) == e) break;
    int asg;
    if (pattern_at(text, s, i, e, 1, &asg) >= 0 && n < cap) out[n++] = i;
  }
  return n;
}

/* Whether the name pattern (BL_RE_SECRET_NAME) can match the name p[0..n): each of its
 * alternatives spells pass(word|wd), secret, token, api, access, private, credential or auth,
 * ASCII case aside; one pass looks for those words' starts. A name with a non-ASCII byte may
 * hold a letter that folds to ASCII (U+212A to k, U+017F to s): then PCRE2 decides. */
static int name_may_be_secret(const char *p, size_t n) {
#define NAME_HAS(w) (n - i >= sizeof w - 1 && boxlint__ieq(p + i, sizeof w - 1, w))
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    if (c >= 0x80) return 1;
    /* The byte after (lower-cased by OR 0x20; 0 at the end) rules most words out at once. */
    unsigned char d = i + 1 < n ? (unsigned char)(p[i + 1] | 0x20) : 0;
    switch (c | 0x20) {
    case 'p':
      if ((d == 'a' && NAME_HAS("pass")) || (d == 'r' && NAME_HAS("private"))) return 1;
      break;
    case 's': if (d == 'e' && NAME_HAS("secret")) return 1; break;
    case 't': if (d == 'o' && NAME_HAS("token")) return 1; break;
    case 'a':
      if ((d == 'p' && NAME_HAS("api")) || (d == 'c' && NAME_HAS("access")) ||
          (d == 'u' && NAME_HAS("auth")))
        return 1;
      break;
    case 'c': if (d == 'r' && NAME_HAS("credential")) return 1; break;
    default: break;
    }
  }
  return 0;
#undef NAME_HAS
}

void bl_warn_env_arg_secret(bl_check *ck, const bl_read *rd, const bl_cmdline *c,
                            const char *name, size_t nl, const char *val, size_t vs, size_t ve,
                            int one_word) {
  const char *lit = NULL;
  size_t litn = 0;
  /* $X and ${X} skip the name pattern; other values are looked at only when the name matched. */
  if (val[0] == '$' && !var_default(val, strlen(val), &lit, &litn)) return;
  if (!name_may_be_secret(name, nl)) return; /* the pattern cannot match: PCRE2 is not run */
  const boxlint_config *cfg = ck->opts->config;
  const bl_rx *rx = bl_warn_rx(ck);
  if (!rx || bl_re_match(rx, cfg->re[BL_RE_SECRET_NAME], name, nl, 0) <= 0) return;
  if (value_holds_no_secret(val, strlen(val), one_word, &lit, &litn)) return;
  if (names_a_location(name, nl)) {
    /* The value says where the secret is; it may still hold one (a token, user:pass@, ?token=). */
    bl_warn_secrets(ck, rd, rd->logical, vs, ve, 0, 1);
    return;
  }
  if (ck->nsec < 8) {
    ck->sec_s[ck->nsec] = bl_logical_to_input(&ck->cx, rd, vs);
    ck->sec_e[ck->nsec] = ve > vs ? bl_logical_to_input(&ck->cx, rd, ve - 1) + 1 : ck->sec_s[ck->nsec];
    ck->nsec++;
  }
  const char *nm = boxlint__rstrdup(ck->cx.r, name, nl);
  boxlint_diag *d = bl_emit_l(ck, rd, BL_R_SECRET_IN_COMMAND, vs, ve,
                              "%s %s %s a literal value (%s), which is baked into the image",
                              boxlint_keyword_name(c->folded), nm ? nm : "",
                              lit == val ? "is set to" : "defaults to", mask(ck, lit, litn));
  bl_hint(ck, d, "%s", SECRET_HINT);
}

/* Python string literals with Python's semantics: the prefix (r, b, u, f in any case and
 * combination), the quote and triple quote, and every escape of a str or bytes literal (\n and
 * the other letters, octal, \x, \u, \U, \N{name} through libunistring's name table, a line
 * continuation), f-strings' doubled braces. Each decoded byte keeps the source offset of the
 * character that produced it, so that a finding inside a value points into the file. Calls
 * libunistring (uniname.h) only. */
#include <string.h>
#ifndef BOXLINT_NO_UNISTRING
#include <uniname.h>
#endif
#include "python/python_int.h"

void bl_py_piece(const char *s, const bl_pytok *t, bl_piece *p) {
  memset(p, 0, sizeof *p);
  size_t i = t->start;
  for (; s[i] != '\'' && s[i] != '"'; i++) {
    char c = (char)boxlint__lower((unsigned char)s[i]);
    p->flags |= c == 'r' ? BL_LIT_RAW : c == 'b' ? BL_LIT_BYTES : c == 'f' ? BL_LIT_FSTRING
                : c == 't' ? BL_LIT_FSTRING | BL_LIT_TEMPLATE : 0u;
  }
  if (t->flags & BL_PTF_PEP701) p->flags |= BL_LIT_PEP701;
  p->quote = s[i];
  p->start = t->start;
  p->end = t->end;
  size_t q = 1;
  if (t->end - i >= 6 && s[i + 1] == s[i] && s[i + 2] == s[i]) {
    p->flags |= BL_LIT_TRIPLE;
    q = 3;
  }
  p->body = i + q;
  p->body_end = t->end - q;
}

/* Room for `need` entries: the four arrays in one block (src, src_end, piece, bytes), which
 * o->src holds. */
static int reserve(const boxlint__mem *m, bl_pystr *o, size_t *cap, size_t need) {
  if (need <= *cap && o->bytes) return 0;
  size_t nc = *cap ? *cap * 2 : need > 16 ? need : 16;
  while (nc < need) nc *= 2;
  size_t each = 2 * sizeof(size_t) + sizeof(uint32_t) + 1;
  if (nc > SIZE_MAX / each) return -1;
  size_t *ns = o->arena ? boxlint__arena_alloc(o->arena, m, nc * each) : boxlint__malloc(m, nc * each);
  if (!ns) return -1;
  size_t *ne = ns + nc;
  uint32_t *np = (uint32_t *)(ne + nc);
  char *nb = (char *)(np + nc);
  if (o->bytes) {
    memcpy(ns, o->src, o->len * sizeof *ns);
    memcpy(ne, o->src_end, o->len * sizeof *ne);
    memcpy(np, o->piece, o->len * sizeof *np);
    memcpy(nb, o->bytes, o->len);
  }
  if (!o->arena) boxlint__free(m, o->src);
  o->src = ns;
  o->src_end = ne;
  o->piece = np;
  o->bytes = nb;
  *cap = nc;
  return 0;
}

/* Append `n` bytes produced by the source character at `src`. */
static int put(const boxlint__mem *m, bl_pystr *o, size_t *cap, const char *b, size_t n,
               size_t src, size_t src_end, uint32_t piece) {
  if (reserve(m, o, cap, o->len + n + 1)) return -1;
  for (size_t k = 0; k < n; k++) {
    o->bytes[o->len] = b[k];
    o->src[o->len] = src;
    o->src_end[o->len] = src_end;
    o->piece[o->len] = piece;
    o->len++;
  }
  return 0;
}

/* Append s[i, j), source characters of one byte each. */
static int put_run(const boxlint__mem *m, bl_pystr *o, size_t *cap, const char *s, size_t i,
                   size_t j, uint32_t piece) {
  if (reserve(m, o, cap, o->len + (j - i) + 1)) return -1;
  memcpy(o->bytes + o->len, s + i, j - i);
  for (size_t k = i; k < j; k++) {
    o->src[o->len] = k;
    o->src_end[o->len] = k + 1;
    o->piece[o->len] = piece;
    o->len++;
  }
  return 0;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = (char)(c | 0x20);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The aliases of NameAliases.txt that CPython 3.11 takes in \N{} and libunistring 1.0 does not
 * know (the control characters' names and abbreviations, three figments), '|' between them. */
static const struct alias {
  uint32_t cp;
  const char *names;
} ALIASES[] = {
    {0x00, "NULL|NUL"}, {0x01, "START OF HEADING|SOH"}, {0x02, "START OF TEXT|STX"},
    {0x03, "END OF TEXT|ETX"}, {0x04, "END OF TRANSMISSION|EOT"}, {0x05, "ENQUIRY|ENQ"},
    {0x06, "ACKNOWLEDGE|ACK"}, {0x07, "ALERT|BEL"}, {0x08, "BACKSPACE|BS"},
    {0x09, "CHARACTER TABULATION|HORIZONTAL TABULATION|HT|TAB"},
    {0x0A, "LINE FEED|NEW LINE|END OF LINE|LF|NL|EOL"},
    {0x0B, "LINE TABULATION|VERTICAL TABULATION|VT"}, {0x0C, "FORM FEED|FF"},
    {0x0D, "CARRIAGE RETURN|CR"}, {0x0E, "SHIFT OUT|LOCKING-SHIFT ONE|SO"},
    {0x0F, "SHIFT IN|LOCKING-SHIFT ZERO|SI"}, {0x10, "DATA LINK ESCAPE|DLE"},
    {0x11, "DEVICE CONTROL ONE|DC1"}, {0x12, "DEVICE CONTROL TWO|DC2"},
    {0x13, "DEVICE CONTROL THREE|DC3"}, {0x14, "DEVICE CONTROL FOUR|DC4"},
    {0x15, "NEGATIVE ACKNOWLEDGE|NAK"}, {0x16, "SYNCHRONOUS IDLE|SYN"},
    {0x17, "END OF TRANSMISSION BLOCK|ETB"}, {0x18, "CANCEL|CAN"}, {0x19, "END OF MEDIUM|EOM"},
    {0x1A, "SUBSTITUTE|SUB"}, {0x1B, "ESCAPE|ESC"},
    {0x1C, "INFORMATION SEPARATOR FOUR|FILE SEPARATOR|FS"},
    {0x1D, "INFORMATION SEPARATOR THREE|GROUP SEPARATOR|GS"},
    {0x1E, "INFORMATION SEPARATOR TWO|RECORD SEPARATOR|RS"},
    {0x1F, "INFORMATION SEPARATOR ONE|UNIT SEPARATOR|US"}, {0x7F, "DELETE|DEL"},
    {0x80, "PADDING CHARACTER|PAD"}, {0x81, "HIGH OCTET PRESET|HOP"},
    {0x82, "BREAK PERMITTED HERE|BPH"}, {0x83, "NO BREAK HERE|NBH"}, {0x84, "INDEX|IND"},
    {0x85, "NEXT LINE|NEL"}, {0x86, "START OF SELECTED AREA|SSA"},
    {0x87, "END OF SELECTED AREA|ESA"},
    {0x88, "CHARACTER TABULATION SET|HORIZONTAL TABULATION SET|HTS"},
    {0x89, "CHARACTER TABULATION WITH JUSTIFICATION|HORIZONTAL TABULATION WITH JUSTIFICATION|HTJ"},
    {0x8A, "LINE TABULATION SET|VERTICAL TABULATION SET|VTS"},
    {0x8B, "PARTIAL LINE FORWARD|PARTIAL LINE DOWN|PLD"},
    {0x8C, "PARTIAL LINE BACKWARD|PARTIAL LINE UP|PLU"},
    {0x8D, "REVERSE LINE FEED|REVERSE INDEX|RI"}, {0x8E, "SINGLE SHIFT TWO|SINGLE-SHIFT-2|SS2"},
    {0x8F, "SINGLE SHIFT THREE|SINGLE-SHIFT-3|SS3"}, {0x90, "DEVICE CONTROL STRING|DCS"},
    {0x91, "PRIVATE USE ONE|PRIVATE USE-1|PU1"}, {0x92, "PRIVATE USE TWO|PRIVATE USE-2|PU2"},
    {0x93, "SET TRANSMIT STATE|STS"}, {0x94, "CANCEL CHARACTER|CCH"},
    {0x95, "MESSAGE WAITING|MW"}, {0x96, "START OF GUARDED AREA|START OF PROTECTED AREA|SPA"},
    {0x97, "END OF GUARDED AREA|END OF PROTECTED AREA|EPA"}, {0x98, "START OF STRING|SOS"},
    {0x99, "SINGLE GRAPHIC CHARACTER INTRODUCER|SGC"}, {0x9A, "SINGLE CHARACTER INTRODUCER|SCI"},
    {0x9B, "CONTROL SEQUENCE INTRODUCER|CSI"}, {0x9C, "STRING TERMINATOR|ST"},
    {0x9D, "OPERATING SYSTEM COMMAND|OSC"}, {0x9E, "PRIVACY MESSAGE|PM"},
    {0x9F, "APPLICATION PROGRAM COMMAND|APC"},
};

static uint32_t alias(const char *name, size_t n) {
  for (size_t k = 0; k < sizeof ALIASES / sizeof *ALIASES; k++) {
    for (const char *a = ALIASES[k].names; *a;) {
      size_t l = strcspn(a, "|");
      if (l == n && !memcmp(a, name, n)) return ALIASES[k].cp;
      a += l + (a[l] == '|');
    }
  }
  return UINT32_MAX;
}

/* The jamo of a Hangul syllable's name, as CPython's find_syllable matches them: the longest
 * of each column in turn (the leading and trailing consonants may be empty). */
static const char *const JAMO_L[] = {"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS",
                                     "", "J", "JJ", "C", "K", "T", "P", "H"};
static const char *const JAMO_V[] = {"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA",
                                     "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI",
                                     "I"};
static const char *const JAMO_T[] = {"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG",
                                     "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S",
                                     "SS", "NG", "J", "C", "K", "T", "P", "H"};

static int jamo(const char *s, size_t n, size_t *i, const char *const *t, int count) {
  int best = -1;
  size_t bl = 0;
  for (int k = 0; k < count; k++) {
    size_t l = strlen(t[k]);
    if ((best < 0 || l > bl) && l <= n - *i && !memcmp(s + *i, t[k], l)) {
      best = k;
      bl = l;
    }
  }
  *i += bl;
  return best;
}

/* The names CPython makes by rule, spelled exactly (upper case): "HANGUL SYLLABLE " and its
 * jamo, "CJK UNIFIED IDEOGRAPH-" and four or five hex digits in a block of unified ideographs
 * of Unicode 14. Returns 1 with *cp (UINT32_MAX when the name is not valid), 0 for any other. */
static int by_rule(const char *s, size_t n, uint32_t *cp) {
  static const uint32_t cjk[][2] = {{0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0x20000, 0x2A6DF},
                                    {0x2A700, 0x2B738}, {0x2B740, 0x2B81D}, {0x2B820, 0x2CEA1},
                                    {0x2CEB0, 0x2EBE0}, {0x30000, 0x3134A}};
  *cp = UINT32_MAX;
  if (n >= 16 && !memcmp(s, "HANGUL SYLLABLE ", 16)) {
    size_t i = 16;
    int l = jamo(s, n, &i, JAMO_L, 19), v = jamo(s, n, &i, JAMO_V, 21);
    int t = jamo(s, n, &i, JAMO_T, 28);
    if (v >= 0 && i == n) *cp = 0xAC00 + (uint32_t)((l * 21 + v) * 28 + t);
    return 1;
  }
  if (n < 22 || memcmp(s, "CJK UNIFIED IDEOGRAPH-", 22)) return 0;
  if (n != 26 && n != 27) return 1;
  uint32_t v = 0;
  for (size_t i = 22; i < n; i++) {
    char c = s[i];
    if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'))) return 1;
    v = v * 16 + (uint32_t)hexval(c);
  }
  for (size_t k = 0; k < sizeof cjk / sizeof *cjk; k++)
    if (v >= cjk[k][0] && v <= cjk[k][1]) *cp = v;
  return 1;
}

/* \N{name}: the code point, or UINT32_MAX. Names and aliases are matched without regard to case
 * (libunistring's table and ALIASES), the names made by rule exactly, as CPython does. */
static uint32_t named(const char *s, size_t n) {
  char name[128];
  uint32_t cp;
  if (n == 0 || n >= sizeof name) return UINT32_MAX;
  if (by_rule(s, n, &cp)) return cp;
  for (size_t i = 0; i < n; i++) {
    if ((unsigned char)s[i] >= 0x80) return UINT32_MAX;
    name[i] = (char)((unsigned char)(s[i] - 'a') < 26 ? s[i] - 32 : s[i]);
  }
  name[n] = 0;
  if (by_rule(name, n, &cp)) return UINT32_MAX; /* by rule, but not in upper case */
  if ((cp = alias(name, n)) != UINT32_MAX) return cp;
#ifdef BOXLINT_NO_UNISTRING
  return UINT32_MAX; /* a build without libunistring (wasm/): names by rule and alias only */
#else
  ucs4_t c = unicode_name_character(name);
  return c == UNINAME_INVALID ? UINT32_MAX : (uint32_t)c;
#endif
}

typedef struct dec {
  const boxlint__mem *m;
  const char *s;
  const bl_piece *p;
  uint32_t index;
  bl_pystr *o;
  size_t cap;
  const char **err;
  size_t *err_off;
} dec;

static int bad(dec *d, size_t off, const char *msg) {
  *d->err = msg;
  *d->err_off = off;
  return 1;
}

/* \x, \u, \U with exactly `digits` hex digits at i (after the letter). */
static int hex_escape(dec *d, size_t bs, size_t i, int digits, uint32_t *cp) {
  uint32_t v = 0;
  for (int k = 0; k < digits; k++) {
    int h = i + (size_t)k < d->p->body_end ? hexval(d->s[i + (size_t)k]) : -1;
    if (h < 0)
      return bad(d, bs, digits == 2 ? "truncated \\xXX escape"
                        : digits == 4 ? "truncated \\uXXXX escape" : "truncated \\UXXXXXXXX escape");
    v = v * 16 + (uint32_t)h;
  }
  if (v > 0x10FFFF) return bad(d, bs, "illegal Unicode character in \\U escape");
  *cp = v;
  return 0;
}

/* The escape whose backslash is at `bs` (not raw); *next receives the offset after it. */
static int escape(dec *d, size_t bs, size_t *next) {
  const char *s = d->s;
  int bytes = (d->p->flags & BL_LIT_BYTES) != 0;
  char c = s[bs + 1], b[4];
  size_t i = bs + 2;
  uint32_t cp = UINT32_MAX;
  static const char from[] = "\\'\"abfnrtv", to[] = "\\'\"\a\b\f\n\r\t\v";
  const char *f = strchr(from, c);
  if (c == '\n' || c == '\r') { /* a line continuation: nothing */
    *next = i + (c == '\r' && i < d->p->body_end && s[i] == '\n');
    return 0;
  }
  if (c && f) cp = (unsigned char)to[f - from];
  else if (c >= '0' && c <= '7') {
    cp = (uint32_t)(c - '0');
    for (int k = 0; k < 2 && i < d->p->body_end && s[i] >= '0' && s[i] <= '7'; k++, i++)
      cp = cp * 8 + (uint32_t)(s[i] - '0');
    if (bytes) cp &= 0xFF;
  } else if (c == 'x') {
    if (hex_escape(d, bs, i, 2, &cp)) return 1;
    i += 2;
  } else if (!bytes && (c == 'u' || c == 'U')) {
    if (hex_escape(d, bs, i, c == 'u' ? 4 : 8, &cp)) return 1;
    i += c == 'u' ? 4 : 8;
  } else if (!bytes && c == 'N') {
    size_t e = i;
    while (e < d->p->body_end && s[e] != '}') e++;
    if (i >= d->p->body_end || s[i] != '{' || e >= d->p->body_end ||
        (cp = named(s + i + 1, e - i - 1)) == UINT32_MAX)
      return bad(d, bs, "malformed or unknown \\N character escape");
    i = e + 1;
  } else { /* not an escape: the backslash stays */
    *next = bs + 1;
    return put(d->m, d->o, &d->cap, "\\", 1, bs, bs + 1, d->index) ? -1 : 0;
  }
  *next = i;
  size_t l;
  if (bytes) { b[0] = (char)cp; l = 1; }
  else l = boxlint__utf8_encode(cp, b); /* a lone surrogate too: reported as invalid UTF-8 */
  return put(d->m, d->o, &d->cap, b, l, bs, i, d->index) ? -1 : 0;
}

/*----------------------------------------------------------------------------------------------
 * f-string replacement fields, read as CPython 3.11 reads them (fstring_find_expr and
 * fstring_find_literal of Parser/string_parser.c); each function returns SIZE_MAX with *why on
 * an error CPython reports.
 *--------------------------------------------------------------------------------------------*/

#define MAX_NEST 200 /* CPython's MAXLEVEL */

static size_t fail_at(const char **why, const char *msg) {
  *why = msg;
  return SIZE_MAX;
}

/* The expression of the field whose '{' is at i, to the '!', ':', '=' or '}' that ends it
 * outside brackets and strings (strings may hold braces and colons): where it ends. */
static size_t expr_end(const char *s, size_t i, size_t e, const char **why) {
  char open[MAX_NEST], q = 0;
  int depth = 0, triple = 0;
  size_t j = i + 1;
  for (; j < e; j++) {
    char c = s[j];
    if (c == '\\') return fail_at(why, "f-string expression part cannot include a backslash");
    if (q) {
      if (c == q && !triple) q = 0;
      else if (c == q && j + 2 < e && s[j + 1] == c && s[j + 2] == c) q = 0, j += 2;
    } else if (c == '\'' || c == '"') {
      q = c;
      triple = j + 2 < e && s[j + 1] == c && s[j + 2] == c;
      if (triple) j += 2;
    } else if (c == '(' || c == '[' || c == '{') {
      if (depth == MAX_NEST) return fail_at(why, "f-string: too many nested parenthesis");
      open[depth++] = c;
    } else if (c == ')' || c == ']' || c == '}') {
      if (!depth && c == '}') break;
      if (!depth) return fail_at(why, c == ')' ? "f-string: unmatched ')'" : "f-string: unmatched ']'");
      char o = open[--depth];
      if ((o == '(') != (c == ')') || (o == '[') != (c == ']'))
        return fail_at(why, "f-string: closing parenthesis does not match opening parenthesis");
    } else if (c == '#') {
      return fail_at(why, "f-string expression part cannot include '#'");
    } else if (!depth && (c == '!' || c == ':' || c == '=' || c == '<' || c == '>')) {
      if (c != ':' && j + 1 < e && s[j + 1] == '=') j++; /* != == <= >= */
      else if (c != '<' && c != '>') break;
    }
  }
  if (q) return fail_at(why, "f-string: unterminated string");
  if (depth) return fail_at(why, "f-string: unmatched bracket");
  if (j >= e) return fail_at(why, "f-string: expecting '}'");
  return j;
}

static size_t field_end(const char *s, size_t i, size_t e, int raw, int level, const char **why);

/* A format spec from j (after its ':'): text, in which a backslash takes the next character
 * (a \N{...} whole) unless raw, and nested fields; where its '}' is, or e. */
static size_t spec_end(const char *s, size_t j, size_t e, int raw, int level, const char **why) {
  while (j < e) {
    char c = s[j];
    if (c == '\\' && !raw && j + 1 < e) {
      c = s[++j];
      if (c == 'N') {
        j++;
        if (j < e && s[j++] == '{')
          while (j < e && s[j++] != '}') {}
        continue;
      }
      if (c != '{' && c != '}') {
        j++;
        continue;
      }
    }
    if (c == '}') return j;
    if (c == '{') {
      j = field_end(s, j, e, raw, level + 1, why);
      if (j == SIZE_MAX) return j;
      continue;
    }
    j++;
  }
  return e;
}

static int blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

/* The field whose '{' is at i: past its '}'. Nested in a format spec at `level` 1; CPython
 * takes no deeper. */
static size_t field_end(const char *s, size_t i, size_t e, int raw, int level, const char **why) {
  if (level >= 2) return fail_at(why, "f-string: expressions nested too deeply");
  size_t j = expr_end(s, i, e, why), k = i + 1;
  if (j == SIZE_MAX) return j;
  while (k < j && blank(s[k])) k++;
  if (k == j) return fail_at(why, "f-string: empty expression not allowed");
  if (s[j] == '=') /* f'{x=}': the expression's text is part of the value */
    for (j++; j < e && (blank(s[j]) || s[j] == '\v');) j++;
  if (j < e && s[j] == '!') {
    char conv = ++j < e ? s[j++] : 0;
    if (conv != 's' && conv != 'r' && conv != 'a')
      return fail_at(why, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
  }
  if (j < e && s[j] == ':') {
    j = spec_end(s, j + 1, e, raw, level, why);
    if (j == SIZE_MAX) return j;
  }
  if (j >= e || s[j] != '}') return fail_at(why, "f-string: expecting '}'");
  return j + 1;
}

/* One source character at i, not an escape: a line break is \n whatever its bytes. */
static int plain(dec *d, size_t i, size_t *next) {
  const char *s = d->s;
  unsigned char c = (unsigned char)s[i];
  if (c == '\r') {
    *next = i + 1 + (i + 1 < d->p->body_end && s[i + 1] == '\n');
    return put(d->m, d->o, &d->cap, "\n", 1, i, *next, d->index) ? -1 : 0;
  }
  size_t l = 1;
  if (c >= 0x80) {
    if (d->p->flags & BL_LIT_BYTES) return bad(d, i, "bytes can only contain ASCII literal characters");
    uint32_t cp;
    l = boxlint__utf8_decode((const unsigned char *)s + i, d->p->body_end - i, &cp);
    if (!l) return bad(d, i, "the source is not valid UTF-8");
  }
  if ((d->p->flags & BL_LIT_FSTRING) && (c == '{' || c == '}')) {
    if (i + 1 < d->p->body_end && (unsigned char)s[i + 1] == c) {
      l = 2; /* {{ or }} */
    } else if (c == '{') {
      /* A replacement field: the value is known only at run time; skip past its closing
       * brace as CPython finds it. */
      const char *why = NULL;
      size_t j = (d->p->flags & BL_LIT_PEP701)
                     ? bl_py_fstring_field_end(s, d->p->body_end, i, (d->p->flags & BL_LIT_RAW) != 0)
                     : field_end(s, i, d->p->body_end, (d->p->flags & BL_LIT_RAW) != 0, 0, &why);
      if (j == SIZE_MAX && !why) why = "f-string: expecting '}'";
      if (j == SIZE_MAX) return bad(d, i, why);
      d->o->dynamic = 1;
      *next = j;
      return 0;
    } else {
      return bad(d, i, "f-string: single '}' is not allowed");
    }
    *next = i + l;
    return put(d->m, d->o, &d->cap, s + i, 1, i, i + l, d->index) ? -1 : 0;
  }
  *next = i + l;
  return put(d->m, d->o, &d->cap, s + i, l, i, i + l, d->index) ? -1 : 0;
}

int bl_py_decode(const boxlint__mem *m, const char *s, const bl_piece *p, uint32_t index,
                 bl_pystr *out, const char **err, size_t *err_off) {
  dec d = {m, s, p, index, out, out->cap, err, err_off};
  /* the decoded bytes are never more than the source's (an escape is longer than its bytes) */
  if (reserve(m, out, &d.cap, out->len + (p->body_end - p->body) + 1)) return -1;
  int raw = (p->flags & BL_LIT_RAW) != 0, fstr = (p->flags & BL_LIT_FSTRING) != 0, rc = 0;
  for (size_t i = p->body; rc == 0 && i < p->body_end;) {
    /* a run of ASCII characters that are no escape, line break or brace of an f-string: each
     * its own byte, as plain() puts it */
    size_t j = i;
    for (unsigned char c; j < p->body_end && (c = (unsigned char)s[j]) < 0x80 && c != '\\' &&
                          c != '\r' && !(fstr && (c == '{' || c == '}'));)
      j++;
    if (j > i) {
      rc = put_run(m, out, &d.cap, s, i, j, index);
      i = j;
      continue;
    }
    size_t next = i + 1;
    if (s[i] == '\\' && raw) {
      /* Raw: the backslash and the character after it both stay (a line break as \n). */
      rc = put(m, out, &d.cap, "\\", 1, i, i + 1, index);
      if (rc == 0 && i + 1 < p->body_end) rc = plain(&d, i + 1, &next);
    } else if (s[i] == '\\') {
      rc = escape(&d, i, &next);
    } else {
      rc = plain(&d, i, &next);
    }
    i = next;
  }
  /* The entry one past the end: where a byte appended would go. */
  if (rc == 0 && put(m, out, &d.cap, "", 0, 0, 0, index)) rc = -1;
  out->cap = d.cap;
  if (rc) return rc;
  out->src[out->len] = p->body_end;
  out->src_end[out->len] = p->body_end;
  out->piece[out->len] = index;
  return 0;
}

void bl_pystr_free(const boxlint__mem *m, bl_pystr *v) {
  if (!v->arena) boxlint__free(m, v->src); /* the block of the four arrays */
  memset(v, 0, sizeof *v);
}

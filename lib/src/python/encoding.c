/* A Python source file's encoding, read as CPython 3.11 reads it (encoding.h).
 *
 * CPython reads a file in one of two ways, and boxlint refuses a file that either refuses:
 * - `python3 file.py` (the tokenizer on a FILE*): line 1, and line 2 when it is needed, are read
 *   raw; line 1 must then be UTF-8 (ensure_utf8) when the declaration is on line 2; after the
 *   declaration the file is read through io.open(encoding=...) with universal newlines;
 * - compile()/exec() of bytes and imports (the tokenizer on a string): the newlines are
 *   translated, then the whole buffer is decoded with the codec (a byte it cannot decode is a
 *   SyntaxError even in the declaration's own comment).
 * For the codecs read here (ASCII-compatible, one byte one character: the test proves it) both
 * give the same text, which is the bytes decoded one by one. */
#include "python/encoding.h"

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A codec of CPython's encodings package that boxlint reads: its module, the name
 * codecs.lookup() gives it, and the iconv(3) name that decodes it (NULL: UTF-8, read in place).
 * Only the single-byte codecs for which glibc's iconv gives, for each of the 256 bytes, what
 * bytes([b]).decode(module) gives (or both fail) and that keep ASCII as ASCII are here
 * (tests/oracle/python_encoding_test.py checks both for each). Left out because they differ:
 * mac_roman (0xC6, 0xF0), mac_iceland, mac_cyrillic, tis_620, cp856, cp864 (0x25 is not '%'),
 * the EBCDIC codecs (cp037, cp500, ...: not ASCII); multi-byte, stateful and non-text codecs
 * (utf-7, utf-16/32, shift_jis, gbk, iso2022_*, unicode_escape, punycode, idna, rot13) are
 * refused outright. */
typedef struct bl_codec {
  const char *module, *name, *iconv;
} bl_codec;

static const bl_codec CODECS[] = {
  {"utf_8", "utf-8", NULL}, {"utf_8_sig", "utf-8-sig", NULL}, {"ascii", "ascii", "ASCII"},
  {"latin_1", "iso8859-1", "ISO-8859-1"}, {"charmap", "charmap", "ISO-8859-1"},
  {"iso8859_2", "iso8859-2", "ISO-8859-2"}, {"iso8859_3", "iso8859-3", "ISO-8859-3"},
  {"iso8859_4", "iso8859-4", "ISO-8859-4"}, {"iso8859_5", "iso8859-5", "ISO-8859-5"},
  {"iso8859_6", "iso8859-6", "ISO-8859-6"}, {"iso8859_7", "iso8859-7", "ISO-8859-7"},
  {"iso8859_8", "iso8859-8", "ISO-8859-8"}, {"iso8859_9", "iso8859-9", "ISO-8859-9"},
  {"iso8859_10", "iso8859-10", "ISO-8859-10"}, {"iso8859_11", "iso8859-11", "ISO-8859-11"},
  {"iso8859_13", "iso8859-13", "ISO-8859-13"}, {"iso8859_14", "iso8859-14", "ISO-8859-14"},
  {"iso8859_15", "iso8859-15", "ISO-8859-15"}, {"iso8859_16", "iso8859-16", "ISO-8859-16"},
  {"cp1250", "cp1250", "CP1250"}, {"cp1251", "cp1251", "CP1251"}, {"cp1252", "cp1252", "CP1252"},
  {"cp1253", "cp1253", "CP1253"}, {"cp1254", "cp1254", "CP1254"}, {"cp1255", "cp1255", "CP1255"},
  {"cp1256", "cp1256", "CP1256"}, {"cp1257", "cp1257", "CP1257"}, {"cp1258", "cp1258", "CP1258"},
  {"koi8_r", "koi8-r", "KOI8-R"}, {"koi8_u", "koi8-u", "KOI8-U"}, {"koi8_t", "koi8-t", "KOI8-T"},
  {"cp437", "cp437", "IBM437"}, {"cp737", "cp737", "CP737"}, {"cp775", "cp775", "CP775"},
  {"cp850", "cp850", "IBM850"}, {"cp852", "cp852", "IBM852"}, {"cp855", "cp855", "IBM855"},
  {"cp857", "cp857", "IBM857"}, {"cp858", "cp858", "IBM858"}, {"cp860", "cp860", "IBM860"},
  {"cp861", "cp861", "IBM861"}, {"cp862", "cp862", "IBM862"}, {"cp863", "cp863", "IBM863"},
  {"cp865", "cp865", "IBM865"}, {"cp866", "cp866", "IBM866"}, {"cp869", "cp869", "IBM869"},
  {"cp874", "cp874", "CP874"}, {"cp1125", "cp1125", "CP1125"},
  {"mac_latin2", "mac-latin2", "MAC-CENTRALEUROPE"}, {"hp_roman8", "hp-roman8", "HP-ROMAN8"},
  {"ptcp154", "ptcp154", "PT154"}, {"kz1048", "kz1048", "RK1048"},
};

/* The keys of encodings.aliases.aliases (Python 3.11) that name a codec of CODECS. Its one key
 * with capitals, "csHPRoman8", is left out: codec names are looked up in lower case, so CPython
 * never finds it either. No module name of CODECS is a key of an alias to another codec, and the
 * two keys with a dot ("ansi_x3.4_1968", "iso_646.irv_1991") name ascii: so an alias missing
 * here cannot make CPython pick another codec than codec_of below. */
typedef struct bl_alias {
  const char *key, *module;
} bl_alias;

static const bl_alias ALIASES[] = {
  {"1125", "cp1125"}, {"1250", "cp1250"}, {"1251", "cp1251"}, {"1252", "cp1252"},
  {"1253", "cp1253"}, {"1254", "cp1254"}, {"1255", "cp1255"}, {"1256", "cp1256"},
  {"1257", "cp1257"}, {"1258", "cp1258"}, {"437", "cp437"}, {"646", "ascii"}, {"775", "cp775"},
  {"850", "cp850"}, {"852", "cp852"}, {"855", "cp855"}, {"857", "cp857"}, {"858", "cp858"},
  {"860", "cp860"}, {"861", "cp861"}, {"862", "cp862"}, {"863", "cp863"}, {"865", "cp865"},
  {"866", "cp866"}, {"869", "cp869"}, {"8859", "latin_1"}, {"ansi_x3.4_1968", "ascii"},
  {"ansi_x3.4_1986", "ascii"}, {"ansi_x3_4_1968", "ascii"}, {"arabic", "iso8859_6"},
  {"asmo_708", "iso8859_6"}, {"cp1051", "hp_roman8"}, {"cp154", "ptcp154"}, {"cp367", "ascii"},
  {"cp65001", "utf_8"}, {"cp819", "latin_1"}, {"cp866u", "cp1125"}, {"cp_gr", "cp869"},
  {"cp_is", "cp861"}, {"csascii", "ascii"}, {"csibm855", "cp855"}, {"csibm857", "cp857"},
  {"csibm858", "cp858"}, {"csibm860", "cp860"}, {"csibm861", "cp861"}, {"csibm863", "cp863"},
  {"csibm865", "cp865"}, {"csibm866", "cp866"}, {"csibm869", "cp869"},
  {"csisolatin1", "latin_1"}, {"csisolatin2", "iso8859_2"}, {"csisolatin3", "iso8859_3"},
  {"csisolatin4", "iso8859_4"}, {"csisolatin5", "iso8859_9"}, {"csisolatin6", "iso8859_10"},
  {"csisolatinarabic", "iso8859_6"}, {"csisolatincyrillic", "iso8859_5"},
  {"csisolatingreek", "iso8859_7"}, {"csisolatinhebrew", "iso8859_8"}, {"cskoi8r", "koi8_r"},
  {"cspc775baltic", "cp775"}, {"cspc850multilingual", "cp850"}, {"cspc862latinhebrew", "cp862"},
  {"cspc8codepage437", "cp437"}, {"cspcp852", "cp852"}, {"csptcp154", "ptcp154"},
  {"cyrillic", "iso8859_5"}, {"cyrillic_asian", "ptcp154"}, {"ecma_114", "iso8859_6"},
  {"ecma_118", "iso8859_7"}, {"elot_928", "iso8859_7"}, {"greek", "iso8859_7"},
  {"greek8", "iso8859_7"}, {"hebrew", "iso8859_8"}, {"ibm1051", "hp_roman8"},
  {"ibm1125", "cp1125"}, {"ibm367", "ascii"}, {"ibm437", "cp437"}, {"ibm775", "cp775"},
  {"ibm819", "latin_1"}, {"ibm850", "cp850"}, {"ibm852", "cp852"}, {"ibm855", "cp855"},
  {"ibm857", "cp857"}, {"ibm858", "cp858"}, {"ibm860", "cp860"}, {"ibm861", "cp861"},
  {"ibm862", "cp862"}, {"ibm863", "cp863"}, {"ibm865", "cp865"}, {"ibm866", "cp866"},
  {"ibm869", "cp869"}, {"iso646_us", "ascii"}, {"iso8859", "latin_1"}, {"iso8859_1", "latin_1"},
  {"iso_646.irv_1991", "ascii"}, {"iso_8859_1", "latin_1"}, {"iso_8859_10", "iso8859_10"},
  {"iso_8859_10_1992", "iso8859_10"}, {"iso_8859_11", "iso8859_11"},
  {"iso_8859_11_2001", "iso8859_11"}, {"iso_8859_13", "iso8859_13"},
  {"iso_8859_14", "iso8859_14"}, {"iso_8859_14_1998", "iso8859_14"},
  {"iso_8859_15", "iso8859_15"}, {"iso_8859_16", "iso8859_16"},
  {"iso_8859_16_2001", "iso8859_16"}, {"iso_8859_1_1987", "latin_1"},
  {"iso_8859_2", "iso8859_2"}, {"iso_8859_2_1987", "iso8859_2"}, {"iso_8859_3", "iso8859_3"},
  {"iso_8859_3_1988", "iso8859_3"}, {"iso_8859_4", "iso8859_4"},
  {"iso_8859_4_1988", "iso8859_4"}, {"iso_8859_5", "iso8859_5"},
  {"iso_8859_5_1988", "iso8859_5"}, {"iso_8859_6", "iso8859_6"},
  {"iso_8859_6_1987", "iso8859_6"}, {"iso_8859_7", "iso8859_7"},
  {"iso_8859_7_1987", "iso8859_7"}, {"iso_8859_8", "iso8859_8"},
  {"iso_8859_8_1988", "iso8859_8"}, {"iso_8859_9", "iso8859_9"},
  {"iso_8859_9_1989", "iso8859_9"}, {"iso_celtic", "iso8859_14"}, {"iso_ir_100", "latin_1"},
  {"iso_ir_101", "iso8859_2"}, {"iso_ir_109", "iso8859_3"}, {"iso_ir_110", "iso8859_4"},
  {"iso_ir_126", "iso8859_7"}, {"iso_ir_127", "iso8859_6"}, {"iso_ir_138", "iso8859_8"},
  {"iso_ir_144", "iso8859_5"}, {"iso_ir_148", "iso8859_9"}, {"iso_ir_157", "iso8859_10"},
  {"iso_ir_199", "iso8859_14"}, {"iso_ir_226", "iso8859_16"}, {"iso_ir_6", "ascii"},
  {"kz_1048", "kz1048"}, {"l1", "latin_1"}, {"l10", "iso8859_16"}, {"l2", "iso8859_2"},
  {"l3", "iso8859_3"}, {"l4", "iso8859_4"}, {"l5", "iso8859_9"}, {"l6", "iso8859_10"},
  {"l7", "iso8859_13"}, {"l8", "iso8859_14"}, {"l9", "iso8859_15"}, {"latin", "latin_1"},
  {"latin1", "latin_1"}, {"latin10", "iso8859_16"}, {"latin2", "iso8859_2"},
  {"latin3", "iso8859_3"}, {"latin4", "iso8859_4"}, {"latin5", "iso8859_9"},
  {"latin6", "iso8859_10"}, {"latin7", "iso8859_13"}, {"latin8", "iso8859_14"},
  {"latin9", "iso8859_15"}, {"mac_centeuro", "mac_latin2"}, {"maccentraleurope", "mac_latin2"},
  {"maclatin2", "mac_latin2"}, {"pt154", "ptcp154"}, {"r8", "hp_roman8"}, {"rk1048", "kz1048"},
  {"roman8", "hp_roman8"}, {"ruscii", "cp1125"}, {"strk1048_2002", "kz1048"},
  {"thai", "iso8859_11"}, {"u8", "utf_8"}, {"us", "ascii"}, {"us_ascii", "ascii"},
  {"utf", "utf_8"}, {"utf8", "utf_8"}, {"utf8_ucs2", "utf_8"}, {"utf8_ucs4", "utf_8"},
  {"windows_1250", "cp1250"}, {"windows_1251", "cp1251"}, {"windows_1252", "cp1252"},
  {"windows_1253", "cp1253"}, {"windows_1254", "cp1254"}, {"windows_1255", "cp1255"},
  {"windows_1256", "cp1256"}, {"windows_1257", "cp1257"}, {"windows_1258", "cp1258"},
};

static const char M_REFUSED[] =
    "the file declares the encoding %s, which boxlint cannot read exactly as Python does";
static const char M_ICONV[] = "the file declares the encoding %s, which boxlint reads only "
                              "with GNU libc's iconv(3), not available here";
static const char M_BYTE[] = "the file declares the encoding %s, which has no character for "
                             "this byte (Python cannot decode the file)";
static const char M_BOM[] =
    "the file starts with a UTF-8 byte order mark but declares the encoding %s";
static const char M_UTF8[] = "the file is not valid %s (and declares no other encoding)";
static const char M_UTF8_DECL[] = "the file declares the encoding %s but is not valid UTF-8";
static const char M_LINE1[] = "the first line is not valid UTF-8, as Python requires before "
                              "the declaration of the encoding %s on line 2";

const char *bl_py_codec(size_t i, const char **name, const char **iconv_name) {
  if (i >= sizeof CODECS / sizeof *CODECS) return NULL;
  *name = CODECS[i].name;
  *iconv_name = CODECS[i].iconv;
  return CODECS[i].module;
}

/*----------------------------------------------------------------------------------------------
 * The declaration
 *--------------------------------------------------------------------------------------------*/

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\f'; }
static int is_name_char(char c) {
  unsigned char u = (unsigned char)c;
  return boxlint__is_alpha(u) || boxlint__is_digit(u) || c == '-' || c == '_' || c == '.';
}

/* The line at i: its text ends at *e (a line break, the end, or a NUL: CPython's tokenizer sees
 * a line up to its first NUL, and rejects the file for the NUL anyway); the next line starts at
 * the return value. Line breaks are \n, \r\n and \r (CPython translates them all). */
static size_t line_at(const char *s, size_t n, size_t i, size_t *e) {
  size_t k = i;
  while (k < n && s[k] != '\n' && s[k] != '\r') k++;
  const char *nul = memchr(s + i, 0, k - i);
  *e = nul ? (size_t)(nul - s) : k;
  if (k < n && s[k] == '\r' && k + 1 < n && s[k + 1] == '\n') k++;
  return k < n ? k + 1 : n;
}

/* CPython's get_coding_spec on the line [i, e): the first `coding` followed by ':' or '=',
 * blanks, then a non-empty name of [-\w.] (ASCII), in a line that is a comment. Returns 1 with
 * the name's span; 0 with *blank = 1 when the line is blank or only a comment (then line 2 is
 * looked at), 0 otherwise. */
static int coding_spec(const char *s, size_t i, size_t e, size_t *nb, size_t *ne, int *blank) {
  while (i < e && is_blank(s[i])) i++;
  *blank = i == e || s[i] == '#';
  if (i == e || s[i] != '#') return 0;
  for (size_t k = i + 1; k + 7 <= e; k++) {
    if (memcmp(s + k, "coding", 6) || (s[k + 6] != ':' && s[k + 6] != '=')) continue;
    size_t v = k + 7;
    while (v < e && (s[v] == ' ' || s[v] == '\t')) v++;
    size_t w = v;
    while (w < e && is_name_char(s[w])) w++;
    if (w > v) {
      *nb = v;
      *ne = w;
      return 1;
    }
  }
  return 0;
}

/* The declaration on line 1, or on line 2 after a blank or comment line 1 (check_coding_spec).
 * Returns 0 (none), 1 or 2 (its line), with the name's span; *l1_end: the end of line 1. */
static int find_cookie(const char *s, size_t n, size_t start, size_t *nb, size_t *ne,
                       size_t *l1_end) {
  int blank;
  size_t next = line_at(s, n, start, l1_end);
  if (coding_spec(s, start, *l1_end, nb, ne, &blank)) return 1;
  if (!blank || next >= n) return 0;
  size_t e;
  line_at(s, n, next, &e);
  return coding_spec(s, next, e, nb, ne, &blank) ? 2 : 0;
}

/* The tokenizer's get_normal_name: "utf-8" or "iso-8859-1" for their spellings (the first 12
 * characters, lower case, '_' as '-'), else NULL (the name as written). */
static const char *normal_name(const char *s, size_t len) {
  char b[13];
  size_t i;
  for (i = 0; i < 12 && i < len; i++) b[i] = s[i] == '_' ? '-' : (char)boxlint__lower((unsigned char)s[i]);
  b[i] = 0;
  if (!strcmp(b, "utf-8") || !strncmp(b, "utf-8-", 6)) return "utf-8";
  if (!strcmp(b, "latin-1") || !strcmp(b, "iso-8859-1") || !strcmp(b, "iso-latin-1") ||
      !strncmp(b, "latin-1-", 8) || !strncmp(b, "iso-8859-1-", 11) ||
      !strncmp(b, "iso-latin-1-", 12))
    return "iso-8859-1";
  return NULL;
}

/* The name as codecs.lookup() normalises it (_Py_normalize_encoding, then
 * encodings.normalize_encoding): lower case, each run of other characters than letters, digits
 * and '.' one '_', none at either end. Returns 0 when it does not fit (no codec is that long). */
static size_t codec_key(const char *s, size_t len, char *k, size_t cap) {
  size_t l = 0;
  int punct = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!boxlint__is_alpha(c) && !boxlint__is_digit(c) && c != '.') {
      punct = 1;
      continue;
    }
    if (l + 2 >= cap) return 0;
    if (punct && l) k[l++] = '_';
    punct = 0;
    k[l++] = (char)boxlint__lower(c);
  }
  k[l] = 0;
  return l;
}

static const bl_codec *codec_module(const char *mod) {
  for (size_t i = 0; i < sizeof CODECS / sizeof *CODECS; i++)
    if (!strcmp(CODECS[i].module, mod)) return &CODECS[i];
  return NULL;
}
static const char *alias_of(const char *key) {
  for (size_t i = 0; i < sizeof ALIASES / sizeof *ALIASES; i++)
    if (!strcmp(ALIASES[i].key, key)) return ALIASES[i].module;
  return NULL;
}

/* encodings.search_function: the alias of the key (or of the key with '.' as '_'), else the
 * module of that name (never one with a dot). NULL: a codec boxlint does not read. */
static const bl_codec *codec_of(const char *name, size_t len) {
  char k[48], k2[48];
  if (!codec_key(name, len, k, sizeof k)) return NULL;
  const char *mod = alias_of(k);
  if (!mod && strchr(k, '.')) {
    memcpy(k2, k, sizeof k);
    for (char *p = k2; *p; p++)
      if (*p == '.') *p = '_';
    mod = alias_of(k2);
  }
  if (mod) return codec_module(mod);
  return strchr(k, '.') ? NULL : codec_module(k);
}

/*----------------------------------------------------------------------------------------------
 * Reading
 *--------------------------------------------------------------------------------------------*/

static int fail(bl_pysrc *out, const char *msg, size_t off) {
  out->err = msg;
  out->err_off = off;
  return 0;
}

static void set_detail(bl_pysrc *out, const char *s, size_t len) {
  if (len >= sizeof out->err_detail) len = sizeof out->err_detail - 1;
  memcpy(out->err_detail, s, len);
  out->err_detail[len] = 0;
}

/* The offset of the first byte of s[from..to) that is not UTF-8, or SIZE_MAX. */
static size_t utf8_bad(const char *s, size_t from, size_t to) {
  for (size_t i = from; i < to;) {
    uint64_t w;
    if (to - i >= 8 && (memcpy(&w, s + i, 8), !(w & 0x8080808080808080u))) {
      i += 8; /* eight ASCII bytes at once */
      continue;
    }
    uint32_t cp;
    size_t l = (unsigned char)s[i] < 0x80
                   ? 1
                   : boxlint__utf8_decode((const unsigned char *)s + i, to - i, &cp);
    if (!l) return i;
    i += l;
  }
  return SIZE_MAX;
}

/* What iconv makes of each byte alone: one character's UTF-8 (len 1-4), or len 0 when the
 * codec has no character for it (or gives none, or more than one). Each byte is converted from
 * the initial state and flushed, so that no state carries over: glibc's CP1255 and CP1258 hold
 * a character back to compose it with combining marks after it, which CPython never does. */
typedef struct bl_bytes {
  unsigned char u[256][4], len[256];
} bl_bytes;

/* Returns 0, 1 when iconv cannot open the codec, -1 when out of memory. */
static int byte_table(const char *name, bl_bytes *t) {
#ifndef __GLIBC__
  return 1; /* another iconv (musl's, macOS's) is not proven to decode as CPython does */
#endif
  iconv_t cd = iconv_open("UTF-8", name);
  if (cd == (iconv_t)-1) return errno == ENOMEM ? -1 : 1;
  for (unsigned b = 0; b < 256; b++) {
    char in = (char)b, buf[16];
    char *ip = &in, *op = buf;
    size_t il = 1, ol = sizeof buf;
    uint32_t cp;
    t->len[b] = 0;
    iconv(cd, NULL, NULL, NULL, NULL);
    if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1 || il ||
        iconv(cd, NULL, NULL, &op, &ol) == (size_t)-1)
      continue;
    size_t got = (size_t)(op - buf);
    if (got && got <= 4 && boxlint__utf8_decode((unsigned char *)buf, got, &cp) == got) {
      memcpy(t->u[b], buf, got);
      t->len[b] = (unsigned char)got;
    }
  }
  iconv_close(cd);
  return 0;
}

/* Decode s[0..n) with a single-byte codec into out->owned, with the offset map. */
static int decode(const boxlint__mem *m, const char *s, size_t n, const bl_codec *c,
                  size_t name_off, bl_pysrc *out) {
  bl_bytes t;
  int rc = byte_table(c->iconv, &t);
  if (rc) return rc < 0 ? -1 : fail(out, M_ICONV, name_off);
  size_t len = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char b = (unsigned char)s[i];
    if (!t.len[b]) return fail(out, M_BYTE, i);
    len += t.len[b];
  }
  if (len >= SIZE_MAX / sizeof(size_t) - 1) return -1;
  out->owned = boxlint__malloc(m, len + 1);
  out->map = boxlint__malloc(m, (len + 1) * sizeof(size_t));
  if (!out->owned || !out->map) return -1;
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char b = (unsigned char)s[i];
    for (unsigned k = 0; k < t.len[b]; k++) {
      out->map[o] = i;
      out->owned[o++] = (char)t.u[b][k];
    }
  }
  out->owned[len] = 0;
  out->map[len] = n;
  out->text = out->owned;
  out->len = len;
  return 0;
}

/* UTF-8 read in place: every byte must be (boxlint__utf8_decode: no overlong form, surrogate or
 * code point over U+10FFFF; CPython's decoder refuses them too). */
static int utf8_in_place(bl_pysrc *out, const char *s, size_t n, const char *msg) {
  size_t bad = utf8_bad(s, 0, n);
  return bad == SIZE_MAX ? 0 : fail(out, msg, bad);
}

int bl_py_source(const boxlint__mem *m, const char *s, size_t n, bl_pysrc *out) {
  memset(out, 0, sizeof *out);
  out->text = s;
  out->len = n;
  out->encoding = "utf-8";
  set_detail(out, "UTF-8", 5);
  int bom = n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3);
  size_t nb = 0, ne = 0, l1_end = 0;
  int line = find_cookie(s, n, bom ? 3 : 0, &nb, &ne, &l1_end);
  if (!line) return utf8_in_place(out, s, n, M_UTF8);
  set_detail(out, s + nb, ne - nb);
  const char *normal = normal_name(s + nb, ne - nb);
  if (normal && !strcmp(normal, "utf-8")) return utf8_in_place(out, s, n, M_UTF8_DECL);
  out->encoding = NULL;
  /* CPython compares the declaration with the BOM's "utf-8" before any codec lookup. */
  if (bom) return fail(out, M_BOM, nb);
  const bl_codec *c = normal ? codec_of(normal, strlen(normal)) : codec_of(s + nb, ne - nb);
  if (!c) return fail(out, M_REFUSED, nb);
  out->encoding = c->name;
  if (!c->iconv) return utf8_in_place(out, s, n, M_UTF8_DECL);
  size_t bad = line == 2 ? utf8_bad(s, 0, l1_end) : SIZE_MAX;
  if (bad != SIZE_MAX) return fail(out, M_LINE1, bad);
  return decode(m, s, n, c, nb, out);
}

void bl_py_source_free(const boxlint__mem *m, bl_pysrc *src) {
  boxlint__free(m, src->owned);
  boxlint__free(m, src->map);
  src->owned = NULL;
  src->map = NULL;
  src->text = NULL;
  src->len = 0;
}

size_t bl_py_source_message(const bl_pysrc *src, char *buf, size_t cap) {
  if (!src->err) {
    if (cap) buf[0] = 0;
    return 0;
  }
  const char *p = strstr(src->err, "%s");
  size_t pre = p ? (size_t)(p - src->err) : strlen(src->err);
  int w = snprintf(buf, cap, "%.*s%s%s", (int)pre, src->err, p ? src->err_detail : "",
                   p ? p + 2 : "");
  return w < 0 ? 0 : (size_t)w;
}

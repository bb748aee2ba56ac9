/* Internationalised names: the A-label of a non-ASCII entry (libidn2), or why it has none. Only
 * for messages, hints and fixes: an entry is never converted silently. Calls entry.c (the
 * A-label must pass the lexer) and the report's arena. */
#include <string.h>
#ifndef BOXLINT_NO_IDN2
#include <idn2.h>
#endif
#include "policy_int.h"

/* An arena string, never NULL ("" on OOM; the report then records the OOM). */
static const char *nn(const char *s) { return s ? s : ""; }

#ifndef BOXLINT_NO_IDN2
/* libidn2: IDNA2008 with UTS #46 mapping, non-transitional ('ß' stays 'ß'), input normalised
 * to NFC: the name a browser looks up. Not IDN2_USE_STD3_ASCII_RULES: libidn2 (2.3) then
 * drops the ASCII characters STD3 disallows instead of refusing them ('*.bücher.de' becomes
 * '.xn--bcher-kva.de', '_dmarc.bücher.de' 'dmarc.xn--bcher-kva.de', 'bü cher.de'
 * 'xn--bcher-kva.de'), a silent fix-up. The ASCII result is validated by boxlint's own rules
 * instead (which also allow '_'). */
#define IDN_FLAGS (IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL)

/* Why libidn2 refused a name: idn2_strerror in clearer words, for the errors a user meets. */
static const char *idn_error_reason(boxlint_report *r, int rc) {
  switch (rc) {
  case IDN2_DISALLOWED:
    return "it contains a character that IDNA2008 does not allow in host names (a symbol, an "
           "emoji, punctuation)";
  case IDN2_UNASSIGNED: return "it contains a code point that Unicode has not assigned";
  case IDN2_BIDI:
    return "it breaks the IDNA2008 bidi rule for right-to-left labels (RFC 5893)";
  case IDN2_CONTEXTJ:
  case IDN2_CONTEXTJ_NO_RULE:
    return "it has a zero-width joiner or non-joiner where IDNA2008 allows none (RFC 5892)";
  case IDN2_CONTEXTO:
  case IDN2_CONTEXTO_NO_RULE:
    return "it has a character that IDNA2008 allows only in a context it is not in (RFC 5892)";
  case IDN2_2HYPHEN:
    return "a label has '--' as its third and fourth characters, which only A-labels ('xn--') "
           "may have";
  case IDN2_HYPHEN_STARTEND: return "a label starts or ends with '-'";
  case IDN2_LEADING_COMBINING: return "a label starts with a combining mark";
  case IDN2_TOO_BIG_LABEL:
  case IDN2_PUNYCODE_BIG_OUTPUT:
    return "a label would be longer than 63 characters as an A-label";
  case IDN2_TOO_BIG_DOMAIN:
    return "its A-label would be longer than a host name can be (253 characters)";
  case IDN2_ENCODING_ERROR: return "it is not valid UTF-8";
  default: break;
  }
  return nn(boxlint__rprintf(r, "libidn2 refuses it: %s", idn2_strerror(rc)));
}

#endif

/* Why no conversion of s can give a valid entry, judged on its bytes: invalid UTF-8, or an
 * ASCII character that no host name has ('*' only as the '*.' of a wildcard). NULL when none.
 * Whitespace and control bytes (NUL among them) thus never reach libidn2, which reads a
 * NUL-terminated string. */
static const char *idn_precheck(boxlint_report *r, const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    unsigned char c = (unsigned char)s[i];
    uint32_t cp;
    size_t l = 1;
    if (c >= 0x80) {
      l = boxlint__utf8_decode((const unsigned char *)s + i, n - i, &cp);
      if (!l)
        return nn(boxlint__rprintf(r, "it is not valid UTF-8 (byte 0x%02x at offset %zu)",
                                   (unsigned)c, i));
    } else if (c <= 0x20 || c == 0x7f) {
      return "it also contains whitespace or a control character";
    } else if (c == '*') {
      if (i || n < 2 || s[1] != '.')
        return "it has '*' in the wrong place; a wildcard is '*.' followed by a domain";
    } else if (!boxlint__is_alpha(c) && !boxlint__is_digit(c) && c != '-' && c != '.' &&
               c != '_') {
      return nn(boxlint__rprintf(r, "it also contains '%c', which no host name has", (int)c));
    }
    i += l;
  }
  return NULL;
}

/* What is wrong with a conversion that boxlint refuses (detail `det`; none: valid, but an
 * address or keyword). */
static const char *converted_reason(boxlint__pdetail det) {
  switch (det) {
  case BOXLINT__PD_EMPTY_LABEL: return "which has an empty label";
  case BOXLINT__PD_LABEL_LONG: return "which has a label longer than 63 characters";
  case BOXLINT__PD_NAME_LONG: return "which is longer than a host name can be";
  case BOXLINT__PD_LABEL_SYNTAX:
    return "which is not a valid host name: labels take letters, digits, '-' and '_', and do "
           "not start or end with '-'";
  case BOXLINT__PD_NUM_TLD: return "whose last label is numeric";
  case BOXLINT__PD_LEADDOT: return "which starts with a dot";
  case BOXLINT__PD_WILDPOS: return "which has '*' in the wrong place";
  case BOXLINT__PD_TOO_LONG: return "which is longer than an entry can be (255 bytes)";
  default: break;
  }
  return "which is not a host name";
}

void boxlint__policy_alabel(boxlint_report *r, const char *s, size_t n, boxlint__alabel *o) {
  o->text[0] = 0;
  o->len = 0;
  o->why = n > BOXLINT_POLICY_ENTRY_MAX ? "it is longer than an entry can be (255 bytes)"
                                        : idn_precheck(r, s, n);
  if (o->why) return;
#ifdef BOXLINT_NO_IDN2
  /* A build without libidn2 (wasm/): no A-label, and the message says why. */
  o->why = "this build of boxlint has no IDNA (libidn2) to convert it";
  return;
#else
  char in[BOXLINT_POLICY_ENTRY_MAX + 1]; /* the entry is never written: convert a copy */
  memcpy(in, s, n);
  in[n] = 0;
  uint8_t *res = NULL;
  int rc = idn2_lookup_u8((const uint8_t *)in, &res, IDN_FLAGS);
  if (rc == IDN2_OK && !res) rc = IDN2_MALLOC;
  if (rc == IDN2_OK) {
    size_t len = strlen((const char *)res);
    if (len > BOXLINT_POLICY_ENTRY_MAX) {
      rc = IDN2_TOO_BIG_DOMAIN;
    } else {
      memcpy(o->text, res, len + 1);
      o->len = len;
    }
  }
  idn2_free(res);
  if (rc == IDN2_MALLOC) {
    r->oom = 1;
    o->why = "";
    return;
  }
  if (rc != IDN2_OK) {
    o->why = idn_error_reason(r, rc);
    return;
  }
#endif
  /* The A-label must pass boxlint's own checks (lengths, label syntax) and be a name. */
  boxlint__entry t;
  boxlint__pdetail det = boxlint__policy_entry_parse(&t, o->text, o->len, 0);
  if (!det && (t.e.kind == BOXLINT_ENTRY_DOMAIN || t.e.kind == BOXLINT_ENTRY_WILDCARD)) return;
  o->why = nn(boxlint__rprintf(r, "it converts to '%s', %s",
                               boxlint__policy_quote(r, o->text, o->len, 80),
                               converted_reason(det)));
}

/* Whether a Python file can reach the SDK at all: the one predicate that decides whether a file
 * that does not parse is a finding (python-syntax, python-encoding) and whether reflection in a
 * file says anything (check.c), and so whether a file is parsed at all (scan.c). Calls
 * ident.c.
 *
 * A file reaches the SDK when it imports `budai` in any form or names one of its calls or
 * resources: an identifier whose NFKC form is one of the words below (CPython folds
 * `ｂｕｄａｉ` to `budai`), or a string literal whose text holds one (`__import__("budai")`,
 * `getattr(c, "code_interpreter")`). What cannot be read as tokens (the rest of a file after
 * the tokenizer's error, a file in an encoding boxlint refuses) is searched as bytes, so that
 * a broken file is quiet only when none of the words appears anywhere in it.
 *
 * A file that reaches the SDK only through a value handed to it (a client passed in as a
 * parameter from another module, then used by getattr with computed names) is out of any
 * static reader's sight: the runtime guard and the platform's own check are for that. */
#include <string.h>

#include "python/encoding.h"
#include "python/python_int.h"

/* The SDK's module, its clients and the names of its calls and resources. */
static const struct {
  const char *w;
  size_t n;
} words[] = {
#define W(s) {s, sizeof s - 1}
    W("budai"),          W("BudClient"),           W("AsyncBudClient"),
    W("NetworkPolicy"),  W("code_interpreter"),    W("add_code_interpreter"),
    W("get_code_interpreter"), W("remove_code_interpreter"),
#undef W
};
enum { NWORDS = sizeof words / sizeof words[0] };

/* Does s[a, b) hold one of the words anywhere? */
int bl_py_holds_sdk_word(const char *s, size_t a, size_t b) {
  for (size_t k = 0; k < NWORDS; k++) {
    const char *w = words[k].w;
    size_t wl = words[k].n;
    for (size_t i = a; i + wl <= b;) {
      const char *p = memchr(s + i, w[0], b - wl + 1 - i);
      if (!p) break;
      if (!memcmp(p, w, wl)) return 1;
      i = (size_t)(p - s) + 1;
    }
  }
  return 0;
}

/* Is the identifier s[a, b) one of the words? 1, 0, -1 out of memory. */
static int name_is(const char *s, size_t a, size_t b) {
  size_t n = b - a;
  int ascii = 1;
  for (size_t i = a; i < b && ascii; i++) ascii = (unsigned char)s[i] < 0x80;
  if (ascii && (n < 5 || n > 23)) return 0; /* shorter than budai, longer than the longest */
  for (size_t k = 0; k < NWORDS; k++) {
    int eq = bl_py_nfkc_equals(s + a, n, words[k].w, words[k].n);
    if (eq) return eq;
  }
  return 0;
}

/* The characters of a run of adjacent string literals, as Python joins them, through a window
 * of the last WIN bytes: does the joined value hold one of the words? Escapes that give an
 * ASCII character (\x, octal, \u, \U, \N{LATIN SMALL LETTER I}, the one-letter ones) are read
 * as that character, so that `'code_\x69nterpreter'` and `'code_' 'interpreter'` are found.
 * Raw literals are their bytes. */
enum { WIN = 32 };
typedef struct win {
  char b[WIN];
  size_t n; /* characters seen */
} win;

static int win_push(win *w, char ch) {
  w->b[w->n++ % WIN] = ch;
  for (size_t k = 0; k < NWORDS; k++) {
    size_t l = words[k].n;
    if (l > w->n || l > WIN) continue;
    size_t j = 0;
    while (j < l && w->b[(w->n - l + j) % WIN] == words[k].w[j]) j++;
    if (j == l) return 1;
  }
  return 0;
}

static int hexval(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

/* The ASCII character a \N{NAME} escape names, among those a word of the SDK is made of (a
 * letter, a digit, `_`; the name in any case, as CPython looks it up), or '?'. */
static char named_ascii(const char *nm, size_t n) {
  char up[40];
  if (n >= sizeof up) return '?';
  for (size_t i = 0; i < n; i++) up[i] = nm[i] >= 'a' && nm[i] <= 'z' ? (char)(nm[i] - 32) : nm[i];
  up[n] = 0;
  static const char *const digit[] = {"ZERO", "ONE", "TWO",   "THREE", "FOUR",
                                      "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"};
  if (!strcmp(up, "LOW LINE") || !strcmp(up, "SPACING UNDERSCORE")) return '_';
  if (n == 20 && !memcmp(up, "LATIN SMALL LETTER ", 19) && up[19] >= 'A' && up[19] <= 'Z')
    return (char)(up[19] + 32);
  if (n == 22 && !memcmp(up, "LATIN CAPITAL LETTER ", 21) && up[21] >= 'A' && up[21] <= 'Z')
    return up[21];
  if (n > 6 && !memcmp(up, "DIGIT ", 6))
    for (int d = 0; d < 10; d++)
      if (!strcmp(up + 6, digit[d])) return (char)('0' + d);
  return '?';
}

static int piece_holds(const char *s, const bl_pytok *t, win *w) {
  bl_piece p;
  bl_py_piece(s, t, &p);
  for (size_t i = p.body; i < p.body_end; i++) {
    char ch = s[i];
    if (ch == '\\' && !(p.flags & BL_LIT_RAW) && i + 1 < p.body_end) {
      char e = s[++i];
      size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
      if (e == 'N') {
        size_t close = i + 1;
        while (close < p.body_end && s[close] != '}') close++;
        ch = named_ascii(s + i + 2, close > i + 2 ? close - i - 2 : 0);
        i = close < p.body_end ? close : p.body_end - 1;
      } else if (digits) {
        unsigned long v = 0;
        size_t j = 0;
        for (; j < digits && i + 1 + j < p.body_end && hexval(s[i + 1 + j]) >= 0; j++)
          v = v * 16 + (unsigned long)hexval(s[i + 1 + j]);
        i += j;
        ch = v < 0x80 ? (char)v : '?';
      } else if (e >= '0' && e <= '7') {
        unsigned v = (unsigned)(e - '0');
        for (int j = 0; j < 2 && i + 1 < p.body_end && s[i + 1] >= '0' && s[i + 1] <= '7'; j++)
          v = v * 8 + (unsigned)(s[++i] - '0');
        ch = v < 0x80 ? (char)v : '?';
      } else {
        ch = e == 'n' ? '\n' : e == 't' ? '\t' : e; /* a quote, a backslash, the rest */
      }
    }
    if (win_push(w, ch)) return 1;
  }
  return 0;
}

int bl_py_reaches_sdk(const char *s, size_t n, const bl_pytoks *t) {
  if (!t) return bl_py_holds_sdk_word(s, 0, n);
  size_t read = 0; /* the tokens cover s[0, read) */
  for (size_t i = 0; i < t->n; i++) {
    const bl_pytok *k = &t->v[i];
    if (k->end > read) read = k->end;
    if (k->kind == BL_PT_NAME) {
      int r = name_is(s, k->start, k->end);
      if (r) return 1; /* out of memory (-1) too: it may (loud, never a silent pass) */
    } else if (k->kind == BL_PT_STRING) {
      if (bl_py_holds_sdk_word(s, k->start, k->end)) return 1;
      /* the run of adjacent literals it starts (line breaks and comments between them): read
       * as Python joins them when there are several or an escape (one plain literal is its
       * bytes, searched above) */
      size_t j = i, nstr = 0;
      int esc = 0;
      for (; j < t->n; j++) {
        const bl_pytok *x = &t->v[j];
        if (x->kind == BL_PT_NL || x->kind == BL_PT_COMMENT) continue;
        if (x->kind != BL_PT_STRING) break;
        nstr++;
        esc |= memchr(s + x->start, '\\', x->end - x->start) != NULL;
        if (x->end > read) read = x->end;
      }
      if (nstr > 1 || esc) {
        win w = {{0}, 0};
        for (size_t m = i; m < j; m++)
          if (t->v[m].kind == BL_PT_STRING && piece_holds(s, &t->v[m], &w)) return 1;
      }
      i = j - 1;
    }
  }
  if (t->err) {
    size_t from = t->err_off < read ? t->err_off : read;
    return bl_py_holds_sdk_word(s, from, n);
  }
  return 0;
}

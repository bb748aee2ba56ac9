/* A test-only door into the Python parser (lib/src/python/parse*.c) for
 * tests/oracle/python_grammar_test.py, which compares its verdicts with CPython's `ast.parse`.
 *
 *   pyparse_probe [-a] [-V MINOR] [FILE...]
 *
 * reads each FILE (or, with none, each path named on a line of standard input) as Python 3.MINOR
 * (the tokenizer's and the parser's `minor`; 3.14 by default) and prints
 *   F PATH                 the file
 *   OK                     it parses
 *   ERR L C MESSAGE        the first syntax error: line 1-based, column 0-based in code points
 *                          (a UTF-8 BOM is not counted), as CPython's SyntaxError (offset - 1)
 * and with -a, after OK, the tree: one node a line, indented by depth,
 *   KIND ROLE [start,end) tok=N flags=HEX 'ident' 'ident2' ~NFKC
 * The verdict is the library's: the file must be UTF-8 (unless it declares another encoding),
 * tokenize (tokens.c), its string literals decode (literal.c, as scan.c reads them) and it must
 * parse. The error is bl_py_parse's, given the tokens and any error of the tokenizer (which
 * of the two CPython reports), or a literal's when that one comes first in the file.
 * Exit code 0, or 2 when a file cannot be read or memory runs out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "python/ast.h"
#include "probe_util.h"

static const char *const KINDS[] = {
  "MODULE", "FUNCDEF", "CLASSDEF", "RETURN", "DELETE", "ASSIGN", "AUGASSIGN", "ANNASSIGN",
  "FOR", "WHILE", "IF", "WITH", "WITHITEM", "MATCH", "MATCHCASE", "RAISE", "TRY", "TRYSTAR",
  "EXCEPTHANDLER", "ASSERT", "IMPORT", "IMPORTFROM", "ALIAS", "GLOBAL", "NONLOCAL", "EXPR",
  "PASS", "BREAK", "CONTINUE", "ARGUMENTS", "ARG", "NAMEDEF", "BOOLOP", "NAMEDEXPR", "BINOP",
  "UNARYOP", "LAMBDA", "IFEXP", "DICT", "SET", "LISTCOMP", "SETCOMP", "DICTCOMP", "GENEXP",
  "COMPREHENSION", "AWAIT", "YIELD", "YIELDFROM", "COMPARE", "CALL", "KEYWORD",
  "FORMATTEDVALUE", "JOINEDSTR", "CONSTANT", "ATTRIBUTE", "SUBSCRIPT", "STARRED", "NAME",
  "LIST", "TUPLE", "SLICE", "MATCHVALUE", "MATCHSINGLETON", "MATCHSEQUENCE", "MATCHMAPPING",
  "MATCHCLASS", "MATCHSTAR", "MATCHAS", "MATCHOR", "TYPEALIAS", "TYPEVAR", "TYPEVARTUPLE",
  "PARAMSPEC", "TEMPLATESTR"};
static const char *const ROLES[] = {
  "-", "BODY", "ORELSE", "FINAL", "HANDLER", "DECORATOR", "NAME", "ARGS", "RETURNS", "ARG",
  "KEYWORD", "TARGET", "VALUE", "ANNOTATION", "TEST", "ITER", "ITEM", "SUBJECT", "CASE",
  "PATTERN", "CAUSE", "DEFAULT", "LEFT", "RIGHT", "OPERAND", "KEY", "DSTAR", "ELT", "GENERATOR",
  "FUNC", "FORMAT", "SLICE", "LOWER", "UPPER", "STEP", "TYPEPARAM"};

/* Line (1-based) and column (0-based, code points; an invalid byte counts one) of `off`. */
static void line_col(const char *s, size_t n, size_t off, size_t *line, size_t *col) {
  size_t i = n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3) ? 3 : 0;
  *line = 1;
  *col = 0;
  if (off > n) off = n;
  while (i < off) {
    unsigned char b = (unsigned char)s[i];
    if (b == '\n' || b == '\r') {
      i += (b == '\r' && i + 1 < n && s[i + 1] == '\n') ? 2 : 1;
      ++*line;
      *col = 0;
      continue;
    }
    uint32_t cp;
    size_t l = b < 0x80 ? 1 : boxlint__utf8_decode((const unsigned char *)s + i, n - i, &cp);
    i += l ? l : 1;
    ++*col;
  }
}

/* A coding declaration on line 1 or 2 naming another encoding than UTF-8 (as scan.c). */
static int other_encoding(const char *s, size_t n) {
  size_t i = 0;
  for (int line = 0; line < 2 && i < n; line++) {
    size_t e = i;
    while (e < n && s[e] != '\n' && s[e] != '\r') e++;
    size_t h = i;
    while (h < e && (s[h] == ' ' || s[h] == '\t' || s[h] == '\f')) h++;
    if (h < e && s[h] == '#') {
      for (size_t k = h; k + 7 < e; k++) {
        if (memcmp(s + k, "coding", 6) || (s[k + 6] != ':' && s[k + 6] != '=')) continue;
        size_t v = k + 7;
        while (v < e && (s[v] == ' ' || s[v] == '\t')) v++;
        return strncmp(s + v, "utf-8", 5) && strncmp(s + v, "utf_8", 5) &&
               strncmp(s + v, "utf8", 4) && strncmp(s + v, "UTF-8", 5) &&
               strncmp(s + v, "UTF8", 4);
      }
    } else if (h < e) {
      return 0;
    }
    i = e + (e < n && s[e] == '\r' && e + 1 < n && s[e + 1] == '\n') + 1;
  }
  return 0;
}

static int utf8_error(const char *s, size_t n, size_t *off) {
  if (other_encoding(s, n)) return 0;
  for (size_t i = 0; i < n;) {
    uint32_t cp;
    size_t l = (unsigned char)s[i] < 0x80
                   ? 1 : boxlint__utf8_decode((const unsigned char *)s + i, n - i, &cp);
    if (!l) {
      *off = i;
      return 1;
    }
    i += l;
  }
  return 0;
}

/* The first error of the string literals (scan.c's strings()): 1 with *msg and *off. */
static int string_error(const boxlint__mem *m, const char *s, const bl_pytoks *t,
                        const char **msg, size_t *off) {
  int prev = -1;
  for (size_t i = 0; i < t->n; i++) {
    const bl_pytok *k = &t->v[i];
    if (k->kind == BL_PT_NL || k->kind == BL_PT_COMMENT) continue;
    if (k->kind != BL_PT_STRING) {
      prev = -1;
      continue;
    }
    bl_piece p;
    bl_py_piece(s, k, &p);
    int bytes = (p.flags & BL_LIT_BYTES) != 0;
    if (prev >= 0 && prev != bytes) {
      *msg = "cannot mix bytes and nonbytes literals";
      *off = k->start;
      return 1;
    }
    prev = bytes;
    bl_pystr v;
    memset(&v, 0, sizeof v);
    int rc = bl_py_decode(m, s, &p, 0, &v, msg, off);
    bl_pystr_free(m, &v);
    if (rc) return rc;
  }
  return 0;
}

static void dump(const char *s, const bl_pynode *n, int depth) {
  for (; n; n = n->next) {
    printf("%*s%s %s [%zu,%zu)", depth * 2, "", KINDS[n->kind], ROLES[n->role], n->start,
           n->end);
    if (n->tok != SIZE_MAX) printf(" tok=%zu", n->tok);
    if (n->flags) printf(" flags=%x", (unsigned)n->flags);
    if (n->ident_end > n->ident || n->ident2_end > n->ident2)
      printf(" '%.*s'", (int)(n->ident_end - n->ident), s + n->ident);
    if (n->ident2_end > n->ident2)
      printf(" '%.*s'", (int)(n->ident2_end - n->ident2), s + n->ident2);
    if (n->norm) printf(" ~%.*s", (int)n->norm_len, n->norm);
    printf("\n");
    dump(s, n->kid, depth + 1);
  }
}

/* The verdict on s[0..n): 0 (printed), -1 out of memory. */
static int MINOR = BOXLINT_PYTHON_MINOR_DEFAULT;

static int verdict(const boxlint__mem *m, const char *s, size_t n, int tree) {
  const char *msg = NULL;
  size_t off = 0, line, col;
  int rc = 0;
  bl_pytoks t;
  memset(&t, 0, sizeof t);
  bl_pyast ast;
  memset(&ast, 0, sizeof ast);
  boxlint__arena arena = {NULL, NULL};
  size_t *sig = NULL, nsig = 0;
  if (utf8_error(s, n, &off)) {
    msg = "the file is not valid UTF-8";
  } else if (bl_py_tokenize(m, s, n, MINOR, &t)) {
    rc = -1;
  } else if (!(sig = boxlint__malloc(m, (t.n + 1) * sizeof *sig))) {
    rc = -1;
  } else {
    for (size_t i = 0; i < t.n; i++)
      if (t.v[i].kind != BL_PT_COMMENT && t.v[i].kind != BL_PT_NL) sig[nsig++] = i;
    rc = bl_py_parse(m, &arena, s, n, &t, sig, nsig, MINOR, &ast);
    const char *smsg = NULL;
    size_t soff = 0;
    int src = rc ? 0 : string_error(m, s, &t, &smsg, &soff);
    if (src < 0) rc = -1;
    msg = ast.err;
    off = ast.err_off;
    if (src > 0 && (!msg || soff < off)) {
      msg = smsg;
      off = soff;
    }
  }
  if (rc == 0 && msg) {
    line_col(s, n, off, &line, &col);
    printf("ERR %zu %zu %s\n", line, col, msg);
  } else if (rc == 0) {
    printf("OK\n");
    if (tree) dump(s, ast.root, 0);
  }
  boxlint__arena_free(&arena, m);
  boxlint__free(m, sig);
  bl_py_tokens_free(m, &t);
  return rc;
}

static int run(const char *path, int tree) {
  size_t n;
  char *s = probe_slurp(path, &n);
  if (!s) {
    fprintf(stderr, "pyparse_probe: cannot read %s\n", path);
    return -1;
  }
  boxlint__mem m;
  boxlint__mem_init(&m, NULL);
  printf("F %s\n", path);
  int rc = verdict(&m, s, n, tree);
  free(s);
  if (rc) fprintf(stderr, "pyparse_probe: out of memory on %s\n", path);
  fflush(stdout);
  return rc;
}

static int run_path(const char *path, const void *ctx) { return run(path, *(const int *)ctx); }

int main(int argc, char **argv) {
  int i = 1, tree = 0, bad = 0;
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    if (!strcmp(argv[i], "-a")) tree = 1;
    else if (!strcmp(argv[i], "-V") && i + 1 < argc &&
             atoi(argv[i + 1]) >= BOXLINT_PYTHON_MINOR_MIN &&
             atoi(argv[i + 1]) <= BOXLINT_PYTHON_MINOR_MAX)
      MINOR = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: pyparse_probe [-a] [-V MINOR] [FILE...]\n");
      return 2;
    }
  }
  bad = probe_each_path(argc, argv, i, run_path, &tree);
  return bad ? 2 : 0;
}

/* Private to python/: the Python lexer (lexer.re), the tokenizer (tokens.c), string literals
 * (literal.c), the reader of SDK calls (reader.c) and the checks that move findings into the
 * file (check.c, fixes in edit.c). */
#ifndef BOXLINT_PYTHON_INT_H
#define BOXLINT_PYTHON_INT_H
#include <stddef.h>
#include <stdint.h>
#include "report/internal.h"
#include "report/suppress.h"

/* What bl_py_lex found at an offset. */
typedef enum bl_pylex {
  BL_PYL_EOF, BL_PYL_SPACE, BL_PYL_COMMENT, BL_PYL_NEWLINE, BL_PYL_CONTINUATION,
  BL_PYL_BAD_CONTINUATION, BL_PYL_STRING, BL_PYL_UNTERMINATED, BL_PYL_UNTERMINATED3,
  BL_PYL_NAME, BL_PYL_NUMBER, BL_PYL_BAD_NUMBER, BL_PYL_OP, BL_PYL_NUL, BL_PYL_BAD_CHAR
} bl_pylex;

/* One token at p (p < lim, or the end): its kind, and its length in *len. */
bl_pylex bl_py_lex(const unsigned char *p, const unsigned char *lim, size_t *len);

/* Tokens as Python's tokenize module names them. */
typedef enum bl_pytok_kind {
  BL_PT_ENDMARKER, BL_PT_NAME, BL_PT_NUMBER, BL_PT_STRING, BL_PT_OP, BL_PT_NEWLINE, BL_PT_NL,
  BL_PT_COMMENT, BL_PT_INDENT, BL_PT_DEDENT
} bl_pytok_kind;

typedef struct bl_pytok {
  bl_pytok_kind kind;
  uint32_t flags;    /* BL_PTF_*: how a STRING token is read */
  size_t start, end; /* bytes of the source; INDENT/DEDENT/ENDMARKER are empty */
} bl_pytok;

/* A tokenized file. On a syntax error, `err` is set with its offset. */
typedef struct bl_pytoks {
  bl_pytok *v;
  size_t n, cap;
  const char *err;      /* static message, or NULL */
  size_t err_off;
} bl_pytoks;

/* A STRING token's flags: an f-string or t-string read as CPython 3.12+ reads them (PEP 701:
 * the tokenizer found its end through its replacement fields, which may hold any token, nested
 * strings with the same quotes, backslashes and comments). */
enum { BL_PTF_PEP701 = 1 };

/* Tokenize s[0..n) (a UTF-8 BOM is skipped) as the tokenizer of CPython 3.`minor` does
 * (BOXLINT_PYTHON_MINOR_MIN..MAX). Returns 0 (err may be set: the tokens up to the error are
 * kept), or -1 when out of memory. Free with bl_py_tokens_free. */
int bl_py_tokenize(const boxlint__mem *m, const char *s, size_t n, int minor, bl_pytoks *out);
void bl_py_tokens_free(const boxlint__mem *m, bl_pytoks *t);
/* PEP 701 (3.12+): the end of the f-string or t-string (or any string literal) that starts at
 * s[i] (its prefix), read through its replacement fields, or SIZE_MAX with *err and *err_off
 * (tokens.c). */
size_t bl_py_fstring_end(const char *s, size_t n, size_t i, const char **err, size_t *err_off);
/* The end (past its '}') of the replacement field whose '{' is at s[i], inside a PEP 701
 * string whose body ends at e; SIZE_MAX when it does not end before e. */
size_t bl_py_fstring_field_end(const char *s, size_t e, size_t i, int raw);
/* ... and where its expression ends: the '!', ':', '=' or '}' that follows it. */
size_t bl_py_fstring_expr_end(const char *s, size_t e, size_t i);

/* 1-based line and column (code points; an invalid byte counts one) of offset `off`, Python's
 * line breaks (\n, \r\n, \r). */
void bl_py_line_col(const char *s, size_t n, size_t off, uint32_t *line, uint32_t *col);

/*----------------------------------------------------------------------------------------------
 * String literals (literal.c)
 *--------------------------------------------------------------------------------------------*/

/* A t-string (3.14) is BL_LIT_FSTRING | BL_LIT_TEMPLATE: read as an f-string is, but its value
 * is a Template, never a str. BL_LIT_PEP701: an f-string or t-string that the tokenizer read
 * as 3.12+ does (the token's BL_PTF_PEP701). */
enum { BL_LIT_RAW = 1, BL_LIT_BYTES = 2, BL_LIT_FSTRING = 4, BL_LIT_TRIPLE = 8,
       BL_LIT_TEMPLATE = 16, BL_LIT_PEP701 = 32 };

/* One literal piece: its prefix flags, quote character and body span in the source. */
typedef struct bl_piece {
  unsigned flags;
  char quote;
  size_t start, body, body_end, end; /* token start, body start, body end, token end */
} bl_piece;

void bl_py_piece(const char *s, const bl_pytok *t, bl_piece *p);

/* A decoded string: `len` bytes of UTF-8 (for bytes literals, the bytes) and, for each byte
 * and one past the end, the source offset of the character that produced it (a character
 * written as an escape maps to its backslash). */
typedef struct bl_pystr {
  char *bytes;
  size_t len, cap;
  size_t *src;          /* len + 1 entries */
  size_t *src_end;      /* len + 1 entries: the end of that source character */
  uint32_t *piece;      /* len + 1 entries: the piece index of each byte */
  int is_bytes;
  int dynamic;          /* an f-string with a replacement field */
  boxlint__arena *arena; /* where the arrays are allocated (freed with it), or NULL: with m */
} bl_pystr;

/* Decode a piece and append it to `out` (growing it with `m`). Returns 0, -1 when out of memory,
 * or 1 on a syntax error (*err, *err_off set). */
int bl_py_decode(const boxlint__mem *m, const char *s, const bl_piece *p, uint32_t index,
                 bl_pystr *out, const char **err, size_t *err_off);
void bl_pystr_free(const boxlint__mem *m, bl_pystr *v);


/*----------------------------------------------------------------------------------------------
 * Values and calls (reader.c)
 *--------------------------------------------------------------------------------------------*/

typedef enum bl_pv_kind {
  BL_PV_STR, BL_PV_INT, BL_PV_FLOAT, BL_PV_CONST, BL_PV_LIST, BL_PV_TUPLE, BL_PV_DICT,
  BL_PV_SET, BL_PV_POLICY, BL_PV_NAME, BL_PV_DYNAMIC
} bl_pv_kind;

typedef struct bl_pyval bl_pyval;

/* One argument of a call: positional (`name_end` == `name`) or keyword; `star` 1 for *x, 2
 * for **x (then `v` is dynamic). */
typedef struct bl_pyarg {
  size_t name, name_end;
  const char *norm;    /* the keyword's NFKC form when it differs from the source, or NULL */
  size_t norm_len;
  int star;
  bl_pyval *v;
} bl_pyarg;

struct bl_pyval {
  bl_pv_kind kind;
  size_t start, end;   /* the expression's source span */
  size_t open, close;  /* LIST/TUPLE/DICT/SET/POLICY: the brackets' offsets */
  bl_pystr str;        /* STR */
  bl_piece *pieces;    /* STR: its literals */
  size_t npieces;
  int64_t ival;        /* INT */
  int overflow;        /* INT beyond 64 bits */
  const char *why;     /* DYNAMIC: what it is ("a call") */
  bl_pyval **items;    /* LIST/TUPLE/SET elements, DICT values */
  bl_pyval **keys;     /* DICT keys */
  size_t nitems;
  bl_pyarg *args;      /* POLICY: the call's arguments */
  size_t nargs;
  int trailing_comma;  /* LIST/DICT/POLICY: a comma before the closer */
  size_t src_move;     /* cache.c: still to add to str.src and str.src_end (mod 2^N) */
  bl_pyval *next_free; /* every value, for bl_py_reader_free */
};

/* A call of the SDK found in the file. */
typedef enum bl_call_kind { BL_CALL_CREATE, BL_CALL_UPDATE, BL_CALL_BIND, BL_CALL_POLICY } bl_call_kind;
typedef struct bl_pycall {
  bl_call_kind kind;
  size_t name, name_end; /* the called name ("create") */
  size_t open, close;    /* its parentheses */
  size_t start, end;     /* the whole call */
  int inner;             /* inside an f-string's replacement field: not read */
  bl_pyarg *args;
  size_t nargs;
  bl_pyval *policy;      /* BL_CALL_POLICY: the NetworkPolicy value */
} bl_pycall;

/* A reference to the SDK that is not a direct call (analyze.c): reported as not-static. */
struct bl_pynode;
typedef struct bl_pyref {
  const struct bl_pynode *node;
  size_t start, end;
  const char *why;
} bl_pyref;

/* A name of the file (NFKC), as analyze.c found its occurrences. */
struct bl_pynode;
struct bl_pyname;
/* A module-level literal that holds a name's value (`B = [A]`), or the name bound to an SDK
 * call's result that keeps it (`tpl = create(commands=A)`: holder). */
struct bl_pyowner {
  struct bl_pyname *name;
  int holder;
  struct bl_pyowner *next;
};
typedef struct bl_pyname {
  const char *key;
  size_t klen;
  unsigned nbind;                 /* module-level `NAME = value` statements */
  const struct bl_pynode *value;  /* the value of the last one */
  const char *why;                /* the first occurrence that may change it, or NULL */
  const char *handle_why;         /* a read harmless only when it holds an SDK handle */
  const char *elem_why;           /* a read that hands out its elements (a subscript, a slice,
                                     iteration, unpacking): harmless when they are immutable */
  size_t elem_off;
  int len_read;                   /* read by len(): harmless while `len` is the builtin */
  unsigned nstore;                /* occurrences that bind, declare or delete it */
  size_t why_off;
  struct bl_pyowner *owners;      /* module-level literals that hold its value */
  int state;                      /* 0 not resolved, 1 resolving, 2 known, 3 not known */
  int owners_clean;               /* 0 not yet asked, 1 asking, 2 yes, 3 no */
  const char *dyn_why;
  const bl_pyval *resolved;
  int asked;                      /* read by the resolution (resolve.c), for cache.c */
} bl_pyname;

/* A comment that is a boxlint directive (report/suppress.h): `# boxlint: ignore=...` (or
 * `# boxlint ignore=`), or one that starts as a directive and does not parse. */
typedef struct bl_pysup {
  size_t start, end;     /* the comment */
  bl_sup_comment c;      /* what it says */
  uint32_t line;         /* the line whose findings it silences */
  int next_line;         /* alone on its line: it silences the next line's */
} bl_pysup;

typedef struct bl_pyreader {
  const boxlint__mem *m;
  boxlint__arena arena;
  boxlint__arena strs;   /* the arrays of the values' strings, apart from the values */
  const char *s;
  size_t n;
  int minor;             /* read as Python 3.minor (bl_py_read) */
  bl_pytoks toks;
  size_t *sig;           /* indices of the significant tokens (no COMMENT, NL) */
  size_t nsig;
  bl_pycall *calls;
  size_t ncalls, cap_calls;
  bl_pysup *sups;
  size_t nsups, cap_sups;
  bl_pyname **names;     /* every name of the file, hashed (analyze.c; entries in the arena) */
  size_t cap_names, nnames;
  const char *taint;     /* something that reaches names by their text, or NULL */
  size_t taint_off;
  const struct bl_pynode **occ; /* every name and attribute node, for bl_py_names */
  size_t nocc, cap_occ;
  int names_done;
  bl_pyref *refs;        /* references to the SDK that are not direct calls */
  size_t nrefs, cap_refs;
  bl_pyval *vals;        /* every value (next_free list) */
  const char *err;       /* syntax error */
  size_t err_off;
  int oom;
  size_t *lit_reads;     /* [start, end) pairs: the string constants the analysis decoded to
                            look a name up by its text (getattr(x, "NAME"): analyze.c) */
  size_t nlit_reads, cap_lit_reads;
  size_t alias[128];     /* [start, end) of the names bound to references (analyze.c's
                            calls_through_references compares calls' receivers with them) */
  size_t nalias;
  struct bl_pyalias *aliases; /* names bound to the SDK's objects (alias.c), in the arena */
  size_t naliases;
  int has_ci;            /* a `.code_interpreter` attribute is in the file (analyze.c) */
  int partial_ok, functools_ok; /* partial / functools bound only by their imports (alias.c) */
  const struct bl_pynode *reflect_at; /* the first reflection of reflect.c's table, or NULL */
  int frozen;            /* set by cache.c: a name never resolved is not resolved now (the tree
                            is no longer read); `stale` is set instead */
  int stale;
  int quiet;             /* the file cannot reach the SDK (reach.c) and has no suppression:
                            read as tokens only, no tree, no calls, nothing to say */
} bl_pyreader;

/* Tokenize and read the file's calls, suppressions and module-level names, with the grammar of
 * Python 3.`minor`; a file that cannot reach the SDK and has no suppression comment is only tokenized
 * (quiet set). Returns 0
 * (err set on a syntax error) or -1 when out of memory.
 * bl_py_reader_free it in every case. */
int bl_py_read(bl_pyreader *rd, const boxlint__mem *m, const char *s, size_t n, int minor);
/* The Python minor version a check reads a file with under `opts` (NULL: the default):
 * opts->python_minor, else its config's target version, else BOXLINT_PYTHON_MINOR_DEFAULT. */
int bl_py_minor(const boxlint_options *opts);
/* opts (NULL: the defaults) names no Python version outside 3.8..3.14 (else EINVAL). */
int bl_py_minor_ok(const boxlint_options *opts);
void bl_py_reader_free(bl_pyreader *rd);
/* Shared by reader.c and scan.c. */
int bl_py_call_args(bl_pyreader *rd, size_t *i, bl_pyarg **args, size_t *nargs);
bl_pyval *bl_py_parse_expr(bl_pyreader *rd, size_t *i);
bl_pyval *bl_py_parse_policy(bl_pyreader *rd, size_t *i);

/* The value a NAME stands for: the literal bound once at module level when nothing else can
 * change it (analyze.c), or a DYNAMIC value that says why not. NULL when out of memory. */
bl_pyval *bl_py_resolve(bl_pyreader *rd, const bl_pyval *name);
/* Suppressions (suppress.c): each `# boxlint: ignore=` comment of rd silences the warnings and
 * infos of its rules among the findings [first, end) of r on its line (sorted by line first);
 * an id that silences nothing, errors and not-static among them, and a malformed comment are
 * an unused-suppression of severity `sev` (OFF: not reported). */
int bl_py_suppress(boxlint_report *r, size_t first, const bl_pyreader *rd, boxlint_severity sev);
/* The findings [first, end) in file order (stable), each line and column computed from its
 * offsets in one sweep over s[0..n). Returns 0 or -1 when out of memory. */
int bl_py_order_and_place(boxlint_report *r, size_t first, const char *s, size_t n);
/* The file's SDK calls, references, names and what taints them, from its syntax tree. Returns 0
 * or -1 when out of memory. */
int bl_py_analyze(bl_pyreader *rd, const struct bl_pynode *root);
/* The occurrences of every name, into the name table, once (analyze.c; bl_py_resolve calls it
 * first: a file whose SDK arguments name nothing never builds the table). 0, -1 out of memory. */
int bl_py_names(bl_pyreader *rd);
/* The name table (analyze.c): the key of an identifier (its NFKC form, in the reader's arena when
 * it differs), the entry of a key (created; NULL when out of memory), its slot (found or empty;
 * the table must have room). */
int bl_py_name_key(bl_pyreader *rd, const char *s, size_t n, const char **out, size_t *outlen);
bl_pyname *bl_py_name_entry(bl_pyreader *rd, const char *k, size_t kl);
bl_pyname **bl_py_name_slot(bl_pyreader *rd, const char *k, size_t kl);
/* A DYNAMIC value over s[start, end) that says why (values.c); NULL when out of memory. */
bl_pyval *bl_py_dynamic(bl_pyreader *rd, size_t start, size_t end, const char *why);
/* The value of an expression node: a literal as reader.c reads it, a NetworkPolicy call, or a
 * DYNAMIC value naming what it is. NULL when out of memory. */
bl_pyval *bl_py_node_value(bl_pyreader *rd, const struct bl_pynode *n);

/*----------------------------------------------------------------------------------------------
 * Moving findings into the file (place.c) and fixes in Python syntax (edit.c)
 *--------------------------------------------------------------------------------------------*/

/* A policy as the file writes it: the value (a dict or a NetworkPolicy call) and its fields,
 * each NULL when absent. `map[k][i]` is the index in the file's list of checked entry i. */
typedef struct bl_pypolicy {
  const bl_pyval *v, *type, *lists[2];
  size_t *map[2];
  size_t nchecked[2];
} bl_pypolicy;

/* What a call's findings point into. */
typedef struct bl_pytarget {
  const bl_pycall *call;
  const bl_pyval *field[5];   /* by field: see enum below */
  const bl_pyval **cmds;      /* the checked commands */
  size_t *cmd_index;          /* and their index in the call's list */
  size_t ncmds;
  const bl_pypolicy *policy;  /* or NULL */
} bl_pytarget;

enum { BL_F_NAME, BL_F_COMMANDS, BL_F_CPU, BL_F_MEMORY, BL_F_TEMPLATE_ID = 0, BL_F_VERSION = 2,
       BL_F_LIFESPAN = 3 };

/* Copy the findings of `from` (checks of the call `t`) into `to`, positioned in the file and
 * with fixes as edits of the file. Returns 0 or -1 when out of memory. */
int bl_py_place(boxlint_report *to, const boxlint_report *from, size_t first, const char *s,
                size_t n, const bl_pytarget *t);
/* The edit that a fix of a string value becomes: replace decoded bytes [o, o + l) of `v` with
 * `text`. Returns 1 and fills *fix, 0 with *why when the literal cannot take it. */
int bl_py_edit_string(boxlint_report *r, const char *s, const bl_pyval *v, size_t o, size_t l,
                      const char *text, size_t tl, boxlint_fix *fix, const char **why);
/* The edit that inserts `text` (a string) at the end of the policy's deny_out, keeping the
 * layout; adds the deny_out member when absent. */
int bl_py_edit_insert_deny(boxlint_report *r, const char *s, size_t n, const bl_pypolicy *p,
                           const char *text, size_t tl, boxlint_fix *fix, const char **why);

/*----------------------------------------------------------------------------------------------
 * What a check keeps for boxlint_check_python_cached (check.c makes it, cache.c reuses it)
 *--------------------------------------------------------------------------------------------*/

typedef struct bl_pykeep {
  const boxlint__mem *m;   /* the cache's allocator: the reader and the arrays below */
  bl_pyreader rd;          /* the file as read, kept (rd.s is the cache's copy of the text) */
  boxlint_report *raw;     /* the findings before ordering and suppressions, in check order:
                              each call's, then the references' */
  size_t *lo, *hi;         /* call i's findings: raw->diags[lo[i], hi[i]) */
  size_t refs_lo;          /* the references': raw->diags[refs_lo, end) */
  size_t *policies;        /* the policies the bindings checked (their start offsets) */
  size_t npol;
} bl_pykeep;

/* The check of text s[0..n) (UTF-8 read in place) into r, as boxlint_check_python gives it,
 * keeping the reader and the raw findings in kp (kp->raw made by the caller, cleared here).
 * Returns the status; *kept 1 when kp holds a check to reuse (0 on a syntax error or out of
 * memory: kp is then released). */
boxlint_status bl_py_check_keep(bl_pykeep *kp, boxlint_report *r, const char *s, size_t n,
                                const boxlint_options *opts, const boxlint_policy_options *popts,
                                int *kept);
void bl_py_keep_release(bl_pykeep *kp);
/* The findings of call `ci` of kp, checked again, appended to `into` (raw: no positions). 0, -1
 * out of memory. */
int bl_py_recheck_call(bl_pykeep *kp, boxlint_report *into, boxlint_report *tmp, size_t ci,
                       const boxlint_options *opts, const boxlint_policy_options *popts);
/* The findings [first, end) of r in file order with positions, the suppressions applied (the
 * last steps of a check). 0, -1 out of memory. */
int bl_py_finish(boxlint_report *r, size_t first, const bl_pyreader *rd,
                 const boxlint_options *opts);
/* unused-suppression's severity under opts (check.c). */
boxlint_severity bl_py_unused_severity(const boxlint_options *opts);
/* Append copies of diagnostics d[0..n) to r, their strings and fixes owned by r. 0, -1. */
int bl_py_copy_diags(boxlint_report *r, const boxlint_diag *d, size_t n);
/* Whether the file s[0..n) can reach the SDK (reach.c): it imports `budai` or names one of its
 * calls or resources, as an identifier (NFKC) or inside a string literal; what the tokens `t`
 * do not cover (after a tokenizer error; all of s when t is NULL) is searched as bytes. 1 or 0.
 * A file that does not parse and cannot reach the SDK is not reported. */
int bl_py_reaches_sdk(const char *s, size_t n, const bl_pytoks *t);
/* Does s[a, b) hold one of those words anywhere (bytes)? 1 or 0. */
int bl_py_holds_sdk_word(const char *s, size_t a, size_t b);
/* Is w[0..l) reflection or code run from text (reflect.c's table) as a name (where 1), an
 * attribute (2) or a module imported (4)? 1 or 0. */
int bl_py_reflect_word(const char *w, size_t l, unsigned where);
/* Words analyze.c and resolve.c look for (names of the SDK, of reflection, builtins). */
int bl_py_special_word(const char *w, size_t l);
int bl_py_builtin_word(const char *w, size_t l);
/* For tests: the checks a cache did whole, and those it reused after a string edit, after an
 * identifier edit, or with the text unchanged (out[0..3]). */
void bl_py_cache_stats(const boxlint_python_cache *c, size_t out[4]);

#endif

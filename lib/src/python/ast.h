/* Private to python/: the syntax tree of a Python file (parse.c, parse_expr.c, parse_fstr.c)
 * and what reads it (analyze.c).
 *
 * The parser reads the token stream of tokens.c with the grammar of the CPython version it is
 * given (3.8 to 3.14: bl_py_parse's `minor`) and either builds the tree or gives the first
 * syntax error, as that version's `ast.parse` does (same verdict). The tree
 * is generic: every node has a kind, a role (what it is to its parent), its source span in bytes,
 * the identifier it names (if any) and an ordered list of children. Nodes live in an arena.
 *
 * Children, in source order, by parent kind (role in brackets):
 *   MODULE        statements [BODY]
 *   FUNCDEF       decorators [DECORATOR], NAMEDEF [NAME], type parameters [TYPEPARAM]...,
 *                 ARGUMENTS [ARGS], returns [RETURNS], statements [BODY]; flag BL_PYF_ASYNC for
 *                 `async def`
 *   CLASSDEF      decorators [DECORATOR], NAMEDEF [NAME], type parameters [TYPEPARAM]...,
 *                 bases [ARG], KEYWORD [KEYWORD], statements [BODY]
 *                 A def or class with type parameters (3.12+, `def f[T](x: T)`, `class A[T]`)
 *                 opens an annotation scope (PEP 695) between the enclosing scope and the
 *                 function's or class's own: its TYPEPARAM names are bound there and seen by
 *                 the parameters' annotations and defaults, the return annotation, the bases
 *                 and keywords and the body; the def's or class's NAMEDEF is bound in the
 *                 enclosing scope. The decorators are evaluated outside it.
 *   TYPEALIAS     `type X[T] = value` (3.12+): NAMEDEF [NAME] (binds X in the enclosing scope,
 *                 like an assignment), type parameters [TYPEPARAM]..., value [VALUE]. The value
 *                 is evaluated lazily, in an annotation scope holding the type parameters.
 *   TYPEVAR / TYPEVARTUPLE / PARAMSPEC  a type parameter `T`, `*Ts`, `**P` [TYPEPARAM]:
 *                 NAMEDEF [NAME] (bound in the annotation scope), bound or constraints
 *                 [ANNOTATION]? (`T: int`, `T: (int, str)`: TYPEVAR only), default [DEFAULT]?
 *                 (3.13+: `T = int`, `*Ts = *tuple[int]`); bound and default are evaluated
 *                 lazily, in the annotation scope
 *   RETURN        value [VALUE]?
 *   DELETE        targets [TARGET] (ctx DEL)
 *   ASSIGN        targets [TARGET] (ctx STORE, one per `=`), value [VALUE] (last)
 *   AUGASSIGN     target [TARGET], value [VALUE]; `op` the operator token's text span in ident
 *   ANNASSIGN     target [TARGET], annotation [ANNOTATION], value [VALUE]?; BL_PYF_SIMPLE when
 *                 the target is a bare name not in parentheses
 *   FOR / ASYNC   target [TARGET], iter [ITER], [BODY]..., [ORELSE]...  (BL_PYF_ASYNC)
 *   WHILE         test [TEST], [BODY]..., [ORELSE]...
 *   IF            test [TEST], [BODY]..., [ORELSE]... (an `elif` is one IF in ORELSE)
 *   WITH          WITHITEM [ITEM]..., [BODY]... (BL_PYF_ASYNC)
 *   WITHITEM      context [VALUE], optional vars [TARGET]?
 *   MATCH         subject [SUBJECT], MATCHCASE [CASE]...
 *   MATCHCASE     pattern [PATTERN], guard [TEST]?, [BODY]...
 *   RAISE         exc [VALUE]?, cause [CAUSE]?
 *   TRY / TRYSTAR [BODY]..., EXCEPTHANDLER [HANDLER]..., [ORELSE]..., [FINAL]...
 *   EXCEPTHANDLER type [TEST]?, NAMEDEF [NAME]?, [BODY]...
 *   ASSERT        test [TEST], msg [VALUE]?
 *   IMPORT        ALIAS [ITEM]...
 *   IMPORTFROM    ALIAS [ITEM]... (BL_PYF_STAR for `import *`, no children then); `ident` the
 *                 module's dotted name (empty for `from . import x`)
 *   ALIAS         NAMEDEF [NAME]: the name bound (asname, or the first part of `import a.b`);
 *                 `ident` the imported (dotted) name, `ident2` the asname or empty
 *   GLOBAL / NONLOCAL  NAMEDEF [NAME]...
 *   EXPR          value [VALUE]
 *   PASS BREAK CONTINUE  no children
 *   ARGUMENTS     ARG [ARG]... in order (posonly, plain, *vararg, kwonly, **kwarg: the ARG's
 *                 flags say which: BL_PYF_VARARG, BL_PYF_KWARG, BL_PYF_KWONLY, BL_PYF_POSONLY),
 *                 defaults as children [DEFAULT] of their ARG
 *   ARG           NAMEDEF [NAME], annotation [ANNOTATION]?, default [DEFAULT]?
 *   NAMEDEF       none; `ident` the name: any name a statement, parameter or pattern binds or
 *                 declares that is not a NAME node (def/class names, parameters, import
 *                 names, global/nonlocal names, except ... as NAME, pattern captures)
 * Expressions:
 *   BOOLOP        values [VALUE]... ; BINOP left [LEFT], right [RIGHT]; UNARYOP operand [OPERAND]
 *                 (op text in ident for all three)
 *   NAMEDEXPR     target [TARGET] (a NAME, ctx STORE), value [VALUE]
 *   LAMBDA        ARGUMENTS [ARGS], body [VALUE]
 *   IFEXP         body [VALUE], test [TEST], orelse [ORELSE]
 *   DICT          pairs [KEY] [VALUE], or `**x` as [DSTAR]
 *   SET LIST TUPLE  elements [ELT] (STARRED for *x); ctx for LIST/TUPLE targets
 *   LISTCOMP SETCOMP GENEXP  element [ELT], COMPREHENSION [GENERATOR]...
 *   DICTCOMP      key [KEY], value [VALUE], COMPREHENSION [GENERATOR]...
 *   COMPREHENSION target [TARGET], iter [ITER], ifs [TEST]... (BL_PYF_ASYNC)
 *   AWAIT YIELD YIELDFROM  value [VALUE]?
 *   COMPARE       left [LEFT], comparators [RIGHT]... (operators not kept)
 *   CALL          func [FUNC], positional args [ARG]... (STARRED for *x), KEYWORD [KEYWORD]...
 *   KEYWORD       value [VALUE]; `ident` the keyword's name, empty for `**x`
 *   FORMATTEDVALUE  value [VALUE], format spec [FORMAT]? (a JOINEDSTR)
 *   JOINEDSTR     FORMATTEDVALUE [VALUE]... : an f-string (or a concatenation with one)
 *   TEMPLATESTR   FORMATTEDVALUE [VALUE]... : a template string (3.14+, PEP 750: `t"..."`, or
 *                 a concatenation of t-strings): it evaluates to a string.templatelib.Template,
 *                 NOT a str; never a string constant (each field's expression is evaluated,
 *                 as an f-string's)
 *   CONSTANT      a literal: BL_PYF_STR, BL_PYF_BYTES, BL_PYF_NUM, BL_PYF_TRUE, BL_PYF_FALSE,
 *                 BL_PYF_NONE, BL_PYF_ELLIPSIS; strings span all their adjacent pieces
 *   ATTRIBUTE     value [VALUE]; `ident` the attribute's name; ctx
 *   SUBSCRIPT     value [VALUE], slice [SLICE]; ctx
 *   STARRED       value [VALUE]; ctx
 *   NAME          `ident` the name; ctx
 *   SLICE         lower [LOWER]? upper [UPPER]? step [STEP]?
 * Patterns (MATCHCASE's [PATTERN]):
 *   MATCHVALUE value [VALUE]; MATCHSINGLETON; MATCHSEQUENCE patterns [ELT]...;
 *   MATCHMAPPING keys [KEY] patterns [VALUE]..., rest NAMEDEF [NAME]?;
 *   MATCHCLASS cls [FUNC], patterns [ARG]..., keyword patterns [KEYWORD] (ident the keyword)
 *   whose child is the pattern [VALUE]; MATCHSTAR NAMEDEF [NAME]? (none for `*_`);
 *   MATCHAS pattern [PATTERN]?, NAMEDEF [NAME]? (none for `_`); MATCHOR patterns [ELT]...
 *
 * Spans: `start`/`end` are byte offsets in the source of the whole node (for a statement, its
 * first token to its last token's end, without the NEWLINE). `tok` is the index, in the
 * reader's significant-token array (`bl_pyreader.sig`), of the node's first token, or
 * SIZE_MAX for nodes inside an f-string's replacement field (BL_PYF_INNER is set on those; their
 * byte offsets are still right). Identifiers (`ident`, `ident2`) are byte spans of the source;
 * `norm`/`norm_len` hold the identifier's NFKC form when it differs from the bytes (NULL
 * otherwise): compare names with bl_pyast_ident_eq.
 *
 * Details of the parser's trees (parse*.c):
 *   - A decorated def or class starts at its first '@'. A group `(x)` is the node inside, its
 *     span without the parentheses, with BL_PYF_PAREN; a parenthesized tuple has the flag too
 *     and spans its parentheses. A `*args` / `**kw` ARG spans the name only.
 *   - A dotted name's `ident` (ALIAS's imported name, IMPORTFROM's module) spans its first to
 *     its last part as written (`a . b` keeps the spaces). IMPORTFROM's `ident2` spans the
 *     leading dots of a relative import (empty for an absolute one); `ident` is then empty for
 *     `from . import x`.
 *   - KEYWORD's `ident` is empty (ident == ident_end) for `**x`; BOOLOP's is its first
 *     operator. MATCHSINGLETON has BL_PYF_TRUE, BL_PYF_FALSE or BL_PYF_NONE; MATCHAS for `_`
 *     has no child. MATCHVALUE's value is a CONSTANT, a negative number (UNARYOP), a complex
 *     (BINOP), a string, or a NAME/ATTRIBUTE chain (`a.b`).
 *   - A FORMATTEDVALUE spans its field `{...}`; its `tok` is the string token's (it is no
 *     INNER node), the expression under it is. A format spec [FORMAT] is a JOINEDSTR of the
 *     spec's nested fields. Any adjacent piece that is an f-string makes the whole
 *     concatenation one JOINEDSTR (even without a field); the constant parts are not nodes.
 *     A field's expression is parsed as CPython 3.11 does, from "(" text ")": a tuple
 *     `f"{a, b}"` spans the field's braces; from 3.12 (PEP 701) the field's text may hold any
 *     token (the tokenizer found its end) and `f"{*a}"` is a STARRED. A TEMPLATESTR's fields are
 *     read as an f-string's.
 *   - bl_pyast_ident_eq compares with `name` as given: pass it in NFKC (ASCII names are). */
#ifndef BOXLINT_PYTHON_AST_H
#define BOXLINT_PYTHON_AST_H
#include <stddef.h>
#include <stdint.h>
#include "python/python_int.h"

typedef enum bl_pyk {
  /* statements */
  BL_PK_MODULE, BL_PK_FUNCDEF, BL_PK_CLASSDEF, BL_PK_RETURN, BL_PK_DELETE, BL_PK_ASSIGN,
  BL_PK_AUGASSIGN, BL_PK_ANNASSIGN, BL_PK_FOR, BL_PK_WHILE, BL_PK_IF, BL_PK_WITH, BL_PK_WITHITEM,
  BL_PK_MATCH, BL_PK_MATCHCASE, BL_PK_RAISE, BL_PK_TRY, BL_PK_TRYSTAR, BL_PK_EXCEPTHANDLER,
  BL_PK_ASSERT, BL_PK_IMPORT, BL_PK_IMPORTFROM, BL_PK_ALIAS, BL_PK_GLOBAL, BL_PK_NONLOCAL,
  BL_PK_EXPR, BL_PK_PASS, BL_PK_BREAK, BL_PK_CONTINUE, BL_PK_ARGUMENTS, BL_PK_ARG, BL_PK_NAMEDEF,
  /* expressions */
  BL_PK_BOOLOP, BL_PK_NAMEDEXPR, BL_PK_BINOP, BL_PK_UNARYOP, BL_PK_LAMBDA, BL_PK_IFEXP,
  BL_PK_DICT, BL_PK_SET, BL_PK_LISTCOMP, BL_PK_SETCOMP, BL_PK_DICTCOMP, BL_PK_GENEXP,
  BL_PK_COMPREHENSION, BL_PK_AWAIT, BL_PK_YIELD, BL_PK_YIELDFROM, BL_PK_COMPARE, BL_PK_CALL,
  BL_PK_KEYWORD, BL_PK_FORMATTEDVALUE, BL_PK_JOINEDSTR, BL_PK_CONSTANT, BL_PK_ATTRIBUTE,
  BL_PK_SUBSCRIPT, BL_PK_STARRED, BL_PK_NAME, BL_PK_LIST, BL_PK_TUPLE, BL_PK_SLICE,
  /* patterns */
  BL_PK_MATCHVALUE, BL_PK_MATCHSINGLETON, BL_PK_MATCHSEQUENCE, BL_PK_MATCHMAPPING,
  BL_PK_MATCHCLASS, BL_PK_MATCHSTAR, BL_PK_MATCHAS, BL_PK_MATCHOR,
  /* Python 3.12+: the type statement, type parameters; 3.14+: template strings */
  BL_PK_TYPEALIAS, BL_PK_TYPEVAR, BL_PK_TYPEVARTUPLE, BL_PK_PARAMSPEC, BL_PK_TEMPLATESTR,
  BL_PK__COUNT
} bl_pyk;

typedef enum bl_pyrole {
  BL_PR_NONE, BL_PR_BODY, BL_PR_ORELSE, BL_PR_FINAL, BL_PR_HANDLER, BL_PR_DECORATOR, BL_PR_NAME,
  BL_PR_ARGS, BL_PR_RETURNS, BL_PR_ARG, BL_PR_KEYWORD, BL_PR_TARGET, BL_PR_VALUE,
  BL_PR_ANNOTATION, BL_PR_TEST, BL_PR_ITER, BL_PR_ITEM, BL_PR_SUBJECT, BL_PR_CASE, BL_PR_PATTERN,
  BL_PR_CAUSE, BL_PR_DEFAULT, BL_PR_LEFT, BL_PR_RIGHT, BL_PR_OPERAND, BL_PR_KEY, BL_PR_DSTAR,
  BL_PR_ELT, BL_PR_GENERATOR, BL_PR_FUNC, BL_PR_FORMAT, BL_PR_SLICE, BL_PR_LOWER, BL_PR_UPPER,
  BL_PR_STEP, BL_PR_TYPEPARAM
} bl_pyrole;

enum {
  BL_PYF_LOAD = 0, BL_PYF_STORE = 1, BL_PYF_DEL = 2, BL_PYF_CTX = 3, /* ctx mask */
  BL_PYF_ASYNC = 1u << 2, BL_PYF_SIMPLE = 1u << 3, BL_PYF_STAR = 1u << 4,
  BL_PYF_VARARG = 1u << 5, BL_PYF_KWARG = 1u << 6, BL_PYF_KWONLY = 1u << 7,
  BL_PYF_POSONLY = 1u << 8, BL_PYF_INNER = 1u << 9, BL_PYF_PAREN = 1u << 10,
  /* CONSTANT kinds */
  BL_PYF_STR = 1u << 11, BL_PYF_BYTES = 1u << 12, BL_PYF_NUM = 1u << 13, BL_PYF_TRUE = 1u << 14,
  BL_PYF_FALSE = 1u << 15, BL_PYF_NONE = 1u << 16, BL_PYF_ELLIPSIS = 1u << 17
};

typedef struct bl_pynode bl_pynode;
struct bl_pynode {
  uint8_t kind;            /* bl_pyk */
  uint8_t role;            /* bl_pyrole: what this node is to its parent */
  uint32_t flags;          /* BL_PYF_* */
  size_t start, end;       /* source bytes */
  size_t tok;              /* first significant token, or SIZE_MAX (BL_PYF_INNER) */
  size_t ident, ident_end; /* the identifier (or operator) named, or ident == ident_end */
  size_t ident2, ident2_end;
  const char *norm;        /* NFKC form of ident when it differs, else NULL */
  size_t norm_len;
  bl_pynode *parent, *kid, *last, *next; /* tree links: first and last child, next sibling */
  uint32_t nkids;
};

/* The parse of a tokenized file. */
typedef struct bl_pyast {
  bl_pynode *root;          /* MODULE, or NULL on a syntax error */
  const char *err;          /* the first syntax error (static text), or NULL */
  size_t err_off;           /* its byte offset */
  size_t nnodes;
} bl_pyast;

/* Parse the significant tokens `sig[0..nsig)` of `toks` (over source s[0..n)) into `out`, its
 * nodes allocated from `arena`. Returns 0 (out->err set on a syntax error, then root is NULL),
 * or -1 when out of memory. `toks` may hold a tokenizer error (toks->err; sig then indexes the
 * tokens before it, and no ENDMARKER ends them): out->err is then the error CPython reports,
 * the tokenizer's or, when the parser fails before reaching it and it is of the kind CPython's
 * parser meets only when it gets there (indentation, continuation), the parser's. Errors in
 * escape sequences are not the parser's (scan.c decodes every literal); the mixing of bytes
 * and str literals, f-strings' replacement fields and CPython's check of identifiers with
 * non-ASCII characters (verify_identifier, before NFKC) are. Its nesting is bounded as that
 * CPython's parser's stack is (bl_py_limits): beyond, the error is BL_PY_STACK_MSG (CPython's
 * MemoryError); CPython's other limits, 200 brackets and 100 indentation levels, are in the
 * tokenizer (tokens.c). */
#define BL_PY_STACK_MSG "Parser stack overflowed - Python source too complex to parse"
/* Nor is the tree it builds deeper than 3.11's and 3.12's ast.parse takes (their RecursionError,
 * BL_PY_RECURSION_MSG), nor, in any version, than BL_PY_MAX_TREE_DEPTH nodes (chains such as
 * a.b.c..., x+x+..., f()()..., elif...elif are built by loops, not by recursion, and CPython
 * takes them deeper): a recursive walk of the tree is bounded by it; beyond, the error is "too
 * deeply nested", boxlint's own limit. */
#define BL_PY_RECURSION_MSG "maximum recursion depth exceeded during ast construction"
#define BL_PY_MAX_TREE_DEPTH 7000
/* The limits of CPython 3.`minor`'s parser as bl_py_parse applies them: the parser's stack
 * (max_depth, in the parser's nesting units), what a bracket adds to it (3.8's parser), and
 * the tree's depth (nodes, the module counted). */
void bl_py_limits(int minor, int *max_depth, int *bracket_cost, size_t *tree_depth);
int bl_py_parse(const boxlint__mem *m, boxlint__arena *arena, const char *s, size_t n,
                const bl_pytoks *toks, const size_t *sig, size_t nsig, int minor,
                bl_pyast *out);

/* The first child of n in `role`, or NULL (analyze.c). */
const bl_pynode *bl_py_child(const bl_pynode *n, int role);
/* Is n's identifier `name` (NFKC)? And is n an ATTRIBUTE of that name? (analyze.c) */
int bl_py_ident_is(const bl_pyreader *rd, const bl_pynode *n, const char *name);
int bl_py_attr_is(const bl_pyreader *rd, const bl_pynode *n, const char *name);
/* The pre-order successor of n within the tree, or NULL (analyze.c). */
const bl_pynode *bl_py_next(const bl_pynode *n);
/* Record a reference boxlint cannot follow, n's span, said with `why` (analyze.c); 0, -1 OOM. */
int bl_py_add_ref(bl_pyreader *rd, const bl_pynode *n, const char *why);
/* The same for a recorded SDK call's whole span, with no node (analyze.c). */
int bl_py_add_call_ref(bl_pyreader *rd, const bl_pycall *c, const char *why);
/* The calls through what is not followed, and the calls of the SDK's names the file binds
 * itself, recorded as references (through.c); 0, -1 out of memory. */
int bl_py_calls_through(bl_pyreader *rd, const bl_pynode *root);
int bl_py_shadowed_calls(bl_pyreader *rd);
/* The SDK call (bl_call_kind) a CALL node is, or -1 (analyze.c). */
int bl_py_sdk_call(const bl_pyreader *rd, const bl_pynode *call);
/* The SDK call a CALL node is as written, without following names (analyze.c). */
int bl_py_sdk_call_direct(const bl_pyreader *rd, const bl_pynode *call);
/* The SDK method (BL_CALL_CREATE/UPDATE) a call reaches through names bound to the SDK's objects
 * or a functools.partial (*partial: the partial(...) call whose arguments come first), or -1
 * (alias.c). */
int bl_py_alias_call(const bl_pyreader *rd, const bl_pynode *call, const bl_pynode **partial);
/* Follow the names bound to the SDK's objects: record the calls through them and drop the
 * references their bindings made (alias.c). 0, -1 out of memory. */
int bl_py_aliases(bl_pyreader *rd, const bl_pynode *root);
/* bl_py_add_call for a call through a partial: the partial's arguments (but the method; those
 * the call passes again by keyword left out), then the call's. */
int bl_py_add_call_partial(bl_pyreader *rd, int kind, const bl_pynode *n, const bl_pynode *partial);
/* Record the SDK call n of kind `kind` with its arguments' values (values.c); 0, -1 OOM. */
int bl_py_add_call(bl_pyreader *rd, int kind, const bl_pynode *n);

/* Are the identifiers of a and b the same name, as Python compares them (NFKC)? */
int bl_pyast_ident_eq(const char *s, const bl_pynode *a, const char *name, size_t len);

#endif

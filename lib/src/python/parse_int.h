/* Private to the parser (parse.c, parse_stmt.c, parse_expr.c, parse_args.c, parse_fstr.c,
 * parse_pat.c): its state, the token codes it reads, and the functions the files share.
 *
 * The parser is a recursive descent over the significant tokens, deterministic wherever the
 * grammar allows (a display, a call's arguments, a statement decide their form after their
 * first element) and backtracking in two places only (`with (` and the soft keyword `match`),
 * so that it stays linear. A function that fails returns NULL: either with a hard error set
 * (p->err: out of memory, a string or identifier error, the nesting limit), which nothing
 * backtracks over, or softly, the syntax error that the top reports as CPython does: the
 * message of the first specific error found outside an attempt (p->smsg), else "invalid
 * syntax" at the furthest token the parser looked at (p->far). */
#ifndef BOXLINT_PYTHON_PARSE_INT_H
#define BOXLINT_PYTHON_PARSE_INT_H
#include "python/ast.h"

/* What a significant token is: its kind, keyword or operator. */
enum {
  T_END, T_NEWLINE, T_INDENT, T_DEDENT, T_NAME, T_NUMBER, T_STRING, T_OP, /* other operator */
  /* keywords */
  K_FALSE, K_NONE, K_TRUE, K_AND, K_AS, K_ASSERT, K_ASYNC, K_AWAIT, K_BREAK, K_CLASS,
  K_CONTINUE, K_DEF, K_DEL, K_ELIF, K_ELSE, K_EXCEPT, K_FINALLY, K_FOR, K_FROM, K_GLOBAL, K_IF,
  K_IMPORT, K_IN, K_IS, K_LAMBDA, K_NONLOCAL, K_NOT, K_OR, K_PASS, K_RAISE, K_RETURN, K_TRY,
  K_WHILE, K_WITH, K_YIELD,
  /* operators */
  O_LPAR, O_RPAR, O_LSQB, O_RSQB, O_LBRACE, O_RBRACE, O_COLON, O_COMMA, O_SEMI, O_PLUS, O_MINUS,
  O_STAR, O_SLASH, O_VBAR, O_AMPER, O_LESS, O_GREATER, O_EQUAL, O_DOT, O_PERCENT, O_EQEQUAL,
  O_NOTEQUAL, O_LESSEQUAL, O_GREATEREQUAL, O_TILDE, O_CIRCUMFLEX, O_LSHIFT, O_RSHIFT,
  O_DOUBLESTAR, O_DOUBLESLASH, O_AT, O_RARROW, O_ELLIPSIS, O_COLONEQUAL,
  O_AUG_FIRST, /* the augmented assignments, O_AUG_FIRST..O_AUG_LAST */
  O_PLUSEQ = O_AUG_FIRST, O_MINUSEQ, O_STAREQ, O_SLASHEQ, O_DSLASHEQ, O_PERCENTEQ, O_DSTAREQ,
  O_RSHIFTEQ, O_LSHIFTEQ, O_AMPEREQ, O_VBAREQ, O_CIRCUMFLEXEQ, O_ATEQ,
  O_AUG_LAST = O_ATEQ
};

typedef struct bl_pp {
  const boxlint__mem *m;
  boxlint__arena *arena;
  const char *s;          /* the text the tokens index: the file, or a replacement field's copy */
  size_t n;
  const bl_pytok *tv;
  const size_t *sig;
  size_t nreal;           /* the tokens sig[0..nreal) */
  size_t nsig;            /* nreal + 1: a virtual ENDMARKER follows them (endtok) */
  bl_pytok endtok;
  uint8_t *code;          /* per significant token: T_, K_ or O_ */
  size_t pos, far;        /* the next token; the furthest looked at */
  size_t delta;           /* a text offset + delta = the file's offset */
  int inner;              /* parsing a replacement field */
  int minor;              /* the grammar of Python 3.minor */
  int field_paren;        /* a 3.12+ replacement field: its "(" text ")" may hold `*a` */
  int ascii;              /* s holds no byte over 0x7f: no identifier to check or normalise */
  int depth;              /* nesting, against max_depth */
  int max_depth;          /* the version's parser stack (bl_py_limits) */
  int bracket_cost;       /* what a bracket adds to depth beyond its expressions (3.8) */
  int trying;             /* inside an attempt that may be backtracked */
  const char *err;        /* hard error (static text) and its file offset */
  size_t err_off;
  int oom;
  const char *late;       /* a call's arguments' error, reported after them */
  const char *smsg;       /* the first specific syntax error outside an attempt */
  size_t soff;
  size_t nnodes;
  bl_pynode *pre;         /* an expression's first primary, parsed: factor() takes it */
} bl_pp;

#define PP_FAILED(p) ((p)->err != NULL || (p)->oom)

/* Tokens (parse.c; the smallest here, inline: the parser calls them at every step). */
/* code of the next token (marks it looked at) */
static inline int pp_peek(bl_pp *p) {
  if (p->pos > p->far) p->far = p->pos;
  return p->code[p->pos];
}
/* of the one after */
static inline int pp_peek2(bl_pp *p) {
  size_t i = p->pos + 1 < p->nsig ? p->pos + 1 : p->nsig - 1;
  if (i > p->far) p->far = i;
  return p->code[i];
}
/* the next token is `code` */
static inline int pp_at(bl_pp *p, int code) { return pp_peek(p) == code; }
/* ...then consume it */
static inline int pp_eat(bl_pp *p, int code) {
  if (pp_peek(p) != code) return 0;
  if (p->pos + 1 < p->nsig) p->pos++;
  return 1;
}
static inline const bl_pytok *pp_tok(const bl_pp *p, size_t i) {
  return i < p->nreal ? &p->tv[p->sig[i]] : &p->endtok;
}
/* a text offset in the file */
static inline size_t pp_off(const bl_pp *p, size_t text_off) { return text_off + p->delta; }
int pp_name_is(bl_pp *p, size_t i, const char *word); /* token i is the NAME `word` */
int pp_starts_expr(int code);             /* may start an expression (not `*`, `yield`) */
int pp_enter(bl_pp *p);                   /* nesting + 1: 0, or -1 (hard error) */
void pp_leave(bl_pp *p);
/* A bracket's own cost to the depth (3.8's parser): 0, or -1 (hard error); pp_bracket_leave. */
int pp_bracket_enter(bl_pp *p);
void pp_bracket_leave(bl_pp *p);

/* Nodes (parse.c). */
bl_pynode *pp_node(bl_pp *p, int kind, size_t tok); /* starting at token tok */
bl_pynode *pp_node_at(bl_pp *p, int kind, size_t start, size_t end); /* file offsets */
void pp_add(bl_pynode *parent, bl_pynode *kid, int role);
void pp_end(bl_pp *p, bl_pynode *n);      /* ends at the last token consumed */
void pp_span(bl_pynode *n, const bl_pynode *first, const bl_pynode *last);
int pp_ident(bl_pp *p, bl_pynode *n, size_t tok); /* ident = token tok's text (+ NFKC) */
int pp_ident_span(bl_pp *p, bl_pynode *n, size_t a, size_t b, int second); /* text offsets */
bl_pynode *pp_namedef(bl_pp *p, size_t tok);      /* a NAMEDEF for the NAME token tok */
int pp_check_idents(bl_pp *p);            /* CPython's verify_identifier on every NAME */
/* The codes of the tokens sig[0..nsig) and of a virtual ENDMARKER after them (nsig + 1 codes,
 * malloc'd with m), or NULL. */
uint8_t *pp_classify(const boxlint__mem *m, const char *s, const bl_pytok *tv, const size_t *sig,
                     size_t nsig);
void *pp_fail(bl_pp *p, const char *msg, size_t file_off); /* a specific syntax error: NULL */
void *pp_hard(bl_pp *p, const char *msg, size_t file_off); /* a hard error: NULL */
void *pp_oom(bl_pp *p);

/* Statements (parse.c, parse_stmt.c). */
int pp_statements(bl_pp *p, bl_pynode *parent, int role); /* until DEDENT or ENDMARKER */
int pp_block(bl_pp *p, bl_pynode *parent, int role);
/* A compound statement added to parent: 1, 0 when the next is none (nothing consumed), -1. */
int pp_compound(bl_pp *p, bl_pynode *parent, int role);
int pp_simple_stmts(bl_pp *p, bl_pynode *parent, int role);
/* `type X[T] = ...` (3.12+) into parent: 1, 0 when the next is none (nothing consumed), -1. */
int pp_type_alias(bl_pp *p, bl_pynode *parent, int role);
bl_pynode *pp_params(bl_pp *p, int lambda); /* ARGUMENTS, up to ')' or ':' (not consumed) */

/* Expressions (parse_expr.c, parse_args.c). */
bl_pynode *pp_expression(bl_pp *p);
bl_pynode *pp_named_expression(bl_pp *p);
bl_pynode *pp_star_expressions(bl_pp *p);
bl_pynode *pp_star_expression(bl_pp *p);
bl_pynode *pp_star_named_expression(bl_pp *p);
bl_pynode *pp_star_named_expressions(bl_pp *p, bl_pynode *first, size_t tok); /* TUPLE */
bl_pynode *pp_disjunction(bl_pp *p);
bl_pynode *pp_bitwise_or(bl_pp *p);
bl_pynode *pp_primary(bl_pp *p);
bl_pynode *pp_atom(bl_pp *p);
bl_pynode *pp_yield_expr(bl_pp *p);
bl_pynode *pp_rhs(bl_pp *p);               /* yield_expr | star_expressions */
int pp_call_args(bl_pp *p, bl_pynode *call, int genexp); /* after '(' to ')' consumed */
bl_pynode *pp_slices(bl_pp *p);            /* after '[' up to ']' (not consumed) */
int pp_comprehension(bl_pp *p, bl_pynode *parent); /* for_if_clauses */
bl_pynode *pp_star_target(bl_pp *p);
bl_pynode *pp_star_targets(bl_pp *p);
/* Is `n` a valid target (star_targets when star, del_targets when ctx is DEL)? Sets the ctx
 * of the names and outermost attributes and subscripts; on failure, the message and the node
 * at fault. */
int pp_target(bl_pp *p, bl_pynode *n, unsigned ctx, int star);
int pp_single_target(const bl_pynode *n);

/* Strings (parse_fstr.c). */
bl_pynode *pp_strings(bl_pp *p);

/* The match statement (parse_pat.c), as pp_compound: 0 when `match` opens no match statement. */
int pp_match(bl_pp *p, bl_pynode *parent, int role);

#endif

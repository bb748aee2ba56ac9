/*
 * The Python lexer: one token of Python 3 source at a given offset (names, numbers, string
 * literals with every prefix and quote, operators, comments, newlines, line continuations), as
 * CPython's tokenizer reads them. Indentation, brackets and logical lines are the tokenizer's
 * work (tokens.c), which calls this for each token.
 *
 * re2c generates this file's C at build time (lib/CMakeLists.txt). The span has no NUL
 * terminator: the end is a fake sentinel (re2c:eof) checked against `lim`.
 */
#include <stddef.h>
#include "python/python_int.h"

/*!re2c
  re2c:api = custom;
  re2c:api:style = free-form;
  re2c:define:YYCTYPE = "unsigned char";
  re2c:define:YYPEEK = "(cur < lim ? *cur : 0)";
  re2c:define:YYSKIP = "++cur;";
  re2c:define:YYBACKUP = "mar = cur;";
  re2c:define:YYRESTORE = "cur = mar;";
  re2c:define:YYLESSTHAN = "(cur >= lim)";
  re2c:yyfill:enable = 0;
  re2c:eof = 0;

  nl = "\r\n" | "\r" | "\n";
  any = [^];

  // String prefixes (any case): u, r, b, f, t (3.14's template strings; the tokenizer reads t
  // as a name before) and the two-letter combinations Python takes.
  prefix = [uU] | [rR] | [bB] | [fF] | [tT] | [bB][rR] | [rR][bB] | [fF][rR] | [rR][fF]
         | [tT][rR] | [rR][tT];

  // Bodies. A backslash takes the next character whatever it is (also in raw strings, where it
  // only keeps the quote from closing the literal), a \r\n line break whole; a one-line body
  // stops at a line break.
  sq1 = ([^'\\\r\n] | "\\" any | "\\\r\n")*;
  dq1 = ([^"\\\r\n] | "\\" any | "\\\r\n")*;
  sq3 = ([^'\\] | "\\" any | "'" [^'\\] | "'" "\\" any | "''" [^'\\] | "''" "\\" any)*;
  dq3 = ([^"\\] | "\\" any | "\"" [^"\\] | "\"" "\\" any | "\"\"" [^"\\] | "\"\"" "\\" any)*;

  digitpart = [0-9] ("_"? [0-9])*;
  decint = [1-9] ("_"? [0-9])* | "0" ("_"? "0")*;
  hexint = "0" [xX] ("_"? [0-9a-fA-F])+;
  octint = "0" [oO] ("_"? [0-7])+;
  binint = "0" [bB] ("_"? [01])+;
  pointfloat = digitpart? "." digitpart | digitpart ".";
  exponent = [eE] [+-]? digitpart;
  floatnum = pointfloat | (digitpart | pointfloat) exponent;
  imagnum = (floatnum | digitpart) [jJ];

  namestart = [A-Za-z_\x80-\xff];
  namechar = [A-Za-z0-9_\x80-\xff];
*/

bl_pylex bl_py_lex(const unsigned char *p, const unsigned char *lim, size_t *len) {
  const unsigned char *cur = p, *mar = p;
  bl_pylex k;
  (void)mar;
  /*!re2c
    $                                   { *len = 0; return BL_PYL_EOF; }
    [ \t\f]+                            { k = BL_PYL_SPACE; goto done; }
    "#" [^\r\n]*                        { k = BL_PYL_COMMENT; goto done; }
    nl                                  { k = BL_PYL_NEWLINE; goto done; }
    "\\" nl                             { k = BL_PYL_CONTINUATION; goto done; }
    "\\"                                { k = BL_PYL_BAD_CONTINUATION; goto done; }
    prefix? "'" sq1 "'"                 { k = BL_PYL_STRING; goto done; }
    prefix? "\"" dq1 "\""               { k = BL_PYL_STRING; goto done; }
    prefix? "'''" sq3 "'''"             { k = BL_PYL_STRING; goto done; }
    prefix? "\"\"\"" dq3 "\"\"\""       { k = BL_PYL_STRING; goto done; }
    prefix? "'" sq1                     { k = BL_PYL_UNTERMINATED; goto done; }
    prefix? "\"" dq1                    { k = BL_PYL_UNTERMINATED; goto done; }
    prefix? ("'''" | "\"\"\"")          { k = BL_PYL_UNTERMINATED3; goto done; }
    namestart namechar*                 { k = BL_PYL_NAME; goto done; }
    decint | hexint | octint | binint | floatnum | imagnum
                                        { k = BL_PYL_NUMBER; goto done; }
    "0" [0-9_]* [1-9] [0-9_]*           { k = BL_PYL_BAD_NUMBER; goto done; }
    "**=" | "//=" | ">>=" | "<<=" | "..." | "->" | ":=" | "**" | "//" | ">>" | "<<" | "<="
    | ">=" | "==" | "!=" | "+=" | "-=" | "*=" | "/=" | "%=" | "&=" | "|=" | "^=" | "@="
    | [-+*/%&|^~<>()[\]{},:;.=@]        { k = BL_PYL_OP; goto done; }
    "\x00"                              { k = BL_PYL_NUL; goto done; }
    any                                 { k = BL_PYL_BAD_CHAR; goto done; }
  */
done:
  *len = (size_t)(cur - p);
  return k;
}

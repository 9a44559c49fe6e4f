/* frontend/lexer.h — PTX tokens.  The lexer works in place over the source
 * text (no copies): a token is a pointer, a length and a position. */
#ifndef MX_FE_LEXER_H
#define MX_FE_LEXER_H

#include <stddef.h>
#include <stdint.h>
#include "frontend/diag.h"

enum fe_tok {
    TK_EOF,
    TK_WORD,    /* identifier, directive (.reg), dotted opcode (ld.global.u32), register (%r1) */
    TK_INT,     /* integer literal: ival */
    TK_FLOAT,   /* decimal float literal: fval */
    TK_F32,     /* 0fXXXXXXXX: ival holds the 32 bits */
    TK_F64,     /* 0dXXXXXXXXXXXXXXXX: ival holds the 64 bits */
    TK_STRING,  /* "..." (s/len include the quotes) */
    TK_PUNCT,   /* one character: , ; : [ ] { } ( ) < > | ! + - * / @ = */
    TK_ERROR,   /* lexical error already reported */
};

struct fe_token {
    uint8_t kind;        /* enum fe_tok */
    char ch;             /* TK_PUNCT: the character */
    uint8_t unsig;       /* TK_INT written with a U suffix */
    const char *s;       /* text */
    int len;
    unsigned line, col;
    uint64_t ival;
    double fval;
};

struct fe_lexer {
    const char *src, *end, *p;
    unsigned line;
    const char *linestart;
    struct mx_diag *diag;
};

void fe_lex_init(struct fe_lexer *lx, const char *src, size_t len, struct mx_diag *diag);
void fe_lex_next(struct fe_lexer *lx, struct fe_token *t);

#endif

/* frontend/lexer.c — PTX tokenizer.  Owns comments, literals and the word
 * rule: a word is [.%$_A-Za-z][A-Za-z0-9_$]* continued by '.' or '::' and more
 * identifier characters, so "ld.global.v4.u32", "%tid.x" and
 * "L2::evict_last" are one token each; the parser splits them. */
#include "frontend/lexer.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void fe_lex_init(struct fe_lexer *lx, const char *src, size_t len, struct mx_diag *diag)
{
    lx->src = lx->p = src;
    lx->end = src + len;
    lx->line = 1;
    lx->linestart = src;
    lx->diag = diag;
}

static int is_follow(int c) { return isalnum(c) || c == '_' || c == '$'; }
static int is_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }

static void lexerr(struct fe_lexer *lx, struct fe_token *t, const char *msg)
{
    fe_error(lx->diag, t->line, t->col, t->s, (int)(lx->p - t->s) > 0 ? (int)(lx->p - t->s) : 1, "%s", msg);
    t->kind = TK_ERROR;
}

/* A malformed number is reported once and still returned as a number token
 * of the given kind (value as far as it was read), so the parser does not
 * report the same spot a second time as a missing operand. */
static void numerr(struct fe_lexer *lx, struct fe_token *t, int kind, const char *msg)
{
    lexerr(lx, t, msg);
    t->kind = (uint8_t)kind;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static void lex_number(struct fe_lexer *lx, struct fe_token *t)
{
    const char *p = lx->p, *e = lx->end;
    t->kind = TK_INT;
    if (p + 1 < e && p[0] == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
        int n = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
        uint64_t v = 0;
        const char *q = p + 2;
        int i;
        for (i = 0; i < n && q < e && hexval(*q) >= 0; i++, q++)
            v = v << 4 | (uint64_t)hexval(*q);
        lx->p = q;
        if (i != n || (q < e && is_follow(*q))) {
            while (lx->p < e && is_follow(*lx->p))
                lx->p++;
            numerr(lx, t, n == 8 ? TK_F32 : TK_F64,
                   n == 8 ? "malformed f32 literal (0f needs exactly 8 hex digits)"
                          : "malformed f64 literal (0d needs exactly 16 hex digits)");
            t->ival = v;
            return;
        }
        t->kind = n == 8 ? TK_F32 : TK_F64;
        t->ival = v;
        return;
    }
    /* decimal float? digits '.' or exponent */
    const char *q = p;
    while (q < e && isdigit((unsigned char)*q))
        q++;
    int isfloat = 0;
    if (q < e && *q == '.' && !(p[0] == '0' && q == p + 1 && 0)) {
        isfloat = 1;
    } else if (q < e && (*q == 'e' || *q == 'E') && !(p[0] == '0' && p + 1 < e && (p[1] == 'x' || p[1] == 'X'))) {
        const char *r = q + 1;
        if (r < e && (*r == '+' || *r == '-'))
            r++;
        if (r < e && isdigit((unsigned char)*r))
            isfloat = 1;
    }
    if (isfloat) {
        char buf[128];
        const char *r = q;
        if (r < e && *r == '.') {
            r++;
            while (r < e && isdigit((unsigned char)*r))
                r++;
        }
        if (r < e && (*r == 'e' || *r == 'E')) {
            r++;
            if (r < e && (*r == '+' || *r == '-'))
                r++;
            while (r < e && isdigit((unsigned char)*r))
                r++;
        }
        size_t n = (size_t)(r - p);
        lx->p = r;
        if (n >= sizeof buf) {
            numerr(lx, t, TK_FLOAT, "float literal too long");
            return;
        }
        memcpy(buf, p, n);
        buf[n] = 0;
        t->kind = TK_FLOAT;
        t->fval = strtod(buf, NULL);
        return;
    }
    uint64_t v = 0;
    int base = 10, overflow = 0, ndig = 0;
    q = p;
    if (q + 1 < e && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
        base = 16;
        q += 2;
    } else if (q + 1 < e && q[0] == '0' && (q[1] == 'b' || q[1] == 'B')) {
        base = 2;
        q += 2;
    } else if (q[0] == '0' && q + 1 < e && isdigit((unsigned char)q[1])) {
        base = 8;
        q++;
    }
    for (; q < e; q++) {
        int dv = hexval(*q);
        if (dv < 0 || dv >= base)
            break;
        if (v > (UINT64_MAX - (uint64_t)dv) / (uint64_t)base)
            overflow = 1;
        v = v * (uint64_t)base + (uint64_t)dv;
        ndig++;
    }
    if (q < e && (*q == 'U' || *q == 'u')) {
        t->unsig = 1;
        q++;
    }
    lx->p = q;
    if (q < e && is_follow(*q)) {
        while (lx->p < e && is_follow(*lx->p))
            lx->p++;
        numerr(lx, t, TK_INT, "malformed number");
        return;
    }
    if ((base != 10 && base != 8 && !ndig)) {
        numerr(lx, t, TK_INT, "malformed number");
        return;
    }
    if (overflow) {
        numerr(lx, t, TK_INT, "integer literal does not fit in 64 bits");
        return;
    }
    t->ival = v;
}

void fe_lex_next(struct fe_lexer *lx, struct fe_token *t)
{
    const char *e = lx->end;
    memset(t, 0, sizeof *t);
again:
    while (lx->p < e) {
        char c = *lx->p;
        if (c == '\n') {
            lx->line++;
            lx->p++;
            lx->linestart = lx->p;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->p++;
        } else {
            break;
        }
    }
    t->s = lx->p;
    t->line = lx->line;
    t->col = (unsigned)(lx->p - lx->linestart) + 1;
    if (lx->p >= e) {
        t->kind = TK_EOF;
        return;
    }
    char c = *lx->p;
    if (c == '/' && lx->p + 1 < e && lx->p[1] == '/') {
        while (lx->p < e && *lx->p != '\n')
            lx->p++;
        goto again;
    }
    if (c == '/' && lx->p + 1 < e && lx->p[1] == '*') {
        const char *start = lx->p;
        unsigned l0 = lx->line, c0 = t->col;
        lx->p += 2;
        while (lx->p + 1 < e && !(lx->p[0] == '*' && lx->p[1] == '/')) {
            if (*lx->p == '\n') {
                lx->line++;
                lx->linestart = lx->p + 1;
            }
            lx->p++;
        }
        if (lx->p + 1 >= e) {
            if (lx->p < e && *lx->p == '\n') { /* the last byte was not looked at by the loop */
                lx->line++;
                lx->linestart = lx->p + 1;
            }
            lx->p = e;
            fe_error(lx->diag, l0, c0, start, 2, "unterminated comment");
            t->kind = TK_ERROR;
            return;
        }
        lx->p += 2;
        goto again;
    }
    if (c == '"') {
        lx->p++;
        while (lx->p < e && *lx->p != '"' && *lx->p != '\n') {
            if (*lx->p == '\\' && lx->p + 1 < e)
                lx->p++;
            lx->p++;
        }
        if (lx->p >= e || *lx->p != '"') {
            t->len = (int)(lx->p - t->s);
            lexerr(lx, t, "unterminated string");
            return;
        }
        lx->p++;
        t->kind = TK_STRING;
        t->len = (int)(lx->p - t->s);
        return;
    }
    if (isdigit((unsigned char)c)) {
        lex_number(lx, t);
        t->len = (int)(lx->p - t->s);
        return;
    }
    if (is_start((unsigned char)c) && !(c == '.' && lx->p + 1 < e && isdigit((unsigned char)lx->p[1]) &&
                                        0)) {
        lx->p++;
        for (;;) {
            while (lx->p < e && is_follow((unsigned char)*lx->p))
                lx->p++;
            if (lx->p + 1 < e && *lx->p == '.' && is_follow((unsigned char)lx->p[1])) {
                lx->p++;
                continue;
            }
            if (lx->p + 2 < e && lx->p[0] == ':' && lx->p[1] == ':' && is_follow((unsigned char)lx->p[2])) {
                lx->p += 2;
                continue;
            }
            break;
        }
        t->kind = TK_WORD;
        t->len = (int)(lx->p - t->s);
        if (t->len == 1 && (c == '.' || c == '%')) {
            lexerr(lx, t, "stray character");
            return;
        }
        return;
    }
    if (strchr(",;:[]{}()<>|!+-*/@=~&^", c)) {
        lx->p++;
        t->kind = TK_PUNCT;
        t->ch = c;
        t->len = 1;
        return;
    }
    lx->p++;
    t->len = 1;
    if ((unsigned char)c < 32 || (unsigned char)c >= 127)
        fe_error(lx->diag, t->line, t->col, NULL, 0, "unexpected byte 0x%02x", (unsigned char)c);
    else
        lexerr(lx, t, "unexpected character");
    t->kind = TK_ERROR;
}

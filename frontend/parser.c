/* frontend/parser.c — recursive-descent PTX parser that lowers as it goes.
 * Owns: module/function/variable grammar, scopes and name binding, operand
 * lowering and validation against isa/opcodes.def, forward-reference fix-ups,
 * per-entry shared-memory layout.  Control-flow analysis lives in cfg.c.
 * Grammar rules are written above the function that parses them. */
#include "frontend/ptx.h"
#include "frontend/lexer.h"
#include "frontend/fe-internal.h"
#include "isa/opdtype.h"
#include "mx/status.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- arrays */

static int grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    uint32_t nc = *cap ? *cap : 16;
    while (nc < need) {
        if (nc > UINT32_MAX / 2)
            return -1;
        nc *= 2;
    }
    void *p = realloc(*arr, (size_t)nc * elem);
    if (!p)
        return -1;
    *arr = p;
    *cap = nc;
    return 0;
}
#define PUSH(P, arr, n, cap) \
    (grow((void **)&(P)->prog->arr, &(P)->prog->cap, (P)->prog->n + 1, sizeof *(P)->prog->arr) ? (oom(P), (uint32_t)MX_NONE) : (P)->prog->n++)

/* ----------------------------------------------------------------- state */

enum bkind { B_REG, B_RANGE, B_SYM, B_TARGETS, B_PROTO }; /* functions: see find_func() */

struct binding {
    const char *name; /* in the source text, or NULL: then at strtab + stroff */
    uint32_t stroff;
    int len;
    uint8_t kind;     /* enum bkind */
    uint32_t index;   /* regdecl, symbol or function */
    int depth;        /* scope depth of the binding (0 = module) */
    int32_t prev;     /* binding shadowed by this one, -1 if none */
    uint32_t slot;    /* hash slot */
};

struct plabel {
    const char *name;
    int len;
    uint32_t label;   /* index in prog->labels */
    unsigned line, col; /* first reference, for "undefined label" */
};

struct fixup {        /* operand whose reg field holds a label index, to patch to an insn */
    uint8_t in_vec;   /* 0: prog->insns[where].opd[slot]; 1: prog->vec[where] */
    uint8_t slot;
    uint32_t where;
};

struct raw {          /* an operand as written, before lowering */
    uint8_t kind;     /* enum rkind */
    uint8_t neg;      /* !p */
    uint8_t pair;     /* followed by '|' */
    uint8_t has_base; /* ADDR: name present */
    const char *name, *name2;
    int nlen, nlen2;
    uint64_t bits;    /* INT value, F32/F64 bits */
    double fval;
    int64_t off;      /* NAME+off, [x+off] */
    int first, count; /* VEC/LIST/TEXADDR children in the pool */
    unsigned line, col;
};
enum rkind { R_NAME, R_INT, R_FLOAT, R_F32, R_F64, R_VEC, R_ADDR, R_TEXADDR, R_LIST, R_SINK, R_INDREG };

#define RAW_POOL 256

struct parser {
    struct fe_lexer lx;
    struct fe_token tok, la[2]; /* current token and up to two of look-ahead */
    int nla;
    struct mx_program *prog;
    struct mx_diag *diag;
    const struct fe_options *opt;
    int oom, unsupported;

    struct binding *b; uint32_t nb, bcap;
    int32_t *heads; uint32_t hcap;  /* hash slot -> innermost binding, -1 empty, -2 out of scope */
    uint32_t hused;                 /* slots not -1: a probe must always meet a -1 */
    int depth;

    /* current function */
    int32_t fn;
    struct plabel *labels; uint32_t nlabels, labels_cap;
    uint32_t *lhash; uint32_t lhcap; /* open-addressing index of labels: slot -> labels[] index + 1, 0 empty */
    uint32_t *fhash; uint32_t fhcap, nfhash; /* same for functions (prototypes excepted): slot -> funcs[] index + 1 */
    struct fixup *fix; uint32_t nfix, fix_cap;
    uint16_t loc_file; uint32_t loc_line;

    struct raw pool[RAW_POOL];
    int npool;
    int init_nest;    /* '{' of an initialiser opened and not yet closed */
};

static void oom(struct parser *p)
{
    if (!p->oom)
        fe_error(p->diag, p->tok.line, p->tok.col, NULL, 0, "out of memory");
    p->oom = 1;
}

static uint32_t find_func(struct parser *p, const char *s, int n);

/* ----------------------------------------------------------------- tokens */

static void advance(struct parser *p)
{
    if (p->nla) {
        p->tok = p->la[0];
        p->la[0] = p->la[1];
        p->nla--;
        return;
    }
    do
        fe_lex_next(&p->lx, &p->tok);
    while (p->tok.kind == TK_ERROR && !fe_too_many_errors(p->diag));
    if (p->tok.kind == TK_ERROR)
        p->tok.kind = TK_EOF;
}

static const struct fe_token *peek(struct parser *p, int i)
{
    while (p->nla <= i) {
        struct fe_token *t = &p->la[p->nla];
        do
            fe_lex_next(&p->lx, t);
        while (t->kind == TK_ERROR && !fe_too_many_errors(p->diag));
        if (t->kind == TK_ERROR)
            t->kind = TK_EOF;
        p->nla++;
    }
    return &p->la[i];
}

static int is_punct(const struct fe_token *t, char c) { return t->kind == TK_PUNCT && t->ch == c; }
static int is_word(const struct fe_token *t, const char *w)
{
    return t->kind == TK_WORD && (size_t)t->len == strlen(w) && !memcmp(t->s, w, (size_t)t->len);
}

static void err_tok(struct parser *p, const struct fe_token *t, const char *fmt, ...) MX_PRINTF(3, 4);
static void err_tok(struct parser *p, const struct fe_token *t, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (t->kind == TK_EOF)
        fe_error(p->diag, t->line, t->col, NULL, 0, "%s at end of input", msg);
    else
        fe_error(p->diag, t->line, t->col, t->s, t->len, "%s", msg);
}

static void unsupported(struct parser *p, const struct fe_token *t, const char *what)
{
    p->unsupported = 1;
    err_tok(p, t, "unsupported: %s", what);
}

static int expect(struct parser *p, char c)
{
    if (is_punct(&p->tok, c)) {
        advance(p);
        return 0;
    }
    err_tok(p, &p->tok, "expected '%c'", c);
    return -1;
}

/* Skips to just after the next ';' at this nesting level, or to a '}' that
 * closes the current block (left in place). */
static void recover(struct parser *p)
{
    int nest = 0;
    while (p->tok.kind != TK_EOF) {
        if (is_punct(&p->tok, '{'))
            nest++;
        else if (is_punct(&p->tok, '}')) {
            if (!nest)
                return;
            nest--;
        } else if (is_punct(&p->tok, ';') && !nest) {
            advance(p);
            return;
        }
        advance(p);
    }
}

/* ------------------------------------------------------------- strings */

static uint32_t intern(struct parser *p, const char *s, size_t n)
{
    struct mx_program *g = p->prog;
    size_t need = g->strtab_len + n + 1;
    if (need > g->strtab_cap) {
        size_t nc = g->strtab_cap ? g->strtab_cap : 4096;
        while (nc < need)
            nc *= 2;
        char *q = realloc(g->strtab, nc);
        if (!q) {
            oom(p);
            return 0;
        }
        g->strtab = q;
        g->strtab_cap = nc;
    }
    uint32_t off = (uint32_t)g->strtab_len;
    memcpy(g->strtab + off, s, n);
    g->strtab[off + n] = 0;
    g->strtab_len = need;
    return off;
}

/* ------------------------------------------------------------ bindings */

static unsigned hashname(const char *s, int n)
{
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static const char *bname(const struct parser *p, const struct binding *b)
{
    return b->name ? b->name : p->prog->strtab + b->stroff;
}

static uint32_t find_slot(struct parser *p, const char *s, int n)
{
    uint32_t mask = p->hcap - 1, i = hashname(s, n) & mask;
    for (;;) {
        int32_t h = p->heads[i];
        if (h == -1)
            return i;
        /* -2: a key whose bindings all went out of scope; keep probing */
        if (h >= 0 && p->b[h].len == n && !memcmp(bname(p, &p->b[h]), s, (size_t)n))
            return i;
        i = (i + 1) & mask;
    }
}

/* Slot for a new binding of s: the one holding s if it is bound, else the
 * first -2 slot on the way (so that names bound again and again, block
 * after block, do not lengthen every probe), else the -1 slot. */
static uint32_t insert_slot(struct parser *p, const char *s, int n)
{
    uint32_t mask = p->hcap - 1, i = hashname(s, n) & mask, dead = UINT32_MAX;
    for (;;) {
        int32_t h = p->heads[i];
        if (h == -1)
            return dead != UINT32_MAX ? dead : i;
        if (h == -2 && dead == UINT32_MAX)
            dead = i;
        if (h >= 0 && p->b[h].len == n && !memcmp(bname(p, &p->b[h]), s, (size_t)n))
            return i;
        i = (i + 1) & mask;
    }
}

/* Rebuilds the name index from the live bindings, dropping the -2 slots of
 * names gone out of scope (a module of many functions leaves many). */
static int rehash(struct parser *p)
{
    uint32_t nc = 1024;
    while (nc < 4 * (p->nb + 1))
        nc *= 2;
    int32_t *h = malloc(nc * sizeof *h);
    if (!h)
        return -1;
    free(p->heads);
    p->heads = h;
    p->hcap = nc;
    for (uint32_t i = 0; i < nc; i++)
        h[i] = -1;
    p->hused = 0;
    for (uint32_t i = 0; i < p->nb; i++) {
        struct binding *b = &p->b[i];
        uint32_t s = find_slot(p, bname(p, b), b->len);
        p->hused += h[s] == -1;
        b->prev = h[s] >= 0 ? h[s] : -1;
        b->slot = s;
        h[s] = (int32_t)i;
    }
    return 0;
}

static struct binding *lookup(struct parser *p, const char *s, int n)
{
    if (!p->hcap)
        return NULL;
    uint32_t i = find_slot(p, s, n);
    return p->heads[i] >= 0 ? &p->b[p->heads[i]] : NULL;
}

/* Binds name at the current depth; diagnoses a duplicate in the same scope.
 * s points into the source text, or is NULL and the name is at strtab+stroff. */
static int bind_at(struct parser *p, const struct fe_token *at, const char *s, uint32_t stroff, int n, int kind, uint32_t index)
{
    const char *nm = s ? s : p->prog->strtab + stroff;
    struct binding *old = lookup(p, nm, n);
    if (old && old->depth == p->depth) {
        if (at)
            fe_error(p->diag, at->line, at->col, nm, n, "duplicate declaration of '%.*s'", n, nm);
        return -1;
    }
    if ((p->hused + 1) * 2 > p->hcap && rehash(p)) {
        oom(p);
        return -1;
    }
    if (grow((void **)&p->b, &p->bcap, p->nb + 1, sizeof *p->b)) {
        oom(p);
        return -1;
    }
    nm = s ? s : p->prog->strtab + stroff;
    uint32_t slot = insert_slot(p, nm, n);
    struct binding *b = &p->b[p->nb];
    b->name = s;
    b->stroff = stroff;
    b->len = n;
    b->kind = (uint8_t)kind;
    b->index = index;
    b->depth = p->depth;
    b->prev = p->heads[slot] >= 0 ? p->heads[slot] : -1;
    b->slot = slot;
    p->hused += p->heads[slot] == -1;
    p->heads[slot] = (int32_t)p->nb++;
    return 0;
}

static int bind(struct parser *p, const struct fe_token *at, const char *s, int n, int kind, uint32_t index)
{
    return bind_at(p, at, s, 0, n, kind, index);
}

static void pop_scope(struct parser *p)
{
    while (p->nb && p->b[p->nb - 1].depth >= p->depth) {
        struct binding *b = &p->b[--p->nb];
        p->heads[b->slot] = b->prev >= 0 ? b->prev : -2;
    }
    p->depth--;
}

/* -------------------------------------------------------------- events */

static void item(struct parser *p, int kind, uint32_t index)
{
    uint32_t i = PUSH(p, items, nitems, items_cap);
    if (i == MX_NONE)
        return;
    p->prog->items[i] = (struct mx_event){ (uint32_t)kind, 0, index };
}

static void event(struct parser *p, int kind, uint32_t index)
{
    uint32_t i = PUSH(p, events, nevents, events_cap);
    if (i == MX_NONE)
        return;
    struct mx_func *f = &p->prog->funcs[p->fn];
    p->prog->events[i] = (struct mx_event){ (uint32_t)kind, p->prog->ninsns - f->first, index };
}

/* ---------------------------------------------------- constant values */

/* const_expr -> unary (binop unary)*      binop: '*' '/' '%' > '+' '-' > '&' > '^' > '|' (C precedence)
 * unary -> ('-'|'~'|'!') unary | '(' const_expr ')' | INT
 * Only what PTX writers use in array sizes, offsets and initialisers; 64-bit
 * wrap-around, no UB, nesting bounded (FE_MAX_CONST_DEPTH) so no input can
 * exhaust the stack. */
#define FE_MAX_CONST_DEPTH 256
static int const_binary(struct parser *p, int64_t *v, int minprec, int depth);

static int const_unary(struct parser *p, int64_t *v, int depth)
{
    if (depth > FE_MAX_CONST_DEPTH) {
        err_tok(p, &p->tok, "constant expression nested too deeply");
        return -1;
    }
    if (is_punct(&p->tok, '-') || is_punct(&p->tok, '~') || is_punct(&p->tok, '!')) {
        char op = p->tok.ch;
        advance(p);
        int64_t x;
        if (const_unary(p, &x, depth + 1))
            return -1;
        *v = op == '-' ? (int64_t)(0 - (uint64_t)x) : op == '~' ? ~x : !x;
        return 0;
    }
    if (is_punct(&p->tok, '(')) {
        advance(p);
        if (const_binary(p, v, 1, depth + 1))
            return -1;
        return expect(p, ')');
    }
    if (p->tok.kind == TK_INT) {
        *v = (int64_t)p->tok.ival;
        advance(p);
        return 0;
    }
    err_tok(p, &p->tok, "expected an integer constant");
    return -1;
}

static int const_primary(struct parser *p, int64_t *v) { return const_unary(p, v, 0); }

/* Binding strength of a binary operator token, 0 if it is none. */
static int binop_prec(const struct fe_token *t)
{
    if (t->kind != TK_PUNCT)
        return 0;
    switch (t->ch) {
    case '*': case '/': case '%': return 5;
    case '+': case '-': return 4;
    case '&': return 3;
    case '^': return 2;
    case '|': return 1;
    default: return 0;
    }
}

static int const_binary(struct parser *p, int64_t *v, int minprec, int depth)
{
    if (const_unary(p, v, depth))
        return -1;
    for (;;) {
        int prec = binop_prec(&p->tok);
        if (!prec || prec < minprec)
            return 0;
        char op = p->tok.ch;
        struct fe_token optok = p->tok;
        advance(p);
        int64_t r;
        if (const_binary(p, &r, prec + 1, depth + 1))
            return -1;
        uint64_t a = (uint64_t)*v, b = (uint64_t)r;
        switch (op) {
        case '+': *v = (int64_t)(a + b); break;
        case '-': *v = (int64_t)(a - b); break;
        case '*': *v = (int64_t)(a * b); break;
        case '/':
        case '%':
            if (r == 0 || (r == -1 && *v == INT64_MIN)) {
                err_tok(p, &optok, "division by zero in constant expression");
                return -1;
            }
            *v = op == '/' ? *v / r : *v % r;
            break;
        case '&': *v = (int64_t)(a & b); break;
        case '|': *v = (int64_t)(a | b); break;
        case '^': *v = (int64_t)(a ^ b); break;
        }
    }
}

static int const_expr(struct parser *p, int64_t *v) { return const_binary(p, v, 1, 0); }

/* ------------------------------------------------------------ symbols */

static uint32_t new_sym(struct parser *p, const char *name, int nlen, int space, unsigned line)
{
    uint32_t i = PUSH(p, syms, nsyms, syms_cap);
    if (i == MX_NONE)
        return MX_NONE;
    struct mx_symbol *s = &p->prog->syms[i];
    memset(s, 0, sizeof *s);
    s->name = intern(p, name, (size_t)nlen);
    s->space = (uint8_t)space;
    s->vec = 1;
    s->align = 1;
    s->ptr_space = 0xff;
    s->func = p->fn >= 0 ? (uint32_t)p->fn : MX_NONE;
    s->line = line;
    return i;
}

static int space_of_directive(const struct fe_token *t)
{
    if (is_word(t, ".global")) return MX_SP_GLOBAL;
    if (is_word(t, ".const")) return MX_SP_CONST;
    if (is_word(t, ".shared")) return MX_SP_SHARED;
    if (is_word(t, ".local")) return MX_SP_LOCAL;
    if (is_word(t, ".param")) return MX_SP_PARAM;
    if (is_word(t, ".tex")) return MX_SP_GLOBAL;
    return -1;
}

static int type_of_directive(const struct fe_token *t)
{
    if (t->kind != TK_WORD || t->len < 2 || t->s[0] != '.')
        return MX_T_NONE;
    return mx_type_lookup(t->s + 1, (size_t)t->len - 1);
}

static uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

/* Stores an initialiser element of `bytes` bytes at data offset off. */
static void put_bytes(struct parser *p, uint64_t off, uint64_t val, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        p->prog->data[off + i] = (uint8_t)(val >> (8 * i));
}

static uint64_t float_bits_for(int type, double v)
{
    if (type == MX_T_F32) {
        float f = (float)v;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    uint64_t b;
    memcpy(&b, &v, 8);
    return b;
}

/* init_elem -> const_expr | float literal | [mask '('] ['generic' '('] name [')'] [('+'|'-') const] [')']
 * Stores element number idx of symbol si. */
static int init_elem(struct parser *p, uint32_t si, uint64_t idx)
{
    struct mx_symbol *s = &p->prog->syms[si];
    unsigned esz = mx_type_size(s->type);
    uint64_t off = s->offset + idx * esz;
    if (idx * esz >= s->size && s->size) {
        err_tok(p, &p->tok, "too many initialisers for '%s'", mx_str(p->prog, s->name));
        return -1;
    }
    int t = s->type;
    const struct fe_token *nx = peek(p, 0);
    int fneg = is_punct(&p->tok, '-') && (nx->kind == TK_F32 || nx->kind == TK_F64 || nx->kind == TK_FLOAT);
    if (fneg) {
        advance(p); /* -1.5, -0f3F800000: the sign bit of the literal is flipped */
        p->tok.fval = -p->tok.fval;
        p->tok.ival ^= p->tok.kind == TK_F32 ? 0x80000000u : p->tok.kind == TK_F64 ? 0x8000000000000000ull : 0;
    }
    if (p->tok.kind == TK_F32 || p->tok.kind == TK_F64 || p->tok.kind == TK_FLOAT) {
        double v;
        if (p->tok.kind == TK_F32) {
            uint32_t b = (uint32_t)p->tok.ival;
            float f;
            memcpy(&f, &b, 4);
            v = f;
        } else if (p->tok.kind == TK_F64) {
            memcpy(&v, &p->tok.ival, 8);
        } else {
            v = p->tok.fval;
        }
        if (t != MX_T_F32 && t != MX_T_F64) {
            if (p->tok.kind == TK_FLOAT) {
                err_tok(p, &p->tok, "float initialiser for a variable of type .%s", mx_type_name(t));
                return -1;
            }
            put_bytes(p, off, p->tok.ival, esz); /* raw bits */
        } else if (p->tok.kind == TK_F32 && t == MX_T_F32) {
            put_bytes(p, off, p->tok.ival, 4);
        } else if (p->tok.kind == TK_F64 && t == MX_T_F64) {
            put_bytes(p, off, p->tok.ival, 8);
        } else {
            put_bytes(p, off, float_bits_for(t, v), esz);
        }
        advance(p);
        return 0;
    }
    /* address forms */
    uint64_t mask = 0;
    int has_mask = 0;
    if (p->tok.kind == TK_INT && is_punct(peek(p, 0), '(')) {
        mask = p->tok.ival;
        has_mask = 1;
        advance(p);
        advance(p);
    }
    if (p->tok.kind == TK_WORD && p->tok.s[0] != '.') {
        int generic = 0;
        if (is_word(&p->tok, "generic") && is_punct(peek(p, 0), '(')) {
            generic = 1;
            advance(p);
            advance(p);
        }
        if (p->tok.kind != TK_WORD) {
            err_tok(p, &p->tok, "expected a symbol name");
            return -1;
        }
        struct fe_token nt = p->tok;
        advance(p);
        if (generic && expect(p, ')'))
            return -1;
        int64_t add = 0;
        if (is_punct(&p->tok, '+') || is_punct(&p->tok, '-')) {
            int neg = p->tok.ch == '-';
            advance(p);
            if (const_primary(p, &add))
                return -1;
            if (neg)
                add = (int64_t)(0 - (uint64_t)add);
        }
        if (has_mask && expect(p, ')'))
            return -1;
        struct binding *b = lookup(p, nt.s, nt.len);
        uint32_t fn_target = (b && b->kind == B_SYM) ? MX_NONE : find_func(p, nt.s, nt.len);
        if ((!b || b->kind != B_SYM) && fn_target == MX_NONE) {
            err_tok(p, &nt, "undefined symbol in initialiser");
            return -1;
        }
        unsigned shift = 0, size = esz;
        if (has_mask) {
            if (!mask || (mask & (mask - 1) & ~(mask | (mask << 1)))) { /* checked below */ }
            while (shift < 64 && !((mask >> shift) & 1))
                shift++;
            uint64_t m = shift < 64 ? mask >> shift : 0;
            if (m != 0xff && m != 0xffff && m != 0xffffffffu && m != UINT64_MAX) {
                err_tok(p, &nt, "initialiser mask must select 1, 2, 4 or 8 whole bytes");
                return -1;
            }
            size = m == 0xff ? 1 : m == 0xffff ? 2 : m == 0xffffffffu ? 4 : 8;
            if (size > esz)
                size = esz;
        } else if (esz < 4) {
            err_tok(p, &nt, "address initialiser needs a 32- or 64-bit element, or a mask");
            return -1;
        }
        uint32_t r = PUSH(p, relocs, nrelocs, relocs_cap);
        if (r == MX_NONE)
            return -1;
        p->prog->relocs[r] = (struct mx_reloc){
            .sym = si, .target = fn_target == MX_NONE ? b->index : fn_target, .offset = idx * esz,
            .addend = add, .size = (uint8_t)size, .shift = (uint8_t)shift, .generic = (uint8_t)generic };
        if (fn_target != MX_NONE)
            p->prog->relocs[r].generic |= 2; /* target is a function */
        return 0;
    }
    int64_t v;
    if (const_expr(p, &v))
        return -1;
    if (t == MX_T_F32 || t == MX_T_F64)
        put_bytes(p, off, float_bits_for(t, (double)v), esz);
    else
        put_bytes(p, off, (uint64_t)v, esz);
    return 0;
}

/* init_list -> '{' (init_list | init_elem) (',' ...)* '}' ; flattened in order */
static int init_list(struct parser *p, uint32_t si, uint64_t *idx, int nest)
{
    if (nest > 8) {
        err_tok(p, &p->tok, "initialiser nested too deeply");
        return -1;
    }
    if (!is_punct(&p->tok, '{')) {
        if (init_elem(p, si, *idx))
            return -1;
        (*idx)++;
        return 0;
    }
    advance(p);
    p->init_nest++;
    if (is_punct(&p->tok, '}')) {
        advance(p);
        p->init_nest--;
        return 0;
    }
    for (;;) {
        if (init_list(p, si, idx, nest + 1))
            return -1;
        if (is_punct(&p->tok, ','))
            advance(p);
        else
            break;
    }
    if (expect(p, '}'))
        return -1;
    p->init_nest--;
    return 0;
}

/* Counts the elements of an initialiser without consuming it (for x[] = {...}). */
static uint64_t count_init(struct parser *p)
{
    /* Scan a copy of the lexer: initialisers are short relative to files. */
    struct fe_lexer save = p->lx;
    struct fe_token t = p->tok;
    struct mx_diag quiet = *p->diag;
    quiet.out = NULL;
    struct mx_diag *old = p->lx.diag;
    p->lx.diag = &quiet;
    uint64_t n = 0;
    int depth = 0, any = 0;
    /* replay look-ahead tokens first */
    int li = 0;
    for (;;) {
        if (t.kind == TK_EOF)
            break;
        if (is_punct(&t, '{'))
            depth++;
        else if (is_punct(&t, '}')) {
            if (--depth <= 0) {
                if (any)
                    n++;
                break;
            }
        } else if (is_punct(&t, ',') && depth == 1) {
            n++;
            any = 0;
        } else if (is_punct(&t, ';') && depth == 0)
            break;
        else if (!(is_punct(&t, '(') || is_punct(&t, ')')))
            any = 1;
        if (li < p->nla)
            t = p->la[li++];
        else
            fe_lex_next(&p->lx, &t);
    }
    p->lx = save;
    p->lx.diag = old;
    return n;
}

/* var_decl -> [.align N] [.v2|.v4] type name ['[' [N] ']']* ['=' init] (',' name ...)* ';'
 * (linkage and the space directive were read by the caller) */
static void var_decl(struct parser *p, int space, uint32_t flags, int in_func)
{
    uint32_t align = 0, vec = 1;
    int type = MX_T_NONE;
    struct fe_token start = p->tok;
    for (;;) {
        if (is_word(&p->tok, ".align")) {
            advance(p);
            int64_t a;
            if (const_expr(p, &a))
                goto fail;
            if (a <= 0 || (a & (a - 1)) || a > 4096) {
                err_tok(p, &start, "alignment must be a power of two up to 4096");
                goto fail;
            }
            align = (uint32_t)a;
        } else if (is_word(&p->tok, ".v2") || is_word(&p->tok, ".v4") || is_word(&p->tok, ".v8")) {
            vec = (uint32_t)(p->tok.s[2] - '0');
            advance(p);
        } else if (is_word(&p->tok, ".ptr")) {
            advance(p);
        } else if (is_word(&p->tok, ".attribute")) {
            /* .attribute(.managed): a __managed__ variable (the CUDA runtime makes it
             * host-visible); .unified(u64, u64) names its unified-memory identity */
            struct fe_token at = p->tok;
            advance(p);
            if (expect(p, '('))
                goto fail;
            for (;;) {
                if (is_word(&p->tok, ".managed")) {
                    if (space != MX_SP_GLOBAL) {
                        err_tok(p, &p->tok, ".attribute(.managed) applies to .global variables only");
                        goto fail;
                    }
                    flags |= MX_SYMF_MANAGED;
                    advance(p);
                } else if (is_word(&p->tok, ".unified")) {
                    advance(p);
                    int64_t v;
                    if (expect(p, '(') || const_expr(p, &v) || expect(p, ',') || const_expr(p, &v) || expect(p, ')'))
                        goto fail;
                } else {
                    err_tok(p, &at, "expected .managed or .unified(...) in .attribute");
                    goto fail;
                }
                if (!is_punct(&p->tok, ','))
                    break;
                advance(p);
            }
            if (expect(p, ')'))
                goto fail;
        } else
            break;
    }
    type = type_of_directive(&p->tok);
    if (type == MX_T_NONE) {
        err_tok(p, &p->tok, "expected a type");
        goto fail;
    }
    if (type == MX_T_PRED) {
        err_tok(p, &p->tok, "variables cannot have type .pred");
        goto fail;
    }
    advance(p);
    for (;;) {
        if (p->tok.kind != TK_WORD || p->tok.s[0] == '.') {
            err_tok(p, &p->tok, "expected a variable name");
            goto fail;
        }
        struct fe_token nt = p->tok;
        advance(p);
        uint32_t si = new_sym(p, nt.s, nt.len, space, nt.line);
        if (si == MX_NONE)
            return;
        struct mx_symbol *s = &p->prog->syms[si];
        s->type = (uint8_t)type;
        s->vec = (uint8_t)vec;
        s->flags = flags;
        uint64_t esz = (uint64_t)mx_type_size(type) * vec, count = 1;
        int unsized = 0;
        while (is_punct(&p->tok, '[')) {
            advance(p);
            if (s->ndims >= 4) {
                err_tok(p, &p->tok, "too many array dimensions");
                goto fail;
            }
            if (is_punct(&p->tok, ']')) {
                unsized = 1;
                s->dims[s->ndims++] = 0;
            } else {
                int64_t d;
                if (const_expr(p, &d))
                    goto fail;
                if (d <= 0 || (uint64_t)d > FE_MAX_VAR_BYTES) {
                    err_tok(p, &nt, "array size must be between 1 and 2^34");
                    goto fail;
                }
                s->dims[s->ndims++] = (uint32_t)d;
                count *= (uint64_t)d;
                if (count * esz > FE_MAX_VAR_BYTES) {
                    err_tok(p, &nt, "variable larger than 16 GiB");
                    goto fail;
                }
            }
            if (expect(p, ']'))
                goto fail;
        }
        s = &p->prog->syms[si];
        s->align = align ? align : (uint32_t)(esz ? esz : 1);
        if (s->align > 4096 || (s->align & (s->align - 1)))
            s->align = (uint32_t)mx_type_size(type);
        if (is_punct(&p->tok, '=')) {
            advance(p);
            if (space != MX_SP_GLOBAL && space != MX_SP_CONST) {
                err_tok(p, &nt, "only .global and .const variables can have initialisers");
                goto fail;
            }
            if (unsized) {
                uint64_t n = count_init(p);
                if (!n) {
                    err_tok(p, &nt, "empty initialiser for an unsized array");
                    goto fail;
                }
                count *= n;
                s->dims[s->ndims - 1] = (uint32_t)n;
                unsized = 0;
            }
            s->size = count * esz;
            if (p->prog->data_len + s->size + s->align > FE_MAX_INIT_BYTES) {
                err_tok(p, &nt, "initialised data larger than the %u MiB limit", FE_MAX_INIT_BYTES >> 20);
                goto fail;
            }
            uint64_t off = align_up(p->prog->data_len, s->align);
            uint64_t need = off + s->size;
            if (need > p->prog->data_cap) {
                uint64_t nc = p->prog->data_cap ? p->prog->data_cap : 4096;
                while (nc < need)
                    nc *= 2;
                uint8_t *d = realloc(p->prog->data, nc);
                if (!d) {
                    oom(p);
                    return;
                }
                p->prog->data = d;
                p->prog->data_cap = nc;
            }
            memset(p->prog->data + p->prog->data_len, 0, need - p->prog->data_len);
            p->prog->data_len = need;
            s->offset = off;
            s->init = 1;
            uint64_t idx = 0;
            if (vec > 1) {
                err_tok(p, &nt, "unsupported: initialiser of a vector variable");
                p->unsupported = 1;
                goto fail;
            }
            if (init_list(p, si, &idx, 0))
                goto fail;
        } else {
            s->size = unsized ? 0 : count * esz;
            if (unsized && !(flags & MX_SYMF_EXTERN) && space != MX_SP_SHARED) {
                err_tok(p, &nt, "unsized array needs an initialiser or .extern");
                goto fail;
            }
            if (unsized && space == MX_SP_SHARED)
                s->flags |= MX_SYMF_DYNAMIC;
        }
        if (in_func) {
            struct mx_func *f = &p->prog->funcs[p->fn];
            if (space == MX_SP_LOCAL) {
                s->offset = align_up(f->local_size, s->align);
                f->local_size = s->offset + s->size;
            } else if (space == MX_SP_PARAM) {
                s->offset = align_up(f->scratch_size, s->align);
                f->scratch_size = (uint32_t)(s->offset + s->size);
            } else if (space == MX_SP_SHARED) {
                s->offset = 0; /* laid out per entry at the end (layout_shared) */
            }
        }
        if (bind(p, &nt, nt.s, nt.len, B_SYM, si) == 0) {
            if (in_func)
                event(p, MX_EV_SYM, si);
            else
                item(p, MX_EV_VAR, si);
        }
        if (is_punct(&p->tok, ',')) {
            advance(p);
            continue;
        }
        break;
    }
    if (expect(p, ';'))
        goto fail;
    return;
fail:
    /* An error inside an initialiser's braces: leave them first, so that
     * their '}' is not taken for the end of the enclosing block. */
    while (p->init_nest > 0 && p->tok.kind != TK_EOF) {
        if (is_punct(&p->tok, '{'))
            p->init_nest++;
        else if (is_punct(&p->tok, '}'))
            p->init_nest--;
        advance(p);
    }
    p->init_nest = 0;
    recover(p);
}

/* ------------------------------------------------------------ registers */

/* reg_decl -> '.reg' [.v2|.v4] type name ['<' N '>'] (',' name ['<' N '>'])* ';' */
static void reg_decl(struct parser *p)
{
    advance(p); /* .reg */
    int vec = 1;
    if (is_word(&p->tok, ".v2") || is_word(&p->tok, ".v4")) {
        unsupported(p, &p->tok, "vector registers (.reg .v2/.v4)");
        recover(p);
        return;
    }
    int type = type_of_directive(&p->tok);
    if (type == MX_T_NONE || mx_type_class(type) == MX_TC_O) {
        err_tok(p, &p->tok, "expected a register type");
        recover(p);
        return;
    }
    advance(p);
    struct mx_func *f = &p->prog->funcs[p->fn];
    for (;;) {
        if (p->tok.kind != TK_WORD || p->tok.s[0] == '.') {
            err_tok(p, &p->tok, "expected a register name");
            recover(p);
            return;
        }
        struct fe_token nt = p->tok;
        advance(p);
        uint32_t count = 0;
        if (is_punct(&p->tok, '<')) {
            advance(p);
            int64_t n;
            if (const_expr(p, &n) || expect(p, '>')) {
                recover(p);
                return;
            }
            if (n <= 0 || n > (int64_t)FE_MAX_REGS) {
                err_tok(p, &nt, "register range must be between 1 and %u", FE_MAX_REGS);
                recover(p);
                return;
            }
            count = (uint32_t)n;
        }
        f = &p->prog->funcs[p->fn];
        uint32_t *ctr = type == MX_T_PRED ? &f->npreds : &f->nregs;
        uint32_t n = count ? count : 1;
        if (*ctr + n > FE_MAX_REGS) {
            err_tok(p, &nt, "too many registers in one function (limit %u)", FE_MAX_REGS);
            recover(p);
            return;
        }
        uint32_t di = PUSH(p, regdecls, nregdecls, regdecls_cap);
        if (di == MX_NONE)
            return;
        f = &p->prog->funcs[p->fn];
        ctr = type == MX_T_PRED ? &f->npreds : &f->nregs;
        p->prog->regdecls[di] = (struct mx_regdecl){ intern(p, nt.s, (size_t)nt.len), *ctr, count,
                                                     (uint8_t)type, (uint8_t)vec, (uint16_t)(p->depth - 1) };
        *ctr += n;
        f->nregdecls++;
        if (bind(p, &nt, nt.s, nt.len, count ? B_RANGE : B_REG, di) == 0)
            event(p, MX_EV_REG, di);
        if (is_punct(&p->tok, ',')) {
            advance(p);
            continue;
        }
        break;
    }
    if (expect(p, ';'))
        recover(p);
}

/* Resolves a register name: 0 with its slot and declared type, or -1. */
static int resolve_reg(struct parser *p, const char *s, int n, uint32_t *slot, int *type)
{
    struct binding *b = lookup(p, s, n);
    if (b && b->kind == B_REG) {
        const struct mx_regdecl *d = &p->prog->regdecls[b->index];
        *slot = d->base;
        *type = d->type;
        return 0;
    }
    int k = n;
    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    if (k == n || k == 0 || n - k > 9)
        return -1;
    if (n - k > 1 && s[k] == '0')
        return -1;
    b = lookup(p, s, k);
    if (!b || b->kind != B_RANGE)
        return -1;
    uint32_t idx = 0;
    for (int i = k; i < n; i++)
        idx = idx * 10 + (uint32_t)(s[i] - '0');
    const struct mx_regdecl *d = &p->prog->regdecls[b->index];
    if (idx >= d->count)
        return -1;
    *slot = d->base + idx;
    *type = d->type;
    return 0;
}

/* Decimal digits at s[0..n) (stops at the first non-digit; saturates): the
 * source text need not be NUL-terminated, so no atoi/sscanf on it. */
static uint32_t dec_prefix(const char *s, int n, int *used)
{
    uint64_t v = 0;
    int i = 0;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        if ((v = v * 10 + (uint64_t)(s[i] - '0')) > UINT32_MAX)
            v = UINT32_MAX;
    if (used)
        *used = i;
    return (uint32_t)v;
}

/* Special register: "%tid.x", "%envreg3". */
static int resolve_sreg(const char *s, int n, int *sreg, int *comp)
{
    const char *dot = memchr(s, '.', (size_t)n);
    int base = dot ? (int)(dot - s) : n;
    int r = mx_sreg_lookup(s, (size_t)base);
    if (r >= 0) {
        unsigned dims = mx_sreg_dims(r);
        if (dims == 3) {
            if (!dot || n - base != 2 || !strchr("xyz", s[base + 1]))
                return -1;
            *comp = s[base + 1] - 'x';
        } else {
            if (dot)
                return -1;
            if (dims > 3)
                return -1; /* ranges need an index */
            *comp = 0;
        }
        *sreg = r;
        return 0;
    }
    if (dot)
        return -1;
    int k = n;
    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    if (k == n || n - k > 3)
        return -1;
    r = mx_sreg_lookup(s, (size_t)k);
    if (r < 0 || mx_sreg_dims(r) <= 3)
        return -1;
    int idx = (int)dec_prefix(s + k, n - k, NULL);
    if (idx >= (int)mx_sreg_dims(r))
        return -1;
    *sreg = r;
    *comp = idx;
    return 0;
}

/* ---------------------------------------------------------------- labels */

/* Slot of label name s in p->lhash: the one holding it, or the empty slot
 * where it would go.  lhcap is a power of two, at most half full. */
static uint32_t label_slot(const struct parser *p, const char *s, int n)
{
    uint32_t mask = p->lhcap - 1, i = hashname(s, n) & mask;
    for (;;) {
        uint32_t h = p->lhash[i];
        if (!h || (p->labels[h - 1].len == n && !memcmp(p->labels[h - 1].name, s, (size_t)n)))
            return i;
        i = (i + 1) & mask;
    }
}

/* The current function's label record of s, or NULL. */
static const struct plabel *label_find(const struct parser *p, const char *s, int n)
{
    if (!p->nlabels)
        return NULL;
    uint32_t h = p->lhash[label_slot(p, s, n)];
    return h ? &p->labels[h - 1] : NULL;
}

/* Doubles the label index (labels are per function; the index is cleared
 * label by label in label_reset, so a big table costs nothing later). */
static int label_rehash(struct parser *p)
{
    uint32_t nc = p->lhcap ? p->lhcap * 2 : 256;
    uint32_t *h = calloc(nc, sizeof *h);
    if (!h)
        return -1;
    free(p->lhash);
    p->lhash = h;
    p->lhcap = nc;
    for (uint32_t i = 0; i < p->nlabels; i++)
        h[label_slot(p, p->labels[i].name, p->labels[i].len)] = i + 1;
    return 0;
}

/* Forgets the labels of the function just parsed: newest first, so that
 * each one is found where its probe sequence put it (clearing the oldest
 * first empties slots that later labels probed past, which left those
 * entries behind until the table filled up and label_slot never returned:
 * thrust's lowered sm_86 module) */
static void label_reset(struct parser *p)
{
    for (uint32_t i = p->nlabels; i-- > 0;)
        p->lhash[label_slot(p, p->labels[i].name, p->labels[i].len)] = 0;
    p->nlabels = 0;
}

/* Label index of name s in the current function, created (undefined) at its
 * first reference; hashed, so a function of N labels resolves in O(N). */
static uint32_t label_ref(struct parser *p, const char *s, int n, const struct fe_token *at)
{
    const struct plabel *old = label_find(p, s, n);
    if (old)
        return old->label;
    if ((p->nlabels + 1) * 2 > p->lhcap && label_rehash(p)) {
        oom(p);
        return MX_NONE;
    }
    if (grow((void **)&p->labels, &p->labels_cap, p->nlabels + 1, sizeof *p->labels)) {
        oom(p);
        return MX_NONE;
    }
    uint32_t li = PUSH(p, labels, nlabels, labels_cap);
    if (li == MX_NONE)
        return MX_NONE;
    p->prog->labels[li] = (struct mx_label){ intern(p, s, (size_t)n), MX_NONE, (uint32_t)p->fn };
    p->labels[p->nlabels] = (struct plabel){ s, n, li, at->line, at->col };
    p->lhash[label_slot(p, s, n)] = ++p->nlabels;
    return li;
}

static void add_fixup(struct parser *p, int in_vec, uint32_t where, int slot)
{
    if (grow((void **)&p->fix, &p->fix_cap, p->nfix + 1, sizeof *p->fix)) {
        oom(p);
        return;
    }
    p->fix[p->nfix++] = (struct fixup){ (uint8_t)in_vec, (uint8_t)slot, where };
}

/* ---------------------------------------------------------------- operands */

static int raw_operand(struct parser *p, struct raw *r, int nest);

static int raw_alloc(struct parser *p)
{
    if (p->npool >= RAW_POOL) {
        err_tok(p, &p->tok, "too many operands in one instruction");
        return -1;
    }
    memset(&p->pool[p->npool], 0, sizeof p->pool[0]);
    return p->npool++;
}

/* Parses a comma-separated list of operands up to `close` into the pool. */
static int raw_list(struct parser *p, char close, struct raw *r, int nest)
{
    advance(p);
    r->first = p->npool;
    r->count = 0;
    if (is_punct(&p->tok, close)) {
        advance(p);
        return 0;
    }
    /* children must be contiguous: parse each into a local then copy */
    struct raw tmp[FE_MAX_VEC];
    int n = 0;
    for (;;) {
        if (n >= FE_MAX_VEC) {
            err_tok(p, &p->tok, "more than %d elements in one list", FE_MAX_VEC);
            return -1;
        }
        memset(&tmp[n], 0, sizeof tmp[n]);
        if (raw_operand(p, &tmp[n], nest + 1))
            return -1;
        n++;
        if (is_punct(&p->tok, ',')) {
            advance(p);
            continue;
        }
        break;
    }
    if (expect(p, close))
        return -1;
    r->first = p->npool;
    for (int i = 0; i < n; i++) {
        int k = raw_alloc(p);
        if (k < 0)
            return -1;
        p->pool[k] = tmp[i];
    }
    r->count = n;
    return 0;
}

/* operand -> ['!'] name ['+' const] | ['-'] literal | '_' | '{' list '}' | '(' list ')'
 *          | '[' address ']' | '[' operand ',' ... ']' | name '[' name ']'      */
static int raw_operand(struct parser *p, struct raw *r, int nest)
{
    if (nest > 4) {
        err_tok(p, &p->tok, "operand nested too deeply");
        return -1;
    }
    r->line = p->tok.line;
    r->col = p->tok.col;
    if (is_punct(&p->tok, '!')) {
        r->neg = 1;
        advance(p);
    }
    if (is_punct(&p->tok, '{')) {
        r->kind = R_VEC;
        if (raw_list(p, '}', r, nest))
            return -1;
        if (!nest && is_punct(&p->tok, '|')) { /* {d}|p: tex's texel-resident predicate */
            r->pair = 1;
            advance(p);
        }
        return 0;
    }
    if (is_punct(&p->tok, '(')) {
        r->kind = R_LIST;
        return raw_list(p, ')', r, nest);
    }
    if (is_punct(&p->tok, '[')) {
        /* [x], [x+off], [off], or [a, b, ...] (texture/surface) */
        const struct fe_token *t1 = peek(p, 0), *t2 = peek(p, 1);
        if ((t1->kind == TK_WORD || t1->kind == TK_INT) && (is_punct(t2, ',')) ) {
            r->kind = R_TEXADDR;
            return raw_list(p, ']', r, nest);
        }
        advance(p);
        r->kind = R_ADDR;
        if (p->tok.kind == TK_WORD) {
            r->has_base = 1;
            r->name = p->tok.s;
            r->nlen = p->tok.len;
            advance(p);
            if (is_punct(&p->tok, '+') || is_punct(&p->tok, '-')) {
                int neg = p->tok.ch == '-';
                advance(p);
                int64_t v;
                if (const_primary(p, &v))
                    return -1;
                r->off = neg ? (int64_t)(0 - (uint64_t)v) : v;
            }
        } else {
            int64_t v;
            if (const_expr(p, &v))
                return -1;
            r->off = v;
        }
        return expect(p, ']');
    }
    if (p->tok.kind == TK_INT ||
        (is_punct(&p->tok, '-') && (peek(p, 0)->kind == TK_INT || is_punct(peek(p, 0), '(')))) {
        /* an integer constant expression, e.g. -1, 2+3*4, -(8-10)/2 */
        int64_t v;
        if (const_expr(p, &v))
            return -1;
        r->kind = R_INT;
        r->bits = (uint64_t)v;
        return 0;
    }
    if (is_punct(&p->tok, '-') || p->tok.kind == TK_FLOAT || p->tok.kind == TK_F32 || p->tok.kind == TK_F64) {
        int neg = 0;
        if (is_punct(&p->tok, '-')) {
            neg = 1;
            advance(p);
        }
        switch (p->tok.kind) {
        case TK_INT: {
            int64_t v;
            if (neg) {
                if (const_primary(p, &v))
                    return -1;
                v = (int64_t)(0 - (uint64_t)v);
            } else if (const_expr(p, &v))
                return -1;
            r->kind = R_INT;
            r->bits = (uint64_t)v;
            return 0;
        }
        case TK_FLOAT:
            r->kind = R_FLOAT;
            r->fval = neg ? -p->tok.fval : p->tok.fval;
            break;
        case TK_F32:
            r->kind = R_F32;
            r->bits = p->tok.ival ^ (neg ? 0x80000000u : 0);
            break;
        case TK_F64:
            r->kind = R_F64;
            r->bits = p->tok.ival ^ (neg ? 0x8000000000000000ull : 0);
            break;
        default:
            if (is_punct(&p->tok, '(')) {
                int64_t v;
                if (const_primary(p, &v))
                    return -1;
                r->kind = R_INT;
                r->bits = (uint64_t)(neg ? (int64_t)(0 - (uint64_t)v) : v);
                return 0;
            }
            err_tok(p, &p->tok, "expected a literal after '-'");
            return -1;
        }
        advance(p);
        return 0;
    }
    if (p->tok.kind == TK_WORD && p->tok.s[0] != '.') {
        if (p->tok.len == 1 && p->tok.s[0] == '_') {
            r->kind = R_SINK;
            advance(p);
            if (is_punct(&p->tok, '|')) { /* _|%p: sink as the first of a pair */
                r->pair = 1;
                advance(p);
            }
            return 0;
        }
        r->kind = R_NAME;
        r->name = p->tok.s;
        r->nlen = p->tok.len;
        advance(p);
        if (is_punct(&p->tok, '[') && r->name[0] == '%') {
            /* indexed register range: %blk[%i] */
            advance(p);
            if (p->tok.kind != TK_WORD) {
                err_tok(p, &p->tok, "expected an index register");
                return -1;
            }
            r->kind = R_INDREG;
            r->name2 = p->tok.s;
            r->nlen2 = p->tok.len;
            advance(p);
            return expect(p, ']');
        }
        if (is_punct(&p->tok, '+') && r->name[0] != '%') {
            advance(p);
            int64_t v;
            if (const_primary(p, &v))
                return -1;
            r->off = v;
        }
        if (is_punct(&p->tok, '|')) {
            r->pair = 1;
            advance(p);
        }
        return 0;
    }
    err_tok(p, &p->tok, "expected an operand");
    return -1;
}

/* Is a register of declared type rt acceptable where the instruction reads
 * or writes type et?  Rules as ptxas applies them; `wide` permits a register
 * wider than an integer type (ld, st, cvt). */
static int reg_type_ok(int rt, int et, int wide)
{
    if (et == MX_T_NONE)
        return 1;
    if ((rt == MX_T_PRED) != (et == MX_T_PRED))
        return 0;
    if (rt == MX_T_PRED)
        return 1;
    unsigned rs = mx_type_size(rt), es = mx_type_size(et);
    int rc = mx_type_class(rt), ec = mx_type_class(et);
    if (rs != es) {
        if (!(wide && rs > es && ec != MX_TC_F))
            return 0;
    }
    if (rc == MX_TC_B || ec == MX_TC_B)
        return 1;
    if (ec == MX_TC_F || ec == MX_TC_H)
        return rc == MX_TC_F || rc == MX_TC_H || (wide && rs > es);
    /* integer instruction type */
    if (rc == MX_TC_F)
        return wide && rs > es ? 0 : 0;
    return 1;
}

static int imm_to_type(struct parser *p, const struct raw *r, int et, struct mx_operand *o)
{
    int cls = et == MX_T_NONE ? MX_TC_B : mx_type_class(et);
    o->kind = MX_OPD_IMM;
    o->type = (uint8_t)et;
    double v = 0;
    int isf = 0;
    switch (r->kind) {
    case R_INT:
        if (cls == MX_TC_F) {
            v = (double)(int64_t)r->bits;
            isf = 1;
            break;
        }
        o->imm = (int64_t)r->bits;
        return 0;
    case R_FLOAT:
        v = r->fval;
        isf = 1;
        break;
    case R_F32: {
        if (et == MX_T_F64) {
            uint32_t b = (uint32_t)r->bits;
            float f;
            memcpy(&f, &b, 4);
            v = f;
            isf = 1;
            break;
        }
        o->imm = (int64_t)r->bits;
        o->flags |= cls == MX_TC_F ? MX_OPDF_FLOAT : 0;
        return 0;
    }
    case R_F64:
        if (et == MX_T_F32) {
            memcpy(&v, &r->bits, 8);
            isf = 1;
            break;
        }
        o->imm = (int64_t)r->bits;
        o->flags |= cls == MX_TC_F ? MX_OPDF_FLOAT : 0;
        return 0;
    }
    if (isf) {
        if (cls != MX_TC_F) {
            fe_error(p->diag, r->line, r->col, NULL, 0, "float literal where a .%s value is expected",
                     et ? mx_type_name(et) : "integer");
            return -1;
        }
        o->imm = (int64_t)float_bits_for(et, v);
        o->flags |= MX_OPDF_FLOAT;
    }
    return 0;
}

struct lctx {          /* what lowering one instruction needs */
    struct mx_insn *in;
    const struct mx_opinfo *oi;
    const struct fe_token *optok;
    uint32_t insn_index;
};

static int wide_ok(int op) { return op == MX_OP_LD || op == MX_OP_ST || op == MX_OP_CVT || op == MX_OP_LDU ||
                                    op == MX_OP_MOV || op == MX_OP_SULD || op == MX_OP_SUST || op == MX_OP_TEX ||
                                    op == MX_OP_ATOM || op == MX_OP_RED; }

/* Lowers a register/predicate name. */
static int lower_reg(struct parser *p, struct lctx *c, const struct raw *r, int et, struct mx_operand *o, int allow_pred_neg)
{
    uint32_t slot;
    int rt;
    if (resolve_reg(p, r->name, r->nlen, &slot, &rt) < 0) {
        fe_error(p->diag, r->line, r->col, r->name, r->nlen, "undefined register '%.*s'", r->nlen, r->name);
        return -1;
    }
    o->kind = rt == MX_T_PRED ? MX_OPD_PRED : MX_OPD_REG;
    o->reg = slot;
    o->type = (uint8_t)rt;
    if (r->neg) {
        if (rt != MX_T_PRED || !allow_pred_neg) {
            fe_error(p->diag, r->line, r->col, r->name, r->nlen, "'!' is only allowed on a source predicate");
            return -1;
        }
        o->flags |= MX_OPDF_NEG;
    }
    if (!reg_type_ok(rt, et, wide_ok(c->in->op))) {
        fe_error(p->diag, r->line, r->col, r->name, r->nlen,
                 "register '%.*s' of type .%s cannot be used as a .%s operand of '%s'", r->nlen, r->name,
                 mx_type_name(rt), mx_type_name(et), c->oi->mnemonic);
        return -1;
    }
    return 0;
}

static uint32_t push_vec(struct parser *p, int n)
{
    if (grow((void **)&p->prog->vec, &p->prog->vec_cap, p->prog->nvec + (uint32_t)n, sizeof *p->prog->vec)) {
        oom(p);
        return MX_NONE;
    }
    uint32_t first = p->prog->nvec;
    memset(p->prog->vec + first, 0, (size_t)n * sizeof *p->prog->vec);
    p->prog->nvec += (uint32_t)n;
    return first;
}

static int lower_value(struct parser *p, struct lctx *c, const struct raw *r, int et, struct mx_operand *o, int dst, int nest);

/* Opcodes whose data operands are one value, or a {vector} of exactly N
 * values when .vN is written (ld, ldu, st, atom, red, suld, sust). */
static int vec_data_op(int op)
{
    return op == MX_OP_LD || op == MX_OP_ST || op == MX_OP_LDU || op == MX_OP_ATOM || op == MX_OP_RED ||
           op == MX_OP_SULD || op == MX_OP_SUST;
}

/* {a, b, c, d} */
static int lower_vec(struct parser *p, struct lctx *c, const struct raw *r, int et, struct mx_operand *o, int dst, int nest)
{
    uint32_t first = push_vec(p, r->count);
    if (first == MX_NONE)
        return -1;
    o->kind = MX_OPD_VEC;
    o->reg = first;
    o->count = (uint32_t)r->count;
    o->type = (uint8_t)et;
    /* element type: for ld/st/tex .vN the element is the instruction type;
       for mov pack/unpack ({%r1,%r2} as a .b64) it is half the width */
    int elt = et;
    int vecn = c->in->mod[MX_MG_VEC] ? (2 << (c->in->mod[MX_MG_VEC] - 1)) : 0;
    if (c->in->op == MX_OP_MOV && et != MX_T_NONE) {
        unsigned bits = mx_type_size(et) * 8 / (unsigned)r->count;
        elt = bits == 8 ? MX_T_B8 : bits == 16 ? MX_T_B16 : bits == 32 ? MX_T_B32 : bits == 64 ? MX_T_B64 : MX_T_NONE;
        if (elt == MX_T_NONE || mx_type_size(et) * 8 % (unsigned)r->count) {
            fe_error(p->diag, r->line, r->col, NULL, 0, "a .%s value cannot be split into %d parts", mx_type_name(et), r->count);
            return -1;
        }
    } else if (vecn && !nest && r->count != vecn) { /* nest: texture coordinates, sized by the geometry */
        fe_error(p->diag, r->line, r->col, NULL, 0, "vector operand has %d elements, .v%d needs %d", r->count, vecn, vecn);
        return -1;
    } else if (c->in->op == MX_OP_WMMA_LOAD || c->in->op == MX_OP_WMMA_STORE || c->in->op == MX_OP_WMMA_MMA) {
        elt = MX_T_NONE;
    } else if (vec_data_op(c->in->op) && !vecn && !nest && r->count != 1) { /* {%r1}: one value (nvcc: suld.b.2d.b32 {%r1}) */
        fe_error(p->diag, r->line, r->col, NULL, 0, "vector operand needs a .v2/.v4 modifier");
        return -1;
    }
    for (int i = 0; i < r->count; i++) {
        const struct raw *e = &p->pool[r->first + i];
        struct mx_operand eo;
        memset(&eo, 0, sizeof eo);
        if (e->kind == R_VEC) {
            fe_error(p->diag, e->line, e->col, NULL, 0, "nested vector operand");
            return -1;
        }
        if (lower_value(p, c, e, elt, &eo, dst, nest + 1))
            return -1;
        p->prog->vec[first + (uint32_t)i] = eo;
    }
    return 0;
}

/* Register, immediate, special register, symbol, sink or vector. */
static int lower_value(struct parser *p, struct lctx *c, const struct raw *r, int et, struct mx_operand *o, int dst, int nest)
{
    memset(o, 0, sizeof *o);
    switch (r->kind) {
    case R_SINK:
        if (!dst) {
            fe_error(p->diag, r->line, r->col, NULL, 0, "'_' can only be a destination");
            return -1;
        }
        o->kind = MX_OPD_SINK;
        return 0;
    case R_INT: case R_FLOAT: case R_F32: case R_F64:
        if (dst) {
            fe_error(p->diag, r->line, r->col, NULL, 0, "a destination must be a register");
            return -1;
        }
        if (et == MX_T_PRED) {
            /* nvcc writes true as -1 (mov.pred %p, -1): any non-zero integer is true */
            if (r->kind != R_INT) {
                fe_error(p->diag, r->line, r->col, NULL, 0, "predicate immediate must be an integer (0 is false)");
                return -1;
            }
            o->kind = MX_OPD_IMM;
            o->type = MX_T_PRED;
            o->imm = r->bits != 0;
            return 0;
        }
        return imm_to_type(p, r, et, o);
    case R_VEC:
        if (nest) {
            fe_error(p->diag, r->line, r->col, NULL, 0, "nested vector operand");
            return -1;
        }
        /* {x} without .vN is x (ptxas reads it so); surface loads and stores
           keep nvcc's braces, which the emulator reads as a vector */
        if (r->count == 1 && !c->in->mod[MX_MG_VEC] && vec_data_op(c->in->op) && c->in->op != MX_OP_SULD &&
            c->in->op != MX_OP_SUST && p->pool[r->first].kind != R_VEC)
            return lower_value(p, c, &p->pool[r->first], et, o, dst, nest);
        return lower_vec(p, c, r, et, o, dst, nest);
    case R_NAME:
        break;
    default:
        fe_error(p->diag, r->line, r->col, NULL, 0, "this kind of operand is not allowed here for '%s'", c->oi->mnemonic);
        return -1;
    }
    uint32_t slot;
    int rt;
    if (resolve_reg(p, r->name, r->nlen, &slot, &rt) == 0)
        return lower_reg(p, c, r, et, o, !dst);
    int sreg, comp;
    if (r->name[0] == '%' && resolve_sreg(r->name, r->nlen, &sreg, &comp) == 0) {
        if (dst) {
            fe_error(p->diag, r->line, r->col, r->name, r->nlen, "special register cannot be written");
            return -1;
        }
        o->kind = MX_OPD_SREG;
        o->reg = (uint32_t)sreg;
        o->imm = comp;
        o->type = (uint8_t)mx_sreg_type(sreg);
        return 0;
    }
    struct binding *b = lookup(p, r->name, r->nlen);
    uint32_t fnref = (b && b->kind == B_SYM) ? MX_NONE : find_func(p, r->name, r->nlen);
    if ((b && b->kind == B_SYM) || fnref != MX_NONE) {
        if (dst) {
            fe_error(p->diag, r->line, r->col, r->name, r->nlen, "a destination must be a register");
            return -1;
        }
        if (c->in->op != MX_OP_MOV && c->in->op != MX_OP_CVTA && c->in->op != MX_OP_ISSPACEP) {
            fe_error(p->diag, r->line, r->col, r->name, r->nlen, "symbol '%.*s' cannot be an operand of '%s' (only mov/cvta take addresses)",
                     r->nlen, r->name, c->oi->mnemonic);
            return -1;
        }
        if (et != MX_T_NONE && mx_type_size(et) < 4) {
            fe_error(p->diag, r->line, r->col, r->name, r->nlen, "an address needs a 32- or 64-bit type");
            return -1;
        }
        o->kind = fnref == MX_NONE ? MX_OPD_SYM : MX_OPD_FUNC;
        o->reg = fnref == MX_NONE ? b->index : fnref;
        o->imm = r->off;
        o->type = (uint8_t)et;
        return 0;
    }
    if (r->nlen == 7 && !memcmp(r->name, "WARP_SZ", 7) && !dst) {
        /* the PTX ISA's predefined identifier: the warp size, a constant
         * (nvcc's cooperative-groups code uses it) */
        struct raw k = *r;
        k.kind = R_INT;
        k.bits = 32;
        return imm_to_type(p, &k, et, o);
    }
    if (label_find(p, r->name, r->nlen)) {
        fe_error(p->diag, r->line, r->col, r->name, r->nlen, "label '%.*s' cannot be an operand of '%s'",
                 r->nlen, r->name, c->oi->mnemonic);
        return -1;
    }
    if (r->name[0] == '%')
        fe_error(p->diag, r->line, r->col, r->name, r->nlen, "undefined register '%.*s'", r->nlen, r->name);
    else
        fe_error(p->diag, r->line, r->col, r->name, r->nlen, "undefined symbol '%.*s'", r->nlen, r->name);
    return -1;
}

/* [reg], [reg+off], [sym], [sym+off], [imm] */
static int lower_addr(struct parser *p, struct lctx *c, const struct raw *r, struct mx_operand *o)
{
    memset(o, 0, sizeof *o);
    if (r->kind == R_TEXADDR) {
        uint32_t first = push_vec(p, r->count);
        if (first == MX_NONE)
            return -1;
        o->kind = MX_OPD_TEXADDR;
        o->reg = first;
        o->count = (uint32_t)r->count;
        for (int i = 0; i < r->count; i++) {
            const struct raw *e = &p->pool[r->first + i];
            struct mx_operand eo;
            memset(&eo, 0, sizeof eo);
            if (e->kind == R_NAME) {
                uint32_t slot;
                int rt;
                struct binding *b = lookup(p, e->name, e->nlen);
                if (resolve_reg(p, e->name, e->nlen, &slot, &rt) == 0) {
                    eo.kind = rt == MX_T_PRED ? MX_OPD_PRED : MX_OPD_REG;
                    eo.reg = slot;
                    eo.type = (uint8_t)rt;
                } else if (b && b->kind == B_SYM) {
                    eo.kind = MX_OPD_SYM;
                    eo.reg = b->index;
                } else {
                    fe_error(p->diag, e->line, e->col, e->name, e->nlen, "undefined name '%.*s'", e->nlen, e->name);
                    return -1;
                }
            } else if (e->kind == R_VEC) {
                int ct = c->in->type[1] ? c->in->type[1] : (c->in->op == MX_OP_SULD || c->in->op == MX_OP_SUST ? MX_T_S32 : MX_T_NONE);
                if (lower_vec(p, c, e, ct, &eo, 0, 1))
                    return -1;
                /* lower_vec may have grown prog->vec */
            } else if (e->kind == R_INT) {
                eo.kind = MX_OPD_IMM;
                eo.imm = (int64_t)e->bits;
            } else {
                fe_error(p->diag, e->line, e->col, NULL, 0, "bad texture/surface operand element");
                return -1;
            }
            p->prog->vec[first + (uint32_t)i] = eo;
        }
        return 0;
    }
    if (r->kind != R_ADDR) {
        fe_error(p->diag, r->line, r->col, r->name, r->nlen, "'%s' expects a memory operand [...]", c->oi->mnemonic);
        return -1;
    }
    o->kind = MX_OPD_ADDR;
    o->reg = MX_NONE;
    o->sym = MX_NONE;
    o->imm = r->off;
    if (!r->has_base)
        return 0;
    uint32_t slot;
    int rt;
    if (resolve_reg(p, r->name, r->nlen, &slot, &rt) == 0) {
        unsigned sz = mx_type_size(rt);
        int cls = mx_type_class(rt);
        if ((sz != 4 && sz != 8) || cls == MX_TC_F || cls == MX_TC_H || cls == MX_TC_P) {
            fe_error(p->diag, r->line, r->col, r->name, r->nlen, "address register must be a 32- or 64-bit integer");
            return -1;
        }
        o->reg = slot;
        o->type = (uint8_t)rt;
        if (sz == 4)
            o->flags |= MX_OPDF_BASE32;
        return 0;
    }
    struct binding *b = lookup(p, r->name, r->nlen);
    if (b && b->kind == B_SYM) {
        o->sym = b->index;
        return 0;
    }
    fe_error(p->diag, r->line, r->col, r->name, r->nlen, "undefined name '%.*s' in address", r->nlen, r->name);
    return -1;
}

/* Function referenced by name (call target): created as a pending
 * declaration if not seen yet; arguments are checked at the end. */
static uint32_t func_by_name(struct parser *p, const char *s, int n, unsigned line, int create);

/* call [ '(' rets ')' ','] target [',' '(' args ')'] [',' proto] */
static int lower_call(struct parser *p, struct lctx *c, struct raw *ops, int nops)
{
    int i = 0;
    struct mx_insn *in = c->in;
    in->nopd = 4;
    for (int k = 0; k < 4; k++) {
        memset(&in->opd[k], 0, sizeof in->opd[k]);
    }
    in->opd[0].kind = MX_OPD_LIST;
    in->opd[2].kind = MX_OPD_LIST;
    if (i < nops && ops[i].kind == R_LIST) {
        if (i + 1 >= nops) {
            fe_error(p->diag, ops[i].line, ops[i].col, NULL, 0, "call needs a target after the return list");
            return -1;
        }
        i++;
    }
    int ret_i = i > 0 ? 0 : -1;
    if (i >= nops || ops[i].kind != R_NAME) {
        fe_error(p->diag, c->optok->line, c->optok->col, c->optok->s, c->optok->len, "call needs a function name or register");
        return -1;
    }
    const struct raw *tgt = &ops[i++];
    int args_i = -1;
    if (i < nops && ops[i].kind == R_LIST)
        args_i = i++;
    const struct raw *proto = i < nops ? &ops[i++] : NULL;
    if (i < nops) {
        fe_error(p->diag, ops[i].line, ops[i].col, NULL, 0, "too many operands for 'call'");
        return -1;
    }
    /* lists: param symbols (or registers) */
    for (int w = 0; w < 2; w++) {
        int idx = w ? args_i : ret_i;
        struct mx_operand *o = &in->opd[w ? 2 : 0];
        if (idx < 0)
            continue;
        const struct raw *l = &ops[idx];
        uint32_t first = l->count ? push_vec(p, l->count) : 0; /* "()" and no list decode alike */
        if (first == MX_NONE)
            return -1;
        o->reg = first;
        o->count = (uint32_t)l->count;
        for (int k = 0; k < l->count; k++) {
            const struct raw *e = &p->pool[l->first + k];
            struct mx_operand eo;
            memset(&eo, 0, sizeof eo);
            if (e->kind != R_NAME) {
                fe_error(p->diag, e->line, e->col, NULL, 0, "call arguments must be .param variables");
                return -1;
            }
            struct binding *b = lookup(p, e->name, e->nlen);
            if (b && b->kind == B_SYM && p->prog->syms[b->index].space == MX_SP_PARAM) {
                eo.kind = MX_OPD_SYM;
                eo.reg = b->index;
            } else {
                uint32_t slot;
                int rt;
                if (resolve_reg(p, e->name, e->nlen, &slot, &rt) == 0) {
                    fe_error(p->diag, e->line, e->col, e->name, e->nlen, "unsupported: register call arguments (pass .param variables)");
                    p->unsupported = 1;
                } else
                    fe_error(p->diag, e->line, e->col, e->name, e->nlen, "undefined .param variable '%.*s'", e->nlen, e->name);
                return -1;
            }
            p->prog->vec[first + (uint32_t)k] = eo;
        }
    }
    /* target */
    uint32_t slot;
    int rt;
    if (resolve_reg(p, tgt->name, tgt->nlen, &slot, &rt) == 0) {
        if (rt == MX_T_PRED || (mx_type_size(rt) != 8 && mx_type_size(rt) != 4)) {
            fe_error(p->diag, tgt->line, tgt->col, tgt->name, tgt->nlen, "indirect call needs an address register");
            return -1;
        }
        in->opd[1].kind = MX_OPD_REG;
        in->opd[1].reg = slot;
        in->opd[1].type = (uint8_t)rt;
        if (!proto) {
            fe_error(p->diag, tgt->line, tgt->col, tgt->name, tgt->nlen, "indirect call needs a .callprototype or target list");
            return -1;
        }
    } else {
        struct binding *b = lookup(p, tgt->name, tgt->nlen);
        if (b) {
            fe_error(p->diag, tgt->line, tgt->col, tgt->name, tgt->nlen, "'%.*s' is not a function", tgt->nlen, tgt->name);
            return -1;
        }
        uint32_t fi = func_by_name(p, tgt->name, tgt->nlen, tgt->line, 1);
        if (fi == MX_NONE)
            return -1;
        in->opd[1].kind = MX_OPD_FUNC;
        in->opd[1].reg = fi;
    }
    if (proto) {
        if (proto->kind != R_NAME) {
            fe_error(p->diag, proto->line, proto->col, NULL, 0, "expected a prototype or target-list name");
            return -1;
        }
        struct binding *b = lookup(p, proto->name, proto->nlen);
        if (!b || (b->kind != B_PROTO && b->kind != B_TARGETS)) {
            fe_error(p->diag, proto->line, proto->col, proto->name, proto->nlen, "undefined call prototype '%.*s'", proto->nlen, proto->name);
            return -1;
        }
        in->opd[3].kind = b->kind == B_PROTO ? MX_OPD_PROTO : MX_OPD_TARGETS;
        in->opd[3].reg = b->index;
    }
    return 0;
}

/* Lowers the raw operands of one instruction against its format. */
static int lower_operands(struct parser *p, struct lctx *c, struct raw *ops, int nops)
{
    const struct mx_opinfo *oi = c->oi;
    struct mx_insn *in = c->in;
    if (oi->kinds[0] == MX_FK_CALL)
        return lower_call(p, c, ops, nops);
    /* expand a|b pairs: the raw list has the pair partner as its own entry */
    int npair = 0;
    for (int i = 0; i < nops; i++)
        npair += ops[i].pair;
    /* map written operands onto format slots */
    int map[MX_MAX_OPD];
    int slots = oi->nopd;
    int written = nops;
    int has_P = 0;
    for (int s = 0; s < slots; s++)
        if (oi->kinds[s] == MX_FK_PAIR)
            has_P = 1;
    if (npair && !has_P) {
        fe_error(p->diag, ops[0].line, ops[0].col, NULL, 0, "'|' is not allowed in operands of '%s'", oi->mnemonic);
        return -1;
    }
    int nonpair_slots = slots - has_P;
    int written_np = written - npair;
    int min = oi->nreq, max = nonpair_slots;
    if (written_np < min || written_np > max) {
        if (min == max)
            fe_error(p->diag, c->optok->line, c->optok->col, c->optok->s, c->optok->len,
                     "'%s' takes %d operand%s, %d given", oi->mnemonic, min, min == 1 ? "" : "s", written_np);
        else
            fe_error(p->diag, c->optok->line, c->optok->col, c->optok->s, c->optok->len,
                     "'%s' takes %d to %d operands, %d given", oi->mnemonic, min, max, written_np);
        return -1;
    }
    int skip_mid = oi->optmid >= 0 && written_np < max && written_np == max - 1 ? oi->optmid : -1;
    /* cp.async.L2::cache_hint [dst], [src], n, policy: the policy fills the last slot, src-size stays absent */
    if (in->op == MX_OP_CP_ASYNC && in->mod[MX_MG_L2HINT] && written_np == max - 1)
        skip_mid = 3;
    /* cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [dst], [src], size, policy: no mbarrier */
    if (in->op == MX_OP_CP_BULK && in->mod[MX_MG_L2HINT] && in->mod[MX_MG_BULKDONE] == MX_BULKDONE_BULK_GROUP &&
        written_np == max - 1)
        skip_mid = 3;
    if (oi->optmid >= 0 && written_np < max - 1 && skip_mid < 0) {
        /* fewer than max-1 only possible when trailing optionals exist */
    }
    int w = 0;
    for (int s = 0; s < slots; s++) {
        map[s] = -1;
        if (oi->kinds[s] == MX_FK_PAIR) {
            if (w > 0 && ops[w - 1].pair)
                map[s] = w++;
            continue;
        }
        if (s == skip_mid)
            continue;
        if (w < nops)
            map[s] = w++;
    }
    in->nopd = (uint8_t)slots;
    for (int s = 0; s < slots; s++) {
        struct mx_operand *o = &in->opd[s];
        memset(o, 0, sizeof *o);
        if (map[s] < 0) {
            o->kind = MX_OPD_NONE;
            continue;
        }
        const struct raw *r = &ops[map[s]];
        int et = mx_opd_type(in, s);
        uint32_t rslot;
        int rtype;
        if (in->op == MX_OP_CP_ASYNC && s == 3 && r->kind == R_NAME && resolve_reg(p, r->name, r->nlen, &rslot, &rtype) == 0 &&
            rtype == MX_T_PRED)
            et = MX_T_PRED; /* cp.async ..., cp-size, ignore-src: a predicate in place of src-size */
        switch (oi->kinds[s]) {
        case MX_FK_DST:
        case MX_FK_PAIR:
            if (lower_value(p, c, r, oi->kinds[s] == MX_FK_PAIR ? MX_T_PRED : et, o, 1, 0))
                return -1;
            break;
        case MX_FK_SRC:
            if (lower_value(p, c, r, et, o, 0, 0))
                return -1;
            break;
        case MX_FK_PRED:
            if (r->kind == R_INT) {
                if (lower_value(p, c, r, MX_T_PRED, o, 0, 0))
                    return -1;
                break;
            }
            if (r->kind != R_NAME) {
                fe_error(p->diag, r->line, r->col, NULL, 0, "expected a predicate");
                return -1;
            }
            if (lower_value(p, c, r, MX_T_PRED, o, 0, 0))
                return -1;
            break;
        case MX_FK_MEM:
            if (lower_addr(p, c, r, o))
                return -1;
            break;
        case MX_FK_LABEL:
        case MX_FK_TARGETS: {
            if (r->kind != R_NAME || r->name[0] == '%') {
                fe_error(p->diag, r->line, r->col, r->name, r->nlen, "expected a label");
                return -1;
            }
            struct binding *b = lookup(p, r->name, r->nlen);
            if (oi->kinds[s] == MX_FK_TARGETS && b && b->kind == B_TARGETS) {
                const struct mx_symbol *ts = &p->prog->syms[b->index];
                o->kind = MX_OPD_TARGETS;
                o->reg = (uint32_t)ts->offset;
                o->count = (uint32_t)ts->size;
                o->sym = b->index;
                break;
            }
            struct fe_token at = { .line = r->line, .col = r->col }; /* "undefined label" points at the operand */
            uint32_t li = label_ref(p, r->name, r->nlen, &at);
            if (li == MX_NONE)
                return -1;
            o->kind = MX_OPD_LABEL;
            o->reg = li;
            add_fixup(p, 0, c->insn_index, s);
            break;
        }
        case MX_FK_INDREG:
            if (r->kind == R_INDREG) {
                struct binding *b = lookup(p, r->name, r->nlen);
                if (!b || b->kind != B_RANGE) {
                    fe_error(p->diag, r->line, r->col, r->name, r->nlen, "'%.*s' is not a declared register range %%name<N>", r->nlen, r->name);
                    return -1;
                }
                const struct mx_regdecl *d = &p->prog->regdecls[b->index];
                if (!reg_type_ok(d->type, et, 0)) {
                    fe_error(p->diag, r->line, r->col, r->name, r->nlen, "register range of type .%s cannot be used as .%s", mx_type_name(d->type), mx_type_name(et));
                    return -1;
                }
                uint32_t islot;
                int it;
                if (resolve_reg(p, r->name2, r->nlen2, &islot, &it) < 0 || it == MX_T_PRED || mx_type_class(it) == MX_TC_F) {
                    fe_error(p->diag, r->line, r->col, r->name2, r->nlen2, "index must be an integer register");
                    return -1;
                }
                o->kind = MX_OPD_INDREG;
                o->reg = d->base;
                o->sym = d->count;
                o->imm = islot;
                o->type = d->type;
                o->flags = mx_type_size(it) == 8 ? 0 : MX_OPDF_BASE32;
            } else if (lower_value(p, c, r, et, o, s == 0, 0)) {
                return -1;
            }
            break;
        default: /* a malformed opcode-table row: never silently drop the instruction */
            fe_error(p->diag, c->optok->line, c->optok->col, c->optok->s, c->optok->len,
                     "internal error: operand kind '%c' of '%s' is unknown", oi->kinds[s], oi->mnemonic);
            return -1;
        }
    }
    /* .vN moves N values: a scalar where the {vector} belongs would make the
       emulator read or write N registers starting at one (ld.v4 %r1, [a]). */
    int vecn = in->mod[MX_MG_VEC] ? 2 << (in->mod[MX_MG_VEC] - 1) : 0;
    if (vecn && (vec_data_op(in->op) || in->op == MX_OP_TEX || in->op == MX_OP_TLD4)) {
        for (int s = 0; s < slots; s++) {
            int data = oi->kinds[s] == MX_FK_DST || (oi->kinds[s] == MX_FK_SRC && vec_data_op(in->op));
            if (map[s] < 0 || !data || in->opd[s].kind == MX_OPD_VEC)
                continue;
            const struct raw *r = &ops[map[s]];
            fe_error(p->diag, r->line, r->col, r->name, r->nlen,
                     "'%s' with .v%d needs a vector operand {...} of %d elements, not a single value", oi->mnemonic, vecn,
                     vecn);
            return -1;
        }
    }
    if (in->op == MX_OP_MOVIND) {
        int nind = (in->opd[0].kind == MX_OPD_INDREG) + (in->opd[1].kind == MX_OPD_INDREG);
        if (nind != 1) {
            fe_error(p->diag, c->optok->line, c->optok->col, c->optok->s, c->optok->len,
                     "movind needs exactly one indexed register operand %%range[%%index]");
            return -1;
        }
        if (in->opd[0].kind != MX_OPD_INDREG && in->opd[0].kind != MX_OPD_REG) {
            fe_error(p->diag, c->optok->line, c->optok->col, c->optok->s, c->optok->len, "movind destination must be a register");
            return -1;
        }
    }
    return 0;
}

/* Splits the opcode word into mnemonic and modifiers and fills the insn. */
static int decode_opcode(struct parser *p, const struct fe_token *t, struct mx_insn *in, const struct mx_opinfo **oip,
                         struct fe_form *form)
{
    const char *s = t->s;
    int n = t->len;
    int dots[16], nd = 0;
    for (int i = 0; i < n && nd < 15; i++)
        if (s[i] == '.')
            dots[nd++] = i;
    dots[nd] = n;
    int op = -1, k;
    for (k = nd < 4 ? nd : 4; k >= 0; k--) {
        op = mx_op_lookup(s, (size_t)dots[k]);
        if (op >= 0)
            break;
    }
    if (op < 0) {
        err_tok(p, t, "unknown instruction '%.*s'", dots[0], s);
        return -1;
    }
    const struct mx_opinfo *oi = mx_opinfo(op);
    *oip = oi;
    if (oi->ext != MX_EXT_NONE && !(p->opt->ext_mask & (1u << oi->ext))) {
        err_tok(p, t, "'%s' belongs to ISA extension '%s', which is not enabled (use --isa-ext %s)",
                oi->mnemonic, mx_ext_name(oi->ext), mx_ext_name(oi->ext));
        return -1;
    }
    in->op = (uint16_t)op;
    int ntypes = 0;
    for (int i = k; i < nd; i++) {
        const char *m = s + dots[i] + 1;
        int ml = dots[i + 1] - dots[i] - 1;
        int ty = mx_type_lookup(m, (size_t)ml);
        if (ty != MX_T_NONE && oi->ntypes) {
            if (ntypes >= oi->ntypes) {
                fe_error(p->diag, t->line, t->col + (unsigned)dots[i], t->s, t->len, "too many types for '%s'", oi->mnemonic);
                return -1;
            }
            if (!(oi->typemask[ntypes] & (1ull << ty))) {
                fe_error(p->diag, t->line, t->col + (unsigned)dots[i], t->s, t->len, "type .%.*s is not allowed for '%s'", ml, m, oi->mnemonic);
                return -1;
            }
            form->tcol[ntypes] = (uint16_t)dots[i];
            in->type[ntypes++] = (uint8_t)ty;
            continue;
        }
        int placed = 0, known = 0;
        for (int g = 0; g < oi->ngroups; g++) {
            int grp = oi->groups[g];
            int v = mx_mod_lookup(grp, m, (size_t)ml);
            if (!v)
                continue;
            known = 1;
            if (in->mod[grp])
                continue;
            in->mod[grp] = (uint8_t)v;
            form->mcol[grp] = (uint16_t)dots[i];
            placed = 1;
            break;
        }
        if (!placed) {
            if (known)
                fe_error(p->diag, t->line, t->col + (unsigned)dots[i], t->s, t->len, "modifier .%.*s conflicts with another modifier of '%s'", ml, m, oi->mnemonic);
            else if (ty != MX_T_NONE)
                fe_error(p->diag, t->line, t->col + (unsigned)dots[i], t->s, t->len, "'%s' takes no type", oi->mnemonic);
            else
                fe_error(p->diag, t->line, t->col + (unsigned)dots[i], t->s, t->len, "unknown modifier .%.*s for '%s'", ml, m, oi->mnemonic);
            return -1;
        }
    }
    if (ntypes < oi->ntypes_req) {
        err_tok(p, t, "'%s' needs %s type%s", oi->mnemonic, oi->ntypes_req == 1 ? "a" : "more", oi->ntypes_req == 1 ? "" : "s");
        return -1;
    }
    /* Rules the table cannot express. */
    if (in->mod[MX_MG_SPACE] && in->mod[MX_MG_SPACE2] == 0 && in->op == MX_OP_CP_ASYNC) {
        err_tok(p, t, "cp.async needs .shared.global");
        return -1;
    }
    if (in->op == MX_OP_CP_BULK && (!in->mod[MX_MG_SPACE] || !in->mod[MX_MG_SPACE2] || !in->mod[MX_MG_BULKDONE])) {
        err_tok(p, t, "cp.async.bulk needs .dst.src state spaces and a completion mechanism "
                      "(.mbarrier::complete_tx::bytes or .bulk_group)");
        return -1;
    }
    if (in->op == MX_OP_CVTA && !in->mod[MX_MG_SPACE]) {
        err_tok(p, t, "cvta needs a state space");
        return -1;
    }
    if ((in->op == MX_OP_ATOM || in->op == MX_OP_RED) && !in->mod[MX_MG_ATOMOP]) {
        err_tok(p, t, "'%s' needs an operation (.add, .cas, ...)", oi->mnemonic);
        return -1;
    }
    if (in->op == MX_OP_SETP && !in->mod[MX_MG_CMP]) {
        err_tok(p, t, "setp needs a comparison (.eq, .lt, ...)");
        return -1;
    }
    if (in->op == MX_OP_SHFL && !in->mod[MX_MG_SHFL]) {
        err_tok(p, t, "shfl needs a mode (.up, .down, .bfly, .idx)");
        return -1;
    }
    if (in->op == MX_OP_VOTE && !in->mod[MX_MG_VOTE]) {
        err_tok(p, t, "vote needs a mode (.all, .any, .uni, .ballot)");
        return -1;
    }
    return 0;
}

/* instruction -> ['@' ['!'] pred] opcode [operand (',' operand)*] ';' */
static void instruction(struct parser *p)
{
    struct mx_insn in;
    memset(&in, 0, sizeof in);
    in.guard = MX_NONE;
    in.ipdom = MX_NONE;
    struct fe_token start = p->tok;
    if (is_punct(&p->tok, '@')) {
        advance(p);
        if (is_punct(&p->tok, '!')) {
            in.guard_neg = 1;
            advance(p);
        }
        uint32_t slot;
        int rt;
        if (p->tok.kind != TK_WORD || resolve_reg(p, p->tok.s, p->tok.len, &slot, &rt) < 0 || rt != MX_T_PRED) {
            err_tok(p, &p->tok, "guard must be a declared predicate register");
            recover(p);
            return;
        }
        in.guard = slot;
        advance(p);
    }
    if (p->tok.kind != TK_WORD || p->tok.s[0] == '.' || p->tok.s[0] == '%') {
        err_tok(p, &p->tok, "expected an instruction");
        recover(p);
        return;
    }
    struct fe_token optok = p->tok;
    const struct mx_opinfo *oi = NULL;
    advance(p);
    struct fe_form form = { .in = &in, .diag = p->diag, .line = optok.line, .col = optok.col, .s = optok.s, .len = optok.len };
    if (decode_opcode(p, &optok, &in, &oi, &form)) {
        recover(p);
        return;
    }
    in.line = start.line;
    in.col = (uint16_t)(start.col > 65535 ? 65535 : start.col);
    in.loc_file = p->loc_file;
    in.loc_line = p->loc_line;
    /* operands */
    struct raw ops[MX_MAX_OPD + 4];
    int nops = 0;
    p->npool = 0;
    if (!is_punct(&p->tok, ';')) {
        for (;;) {
            if (nops >= MX_MAX_OPD + 4) {
                err_tok(p, &p->tok, "too many operands");
                recover(p);
                return;
            }
            memset(&ops[nops], 0, sizeof ops[nops]);
            if (raw_operand(p, &ops[nops], 0)) {
                recover(p);
                return;
            }
            nops++;
            if (ops[nops - 1].pair)
                continue; /* a|b: b follows without a comma */
            if (is_punct(&p->tok, ',')) {
                advance(p);
                continue;
            }
            break;
        }
    }
    if (!is_punct(&p->tok, ';')) {
        err_tok(p, &p->tok, "expected ';' after instruction");
        recover(p);
        return;
    }
    advance(p);
    if (p->prog->ninsns >= FE_MAX_INSNS) {
        err_tok(p, &optok, "more than %u instructions", FE_MAX_INSNS);
        return;
    }
    uint32_t idx = p->prog->ninsns;
    struct lctx c = { &in, oi, &optok, idx };
    uint32_t nfix0 = p->nfix;
    if (lower_operands(p, &c, ops, nops) || fe_check_form(&form)) {
        p->nfix = nfix0;
        return;
    }
    uint32_t i = PUSH(p, insns, ninsns, insns_cap);
    if (i == MX_NONE)
        return;
    p->prog->insns[i] = in;
}

/* ------------------------------------------------------------ functions */

static uint32_t new_func(struct parser *p, const char *s, int n, unsigned line)
{
    uint32_t fi = PUSH(p, funcs, nfuncs, funcs_cap);
    if (fi == MX_NONE)
        return MX_NONE;
    struct mx_func *f = &p->prog->funcs[fi];
    memset(f, 0, sizeof *f);
    f->name = intern(p, s, (size_t)n);
    f->flags = MX_FUNCF_DECL;
    f->line = line;
    f->param = f->ret = MX_NONE;
    f->shared_align = 1;
    return fi;
}

/* Functions live in their own module-wide namespace (prototypes excepted),
 * indexed by name in p->fhash so that a module of many functions and calls
 * resolves in linear time. */
static uint32_t func_slot(const struct parser *p, const char *s, int n)
{
    uint32_t mask = p->fhcap - 1, i = hashname(s, n) & mask;
    for (;;) {
        uint32_t h = p->fhash[i];
        if (!h)
            return i;
        const char *nm = mx_str(p->prog, p->prog->funcs[h - 1].name);
        if (!strncmp(nm, s, (size_t)n) && nm[n] == 0)
            return i;
        i = (i + 1) & mask;
    }
}

static uint32_t find_func(struct parser *p, const char *s, int n)
{
    if (!p->nfhash)
        return MX_NONE;
    uint32_t h = p->fhash[func_slot(p, s, n)];
    return h ? h - 1 : MX_NONE;
}

/* Indexes function fi (not a prototype) by its name; the first one wins. */
static void func_index(struct parser *p, uint32_t fi)
{
    if ((p->nfhash + 1) * 2 > p->fhcap) {
        uint32_t nc = p->fhcap ? p->fhcap * 2 : 256;
        uint32_t *h = calloc(nc, sizeof *h);
        if (!h) {
            oom(p);
            return;
        }
        free(p->fhash);
        p->fhash = h;
        p->fhcap = nc;
        p->nfhash = 0;
        for (uint32_t i = 0; i < p->prog->nfuncs; i++) {
            const struct mx_func *f = &p->prog->funcs[i];
            const char *nm = mx_str(p->prog, f->name);
            if (i == fi || (f->flags & MX_FUNCF_PROTO))
                continue;
            uint32_t sl = func_slot(p, nm, (int)strlen(nm));
            if (!h[sl]) {
                h[sl] = i + 1;
                p->nfhash++;
            }
        }
    }
    const char *nm = mx_str(p->prog, p->prog->funcs[fi].name);
    uint32_t sl = func_slot(p, nm, (int)strlen(nm));
    if (!p->fhash[sl]) {
        p->fhash[sl] = fi + 1;
        p->nfhash++;
    }
}

static uint32_t func_by_name(struct parser *p, const char *s, int n, unsigned line, int create)
{
    uint32_t fi = find_func(p, s, n);
    if (fi != MX_NONE || !create)
        return fi;
    fi = new_func(p, s, n, line);
    if (fi == MX_NONE)
        return MX_NONE;
    func_index(p, fi);
    p->prog->funcs[fi].nparams = MX_NONE; /* signature unknown until declared */
    return fi;
}

/* param -> '.param' [.align N] type [.ptr [space] [.align N]] name ['[' N ']']
 *        | '.reg' type name  (old ABI: unsupported)                          */
static int param_decl(struct parser *p, int kindflag, uint32_t *out)
{
    struct fe_token start = p->tok;
    if (is_word(&p->tok, ".reg")) {
        unsupported(p, &p->tok, "register parameters (.reg in a parameter list); use .param");
        return -1;
    }
    if (!is_word(&p->tok, ".param")) {
        err_tok(p, &p->tok, "expected .param");
        return -1;
    }
    advance(p);
    uint32_t align = 0, ptr_align = 0;
    int type = MX_T_NONE, ptrsp = 0xff;
    uint32_t flags = (uint32_t)kindflag;
    for (;;) {
        if (is_word(&p->tok, ".align")) {
            advance(p);
            int64_t a;
            if (const_expr(p, &a))
                return -1;
            if (a <= 0 || (a & (a - 1)) || a > 4096) {
                err_tok(p, &start, "alignment must be a power of two up to 4096");
                return -1;
            }
            if (flags & MX_SYMF_PTR)
                ptr_align = (uint32_t)a;
            else
                align = (uint32_t)a;
            continue;
        }
        if (is_word(&p->tok, ".ptr")) {
            advance(p);
            flags |= MX_SYMF_PTR;
            int sp = space_of_directive(&p->tok);
            if (sp >= 0) {
                ptrsp = sp;
                advance(p);
            }
            continue;
        }
        if (type == MX_T_NONE) {
            type = type_of_directive(&p->tok);
            if (type != MX_T_NONE) {
                advance(p);
                continue;
            }
        }
        break;
    }
    if (type == MX_T_NONE || type == MX_T_PRED) {
        err_tok(p, &p->tok, "expected a parameter type");
        return -1;
    }
    const char *name = "_";
    int nlen = 1;
    struct fe_token nt = p->tok;
    if (p->tok.kind == TK_WORD && p->tok.s[0] != '.') {
        name = p->tok.s;
        nlen = p->tok.len;
        advance(p);
    }
    uint32_t si = new_sym(p, name, nlen, MX_SP_PARAM, nt.line);
    if (si == MX_NONE)
        return -1;
    struct mx_symbol *s = &p->prog->syms[si];
    s->type = (uint8_t)type;
    s->flags = flags;
    s->ptr_space = (uint8_t)ptrsp;
    s->ptr_align = ptr_align;
    uint64_t count = 1;
    if (is_punct(&p->tok, '[')) {
        advance(p);
        int64_t d;
        if (const_expr(p, &d) || expect(p, ']'))
            return -1;
        if (d <= 0 || d > (1 << 20)) {
            err_tok(p, &nt, "parameter array size must be between 1 and 2^20");
            return -1;
        }
        s = &p->prog->syms[si];
        s->ndims = 1;
        s->dims[0] = (uint32_t)d;
        count = (uint64_t)d;
    }
    s = &p->prog->syms[si];
    s->size = count * mx_type_size(type);
    s->align = align ? align : mx_type_size(type);
    *out = si;
    return 0;
}

/* param_list -> '(' [param (',' param)*] ')' ; returns first symbol and count */
static int param_list(struct parser *p, int kindflag, uint32_t *first, uint32_t *count, uint32_t *bytes)
{
    if (expect(p, '('))
        return -1;
    *first = p->prog->nsyms;
    *count = 0;
    uint64_t off = 0;
    if (is_punct(&p->tok, ')')) {
        advance(p);
        *first = MX_NONE; /* "f()" and "f" decode the same */
        *bytes = 0;
        return 0;
    }
    for (;;) {
        uint32_t si;
        if (param_decl(p, kindflag, &si))
            return -1;
        struct mx_symbol *s = &p->prog->syms[si];
        s->offset = align_up(off, s->align);
        off = s->offset + s->size;
        if (off > (1u << 24)) {
            err_tok(p, &p->tok, "parameter list too large");
            return -1;
        }
        (*count)++;
        if (is_punct(&p->tok, ',')) {
            advance(p);
            continue;
        }
        break;
    }
    *bytes = (uint32_t)off;
    return expect(p, ')');
}

/* Moves n symbols created at [from, from+n) onto [to, to+n) (a definition
 * reusing its declaration's parameters) and drops the originals. */
static int reuse_params(struct parser *p, uint32_t to, uint32_t from, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        struct mx_symbol s = p->prog->syms[from + i];
        p->prog->syms[to + i] = s;
    }
    if (from + n == p->prog->nsyms)
        p->prog->nsyms = from;
    return 0;
}

static void body(struct parser *p);

/* perf -> .maxntid N[,N[,N]] | .reqntid ... | .minnctapersm N | .maxnctapersm N | .maxnreg N | .noreturn | .pragma "s" ';' */
static int perf_directives(struct parser *p, struct mx_func *tmpl)
{
    for (;;) {
        uint32_t *dst3 = NULL, *dst1 = NULL;
        if (is_word(&p->tok, ".maxntid"))
            dst3 = tmpl->maxntid;
        else if (is_word(&p->tok, ".reqntid"))
            dst3 = tmpl->reqntid;
        else if (is_word(&p->tok, ".minnctapersm"))
            dst1 = &tmpl->minnctapersm;
        else if (is_word(&p->tok, ".maxnctapersm"))
            dst1 = &tmpl->maxnctapersm;
        else if (is_word(&p->tok, ".maxnreg"))
            dst1 = &tmpl->maxnreg;
        else if (is_word(&p->tok, ".noreturn")) {
            tmpl->flags |= MX_FUNCF_NORETURN;
            advance(p);
            continue;
        } else if (is_word(&p->tok, ".pragma")) {
            advance(p);
            if (p->tok.kind != TK_STRING) {
                err_tok(p, &p->tok, "expected a string after .pragma");
                return -1;
            }
            advance(p);
            if (expect(p, ';'))
                return -1;
            continue;
        } else if (is_word(&p->tok, ".explicitcluster")) {
            advance(p);
            continue;
        } else if (is_word(&p->tok, ".reqnctapercluster") || is_word(&p->tok, ".maxclusterrank")) {
            advance(p);
            int64_t v;
            do {
                if (const_expr(p, &v))
                    return -1;
            } while (is_punct(&p->tok, ',') && (advance(p), 1));
            continue;
        } else
            return 0;
        advance(p);
        for (int i = 0; i < (dst3 ? 3 : 1); i++) {
            int64_t v;
            if (const_expr(p, &v))
                return -1;
            if (v < 0 || v > 1 << 20) {
                err_tok(p, &p->tok, "value out of range");
                return -1;
            }
            if (dst3)
                dst3[i] = (uint32_t)v;
            else
                *dst1 = (uint32_t)v;
            if (!dst3 || !is_punct(&p->tok, ','))
                break;
            advance(p);
        }
        if (dst3)
            for (int i = 0; i < 3; i++)
                if (!dst3[i])
                    dst3[i] = 1;
    }
}

static void finish_function(struct parser *p);

/* function -> (.entry | .func ['(' rets ')']) name ['(' params ')'] perf* (';' | '{' body '}') */
static void function(struct parser *p, uint32_t linkflags)
{
    int is_entry = is_word(&p->tok, ".entry");
    struct fe_token kw = p->tok;
    advance(p);
    uint32_t rfirst = MX_NONE, rcount = 0, rbytes = 0;
    int has_rets = 0;
    uint32_t nsyms0 = p->prog->nsyms;
    p->fn = -1;
    if (!is_entry && is_punct(&p->tok, '(')) {
        if (param_list(p, MX_SYMF_FUNC_RET, &rfirst, &rcount, &rbytes))
            goto fail;
        has_rets = 1;
    }
    if (p->tok.kind != TK_WORD || p->tok.s[0] == '.' || p->tok.s[0] == '%') {
        err_tok(p, &p->tok, "expected a function name");
        goto fail;
    }
    struct fe_token nt = p->tok;
    advance(p);
    uint32_t pfirst = MX_NONE, pcount = 0, pbytes = 0;
    int has_params = 0;
    if (is_punct(&p->tok, '(')) {
        if (param_list(p, is_entry ? MX_SYMF_ENTRY_PARAM : MX_SYMF_FUNC_PARAM, &pfirst, &pcount, &pbytes))
            goto fail;
        has_params = 1;
    }
    (void)has_params;
    (void)has_rets;
    struct mx_func tmpl;
    memset(&tmpl, 0, sizeof tmpl);
    if (perf_directives(p, &tmpl))
        goto fail;
    int is_def = is_punct(&p->tok, '{');
    if (!is_def && !is_punct(&p->tok, ';')) {
        err_tok(p, &p->tok, "expected '{' or ';' after function header");
        goto fail;
    }
    /* find or create */
    uint32_t fi = func_by_name(p, nt.s, nt.len, nt.line, 0);
    struct mx_func *f;
    if (fi != MX_NONE) {
        f = &p->prog->funcs[fi];
        if (is_def && !(f->flags & MX_FUNCF_DECL)) {
            err_tok(p, &nt, "redefinition of function '%.*s'", nt.len, nt.s);
            goto fail;
        }
        if (!!(f->flags & MX_FUNCF_ENTRY) != is_entry && f->nparams != MX_NONE) {
            err_tok(p, &nt, "'%.*s' declared both as .entry and .func", nt.len, nt.s);
            goto fail;
        }
        if (f->nparams != MX_NONE) {
            if (f->nparams != pcount || f->nrets != rcount) {
                err_tok(p, &nt, "parameters of '%.*s' do not match its declaration", nt.len, nt.s);
                goto fail;
            }
            /* definition: its parameter names win; keep the declaration's slots */
            if (pcount)
                reuse_params(p, f->param, pfirst, pcount);
            if (rcount)
                reuse_params(p, f->ret, rfirst, rcount);
            if (p->prog->nsyms > nsyms0 && pcount + rcount)
                p->prog->nsyms = nsyms0;
        } else {
            f->param = pfirst;
            f->nparams = pcount;
            f->ret = rfirst;
            f->nrets = rcount;
        }
    } else {
        if (lookup(p, nt.s, nt.len)) {
            err_tok(p, &nt, "'%.*s' is already declared as a variable", nt.len, nt.s);
            goto fail;
        }
        fi = new_func(p, nt.s, nt.len, nt.line);
        if (fi == MX_NONE)
            return;
        func_index(p, fi);
        f = &p->prog->funcs[fi];
        f->param = pfirst;
        f->nparams = pcount;
        f->ret = rfirst;
        f->nrets = rcount;
    }
    f = &p->prog->funcs[fi];
    f->param_size = pbytes;
    f->ret_size = rbytes;
    f->flags |= linkflags | (is_entry ? MX_FUNCF_ENTRY : 0) | (tmpl.flags & MX_FUNCF_NORETURN);
    memcpy(f->maxntid, tmpl.maxntid, sizeof f->maxntid);
    memcpy(f->reqntid, tmpl.reqntid, sizeof f->reqntid);
    f->minnctapersm = tmpl.minnctapersm;
    f->maxnctapersm = tmpl.maxnctapersm;
    f->maxnreg = tmpl.maxnreg;
    for (uint32_t i = 0; i < f->nparams; i++)
        p->prog->syms[f->param + i].func = fi;
    for (uint32_t i = 0; i < f->nrets; i++)
        p->prog->syms[f->ret + i].func = fi;
    if (!is_def) {
        advance(p);
        item(p, MX_EV_FUNC_DECL, fi);
        return;
    }
    (void)kw;
    f->flags &= ~(uint32_t)MX_FUNCF_DECL;
    f->first = p->prog->ninsns;
    f->line = nt.line;
    f->regdecl = p->prog->nregdecls;
    f->ev_first = p->prog->nevents;
    item(p, MX_EV_FUNC_DEF, fi);
    p->fn = (int32_t)fi;
    label_reset(p);
    p->nfix = 0;
    p->loc_file = 0;
    p->loc_line = 0;
    /* scope: parameters */
    p->depth = 1;
    for (uint32_t i = 0; i < f->nparams; i++) {
        const struct mx_symbol *s = &p->prog->syms[f->param + i];
        const char *nm = mx_str(p->prog, s->name);
        if (strcmp(nm, "_"))
            bind_at(p, NULL, NULL, s->name, (int)strlen(nm), B_SYM, f->param + i);
    }
    for (uint32_t i = 0; i < f->nrets; i++) {
        const struct mx_symbol *s = &p->prog->syms[f->ret + i];
        const char *nm = mx_str(p->prog, s->name);
        if (strcmp(nm, "_"))
            bind_at(p, NULL, NULL, s->name, (int)strlen(nm), B_SYM, f->ret + i);
    }
    advance(p); /* { */
    body(p);
    finish_function(p);
    pop_scope(p);
    p->fn = -1;
    return;
fail:
    p->fn = -1;
    recover(p);
}

/* Names strtab offsets of parameters point into the source-independent
 * string table, so bindings to them use the strtab text (stable). */

static void finish_function(struct parser *p)
{
    struct mx_func *f = &p->prog->funcs[p->fn];
    f->ninsns = p->prog->ninsns - f->first;
    f->nev = p->prog->nevents - f->ev_first;
    int bad = 0;
    for (uint32_t i = 0; i < p->nlabels; i++) {
        struct mx_label *l = &p->prog->labels[p->labels[i].label];
        if (l->insn == MX_NONE) {
            fe_error(p->diag, p->labels[i].line, p->labels[i].col, p->labels[i].name, p->labels[i].len,
                     "undefined label '%.*s'", p->labels[i].len, p->labels[i].name);
            bad = 1;
        }
    }
    for (uint32_t i = 0; i < p->nfix; i++) {
        const struct fixup *x = &p->fix[i];
        struct mx_operand *o = x->in_vec ? &p->prog->vec[x->where] : &p->prog->insns[x->where].opd[x->slot];
        uint32_t insn = bad ? 0 : p->prog->labels[o->reg].insn;
        o->reg = insn == MX_NONE ? 0 : insn;
    }
    if (!f->ninsns || p->prog->insns[p->prog->ninsns - 1].op != MX_OP_RET) {
        /* falling off the end of a function is an implicit return */
    }
}

/* label_stmt -> name ':' [ .branchtargets l (',' l)* ';' | .callprototype ... ';' | .calltargets ... ';' ] */
static void label_stmt(struct parser *p)
{
    struct fe_token nt = p->tok;
    advance(p);
    advance(p); /* ':' */
    if (is_word(&p->tok, ".branchtargets") || is_word(&p->tok, ".calltargets")) {
        int calls = is_word(&p->tok, ".calltargets");
        advance(p);
        struct mx_operand tmp[FE_MAX_VEC];
        struct fe_token lt[FE_MAX_VEC];
        int n = 0;
        for (;;) {
            if (p->tok.kind != TK_WORD || n >= FE_MAX_VEC) {
                err_tok(p, &p->tok, n >= FE_MAX_VEC ? "too many targets" : "expected a label");
                recover(p);
                return;
            }
            lt[n] = p->tok;
            memset(&tmp[n], 0, sizeof tmp[n]);
            n++;
            advance(p);
            if (is_punct(&p->tok, ',')) {
                advance(p);
                continue;
            }
            break;
        }
        if (expect(p, ';')) {
            recover(p);
            return;
        }
        uint32_t first = push_vec(p, n);
        if (first == MX_NONE)
            return;
        for (int i = 0; i < n; i++) {
            struct mx_operand *o = &p->prog->vec[first + (uint32_t)i];
            if (calls) {
                uint32_t fi = func_by_name(p, lt[i].s, lt[i].len, lt[i].line, 1);
                o->kind = MX_OPD_FUNC;
                o->reg = fi;
            } else {
                uint32_t li = label_ref(p, lt[i].s, lt[i].len, &lt[i]);
                o->kind = MX_OPD_LABEL;
                o->reg = li;
                add_fixup(p, 1, first + (uint32_t)i, 0);
            }
        }
        uint32_t si = new_sym(p, nt.s, nt.len, MX_SP_TARGETS, nt.line);
        if (si == MX_NONE)
            return;
        p->prog->syms[si].offset = first;
        p->prog->syms[si].size = (uint64_t)n;
        p->prog->syms[si].flags = calls ? MX_SYMF_FUNC_PARAM : 0; /* reuse: calltargets marker */
        if (!bind(p, &nt, nt.s, nt.len, B_TARGETS, si))
            event(p, MX_EV_SYM, si);
        return;
    }
    if (is_word(&p->tok, ".callprototype")) {
        advance(p);
        uint32_t rfirst = MX_NONE, rcount = 0, rbytes = 0, pfirst = MX_NONE, pcount = 0, pbytes = 0;
        int save_fn = p->fn;
        if (is_punct(&p->tok, '(') && param_list(p, MX_SYMF_FUNC_RET, &rfirst, &rcount, &rbytes)) {
            recover(p);
            return;
        }
        if (!(p->tok.kind == TK_WORD && p->tok.len == 1 && p->tok.s[0] == '_')) {
            err_tok(p, &p->tok, "expected '_' in .callprototype");
            recover(p);
            return;
        }
        advance(p);
        if (is_punct(&p->tok, '(') && param_list(p, MX_SYMF_FUNC_PARAM, &pfirst, &pcount, &pbytes)) {
            recover(p);
            return;
        }
        struct mx_func tmpl;
        memset(&tmpl, 0, sizeof tmpl);
        if (perf_directives(p, &tmpl) || expect(p, ';')) {
            recover(p);
            return;
        }
        uint32_t fi = new_func(p, nt.s, nt.len, nt.line);
        if (fi == MX_NONE)
            return;
        struct mx_func *f = &p->prog->funcs[fi];
        f->flags = MX_FUNCF_PROTO | MX_FUNCF_DECL | (tmpl.flags & MX_FUNCF_NORETURN);
        f->param = pfirst;
        f->nparams = pcount;
        f->ret = rfirst;
        f->nrets = rcount;
        f->param_size = pbytes;
        f->ret_size = rbytes;
        for (uint32_t i = 0; i < pcount; i++)
            p->prog->syms[pfirst + i].func = fi;
        for (uint32_t i = 0; i < rcount; i++)
            p->prog->syms[rfirst + i].func = fi;
        p->fn = save_fn;
        if (!bind(p, &nt, nt.s, nt.len, B_PROTO, fi))
            event(p, MX_EV_PROTO, fi);
        return;
    }
    /* plain label */
    uint32_t li = label_ref(p, nt.s, nt.len, &nt);
    if (li == MX_NONE)
        return;
    struct mx_label *l = &p->prog->labels[li];
    if (l->insn != MX_NONE) {
        err_tok(p, &nt, "duplicate label '%.*s'", nt.len, nt.s);
        return;
    }
    l->insn = p->prog->ninsns;
    event(p, MX_EV_LABEL, li);
}

/* .loc file line col [, anything to end of line] */
static void loc_directive(struct parser *p)
{
    unsigned line = p->tok.line;
    advance(p);
    int64_t v[3] = { 0, 0, 0 };
    for (int i = 0; i < 3 && p->tok.kind == TK_INT && p->tok.line == line; i++) {
        v[i] = (int64_t)p->tok.ival;
        advance(p);
    }
    while (p->tok.kind != TK_EOF && p->tok.line == line)
        advance(p);
    p->loc_file = (uint16_t)(v[0] > 65535 ? 65535 : v[0]);
    p->loc_line = (uint32_t)(v[1] > UINT32_MAX ? UINT32_MAX : v[1]);
}

/* body -> ( '{' body '}' | reg_decl | var_decl | label_stmt | .loc | .pragma | instruction )* '}' */
static void body(struct parser *p)
{
    while (p->tok.kind != TK_EOF && !p->oom && !fe_too_many_errors(p->diag)) {
        if (is_punct(&p->tok, '}')) {
            advance(p);
            return;
        }
        if (is_punct(&p->tok, '{')) {
            if (p->depth >= FE_MAX_NESTING) {
                err_tok(p, &p->tok, "blocks nested deeper than %d", FE_MAX_NESTING);
                /* skip the whole block */
                int nest = 0;
                do {
                    if (is_punct(&p->tok, '{'))
                        nest++;
                    else if (is_punct(&p->tok, '}'))
                        nest--;
                    advance(p);
                } while (nest > 0 && p->tok.kind != TK_EOF);
                continue;
            }
            advance(p);
            event(p, MX_EV_OPEN, 0);
            p->depth++;
            body(p);
            pop_scope(p);
            event(p, MX_EV_CLOSE, 0);
            continue;
        }
        if (p->tok.kind == TK_WORD && p->tok.s[0] == '.') {
            if (is_word(&p->tok, ".reg")) {
                reg_decl(p);
                continue;
            }
            if (is_word(&p->tok, ".loc")) {
                loc_directive(p);
                continue;
            }
            if (is_word(&p->tok, ".pragma")) {
                advance(p);
                if (p->tok.kind == TK_STRING)
                    advance(p);
                if (expect(p, ';'))
                    recover(p);
                continue;
            }
            uint32_t flags = 0;
            while (is_word(&p->tok, ".extern") || is_word(&p->tok, ".weak") || is_word(&p->tok, ".visible")) {
                flags |= is_word(&p->tok, ".extern") ? MX_SYMF_EXTERN : 0;
                advance(p);
            }
            int sp = space_of_directive(&p->tok);
            if (sp >= 0) {
                advance(p);
                if (sp == MX_SP_GLOBAL) {
                    unsupported(p, &p->tok, ".global variables inside a function");
                    recover(p);
                    continue;
                }
                var_decl(p, sp, flags, 1);
                continue;
            }
            if (is_word(&p->tok, ".maxnreg") || is_word(&p->tok, ".maxntid") || is_word(&p->tok, ".reqntid")) {
                unsupported(p, &p->tok, "performance directive inside a function body");
                recover(p);
                continue;
            }
            err_tok(p, &p->tok, "unknown directive in function body");
            recover(p);
            continue;
        }
        if (p->tok.kind == TK_WORD && is_punct(peek(p, 0), ':')) {
            label_stmt(p);
            continue;
        }
        instruction(p);
    }
    if (p->tok.kind == TK_EOF && !p->oom && !fe_too_many_errors(p->diag))
        err_tok(p, &p->tok, "missing '}' at end of function");
}

/* ------------------------------------------------------------- module */

/* .version N.N */
static void version_directive(struct parser *p)
{
    struct fe_token t = p->tok;
    advance(p);
    if (p->tok.kind != TK_FLOAT && p->tok.kind != TK_INT) {
        err_tok(p, &p->tok, "expected a version number");
        return;
    }
    int used = 0, used2 = 0;
    unsigned maj = dec_prefix(p->tok.s, p->tok.len, &used), min = 0;
    if (used < p->tok.len && p->tok.s[used] == '.')
        min = dec_prefix(p->tok.s + used + 1, p->tok.len - used - 1, &used2);
    if (!used || (used < p->tok.len && (p->tok.s[used] != '.' || used + 1 + used2 != p->tok.len))) {
        err_tok(p, &p->tok, "malformed version");
        advance(p);
        return;
    }
    if (maj < 1 || maj > 9) {
        err_tok(p, &p->tok, "unsupported: PTX ISA version %u.%u (supported: 1.0 to 9.x)", maj, min);
        p->unsupported = 1;
    }
    p->prog->version_major = maj;
    p->prog->version_minor = min;
    (void)t;
    advance(p);
}

/* .target name (',' name)* */
static void target_directive(struct parser *p)
{
    unsigned line = p->tok.line;
    advance(p);
    for (;;) {
        if (p->tok.kind != TK_WORD) {
            err_tok(p, &p->tok, "expected a target name");
            return;
        }
        if (p->tok.len > 3 && !memcmp(p->tok.s, "sm_", 3)) {
            p->prog->target_sm = dec_prefix(p->tok.s + 3, p->tok.len - 3, NULL);
            if (!p->prog->target_sm) {
                err_tok(p, &p->tok, "malformed target");
            }
        } else if (is_word(&p->tok, "texmode_independent"))
            p->prog->target_flags |= 1;
        else if (is_word(&p->tok, "texmode_unified"))
            ;
        else if (is_word(&p->tok, "map_f64_to_f32"))
            p->prog->target_flags |= 2;
        else if (is_word(&p->tok, "debug"))
            p->prog->target_flags |= 4;
        else if (p->tok.len > 8 && !memcmp(p->tok.s, "compute_", 8))
            p->prog->target_sm = dec_prefix(p->tok.s + 8, p->tok.len - 8, NULL);
        else
            err_tok(p, &p->tok, "unknown target");
        advance(p);
        if (is_punct(&p->tok, ',') && p->tok.line == line) {
            advance(p);
            continue;
        }
        return;
    }
}

/* .file N "name" [, timestamp, size] */
static void file_directive(struct parser *p)
{
    advance(p);
    if (p->tok.kind != TK_INT) {
        err_tok(p, &p->tok, "expected a file number");
        recover(p);
        return;
    }
    uint32_t num = (uint32_t)p->tok.ival;
    advance(p);
    if (p->tok.kind != TK_STRING) {
        err_tok(p, &p->tok, "expected a file name string");
        recover(p);
        return;
    }
    uint32_t fi = PUSH(p, files, nfiles, files_cap);
    if (fi == MX_NONE)
        return;
    p->prog->files[fi].num = num;
    p->prog->files[fi].name = intern(p, p->tok.s + 1, (size_t)p->tok.len - 2);
    item(p, MX_EV_FILE, fi);
    advance(p);
    while (is_punct(&p->tok, ',')) {
        advance(p);
        if (p->tok.kind == TK_INT)
            advance(p);
    }
}

/* .section name { anything } — DWARF data: accepted, skipped */
static void section_directive(struct parser *p)
{
    advance(p);
    while (p->tok.kind != TK_EOF && !is_punct(&p->tok, '{'))
        advance(p);
    int nest = 0;
    do {
        if (is_punct(&p->tok, '{'))
            nest++;
        else if (is_punct(&p->tok, '}'))
            nest--;
        advance(p);
    } while (nest > 0 && p->tok.kind != TK_EOF);
}

static void module(struct parser *p)
{
    int seen_version = 0;
    while (p->tok.kind != TK_EOF && !p->oom && !fe_too_many_errors(p->diag)) {
        if (p->tok.kind != TK_WORD || p->tok.s[0] != '.') {
            err_tok(p, &p->tok, "expected a directive");
            recover(p);
            if (is_punct(&p->tok, '}'))
                advance(p);
            continue;
        }
        if (is_word(&p->tok, ".version")) {
            version_directive(p);
            seen_version = 1;
            continue;
        }
        if (is_word(&p->tok, ".target")) {
            target_directive(p);
            continue;
        }
        if (is_word(&p->tok, ".address_size")) {
            advance(p);
            if (p->tok.kind != TK_INT || (p->tok.ival != 32 && p->tok.ival != 64)) {
                err_tok(p, &p->tok, "address size must be 32 or 64");
            } else
                p->prog->address_size = (uint32_t)p->tok.ival;
            advance(p);
            continue;
        }
        if (is_word(&p->tok, ".file")) {
            file_directive(p);
            continue;
        }
        if (is_word(&p->tok, ".section")) {
            section_directive(p);
            continue;
        }
        if (is_word(&p->tok, ".pragma")) {
            advance(p);
            if (p->tok.kind == TK_STRING)
                advance(p);
            if (expect(p, ';'))
                recover(p);
            continue;
        }
        uint32_t flags = 0;
        for (;;) {
            if (is_word(&p->tok, ".visible"))
                flags |= MX_SYMF_VISIBLE;
            else if (is_word(&p->tok, ".extern"))
                flags |= MX_SYMF_EXTERN;
            else if (is_word(&p->tok, ".weak"))
                flags |= MX_SYMF_WEAK;
            else if (is_word(&p->tok, ".common"))
                flags |= MX_SYMF_COMMON;
            else
                break;
            advance(p);
        }
        if (is_word(&p->tok, ".entry") || is_word(&p->tok, ".func")) {
            uint32_t ff = ((flags & MX_SYMF_EXTERN) ? MX_FUNCF_EXTERN : 0) | ((flags & MX_SYMF_VISIBLE) ? MX_FUNCF_VISIBLE : 0) |
                          ((flags & MX_SYMF_WEAK) ? MX_FUNCF_WEAK : 0);
            function(p, ff);
            continue;
        }
        int sp = space_of_directive(&p->tok);
        if (sp >= 0 && sp != MX_SP_PARAM) {
            advance(p);
            var_decl(p, sp, flags, 0);
            continue;
        }
        if (is_word(&p->tok, ".alias")) {
            unsupported(p, &p->tok, ".alias");
            recover(p);
            continue;
        }
        err_tok(p, &p->tok, "unknown or misplaced directive");
        recover(p);
    }
    if (!seen_version && !p->diag->nerrors)
        fe_error(p->diag, 1, 1, NULL, 0, "missing .version directive");
}

/* --------------------------------------------------- after the module */

static void check_calls(struct parser *p)
{
    struct mx_program *g = p->prog;
    int undeclared = 0;
    for (uint32_t fi = 0; fi < g->nfuncs; fi++) {
        struct mx_func *f = &g->funcs[fi];
        if (f->nparams == MX_NONE) {
            fe_error(p->diag, f->line, 1, mx_str(g, f->name), (int)strlen(mx_str(g, f->name)),
                     "function '%s' is called but never declared", mx_str(g, f->name));
            f->nparams = 0;
            f->param = MX_NONE;
            undeclared = 1;
        }
    }
    if (undeclared)
        return; /* argument counts of an undeclared function are unknown: no follow-on errors */
    for (uint32_t i = 0; i < g->ninsns; i++) {
        const struct mx_insn *in = &g->insns[i];
        if (in->op != MX_OP_CALL)
            continue;
        const struct mx_func *callee = NULL;
        if (in->opd[1].kind == MX_OPD_FUNC)
            callee = &g->funcs[in->opd[1].reg];
        else if (in->opd[3].kind == MX_OPD_PROTO)
            callee = &g->funcs[in->opd[3].reg];
        if (!callee)
            continue;
        if (callee->flags & MX_FUNCF_ENTRY) {
            fe_error(p->diag, in->line, in->col, NULL, 0, "cannot call kernel '%s'", mx_str(g, callee->name));
            continue;
        }
        if (in->opd[2].count != callee->nparams || in->opd[0].count != callee->nrets) {
            fe_error(p->diag, in->line, in->col, NULL, 0, "call to '%s' passes %u argument%s and %u return value%s; it takes %u and %u",
                     mx_str(g, callee->name), in->opd[2].count, in->opd[2].count == 1 ? "" : "s", in->opd[0].count,
                     in->opd[0].count == 1 ? "" : "s", callee->nparams, callee->nrets);
        }
    }
}

/* Static shared memory of each kernel: module-scope .shared variables used by
 * the functions it can reach, and function-scope ones of those functions. */
static void layout_shared(struct parser *p)
{
    struct mx_program *g = p->prog;
    uint32_t nf = g->nfuncs;
    if (!nf)
        return;
    uint8_t *reach = calloc(nf, 1);
    uint32_t *stack = malloc(nf * sizeof *stack);
    uint8_t *used = calloc(g->nsyms ? g->nsyms : 1, 1);
    if (!reach || !stack || !used) {
        free(reach);
        free(stack);
        free(used);
        oom(p);
        return;
    }
    int any_indirect_target = 0;
    for (uint32_t e = 0; e < nf; e++) {
        struct mx_func *k = &g->funcs[e];
        if (!(k->flags & MX_FUNCF_ENTRY) || (k->flags & MX_FUNCF_DECL))
            continue;
        memset(reach, 0, nf);
        memset(used, 0, g->nsyms);
        uint32_t sp = 0;
        stack[sp++] = e;
        reach[e] = 1;
        while (sp) {
            const struct mx_func *f = &g->funcs[stack[--sp]];
            if (f->flags & MX_FUNCF_DECL)
                continue;
            for (uint32_t i = f->first; i < f->first + f->ninsns; i++) {
                const struct mx_insn *in = &g->insns[i];
                for (int s = 0; s < in->nopd; s++) {
                    const struct mx_operand *o = &in->opd[s];
                    uint32_t callee = MX_NONE;
                    if (o->kind == MX_OPD_FUNC)
                        callee = o->reg;
                    else if (o->kind == MX_OPD_ADDR && o->sym != MX_NONE)
                        used[o->sym] = 1;
                    else if (o->kind == MX_OPD_SYM)
                        used[o->reg] = 1;
                    else if (o->kind == MX_OPD_TEXADDR || o->kind == MX_OPD_VEC)
                        for (uint32_t v = 0; v < o->count; v++)
                            if (g->vec[o->reg + v].kind == MX_OPD_SYM)
                                used[g->vec[o->reg + v].reg] = 1;
                    if (in->op == MX_OP_CALL && s == 1 && o->kind == MX_OPD_REG)
                        any_indirect_target = 1;
                    if (callee != MX_NONE && !reach[callee]) {
                        reach[callee] = 1;
                        stack[sp++] = callee;
                    }
                }
            }
            if (any_indirect_target) {
                for (uint32_t f2 = 0; f2 < nf; f2++)
                    if (!reach[f2] && !(g->funcs[f2].flags & (MX_FUNCF_ENTRY | MX_FUNCF_DECL))) {
                        reach[f2] = 1;
                        stack[sp++] = f2;
                    }
                any_indirect_target = 0;
            }
        }
        uint64_t off = 0;
        uint32_t maxalign = 1;
        k = &g->funcs[e];
        k->shared_layout = g->nshared_layout;
        k->nshared = 0;
        for (int pass = 0; pass < 2; pass++) {
            for (uint32_t si = 0; si < g->nsyms; si++) {
                const struct mx_symbol *s = &g->syms[si];
                if (s->space != MX_SP_SHARED)
                    continue;
                int mine = s->func == MX_NONE ? used[si] : (s->func < nf && reach[s->func]);
                if (!mine)
                    continue;
                int dyn = !!(s->flags & MX_SYMF_DYNAMIC);
                if (dyn != pass)
                    continue;
                if (s->align > maxalign)
                    maxalign = s->align;
                uint64_t at = align_up(off, pass ? 16 > s->align ? 16 : s->align : s->align);
                if (!pass)
                    off = at + s->size;
                if (grow((void **)&g->shared_layout, &g->shared_layout_cap, g->nshared_layout + 2, sizeof *g->shared_layout)) {
                    oom(p);
                    goto out;
                }
                g->shared_layout[g->nshared_layout++] = si;
                g->shared_layout[g->nshared_layout++] = (uint32_t)(pass ? align_up(off, 16 > s->align ? 16 : s->align) : at);
                g->funcs[e].nshared++;
            }
        }
        if (off > UINT32_MAX) {
            fe_error(p->diag, k->line, 1, NULL, 0, "kernel '%s' uses more than 4 GiB of shared memory", mx_str(g, k->name));
            off = 0;
        }
        g->funcs[e].shared_size = (uint32_t)off;
        g->funcs[e].shared_align = maxalign;
    }
out:
    free(reach);
    free(stack);
    free(used);
}

int fe_parse_ptx(const char *src, size_t len, const char *name, const struct fe_options *opt,
                 struct mx_program *prog, struct mx_diag *diag)
{
    static const struct fe_options defopt;
    struct parser P;
    memset(&P, 0, sizeof P);
    memset(prog, 0, sizeof *prog);
    if (mx_isa_init() < 0) {
        fe_error(diag, 0, 0, NULL, 0, "internal error: opcode table is malformed");
        return MX_EINVAL;
    }
    P.opt = opt ? opt : &defopt;
    if (!diag->file)
        diag->file = name;
    if (opt && opt->max_errors)
        diag->max_errors = opt->max_errors;
    P.prog = prog;
    P.diag = diag;
    P.fn = -1;
    prog->address_size = 64;
    prog->source_name = strdup(name ? name : "<input>");
    if (len > FE_MAX_SOURCE) {
        fe_error(diag, 1, 1, NULL, 0, "input larger than %u MiB", FE_MAX_SOURCE >> 20);
        return MX_EPARSE;
    }
    if (memchr(src, 0, len)) {
        const char *z = memchr(src, 0, len), *bol = src;
        unsigned line = 1;
        for (const char *q = src; q < z; q++)
            if (*q == '\n') {
                line++;
                bol = q + 1;
            }
        fe_error(diag, line, (unsigned)(z - bol) + 1, NULL, 0, "NUL byte in PTX text (binary file?)");
        return MX_EPARSE;
    }
    intern(&P, "", 0);
    fe_lex_init(&P.lx, src, len, diag);
    advance(&P);
    module(&P);
    if (!diag->nerrors) {
        check_calls(&P);
    }
    if (!diag->nerrors) {
        layout_shared(&P);
        fe_compute_reconvergence(prog, diag);
    }
    free(P.b);
    free(P.heads);
    free(P.labels);
    free(P.lhash);
    free(P.fhash);
    free(P.fix);
    prog->ext_mask = P.opt->ext_mask;
    if (P.oom)
        return MX_ENOMEM;
    if (diag->nerrors)
        return P.unsupported ? MX_EUNSUPPORTED : MX_EPARSE;
    return MX_OK;
}

int fe_read_file(const char *path, char **text, size_t *len, char *errbuf, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    *text = NULL;
    *len = 0;
    if (!f) {
        snprintf(errbuf, errlen, "%s: %s", path, strerror(errno));
        return MX_EIO;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        fclose(f);
        snprintf(errbuf, errlen, "%s: out of memory", path);
        return MX_ENOMEM;
    }
    for (;;) {
        if (n == cap) {
            if (cap > FE_MAX_SOURCE) {
                free(buf);
                fclose(f);
                snprintf(errbuf, errlen, "%s: larger than %u MiB", path, FE_MAX_SOURCE >> 20);
                return MX_ELIMIT;
            }
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) {
                free(buf);
                fclose(f);
                snprintf(errbuf, errlen, "%s: out of memory", path);
                return MX_ENOMEM;
            }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        snprintf(errbuf, errlen, "%s: read error", path);
        return MX_EIO;
    }
    buf[n] = 0;
    *text = buf;
    *len = n;
    return MX_OK;
}

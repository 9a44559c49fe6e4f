/* tests/fuzz/ptx_mutate.c — PTX-aware mutations (ptx_mutate.h).  Works on
 * text lines: an instruction line is "[@guard] opcode operand, ...;", its
 * opcode a dot-separated list whose first components form a table mnemonic.
 * Byte-level mutations cannot turn "ld.global.u32 %r1" into a well-formed
 * "ld.global.v4.u32 %r1" often enough; these mutations do it in one step. */
#include "tests/fuzz/ptx_mutate.h"
#include "isa/isa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_MUT 2048 /* longer lines are left alone */
#define MAX_COMPS 16      /* dot-separated components of one opcode */
#define MAX_OPDS 16       /* operands of one instruction line */
#define MAX_POOL 512      /* %names collected from the input */

struct rng { uint64_t s; };

static uint64_t rnext(struct rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static size_t rbelow(struct rng *r, size_t n) { return n ? (size_t)(rnext(r) % n) : 0; }

struct span { const char *p; size_t n; };

/* The input split into lines (without their '\n'). */
struct lines { struct span *v; size_t n; };

static int split_lines(const char *t, size_t len, struct lines *L)
{
    size_t cap = 1;
    for (size_t i = 0; i < len; i++)
        cap += t[i] == '\n';
    L->v = malloc(cap * sizeof *L->v);
    L->n = 0;
    if (!L->v)
        return -1;
    size_t s = 0;
    for (size_t i = 0; i <= len; i++)
        if (i == len || t[i] == '\n') {
            if (i < len || i > s)
                L->v[L->n++] = (struct span){ t + s, i - s };
            s = i + 1;
        }
    return 0;
}

static const char *const interesting[] = {
    "0", "1", "-1", "2", "3", "4", "7", "8", "16", "31", "32", "33", "63", "64", "127", "128", "255", "256",
    "1023", "1024", "4095", "4096", "65535", "65536", "0x7fffffff", "0x80000000", "0xffffffff",
    "0x7fffffffffffffff", "0x8000000000000000", "0xffffffffffffffff", "-2147483648", "0f7F800000",
    "0f7FC00000", "0f00000001", "0f3F800000", "0fBF800000", "0d7FF0000000000000", "0d3FF0000000000000",
};
#define NINTERESTING (sizeof interesting / sizeof interesting[0])

static const char *const spaces[] = { "global", "shared", "local", "const", "param", "generic", "shared::cta" };
static const char *const vecs[] = { "v2", "v4", "v8" };

/* %names seen anywhere in the input: registers, special registers. */
struct pool { struct span v[MAX_POOL]; size_t n; };

static void collect_pool(const char *t, size_t len, struct pool *P, struct rng *r)
{
    size_t seen = 0;
    P->n = 0;
    for (size_t i = 0; i + 1 < len; i++) {
        if (t[i] != '%' || !(t[i + 1] == '_' || ((t[i + 1] | 32) >= 'a' && (t[i + 1] | 32) <= 'z')))
            continue;
        size_t j = i + 1;
        while (j < len && (t[j] == '_' || t[j] == '.' || t[j] == '$' || (t[j] >= '0' && t[j] <= '9') ||
                           ((t[j] | 32) >= 'a' && (t[j] | 32) <= 'z')))
            j++;
        struct span s = { t + i, j - i };
        /* reservoir sampling keeps the pool unbiased on long inputs */
        if (P->n < MAX_POOL)
            P->v[P->n++] = s;
        else {
            size_t k = rbelow(r, seen + 1);
            if (k < MAX_POOL)
                P->v[k] = s;
        }
        seen++;
        i = j - 1;
    }
}

/* One instruction line taken apart. */
struct insn {
    char lead[LINE_MAX_MUT];      /* indentation and guard, as written */
    char comp[MAX_COMPS][64];     /* opcode components */
    int ncomp, nmn;               /* components; how many form the mnemonic */
    char opd[MAX_OPDS][256];
    int nopd;
    char tail[LINE_MAX_MUT];      /* text after ';' */
};

static int is_ident(char c) { return c == '_' || c == '$' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z'); }

/* Splits line s[0..n) into *in; -1 if it is not an instruction line. */
static int parse_insn(const char *s, size_t n, struct insn *in)
{
    if (n >= LINE_MAX_MUT)
        return -1;
    const char *semi = memchr(s, ';', n);
    if (!semi)
        return -1;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i < n && s[i] == '@') {
        while (i < n && s[i] != ' ' && s[i] != '\t')
            i++;
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
    }
    memcpy(in->lead, s, i);
    in->lead[i] = 0;
    if (i >= n || s[i] < 'a' || s[i] > 'z')
        return -1;
    size_t o = i;
    while (o < n && (is_ident(s[o]) || s[o] == '.' || s[o] == ':'))
        o++;
    if (o < n && s[o] != ' ' && s[o] != '\t' && s[o] != ';')
        return -1;
    /* opcode components */
    in->ncomp = 0;
    for (size_t a = i; a < o && in->ncomp < MAX_COMPS;) {
        size_t b = a;
        while (b < o && s[b] != '.')
            b++;
        if (b - a >= sizeof in->comp[0])
            return -1;
        memcpy(in->comp[in->ncomp], s + a, b - a);
        in->comp[in->ncomp++][b - a] = 0;
        a = b + 1;
    }
    /* longest table mnemonic made of the first components */
    in->nmn = 1;
    char mn[MAX_COMPS * 64];
    size_t ml = 0;
    for (int k = 0; k < in->ncomp; k++) {
        if (k)
            mn[ml++] = '.';
        size_t cl = strlen(in->comp[k]);
        memcpy(mn + ml, in->comp[k], cl);
        ml += cl;
        if (mx_op_lookup(mn, ml) >= 0)
            in->nmn = k + 1;
    }
    /* operands: split at top-level commas up to ';' */
    in->nopd = 0;
    size_t e = (size_t)(semi - s), a = o;
    int depth = 0;
    for (size_t k = o; k <= e; k++) {
        char c = k < e ? s[k] : ',';
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        if ((c == ',' && depth <= 0) || k == e) {
            size_t x = a, y = k;
            while (x < y && (s[x] == ' ' || s[x] == '\t'))
                x++;
            while (y > x && (s[y - 1] == ' ' || s[y - 1] == '\t'))
                y--;
            if (y > x) {
                if (in->nopd == MAX_OPDS || y - x >= sizeof in->opd[0])
                    return -1;
                memcpy(in->opd[in->nopd], s + x, y - x);
                in->opd[in->nopd++][y - x] = 0;
            }
            a = k + 1;
        }
    }
    size_t tl = n - e - 1;
    memcpy(in->tail, semi + 1, tl);
    in->tail[tl] = 0;
    return 0;
}

/* Writes the instruction back as text; -1 if it does not fit. */
static int print_insn(const struct insn *in, char *out, size_t cap)
{
    size_t o = 0;
    int w = snprintf(out, cap, "%s", in->lead);
    if (w < 0 || (size_t)w >= cap)
        return -1;
    o = (size_t)w;
    for (int k = 0; k < in->ncomp; k++) {
        w = snprintf(out + o, cap - o, "%s%s", k ? "." : "", in->comp[k]);
        if (w < 0 || (size_t)w >= cap - o)
            return -1;
        o += (size_t)w;
    }
    for (int k = 0; k < in->nopd; k++) {
        w = snprintf(out + o, cap - o, "%s%s", k ? ", " : " ", in->opd[k]);
        if (w < 0 || (size_t)w >= cap - o)
            return -1;
        o += (size_t)w;
    }
    w = snprintf(out + o, cap - o, ";%s", in->tail);
    if (w < 0 || (size_t)w >= cap - o)
        return -1;
    return (int)(o + (size_t)w);
}

static void comp_insert(struct insn *in, int at, const char *c)
{
    if (in->ncomp == MAX_COMPS || strlen(c) >= sizeof in->comp[0])
        return;
    memmove(in->comp[at + 1], in->comp[at], (size_t)(in->ncomp - at) * sizeof in->comp[0]);
    snprintf(in->comp[at], sizeof in->comp[0], "%s", c);
    in->ncomp++;
}

static void comp_delete(struct insn *in, int at)
{
    memmove(in->comp[at], in->comp[at + 1], (size_t)(in->ncomp - at - 1) * sizeof in->comp[0]);
    in->ncomp--;
}

static void pool_pick(const struct pool *P, struct rng *r, char *out, size_t cap)
{
    if (!P->n || rbelow(r, 8) == 0) {
        snprintf(out, cap, "%s", interesting[rbelow(r, NINTERESTING)]);
        return;
    }
    const struct span *s = &P->v[rbelow(r, P->n)];
    snprintf(out, cap, "%.*s", (int)s->n, s->p);
}

/* Index of a random component among those for which pred holds, -1 if none. */
static int pick_comp(const struct insn *in, int (*pred)(const char *), struct rng *r)
{
    int idx[MAX_COMPS], n = 0;
    for (int k = in->nmn; k < in->ncomp; k++)
        if (pred(in->comp[k]))
            idx[n++] = k;
    return n ? idx[rbelow(r, (size_t)n)] : -1;
}
static int is_type(const char *c) { return mx_type_lookup(c, strlen(c)) != MX_T_NONE; }
static int is_vec(const char *c) { return c[0] == 'v' && (c[1] == '2' || c[1] == '4' || c[1] == '8') && !c[2]; }
static int is_space(const char *c)
{
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        if (!strcmp(c, spaces[i]))
            return 1;
    return 0;
}

static const char *random_type(struct rng *r)
{
    for (;;) {
        const char *t = mx_type_name(1 + (int)rbelow(r, MX_T__COUNT - 1));
        if (t && *t)
            return t;
    }
}

/* One mutation of an instruction; 0 if it changed something. */
static int mutate_insn(struct insn *in, const struct pool *P, const struct lines *L, struct rng *r)
{
    char tmp[256];
    switch (rbelow(r, 12)) {
    case 0: { /* another table mnemonic, modifiers and types kept */
        const char *mn = mx_opinfo((int)rbelow(r, MX_OP__COUNT))->mnemonic;
        for (int k = 1; k < in->nmn; k++)
            comp_delete(in, 1);
        snprintf(in->comp[0], sizeof in->comp[0], "%s", mn);
        in->nmn = 1;
        return 0;
    }
    case 1: { /* the opcode of another instruction line */
        for (int tries = 0; tries < 8 && L->n; tries++) {
            const struct span *s = &L->v[rbelow(r, L->n)];
            static struct insn other; /* too large for the stack of a mutator */
            if (parse_insn(s->p, s->n, &other))
                continue;
            memcpy(in->comp, other.comp, sizeof in->comp);
            in->ncomp = other.ncomp;
            in->nmn = other.nmn;
            return 0;
        }
        return -1;
    }
    case 2: { /* type: replace one, or add one */
        int k = pick_comp(in, is_type, r);
        if (k >= 0 && rbelow(r, 4))
            snprintf(in->comp[k], sizeof in->comp[0], "%s", random_type(r));
        else
            comp_insert(in, in->ncomp, random_type(r));
        return 0;
    }
    case 3: { /* vector width: change, drop, or add before the last type */
        int k = pick_comp(in, is_vec, r);
        if (k >= 0) {
            if (rbelow(r, 3))
                snprintf(in->comp[k], sizeof in->comp[0], "%s", vecs[rbelow(r, 3)]);
            else
                comp_delete(in, k);
        } else {
            int t = pick_comp(in, is_type, r);
            comp_insert(in, t >= 0 ? t : in->ncomp, vecs[rbelow(r, 3)]);
        }
        return 0;
    }
    case 4: { /* state space */
        int k = pick_comp(in, is_space, r);
        const char *sp = spaces[rbelow(r, sizeof spaces / sizeof spaces[0])];
        if (k >= 0 && rbelow(r, 4))
            snprintf(in->comp[k], sizeof in->comp[0], "%s", sp);
        else if (k >= 0)
            comp_delete(in, k);
        else
            comp_insert(in, in->nmn, sp);
        return 0;
    }
    case 5: { /* a modifier from the tables, or drop a component */
        if (in->ncomp > in->nmn && rbelow(r, 3) == 0) {
            comp_delete(in, in->nmn + (int)rbelow(r, (size_t)(in->ncomp - in->nmn)));
            return 0;
        }
        int g = (int)rbelow(r, MX_MG__COUNT);
        unsigned nv = mx_mg_nvalues(g);
        if (!nv)
            return -1;
        comp_insert(in, in->nmn + (int)rbelow(r, (size_t)(in->ncomp - in->nmn + 1)), mx_mod_name(g, 1 + (int)rbelow(r, nv)));
        return 0;
    }
    case 6: /* replace an operand by a register, special register or number */
        if (!in->nopd)
            return -1;
        pool_pick(P, r, in->opd[rbelow(r, (size_t)in->nopd)], sizeof in->opd[0]);
        return 0;
    case 7: { /* scalar operand <-> {vector} */
        if (!in->nopd)
            return -1;
        char *o = in->opd[rbelow(r, (size_t)in->nopd)];
        if (o[0] == '{') {
            size_t n = strcspn(o + 1, ",}");
            memmove(o, o + 1, n);
            o[n] = 0;
        } else {
            size_t n = 2u << rbelow(r, 3), w = 0;
            tmp[w++] = '{';
            for (size_t e = 0; e < n && w < sizeof tmp - 70; e++) {
                char one[64];
                if (e == 0 && o[0] == '%')
                    snprintf(one, sizeof one, "%.60s", o);
                else
                    pool_pick(P, r, one, sizeof one);
                w += (size_t)snprintf(tmp + w, sizeof tmp - w, "%s%s", e ? ", " : "", one);
            }
            tmp[w++] = '}';
            tmp[w] = 0;
            snprintf(o, sizeof in->opd[0], "%s", tmp);
        }
        return 0;
    }
    case 8: { /* drop, duplicate or swap operands */
        if (!in->nopd)
            return -1;
        int a = (int)rbelow(r, (size_t)in->nopd), b = (int)rbelow(r, (size_t)in->nopd);
        switch (rbelow(r, 3)) {
        case 0:
            memmove(in->opd[a], in->opd[a + 1], (size_t)(in->nopd - a - 1) * sizeof in->opd[0]);
            in->nopd--;
            break;
        case 1:
            if (in->nopd == MAX_OPDS)
                return -1;
            memmove(in->opd[a + 1], in->opd[a], (size_t)(in->nopd - a) * sizeof in->opd[0]);
            in->nopd++;
            break;
        default:
            memcpy(tmp, in->opd[a], sizeof in->opd[0]);
            memcpy(in->opd[a], in->opd[b], sizeof in->opd[0]);
            memcpy(in->opd[b], tmp, sizeof in->opd[0]);
        }
        return 0;
    }
    case 9: { /* [base+offset]: a new offset or base */
        for (int k = 0; k < in->nopd; k++) {
            char *o = in->opd[k];
            if (o[0] != '[')
                continue;
            size_t bl = strcspn(o + 1, "+-]");
            char base[128];
            snprintf(base, sizeof base, "%.*s", (int)(bl < 100 ? bl : 100), o + 1);
            if (rbelow(r, 3) == 0)
                pool_pick(P, r, base, sizeof base);
            const char *off = interesting[rbelow(r, NINTERESTING)];
            if (off[0] == '0' && (off[1] == 'f' || off[1] == 'd'))
                off = "4";
            snprintf(tmp, sizeof tmp, "[%s%s%s]", base, off[0] == '-' ? "" : "+", off);
            snprintf(o, sizeof in->opd[0], "%s", tmp);
            return 0;
        }
        return -1;
    }
    case 10: { /* guard: remove, or add one from the %p registers seen */
        size_t ll = strlen(in->lead);
        char *at = strchr(in->lead, '@');
        if (at) {
            *at = 0;
            return 0;
        }
        for (int tries = 0; tries < 16 && P->n; tries++) {
            const struct span *s = &P->v[rbelow(r, P->n)];
            if (s->n < 2 || s->p[1] != 'p' || ll + s->n + 4 >= sizeof in->lead)
                continue;
            snprintf(in->lead + ll, sizeof in->lead - ll, "@%s%.*s ", rbelow(r, 2) ? "!" : "", (int)s->n, s->p);
            return 0;
        }
        return -1;
    }
    default: { /* a component of the opcode becomes an interesting spelling */
        if (in->ncomp <= in->nmn)
            return -1;
        int k = in->nmn + (int)rbelow(r, (size_t)(in->ncomp - in->nmn));
        static const char *const odd[] = { "wide", "hi", "lo", "sat", "ftz", "rn", "rz", "approx", "full", "cc",
                                           "uni", "sync", "aligned", "volatile", "relaxed", "acquire", "gpu", "sys",
                                           "cta", "ca", "cg", "cs", "lu", "cv", "nc", "L2::128B", "b128", "pred" };
        snprintf(in->comp[k], sizeof in->comp[0], "%s", odd[rbelow(r, sizeof odd / sizeof odd[0])]);
        return 0;
    }
    }
}

/* A number inside a line (any line: .reqntid, array sizes, immediates)
 * becomes an interesting value; -1 if the line has none. */
static int mutate_number(const char *s, size_t n, char *out, size_t cap, struct rng *r)
{
    size_t pos[64], np = 0;
    for (size_t i = 0; i < n && np < 64; i++)
        if (s[i] >= '0' && s[i] <= '9' && (i == 0 || !is_ident(s[i - 1]))) {
            pos[np++] = i;
            while (i + 1 < n && (is_ident(s[i + 1])))
                i++;
        }
    if (!np)
        return -1;
    size_t a = pos[rbelow(r, np)], b = a;
    while (b < n && is_ident(s[b]))
        b++;
    int w = snprintf(out, cap, "%.*s%s%.*s", (int)a, s, interesting[rbelow(r, NINTERESTING)], (int)(n - b), s + b);
    return w < 0 || (size_t)w >= cap ? -1 : w;
}

/* Writes the lines with line `at` replaced by rep (rep_n bytes; at may be
 * L->n to append); extra lines inserted before line `ins` (SIZE_MAX: none). */
static size_t emit(const struct lines *L, size_t skip, size_t at, const char *rep, size_t rep_n, size_t ins,
                   const struct span *extra, size_t nextra, uint8_t *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i <= L->n; i++) {
        if (i == ins)
            for (size_t e = 0; e < nextra; e++) {
                if (o + extra[e].n + 1 > cap)
                    return 0;
                memcpy(out + o, extra[e].p, extra[e].n);
                o += extra[e].n;
                out[o++] = '\n';
            }
        if (i == L->n)
            break;
        if (i == skip)
            continue;
        const char *p = i == at ? rep : L->v[i].p;
        size_t n = i == at ? rep_n : L->v[i].n;
        if (o + n + 1 > cap)
            return 0;
        memcpy(out + o, p, n);
        o += n;
        out[o++] = '\n';
    }
    return o;
}

size_t mx_ptx_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    if (!size || mx_isa_init() < 0)
        return 0;
    struct rng r = { seed * 0x2545F4914F6CDD1Dull + 1 };
    char *text = malloc(size);
    uint8_t *out = malloc(max_size + 1);
    static struct pool P;
    static struct insn in;
    char line[LINE_MAX_MUT];
    struct lines L = { 0 };
    size_t res = 0;
    if (!text || !out || split_lines(memcpy(text, data, size), size, &L) || !L.n)
        goto done;
    collect_pool(text, size, &P, &r);
    for (int tries = 0; tries < 8 && !res; tries++) {
        size_t li = rbelow(&r, L.n);
        const struct span *s = &L.v[li];
        unsigned kind = (unsigned)rbelow(&r, 16);
        if (kind < 11) { /* instruction-level, on an instruction line */
            size_t k;
            for (k = 0; k < 16 && parse_insn(s->p, s->n, &in); k++)
                s = &L.v[li = rbelow(&r, L.n)];
            if (k == 16 || mutate_insn(&in, &P, &L, &r))
                continue;
            int n = print_insn(&in, line, sizeof line);
            if (n >= 0)
                res = emit(&L, SIZE_MAX, li, line, (size_t)n, SIZE_MAX, NULL, 0, out, max_size);
        } else if (kind == 11) { /* drop a line */
            res = emit(&L, li, SIZE_MAX, NULL, 0, SIZE_MAX, NULL, 0, out, max_size);
        } else if (kind == 12) { /* duplicate a line somewhere near */
            size_t to = li + rbelow(&r, 9);
            res = emit(&L, SIZE_MAX, SIZE_MAX, NULL, 0, to > L.n ? L.n : to, s, 1, out, max_size);
        } else if (kind == 13) { /* move a line a few lines up or down */
            size_t to = li + rbelow(&r, 9);
            to = to < 4 ? 0 : to - 4;
            res = emit(&L, li, SIZE_MAX, NULL, 0, to > L.n ? L.n : to, s, 1, out, max_size);
        } else { /* a number */
            int n = mutate_number(s->p, s->n < sizeof line ? s->n : 0, line, sizeof line, &r);
            if (n >= 0)
                res = emit(&L, SIZE_MAX, li, line, (size_t)n, SIZE_MAX, NULL, 0, out, max_size);
        }
        if (res == size && !memcmp(out, data, size))
            res = 0; /* no change: try again */
    }
    if (res)
        memcpy(data, out, res);
done:
    free(L.v);
    free(out);
    free(text);
    return res;
}

size_t mx_ptx_crossover(const uint8_t *a, size_t asz, const uint8_t *b, size_t bsz, uint8_t *out, size_t max_out,
                        unsigned seed)
{
    struct rng r = { seed * 0x2545F4914F6CDD1Dull + 7 };
    struct lines La = { 0 }, Lb = { 0 };
    size_t res = 0;
    if (!asz || !bsz || split_lines((const char *)a, asz, &La) || split_lines((const char *)b, bsz, &Lb) || !Lb.n)
        goto done;
    size_t from = rbelow(&r, Lb.n), n = 1 + rbelow(&r, 8);
    if (from + n > Lb.n)
        n = Lb.n - from;
    res = emit(&La, SIZE_MAX, SIZE_MAX, NULL, 0, rbelow(&r, La.n + 1), Lb.v + from, n, out, max_out);
done:
    free(La.v);
    free(Lb.v);
    return res;
}

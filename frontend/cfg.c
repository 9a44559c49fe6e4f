/* frontend/cfg.c — control-flow graph of each function and the immediate
 * post-dominator of every branch block, the reconvergence point of the SIMT
 * stack (Cooper, Harvey & Kennedy's iterative dominator algorithm run on the
 * reverse CFG, with one virtual exit node). */
#include "frontend/fe-internal.h"
#include "mx/status.h"

#include <stdlib.h>
#include <string.h>

struct cfg {
    uint32_t n;           /* instructions of the function */
    uint32_t nb;          /* blocks; the virtual exit is block nb */
    uint32_t *blk;        /* block of each instruction */
    uint32_t *start;      /* first insn (function-relative) of each block; start[nb] = n */
    uint32_t *succ, *soff; /* successors, CSR (soff: nb + 2 entries) */
    uint32_t *pred, *poff; /* predecessors, CSR (reverse edges) */
};

static int is_branch(const struct mx_insn *in) { return in->op == MX_OP_BRA || in->op == MX_OP_BRX; }
static int is_end(const struct mx_insn *in)
{
    return (in->op == MX_OP_RET || in->op == MX_OP_EXIT || in->op == MX_OP_TRAP || in->op == MX_OP_BRKPT) &&
           in->guard == MX_NONE;
}

static void cfg_free(struct cfg *c)
{
    free(c->blk);
    free(c->start);
    free(c->succ);
    free(c->soff);
    free(c->pred);
    free(c->poff);
    memset(c, 0, sizeof *c);
}

/* The basic blocks of f and their edges; -1 when out of memory. */
static int cfg_build(const struct mx_program *g, const struct mx_func *f, struct cfg *c)
{
    uint32_t n = f->ninsns, base = f->first;
    memset(c, 0, sizeof *c);
    c->n = n;
    uint8_t *leader = calloc(n + 1, 1);
    uint32_t *pcnt = NULL;
    c->blk = malloc((n + 1) * sizeof *c->blk);
    c->start = malloc((n + 1) * sizeof *c->start);
    if (!leader || !c->blk || !c->start)
        goto oom;
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const struct mx_insn *in = &g->insns[base + i];
        if (is_branch(in) || is_end(in) || (in->op == MX_OP_RET || in->op == MX_OP_EXIT))
            leader[i + 1] = 1;
        if (in->op == MX_OP_BRA && in->opd[0].kind == MX_OPD_LABEL && in->opd[0].reg - base < n)
            leader[in->opd[0].reg - base] = 1;
        if (in->op == MX_OP_BRX && in->opd[1].kind == MX_OPD_TARGETS)
            for (uint32_t k = 0; k < in->opd[1].count; k++) {
                uint32_t t = g->vec[in->opd[1].reg + k].reg;
                if (t - base < n)
                    leader[t - base] = 1;
            }
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i])
            c->start[nb++] = i;
        c->blk[i] = nb - 1;
    }
    c->nb = nb;
    uint32_t exitb = nb;
    c->start[nb] = n;
    /* successors: at most 2 per block, or a brx.idx list */
    uint32_t cap = 0;
    for (uint32_t b = 0; b < nb; b++) {
        const struct mx_insn *in = &g->insns[base + c->start[b + 1] - 1];
        cap += in->op == MX_OP_BRX ? in->opd[1].count + 1 : 2;
    }
    c->succ = malloc((cap + 1) * sizeof *c->succ);
    c->soff = malloc((nb + 2) * sizeof *c->soff);
    if (!c->succ || !c->soff)
        goto oom;
    uint32_t ns = 0;
    for (uint32_t b = 0; b < nb; b++) {
        c->soff[b] = ns;
        uint32_t last = c->start[b + 1] - 1;
        const struct mx_insn *in = &g->insns[base + last];
        int fall = 1;
        if (in->op == MX_OP_BRA) {
            uint32_t t = in->opd[0].reg - base;
            c->succ[ns++] = t < n ? c->blk[t] : exitb;
            fall = in->guard != MX_NONE;
        } else if (in->op == MX_OP_BRX) {
            for (uint32_t k = 0; k < in->opd[1].count; k++) {
                uint32_t t = g->vec[in->opd[1].reg + k].reg - base;
                c->succ[ns++] = t < n ? c->blk[t] : exitb;
            }
            fall = in->guard != MX_NONE;
        } else if (in->op == MX_OP_RET || in->op == MX_OP_EXIT || in->op == MX_OP_TRAP || in->op == MX_OP_BRKPT) {
            c->succ[ns++] = exitb;
            fall = in->guard != MX_NONE;
        }
        if (fall)
            c->succ[ns++] = last + 1 < n ? c->blk[last + 1] : exitb;
    }
    c->soff[nb] = ns;
    c->soff[nb + 1] = ns;
    /* predecessors (reverse edges) */
    pcnt = calloc(nb + 2, sizeof *pcnt);
    c->pred = malloc((ns + 1) * sizeof *c->pred);
    c->poff = malloc((nb + 2) * sizeof *c->poff);
    if (!pcnt || !c->pred || !c->poff)
        goto oom;
    for (uint32_t e = 0; e < ns; e++)
        pcnt[c->succ[e]]++;
    uint32_t acc = 0;
    for (uint32_t b = 0; b <= nb; b++) {
        c->poff[b] = acc;
        acc += pcnt[b];
        pcnt[b] = c->poff[b];
    }
    c->poff[nb + 1] = acc;
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t e = c->soff[b]; e < c->soff[b + 1]; e++)
            c->pred[pcnt[c->succ[e]]++] = b;
    free(leader);
    free(pcnt);
    return 0;
oom:
    free(leader);
    free(pcnt);
    cfg_free(c);
    return -1;
}

static int func_ipdom(struct mx_program *g, const struct cfg *c, uint32_t base)
{
    uint32_t n = c->n, nb = c->nb, exitb = nb;
    const uint32_t *succ = c->succ, *soff = c->soff, *pred = c->pred, *poff = c->poff;
    uint32_t *order = malloc((nb + 1) * sizeof *order);
    uint32_t *rpo = malloc((nb + 1) * sizeof *rpo);
    uint32_t *ipdom = malloc((nb + 1) * sizeof *ipdom);
    uint32_t *stack = malloc((nb + 1) * 2 * sizeof *stack);
    uint8_t *seen = calloc(nb + 1, 1);
    int rc = -1;
    if (!order || !rpo || !ipdom || !stack || !seen)
        goto out;
    /* post-order of the reverse graph from exit (DFS over predecessors) */
    uint32_t npo = 0, sp = 0;
    stack[sp++] = exitb;
    stack[sp++] = poff[exitb];
    seen[exitb] = 1;
    while (sp) {
        uint32_t b = stack[sp - 2], *it = &stack[sp - 1];
        if (*it < poff[b + 1]) {
            uint32_t p = pred[(*it)++];
            if (!seen[p]) {
                seen[p] = 1;
                stack[sp++] = p;
                stack[sp++] = poff[p];
            }
        } else {
            rpo[b] = npo;
            order[npo++] = b;
            sp -= 2;
        }
    }
    for (uint32_t b = 0; b <= nb; b++)
        ipdom[b] = MX_NONE;
    ipdom[exitb] = exitb;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (uint32_t k = npo; k-- > 0;) {
            uint32_t b = order[k];
            if (b == exitb)
                continue;
            uint32_t nd = MX_NONE;
            for (uint32_t e = soff[b]; e < soff[b + 1]; e++) {
                uint32_t s = succ[e];
                if (ipdom[s] == MX_NONE)
                    continue;
                if (nd == MX_NONE) {
                    nd = s;
                    continue;
                }
                uint32_t x = s, y = nd;
                while (x != y) {
                    while (rpo[x] < rpo[y])
                        x = ipdom[x];
                    while (rpo[y] < rpo[x])
                        y = ipdom[y];
                }
                nd = x;
            }
            if (nd != MX_NONE && ipdom[b] != nd) {
                ipdom[b] = nd;
                changed = 1;
            }
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        struct mx_insn *in = &g->insns[base + i];
        if (!is_branch(in))
            continue;
        uint32_t d = ipdom[c->blk[i]];
        in->ipdom = (d == MX_NONE || d == exitb) ? MX_NONE : base + c->start[d];
    }
    rc = 0;
out:
    free(order);
    free(rpo);
    free(ipdom);
    free(stack);
    free(seen);
    return rc;
}

/* ------------------------------------------------------------ register demand
 * What a register allocator (ptxas) needs for f: the most 32-bit registers
 * live at once.  A value register is live from a definition to its last use
 * along some path (backward dataflow over the blocks); 64-bit registers count
 * two, 128-bit four; predicates have their own file and do not count.  A
 * guarded definition does not end the old value's life (the guard may be
 * false).  ptxas's own transformations (rematerialisation, scheduling for
 * latency) move its count either way; tests/frontend compares the two. */

/* The value-register slots operand o of in reads (mask bit 1) or writes (bit 2), through fn(slot, rw). */
static void opd_regs(const struct mx_program *g, const struct mx_operand *o, int rw, void (*fn)(void *, uint32_t, int),
                     void *arg)
{
    switch (o->kind) {
    case MX_OPD_REG: fn(arg, o->reg, rw); break;
    case MX_OPD_ADDR:
        if (o->reg != MX_NONE)
            fn(arg, o->reg, 1); /* an address's base is read even in a destination slot */
        break;
    case MX_OPD_INDREG: /* %r[%i]: any register of the range, and the index */
        for (uint32_t k = 0; k < o->sym; k++)
            fn(arg, o->reg + k, rw);
        fn(arg, (uint32_t)o->imm, 1);
        break;
    case MX_OPD_VEC:
    case MX_OPD_TEXADDR:
    case MX_OPD_LIST:
        for (uint32_t k = 0; k < o->count && o->reg + k < g->nvec; k++)
            opd_regs(g, &g->vec[o->reg + k], o->kind == MX_OPD_VEC ? rw : 1, fn, arg);
        break;
    default: break;
    }
}

static void insn_regs(const struct mx_program *g, const struct mx_insn *in, void (*fn)(void *, uint32_t, int), void *arg)
{
    const struct mx_opinfo *oi = mx_opinfo(in->op);
    int call = in->op == MX_OP_CALL;
    for (int i = 0; i < in->nopd && i < MX_MAX_OPD; i++) {
        char k = oi && !call ? oi->kinds[i] : MX_FK_SRC;
        opd_regs(g, &in->opd[i], k == MX_FK_DST || k == MX_FK_PAIR ? 2 : 1, fn, arg);
    }
}

struct live {
    uint64_t *set;       /* the live set being walked */
    const uint8_t *w;    /* 32-bit registers of each slot */
    uint32_t nregs;
    uint64_t units;      /* live 32-bit registers in set */
    uint64_t *use, *def; /* the block's, while summarising it */
    uint32_t added[64];  /* results not live after their instruction (taken for it only) */
    uint32_t nadded;
    int guarded;
};

static inline int bit(const uint64_t *s, uint32_t r) { return s[r >> 6] >> (r & 63) & 1; }
static inline void set_bit(uint64_t *s, uint32_t r) { s[r >> 6] |= 1ull << (r & 63); }
static inline void clear_bit(uint64_t *s, uint32_t r) { s[r >> 6] &= ~(1ull << (r & 63)); }

/* Summarising a block backwards: a result (unguarded) is defined here and not used before it; a read is. */
static void sum_def(void *arg, uint32_t r, int rw)
{
    struct live *l = arg;
    if (r < l->nregs && (rw & 2) && !l->guarded) {
        set_bit(l->def, r);
        clear_bit(l->use, r);
    }
}

static void sum_use(void *arg, uint32_t r, int rw)
{
    struct live *l = arg;
    if (r < l->nregs && (rw & 1))
        set_bit(l->use, r);
}

/* The walk: a result not live after its instruction still takes a register at it */
static void walk_result(void *arg, uint32_t r, int rw)
{
    struct live *l = arg;
    if (r >= l->nregs || !(rw & 2) || bit(l->set, r))
        return;
    set_bit(l->set, r);
    l->units += l->w[r];
    if (l->nadded < 64)
        l->added[l->nadded++] = r;
}

/* ... and above it an unguarded result is not live (a guarded one keeps the old value alive if live after) */
static void walk_kill(void *arg, uint32_t r, int rw)
{
    struct live *l = arg;
    if (r >= l->nregs || !(rw & 2) || !bit(l->set, r))
        return;
    clear_bit(l->set, r);
    l->units -= l->w[r];
}

static void walk_use(void *arg, uint32_t r, int rw)
{
    struct live *l = arg;
    if (r >= l->nregs || !(rw & 1) || bit(l->set, r))
        return;
    set_bit(l->set, r);
    l->units += l->w[r];
}

struct span { uint32_t *first, *last, R, i; };

static void span_touch(void *arg, uint32_t r, int rw)
{
    struct span *s = arg;
    (void)rw;
    if (r >= s->R)
        return;
    if (s->i < s->first[r])
        s->first[r] = s->i;
    if (s->i > s->last[r])
        s->last[r] = s->i;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* dst = the registers live out of block b: the union of its successors' live-in sets (in). */
static void live_out(const struct cfg *c, const uint64_t *in, uint32_t words, uint32_t b, uint64_t *dst)
{
    memset(dst, 0, words * 8);
    for (uint32_t e = c->soff[b]; e < c->soff[b + 1]; e++)
        for (uint32_t k = 0; k < words; k++)
            dst[k] |= in[(size_t)c->succ[e] * words + k];
}

/* Scoreboard bits for f's registers (f->regbit): each register's live range in instruction order (from its
 * first to its last read, write, or block boundary it is live across: a loop's whole body for a value live
 * around it) gets one of 64 bits, linear-scan style; when all 64 are held, the one freed soonest is
 * shared.  in: the blocks' live-in sets.  -1 when out of memory. */
static int func_regbits(struct mx_program *g, struct mx_func *f, const struct cfg *c, const uint64_t *in,
                        uint32_t words)
{
    uint32_t R = f->nregs, nb = c->nb;
    f->regbit = MX_NONE;
    if (!R)
        return 0;
    if (g->nregbit + R > g->regbit_cap) {
        uint32_t cap = g->regbit_cap ? g->regbit_cap : 1024;
        while (cap < g->nregbit + R)
            cap *= 2;
        uint8_t *nb2 = realloc(g->regbit, cap);
        if (!nb2)
            return -1;
        g->regbit = nb2;
        g->regbit_cap = cap;
    }
    uint32_t *first = malloc(R * sizeof *first), *last = calloc(R, sizeof *last);
    uint64_t *order = malloc(R * sizeof *order);
    uint64_t *out = malloc(words * 8);
    if (!first || !last || !order || !out) {
        free(first), free(last), free(order), free(out);
        return -1;
    }
    for (uint32_t r = 0; r < R; r++)
        first[r] = UINT32_MAX;
    for (uint32_t b = 0; b < nb; b++) {
        live_out(c, in, words, b, out);
        for (uint32_t k = 0; k < words; k++) {
            for (uint64_t m = in[(size_t)b * words + k]; m; m &= m - 1)
                span_touch(&(struct span){ first, last, R, c->start[b] }, k * 64 + (uint32_t)__builtin_ctzll(m), 1);
            for (uint64_t m = out[k]; m; m &= m - 1)
                span_touch(&(struct span){ first, last, R, c->start[b + 1] - 1 }, k * 64 + (uint32_t)__builtin_ctzll(m), 1);
        }
    }
    for (uint32_t i = 0; i < c->n; i++) {
        struct span sp = { first, last, R, i };
        insn_regs(g, &g->insns[f->first + i], span_touch, &sp);
    }
    /* linear scan in order of first appearance (ties: by register) */
    for (uint32_t r = 0; r < R; r++)
        order[r] = (uint64_t)first[r] << 32 | r;
    qsort(order, R, sizeof *order, cmp_u64);
    uint32_t held_until[64];
    for (int b = 0; b < 64; b++)
        held_until[b] = 0;
    int any[64] = { 0 };
    uint8_t *bits = g->regbit + g->nregbit;
    for (uint32_t k = 0; k < R; k++) {
        uint32_t r = (uint32_t)order[k];
        if (first[r] == UINT32_MAX) { /* never touched */
            bits[r] = (uint8_t)(r & 63);
            continue;
        }
        int pick = -1;
        for (int b = 0; b < 64 && pick < 0; b++)
            if (!any[b] || held_until[b] < first[r])
                pick = b;
        if (pick < 0) { /* all 64 held: share the one freed soonest */
            pick = 0;
            for (int b = 1; b < 64; b++)
                if (held_until[b] < held_until[pick])
                    pick = b;
        }
        any[pick] = 1;
        if (last[r] > held_until[pick] || held_until[pick] < first[r])
            held_until[pick] = last[r];
        bits[r] = (uint8_t)pick;
    }
    f->regbit = g->nregbit;
    g->nregbit += R;
    free(first), free(last), free(order), free(out);
    return 0;
}

/* 32-bit registers f needs at once; UINT32_MAX when out of memory. */
static uint32_t func_live_regs(struct mx_program *g, struct mx_func *f, const struct cfg *c)
{
    uint32_t R = f->nregs, nb = c->nb, words = (R + 63) / 64, peak = 0;
    f->regbit = MX_NONE;
    if (!R || !nb)
        return 0;
    uint8_t *w = calloc(R, 1);
    uint64_t *use = calloc((size_t)nb * words, 8), *def = calloc((size_t)nb * words, 8);
    uint64_t *in = calloc((size_t)(nb + 1) * words, 8), *cur = calloc(words, 8);
    if (!w || !use || !def || !in || !cur) {
        peak = UINT32_MAX;
        goto out;
    }
    for (uint32_t r = 0; r < R; r++)
        w[r] = 1;
    for (uint32_t d = f->regdecl; d < f->regdecl + f->nregdecls && d < g->nregdecls; d++) {
        const struct mx_regdecl *rd = &g->regdecls[d];
        if (rd->type == MX_T_PRED)
            continue;
        unsigned sz = mx_type_size(rd->type) * (rd->vec ? rd->vec : 1);
        uint8_t units = (uint8_t)(sz > 4 ? (sz + 3) / 4 : 1);
        for (uint32_t k = 0; k < (rd->count ? rd->count : 1) && rd->base + k < R; k++)
            w[rd->base + k] = units;
    }
    struct live l = { .w = w, .nregs = R };
    /* each block's upward-exposed uses and definitions */
    for (uint32_t b = 0; b < nb; b++) {
        l.use = use + (size_t)b * words;
        l.def = def + (size_t)b * words;
        for (uint32_t i = c->start[b + 1]; i-- > c->start[b];) {
            const struct mx_insn *x = &g->insns[f->first + i];
            l.guarded = x->guard != MX_NONE;
            insn_regs(g, x, sum_def, &l);
            insn_regs(g, x, sum_use, &l);
        }
    }
    /* live-in = use | (live-out & ~def), to a fixed point, blocks in reverse order */
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = nb; b-- > 0;) {
            live_out(c, in, words, b, cur);
            for (uint32_t k = 0; k < words; k++) {
                uint64_t v = use[(size_t)b * words + k] | (cur[k] & ~def[(size_t)b * words + k]);
                if (v != in[(size_t)b * words + k]) {
                    in[(size_t)b * words + k] = v;
                    changed = 1;
                }
            }
        }
    }
    if (func_regbits(g, f, c, in, words) < 0) {
        peak = UINT32_MAX;
        goto out;
    }
    /* walk each block backwards from its live-out: the pressure at an instruction is what is live after
     * it plus its results */
    l.set = cur;
    for (uint32_t b = 0; b < nb; b++) {
        live_out(c, in, words, b, cur);
        l.units = 0;
        for (uint32_t r = 0; r < R; r++)
            if (bit(cur, r))
                l.units += w[r];
        for (uint32_t i = c->start[b + 1]; i-- > c->start[b];) {
            const struct mx_insn *x = &g->insns[f->first + i];
            l.nadded = 0;
            insn_regs(g, x, walk_result, &l);
            peak = l.units > peak ? (uint32_t)l.units : peak;
            if (x->guard == MX_NONE) {
                insn_regs(g, x, walk_kill, &l);
            } else { /* the guard may be false: a result live after it keeps the old value alive */
                for (uint32_t k = 0; k < l.nadded; k++)
                    walk_kill(&l, l.added[k], 2);
            }
            insn_regs(g, x, walk_use, &l);
            peak = l.units > peak ? (uint32_t)l.units : peak;
        }
    }
out:
    free(w);
    free(use);
    free(def);
    free(in);
    free(cur);
    return peak;
}

int fe_compute_reconvergence(struct mx_program *prog, struct mx_diag *diag)
{
    for (uint32_t f = 0; f < prog->nfuncs; f++) {
        struct mx_func *fn = &prog->funcs[f];
        if (fn->flags & MX_FUNCF_DECL)
            continue;
        struct cfg c;
        uint32_t live = 0;
        if (cfg_build(prog, fn, &c) < 0 || func_ipdom(prog, &c, fn->first) < 0 ||
            (live = func_live_regs(prog, fn, &c)) == UINT32_MAX) {
            cfg_free(&c);
            fe_error(diag, fn->line, 1, NULL, 0, "out of memory computing reconvergence points");
            return MX_ENOMEM;
        }
        fn->live_regs = live;
        cfg_free(&c);
    }
    return MX_OK;
}

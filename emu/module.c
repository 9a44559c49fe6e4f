/* emu/module.c — modules (a program's .global/.const variables allocated
 * and initialised on the device) and binding: every instruction of a kernel
 * bound once to a handler and operand references, at its first launch. */
#include "emu/emu-internal.h"
#include "isa/opdtype.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void wr(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

int emu_module_load(struct emu_device *dev, const struct mx_program *prog, struct emu_module **out, char *err, size_t errlen)
{
    *out = NULL;
    struct emu_module *m = calloc(1, sizeof *m);
    if (!m)
        return MX_ENOMEM;
    m->dev = dev;
    m->prog = prog;
    m->addr = calloc(prog->nsyms ? prog->nsyms : 1, sizeof *m->addr);
    m->kernels = calloc(prog->nfuncs ? prog->nfuncs : 1, sizeof *m->kernels);
    if (!m->addr || !m->kernels) {
        emu_module_unload(m);
        return MX_ENOMEM;
    }
    pthread_mutex_init(&m->lock, NULL);
    /* Local memory is per thread and bounded by the hardware: a frame over
     * the limit is refused here, by name, rather than run in a truncated one. */
    for (uint32_t i = 0; i < prog->nfuncs; i++) {
        const struct mx_func *f = &prog->funcs[i];
        if (!(f->flags & MX_FUNCF_DECL) && f->local_size > EMU_LOCAL_MAX) {
            snprintf(err, errlen, "%s '%s' needs %llu bytes of local memory per thread; the limit is %u (%u KiB)",
                     f->flags & MX_FUNCF_ENTRY ? "kernel" : "function", mx_str(prog, f->name),
                     (unsigned long long)f->local_size, EMU_LOCAL_MAX, EMU_LOCAL_MAX >> 10);
            emu_module_unload(m);
            return MX_ELIMIT;
        }
    }
    for (uint32_t i = 0; i < prog->nsyms; i++) {
        const struct mx_symbol *s = &prog->syms[i];
        if (s->space != MX_SP_GLOBAL && s->space != MX_SP_CONST)
            continue;
        if (s->func != MX_NONE)
            continue;
        uint64_t size = s->size;
        if (s->type >= MX_T_TEXREF)
            size = 8;
        int rc = emu_alloc_named(dev, size ? size : 1, s->align, mx_str(prog, s->name), &m->addr[i]);
        if (rc) {
            snprintf(err, errlen, "cannot allocate %llu bytes for variable '%s'", (unsigned long long)size, mx_str(prog, s->name));
            emu_module_unload(m);
            return rc;
        }
        if (s->init && s->size && (rc = emu_memcpy_htod(dev, m->addr[i], prog->data + s->offset, s->size))) {
            snprintf(err, errlen, "cannot initialise '%s'", mx_str(prog, s->name));
            emu_module_unload(m);
            return rc;
        }
    }
    for (uint32_t r = 0; r < prog->nrelocs; r++) {
        const struct mx_reloc *rl = &prog->relocs[r];
        uint64_t target;
        if (rl->generic & 2)
            target = EMU_FUNC_ADDR_BASE + (uint64_t)rl->target * 16;
        else if (prog->syms[rl->target].space == MX_SP_GLOBAL || prog->syms[rl->target].space == MX_SP_CONST)
            target = m->addr[rl->target];
        else {
            snprintf(err, errlen, "unsupported: initialiser takes the address of '%s' (%s space)",
                     mx_str(prog, prog->syms[rl->target].name), "non-global");
            emu_module_unload(m);
            return MX_EUNSUPPORTED;
        }
        uint64_t v = (target + (uint64_t)rl->addend) >> rl->shift;
        uint8_t buf[8];
        wr(buf, v, rl->size);
        emu_memcpy_htod(dev, m->addr[rl->sym] + rl->offset, buf, rl->size);
    }
    *out = m;
    return MX_OK;
}

static void kernel_free(struct emu_kernel *k)
{
    if (!k)
        return;
    free(k->x);
    free(k->deps);
    free(k->srcs);
    free(k->consts);
    free(k->vrefs);
    free(k->shared_off);
    free(k);
}

void emu_module_unload(struct emu_module *m)
{
    if (!m)
        return;
    if (m->kernels)
        for (uint32_t i = 0; i < m->prog->nfuncs; i++)
            kernel_free(m->kernels[i]);
    if (m->addr && m->dev)
        for (uint32_t i = 0; i < m->prog->nsyms; i++)
            if (m->addr[i]) {
                /* module variables are named allocations: mark them dead */
                int a = emu_alloc_find(m->dev, m->addr[i], 1);
                if (a >= 0)
                    emu_alloc_at(m->dev, (uint32_t)a)->live = 0;
            }
    free(m->addr);
    free(m->kernels);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

int emu_module_symbol(const struct emu_module *m, const char *name, uint64_t *addr, uint64_t *size)
{
    for (uint32_t i = 0; i < m->prog->nsyms; i++) {
        const struct mx_symbol *s = &m->prog->syms[i];
        if (m->addr[i] && !strcmp(mx_str(m->prog, s->name), name)) {
            *addr = m->addr[i];
            if (size)
                *size = s->size;
            return MX_OK;
        }
    }
    *addr = 0;
    return MX_ENOTFOUND;
}

/* ---------------------------------------------------------------- binding */

struct binder {
    struct emu_kernel *k;
    uint32_t consts_cap, vrefs_cap;
    uint64_t *hkeys;  /* constant dedup hash: value */
    uint32_t *hvals;  /* row + 1, 0 = empty */
    uint32_t hcap;
    int oom;
    uint32_t *uses;   /* by register of the function being bound: operands naming it */
    uint32_t uses_cap;
};

/* How many operands of function f name each of its registers (vector and
 * list elements and address bases included): a register named once is
 * written by that instruction and never read. */
static void count_uses(struct binder *b, const struct mx_program *g, const struct mx_func *f)
{
    if (!f->nregs)
        return; /* (no register to name: b->uses is not read) */
    if (f->nregs > b->uses_cap) {
        uint32_t *u = realloc(b->uses, f->nregs * sizeof *u);
        if (!u) {
            b->oom = 1;
            return;
        }
        b->uses = u;
        b->uses_cap = f->nregs;
    }
    memset(b->uses, 0, f->nregs * sizeof *b->uses);
    for (uint32_t i = f->first; i < f->first + f->ninsns; i++) {
        const struct mx_insn *in = &g->insns[i];
        for (int s = 0; s < in->nopd && s < MX_MAX_OPD; s++) {
            const struct mx_operand *o = &in->opd[s];
            if ((o->kind == MX_OPD_REG || o->kind == MX_OPD_ADDR) && o->reg < f->nregs)
                b->uses[o->reg]++;
            if (o->kind == MX_OPD_VEC || o->kind == MX_OPD_LIST || o->kind == MX_OPD_TEXADDR)
                for (uint32_t e = 0; e < o->count && o->reg + e < g->nvec; e++)
                    if (g->vec[o->reg + e].kind == MX_OPD_REG && g->vec[o->reg + e].reg < f->nregs)
                        b->uses[g->vec[o->reg + e].reg]++;
        }
    }
}

static uint32_t const_row(struct binder *b, uint64_t v)
{
    uint32_t mask = b->hcap - 1, h = (uint32_t)((v * 0x9E3779B97F4A7C15ull) >> 40) & mask;
    while (b->hvals[h]) {
        if (b->hkeys[h] == v)
            return (b->hvals[h] - 1) | REF_CONST;
        h = (h + 1) & mask;
    }
    struct emu_kernel *k = b->k;
    if (k->nconsts == b->consts_cap || (k->nconsts + 1) * 2 > b->hcap) {
        /* grow rows and rehash */
        uint32_t nc = b->consts_cap ? b->consts_cap * 2 : 64;
        void *rows = realloc(k->consts, (size_t)nc * sizeof *k->consts);
        uint32_t nh = nc * 4;
        uint64_t *hk = calloc(nh, sizeof *hk);
        uint32_t *hv = calloc(nh, sizeof *hv);
        if (!rows || !hk || !hv) {
            free(hk);
            free(hv);
            if (rows)
                k->consts = rows;
            b->oom = 1;
            return REF_CONST;
        }
        k->consts = rows;
        b->consts_cap = nc;
        for (uint32_t r = 0; r < k->nconsts; r++) {
            uint64_t key = k->consts[r][0];
            uint32_t hh = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (nh - 1);
            while (hv[hh])
                hh = (hh + 1) & (nh - 1);
            hk[hh] = key;
            hv[hh] = r + 1;
        }
        free(b->hkeys);
        free(b->hvals);
        b->hkeys = hk;
        b->hvals = hv;
        b->hcap = nh;
        return const_row(b, v);
    }
    uint32_t r = k->nconsts++;
    for (int l = 0; l < WARP; l++)
        k->consts[r][l] = v;
    b->hkeys[h] = v;
    b->hvals[h] = r + 1;
    return r | REF_CONST;
}

static uint32_t push_vref(struct binder *b, uint32_t v)
{
    struct emu_kernel *k = b->k;
    if (k->nvrefs == b->vrefs_cap) {
        uint32_t nc = b->vrefs_cap ? b->vrefs_cap * 2 : 256;
        uint32_t *p = realloc(k->vrefs, nc * sizeof *p);
        if (!p) {
            b->oom = 1;
            return 0;
        }
        k->vrefs = p;
        b->vrefs_cap = nc;
    }
    k->vrefs[k->nvrefs] = v;
    return k->nvrefs++;
}

static int is_dyn_sreg(int s)
{
    return s == MX_SREG_CLOCK || s == MX_SREG_CLOCK_HI || s == MX_SREG_CLOCK64 || s == MX_SREG_GLOBALTIMER ||
           s == MX_SREG_GLOBALTIMER_LO || s == MX_SREG_GLOBALTIMER_HI;
}

/* Special register -> pseudo slot (relative to the frame's nregs), or -1 for
 * the dynamic ones (read through a dedicated handler) and constants. */
static int sreg_slot(int s, int comp)
{
    switch (s) {
    case MX_SREG_ENVREG: return comp == 1 ? SS_ENVREG1 : comp == 2 ? SS_ENVREG2 : SS_ZERO;
    case MX_SREG_TID: return SS_TID_X + comp;
    case MX_SREG_NTID: return SS_NTID_X + comp;
    case MX_SREG_CTAID: return SS_CTAID_X + comp;
    case MX_SREG_NCTAID: return SS_NCTAID_X + comp;
    case MX_SREG_LANEID: return SS_LANEID;
    case MX_SREG_WARPID: return SS_WARPID;
    case MX_SREG_NWARPID: return SS_NWARPID;
    case MX_SREG_SMID: return SS_SMID;
    case MX_SREG_NSMID: return SS_NSMID;
    case MX_SREG_GRIDID: return SS_GRIDID;
    case MX_SREG_LANEMASK_EQ: return SS_LANEMASK_EQ;
    case MX_SREG_LANEMASK_LE: return SS_LANEMASK_LE;
    case MX_SREG_LANEMASK_LT: return SS_LANEMASK_LT;
    case MX_SREG_LANEMASK_GE: return SS_LANEMASK_GE;
    case MX_SREG_LANEMASK_GT: return SS_LANEMASK_GT;
    case MX_SREG_DYNAMIC_SMEM_SIZE: return SS_DYN_SMEM;
    case MX_SREG_MX_STACK_SIZE: return SS_STACK;
    case MX_SREG_TOTAL_SMEM_SIZE: case MX_SREG_AGGR_SMEM_SIZE: return SS_TOTAL_SMEM;
    case MX_SREG_CLUSTER_NCTARANK: case MX_SREG_NCLUSTERID: case MX_SREG_CLUSTER_NCTAID: return SS_ONE;
    case MX_SREG_CLUSTERID: return SS_CTAID_X + comp; /* one CTA per cluster */
    default: return SS_ZERO; /* %envreg*, %pm*, reserved smem offsets, cluster rank: read as 0 */
    }
}

/* The register row of special register slot s after a frame's own
 * registers: only the special registers the kernel reads get a row, in the
 * order of first use, so a warp's register file stays small. */
static uint32_t sreg_row(struct emu_kernel *k, int s)
{
    if (!k->sreg_row[s]) {
        k->sreg_list[k->nsregs] = (uint8_t)s;
        k->sreg_row[s] = (uint8_t)++k->nsregs;
    }
    return k->sreg_row[s] - 1u;
}

static int sym_space(const struct mx_symbol *s)
{
    switch (s->space) {
    case MX_SP_GLOBAL: return SP_GLOBAL;
    case MX_SP_CONST: return SP_CONST;
    case MX_SP_SHARED: return SP_SHARED;
    case MX_SP_LOCAL: return SP_LOCAL;
    case MX_SP_PARAM:
        if (s->flags & MX_SYMF_ENTRY_PARAM)
            return SP_PARAM_KERNEL;
        if (s->flags & MX_SYMF_FUNC_PARAM)
            return SP_PARAM_FUNC;
        if (s->flags & MX_SYMF_FUNC_RET)
            return SP_PARAM_RET;
        return SP_PARAM_SCRATCH;
    default: return SP_GENERIC;
    }
}

/* Value of a symbol's address as an operand (mov %rd, sym). */
static uint64_t sym_value(const struct emu_kernel *k, uint32_t si)
{
    const struct mx_symbol *s = &k->prog->syms[si];
    switch (s->space) {
    case MX_SP_GLOBAL: case MX_SP_CONST: return k->mod->addr[si];
    case MX_SP_SHARED: return k->shared_off[si];
    case MX_SP_LOCAL: return s->offset; /* + frame local base, added by the handler */
    default: return s->offset;
    }
}

emu_fn emu_bind_special(const struct mx_insn *in, struct emu_xinsn *x, int what);
emu_fn emu_bind_lookup(const struct mx_insn *in, struct emu_xinsn *x);

static void bind_insn(struct binder *b, uint32_t fi, uint32_t ii)
{
    struct emu_kernel *k = b->k;
    const struct mx_program *g = k->prog;
    const struct mx_func *f = &g->funcs[fi];
    const struct mx_insn *in = &g->insns[ii];
    struct emu_xinsn *x = &k->x[ii];
    memset(x, 0, sizeof *x);
    x->in = in;
    x->guard = REF_NONE;
    for (int s = 0; s < MX_MAX_OPD; s++)
        x->r[s] = REF_NONE;
    if (emu_bind_verify(g, fi, in, x))
        return; /* malformed: bound to the "invalid instruction" trap */
    x->guard = in->guard == MX_NONE ? REF_NONE : (in->guard | (in->guard_neg ? REF_NEG : 0));
    int special = 0, naddr = 0;
    for (int s = 0; s < in->nopd; s++) {
        const struct mx_operand *o = &in->opd[s];
        switch (o->kind) {
        case MX_OPD_REG: x->r[s] = o->reg; break;
        case MX_OPD_PRED: x->r[s] = o->reg | ((o->flags & MX_OPDF_NEG) ? REF_NEG : 0); break;
        case MX_OPD_IMM:
            if (mx_opd_type(in, s) == MX_T_PRED)
                x->r[s] = REF_CONST | (uint32_t)(o->imm & 1);
            else
                x->r[s] = const_row(b, (uint64_t)o->imm);
            break;
        case MX_OPD_SINK:
            /* '_': a value destination writes a scratch row; a predicate one stays REF_NONE (PDST skips it) */
            if (mx_opd_type(in, s) != MX_T_PRED)
                x->r[s] = f->nregs + sreg_row(k, SS_SINK);
            break;
        case MX_OPD_SREG:
            if (mx_opd_type(in, s) == MX_T_PRED)
                x->r[s] = REF_CONST | 0; /* %is_explicit_cluster: false (one CTA per cluster, none explicit) */
            else if (is_dyn_sreg((int)o->reg)) {
                special = 1; /* mov from %clock etc. */
                x->aux2 = o->reg;
                x->r[s] = f->nregs + sreg_row(k, SS_ZERO);
            } else {
                x->r[s] = f->nregs + sreg_row(k, sreg_slot((int)o->reg, (int)o->imm));
            }
            break;
        case MX_OPD_SYM: {
            const struct mx_symbol *sy = &g->syms[o->reg];
            x->r[s] = const_row(b, sym_value(k, o->reg) + (uint64_t)o->imm);
            if (sy->space == MX_SP_LOCAL)
                special = 2; /* local address: add the frame base */
            break;
        }
        case MX_OPD_FUNC:
            x->r[s] = in->op == MX_OP_CALL ? o->reg : const_row(b, EMU_FUNC_ADDR_BASE + (uint64_t)o->reg * 16);
            break;
        case MX_OPD_PROTO: x->r[s] = o->reg; break;
        case MX_OPD_ADDR: {
            if (naddr++) {
                /* a second memory operand (cp.async [dst], [src]): the first
                 * one's constant part and 32-bit flag move to aux/aux2 */
                x->aux = (uint32_t)x->off;
                x->aux2 = (x->flags & XF_BASE32) ? 1 : 0;
                x->flags &= (uint8_t)~(XF_BASE32 | XF_LOCAL_FRAME);
            }
            x->r[s] = o->reg != MX_NONE ? o->reg : const_row(b, 0);
            x->off = o->imm;
            if (o->flags & MX_OPDF_BASE32)
                x->flags |= XF_BASE32;
            int sp = in->mod[MX_MG_SPACE];
            x->space = sp == MX_SPACE_GLOBAL ? SP_GLOBAL : sp == MX_SPACE_SHARED || sp == MX_SPACE_SHARED_CTA ? SP_SHARED
                     : sp == MX_SPACE_LOCAL ? SP_LOCAL : sp == MX_SPACE_CONST ? SP_CONST
                     : sp == MX_SPACE_PARAM || sp == MX_SPACE_PARAM_ENTRY || sp == MX_SPACE_PARAM_FUNC ? SP_PARAM_KERNEL
                     : sp == MX_SPACE_SHARED_CLUSTER ? SP_SHARED : SP_GENERIC;
            if (o->sym != MX_NONE) {
                const struct mx_symbol *sy = &g->syms[o->sym];
                int ss = sym_space(sy);
                if (ss >= SP_PARAM_KERNEL) {
                    x->space = (uint8_t)ss;
                    x->off = (int64_t)((uint64_t)x->off + sy->offset); /* wraps like the address it feeds, never signed overflow */
                } else if (ss == SP_LOCAL) {
                    x->off = (int64_t)((uint64_t)x->off + sy->offset); /* wraps like the address it feeds, never signed overflow */
                    x->flags |= XF_LOCAL_FRAME;
                    if (x->space == SP_GENERIC)
                        x->space = SP_LOCAL;
                } else {
                    x->off = (int64_t)((uint64_t)x->off + sym_value(k, o->sym));
                    if (x->space == SP_GENERIC)
                        x->space = (uint8_t)ss;
                }
            }
            break;
        }
        case MX_OPD_VEC:
        case MX_OPD_LIST:
        case MX_OPD_TEXADDR: {
            uint32_t first = k->nvrefs;
            for (uint32_t e = 0; e < o->count; e++) {
                const struct mx_operand *eo = &g->vec[o->reg + e];
                uint32_t v = REF_NONE;
                switch (eo->kind) {
                case MX_OPD_REG: v = eo->reg; break;
                case MX_OPD_PRED: v = eo->reg | ((eo->flags & MX_OPDF_NEG) ? REF_NEG : 0); break;
                case MX_OPD_IMM: v = const_row(b, (uint64_t)eo->imm); break;
                case MX_OPD_SYM: v = o->kind == MX_OPD_LIST ? eo->reg : const_row(b, sym_value(k, eo->reg)); break;
                case MX_OPD_SREG:
                    v = f->nregs + sreg_row(k, sreg_slot((int)eo->reg, (int)eo->imm));
                    break;
                case MX_OPD_SINK: v = f->nregs + sreg_row(k, SS_SINK); break;
                default: v = REF_NONE; break;
                }
                push_vref(b, v);
            }
            x->r[s] = first;
            if (!x->aux)
                x->aux = o->count;
            break;
        }
        case MX_OPD_LABEL: x->r[s] = o->reg; break;
        case MX_OPD_TARGETS: {
            uint32_t first = k->nvrefs;
            for (uint32_t e = 0; e < o->count; e++)
                push_vref(b, g->vec[o->reg + e].reg);
            x->r[s] = first;
            x->aux = o->count;
            break;
        }
        case MX_OPD_INDREG: x->r[s] = o->reg; break;
        default: break;
        }
    }
    if (in->op == MX_OP_ATOM && in->nopd > 0 && in->opd[0].kind == MX_OPD_REG && b->uses && in->opd[0].reg < f->nregs &&
        b->uses[in->opd[0].reg] == 1)
        x->flags |= XF_DEAD_DEST; /* the old value is never read: the atom is a reduction */
    emu_fn fn = special ? emu_bind_special(in, x, special) : emu_bind_lookup(in, x);
    if (!fn)
        fn = emu_bind_special(in, x, 0); /* the "unsupported instruction" handler */
    x->fn = fn;
    x->unit = mx_opinfo(in->op)->unit;
}

/* A value register's scoreboard bit: the front end's (mx_func.regbit: registers live at the same time apart
 * where 64 bits suffice), else the slot's low bits. */
static inline uint64_t reg_bit(const struct mx_program *g, const struct mx_func *f, uint32_t reg)
{
    if (f->regbit != MX_NONE && reg < f->nregs && f->regbit + reg < g->nregbit)
        return 1ull << g->regbit[f->regbit + reg];
    return 1ull << (reg & 63);
}

/* The registers instruction in reads, each once, in operand order (the
 * first TM_MAX_SRC): what a timing model's register-file banks serve. */
static void add_src(struct emu_srcs *s, uint32_t reg)
{
    if (reg == MX_NONE || reg > UINT16_MAX)
        return;
    for (uint8_t i = 0; i < s->n; i++)
        if (s->r[i] == reg)
            return;
    if (s->n < TM_MAX_SRC)
        s->r[s->n++] = (uint16_t)reg;
}

/* The register bits (include/mx/timing.h, tm_issue.def) of operand o; with src, also the registers it reads
 * (tm_issue.src). */
static uint64_t opd_bits(const struct mx_program *g, const struct mx_func *f, const struct mx_operand *o,
                         struct emu_srcs *src)
{
    switch (o->kind) {
    case MX_OPD_REG:
        if (src)
            add_src(src, o->reg);
        return reg_bit(g, f, o->reg);
    case MX_OPD_PRED: return 1ull << (63 - (o->reg & 63));
    case MX_OPD_ADDR:
        if (src)
            add_src(src, o->reg);
        return o->reg != MX_NONE ? reg_bit(g, f, o->reg) : 0;
    case MX_OPD_INDREG: /* %r[%i]: the index only; which register of the range it names is known at run
                           time, and a whole-range dependence would make a hit wait for the fills of other
                           ways (the helper's Indirect-MOV reads a way's block written long before) */
        if (src)
            add_src(src, (uint32_t)o->imm);
        return reg_bit(g, f, (uint32_t)o->imm);
    case MX_OPD_VEC:
    case MX_OPD_TEXADDR:
    case MX_OPD_LIST: {
        uint64_t b = 0;
        for (uint32_t i = 0; i < o->count && o->reg + i < g->nvec; i++)
            b |= opd_bits(g, f, &g->vec[o->reg + i], src);
        return b;
    }
    default: return 0;
    }
}

/* Registers instruction in writes (d[0]) and reads (d[1]), for a timing
 * model's scoreboard: destinations by the opcode table's operand kinds;
 * calls and fences touch every register (a model waits for all).  And in
 * src the registers it reads, for the register-file banks. */
static void insn_deps(const struct mx_program *g, const struct mx_func *f, const struct mx_insn *in, uint64_t d[2],
                      struct emu_srcs *src)
{
    const struct mx_opinfo *oi = mx_opinfo(in->op);
    d[0] = d[1] = 0;
    src->n = 0;
    if (in->guard != MX_NONE)
        d[1] |= 1ull << (63 - (in->guard & 63));
    for (int i = 0; i < in->nopd && i < MX_MAX_OPD; i++) {
        char k = oi ? oi->kinds[i] : MX_FK_SRC;
        int dst = k == MX_FK_DST || k == MX_FK_PAIR;
        d[dst ? 0 : 1] |= opd_bits(g, f, &in->opd[i], dst ? NULL : src);
    }
    if (in->op == MX_OP_CALL || in->op == MX_OP_MEMBAR || in->op == MX_OP_FENCE)
        d[0] = d[1] = ~0ull;
}

static struct emu_kernel *bind_kernel(struct emu_module *m, uint32_t entry, int *rc)
{
    const struct mx_program *g = m->prog;
    struct emu_kernel *k = calloc(1, sizeof *k);
    struct binder b = { 0 };
    if (!k)
        goto oom;
    k->prog = g;
    k->mod = m;
    k->entry = entry;
    k->x = calloc(g->ninsns ? g->ninsns : 1, sizeof *k->x);
    k->deps = calloc(g->ninsns ? g->ninsns : 1, sizeof *k->deps);
    k->srcs = calloc(g->ninsns ? g->ninsns : 1, sizeof *k->srcs);
    k->shared_off = calloc(g->nsyms ? g->nsyms : 1, sizeof *k->shared_off);
    b.k = k;
    b.hcap = 256;
    b.hkeys = calloc(b.hcap, sizeof *b.hkeys);
    b.hvals = calloc(b.hcap, sizeof *b.hvals);
    if (!k->x || !k->deps || !k->srcs || !k->shared_off || !b.hkeys || !b.hvals)
        goto oom;
    for (uint32_t fi = 0; fi < g->nfuncs; fi++) {
        const struct mx_func *f = &g->funcs[fi];
        if (!(f->flags & MX_FUNCF_DECL))
            for (uint32_t i = f->first; i < f->first + f->ninsns && i < g->ninsns; i++)
                insn_deps(g, f, &g->insns[i], k->deps[i], &k->srcs[i]);
    }
    const struct mx_func *e = &g->funcs[entry];
    for (uint32_t i = 0; i < e->nshared; i++)
        k->shared_off[g->shared_layout[e->shared_layout + 2 * i]] = g->shared_layout[e->shared_layout + 2 * i + 1];
    k->shared_static = e->shared_size;
    /* the dynamic shared array starts aligned past the static variables:
     * the padding before it belongs to every block too */
    for (uint32_t i = 0; i < e->nshared; i++) {
        uint32_t si = g->shared_layout[e->shared_layout + 2 * i], at = g->shared_layout[e->shared_layout + 2 * i + 1];
        if ((g->syms[si].flags & MX_SYMF_DYNAMIC) && at > k->shared_static)
            k->shared_static = at;
    }
    /* Local memory per thread: the kernel's own frame when it makes no
     * calls; with calls, room for its frame plus every device function's
     * (any non-recursive chain), and at least the configured stack for
     * recursion.  Never more than the hardware's limit: emu_module_load
     * refused larger frames, a deeper chain faults with MX_ESTACK. */
    uint64_t chain = (e->local_size + 15) & ~15ull;
    int calls = 0;
    for (uint32_t i = 0; i < g->ninsns && !calls; i++)
        calls = g->insns[i].op == MX_OP_CALL;
    if (calls) {
        for (uint32_t fi = 0; fi < g->nfuncs; fi++)
            if (!(g->funcs[fi].flags & (MX_FUNCF_ENTRY | MX_FUNCF_DECL)))
                chain += (g->funcs[fi].local_size + 15) & ~15ull;
        k->calls = chain != 0; /* (the configured stack is added when a CTA starts: sched.c) */
    }
    k->max_local = chain < EMU_LOCAL_MAX ? chain : EMU_LOCAL_MAX;
    const_row(&b, 0);
    for (uint32_t fi = 0; fi < g->nfuncs; fi++) {
        const struct mx_func *f = &g->funcs[fi];
        if (f->flags & MX_FUNCF_DECL)
            continue;
        count_uses(&b, g, f);
        for (uint32_t i = f->first; i < f->first + f->ninsns; i++)
            bind_insn(&b, fi, i);
    }
    free(b.uses);
    b.uses = NULL;
    if (b.oom)
        goto oom;
    free(b.hkeys);
    free(b.hvals);
    return k;
oom:
    free(b.hkeys);
    free(b.hvals);
    kernel_free(k);
    *rc = MX_ENOMEM;
    return NULL;
}


struct emu_kernel *emu_module_kernel(struct emu_module *m, uint32_t func, int *rc)
{
    pthread_mutex_lock(&m->lock);
    if (!m->kernels[func])
        m->kernels[func] = bind_kernel(m, func, rc);
    struct emu_kernel *k = m->kernels[func];
    pthread_mutex_unlock(&m->lock);
    return k;
}

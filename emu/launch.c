/* emu/launch.c — device and module lifetime, binding a kernel (every
 * instruction to a handler and operand references, once), and running a
 * grid: CTAs placed by occupancy limits, warps scheduled round-robin in
 * quanta, barriers released when every live thread arrived, deadlocks and
 * runaway kernels reported.  The per-warp interpreter loop is interp.c. */
#include "emu/emu-internal.h"
#include "emu/interp.h"
#include "isa/opdtype.h"

#include <fenv.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int emu_mem_init(struct emu_device *d);
void emu_mem_fini(struct emu_device *d);

void emu_config_default(struct emu_config *c)
{
    memset(c, 0, sizeof *c);
    c->num_sms = 68;
    c->max_warps_per_sm = 48;
    c->max_threads_per_sm = 1536;
    c->max_ctas_per_sm = 16;
    c->max_threads_per_cta = 1024;
    c->regs_per_sm = 65536;
    c->max_regs_per_thread = 255;
    c->shared_per_sm = 100 * 1024;
    c->shared_per_cta = 99 * 1024;
    c->mem_size = 10ull << 30;
    c->watchdog_insns = 0;
    c->watchdog_seconds = 0;
    c->host_threads = 1;
    c->local_per_thread = 64 * 1024;
    c->max_call_depth = 64;
    c->cc_major = 8;
    c->cc_minor = 6;
}

int emu_device_create(const struct emu_config *cfg, struct emu_device **out)
{
    *out = NULL;
    if (mx_isa_init() < 0)
        return MX_EINVAL;
    struct emu_device *d = calloc(1, sizeof *d);
    if (!d)
        return MX_ENOMEM;
    d->cfg = *cfg;
    if (!d->cfg.mem_size || d->cfg.mem_size > (1ull << 40) || !d->cfg.num_sms || !d->cfg.max_threads_per_cta) {
        free(d);
        return MX_EINVAL;
    }
    if (!d->cfg.host_threads)
        d->cfg.host_threads = 1;
    if (!d->cfg.max_call_depth)
        d->cfg.max_call_depth = 64;
    int rc = emu_mem_init(d);
    if (rc) {
        emu_mem_fini(d);
        free(d);
        return rc;
    }
    *out = d;
    return MX_OK;
}

void emu_device_destroy(struct emu_device *d)
{
    if (!d)
        return;
    emu_mem_fini(d);
    free(d);
}

const struct emu_config *emu_device_config(const struct emu_device *d) { return &d->cfg; }

/* --------------------------------------------------------------- modules */

struct emu_module {
    struct emu_device *dev;
    const struct mx_program *prog;
    uint64_t *addr;                /* by symbol: device address of .global/.const variables */
    struct emu_kernel **kernels;   /* by function index, bound at first launch */
    pthread_mutex_t lock;
};

/* Function pointers are generic addresses in a range no data lives in. */
#define FUNC_ADDR_BASE 0x00007f0000000000ull

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
            target = FUNC_ADDR_BASE + (uint64_t)rl->target * 16;
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
};

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
    case MX_SREG_TOTAL_SMEM_SIZE: case MX_SREG_AGGR_SMEM_SIZE: return SS_TOTAL_SMEM;
    case MX_SREG_CLUSTER_NCTARANK: case MX_SREG_NCLUSTERID: case MX_SREG_CLUSTER_NCTAID: return SS_ONE;
    case MX_SREG_CLUSTERID: return SS_CTAID_X + comp; /* one CTA per cluster */
    default: return SS_ZERO; /* %envreg*, %pm*, reserved smem offsets, cluster rank: read as 0 */
    }
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
    int special = 0;
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
            /* '_': a value destination writes a scratch slot; a predicate one stays REF_NONE (PDST skips it) */
            if (mx_opd_type(in, s) != MX_T_PRED)
                x->r[s] = f->nregs + SS_SINK;
            break;
        case MX_OPD_SREG:
            if (mx_opd_type(in, s) == MX_T_PRED)
                x->r[s] = REF_CONST | 0; /* %is_explicit_cluster: false (one CTA per cluster, none explicit) */
            else if (is_dyn_sreg((int)o->reg)) {
                special = 1; /* mov from %clock etc. */
                x->aux2 = o->reg;
                x->r[s] = f->nregs + SS_ZERO;
            } else
                x->r[s] = f->nregs + (uint32_t)sreg_slot((int)o->reg, (int)o->imm);
            break;
        case MX_OPD_SYM: {
            const struct mx_symbol *sy = &g->syms[o->reg];
            x->r[s] = const_row(b, sym_value(k, o->reg) + (uint64_t)o->imm);
            if (sy->space == MX_SP_LOCAL)
                special = 2; /* local address: add the frame base */
            break;
        }
        case MX_OPD_FUNC:
            x->r[s] = in->op == MX_OP_CALL ? o->reg : const_row(b, FUNC_ADDR_BASE + (uint64_t)o->reg * 16);
            break;
        case MX_OPD_PROTO: x->r[s] = o->reg; break;
        case MX_OPD_ADDR: {
            x->r[s] = o->reg != MX_NONE ? o->reg : const_row(b, 0);
            x->off = o->imm;
            if (o->flags & MX_OPDF_BASE32)
                x->flags |= 0x40; /* XF_BASE32: the address register holds 32 bits */
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
                    x->off += (int64_t)sy->offset;
                } else if (ss == SP_LOCAL) {
                    x->off += (int64_t)sy->offset;
                    x->flags |= 0x80; /* XF_LOCAL_FRAME: add the frame's local base */
                    if (x->space == SP_GENERIC)
                        x->space = SP_LOCAL;
                } else {
                    x->off += (int64_t)sym_value(k, o->sym);
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
                case MX_OPD_SREG: v = f->nregs + (uint32_t)sreg_slot((int)eo->reg, (int)eo->imm); break;
                case MX_OPD_SINK: v = f->nregs + SS_SINK; break;
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
    emu_fn fn = special ? emu_bind_special(in, x, special) : emu_bind_lookup(in, x);
    if (!fn)
        fn = emu_bind_special(in, x, 0); /* the "unsupported instruction" handler */
    x->fn = fn;
    x->unit = mx_opinfo(in->op)->unit;
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
    k->shared_off = calloc(g->nsyms ? g->nsyms : 1, sizeof *k->shared_off);
    b.k = k;
    b.hcap = 256;
    b.hkeys = calloc(b.hcap, sizeof *b.hkeys);
    b.hvals = calloc(b.hcap, sizeof *b.hvals);
    if (!k->x || !k->shared_off || !b.hkeys || !b.hvals)
        goto oom;
    const struct mx_func *e = &g->funcs[entry];
    for (uint32_t i = 0; i < e->nshared; i++)
        k->shared_off[g->shared_layout[e->shared_layout + 2 * i]] = g->shared_layout[e->shared_layout + 2 * i + 1];
    k->shared_static = e->shared_size;
    /* Local memory per thread: the frames of every function, or the whole
     * configured stack when calls could recurse (any call plus any locals). */
    uint64_t sum = 0;
    int calls = 0;
    for (uint32_t fi = 0; fi < g->nfuncs; fi++)
        sum += (g->funcs[fi].local_size + 15) & ~15u;
    for (uint32_t i = 0; i < g->ninsns && !calls; i++)
        calls = g->insns[i].op == MX_OP_CALL;
    k->max_local = (uint32_t)((calls && sum) ? m->dev->cfg.local_per_thread : sum);
    if (k->max_local > m->dev->cfg.local_per_thread)
        k->max_local = m->dev->cfg.local_per_thread;
    const_row(&b, 0);
    for (uint32_t fi = 0; fi < g->nfuncs; fi++) {
        const struct mx_func *f = &g->funcs[fi];
        if (f->flags & MX_FUNCF_DECL)
            continue;
        for (uint32_t i = f->first; i < f->first + f->ninsns; i++)
            bind_insn(&b, fi, i);
    }
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

/* ---------------------------------------------------------------- faults */

struct launch_state {
    struct emu_device *dev;
    struct emu_kernel *k;
    const struct emu_launch *l;
    struct emu_fault fault;
    int faulted;                   /* set once; later faults are dropped */
    pthread_mutex_t fault_lock;
    uint64_t next_cta;             /* next CTA to run (atomic) */
    uint64_t ncta;
    uint64_t warp_insns, thread_insns;
    uint64_t unit_insns[16];
    double t0;
    uint32_t param_size;
    uint8_t *params;
    pthread_mutex_t stats_lock;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct emu_cta {
    struct launch_state *ls;
    uint32_t ctaid[3];
    uint8_t *shared;
    uint64_t shared_size;
    struct emu_warp *warps;
    uint32_t nwarps;
    uint32_t nthreads;
    uint32_t live_threads;         /* threads that have not exited */
    uint32_t bar_arrived[16];      /* threads arrived at each named barrier */
    uint32_t bar_expected[16];     /* thread count given by bar.sync a, b (0 = all live) */
    uint32_t red_popc[16];         /* bar.red: threads voting true */
    uint64_t smid;
    struct emu_fault *fault;
};

uint8_t *emu_cta_shared(struct emu_cta *c, uint64_t *size)
{
    *size = c->shared_size;
    return c->shared;
}

int emu_fault(struct emu_warp *w, const struct emu_xinsn *x, int status, int lane, uint64_t addr, unsigned size,
              const char *fmt, ...)
{
    struct emu_cta *c = w->cta;
    struct launch_state *ls = c->ls;
    pthread_mutex_lock(&ls->fault_lock);
    if (!ls->faulted) {
        __atomic_store_n(&ls->faulted, 1, __ATOMIC_RELEASE); /* read without the lock by the workers */
        struct emu_fault *f = &ls->fault;
        const struct mx_program *g = w->k->prog;
        f->status = status;
        snprintf(f->kernel, sizeof f->kernel, "%s", mx_str(g, g->funcs[w->k->entry].name));
        memcpy(f->cta, c->ctaid, sizeof f->cta);
        int ln = lane >= 0 ? lane : (w->active ? __builtin_ctz(w->active) : 0);
        uint32_t t = w->warp_id * WARP + (uint32_t)ln;
        const struct emu_launch *l = ls->l;
        f->tid[0] = t % l->block[0];
        f->tid[1] = (t / l->block[0]) % l->block[1];
        f->tid[2] = t / (l->block[0] * l->block[1]);
        f->lane = lane;
        f->warp = w->warp_id;
        f->pc = w->pc;
        f->line = x && x->in ? x->in->line : 0;
        f->loc_file = x && x->in ? x->in->loc_file : 0;
        f->loc_line = x && x->in ? x->in->loc_line : 0;
        f->addr = addr;
        f->size = size;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(f->message, sizeof f->message, fmt, ap);
        va_end(ap);
        f->detail[0] = 0;
        if (status == MX_EMEMFAULT && addr >= MEM_GLOBAL_BASE) {
            int a = emu_alloc_nearest(w->dev, addr);
            if (a >= 0) {
                const struct emu_alloc *al = emu_alloc_at(w->dev, (uint32_t)a);
                const char *rel = addr < al->base ? "before" : "after";
                uint64_t dist = addr < al->base ? al->base - addr : addr - (al->base + al->size);
                snprintf(f->detail, sizeof f->detail, "Address 0x%llx is %llu bytes %s the nearest allocation %s%s%sat 0x%llx of size %llu bytes%s",
                         (unsigned long long)addr, (unsigned long long)dist, rel, al->name[0] ? "'" : "", al->name,
                         al->name[0] ? "' " : "", (unsigned long long)al->base, (unsigned long long)al->size,
                         al->live ? "" : " (freed)");
            }
        }
    }
    pthread_mutex_unlock(&ls->fault_lock);
    return EX_FAULT;
}

void emu_fault_print(FILE *out, const struct emu_fault *f)
{
    if (strcmp(f->message, mx_strstatus(f->status)))
        fprintf(out, "========= %s (%s)\n", f->message, mx_strstatus(f->status));
    else
        fprintf(out, "========= %s\n", f->message);
    if (f->status == MX_ELAUNCH || f->status == MX_ENOTFOUND || f->status == MX_EINVAL) {
        fprintf(out, "=========     kernel %s was not started\n", f->kernel);
        return;
    }
    fprintf(out, "=========     at PTX line %u (pc %u) in kernel %s", f->line, f->pc, f->kernel);
    if (f->loc_line)
        fprintf(out, " [source file %u line %u]", f->loc_file, f->loc_line);
    fputc('\n', out);
    fprintf(out, "=========     by thread (%u,%u,%u) in block (%u,%u,%u), warp %u", f->tid[0], f->tid[1], f->tid[2],
            f->cta[0], f->cta[1], f->cta[2], f->warp);
    if (f->lane >= 0)
        fprintf(out, " lane %d", f->lane);
    fputc('\n', out);
    if (f->detail[0])
        fprintf(out, "=========     %s\n", f->detail);
}

/* ---------------------------------------------------------------- CTAs */

static int occupancy_check(const struct emu_device *d, const struct emu_kernel *k, const struct emu_launch *l,
                           struct emu_fault *f)
{
    const struct emu_config *c = &d->cfg;
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    const char *why = NULL;
    char buf[256];
    const struct mx_func *e = &k->prog->funcs[k->entry];
    if (!threads || !l->grid[0] || !l->grid[1] || !l->grid[2])
        why = "grid and block dimensions must be at least 1";
    else if (threads > c->max_threads_per_cta)
        snprintf(buf, sizeof buf, "%llu threads per block exceed the limit of %u", (unsigned long long)threads,
                 c->max_threads_per_cta), why = buf;
    else if (l->block[2] > 64 || l->grid[1] > 65535 || l->grid[2] > 65535)
        why = "block.z must be <= 64 and grid.y, grid.z <= 65535";
    else if ((uint64_t)k->shared_static + l->dyn_smem > c->shared_per_cta)
        snprintf(buf, sizeof buf, "%u bytes of shared memory per block exceed the limit of %u",
                 k->shared_static + l->dyn_smem, c->shared_per_cta), why = buf;
    else if (e->reqntid[0] && (e->reqntid[0] != l->block[0] || e->reqntid[1] != l->block[1] || e->reqntid[2] != l->block[2]))
        snprintf(buf, sizeof buf, "block (%u,%u,%u) differs from .reqntid %u,%u,%u", l->block[0], l->block[1], l->block[2],
                 e->reqntid[0], e->reqntid[1], e->reqntid[2]), why = buf;
    else if (e->maxntid[0] && threads > (uint64_t)e->maxntid[0] * e->maxntid[1] * e->maxntid[2])
        snprintf(buf, sizeof buf, "%llu threads exceed .maxntid", (unsigned long long)threads), why = buf;
    if (!why)
        return MX_OK;
    memset(f, 0, sizeof *f);
    f->status = MX_ELAUNCH;
    f->lane = -1;
    snprintf(f->kernel, sizeof f->kernel, "%s", mx_str(k->prog, e->name));
    snprintf(f->message, sizeof f->message, "invalid launch configuration: %s", why);
    return MX_ELAUNCH;
}

static void warp_init_sregs(struct emu_warp *w, const struct emu_launch *l, struct emu_cta *c, uint32_t nregs)
{
    uint64_t *r = w->regs + (size_t)nregs * WARP;
    for (int lane = 0; lane < WARP; lane++) {
        uint32_t t = w->warp_id * WARP + (uint32_t)lane;
        r[SS_TID_X * WARP + lane] = t % l->block[0];
        r[SS_TID_Y * WARP + lane] = (t / l->block[0]) % l->block[1];
        r[SS_TID_Z * WARP + lane] = t / (l->block[0] * l->block[1]);
        r[SS_NTID_X * WARP + lane] = l->block[0];
        r[SS_NTID_Y * WARP + lane] = l->block[1];
        r[SS_NTID_Z * WARP + lane] = l->block[2];
        r[SS_CTAID_X * WARP + lane] = c->ctaid[0];
        r[SS_CTAID_Y * WARP + lane] = c->ctaid[1];
        r[SS_CTAID_Z * WARP + lane] = c->ctaid[2];
        r[SS_NCTAID_X * WARP + lane] = l->grid[0];
        r[SS_NCTAID_Y * WARP + lane] = l->grid[1];
        r[SS_NCTAID_Z * WARP + lane] = l->grid[2];
        r[SS_LANEID * WARP + lane] = (uint64_t)lane;
        r[SS_WARPID * WARP + lane] = w->warp_id;
        r[SS_NWARPID * WARP + lane] = c->ls->dev->cfg.max_warps_per_sm;
        r[SS_SMID * WARP + lane] = c->smid;
        r[SS_NSMID * WARP + lane] = c->ls->dev->cfg.num_sms;
        r[SS_GRIDID * WARP + lane] = 1;
        r[SS_LANEMASK_EQ * WARP + lane] = 1u << lane;
        r[SS_LANEMASK_LE * WARP + lane] = (uint32_t)((2ull << lane) - 1);
        r[SS_LANEMASK_LT * WARP + lane] = (1u << lane) - 1;
        r[SS_LANEMASK_GE * WARP + lane] = ~((1u << lane) - 1);
        r[SS_LANEMASK_GT * WARP + lane] = (uint32_t)~((2ull << lane) - 1);
        r[SS_DYN_SMEM * WARP + lane] = l->dyn_smem;
        r[SS_TOTAL_SMEM * WARP + lane] = c->shared_size;
        r[SS_ZERO * WARP + lane] = 0;
        r[SS_ONE * WARP + lane] = 1;
    }
}

/* Frees everything a warp allocated (frames beyond the first included). */
static void warp_release(struct emu_warp *w)
{
    for (uint32_t i = 0; i < w->frames_cap; i++) /* every frame ever used keeps buffers */
        emu_frame_release(&w->frames[i]);
    free(w->frames);
    free(w->simt);
    free(w->local);
    memset(w, 0, sizeof *w);
}

/* Releases barrier waiters where every expected thread arrived.  Returns
 * the number of warps woken. */
static int barrier_release(struct emu_cta *c)
{
    int woken = 0;
    for (int b = 0; b < 16; b++) {
        uint32_t expect = c->bar_expected[b] ? c->bar_expected[b] : c->live_threads;
        if (!c->bar_arrived[b] || c->bar_arrived[b] < expect)
            continue;
        uint32_t arrived = c->bar_arrived[b], votes = c->red_popc[b];
        c->bar_arrived[b] = 0;
        c->bar_expected[b] = 0;
        c->red_popc[b] = 0;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            struct emu_warp *w = &c->warps[i];
            if (w->state != WS_BARRIER || w->bar_id != (uint32_t)b)
                continue;
            w->state = WS_READY;
            woken++;
            if (w->red_ref == REF_NONE)
                continue;
            uint32_t ref = w->red_ref & ~REF_NEG, lanes = w->red_mask;
            if (w->red_kind == MX_BAROP_POPC) {
                for (int l = 0; l < WARP; l++)
                    if (lanes >> l & 1)
                        w->regs[(size_t)ref * WARP + l] = votes;
            } else {
                int r = w->red_kind == MX_BAROP_AND ? votes == arrived : votes != 0;
                w->preds[ref] = (w->preds[ref] & ~lanes) | (r ? lanes : 0);
            }
            w->red_ref = REF_NONE;
        }
    }
    return woken;
}

int emu_cta_barrier_arrive(struct emu_warp *w, uint32_t bar, uint32_t count, uint32_t threads);
int emu_cta_barrier_arrive(struct emu_warp *w, uint32_t bar, uint32_t count, uint32_t threads)
{
    struct emu_cta *c = w->cta;
    if (bar >= 16)
        return -1;
    c->bar_arrived[bar] += threads;
    if (count)
        c->bar_expected[bar] = count;
    w->state = WS_BARRIER;
    w->bar_id = bar;
    barrier_release(c);
    return 0;
}

int emu_cta_barrier_red(struct emu_warp *w, uint32_t bar, uint32_t count, uint32_t threads, uint32_t kind,
                        uint32_t dref, uint32_t votes);
int emu_cta_barrier_red(struct emu_warp *w, uint32_t bar, uint32_t count, uint32_t threads, uint32_t kind,
                        uint32_t dref, uint32_t votes)
{
    w->red_ref = dref;
    w->red_kind = kind;
    w->red_mask = w->active;
    w->cta->red_popc[bar] += (uint32_t)__builtin_popcount(votes);
    return emu_cta_barrier_arrive(w, bar, count, threads);
}

void emu_cta_thread_exit(struct emu_warp *w, uint32_t nthreads);
void emu_cta_thread_exit(struct emu_warp *w, uint32_t nthreads)
{
    w->cta->live_threads -= nthreads;
    barrier_release(w->cta);
}

/* The instruction a stopped warp is at, for reports: a warp waiting at a
 * barrier is at the barrier (its handler already moved pc past it); a warp
 * that fell off the end of a function is at the function's last instruction. */
static uint32_t warp_pc(const struct emu_kernel *k, const struct emu_warp *w)
{
    uint32_t pc = w->pc;
    if (w->state == WS_BARRIER && pc > 0)
        pc--;
    if (pc >= w->fend && w->fend > 0)
        pc = w->fend - 1;
    return pc < k->prog->ninsns ? pc : 0;
}

/* Stops a CTA that ran past a watchdog limit: the fault names the first
 * unfinished warp's instruction, the detail every unfinished warp's line.
 * `fmt` takes either n (instruction budget) or secs (wall clock). */
static void watchdog_stop(struct emu_cta *c, const char *fmt, unsigned long long n, double secs)
{
    struct launch_state *ls = c->ls;
    const struct emu_kernel *k = ls->k;
    struct emu_warp *w = &c->warps[0];
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (c->warps[i].state != WS_DONE) {
            w = &c->warps[i];
            break;
        }
    uint32_t at = w->pc;
    w->pc = warp_pc(k, w);
    if (n)
        emu_fault(w, &k->x[w->pc], MX_EWATCHDOG, -1, 0, 0, fmt, n);
    else
        emu_fault(w, &k->x[w->pc], MX_EWATCHDOG, -1, 0, 0, fmt, secs);
    w->pc = at;
    pthread_mutex_lock(&ls->fault_lock);
    if (ls->fault.status == MX_EWATCHDOG && !memcmp(ls->fault.cta, c->ctaid, sizeof c->ctaid) && !ls->fault.detail[0]) {
        char *p = ls->fault.detail;
        size_t len = 0;
        for (uint32_t i = 0; i < c->nwarps && len < sizeof ls->fault.detail - 64; i++)
            if (c->warps[i].state != WS_DONE)
                len += (size_t)snprintf(p + len, sizeof ls->fault.detail - len, "%swarp %u at PTX line %u",
                                        len ? "; " : "still running: ", i, k->prog->insns[warp_pc(k, &c->warps[i])].line);
    }
    pthread_mutex_unlock(&ls->fault_lock);
}

#define QUANTUM 4096 /* warp instructions a warp runs before the next gets a turn */

/* Warps a worker reuses from CTA to CTA: their frames, SIMT stacks and
 * local memory keep their capacity, so a CTA allocates nothing. */
struct warp_pool { struct emu_warp *w; uint32_t n; };

/* Clears a pooled warp for a new CTA, keeping its buffers. */
static void warp_recycle(struct emu_warp *w)
{
    struct emu_frame *frames = w->frames;
    uint32_t frames_cap = w->frames_cap, simt_cap = w->simt_cap;
    struct emu_simt *simt = w->simt;
    uint8_t *local = w->local;
    uint64_t local_cap = w->local_cap;
    memset(w, 0, sizeof *w);
    w->frames = frames;
    w->frames_cap = frames_cap;
    w->simt = simt;
    w->simt_cap = simt_cap;
    w->local = local;
    w->local_cap = local_cap;
}

static int run_cta(struct launch_state *ls, uint64_t id, struct emu_cta *c, uint8_t *shared_buf, struct warp_pool *pool)
{
    const struct emu_launch *l = ls->l;
    struct emu_kernel *k = ls->k;
    struct emu_device *d = ls->dev;
    const struct mx_func *e = &k->prog->funcs[k->entry];
    memset(c, 0, sizeof *c);
    c->ls = ls;
    c->ctaid[0] = (uint32_t)(id % l->grid[0]);
    c->ctaid[1] = (uint32_t)((id / l->grid[0]) % l->grid[1]);
    c->ctaid[2] = (uint32_t)(id / ((uint64_t)l->grid[0] * l->grid[1]));
    c->smid = id % d->cfg.num_sms;
    c->nthreads = l->block[0] * l->block[1] * l->block[2];
    c->live_threads = c->nthreads;
    c->nwarps = (c->nthreads + WARP - 1) / WARP;
    c->shared_size = (uint64_t)k->shared_static + l->dyn_smem;
    c->shared = shared_buf;
    memset(shared_buf, 0, c->shared_size);
    if (pool->n < c->nwarps) {
        struct emu_warp *pw = realloc(pool->w, c->nwarps * sizeof *pw);
        if (!pw)
            return MX_ENOMEM;
        memset(pw + pool->n, 0, (c->nwarps - pool->n) * sizeof *pw);
        pool->w = pw;
        pool->n = c->nwarps;
    }
    c->warps = pool->w;
    int rc = MX_OK;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        struct emu_warp *w = &c->warps[i];
        warp_recycle(w);
        w->cta = c;
        w->k = k;
        w->dev = d;
        w->warp_id = i;
        w->consts = (const uint64_t(*)[WARP])k->consts;
        w->nthreads = c->nthreads - i * WARP < WARP ? c->nthreads - i * WARP : WARP;
        w->cache_page = ~0ull;
        w->red_ref = REF_NONE;
        w->last_alloc = UINT32_MAX;
        w->local_size = k->max_local;
        if (w->local_size * WARP > w->local_cap) {
            free(w->local);
            w->local_cap = w->local_size * WARP;
            w->local = malloc(w->local_cap);
            if (!w->local) {
                w->local_cap = 0;
                rc = MX_ENOMEM;
                break;
            }
        }
        if (w->local_size)
            memset(w->local, 0, w->local_size * WARP);
        uint32_t mask = w->nthreads == WARP ? FULL_MASK : (1u << w->nthreads) - 1;
        if ((rc = emu_warp_start(w, k->entry, mask, ls->params))) {
            break;
        }
        warp_init_sregs(w, l, c, e->nregs);
    }
    uint32_t live = rc ? 0 : c->nwarps;
    uint64_t budget = d->cfg.watchdog_insns;
    while (live && !rc) {
        int ran = 0;
        live = 0;
        for (uint32_t i = 0; i < c->nwarps && !rc; i++) {
            struct emu_warp *w = &c->warps[i];
            if (w->state == WS_DONE)
                continue;
            live++;
            if (w->state != WS_READY)
                continue;
            ran = 1;
            int r = emu_warp_run(w, QUANTUM);
            if (r == EX_FAULT || __atomic_load_n(&ls->faulted, __ATOMIC_RELAXED)) {
                pthread_mutex_lock(&ls->fault_lock); /* another host thread may be writing the report */
                rc = ls->fault.status ? ls->fault.status : MX_EILLEGAL;
                pthread_mutex_unlock(&ls->fault_lock);
                break;
            }
        }
        if (rc)
            break;
        uint64_t total = __atomic_add_fetch(&ls->warp_insns, 0, __ATOMIC_RELAXED);
        uint64_t mine = 0;
        for (uint32_t i = 0; i < c->nwarps; i++)
            mine += c->warps[i].insns;
        if (budget && total + mine > budget) {
            watchdog_stop(c, "watchdog: kernel exceeded %llu warp instructions (--max-insns)", (unsigned long long)budget, 0.0);
            rc = MX_EWATCHDOG;
            break;
        }
        if (d->cfg.watchdog_seconds > 0 && now() - ls->t0 > d->cfg.watchdog_seconds) {
            watchdog_stop(c, "watchdog: kernel ran longer than %.1f s (--timeout)", 0, d->cfg.watchdog_seconds);
            rc = MX_EWATCHDOG;
            break;
        }
        if (!ran && live) {
            /* every live warp waits at a barrier that can never be released */
            struct emu_warp *w = NULL;
            for (uint32_t i = 0; i < c->nwarps; i++)
                if (c->warps[i].state == WS_BARRIER) {
                    w = &c->warps[i];
                    break;
                }
            if (!w)
                break;
            uint32_t b = w->bar_id;
            uint32_t expect = c->bar_expected[b] ? c->bar_expected[b] : c->live_threads;
            uint32_t at = w->pc;
            w->pc = warp_pc(k, w); /* report the barrier the warp waits at */
            emu_fault(w, &k->x[w->pc], MX_EDEADLOCK, -1, 0, 0,
                      "barrier deadlock: barrier %u has %u of %u threads and no warp can make progress", b,
                      c->bar_arrived[b], expect);
            w->pc = at;
            pthread_mutex_lock(&ls->fault_lock);
            if (ls->fault.status == MX_EDEADLOCK && !memcmp(ls->fault.cta, c->ctaid, sizeof c->ctaid) && !ls->fault.detail[0]) {
                char *p = ls->fault.detail;
                size_t n = 0;
                for (uint32_t i = 0; i < c->nwarps && n < sizeof ls->fault.detail - 80; i++)
                    if (c->warps[i].state == WS_BARRIER)
                        n += (size_t)snprintf(p + n, sizeof ls->fault.detail - n, "%swarp %u waits at PTX line %u (barrier %u)",
                                              n ? "; " : "", i, k->prog->insns[warp_pc(k, &c->warps[i])].line,
                                              c->warps[i].bar_id);
            }
            pthread_mutex_unlock(&ls->fault_lock);
            rc = MX_EDEADLOCK;
            break;
        }
    }
    uint64_t wi = 0, ti = 0;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        wi += c->warps[i].insns;
        ti += c->warps[i].thread_insns;
        for (int u = 0; u < 16; u++)
            if (c->warps[i].unit_insns[u])
                __atomic_add_fetch(&ls->unit_insns[u], c->warps[i].unit_insns[u], __ATOMIC_RELAXED);
    }
    __atomic_add_fetch(&ls->warp_insns, wi, __ATOMIC_RELAXED);
    __atomic_add_fetch(&ls->thread_insns, ti, __ATOMIC_RELAXED);
    return rc;
}

static void *worker(void *arg)
{
    struct launch_state *ls = arg;
    /* Handlers assume round-to-nearest without flush-to-zero: a host program
     * built with -ffast-math (FTZ/DAZ set at start-up) must not change what
     * its kernels compute.  Saved and restored around the CTAs. */
    fenv_t host_env;
    fegetenv(&host_env);
    fesetenv(FE_DFL_ENV);
    uint64_t shared_bytes = (uint64_t)ls->k->shared_static + ls->l->dyn_smem;
    uint8_t *shared = malloc(shared_bytes ? shared_bytes : 1);
    struct emu_cta cta;
    struct warp_pool pool = { NULL, 0 };
    if (!shared) {
        pthread_mutex_lock(&ls->fault_lock);
        if (!ls->faulted) {
            __atomic_store_n(&ls->faulted, 1, __ATOMIC_RELEASE);
            ls->fault.status = MX_ENOMEM;
            snprintf(ls->fault.message, sizeof ls->fault.message, "out of host memory for shared memory");
        }
        pthread_mutex_unlock(&ls->fault_lock);
        fesetenv(&host_env);
        return NULL;
    }
    for (;;) {
        if (__atomic_load_n(&ls->faulted, __ATOMIC_RELAXED))
            break;
        uint64_t id = __atomic_fetch_add(&ls->next_cta, 1, __ATOMIC_RELAXED);
        if (id >= ls->ncta)
            break;
        int rc = run_cta(ls, id, &cta, shared, &pool);
        if (rc && !__atomic_load_n(&ls->faulted, __ATOMIC_RELAXED)) {
            pthread_mutex_lock(&ls->fault_lock);
            if (!ls->faulted) {
                __atomic_store_n(&ls->faulted, 1, __ATOMIC_RELEASE);
                ls->fault.status = rc;
                snprintf(ls->fault.message, sizeof ls->fault.message, "%s", mx_strstatus(rc));
            }
            pthread_mutex_unlock(&ls->fault_lock);
        }
    }
    for (uint32_t i = 0; i < pool.n; i++)
        warp_release(&pool.w[i]);
    free(pool.w);
    free(shared);
    fesetenv(&host_env);
    return NULL;
}

int emu_launch(struct emu_device *d, struct emu_module *m, const struct emu_launch *l, struct emu_stats *stats,
               struct emu_fault *fault)
{
    struct emu_fault dummy;
    if (!fault)
        fault = &dummy;
    memset(fault, 0, sizeof *fault);
    fault->lane = -1;
    if (stats)
        memset(stats, 0, sizeof *stats);
    const struct mx_program *g = m->prog;
    if (l->func >= g->nfuncs || !(g->funcs[l->func].flags & MX_FUNCF_ENTRY) || (g->funcs[l->func].flags & MX_FUNCF_DECL)) {
        fault->status = MX_ENOTFOUND;
        snprintf(fault->message, sizeof fault->message, "function %u is not a kernel defined in this module", l->func);
        return MX_ENOTFOUND;
    }
    const struct mx_func *e = &g->funcs[l->func];
    if (l->params_size < e->param_size) {
        fault->status = MX_EINVAL;
        snprintf(fault->message, sizeof fault->message, "kernel %s takes %u bytes of parameters, %zu given",
                 mx_str(g, e->name), e->param_size, l->params_size);
        return MX_EINVAL;
    }
    pthread_mutex_lock(&m->lock);
    int rc = MX_OK;
    if (!m->kernels[l->func])
        m->kernels[l->func] = bind_kernel(m, l->func, &rc);
    struct emu_kernel *k = m->kernels[l->func];
    pthread_mutex_unlock(&m->lock);
    if (!k) {
        fault->status = rc;
        snprintf(fault->message, sizeof fault->message, "out of memory binding the kernel");
        return rc;
    }
    if ((rc = occupancy_check(d, k, l, fault)))
        return rc;
    struct launch_state ls;
    memset(&ls, 0, sizeof ls);
    ls.dev = d;
    ls.k = k;
    ls.l = l;
    ls.ncta = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    ls.params = (uint8_t *)l->params;
    ls.param_size = e->param_size;
    ls.t0 = now();
    pthread_mutex_init(&ls.fault_lock, NULL);
    uint32_t nt = d->cfg.host_threads;
    if (nt > ls.ncta)
        nt = (uint32_t)ls.ncta;
    if (nt <= 1) {
        worker(&ls);
    } else {
        pthread_t *th = calloc(nt, sizeof *th);
        uint32_t started = 0;
        if (th)
            for (; started < nt; started++)
                if (pthread_create(&th[started], NULL, worker, &ls))
                    break;
        if (!started)
            worker(&ls);
        for (uint32_t i = 0; i < started; i++)
            pthread_join(th[i], NULL);
        free(th);
    }
    pthread_mutex_destroy(&ls.fault_lock);
    if (stats) {
        stats->warp_insns = ls.warp_insns;
        memcpy(stats->unit_insns, ls.unit_insns, sizeof stats->unit_insns);
        stats->thread_insns = ls.thread_insns;
        stats->ctas = ls.ncta;
        stats->warps = ls.ncta * ((l->block[0] * l->block[1] * l->block[2] + WARP - 1) / WARP);
        stats->wall_seconds = now() - ls.t0;
    }
    if (ls.faulted) {
        *fault = ls.fault;
        if (!fault->kernel[0])
            snprintf(fault->kernel, sizeof fault->kernel, "%s", mx_str(g, e->name));
        return fault->status ? fault->status : MX_EILLEGAL;
    }
    return MX_OK;
}

/* emu/exec_ctrl.c — control flow: bra, brx.idx, call, ret, exit, trap,
 * nanosleep.  Divergence goes through the SIMT stack in interp.c. */
#include "emu/interp.h"


static uint32_t rpc_of(const struct emu_xinsn *x) { return x->in->ipdom == MX_NONE ? RPC_NONE : x->in->ipdom; }

/* Opcode: bra{.uni} label   Synopsis: pc = label for the guarded lanes */
static int h_bra(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    if (m == w->active) {
        w->pc = x->r[0];
        return EX_JUMP;
    }
    uint32_t pcs[2] = { x->r[0], w->pc + 1 }, masks[2] = { m, w->active & ~m };
    return emu_simt_branch(w, 2, pcs, masks, rpc_of(x));
}

/* Opcode: brx.idx{.uni} index, targets   Synopsis: pc = targets[index] per lane */
static int h_brx(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *idx = SRC(0);
    uint32_t pcs[WARP + 1], masks[WARP + 1], n = 0;
    uint32_t mm = m;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        uint32_t i = (uint32_t)idx[l];
        if (i >= x->aux)
            return emu_fault(w, x, MX_EILLEGAL, l, 0, 0, "brx.idx index %u is outside its target list of %u labels", i, x->aux);
        uint32_t pc = w->k->vrefs[x->r[1] + i], g;
        for (g = 0; g < n && pcs[g] != pc; g++)
            ;
        if (g == n) {
            pcs[n] = pc;
            masks[n++] = 0;
        }
        masks[g] |= 1u << l;
    }
    if (w->active & ~m) {
        pcs[n] = w->pc + 1;
        masks[n++] = w->active & ~m;
    }
    if (n == 1) {
        w->pc = pcs[0];
        return EX_JUMP;
    }
    return emu_simt_branch(w, n, pcs, masks, rpc_of(x));
}

/* Opcode: call (rets), func, (args)   Synopsis: run func with a new frame for lanes m */
static int h_call(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    return emu_call(w, x, x->r[1], m);
}

/* Opcode: call (rets), %reg, (args), proto   Synopsis: indirect call through a function address */
static int h_call_ind(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *a = SRC(1);
    int first = __builtin_ctz(m);
    uint64_t t = a[first];
    uint32_t same = 0, mm = m;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        same |= (uint32_t)(a[l] == t) << l;
    }
    if (same != m) {
        /* lanes call different functions (virtual calls on objects of several
         * classes): the warp splits by target like a divergent branch, each
         * group comes back to this call alone, and all meet after it */
        uint32_t pcs[WARP + 1], masks[WARP + 1], n = 0, rest = m;
        while (rest) {
            uint64_t tt = a[__builtin_ctz(rest)];
            uint32_t g = 0;
            for (uint32_t r = rest; r; r &= r - 1)
                g |= (uint32_t)(a[__builtin_ctz(r)] == tt) << __builtin_ctz(r);
            pcs[n] = w->pc;
            masks[n++] = g;
            rest &= ~g;
        }
        if (w->active & ~m) { /* lanes the guard turned off go on after the call */
            pcs[n] = w->pc + 1;
            masks[n++] = w->active & ~m;
        }
        return emu_simt_branch(w, n, pcs, masks, w->pc + 1);
    }
    uint64_t fi = (t - EMU_FUNC_ADDR_BASE) / 16;
    const struct mx_program *g = w->k->prog;
    if (t < EMU_FUNC_ADDR_BASE || (t - EMU_FUNC_ADDR_BASE) % 16 || fi >= g->nfuncs ||
        (g->funcs[fi].flags & (MX_FUNCF_ENTRY | MX_FUNCF_PROTO)))
        return emu_fault(w, x, MX_EILLEGAL, first, t, 0, "indirect call to 0x%llx, which is not a function address",
                         (unsigned long long)t);
    /* the binder checked the lists against the caller only: now the callee is known */
    if (emu_call_fits(g, &g->funcs[w->frames[w->nframes - 1].func], x->in, (uint32_t)fi, NULL))
        return emu_fault(w, x, MX_EILLEGAL, first, t, 0, "indirect call to '%s': the argument or return list does not fit its parameters",
                         mx_str(g, g->funcs[fi].name));
    return emu_call(w, x, (uint32_t)fi, m);
}

/* Opcode: ret   Synopsis: lanes m leave the function (the kernel: they exit) */
static int h_ret(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m) { return emu_lanes_return(w, x, m); }

/* Opcode: exit   Synopsis: lanes m end */
static int h_exit(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    (void)x;
    return emu_lanes_exit(w, m);
}

/* Opcode: trap / brkpt   Synopsis: abort the kernel */
static int h_trap(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    return emu_fault(w, x, MX_ETRAP, __builtin_ctz(m), 0, 0, "%s instruction executed", x->in->op == MX_OP_TRAP ? "trap" : "brkpt");
}

/* Opcode: nanosleep.u32 t   Synopsis: let the other warps run */
static int h_nanosleep(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    (void)x;
    (void)m;
    w->pc++;
    return EX_YIELD;
}

/* Opcode: pmevent / membar / fence   Synopsis: no architectural effect here */
static int h_nop(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    (void)w;
    (void)x;
    (void)m;
    return EX_NEXT;
}

static emu_fn bind_bra(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_bra; }
static emu_fn bind_brx(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_brx; }
static emu_fn bind_call(const struct mx_insn *in, struct emu_xinsn *x)
{
    (void)x;
    return in->opd[1].kind == MX_OPD_FUNC ? h_call : h_call_ind;
}
static emu_fn bind_ret(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_ret; }
static emu_fn bind_exit(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_exit; }
static emu_fn bind_trap(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_trap; }
static emu_fn bind_nanosleep(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_nanosleep; }
static emu_fn bind_nop(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_nop; }

const struct emu_bind_row emu_bind_ctrl[] = {
    { MX_OP_BRA, bind_bra },
    { MX_OP_BRX, bind_brx },
    { MX_OP_CALL, bind_call },
    { MX_OP_RET, bind_ret },
    { MX_OP_EXIT, bind_exit },
    { MX_OP_TRAP, bind_trap },
    { MX_OP_BRKPT, bind_trap },
    { MX_OP_NANOSLEEP, bind_nanosleep },
    { MX_OP_PMEVENT, bind_nop },
    { MX_OP_MEMBAR, bind_nop },
    { MX_OP_FENCE, bind_nop },
    { MX_OP_PREFETCH, bind_nop },
    { MX_OP_PREFETCHU, bind_nop },
    EMU_BIND_END
};

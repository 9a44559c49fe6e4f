/* emu/ext/park.c — the park ISA extension: a warp sleeps (park) until
 * another warp wakes it (wake.warp within its CTA, wake.grid across the
 * grid), the way Morpheus's helper warps sleep until the cache controller
 * has a request for them.  The semantics (parked state, kept wakes, the
 * order of wakes across SMs) are emu/park.c's; this file decodes operands.
 * Enabled by --isa-ext park; the front end rejects these opcodes otherwise. */
#include "emu/interp.h"

/* Opcode: park   Synopsis: the warp sleeps until woken
 * The whole warp parks when its current path executes it (its other
 * diverged paths, if any, sleep with it); woken, that path goes on after
 * the park.  A wake that came before is used up instead of sleeping. */
static int h_park(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    (void)x;
    (void)m;
    if (!emu_warp_park(w))
        return EX_NEXT;
    w->pc++; /* where it resumes */
    return EX_YIELD;
}

/* The distinct 32-bit values of a[] over lanes m, in lane order; the number
 * of them, or -1 with *bad the first lane whose value is >= limit. */
static int targets(const uint64_t *a, uint32_t m, uint64_t limit, uint32_t *out, int *bad)
{
    int n = 0;
    while (m) {
        int l = __builtin_ctz(m);
        m &= m - 1;
        uint32_t t = (uint32_t)a[l];
        if (t >= limit) {
            *bad = l;
            return -1;
        }
        int seen = 0;
        for (int i = 0; i < n && !seen; i++)
            seen = out[i] == t;
        if (!seen)
            out[n++] = t;
    }
    return n;
}

/* Opcode: wake.warp a   Synopsis: wake warp a (index in this CTA) of each active lane
 * Each distinct warp named by the active lanes gets one wake. */
static int h_wake_warp(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    struct emu_cta *c = w->cta;
    uint32_t t[WARP];
    int bad = 0, n = targets(SRC(0), m, c->nwarps, t, &bad);
    if (n < 0)
        return emu_fault(w, x, MX_EILLEGAL, bad, 0, 0, "wake.warp: warp %u does not exist (the block has %u warps)",
                         (uint32_t)SRC(0)[bad], c->nwarps);
    for (int i = 0; i < n; i++)
        emu_warp_wake(c->sm, &c->warps[t[i]]); /* same SM: at once, cannot fail */
    return EX_NEXT;
}

/* Opcode: wake.grid a   Synopsis: wake warp a (CTA index * warps per CTA + warp) of the grid, per active lane
 * Each distinct warp named by the active lanes gets one wake; one on
 * another SM takes effect at the quantum's end. */
static int h_wake_grid(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    struct emu_cta *c = w->cta;
    struct emu_grid *g = c->grid;
    uint64_t total = g->ncta * g->warps_per_cta;
    uint32_t t[WARP];
    int bad = 0, n = targets(SRC(0), m, total, t, &bad);
    if (n < 0)
        return emu_fault(w, x, MX_EILLEGAL, bad, 0, 0, "wake.grid: warp %u does not exist (the grid has %llu warps)",
                         (uint32_t)SRC(0)[bad], (unsigned long long)total);
    for (int i = 0; i < n; i++)
        if (emu_warp_wake_id(c->sm, g, t[i]))
            return emu_fault(w, x, MX_ENOMEM, -1, 0, 0, "out of host memory for pending wakes");
    return EX_NEXT;
}

static emu_fn bind_park(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_park; }
static emu_fn bind_wake_warp(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_wake_warp; }
static emu_fn bind_wake_grid(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_wake_grid; }

const struct emu_bind_row emu_bind_park[] = {
    { MX_OP_PARK, bind_park },
    { MX_OP_WAKE_WARP, bind_wake_warp },
    { MX_OP_WAKE_GRID, bind_wake_grid },
    EMU_BIND_END
};

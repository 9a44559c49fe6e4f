/* emu/barrier.c — CTA barriers: threads arrive (bar.sync, bar.arrive,
 * bar.red), a barrier releases when every live thread of the CTA (or the
 * count given) arrived, and the parked lanes of every warp waiting at it go
 * on; exiting threads no longer hold barriers up.  Lanes park in their SIMT
 * entry (interp.c), so one warp may wait at several barriers at once. */
#include "emu/emu-internal.h"
#include "emu/interp.h"

/* Releases the waiters of barriers b0..b1 - 1 where every expected thread
 * arrived.  Returns the number of warps woken. */
static int barrier_release(struct emu_cta *c, int b0, int b1)
{
    int woken = 0;
    for (int b = b0; b < b1; b++) {
        uint32_t expect = c->bar_expected[b] ? c->bar_expected[b] : c->live_threads;
        if (!c->bar_arrived[b] || c->bar_arrived[b] < expect)
            continue;
        uint32_t arrived = c->bar_arrived[b], votes = c->red_popc[b];
        c->bar_arrived[b] = 0;
        c->bar_expected[b] = 0;
        c->red_popc[b] = 0;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            struct emu_warp *w = &c->warps[i];
            uint32_t lanes = 0, f = 0;
            for (uint32_t j = 0; j < w->nsimt; j++)
                if (w->simt[j].wait == (uint32_t)b + 1) {
                    w->simt[j].wait = 0;
                    lanes |= w->simt[j].mask;
                    while (f + 1 < w->nframes && w->frames[f + 1].simt_base <= j)
                        f++; /* the frame the parked lanes belong to */
                }
            if (!lanes)
                continue;
            woken++;
            if (w->red_ref != REF_NONE && w->red_bar == (uint32_t)b) {
                uint32_t ref = w->red_ref & ~REF_NEG;
                lanes = w->red_mask;
                if (w->red_kind == MX_BAROP_POPC) {
                    for (int l = 0; l < WARP; l++)
                        if (lanes >> l & 1)
                            w->frames[f].regs[(size_t)ref * WARP + l] = votes;
                } else {
                    int r = w->red_kind == MX_BAROP_AND ? votes == arrived : votes != 0;
                    w->frames[f].preds[ref] = (w->frames[f].preds[ref] & ~lanes) | (r ? lanes : 0);
                }
                w->red_ref = REF_NONE;
            }
            if (w->state == WS_BARRIER)
                emu_simt_pick(w);
        }
    }
    return woken;
}

int emu_cta_barrier_arrive(struct emu_warp *w, uint32_t bar, uint32_t count, uint32_t threads)
{
    struct emu_cta *c = w->cta;
    if (bar >= 16)
        return -1;
    c->bar_arrived[bar] += threads;
    if (count)
        c->bar_expected[bar] = count;
    barrier_release(c, (int)bar, (int)bar + 1); /* (no other barrier changed) */
    return 0;
}

int emu_cta_barrier_red(struct emu_warp *w, uint32_t bar, uint32_t count, uint32_t threads, uint32_t kind,
                        uint32_t dref, uint32_t votes)
{
    w->red_ref = dref;
    w->red_kind = kind;
    w->red_mask = w->active;
    w->red_bar = bar;
    w->cta->red_popc[bar] += (uint32_t)__builtin_popcount(votes);
    return emu_cta_barrier_arrive(w, bar, count, threads);
}

void emu_cta_thread_exit(struct emu_warp *w, uint32_t nthreads)
{
    w->cta->live_threads -= nthreads;
    barrier_release(w->cta, 0, 16); /* every barrier counting live threads may be complete now */
}


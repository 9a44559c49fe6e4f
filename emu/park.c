/* emu/park.c — parked warps: a warp asleep (WS_PARKED) until something
 * wakes it, for the helper warps of cache-mode SMs and the park ISA
 * extension (ext/park.c).  Owns the pending-wake count, where a wake goes
 * (at once, or queued for the quantum's end when it crosses SMs during a
 * quantum) and the report of parked warps nothing can wake.  The scheduler
 * (sched.c) calls in here; nothing here calls the scheduler. */
#include "emu/emu-internal.h"

#include <stdio.h>

/* The clock of the SM's running instruction (as emu_fault dates faults):
 * the SM clock counts a warp's batch only when it ends. */
static uint64_t sm_now(const struct emu_sm *sm)
{
    return sm->clock + (sm->running ? sm->running->insns - sm->run_insns0 : 0);
}

int emu_warp_park(struct emu_warp *w)
{
    if (w->wakes) {
        w->wakes--; /* woken before it parked: go on */
        return 0;
    }
    emu_warp_state(w, WS_PARKED);
    w->park_pc = w->pc;
    return 1;
}

/* Applies a wake to w now: a parked warp is ready at `clock`, any other
 * keeps the wake for its next park (a finished one needs none). */
static void wake_now(struct emu_warp *w, uint64_t clock)
{
    if (w->state == WS_PARKED) {
        emu_warp_state(w, WS_READY);
        emu_warp_ready(w, clock);
    } else if (w->state != WS_DONE && w->wakes < UINT32_MAX) {
        w->wakes++;
    }
}

/* The resident CTA `id` of grid g on sm, or NULL. */
static struct emu_cta *cta_on(const struct emu_config *cfg, struct emu_sm *sm, const struct emu_grid *g, uint64_t id)
{
    for (uint32_t s = 0; s < cfg->max_ctas_per_sm; s++)
        if (sm->slots[s].grid == g && sm->slots[s].id == id)
            return &sm->slots[s];
    return NULL;
}

/* Whether CTA id of grid g was started already, by the block scheduler's
 * rule (sched.c, sm_fill): CTA id is the (id / N)-th dealt to SM
 * (first_sm + id) mod N, which has started dealt[that SM] of them. */
static int cta_started(const struct emu_device *d, const struct emu_grid *g, uint64_t id)
{
    uint32_t n = emu_compute_sms(&d->cfg);
    return g->dealt[(g->first_sm + id) % n] > id / n;
}

int emu_warp_wake(struct emu_sm *sm, struct emu_warp *w)
{
    struct emu_cta *c = w->cta;
    if (c->sm == sm || !sm->dev->in_quantum) {
        wake_now(w, sm_now(sm));
        return MX_OK;
    }
    struct emu_wait e = { .clock = sm_now(sm), .g = c->grid, .gwarp = c->id * c->grid->warps_per_cta + w->warp_id };
    return emu_wait_push(sm, e) ? MX_ENOMEM : MX_OK;
}

int emu_warp_wake_id(struct emu_sm *sm, struct emu_grid *g, uint64_t gwarp)
{
    struct emu_device *d = sm->dev;
    struct emu_cta *c = cta_on(&d->cfg, sm, g, gwarp / g->warps_per_cta);
    if (c) { /* on the waker's SM: at once */
        wake_now(&c->warps[gwarp % g->warps_per_cta], sm_now(sm));
        return MX_OK;
    }
    struct emu_wait e = { .clock = sm_now(sm), .sm = sm->id, .g = g, .gwarp = gwarp };
    if (d->in_quantum)
        return emu_wait_push(sm, e) ? MX_ENOMEM : MX_OK;
    return emu_wake_deliver(d, &e);
}

int emu_wake_deliver(struct emu_device *d, const struct emu_wait *e)
{
    const struct emu_grid *g = e->g;
    uint64_t id = e->gwarp / g->warps_per_cta;
    for (uint32_t i = 0; i < d->cfg.num_sms; i++) {
        struct emu_cta *c = cta_on(&d->cfg, &d->sms[i], g, id);
        if (c) {
            wake_now(&c->warps[e->gwarp % g->warps_per_cta], e->clock);
            return MX_OK;
        }
    }
    if (cta_started(d, g, id))
        return MX_OK; /* its CTA finished: nobody left to wake */
    /* its CTA has not started: the wake waits for it, as at the head of the
     * sender's next list (its clock is older than anything sent later) */
    return emu_wait_push(&d->sms[e->sm], *e) ? MX_ENOMEM : MX_OK;
}

/* Whether parked warp a comes before b in a report: earlier grid (launch
 * order), then lower CTA index, then lower warp index. */
static int report_before(const struct emu_device *d, const struct emu_warp *a, const struct emu_warp *b)
{
    if (!b)
        return 1;
    const struct emu_grid *ga = a->cta->grid, *gb = b->cta->grid;
    if (ga != gb) {
        for (const struct emu_grid *g = d->grids; g; g = g->next)
            if (g == ga || g == gb)
                return g == ga;
    }
    if (a->cta->id != b->cta->id)
        return a->cta->id < b->cta->id;
    return a->warp_id < b->warp_id;
}

int emu_parked_deadlock(struct emu_device *d)
{
    const struct emu_config *cfg = &d->cfg;
    /* cheap first: an SM that issued until the quantum's end may go on */
    for (uint32_t i = 0; i < cfg->num_sms; i++)
        if (d->sms[i].faulted || (d->sms[i].nws && !d->sms[i].idle))
            return 0;
    /* a grid that just finished lets the grids waiting for it start (before
     * the next quantum): their warps may wake the parked ones (the cache
     * controller wakes helper warps for other kernels' requests) */
    for (const struct emu_grid *g = d->grids; g; g = g->next)
        if (!g->finished && __atomic_load_n(&g->ctas_done, __ATOMIC_ACQUIRE) == g->ncta)
            return 0;
    struct emu_warp *first = NULL;
    for (uint32_t i = 0; i < cfg->num_sms; i++) {
        struct emu_sm *sm = &d->sms[i];
        for (uint32_t j = 0; j < sm->nws; j++) {
            struct emu_warp *w = sm->ws[j];
            if (w->cta->grid->helper)
                continue; /* helper warps sleep until the controller has work: never a deadlock */
            if (w->state == WS_READY || w->state == WS_WAIT_MEM)
                return 0;
            if (w->state == WS_PARKED && report_before(d, w, first))
                first = w;
        }
    }
    if (!first)
        return 0;
    /* the report: the first parked warp, then every stuck warp of its grid's
     * resident CTAs in CTA order */
    struct emu_cta *c = first->cta;
    const struct emu_grid *g = c->grid;
    const struct emu_kernel *k = g->k;
    uint32_t at = first->pc;
    first->pc = first->park_pc;
    emu_fault(first, &k->x[first->park_pc], MX_EDEADLOCK, -1, 0, 0,
              "deadlock: warp %u of block (%u,%u,%u) is parked at PTX line %u and nothing can wake it", first->warp_id,
              c->ctaid[0], c->ctaid[1], c->ctaid[2], k->prog->insns[first->park_pc].line);
    first->pc = at;
    struct emu_sm *fsm = c->sm;
    char *p = fsm->fault.detail;
    size_t n = 0, cap = sizeof fsm->fault.detail;
    uint64_t next = 0; /* CTAs below this index are listed */
    while (n + 160 < cap) {
        struct emu_cta *best = NULL;
        for (uint32_t i = 0; i < cfg->num_sms; i++)
            for (uint32_t s = 0; s < cfg->max_ctas_per_sm; s++) {
                struct emu_cta *x = &d->sms[i].slots[s];
                if (x->grid == g && x->live_warps && x->id >= next && (!best || x->id < best->id))
                    best = x;
            }
        if (!best)
            break;
        next = best->id + 1;
        n += (size_t)snprintf(p + n, cap - n, "%sblock (%u,%u,%u): ", n ? "; " : "", best->ctaid[0], best->ctaid[1],
                              best->ctaid[2]);
        emu_deadlock_detail(best, p + n, cap - n);
        n += strlen(p + n);
    }
    return 1;
}

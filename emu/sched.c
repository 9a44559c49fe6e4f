/* emu/sched.c — the execution layer: SMs as objects, the block scheduler,
 * the warp schedulers and the global clock.
 *
 * A launch becomes a grid on the device's list of active grids.  The block
 * scheduler deals its CTAs round-robin over the compute-mode SMs (CTA i of
 * a grid to the (i mod N)-th SM after the grid's first), and each SM starts
 * the next CTA dealt to it as soon as it has room (CTA slots, warps,
 * threads, registers, shared memory): a CTA keeps its slot until its last
 * warp is done.  An SM's decisions depend on its own state only, so SMs run
 * many CTAs per quantum with their slots hot in the host's caches.
 * Each SM schedules its resident warps (loose round-robin, or GTO) among
 * those ready at its clock; with no timing model an instruction is one
 * cycle, and a warp runs up to BATCH instructions per pick.
 *
 * The global clock advances in quanta of cfg.quantum cycles.  Within a
 * quantum an SM sees global memory as it was at the quantum's start plus
 * its own stores (overlay.c), so SMs run on any host thread in any order;
 * what crosses SMs waits for the quantum's end and is applied there in a
 * fixed order: the SMs' stores (in SM order), requests that complete later
 * (global atomics, strong loads, host calls, EX_WAIT) by (SM clock, SM,
 * issue order), and faults (the earliest wins).  So results and statistics
 * are the same for every number of host threads.  A memory interface
 * (emu_config.memif) may delay plain accesses: the SM completes those
 * itself when its clock gets there (complete_locals). */
#include "emu/emu-internal.h"
#include "emu/interp.h"
#include "emu/access.h"

#include <fenv.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define BATCH 4096 /* warp instructions a warp runs per pick */

/* the timing API names the units it prices by enum mx_unit's numbers */
_Static_assert(TM_UNIT_LDST == MX_UNIT_LDST && TM_UNIT_CTRL == MX_UNIT_CTRL && TM_UNITS == MX_UNIT_TENSOR + 1,
               "include/mx/timing.h's unit numbers are enum mx_unit's");

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* --------------------------------------------------------- warp schedulers */

/* The warp sm issues next: GTO or loose round-robin over the ready warps.
 * When none can issue now, *soon_at is the earliest ready time among them
 * (UINT64_MAX: none) and *soon the warp this pick would choose at that
 * clock if nothing else changed meanwhile (sm_run skips the clock there
 * without a second scan); a pick that finds one leaves both alone. */
static struct emu_warp *sm_pick(const struct emu_config *cfg, struct emu_sm *sm, uint64_t *soon_at,
                                struct emu_warp **soon)
{
    uint32_t n = sm->nws;
    uint64_t tmin = UINT64_MAX;
    struct emu_warp *next = NULL;
    if (cfg->sched_policy == EMU_SCHED_GTO) {
        /* greedy: the last warp while it can issue, else the oldest ready one (a pick that finds none
         * forgets the greedy warp: the next pick takes the oldest, so `next` is the oldest of the
         * earliest) */
        struct emu_warp *g = sm->greedy;
        if (g && g->state == WS_READY && g->ready_at <= sm->clock)
            return g;
        /* one pass, without branches on the data: the least (0 if it can issue now, else its ready
         * time; then its age) */
        const uint64_t *rat = sm->rat, *age = sm->wage, clock = sm->clock;
        uint64_t k1 = UINT64_MAX, k2 = UINT64_MAX;
        uint32_t bi = UINT32_MAX;
        for (uint32_t j = 0; j < (n + 63) / 64; j++)
            for (uint64_t m = sm->ready[j]; m; m &= m - 1) {
                uint32_t i = j * 64 + (uint32_t)__builtin_ctzll(m);
                uint64_t a = rat[i] <= clock ? 0 : rat[i], b = age[i];
                int lt = a < k1 || (a == k1 && b < k2);
                k1 = lt ? a : k1;
                k2 = lt ? b : k2;
                bi = lt ? i : bi;
            }
        struct emu_warp *best = bi != UINT32_MAX && k1 == 0 ? sm->ws[bi] : NULL;
        if (!best) {
            tmin = k1;
            next = bi == UINT32_MAX ? NULL : sm->ws[bi];
        }
        sm->greedy = best;
        if (!best) {
            *soon_at = tmin;
            *soon = next;
        }
        return best;
    }
    /* loose round-robin: the next ready warp after the last one issued
     * (the ready bitmap's set bits from rr + 1 on, then from 0) */
    *soon_at = UINT64_MAX;
    *soon = NULL;
    if (!n)
        return NULL;
    uint32_t start = sm->rr + 1 >= n ? 0 : sm->rr + 1, ni = UINT32_MAX;
    if (sm->ready[start >> 6] >> (start & 63) & 1 && sm->rat[start] <= sm->clock) {
        sm->rr = start; /* the next in turn can issue (the rule when most warps can) */
        return sm->ws[start];
    }
    for (int pass = 0; pass < 2; pass++) {
        uint32_t lo = pass ? 0 : start, hi = pass ? start : n;
        for (uint32_t j = lo / 64; j * 64 < hi; j++) {
            uint64_t m = sm->ready[j];
            if (j == lo / 64)
                m &= ~0ull << (lo & 63);
            if (hi - j * 64 < 64)
                m &= (1ull << (hi - j * 64)) - 1;
            /* the word's warps that can issue now, and the first of the earliest of the rest in
             * round-robin order, without branches on the data */
            uint64_t can = 0;
            for (; m; m &= m - 1) {
                uint32_t b = (uint32_t)__builtin_ctzll(m), i = j * 64 + b;
                uint64_t r = sm->rat[i];
                can |= (uint64_t)(r <= sm->clock) << b;
                ni = r < tmin ? i : ni;
                tmin = r < tmin ? r : tmin;
            }
            if (can) {
                uint32_t i = j * 64 + (uint32_t)__builtin_ctzll(can);
                sm->rr = i;
                return sm->ws[i];
            }
        }
    }
    *soon_at = tmin;
    *soon = ni == UINT32_MAX ? NULL : sm->ws[ni];
    return NULL;
}

/* What a pick at the clock *soon_at would do for warp w (sm_pick's *soon). */
static void sm_picked(const struct emu_config *cfg, struct emu_sm *sm, struct emu_warp *w)
{
    if (cfg->sched_policy == EMU_SCHED_GTO)
        sm->greedy = w;
    else
        sm->rr = w->ws_idx;
}

/* Completes, in (clock, issue) order, the requests of sm that the memory
 * interface delayed and whose time has come (SM clock reached). */
static void complete_locals(struct emu_sm *sm)
{
    while (sm->nlocals && !sm->faulted) {
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < sm->nlocals; i++) {
            const struct emu_wait *e = &sm->locals[i];
            if (e->clock <= sm->clock && (best == UINT32_MAX || e->clock < sm->locals[best].clock ||
                                          (e->clock == sm->locals[best].clock && e->seq < sm->locals[best].seq)))
                best = i;
        }
        if (best == UINT32_MAX)
            return;
        struct emu_wait e = sm->locals[best];
        sm->locals[best] = sm->locals[--sm->nlocals];
        uint64_t now = sm->clock;
        sm->clock = e.clock; /* a fault it raises is dated when it completed */
        emu_warp_complete(e.w);
        sm->clock = now;
        emu_warp_ready(e.w, e.clock);
    }
}

/* The instruction w just executed, to the timing model: w may issue again
 * when the model says (a memory wait sets its own time).  first: it was the
 * warp's first; r: its handler's result (EX_WAIT: the warp waits for a
 * request, so its next instruction is not in view). */
static void timed_issue(const struct emu_config *cfg, struct emu_sm *sm, struct emu_warp *w,
                        const struct emu_xinsn *x, uint64_t clock, int first, int r)
{
    const struct tm_ops *tm = cfg->timing;
    if (!x || !tm->issue || !(tm->events & TM_EV_ISSUE))
        return;
    const struct emu_kernel *k = w->k;
    uint32_t pc = (uint32_t)(x - k->x);
    int goes_on = r != EX_WAIT && w->state == WS_READY && w->pc < k->prog->ninsns;
    struct tm_issue ev = { .sm = sm->id, .cta = (uint32_t)w->cta->id, .warp = w->warp_id,
                           .pc = pc, .op = (uint16_t)x->in->op, .unit = x->unit,
                           .shared = x->space == SP_SHARED, .active = w->active, .clock = clock,
                           .wslot = (uint32_t)(w->cta - sm->slots) * 32 + w->warp_id, .first = (uint8_t)first,
                           .def = k->deps[pc][0], .use_next = goes_on ? k->deps[w->pc][1] : 0,
                           .nsrc = k->srcs[pc].n, .src = k->srcs[pc].r };
    uint32_t lat = tm->issue(cfg->timing_state, &ev);
    if (w->state == WS_READY)
        emu_warp_ready(w, w->tm_ready = clock + (lat ? lat : 1));
}

/* At a quantum's end (one thread, no SM running): the warps held on the model's last issue() answer, asked
 * again (tm_ops.rewake, v10) in SM and slot order; a hold set since by anything else stays. */
static void rewake_held(struct emu_device *d, uint64_t t_end)
{
    const struct tm_ops *tm = d->cfg.timing;
    for (uint32_t i = 0; i < d->cfg.num_sms; i++) {
        struct emu_sm *sm = &d->sms[i];
        for (uint32_t s = 0; s < d->cfg.max_ctas_per_sm; s++) {
            struct emu_cta *c = &sm->slots[s];
            for (uint32_t j = 0; c->grid && j < c->nwarps; j++) {
                struct emu_warp *w = &c->warps[j];
                if (w->state != WS_READY || w->ready_at <= t_end || w->ready_at != w->tm_ready)
                    continue;
                uint64_t r = tm->rewake(d->cfg.timing_state, sm->id, s * 32 + w->warp_id, w->ready_at, t_end);
                emu_warp_ready(w, w->tm_ready = r > t_end ? r : t_end);
            }
        }
    }
}

/* The earliest completion among sm's delayed requests (UINT64_MAX: none). */
static uint64_t next_local(const struct emu_sm *sm)
{
    uint64_t t = UINT64_MAX;
    for (uint32_t i = 0; i < sm->nlocals; i++)
        t = sm->locals[i].clock < t ? sm->locals[i].clock : t;
    return t;
}

static void cta_retire(struct emu_cta *c);
static int sm_fill(struct emu_sm *sm);

/* The report of a CTA that could not start on sm (out of host memory). */
static void start_failed(struct emu_fault *f, const struct emu_sm *sm, int rc)
{
    memset(f, 0, sizeof *f);
    f->status = rc;
    f->lane = -1;
    snprintf(f->message, sizeof f->message, "cannot start a block on SM %u: %s", sm->id, mx_strstatus(rc));
}
static void sm_rebuild(const struct emu_config *cfg, struct emu_sm *sm);
static int warp_begin(struct emu_sm *sm, struct emu_warp *w);
static void warp_give_back(struct emu_sm *sm, struct emu_warp *w);

/* A warp or block of sm could not start: the SM's fault, blaming no grid. */
static void sm_start_failed(struct emu_sm *sm, int rc)
{
    if (sm->faulted)
        return;
    sm->faulted = 1;
    sm->fault_clock = sm->clock;
    sm->fault_grid = NULL;
    start_failed(&sm->fault, sm, rc);
}

/* Runs SM sm until its clock reaches t_end or none of its warps can issue. */
static void sm_run(const struct emu_config *cfg, struct emu_sm *sm, uint64_t t_end)
{
    /* warp instructions of grid ig not yet added to its count (read at the
     * quantum's end only): one atomic per grid and call, not per pick */
    struct emu_grid *ig = NULL;
    uint64_t issued = 0;
    sm->idle = 0;
    while (sm->clock < t_end && !sm->faulted) {
        if (__builtin_expect(sm->nlocals != 0, 0))
            complete_locals(sm);
        uint64_t soon_at = UINT64_MAX;
        struct emu_warp *soon = NULL, *w = sm_pick(cfg, sm, &soon_at, &soon);
        if (!w) {
            uint64_t tl = sm->nlocals ? next_local(sm) : UINT64_MAX, t = tl;
            if (cfg->timing) { /* the next cycle a warp may issue in */
                t = soon_at < t ? soon_at : t;
                sm->issued_now = 0;
            }
            if (t >= t_end || sm->faulted) {
                sm->idle = 1;
                break;
            }
            /* nothing to issue until a warp's ready time or a delayed request's completion */
            sm->clock = t > sm->clock ? t : sm->clock;
            if (!cfg->timing || !soon || soon_at != sm->clock || tl <= sm->clock)
                continue;
            w = soon; /* no request completes first: the pick there would take it */
            sm_picked(cfg, sm, w);
        }
        if (__builtin_expect(!w->nframes, 0)) { /* its first issue */
            int rc = warp_begin(sm, w);
            if (rc) {
                sm_start_failed(sm, rc);
                break;
            }
        }
        uint64_t budget = t_end - sm->clock, before = w->insns;
        sm->running = w;
        sm->run_insns0 = before;
        int r;
        uint64_t ran;
        if (cfg->timing) {
            /* one instruction, issued at the SM's clock (its requests and faults are dated so); the SM
             * issues issue_width per cycle, the warp again when the model says */
            const struct emu_xinsn *x;
            uint64_t at = sm->clock;
            sm->run_insns0 = before + 1;
            r = emu_warp_step(w, &x);
            sm->running = NULL;
            ran = w->insns - before;
            if (++sm->issued_now >= cfg->issue_width) {
                sm->clock++;
                sm->issued_now = 0;
            }
            if (r != EX_FAULT)
                timed_issue(cfg, sm, w, x, at, before == 0, r);
        } else {
            r = emu_warp_run(w, (uint32_t)(budget < BATCH ? budget : BATCH));
            sm->running = NULL;
            ran = w->insns - before;
            sm->clock += ran ? ran : 1;
        }
        if (w->cta->grid != ig) {
            if (ig)
                __atomic_add_fetch(&ig->issued, issued, __ATOMIC_RELAXED);
            ig = w->cta->grid;
            issued = 0;
        }
        issued += ran;
        if (r == EX_WAIT) {
            emu_warp_state(w, WS_WAIT_MEM);
            int e = w->wait_local
                        ? emu_wait_append(&sm->locals, &sm->nlocals, &sm->locals_cap,
                                          (struct emu_wait){ .w = w, .clock = w->wait_until, .sm = sm->id, .seq = sm->seq++ })
                        : emu_wait_push(sm, (struct emu_wait){ .w = w, .clock = w->wait_until > sm->clock ? w->wait_until
                                                                                                        : sm->clock });
            w->wait_local = 0;
            w->wait_until = 0;
            if (e)
                emu_fault(w, &w->k->x[w->pc], MX_ENOMEM, -1, 0, 0, "out of host memory for pending requests");
        } else if (r == EX_FAULT) {
            break;
        } else if (w->state == WS_DONE) {
            warp_give_back(sm, w); /* hot buffers for the next warp that starts */
            if (--w->cta->live_warps == 0) {
                /* the CTA is done: its slot takes the next CTA dealt to this SM */
                cta_retire(w->cta);
                int rc = sm_fill(sm);
                sm_rebuild(cfg, sm);
                if (rc)
                    sm_start_failed(sm, rc);
            }
        }
    }
    if (ig)
        __atomic_add_fetch(&ig->issued, issued, __ATOMIC_RELAXED);
    if (sm->clock < t_end)
        sm->clock = t_end; /* idle for the rest of the quantum */
}

/* ------------------------------------------------------ host worker threads
 * host_threads - 1 workers and the launching thread share the SMs of each
 * quantum; they meet at the quantum's end. */
struct pool {
    pthread_t *th;
    uint32_t n;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    uint64_t gen;
    uint32_t busy;
    int stop;
    struct emu_device *dev;
    uint32_t next_sm;
    uint64_t t_end;
};

static void run_share(struct pool *p)
{
    struct emu_device *d = p->dev;
    for (;;) {
        uint32_t i = __atomic_fetch_add(&p->next_sm, 1, __ATOMIC_RELAXED);
        if (i >= d->cfg.num_sms)
            break;
        if (d->sms[i].nws)
            sm_run(&d->cfg, &d->sms[i], p->t_end);
    }
}

static void *worker(void *arg)
{
    struct pool *p = arg;
    /* Handlers assume round-to-nearest without flush-to-zero. */
    fesetenv(FE_DFL_ENV);
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->gen == seen && !p->stop)
            pthread_cond_wait(&p->go, &p->mu);
        if (p->stop)
            break;
        seen = p->gen;
        pthread_mutex_unlock(&p->mu);
        run_share(p);
        pthread_mutex_lock(&p->mu);
        if (--p->busy == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void run_quantum(struct emu_device *d, uint64_t t_end)
{
    struct pool *p = d->pool;
    d->in_quantum = 1; /* (seen by the workers: set before they are woken, cleared after they met) */
    if (!p) {
        for (uint32_t i = 0; i < d->cfg.num_sms; i++)
            if (d->sms[i].nws)
                sm_run(&d->cfg, &d->sms[i], t_end);
        d->in_quantum = 0;
        return;
    }
    p->t_end = t_end;
    p->next_sm = 0;
    pthread_mutex_lock(&p->mu);
    p->busy = p->n;
    p->gen++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    run_share(p);
    pthread_mutex_lock(&p->mu);
    while (p->busy)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    d->in_quantum = 0;
}

static void pool_stop(struct pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (uint32_t i = 0; i < p->n; i++)
        pthread_join(p->th[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    free(p->th);
    free(p);
}

static struct pool *pool_start(struct emu_device *d, uint32_t nthreads)
{
    struct pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->dev = d;
    p->th = calloc(nthreads, sizeof *p->th);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    if (p->th)
        for (; p->n < nthreads; p->n++)
            if (pthread_create(&p->th[p->n], NULL, worker, p))
                break;
    if (!p->n) {
        pool_stop(p);
        return NULL; /* run on the launching thread alone */
    }
    return p;
}

static int cdp_launch_check(struct emu_device *d, struct emu_module *m, const struct emu_launch *l,
                            struct emu_fault *fault);

int emu_sched_init(struct emu_device *d)
{
    d->launch_check = cdp_launch_check;
    d->sms = calloc(d->cfg.num_sms, sizeof *d->sms);
    if (!d->sms)
        return MX_ENOMEM;
    for (uint32_t i = 0; i < d->cfg.num_sms; i++) {
        struct emu_sm *sm = &d->sms[i];
        sm->dev = d;
        sm->id = i;
        sm->mode = i < emu_compute_sms(&d->cfg) ? EMU_SM_COMPUTE : EMU_SM_CACHE;
        memset(sm->last_alloc, 0xff, sizeof sm->last_alloc);
        sm->slots = calloc(d->cfg.max_ctas_per_sm, sizeof *sm->slots);
        sm->ws = calloc(d->cfg.max_warps_per_sm, sizeof *sm->ws);
        sm->ready = calloc((d->cfg.max_warps_per_sm + 63) / 64, sizeof *sm->ready);
        sm->rat = calloc(d->cfg.max_warps_per_sm, sizeof *sm->rat);
        sm->wage = calloc(d->cfg.max_warps_per_sm, sizeof *sm->wage);
        sm->spare = calloc(d->cfg.max_warps_per_sm, sizeof *sm->spare);
        if (!sm->slots || !sm->ws || !sm->spare || !sm->ready || !sm->rat || !sm->wage)
            return MX_ENOMEM;
        for (uint32_t s = 0; s < d->cfg.max_ctas_per_sm; s++)
            sm->slots[s].sm = sm;
    }
    if (d->cfg.host_threads > 1)
        d->pool = pool_start(d, d->cfg.host_threads - 1);
    return MX_OK;
}

/* A warp's local memory.  From LOCAL_MMAP_MIN bytes on, anonymous pages,
 * zero until a thread stores to them, so a large frame costs host memory
 * only where it is used; smaller ones (nvcc's usual spill depots) come
 * from calloc, cheaper for short launches.  The dirty-page bitmap comes
 * with it.  0, or MX_ENOMEM with nothing held. */
#define LOCAL_MMAP_MIN (256u << 10)
static int local_map(struct emu_warp *w, uint64_t bytes)
{
    uint64_t words = ((bytes >> LOCAL_PAGE_SHIFT) + 64) / 64;
    void *p = bytes < LOCAL_MMAP_MIN ? calloc(1, bytes)
                                     : mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        p = NULL;
    w->local_pages = calloc(words, sizeof *w->local_pages);
    if (!p || !w->local_pages) {
        if (p && bytes < LOCAL_MMAP_MIN)
            free(p);
        else if (p)
            munmap(p, bytes);
        free(w->local_pages);
        w->local_pages = NULL;
        return MX_ENOMEM;
    }
    w->local = p;
    w->local_cap = bytes;
    return MX_OK;
}

static void local_unmap(struct emu_warp *w)
{
    if (w->local && w->local_cap < LOCAL_MMAP_MIN)
        free(w->local);
    else if (w->local)
        munmap(w->local, w->local_cap);
    free(w->local_pages);
    w->local = NULL;
    w->local_pages = NULL;
    w->local_cap = 0;
}

/* Zeroes the pages of local memory the warp stored to. */
static void local_clean(struct emu_warp *w)
{
    if (!w->local)
        return;
    uint64_t words = ((w->local_cap >> LOCAL_PAGE_SHIFT) + 64) / 64;
    for (uint64_t i = 0; i < words; i++)
        for (uint64_t bits = w->local_pages[i]; bits; bits &= bits - 1) {
            uint64_t off = (i * 64 + (uint64_t)__builtin_ctzll(bits)) << LOCAL_PAGE_SHIFT;
            uint64_t n = w->local_cap - off < (1u << LOCAL_PAGE_SHIFT) ? w->local_cap - off : (1u << LOCAL_PAGE_SHIFT);
            memset(w->local + off, 0, n);
        }
    memset(w->local_pages, 0, words * sizeof *w->local_pages);
}

/* Frees the buffers a warp holds (frames beyond the first included). */
static void warp_free_bufs(struct emu_warp *w)
{
    for (uint32_t i = 0; i < w->frames_cap; i++) /* every frame ever used keeps buffers */
        emu_frame_release(&w->frames[i]);
    free(w->frames);
    free(w->simt);
    local_unmap(w);
    w->frames = NULL;
    w->simt = NULL;
    w->frames_cap = w->simt_cap = 0;
}

/* ------------------------------------------------- buffers lent to warps
 * A warp gets its frames (register files), SIMT stack and local memory at
 * its first issue, from its SM's spares, and gives them back when it is
 * done.  A warp that runs to its end in one pick hands them, hot in the
 * host's caches, to the next warp that starts; and host memory follows the
 * warps that started and have not finished, not the resident ones.  The
 * spares are the SM's own, so what a warp finds there (register contents
 * are not cleared: valid PTX writes a register before reading it) does not
 * depend on host threads.  Local memory is zero whenever it is lent. */

/* Moves w's buffers into b; w then holds none (and has no frame). */
static void wbufs_take(struct emu_warp *w, struct emu_wbufs *b)
{
    *b = (struct emu_wbufs){ w->frames, w->frames_cap, w->simt_cap, w->simt, w->local, w->local_cap, w->local_pages };
    w->frames = NULL;
    w->simt = NULL;
    w->frames_cap = w->simt_cap = 0;
    w->local = NULL;
    w->local_cap = 0;
    w->local_pages = NULL;
    w->nframes = w->nsimt = 0;
    w->regs = NULL;
    w->preds = NULL;
}

static void wbufs_give(struct emu_warp *w, const struct emu_wbufs *b)
{
    w->frames = b->frames;
    w->frames_cap = b->frames_cap;
    w->simt = b->simt;
    w->simt_cap = b->simt_cap;
    w->local = b->local;
    w->local_cap = b->local_cap;
    w->local_pages = b->local_pages;
}

/* Whether b holds a register file of `regs` bytes for frame 0 and `local`
 * bytes of local memory. */
static int wbufs_fit(const struct emu_wbufs *b, size_t regs, uint64_t local)
{
    return b->frames && b->frames[0].regs_cap >= regs && b->local_cap >= local;
}

/* The SM takes back the buffers of a warp that is done (or whose CTA
 * retired before), its local memory zeroed. */
static void warp_give_back(struct emu_sm *sm, struct emu_warp *w)
{
    if (!w->frames && !w->simt && !w->local)
        return;
    local_clean(w);
    if (sm->nspare < sm->dev->cfg.max_warps_per_sm) /* always: one set per warp that ran at once */
        wbufs_take(w, &sm->spare[sm->nspare++]);
    else {
        warp_free_bufs(w);
        wbufs_take(w, &(struct emu_wbufs){ 0 });
    }
}

/* Frees everything a warp allocated. */
static void warp_release(struct emu_warp *w)
{
    warp_free_bufs(w);
    memset(w, 0, sizeof *w);
}

static void cdp_discard(struct emu_grid *g);

static void grid_free(struct emu_grid *g)
{
    if (!g)
        return;
    cdp_discard(g);
    free(g->dealt);
    free(g->params);
    free(g);
}

void emu_sched_fini(struct emu_device *d)
{
    if (d->pool)
        pool_stop(d->pool);
    d->pool = NULL;
    if (!d->sms)
        return;
    for (uint32_t i = 0; i < d->cfg.num_sms; i++) {
        struct emu_sm *sm = &d->sms[i];
        for (uint32_t s = 0; sm->slots && s < d->cfg.max_ctas_per_sm; s++) {
            struct emu_cta *c = &sm->slots[s];
            for (uint32_t j = 0; j < c->warps_cap; j++)
                warp_release(&c->warps[j]);
            free(c->warps);
            free(c->shared);
        }
        for (uint32_t j = 0; j < sm->nspare; j++) {
            struct emu_warp t = { 0 };
            wbufs_give(&t, &sm->spare[j]);
            warp_release(&t);
        }
        free(sm->spare);
        free(sm->slots);
        free(sm->ws);
        free(sm->ready);
        free(sm->rat);
        free(sm->wage);
        free(sm->waits);
        free(sm->locals);
        free(sm->preq);
        free(sm->preq_busy);
        emu_ov_fini(&sm->ov);
    }
    grid_free(d->helper);
    d->helper = NULL;
    free(d->port);
    d->port = NULL;
    free(d->sms);
    d->sms = NULL;
}

/* ----------------------------------------------------------- block scheduler */

uint32_t emu_func_regs(const struct emu_config *c, const struct mx_program *prog, const struct mx_func *e)
{
    int live = c->reg_alloc == EMU_REGS_LIVE;
    uint32_t r = live && e->live_regs ? e->live_regs : e->nregs;
    /* a kernel that calls: its device functions' registers too (the most any of them needs; ptxas
     * allocates for the whole call tree) */
    for (uint32_t i = e->first; i < e->first + e->ninsns; i++)
        if (prog->insns[i].op == MX_OP_CALL) {
            for (uint32_t fi = 0; fi < prog->nfuncs; fi++) {
                const struct mx_func *f = &prog->funcs[fi];
                uint32_t n = live && f->live_regs ? f->live_regs : f->nregs;
                if (!(f->flags & (MX_FUNCF_ENTRY | MX_FUNCF_DECL)) && n > r)
                    r = n;
            }
            break;
        }
    r = r ? r : 1;
    return r < c->max_regs_per_thread ? r : c->max_regs_per_thread;
}

uint64_t emu_cta_regs(const struct emu_config *c, const struct mx_program *prog, const struct mx_func *e,
                      uint32_t warps)
{
    uint64_t per_warp = ((uint64_t)emu_func_regs(c, prog, e) * 32 + 255) / 256 * 256;
    uint64_t fit = warps ? c->regs_per_sm / warps : per_warp; /* ptxas would spill to fit one CTA */
    return (per_warp < fit ? per_warp : fit) * warps;
}

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
    /* a block must fit one SM, or it never starts ("too many resources requested for launch") */
    else if ((threads + WARP - 1) / WARP > c->max_warps_per_sm || threads > c->max_threads_per_sm)
        snprintf(buf, sizeof buf, "a block of %llu threads does not fit an SM (%u warps, %u threads)",
                 (unsigned long long)threads, c->max_warps_per_sm, c->max_threads_per_sm), why = buf;
    else if ((uint64_t)k->shared_static + l->dyn_smem > c->shared_per_sm)
        snprintf(buf, sizeof buf, "%llu bytes of shared memory per block do not fit an SM's %u",
                 (unsigned long long)k->shared_static + l->dyn_smem, c->shared_per_sm), why = buf;
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
    /* only the rows the kernel reads: a CTA's start touches little memory */
    if (!w->k->nsregs)
        return; /* (a kernel without registers has no register file at all) */
    uint64_t *r = w->regs + (size_t)nregs * WARP;
    const struct emu_config *cfg = &c->grid->dev->cfg;
    /* thread coordinates of lane 0 (no division in a warp of a block's
     * first row); the lanes count up along x, and only a warp that crosses
     * a row of the block needs them lane by lane */
    uint32_t t0 = w->warp_id * WARP, bx = l->block[0], by = l->block[1];
    uint32_t x0 = t0, y0 = 0, z0 = 0;
    if (t0 >= bx)
        x0 = t0 % bx, y0 = (t0 / bx) % by, z0 = t0 / (bx * by);
    int cross = x0 + WARP > bx;
    uint32_t tx[WARP], ty[WARP], tz[WARP];
    if (cross)
        for (uint32_t lane = 0, x = x0, y = y0, z = z0; lane < WARP; lane++) {
            tx[lane] = x, ty[lane] = y, tz[lane] = z;
            if (++x == bx && (x = 0, ++y == by))
                y = 0, z++;
        }
#define ROW(expr) for (uint32_t lane = 0; lane < WARP; lane++) row[lane] = (expr); break
    for (uint32_t i = 0; i < w->k->nsregs; i++) {
        uint64_t *row = r + (size_t)i * WARP;
        switch (w->k->sreg_list[i]) {
        case SS_TID_X: ROW(cross ? tx[lane] : x0 + lane);
        case SS_TID_Y: ROW(cross ? ty[lane] : y0);
        case SS_TID_Z: ROW(cross ? tz[lane] : z0);
        case SS_NTID_X: ROW(l->block[0]);
        case SS_NTID_Y: ROW(l->block[1]);
        case SS_NTID_Z: ROW(l->block[2]);
        case SS_CTAID_X: ROW(c->ctaid[0]);
        case SS_CTAID_Y: ROW(c->ctaid[1]);
        case SS_CTAID_Z: ROW(c->ctaid[2]);
        case SS_NCTAID_X: ROW(l->grid[0]);
        case SS_NCTAID_Y: ROW(l->grid[1]);
        case SS_NCTAID_Z: ROW(l->grid[2]);
        case SS_LANEID: ROW(lane);
        case SS_WARPID: ROW(w->warp_id);
        case SS_NWARPID: ROW(cfg->max_warps_per_sm);
        case SS_SMID: ROW(c->sm->id);
        case SS_NSMID: ROW(cfg->num_sms);
        case SS_GRIDID: ROW(1);
        case SS_LANEMASK_EQ: ROW(1u << lane);
        case SS_LANEMASK_LE: ROW((uint32_t)((2ull << lane) - 1));
        case SS_LANEMASK_LT: ROW((1u << lane) - 1);
        case SS_LANEMASK_GE: ROW(~((1u << lane) - 1));
        case SS_LANEMASK_GT: ROW((uint32_t)~((2ull << lane) - 1));
        case SS_DYN_SMEM: ROW(l->dyn_smem);
        case SS_TOTAL_SMEM: ROW(c->shared_size);
        case SS_ENVREG1: ROW(l->grid_workspace >> 32);
        case SS_ENVREG2: ROW((uint32_t)l->grid_workspace);
        case SS_ONE: ROW(1);
        case SS_STACK: ROW(w->local_size);
        default: ROW(0); /* SS_ZERO */
        }
    }
#undef ROW
}

static int sm_fits(const struct emu_config *c, const struct emu_sm *sm, const struct emu_grid *g)
{
    return sm->mode == EMU_SM_COMPUTE && sm->ctas_used < c->max_ctas_per_sm &&
           sm->warps_used + g->warps_per_cta <= c->max_warps_per_sm &&
           sm->threads_used + g->threads_per_cta <= c->max_threads_per_sm &&
           sm->regs_used + g->regs_per_cta <= c->regs_per_sm && sm->shared_used + g->shared_per_cta <= c->shared_per_sm;
}

/* The resident warps of an SM in slot order: the schedulers' view. */
static void sm_rebuild(const struct emu_config *cfg, struct emu_sm *sm)
{
    sm->nws = 0;
    memset(sm->ready, 0, (cfg->max_warps_per_sm + 63) / 64 * sizeof *sm->ready);
    for (uint32_t s = 0; s < cfg->max_ctas_per_sm; s++) {
        struct emu_cta *c = &sm->slots[s];
        if (c->grid)
            for (uint32_t i = 0; i < c->nwarps; i++) {
                struct emu_warp *w = &c->warps[i];
                w->ws_idx = sm->nws;
                if (w->state == WS_READY)
                    sm->ready[sm->nws >> 6] |= 1ull << (sm->nws & 63);
                sm->rat[sm->nws] = w->ready_at;
                sm->wage[sm->nws] = w->age;
                sm->ws[sm->nws++] = w;
            }
    }
    sm->rr = sm->nws ? sm->nws - 1 : 0; /* the next pick starts at the first warp */
    sm->greedy = NULL;
}

/* Starts CTA number id of grid g in a free slot of sm. */
static int cta_start(struct emu_grid *g, struct emu_sm *sm, uint64_t id)
{
    struct emu_device *d = g->dev;
    const struct emu_config *cfg = &d->cfg;
    struct emu_kernel *k = g->k;
    const struct emu_launch *l = &g->l;
    const struct mx_func *e = &k->prog->funcs[k->entry];
    struct emu_cta *c = NULL;
    for (uint32_t s = 0; s < cfg->max_ctas_per_sm && !c; s++)
        if (!sm->slots[s].grid)
            c = &sm->slots[s];
    if (!c)
        return MX_ELIMIT;
    c->id = id;
    c->ctaid[0] = (uint32_t)(id % l->grid[0]);
    c->ctaid[1] = (uint32_t)((id / l->grid[0]) % l->grid[1]);
    c->ctaid[2] = (uint32_t)(id / ((uint64_t)l->grid[0] * l->grid[1]));
    c->nthreads = g->threads_per_cta;
    c->live_threads = c->nthreads;
    c->nwarps = g->warps_per_cta;
    c->live_warps = c->nwarps;
    memset(c->bar_arrived, 0, sizeof c->bar_arrived);
    memset(c->bar_expected, 0, sizeof c->bar_expected);
    memset(c->red_popc, 0, sizeof c->red_popc);
    c->shared_size = g->shared_per_cta;
    if (c->shared_size > c->shared_cap) {
        free(c->shared);
        c->shared = malloc(c->shared_size);
        c->shared_cap = c->shared ? c->shared_size : 0;
        if (!c->shared)
            return MX_ENOMEM;
    }
    if (c->shared_size)
        memset(c->shared, 0, c->shared_size);
    if (c->warps_cap < c->nwarps) {
        struct emu_warp *pw = realloc(c->warps, c->nwarps * sizeof *pw);
        if (!pw)
            return MX_ENOMEM;
        memset(pw + c->warps_cap, 0, (c->nwarps - c->warps_cap) * sizeof *pw);
        c->warps = pw;
        c->warps_cap = c->nwarps;
    }
    c->grid = g;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        struct emu_warp *w = &c->warps[i];
        memset(w, 0, sizeof *w); /* (it holds no buffers: they went back to the SM) */
        w->cta = c;
        w->k = k;
        w->dev = d;
        w->warp_id = i;
        w->age = sm->next_age++;
        w->consts = (const uint64_t(*)[WARP])k->consts;
        w->nthreads = c->nthreads - i * WARP < WARP ? c->nthreads - i * WARP : WARP;
        w->rd_key[0] = w->rd_key[1] = w->wr_key[0] = w->wr_key[1] = ~0ull;
        w->red_ref = REF_NONE;
        memcpy(w->last_alloc, sm->last_alloc, sizeof w->last_alloc);
        w->local_size = k->max_local;
        if ((k->calls || k->sreg_row[SS_STACK]) && w->local_size < d->cfg.local_per_thread)
            /* the stack cudaLimitStackSize sets, now (calls, or code that places its frames itself) */
            w->local_size = d->cfg.local_per_thread < EMU_LOCAL_MAX ? d->cfg.local_per_thread : EMU_LOCAL_MAX;
        /* ready, at the kernel's first instruction; buffers, frame 0 and
         * special registers come at its first issue (warp_begin) */
        emu_warp_state(w, WS_READY);
        w->active = w->nthreads == WARP ? FULL_MASK : (1u << w->nthreads) - 1;
        w->pc = e->first;
        w->fend = e->first + e->ninsns;
        emu_warp_ready(w, sm->clock);
    }
    sm->ctas_used++;
    sm->warps_used += g->warps_per_cta;
    sm->threads_used += g->threads_per_cta;
    sm->regs_used += g->regs_per_cta;
    sm->shared_used += g->shared_per_cta;
    return MX_OK;
}

/* A warp's first issue: it gets buffers from its SM, frame 0 and its
 * special-register rows.  The buffers are the last ones given back there
 * if they are large enough, else the nearest below them that are (so a
 * kernel with large frames does not make every spare grow), else the last
 * ones, grown; new ones only when the SM has none.  MX_OK, or MX_ENOMEM. */
static int warp_begin(struct emu_sm *sm, struct emu_warp *w)
{
    struct emu_cta *c = w->cta;
    const struct emu_kernel *k = w->k;
    const struct mx_func *e = &k->prog->funcs[k->entry];
    if (sm->nspare) {
        size_t regs = (size_t)(e->nregs + k->nsregs) * WARP * sizeof(uint64_t);
        uint64_t local = w->local_size * WARP;
        uint32_t top = sm->nspare - 1, i = top;
        while (i > 0 && !wbufs_fit(&sm->spare[i], regs, local))
            i--;
        if (!wbufs_fit(&sm->spare[i], regs, local))
            i = top; /* none fits: grow the last ones */
        struct emu_wbufs t = sm->spare[i];
        sm->spare[i] = sm->spare[top];
        sm->nspare--;
        wbufs_give(w, &t);
    }
    if (w->local_size * WARP > w->local_cap) {
        local_unmap(w);
        int rc = local_map(w, w->local_size * WARP);
        if (rc)
            return rc;
    }
    int rc = emu_warp_start(w, k->entry, w->active, c->grid->params);
    if (rc)
        return rc;
    warp_init_sregs(w, &c->grid->l, c, e->nregs);
    return MX_OK;
}

/* Frees the slot of a finished (or abandoned) CTA; its warps' counts go to
 * its grid (sums: the same whatever order SMs retire in). */
static void cta_retire(struct emu_cta *c)
{
    struct emu_grid *g = c->grid;
    struct emu_sm *sm = c->sm;
    uint64_t wi = 0, ti = 0, ui[16] = { 0 };
    for (uint32_t i = 0; i < c->nwarps; i++) {
        struct emu_warp *w = &c->warps[i];
        warp_give_back(sm, w); /* a warp stopped before its end (the others gave theirs) */
        wi += w->insns;
        ti += w->thread_insns;
        for (int u = 0; u < 16; u++)
            ui[u] += w->unit_insns[u];
    }
    __atomic_add_fetch(&g->warp_insns, wi, __ATOMIC_RELAXED);
    __atomic_add_fetch(&g->thread_insns, ti, __ATOMIC_RELAXED);
    for (int u = 0; u < 16; u++)
        if (ui[u])
            __atomic_add_fetch(&g->unit_insns[u], ui[u], __ATOMIC_RELAXED);
    uint64_t last = __atomic_load_n(&g->clock_last, __ATOMIC_RELAXED);
    while (sm->clock > last && !__atomic_compare_exchange_n(&g->clock_last, &last, sm->clock, 1, __ATOMIC_RELAXED,
                                                            __ATOMIC_RELAXED))
        ;
    sm->ctas_used--;
    sm->warps_used -= g->warps_per_cta;
    sm->threads_used -= g->threads_per_cta;
    sm->regs_used -= g->regs_per_cta;
    sm->shared_used -= g->shared_per_cta;
    c->grid = NULL;
    __atomic_add_fetch(&g->ctas_done, 1, __ATOMIC_RELEASE);
}

/* Starts on sm the next CTAs dealt to it, of the active grids in launch
 * order, while it has room. */
static int sm_fill(struct emu_sm *sm)
{
    if (sm->mode != EMU_SM_COMPUTE)
        return MX_OK;
    struct emu_device *d = sm->dev;
    const struct emu_config *cfg = &d->cfg;
    uint32_t n = emu_compute_sms(cfg); /* (compute-mode SMs are 0 .. n - 1) */
    for (struct emu_grid *g = d->grids; g; g = g->next) {
        if (g->after && (!g->after->finished || g->after->cdp_busy))
            continue; /* waits for its stream's previous kernel (and the grids that one launched) */
        uint64_t first = (sm->id + n - g->first_sm) % n;
        for (;;) {
            uint64_t id = first + g->dealt[sm->id] * (uint64_t)n;
            if (id >= g->ncta || !sm_fits(cfg, sm, g))
                break;
            int rc = cta_start(g, sm, id);
            if (rc)
                return rc;
            uint64_t c = __atomic_load_n(&g->clock_first, __ATOMIC_RELAXED);
            while (sm->clock < c && !__atomic_compare_exchange_n(&g->clock_first, &c, sm->clock, 1, __ATOMIC_RELAXED,
                                                                 __ATOMIC_RELAXED))
                ;
            g->dealt[sm->id]++;
            sm->dirty = 1;
        }
    }
    return MX_OK;
}

/* Starts what fits on every SM (a new grid arrived), before a quantum. */
static int fill_all(struct emu_device *d, struct emu_fault *fault)
{
    for (uint32_t i = 0; i < d->cfg.num_sms; i++) {
        struct emu_sm *sm = &d->sms[i];
        int rc = sm_fill(sm);
        if (rc) {
            start_failed(fault, sm, rc);
            return rc;
        }
        if (sm->dirty) {
            sm_rebuild(&d->cfg, sm);
            sm->dirty = 0;
        }
    }
    return MX_OK;
}

/* Tells the timing model about the grids that got their first CTAs
 * (TM_EV_LAUNCH): between quanta, one thread, no SM running. */
static void announce(struct emu_device *d)
{
    const struct tm_ops *tm = d->cfg.timing;
    if (!tm || !tm->on_launch || !(tm->events & TM_EV_LAUNCH))
        return;
    for (struct emu_grid *x = d->grids; x; x = x->next) {
        if (x->announced)
            continue;
        uint64_t dealt = 0;
        for (uint32_t i = 0; i < d->cfg.num_sms && !dealt; i++)
            dealt = x->dealt[i];
        if (!dealt)
            continue;
        x->announced = 1;
        uint64_t n = x->ncta < UINT32_MAX ? x->ncta : UINT32_MAX;
        tm->on_launch(d->cfg.timing_state, mx_str(x->k->prog, x->k->prog->funcs[x->k->entry].name), (uint32_t)n,
                      x->threads_per_cta);
    }
}

/* ------------------------------------------------------- the quantum's end */

static int wait_cmp(const void *a, const void *b)
{
    const struct emu_wait *x = a, *y = b;
    if (x->clock != y->clock)
        return x->clock < y->clock ? -1 : 1;
    if (x->sm != y->sm)
        return x->sm < y->sm ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The memory interface's view of device memory (struct mx_memview): whole
 * lines, allocated or not (a line around a small allocation is device
 * memory too); -1 outside device memory (local and shared windows). */
static int memview_read(void *ctx, uint64_t addr, void *dst, uint32_t n)
{
    struct emu_device *d = ctx;
    if (!emu_mem_line_ok(d, addr, n))
        return -1;
    while (n) {
        uint64_t off = (addr - MEM_GLOBAL_BASE) & ((1ull << PAGE_SHIFT) - 1), k = (1ull << PAGE_SHIFT) - off;
        k = k < n ? k : n;
        const uint8_t *p = emu_mem_page(d, addr);
        if (!p)
            return -1;
        memcpy(dst, p + off, k);
        dst = (uint8_t *)dst + k;
        addr += k;
        n -= (uint32_t)k;
    }
    return 0;
}

/* Completes w's port request (MX_MEMREQ_PORT): the memory side hands over
 * the lines it holds, the instruction runs on them, and what it wrote goes
 * back.  A refusal of either side faults the warp (MX_EXLLC).  Returns the
 * clock w may issue again at when a timing model times the request (the
 * helper's warps run timed from its arrival: helper_run), else 0. */
static uint64_t complete_port(struct emu_device *d, struct emu_sm *sm, struct emu_warp *w)
{
    const struct mx_memif *mi = d->cfg.memif;
    const struct emu_xinsn *x = &w->k->x[w->pc];
    const struct mx_memreq *r = &sm->preq[w->port_slot - 1];
    struct mx_memview view = { d, memview_read };
    char why[400];
    sm->preq_busy[w->port_slot - 1] = 0;
    w->port_slot = 0;
    if (!d->port && !(d->port = malloc(sizeof *d->port))) {
        emu_fault(w, x, MX_ENOMEM, -1, 0, 0, "out of host memory for a port request");
        return 0;
    }
    struct mx_memreq req = *r;
    memset(d->port, 0, sizeof *d->port);
    uint32_t pc = w->pc;
    uint64_t ready = 0;
    int timed = w->port_timed;
    w->port_timed = 0;
    if (timed) { /* the helper's warps serve it from when the model has it at the cache-mode SM */
        d->helper_at = w->port_at;
        d->helper_done = 0;
        d->helper_timing = 1;
    }
    if (mi->port_begin(mi->ctx, &req, d->port, &view, why, sizeof why)) {
        if (!d->helper_dead) /* (a helper warp's own fault is the report) */
            emu_fault(w, x, MX_EXLLC, -1, d->port->n ? d->port->l[0].line : 0, 0, "%s", why);
        goto out;
    }
    w->port = d->port;
    int rc = emu_warp_complete(w);
    w->port = NULL;
    if (rc != EX_FAULT && mi->port_end(mi->ctx, &req, d->port, &view, why, sizeof why) && !d->helper_dead)
        emu_fault(w, x, MX_EXLLC, -1, d->port->n ? d->port->l[0].line : 0, 0, "%s", why);
    if (timed && !sm->faulted) {
        /* the data is back when the trip is over and, for what the helper serves (timed 2), when its warps
         * parked; a store's warp does not wait for that */
        const struct tm_ops *tm = d->cfg.timing;
        uint64_t def = w->k->deps[pc][0];
        ready = w->port_at;
        if (timed == 2 && def && d->helper_done > ready)
            ready = d->helper_done;
        if (tm->served && (tm->events & TM_EV_DEPS)) {
            int goes_on = w->state == WS_READY && w->pc < w->k->prog->ninsns;
            struct tm_served ev = { .sm = sm->id, .wslot = (uint32_t)(w->cta - sm->slots) * 32 + w->warp_id,
                                    .def = def, .use_next = goes_on ? w->k->deps[w->pc][1] : 0, .ready = ready };
            ready = tm->served(d->cfg.timing_state, &ev);
        } else if (!def) {
            ready = 0; /* a store: its warp goes on */
        }
    }
out:
    d->helper_timing = 0;
    return ready;
}

/* Completes every request that waited this quantum, and applies the wakes
 * sent across SMs (park.c), in (clock, SM, issue) order. */
static int complete_waits(struct emu_device *d, struct emu_wait **scratch, uint32_t *scap)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->cfg.num_sms; i++)
        n += d->sms[i].nwaits;
    if (!n)
        return MX_OK;
    if (n > *scap) {
        struct emu_wait *p = realloc(*scratch, n * sizeof *p);
        if (!p)
            return MX_ENOMEM;
        *scratch = p;
        *scap = n;
    }
    struct emu_wait *all = *scratch;
    n = 0;
    for (uint32_t i = 0; i < d->cfg.num_sms; i++) {
        struct emu_sm *sm = &d->sms[i];
        uint32_t keep = 0;
        for (uint32_t j = 0; j < sm->nwaits; j++) /* (sm->waits may still be NULL when there are none) */
            if (sm->waits[j].clock <= d->clock)
                all[n++] = sm->waits[j];
            else /* the memory interface completes it in a later quantum */
                sm->waits[keep++] = sm->waits[j];
        sm->nwaits = keep;
        if (!keep && !sm->nlocals)
            sm->seq = 0; /* issue order matters among waiting requests only */
    }
    qsort(all, n, sizeof *all, wait_cmp);
    d->direct = 1; /* every SM stopped, their copies merged: device memory itself */
    for (uint32_t i = 0; i < n; i++) {
        struct emu_warp *w = all[i].w;
        if (!w) {
            if (emu_wake_deliver(d, &all[i])) {
                d->direct = 0;
                return MX_ENOMEM;
            }
            continue;
        }
        struct emu_sm *sm = w->cta->sm;
        uint64_t end = sm->clock;
        sm->clock = all[i].clock; /* a fault it raises is dated when it was issued */
        uint64_t ready = end;
        if (w->port_slot) {
            uint64_t t = complete_port(d, sm, w);
            ready = t > end ? t : end; /* (a timed request: when its data is back) */
        } else {
            emu_warp_complete(w);
        }
        sm->clock = end;
        emu_warp_ready(w, ready);
    }
    d->direct = 0;
    return MX_OK;
}

/* The earliest fault of any SM this quantum (by SM clock, then SM), or 0;
 * *culprit: the grid whose CTA faulted. */
static int take_fault(struct emu_device *d, struct emu_fault *fault, struct emu_grid **culprit)
{
    struct emu_sm *first = NULL;
    for (uint32_t i = 0; i < d->cfg.num_sms; i++) {
        struct emu_sm *sm = &d->sms[i];
        if (sm->faulted && (!first || sm->fault_clock < first->fault_clock))
            first = sm;
    }
    if (!first)
        return MX_OK;
    *fault = first->fault;
    /* the helper kernel's fault is the device's: every grid ends with its report */
    *culprit = first->fault_grid && first->fault_grid->helper ? NULL : first->fault_grid;
    return fault->status ? fault->status : MX_EILLEGAL;
}

/* A CTA whose live warps all wait at barriers can never go on: report it.
 * A parked warp may be woken from outside its CTA: with one, only a device
 * on which nothing can go on is a deadlock (emu_parked_deadlock). */
static void find_deadlocks(struct emu_device *d)
{
    for (uint32_t i = 0; i < d->cfg.num_sms; i++) {
        struct emu_sm *sm = &d->sms[i];
        if (!sm->idle || sm->faulted)
            continue;
        for (uint32_t s = 0; s < d->cfg.max_ctas_per_sm && !sm->faulted; s++) {
            struct emu_cta *c = &sm->slots[s];
            if (!c->grid || !c->live_warps)
                continue;
            struct emu_warp *w = NULL;
            int can_go = 0;
            for (uint32_t j = 0; j < c->nwarps; j++) {
                struct emu_warp *v = &c->warps[j];
                if (v->state == WS_READY || v->state == WS_WAIT_MEM || v->state == WS_PARKED)
                    can_go = 1;
                else if (v->state == WS_BARRIER && !w)
                    w = v;
            }
            if (can_go || !w)
                continue;
            const struct emu_kernel *k = c->grid->k;
            uint32_t b = w->bar_id, at = w->pc;
            w->pc = emu_warp_pc(w); /* report the barrier the warp waits at */
            if (b < 16)
                emu_fault(w, &k->x[w->pc], MX_EDEADLOCK, -1, 0, 0,
                          "barrier deadlock: barrier %u has %u of %u threads and no warp can make progress", b,
                          c->bar_arrived[b], c->bar_expected[b] ? c->bar_expected[b] : c->live_threads);
            else if (b == WAIT_MBAR - 1)
                emu_fault(w, &k->x[w->pc], MX_EDEADLOCK, -1, 0, 0,
                          "mbarrier deadlock: lanes wait at mbarrier.try_wait for a phase that never completes, and no warp can make progress");
            else
                emu_fault(w, &k->x[w->pc], MX_EDEADLOCK, -1, 0, 0,
                          "barrier deadlock: lanes wait at bar.warp.sync for lanes of their mask that never arrive, and no warp can make progress");
            w->pc = at;
            emu_deadlock_detail(c, sm->fault.detail, sizeof sm->fault.detail);
        }
    }
    emu_parked_deadlock(d);
}

/* Stops a grid that ran past a watchdog limit: the fault names the first
 * unfinished warp of its first resident CTA, the detail every unfinished
 * warp of that CTA.  Returns 1 if it fired. */
static int watchdog(struct emu_device *d, struct emu_grid *g)
{
    const struct emu_config *cfg = &d->cfg;
    char msg[160];
    if (cfg->watchdog_insns && g->issued > cfg->watchdog_insns)
        snprintf(msg, sizeof msg, "watchdog: kernel exceeded %llu warp instructions (--max-insns)",
                 (unsigned long long)cfg->watchdog_insns);
    else if (cfg->watchdog_seconds > 0 && now() - g->t0 > cfg->watchdog_seconds)
        snprintf(msg, sizeof msg, "watchdog: kernel ran longer than %.1f s (--timeout)", cfg->watchdog_seconds);
    else
        return 0;
    for (uint32_t i = 0; i < cfg->num_sms; i++) {
        struct emu_sm *sm = &d->sms[i];
        for (uint32_t s = 0; s < cfg->max_ctas_per_sm; s++) {
            struct emu_cta *c = &sm->slots[s];
            if (c->grid != g || !c->live_warps)
                continue;
            struct emu_warp *w = NULL;
            for (uint32_t j = 0; j < c->nwarps && !w; j++)
                if (c->warps[j].state != WS_DONE)
                    w = &c->warps[j];
            uint32_t at = w->pc;
            w->pc = emu_warp_pc(w);
            emu_fault(w, &g->k->x[w->pc], MX_EWATCHDOG, -1, 0, 0, "%s", msg);
            w->pc = at;
            char *p = sm->fault.detail;
            size_t len = 0, cap = sizeof sm->fault.detail;
            for (uint32_t j = 0; j < c->nwarps && len + 64 < cap; j++)
                if (c->warps[j].state != WS_DONE)
                    len += (size_t)snprintf(p + len, cap - len, "%swarp %u at PTX line %u", len ? "; " : "still running: ", j,
                                            g->k->prog->insns[emu_warp_pc(&c->warps[j])].line);
            return 1;
        }
    }
    return 0;
}

/* Every started grid stops: resident CTAs give up their slots, nothing
 * more is started.  The grid whose CTA faulted gets the report; the others
 * end with MX_EABORTED (a fault loses the context, as on a GPU). */
static void abort_all(struct emu_device *d, struct emu_grid *culprit, int rc, const struct emu_fault *fault)
{
    for (uint32_t i = 0; i < d->cfg.num_sms; i++) {
        struct emu_sm *sm = &d->sms[i];
        for (uint32_t s = 0; s < d->cfg.max_ctas_per_sm; s++)
            if (sm->slots[s].grid)
                cta_retire(&sm->slots[s]);
        sm->nwaits = 0;
        sm->nlocals = 0;
        sm->faulted = 0;
        if (sm->preq_busy)
            memset(sm->preq_busy, 0, d->cfg.max_warps_per_sm);
        sm_rebuild(&d->cfg, sm);
    }
    if (d->helper)
        d->helper_dead = 1; /* its CTAs went too: the context is lost */
    for (struct emu_grid *g = d->grids; g; g = g->next) {
        for (uint32_t i = 0; i < d->cfg.num_sms; i++)
            g->dealt[i] = g->ncta; /* nothing more is started */
        if (g->finished)
            continue;
        g->finished = 1;
        if (g == culprit || !culprit) {
            g->status = rc;
            g->fault = *fault;
        } else {
            g->status = MX_EABORTED;
            g->fault.status = MX_EABORTED;
            g->fault.lane = -1;
            snprintf(g->fault.message, sizeof g->fault.message, "stopped: kernel %s faulted (%s)", fault->kernel,
                     mx_strstatus(rc));
        }
    }
}

static struct emu_sm *helper_faulted(struct emu_device *d);

/* Runs the device until grid g finished (the other started grids run too). */

static void run_grid(struct emu_device *d, struct emu_grid *g)
{
    struct emu_wait *scratch = NULL;
    uint32_t scap = 0;
    struct emu_fault fault;
    int first = 1;
    while (!g->finished) {
        int newly = 0;
        for (struct emu_grid *x = d->grids; x; x = x->next)
            if (!x->finished && __atomic_load_n(&x->ctas_done, __ATOMIC_ACQUIRE) == x->ncta)
                x->finished = newly = 1;
        if (g->finished)
            break;
        if ((newly || first) && fill_all(d, &fault)) { /* grids waiting for those start now */
            abort_all(d, NULL, fault.status, &fault);
            break;
        }
        if (newly || first)
            announce(d);
        first = 0;
        int resident = 0;
        for (uint32_t i = 0; i < d->cfg.num_sms && !resident; i++)
            resident = d->sms[i].nws != 0;
        if (!resident) { /* cannot happen: g waits for nothing and fits an SM; never spin */
            fault.status = MX_EDEADLOCK;
            snprintf(fault.message, sizeof fault.message, "kernel %s cannot start: no block of it fits an idle device",
                     mx_str(g->k->prog, g->k->prog->funcs[g->k->entry].name));
            abort_all(d, g, MX_EDEADLOCK, &fault);
            break;
        }
        uint32_t q = d->cfg.quantum;
        if (d->helper && d->cfg.timing && d->cfg.helper_quantum && d->cfg.helper_quantum < q)
            q = d->cfg.helper_quantum; /* its port's requests complete at a quantum's end */
        uint64_t t_end = d->clock + q;
        emu_ov_forget(d); /* the host may have copied, set or freed device memory since */
        run_quantum(d, t_end);
        emu_ov_merge(d);
        d->clock = t_end;
        for (uint32_t i = 0; i < d->cfg.num_sms; i++)
            d->sms[i].clock = t_end; /* SMs without warps (skipped) idle through the quantum too */
        memset(&fault, 0, sizeof fault);
        fault.lane = -1;
        int rc = complete_waits(d, &scratch, &scap);
        if (rc) {
            snprintf(fault.message, sizeof fault.message, "out of host memory for pending requests");
            fault.status = rc;
            abort_all(d, NULL, rc, &fault);
            break;
        }
        const struct mx_memif *mi = d->cfg.memif;
        if (mi && mi->quantum_end) { /* what the quantum's requests did to state shared by SMs */
            struct mx_memview view = { d, memview_read };
            mi->quantum_end(mi->ctx, t_end, &view);
        }
        if (mi && mi->dram_traffic && d->cfg.timing && d->cfg.timing->dram_traffic) { /* its DRAM traffic, timed */
            uint64_t rd[MX_MEMIF_MAX_CHANNELS], wb[MX_MEMIF_MAX_CHANNELS];
            uint32_t nch = mi->dram_traffic(mi->ctx, rd, wb, MX_MEMIF_MAX_CHANNELS);
            d->cfg.timing->dram_traffic(d->cfg.timing_state, rd, wb, nch);
        }
        /* one thread, no SM running: the model's shared state, after the quantum's DRAM traffic (above) so that
           its reads and write-backs meet the accesses of the quantum they were made in */
        if (d->cfg.timing && d->cfg.timing->quantum_end)
            d->cfg.timing->quantum_end(d->cfg.timing_state, t_end);
        if (d->cfg.timing && d->cfg.timing->rewake)
            rewake_held(d, t_end);
        find_deadlocks(d);
        struct emu_grid *culprit = NULL;
        if (!(rc = take_fault(d, &fault, &culprit)))
            for (struct emu_grid *x = d->grids; x; x = x->next)
                if (!x->finished && x->ctas_done < x->ncta && watchdog(d, x)) {
                    rc = take_fault(d, &fault, &culprit);
                    break;
                }
        if (rc)
            abort_all(d, culprit, rc, &fault);
    }
    free(scratch);
}

/* Checks a launch and binds its kernel; MX_OK or the error, with fault filled. */
static int launch_check(struct emu_device *d, struct emu_module *m, const struct emu_launch *l, struct emu_kernel **kp,
                        struct emu_fault *fault)
{
    const struct mx_program *prog = m->prog;
    if (l->func >= prog->nfuncs || !(prog->funcs[l->func].flags & MX_FUNCF_ENTRY) ||
        (prog->funcs[l->func].flags & MX_FUNCF_DECL)) {
        fault->status = MX_ENOTFOUND;
        snprintf(fault->message, sizeof fault->message, "function %u is not a kernel defined in this module", l->func);
        return MX_ENOTFOUND;
    }
    const struct mx_func *e = &prog->funcs[l->func];
    if (l->params_size < e->param_size) {
        fault->status = MX_EINVAL;
        snprintf(fault->message, sizeof fault->message, "kernel %s takes %u bytes of parameters, %zu given",
                 mx_str(prog, e->name), e->param_size, l->params_size);
        return MX_EINVAL;
    }
    int rc = MX_OK;
    struct emu_kernel *k = emu_module_kernel(m, l->func, &rc);
    if (!k) {
        fault->status = rc;
        snprintf(fault->message, sizeof fault->message, "out of memory binding the kernel");
        return rc;
    }
    *kp = k;
    return occupancy_check(d, k, l, fault);
}

/* A grid of kernel k for launch l (its parameters copied: the caller's
 * buffer may go before the grid runs), with its CTA shape; NULL with the
 * fault filled when out of host memory. */
static struct emu_grid *grid_new(struct emu_device *d, struct emu_kernel *k, const struct emu_launch *l,
                                 struct emu_fault *fault)
{
    struct emu_grid *g = calloc(1, sizeof *g);
    if (g) {
        g->dealt = calloc(d->cfg.num_sms, sizeof *g->dealt);
        g->params = malloc(l->params_size ? l->params_size : 1);
    }
    if (!g || !g->dealt || !g->params) {
        grid_free(g);
        fault->status = MX_ENOMEM;
        snprintf(fault->message, sizeof fault->message, "out of host memory for the grid");
        return NULL;
    }
    memcpy(g->params, l->params, l->params_size);
    g->dev = d;
    g->k = k;
    g->l = *l;
    g->l.params = g->params;
    g->ncta = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    g->threads_per_cta = l->block[0] * l->block[1] * l->block[2];
    g->warps_per_cta = (g->threads_per_cta + WARP - 1) / WARP;
    g->shared_per_cta = (uint64_t)k->shared_static + l->dyn_smem;
    g->t0 = now();
    g->clock_first = UINT64_MAX;
    return g;
}

int emu_grid_start(struct emu_device *d, struct emu_module *m, const struct emu_launch *l, struct emu_grid *after,
                   struct emu_fault *fault, struct emu_grid **out)
{
    struct emu_fault dummy;
    if (!fault)
        fault = &dummy;
    memset(fault, 0, sizeof *fault);
    fault->lane = -1;
    *out = NULL;
    struct emu_kernel *k = NULL;
    int rc = launch_check(d, m, l, &k, fault);
    if (rc) {
        snprintf(fault->kernel, sizeof fault->kernel, "%s",
                 l->func < m->prog->nfuncs ? mx_str(m->prog, m->prog->funcs[l->func].name) : "?");
        return rc;
    }
    const struct emu_config *cfg = &d->cfg;
    const struct mx_func *e = &m->prog->funcs[l->func];
    struct emu_grid *g = grid_new(d, k, l, fault);
    if (!g)
        return MX_ENOMEM;
    g->after = after;
    g->regs_per_cta = emu_cta_regs(cfg, m->prog, e, g->warps_per_cta);
    g->first_sm = d->rr_sm;
    d->rr_sm = (uint32_t)((d->rr_sm + g->ncta) % emu_compute_sms(cfg)); /* the next grid is dealt from where this one ends */
    struct emu_grid **tail = &d->grids;
    while (*tail)
        tail = &(*tail)->next;
    *tail = g;
    /* start what fits now: the SMs are idle while the host runs */
    if ((rc = fill_all(d, fault))) {
        struct emu_fault f = *fault;
        abort_all(d, g, rc, &f);
    }
    *out = g;
    return MX_OK;
}

int emu_grid_done(const struct emu_grid *g)
{
    return (g->finished || g->ctas_done == g->ncta) && !g->cdp_busy;
}

/* A device-side launch's check (cdp.c, through d->launch_check): as the host's. */
static int cdp_launch_check(struct emu_device *d, struct emu_module *m, const struct emu_launch *l,
                            struct emu_fault *fault)
{
    struct emu_kernel *k;
    return launch_check(d, m, l, &k, fault);
}

/* ------------------------------------------- dynamic parallelism (cdp.c) */

/* Runs one copy or set; MX_OK or the status (fault filled). */
static int cdp_copy(struct emu_device *d, const struct emu_cdp_op *op, struct emu_fault *f)
{
    if (!(op->kind == EMU_CDP_SET ? emu_memset(d, op->dst, (int)op->value, op->n)
                                  : emu_memcpy_dtod(d, op->dst, op->src, op->n)))
        return MX_OK;
    f->status = MX_EMEMFAULT;
    snprintf(f->message, sizeof f->message, "device-side %s of %llu bytes at 0x%llx%s: outside device memory",
             op->kind == EMU_CDP_SET ? "cudaMemsetAsync" : "cudaMemcpyAsync", (unsigned long long)op->n,
             (unsigned long long)op->dst, op->kind == EMU_CDP_SET ? "" : " (or its source)");
    return MX_EMEMFAULT;
}

/* The next of grid g's queued operations, taken off its queue (a launch no longer pending), or NULL. */
static struct emu_cdp_op *cdp_pop(struct emu_grid *g)
{
    struct emu_cdp_op *op = g->cdp_head;
    if (!op)
        return NULL;
    if (!(g->cdp_head = op->next))
        g->cdp_tail = NULL;
    if (op->kind == EMU_CDP_LAUNCH && g->dev->cdp_pending)
        g->dev->cdp_pending--;
    return op;
}

static void cdp_op_free(struct emu_cdp_op *op)
{
    free(op->params);
    free(op);
}

/* Runs what grid g's threads queued, in order, each child grid to its end (its own children included); the
 * first failure becomes g's fault.  Frees the queue. */
static void cdp_run(struct emu_device *d, struct emu_grid *g)
{
    for (struct emu_cdp_op *op; g->status == MX_OK && (op = cdp_pop(g)); cdp_op_free(op)) {
        struct emu_fault f;
        memset(&f, 0, sizeof f);
        f.lane = -1;
        int rc;
        if (op->kind == EMU_CDP_LAUNCH) {
            struct emu_grid *child = NULL;
            rc = emu_grid_start(d, g->k->mod, &op->l, NULL, &f, &child);
            if (!rc) {
                child->cdp_depth = g->cdp_depth + 1;
                child->cdp_parent = g;
                rc = emu_grid_wait(d, child, NULL, &f);
            }
        } else {
            rc = cdp_copy(d, op, &f);
        }
        if (rc) {
            g->status = rc;
            g->fault = f;
        }
    }
    cdp_discard(g); /* (after a failure: the rest does not run) */
}

/* Frees a grid's queue without running it. */
static void cdp_discard(struct emu_grid *g)
{
    for (struct emu_cdp_op *op; (op = cdp_pop(g));)
        cdp_op_free(op);
}

int emu_grid_wait(struct emu_device *d, struct emu_grid *g, struct emu_stats *stats, struct emu_fault *fault)
{
    /* Handlers assume round-to-nearest without flush-to-zero: a host program
     * built with -ffast-math (FTZ/DAZ set at start-up) must not change what
     * its kernels compute.  Saved and restored around the run. */
    fenv_t host_env;
    fegetenv(&host_env);
    fesetenv(FE_DFL_ENV);
    run_grid(d, g);
    const struct mx_memif *mi = d->cfg.memif;
    if (mi && mi->drain) { /* the host may touch device memory next: the memory side gives back what it holds */
        struct mx_memview view = { d, memview_read };
        char why[400];
        if (mi->drain(mi->ctx, &view, why, sizeof why) && g->status == MX_OK) {
            g->status = MX_EXLLC;
            memset(&g->fault, 0, sizeof g->fault);
            g->fault.status = MX_EXLLC;
            g->fault.lane = -1;
            snprintf(g->fault.message, sizeof g->fault.message, "%s", why);
        }
        struct emu_sm *hsm = d->helper ? helper_faulted(d) : NULL;
        if (hsm && g->status == MX_OK) { /* the helper kernel faulted while it drained */
            g->status = hsm->fault.status;
            g->fault = hsm->fault;
        }
    }
    fesetenv(&host_env);
    if (g->cdp_head) /* the grids and copies its threads launched: part of it, run before it is done */
        cdp_run(d, g);
    g->cdp_busy = 0;
    for (struct emu_grid **pp = &d->grids; *pp; pp = &(*pp)->next)
        if (*pp == g) {
            *pp = g->next;
            break;
        }
    for (struct emu_grid *x = d->grids; x; x = x->next)
        if (x->after == g)
            x->after = NULL; /* g finished: nothing to wait for any more */
    uint64_t span = g->clock_first != UINT64_MAX && g->clock_last > g->clock_first ? g->clock_last - g->clock_first : 0;
    if (d->cfg.timing && d->cfg.timing->on_kernel_end && span) /* (v11: the model may raise it) */
        d->cfg.timing->on_kernel_end(d->cfg.timing_state, &span);
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->warp_insns = g->warp_insns;
        stats->cycles = span;
        memcpy(stats->unit_insns, g->unit_insns, sizeof stats->unit_insns);
        stats->thread_insns = g->thread_insns;
        stats->ctas = g->ncta;
        stats->warps = g->ncta * g->warps_per_cta;
        stats->wall_seconds = now() - g->t0;
    }
    struct emu_grid *p = g->cdp_parent;
    if (p) { /* a child's work is its parent's: counts and the clock it ended at */
        p->warp_insns += g->warp_insns;
        p->thread_insns += g->thread_insns;
        for (size_t i = 0; i < sizeof p->unit_insns / sizeof p->unit_insns[0]; i++)
            p->unit_insns[i] += g->unit_insns[i];
        if (g->clock_last > p->clock_last)
            p->clock_last = g->clock_last;
    }
    int rc = g->status;
    if (fault) {
        if (rc) {
            *fault = g->fault;
            if (!fault->kernel[0])
                snprintf(fault->kernel, sizeof fault->kernel, "%s", mx_str(g->k->prog, g->k->prog->funcs[g->k->entry].name));
            if (!fault->status)
                fault->status = rc;
        } else {
            memset(fault, 0, sizeof *fault);
            fault->lane = -1;
        }
    }
    grid_free(g);
    return rc;
}

int emu_launch(struct emu_device *d, struct emu_module *m, const struct emu_launch *l, struct emu_stats *stats,
               struct emu_fault *fault)
{
    struct emu_grid *g;
    if (stats)
        memset(stats, 0, sizeof *stats);
    int rc = emu_grid_start(d, m, l, NULL, fault, &g);
    if (rc)
        return rc;
    return emu_grid_wait(d, g, stats, fault);
}

/* ------------------------------------------------------- helper kernels */

/* The cache-mode SM whose helper warp faulted (its fault taken and
 * cleared), or NULL. */
static struct emu_sm *helper_faulted(struct emu_device *d)
{
    for (uint32_t i = emu_compute_sms(&d->cfg); i < d->cfg.num_sms; i++)
        if (d->sms[i].faulted && d->sms[i].fault_grid == d->helper) {
            d->sms[i].faulted = 0;
            d->helper_dead = 1;
            return &d->sms[i];
        }
    return NULL;
}

/* Runs helper warp w on the calling thread until it parks or exits;
 * MX_OK, or the fault's status (left in its SM's report).  While a timed
 * port request completes (d->helper_timing) its instructions are timed on
 * its SM from d->helper_at or when it last parked, whichever is later, and
 * d->helper_done takes the clock it parks at.  (Its start and the drains at
 * idle are not timed: they are on no request's path.) */
static int helper_run(struct emu_device *d, struct emu_warp *w, uint64_t budget, const char *who)
{
    struct emu_sm *sm = w->cta->sm;
    int direct = d->direct, rc = MX_OK;
    d->direct = 1; /* device memory itself: every SM is stopped */
    if (!w->nframes && (rc = warp_begin(sm, w))) {
        emu_fault(w, &w->k->x[w->pc], rc, -1, 0, 0, "out of host memory starting a helper warp");
        goto out;
    }
    uint64_t start = w->insns;
    const struct emu_config *cfg = &d->cfg;
    int timed = d->helper_timing && cfg->timing->issue && (cfg->timing->events & TM_EV_ISSUE);
    uint64_t clock0 = sm->clock, t = d->helper_at > w->ready_at ? d->helper_at : w->ready_at;
    while (w->state == WS_READY) {
        sm->running = w;
        sm->run_insns0 = w->insns;
        int r;
        if (timed) {
            /* one instruction at a time, when the model lets the warp issue (it queues behind the requests
             * it served before: w->ready_at) */
            const struct emu_xinsn *x;
            uint64_t before = w->insns;
            sm->clock = t;
            sm->run_insns0 = before + 1;
            w->helper_hold = 0;
            r = emu_warp_step(w, &x);
            while (r == EX_WAIT && !sm->faulted)
                r = emu_warp_complete(w);
            if (r != EX_FAULT && !sm->faulted) {
                timed_issue(cfg, sm, w, x, t, before == 0, r);
                if (w->state == WS_READY) {
                    emu_warp_ready(w, w->ready_at > w->helper_hold ? w->ready_at : w->helper_hold);
                    t = w->ready_at > t ? w->ready_at : t + 1;
                } else { /* parked (or done): it served the request by now */
                    emu_warp_ready(w, t + 1);
                    d->helper_done = t > d->helper_done ? t : d->helper_done;
                }
            }
        } else {
            r = emu_warp_run(w, BATCH);
            while (r == EX_WAIT && !sm->faulted) /* a request that waits for the quantum's end: there already */
                r = emu_warp_complete(w);
            sm->clock += w->insns - sm->run_insns0;
        }
        sm->running = NULL;
        if (r == EX_FAULT || sm->faulted)
            break;
        if (w->insns - start > budget && w->state == WS_READY) {
            emu_fault(w, &w->k->x[w->pc], MX_EWATCHDOG, -1, 0, 0,
                      "helper warp ran %llu instructions without parking (a loop?)", (unsigned long long)budget);
            break;
        }
    }
    if (timed)
        sm->clock = clock0;
    if (sm->faulted) {
        rc = sm->fault.status ? sm->fault.status : MX_EILLEGAL;
        size_t dl = strlen(sm->fault.detail);
        if (who && dl + 8 < sizeof sm->fault.detail)
            snprintf(sm->fault.detail + dl, sizeof sm->fault.detail - dl, "%s%s", dl ? "; " : "", who);
        d->helper_dead = 1;
    } else if (w->state == WS_DONE) {
        warp_give_back(sm, w);
        w->cta->live_warps--;
    }
out:
    d->direct = direct;
    return rc;
}

int emu_helper_start(struct emu_device *d, struct emu_module *m, const struct emu_launch *l, uint32_t ctas_per_sm,
                     uint64_t budget, struct emu_fault *fault)
{
    const struct emu_config *cfg = &d->cfg;
    memset(fault, 0, sizeof *fault);
    fault->lane = -1;
    struct emu_launch hl = *l;
    hl.grid[0] = cfg->cache_sms * ctas_per_sm;
    hl.grid[1] = hl.grid[2] = 1;
    struct emu_kernel *k = NULL;
    int rc = d->helper ? MX_EINVAL : launch_check(d, m, &hl, &k, fault);
    if (!rc && (!cfg->cache_sms || !ctas_per_sm || ctas_per_sm > cfg->max_ctas_per_sm))
        rc = MX_ELAUNCH;
    if (rc) {
        if (!fault->message[0])
            snprintf(fault->message, sizeof fault->message, "helper kernel: %s", d->helper ? "one is running already"
                     : "needs cache-mode SMs and 1 to max_ctas_per_sm CTAs on each");
        fault->status = rc;
        return rc;
    }
    struct emu_grid *g = grid_new(d, k, &hl, fault);
    if (!g)
        return MX_ENOMEM;
    g->helper = 1;
    d->helper = g;
    for (uint64_t id = 0; id < g->ncta; id++) { /* CTA i on cache-mode SM i / ctas_per_sm, past every limit but slots */
        struct emu_sm *sm = &d->sms[emu_compute_sms(cfg) + id / ctas_per_sm];
        if ((rc = cta_start(g, sm, id))) {
            fault->status = rc;
            snprintf(fault->message, sizeof fault->message, "helper kernel: cannot place block %llu on SM %u (%s)",
                     (unsigned long long)id, sm->id, mx_strstatus(rc));
            return rc;
        }
        sm_rebuild(cfg, sm);
    }
    for (uint64_t id = 0; id < g->ncta; id++) { /* each warp runs to its first park (or exits: no set) */
        struct emu_sm *sm = &d->sms[emu_compute_sms(cfg) + id / ctas_per_sm];
        for (uint32_t s = 0; s < cfg->max_ctas_per_sm; s++) {
            struct emu_cta *c = &sm->slots[s];
            if (c->grid != g || c->id != id)
                continue;
            for (uint32_t i = 0; i < c->nwarps; i++)
                if ((rc = helper_run(d, &c->warps[i], budget, "starting the helper kernel"))) {
                    *fault = sm->fault;
                    sm->faulted = 0;
                    return rc;
                }
        }
    }
    return MX_OK;
}

int emu_helper_serve(struct emu_device *d, uint64_t gwarp, uint64_t budget, int timed, const char *who)
{
    struct emu_grid *g = d->helper;
    if (!g || d->helper_dead)
        return MX_EABORTED;
    uint64_t id = gwarp / g->warps_per_cta;
    uint32_t per = (uint32_t)((g->ncta + d->cfg.cache_sms - 1) / d->cfg.cache_sms);
    if (id >= g->ncta)
        return MX_EINVAL;
    struct emu_sm *sm = &d->sms[emu_compute_sms(&d->cfg) + id / per];
    for (uint32_t s = 0; s < d->cfg.max_ctas_per_sm; s++) {
        struct emu_cta *c = &sm->slots[s];
        if (c->grid != g || c->id != id)
            continue;
        struct emu_warp *w = &c->warps[gwarp % g->warps_per_cta];
        if (w->state != WS_PARKED)
            return MX_EINVAL; /* exited (no set), or never parked */
        emu_warp_state(w, WS_READY);
        int was = d->helper_timing;
        d->helper_timing = was && timed;
        int rc = helper_run(d, w, budget, who);
        d->helper_timing = was;
        return rc;
    }
    return MX_EINVAL;
}

uint64_t emu_helper_insns(const struct emu_device *d)
{
    const struct emu_grid *g = d->helper;
    uint64_t n = 0;
    if (!g)
        return 0;
    for (uint32_t i = emu_compute_sms(&d->cfg); i < d->cfg.num_sms; i++)
        for (uint32_t s = 0; s < d->cfg.max_ctas_per_sm; s++) {
            const struct emu_cta *c = &d->sms[i].slots[s];
            if (c->grid == g)
                for (uint32_t j = 0; j < c->nwarps; j++)
                    n += c->warps[j].insns;
        }
    return n;
}

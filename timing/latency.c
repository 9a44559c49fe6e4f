/* timing/latency.c — the "latency" model: a fixed latency per functional
 * unit class and per memory level, from the configuration (tm_params).
 * A warp may issue again `unit_latency[unit]` cycles after an instruction
 * (a load or atomic: after its data is back, `level_latency[level]`
 * cycles, the slowest line's level; a store does not wait: the ldst unit's
 * latency; shared memory: level_latency[shared]); an SM issues `issue_width` warp
 * instructions per cycle (the emulator's scheduler).  Bandwidth caps: each
 * SM running the application has an even share of the LLC's, DRAM's and the
 * extended LLC's bandwidth (timing.bandwidth.*; shared by no more SMs than
 * the grid has CTAs) as a queue of its own; an access waits for its bytes
 * (v8: the sectors each line moves, the block an extended-LLC miss fills;
 * else whole 128-byte lines) to pass the queues of the levels it goes through,
 * then the level's latency; a store takes its place without waiting.
 * Per-SM queues keep the answer independent of the order in which host
 * threads run the SMs.
 *
 * Arguments (--timing latency,KEY=N,...) override the configuration:
 * int fp dp sfu ldst ctrl sync tex tensor (units), l1 llc xllc dram
 * xllc_dram shared xllc_trip none (levels).  Beyond the L1 a level's
 * latency scales by 1 / mem_clock_scale (the memory side's clocks:
 * Frequency-Boost).  A helper-mode access (tm_mem.helper) pays the trip
 * to the cache-mode SM (xllc_trip) in place of xllc; the emulator holds
 * the warp until the helper's warp has served it too. */
#include "mx/timing.h"
#include "timing/args.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Q_LLC, Q_DRAM, Q_XLLC, Q_COUNT };

struct lat {
    struct tm_params p;
    uint32_t level[TM_LV_COUNT]; /* level_latency with the memory side's clock applied */
    double bpc[Q_COUNT];         /* bytes per core cycle of the LLC, DRAM, extended LLC (0: unlimited) */
    uint32_t compute_sms;
    double *free;                /* [sm * Q_COUNT + q]: when the SM's share of queue q is free again */
};

static int lat_init(void **state, const struct tm_params *p, const char *args, char *err, size_t errlen)
{
    struct lat *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "timing model latency: out of memory");
        return -1;
    }
    l->p = *p;
    if (args && *args && tm_parse_args(&l->p, "latency", args, 0, NULL, err, errlen)) {
        free(l);
        return -1;
    }
    for (int i = 0; i < TM_UNITS; i++)
        if (!l->p.unit_latency[i])
            l->p.unit_latency[i] = 1;
    tm_levels(&l->p, l->level); /* beyond the L1 (interconnect, LLC, DRAM) the memory side's clock applies */
    double sc = l->p.mem_clock_scale > 0 ? l->p.mem_clock_scale : 1;
    /* bandwidth caps: bytes per core cycle of the whole GPU (the memory side's clock applies to the LLC and
     * DRAM); each SM running the application gets an even share (docs/timing.md) */
    double mhz = l->p.core_mhz ? l->p.core_mhz : 1000;
    l->bpc[Q_LLC] = l->p.llc_gbps * 1e3 / mhz * sc;
    l->bpc[Q_DRAM] = l->p.dram_gbps * 1e3 / mhz * sc;
    l->bpc[Q_XLLC] = l->p.xllc_gbps_per_sm * 1e3 / mhz * l->p.cache_sms;
    l->compute_sms = l->p.num_sms > l->p.cache_sms ? l->p.num_sms - l->p.cache_sms : 1;
    if (l->p.num_sms && !(l->free = calloc((size_t)l->p.num_sms * Q_COUNT, sizeof *l->free))) {
        free(l);
        snprintf(err, errlen, "timing model latency: out of memory");
        return -1;
    }
    *state = l;
    return 0;
}

static uint32_t lat_issue(void *state, const struct tm_issue *ev)
{
    const struct lat *l = state;
    if (ev->shared)
        return l->p.level_latency[TM_LV_SHARED] ? l->p.level_latency[TM_LV_SHARED] : 1;
    return l->p.unit_latency[ev->unit < TM_UNITS ? ev->unit : 0];
}

/* The access's bytes through queue q of its SM: cycles from ev->clock until they are through. */
static double queue(struct lat *l, const struct tm_mem *ev, int q, double bytes)
{
    if (!l->free || ev->sm >= l->p.num_sms || l->bpc[q] <= 0)
        return 0;
    /* the share: the bandwidth over the SMs that can be using it (no more than the grid's CTAs) */
    uint32_t users = ev->grid_ctas && ev->grid_ctas < l->compute_sms ? ev->grid_ctas : l->compute_sms;
    double *f = &l->free[(size_t)ev->sm * Q_COUNT + q], start = *f > (double)ev->clock ? *f : (double)ev->clock;
    *f = start + bytes * users / l->bpc[q];
    return *f - (double)ev->clock;
}

static uint32_t lat_mem(void *state, const struct tm_mem *ev)
{
    struct lat *l = state;
    uint8_t lv = ev->level < TM_LV_COUNT ? ev->level : TM_LV_NONE;
    double wait = 0, w;
    int store = ev->write && !ev->atomic;
    /* the queues each line goes through (tm_line_uses), each line at its own level (v7) with the bytes it
     * moves (v8), else all at the access's, 128 bytes each */
    uint32_t nl = ev->lines;
    double b_llc = 0, b_dram = 0, b_x = 0;
    int per_line = ev->line_level && nl <= 64;
    for (uint32_t i = 0; i < nl; i++) {
        unsigned u = tm_line_uses(per_line ? ev->line_level[i] : lv, ev);
        double b = per_line && ev->line_bytes ? ev->line_bytes[i] : 128;
        b_llc += u & TM_USE_LLC ? b : 0;
        b_dram += u & TM_USE_DRAM ? b : 0;
        b_x += u & TM_USE_XLLC ? b : 0;
    }
    if (b_llc > 0 && (w = queue(l, ev, Q_LLC, b_llc)) > wait)
        wait = w;
    if (b_dram > 0 && (w = queue(l, ev, Q_DRAM, b_dram)) > wait)
        wait = w;
    if (b_x > 0 && (w = queue(l, ev, Q_XLLC, b_x)) > wait)
        wait = w;
    if (store)
        return l->p.unit_latency[4]; /* a store does not wait for memory (its bytes took their place in the queues) */
    uint32_t v = tm_level_latency(l->level, ev);
    if (!v)
        return l->p.unit_latency[4]; /* no level: the ldst unit's latency */
    return v + (uint32_t)ceil(wait);
}

static void lat_fini(void *state)
{
    struct lat *l = state;
    free(l->free);
    free(l);
}

const struct tm_ops tm_latency_ops = {
    .version = TM_API_VERSION,
    .name = "latency",
    .summary = "fixed latency per unit class and memory level (configuration timing.*), no queues",
    .events = TM_EV_ISSUE | TM_EV_MEM,
    .init = lat_init,
    .issue = lat_issue,
    .mem = lat_mem,
    .fini = lat_fini,
};

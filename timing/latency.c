/* timing/latency.c — the "latency" model: a fixed latency per functional
 * unit class and per memory level, from the configuration (tm_params).
 * A warp may issue again `unit_latency[unit]` cycles after an instruction
 * (a load or atomic: after its data is back, `level_latency[level]`
 * cycles, the slowest line's level; a store does not wait: the ldst unit's
 * latency; shared memory: level_latency[shared]); an SM issues `issue_width` warp
 * instructions per cycle (the emulator's scheduler).  No queues, no
 * bandwidth limits: the `cycle` model's business.
 *
 * Arguments (--timing latency,KEY=N,...) override the configuration:
 * int fp dp sfu ldst ctrl sync tex tensor (units), l1 llc xllc dram
 * xllc_dram shared none (levels).  Beyond the L1 a level's latency scales
 * by 1 / mem_clock_scale (the memory side's clocks: Frequency-Boost). */
#include "mx/timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lat {
    struct tm_params p;
    uint32_t level[TM_LV_COUNT]; /* level_latency with the memory side's clock applied */
};

static const char *const unit_key[TM_UNITS] = { "int", "fp", "dp", "sfu", "ldst", "ctrl", "sync", "tex", "tensor" };
static const char *const level_key[TM_LV_COUNT] = { "none", "l1", "llc", "xllc", "dram", "xllc_dram", "shared" };

/* Applies "KEY=N[,KEY=N...]" to p: 0, or -1 with err. */
static int parse_args(struct tm_params *p, const char *args, char *err, size_t errlen)
{
    char buf[512];
    if (strlen(args) >= sizeof buf) {
        snprintf(err, errlen, "timing model latency: arguments longer than %zu characters", sizeof buf - 1);
        return -1;
    }
    strcpy(buf, args);
    for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '='), *end;
        unsigned long v = eq ? strtoul(eq + 1, &end, 10) : 0;
        if (!eq || end == eq + 1 || *end || v < 1 || v > 1000000) {
            snprintf(err, errlen, "timing model latency: '%s' is not KEY=N with N from 1 to 1000000", kv);
            return -1;
        }
        *eq = 0;
        uint32_t *slot = NULL;
        for (int i = 0; i < TM_UNITS; i++)
            if (!strcmp(kv, unit_key[i]))
                slot = &p->unit_latency[i];
        for (int i = 0; i < TM_LV_COUNT; i++)
            if (!strcmp(kv, level_key[i]))
                slot = &p->level_latency[i];
        if (!slot) {
            snprintf(err, errlen, "timing model latency: unknown key '%s' (units: int fp dp sfu ldst ctrl sync tex "
                     "tensor; levels: none l1 llc xllc dram xllc_dram shared)", kv);
            return -1;
        }
        *slot = (uint32_t)v;
    }
    return 0;
}

static int lat_init(void **state, const struct tm_params *p, const char *args, char *err, size_t errlen)
{
    struct lat *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "timing model latency: out of memory");
        return -1;
    }
    l->p = *p;
    if (args && *args && parse_args(&l->p, args, err, errlen)) {
        free(l);
        return -1;
    }
    for (int i = 0; i < TM_UNITS; i++)
        if (!l->p.unit_latency[i])
            l->p.unit_latency[i] = 1;
    /* beyond the L1 (interconnect, LLC, DRAM) the memory side's clock applies */
    double sc = l->p.mem_clock_scale > 0 ? l->p.mem_clock_scale : 1;
    uint32_t l1 = l->p.level_latency[TM_LV_L1];
    for (int i = 0; i < TM_LV_COUNT; i++) {
        uint32_t v = l->p.level_latency[i];
        if ((i == TM_LV_LLC || i == TM_LV_XLLC || i == TM_LV_DRAM || i == TM_LV_XLLC_DRAM) && v > l1)
            v = l1 + (uint32_t)((v - l1) / sc + 0.5);
        l->level[i] = v;
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

static uint32_t lat_mem(void *state, const struct tm_mem *ev)
{
    const struct lat *l = state;
    if (ev->write && !ev->atomic)
        return l->p.unit_latency[4]; /* a store does not wait for memory: the ldst unit's latency */
    uint32_t v = l->level[ev->level < TM_LV_COUNT ? ev->level : TM_LV_NONE];
    return v ? v : l->p.unit_latency[4]; /* no level: the ldst unit's latency */
}

static void lat_fini(void *state) { free(state); }

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

/* timing/args.h — the built-in models' arguments (--timing MODEL,KEY=N,...). */
#ifndef MX_TIMING_ARGS_H
#define MX_TIMING_ARGS_H

#include <stddef.h>

#include "mx/timing.h"

/* A model's own key (KEY=N, N from 0 to 1000000 into *slot); a list ends with key NULL. */
struct tm_xarg {
    const char *key;
    uint32_t *slot;
};

/* Applies "KEY=N[,KEY=N...]" to p: a unit's latency (int fp dp sfu ldst ctrl
 * sync tex tensor), a level's (none l1 llc xllc dram xllc_dram shared
 * xllc_trip), and
 * with ii an initiation interval (ii_UNIT); N from 1 to 1000000; and the
 * model's own keys in x (NULL: none).  0, or -1 with a message naming the
 * model and the key in err. */
int tm_parse_args(struct tm_params *p, const char *model, const char *args, int ii, const struct tm_xarg *x,
                  char *err, size_t errlen);

/* p's level latencies with the memory side's clock: beyond the L1 (LLC,
 * extended LLC, DRAM and the helper's trip) they scale by 1 / mem_clock_scale. */
void tm_levels(const struct tm_params *p, uint32_t out[TM_LV_COUNT]);

/* The latency of ev's level in lv (from tm_levels): a helper-mode access
 * (ev->helper) pays the trip to the cache-mode SM and back (xllc_trip):
 * the helper's warp does the rest, DRAM included; 0 if the level has none. */
uint32_t tm_level_latency(const uint32_t lv[TM_LV_COUNT], const struct tm_mem *ev);

/* The bandwidths a line from level v passes (TM_USE_*): the LLC's for what
 * reaches the LLC partitions, DRAM's for what a load or atomic reads from
 * DRAM and for the block a store the extended LLC allocates reads first
 * (xllc+dram: it keeps no sector bits), the extended LLC's for what the
 * cache-mode SMs serve (not in helper mode: there the helper's warps take
 * their own time, DRAM included). */
enum { TM_USE_LLC = 1, TM_USE_DRAM = 2, TM_USE_XLLC = 4 };
static inline unsigned tm_line_uses(uint8_t v, const struct tm_mem *ev)
{
    int store = ev->write && !ev->atomic;
    return (v == TM_LV_LLC || v == TM_LV_DRAM ? TM_USE_LLC : 0) |
           ((!store && v == TM_LV_DRAM) || (v == TM_LV_XLLC_DRAM && !ev->helper) ? TM_USE_DRAM : 0) |
           (!ev->helper && (v == TM_LV_XLLC || v == TM_LV_XLLC_DRAM) ? TM_USE_XLLC : 0);
}

#endif

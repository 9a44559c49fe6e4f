/* memsys/morpheus.h — the Morpheus controller of each LLC partition
 * (MICRO'22 §4.1: address separator, hit/miss predictor, query unit) and
 * the native extended LLC behind it (§4.2 as a C model: sets of the
 * cache-mode SMs, LRU, dirty write-back to DRAM bypassing the conventional
 * LLC, atomics at the set, BDI compression).  Used by memsys.c, which owns
 * the conventional levels; called at the quantum's end only (one thread,
 * requests in their fixed order). */
#ifndef MX_MEMSYS_MORPHEUS_H
#define MX_MEMSYS_MORPHEUS_H

#include <stddef.h>
#include <stdint.h>

#include "mx/memsys.h"

struct morpheus;

/* What one request to the extended LLC did. */
struct morpheus_result {
    uint8_t predicted_hit;       /* the predictor's answer (1 with --predictor none) */
    uint8_t hit;                 /* the extended LLC held the line */
    uint8_t served;              /* MX_LV_XLLC, MX_LV_DRAM, or MX_LV_XLLC_DRAM (a load predicted to hit that missed) */
    uint32_t dram_read_bytes;    /* DRAM traffic it caused: the fill of a miss, */
    uint32_t dram_write_bytes;   /* a dirty victim's write-back (bypassing the LLC) */
    uint32_t dram_channel;       /* the partition's channel (memsys.c books the traffic on the line's
                                    channel, as for the conventional LLC) */
    uint64_t done;               /* SM clock at which the extended LLC answered; a load the
                                    predictor sent to DRAM: the request's clock (add DRAM's time) */
    /* what the set did (the native model's decision; the helper kernel must agree) */
    uint32_t set;                /* GPU-wide extended set g */
    int32_t way;                 /* the block's way now */
    int32_t victim;              /* the way evicted, -1 if none */
    uint64_t victim_tag;         /* its block number */
    uint8_t victim_wb;           /* it was dirty: written back */
    uint32_t split_drops;        /* BDI: blocks the set's re-split dropped before this access, */
    uint32_t split_wb;           /* of which dirty (written back; in dram_write_bytes) */
    uint8_t new_epoch;           /* BDI: the access began a new epoch of its set, which re-split (the helper
                                    is told so: MX_MMIO_OP_EPOCH) */
};

/* The default of memsys.query_unit.service_cycles, the query unit's
 * service time in the native model: cycles a helper warp spends on one
 * request (§5: rf+l1 extended LLC, 185 ns average access at the RTX
 * 3080's 1710 MHz boost clock; 34 GB/s per SM over 48 warps agrees). */
#define MORPHEUS_SERVICE_CYCLES 316
/* Helper warps of one cache-mode SM when the configuration does not say
 * (mx_memsys_config.helper_warps), one per extended-LLC set (§4.2: 48
 * warps per SM on the RTX 3080). */
#define MORPHEUS_MAX_WARPS 48

/* MX_OK, or MX_EINVAL / MX_ENOMEM with a message naming the key in err.
 * With c->xllc == MX_XLLC_OFF or c->cache_sms == 0 every line stays in the
 * conventional LLC. */
int morpheus_create(const struct mx_memsys_config *c, struct morpheus **out, char *err, size_t errlen);
/* What morpheus_create would refuse in c (with the extended LLC on), as
 * mx_memsys_config_check asks before anything runs. */
int morpheus_config_check(const struct mx_memsys_config *c, char *err, size_t errlen);
void morpheus_destroy(struct morpheus *m);

/* Address separation (§4.1.1).  lp: the line's number within LLC partition
 * `part` (line address / line size / partitions, as memsys.c hashes it).
 * Returns 1 if the line belongs to the extended LLC; else 0 with *llc_set
 * the conventional LLC set that caches it (lp mod llc_sets when Morpheus
 * is off). */
int morpheus_route(const struct morpheus *m, uint32_t part, uint64_t lp, uint32_t *llc_set);

/* One request (op: enum mx_mop) for `line` (its address, line-aligned),
 * touching `sectors`, which morpheus_route gave the extended LLC: predictor,
 * query unit, extended LLC.  mem reads the line's bytes (compression). */
void morpheus_access(struct morpheus *m, uint32_t part, uint64_t lp, uint64_t line, uint32_t sectors, int op,
                     uint64_t clock, const struct mx_memview *mem, struct morpheus_result *r);

/* morpheus_access with the SM that issued the request, which the warp
 * status table records as the request's origin (morpheus_access records
 * MORPHEUS_ORIGIN_UNKNOWN). */
#define MORPHEUS_ORIGIN_UNKNOWN 0xffffffffu
void morpheus_access_sm(struct morpheus *m, uint32_t part, uint64_t lp, uint64_t line, uint32_t sectors, int op,
                        uint64_t clock, uint32_t sm, const struct mx_memview *mem, struct morpheus_result *r);

/* Adds the extended LLC's, the predictors' and the query units' counts to s
 * (xllc, pred_*, qu_full). */
void morpheus_stats(const struct morpheus *m, struct mx_memsys_stats *s);
/* m replaces old (a new SM split): it carries on old's counts. */
void morpheus_inherit(struct morpheus *m, const struct morpheus *old);

/* Counts that have no field in struct mx_memsys_stats. */
struct morpheus_xstats {
    uint64_t level[3];           /* blocks inserted or rewritten at 32, 64, 128 bytes (BDI levels) */
    uint64_t split_drops;        /* blocks dropped by re-splits (BDI) */
    uint64_t bloom_swaps;        /* BF1/BF2 swaps, all sets */
    uint64_t qu_wait_cycles;     /* cycles requests waited for a queue slot or a data buffer */
    uint64_t fills;              /* predicted-miss loads whose block the controller handed to the set */
};
void morpheus_xstats(const struct morpheus *m, struct morpheus_xstats *x);

/* The extended LLC is given up (an online controller changes the SM split):
 * every dirty block is written back (wb(ctx, its line address) each, and
 * counted in xllc.writebacks), and the sets forgotten.  Returns how many
 * were dirty. */
uint32_t morpheus_flush_all(struct morpheus *m, void (*wb)(void *ctx, uint64_t line), void *ctx);

/* Extended-LLC sets of partition `part` (X of docs/morpheus-controller.md;
 * 0 with Morpheus off).  Partition p's set (row) r is the GPU-wide set
 * g = r * llc_partitions + p, served by warp g mod S of cache-mode SM
 * num_sms - cache_sms + g / S, S = sets per cache-mode SM. */
uint32_t morpheus_xsets(const struct morpheus *m, uint32_t part);
/* The line number within partition `part` of the k-th line (k = 0, 1, ...)
 * that address separation gives extended row `row`, counting from the
 * period after line number `from`; 0 when Morpheus is off or there is no
 * such row. */
uint64_t morpheus_xline(const struct morpheus *m, uint32_t part, uint32_t row, uint64_t from, uint64_t k);
/* The SM and helper warp that serve row `row` of partition `part`: 0, or
 * -1 if there is no such row. */
int morpheus_owner(const struct morpheus *m, uint32_t part, uint32_t row, uint32_t *sm, uint32_t *warp);
/* Writes back the dirty blocks of GPU-wide set g of the native model (the
 * device goes idle, the helper kernel flushes): returns how many (counted
 * as extended-LLC write-backs); they stay, clean. */
uint32_t morpheus_flush_set(struct morpheus *m, uint32_t g);
/* Drops block `tag` from set g (the host wrote its line): its way, or -1 if
 * absent; *wb: it was dirty and is written back. */
int morpheus_drop(struct morpheus *m, uint32_t g, uint64_t tag, int *wb);
/* Block i (0 .. blocks per set - 1) of set g: 1 with its tag, 0 if empty. */
int morpheus_block(const struct morpheus *m, uint32_t g, uint32_t i, uint64_t *tag);
/* Whether the extended LLC holds `line` (partition part, number lp in it),
 * without touching anything; *set: its GPU-wide set.  0 if not the
 * extended LLC's line. */
int morpheus_holds(const struct morpheus *m, uint32_t part, uint64_t lp, uint64_t line, uint32_t *set);
/* What the hit/miss predictor answers now for `line` of extended set g
 * (1: send it to the cache-mode SM), without recording the query. */
int morpheus_predicts(const struct morpheus *m, uint32_t g, uint64_t line);
/* Dirty blocks of set g. */
uint32_t morpheus_dirty(const struct morpheus *m, uint32_t g);
/* Extended-LLC sets of the whole GPU and blocks per set. */
uint32_t morpheus_sets(const struct morpheus *m, uint32_t *blocks);
/* Extended sets of each cache-mode SM (S; 0 with Morpheus off). */
uint32_t morpheus_sets_per_sm(const struct morpheus *m);
/* Partition part's query unit for the helper kernel to read and write. */
uint8_t *morpheus_mmio_rw(struct morpheus *m, uint32_t part, size_t *bytes);

/* Partition part's memory-mapped query unit (include/mx/morpheus_mmio.h),
 * and its size in *bytes; NULL with Morpheus off. */
const uint8_t *morpheus_mmio(const struct morpheus *m, uint32_t part, size_t *bytes);

#endif

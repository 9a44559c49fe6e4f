/* include/mx/memsys.h — the memory hierarchy (memsys/) as the command
 * line, the CUDA shims and the tests see it: a configuration, one instance
 * per device, the memory interface emu/ hands its requests to
 * (include/mx/memreq.h), and statistics.
 *
 * Caches hold tags and state; data stays in the emulator's device memory,
 * so turning the hierarchy on never changes what a program computes.  L1s
 * are per SM and are looked up on the SM's host thread when a request is
 * made; what leaves an SM (L1 misses, write-through stores, atomics) is
 * queued per SM and applied to the shared levels (LLC partitions, Morpheus
 * controllers, extended LLC, DRAM) at the quantum's end, in (clock, SM,
 * issue) order: statistics are the same for every --host-threads. */
#ifndef MX_MEMSYS_H
#define MX_MEMSYS_H

#include <stddef.h>
#include <stdint.h>

#include "mx/memreq.h"

#define MX_MEMSYS_MAX_CARVEOUTS 8
#define MX_MEMSYS_MAX_CHANNELS 64

enum mx_llc_hash { MX_HASH_LINEAR, MX_HASH_XOR };         /* line number -> LLC partition */
enum mx_xllc_mode { MX_XLLC_OFF, MX_XLLC_NATIVE, MX_XLLC_HELPER };
enum mx_xllc_variant { MX_XV_RF, MX_XV_L1, MX_XV_SHM, MX_XV_RF_L1, MX_XV_COUNT };
enum mx_predictor { MX_PRED_BLOOM, MX_PRED_NONE, MX_PRED_PERFECT };
enum mx_compress { MX_COMP_NONE, MX_COMP_BDI };
/* Which level served a sector (struct mx_memtrace_rec.served). */
enum mx_level { MX_LV_NONE, MX_LV_L1, MX_LV_LLC, MX_LV_XLLC, MX_LV_DRAM, MX_LV_XLLC_DRAM };

struct mx_memsys_config {
    uint32_t num_sms;            /* SMs, compute and cache mode */
    uint32_t cache_sms;          /* SMs in cache mode: the highest-numbered ones (< num_sms) */
    uint32_t helper_warps;       /* warps of a cache-mode SM (gpu.max_warps_per_sm): one helper warp per
                                    extended-LLC set, so at most this many sets per SM (0: 48) */
    /* L1, one per SM: a unified L1/shared-memory array of l1_unified_kib.
     * The shared-memory carve-out is the smallest of l1_carveouts_kib that
     * holds the shared memory in use on the SM (struct mx_memreq.smem); the
     * rest is L1: l1_sets sets stay, the ways shrink.  With l1_rf_kib, the
     * register file the resident CTAs leave unallocated (l1_rf_kib less
     * struct mx_memreq.rf) is L1 too, in whole ways (Unified-SM-Mem). */
    uint32_t l1_unified_kib;     /* 128 (rtx3080) */
    uint32_t l1_sets;            /* 4 */
    uint32_t l1_line, l1_sector; /* 128, 32 */
    uint32_t l1_carveouts_kib[MX_MEMSYS_MAX_CARVEOUTS];
    uint32_t l1_ncarveouts;      /* 0 8 16 32 64 100 (rtx3080) */
    uint32_t l1_rf_kib;          /* register file an SM lends the L1 while unallocated (0: none, the default) */
    /* LLC: llc_partitions partitions of llc_sets x llc_ways lines */
    uint32_t llc_partitions;     /* 10 (one per 32-bit memory controller, 512 KiB each) */
    uint32_t llc_sets, llc_ways; /* 256, 16 */
    uint32_t llc_line, llc_sector; /* 128, 32 */
    uint32_t llc_hash;           /* enum mx_llc_hash */
    uint32_t llc_full_sets;      /* 0: every set has llc_ways ways; else only the first llc_full_sets of a
                                    partition's sets do, the others one fewer (an LLC with a fraction of a way
                                    more: BL's +210 KiB is a 17th way in 168 of 256 sets on the rtx3080) */
    /* DRAM */
    uint32_t dram_channels;      /* 10 (rtx3080: 320-bit GDDR6X as 10 x 32-bit) */
    /* Morpheus */
    uint32_t xllc;               /* enum mx_xllc_mode */
    uint32_t xllc_variant;       /* enum mx_xllc_variant */
    uint32_t xllc_kib[MX_XV_COUNT]; /* extended-LLC capacity of one cache-mode SM, per variant */
    uint32_t xllc_ways;          /* ways of an extended-LLC set */
    uint32_t predictor;          /* enum mx_predictor */
    uint32_t bloom_k;            /* hash functions of each Bloom filter */
    uint32_t compress;           /* enum mx_compress */
    uint32_t bdi_epoch;          /* BDI: cycles of an epoch; an extended-LLC set re-splits its registers among
                                    the compression levels at its first access in a new one (docs/xllc-bdi.md;
                                    10000, the paper's n, 4.3.1) */
    uint32_t qu_queue;           /* request-queue entries of each controller's query unit */
    uint32_t qu_buffer_bytes;    /* read + write data buffers of each query unit (5 KiB) */
    uint32_t qu_service;         /* cycles a request holds its set's warp and buffer entry in the native model */
    uint32_t xllc_check;         /* --xllc helper: check every helper decision against the native model and
                                    every block it returns or writes back against a shadow of memory */
    const char *mem_trace;       /* --mem-trace FILE, or NULL */
};

struct mx_cache_stats { uint64_t accesses, hits, misses, evictions, writebacks; };

struct mx_memsys_stats {
    struct mx_cache_stats l1, llc, xllc;
    uint64_t pred_true_pos, pred_false_pos, pred_true_neg, pred_false_neg;
    uint64_t dram_read_bytes, dram_write_bytes;
    uint64_t dram_channel_read[MX_MEMSYS_MAX_CHANNELS], dram_channel_write[MX_MEMSYS_MAX_CHANNELS];
    uint64_t qu_full;            /* requests that waited for room in a query unit (back-pressure) */
    uint64_t helper_requests;    /* --xllc helper: requests its warps served (PEEKs, flushes and drops too) */
    uint64_t helper_insns;       /* ... and the warp instructions that took: filled by whoever runs the
                                    helper kernel (frontend/msys.c: emu_helper_insns), 0 here */
    uint64_t bdi_blocks[3];      /* extended-LLC blocks inserted or rewritten at 32, 64 and 128 bytes (the
                                    BDI levels of --compress bdi; without it every block is 128) */
    uint64_t bdi_split_drops;    /* extended-LLC blocks dropped by re-splits (a register changing level;
                                    counted in xllc.evictions too) */
    uint32_t sms_compute, sms_cache;
    uint32_t dram_channels;      /* entries of dram_channel_read/_write in use (the JSON's channels[]) */
};

struct mx_memsys;

/* --xllc helper: who runs the helper kernel (the command line's glue, over
 * emu_helper_serve).  serve wakes the helper warp of cache-mode SM `sm`
 * that serves its `warp`-th extended-LLC set and runs it until it parks
 * again (it has then answered the request posted in its row); 0, or -1 if
 * it faulted (the fault, with `who` in it, is then the device's).  timed:
 * the request is on an application access's path (LD, ST, FILL, an
 * atomic's parts), so a timing model times the warp's instructions; 0 for
 * what only the emulator needs (FLUSH at idle, INV, PEEK). */
struct mx_xllc_port {
    void *ctx;
    int (*serve)(void *ctx, uint32_t sm, uint32_t warp, int timed, const char *who);
};
/* The paper's baseline (Table 1, RTX 3080) with the hierarchy's defaults:
 * what a configuration file starts from (configs/rtx3080.json says the
 * same; a test checks). */
void mx_memsys_config_default(struct mx_memsys_config *c);
/* Checks c: MX_OK, or MX_EINVAL with a message naming the key in err. */
int mx_memsys_config_check(const struct mx_memsys_config *c, char *err, size_t errlen);
/* The LLC's capacity in bytes, every partition (llc_full_sets counted). */
static inline uint64_t mx_memsys_llc_bytes(const struct mx_memsys_config *c)
{
    uint64_t lines = (uint64_t)c->llc_sets * c->llc_ways;
    if (c->llc_full_sets && c->llc_full_sets < c->llc_sets)
        lines -= c->llc_sets - c->llc_full_sets;
    return lines * c->llc_partitions * c->llc_line;
}

int mx_memsys_create(const struct mx_memsys_config *c, struct mx_memsys **out, char *err, size_t errlen);
void mx_memsys_destroy(struct mx_memsys *m);
/* The interface to put in emu_config.memif (valid while m lives). */
const struct mx_memif *mx_memsys_memif(struct mx_memsys *m);
/* --xllc helper.  The query unit of LLC partition `part` as the helper
 * kernel reads and writes it (include/mx/morpheus_mmio.h): its bytes and
 * size, NULL when Morpheus is off or part is out of range. */
uint8_t *mx_memsys_mmio(struct mx_memsys *m, uint32_t part, size_t *bytes);
/* Extended-LLC sets (warp-status-table rows) of partition `part`, and the
 * cache-mode SM and set index on it (0 .. sets per SM - 1) of row `row`:
 * 0, or -1 if there is no such row.  *per_sm: sets of each cache-mode SM. */
uint32_t mx_memsys_xllc_rows(const struct mx_memsys *m, uint32_t part);
int mx_memsys_xllc_owner(const struct mx_memsys *m, uint32_t part, uint32_t row, uint32_t *sm, uint32_t *warp);
uint32_t mx_memsys_xllc_sets_per_sm(const struct mx_memsys *m);
/* The line number within partition `part` of the k-th line that address
 * separation (docs/morpheus-controller.md) gives extended row `row`,
 * counting from the period after line number `from`; 0 if there is none. */
uint64_t mx_memsys_xllc_line(const struct mx_memsys *m, uint32_t part, uint32_t row, uint64_t from, uint64_t k);
/* Connects the helper kernel: until then helper mode refuses every access. */
void mx_memsys_attach_helper(struct mx_memsys *m, const struct mx_xllc_port *p);

/* Between launches (no request queued): puts the `cache_sms`
 * highest-numbered SMs in cache mode and the others in compute mode, as an
 * online controller of the SM split does (frontend/online.c).  The address
 * separation deals lines over the LLC and the extended LLC in proportion to
 * their capacities, so a change empties both: every dirty line is written
 * back to DRAM (llc.writebacks, xllc.writebacks, dram_write_bytes on its
 * channel) and the next launch starts cold; SMs that change mode start with
 * an empty L1.  Counts since creation stay.  The native extended LLC only
 * (MX_EINVAL otherwise, nothing changed); MX_OK when cache_sms is already
 * the split. */
int mx_memsys_reshape(struct mx_memsys *m, uint32_t cache_sms, char *err, size_t errlen);

/* Totals since creation (call between quanta: after a launch completed). */
void mx_memsys_stats(const struct mx_memsys *m, struct mx_memsys_stats *s);
/* a - b, counter by counter (a launch's share of the totals). */
void mx_memsys_stats_sub(struct mx_memsys_stats *a, const struct mx_memsys_stats *b);
/* s as the JSON object of --stats' "memsys" key (no newline); warp_insns:
 * warp instructions the counts belong to (for llc.mpki).  Returns the
 * length, as snprintf does. */
int mx_memsys_stats_json(const struct mx_memsys_stats *s, uint64_t warp_insns, char *buf, size_t n);

#endif

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
    uint8_t served;              /* MX_LV_XLLC or MX_LV_DRAM */
    uint32_t dram_read_bytes;    /* DRAM traffic it caused: the fill of a miss, */
    uint32_t dram_write_bytes;   /* a dirty victim's write-back (bypassing the LLC) */
    uint32_t dram_channel;       /* the channel of that traffic (the line's) */
};

/* MX_OK, or MX_EINVAL / MX_ENOMEM with a message naming the key in err.
 * With c->xllc == MX_XLLC_OFF or c->cache_sms == 0 every line stays in the
 * conventional LLC. */
int morpheus_create(const struct mx_memsys_config *c, struct morpheus **out, char *err, size_t errlen);
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

/* Adds the extended LLC's, the predictors' and the query units' counts to s
 * (xllc, pred_*, qu_full). */
void morpheus_stats(const struct morpheus *m, struct mx_memsys_stats *s);

#endif

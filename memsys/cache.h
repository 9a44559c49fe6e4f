/* memsys/cache.h — one tag-only, sectored, set-associative cache with true
 * LRU: every L1 and every conventional LLC partition is one of these.  It
 * knows sets, ways, tags (line numbers) and per-line valid/dirty sector
 * masks; the caller picks the set (L1: line number mod sets; LLC: what
 * morpheus_route says) and decides what an access means (memsys.c).  No
 * data, no statistics, no allocation after cache_init. */
#ifndef MX_MEMSYS_CACHE_H
#define MX_MEMSYS_CACHE_H

#include <stdint.h>

#define CACHE_NO_TAG UINT64_MAX  /* tag of an empty way (no line number reaches it) */

struct cache {
    uint32_t sets;               /* sets (any count; the caller indexes) */
    uint32_t ways_max;           /* ways allocated per set */
    uint32_t ways;               /* ways in use (<= ways_max): the L1 carve-out shrinks it */
    uint64_t now;                /* LRU clock: the stamp of the next use */
    uint64_t *tag;               /* [set * ways_max + way]: line number, or CACHE_NO_TAG */
    uint64_t *stamp;             /* [..]: last use; the lowest stamp of a set is its LRU line */
    uint32_t *valid;             /* [..]: valid sectors (bit i: sector i) */
    uint32_t *dirty;             /* [..]: dirty sectors (a subset of valid) */
};

/* What an insertion pushed out. */
struct cache_victim {
    int valid;                   /* a line was evicted (else an empty way was used) */
    uint64_t tag;                /* its line number */
    uint32_t sectors, dirty;     /* its valid and dirty sectors */
};

/* MX_OK or MX_ENOMEM; every way empty, all ways_max in use. */
int cache_init(struct cache *c, uint32_t sets, uint32_t ways_max);
void cache_fini(struct cache *c);

/* Index of (set, way) in the per-line arrays. */
static inline uint32_t cache_slot(const struct cache *c, uint32_t set, uint32_t way)
{
    return set * c->ways_max + way;
}

/* The way of `set` holding line `tag`, or -1.  Does not change LRU order.
 * Ways beyond the limit are always empty, so only the first `ways` are read. */
static inline int cache_find(const struct cache *c, uint32_t set, uint64_t tag)
{
    const uint64_t *t = c->tag + (uint64_t)set * c->ways_max;
    for (uint32_t w = 0; w < c->ways; w++)
        if (t[w] == tag)
            return (int)w;
    return -1;
}

/* Makes (set, way) the most recently used line of its set. */
static inline void cache_touch(struct cache *c, uint32_t set, uint32_t way)
{
    c->stamp[cache_slot(c, set, way)] = c->now++;
}

/* Puts line `tag` (not present) into `set` with no valid sector: into the
 * first empty way, else in place of the LRU line (described in *v).  With
 * evict_first the line takes the LRU position (it is the next victim)
 * instead of the MRU one.  Returns the way, or -1 when no way is in use. */
int cache_insert(struct cache *c, uint32_t set, uint64_t tag, int evict_first, struct cache_victim *v);

/* Empties (set, way). */
void cache_invalidate(struct cache *c, uint32_t set, uint32_t way);

/* Sets the ways in use to `ways` (clamped to ways_max).  Lines in the ways
 * given up are invalidated; returns how many valid lines that dropped (the
 * caller counts them as evictions; an L1 holds no dirty data). */
uint32_t cache_set_ways(struct cache *c, uint32_t ways);

#endif

/* memsys/cache.h — one tag-only, sectored, set-associative cache with true
 * LRU: every L1 and every conventional LLC partition is one of these.  It
 * knows sets, ways, tags (line numbers) and per-line valid/dirty sector
 * masks; the caller picks the set (L1: line number mod sets; LLC: what
 * morpheus_route says) and decides what an access means (memsys.c).  No
 * data, no statistics, no allocation after cache_init.
 *
 * Every operation is O(1) apart from finding an empty way (O(ways / 64)):
 * an L1 of 256 ways is looked up for every warp memory instruction, so a
 * scan of the set would dominate the emulator.  A hash table finds (set,
 * tag); a doubly-linked list per set keeps the LRU order (head MRU, tail
 * LRU); a bitmap per set says which ways hold a line. */
#ifndef MX_MEMSYS_CACHE_H
#define MX_MEMSYS_CACHE_H

#include <stdint.h>

#define CACHE_NIL UINT32_MAX     /* no way (list ends) */

/* One entry of the (set, tag) -> slot hash table (open addressing, linear
 * probing, at most half full).  8 bytes: the tables of 68 L1s and an LLC
 * are a few MiB, looked up at random for every line a warp touches, so
 * their size is what the host's caches see.  The tag itself is the slot's
 * (cache.tag); the entry keeps the top 32 bits of the (set, tag) hash,
 * whose top bits are also the entry's home index. */
struct cache_hent {
    uint32_t fp;                 /* cache_mix(set, tag) >> 32 */
    uint32_t slot1;              /* slot + 1; 0: empty entry */
};

struct cache {
    uint32_t sets;               /* sets (any count; the caller indexes) */
    uint32_t ways_max;           /* ways allocated per set */
    uint32_t ways;               /* ways in use (<= ways_max): the L1 carve-out shrinks it */
    uint32_t narrow_from;        /* sets from this one on use one way fewer than `ways` (sets: none do) */
    uint32_t words;              /* 64-bit words of one set's bitmap */
    uint64_t *tag;               /* [set * ways_max + way]: line number of a used way */
    uint32_t *valid;             /* [..]: valid sectors (bit i: sector i) */
    uint32_t *dirty;             /* [..]: dirty sectors (a subset of valid) */
    uint32_t *prev, *next;       /* [..]: LRU list neighbours (ways of the same set), CACHE_NIL at the ends */
    uint32_t *head, *tail;       /* [set]: MRU and LRU way, CACHE_NIL when the set is empty */
    uint64_t *used;              /* [set * words + w / 64]: bit w % 64 set when way w holds a line */
    struct cache_hent *hash;     /* [hmask + 1] */
    uint32_t hmask, hshift;      /* table size - 1; 64 - log2(table size) (at least 32) */
};

/* What an insertion pushed out. */
struct cache_victim {
    int valid;                   /* a line was evicted (else an empty way was used) */
    uint64_t tag;                /* its line number */
    uint32_t sectors, dirty;     /* its valid and dirty sectors */
};

/* MX_OK or MX_ENOMEM; every way empty, all ways_max in use in every set. */
int cache_init(struct cache *c, uint32_t sets, uint32_t ways_max);
void cache_fini(struct cache *c);

/* Index of (set, way) in the per-line arrays. */
static inline uint32_t cache_slot(const struct cache *c, uint32_t set, uint32_t way)
{
    return set * c->ways_max + way;
}

/* The top 32 bits of the (set, tag) hash: an entry's fp, and its home
 * index in its top log2(table size) bits (cache_home). */
static inline uint32_t cache_mix(uint32_t set, uint64_t tag)
{
    return (uint32_t)(((tag + (uint64_t)set * 0xC2B2AE3D27D4EB4Full) * 0x9E3779B97F4A7C15ull) >> 32);
}

static inline uint32_t cache_home(const struct cache *c, uint32_t fp) { return fp >> (c->hshift - 32); }

/* The way of `set` holding line `tag`, or -1.  Does not change LRU order. */
static inline int cache_find(const struct cache *c, uint32_t set, uint64_t tag)
{
    uint32_t fp = cache_mix(set, tag);
    for (uint32_t i = cache_home(c, fp);; i = (i + 1) & c->hmask) {
        const struct cache_hent *e = &c->hash[i];
        if (!e->slot1)
            return -1;
        if (e->fp == fp) {
            uint32_t k = e->slot1 - 1, way = k - set * c->ways_max; /* (wraps when k is another set's) */
            if (way < c->ways_max && c->tag[k] == tag)
                return (int)way;
        }
    }
}

/* Makes (set, way) the most recently used line of its set. */
void cache_touch(struct cache *c, uint32_t set, uint32_t way);

/* Puts line `tag` (not present) into `set` with no valid sector: into the
 * lowest-numbered empty way, else in place of the LRU line (described in
 * *v).  With evict_first the line takes the LRU position (it is the next
 * victim; a later evict-first line goes below it) instead of the MRU one.
 * Returns the way, or -1 when no way is in use. */
int cache_insert(struct cache *c, uint32_t set, uint64_t tag, int evict_first, struct cache_victim *v);

/* Empties (set, way), which holds a line. */
void cache_invalidate(struct cache *c, uint32_t set, uint32_t way);

/* Empties every way of every set (the ways in use stay as they are). */
void cache_clear(struct cache *c);

/* Sets the ways in use to `ways` (clamped to ways_max).  Lines in the ways
 * given up are invalidated; returns how many that dropped (the caller
 * counts them as evictions; an L1 holds no dirty data). */
uint32_t cache_set_ways(struct cache *c, uint32_t ways);

#endif

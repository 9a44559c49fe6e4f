/* memsys/cache.c — see cache.h.  True LRU by stamps: each use writes the
 * next value of a counter, the victim is the lowest stamp of the set.  A
 * lookup is one scan of the set's tags; a miss adds one scan for the
 * victim.  Evict-first lines get a stamp below every other line of their
 * set, so the counter starts high enough never to wrap below zero. */
#include "memsys/cache.h"
#include "mx/status.h"

#include <stdlib.h>

#define CACHE_FIRST_STAMP (UINT64_C(1) << 62)

int cache_init(struct cache *c, uint32_t sets, uint32_t ways_max)
{
    size_t n = (size_t)sets * ways_max;
    *c = (struct cache){ .sets = sets, .ways_max = ways_max, .ways = ways_max, .now = CACHE_FIRST_STAMP };
    c->tag = malloc((n ? n : 1) * sizeof *c->tag);
    c->stamp = calloc(n ? n : 1, sizeof *c->stamp);
    c->valid = calloc(n ? n : 1, sizeof *c->valid);
    c->dirty = calloc(n ? n : 1, sizeof *c->dirty);
    if (!c->tag || !c->stamp || !c->valid || !c->dirty) {
        cache_fini(c);
        return MX_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        c->tag[i] = CACHE_NO_TAG;
    return MX_OK;
}

void cache_fini(struct cache *c)
{
    free(c->tag);
    free(c->stamp);
    free(c->valid);
    free(c->dirty);
    *c = (struct cache){ 0 };
}

void cache_invalidate(struct cache *c, uint32_t set, uint32_t way)
{
    uint32_t i = cache_slot(c, set, way);
    c->tag[i] = CACHE_NO_TAG;
    c->valid[i] = c->dirty[i] = 0;
}

int cache_insert(struct cache *c, uint32_t set, uint64_t tag, int evict_first, struct cache_victim *v)
{
    *v = (struct cache_victim){ 0 };
    if (!c->ways)
        return -1;
    uint32_t base = cache_slot(c, set, 0), way = UINT32_MAX, lru = 0;
    for (uint32_t w = 0; w < c->ways; w++) {
        if (c->tag[base + w] == CACHE_NO_TAG) {
            way = w; /* the first empty way wins: no eviction */
            break;
        }
        if (w == 0 || c->stamp[base + w] < c->stamp[base + lru])
            lru = w;
    }
    if (way == UINT32_MAX) {
        way = lru;
        v->valid = 1;
        v->tag = c->tag[base + way];
        v->sectors = c->valid[base + way];
        v->dirty = c->dirty[base + way];
    }
    uint32_t i = base + way;
    c->tag[i] = tag;
    c->valid[i] = c->dirty[i] = 0;
    if (evict_first) {
        /* below every other line of the set: the next victim, unless a
         * later evict-first line goes below it (the newest one goes first) */
        uint64_t low = UINT64_MAX;
        for (uint32_t w = 0; w < c->ways; w++)
            if (w != way && c->tag[base + w] != CACHE_NO_TAG && c->stamp[base + w] < low)
                low = c->stamp[base + w];
        c->stamp[i] = low == UINT64_MAX ? c->now++ : low - 1;
    } else {
        c->stamp[i] = c->now++;
    }
    return (int)way;
}

uint32_t cache_set_ways(struct cache *c, uint32_t ways)
{
    if (ways > c->ways_max)
        ways = c->ways_max;
    uint32_t dropped = 0;
    for (uint32_t s = 0; s < c->sets && ways < c->ways; s++)
        for (uint32_t w = ways; w < c->ways; w++) {
            uint32_t i = cache_slot(c, s, w);
            if (c->tag[i] != CACHE_NO_TAG) {
                dropped++;
                cache_invalidate(c, s, w);
            }
        }
    c->ways = ways;
    return dropped;
}

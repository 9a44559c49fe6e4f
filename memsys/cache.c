/* memsys/cache.c — see cache.h: the hash table of present lines, the LRU
 * list of each set and the bitmap of used ways are kept in step by the
 * four operations below (insert, touch, invalidate, shrink). */
#include "memsys/cache.h"
#include "mx/status.h"

#include <stdlib.h>
#include <string.h>

int cache_init(struct cache *c, uint32_t sets, uint32_t ways_max)
{
    size_t n = (size_t)sets * ways_max;
    uint32_t bits = 1;
    while (((size_t)1 << bits) < 2 * n) /* at most half full: short probe runs */
        bits++;
    if (bits > 32) { /* the home index comes from the 32 bits an entry keeps */
        *c = (struct cache){ 0 };
        return MX_ENOMEM;
    }
    *c = (struct cache){ .sets = sets, .ways_max = ways_max, .ways = ways_max, .narrow_from = sets,
                         .words = (ways_max + 63) / 64,
                         .hmask = (uint32_t)(((size_t)1 << bits) - 1), .hshift = 64 - bits };
    n = n ? n : 1;
    c->tag = calloc(n, sizeof *c->tag);
    c->valid = calloc(n, sizeof *c->valid);
    c->dirty = calloc(n, sizeof *c->dirty);
    c->prev = calloc(n, sizeof *c->prev);
    c->next = calloc(n, sizeof *c->next);
    c->head = malloc((sets ? sets : 1) * sizeof *c->head);
    c->tail = malloc((sets ? sets : 1) * sizeof *c->tail);
    c->used = calloc((size_t)(sets ? sets : 1) * (c->words ? c->words : 1), sizeof *c->used);
    c->hash = calloc((size_t)c->hmask + 1, sizeof *c->hash);
    if (!c->tag || !c->valid || !c->dirty || !c->prev || !c->next || !c->head || !c->tail || !c->used ||
        !c->hash) {
        cache_fini(c);
        return MX_ENOMEM;
    }
    for (uint32_t s = 0; s < sets; s++)
        c->head[s] = c->tail[s] = CACHE_NIL;
    return MX_OK;
}

void cache_fini(struct cache *c)
{
    free(c->tag);
    free(c->valid);
    free(c->dirty);
    free(c->prev);
    free(c->next);
    free(c->head);
    free(c->tail);
    free(c->used);
    free(c->hash);
    *c = (struct cache){ 0 };
}

/* ---- the hash table: linear probing, deletion by backward shift (no
 * tombstones, so a lookup stops at the first empty entry) */

static void hash_add(struct cache *c, uint32_t set, uint64_t tag, uint32_t slot)
{
    uint32_t fp = cache_mix(set, tag), i = cache_home(c, fp);
    while (c->hash[i].slot1)
        i = (i + 1) & c->hmask;
    c->hash[i] = (struct cache_hent){ .fp = fp, .slot1 = slot + 1 };
}

/* Removes slot k's entry (its line is c->tag[k] in `set`). */
static void hash_del(struct cache *c, uint32_t set, uint32_t k)
{
    uint32_t i = cache_home(c, cache_mix(set, c->tag[k]));
    while (c->hash[i].slot1 != k + 1)
        i = (i + 1) & c->hmask;
    /* close the gap: move back every later entry of the run whose home is
     * not cyclically in (i, j] */
    for (uint32_t j = i;;) {
        j = (j + 1) & c->hmask;
        if (!c->hash[j].slot1)
            break;
        uint32_t home = cache_home(c, c->hash[j].fp);
        if (((j - home) & c->hmask) >= ((j - i) & c->hmask)) {
            c->hash[i] = c->hash[j];
            i = j;
        }
    }
    c->hash[i].slot1 = 0;
}

/* ---- the LRU list of a set: head MRU, tail LRU */

static void unlink_way(struct cache *c, uint32_t set, uint32_t way)
{
    uint32_t k = cache_slot(c, set, way), p = c->prev[k], n = c->next[k];
    if (p == CACHE_NIL)
        c->head[set] = n;
    else
        c->next[cache_slot(c, set, p)] = n;
    if (n == CACHE_NIL)
        c->tail[set] = p;
    else
        c->prev[cache_slot(c, set, n)] = p;
}

static void push_head(struct cache *c, uint32_t set, uint32_t way)
{
    uint32_t k = cache_slot(c, set, way), h = c->head[set];
    c->prev[k] = CACHE_NIL;
    c->next[k] = h;
    if (h == CACHE_NIL)
        c->tail[set] = way;
    else
        c->prev[cache_slot(c, set, h)] = way;
    c->head[set] = way;
}

static void push_tail(struct cache *c, uint32_t set, uint32_t way)
{
    uint32_t k = cache_slot(c, set, way), t = c->tail[set];
    c->next[k] = CACHE_NIL;
    c->prev[k] = t;
    if (t == CACHE_NIL)
        c->head[set] = way;
    else
        c->next[cache_slot(c, set, t)] = way;
    c->tail[set] = way;
}

void cache_touch(struct cache *c, uint32_t set, uint32_t way)
{
    if (c->head[set] == way)
        return;
    unlink_way(c, set, way);
    push_head(c, set, way);
}

void cache_invalidate(struct cache *c, uint32_t set, uint32_t way)
{
    uint32_t k = cache_slot(c, set, way);
    hash_del(c, set, k);
    unlink_way(c, set, way);
    c->used[(size_t)set * c->words + way / 64] &= ~(1ull << (way % 64));
    c->valid[k] = c->dirty[k] = 0;
}

void cache_clear(struct cache *c)
{
    size_t n = (size_t)c->sets * c->ways_max;
    memset(c->valid, 0, n * sizeof *c->valid);
    memset(c->dirty, 0, n * sizeof *c->dirty);
    memset(c->used, 0, (size_t)c->sets * c->words * sizeof *c->used);
    memset(c->hash, 0, ((size_t)c->hmask + 1) * sizeof *c->hash);
    for (uint32_t s = 0; s < c->sets; s++)
        c->head[s] = c->tail[s] = CACHE_NIL;
}

/* The lowest empty way below the set's limit, or CACHE_NIL. */
static uint32_t empty_way(const struct cache *c, uint32_t set)
{
    const uint64_t *u = c->used + (size_t)set * c->words;
    uint32_t lim = c->ways - (set >= c->narrow_from && c->ways > 1);
    for (uint32_t i = 0; i * 64 < lim; i++) {
        uint64_t free_bits = ~u[i];
        if (free_bits) {
            uint32_t w = i * 64 + (uint32_t)__builtin_ctzll(free_bits);
            return w < lim ? w : CACHE_NIL;
        }
    }
    return CACHE_NIL;
}

int cache_insert(struct cache *c, uint32_t set, uint64_t tag, int evict_first, struct cache_victim *v)
{
    *v = (struct cache_victim){ 0 };
    if (!c->ways)
        return -1;
    uint32_t way = empty_way(c, set);
    if (way == CACHE_NIL) { /* full: the LRU line goes */
        way = c->tail[set];
        uint32_t k = cache_slot(c, set, way);
        *v = (struct cache_victim){ .valid = 1, .tag = c->tag[k], .sectors = c->valid[k], .dirty = c->dirty[k] };
        cache_invalidate(c, set, way);
    }
    uint32_t k = cache_slot(c, set, way);
    c->tag[k] = tag;
    c->valid[k] = c->dirty[k] = 0;
    c->used[(size_t)set * c->words + way / 64] |= 1ull << (way % 64);
    hash_add(c, set, tag, k);
    if (evict_first)
        push_tail(c, set, way);
    else
        push_head(c, set, way);
    return (int)way;
}

uint32_t cache_set_ways(struct cache *c, uint32_t ways)
{
    if (ways > c->ways_max)
        ways = c->ways_max;
    uint32_t dropped = 0;
    for (uint32_t s = 0; s < c->sets && ways < c->ways; s++)
        for (uint32_t w = ways; w < c->ways; w++)
            if (c->used[(size_t)s * c->words + w / 64] >> (w % 64) & 1) {
                dropped++;
                cache_invalidate(c, s, w);
            }
    c->ways = ways;
    return dropped;
}

/* tests/memsys/test_cache.c — memsys/cache.c on its own: LRU victims,
 * evict-first order (the newest evict-first line goes first), the way
 * limit, and a long random run against a naive list model (which also
 * churns the hash table's deletions through collisions). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "memsys/cache.h"
#include "mx/status.h"

static void lru_and_evict_first(void **st)
{
    (void)st;
    struct cache c;
    struct cache_victim v;
    assert_int_equal(cache_init(&c, 2, 4), MX_OK);
    for (uint64_t t = 10; t < 14; t++) /* ways 0..3 of set 1 */
        assert_int_equal(cache_insert(&c, 1, t, 0, &v), (int)(t - 10));
    assert_false(v.valid);
    cache_touch(&c, 1, 0);                        /* order (MRU..LRU): 10 13 12 11 */
    assert_int_equal(cache_insert(&c, 1, 20, 1, &v), 1); /* replaces 11, goes last: 10 13 12 20 */
    assert_true(v.valid);
    assert_int_equal(v.tag, 11);
    assert_int_equal(cache_insert(&c, 1, 21, 1, &v), 1); /* replaces 20: 10 13 12 21 */
    assert_int_equal(v.tag, 20);
    assert_int_equal(cache_insert(&c, 1, 22, 0, &v), 1); /* replaces 21: 22 10 13 12 */
    assert_int_equal(v.tag, 21);
    assert_int_equal(cache_insert(&c, 1, 23, 0, &v), 2); /* replaces 12 (way 2) */
    assert_int_equal(v.tag, 12);
    assert_int_equal(cache_find(&c, 1, 10), 0);
    assert_int_equal(cache_find(&c, 0, 10), -1); /* same tag, other set */
    /* dirty sectors come back with the victim */
    c.valid[cache_slot(&c, 1, 3)] = 0xf;
    c.dirty[cache_slot(&c, 1, 3)] = 0x5;
    cache_insert(&c, 1, 24, 0, &v); /* LRU now: 13 (way 3) */
    assert_int_equal(v.tag, 13);
    assert_int_equal(v.sectors, 0xf);
    assert_int_equal(v.dirty, 0x5);
    /* an evict-first line goes first even when it took an empty way */
    cache_invalidate(&c, 1, 0);
    cache_insert(&c, 1, 30, 1, &v); /* into the empty way 0 */
    assert_false(v.valid);
    cache_insert(&c, 1, 31, 0, &v); /* full: the evict-first line 30 goes */
    assert_int_equal(v.tag, 30);
    cache_fini(&c);
}

static void way_limit(void **st)
{
    (void)st;
    struct cache c;
    struct cache_victim v;
    assert_int_equal(cache_init(&c, 4, 100), MX_OK);
    for (uint64_t t = 0; t < 400; t++)
        cache_insert(&c, (uint32_t)(t % 4), t, 0, &v);
    assert_int_equal(cache_set_ways(&c, 70), 4 * 30);
    assert_int_equal(cache_find(&c, 1, 4 * 69 + 1), 69);
    assert_int_equal(cache_find(&c, 1, 4 * 70 + 1), -1);
    assert_int_equal(cache_set_ways(&c, 70), 0);
    assert_int_equal(cache_set_ways(&c, 1000), 0); /* clamped to 100, new ways empty */
    assert_int_equal(c.ways, 100);
    assert_int_equal(cache_insert(&c, 2, 9999, 0, &v), 70);
    assert_false(v.valid);
    assert_int_equal(cache_set_ways(&c, 0), 4 * 70 + 1);
    assert_int_equal(cache_insert(&c, 2, 5, 0, &v), -1); /* no way in use */
    cache_fini(&c);
}

static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A naive set: tags MRU first. */
struct naive {
    uint64_t t[16];
    int n;
};

/* 300000 random finds, touches, invalidations and insertions against the naive model; the sets from
 * narrow_from on hold one way fewer (memsys.llc.full_sets: BL's LLC with a fraction of a way more). */
static void random_run(uint32_t narrow_from)
{
    enum { SETS = 8, WAYS = 16 };
    struct cache c;
    struct naive nv[SETS];
    memset(nv, 0, sizeof nv);
    assert_int_equal(cache_init(&c, SETS, WAYS), MX_OK);
    c.narrow_from = narrow_from;
    uint64_t s = 5;
    int full_seen[2] = { 0, 0 };
    for (int i = 0; i < 300000; i++) {
        uint64_t x = rnd(&s);
        uint32_t set = (uint32_t)(x % SETS);
        uint64_t tag = x >> 8 & 63; /* 64 tags per set: hits and misses */
        int ef = (x >> 20 & 7) == 0, inval = (x >> 24 & 15) == 0;
        struct naive *n = &nv[set];
        int pos = -1;
        for (int k = 0; k < n->n; k++)
            if (n->t[k] == tag)
                pos = k;
        int w = cache_find(&c, set, tag);
        assert_int_equal(w >= 0, pos >= 0);
        if (pos >= 0) {
            assert_int_equal(c.tag[cache_slot(&c, set, (uint32_t)w)], tag);
            memmove(n->t + pos, n->t + pos + 1, (size_t)(n->n - pos - 1) * sizeof *n->t);
            n->n--;
            if (inval) {
                cache_invalidate(&c, set, (uint32_t)w);
            } else {
                cache_touch(&c, set, (uint32_t)w);
                memmove(n->t + 1, n->t, (size_t)n->n * sizeof *n->t);
                n->t[0] = tag;
                n->n++;
            }
            continue;
        }
        struct cache_victim v;
        int cap = WAYS - (set >= narrow_from);
        int way = cache_insert(&c, set, tag, ef, &v);
        assert_true(way >= 0 && way < cap);
        assert_int_equal(v.valid, n->n == cap);
        full_seen[set >= narrow_from] |= n->n == cap;
        if (n->n == cap)
            assert_int_equal(v.tag, n->t[--n->n]);
        if (ef) {
            n->t[n->n++] = tag;
        } else {
            memmove(n->t + 1, n->t, (size_t)n->n * sizeof *n->t);
            n->t[0] = tag;
            n->n++;
        }
    }
    assert_true(full_seen[0]); /* both kinds of set filled up and evicted */
    assert_true(full_seen[1] || narrow_from >= SETS);
    cache_fini(&c);
}

static void random_against_naive(void **st)
{
    (void)st;
    random_run(UINT32_MAX);
}

/* sets 3..7 hold 15 lines, 0..2 all 16 */
static void narrow_sets_against_naive(void **st)
{
    (void)st;
    random_run(3);
}

/* Lines whose (set, tag) hashes agree in the 32 bits an entry keeps (found by a birthday search) are told apart by
 * their tags: one present does not make the other found, both can be present, and removing one keeps the other. */
struct mixtag {
    uint32_t mix;
    uint64_t tag;
};

static int by_mix(const void *a, const void *b)
{
    const struct mixtag *x = a, *y = b;
    return x->mix < y->mix ? -1 : x->mix > y->mix ? 1 : x->tag < y->tag ? -1 : x->tag > y->tag;
}

static void colliding_hashes(void **st)
{
    (void)st;
    enum { N = 300000 };
    struct mixtag *v = malloc(N * sizeof *v);
    assert_non_null(v);
    uint64_t s = 11;
    for (int i = 0; i < N; i++) {
        v[i].tag = rnd(&s) >> 20;
        v[i].mix = cache_mix(1, v[i].tag);
    }
    qsort(v, N, sizeof *v, by_mix);
    uint64_t t1 = 0, t2 = 0;
    for (int i = 1; i < N && t1 == t2; i++)
        if (v[i].mix == v[i - 1].mix && v[i].tag != v[i - 1].tag)
            t1 = v[i - 1].tag, t2 = v[i].tag;
    free(v);
    assert_true(t1 != t2); /* about 10 such pairs are expected among 300000 tags */
    struct cache c;
    assert_int_equal(cache_init(&c, 4, 8), MX_OK);
    struct cache_victim vic;
    int w1 = cache_insert(&c, 1, t1, 0, &vic);
    assert_true(w1 >= 0);
    assert_int_equal(cache_find(&c, 1, t2), -1);
    int w2 = cache_insert(&c, 1, t2, 0, &vic);
    assert_true(w2 >= 0 && w2 != w1);
    assert_int_equal(cache_find(&c, 1, t1), w1);
    assert_int_equal(cache_find(&c, 1, t2), w2);
    assert_int_equal(cache_find(&c, 0, t1), -1); /* the same tag in another set */
    cache_invalidate(&c, 1, (uint32_t)w1);
    assert_int_equal(cache_find(&c, 1, t1), -1);
    assert_int_equal(cache_find(&c, 1, t2), w2);
    cache_fini(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lru_and_evict_first),
        cmocka_unit_test(way_limit),
        cmocka_unit_test(random_against_naive),
        cmocka_unit_test(narrow_sets_against_naive),
        cmocka_unit_test(colliding_hashes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

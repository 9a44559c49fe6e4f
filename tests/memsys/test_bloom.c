/* tests/memsys/test_bloom.c — the Morpheus hit/miss predictor against an
 * exact LRU set: never a false negative (the paper's invariant), a false-
 * positive rate near the analytical one, swaps happening, H3 bits in range. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "memsys/bloom.h"

static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Exact LRU set of `assoc` ways: returns 1 on hit; inserts/moves to MRU. */
static int lru_access(uint64_t *ways, unsigned *n, unsigned assoc, uint64_t b)
{
    for (unsigned i = 0; i < *n; i++)
        if (ways[i] == b) {
            memmove(ways + 1, ways, i * sizeof *ways);
            ways[0] = b;
            return 1;
        }
    if (*n < assoc)
        (*n)++;
    memmove(ways + 1, ways, (*n - 1) * sizeof *ways);
    ways[0] = b;
    return 0;
}

/* Checks zero false negatives on every access, and that the pure hash-
 * collision rate (probes of keys never inserted) stays near the analytical
 * rate of a 256-bit partitioned filter holding at most 2*assoc keys, which
 * is what BF1 holds between swaps: (1 - (1 - k/m)^(2 assoc))^k. */
static void run(unsigned assoc, unsigned k, unsigned universe)
{
    struct bloom_h3 h;
    struct bloom_pred p;
    bloom_h3_init(&h, k, 42);
    bloom_pred_init(&p, assoc);
    uint64_t ways[64], s = assoc * 7919u + k;
    unsigned n = 0, misses = 0, probes = 0, fps = 0;
    for (int i = 0; i < 200000; i++) {
        /* skewed stream: a hot subset plus a cold tail, block addresses spread out */
        uint64_t r = rnd(&s);
        uint64_t b = ((r & 3) ? r % (assoc + assoc / 2) : r % universe) * 0x1040 + 0x7000000000ull;
        int pred = bloom_pred_query(&p, &h, b);
        int hit = lru_access(ways, &n, assoc, b);
        if (hit)
            assert_true(pred); /* zero false negatives */
        misses += !hit;
        bloom_pred_access(&p, &h, b);
        /* a key from outside the stream's address range: never inserted */
        uint64_t fresh = (rnd(&s) | 1) * 0x1040 + 0x9000000000ull;
        fps += bloom_pred_query(&p, &h, fresh);
        probes++;
    }
    assert_true(p.swaps > 100);
    assert_true(misses > 1000);
    double fp = (double)fps / probes;
    double bound = pow(1.0 - pow(1.0 - (double)k / BLOOM_BITS, 2.0 * assoc), k);
    fprintf(stderr, "assoc %u k %u: collision rate %.4f (analytical bound %.4f), %u misses, %u swaps\n", assoc, k, fp, bound,
            misses, p.swaps);
    assert_true(fp <= 1.2 * bound + 0.002);
    assert_true(fp > 0.0); /* the probe really tests something */
}

static void no_false_negatives_assoc16(void **st) { (void)st; run(16, 4, 4096); }
static void no_false_negatives_assoc32(void **st) { (void)st; run(32, 4, 4096); }
static void no_false_negatives_assoc8_k2(void **st) { (void)st; run(8, 2, 1 << 20); }

static void h3_partitioned_bits(void **st)
{
    (void)st;
    struct bloom_h3 h;
    bloom_h3_init(&h, 4, 7);
    uint64_t s = 1;
    unsigned count[BLOOM_BITS] = { 0 };
    for (int i = 0; i < 100000; i++) {
        uint64_t b = rnd(&s);
        for (unsigned j = 0; j < 4; j++) {
            unsigned bit = bloom_h3_bit(&h, j, b);
            assert_true(bit >= j * 64 && bit < (j + 1) * 64);
            count[bit]++;
        }
        /* H3 is linear: h(a ^ b) = h(a) ^ h(b) before the modulo; the zero key maps to bit j*64 */
    }
    for (unsigned j = 0; j < 4; j++)
        assert_int_equal(bloom_h3_bit(&h, j, 0), j * 64);
    for (unsigned b = 0; b < BLOOM_BITS; b++) /* uniform: 100000/64 = 1562 per bit on average */
        assert_true(count[b] > 1200 && count[b] < 1950);
}

/* Regression: assoc was kept in 16 bits, so 65536 (a compressed set of
 * 16384 ways x 4 blocks) became 0 and BF1 was cleared on every access:
 * the second block inserted made the first a false negative. */
static void regress_assoc_65536_truncated(void **st)
{
    (void)st;
    struct bloom_h3 h;
    struct bloom_pred p;
    bloom_h3_init(&h, 4, 42);
    bloom_pred_init(&p, 65536);
    assert_int_equal(p.assoc, 65536);
    for (uint64_t b = 1; b <= 100; b++) {
        bloom_pred_access(&p, &h, b * 0x1040);
        for (uint64_t a = 1; a <= b; a++)
            assert_true(bloom_pred_query(&p, &h, a * 0x1040));
    }
    assert_int_equal(p.swaps, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_false_negatives_assoc16),
        cmocka_unit_test(no_false_negatives_assoc32),
        cmocka_unit_test(no_false_negatives_assoc8_k2),
        cmocka_unit_test(h3_partitioned_bits),
        cmocka_unit_test(regress_assoc_65536_truncated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

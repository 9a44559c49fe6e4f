/* tests/memsys/test_bdi.c — BDI compressed sizes (memsys/bdi.c) against
 * blocks built by hand for each encoding, with the sizes of the BDI table
 * for 128-byte lines (B + 128/B * D bytes; facts/gpu-parameters.md §3.1)
 * and the Morpheus level each falls into (32, 64, 128 bytes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "memsys/bdi.h"

static void put(uint8_t *blk, unsigned size, unsigned i, uint64_t v)
{
    for (unsigned b = 0; b < size; b++)
        blk[i * size + b] = (uint8_t)(v >> 8 * b);
}

static void expect(const uint8_t *blk, enum bdi_enc enc, unsigned bytes, unsigned level)
{
    enum bdi_enc got;
    assert_int_equal(bdi_compressed_size(blk, &got), bytes);
    assert_int_equal(got, enc);
    assert_int_equal(bdi_size(blk), level);
}

static void zeros(void **st)
{
    (void)st;
    uint8_t b[128] = { 0 };
    expect(b, BDI_ZEROS, 1, 32);
}

static void repeated_8byte(void **st)
{
    (void)st;
    uint8_t b[128];
    for (unsigned i = 0; i < 16; i++)
        put(b, 8, i, 0x0123456789abcdefull);
    expect(b, BDI_REP8, 8, 32);
}

/* 16 pointers near one base, half of them small integers (immediates of
 * the zero base): base8-delta1 = 8 + 16 x 1 = 24 bytes, the high level */
static void base8_delta1(void **st)
{
    (void)st;
    uint8_t b[128];
    for (unsigned i = 0; i < 16; i++)
        put(b, 8, i, i % 2 ? 0x7fff123400000000ull + i * 5 : i);
    expect(b, BDI_B8D1, 24, 32);
}

/* deltas up to 4500: base8-delta2 = 8 + 16 x 2 = 40 bytes, the low level */
static void base8_delta2(void **st)
{
    (void)st;
    uint8_t b[128];
    for (unsigned i = 0; i < 16; i++)
        put(b, 8, i, 0x1234567800000000ull + i * 300);
    expect(b, BDI_B8D2, 40, 64);
}

/* deltas up to 1.5 million: base8-delta4 = 8 + 16 x 4 = 72 bytes, which
 * no level below 128 holds */
static void base8_delta4(void **st)
{
    (void)st;
    uint8_t b[128];
    for (unsigned i = 0; i < 16; i++)
        put(b, 8, i, 0x1234567800000000ull + i * 100000);
    expect(b, BDI_B8D4, 72, 128);
}

/* 32 4-byte values near 0x40000000 (the 8-byte view has deltas of 2^33):
 * base4-delta1 = 4 + 32 x 1 = 36 bytes, the low level */
static void base4_delta1(void **st)
{
    (void)st;
    uint8_t b[128];
    for (unsigned i = 0; i < 32; i++)
        put(b, 4, i, 0x40000000u + i);
    expect(b, BDI_B4D1, 36, 64);
}

/* 4-byte values 1000 apart: base4-delta2 = 4 + 32 x 2 = 68 bytes */
static void base4_delta2(void **st)
{
    (void)st;
    uint8_t b[128];
    for (unsigned i = 0; i < 32; i++)
        put(b, 4, i, 0x40000000u + i * 1000);
    expect(b, BDI_B4D2, 68, 128);
}

/* 64 2-byte values near 0x7f00, 4-byte pairs differing by up to 49 << 16:
 * base2-delta1 = 2 + 64 x 1 = 66 bytes */
static void base2_delta1(void **st)
{
    (void)st;
    uint8_t b[128];
    for (unsigned i = 0; i < 64; i++)
        put(b, 2, i, 0x7f00u + (i * 7) % 50);
    expect(b, BDI_B2D1, 66, 128);
}

/* The delta is a signed byte: -128 fits, +128 does not. */
static void delta_range_edges(void **st)
{
    (void)st;
    uint8_t b[128];
    for (unsigned i = 0; i < 16; i++)
        put(b, 8, i, 0x5000000000000000ull - (i == 3 ? 128 : 0));
    expect(b, BDI_B8D1, 24, 32);
    put(b, 8, 3, 0x5000000000000000ull + 128);
    expect(b, BDI_B8D2, 40, 64);
    /* immediates too: -128 from the zero base fits, 128 does not (then it
     * is the explicit base, and 0x5000... fits neither) */
    for (unsigned i = 0; i < 16; i++)
        put(b, 8, i, (uint64_t)-128);
    put(b, 8, 5, 0x5000000000000000ull);
    expect(b, BDI_B8D1, 24, 32);
    put(b, 8, 6, 128);
    assert_int_not_equal(bdi_compressed_size(b, NULL), 24);
}

static void random_bytes_incompressible(void **st)
{
    (void)st;
    uint8_t b[128];
    uint64_t s = 12345;
    for (unsigned i = 0; i < 16; i++) {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        put(b, 8, i, z ^ (z >> 31));
    }
    expect(b, BDI_RAW, 128, 128);
}

static void levels(void **st)
{
    (void)st;
    assert_int_equal(bdi_level(1), 32);
    assert_int_equal(bdi_level(32), 32);
    assert_int_equal(bdi_level(33), 64);
    assert_int_equal(bdi_level(64), 64);
    assert_int_equal(bdi_level(65), 128);
    assert_int_equal(bdi_level(128), 128);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zeros),        cmocka_unit_test(repeated_8byte), cmocka_unit_test(base8_delta1),
        cmocka_unit_test(base8_delta2), cmocka_unit_test(base8_delta4),   cmocka_unit_test(base4_delta1),
        cmocka_unit_test(base4_delta2), cmocka_unit_test(base2_delta1),   cmocka_unit_test(delta_range_edges),
        cmocka_unit_test(random_bytes_incompressible), cmocka_unit_test(levels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

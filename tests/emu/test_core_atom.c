/* tests/emu/test_core_atom.c — emu-core: atom/red on global and shared
 * memory, every operation and type, many lanes on one address, CAS loops,
 * histograms; and identical results with 1 and 4 host threads (kernels in
 * ptx/atom.ptx). */
#include "test_core.h"

#include <stdlib.h>

static float f32_at(const uint32_t *w) { float f; memcpy(&f, w, 4); return f; }
static double f64_at(const uint64_t *w) { double d; memcpy(&d, w, 8); return d; }

enum { GRID = 3, BLOCK = 100, T = GRID * BLOCK };

static uint32_t splitmix32(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)(z ^ (z >> 31));
}

MX_TEST(atom_every_op_global_and_shared)
{
    struct ct c;
    ct_open_file(&c, "atom.ptx");
    uint32_t slots[64] = { 0 };
    uint64_t *s64 = (uint64_t *)(void *)slots; /* u64 view: slot k at byte 8k */
    slots[1] = 0x7fffffff;
    slots[2] = 0x80000000;
    slots[3] = 0xffffffff;
    slots[10] = 0x5555;
    slots[8] = 0xffffffff;
    slots[12] = 7;
    slots[13] = 0x80000000;
    slots[14] = 0x100;
    float one = 1.0f;
    memcpy(&slots[16], &one, 4);
    slots[17] = 0xffffffff;
    s64[17] = ~0ull;
    s64[19] = (uint64_t)INT64_MAX;
    s64[20] = (uint64_t)INT64_MIN;
    s64[23] = ~0ull;
    uint32_t in[T];
    uint64_t seed = 42;
    for (int i = 0; i < T; i++)
        in[i] = splitmix32(&seed);
    uint64_t dslots = ct_alloc(&c, sizeof slots, slots), dolds = ct_alloc(&c, T * 16, NULL), din = ct_alloc(&c, sizeof in, in);
    uint64_t dhist = ct_alloc(&c, 64, NULL), dhist2 = ct_alloc(&c, 64, NULL), dsout = ct_alloc(&c, GRID * 64, NULL);
    ct_run(&c, "atoms", D3(GRID, 1, 1), D3(BLOCK, 1, 1), 0, 6, dslots, dolds, din, dhist, dhist2, dsout);

    /* ---- the C reference */
    uint32_t w[64];
    memcpy(w, slots, sizeof w);
    uint64_t *w64 = (uint64_t *)(void *)w;
    uint32_t inc_count[17] = { 0 }, dec_count[13] = { 0 }, hist[16] = { 0 };
    for (uint32_t g = 0; g < T; g++) {
        int32_t v1 = (int32_t)((g * 37) % 1001) - 500;
        uint32_t v2 = g * 0x9E3779B1u;
        uint64_t v3 = (uint64_t)g * 0x9E3779B97F4A7C15ull;
        int64_t v4 = (int64_t)v3 >> 3;
        w[0] += g + 1;
        if (v1 < (int32_t)w[1]) w[1] = (uint32_t)v1;
        if (v1 > (int32_t)w[2]) w[2] = (uint32_t)v1;
        if (v2 < w[3]) w[3] = v2;
        if (v2 > w[4]) w[4] = v2;
        inc_count[w[5]]++;
        w[5] = w[5] >= 16 ? 0 : w[5] + 1;
        dec_count[w[6]]++;
        w[6] = (w[6] == 0 || w[6] > 12) ? 12 : w[6] - 1;
        w[8] &= ~(1u << (g % 29));
        w[9] |= 1u << (g % 23);
        w[10] ^= g * 0x9e3779b9u;
        w[11] += g + 1;
        w[12] += 3;
        if (v1 > (int32_t)w[13]) w[13] = (uint32_t)v1;
        w[14] |= 1u << (g % 7);
        if (v2 < w[17]) w[17] = v2;
        w64[16] += (uint64_t)g << 32 | 0xffffffffu;
        if (v3 < w64[17]) w64[17] = v3;
        if (v3 > w64[18]) w64[18] = v3;
        if (v4 < (int64_t)w64[19]) w64[19] = (uint64_t)v4;
        if (v4 > (int64_t)w64[20]) w64[20] = (uint64_t)v4;
        w64[22] += (uint64_t)(g + 1) << 20;
        w64[23] &= ~(1ull << (g % 61));
        w64[24] |= 1ull << (g % 50);
        w64[25] ^= v3;
        w64[27] += (uint64_t)(g + 1) * 1000000007ull;
        hist[in[g] & 15]++;
    }
    float f15 = T * 0.5f, f16 = 1.0f + T * 0.25f;
    double f26 = T * 0.25;
    memcpy(&w[15], &f15, 4);
    memcpy(&w[16], &f16, 4);
    memcpy(&w64[26], &f26, 8);

    uint32_t got[64], olds[T * 4], gh[16], gh2[16];
    ct_read(&c, got, dslots, sizeof got);
    ct_read(&c, olds, dolds, sizeof olds);
    ct_read(&c, gh, dhist, sizeof gh);
    ct_read(&c, gh2, dhist2, sizeof gh2);
    /* the exchanged slots depend on the order: checked below through the olds */
    uint32_t exch_final = got[7];
    uint64_t exch64_final;
    memcpy(&exch64_final, &got[42], 8);
    got[7] = w[7];
    memcpy(&got[42], &w64[21], 8);
    assert_true(f32_at(&got[15]) == 150.0f && f32_at(&got[16]) == 76.0f && f64_at((uint64_t *)(void *)&got[52]) == 75.0);
    assert_u32_array(got, w, 64);
    assert_u32_array(gh, hist, 16);
    assert_u32_array(gh2, hist, 16);

    /* inc/dec: the old values are the first T of the cyclic sequence; exch:
     * the olds plus the final value are exactly {0, 1, ..., T} */
    uint32_t ginc[17] = { 0 }, gdec[13] = { 0 };
    uint8_t seen[T + 1] = { 0 }, seen64[T + 1] = { 0 };
    for (uint32_t g = 0; g < T; g++) {
        assert_true(olds[4 * g] <= 16 && olds[4 * g + 1] <= 12 && olds[4 * g + 2] <= T && olds[4 * g + 3] <= T);
        ginc[olds[4 * g]]++;
        gdec[olds[4 * g + 1]]++;
        seen[olds[4 * g + 2]]++;
        seen64[olds[4 * g + 3]]++;
    }
    assert_u32_array(ginc, inc_count, 17);
    assert_u32_array(gdec, dec_count, 13);
    assert_true(exch_final >= 1 && exch_final <= T);
    seen[exch_final]++;
    uint64_t lo = exch64_final & 0xffffffffu;
    assert_true(lo >= 1 && lo <= T && exch64_final == (lo << 40 | lo));
    seen64[lo]++;
    for (uint32_t v = 0; v <= T; v++) {
        if (seen[v] != 1 || seen64[v] != 1)
            fail_msg("exch: value %u seen %u times (b32), %u times (b64)", v, seen[v], seen64[v]);
    }

    /* shared slots of every CTA */
    uint32_t sout[GRID * 16];
    ct_read(&c, sout, dsout, sizeof sout);
    for (uint32_t b = 0; b < GRID; b++) {
        uint32_t s[16] = { 0, 0x7fffffff };
        uint64_t *ss = (uint64_t *)(void *)s;
        for (uint32_t t = 0; t < BLOCK; t++) {
            uint32_t g = b * BLOCK + t;
            int32_t v1 = (int32_t)((g * 37) % 1001) - 500;
            uint64_t v3 = (uint64_t)g * 0x9E3779B97F4A7C15ull;
            s[0] += t + 1;
            if (v1 < (int32_t)s[1]) s[1] = (uint32_t)v1;
            s[2] += t * 3;
            s[3] = s[3] >= 100 ? 0 : s[3] + 1;
            s[4] += 2;
            s[5] ^= t * 0x01010101u;
            ss[4] += (uint64_t)t << 33;
            if (v3 > ss[5]) ss[5] = v3;
        }
        float f = BLOCK * 1.5f;
        double d = BLOCK * -0.5;
        memcpy(&s[12], &f, 4);
        memcpy(&ss[7], &d, 8);
        assert_u32_array(sout + 16 * b, s, 16);
    }
    ct_close(&c);
}

/* The same multi-CTA histogram with 1 and 4 host threads: identical bins
 * and identical instruction counts. */
MX_TEST(atom_histogram_host_threads_identical)
{
    enum { N = 64 * 256 + 77 };
    uint32_t *in = malloc(N * 4);
    assert_non_null(in);
    uint64_t seed = 9;
    for (int i = 0; i < N; i++)
        in[i] = splitmix32(&seed) & 0xffff;
    uint32_t ref[256] = { 0 };
    for (int i = 0; i < N; i++) {
        ref[in[i] & 255]++;
        ref[(in[i] >> 8) & 255]++;
    }
    uint32_t got[2][256];
    struct emu_stats st[2];
    for (int k = 0; k < 2; k++) {
        struct emu_config cfg;
        emu_config_default(&cfg);
        cfg.host_threads = k ? 4 : 1;
        struct ct c;
        ct_open_file_cfg(&c, "atom.ptx", &cfg);
        uint64_t din = ct_alloc(&c, N * 4, in), dh = ct_alloc(&c, sizeof ref, NULL);
        ct_run(&c, "histo", D3((N + 255) / 256, 1, 1), D3(256, 1, 1), 0, 3, din, dh, (uint64_t)N);
        ct_read(&c, got[k], dh, sizeof got[k]);
        st[k] = c.stats;
        ct_close(&c);
        assert_u32_array(got[k], ref, 256);
    }
    assert_int_equal(st[0].warp_insns, st[1].warp_insns);
    assert_int_equal(st[0].thread_insns, st[1].thread_insns);
    assert_int_equal(st[0].ctas, st[1].ctas);
    assert_int_equal(st[0].warps, st[1].warps);
    free(in);
}

/* atom.add.f32 / red.add.f32 flush subnormals on global memory and keep
 * them on shared memory (PTX ISA, "atom": "Current implementation of
 * atom.add.f32 on global memory flushes subnormal inputs and results to
 * sign-preserving zero; whereas atom.add.f32 on shared memory supports
 * subnormal inputs and results"). */
MX_TEST(atom_add_f32_subnormals_global_flush_shared_keep)
{
    struct ct c;
    ct_open_file(&c, "atom.ptx");
    const uint32_t sub = 0x00200000, nsub = 0x80200000; /* +-2^-130 */
    uint32_t g[6] = { 0, sub, 0x80000000, 0x3f800000, 0, 0 };
    uint64_t dg = ct_alloc(&c, sizeof g, g), dout = ct_alloc(&c, 32, NULL);
    ct_run(&c, "atom_ftz", D3(1, 1, 1), D3(1, 1, 1), 0, 2, dg, dout);
    uint32_t got[8], gg[6];
    ct_read(&c, got, dout, sizeof got);
    ct_read(&c, gg, dg, sizeof gg);
    /* the old values come back as they were */
    uint32_t want_old[4] = { 0, sub, 0x80000000, 0x3f800000 };
    assert_u32_array(got, want_old, 4);
    /* global: 0 + sub -> 0; sub + 0 -> +0 (flushed input); -0 + -sub -> -0; 1 + sub -> 1;
     * red: 0 + sub -> 0; generic address to global: 0 + sub -> 0 */
    uint32_t want_g[6] = { 0, 0, 0x80000000, 0x3f800000, 0, 0 };
    assert_u32_array(gg, want_g, 6);
    /* shared keeps subnormals: 3 * 2^-130, -2^-130, and 2^-130 through a generic address */
    uint32_t want_s[4] = { 3 * sub, nsub, sub, 0 };
    assert_u32_array(got + 4, want_s, 4);
    ct_close(&c);
}

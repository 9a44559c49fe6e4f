/* tests/emu/test_overlay.c — emu-core: an SM's view of global memory within
 * a quantum (emu/overlay.c).  Kernels of ptx/overlay.ptx race on global
 * memory across SMs, store bytes of one block from several SMs, and mix an
 * SM's own stores and reductions; what they leave is compared with C
 * references where the program is race-free, and between 1, 2 and 3 host
 * threads (and repeated runs) where it is not. */
#include "test_core.h"

#include <math.h>
#include <stdlib.h>

enum { RACE_CTAS = 24, RACE_THREADS = RACE_CTAS * 32, RACE_N = 97, RACE_ROUNDS = 40 };

struct race_run {
    uint32_t out[RACE_THREADS * RACE_ROUNDS];
    uint32_t a[RACE_N + 1];
    float f;
    struct emu_stats st;
};

static void race_one(uint32_t threads, struct race_run *r)
{
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.num_sms = 6;
    cfg.max_ctas_per_sm = 2;
    cfg.quantum = 53;
    cfg.host_threads = threads;
    struct ct c;
    ct_open_file_cfg(&c, "overlay.ptx", &cfg);
    uint64_t a = ct_alloc(&c, sizeof r->a, NULL), out = ct_alloc(&c, sizeof r->out, NULL), f = ct_alloc(&c, 4, NULL);
    ct_run(&c, "race", D3(RACE_CTAS, 1, 1), D3(32, 1, 1), 0, 5, a, out, (uint64_t)RACE_N, (uint64_t)RACE_ROUNDS, f);
    ct_read(&c, r->out, out, sizeof r->out);
    ct_read(&c, r->a, a, sizeof r->a);
    ct_read(&c, &r->f, f, 4);
    r->st = c.stats;
    ct_close(&c);
}

/* Whether value v (0: the initial one) may be found at a[i]: written there
 * by some thread h in some round q. */
static int race_written(uint32_t i, uint32_t v)
{
    if (!v)
        return 1;
    uint32_t h = (v - 1) / 1000, q = (v - 1) % 1000;
    return h < RACE_THREADS && q < RACE_ROUNDS && (3 * h + 5 * q) % RACE_N == i;
}

/* Threads on different SMs store to and load from the same words without
 * synchronisation, so what each load returns depends on the order of the
 * SMs' accesses.  That order is the global clock's, not the host's: every
 * value, the float sum of atomics and the statistics are the same for 1, 2
 * and 3 host threads and from run to run; every value loaded is one that
 * was stored there (or the initial 0), and some were stored by other CTAs. */
MX_TEST(overlay_races_between_sms_are_the_same_for_every_host_thread_count)
{
    static struct race_run r[4];
    const uint32_t th[4] = { 1, 2, 3, 2 };
    for (int k = 0; k < 4; k++)
        race_one(th[k], &r[k]);
    uint32_t foreign = 0;
    for (uint32_t g = 0; g < RACE_THREADS; g++)
        for (uint32_t q = 0; q < RACE_ROUNDS; q++) {
            uint32_t v = r[0].out[g * RACE_ROUNDS + q], i = (7 * g + q) % RACE_N;
            if (!race_written(i, v))
                fail_msg("thread %u round %u loaded %u from a[%u], which nobody stored there", g, q, v, i);
            foreign += v && (v - 1) / 1000 / 32 != g / 32;
        }
    assert_true(foreign > 100); /* the test does observe other SMs' stores */
    for (uint32_t i = 0; i < RACE_N; i++)
        assert_true(race_written(i, r[0].a[i]));
    assert_int_equal(r[0].a[RACE_N], RACE_THREADS);
    double want = 0;
    for (uint32_t g = 0; g < RACE_THREADS; g++)
        want += (double)(float)((float)(g + 1) * 0.1f);
    assert_true(fabs(r[0].f - want) < want * 1e-4);
    for (int k = 1; k < 4; k++) {
        assert_u32_array(r[k].out, r[0].out, RACE_THREADS * RACE_ROUNDS);
        assert_u32_array(r[k].a, r[0].a, RACE_N + 1);
        assert_memory_equal(&r[k].f, &r[0].f, 4);
        assert_int_equal(r[k].st.warp_insns, r[0].st.warp_insns);
        assert_int_equal(r[k].st.thread_insns, r[0].st.thread_insns);
        assert_u64_array(r[k].st.unit_insns, r[0].st.unit_insns, 16);
    }
}

/* Eight SMs store interleaved bytes of one 4 KiB block in the same quanta:
 * each SM's copy of the block holds the others' bytes as they were, and
 * only the bytes an SM stored are merged, so every byte is right. */
MX_TEST(overlay_bytes_of_one_block_from_eight_sms_all_arrive)
{
    for (uint32_t th = 1; th <= 2; th++) {
        struct emu_config cfg;
        emu_config_default(&cfg);
        cfg.num_sms = 8;
        cfg.quantum = 5;
        cfg.host_threads = th;
        struct ct c;
        ct_open_file_cfg(&c, "overlay.ptx", &cfg);
        uint8_t init[4096], got[4096];
        for (int i = 0; i < 4096; i++)
            init[i] = (uint8_t)(i * 7 + 3);
        uint64_t b = ct_alloc(&c, sizeof init, init);
        ct_run(&c, "bytes", D3(8, 1, 1), D3(32, 1, 1), 0, 1, b);
        ct_read(&c, got, b, sizeof got);
        for (uint32_t i = 0; i < 8; i++)
            for (uint32_t t = 0; t < 32; t++)
                for (uint32_t j = 0; j < 16; j++) {
                    uint32_t at = (16 * t + j) * 8 + i;
                    if (got[at] != (uint8_t)(31 * i + t + j))
                        fail_msg("%u host threads: byte %u (CTA %u thread %u step %u) is %u, want %u", th, at, i, t, j,
                                 got[at], (uint8_t)(31 * i + t + j));
                }
        ct_close(&c);
    }
}

/* A thread sees its own stores and reductions at once, a store after a
 * reduction replaces it (also over half of a 64-bit reduction), a reduction
 * after a store adds to it, and reductions of every SM on one word all
 * count. */
MX_TEST(overlay_own_stores_and_reductions_in_program_order)
{
    enum { CTAS = 4, NT = CTAS * 64 };
    for (uint32_t th = 1; th <= 2; th++) {
        struct emu_config cfg;
        emu_config_default(&cfg);
        cfg.num_sms = 4;
        cfg.quantum = 11;
        cfg.host_threads = th;
        struct ct c;
        ct_open_file_cfg(&c, "overlay.ptx", &cfg);
        uint32_t y0[NT];
        uint64_t z0[NT];
        for (uint32_t i = 0; i < NT; i++) {
            y0[i] = i * 11;
            z0[i] = (uint64_t)i << 40 | 0xfffffff0u;
        }
        int32_t mx0 = -1000;
        uint64_t x = ct_alloc(&c, NT * 4, NULL), y = ct_alloc(&c, NT * 4, y0), z = ct_alloc(&c, NT * 8, z0),
                 cnt = ct_alloc(&c, 4, NULL), mx = ct_alloc(&c, 4, &mx0), out = ct_alloc(&c, NT * 4, NULL);
        ct_run(&c, "own", D3(CTAS, 1, 1), D3(64, 1, 1), 0, 6, x, y, z, cnt, mx, out);
        uint32_t gx[NT], gy[NT], gout[NT], gcnt, want6[NT], want8[NT];
        uint64_t gz[NT], wz[NT];
        int32_t gmx, wmx = -1000;
        ct_read(&c, gx, x, sizeof gx);
        ct_read(&c, gy, y, sizeof gy);
        ct_read(&c, gz, z, sizeof gz);
        ct_read(&c, gout, out, sizeof gout);
        ct_read(&c, &gcnt, cnt, 4);
        ct_read(&c, &gmx, mx, 4);
        for (uint32_t i = 0; i < NT; i++) {
            want6[i] = 6;
            want8[i] = 8;
            wz[i] = ((z0[i] + 0x100000001ull) & ~0xffffffffull) | 9;
            int32_t v = (int32_t)(i * 37 % 1000) - 500;
            wmx = v > wmx ? v : wmx;
        }
        assert_u32_array(gout, want6, NT);
        assert_u32_array(gx, want6, NT);
        assert_u32_array(gy, want8, NT);
        assert_u64_array(gz, wz, NT);
        assert_int_equal(gcnt, NT);
        assert_int_equal(gmx, wmx);
        ct_close(&c);
    }
}

/* Warps of one CTA share global memory within a quantum: a warp that read
 * a block before another warp of its SM stored to it reads the stores
 * after the barrier. */
MX_TEST(overlay_warps_of_a_cta_see_each_others_stores)
{
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.quantum = 100000;
    struct ct c;
    ct_open_file_cfg(&c, "overlay.ptx", &cfg);
    uint32_t init[128], got[128], want[128];
    for (uint32_t i = 0; i < 128; i++)
        init[i] = 1000 + i;
    uint64_t g = ct_alloc(&c, sizeof init, init), out = ct_alloc(&c, sizeof got, NULL);
    ct_run(&c, "vis", D3(1, 1, 1), D3(64, 1, 1), 0, 2, g, out);
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < 64; t++) {
        want[t] = (t & 31) + 100;
        want[64 + t] = 1000 + t + 64;
    }
    assert_u32_array(got, want, 128);
    ct_close(&c);
}

/* tests/emu/test_core_sync.c — emu-core: CTA barriers (a tree reduction,
 * bar.red popc/and/or) and the warp-level instructions (vote, shfl with the
 * clamp/segment operand, match, redux, lane masks), each checked against a
 * C model written from the PTX ISA definitions (kernels in ptx/sync.ptx). */
#include "test_core.h"

#include <stdlib.h>

static uint32_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)(z ^ (z >> 31));
}

MX_TEST(sync_tree_reduction_256_threads)
{
    struct ct c;
    ct_open_file(&c, "sync.ptx");
    enum { B = 256, G = 4 };
    uint32_t in[B * G], want[G] = { 0 }, got[G];
    uint64_t s = 3;
    for (int i = 0; i < B * G; i++) {
        in[i] = mix(&s) % 100000;
        want[i / B] += in[i];
    }
    uint64_t din = ct_alloc(&c, sizeof in, in), dout = ct_alloc(&c, sizeof got, NULL);
    ct_run(&c, "reduce", D3(G, 1, 1), D3(B, 1, 1), 0, 2, din, dout);
    ct_read(&c, got, dout, sizeof got);
    assert_u32_array(got, want, G);
    ct_close(&c);
}

MX_TEST(sync_bar_red_popc_and_or)
{
    static const uint32_t cases[][2] = { { 96, 96 }, { 96, 70 }, { 80, 80 }, { 64, 1 }, { 128, 3 } }; /* block, live */
    struct ct c;
    ct_open_file(&c, "sync.ptx");
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint32_t nb = cases[k][0], live = cases[k][1];
        uint32_t *got = calloc(nb * 8, 4), *want = calloc(nb * 8, 4);
        assert_non_null(got);
        assert_non_null(want);
        uint64_t out = ct_alloc(&c, nb * 32, NULL);
        ct_run(&c, "barred", D3(2, 1, 1), D3(nb, 1, 1), 0, 2, out, (uint64_t)live);
        ct_read(&c, got, out, nb * 32);
        uint32_t popc = 0;
        for (uint32_t t = 0; t < live; t++)
            popc += t % 3 == 0;
        for (uint32_t t = 0; t < live; t++) {
            uint32_t *w = want + 8 * t;
            w[0] = popc;
            w[1] = popc == live;
            w[2] = popc != 0;
            w[3] = live - popc;
            w[4] = 1;
            w[5] = 0;
        }
        assert_u32_array(got, want, nb * 8);
        free(got);
        free(want);
    }
    ct_close(&c);
}

MX_TEST(sync_vote_full_and_partial_mask)
{
    struct ct c;
    ct_open_file(&c, "sync.ptx");
    enum { W = 7, N = W * 32 };
    uint32_t pat[W] = { 0, 0xffffffff, 0x0000ffff, 0xffff0000, 0x00010000, 0x12345678, 0x7fff7fff };
    uint64_t dpat = ct_alloc(&c, sizeof pat, pat), out = ct_alloc(&c, N * 16, NULL);
    ct_run(&c, "vote", D3(1, 1, 1), D3(N, 1, 1), 0, 2, out, dpat);
    uint32_t got[4 * N], want[4 * N];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++) {
        uint32_t p = pat[t / 32], lane = t % 32, half = p & 0xffff;
        uint32_t *w = want + 4 * t;
        w[0] = p;
        w[1] = (p == 0xffffffff) | (p != 0) << 1 | (p == 0 || p == 0xffffffff) << 2;
        w[2] = lane < 16 ? half : 0xdead;
        w[3] = lane < 16 ? ((half == 0xffff) | (half != 0) << 1 | (half == 0 || half == 0xffff) << 2) : 0xdead;
    }
    assert_u32_array(got, want, 4 * N);
    ct_close(&c);
}

/* Warp-synchronous instructions whose lanes give different membermasks
 * (labeled partitions: each label's lanes name only themselves) combine
 * each group on its own: redux.sync and vote.sync per group, checked
 * against a C model for labels of 1, 3, 5 and 32 groups and random values.
 * (Found by cuda-samples' warpAggregatedAtomicsCG: each bucket's maximum
 * was the whole warp's.) */
MX_TEST(sync_redux_and_vote_per_membermask_group)
{
    struct ct c;
    ct_open_file(&c, "sync.ptx");
    enum { N = 4 * 32 };
    uint32_t lab[N], val[N], got[8 * N];
    uint64_t seed = 0x2545f4914f6cdd1dull;
    for (uint32_t t = 0; t < N; t++) {
        uint32_t w = t / 32, l = t % 32;
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        lab[t] = w == 0 ? 7 : w == 1 ? l % 3 : w == 2 ? (uint32_t)(seed >> 61) % 5 : l;
        val[t] = (uint32_t)(seed >> 20) ^ (l << 28);
    }
    uint64_t dl = ct_alloc(&c, sizeof lab, lab), dv = ct_alloc(&c, sizeof val, val), out = ct_alloc(&c, sizeof got, NULL);
    ct_run(&c, "groups", D3(1, 1, 1), D3(N, 1, 1), 0, 3, out, dl, dv);
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++) {
        uint32_t w0 = t / 32 * 32, mask = 0, bal = 0, mx = 0, add = 0, mn = 0, x = 0, first = 1;
        for (uint32_t j = 0; j < 32; j++) {
            if (lab[w0 + j] != lab[t])
                continue;
            uint32_t v = val[w0 + j];
            mask |= 1u << j;
            bal |= (v & 1) << j;
            mx = first || (int32_t)v > (int32_t)mx ? v : mx;
            mn = first || v < mn ? v : mn;
            add += v;
            x ^= v;
            first = 0;
        }
        uint32_t votes = (bal == mask) | (bal != 0) << 1 | (bal == mask || bal == 0) << 2;
        const uint32_t want[8] = { mask, mx, add, mn, x, bal, votes, lab[t] };
        for (int k = 0; k < 8; k++)
            if (got[8 * t + k] != want[k])
                fail_msg("thread %u (label %u) word %d: got 0x%x, want 0x%x", t, lab[t], k, got[8 * t + k], want[k]);
    }
    ct_close(&c);
}

/* WARP_SZ, the PTX ISA's predefined identifier, is the constant 32 in any
 * instruction (nvcc's cooperative-groups reductions use it; the front end
 * rejected it as an undefined symbol before). */
MX_TEST(sync_warp_sz_is_32)
{
    static const char src[] = CT_HDR
        ".visible .entry k(.param .u64 out)\n"
        "{\n"
        "  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
        "  ld.param.u64 %rd1, [out];\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  add.s32 %r2, %r1, WARP_SZ;\n"
        "  mov.u32 %r3, WARP_SZ;\n"
        "  rem.u32 %r4, %r1, WARP_SZ;\n"
        "  mul.wide.u32 %rd2, %r1, 12;\n"
        "  add.s64 %rd3, %rd1, %rd2;\n"
        "  st.global.u32 [%rd3], %r2;\n"
        "  st.global.u32 [%rd3+4], %r3;\n"
        "  st.global.u32 [%rd3+8], %r4;\n"
        "  ret;\n"
        "}\n";
    struct ct c;
    ct_open(&c, src);
    enum { N = 70 };
    uint64_t out = ct_alloc(&c, N * 12, NULL);
    ct_run(&c, "k", D3(1, 1, 1), D3(N, 1, 1), 0, 1, out);
    uint32_t got[3 * N], want[3 * N];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++) {
        want[3 * t] = t + 32;
        want[3 * t + 1] = 32;
        want[3 * t + 2] = t % 32;
    }
    assert_u32_array(got, want, 3 * N);
    ct_close(&c);
}

/* shfl.sync as the PTX ISA defines it, for lane `lane` of a warp whose
 * lanes hold a[]; returns d and sets *p. */
enum { SH_UP, SH_DOWN, SH_BFLY, SH_IDX };
static uint32_t shfl_ref(int mode, const uint32_t a[32], uint32_t lane, uint32_t b, uint32_t c, uint32_t *p)
{
    uint32_t bval = b & 0x1f, cval = c & 0x1f, segmask = (c >> 8) & 0x1f;
    int32_t maxLane = (int32_t)((lane & segmask) | (cval & ~segmask));
    int32_t minLane = (int32_t)(lane & segmask);
    int32_t j;
    int pval;
    switch (mode) {
    case SH_UP: j = (int32_t)lane - (int32_t)bval; pval = j >= maxLane; break;
    case SH_DOWN: j = (int32_t)lane + (int32_t)bval; pval = j <= maxLane; break;
    case SH_BFLY: j = (int32_t)(lane ^ bval); pval = j <= maxLane; break;
    default: j = minLane | (int32_t)(bval & ~segmask); pval = j <= maxLane; break;
    }
    if (!pval)
        j = (int32_t)lane;
    *p = (uint32_t)pval;
    return a[j];
}

MX_TEST(sync_shfl_every_mode_clamp_and_segments)
{
    struct ct c;
    ct_open_file(&c, "sync.ptx");
    enum { N = 64 };
    static const uint32_t cs[] = { 0x1f, 0x0, 0x101f, 0x1000, 0x181f, 0x1807, 0x1c03, 0x0f, 0x1e1f, 0x1f1f };
    uint32_t btabs[6][32];
    uint64_t s = 11;
    for (int l = 0; l < 32; l++) {
        btabs[0][l] = 1;
        btabs[1][l] = 3;
        btabs[2][l] = 16;
        btabs[3][l] = 31;
        btabs[4][l] = mix(&s) % 32;
        btabs[5][l] = mix(&s); /* only b[4:0] counts */
    }
    uint64_t out = ct_alloc(&c, N * 64, NULL), dbt = ct_alloc(&c, 128, NULL);
    for (size_t ci = 0; ci < sizeof cs / sizeof cs[0]; ci++)
        for (int bi = 0; bi < 6; bi++) {
            assert_int_equal(emu_memcpy_htod(c.dev, dbt, btabs[bi], 128), MX_OK);
            ct_run(&c, "shfl", D3(1, 1, 1), D3(N, 1, 1), 0, 3, out, dbt, (uint64_t)cs[ci]);
            uint32_t got[16 * N], want[16 * N];
            ct_read(&c, got, out, sizeof got);
            for (uint32_t t = 0; t < N; t++) {
                uint32_t a[32], lane = t % 32, *w = want + 16 * t, p;
                for (uint32_t l = 0; l < 32; l++)
                    a[l] = l * l + 100 + 1000 * (t / 32);
                for (int m = 0; m < 4; m++) {
                    w[2 * m] = shfl_ref(m, a, lane, btabs[bi][lane], cs[ci], &p);
                    w[2 * m + 1] = p;
                }
                w[8] = w[6];
                w[9] = shfl_ref(SH_UP, a, lane, 1, 0, &p);
                w[10] = shfl_ref(SH_DOWN, a, lane, 2, 0x1f, &p);
                w[11] = shfl_ref(SH_BFLY, a, lane, 16, 0x1f, &p);
                w[12] = shfl_ref(SH_IDX, a, lane, 0, 0x101f, &p);
                w[13] = w[14] = w[15] = 0;
            }
            for (uint32_t i = 0; i < 16 * N; i++)
                if (got[i] != want[i])
                    fail_msg("c=0x%x btab %d thread %u word %u: got %u want %u", cs[ci], bi, i / 16, i % 16, got[i], want[i]);
        }
    /* spot checks of the model against hand-computed values */
    uint32_t a[32], p;
    for (uint32_t l = 0; l < 32; l++)
        a[l] = l;
    assert_int_equal(shfl_ref(SH_UP, a, 17, 3, 0x1000, &p), 17); /* width 16: lane 17 - 3 < 16, keeps its own */
    assert_int_equal(p, 0);
    assert_int_equal(shfl_ref(SH_UP, a, 20, 3, 0x1000, &p), 17);
    assert_int_equal(p, 1);
    assert_int_equal(shfl_ref(SH_DOWN, a, 14, 3, 0x101f, &p), 14);
    assert_int_equal(shfl_ref(SH_IDX, a, 21, 3, 0x101f, &p), 19);
    assert_int_equal(shfl_ref(SH_BFLY, a, 5, 16, 0x1f, &p), 21);
    ct_close(&c);
}

MX_TEST(sync_match_any_all_b32_b64)
{
    struct ct c;
    ct_open_file(&c, "sync.ptx");
    enum { N = 128 };
    uint32_t in[N];
    uint64_t s = 5;
    for (int t = 0; t < N; t++)
        in[t] = mix(&s) % 4;
    for (int t = 64; t < 96; t++)
        in[t] = 9; /* warp 2: uniform */
    for (int t = 96; t < 128; t++)
        in[t] = 3 + 3 * (t & 1); /* warp 3: uniform 64-bit value only in the low word... differs in the high word */
    uint64_t din = ct_alloc(&c, sizeof in, in), out = ct_alloc(&c, N * 32, NULL);
    ct_run(&c, "match", D3(1, 1, 1), D3(N, 1, 1), 0, 2, out, din);
    uint32_t got[8 * N], want[8 * N];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++) {
        uint32_t base = t & ~31u, any32 = 0, any64 = 0, anyb = 0;
        int all32 = 1, all64 = 1;
        for (uint32_t l = 0; l < 32; l++) {
            uint32_t u = base + l;
            if (in[u] == in[t])
                any32 |= 1u << l;
            if (in[u] % 3 == in[t] % 3)
                any64 |= 1u << l;
            if (l < 20 && in[u] == in[t])
                anyb |= 1u << l;
            all32 &= in[u] == in[base];
            all64 &= in[u] % 3 == in[base] % 3;
        }
        uint32_t *w = want + 8 * t;
        w[0] = any32;
        w[1] = all32 ? 0xffffffff : 0;
        w[2] = (uint32_t)all32;
        w[3] = any64;
        w[4] = all64 ? 0xffffffff : 0;
        w[5] = (uint32_t)all64;
        w[6] = t % 32 < 20 ? anyb : 0;
        w[7] = 0xffffffff;
    }
    assert_u32_array(got, want, 8 * N);
    ct_close(&c);
}

MX_TEST(sync_redux_add_min_max_and_or_xor)
{
    struct ct c;
    ct_open_file(&c, "sync.ptx");
    enum { N = 96 };
    uint32_t in[N];
    uint64_t s = 8;
    for (int t = 0; t < N; t++)
        in[t] = mix(&s);
    for (int t = 64; t < 96; t++)
        in[t] = (uint32_t)(t - 80); /* small values of both signs */
    uint64_t din = ct_alloc(&c, sizeof in, in), out = ct_alloc(&c, N * 64, NULL);
    ct_run(&c, "redux", D3(1, 1, 1), D3(N, 1, 1), 0, 2, out, din);
    uint32_t got[16 * N], want[16 * N];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++) {
        uint32_t *w = want + 16 * t;
        for (int half = 0; half < 2; half++) {
            uint32_t add = 0, minu = UINT32_MAX, maxu = 0, an = UINT32_MAX, o = 0, x = 0;
            int32_t mins = INT32_MAX, maxs = INT32_MIN;
            for (uint32_t l = 0; l < 32; l++) {
                if (half && !(l & 1))
                    continue;
                uint32_t v = in[(t & ~31u) + l];
                add += v;
                minu = v < minu ? v : minu;
                maxu = v > maxu ? v : maxu;
                mins = (int32_t)v < mins ? (int32_t)v : mins;
                maxs = (int32_t)v > maxs ? (int32_t)v : maxs;
                an &= v;
                o |= v;
                x ^= v;
            }
            uint32_t r[8] = { add, minu, maxu, (uint32_t)mins, (uint32_t)maxs, an, o, x };
            if (half && !(t & 1))
                memset(r, 0, sizeof r);
            memcpy(w + 8 * half, r, sizeof r);
        }
    }
    assert_u32_array(got, want, 16 * N);
    ct_close(&c);
}

MX_TEST(sync_lane_special_registers)
{
    struct ct c;
    ct_open_file(&c, "sync.ptx");
    enum { N = 80 };
    uint64_t out = ct_alloc(&c, N * 32, NULL);
    ct_run(&c, "lanes", D3(1, 1, 1), D3(N, 1, 1), 0, 1, out);
    uint32_t got[8 * N], want[8 * N];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++) {
        uint32_t l = t % 32, *w = want + 8 * t, grp = 0;
        for (uint32_t k = 0; k < 32 && (t & ~31u) + k < N; k++)
            if (k % 5 == 2)
                grp |= 1u << k;
        w[0] = l;
        w[1] = 1u << l;
        w[2] = (uint32_t)((2ull << l) - 1);
        w[3] = (1u << l) - 1;
        w[4] = ~((1u << l) - 1);
        w[5] = (uint32_t)~((2ull << l) - 1);
        w[6] = l % 5 == 2 ? grp : 0;
        w[7] = got[8 * t + 7]; /* %warpid: checked below */
    }
    assert_u32_array(got, want, 8 * N);
    for (uint32_t t = 1; t < N; t++)
        if (t % 32)
            assert_int_equal(got[8 * t + 7], got[8 * (t - 1) + 7]);
    ct_close(&c);
}

MX_TEST(sync_named_barriers_producer_consumer)
{
    struct ct c;
    ct_open_file(&c, "sync.ptx");
    uint64_t out = ct_alloc(&c, 64 * 4, NULL);
    ct_run(&c, "prodcons", D3(3, 1, 1), D3(64, 1, 1), 0, 1, out);
    uint32_t got[64], want[64];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < 64; t++)
        want[t] = t < 32 ? t * 7 + 1 + 1000 : (t - 32) * 7 + 1;
    assert_u32_array(got, want, 64);
    ct_close(&c);
}

/* ---- barriers under independent thread scheduling (ptx/its.ptx): on
 * sm_70+ bar.sync counts threads, so the two halves of a divergent warp may
 * wait at two different bar.sync instructions, and bar.warp.sync waits for
 * the lanes of its mask wherever they are. */

static uint32_t its_val(uint32_t t) { return (t % 32 < 16 ? 100 : 200) + t; }

static uint32_t done_val(uint32_t t) { return t + 1; }
static uint32_t full_mask(uint32_t t) { return (void)t, 0xffffffffu; }

/* Runs `kernel` (out, second) of its.ptx on grid blocks of each size in
 * blocks: thread t of every block reads its_val(ntid - 1 - t), the other
 * half's value, and writes second(t) to the second array. */
static void halves_at_barriers(const char *kernel, uint32_t grid, const uint32_t *blocks, size_t nblocks,
                               uint32_t (*second)(uint32_t))
{
    struct ct c;
    ct_open_file(&c, "its.ptx");
    for (size_t k = 0; k < nblocks; k++) {
        uint32_t nb = blocks[k], got[256], got2[256], want[256], want2[256];
        uint64_t out = ct_alloc(&c, nb * 4, NULL), out2 = ct_alloc(&c, nb * 4, NULL);
        ct_run(&c, kernel, D3(grid, 1, 1), D3(nb, 1, 1), 0, 2, out, out2);
        ct_read(&c, got, out, nb * 4);
        ct_read(&c, got2, out2, nb * 4);
        for (uint32_t t = 0; t < nb; t++) {
            want[t] = its_val(nb - 1 - t);
            want2[t] = second(t);
        }
        assert_u32_array(got, want, nb);
        assert_u32_array(got2, want2, nb);
    }
    ct_close(&c);
}

/* the halves branch apart, each reaches its own bar.sync, and all threads
 * run past the join (done[t] = t + 1) */
MX_TEST(sync_divergent_halves_at_two_barriers)
{
    static const uint32_t blocks[] = { 32, 64, 96, 256 };
    halves_at_barriers("divbar", 3, blocks, sizeof blocks / sizeof blocks[0], done_val);
}

/* @p barrier.sync / @!p barrier.sync: each half of a warp waits at its own
 * barrier instruction; the half that skips the first goes on to the second
 * (it does not wait behind the first for the others), and the halves run as
 * one warp again after the guarded region (activemask: all 32 lanes) */
MX_TEST(sync_guarded_barriers_split_the_warp_and_join_after_the_region)
{
    static const uint32_t blocks[] = { 32, 96, 256 };
    halves_at_barriers("predbar", 2, blocks, sizeof blocks / sizeof blocks[0], full_mask);
}

MX_TEST(sync_divergent_barriers_joining_at_ret_lose_no_thread)
{
    struct ct c;
    ct_open_file(&c, "its.ptx");
    enum { B = 128 };
    uint32_t done[B], want[B];
    uint64_t dn = ct_alloc(&c, sizeof done, NULL);
    ct_run(&c, "divbar_ret", D3(2, 1, 1), D3(B, 1, 1), 0, 1, dn);
    ct_read(&c, done, dn, sizeof done);
    for (uint32_t t = 0; t < B; t++)
        want[t] = t + 1;
    assert_u32_array(done, want, B);
    ct_close(&c);
}

MX_TEST(sync_warp_sync_on_divergent_branches_full_and_partial_mask)
{
    struct ct c;
    ct_open_file(&c, "its.ptx");
    enum { B = 96 };
    uint32_t got[B], got2[B], want[B], want2[B];
    uint64_t out = ct_alloc(&c, sizeof got, NULL), out2 = ct_alloc(&c, sizeof got2, NULL);
    ct_run(&c, "divwarpsync", D3(2, 1, 1), D3(B, 1, 1), 0, 2, out, out2);
    ct_read(&c, got, out, sizeof got);
    ct_read(&c, got2, out2, sizeof got2);
    for (uint32_t t = 0; t < B; t++) {
        want[t] = its_val(t ^ 16);
        want2[t] = t % 32 < 16 ? 1000 + (t ^ 8) : 7;
    }
    assert_u32_array(got, want, B);
    assert_u32_array(got2, want2, B);
    ct_close(&c);
}

MX_TEST(sync_counted_barriers_and_arrive_on_part_of_the_cta)
{
    struct ct c;
    ct_open_file(&c, "its.ptx");
    enum { B = 128 };
    uint32_t got[B], got2[64], want[B], want2[64];
    uint64_t out = ct_alloc(&c, sizeof got, NULL), out2 = ct_alloc(&c, sizeof got2, NULL);
    ct_run(&c, "countbar", D3(4, 1, 1), D3(B, 1, 1), 0, 2, out, out2);
    ct_read(&c, got, out, sizeof got);
    ct_read(&c, got2, out2, sizeof got2);
    for (uint32_t t = 0; t < B; t++)
        want[t] = 5 * (t ^ 32) + 1;
    for (uint32_t t = 0; t < 64; t++)
        want2[t] = 3 * t + 11;
    assert_u32_array(got, want, B);
    assert_u32_array(got2, want2, 64);
    ct_close(&c);
}

MX_TEST(sync_warp_sync_counts_exited_lanes_as_arrived)
{
    struct ct c;
    ct_open_file(&c, "its.ptx");
    enum { B = 64 };
    uint32_t got[B], want[B];
    uint64_t out = ct_alloc(&c, sizeof got, NULL);
    ct_run(&c, "warpsync_exit", D3(1, 1, 1), D3(B, 1, 1), 0, 1, out);
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < B; t++)
        want[t] = t % 32 < 16 ? t + 1 : 0;
    assert_u32_array(got, want, B);
    ct_close(&c);
}

MX_TEST(sync_warp_sync_against_cta_barrier_is_a_reported_deadlock)
{
    struct ct c;
    ct_open_file(&c, "its.ptx");
    uint64_t out = ct_alloc(&c, 4, NULL);
    int rc = ct_launch(&c, "warpsync_deadlock", D3(1, 1, 1), D3(32, 1, 1), 0, 1, out);
    assert_int_equal(rc, MX_EDEADLOCK);
    assert_non_null(strstr(c.fault.message, "deadlock"));
    /* the report names both waits: the warp-sync lanes and the CTA barrier */
    assert_non_null(strstr(c.fault.detail, "bar.warp.sync"));
    assert_non_null(strstr(c.fault.detail, "barrier 0"));
    ct_close(&c);
}

MX_TEST(sync_bar_red_on_two_diverged_paths_is_reported)
{
    struct ct c;
    ct_open_file(&c, "its.ptx");
    uint64_t out = ct_alloc(&c, 4, NULL);
    assert_int_equal(ct_launch(&c, "divbarred", D3(1, 1, 1), D3(32, 1, 1), 0, 1, out), MX_EUNSUPPORTED);
    assert_contains(c.fault.message, "bar.red on two diverged paths of one warp at once is not supported");
    unsigned a = ct_line_of(c.src, "@REDA"), b = ct_line_of(c.src, "@REDB");
    assert_true(c.fault.line == a || c.fault.line == b);
    ct_close(&c);
}

/* Grids started side by side (emu_grid_start): one waits on a flag the
 * other sets, in either launch order; a grid started `after` another starts
 * only once it finished; a fault in one grid stops the others, which end
 * with MX_EABORTED and a message naming the faulting kernel. */
static struct emu_launch side_launch(struct ct *c, const char *name, const void *params, size_t size)
{
    struct emu_launch l;
    memset(&l, 0, sizeof l);
    l.func = (uint32_t)mx_program_find_func(&c->p.prog, name);
    l.grid[0] = 2, l.grid[1] = l.grid[2] = 1;
    l.block[0] = 64, l.block[1] = l.block[2] = 1;
    l.params = params;
    l.params_size = size;
    return l;
}

MX_TEST(sync_grids_side_by_side_order_and_abort)
{
    struct ct c;
    ct_open_file(&c, "its.ptx");
    uint64_t flag = ct_alloc(&c, 8, NULL), out = ct_alloc(&c, 4, NULL), buf = ct_alloc(&c, 16, NULL);
    struct emu_stats st;
    struct emu_fault f;
    /* consumer first, producer second: both finish */
    uint64_t sp[2] = { flag, out };
    struct { uint64_t flag; uint32_t v; } fp = { flag, 7 };
    struct emu_launch ls = side_launch(&c, "spin_flag", sp, sizeof sp), lf = side_launch(&c, "set_flag", &fp, 12);
    struct emu_grid *g1, *g2;
    assert_int_equal(emu_grid_start(c.dev, c.mod, &ls, NULL, &f, &g1), MX_OK);
    assert_int_equal(emu_grid_start(c.dev, c.mod, &lf, NULL, &f, &g2), MX_OK);
    assert_int_equal(emu_grid_wait(c.dev, g1, &st, &f), MX_OK);
    assert_int_equal(emu_grid_wait(c.dev, g2, &st, &f), MX_OK);
    uint32_t v;
    ct_read(&c, &v, out, 4);
    assert_int_equal(v, 7);
    /* a producer started `after` the consumer it feeds cannot start while
     * the consumer spins; a fault in a third grid stops both, and only the
     * faulting grid carries the report */
    uint32_t zero = 0;
    assert_int_equal(emu_memcpy_htod(c.dev, flag, &zero, 4), MX_OK);
    assert_int_equal(emu_grid_start(c.dev, c.mod, &ls, NULL, &f, &g1), MX_OK);
    assert_int_equal(emu_grid_start(c.dev, c.mod, &lf, g1, &f, &g2), MX_OK);
    assert_false(emu_grid_done(g2));
    uint64_t fpp = buf;
    struct emu_launch lx = side_launch(&c, "fault_now", &fpp, 8);
    struct emu_grid *g3;
    assert_int_equal(emu_grid_start(c.dev, c.mod, &lx, NULL, &f, &g3), MX_OK);
    assert_int_equal(emu_grid_wait(c.dev, g1, &st, &f), MX_EABORTED);
    assert_contains(f.message, "stopped: kernel fault_now faulted");
    assert_int_equal(emu_grid_wait(c.dev, g2, &st, &f), MX_EABORTED);
    assert_int_equal(emu_grid_wait(c.dev, g3, &st, &f), MX_EMEMFAULT);
    assert_int_equal(f.line, ct_line_of(c.src, "@FNOW"));
    /* the device still works */
    assert_int_equal(emu_memcpy_htod(c.dev, flag, &zero, 4), MX_OK);
    assert_int_equal(emu_grid_start(c.dev, c.mod, &lf, NULL, &f, &g2), MX_OK);
    assert_int_equal(emu_grid_start(c.dev, c.mod, &ls, NULL, &f, &g1), MX_OK);
    assert_int_equal(emu_grid_wait(c.dev, g1, &st, &f), MX_OK);
    assert_int_equal(emu_grid_wait(c.dev, g2, &st, &f), MX_OK);
    ct_close(&c);
}

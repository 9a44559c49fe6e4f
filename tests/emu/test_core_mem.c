/* tests/emu/test_core_mem.c — emu-core: ld/st of every width and vector
 * shape, sign extension on the per-lane paths, kernel parameters, module variables with initialisers (addresses of
 * other variables included), generic addressing with the nvcc local-depot
 * pattern, isspacep, dynamic shared memory, shared memory of a called
 * function (kernels in ptx/mem.ptx). */
#include "test_core.h"

#include <stdlib.h>

static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void fill_random(void *p, size_t n, uint64_t seed)
{
    uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        b[i] = (uint8_t)rnd(&seed);
}

#define LD(T, p) ({ T v_; memcpy(&v_, (p), sizeof v_); v_; })

MX_TEST(mem_every_scalar_width_and_sign_extension)
{
    struct ct c;
    ct_open_file(&c, "mem.ptx");
    enum { N = 32 };
    uint8_t in[N * 16];
    fill_random(in, sizeof in, 1);
    /* make sure both signs of every narrow field occur */
    for (int l = 0; l < N; l++) {
        in[16 * l + 1] = (uint8_t)(l & 1 ? in[16 * l + 1] | 0x80 : in[16 * l + 1] & 0x7f);
        in[16 * l + 3] = (uint8_t)(l & 2 ? in[16 * l + 3] | 0x80 : in[16 * l + 3] & 0x7f);
        in[16 * l + 7] = (uint8_t)(l & 4 ? in[16 * l + 7] | 0x80 : in[16 * l + 7] & 0x7f);
    }
    in[16 * 5 + 1] = 0; /* a zero s8 for the setp check */
    uint64_t din = ct_alloc(&c, sizeof in, in), dout = ct_alloc(&c, N * 128, NULL);
    ct_run(&c, "widths", D3(1, 1, 1), D3(N, 1, 1), 0, 2, din, dout);
    uint64_t got[N * 16], want[N * 16];
    ct_read(&c, got, dout, sizeof got);
    for (int l = 0; l < N; l++) {
        const uint8_t *r = in + 16 * l;
        uint64_t *w = want + 16 * l;
        int8_t s8 = (int8_t)r[1];
        int16_t s16 = LD(int16_t, r + 2);
        uint16_t u16 = LD(uint16_t, r + 2);
        uint32_t u32 = LD(uint32_t, r + 4);
        uint32_t s8_32 = (uint32_t)(int32_t)s8;
        uint16_t s8_16 = (uint16_t)(int16_t)s8;
        w[0] = r[0];
        w[1] = s8_32;
        w[2] = s8_32 | (uint64_t)(s8_32 >> 4) << 32;
        w[3] = u16 | (uint64_t)(uint32_t)(int32_t)s16 << 32;
        w[4] = (uint64_t)(int64_t)s8;
        w[5] = (uint64_t)(int64_t)s16;
        w[6] = (uint64_t)(int64_t)(int32_t)u32;
        w[7] = u32;
        w[8] = LD(uint64_t, r + 8);
        w[9] = u32;
        w[10] = LD(uint64_t, r + 8);
        w[11] = (uint32_t)(int32_t)(int16_t)s8_16 | (uint64_t)s8_16 << 32;
        w[12] = (s8_32 == 0 ? 1u : 0u) | (s8 < 0 ? 2u : 0u);
        w[13] = 0x78u | 0x5678ull << 16 | (uint64_t)s8_16 << 48;
        w[14] = r[1];
        w[15] = (uint32_t)((uint16_t)s16 | (uint32_t)s8_16 << 16);
    }
    assert_u64_array(got, want, N * 16);
    ct_close(&c);
}

/* Narrow loads take a per-lane path (emu_mem_lane or the .param buffer)
 * wherever the warp-wide fast path does not apply: .local, .const, kernel
 * .param through a register address, generic addresses of .local, a warp
 * whose global accesses straddle a device page, vectors.
 * Each must sign-extend .s8/.s16/.s32 (to the register width: u32 slots
 * for 32-bit registers, u64 for 64-bit ones) and zero-extend .u8/.u16 of
 * values with the high bit set.  Reference: C's integer conversions of the
 * pattern bytes (kernel "subword", which documents the slots). */
MX_TEST(mem_narrow_loads_sign_extend_on_per_lane_paths)
{
    struct ct c;
    ct_open_file(&c, "mem.ptx");
    uint64_t pa, psize;
    assert_int_equal(emu_module_symbol(c.mod, "sxpat", &pa, &psize), MX_OK);
    assert_int_equal(psize, 32);
    uint8_t pat[32];
    ct_read(&c, pat, pa, sizeof pat);
    /* the pattern must hold negative and non-negative bytes, halfwords and words */
    int neg[3] = { 0 }, pos[3] = { 0 };
    for (int i = 0; i < 32; i++) {
        neg[0] += pat[i] >> 7;
        neg[1] += (i & 1) && (pat[i] >> 7);
        neg[2] += (i & 3) == 3 && (pat[i] >> 7);
    }
    pos[0] = 32 - neg[0], pos[1] = 16 - neg[1], pos[2] = 8 - neg[2];
    for (int k = 0; k < 3; k++)
        assert_true(neg[k] >= 2 && pos[k] >= 2);
    assert_true(pat[7] >> 7 || pat[15] >> 7); /* an odd word is negative (second element of ld.v2.s32) */

    /* the straddling copy: 128 bytes (the pattern 4 times) centred on a page boundary */
    uint64_t big = ct_alloc(&c, 3u << 16, NULL);
    uint64_t boundary = ((big - 0x0000700000000000ull + 0xffff) & ~0xffffull) + 0x0000700000000000ull;
    if (boundary - big < 64)
        boundary += 0x10000;
    for (int k = 0; k < 4; k++)
        assert_int_equal(emu_memcpy_htod(c.dev, boundary - 64 + 32 * k, pat, 32), MX_OK);
    enum { N = 32 };
    uint64_t in = ct_alloc(&c, 32, pat), out = ct_alloc(&c, N * 512, NULL);
    ct_run(&c, "subword", D3(1, 1, 1), D3(N, 1, 1), 0, 4, in, out, boundary - 64, (uint64_t)(uintptr_t)pat);
    uint64_t got[N * 64], want[N * 64];
    ct_read(&c, got, out, sizeof got);
    memset(want, 0, sizeof want);
    for (int l = 0; l < N; l++) {
        uint64_t *w = want + 64 * l;
        /* the seven loads of one path from byte b, halfword h and word wd of the pattern */
#define SEVEN(slot, b, h, wd)                                                                      \
        do {                                                                                       \
            int8_t s8 = (int8_t)pat[b];                                                            \
            int16_t s16 = LD(int16_t, pat + 2 * (h));                                              \
            int32_t s32 = LD(int32_t, pat + 4 * (wd));                                             \
            w[(slot) + 0] = (uint32_t)(int32_t)s8;                                                 \
            w[(slot) + 1] = (uint64_t)(int64_t)s8;                                                 \
            w[(slot) + 2] = pat[b];                                                                \
            w[(slot) + 3] = (uint32_t)(int32_t)s16;                                                \
            w[(slot) + 4] = (uint64_t)(int64_t)s16;                                                \
            w[(slot) + 5] = (uint16_t)s16;                                                         \
            w[(slot) + 6] = (uint64_t)(int64_t)s32;                                                \
        } while (0)
        SEVEN(0, l % 32, l % 16, l % 8);         /* .local */
        SEVEN(7, l % 32, l % 16, l % 8);         /* .const */
        SEVEN(14, l % 32, l % 16, l % 8);        /* kernel .param */
        SEVEN(21, l % 32, l % 16, l % 8);        /* generic .local */
        SEVEN(28, (16 + l) % 32, l % 16, l % 8); /* global, straddling */
#undef SEVEN
        int b = 2 * (l % 16), h = 2 * (l % 8), d = 2 * (l % 4);
        w[35] = (uint32_t)(int32_t)(int8_t)pat[b];
        w[36] = (uint32_t)(int32_t)(int8_t)pat[b + 1];
        w[37] = pat[b];
        w[38] = pat[b + 1];
        w[39] = (uint32_t)(int32_t)LD(int16_t, pat + 2 * h);
        w[40] = (uint32_t)(int32_t)LD(int16_t, pat + 2 * h + 2);
        w[41] = (uint64_t)(int64_t)LD(int32_t, pat + 4 * d);
        w[42] = (uint64_t)(int64_t)LD(int32_t, pat + 4 * d + 4);
    }
    assert_u64_array(got, want, N * 64);
    ct_close(&c);
}

MX_TEST(mem_vector_loads_and_stores)
{
    struct ct c;
    ct_open_file(&c, "mem.ptx");
    enum { N = 40 };
    uint8_t in[N * 64], got[N * 96], want[N * 96];
    fill_random(in, sizeof in, 7);
    uint64_t din = ct_alloc(&c, sizeof in, in), dout = ct_alloc(&c, sizeof got, NULL);
    ct_run(&c, "vectors", D3(1, 1, 1), D3(N, 1, 1), 0, 2, din, dout);
    ct_read(&c, got, dout, sizeof got);
    for (int l = 0; l < N; l++) {
        const uint8_t *r = in + 64 * l;
        uint8_t *w = want + 96 * l;
        memcpy(w, r, 32);
        memcpy(w + 32, r + 44, 4);
        memcpy(w + 36, r + 40, 4);
        memcpy(w + 40, r + 36, 4);
        memcpy(w + 44, r + 32, 4);
        memcpy(w + 48, r + 48, 8);
        w[56] = r[59];
        w[57] = r[58];
        w[58] = r[57];
        w[59] = r[56];
        memcpy(w + 60, r + 54, 2);
        memcpy(w + 62, r + 48, 2);
        for (int k = 0; k < 4; k++)
            memcpy(w + 64 + 4 * k, r + 12 - 4 * k, 4);
        memcpy(w + 80, r + 24, 8);
        memcpy(w + 88, r + 16, 8);
    }
    for (size_t i = 0; i < sizeof got; i++)
        if (got[i] != want[i])
            fail_msg("lane %zu byte %zu: got 0x%02x want 0x%02x", i / 96, i % 96, got[i], want[i]);
    ct_close(&c);
}

MX_TEST(mem_module_variables_and_initialisers)
{
    struct ct c;
    ct_open_file(&c, "mem.ptx");
    enum { N = 32 };
    uint64_t out = ct_alloc(&c, N * 16, NULL), out2 = ct_alloc(&c, N * 8, NULL);
    uint64_t gtab = 0, gptr = 0, gptr2 = 0, gcount = 0, sz = 0;
    assert_int_equal(emu_module_symbol(c.mod, "gtab", &gtab, &sz), MX_OK);
    assert_int_equal(sz, 16);
    assert_int_equal(emu_module_symbol(c.mod, "gptr", &gptr, NULL), MX_OK);
    assert_int_equal(emu_module_symbol(c.mod, "gptr2", &gptr2, NULL), MX_OK);
    assert_int_equal(emu_module_symbol(c.mod, "gcount", &gcount, NULL), MX_OK);
    assert_int_equal(emu_module_symbol(c.mod, "nosuch", &sz, NULL), MX_ENOTFOUND);
    /* the initialisers that hold addresses were relocated at load time */
    uint64_t v;
    ct_read(&c, &v, gptr, 8);
    assert_int_equal(v, gtab);
    ct_read(&c, &v, gptr2, 8);
    assert_int_equal(v, gtab + 8);
    ct_run(&c, "modvars", D3(1, 1, 1), D3(N, 1, 1), 0, 2, out, out2);
    uint32_t got[4 * N], want[4 * N];
    uint64_t got2[N], want2[N];
    static const uint32_t ctab[8] = { 3, 1, 4, 1, 5, 9, 2, 6 }, gt[4] = { 10, 20, 30, 40 };
    static const uint8_t gb[5] = { 104, 105, 33, 0, 7 };
    ct_read(&c, got, out, sizeof got);
    ct_read(&c, got2, out2, sizeof got2);
    for (uint32_t t = 0; t < N; t++) {
        want[4 * t] = ctab[t % 8];
        want[4 * t + 1] = gt[t % 4];
        want[4 * t + 2] = gt[2 + t % 2];
        want[4 * t + 3] = gb[t % 5];
        want2[t] = 0x123456789abcdef0ull;
    }
    assert_u32_array(got, want, 4 * N);
    assert_u64_array(got2, want2, N);
    uint32_t g4[4], cnt;
    ct_read(&c, g4, gtab, sizeof g4);
    ct_read(&c, &cnt, gcount, 4);
    assert_int_equal(cnt, 77);
    assert_int_equal(g4[3], 41);
    assert_int_equal(g4[0], 10);
    ct_close(&c);
}

MX_TEST(mem_kernel_params_every_size_and_struct)
{
    struct ct c;
    ct_open_file(&c, "mem.ptx");
    uint8_t s[24] = { 0 };
    uint32_t x = 0xcafebabe;
    uint64_t y = 0x0102030405060708ull;
    uint16_t z = 0x4242;
    uint8_t wv = 0x99;
    memcpy(s, &x, 4);
    memcpy(s + 8, &y, 8);
    memcpy(s + 16, &z, 2);
    s[18] = wv;
    double e = -2.5;
    uint64_t eb;
    memcpy(&eb, &e, 8);
    uint64_t out = ct_alloc(&c, 56, NULL);
    ct_run(&c, "params", D3(1, 1, 1), D3(1, 1, 1), 0, 7, (uint64_t)0xab, (uint64_t)0xbeef, (uint64_t)(uint32_t)-123456,
           0x1122334455667788ull, eb, (uint64_t)(uintptr_t)s, out);
    uint32_t got[14];
    ct_read(&c, got, out, sizeof got);
    uint32_t want[14] = { 0xab, 0xbeef, (uint32_t)-123456, 0, 0x55667788, 0x11223344, (uint32_t)eb, (uint32_t)(eb >> 32),
                          0xcafebabe, 0, 0x05060708, 0x01020304, 0x4242, 0x99 };
    assert_u32_array(got, want, 14);
    ct_close(&c);
}

MX_TEST(mem_generic_addressing_cvta_isspacep_local_depot)
{
    struct ct c;
    ct_open_file(&c, "mem.ptx");
    enum { N = 100 };
    uint64_t out = ct_alloc(&c, N * 32, NULL);
    ct_run(&c, "generic", D3(2, 1, 1), D3(N, 1, 1), 0, 1, out);
    uint32_t got[8 * N], want[8 * N];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++) {
        uint32_t *w = want + 8 * t;
        w[0] = (N - 1 - t) * 5 + 11;
        w[1] = 1;
        w[2] = 1; /* shared address: shared only */
        w[3] = 4; /* local address: local only */
        w[4] = 2; /* global address: global only */
        w[5] = t * 7 + 3;
        w[6] = 1;
        w[7] = t * 1000;
    }
    assert_u32_array(got, want, 8 * N);
    ct_close(&c);
}

MX_TEST(mem_local_frames_and_pointer_to_caller_local)
{
    struct ct c;
    ct_open_file(&c, "mem.ptx");
    enum { N = 64 };
    uint64_t out = ct_alloc(&c, N * 8, NULL);
    ct_run(&c, "local_call", D3(1, 1, 1), D3(N, 1, 1), 0, 1, out);
    uint32_t got[2 * N], want[2 * N];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++) {
        want[2 * t] = t + 0xbeef;
        want[2 * t + 1] = t + 500;
    }
    assert_u32_array(got, want, 2 * N);
    ct_close(&c);
}

MX_TEST(mem_dynamic_shared_next_to_static)
{
    struct ct c;
    ct_open_file(&c, "mem.ptx");
    enum { N = 256, DYN = N * 4 };
    uint64_t out = ct_alloc(&c, N * 16, NULL);
    ct_run(&c, "dynshared", D3(3, 1, 1), D3(N, 1, 1), DYN, 1, out);
    uint32_t *got = calloc(4 * N, 4), *want = calloc(4 * N, 4);
    assert_non_null(got);
    assert_non_null(want);
    ct_read(&c, got, out, 16 * N);
    for (uint32_t t = 0; t < N; t++) {
        want[4 * t] = (N - 1 - t) * 3 + 1;
        want[4 * t + 1] = ((t + 1) % N) * 5 + 2;
        want[4 * t + 2] = DYN;
        want[4 * t + 3] = 1024 + DYN; /* static ssm + dynamic */
    }
    assert_u32_array(got, want, 4 * N);
    free(got);
    free(want);
    ct_close(&c);
}

/* A static variable whose size is not a multiple of 16 (a bool, as
 * threadFenceReduction's amLast) before the dynamic array: the array starts
 * at 16, and the block has room for all of it (it faulted at its last
 * word before: the padding was not allocated); %total_smem_size counts it. */
MX_TEST(mem_dynamic_shared_after_an_odd_static)
{
    static const char src[] = CT_HDR
        ".visible .entry k(.param .u64 out)\n"
        "{\n"
        "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p<2>;\n"
        "  .shared .u8 flag;\n"
        "  .extern .shared .align 16 .b8 dyn[];\n"
        "  ld.param.u64 %rd1, [out];\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  setp.eq.u32 %p1, %r1, 0;\n"
        "  @%p1 st.shared.u8 [flag], 1;\n"
        "  mov.u32 %r2, dyn;\n"
        "  shl.b32 %r3, %r1, 2;\n"
        "  add.s32 %r4, %r2, %r3;\n"
        "  add.s32 %r5, %r1, 7;\n"
        "  st.shared.u32 [%r4], %r5;\n"
        "  bar.sync 0;\n"
        "  xor.b32 %r6, %r3, 4;\n"
        "  add.s32 %r6, %r2, %r6;\n"
        "  ld.shared.u32 %r7, [%r6];\n"
        "  mul.wide.u32 %rd2, %r1, 16;\n"
        "  add.s64 %rd3, %rd1, %rd2;\n"
        "  mov.u32 %r5, %total_smem_size;\n"
        "  st.global.v4.u32 [%rd3], {%r7, %r2, %r5, %r1};\n"
        "  ret;\n"
        "}\n";
    struct ct c;
    ct_open(&c, src);
    enum { N = 128 };
    uint64_t out = ct_alloc(&c, N * 16, NULL);
    ct_run(&c, "k", D3(2, 1, 1), D3(N, 1, 1), N * 4, 1, out);
    uint32_t got[4 * N], want[4 * N];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++) {
        want[4 * t] = (t ^ 1) + 7;
        want[4 * t + 1] = 16;          /* the dynamic array's offset */
        want[4 * t + 2] = 16 + N * 4;  /* padding, then the dynamic bytes */
        want[4 * t + 3] = t;
    }
    assert_u32_array(got, want, 4 * N);
    ct_close(&c);
}

MX_TEST(mem_static_shared_of_called_function)
{
    struct ct c;
    ct_open_file(&c, "mem.ptx");
    enum { N = 128 };
    uint64_t out = ct_alloc(&c, N * 4, NULL);
    ct_run(&c, "func_shared", D3(2, 1, 1), D3(N, 1, 1), 0, 1, out);
    uint32_t got[N], want[N];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++)
        want[t] = ((t + 1) % N) * ((t + 1) % N) + 0x5a5a;
    assert_u32_array(got, want, N);
    /* a .shared declared inside the .func body */
    ct_run(&c, "func_shared_local", D3(2, 1, 1), D3(N, 1, 1), 0, 1, out);
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++)
        want[t] = (t ^ 1) + 777;
    assert_u32_array(got, want, N);
    ct_close(&c);
}

/* Device-side malloc and free from many CTAs on 4 host threads, while the
 * other CTAs access memory: every thread reads back what it wrote. */
MX_TEST(mem_device_malloc_free_host_threads)
{
    enum { G = 96, B = 64, N = G * B };
    for (int keep = 0; keep < 2; keep++) {
        struct emu_config cfg;
        emu_config_default(&cfg);
        cfg.host_threads = 4;
        struct ct c;
        ct_open_file_cfg(&c, "mem.ptx", &cfg);
        uint32_t *got = malloc(N * 4), *want = malloc(N * 4);
        assert_non_null(got);
        assert_non_null(want);
        uint64_t out = ct_alloc(&c, N * 4, NULL);
        ct_run(&c, "devmalloc", D3(G, 1, 1), D3(B, 1, 1), 0, 2, out, (uint64_t)keep);
        ct_read(&c, got, out, N * 4);
        for (uint32_t i = 0; i < N; i++)
            want[i] = i;
        assert_u32_array(got, want, N);
        free(got);
        free(want);
        ct_close(&c);
    }
}

/* emu_memcpy_dtod (device-side cudaMemcpyAsync, cudart's device-to-device copy): memmove semantics over several
 * 16 KiB chunks, overlapping either way, against memmove on a host copy; a range outside the allocation refused
 * with nothing written. */
MX_TEST(mem_device_to_device_copy_overlaps)
{
    enum { N = 100000 };
    struct ct c;
    ct_open_file(&c, "mem.ptx");
    uint8_t *host = malloc(N), *got = malloc(N);
    assert_non_null(host);
    assert_non_null(got);
    fill_random(host, N, 7);
    uint64_t a = ct_alloc(&c, N, host);
    static const struct { uint64_t dst, src, n; } cases[] = {
        { 1000, 0, 60000 },  /* destination above the source, overlapping: copied from the end */
        { 0, 3000, 90000 },  /* below: from the start */
        { 70000, 10, 20000 }, /* apart */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(emu_memcpy_dtod(c.dev, a + cases[i].dst, a + cases[i].src, cases[i].n), MX_OK);
        memmove(host + cases[i].dst, host + cases[i].src, cases[i].n);
        ct_read(&c, got, a, N);
        assert_memory_equal(got, host, N);
    }
    assert_int_equal(emu_memcpy_dtod(c.dev, a + N - 100, a, 200), MX_EINVAL);
    assert_int_equal(emu_memcpy_dtod(c.dev, a, a + N - 100, 200), MX_EINVAL);
    ct_read(&c, got, a, N);
    assert_memory_equal(got, host, N);
    free(host);
    free(got);
    ct_close(&c);
}

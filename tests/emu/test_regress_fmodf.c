/* tests/emu/test_regress_fmodf.c — regression: fmodf as nvcc compiles it
 * (tests/emu/ptx/fmodf.ptx, generated from fmodf.cu beside it) returned
 * inf for fmodf(1.17549435e-38f, 1.4e-45f) instead of 0, because
 * div.approx.f32 treated the subnormal divisor as zero (a * rcp(0) = inf).
 * fmodf is exact, so every result is compared bit for bit with the C
 * library's fmodf (NaN with NaN: the GPU's canonical NaN differs in its
 * payload), over every pair of a list of special values (zeros, the
 * subnormal range, FLT_MIN, small and huge normals, FLT_MAX, infinities,
 * NaN, both signs) and over random pairs with subnormal, nearby and
 * far-apart exponents. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "emu/emu.h"
#include "frontend/ptx.h"

static float f_of(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint32_t b_of(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd32(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static char *read_ptx(size_t *len)
{
    const char *root = getenv("MX_SOURCE_ROOT");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/emu/ptx/fmodf.ptx", root ? root : ".");
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (MX_SOURCE_ROOT)", path);
    char *s = malloc(1 << 20);
    assert_non_null(s);
    *len = fread(s, 1, (1 << 20) - 1, f);
    s[*len] = 0;
    fclose(f);
    return s;
}

/* Runs fmod_kernel over n pairs on the emulator. */
static void gpu_fmodf(const float *x, const float *y, float *out, uint32_t n)
{
    size_t len;
    char *src = read_ptx(&len);
    struct mx_program prog;
    struct mx_diag diag = { 0 };
    assert_int_equal(fe_parse_ptx(src, len, "fmodf.ptx", NULL, &prog, &diag), MX_OK);
    struct emu_config cfg;
    emu_config_default(&cfg);
    struct emu_device *dev;
    struct emu_module *mod;
    char err[128];
    assert_int_equal(emu_device_create(&cfg, &dev), MX_OK);
    assert_int_equal(emu_module_load(dev, &prog, &mod, err, sizeof err), MX_OK);
    uint64_t dx, dy, dout;
    assert_int_equal(emu_malloc(dev, (uint64_t)n * 4, &dx), MX_OK);
    assert_int_equal(emu_malloc(dev, (uint64_t)n * 4, &dy), MX_OK);
    assert_int_equal(emu_malloc(dev, (uint64_t)n * 4, &dout), MX_OK);
    assert_int_equal(emu_memcpy_htod(dev, dx, x, (uint64_t)n * 4), MX_OK);
    assert_int_equal(emu_memcpy_htod(dev, dy, y, (uint64_t)n * 4), MX_OK);
    uint8_t params[28];
    memcpy(params, &dx, 8);
    memcpy(params + 8, &dy, 8);
    memcpy(params + 16, &dout, 8);
    memcpy(params + 24, &n, 4);
    struct emu_launch l = { (uint32_t)mx_program_find_func(&prog, "fmod_kernel"), { (n + 255) / 256, 1, 1 }, { 256, 1, 1 },
                            0, params, sizeof params, 0 };
    struct emu_fault f;
    int rc = emu_launch(dev, mod, &l, NULL, &f);
    if (rc)
        emu_fault_print(stderr, &f);
    assert_int_equal(rc, MX_OK);
    assert_int_equal(emu_memcpy_dtoh(dev, out, dout, (uint64_t)n * 4), MX_OK);
    emu_module_unload(mod);
    emu_device_destroy(dev);
    mx_program_free(&prog);
    free(src);
}

/* The report of the original failure. */
static void min_normal_by_min_subnormal(void **state)
{
    (void)state;
    float x = 1.17549435e-38f, y = 1.4e-45f, out;
    assert_int_equal(b_of(x), 0x00800000u);
    assert_int_equal(b_of(y), 0x00000001u);
    gpu_fmodf(&x, &y, &out, 1);
    assert_int_equal(b_of(out), b_of(fmodf(x, y)));
    assert_int_equal(b_of(out), 0);
}

static const uint32_t specials[] = {
    0x00000000, 0x00000001, 0x00000002, 0x00000003, 0x00000007, 0x00012345, 0x00400000, 0x007ffffe,
    0x007fffff, 0x00800000, 0x00800001, 0x00ffffff, 0x01000000, 0x0c000000, 0x33800000, 0x34000000,
    0x3dcccccd, 0x3f000000, 0x3f800000, 0x3f800001, 0x3fc00000, 0x40400000, 0x40490fdb, 0x4b000000,
    0x4b000001, 0x4b7fffff, 0x4b800000, 0x4c000001, 0x5f800000, 0x7149f2ca, 0x7f000000, 0x7f7fffff,
    0x7f800000, 0x7fc00000,
};
#define NSPEC (sizeof specials / sizeof specials[0])

/* A random float whose exponent is near `e` (biased), any sign. */
static uint32_t near_exp(int e)
{
    int be = e + (int)(rnd32() % 9) - 4;
    be = be < 0 ? 0 : be > 254 ? 254 : be;
    return (rnd32() & 0x807fffffu) | (uint32_t)be << 23;
}

static void sweep_against_libm(void **state)
{
    (void)state;
    enum { NRAND = 60000 };
    uint32_t n = (uint32_t)(4 * NSPEC * NSPEC + NRAND);
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *out = malloc(n * sizeof *out);
    assert_non_null(x);
    assert_non_null(y);
    assert_non_null(out);
    uint32_t k = 0;
    for (size_t i = 0; i < NSPEC; i++)
        for (size_t j = 0; j < NSPEC; j++)
            for (uint32_t s = 0; s < 4; s++) {
                x[k] = f_of(specials[i] | (s & 1) << 31);
                y[k++] = f_of(specials[j] | (s >> 1) << 31);
            }
    while (k < n) {
        uint32_t a, b;
        switch (k % 5) {
        case 0: a = rnd32(); b = rnd32(); break;                              /* anything, NaNs and infinities included */
        case 1: b = rnd32() & 0x807fffffu; a = near_exp((int)(rnd32() % 60)); break; /* subnormal y */
        case 2: a = near_exp((int)(rnd32() % 254)); b = near_exp((int)(a >> 23 & 0xff)); break; /* close exponents */
        case 3: a = near_exp((int)(rnd32() % 254)); b = near_exp((int)(a >> 23 & 0xff) - 20 - (int)(rnd32() % 8)); break;
        default: a = near_exp(200 + (int)(rnd32() % 54)); b = near_exp((int)(rnd32() % 40)); break; /* huge quotient */
        }
        x[k] = f_of(a);
        y[k++] = f_of(b);
    }
    gpu_fmodf(x, y, out, n);
    unsigned bad = 0, subn_y = 0;
    for (uint32_t i = 0; i < n; i++) {
        float want = fmodf(x[i], y[i]);
        subn_y += fpclassify(y[i]) == FP_SUBNORMAL;
        int ok = isnan(want) ? isnan(out[i]) : b_of(out[i]) == b_of(want);
        if (!ok && bad++ < 10)
            print_error("fmodf(%a [%08x], %a [%08x]): got %a [%08x] want %a [%08x]\n", (double)x[i], b_of(x[i]),
                        (double)y[i], b_of(y[i]), (double)out[i], b_of(out[i]), (double)want, b_of(want));
    }
    assert_true(subn_y > NRAND / 5); /* the subnormal divisors were exercised */
    if (bad)
        fail_msg("%u of %u fmodf results differ from the C library", bad, n);
    free(x);
    free(y);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(min_normal_by_min_subnormal), cmocka_unit_test(sweep_against_libm) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/emu/test_movind.c — the Indirect-MOV ISA extension: rejected when
 * the extension is off, bit-exact when on (checked against a C model of the
 * register range), and an index outside the range is a precise fault. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "emu/emu.h"
#include "frontend/ptx.h"

/* blk<k> = seed*100 + k written with movind, then out[t] = blk[(t*idxmul + shift) & idxmask]. */
static const char src[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u32 shift, .param .u32 idxmask, .param .u32 seed)\n"
    "{\n"
    "  .reg .b32 %blk<8>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u32 %r7, [seed];\n  mul.lo.u32 %r7, %r7, 100;\n"
    "  mov.u32 %r1, 0;\n"
    "LOOP:\n"
    "  add.u32 %r2, %r1, %r7;\n"
    "  movind.b32 %blk[%r1], %r2;\n"               /* the write form */
    "  add.u32 %r1, %r1, 1;\n"
    "  setp.lt.u32 %p1, %r1, 8;\n"
    "  @%p1 bra LOOP;\n"
    "  ld.param.u32 %r3, [shift];\n  ld.param.u32 %r8, [idxmask];\n"
    "  mov.u32 %r4, %tid.x;\n  mul.lo.u32 %r9, %r4, 3;\n"
    "  add.u32 %r5, %r9, %r3;\n"
    "  and.b32 %r5, %r5, %r8;\n"
    "  movind.b32 %r6, %blk[%r5];\n"               /* the read form */
    "  ld.param.u64 %rd1, [out];\n  mul.wide.u32 %rd2, %r4, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r6;\n"
    "  ret;\n}\n";

/* 1-based line of the n-th (from 0) line of src containing `what`. */
static unsigned line_of(const char *what, int n)
{
    unsigned line = 1;
    for (const char *p = src; *p; p++) {
        if (!strncmp(p, what, strlen(what)) && n-- == 0)
            return line;
        line += *p == '\n';
    }
    return 0;
}

static int run(uint32_t ext, uint32_t shift, uint32_t idxmask, uint32_t seed, uint32_t *out, struct emu_fault *f,
               struct mx_diag *diag)
{
    struct fe_options opt = { 0 };
    opt.ext_mask = ext;
    struct mx_program prog;
    int rc = fe_parse_ptx(src, sizeof src - 1, "movind.ptx", &opt, &prog, diag);
    if (rc) {
        mx_program_free(&prog);
        return rc;
    }
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.ext_mask = ext;
    struct emu_device *dev;
    struct emu_module *mod;
    char err[256];
    assert_int_equal(emu_device_create(&cfg, &dev), MX_OK);
    assert_int_equal(emu_module_load(dev, &prog, &mod, err, sizeof err), MX_OK);
    uint64_t d;
    assert_int_equal(emu_malloc(dev, 64 * 4, &d), MX_OK);
    assert_int_equal(emu_memset(dev, d, 0, 64 * 4), MX_OK);
    uint8_t params[24];
    memcpy(params, &d, 8);
    memcpy(params + 8, &shift, 4);
    memcpy(params + 12, &idxmask, 4);
    memcpy(params + 16, &seed, 4);
    struct emu_launch l = { (uint32_t)mx_program_find_func(&prog, "k"), { 1, 1, 1 }, { 64, 1, 1 }, 0, params, sizeof params, 0 };
    rc = emu_launch(dev, mod, &l, NULL, f);
    if (!rc)
        assert_int_equal(emu_memcpy_dtoh(dev, out, d, 64 * 4), MX_OK);
    emu_module_unload(mod);
    emu_device_destroy(dev);
    mx_program_free(&prog);
    return rc;
}

static void off_is_rejected(void **state)
{
    (void)state;
    struct mx_diag diag = { 0 };
    uint32_t out[64];
    assert_int_equal(run(0, 0, 7, 1, out, NULL, &diag), MX_EPARSE);
    assert_int_equal(diag.nerrors, 2); /* both movind lines */
    char want[128];
    snprintf(want, sizeof want, "movind.ptx:%u:3: error: 'movind' belongs to ISA extension 'indirect-mov'", line_of("movind", 0));
    assert_non_null(strstr(diag.first, want));
}

static void on_matches_model(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 3; seed++)
        for (uint32_t shift = 0; shift < 8; shift++) {
            struct mx_diag diag = { 0 };
            uint32_t out[64];
            struct emu_fault f;
            assert_int_equal(run(1u << MX_EXT_INDIRECT_MOV, shift, 7, seed, out, &f, &diag), MX_OK);
            uint32_t blk[8];
            for (uint32_t k = 0; k < 8; k++)
                blk[k] = seed * 100 + k;
            for (uint32_t t = 0; t < 64; t++)
                assert_int_equal(out[t], blk[(t * 3 + shift) & 7]);
        }
}

static void out_of_range_faults(void **state)
{
    (void)state;
    struct mx_diag diag = { 0 };
    uint32_t out[64];
    struct emu_fault f;
    /* mask 15: thread t reads index (3t + 0) & 15, first >= 8 at t = 3 */
    assert_int_equal(run(1u << MX_EXT_INDIRECT_MOV, 0, 15, 1, out, &f, &diag), MX_EREGINDEX);
    assert_int_equal(f.status, MX_EREGINDEX);
    assert_int_equal(f.line, line_of("movind.b32 %r6", 0));
    assert_int_equal(f.tid[0], 3);
    assert_string_equal(f.kernel, "k");
    assert_non_null(strstr(f.message, "register index 9 is outside the declared range of 8 registers"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(off_is_rejected),
        cmocka_unit_test(on_matches_model),
        cmocka_unit_test(out_of_range_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

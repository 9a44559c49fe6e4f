/* tests/emu/test_regress_addr32.c — regression (found by workloads/nw): an
 * address [%r+imm] with a 32-bit register wraps at 2^32, as nvcc relies on
 * when it folds a negative offset into the register and a positive one into
 * the immediate.  Reference: the same arithmetic done in C on uint32_t. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "emu/emu.h"
#include "frontend/ptx.h"

static const char src[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .shared .align 4 .b8 sm[256];\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 2;\n"
    "  mov.u32 %r3, sm;\n  add.s32 %r4, %r3, %r2;\n"
    "  add.s32 %r5, %r4, 1000;\n  st.shared.u32 [%r4], %r5;\n"   /* sm[t] = &sm[t] + 1000 */
    "  bar.sync 0;\n"
    "  add.s32 %r6, %r4, -140;\n"                                 /* wraps below zero for small offsets */
    "  ld.shared.u32 %r7, [%r6+144];\n"                            /* = sm[t + 1] */
    "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd2, %rd2, %rd3;\n"
    "  st.global.u32 [%rd2], %r7;\n  ret;\n}\n";

static void wraps_at_32_bits(void **state)
{
    (void)state;
    struct mx_program prog;
    struct mx_diag diag = { 0 };
    assert_int_equal(fe_parse_ptx(src, sizeof src - 1, "addr32.ptx", NULL, &prog, &diag), MX_OK);
    struct emu_config cfg;
    emu_config_default(&cfg);
    struct emu_device *dev;
    struct emu_module *mod;
    char err[128];
    assert_int_equal(emu_device_create(&cfg, &dev), MX_OK);
    assert_int_equal(emu_module_load(dev, &prog, &mod, err, sizeof err), MX_OK);
    uint64_t d;
    assert_int_equal(emu_malloc(dev, 63 * 4, &d), MX_OK);
    struct emu_launch l = { (uint32_t)mx_program_find_func(&prog, "k"), { 1, 1, 1 }, { 63, 1, 1 }, 0, &d, 8, 0 };
    struct emu_fault f;
    assert_int_equal(emu_launch(dev, mod, &l, NULL, &f), MX_OK);
    uint32_t out[63];
    assert_int_equal(emu_memcpy_dtoh(dev, out, d, sizeof out), MX_OK);
    /* the kernel's shared variable sits at offset 0: sm[t + 1] = 4 (t + 1) + 1000 */
    for (uint32_t t = 0; t < 62; t++) {
        uint32_t addr = (uint32_t)(4 * t) - 140u + 144u; /* C's uint32_t wraps the same way */
        assert_int_equal(out[t], addr + 1000);
    }
    emu_module_unload(mod);
    emu_device_destroy(dev);
    mx_program_free(&prog);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(wraps_at_32_bits) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

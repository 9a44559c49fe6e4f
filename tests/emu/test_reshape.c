/* tests/emu/test_reshape.c — emu_device_reshape, the device side of the
 * online controller: after a change every CTA of the next grids runs, and
 * only on the SMs now in compute mode (each CTA writes its %smid), wherever
 * the previous grid's dealing left off; a change while a grid is active, or
 * one that leaves no SM computing, is refused and changes nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "emu/emu.h"
#include "frontend/ptx.h"

/* out[ctaid] = smid + 1 */
static const char src[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %tid.x;\n  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra DONE;\n"
    "  mov.u32 %r2, %smid;\n  add.u32 %r2, %r2, 1;\n  mov.u32 %r3, %ctaid.x;\n"
    "  ld.param.u64 %rd1, [out];\n  mul.wide.u32 %rd2, %r3, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r2;\n"
    "DONE:\n  ret;\n}\n";

#define NCTA 101 /* not a multiple of any split below: the dealing ends somewhere new each time */

struct fix {
    struct mx_program prog;
    struct emu_device *dev;
    struct emu_module *mod;
    uint64_t out;
    uint8_t params[8];
    struct emu_launch l;
};

static void open_fix(struct fix *f)
{
    struct fe_options opt = { 0 };
    struct mx_diag diag;
    memset(&diag, 0, sizeof diag);
    assert_int_equal(fe_parse_ptx(src, sizeof src - 1, "reshape.ptx", &opt, &f->prog, &diag), MX_OK);
    struct emu_config cfg;
    emu_config_default(&cfg); /* 68 SMs, none in cache mode */
    char err[256];
    assert_int_equal(emu_device_create(&cfg, &f->dev), MX_OK);
    assert_int_equal(emu_module_load(f->dev, &f->prog, &f->mod, err, sizeof err), MX_OK);
    assert_int_equal(emu_malloc(f->dev, NCTA * 4, &f->out), MX_OK);
    memcpy(f->params, &f->out, 8);
    f->l = (struct emu_launch){ (uint32_t)mx_program_find_func(&f->prog, "k"), { NCTA, 1, 1 }, { 64, 1, 1 }, 0,
                                f->params, sizeof f->params, 0 };
}

static void close_fix(struct fix *f)
{
    emu_module_unload(f->mod);
    emu_device_destroy(f->dev);
    mx_program_free(&f->prog);
}

/* Launches the grid; every CTA must have run on an SM below `compute`. */
static void launch_on(struct fix *f, uint32_t compute)
{
    uint32_t got[NCTA];
    struct emu_fault fault;
    assert_int_equal(emu_memset(f->dev, f->out, 0, NCTA * 4), MX_OK);
    int rc = emu_launch(f->dev, f->mod, &f->l, NULL, &fault);
    if (rc)
        fail_msg("launch on %u compute SMs: %s", compute, fault.message);
    assert_int_equal(emu_memcpy_dtoh(f->dev, got, f->out, sizeof got), MX_OK);
    for (int i = 0; i < NCTA; i++)
        if (got[i] == 0 || got[i] > compute)
            fail_msg("CTA %d ran on SM %d with %u compute-mode SMs", i, (int)got[i] - 1, compute);
}

static void every_cta_runs_on_the_compute_sms(void **state)
{
    (void)state;
    struct fix f;
    open_fix(&f);
    static const uint32_t compute[] = { 68, 51, 8, 17, 60, 1, 68 }; /* 68 to 51: dealing left off at SM 66 */
    for (size_t i = 0; i < sizeof compute / sizeof *compute; i++) {
        assert_int_equal(emu_device_reshape(f.dev, 68 - compute[i], NULL), MX_OK);
        assert_int_equal(emu_device_config(f.dev)->cache_sms, 68 - compute[i]);
        launch_on(&f, compute[i]);
        launch_on(&f, compute[i]); /* a second grid dealt from where the first ended */
    }
    close_fix(&f);
}

static void refused_while_a_grid_is_active(void **state)
{
    (void)state;
    struct fix f;
    open_fix(&f);
    struct emu_grid *g;
    struct emu_fault fault;
    assert_int_equal(emu_grid_start(f.dev, f.mod, &f.l, NULL, &fault, &g), MX_OK);
    assert_int_equal(emu_device_reshape(f.dev, 30, NULL), MX_EINVAL);
    assert_int_equal(emu_device_config(f.dev)->cache_sms, 0);
    assert_int_equal(emu_grid_wait(f.dev, g, NULL, &fault), MX_OK);
    assert_int_equal(emu_device_reshape(f.dev, 68, NULL), MX_EINVAL); /* no SM left to compute */
    assert_int_equal(emu_device_config(f.dev)->cache_sms, 0);
    launch_on(&f, 68);
    close_fix(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_cta_runs_on_the_compute_sms),
        cmocka_unit_test(refused_while_a_grid_is_active),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

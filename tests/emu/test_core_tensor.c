/* tests/emu/test_core_tensor.c — what the tensor-core instructions
 * (emu/exec_tensor.c) do with programs they cannot run right: a form the
 * emulator does not implement stops at launch-time binding with
 * "unsupported instruction" naming it (never a wrong answer), a
 * .sync.aligned matrix instruction executed by part of a warp stops with
 * MX_EILLEGAL naming the lanes, and a fragment access out of bounds is a
 * memory fault at the instruction's line.  Results of the supported forms
 * are checked bit for bit by tests/cuda/tensor_wmma.cu and tensor_mma.cu. */
#include "test_core.h"

static const char src[] = CT_HDR
    ".visible .entry unsup_m8n8k4_f16(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n  .reg .f32 %f<16>;\n"
    "  mov.b32 %r1, 0;\n  mov.b32 %r2, 0;\n  mov.b32 %r3, 0;\n  mov.b32 %r4, 0;\n"
    "  mov.f32 %f1, 0f00000000;\n"
    "  mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f2,%f3,%f4,%f5,%f6,%f7,%f8,%f9}, {%r1,%r2}, {%r3,%r4}, "
    "{%f1,%f1,%f1,%f1,%f1,%f1,%f1,%f1}; // @UNSUP\n"
    "  ret;\n"
    "}\n"
    ".visible .entry unsup_wmma_f64_shape(.param .u64 out)\n"
    "{\n"
    "  .reg .f64 %fd<4>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  wmma.load.a.sync.aligned.row.m16n16k16.global.f64 {%fd1}, [%rd1], 16; // @S4\n"
    "  ret;\n"
    "}\n"
    ".visible .entry half_warp(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n  .reg .f64 %fd<4>;\n  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ge.u32 %p1, %r1, 16;\n"
    "  mov.f64 %fd1, 0d3FF0000000000000;\n"
    "  @%p1 bra $END;\n"
    "  mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd2, %fd3}, {%fd1}, {%fd1}, {%fd1, %fd1}; // @HALF\n"
    "$END:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry oob_load(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<10>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1], 16; // @OOB\n"
    "  ret;\n"
    "}\n";

MX_TEST(tensor_unsupported_form_is_named)
{
    struct ct c;
    ct_open(&c, src);
    uint64_t out = ct_alloc(&c, 64, NULL);
    assert_int_equal(ct_launch(&c, "unsup_m8n8k4_f16", D3(1, 1, 1), D3(32, 1, 1), 0, 1, out), MX_EUNSUPPORTED);
    ct_assert_fault(&c, MX_EUNSUPPORTED, "unsup_m8n8k4_f16", NULL, NULL, ct_line_of(src, "@UNSUP"),
                    "unsupported instruction 'mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32'");
    ct_assert_alive(&c);
    assert_int_equal(ct_launch(&c, "unsup_wmma_f64_shape", D3(1, 1, 1), D3(32, 1, 1), 0, 1, out), MX_EUNSUPPORTED);
    ct_assert_fault(&c, MX_EUNSUPPORTED, "unsup_wmma_f64_shape", NULL, NULL, ct_line_of(src, "@S4"),
                    "unsupported instruction 'wmma.load.a.sync.aligned.row.m16n16k16.global.f64'");
    ct_close(&c);
}

MX_TEST(tensor_part_of_a_warp_is_illegal)
{
    struct ct c;
    ct_open(&c, src);
    uint64_t out = ct_alloc(&c, 64, NULL);
    assert_int_equal(ct_launch(&c, "half_warp", D3(1, 1, 1), D3(32, 1, 1), 0, 1, out), MX_EILLEGAL);
    ct_assert_fault(&c, MX_EILLEGAL, "half_warp", D3(0, 0, 0), D3(0, 0, 0), ct_line_of(src, "@HALF"),
                    "executed by lanes 0x0000ffff: a .sync.aligned matrix instruction needs all 32 threads of the warp");
    ct_assert_alive(&c);
    ct_close(&c);
}

MX_TEST(tensor_fragment_out_of_bounds_faults)
{
    struct ct c;
    ct_open(&c, src);
    uint64_t out = ct_alloc(&c, 64, NULL); /* a 16x16 f16 tile needs 512 bytes */
    assert_int_equal(ct_launch(&c, "oob_load", D3(1, 1, 1), D3(32, 1, 1), 0, 1, out), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "oob_load", NULL, NULL, ct_line_of(src, "@OOB"), "out of bounds");
    ct_assert_alive(&c);
    ct_close(&c);
}

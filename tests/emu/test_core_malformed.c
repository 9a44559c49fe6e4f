/* tests/emu/test_core_malformed.c — the interpreter never trusts the front
 * end for memory safety.  Each program here is parsed from valid PTX and
 * then mutated in its decoded form (struct mx_program), bypassing the
 * validator, into what a buggy front end could hand over: a .v4 access
 * whose data is one register, operands of the wrong kind, registers,
 * symbols and labels that do not exist, missing operands, opcodes given
 * another opcode's operands...  Launching such a program must stop the
 * kernel with a status and a report (MX_EILLEGAL "invalid instruction"
 * for what the binders recognise as malformed), never crash the host, and
 * leave the device usable. */
#include "test_core.h"

#include <stdlib.h>

/* ------------------------------------------------- .vN with a scalar operand */

static const char vec_src[] = CT_HDR
    ".visible .entry k(.param .u64 out, .param .align 16 .b8 pv[16])\n"
    "{\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .f32 %f<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1]; // LD_V4\n"
    "  st.global.v4.u32 [%rd1+16], {%r1, %r2, %r3, %r4}; // ST_V4\n"
    "  ld.param.v4.u32 {%r1, %r2, %r3, %r4}, [pv]; // LD_PARAM_V4\n"
    "  ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1]; // LD_NC_V4\n"
    "  st.global.v2.u32 [%rd1+32], {%r1, %r2}; // ST_V2\n"
    "  ld.global.u32 %r5, [%rd1]; // LD_S\n"
    "  st.global.u32 [%rd1+48], %r5;\n"
    "  ret;\n"
    "}\n";

/* Index of the instruction on the line holding `marker`. */
static uint32_t insn_at(struct ct *c, const char *marker)
{
    unsigned line = ct_line_of(c->src, marker);
    for (uint32_t i = 0; i < c->p.prog.ninsns; i++)
        if (c->p.prog.insns[i].line == line)
            return i;
    fail_msg("no instruction on line %u", line);
    return 0;
}

/* Replaces operand `slot` of the instruction at `marker` with a scalar register
 * (the first element of the vector it held), runs the kernel and checks the
 * report: MX_EILLEGAL at that line, naming the instruction and the shape. */
static void check_scalar_for_vector(const char *marker, int slot, const char *want)
{
    struct ct c;
    ct_open(&c, vec_src);
    struct mx_program *g = &c.p.prog;
    struct mx_insn *in = &g->insns[insn_at(&c, marker)];
    assert_int_equal(in->opd[slot].kind, MX_OPD_VEC);
    struct mx_operand first = g->vec[in->opd[slot].reg];
    assert_int_equal(first.kind, MX_OPD_REG);
    in->opd[slot] = first; /* {%r1, %r2, %r3, %r4} -> %r1 */
    uint64_t out = ct_alloc(&c, 64, NULL);
    uint8_t pv[16] = { 0 };
    assert_int_equal(ct_launch(&c, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 2, out, (uint64_t)(uintptr_t)pv), MX_EILLEGAL);
    ct_assert_fault(&c, MX_EILLEGAL, "k", D3(0, 0, 0), D3(0, 0, 0), ct_line_of(vec_src, marker), want);
    ct_assert_alive(&c);
    ct_close(&c);
}

MX_TEST(malformed_ld_v4_scalar_destination)
{
    check_scalar_for_vector("LD_V4", 0, "invalid instruction 'ld.global.v4.u32': operand 0 is not a vector of 4 elements");
}
MX_TEST(malformed_st_v4_scalar_source)
{
    check_scalar_for_vector("ST_V4", 1, "invalid instruction 'st.global.v4.u32': operand 1 is not a vector of 4 elements");
}
MX_TEST(malformed_ld_param_v4_scalar_destination)
{
    check_scalar_for_vector("LD_PARAM_V4", 0, "invalid instruction 'ld.param.v4.u32': operand 0 is not a vector of 4 elements");
}
MX_TEST(malformed_ld_nc_v4_scalar_destination)
{
    check_scalar_for_vector("LD_NC_V4", 0, "invalid instruction 'ld.global.nc.v4.f32': operand 0 is not a vector of 4 elements");
}

/* A .v4 whose vector has two elements, and a scalar load handed a vector. */
MX_TEST(malformed_vector_width_and_scalar_with_vector)
{
    struct ct c;
    ct_open(&c, vec_src);
    struct mx_program *g = &c.p.prog;
    g->insns[insn_at(&c, "LD_V4")].opd[0].count = 2;
    uint64_t out = ct_alloc(&c, 64, NULL);
    uint8_t pv[16] = { 0 };
    assert_int_equal(ct_launch(&c, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 2, out, (uint64_t)(uintptr_t)pv), MX_EILLEGAL);
    ct_assert_fault(&c, MX_EILLEGAL, "k", NULL, NULL, ct_line_of(vec_src, "LD_V4"), "operand 0 is not a vector of 4 elements");
    ct_close(&c);

    ct_open(&c, vec_src);
    g = &c.p.prog;
    struct mx_insn *ld = &g->insns[insn_at(&c, "LD_S")];
    ld->opd[0] = g->insns[insn_at(&c, "ST_V2")].opd[1]; /* ld.global.u32 {%r1, %r2}, [%rd1] */
    out = ct_alloc(&c, 64, NULL);
    assert_int_equal(ct_launch(&c, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 2, out, (uint64_t)(uintptr_t)pv), MX_EILLEGAL);
    ct_assert_fault(&c, MX_EILLEGAL, "k", NULL, NULL, ct_line_of(vec_src, "LD_S"),
                    "invalid instruction 'ld.global.u32': operand 0 is not a kind of operand this instruction takes there");
    ct_close(&c);
}

/* Registers and labels that do not exist, a missing operand, a bad guard. */
MX_TEST(malformed_refs_out_of_range)
{
    static const struct {
        const char *marker;
        int slot;         /* operand to break, -1: the guard */
        uint32_t reg;     /* new reg field */
        const char *msg;
    } cases[] = {
        { "LD_S", 0, 1000, "operand 0 names a register, predicate, symbol, label, function or vector element that does not exist" },
        { "LD_S", 1, 1000, "operand 1 names a register" },       /* the address register */
        { "ST_V2", 1, 1u << 30, "operand 1 names a register" }, /* the vector's first element */
        { "LD_S", -1, 7, "its guard is not a predicate register of the function" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ct c;
        ct_open(&c, vec_src);
        struct mx_insn *in = &c.p.prog.insns[insn_at(&c, cases[i].marker)];
        if (cases[i].slot < 0)
            in->guard = cases[i].reg;
        else
            in->opd[cases[i].slot].reg = cases[i].reg;
        uint64_t out = ct_alloc(&c, 64, NULL);
        uint8_t pv[16] = { 0 };
        assert_int_equal(ct_launch(&c, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 2, out, (uint64_t)(uintptr_t)pv), MX_EILLEGAL);
        ct_assert_fault(&c, MX_EILLEGAL, "k", NULL, NULL, ct_line_of(vec_src, cases[i].marker), cases[i].msg);
        ct_close(&c);
    }
    /* a required operand left out */
    struct ct c;
    ct_open(&c, vec_src);
    struct mx_insn *ld = &c.p.prog.insns[insn_at(&c, "LD_S")];
    ld->nopd = 1;
    memset(&ld->opd[1], 0, sizeof ld->opd[1]);
    uint64_t out = ct_alloc(&c, 64, NULL);
    uint8_t pv[16] = { 0 };
    assert_int_equal(ct_launch(&c, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 2, out, (uint64_t)(uintptr_t)pv), MX_EILLEGAL);
    ct_assert_fault(&c, MX_EILLEGAL, "k", NULL, NULL, ct_line_of(vec_src, "LD_S"), "'ld.global.u32': operand 1 is missing");
    ct_close(&c);
}

/* ------------------------------------------------------------ mutation sweep
 * Every instruction form the emulator implements (one line each below) is
 * put into a kernel whose registers hold usable values (a device buffer, a
 * texture handle, a function address...), so that a handler would really
 * run on whatever its binder accepted.  The line's decoded instruction is
 * then mutated, one change at a time: each operand replaced by every kind of
 * operand (valid, out of range, of the wrong shape), operands dropped or
 * added, the opcode replaced by every other opcode, each type slot and
 * modifier group set to every value and past the end, the guard and the
 * reconvergence point pointed outside the function.  Each mutant is
 * launched on one warp; it must return (any status — a crash fails the
 * whole test binary), and a MX_EILLEGAL "invalid instruction" report must
 * name the instruction's line. */

static const char sweep_head[] = CT_HDR
    ".func (.param .b32 fr) fn(.param .b32 fa)\n"
    "{\n"
    "  .reg .b32 %q<2>;\n"
    "  ld.param.b32 %q1, [fa];\n"
    "  st.param.b32 [fr], %q1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry k(.param .u64 out, .param .u64 tex)\n"
    "{\n"
    "  .reg .b16 %rs<8>;\n  .reg .b32 %r<8>;\n  .reg .f32 %f<8>;\n  .reg .b64 %rd<8>;\n"
    "  .reg .f64 %fd<4>;\n  .reg .pred %p<4>;\n  .reg .b32 %blk<4>;\n"
    "  .shared .align 16 .b8 sm[256];\n"
    "  .local .align 16 .b8 lo[64];\n"
    "  .param .b32 pa;\n  .param .b32 pr;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u64 %rd2, [tex];\n"
    "  mov.u64 %rd3, sm;\n  cvta.shared.u64 %rd4, %rd3;\n"
    "  mov.u64 %rd5, fn;\n  add.u64 %rd6, %rd1, 64;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, 1;\n  mov.u32 %r3, 2;\n  mov.u32 %r4, 3;\n"
    "  mov.f32 %f1, 0f3FC00000;\n  mov.f32 %f2, 0f3E800000;\n  mov.f64 %fd1, 0d3FF8000000000000;\n"
    "  mov.b16 %rs1, 0x3C00;\n  mov.b16 %rs2, 0x4000;\n"
    "  setp.lt.u32 %p1, %r1, 16;\n  setp.eq.u32 %p2, %r2, 1;\n"
    "  mov.u32 %r5, 0;\n"
    "$TS: .branchtargets $L0, $L1;\n"
    "  proto : .callprototype (.param .b32 _) _ (.param .b32 _);\n";
static const char sweep_tail[] =
    "\n$L0:\n  add.u32 %r6, %r6, 1;\n$L1:\n  st.global.u32 [%rd1], %r6;\n  ret;\n}\n";

/* Instruction forms with a binder (every family), valid as written; the
 * last instruction of a line is the one mutated (the mbarrier forms
 * initialize their object first). */
static const char *const sweep_lines[] = {
    "add.s32 %r6, %r1, %r2;", "add.f32 %f3, %f1, %f2;", "add.rn.f64 %fd2, %fd1, %fd1;", "add.f16 %rs3, %rs1, %rs2;",
    "add.cc.u32 %r6, %r1, %r2;", "addc.u32 %r6, %r1, %r2;", "sub.s64 %rd7, %rd1, %rd6;", "mul.lo.s32 %r6, %r1, %r2;",
    "mul.wide.u32 %rd7, %r1, %r2;", "mul.hi.u64 %rd7, %rd1, %rd6;", "mad.lo.s32 %r6, %r1, %r2, %r3;",
    "mad.rn.f32 %f3, %f1, %f2, %f1;", "madc.lo.u32 %r6, %r1, %r2, %r3;", "mul24.lo.u32 %r6, %r1, %r2;",
    "mad24.lo.u32 %r6, %r1, %r2, %r3;", "sad.u32 %r6, %r1, %r2, %r3;", "div.u32 %r6, %r1, %r2;",
    "div.rn.f32 %f3, %f1, %f2;", "div.full.f32 %f3, %f1, %f2;", "div.rn.f64 %fd2, %fd1, %fd1;", "rem.s32 %r6, %r1, %r2;",
    "abs.s32 %r6, %r1;", "neg.f32 %f3, %f1;", "min.u32 %r6, %r1, %r2;", "max.f32 %f3, %f1, %f2;", "min.f16 %rs3, %rs1, %rs2;",
    "popc.b32 %r6, %r1;", "clz.b64 %r6, %rd1;", "brev.b32 %r6, %r1;", "bfind.u32 %r6, %r1;", "fns.b32 %r6, %r1, %r2, 1;",
    "bfe.u32 %r6, %r1, %r2, 8;", "bfi.b32 %r6, %r1, %r2, 4, 8;", "bmsk.clamp.b32 %r6, %r1, %r2;",
    "szext.clamp.s32 %r6, %r1, %r2;", "dp4a.u32.u32 %r6, %r1, %r2, %r3;", "dp2a.lo.u32.u32 %r6, %r1, %r2, %r3;",
    "prmt.b32 %r6, %r1, %r2, 0x3210;", "vabsdiff4.u32.u32.u32.add %r6, %r1, %r2, %r3;", "and.b32 %r6, %r1, %r2;",
    "or.pred %p3, %p1, %p2;", "xor.b64 %rd7, %rd1, %rd6;", "not.b32 %r6, %r1;", "cnot.b32 %r6, %r1;",
    "lop3.b32 %r6, %r1, %r2, %r3, 0x96;", "shl.b32 %r6, %r1, %r2;", "shr.s32 %r6, %r1, %r2;",
    "shf.l.clamp.b32 %r6, %r1, %r2, %r3;", "setp.lt.s32 %p3, %r1, %r2;", "setp.lt.and.f32 %p3|%p2, %f1, %f2, %p1;",
    "set.lt.u32.f32 %r6, %f1, %f2;", "selp.b32 %r6, %r1, %r2, %p1;", "slct.s32.s32 %r6, %r1, %r2, %r3;",
    "slct.f32.f32 %f3, %f1, %f2, %f1;", "mov.u32 %r6, %r1;", "mov.b64 %rd7, {%r1, %r2};", "mov.b64 {%r6, %r7}, %rd1;",
    "mov.pred %p3, %p1;", "mov.u64 %rd7, sm;", "mov.u64 %rd7, lo;", "mov.u32 %r6, %clock;", "mov.s16 %rs3, %rs1;",
    "ld.global.u32 %r6, [%rd1];", "ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd1];", "ld.global.nc.v2.f32 {%f3, %f4}, [%rd1];",
    "ld.shared.s8 %r6, [sm+3];", "ld.local.u32 %r6, [lo];", "ld.param.u64 %rd7, [out];", "ld.u32 %r6, [%rd4];",
    "ldu.global.u32 %r6, [%rd1];", "st.global.u32 [%rd1+4], %r1;", "st.global.v2.u32 [%rd1], {%r1, %r2};",
    "st.shared.u16 [%rd3], %rs1;", "st.local.u32 [lo+8], %r1;", "st.param.b32 [pa], %r1;", "prefetch.global.L2 [%rd1];",
    "cvt.rn.f32.s32 %f3, %r1;", "cvt.rzi.s32.f32 %r6, %f1;", "cvt.f64.f32 %fd2, %f1;", "cvt.rn.f16x2.f32 %r6, %f1, %f2;",
    "cvt.u8.u32 %r6, %r1;", "cvt.rn.satfinite.e4m3x2.f32 %rs3, %f1, %f2;", "cvt.rn.f16.f32 %rs3, %f1;",
    "cvt.s64.s32 %rd7, %r1;", "cvta.to.global.u64 %rd7, %rd1;", "cvta.shared.u64 %rd7, %rd3;",
    "isspacep.global %p3, %rd1;", "atom.global.add.u32 %r6, [%rd1], 1;", "atom.global.cas.b32 %r6, [%rd1], %r1, %r2;",
    "atom.shared.add.f32 %f3, [%rd3], %f1;", "red.global.add.u32 [%rd1], %r1;", "atom.global.exch.b64 %rd7, [%rd6], %rd1;",
    "@%p1 bra $L1;", "brx.idx %r5, $TS;", "call (pr), fn, (pa);", "call (pr), %rd5, (pa), proto;", "ret;", "exit;",
    "nanosleep.u32 10;", "pmevent 1;", "bar.sync 0;", "barrier.sync 0;", "bar.arrive 1, 32;",
    "bar.red.popc.u32 %r6, 0, %p1;", "bar.red.and.pred %p3, 0, %p1;", "bar.warp.sync -1;", "membar.gl;", "fence.sc.gpu;",
    "activemask.b32 %r6;", "vote.sync.ballot.b32 %r6, %p1, -1;", "vote.sync.all.pred %p3, %p1, -1;",
    "shfl.sync.bfly.b32 %r6|%p3, %r1, 1, 31, -1;", "match.any.sync.b32 %r6, %r1, -1;",
    "match.all.sync.b64 %r6|%p3, %rd1, -1;", "redux.sync.add.u32 %r6, %r1, -1;",
    "tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd2, {%f1, %f2}];", "tex.1d.v4.s32.s32 {%r4, %r5, %r6, %r7}, [%rd2, {%r1}];",
    "txq.width.b32 %r6, [%rd2];", "rcp.rn.f32 %f3, %f1;", "rcp.approx.ftz.f64 %fd2, %fd1;", "sqrt.rn.f32 %f3, %f1;",
    "rsqrt.approx.f32 %f3, %f1;", "sin.approx.f32 %f3, %f1;", "lg2.approx.f32 %f3, %f1;", "ex2.approx.f32 %f3, %f1;",
    "ex2.approx.f16 %rs3, %rs1;", "tanh.approx.f32 %f3, %f1;", "fma.rn.f32 %f3, %f1, %f2, %f1;",
    "fma.rn.f64 %fd2, %fd1, %fd1, %fd1;", "fma.rn.f16x2 %r6, %r1, %r2, %r3;", "copysign.f32 %f3, %f1, %f2;",
    "testp.finite.f32 %p3, %f1;", "setp.lt.f16 %p3, %rs1, %rs2;", "abs.bf16 %rs3, %rs1;", "trap;",
    "movind.b32 %r6, %blk[%r2];", "movind.b32 %blk[%r3], %r1;", "wake.warp %r5;", "wake.grid %r5;",
    "cp.async.ca.shared.global [%rd3], [%rd1], 4, %r2;", "cp.async.cg.shared.global [sm+16], [%rd1+16], 16;",
    "cp.async.ca.shared.global [%rd3], [%rd1], 8, %p1;", "cp.async.ca.shared.global.L2::cache_hint [%rd3], [%rd1], 16, %rd6;",
    "cp.async.commit_group;", "cp.async.wait_group 0;", "cp.async.wait_all;",
    "mbarrier.init.shared.b64 [sm+64], 1000; cp.async.mbarrier.arrive.noinc.shared.b64 [%rd3+64];", "mbarrier.init.shared.b64 [%rd3+64], 32;",
    "mbarrier.init.shared.b64 [sm+64], 1000; mbarrier.inval.shared.b64 [%rd3+64];", "mbarrier.init.shared.b64 [sm+64], 1000; mbarrier.arrive.shared.b64 %rd7, [%rd3+64];",
    "mbarrier.init.shared.b64 [sm+64], 1000; mbarrier.arrive_drop.noComplete.shared.b64 %rd7, [%rd3+64], 1;", "mbarrier.init.shared.b64 [sm+64], 1000; mbarrier.arrive.expect_tx.shared.b64 _, [%rd3+64], 16;",
    "mbarrier.init.shared.b64 [sm+64], 1000; mbarrier.expect_tx.shared.b64 [%rd3+64], 16;", "mbarrier.init.shared.b64 [sm+64], 1000; mbarrier.complete_tx.shared.b64 [%rd3+64], 16;",
    "mbarrier.init.shared.b64 [sm+64], 1000; mbarrier.test_wait.shared.b64 %p3, [%rd3+64], %rd1;", "mbarrier.init.shared.b64 [sm+64], 1000; mbarrier.try_wait.parity.shared.b64 %p3, [%rd3+64], %r2, 100;",
    "mbarrier.pending_count.b64 %r6, %rd1;",
    "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1], 16;",
    "wmma.load.c.sync.aligned.col.m8n8k4.f64 {%fd2, %fd3}, [%rd1], %r4;",
    "wmma.store.d.sync.aligned.row.m8n8k4.global.f64 [%rd1], {%fd1, %fd2}, 8;",
    "wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rn {%fd2, %fd3}, {%fd1}, {%fd1}, {%fd2, %fd3};",
    "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd2, %fd3}, {%fd1}, {%fd1}, {%fd2, %fd3};",
    "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f3, %f4, %f5, %f6}, {%r1, %r2}, {%r3}, {%f3, %f4, %f5, %f6};",
    "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r4, %r5, %r6, %r7}, [%rd3];",
};

struct sweep {
    struct mxt_parse p;
    struct emu_device *dev;
    uint64_t out, tex;
    uint32_t ii;                 /* the instruction under test */
    struct mx_insn orig;
    uint32_t nvec;               /* prog->vec entries before any mutation */
    unsigned line;
    unsigned launches, invalid;
};

/* Appends n copies of e to prog->vec; returns the first index. */
static uint32_t push_elems(struct mx_program *g, const struct mx_operand *e, uint32_t n)
{
    if (g->nvec + n > g->vec_cap) {
        g->vec_cap = g->nvec + n + 16;
        g->vec = realloc(g->vec, g->vec_cap * sizeof *g->vec);
        assert_non_null(g->vec);
    }
    for (uint32_t i = 0; i < n; i++)
        g->vec[g->nvec + i] = e[i % 4];
    g->nvec += n;
    return g->nvec - n;
}

/* Loads the (mutated) program in a fresh module, launches one warp, checks
 * the outcome, then restores the instruction. */
static void sweep_run(struct sweep *s, const char *what, int v)
{
    struct mx_program *g = &s->p.prog;
    struct emu_module *m = NULL;
    char err[256];
    assert_int_equal(emu_module_load(s->dev, g, &m, err, sizeof err), MX_OK);
    uint64_t params[2] = { s->out, s->tex };
    struct emu_launch l = { (uint32_t)mx_program_find_func(g, "k"), { 1, 1, 1 }, { 32, 1, 1 }, 0, params, sizeof params, 0 };
    struct emu_fault f;
    memset(&f, 0, sizeof f);
    int rc = emu_launch(s->dev, m, &l, NULL, &f);
    s->launches++;
    if (rc < 0 || rc >= MX_STATUS__COUNT || (rc && rc != f.status))
        fail_msg("line %u %s %d: launch returned %d (fault status %d)", s->line, what, v, rc, f.status);
    if (rc == MX_EILLEGAL && strstr(f.message, "invalid instruction")) {
        s->invalid++;
        if (f.line != s->line)
            fail_msg("line %u %s %d: invalid instruction reported at line %u: %s", s->line, what, v, f.line, f.message);
    }
    emu_module_unload(m);
    g->insns[s->ii] = s->orig;
    g->nvec = s->nvec;
}

static void sweep_line(struct sweep *s, const char *insn)
{
    size_t n = strlen(sweep_head) + strlen(insn) + strlen(sweep_tail) + 8;
    char *src = malloc(n);
    assert_non_null(src);
    snprintf(src, n, "%s  %s%s", sweep_head, insn, sweep_tail);
    mxt_parse(&s->p, src, 1u << MX_EXT_INDIRECT_MOV | 1u << MX_EXT_PARK);
    if (s->p.rc || s->p.diag.nerrors)
        fail_msg("sweep line '%s' does not parse:\n%s", insn, s->p.text);
    struct mx_program *g = &s->p.prog;
    s->line = 1;
    for (const char *q = sweep_head; *q; q++)
        s->line += *q == '\n';
    uint32_t k = (uint32_t)mx_program_find_func(g, "k"), fn = (uint32_t)mx_program_find_func(g, "fn");
    const struct mx_func *kf = &g->funcs[k];
    s->ii = MX_NONE;
    for (uint32_t i = kf->first; i < kf->first + kf->ninsns; i++)
        if (g->insns[i].line == s->line)
            s->ii = i;
    assert_int_not_equal(s->ii, MX_NONE);
    s->orig = g->insns[s->ii];
    s->nvec = g->nvec;
    struct mx_insn *in = &g->insns[s->ii];

    /* the unmutated form runs (trap excepted) */
    struct emu_module *m = NULL;
    char err[256];
    assert_int_equal(emu_module_load(s->dev, g, &m, err, sizeof err), MX_OK);
    uint64_t params[2] = { s->out, s->tex };
    struct emu_launch l = { k, { 1, 1, 1 }, { 32, 1, 1 }, 0, params, sizeof params, 0 };
    struct emu_fault f;
    int rc = emu_launch(s->dev, m, &l, NULL, &f);
    if (rc != (in->op == MX_OP_TRAP ? MX_ETRAP : MX_OK)) {
        emu_fault_print(stderr, &f);
        fail_msg("sweep line '%s' fails unmutated: %s", insn, mx_status_name(rc));
    }
    emu_module_unload(m);

    uint32_t r1 = mxt_regdecl(g, k, "%r")->base + 1, rd1 = mxt_regdecl(g, k, "%rd")->base + 1;
    uint32_t f1 = mxt_regdecl(g, k, "%f")->base + 1, p1 = mxt_regdecl(g, k, "%p")->base + 1;
    uint32_t sm = mxt_sym(g, k, "sm"), lo = mxt_sym(g, k, "lo"), pa = mxt_sym(g, k, "pa"), outp = mxt_sym(g, k, "out");
    uint32_t fa = mxt_sym(g, fn, "fa"), lab = mxt_label(g, k, "$L1");
    const struct mx_operand R = { .kind = MX_OPD_REG, .type = MX_T_U32, .reg = r1 };
    const struct mx_operand RD = { .kind = MX_OPD_REG, .type = MX_T_U64, .reg = rd1 };
    const struct mx_operand F = { .kind = MX_OPD_REG, .type = MX_T_F32, .reg = f1 };
    const struct mx_operand P = { .kind = MX_OPD_PRED, .type = MX_T_PRED, .reg = p1 };
    const struct mx_operand I = { .kind = MX_OPD_IMM, .type = MX_T_U32, .imm = 1 };
    const struct mx_operand SK = { .kind = MX_OPD_SINK };
    const struct mx_operand BADR = { .kind = MX_OPD_REG, .type = MX_T_U32, .reg = kf->nregs };
    const struct mx_operand elems[][4] = { { R, F, R, F }, { P, P, P, P }, { SK, SK, SK, SK }, { I, R, I, R },
                                           { BADR, R, R, R }, { RD, RD, RD, RD } };
    const struct mx_operand SYMS[] = { { .kind = MX_OPD_SYM, .reg = pa }, { .kind = MX_OPD_SYM, .reg = sm },
                                       { .kind = MX_OPD_SYM, .reg = outp }, { .kind = MX_OPD_SYM, .reg = fa } };

    for (int slot = 0; slot < MX_MAX_OPD; slot++) {
        for (int v = 0; v < 64; v++) {
            struct mx_operand o = { 0 };
            switch (v) {
            case 0: break; /* NONE */
            case 1: o = R; break;
            case 2: o = BADR; break;
            case 3: o = R; o.reg = 1u << 30; break;
            case 4: o = P; break;
            case 5: o = P; o.reg = kf->npreds; break;
            case 6: o = P; o.flags = MX_OPDF_NEG; break;
            case 7: o = I; break;
            case 8: o = I; o.imm = -1; break;
            case 9: o.kind = MX_OPD_SREG; o.reg = MX_SREG_TID; break;
            case 10: o.kind = MX_OPD_SREG; o.reg = MX_SREG_TID; o.imm = 5; break;
            case 11: o.kind = MX_OPD_SREG; o.reg = MX_SREG__COUNT; break;
            case 12: o.kind = MX_OPD_SREG; o.reg = MX_SREG_CLOCK64; break;
            case 13: o.kind = MX_OPD_SREG; o.reg = MX_SREG_IS_EXPLICIT_CLUSTER; break;
            case 14: o.kind = MX_OPD_SYM; o.reg = sm; break;
            case 15: o.kind = MX_OPD_SYM; o.reg = g->nsyms; break;
            case 16: o.kind = MX_OPD_SYM; o.reg = lo; break;
            case 17: o.kind = MX_OPD_SYM; o.reg = outp; break;
            case 18: o.kind = MX_OPD_ADDR; o.reg = rd1; o.sym = MX_NONE; break;
            case 19: o.kind = MX_OPD_ADDR; o.reg = MX_NONE; o.sym = sm; break;
            case 20: o.kind = MX_OPD_ADDR; o.reg = kf->nregs + 100; o.sym = MX_NONE; break;
            case 21: o.kind = MX_OPD_ADDR; o.reg = MX_NONE; o.sym = g->nsyms; break;
            case 22: o.kind = MX_OPD_ADDR; o.reg = rd1; o.sym = lo; break;
            case 23: o.kind = MX_OPD_ADDR; o.reg = MX_NONE; o.sym = outp; o.imm = 4096; break;
            case 24: o.kind = MX_OPD_ADDR; o.reg = MX_NONE; o.sym = pa; break;
            case 25: o.kind = MX_OPD_ADDR; o.reg = r1; o.sym = MX_NONE; o.flags = MX_OPDF_BASE32; break;
            case 26: case 27: case 28: case 29: case 30: case 31: { /* vectors of 1, 2, 3, 4, 5 and 8 registers */
                static const uint32_t cnt[] = { 1, 2, 3, 4, 5, 8 };
                o.kind = MX_OPD_VEC;
                o.count = cnt[v - 26];
                o.reg = push_elems(g, elems[0], o.count);
                break;
            }
            case 32: case 33: case 34: case 35: case 36: /* vectors of 4 predicates, sinks, immediates, bad registers, u64 */
                o.kind = MX_OPD_VEC;
                o.count = 4;
                o.reg = push_elems(g, elems[v - 31], 4);
                break;
            case 37: o.kind = MX_OPD_VEC; o.count = 4; o.reg = g->nvec; break;          /* elements past the end */
            case 38: o.kind = MX_OPD_VEC; o.count = 0x7fffffff; o.reg = 0; break;
            case 39: { /* a vector holding a vector */
                struct mx_operand in4[4] = { R, R, R, R };
                in4[1].kind = MX_OPD_VEC;
                in4[1].count = 2;
                in4[1].reg = push_elems(g, elems[0], 2);
                o.kind = MX_OPD_VEC;
                o.count = 4;
                o.reg = push_elems(g, in4, 4);
                break;
            }
            case 40: o.kind = MX_OPD_LABEL; o.reg = lab; break;
            case 41: o.kind = MX_OPD_LABEL; o.reg = g->ninsns + 5; break;
            case 42: o.kind = MX_OPD_LABEL; o.reg = g->funcs[fn].first; break;           /* another function's code */
            case 43: { /* a target list of labels, and one of registers */
                struct mx_operand t[4] = { { .kind = MX_OPD_LABEL, .reg = lab }, { .kind = MX_OPD_LABEL, .reg = lab },
                                           { .kind = MX_OPD_LABEL, .reg = lab }, { .kind = MX_OPD_LABEL, .reg = lab } };
                o.kind = MX_OPD_TARGETS;
                o.count = 2;
                o.reg = push_elems(g, t, 2);
                break;
            }
            case 44: o.kind = MX_OPD_TARGETS; o.count = 3; o.reg = push_elems(g, elems[0], 3); break;
            case 45: o.kind = MX_OPD_LIST; o.count = 1; o.reg = push_elems(g, SYMS, 1); break;       /* (pa) */
            case 46: o.kind = MX_OPD_LIST; o.count = 1; o.reg = push_elems(g, SYMS + 1, 1); break;   /* (sm) */
            case 47: o.kind = MX_OPD_LIST; o.count = 1; o.reg = push_elems(g, SYMS + 3, 1); break;   /* (fn's own fa) */
            case 48: o.kind = MX_OPD_LIST; o.count = 2; o.reg = push_elems(g, elems[0], 2); break;   /* registers */
            case 49: { /* [%rd2, {%f1, %f2}] and malformed texture operands */
                struct mx_operand t[4] = { RD, { .kind = MX_OPD_VEC, .count = 2 } };
                t[1].reg = push_elems(g, elems[0] + 1, 2);
                o.kind = MX_OPD_TEXADDR;
                o.count = 2;
                o.reg = push_elems(g, t, 2);
                break;
            }
            case 50: { struct mx_operand t[4] = { RD, { .kind = MX_OPD_VEC, .count = 3, .reg = 1u << 31 } };
                       o.kind = MX_OPD_TEXADDR; o.count = 2; o.reg = push_elems(g, t, 2); break; }
            case 51: { struct mx_operand t[4] = { SK, F }; o.kind = MX_OPD_TEXADDR; o.count = 2; o.reg = push_elems(g, t, 2); break; }
            case 52: o.kind = MX_OPD_TEXADDR; o.count = 1; o.reg = push_elems(g, &RD, 1); break;
            case 53: o.kind = MX_OPD_FUNC; o.reg = fn; break;
            case 54: o.kind = MX_OPD_FUNC; o.reg = g->nfuncs; break;
            case 55: o.kind = MX_OPD_FUNC; o.reg = k; break;                               /* the kernel itself */
            case 56: o.kind = MX_OPD_PROTO; o.reg = mx_program_find_func(g, "proto") >= 0 ? (uint32_t)mx_program_find_func(g, "proto") : 0; break;
            case 57: o = SK; break;
            case 58: o.kind = MX_OPD_INDREG; o.reg = r1; o.sym = 3; o.imm = r1; break;
            case 59: o.kind = MX_OPD_INDREG; o.reg = kf->nregs - 1; o.sym = 4; o.imm = r1; break;
            case 60: o.kind = MX_OPD_INDREG; o.reg = r1; o.sym = 2; o.imm = kf->nregs + 9; break;
            case 61: o.kind = 99; break;
            case 62: o = RD; break;
            case 63: o = F; break;
            }
            in->opd[slot] = o;
            if (in->nopd <= slot)
                in->nopd = (uint8_t)(slot + 1);
            sweep_run(s, "operand", slot * 100 + v);
        }
    }
    static const unsigned nopds[] = { 0, 1, 2, 3, 4, 5, MX_MAX_OPD, 255 };
    for (size_t i = 0; i < sizeof nopds / sizeof nopds[0]; i++) {
        in->nopd = (uint8_t)nopds[i];
        sweep_run(s, "nopd", (int)nopds[i]);
    }
    for (int op = 0; op <= MX_OP__COUNT + 1; op++) {
        in->op = (uint16_t)op;
        sweep_run(s, "op", op);
    }
    in->op = 0xffff;
    sweep_run(s, "op", 0xffff);
    for (int t = 0; t < MX_MAX_TYPES; t++)
        for (int v = 0; v <= MX_T__COUNT; v++) {
            in->type[t] = (uint8_t)v;
            sweep_run(s, "type", t * 1000 + v);
        }
    for (int grp = 0; grp < MX_MG__COUNT; grp++)
        for (unsigned v = 0; v <= mx_mg_nvalues(grp) + 1; v++) {
            in->mod[grp] = (uint8_t)v;
            sweep_run(s, "mod", grp * 1000 + (int)v);
        }
    static const uint32_t guards[] = { 0, 3, 4, 255, MX_NONE - 1 };
    for (size_t i = 0; i < sizeof guards / sizeof guards[0]; i++) {
        in->guard = guards[i];
        in->guard_neg = (uint8_t)(i & 1);
        sweep_run(s, "guard", (int)i);
    }
    static const uint32_t ipdoms[] = { 0, 5000, MX_NONE - 1 };
    for (size_t i = 0; i < sizeof ipdoms / sizeof ipdoms[0]; i++) {
        in->ipdom = ipdoms[i];
        sweep_run(s, "ipdom", (int)i);
    }
    mxt_parse_free(&s->p);
    free(src);
}

MX_TEST(malformed_mutation_sweep)
{
    struct sweep s;
    memset(&s, 0, sizeof s);
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.mem_size = 64ull << 20;
    cfg.watchdog_insns = 20000; /* a label mutated backwards loops */
    cfg.max_call_depth = 8;
    cfg.local_per_thread = 4096;
    cfg.ext_mask = 1u << MX_EXT_INDIRECT_MOV;
    assert_int_equal(emu_device_create(&cfg, &s.dev), MX_OK);
    assert_int_equal(emu_malloc(s.dev, 4096, &s.out), MX_OK);
    assert_int_equal(emu_memset(s.dev, s.out, 0, 4096), MX_OK);
    uint64_t texels;
    assert_int_equal(emu_malloc(s.dev, 16 * 16 * 4, &texels), MX_OK);
    assert_int_equal(emu_memset(s.dev, texels, 0, 16 * 16 * 4), MX_OK);
    struct emu_tex_desc td = { .base = texels, .width = 16, .height = 16, .dims = 2, .channels = 1, .bits = 32,
                               .kind = EMU_TEX_FLOAT };
    assert_int_equal(emu_tex_create(s.dev, &td, &s.tex), MX_OK);
    for (size_t i = 0; i < sizeof sweep_lines / sizeof sweep_lines[0]; i++)
        sweep_line(&s, sweep_lines[i]);
    /* the sweep reached the binders' checks, not only the generic ones */
    assert_true(s.invalid > s.launches / 4);
    print_message("malformed sweep: %u mutants of %zu instruction forms, %u reported invalid\n", s.launches,
                  sizeof sweep_lines / sizeof sweep_lines[0], s.invalid);
    struct ct c;
    memset(&c, 0, sizeof c);
    c.dev = s.dev;
    ct_assert_alive(&c);
    emu_device_destroy(s.dev);
}

/* ------------------------------------------------ valid '_' destinations
 * The validator lets '_' stand for any destination.  These forms used to
 * write register or predicate "slot" REF_NONE and crash the host; now a
 * value sink writes a scratch slot and a predicate sink nothing.  The
 * results the kernel does keep are checked against C. */
static const char sink_src[] = CT_HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<3>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.lt.u32 %p1, %r1, 5;\n"
    "  vote.sync.ballot.b32 _, %p1, -1;\n"
    "  vote.sync.any.pred _, %p1, -1;\n"
    "  activemask.b32 _;\n"
    "  cvta.to.global.u64 _, %rd1;\n"
    "  redux.sync.add.u32 _, %r1, -1;\n"
    "  match.any.sync.b32 _, %r1, -1;\n"
    "  match.all.sync.b32 _|%p2, %r1, -1;\n"
    "  isspacep.global _, %rd1;\n"
    "  mov.u32 _, %clock;\n"
    "  bar.red.popc.u32 _, 0, %p1;\n"
    "  bar.red.and.pred _, 0, %p1;\n"
    "  ld.global.u32 _, [%rd1];\n"
    "  vote.sync.ballot.b32 %r2, %p1, -1;\n"     /* lanes 0..4: 0x1f */
    "  redux.sync.add.u32 %r3, %r1, -1;\n"       /* 0 + 1 + ... + 31 = 496 */
    "  mul.wide.u32 %rd2, %r1, 8;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v2.u32 [%rd3], {%r2, %r3};\n"
    "  ret;\n"
    "}\n";

MX_TEST(sink_destinations_run)
{
    struct ct c;
    ct_open(&c, sink_src);
    uint64_t out = ct_alloc(&c, 32 * 8, NULL);
    ct_run(&c, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 1, out);
    uint32_t got[64], want[64];
    ct_read(&c, got, out, sizeof got);
    for (int t = 0; t < 32; t++) {
        want[2 * t] = 0x1f;
        want[2 * t + 1] = 31 * 32 / 2;
    }
    assert_u32_array(got, want, 64);
    ct_close(&c);
}

/* Forms the validator accepts but whose mode and type disagree: the
 * handler would write a predicate through a register slot (or the
 * reverse).  They stop as invalid instructions. */
MX_TEST(malformed_mode_type_disagree)
{
    static const char *const forms[] = { "vote.sync.any.b32 %r2, %p1, -1;", "vote.sync.ballot.pred %p2, %p1, -1;",
                                         "bar.red.u32 %r2, 0, %p1;", "bar.red.popc.pred %p2, 0, %p1;" };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        char src[512];
        snprintf(src, sizeof src, CT_HDR ".visible .entry k()\n{\n  .reg .b32 %%r<4>;\n  .reg .pred %%p<3>;\n"
                 "  setp.eq.u32 %%p1, %%r1, 0;\n  %s\n  ret;\n}\n", forms[i]);
        struct ct c;
        ct_open(&c, src);
        assert_int_equal(ct_launch(&c, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 0), MX_EILLEGAL);
        ct_assert_fault(&c, MX_EILLEGAL, "k", NULL, NULL, 9, "are not a form the opcode table allows");
        ct_close(&c);
    }
}

/* Call lists: a non-.param element, and a callee whose parameter lies past
 * its parameter buffer (direct: at bind time; indirect: when the pointer
 * names it). */
static const char call_src[] = CT_HDR
    ".func (.param .b32 fr) fn(.param .b32 fa)\n"
    "{\n  .reg .b32 %q<2>;\n  ld.param.b32 %q1, [fa];\n  add.u32 %q1, %q1, 7;\n  st.param.b32 [fr], %q1;\n  ret;\n}\n"
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .b8 sm[16];\n"
    "  .param .b32 pa;\n  .param .b32 pr;\n"
    "  proto : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  st.param.b32 [pa], %r1;\n"
    "  call (pr), fn, (pa); // DIRECT\n"
    "  ld.param.b32 %r2, [pr];\n"
    "  mov.u64 %rd2, fn;\n"
    "  call (pr), %rd2, (pa), proto; // INDIRECT\n"
    "  ld.param.b32 %r3, [pr];\n"
    "  add.u32 %r2, %r2, %r3;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd1, %rd1, %rd3;\n"
    "  st.global.u32 [%rd1], %r2;\n"
    "  ret;\n"
    "}\n";

MX_TEST(malformed_call_lists)
{
    struct ct c;
    /* unmutated: out[t] = 2 (t + 7) */
    ct_open(&c, call_src);
    uint64_t out = ct_alloc(&c, 32 * 4, NULL);
    ct_run(&c, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 1, out);
    uint32_t got[32], want[32];
    ct_read(&c, got, out, sizeof got);
    for (uint32_t t = 0; t < 32; t++)
        want[t] = 2 * (t + 7);
    assert_u32_array(got, want, 32);
    ct_close(&c);

    /* the argument list names a .shared variable */
    ct_open(&c, call_src);
    struct mx_program *g = &c.p.prog;
    g->vec[g->insns[insn_at(&c, "DIRECT")].opd[2].reg].reg = mxt_sym(g, mxt_func(g, "k"), "sm");
    out = ct_alloc(&c, 32 * 4, NULL);
    assert_int_equal(ct_launch(&c, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 1, out), MX_EILLEGAL);
    ct_assert_fault(&c, MX_EILLEGAL, "k", NULL, NULL, ct_line_of(call_src, "DIRECT"),
                    "invalid instruction 'call': operand 2 is not a list of .param variables that fit");
    ct_close(&c);

    /* fn's parameter lies at offset 100 of its 4-byte buffer: the direct
     * call is invalid (reported first); with it removed, the indirect call
     * faults when it finds fn behind the pointer */
    for (int indirect = 0; indirect < 2; indirect++) {
        ct_open(&c, call_src);
        g = &c.p.prog;
        g->syms[mxt_sym(g, mxt_func(g, "fn"), "fa")].offset = 100;
        if (indirect)
            g->insns[insn_at(&c, "DIRECT")] = (struct mx_insn){ .op = MX_OP_MEMBAR, .guard = MX_NONE, .ipdom = MX_NONE,
                                                                  .line = ct_line_of(call_src, "DIRECT") };
        out = ct_alloc(&c, 32 * 4, NULL);
        assert_int_equal(ct_launch(&c, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 1, out), MX_EILLEGAL);
        if (!indirect)
            ct_assert_fault(&c, MX_EILLEGAL, "k", NULL, NULL, ct_line_of(call_src, "DIRECT"),
                            "invalid instruction 'call': operand 2 is not a list of .param variables");
        else
            ct_assert_fault(&c, MX_EILLEGAL, "k", NULL, NULL, ct_line_of(call_src, "INDIRECT"),
                            "indirect call to 'fn': the argument or return list does not fit its parameters");
        ct_assert_alive(&c);
        ct_close(&c);
    }
}

/* tests/frontend/test_parser.c — PTX snippets parsed and their decoded
 * program checked field by field: register and predicate slots, guards,
 * modifier groups, type slots, immediates, addresses, vectors, sinks, calls,
 * branch targets, labels, parameters, variables and initialisers, shared and
 * local layout, .loc, reconvergence points and the movind extension.  Every
 * snippet that parses is also put through the disassembler round trip. */
#include "mxtest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EXT_MOVIND (1u << MX_EXT_INDIRECT_MOV)

static uint32_t rd32(const struct mx_program *p, uint64_t off)
{
    return (uint32_t)p->data[off] | (uint32_t)p->data[off + 1] << 8 | (uint32_t)p->data[off + 2] << 16 |
           (uint32_t)p->data[off + 3] << 24;
}

static uint32_t f32bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static uint64_t f64bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* ---------------------------------------------------------------- registers */

static const char regs_src[] = MXT_KERNEL(
    ".reg .b32 %r<5>;\n"
    ".reg .pred %p<3>;\n"
    ".reg .f32 %f<4>;\n"
    ".reg .b64 %rd<2>;\n"
    ".reg .u32 %single;\n"
    "add.s32 %r4, %r0, %single;\n"
    "add.f32 %f3, %f1, %f2;\n"
    "ret;");

MX_TEST(register_ranges_get_consecutive_slots)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, regs_src);
    uint32_t k = mxt_func(&r.prog, "k");
    const struct mx_func *f = &r.prog.funcs[k];
    assert_int_equal(f->nregs, 5 + 4 + 2 + 1);
    assert_int_equal(f->npreds, 3);
    assert_int_equal(f->nregdecls, 5);
    const struct mx_regdecl *d = mxt_regdecl(&r.prog, k, "%r");
    assert_int_equal(d->base, 0);
    assert_int_equal(d->count, 5);
    assert_int_equal(d->type, MX_T_B32);
    d = mxt_regdecl(&r.prog, k, "%p");
    assert_int_equal(d->base, 0); /* predicates have their own slot space */
    assert_int_equal(d->count, 3);
    assert_int_equal(d->type, MX_T_PRED);
    d = mxt_regdecl(&r.prog, k, "%f");
    assert_int_equal(d->base, 5);
    assert_int_equal(d->type, MX_T_F32);
    assert_int_equal(mxt_regdecl(&r.prog, k, "%rd")->base, 9);
    d = mxt_regdecl(&r.prog, k, "%single");
    assert_int_equal(d->base, 11);
    assert_int_equal(d->count, 0);
    assert_int_equal(d->depth, 0);

    const struct mx_insn *in = mxt_insn(&r.prog, k, 0);
    assert_int_equal(in->op, MX_OP_ADD);
    assert_int_equal(in->type[0], MX_T_S32);
    assert_int_equal(in->nopd, 3);
    assert_opd_reg(&in->opd[0], 4, MX_T_B32);
    assert_opd_reg(&in->opd[1], 0, MX_T_B32);
    assert_opd_reg(&in->opd[2], 11, MX_T_U32);
    assert_int_equal(in->guard, MX_NONE);
    in = mxt_insn(&r.prog, k, 1);
    assert_opd_reg(&in->opd[0], 8, MX_T_F32);
    assert_opd_reg(&in->opd[1], 6, MX_T_F32);
    assert_int_equal(mxt_insn(&r.prog, k, 2)->op, MX_OP_RET);
    assert_int_equal(f->ninsns, 3);
    mxt_parse_free(&r);
    assert_round_trip(regs_src, 0);
}

MX_TEST(register_out_of_its_range_is_undefined)
{
    struct mxt_parse r;
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<5>;\nadd.s32 %r5, %r0, %r1;"), MX_EPARSE, 7, 9, "undefined register '%r5'");
    mxt_parse_free(&r);
    /* no leading zeros: %r01 is not %r1 */
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<5>;\nadd.s32 %r01, %r0, %r1;"), MX_EPARSE, 7, 9, "undefined register '%r01'");
    mxt_parse_free(&r);
}

static const char scopes_src[] = MXT_KERNEL(
    ".reg .b32 %x;\n"
    "{\n"
    "  .reg .b32 %x;\n"
    "  add.s32 %x, %x, 1;\n"
    "}\n"
    "add.s32 %x, %x, 2;\n"
    "ret;");

MX_TEST(inner_block_registers_shadow_outer_ones)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, scopes_src);
    uint32_t k = mxt_func(&r.prog, "k");
    assert_int_equal(r.prog.funcs[k].nregs, 2);
    assert_opd_reg(&mxt_insn(&r.prog, k, 0)->opd[0], 1, MX_T_B32);
    assert_opd_reg(&mxt_insn(&r.prog, k, 1)->opd[0], 0, MX_T_B32);
    assert_int_equal(r.prog.regdecls[r.prog.funcs[k].regdecl + 1].depth, 1);
    mxt_parse_free(&r);
    assert_round_trip(scopes_src, 0);
    mxt_parse_err(&r, MXT_KERNEL("{\n.reg .b32 %y;\n}\nadd.s32 %y, %y, 1;"), MX_EPARSE, 9, 9, "undefined register '%y'");
    mxt_parse_free(&r);
}

/* --------------------------------------------------- predicates and guards */

static const char pred_src[] = MXT_KERNEL(
    ".reg .pred %p<3>;\n"
    ".reg .b32 %r<3>;\n"
    "setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p0;\n"
    "@!%p1 add.s32 %r0, %r1, %r2;\n"
    "  @%p2 ret;\n"
    "setp.ne.u32 %p0, %r1, 7;\n"
    "ret;");

MX_TEST(predicates_guards_and_the_setp_pair)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, pred_src);
    uint32_t k = mxt_func(&r.prog, "k");
    const struct mx_insn *in = mxt_insn(&r.prog, k, 0);
    assert_int_equal(in->op, MX_OP_SETP);
    assert_int_equal(in->mod[MX_MG_CMP], MX_CMP_LT);
    assert_int_equal(in->mod[MX_MG_BOOL], MX_BOOL_AND);
    assert_int_equal(in->type[0], MX_T_S32);
    assert_int_equal(in->type[1], MX_T_NONE);
    assert_int_equal(in->nopd, 5);
    assert_opd_pred(&in->opd[0], 1);
    assert_opd_pred(&in->opd[1], 2);
    assert_opd_reg(&in->opd[2], 1, MX_T_B32);
    assert_opd_reg(&in->opd[3], 2, MX_T_B32);
    assert_opd_pred(&in->opd[4], 0);
    assert_int_equal(in->opd[4].flags, MX_OPDF_NEG);
    assert_int_equal(in->opd[0].flags, 0);
    assert_int_equal(in->guard, MX_NONE);
    assert_int_equal(in->line, 8);
    assert_int_equal(in->col, 1);

    in = mxt_insn(&r.prog, k, 1);
    assert_int_equal(in->guard, 1);
    assert_int_equal(in->guard_neg, 1);
    in = mxt_insn(&r.prog, k, 2);
    assert_int_equal(in->op, MX_OP_RET);
    assert_int_equal(in->guard, 2);
    assert_int_equal(in->guard_neg, 0);
    assert_int_equal(in->line, 10);
    assert_int_equal(in->col, 3); /* the '@' */

    in = mxt_insn(&r.prog, k, 3); /* no pair, no bool operand */
    assert_int_equal(in->mod[MX_MG_CMP], MX_CMP_NE);
    assert_int_equal(in->mod[MX_MG_BOOL], 0);
    assert_opd_pred(&in->opd[0], 0);
    assert_int_equal(in->opd[1].kind, MX_OPD_NONE);
    assert_opd_imm(&in->opd[3], 7, MX_T_U32, 0);
    assert_int_equal(in->opd[4].kind, MX_OPD_NONE);
    mxt_parse_free(&r);
    assert_round_trip(pred_src, 0);
}

MX_TEST(guard_and_negation_errors)
{
    struct mxt_parse r;
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<2>;\n@%r1 ret;"), MX_EPARSE, 7, 2, "guard must be a declared predicate register");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<2>;\nadd.s32 %r0, !%r1, 1;"), MX_EPARSE, 7, 14, "'!' is only allowed on a source predicate");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .pred %p<2>;\n.reg .b32 %r<2>;\nsetp.eq.s32 !%p0, %r0, %r1;"), MX_EPARSE, 8, 13,
                  "'!' is only allowed on a source predicate");
    mxt_parse_free(&r);
}

/* ---------------------------------------------------- modifiers and types */

static const char mods_src[] = MXT_KERNEL(
    ".reg .pred %p<2>;\n"
    ".reg .b32 %r<3>;\n"
    ".reg .b64 %rd<2>;\n"
    ".reg .f32 %f<2>;\n"
    "mul.lo.s32 %r0, %r1, %r2;\n"
    "setp.lo.u32 %p0, %r1, %r2;\n"
    "mul.wide.s32 %rd0, %r1, %r2;\n"
    "cvt.rn.f32.s32 %f0, %r0;\n"
    "cvt.rzi.sat.s32.f32 %r0, %f1;\n"
    "ld.global.nc.L2::evict_last.v2.u32 {%r1, _}, [%rd1];\n"
    "cp.async.ca.shared.global [%r0], [%rd0], 16;\n"
    "add.rn.ftz.sat.f32 %f0, %f1, %f1;\n"
    "ret;");

MX_TEST(modifier_groups_and_type_slots)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, mods_src);
    uint32_t k = mxt_func(&r.prog, "k");
    const struct mx_insn *in = mxt_insn(&r.prog, k, 0);
    assert_int_equal(in->op, MX_OP_MUL);
    assert_int_equal(in->mod[MX_MG_MULMODE], MX_MULMODE_LO);
    assert_int_equal(in->mod[MX_MG_CMP], 0);
    in = mxt_insn(&r.prog, k, 1);
    assert_int_equal(in->op, MX_OP_SETP);
    assert_int_equal(in->mod[MX_MG_CMP], MX_CMP_LO);
    assert_int_equal(in->mod[MX_MG_MULMODE], 0);
    assert_int_equal(in->type[0], MX_T_U32);
    in = mxt_insn(&r.prog, k, 2);
    assert_int_equal(in->mod[MX_MG_MULMODE], MX_MULMODE_WIDE);
    assert_opd_reg(&in->opd[0], 3, MX_T_B64);
    in = mxt_insn(&r.prog, k, 3);
    assert_int_equal(in->op, MX_OP_CVT);
    assert_int_equal(in->type[0], MX_T_F32);
    assert_int_equal(in->type[1], MX_T_S32);
    assert_int_equal(in->mod[MX_MG_RND], MX_RND_RN);
    assert_int_equal(in->mod[MX_MG_IRND], 0);
    in = mxt_insn(&r.prog, k, 4);
    assert_int_equal(in->type[0], MX_T_S32);
    assert_int_equal(in->type[1], MX_T_F32);
    assert_int_equal(in->mod[MX_MG_IRND], MX_IRND_RZI);
    assert_int_equal(in->mod[MX_MG_SAT], MX_SAT_SAT);
    assert_int_equal(in->mod[MX_MG_RND], 0);
    in = mxt_insn(&r.prog, k, 5);
    assert_int_equal(in->op, MX_OP_LD);
    assert_int_equal(in->mod[MX_MG_SPACE], MX_SPACE_GLOBAL);
    assert_int_equal(in->mod[MX_MG_NC], MX_NC_NC);
    assert_int_equal(in->mod[MX_MG_L2EV], MX_L2EV_L2_EVICT_LAST);
    assert_int_equal(in->mod[MX_MG_VEC], MX_VEC_V2);
    in = mxt_insn(&r.prog, k, 6);
    assert_int_equal(in->op, MX_OP_CP_ASYNC);
    assert_int_equal(in->mod[MX_MG_CACHE], MX_CACHE_CA);
    assert_int_equal(in->mod[MX_MG_SPACE], MX_SPACE_SHARED);   /* first fit: destination space */
    assert_int_equal(in->mod[MX_MG_SPACE2], MX_SPACE2_GLOBAL); /* then the twin group */
    in = mxt_insn(&r.prog, k, 7);
    assert_int_equal(in->mod[MX_MG_RND], MX_RND_RN);
    assert_int_equal(in->mod[MX_MG_FTZ], MX_FTZ_FTZ);
    assert_int_equal(in->mod[MX_MG_SAT], MX_SAT_SAT);
    mxt_parse_free(&r);
    assert_round_trip(mods_src, 0);
}

MX_TEST(wmma_layouts_fill_both_layout_groups)
{
    static const char src[] = MXT_KERNEL(
        ".reg .f32 %x<8>;\n.reg .b32 %h<8>;\n"
        "wmma.mma.sync.aligned.col.row.m16n16k16.f32.f32 {%x0,%x1,%x2,%x3,%x4,%x5,%x6,%x7}, "
        "{%h0,%h1,%h2,%h3,%h4,%h5,%h6,%h7}, {%h0,%h1,%h2,%h3,%h4,%h5,%h6,%h7}, {%x0,%x1,%x2,%x3,%x4,%x5,%x6,%x7};\n"
        "ret;");
    struct mxt_parse r;
    mxt_parse_ok(&r, src);
    const struct mx_insn *in = mxt_insn(&r.prog, 0, 0);
    assert_int_equal(in->op, MX_OP_WMMA_MMA);
    assert_int_equal(in->mod[MX_MG_LAYOUT], MX_LAYOUT_COL);
    assert_int_equal(in->mod[MX_MG_LAYOUT2], MX_LAYOUT2_ROW);
    assert_int_equal(in->mod[MX_MG_SHAPE], MX_SHAPE_M16N16K16);
    assert_int_equal(in->opd[0].kind, MX_OPD_VEC);
    assert_int_equal(in->opd[0].count, 8);
    mxt_parse_free(&r);
    assert_round_trip(src, 0);
    /* a third layout has nowhere to go */
    mxt_parse_err(&r, MXT_KERNEL(".reg .f32 %x<8>;\nwmma.mma.sync.aligned.col.row.row.m16n16k16.f32.f32 %x0, %x1, %x2, %x3;"),
                  MX_EPARSE, 7, 0, "modifier .row conflicts");
    mxt_parse_free(&r);
}

MX_TEST(modifier_and_type_errors_point_at_the_suffix)
{
    struct mxt_parse r;
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<3>;\nadd.s32.zz %r0, %r1, %r2;"), MX_EPARSE, 7, 8, "unknown modifier .zz for 'add'");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .f32 %f<3>;\nadd.rn.rz.f32 %f0, %f1, %f2;"), MX_EPARSE, 7, 7, "modifier .rz conflicts");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .pred %p<3>;\nadd.pred %p0, %p1, %p2;"), MX_EPARSE, 7, 4, "type .pred is not allowed for 'add'");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<3>;\nadd.s32.s32 %r0, %r1, %r2;"), MX_EPARSE, 7, 8, "too many types for 'add'");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL("ret.u32;"), MX_EPARSE, 6, 4, "'ret' takes no type");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .f32 %f<2>;\ncvt.rn.f32 %f0, %f1;"), MX_EPARSE, 7, 1, "'cvt' needs more types");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .pred %p<2>;\n.reg .b32 %r<2>;\nsetp.s32 %p0, %r0, %r1;"), MX_EPARSE, 8, 1,
                  "setp needs a comparison");
    mxt_parse_free(&r);
}

/* ---------------------------------------------------------------- immediates */

static const char imm_src[] = MXT_KERNEL(
    ".reg .b32 %r<2>;\n"
    ".reg .f32 %f<2>;\n"
    ".reg .f64 %fd<2>;\n"
    ".reg .pred %p<1>;\n"
    "mov.f32 %f0, 0f3F800000;\n"        /* 0 */
    "add.f32 %f0, %f1, 2;\n"            /* 1 */
    "add.s32 %r0, %r1, -1;\n"           /* 2 */
    "add.f64 %fd0, %fd1, 0f3F800000;\n" /* 3 */
    "add.f32 %f0, %f1, 0d4000000000000000;\n" /* 4 */
    "mov.f32 %f0, 1.5;\n"               /* 5 */
    "mov.b32 %r0, 0f3F800000;\n"        /* 6 */
    "mov.f32 %f0, -0f3F800000;\n"       /* 7 */
    "add.u32 %r0, %r1, 0xFFFFFFFF;\n"   /* 8 */
    "selp.b32 %r0, %r1, 3, 1;\n"        /* 9 */
    "add.s32 %r0, %r1, 2+3*4;\n"        /* 10 */
    "add.s32 %r0, %r1, -(8-10)/2;\n"    /* 11 */
    "mov.f64 %fd0, 0dFFF0000000000000;\n" /* 12 */
    "add.s32 %r0, %r1, 1|6&3^1;\n"      /* 13 */
    "selp.b32 %r0, %r1, 3, -1;\n"      /* 14: nvcc's "true" */
    "mov.pred %p0, 0;\n"                /* 15 */
    "ret;");

MX_TEST(immediates_become_bits_of_the_instruction_type)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, imm_src);
    const struct mx_program *p = &r.prog;
    assert_opd_imm(&mxt_insn(p, 0, 0)->opd[1], 0x3F800000, MX_T_F32, MX_OPDF_FLOAT);
    assert_opd_imm(&mxt_insn(p, 0, 1)->opd[2], f32bits(2.0f), MX_T_F32, MX_OPDF_FLOAT);
    assert_opd_imm(&mxt_insn(p, 0, 2)->opd[2], -1, MX_T_S32, 0);
    assert_opd_imm(&mxt_insn(p, 0, 3)->opd[2], (int64_t)f64bits(1.0), MX_T_F64, MX_OPDF_FLOAT);
    assert_opd_imm(&mxt_insn(p, 0, 4)->opd[2], f32bits(2.0f), MX_T_F32, MX_OPDF_FLOAT);
    assert_opd_imm(&mxt_insn(p, 0, 5)->opd[1], f32bits(1.5f), MX_T_F32, MX_OPDF_FLOAT);
    assert_opd_imm(&mxt_insn(p, 0, 6)->opd[1], 0x3F800000, MX_T_B32, 0); /* bits, not a float, for .b32 */
    assert_opd_imm(&mxt_insn(p, 0, 7)->opd[1], 0xBF800000, MX_T_F32, MX_OPDF_FLOAT);
    assert_opd_imm(&mxt_insn(p, 0, 8)->opd[2], 0xFFFFFFFF, MX_T_U32, 0);
    assert_opd_imm(&mxt_insn(p, 0, 9)->opd[2], 3, MX_T_B32, 0);
    assert_opd_imm(&mxt_insn(p, 0, 9)->opd[3], 1, MX_T_PRED, 0);
    assert_opd_imm(&mxt_insn(p, 0, 10)->opd[2], 14, MX_T_S32, 0);  /* C precedence */
    assert_opd_imm(&mxt_insn(p, 0, 11)->opd[2], 1, MX_T_S32, 0);
    assert_opd_imm(&mxt_insn(p, 0, 12)->opd[1], (int64_t)0xFFF0000000000000ull, MX_T_F64, MX_OPDF_FLOAT);
    assert_opd_imm(&mxt_insn(p, 0, 13)->opd[2], 1 | ((6 & 3) ^ 1), MX_T_S32, 0);
    assert_opd_imm(&mxt_insn(p, 0, 14)->opd[3], 1, MX_T_PRED, 0);
    assert_opd_imm(&mxt_insn(p, 0, 15)->opd[1], 0, MX_T_PRED, 0);
    mxt_parse_free(&r);
    assert_round_trip(imm_src, 0);
}

MX_TEST(immediate_errors)
{
    struct mxt_parse r;
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<2>;\nadd.s32 %r0, %r1, 1.5;"), MX_EPARSE, 7, 19, "float literal where a .s32 value is expected");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<2>;\nadd.s32 5, %r1, 1;"), MX_EPARSE, 7, 9, "a destination must be a register");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<2>;\nselp.b32 %r0, %r1, 3, 1.0;"), MX_EPARSE, 7, 23, "expected a predicate");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .pred %p<1>;\nmov.pred %p0, 1.0;"), MX_EPARSE, 7, 15, "predicate immediate must be an integer");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<2>;\nadd.s32 %r0, %r1, 1/0;"), MX_EPARSE, 7, 0, "division by zero");
    mxt_parse_free(&r);
}

MX_TEST(special_registers)
{
    static const char src[] = MXT_KERNEL(
        ".reg .b32 %r<3>;\n.reg .b64 %rd<1>;\n"
        "mov.u32 %r0, %tid.y;\nmov.u32 %r1, %envreg3;\nmov.u32 %r2, %laneid;\nmov.u64 %rd0, %clock64;\nret;");
    struct mxt_parse r;
    mxt_parse_ok(&r, src);
    const struct mx_operand *o = &mxt_insn(&r.prog, 0, 0)->opd[1];
    assert_int_equal(o->kind, MX_OPD_SREG);
    assert_int_equal(o->reg, MX_SREG_TID);
    assert_int_equal(o->imm, 1);
    assert_int_equal(o->type, MX_T_U32);
    o = &mxt_insn(&r.prog, 0, 1)->opd[1];
    assert_int_equal(o->reg, MX_SREG_ENVREG);
    assert_int_equal(o->imm, 3);
    o = &mxt_insn(&r.prog, 0, 2)->opd[1];
    assert_int_equal(o->reg, MX_SREG_LANEID);
    assert_int_equal(o->imm, 0);
    o = &mxt_insn(&r.prog, 0, 3)->opd[1];
    assert_int_equal(o->reg, MX_SREG_CLOCK64);
    assert_int_equal(o->type, MX_T_U64);
    mxt_parse_free(&r);
    assert_round_trip(src, 0);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<1>;\nmov.u32 %r0, %tid.w;"), MX_EPARSE, 7, 14, "undefined register '%tid.w'");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL("mov.u32 %tid.x, 1;"), MX_EPARSE, 6, 9, "special register cannot be written");
    mxt_parse_free(&r);
}

/* ------------------------------------------------------- memory operands */

static const char addr_src[] = MXT_KERNEL(
    ".reg .b32 %r<2>;\n"
    ".reg .b64 %rd<2>;\n"
    ".shared .align 4 .b8 buf[64];\n"
    "ld.global.u32 %r0, [%rd1+-4];\n"
    "ld.shared.u32 %r0, [buf+8];\n"
    "ld.shared.u32 %r0, [%r1];\n"
    "ld.global.u32 %r0, [16];\n"
    "st.global.u32 [%rd1+4], %r0;\n"
    "ld.shared.u32 %r0, [buf];\n"
    "mov.u64 %rd0, buf+4;\n"
    "ret;");

MX_TEST(addresses_register_symbol_and_offset)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, addr_src);
    uint32_t k = mxt_func(&r.prog, "k");
    uint32_t buf = mxt_sym(&r.prog, k, "buf");
    const struct mx_operand *o = &mxt_insn(&r.prog, k, 0)->opd[1];
    assert_int_equal(o->kind, MX_OPD_ADDR);
    assert_int_equal(o->reg, 3); /* %rd1 */
    assert_int_equal(o->sym, MX_NONE);
    assert_int_equal(o->imm, -4);
    assert_int_equal(o->flags, 0);
    o = &mxt_insn(&r.prog, k, 1)->opd[1];
    assert_int_equal(o->reg, MX_NONE);
    assert_int_equal(o->sym, buf);
    assert_int_equal(o->imm, 8);
    o = &mxt_insn(&r.prog, k, 2)->opd[1];
    assert_int_equal(o->reg, 1);
    assert_int_equal(o->flags, MX_OPDF_BASE32);
    o = &mxt_insn(&r.prog, k, 3)->opd[1];
    assert_int_equal(o->reg, MX_NONE);
    assert_int_equal(o->sym, MX_NONE);
    assert_int_equal(o->imm, 16);
    const struct mx_insn *st = mxt_insn(&r.prog, k, 4);
    assert_int_equal(st->op, MX_OP_ST);
    assert_int_equal(st->opd[0].kind, MX_OPD_ADDR);
    assert_int_equal(st->opd[0].imm, 4);
    assert_opd_reg(&st->opd[1], 0, MX_T_B32);
    o = &mxt_insn(&r.prog, k, 5)->opd[1];
    assert_int_equal(o->sym, buf);
    assert_int_equal(o->imm, 0);
    o = &mxt_insn(&r.prog, k, 6)->opd[1];
    assert_int_equal(o->kind, MX_OPD_SYM);
    assert_int_equal(o->reg, buf);
    assert_int_equal(o->imm, 4);
    mxt_parse_free(&r);
    assert_round_trip(addr_src, 0);
}

MX_TEST(address_errors)
{
    struct mxt_parse r;
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<2>;\n.reg .b64 %rd<2>;\nld.global.u32 %r0, %rd1;"), MX_EPARSE, 8, 20,
                  "'ld' expects a memory operand [...]");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<2>;\n.reg .f32 %f<2>;\nld.global.u32 %r0, [%f1];"), MX_EPARSE, 8, 20,
                  "address register must be a 32- or 64-bit integer");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<2>;\nld.global.u32 %r0, [nosuch+4];"), MX_EPARSE, 7, 20, "undefined name 'nosuch' in address");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<2>;\n.shared .b32 s;\nadd.u32 %r0, %r1, s;"), MX_EPARSE, 8, 19,
                  "symbol 's' cannot be an operand of 'add'");
    mxt_parse_free(&r);
}

/* ------------------------------------------------------- vectors and sinks */

static const char vec_src[] = MXT_KERNEL(
    ".reg .f32 %f<4>;\n"
    ".reg .b32 %r<2>;\n"
    ".reg .b64 %rd<1>;\n"
    "ld.global.v4.f32 {%f0,%f1,%f2,%f3}, [%rd0];\n"
    "st.global.v2.f32 [%rd0+8], {%f3, %f2};\n"
    "mov.b64 {%r0, _}, %rd0;\n"
    "mov.b64 %rd0, {%r1, %r0};\n"
    "ld.global.v2.u32 {_, %r1}, [%rd0];\n"
    "ret;");

MX_TEST(vector_operands_and_sinks)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, vec_src);
    const struct mx_program *p = &r.prog;
    const struct mx_insn *in = mxt_insn(p, 0, 0);
    assert_int_equal(in->mod[MX_MG_VEC], MX_VEC_V4);
    const struct mx_operand *v = &in->opd[0];
    assert_int_equal(v->kind, MX_OPD_VEC);
    assert_int_equal(v->count, 4);
    assert_true(v->reg + 4 <= p->nvec);
    for (uint32_t i = 0; i < 4; i++)
        assert_opd_reg(&p->vec[v->reg + i], i, MX_T_F32);
    v = &mxt_insn(p, 0, 1)->opd[1];
    assert_int_equal(v->kind, MX_OPD_VEC);
    assert_int_equal(v->count, 2);
    assert_opd_reg(&p->vec[v->reg], 3, MX_T_F32);
    assert_opd_reg(&p->vec[v->reg + 1], 2, MX_T_F32);
    v = &mxt_insn(p, 0, 2)->opd[0]; /* unpack into a register and a sink */
    assert_int_equal(v->kind, MX_OPD_VEC);
    assert_opd_reg(&p->vec[v->reg], 4, MX_T_B32);
    assert_int_equal(p->vec[v->reg + 1].kind, MX_OPD_SINK);
    v = &mxt_insn(p, 0, 3)->opd[1]; /* pack */
    assert_int_equal(v->count, 2);
    assert_opd_reg(&p->vec[v->reg], 5, MX_T_B32);
    v = &mxt_insn(p, 0, 4)->opd[0];
    assert_int_equal(p->vec[v->reg].kind, MX_OPD_SINK);
    mxt_parse_free(&r);
    assert_round_trip(vec_src, 0);
}

/* One value in braces without .vN is that value for ld/st (ptxas takes
 * it); nvcc's braced surface operands stay vectors. */
MX_TEST(braced_single_value_is_a_scalar)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, MXT_HEADER ".global .surfref s;\n.visible .entry k()\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
                                "ld.global.u32 {%r1}, [%rd0];\nst.global.u32 [%rd0], {%r2};\n"
                                "suld.b.1d.b32.trap {%r3}, [s, {%r0}];\n}\n");
    const struct mx_insn *ld = mxt_insn(&r.prog, 0, 0), *st = mxt_insn(&r.prog, 0, 1), *su = mxt_insn(&r.prog, 0, 2);
    assert_opd_reg(&ld->opd[0], 1, MX_T_B32);
    assert_opd_reg(&st->opd[1], 2, MX_T_B32);
    assert_int_equal(su->opd[0].kind, MX_OPD_VEC);
    assert_int_equal(su->opd[0].count, 1);
    mxt_parse_free(&r);
}

MX_TEST(vector_errors)
{
    struct mxt_parse r;
    mxt_parse_err(&r, MXT_KERNEL(".reg .f32 %f<4>;\n.reg .b64 %rd<1>;\nld.global.v4.f32 {%f0,%f1}, [%rd0];"), MX_EPARSE, 8, 18,
                  "vector operand has 2 elements, .v4 needs 4");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .f32 %f<4>;\n.reg .b64 %rd<1>;\nld.global.f32 {%f0,%f1}, [%rd0];"), MX_EPARSE, 8, 15,
                  "vector operand needs a .v2/.v4 modifier");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<4>;\nmov.b32 %r0, {%r1, %r2, %r3};"), MX_EPARSE, 7, 14, "cannot be split into 3 parts");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<4>;\nadd.s32 %r0, _, %r1;"), MX_EPARSE, 7, 14, "'_' can only be a destination");
    mxt_parse_free(&r);
}

/* ------------------------------------------------------------------ calls */

static const char call_src[] = MXT_HEADER
    ".func (.param .b32 ret0) add1(.param .b32 a, .param .b32 b)\n"
    "{\n"
    "  .reg .b32 %r<3>;\n"
    "  ld.param.b32 %r0, [a];\n"
    "  ld.param.b32 %r1, [b];\n"
    "  add.s32 %r2, %r0, %r1;\n"
    "  st.param.b32 [ret0], %r2;\n"
    "  ret;\n"
    "}\n"
    ".func noargs()\n{\n  ret;\n}\n"
    ".visible .entry k()\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  .reg .b64 %rd<1>;\n"
    "  .param .b32 x;\n"
    "  .param .b32 y;\n"
    "  .param .b32 res;\n"
    "  st.param.b32 [x], 1;\n"
    "  st.param.b32 [y], 2;\n"
    "  call (res), add1, (x, y);\n"
    "  ld.param.b32 %r0, [res];\n"
    "  proto: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);\n"
    "  mov.u64 %rd0, add1;\n"
    "  call.uni (res), %rd0, (x, y), proto;\n"
    "  call noargs;\n"
    "  ret;\n"
    "}\n";

MX_TEST(direct_and_indirect_calls)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, call_src);
    const struct mx_program *p = &r.prog;
    uint32_t add1 = mxt_func(p, "add1"), k = mxt_func(p, "k"), noargs = mxt_func(p, "noargs");
    const struct mx_func *f = &p->funcs[add1];
    assert_int_equal(f->nparams, 2);
    assert_int_equal(f->nrets, 1);
    assert_int_equal(f->param_size, 8);
    assert_int_equal(f->ret_size, 4);
    assert_int_equal(f->flags & (MX_FUNCF_ENTRY | MX_FUNCF_DECL), 0);
    assert_string_equal(mx_str(p, p->syms[f->param + 1].name), "b");
    assert_int_equal(p->syms[f->param + 1].offset, 4);
    assert_int_equal(p->syms[f->param + 1].flags, MX_SYMF_FUNC_PARAM);
    assert_int_equal(p->syms[f->ret].flags, MX_SYMF_FUNC_RET);
    assert_int_equal(p->funcs[k].scratch_size, 12);
    uint32_t x = mxt_sym(p, k, "x"), y = mxt_sym(p, k, "y"), res = mxt_sym(p, k, "res");
    assert_int_equal(p->syms[y].offset, 4);
    assert_int_equal(p->syms[res].offset, 8);

    const struct mx_insn *c = mxt_insn(p, k, 2);
    assert_int_equal(c->op, MX_OP_CALL);
    assert_int_equal(c->nopd, 4);
    assert_int_equal(c->opd[0].kind, MX_OPD_LIST);
    assert_int_equal(c->opd[0].count, 1);
    assert_int_equal(p->vec[c->opd[0].reg].kind, MX_OPD_SYM);
    assert_int_equal(p->vec[c->opd[0].reg].reg, res);
    assert_int_equal(c->opd[1].kind, MX_OPD_FUNC);
    assert_int_equal(c->opd[1].reg, add1);
    assert_int_equal(c->opd[2].kind, MX_OPD_LIST);
    assert_int_equal(c->opd[2].count, 2);
    assert_int_equal(p->vec[c->opd[2].reg].reg, x);
    assert_int_equal(p->vec[c->opd[2].reg + 1].reg, y);
    assert_int_equal(c->opd[3].kind, MX_OPD_NONE);

    const struct mx_insn *mv = mxt_insn(p, k, 4);
    assert_int_equal(mv->opd[1].kind, MX_OPD_FUNC);
    assert_int_equal(mv->opd[1].reg, add1);

    const struct mx_insn *ic = mxt_insn(p, k, 5);
    assert_int_equal(ic->mod[MX_MG_UNI], MX_UNI_UNI);
    assert_opd_reg(&ic->opd[1], 2, MX_T_B64);
    assert_int_equal(ic->opd[3].kind, MX_OPD_PROTO);
    const struct mx_func *pr = &p->funcs[ic->opd[3].reg];
    assert_string_equal(mx_str(p, pr->name), "proto");
    assert_true(pr->flags & MX_FUNCF_PROTO);
    assert_int_equal(pr->nparams, 2);
    assert_int_equal(pr->nrets, 1);
    assert_int_equal(pr->param_size, 8);

    const struct mx_insn *na = mxt_insn(p, k, 6);
    assert_int_equal(na->opd[1].reg, noargs);
    assert_int_equal(na->opd[0].count, 0);
    assert_int_equal(na->opd[2].count, 0);
    mxt_parse_free(&r);
    assert_round_trip(call_src, 0);
}

MX_TEST(call_errors)
{
    static const char arity[] = MXT_HEADER ".func f(.param .b32 a)\n{\nret;\n}\n.entry k()\n{\n.param .b32 a;\n.param .b32 b;\n"
                                "call f, (a, b);\nret;\n}\n";
    struct mxt_parse r;
    mxt_parse_err(&r, arity, MX_EPARSE, 12, 1, "call to 'f' passes 2 arguments and 0 return values; it takes 1 and 0");
    mxt_parse_free(&r);
    static const char undeclared[] = MXT_KERNEL(".param .b32 a;\ncall nofunc, (a);");
    mxt_parse_err(&r, undeclared, MX_EPARSE, 7, 1, "function 'nofunc' is called but never declared");
    assert_int_equal(r.diag.nerrors, 1); /* and no arity error on top */
    mxt_parse_free(&r);
    static const char kernel[] = MXT_HEADER ".entry other()\n{\nret;\n}\n.entry k()\n{\ncall other;\nret;\n}\n";
    mxt_parse_err(&r, kernel, MX_EPARSE, 10, 1, "cannot call kernel 'other'");
    mxt_parse_free(&r);
    static const char noproto[] = MXT_KERNEL(".reg .b64 %rd<1>;\ncall %rd0;");
    mxt_parse_err(&r, noproto, MX_EPARSE, 7, 6, "indirect call needs a .callprototype");
    mxt_parse_free(&r);
}

/* ------------------------------------------------- labels and branch targets */

static const char labels_src[] = MXT_HEADER
    ".entry first()\n{\n  .reg .b32 %r<1>;\n  mov.u32 %r0, 1;\n  ret;\n}\n"
    ".entry k()\n"
    "{\n"
    "  .reg .pred %p<1>;\n"
    "  .reg .b32 %r<2>;\n"
    "  bra FWD;\n"                    /* 0 */
    "BACK:\n"
    "  add.s32 %r0, %r0, 1;\n"        /* 1 */
    "FWD:\n"
    "  setp.lt.s32 %p0, %r0, 10;\n"   /* 2 */
    "  @%p0 bra BACK;\n"              /* 3 */
    "  ret;\n"                        /* 4 */
    "}\n";

MX_TEST(labels_resolve_forward_and_backward)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, labels_src);
    const struct mx_program *p = &r.prog;
    uint32_t k = mxt_func(p, "k");
    uint32_t base = p->funcs[k].first;
    assert_int_equal(base, 2); /* labels are absolute instruction indices */
    assert_int_equal(mxt_label(p, k, "BACK"), base + 1);
    assert_int_equal(mxt_label(p, k, "FWD"), base + 2);
    const struct mx_insn *b = mxt_insn(p, k, 0);
    assert_int_equal(b->opd[0].kind, MX_OPD_LABEL);
    assert_int_equal(b->opd[0].reg, base + 2);
    b = mxt_insn(p, k, 3);
    assert_int_equal(b->opd[0].reg, base + 1);
    assert_int_equal(b->guard, 0);
    mxt_parse_free(&r);
    assert_round_trip(labels_src, 0);
}

/* Two kernels with n labels each, the same names in both (nvcc's $L__BB0_i
 * and plain Li alternating); label i is followed by "add.u32 %r1, %r1, i"
 * and a branch to label (i * mul + 13) % n, forward or backward. */
static void many_labels_kernel(FILE *s, const char *name, unsigned n, unsigned mul)
{
    fprintf(s, ".visible .entry %s()\n{\n  .reg .pred %%p<2>;\n  .reg .b32 %%r<2>;\n", name);
    fprintf(s, "  mov.u32 %%r1, 0;\n  setp.eq.u32 %%p1, %%r1, 1;\n");
    for (unsigned i = 0; i < n; i++) {
        unsigned t = (i * mul + 13) % n;
        fprintf(s, i % 2 ? "$L__BB0_%u:\n" : "L%u:\n", i);
        fprintf(s, "  add.u32 %%r1, %%r1, %u;\n", i);
        fprintf(s, t % 2 ? "  @%%p1 bra $L__BB0_%u;\n" : "  @%%p1 bra L%u;\n", t);
    }
    fprintf(s, "  ret;\n}\n");
}

/* Every branch of kernel fn goes to the add written after its label. */
static void check_many_labels(const struct mx_program *p, const char *fn, unsigned n, unsigned mul)
{
    uint32_t k = mxt_func(p, fn);
    assert_int_equal(p->funcs[k].ninsns, 3 + 2 * n);
    uint32_t base = p->funcs[k].first;
    for (unsigned i = 0; i < n; i++) {
        unsigned t = (i * mul + 13) % n;
        const struct mx_insn *b = mxt_insn(p, k, 3 + 2 * i);
        if (b->op != MX_OP_BRA || b->opd[0].kind != MX_OPD_LABEL || b->opd[0].reg != base + 2 + 2 * t)
            fail_msg("%s: branch %u goes to instruction %u, not %u", fn, i, b->opd[0].reg, base + 2 + 2 * t);
        const struct mx_insn *a = &p->insns[b->opd[0].reg];
        if (a->op != MX_OP_ADD || a->opd[2].imm != (int64_t)t)
            fail_msg("%s: branch %u lands on the add of label %lld, not %u", fn, i, (long long)a->opd[2].imm, t);
    }
    char nm[32];
    snprintf(nm, sizeof nm, "$L__BB0_%u", n - 1);
    assert_int_equal(mxt_label(p, k, nm), base + 2 + 2 * (n - 1));
}

/* Label resolution is hashed per function: 50k labels and branches resolve
 * to the right instructions (speed is measured by bench_parse, not here). */
MX_TEST(fifty_thousand_labels_resolve)
{
    char *src = NULL;
    size_t len = 0;
    FILE *s = open_memstream(&src, &len);
    assert_non_null(s);
    fputs(MXT_HEADER, s);
    many_labels_kernel(s, "a", 1000, 37);
    many_labels_kernel(s, "k", 50000, 7919);
    fclose(s);
    struct mxt_parse r;
    mxt_parse_ok(&r, src);
    check_many_labels(&r.prog, "a", 1000, 37);
    check_many_labels(&r.prog, "k", 50000, 7919);
    assert_int_equal(r.prog.nlabels, 51000);
    mxt_parse_free(&r);
    assert_round_trip(src, 0);
    free(src);
}

/* Regression: names that go out of scope left dead slots in the name table
 * until no empty one was left and lookups probed forever (a module of ~200
 * small functions and call blocks hung the parser).  3000 functions, each
 * called from its own { .param ... } block of one kernel (the callees are
 * declared in reverse, so half the calls are forward), must parse, every
 * call reaching its own function, and the per-block names their own slots. */
MX_TEST(thousands_of_functions_and_call_blocks)
{
    enum { N = 3000 };
    char *src = NULL;
    size_t len = 0;
    FILE *s = open_memstream(&src, &len);
    assert_non_null(s);
    fputs(MXT_HEADER, s);
    for (unsigned i = 0; i < N; i++)
        fprintf(s, ".func (.param .b32 r) f%u(.param .b32 a)\n;\n", i);
    fputs(".visible .entry k()\n{\n  .reg .b32 %r<2>;\n", s);
    for (unsigned i = 0; i < N; i++)
        fprintf(s, "  {\n  .param .b32 pa;\n  .param .b32 pr;\n  st.param.b32 [pa], %u;\n"
                   "  call (pr), f%u, (pa);\n  ld.param.b32 %%r1, [pr];\n  }\n", i, i);
    fputs("  ret;\n}\n", s);
    for (unsigned i = N; i-- > 0;)
        fprintf(s, ".func (.param .b32 r) f%u(.param .b32 a)\n{\n  .reg .b32 %%r<2>;\n  ld.param.b32 %%r1, [a];\n"
                   "L:\n  add.s32 %%r1, %%r1, %u;\n  st.param.b32 [r], %%r1;\n  ret;\n}\n", i, i);
    fclose(s);
    struct mxt_parse r;
    mxt_parse_ok(&r, src);
    const struct mx_program *p = &r.prog;
    uint32_t k = mxt_func(p, "k");
    for (unsigned i = 0; i < N; i++) {
        const struct mx_insn *c = mxt_insn(p, k, 3 * i + 1);
        char name[16];
        snprintf(name, sizeof name, "f%u", i);
        assert_int_equal(c->op, MX_OP_CALL);
        assert_int_equal(c->opd[1].kind, MX_OPD_FUNC);
        if (c->opd[1].reg != mxt_func(p, name))
            fail_msg("call %u goes to %s", i, mx_str(p, p->funcs[c->opd[1].reg].name));
        const struct mx_insn *st = mxt_insn(p, k, 3 * i); /* st.param.b32 [pa], i: this block's pa */
        assert_int_equal(st->opd[1].imm, (int64_t)i);
        assert_int_equal(st->opd[0].sym, p->vec[c->opd[2].reg].reg);
        assert_int_equal(mxt_insn(p, mxt_func(p, name), 1)->opd[2].imm, (int64_t)i); /* its definition */
    }
    mxt_parse_free(&r);
    free(src);
}

MX_TEST(label_errors)
{
    struct mxt_parse r;
    mxt_parse_err(&r, MXT_KERNEL("bra NOWHERE;"), MX_EPARSE, 6, 5, "undefined label 'NOWHERE'");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL("L:\nret;\nL:\nret;"), MX_EPARSE, 8, 1, "duplicate label 'L'");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<1>;\nbra %r0;"), MX_EPARSE, 7, 5, "expected a label");
    mxt_parse_free(&r);
    /* labels are per function */
    static const char two[] = MXT_HEADER ".entry a()\n{\nL:\nret;\n}\n.entry k()\n{\nbra L;\n}\n";
    mxt_parse_err(&r, two, MX_EPARSE, 11, 5, "undefined label 'L'");
    mxt_parse_free(&r);
}

static const char brx_src[] = MXT_KERNEL(
    ".reg .b32 %r<2>;\n"
    "ts: .branchtargets L0, L1;\n"
    "brx.idx %r0, ts;\n"              /* 0 */
    "L0:\n"
    "add.s32 %r1, %r1, 1;\n"          /* 1 */
    "L1:\n"
    "ret;");                          /* 2 */

MX_TEST(branchtargets_and_brx_idx)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, brx_src);
    const struct mx_program *p = &r.prog;
    uint32_t k = mxt_func(p, "k");
    uint32_t ts = mxt_sym(p, k, "ts");
    assert_int_equal(p->syms[ts].space, MX_SP_TARGETS);
    assert_int_equal(p->syms[ts].size, 2);
    const struct mx_insn *in = mxt_insn(p, k, 0);
    assert_int_equal(in->op, MX_OP_BRX);
    assert_opd_reg(&in->opd[0], 0, MX_T_B32);
    const struct mx_operand *t = &in->opd[1];
    assert_int_equal(t->kind, MX_OPD_TARGETS);
    assert_int_equal(t->count, 2);
    assert_int_equal(t->sym, ts);
    assert_int_equal(t->reg, p->syms[ts].offset);
    assert_int_equal(p->vec[t->reg].kind, MX_OPD_LABEL);
    assert_int_equal(p->vec[t->reg].reg, 1);
    assert_int_equal(p->vec[t->reg + 1].reg, 2);
    /* both targets join at L1: the reconvergence point */
    assert_int_equal(in->ipdom, 2);
    mxt_parse_free(&r);
    assert_round_trip(brx_src, 0);
}

/* ------------------------------------------------------ reconvergence points */

static const char ifelse_src[] = MXT_KERNEL(
    ".reg .pred %p<1>;\n"
    ".reg .b32 %r<3>;\n"
    "setp.eq.s32 %p0, %r0, 0;\n"      /* 0   B0 */
    "@%p0 bra ELSE;\n"                /* 1   B0 -> B2, B1 */
    "add.s32 %r1, %r1, 1;\n"          /* 2   B1 */
    "bra END;\n"                      /* 3   B1 -> B3 */
    "ELSE:\n"
    "add.s32 %r1, %r1, 2;\n"          /* 4   B2 -> B3 */
    "END:\n"
    "add.s32 %r2, %r1, 0;\n"          /* 5   B3 */
    "ret;");                          /* 6   B3 -> exit */

MX_TEST(ipdom_of_if_else_is_the_join)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, ifelse_src);
    assert_int_equal(mxt_insn(&r.prog, 0, 1)->ipdom, 5);
    assert_int_equal(mxt_insn(&r.prog, 0, 3)->ipdom, 5);
    assert_int_equal(mxt_insn(&r.prog, 0, 0)->ipdom, MX_NONE); /* not a branch */
    mxt_parse_free(&r);
    assert_round_trip(ifelse_src, 0);
}

static const char loop_src[] = MXT_KERNEL(
    ".reg .pred %p<1>;\n"
    ".reg .b32 %r<2>;\n"
    "mov.u32 %r0, 0;\n"               /* 0   B0 */
    "LOOP:\n"
    "add.s32 %r0, %r0, 1;\n"          /* 1   B1 */
    "setp.lt.s32 %p0, %r0, 10;\n"     /* 2   B1 */
    "@%p0 bra LOOP;\n"                /* 3   B1 -> B1, B2 */
    "add.s32 %r1, %r0, 0;\n"          /* 4   B2 */
    "ret;");                          /* 5 */

MX_TEST(ipdom_of_a_loop_is_its_exit)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, loop_src);
    assert_int_equal(mxt_insn(&r.prog, 0, 3)->ipdom, 4);
    mxt_parse_free(&r);
}

MX_TEST(ipdom_of_paths_that_only_meet_at_exit_is_none)
{
    static const char src[] = MXT_KERNEL(
        ".reg .pred %p<1>;\n"
        "@%p0 bra A;\n"   /* 0 */
        "ret;\n"          /* 1 */
        "A:\n"
        "exit;");         /* 2 */
    struct mxt_parse r;
    mxt_parse_ok(&r, src);
    assert_int_equal(mxt_insn(&r.prog, 0, 0)->ipdom, MX_NONE);
    mxt_parse_free(&r);
    /* a guarded return inside an if: one path leaves before the join */
    static const char early[] = MXT_KERNEL(
        ".reg .pred %p<2>;\n"
        ".reg .b32 %r<1>;\n"
        "@%p0 bra SKIP;\n"            /* 0   B0 -> B2, B1 */
        "add.s32 %r0, %r0, 1;\n"      /* 1   B1 */
        "@%p1 ret;\n"                 /* 2   B1 -> exit, B2 */
        "SKIP:\n"
        "add.s32 %r0, %r0, 2;\n"      /* 3   B2 */
        "ret;");                      /* 4 */
    mxt_parse_ok(&r, early);
    assert_int_equal(mxt_insn(&r.prog, 0, 0)->ipdom, MX_NONE);
    mxt_parse_free(&r);
}

/* ------------------------------------------------- registers live at once
 * (mx_func.live_regs, frontend/cfg.c): counted by hand below each program. */

static uint32_t live_regs_of(const char *src)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, src);
    uint32_t n = r.prog.funcs[mxt_func(&r.prog, "k")].live_regs;
    mxt_parse_free(&r);
    return n;
}

MX_TEST(live_regs_straight_line_counts_64_bit_registers_twice)
{
    /* after the fourth load: %rd0 (2) and %r0..%r3 (4) */
    static const char src[] = MXT_KERNEL(
        ".reg .b32 %r<6>;\n"
        ".reg .b64 %rd<1>;\n"
        "mov.u64 %rd0, 0;\n"
        "ld.global.u32 %r0, [%rd0];\n"
        "ld.global.u32 %r1, [%rd0+4];\n"
        "ld.global.u32 %r2, [%rd0+8];\n"
        "ld.global.u32 %r3, [%rd0+12];\n"
        "add.s32 %r4, %r0, %r1;\n"
        "add.s32 %r4, %r4, %r2;\n"
        "add.s32 %r4, %r4, %r3;\n"
        "st.global.u32 [%rd0], %r4;\n"
        "ret;");
    assert_int_equal(live_regs_of(src), 6);
    /* a result nobody reads still takes a register where it is written: 7 */
    static const char dead[] = MXT_KERNEL(
        ".reg .b32 %r<6>;\n"
        ".reg .b64 %rd<1>;\n"
        "mov.u64 %rd0, 0;\n"
        "ld.global.u32 %r0, [%rd0];\n"
        "ld.global.u32 %r1, [%rd0+4];\n"
        "ld.global.u32 %r2, [%rd0+8];\n"
        "ld.global.u32 %r3, [%rd0+12];\n"
        "mov.u32 %r5, 9;\n"
        "add.s32 %r4, %r0, %r1;\n"
        "add.s32 %r4, %r4, %r2;\n"
        "add.s32 %r4, %r4, %r3;\n"
        "st.global.u32 [%rd0], %r4;\n"
        "ret;");
    assert_int_equal(live_regs_of(dead), 7);
    /* vector destinations and sources: {%r0..%r3} and %rd0 at the store, 6 */
    static const char vec[] = MXT_KERNEL(
        ".reg .b32 %r<4>;\n"
        ".reg .b64 %rd<1>;\n"
        "mov.u64 %rd0, 0;\n"
        "ld.global.v4.u32 {%r0, %r1, %r2, %r3}, [%rd0];\n"
        "st.global.v4.u32 [%rd0+16], {%r0, %r1, %r2, %r3};\n"
        "ret;");
    assert_int_equal(live_regs_of(vec), 6);
}

MX_TEST(scoreboard_bits_apart_for_registers_live_together)
{
    /* 70 registers, %r0..%r69, of which %r0 and %r64 are live at the same time (their slots' low bits are
     * equal): they get different bits; %r1..%r63 and %r65..%r69 each live only at their own move. */
    char src[4096];
    int n = snprintf(src, sizeof src, MXT_HEADER ".visible .entry k()\n{\n.reg .b32 %%r<70>;\n"
                                      "mov.u32 %%r0, 1;\nmov.u32 %%r64, 2;\n");
    for (int i = 1; i < 70; i++)
        if (i != 64)
            n += snprintf(src + n, sizeof src - (size_t)n, "mov.u32 %%r%d, %d;\n", i, i);
    snprintf(src + n, sizeof src - (size_t)n, "add.s32 %%r1, %%r0, %%r64;\nret;\n}\n");
    struct mxt_parse r;
    mxt_parse_ok(&r, src);
    const struct mx_func *f = &r.prog.funcs[mxt_func(&r.prog, "k")];
    assert_int_not_equal(f->regbit, MX_NONE);
    assert_true(f->regbit + f->nregs <= r.prog.nregbit);
    const uint8_t *b = r.prog.regbit + f->regbit;
    assert_int_not_equal(b[0], b[64]);
    for (uint32_t i = 0; i < f->nregs; i++)
        assert_true(b[i] < 64);
    mxt_parse_free(&r);
}

MX_TEST(live_regs_guarded_write_keeps_the_old_value)
{
    /* %r0, %r1, %r2 all live before the guarded move (it may not happen): 3.  Taking the guarded move as
     * the end of the first %r0 would give 2. */
    static const char src[] = MXT_KERNEL(
        ".reg .pred %p<1>;\n"
        ".reg .b32 %r<5>;\n"
        "mov.u32 %r0, 1;\n"
        "mov.u32 %r1, 2;\n"
        "mov.u32 %r2, 3;\n"
        "@%p0 mov.u32 %r0, %r1;\n"
        "add.s32 %r3, %r0, %r2;\n"
        "mov.u32 %r4, %r3;\n"
        "ret;");
    assert_int_equal(live_regs_of(src), 3);
}

MX_TEST(live_regs_across_a_back_edge_and_around_a_branch)
{
    /* %r5 is read at the loop's top only, so it is live across the back edge and through the if in the
     * body, whose arm holds %r1, %r2, %r3 besides: 4 (3 if the liveness stopped after one backward pass:
     * the arm's block is seen before the loop's top) */
    static const char loop[] = MXT_KERNEL(
        ".reg .pred %p<2>;\n"
        ".reg .b32 %r<6>;\n"
        "mov.u32 %r0, 0;\n"
        "mov.u32 %r5, 7;\n"
        "LOOP:\n"
        "add.s32 %r1, %r0, %r5;\n"
        "setp.eq.s32 %p1, %r1, 3;\n"
        "@%p1 bra SKIP;\n"
        "mov.u32 %r2, 1;\n"
        "mov.u32 %r3, 2;\n"
        "add.s32 %r1, %r1, %r2;\n"
        "add.s32 %r1, %r1, %r3;\n"
        "SKIP:\n"
        "add.s32 %r0, %r1, 1;\n"
        "setp.lt.s32 %p0, %r0, 10;\n"
        "@%p0 bra LOOP;\n"
        "ret;");
    assert_int_equal(live_regs_of(loop), 4);
    /* a value defined before an if and read after it is live through both arms: %r0 and the arm's two */
    static const char ifelse[] = MXT_KERNEL(
        ".reg .pred %p<1>;\n"
        ".reg .b32 %r<4>;\n"
        "mov.u32 %r0, 5;\n"
        "@%p0 bra ELSE;\n"
        "mov.u32 %r1, 1;\n"
        "mov.u32 %r2, 2;\n"
        "add.s32 %r3, %r1, %r2;\n"
        "bra END;\n"
        "ELSE:\n"
        "mov.u32 %r3, 3;\n"
        "END:\n"
        "add.s32 %r3, %r3, %r0;\n"
        "ret;");
    assert_int_equal(live_regs_of(ifelse), 3);
}

MX_TEST(ipdom_of_an_if_nested_in_a_loop)
{
    static const char src[] = MXT_KERNEL(
        ".reg .pred %p<2>;\n"
        ".reg .b32 %r<1>;\n"
        "TOP:\n"
        "@%p0 bra SKIP;\n"            /* 0   B0 -> B2, B1 */
        "add.s32 %r0, %r0, 1;\n"      /* 1   B1 -> B2 */
        "SKIP:\n"
        "@%p1 bra TOP;\n"             /* 2   B2 -> B0, B3 */
        "ret;");                      /* 3   B3 */
    struct mxt_parse r;
    mxt_parse_ok(&r, src);
    assert_int_equal(mxt_insn(&r.prog, 0, 0)->ipdom, 2); /* the if joins at SKIP */
    assert_int_equal(mxt_insn(&r.prog, 0, 2)->ipdom, 3); /* the loop leaves to the ret */
    mxt_parse_free(&r);
    assert_round_trip(src, 0);
}

/* ------------------------------------------------------ kernel parameters */

static const char params_src[] = MXT_HEADER
    ".visible .entry k(.param .u64 a, .param .u32 b, .param .align 8 .b8 s[16],\n"
    "  .param .u64 .ptr .global .align 16 q, .param .u8 c, .param .u64 .ptr .align 4 g)\n"
    ".maxntid 128, 1, 1\n"
    "{\n"
    "  ret;\n"
    "}\n";

MX_TEST(entry_parameters_offsets_alignment_and_ptr)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, params_src);
    const struct mx_program *p = &r.prog;
    uint32_t k = mxt_func(p, "k");
    const struct mx_func *f = &p->funcs[k];
    assert_int_equal(f->flags & MX_FUNCF_ENTRY, MX_FUNCF_ENTRY);
    assert_int_equal(f->flags & MX_FUNCF_VISIBLE, MX_FUNCF_VISIBLE);
    assert_int_equal(f->nparams, 6);
    static const struct { const char *name; uint64_t off, size; uint32_t align; int type; } want[] = {
        { "a", 0, 8, 8, MX_T_U64 }, { "b", 8, 4, 4, MX_T_U32 }, { "s", 16, 16, 8, MX_T_B8 },
        { "q", 32, 8, 8, MX_T_U64 }, { "c", 40, 1, 1, MX_T_U8 }, { "g", 48, 8, 8, MX_T_U64 },
    };
    for (uint32_t i = 0; i < 6; i++) {
        const struct mx_symbol *s = &p->syms[f->param + i];
        assert_string_equal(mx_str(p, s->name), want[i].name);
        assert_int_equal(s->space, MX_SP_PARAM);
        assert_int_equal(s->offset, want[i].off);
        assert_int_equal(s->size, want[i].size);
        assert_int_equal(s->align, want[i].align);
        assert_int_equal(s->type, want[i].type);
        assert_int_equal(s->func, k);
        assert_true(s->flags & MX_SYMF_ENTRY_PARAM);
    }
    assert_int_equal(f->param_size, 56);
    const struct mx_symbol *s = &p->syms[f->param + 2];
    assert_int_equal(s->ndims, 1);
    assert_int_equal(s->dims[0], 16);
    s = &p->syms[f->param + 3];
    assert_int_equal(s->flags, MX_SYMF_ENTRY_PARAM | MX_SYMF_PTR);
    assert_int_equal(s->ptr_space, MX_SP_GLOBAL);
    assert_int_equal(s->ptr_align, 16);
    s = &p->syms[f->param + 5];
    assert_int_equal(s->ptr_space, 0xff);
    assert_int_equal(s->ptr_align, 4);
    assert_int_equal(p->syms[f->param].flags, MX_SYMF_ENTRY_PARAM);
    assert_int_equal(p->syms[f->param].ptr_space, 0xff);
    assert_int_equal(f->maxntid[0], 128);
    assert_int_equal(f->maxntid[1], 1);
    mxt_parse_free(&r);
    assert_round_trip(params_src, 0);
}

/* ----------------------------------------------------- module variables */

static const char vars_src[] = MXT_HEADER
    ".global .align 4 .u32 g1 = 7;\n"
    ".global .u32 arr[3] = {1, 2, 3};\n"
    ".const .f32 cf[3] = {1.0, 0f40000000, 3};\n"
    ".global .u64 ptrs[2] = {generic(arr), arr+4};\n"
    ".global .u32 arr2[] = {5, 6};\n"
    ".global .u8 bytes[4] = {0xFF(g1), 0xFF00(g1), 0xFF0000(g1), 0xFF000000(g1)};\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".global .u32 nested[2][2] = {{1, 2}, {3, 4}};\n"
    ".global .s16 neg = -2;\n"
    ".global .u32 sized[2+3*4];\n"
    ".entry k()\n{\n  ret;\n}\n";

MX_TEST(module_variables_and_initialisers)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, vars_src);
    const struct mx_program *p = &r.prog;
    uint32_t g1 = mxt_sym(p, MX_NONE, "g1");
    const struct mx_symbol *s = &p->syms[g1];
    assert_int_equal(s->space, MX_SP_GLOBAL);
    assert_int_equal(s->init, 1);
    assert_int_equal(s->size, 4);
    assert_int_equal(s->align, 4);
    assert_int_equal(rd32(p, s->offset), 7);

    uint32_t arr = mxt_sym(p, MX_NONE, "arr");
    s = &p->syms[arr];
    assert_int_equal(s->size, 12);
    assert_int_equal(s->ndims, 1);
    assert_int_equal(s->dims[0], 3);
    for (uint32_t i = 0; i < 3; i++)
        assert_int_equal(rd32(p, s->offset + 4 * i), i + 1);

    s = &p->syms[mxt_sym(p, MX_NONE, "cf")];
    assert_int_equal(s->space, MX_SP_CONST);
    assert_int_equal(rd32(p, s->offset), f32bits(1.0f));
    assert_int_equal(rd32(p, s->offset + 4), 0x40000000);
    assert_int_equal(rd32(p, s->offset + 8), f32bits(3.0f)); /* an integer in a float array is converted */

    uint32_t ptrs = mxt_sym(p, MX_NONE, "ptrs");
    assert_int_equal(p->syms[ptrs].align, 8);
    assert_int_equal(p->syms[ptrs].offset % 8, 0);
    uint32_t bytes = mxt_sym(p, MX_NONE, "bytes");
    assert_int_equal(p->nrelocs, 6);
    const struct mx_reloc *rl = &p->relocs[0];
    assert_int_equal(rl->sym, ptrs);
    assert_int_equal(rl->target, arr);
    assert_int_equal(rl->offset, 0);
    assert_int_equal(rl->size, 8);
    assert_int_equal(rl->generic, 1);
    assert_int_equal(rl->addend, 0);
    rl = &p->relocs[1];
    assert_int_equal(rl->offset, 8);
    assert_int_equal(rl->generic, 0);
    assert_int_equal(rl->addend, 4);
    for (uint32_t i = 0; i < 4; i++) {
        rl = &p->relocs[2 + i];
        assert_int_equal(rl->sym, bytes);
        assert_int_equal(rl->target, g1);
        assert_int_equal(rl->offset, i);
        assert_int_equal(rl->size, 1);
        assert_int_equal(rl->shift, 8 * i);
    }

    s = &p->syms[mxt_sym(p, MX_NONE, "arr2")];
    assert_int_equal(s->ndims, 1);
    assert_int_equal(s->dims[0], 2);
    assert_int_equal(s->size, 8);
    assert_int_equal(rd32(p, s->offset + 4), 6);

    s = &p->syms[mxt_sym(p, MX_NONE, "dyn")];
    assert_int_equal(s->space, MX_SP_SHARED);
    assert_int_equal(s->flags, MX_SYMF_EXTERN | MX_SYMF_DYNAMIC);
    assert_int_equal(s->size, 0);
    assert_int_equal(s->align, 16);
    assert_int_equal(s->init, 0);

    s = &p->syms[mxt_sym(p, MX_NONE, "nested")];
    assert_int_equal(s->ndims, 2);
    assert_int_equal(s->dims[0], 2);
    assert_int_equal(s->dims[1], 2);
    assert_int_equal(s->size, 16);
    for (uint32_t i = 0; i < 4; i++)
        assert_int_equal(rd32(p, s->offset + 4 * i), i + 1);

    s = &p->syms[mxt_sym(p, MX_NONE, "neg")];
    assert_int_equal(p->data[s->offset], 0xFE);
    assert_int_equal(p->data[s->offset + 1], 0xFF);

    s = &p->syms[mxt_sym(p, MX_NONE, "sized")];
    assert_int_equal(s->dims[0], 14); /* C precedence in array sizes */
    assert_int_equal(s->size, 56);
    assert_int_equal(s->init, 0);
    mxt_parse_free(&r);
    assert_round_trip(vars_src, 0);
}

MX_TEST(variable_errors)
{
    struct mxt_parse r;
    mxt_parse_err(&r, MXT_HEADER ".global .u32 a[2] = {1, 2, 3};\n", MX_EPARSE, 4, 28, "too many initialisers for 'a'");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_HEADER ".global .u64 p = nosuch;\n", MX_EPARSE, 4, 18, "undefined symbol in initialiser");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_HEADER ".global .u32 a = 1.5;\n", MX_EPARSE, 4, 18, "float initialiser for a variable of type .u32");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_HEADER ".global .u32 a[];\n", MX_EPARSE, 4, 14, "unsized array needs an initialiser or .extern");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_HEADER ".global .u16 g;\n.global .u16 p = g;\n", MX_EPARSE, 5, 18, "address initialiser needs a 32- or 64-bit element");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_HEADER ".global .u32 g;\n.global .u32 g;\n", MX_EPARSE, 5, 14, "duplicate declaration of 'g'");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_HEADER ".shared .u32 s = 1;\n", MX_EPARSE, 4, 14, "only .global and .const variables can have initialisers");
    mxt_parse_free(&r);
}

/* ------------------------------------------------ shared and local layout */

static const char shared_src[] = MXT_HEADER
    ".shared .align 4 .b32 s_mod[4];\n"        /* sym 0: used by k1 */
    ".shared .align 8 .b64 s_unused[2];\n"     /* sym 1: used by nobody */
    ".extern .shared .align 16 .b8 dyn[];\n"   /* sym 2: dynamic */
    ".func helper()\n"
    "{\n"
    "  .shared .align 16 .b8 s_helper[32];\n"  /* sym 3 */
    "  .reg .b64 %rd<1>;\n"
    "  mov.u64 %rd0, s_helper;\n"
    "  ret;\n"
    "}\n"
    ".entry k1()\n"
    "{\n"
    "  .reg .b32 %r<1>;\n"
    "  .shared .align 2 .b16 s_k1[3];\n"       /* sym 4 */
    "  ld.shared.u32 %r0, [s_mod];\n"
    "  st.shared.u16 [s_k1+2], %r0;\n"
    "  ld.shared.u8 %r0, [dyn];\n"
    "  call helper;\n"
    "  ret;\n"
    "}\n"
    ".entry k2()\n"
    "{\n"
    "  ret;\n"
    "}\n";

MX_TEST(per_kernel_shared_layout)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, shared_src);
    const struct mx_program *p = &r.prog;
    uint32_t k1 = mxt_func(p, "k1"), k2 = mxt_func(p, "k2");
    uint32_t s_mod = mxt_sym(p, MX_NONE, "s_mod"), dyn = mxt_sym(p, MX_NONE, "dyn");
    uint32_t s_helper = mxt_sym(p, mxt_func(p, "helper"), "s_helper"), s_k1 = mxt_sym(p, k1, "s_k1");
    const struct mx_func *f = &p->funcs[k1];
    /* s_mod 0..16, s_helper (align 16) 16..48, s_k1 48..54; dyn after, at 16-byte alignment */
    assert_int_equal(f->shared_size, 54);
    assert_int_equal(f->shared_align, 16);
    assert_int_equal(f->nshared, 4);
    const uint32_t want[4][2] = { { s_mod, 0 }, { s_helper, 16 }, { s_k1, 48 }, { dyn, 64 } };
    for (uint32_t i = 0; i < 4; i++) {
        assert_int_equal(p->shared_layout[f->shared_layout + 2 * i], want[i][0]);
        assert_int_equal(p->shared_layout[f->shared_layout + 2 * i + 1], want[i][1]);
    }
    assert_int_equal(p->funcs[k2].shared_size, 0);
    assert_int_equal(p->funcs[k2].nshared, 0);
    mxt_parse_free(&r);
    assert_round_trip(shared_src, 0);
}

static const char local_src[] = MXT_KERNEL(
    ".local .align 8 .b64 l1[2];\n"
    ".local .u8 l2;\n"
    ".local .align 16 .b32 l3[3];\n"
    "ret;");

MX_TEST(local_frame_size)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, local_src);
    const struct mx_program *p = &r.prog;
    uint32_t k = mxt_func(p, "k");
    assert_int_equal(p->funcs[k].local_size, 44);
    assert_int_equal(p->syms[mxt_sym(p, k, "l1")].offset, 0);
    assert_int_equal(p->syms[mxt_sym(p, k, "l2")].offset, 16);
    assert_int_equal(p->syms[mxt_sym(p, k, "l3")].offset, 32);
    assert_int_equal(p->syms[mxt_sym(p, k, "l3")].space, MX_SP_LOCAL);
    mxt_parse_free(&r);
    assert_round_trip(local_src, 0);
}

/* ------------------------------------------------------------------- .loc */

static const char loc_src[] = MXT_HEADER
    ".file 1 \"k.cu\"\n"
    ".entry k()\n"
    "{\n"
    "  .reg .b32 %r<1>;\n"
    "  mov.u32 %r0, 1;\n"
    "  .loc 1 10 5\n"
    "  add.s32 %r0, %r0, 1;\n"
    "  add.s32 %r0, %r0, 2;\n"
    "  .loc 1 12 0\n"
    "  ret;\n"
    "}\n";

MX_TEST(loc_directives_map_instructions_to_source_lines)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, loc_src);
    const struct mx_program *p = &r.prog;
    assert_int_equal(p->nfiles, 1);
    assert_int_equal(p->files[0].num, 1);
    assert_string_equal(mx_str(p, p->files[0].name), "k.cu");
    assert_int_equal(mxt_insn(p, 0, 0)->loc_line, 0);
    assert_int_equal(mxt_insn(p, 0, 0)->loc_file, 0);
    assert_int_equal(mxt_insn(p, 0, 1)->loc_file, 1);
    assert_int_equal(mxt_insn(p, 0, 1)->loc_line, 10);
    assert_int_equal(mxt_insn(p, 0, 2)->loc_line, 10);
    assert_int_equal(mxt_insn(p, 0, 3)->loc_line, 12);
    assert_int_equal(mxt_insn(p, 0, 1)->line, 10); /* the PTX line itself */
    assert_int_equal(mxt_insn(p, 0, 1)->col, 3);
    mxt_parse_free(&r);
    assert_round_trip(loc_src, 0);
}

/* ------------------------------------------------------- movind extension */

static const char movind_src[] = MXT_KERNEL(
    ".reg .b32 %blk<32>;\n"
    ".reg .b32 %r<3>;\n"
    "movind.b32 %r0, %blk[%r1];\n"
    "movind.b32 %blk[%r1], %r2;\n"
    "ret;");

MX_TEST(movind_is_rejected_without_the_extension)
{
    struct mxt_parse r;
    mxt_parse_err(&r, movind_src, MX_EPARSE, 8, 1, "'movind' belongs to ISA extension 'indirect-mov', which is not enabled");
    assert_true(mxt_has_diag(r.text, 9, 1, "'movind' belongs to ISA extension 'indirect-mov'"));
    assert_int_equal(r.diag.nerrors, 2);
    /* another extension bit does not enable it */
    mxt_parse_free(&r);
    mxt_parse_err_ext(&r, movind_src, 1u << (MX_EXT__COUNT + 1), MX_EPARSE, 8, 1, "belongs to ISA extension 'indirect-mov'");
    mxt_parse_free(&r);
}

MX_TEST(movind_with_the_extension)
{
    struct mxt_parse r;
    mxt_parse_ok_ext(&r, movind_src, EXT_MOVIND);
    assert_int_equal(r.prog.ext_mask, EXT_MOVIND);
    const struct mx_insn *in = mxt_insn(&r.prog, 0, 0);
    assert_int_equal(in->op, MX_OP_MOVIND);
    assert_int_equal(in->type[0], MX_T_B32);
    assert_opd_reg(&in->opd[0], 32, MX_T_B32);
    const struct mx_operand *o = &in->opd[1];
    assert_int_equal(o->kind, MX_OPD_INDREG);
    assert_int_equal(o->reg, 0);   /* first slot of %blk */
    assert_int_equal(o->sym, 32);  /* range length */
    assert_int_equal(o->imm, 33);  /* index register %r1 */
    assert_int_equal(o->type, MX_T_B32);
    assert_int_equal(o->flags, MX_OPDF_BASE32);
    in = mxt_insn(&r.prog, 0, 1);
    assert_int_equal(in->opd[0].kind, MX_OPD_INDREG);
    assert_int_equal(in->opd[0].imm, 33);
    assert_opd_reg(&in->opd[1], 34, MX_T_B32);
    mxt_parse_free(&r);
    assert_round_trip(movind_src, EXT_MOVIND);
}

MX_TEST(movind_operand_errors)
{
    struct mxt_parse r;
    mxt_parse_err_ext(&r, MXT_KERNEL(".reg .b32 %r<3>;\nmovind.b32 %r0, %r1;"), EXT_MOVIND, MX_EPARSE, 7, 1,
                      "movind needs exactly one indexed register operand");
    mxt_parse_free(&r);
    mxt_parse_err_ext(&r, MXT_KERNEL(".reg .b32 %r<3>;\n.reg .b32 %one;\nmovind.b32 %r0, %one[%r1];"), EXT_MOVIND, MX_EPARSE, 8, 17,
                      "'%one' is not a declared register range");
    mxt_parse_free(&r);
    mxt_parse_err_ext(&r, MXT_KERNEL(".reg .b32 %blk<4>;\n.reg .f32 %f<2>;\n.reg .b32 %r<1>;\nmovind.b32 %r0, %blk[%f1];"), EXT_MOVIND,
                      MX_EPARSE, 9, 17, "index must be an integer register");
    mxt_parse_free(&r);
    mxt_parse_err_ext(&r, MXT_KERNEL(".reg .b64 %blk<4>;\n.reg .b32 %r<2>;\nmovind.b32 %r0, %blk[%r1];"), EXT_MOVIND, MX_EPARSE, 8, 17,
                      "register range of type .b64 cannot be used as .b32");
    mxt_parse_free(&r);
}

/* ------------------------------------------------- operand count and kinds */

MX_TEST(operand_count_and_kind_errors)
{
    struct mxt_parse r;
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<3>;\nadd.s32 %r0, %r1;"), MX_EPARSE, 7, 1, "'add' takes 3 operands, 2 given");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<3>;\nadd.s32 %r0, %r1, %r2, %r2;"), MX_EPARSE, 7, 1, "'add' takes 3 operands, 4 given");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<3>;\nbar.sync 0, 32, 1;"), MX_EPARSE, 7, 1, "'bar.sync' takes 1 to 2 operands, 3 given");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<3>;\n.reg .f32 %f<1>;\nadd.s32 %r0, %f0, %r1;"), MX_EPARSE, 8, 14,
                  "register '%f0' of type .f32 cannot be used as a .s32 operand of 'add'");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<3>;\nadd.s32 %r0|%r1, %r1, %r2;"), MX_EPARSE, 7, 9, "'|' is not allowed in operands of 'add'");
    mxt_parse_free(&r);
}

MX_TEST(register_width_rules)
{
    /* ld/st/cvt may use a register wider than an integer type; arithmetic may not */
    static const char ok[] = MXT_KERNEL(".reg .b32 %r<2>;\n.reg .b64 %rd<1>;\n"
                                        "ld.global.u8 %r0, [%rd0];\ncvt.u16.u32 %r1, %r0;\nret;");
    struct mxt_parse r;
    mxt_parse_ok(&r, ok);
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .b32 %r<2>;\nadd.u16 %r0, %r1, 1;"), MX_EPARSE, 7, 9,
                  "register '%r0' of type .b32 cannot be used as a .u16 operand of 'add'");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".reg .f64 %fd<1>;\n.reg .b64 %rd<1>;\nld.global.f32 %fd0, [%rd0];"), MX_EPARSE, 8, 15,
                  "register '%fd0' of type .f64 cannot be used as a .f32 operand of 'ld'");
    mxt_parse_free(&r);
}

/* ------------------------------------------------------ error recovery */

MX_TEST(three_errors_give_three_diagnostics)
{
    static const char src[] = MXT_KERNEL(
        ".reg .b32 %r<3>;\n"
        "foo.s32 %r0, %r1;\n"          /* 7 */
        "add.s32 %r0, %r1, %r9;\n"     /* 8 */
        "mov.u32 %r0, %r1;\n"
        "bra NOWHERE;\n"               /* 10 */
        "ret;");
    struct mxt_parse r;
    mxt_parse(&r, src, 0);
    assert_int_equal(r.rc, MX_EPARSE);
    assert_int_equal(r.diag.nerrors, 3);
    assert_int_equal(mxt_count_errors(r.text), 3);
    assert_true(mxt_has_diag(r.text, 7, 1, "unknown instruction 'foo'"));
    assert_true(mxt_has_diag(r.text, 8, 19, "undefined register '%r9'"));
    assert_true(mxt_has_diag(r.text, 10, 5, "undefined label 'NOWHERE'"));
    assert_string_equal(r.diag.first, "t.ptx:7:1: error: unknown instruction 'foo' near 'foo.s32'");
    mxt_parse_free(&r);
}

MX_TEST(max_errors_stops_reporting)
{
    char src[4096] = MXT_HEADER ".entry k()\n{\n";
    for (int i = 0; i < 30; i++)
        strcat(src, "nosuch;\n");
    strcat(src, "}\n");
    struct mxt_parse r;
    memset(&r, 0, sizeof r);
    FILE *mem = open_memstream(&r.text, &r.textlen);
    struct fe_options opt = { .max_errors = 5, .diag_out = mem };
    r.diag.out = mem;
    r.rc = fe_parse_ptx(src, strlen(src), "t.ptx", &opt, &r.prog, &r.diag);
    fclose(mem);
    assert_int_equal(r.rc, MX_EPARSE);
    assert_int_equal(mxt_count_errors(r.text), 5);
    assert_non_null(strstr(r.text, "too many errors, stopping"));
    mxt_parse_free(&r);
}

MX_TEST(unsupported_forms_have_their_own_status)
{
    struct mxt_parse r;
    mxt_parse_err(&r, MXT_KERNEL(".reg .v4 .b32 %v;"), MX_EUNSUPPORTED, 6, 6, "unsupported: vector registers");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_HEADER ".func f(.reg .b32 a)\n{\nret;\n}\n", MX_EUNSUPPORTED, 4, 9, "unsupported: register parameters");
    mxt_parse_free(&r);
    mxt_parse_err(&r, MXT_KERNEL(".global .u32 g;"), MX_EUNSUPPORTED, 6, 9, "unsupported: .global variables inside a function");
    mxt_parse_free(&r);
}

MX_TEST(module_header_errors)
{
    struct mxt_parse r;
    mxt_parse_err(&r, ".target sm_70\n.entry k()\n{\nret;\n}\n", MX_EPARSE, 1, 1, "missing .version directive");
    mxt_parse_free(&r);
    mxt_parse_err(&r, ".version 7.0\n.target sm_70\n.address_size 48\n", MX_EPARSE, 3, 15, "address size must be 32 or 64");
    mxt_parse_free(&r);
    mxt_parse_err(&r, ".version 7.0\n.target sm_70\n.entry k()\n{\nret;\n", MX_EPARSE, 6, 1, "missing '}' at end of function");
    mxt_parse_free(&r);
    /* and a good header is recorded */
    mxt_parse_ok(&r, ".version 8.3\n.target sm_90, debug\n.address_size 32\n");
    assert_int_equal(r.prog.version_major, 8);
    assert_int_equal(r.prog.version_minor, 3);
    assert_int_equal(r.prog.target_sm, 90);
    assert_int_equal(r.prog.target_flags, 4);
    assert_int_equal(r.prog.address_size, 32);
    mxt_parse_free(&r);
}

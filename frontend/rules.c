/* frontend/rules.c — instruction forms the opcode table cannot express: which
 * type pairs, rounding modifiers and .ftz/.sat/.relu/comparison modifiers go
 * together, for the arithmetic family (add sub mul mad fma div abs neg min
 * max), setp, set and cvt.  The rules follow the PTX ISA 9.0 syntax blocks
 * and, where ptxas 13.0 is stricter or looser than the text, ptxas: every
 * rule is checked against ptxas's answers in tests/frontend/forms/ (cvt.forms, set.forms, ...)
 * (tests/frontend/test_forms.c).  Owns no state; called once per lowered
 * instruction by the parser. */
#include "frontend/fe-internal.h"

#include <stdarg.h>

#define TB(x) (1ull << MX_T_##x)
#define HAS(g) (in->mod[MX_MG_##g] != 0)
#define IS(g, v) (in->mod[MX_MG_##g] == MX_##g##_##v)

/* Reports an error at the written modifier of group g (at the opcode if the
 * group was not written); always returns -1. */
static int bad(const struct fe_form *f, int g, const char *fmt, ...) MX_PRINTF(3, 4);
static int bad(const struct fe_form *f, int g, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    unsigned col = f->col + (g >= 0 && f->in->mod[g] ? f->mcol[g] : 0);
    fe_error(f->diag, f->line, col, f->s, f->len, "%s", msg);
    return -1;
}

/* ".rn" for the written value of group g. */
static const char *spell(const struct mx_insn *in, int g) { return mx_mod_name(g, in->mod[g]); }

static int is_int(int t) { return mx_type_class(t) == MX_TC_U || mx_type_class(t) == MX_TC_S; }
static int is_bf(int t) { return t == MX_T_BF16 || t == MX_T_BF16X2; }
static int is_f16(int t) { return t == MX_T_F16 || t == MX_T_F16X2; }

/* ------------------------------------------------------------ arithmetic */

/* add sub mul mad fma div abs neg min max: modifiers that only floats take,
 * the one rounding of the half types, and .sat/.cc on integers.
 * (ptxas: add.rn.s32 "Illegal rounding modifier", add.ftz.s32, div.approx.s32,
 * min.NaN.s32 "Illegal modifier", add.sat.u32, mul.hi.sat.s32, add.cc.f32.) */
static int check_arith(const struct fe_form *f)
{
    const struct mx_insn *in = f->in;
    const char *mn = mx_opinfo(in->op)->mnemonic;
    const int t = in->type[0], op = in->op;
    const char *tn = mx_type_name(t);
    if (HAS(RND) && (IS(RND, RNA) || IS(RND, RS)))
        return bad(f, MX_MG_RND, "rounding modifier .%s is only for cvt", spell(in, MX_MG_RND));
    if (is_int(t)) {
        static const int float_only[] = { MX_MG_RND, MX_MG_APPROX, MX_MG_FTZ, MX_MG_NAN, MX_MG_XORSIGN, MX_MG_ABS };
        for (size_t i = 0; i < sizeof float_only / sizeof float_only[0]; i++) {
            int g = float_only[i];
            if (in->mod[g])
                return bad(f, g, "%s .%s is not allowed for integer type .%s of '%s'",
                           g == MX_MG_RND ? "rounding modifier" : "modifier", spell(in, g), tn, mn);
        }
        if ((op == MX_OP_MUL || op == MX_OP_MAD) && !HAS(MULMODE))
            return bad(f, -1, "'%s' on integer type .%s needs .lo, .hi or .wide", mn, tn);
        if (IS(MULMODE, WIDE) && mx_type_size(t) == 8)
            return bad(f, MX_MG_MULMODE, "'%s.wide' takes 16- and 32-bit types, not .%s", mn, tn);
        /* saturation exists for add.s32, sub.s32 and mad.hi.s32 only */
        if (IS(SAT, SAT) && !(t == MX_T_S32 && (op == MX_OP_ADD || op == MX_OP_SUB || (op == MX_OP_MAD && IS(MULMODE, HI)))))
            return bad(f, MX_MG_SAT, "modifier .sat is only allowed on add.s32, sub.s32 and mad.hi.s32, not '%s' .%s", mn, tn);
        if (IS(SAT, SATFINITE))
            return bad(f, MX_MG_SAT, "modifier .satfinite is not allowed for '%s'", mn);
        return 0;
    }
    if (HAS(CC))
        return bad(f, MX_MG_CC, "modifier .cc is only allowed on integer types, not .%s", tn);
    if (HAS(MULMODE))
        return bad(f, MX_MG_MULMODE, "modifier .%s is only allowed on integer types, not .%s", spell(in, MX_MG_MULMODE), tn);
    if (IS(SAT, SATFINITE))
        return bad(f, MX_MG_SAT, "modifier .satfinite is not allowed for '%s'", mn);
    /* .ftz flushes f32 and f16 subnormals; f64 and bf16 have none to flush */
    if (HAS(FTZ) && (t == MX_T_F64 || is_bf(t)))
        return bad(f, MX_MG_FTZ, "modifier .ftz is not allowed for type .%s of '%s'", tn, mn);
    if (IS(SAT, SAT) && (t == MX_T_F64 || is_bf(t)))
        return bad(f, MX_MG_SAT, "modifier .sat is not allowed for type .%s of '%s'", tn, mn);
    /* half types round to nearest only; fma.bf16 takes all four (ptxas 13.0) */
    if (HAS(RND) && !IS(RND, RN) && (is_f16(t) || (is_bf(t) && op != MX_OP_FMA)))
        return bad(f, MX_MG_RND, "'%s' .%s takes only the .rn rounding modifier, not .%s", mn, tn, spell(in, MX_MG_RND));
    return 0;
}

/* ------------------------------------------------------------ comparisons */

/* CmpOp against the compared type (PTX ISA "Comparison and Selection"):
 * bit-size types compare eq/ne; signed eq ne lt le gt ge; unsigned also
 * lo ls hi hs; floats eq ne lt le gt ge and the unordered equ neu ltu leu
 * gtu geu num nan. */
static int check_cmp(const struct fe_form *f, int t)
{
    const struct mx_insn *in = f->in;
    int c = in->mod[MX_MG_CMP];
    const char *mn = mx_opinfo(in->op)->mnemonic;
    if (!c)
        return bad(f, -1, "%s needs a comparison (.eq, .lt, ...)", mn);
    int ok, cls = mx_type_class(t);
    const char *allowed;
    if (cls == MX_TC_B) {
        ok = c == MX_CMP_EQ || c == MX_CMP_NE;
        allowed = "eq ne";
    } else if (cls == MX_TC_S) {
        ok = c <= MX_CMP_GE;
        allowed = "eq ne lt le gt ge";
    } else if (cls == MX_TC_U) {
        ok = c <= MX_CMP_HS;
        allowed = "eq ne lt le gt ge lo ls hi hs";
    } else {
        ok = c <= MX_CMP_GE || c >= MX_CMP_EQU;
        allowed = "eq ne lt le gt ge equ neu ltu leu gtu geu num nan";
    }
    if (!ok)
        return bad(f, MX_MG_CMP, "comparison .%s is not allowed for type .%s (it takes %s)", spell(in, MX_MG_CMP),
                   mx_type_name(t), allowed);
    return 0;
}

/* The boolean operation and its predicate c (operand slot cslot) go together. */
static int check_bool(const struct fe_form *f, int cslot)
{
    const struct mx_insn *in = f->in;
    int has_c = in->nopd > cslot && in->opd[cslot].kind != MX_OPD_NONE;
    const char *mn = mx_opinfo(in->op)->mnemonic;
    if (HAS(BOOL) && !has_c)
        return bad(f, MX_MG_BOOL, "%s.%s needs the predicate operand c to combine with", mn, spell(in, MX_MG_BOOL));
    if (!HAS(BOOL) && has_c)
        return bad(f, -1, "the predicate operand c of %s needs a boolean operation (.and, .or, .xor)", mn);
    return 0;
}

/* setp.CmpOp{.BoolOp}{.ftz}.type p[|q], a, b{, c} */
static int check_setp(const struct fe_form *f)
{
    const struct mx_insn *in = f->in;
    const int t = in->type[0];
    if (check_cmp(f, t) || check_bool(f, 4))
        return -1;
    if (HAS(FTZ) && t != MX_T_F32 && !is_f16(t))
        return bad(f, MX_MG_FTZ, "modifier .ftz is only allowed for .f32, .f16 and .f16x2 comparisons, not .%s", mx_type_name(t));
    /* one half compares to one predicate: p|q is for .f16x2/.bf16x2 (two
       halves) and the 16..64-bit types (the complement) */
    if ((t == MX_T_F16 || t == MX_T_BF16) && in->opd[1].kind != MX_OPD_NONE)
        return bad(f, -1, "setp.%s writes one predicate: p|q is not allowed", mx_type_name(t));
    return 0;
}

/* set.CmpOp{.BoolOp}{.ftz}.dtype.stype d, a, b{, c}: the result types each
 * source type takes (PTX ISA "set" and "Half Precision Comparison: set";
 * ptxas 13.0 also takes .bf16 sources with .bf16 results). */
static int check_set(const struct fe_form *f)
{
    const struct mx_insn *in = f->in;
    const int d = in->type[0], s = in->type[1];
    if (check_cmp(f, s) || check_bool(f, 3))
        return -1;
    uint64_t dt;
    switch (s) {
    case MX_T_F16: dt = TB(U16) | TB(S16) | TB(U32) | TB(S32) | TB(F16) | TB(BF16); break;
    case MX_T_BF16: dt = TB(U16) | TB(S16) | TB(U32) | TB(S32) | TB(BF16); break;
    case MX_T_F16X2: dt = TB(U32) | TB(S32) | TB(F16X2); break;
    case MX_T_BF16X2: dt = TB(U32) | TB(S32) | TB(BF16X2); break;
    default: dt = TB(U32) | TB(S32) | TB(F32) | TB(F16) | TB(BF16); break; /* integers, f32, f64 */
    }
    if (!(dt & (1ull << d))) {
        fe_error(f->diag, f->line, f->col + f->tcol[0], f->s, f->len, "set with .%s sources cannot produce a .%s result",
                 mx_type_name(s), mx_type_name(d));
        return -1;
    }
    if (HAS(FTZ) && ((s != MX_T_F32 && !is_f16(s)) || d == MX_T_BF16))
        return bad(f, MX_MG_FTZ, "modifier .ftz is only allowed for .f32, .f16 and .f16x2 comparisons, not set.%s.%s",
                   mx_type_name(d), mx_type_name(s));
    return 0;
}

/* ------------------------------------------------------------------- cvt */

static int is_f8x2(int t) { return t == MX_T_E4M3X2 || t == MX_T_E5M2X2; }

/* Can an integer of type a hold a value that type d cannot (so that .sat can
 * clamp)?  ptxas rejects .sat where the result always fits. */
static int int_can_clamp(int d, int a)
{
    unsigned nd = mx_type_size(d), na = mx_type_size(a);
    int sd = mx_type_is_signed(d), sa = mx_type_is_signed(a);
    if (!sd)
        return sa || nd < na;
    return sa ? nd < na : nd <= na;
}

/* cvt forms with a packed or narrow float type (PTX ISA cvt syntax block):
 *   cvt.frnd2{.relu}{.satfinite}.{f16x2,bf16x2}.f32  d, a, b   frnd2 = .rn .rz
 *   cvt.frnd2{.relu}{.satfinite}.tf32.f32 d, a;  cvt.rna{.satfinite}.tf32.f32 d, a
 *   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32 (d, a, b), f16x2 (d, a)}
 *   cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a */
static int check_cvt_packed(const struct fe_form *f, int d, int a, int two)
{
    const struct mx_insn *in = f->in;
    const char *dn = mx_type_name(d), *an = mx_type_name(a);
    int rnds; /* allowed RND values, bit per value */
    int satf_req = 0, satf_ok = 1;
    if ((d == MX_T_F16X2 || d == MX_T_BF16X2) && a == MX_T_F32) {
        rnds = 1 << MX_RND_RN | 1 << MX_RND_RZ;
    } else if (d == MX_T_TF32 && a == MX_T_F32) {
        rnds = 1 << MX_RND_RN | 1 << MX_RND_RZ | 1 << MX_RND_RNA;
    } else if (is_f8x2(d) && (a == MX_T_F32 || a == MX_T_F16X2)) {
        rnds = 1 << MX_RND_RN;
        satf_req = 1;
    } else if (d == MX_T_F16X2 && is_f8x2(a)) {
        rnds = 1 << MX_RND_RN;
        satf_ok = 0;
    } else {
        fe_error(f->diag, f->line, f->col + f->tcol[0], f->s, f->len, "cvt has no conversion from .%s to .%s", an, dn);
        return -1;
    }
    int pack = a == MX_T_F32 && d != MX_T_TF32;
    if (pack != two)
        return bad(f, -1, pack ? "cvt.%s.%s converts two sources: d, a, b" : "cvt.%s.%s takes one source", dn, an);
    if (HAS(IRND))
        return bad(f, MX_MG_IRND, "integer rounding .%s is not allowed for cvt.%s.%s", spell(in, MX_MG_IRND), dn, an);
    if (!HAS(RND))
        return bad(f, -1, "cvt.%s.%s needs a rounding modifier (%s)", dn, an,
                   rnds == 1 << MX_RND_RN ? ".rn" : d == MX_T_TF32 ? ".rn, .rz or .rna" : ".rn or .rz");
    if (!(rnds & 1 << in->mod[MX_MG_RND]))
        return bad(f, MX_MG_RND, "rounding modifier .%s is not allowed for cvt.%s.%s", spell(in, MX_MG_RND), dn, an);
    if (HAS(FTZ))
        return bad(f, MX_MG_FTZ, "modifier .ftz is not allowed for cvt.%s.%s", dn, an);
    if (IS(SAT, SAT) || (IS(SAT, SATFINITE) && !satf_ok))
        return bad(f, MX_MG_SAT, "modifier .%s is not allowed for cvt.%s.%s", spell(in, MX_MG_SAT), dn, an);
    if (satf_req && !IS(SAT, SATFINITE))
        return bad(f, -1, "cvt.%s.%s needs .satfinite", dn, an);
    if (HAS(RELU) && IS(RND, RNA))
        return bad(f, MX_MG_RELU, "modifier .relu is not allowed with .rna");
    return 0;
}

/* cvt{.frnd|.irnd}{.ftz}{.sat}.dtype.atype d, a between integers, f16, bf16,
 * f32 and f64 (PTX ISA cvt, with ptxas 13.0 where it differs):
 *  - int -> int: no rounding; .sat only where the value can be clamped;
 *  - float -> int: an integer rounding .rni .rzi .rmi .rpi is required;
 *  - int -> float, and float -> float losing range or precision: a float
 *    rounding .rn .rz .rm .rp is required; widening f16/f32 -> f32/f64 takes
 *    none; conversions from and to bf16 of equal or greater width may have one;
 *  - float -> same float: none, or an integer rounding (round to integral);
 *  - .ftz needs .f32 on one side; .sat is not allowed with .bf16;
 *  - bf16 does not convert to or from 8-bit integers;
 *  - .relu and .satfinite only for f16/bf16 <- f32 with .rn or .rz and
 *    neither .ftz nor .sat. */
static int check_cvt(const struct fe_form *f)
{
    const struct mx_insn *in = f->in;
    const int d = in->type[0], a = in->type[1];
    const int two = in->nopd > 2 && in->opd[2].kind != MX_OPD_NONE;
    const char *dn = mx_type_name(d), *an = mx_type_name(a);
    const uint64_t packed = TB(F16X2) | TB(BF16X2) | TB(TF32) | TB(E4M3X2) | TB(E5M2X2);
    if (IS(RND, RS))
        return bad(f, MX_MG_RND, "rounding modifier .rs needs the random-bits operand form (cvt.rs d, a, b, rbits), not supported");
    if ((packed >> d & 1) || (packed >> a & 1))
        return check_cvt_packed(f, d, a, two);
    if (two)
        return bad(f, -1, "cvt.%s.%s takes one source", dn, an);
    if ((d == MX_T_BF16 && mx_type_size(a) == 1) || (a == MX_T_BF16 && mx_type_size(d) == 1)) {
        fe_error(f->diag, f->line, f->col + f->tcol[0], f->s, f->len, "cvt has no conversion from .%s to .%s", an, dn);
        return -1;
    }
    const int di = is_int(d), ai = is_int(a);
    /* rounding: 0 none allowed, 1 optional, 2 required; kind F (.rn..) or I (.rni..) */
    int need, irnd_kind;
    if (di && ai) {
        need = 0, irnd_kind = 0;
    } else if (di) {
        need = 2, irnd_kind = 1;
    } else if (ai) {
        need = 2, irnd_kind = 0;
    } else if (d == a) {
        need = 1, irnd_kind = 1;
    } else {
        irnd_kind = 0;
        need = mx_type_size(d) < mx_type_size(a) ? 2 : (d == MX_T_BF16 || a == MX_T_BF16) ? 1 : 0;
    }
    const char *kinds = irnd_kind ? ".rni, .rzi, .rmi, .rpi" : ".rn, .rz, .rm, .rp";
    int wrong = irnd_kind ? MX_MG_RND : MX_MG_IRND;
    if (in->mod[wrong] || (IS(RND, RNA)))
        return bad(f, in->mod[wrong] ? wrong : MX_MG_RND, "rounding modifier .%s is not allowed for cvt.%s.%s%s%s%s",
                   spell(in, in->mod[wrong] ? wrong : MX_MG_RND), dn, an, need ? " (it takes " : "", need ? kinds : "",
                   need ? ")" : "");
    int right = irnd_kind ? MX_MG_IRND : MX_MG_RND;
    if (need == 2 && !in->mod[right])
        return bad(f, -1, "cvt.%s.%s needs a rounding modifier (%s)", dn, an, kinds);
    if (need == 0 && in->mod[right])
        return bad(f, right, "rounding modifier .%s is not allowed for cvt.%s.%s (the conversion is exact)",
                   spell(in, right), dn, an);
    if (HAS(FTZ) && d != MX_T_F32 && a != MX_T_F32)
        return bad(f, MX_MG_FTZ, "modifier .ftz needs .f32 on one side of cvt, not cvt.%s.%s", dn, an);
    if (IS(SAT, SAT)) {
        if (d == MX_T_BF16 || a == MX_T_BF16)
            return bad(f, MX_MG_SAT, "modifier .sat is not allowed for cvt.%s.%s", dn, an);
        if (di && ai && !int_can_clamp(d, a))
            return bad(f, MX_MG_SAT, "modifier .sat is not allowed for cvt.%s.%s (every .%s value fits in .%s)", dn, an,
                       an, dn);
    }
    if (HAS(RELU) || IS(SAT, SATFINITE)) {
        int g = HAS(RELU) ? MX_MG_RELU : MX_MG_SAT;
        if ((d != MX_T_F16 && d != MX_T_BF16) || a != MX_T_F32)
            return bad(f, g, "modifier .%s is only allowed for cvt.f16.f32 and cvt.bf16.f32, not cvt.%s.%s",
                       spell(in, g), dn, an);
        if (!IS(RND, RN) && !IS(RND, RZ))
            return bad(f, g, "modifier .%s needs rounding .rn or .rz", spell(in, g));
        if (HAS(FTZ) || IS(SAT, SAT))
            return bad(f, g, "modifier .%s cannot be combined with .%s", spell(in, g), HAS(FTZ) ? "ftz" : "sat");
    }
    return 0;
}

/* ld / st .volatile: on .global, .shared (::cta, ::cluster) and generic
 * addresses only (the PTX ISA; ptxas 13: "Modifier '.volatile' cannot be
 * applied to '.local' space", likewise .const, .param and .param::entry). */
static int check_volatile(const struct fe_form *f)
{
    const struct mx_insn *in = f->in;
    int sp = in->mod[MX_MG_SPACE];
    if (!IS(SEM, VOLATILE) || !sp || sp == MX_SPACE_GLOBAL || sp == MX_SPACE_SHARED || sp == MX_SPACE_SHARED_CTA ||
        sp == MX_SPACE_SHARED_CLUSTER)
        return 0;
    return bad(f, MX_MG_SEM, "modifier .volatile cannot be applied to the .%s state space (only .global, .shared "
               "and generic addresses)", spell(in, MX_MG_SPACE));
}

int fe_check_form(const struct fe_form *f)
{
    switch (f->in->op) {
    case MX_OP_LD: case MX_OP_ST: return check_volatile(f);
    case MX_OP_ADD: case MX_OP_SUB: case MX_OP_MUL: case MX_OP_MAD: case MX_OP_FMA: case MX_OP_DIV:
    case MX_OP_ABS: case MX_OP_NEG: case MX_OP_MIN: case MX_OP_MAX:
        return check_arith(f);
    case MX_OP_SETP: return check_setp(f);
    case MX_OP_SET: return check_set(f);
    case MX_OP_CVT: return check_cvt(f);
    default: return 0;
    }
}

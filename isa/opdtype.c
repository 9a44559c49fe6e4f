/* isa/opdtype.c — the type each operand of a decoded instruction is read or
 * written as.  One rule table shared by the validator (front end), the
 * disassembler and the interpreter's operand fetch. */
#include "isa/opdtype.h"

static int wide_of(int t)
{
    switch (t) {
    case MX_T_U16: return MX_T_U32;
    case MX_T_S16: return MX_T_S32;
    case MX_T_U32: return MX_T_U64;
    case MX_T_S32: return MX_T_S64;
    case MX_T_B16: return MX_T_B32;
    case MX_T_B32: return MX_T_B64;
    default: return t;
    }
}

int mx_opd_type(const struct mx_insn *in, int slot)
{
    const struct mx_opinfo *oi = mx_opinfo(in->op);
    int t0 = in->type[0], t1 = in->type[1];
    char k = (oi && slot < oi->nopd) ? oi->kinds[slot] : 'a';
    if (k == 'P' || k == 'q')
        return MX_T_PRED;
    if (k == 'm' || k == 'l' || k == 't' || k == 'C')
        return MX_T_NONE;
    switch (in->op) {
    case MX_OP_MUL:
        if (slot == 0 && in->mod[MX_MG_MULMODE] == MX_MULMODE_WIDE)
            return wide_of(t0);
        return t0;
    case MX_OP_MAD:
        if ((slot == 0 || slot == 3) && in->mod[MX_MG_MULMODE] == MX_MULMODE_WIDE)
            return wide_of(t0);
        return t0;
    case MX_OP_SHL: case MX_OP_SHR:
        return slot == 2 ? MX_T_U32 : t0;
    case MX_OP_SHF:
        return slot == 3 ? MX_T_U32 : MX_T_B32;
    case MX_OP_BFE:
        return slot >= 2 ? MX_T_U32 : t0;
    case MX_OP_BFI:
        return slot >= 3 ? MX_T_U32 : t0;
    case MX_OP_SZEXT:
        return slot == 2 ? MX_T_U32 : t0;
    case MX_OP_BMSK:
        return MX_T_B32;
    case MX_OP_POPC: case MX_OP_CLZ: case MX_OP_BFIND:
        return slot == 0 ? MX_T_U32 : t0;
    case MX_OP_FNS:
        return slot == 3 ? MX_T_S32 : MX_T_B32;
    case MX_OP_DP4A: case MX_OP_DP2A:
        if (slot == 0 || slot == 3)
            return (t0 == MX_T_S32 || t1 == MX_T_S32) ? MX_T_S32 : MX_T_U32;
        return slot == 1 ? t0 : t1;
    case MX_OP_VABSDIFF4:
        if (slot == 1)
            return t1;
        if (slot == 2)
            return in->type[2];
        return t0;
    case MX_OP_CVT:
        return slot == 0 ? t0 : t1;
    case MX_OP_VSET2: case MX_OP_VSET4:
        return slot == 1 ? t0 : slot == 2 ? t1 : MX_T_U32;
    case MX_OP_VADD2: case MX_OP_VADD4: case MX_OP_VSUB2: case MX_OP_VSUB4: case MX_OP_VAVRG2: case MX_OP_VAVRG4:
    case MX_OP_VABSDIFF2: case MX_OP_VMIN2: case MX_OP_VMIN4: case MX_OP_VMAX2: case MX_OP_VMAX4:
        return slot == 1 ? t1 : slot == 2 ? in->type[2] : t0;
    case MX_OP_ALLOCA:
        return slot == 2 ? MX_T_U32 : t0;
    case MX_OP_ELECT:
        return slot == 1 ? MX_T_PRED : MX_T_B32;
    case MX_OP_MMA: case MX_OP_LDMATRIX: case MX_OP_STMATRIX: case MX_OP_MOVMATRIX:
        return MX_T_NONE;
    case MX_OP_SET:
        return slot == 0 ? t0 : t1;
    case MX_OP_SETP: case MX_OP_TESTP:
        return slot == 0 ? MX_T_PRED : t0;
    case MX_OP_SLCT:
        return slot == 3 ? t1 : t0;
    case MX_OP_ISSPACEP:
        return slot == 0 ? MX_T_PRED : MX_T_B64;
    case MX_OP_VOTE:
        return slot == 2 ? MX_T_B32 : t0;
    case MX_OP_SHFL:
        return MX_T_B32;
    case MX_OP_MATCH:
        return slot == 2 ? t0 : MX_T_B32;
    case MX_OP_REDUX:
        return slot == 2 ? MX_T_B32 : t0;
    case MX_OP_BAR_SYNC: case MX_OP_BARRIER_SYNC: case MX_OP_BAR_CTA_SYNC:
    case MX_OP_BAR_ARRIVE: case MX_OP_BARRIER_ARRIVE: case MX_OP_NANOSLEEP:
    case MX_OP_CP_ASYNC_WAIT: case MX_OP_CP_BULK_WAIT: case MX_OP_PMEVENT: case MX_OP_WAKE_WARP: case MX_OP_WAKE_GRID:
        return MX_T_U32;
    case MX_OP_BAR_RED: case MX_OP_BARRIER_RED:
        return slot == 0 ? t0 : MX_T_U32;
    case MX_OP_BAR_WARP_SYNC: case MX_OP_ACTIVEMASK:
        return MX_T_B32;
    case MX_OP_BRX:
        return MX_T_U32;
    case MX_OP_MBAR_INIT: case MX_OP_MBAR_ARRIVE: case MX_OP_MBAR_ARRIVE_DROP:
        return slot == 0 ? MX_T_B64 : MX_T_U32;
    case MX_OP_MBAR_TEST_WAIT: case MX_OP_MBAR_TRY_WAIT:
        if (slot == 0)
            return MX_T_PRED;
        return slot == 2 ? (in->mod[MX_MG_PARITY] ? MX_T_U32 : MX_T_B64) : MX_T_U32;
    case MX_OP_MBAR_PENDING:
        return slot == 0 ? MX_T_U32 : MX_T_B64;
    case MX_OP_MBAR_EXPECT_TX: case MX_OP_MBAR_COMPLETE_TX:
        return MX_T_U32;
    case MX_OP_CP_ASYNC:
        /* [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy} */
        if (slot == 4 || (slot == 3 && in->mod[MX_MG_L2HINT] && in->nopd == 4))
            return MX_T_B64;
        if (slot == 3 && in->opd[3].kind == MX_OPD_PRED)
            return MX_T_PRED;
        return MX_T_U32;
    case MX_OP_CP_BULK: /* [dst], [src], size{, [mbar]}{, cache-policy} */
        return slot == 4 ? MX_T_B64 : MX_T_U32;
    case MX_OP_TEX: case MX_OP_TLD4:
        return slot == 0 ? t0 : t1;
    case MX_OP_SULD: case MX_OP_SUST:
        return t0;
    case MX_OP_WMMA_LOAD: case MX_OP_WMMA_STORE: case MX_OP_WMMA_MMA:
        return MX_T_NONE; /* fragment registers: checked by the fragment rules, not per type */
    case MX_OP_LOP3:
        return MX_T_B32;
    case MX_OP_PRMT:
        return MX_T_B32;
    default:
        return t0;
    }
}

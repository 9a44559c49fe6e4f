/* frontend/sass.h — the SASS front end: decoding of sm_80/sm_86 instruction
 * words (frontend/sass_decode.c) and their lowering to the decoded program
 * (frontend/sass_lower.c).  The 128-bit word format, the subset and where
 * each fact comes from: docs/sass.md. */
#ifndef MX_FE_SASS_H
#define MX_FE_SASS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "frontend/cubin.h"
#include "frontend/diag.h"
#include "frontend/ptx.h"
#include "mx/program.h"

/* SOP(id, "MNEMONIC", major) — major is the 9-bit opcode in bits 0..8. */
#define FE_SASS_OPS(SOP)                 \
    SOP(MOV, "MOV", 0x002)               \
    SOP(CS2R, "CS2R", 0x005)             \
    SOP(VOTE, "VOTE", 0x006)             \
    SOP(SEL, "SEL", 0x007)               \
    SOP(FSEL, "FSEL", 0x008)             \
    SOP(FMNMX, "FMNMX", 0x009)           \
    SOP(FSETP, "FSETP", 0x00b)           \
    SOP(ISETP, "ISETP", 0x00c)           \
    SOP(IADD3, "IADD3", 0x010)           \
    SOP(LEA, "LEA", 0x011)               \
    SOP(LOP3, "LOP3.LUT", 0x012)         \
    SOP(IABS, "IABS", 0x013)             \
    SOP(IMNMX, "IMNMX", 0x017)           \
    SOP(SHF, "SHF", 0x019)               \
    SOP(PRMT, "PRMT", 0x016)             \
    SOP(PLOP3, "PLOP3.LUT", 0x01c)       \
    SOP(P2R, "P2R", 0x003)               \
    SOP(R2P, "R2P", 0x004)               \
    SOP(BMSK, "BMSK", 0x01b)             \
    SOP(I2F, "I2F", 0x045)               \
    SOP(FLO, "FLO", 0x100)               \
    SOP(BREV, "BREV", 0x101)             \
    SOP(POPC, "POPC", 0x109)             \
    SOP(FCHK, "FCHK", 0x102)             \
    SOP(F2F, "F2F", 0x110)               \
    SOP(F2I64, "F2I", 0x111)             \
    SOP(I2F64, "I2F", 0x112)             \
    SOP(F2I, "F2I", 0x105)               \
    SOP(I2F_MUFU, "I2F", 0x106)          \
    SOP(FRND, "FRND", 0x107)             \
    SOP(MUFU, "MUFU", 0x108)             \
    SOP(CALL, "CALL.REL.NOINC", 0x144)   \
    SOP(CALL_ABS, "CALL.ABS.NOINC", 0x143) \
    SOP(LEPC, "LEPC", 0x14e)             \
    SOP(RET, "RET.REL.NODEC", 0x150)     \
    SOP(FMUL, "FMUL", 0x020)             \
    SOP(HADD2, "HADD2", 0x030)           \
    SOP(HFMA2, "HFMA2", 0x031)           \
    SOP(HMUL2, "HMUL2", 0x032)           \
    SOP(F2FP, "F2FP.PACK_AB", 0x03e)     \
    SOP(HFMA2_MMA, "HFMA2.MMA", 0x035)   \
    SOP(FADD, "FADD", 0x021)             \
    SOP(FFMA, "FFMA", 0x023)             \
    SOP(DMUL, "DMUL", 0x028)             \
    SOP(DADD, "DADD", 0x029)             \
    SOP(DSETP, "DSETP", 0x02a)           \
    SOP(DFMA, "DFMA", 0x02b)             \
    SOP(IMAD, "IMAD", 0x024)             \
    SOP(IMAD_WIDE, "IMAD.WIDE", 0x025)   \
    SOP(IMAD_HI, "IMAD.HI", 0x027)       \
    SOP(IDP, "IDP", 0x026)               \
    SOP(UMOV, "UMOV", 0x082)             \
    SOP(VOTEU, "VOTEU", 0x086)           \
    SOP(USEL, "USEL", 0x087)             \
    SOP(UISETP, "UISETP", 0x08c)         \
    SOP(UIADD3, "UIADD3", 0x090)         \
    SOP(ULEA, "ULEA", 0x091)             \
    SOP(ULOP3, "ULOP3.LUT", 0x092)       \
    SOP(UPRMT, "UPRMT", 0x096)           \
    SOP(UPLOP3, "UPLOP3.LUT", 0x09c)     \
    SOP(UIMAD, "UIMAD", 0x0a4)           \
    SOP(UIMAD_WIDE, "UIMAD.WIDE", 0x0a5) \
    SOP(USHF, "USHF", 0x099)             \
    SOP(ULDC, "ULDC", 0x0b9)             \
    SOP(ULDC_IDX, "ULDC", 0x0bb)         \
    SOP(UFLO, "UFLO", 0x0bd)             \
    SOP(NOP, "NOP", 0x118)               \
    SOP(S2R, "S2R", 0x119)               \
    SOP(R2UR, "R2UR", 0x1c2)             \
    SOP(S2UR, "S2UR", 0x1c3)             \
    SOP(REDUX, "REDUX", 0x1c4)           \
    SOP(BAR, "BAR", 0x11d)               \
    SOP(B2R, "B2R.RESULT", 0x11c)        \
    SOP(MEMBAR, "MEMBAR", 0x192)         \
    SOP(ERRBAR, "ERRBAR", 0x1ab)         \
    SOP(CCTL, "CCTL.IVALL", 0x18f)       \
    SOP(BPT, "BPT.TRAP", 0x15c)          \
    SOP(BSYNC, "BSYNC", 0x141)           \
    SOP(BREAK, "BREAK", 0x142)           \
    SOP(BMOV_R, "BMOV.32.CLEAR", 0x155)  \
    SOP(BMOV_B, "BMOV.32", 0x156)        \
    SOP(BSSY, "BSSY", 0x145)             \
    SOP(YIELD, "YIELD", 0x146)           \
    SOP(NANOSLEEP, "NANOSLEEP", 0x15d)   \
    SOP(BRA, "BRA", 0x147)               \
    SOP(BRX, "BRX", 0x149)               \
    SOP(WARPSYNC, "WARPSYNC", 0x148)     \
    SOP(EXIT, "EXIT", 0x14d)             \
    SOP(LDL, "LDL", 0x183)               \
    SOP(STL, "STL", 0x187)               \
    SOP(SHFL, "SHFL", 0x189)             \
    SOP(LD, "LD", 0x180)                 \
    SOP(ST, "ST", 0x185)                 \
    SOP(LDG, "LDG", 0x181)               \
    SOP(LDC, "LDC", 0x182)               \
    SOP(LDS, "LDS", 0x184)               \
    SOP(STG, "STG", 0x186)               \
    SOP(STS, "STS", 0x188)               \
    SOP(ATOMS, "ATOMS", 0x18c)           \
    SOP(ATOMS_CAS, "ATOMS.CAS", 0x18d)   \
    SOP(ATOM, "ATOM", 0x18a)             \
    SOP(ATOM_CAS, "ATOM.CAS", 0x18b)     \
    SOP(ATOMG, "ATOMG", 0x1a8)           \
    SOP(ATOMG_CAS, "ATOMG.CAS", 0x1a9)   \
    SOP(RED, "RED", 0x18e)               \
    SOP(LDGSTS, "LDGSTS", 0x1ae)         \
    SOP(LDGDEPBAR, "LDGDEPBAR", 0x1af)   \
    SOP(DEPBAR, "DEPBAR.LE", 0x11a)      \
    SOP(LDSM, "LDSM.16", 0x03b)          \
    SOP(MOVM, "MOVM.16.MT88", 0x03a)     \
    SOP(HMMA, "HMMA", 0x03c)             \
    SOP(IMMA, "IMMA", 0x037)             \
    SOP(DMMA, "DMMA.884", 0x03f)         \
    SOP(TEX, "TEX", 0x160)               \
    SOP(TEX_B, "TEX.B", 0x161)           \
    SOP(TLD, "TLD", 0x166)               \
    SOP(TLD_B, "TLD.B", 0x167)           \
    SOP(SULD, "SULD", 0x199)             \
    SOP(SULD_B, "SULD.B", 0x19a)         \
    SOP(SUST, "SUST", 0x19d)             \
    SOP(SUST_B, "SUST.B", 0x19e)

enum fe_sass_op {
#define SOP(id, mn, major) FE_SASS_##id,
    FE_SASS_OPS(SOP)
#undef SOP
    FE_SASS__COUNT
};

/* The instruction whose fields and lowering op shares: the vector one a
 * uniform-datapath instruction mirrors (with UR0..UR62/URZ = 63 and
 * UP0..UP6 in place of R and P; *uniform set), a twin with the same fields
 * (FSEL as SEL, I2F 0x106 as I2F 0x045), or op itself. */
static inline unsigned fe_sass_vector_op(unsigned op, int *uniform)
{
    static const struct { uint8_t u, v, uni; } map[] = {
        { FE_SASS_UMOV, FE_SASS_MOV, 1 }, { FE_SASS_USEL, FE_SASS_SEL, 1 }, { FE_SASS_UISETP, FE_SASS_ISETP, 1 },
        { FE_SASS_UIADD3, FE_SASS_IADD3, 1 }, { FE_SASS_ULEA, FE_SASS_LEA, 1 }, { FE_SASS_ULOP3, FE_SASS_LOP3, 1 },
        { FE_SASS_UIMAD, FE_SASS_IMAD, 1 }, { FE_SASS_UIMAD_WIDE, FE_SASS_IMAD_WIDE, 1 }, { FE_SASS_S2UR, FE_SASS_S2R, 1 },
        { FE_SASS_FSEL, FE_SASS_SEL, 0 }, { FE_SASS_I2F_MUFU, FE_SASS_I2F, 0 }, { FE_SASS_UFLO, FE_SASS_FLO, 1 },
        { FE_SASS_UPRMT, FE_SASS_PRMT, 1 }, { FE_SASS_UPLOP3, FE_SASS_PLOP3, 1 },
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].u == op) {
            *uniform = map[i].uni;
            return map[i].v;
        }
    *uniform = 0;
    return op;
}

/* One decoded instruction word.  The operand fields stay in the raw words
 * (lo = bits 0..63, hi = bits 64..127); the accessors below name them. */
struct fe_sass_insn {
    uint32_t addr;        /* byte offset in the kernel's .text */
    uint64_t lo, hi;
    uint8_t op;           /* enum fe_sass_op */
    uint8_t form;         /* bits 9..11: which operand is register / immediate / constant / uniform */
    uint8_t guard;        /* guard predicate P0..P6, 7 = PT (always) */
    uint8_t guard_neg;    /* @!P */
    /* control information (bits 105..127), kept for timing models: */
    uint8_t stall;        /* cycles to wait before issuing the next instruction (0..15) */
    uint8_t yield;        /* yield hint bit */
    uint8_t wbar;         /* scoreboard barrier set when the result is written (7 = none) */
    uint8_t rbar;         /* scoreboard barrier set when the sources are read (7 = none) */
    uint8_t wait;         /* mask of the six barriers waited on before issue */
    uint8_t reuse;        /* operand reuse-cache flags */
};

static inline uint32_t fe_sass_bits(const struct fe_sass_insn *s, unsigned pos, unsigned n)
{
    uint64_t v = pos >= 64 ? s->hi >> (pos - 64)
                           : (s->lo >> pos) | (pos + n > 64 ? s->hi << (64 - pos) : 0);
    return (uint32_t)(v & ((n >= 32 ? 0 : 1ull << n) - 1));
}

/* Decodes the word at addr; MX_OK, or MX_EUNSUPPORTED with "kernel K: SASS
 * address 0x..: ..." naming the raw word in err. */
int fe_sass_decode(const uint8_t word[16], uint32_t addr, const char *kernel, struct fe_sass_insn *s, char *err,
                   size_t errlen);
/* Writes "MNEMONIC operands" (our spelling, docs/sass.md) into buf. */
void fe_sass_format(const struct fe_sass_insn *s, char *buf, size_t len);
const char *fe_sass_name(unsigned op);

/* Prints every kernel of the cubin: address, control bits, decoded text.
 * Returns MX_OK or the first decode error (printed to err as well). */
int fe_sass_disasm(const struct fe_cubin *c, const char *file, FILE *out, FILE *err);

/* Lowers every kernel of the cubin to a decoded program, as fe_parse_ptx
 * does for PTX: same contract (*prog valid and to be freed whatever the
 * result).  file names the cubin in diagnostics. */
int fe_sass_load(const struct fe_cubin *c, const char *file, const struct fe_options *opt, struct mx_program *prog,
                 struct mx_diag *diag);
/* PTX text or, when src is an ELF file, a cubin: the decoded program either
 * way (fe_parse_ptx's contract). */
int fe_parse_input(const char *src, size_t len, const char *name, const struct fe_options *opt, struct mx_program *prog,
                   struct mx_diag *diag);
/* The PTX text a cubin lowers to (malloc'd), for `morpheus dis --sass --lowered`
 * and tests; NULL with a message in err on error. */
char *fe_sass_lower_text(const struct fe_cubin *c, const char *file, char *err, size_t errlen);

#endif

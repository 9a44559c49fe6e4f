/* frontend/sass_decode.c — sm_80/sm_86 instruction words: which instruction a
 * 128-bit word is (opcode bits 0..8, operand form bits 9..11), its guard and
 * its control information, and a readable rendering of its operands for
 * `morpheus dis --sass`.  Whether every modifier bit is one we understand is
 * checked where the word is lowered (frontend/sass_lower.c); the field
 * positions are in docs/sass.md with how each was found. */
#include "frontend/sass.h"
#include "mx/status.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

static const struct { const char *name; uint16_t major; } ops[] = {
#define SOP(id, mn, major) { mn, major },
    FE_SASS_OPS(SOP)
#undef SOP
};

const char *fe_sass_name(unsigned op) { return op < FE_SASS__COUNT ? ops[op].name : "?"; }

int fe_sass_decode(const uint8_t w[16], uint32_t addr, const char *kernel, struct fe_sass_insn *s, char *err,
                   size_t errlen)
{
    uint64_t lo = 0, hi = 0;
    for (int i = 7; i >= 0; i--) {
        lo = lo << 8 | w[i];
        hi = hi << 8 | w[8 + i];
    }
    memset(s, 0, sizeof *s);
    s->addr = addr;
    s->lo = lo;
    s->hi = hi;
    s->op = FE_SASS__COUNT;
    unsigned major = (unsigned)(lo & 0x1ff);
    for (unsigned i = 0; i < FE_SASS__COUNT; i++)
        if (ops[i].major == major)
            s->op = (uint8_t)i;
    s->form = (uint8_t)((lo >> 9) & 7);
    s->guard = (uint8_t)((lo >> 12) & 7);
    s->guard_neg = (uint8_t)((lo >> 15) & 1);
    uint32_t ctl = (uint32_t)(hi >> 41);
    s->stall = ctl & 15;
    s->yield = (ctl >> 4) & 1;
    s->wbar = (ctl >> 5) & 7;
    s->rbar = (ctl >> 8) & 7;
    s->wait = (ctl >> 11) & 63;
    s->reuse = (ctl >> 17) & 15;
    if (s->op == FE_SASS__COUNT) {
        if (err && errlen)
            snprintf(err, errlen, "kernel %s: SASS address 0x%04x: instruction word 0x%016" PRIx64 "%016" PRIx64
                     " (opcode 0x%03x) is outside the decoded subset", kernel, addr, hi, lo, major);
        return MX_EUNSUPPORTED;
    }
    return MX_OK;
}

/* ---- rendering ---- */

struct buf { char *p; size_t len, n; int uni; };

static void put(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (b->n < b->len) {
        int k = vsnprintf(b->p + b->n, b->len - b->n, fmt, ap);
        if (k > 0)
            b->n += (size_t)k < b->len - b->n ? (size_t)k : b->len - b->n - 1;
    }
    va_end(ap);
}

/* LDC / ULDC size 73..75 */
static const char *const csize[8] = { ".U8", ".S8", ".U16", ".S16", "", ".64", ".?6", ".?7" };
static void ureg(struct buf *b, unsigned r) { r == 63 ? put(b, "URZ") : put(b, "UR%u", r); }
static void reg(struct buf *b, unsigned r) { b->uni ? ureg(b, r) : r == 255 ? put(b, "RZ") : put(b, "R%u", r); }
static void pred(struct buf *b, unsigned p, unsigned neg)
{
    put(b, "%s%s%s", neg ? "!" : "", b->uni ? "U" : "", p == 7 ? "PT" : "");
    if (p != 7)
        put(b, "P%u", p);
}
/* Memory order of LD / ST / LDG / STG / ATOM / ATOMG, bits 77..80: 5
 * STRONG.CTA, 7 STRONG.GPU, 10 STRONG.SYS (docs/sass.md); LDG's cache hints
 * share the bits, so this is a reading aid only */
static const char *order(const struct fe_sass_insn *s)
{
    unsigned o = fe_sass_bits(s, 77, 4);
    return o == 5 ? ".STRONG.CTA" : o == 7 ? ".STRONG.GPU" : o == 10 ? ".STRONG.SYS" : "";
}
static void cbank(struct buf *b, const struct fe_sass_insn *s) { put(b, "c[0x%x][0x%x]", fe_sass_bits(s, 54, 5), fe_sass_bits(s, 38, 16)); }

/* The second source by form: 1 R[32], 2/4 imm32, 3/5 c[][], 6 UR[32]. */
static void srcb(struct buf *b, const struct fe_sass_insn *s)
{
    switch (s->form) {
    case 1: if (fe_sass_bits(s, 63, 1)) put(b, "-"); reg(b, fe_sass_bits(s, 32, 8)); break;
    case 2: case 4: put(b, "0x%x", fe_sass_bits(s, 32, 32)); break;
    case 3: case 5: if (fe_sass_bits(s, 63, 1)) put(b, "-"); cbank(b, s); break;
    case 6: case 7: if (fe_sass_bits(s, 63, 1)) put(b, "-"); ureg(b, fe_sass_bits(s, 32, 6)); break;
    default: put(b, "?form%u", s->form);
    }
}

/* A half-precision pair's swizzle: 0 both halves as they are, 1 the .F32 form's, 2 H0_H0, 3 H1_H1. */
static const char *const hsw[] = { "", ".F32?", ".H0_H0", ".H1_H1" };

/* A half-precision instruction's constant pair: negation 63, c[bank][offset], swizzle 60..61. */
static void hconst(struct buf *b, const struct fe_sass_insn *s)
{
    put(b, "%s", fe_sass_bits(s, 63, 1) ? "-" : "");
    cbank(b, s);
    put(b, "%s", hsw[fe_sass_bits(s, 60, 2)]);
}

void fe_sass_format(const struct fe_sass_insn *s, char *out, size_t len)
{
    struct buf b = { out, len, 0, 0 };
    if (len)
        out[0] = 0;
    if (s->guard != 7 || s->guard_neg) {
        put(&b, "@");
        fe_sass_vector_op(s->op, &b.uni); /* a uniform instruction's guard is a UP */
        pred(&b, s->guard, s->guard_neg);
        b.uni = 0;
        put(&b, " ");
    }
    put(&b, "%s", fe_sass_name(s->op));
    unsigned d = fe_sass_bits(s, 16, 8), a = fe_sass_bits(s, 24, 8), c = fe_sass_bits(s, 64, 8);
    unsigned op = fe_sass_vector_op(s->op, &b.uni);
    switch (op) {
    case FE_SASS_MOV: put(&b, " "); reg(&b, d); put(&b, ", "); srcb(&b, s); break;
    case FE_SASS_S2R: put(&b, " "); reg(&b, d); put(&b, ", SR_0x%02x", fe_sass_bits(s, 72, 8)); break;
    case FE_SASS_CS2R: {
        unsigned sr = fe_sass_bits(s, 72, 8);
        put(&b, "%s ", fe_sass_bits(s, 80, 1) ? ".64" : ".32");
        reg(&b, d);
        if (sr == 0xff || (sr >= 0x50 && sr <= 0x53))
            put(&b, ", %s", sr == 0xff ? "SRZ" : sr == 0x50 ? "SR_CLOCKLO" : sr == 0x51 ? "SR_CLOCKHI" :
                sr == 0x52 ? "SR_GLOBALTIMERLO" : "SR_GLOBALTIMERHI");
        else
            put(&b, ", SR_0x%02x", sr);
        break;
    }
    case FE_SASS_IMAD: case FE_SASS_IMAD_WIDE: case FE_SASS_IMAD_HI: case FE_SASS_IADD3: case FE_SASS_LOP3:
    case FE_SASS_SHF: case FE_SASS_LEA: case FE_SASS_FFMA: {
        if (op == FE_SASS_IMAD_WIDE && !fe_sass_bits(s, 73, 1))
            put(&b, ".U32");
        if (op == FE_SASS_IMAD && fe_sass_bits(s, 75, 1))
            put(&b, ".NEGC");
        if (fe_sass_bits(s, 74, 1) && op != FE_SASS_SHF && op != FE_SASS_FFMA && op != FE_SASS_LOP3)
            put(&b, ".X");
        if (op == FE_SASS_LEA && fe_sass_bits(s, 80, 1))
            put(&b, ".HI");
        if (op == FE_SASS_LEA && fe_sass_bits(s, 73, 1))
            put(&b, ".SX32");
        if (op == FE_SASS_SHF) {
            static const char *const ty[] = { ".S64", ".U64", ".S32", ".U32" };
            put(&b, "%s%s%s%s", fe_sass_bits(s, 76, 1) ? ".R" : ".L", fe_sass_bits(s, 75, 1) ? ".W" : "",
                ty[fe_sass_bits(s, 73, 2)], fe_sass_bits(s, 80, 1) ? ".HI" : "");
        }
        put(&b, " ");
        reg(&b, d);
        if (op == FE_SASS_IADD3 || op == FE_SASS_LEA || op == FE_SASS_LOP3) {
            unsigned pu = fe_sass_bits(s, 81, 3), pv = fe_sass_bits(s, 84, 3);
            if (pu != 7) { put(&b, ", "); pred(&b, pu, 0); }
            if (op == FE_SASS_IADD3 && pv != 7) { put(&b, ", "); pred(&b, pv, 0); }
        }
        put(&b, ", ");
        if ((op == FE_SASS_IADD3 || op == FE_SASS_FFMA || op == FE_SASS_LEA) && fe_sass_bits(s, 72, 1))
            put(&b, "-");
        reg(&b, a);
        put(&b, ", ");
        /* forms 2 and 3 keep the register operand in bits 64..71 and the
           immediate / constant third */
        if (s->form == 2 || s->form == 3 || s->form == 7) {
            if (op == FE_SASS_FFMA && fe_sass_bits(s, 75, 1))
                put(&b, "-");
            reg(&b, c);
            put(&b, ", ");
            srcb(&b, s);
        } else {
            srcb(&b, s);
            if (op != FE_SASS_LEA || fe_sass_bits(s, 80, 1)) {
                put(&b, ", ");
                if ((op == FE_SASS_IADD3 || op == FE_SASS_FFMA || op == FE_SASS_IMAD_WIDE) && fe_sass_bits(s, 75, 1))
                    put(&b, "-");
                reg(&b, c);
            }
        }
        if (op == FE_SASS_LOP3)
            put(&b, ", 0x%x", fe_sass_bits(s, 72, 8));
        if (op == FE_SASS_LEA)
            put(&b, ", 0x%x", fe_sass_bits(s, 75, 5));
        if (fe_sass_bits(s, 74, 1) && (op == FE_SASS_IADD3 || op == FE_SASS_LEA || op == FE_SASS_IMAD)) {
            put(&b, ", ");
            pred(&b, fe_sass_bits(s, 87, 3), fe_sass_bits(s, 90, 1));
            if (op == FE_SASS_IADD3 && (fe_sass_bits(s, 77, 3) != 7 || !fe_sass_bits(s, 80, 1))) {
                put(&b, ", ");
                pred(&b, fe_sass_bits(s, 77, 3), fe_sass_bits(s, 80, 1));
            }
        }
        break;
    }
    case FE_SASS_ISETP: case FE_SASS_FSETP: case FE_SASS_DSETP: {
        static const char *const cmp[] = { ".F", ".LT", ".EQ", ".LE", ".GT", ".NE", ".GE", ".NUM", ".NAN", ".LTU",
                                           ".EQU", ".LEU", ".GTU", ".NEU", ".GEU", ".T" };
        static const char *const bop[] = { ".AND", ".OR", ".XOR", ".?" };
        unsigned cc = op == FE_SASS_ISETP ? fe_sass_bits(s, 76, 3) : fe_sass_bits(s, 76, 4);
        put(&b, "%s%s%s%s ", cmp[cc], op == FE_SASS_ISETP && !fe_sass_bits(s, 73, 1) ? ".U32" : "",
            op == FE_SASS_ISETP && fe_sass_bits(s, 72, 1) ? ".EX" : "",
            bop[fe_sass_bits(s, 74, 2)]);
        pred(&b, fe_sass_bits(s, 81, 3), 0);
        put(&b, ", ");
        pred(&b, fe_sass_bits(s, 84, 3), 0);
        put(&b, ", ");
        reg(&b, a);
        put(&b, ", ");
        srcb(&b, s);
        put(&b, ", ");
        pred(&b, fe_sass_bits(s, 87, 3), fe_sass_bits(s, 90, 1));
        break;
    }
    case FE_SASS_SEL: case FE_SASS_IMNMX: case FE_SASS_FMNMX: case FE_SASS_FADD: case FE_SASS_FMUL:
        put(&b, " ");
        reg(&b, d);
        put(&b, ", ");
        if ((op == FE_SASS_FADD || op == FE_SASS_FMNMX) && fe_sass_bits(s, 72, 1))
            put(&b, "-");
        if (op == FE_SASS_FMNMX && fe_sass_bits(s, 73, 1)) {
            put(&b, "|");
            reg(&b, a);
            put(&b, "|, ");
        } else {
            reg(&b, a);
            put(&b, ", ");
        }
        if (op == FE_SASS_FMNMX && (s->form == 1 || s->form == 5) && fe_sass_bits(s, 62, 1))
            put(&b, "|");
        srcb(&b, s);
        if (op == FE_SASS_FMNMX && (s->form == 1 || s->form == 5) && fe_sass_bits(s, 62, 1))
            put(&b, "|");
        if (op == FE_SASS_SEL || op == FE_SASS_IMNMX || op == FE_SASS_FMNMX) {
            put(&b, ", ");
            pred(&b, fe_sass_bits(s, 87, 3), fe_sass_bits(s, 90, 1));
        }
        break;
    case FE_SASS_IABS: put(&b, " "); reg(&b, d); put(&b, ", "); srcb(&b, s); break;
    case FE_SASS_PRMT: {
        static const char *const mode[] = { "", ".F4E", ".B4E", ".RC8", ".ECL", ".ECR", ".RC16", ".?" };
        put(&b, "%s ", mode[fe_sass_bits(s, 72, 3)]);
        reg(&b, d);
        put(&b, ", ");
        reg(&b, a);
        put(&b, ", ");
        if (s->form == 2 || s->form == 3 || s->form == 7) {
            reg(&b, c);
            put(&b, ", ");
            srcb(&b, s);
        } else {
            srcb(&b, s);
            put(&b, ", ");
            reg(&b, c);
        }
        break;
    }
    case FE_SASS_P2R: /* Rd, PR, Ra, mask (32..63) */
        put(&b, " ");
        reg(&b, d);
        put(&b, ", PR, ");
        reg(&b, a);
        put(&b, ", ");
        srcb(&b, s);
        break;
    case FE_SASS_BMSK:
        put(&b, "%s ", fe_sass_bits(s, 75, 1) ? ".W" : "");
        reg(&b, d);
        put(&b, ", ");
        reg(&b, a);
        put(&b, ", ");
        srcb(&b, s);
        break;
    case FE_SASS_NANOSLEEP: put(&b, " "); srcb(&b, s); break;
    case FE_SASS_R2P: /* PR, Ra.B0..B3 (76..77), mask (32..63) */
        put(&b, " PR, ");
        reg(&b, a);
        if (fe_sass_bits(s, 76, 2))
            put(&b, ".B%u", fe_sass_bits(s, 76, 2));
        put(&b, ", ");
        srcb(&b, s);
        break;
    case FE_SASS_PLOP3:
        put(&b, " ");
        pred(&b, fe_sass_bits(s, 81, 3), 0);
        put(&b, ", ");
        pred(&b, fe_sass_bits(s, 84, 3), 0);
        put(&b, ", ");
        pred(&b, fe_sass_bits(s, 87, 3), fe_sass_bits(s, 90, 1));
        put(&b, ", ");
        pred(&b, fe_sass_bits(s, 77, 3), fe_sass_bits(s, 80, 1));
        put(&b, ", ");
        int uni = b.uni;
        b.uni |= (int)fe_sass_bits(s, 67, 1);
        pred(&b, fe_sass_bits(s, 68, 3), fe_sass_bits(s, 71, 1));
        b.uni = uni;
        put(&b, ", 0x%02x", fe_sass_bits(s, 64, 3) | fe_sass_bits(s, 72, 5) << 3);
        break;
    case FE_SASS_USHF: {
        static const char *const ty[] = { ".S64", ".U64", ".S32", ".U32" };
        put(&b, "%s%s%s ", fe_sass_bits(s, 76, 1) ? ".R" : ".L", ty[fe_sass_bits(s, 73, 2)],
            fe_sass_bits(s, 80, 1) ? ".HI" : "");
        ureg(&b, d & 63);
        put(&b, ", ");
        ureg(&b, a & 63);
        put(&b, ", ");
        srcb(&b, s);
        put(&b, ", ");
        ureg(&b, c & 63);
        break;
    }
    case FE_SASS_ULDC:
        put(&b, "%s ", csize[fe_sass_bits(s, 73, 3)]);
        ureg(&b, d & 63);
        put(&b, ", ");
        cbank(&b, s);
        break;
    case FE_SASS_LDC: case FE_SASS_ULDC_IDX:
        b.uni = op == FE_SASS_ULDC_IDX;
        put(&b, "%s ", csize[fe_sass_bits(s, 73, 3)]);
        reg(&b, d);
        put(&b, ", c[0x%x][", fe_sass_bits(s, 54, 5));
        reg(&b, a);
        put(&b, "+0x%x]", fe_sass_bits(s, 38, 16));
        break;
    case FE_SASS_LDG: case FE_SASS_STG: case FE_SASS_LDS: case FE_SASS_STS: case FE_SASS_LDL: case FE_SASS_STL:
    case FE_SASS_LD: case FE_SASS_ST: {
        static const char *const sz[] = { ".U8", ".S8", ".U16", ".S16", "", ".64", ".128", ".?" };
        static const char *const sc[] = { "", ".X4", ".X8", ".X16" };
        int global = op == FE_SASS_LDG || op == FE_SASS_STG || op == FE_SASS_LD || op == FE_SASS_ST;
        int load = op == FE_SASS_LDG || op == FE_SASS_LDS || op == FE_SASS_LDL || op == FE_SASS_LD;
        int32_t off = (int32_t)(fe_sass_bits(s, 40, 24) << 8) >> 8;
        put(&b, "%s%s%s%s ", global && fe_sass_bits(s, 72, 1) ? ".E" : "", op == FE_SASS_LDL && fe_sass_bits(s, 85, 1) ? ".LU" : "",
            sz[fe_sass_bits(s, 73, 3)], global ? order(s) : "");
        if (load) { reg(&b, d); put(&b, ", "); }
        put(&b, "[");
        reg(&b, a);
        put(&b, "%s", global && fe_sass_bits(s, 72, 1) ? ".64" : global ? "" : sc[fe_sass_bits(s, 78, 2)]);
        if (off)
            put(&b, "%s0x%x", off < 0 ? "-" : "+", off < 0 ? (unsigned)-(int64_t)off : (unsigned)off);
        put(&b, "]");
        if (!load) { put(&b, ", "); reg(&b, fe_sass_bits(s, 32, 8)); }
        break;
    }
    case FE_SASS_LDGSTS: { /* [Rd + 44..63], [Ra.64 + 32..43], 87..90 the source predicate */
        static const char *const sz[] = { ".U8", ".S8", ".U16", ".S16", "", ".64", ".128", ".?" };
        int32_t soff = (int32_t)(fe_sass_bits(s, 44, 20) << 12) >> 12, goff = (int32_t)(fe_sass_bits(s, 32, 12) << 20) >> 20;
        put(&b, ".E%s%s%s%s [", fe_sass_bits(s, 81, 1) ? "" : ".BYPASS", fe_sass_bits(s, 72, 1) ? ".LTC128B" : "",
            sz[fe_sass_bits(s, 73, 3)], fe_sass_bits(s, 82, 1) ? ".ZFILL" : "");
        reg(&b, d);
        if (soff)
            put(&b, "%s0x%x", soff < 0 ? "-" : "+", soff < 0 ? (unsigned)-soff : (unsigned)soff);
        put(&b, "], [");
        reg(&b, a);
        put(&b, ".64");
        if (goff)
            put(&b, "%s0x%x", goff < 0 ? "-" : "+", goff < 0 ? (unsigned)-goff : (unsigned)goff);
        put(&b, "]");
        if (fe_sass_bits(s, 87, 3) != 7 || fe_sass_bits(s, 90, 1)) {
            put(&b, ", ");
            pred(&b, fe_sass_bits(s, 87, 3), fe_sass_bits(s, 90, 1));
        }
        break;
    }
    case FE_SASS_MOVM: put(&b, " "); reg(&b, d); put(&b, ", "); reg(&b, a); break;
    case FE_SASS_LDSM: { /* .M88.{1,2,4} (72..73), .MT88 (78), [Ra + UR (91) + 40..63] */
        int32_t off = (int32_t)(fe_sass_bits(s, 40, 24) << 8) >> 8;
        put(&b, ".%s.%u ", fe_sass_bits(s, 78, 1) ? "MT88" : "M88", 1u << fe_sass_bits(s, 72, 2));
        reg(&b, d);
        put(&b, ", [");
        reg(&b, a);
        if (fe_sass_bits(s, 91, 1)) {
            put(&b, "+");
            ureg(&b, fe_sass_bits(s, 32, 6));
        }
        if (off)
            put(&b, "%s0x%x", off < 0 ? "-" : "+", off < 0 ? (unsigned)-off : (unsigned)off);
        put(&b, "]");
        break;
    }
    case FE_SASS_TEX: case FE_SASS_TEX_B: case FE_SASS_TLD: case FE_SASS_TLD_B: {
        /* LOD 87..88, geometry 61..63, Pu 81..83, Rd (16..23) and Rd2 (64..71)
           for the components of the mask 72..75, Ra and Rb (32..39) the two
           source groups, the handle c[54..58][40..53 * 4] or first after the
           coordinates in Rb (.B) */
        static const char *const geo[8] = { "1D", "2D", "3D", "CUBE", "ARRAY_1D", "ARRAY_2D", "?6", "ARRAY_CUBE" };
        static const char *const lod[4] = { "", ".LZ", ".?2", ".LL" };
        put(&b, "%s.%s ", lod[fe_sass_bits(s, 87, 2)], geo[fe_sass_bits(s, 61, 3)]);
        if (fe_sass_bits(s, 81, 3) != 7) {
            pred(&b, fe_sass_bits(s, 81, 3), 0);
            put(&b, ", ");
        }
        reg(&b, d);
        put(&b, ", ");
        reg(&b, c);
        put(&b, ", ");
        reg(&b, a);
        put(&b, ", ");
        reg(&b, fe_sass_bits(s, 32, 8));
        if (op == FE_SASS_TEX || op == FE_SASS_TLD)
            put(&b, ", c[0x%x][0x%x]", fe_sass_bits(s, 54, 5), fe_sass_bits(s, 40, 14) * 4);
        put(&b, ", 0x%x", fe_sass_bits(s, 72, 4));
        break;
    }
    case FE_SASS_SULD: case FE_SASS_SULD_B: case FE_SASS_SUST: case FE_SASS_SUST_B: {
        /* mode 59..60, geometry 61..63, size 73..75; SULD Rd, SUST data Rb
           (32..39); the handle c[54..58][40..53 * 4], or a register in 64..71
           (.B) */
        static const char *const geo[8] = { "1D", "1D_BUFFER", "ARRAY_1D", "2D", "ARRAY_2D", "3D", "?6", "?7" };
        static const char *const mode[4] = { ".ZERO", ".CLAMP", ".TRAP", ".?3" };
        static const char *const sz[8] = { ".U8", ".S8", ".U16", ".S16", ".32", ".64", ".128", ".?7" };
        int st = op == FE_SASS_SUST || op == FE_SASS_SUST_B;
        put(&b, "%s.%s%s ", mode[fe_sass_bits(s, 59, 2)], geo[fe_sass_bits(s, 61, 3)], sz[fe_sass_bits(s, 73, 3)]);
        if (!st) {
            reg(&b, d);
            put(&b, ", ");
        }
        put(&b, "[");
        reg(&b, a);
        put(&b, "]");
        if (st) {
            put(&b, ", ");
            reg(&b, fe_sass_bits(s, 32, 8));
        }
        put(&b, ", ");
        if (op == FE_SASS_SULD || op == FE_SASS_SUST)
            put(&b, "c[0x%x][0x%x]", fe_sass_bits(s, 54, 5), fe_sass_bits(s, 40, 14) * 4);
        else
            reg(&b, c);
        break;
    }
    case FE_SASS_DEPBAR:
        put(&b, " SB%u, 0x%x", fe_sass_bits(s, 44, 3), fe_sass_bits(s, 38, 6));
        if (fe_sass_bits(s, 32, 6))
            put(&b, ", {0x%x}", fe_sass_bits(s, 32, 6)); /* not pinned: refused by the lowering */
        break;
    case FE_SASS_BRA: case FE_SASS_BSSY: {
        int64_t off = (int64_t)(((s->hi & 0x3ffff) << 32 | s->lo >> 32) << 14) >> 14;
        int64_t t = (int64_t)s->addr + 16 + off;
        if (op == FE_SASS_BSSY)
            put(&b, " B%u,", fe_sass_bits(s, 16, 4));
        if (op == FE_SASS_BRA && !fe_sass_bits(s, 91, 1) && fe_sass_bits(s, 32, 2) == 1) {
            put(&b, ".U");       /* 32..33: modifier group 1 (U, DIV, CONV) */
            t -= 1;
        } else if (op == FE_SASS_BRA && fe_sass_bits(s, 91, 1)) {
            /* 32..33 DIV (2) / CONV (3), the mask UR in 24..29, 30 its
               complement (~URZ: every lane) */
            static const char *const md[4] = { ".?0", ".?1", ".DIV", ".CONV" };
            unsigned u = fe_sass_bits(s, 24, 8);
            put(&b, "%s %s", md[fe_sass_bits(s, 32, 2)], u & 0x40 ? "~" : "");
            ureg(&b, u & 63);
            put(&b, ",");
            t -= fe_sass_bits(s, 32, 2);
        }
        if (op == FE_SASS_BRA && (fe_sass_bits(s, 87, 3) != 7 || fe_sass_bits(s, 90, 1))) {
            put(&b, " ");
            pred(&b, fe_sass_bits(s, 87, 3), fe_sass_bits(s, 90, 1));
            put(&b, ",");
        }
        put(&b, " 0x%" PRIx64, (uint64_t)t);
        break;
    }
    case FE_SASS_BSYNC: case FE_SASS_BREAK: put(&b, " B%u", fe_sass_bits(s, 16, 4)); break;
    case FE_SASS_WARPSYNC: put(&b, " "); srcb(&b, s); break;
    case FE_SASS_F2I64: case FE_SASS_I2F64: {
        static const char *const sz[] = { "8", "16", "32", "64" };
        int i2f = op == FE_SASS_I2F64;
        unsigned ds = fe_sass_bits(s, 75, 2), ss = fe_sass_bits(s, 84, 2), sg = fe_sass_bits(s, i2f ? 74 : 72, 1);
        put(&b, ".%s%s.%s%s ", i2f ? "F" : sg ? "S" : "U", sz[ds], i2f ? (sg ? "S" : "U") : "F", sz[ss]);
        reg(&b, d);
        put(&b, ", ");
        srcb(&b, s);
        break;
    }
    case FE_SASS_HFMA2_MMA:
        if (s->form == 2) { /* the constant idiom: -RZ * RZ + imm */
            put(&b, " ");
            reg(&b, d);
            put(&b, ", -RZ, RZ, 0x%08x", fe_sass_bits(s, 32, 32));
            break;
        }
        op = FE_SASS_HFMA2; /* otherwise HFMA2's fields */
        /* fall through */
    case FE_SASS_HADD2: case FE_SASS_HMUL2: case FE_SASS_HFMA2: case FE_SASS_F2FP: {
        if (op != FE_SASS_F2FP)
            put(&b, "%s%s", fe_sass_bits(s, 78, 1) ? ".F32" : "", fe_sass_bits(s, 80, 1) ? ".FTZ" : "");
        if (op == FE_SASS_HFMA2 && fe_sass_bits(s, 85, 1))
            put(&b, ".BF16_V2");
        put(&b, " ");
        reg(&b, d);
        put(&b, ", %s", op != FE_SASS_F2FP && fe_sass_bits(s, 72, 1) ? "-" : "");
        reg(&b, a);
        if (op != FE_SASS_F2FP)
            put(&b, "%s", hsw[fe_sass_bits(s, 74, 2)]);
        /* the constant pair: HADD2 form 3, HMUL2 and HFMA2 form 5 (B), HFMA2 form 3 (C, B then in 64..71) */
        int kb = (s->form == 5 && op != FE_SASS_HADD2) || (s->form == 3 && op == FE_SASS_HADD2);
        int kc = s->form == 3 && op == FE_SASS_HFMA2;
        if (op == FE_SASS_HFMA2 && s->form == 4) /* the pair as an immediate */
            put(&b, ", 0x%08x", fe_sass_bits(s, 32, 32));
        else if (kc) {
            put(&b, ", ");
            reg(&b, c);
        } else if (kb && op != FE_SASS_F2FP) {
            put(&b, ", ");
            hconst(&b, s);
        } else {
            put(&b, ", %s", fe_sass_bits(s, 63, 1) ? "-" : "");
            reg(&b, fe_sass_bits(s, 32, 8));
            if (op != FE_SASS_F2FP)
                put(&b, "%s", hsw[fe_sass_bits(s, 60, 2)]);
        }
        if (op == FE_SASS_HFMA2 && kc) {
            put(&b, ", ");
            hconst(&b, s);
        } else if (op == FE_SASS_HFMA2) { /* C: swizzle 81..82, negation 84 */
            put(&b, ", %s", fe_sass_bits(s, 84, 1) ? "-" : "");
            reg(&b, c);
            put(&b, "%s", hsw[fe_sass_bits(s, 81, 2)]);
        }
        break;
    }
    case FE_SASS_FLO: case FE_SASS_POPC: case FE_SASS_BREV:
        put(&b, "%s ", op == FE_SASS_FLO ? (fe_sass_bits(s, 73, 1) ? "" : ".U32") : "");
        reg(&b, d);
        put(&b, ", ");
        srcb(&b, s);
        break;
    case FE_SASS_ATOMG: case FE_SASS_ATOMG_CAS: case FE_SASS_ATOMS_CAS: case FE_SASS_ATOM: case FE_SASS_ATOM_CAS: {
        static const char *const aop[16] = { ".ADD", ".MIN", ".MAX", ".INC", ".DEC", ".AND", ".OR", ".XOR", ".EXCH", ".?9",
                                             ".?10", ".?11", ".?12", ".?13", ".?14", ".?15" };
        static const char *const ty[4] = { "", ".S32", ".?", ".F32" };
        int32_t off = (int32_t)(fe_sass_bits(s, 40, 24) << 8) >> 8;
        if (op == FE_SASS_ATOMG || op == FE_SASS_ATOM)
            put(&b, ".E%s%s%s ", aop[fe_sass_bits(s, 87, 4)], ty[fe_sass_bits(s, 73, 2)], order(s));
        else
            put(&b, "%s%s ", op == FE_SASS_ATOMS_CAS ? "" : ".E", op == FE_SASS_ATOMS_CAS ? "" : order(s));
        reg(&b, d);
        put(&b, ", [");
        reg(&b, a);
        put(&b, "%s", op == FE_SASS_ATOMS_CAS ? "" : ".64");
        if (off)
            put(&b, "%s0x%x", off < 0 ? "-" : "+", off < 0 ? (unsigned)-(int64_t)off : (unsigned)off);
        put(&b, "], ");
        reg(&b, fe_sass_bits(s, 32, 8));
        if (op != FE_SASS_ATOMG && op != FE_SASS_ATOM) {
            put(&b, ", ");
            reg(&b, c);
        }
        break;
    }
    case FE_SASS_DADD: case FE_SASS_DMUL: case FE_SASS_DFMA: case FE_SASS_F2F: {
        static const char *const rnd[] = { "", ".RM", ".RP", ".RZ" };
        put(&b, "%s ", rnd[fe_sass_bits(s, 78, 2)]);
        reg(&b, d);
        put(&b, ", ");
        if (fe_sass_bits(s, 72, 1) && op != FE_SASS_F2F)
            put(&b, "-");
        if (op != FE_SASS_F2F) {
            reg(&b, a);
            put(&b, ", ");
        }
        if (op == FE_SASS_DADD && s->form == 1) {
            if (fe_sass_bits(s, 75, 1))
                put(&b, "-");
            reg(&b, c);
        } else if (s->form == 2 || (op == FE_SASS_DADD && s->form == 3)) {
            if (op == FE_SASS_DFMA) {
                if (fe_sass_bits(s, 75, 1))
                    put(&b, "-");
                reg(&b, c);
                put(&b, ", ");
            }
            srcb(&b, s);
        } else {
            srcb(&b, s);
            if (op == FE_SASS_DFMA) {
                put(&b, ", ");
                if (fe_sass_bits(s, 75, 1))
                    put(&b, "-");
                reg(&b, c);
            }
        }
        break;
    }
    case FE_SASS_SHFL: {
        static const char *const md[] = { ".IDX", ".UP", ".DOWN", ".BFLY" };
        put(&b, "%s ", md[fe_sass_bits(s, 58, 2)]);
        pred(&b, fe_sass_bits(s, 81, 3), 0);
        put(&b, ", ");
        reg(&b, d);
        put(&b, ", ");
        reg(&b, a);
        put(&b, ", ");
        if (s->form == 1 || s->form == 2)
            reg(&b, fe_sass_bits(s, 32, 8));
        else
            put(&b, "0x%x", fe_sass_bits(s, 53, 5));
        put(&b, ", ");
        if (s->form == 1 || s->form == 4)
            reg(&b, c);
        else
            put(&b, "0x%x", fe_sass_bits(s, 40, 13));
        break;
    }
    case FE_SASS_VOTE:
        put(&b, "%s ", fe_sass_bits(s, 72, 2) == 1 ? ".ANY" : fe_sass_bits(s, 72, 2) == 0 ? ".ALL" : ".?");
        reg(&b, d);
        put(&b, ", ");
        pred(&b, fe_sass_bits(s, 81, 3), 0);
        put(&b, ", ");
        pred(&b, fe_sass_bits(s, 87, 3), fe_sass_bits(s, 90, 1));
        break;
    case FE_SASS_R2UR:
        put(&b, " ");
        if (fe_sass_bits(s, 81, 3) != 7) {
            pred(&b, fe_sass_bits(s, 81, 3), 0);
            put(&b, ", ");
        }
        ureg(&b, fe_sass_bits(s, 16, 8));
        put(&b, ", ");
        reg(&b, a);
        break;
    case FE_SASS_REDUX: {
        static const char *const rop[8] = { ".AND", ".OR", ".XOR", ".SUM", ".MIN", ".MAX", ".?6", ".?7" };
        put(&b, "%s%s ", rop[fe_sass_bits(s, 78, 3)], fe_sass_bits(s, 73, 1) ? ".S32" : "");
        b.uni = 1;
        reg(&b, d);
        b.uni = 0;
        put(&b, ", ");
        reg(&b, a);
        break;
    }
    case FE_SASS_VOTEU:
        put(&b, "%s ", fe_sass_bits(s, 72, 2) == 1 ? ".ANY" : fe_sass_bits(s, 72, 2) == 0 ? ".ALL" : ".?");
        b.uni = 1;
        reg(&b, d);
        put(&b, ", ");
        pred(&b, fe_sass_bits(s, 81, 3), 0);
        b.uni = 0;
        put(&b, ", ");
        pred(&b, fe_sass_bits(s, 87, 3), fe_sass_bits(s, 90, 1));
        break;
    case FE_SASS_ATOMS: case FE_SASS_RED: {
        static const char *const aop[16] = { ".ADD", ".MIN", ".MAX", ".INC", ".DEC", ".AND", ".OR", ".XOR", ".EXCH", ".?9",
                                             ".POPC.INC", ".?11", ".?12", ".?13", ".?14", ".?15" };
        static const char *const sc[] = { "", ".X4", ".X8", ".X16" };
        int32_t off = (int32_t)(fe_sass_bits(s, 40, 24) << 8) >> 8;
        if (op == FE_SASS_ATOMS)
            put(&b, "%s%s ", aop[fe_sass_bits(s, 87, 4)], fe_sass_bits(s, 73, 1) ? ".S32" : "");
        else
            put(&b, ".E.ADD%s ", (const char *const[]){ "", ".?1", ".64", ".F32" }[fe_sass_bits(s, 73, 2)]);
        if (op == FE_SASS_ATOMS) {
            reg(&b, d);
            put(&b, ", ");
        }
        put(&b, "[");
        reg(&b, a);
        put(&b, "%s", op == FE_SASS_ATOMS ? sc[fe_sass_bits(s, 78, 2)] : ".64");
        if (op == FE_SASS_ATOMS && s->form == 7 && fe_sass_bits(s, 64, 8) != 0x3f) {
            put(&b, "+");
            ureg(&b, fe_sass_bits(s, 64, 8));
        }
        if (off)
            put(&b, "%s0x%x", off < 0 ? "-" : "+", off < 0 ? (unsigned)-(int64_t)off : (unsigned)off);
        put(&b, "]");
        if (s->form == 1 || op == FE_SASS_RED) {
            put(&b, ", ");
            reg(&b, fe_sass_bits(s, 32, 8));
        }
        break;
    }
    case FE_SASS_CALL: {
        int64_t off = (int64_t)(((s->hi & 0x3ffff) << 32 | s->lo >> 32) << 14) >> 14;
        if (s->form == 1) { /* through a register, relative to the .text start */
            put(&b, " ");
            reg(&b, a);
        }
        put(&b, " 0x%" PRIx64, (uint64_t)((int64_t)s->addr + 16 + off));
        break;
    }
    case FE_SASS_CALL_ABS: put(&b, " "); reg(&b, a); break;
    case FE_SASS_BMOV_R: put(&b, " "); reg(&b, d); put(&b, ", B%u", a); break;
    case FE_SASS_BMOV_B: put(&b, " B%u, ", a); reg(&b, fe_sass_bits(s, 32, 8)); break;
    case FE_SASS_BRX: {
        int64_t off = (int64_t)(((s->hi & 0x3ffff) << 32 | s->lo >> 32) << 14) >> 14;
        put(&b, " ");
        reg(&b, a);
        put(&b, " 0x%" PRIx64, (uint64_t)((int64_t)s->addr + 16 + off));
        break;
    }
    case FE_SASS_LEPC: put(&b, " "); reg(&b, d); break;
    case FE_SASS_RET: {
        int64_t off = (int64_t)(((s->hi & 0x3ffff) << 32 | s->lo >> 32) << 14) >> 14;
        put(&b, " ");
        reg(&b, a);
        put(&b, " 0x%" PRIx64, (uint64_t)((int64_t)s->addr + 16 + off));
        break;
    }
    case FE_SASS_MUFU: {
        static const char *const fn[] = { ".COS", ".SIN", ".EX2", ".LG2", ".RCP", ".RSQ", ".RCP64H", ".RSQ64H", ".SQRT",
                                          ".TANH", ".?", ".?", ".?", ".?", ".?", ".?" };
        put(&b, "%s ", fn[fe_sass_bits(s, 74, 4)]);
        reg(&b, d);
        put(&b, ", ");
        srcb(&b, s);
        break;
    }
    case FE_SASS_FCHK:
        put(&b, " ");
        pred(&b, fe_sass_bits(s, 81, 3), 0);
        put(&b, ", ");
        reg(&b, a);
        put(&b, ", ");
        srcb(&b, s);
        break;
    case FE_SASS_FRND: {
        static const char *const rnd[] = { "", ".FLOOR", ".CEIL", ".TRUNC" };
        put(&b, "%s%s ", rnd[fe_sass_bits(s, 78, 2)], fe_sass_bits(s, 80, 1) ? ".FTZ" : "");
        reg(&b, d);
        put(&b, ", ");
        srcb(&b, s);
        break;
    }
    case FE_SASS_I2F: case FE_SASS_F2I: {
        static const char *const rnd[] = { "", ".RM", ".RP", ".RZ" };
        int sgn = (int)fe_sass_bits(s, op == FE_SASS_I2F ? 74 : 72, 1);
        if (op == FE_SASS_I2F)
            put(&b, "%s%s ", sgn ? "" : ".U32", rnd[fe_sass_bits(s, 78, 2)]);
        else
            put(&b, "%s%s ", sgn ? "" : ".U32", fe_sass_bits(s, 78, 2) == 3 ? ".TRUNC" : fe_sass_bits(s, 78, 2) == 1 ? ".FLOOR" :
                fe_sass_bits(s, 78, 2) == 2 ? ".CEIL" : "");
        reg(&b, d);
        put(&b, ", ");
        srcb(&b, s);
        break;
    }
    case FE_SASS_BAR: { /* .UNALIGNED (bit 80 clear): our name, after PTX barrier.sync without .aligned */
        static const char *const mode[] = { ".SYNC", ".ARV", ".RED", ".?" }, *const rop[] = { ".POPC", ".AND", ".OR", ".?" };
        put(&b, "%s%s%s 0x%x", mode[fe_sass_bits(s, 77, 2)], fe_sass_bits(s, 77, 2) == 2 ? rop[fe_sass_bits(s, 74, 2)] : "",
            fe_sass_bits(s, 80, 1) ? "" : ".UNALIGNED", fe_sass_bits(s, 54, 4));
        if (fe_sass_bits(s, 42, 12))
            put(&b, ", 0x%x", fe_sass_bits(s, 42, 12));
        if (fe_sass_bits(s, 77, 2) == 2) {
            put(&b, ", ");
            pred(&b, fe_sass_bits(s, 87, 3), fe_sass_bits(s, 90, 1));
        }
        break;
    }
    case FE_SASS_B2R:
        put(&b, " ");
        reg(&b, d);
        if (fe_sass_bits(s, 81, 3) != 7) {
            put(&b, ", ");
            pred(&b, fe_sass_bits(s, 81, 3), 0);
        }
        break;
    case FE_SASS_MEMBAR: {
        static const char *const sc[] = { ".CTA", ".?1", ".GPU", ".SYS" };
        put(&b, "%s%s", fe_sass_bits(s, 79, 1) ? ".ALL" : ".SC", sc[fe_sass_bits(s, 76, 2)]);
        break;
    }
    case FE_SASS_BPT: put(&b, " 0x%x", fe_sass_bits(s, 32, 32)); break;
    case FE_SASS_HMMA: case FE_SASS_IMMA: case FE_SASS_DMMA:
        /* HMMA: 75 K = 16, 78 K = 4, 76 .F32 accumulator, 82 .BF16, 83 .TF32; IMMA: 86 M = 16,
           75 K = 32, 76 / 78 A / B signed, 82 .SAT (docs/sass.md) */
        if (s->op == FE_SASS_HMMA)
            put(&b, ".168%u.%s%s", fe_sass_bits(s, 75, 1) ? 16 : fe_sass_bits(s, 78, 1) ? 4 : 8,
                fe_sass_bits(s, 76, 1) ? "F32" : "F16",
                fe_sass_bits(s, 82, 1) ? ".BF16" : fe_sass_bits(s, 83, 1) ? ".TF32" : "");
        else if (s->op == FE_SASS_IMMA)
            put(&b, ".%u8%u.%s.%s%s", fe_sass_bits(s, 86, 1) ? 16 : 8, fe_sass_bits(s, 75, 1) ? 32 : 16,
                fe_sass_bits(s, 76, 1) ? "S8" : "U8", fe_sass_bits(s, 78, 1) ? "S8" : "U8",
                fe_sass_bits(s, 82, 1) ? ".SAT" : "");
        put(&b, " ");
        reg(&b, d);
        put(&b, ", ");
        reg(&b, a);
        put(&b, ", ");
        reg(&b, fe_sass_bits(s, 32, 8));
        put(&b, ", ");
        reg(&b, c);
        break;
    case FE_SASS_IDP:
        put(&b, "%s%s%s ", fe_sass_bits(s, 76, 1) ? (fe_sass_bits(s, 77, 1) ? ".2A.HI" : ".2A.LO") : ".4A",
            fe_sass_bits(s, 73, 1) ? (fe_sass_bits(s, 76, 1) ? ".S16" : ".S8") : (fe_sass_bits(s, 76, 1) ? ".U16" : ".U8"),
            fe_sass_bits(s, 74, 1) ? ".S8" : ".U8");
        reg(&b, d);
        put(&b, ", ");
        reg(&b, a);
        put(&b, ", ");
        srcb(&b, s);
        put(&b, ", ");
        reg(&b, c);
        break;
    default: break;
    }
}

int fe_sass_disasm(const struct fe_cubin *c, const char *file, FILE *out, FILE *err)
{
    char text[256], msg[512];
    int rc = MX_OK;
    fprintf(out, "// %s: sm_%u cubin, %u kernel%s\n", file, c->arch, c->nkernels, c->nkernels == 1 ? "" : "s");
    for (uint32_t k = 0; k < c->nkernels; k++) {
        const struct fe_cubin_kernel *kn = &c->kernels[k];
        fprintf(out, "\n.kernel %s  // %u registers, %u parameter bytes at c[0x0][0x%x], %u shared bytes, %u local bytes\n",
                kn->name, kn->nregs, kn->param_size, kn->param_base, kn->shared_size, kn->frame_size);
        for (uint32_t i = 0; i < kn->nparams; i++)
            fprintf(out, "//   param %u: offset %u, %u bytes\n", i, kn->params[i].offset, kn->params[i].size);
        const struct fe_cubin_line *at = NULL;
        for (uint32_t a = 0; a < kn->text_size; a += 16) {
            struct fe_sass_insn s;
            const struct fe_cubin_line *src = fe_cubin_line_at(kn, a); /* -lineinfo: the source line, where it changes */
            if (src && (!at || src->file != at->file || src->line != at->line))
                fprintf(out, "        // %s:%u\n", c->files[src->file], src->line);
            at = src;
            int r = fe_sass_decode(kn->text + a, a, kn->name, &s, msg, sizeof msg);
            if (r) {
                fprintf(out, "  /*%04x*/  <not decoded>\n", a);
                if (err)
                    fprintf(err, "%s: %s\n", file, msg);
                if (!rc)
                    rc = r;
                continue;
            }
            fe_sass_format(&s, text, sizeof text);
            fprintf(out, "  /*%04x*/  %-48s // stall %2u%s wb %c rb %c wait 0x%02x%s\n", a, text, s.stall,
                    s.yield ? " Y" : "  ", s.wbar == 7 ? '-' : '0' + s.wbar, s.rbar == 7 ? '-' : '0' + s.rbar, s.wait,
                    s.reuse ? " reuse" : "");
        }
    }
    return rc;
}

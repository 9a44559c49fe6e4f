/* tests/emu/test_exec_int.c — the integer, bit, logic, shift, compare/select
 * and mov instructions (emu/exec_int.c), end to end: each case is a tiny PTX
 * kernel (built by run_ptx_case) that loads one input vector per loop
 * iteration, runs the instruction under test and stores its results; the
 * expected values come from ref_eval(), a reference model written from the
 * PTX ISA text independently of the handlers (bit loops and 128-bit
 * arithmetic where the handlers use closed forms).
 *
 * Input vectors per form: special values crossed (0, 1, -1, MIN, MAX, ...),
 * edge sets for shift counts and bit positions, a few thousand seeded random
 * vectors, and for 16-bit forms every value of a against 16 values of b
 * (8 key values, 8 random).
 *
 * PTX corner cases of /work/shared/facts/reliability-anchors.md §3 covered:
 *   #1  selp with a negated predicate (!p)          -> selp forms with 'n' sources
 *   #2  bfe pos/len 0/1/31/32/255/256, s32 negative  -> bfe forms (edge set 'e')
 *   #3  bfi, bfind (none -> ~0), fns, bmsk clamp/wrap, szext
 *   #21 64-bit carries across bit 63                 -> add/sub .u64, chains
 *   #22 mul.hi/.wide, mad.hi/.wide (u64 max * max)   -> mul/mad forms
 *   #23 carry chains add.cc/addc/sub.cc/subc/mad.cc/madc (128-bit add, sub,
 *       64x64->128 multiply with madc.hi.cc)         -> carry_* tests
 *   #24 shl/shr counts 31/32/33/2^32-1               -> shift forms (edge set 'n')
 *   #25 shf .l/.r .clamp/.wrap (n = 44 ...)          -> shf forms
 *   #26 prmt all 16 selector values, all six modes   -> prmt forms
 *   #27 abs/neg INT_MIN, add.sat.s32                 -> abs/neg/add.sat forms
 *   #28 div/rem by zero (no host SIGFPE)             -> div/rem forms (b = 0)
 *   #29 INT_MIN / -1                                 -> div/rem forms
 * (#17 setp unordered comparisons are floating point: exec_fp.c's tests.) */
#include "mxtest.h"

#include "emu/emu.h"
#include "emu/emu-internal.h"
#include "frontend/ptx.h"
#include "isa/isa.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/* ================================================================ reference */

static uint64_t mask_of(int w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }
static int64_t sx(uint64_t v, int w)
{
    v &= mask_of(w);
    if (w < 64 && (v >> (w - 1)) & 1)
        v |= ~mask_of(w);
    return (int64_t)v;
}
static uint64_t zx(uint64_t v, int w) { return v & mask_of(w); }
static uint64_t bit(uint64_t v, int i) { return (v >> i) & 1; }

/* The parsed opcode text: base mnemonic, modifiers, types in order. */
struct opname {
    char base[16];
    char mods[8][12];
    int nmods;
    char types[4][8];
    int ntypes;
};

static int type_width(const char *t)
{
    if (!strcmp(t, "pred"))
        return 1;
    return atoi(t + 1);
}
static int is_type(const char *t)
{
    return (t[0] == 'u' || t[0] == 's' || t[0] == 'b' || t[0] == 'f') && t[1] >= '1' && t[1] <= '9' &&
           strspn(t + 1, "0123456789") == strlen(t + 1);
}

static void parse_opname(const char *op, struct opname *o)
{
    memset(o, 0, sizeof *o);
    char buf[96];
    snprintf(buf, sizeof buf, "%s", op);
    char *save = NULL;
    char *tok = strtok_r(buf, ".", &save);
    snprintf(o->base, sizeof o->base, "%s", tok);
    while ((tok = strtok_r(NULL, ".", &save))) {
        if (is_type(tok) || !strcmp(tok, "pred"))
            snprintf(o->types[o->ntypes++], sizeof o->types[0], "%s", tok);
        else
            snprintf(o->mods[o->nmods++], sizeof o->mods[0], "%s", tok);
    }
}
static int has(const struct opname *o, const char *m)
{
    for (int i = 0; i < o->nmods; i++)
        if (!strcmp(o->mods[i], m))
            return 1;
    return 0;
}

/* Value of a register interpreted by type t (sign/zero extension). */
static i128 val(uint64_t v, const char *t)
{
    int w = type_width(t);
    return t[0] == 's' ? (i128)sx(v, w) : (i128)zx(v, w);
}

static uint64_t clamp_s32(i128 v)
{
    if (v > INT32_MAX)
        v = INT32_MAX;
    if (v < INT32_MIN)
        v = INT32_MIN;
    return zx((uint64_t)(int64_t)v, 32);
}

/* Comparison of a and b as integers of type t; lo/ls/hi/hs are unsigned. */
static int ref_cmp(const char *cmp, uint64_t a, uint64_t b, const char *t)
{
    int w = type_width(t);
    i128 x = val(a, t), y = val(b, t);
    if (t[0] == 'b') { /* bit-size: unsigned */
        x = (i128)zx(a, w);
        y = (i128)zx(b, w);
    }
    u128 ux = zx(a, w), uy = zx(b, w);
    if (!strcmp(cmp, "eq")) return ux == uy;
    if (!strcmp(cmp, "ne")) return ux != uy;
    if (!strcmp(cmp, "lt")) return x < y;
    if (!strcmp(cmp, "le")) return x <= y;
    if (!strcmp(cmp, "gt")) return x > y;
    if (!strcmp(cmp, "ge")) return x >= y;
    if (!strcmp(cmp, "lo")) return ux < uy;
    if (!strcmp(cmp, "ls")) return ux <= uy;
    if (!strcmp(cmp, "hi")) return ux > uy;
    if (!strcmp(cmp, "hs")) return ux >= uy;
    fail_msg("bad cmp %s", cmp);
    return 0;
}

static int ref_bool(const struct opname *o, int t, int c)
{
    if (has(o, "and")) return t & c;
    if (has(o, "or")) return t | c;
    if (has(o, "xor")) return t ^ c;
    return t;
}

/* prmt special modes, as printed in the PTX ISA table: for each selector
 * c[1:0], the source byte of d.b3 d.b2 d.b1 d.b0. */
static const char *const prmt_modes[6][5] = {
    { "f4e", "3210", "4321", "5432", "6543" }, { "b4e", "5670", "6701", "7012", "0123" },
    { "rc8", "0000", "1111", "2222", "3333" }, { "ecl", "3210", "3211", "3222", "3333" },
    { "ecr", "0000", "1110", "2210", "3210" }, { "rc16", "1010", "3232", "1010", "3232" },
};

/* Evaluates the instruction text op on sources s[] (effective values;
 * predicates 0/1, carry-in in cin) into d[] (+ carry-out *cout).  Returns 0,
 * or -1 if the form is not modelled. */
static int ref_eval_parsed(const struct opname *op, const uint64_t *s, int cin, uint64_t *d, int *cout)
{
    const struct opname o = *op;
    const char *t = o.types[0];
    int w = o.ntypes ? type_width(t) : 32;
    int sg = t[0] == 's';
    uint64_t M = mask_of(w);
    const char *b = o.base;
    *cout = 0;

    if (!strcmp(b, "add") || !strcmp(b, "addc") || !strcmp(b, "sub") || !strcmp(b, "subc")) {
        int sub = b[0] == 's', ci = (b[3] == 'c') ? cin : 0;
        if (has(&o, "sat")) {
            d[0] = clamp_s32(sub ? val(s[0], t) - val(s[1], t) : val(s[0], t) + val(s[1], t));
            return 0;
        }
        u128 x = zx(s[0], w), y = zx(s[1], w);
        if (!sub) {
            u128 r = x + y + (u128)ci;
            d[0] = (uint64_t)r & M;
            *cout = (int)((r >> w) & 1);
        } else {
            u128 sub_ = y + (u128)ci;
            d[0] = (uint64_t)(x - sub_) & M;
            *cout = x < sub_;
        }
        return 0;
    }
    if (!strcmp(b, "mul") || !strcmp(b, "mad") || !strcmp(b, "madc")) {
        /* the 2w-bit product as 128-bit two's complement bits */
        u128 p = sg ? (u128)((i128)sx(s[0], w) * (i128)sx(s[1], w)) : (u128)zx(s[0], w) * (u128)zx(s[1], w);
        int wide = has(&o, "wide"), hi = has(&o, "hi");
        if (wide) {
            uint64_t W = mask_of(2 * w);
            u128 r = p;
            if (b[1] == 'a')
                r += zx(s[2], 2 * w);
            d[0] = (uint64_t)r & W;
            return 0;
        }
        u128 part = hi ? p >> w : p;
        part &= M;
        if (b[1] == 'u') {
            d[0] = (uint64_t)part;
            return 0;
        }
        if (has(&o, "sat")) { /* mad.hi.sat.s32 */
            d[0] = clamp_s32((i128)sx((uint64_t)part, 32) + val(s[2], t));
            return 0;
        }
        u128 r = part + zx(s[2], w) + (u128)(!strcmp(b, "madc") ? cin : 0);
        d[0] = (uint64_t)r & M;
        *cout = (int)((r >> w) & 1);
        return 0;
    }
    if (!strcmp(b, "mul24") || !strcmp(b, "mad24")) {
        int64_t x = sg ? sx(s[0], 24) : (int64_t)zx(s[0], 24), y = sg ? sx(s[1], 24) : (int64_t)zx(s[1], 24);
        int64_t p = x * y; /* 48 bits */
        uint64_t part = has(&o, "hi") ? ((uint64_t)p >> 16) & 0xffffffffu : (uint64_t)p & 0xffffffffu;
        if (b[1] == 'u')
            d[0] = part;
        else if (has(&o, "sat"))
            d[0] = clamp_s32((i128)sx(part, 32) + val(s[2], t));
        else
            d[0] = (part + s[2]) & 0xffffffffu;
        return 0;
    }
    if (!strcmp(b, "sad")) {
        i128 x = val(s[0], t), y = val(s[1], t);
        i128 ad = x < y ? y - x : x - y;
        d[0] = (uint64_t)((u128)ad + zx(s[2], w)) & M;
        return 0;
    }
    if (!strcmp(b, "div") || !strcmp(b, "rem")) {
        i128 x = val(s[0], t), y = val(s[1], t);
        if (y == 0) {
            d[0] = M; /* all ones: what NVIDIA GPUs return */
            return 0;
        }
        i128 q = x / y, r = x - q * y;
        d[0] = (uint64_t)(b[0] == 'd' ? q : r) & M;
        return 0;
    }
    if (!strcmp(b, "abs") || !strcmp(b, "neg")) {
        i128 x = val(s[0], t);
        d[0] = (uint64_t)(b[0] == 'a' ? (x < 0 ? -x : x) : -x) & M;
        return 0;
    }
    if (!strcmp(b, "min") || !strcmp(b, "max")) {
        i128 x = val(s[0], t), y = val(s[1], t);
        i128 r = (b[1] == 'i') ? (x < y ? x : y) : (x > y ? x : y);
        if (has(&o, "relu") && r < 0)
            r = 0;
        d[0] = (uint64_t)r & M;
        return 0;
    }
    if (!strcmp(b, "popc") || !strcmp(b, "clz") || !strcmp(b, "brev")) {
        uint64_t x = zx(s[0], w), r = 0;
        if (b[0] == 'p')
            for (int i = 0; i < w; i++)
                r += bit(x, i);
        else if (b[0] == 'c')
            for (int i = w - 1; i >= 0 && !bit(x, i); i--)
                r++;
        else
            for (int i = 0; i < w; i++)
                r |= bit(x, i) << (w - 1 - i);
        d[0] = r;
        return 0;
    }
    if (!strcmp(b, "bfind")) { /* PTX pseudo-code */
        int msb = w - 1;
        uint64_t a = zx(s[0], w);
        if (sg && bit(a, msb))
            a = ~a & M;
        uint64_t r = 0xffffffffu;
        for (int i = msb; i >= 0; i--)
            if (bit(a, i)) {
                r = (uint64_t)i;
                break;
            }
        if (has(&o, "shiftamt") && r != 0xffffffffu)
            r = (uint64_t)msb - r;
        d[0] = r;
        return 0;
    }
    if (!strcmp(b, "fns")) { /* PTX pseudo-code; base > 31 is undefined: ~0 */
        uint32_t mask = (uint32_t)s[0], base = (uint32_t)s[1];
        int32_t off = (int32_t)s[2];
        uint64_t r = 0xffffffffu;
        if (base > 31) {
        } else if (off == 0) {
            if (bit(mask, (int)base))
                r = base;
        } else {
            int64_t pos = base, count = (off < 0 ? -(int64_t)off : off) - 1, inc = off > 0 ? 1 : -1;
            while (pos >= 0 && pos < 32) {
                if (bit(mask, (int)pos)) {
                    if (count == 0) {
                        r = (uint64_t)pos;
                        break;
                    }
                    count--;
                }
                pos += inc;
            }
        }
        d[0] = r;
        return 0;
    }
    if (!strcmp(b, "bfe")) { /* PTX pseudo-code */
        int msb = w - 1;
        unsigned pos = (unsigned)s[1] & 0xff, len = (unsigned)s[2] & 0xff;
        uint64_t a = zx(s[0], w), sbit;
        if (!sg || len == 0)
            sbit = 0;
        else
            sbit = bit(a, (int)(pos + len - 1 < (unsigned)msb ? pos + len - 1 : (unsigned)msb));
        uint64_t r = 0;
        for (int i = 0; i <= msb; i++)
            r |= (((unsigned)i < len && pos + (unsigned)i <= (unsigned)msb) ? bit(a, (int)pos + i) : sbit) << i;
        d[0] = r;
        return 0;
    }
    if (!strcmp(b, "bfi")) { /* PTX pseudo-code */
        int msb = w - 1;
        unsigned pos = (unsigned)s[2] & 0xff, len = (unsigned)s[3] & 0xff;
        uint64_t f = zx(s[1], w);
        for (unsigned i = 0; i < len && pos + i <= (unsigned)msb; i++)
            f = (f & ~(1ull << (pos + i))) | (bit(s[0], (int)i) << (pos + i));
        d[0] = f;
        return 0;
    }
    if (!strcmp(b, "bmsk")) { /* PTX pseudo-code, shifts done in 64 bits */
        uint64_t a = (uint32_t)s[0], bb = (uint32_t)s[1];
        uint64_t a1 = a & 0x1f, b1 = bb & 0x1f, sum = a1 + b1;
        uint64_t mask0 = (0xffffffffull << a1) & 0xffffffffull, mask1 = (0xffffffffull << sum) & 0xffffffffull;
        int sum_ovf = sum >= 32, pos_ovf = 0, wid_ovf = 0;
        if (has(&o, "clamp")) {
            if (a >= 32) {
                pos_ovf = 1;
                mask0 = 0;
            }
            if (bb >= 32)
                wid_ovf = 1;
        }
        if (sum_ovf || pos_ovf || wid_ovf)
            mask1 = 0;
        else if (b1 == 0)
            mask1 = 0xffffffffull;
        d[0] = mask0 & ~mask1 & 0xffffffffull;
        return 0;
    }
    if (!strcmp(b, "szext")) { /* PTX pseudo-code */
        uint64_t a = (uint32_t)s[0], bb = (uint32_t)s[1];
        uint64_t b1 = bb & 0x1f;
        int too_large = bb >= 32 && has(&o, "clamp");
        uint64_t mask = too_large ? 0 : (0xffffffffull << b1) & 0xffffffffull;
        uint64_t sign_pos = (b1 - 1) & 0x1f;
        int sign_bit = (b1 == 0 || too_large || !sg) ? 0 : (int)bit(a, (int)sign_pos);
        d[0] = ((a & ~mask) | (sign_bit ? mask : 0)) & 0xffffffffull;
        return 0;
    }
    if (!strcmp(b, "dp4a") || !strcmp(b, "dp2a")) {
        int sa = o.types[0][0] == 's', sb = o.types[1][0] == 's';
        int64_t acc = (sa || sb) ? (int64_t)(int32_t)s[2] : (int64_t)(uint32_t)s[2];
        if (b[2] == '4') {
            for (int i = 0; i < 4; i++)
                acc += (sa ? sx(s[0] >> (8 * i), 8) : (int64_t)zx(s[0] >> (8 * i), 8)) *
                       (sb ? sx(s[1] >> (8 * i), 8) : (int64_t)zx(s[1] >> (8 * i), 8));
        } else {
            int sel = has(&o, "hi") ? 2 : 0;
            for (int i = 0; i < 2; i++)
                acc += (sa ? sx(s[0] >> (16 * i), 16) : (int64_t)zx(s[0] >> (16 * i), 16)) *
                       (sb ? sx(s[1] >> (8 * (sel + i)), 8) : (int64_t)zx(s[1] >> (8 * (sel + i)), 8));
        }
        d[0] = (uint64_t)acc & 0xffffffffu;
        return 0;
    }
    if (!strcmp(b, "prmt")) {
        uint64_t t64 = (s[1] << 32) | (uint32_t)s[0], r = 0;
        for (int i = 0; i < 6; i++)
            if (has(&o, prmt_modes[i][0])) {
                const char *row = prmt_modes[i][1 + (s[2] & 3)];
                for (int byte = 0; byte < 4; byte++)
                    r |= ((t64 >> (8 * (row[3 - byte] - '0'))) & 0xff) << (8 * byte);
                d[0] = r;
                return 0;
            }
        for (int byte = 0; byte < 4; byte++) {
            unsigned sel = (unsigned)(s[2] >> (4 * byte)) & 0xf;
            uint64_t v = (t64 >> (8 * (sel & 7))) & 0xff;
            if (sel & 8)
                v = bit(v, 7) ? 0xff : 0;
            r |= v << (8 * byte);
        }
        d[0] = r;
        return 0;
    }
    if (!strcmp(b, "vabsdiff4")) {
        int sd = o.types[0][0] == 's', sa = o.types[1][0] == 's', sb = o.types[2][0] == 's';
        int64_t tt[4];
        for (int i = 0; i < 4; i++) {
            int64_t x = sa ? sx(s[0] >> (8 * i), 8) : (int64_t)zx(s[0] >> (8 * i), 8);
            int64_t y = sb ? sx(s[1] >> (8 * i), 8) : (int64_t)zx(s[1] >> (8 * i), 8);
            tt[i] = x > y ? x - y : y - x;
            if (has(&o, "sat")) {
                int64_t hi = sd ? 127 : 255, lo = sd ? -128 : 0;
                tt[i] = tt[i] > hi ? hi : tt[i] < lo ? lo : tt[i];
            }
        }
        if (has(&o, "add")) {
            int64_t acc = (int64_t)(uint32_t)s[2];
            for (int i = 0; i < 4; i++)
                acc += tt[i];
            d[0] = (uint64_t)acc & 0xffffffffu;
        } else {
            d[0] = 0;
            for (int i = 0; i < 4; i++)
                d[0] |= ((uint64_t)tt[i] & 0xff) << (8 * i);
        }
        return 0;
    }
    if (!strcmp(b, "and") || !strcmp(b, "or") || !strcmp(b, "xor") || !strcmp(b, "not") || !strcmp(b, "cnot")) {
        uint64_t x = zx(s[0], w), y = b[0] == 'n' || b[0] == 'c' ? 0 : zx(s[1], w);
        switch (b[0]) {
        case 'a': d[0] = x & y; break;
        case 'o': d[0] = x | y; break;
        case 'x': d[0] = x ^ y; break;
        case 'n': d[0] = ~x & M; break;
        default: d[0] = x == 0; break;
        }
        return 0;
    }
    if (!strcmp(b, "lop3")) { /* immLut = F(0xF0, 0xCC, 0xAA) */
        uint64_t r = 0, lut = s[3] & 0xff;
        for (int i = 0; i < 32; i++) {
            unsigned idx = (unsigned)(bit(s[0], i) << 2 | bit(s[1], i) << 1 | bit(s[2], i));
            r |= bit(lut, (int)idx) << i;
        }
        d[0] = r;
        return 0;
    }
    if (!strcmp(b, "shl") || !strcmp(b, "shr")) { /* one bit at a time, at most w steps */
        uint64_t n = (uint32_t)s[1], x = zx(s[0], w);
        for (uint64_t i = 0; i < n && i < (uint64_t)w; i++) {
            if (b[2] == 'l')
                x = (x << 1) & M;
            else
                x = (x >> 1) | (sg ? bit(x, w - 1) << (w - 1) : 0);
        }
        d[0] = x;
        return 0;
    }
    if (!strcmp(b, "shf")) {
        uint64_t c = (uint32_t)s[2];
        unsigned n = has(&o, "clamp") ? (unsigned)(c < 32 ? c : 32) : (unsigned)(c & 0x1f);
        u128 v = ((u128)(uint32_t)s[1] << 32) | (uint32_t)s[0];
        d[0] = has(&o, "l") ? (uint64_t)((v << n) >> 32) & 0xffffffffu : (uint64_t)(v >> n) & 0xffffffffu;
        return 0;
    }
    if (!strcmp(b, "setp")) {
        int tt = ref_cmp(o.mods[0], s[0], s[1], t);
        d[0] = (uint64_t)ref_bool(&o, tt, (int)s[2]);
        d[1] = (uint64_t)ref_bool(&o, !tt, (int)s[2]);
        return 0;
    }
    if (!strcmp(b, "set")) {
        int tt = ref_bool(&o, ref_cmp(o.mods[0], s[0], s[1], o.types[1]), (int)s[2]);
        d[0] = tt ? (o.types[0][0] == 'f' ? 0x3f800000u : 0xffffffffu) : 0;
        return 0;
    }
    if (!strcmp(b, "selp")) {
        d[0] = zx(s[2] ? s[0] : s[1], w);
        return 0;
    }
    if (!strcmp(b, "slct")) {
        d[0] = zx((int32_t)s[2] >= 0 ? s[0] : s[1], w);
        return 0;
    }
    if (!strcmp(b, "mov")) {
        d[0] = zx(s[0], w);
        return 0;
    }
    return -1;
}

static int ref_eval(const char *op, const uint64_t *s, int cin, uint64_t *d, int *cout)
{
    struct opname o;
    parse_opname(op, &o);
    return ref_eval_parsed(&o, s, cin, d, cout);
}

/* ================================================================= harness */

/* One instruction form under test.
 * dst: result operands, in order: h (16-bit), r (32), l (64), p (predicate),
 *      _ (sink), c (CC.CF after the instruction: not an operand).
 * src: source operands: h r l p as above, n (predicate written negated !p),
 *      c (carry-in set before the instruction: not an operand).
 * gen: value pool per src character: v (special values and random),
 *      x (16-bit: every value), s (shift/funnel counts), e (bit positions
 *      0..300 incl. 8-bit wrap), o (fns offsets), k (bfe/bfi-like small), b (0/1).
 * imm: literal written instead of source operand immi (-1: none); immv its
 *      value for the reference. */
struct form {
    const char *op;
    const char *dst;
    const char *src;
    const char *gen;
    int immi;
    const char *imm;
    uint64_t immv;
};

static struct emu_device *dev;

static struct emu_device *device(void)
{
    if (!dev) {
        struct emu_config cfg;
        emu_config_default(&cfg);
        cfg.host_threads = 1;
        cfg.local_per_thread = 1024;
        assert_int_equal(emu_device_create(&cfg, &dev), MX_OK);
    }
    return dev;
}

static int opnd_width(char c)
{
    switch (c) {
    case 'h': return 16;
    case 'r': return 32;
    case 'l': return 64;
    default: return 32;
    }
}

/* %h/%r/%rd/%p register name of kind c, number i. */
static void reg(char *buf, size_t n, char c, int i)
{
    switch (c) {
    case 'h': snprintf(buf, n, "%%h%d", i); break;
    case 'r': case 'c': snprintf(buf, n, "%%r%d", i); break;
    case 'l': snprintf(buf, n, "%%rd%d", i); break;
    default: snprintf(buf, n, "%%p%d", i); break;
    }
}

static const char *ldst_type(char c) { return c == 'h' ? "b16" : c == 'l' ? "b64" : "b32"; }

#define NTHREADS 2048 /* 8 CTAs of 256; each thread loops over vectors */

/* Builds the kernel for form f: thread i handles vectors i, i + NTHREADS, ...;
 * inputs are 8-byte slots (nsrc per vector), outputs 8-byte slots (ndst per
 * vector, zeroed before the launch). */
static char *build_ptx(const struct form *f)
{
    size_t cap = 8192, len = 0;
    char *p = malloc(cap);
    assert_non_null(p);
    int ns = (int)strlen(f->src), nd = (int)strlen(f->dst);
#define EMIT(...) (len += (size_t)snprintf(p + len, cap - len, __VA_ARGS__))
    EMIT(".version 7.8\n.target sm_90\n.address_size 64\n");
    EMIT(".visible .entry k(.param .u64 pin, .param .u64 pout, .param .u32 n)\n{\n");
    EMIT("  .reg .b16 %%h<16>;\n  .reg .b32 %%r<48>;\n  .reg .b64 %%rd<48>;\n  .reg .pred %%p<16>;\n");
    EMIT("  mov.u32 %%r40, %%ctaid.x;\n  mov.u32 %%r41, %%ntid.x;\n  mov.u32 %%r42, %%tid.x;\n");
    EMIT("  mad.lo.u32 %%r43, %%r40, %%r41, %%r42;\n  mov.u32 %%r44, %%nctaid.x;\n");
    EMIT("  mul.lo.u32 %%r44, %%r44, %%r41;\n  ld.param.u32 %%r45, [n];\n");
    EMIT("  ld.param.u64 %%rd40, [pin];\n  ld.param.u64 %%rd41, [pout];\n");
    EMIT("LOOP:\n");
    EMIT("  mul.wide.u32 %%rd42, %%r43, %d;\n  add.s64 %%rd43, %%rd40, %%rd42;\n", ns * 8);
    EMIT("  mul.wide.u32 %%rd42, %%r43, %d;\n  add.s64 %%rd44, %%rd41, %%rd42;\n", nd * 8);
    char ops[6][48];
    int nops = 0;
    for (int i = 0; i < ns; i++) {
        char c = f->src[i], r[16];
        if (i == f->immi) {
            snprintf(ops[nops++], sizeof ops[0], "%s", f->imm);
            continue;
        }
        switch (c) {
        case 'p': case 'n':
            EMIT("  ld.global.u32 %%r%d, [%%rd43+%d];\n  setp.ne.u32 %%p%d, %%r%d, 0;\n", 20 + i, i * 8, i, 20 + i);
            snprintf(ops[nops++], sizeof ops[0], "%s%%p%d", c == 'n' ? "!" : "", i);
            break;
        case 'c': /* CC.CF = (value != 0) */
            EMIT("  ld.global.u32 %%r%d, [%%rd43+%d];\n  add.cc.u32 %%r%d, %%r%d, -1;\n", 20 + i, i * 8, 30 + i, 20 + i);
            break;
        default:
            reg(r, sizeof r, c, i);
            EMIT("  ld.global.%s %s, [%%rd43+%d];\n", ldst_type(c), r, i * 8);
            snprintf(ops[nops++], sizeof ops[0], "%s", r);
        }
    }
    /* the instruction */
    EMIT("  %s ", f->op);
    int first = 1, setp = !strncmp(f->op, "setp.", 5);
    for (int j = 0; j < nd; j++) {
        char c = f->dst[j], r[16];
        if (c == 'c')
            continue;
        if (c == '_')
            snprintf(r, sizeof r, "_");
        else
            reg(r, sizeof r, c, 4 + j);
        EMIT("%s%s", first ? "" : setp ? "|" : ", ", r);
        first = 0;
    }
    for (int i = 0; i < nops; i++)
        EMIT(", %s", ops[i]);
    EMIT(";\n");
    for (int j = 0; j < nd; j++) {
        char c = f->dst[j], r[16];
        switch (c) {
        case '_': break;
        case 'c': EMIT("  addc.u32 %%r36, 0, 0;\n  st.global.b32 [%%rd44+%d], %%r36;\n", j * 8); break;
        case 'p': EMIT("  selp.u32 %%r37, 1, 0, %%p%d;\n  st.global.b32 [%%rd44+%d], %%r37;\n", 4 + j, j * 8); break;
        default:
            reg(r, sizeof r, c, 4 + j);
            EMIT("  st.global.%s [%%rd44+%d], %s;\n", ldst_type(c), j * 8, r);
        }
    }
    EMIT("  add.u32 %%r43, %%r43, %%r44;\n  setp.lt.u32 %%p15, %%r43, %%r45;\n  @%%p15 bra LOOP;\n  ret;\n}\n");
#undef EMIT
    assert_true(len < cap);
    return p;
}

/* Runs ptx (kernel k(pin, pout, n)) over nvec vectors (a multiple of
 * NTHREADS); returns the launch status, outputs in out. */
static int run_kernel(const char *ptx, const uint64_t *in, size_t nin_words, uint64_t *out, size_t nout_words,
                      uint32_t nvec, struct emu_fault *fault)
{
    struct mxt_parse r;
    mxt_parse_ok(&r, ptx);
    struct emu_device *d = device();
    struct emu_module *mod = NULL;
    char err[256] = "";
    int rc = emu_module_load(d, &r.prog, &mod, err, sizeof err);
    if (rc != MX_OK)
        fail_msg("module load: %s: %s", mx_status_name(rc), err);
    uint64_t din = 0, dout = 0;
    size_t inb = nin_words ? nin_words * 8 : 8, outb = nout_words ? nout_words * 8 : 8;
    assert_int_equal(emu_malloc(d, inb, &din), MX_OK);
    assert_int_equal(emu_malloc(d, outb, &dout), MX_OK);
    if (nin_words)
        assert_int_equal(emu_memcpy_htod(d, din, in, nin_words * 8), MX_OK);
    assert_int_equal(emu_memset(d, dout, 0, outb), MX_OK);
    struct {
        uint64_t pin, pout;
        uint32_t n, pad;
    } params = { din, dout, nvec, 0 };
    struct emu_launch l = { .func = mxt_func(&r.prog, "k"), .grid = { NTHREADS / 256, 1, 1 },
                            .block = { 256, 1, 1 }, .params = &params, .params_size = 20 };
    memset(fault, 0, sizeof *fault);
    rc = emu_launch(d, mod, &l, NULL, fault);
    if (rc == MX_OK && nout_words)
        assert_int_equal(emu_memcpy_dtoh(d, out, dout, nout_words * 8), MX_OK);
    emu_free(d, din);
    emu_free(d, dout);
    emu_module_unload(mod);
    mxt_parse_free(&r);
    return rc;
}

/* ------------------------------------------------------------ input pools */

static uint64_t rng_state;
static uint64_t rnd(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static const uint64_t specials[] = {
    0, 1, 2, 3, 7, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff, 0x10000, 0x7fffff, 0x800000,
    0xffffff, 0x7fffffff, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu, 0x100000000ull, 0x7fffffffffffffffull,
    0x8000000000000000ull, 0x8000000000000001ull, 0xfffffffffffffffeull, 0xffffffffffffffffull, 0x123456789abcdef0ull,
};
#define NSPECIAL (sizeof specials / sizeof specials[0])
static const uint64_t shift_counts[] = { 0, 1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 44, 63, 64, 65, 127, 255, 256, 257,
                                         0x7fffffff, 0x80000000u, 0xfffffffeu, 0xffffffffu };
#define NSHIFT (sizeof shift_counts / sizeof shift_counts[0])
static const uint64_t bit_pos[] = { 0, 1, 2, 7, 8, 15, 16, 30, 31, 32, 33, 48, 62, 63, 64, 65, 100, 127, 128,
                                    200, 254, 255, 256, 257, 0x120, 0x1ff, 0xffffffffu };
#define NBITPOS (sizeof bit_pos / sizeof bit_pos[0])

/* Special value i of a source of width w: the list, then its negations. */
static uint64_t special(size_t i, int w)
{
    uint64_t v = specials[i % NSPECIAL];
    if (i / NSPECIAL & 1)
        v = 0 - v;
    return zx(v, w);
}

static uint64_t random_value(int w)
{
    uint64_t r = rnd();
    switch (r & 7) {
    case 0: case 1: case 2: return zx(rnd(), w);                          /* uniform */
    case 3: return zx((uint64_t)(int64_t)(int8_t)rnd(), w);               /* small, either sign */
    case 4: return special(rnd() % (2 * NSPECIAL), w);                    /* special */
    case 5: return zx(rnd() >> (rnd() % 64), w);                          /* random magnitude */
    case 6: return zx(special(rnd() % (2 * NSPECIAL), w) + (rnd() % 5) - 2, w); /* near special */
    default: return zx(~(rnd() >> (rnd() % 64)), w);                      /* random negative */
    }
}

/* Value number i of pool g for an operand of width w (random if i is past the pool). */
static uint64_t pool_value(char g, size_t i, int w, int *end)
{
    size_t n;
    *end = 0;
    switch (g) {
    case 's': n = NSHIFT; if (i < n) return shift_counts[i]; break;
    case 'e': n = NBITPOS; if (i < n) return bit_pos[i]; break;
    case 'o': n = 70; if (i < n) return zx((uint64_t)((int64_t)i - 35), 32); break;
    case 'k': n = 36; if (i < n) return i; break;
    case 'b': n = 2; if (i < n) return i; break;
    default: n = 2 * NSPECIAL; if (i < n) return special(i, w); break;
    }
    *end = 1;
    switch (g) {
    case 's': return (rnd() & 1) ? rnd() % 80 : zx(rnd(), 32);
    case 'e': return (rnd() & 1) ? rnd() % 300 : zx(rnd(), 32);
    case 'o': return zx((uint64_t)((int64_t)(rnd() % 67) - 33), 32);
    case 'k': return rnd() % 40;
    case 'b': return rnd() & 1;
    default: return random_value(w);
    }
}

/* Fills the input vectors of form f: the cross product of the pools of the
 * first two non-boolean sources (other sources random from their pools),
 * then nrand random vectors; for an 'x' source every 16-bit value against
 * 16 values of each other source.  Returns the vector count, rounded up to
 * a multiple of NTHREADS. */
static uint32_t make_inputs(const struct form *f, uint64_t **inp, uint32_t nrand)
{
    int ns = (int)strlen(f->src);
    int ax[2] = { -1, -1 }, na = 0, ex = -1;
    for (int i = 0; i < ns; i++) {
        if (i == f->immi)
            continue;
        if (f->gen[i] == 'x')
            ex = i;
        else if (f->gen[i] != 'b' && na < 2)
            ax[na++] = i;
    }
    size_t cross = 1;
    int cnt[2] = { 0, 0 };
    for (int k = 0; k < na; k++) {
        int end = 0;
        while (!end && cnt[k] < 4096)
            pool_value(f->gen[ax[k]], (size_t)cnt[k]++, opnd_width(f->src[ax[k]]), &end);
        cnt[k]--;
        cross *= (size_t)cnt[k];
    }
    if (ex >= 0)
        cross = 65536u * 16u;
    size_t total = cross + nrand;
    total = (total + NTHREADS - 1) / NTHREADS * NTHREADS;
    uint64_t *in = calloc(total * (size_t)ns, 8);
    assert_non_null(in);
    for (size_t v = 0; v < total; v++) {
        uint64_t *s = in + v * (size_t)ns;
        for (int i = 0; i < ns; i++) {
            int end, w = opnd_width(f->src[i]);
            char g = f->gen[i];
            if (ex >= 0 && v < cross) {
                /* each a against 8 key values and 8 random ones */
                static const uint64_t key16[8] = { 0, 1, 2, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff };
                if (i == ex)
                    s[i] = v & 0xffff;
                else if ((v >> 16) < 8 && w == 16)
                    s[i] = key16[v >> 16];
                else
                    s[i] = pool_value(g, SIZE_MAX, w, &end);
            } else if (v < cross && na && i == ax[0])
                s[i] = pool_value(g, v % (size_t)cnt[0], w, &end);
            else if (v < cross && na > 1 && i == ax[1])
                s[i] = pool_value(g, v / (size_t)cnt[0], w, &end);
            else
                s[i] = (rnd() & 3) ? pool_value(g, SIZE_MAX, w, &end) : pool_value(g, rnd() % 64, w, &end);
        }
    }
    *inp = in;
    return (uint32_t)total;
}

/* Runs form f over its inputs and checks every result against ref_eval. */
static void run_ptx_case(const struct form *f, uint32_t nrand, uint64_t seed)
{
    rng_state = seed;
    int ns = (int)strlen(f->src), nd = (int)strlen(f->dst);
    uint64_t *in;
    uint32_t nvec = make_inputs(f, &in, nrand);
    uint64_t *out = calloc((size_t)nvec * (size_t)nd, 8);
    assert_non_null(out);
    char *ptx = build_ptx(f);
    struct emu_fault fault;
    int rc = run_kernel(ptx, in, (size_t)nvec * (size_t)ns, out, (size_t)nvec * (size_t)nd, nvec, &fault);
    if (rc != MX_OK)
        fail_msg("%s: launch failed: %s: %s\n%s", f->op, mx_status_name(rc), fault.message, ptx);
    int bad = 0;
    struct opname on;
    parse_opname(f->op, &on);
    for (uint32_t v = 0; v < nvec && bad < 10; v++) {
        const uint64_t *s = in + (size_t)v * (size_t)ns;
        uint64_t eff[6] = { 0 }, exp[4] = { 0 };
        int cin = 0, cout = 0, k = 0;
        for (int i = 0; i < ns; i++) {
            uint64_t x = i == f->immi ? f->immv : s[i];
            switch (f->src[i]) {
            case 'c': cin = x != 0; break;
            case 'p': eff[k++] = (uint32_t)x != 0; break;
            case 'n': eff[k++] = (uint32_t)x == 0; break;
            default: eff[k++] = x;
            }
        }
        if (ref_eval_parsed(&on, eff, cin, exp, &cout) < 0)
            fail_msg("no reference model for %s", f->op);
        int e = 0;
        for (int j = 0; j < nd; j++) {
            char c = f->dst[j];
            uint64_t got = out[(size_t)v * (size_t)nd + (size_t)j], want;
            if (c == '_')
                continue;
            if (c == 'c')
                want = (uint64_t)cout;
            else if (c == 'p')
                want = exp[j] & 1;
            else
                want = zx(exp[j], opnd_width(c));
            if (got != want) {
                if (!e++) {
                    print_error("%s: vector %u: inputs", f->op, v);
                    for (int i = 0; i < ns; i++)
                        print_error(" %#" PRIx64, i == f->immi ? f->immv : s[i]);
                    print_error("\n");
                }
                print_error("  result %d: expected %#" PRIx64 ", got %#" PRIx64 "\n", j, want, got);
            }
        }
        bad += e != 0;
    }
    free(ptx);
    free(in);
    free(out);
    if (bad)
        fail_msg("%s: %d+ mismatching vectors", f->op, bad);
}

static void run_forms(const struct form *fs, size_t n, uint32_t nrand)
{
    for (size_t i = 0; i < n; i++)
        run_ptx_case(&fs[i], nrand, 0x5eed0000u + i * 7919u);
}

#define NOIMM -1, NULL, 0
#define NRAND 4096

/* ============================================================ test tables */

static const struct form arith16[] = {
    { "add.u16", "h", "hh", "xv", NOIMM },      { "add.s16", "h", "hh", "xv", NOIMM },
    { "sub.u16", "h", "hh", "xv", NOIMM },      { "sub.s16", "h", "hh", "xv", NOIMM },
    { "mul.lo.u16", "h", "hh", "xv", NOIMM },   { "mul.lo.s16", "h", "hh", "xv", NOIMM },
    { "mul.hi.u16", "h", "hh", "xv", NOIMM },   { "mul.hi.s16", "h", "hh", "xv", NOIMM },
    { "mul.wide.u16", "r", "hh", "xv", NOIMM }, { "mul.wide.s16", "r", "hh", "xv", NOIMM },
    { "min.u16", "h", "hh", "xv", NOIMM },      { "min.s16", "h", "hh", "xv", NOIMM },
    { "max.u16", "h", "hh", "xv", NOIMM },      { "max.s16", "h", "hh", "xv", NOIMM },
    { "div.u16", "h", "hh", "xv", NOIMM },      { "div.s16", "h", "hh", "xv", NOIMM },
    { "rem.u16", "h", "hh", "xv", NOIMM },      { "rem.s16", "h", "hh", "xv", NOIMM },
    { "setp.lt.s16", "pp", "hh", "xv", NOIMM }, { "setp.hi.u16", "pp", "hh", "xv", NOIMM },
};

static const struct form arith16_more[] = {
    { "mad.lo.u16", "h", "hhh", "xvv", NOIMM },   { "mad.lo.s16", "h", "hhh", "vvv", NOIMM },
    { "mad.hi.u16", "h", "hhh", "vvv", NOIMM },   { "mad.hi.s16", "h", "hhh", "vvv", NOIMM },
    { "mad.wide.u16", "r", "hhr", "vvv", NOIMM }, { "mad.wide.s16", "r", "hhr", "vvv", NOIMM },
    { "sad.u16", "h", "hhh", "vvv", NOIMM },      { "sad.s16", "h", "hhh", "vvv", NOIMM },
    { "abs.s16", "h", "h", "x", NOIMM },          { "neg.s16", "h", "h", "x", NOIMM },
    { "shl.b16", "h", "hr", "vs", NOIMM },        { "shr.u16", "h", "hr", "vs", NOIMM },
    { "shr.s16", "h", "hr", "vs", NOIMM },        { "shr.b16", "h", "hr", "vs", NOIMM },
    { "and.b16", "h", "hh", "vv", NOIMM },        { "or.b16", "h", "hh", "vv", NOIMM },
    { "xor.b16", "h", "hh", "vv", NOIMM },        { "not.b16", "h", "h", "x", NOIMM },
    { "cnot.b16", "h", "h", "v", NOIMM },         { "selp.b16", "h", "hhp", "vvb", NOIMM },
    { "slct.u16.s32", "h", "hhr", "vvv", NOIMM }, { "mov.b16", "h", "h", "v", NOIMM },
    { "add.s16", "h", "hh", "vv", 1, "-1", 0xffff },
    { "setp.ge.s16", "pp", "hh", "vv", 1, "-3", 0xfffd },
    { "set.lt.u32.s16", "r", "hh", "vv", NOIMM },
};

static const struct form arith32[] = {
    { "add.u32", "r", "rr", "vv", NOIMM },        { "add.s32", "r", "rr", "vv", NOIMM },
    { "add.sat.s32", "r", "rr", "vv", NOIMM },    { "sub.u32", "r", "rr", "vv", NOIMM },
    { "sub.sat.s32", "r", "rr", "vv", NOIMM },    { "add.u64", "l", "ll", "vv", NOIMM },
    { "sub.s64", "l", "ll", "vv", NOIMM },        { "mul.lo.u32", "r", "rr", "vv", NOIMM },
    { "mul.lo.s64", "l", "ll", "vv", NOIMM },     { "mul.hi.u32", "r", "rr", "vv", NOIMM },
    { "mul.hi.s32", "r", "rr", "vv", NOIMM },     { "mul.hi.u64", "l", "ll", "vv", NOIMM },
    { "mul.hi.s64", "l", "ll", "vv", NOIMM },     { "mul.wide.u32", "l", "rr", "vv", NOIMM },
    { "mul.wide.s32", "l", "rr", "vv", NOIMM },   { "mad.lo.u32", "r", "rrr", "vvv", NOIMM },
    { "mad.lo.s64", "l", "lll", "vvv", NOIMM },   { "mad.hi.u32", "r", "rrr", "vvv", NOIMM },
    { "mad.hi.s32", "r", "rrr", "vvv", NOIMM },   { "mad.hi.u64", "l", "lll", "vvv", NOIMM },
    { "mad.hi.s64", "l", "lll", "vvv", NOIMM },   { "mad.hi.sat.s32", "r", "rrr", "vvv", NOIMM },
    { "mad.wide.u32", "l", "rrl", "vvv", NOIMM }, { "mad.wide.s32", "l", "rrl", "vvv", NOIMM },
    { "mul24.lo.u32", "r", "rr", "vv", NOIMM },   { "mul24.lo.s32", "r", "rr", "vv", NOIMM },
    { "mul24.hi.u32", "r", "rr", "vv", NOIMM },   { "mul24.hi.s32", "r", "rr", "vv", NOIMM },
    { "mad24.lo.u32", "r", "rrr", "vvv", NOIMM }, { "mad24.lo.s32", "r", "rrr", "vvv", NOIMM },
    { "mad24.hi.u32", "r", "rrr", "vvv", NOIMM }, { "mad24.hi.s32", "r", "rrr", "vvv", NOIMM },
    { "mad24.hi.sat.s32", "r", "rrr", "vvv", NOIMM },
    { "sad.u32", "r", "rrr", "vvv", NOIMM },      { "sad.s32", "r", "rrr", "vvv", NOIMM },
    { "sad.u64", "l", "lll", "vvv", NOIMM },      { "sad.s64", "l", "lll", "vvv", NOIMM },
    { "div.u32", "r", "rr", "vv", NOIMM },        { "div.s32", "r", "rr", "vv", NOIMM },
    { "div.u64", "l", "ll", "vv", NOIMM },        { "div.s64", "l", "ll", "vv", NOIMM },
    { "rem.u32", "r", "rr", "vv", NOIMM },        { "rem.s32", "r", "rr", "vv", NOIMM },
    { "rem.u64", "l", "ll", "vv", NOIMM },        { "rem.s64", "l", "ll", "vv", NOIMM },
    { "abs.s32", "r", "r", "v", NOIMM },          { "abs.s64", "l", "l", "v", NOIMM },
    { "neg.s32", "r", "r", "v", NOIMM },          { "neg.s64", "l", "l", "v", NOIMM },
    { "min.u32", "r", "rr", "vv", NOIMM },        { "min.s32", "r", "rr", "vv", NOIMM },
    { "min.u64", "l", "ll", "vv", NOIMM },        { "min.s64", "l", "ll", "vv", NOIMM },
    { "max.u32", "r", "rr", "vv", NOIMM },        { "max.s32", "r", "rr", "vv", NOIMM },
    { "max.u64", "l", "ll", "vv", NOIMM },        { "max.s64", "l", "ll", "vv", NOIMM },
    { "min.relu.s32", "r", "rr", "vv", NOIMM },   { "max.relu.s32", "r", "rr", "vv", NOIMM },
    { "add.s32", "r", "rr", "vv", 1, "-7", 0xfffffff9u },
    { "mul.wide.s32", "l", "rr", "vv", 1, "-2", 0xfffffffeu },
    { "div.s64", "l", "ll", "vv", 1, "-1", 0xffffffffffffffffull },
};

static const struct form carry_forms[] = {
    { "add.cc.u32", "rc", "rr", "vv", NOIMM },          { "add.cc.s64", "lc", "ll", "vv", NOIMM },
    { "sub.cc.u32", "rc", "rr", "vv", NOIMM },          { "sub.cc.u64", "lc", "ll", "vv", NOIMM },
    { "addc.u32", "r", "crr", "bvv", NOIMM },           { "addc.cc.u32", "rc", "crr", "bvv", NOIMM },
    { "addc.cc.s64", "lc", "cll", "bvv", NOIMM },       { "subc.u32", "r", "crr", "bvv", NOIMM },
    { "subc.cc.s32", "rc", "crr", "bvv", NOIMM },       { "subc.cc.u64", "lc", "cll", "bvv", NOIMM },
    { "mad.lo.cc.u32", "rc", "rrr", "vvv", NOIMM },     { "mad.hi.cc.s32", "rc", "rrr", "vvv", NOIMM },
    { "mad.lo.cc.u64", "lc", "lll", "vvv", NOIMM },     { "mad.hi.cc.u64", "lc", "lll", "vvv", NOIMM },
    { "madc.lo.u32", "r", "crrr", "bvvv", NOIMM },      { "madc.hi.cc.u32", "rc", "crrr", "bvvv", NOIMM },
    { "madc.hi.cc.s32", "rc", "crrr", "bvvv", NOIMM },  { "madc.lo.cc.s64", "lc", "clll", "bvvv", NOIMM },
    { "madc.hi.cc.s64", "lc", "clll", "bvvv", NOIMM },  { "madc.hi.u64", "l", "clll", "bvvv", NOIMM },
    { "add.cc.u32", "_c", "rr", "vv", NOIMM },
};

static const struct form bit_forms[] = {
    { "popc.b32", "r", "r", "v", NOIMM },            { "popc.b64", "r", "l", "v", NOIMM },
    { "clz.b32", "r", "r", "v", NOIMM },             { "clz.b64", "r", "l", "v", NOIMM },
    { "brev.b32", "r", "r", "v", NOIMM },            { "brev.b64", "l", "l", "v", NOIMM },
    { "bfind.u32", "r", "r", "v", NOIMM },           { "bfind.s32", "r", "r", "v", NOIMM },
    { "bfind.u64", "r", "l", "v", NOIMM },           { "bfind.s64", "r", "l", "v", NOIMM },
    { "bfind.shiftamt.u32", "r", "r", "v", NOIMM },  { "bfind.shiftamt.s32", "r", "r", "v", NOIMM },
    { "bfind.shiftamt.u64", "r", "l", "v", NOIMM },  { "bfind.shiftamt.s64", "r", "l", "v", NOIMM },
    { "fns.b32", "r", "rrr", "vko", NOIMM },
    { "bfe.u32", "r", "rrr", "vee", NOIMM },         { "bfe.s32", "r", "rrr", "vee", NOIMM },
    { "bfe.u64", "l", "lrr", "vee", NOIMM },         { "bfe.s64", "l", "lrr", "vee", NOIMM },
    { "bfe.s32", "r", "rrr", "vee", 2, "8", 8 },     { "bfe.u32", "r", "rrr", "vee", 1, "255", 255 },
    { "bfi.b32", "r", "rrrr", "vvee", NOIMM },       { "bfi.b64", "l", "llrr", "vvee", NOIMM },
    { "bmsk.clamp.b32", "r", "rr", "ee", NOIMM },    { "bmsk.wrap.b32", "r", "rr", "ee", NOIMM },
    { "szext.clamp.s32", "r", "rr", "ve", NOIMM },   { "szext.clamp.u32", "r", "rr", "ve", NOIMM },
    { "szext.wrap.s32", "r", "rr", "ve", NOIMM },    { "szext.wrap.u32", "r", "rr", "ve", NOIMM },
    { "dp4a.u32.u32", "r", "rrr", "vvv", NOIMM },    { "dp4a.u32.s32", "r", "rrr", "vvv", NOIMM },
    { "dp4a.s32.u32", "r", "rrr", "vvv", NOIMM },    { "dp4a.s32.s32", "r", "rrr", "vvv", NOIMM },
    { "dp2a.lo.u32.u32", "r", "rrr", "vvv", NOIMM }, { "dp2a.lo.s32.s32", "r", "rrr", "vvv", NOIMM },
    { "dp2a.hi.u32.s32", "r", "rrr", "vvv", NOIMM }, { "dp2a.hi.s32.u32", "r", "rrr", "vvv", NOIMM },
    { "prmt.b32", "r", "rrr", "vvv", NOIMM },        { "prmt.b32.f4e", "r", "rrr", "vvk", NOIMM },
    { "prmt.b32.b4e", "r", "rrr", "vvk", NOIMM },    { "prmt.b32.rc8", "r", "rrr", "vvk", NOIMM },
    { "prmt.b32.ecl", "r", "rrr", "vvk", NOIMM },    { "prmt.b32.ecr", "r", "rrr", "vvk", NOIMM },
    { "prmt.b32.rc16", "r", "rrr", "vvk", NOIMM },
    { "vabsdiff4.u32.u32.u32", "r", "rrr", "vvv", NOIMM },
    { "vabsdiff4.s32.s32.s32.sat", "r", "rrr", "vvv", NOIMM },
    { "vabsdiff4.u32.s32.u32.sat", "r", "rrr", "vvv", NOIMM },
    { "vabsdiff4.u32.u32.s32.add", "r", "rrr", "vvv", NOIMM },
    { "vabsdiff4.s32.s32.s32.add", "r", "rrr", "vvv", NOIMM },
};

static const struct form logic_forms[] = {
    { "and.b32", "r", "rr", "vv", NOIMM },       { "or.b64", "l", "ll", "vv", NOIMM },
    { "xor.b32", "r", "rr", "vv", NOIMM },       { "not.b64", "l", "l", "v", NOIMM },
    { "not.b32", "r", "r", "v", NOIMM },         { "cnot.b32", "r", "r", "v", NOIMM },
    { "cnot.b64", "l", "l", "v", NOIMM },        { "and.b64", "l", "ll", "vv", 1, "0xff00ff00ff00ff00", 0xff00ff00ff00ff00ull },
    { "and.pred", "p", "pp", "bb", NOIMM },      { "or.pred", "p", "pn", "bb", NOIMM },
    { "xor.pred", "p", "pp", "bb", NOIMM },      { "not.pred", "p", "p", "b", NOIMM },
    { "mov.pred", "p", "n", "b", NOIMM },        { "and.pred", "p", "pp", "bb", 1, "1", 1 },
    { "shl.b32", "r", "rr", "vs", NOIMM },       { "shl.b64", "l", "lr", "vs", NOIMM },
    { "shr.u32", "r", "rr", "vs", NOIMM },       { "shr.s32", "r", "rr", "vs", NOIMM },
    { "shr.b32", "r", "rr", "vs", NOIMM },       { "shr.u64", "l", "lr", "vs", NOIMM },
    { "shr.s64", "l", "lr", "vs", NOIMM },       { "shr.b64", "l", "lr", "vs", NOIMM },
    { "shl.b32", "r", "rr", "vs", 1, "40", 40 }, { "shr.s32", "r", "rr", "vs", 1, "33", 33 },
    { "shf.l.clamp.b32", "r", "rrr", "vvs", NOIMM }, { "shf.l.wrap.b32", "r", "rrr", "vvs", NOIMM },
    { "shf.r.clamp.b32", "r", "rrr", "vvs", NOIMM }, { "shf.r.wrap.b32", "r", "rrr", "vvs", NOIMM },
    { "shf.l.wrap.b32", "r", "rrr", "vvs", 2, "44", 44 },
    { "shf.r.clamp.b32", "r", "rrr", "vvs", 2, "44", 44 },
};

static const struct form cmp_forms[] = {
    { "setp.eq.u32", "pp", "rr", "vv", NOIMM },     { "setp.ne.s64", "pp", "ll", "vv", NOIMM },
    { "setp.lt.s32", "pp", "rr", "vv", NOIMM },     { "setp.le.s64", "pp", "ll", "vv", NOIMM },
    { "setp.gt.u32", "pp", "rr", "vv", NOIMM },     { "setp.ge.u64", "pp", "ll", "vv", NOIMM },
    { "setp.lo.u32", "pp", "rr", "vv", NOIMM },     { "setp.ls.u64", "pp", "ll", "vv", NOIMM },
    { "setp.hi.u32", "pp", "rr", "vv", NOIMM },     { "setp.hs.u32", "pp", "rr", "vv", NOIMM },
    { "setp.lt.u64", "pp", "ll", "vv", NOIMM },     { "setp.gt.s32", "pp", "rr", "vv", NOIMM },
    { "setp.eq.b16", "pp", "hh", "vv", NOIMM },     { "setp.ne.s32", "p", "rr", "vv", NOIMM },
    { "setp.lt.and.s32", "pp", "rrp", "vvb", NOIMM }, { "setp.ge.or.u64", "pp", "lln", "vvb", NOIMM },
    { "setp.le.xor.s16", "pp", "hhp", "vvb", NOIMM }, { "setp.ne.and.b32", "p_", "rrn", "vvb", NOIMM },
    { "setp.eq.s32", "pp", "rr", "vv", 1, "0", 0 },
    { "set.lt.u32.s32", "r", "rr", "vv", NOIMM },   { "set.ge.s32.u64", "r", "ll", "vv", NOIMM },
    { "set.eq.f32.u32", "r", "rr", "vv", NOIMM },   { "set.hi.and.u32.u32", "r", "rrp", "vvb", NOIMM },
    { "set.le.xor.f32.s64", "r", "lln", "vvb", NOIMM },
    { "selp.b32", "r", "rrp", "vvb", NOIMM },       { "selp.u64", "l", "lln", "vvb", NOIMM },
    { "selp.f32", "r", "rrn", "vvb", NOIMM },       { "selp.s32", "r", "rrp", "vvb", 0, "-5", 0xfffffffbu },
    { "slct.b32.s32", "r", "rrr", "vvv", NOIMM },   { "slct.f64.s32", "l", "llr", "vvv", NOIMM },
    { "slct.s64.s32", "l", "llr", "vvv", NOIMM },
    { "mov.b32", "r", "r", "v", NOIMM },            { "mov.u64", "l", "l", "v", NOIMM },
    { "mov.f64", "l", "l", "v", NOIMM },            { "mov.s32", "r", "r", "v", 0, "-9", 0xfffffff7u },
};

/* lop3 with a selection of lookup tables (the LUT must be an immediate). */
static const uint8_t luts[] = { 0x00, 0xff, 0xf0, 0xcc, 0xaa, 0x80, 0xfe, 0x96, 0xe8, 0x1e, 0x3c, 0x5a, 0x6a, 0xca, 0x01, 0x7f };

/* ================================================================= tests */

MX_TEST(int16_near_exhaustive) { run_forms(arith16, sizeof arith16 / sizeof arith16[0], 0); }
MX_TEST(int16_other) { run_forms(arith16_more, sizeof arith16_more / sizeof arith16_more[0], NRAND); }
MX_TEST(int32_64_arith) { run_forms(arith32, sizeof arith32 / sizeof arith32[0], NRAND); }
MX_TEST(carry_single) { run_forms(carry_forms, sizeof carry_forms / sizeof carry_forms[0], NRAND); }
MX_TEST(bit_manipulation) { run_forms(bit_forms, sizeof bit_forms / sizeof bit_forms[0], NRAND); }
MX_TEST(logic_shift) { run_forms(logic_forms, sizeof logic_forms / sizeof logic_forms[0], NRAND); }
MX_TEST(compare_select_mov) { run_forms(cmp_forms, sizeof cmp_forms / sizeof cmp_forms[0], NRAND); }

MX_TEST(lop3_luts)
{
    for (size_t i = 0; i < sizeof luts; i++) {
        char imm[8];
        snprintf(imm, sizeof imm, "%u", luts[i]);
        struct form f = { "lop3.b32", "r", "rrrr", "vvvv", 3, imm, luts[i] };
        run_ptx_case(&f, 1024, 0x10903 + i);
    }
}

/* prmt: every value of each selector nibble, all modes (selector c is
 * random over all 16 bits in the generic form). */
MX_TEST(prmt_all_selectors)
{
    for (unsigned sel = 0; sel < 16; sel++) {
        char imm[16];
        unsigned c = sel | ((sel + 5) & 15) << 4 | ((sel + 10) & 15) << 8 | ((15 - sel) & 15) << 12;
        snprintf(imm, sizeof imm, "%u", c);
        struct form f = { "prmt.b32", "r", "rrr", "vvv", 2, imm, c };
        run_ptx_case(&f, 256, 0x9e37 + sel);
    }
}

/* A 128-bit addition and subtraction with add.cc/addc.cc/addc (32-bit limbs)
 * and a 64x64 -> 128-bit multiply with mad.lo.cc/madc.hi(.cc) as in the
 * PTX ISA example, checked against __int128. */
static const char carry_chain_ptx[] = ".version 7.8\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 pin, .param .u64 pout, .param .u32 n)\n{\n"
    "  .reg .b32 %r<48>;\n  .reg .b64 %rd<48>;\n  .reg .pred %p<16>;\n"
    "  mov.u32 %r40, %ctaid.x;\n  mov.u32 %r41, %ntid.x;\n  mov.u32 %r42, %tid.x;\n"
    "  mad.lo.u32 %r43, %r40, %r41, %r42;\n  mov.u32 %r44, %nctaid.x;\n  mul.lo.u32 %r44, %r44, %r41;\n"
    "  ld.param.u32 %r45, [n];\n  ld.param.u64 %rd40, [pin];\n  ld.param.u64 %rd41, [pout];\n"
    "LOOP:\n"
    "  mul.wide.u32 %rd42, %r43, 32;\n  add.s64 %rd43, %rd40, %rd42;\n"
    "  mul.wide.u32 %rd42, %r43, 96;\n  add.s64 %rd44, %rd41, %rd42;\n"
    "  ld.global.v4.u32 {%r0, %r1, %r2, %r3}, [%rd43];\n"      /* x: 4 limbs */
    "  ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd43+16];\n"   /* y */
    "  add.cc.u32 %r8, %r0, %r4;\n  addc.cc.u32 %r9, %r1, %r5;\n  addc.cc.u32 %r10, %r2, %r6;\n"
    "  addc.cc.u32 %r11, %r3, %r7;\n  addc.u32 %r12, 0, 0;\n"
    "  st.global.v4.u32 [%rd44], {%r8, %r9, %r10, %r11};\n  st.global.u32 [%rd44+16], %r12;\n"
    "  sub.cc.u32 %r8, %r0, %r4;\n  subc.cc.u32 %r9, %r1, %r5;\n  subc.cc.u32 %r10, %r2, %r6;\n"
    "  subc.cc.u32 %r11, %r3, %r7;\n  addc.u32 %r12, 0, 0;\n"
    "  st.global.v4.u32 [%rd44+32], {%r8, %r9, %r10, %r11};\n  st.global.u32 [%rd44+48], %r12;\n"
    /* [r23,r22,r21,r20] = [r1,r0] * [r5,r4] */
    "  mul.lo.u32 %r20, %r0, %r4;\n  mul.hi.u32 %r21, %r0, %r4;\n"
    "  mad.lo.cc.u32 %r21, %r1, %r4, %r21;\n  madc.hi.u32 %r22, %r1, %r4, 0;\n"
    "  mad.lo.cc.u32 %r21, %r0, %r5, %r21;\n  madc.hi.cc.u32 %r22, %r0, %r5, %r22;\n"
    "  addc.u32 %r23, 0, 0;\n  mad.lo.cc.u32 %r22, %r1, %r5, %r22;\n  madc.hi.u32 %r23, %r1, %r5, %r23;\n"
    "  st.global.v4.u32 [%rd44+64], {%r20, %r21, %r22, %r23};\n"
    /* the same 128-bit sum with 64-bit limbs */
    "  mov.b64 %rd0, {%r0, %r1};\n  mov.b64 %rd1, {%r2, %r3};\n  mov.b64 %rd2, {%r4, %r5};\n  mov.b64 %rd3, {%r6, %r7};\n"
    "  add.cc.u64 %rd4, %rd0, %rd2;\n  addc.u64 %rd5, %rd1, %rd3;\n"
    "  st.global.v2.u64 [%rd44+80], {%rd4, %rd5};\n"
    "  add.u32 %r43, %r43, %r44;\n  setp.lt.u32 %p15, %r43, %r45;\n  @%p15 bra LOOP;\n  ret;\n}\n";

MX_TEST(carry_chains)
{
    const uint32_t nvec = NTHREADS * 2;
    uint32_t *in = calloc((size_t)nvec * 8, 4), *out = calloc((size_t)nvec * 24, 4);
    assert_non_null(in);
    assert_non_null(out);
    rng_state = 0xcafe;
    for (uint32_t v = 0; v < nvec * 8; v++)
        in[v] = (uint32_t)random_value(32);
    struct emu_fault fault;
    int rc = run_kernel(carry_chain_ptx, (const uint64_t *)in, (size_t)nvec * 4, (uint64_t *)out, (size_t)nvec * 12,
                        nvec, &fault);
    if (rc != MX_OK)
        fail_msg("launch failed: %s: %s", mx_status_name(rc), fault.message);
    for (uint32_t v = 0; v < nvec; v++) {
        const uint32_t *s = in + v * 8, *o = out + v * 24;
        u128 x = 0, y = 0, sum = 0, dif = 0, prod = 0, sum64 = 0;
        for (int i = 3; i >= 0; i--) {
            x = x << 32 | s[i];
            y = y << 32 | s[4 + i];
            sum = sum << 32 | o[i];
            dif = dif << 32 | o[8 + i];
            prod = prod << 32 | o[16 + i];
            sum64 = sum64 << 32 | o[20 + i];
        }
        uint64_t x64 = (uint64_t)x, y64 = (uint64_t)y;
        assert_true(sum == x + y);
        assert_int_equal(o[4], (x + y) < x);
        assert_true(dif == x - y);
        assert_int_equal(o[12], x < y);
        assert_true(prod == (u128)x64 * y64);
        assert_true(sum64 == x + y);
    }
    free(in);
    free(out);
}

/* mov pack/unpack ({a, b} vector operands) and sign extension into a wider register. */
static const char mov_vec_ptx[] = ".version 7.8\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 pin, .param .u64 pout, .param .u32 n)\n{\n"
    "  .reg .b16 %h<8>;\n  .reg .b32 %r<48>;\n  .reg .b64 %rd<48>;\n  .reg .s64 %sd<4>;\n  .reg .pred %p<16>;\n"
    "  mov.u32 %r40, %ctaid.x;\n  mov.u32 %r41, %ntid.x;\n  mov.u32 %r42, %tid.x;\n"
    "  mad.lo.u32 %r43, %r40, %r41, %r42;\n  mov.u32 %r44, %nctaid.x;\n  mul.lo.u32 %r44, %r44, %r41;\n"
    "  ld.param.u32 %r45, [n];\n  ld.param.u64 %rd40, [pin];\n  ld.param.u64 %rd41, [pout];\n"
    "LOOP:\n"
    "  mul.wide.u32 %rd42, %r43, 8;\n  add.s64 %rd43, %rd40, %rd42;\n"
    "  mul.wide.u32 %rd42, %r43, 64;\n  add.s64 %rd44, %rd41, %rd42;\n"
    "  ld.global.b64 %rd0, [%rd43];\n"
    "  mov.b64 {%r0, %r1}, %rd0;\n"                       /* unpack 2 x 32 */
    "  mov.b64 {%h0, %h1, %h2, %h3}, %rd0;\n"             /* unpack 4 x 16 */
    "  mov.b32 {%h4, %h5}, %r0;\n"                        /* unpack 2 x 16 */
    "  mov.b64 %rd1, {%r1, %r0};\n"                       /* pack swapped halves */
    "  mov.b64 %rd2, {%h3, %h2, %h1, %h0};\n"             /* pack reversed 16-bit parts */
    "  mov.b32 %r2, {%h5, %h4};\n"                        /* pack 2 x 16 */
    "  mov.b64 {_, %r3}, %rd0;\n"                         /* unpack with a sink */
    "  mov.b64 %rd3, {%r1, 7};\n"                         /* pack with an immediate */
    "  mov.s32 %sd0, %r0;\n"                              /* sign-extend into an .s64 register */
    "  mov.b64 {%r4, %r5}, %rd0;\n  mov.b64 {%r5, %r4}, %rd0;\n" /* reuse destinations */
    "  st.global.v2.u32 [%rd44], {%r0, %r1};\n"
    "  st.global.v4.u16 [%rd44+8], {%h0, %h1, %h2, %h3};\n"
    "  st.global.v2.u16 [%rd44+16], {%h4, %h5};\n"
    "  st.global.u64 [%rd44+24], %rd1;\n  st.global.u64 [%rd44+32], %rd2;\n"
    "  st.global.v2.u32 [%rd44+40], {%r2, %r3};\n  st.global.u64 [%rd44+48], %rd3;\n"
    "  st.global.u64 [%rd44+56], %sd0;\n"
    "  add.u32 %r43, %r43, %r44;\n  setp.lt.u32 %p15, %r43, %r45;\n  @%p15 bra LOOP;\n  ret;\n}\n";

MX_TEST(mov_pack_unpack)
{
    const uint32_t nvec = NTHREADS;
    uint64_t *in = calloc(nvec, 8), *out = calloc((size_t)nvec * 8, 8);
    assert_non_null(in);
    assert_non_null(out);
    rng_state = 0xbeef;
    for (uint32_t v = 0; v < nvec; v++)
        in[v] = random_value(64);
    struct emu_fault fault;
    int rc = run_kernel(mov_vec_ptx, in, nvec, out, (size_t)nvec * 8, nvec, &fault);
    if (rc != MX_OK)
        fail_msg("launch failed: %s: %s", mx_status_name(rc), fault.message);
    for (uint32_t v = 0; v < nvec; v++) {
        uint64_t a = in[v], *o = out + (size_t)v * 8;
        uint64_t lo = a & 0xffffffffu, hi = a >> 32;
        assert_int_equal(o[0], a);                                  /* {r0, r1} */
        assert_int_equal(o[1], a);                                  /* {h0..h3} */
        assert_int_equal(o[2] & 0xffffffffu, lo);                   /* {h4, h5} of r0 */
        assert_int_equal(o[3], hi | lo << 32);
        uint64_t rev = 0;
        for (int i = 0; i < 4; i++)
            rev |= ((a >> (16 * (3 - i))) & 0xffff) << (16 * i);
        assert_int_equal(o[4], rev);
        assert_int_equal(o[5] & 0xffffffffu, (lo >> 16) | (lo & 0xffff) << 16);
        assert_int_equal(o[5] >> 32, hi);
        assert_int_equal(o[6], hi | 7ull << 32);
        assert_int_equal(o[7], (uint64_t)(int64_t)(int32_t)(uint32_t)lo);
    }
    free(in);
    free(out);
}

/* Lanes outside the guard keep their old values: a predicated add.u16 and a
 * predicated setp on alternate lanes. */
static const char guard_ptx[] = ".version 7.8\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 pin, .param .u64 pout, .param .u32 n)\n{\n"
    "  .reg .b16 %h<8>;\n  .reg .b32 %r<48>;\n  .reg .b64 %rd<48>;\n  .reg .pred %p<16>;\n"
    "  mov.u32 %r42, %tid.x;\n  ld.param.u64 %rd41, [pout];\n"
    "  mul.wide.u32 %rd42, %r42, 8;\n  add.s64 %rd44, %rd41, %rd42;\n"
    "  and.b32 %r0, %r42, 1;\n  setp.eq.u32 %p0, %r0, 1;\n"
    "  mov.b32 %r1, 0x12345678;\n  mov.b16 %h0, 0xfff0;\n  mov.b16 %h1, 0;\n  setp.eq.u32 %p1, %r42, %r42;\n"
    "  @%p0 add.u32 %r1, %r1, %r42;\n  @!%p0 add.u16 %h0, %h0, 0x20;\n"
    "  @%p0 setp.ne.u32 %p1, %r42, %r42;\n  selp.u32 %r2, 0x10000, 0, %p1;\n"
    "  mov.b32 %r3, {%h0, %h1};\n  add.u32 %r3, %r3, %r2;\n"
    "  st.global.v2.u32 [%rd44], {%r1, %r3};\n  ret;\n}\n";

MX_TEST(guarded_lanes)
{
    uint32_t out[64 * 2];
    struct emu_fault fault;
    /* one warp-pair of 64 threads: grid 8 x 256 is fixed by run_kernel, so n is unused here */
    uint32_t *big = calloc((size_t)NTHREADS * 2, 4);
    assert_non_null(big);
    int rc = run_kernel(guard_ptx, NULL, 0, (uint64_t *)big, NTHREADS, NTHREADS, &fault);
    if (rc != MX_OK)
        fail_msg("launch failed: %s: %s", mx_status_name(rc), fault.message);
    memcpy(out, big, sizeof out);
    free(big);
    for (uint32_t t = 0; t < 64; t++) {
        int odd = t & 1;
        assert_int_equal(out[2 * t], odd ? 0x12345678u + t : 0x12345678u);
        assert_int_equal(out[2 * t + 1], (odd ? 0xfff0u : 0x0010u) + (odd ? 0 : 0x10000u));
    }
}

/* Integer division by zero and MIN / -1 run without a host trap (a SIGFPE
 * would kill this test program) and give all ones / MIN. */
MX_TEST(div_by_zero_no_trap)
{
    static const struct form f[] = {
        { "div.s32", "r", "rr", "vv", 1, "0", 0 },   { "rem.u64", "l", "ll", "vv", 1, "0", 0 },
        { "div.s32", "r", "rr", "vv", 1, "-1", 0xffffffffu }, { "rem.s64", "l", "ll", "vv", 1, "-1", ~0ull },
        { "div.s16", "h", "hh", "vv", 1, "-1", 0xffff },
    };
    run_forms(f, sizeof f / sizeof f[0], 256);
}

/* The binders leave floating-point forms of shared opcodes to exec_fp.c
 * (NULL here), and return NULL for modifier combinations PTX does not have. */
MX_TEST(binder_float_and_invalid_forms_unbound)
{
    assert_int_equal(mx_isa_init(), 0);
    struct { int op, t0, t1; int g, v; } cases[] = {
        { MX_OP_ADD, MX_T_F32, 0, 0, 0 },   { MX_OP_SUB, MX_T_F64, 0, 0, 0 },  { MX_OP_MUL, MX_T_F16, 0, 0, 0 },
        { MX_OP_MAD, MX_T_F32, 0, 0, 0 },   { MX_OP_MIN, MX_T_F32, 0, 0, 0 },  { MX_OP_MAX, MX_T_BF16, 0, 0, 0 },
        { MX_OP_ABS, MX_T_F64, 0, 0, 0 },   { MX_OP_NEG, MX_T_F16X2, 0, 0, 0 }, { MX_OP_DIV, MX_T_F32, 0, 0, 0 },
        { MX_OP_SETP, MX_T_F32, 0, MX_MG_CMP, MX_CMP_LT }, { MX_OP_SETP, MX_T_F16, 0, MX_MG_CMP, MX_CMP_EQU },
        { MX_OP_SET, MX_T_U32, MX_T_F32, MX_MG_CMP, MX_CMP_LT }, { MX_OP_SLCT, MX_T_F32, MX_T_F32, 0, 0 },
        { MX_OP_SETP, MX_T_S32, 0, MX_MG_CMP, MX_CMP_NAN }, /* float-only comparison */
        { MX_OP_ADD, MX_T_U32, 0, MX_MG_SAT, MX_SAT_SAT },  /* .sat only on s32 */
        { MX_OP_MIN, MX_T_U32, 0, MX_MG_RELU, MX_RELU_RELU }, /* .relu only on s32 */
        { MX_OP_VABSDIFF4, MX_T_U32, MX_T_U32, MX_MG_VOP, MX_VOP_MIN }, /* no .min secondary for vop4 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct mx_insn in;
        memset(&in, 0, sizeof in);
        in.op = (uint16_t)cases[i].op;
        in.type[0] = (uint8_t)cases[i].t0;
        in.type[1] = (uint8_t)cases[i].t1;
        if (cases[i].op == MX_OP_VABSDIFF4)
            in.type[2] = MX_T_U32;
        if (cases[i].g)
            in.mod[cases[i].g] = (uint8_t)cases[i].v;
        in.nopd = mx_opinfo(in.op)->nopd;
        for (int s = 0; s < in.nopd; s++)
            in.opd[s].kind = MX_OPD_REG;
        if (in.op == MX_OP_SETP) {
            in.opd[0].kind = in.opd[1].kind = MX_OPD_PRED;
            in.opd[4].kind = MX_OPD_NONE;
        }
        if (in.op == MX_OP_SET)
            in.opd[3].kind = MX_OPD_NONE;
        for (const struct emu_bind_row *r = emu_bind_int; r->op >= 0; r++) {
            if (r->op != cases[i].op)
                continue;
            struct emu_xinsn x;
            memset(&x, 0, sizeof x);
            if (r->bind(&in, &x))
                fail_msg("case %zu: %s bound by exec_int.c", i, mx_opinfo(in.op)->mnemonic);
        }
    }
}

/* Known answers recorded on NVIDIA GPUs: the inputs and outputs of ZLUDA's
 * CUDA-run test twins (vosen/ZLUDA ptx/src/test/spirv_run/mod.rs: mul24_*,
 * dp4a, dp2a, shf_*, bmsk_clamp_b32, bfe, bfi, prmt_slow, sad_s64,
 * add_s32_sat, abs, mul_hi, mul_wide, clz, popc, brev, rem). */
struct known {
    struct form f;
    uint64_t in[4];
    uint64_t out;
};

static const struct known known_answers[] = {
    { { "mul24.lo.u32", "r", "rr", "vv", NOIMM }, { 0x755555, 0x755555 }, 0x1c238e39 },
    { { "mul24.hi.u32", "r", "rr", "vv", NOIMM }, { 0x755555, 0x755555 }, 0x35c71c23 },
    { { "mul24.lo.s32", "r", "rr", "vv", NOIMM }, { 0x755555, 0xff8aaaab }, 0xe3dc71c7 },
    { { "mul24.hi.s32", "r", "rr", "vv", NOIMM }, { 0x755555, 0xff8aaaab }, 0xca38e3dc },
    { { "dp4a.s32.s32", "r", "rrr", "vvv", NOIMM }, { 0x8e2da590, 0xedeaee14, 0x248a9f70 }, 613065134 },
    { { "dp2a.hi.s32.s32", "r", "rrr", "vvv", NOIMM }, { 0x8e2da590, 0xedeaee14, 0x248a9f70 }, 614127545 },
    { { "shf.l.wrap.b32", "r", "rrr", "vvs", NOIMM }, { 0x12345678, 0x9abcdef0, 12 }, 0xcdef0123 },
    { { "shf.r.wrap.b32", "r", "rrr", "vvs", NOIMM }, { 0x12345678, 0x9abcdef0, 12 }, 0xef012345 },
    { { "shf.l.clamp.b32", "r", "rrr", "vvs", NOIMM }, { 0x12345678, 0x9abcdef0, 44 }, 0x12345678 },
    { { "shf.r.clamp.b32", "r", "rrr", "vvs", NOIMM }, { 0x12345678, 0x9abcdef0, 44 }, 0x9abcdef0 },
    { { "shf.l.wrap.b32", "r", "rrr", "vvs", NOIMM }, { 0x12345678, 0x9abcdef0, 44 }, 0xcdef0123 },
    { { "shf.r.wrap.b32", "r", "rrr", "vvs", NOIMM }, { 0x12345678, 0x9abcdef0, 44 }, 0xef012345 },
    { { "bmsk.clamp.b32", "r", "rr", "ee", NOIMM }, { 24, 12 }, 0xff000000 },
    { { "bfe.u32", "r", "rrr", "vee", NOIMM }, { 0xf8c122a0, 16, 8 }, 0xc1 },
    { { "bfi.b32", "r", "rrrr", "vvee", NOIMM }, { 2, 5, 0, 2 }, 6 },
    { { "prmt.b32", "r", "rrr", "vvv", NOIMM }, { 0x70c507d6, 0x6fbd4b5c, 30212 }, 0x6fbdd65c },
    { { "sad.s64", "l", "lll", "vvv", NOIMM }, { 12, (uint64_t)-38, 915 }, 965 },
    { { "add.sat.s32", "r", "rr", "vv", NOIMM }, { 0x80000000u, 0xffffffffu }, 0x80000000u },
    { { "abs.s32", "r", "r", "v", NOIMM }, { 0x80000000u }, 0x80000000u },
    { { "mul.hi.u64", "l", "ll", "vv", NOIMM }, { ~0ull, 2 }, 1 },
    { { "mul.wide.s32", "l", "rr", "vv", NOIMM }, { 0x01000000, 0x01000000 }, 0x1000000000000ull },
    { { "clz.b32", "r", "r", "v", NOIMM }, { 0x052d13ab }, 5 },
    { { "popc.b32", "r", "r", "v", NOIMM }, { 0xbc92498a }, 14 },
    { { "brev.b32", "r", "r", "v", NOIMM }, { 0xc75caefb }, 0xdf753ae3 },
    { { "rem.s32", "r", "rr", "vv", NOIMM }, { 21692, 13 }, 8 },
};

MX_TEST(known_answers_from_gpu)
{
    for (size_t k = 0; k < sizeof known_answers / sizeof known_answers[0]; k++) {
        const struct known *ka = &known_answers[k];
        int ns = (int)strlen(ka->f.src);
        uint64_t *in = calloc((size_t)NTHREADS * (size_t)ns, 8), *out = calloc(NTHREADS, 8);
        assert_non_null(in);
        assert_non_null(out);
        for (uint32_t v = 0; v < NTHREADS; v++)
            memcpy(in + (size_t)v * (size_t)ns, ka->in, (size_t)ns * 8);
        char *ptx = build_ptx(&ka->f);
        struct emu_fault fault;
        int rc = run_kernel(ptx, in, (size_t)NTHREADS * (size_t)ns, out, NTHREADS, NTHREADS, &fault);
        if (rc != MX_OK)
            fail_msg("%s: launch failed: %s: %s", ka->f.op, mx_status_name(rc), fault.message);
        uint64_t want = zx(ka->out, opnd_width(ka->f.dst[0]));
        for (uint32_t v = 0; v < NTHREADS; v++)
            if (out[v] != want)
                fail_msg("%s: lane %u: expected %#" PRIx64 ", got %#" PRIx64, ka->f.op, v, want, out[v]);
        /* the reference model agrees with the hardware too */
        uint64_t exp[4] = { 0 };
        int cout;
        assert_int_equal(ref_eval(ka->f.op, ka->in, 0, exp, &cout), 0);
        if (zx(exp[0], opnd_width(ka->f.dst[0])) != want)
            fail_msg("%s: reference model gives %#" PRIx64 ", GPU %#" PRIx64, ka->f.op, exp[0], want);
        free(ptx);
        free(in);
        free(out);
    }
}

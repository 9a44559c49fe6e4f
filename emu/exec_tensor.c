/* emu/exec_tensor.c — warp-level matrix instructions (tensor cores):
 * wmma.load.{a,b,c}, wmma.store.d, wmma.mma, mma.sync and ldmatrix.  Owns
 * the fragment layouts (which lane holds which matrix element) and the
 * multiply-accumulate arithmetic; memory goes through emu_mem_lane().
 *
 * Fragment layout.  mma.sync uses the layouts the PTX ISA gives per lane
 * ("Matrix Fragments for mma.mMnNkK"): with g = %laneid >> 2 and
 * t = %laneid % 4, and e elements of the type per 32-bit register (2 for
 * f16/bf16, 4 for s8/u8, 1 for tf32/f32/s32/f64),
 *   A (M x K, M = 8 or 16): register r holds row g + 8 * (r % (M/8)),
 *       columns (r / (M/8)) * 4e + t * e + [0, e)
 *   B (K x 8): register r holds column g, rows r * 4e + t * e + [0, e)
 *   C/D (M x 8): element i is row g + 8 * (i / 2), column t * 2 + i % 2
 * which is every shape/type below (m16n8k16, m16n8k8, m16n8k4, m16n8k32,
 * m8n8k16, m8n8k4 f64).  The wmma layout is implementation-defined; ours is
 * the same rule on the wmma tile cut into mma tiles: A in 16-row (or one
 * 8-row) tiles stacked, B in 8-column tiles side by side, C/D in M' x 8
 * tiles in row-major tile order (M' = 16, or 8 for m8n32k16).  An f16 A/B
 * fragment has 8 registers, more than its elements need: the unique ones
 * come first and are repeated (load writes every copy, mma and element-wise
 * use read the first), so element-wise code on fragments stays consistent.
 *
 * Arithmetic (docs/ptx-coverage.md, "Tensor cores"): every element of D is
 * C's element followed by one step per k = 0, 1, ..., K-1 in order;
 * floating point: acc = fma(a[k], b[k], acc) rounded once to f32 (f16, bf16
 * and tf32 inputs; an f16 C is widened exactly, an f16 D rounded to nearest
 * at the end) or to f64 (f64 inputs); tf32 inputs keep their top 19 bits
 * (the low 13 bits of the register are ignored, truncation); NaN results
 * are the canonical NaN.  Integer: exact sum in 64 bits, then wrapped to
 * 32 bits, or clamped with .satfinite. */
#include "emu/interp.h"
#include "emu/access.h"
#include "emu/fpround.h"

#include <math.h>

/* Element kinds of fragments and memory. */
enum { TK_F16, TK_BF16, TK_TF32, TK_F32, TK_F64, TK_S8, TK_U8, TK_S32, TK_NONE };
static const uint8_t tk_bits[] = { 16, 16, 32, 32, 64, 8, 8, 32 };

static int tkind(int t)
{
    switch (t) {
    case MX_T_F16: return TK_F16;
    case MX_T_BF16: return TK_BF16;
    case MX_T_TF32: return TK_TF32;
    case MX_T_F32: return TK_F32;
    case MX_T_F64: return TK_F64;
    case MX_T_S8: return TK_S8;
    case MX_T_U8: return TK_U8;
    case MX_T_S32: return TK_S32;
    default: return TK_NONE;
    }
}

/* Elements of kind k per 32-bit register (a 64-bit one for f64). */
static inline unsigned tk_epr(int k) { return tk_bits[k] >= 32 ? 1 : 32u / tk_bits[k]; }

/* The operands of a matrix instruction. */
enum { OPA, OPB, OPC };

/* The decoded form, packed by the binders into x->aux and x->aux2:
 *   aux:  M | N << 6 | K << 12 | operand << 18 | col-major A (or memory) << 20 | col-major B << 21
 *         | satfinite << 22
 *   aux2: kind of A | B << 4 | C << 8 | D << 12 | copies of the fragment (wmma.load) << 16
 *   flags bits 0..3: operand slot s is one register, not a {vector}  */
#define F_M(x) ((x)->aux & 63u)
#define F_N(x) (((x)->aux >> 6) & 63u)
#define F_K(x) (((x)->aux >> 12) & 63u)
#define F_OP(x) (((x)->aux >> 18) & 3u)
#define F_COLA(x) (((x)->aux >> 20) & 1u)
#define F_COLB(x) (((x)->aux >> 21) & 1u)
#define F_SATF(x) (((x)->aux >> 22) & 1u)
#define F_KA(x) ((x)->aux2 & 15u)
#define F_KB(x) (((x)->aux2 >> 4) & 15u)
#define F_KC(x) (((x)->aux2 >> 8) & 15u)
#define F_KD(x) (((x)->aux2 >> 12) & 15u)
#define F_COPIES(x) (((x)->aux2 >> 16) & 15u)
#define XF_ONEREG(s) (1u << (s))

/* Row r and column c of element j of lane l's share of operand op (A: M x K,
 * B: K x N, C/D: M x N) with epr elements per register (the header's rule). */
static inline void frag_rc(int op, unsigned M, unsigned N, unsigned K, unsigned epr, unsigned l, unsigned j,
                           unsigned *r, unsigned *c)
{
    unsigned g = l >> 2, t = l & 3, mt = M >= 16 ? 16 : 8;
    if (op == OPA) {
        unsigned per = mt * K / 32, rt = j / per, jj = j % per, reg = jj / epr, e = jj % epr, rp = mt / 8;
        *r = rt * 16 + g + 8 * (reg % rp);
        *c = (reg / rp) * 4 * epr + t * epr + e;
    } else if (op == OPB) {
        unsigned per = K / 4, ct = j / per, jj = j % per, reg = jj / epr, e = jj % epr;
        *r = reg * 4 * epr + t * epr + e;
        *c = ct * 8 + g;
    } else {
        unsigned per = mt / 4, tt = j / per, i = j % per, nct = N / 8;
        *r = (tt / nct) * 16 + g + 8 * (i >> 1);
        *c = (tt % nct) * 8 + t * 2 + (i & 1);
    }
}

/* Rows and columns of operand op. */
static inline void op_dims(int op, unsigned M, unsigned N, unsigned K, unsigned *rows, unsigned *cols)
{
    *rows = op == OPB ? K : M;
    *cols = op == OPA ? K : N;
}

/* Register references of operand slot s: a {vector}'s elements, or the one register. */
static inline const uint32_t *opd_refs(const struct emu_warp *w, const struct emu_xinsn *x, int s)
{
    return (x->flags & XF_ONEREG(s)) ? &x->r[s] : &w->k->vrefs[x->r[s]];
}

static inline uint64_t ref_get(const struct emu_warp *w, uint32_t ref, unsigned l)
{
    return (ref & REF_CONST) ? w->consts[ref & ~REF_CONST][l] : w->regs[(size_t)ref * WARP + l];
}

static inline void ref_set(struct emu_warp *w, uint32_t ref, unsigned l, uint64_t v)
{
    if (!(ref & REF_CONST))
        w->regs[(size_t)ref * WARP + l] = v;
}

/* Element j of a fragment of kind k held in registers refs (the first copy), lane l: its bits. */
static inline uint64_t frag_elem(const struct emu_warp *w, const uint32_t *refs, int k, unsigned l, unsigned j)
{
    unsigned epr = tk_epr(k), bits = tk_bits[k];
    uint64_t v = ref_get(w, refs[j / epr], l);
    return bits >= 64 ? v : (v >> ((j % epr) * bits)) & ((1ull << bits) - 1);
}

/* The lanes of a .sync.aligned instruction: the whole warp. */
static int need_full(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    if (m == FULL_MASK)
        return 0;
    char name[96];
    emu_insn_name(x->in, name, sizeof name);
    return emu_fault(w, x, MX_EILLEGAL, __builtin_ctz(m), 0, 0,
                     "%s executed by lanes 0x%08x: a .sync.aligned matrix instruction needs all 32 threads of the warp",
                     name, m);
}

/* ------------------------------------------------------------- arithmetic */

/* a * b + acc rounded once to f32 (the product of two tf32/bf16/f16 values
 * is exact in double; the round-to-odd sum then rounds correctly to f32). */
static inline float fma_f32(float a, float b, float acc)
{
    return (float)fpr_add_odd((double)acc, (double)a * (double)b);
}

/* Value of a floating-point A/B element of kind k as f32 (exact). */
static inline float in_f32(uint64_t bits, int k)
{
    switch (k) {
    case TK_F16: return fpr_f32(fpr_f16_to_f32((uint32_t)bits));
    case TK_BF16: return fpr_f32(fpr_bf16_to_f32((uint32_t)bits));
    case TK_TF32: return fpr_f32((uint32_t)bits & 0xffffe000u); /* tf32: the low 13 bits are ignored */
    default: return fpr_f32((uint32_t)bits);
    }
}

static inline int64_t in_int(uint64_t bits, int k)
{
    return k == TK_S8 ? (int8_t)(uint8_t)bits : k == TK_U8 ? (int64_t)(uint8_t)bits : (int32_t)(uint32_t)bits;
}

#define MAXD 32 /* largest M, N or K */

/* The operands of one warp's matrix product, gathered from the fragments. */
struct mm {
    unsigned M, N, K;
    union { float f[MAXD * MAXD]; double d[MAXD * MAXD]; int64_t i[MAXD * MAXD]; } a, b, c;
};

/* Gathers operand op (kind k, registers in slot s) of every lane into its
 * dense matrix (row-major) as f32, f64 or integer values. */
static void gather(const struct emu_warp *w, const struct emu_xinsn *x, struct mm *p, int op, int s, int k, void *dst)
{
    unsigned rows, cols, epr = tk_epr(k);
    op_dims(op, p->M, p->N, p->K, &rows, &cols);
    unsigned n = rows * cols / WARP;
    const uint32_t *refs = opd_refs(w, x, s);
    for (unsigned l = 0; l < WARP; l++)
        for (unsigned j = 0; j < n; j++) {
            unsigned r, c;
            frag_rc(op, p->M, p->N, p->K, epr, l, j, &r, &c);
            uint64_t v = frag_elem(w, refs, k, l, j);
            if (k == TK_F64)
                ((double *)dst)[r * cols + c] = fpr_f64(v);
            else if (k == TK_S8 || k == TK_U8 || k == TK_S32)
                ((int64_t *)dst)[r * cols + c] = in_int(v, k);
            else
                ((float *)dst)[r * cols + c] = in_f32(v, k);
        }
}

/* Opcode: wmma.mma.sync.aligned.alayout.blayout.shape.dtype.atype.btype.ctype{.rn}{.satfinite} d, a, b, c
 *         mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype d, a, b, c
 * Synopsis: D = A * B + C for the warp (fragments per lane, see the file header) */
static int h_mma(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    if (need_full(w, x, m))
        return EX_FAULT;
    struct mm p;
    p.M = F_M(x);
    p.N = F_N(x);
    p.K = F_K(x);
    int ka = (int)F_KA(x), kb = (int)F_KB(x), kc = (int)F_KC(x), kd = (int)F_KD(x);
    unsigned M = p.M, N = p.N, K = p.K;
    int fl = ka == TK_F64 ? 2 : (ka == TK_S8 || ka == TK_U8) ? 1 : 0; /* 0 f32, 1 integer, 2 f64 */
    gather(w, x, &p, OPA, 1, ka, fl == 2 ? (void *)p.a.d : fl == 1 ? (void *)p.a.i : (void *)p.a.f);
    gather(w, x, &p, OPB, 2, kb, fl == 2 ? (void *)p.b.d : fl == 1 ? (void *)p.b.i : (void *)p.b.f);
    gather(w, x, &p, OPC, 3, kc, fl == 2 ? (void *)p.c.d : fl == 1 ? (void *)p.c.i : (void *)p.c.f);
    /* D = C + sum over k in order, into p.c */
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            if (fl == 0) {
                float acc = p.c.f[i * N + j];
                for (unsigned k = 0; k < K; k++)
                    acc = fma_f32(p.a.f[i * K + k], p.b.f[k * N + j], acc);
                p.c.f[i * N + j] = acc;
            } else if (fl == 2) {
                double acc = p.c.d[i * N + j];
                for (unsigned k = 0; k < K; k++)
                    acc = fma(p.a.d[i * K + k], p.b.d[k * N + j], acc);
                p.c.d[i * N + j] = acc;
            } else {
                int64_t acc = p.c.i[i * N + j];
                for (unsigned k = 0; k < K; k++)
                    acc += p.a.i[i * K + k] * p.b.i[k * N + j];
                if (F_SATF(x))
                    acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                p.c.i[i * N + j] = (int32_t)(uint32_t)(uint64_t)acc; /* wraps modulo 2^32 */
            }
        }
    /* scatter D: every lane's registers assembled, then written (D may be C's registers) */
    const uint32_t *refs = opd_refs(w, x, 0);
    unsigned epr = tk_epr(kd), bits = tk_bits[kd], n = M * N / WARP;
    for (unsigned l = 0; l < WARP; l++) {
        uint64_t regs[8] = { 0 };
        for (unsigned j = 0; j < n; j++) {
            unsigned r, c;
            frag_rc(OPC, M, N, K, epr, l, j, &r, &c);
            uint64_t v;
            if (kd == TK_F64) {
                double d = p.c.d[r * N + c];
                v = d != d ? FPR_NAN_F64 : fpr_b64(d);
            } else if (kd == TK_S32) {
                v = (uint32_t)p.c.i[r * N + c];
            } else {
                float f = p.c.f[r * N + c];
                v = kd == TK_F16 ? fpr_f32_to_f16_rn(fpr_b32(f)) : f != f ? FPR_NAN_F32 : fpr_b32(f);
            }
            regs[j / epr] |= bits >= 64 ? v : v << ((j % epr) * bits);
        }
        for (unsigned q = 0; q < n / epr; q++)
            ref_set(w, refs[q], l, regs[q]);
    }
    return EX_NEXT;
}

/* ----------------------------------------------------------- wmma memory */

/* Address of lane l's [reg+imm] operand in slot s (as ld computes it). */
static inline uint64_t lane_addr(const struct emu_warp *w, const struct emu_xinsn *x, int s, unsigned l)
{
    return emu_lane_addr(w, x, SRC(s), (int)l);
}

/* Stride (elements between rows, or columns for col-major) of lane l: the
 * operand in slot s, or the matrix's own width when there is none. */
static inline uint64_t lane_stride(const struct emu_warp *w, const struct emu_xinsn *x, int s, unsigned l,
                                   unsigned rows, unsigned cols)
{
    if (x->r[s] == REF_NONE)
        return F_COLA(x) ? rows : cols;
    return (uint32_t)SRC(s)[l];
}

/* The memory interface's request for a wmma.load/store of the tile whose
 * first element lane `l0` addresses: the tile's rows (columns when
 * col-major) cut into chunks, one per request lane, at most 32. */
static int tile_request(struct emu_warp *w, const struct emu_xinsn *x, int op, int ms, int ss, unsigned l0)
{
    unsigned rows, cols, esz = (unsigned)x->size;
    op_dims((int)F_OP(x), F_M(x), F_N(x), F_K(x), &rows, &cols);
    unsigned major = F_COLA(x) ? cols : rows, minor = F_COLA(x) ? rows : cols;
    unsigned bytes = minor * esz, chunk = 16;
    while (major * ((bytes + chunk - 1) / chunk) > WARP && chunk < 128)
        chunk *= 2;
    if (chunk > bytes)
        chunk = bytes;
    uint64_t base = lane_addr(w, x, ms, l0), stride = lane_stride(w, x, ss, l0, rows, cols);
    uint64_t addr[WARP];
    uint32_t lanes = 0;
    unsigned n = 0;
    for (unsigned r = 0; r < major && n < WARP; r++)
        for (unsigned o = 0; o < bytes && n < WARP; o += chunk, n++) {
            addr[n] = base + (r * stride) * esz + o;
            lanes |= 1u << n;
        }
    return emu_mem_request(w, x, op, -1, lanes, addr, chunk, 0);
}

/* Opcode: wmma.load.{a,b,c}.sync.aligned.layout.shape{.space}.type d, [p]{, stride}
 * Synopsis: fragment d = the tile at p (elements (r, c) at p + (r * stride + c) * size, col-major: c * stride + r) */
static int h_wmma_load(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    if (need_full(w, x, m))
        return EX_FAULT;
    if (__builtin_expect(w->dev->cfg.memif != NULL, 0) && !w->completing) {
        int r = tile_request(w, x, MX_MOP_LD, 1, 2, 0);
        if (r)
            return r;
    }
    int op = (int)F_OP(x), k = (int)F_KA(x);
    unsigned rows, cols, epr = tk_epr(k), bits = tk_bits[k], esz = x->size, copies = F_COPIES(x);
    op_dims(op, F_M(x), F_N(x), F_K(x), &rows, &cols);
    unsigned n = rows * cols / WARP, nreg = n / epr;
    const uint32_t *refs = opd_refs(w, x, 0);
    for (unsigned l = 0; l < WARP; l++) {
        uint64_t base = lane_addr(w, x, 1, l), stride = lane_stride(w, x, 2, l, rows, cols), regs[16] = { 0 };
        for (unsigned j = 0; j < n; j++) {
            unsigned r, c;
            frag_rc(op, F_M(x), F_N(x), F_K(x), epr, l, j, &r, &c);
            uint64_t a = base + ((F_COLA(x) ? c : r) * stride + (F_COLA(x) ? r : c)) * esz;
            const uint8_t *p = emu_mem_lane(w, x, x->space, a, esz, (int)l, 0);
            if (!p)
                return EX_FAULT;
            uint64_t v = 0;
            memcpy(&v, p, esz); /* little-endian host */
            regs[j / epr] |= bits >= 64 ? v : v << ((j % epr) * bits);
        }
        for (unsigned cp = 0; cp < copies; cp++)
            for (unsigned q = 0; q < nreg; q++)
                ref_set(w, refs[cp * nreg + q], l, regs[q]);
    }
    return EX_NEXT;
}

/* Opcode: wmma.store.d.sync.aligned.layout.shape{.space}.type [p], d{, stride}
 * Synopsis: the tile at p = fragment d (addresses as wmma.load) */
static int h_wmma_store(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    if (need_full(w, x, m))
        return EX_FAULT;
    if (__builtin_expect(w->dev->cfg.memif != NULL, 0) && !w->completing) {
        int r = tile_request(w, x, MX_MOP_ST, 0, 2, 0);
        if (r)
            return r;
    }
    int k = (int)F_KA(x);
    unsigned rows, cols, esz = x->size;
    op_dims(OPC, F_M(x), F_N(x), F_K(x), &rows, &cols);
    unsigned n = rows * cols / WARP;
    const uint32_t *refs = opd_refs(w, x, 1);
    for (unsigned l = 0; l < WARP; l++) {
        uint64_t base = lane_addr(w, x, 0, l), stride = lane_stride(w, x, 2, l, rows, cols);
        for (unsigned j = 0; j < n; j++) {
            unsigned r, c;
            frag_rc(OPC, F_M(x), F_N(x), F_K(x), tk_epr(k), l, j, &r, &c);
            uint64_t a = base + ((F_COLA(x) ? c : r) * stride + (F_COLA(x) ? r : c)) * esz;
            uint8_t *p = emu_mem_lane(w, x, x->space, a, esz, (int)l, 1);
            if (!p)
                return EX_FAULT;
            uint64_t v = frag_elem(w, refs, k, l, j);
            memcpy(p, &v, esz); /* little-endian host */
        }
    }
    return EX_NEXT;
}

/* --------------------------------------------------------------- ldmatrix */

/* ldmatrix/stmatrix: the memory hierarchy's request for the 8 x num rows of 16 bytes whose addresses lanes 0 ..
 * 8 num - 1 give in memory operand slot s (op: MX_MOP_LD or MX_MOP_ST); 0, or the request's answer. */
static int xmatrix_request(struct emu_warp *w, const struct emu_xinsn *x, int s, unsigned num, int op)
{
    if (__builtin_expect(w->dev->cfg.memif == NULL, 1) || w->completing)
        return 0;
    uint64_t addr[WARP];
    for (unsigned l = 0; l < 8 * num; l++)
        addr[l] = lane_addr(w, x, s, l);
    return emu_mem_request(w, x, op, -1, (uint32_t)((1ull << (8 * num)) - 1), addr, 16, 0);
}

/* Where half h (0 low, 1 high) of lane l's register for 8x8 matrix i sits: row *r of the 8 num rows, column *c. */
static inline void xmatrix_pos(unsigned i, unsigned l, unsigned h, unsigned trans, unsigned *r, unsigned *c)
{
    unsigned g = l >> 2, t = l & 3;
    *r = 8 * i + (trans ? 2 * t + h : g);
    *c = trans ? g : 2 * t + h;
}

/* Opcode: ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16 d, [p]
 * Synopsis: d[i] of lane l = elements (l/4, 2(l%4)) and (l/4, 2(l%4)+1) of 8x8 matrix i, whose row r lane 8i+r addresses
 * With .trans the lane gets elements (2(l%4), l/4) and (2(l%4)+1, l/4). */
static int h_ldmatrix(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    if (need_full(w, x, m))
        return EX_FAULT;
    unsigned num = x->aux & 7, trans = (x->aux >> 3) & 1;
    int rq = xmatrix_request(w, x, 1, num, MX_MOP_LD);
    if (rq)
        return rq;
    /* the 8 * num rows, 16 bytes each, read first (a destination may be an address register) */
    uint16_t rowv[32][8];
    for (unsigned l = 0; l < 8 * num; l++) {
        uint64_t a = lane_addr(w, x, 1, l);
        if (a & 15)
            return emu_fault(w, x, MX_EMISALIGNED, (int)l, a, 16,
                             "ldmatrix: row address 0x%llx of lane %u is not 16-byte aligned", (unsigned long long)a, l);
        const uint8_t *p = emu_mem_lane(w, x, x->space, a, 16, (int)l, 0);
        if (!p)
            return EX_FAULT;
        memcpy(rowv[l], p, 16); /* little-endian host */
    }
    const uint32_t *refs = opd_refs(w, x, 0);
    for (unsigned i = 0; i < num; i++)
        for (unsigned l = 0; l < WARP; l++) {
            unsigned r0, c0, r1, c1;
            xmatrix_pos(i, l, 0, trans, &r0, &c0);
            xmatrix_pos(i, l, 1, trans, &r1, &c1);
            ref_set(w, refs[i], l, rowv[r0][c0] | (uint32_t)rowv[r1][c1] << 16);
        }
    return EX_NEXT;
}

/* Opcode: stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16 [p], r
 * Synopsis: the inverse of ldmatrix: r[i] of lane l holds elements (l/4, 2(l%4)) and (l/4, 2(l%4)+1) of 8x8 matrix
 * i (with .trans: (2(l%4), l/4) and (2(l%4)+1, l/4)), whose row r is stored at the address of lane 8i+r */
static int h_stmatrix(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    if (need_full(w, x, m))
        return EX_FAULT;
    unsigned num = x->aux & 7, trans = (x->aux >> 3) & 1;
    int rq = xmatrix_request(w, x, 0, num, MX_MOP_ST);
    if (rq)
        return rq;
    uint16_t rowv[32][8];
    const uint32_t *refs = opd_refs(w, x, 1);
    for (unsigned i = 0; i < num; i++)
        for (unsigned l = 0; l < WARP; l++) {
            uint32_t v = (uint32_t)ref_get(w, refs[i], l);
            for (unsigned h = 0; h < 2; h++) {
                unsigned r, c;
                xmatrix_pos(i, l, h, trans, &r, &c);
                rowv[r][c] = (uint16_t)(v >> 16 * h);
            }
        }
    for (unsigned l = 0; l < 8 * num; l++) { /* every address checked before the first row is stored */
        uint64_t a = lane_addr(w, x, 0, l);
        if (a & 15)
            return emu_fault(w, x, MX_EMISALIGNED, (int)l, a, 16,
                             "stmatrix: row address 0x%llx of lane %u is not 16-byte aligned", (unsigned long long)a, l);
        if (!emu_mem_lane(w, x, x->space, a, 16, (int)l, 1))
            return EX_FAULT;
    }
    for (unsigned l = 0; l < 8 * num; l++)
        memcpy(emu_mem_lane(w, x, x->space, lane_addr(w, x, 0, l), 16, (int)l, 1), rowv[l], 16);
    return EX_NEXT;
}

/* Opcode: movmatrix.sync.aligned.m8n8.trans.b16 d, a
 * Synopsis: a of lane l holds elements (l/4, 2(l%4)) and (l/4, 2(l%4)+1) of an 8x8 matrix of 16-bit elements (low
 * half first); d of lane l gets elements (2(l%4), l/4) and (2(l%4)+1, l/4): its transpose in the same layout */
static int h_movmatrix(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    if (need_full(w, x, m))
        return EX_FAULT;
    uint32_t a[WARP], rd = opd_refs(w, x, 0)[0], ra = opd_refs(w, x, 1)[0];
    for (unsigned l = 0; l < WARP; l++) /* every lane's a before any d (d may be a) */
        a[l] = (uint32_t)ref_get(w, ra, l);
    for (unsigned l = 0; l < WARP; l++) {
        uint32_t v = 0;
        for (unsigned h = 0; h < 2; h++) {
            unsigned r = 2 * (l & 3) + h, c = l >> 2; /* element (r, c) of a: lane 4r + c/2, half c%2 */
            v |= (a[4 * r + c / 2] >> 16 * (c & 1) & 0xffff) << 16 * h;
        }
        ref_set(w, rd, l, v);
    }
    return EX_NEXT;
}

/* ---------------------------------------------------------------- binders */

/* M, N, K of a shape modifier, 0 if none of ours. */
static int shape_mnk(int shape, unsigned *M, unsigned *N, unsigned *K)
{
    static const struct { int s; uint8_t m, n, k; } t[] = {
        { MX_SHAPE_M16N16K16, 16, 16, 16 }, { MX_SHAPE_M32N8K16, 32, 8, 16 }, { MX_SHAPE_M8N32K16, 8, 32, 16 },
        { MX_SHAPE_M16N16K8, 16, 16, 8 },   { MX_SHAPE_M8N8K4, 8, 8, 4 },     { MX_SHAPE_M16N8K16, 16, 8, 16 },
        { MX_SHAPE_M16N8K8, 16, 8, 8 },     { MX_SHAPE_M16N8K4, 16, 8, 4 },   { MX_SHAPE_M16N8K32, 16, 8, 32 },
        { MX_SHAPE_M8N8K16, 8, 8, 16 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].s == shape) {
            *M = t[i].m;
            *N = t[i].n;
            *K = t[i].k;
            return 1;
        }
    return 0;
}

static int is_int8(int k) { return k == TK_S8 || k == TK_U8; }

/* Whether A/B kinds ka, kb and C/D kinds kc, kd make a form we run on
 * shape M x N x K; mma: the mma.sync shapes, else the wmma ones. */
static int form_ok(int mma, unsigned M, unsigned N, unsigned K, int ka, int kb, int kc, int kd)
{
    int wm3 = K == 16 && M * N == 256; /* m16n16k16, m32n8k16, m8n32k16 */
    if ((ka == TK_F16 || ka == TK_BF16) && kb == ka) {
        if (ka == TK_BF16 && (kc != TK_F32 || kd != TK_F32))
            return 0;
        if ((kc != TK_F16 && kc != TK_F32) || (kd != TK_F16 && kd != TK_F32))
            return 0;
        return mma ? N == 8 && M == 16 && (K == 16 || K == 8) : wm3;
    }
    if (ka == TK_TF32 && kb == TK_TF32 && kc == TK_F32 && kd == TK_F32)
        return mma ? M == 16 && N == 8 && (K == 8 || K == 4) : M == 16 && N == 16 && K == 8;
    if (ka == TK_F64 && kb == TK_F64 && kc == TK_F64 && kd == TK_F64)
        return M == 8 && N == 8 && K == 4;
    if (is_int8(ka) && is_int8(kb) && kc == TK_S32 && kd == TK_S32)
        return mma ? (M == 16 && N == 8 && (K == 16 || K == 32)) || (M == 8 && N == 8 && K == 16) : wm3;
    return 0;
}

/* Registers an operand of kind k of operand op has in a fragment: its
 * elements' registers (an f16 A/B wmma fragment: 8, copies included). */
static unsigned frag_regs(int wmma, int op, unsigned M, unsigned N, unsigned K, int k)
{
    unsigned rows, cols;
    op_dims(op, M, N, K, &rows, &cols);
    if (wmma && op != OPC && k == TK_F16)
        return 8;
    return rows * cols / WARP / tk_epr(k);
}

/* Checks that operand slot s is a {vector} of n registers (or, n == 1, one
 * register); sets its XF_ONEREG bit.  0, or the "invalid" handler. */
static emu_fn check_frag(const struct mx_insn *in, struct emu_xinsn *x, int s, unsigned n)
{
    const struct mx_operand *o = &in->opd[s];
    if (o->kind == MX_OPD_REG && n == 1) {
        x->flags |= XF_ONEREG(s);
        return NULL;
    }
    if (o->kind != MX_OPD_VEC || o->count != n)
        return emu_bind_invalid(x, EMU_BAD_VEC, s, n);
    return NULL;
}

static int space_ok(const struct emu_xinsn *x)
{
    return x->space == SP_GENERIC || x->space == SP_GLOBAL || x->space == SP_SHARED;
}

static emu_fn bind_wmma_mem(const struct mx_insn *in, struct emu_xinsn *x)
{
    int st = in->op == MX_OP_WMMA_STORE, frag = in->mod[MX_MG_FRAG], ms = st ? 0 : 1, ds = st ? 1 : 0;
    unsigned M, N, K;
    int k = tkind(in->type[0]);
    if (!shape_mnk(in->mod[MX_MG_SHAPE], &M, &N, &K) || k == TK_NONE || !in->mod[MX_MG_LAYOUT])
        return NULL;
    if (st ? frag != MX_FRAG_D : frag != MX_FRAG_A && frag != MX_FRAG_B && frag != MX_FRAG_C)
        return NULL;
    int op = frag == MX_FRAG_A ? OPA : frag == MX_FRAG_B ? OPB : OPC;
    /* the form exists if some wmma.mma of the shape takes this operand type */
    int ok = 0;
    if (op == OPC)
        ok = form_ok(0, M, N, K, TK_F16, TK_F16, k, k) || form_ok(0, M, N, K, TK_TF32, TK_TF32, k, k) ||
             form_ok(0, M, N, K, TK_F64, TK_F64, k, k) || form_ok(0, M, N, K, TK_S8, TK_S8, k, k);
    else
        ok = form_ok(0, M, N, K, k, k, k == TK_F64 ? TK_F64 : is_int8(k) ? TK_S32 : TK_F32,
                     k == TK_F64 ? TK_F64 : is_int8(k) ? TK_S32 : TK_F32);
    if (!ok)
        return NULL;
    if (in->nopd < 2 || in->opd[ms].kind != MX_OPD_ADDR)
        return emu_bind_invalid(x, EMU_BAD_KIND, ms, 0);
    if (!space_ok(x) || (x->flags & XF_LOCAL_FRAME))
        return NULL; /* wmma reads and writes global or shared memory only */
    int sk = in->nopd > 2 ? in->opd[2].kind : MX_OPD_NONE;
    if (sk != MX_OPD_NONE && sk != MX_OPD_REG && sk != MX_OPD_IMM)
        return emu_bind_invalid(x, EMU_BAD_KIND, 2, 0); /* the stride: one register or a constant */
    unsigned nregs = frag_regs(1, op, M, N, K, k), uniq = frag_regs(0, op, M, N, K, k);
    emu_fn bad = check_frag(in, x, ds, nregs);
    if (bad)
        return bad;
    x->size = (uint8_t)(tk_bits[k] / 8);
    x->aux = M | N << 6 | K << 12 | (unsigned)op << 18 | (in->mod[MX_MG_LAYOUT] == MX_LAYOUT_COL ? 1u : 0u) << 20;
    x->aux2 = (unsigned)k | (nregs / uniq) << 16;
    return st ? h_wmma_store : h_wmma_load;
}

static emu_fn bind_mma(const struct mx_insn *in, struct emu_xinsn *x)
{
    int wmma = in->op == MX_OP_WMMA_MMA;
    unsigned M, N, K;
    if (!shape_mnk(in->mod[MX_MG_SHAPE], &M, &N, &K))
        return NULL;
    int kd = tkind(in->type[0]), ka, kb, kc;
    if (in->type[2] == MX_T_NONE) { /* wmma f16 form: .dtype.ctype */
        if (!wmma)
            return NULL;
        ka = kb = TK_F16;
        kc = tkind(in->type[1]);
    } else {
        ka = tkind(in->type[1]);
        kb = tkind(in->type[2]);
        kc = tkind(in->type[3]);
    }
    if (!form_ok(!wmma, M, N, K, ka, kb, kc, kd))
        return NULL;
    int la = in->mod[MX_MG_LAYOUT], lb = in->mod[MX_MG_LAYOUT2], sat = in->mod[MX_MG_SAT], rnd = in->mod[MX_MG_RND];
    if (!la || !lb || (!wmma && (la != MX_LAYOUT_ROW || lb != MX_LAYOUT2_COL)))
        return NULL; /* mma.sync: .row.col only for these shapes */
    if ((sat && (sat != MX_SAT_SATFINITE || !is_int8(ka))) || (rnd && (ka != TK_F64 || rnd != MX_RND_RN)))
        return NULL;
    for (int s = 0; s < 4; s++) {
        int op = s == 1 ? OPA : s == 2 ? OPB : OPC, k = s == 0 ? kd : s == 1 ? ka : s == 2 ? kb : kc;
        if (in->nopd < 4)
            return emu_bind_invalid(x, EMU_BAD_MISSING, in->nopd, 0);
        emu_fn bad = check_frag(in, x, s, frag_regs(wmma, op, M, N, K, k));
        if (bad)
            return bad;
    }
    x->aux = M | N << 6 | K << 12 | (sat ? 1u : 0u) << 22;
    x->aux2 = (unsigned)ka | (unsigned)kb << 4 | (unsigned)kc << 8 | (unsigned)kd << 12;
    return h_mma;
}

/* ldmatrix d, [p] and stmatrix [p], r: the memory operand in slot mem, the fragment in the other. */
static emu_fn bind_xmatrix(const struct mx_insn *in, struct emu_xinsn *x)
{
    int num = in->mod[MX_MG_NUM], mem = in->op == MX_OP_STMATRIX ? 0 : 1;
    if (in->mod[MX_MG_SHAPE] != MX_SHAPE_M8N8 || in->type[0] != MX_T_B16 || !num)
        return NULL;
    if (in->nopd < 2 || in->opd[mem].kind != MX_OPD_ADDR)
        return emu_bind_invalid(x, EMU_BAD_KIND, mem, 0);
    if ((x->space != SP_GENERIC && x->space != SP_SHARED) || (x->flags & XF_LOCAL_FRAME))
        return NULL;
    unsigned n = num == MX_NUM_X1 ? 1 : num == MX_NUM_X2 ? 2 : 4;
    emu_fn bad = check_frag(in, x, 1 - mem, n);
    if (bad)
        return bad;
    x->aux = n | (in->mod[MX_MG_TRANS] ? 8u : 0u);
    return mem ? h_ldmatrix : h_stmatrix;
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: two 32-bit registers. */
static emu_fn bind_movmatrix(const struct mx_insn *in, struct emu_xinsn *x)
{
    if (in->mod[MX_MG_SHAPE] != MX_SHAPE_M8N8 || !in->mod[MX_MG_TRANS] || in->type[0] != MX_T_B16)
        return NULL;
    if (in->nopd < 2)
        return emu_bind_invalid(x, EMU_BAD_MISSING, in->nopd, 0);
    for (int s = 0; s < 2; s++) {
        if (in->opd[s].kind != MX_OPD_REG)
            return emu_bind_invalid(x, EMU_BAD_KIND, s, 0);
        check_frag(in, x, s, 1);
    }
    return h_movmatrix;
}

const struct emu_bind_row emu_bind_tensor[] = {
    { MX_OP_MOVMATRIX, bind_movmatrix },
    { MX_OP_STMATRIX, bind_xmatrix },
    { MX_OP_WMMA_LOAD, bind_wmma_mem },
    { MX_OP_WMMA_STORE, bind_wmma_mem },
    { MX_OP_WMMA_MMA, bind_mma },
    { MX_OP_MMA, bind_mma },
    { MX_OP_LDMATRIX, bind_xmatrix },
    EMU_BIND_END
};

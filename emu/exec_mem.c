/* emu/exec_mem.c — memory instructions: ld, ldu, st (every space, scalar and
 * vector), cvta, isspacep, atom and red.  Every access goes through
 * emu_mem_lane(), which bounds-checks it and resolves generic addresses. */
#include "emu/interp.h"
#include "emu/access.h"

/* The memory interface's answer for lanes m of x (see emu_mem_request):
 * 0 to go on now, else EX_WAIT. */
static int request(struct emu_warp *w, const struct emu_xinsn *x, int op, uint32_t m, const uint64_t *base,
                   unsigned bytes, int cross)
{
    uint64_t addr[WARP];
    FOR_LANES(m, addr[l] = emu_lane_addr(w, x, base, l));
    return emu_mem_request(w, x, op, -1, m, addr, bytes, cross);
}

/* Pointer to the .param bytes [a, a+size) of lane l, or NULL (fault). */
static uint8_t *param_ptr(struct emu_warp *w, const struct emu_xinsn *x, uint64_t a, unsigned size, int l, int write)
{
    struct emu_frame *fr = &w->frames[w->nframes - 1];
    const struct mx_func *f = &w->k->prog->funcs[fr->func];
    uint8_t *base;
    uint64_t lim;
    switch (x->space) {
    case SP_PARAM_KERNEL:
        if (write) {
            emu_fault(w, x, MX_EILLEGAL, l, a, size, "store to a kernel parameter");
            return NULL;
        }
        base = (uint8_t *)w->kparams;
        lim = w->kparams_size;
        l = 0;
        break;
    case SP_PARAM_FUNC: base = fr->param; lim = f->param_size; break;
    case SP_PARAM_RET: base = fr->ret; lim = f->ret_size; break;
    default: base = fr->scratch; lim = f->scratch_size; break;
    }
    if (a + size > lim || a > lim) {
        emu_fault(w, x, MX_EMEMFAULT, l, a, size, "parameter access of %u bytes at offset %llu is outside the %llu-byte parameter space",
                  size, (unsigned long long)a, (unsigned long long)lim);
        return NULL;
    }
    return base + (size_t)l * lim + a;
}

static inline uint64_t rd_n(const uint8_t *p, unsigned n)
{
    switch (n) {
    case 1: return *p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}
static inline void wr_n(uint8_t *p, uint64_t v, unsigned n)
{
    switch (n) {
    case 1: *p = (uint8_t)v; break;
    case 2: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); break; }
    case 4: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

/* Element pointer for lane l: handles params, local (with frame base) and the rest. */
static inline uint8_t *elem_ptr(struct emu_warp *w, const struct emu_xinsn *x, uint64_t a, unsigned size, int l, int write)
{
    if (x->space >= SP_PARAM_KERNEL)
        return param_ptr(w, x, a, size, l, write);
    return emu_mem_lane(w, x, x->space, a, size, l, write);
}

/* Warp-wide fast path of scalar accesses to global (or generic-to-global)
 * and shared memory: when every active lane's element is aligned and lies
 * in the CTA's shared memory, or in one allocation, one check covers the
 * warp.  Returns SPAN_NO when the per-lane path must take the access
 * (nothing recorded then); SPAN_ONE with *p the host pointer of address
 * *lo (the lowest) when every lane reads shared memory, or one device page
 * of global memory where the SM has no copies, or one block; SPAN_LANES when the lanes are checked but each
 * must find its block (emu_glob_rd, emu_glob_wblk). */
enum { SPAN_NO, SPAN_ONE, SPAN_LANES };
static inline int warp_span(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m, const uint64_t *addr,
                            unsigned size, int write, uint64_t *lo_out, uint64_t *hi_out, uint8_t **p)
{
    if ((x->space != SP_GLOBAL && x->space != SP_GENERIC && x->space != SP_SHARED) || (x->flags & XF_LOCAL_FRAME) ||
        __builtin_expect(w->port != NULL, 0)) /* (a port completion's lines are not device memory) */
        return SPAN_NO;
    uint64_t lo = UINT64_MAX, hi = 0, orv = 0;
    FOR_LANES(m, {
        uint64_t a = addr[l];
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
        orv |= a;
    });
    if (orv & (size - 1))
        return SPAN_NO;
    *lo_out = lo;
    *hi_out = hi;
    if (x->space == SP_SHARED) {
        uint64_t ssz;
        uint8_t *sh = emu_cta_shared(w->cta, &ssz);
        if (hi + size > ssz || hi + size < hi)
            return SPAN_NO;
        *p = sh + lo;
        return SPAN_ONE;
    }
    if (lo < MEM_GLOBAL_BASE || hi > UINT64_MAX - size || !emu_glob_check(w, lo, hi + size))
        return SPAN_NO; /* the per-lane path reports a fault (an address that wraps is in no allocation) */
    if (write)
        return SPAN_LANES;
    const uint8_t *r = emu_glob_rd(w, lo);
    if (!r)
        return SPAN_NO;
    uint64_t olo = lo - MEM_GLOBAL_BASE, ohi = hi + size - 1 - MEM_GLOBAL_BASE;
    if ((ohi >> PAGE_SHIFT) != w->rd_key[0] || (w->rd_tab[0] && (ohi >> BLK_SHIFT) != (olo >> BLK_SHIFT)))
        return SPAN_LANES; /* (one block of a page the SM has copies in is one unit: the copy or device memory) */
    *p = (uint8_t *)r;
    return SPAN_ONE;
}

/* Opcode: ld{.space}{.vN}.type d, [a]   Synopsis: d = mem[a] (sign-extended for .s8/.s16/.s32) */
static int h_ld(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *base = SRC(1);
    unsigned size = x->size, nv = x->aux2 ? x->aux2 : 1;
    int sgn = x->flags & 1;
    if (nv == 1 && x->space == SP_PARAM_KERNEL && (x->r[1] & REF_CONST) && x->r[0] != REF_NONE) {
        /* kernel parameter at a constant offset: one read, broadcast */
        uint8_t *p = param_ptr(w, x, emu_lane_addr(w, x, base, 0), size, 0, 0);
        if (!p)
            return EX_FAULT;
        uint64_t v = rd_n(p, size), *d = DST(0);
        if (sgn)
            v = (uint64_t)sext(v, size * 8);
        FOR_LANES(m, d[l] = v);
        return EX_NEXT;
    }
    if (__builtin_expect(w->dev->cfg.memif != NULL, 0) && !w->completing && x->space < SP_PARAM_KERNEL) {
        int r = request(w, x, MX_MOP_LD, m, base, size * nv, 0);
        if (r)
            return r;
    }
    if (nv == 1) {
        uint64_t *d = x->r[0] == REF_NONE ? NULL : DST(0);
        uint64_t addr[WARP], lo, hi;
        for (int l = 0; l < WARP; l++) /* every lane: only active ones are read, and the full loop vectorizes */
            addr[l] = emu_lane_addr(w, x, base, l);
        uint8_t *pl;
        int span = warp_span(w, x, m, addr, size, 0, &lo, &hi, &pl);
        if (span == SPAN_ONE && d) {
            if (size == 4 && !sgn)
                FOR_LANES(m, { uint32_t v; memcpy(&v, pl + (addr[l] - lo), 4); d[l] = v; });
            else
                FOR_LANES(m, { uint64_t v = rd_n(pl + (addr[l] - lo), size); d[l] = sgn ? (uint64_t)sext(v, size * 8) : v; });
            return EX_NEXT;
        }
        if (span == SPAN_LANES && d) {
            uint32_t mm = m;
            while (mm) {
                int l = __builtin_ctz(mm);
                const uint8_t *p = emu_glob_rd(w, addr[l]);
                if (!p)
                    break; /* out of host memory: the per-lane path reports it */
                mm &= mm - 1;
                uint64_t v = rd_n(p, size);
                d[l] = sgn ? (uint64_t)sext(v, size * 8) : v;
            }
            if (!mm)
                return EX_NEXT;
        }
        uint32_t mm = m;
        while (mm) {
            int l = __builtin_ctz(mm);
            mm &= mm - 1;
            uint8_t *p = elem_ptr(w, x, addr[l], size, l, 0);
            if (!p)
                return EX_FAULT;
            uint64_t v = rd_n(p, size);
            if (d)
                d[l] = sgn ? (uint64_t)sext(v, size * 8) : v;
        }
        return EX_NEXT;
    }
    uint32_t mm = m;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        uint64_t a = emu_lane_addr(w, x, base, l);
        uint8_t *p = elem_ptr(w, x, a, size * nv, l, 0);
        if (!p)
            return EX_FAULT;
        for (unsigned e = 0; e < nv; e++) {
            uint32_t ref = VREF(w, x, 0, e);
            if (ref == REF_NONE || (ref & REF_CONST))
                continue;
            uint64_t v = rd_n(p + e * size, size);
            w->regs[(size_t)ref * WARP + l] = sgn ? (uint64_t)sext(v, size * 8) : v;
        }
    }
    return EX_NEXT;
}

/* Whether an access of lanes m may reach memory other SMs use (global
 * memory, or a generic address outside the shared and local windows). */
static int crosses_sms(const struct emu_warp *w, const struct emu_xinsn *x, const uint64_t *base, uint32_t m)
{
    if (x->space == SP_GLOBAL)
        return 1;
    if (x->space != SP_GENERIC || (x->flags & XF_LOCAL_FRAME))
        return 0;
    while (m) {
        int l = __builtin_ctz(m);
        m &= m - 1;
        uint64_t a = emu_lane_addr(w, x, base, l);
        if (a - MEM_SHARED_WIN >= MEM_WIN_SIZE && a - MEM_LOCAL_WIN >= MEM_WIN_SIZE)
            return 1;
    }
    return 0;
}

/* Opcode: ld.{volatile,relaxed,acquire}{.space}.type d, [a]   Synopsis: d = mem[a], observing other SMs' stores
 * A strong load of memory other SMs write (a flag a producer sets) reads it
 * at the quantum's end, when every SM has stopped: what it sees does not
 * depend on host threads. */
static int h_ld_strong(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    if (!w->completing && crosses_sms(w, x, SRC(1), m))
        return request(w, x, MX_MOP_LD, m, SRC(1), x->size * (x->aux2 ? x->aux2 : 1), 1);
    return h_ld(w, x, m);
}

/* Opcode: st{.space}{.vN}.type [a], b   Synopsis: mem[a] = b */
static int h_st(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *base = SRC(0);
    unsigned size = x->size, nv = x->aux2 ? x->aux2 : 1;
    if (__builtin_expect(w->dev->cfg.memif != NULL, 0) && !w->completing && x->space < SP_PARAM_KERNEL) {
        int r = request(w, x, MX_MOP_ST, m, base, size * nv, 0);
        if (r)
            return r;
    }
    if (nv == 1) {
        const uint64_t *v = SRC(1);
        uint64_t addr[WARP], lo, hi;
        for (int l = 0; l < WARP; l++) /* every lane: only active ones are read, and the full loop vectorizes */
            addr[l] = emu_lane_addr(w, x, base, l);
        uint8_t *pl;
        int span = warp_span(w, x, m, addr, size, 1, &lo, &hi, &pl);
        /* lanes in lane order: the highest lane wins when addresses repeat */
        if (span == SPAN_ONE) {
            uint32_t mm = m;
            while (mm) {
                int l = __builtin_ctz(mm);
                mm &= mm - 1;
                wr_n(pl + (addr[l] - lo), v[l], size);
            }
            return EX_NEXT;
        }
        if (span == SPAN_LANES && emu_blk_key(lo) == emu_blk_key(hi + size - 1)) {
            /* one block, and the stored bytes within two words of its marks
             * (a coalesced store): marks gathered in registers */
            struct emu_blk *b = emu_glob_wblk(w, emu_blk_key(lo));
            unsigned off0 = (unsigned)((lo - MEM_GLOBAL_BASE) & (BLK_SIZE - 1)), w0 = off0 >> 6;
            if (b && !b->has_red && hi + size - (lo & ~63ull) <= 128 && w0 + 1 < BLK_SIZE / 64) {
                uint64_t m0 = 0, m1 = 0, bits = (1ull << size) - 1;
                uint8_t *wbase = b->data + (w0 << 6);
                uint32_t mm = m;
                while (mm) {
                    int l = __builtin_ctz(mm);
                    mm &= mm - 1;
                    unsigned rel = (unsigned)(addr[l] - (lo & ~63ull));
                    if (rel < 64)
                        m0 |= bits << rel;
                    else
                        m1 |= bits << (rel - 64);
                    wr_n(wbase + rel, v[l], size);
                }
                b->dirty[w0] |= m0;
                b->dirty[w0 + 1] |= m1;
                b->sum |= 3ull << w0;
                return EX_NEXT;
            }
        }
        if (span == SPAN_LANES) {
            /* the SM's copies of the blocks, stored bytes marked (a lane
             * redone by the per-lane path after a failure stores the same) */
            uint32_t mm = m;
            uint64_t cur = ~0ull;
            struct emu_blk *b = NULL;
            while (mm) {
                int l = __builtin_ctz(mm);
                uint64_t o = addr[l] - MEM_GLOBAL_BASE;
                if (o >> BLK_SHIFT != cur && !(b = emu_glob_wblk(w, o >> BLK_SHIFT)))
                    break; /* completing at the quantum's end, or out of host memory: the per-lane path */
                cur = o >> BLK_SHIFT;
                mm &= mm - 1;
                unsigned off = (unsigned)(o & (BLK_SIZE - 1));
                emu_blk_mark(w, b, off, size);
                wr_n(b->data + off, v[l], size);
            }
            if (!mm)
                return EX_NEXT;
        }
        uint32_t mm = m;
        while (mm) {
            int l = __builtin_ctz(mm);
            mm &= mm - 1;
            uint8_t *p = elem_ptr(w, x, addr[l], size, l, 1);
            if (!p)
                return EX_FAULT;
            wr_n(p, v[l], size);
        }
        return EX_NEXT;
    }
    uint32_t mm = m;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        uint8_t *p = elem_ptr(w, x, emu_lane_addr(w, x, base, l), size * nv, l, 1);
        if (!p)
            return EX_FAULT;
        for (unsigned e = 0; e < nv; e++) {
            uint32_t ref = VREF(w, x, 1, e);
            uint64_t v = (ref & REF_CONST) ? w->consts[ref & ~REF_CONST][l] : w->regs[(size_t)ref * WARP + l];
            wr_n(p + e * size, v, size);
        }
    }
    return EX_NEXT;
}

/* The shapes h_ld/h_st rely on: an [address] operand; data that is one
 * register (ld: or '_'; st: or a value) without .vN, and a vector of
 * exactly N elements with it (elements were checked by emu_bind_verify). */
static emu_fn bind_ld(const struct mx_insn *in, struct emu_xinsn *x)
{
    int t = in->type[0], st = in->op == MX_OP_ST, ds = st ? 1 : 0, as = st ? 0 : 1;
    unsigned nv = in->mod[MX_MG_VEC] ? 2u << (in->mod[MX_MG_VEC] - 1) : 1;
    x->size = (uint8_t)mx_type_size(t);
    x->flags |= mx_type_is_signed(t) ? 1 : 0;
    x->aux2 = nv;
    if (x->size > 8)
        return NULL; /* .b128 */
    if (x->size != 1 && x->size != 2 && x->size != 4 && x->size != 8)
        return emu_bind_invalid(x, EMU_BAD_OPCODE, -1, 0); /* no data type */
    if (in->nopd < 2 || in->opd[as].kind != MX_OPD_ADDR)
        return emu_bind_invalid(x, EMU_BAD_KIND, as, 0);
    const struct mx_operand *d = &in->opd[ds];
    if (nv > 1 && (d->kind != MX_OPD_VEC || d->count != nv))
        return emu_bind_invalid(x, EMU_BAD_VEC, ds, nv);
    if (nv == 1 && !(d->kind == MX_OPD_REG || (st ? d->kind == MX_OPD_IMM || d->kind == MX_OPD_SREG || d->kind == MX_OPD_SYM
                                                  : d->kind == MX_OPD_SINK)))
        return emu_bind_invalid(x, EMU_BAD_KIND, ds, 0);
    if (st)
        return h_st;
    int sem = in->mod[MX_MG_SEM];
    return sem == MX_SEM_VOLATILE || sem == MX_SEM_RELAXED || sem == MX_SEM_ACQUIRE ? h_ld_strong : h_ld;
}

/* Opcode: cvta{.to}.space.size d, a   Synopsis: d = generic <-> state-space address */
static int h_cvta(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    int64_t delta = (int64_t)x->off;
    int w32 = x->size == 4;
    FOR_LANES(m, { uint64_t v = a[l] + (uint64_t)delta; d[l] = w32 ? (uint32_t)v : v; });
    return EX_NEXT;
}

/* Opcode: mov.u64 d, local_symbol   Synopsis: d = address of a .local variable of this activation */
static int h_mov_local(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    uint64_t base = w->frames[w->nframes - 1].local_base;
    FOR_LANES(m, d[l] = a[l] + base);
    return EX_NEXT;
}

static emu_fn bind_cvta(const struct mx_insn *in, struct emu_xinsn *x)
{
    int sp = in->mod[MX_MG_SPACE];
    int to = in->mod[MX_MG_TO] != 0;
    uint64_t win = sp == MX_SPACE_SHARED || sp == MX_SPACE_SHARED_CTA ? MEM_SHARED_WIN : sp == MX_SPACE_LOCAL ? MEM_LOCAL_WIN : 0;
    if (sp == MX_SPACE_PARAM)
        return NULL;
    x->off = to ? -(int64_t)win : (int64_t)win;
    x->size = (uint8_t)mx_type_size(in->type[0]);
    return h_cvta;
}

/* Opcode: isspacep.space p, a   Synopsis: p = generic address a is in the space */
static int h_isspacep(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *a = SRC(1);
    uint32_t r = 0;
    int sp = x->in->mod[MX_MG_SPACE];
    FOR_LANES(m, {
        uint64_t v = a[l];
        int in_sh = v - MEM_SHARED_WIN < MEM_WIN_SIZE, in_lo = v - MEM_LOCAL_WIN < MEM_WIN_SIZE;
        int yes = sp == MX_SPACE_SHARED || sp == MX_SPACE_SHARED_CTA ? in_sh : sp == MX_SPACE_LOCAL ? in_lo
                : sp == MX_SPACE_GLOBAL ? (!in_sh && !in_lo) : sp == MX_SPACE_CONST ? (!in_sh && !in_lo) : 0;
        r |= (uint32_t)yes << l;
    });
    PDST(0, r);
    return EX_NEXT;
}
static emu_fn bind_isspacep(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_isspacep; }

/* ------------------------------------------------------------- atomics */

/* Opcode: atom{.space}.op.type d, [a], b{, c} / red{.space}.op.type [a], b
 * Synopsis: d = mem[a]; mem[a] = op(mem[a], b{, c}) — lanes in lane order
 * On memory other SMs use, the atomic is performed at the quantum's end, in
 * the scheduler's fixed order (SM clock, SM, issue), never in host order. */
/* The memory side's name for atomic op on type t (enum mx_atom), or
 * MX_ATOM_NONE. */
static uint8_t atom_code(int op, int t)
{
    unsigned bits = mx_type_size(t) * 8;
    int sg = mx_type_is_signed(t), fl = mx_type_is_float(t);
    if (bits != 32 && bits != 64)
        return MX_ATOM_NONE;
    int w64 = bits == 64;
    switch (op) {
    case MX_ATOMOP_ADD:
        if (fl)
            return t == MX_T_F32 ? MX_ATOM_ADD_F32 : t == MX_T_F64 ? MX_ATOM_ADD_F64 : MX_ATOM_NONE;
        return w64 ? MX_ATOM_ADD_U64 : MX_ATOM_ADD_U32;
    case MX_ATOMOP_MIN:
        return fl ? MX_ATOM_NONE : w64 ? (sg ? MX_ATOM_MIN_S64 : MX_ATOM_MIN_U64) : (sg ? MX_ATOM_MIN_S32 : MX_ATOM_MIN_U32);
    case MX_ATOMOP_MAX:
        return fl ? MX_ATOM_NONE : w64 ? (sg ? MX_ATOM_MAX_S64 : MX_ATOM_MAX_U64) : (sg ? MX_ATOM_MAX_S32 : MX_ATOM_MAX_U32);
    case MX_ATOMOP_AND: return w64 ? MX_ATOM_AND_B64 : MX_ATOM_AND_B32;
    case MX_ATOMOP_OR: return w64 ? MX_ATOM_OR_B64 : MX_ATOM_OR_B32;
    case MX_ATOMOP_XOR: return w64 ? MX_ATOM_XOR_B64 : MX_ATOM_XOR_B32;
    case MX_ATOMOP_EXCH: return w64 ? MX_ATOM_EXCH_B64 : MX_ATOM_EXCH_B32;
    case MX_ATOMOP_CAS: return w64 ? MX_ATOM_CAS_B64 : MX_ATOM_CAS_B32;
    case MX_ATOMOP_INC: return w64 ? MX_ATOM_NONE : MX_ATOM_INC_U32;
    case MX_ATOMOP_DEC: return w64 ? MX_ATOM_NONE : MX_ATOM_DEC_U32;
    default: return MX_ATOM_NONE;
    }
}

static int h_atom(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    int is_red = x->in->op == MX_OP_RED;
    int ai = is_red ? 0 : 1, bi = ai + 1;
    const uint64_t *base = SRC(ai), *b = SRC(bi);
    const uint64_t *c = (!is_red && x->r[bi + 1] != REF_NONE) ? SRC(bi + 1) : NULL;
    if (!w->completing) {
        int cross = !(x->flags & XF_RED_NOW) && crosses_sms(w, x, base, m);
        if (__builtin_expect(w->dev->cfg.memif != NULL, 0) || cross) {
            /* what each lane does, for a memory side that executes atomics itself */
            w->atom_code = atom_code(x->in->mod[MX_MG_ATOMOP], x->in->type[0]);
            w->atom_b = b;
            w->atom_c = c;
            int r = request(w, x, is_red ? MX_MOP_RED : MX_MOP_ATOM, m, base, x->size, cross);
            w->atom_code = 0;
            if (r)
                return r;
        }
    }
    uint64_t *d = (!is_red && x->r[0] != REF_NONE) ? DST(0) : NULL;
    int op = x->in->mod[MX_MG_ATOMOP], t = x->in->type[0];
    unsigned size = x->size;
    uint32_t mm = m;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        uint64_t a = emu_lane_addr(w, x, base, l);
        int log = 0;
        uint8_t *p = emu_mem_access(w, x, x->space, a, size, l, (x->flags & XF_RED_NOW) ? ACC_RED : ACC_WRITE, &log);
        if (!p)
            return EX_FAULT;
        if (log && emu_ov_log_red(w, a, b[l], op, t, size))
            return emu_fault(w, x, MX_ENOMEM, l, a, size, "out of host memory for logged reductions");
        uint64_t old, nv;
        int ok, ftz = x->space == SP_GLOBAL || (x->space == SP_GENERIC && a - MEM_SHARED_WIN >= MEM_WIN_SIZE);
        if (size == 4) {
            uint32_t o = __atomic_load_n((uint32_t *)p, __ATOMIC_RELAXED);
            do {
                nv = emu_atom_apply(op, t, o, b[l], c ? c[l] : 0, ftz, &ok);
                if (!ok)
                    return emu_fault(w, x, MX_EUNSUPPORTED, l, a, size, "unsupported atomic operation");
            } while (!__atomic_compare_exchange_n((uint32_t *)p, &o, (uint32_t)nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
            old = o;
        } else if (size == 8) {
            uint64_t o = __atomic_load_n((uint64_t *)p, __ATOMIC_RELAXED);
            do {
                nv = emu_atom_apply(op, t, o, b[l], c ? c[l] : 0, ftz, &ok);
                if (!ok)
                    return emu_fault(w, x, MX_EUNSUPPORTED, l, a, size, "unsupported atomic operation");
            } while (!__atomic_compare_exchange_n((uint64_t *)p, &o, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
            old = o;
        } else {
            return emu_fault(w, x, MX_EUNSUPPORTED, l, a, size, "unsupported: %u-byte atomic", size);
        }
        if (d)
            d[l] = old;
    }
    return EX_NEXT;
}

static emu_fn bind_atom(const struct mx_insn *in, struct emu_xinsn *x)
{
    x->size = (uint8_t)mx_type_size(in->type[0]);
    if (in->mod[MX_MG_VEC] || (x->size != 4 && x->size != 8))
        return NULL;
    /* h_atom reads one register or value per operand and an [address] */
    int ai = in->op == MX_OP_RED ? 0 : 1;
    if (in->opd[ai].kind != MX_OPD_ADDR)
        return emu_bind_invalid(x, EMU_BAD_KIND, ai, 0);
    for (int s = 0; s < in->nopd; s++)
        if (in->opd[s].kind == MX_OPD_VEC)
            return emu_bind_invalid(x, EMU_BAD_KIND, s, 0);
    if ((in->type[0] == MX_T_F32 || in->type[0] == MX_T_F64) && in->mod[MX_MG_ATOMOP] != MX_ATOMOP_ADD &&
        in->mod[MX_MG_ATOMOP] != MX_ATOMOP_EXCH)
        return NULL;
    /* A reduction (or an atom whose old value is never read) whose operation is exact,
     * commutative and associative (integer add, and, or, xor, min, max)
     * leaves the same memory whatever order the SMs apply it in: it is
     * performed at once (atomically between host threads), not at the
     * quantum's end.  Float adds, inc/dec with a bound, exch/cas and every
     * atom with a result wait for the fixed order. */
    int op = in->mod[MX_MG_ATOMOP];
    if ((in->op == MX_OP_RED || (x->flags & XF_DEAD_DEST)) && in->type[0] != MX_T_F32 && in->type[0] != MX_T_F64 &&
        (op == MX_ATOMOP_ADD || op == MX_ATOMOP_AND || op == MX_ATOMOP_OR || op == MX_ATOMOP_XOR ||
         op == MX_ATOMOP_MIN || op == MX_ATOMOP_MAX))
        x->flags |= XF_RED_NOW;
    return h_atom;
}

emu_fn emu_bind_mov_local(void);
emu_fn emu_bind_mov_local(void) { return h_mov_local; }

const struct emu_bind_row emu_bind_mem[] = {
    { MX_OP_LD, bind_ld },
    { MX_OP_LDU, bind_ld },
    { MX_OP_ST, bind_ld },
    { MX_OP_CVTA, bind_cvta },
    { MX_OP_ISSPACEP, bind_isspacep },
    { MX_OP_ATOM, bind_atom },
    { MX_OP_RED, bind_atom },
    EMU_BIND_END
};

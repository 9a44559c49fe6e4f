/* emu/ext/movind.c — the Indirect-MOV ISA extension (Morpheus, MICRO'22
 * §4.3.2): a register read or written through an index held in another
 * register, over a declared register range.  The hardware reads the index
 * register, then re-reads the register file with that number; here the
 * range %blk<N> is N consecutive slots, so R[base + index] per lane.
 * Enabled by --isa-ext indirect-mov; the front end rejects movind otherwise. */
#include "emu/interp.h"

/* Opcode: movind.type d, %range[%i]   Synopsis: d = %range<i> (per lane) */
static int h_movind_read(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *idx = w->regs + (size_t)x->aux2 * WARP;
    uint64_t *d = DST(0);
    uint32_t base = x->r[1], n = x->aux;
    uint64_t mask = x->size == 8 ? ~0ull : (1ull << (8 * x->size)) - 1;
    uint32_t mm = m;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        uint64_t i = x->flags ? (uint32_t)idx[l] : idx[l];
        if (i >= n)
            return emu_fault(w, x, MX_EREGINDEX, l, 0, 0, "movind: register index %llu is outside the declared range of %u registers",
                             (unsigned long long)i, n);
        d[l] = w->regs[(size_t)(base + i) * WARP + l] & mask;
    }
    return EX_NEXT;
}

/* Opcode: movind.type %range[%i], a   Synopsis: %range<i> = a (per lane) */
static int h_movind_write(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *idx = w->regs + (size_t)x->aux2 * WARP;
    const uint64_t *a = SRC(1);
    uint32_t base = x->r[0], n = x->aux;
    uint64_t mask = x->size == 8 ? ~0ull : (1ull << (8 * x->size)) - 1;
    uint32_t mm = m;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        uint64_t i = x->flags ? (uint32_t)idx[l] : idx[l];
        if (i >= n)
            return emu_fault(w, x, MX_EREGINDEX, l, 0, 0, "movind: register index %llu is outside the declared range of %u registers",
                             (unsigned long long)i, n);
        w->regs[(size_t)(base + i) * WARP + l] = a[l] & mask;
    }
    return EX_NEXT;
}

static emu_fn bind_movind(const struct mx_insn *in, struct emu_xinsn *x)
{
    int wr = in->opd[0].kind == MX_OPD_INDREG;
    const struct mx_operand *ind = &in->opd[wr ? 0 : 1];
    if (ind->kind != MX_OPD_INDREG || in->opd[wr ? 1 : 0].kind == MX_OPD_INDREG)
        return emu_bind_invalid(x, EMU_BAD_KIND, wr ? 1 : 0, 0); /* exactly one side is %range[%i] */
    x->aux = ind->sym;                      /* range length */
    x->aux2 = (uint32_t)ind->imm;           /* index register slot */
    x->flags = (ind->flags & MX_OPDF_BASE32) ? 1 : 0;
    x->size = (uint8_t)mx_type_size(in->type[0]);
    return wr ? h_movind_write : h_movind_read;
}

const struct emu_bind_row emu_bind_ext[] = {
    { MX_OP_MOVIND, bind_movind },
    EMU_BIND_END
};

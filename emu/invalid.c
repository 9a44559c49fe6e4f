/* emu/invalid.c — what binders fall back on: the "invalid instruction"
 * trap for a malformed instruction (emu_bind_invalid), the call-list check
 * shared with indirect calls (emu_call_fits), and an instruction's spelling
 * for reports.  Below the opcode families and the binder dispatch (exec.c):
 * they call into it, it calls none of them. */
#include "emu/interp.h"
#include "isa/opdtype.h"

#include <stdio.h>

void emu_insn_name(const struct mx_insn *in, char *name, size_t size)
{
    const struct mx_opinfo *oi = mx_opinfo(in->op);
    if (!oi) {
        snprintf(name, size, "opcode #%u", (unsigned)in->op);
        return;
    }
    size_t n = (size_t)snprintf(name, size, "%s", oi->mnemonic);
    for (int g = 0; g < oi->ngroups && n < size; g++)
        if (in->mod[oi->groups[g]])
            n += (size_t)snprintf(name + n, size - n, ".%s", mx_mod_name(oi->groups[g], in->mod[oi->groups[g]]));
    for (int t = 0; t < MX_MAX_TYPES && n < size; t++)
        if (in->type[t])
            n += (size_t)snprintf(name + n, size - n, ".%s", mx_type_name(in->type[t]));
}

/* ----------------------------------------------------- malformed instructions */

/* Opcode: (an instruction the front end should have rejected)
 * Synopsis: stop the kernel with a report saying what is malformed.
 * x->aux: why | (slot + 1) << 8 | expected vector width << 16. */
static int h_invalid(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    static const char *const what[] = {
        [EMU_BAD_OPCODE] = "its opcode, types and modifiers are not a form the opcode table allows",
        [EMU_BAD_GUARD] = "its guard is not a predicate register of the function",
        [EMU_BAD_REF] = "names a register, predicate, symbol, label, function or vector element that does not exist",
        [EMU_BAD_KIND] = "is not a kind of operand this instruction takes there",
        [EMU_BAD_MISSING] = "is missing",
        [EMU_BAD_VEC] = "is not a vector of the instruction's width",
        [EMU_BAD_CALL] = "is not a list of .param variables that fit the caller's and the callee's parameter buffers",
    };
    char name[96], opd[48] = "";
    unsigned why = x->aux & 0xff, slot = (x->aux >> 8) & 0xff, count = x->aux >> 16;
    emu_insn_name(x->in, name, sizeof name);
    if (slot)
        snprintf(opd, sizeof opd, "operand %u ", slot - 1);
    if (why == EMU_BAD_VEC && count)
        return emu_fault(w, x, MX_EILLEGAL, __builtin_ctz(m), 0, 0,
                         "invalid instruction '%s': %sis not a vector of %u elements (malformed program)", name, opd, count);
    return emu_fault(w, x, MX_EILLEGAL, __builtin_ctz(m), 0, 0, "invalid instruction '%s': %s%s (malformed program)", name, opd,
                     why < sizeof what / sizeof what[0] && what[why] ? what[why] : "is malformed");
}

emu_fn emu_bind_invalid(struct emu_xinsn *x, enum emu_bad why, int slot, unsigned count)
{
    x->aux = (uint32_t)why | (uint32_t)(slot + 1) << 8 | (count > 0xffff ? 0xffff : count) << 16;
    return h_invalid;
}

/* Sizes as emu_call() (interp.c) copies them: min(argument, parameter)
 * bytes to a defined function; to a host function up to 8 bytes per
 * argument and 16 of the first return value.  EMU_BAD_REF for a callee
 * whose own parameter table is out of range. */
int emu_call_fits(const struct mx_program *g, const struct mx_func *cf, const struct mx_insn *in, uint32_t callee, int *slot)
{
    int dummy;
    if (!slot)
        slot = &dummy;
    *slot = 1;
    const struct mx_func *c = &g->funcs[callee];
    if (c->flags & (MX_FUNCF_ENTRY | MX_FUNCF_PROTO))
        return EMU_BAD_KIND; /* not something a call can run */
    int host = (c->flags & MX_FUNCF_DECL) != 0;
    for (int side = 0; side < 2; side++) {
        const struct mx_operand *lst = &in->opd[side ? 2 : 0];
        uint32_t first = side ? c->param : c->ret, n = side ? c->nparams : c->nrets;
        uint64_t lim = side ? c->param_size : c->ret_size;
        if (n && (first >= g->nsyms || n > g->nsyms - first))
            return EMU_BAD_REF;
        uint32_t k = lst->count < n ? lst->count : n;
        *slot = side ? 2 : 0;
        if (host && !side)
            k = k ? 1 : 0; /* a host call returns one value of at most 16 bytes */
        for (uint32_t j = 0; j < k; j++) {
            const struct mx_symbol *s = &g->syms[g->vec[lst->reg + j].reg], *p = &g->syms[first + j];
            uint64_t bytes = host ? (side ? (p->size < 8 ? p->size : 8) : (s->size < 16 ? s->size : 16))
                                  : (s->size < p->size ? s->size : p->size);
            if (s->offset > cf->scratch_size || bytes > cf->scratch_size - s->offset)
                return EMU_BAD_CALL;
            if (!host && (p->offset > lim || bytes > lim - p->offset))
                return EMU_BAD_CALL;
        }
    }
    return 0;
}


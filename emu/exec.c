/* emu/exec.c — chooses the handler of each instruction: the binder tables of
 * every opcode family, merged once into a per-opcode list and tried in
 * order; plus the few handlers the core itself needs (dynamic special
 * registers, local-variable addresses, the "unsupported" trap), and the
 * generic operand checks every instruction passes before its binder runs
 * (emu_bind_verify: a malformed program stops with "invalid instruction"
 * instead of crashing the host; the trap itself is invalid.c). */
#include "emu/interp.h"
#include "isa/opdtype.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define MAX_BINDERS 4

static emu_binder binders[MX_OP__COUNT][MAX_BINDERS];

static void add_table(const struct emu_bind_row *t)
{
    for (; t->op >= 0; t++)
        for (int i = 0; i < MAX_BINDERS; i++)
            if (!binders[t->op][i]) {
                binders[t->op][i] = t->bind;
                break;
            }
}

static void build(void)
{
    add_table(emu_bind_int);
    add_table(emu_bind_fp);
    add_table(emu_bind_cvt);
    add_table(emu_bind_mem);
    add_table(emu_bind_ctrl);
    add_table(emu_bind_sync);
    add_table(emu_bind_async);
    add_table(emu_bind_tex);
    add_table(emu_bind_surf);
    add_table(emu_bind_tensor);
    add_table(emu_bind_ext);
    add_table(emu_bind_park);
}

static pthread_once_t built = PTHREAD_ONCE_INIT;

emu_fn emu_bind_lookup(const struct mx_insn *in, struct emu_xinsn *x);
emu_fn emu_bind_lookup(const struct mx_insn *in, struct emu_xinsn *x)
{
    pthread_once(&built, build);
    for (int i = 0; i < MAX_BINDERS && binders[in->op][i]; i++) {
        emu_fn fn = binders[in->op][i](in, x);
        if (fn)
            return fn;
    }
    return NULL;
}

/* Opcode: (any form the emulator does not implement)   Synopsis: stop the kernel with a clear report */
static int h_unsupported(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    char name[96];
    emu_insn_name(x->in, name, sizeof name);
    return emu_fault(w, x, MX_EUNSUPPORTED, __builtin_ctz(m), 0, 0, "unsupported instruction '%s' (not implemented by the emulator yet)", name);
}

/* ----------------------------------------------------- malformed instructions */

/* Opcodes whose binders check the shape of their vector operands; any
 * other opcode that has a binder has handlers that read every operand as
 * one register, so a vector there is malformed.  Opcodes with no binder at
 * all may keep theirs (they stop as unsupported). */
static int takes_vectors(int op)
{
    switch (op) {
    case MX_OP_LD: case MX_OP_LDU: case MX_OP_ST: case MX_OP_MOV: case MX_OP_TEX: case MX_OP_ATOM: case MX_OP_RED:
    case MX_OP_SULD: case MX_OP_SUST:
    case MX_OP_WMMA_LOAD: case MX_OP_WMMA_STORE: case MX_OP_WMMA_MMA: case MX_OP_MMA: case MX_OP_LDMATRIX:
    case MX_OP_STMATRIX:
        return 1;
    default:
        return !binders[op][0];
    }
}

/* 0, or EMU_BAD_REF when a plain operand names something that does not exist. */
static int ref_ok(const struct mx_program *g, const struct mx_func *f, const struct mx_operand *o)
{
    switch (o->kind) {
    case MX_OPD_REG: return o->reg < f->nregs ? 0 : EMU_BAD_REF;
    case MX_OPD_PRED: return o->reg < f->npreds ? 0 : EMU_BAD_REF;
    case MX_OPD_SREG: return o->reg < MX_SREG__COUNT && o->imm >= 0 && o->imm < (int64_t)mx_sreg_dims((int)o->reg) ? 0 : EMU_BAD_REF;
    case MX_OPD_SYM: return o->reg < g->nsyms ? 0 : EMU_BAD_REF;
    case MX_OPD_IMM: case MX_OPD_SINK: return 0;
    default: return EMU_BAD_KIND;
    }
}

/* Elements [first, first + count) of prog->vec exist. */
static int vec_in_range(const struct mx_program *g, uint32_t first, uint32_t count)
{
    return !count || (count <= g->nvec && first <= g->nvec - count);
}

/* 0, or why operand o of function f names something that does not exist
 * or has elements of the wrong kind.  Vector elements: plain values and
 * sinks (no predicates, no nesting); call lists: symbols; target lists:
 * labels; a texture operand ends with a coordinate vector of registers and
 * immediates. */
static int operand_ok(const struct mx_program *g, const struct mx_func *f, const struct mx_operand *o)
{
    switch (o->kind) {
    case MX_OPD_NONE: case MX_OPD_IMM: case MX_OPD_SINK: case MX_OPD_REG: case MX_OPD_PRED: case MX_OPD_SREG:
    case MX_OPD_SYM:
        return ref_ok(g, f, o);
    case MX_OPD_ADDR:
        return (o->reg == MX_NONE || o->reg < f->nregs) && (o->sym == MX_NONE || o->sym < g->nsyms) ? 0 : EMU_BAD_REF;
    case MX_OPD_FUNC: case MX_OPD_PROTO:
        return o->reg < g->nfuncs ? 0 : EMU_BAD_REF;
    case MX_OPD_LABEL:
        return o->reg >= f->first && o->reg <= f->first + f->ninsns ? 0 : EMU_BAD_REF;
    case MX_OPD_INDREG:
        return o->sym <= f->nregs && o->reg <= f->nregs - o->sym && o->imm >= 0 && o->imm < (int64_t)f->nregs ? 0 : EMU_BAD_REF;
    case MX_OPD_VEC: case MX_OPD_LIST: case MX_OPD_TEXADDR: case MX_OPD_TARGETS:
        if (!vec_in_range(g, o->reg, o->count))
            return EMU_BAD_REF;
        /* [tex, {coords}] / [tex, sampler, {coords}]: the coordinates come last */
        if (o->kind == MX_OPD_TEXADDR && (o->count < 2 || g->vec[o->reg + o->count - 1].kind != MX_OPD_VEC))
            return EMU_BAD_KIND;
        for (uint32_t e = 0; e < o->count; e++) {
            const struct mx_operand *eo = &g->vec[o->reg + e];
            int bad;
            if (o->kind == MX_OPD_TARGETS)
                bad = eo->kind != MX_OPD_LABEL ? EMU_BAD_KIND : operand_ok(g, f, eo);
            else if (o->kind == MX_OPD_LIST)
                bad = eo->kind != MX_OPD_SYM ? EMU_BAD_CALL : ref_ok(g, f, eo);
            else if (eo->kind == MX_OPD_PRED)
                bad = EMU_BAD_KIND;
            else if (o->kind == MX_OPD_TEXADDR && eo->kind == MX_OPD_VEC && e + 1 == o->count) {
                bad = vec_in_range(g, eo->reg, eo->count) ? 0 : EMU_BAD_REF;
                for (uint32_t c = 0; !bad && c < eo->count; c++) {
                    const struct mx_operand *co = &g->vec[eo->reg + c];
                    bad = co->kind != MX_OPD_REG && co->kind != MX_OPD_IMM ? EMU_BAD_KIND : ref_ok(g, f, co);
                }
            } else if (o->kind == MX_OPD_TEXADDR && eo->kind == MX_OPD_SINK)
                bad = EMU_BAD_KIND;
            else
                bad = ref_ok(g, f, eo);
            if (bad)
                return bad;
        }
        return 0;
    default:
        return EMU_BAD_KIND;
    }
}

/* Call operands: (rets) list, target (function or address register),
 * (args) list, optional prototype or target list. */
static int call_ok(const struct mx_program *g, const struct mx_func *f, const struct mx_insn *in, int *slot)
{
    static const uint8_t need[4][4] = { { MX_OPD_LIST, MX_OPD_NONE }, { MX_OPD_FUNC, MX_OPD_REG },
                                        { MX_OPD_LIST, MX_OPD_NONE }, { MX_OPD_NONE, MX_OPD_PROTO, MX_OPD_TARGETS } };
    /* the front end always writes four slots; the call path reads them all */
    if (in->nopd != 4) {
        *slot = in->nopd < 4 ? in->nopd : 4;
        return in->nopd < 4 ? EMU_BAD_MISSING : EMU_BAD_KIND;
    }
    for (int s = 0; s < 4; s++) {
        const struct mx_operand *o = &in->opd[s];
        *slot = s;
        int kind = o->kind;
        if (kind != need[s][0] && kind != need[s][1] && (s != 3 || kind != need[s][2]))
            return s == 1 && kind == MX_OPD_NONE ? EMU_BAD_MISSING : EMU_BAD_KIND;
        if (kind == MX_OPD_NONE) {
            if (o->count)
                return EMU_BAD_KIND; /* an absent list has no elements (its count is read) */
            continue;
        }
        if (s == 3 && kind == MX_OPD_TARGETS)
            continue; /* a .branchtargets name: never read (the target comes from the register) */
        int bad = operand_ok(g, f, o);
        if (bad)
            return s == 0 || s == 2 ? EMU_BAD_CALL : bad;
        /* list elements are .param variables (bind_insn took their symbol indices) */
        if (kind == MX_OPD_LIST)
            for (uint32_t e = 0; e < o->count; e++)
                if (g->syms[g->vec[o->reg + e].reg].space != MX_SP_PARAM)
                    return EMU_BAD_CALL;
    }
    if (in->opd[1].kind == MX_OPD_FUNC)
        return emu_call_fits(g, f, in, in->opd[1].reg, slot);
    /* indirect: h_call_ind checks the callee it finds; here the caller's side */
    for (int s = 0; s <= 2; s += 2)
        for (uint32_t e = 0; e < in->opd[s].count; e++) {
            const struct mx_symbol *sy = &g->syms[g->vec[in->opd[s].reg + e].reg];
            if (sy->offset > f->scratch_size || sy->size > f->scratch_size - sy->offset) {
                *slot = s;
                return EMU_BAD_CALL;
            }
        }
    return 0;
}

/* Format kinds (isa/opcodes.def) each operand kind may fill. */
static int kind_fits(char fk, int kind)
{
    switch (fk) {
    case MX_FK_DST: return kind == MX_OPD_REG || kind == MX_OPD_PRED || kind == MX_OPD_SINK || kind == MX_OPD_VEC;
    case MX_FK_PAIR: return kind == MX_OPD_PRED || kind == MX_OPD_SINK;
    case MX_FK_SRC:
        return kind == MX_OPD_REG || kind == MX_OPD_PRED || kind == MX_OPD_IMM || kind == MX_OPD_SREG || kind == MX_OPD_SYM ||
               kind == MX_OPD_FUNC || kind == MX_OPD_VEC;
    case MX_FK_PRED: return kind == MX_OPD_PRED || kind == MX_OPD_IMM || kind == MX_OPD_SREG;
    case MX_FK_MEM: return kind == MX_OPD_ADDR || kind == MX_OPD_TEXADDR;
    case MX_FK_LABEL: return kind == MX_OPD_LABEL;
    case MX_FK_TARGETS: return kind == MX_OPD_TARGETS || kind == MX_OPD_LABEL;
    case MX_FK_INDREG: return kind == MX_OPD_REG || kind == MX_OPD_INDREG || kind == MX_OPD_SINK;
    default: return 0;
    }
}

/* Types and modifiers as the opcode table allows them (isa/opcodes.def:
 * each type slot from its type set, required slots present, modifiers
 * only from the opcode's groups), plus the rules the table cannot express
 * that handlers rely on: the mode modifier that selects what a handler
 * writes (vote/bar.red write a register or a predicate by it) agrees with
 * the type the destination operand was checked against. */
static int types_and_modifiers_ok(const struct mx_insn *in, const struct mx_opinfo *oi)
{
    for (int t = 0; t < MX_MAX_TYPES; t++) {
        int ty = in->type[t];
        if (t >= oi->ntypes ? ty != MX_T_NONE
                            : ty == MX_T_NONE ? t < oi->ntypes_req : ty >= MX_T__COUNT || !(oi->typemask[t] >> ty & 1))
            return 0;
    }
    uint8_t allowed[MX_MG__COUNT] = { 0 };
    for (int g = 0; g < oi->ngroups; g++)
        allowed[oi->groups[g]] = 1;
    for (int g = 0; g < MX_MG__COUNT; g++)
        if (in->mod[g] && (!allowed[g] || in->mod[g] > mx_mg_nvalues(g)))
            return 0;
    switch (in->op) {
    case MX_OP_ATOM: case MX_OP_RED: return in->mod[MX_MG_ATOMOP] != 0;
    case MX_OP_SETP: return in->mod[MX_MG_CMP] != 0;
    case MX_OP_SHFL: return in->mod[MX_MG_SHFL] != 0;
    case MX_OP_VOTE: return in->mod[MX_MG_VOTE] && (in->mod[MX_MG_VOTE] == MX_VOTE_BALLOT) == (in->type[0] != MX_T_PRED);
    case MX_OP_BAR_RED: case MX_OP_BARRIER_RED:
        return in->mod[MX_MG_BAROP] && (in->mod[MX_MG_BAROP] == MX_BAROP_POPC) == (in->type[0] != MX_T_PRED);
    default: return 1;
    }
}

/* 0, or why `in` breaks the generic rules; *slot: the operand (-1: none). */
static int verify(const struct mx_program *g, uint32_t fi, const struct mx_insn *in, int *slot)
{
    const struct mx_func *f = &g->funcs[fi];
    const struct mx_opinfo *oi = mx_opinfo(in->op);
    *slot = -1;
    if (!oi || in->nopd > MX_MAX_OPD)
        return EMU_BAD_OPCODE;
    if (!types_and_modifiers_ok(in, oi))
        return EMU_BAD_OPCODE;
    if (in->guard != MX_NONE && in->guard >= f->npreds)
        return EMU_BAD_GUARD;
    if (in->ipdom != MX_NONE && (in->ipdom < f->first || in->ipdom > f->first + f->ninsns))
        return EMU_BAD_REF; /* the SIMT stack would resume there */
    for (int s = in->nopd; s < MX_MAX_OPD; s++)
        if (in->opd[s].kind != MX_OPD_NONE) {
            *slot = s; /* binders look at in->opd[] */
            return EMU_BAD_KIND;
        }
    if (in->op == MX_OP_CALL)
        return call_ok(g, f, in, slot);
    if (in->nopd > oi->nopd) {
        *slot = oi->nopd;
        return EMU_BAD_KIND;
    }
    unsigned req = 0;
    for (int s = 0; s < oi->nopd; s++) {
        const struct mx_operand *o = &in->opd[s];
        int kind = s < in->nopd ? o->kind : MX_OPD_NONE;
        char fk = oi->kinds[s];
        int optional = fk == MX_FK_PAIR || s == oi->optmid || req >= oi->nreq;
        req += !optional;
        *slot = s;
        if (kind == MX_OPD_NONE) {
            if (!optional)
                return EMU_BAD_MISSING;
            continue;
        }
        if (!kind_fits(fk, kind) || (kind == MX_OPD_VEC && !takes_vectors(in->op)) ||
            (kind == MX_OPD_TEXADDR && oi->unit != MX_UNIT_TEX))
            return EMU_BAD_KIND;
        /* a predicate slot holds a predicate (or a constant); a value slot never does */
        int pslot = mx_opd_type(in, s) == MX_T_PRED;
        if (pslot ? !(kind == MX_OPD_PRED || kind == MX_OPD_IMM || kind == MX_OPD_SINK ||
                      (kind == MX_OPD_SREG && mx_sreg_type((int)o->reg) == MX_T_PRED))
                  : kind == MX_OPD_PRED)
            return EMU_BAD_KIND;
        /* a written predicate is never negated (bind_insn would fold !p into the slot) */
        if (kind == MX_OPD_PRED && (o->flags & MX_OPDF_NEG) && (fk == MX_FK_DST || fk == MX_FK_PAIR))
            return EMU_BAD_KIND;
        int bad = operand_ok(g, f, o);
        if (bad)
            return bad;
    }
    *slot = -1;
    return 0;
}

int emu_bind_verify(const struct mx_program *g, uint32_t fi, const struct mx_insn *in, struct emu_xinsn *x)
{
    pthread_once(&built, build);
    int slot, why = verify(g, fi, in, &slot);
    if (!why)
        return 0;
    x->fn = emu_bind_invalid(x, (enum emu_bad)why, slot, 0);
    x->unit = mx_opinfo(in->op) ? mx_opinfo(in->op)->unit : MX_UNIT_CTRL;
    return -1;
}

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Opcode: mov.{u32,u64} d, %clock / %clock64 / %globaltimer
 * Synopsis: d = a cycle count (the warp's instruction count) or nanoseconds */
static int h_mov_dynsreg(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    uint64_t *d = DST(0), v;
    switch (x->aux2) {
    case MX_SREG_GLOBALTIMER: v = monotonic_ns(); break;
    case MX_SREG_GLOBALTIMER_LO: v = (uint32_t)monotonic_ns(); break;
    case MX_SREG_GLOBALTIMER_HI: v = monotonic_ns() >> 32; break;
    case MX_SREG_CLOCK: v = (uint32_t)w->insns; break;
    case MX_SREG_CLOCK_HI: v = w->insns >> 32; break;
    default: v = w->insns; break;
    }
    if (mx_type_size(x->in->type[0]) == 4)
        v = (uint32_t)v;
    FOR_LANES(m, d[l] = v);
    return EX_NEXT;
}

emu_fn emu_bind_mov_local(void);
emu_fn emu_bind_special(const struct mx_insn *in, struct emu_xinsn *x, int what);
emu_fn emu_bind_special(const struct mx_insn *in, struct emu_xinsn *x, int what)
{
    (void)x;
    if (what == 1 && (in->op == MX_OP_MOV || in->op == MX_OP_CVT))
        return h_mov_dynsreg;
    if (what == 2 && in->op == MX_OP_MOV)
        return emu_bind_mov_local();
    if (what == 2 && in->op == MX_OP_CVTA) {
        emu_fn fn = emu_bind_lookup(in, x);
        if (fn)
            return fn; /* cvta.local of a local symbol: binder adds the window; frame base comes from mov */
    }
    return h_unsupported;
}

#ifdef MX_NO_EXEC_INT
const struct emu_bind_row emu_bind_int[] = { EMU_BIND_END };
#endif
#ifdef MX_NO_EXEC_FP
const struct emu_bind_row emu_bind_fp[] = { EMU_BIND_END };
#endif
#ifdef MX_NO_EXEC_CVT
const struct emu_bind_row emu_bind_cvt[] = { EMU_BIND_END };
#endif

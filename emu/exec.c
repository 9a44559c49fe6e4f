/* emu/exec.c — chooses the handler of each instruction: the binder tables of
 * every opcode family, merged once into a per-opcode list and tried in
 * order; plus the few handlers the core itself needs (dynamic special
 * registers, local-variable addresses, and the "unsupported" trap). */
#include "emu/interp.h"

#include <pthread.h>
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
    add_table(emu_bind_tex);
    add_table(emu_bind_ext);
}

emu_fn emu_bind_lookup(const struct mx_insn *in, struct emu_xinsn *x);
emu_fn emu_bind_lookup(const struct mx_insn *in, struct emu_xinsn *x)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build);
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
    const struct mx_opinfo *oi = mx_opinfo(x->in->op);
    size_t n = (size_t)snprintf(name, sizeof name, "%s", oi->mnemonic);
    for (int g = 0; g < oi->ngroups && n < sizeof name; g++)
        if (x->in->mod[oi->groups[g]])
            n += (size_t)snprintf(name + n, sizeof name - n, ".%s", mx_mod_name(oi->groups[g], x->in->mod[oi->groups[g]]));
    for (int t = 0; t < MX_MAX_TYPES && n < sizeof name; t++)
        if (x->in->type[t])
            n += (size_t)snprintf(name + n, sizeof name - n, ".%s", mx_type_name(x->in->type[t]));
    return emu_fault(w, x, MX_EUNSUPPORTED, __builtin_ctz(m), 0, 0, "unsupported instruction '%s' (not implemented by the emulator yet)", name);
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

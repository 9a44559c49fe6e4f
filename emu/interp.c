/* emu/interp.c — the per-warp interpreter: fetch, guard, dispatch, commit in
 * one short loop; the immediate-post-dominator SIMT stack; call frames with
 * the PTX .param ABI.  The only hot loop of the emulator. */
#include "emu/interp.h"

#include <stdlib.h>

int emu_hostcall(struct emu_warp *w, const struct emu_xinsn *x, const char *name, uint32_t mask, uint8_t *args,
                 uint32_t args_stride, uint8_t *ret, uint32_t ret_stride, int *handled);
void emu_cta_thread_exit(struct emu_warp *w, uint32_t nthreads);

#define SIMT_MAX 4096

void emu_frame_release(struct emu_frame *f)
{
    free(f->regs);
    free(f->preds);
    free(f->param);
    free(f->ret);
    free(f->scratch);
    memset(f, 0, sizeof *f);
}

/* Makes *buf hold at least n bytes, zeroed when first allocated.  A reused
 * buffer keeps its old contents: registers are written before they are read
 * in every valid PTX program, and zeroing each warp's register file for
 * every CTA cost more than running small kernels. */
static int need(void *pbuf, size_t *cap, size_t n)
{
    uint8_t **buf = pbuf;
    if (n > *cap) {
        free(*buf);
        *buf = calloc(1, n);
        if (!*buf) {
            *cap = 0;
            return -1;
        }
        *cap = n;
    }
    return 0;
}

static int frame_alloc(struct emu_warp *w, struct emu_frame *fr, uint32_t fi)
{
    const struct mx_func *f = &w->k->prog->funcs[fi];
    fr->func = fi;
    fr->nregs = f->nregs + w->k->nsregs;
    if (need(&fr->regs, &fr->regs_cap, (size_t)fr->nregs * WARP * sizeof(uint64_t)) ||
        need(&fr->preds, &fr->preds_cap, (size_t)(f->npreds + 1) * sizeof(uint32_t)) ||
        need(&fr->param, &fr->param_cap, (size_t)f->param_size * WARP) ||
        need(&fr->ret, &fr->ret_cap, (size_t)f->ret_size * WARP) ||
        need(&fr->scratch, &fr->scratch_cap, (size_t)f->scratch_size * WARP))
        return MX_ENOMEM;
    return MX_OK;
}

static int simt_push(struct emu_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    if (w->nsimt == w->simt_cap) {
        if (w->simt_cap >= SIMT_MAX)
            return -1;
        uint32_t nc = w->simt_cap ? w->simt_cap * 2 : 16;
        struct emu_simt *s = realloc(w->simt, nc * sizeof *s);
        if (!s)
            return -1;
        w->simt = s;
        w->simt_cap = nc;
    }
    w->simt[w->nsimt++] = (struct emu_simt){ pc, rpc, mask, 0, 0 };
    return 0;
}

static void enter_frame(struct emu_warp *w)
{
    struct emu_frame *fr = &w->frames[w->nframes - 1];
    const struct mx_func *f = &w->k->prog->funcs[fr->func];
    w->regs = fr->regs;
    w->preds = fr->preds;
    w->fend = f->first + f->ninsns;
}

int emu_warp_start(struct emu_warp *w, uint32_t entry, uint32_t mask, uint8_t *kernel_params)
{
    const struct mx_func *f = &w->k->prog->funcs[entry];
    if (!w->frames) {
        w->frames_cap = 4;
        w->frames = calloc(w->frames_cap, sizeof *w->frames);
        if (!w->frames)
            return MX_ENOMEM;
    }
    w->nsimt = 0;
    w->nframes = 1;
    if (frame_alloc(w, &w->frames[0], entry))
        return MX_ENOMEM;
    w->frames[0].call_mask = mask;
    w->local_top = (f->local_size + 15) & ~15ull;
    if (w->local_top > w->local_size)
        return MX_ELIMIT;
    if (simt_push(w, f->first, RPC_NONE, mask))
        return MX_ENOMEM;
    w->kparams = kernel_params;
    w->kparams_size = f->param_size;
    w->pc = f->first;
    w->active = mask;
    emu_warp_state(w, WS_READY);
    enter_frame(w);
    return MX_OK;
}

/* After lanes left (ret/exit) or a group finished: resume the next entry
 * with live lanes, returning from frames whose lanes all returned. */
static int resume(struct emu_warp *w)
{
    for (;;) {
        struct emu_frame *fr = &w->frames[w->nframes - 1];
        if (w->nsimt - 1 > fr->simt_base) {
            w->nsimt--;
            struct emu_simt *top = &w->simt[w->nsimt - 1];
            top->mask &= ~w->exited;
            if (top->mask) {
                if (top->wait)
                    return emu_simt_pick(w) ? EX_JUMP : EX_YIELD;
                w->pc = top->pc;
                w->active = top->mask;
                return EX_JUMP;
            }
            continue;
        }
        /* the frame's base entry is empty: the function is finished */
        if (w->nframes == 1) {
            emu_warp_state(w, WS_DONE);
            w->active = 0;
            return EX_YIELD;
        }
        struct emu_frame *caller = &w->frames[w->nframes - 2];
        const struct mx_program *g = w->k->prog;
        const struct mx_func *callee = &g->funcs[fr->func], *cf = &g->funcs[caller->func];
        const struct emu_xinsn *cx = fr->callsite;
        uint32_t lanes = fr->call_mask & ~w->exited;
        /* copy return values into the caller's .param variables */
        uint32_t nret = cx->in->opd[0].count < callee->nrets ? cx->in->opd[0].count : callee->nrets;
        for (uint32_t k = 0; k < nret; k++) {
            const struct mx_symbol *dsym = &g->syms[w->k->vrefs[cx->r[0] + k]];
            const struct mx_symbol *ssym = &g->syms[callee->ret + k];
            uint64_t n = dsym->size < ssym->size ? dsym->size : ssym->size;
            uint32_t mm = lanes;
            while (mm) {
                int l = __builtin_ctz(mm);
                mm &= mm - 1;
                memcpy(caller->scratch + (size_t)l * cf->scratch_size + dsym->offset,
                       fr->ret + (size_t)l * callee->ret_size + ssym->offset, n);
            }
        }
        w->local_top = fr->local_base;
        w->nsimt = fr->simt_base;
        w->nframes--;
        enter_frame(w);
        struct emu_simt *top = &w->simt[w->nsimt - 1];
        top->mask &= ~w->exited;
        if (top->mask) {
            w->pc = fr->ret_pc;
            w->active = top->mask;
            return EX_JUMP;
        }
        /* every lane of the caller's entry exited inside the callee */
    }
}

int emu_simt_branch(struct emu_warp *w, uint32_t n, const uint32_t *pcs, const uint32_t *masks, uint32_t rpc)
{
    struct emu_frame *fr = &w->frames[w->nframes - 1];
    struct emu_simt *top = &w->simt[w->nsimt - 1];
    if (rpc == top->rpc && w->nsimt - 1 > fr->simt_base)
        w->nsimt--; /* the entry below already waits at rpc with these lanes */
    else
        top->pc = rpc;
    for (uint32_t i = n; i-- > 0;) {
        if (!masks[i] || pcs[i] == rpc)
            continue;
        if (simt_push(w, pcs[i], rpc, masks[i]))
            return emu_fault(w, NULL, MX_ELIMIT, -1, 0, 0, "SIMT stack deeper than %d entries", SIMT_MAX);
    }
    top = &w->simt[w->nsimt - 1];
    if (top->pc == RPC_NONE)
        return resume(w);
    w->pc = top->pc;
    w->active = top->mask & ~w->exited;
    return EX_JUMP;
}

int emu_lanes_exit(struct emu_warp *w, uint32_t m)
{
    m &= ~w->exited;
    w->exited |= m;
    for (uint32_t i = 0; i < w->nsimt; i++)
        w->simt[i].mask &= ~m;
    for (uint32_t i = 0; i < w->nframes; i++)
        w->frames[i].call_mask &= ~m;
    emu_cta_thread_exit(w, (uint32_t)__builtin_popcount(m));
    emu_warpsync_check(w, 0, 0); /* exited lanes count as arrived at bar.warp.sync */
    w->active &= ~m;
    if (w->active)
        return EX_NEXT;
    return resume(w);
}

/* Lanes that wait in the SIMT stack (not running now) at an unguarded exit,
 * or at a ret of the kernel itself, reached directly or through
 * unconditional bra, leave now.  A barrier waits for every non-exited
 * thread, and on the GPU such threads exit on their own while their warp's
 * other lanes wait at the barrier: the early return `if (i >= n) return;
 * ... __syncthreads();`, which nvcc compiles to a branch to the final ret,
 * the branch's join point.  Called before a warp blocks at a barrier. */
void emu_exit_parked(struct emu_warp *w);
void emu_exit_parked(struct emu_warp *w)
{
    if (w->nsimt < 2)
        return;
    const struct mx_program *g = w->k->prog;
    const struct emu_xinsn *xs = w->k->x;
    uint32_t leave = 0, f = w->nframes - 1, above = 0;
    /* from the top down: an entry's lanes are at its pc only when no entry
     * above holds them (a pending path above a reconvergence entry has not
     * reached the reconvergence point yet) */
    for (uint32_t i = w->nsimt; i-- > 0; above |= w->simt[i].mask) {
        while (f > 0 && w->frames[f].simt_base > i)
            f--;
        if (f + 1 < w->nframes && i + 1 == w->frames[f + 1].simt_base)
            continue; /* a caller's running entry: its pc is where it started, not the call */
        const struct mx_func *fn = &g->funcs[w->frames[f].func];
        uint32_t fend = fn->first + fn->ninsns;
        if (w->simt[i].wait)
            continue; /* arrived at a barrier already: counted there */
        uint32_t lanes = w->simt[i].mask & ~w->exited & ~w->active & ~above & ~leave, pc = w->simt[i].pc;
        for (int hop = 0; lanes && hop < 8 && pc <= fend; hop++) {
            if (pc == fend) { /* falling off the end: an implicit ret */
                if (f == 0)
                    leave |= lanes;
                break;
            }
            const struct emu_xinsn *x = &xs[pc];
            if (x->guard != REF_NONE)
                break;
            if (x->in->op == MX_OP_EXIT || (x->in->op == MX_OP_RET && f == 0)) {
                leave |= lanes;
                break;
            }
            if (x->in->op != MX_OP_BRA)
                break;
            pc = x->r[0];
        }
    }
    if (!leave)
        return;
    w->exited |= leave;
    for (uint32_t i = 0; i < w->nsimt; i++)
        w->simt[i].mask &= ~leave;
    for (uint32_t i = 0; i < w->nframes; i++)
        w->frames[i].call_mask &= ~leave;
    emu_cta_thread_exit(w, (uint32_t)__builtin_popcount(leave));
    emu_warpsync_check(w, 0, 0);
}

int emu_lanes_return(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    (void)x;
    if (w->nframes == 1)
        return emu_lanes_exit(w, m);
    struct emu_frame *fr = &w->frames[w->nframes - 1];
    fr->done_mask |= m;
    for (uint32_t i = fr->simt_base; i < w->nsimt; i++)
        w->simt[i].mask &= ~m;
    w->active &= ~m;
    if (w->active)
        return EX_NEXT;
    return resume(w);
}

int emu_call(struct emu_warp *w, const struct emu_xinsn *x, uint32_t fi, uint32_t m)
{
    const struct mx_program *g = w->k->prog;
    const struct mx_func *callee = &g->funcs[fi];
    struct emu_frame *caller = &w->frames[w->nframes - 1];
    const struct mx_func *cf = &g->funcs[caller->func];
    if (callee->flags & MX_FUNCF_DECL) {
        /* no body: a host function (vprintf, malloc, ...), called at the
         * quantum's end so that output and allocations come in a fixed order */
        if (!w->completing)
            return EX_WAIT;
        int handled = 0;
        uint32_t np = x->in->opd[2].count, nr = x->in->opd[0].count;
        /* gather args: pass the caller's scratch with the symbols' offsets, via a packed copy per lane */
        uint8_t argbuf[WARP][64], retbuf[WARP][16];
        memset(argbuf, 0, sizeof argbuf);
        memset(retbuf, 0, sizeof retbuf);
        uint32_t off = 0;
        for (uint32_t j = 0; j < np && j < callee->nparams; j++) {
            const struct mx_symbol *s = &g->syms[w->k->vrefs[x->r[2] + j]];
            const struct mx_symbol *ps = &g->syms[callee->param + j];
            uint64_t sz = ps->size < s->size ? ps->size : s->size;
            uint32_t n = (uint32_t)(sz < 16 ? sz : 16); /* (a dim3 is 12 bytes) */
            off = (uint32_t)ps->offset;
            if (off + n > 64)
                break;
            uint32_t mm = m;
            while (mm) {
                int l = __builtin_ctz(mm);
                mm &= mm - 1;
                memcpy(argbuf[l] + off, caller->scratch + (size_t)l * cf->scratch_size + s->offset, n);
            }
        }
        int r = emu_hostcall(w, x, mx_str(g, callee->name), m, &argbuf[0][0], 64, &retbuf[0][0], 16, &handled);
        if (!handled)
            return emu_fault(w, x, MX_EUNSUPPORTED, -1, 0, 0, "call to '%s', which has no definition in the module and is not a host function the emulator provides",
                             mx_str(g, callee->name));
        if (r != EX_NEXT)
            return r;
        if (nr && callee->nrets) {
            const struct mx_symbol *ds = &g->syms[w->k->vrefs[x->r[0]]];
            uint32_t n = (uint32_t)(ds->size < 16 ? ds->size : 16);
            uint32_t mm = m;
            while (mm) {
                int l = __builtin_ctz(mm);
                mm &= mm - 1;
                memcpy(caller->scratch + (size_t)l * cf->scratch_size + ds->offset, retbuf[l], n);
            }
        }
        return EX_NEXT;
    }
    if (w->nframes >= w->dev->cfg.max_call_depth)
        return emu_fault(w, x, MX_ESTACK, -1, 0, 0, "call stack overflow: more than %u nested calls (recursion too deep?)",
                         w->dev->cfg.max_call_depth);
    if (w->nframes == w->frames_cap) {
        uint32_t nc = w->frames_cap * 2;
        struct emu_frame *f = realloc(w->frames, nc * sizeof *f);
        if (!f)
            return emu_fault(w, x, MX_ENOMEM, -1, 0, 0, "out of host memory for call frames");
        memset(f + w->frames_cap, 0, (nc - w->frames_cap) * sizeof *f);
        w->frames = f;
        w->frames_cap = nc;
        caller = &w->frames[w->nframes - 1];
    }
    struct emu_frame *fr = &w->frames[w->nframes];
    if (frame_alloc(w, fr, fi))
        return emu_fault(w, x, MX_ENOMEM, -1, 0, 0, "out of host memory for a call frame");
    uint32_t np = x->in->opd[2].count < callee->nparams ? x->in->opd[2].count : callee->nparams;
    for (uint32_t j = 0; j < np; j++) {
        const struct mx_symbol *s = &g->syms[w->k->vrefs[x->r[2] + j]];
        const struct mx_symbol *ps = &g->syms[callee->param + j];
        uint64_t n = s->size < ps->size ? s->size : ps->size;
        uint32_t mm = m;
        while (mm) {
            int l = __builtin_ctz(mm);
            mm &= mm - 1;
            memcpy(fr->param + (size_t)l * callee->param_size + ps->offset,
                   caller->scratch + (size_t)l * cf->scratch_size + s->offset, n);
        }
    }
    memcpy(fr->regs + (size_t)callee->nregs * WARP, caller->regs + (size_t)cf->nregs * WARP,
           (size_t)w->k->nsregs * WARP * sizeof(uint64_t));
    fr->local_base = (w->local_top + 15) & ~15ull;
    if (fr->local_base + callee->local_size > w->local_size)
        return emu_fault(w, x, MX_ESTACK, -1, 0, 0, "local memory (stack) of %llu bytes per thread exhausted by call to '%s'",
                         (unsigned long long)w->local_size, mx_str(g, callee->name));
    w->local_top = fr->local_base + callee->local_size;
    fr->ret_pc = w->pc + 1;
    fr->call_mask = m;
    fr->done_mask = 0;
    fr->callsite = x;
    fr->simt_base = w->nsimt;
    if (simt_push(w, callee->first, RPC_NONE, m))
        return emu_fault(w, x, MX_ELIMIT, -1, 0, 0, "SIMT stack overflow");
    w->nframes++;
    enter_frame(w);
    w->pc = callee->first;
    w->active = m;
    return EX_JUMP;
}

int emu_warp_complete(struct emu_warp *w)
{
    const struct emu_xinsn *x = &w->k->x[w->pc];
    uint32_t m = w->active;
    if (x->guard != REF_NONE)
        m &= emu_pred(w, x->guard);
    emu_warp_state(w, WS_READY);
    w->completing = 1;
    int r = x->fn(w, x, m);
    w->completing = 0;
    if (r == EX_NEXT)
        w->pc++;
    return r;
}

/* The interpreter loop: budget steps; *last (when asked: the constant NULL
 * folds it away) gets each instruction executed. */
static inline __attribute__((always_inline)) int warp_run(struct emu_warp *w, uint32_t budget,
                                                          const struct emu_xinsn **last)
{
    const struct emu_xinsn *xs = w->k->x;
    while (budget--) {
        struct emu_simt *top = &w->simt[w->nsimt - 1];
        if (__builtin_expect(w->pc == top->rpc, 0)) {
            /* reconvergence point reached: lanes of this entry rejoin the one below */
            w->nsimt--;
            top = &w->simt[w->nsimt - 1];
            top->mask &= ~w->exited;
            if (!top->mask) {
                int r = resume(w);
                if (r != EX_JUMP)
                    return r;
                continue;
            }
            if (__builtin_expect(top->wait != 0, 0)) {
                /* the lanes below wait at a barrier: run another path or block */
                if (!emu_simt_pick(w))
                    return EX_YIELD;
                continue;
            }
            w->pc = top->pc;
            w->active = top->mask;
            continue;
        }
        if (__builtin_expect(w->pc >= w->fend, 0)) {
            /* fell off the end of the function: an implicit ret */
            int r = emu_lanes_return(w, NULL, w->active);
            if (r == EX_NEXT) /* cannot happen: all active lanes returned */
                r = resume(w);
            if (r != EX_JUMP)
                return r;
            continue;
        }
        const struct emu_xinsn *x = &xs[w->pc];
        uint32_t m = w->active;
        if (x->guard != REF_NONE)
            m &= emu_pred(w, x->guard);
        w->insns++;
        w->unit_insns[x->unit]++;
        w->thread_insns += popc32(w->active);
        if (last)
            *last = x;
        if (!m) {
            w->pc++;
            continue;
        }
        int r = x->fn(w, x, m);
        if (__builtin_expect(r == EX_NEXT, 1)) {
            w->pc++;
            continue;
        }
        if (r == EX_JUMP)
            continue;
        return r;
    }
    return EX_NEXT;
}

int emu_warp_run(struct emu_warp *w, uint32_t budget) { return warp_run(w, budget, NULL); }

int emu_warp_step(struct emu_warp *w, const struct emu_xinsn **x)
{
    uint64_t i0 = w->insns;
    *x = NULL;
    int r;
    /* a step that only reconverges executes nothing: take the next */
    for (int n = 0; (r = warp_run(w, 1, x)) == EX_NEXT && w->insns == i0 && n < 64; n++)
        ;
    return r;
}

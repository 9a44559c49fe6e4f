/* emu/simt.c — independent thread scheduling at barriers: the lanes of a
 * SIMT entry that reach bar.sync / bar.warp.sync park there (entry.wait),
 * and the warp runs another of its diverged paths; the warp blocks only
 * when every path waits.  Used by the interpreter (interp.c), the barrier
 * instructions (exec_sync.c) and barrier release (barrier.c); calls nothing
 * of theirs. */
#include "emu/emu-internal.h"

/* Sets the warp to run its top SIMT entry or, when the top's lanes wait at a
 * barrier, another diverged path of the current function whose lanes wait
 * for nothing: the first such entry from the top down, moved to the top.
 * An entry whose lanes overlap waiting lanes is an enclosing reconvergence
 * entry, never a candidate; a path found this way reconverges into the
 * entries below it as before.  Returns 1 when the warp can run, 0 when every
 * path waits (the warp blocks in WS_BARRIER, pc past the barrier). */
int emu_simt_pick(struct emu_warp *w)
{
    struct emu_simt *s = w->simt;
    uint32_t top = w->nsimt - 1;
    if (!s[top].wait) {
        w->pc = s[top].pc;
        w->active = s[top].mask & ~w->exited;
        emu_warp_state(w, WS_READY);
        return 1;
    }
    uint32_t base = w->frames[w->nframes - 1].simt_base, waiting = 0;
    for (uint32_t i = base; i <= top; i++)
        if (s[i].wait)
            waiting |= s[i].mask;
    for (uint32_t i = top; i-- > base + 1;) {
        uint32_t m = s[i].mask & ~w->exited;
        if (s[i].wait || !m || (m & waiting))
            continue;
        struct emu_simt e = s[i];
        memmove(&s[i], &s[i + 1], (size_t)(top - i) * sizeof *s);
        s[top] = e;
        w->pc = e.pc;
        w->active = m;
        emu_warp_state(w, WS_READY);
        return 1;
    }
    emu_warp_state(w, WS_BARRIER);
    w->bar_id = s[top].wait - 1;
    w->pc = s[top].pc;
    w->active = s[top].mask & ~w->exited;
    return 0;
}

/* Parks the running lanes (the top entry) until `wait` is satisfied and
 * picks what the warp runs next; resume at pc. */
void emu_simt_wait(struct emu_warp *w, uint32_t pc, uint32_t wait, uint32_t need)
{
    struct emu_simt *top = &w->simt[w->nsimt - 1];
    top->pc = pc;
    top->wait = wait;
    top->need = need;
}

int emu_simt_park(struct emu_warp *w, uint32_t pc, uint32_t wait, uint32_t need)
{
    emu_simt_wait(w, pc, wait, need);
    return emu_simt_pick(w) ? EX_JUMP : EX_YIELD;
}

/* Releases the lanes parked at bar.warp.sync whose member lanes have all
 * arrived (at any bar.warp.sync) or exited; `extra` are lanes arriving now.
 * Returns 1 when every lane of `need` (the arriving lanes' mask) is there. */
int emu_warpsync_check(struct emu_warp *w, uint32_t extra, uint32_t need)
{
    uint32_t arrived = extra, exists = w->nthreads == WARP ? FULL_MASK : (1u << w->nthreads) - 1;
    for (uint32_t i = 0; i < w->nsimt; i++)
        if (w->simt[i].wait == WAIT_WARPSYNC)
            arrived |= w->simt[i].mask;
    arrived |= w->exited | ~exists;
    for (uint32_t i = 0; i < w->nsimt; i++)
        if (w->simt[i].wait == WAIT_WARPSYNC && !(w->simt[i].need & ~arrived))
            w->simt[i].wait = 0;
    return !(need & ~arrived);
}


/* emu/access.c — one lane's guest access: the generic-address windows
 * (shared, local) resolved, bounds and alignment checked against the
 * allocations, and a compute-sanitizer-style fault recorded when it fails.
 * Above device memory (mem.c) and the fault reports (fault.c). */
#include "emu/access.h"

#include <stdio.h>
#include <stdlib.h>

static const char *space_text(int sp)
{
    static const char *const t[] = { "generic", "global", "shared", "local", "const", "param", "param", "param", "param" };
    return sp >= 0 && sp <= SP_PARAM_SCRATCH ? t[sp] : "?";
}

/* why: more on the cause after the message, "" for none. */
static int oob(struct emu_warp *w, const struct emu_xinsn *x, int sp, uint64_t addr, unsigned size, int lane, int write,
               const char *why)
{
    return emu_fault(w, x, MX_EMEMFAULT, lane, addr, size, "Invalid __%s__ %s of size %u bytes at 0x%llx is out of bounds%s",
                     space_text(sp), write ? "write" : "read", size, (unsigned long long)addr, why);
}

uint8_t *emu_mem_access(struct emu_warp *w, const struct emu_xinsn *x, int sp, uint64_t addr, unsigned size,
                        int lane, int kind, int *log)
{
    int write = kind != ACC_READ;
    if (size > 1 && (addr & (size - 1))) {
        emu_fault(w, x, MX_EMISALIGNED, lane, addr, size, "Invalid __%s__ %s of size %u bytes at 0x%llx is misaligned",
                  space_text(sp), write ? "write" : "read", size, (unsigned long long)addr);
        return NULL;
    }
    if (sp == SP_GENERIC) {
        if (addr - MEM_SHARED_WIN < MEM_WIN_SIZE) {
            sp = SP_SHARED;
            addr -= MEM_SHARED_WIN;
        } else if (addr - MEM_LOCAL_WIN < MEM_WIN_SIZE) {
            sp = SP_LOCAL;
            addr -= MEM_LOCAL_WIN;
        } else {
            sp = SP_GLOBAL;
        }
    }
    switch (sp) {
    case SP_GLOBAL:
    case SP_CONST: {
        if (__builtin_expect(w->cta->grid->helper, 0) ? !emu_mem_line_ok(w->dev, addr, size)
                                                        : !emu_glob_check(w, addr, addr + size)) {
            oob(w, x, sp, addr, size, lane, write, "");
            return NULL;
        }
        if (__builtin_expect(w->port != NULL, 0) && sp == SP_GLOBAL) {
            /* completing a port request: a line the memory-side agent holds is its bytes, not device memory's */
            struct mx_port *pt = w->port;
            uint64_t ln = addr & ~(uint64_t)(MX_PORT_LINE - 1);
            for (uint32_t i = 0; i < pt->n; i++)
                if (pt->l[i].line == ln) {
                    unsigned o = (unsigned)(addr - ln);
                    if (write)
                        for (unsigned b = o; b < o + size; b++)
                            pt->l[i].wmask[b >> 5] |= 1u << (b & 31);
                    return pt->l[i].data + o;
                }
        }
        /* an aligned access of at most 64 bytes lies in one block */
        uint64_t key = emu_blk_key(addr);
        unsigned off = (unsigned)(addr & (BLK_SIZE - 1));
        if (!write) {
            const uint8_t *p = emu_glob_rd(w, addr);
            if (!p)
                goto nomem;
            return (uint8_t *)p;
        }
        int nomem = 0;
        struct emu_blk *b = key == w->wr_key[0] ? w->wr_blk[0] : emu_ov_blk(w, key, &nomem);
        if (!b) {
            if (nomem)
                goto nomem;
            /* completing a request at the quantum's end: device memory itself */
            const uint8_t *p = emu_glob_rd(w, addr);
            if (!p)
                goto nomem;
            return (uint8_t *)p;
        }
        if (kind == ACC_RED && !b->full)
            emu_ov_full(b); /* it reads the old value */
        uint64_t m = size >= 64 ? ~0ull : ((1ull << size) - 1) << (off & 63);
        if (kind == ACC_RED && !(b->dirty[off >> 6] & m)) {
            /* a reduction on bytes the SM did not store to: logged, merged as a reduction */
            if (!b->has_red) {
                memset(b->redb, 0, sizeof b->redb);
                b->has_red = 1;
            }
            b->redb[off >> 6] |= m;
            *log = 1;
        } else {
            emu_blk_mark(w, b, off, size);
        }
        return b->data + off;
    nomem:
        emu_fault(w, x, MX_ENOMEM, lane, addr, size, "out of host memory backing device memory");
        return NULL;
    }
    case SP_SHARED: {
        uint64_t ssz;
        uint8_t *s = emu_cta_shared(w->cta, &ssz);
        if (addr >= ssz || addr + size > ssz) {
            oob(w, x, SP_SHARED, addr, size, lane, write, "");
            return NULL;
        }
        return s + addr;
    }
    case SP_LOCAL:
        if (addr >= w->local_size || addr + size > w->local_size) {
            char why[160] = ""; /* lowered SASS that moves its stack pointer: the stack overflowed */
            if (w->k->sreg_row[SS_STACK])
                snprintf(why, sizeof why, ": outside the stack of %llu bytes per thread (cudaLimitStackSize), which the "
                         "code moves its stack pointer through", (unsigned long long)w->local_size);
            oob(w, x, SP_LOCAL, addr, size, lane, write, why);
            return NULL;
        }
        uint64_t off = (uint64_t)lane * w->local_size + addr;
        if (write) { /* the pages of the first and last byte: an access never spans more than two */
            w->local_pages[off >> (LOCAL_PAGE_SHIFT + 6)] |= 1ull << ((off >> LOCAL_PAGE_SHIFT) & 63);
            uint64_t end = off + size - 1;
            w->local_pages[end >> (LOCAL_PAGE_SHIFT + 6)] |= 1ull << ((end >> LOCAL_PAGE_SHIFT) & 63);
        }
        return w->local + off;
    default:
        emu_fault(w, x, MX_EILLEGAL, lane, addr, size, "memory access to the %s space through an address", space_text(sp));
        return NULL;
    }
}

uint8_t *emu_mem_lane(struct emu_warp *w, const struct emu_xinsn *x, int sp, uint64_t addr, unsigned size, int lane,
                      int write)
{
    return emu_mem_access(w, x, sp, addr, size, lane, write ? ACC_WRITE : ACC_READ, NULL);
}

/* A helper warp's global access, to the timing model while it serves a timed port request (it runs on
 * the calling thread at a quantum's end, its SM's clock set to when it issues; sched.c helper_run): a .cg
 * access is a line's DRAM fetch or write-back, the rest (its request's row, which the controller's message
 * brings; the l1 variant's blocks) is served by its SM's L1. */
static void helper_timed(struct emu_warp *w, const struct emu_xinsn *x, int space, int op, uint32_t m,
                         const uint64_t *addr, unsigned bytes)
{
    const struct tm_ops *tm = w->dev->cfg.timing;
    if (!w->dev->helper_timing || !tm->mem || !(tm->events & TM_EV_MEM) ||
        !(space == MX_MS_GLOBAL || (space < 0 && x->space == SP_GLOBAL)))
        return;
    struct emu_sm *sm = w->cta->sm;
    uint32_t n = 0;
    uint64_t seen[64];
    FOR_LANES(m, { /* its distinct lines */
        uint64_t ln = addr[l] >> 7;
        uint32_t k = 0;
        while (k < n && seen[k] != ln)
            k++;
        if (k == n && n < 64)
            seen[n++] = ln;
    });
    struct tm_mem ev = { .sm = sm->id, .cta = (uint32_t)w->cta->id, .warp = w->warp_id,
                         .pc = (uint32_t)(x - w->k->x), .space = MX_MS_GLOBAL,
                         .write = op == MX_MOP_ST || op == MX_MOP_RED, .atomic = op == MX_MOP_ATOM || op == MX_MOP_RED,
                         .size = (uint8_t)bytes, .lines = n, .active = m, .clock = sm->clock, .addr = addr,
                         .grid_ctas = (uint32_t)w->cta->grid->ncta,
                         .wslot = (uint32_t)(w->cta - sm->slots) * 32 + w->warp_id };
    ev.level = x->in->mod[MX_MG_CACHE] == MX_CACHE_CG ? TM_LV_DRAM : TM_LV_L1;
    uint64_t done = sm->clock + tm->mem(w->dev->cfg.timing_state, &ev);
    if (!(tm->events & TM_EV_DEPS) && !ev.write && done > w->helper_hold)
        w->helper_hold = done;
}

int emu_mem_request(struct emu_warp *w, const struct emu_xinsn *x, int op, int space, uint32_t m, const uint64_t *addr,
                    unsigned bytes, int cross)
{
    const struct mx_memif *mi = w->dev->cfg.memif;
    struct emu_sm *sm = w->cta->sm;
    w->wait_local = 0;
    w->wait_until = 0;
    if (__builtin_expect(w->cta->grid->helper, 0)) { /* (the helper kernel is the memory side itself) */
        helper_timed(w, x, space, op, m, addr, bytes);
        return cross ? EX_WAIT : 0;
    }
    if (!mi)
        return cross ? EX_WAIT : 0;
    if (space < 0) {
        switch (x->space) {
        case SP_GLOBAL: space = MX_MS_GLOBAL; break;
        case SP_LOCAL: space = MX_MS_LOCAL; break;
        case SP_CONST: space = MX_MS_CONST; break;
        case SP_GENERIC: { /* the space of its lanes: global if any lane's is, else local; shared stays on the SM */
            int loc = 0;
            FOR_LANES(m, {
                uint64_t a = addr[l];
                if (a - MEM_SHARED_WIN >= MEM_WIN_SIZE && a - MEM_LOCAL_WIN >= MEM_WIN_SIZE)
                    space = MX_MS_GLOBAL;
                else if (a - MEM_LOCAL_WIN < MEM_WIN_SIZE)
                    loc = 1;
            });
            if (space < 0 && loc)
                space = MX_MS_LOCAL;
            break;
        }
        default: break; /* shared memory and parameters: no request */
        }
    }
    if (space < 0)
        return cross ? EX_WAIT : 0;
    struct mx_memreq r;
    r.sm = sm->id;
    r.cta = w->cta->id;
    r.warp = w->warp_id;
    r.pc = (uint32_t)(x - w->k->x);
    r.line = x->in->line;
    r.space = (uint8_t)space;
    r.op = (uint8_t)op;
    r.cop = x->in->mod[MX_MG_CACHE];
    r.nc = x->in->mod[MX_MG_NC] != 0;
    r.bytes = (uint8_t)bytes;
    /* .volatile, or a memory-model order wider than the CTA: L1 cannot serve it */
    int sem = x->in->mod[MX_MG_SEM];
    r.strong = sem && sem != MX_SEM_WEAK && x->in->mod[MX_MG_SCOPE] != MX_SCOPE_CTA;
    r.smem = (uint32_t)sm->shared_used;
    r.rf = (uint32_t)(sm->regs_used * 4);
    r.mask = m;
    r.clock = sm->clock + (sm->running == w ? w->insns - sm->run_insns0 : 0);
    for (int l = 0; l < WARP; l++)
        r.addr[l] = (m >> l & 1) ? addr[l] : 0;
    r.atom = 0;
    if ((op == MX_MOP_ATOM || op == MX_MOP_RED) && w->atom_code) {
        r.atom = w->atom_code;
        FOR_LANES(m, {
            r.aval[l] = w->atom_b[l];
            r.acmp[l] = w->atom_c ? w->atom_c[l] : 0;
        });
    }
    /* a timing model: the level the hierarchy would serve it from, asked before the request changes it */
    const struct tm_ops *tm = w->dev->cfg.timing;
    uint32_t nl = 0;
    uint64_t la[64];
    uint8_t ll[64];
    uint16_t lb[64];
    int timed = tm && tm->mem && (tm->events & TM_EV_MEM) && mi->probe;
    uint8_t lv = timed ? mi->probe(mi->ctx, &r, &nl, la, ll, lb) : 0;
    uint64_t t = mi->request(mi->ctx, &r);
    if (timed && !cross) {
        struct tm_mem ev = { .sm = r.sm, .cta = (uint32_t)r.cta, .warp = r.warp, .pc = r.pc, .space = r.space,
                             .write = op == MX_MOP_ST || op == MX_MOP_RED, .atomic = op == MX_MOP_ATOM || op == MX_MOP_RED,
                             .size = r.bytes, .level = lv, .lines = nl, .active = m, .clock = r.clock, .addr = r.addr,
                             .grid_ctas = w->cta->grid->ncta > UINT32_MAX ? UINT32_MAX : (uint32_t)w->cta->grid->ncta };
        ev.wslot = (uint32_t)(w->cta - sm->slots) * 32 + w->warp_id;
        ev.line_addr = la;
        ev.line_level = ll;
        ev.line_bytes = lb;
        ev.helper = t == MX_MEMREQ_PORT && (lv == TM_LV_XLLC || lv == TM_LV_XLLC_DRAM);
        uint64_t done = r.clock + tm->mem(w->dev->cfg.timing_state, &ev);
        if (t == MX_MEMREQ_PORT) { /* the quantum's end times the rest (sched.c complete_port) */
            w->port_at = done;
            w->port_timed = ev.helper ? 2 : 1;
        } else if (!(tm->events & TM_EV_DEPS)) { /* else the model's scoreboard holds the warp when it uses the data */
            t = done > t ? done : t;
        }
    }
    if (t == MX_MEMREQ_PORT) { /* completes at the quantum's end through the port: keep the request */
        uint32_t n = w->dev->cfg.max_warps_per_sm, i = 0;
        if (!sm->preq) {
            sm->preq = calloc(n, sizeof *sm->preq);
            sm->preq_busy = calloc(n, 1);
            if (!sm->preq || !sm->preq_busy) {
                free(sm->preq);
                free(sm->preq_busy);
                sm->preq = NULL;
                sm->preq_busy = NULL;
                return emu_fault(w, x, MX_ENOMEM, -1, 0, 0, "out of host memory for pending requests");
            }
        }
        while (i < n && sm->preq_busy[i])
            i++;
        if (i == n) /* cannot happen: one per resident warp */
            return emu_fault(w, x, MX_ELIMIT, -1, 0, 0, "more port requests than warps on SM %u", sm->id);
        sm->preq_busy[i] = 1;
        sm->preq[i] = r;
        w->port_slot = i + 1;
        return EX_WAIT;
    }
    if (cross) { /* completes at the first quantum's end from t on */
        w->wait_until = t > r.clock ? t : 0;
        return EX_WAIT;
    }
    if (t <= r.clock)
        return 0;
    w->wait_local = 1;
    w->wait_until = t;
    return EX_WAIT;
}

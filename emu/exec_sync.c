/* emu/exec_sync.c — CTA barriers (bar/barrier .sync .arrive .red) and the
 * warp-synchronous instructions: vote, shfl, match, redux, activemask,
 * bar.warp.sync.  Warps of a CTA run in turn; lanes at a barrier park until
 * every live thread (or the count given) arrived, while the other diverged
 * paths of their warp go on (independent thread scheduling, sm_70+). */
#include "emu/interp.h"

int emu_cta_barrier_arrive(struct emu_warp *w, uint32_t bar, uint32_t count, uint32_t threads);
int emu_cta_barrier_red(struct emu_warp *w, uint32_t bar, uint32_t count, uint32_t threads, uint32_t kind,
                        uint32_t dref, uint32_t votes);
void emu_exit_parked(struct emu_warp *w);

static uint32_t first_val(const uint64_t *v, uint32_t m) { return (uint32_t)v[__builtin_ctz(m)]; }

/* A barrier whose guard holds for some of the running lanes only (`@p barrier.sync 0; @!p barrier.sync 0`,
 * each lane at one of them): where the lanes that skip it rejoin those that wait, the first instruction after
 * it that is not guarded by the same predicate (either sense) or is a branch, call or return (the end of the
 * straight-line region the guard covers), or 0 if that is the very next one (then the lanes that skip would
 * wait there behind the barrier: no use splitting). */
static uint32_t guarded_region_end(const struct emu_warp *w, const struct emu_xinsn *x)
{
    const struct emu_xinsn *xs = w->k->x;
    uint32_t pred = x->guard & ~REF_NEG, j = w->pc + 1;
    while (j < w->fend && xs[j].guard != REF_NONE && (xs[j].guard & ~REF_NEG) == pred && xs[j].unit != MX_UNIT_CTRL)
        j++;
    return j > w->pc + 1 && j < w->fend ? j : 0;
}

/* Opcode: bar.sync a{, b} / barrier.sync   Synopsis: wait until b (default: all live) threads arrived at barrier a
 * The barrier counts threads (sm_70+): the executing lanes park at it and
 * the warp goes on with its other diverged paths, which may arrive at the
 * same barrier through another bar.sync.  Where the guard leaves some of
 * the running lanes out, those go on past it as a path of their own
 * (guarded_region_end: they rejoin the waiting ones after the region). */
static int h_bar_sync(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    uint32_t bar = first_val(SRC(0), m);
    uint32_t cnt = x->r[1] != REF_NONE ? first_val(SRC(1), m) : 0;
    if (bar >= 16)
        return emu_fault(w, x, MX_EILLEGAL, -1, 0, 0, "barrier number %u out of range 0..15", bar);
    emu_exit_parked(w); /* lanes waiting only to exit do not hold the barrier up */
    uint32_t next = w->pc + 1, rest = w->active & ~m, rpc = rest ? guarded_region_end(w, x) : 0;
    if (rpc) { /* the waiting lanes' path on top, then the others', both from the next instruction */
        const uint32_t pcs[2] = { next, next }, masks[2] = { m, rest };
        int r = emu_simt_branch(w, 2, pcs, masks, rpc);
        if (r != EX_JUMP)
            return r;
    }
    emu_simt_wait(w, next, bar + 1, 0); /* before arriving: the release may free these lanes at once */
    emu_cta_barrier_arrive(w, bar, cnt, (uint32_t)__builtin_popcount(m)); /* may release it at once */
    return emu_simt_pick(w) ? EX_JUMP : EX_YIELD;
}

/* Opcode: bar.arrive a, b   Synopsis: count lanes m as arrived at barrier a, do not wait */
static int h_bar_arrive(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    uint32_t bar = first_val(SRC(0), m), cnt = first_val(SRC(1), m);
    if (bar >= 16)
        return emu_fault(w, x, MX_EILLEGAL, -1, 0, 0, "barrier number %u out of range 0..15", bar);
    emu_cta_barrier_arrive(w, bar, cnt, (uint32_t)__builtin_popcount(m));
    return EX_NEXT;
}

/* Opcode: bar.red.{popc.u32,and.pred,or.pred} d, a{, b}, {!}c
 * Synopsis: barrier, then d = reduction of c over the arriving threads */
static int h_bar_red(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    uint32_t bar = first_val(SRC(1), m);
    uint32_t cnt = x->r[2] != REF_NONE ? first_val(SRC(2), m) : 0;
    if (bar >= 16)
        return emu_fault(w, x, MX_EILLEGAL, -1, 0, 0, "barrier number %u out of range 0..15", bar);
    if (w->red_ref != REF_NONE)
        return emu_fault(w, x, MX_EUNSUPPORTED, -1, 0, 0,
                         "bar.red on two diverged paths of one warp at once is not supported");
    uint32_t votes = PSRC(3) & m;
    emu_exit_parked(w);
    emu_simt_wait(w, w->pc + 1, bar + 1, 0);
    emu_cta_barrier_red(w, bar, cnt, (uint32_t)__builtin_popcount(m), x->in->mod[MX_MG_BAROP],
                        x->r[0] | (x->in->type[0] == MX_T_PRED ? REF_NEG : 0), votes);
    return emu_simt_pick(w) ? EX_JUMP : EX_YIELD;
}

/* Opcode: bar.warp.sync mask   Synopsis: wait until every non-exited lane of mask executed a bar.warp.sync
 * Lanes of the mask on another diverged path are run until they arrive. */
static int h_warp_sync(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    uint32_t need = first_val(SRC(0), m);
    if (emu_warpsync_check(w, m, need))
        return EX_NEXT;
    return emu_simt_park(w, w->pc + 1, WAIT_WARPSYNC, need);
}

/* Opcode: activemask.b32 d   Synopsis: d = mask of the lanes executing */
static int h_activemask(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    uint64_t *d = DST(0);
    uint32_t a = w->active;
    FOR_LANES(m, d[l] = a);
    return EX_NEXT;
}

/* The lanes of m that give the same membermask as lane l0 (mk: the mask
 * operand's lanes): one group of a warp-synchronous instruction, which
 * waits for and combines the lanes its membermask names.  Lanes of a warp
 * whose masks differ (cooperative groups' labeled partitions) form as many
 * groups, each computed on its own. */
static inline uint32_t same_mask(const uint64_t *mk, uint32_t m, int l0)
{
    uint32_t g = 0, v = (uint32_t)mk[l0];
    FOR_LANES(m, g |= (uint32_t)((uint32_t)mk[l] == v) << l);
    return g;
}

/* The lanes a group combines: the active lanes of its membermask (a lane
 * outside its own mask is undefined in PTX: it then combines its group). */
static inline uint32_t members(const uint64_t *mk, uint32_t m, uint32_t grp)
{
    uint32_t part = (uint32_t)mk[__builtin_ctz(grp)] & m;
    return part ? part : grp;
}

/* Opcode: vote{.sync}.{all,any,uni}.pred d, {!}a{, mask} / vote{.sync}.ballot.b32 d, {!}a{, mask}
 * Synopsis: d = all/any/uniform/ballot of a over the executing lanes of mask */
static int h_vote(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    uint32_t p = PSRC(1) & m;
    const uint64_t *mk = x->r[2] != REF_NONE ? SRC(2) : NULL;
    uint64_t *d = x->in->mod[MX_MG_VOTE] == MX_VOTE_BALLOT ? DST(0) : NULL;
    uint32_t res = 0;
    for (uint32_t rem = m; rem;) {
        uint32_t grp = mk ? same_mask(mk, rem, __builtin_ctz(rem)) : rem, part = mk ? members(mk, m, grp) : m;
        uint32_t pp = p & part;
        rem &= ~grp;
        switch (x->in->mod[MX_MG_VOTE]) {
        case MX_VOTE_BALLOT: FOR_LANES(grp, d[l] = pp); break;
        case MX_VOTE_ALL: res |= pp == part ? grp : 0; break;
        case MX_VOTE_ANY: res |= pp ? grp : 0; break;
        default: res |= (pp == part || pp == 0) ? grp : 0; break;
        }
    }
    if (!d)
        PDST(0, res);
    return EX_NEXT;
}

/* Opcode: shfl.sync.{up,down,bfly,idx}.b32 d{|p}, a, b, c, mask
 * Synopsis: d = a of the lane chosen by mode, b and the clamp/segment value c; p = chosen lane valid */
static int h_shfl(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *a = SRC(2), *b = SRC(3), *c = SRC(4);
    uint64_t *d = x->r[0] == REF_NONE ? NULL : DST(0);
    uint64_t tmp[WARP];
    uint32_t pv = 0;
    int mode = x->in->mod[MX_MG_SHFL];
    FOR_LANES(m, {
        uint32_t bv = (uint32_t)b[l] & 31, cv = (uint32_t)c[l];
        uint32_t seg = (cv >> 8) & 31, clamp = cv & 31;
        int maxl = (int)(((uint32_t)l & seg) | (clamp & ~seg)), minl = (int)((uint32_t)l & seg);
        int j, ok;
        switch (mode) {
        case MX_SHFL_UP: j = l - (int)bv; ok = j >= maxl; break;
        case MX_SHFL_DOWN: j = l + (int)bv; ok = j <= maxl; break;
        case MX_SHFL_BFLY: j = l ^ (int)bv; ok = j <= maxl; break;
        default: j = minl | (int)(bv & ~seg); ok = j <= maxl; break;
        }
        if (!ok || j < 0 || j > 31)
            j = l;
        tmp[l] = (uint32_t)a[j];
        pv |= (uint32_t)ok << l;
    });
    if (d)
        FOR_LANES(m, d[l] = tmp[l]);
    if (x->r[1] != REF_NONE)
        PDST(1, pv);
    return EX_NEXT;
}

/* Opcode: match.{any,all}.sync.{b32,b64} d{|p}, a, mask
 * Synopsis: any: d = lanes with the same a; all: d = mask if all equal else 0, p = all equal */
static int h_match(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *a = SRC(2);
    uint64_t *d = DST(0);
    uint64_t wm = x->in->type[0] == MX_T_B64 ? ~0ull : 0xffffffffull;
    if (x->in->mod[MX_MG_MATCH] == MX_MATCH_ANY) {
        uint64_t res[WARP];
        FOR_LANES(m, {
            uint32_t s = 0, mm = m;
            while (mm) {
                int j = __builtin_ctz(mm);
                mm &= mm - 1;
                if ((a[j] & wm) == (a[l] & wm))
                    s |= 1u << j;
            }
            res[l] = s;
        });
        FOR_LANES(m, d[l] = res[l]);
        return EX_NEXT;
    }
    uint64_t v0 = a[__builtin_ctz(m)] & wm;
    int all = 1;
    FOR_LANES(m, all &= (a[l] & wm) == v0);
    FOR_LANES(m, d[l] = all ? m : 0);
    if (x->r[1] != REF_NONE)
        PDST(1, all ? FULL_MASK : 0);
    return EX_NEXT;
}

/* Opcode: redux.sync.{add,min,max,and,or,xor}.{u32,s32,b32} d, a, mask
 * Synopsis: d = reduction of a over the executing lanes of mask */
static int h_redux(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *a = SRC(1), *mk = SRC(2);
    uint64_t *d = DST(0);
    int op = x->in->mod[MX_MG_REDUXOP], sg = x->in->type[0] == MX_T_S32;
    for (uint32_t rem = m; rem;) {
        uint32_t grp = same_mask(mk, rem, __builtin_ctz(rem)), part = members(mk, m, grp);
        rem &= ~grp;
        uint32_t acc = (uint32_t)a[__builtin_ctz(part)];
        for (uint32_t mm = part & (part - 1); mm; mm &= mm - 1) {
            uint32_t v = (uint32_t)a[__builtin_ctz(mm)];
            switch (op) {
            case MX_REDUXOP_ADD: acc += v; break;
            case MX_REDUXOP_MIN: acc = sg ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
            case MX_REDUXOP_MAX: acc = sg ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
            case MX_REDUXOP_AND: acc &= v; break;
            case MX_REDUXOP_OR: acc |= v; break;
            default: acc ^= v; break;
            }
        }
        FOR_LANES(grp, d[l] = acc);
    }
    return EX_NEXT;
}

static emu_fn bind_bar(const struct mx_insn *in, struct emu_xinsn *x)
{
    (void)x;
    switch (in->op) {
    case MX_OP_BAR_ARRIVE: case MX_OP_BARRIER_ARRIVE: return h_bar_arrive;
    case MX_OP_BAR_RED: case MX_OP_BARRIER_RED: return h_bar_red;
    case MX_OP_BAR_WARP_SYNC: return h_warp_sync;
    default: return h_bar_sync;
    }
}
static emu_fn bind_activemask(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_activemask; }
static emu_fn bind_vote(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_vote; }
static emu_fn bind_shfl(const struct mx_insn *in, struct emu_xinsn *x) { (void)x; return in->opd[4].kind ? h_shfl : NULL; }
static emu_fn bind_match(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_match; }
static emu_fn bind_redux(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_redux; }

const struct emu_bind_row emu_bind_sync[] = {
    { MX_OP_BAR_SYNC, bind_bar },
    { MX_OP_BARRIER_SYNC, bind_bar },
    { MX_OP_BAR_CTA_SYNC, bind_bar },
    { MX_OP_BAR_ARRIVE, bind_bar },
    { MX_OP_BARRIER_ARRIVE, bind_bar },
    { MX_OP_BAR_RED, bind_bar },
    { MX_OP_BARRIER_RED, bind_bar },
    { MX_OP_BAR_WARP_SYNC, bind_bar },
    { MX_OP_ACTIVEMASK, bind_activemask },
    { MX_OP_VOTE, bind_vote },
    { MX_OP_SHFL, bind_shfl },
    { MX_OP_MATCH, bind_match },
    { MX_OP_REDUX, bind_redux },
    EMU_BIND_END
};

/* emu/exec_async.c — asynchronous copies (cp.async and its groups, the
 * bulk copies cp.async.bulk of sm_90 and theirs) and
 * mbarriers (init, inval, arrive, arrive_drop, expect_tx, complete_tx,
 * test_wait, try_wait, pending_count, cp.async.mbarrier.arrive).
 *
 * A copy is performed when cp.async issues, so it is complete by any later
 * wait (commit_group, wait_group and wait_all have nothing to do) and the
 * arrive-on a cp.async.mbarrier.arrive triggers "when the thread's copies
 * complete" happens at once.  A program can observe nothing else: reading
 * the destination before the wait is a race in PTX.
 *
 * The mbarrier object is the 64-bit word in shared memory, encoded:
 *   bits  0..19  pending arrivals of the current phase
 *   bits 20..39  expected arrivals per phase (reset value of the pending count)
 *   bits 40..60  tx-count, 21-bit two's complement
 *   bit  62      set by mbarrier.init, cleared by mbarrier.inval
 *   bit  63      parity of the current phase
 * The state token an arrive returns is the object's word just after the
 * arrival counted and before the phase (if it completed) advanced: bit 63
 * is the parity of the phase it arrived in, bits 0..19 the arrivals that
 * phase still needed (pending_count reads them).
 *
 * mbarrier.try_wait of a phase not complete parks the executing lanes in
 * their SIMT entry (wait WAIT_MBAR, need = the object's shared offset | the
 * parity they wait for) past the instruction, as bar.sync does: the warp
 * runs its other paths or blocks, costing no host time, and the arrive
 * that completes the phase writes true to their predicate and releases
 * them.  A CTA whose live warps all wait so is a deadlock (sched.c).
 * test_wait never blocks (PTX); one that finds its phase incomplete ends the
 * warp's turn, as nanosleep does. */
#include "emu/interp.h"
#include "emu/access.h"

#define MB_PENDING(v) ((uint32_t)((v) & 0xfffffu))
#define MB_EXPECTED(v) ((uint32_t)(((v) >> 20) & 0xfffffu))
#define MB_TX(v) ((int32_t)(sext((v) >> 40, 21)))
#define MB_VALID (1ull << 62)
#define MB_PHASE (1ull << 63)
#define MB_MAXCOUNT 0xfffffu
#define MB_MAXTX 0xfffff

static inline uint64_t mb_make(uint64_t phase, uint32_t pending, uint32_t expected, int32_t tx)
{
    return phase | MB_VALID | ((uint64_t)((uint32_t)tx & 0x1fffffu) << 40) | ((uint64_t)expected << 20) | pending;
}

/* Address of lane l of memory operand slot i: base + constant, wrapping at
 * 2^32 for a 32-bit register.  With two memory operands (cp.async), the
 * first one's constant is in aux and its width in aux2 (module.c). */
static inline uint64_t opd_addr(const struct emu_warp *w, const struct emu_xinsn *x, int i, int first_of_two, int l)
{
    const uint64_t *base = SRC(i);
    if (first_of_two) {
        uint64_t a = base[l] + (uint64_t)(int64_t)(int32_t)x->aux;
        return (x->aux2 & 1) ? (uint32_t)a : a;
    }
    uint64_t a = base[l] + (uint64_t)x->off;
    return (x->flags & XF_BASE32) ? (uint32_t)a : a;
}

/* --------------------------------------------------------------- cp.async */

#define CPF_SRCSIZE 1 /* operand 3 is src-size */
#define CPF_IGNORE 2  /* operand 3 is the ignore-src predicate */

/* Opcode: cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}
 * Synopsis: shared[dst] = the first src-size (default cp-size; 0 when ignore-src) bytes of global[src], then zeros
 * Performed at issue.  Both addresses must be aligned to cp-size (the
 * source only when bytes are read); src-size above cp-size is illegal. */
static int h_cp_async(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    unsigned cp = x->size;
    const uint64_t *ssz = (x->flags & CPF_SRCSIZE) ? SRC(3) : NULL;
    uint32_t ign = (x->flags & CPF_IGNORE) ? PSRC(3) : 0;
    if (__builtin_expect(w->dev->cfg.memif != NULL, 0) && !w->completing) {
        uint64_t addr[WARP];
        uint32_t rd = 0;
        FOR_LANES(m, {
            addr[l] = opd_addr(w, x, 1, 0, l);
            if (!(ign >> l & 1) && (!ssz || (uint32_t)ssz[l]))
                rd |= 1u << l;
        });
        if (rd) {
            int r = emu_mem_request(w, x, MX_MOP_LD, MX_MS_GLOBAL, rd, addr, cp, 0);
            if (r)
                return r;
        }
    }
    uint32_t mm = m;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        uint64_t d = opd_addr(w, x, 0, 1, l), s = opd_addr(w, x, 1, 0, l);
        unsigned n = (ign >> l & 1) ? 0 : ssz ? (unsigned)(uint32_t)ssz[l] : cp;
        if (ssz && (uint32_t)ssz[l] > cp)
            return emu_fault(w, x, MX_EILLEGAL, l, s, cp, "cp.async: src-size %u is larger than cp-size %u",
                             (uint32_t)ssz[l], cp);
        uint8_t tmp[16] = { 0 };
        if (n) {
            if (s & (cp - 1))
                return emu_fault(w, x, MX_EMISALIGNED, l, s, cp,
                                 "Invalid __global__ read of size %u bytes at 0x%llx is misaligned", cp,
                                 (unsigned long long)s);
            const uint8_t *p = emu_mem_access(w, x, SP_GLOBAL, s, n, l, ACC_READ, NULL);
            if (!p)
                return EX_FAULT;
            memcpy(tmp, p, n);
        }
        uint8_t *q = emu_mem_access(w, x, SP_SHARED, d, cp, l, ACC_WRITE, NULL);
        if (!q)
            return EX_FAULT;
        memcpy(q, tmp, cp);
    }
    return EX_NEXT;
}

/* Opcode: cp.async.commit_group / cp.async.wait_group n / cp.async.wait_all
 * Synopsis: nothing: every copy completed when it issued */
static int h_nothing(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    (void)w;
    (void)x;
    (void)m;
    return EX_NEXT;
}

static emu_fn bind_cp_async(const struct mx_insn *in, struct emu_xinsn *x)
{
    int sp = in->mod[MX_MG_SPACE], cache = in->mod[MX_MG_CACHE];
    if ((sp != MX_SPACE_SHARED && sp != MX_SPACE_SHARED_CTA) || in->mod[MX_MG_SPACE2] != MX_SPACE2_GLOBAL)
        return emu_bind_invalid(x, EMU_BAD_OPCODE, -1, 0);
    if (cache != MX_CACHE_CA && cache != MX_CACHE_CG)
        return emu_bind_invalid(x, EMU_BAD_OPCODE, -1, 0);
    if (in->opd[0].kind != MX_OPD_ADDR || in->opd[1].kind != MX_OPD_ADDR)
        return emu_bind_invalid(x, EMU_BAD_KIND, in->opd[0].kind != MX_OPD_ADDR ? 0 : 1, 0);
    const struct mx_operand *n = &in->opd[2];
    if (n->kind != MX_OPD_IMM || (n->imm != 4 && n->imm != 8 && n->imm != 16) || (cache == MX_CACHE_CG && n->imm != 16))
        return emu_bind_invalid(x, EMU_BAD_KIND, 2, 0); /* cp-size: the constant 4, 8 or 16 (.cg: 16) */
    if (in->opd[4].kind != MX_OPD_NONE && !in->mod[MX_MG_L2HINT])
        return emu_bind_invalid(x, EMU_BAD_KIND, 4, 0); /* a cache-policy needs .L2::cache_hint */
    x->size = (uint8_t)n->imm;
    if (in->opd[3].kind == MX_OPD_PRED)
        x->flags |= CPF_IGNORE;
    else if (in->opd[3].kind != MX_OPD_NONE)
        x->flags |= CPF_SRCSIZE;
    return h_cp_async;
}

static emu_fn bind_nothing(const struct mx_insn *in, struct emu_xinsn *x) { (void)in; (void)x; return h_nothing; }

/* ------------------------------------------------------------ cp.async.bulk */

static uint64_t *mbar_at(struct emu_warp *w, const struct emu_xinsn *x, int i, int l, int need_valid, uint32_t *off);
static uint64_t mbar_arrive(struct emu_warp *w, const struct emu_xinsn *x, int l, uint64_t *v, uint32_t off,
                            uint32_t count, int32_t tx, int nocomplete, int *bad);

#define BULK_TO_GLOBAL 1 /* .global.shared::cta.bulk_group */
#define BULK_SRC_SHARED 2 /* .shared::cluster.shared::cta (one CTA per cluster: this CTA's shared memory) */

/* Opcode: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]
 *         cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]
 *         cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size
 * Synopsis: size bytes (a multiple of 16; both addresses 16-aligned) of src to dst; the mbarrier forms then
 *           complete_tx(size) on mbar (which may complete its phase)
 * Performed at issue by each executing lane, like cp.async; the copy does
 * not go through the modelled cache hierarchy (a tensor memory accelerator
 * of its own on sm_90, which the modelled GPUs lack). */
static int h_cp_bulk(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *sz = SRC(2);
    int to_global = x->flags & BULK_TO_GLOBAL, dsp = to_global ? SP_GLOBAL : SP_SHARED;
    int ssp = to_global || (x->flags & BULK_SRC_SHARED) ? SP_SHARED : SP_GLOBAL;
    uint32_t mm = m;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        /* with the mbarrier the first operand's constant is 0 (bind): aux holds the source's */
        uint64_t d = to_global ? opd_addr(w, x, 0, 1, l) : SRC(0)[l];
        if (!to_global && (x->in->opd[0].flags & MX_OPDF_BASE32))
            d = (uint32_t)d;
        uint64_t s = to_global ? opd_addr(w, x, 1, 0, l) : opd_addr(w, x, 1, 1, l);
        uint32_t n = (uint32_t)sz[l];
        if (n % 16 || (d | s) % 16)
            return emu_fault(w, x, MX_EMISALIGNED, l, (d | s) % 16 ? ((d % 16) ? d : s) : s, n,
                             "cp.async.bulk: size %u and both addresses (dst 0x%llx, src 0x%llx) must be multiples of 16",
                             n, (unsigned long long)d, (unsigned long long)s);
        for (uint32_t o = 0; o < n; o += 16) {
            const uint8_t *p = emu_mem_access(w, x, ssp, s + o, 16, l, ACC_READ, NULL);
            if (!p)
                return EX_FAULT;
            uint8_t tmp[16];
            memcpy(tmp, p, 16);
            uint8_t *q = emu_mem_access(w, x, dsp, d + o, 16, l, ACC_WRITE, NULL);
            if (!q)
                return EX_FAULT;
            memcpy(q, tmp, 16);
        }
        if (to_global)
            continue;
        uint32_t off;
        uint64_t *v = mbar_at(w, x, 3, l, 1, &off);
        if (!v)
            return EX_FAULT;
        if (n > MB_MAXTX)
            return emu_fault(w, x, MX_EILLEGAL, l, off, 8, "cp.async.bulk: size %u exceeds the mbarrier's tx-count "
                             "range (%u)", n, MB_MAXTX);
        int bad = 0;
        mbar_arrive(w, x, l, v, off, 0, -(int32_t)n, 0, &bad);
        if (bad)
            return EX_FAULT;
    }
    return EX_NEXT;
}

static emu_fn bind_cp_bulk(const struct mx_insn *in, struct emu_xinsn *x)
{
    int dst = in->mod[MX_MG_SPACE], src = in->mod[MX_MG_SPACE2], done = in->mod[MX_MG_BULKDONE];
    int dshared = dst == MX_SPACE_SHARED_CLUSTER || dst == MX_SPACE_SHARED_CTA || dst == MX_SPACE_SHARED;
    if (in->opd[0].kind != MX_OPD_ADDR || in->opd[1].kind != MX_OPD_ADDR)
        return emu_bind_invalid(x, EMU_BAD_KIND, in->opd[0].kind != MX_OPD_ADDR ? 0 : 1, 0);
    if (dst == MX_SPACE_GLOBAL && src == MX_SPACE2_SHARED_CTA && done == MX_BULKDONE_BULK_GROUP) {
        if (in->opd[3].kind != MX_OPD_NONE)
            return emu_bind_invalid(x, EMU_BAD_KIND, 3, 0);
        x->flags |= BULK_TO_GLOBAL;
        return h_cp_bulk;
    }
    if (!dshared || done != MX_BULKDONE_COMPLETE_TX || (src != MX_SPACE2_GLOBAL && src != MX_SPACE2_SHARED_CTA))
        return emu_bind_invalid(x, EMU_BAD_OPCODE, -1, 0);
    if (in->opd[3].kind != MX_OPD_ADDR)
        return emu_bind_invalid(x, EMU_BAD_MISSING, 3, 0); /* the mbarrier */
    /* three memory operands: the destination's constant part has no field of its own (module.c) */
    if (in->opd[0].imm || in->opd[0].sym != MX_NONE || in->opd[0].reg == MX_NONE)
        return emu_bind_invalid(x, EMU_BAD_KIND, 0, 0);
    if (src == MX_SPACE2_SHARED_CTA)
        x->flags |= BULK_SRC_SHARED;
    return h_cp_bulk;
}

/* --------------------------------------------------------------- mbarrier */

/* The mbarrier word of lane l (memory operand slot i), its shared offset in
 * *off; NULL after a fault (not in shared memory, misaligned, out of bounds,
 * or not initialized when `need_valid`). */
static uint64_t *mbar_at(struct emu_warp *w, const struct emu_xinsn *x, int i, int l, int need_valid, uint32_t *off)
{
    uint64_t a = opd_addr(w, x, i, 0, l);
    if (x->space == SP_GENERIC) {
        if (a - MEM_SHARED_WIN >= MEM_WIN_SIZE) {
            emu_fault(w, x, MX_EILLEGAL, l, a, 8, "mbarrier object at 0x%llx is not in shared memory",
                      (unsigned long long)a);
            return NULL;
        }
        a -= MEM_SHARED_WIN;
    } else if (x->space != SP_SHARED) {
        emu_fault(w, x, MX_EILLEGAL, l, a, 8, "mbarrier object must be in shared memory");
        return NULL;
    }
    uint8_t *p = emu_mem_access(w, x, SP_SHARED, a, 8, l, ACC_WRITE, NULL);
    if (!p)
        return NULL;
    uint64_t *v = (uint64_t *)(void *)p; /* 8-byte aligned: checked */
    if (need_valid && !(*v & MB_VALID)) {
        emu_fault(w, x, MX_EILLEGAL, l, a, 8, "mbarrier at shared offset 0x%llx is not initialized (mbarrier.init)",
                  (unsigned long long)a);
        return NULL;
    }
    *off = (uint32_t)a;
    return v;
}

/* The phase of parity `parity` of the mbarrier at shared offset off of CTA c
 * completed: the lanes parked at try_wait for it get true and go on. */
static void mbar_release(struct emu_cta *c, uint32_t off, uint32_t parity)
{
    uint32_t need = off | parity;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        struct emu_warp *w = &c->warps[i];
        int woke = 0;
        uint32_t f = 0;
        for (uint32_t j = 0; j < w->nsimt; j++) {
            while (f + 1 < w->nframes && w->frames[f + 1].simt_base <= j)
                f++; /* the frame entry j belongs to */
            struct emu_simt *e = &w->simt[j];
            if (e->wait != WAIT_MBAR || e->need != need)
                continue;
            uint32_t pref = w->k->x[e->pc - 1].r[0];
            if (pref != REF_NONE)
                w->frames[f].preds[pref] |= e->mask;
            e->wait = 0;
            woke = 1;
        }
        if (woke && w->state == WS_BARRIER)
            emu_simt_pick(w);
    }
}

/* Counts `count` arrivals (and tx bytes `tx`) of lane l on the mbarrier
 * word v at shared offset off: returns the state token, or sets *bad. */
static uint64_t mbar_arrive(struct emu_warp *w, const struct emu_xinsn *x, int l, uint64_t *v, uint32_t off,
                            uint32_t count, int32_t tx, int nocomplete, int *bad)
{
    uint64_t o = *v, ph = o & MB_PHASE;
    uint32_t pend = MB_PENDING(o), exp = MB_EXPECTED(o);
    int32_t t = MB_TX(o);
    if (count > pend) {
        *bad = emu_fault(w, x, MX_EILLEGAL, l, off, 8,
                         "mbarrier arrive of count %u exceeds the %u arrivals pending in the current phase", count, pend);
        return 0;
    }
    if ((int64_t)t + tx > MB_MAXTX || (int64_t)t + tx < -MB_MAXTX) {
        *bad = emu_fault(w, x, MX_EILLEGAL, l, off, 8, "mbarrier tx-count %d + %d leaves its range", t, tx);
        return 0;
    }
    pend -= count;
    t += tx;
    uint64_t token = mb_make(ph, pend, exp, t);
    if (pend == 0 && t == 0) {
        if (nocomplete) {
            *bad = emu_fault(w, x, MX_EILLEGAL, l, off, 8, "mbarrier.arrive.noComplete completes the current phase");
            return 0;
        }
        *v = mb_make(ph ^ MB_PHASE, exp, exp, 0);
        mbar_release(w->cta, off, (uint32_t)(ph >> 63));
    } else {
        *v = token;
    }
    return token;
}

/* Opcode: mbarrier.init.shared{::cta}.b64 [a], count   Synopsis: phase 0, count arrivals expected and pending, tx-count 0 */
static int h_mbar_init(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *cnt = SRC(1);
    uint32_t mm = m, off;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        uint64_t *v = mbar_at(w, x, 0, l, 0, &off);
        if (!v)
            return EX_FAULT;
        uint32_t c = (uint32_t)cnt[l];
        if (c < 1 || c > MB_MAXCOUNT)
            return emu_fault(w, x, MX_EILLEGAL, l, off, 8, "mbarrier.init count %u is outside 1..%u", c, MB_MAXCOUNT);
        *v = mb_make(0, c, c, 0);
    }
    return EX_NEXT;
}

/* Opcode: mbarrier.inval.shared{::cta}.b64 [a]   Synopsis: the object is no longer an mbarrier */
static int h_mbar_inval(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    uint32_t mm = m, off;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        uint64_t *v = mbar_at(w, x, 0, l, 0, &off);
        if (!v)
            return EX_FAULT;
        *v &= ~MB_VALID;
    }
    return EX_NEXT;
}

#define MBF_DROP 1     /* arrive_drop */
#define MBF_NOCOMP 2   /* .noComplete */
#define MBF_EXPTX 4    /* .expect_tx: operand 2 is a tx count, one arrival */

/* Opcode: mbarrier.arrive{.noComplete|.expect_tx}{.release}{.cta}.shared{::cta}.b64 state, [a]{, count | txCount}
 *         mbarrier.arrive_drop{...}.b64 state, [a]{, count}
 * Synopsis: state = token of the current phase; (drop: expected -= count;) pending -= count; tx-count += txCount;
 *           pending and tx-count 0: the phase completes (next phase: pending = expected) */
static int h_mbar_arrive(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    uint64_t *d = DST(0);
    const uint64_t *b = x->r[2] != REF_NONE ? SRC(2) : NULL;
    uint32_t mm = m, off;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        uint64_t *v = mbar_at(w, x, 1, l, 1, &off);
        if (!v)
            return EX_FAULT;
        uint32_t count = 1;
        int32_t tx = 0;
        if (b && (x->flags & MBF_EXPTX)) {
            if ((uint32_t)b[l] > MB_MAXTX)
                return emu_fault(w, x, MX_EILLEGAL, l, off, 8, "mbarrier txCount %u is outside 0..%u", (uint32_t)b[l], MB_MAXTX);
            tx = (int32_t)(uint32_t)b[l];
        } else if (b) {
            count = (uint32_t)b[l];
        }
        if (count < 1 || count > MB_MAXCOUNT)
            return emu_fault(w, x, MX_EILLEGAL, l, off, 8, "mbarrier arrive count %u is outside 1..%u", count, MB_MAXCOUNT);
        if (x->flags & MBF_DROP) {
            uint32_t exp = MB_EXPECTED(*v);
            if (count > exp)
                return emu_fault(w, x, MX_EILLEGAL, l, off, 8, "mbarrier.arrive_drop of count %u exceeds the %u arrivals expected",
                                 count, exp);
            *v = mb_make(*v & MB_PHASE, MB_PENDING(*v), exp - count, MB_TX(*v));
        }
        int bad = 0;
        uint64_t token = mbar_arrive(w, x, l, v, off, count, tx, x->flags & MBF_NOCOMP, &bad);
        if (bad)
            return EX_FAULT;
        d[l] = token;
    }
    return EX_NEXT;
}

/* Opcode: mbarrier.{expect_tx,complete_tx}{.sem}{.scope}.shared{::cta}.b64 [a], txCount
 * Synopsis: tx-count += txCount (expect) or -= txCount (complete; may complete the phase) */
static int h_mbar_tx(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *b = SRC(1);
    int complete = x->in->op == MX_OP_MBAR_COMPLETE_TX;
    uint32_t mm = m, off;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        uint64_t *v = mbar_at(w, x, 0, l, 1, &off);
        if (!v)
            return EX_FAULT;
        if ((uint32_t)b[l] > MB_MAXTX)
            return emu_fault(w, x, MX_EILLEGAL, l, off, 8, "mbarrier txCount %u is outside 0..%u", (uint32_t)b[l], MB_MAXTX);
        int32_t tx = (int32_t)(uint32_t)b[l], t = MB_TX(*v);
        t += complete ? -tx : tx;
        if (t > MB_MAXTX || t < -MB_MAXTX)
            return emu_fault(w, x, MX_EILLEGAL, l, off, 8, "mbarrier tx-count leaves its range");
        uint64_t o = *v, ph = o & MB_PHASE;
        if (complete && MB_PENDING(o) == 0 && t == 0) {
            *v = mb_make(ph ^ MB_PHASE, MB_EXPECTED(o), MB_EXPECTED(o), 0);
            mbar_release(w->cta, off, (uint32_t)(ph >> 63));
        } else {
            *v = mb_make(ph, MB_PENDING(o), MB_EXPECTED(o), t);
        }
    }
    return EX_NEXT;
}

/* Opcode: cp.async.mbarrier.arrive{.noinc}.shared{::cta}.b64 [a]
 * Synopsis: arrive on the mbarrier once this thread's copies complete (they
 * have: at once); without .noinc the pending count is raised by one first,
 * so the arrival changes nothing */
static int h_cp_async_mbar(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    int noinc = x->in->mod[MX_MG_NOINC] != 0;
    uint32_t mm = m, off;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        uint64_t *v = mbar_at(w, x, 0, l, 1, &off);
        if (!v)
            return EX_FAULT;
        if (!noinc)
            continue;
        int bad = 0;
        mbar_arrive(w, x, l, v, off, 1, 0, 0, &bad);
        if (bad)
            return EX_FAULT;
    }
    return EX_NEXT;
}

/* Parity of the phase lane l waits for: the token's phase, or the .parity operand. */
static inline uint32_t wait_parity(const struct emu_xinsn *x, const uint64_t *s, int l)
{
    return x->in->mod[MX_MG_PARITY] ? (uint32_t)(s[l] & 1) : (uint32_t)(s[l] >> 63);
}

/* Opcode: mbarrier.test_wait{.parity}{.sem}{.scope}.shared{::cta}.b64 p, [a], state | phaseParity
 * Synopsis: p = the phase of the token (or of that parity) completed: the object's current parity differs */
static int h_mbar_test_wait(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *s = SRC(2);
    uint32_t mm = m, off, done = 0;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        uint64_t *v = mbar_at(w, x, 1, l, 1, &off);
        if (!v)
            return EX_FAULT;
        done |= (uint32_t)((*v >> 63) != wait_parity(x, s, l)) << l;
    }
    PDST(0, done);
    if (done == m)
        return EX_NEXT;
    w->pc++; /* not yet: let the other warps run (the arrivals come from them) */
    return EX_YIELD;
}

/* Opcode: mbarrier.try_wait{.parity}{.sem}{.scope}.shared{::cta}.b64 p, [a], state | phaseParity{, suspendTimeHint}
 * Synopsis: p = the phase completed; the lanes wait until it has (no time limit)
 * When the executing lanes are the whole SIMT entry and wait for one phase
 * of one object they park (see the file header); lanes that wait for
 * different objects or phases get their answer now and the warp's turn
 * ends, as test_wait's does (a try_wait that gave up waiting). */
static int h_mbar_try_wait(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *s = SRC(2);
    uint32_t mm = m, off, done = 0, need = 0;
    int same = 1, first = 1;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        uint64_t *v = mbar_at(w, x, 1, l, 1, &off);
        if (!v)
            return EX_FAULT;
        uint32_t par = wait_parity(x, s, l);
        if ((*v >> 63) != par)
            done |= 1u << l;
        if (first)
            need = off | par;
        else if ((off | par) != need)
            same = 0;
        first = 0;
    }
    if (done == m) {
        PDST(0, done);
        return EX_NEXT;
    }
    if (!done && same && m == w->active) {
        PDST(0, 0); /* (true is written when the phase completes) */
        return emu_simt_park(w, w->pc + 1, WAIT_MBAR, need);
    }
    PDST(0, done);
    w->pc++;
    return EX_YIELD;
}

/* Opcode: mbarrier.pending_count.b64 n, state   Synopsis: n = the arrivals pending when the token was made */
static int h_mbar_pending(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *s = SRC(1);
    uint64_t *d = DST(0);
    FOR_LANES(m, d[l] = MB_PENDING(s[l]));
    return EX_NEXT;
}

/* The memory operand is an address in shared memory, or a generic one
 * (checked per lane); .shared::cluster is this CTA's (one CTA per cluster). */
static int mbar_space_ok(const struct mx_insn *in, int slot)
{
    int sp = in->mod[MX_MG_SPACE];
    return in->opd[slot].kind == MX_OPD_ADDR &&
           (!sp || sp == MX_SPACE_SHARED || sp == MX_SPACE_SHARED_CTA || sp == MX_SPACE_SHARED_CLUSTER);
}

static emu_fn bind_mbar(const struct mx_insn *in, struct emu_xinsn *x)
{
    switch (in->op) {
    case MX_OP_MBAR_INIT: case MX_OP_MBAR_INVAL: case MX_OP_MBAR_EXPECT_TX: case MX_OP_MBAR_COMPLETE_TX:
    case MX_OP_CP_ASYNC_MBAR:
        if (!mbar_space_ok(in, 0))
            return emu_bind_invalid(x, EMU_BAD_OPCODE, 0, 0);
        return in->op == MX_OP_MBAR_INIT ? h_mbar_init : in->op == MX_OP_MBAR_INVAL ? h_mbar_inval
             : in->op == MX_OP_CP_ASYNC_MBAR ? h_cp_async_mbar : h_mbar_tx;
    case MX_OP_MBAR_ARRIVE: case MX_OP_MBAR_ARRIVE_DROP:
        if (!mbar_space_ok(in, 1))
            return emu_bind_invalid(x, EMU_BAD_OPCODE, 1, 0);
        if (in->opd[0].kind != MX_OPD_REG && in->opd[0].kind != MX_OPD_SINK)
            return emu_bind_invalid(x, EMU_BAD_KIND, 0, 0);
        if (in->mod[MX_MG_NOCOMPLETE] && in->mod[MX_MG_EXPECTTX])
            return emu_bind_invalid(x, EMU_BAD_OPCODE, -1, 0);
        if ((in->mod[MX_MG_NOCOMPLETE] || in->mod[MX_MG_EXPECTTX]) && in->opd[2].kind == MX_OPD_NONE)
            return emu_bind_invalid(x, EMU_BAD_MISSING, 2, 0); /* .noComplete needs count, .expect_tx txCount */
        x->flags |= (in->op == MX_OP_MBAR_ARRIVE_DROP ? MBF_DROP : 0) | (in->mod[MX_MG_NOCOMPLETE] ? MBF_NOCOMP : 0) |
                    (in->mod[MX_MG_EXPECTTX] ? MBF_EXPTX : 0);
        return h_mbar_arrive;
    case MX_OP_MBAR_TEST_WAIT: case MX_OP_MBAR_TRY_WAIT:
        if (!mbar_space_ok(in, 1))
            return emu_bind_invalid(x, EMU_BAD_OPCODE, 1, 0);
        if (in->opd[0].kind != MX_OPD_PRED && in->opd[0].kind != MX_OPD_SINK)
            return emu_bind_invalid(x, EMU_BAD_KIND, 0, 0);
        return in->op == MX_OP_MBAR_TEST_WAIT ? h_mbar_test_wait : h_mbar_try_wait;
    case MX_OP_MBAR_PENDING:
        if (in->opd[0].kind != MX_OPD_REG && in->opd[0].kind != MX_OPD_SINK)
            return emu_bind_invalid(x, EMU_BAD_KIND, 0, 0);
        return h_mbar_pending;
    default:
        return NULL;
    }
}

const struct emu_bind_row emu_bind_async[] = {
    { MX_OP_CP_ASYNC, bind_cp_async },
    { MX_OP_CP_ASYNC_COMMIT, bind_nothing },
    { MX_OP_CP_ASYNC_WAIT, bind_nothing },
    { MX_OP_CP_ASYNC_WAIT_ALL, bind_nothing },
    { MX_OP_CP_ASYNC_MBAR, bind_mbar },
    { MX_OP_CP_BULK, bind_cp_bulk },
    { MX_OP_CP_BULK_COMMIT, bind_nothing },
    { MX_OP_CP_BULK_WAIT, bind_nothing },
    { MX_OP_MBAR_INIT, bind_mbar },
    { MX_OP_MBAR_INVAL, bind_mbar },
    { MX_OP_MBAR_ARRIVE, bind_mbar },
    { MX_OP_MBAR_ARRIVE_DROP, bind_mbar },
    { MX_OP_MBAR_EXPECT_TX, bind_mbar },
    { MX_OP_MBAR_COMPLETE_TX, bind_mbar },
    { MX_OP_MBAR_TEST_WAIT, bind_mbar },
    { MX_OP_MBAR_TRY_WAIT, bind_mbar },
    { MX_OP_MBAR_PENDING, bind_mbar },
    EMU_BIND_END
};

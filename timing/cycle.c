/* timing/cycle.c — the "cycle" model: warps issue through per-SM scheduler
 * partitions and unit pipelines, wait for their operands on a scoreboard,
 * and their memory accesses queue for the L1, the SM's interconnect port
 * and its shares of the LLC, DRAM (whose row buffers set each channel's
 * efficiency) and the extended LLC.  Every number comes from the
 * configuration (tm_params; configs/NAME.json names the sources).
 *
 * Core: an SM has issue_width scheduler partitions; a warp belongs to the
 * partition wslot mod issue_width (the emulator's scheduler, lrr or gto
 * by emu.warp_sched, picks among ready warps).  An instruction starts when
 * its partition can issue (one per cycle) and its unit's pipeline takes it
 * (initiation[unit] cycles per warp instruction); its destinations are
 * ready unit_latency[unit] cycles later (shared memory: level shared; a
 * load or atomic: when its data is back).  A warp issues its next
 * instruction a cycle after this one started (after a branch, a call or a
 * return: unit_latency[ctrl] cycles after, when its target is known; the
 * "branch resolving" stall of Nsight Compute), once that instruction's
 * operands are ready (TM_EV_DEPS: 64 bits, one per register where the
 * registers live at once fit, else shared: a false dependence, never a
 * missed one).
 * Loads therefore overlap with independent work and with each other.
 *
 * A "quantum" below is the model's span (v13: timing.span cycles, at least
 * emu.quantum, or up to a grid's end): what it measures over one span sets
 * the next; the emulator's quanta in between (2048 cycles by default) only
 * make the hierarchy's answers fresher.
 *
 * Memory: an access occupies the SM's L1 for lines / l1_lines_per_cycle
 * cycles; what goes beyond the L1 crosses the SM's interconnect port
 * (icnt_flit_bytes per interconnect cycle each way: requests carry a
 * store's data, replies a load's), then the SM's shares of the LLC's,
 * DRAM's and the extended LLC's bandwidth (each bandwidth over the SMs that
 * can use it: the compute SMs, no more than the grid's CTAs, when a grid
 * starts; from a quantum's end on, in proportion to each SM's demand in it:
 * the bytes it passed and those still queued, plus an even part of the
 * capacity the quantum left idle), each a queue of its own.  Share an SM left idle in the last row-buffer window (below:
 * the time DRAM's scheduler queues take to drain) is still its own, so a
 * burst after a pause is not metered at 1/users of the bandwidth; over any
 * T cycles all SMs together pass at most (T + window) times the bandwidth.  A line counts the bytes it moves
 * (tm_mem.line_bytes: the sectors the L1 misses, or the block an extended-LLC miss fills; else 128) times its resource's
 * cost factor:
 * its LLC partition (line mod partitions), DRAM channel (line mod
 * channels), cache-mode SM (line mod cache SMs).  A factor is that
 * resource's bytes in the last quantum (each with an even part of the
 * capacity the quantum left idle) over an even share of them, floored at
 * 1/4, and for a channel over its row-buffer efficiency; they change
 * only between quanta, so an SM's answers depend on its own accesses and
 * cycles are the same for every number of host threads.  The data is back
 * after the slowest queue plus the level's latency.  That is a promise made
 * at the quantum's shares: at its end (v10) an outstanding access takes its
 * place in the rescaled queues along, and the warps held on it are woken at
 * the new time (revise, cyc_rewake).
 *
 * DRAM row buffers: the DRAM lines of a quantum are grouped per channel
 * into windows of the time the channel needs for 64 requests (an FR-FCFS
 * scheduler's queue, facts 1.2); each distinct row of a bank in a window
 * is one activation (tRP + tRCD, overlapping across banks).  A channel's
 * efficiency is bursts / (bursts + activations * (tRP + tRCD) / banks), the
 * bursts the time its lines' bytes take: the quantum's own for its reads'
 * time at its end, and for the next quantum's factor the bursts and
 * activations aged by bytes (a quantum whose reads keep the channel busy
 * throughout keeps 1/e of those before), so that a grid's tail, a few
 * lines scattered over the rows, does not set the next grid's.  Reads
 * (v12): the hierarchy reports the bytes it read after each quantum
 * (dram_traffic, before quantum_end), and each byte of a line told DRAM is
 * charged those over the bytes told DRAM so far (rcorr: lines another SM fetched earlier in the quantum are read once;
 * bytes, not quanta, age out).  Writes (v9; the write-backs dram_traffic
 * reports beside the reads) share the channels with the reads that cause
 * them: each byte read is charged the bytes written per byte read so far
 * (wratio: bytes, not quanta, age out; at most 4; a grid starts with its
 * kernel's last grid's), and what the writes carried over from the last
 * quantum, the reads and the writes not charged needed beyond the quantum,
 * at most those writes' time, is carried into the next one and delays every
 * SM's DRAM queue once (averaged over the channels).  A grid's span is at least what
 * its busiest channel needed for its quanta's reads and writes (v11,
 * cyc_kernel_end).
 *
 * Clocks: core_mhz for the SM; icnt_mhz (interconnect and LLC) and
 * dram_mhz for the memory side, all multiplied by mem_clock_scale
 * (Frequency-Boost): bandwidths beyond the L1 scale by it, latencies beyond
 * the L1 by its inverse.
 *
 * Arguments (--timing cycle,KEY=N,...): the latency model's keys (units and
 * levels), ii_UNIT=N for an initiation interval, credit=N for the
 * cycles of idle share an SM keeps (default: the row-buffer window), and
 * revise=0 to keep every promise as made. */
#include "mx/timing.h"
#include "timing/args.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSCHED_MAX 16
#define WRATIO_MAX 4.0 /* a 32-byte sector read can evict a whole dirty 128-byte line */
#define RCORR_MIN (1.0 / 16) /* rcorr's bounds: a line read by up to 16 SMs in a quantum is read once */
#define RCORR_MAX 4.0
#define KRATIOS 64 /* kernels whose last grid's write ratio the cycle model remembers */
#define DLOG_MAX (1u << 22) /* DRAM lines an SM logs per quantum for the row-buffer analysis */

struct wsb {                  /* one warp slot's scoreboard */
    uint64_t ready[64];       /* when each register bit's last write is done */
    uint64_t mem_done;        /* the data of the access just issued (mem_pending) */
    uint32_t mem_lat;         /* its latency without queues (its level's) */
    uint8_t mem_pending;
    double mem_port, mem_q[3]; /* when it was through the SM's port and each share queue (RES_*; 0: not used) */
    uint64_t next_other;      /* the last issue's answer but for the registers: its slot, or a branch's target */
    uint64_t use_next;        /* and the registers it waited for (cyc_rewake asks them again) */
};

/* An access whose data comes through the SM's share queues, outstanding: its promise may move at a quantum's
 * end (revise(): a queue rescaled to a new share takes its place in it along) */
struct pend {
    uint32_t wslot;
    uint64_t def;             /* the registers it writes */
    uint64_t done, floor;     /* its data (floor: not before its latency from its issue) */
    uint32_t lat;
    double port, q[3];        /* as wsb.mem_port, mem_q */
};

struct dline { uint64_t clock, line, bytes; };

enum { RES_PART, RES_CHAN, RES_X }; /* the shared resources: LLC partitions, DRAM channels, cache-mode SMs */

/* A calendar of one resource's cycles (a scheduler partition's issue slot, a pipeline, the L1's tag port):
 * which of the CAL_CYCLES cycles from `lo` on are taken, so that work timed out of order fills the gaps work
 * timed before it left.  Cycles before lo count as taken; the window moves on as later cycles are taken. */
#define CAL_CYCLES 8192u
struct cal {
    uint64_t lo;
    uint64_t bits[CAL_CYCLES / 64];
};

struct calsm {                /* a cache-mode SM's calendars (--xllc helper: see cal_issue) */
    struct cal l1;
    struct cal part[][1 + TM_UNITS]; /* per scheduler partition: its issue slot, then each unit's pipeline */
};

struct smst {                 /* one SM's state: touched by its host thread only while the quantum runs */
    struct calsm *cal;        /* a cache-mode SM's calendars (allocated at its first instruction), or NULL */
    uint64_t sched_free[NSCHED_MAX];
    uint64_t pipe_free[NSCHED_MAX][TM_UNITS];
    double l1_free, req_free, rep_free;
    double llc_free, dram_free, x_free;       /* its shares of the LLC's, DRAM's, the extended LLC's bandwidth */
    double w[3];              /* those shares, per resource (RES_*): fractions of its bandwidth (quantum_end) */
    double ratio[3];          /* at the last quantum's end: how much longer its queued bytes take at the new share */
    struct pend *pend;        /* its outstanding accesses through the share queues */
    uint32_t npend, pcap;
    double grid;              /* the CTAs of its last access's grid: it shares with at most that many SMs */
    uint64_t *part_bytes, *chan_bytes, *x_bytes; /* this quantum's bytes to each partition, channel, cache SM */
    struct wsb *sb;
    struct dline *dlog;
    uint32_t ndlog, dcap;
};

struct cyc {
    struct tm_params p;
    uint32_t nsched, nparts, nchans, nx, compute_sms;
    uint32_t rf_banks;             /* register-file banks a scheduler partition has (0: no bank conflicts) */
    uint32_t level[TM_LV_COUNT];   /* level latencies with the memory side's clock */
    double llc_rate, dram_rate, x_rate, icnt_rate; /* bytes per core cycle of the LLC, DRAM, the extended LLC (all
                                                       cache SMs), an SM's port (each way) */
    double chan_rate;              /* of one DRAM channel */
    double t_act;                  /* an activation's tRP + tRCD, core cycles */
    double window;                 /* core cycles of a row-buffer window */
    double credit;                 /* core cycles of idle share an SM keeps (credit=N; default: window) */
    int revise;                    /* promises move with the queues at a quantum's end (revise=0: they stay) */
    double *demand;                /* per SM: scratch of quantum_end */
    double *chan_eff;              /* per channel: row-buffer efficiency for this quantum (quantum_end) */
    struct rowb { double burst, act; } *rowb; /* per channel: its reads' burst and activation cycles, aged
                                      by bytes like the ratios */
    double *eff_next;              /* per channel: the efficiency they give, which sets the next quantum's
                                      factor (a grid's tail, a few lines scattered over the rows, is not what
                                      the next grid's reads will find) */
    double *part_f, *chan_f, *x_f; /* per resource: its cost factor for this quantum (quantum_end): how much
                                      more than an even share of the last quantum's bytes it had (DRAM: over
                                      its efficiency) */
    struct smst *sm;
    /* row-buffer analysis (quantum_end) */
    uint64_t *hkey;
    uint32_t *hgen, hcap, gen;
    uint64_t *acts, *rbytes;       /* per channel, this quantum: activations, bytes read */
    double *wr;                    /* per channel: bytes written (dram_traffic) since the factors were computed */
    double *rd;                    /* per channel: bytes the hierarchy read (dram_traffic) since then */
    int told;                      /* dram_traffic() was called: the hierarchy's reads are known (--memsys on) */
    double *carry;                 /* per channel: the cycles of writes the last quantum left to this one */
    double *busy;                  /* per channel: the cycles its reads (at their efficiency) and writes took
                                      since the last launch began (cyc_kernel_end's floor) */
    double wsum, rsum;             /* DRAM bytes written and read: the last quantum's and what is left of before */
    double wratio;                 /* wsum / rsum (at most WRATIO_MAX) at the last quantum's end: the write-back
                                      bytes each byte read is charged in this quantum (the reads cause them) */
    double gw, gr;                 /* DRAM bytes written and read since the last launch began */
    char grid_name[64];            /* that launch's kernel */
    struct { char name[64]; double ratio; } kr[KRATIOS]; /* each kernel's last grid: bytes written per byte read */
    uint32_t nkr;
    double last_ratio;             /* the last grid's (-1: none yet) */
    double msum;                   /* DRAM bytes of the lines mem() was told came from DRAM, aged as rsum */
    double rcorr;                  /* rsum / msum (RCORR_MIN..RCORR_MAX; 1 without the hierarchy's reads): the
                                      bytes DRAM read per byte of a line told DRAM, which each such byte is
                                      charged in this quantum (a line fetched by another SM earlier in the
                                      quantum was told DRAM and read once) */
    uint64_t last_end;             /* the clock the factors were last computed at */
    double last_over;              /* the cycles of writes the last quantum_end delayed every SM's DRAM queue by */
    uint64_t now;                  /* the last quantum's end */
};

static void cyc_fini(void *state)
{
    struct cyc *c = state;
    if (!c)
        return;
    for (uint32_t i = 0; c->sm && i < c->p.num_sms; i++) {
        free(c->sm[i].part_bytes);
        free(c->sm[i].chan_bytes);
        free(c->sm[i].x_bytes);
        free(c->sm[i].sb);
        free(c->sm[i].dlog);
        free(c->sm[i].pend);
        free(c->sm[i].cal);
    }
    free(c->sm);
    free(c->chan_eff);
    free(c->rowb);
    free(c->eff_next);
    free(c->demand);
    free(c->part_f);
    free(c->chan_f);
    free(c->x_f);
    free(c->hkey);
    free(c->hgen);
    free(c->acts);
    free(c->rbytes);
    free(c->wr);
    free(c->rd);
    free(c->carry);
    free(c->busy);
    free(c);
}

static int cyc_init(void **state, const struct tm_params *p, const char *args, char *err, size_t errlen)
{
    struct cyc *c = calloc(1, sizeof *c);
    if (!c)
        goto oom;
    c->p = *p;
    uint32_t credit = UINT32_MAX, rev = 1;
    const struct tm_xarg own[] = { { "credit", &credit }, { "revise", &rev }, { NULL, NULL } };
    if (args && *args && tm_parse_args(&c->p, "cycle", args, 1, own, err, errlen)) {
        free(c);
        return -1;
    }
    struct tm_params *q = &c->p;
    if (!q->num_sms || !q->core_mhz) {
        snprintf(err, errlen, "timing model cycle: the configuration gives no SMs or no core clock");
        free(c);
        return -1;
    }
    for (int i = 0; i < TM_UNITS; i++) {
        q->unit_latency[i] = q->unit_latency[i] ? q->unit_latency[i] : 1;
        q->initiation[i] = q->initiation[i] ? q->initiation[i] : 1;
    }
    c->nsched = q->issue_width < 1 ? 1 : q->issue_width > NSCHED_MAX ? NSCHED_MAX : q->issue_width;
    c->rf_banks = !q->rf_banks ? 0 : q->rf_banks / c->nsched ? q->rf_banks / c->nsched : 1;
    c->nparts = q->llc_partitions ? q->llc_partitions : 1;
    c->nchans = q->dram_channels ? q->dram_channels : 1;
    c->nx = q->cache_sms;
    c->compute_sms = q->num_sms > q->cache_sms ? q->num_sms - q->cache_sms : 1;
    q->warp_slots = q->warp_slots ? q->warp_slots : 32 * 32;
    double sc = q->mem_clock_scale > 0 ? q->mem_clock_scale : 1, mhz = q->core_mhz;
    tm_levels(q, c->level);
    /* bandwidths in bytes per core cycle (0: unlimited) */
    c->llc_rate = q->llc_gbps * 1e3 / mhz * sc;
    c->dram_rate = q->dram_gbps * 1e3 / mhz * sc;
    c->chan_rate = c->dram_rate / c->nchans;
    c->x_rate = q->xllc_gbps_per_sm * 1e3 / mhz * c->nx;
    c->icnt_rate = (double)q->icnt_flit_bytes * (q->icnt_mhz ? q->icnt_mhz : mhz) * sc / mhz;
    double dram_mhz = (q->dram_mhz ? q->dram_mhz : mhz) * sc;
    c->t_act = (double)(q->dram_trp + q->dram_trcd) * mhz / dram_mhz;
    c->window = c->chan_rate > 0 ? 64 * 128 / c->chan_rate : 1024;
    c->credit = credit == UINT32_MAX ? c->window : credit;
    c->revise = rev != 0;
    c->sm = calloc(q->num_sms, sizeof *c->sm);
    uint32_t nx = c->nx ? c->nx : 1;
    c->chan_eff = malloc(c->nchans * sizeof *c->chan_eff);
    c->rowb = calloc(c->nchans, sizeof *c->rowb);
    c->eff_next = malloc(c->nchans * sizeof *c->eff_next);
    c->demand = malloc(q->num_sms * sizeof *c->demand);
    c->part_f = malloc(c->nparts * sizeof *c->part_f);
    c->chan_f = malloc(c->nchans * sizeof *c->chan_f);
    c->x_f = malloc(nx * sizeof *c->x_f);
    c->acts = calloc(c->nchans, sizeof *c->acts);
    c->rbytes = calloc(c->nchans, sizeof *c->rbytes);
    c->wr = calloc(c->nchans, sizeof *c->wr);
    c->rd = calloc(c->nchans, sizeof *c->rd);
    c->rcorr = 1;
    c->last_ratio = -1;
    c->carry = calloc(c->nchans, sizeof *c->carry);
    c->busy = calloc(c->nchans, sizeof *c->busy);
    if (!c->sm || !c->demand || !c->chan_eff || !c->rowb || !c->eff_next || !c->part_f || !c->chan_f || !c->x_f ||
        !c->acts || !c->rbytes || !c->wr || !c->rd || !c->carry || !c->busy)
        goto oom;
    for (uint32_t i = 0; i < c->nchans; i++)
        c->chan_eff[i] = c->chan_f[i] = c->eff_next[i] = 1;
    for (uint32_t i = 0; i < c->nparts; i++)
        c->part_f[i] = 1;
    for (uint32_t i = 0; i < nx; i++)
        c->x_f[i] = 1;
    for (uint32_t i = 0; i < q->num_sms; i++) {
        struct smst *s = &c->sm[i];
        s->part_bytes = calloc(c->nparts, sizeof *s->part_bytes);
        s->chan_bytes = calloc(c->nchans, sizeof *s->chan_bytes);
        s->x_bytes = calloc(nx, sizeof *s->x_bytes);
        s->sb = calloc(q->warp_slots, sizeof *s->sb); /* (cache-mode SMs: the helper kernel's warps) */
        if (!s->part_bytes || !s->chan_bytes || !s->x_bytes || !s->sb)
            goto oom;
        s->w[RES_PART] = s->w[RES_CHAN] = s->w[RES_X] = 1.0 / c->compute_sms;
    }
    *state = c;
    return 0;
oom:
    cyc_fini(c);
    snprintf(err, errlen, "timing model cycle: out of memory");
    return -1;
}

static inline struct wsb *slot_of(struct cyc *c, uint32_t sm, uint32_t wslot)
{
    if (sm >= c->p.num_sms)
        return NULL;
    return &c->sm[sm].sb[wslot % c->p.warp_slots];
}

/* Register-file bank conflicts (p.rf_banks > 0): a partition has rf_banks /
 * schedulers banks, register r in bank r mod that, each bank one read a
 * cycle; an instruction reading k distinct registers of one bank needs k
 * cycles to collect them, k - 1 more than without conflicts, and its
 * partition issues nothing else meanwhile. */
static uint32_t rf_conflicts(const struct cyc *c, const struct tm_issue *ev)
{
    uint32_t banks = c->rf_banks;
    if (!banks || !ev->src || ev->nsrc < 2)
        return 0;
    uint32_t worst = 1, n = ev->nsrc < TM_MAX_SRC ? ev->nsrc : TM_MAX_SRC;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = 0;
        for (uint32_t j = 0; j < n; j++)
            k += ev->src[j] % banks == ev->src[i] % banks;
        worst = k > worst ? k : worst;
    }
    return worst - 1;
}

/* Whether cycles [t, t + len) of k are free (those past its window are). */
static int cal_free(const struct cal *k, uint64_t t, uint32_t len)
{
    if (t < k->lo)
        return 0;
    for (uint64_t x = t; x < t + len && x < k->lo + CAL_CYCLES; x++) {
        uint32_t i = (uint32_t)(x % CAL_CYCLES);
        if (k->bits[i >> 6] >> (i & 63) & 1)
            return 0;
    }
    return 1;
}

/* Takes cycles [t, t + len) of k (t >= k->lo), moving its window on so that they are in it. */
static void cal_take(struct cal *k, uint64_t t, uint32_t len)
{
    uint64_t end = t + len;
    if (end > k->lo + CAL_CYCLES) {
        uint64_t lo = end - CAL_CYCLES;
        if (lo - k->lo >= CAL_CYCLES)
            memset(k->bits, 0, sizeof k->bits);
        else
            for (uint64_t x = k->lo; x < lo; x++)
                k->bits[x % CAL_CYCLES >> 6] &= ~(UINT64_C(1) << (x % CAL_CYCLES & 63));
        k->lo = lo;
    }
    for (uint64_t x = t > k->lo ? t : k->lo; x < end; x++)
        k->bits[x % CAL_CYCLES >> 6] |= UINT64_C(1) << (x % CAL_CYCLES & 63);
}

/* The first cycle from t on where a and b are free for alen and blen cycles, b from `off` cycles after a
 * (b NULL: a alone); takes them. */
static uint64_t cal_fit(struct cal *a, uint32_t alen, struct cal *b, uint32_t off, uint32_t blen, uint64_t t)
{
    uint64_t x = t > a->lo ? t : a->lo;
    if (b && x + off < b->lo)
        x = b->lo - off;
    while (!cal_free(a, x, alen) || (b && !cal_free(b, x + off, blen)))
        x++;
    cal_take(a, x, alen);
    if (b)
        cal_take(b, x + off, blen);
    return x;
}

/* The calendars of SM s (number sm) if it is a cache-mode SM, allocated at its first use; else (or without
 * memory) NULL.  Only helper warps run there (--xllc helper), and the emulator times each one's service of a
 * request to its end before the next request: a scalar "next free cycle" per partition would make a later
 * request on another warp wait for the whole of an earlier one, as if the SM served one request at a time.
 * A compute SM's events come in the order they happen and keep the scalars. */
static struct calsm *cal_of(struct cyc *c, struct smst *s, uint32_t sm)
{
    if (!c->nx || sm < c->p.num_sms - c->nx)
        return NULL;
    if (!s->cal)
        s->cal = calloc(1, sizeof *s->cal + c->nsched * sizeof s->cal->part[0]);
    return s->cal;
}

/* Keeps an outstanding access of SM s for revise() (none when out of memory: its promise then stays). */
static void remember(struct smst *s, const struct pend *p)
{
    if (s->npend == s->pcap) {
        uint32_t cap = s->pcap ? s->pcap * 2 : 256;
        struct pend *n = realloc(s->pend, cap * sizeof *n);
        if (!n)
            return;
        s->pend = n, s->pcap = cap;
    }
    s->pend[s->npend++] = *p;
}

static uint32_t cyc_issue(void *state, const struct tm_issue *ev)
{
    struct cyc *c = state;
    struct wsb *w = slot_of(c, ev->sm, ev->wslot);
    if (!w)
        return 1;
    struct smst *s = &c->sm[ev->sm];
    if (ev->first) /* a new warp in the slot: the old one's registers are gone (not its own access, made
                      by this very instruction) */
        memset(w->ready, 0, sizeof w->ready);
    uint32_t unit = ev->unit < TM_UNITS ? ev->unit : 0, sp = ev->wslot % c->nsched;
    uint64_t start = ev->clock;
    struct calsm *k = cal_of(c, s, ev->sm);
    if (k) { /* the issue slot for 1 + its bank conflicts' cycles, then the pipeline */
        uint32_t rc = rf_conflicts(c, ev);
        start = cal_fit(&k->part[sp][0], 1 + rc, &k->part[sp][1 + unit], rc, c->p.initiation[unit], start) + rc;
    } else {
        if (s->sched_free[sp] > start)
            start = s->sched_free[sp];
        if (s->pipe_free[sp][unit] > start)
            start = s->pipe_free[sp][unit];
        start += rf_conflicts(c, ev);
        s->sched_free[sp] = start + 1;
        s->pipe_free[sp][unit] = start + c->p.initiation[unit];
    }
    uint64_t done;
    if (w->mem_pending) { /* a load or atomic: its data, or its latency from when it starts if that is later
                             (the queues it waited in are not paid twice) */
        done = w->mem_done > start + w->mem_lat ? w->mem_done : start + w->mem_lat;
        w->mem_pending = 0;
        if (c->revise && ev->def && done > start + w->mem_lat && (w->mem_q[0] > 0 || w->mem_q[1] > 0 || w->mem_q[2] > 0))
            remember(s, &(struct pend){ .wslot = ev->wslot, .def = ev->def, .done = done, .floor = start + w->mem_lat,
                                        .lat = w->mem_lat, .port = w->mem_port,
                                        .q = { w->mem_q[0], w->mem_q[1], w->mem_q[2] } });
    } else if (ev->shared) {
        done = start + (c->level[TM_LV_SHARED] ? c->level[TM_LV_SHARED] : c->p.unit_latency[unit]);
    } else {
        done = start + c->p.unit_latency[unit];
    }
    for (uint64_t m = ev->def; m; m &= m - 1) {
        uint64_t *r = &w->ready[__builtin_ctzll(m)];
        *r = *r > done ? *r : done;
    }
    uint64_t next = start + 1;
    if (unit == TM_UNIT_CTRL) /* a branch: the warp's next instruction waits for its target (Nsight Compute's
                                 "branch resolving" stall, taken or not) */
        next = start + c->p.unit_latency[unit];
    w->next_other = next;
    w->use_next = ev->use_next;
    for (uint64_t m = ev->use_next; m; m &= m - 1) {
        uint64_t r = w->ready[__builtin_ctzll(m)];
        next = r > next ? r : next;
    }
    return (uint32_t)(next - ev->clock);
}

/* bytes through a share queue of its SM (rate: the resource's bytes per core cycle, shared by users):
 * the cycle they are through.  Share the SM left idle in the last `credit` cycles is still its own, so a
 * burst after a pause passes at once: over any T cycles an SM passes at most (T + credit) * rate / users
 * bytes, all SMs together (T + credit) * rate. */
static inline double queue(double *f, double at, double bytes, double rate, double users, double credit)
{
    if (rate <= 0)
        return at;
    double start = *f > at - credit ? *f : at - credit;
    *f = start + bytes * users / rate;
    return *f > at ? *f : at;
}

static uint32_t cyc_mem(void *state, const struct tm_mem *ev)
{
    struct cyc *c = state;
    if (ev->sm >= c->p.num_sms)
        return 1;
    struct smst *s = &c->sm[ev->sm];
    uint8_t lv = ev->level < TM_LV_COUNT ? ev->level : TM_LV_NONE;
    int store = ev->write && !ev->atomic;
    /* the distinct lines the active lanes touch, and the level each comes from (v7: the hierarchy's; else
       every line at the access's) */
    uint64_t lines[64];
    uint8_t llv[64];
    uint16_t lby[64]; /* the bytes each moves (v8), else 128 */
    uint32_t n = 0;
    if (ev->line_addr && ev->line_level && ev->lines) {
        n = ev->lines < 64 ? ev->lines : 64;
        for (uint32_t i = 0; i < n; i++) {
            lines[i] = ev->line_addr[i] >> 7;
            llv[i] = ev->line_level[i];
            lby[i] = ev->line_bytes ? ev->line_bytes[i] : 128;
        }
    } else {
        for (uint32_t l = 0; l < 32; l++) {
            if (!(ev->active >> l & 1))
                continue;
            uint64_t a = ev->addr[l] >> 7, b = (ev->addr[l] + (ev->size ? ev->size : 1) - 1) >> 7;
            for (uint64_t x = a; x <= b && n < 64; x++) {
                uint32_t k = 0;
                while (k < n && lines[k] != x)
                    k++;
                if (k == n)
                    llv[n] = lv, lby[n] = 128, lines[n++] = x;
            }
        }
    }
    if (!n)
        n = 1, lines[0] = 0, llv[0] = lv, lby[0] = 128;
    double at = (double)ev->clock;
    /* the L1's tag lookups */
    double l1_start, lpc = c->p.l1_lines_per_cycle ? c->p.l1_lines_per_cycle : 1;
    struct calsm *kc = cal_of(c, s, ev->sm);
    if (kc) { /* (a helper warp's own access: its tag lookups in the calendar, as its issue) */
        l1_start = (double)cal_fit(&kc->l1, (uint32_t)ceil(n / lpc), NULL, 0, 0, ev->clock);
    } else {
        l1_start = s->l1_free > at ? s->l1_free : at;
        s->l1_free = l1_start + (double)n / lpc;
    }
    double ready = l1_start;
    struct wsb *wq = slot_of(c, ev->sm, ev->wslot);
    if (wq) /* (set below for an access through the share queues) */
        wq->mem_q[0] = wq->mem_q[1] = wq->mem_q[2] = 0;
    if (lv == TM_LV_LLC || lv == TM_LV_XLLC || lv == TM_LV_DRAM || lv == TM_LV_XLLC_DRAM) {
        double grid = ev->grid_ctas ? ev->grid_ctas : c->compute_sms;
        s->grid = grid;
        uint32_t far = 0; /* the lines that leave the SM (not the L1's), and the bytes they move */
        double fbytes = 0;
        for (uint32_t i = 0; i < n; i++)
            if (llv[i] > TM_LV_L1)
                far++, fbytes += lby[i];
        /* the SM's port: a store's data goes out, a load's comes back (a request's header is a flit) */
        double out = store || ev->atomic ? fbytes : (double)far * c->p.icnt_flit_bytes;
        double t = queue(&s->req_free, l1_start, out, c->icnt_rate, 1, 0), w = t;
        if (!store) { /* the reply's data over the port */
            double r = queue(&s->rep_free, l1_start, fbytes, c->icnt_rate, 1, 0);
            w = r > w ? r : w;
        }
        /* the lines' cost in the SM's shares: the bytes each moves (v8: sectors; a block an extended-LLC miss fills),
           times their resource's factor */
        double llc = 0, dram = 0, x = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t ln = lines[i];
            unsigned u = tm_line_uses(llv[i], ev); /* each line costs its own level's bandwidth */
            if (u & TM_USE_LLC) {
                uint32_t pi = (uint32_t)(ln % c->nparts);
                llc += lby[i] * c->part_f[pi];
                s->part_bytes[pi] += lby[i];
            }
            if (c->nx && (u & TM_USE_XLLC)) {
                uint32_t k = (uint32_t)(ln % c->nx);
                x += lby[i] * c->x_f[k];
                s->x_bytes[k] += lby[i];
            }
            if (u & TM_USE_DRAM) {
                uint32_t ch = (uint32_t)(ln % c->nchans);
                dram += lby[i] * c->chan_f[ch] * (1 + c->wratio); /* with the write-backs it causes */
                s->chan_bytes[ch] += lby[i];
                if (s->ndlog == s->dcap && s->dcap < DLOG_MAX) {
                    uint32_t cap = s->dcap ? s->dcap * 2 : 1024;
                    struct dline *d = realloc(s->dlog, cap * sizeof *d);
                    if (d)
                        s->dlog = d, s->dcap = cap;
                }
                if (s->ndlog < s->dcap)
                    s->dlog[s->ndlog++] = (struct dline){ ev->clock, ln, lby[i] };
            }
        }
        double q[3] = { 0, 0, 0 };
        if (llc > 0)
            q[RES_PART] = queue(&s->llc_free, t, llc, c->llc_rate, fmin(grid, 1 / s->w[RES_PART]), c->credit);
        if (x > 0)
            q[RES_X] = queue(&s->x_free, t, x, c->x_rate, fmin(grid, 1 / s->w[RES_X]), c->credit);
        if (dram > 0)
            q[RES_CHAN] = queue(&s->dram_free, t, dram, c->dram_rate, fmin(grid, 1 / s->w[RES_CHAN]), c->credit);
        if (wq) {
            wq->mem_port = w;
            memcpy(wq->mem_q, q, sizeof q);
        }
        ready = fmax(w, fmax(q[0], fmax(q[1], q[2])));
    }
    uint32_t lat = tm_level_latency(c->level, ev);
    lat = lat ? lat : c->p.unit_latency[TM_UNIT_LDST];
    double done = ready + lat;
    struct wsb *ws = slot_of(c, ev->sm, ev->wslot);
    if (ws && !store) {
        ws->mem_done = (uint64_t)ceil(done);
        ws->mem_lat = lat;
        ws->mem_pending = 1;
    }
    return store ? c->p.unit_latency[TM_UNIT_LDST] : (uint32_t)ceil(done - at);
}

/* The row-buffer analysis of the quantum's DRAM lines (every SM's, in any order: the result is a count of
 * distinct rows per channel, window and bank), and each channel's efficiency for the next quantum. */
static void rows(struct cyc *c, double span);

/* Resource `which` (RES_*): an SM's bytes to each of its units this quantum, the end of the SM's share queue,
 * and the resource's bandwidth in bytes per core cycle. */
static uint64_t *res_bytes(struct smst *s, int which)
{
    return which == RES_PART ? s->part_bytes : which == RES_CHAN ? s->chan_bytes : s->x_bytes;
}

static double *res_free(struct smst *s, int which)
{
    return which == RES_PART ? &s->llc_free : which == RES_CHAN ? &s->dram_free : &s->x_free;
}

static double res_rate(const struct cyc *c, int which)
{
    return which == RES_PART ? c->llc_rate : which == RES_CHAN ? c->dram_rate : c->x_rate;
}

/* Resource j's cost factor from the quantum's bytes D (each unit's with an even part of the capacity the
 * quantum left idle): D_j over an even share of their sum (floored at 1/4: a resource idle last quantum is not
 * free), over eff[j] when given; then each SM's share (below). */
static void factors(struct cyc *c, int which, uint32_t n, double *f, const double *eff, double scale,
                    uint64_t clock, double span)
{
    /* what the resource could have passed in the quantum: the capacity its traffic left idle is spread evenly
       over its units and the compute SMs below, so that the few bytes of a quiet quantum (a grid's tail) do
       not set the next one's factors and shares */
    double rate = res_rate(c, which), cap = rate > 0 ? rate * span : 0, sum = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint64_t d = 0;
        for (uint32_t i = 0; i < c->p.num_sms; i++)
            d += res_bytes(&c->sm[i], which)[j];
        f[j] = (double)d * scale;
        sum += (double)d * scale;
    }
    double top = fmax(cap, sum), idle = top - sum;
    for (uint32_t j = 0; j < n; j++) {
        double v = top > 0 ? (f[j] + idle / n) * n / top : 1;
        v = v < 0.25 ? 0.25 : v;
        f[j] = (eff ? v / eff[j] : v) * scale;
    }
    /* each SM's share for the next quantum: its demand in this one (the bytes it passed and those still
     * queued) and its even part of the idle capacity over everyone's, at least an eighth of an even share
     * (none: no news, the shares stay) */
    double dsum = 0;
    for (uint32_t i = 0; i < c->p.num_sms; i++) {
        struct smst *s = &c->sm[i];
        const uint64_t *b = res_bytes(s, which);
        double d = 0, fr = *res_free(s, which);
        for (uint32_t j = 0; j < n; j++)
            d += (double)b[j];
        d *= scale;
        if (fr > (double)clock)
            d += (fr - (double)clock) * rate * s->w[which];
        c->demand[i] = d;
        dsum += d;
    }
    if (dsum > 0) {
        double dtop = fmax(cap, dsum), didle = (dtop - dsum) / c->compute_sms;
        for (uint32_t i = 0; i < c->compute_sms && i < c->p.num_sms; i++)
            c->demand[i] += didle;
        dsum = dtop;
        /* (a cache-mode SM without demand, whose helper kernel has not used it, keeps the floor outside the
           sum: the compute SMs' shares add up to the whole) */
        double floor = 1.0 / (8.0 * c->compute_sms), wsum = 0;
        for (uint32_t i = 0; i < c->p.num_sms; i++) {
            int idle_cache = i >= c->compute_sms && c->demand[i] == 0;
            c->demand[i] = fmax(c->demand[i] / dsum, floor);
            wsum += idle_cache ? 0 : c->demand[i];
        }
        for (uint32_t i = 0; i < c->p.num_sms; i++) {
            /* what the SM has queued drains at its new share from now on: the bytes queued at the old share
               take (old users / new users) as long (a share that grew serves its backlog faster) */
            struct smst *s = &c->sm[i];
            double w = c->demand[i] / wsum, *fr = res_free(s, which), g = s->grid > 0 ? s->grid : c->compute_sms;
            s->ratio[which] = fmin(g, 1 / w) / fmin(g, 1 / s->w[which]);
            if (*fr > (double)clock)
                *fr = (double)clock + (*fr - (double)clock) * s->ratio[which];
            s->w[which] = w;
        }
    }
    for (uint32_t i = 0; i < c->p.num_sms; i++)
        memset(res_bytes(&c->sm[i], which), 0, n * sizeof(uint64_t));
}


/* A helper-mode access's data is back at ev->ready (after the helper's warp served it): its registers are
 * written then; the warp's next instruction waits for what it reads. */
static uint64_t cyc_served(void *state, const struct tm_served *ev)
{
    struct cyc *c = state;
    struct wsb *w = slot_of(c, ev->sm, ev->wslot);
    if (!w)
        return ev->ready;
    for (uint64_t m = ev->def; m; m &= m - 1) {
        uint64_t *r = &w->ready[__builtin_ctzll(m)];
        *r = *r > ev->ready ? *r : ev->ready;
    }
    uint64_t next = 0;
    for (uint64_t m = ev->use_next; m; m &= m - 1) {
        uint64_t r = w->ready[__builtin_ctzll(m)];
        next = r > next ? r : next;
    }
    return next;
}

/* The promises of every SM's outstanding accesses, after the queues moved to the new shares (factors()): an
 * access's place in a queue beyond `clock` moves as the queue's end did (DRAM's with the writes' carry `over`
 * first), its data with it, and the registers it was to write then (those no later write took over); what
 * is done by `clock` is forgotten.  The warps the emulator holds on them ask again (cyc_rewake). */
static void revise(struct cyc *c, uint64_t clock, double over)
{
    double now = (double)clock;
    for (uint32_t i = 0; i < c->p.num_sms; i++) {
        struct smst *s = &c->sm[i];
        uint32_t keep = 0;
        for (uint32_t k = 0; k < s->npend; k++) {
            struct pend p = s->pend[k];
            if (p.done <= clock)
                continue;
            double ready = p.port;
            for (int r = 0; r < 3; r++) {
                if (p.q[r] > now)
                    p.q[r] = now + (p.q[r] + (r == RES_CHAN ? over : 0) - now) * s->ratio[r];
                ready = fmax(ready, p.q[r]);
            }
            uint64_t done = (uint64_t)ceil(ready + p.lat);
            done = done > p.floor ? done : p.floor;
            if (done != p.done) {
                struct wsb *w = slot_of(c, i, p.wslot);
                for (uint64_t m = p.def; w && m; m &= m - 1) {
                    uint64_t *r = &w->ready[__builtin_ctzll(m)];
                    if (*r == p.done)
                        *r = done;
                }
                p.done = done;
            }
            if (p.done > clock)
                s->pend[keep++] = p;
        }
        s->npend = keep;
    }
}

/* v10: a warp held on its last issue's answer, at a quantum's end: that answer with the registers asked again
 * (revise() may have moved them) */
static uint64_t cyc_rewake(void *state, uint32_t sm, uint32_t wslot, uint64_t ready, uint64_t clock)
{
    struct cyc *c = state;
    struct wsb *w = slot_of(c, sm, wslot);
    if (!w || !c->revise)
        return ready;
    uint64_t next = w->next_other;
    for (uint64_t m = w->use_next; m; m &= m - 1) {
        uint64_t r = w->ready[__builtin_ctzll(m)];
        next = r > next ? r : next;
    }
    return next > clock ? next : clock;
}

/* The end of a span (timing.span cycles, at least a quantum, or a grid's end): what the traffic since the last
 * one says sets the shares and factors of the next.  held: warps may be held on the promises it revises (the
 * emulator asks them again, cyc_rewake), not so at a grid's end. */
static void span_end(struct cyc *c, uint64_t clock, int held)
{
    double span = (double)(clock - c->last_end);
    c->last_end = clock;
    for (uint32_t i = 0; i < c->p.num_sms; i++) /* (factors() sets them where it has news) */
        c->sm[i].ratio[RES_PART] = c->sm[i].ratio[RES_CHAN] = c->sm[i].ratio[RES_X] = 1;
    rows(c, span);
    factors(c, RES_PART, c->nparts, c->part_f, NULL, 1, clock, span);
    /* the reads: the hierarchy's (v12), not the lines mem() was told came from DRAM (rbytes): it told each
     * access from the hierarchy's state at the quantum's start, so a line another SM fetched earlier in the
     * quantum (a hit on a pending miss: sgemm's tiles, a stencil's halo) was told DRAM and read once, one
     * evicted meanwhile was told LLC and read again (sgemm at size medium: 2.5 times the bytes read, kmeans
     * 0.92).  Each byte of a line told DRAM is charged rcorr bytes in the next quantum, the ratio of the two
     * so far.  The writes: each read byte was charged wratio bytes of them in the SMs' queues (at its
     * row-buffer efficiency).  What the writes the last quantum carried over, the quantum's reads and its
     * writes needed beyond its span, up to the writes it did not charge (reads beyond it are in the SMs'
     * queues already), is still to come and carried into the next quantum; every SM's DRAM queue waits that
     * long (averaged over the channels: an SM's lines go to all of them) */
    double over = 0, wq = 0, rq = 0, mq = 0;
    for (uint32_t ch = 0; ch < c->nchans && c->chan_rate > 0; ch++) {
        double r = c->told ? c->rd[ch] : (double)c->rbytes[ch];
        double rt = r / c->chan_rate / c->chan_eff[ch], ct = rt * c->wratio;
        double wt = c->wr[ch] / c->chan_rate, un = wt > ct ? wt - ct : 0;
        double o = c->carry[ch] + rt + ct + un - span;
        c->carry[ch] = o <= 0 ? 0 : o < un ? o : un;
        c->busy[ch] += rt + wt;
        over += c->carry[ch];
        wq += c->wr[ch];
        rq += r;
        mq += (double)c->rbytes[ch];
        c->wr[ch] = c->rd[ch] = 0;
    }
    over /= c->nchans;
    /* the ratios remember bytes, not quanta: a quantum moving a channel-capacity's worth of them keeps 1/e of
       what was known, a quiet one (a grid's tail) nearly all of it */
    double keep = c->dram_rate > 0 ? exp(-(wq + rq) / (c->dram_rate * span)) : 0;
    c->gw += wq;
    c->gr += rq;
    c->wsum = c->wsum * keep + wq;
    c->rsum = c->rsum * keep + rq;
    c->msum = c->msum * keep + mq;
    c->wratio = c->rsum > 0 ? fmin(c->wsum / c->rsum, WRATIO_MAX) : 0;
    c->rcorr = c->msum > 0 ? fmax(RCORR_MIN, fmin(c->rsum / c->msum, RCORR_MAX)) : 1;
    c->last_over = over;
    if (over > 0)
        for (uint32_t i = 0; i < c->p.num_sms; i++) {
            double *f = &c->sm[i].dram_free;
            *f = (*f > (double)clock ? *f : (double)clock) + over;
        }
    factors(c, RES_CHAN, c->nchans, c->chan_f, c->eff_next, c->rcorr, clock, span);
    if (c->nx)
        factors(c, RES_X, c->nx, c->x_f, NULL, 1, clock, span);
    if (c->revise && held)
        revise(c, clock, over);
}

static void cyc_quantum_end(void *state, uint64_t clock)
{
    struct cyc *c = state;
    /* v13: the shares and factors describe timing.span cycles, at least a configured quantum (emu.quantum;
       helper mode's quanta are shorter): a short quantum makes the hierarchy's answers fresher, not the
       measures noisier */
    c->now = clock;
    uint64_t span = c->p.span > c->p.quantum ? c->p.span : c->p.quantum;
    if (clock - c->last_end >= span)
        span_end(c, clock, 1);
}

/* v12: the quantum's DRAM reads and write-backs, before its quantum_end (cyc_quantum_end) */
static void cyc_dram_traffic(void *state, const uint64_t *read, const uint64_t *written, uint32_t nchans)
{
    struct cyc *c = state;
    c->told = 1;
    for (uint32_t ch = 0; ch < nchans && ch < c->nchans; ch++) {
        c->rd[ch] += (double)read[ch];
        c->wr[ch] += (double)written[ch];
    }
}

static void rows(struct cyc *c, double span)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < c->p.num_sms; i++)
        total += c->sm[i].ndlog;
    memset(c->rbytes, 0, c->nchans * sizeof *c->rbytes);
    if (!total)
        return;
    if (c->hcap < 2 * total) {
        uint32_t cap = 1024;
        while (cap < 2 * total)
            cap *= 2;
        uint64_t *k = realloc(c->hkey, cap * sizeof *k);
        if (k)
            c->hkey = k;
        uint32_t *g = k ? calloc(cap, sizeof *g) : NULL;
        if (!k || !g) {
            free(g);
            for (uint32_t i = 0; i < c->p.num_sms; i++)
                c->sm[i].ndlog = 0;
            return; /* out of memory: the efficiencies stay */
        }
        free(c->hgen);
        c->hgen = g;
        c->hcap = cap;
        c->gen = 0;
    }
    if (++c->gen == 0) {
        memset(c->hgen, 0, c->hcap * sizeof *c->hgen);
        c->gen = 1;
    }
    memset(c->acts, 0, c->nchans * sizeof *c->acts);
    uint32_t row_lines = c->p.dram_row_bytes >= 128 ? c->p.dram_row_bytes / 128 : 1;
    uint32_t banks = c->p.dram_banks ? c->p.dram_banks : 1;
    for (uint32_t i = 0; i < c->p.num_sms; i++) {
        struct smst *s = &c->sm[i];
        for (uint32_t j = 0; j < s->ndlog; j++) {
            uint64_t x = s->dlog[j].line, ch = x % c->nchans, local = x / c->nchans;
            uint64_t bank = (local / row_lines) % banks, row = local / ((uint64_t)row_lines * banks);
            uint64_t win = (uint64_t)((double)s->dlog[j].clock / c->window);
            uint64_t key = (((row * banks + bank) * c->nchans + ch) << 20 ^ win) + 1;
            uint64_t h = key * 0x9e3779b97f4a7c15ull;
            uint32_t at = (uint32_t)(h >> 32) & (c->hcap - 1);
            while (c->hgen[at] == c->gen && c->hkey[at] != key)
                at = (at + 1) & (c->hcap - 1);
            c->rbytes[ch] += s->dlog[j].bytes;
            if (c->hgen[at] != c->gen) {
                c->hgen[at] = c->gen;
                c->hkey[at] = key;
                c->acts[ch]++;
            }
        }
        s->ndlog = 0;
    }
    for (uint32_t ch = 0; ch < c->nchans; ch++) {
        double burst = c->chan_rate > 0 ? (double)c->rbytes[ch] / c->chan_rate : 0; /* its bytes' time */
        double act = (double)c->acts[ch] * c->t_act / banks;
        if (burst > 0)
            c->chan_eff[ch] = burst / (burst + act);
        /* the next quantum's: a quantum whose reads kept the channel busy throughout keeps 1/e of before */
        struct rowb *b = &c->rowb[ch];
        double keep = span > 0 ? exp(-burst / span) : 0;
        b->burst = b->burst * keep + burst;
        b->act = b->act * keep + act;
        if (b->burst > 0)
            c->eff_next[ch] = b->burst / (b->burst + b->act);
    }
}


/* The entry of the current grid's kernel (grid_name) in the table of write ratios, or -1. */
static int kr_find(const struct cyc *c)
{
    for (uint32_t i = 0; i < c->nkr; i++)
        if (!strcmp(c->kr[i].name, c->grid_name))
            return (int)i;
    return -1;
}

/* A grid starts: even shares among the compute SMs, until a quantum's end weighs each SM's demand; the write
 * ratio of its kernel's last grid. */
static void cyc_launch(void *state, const char *kernel, uint32_t nctas, uint32_t threads_per_cta)
{
    struct cyc *c = state;
    (void)kernel, (void)nctas, (void)threads_per_cta;
    for (uint32_t i = 0; i < c->p.num_sms; i++)
        c->sm[i].w[RES_PART] = c->sm[i].w[RES_CHAN] = c->sm[i].w[RES_X] = 1.0 / c->compute_sms;
    memset(c->busy, 0, c->nchans * sizeof *c->busy);
    /* the write-backs each byte read is charged from now on: what this kernel's last grid wrote per byte it
       read, else the last grid's; not what the last quanta had (a grid's tail writes back what it stored with
       few reads left: lbm's second launch began with 2.4 bytes written charged to each byte read, where its
       grids write 1; with a quantum of 2048 it then took 70,000 cycles instead of 44,000) */
    snprintf(c->grid_name, sizeof c->grid_name, "%s", kernel ? kernel : "");
    int k = kr_find(c);
    double r = k >= 0 ? c->kr[k].ratio : c->last_ratio;
    if (r >= 0 && c->rsum > 0) {
        c->wsum = c->rsum * r;
        c->wratio = r;
    }
    c->gw = c->gr = 0;
}

/* v11: a grid is done.  Its span is at least what its busiest DRAM channel needed for the reads (at their
 * row-buffer efficiency) and the write-backs of the quanta since it began: a grid shorter than a quantum has
 * its write-backs told when its warps are done, and the quantum's idle rest would otherwise absorb them (a
 * 6 MiB copy moved 1137 GB/s of a 760 GB/s DRAM).  Raised, the grid has paid its write-backs: none is carried
 * into the next one, and the delay the last quantum's end gave every SM's DRAM queue for them is taken back
 * (no SM ran since).  (Grids that run at once: the traffic since the latest began, which also passed in its
 * span.) */
static void cyc_kernel_end(void *state, uint64_t *cycles)
{
    struct cyc *c = state;
    if (c->now > c->last_end) /* (a grid's end ends a span: its traffic is the grid's) */
        span_end(c, c->now, 0);
    if (c->gr > 0) { /* this kernel's write ratio, for its next grid (cyc_launch) */
        double r = fmin(c->gw / c->gr, WRATIO_MAX);
        int k = kr_find(c);
        if (k < 0 && c->nkr < KRATIOS) {
            k = (int)c->nkr++;
            memcpy(c->kr[k].name, c->grid_name, sizeof c->kr[k].name);
        }
        if (k >= 0)
            c->kr[k].ratio = r;
        c->last_ratio = r;
    }
    double need = 0;
    for (uint32_t ch = 0; ch < c->nchans; ch++)
        need = c->busy[ch] > need ? c->busy[ch] : need;
    if (need > (double)*cycles) {
        *cycles = (uint64_t)ceil(need);
        memset(c->carry, 0, c->nchans * sizeof *c->carry);
        for (uint32_t i = 0; i < c->p.num_sms && c->last_over > 0; i++) /* (the delay quantum_end just gave) */
            c->sm[i].dram_free -= c->last_over;
        c->last_over = 0;
    }
}

const struct tm_ops tm_cycle_ops = {
    .version = TM_API_VERSION,
    .name = "cycle",
    .summary = "scheduler partitions, unit pipelines, a scoreboard, L1/interconnect/LLC/DRAM/extended-LLC queues, "
               "DRAM row buffers, clock domains (configuration timing.*)",
    .events = TM_EV_LAUNCH | TM_EV_ISSUE | TM_EV_MEM | TM_EV_DEPS,
    .init = cyc_init,
    .on_launch = cyc_launch,
    .on_kernel_end = cyc_kernel_end,
    .issue = cyc_issue,
    .mem = cyc_mem,
    .fini = cyc_fini,
    .quantum_end = cyc_quantum_end,
    .served = cyc_served,
    .dram_traffic = cyc_dram_traffic,
    .rewake = cyc_rewake,
};

/* memsys/morpheus.c — the Morpheus controller of each LLC partition
 * (MICRO'22 §4.1) in front of the native extended LLC (memsys/xllc.c):
 * address separation, the hit/miss predictor (memsys/bloom.c), and the
 * query unit with its memory-mapped warp status table and data buffers
 * (include/mx/morpheus_mmio.h).  docs/morpheus-controller.md is the
 * long form of every choice made here. */
#include "memsys/morpheus.h"
#include "memsys/bdi.h"
#include "memsys/bloom.h"
#include "memsys/xllc.h"
#include "mx/morpheus_mmio.h"
#include "mx/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The query unit of one partition (§4.1.3).  Requests reserve, in the
 * order they arrive, a queue slot until they start, their set's helper
 * warp and one data-buffer entry from start to end (start + service). */
struct qu {
    uint32_t rows;               /* extended sets of the partition (warp-status-table rows) */
    uint64_t *warp_free;         /* per row: clock its helper warp finishes its last request */
    uint64_t *queued;            /* start clocks of the requests waiting in the queue */
    uint32_t nqueued;
    uint64_t *rbuf_free;         /* per read-buffer entry: clock it is free again */
    uint64_t *wbuf_free;         /* per write-buffer entry */
    uint64_t now;                /* clock of the latest admission: arrivals never go back */
    uint8_t *mmio;               /* the region the helper kernel sees (morpheus_mmio.h) */
    size_t mmio_bytes;
};

struct morpheus {
    int on;                      /* extended LLC in use (xllc != off and cache SMs) */
    int helper;                  /* the helper kernel answers: qu_post leaves the region to it */
    uint32_t parts;              /* LLC partitions */
    uint32_t llc_sets;           /* conventional sets per partition */
    uint32_t lw, xw;             /* address separation: the ways of a conventional and of an extended set,
                                    divided by their greatest common divisor */
    uint32_t xbase, xrem;        /* partition p has xbase + (p < xrem) extended sets */
    uint32_t sets_per_sm;        /* S: extended sets (= helper warps) per cache-mode SM */
    uint32_t first_cache_sm;     /* num_sms - cache_sms */
    uint32_t full_sectors;       /* sector mask of a whole 128-byte line */
    uint32_t channels;           /* DRAM channels */
    uint32_t predictor, compress;
    uint32_t qlen, nrbuf, nwbuf; /* queue entries, read/write buffer entries per partition */
    uint32_t service;            /* cycles a helper warp spends on a request */
    struct bloom_h3 h3;          /* one hash family for the whole GPU */
    struct bloom_pred *bp;       /* per GPU-wide extended set (bloom predictor only) */
    struct xllc x;               /* the sets' tags and state */
    uint8_t *holes;              /* per set: a block left it other than by eviction since it was last full */
    uint8_t *mixed;              /* per set (compressed, Bloom): its split had compressed registers, or a re-split
                                    dropped blocks, since its last predictor swap (or at it) */
    struct qu *qu;               /* per partition */
    struct mx_cache_stats xs;
    uint64_t tp, fp, tn, fn, qu_full;
    struct morpheus_xstats xx;
};

#define MORPHEUS_MMIO_ALIGN 65536

static const char *const variant_name[MX_XV_COUNT] = { "rf", "l1", "shm", "rf+l1" };

/* Ways of an extended-LLC set, and (sets) its sets per cache-mode SM: the
 * configuration's, except that the helper kernel's own geometry wins in
 * helper mode: 32 ways (one per lane of the set's warp) and at most one set
 * per helper warp. */
static uint32_t geometry(const struct mx_memsys_config *c, uint32_t *sets)
{
    uint32_t ways = c->xllc == MX_XLLC_HELPER ? 32 : c->xllc_ways;
    if (sets) {
        uint32_t hw = c->helper_warps ? c->helper_warps : MORPHEUS_MAX_WARPS;
        *sets = c->xllc_kib[c->xllc_variant] * 1024u / XLLC_BLOCK / ways;
        if (c->xllc == MX_XLLC_HELPER && *sets > hw)
            *sets = hw;
    }
    return ways;
}

static uint32_t xsets(const struct morpheus *m, uint32_t part)
{
    return m->on ? m->xbase + (part < m->xrem) : 0;
}

/* The configuration's Morpheus keys, checked: MX_OK or MX_EINVAL with the
 * key first in err. */
static int check(const struct mx_memsys_config *c, char *err, size_t errlen)
{
#define BAD(...) return snprintf(err, errlen, __VA_ARGS__), MX_EINVAL
    if (c->xllc > MX_XLLC_HELPER)
        BAD("memsys.xllc.mode: %u is not a mode (off, native, helper)", c->xllc);
    if (c->cache_sms >= c->num_sms)
        BAD("memsys.cache_sms: %u cache-mode SMs of %u leave none to compute", c->cache_sms, c->num_sms);
    if (c->xllc_variant >= MX_XV_COUNT)
        BAD("memsys.xllc.variant: %u is not a variant (rf, l1, shm, rf+l1)", c->xllc_variant);
    if (c->xllc == MX_XLLC_HELPER && c->compress && c->xllc_variant != MX_XV_RF)
        BAD("memsys.compress: the %s helper kernel does not compress (BDI is in the rf variant's helper kernel; "
            "use --xllc-variant rf, --compress none, or --xllc native)", variant_name[c->xllc_variant]);
    if (!c->xllc_ways)
        BAD("memsys.xllc.ways: must be at least 1");
    uint32_t ways = geometry(c, NULL);
    uint64_t blocks = (uint64_t)c->xllc_kib[c->xllc_variant] * 1024 / XLLC_BLOCK;
    uint64_t per_sm = blocks / ways;
    if (!per_sm)
        BAD("memsys.xllc.capacity_kib.%s: %u KiB per cache-mode SM holds no set of %u ways x 128 B",
            variant_name[c->xllc_variant], c->xllc_kib[c->xllc_variant], ways);
    uint32_t hw = c->helper_warps ? c->helper_warps : MORPHEUS_MAX_WARPS;
    if (per_sm > hw && c->xllc != MX_XLLC_HELPER)
        BAD("memsys.xllc.ways: %u ways make %llu sets of a cache-mode SM's %u KiB (%s), more than its %u helper "
            "warps; use at least %llu ways", c->xllc_ways, (unsigned long long)per_sm, c->xllc_kib[c->xllc_variant],
            variant_name[c->xllc_variant], hw, (unsigned long long)((blocks + hw - 1) / hw));
    if (c->xllc_ways > 65535)
        BAD("memsys.xllc.ways: %u is more than 65535", c->xllc_ways);
    if (!c->llc_partitions)
        BAD("memsys.llc.partitions: must be at least 1");
    if (!c->llc_sets)
        BAD("memsys.llc.sets: must be at least 1");
    if (c->llc_line != XLLC_BLOCK)
        BAD("memsys.llc.line: the extended LLC holds 128-byte blocks, the LLC line is %u", c->llc_line);
    if (!c->llc_sector || c->llc_sector > c->llc_line || c->llc_line % c->llc_sector)
        BAD("memsys.llc.sector: %u does not divide the %u-byte line", c->llc_sector, c->llc_line);
    if (!c->dram_channels)
        BAD("memsys.dram.channels: must be at least 1");
    if (c->predictor > MX_PRED_PERFECT)
        BAD("memsys.predictor: %u is not a predictor (bloom, none, perfect)", c->predictor);
    if (c->predictor == MX_PRED_BLOOM && (c->bloom_k < 1 || c->bloom_k > BLOOM_MAX_K))
        BAD("memsys.bloom_k: %u hash functions, must be 1 to %u", c->bloom_k, BLOOM_MAX_K);
    if (c->compress > MX_COMP_BDI)
        BAD("memsys.compress: %u is not a compression (none, bdi)", c->compress);
    if (c->compress && c->xllc_variant == MX_XV_L1)
        BAD("memsys.compress: the l1 variant cannot compress (the L1 inserts blocks in hardware, §4.3.1)");
    if (!c->qu_queue)
        BAD("memsys.query_unit.queue: must be at least 1");
    if (c->qu_buffer_bytes < 2 * MX_MMIO_BUF_SIZE)
        BAD("memsys.query_unit.buffer_bytes: %u bytes hold less than one read and one write entry of %u bytes",
            c->qu_buffer_bytes, MX_MMIO_BUF_SIZE);
    return MX_OK;
#undef BAD
}

int morpheus_config_check(const struct mx_memsys_config *c, char *err, size_t errlen)
{
    return c->xllc == MX_XLLC_OFF || !c->cache_sms ? MX_OK : check(c, err, errlen);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}

static int qu_init(struct morpheus *m, struct qu *q, uint32_t part)
{
    q->rows = xsets(m, part);
    q->warp_free = calloc(q->rows ? q->rows : 1, sizeof *q->warp_free);
    q->queued = calloc(m->qlen, sizeof *q->queued);
    q->rbuf_free = calloc(m->nrbuf, sizeof *q->rbuf_free);
    q->wbuf_free = calloc(m->nwbuf, sizeof *q->wbuf_free);
    q->mmio_bytes = MX_MMIO_BYTES((size_t)q->rows, m->nrbuf, m->nwbuf);
    /* aligned to 64 KiB and whole 64 KiB: --xllc helper maps it into device memory, where it then takes the
     * same device addresses in every run (the emulator's page; no address depends on where the host put it) */
    size_t whole = (q->mmio_bytes + MORPHEUS_MMIO_ALIGN - 1) / MORPHEUS_MMIO_ALIGN * MORPHEUS_MMIO_ALIGN;
    q->mmio = aligned_alloc(MORPHEUS_MMIO_ALIGN, whole);
    if (q->mmio)
        memset(q->mmio, 0, whole);
    if (!q->warp_free || !q->queued || !q->rbuf_free || !q->wbuf_free || !q->mmio)
        return -1;
    uint8_t *h = q->mmio;
    put32(h + MX_MMIO_HDR_MAGIC, MX_MMIO_MAGIC);
    put32(h + MX_MMIO_HDR_VERSION, MX_MMIO_VERSION);
    put32(h + MX_MMIO_HDR_PART, part);
    put32(h + MX_MMIO_HDR_ROWS, q->rows);
    put32(h + MX_MMIO_HDR_RBUFS, m->nrbuf);
    put32(h + MX_MMIO_HDR_WBUFS, m->nwbuf);
    put32(h + MX_MMIO_HDR_WST_OFF, MX_MMIO_ROW(0));
    put32(h + MX_MMIO_HDR_RBUF_OFF, (uint32_t)MX_MMIO_RBUF_OFF((size_t)q->rows));
    put32(h + MX_MMIO_HDR_WBUF_OFF, (uint32_t)MX_MMIO_WBUF_OFF((size_t)q->rows, m->nrbuf));
    put32(h + MX_MMIO_HDR_BYTES, (uint32_t)q->mmio_bytes);
    return 0;
}

static void qu_fini(struct qu *q)
{
    free(q->warp_free);
    free(q->queued);
    free(q->rbuf_free);
    free(q->wbuf_free);
    free(q->mmio);
}

int morpheus_create(const struct mx_memsys_config *c, struct morpheus **out, char *err, size_t errlen)
{
    *out = NULL;
    struct morpheus *m = calloc(1, sizeof *m);
    if (!m)
        return snprintf(err, errlen, "memsys: out of memory for the Morpheus controller"), MX_ENOMEM;
    m->llc_sets = c->llc_sets ? c->llc_sets : 1;
    m->lw = 1;
    m->parts = c->llc_partitions ? c->llc_partitions : 1;
    if (c->xllc == MX_XLLC_OFF || !c->cache_sms) {
        *out = m;                /* every line stays in the conventional LLC */
        return MX_OK;
    }
    int rc = check(c, err, errlen);
    if (rc != MX_OK) {
        free(m);
        return rc;
    }
    m->on = 1;
    m->helper = c->xllc == MX_XLLC_HELPER;
    uint32_t ways = geometry(c, &m->sets_per_sm);
    uint32_t gcd = c->llc_ways ? c->llc_ways : 1, r = ways;
    while (r) {
        uint32_t t = gcd % r;
        gcd = r, r = t;
    }
    m->lw = (c->llc_ways ? c->llc_ways : 1) / gcd;
    m->xw = ways / gcd;
    uint32_t total = c->cache_sms * m->sets_per_sm;
    m->xbase = total / m->parts;
    m->xrem = total % m->parts;
    m->first_cache_sm = c->num_sms - c->cache_sms;
    m->full_sectors = (1u << (c->llc_line / c->llc_sector)) - 1;
    m->channels = c->dram_channels;
    m->predictor = c->predictor;
    m->compress = c->compress;
    m->qlen = c->qu_queue;
    /* the paper gives only the buffers' total (§7.5, overhead analysis): split evenly, the odd entry to reads */
    uint32_t entries = c->qu_buffer_bytes / MX_MMIO_BUF_SIZE;
    m->nwbuf = entries / 2;
    m->nrbuf = entries - m->nwbuf;
    m->service = c->qu_service ? c->qu_service : MORPHEUS_SERVICE_CYCLES;
    int fail = xllc_init(&m->x, total, ways, c->compress == MX_COMP_BDI);
    m->x.epoch = c->bdi_epoch ? c->bdi_epoch : XLLC_EPOCH;
    m->qu = calloc(m->parts, sizeof *m->qu);
    fail |= !m->qu;
    for (uint32_t p = 0; !fail && p < m->parts; p++)
        fail |= qu_init(m, &m->qu[p], p);
    if (!fail && c->predictor == MX_PRED_BLOOM) {
        bloom_h3_init(&m->h3, c->bloom_k, 0x4d6f727068657573ull);
        m->bp = calloc(total, sizeof *m->bp);
        fail |= !m->bp;
        if (c->compress == MX_COMP_BDI) {
            m->mixed = calloc(total, 1);
            fail |= !m->mixed;
        }
        for (uint32_t g = 0; !fail && g < total; g++)
            bloom_pred_init(&m->bp[g], m->x.ways); /* (compressed: the split's capacity, at each access) */
    }
    if (fail) {
        morpheus_destroy(m);
        return snprintf(err, errlen, "memsys.xllc: out of memory for %u extended-LLC sets", total), MX_ENOMEM;
    }
    *out = m;
    return MX_OK;
}

void morpheus_destroy(struct morpheus *m)
{
    if (!m)
        return;
    if (m->qu)
        for (uint32_t p = 0; p < m->parts; p++)
            qu_fini(&m->qu[p]);
    free(m->qu);
    free(m->bp);
    free(m->holes);
    free(m->mixed);
    xllc_fini(&m->x);
    free(m);
}

/* Seeds set g's BF2 (both: and BF1) with every block it holds, and forgets
 * its hole once it is full again (bloom.h, bloom_pred_seed). */
static void seed(struct morpheus *m, uint32_t g, int both)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->x.max_blocks; i++) {
        const struct xllc_blk *b = &m->x.blk[(size_t)g * m->x.max_blocks + i];
        if (b->segs) {
            bloom_pred_seed(&m->bp[g], &m->h3, b->tag, both);
            n += b->segs;
        }
    }
    if (m->holes && n == m->x.ways * (XLLC_BLOCK / XLLC_SEG))
        m->holes[g] = 0;
}

/* Address separation (§4.1.1): the address space is divided in proportion
 * to the two capacities.  Within a partition the line numbers are dealt over
 * periods of P = cs + xs slots, cs = llc_sets x lw and xs = X x xw, lw : xw
 * being the ratio of the two sets' ways (16 : 64 = 1 : 4), so that every
 * set, of 16 ways or of 64, caches a share of the lines in proportion to its
 * ways.  The conventional slots are spread evenly over the period (slot s is
 * the c-th conventional one when floor(s cs / P) = c steps to c + 1 at s +
 * 1), so even a small footprint sees both LLCs in that proportion: a
 * conventional slot goes to set c mod llc_sets, an extended one to row
 * (s - c) mod X.  1 and *row for an extended line, else 0 and *llc_set (lp
 * mod llc_sets when Morpheus is off). */
static int separate(const struct morpheus *m, uint32_t part, uint64_t lp, uint32_t *llc_set, uint32_t *row)
{
    uint64_t x = xsets(m, part), cs = (uint64_t)m->llc_sets * m->lw, period = cs + x * m->xw;
    uint64_t slot = lp % period, c = slot * cs / period;
    if ((slot + 1) * cs / period > c) {
        if (llc_set)
            *llc_set = (uint32_t)(c % m->llc_sets);
        return 0;
    }
    if (row)
        *row = (uint32_t)((slot - c) % x);
    return 1;
}

int morpheus_route(const struct morpheus *m, uint32_t part, uint64_t lp, uint32_t *llc_set)
{
    return separate(m, part, lp, llc_set, NULL);
}

uint32_t morpheus_xsets(const struct morpheus *m, uint32_t part) { return part < m->parts ? xsets(m, part) : 0; }

/* The inverse of separate(): row r's extended slots in a period are the e-th ones for e = r + X i (i < xw); the
 * e-th extended slot s has s - floor(s cs / P) = e and is not conventional: the least s with floor((s + 1) cs / P)
 * <= s - e, i.e. s = e + c where c = floor((e + c) cs / P), found from c = ceil(e cs / xs) down. */
uint64_t morpheus_xline(const struct morpheus *m, uint32_t part, uint32_t row, uint64_t from, uint64_t k)
{
    uint64_t x = part < m->parts ? xsets(m, part) : 0;
    if (!m->on || row >= x)
        return 0;
    uint64_t cs = (uint64_t)m->llc_sets * m->lw, xs = x * m->xw, period = cs + xs;
    uint64_t e = row + x * (k % m->xw), c = (e * cs + xs - 1) / xs;
    while (c && (e + c) * cs / period < c) /* (at most a step or two) */
        c--;
    while ((e + c + 1) * cs / period > c) /* e + c is conventional: the next one */
        c++;
    return (from / period + 1 + k / m->xw) * period + e + c;
}

int morpheus_owner(const struct morpheus *m, uint32_t part, uint32_t row, uint32_t *sm, uint32_t *warp)
{
    if (part >= m->parts || row >= xsets(m, part))
        return -1;
    uint32_t g = row * m->parts + part;
    *sm = m->first_cache_sm + g / m->sets_per_sm;
    *warp = g % m->sets_per_sm;
    return 0;
}

const uint8_t *morpheus_mmio(const struct morpheus *m, uint32_t part, size_t *bytes)
{
    if (!m->on || part >= m->parts)
        return *bytes = 0, NULL;
    *bytes = m->qu[part].mmio_bytes;
    return m->qu[part].mmio;
}

/* Index of the entry of pool[n] that is free first (lowest on ties). */
static uint32_t first_free(const uint64_t *pool, uint32_t n)
{
    uint32_t b = 0;
    for (uint32_t i = 1; i < n; i++)
        if (pool[i] < pool[b])
            b = i;
    return b;
}

/* Posts a request for `row` arriving at clock t to the query unit: waits
 * for a queue slot if the queue is full, then reserves the row's warp and
 * a read (rd) or write buffer entry.  Writes the row and the entry as the
 * helper would see them; returns the clock the warp finishes. */
static uint64_t qu_post(struct morpheus *m, struct qu *q, uint64_t clock, uint32_t row, int rd, uint64_t tag,
                        uint32_t origin, uint32_t op, uint32_t sectors, const uint8_t *data, int hit)
{
    uint64_t t = clock > q->now ? clock : q->now; /* behind an earlier request that waited */
    int waited = 0;
    for (;;) {
        /* requests whose start has come have left the queue */
        uint32_t n = 0;
        uint64_t first = UINT64_MAX;
        for (uint32_t i = 0; i < q->nqueued; i++)
            if (q->queued[i] > t) {
                first = q->queued[i] < first ? q->queued[i] : first;
                q->queued[n++] = q->queued[i];
            }
        q->nqueued = n;
        if (n < m->qlen)
            break;
        waited = 1;              /* back-pressure: wait until the first one starts */
        t = first;
    }
    uint64_t *pool = rd ? q->rbuf_free : q->wbuf_free;
    uint32_t b = first_free(pool, rd ? m->nrbuf : m->nwbuf);
    uint64_t start = t > q->warp_free[row] ? t : q->warp_free[row];
    if (pool[b] > start) {
        start = pool[b];
        waited = 1;              /* every buffer entry of its kind was taken */
    }
    uint64_t end = start + m->service;
    q->warp_free[row] = end;
    pool[b] = end;
    if (start > t)
        q->queued[q->nqueued++] = start;
    q->now = t;
    m->qu_full += waited;
    m->xx.qu_wait_cycles += start - clock;

    if (m->helper)
        return end;              /* the helper-mode controller writes the region (memsys/helper.c) */
    /* the row and buffer after the helper answered (the native model
     * answers at once; BUSY was set at the post and is clear again) */
    uint32_t buf = rd ? (uint32_t)MX_MMIO_RBUF((size_t)q->rows, b) : (uint32_t)MX_MMIO_WBUF((size_t)q->rows, m->nrbuf, b);
    uint8_t *r = q->mmio + MX_MMIO_ROW((size_t)row);
    put64(r + MX_MMIO_ROW_TAG, tag);
    put32(r + MX_MMIO_ROW_ORIGIN, origin);
    put32(r + MX_MMIO_ROW_OP, op);
    uint32_t seq = (uint32_t)r[MX_MMIO_ROW_SEQ] | (uint32_t)r[MX_MMIO_ROW_SEQ + 1] << 8 |
                   (uint32_t)r[MX_MMIO_ROW_SEQ + 2] << 16 | (uint32_t)r[MX_MMIO_ROW_SEQ + 3] << 24;
    put32(r + MX_MMIO_ROW_SEQ, seq + 1);
    put32(r + MX_MMIO_ROW_BUF, buf);
    put32(r + MX_MMIO_ROW_SECTORS, sectors);
    put32(r + MX_MMIO_ROW_STATUS, MX_MMIO_ST_DONE | (hit ? MX_MMIO_ST_HIT : 0));
    if (data)
        memcpy(q->mmio + buf, data, MX_MMIO_BUF_SIZE);
    return end;
}

void morpheus_access(struct morpheus *m, uint32_t part, uint64_t lp, uint64_t line, uint32_t sectors, int op,
                     uint64_t clock, const struct mx_memview *mem, struct morpheus_result *r)
{
    morpheus_access_sm(m, part, lp, line, sectors, op, clock, MORPHEUS_ORIGIN_UNKNOWN, mem, r);
}

/* The hit/miss predictor's answer for block `tag` of set g (§4.1.2; present: the set holds it), recording nothing. */
static int predict(const struct morpheus *m, uint32_t g, uint64_t tag, int present)
{
    return m->predictor == MX_PRED_NONE ? 1
         : m->predictor == MX_PRED_PERFECT ? present
         : bloom_pred_query(&m->bp[g], &m->h3, tag);
}

void morpheus_access_sm(struct morpheus *m, uint32_t part, uint64_t lp, uint64_t line, uint32_t sectors, int op,
                        uint64_t clock, uint32_t sm, const struct mx_memview *mem, struct morpheus_result *r)
{
    *r = (struct morpheus_result){ .served = MX_LV_DRAM, .done = clock };
    uint32_t row;
    if (!m->on || !separate(m, part, lp, NULL, &row))
        return;                  /* not the extended LLC's line: nothing to do (memsys.c routes first) */
    struct qu *q = &m->qu[part];
    uint32_t g = row * m->parts + part;
    uint64_t tag = line / XLLC_BLOCK;
    /* compressed: a new epoch of the set re-splits its registers first (docs/xllc-bdi.md) */
    struct xllc_out ep;
    xllc_epoch(&m->x, g, clock, &ep);
    r->new_epoch = ep.new_epoch;
    if (ep.split_drops) {
        m->xs.evictions += ep.split_drops;
        m->xs.writebacks += ep.split_wb;
        m->xx.split_drops += ep.split_drops;
        r->split_drops = ep.split_drops;
        r->split_wb = ep.split_wb;
    }
    int at = xllc_find(&m->x, g, tag), present = at >= 0;

    /* hit/miss prediction (§4.1.2), scored against the set's real contents */
    int pred = predict(m, g, tag, present);
    r->predicted_hit = (uint8_t)pred;
    r->hit = (uint8_t)present;
    m->tp += pred && present;
    m->fp += pred && !present;
    m->tn += !pred && !present;
    m->fn += !pred && present;
#ifndef NDEBUG
    if (!pred && present) {
        fprintf(stderr, "morpheus: internal error: hit/miss predictor false negative (partition %u, set %u, line 0x%llx)\n",
                part, row, (unsigned long long)line);
        abort();
    }
#endif

    /* what the set does: loads fill on a miss, stores and atomics allocate
     * and dirty the block; inserted and written blocks get a BDI level */
    int write = op != MX_MOP_LD;
    int full = (sectors & m->full_sectors) == m->full_sectors;
    uint8_t bytes[XLLC_BLOCK];
    /* the block's bytes: its BDI level, and the data buffer's contents */
    int have = mem && mem->read && mem->read(mem->ctx, line, bytes, XLLC_BLOCK) == 0;
    /* its BDI level: uncompressed without BDI or without its bytes */
    unsigned level = m->compress == MX_COMP_BDI && have ? bdi_xllc_segs(bytes) : 4, segs = 0;
    if (!present || write) {
        /* an atomic's block stays uncompressed: each lane's atomic rewrites it (docs/xllc-bdi.md) */
        segs = op == MX_MOP_ATOM ? 4 : level;
        m->xx.level[segs == 1 ? 0 : segs == 2 ? 1 : 2]++;
    } else if (m->compress == MX_COMP_BDI) {
        /* a read hit: the epoch counts the held block's level too, so that the split follows the blocks the
           set serves, not only the few it places (docs/xllc-bdi.md) */
        xllc_asked(&m->x, g, level);
    }
    struct xllc_out ev;
    xllc_apply(&m->x, g, at, tag, segs, write, &ev);
    r->set = g;
    r->way = ev.idx;
    r->victim = ev.victim;
    r->victim_tag = ev.victim_tag;
    r->victim_wb = ev.victim_dirty;
    if (m->predictor == MX_PRED_BLOOM) {
        uint32_t swaps = m->bp[g].swaps;
        /* a compressed set swaps after as many distinct blocks as it can hold under its split now, not the
           most it could ever hold (4x its ways kept 4x the history: stencil's sets made 2.5x the false
           positives), and notes whether its split had compressed registers since the last swap (below) */
        uint32_t cap = xllc_capacity(&m->x, g);
        if (m->mixed) {
            m->bp[g].assoc = cap;
            m->mixed[g] |= cap != m->x.ways || ep.split_drops;
        }
        bloom_pred_access(&m->bp[g], &m->h3, tag);
        m->xx.bloom_swaps += m->bp[g].swaps - swaps;
        /* BF2 must hold every block of the set when it is swapped in.  A set with a hole seeds it with its
         * blocks.  So does a compressed set whose split had compressed registers since its last swap (or a
         * re-split dropped blocks): its blocks are placed by level, not set-wide LRU, so one may outlive the
         * last `assoc` distinct accesses; it seeds BF1 too, which was BF2 until now.  A set uncompressed
         * for a whole period is LRU over its ways again: `assoc` distinct accesses hold all its blocks. */
        if (m->bp[g].swaps != swaps) {
            if (m->mixed && m->mixed[g])
                seed(m, g, 1);
            else if (m->holes && m->holes[g])
                seed(m, g, 0);
            if (m->mixed)
                m->mixed[g] = cap != m->x.ways;
        }
    }
    /* a miss reads the whole block from DRAM (the set keeps no sector
     * bits), unless a store writes all of it; victims go back whole */
    if (!present && !(op == MX_MOP_ST && full))
        r->dram_read_bytes = XLLC_BLOCK;
    r->dram_write_bytes = (ev.dirty_evicted + ep.split_wb) * XLLC_BLOCK;
    r->dram_channel = part % m->channels;
    m->xs.accesses++;
    m->xs.hits += present;
    m->xs.misses += !present;
    m->xs.evictions += ev.evicted;
    m->xs.writebacks += ev.dirty_evicted;

    /* the query unit: every request occupies its set's warp; a load the
     * predictor sent to DRAM is answered from there and its block handed
     * to the warp as a fill */
    if (op == MX_MOP_LD && !pred) {
        m->xx.fills++;
        qu_post(m, q, clock, row, 0, tag, sm, MX_MMIO_OP_FILL, m->full_sectors, have ? bytes : NULL, 0);
        r->served = MX_LV_DRAM;
        return;
    }
    int rd = op == MX_MOP_LD || op == MX_MOP_ATOM;
    r->done = qu_post(m, q, clock, row, rd, tag, sm, (uint32_t)op, sectors, have ? bytes : NULL, present);
    /* a false positive, or a store of part of the block or an atomic it did not hold: there, and DRAM's block */
    r->served = !present && !(op == MX_MOP_ST && full) ? MX_LV_XLLC_DRAM : MX_LV_XLLC;
}

void morpheus_stats(const struct morpheus *m, struct mx_memsys_stats *s)
{
    s->xllc.accesses += m->xs.accesses;
    s->xllc.hits += m->xs.hits;
    s->xllc.misses += m->xs.misses;
    s->xllc.evictions += m->xs.evictions;
    s->xllc.writebacks += m->xs.writebacks;
    s->pred_true_pos += m->tp;
    s->pred_false_pos += m->fp;
    s->pred_true_neg += m->tn;
    s->pred_false_neg += m->fn;
    s->qu_full += m->qu_full;
    for (int i = 0; i < 3; i++)
        s->bdi_blocks[i] += m->xx.level[i];
    s->bdi_split_drops += m->xx.split_drops;
}

void morpheus_inherit(struct morpheus *m, const struct morpheus *old)
{
    m->xs = old->xs;
    m->tp = old->tp;
    m->fp = old->fp;
    m->tn = old->tn;
    m->fn = old->fn;
    m->qu_full = old->qu_full;
    m->xx = old->xx;
}

void morpheus_xstats(const struct morpheus *m, struct morpheus_xstats *x) { *x = m->xx; }

uint32_t morpheus_sets_per_sm(const struct morpheus *m) { return m->on ? m->sets_per_sm : 0; }

uint32_t morpheus_flush_set(struct morpheus *m, uint32_t g)
{
    if (!m->on || g >= m->x.sets)
        return 0;
    uint32_t n = xllc_flush(&m->x, g);
    m->xs.writebacks += n;
    return n;
}

uint32_t morpheus_flush_all(struct morpheus *m, void (*wb)(void *ctx, uint64_t line), void *ctx)
{
    uint32_t n = 0;
    for (size_t i = 0; m->on && i < (size_t)m->x.sets * m->x.max_blocks; i++) {
        struct xllc_blk *b = &m->x.blk[i];
        if (b->segs && b->dirty) {
            wb(ctx, b->tag * XLLC_BLOCK);
            n++;
        }
        *b = (struct xllc_blk){ 0 };
    }
    m->xs.writebacks += n;
    return n;
}

int morpheus_drop(struct morpheus *m, uint32_t g, uint64_t tag, int *wb)
{
    *wb = 0;
    if (!m->on || g >= m->x.sets)
        return -1;
    int i = xllc_drop(&m->x, g, tag, wb);
    m->xs.writebacks += (uint64_t)*wb;
    if (i >= 0 && m->predictor == MX_PRED_BLOOM) {
        /* a hole: the set may now keep blocks older than BF2's window (bloom.h) */
        if (!m->holes && !(m->holes = calloc(m->x.sets, 1)))
            return i; /* (out of memory: the debug build's false-negative check would say so) */
        m->holes[g] = 1;
        seed(m, g, m->mixed != NULL);
    }
    return i;
}

int morpheus_block(const struct morpheus *m, uint32_t g, uint32_t i, uint64_t *tag)
{
    return m->on && g < m->x.sets && i < m->x.max_blocks && xllc_block(&m->x, g, i, tag);
}

int morpheus_holds(const struct morpheus *m, uint32_t part, uint64_t lp, uint64_t line, uint32_t *set)
{
    uint32_t row;
    if (!m->on || !separate(m, part, lp, NULL, &row))
        return 0;
    *set = row * m->parts + part;
    return xllc_find(&m->x, *set, line / XLLC_BLOCK) >= 0;
}

int morpheus_predicts(const struct morpheus *m, uint32_t g, uint64_t line)
{
    if (!m->on || g >= m->x.sets)
        return 0;
    uint64_t tag = line / XLLC_BLOCK;
    return predict(m, g, tag, xllc_find(&m->x, g, tag) >= 0);
}

uint32_t morpheus_dirty(const struct morpheus *m, uint32_t g)
{
    uint32_t n = 0;
    for (uint32_t i = 0; m->on && g < m->x.sets && i < m->x.max_blocks; i++) {
        const struct xllc_blk *b = &m->x.blk[(size_t)g * m->x.max_blocks + i];
        n += b->segs && b->dirty;
    }
    return n;
}

uint32_t morpheus_sets(const struct morpheus *m, uint32_t *blocks)
{
    *blocks = m->on ? m->x.max_blocks : 0;
    return m->on ? m->x.sets : 0;
}

uint8_t *morpheus_mmio_rw(struct morpheus *m, uint32_t part, size_t *bytes)
{
    if (!m->on || part >= m->parts)
        return *bytes = 0, NULL;
    *bytes = m->qu[part].mmio_bytes;
    return m->qu[part].mmio;
}

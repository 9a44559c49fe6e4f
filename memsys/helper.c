/* memsys/helper.c — the controller's side of --xllc helper (helper.h).
 * One request at a time per set, as the query unit posts it: the row's
 * fields and its buffer entry are written, the status word set to BUSY (the
 * doorbell), the set's helper warp runs until it parks again, and the
 * answer is read back from the row (DONE, HIT, way, victim) and, for a
 * load, from the read buffer entry.  docs/xllc-helper.md is the long form. */
#include "memsys/helper.h"
#include "mx/morpheus_mmio.h"
#include "mx/status.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLK 128

/* The shadow of the oracle: what each line the extended LLC touched since
 * the last drain must hold (an open-addressing table of lines). */
struct shadow {
    uint64_t *key;               /* line address + 1; 0: empty slot */
    uint8_t *data;               /* cap x 128 bytes */
    uint32_t cap, n;
};

/* A block the sets kept over an idle device, and a hash of its line's
 * bytes then: the host may have written the line before the next use. */
struct kept {
    uint64_t line, hash;
    uint32_t set;
};

struct xhelper {
    struct morpheus *mp;
    uint32_t parts, check;
    uint32_t bdi;                /* --compress bdi: the shadow is kept for the native model's levels too */
    uint32_t slots;              /* slots of a set: the answer's way is below */
    struct mx_xllc_port port;
    int attached;
    struct shadow sh;
    uint64_t served;
    uint64_t events;             /* accesses posted (the index a divergence report gives) */
    struct kept *kept;           /* since the last drain, to check before the next access */
    uint32_t nkept, kept_cap;
    uint64_t dropped;            /* blocks dropped because the host wrote their line */
};

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }
static void wr32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}
static void wr64(uint8_t *p, uint64_t v)
{
    wr32(p, (uint32_t)v);
    wr32(p + 4, (uint32_t)(v >> 32));
}

int xh_create(const struct mx_memsys_config *c, struct morpheus *mp, struct xhelper **out)
{
    struct xhelper *h = calloc(1, sizeof *h);
    if (!h)
        return MX_ENOMEM;
    h->mp = mp;
    h->parts = c->llc_partitions;
    h->check = c->xllc_check;
    h->bdi = c->compress == MX_COMP_BDI;
    morpheus_sets(mp, &h->slots);
    *out = h;
    return MX_OK;
}

void xh_destroy(struct xhelper *h)
{
    if (!h)
        return;
    free(h->sh.key);
    free(h->sh.data);
    free(h->kept);
    free(h);
}

void xh_attach(struct xhelper *h, const struct mx_xllc_port *p)
{
    h->port = *p;
    h->attached = 1;
}

uint64_t xh_served(const struct xhelper *h) { return h->served; }

/* ---------------------------------------------------------------- shadow */

static uint32_t sh_slot(const struct shadow *s, uint64_t line)
{
    uint64_t k = (line >> 7) * 0x9e3779b97f4a7c15ull;
    uint32_t i = (uint32_t)(k >> 32) & (s->cap - 1);
    while (s->key[i] && s->key[i] != line + 1)
        i = (i + 1) & (s->cap - 1);
    return i;
}

/* The shadow bytes of line, NULL if it has none. */
static uint8_t *sh_find(struct shadow *s, uint64_t line)
{
    if (!s->n)
        return NULL;
    uint32_t i = sh_slot(s, line);
    return s->key[i] ? s->data + (size_t)i * BLK : NULL;
}

/* The shadow bytes of line, made from device memory (what the line holds
 * while no set holds it) at its first touch; NULL when out of memory. */
static uint8_t *sh_get(struct shadow *s, uint64_t line, const struct mx_memview *mem)
{
    uint8_t *p = sh_find(s, line);
    if (p)
        return p;
    if (2 * (s->n + 1) > s->cap) {
        struct shadow t = { 0 };
        t.cap = s->cap ? 2 * s->cap : 1024;
        t.key = calloc(t.cap, sizeof *t.key);
        t.data = malloc((size_t)t.cap * BLK);
        if (!t.key || !t.data) {
            free(t.key);
            free(t.data);
            return NULL;
        }
        for (uint32_t i = 0; i < s->cap; i++)
            if (s->key[i]) {
                uint32_t j = sh_slot(&t, s->key[i] - 1);
                t.key[j] = s->key[i];
                memcpy(t.data + (size_t)j * BLK, s->data + (size_t)i * BLK, BLK);
            }
        t.n = s->n;
        free(s->key);
        free(s->data);
        *s = t;
    }
    uint32_t i = sh_slot(s, line);
    s->key[i] = line + 1;
    s->n++;
    p = s->data + (size_t)i * BLK;
    if (mem->read(mem->ctx, line, p, BLK))
        memset(p, 0, BLK);
    return p;
}

/* Memory as the native model must see it to choose a block's BDI level:
 * the shadow's bytes of a line the extended LLC touched (device memory is
 * DRAM, stale while a set holds the line dirty), device memory otherwise. */
struct shview {
    struct xhelper *h;
    const struct mx_memview *mem;
};

static int sh_read(void *ctx, uint64_t addr, void *dst, uint32_t n)
{
    struct shview *v = ctx;
    uint8_t *p = n == BLK && addr % BLK == 0 ? sh_find(&v->h->sh, addr) : NULL;
    if (!p)
        return v->mem->read(v->mem->ctx, addr, dst, n);
    memcpy(dst, p, BLK);
    return 0;
}

/* The native model's access, on the shadow's bytes when there is one. */
static void native(struct xhelper *h, uint32_t part, uint64_t lp, uint64_t line, uint32_t sectors, int op,
                   uint64_t clock, uint32_t sm, const struct mx_memview *mem, struct morpheus_result *res)
{
    struct shview v = { h, mem };
    struct mx_memview sv = { .ctx = &v, .read = sh_read };
    morpheus_access_sm(h->mp, part, lp, line, sectors, op, clock, sm, h->check || h->bdi ? &sv : mem, res);
}

/* ------------------------------------------------------------- one post */

/* What the helper answered. */
struct answer {
    uint32_t status, way, vflags;
    uint64_t vtag;
};

/* The row and region of GPU-wide set g. */
static uint8_t *region(struct xhelper *h, uint32_t g, uint8_t **row)
{
    size_t bytes;
    uint8_t *io = morpheus_mmio_rw(h->mp, g % h->parts, &bytes);
    *row = io ? io + MX_MMIO_ROW((size_t)(g / h->parts)) : NULL;
    return io;
}

static void who(struct xhelper *h, uint32_t g, uint32_t sm, uint32_t warp, char *buf, size_t n)
{
    snprintf(buf, n, "helper warp %u of cache-mode SM %u serves extended-LLC set %u (partition %u, row %u)", warp, sm,
             g, g % h->parts, g / h->parts);
}

/* Posts op for `line` to set g's row (data: the write buffer's bytes for
 * ST and FILL; wmask: a store's bytes), runs the set's warp, reads the
 * answer and, for LD, the block into out.  0, or -1 with err. */
static int post(struct xhelper *h, uint32_t g, uint32_t op, uint64_t line, uint32_t origin, uint32_t sectors,
                const uint8_t *data, const uint32_t *wmask, uint8_t *out, struct answer *a, char *err, size_t errlen)
{
    uint8_t *row, *io = region(h, g, &row);
    uint32_t sm, warp;
    char w[160];
    if (!h->attached || !io || morpheus_owner(h->mp, g % h->parts, g / h->parts, &sm, &warp)) {
        snprintf(err, errlen, "extended LLC (helper): no helper kernel serves set %u", g);
        return -1;
    }
    who(h, g, sm, warp, w, sizeof w);
    uint32_t rows = rd32(io + MX_MMIO_HDR_ROWS), nr = rd32(io + MX_MMIO_HDR_RBUFS);
    uint32_t o = op & MX_MMIO_OP_MASK; /* (op may carry MX_MMIO_OP_EPOCH) */
    uint32_t buf = o == MX_MOP_LD ? (uint32_t)MX_MMIO_RBUF((size_t)rows, 0) : (uint32_t)MX_MMIO_WBUF((size_t)rows, nr, 0);
    wr64(row + MX_MMIO_ROW_TAG, line / BLK);
    wr32(row + MX_MMIO_ROW_ORIGIN, origin);
    wr32(row + MX_MMIO_ROW_OP, op);
    wr32(row + MX_MMIO_ROW_SEQ, rd32(row + MX_MMIO_ROW_SEQ) + 1);
    wr32(row + MX_MMIO_ROW_BUF, buf);
    wr32(row + MX_MMIO_ROW_SECTORS, sectors);
    for (int i = 0; i < 4; i++)
        wr32(row + MX_MMIO_ROW_WMASK + 4 * i, wmask ? wmask[i] : 0);
    memset(row + MX_MMIO_ROW_WAY, 0, MX_MMIO_ROW_SIZE - MX_MMIO_ROW_WAY);
    if (data)
        memcpy(io + buf, data, BLK);
    wr32(row + MX_MMIO_ROW_STATUS, MX_MMIO_ST_BUSY); /* the doorbell */
    h->events++;
    int timed = o != MX_MMIO_OP_FLUSH && o != MX_MMIO_OP_INV && o != MX_MMIO_OP_PEEK;
    if (h->port.serve(h->port.ctx, sm, warp, timed, w)) {
        snprintf(err, errlen, "extended LLC (helper): the %s faulted", w);
        return -1;
    }
    h->served++;
    if (rd64(row + MX_MMIO_ROW_TAG) != line / BLK || rd32(row + MX_MMIO_ROW_OP) != op ||
        rd32(row + MX_MMIO_ROW_BUF) != buf) {
        snprintf(err, errlen, "extended LLC (helper): the %s changed the request in its row (it must only answer: "
                 "tag 0x%llx, op %u, buffer %u became 0x%llx, %u, %u)", w, (unsigned long long)(line / BLK), op, buf,
                 (unsigned long long)rd64(row + MX_MMIO_ROW_TAG), rd32(row + MX_MMIO_ROW_OP), rd32(row + MX_MMIO_ROW_BUF));
        return -1;
    }
    a->status = rd32(row + MX_MMIO_ROW_STATUS);
    a->way = rd32(row + MX_MMIO_ROW_WAY);
    a->vflags = rd32(row + MX_MMIO_ROW_VFLAGS);
    a->vtag = rd64(row + MX_MMIO_ROW_VTAG);
    if ((a->status & ~MX_MMIO_ST_HIT) != MX_MMIO_ST_DONE || (o != MX_MMIO_OP_FLUSH && a->way >= h->slots)) {
        snprintf(err, errlen, "extended LLC (helper): the %s parked without a valid answer to request %" PRIu64
                 " (status 0x%x, way %u)", w, h->events, a->status, a->way);
        return -1;
    }
    if (out)
        memcpy(out, io + buf, BLK);
    return 0;
}

/* The answer against the native model's decision (check on). */
static int same(struct xhelper *h, const struct answer *a, const struct morpheus_result *r, int op, uint64_t line,
                char *err, size_t errlen)
{
    int hit = !!(a->status & MX_MMIO_ST_HIT), vv = !!(a->vflags & MX_MMIO_V_VALID), wb = !!(a->vflags & MX_MMIO_V_WB);
    int nv = r->victim >= 0;
    uint32_t swb = MX_MMIO_V_SPLIT_WB(a->vflags), sdr = MX_MMIO_V_SPLIT_DROPS(a->vflags);
    if (hit == r->hit && (int)a->way == r->way && vv == nv && (!nv || (a->vtag == r->victim_tag && wb == r->victim_wb)) &&
        swb == r->split_wb && sdr == r->split_drops)
        return 0;
    static const char *const opn[] = { "LD", "ST", "ATOM", "RED", "FILL" };
    if (swb != r->split_wb || sdr != r->split_drops) {
        snprintf(err, errlen,
                 "xllc-check: the helper kernel and the native model differ at request %" PRIu64 " (%s line 0x%" PRIx64
                 ", extended-LLC set %u): the BDI re-split before it dropped %u blocks (%u written back) in the helper, "
                 "%u (%u) in the native model", h->events, opn[op < 5 ? op : 0], line, r->set, sdr, swb, r->split_drops,
                 r->split_wb);
        return -1;
    }
    char hv[64] = "no victim", nvs[64] = "no victim";
    if (vv)
        snprintf(hv, sizeof hv, "%s victim 0x%" PRIx64, wb ? "written-back" : "clean", a->vtag * BLK);
    if (nv)
        snprintf(nvs, sizeof nvs, "%s victim 0x%" PRIx64, r->victim_wb ? "written-back" : "clean", r->victim_tag * BLK);
    snprintf(err, errlen,
             "xllc-check: the helper kernel and the native model differ at request %" PRIu64 " (%s line 0x%" PRIx64
             ", extended-LLC set %u): helper %s way %u, %s; native %s way %d, %s",
             h->events, opn[op < 5 ? op : 0], line, r->set, hit ? "hit" : "miss", a->way, hv, r->hit ? "hit" : "miss",
             r->way, nvs);
    return -1;
}

/* The first byte where got differs from want, as a report (check on). */
static int diff(const char *what, uint64_t line, uint32_t g, uint32_t way, const uint8_t *want, const uint8_t *got,
                struct xhelper *h, char *err, size_t errlen)
{
    for (int i = 0; i < BLK; i++)
        if (want[i] != got[i]) {
            uint32_t sm = 0, warp = 0;
            if (g == UINT32_MAX) {
                snprintf(err, errlen, "xllc-check: %s differs at address 0x%" PRIx64 ": expected 0x%02x, found 0x%02x",
                         what, line + (uint64_t)i, want[i], got[i]);
                return -1;
            }
            morpheus_owner(h->mp, g % h->parts, g / h->parts, &sm, &warp);
            snprintf(err, errlen,
                     "xllc-check: %s differs: SM %u, set %u (partition %u, row %u), way %u, address 0x%" PRIx64
                     ": expected 0x%02x, found 0x%02x", what, sm, g, g % h->parts, g / h->parts, way, line + (uint64_t)i,
                     want[i], got[i]);
            return -1;
        }
    return 0;
}

/* After a post: a victim written back must be in device memory as the
 * shadow says (check on). */
static int check_wb(struct xhelper *h, const struct answer *a, uint32_t g, const struct mx_memview *mem, char *err,
                    size_t errlen)
{
    if (!(a->vflags & MX_MMIO_V_WB))
        return 0;
    uint64_t v = a->vtag * BLK;
    uint8_t *want = sh_find(&h->sh, v), got[BLK];
    if (!want) {
        snprintf(err, errlen, "xllc-check: set %u wrote back line 0x%" PRIx64 ", which it was never given", g, v);
        return -1;
    }
    if (mem->read(mem->ctx, v, got, BLK)) {
        snprintf(err, errlen, "xllc-check: set %u wrote back line 0x%" PRIx64 ", which is not device memory", g, v);
        return -1;
    }
    return diff("a written-back block", v, g, a->way, want, got, h, err, errlen);
}

static int nomem(char *err, size_t errlen)
{
    snprintf(err, errlen, "xllc-check: out of host memory for the shadow copy");
    return -1;
}

static uint64_t line_hash(const uint8_t *p)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < BLK; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        x = (x ^ w) * 0xff51afd7ed558ccdull;
        x ^= x >> 32;
    }
    return x;
}

/* Before the first access after a drain: every kept block whose line the
 * host changed meanwhile is dropped from its set (helper and native). */
static int revalidate(struct xhelper *h, const struct mx_memview *mem, char *err, size_t errlen)
{
    uint32_t n = h->nkept;
    h->nkept = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct kept *k = &h->kept[i];
        uint8_t now[BLK];
        if (!mem->read(mem->ctx, k->line, now, BLK) && line_hash(now) == k->hash)
            continue;
        struct answer a;
        if (post(h, k->set, MX_MMIO_OP_INV, k->line, MORPHEUS_ORIGIN_UNKNOWN, 0, NULL, NULL, NULL, &a, err, errlen))
            return -1;
        int wb, way = morpheus_drop(h->mp, k->set, k->line / BLK, &wb);
        h->dropped++;
        if (h->check && (!(a.status & MX_MMIO_ST_HIT) != (way < 0) || (way >= 0 && (int)a.way != way) ||
                         !!(a.vflags & MX_MMIO_V_WB) != wb)) {
            snprintf(err, errlen, "xllc-check: dropping line 0x%" PRIx64 " (the host wrote it) from extended-LLC set %u: "
                     "helper %s way %u, native %s way %d", k->line, k->set, a.status & MX_MMIO_ST_HIT ? "held it" : "did not hold it",
                     a.way, way >= 0 ? "held it" : "did not hold it", way);
            return -1;
        }
    }
    return 0;
}

int xh_begin(struct xhelper *h, uint32_t part, uint64_t lp, uint64_t line, int op, uint32_t sectors, uint64_t clock,
             uint32_t sm, const struct mx_memview *mem, uint8_t data[128], struct morpheus_result *res, char *err,
             size_t errlen)
{
    if (h->nkept && revalidate(h, mem, err, errlen))
        return -1;
    if (op == MX_MOP_ST)
        return 0; /* a store is one request, made with its bytes (xh_end) */
    uint8_t *shadow = NULL;
    if ((h->check || h->bdi) && !(shadow = sh_get(&h->sh, line, mem)))
        return nomem(err, errlen);
    native(h, part, lp, line, sectors, op, clock, sm, mem, res);
    uint32_t ep = res->new_epoch ? MX_MMIO_OP_EPOCH : 0; /* the set re-splits first (the controller's clock) */
    struct answer a;
    int rc;
    if (op == MX_MOP_LD && !res->predicted_hit) {
        /* a predicted miss: the controller reads DRAM, answers, and hands the block to the set */
        if (mem->read(mem->ctx, line, data, BLK)) {
            snprintf(err, errlen, "extended LLC (helper): line 0x%" PRIx64 " is not device memory", line);
            return -1;
        }
        rc = post(h, res->set, MX_MMIO_OP_FILL | ep, line, sm, sectors, data, NULL, NULL, &a, err, errlen);
    } else {
        /* (compressed, an atomic's block is kept uncompressed: LDA) */
        uint32_t rop = h->bdi && op == MX_MOP_ATOM ? MX_MMIO_OP_LDA : MX_MOP_LD;
        rc = post(h, res->set, rop | ep, line, sm, sectors, NULL, NULL, data, &a, err, errlen);
    }
    if (rc || !h->check)
        return rc;
    if (same(h, &a, res, op == MX_MOP_LD && !res->predicted_hit ? 4 : op, line, err, errlen) ||
        check_wb(h, &a, res->set, mem, err, errlen))
        return -1;
    return diff("the block it returned", line, res->set, a.way, shadow, data, h, err, errlen);
}

int xh_end(struct xhelper *h, uint32_t part, uint64_t lp, uint64_t line, int op, const uint8_t data[128],
           const uint32_t wmask[4], uint64_t clock, uint32_t sm, const struct mx_memview *mem,
           struct morpheus_result *res, char *err, size_t errlen)
{
    if (h->nkept && revalidate(h, mem, err, errlen))
        return -1;
    uint8_t *shadow = NULL;
    if ((h->check || h->bdi) && !(shadow = sh_get(&h->sh, line, mem)))
        return nomem(err, errlen);
    if (shadow) /* the line's bytes now: BDI levels the written block by them */
        for (int b = 0; b < BLK; b++)
            if (wmask[b >> 5] >> (b & 31) & 1)
                shadow[b] = data[b];
    if (op == MX_MOP_ST)
        native(h, part, lp, line, 0xf, op, clock, sm, mem, res);
    struct answer a;
    /* a store is an access (the set's new epoch, if it begins one); an atomic's write half is not */
    uint32_t wop = h->bdi && op != MX_MOP_ST ? MX_MMIO_OP_STA : MX_MOP_ST | (res->new_epoch ? MX_MMIO_OP_EPOCH : 0);
    if (post(h, res->set, wop, line, sm, 0xf, data, wmask, NULL, &a, err, errlen))
        return -1;
    if (!h->check)
        return 0;
    if (op == MX_MOP_ST) {
        if (same(h, &a, res, op, line, err, errlen) || check_wb(h, &a, res->set, mem, err, errlen))
            return -1;
    } else {
        /* the write half of an atomic: the block was just read, it must still be there */
        struct morpheus_result hit = *res;
        hit.hit = 1;
        hit.victim = -1;
        hit.split_drops = hit.split_wb = 0;
        if (same(h, &a, &hit, MX_MOP_ST, line, err, errlen))
            return -1;
    }
    return 0;
}

int xh_peek(struct xhelper *h, uint32_t part, uint64_t lp, uint64_t line, uint32_t sm, const struct mx_memview *mem,
            uint8_t data[128], char *err, size_t errlen)
{
    if (h->nkept && revalidate(h, mem, err, errlen))
        return -1;
    uint32_t g = 0;
    int held = morpheus_holds(h->mp, part, lp, line, &g);
    uint8_t *shadow = NULL;
    if (h->check && !(shadow = sh_get(&h->sh, line, mem)))
        return nomem(err, errlen);
    struct answer a;
    if (post(h, g, MX_MMIO_OP_PEEK, line, sm, 0xf, NULL, NULL, data, &a, err, errlen))
        return -1;
    int hit = !!(a.status & MX_MMIO_ST_HIT);
    if (!hit && mem->read(mem->ctx, line, data, BLK)) {
        snprintf(err, errlen, "extended LLC (helper): line 0x%" PRIx64 " is not device memory", line);
        return -1;
    }
    if (!h->check)
        return 0;
    if (hit != held) {
        snprintf(err, errlen, "xllc-check: for a load its L1 held, extended-LLC set %u says it %s line 0x%" PRIx64
                 ", the native model that it %s", g, hit ? "holds" : "does not hold", line, held ? "does" : "does not");
        return -1;
    }
    return diff("the block an L1 hit read", line, g, a.way, shadow, data, h, err, errlen);
}

int xh_atom(struct xhelper *h, uint64_t line, uint32_t offset, uint32_t code, uint64_t b, uint64_t c, uint32_t sm,
            const struct morpheus_result *res, char *err, size_t errlen)
{
    uint8_t op[BLK] = { 0 };
    for (int i = 0; i < 8; i++) {
        op[MX_MMIO_ATOM_B + i] = (uint8_t)(b >> 8 * i);
        op[MX_MMIO_ATOM_C + i] = (uint8_t)(c >> 8 * i);
    }
    wr32(op + MX_MMIO_ATOM_OFFSET, offset);
    wr32(op + MX_MMIO_ATOM_CODE, code);
    struct answer a;
    if (post(h, res->set, MX_MMIO_OP_ATOM, line, sm, 0xf, op, NULL, NULL, &a, err, errlen))
        return -1;
    struct morpheus_result hit = *res;
    hit.hit = 1;
    hit.victim = -1;
    hit.split_drops = hit.split_wb = 0;
    return h->check ? same(h, &a, &hit, MX_MOP_ATOM, line, err, errlen) : 0;
}

int xh_shadow(struct xhelper *h, uint64_t line, const uint8_t data[128], const uint32_t wmask[4],
              const struct mx_memview *mem, char *err, size_t errlen)
{
    if (!h->check && !h->bdi)
        return 0;
    uint8_t *shadow = sh_get(&h->sh, line, mem);
    if (!shadow)
        return nomem(err, errlen);
    for (int b = 0; b < BLK; b++)
        if (wmask[b >> 5] >> (b & 31) & 1)
            shadow[b] = data[b];
    return 0;
}

int xh_drain(struct xhelper *h, const struct mx_memview *mem, uint64_t *written, char *err, size_t errlen)
{
    *written = 0;
    if (h->nkept && revalidate(h, mem, err, errlen))
        return -1;
    for (uint32_t p = 0; p < h->parts; p++) {
        uint32_t rows = morpheus_xsets(h->mp, p);
        for (uint32_t r = 0; r < rows; r++) {
            uint32_t g = r * h->parts + p;
            struct answer a;
            if (!h->check && !morpheus_dirty(h->mp, g))
                continue; /* nothing to write back (the check asks every set) */
            if (post(h, g, MX_MMIO_OP_FLUSH, 0, MORPHEUS_ORIGIN_UNKNOWN, 0, NULL, NULL, NULL, &a, err, errlen))
                return -1;
            uint32_t native = morpheus_flush_set(h->mp, g);
            *written += native;
            if (h->check && a.way != native) {
                snprintf(err, errlen, "xllc-check: flushing extended-LLC set %u, the helper kernel wrote back %u "
                         "blocks, the native model %u", g, a.way, native);
                return -1;
            }
        }
    }
    /* the blocks stay, clean: note their lines' bytes, the host may write them before the next access */
    uint32_t blocks, sets = morpheus_sets(h->mp, &blocks);
    h->nkept = 0;
    for (uint32_t g = 0; g < sets; g++)
        for (uint32_t i = 0; i < blocks; i++) {
            uint64_t tag;
            uint8_t now[BLK];
            if (!morpheus_block(h->mp, g, i, &tag) || mem->read(mem->ctx, tag * BLK, now, BLK))
                continue;
            if (h->nkept == h->kept_cap) {
                uint32_t cap = h->kept_cap ? 2 * h->kept_cap : 1024;
                struct kept *k = realloc(h->kept, (size_t)cap * sizeof *k);
                if (!k) {
                    snprintf(err, errlen, "extended LLC (helper): out of host memory");
                    return -1;
                }
                h->kept = k;
                h->kept_cap = cap;
            }
            h->kept[h->nkept++] = (struct kept){ tag * BLK, line_hash(now), g };
        }
    /* every line a set held is back in device memory, as the shadow says (check on) */
    for (uint32_t i = 0; h->check && i < h->sh.cap; i++) {
        if (!h->sh.key[i])
            continue;
        uint64_t line = h->sh.key[i] - 1;
        uint8_t got[BLK];
        if (mem->read(mem->ctx, line, got, BLK))
            continue; /* freed since */
        if (diff("device memory after the flush", line, UINT32_MAX, 0, h->sh.data + (size_t)i * BLK, got, h, err, errlen))
            return -1;
    }
    if (h->sh.cap)
        memset(h->sh.key, 0, (size_t)h->sh.cap * sizeof *h->sh.key);
    h->sh.n = 0;
    return 0;
}

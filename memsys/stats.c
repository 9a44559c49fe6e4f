/* memsys/stats.c — arithmetic and JSON on struct mx_memsys_stats (no
 * instance needed): a launch's share of the totals, and the "memsys"
 * object of --stats, whose keys bars and plots read. */
#include "mx/memsys.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

static void sub_cache(struct mx_cache_stats *a, const struct mx_cache_stats *b)
{
    a->accesses -= b->accesses;
    a->hits -= b->hits;
    a->misses -= b->misses;
    a->evictions -= b->evictions;
    a->writebacks -= b->writebacks;
}

void mx_memsys_stats_sub(struct mx_memsys_stats *a, const struct mx_memsys_stats *b)
{
    sub_cache(&a->l1, &b->l1);
    sub_cache(&a->llc, &b->llc);
    sub_cache(&a->xllc, &b->xllc);
    a->pred_true_pos -= b->pred_true_pos;
    a->pred_false_pos -= b->pred_false_pos;
    a->pred_true_neg -= b->pred_true_neg;
    a->pred_false_neg -= b->pred_false_neg;
    a->dram_read_bytes -= b->dram_read_bytes;
    a->dram_write_bytes -= b->dram_write_bytes;
    for (int i = 0; i < MX_MEMSYS_MAX_CHANNELS; i++) {
        a->dram_channel_read[i] -= b->dram_channel_read[i];
        a->dram_channel_write[i] -= b->dram_channel_write[i];
    }
    a->qu_full -= b->qu_full;
    a->helper_requests -= b->helper_requests;
    a->helper_insns -= b->helper_insns;
    for (int i = 0; i < 3; i++)
        a->bdi_blocks[i] -= b->bdi_blocks[i];
    a->bdi_split_drops -= b->bdi_split_drops;
    /* sms_compute, sms_cache, dram_channels describe the machine: a's stay */
}

/* snprintf that appends at *len, counting what did not fit as snprintf does. */
static void put(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(*len < n ? buf + *len : NULL, *len < n ? n - *len : 0, fmt, ap);
    va_end(ap);
    if (k > 0)
        *len += (size_t)k;
}

static void put_cache(char *buf, size_t n, size_t *len, const char *name, const struct mx_cache_stats *c)
{
    put(buf, n, len,
        "\"%s\":{\"accesses\":%" PRIu64 ",\"hits\":%" PRIu64 ",\"misses\":%" PRIu64 ",\"evictions\":%" PRIu64
        ",\"writebacks\":%" PRIu64,
        name, c->accesses, c->hits, c->misses, c->evictions, c->writebacks);
}

int mx_memsys_stats_json(const struct mx_memsys_stats *s, uint64_t warp_insns, char *buf, size_t n)
{
    size_t len = 0;
    if (n)
        buf[0] = 0;
    put(buf, n, &len, "{");
    put_cache(buf, n, &len, "l1", &s->l1);
    put(buf, n, &len, "},");
    put_cache(buf, n, &len, "llc", &s->llc);
    put(buf, n, &len, ",\"mpki\":%.4f},", warp_insns ? (double)s->llc.misses * 1000.0 / (double)warp_insns : 0.0);
    put_cache(buf, n, &len, "xllc", &s->xllc);
    put(buf, n, &len,
        "},\"predictor\":{\"true_pos\":%" PRIu64 ",\"false_pos\":%" PRIu64 ",\"true_neg\":%" PRIu64
        ",\"false_neg\":%" PRIu64 "},",
        s->pred_true_pos, s->pred_false_pos, s->pred_true_neg, s->pred_false_neg);
    put(buf, n, &len, "\"dram\":{\"read_bytes\":%" PRIu64 ",\"write_bytes\":%" PRIu64 ",\"channels\":[",
        s->dram_read_bytes, s->dram_write_bytes);
    uint32_t ch = s->dram_channels <= MX_MEMSYS_MAX_CHANNELS ? s->dram_channels : MX_MEMSYS_MAX_CHANNELS;
    for (uint32_t i = 0; i < ch; i++)
        put(buf, n, &len, "%s{\"read_bytes\":%" PRIu64 ",\"write_bytes\":%" PRIu64 "}", i ? "," : "",
            s->dram_channel_read[i], s->dram_channel_write[i]);
    put(buf, n, &len, "]},\"sms\":{\"compute\":%u,\"cache\":%u},\"query_unit\":{\"full\":%" PRIu64 "},",
        s->sms_compute, s->sms_cache, s->qu_full);
    put(buf, n, &len, "\"helper\":{\"requests\":%" PRIu64 ",\"warp_instructions\":%" PRIu64 "},", s->helper_requests,
        s->helper_insns);
    put(buf, n, &len,
        "\"bdi\":{\"blocks_32\":%" PRIu64 ",\"blocks_64\":%" PRIu64 ",\"blocks_128\":%" PRIu64
        ",\"split_drops\":%" PRIu64 "}}",
        s->bdi_blocks[0], s->bdi_blocks[1], s->bdi_blocks[2], s->bdi_split_drops);
    return (int)len;
}

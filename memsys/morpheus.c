/* memsys/morpheus.c — placeholder until the controller lands: with the
 * extended LLC off (the only setting accepted so far) every line stays in
 * the conventional LLC. */
#include "memsys/morpheus.h"
#include "mx/status.h"

#include <stdio.h>
#include <stdlib.h>

struct morpheus {
    uint32_t llc_sets;
};

int morpheus_create(const struct mx_memsys_config *c, struct morpheus **out, char *err, size_t errlen)
{
    *out = NULL;
    if (c->xllc != MX_XLLC_OFF && c->cache_sms) {
        snprintf(err, errlen, "xllc: the extended LLC is not built yet");
        return MX_EINVAL;
    }
    struct morpheus *m = calloc(1, sizeof *m);
    if (!m)
        return MX_ENOMEM;
    m->llc_sets = c->llc_sets;
    *out = m;
    return MX_OK;
}

void morpheus_destroy(struct morpheus *m) { free(m); }

int morpheus_route(const struct morpheus *m, uint32_t part, uint64_t lp, uint32_t *llc_set)
{
    (void)part;
    *llc_set = (uint32_t)(lp % m->llc_sets);
    return 0;
}

void morpheus_access(struct morpheus *m, uint32_t part, uint64_t lp, uint64_t line, uint32_t sectors, int op,
                     uint64_t clock, const struct mx_memview *mem, struct morpheus_result *r)
{
    (void)m, (void)part, (void)lp, (void)line, (void)sectors, (void)op, (void)clock, (void)mem;
    *r = (struct morpheus_result){ .served = MX_LV_DRAM };
}

void morpheus_stats(const struct morpheus *m, struct mx_memsys_stats *s) { (void)m, (void)s; }

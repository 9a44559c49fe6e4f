/* frontend/msys.c — the memory hierarchy in front of a device (msys.h). */
#include "frontend/msys.h"
#include "mx/status.h"

#include <string.h>

int fe_msys_open(struct fe_msys *f, const struct mx_memsys_config *mc, struct emu_config *ec, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    struct mx_memsys_config c = *mc;
    c.num_sms = ec->num_sms;
    c.cache_sms = ec->cache_sms;
    c.helper_warps = ec->max_warps_per_sm;
    int rc = mx_memsys_config_check(&c, err, errlen);
    if (!rc)
        rc = mx_memsys_create(&c, &f->ms, err, errlen);
    if (rc) {
        f->ms = NULL;
        return rc;
    }
    ec->memif = mx_memsys_memif(f->ms);
    return MX_OK;
}

void fe_msys_close(struct fe_msys *f)
{
    if (f->ms)
        mx_memsys_destroy(f->ms);
    f->ms = NULL;
}

int fe_msys_json(struct fe_msys *f, uint64_t warp_insns, char *buf, size_t n)
{
    if (!f->ms) {
        if (n)
            buf[0] = 0;
        return 0;
    }
    struct mx_memsys_stats now, d;
    mx_memsys_stats(f->ms, &now);
    d = now;
    mx_memsys_stats_sub(&d, &f->last);
    f->last = now;
    return mx_memsys_stats_json(&d, warp_insns, buf, n);
}

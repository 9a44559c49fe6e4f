/* emu/device.c — the emulated GPU's lifetime: configuration defaults,
 * device creation (memory, SMs) and destruction.  Modules and binding are
 * module.c; running grids on the SMs is sched.c. */
#include "emu/emu-internal.h"

#include <stdlib.h>
#include <string.h>


void emu_config_default(struct emu_config *c)
{
    memset(c, 0, sizeof *c);
    c->num_sms = 68;
    c->max_warps_per_sm = 48;
    c->max_threads_per_sm = 1536;
    c->max_ctas_per_sm = 16;
    c->max_threads_per_cta = 1024;
    c->regs_per_sm = 65536;
    c->max_regs_per_thread = 255;
    c->shared_per_sm = 100 * 1024;
    c->shared_per_cta = 99 * 1024;
    c->mem_size = 10ull << 30;
    c->watchdog_insns = 0;
    c->watchdog_seconds = 0;
    c->host_threads = 1;
    c->quantum = 2048; /* the hierarchy's answers within 4 % of those every 512 cycles (docs/timing.md) */
    c->helper_quantum = 32; /* below the extended LLC's trip (timing.level.xllc_trip) */
    c->sched_policy = 0;
    c->local_per_thread = 64 * 1024;
    c->max_call_depth = 64;
    c->cc_major = 8;
    c->cc_minor = 6;
}

int emu_device_create(const struct emu_config *cfg, struct emu_device **out)
{
    *out = NULL;
    if (mx_isa_init() < 0)
        return MX_EINVAL;
    struct emu_device *d = calloc(1, sizeof *d);
    if (!d)
        return MX_ENOMEM;
    d->cfg = *cfg;
    if (!d->cfg.mem_size || d->cfg.mem_size > (1ull << 40) || !d->cfg.num_sms || !d->cfg.max_threads_per_cta ||
        d->cfg.local_per_thread > EMU_LOCAL_MAX || d->cfg.cache_sms >= d->cfg.num_sms) {
        free(d);
        return MX_EINVAL;
    }
    if (!d->cfg.host_threads)
        d->cfg.host_threads = 1;
    if (!d->cfg.max_call_depth)
        d->cfg.max_call_depth = 64;
    if (!d->cfg.quantum)
        d->cfg.quantum = 2048;
    d->cdp_max_pending = EMU_CDP_PENDING_DEFAULT;
    if (!d->cfg.max_ctas_per_sm || !d->cfg.max_warps_per_sm)
        return free(d), MX_EINVAL;
    int rc = emu_mem_init(d);
    if (!rc)
        rc = emu_sched_init(d);
    if (rc) {
        emu_sched_fini(d);
        emu_mem_fini(d);
        free(d);
        return rc;
    }
    *out = d;
    return MX_OK;
}

void emu_device_set_cdp_pending(struct emu_device *d, uint32_t n) { d->cdp_max_pending = n ? n : 1; }
uint32_t emu_device_cdp_pending(const struct emu_device *d) { return d->cdp_max_pending; }

uint64_t emu_device_set_stack(struct emu_device *d, uint64_t bytes)
{
    d->cfg.local_per_thread = bytes < EMU_LOCAL_MAX ? bytes : EMU_LOCAL_MAX;
    return d->cfg.local_per_thread;
}

void emu_device_destroy(struct emu_device *d)
{
    if (!d)
        return;
    emu_sched_fini(d);
    emu_cdp_fini(d);
    emu_mem_fini(d);
    free(d);
}

const struct emu_config *emu_device_config(const struct emu_device *d) { return &d->cfg; }

int emu_device_reshape(struct emu_device *d, uint32_t cache_sms, void *timing_state)
{
    if (d->grids || d->helper || cache_sms >= d->cfg.num_sms)
        return MX_EINVAL;
    d->cfg.cache_sms = cache_sms;
    d->cfg.timing_state = timing_state;
    d->rr_sm %= emu_compute_sms(&d->cfg); /* the next grid is dealt from a compute-mode SM */
    for (uint32_t i = 0; i < d->cfg.num_sms; i++) /* (idle: no warp, no CTA on any SM) */
        d->sms[i].mode = i < emu_compute_sms(&d->cfg) ? EMU_SM_COMPUTE : EMU_SM_CACHE;
    return MX_OK;
}


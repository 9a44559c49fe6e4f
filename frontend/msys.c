/* frontend/msys.c — the memory hierarchy in front of a device (msys.h). */
#include "frontend/msys.h"
#include "frontend/config.h"
#include "frontend/online.h"
#include "frontend/ptx.h"
#include "isa/isa.h"
#include "mx/morpheus_mmio.h"
#include "mx/status.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The built-in helper kernels (memsys/xllc/, embedded at build time). */
extern const char fe_helper_rf_brx_ptx[], fe_helper_rf_movind_ptx[], fe_helper_l1_ptx[], fe_helper_shm_ptx[],
    fe_helper_rfl1_brx_ptx[], fe_helper_rfl1_movind_ptx[], fe_helper_rfbdi_brx_ptx[], fe_helper_rfbdi_movind_ptx[];
#define RFL1_RF_SETS 32   /* rf+l1: the first 32 sets of a cache-mode SM in registers, the rest in L1 (sec. 5) */

#define BLOCKS_BYTES 4096 /* a set's blocks in the l1 and shm variants: 32 ways x 128 bytes */
#define HELPER_BUDGET 100000 /* instructions per request: a flush of 32 blocks is about a thousand */

static int serve(void *ctx, uint32_t sm, uint32_t warp, int timed, const char *who)
{
    struct fe_msys *f = ctx;
    const struct emu_config *c = emu_device_config(f->dev);
    uint64_t g = (uint64_t)(sm - (c->num_sms - c->cache_sms)) * f->warps_per_sm + warp;
    return emu_helper_serve(f->dev, g, f->budget, timed, who) ? -1 : 0;
}

int fe_msys_attach(struct fe_msys *f, struct emu_device *dev, uint32_t ext_mask, const char *ptx, char *err,
                   size_t errlen)
{
    const struct emu_config *c = emu_device_config(dev);
    uint32_t variant = f->variant;
    static const char *const kname[MX_XV_COUNT] = { "xllc_helper_rf_serve", "xllc_helper_l1_serve",
                                                    "xllc_helper_shm_serve", "xllc_helper_rfl1_serve" };
    int movind = ext_mask >> MX_EXT_INDIRECT_MOV & 1;
    int bdi = f->bdi_epoch != 0; /* --compress bdi (the rf variant: morpheus.c refuses the others) */
    uint32_t S = f->ms ? mx_memsys_xllc_sets_per_sm(f->ms) : 0;
    if (!f->ms || !S || !mx_memsys_mmio(f->ms, 0, &(size_t){ 0 }) || !mx_memsys_memif(f->ms)->port_begin)
        return MX_OK; /* not --xllc helper, or nothing in cache mode */
    f->dev = dev;
    f->budget = HELPER_BUDGET;
    /* the program: a file, or the build for the Indirect-MOV the device has */
    char *text = NULL;
    size_t len;
    const char *name = ptx && ptx[0] ? ptx : "<built-in helper kernel>";
    int rc;
    if (ptx && ptx[0]) {
        if ((rc = fe_read_file(ptx, &text, &len, err, errlen)))
            return rc;
    } else {
        const char *src = variant == MX_XV_L1      ? fe_helper_l1_ptx
                        : variant == MX_XV_SHM   ? fe_helper_shm_ptx
                        : variant == MX_XV_RF_L1 ? (movind ? fe_helper_rfl1_movind_ptx : fe_helper_rfl1_brx_ptx)
                        : bdi ? (movind ? fe_helper_rfbdi_movind_ptx : fe_helper_rfbdi_brx_ptx)
                        : movind ? fe_helper_rf_movind_ptx : fe_helper_rf_brx_ptx;
        len = strlen(src);
        text = malloc(len + 1);
        if (!text)
            return snprintf(err, errlen, "out of memory"), MX_ENOMEM;
        memcpy(text, src, len + 1);
    }
    f->prog = calloc(1, sizeof *f->prog);
    struct mx_diag diag;
    memset(&diag, 0, sizeof diag);
    struct fe_options opt = { .ext_mask = ext_mask | 1u << MX_EXT_PARK, .max_errors = 1 };
    diag.file = name;
    rc = f->prog ? fe_parse_ptx(text, len, name, &opt, f->prog, &diag) : MX_ENOMEM;
    free(text);
    if (rc) {
        snprintf(err, errlen, "helper kernel: %s", diag.first[0] ? diag.first : mx_strstatus(rc));
        return rc;
    }
    const char *kn = bdi ? "xllc_helper_rfbdi_serve" : kname[variant];
    uint32_t func = UINT32_MAX;
    for (uint32_t i = 0; i < f->prog->nfuncs; i++)
        if ((f->prog->funcs[i].flags & MX_FUNCF_ENTRY) && !strcmp(mx_str(f->prog, f->prog->funcs[i].name), kn))
            func = i;
    if (func == UINT32_MAX)
        return snprintf(err, errlen, "helper kernel %s: no kernel named %s", name, kn), MX_ENOTFOUND;
    if ((rc = emu_module_load(dev, f->prog, &f->mod, err, errlen)))
        return rc;
    /* placement: CTAs of wpc warps, as few as the CTA slots allow */
    uint32_t wpc = (S + c->max_ctas_per_sm - 1) / c->max_ctas_per_sm, ctas = (S + wpc - 1) / wpc;
    f->warps_per_sm = wpc * ctas;
    uint64_t nwarps = (uint64_t)c->cache_sms * f->warps_per_sm;
    uint64_t *tab = calloc(nwarps * 4, sizeof *tab), tab_addr = 0, blocks = 0, scratch = 0;
    if (!tab)
        return snprintf(err, errlen, "out of memory"), MX_ENOMEM;
    if ((rc = emu_malloc(dev, nwarps * 8, &scratch))) {
        free(tab);
        return snprintf(err, errlen, "out of device memory for the helper kernel's scratch"), rc;
    }
    if ((variant == MX_XV_L1 || variant == MX_XV_RF_L1) && (rc = emu_malloc(dev, nwarps * BLOCKS_BYTES, &blocks))) {
        free(tab);
        return snprintf(err, errlen, "out of device memory for the l1 variant's blocks"), rc;
    }
    /* each partition's query unit, mapped into device memory, and each warp's row in it */
    for (uint32_t p = 0;; p++) {
        size_t bytes;
        uint8_t *io = mx_memsys_mmio(f->ms, p, &bytes);
        if (!io)
            break;
        uint64_t base;
        if ((rc = emu_alias_host(dev, io, bytes, &base))) {
            free(tab);
            return snprintf(err, errlen, "cannot map query unit %u into device memory", p), rc;
        }
        for (uint32_t r = 0; r < mx_memsys_xllc_rows(f->ms, p); r++) {
            uint32_t sm, w;
            if (mx_memsys_xllc_owner(f->ms, p, r, &sm, &w))
                continue;
            uint64_t g = (uint64_t)(sm - (c->num_sms - c->cache_sms)) * f->warps_per_sm + w;
            tab[4 * g] = base + MX_MMIO_ROW((uint64_t)r);
            tab[4 * g + 1] = base;
            /* l1: its 4 KiB of a global array; shm: its 4 KiB of its CTA's shared memory */
            tab[4 * g + 2] = variant == MX_XV_L1 ? blocks + g * BLOCKS_BYTES
                           : variant == MX_XV_SHM ? (g % wpc) * BLOCKS_BYTES
                           : variant == MX_XV_RF_L1 && w >= RFL1_RF_SETS ? blocks + g * BLOCKS_BYTES
                           : bdi ? f->bdi_epoch /* rfbdi: the epoch's cycles, for the reader (the controller flags
                                                   a new one: docs/xllc-bdi.md) */
                           : 0; /* in registers */
            tab[4 * g + 3] = scratch + g * 8; /* where it executes an atomic */
        }
    }
    rc = emu_malloc(dev, nwarps * 32, &tab_addr);
    if (!rc)
        rc = emu_memcpy_htod(dev, tab_addr, tab, nwarps * 32);
    free(tab);
    if (rc)
        return snprintf(err, errlen, "out of device memory for the helper kernel's table"), rc;
    uint8_t params[16] = { 0 };
    uint32_t nw = (uint32_t)nwarps;
    memcpy(params, &tab_addr, 8);
    memcpy(params + 8, &nw, 4);
    struct emu_launch l = { .func = func, .grid = { 1, 1, 1 }, .block = { wpc * 32, 1, 1 }, .params = params,
                            .params_size = 12, .dyn_smem = variant == MX_XV_SHM ? wpc * BLOCKS_BYTES : 0 };
    struct emu_fault fault;
    if ((rc = emu_helper_start(dev, f->mod, &l, ctas, f->budget, &fault))) {
        snprintf(err, errlen, "helper kernel %s: %s%s%s", name, fault.message, fault.detail[0] ? ": " : "",
                 fault.detail);
        return rc;
    }
    struct mx_xllc_port port = { f, serve };
    mx_memsys_attach_helper(f->ms, &port);
    return MX_OK;
}

void fe_msys_detach(struct fe_msys *f)
{
    if (f->mod)
        emu_module_unload(f->mod); /* (the device still lives: its helper grid goes with it) */
    f->mod = NULL;
    f->dev = NULL;
    if (f->prog) {
        mx_program_free(f->prog);
        free(f->prog);
    }
    f->prog = NULL;
}

int fe_msys_open(struct fe_msys *f, const struct mx_memsys_config *mc, struct emu_config *ec, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    struct mx_memsys_config c = *mc;
    f->variant = mc->xllc_variant;
    f->bdi_epoch = mc->compress == MX_COMP_BDI ? (mc->bdi_epoch ? mc->bdi_epoch : 10000) : 0;
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

int fe_timing_open(struct fe_msys *f, const struct fe_config *c, struct emu_config *ec, char *err, size_t errlen)
{
    f->tm = NULL;
    f->tm_state = NULL;
    f->system = c->system;
    f->sms_gated = c->gated_sms;
    f->sms_on = ec->num_sms;
    f->sms_cache = ec->cache_sms;
    if (!c->timing_model[0])
        return MX_OK; /* none */
    char spec[FE_CONFIG_PATH_MAX], e[600];
    snprintf(spec, sizeof spec, "%s", c->timing_model);
    char *args = strchr(spec, ',');
    if (args)
        *args++ = 0;
    const struct tm_ops *o = tm_resolve(spec, e, sizeof e);
    if (!o)
        return snprintf(err, errlen, "timing.model: %s", e), MX_EINVAL;
    void *state = NULL;
    struct tm_params tp = c->timing;
    tp.num_sms = ec->num_sms;
    tp.cache_sms = ec->cache_sms;
    tp.warp_slots = ec->max_ctas_per_sm * 32;
    tp.llc_partitions = c->memsys.llc_partitions;
    tp.dram_channels = c->memsys.dram_channels;
    tp.quantum = ec->quantum;
    if (o->init && o->init(&state, &tp, args ? args : "", e, sizeof e))
        return snprintf(err, errlen, "timing.model: %s", e), MX_EINVAL;
    f->tm = o;
    f->tm_state = state;
    f->tp = tp;
    f->tm_args = strdup(args ? args : "");
    int online = fe_config_online(c);
    if (online && f->ms && (f->online = calloc(1, sizeof *f->online)) && fe_online_init(f->online, ec->num_sms)) {
        free(f->online);
        f->online = NULL;
    }
    if (!f->tm_args || (online && f->ms && !f->online)) {
        fe_msys_close(f);
        return snprintf(err, errlen, "out of memory"), MX_ENOMEM;
    }
    f->core_mhz = c->timing.core_mhz;
    f->energy = c->energy;
    if (o->events & (TM_EV_ISSUE | TM_EV_MEM)) {
        ec->timing = o;
        ec->timing_state = state;
        ec->issue_width = c->timing.issue_width ? c->timing.issue_width : 1;
    }
    return MX_OK;
}

void fe_msys_close(struct fe_msys *f)
{
    if (f->tm && f->tm->fini)
        f->tm->fini(f->tm_state);
    f->tm = NULL;
    free(f->tm_args);
    f->tm_args = NULL;
    if (f->online)
        fe_online_fini(f->online);
    free(f->online);
    f->online = NULL;
    if (f->ms)
        mx_memsys_destroy(f->ms);
    f->ms = NULL;
}

int fe_msys_online_apply(struct fe_msys *f, struct emu_device *dev, char *err, size_t errlen)
{
    if (!f->online || !f->ms)
        return MX_OK;
    uint32_t n = emu_device_config(dev)->num_sms, cache = n - f->online->cur, old = f->sms_cache;
    if (cache == old)
        return MX_OK;
    /* a fresh model state for the new split, then the device, then the hierarchy (undone in that order) */
    void *state = f->tm_state;
    char e[600];
    if (f->tm && f->tm->init) {
        struct tm_params tp = f->tp;
        tp.cache_sms = cache;
        if (f->tm->init(&state, &tp, f->tm_args, e, sizeof e))
            return snprintf(err, errlen, "timing.model: %s", e), MX_EINVAL;
    }
    int rc = emu_device_reshape(dev, cache, state);
    if (rc)
        snprintf(err, errlen, "the SM split changes only while no kernel runs");
    else if ((rc = mx_memsys_reshape(f->ms, cache, err, errlen)))
        emu_device_reshape(dev, old, f->tm_state);
    if (rc) {
        if (state != f->tm_state && f->tm->fini)
            f->tm->fini(state);
        return rc;
    }
    if (state != f->tm_state && f->tm->fini)
        f->tm->fini(f->tm_state);
    f->tm_state = state;
    f->sms_cache = cache;
    return MX_OK;
}

void fe_msys_online_done(struct fe_msys *f, const char *kernel, const struct emu_launch *l, const struct emu_stats *st)
{
    if (!f->online)
        return;
    char key[FE_ONLINE_KEY];
    snprintf(key, sizeof key, "%s<<<%u,%u,%u|%u,%u,%u>>>", kernel, l->grid[0], l->grid[1], l->grid[2], l->block[0],
             l->block[1], l->block[2]);
    fe_online_done(f->online, key, st->thread_insns, st->cycles);
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
    now.helper_insns = f->dev ? emu_helper_insns(f->dev) : 0;
    d = now;
    mx_memsys_stats_sub(&d, &f->last);
    f->last = now;
    f->delta = d;
    return mx_memsys_stats_json(&d, warp_insns, buf, n);
}

void fe_timing_json(struct json_object *o, const struct fe_msys *f, const struct emu_stats *st)
{
    int timed = f->tm && (f->tm->events & (TM_EV_ISSUE | TM_EV_MEM));
    json_object_object_add(o, "system", f->system ? json_object_new_string(fe_system_name(f->system)) : NULL);
    json_object_object_add(o, "compute_sms", json_object_new_int((int)(f->sms_on - f->sms_cache)));
    json_object_object_add(o, "cache_sms", json_object_new_int((int)f->sms_cache));
    json_object_object_add(o, "gated_sms", json_object_new_int((int)f->sms_gated));
    if (f->online) { /* --compute-sms auto: where the controller stands after this launch */
        const struct fe_online *ol = f->online;
        json_object *c = json_object_new_object();
        json_object_object_add(c, "next_compute_sms", json_object_new_int((int)ol->cur));
        json_object_object_add(c, "best_compute_sms", json_object_new_int((int)ol->best));
        json_object_object_add(c, "settled", json_object_new_boolean(ol->settled));
        json_object_object_add(c, "changes", json_object_new_int((int)ol->changes));
        json_object_object_add(c, "last_gain", ol->last_gain > 0 ? json_object_new_double(ol->last_gain) : NULL);
        json_object_object_add(o, "online", c);
    }
    json_object_object_add(o, "timing", json_object_new_string(f->tm ? f->tm->name : "none"));
    json_object_object_add(o, "cycles", json_object_new_int64((int64_t)st->cycles));
    json_object_object_add(o, "ipc", json_object_new_double(st->cycles ? (double)st->warp_insns / st->cycles : 0));
    if (!timed || !f->core_mhz) {
        json_object_object_add(o, "time_s", NULL);
        json_object_object_add(o, "energy_j", NULL);
        json_object_object_add(o, "power_w", NULL);
        json_object_object_add(o, "perf_per_w", NULL);
        json_object_object_add(o, "energy", NULL);
        return;
    }
    struct tm_energy_counts c = { .thread_insns = st->thread_insns, .warp_insns = st->warp_insns, .cycles = st->cycles,
                                  .core_mhz = f->core_mhz, .sms_on = f->sms_on, .sms_cache = f->sms_cache };
    for (int u = 0; u < TM_UNITS; u++)
        c.warp_insns_by_unit[u] = st->unit_insns[u];
    if (f->ms) {
        c.l1_sectors = f->delta.l1.accesses;
        c.llc_sectors = f->delta.llc.accesses;
        c.xllc_accesses = f->delta.xllc.accesses;
        c.dram_read_bytes = f->delta.dram_read_bytes;
        c.dram_write_bytes = f->delta.dram_write_bytes;
    }
    struct tm_energy e;
    tm_energy_of(&f->energy, &c, &e);
    json_object_object_add(o, "time_s", json_object_new_double(e.seconds));
    json_object_object_add(o, "energy_j", json_object_new_double(e.total_j));
    json_object_object_add(o, "power_w", json_object_new_double(e.watts));
    json_object_object_add(o, "perf_per_w",
                           json_object_new_double(e.watts > 0 && st->cycles ? (double)st->warp_insns / st->cycles / e.watts : 0));
    json_object *parts = json_object_new_object();
    for (int k = 0; k < TM_EPARTS; k++)
        json_object_object_add(parts, tm_energy_part_names[k], json_object_new_double(e.part[k]));
    json_object_object_add(o, "energy", parts);
}

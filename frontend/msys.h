/* frontend/msys.h — a device's memory hierarchy as the commands and the
 * CUDA shims set it up: created from the configuration when
 * memsys.enabled, put in front of the device (emu_config.memif), and read
 * as the "memsys" object of each --stats record (the counts since the
 * previous record: a launch's share). */
#ifndef MX_FE_MSYS_H
#define MX_FE_MSYS_H

#include <stddef.h>
#include <stdint.h>

#include "emu/emu.h"
#include "mx/memsys.h"

struct fe_msys {
    struct mx_memsys *ms;            /* NULL: the hierarchy is off */
    struct mx_memsys_stats last;     /* totals at the previous record */
    /* --xllc helper (fe_msys_attach): the helper kernel on the cache-mode SMs */
    struct emu_device *dev;
    struct mx_program *prog;
    struct emu_module *mod;
    uint32_t warps_per_sm;           /* helper warps placed on each cache-mode SM (>= sets per SM) */
    uint64_t budget;                 /* instructions a helper warp may run per request */
    uint32_t variant;                /* memsys.xllc.variant: which helper kernel */
    const struct tm_ops *tm;         /* the timing model (fe_timing_open), NULL: none */
    void *tm_state;
    uint32_t core_mhz;               /* timing.core_mhz: cycles to seconds */
    struct tm_energy_params energy;  /* energy.* (fe_timing_open) */
    uint32_t sms_on, sms_cache;      /* SMs drawing static power, of them in cache mode */
    uint32_t system, sms_gated;      /* system.name (enum fe_system_id) and the SMs it power-gates */
    struct mx_memsys_stats delta;    /* the hierarchy's counts of the last record (fe_msys_json) */
    struct fe_online *online;        /* --compute-sms auto: the controller of the SM split, else NULL */
    struct tm_params tp;             /* the model's parameters and arguments (fe_timing_open): a new split */
    char *tm_args;                   /* initialises a fresh state with them */
    uint32_t bdi_epoch;              /* --compress bdi: the rf kernel's BDI build, with epochs of this many
                                        cycles; 0 without compression */
};

/* Creates the hierarchy of configuration mc for the device ec describes
 * (its SM counts win over mc's) and points ec->memif at it.  MX_OK, or an
 * error with a message naming the configuration key in err (nothing
 * created). */
int fe_msys_open(struct fe_msys *f, const struct mx_memsys_config *mc, struct emu_config *ec, char *err, size_t errlen);
/* --xllc helper: loads the helper kernel (the built-in PTX for ext_mask's
 * Indirect-MOV, or the file `ptx` if not NULL/empty) onto dev's cache-mode
 * SMs, maps the query units into device memory and connects them.  Nothing
 * to do in any other mode.  MX_OK, or an error with the message in err.
 * fe_msys_detach undoes it before the device is destroyed. */
int fe_msys_attach(struct fe_msys *f, struct emu_device *dev, uint32_t ext_mask, const char *ptx, char *err,
                   size_t errlen);
void fe_msys_detach(struct fe_msys *f);
void fe_msys_close(struct fe_msys *f);
/* The counts since the previous call as the JSON object of the "memsys"
 * key (warp_insns: the warp instructions they belong to, for llc.mpki);
 * 0 and buf[0] = 0 when the hierarchy is off.  Returns the length. */
int fe_msys_json(struct fe_msys *f, uint64_t warp_insns, char *buf, size_t n);

/* The timing model of c (timing.model: NAME[,ARGS] or PATH.so[,ARGS]),
 * initialised with c's timing.* parameters, and ec pointed at it (its
 * scheduler then follows the model).  Call after fe_msys_open, if at all
 * (it clears f); fe_msys_close releases it.  MX_OK, or MX_EINVAL with a
 * message naming timing.model in err. */
struct fe_config;
int fe_timing_open(struct fe_msys *f, const struct fe_config *c, struct emu_config *ec, char *err, size_t errlen);

/* --compute-sms auto (frontend/online.h).  Before a launch, while no grid
 * is active: puts the hierarchy, the device and the timing model in the
 * split the controller asks for (a fresh model state for it).  MX_OK, or an
 * error with the message in err (nothing changed).  Nothing to do without
 * the controller. */
int fe_msys_online_apply(struct fe_msys *f, struct emu_device *dev, char *err, size_t errlen);
/* After a launch `l` of `kernel` finished (before its record is written:
 * the record says what the controller decided): tells the controller its
 * thread instructions and cycles.  Launches are compared with launches of
 * the same kernel, grid and block. */
void fe_msys_online_done(struct fe_msys *f, const char *kernel, const struct emu_launch *l, const struct emu_stats *st);

/* Adds a launch record's timing keys to the json-c object o: "timing" (the
 * model's name, "none"), "cycles" (the launch's SM cycles), "ipc" (warp
 * instructions per cycle of the whole GPU), and with a timing model
 * "time_s" (cycles at timing.core_mhz), "energy_j" (timing/energy.c over
 * the launch's counts and the hierarchy's of fe_msys_json, called first),
 * "power_w" and "perf_per_w" (ipc per watt), and "energy" (energy_j by
 * where it goes: tm_energy_part_names' keys, in joules, adding up to
 * energy_j); null without a model. */
struct json_object;
void fe_timing_json(struct json_object *o, const struct fe_msys *f, const struct emu_stats *st);

#endif

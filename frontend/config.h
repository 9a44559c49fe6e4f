/* frontend/config.h — configurations: the emulated GPU, its memory hierarchy
 * and the emulator's settings as one value (struct fe_config), read from
 * JSON files (configs/NAME.json, or any FILE) with json-c, overridden key
 * by key (-o KEY=VALUE), by MORPHEUS_* variables and by command-line
 * options, and printed back as JSON.  Used by the command line (run, exec,
 * workloads, bench, config) and the CUDA shims; not part of the layered
 * front-end library (it knows emu/ and memsys/ settings).
 *
 * Keys are dotted paths of the JSON layout: gpu.num_sms, memsys.llc.ways,
 * emu.host_threads, ... (`morpheus config show rtx3080` lists every one).
 * A value is parsed strictly with the key's type (frontend/numopt.h); an
 * unknown key or a bad value is an error whose message names the key. */
#ifndef MX_FE_CONFIG_H
#define MX_FE_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "emu/emu.h"
#include "mx/memsys.h"

#define FE_CONFIG_PATH_MAX 4096

struct fe_config {
    struct emu_config emu;          /* gpu.* and emu.* (emu.cache_sms mirrors memsys.cache_sms) */
    struct mx_memsys_config memsys; /* memsys.*; num_sms, cache_sms and mem_trace are filled by
                                       fe_config_finish (mem_trace points into this struct:
                                       call fe_config_finish again on a copy) */
    int memsys_on;                  /* memsys.enabled: create the hierarchy for the device */
    /* Two keys may be null in a file, "the command's default": */
    int memsys_on_set;              /* memsys.enabled was given; else memsys_on_default */
    int memsys_on_default;          /* off for run, exec, bench; on for workloads run */
    int max_insns_set;              /* emu.max_insns was given; else max_insns_default */
    uint64_t max_insns_default;     /* run 10^10, exec 10^11, bench 2^40 */
    char name[64];                  /* where it came from: "rtx3080" (built in, the default), a
                                       configuration's name, or a file's base name */
    char description[256];          /* one line (`morpheus config list`) */
    char source[8192];              /* where the numbers come from */
    char mem_trace[FE_CONFIG_PATH_MAX]; /* memsys.mem_trace, "" for none */
    char xllc_helper[FE_CONFIG_PATH_MAX]; /* memsys.xllc.helper: a helper kernel's PTX file, "" for the built-in */
    char timing_model[FE_CONFIG_PATH_MAX]; /* timing.model: NAME[,ARGS] or PATH.so[,ARGS]; "" = none */
    struct tm_params timing;        /* timing.*: the parameters every model gets */
    uint32_t xllc_imov;             /* timing.level.xllc_imov: the native extended LLC's latency when the
                                       helper has the Indirect-MOV instruction (0: level.xllc's) */
    struct tm_energy_params energy; /* energy.*: per-event energies and powers */
    /* system.*: one of the paper's evaluated systems as a preset (frontend/system.c) */
    uint32_t system;                /* system.name: enum fe_system_id (0: none) */
    uint32_t compute_sms;           /* system.compute_sms: SMs running the application (0: all; FE_SMS_AUTO:
                                       chosen while the program runs, frontend/online.h) */
    int system_applied;             /* system.applied: the preset is in the values (a resolved file) */
    uint32_t gated_sms;             /* set by the preset: power-gated SMs (the IBL family) */
    int quiet;                      /* while a file or a preset sets values: they are not "given" */
    uint8_t given[128];             /* per key: set by -o, an option or a MORPHEUS_* variable (the preset
                                       leaves those alone) */
};

/* A setting that is also a command-line option and a MORPHEUS_* variable
 * (`morpheus run`, `exec`, `workloads run`, `bench`). */
struct fe_config_opt {
    const char *opt;                /* "--sms" */
    const char *key;                /* "gpu.num_sms" */
    const char *env;                /* "MORPHEUS_SMS" */
};
#define FE_CONFIG_NOPTS 21
extern const struct fe_config_opt fe_config_opts[FE_CONFIG_NOPTS];
extern const size_t fe_config_nopts;
/* The option named opt ("--sms"), or NULL. */
const struct fe_config_opt *fe_config_find_opt(const char *opt);

#define FE_SMS_AUTO UINT32_MAX      /* system.compute_sms "auto" */

/* The paper's evaluated systems (§6, frontend/system.c). */
enum fe_system_id { FE_SYS_NONE, FE_SYS_BL, FE_SYS_IBL, FE_SYS_IBL4X, FE_SYS_FBOOST, FE_SYS_UNIFIED, FE_SYS_MBASIC,
                    FE_SYS_MCOMP, FE_SYS_MIMOV, FE_SYS_MALL, FE_SYS_COUNT };
#define FE_SYSTEM_NAMES "none|bl|ibl|ibl-4x-llc|frequency-boost|unified-sm-mem|morpheus-basic|morpheus-compression|" \
                        "morpheus-indirect-mov|morpheus-all"
/* The name (FE_SYSTEM_NAMES) and the paper's label ("Morpheus-ALL") of a system. */
const char *fe_system_name(uint32_t id);
const char *fe_system_label(uint32_t id);
/* 1 for the systems whose SM split is chosen per application (all but none and bl). */
int fe_system_per_app(uint32_t id);
/* 1 for the Morpheus systems (cache-mode SMs), 0 for the baselines. */
int fe_system_morpheus(uint32_t id);
/* Whether the online controller chooses the split (frontend/online.h): a
 * Morpheus system with system.compute_sms auto, preset now or in a resolved
 * file loaded back. */
static inline int fe_config_online(const struct fe_config *c)
{
    return c->compute_sms == FE_SMS_AUTO && fe_system_morpheus(c->system);
}
/* The paper's 17 applications (Table 2), in its order (workloads/NAME/). */
#define FE_NWORKLOADS 17
extern const char *const fe_workloads[FE_NWORKLOADS];
/* The paper's compute-mode SM count for application `app` on system id
 * (Table 3, for 68 SMs, scaled to num_sms), or 0 if it gives none. */
uint32_t fe_system_paper_sms(uint32_t id, const char *app, uint32_t num_sms);
/* Applies c->system to c (once; keys in c->given stay as given): called
 * by fe_config_finish.  0, or -1 with a message. */
int fe_system_apply(struct fe_config *c, char *err, size_t errlen);
/* One line per system for --help texts. */
extern const char fe_system_help[];

/* The built-in configuration (rtx3080: the paper's Table 1 baseline) with
 * the command's defaults of the watchdog (emu.max_insns) and of
 * memsys.enabled. */
void fe_config_default(struct fe_config *c, uint64_t max_insns_default, int memsys_default);

/* Applies a configuration on top of c: `what` is a built-in NAME
 * (configs/NAME.json next to the installed binary or in the source tree) or
 * a FILE (a path: it has a '/' or ends in .json).  Keys the file leaves out
 * keep their values.  0, or -1 with "config NAME.json: ..." in err. */
int fe_config_load(struct fe_config *c, const char *what, char *err, size_t errlen);
/* Where `what` (as for fe_config_load) is: the file's path in out; -1 with a
 * message if NAME is no built-in configuration. */
int fe_config_path(const char *what, char *out, size_t len, char *err, size_t errlen);
/* Applies JSON text (a whole configuration, as in a file); `where` names it
 * in messages ("config a100.json").  0, or -1 with the message in err. */
int fe_config_apply_json(struct fe_config *c, const char *text, const char *where, char *err, size_t errlen);

/* Sets one key from text: "memsys.llc.ways", "16".  0; -1 with
 * "unknown key 'K'" or "K: expected ..., got 'V'" in err. */
int fe_config_set(struct fe_config *c, const char *key, const char *value, char *err, size_t errlen);
/* 1 if key was set by -o, an option or a MORPHEUS_* variable. */
int fe_config_given(const struct fe_config *c, const char *key);
/* Applies "KEY=VALUE" (-o); errors as fe_config_set, or "expected KEY=VALUE". */
int fe_config_override(struct fe_config *c, const char *kv, char *err, size_t errlen);
/* Applies a command-line option's value (o from fe_config_find_opt); the
 * message names `name`, or the option if NULL: "--sms: expected ..., got 'V'". */
int fe_config_option(struct fe_config *c, const struct fe_config_opt *o, const char *name, const char *value, char *err,
                     size_t errlen);

/* Applies the environment, as the CUDA shims see it and `morpheus exec`
 * passes it: MORPHEUS_CONFIG (NAME or FILE), then MORPHEUS_O (KEY=VALUE
 * entries separated by newlines), then every option's variable
 * (MORPHEUS_SMS, MORPHEUS_MEMSYS, ...), each winning over the ones before.
 * An empty variable is unset.  0, or -1 with a message naming the variable. */
int fe_config_apply_env(struct fe_config *c, char *err, size_t errlen);

/* Checks the whole configuration and fills the derived fields (memsys.num_sms
 * from gpu.num_sms, emu.cache_sms from memsys.cache_sms, memsys.mem_trace):
 * at least one compute-mode SM, per-CTA limits within the SM's, and the
 * memory hierarchy's own check (fe_config_memsys_check).  Call it after the
 * last change and before creating a device.  0, or -1 with a message naming
 * the key in err. */
int fe_config_finish(struct fe_config *c, char *err, size_t errlen);
/* The memory hierarchy's check of c->memsys (mx_memsys_config_check). */
int fe_config_memsys_check(const struct fe_config *c, char *err, size_t errlen);

/* Writes c as JSON, every key, in the layout of the files (itself a valid
 * configuration file).  0, or -1 on a write error. */
int fe_config_write(const struct fe_config *c, FILE *out);

/* --help text shared by run, workloads run and bench (options in 23
 * columns): the configuration lines, and the memory-hierarchy options
 * after --memsys (whose default differs per command). */
#define FE_CONFIG_HELP_HEAD                                                                          \
    "Configuration (morpheus config --help lists the keys each option sets and\n"                   \
    "the MORPHEUS_* variables): options win over -o, -o over the --config file.\n"                  \
    "  --config NAME|FILE   rtx3080 (the paper's baseline, the default), a100, h100,\n"             \
    "                       h200 (morpheus config list), or a JSON file\n"                         \
    "  -o KEY=VALUE         set one key, e.g. -o memsys.llc.ways=8 (repeatable)\n"
#define FE_CONFIG_HELP_MEMSYS                                                                        \
    "  --cache-sms N        SMs in cache mode (Morpheus), the highest-numbered, fewer\n"             \
    "                       than --sms; kernels run on the others (default 0)\n"                     \
    "  --xllc off|native|helper\n"                                                                   \
    "                       the extended LLC on the cache-mode SMs: none (default),\n"               \
    "                       its C model, or helper kernels\n"                                        \
    "  --xllc-variant rf|l1|shm|rf+l1\n"                                                             \
    "                       where it lives on a cache-mode SM: register file, L1,\n"                 \
    "                       shared memory, or register file and L1 (default)\n"                      \
    "  --predictor bloom|none|perfect\n"                                                             \
    "                       extended-LLC hit/miss predictor (default bloom)\n"                       \
    "  --compress none|bdi  extended-LLC line compression (default none)\n"                          \
    "  --mem-trace FILE     write each memory request and the level that served it\n"                \
    "                       to FILE\n"                                                               \
    "  --xllc-check on|off  with --xllc helper: check every helper-kernel decision\n"                \
    "                       against the native model and every block it returns or\n"              \
    "                       writes back against a shadow of memory (default off)\n"                \
    "  --xllc-helper FILE   with --xllc helper: run this PTX as the helper kernel\n"                \
    "                       (default: the built-in one, memsys/xllc/)\n"                          \
    "  --timing NAME[,ARGS] the timing model: none (default), latency, cycle, or a\n"               \
    "                       .so path (docs/timing.md); records get cycles, time,\n"             \
    "                       energy\n"                                                              \
    "  --system NAME        one of the paper's evaluated systems as a preset (keys\n"             \
    "                       you set win; docs/systems.md): bl, ibl, ibl-4x-llc,\n"               \
    "                       frequency-boost, unified-sm-mem, morpheus-basic,\n"                   \
    "                       morpheus-compression, morpheus-indirect-mov, morpheus-all\n"          \
    "  --compute-sms N|auto with --system: the SMs that run the application (IBL:\n"             \
    "                       the rest power-gated; Morpheus: the rest in cache mode);\n"          \
    "                       auto (Morpheus, --timing): chosen between launches by\n"             \
    "                       the online controller (docs/systems.md)\n"

/* How a command takes its configuration from its command line:
 * --config NAME|FILE, -o KEY=VALUE (repeatable) and the options of
 * fe_config_opts, in any order; options win over -o, -o over the file. */
struct fe_config_cli {
    const char *config;             /* --config, or NULL */
    const char *o[64];              /* -o values, in order */
    int no;
    const char *opt[FE_CONFIG_NOPTS]; /* each option's value (the last given), or NULL */
};
/* If argv[*i] is --config, -o or an option of fe_config_opts, takes it and
 * its value (checked now) and returns 1 with *i at the value; 0 if it is
 * none of those; -1 after a message "morpheus CMD: ..." (a usage error). */
int fe_config_cli_arg(struct fe_config_cli *cl, const char *cmd, int argc, char **argv, int *i);
/* c = the built-in defaults (fe_config_default), then --config, -o and the
 * options, checked (fe_config_finish).  0, or -1 after a message. */
int fe_config_cli_resolve(struct fe_config *c, const struct fe_config_cli *cl, const char *cmd, uint64_t max_insns_default,
                          int memsys_default);

/* The folder of the built-in configurations (configs/ next to the
 * installed binary, share/morpheus/configs, or in the source tree): 0 and
 * its path, or -1. */
int fe_config_dir(char *out, size_t len);

#endif

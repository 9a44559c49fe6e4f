/* frontend/numopt.h — strict parsing of numeric settings, shared by every
 * command of the command line, `morpheus exec` (options, --config files,
 * MORPHEUS_* variables) and the CUDA shims reading those variables.  A value
 * is the whole string: no sign, no spaces, no suffix, no NaN or infinity,
 * inside its range; anything else is an error whose message says what was
 * expected. */
#ifndef MX_FE_NUMOPT_H
#define MX_FE_NUMOPT_H

#include <stddef.h>
#include <stdint.h>

enum fe_num_kind {
    FE_NUM_UINT,    /* decimal digits, or 0x and hexadecimal digits, in [min, max] */
    FE_NUM_SECONDS, /* a finite real number >= 0 (decimal, optional fraction and exponent) */
    FE_NUM_CHOICE,  /* one of the names in `names` ("lrr|gto"): its index */
};

/* What one setting's value must be. */
struct fe_num {
    int kind;               /* enum fe_num_kind */
    uint64_t min, max;      /* FE_NUM_UINT: inclusive range */
    const char *expect;     /* message text after "expected ", or NULL: "an integer from MIN to MAX";
                               FE_NUM_CHOICE: the names, separated by '|' */
};

/* Parses s as spec says into *u (FE_NUM_UINT) or *d (FE_NUM_SECONDS; either
 * pointer may be NULL for the other kind).  Returns 0, or -1 with
 * "expected WHAT, got 'S'" in err. */
int fe_num_parse(const char *s, const struct fe_num *spec, uint64_t *u, double *d, char *err, size_t errlen);

/* The watchdog, device and scheduling settings (`morpheus run`, `exec` and
 * its MORPHEUS_* variables, `bench`, `workloads`). */
extern const struct fe_num fe_num_max_insns;    /* warp instructions per launch, 0 = no limit */
extern const struct fe_num fe_num_timeout;      /* seconds per launch, 0 = no limit */
extern const struct fe_num fe_num_real;         /* a real >= 0 (configuration energies, powers) */
extern const struct fe_num fe_num_host_threads; /* 1 to 256 */
extern const struct fe_num fe_num_sms;          /* 1 to 4096 */
extern const struct fe_num fe_num_mem_mb;       /* 1 to 2^20 MiB (1 TiB, the emulator's limit) */
extern const struct fe_num fe_num_quantum;      /* cycles between two synchronisations of the SMs, 1 to 2^30 */
extern const struct fe_num fe_num_warp_sched;   /* lrr|gto: emu_config.sched_policy */

#endif

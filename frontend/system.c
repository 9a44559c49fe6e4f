/* frontend/system.c — the paper's evaluated systems (§6 "Evaluated
 * Systems") as configuration presets: --system NAME [--compute-sms N].
 *
 * A preset is applied by fe_config_finish on top of the configuration file
 * (relative to it: "4x the LLC" is 4x the file's), and never over a key the
 * user set (-o, an option, a MORPHEUS_* variable): `--system morpheus-basic
 * --predictor none` is Figure 11's No-Prediction.  docs/systems.md is the
 * user's description; the numbers' sources are named here and there. */
#include "frontend/config.h"
#include "isa/isa.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum {
    F_BLLC = 1 << 0,    /* the LLC gets Morpheus's storage: Bloom filters and query unit, 21 KiB per partition */
    F_GATE = 1 << 1,    /* SMs beyond compute_sms are power-gated */
    F_LLC4 = 1 << 2,    /* 4x the LLC (more banks: no latency or power impact) */
    F_BOOST = 1 << 3,   /* the memory side's clocks +0-20 % by the SMs gated */
    F_UNIFIED = 1 << 4, /* the unused register file added to the L1 */
    F_XLLC = 1 << 5,    /* SMs beyond compute_sms are in cache mode: the extended LLC */
    F_BDI = 1 << 6,     /* BDI compression in the extended LLC */
    F_IMOV = 1 << 7,    /* the Indirect-MOV instruction */
};

static const struct sys {
    const char *name, *label;
    unsigned flags;
    const char *what;
} sys[FE_SYS_COUNT] = {
    [FE_SYS_NONE] = { "none", "-", 0, "no preset: the configuration as it is" },
    [FE_SYS_BL] = { "bl", "BL", F_BLLC,
                    "all SMs run the application; the LLC gets Morpheus's extra storage (Bloom filters and query unit)" },
    [FE_SYS_IBL] = { "ibl", "IBL", F_BLLC | F_GATE, "BL on compute_sms SMs, the others power-gated" },
    [FE_SYS_IBL4X] = { "ibl-4x-llc", "IBL-4x-LLC", F_BLLC | F_GATE | F_LLC4, "IBL with 4x the LLC (more banks)" },
    [FE_SYS_FBOOST] = { "frequency-boost", "Frequency-Boost", F_BLLC | F_GATE | F_BOOST,
                        "IBL with the interconnect, LLC and DRAM clocks +0-20 % by the gated SMs' power" },
    [FE_SYS_UNIFIED] = { "unified-sm-mem", "Unified-SM-Mem", F_BLLC | F_GATE | F_UNIFIED,
                         "IBL with the unused register file added to each L1" },
    [FE_SYS_MBASIC] = { "morpheus-basic", "Morpheus-Basic", F_XLLC,
                        "compute_sms SMs run the application, the others are the extended LLC (rf+l1)" },
    [FE_SYS_MCOMP] = { "morpheus-compression", "Morpheus-Compression", F_XLLC | F_BDI,
                       "Morpheus-Basic with BDI compression in the extended LLC" },
    [FE_SYS_MIMOV] = { "morpheus-indirect-mov", "Morpheus-Indirect-MOV", F_XLLC | F_IMOV,
                       "Morpheus-Basic with the Indirect-MOV instruction in the helper kernel" },
    [FE_SYS_MALL] = { "morpheus-all", "Morpheus-ALL", F_XLLC | F_BDI | F_IMOV, "Morpheus with compression and Indirect-MOV" },
};

const char fe_system_help[] =
    "  bl                     BL: all SMs run the application, the LLC gets Morpheus's\n"
    "                         storage (21 KiB per partition, as whole ways)\n"
    "  ibl                    IBL: --compute-sms SMs, the others power-gated\n"
    "  ibl-4x-llc             IBL with 4x the LLC\n"
    "  frequency-boost        IBL, interconnect/LLC/DRAM clocks +0-20 % by SMs gated\n"
    "  unified-sm-mem         IBL, the unused register file added to the L1\n"
    "  morpheus-basic         --compute-sms SMs compute, the others are the extended LLC\n"
    "  morpheus-compression   Morpheus-Basic with BDI compression\n"
    "  morpheus-indirect-mov  Morpheus-Basic with the Indirect-MOV instruction\n"
    "  morpheus-all           compression and Indirect-MOV\n";

const char *fe_system_name(uint32_t id) { return id < FE_SYS_COUNT ? sys[id].name : "?"; }
const char *fe_system_label(uint32_t id) { return id < FE_SYS_COUNT ? sys[id].label : "?"; }
int fe_system_per_app(uint32_t id) { return id < FE_SYS_COUNT && (sys[id].flags & (F_GATE | F_XLLC)); }
int fe_system_morpheus(uint32_t id) { return id < FE_SYS_COUNT && (sys[id].flags & F_XLLC); }

/* The paper's Table 3: GPU cores running the application (of 68), in the
 * order of the paper's applications.  Compression is given the ALL row and
 * Indirect-MOV the Basic row (their extended-LLC capacity is that
 * system's; the paper lists no rows for them). */
const char *const fe_workloads[FE_NWORKLOADS] = { "p-bfs", "cfd", "dwt2d", "stencil", "r-bfs", "bprob", "sgemm", "nw",
                                                  "page-r", "kmeans", "histo", "mri-gri", "spmv", "lbm", "lib", "hotsp",
                                                  "mri-q" };
static const uint8_t t3_ibl[FE_NWORKLOADS] = { 68, 68, 68, 68, 68, 68, 68, 68, 68, 24, 53, 34, 42, 34, 68, 68, 68 };
static const uint8_t t3_basic[FE_NWORKLOADS] = { 32, 42, 42, 50, 34, 39, 48, 18, 42, 37, 47, 36, 44, 32, 68, 68, 68 };
static const uint8_t t3_all[FE_NWORKLOADS] = { 40, 55, 54, 56, 37, 41, 54, 26, 46, 47, 52, 43, 47, 36, 68, 68, 68 };

uint32_t fe_system_paper_sms(uint32_t id, const char *app, uint32_t num_sms)
{
    const uint8_t *row = NULL;
    if (id == FE_SYS_BL)
        return num_sms;
    if (id >= FE_SYS_COUNT || !(sys[id].flags & (F_GATE | F_XLLC)))
        return 0;
    row = (sys[id].flags & F_GATE) ? t3_ibl : (sys[id].flags & F_BDI) ? t3_all : t3_basic;
    for (int i = 0; i < FE_NWORKLOADS; i++)
        if (!strcmp(fe_workloads[i], app)) {
            uint32_t n = (uint32_t)lround(row[i] * (double)num_sms / 68.0);
            return n < 1 ? 1 : n > num_sms ? num_sms : n;
        }
    return 0;
}

/* Sets key to the formatted value unless the user gave it. */
static int put(struct fe_config *c, const char *key, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int put(struct fe_config *c, const char *key, char *err, size_t errlen, const char *fmt, ...)
{
    if (fe_config_given(c, key))
        return 0;
    char v[64], e[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    int quiet = c->quiet;
    c->quiet = 1; /* the preset's values are not "given" */
    int rc = fe_config_set(c, key, v, e, sizeof e);
    c->quiet = quiet;
    if (rc)
        snprintf(err, errlen, "system %s: %s", sys[c->system].name, e);
    return rc;
}

int fe_system_apply(struct fe_config *c, char *err, size_t errlen)
{
    if (!c->system || c->system_applied)
        return 0;
    const struct sys *s = &sys[c->system];
    uint32_t n = c->emu.num_sms, p = c->compute_sms ? c->compute_sms : n;
    struct mx_memsys_config *m = &c->memsys;
    if (c->system >= FE_SYS_COUNT)
        return snprintf(err, errlen, "system.name: %u is not a system", c->system), -1;
    if (c->compute_sms == FE_SMS_AUTO) {
        /* the online controller (frontend/online.h): it starts with every SM computing */
        if (!(s->flags & F_XLLC)) {
            snprintf(err, errlen, "system %s: --compute-sms auto (the online controller) is for the Morpheus "
                     "systems, which put SMs in cache mode; give a number", s->name);
            return -1;
        }
        if (m->xllc == MX_XLLC_HELPER && fe_config_given(c, "memsys.xllc.mode")) {
            snprintf(err, errlen, "system %s: --compute-sms auto needs the native extended LLC (--xllc native): "
                     "the helper kernel does not move between SMs", s->name);
            return -1;
        }
        if (!c->timing_model[0] || !strcmp(c->timing_model, "none")) {
            snprintf(err, errlen, "system %s: --compute-sms auto measures each launch's cycles: give a timing "
                     "model (--timing latency or cycle)", s->name);
            return -1;
        }
        p = n;
    }
    if ((s->flags & (F_GATE | F_XLLC)) && !c->compute_sms) {
        snprintf(err, errlen, "system %s: the SMs that run the application are chosen per application (the paper's "
                 "Table 3, or morpheus evaluate's sweep): give --compute-sms N (1 to %u)%s", s->name, n,
                 (s->flags & F_XLLC) ? ", or auto for the online controller" : "");
        return -1;
    }
    if (!(s->flags & (F_GATE | F_XLLC)) && c->compute_sms && c->compute_sms != n) {
        snprintf(err, errlen, "system %s: all %u SMs run the application (--compute-sms %u is for the systems that "
                 "gate SMs or put them in cache mode)", s->name, n, c->compute_sms);
        return -1;
    }
    if (p > n) {
        snprintf(err, errlen, "system.compute_sms: %u is more than the %u SMs of the GPU (gpu.num_sms)", p, n);
        return -1;
    }
    c->system_applied = 1;
    if (put(c, "memsys.enabled", err, errlen, "on"))
        return -1;
    if (fe_config_online(c) && !c->memsys_on) {
        snprintf(err, errlen, "system %s: --compute-sms auto reshapes the memory hierarchy: it needs memsys.enabled "
                 "on", s->name);
        return -1;
    }
    if (s->flags & F_BLLC) {
        /* the paper: "we add the extra on-chip storage in Morpheus, the 16-KiB Bloom filters and the 5-KiB
         * extended LLC query logic unit per LLC partition, to the conventional LLC capacity" (210 KiB on the
         * RTX 3080): 21 KiB of lines per partition, whole ways and then one more way in as many sets as the
         * rest fills (rtx3080: 168 lines, a 17th way in 168 of the 256 sets) */
        uint32_t lines = (21 * 1024 + m->llc_line - 1) / m->llc_line;
        uint32_t whole = lines / m->llc_sets, rest = lines % m->llc_sets;
        if (!fe_config_given(c, "memsys.llc.ways") && /* (ways given: every set has them) */
            (put(c, "memsys.llc.ways", err, errlen, "%u", m->llc_ways + whole + (rest != 0)) ||
             put(c, "memsys.llc.full_sets", err, errlen, "%u", rest)))
            return -1;
    }
    if (s->flags & F_GATE) {
        c->gated_sms = n - p;
        c->emu.num_sms = p; /* a gated SM neither runs nor draws power */
        if (put(c, "memsys.cache_sms", err, errlen, "0") || put(c, "memsys.xllc.mode", err, errlen, "off"))
            return -1;
    }
    if ((s->flags & F_LLC4) && put(c, "memsys.llc.sets", err, errlen, "%u", m->llc_sets * 4))
        return -1;
    if (s->flags & F_BOOST) {
        /* the gated SMs' power spent on the memory side's clocks (the paper: "uses the energy saved by
         * power-gated GPU cores", +10-20 % "depending on the number of power-gated cores"; facts/energy.md 8):
         * in proportion to the SMs gated, +20 % with half of them or more (the paper's IBL gates 15 to 44 of
         * 68: +8.8 % to +20 %), none with none gated */
        double g = n > 1 ? (double)c->gated_sms / (n / 2.0) : 0;
        if (put(c, "timing.mem_clock_scale", err, errlen, "%.4f", 1.0 + 0.20 * (g > 1 ? 1 : g)))
            return -1;
    }
    /* the paper: "we add the amount of unused register file space to the L1 data cache": the register file
     * the resident CTAs leave unallocated, as the SM's occupancy of each kernel has it (memsys.l1.rf_kib:
     * the L1 lends what emu's requests say is not allocated, in whole ways) */
    if ((s->flags & F_UNIFIED) && put(c, "memsys.l1.rf_kib", err, errlen, "%u", c->emu.regs_per_sm * 4 / 1024))
        return -1;
    if (s->flags & F_XLLC) {
        int helper = m->xllc == MX_XLLC_HELPER && fe_config_given(c, "memsys.xllc.mode");
        if (put(c, "memsys.cache_sms", err, errlen, "%u", n - p) ||
            put(c, "memsys.xllc.mode", err, errlen, helper ? "helper" : "native") ||
            /* the helper kernel compresses in its rf variant only */
            put(c, "memsys.xllc.variant", err, errlen, (s->flags & F_BDI) && helper ? "rf" : "rf+l1") ||
            put(c, "memsys.predictor", err, errlen, "bloom") ||
            put(c, "memsys.compress", err, errlen, (s->flags & F_BDI) ? "bdi" : "none"))
            return -1;
        if ((s->flags & F_IMOV) && !fe_config_given(c, "emu.isa_ext"))
            c->emu.ext_mask |= 1u << mx_ext_lookup("indirect-mov");
    }
    return 0;
}

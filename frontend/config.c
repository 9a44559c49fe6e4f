/* frontend/config.c — configurations (config.h): one table of keys, each
 * with its type, range and place in struct fe_config; JSON files are read
 * with json-c and every leaf goes through the same strict text parser as
 * -o KEY=VALUE, options and MORPHEUS_* variables, so a value means the
 * same and fails with the same message wherever it comes from.  Owns the
 * built-in defaults of the memory hierarchy until memsys/memsys.c
 * (mx_memsys_config_default) is built. */
#define _GNU_SOURCE /* dladdr */
#include "frontend/config.h"
#include "frontend/msys.h"
#include "frontend/numopt.h"
#include "isa/isa.h"
#include "mx/status.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum key_type {
    K_UINT,    /* integer in num's range, stored in `width` bytes (scaled by `scale`) */
    K_SECONDS, /* seconds >= 0 (double) */
    K_REAL,    /* a real >= 0 (double): energies, powers */
    K_CHOICE,  /* one of num.expect's names: its index (uint32_t) */
    K_BOOL,    /* on|off|true|false (int; memsys.enabled may also be null: the command's default) */
    K_LIST,    /* 1 to MX_MEMSYS_MAX_CARVEOUTS integers in num's range: memsys.l1.carveouts_kib */
    K_PATH,    /* a path, "" (JSON null) for none: a char[FE_CONFIG_PATH_MAX] of struct fe_config */
    K_CC,      /* compute capability MAJOR.MINOR */
    K_EXTS,    /* ISA extension names (emu.ext_mask) */
    K_INSNS,   /* emu.max_insns: an integer, or JSON null for the command's default */
    K_SMS,     /* system.compute_sms: an integer in num's range, or "auto" (FE_SMS_AUTO) */
};

struct key {
    const char *name;       /* dotted path of the JSON layout */
    int type;               /* enum key_type */
    struct fe_num num;      /* K_UINT, K_LIST: range; K_CHOICE: names */
    size_t off;             /* field in struct fe_config */
    uint8_t width;          /* K_UINT: 4 or 8 */
    uint64_t scale;         /* K_UINT: stored value = value * scale (gpu.mem_mb), 0 = 1 */
};

#define EMU(f) offsetof(struct fe_config, emu.f)
#define MS(f) offsetof(struct fe_config, memsys.f)
#define TM(f) offsetof(struct fe_config, timing.f)
#define EN(f) offsetof(struct fe_config, energy.f)
#define U32(lo, hi) { FE_NUM_UINT, lo, hi, NULL }
#define CHOICE(names) { FE_NUM_CHOICE, 0, 0, names }
#define NONE { 0, 0, 0, NULL }

/* Every key, in the order `config show` prints them (the files' layout). */
static const struct key keys[] = {
    { "gpu.num_sms", K_UINT, U32(1, 4096), EMU(num_sms), 4, 0 },
    { "gpu.max_warps_per_sm", K_UINT, U32(1, 1024), EMU(max_warps_per_sm), 4, 0 },
    { "gpu.max_threads_per_sm", K_UINT, U32(1, 32768), EMU(max_threads_per_sm), 4, 0 },
    { "gpu.max_ctas_per_sm", K_UINT, U32(1, 1024), EMU(max_ctas_per_sm), 4, 0 },
    { "gpu.max_threads_per_cta", K_UINT, U32(1, 1024), EMU(max_threads_per_cta), 4, 0 },
    { "gpu.regs_per_sm", K_UINT, U32(1, 1u << 20), EMU(regs_per_sm), 4, 0 },
    { "gpu.max_regs_per_thread", K_UINT, U32(1, 255), EMU(max_regs_per_thread), 4, 0 },
    { "gpu.shared_per_sm", K_UINT, U32(0, 1u << 24), EMU(shared_per_sm), 4, 0 },
    { "gpu.shared_per_cta", K_UINT, U32(0, 1u << 24), EMU(shared_per_cta), 4, 0 },
    { "gpu.mem_mb", K_UINT, U32(1, 1u << 20), EMU(mem_size), 8, 1u << 20 },
    { "gpu.cc", K_CC, NONE, 0, 0, 0 },
    { "memsys.enabled", K_BOOL, NONE, offsetof(struct fe_config, memsys_on), 0, 0 },
    { "memsys.l1.unified_kib", K_UINT, U32(1, 65536), MS(l1_unified_kib), 4, 0 },
    { "memsys.l1.sets", K_UINT, U32(1, 1u << 20), MS(l1_sets), 4, 0 },
    { "memsys.l1.line", K_UINT, U32(1, 65536), MS(l1_line), 4, 0 },
    { "memsys.l1.sector", K_UINT, U32(1, 65536), MS(l1_sector), 4, 0 },
    { "memsys.l1.rf_kib", K_UINT, U32(0, 65536), MS(l1_rf_kib), 4, 0 },
    { "memsys.l1.carveouts_kib", K_LIST, U32(0, 65536), MS(l1_carveouts_kib), 4, 0 },
    { "memsys.llc.partitions", K_UINT, U32(1, 1024), MS(llc_partitions), 4, 0 },
    { "memsys.llc.sets", K_UINT, U32(1, 1u << 24), MS(llc_sets), 4, 0 },
    { "memsys.llc.ways", K_UINT, U32(1, 1024), MS(llc_ways), 4, 0 },
    { "memsys.llc.line", K_UINT, U32(1, 65536), MS(llc_line), 4, 0 },
    { "memsys.llc.sector", K_UINT, U32(1, 65536), MS(llc_sector), 4, 0 },
    { "memsys.llc.full_sets", K_UINT, U32(0, 1u << 24), MS(llc_full_sets), 4, 0 },
    { "memsys.llc.hash", K_CHOICE, CHOICE("linear|xor"), MS(llc_hash), 4, 0 },          /* enum mx_llc_hash */
    { "memsys.dram.channels", K_UINT, U32(1, MX_MEMSYS_MAX_CHANNELS), MS(dram_channels), 4, 0 },
    { "memsys.cache_sms", K_UINT, U32(0, 4095), MS(cache_sms), 4, 0 },
    { "memsys.xllc.mode", K_CHOICE, CHOICE("off|native|helper"), MS(xllc), 4, 0 },      /* enum mx_xllc_mode */
    { "memsys.xllc.variant", K_CHOICE, CHOICE("rf|l1|shm|rf+l1"), MS(xllc_variant), 4, 0 }, /* enum mx_xllc_variant */
    { "memsys.xllc.capacity_kib.rf", K_UINT, U32(0, 65536), MS(xllc_kib[MX_XV_RF]), 4, 0 },
    { "memsys.xllc.capacity_kib.l1", K_UINT, U32(0, 65536), MS(xllc_kib[MX_XV_L1]), 4, 0 },
    { "memsys.xllc.capacity_kib.shm", K_UINT, U32(0, 65536), MS(xllc_kib[MX_XV_SHM]), 4, 0 },
    { "memsys.xllc.capacity_kib.rf+l1", K_UINT, U32(0, 65536), MS(xllc_kib[MX_XV_RF_L1]), 4, 0 },
    { "memsys.xllc.ways", K_UINT, U32(1, 1024), MS(xllc_ways), 4, 0 },
    { "memsys.predictor", K_CHOICE, CHOICE("bloom|none|perfect"), MS(predictor), 4, 0 }, /* enum mx_predictor */
    { "memsys.bloom_k", K_UINT, U32(1, 16), MS(bloom_k), 4, 0 },
    { "memsys.compress", K_CHOICE, CHOICE("none|bdi"), MS(compress), 4, 0 },            /* enum mx_compress */
    { "memsys.bdi_epoch", K_UINT, U32(1, 1u << 30), MS(bdi_epoch), 4, 0 },
    { "memsys.xllc.check", K_BOOL, NONE, MS(xllc_check), 4, 0 },
    { "memsys.xllc.helper", K_PATH, NONE, offsetof(struct fe_config, xllc_helper), 0, 0 },
    { "memsys.query_unit.queue", K_UINT, U32(1, 65536), MS(qu_queue), 4, 0 },
    { "memsys.query_unit.buffer_bytes", K_UINT, U32(1, 1u << 24), MS(qu_buffer_bytes), 4, 0 },
    { "memsys.query_unit.service_cycles", K_UINT, U32(1, 1000000), MS(qu_service), 4, 0 },
    { "memsys.mem_trace", K_PATH, NONE, offsetof(struct fe_config, mem_trace), 0, 0 },
    { "system.name", K_CHOICE, CHOICE(FE_SYSTEM_NAMES), offsetof(struct fe_config, system), 4, 0 },
    { "system.compute_sms", K_SMS, { FE_NUM_UINT, 0, 4096, "an integer from 0 to 4096, or auto" },
      offsetof(struct fe_config, compute_sms), 4, 0 },
    { "system.applied", K_BOOL, NONE, offsetof(struct fe_config, system_applied), 4, 0 },
    { "timing.model", K_PATH, NONE, offsetof(struct fe_config, timing_model), 0, 0 },
    { "timing.issue_width", K_UINT, U32(1, 64), TM(issue_width), 4, 0 },
    { "timing.core_mhz", K_UINT, U32(1, 100000), TM(core_mhz), 4, 0 },
    { "timing.latency.int", K_UINT, U32(1, 100000), TM(unit_latency[MX_UNIT_INT]), 4, 0 },
    { "timing.latency.fp", K_UINT, U32(1, 100000), TM(unit_latency[MX_UNIT_FP]), 4, 0 },
    { "timing.latency.dp", K_UINT, U32(1, 100000), TM(unit_latency[MX_UNIT_DP]), 4, 0 },
    { "timing.latency.sfu", K_UINT, U32(1, 100000), TM(unit_latency[MX_UNIT_SFU]), 4, 0 },
    { "timing.latency.ldst", K_UINT, U32(1, 100000), TM(unit_latency[MX_UNIT_LDST]), 4, 0 },
    { "timing.latency.ctrl", K_UINT, U32(1, 100000), TM(unit_latency[MX_UNIT_CTRL]), 4, 0 },
    { "timing.latency.sync", K_UINT, U32(1, 100000), TM(unit_latency[MX_UNIT_SYNC]), 4, 0 },
    { "timing.latency.tex", K_UINT, U32(1, 100000), TM(unit_latency[MX_UNIT_TEX]), 4, 0 },
    { "timing.latency.tensor", K_UINT, U32(1, 100000), TM(unit_latency[MX_UNIT_TENSOR]), 4, 0 },
    { "timing.level.l1", K_UINT, U32(1, 100000), TM(level_latency[TM_LV_L1]), 4, 0 },
    { "timing.level.shared", K_UINT, U32(1, 100000), TM(level_latency[TM_LV_SHARED]), 4, 0 },
    { "timing.level.llc", K_UINT, U32(1, 100000), TM(level_latency[TM_LV_LLC]), 4, 0 },
    { "timing.level.xllc", K_UINT, U32(1, 100000), TM(level_latency[TM_LV_XLLC]), 4, 0 },
    { "timing.level.dram", K_UINT, U32(1, 100000), TM(level_latency[TM_LV_DRAM]), 4, 0 },
    { "timing.level.xllc_dram", K_UINT, U32(1, 100000), TM(level_latency[TM_LV_XLLC_DRAM]), 4, 0 },
    { "timing.level.xllc_trip", K_UINT, U32(1, 100000), TM(level_latency[TM_LV_XLLC_TRIP]), 4, 0 },
    { "timing.level.xllc_imov", K_UINT, U32(1, 100000), offsetof(struct fe_config, xllc_imov), 4, 0 },
    { "timing.mem_clock_scale", K_REAL, NONE, TM(mem_clock_scale), 0, 0 },
    { "timing.bandwidth.dram_gbps", K_REAL, NONE, TM(dram_gbps), 0, 0 },
    { "timing.bandwidth.llc_gbps", K_REAL, NONE, TM(llc_gbps), 0, 0 },
    { "timing.bandwidth.xllc_gbps_per_sm", K_REAL, NONE, TM(xllc_gbps_per_sm), 0, 0 },
    { "timing.initiation.int", K_UINT, U32(1, 100000), TM(initiation[MX_UNIT_INT]), 4, 0 },
    { "timing.initiation.fp", K_UINT, U32(1, 100000), TM(initiation[MX_UNIT_FP]), 4, 0 },
    { "timing.initiation.dp", K_UINT, U32(1, 100000), TM(initiation[MX_UNIT_DP]), 4, 0 },
    { "timing.initiation.sfu", K_UINT, U32(1, 100000), TM(initiation[MX_UNIT_SFU]), 4, 0 },
    { "timing.initiation.ldst", K_UINT, U32(1, 100000), TM(initiation[MX_UNIT_LDST]), 4, 0 },
    { "timing.initiation.ctrl", K_UINT, U32(1, 100000), TM(initiation[MX_UNIT_CTRL]), 4, 0 },
    { "timing.initiation.sync", K_UINT, U32(1, 100000), TM(initiation[MX_UNIT_SYNC]), 4, 0 },
    { "timing.initiation.tex", K_UINT, U32(1, 100000), TM(initiation[MX_UNIT_TEX]), 4, 0 },
    { "timing.initiation.tensor", K_UINT, U32(1, 100000), TM(initiation[MX_UNIT_TENSOR]), 4, 0 },
    { "timing.clock_mhz.icnt", K_UINT, U32(1, 100000), TM(icnt_mhz), 4, 0 },
    { "timing.clock_mhz.dram", K_UINT, U32(1, 100000), TM(dram_mhz), 4, 0 },
    { "timing.icnt.flit_bytes", K_UINT, U32(1, 4096), TM(icnt_flit_bytes), 4, 0 },
    { "timing.l1.lines_per_cycle", K_UINT, U32(1, 64), TM(l1_lines_per_cycle), 4, 0 },
    { "timing.dram.banks", K_UINT, U32(1, 1024), TM(dram_banks), 4, 0 },
    { "timing.dram.row_bytes", K_UINT, U32(128, 1u << 20), TM(dram_row_bytes), 4, 0 },
    { "timing.dram.trcd", K_UINT, U32(0, 100000), TM(dram_trcd), 4, 0 },
    { "timing.dram.trp", K_UINT, U32(0, 100000), TM(dram_trp), 4, 0 },
    { "timing.rf_banks", K_UINT, U32(0, 1024), TM(rf_banks), 4, 0 },
    { "timing.span", K_UINT, U32(0, 1u << 30), TM(span), 4, 0 },
    { "energy.warp_insn_pj", K_REAL, NONE, EN(warp_insn_pj), 0, 0 },
    { "energy.lane_op_pj.int", K_REAL, NONE, EN(lane_op_pj[MX_UNIT_INT]), 0, 0 },
    { "energy.lane_op_pj.fp", K_REAL, NONE, EN(lane_op_pj[MX_UNIT_FP]), 0, 0 },
    { "energy.lane_op_pj.dp", K_REAL, NONE, EN(lane_op_pj[MX_UNIT_DP]), 0, 0 },
    { "energy.lane_op_pj.sfu", K_REAL, NONE, EN(lane_op_pj[MX_UNIT_SFU]), 0, 0 },
    { "energy.lane_op_pj.tensor", K_REAL, NONE, EN(lane_op_pj[MX_UNIT_TENSOR]), 0, 0 },
    { "energy.rf_lane_pj", K_REAL, NONE, EN(rf_lane_pj), 0, 0 },
    { "energy.l1_sector_pj", K_REAL, NONE, EN(l1_sector_pj), 0, 0 },
    { "energy.llc_sector_pj", K_REAL, NONE, EN(llc_sector_pj), 0, 0 },
    { "energy.xllc_pj_per_byte", K_REAL, NONE, EN(xllc_pj_per_byte), 0, 0 },
    { "energy.xllc_measured_gbps_per_sm", K_REAL, NONE, EN(xllc_measured_gbps_per_sm), 0, 0 },
    { "energy.xllc_measured_sms", K_REAL, NONE, EN(xllc_measured_sms), 0, 0 },
    { "energy.dram_read_pj_per_byte", K_REAL, NONE, EN(dram_read_pj_per_byte), 0, 0 },
    { "energy.dram_write_pj_per_byte", K_REAL, NONE, EN(dram_write_pj_per_byte), 0, 0 },
    { "energy.const_w", K_REAL, NONE, EN(const_w), 0, 0 },
    { "energy.static_sm_w", K_REAL, NONE, EN(static_sm_w), 0, 0 },
    { "energy.controller_frac", K_REAL, NONE, EN(controller_frac), 0, 0 },
    { "emu.host_threads", K_UINT, U32(1, 256), EMU(host_threads), 4, 0 },
    { "emu.quantum", K_UINT, U32(1, 1u << 30), EMU(quantum), 4, 0 },
    { "emu.helper_quantum", K_UINT, U32(1, 1u << 30), EMU(helper_quantum), 4, 0 },
    { "emu.warp_sched", K_CHOICE, CHOICE("lrr|gto"), EMU(sched_policy), 4, 0 },
    { "emu.regs", K_CHOICE, CHOICE("live|declared"), EMU(reg_alloc), 4, 0 },
    { "emu.max_insns", K_INSNS, NONE, EMU(watchdog_insns), 8, 0 },
    { "emu.timeout", K_SECONDS, NONE, EMU(watchdog_seconds), 0, 0 },
    { "emu.isa_ext", K_EXTS, NONE, EMU(ext_mask), 0, 0 },
};
#define NKEYS (sizeof keys / sizeof keys[0])

const struct fe_config_opt fe_config_opts[] = { /* as many as FE_CONFIG_NOPTS, or the declaration conflicts */
    { "--sms", "gpu.num_sms", "MORPHEUS_SMS" },
    { "--mem-mb", "gpu.mem_mb", "MORPHEUS_MEM_MB" },
    { "--host-threads", "emu.host_threads", "MORPHEUS_HOST_THREADS" },
    { "--quantum", "emu.quantum", "MORPHEUS_QUANTUM" },
    { "--warp-sched", "emu.warp_sched", "MORPHEUS_WARP_SCHED" },
    { "--max-insns", "emu.max_insns", "MORPHEUS_MAX_INSNS" },
    { "--timeout", "emu.timeout", "MORPHEUS_TIMEOUT" },
    { "--isa-ext", "emu.isa_ext", "MORPHEUS_ISA_EXT" },
    { "--memsys", "memsys.enabled", "MORPHEUS_MEMSYS" },
    { "--cache-sms", "memsys.cache_sms", "MORPHEUS_CACHE_SMS" },
    { "--xllc", "memsys.xllc.mode", "MORPHEUS_XLLC" },
    { "--xllc-variant", "memsys.xllc.variant", "MORPHEUS_XLLC_VARIANT" },
    { "--predictor", "memsys.predictor", "MORPHEUS_PREDICTOR" },
    { "--compress", "memsys.compress", "MORPHEUS_COMPRESS" },
    { "--bdi-epoch", "memsys.bdi_epoch", "MORPHEUS_BDI_EPOCH" },
    { "--timing", "timing.model", "MORPHEUS_TIMING" },
    { "--system", "system.name", "MORPHEUS_SYSTEM" },
    { "--compute-sms", "system.compute_sms", "MORPHEUS_COMPUTE_SMS" },
    { "--mem-trace", "memsys.mem_trace", "MORPHEUS_MEM_TRACE" },
    { "--xllc-check", "memsys.xllc.check", "MORPHEUS_XLLC_CHECK" },
    { "--xllc-helper", "memsys.xllc.helper", "MORPHEUS_XLLC_HELPER" },
};
const size_t fe_config_nopts = sizeof fe_config_opts / sizeof fe_config_opts[0];

const struct fe_config_opt *fe_config_find_opt(const char *opt)
{
    for (size_t i = 0; i < fe_config_nopts; i++)
        if (!strcmp(fe_config_opts[i].opt, opt))
            return &fe_config_opts[i];
    return NULL;
}

static const struct key *find_key(const char *name)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (!strcmp(keys[i].name, name))
            return &keys[i];
    return NULL;
}

/* The memory hierarchy's defaults: the paper's baseline (Table 1, RTX 3080;
 * configs/rtx3080.json says the same, a test checks). */
static void memsys_builtin(struct mx_memsys_config *m) { mx_memsys_config_default(m); }

int fe_config_memsys_check(const struct fe_config *c, char *err, size_t errlen)
{
    if (mx_memsys_config_check(&c->memsys, err, errlen))
        return -1;
    /* the timing model too: it exists, loads and takes its arguments */
    struct fe_msys t = { 0 };
    struct emu_config ec = c->emu;
    if (fe_timing_open(&t, c, &ec, err, errlen))
        return -1;
    fe_msys_close(&t);
    return 0;
}

/* The RTX 3080's timing parameters (configs/rtx3080.json names the sources):
 * latencies from facts/gpu-parameters.md 1.3-1.4 (Accel-Sim's RTX 3070
 * tuning, the same SM generation), the extended LLC's from the paper (5:
 * 185 ns at 1710 MHz). */
static void timing_builtin(struct tm_params *t)
{
    static const uint32_t unit[TM_UNITS] = { 2, 2, 64, 21, 39, 4, 4, 200, 32 };
    memcpy(t->unit_latency, unit, sizeof unit);
    t->level_latency[TM_LV_NONE] = 0;
    t->level_latency[TM_LV_L1] = 39;
    t->level_latency[TM_LV_SHARED] = 29;
    t->level_latency[TM_LV_LLC] = 226;
    t->level_latency[TM_LV_XLLC] = 261; /* the LLC's 226 times the paper's 185/160 ns (configs/rtx3080.json) */
    t->level_latency[TM_LV_DRAM] = 480;
    t->level_latency[TM_LV_XLLC_DRAM] = 261 + 480 - 226; /* the lookup, then the partition's DRAM access */
    t->level_latency[TM_LV_XLLC_TRIP] = 64; /* level.xllc less the helper's unloaded hit (rf+l1, cycle model) */
    t->mem_clock_scale = 1;
    t->dram_gbps = 760;        /* 320-bit GDDR6X at 19 Gb/s (facts 1.2) */
    t->llc_gbps = 3000;        /* 10 partitions of about 300 GB/s (the paper 5, after Jia et al.) */
    t->xllc_gbps_per_sm = 37;  /* the paper 5: the register-file extended LLC with 48 warps */
    t->issue_width = 4;
    t->core_mhz = 1710;
    /* the cycle model's: initiation intervals int 2, fp 1, dp 64, sfu 8, tensor 32 (facts 1.4, Accel-Sim's
     * trace_opcode_latency_initiation), the rest 1; clocks core:icnt(and LLC) equal, DRAM 4750 MHz, 40-byte flits,
     * GDDR6X 16 banks, RCD 24, RP 24 DRAM cycles (facts 1.2); one L1 line per cycle (4 banks of 32-byte sectors,
     * facts 1.2); 2 KiB rows (GDDR6, x16) */
    static const uint32_t ii[TM_UNITS] = { 2, 1, 64, 8, 1, 1, 1, 1, 32 };
    memcpy(t->initiation, ii, sizeof ii);
    t->icnt_mhz = 1710;
    t->dram_mhz = 4750;
    t->icnt_flit_bytes = 40;
    t->l1_lines_per_cycle = 1;
    t->dram_banks = 16;
    t->dram_row_bytes = 2048;
    t->dram_trcd = t->dram_trp = 24;
    t->span = 16384; /* the cycle model's shares and factors: over 16384 cycles, whatever the quantum */
}

/* The RTX 3080's energies (configs/rtx3080.json names the sources): the
 * AccelWattch Volta fit the paper reuses (facts/energy.md 3-4) and the
 * paper's own figures (61 pJ/B extended LLC, +0.93 % controller). */
static void energy_builtin(struct tm_energy_params *e)
{
    e->warp_insn_pj = 152.5;
    e->lane_op_pj[MX_UNIT_INT] = 3.46;
    e->lane_op_pj[MX_UNIT_FP] = 9.99;
    e->lane_op_pj[MX_UNIT_DP] = 14.7;
    e->lane_op_pj[MX_UNIT_SFU] = 7.9;
    e->lane_op_pj[MX_UNIT_TENSOR] = 9.99;
    e->rf_lane_pj = 3.57;
    e->l1_sector_pj = 133;
    e->llc_sector_pj = 231;
    e->xllc_pj_per_byte = 61;
    e->xllc_measured_gbps_per_sm = 34;
    e->xllc_measured_sms = 68;
    e->dram_read_pj_per_byte = 62.8;
    e->dram_write_pj_per_byte = 34.9;
    e->const_w = 32.3;
    e->static_sm_w = 0.48;
    e->controller_frac = 0.0093;
}

void fe_config_default(struct fe_config *c, uint64_t max_insns_default, int memsys_default)
{
    memset(c, 0, sizeof *c);
    emu_config_default(&c->emu);
    memsys_builtin(&c->memsys);
    timing_builtin(&c->timing);
    c->xllc_imov = 254; /* level.xllc less the 7 cycles Indirect-MOV takes off the helper's unloaded hit */
    energy_builtin(&c->energy);
    c->max_insns_default = max_insns_default;
    c->emu.watchdog_insns = max_insns_default;
    c->memsys_on_default = c->memsys_on = memsys_default;
    snprintf(c->name, sizeof c->name, "rtx3080");
    snprintf(c->description, sizeof c->description, "the built-in defaults: RTX 3080, the paper's baseline (Table 1)");
    snprintf(c->source, sizeof c->source,
             "emu_config_default (emu/device.c) and the memory hierarchy's defaults; configs/rtx3080.json says the same, "
             "with its sources");
}

/* ---------------------------------------------------------------- values from text */

static void *field(struct fe_config *c, const struct key *k) { return (char *)c + k->off; }

static int bad(char *err, size_t errlen, const char *name, const char *expect, const char *v)
{
    snprintf(err, errlen, "%s: expected %s, got '%s'", name, expect, v);
    return -1;
}

/* Parses v as key k and stores it in c; messages name `name` (the key or
 * the option). */
static int set_value_raw(struct fe_config *c, const struct key *k, const char *name, const char *v, char *err,
                         size_t errlen);

/* Sets key k from text v; a value not from a file or a preset is "given". */
static int set_value(struct fe_config *c, const struct key *k, const char *name, const char *v, char *err, size_t errlen)
{
    _Static_assert(NKEYS <= sizeof c->given, "fe_config.given has a byte per key");
    int rc = set_value_raw(c, k, name, v, err, errlen);
    if (!rc && !c->quiet)
        c->given[k - keys] = 1;
    return rc;
}

static int set_value_raw(struct fe_config *c, const struct key *k, const char *name, const char *v, char *err,
                         size_t errlen)
{
    char e[256];
    uint64_t u;
    switch (k->type) {
    case K_SMS:
        if (!strcmp(v, "auto")) {
            *(uint32_t *)field(c, k) = FE_SMS_AUTO;
            return 0;
        }
        /* fall through */
    case K_UINT:
    case K_CHOICE:
        if (fe_num_parse(v, &k->num, &u, NULL, e, sizeof e)) {
            snprintf(err, errlen, "%s: %s", name, e);
            return -1;
        }
        if (k->scale)
            u *= k->scale;
        if (k->width == 8)
            *(uint64_t *)field(c, k) = u;
        else
            *(uint32_t *)field(c, k) = (uint32_t)u;
        return 0;
    case K_INSNS:
        if (fe_num_parse(v, &fe_num_max_insns, &c->emu.watchdog_insns, NULL, e, sizeof e)) {
            snprintf(err, errlen, "%s: %s", name, e);
            return -1;
        }
        c->max_insns_set = 1;
        return 0;
    case K_SECONDS:
    case K_REAL:
        if (fe_num_parse(v, k->type == K_REAL ? &fe_num_real : &fe_num_timeout, NULL, (double *)field(c, k), e,
                         sizeof e)) {
            snprintf(err, errlen, "%s: %s", name, e);
            return -1;
        }
        return 0;
    case K_BOOL: {
        static const struct fe_num b = { FE_NUM_CHOICE, 0, 0, "on|off|true|false" };
        if (fe_num_parse(v, &b, &u, NULL, e, sizeof e)) {
            snprintf(err, errlen, "%s: %s", name, e);
            return -1;
        }
        *(int *)((char *)c + k->off) = !(u & 1);
        if (k->off == offsetof(struct fe_config, memsys_on))
            c->memsys_on_set = 1;
        return 0;
    }
    case K_LIST: {
        uint32_t vals[MX_MEMSYS_MAX_CARVEOUTS];
        size_t n = 0;
        char expect[160];
        snprintf(expect, sizeof expect, "1 to %d integers from %llu to %llu separated by commas", MX_MEMSYS_MAX_CARVEOUTS,
                 (unsigned long long)k->num.min, (unsigned long long)k->num.max);
        for (const char *p = v;; n++) {
            size_t len = strcspn(p, ",");
            char part[32];
            if (n == MX_MEMSYS_MAX_CARVEOUTS || len >= sizeof part)
                return bad(err, errlen, name, expect, v);
            memcpy(part, p, len);
            part[len] = 0;
            if (fe_num_parse(part, &k->num, &u, NULL, e, sizeof e))
                return bad(err, errlen, name, expect, v);
            vals[n] = (uint32_t)u;
            if (!p[len]) {
                n++;
                break;
            }
            p += len + 1;
        }
        memcpy(c->memsys.l1_carveouts_kib, vals, n * sizeof vals[0]);
        c->memsys.l1_ncarveouts = (uint32_t)n;
        return 0;
    }
    case K_PATH:
        if (strlen(v) >= FE_CONFIG_PATH_MAX)
            return bad(err, errlen, name, "a path shorter than 4096 bytes", v);
        snprintf((char *)c + k->off, FE_CONFIG_PATH_MAX, "%s", v);
        return 0;
    case K_CC: {
        /* MAJOR.MINOR: 1 to 2 digits, a dot, one digit */
        size_t d = strspn(v, "0123456789");
        if (d < 1 || d > 2 || v[d] != '.' || v[d + 1] < '0' || v[d + 1] > '9' || v[d + 2] || (d == 2 && v[0] == '0') ||
            (d == 1 && v[0] == '0'))
            return bad(err, errlen, name, "a compute capability MAJOR.MINOR such as 8.6", v);
        c->emu.cc_major = (uint32_t)atoi(v);
        c->emu.cc_minor = (uint32_t)(v[d + 1] - '0');
        return 0;
    }
    case K_EXTS: {
        uint32_t mask = 0;
        char expect[160] = "ISA extension names separated by commas (";
        for (int x = 1; x < MX_EXT__COUNT; x++)
            snprintf(expect + strlen(expect), sizeof expect - strlen(expect), "%s%s", x > 1 ? ", " : "", mx_ext_name(x));
        snprintf(expect + strlen(expect), sizeof expect - strlen(expect), ")");
        for (const char *p = v; *p;) {
            size_t len = strcspn(p, ",");
            char part[64];
            if (!len || len >= sizeof part)
                return bad(err, errlen, name, expect, v);
            memcpy(part, p, len);
            part[len] = 0;
            int x = mx_ext_lookup(part);
            if (x == MX_EXT_NONE)
                return bad(err, errlen, name, expect, v);
            mask |= 1u << x;
            p += len + (p[len] == ',');
            if (p[-1] == ',' && !*p)
                return bad(err, errlen, name, expect, v);
        }
        c->emu.ext_mask = mask;
        return 0;
    }
    }
    return -1;
}

/* Edit distance of a and b, capped at 3 (for "did you mean"). */
static int near(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63 || (la > lb ? la - lb : lb - la) > 2)
        return 3;
    int d[64][64];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int x = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), y = d[i - 1][j] + 1, z = d[i][j - 1] + 1;
            d[i][j] = x < y ? (x < z ? x : z) : (y < z ? y : z);
        }
    return d[la][lb] < 3 ? d[la][lb] : 3;
}

static int unknown_key(const char *name, char *err, size_t errlen)
{
    const char *best = NULL;
    int bd = 3;
    for (size_t i = 0; i < NKEYS; i++) {
        int d = near(name, keys[i].name);
        if (d < bd)
            bd = d, best = keys[i].name;
    }
    if (best)
        snprintf(err, errlen, "unknown key '%s' (did you mean '%s'?)", name, best);
    else
        snprintf(err, errlen, "unknown key '%s' (morpheus config show rtx3080 lists every key)", name);
    return -1;
}

int fe_config_given(const struct fe_config *c, const char *key)
{
    const struct key *k = find_key(key);
    return k && c->given[k - keys];
}

int fe_config_set(struct fe_config *c, const char *key, const char *value, char *err, size_t errlen)
{
    const struct key *k = find_key(key);
    if (!k)
        return unknown_key(key, err, errlen);
    return set_value(c, k, key, value, err, errlen);
}

int fe_config_override(struct fe_config *c, const char *kv, char *err, size_t errlen)
{
    const char *eq = strchr(kv, '=');
    char key[128];
    if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof key) {
        snprintf(err, errlen, "expected KEY=VALUE, got '%s'", kv);
        return -1;
    }
    memcpy(key, kv, (size_t)(eq - kv));
    key[eq - kv] = 0;
    return fe_config_set(c, key, eq + 1, err, errlen);
}

int fe_config_option(struct fe_config *c, const struct fe_config_opt *o, const char *name, const char *value, char *err,
                     size_t errlen)
{
    const struct key *k = find_key(o->key);
    return k ? set_value(c, k, name ? name : o->opt, value, err, errlen) : -1;
}

/* ---------------------------------------------------------------- JSON files */

/* The text a JSON leaf stands for, if its JSON type suits key k; else -1
 * with the message (the value shown as JSON). */
static int leaf_text(const struct key *k, json_object *v, char *out, size_t len, char *err, size_t errlen)
{
    enum json_type t = json_object_get_type(v);
    int ok;
    switch (k->type) {
    case K_UINT: ok = t == json_type_int; break;
    case K_SMS: ok = t == json_type_int || (t == json_type_string && !strcmp(json_object_get_string(v), "auto")); break;
    case K_INSNS: ok = t == json_type_int || t == json_type_null; break;
    case K_SECONDS:
    case K_REAL: ok = t == json_type_int || t == json_type_double; break;
    case K_BOOL: ok = t == json_type_boolean || t == json_type_null; break;
    case K_PATH: ok = t == json_type_string || t == json_type_null; break;
    case K_LIST:
    case K_EXTS: {
        ok = t == json_type_array;
        size_t o = 0, n = ok ? json_object_array_length(v) : 0;
        out[0] = 0;
        for (size_t i = 0; ok && i < n; i++) {
            json_object *e = json_object_array_get_idx(v, i);
            enum json_type et = json_object_get_type(e);
            if (et != (k->type == K_LIST ? json_type_int : json_type_string)) {
                ok = 0;
                break;
            }
            const char *s = k->type == K_LIST ? json_object_to_json_string(e) : json_object_get_string(e);
            o += (size_t)snprintf(out + o, o < len ? len - o : 0, "%s%s", i ? "," : "", s);
        }
        if (ok && (o >= len || (k->type == K_LIST && !n)))
            ok = 0;
        if (ok)
            return 0;
        break;
    }
    default: ok = t == json_type_string; break; /* K_CHOICE, K_CC */
    }
    if (ok && k->type != K_LIST && k->type != K_EXTS) {
        const char *s = t == json_type_null ? "" : t == json_type_string ? json_object_get_string(v) : json_object_to_json_string(v);
        if (t == json_type_boolean)
            s = json_object_get_boolean(v) ? "true" : "false";
        if (strlen(s) >= len)
            ok = 0;
        else {
            snprintf(out, len, "%s", s);
            return 0;
        }
    }
    static const char *const what[] = {
        [K_UINT] = "an integer", [K_SECONDS] = "a number of seconds", [K_REAL] = "a number", [K_CHOICE] = "a string",
        [K_BOOL] = "true, false or null", [K_LIST] = "an array of integers", [K_PATH] = "a string or null",
        [K_CC] = "a string such as \"8.6\"", [K_EXTS] = "an array of strings", [K_INSNS] = "an integer or null",
        [K_SMS] = "an integer or \"auto\"",
    };
    char shown[128];
    snprintf(shown, sizeof shown, "%s", json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
    if (k->type == K_UINT || k->type == K_CHOICE) {
        /* the same words as a bad value of the right type */
        char e[256];
        fe_num_parse("", &k->num, NULL, NULL, e, sizeof e);
        char *got = strstr(e, ", got '");
        if (got)
            *got = 0;
        snprintf(err, errlen, "%s: %s, got '%s'", k->name, e, shown);
    } else
        snprintf(err, errlen, "%s: expected %s, got '%s'", k->name, what[k->type], shown);
    return -1;
}

/* Applies the members of JSON object o found at dotted prefix `path`. */
static int apply_object(struct fe_config *c, json_object *o, const char *path, char *err, size_t errlen)
{
    json_object_object_foreach(o, name, v) {
        char full[192];
        snprintf(full, sizeof full, "%s%s%s", path, *path ? "." : "", name);
        if (!*path && (!strcmp(name, "description") || !strcmp(name, "source"))) {
            char *dst = name[0] == 'd' ? c->description : c->source;
            size_t cap = name[0] == 'd' ? sizeof c->description : sizeof c->source;
            if (!json_object_is_type(v, json_type_string) || strlen(json_object_get_string(v)) >= cap) {
                snprintf(err, errlen, "%s: expected a string shorter than %zu bytes", name, cap);
                return -1;
            }
            snprintf(dst, cap, "%s", json_object_get_string(v));
            continue;
        }
        const struct key *k = find_key(full);
        if (!k) {
            size_t fl = strlen(full);
            int section = 0;
            for (size_t i = 0; i < NKEYS && !section; i++)
                section = !strncmp(keys[i].name, full, fl) && keys[i].name[fl] == '.';
            if (!section)
                return unknown_key(full, err, errlen);
            if (!json_object_is_type(v, json_type_object)) {
                snprintf(err, errlen, "%s: expected an object (a section of keys), got '%s'", full,
                         json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
                return -1;
            }
            if (apply_object(c, v, full, err, errlen))
                return -1;
            continue;
        }
        char text[FE_CONFIG_PATH_MAX + 64];
        if (leaf_text(k, v, text, sizeof text, err, errlen))
            return -1;
        if (k->type == K_INSNS && json_object_is_type(v, json_type_null)) {
            c->max_insns_set = 0;
            c->emu.watchdog_insns = c->max_insns_default;
            continue;
        }
        if (k->type == K_BOOL && json_object_is_type(v, json_type_null)) {
            if (k->off == offsetof(struct fe_config, memsys_on)) {
                c->memsys_on_set = 0;
                c->memsys_on = c->memsys_on_default;
            } else {
                *(int *)((char *)c + k->off) = 0;
            }
            continue;
        }
        if (set_value(c, k, k->name, text, err, errlen))
            return -1;
    }
    return 0;
}

int fe_config_apply_json(struct fe_config *c, const char *text, const char *where, char *err, size_t errlen)
{
    json_tokener *tok = json_tokener_new();
    if (!tok) {
        snprintf(err, errlen, "%s: out of memory", where);
        return -1;
    }
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT); /* no trailing commas, no single quotes */
    size_t len = strlen(text);
    json_object *root = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error je = json_tokener_get_error(tok);
    size_t at = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (!root || je != json_tokener_success || text[at + strspn(text + at, " \t\r\n")]) {
        if (je == json_tokener_success)
            je = root ? json_tokener_error_parse_unexpected : json_tokener_continue;
        int line = 1, col = 1;
        for (size_t i = 0; i < at && i < len; i++, col++)
            if (text[i] == '\n')
                line++, col = 0;
        snprintf(err, errlen, "%s:%d:%d: not JSON: %s", where, line, col,
                 je == json_tokener_continue ? "unexpected end of file" : json_tokener_error_desc(je));
        json_object_put(root);
        return -1;
    }
    int rc;
    if (!json_object_is_type(root, json_type_object)) {
        snprintf(err, errlen, "%s: expected a JSON object with sections gpu, memsys, emu", where);
        rc = -1;
    } else {
        char e[512];
        rc = apply_object(c, root, "", e, sizeof e);
        if (rc)
            snprintf(err, errlen, "%s: %s", where, e);
    }
    json_object_put(root);
    return rc;
}

/* ---------------------------------------------------------------- finding files */

/* Directory of the binary or library this code is in. */
static int self_dir(char *out, size_t len)
{
    Dl_info info;
    if (dladdr((void *)self_dir, &info) && info.dli_fname && strchr(info.dli_fname, '/')) {
        char real[PATH_MAX];
        if (realpath(info.dli_fname, real)) {
            char *s = strrchr(real, '/');
            *s = 0;
            snprintf(out, len, "%s", real);
            return 0;
        }
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = 0;
    *strrchr(self, '/') = 0;
    snprintf(out, len, "%s", self);
    return 0;
}

int fe_config_dir(char *out, size_t len)
{
    char dir[PATH_MAX];
    if (!self_dir(dir, sizeof dir)) {
        static const char *const rel[] = { "/../share/morpheus/configs", "/../../share/morpheus/configs" };
        for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
            snprintf(out, len, "%s%s", dir, rel[i]);
            if (!access(out, R_OK | X_OK))
                return 0;
        }
    }
#ifdef SOURCE_ROOT
    snprintf(out, len, "%s/configs", SOURCE_ROOT);
    if (!access(out, R_OK | X_OK))
        return 0;
#endif
    return -1;
}

static int is_name(const char *s)
{
    if (!*s || strlen(s) > 48)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'))
            return 0;
    return 1;
}

int fe_config_path(const char *what, char *out, size_t len, char *err, size_t errlen)
{
    size_t wl = strlen(what);
    if (strchr(what, '/') || (wl > 5 && !strcmp(what + wl - 5, ".json"))) {
        snprintf(out, len, "%s", what);
        return 0;
    }
    char dir[PATH_MAX];
    if (is_name(what) && !fe_config_dir(dir, sizeof dir)) {
        snprintf(out, len, "%s/%s.json", dir, what);
        if (!access(out, R_OK))
            return 0;
    }
    size_t o = (size_t)snprintf(err, errlen, "config '%s': no such configuration (built in:", what);
    DIR *d = fe_config_dir(dir, sizeof dir) ? NULL : opendir(dir);
    char names[16][64];
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) && n < 16;) {
        size_t l = strlen(e->d_name);
        if (l > 5 && l < 64 && !strcmp(e->d_name + l - 5, ".json"))
            snprintf(names[n++], 64, "%.*s", (int)(l - 5), e->d_name);
    }
    if (d)
        closedir(d);
    qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    for (int i = 0; i < n && o < errlen; i++)
        o += (size_t)snprintf(err + o, errlen - o, " %s", names[i]);
    if (o < errlen)
        snprintf(err + o, errlen - o, "%s; a file needs a '/' or .json)", n ? "" : " none found");
    return -1;
}

static int load_file(struct fe_config *c, const char *what, char *err, size_t errlen);

int fe_config_load(struct fe_config *c, const char *what, char *err, size_t errlen)
{
    int quiet = c->quiet;
    c->quiet = 1; /* a file's values are not "given": a system preset applies on top of them */
    int rc = load_file(c, what, err, errlen);
    c->quiet = quiet;
    return rc;
}

static int load_file(struct fe_config *c, const char *what, char *err, size_t errlen)
{
    char path[FE_CONFIG_PATH_MAX], where[FE_CONFIG_PATH_MAX + 16];
    if (fe_config_path(what, path, sizeof path, err, errlen))
        return -1;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    int builtin = strcmp(path, what) != 0;
    snprintf(where, sizeof where, "config %s", builtin ? base : what);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", where, strerror(errno));
        return -1;
    }
    char *text = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            char *t = realloc(text, cap = cap ? cap * 2 : 8192);
            if (!t) {
                free(text);
                fclose(f);
                snprintf(err, errlen, "%s: out of memory", where);
                return -1;
            }
            text = t;
        }
        size_t r = fread(text + n, 1, cap - n - 1, f);
        n += r;
        if (!r)
            break;
    }
    int ioerr = ferror(f);
    fclose(f);
    if (ioerr || n > (1u << 24) || memchr(text, 0, n)) {
        snprintf(err, errlen, "%s: %s", where, ioerr ? strerror(EIO) : "not a text file");
        free(text);
        return -1;
    }
    text[n] = 0;
    int rc = fe_config_apply_json(c, text, where, err, errlen);
    free(text);
    if (!rc) {
        size_t bl = strlen(base);
        if (bl > 5 && !strcmp(base + bl - 5, ".json"))
            bl -= 5;
        snprintf(c->name, sizeof c->name, "%.*s", (int)(bl < sizeof c->name ? bl : sizeof c->name - 1), base);
    }
    return rc;
}

/* ---------------------------------------------------------------- environment */

int fe_config_apply_env(struct fe_config *c, char *err, size_t errlen)
{
    char e[1024];
    const char *v = getenv("MORPHEUS_CONFIG");
    if (v && *v && fe_config_load(c, v, e, sizeof e)) {
        snprintf(err, errlen, "MORPHEUS_CONFIG: %s", e);
        return -1;
    }
    v = getenv("MORPHEUS_O");
    if (v && *v) {
        char *list = strdup(v);
        if (!list) {
            snprintf(err, errlen, "MORPHEUS_O: out of memory");
            return -1;
        }
        int rc = 0;
        for (char *save = NULL, *kv = strtok_r(list, "\n", &save); kv && !rc; kv = strtok_r(NULL, "\n", &save))
            if ((rc = fe_config_override(c, kv, e, sizeof e)))
                snprintf(err, errlen, "MORPHEUS_O: %s", e);
        free(list);
        if (rc)
            return -1;
    }
    for (size_t i = 0; i < fe_config_nopts; i++) {
        const struct fe_config_opt *o = &fe_config_opts[i];
        v = getenv(o->env);
        if (!v || !*v)
            continue;
        if (set_value(c, find_key(o->key), o->env, v, err, errlen))
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- checks */

int fe_config_finish(struct fe_config *c, char *err, size_t errlen)
{
    if (fe_system_apply(c, err, errlen))
        return -1;
    struct emu_config *g = &c->emu;
    c->memsys.num_sms = g->num_sms;
    c->memsys.helper_warps = g->max_warps_per_sm;
    g->cache_sms = c->memsys.cache_sms;
    c->memsys.mem_trace = c->mem_trace[0] ? c->mem_trace : NULL;
    if (c->memsys.cache_sms >= g->num_sms) {
        snprintf(err, errlen, "memsys.cache_sms: %u cache-mode SMs leave no compute-mode SM of the %u (gpu.num_sms); expected at most %u",
                 c->memsys.cache_sms, g->num_sms, g->num_sms - 1);
        return -1;
    }
    if (g->max_threads_per_cta > g->max_threads_per_sm) {
        snprintf(err, errlen, "gpu.max_threads_per_cta: %u is more than gpu.max_threads_per_sm (%u)", g->max_threads_per_cta,
                 g->max_threads_per_sm);
        return -1;
    }
    if (g->max_threads_per_sm > 32ull * g->max_warps_per_sm) {
        snprintf(err, errlen, "gpu.max_threads_per_sm: %u threads need more than gpu.max_warps_per_sm (%u) warps of 32",
                 g->max_threads_per_sm, g->max_warps_per_sm);
        return -1;
    }
    if (g->shared_per_cta > g->shared_per_sm) {
        snprintf(err, errlen, "gpu.shared_per_cta: %u bytes is more than gpu.shared_per_sm (%u)", g->shared_per_cta,
                 g->shared_per_sm);
        return -1;
    }
    /* the native extended LLC times no helper instructions: with the Indirect-MOV instruction its accesses
     * are shorter by what the instruction saves the helper's hit (timing.level.xllc_imov, calibrated against
     * the helper kernels by tests/timing/helper_e2e.py), unless level.xllc was given; the same cycles off a
     * miss there.  Applied once: then level.xllc is xllc_imov. */
    uint32_t *lv = c->timing.level_latency;
    if (c->memsys.xllc == MX_XLLC_NATIVE && c->xllc_imov && c->xllc_imov < lv[TM_LV_XLLC] &&
        (g->ext_mask & (1u << mx_ext_lookup("indirect-mov"))) && !fe_config_given(c, "timing.level.xllc")) {
        uint32_t d = lv[TM_LV_XLLC] - c->xllc_imov;
        lv[TM_LV_XLLC] = c->xllc_imov;
        if (!fe_config_given(c, "timing.level.xllc_dram") && lv[TM_LV_XLLC_DRAM] > d)
            lv[TM_LV_XLLC_DRAM] -= d;
    }
    if (!(c->timing.mem_clock_scale >= 0.1 && c->timing.mem_clock_scale <= 10)) {
        snprintf(err, errlen, "timing.mem_clock_scale: %g is not a clock ratio from 0.1 to 10", c->timing.mem_clock_scale);
        return -1;
    }
    if (tm_energy_xllc_pj(&c->energy) < 0) {
        const struct tm_energy_params *e = &c->energy;
        snprintf(err, errlen,
                 "energy.xllc_pj_per_byte: %g pJ/B is less than the static power the model charges at its measurement "
                 "(energy.const_w %g W + energy.static_sm_w %g W x %g SMs over %g SMs x %g GB/s = %.1f pJ/B); "
                 "set energy.xllc_measured_sms=0 if it is already the extended LLC's own energy",
                 e->xllc_pj_per_byte, e->const_w, e->static_sm_w, e->xllc_measured_sms, e->xllc_measured_sms,
                 e->xllc_measured_gbps_per_sm, e->xllc_pj_per_byte - tm_energy_xllc_pj(e));
        return -1;
    }
    return fe_config_memsys_check(c, err, errlen);
}

/* ---------------------------------------------------------------- writing */

/* The JSON object at dotted prefix `path` of root, made on first use. */
static json_object *section(json_object *root, const char *name, size_t len)
{
    json_object *o = root;
    const char *p = name;
    while ((size_t)(p - name) < len) {
        size_t l = strcspn(p, ".");
        if ((size_t)(p - name) + l > len)
            l = len - (size_t)(p - name);
        char part[64];
        snprintf(part, sizeof part, "%.*s", (int)l, p);
        json_object *s;
        if (!json_object_object_get_ex(o, part, &s)) {
            s = json_object_new_object();
            json_object_object_add(o, part, s);
        }
        o = s;
        p += l + (p[l] == '.');
    }
    return o;
}

static json_object *leaf_json(const struct fe_config *c, const struct key *k)
{
    const void *f = (const char *)c + k->off;
    switch (k->type) {
    case K_UINT: {
        uint64_t u = k->width == 8 ? *(const uint64_t *)f : *(const uint32_t *)f;
        return json_object_new_int64((int64_t)(k->scale ? u / k->scale : u));
    }
    case K_INSNS:
        return c->max_insns_set ? json_object_new_uint64(c->emu.watchdog_insns) : NULL;
    case K_SMS:
        if (*(const uint32_t *)f == FE_SMS_AUTO)
            return json_object_new_string("auto");
        return json_object_new_int64(*(const uint32_t *)f);
    case K_SECONDS:
    case K_REAL: return json_object_new_double(*(const double *)f);
    case K_BOOL:
        if (k->off == offsetof(struct fe_config, memsys_on))
            return c->memsys_on_set ? json_object_new_boolean(c->memsys_on) : NULL;
        return json_object_new_boolean(*(const int *)f);
    case K_CHOICE: {
        uint32_t i = *(const uint32_t *)f;
        const char *n = k->num.expect;
        for (; i && *n; i--)
            n += strcspn(n, "|") + (n[strcspn(n, "|")] == '|');
        return json_object_new_string_len(n, (int)strcspn(n, "|"));
    }
    case K_LIST: {
        json_object *a = json_object_new_array();
        for (uint32_t i = 0; i < c->memsys.l1_ncarveouts; i++)
            json_object_array_add(a, json_object_new_int64(c->memsys.l1_carveouts_kib[i]));
        return a;
    }
    case K_PATH: return *(const char *)f ? json_object_new_string((const char *)f) : NULL;
    case K_CC: {
        char s[16];
        snprintf(s, sizeof s, "%u.%u", c->emu.cc_major, c->emu.cc_minor);
        return json_object_new_string(s);
    }
    case K_EXTS: {
        json_object *a = json_object_new_array();
        for (int x = 1; x < MX_EXT__COUNT; x++)
            if (c->emu.ext_mask & (1u << x))
                json_object_array_add(a, json_object_new_string(mx_ext_name(x)));
        return a;
    }
    }
    return NULL;
}

int fe_config_write(const struct fe_config *c, FILE *out)
{
    json_object *root = json_object_new_object();
    json_object_object_add(root, "description", json_object_new_string(c->description));
    json_object_object_add(root, "source", json_object_new_string(c->source));
    for (size_t i = 0; i < NKEYS; i++) {
        const char *dot = strrchr(keys[i].name, '.');
        json_object *s = section(root, keys[i].name, (size_t)(dot - keys[i].name));
        json_object_object_add(s, dot + 1, leaf_json(c, &keys[i]));
    }
    const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                                JSON_C_TO_STRING_NOSLASHESCAPE);
    int rc = fprintf(out, "%s\n", text) < 0 ? -1 : 0;
    json_object_put(root);
    return rc;
}

/* ---------------------------------------------------------------- command lines */

int fe_config_cli_arg(struct fe_config_cli *cl, const char *cmd, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    const struct fe_config_opt *o = fe_config_find_opt(a);
    if (!o && strcmp(a, "--config") && strcmp(a, "-o"))
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "morpheus %s: %s needs a value\n", cmd, a);
        return -1;
    }
    const char *v = argv[++*i];
    struct fe_config scratch;
    char err[1024];
    fe_config_default(&scratch, 0, 0);
    if (o) {
        if (fe_config_option(&scratch, o, NULL, v, err, sizeof err)) {
            fprintf(stderr, "morpheus %s: %s\n", cmd, err);
            return -1;
        }
        cl->opt[o - fe_config_opts] = v;
    } else if (a[1] == 'o') {
        if (cl->no == (int)(sizeof cl->o / sizeof cl->o[0])) {
            fprintf(stderr, "morpheus %s: more than %d -o\n", cmd, cl->no);
            return -1;
        }
        if (fe_config_override(&scratch, v, err, sizeof err)) {
            fprintf(stderr, "morpheus %s: -o: %s\n", cmd, err);
            return -1;
        }
        cl->o[cl->no++] = v;
    } else {
        if (fe_config_load(&scratch, v, err, sizeof err)) {
            fprintf(stderr, "morpheus %s: %s\n", cmd, err);
            return -1;
        }
        cl->config = v;
    }
    return 1;
}

int fe_config_cli_resolve(struct fe_config *c, const struct fe_config_cli *cl, const char *cmd, uint64_t max_insns_default,
                          int memsys_default)
{
    char err[1024];
    fe_config_default(c, max_insns_default, memsys_default);
    if (cl->config && fe_config_load(c, cl->config, err, sizeof err)) {
        fprintf(stderr, "morpheus %s: %s\n", cmd, err);
        return -1;
    }
    for (int k = 0; k < cl->no; k++)
        if (fe_config_override(c, cl->o[k], err, sizeof err)) {
            fprintf(stderr, "morpheus %s: -o: %s\n", cmd, err);
            return -1;
        }
    for (size_t k = 0; k < FE_CONFIG_NOPTS; k++)
        if (cl->opt[k] && fe_config_option(c, &fe_config_opts[k], NULL, cl->opt[k], err, sizeof err)) {
            fprintf(stderr, "morpheus %s: %s\n", cmd, err);
            return -1;
        }
    if (fe_config_finish(c, err, sizeof err)) {
        fprintf(stderr, "morpheus %s: %s\n", cmd, err);
        return -1;
    }
    return 0;
}

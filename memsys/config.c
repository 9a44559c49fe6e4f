/* memsys/config.c — the hierarchy's configuration: the RTX 3080 baseline
 * (MICRO'22 Table 1; cache geometries from facts/gpu-parameters.md §1.2)
 * and the check that names the offending key, so a bad configuration file
 * or option is reported, never run. */
#include "memsys/bloom.h"
#include "mx/memsys.h"
#include "memsys/morpheus.h"
#include "mx/status.h"

#include <stdio.h>
#include <string.h>

void mx_memsys_config_default(struct mx_memsys_config *c)
{
    static const uint32_t carve[] = { 0, 8, 16, 32, 64, 100 }; /* GA102 shared-memory carve-outs (KiB) */
    memset(c, 0, sizeof *c);
    c->num_sms = 68;
    c->cache_sms = 0;
    c->l1_unified_kib = 128;
    c->l1_sets = 4; /* Accel-Sim's S:4:128:256: 4 sets x 256 ways x 128 B with no carve-out */
    c->l1_line = 128;
    c->l1_sector = 32;
    memcpy(c->l1_carveouts_kib, carve, sizeof carve);
    c->l1_ncarveouts = sizeof carve / sizeof carve[0];
    c->llc_partitions = 10; /* 512 KiB of L2 per 32-bit controller, 10 on the 3080: 5 MiB */
    c->llc_sets = 256;
    c->llc_ways = 16;
    c->llc_line = 128;
    c->llc_sector = 32;
    c->llc_hash = MX_HASH_LINEAR;
    c->dram_channels = 10;
    c->xllc = MX_XLLC_OFF;
    c->xllc_variant = MX_XV_RF_L1; /* the paper's evaluated configuration (§5, §6) */
    /* Extended-LLC capacity per cache-mode SM (paper §5): via RF with 8
     * warps 239 KiB; via L1 128 KiB ("8 warps for the extended LLC via L1
     * (providing 128 KiB capacity)"); via shared memory the largest
     * carve-out, 100 KiB; RF (32 warps) + L1 (16 warps) 328 KiB.
     * Placeholders until the extended LLC lands. */
    c->xllc_kib[MX_XV_RF] = 239;
    c->xllc_kib[MX_XV_L1] = 128;
    c->xllc_kib[MX_XV_SHM] = 100;
    c->xllc_kib[MX_XV_RF_L1] = 328;
    c->helper_warps = 48;
    c->xllc_ways = 64; /* every variant then has at most one set per helper warp (48 per SM): rf+l1 328 KiB = 41
                          sets, rf 239 KiB = 29, l1 128 KiB = 16, shm 100 KiB = 12; a set's tags fill two metadata
                          registers of 32 lanes (§4.2.1: one lane per way) */
    c->predictor = MX_PRED_BLOOM;
    c->bloom_k = 4;
    c->compress = MX_COMP_NONE;
    c->bdi_epoch = 10000;
    c->qu_queue = 32;
    c->qu_buffer_bytes = 5120;
    c->qu_service = MORPHEUS_SERVICE_CYCLES;
    c->mem_trace = NULL;
}

static int pow2(uint64_t x) { return x && !(x & (x - 1)); }

#define FAIL(...)                                                              \
    do {                                                                       \
        snprintf(err, errlen, __VA_ARGS__);                                    \
        return MX_EINVAL;                                                      \
    } while (0)

/* A line and a sector size: powers of two, at most 32 sectors a line (a
 * sector mask is 32 bits). */
static int check_line(const char *lvl, uint32_t line, uint32_t sector, char *err, size_t errlen)
{
    if (!pow2(line) || line < 8 || line > 4096)
        FAIL("memsys.%s.line: must be a power of two from 8 to 4096 bytes, got %u", lvl, line);
    if (!pow2(sector) || sector > line || line / sector > 32)
        FAIL("memsys.%s.sector: must be a power of two dividing memsys.%s.line (%u) into at most 32 sectors, got %u",
             lvl, lvl, line, sector);
    return MX_OK;
}

int mx_memsys_config_check(const struct mx_memsys_config *c, char *err, size_t errlen)
{
    static const char *const variant[MX_XV_COUNT] = { "rf", "l1", "shm", "rf+l1" };
    if (c->num_sms < 1 || c->num_sms > 65536)
        FAIL("memsys.num_sms: must be from 1 to 65536, got %u", c->num_sms);
    if (c->cache_sms > c->num_sms)
        FAIL("memsys.cache_sms: %u cache-mode SMs but only %u SMs", c->cache_sms, c->num_sms);
    if (c->cache_sms == c->num_sms)
        FAIL("memsys.cache_sms: %u cache-mode SMs leave no compute-mode SM (%u SMs)", c->cache_sms, c->num_sms);
    /* L1 */
    if (c->l1_unified_kib < 1 || c->l1_unified_kib > 65536)
        FAIL("memsys.l1.unified_kib: must be from 1 to 65536 KiB, got %u", c->l1_unified_kib);
    if (!pow2(c->l1_sets) || c->l1_sets > 65536)
        FAIL("memsys.l1.sets: must be a power of two up to 65536, got %u", c->l1_sets);
    if (check_line("l1", c->l1_line, c->l1_sector, err, errlen))
        return MX_EINVAL;
    uint64_t set_bytes = (uint64_t)c->l1_sets * c->l1_line;
    if ((uint64_t)c->l1_unified_kib * 1024 < set_bytes)
        FAIL("memsys.l1.unified_kib: %u KiB holds no way of %u sets of %u-byte lines", c->l1_unified_kib, c->l1_sets,
             c->l1_line);
    if ((uint64_t)c->l1_unified_kib * 1024 / c->l1_line > (1u << 20))
        FAIL("memsys.l1.unified_kib: %u KiB of %u-byte lines is more than 2^20 lines", c->l1_unified_kib, c->l1_line);
    if (c->l1_rf_kib > 65536)
        FAIL("memsys.l1.rf_kib: must be from 0 to 65536 KiB, got %u", c->l1_rf_kib);
    if (((uint64_t)c->l1_unified_kib + c->l1_rf_kib) * 1024 / c->l1_line > (1u << 20))
        FAIL("memsys.l1.rf_kib: %u KiB and the unified %u KiB of %u-byte lines are more than 2^20 lines", c->l1_rf_kib,
             c->l1_unified_kib, c->l1_line);
    if (c->l1_ncarveouts > MX_MEMSYS_MAX_CARVEOUTS)
        FAIL("memsys.l1.carveouts_kib: at most %d carve-outs, got %u", MX_MEMSYS_MAX_CARVEOUTS, c->l1_ncarveouts);
    for (uint32_t i = 0; i < c->l1_ncarveouts; i++) {
        if (c->l1_carveouts_kib[i] > c->l1_unified_kib)
            FAIL("memsys.l1.carveouts_kib: %u KiB is more than memsys.l1.unified_kib (%u KiB)", c->l1_carveouts_kib[i],
                 c->l1_unified_kib);
        if (i && c->l1_carveouts_kib[i] <= c->l1_carveouts_kib[i - 1])
            FAIL("memsys.l1.carveouts_kib: must be ascending, got %u after %u", c->l1_carveouts_kib[i],
                 c->l1_carveouts_kib[i - 1]);
    }
    /* LLC */
    if (c->llc_partitions < 1 || c->llc_partitions > 1024)
        FAIL("memsys.llc.partitions: must be from 1 to 1024, got %u", c->llc_partitions);
    if (!pow2(c->llc_sets) || c->llc_sets > (1u << 20))
        FAIL("memsys.llc.sets: must be a power of two up to 2^20, got %u", c->llc_sets);
    if (c->llc_ways < 1 || c->llc_ways > 1024)
        FAIL("memsys.llc.ways: must be from 1 to 1024, got %u", c->llc_ways);
    if (check_line("llc", c->llc_line, c->llc_sector, err, errlen))
        return MX_EINVAL;
    /* an L1 miss travels as one L1 line with its sector mask */
    if (c->llc_line != c->l1_line)
        FAIL("memsys.llc.line: must equal memsys.l1.line (%u; requests travel as L1 lines), got %u", c->l1_line,
             c->llc_line);
    if (c->llc_sector != c->l1_sector)
        FAIL("memsys.llc.sector: must equal memsys.l1.sector (%u), got %u", c->l1_sector, c->llc_sector);
    if ((uint64_t)c->llc_partitions * c->llc_sets * c->llc_ways > (1u << 26))
        FAIL("memsys.llc.ways: %u partitions x %u sets x %u ways is more than 2^26 lines", c->llc_partitions,
             c->llc_sets, c->llc_ways);
    if (c->llc_full_sets > c->llc_sets)
        FAIL("memsys.llc.full_sets: at most memsys.llc.sets (%u), got %u", c->llc_sets, c->llc_full_sets);
    if (c->llc_full_sets && c->llc_ways < 2)
        FAIL("memsys.llc.full_sets: the other sets would have no way (memsys.llc.ways %u)", c->llc_ways);
    if (c->llc_hash != MX_HASH_LINEAR && c->llc_hash != MX_HASH_XOR)
        FAIL("memsys.llc.hash: must be linear (%d) or xor (%d), got %u", MX_HASH_LINEAR, MX_HASH_XOR, c->llc_hash);
    /* DRAM */
    if (c->dram_channels < 1 || c->dram_channels > MX_MEMSYS_MAX_CHANNELS)
        FAIL("memsys.dram.channels: must be from 1 to %d, got %u", MX_MEMSYS_MAX_CHANNELS, c->dram_channels);
    /* Morpheus */
    if (c->xllc > MX_XLLC_HELPER)
        FAIL("memsys.xllc.mode: must be off (%d), native (%d) or helper (%d), got %u", MX_XLLC_OFF, MX_XLLC_NATIVE,
             MX_XLLC_HELPER, c->xllc);
    if (c->xllc_variant >= MX_XV_COUNT)
        FAIL("memsys.xllc.variant: must be rf, l1, shm or rf+l1 (0 to %d), got %u", MX_XV_COUNT - 1, c->xllc_variant);
    for (int v = 0; v < MX_XV_COUNT; v++)
        if (c->xllc_kib[v] > (1u << 20) || (c->xllc != MX_XLLC_OFF && v == (int)c->xllc_variant && !c->xllc_kib[v]))
            FAIL("memsys.xllc.capacity_kib.%s: must be from 1 to 2^20 KiB, got %u", variant[v], c->xllc_kib[v]);
    if (c->xllc_ways > 1024 || (c->xllc != MX_XLLC_OFF && c->xllc_ways < 1))
        FAIL("memsys.xllc.ways: must be from 1 to 1024, got %u", c->xllc_ways);
    if (c->predictor > MX_PRED_PERFECT)
        FAIL("memsys.predictor: must be bloom (%d), none (%d) or perfect (%d), got %u", MX_PRED_BLOOM, MX_PRED_NONE,
             MX_PRED_PERFECT, c->predictor);
    if (c->bloom_k < 1 || c->bloom_k > BLOOM_MAX_K)
        FAIL("memsys.bloom_k: must be from 1 to %d hash functions, got %u", BLOOM_MAX_K, c->bloom_k);
    if (c->compress > MX_COMP_BDI)
        FAIL("memsys.compress: must be none (%d) or bdi (%d), got %u", MX_COMP_NONE, MX_COMP_BDI, c->compress);
    if (c->bdi_epoch < 1)
        FAIL("memsys.bdi_epoch: must be at least 1 cycle, got %u", c->bdi_epoch);
    if (c->qu_queue < 1 || c->qu_queue > 65536)
        FAIL("memsys.query_unit.queue: must be from 1 to 65536 entries, got %u", c->qu_queue);
    if (c->qu_buffer_bytes < 2 * c->llc_line)
        FAIL("memsys.query_unit.buffer_bytes: must hold a read and a write line (at least %u bytes), got %u",
             2 * c->llc_line, c->qu_buffer_bytes);
    if (c->qu_service < 1 || c->qu_service > 1000000)
        FAIL("memsys.query_unit.service_cycles: must be from 1 to 1000000 cycles, got %u", c->qu_service);
    if (c->mem_trace && !c->mem_trace[0])
        FAIL("memsys.mem_trace: empty file name");
    return morpheus_config_check(c, err, errlen); /* the extended LLC's geometry, when it is on */
}

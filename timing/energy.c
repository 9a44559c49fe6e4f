/* timing/energy.c — the per-event energy model (include/mx/timing.h): the
 * method of facts/energy.md section 1 (AccelWattch's, as the paper uses
 * it): E = sum over events of count x energy + T x (constant power +
 * static power of the SMs that are on), and the Morpheus controller's
 * share on top when SMs are in cache mode.  The extended LLC's per-byte
 * energy is the paper's whole-GPU figure less the static power it holds
 * (tm_energy_xllc_pj).  Every constant comes from the
 * configuration (energy.*), whose source names where each comes from. */
#include "mx/timing.h"

double tm_energy_xllc_pj(const struct tm_energy_params *p)
{
    double n = p->xllc_measured_sms, gbps = p->xllc_measured_gbps_per_sm;
    if (!(n > 0 && gbps > 0))
        return p->xllc_pj_per_byte;
    /* W / (GB/s) = 1e-9 J/B = 1000 pJ/B */
    return p->xllc_pj_per_byte - (p->const_w + p->static_sm_w * n) / (n * gbps) * 1000.0;
}

const char *const tm_energy_part_names[TM_EPARTS] = { "core_j", "l1_j", "llc_j", "xllc_j", "dram_j", "static_j",
                                                       "controller_j" };

void tm_energy_of(const struct tm_energy_params *p, const struct tm_energy_counts *c, struct tm_energy *e)
{
    /* lanes per warp instruction on average: each unit's lane operations */
    double lanes = c->warp_insns ? (double)c->thread_insns / (double)c->warp_insns : 0;
    double core = p->warp_insn_pj * (double)c->warp_insns + p->rf_lane_pj * (double)c->thread_insns;
    for (int u = 0; u < TM_UNITS; u++)
        core += p->lane_op_pj[u] * lanes * (double)c->warp_insns_by_unit[u];
    e->part[TM_EP_CORE] = core * 1e-12;
    e->part[TM_EP_L1] = p->l1_sector_pj * (double)c->l1_sectors * 1e-12;
    e->part[TM_EP_LLC] = p->llc_sector_pj * (double)c->llc_sectors * 1e-12;
    e->part[TM_EP_XLLC] = tm_energy_xllc_pj(p) * 128.0 * (double)c->xllc_accesses * 1e-12;
    e->part[TM_EP_DRAM] = (p->dram_read_pj_per_byte * (double)c->dram_read_bytes +
                           p->dram_write_pj_per_byte * (double)c->dram_write_bytes) * 1e-12;
    e->dynamic_j = 0;
    for (int k = TM_EP_CORE; k <= TM_EP_DRAM; k++)
        e->dynamic_j += e->part[k];
    e->seconds = c->core_mhz ? (double)c->cycles / (c->core_mhz * 1e6) : 0;
    e->static_j = e->part[TM_EP_STATIC] = e->seconds * (p->const_w + p->static_sm_w * c->sms_on);
    e->part[TM_EP_CONTROLLER] = c->sms_cache ? (e->dynamic_j + e->static_j) * p->controller_frac : 0;
    e->total_j = e->dynamic_j + e->static_j + e->part[TM_EP_CONTROLLER];
    e->watts = e->seconds > 0 ? e->total_j / e->seconds : 0;
}

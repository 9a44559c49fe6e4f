/* timing/args.c — the built-in models' arguments (timing/args.h). */
#include "timing/args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const unit_key[TM_UNITS] = { "int", "fp", "dp", "sfu", "ldst", "ctrl", "sync", "tex", "tensor" };
static const char *const level_key[TM_LV_COUNT] = { "none", "l1", "llc", "xllc", "dram", "xllc_dram", "shared",
                                                     "xllc_trip" };

int tm_parse_args(struct tm_params *p, const char *model, const char *args, int ii, const struct tm_xarg *x,
                  char *err, size_t errlen)
{
    char buf[512];
    if (strlen(args) >= sizeof buf) {
        snprintf(err, errlen, "timing model %s: arguments longer than %zu characters", model, sizeof buf - 1);
        return -1;
    }
    strcpy(buf, args);
    for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '='), *end = NULL;
        unsigned long v = eq && eq[1] != '-' ? strtoul(eq + 1, &end, 10) : 0;
        uint32_t *slot = NULL;
        unsigned long lo = 1;
        for (const struct tm_xarg *a = x; eq && a && a->key; a++)
            if (strlen(a->key) == (size_t)(eq - kv) && !strncmp(kv, a->key, (size_t)(eq - kv)))
                slot = a->slot, lo = 0;
        if (!eq || !end || end == eq + 1 || *end || v < lo || v > 1000000) {
            snprintf(err, errlen, "timing model %s: '%s' is not KEY=N with N from %lu to 1000000", model, kv, lo);
            return -1;
        }
        *eq = 0;
        for (int i = 0; i < TM_UNITS; i++) {
            if (!strcmp(kv, unit_key[i]))
                slot = &p->unit_latency[i];
            if (ii && !strncmp(kv, "ii_", 3) && !strcmp(kv + 3, unit_key[i]))
                slot = &p->initiation[i];
        }
        for (int i = 0; i < TM_LV_COUNT; i++)
            if (!strcmp(kv, level_key[i]))
                slot = &p->level_latency[i];
        if (!slot) {
            char own[128] = "";
            for (const struct tm_xarg *a = x; a && a->key; a++)
                snprintf(own + strlen(own), sizeof own - strlen(own), "%s%s", a == x ? "; its own: " : " ", a->key);
            snprintf(err, errlen, "timing model %s: unknown key '%s' (units: int fp dp sfu ldst ctrl sync tex tensor%s; "
                     "levels: none l1 llc xllc dram xllc_dram shared xllc_trip%s)", model, kv,
                     ii ? "; ii_UNIT for an initiation interval" : "", own);
            return -1;
        }
        *slot = (uint32_t)v;
    }
    return 0;
}

void tm_levels(const struct tm_params *p, uint32_t out[TM_LV_COUNT])
{
    double sc = p->mem_clock_scale > 0 ? p->mem_clock_scale : 1;
    uint32_t l1 = p->level_latency[TM_LV_L1];
    for (int i = 0; i < TM_LV_COUNT; i++) {
        uint32_t v = p->level_latency[i];
        if ((i == TM_LV_LLC || i == TM_LV_XLLC || i == TM_LV_DRAM || i == TM_LV_XLLC_DRAM || i == TM_LV_XLLC_TRIP) &&
            v > l1)
            v = l1 + (uint32_t)((v - l1) / sc + 0.5);
        out[i] = v;
    }
}

uint32_t tm_level_latency(const uint32_t lv[TM_LV_COUNT], const struct tm_mem *ev)
{
    uint8_t l = ev->level < TM_LV_COUNT ? ev->level : TM_LV_NONE;
    return ev->helper && (l == TM_LV_XLLC || l == TM_LV_XLLC_DRAM) ? lv[TM_LV_XLLC_TRIP] : lv[l];
}

/* timing/args.c — the built-in models' arguments (timing/args.h). */
#include "timing/args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const unit_key[TM_UNITS] = { "int", "fp", "dp", "sfu", "ldst", "ctrl", "sync", "tex", "tensor" };
static const char *const level_key[TM_LV_COUNT] = { "none", "l1", "llc", "xllc", "dram", "xllc_dram", "shared" };

int tm_parse_args(struct tm_params *p, const char *model, const char *args, int ii, char *err, size_t errlen)
{
    char buf[512];
    if (strlen(args) >= sizeof buf) {
        snprintf(err, errlen, "timing model %s: arguments longer than %zu characters", model, sizeof buf - 1);
        return -1;
    }
    strcpy(buf, args);
    for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '='), *end;
        unsigned long v = eq ? strtoul(eq + 1, &end, 10) : 0;
        if (!eq || end == eq + 1 || *end || v < 1 || v > 1000000) {
            snprintf(err, errlen, "timing model %s: '%s' is not KEY=N with N from 1 to 1000000", model, kv);
            return -1;
        }
        *eq = 0;
        uint32_t *slot = NULL;
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
            snprintf(err, errlen, "timing model %s: unknown key '%s' (units: int fp dp sfu ldst ctrl sync tex tensor%s; "
                     "levels: none l1 llc xllc dram xllc_dram shared)", model, kv,
                     ii ? "; ii_UNIT for an initiation interval" : "");
            return -1;
        }
        *slot = (uint32_t)v;
    }
    return 0;
}

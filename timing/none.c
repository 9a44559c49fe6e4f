/* timing/none.c — the "none" model: subscribes to no event, so the emulator
 * builds no event record and pays nothing; kept to measure that overhead.
 * Each warp instruction takes one cycle of its SM. */
#include "mx/timing.h"

#include <stdio.h>

static int none_init(void **state, const struct tm_params *p, const char *args, char *err, size_t errlen)
{
    (void)p;
    *state = NULL;
    if (args && *args) {
        snprintf(err, errlen, "timing model none takes no arguments (got '%s')", args);
        return -1;
    }
    return 0;
}

const struct tm_ops tm_none_ops = {
    .version = TM_API_VERSION,
    .name = "none",
    .summary = "functional only: no timing, no events (one cycle per warp instruction)",
    .events = 0,
    .init = none_init,
};

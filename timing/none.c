/* timing/none.c — the "none" model: subscribes to no event, so the emulator
 * builds no event record and pays nothing; kept to measure that overhead. */
#include "mx/timing.h"

#include <stddef.h>

static int none_init(void **state, const char *args)
{
    *state = NULL;
    return args && *args ? -1 : 0; /* takes no arguments */
}

const struct tm_ops tm_none_ops = {
    .version = TM_API_VERSION,
    .name = "none",
    .summary = "functional only: no timing, no events",
    .events = 0,
    .init = none_init,
};

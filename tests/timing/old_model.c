/* tests/timing/old_model.c — a timing model built for API version 1 (the
 * emulator must refuse it by name, not call it with the wrong arguments). */
#include <stdint.h>

struct old_ops {
    uint32_t version;
    const char *name;
};

const struct old_ops mx_timing_model = { 1, "old-model" };

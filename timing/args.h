/* timing/args.h — the built-in models' arguments (--timing MODEL,KEY=N,...). */
#ifndef MX_TIMING_ARGS_H
#define MX_TIMING_ARGS_H

#include <stddef.h>

#include "mx/timing.h"

/* Applies "KEY=N[,KEY=N...]" to p: a unit's latency (int fp dp sfu ldst ctrl
 * sync tex tensor), a level's (none l1 llc xllc dram xllc_dram shared), and
 * with ii an initiation interval (ii_UNIT); N from 1 to 1000000.  0, or -1
 * with a message naming the model and the key in err. */
int tm_parse_args(struct tm_params *p, const char *model, const char *args, int ii, char *err, size_t errlen);

#endif

/* frontend/fe-internal.h — declarations shared inside the front end only. */
#ifndef MX_FE_INTERNAL_H
#define MX_FE_INTERNAL_H
#include "mx/program.h"
#include "frontend/diag.h"
/* Sets insn->ipdom of every branch (bra, brx.idx) to the first instruction of
 * the branch block's immediate post-dominator (MX_NONE: function exit). */
int fe_compute_reconvergence(struct mx_program *prog, struct mx_diag *diag);
#endif

/* memsys/helper.h — the Morpheus controller's side of --xllc helper: each
 * extended-LLC access is posted to the set's row of the query unit
 * (include/mx/morpheus_mmio.h), the set's helper warp is run to its answer
 * (struct mx_xllc_port), and the answer is taken back: the block it
 * returns is the data the application gets.  The native model (morpheus.c)
 * makes the same access first; with the check on (memsys.xllc.check) every
 * decision must match it (helper = native) and every block the helper
 * returns or writes back must match a shadow copy of memory (the oracle).
 * Single-threaded, SMs stopped (the port and the drain of memsys.c). */
#ifndef MX_MEMSYS_HELPER_H
#define MX_MEMSYS_HELPER_H

#include <stddef.h>
#include <stdint.h>

#include "memsys/morpheus.h"
#include "mx/memsys.h"

struct xhelper;

int xh_create(const struct mx_memsys_config *c, struct morpheus *mp, struct xhelper **out);
void xh_destroy(struct xhelper *h);
void xh_attach(struct xhelper *h, const struct mx_xllc_port *p);

/* The first half of an access to an extended-LLC line (its partition and
 * number lp in it): LD, ATOM and RED read the block into data (ATOM and RED
 * then write it back through xh_end); ST does nothing here.  0, or -1 with
 * the reason in err. */
int xh_begin(struct xhelper *h, uint32_t part, uint64_t lp, uint64_t line, int op, uint32_t sectors, uint64_t clock,
             uint32_t sm, const struct mx_memview *mem, uint8_t data[128], struct morpheus_result *res, char *err,
             size_t errlen);
/* The second half of ST, ATOM and RED: the bytes of data under wmask are
 * written to the set.  res: xh_begin's (ATOM, RED), filled here (ST). */
int xh_end(struct xhelper *h, uint32_t part, uint64_t lp, uint64_t line, int op, const uint8_t data[128],
           const uint32_t wmask[4], uint64_t clock, uint32_t sm, const struct mx_memview *mem,
           struct morpheus_result *res, char *err, size_t errlen);
/* The block of a load the SM's L1 held (the emulator's L1 keeps no data):
 * the set gives it if it holds it, else device memory (DRAM) does; no
 * extended-LLC access, no decision.  With the check: the set holds it
 * exactly when the native model does, and the bytes match the shadow. */
int xh_peek(struct xhelper *h, uint32_t part, uint64_t lp, uint64_t line, uint32_t sm, const struct mx_memview *mem,
            uint8_t data[128], char *err, size_t errlen);
/* One lane's atomic (code: enum mx_atom) at byte `offset` of a line the
 * set holds (xh_begin read it): the set's warp executes it (§4.2.3).  With
 * the check, the set must hold the block, where xh_begin's res put it. */
int xh_atom(struct xhelper *h, uint64_t line, uint32_t offset, uint32_t code, uint64_t b, uint64_t c, uint32_t sm,
            const struct morpheus_result *res, char *err, size_t errlen);
/* With the check: the shadow of line takes data's bytes under wmask (what
 * an access the set executed itself left there, as the emulator computed
 * it).  0, or -1 with err. */
int xh_shadow(struct xhelper *h, uint64_t line, const uint8_t data[128], const uint32_t wmask[4],
              const struct mx_memview *mem, char *err, size_t errlen);
/* Every set writes back its dirty blocks and empties (the device goes
 * idle); *written: blocks written back.  With the check, device memory
 * must then hold every line the sets held, as the shadow says. */
int xh_drain(struct xhelper *h, const struct mx_memview *mem, uint64_t *written, char *err, size_t errlen);

/* Requests the helper kernel served (instructions: emu's count). */
uint64_t xh_served(const struct xhelper *h);

#endif

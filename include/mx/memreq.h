/* include/mx/memreq.h — the seam between the execution layer (emu/) and a
 * memory model: each warp memory instruction that leaves the SM (global,
 * local and constant memory, textures) becomes one request, handed to the
 * memory interface the device was configured with (emu_config.memif).  The
 * interface answers when the request completes; until then the warp waits
 * (WS_WAIT_MEM) and the completion performs the access (loads write their
 * destination registers then).  Data stays in the emulator's device memory:
 * a memory model decides when, never what.  With no interface (the
 * default) no request is built and every access completes at once.
 *
 * Contract: memsys/ and timing/ include this header, never emu/.  The
 * interface is called from the host thread running the request's SM, for
 * SMs in any order within a quantum of the global clock; an implementation
 * that keeps shared state must make its answers independent of that order
 * (per-SM state, or answers that depend on the request alone) to keep
 * results identical for every --host-threads. */
#ifndef MX_MEMREQ_H
#define MX_MEMREQ_H

#include <stddef.h>
#include <stdint.h>

#define MX_MEMIF_VERSION 7
#define MX_MEMIF_MAX_CHANNELS 64 /* DRAM channels dram_traffic() reports at most */

enum mx_mspace { MX_MS_GLOBAL, MX_MS_LOCAL, MX_MS_CONST, MX_MS_TEX };
enum mx_mop { MX_MOP_LD, MX_MOP_ST, MX_MOP_ATOM, MX_MOP_RED };

/* An atomic's operation as the memory side may execute it (the helper
 * kernel's atomics, §4.2.3): operation and type, the type's signedness and
 * size folded in as the PTX forms need them; MX_ATOM_NONE for any other
 * (f16, bf16, vectors: the emulator applies those). */
enum mx_atom {
    MX_ATOM_NONE, MX_ATOM_ADD_U32, MX_ATOM_ADD_U64, MX_ATOM_ADD_F32, MX_ATOM_ADD_F64,
    MX_ATOM_MIN_U32, MX_ATOM_MIN_S32, MX_ATOM_MIN_U64, MX_ATOM_MIN_S64,
    MX_ATOM_MAX_U32, MX_ATOM_MAX_S32, MX_ATOM_MAX_U64, MX_ATOM_MAX_S64,
    MX_ATOM_AND_B32, MX_ATOM_OR_B32, MX_ATOM_XOR_B32, MX_ATOM_AND_B64, MX_ATOM_OR_B64, MX_ATOM_XOR_B64,
    MX_ATOM_EXCH_B32, MX_ATOM_EXCH_B64, MX_ATOM_CAS_B32, MX_ATOM_CAS_B64, MX_ATOM_INC_U32, MX_ATOM_DEC_U32,
    MX_ATOM__COUNT
};

struct mx_memreq {
    uint32_t sm;             /* SM that issued it */
    uint64_t cta;            /* linear CTA index in its grid */
    uint32_t warp;           /* warp index in the CTA */
    uint32_t pc;             /* instruction index in the module */
    uint32_t line;           /* PTX source line */
    uint8_t space;           /* enum mx_mspace (a generic address resolved: the space of its lanes) */
    uint8_t op;              /* enum mx_mop */
    uint8_t cop;             /* cache operator: MX_CACHE_CA, _CG, _CS, _LU, _CV, _WB, _WT of isa/isa.h; 0 none */
    uint8_t nc;              /* ld.global.nc (the non-coherent texture path) */
    uint8_t bytes;           /* bytes per lane (element size times vector width) */
    uint8_t strong;          /* .volatile, or .relaxed/.acquire/.release at gpu or sys scope: not served by L1 */
    uint32_t mask;           /* lanes that access memory */
    uint64_t clock;          /* the SM's clock at issue */
    uint32_t smem;           /* shared memory in use on the SM at issue (bytes; the L1 carve-out) */
    uint32_t rf;             /* register file allocated to the SM's resident CTAs at issue (bytes): the L1
                                may take the rest (memsys.l1.rf_kib, Unified-SM-Mem) */
    uint64_t addr[32];       /* address of each lane in mask (generic addresses as the program computed them) */
    /* atomics (op MX_MOP_ATOM, MX_MOP_RED): what each lane in mask does, in lane order */
    uint8_t atom;            /* enum mx_atom */
    uint64_t aval[32];       /* its operand b */
    uint64_t acmp[32];       /* and c (cas: b is compared, c stored) */
};

/* Device memory as the memory model may read it (at a quantum's end: to
 * decide a block's compression from its bytes, to read DRAM for a fill).
 * read copies n bytes at global address addr to dst, allocated or not (the
 * bytes of a line around a small allocation are device memory too); 0, or
 * -1 outside device memory (a local or shared window address). */
struct mx_memview {
    void *ctx;
    int (*read)(void *ctx, uint64_t addr, void *dst, uint32_t n);
};

/* request() answers MX_MEMREQ_PORT when lines of r are held by an agent
 * on the memory side that has the data itself (the extended LLC served by
 * the helper kernel, --xllc helper): the warp waits, and the access
 * completes at the quantum's end, in (clock, SM, issue) order among the
 * requests that complete there, through the port: port_begin hands over
 * the agent's lines (their bytes, for the completion to read), the access
 * runs on them instead of device memory, and port_end takes back what it
 * wrote. */
#define MX_MEMREQ_PORT UINT64_MAX
#define MX_PORT_LINE 128
struct mx_portline {
    uint64_t line;           /* line address, MX_PORT_LINE-aligned */
    uint32_t wmask[4];       /* bytes the access wrote (bit b: byte b), set by emu */
    uint8_t data[MX_PORT_LINE]; /* the line's bytes as the agent has them; then as the access left them */
};
struct mx_port {
    uint32_t n;              /* lines in use */
    struct mx_portline l[64];
};

struct mx_memif {
    uint32_t version;        /* MX_MEMIF_VERSION */
    void *ctx;
    /* The SM clock at which request r completes; at most r->clock: now.
     * Called on the host thread running r's SM. */
    uint64_t (*request)(void *ctx, const struct mx_memreq *r);
    /* Every SM stopped at the global clock `clock`, device memory merged:
     * what the requests of the quantum did to state shared between SMs is
     * applied now, in an order that depends on the requests alone.  May be
     * NULL. */
    void (*quantum_end)(void *ctx, uint64_t clock, const struct mx_memview *mem);
    /* The port (MX_MEMREQ_PORT; may be NULL when request() never answers
     * it).  Single-threaded, SMs stopped.  Each returns 0, or -1 with a
     * one-line reason in err: the access then faults with MX_EXLLC. */
    int (*port_begin)(void *ctx, const struct mx_memreq *r, struct mx_port *p, const struct mx_memview *mem,
                      char *err, size_t errlen);
    int (*port_end)(void *ctx, const struct mx_memreq *r, struct mx_port *p, const struct mx_memview *mem,
                    char *err, size_t errlen);
    /* The device stops (a launch was waited for; the host may read and
     * write device memory next): whatever the memory side holds of device
     * memory goes back to it.  May be NULL.  0, or -1 with err. */
    int (*drain)(void *ctx, const struct mx_memview *mem, char *err, size_t errlen);
    /* For a timing model (may be NULL): the level r would be served from
     * if it were issued now, the slowest of its lines (enum mx_level of
     * mx/memsys.h), without changing any state; *lines gets how many lines
     * it touches, and (v4) line_addr[i] and line_level[i] each line's
     * address and own level, in the order of the lanes' first touch (at
     * most 64), and (v5) line_bytes[i] the bytes it moves beyond the SM
     * at that level: the sectors the L1 does not supply, times the sector
     * size (the LLC and DRAM move sectors, and the extended LLC's hits
     * send those over the interconnect); a whole block for a load the
     * extended LLC misses (its blocks are not sectored: DRAM fills one);
     * 0 for an L1 hit.  Shared state is read as of the quantum's start (it only
     * changes at quantum ends), so the answer does not depend on host
     * threads.  Called on the host thread running r's SM, before request(). */
    uint8_t (*probe)(void *ctx, const struct mx_memreq *r, uint32_t *lines, uint64_t line_addr[64],
                     uint8_t line_level[64], uint16_t line_bytes[64]);
    /* For a timing model (v7; may be NULL): the bytes read from each DRAM
     * channel since the last call into read[i] (what the quantum's merge
     * found missing: probe() answered from the quantum's start, so a line
     * another request fetched earlier in the quantum was told DRAM and
     * read once, one evicted meanwhile told LLC and read again), and the
     * bytes written to it into written[i] (write-backs of dirty lines and
     * blocks: what no access waits for, yet what takes DRAM's time), for
     * the configured channels, at most `max`; returns how many.  Single-
     * threaded, SMs stopped, after quantum_end().  (v6 told the writes
     * alone: dram_written.) */
    uint32_t (*dram_traffic)(void *ctx, uint64_t *read, uint64_t *written, uint32_t max);
};

/* The lines of `line_bytes` (a power of two) that r's lanes touch, in the
 * order of their first lane, with the `sector_bytes` sectors touched in
 * each (bit i: sector i of the line).  Returns how many (at most 64: a lane
 * may straddle two lines). */
static inline unsigned mx_memreq_lines(const struct mx_memreq *r, unsigned line_bytes, unsigned sector_bytes,
                                       uint64_t line[64], uint32_t sectors[64])
{
    unsigned n = 0;
    for (int l = 0; l < 32; l++) {
        if (!(r->mask >> l & 1))
            continue;
        uint64_t a = r->addr[l], end = a + (r->bytes ? r->bytes : 1) - 1;
        for (uint64_t ln = a & ~(uint64_t)(line_bytes - 1); ln <= end; ln += line_bytes) {
            uint64_t lo = a > ln ? a : ln, hi = end < ln + line_bytes - 1 ? end : ln + line_bytes - 1;
            uint32_t sec = 0;
            for (uint64_t s = (lo - ln) / sector_bytes; s <= (hi - ln) / sector_bytes; s++)
                sec |= 1u << s;
            unsigned i = 0;
            while (i < n && line[i] != ln)
                i++;
            if (i == n) {
                line[n] = ln;
                sectors[n++] = 0;
            }
            sectors[i] |= sec;
        }
    }
    return n;
}

#endif

/* emu/emu-internal.h — the contract between the interpreter core (interp.c,
 * sched.c, barrier.c) and the opcode families (exec_*.c).  Not visible outside emu/.
 *
 * Execution model: warp-wide.  A warp's registers are structure-of-arrays,
 * regs[slot * 32 + lane], 64 bits per lane whatever the declared type (a
 * 32-bit value is stored zero-extended).  Predicates are one 32-bit lane mask
 * per predicate slot.  Special registers that are fixed for a warp (%tid.x,
 * %ctaid.y, %laneid, ...) are extra register slots after the function's own,
 * filled once when the warp starts, so an instruction reads them like any
 * register.  Immediates live in a per-kernel table of broadcast values.
 *
 * At launch every mx_insn of the kernel (and the functions it calls) is bound
 * once to an emu_xinsn: a handler chosen for the exact opcode/type/modifiers
 * (so handlers never switch on types per lane) and operand references. */
#ifndef MX_EMU_INTERNAL_H
#define MX_EMU_INTERNAL_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mx/program.h"
#include "mx/status.h"
#include "emu/emu.h"

#define WARP 32
#define LOCAL_PAGE_SHIFT 12 /* granule of the local-memory dirty bitmap (emu_warp.local_pages) */
#define FULL_MASK 0xffffffffu
#define EMU_LAST_ALLOCS 4 /* allocations a warp remembers for bounds checks */
#define PAGE_SHIFT 16     /* device memory pages (mem.c): 64 KiB */

/* ---------------------------------------------------------------- refs
 * An operand reference is a 32-bit value:
 *   REF_CONST | k   : row k of the kernel's constant table (32 broadcast lanes)
 *   slot            : register slot of the current frame (sregs included)
 * Predicate references are slots of the predicate file; REF_CONST|0 is the
 * all-false mask and REF_CONST|1 all-true.  REF_NEG marks !p.             */
#define REF_CONST 0x80000000u
#define REF_NEG 0x40000000u
#define REF_NONE 0xffffffffu

/* Special registers that are fixed for a warp.  Those a kernel reads get
 * register rows after each frame's own registers (emu_kernel.sreg_row). */
enum emu_sslot {
    SS_TID_X, SS_TID_Y, SS_TID_Z, SS_NTID_X, SS_NTID_Y, SS_NTID_Z,
    SS_CTAID_X, SS_CTAID_Y, SS_CTAID_Z, SS_NCTAID_X, SS_NCTAID_Y, SS_NCTAID_Z,
    SS_LANEID, SS_WARPID, SS_NWARPID, SS_SMID, SS_NSMID, SS_GRIDID,
    SS_LANEMASK_EQ, SS_LANEMASK_LE, SS_LANEMASK_LT, SS_LANEMASK_GE, SS_LANEMASK_GT,
    SS_DYN_SMEM, SS_TOTAL_SMEM, SS_ENVREG1, SS_ENVREG2, SS_ZERO, SS_ONE,
    SS_STACK,             /* %mx_stack_size: the warp's local bytes per thread, the configured stack */
    SS_SINK,              /* where a '_' value destination writes (never read) */
    SS__COUNT
};

struct emu_warp;
struct emu_xinsn;

/* Handler result. */
enum { EX_NEXT = 0,   /* go on with pc + 1 */
       EX_JUMP = 1,   /* the handler set w->pc (and maybe the SIMT stack) */
       EX_YIELD = 2,  /* warp blocked or finished: switch warps; w->pc already set */
       EX_FAULT = 3,  /* w->fault filled in; stop the kernel */
       EX_WAIT = 4    /* a request that completes later: the warp waits (WS_WAIT_MEM) at this
                       * instruction, whose handler runs again with w->completing set */ };

typedef int (*emu_fn)(struct emu_warp *w, const struct emu_xinsn *x, uint32_t mask);

/* A bound instruction.  Fixed size, no pointers into parser state. */
struct emu_xinsn {
    emu_fn fn;                    /* handler */
    const struct mx_insn *in;     /* the decoded instruction (types, modifiers, source line) */
    uint32_t guard;               /* predicate slot | REF_NEG, or REF_NONE */
    uint32_t r[MX_MAX_OPD];       /* operand references, by operand slot (see binder notes) */
    int64_t off;                  /* memory operand: constant part of the address (imm + symbol) */
    uint32_t aux;                 /* handler-specific: vector width, target pc, element count...; with two memory
                                     operands (cp.async): the first one's constant part (low 32 bits) */
    uint32_t aux2;                /* handler-specific; with two memory operands: 1 if the first one's register
                                     holds 32 bits (off, space and XF_BASE32 describe the second) */
    uint8_t space;                /* memory operand space (enum emu_space) */
    uint8_t size;                 /* access size in bytes of one element */
    uint8_t flags;                /* handler-specific */
    uint8_t unit;                 /* enum mx_unit of the opcode (statistics) */
};

/* emu_xinsn.flags of memory operands, set by the binder (module.c) for the
 * memory handlers (exec_mem.c); the low bits are the handlers' own. */
#define XF_BASE32 0x40      /* the address register holds 32 bits: [reg+imm] wraps at 2^32 */
#define XF_LOCAL_FRAME 0x80 /* [local_sym+off]: add the frame's local base */
#define XF_RED_NOW 0x20     /* red of an exact commutative operation: applied at once, never waits */
#define XF_DEAD_DEST 0x10   /* (binder input) the destination register is never read */

enum emu_space { SP_GENERIC, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_CONST, SP_PARAM_KERNEL,
                 SP_PARAM_FUNC, SP_PARAM_RET, SP_PARAM_SCRATCH };

/* One function activation of a warp. */
struct emu_frame {
    uint32_t func;        /* function index */
    uint32_t ret_pc;      /* caller's pc after the call */
    uint32_t call_mask;   /* lanes that made the call */
    uint32_t done_mask;   /* lanes that executed ret */
    uint32_t simt_base;   /* SIMT stack depth at entry */
    uint32_t nregs;       /* register slots incl. special-register slots */
    uint64_t *regs;       /* [slot * 32 + lane] */
    uint32_t *preds;      /* [slot] lane masks */
    uint8_t *param;       /* incoming .param buffer, per lane: param + lane * param_size */
    uint8_t *ret;         /* return .param buffer, per lane */
    uint8_t *scratch;     /* .param variables declared in the body, per lane */
    uint64_t local_base;  /* this activation's offset in each thread's local memory */
    const struct emu_xinsn *callsite; /* the call instruction (for copying results back) */
    size_t regs_cap, preds_cap, param_cap, ret_cap, scratch_cap; /* buffer capacities, reused across calls */
};

struct emu_simt {
    uint32_t pc;          /* where this entry resumes */
    uint32_t rpc;         /* reconvergence pc; RPC_NONE = the function's exit */
    uint32_t mask;        /* lanes of this entry */
    uint32_t wait;        /* 0, or what its lanes wait for: barrier b as b + 1, or WAIT_WARPSYNC */
    uint32_t need;        /* WAIT_WARPSYNC: the bar.warp.sync member mask */
};
#define RPC_NONE 0xffffffffu
/* Independent thread scheduling (sm_70+): the lanes of a SIMT entry that
 * reach bar.sync or bar.warp.sync park there (entry.wait set, entry.pc past
 * the barrier) and the warp runs another of its diverged paths; the warp
 * blocks (WS_BARRIER) only when no path can run. */
#define WAIT_WARPSYNC 17
/* mbarrier.try_wait (exec_async.c): entry.need = the object's shared offset | the parity of the phase awaited */
#define WAIT_MBAR 18

struct emu_cta;
struct emu_kernel;

struct emu_warp {
    /* hot state first */
    uint64_t *regs;           /* current frame's registers */
    uint32_t *preds;          /* current frame's predicates */
    const uint64_t (*consts)[WARP]; /* kernel constant table */
    uint32_t pc;              /* absolute instruction index */
    uint32_t active;          /* lanes executing now (top of SIMT stack, minus exited) */
    uint32_t exited;          /* lanes that executed exit/ret from the kernel */
    uint32_t nsimt, simt_cap;
    struct emu_simt *simt;
    uint32_t nframes, frames_cap;
    struct emu_frame *frames;
    struct emu_cta *cta;
    const struct emu_kernel *k;
    struct emu_device *dev;
    uint32_t warp_id;         /* index in the CTA */
    uint32_t nthreads;        /* lanes that exist (last warp of a CTA may be partial) */
    uint32_t state;           /* WS_* */
    uint32_t bar_id;          /* what a blocked warp waits for (entry.wait - 1: barrier, 16: bar.warp.sync) */
    uint64_t insns;           /* warp instructions executed */
    uint64_t thread_insns;    /* thread instructions executed */
    uint64_t unit_insns[16];  /* warp instructions per enum mx_unit */
    uint8_t *local;           /* per-thread local memory: local + lane * local_size */
    uint64_t local_size;      /* bytes of local memory per thread */
    uint64_t local_cap;       /* bytes mapped at `local` (lent by the SM, all zero when lent) */
    uint64_t *local_pages;    /* bitmap of the 2^LOCAL_PAGE_SHIFT-byte pages of `local` stored to by this warp:
                                 only those are cleared for the next one, and pages never stored to
                                 cost no host memory (512 KiB per thread is 16 MiB per warp) */
    uint64_t local_top;       /* first free offset in each thread's local memory (frames) */
    struct emu_fault *fault;  /* where a fault report goes (the launch's) */
    uint64_t rd_key[2];       /* the two device pages of global memory read last, most recent first (access.h), ~0 if none: */
    uintptr_t rd_bias[2];     /* where they are read: host address of global offset o = rd_bias + o, */
    struct emu_blk *const *rd_tab[2]; /* and the SM's copies of their blocks (its ptab entry), NULL if none */
    uint64_t wr_key[2];       /* the two blocks written last, most recent first, ~0 if none, */
    struct emu_blk *wr_blk[2]; /* and the SM's private copies of them */
    uint32_t carry;           /* CC.CF per lane (add.cc / addc / madc) */
    uint32_t fend;            /* one past the last instruction of the current function */
    const uint8_t *kparams;   /* kernel parameter buffer (uniform across lanes) */
    uint32_t kparams_size;
    uint32_t red_ref;         /* bar.red waiting: destination ref (REF_NEG marks a predicate), REF_NONE if none */
    uint32_t red_kind;        /* MX_BAROP_* */
    uint32_t red_mask;        /* lanes that arrived */
    uint32_t red_bar;         /* the barrier they arrived at */
    uint32_t last_alloc[EMU_LAST_ALLOCS]; /* indices of the allocations of the last global accesses, most
                                 recent first (the bounds check's fast path: kernels use a few arrays in turn) */
    uint8_t completing;       /* the handler runs to complete a request (see EX_WAIT) */
    uint8_t wait_local;       /* EX_WAIT: the request completes on the SM at wait_until (a plain access the
                                 memory interface delays), not at a quantum's end */
    uint64_t wait_until;      /* EX_WAIT: SM clock at which the request completes (0: the quantum's end) */
    uint64_t *tex_probe;      /* h_tex: where texel() notes each lane's first texel address instead of reading */
    uint32_t tex_probe_mask;  /* lanes noted */
    uint8_t tex_probe_bytes;  /* bytes per texel */
    uint64_t ready_at;        /* SM clock at which the warp may issue again */
    uint64_t tm_ready;        /* the ready_at the timing model's issue() set last (rewake_held) */
    uint32_t ws_idx;          /* its index in its SM's ws (valid while sm->ws[ws_idx] is this warp) */
    uint64_t age;             /* dispatch order on its SM (GTO's "oldest") */
    uint32_t wakes;           /* wakes that came while the warp was not parked: each lets one park go on (park.c) */
    uint32_t park_pc;         /* WS_PARKED: the instruction that parked it (reports) */
    uint32_t port_slot;       /* WS_WAIT_MEM on a port request (MX_MEMREQ_PORT): 1 + its index in the SM's
                                 preq, 0 if none */
    struct mx_port *port;     /* completing a port request: the agent's lines its accesses use */
    uint64_t port_at;         /* timed port request: when the timing model has it at the cache-mode SM */
    uint8_t port_timed;       /* its tm_mem event was made (port_at is valid): 1, the data does not wait
                                 for the helper (a load the predictor sent to DRAM, L1 hits); 2,
                                 tm_mem.helper: it does */
    uint64_t helper_hold;     /* a helper warp, with a model without TM_EV_DEPS: its access's data is back then */
    uint8_t atom_code;        /* an atomic about to make its request: enum mx_atom, and its operands */
    const uint64_t *atom_b, *atom_c;
};

/* A module bound for one kernel entry: every instruction of every function
 * the program defines, bound to a handler, plus the tables they refer to. */
struct emu_kernel {
    const struct mx_program *prog;
    struct emu_module *mod;
    uint32_t entry;               /* function index of the kernel */
    struct emu_xinsn *x;          /* by absolute instruction index */
    uint64_t (*consts)[WARP];     /* constant table rows */
    uint32_t nconsts;
    uint32_t *vrefs;              /* element references of vector/list operands */
    uint32_t nvrefs;
    uint64_t *shared_off;         /* by symbol index: offset of a .shared variable in this kernel's layout */
    uint32_t shared_static;       /* bytes of static shared memory */
    uint64_t max_local;           /* bytes of local memory per thread: the deepest frame chain (estimate) */
    uint8_t calls;                /* it makes calls: its threads get at least the configured stack
                                     (emu_config.local_per_thread, as it is when a CTA starts) */
    uint32_t nsregs;              /* special registers the kernel reads: rows after each frame's registers */
    uint8_t sreg_row[SS__COUNT];  /* enum emu_sslot -> row + 1 (0: not read) */
    uint8_t sreg_list[SS__COUNT]; /* row -> enum emu_sslot */
    uint64_t (*deps)[2];          /* by absolute instruction index: registers written and read, as the bits
                                     of tm_issue.def/use_next (a timing model with TM_EV_DEPS) */
    struct emu_srcs {             /* by absolute instruction index: the registers it reads (tm_issue.src) */
        uint8_t n;
        uint16_t r[TM_MAX_SRC];
    } *srcs;
};

/* ------------------------------------------------- the execution layer
 * (sched.c).  A grid is one kernel launch; its CTAs are dispatched to SMs
 * with room; each SM holds resident CTAs in slots and schedules their warps.
 * The global clock advances in quanta: within one, SMs run independently
 * (on any host thread); at its end everything that crosses SMs is applied
 * in a fixed order (requests that wait, faults, CTA retirement, dispatch),
 * so results and statistics do not depend on host threads. */
struct emu_sm;

/* Dynamic parallelism (cdp.c): what a grid's threads launched or queued on
 * the device, run in that order once the grid's own CTAs finished. */
struct emu_cdp_op {
    struct emu_cdp_op *next;
    int kind;                      /* EMU_CDP_LAUNCH, _COPY, _SET */
    struct emu_launch l;           /* a launch, its parameters in `params` */
    uint8_t *params;
    uint64_t dst, src, n;          /* a copy or set of n bytes (value: the byte) */
    uint32_t value;
};
enum { EMU_CDP_LAUNCH, EMU_CDP_COPY, EMU_CDP_SET };
#define EMU_CDP_MAX_DEPTH 24       /* nested grid levels (CUDA's limit) */

/* A parameter buffer handed out by cudaGetParameterBuffer(V2), not yet launched. */
struct emu_cdp_buf {
    struct emu_cdp_buf *next;
    uint64_t addr, size;
    uint32_t func;                 /* function index (V2), or UINT32_MAX (the old form: given at the launch) */
    uint32_t grid[3], block[3], smem;
};

/* Function pointers are generic addresses in a range no data lives in: function i at + 16 i. */
#define EMU_FUNC_ADDR_BASE 0x00007f0000000000ull

struct emu_grid {
    struct emu_device *dev;
    struct emu_kernel *k;
    struct emu_launch l;           /* copy of the launch */
    uint8_t *params;               /* copy of the parameter buffer */
    uint64_t ncta, ctas_done;
    uint32_t first_sm;             /* CTA 0 is dealt to this SM, CTA i to SM (first_sm + i) mod N */
    uint64_t *dealt;               /* per SM: CTAs it started so far */
    uint32_t threads_per_cta, warps_per_cta;
    uint64_t regs_per_cta, shared_per_cta;
    uint64_t warp_insns, thread_insns, unit_insns[16]; /* of retired CTAs */
    uint64_t issued;               /* warp instructions issued so far (watchdog) */
    uint64_t clock_first;          /* SM clock its first CTA started at (UINT64_MAX: none yet) */
    uint64_t clock_last;           /* SM clock its last CTA so far ended at */
    double t0;
    int finished;                  /* every CTA done, or stopped by a fault */
    int announced;                 /* the timing model was told it started (tm_ops.on_launch) */
    int helper;                    /* a helper kernel on the cache-mode SMs (emu_helper_start): not on the
                                      device's list, never finishes, makes no memory requests */
    struct emu_grid *after;        /* starts once this grid finished (stream order), or NULL */
    int status;                    /* MX_OK, or why it stopped */
    struct emu_fault fault;        /* the report when status != MX_OK */
    struct emu_grid *next;         /* the device's started grids, in launch order, until waited for */
    struct emu_cdp_op *cdp_head, *cdp_tail; /* launches and copies its threads queued (cdp.c) */
    int cdp_busy;                  /* some queued or running: the grid is not done, its stream waits */
    uint32_t cdp_depth;            /* 0: launched by the host; a child's is its parent's + 1 */
    uint32_t cdp_error;            /* the device runtime's last error (cudaGetLastError in the grid) */
    struct emu_grid *cdp_parent;   /* a child: the grid its counts and clock go to when it finishes */
};

struct emu_cta {
    struct emu_grid *grid;         /* NULL: the slot is free */
    struct emu_sm *sm;
    uint32_t ctaid[3];
    uint64_t id;                   /* linear CTA index in the grid */
    uint8_t *shared;
    uint64_t shared_size, shared_cap;
    struct emu_warp *warps;        /* pool, reused from CTA to CTA */
    uint32_t nwarps, warps_cap;
    uint32_t nthreads;
    uint32_t live_threads;         /* threads that have not exited */
    uint32_t live_warps;
    uint32_t bar_arrived[16];      /* threads arrived at each named barrier */
    uint32_t bar_expected[16];     /* thread count given by bar.sync a, b (0 = all live) */
    uint32_t red_popc[16];         /* bar.red: threads voting true */
};

enum { EMU_SM_COMPUTE, EMU_SM_CACHE };
enum { EMU_SCHED_LRR, EMU_SCHED_GTO };

/* What waits, in an SM's list in issue order: the request warp w waits for
 * (WS_WAIT_MEM), or, with w NULL, a wake of warp `gwarp` of grid g (CTA
 * index * warps per CTA + warp) sent from this SM to a warp not resident on
 * it (park.c). */
struct emu_wait {
    struct emu_warp *w;
    uint64_t clock;                /* when it completes: a quantum's end from this SM clock on (the clock after
                                      the instruction that made it, or later if the memory interface says so) */
    uint32_t sm, seq;              /* the SM and its issue order there */
    struct emu_grid *g;
    uint64_t gwarp;
};

/* ------------------------------------------- an SM's view of global memory
 * (overlay.c).  Within a quantum an SM sees global memory as it was at the
 * quantum's start plus its own stores: its first store to a 256-byte block
 * gives it a copy of the block, and later accesses of that SM use the copy
 * (whose other bytes are filled in from device memory, which does not
 * change during the quantum, when the SM first reads it).  At the
 * quantum's end the copies are merged in SM order (the bytes each SM stored,
 * then its logged reductions), so what any SM reads never depends on how
 * host threads interleave, and two SMs' stores to one byte in one quantum
 * leave the higher SM's.  Global atomics and strong loads wait for the
 * quantum's end (EX_WAIT), after the merge. */
#define BLK_SHIFT 8
#define BLK_SIZE (1u << BLK_SHIFT)
#define EMU_PAGE_BLKS (1u << (PAGE_SHIFT - BLK_SHIFT)) /* blocks per device page */

struct emu_blk {
    uint8_t data[BLK_SIZE];        /* the SM's copy: the bytes it stored, all of them once full */
    uint64_t dirty[BLK_SIZE / 64]; /* bytes it stored (bit per byte); zero again after the merge */
    uint64_t sum;                  /* bit j: dirty[j] may be nonzero */
    uint64_t redb[BLK_SIZE / 64];  /* bytes with logged reductions (valid when has_red) */
    uint64_t key;                  /* block number: (address - MEM_GLOBAL_BASE) >> BLK_SHIFT */
    uint8_t *home;                 /* the block's bytes in device memory */
    uint32_t has_red;
    uint32_t full;                 /* the bytes it did not store are copied in (it was read) */
};

/* A reduction of exact commutative integer operation (XF_RED_NOW) an SM
 * performed on its copy, applied to device memory at the merge. */
struct emu_red { uint64_t addr, val; uint16_t op, type; uint32_t size; };

struct emu_overlay {
    struct emu_blk **blk;          /* [0, nblk): this quantum's copies in creation order; then a pool */
    uint32_t nblk, nalloc, cap;
    uint32_t *pidx;                /* by device page: 0, or 1 + index in ptab of the page's table of copies */
    struct emu_blk *(*ptab)[EMU_PAGE_BLKS]; /* per page holding copies: its blocks' copies (NULL: none) */
    uint32_t nptab, ptab_cap;
    struct emu_red *reds;
    uint32_t nreds, reds_cap;
};

/* What a warp holds only while it runs (sched.c): its frames with their
 * register files, its SIMT stack and its local memory (all zero).  Its SM
 * lends them at the warp's first issue and takes them back when it is done,
 * for the next warp that starts there. */
struct emu_wbufs {
    struct emu_frame *frames;
    uint32_t frames_cap, simt_cap;
    struct emu_simt *simt;
    uint8_t *local;
    uint64_t local_cap, *local_pages;
};

struct emu_sm {
    struct emu_device *dev;
    uint32_t id, mode;
    uint64_t clock;                /* cycles; with no timing model one per warp instruction issued */
    uint32_t warps_used, threads_used, ctas_used;
    uint64_t regs_used, shared_used;
    struct emu_cta *slots;         /* max_ctas_per_sm CTA slots */
    struct emu_warp **ws;          /* resident warps (scheduling order) */
    uint32_t nws;
    uint64_t *ready;               /* bitmap over ws: the warps in WS_READY (emu_warp_state keeps it) */
    uint64_t *rat, *wage;          /* over ws: each warp's ready_at (emu_warp_ready keeps it) and age, so
                                      that a pick scans two arrays, not the warps */
    uint32_t rr;                   /* loose round-robin: last warp index issued */
    struct emu_warp *greedy;       /* GTO: last warp issued */
    uint64_t next_age;
    struct emu_wait *waits;        /* warps in WS_WAIT_MEM until a quantum's end, in issue order */
    uint32_t nwaits, waits_cap;
    struct emu_wait *locals;       /* warps in WS_WAIT_MEM until their request completes on this SM */
    uint32_t nlocals, locals_cap;
    uint32_t seq;                  /* requests that waited so far (their issue order) */
    int faulted;                   /* a fault this quantum (in fault / fault_clock) */
    uint64_t fault_clock;
    struct emu_warp *running;      /* the warp in emu_warp_run, and its instruction count before: */
    uint64_t run_insns0;           /* a fault is dated at the SM clock of its instruction */
    struct emu_grid *fault_grid;   /* the grid of the faulting CTA (NULL: the SM itself) */
    struct emu_fault fault;
    struct emu_overlay ov;         /* private copies of the global memory it stored to this quantum */
    uint32_t last_alloc[EMU_LAST_ALLOCS]; /* allocations its warps found last: a new warp's emu_warp.last_alloc */
    int dirty;                     /* resident warps changed: rebuild ws */
    int idle;                      /* no warp could issue before the quantum's end */
    uint32_t issued_now;           /* with a timing model: warp instructions issued in this cycle so far */
    struct emu_wbufs *spare;       /* buffers of finished warps, the last one given back on top */
    uint32_t nspare;               /* (at most max_warps_per_sm: one per warp that runs) */
    struct mx_memreq *preq;        /* port requests of its waiting warps (max_warps_per_sm; made at the first) */
    uint8_t *preq_busy;
};

struct emu_module {
    struct emu_device *dev;
    const struct mx_program *prog;
    uint64_t *addr;                /* by symbol: device address of .global/.const variables */
    struct emu_kernel **kernels;   /* by function index, bound at first launch */
    pthread_mutex_t lock;
};

int emu_mem_init(struct emu_device *d);
void emu_mem_fini(struct emu_device *d);
int emu_sched_init(struct emu_device *d);
void emu_sched_fini(struct emu_device *d);
/* The kernel `func` of a module, bound at its first use (NULL, *rc set, on failure). */
struct emu_kernel *emu_module_kernel(struct emu_module *m, uint32_t func, int *rc);

/* The shared memory of CTA c and its size. */
static inline uint8_t *emu_cta_shared(struct emu_cta *c, uint64_t *size)
{
    *size = c->shared_size;
    return c->shared;
}

/* simt.c: lanes parked at barriers (independent thread scheduling). */
int emu_simt_pick(struct emu_warp *w);
/* Marks the running lanes (the top entry) as waiting for `wait` from pc on;
 * emu_simt_park also picks what the warp runs next (EX_JUMP or EX_YIELD). */
void emu_simt_wait(struct emu_warp *w, uint32_t pc, uint32_t wait, uint32_t need);
int emu_simt_park(struct emu_warp *w, uint32_t pc, uint32_t wait, uint32_t need);
int emu_warpsync_check(struct emu_warp *w, uint32_t extra, uint32_t need);

/* barrier.c: CTA barriers and thread exit. */
int emu_cta_barrier_arrive(struct emu_warp *w, uint32_t bar, uint32_t count, uint32_t threads);
int emu_cta_barrier_red(struct emu_warp *w, uint32_t bar, uint32_t count, uint32_t threads, uint32_t kind,
                        uint32_t dref, uint32_t votes);
void emu_cta_thread_exit(struct emu_warp *w, uint32_t nthreads);

/* fault.c: reports of stopped warps. */
/* The instruction a stopped warp is at (a barrier it waits at, the last one of a function it fell off). */
uint32_t emu_warp_pc(const struct emu_warp *w);
/* Where every blocked or parked warp of CTA c waits ("warp 0 waits at PTX
 * line 12 (barrier 0); warp 1 is parked at PTX line 20"). */
void emu_deadlock_detail(const struct emu_cta *c, char *p, size_t cap);

/* Appends e to list *v of *n entries (capacity *cap); 0, or -1 out of host memory. */
static inline int emu_wait_append(struct emu_wait **v, uint32_t *n, uint32_t *cap, struct emu_wait e)
{
    if (*n == *cap) {
        uint32_t nc = *cap ? *cap * 2 : 64;
        struct emu_wait *p = realloc(*v, nc * sizeof *p);
        if (!p)
            return -1;
        *v = p;
        *cap = nc;
    }
    (*v)[(*n)++] = e;
    return 0;
}

/* Appends e to sm's list of what waits for a quantum's end (sm and seq
 * filled in); 0, or -1 out of host memory. */
static inline int emu_wait_push(struct emu_sm *sm, struct emu_wait e)
{
    e.sm = sm->id;
    e.seq = sm->seq++;
    return emu_wait_append(&sm->waits, &sm->nwaits, &sm->waits_cap, e);
}

/* park.c: parked warps (WS_PARKED), for helper warps and the park ISA
 * extension.  A parked warp is never picked and costs no host time; a wake
 * makes it ready at the waker's clock.  A wake of a warp that is not parked
 * is kept (w->wakes) and used up by its next park, so none is lost.  The
 * effect of a wake never depends on host threads: a wake of a warp on the
 * waker's own SM, or one made outside a quantum (at its end), applies at
 * once; one of a warp on another SM during a quantum is queued in the
 * waker's list (emu_wait) and applied at the quantum's end in (clock, SM,
 * issue) order with the requests that wait there. */
/* Parks w, which stands at the instruction that parks it (its pc): 1, and w
 * is WS_PARKED; or 0, and a kept wake was used up instead (w goes on).
 * Called by w's own handler (which returns EX_YIELD after setting w->pc to
 * where the warp resumes) or outside a quantum for a warp not running. */
int emu_warp_park(struct emu_warp *w);
/* Wakes w on behalf of SM sm (the waker's; its clock dates the wake).  A
 * queued wake names w by grid and index, so w's CTA must stay resident
 * until the quantum's end (helper warps are) or the wake goes to no one.
 * MX_OK, or MX_ENOMEM when it could not be queued. */
int emu_warp_wake(struct emu_sm *sm, struct emu_warp *w);
/* Wakes warp gwarp of grid g (CTA index * warps per CTA + warp, < the
 * grid's warps) on behalf of sm.  A warp whose CTA finished needs no wake;
 * one whose CTA has not started yet gets it when it has (the wake waits). */
int emu_warp_wake_id(struct emu_sm *sm, struct emu_grid *g, uint64_t gwarp);
/* At the quantum's end: applies a queued wake (e->w NULL).  MX_OK or MX_ENOMEM. */
int emu_wake_deliver(struct emu_device *d, const struct emu_wait *e);
/* At the quantum's end: when no warp of the device can issue, no request is
 * outstanding and a warp is parked, nothing can wake it: MX_EDEADLOCK on
 * its SM naming it and the line where it parked.  1 if so. */
int emu_parked_deadlock(struct emu_device *d);

/* Element j of the vector/list operand in slot i. */
#define VREF(w, x, i, j) ((w)->k->vrefs[(x)->r[i] + (j)])

/* Warp states.  WS_BARRIER: lanes parked at bar.sync / bar.warp.sync and no
 * other path can run; WS_WAIT_MEM: a request outstanding (EX_WAIT);
 * WS_PARKED: asleep until woken (park.c; helper warps of cache-mode SMs). */
enum { WS_READY, WS_BARRIER, WS_WAIT_MEM, WS_PARKED, WS_DONE };

/* Sets a warp's state, keeping its SM's bitmap of ready warps in step (the
 * warp schedulers look at ready warps only). */
static inline void emu_warp_state(struct emu_warp *w, uint32_t st)
{
    w->state = st;
    struct emu_sm *sm = w->cta->sm;
    if (w->ws_idx < sm->nws && sm->ws[w->ws_idx] == w) {
        uint64_t bit = 1ull << (w->ws_idx & 63);
        if (st == WS_READY)
            sm->ready[w->ws_idx >> 6] |= bit;
        else
            sm->ready[w->ws_idx >> 6] &= ~bit;
    }
}

/* Sets the SM clock at which w may issue again, keeping its SM's copy for
 * the warp schedulers in step. */
static inline void emu_warp_ready(struct emu_warp *w, uint64_t clock)
{
    w->ready_at = clock;
    struct emu_sm *sm = w->cta->sm;
    if (w->ws_idx < sm->nws && sm->ws[w->ws_idx] == w)
        sm->rat[w->ws_idx] = clock;
}

/* ----------------------------------------------------------- operand access */
#define CONST_ROW(w, ref) ((const uint64_t *)(w)->consts[(ref) & ~REF_CONST])
/* Source lanes of operand slot i: a pointer to 32 values. */
#define SRC(i) (((x->r[i]) & REF_CONST) ? CONST_ROW(w, x->r[i]) : (const uint64_t *)(w->regs + (size_t)x->r[i] * WARP))
/* Destination lanes of operand slot i. */
#define DST(i) (w->regs + (size_t)x->r[i] * WARP)
/* Predicate source of slot i as a lane mask (negation applied). */
static inline uint32_t emu_pred(const struct emu_warp *w, uint32_t ref)
{
    uint32_t m = (ref & REF_CONST) ? ((ref & 1) ? FULL_MASK : 0) : w->preds[ref & ~(REF_CONST | REF_NEG)];
    return (ref & REF_NEG) ? ~m : m;
}
#define PSRC(i) emu_pred(w, x->r[i])
/* Writes lane mask v to predicate slot i for the lanes in m; a '_'
 * predicate destination (REF_NONE) writes nothing. */
#define PDST(i, v)                                                             \
    do {                                                                       \
        if (x->r[i] != REF_NONE)                                               \
            w->preds[x->r[i]] = (w->preds[x->r[i]] & ~m) | ((v) & m);          \
    } while (0)

/* Runs the body (the remaining arguments, commas allowed) once per lane set
 * in mask `m_`, with `l` the lane index; the full-mask case is a plain
 * counted loop the compiler vectorizes (ivdep: a destination slot is either
 * one of the source slots or disjoint from them, never partly overlapping). */
#define FOR_LANES(m_, ...)                                                      \
    do {                                                                       \
        uint32_t m__ = (m_);                                                   \
        if (m__ == FULL_MASK) {                                                \
            _Pragma("GCC ivdep")                                               \
            for (int l = 0; l < WARP; l++) { __VA_ARGS__; }                    \
        } else {                                                               \
            while (m__) {                                                      \
                int l = __builtin_ctz(m__);                                    \
                m__ &= m__ - 1;                                                \
                __VA_ARGS__;                                                   \
            }                                                                  \
        }                                                                      \
    } while (0)

/* ---------------------------------------------------------------- binders
 * A binder looks at one decoded instruction and returns the handler that
 * executes it, or NULL if that form is not implemented (the launch then
 * fails with "unsupported instruction" naming file:line).  Binders may also
 * set x->aux/aux2/flags/size.  Each exec_*.c file exports one table of
 * {op, binder} rows, listed in exec.c.
 *
 * The program comes from the front end, but no handler may depend on its
 * validator for memory safety.  Before any binder runs, emu_bind_verify()
 * (exec.c) checks what is generic: every register, predicate, symbol,
 * label, function and vector element an operand names exists; each
 * operand's kind fits its slot in the opcode's format (a destination is a
 * register, predicate, sink or vector; a source is no label or address...);
 * required operands are present; vectors appear only in opcodes whose
 * binder checks their shape (emu_bind_verify's list); call lists name
 * .param variables that fit the caller's and callee's buffers.  A binder
 * checks what its handler relies on beyond that (a .vN access has a vector
 * of exactly N elements, ...) and returns emu_bind_invalid() when the
 * instruction is malformed.  Either way the instruction is bound to a
 * handler that stops the kernel with MX_EILLEGAL "invalid instruction". */
typedef emu_fn (*emu_binder)(const struct mx_insn *in, struct emu_xinsn *x);
struct emu_bind_row { int op; emu_binder bind; };
#define EMU_BIND_END { -1, NULL }

extern const struct emu_bind_row emu_bind_int[];   /* exec_int.c: integer, bit, logic, compare/select, mov */
extern const struct emu_bind_row emu_bind_fp[];    /* exec_fp.c: floating point arithmetic */
extern const struct emu_bind_row emu_bind_cvt[];   /* exec_cvt.c: cvt and friends */
extern const struct emu_bind_row emu_bind_mem[];   /* exec_mem.c: ld/st/atom/red/cvta/isspacep */
extern const struct emu_bind_row emu_bind_ctrl[];  /* exec_ctrl.c: bra/brx/call/ret/exit/trap */
extern const struct emu_bind_row emu_bind_sync[];  /* exec_sync.c: barriers, vote/shfl/match/redux, membar */
extern const struct emu_bind_row emu_bind_async[]; /* exec_async.c: cp.async and mbarriers */
extern const struct emu_bind_row emu_bind_tex[];   /* exec_tex.c: tex/txq on texture objects */
extern const struct emu_bind_row emu_bind_surf[];  /* exec_surf.c: suld/sust on surface objects */
extern const struct emu_bind_row emu_bind_tensor[]; /* exec_tensor.c: wmma, mma.sync, ldmatrix */
extern const struct emu_bind_row emu_bind_ext[];   /* ext/movind.c: the indirect-mov ISA extension */
extern const struct emu_bind_row emu_bind_park[];  /* ext/park.c: the park ISA extension */

/* The instruction's spelling for a report ("ld.global.v4.u32"), robust to
 * out-of-range opcode, modifier and type values (verify.c). */
void emu_insn_name(const struct mx_insn *in, char *name, size_t size);

/* Why an instruction is malformed (emu_bind_invalid). */
enum emu_bad {
    EMU_BAD_OPCODE = 1, /* opcode, types or modifiers not a form opcodes.def allows */
    EMU_BAD_GUARD,      /* guard is not a predicate of the function */
    EMU_BAD_REF,        /* operand names a register/symbol/label/function that does not exist */
    EMU_BAD_KIND,       /* operand kind does not fit its slot */
    EMU_BAD_MISSING,    /* a required operand is absent */
    EMU_BAD_VEC,        /* operand is not a vector of the element count the instruction needs */
    EMU_BAD_CALL,       /* call list element is not a .param variable that fits the buffers */
};
/* Binds x to the "invalid instruction" trap: operand `slot` (-1: none) is
 * malformed for reason `why`; `count` is the vector width expected
 * (EMU_BAD_VEC).  Returns that handler, for a binder to return. */
emu_fn emu_bind_invalid(struct emu_xinsn *x, enum emu_bad why, int slot, unsigned count);
/* Checks the generic operand rules above for instruction `in` of function
 * `fi`.  Returns 0 when they hold; otherwise binds x to the "invalid
 * instruction" trap and returns -1 (x->r and x->guard must be REF_NONE). */
int emu_bind_verify(const struct mx_program *g, uint32_t fi, const struct mx_insn *in, struct emu_xinsn *x);
/* 0 if call `in` made in function cf passes and receives .param variables
 * that fit its own scratch buffer and the parameter buffers of function
 * `callee` (a defined function or a host function, not a kernel), as the
 * call and return paths copy them; else an enum emu_bad, with *slot (may
 * be NULL) the operand at fault. */
int emu_call_fits(const struct mx_program *g, const struct mx_func *cf, const struct mx_insn *in, uint32_t callee, int *slot);

/* ------------------------------------------------------------- memory
 * Generic address layout: global memory (device allocations and module
 * variables) from MEM_GLOBAL_BASE; the executing CTA's shared memory is the
 * window [MEM_SHARED_WIN, +MEM_WIN_SIZE); the executing thread's local
 * memory is the window [MEM_LOCAL_WIN, +MEM_WIN_SIZE).                    */
#define MEM_GLOBAL_BASE 0x0000700000000000ull
#define MEM_SHARED_WIN 0x0000001000000000ull
#define MEM_LOCAL_WIN 0x0000002000000000ull
#define MEM_WIN_SIZE 0x0000000001000000ull /* 16 MiB */

struct emu_alloc {
    uint64_t base, size;
    uint64_t rlo, rhi;            /* device addresses it keeps from other allocations, if wider than
                                     [base, base + size) (else 0): the whole pages of a host alias */
    uint32_t live;                /* 0 once freed */
    char name[64];                /* module variable name, or "" for emu_malloc */
};

#define ALLOC_CHUNK 4096
#define ALLOC_MAX_CHUNKS 1024
#define EMU_TEX_MAX 4096

struct emu_device {
    struct emu_config cfg;
    uint8_t **pages;              /* flat page table over [MEM_GLOBAL_BASE, + mem_size), filled on first touch */
    uint64_t npages;
    uint64_t *host_mapped;        /* bitmap over pages: mapped at their own address (emu_mem_map_host), not calloc'd */
    uint64_t *host_alias;         /* bitmap over pages: the program's own memory (emu_alias_host), never freed here */
    uint64_t touched;             /* pages allocated (host bytes = touched << PAGE_SHIFT) */
    uint64_t heap_top;            /* next free address of the bump allocator */
    struct emu_alloc *alloc_chunk[ALLOC_MAX_CHUNKS]; /* allocations in creation order, chunked so pointers stay valid */
    uint32_t nallocs;
    uint32_t *sorted;             /* live allocation indices sorted by base */
    uint32_t nsorted, sorted_cap;
    void *lock;                   /* pthread mutex guarding the allocator */
    uint64_t free_bytes_hint;
    int direct;                   /* completing requests at a quantum's end: accesses go to device memory */
    struct emu_sm *sms;           /* cfg.num_sms SMs (sched.c) */
    struct emu_grid *grids;       /* active grids, in launch order */
    uint64_t clock;               /* global clock: start of the current quantum */
    uint32_t rr_sm;               /* block scheduler: next SM to try */
    void *pool;                   /* host worker threads (sched.c) */
    int in_quantum;               /* SMs are running a quantum (on any host thread): what crosses SMs waits */
    struct mx_port *port;         /* the lines of the port request being completed (sched.c) */
    struct emu_grid *helper;      /* the helper kernel on the cache-mode SMs, or NULL */
    int helper_dead;              /* it faulted: it serves nothing more */
    uint64_t helper_at;           /* helper_timing: a helper warp run now starts at this clock at the earliest
                                     (the port request's arrival at the cache-mode SM) */
    uint64_t helper_done;         /* the latest clock a helper warp parked at since it was last cleared */
    int helper_timing;            /* a timed port request is completing: helper warps run timed */
    struct emu_tex_desc tex[EMU_TEX_MAX]; /* texture objects (exec_tex.c): handle = index + 1 */
    uint8_t tex_live[EMU_TEX_MAX];
    struct emu_cdp_buf *cdp_bufs;  /* parameter buffers handed out, not yet launched (cdp.c) */
    uint32_t cdp_pending;          /* device-side launches queued, not yet started */
    uint32_t cdp_max_pending;      /* at most that many (emu_device_set_cdp_pending) */
    uint64_t cdp_strings[32];      /* device copies of the error names and texts the device runtime
                                      returns, by cdp.c's table row (0: none yet) */
    /* checks a launch as the host's would (sched.c lends it to cdp.c): MX_OK, or the status with
     * fault->message */
    int (*launch_check)(struct emu_device *d, struct emu_module *m, const struct emu_launch *l,
                        struct emu_fault *fault);
};

/* Whether [addr, addr + n) lies in device memory, allocated or not: what
 * the memory side (helper kernels, whole cache lines around small
 * allocations) may read and write. */
static inline int emu_mem_line_ok(const struct emu_device *d, uint64_t addr, uint64_t n)
{
    return addr >= MEM_GLOBAL_BASE && n <= d->cfg.mem_size && addr - MEM_GLOBAL_BASE <= d->cfg.mem_size - n;
}

static inline struct emu_alloc *emu_alloc_at(const struct emu_device *d, uint32_t i)
{
    return &d->alloc_chunk[i / ALLOC_CHUNK][i % ALLOC_CHUNK];
}
/* Index of the live allocation containing [addr, addr+size), or -1. */
int emu_alloc_find(struct emu_device *d, uint64_t addr, uint64_t size);
/* Index of the allocation nearest to addr (live or not), or -1. */
int emu_alloc_nearest(struct emu_device *d, uint64_t addr);
/* Registers a module variable as an allocation with a name. */
int emu_alloc_named(struct emu_device *d, uint64_t size, uint32_t align, const char *name, uint64_t *addr);



/* Host pointer for `size` bytes at address addr of `space` for lane `lane`
 * of warp w, or NULL after recording a fault (out of bounds, misaligned).
 * `space` SP_GENERIC resolves the window first. */
uint8_t *emu_mem_lane(struct emu_warp *w, const struct emu_xinsn *x, int space, uint64_t addr, unsigned size,
                      int lane, int write);
/* Page holding a global address (allocated on first touch), no checks. */
uint8_t *emu_mem_page(struct emu_device *d, uint64_t addr);
/* Device global memory without a warp (host copies); NULL if unmapped. */
uint8_t *emu_mem_global(struct emu_device *dev, uint64_t addr, uint64_t size, int *status);

/* New memory value of one atomic operation `op` of type t (exec_mem.c);
 * *ok = 0 if the pair is not supported.  ftz: f32 add flushes subnormals. */
uint64_t emu_atom_apply(int op, int t, uint64_t old, uint64_t b, uint64_t c, int ftz, int *ok);

/* Host functions callable from PTX (vprintf, malloc, free, __assertfail). */
int emu_hostcall(struct emu_warp *w, const struct emu_xinsn *x, const char *name, uint32_t mask,
                 uint8_t *args, uint32_t args_stride, uint8_t *ret, uint32_t ret_stride, int *handled);

/* Dynamic parallelism (cdp.c): frees the device's parameter buffers at its end. */
void emu_cdp_fini(struct emu_device *d);

/* ------------------------------------------------------------- helpers */

/* Records a fault on the warp (lane -1 if not lane-specific) and returns EX_FAULT. */
int emu_fault(struct emu_warp *w, const struct emu_xinsn *x, int status, int lane, uint64_t addr,
              unsigned size, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* Population count without libgcc's call (x86-64 baseline has no popcnt). */
static inline uint32_t popc32(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* Sign-extends the low `bits` bits of v. */
static inline int64_t sext(uint64_t v, unsigned bits)
{
    if (bits >= 64)
        return (int64_t)v;
    uint64_t m = 1ull << (bits - 1);
    v &= (m << 1) - 1;
    return (int64_t)((v ^ m) - m);
}
static inline uint64_t zext(uint64_t v, unsigned bits) { return bits >= 64 ? v : v & ((1ull << bits) - 1); }

static inline float f32_of(uint64_t v) { uint32_t b = (uint32_t)v; float f; memcpy(&f, &b, 4); return f; }
static inline uint64_t bits_f32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static inline double f64_of(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t bits_f64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

#endif

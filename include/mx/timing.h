/* include/mx/timing.h — the timing-model plugin API (QEMU-plugin style).
 * A model is a versioned struct of callbacks registered by name, built in
 * or loaded from a shared object (--timing path/to/model.so, which exports
 * `const struct tm_ops mx_timing_model`).  It never changes architectural
 * state (every argument is const); it answers *when*: after each warp
 * instruction, how many cycles until that warp may issue again, and after
 * each memory access, how many until its data is back.  The emulator's
 * per-SM warp scheduler follows those ready times.  With the model "none"
 * nothing is paid: the emulator builds an event record only when the model
 * subscribes to it (tm_ops.events).  docs/timing.md is the guide to writing
 * a model. */
#ifndef MX_TIMING_H
#define MX_TIMING_H

#include <stddef.h>
#include <stdint.h>

/* 2: issue() and mem() answer ready times; init() takes the parameters.
 * 3: the level TM_LV_XLLC_DRAM (an extended-LLC miss the predictor sent to
 * the cache-mode SM: its lookup, then DRAM) and tm_params.mem_clock_scale.
 * 4: the cycle model's needs: register dependences (TM_EV_DEPS, tm_issue.def
 * and use_next), the warp's slot on its SM, quantum_end(), and tm_params'
 * initiation intervals, clocks per domain, interconnect and DRAM geometry.
 * 5: the extended LLC served by the helper kernel (--xllc helper): the
 * level TM_LV_XLLC_TRIP, tm_mem.helper and served().
 * 6: register-file banks: tm_issue.nsrc and src (the registers an
 * instruction reads) and tm_params.rf_banks.
 * 7: each line's own level: tm_mem.line_addr and line_level (an access
 * whose lines come from different levels costs each level's bandwidth only
 * for its own lines).
 * 8: the bytes each line moves: tm_mem.line_bytes (the sectors the L1 does
 * not supply, which the LLC, DRAM and the interconnect move; a block for a
 * load the extended LLC misses, which DRAM fills whole).
 * 9: DRAM's writes: dram_written(), the bytes written back to each channel
 * in a quantum.
 * 10: rewake(): at a quantum's end the model may move the ready time of a
 * warp the emulator holds on an earlier issue() answer (a share of DRAM
 * that changed since the data was promised).
 * 11: on_kernel_end() is called (a grid's span may be raised).
 * 12: dram_traffic() replaces dram_written(): the bytes read from each DRAM
 * channel in a quantum beside those written (the quantum's reads as the
 * hierarchy made them, which the levels mem() was told at each access only
 * estimate).
 * 13: tm_params.span (timing.span): the cycles a model measures what it learns
 * from the traffic over, apart from the quantum, which sets how stale the
 * hierarchy's answers are (2048 by default since 13, 16384 before).
 * A model built for another version is refused by name. */
#define TM_API_VERSION 13

enum tm_event_bits {
    TM_EV_LAUNCH = 1u << 0,   /* kernel start / end */
    TM_EV_ISSUE = 1u << 1,    /* every warp instruction issued: issue() */
    TM_EV_MEM = 1u << 2,      /* every warp access to global/local/const/tex memory with a hierarchy
                                 (--memsys on): mem() */
    TM_EV_BARRIER = 1u << 3,  /* CTA barrier release */
    TM_EV_DEPS = 1u << 4,     /* the model tracks register dependences itself (a scoreboard): the emulator
                                 does not hold a warp for its loads (their data is read when issued, as the
                                 SM sees memory then); mem() answers when the access's destination registers
                                 are written, and issue() (with def and use_next) when the warp may go on */
};

/* Where a memory access is served, as the memory hierarchy says when it is
 * issued (its tags and predictor as of the quantum's start: deterministic).
 * The first six are enum mx_level's.  XLLC_DRAM: the line belongs to the
 * extended LLC, which does not hold it, but the hit/miss predictor (or its
 * absence, --predictor none) sent the request there first.  XLLC_TRIP
 * (v5) is no level an access is served from: in helper mode, an
 * extended-LLC access's trip to the cache-mode SM and back, without the
 * helper kernel's service, whose own timed instructions come on top
 * (tm_mem.helper). */
enum tm_level { TM_LV_NONE, TM_LV_L1, TM_LV_LLC, TM_LV_XLLC, TM_LV_DRAM, TM_LV_XLLC_DRAM, TM_LV_SHARED,
                TM_LV_XLLC_TRIP, TM_LV_COUNT };

struct tm_issue {             /* one warp instruction, just executed */
    uint32_t sm, cta, warp;   /* SM, CTA (linear index in its grid), warp in the CTA */
    uint32_t pc;              /* instruction index */
    uint16_t op;              /* enum mx_op */
    uint8_t unit;             /* enum mx_unit */
    uint8_t shared;           /* 1: an access to shared memory (its state space says so) */
    uint32_t active;          /* lanes executing */
    uint64_t clock;           /* the SM's clock when it issued */
    /* v4 */
    uint32_t wslot;           /* the warp's slot on its SM: CTA slot * 32 + warp (< tm_params.warp_slots) */
    uint8_t first;            /* 1: the warp's first instruction (a new warp in that slot) */
    uint64_t def;             /* registers it writes, as bits (register r: bit r mod 64, predicate p: bit
                                 63 - p mod 64; calls and fences: every bit) */
    uint64_t use_next;        /* registers (and guard) the warp's next instruction reads, the same bits; 0
                                 when the warp does not go on at once (done, waiting, at a barrier) */
    /* v6 */
    uint8_t nsrc;             /* distinct registers it reads (guard predicates and immediates not counted; at
                                 most TM_MAX_SRC: the first ones in operand order) */
    const uint16_t *src;      /* their numbers: the function's register slots, in declaration order (the
                                 SASS path declares R0..R254 as consecutive slots, so two machine registers
                                 share a bank modulo any count exactly when their slots do) */
};
#define TM_MAX_SRC 6

struct tm_mem {               /* one warp memory access (TM_EV_MEM) */
    uint32_t sm, cta, warp, pc;
    uint8_t space;            /* enum mx_memspace: global, local, const, tex */
    uint8_t write, atomic;
    uint8_t size;             /* bytes per lane */
    uint8_t level;            /* enum tm_level: the slowest level any of its lines comes from */
    uint32_t lines;           /* 128-byte lines it touches */
    uint32_t active;
    uint64_t clock;           /* when it was issued */
    const uint64_t *addr;     /* 32 lane addresses (valid for active lanes) */
    uint32_t grid_ctas;       /* CTAs of the warp's grid (saturated at 2^32-1) */
    uint32_t wslot;           /* v4: as tm_issue.wslot */
    /* v5: 1: a helper kernel on a cache-mode SM serves it (--xllc helper; level XLLC or XLLC_DRAM).  The
     * answer is the trip there and back, level XLLC_TRIP, without the extended LLC's or DRAM's bandwidth
     * shares.  The helper's warp then serves it with instructions this model times on that SM (issue(),
     * and mem() for its own accesses: a line's DRAM fetch or write-back at level DRAM, its request row at
     * L1), queued behind the requests that warp served before; the data is back when it is done, which
     * the emulator tells served() (TM_EV_DEPS) or waits for itself. */
    uint8_t helper;
    /* v7: its lines (byte addresses of the hierarchy's lines, `lines` of them, in the order of the lanes'
     * first touch) and the level each comes from; NULL when the emulator does not know them (a helper
     * warp's own access, no hierarchy): every line at `level` */
    const uint64_t *line_addr;
    const uint8_t *line_level;
    /* v8: the bytes each of those lines moves beyond the SM at its level (0 for an L1 hit): the LLC, DRAM
     * and the interconnect move 32-byte sectors, so a lane's word of a line the L1 misses moves one sector,
     * not the line; a load the extended LLC misses fills a whole block from DRAM.  NULL when line_addr is:
     * 128 bytes a line */
    const uint16_t *line_bytes;
};

/* v5: a helper-mode access's data is back (tm_mem.helper): at the quantum's
 * end, after the helper's warp served it. */
struct tm_served {
    uint32_t sm, wslot;       /* the warp that made the access */
    uint64_t def;             /* its destination registers (tm_issue.def's bits; 0: a store) */
    uint64_t use_next;        /* what the warp's next instruction reads */
    uint64_t ready;           /* when the data is back */
};

/* Every number a model may need, from the configuration (timing.* keys;
 * configs/NAME.json, sources named in docs/timing.md): never from code. */
#define TM_UNITS 9            /* enum mx_unit: int, fp, dp, sfu, ldst, ctrl, sync, tex, tensor */
#define TM_UNIT_LDST 4        /* enum mx_unit's MX_UNIT_LDST */
#define TM_UNIT_CTRL 5        /* enum mx_unit's MX_UNIT_CTRL: branches, calls, returns (emu checks both) */
struct tm_params {
    uint32_t unit_latency[TM_UNITS];   /* cycles from issue until the warp's next instruction may issue */
    uint32_t level_latency[TM_LV_COUNT]; /* cycles until an access's data is back, by level (NONE: no
                                          hierarchy: the ldst unit's latency applies) */
    uint32_t issue_width;              /* warp instructions an SM issues per cycle */
    uint32_t core_mhz;                 /* the SM clock, to turn cycles into seconds */
    double mem_clock_scale;            /* the memory side's clocks (interconnect, LLC, DRAM) relative to
                                          those the level latencies were measured at (1: as measured;
                                          Frequency-Boost 1.1-1.2): what lies beyond the L1 scales by 1/it */
    double dram_gbps, llc_gbps;        /* bandwidths (GB/s; 0: unlimited) of DRAM and of the LLC */
    double xllc_gbps_per_sm;           /* the extended LLC's bandwidth per cache-mode SM (GB/s) */
    /* The GPU the model times (from the configuration, not keys of their own): */
    uint32_t num_sms, cache_sms;       /* SMs; of them in cache mode (the highest-numbered) */
    /* v4: what the cycle model needs */
    uint32_t warp_slots;               /* per SM: max CTAs per SM * 32 (tm_issue.wslot's range) */
    uint32_t llc_partitions, dram_channels; /* from the memory hierarchy's configuration */
    uint32_t quantum;                  /* emu.quantum: cycles between two quantum_end() calls (with --xllc
                                          helper, emu.helper_quantum: shorter) */
    uint32_t initiation[TM_UNITS];     /* cycles a unit's pipeline in one scheduler's partition is busy per
                                          warp instruction (1: fully pipelined) */
    uint32_t icnt_mhz, dram_mhz;       /* clocks of the interconnect (and LLC) and of DRAM, MHz (with core_mhz
                                          the clock domains; mem_clock_scale multiplies the memory side's) */
    uint32_t icnt_flit_bytes;          /* bytes an SM's interconnect port moves per interconnect cycle, each way */
    uint32_t l1_lines_per_cycle;       /* L1 tag lookups (128-byte lines) per core cycle */
    uint32_t dram_banks, dram_row_bytes; /* per channel; a row's bytes */
    uint32_t dram_trcd, dram_trp;      /* DRAM cycles: activate to read, precharge */
    uint32_t rf_banks;                 /* v6: register-file banks per SM, shared out evenly among the
                                          issue_width scheduler partitions (0: no bank conflicts) */
    uint32_t span;                     /* v13: timing.span: cycles a model measures its shares and cost
                                          factors over (the cycle model: at least `quantum`; 0: each quantum) */
};

struct tm_ops {
    uint32_t version;         /* TM_API_VERSION the model was built for */
    const char *name;         /* selected with --timing NAME (or a path to a .so) */
    const char *summary;
    uint32_t events;          /* enum tm_event_bits the model wants */
    /* state for one device and SM split: 0, or -1 with a message in err (bad args).  When the online
     * controller changes the split between launches (--compute-sms auto), init() is called again with the
     * new tm_params.cache_sms, and the old state goes to fini() */
    int (*init)(void **state, const struct tm_params *p, const char *args, char *err, size_t errlen);
    /* TM_EV_LAUNCH: a grid got its first CTAs; between quanta, on one thread (shared state may change) */
    void (*on_launch)(void *state, const char *kernel, uint32_t nctas, uint32_t threads_per_cta);
    /* cycles (>= 1) until warp ev->warp may issue its next instruction */
    uint32_t (*issue)(void *state, const struct tm_issue *ev);
    /* cycles from ev->clock until the access's data is back (the warp waits) */
    uint32_t (*mem)(void *state, const struct tm_mem *ev);
    /* v11: a grid is done, after its last quantum (its DRAM traffic told, dram_traffic) on one host thread
     * while no SM runs: *cycles is its span, its first CTA's start to its last warp's end.  The model may
     * raise it (never lower it) to what the memory traffic it saw in that span needs: a launch shorter than
     * a quantum has its write-backs told after it, when its warps are done.  May be NULL. */
    void (*on_kernel_end)(void *state, uint64_t *cycles);
    void (*fini)(void *state);
    /* v4: between two quanta, on one host thread, while no SM runs (state shared among SMs may change
     * here and only here: what SMs see is then the same for every number of host threads); clock: the
     * quantum's end.  May be NULL. */
    void (*quantum_end)(void *state, uint64_t clock);
    /* v5, TM_EV_DEPS models: a helper-mode access (tm_mem.helper) is served: registers ev->def are written at
     * ev->ready.  Returns the cycle the warp may issue its next instruction (reading ev->use_next).  On one
     * host thread, at a quantum's end.  NULL: the emulator holds the warp until ev->ready. */
    uint64_t (*served)(void *state, const struct tm_served *ev);
    /* v12 (v9: dram_written, the writes alone): after each quantum's memory side, on one host thread while no
     * SM runs: the bytes the hierarchy read from (read[i]) and wrote to (written[i]) each DRAM channel i <
     * nchans in it.  The reads are what its merge of the quantum's accesses found missing: mem() was told each
     * line's level from the hierarchy's state at the quantum's start, so a line another access fetched
     * earlier in the quantum (a hit on a pending miss) was told DRAM, and one evicted meanwhile was told LLC.
     * The writes are write-backs: no access waits for them, yet they take DRAM's time from the reads.  Called
     * before that quantum's quantum_end().  May be NULL; not called with --memsys off. */
    void (*dram_traffic)(void *state, const uint64_t *read, const uint64_t *written, uint32_t nchans);
    /* v10: at a quantum's end, after quantum_end(), on one host thread while no SM runs, in SM and warp order:
     * for each warp the emulator holds until `ready` (> clock) on issue()'s last answer for it, when it may
     * issue its next instruction now (what the model promised may have moved: the queue an access waits in
     * drains at a share of the bandwidth it did not have when the access was made).  The emulator holds it
     * until then (clock at the earliest).  May be NULL: holds stay. */
    uint64_t (*rewake)(void *state, uint32_t sm, uint32_t wslot, uint64_t ready, uint64_t clock);
};

/* ---- energy (docs/timing.md "Energy"): per-event energies from the
 * configuration (energy.*), applied to a run's counts. */
struct tm_energy_params {
    double warp_insn_pj;              /* per warp instruction: fetch, i-cache, instruction buffer */
    double lane_op_pj[TM_UNITS];      /* per active lane of an instruction of each unit */
    double rf_lane_pj;                /* register-file reads and write per active lane and instruction */
    double l1_sector_pj;              /* per 32-byte L1 sector access */
    double llc_sector_pj;             /* per 32-byte LLC sector access, with its request and reply flits */
    double xllc_pj_per_byte;          /* per byte of an extended-LLC access, 128 B blocks: the paper's 61 pJ/B, whole-GPU
                                       * energy measured with every SM in cache mode (see tm_energy_xllc_pj) */
    double xllc_measured_gbps_per_sm; /* the bandwidth per cache-mode SM it was measured at (the paper: 34 GB/s) */
    double xllc_measured_sms;         /* on how many SMs (the paper's RTX 3080: 68); 0 (or a bandwidth of 0):
                                       * xllc_pj_per_byte is already the extended LLC's own energy */
    double dram_read_pj_per_byte, dram_write_pj_per_byte;
    double const_w;                   /* always paid (board, fans, clocks) */
    double static_sm_w;               /* per SM that is on (compute or cache mode) */
    double controller_frac;           /* the Morpheus controller: this fraction of the total, with cache-mode SMs */
};

/* A run's counts (a launch's, or a program's). */
struct tm_energy_counts {
    uint64_t warp_insns_by_unit[TM_UNITS];
    uint64_t thread_insns, warp_insns;
    uint64_t l1_sectors, llc_sectors, xllc_accesses, dram_read_bytes, dram_write_bytes;
    uint64_t cycles;
    uint32_t core_mhz;
    uint32_t sms_on, sms_cache;       /* SMs drawing static power; of them in cache mode */
};

/* Where a run's energy goes (tm_energy.part): the parts add up to total_j. */
enum tm_energy_part {
    TM_EP_CORE,       /* instructions: fetch and issue, register file, the units' lanes */
    TM_EP_L1,         /* L1 sectors */
    TM_EP_LLC,        /* LLC sectors with their interconnect flits */
    TM_EP_XLLC,       /* extended-LLC accesses (tm_energy_xllc_pj per byte) */
    TM_EP_DRAM,       /* DRAM bytes read and written */
    TM_EP_STATIC,     /* time x (constant + static power of the SMs on) */
    TM_EP_CONTROLLER, /* the Morpheus controller's share, with cache-mode SMs */
    TM_EPARTS
};
/* The parts' names in records ("core_j", ...), TM_EPARTS of them. */
extern const char *const tm_energy_part_names[TM_EPARTS];

struct tm_energy {
    double dynamic_j, static_j, total_j; /* total: dynamic + static, with the controller's share */
    double seconds, watts;               /* the run's time at core_mhz, and its average power */
    double part[TM_EPARTS];              /* total_j by where it goes */
};

/* The energy this model charges per byte of an extended-LLC access: xllc_pj_per_byte less what it
 * already charges as time-proportional power (const_w + static_sm_w per SM on) while xllc_measured_sms
 * serve xllc_measured_gbps_per_sm each, so that the model, put in the paper's measurement, gives
 * xllc_pj_per_byte of whole-GPU energy per byte (facts/energy.md 9: the 61 pJ/B is not incremental).
 * Negative when the static power alone exceeds it (fe_config_finish refuses such a configuration). */
double tm_energy_xllc_pj(const struct tm_energy_params *p);

/* The run's energy; e->seconds and watts are 0 when c->cycles or core_mhz is. */
void tm_energy_of(const struct tm_energy_params *p, const struct tm_energy_counts *c, struct tm_energy *e);

/* Registry.  tm_register() rejects a NULL name, a duplicate name or a
 * version other than TM_API_VERSION (returning -1). */
int tm_register(const struct tm_ops *ops);
const struct tm_ops *tm_find(const char *name);
/* Calls fn for every registered model, in registration order. */
void tm_foreach(void (*fn)(const struct tm_ops *ops, void *arg), void *arg);
/* Registers the models built into the project (idempotent). */
void tm_register_builtin(void);
/* The model named `spec`: a built-in name, or a path (containing '/') to a
 * shared object exporting `mx_timing_model`, loaded and registered.  NULL
 * with a message in err: unknown name, no such file, no symbol, another
 * API version ("built for timing API version N, this emulator speaks M"). */
const struct tm_ops *tm_resolve(const char *spec, char *err, size_t errlen);

#endif

/* include/mx/timing.h — the timing-model plugin API (QEMU-plugin style).
 * A model is a versioned struct of callbacks registered by name; it only
 * observes events and can never change architectural state (every argument
 * is const).  With the model "none" nothing is paid: the emulator builds an
 * event record only when the model subscribes to it (tm_ops.events). */
#ifndef MX_TIMING_H
#define MX_TIMING_H

#include <stdint.h>

#define TM_API_VERSION 1

enum tm_event_bits {
    TM_EV_LAUNCH = 1u << 0,   /* kernel start / end */
    TM_EV_ISSUE = 1u << 1,    /* every warp instruction issued */
    TM_EV_MEM = 1u << 2,      /* every warp memory access */
    TM_EV_BARRIER = 1u << 3,  /* CTA barrier release */
};

struct tm_issue {             /* one warp instruction */
    uint32_t sm, cta, warp;
    uint32_t pc;              /* instruction index */
    uint16_t op;              /* enum mx_op */
    uint8_t unit;             /* enum mx_unit */
    uint32_t active;          /* lanes executing */
};

struct tm_mem {               /* one warp memory access */
    uint32_t sm, cta, warp, pc;
    uint8_t space;            /* global, shared, local, const */
    uint8_t write, atomic;
    uint8_t size;             /* bytes per lane */
    uint32_t active;
    const uint64_t *addr;     /* 32 lane addresses (valid for active lanes) */
};

struct tm_ops {
    uint32_t version;         /* TM_API_VERSION the model was built for */
    const char *name;         /* selected with --timing NAME[,args] */
    const char *summary;
    uint32_t events;          /* enum tm_event_bits the model wants */
    int (*init)(void **state, const char *args); /* 0 or -1 (bad args) */
    void (*on_launch)(void *state, const char *kernel, uint32_t nctas, uint32_t threads_per_cta);
    void (*on_issue)(void *state, const struct tm_issue *ev);
    void (*on_mem)(void *state, const struct tm_mem *ev);
    void (*on_kernel_end)(void *state, uint64_t *cycles);  /* the model's cycle count for the kernel */
    void (*fini)(void *state);
};

/* Registry.  tm_register() rejects a NULL name, a duplicate name or a
 * version other than TM_API_VERSION (returning -1). */
int tm_register(const struct tm_ops *ops);
const struct tm_ops *tm_find(const char *name);
/* Calls fn for every registered model, in registration order. */
void tm_foreach(void (*fn)(const struct tm_ops *ops, void *arg), void *arg);
/* Registers the models built into the project (idempotent). */
void tm_register_builtin(void);

#endif

/* emu/hostcall.h — the table of host functions a PTX program may call
 * (hostcall.c): what an implementation gets, and the argument kinds. */
#ifndef MX_EMU_HOSTCALL_H
#define MX_EMU_HOSTCALL_H
#include "emu/emu-internal.h"

/* What a host implementation gets besides its arguments. */
struct hostctx {
    struct emu_warp *w;
    const struct emu_xinsn *x;
    int lane;
    int status;           /* EX_NEXT, or EX_FAULT after emu_fault() */
};

/* Argument / result kinds of the table (PTX .param types): HK_DIM3 is a
 * .align 4 .b8[12] argument, passed as const uint32_t[3]. */
enum hk { HK_VOID, HK_B32, HK_B64, HK_DIM3 };

struct hostfn {
    const char *name;
    void (*impl)(void);
    enum hk ret;
    uint8_t nargs;
    enum hk args[6];
    uint8_t once;         /* 1: call for the first lane only (assert stops the kernel) */
};

#define FN(f) ((void (*)(void))(f))

/* The device runtime's entry points for dynamic parallelism (cdp.c). */
uint64_t emu_cdp_param_buffer(struct hostctx *c, uint64_t func, const uint32_t *grid, const uint32_t *block,
                              uint32_t smem);
uint64_t emu_cdp_param_buffer_v1(struct hostctx *c, uint64_t align, uint64_t size);
uint32_t emu_cdp_launch(struct hostctx *c, uint64_t buf, uint64_t stream);
uint32_t emu_cdp_launch_v1(struct hostctx *c, uint64_t func, uint64_t buf, const uint32_t *grid, const uint32_t *block,
                           uint32_t smem, uint64_t stream);
uint32_t emu_cdp_get_last_error(struct hostctx *c);
uint32_t emu_cdp_peek_at_last_error(struct hostctx *c);
uint64_t emu_cdp_error_string(struct hostctx *c, uint32_t err);
uint64_t emu_cdp_error_name(struct hostctx *c, uint32_t err);
uint32_t emu_cdp_stream_create(struct hostctx *c, uint64_t pstream, uint32_t flags);
uint32_t emu_cdp_stream_destroy(struct hostctx *c, uint64_t stream);
uint32_t emu_cdp_malloc(struct hostctx *c, uint64_t pptr, uint64_t size);
uint32_t emu_cdp_free(struct hostctx *c, uint64_t ptr);
uint32_t emu_cdp_memcpy_async(struct hostctx *c, uint64_t dst, uint64_t src, uint64_t n, uint32_t kind, uint64_t stream);
uint32_t emu_cdp_memset_async(struct hostctx *c, uint64_t dst, uint32_t value, uint64_t n, uint64_t stream);
uint32_t emu_cdp_get_device(struct hostctx *c, uint64_t pdev);
uint32_t emu_cdp_runtime_version(struct hostctx *c, uint64_t pver);

#define EMU_CDP_LAUNCH_ROWS(suffix)                                                                                \
    { "__cudaCDP2LaunchDeviceV2" suffix, FN(emu_cdp_launch), HK_B32, 2, { HK_B64, HK_B64 }, 0 },                    \
    { "__cudaCDP2LaunchDevice" suffix, FN(emu_cdp_launch_v1), HK_B32, 6,                                            \
      { HK_B64, HK_B64, HK_DIM3, HK_DIM3, HK_B32, HK_B64 }, 0 },                                                    \
    { "__cudaCDP2MemcpyAsync" suffix, FN(emu_cdp_memcpy_async), HK_B32, 5, { HK_B64, HK_B64, HK_B64, HK_B32, HK_B64 }, 0 }, \
    { "__cudaCDP2MemsetAsync" suffix, FN(emu_cdp_memset_async), HK_B32, 4, { HK_B64, HK_B32, HK_B64, HK_B64 }, 0 },

/* Rows of hostcall.c's table (the _ptsz forms: per-thread default stream, the same here). */
#define EMU_CDP_HOSTFNS                                                                                             \
    { "__cudaCDP2GetParameterBufferV2", FN(emu_cdp_param_buffer), HK_B64, 4, { HK_B64, HK_DIM3, HK_DIM3, HK_B32 }, 0 }, \
    { "__cudaCDP2GetParameterBuffer", FN(emu_cdp_param_buffer_v1), HK_B64, 2, { HK_B64, HK_B64 }, 0 },            \
    EMU_CDP_LAUNCH_ROWS("") EMU_CDP_LAUNCH_ROWS("_ptsz")                                                           \
    { "__cudaCDP2GetLastError", FN(emu_cdp_get_last_error), HK_B32, 0, { 0 }, 0 },                                 \
    { "__cudaCDP2PeekAtLastError", FN(emu_cdp_peek_at_last_error), HK_B32, 0, { 0 }, 0 },                          \
    { "__cudaCDP2GetErrorString", FN(emu_cdp_error_string), HK_B64, 1, { HK_B32 }, 0 },                            \
    { "__cudaCDP2GetErrorName", FN(emu_cdp_error_name), HK_B64, 1, { HK_B32 }, 0 },                                \
    { "__cudaCDP2StreamCreateWithFlags", FN(emu_cdp_stream_create), HK_B32, 2, { HK_B64, HK_B32 }, 0 },            \
    { "__cudaCDP2StreamDestroy", FN(emu_cdp_stream_destroy), HK_B32, 1, { HK_B64 }, 0 },                           \
    { "__cudaCDP2Malloc", FN(emu_cdp_malloc), HK_B32, 2, { HK_B64, HK_B64 }, 0 },                                  \
    { "__cudaCDP2Free", FN(emu_cdp_free), HK_B32, 1, { HK_B64 }, 0 },                                              \
    { "__cudaCDP2GetDevice", FN(emu_cdp_get_device), HK_B32, 1, { HK_B64 }, 0 },                                   \
    { "__cudaCDP2RuntimeGetVersion", FN(emu_cdp_runtime_version), HK_B32, 1, { HK_B64 }, 0 },

#endif

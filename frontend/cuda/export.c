/* frontend/cuda/export.c — cuGetExportTable: the driver's private function
 * tables, asked by UUID by NVIDIA's static CUDA runtime (nvcc's default
 * -cudart static).  Their layouts are not documented; what is here was
 * observed from the runtime's own calls (CUDA 13.0): at its start it asks
 * f8cff951 (optional), 6bd5fb6c (calls slot 2), a094798c (slots 2 and 6),
 * 42d85a81, c693336e, 263e8860 (slots 2 and 3), then d4082055, a keyed
 * integrity check of the driver that the emulator does not answer: there
 * the runtime stops, and the user is told to rebuild with -cudart shared.
 * Slot 0 of most tables holds the table's size in bytes.  A slot the
 * runtime was never seen to call holds a trap that names the table and the
 * slot and fails; an unknown UUID is refused with its UUID named. */
#include <cuda.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/cuda/shared.h"

#define EXPORT __attribute__((visibility("default")))

struct xtable {
    unsigned char uuid[16];
    const char *name;      /* ours, for messages */
    const void *const *slots;
};

static void say_uuid(FILE *f, const unsigned char *u)
{
    for (int i = 0; i < 16; i++)
        fprintf(f, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", u[i]);
}

static int trap(const struct xtable *t, int slot)
{
    fprintf(stderr, "morpheus: the CUDA runtime called slot %d of the driver's private table ", slot);
    say_uuid(stderr, t->uuid);
    fprintf(stderr, " (%s), which the emulator does not implement (returns CUDA_ERROR_NOT_SUPPORTED)\n", t->name);
    return CUDA_ERROR_NOT_SUPPORTED;
}

/* ------------------------------------------- 6bd5fb6c: runtime interface */

static const struct xtable rt_iface;

/* slot 2: the device's primary context, asked once per device at the
 * runtime's start (the context stays the runtime's as long as it runs). */
static CUresult rt_primary_ctx(CUcontext *pctx, CUdevice dev)
{
    return cuDevicePrimaryCtxRetain(pctx, dev);
}

#define RT_TRAP(n) static int rt_trap##n(void) { return trap(&rt_iface, n); }
RT_TRAP(1) RT_TRAP(3) RT_TRAP(4) RT_TRAP(5) RT_TRAP(6) RT_TRAP(7) RT_TRAP(8) RT_TRAP(9)
RT_TRAP(10) RT_TRAP(11) RT_TRAP(12) RT_TRAP(13) RT_TRAP(14) RT_TRAP(15)
#define FN(f) ((const void *)(uintptr_t)(f))
static const void *const rt_slots[16] = {
    (const void *)(16 * sizeof(void *)), FN(rt_trap1), FN(rt_primary_ctx), FN(rt_trap3), FN(rt_trap4), FN(rt_trap5),
    FN(rt_trap6), FN(rt_trap7), FN(rt_trap8), FN(rt_trap9), FN(rt_trap10), FN(rt_trap11), FN(rt_trap12),
    FN(rt_trap13), FN(rt_trap14), FN(rt_trap15),
};
static const struct xtable rt_iface = {
    { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 },
    "runtime interface", rt_slots,
};

/* ------------------------------------------- a094798c: tools callback hooks */

static const struct xtable hooks;
#define HK_TRAP(n) static int hk_trap##n(void) { return trap(&hooks, n); }
HK_TRAP(1) HK_TRAP(3) HK_TRAP(4) HK_TRAP(5)

/* slots 2 and 6: the runtime asks for two buffers (address and size) in
 * which profiling tools subscribe to its callbacks; no tool is attached, so
 * they stay zero. */
static void *hook_buf[2][1024 / sizeof(void *)];
static void hk_buffer2(void **ptr, size_t *size)
{
    *ptr = hook_buf[0];
    *size = sizeof hook_buf[0];
}
static void hk_buffer6(void **ptr, size_t *size)
{
    *ptr = hook_buf[1];
    *size = sizeof hook_buf[1];
}
static const void *const hk_slots[7] = {
    (const void *)(7 * sizeof(void *)), FN(hk_trap1), FN(hk_buffer2), FN(hk_trap3), FN(hk_trap4), FN(hk_trap5),
    FN(hk_buffer6),
};
static const struct xtable hooks = {
    { 0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66 },
    "tools callback hooks", hk_slots,
};

/* ------------------------------------------- 42d85a81: tools thread-local storage */

static const struct xtable tls;
#define TL_TRAP(n) static int tl_trap##n(void) { return trap(&tls, n); }
TL_TRAP(1) TL_TRAP(2)
static const void *const tl_slots[3] = { (const void *)(3 * sizeof(void *)), FN(tl_trap1), FN(tl_trap2) };
static const struct xtable tls = {
    { 0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc },
    "tools thread-local storage", tl_slots,
};

/* ------------------------------------------- c693336e: context-local storage */

/* The runtime keeps its per-context state here: a value per (context, key),
 * with a destructor the driver would call when the context goes (ours never
 * does).  This older table has no size slot. */
static const struct xtable cls;
struct cls {
    void *key, *value;
    struct cls *next;
};
static struct cls *cls_list;
static pthread_mutex_t cls_lock = PTHREAD_MUTEX_INITIALIZER;

/* (The process has one context, so the storage is per key: ctx, NULL for
 * the current one, is not looked at.) */
static struct cls **cls_find(void *key)
{
    struct cls **p = &cls_list;
    while (*p && (*p)->key != key)
        p = &(*p)->next;
    return p;
}

/* slot 0: sets the value of (ctx, key); dtor(ctx, key, value) is for the context's end */
static CUresult cls_insert(CUcontext ctx, void *key, void *value, void (*dtor)(CUcontext, void *, void *))
{
    (void)ctx, (void)dtor;
    pthread_mutex_lock(&cls_lock);
    struct cls **p = cls_find(key);
    if (!*p && (*p = calloc(1, sizeof **p)))
        (*p)->key = key;
    if (*p)
        (*p)->value = value;
    CUresult r = *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    pthread_mutex_unlock(&cls_lock);
    return r;
}

/* slot 1: forgets (ctx, key) */
static CUresult cls_remove(CUcontext ctx, void *key)
{
    (void)ctx;
    pthread_mutex_lock(&cls_lock);
    struct cls **p = cls_find(key), *e = *p;
    if (e)
        *p = e->next;
    pthread_mutex_unlock(&cls_lock);
    free(e);
    return CUDA_SUCCESS;
}

/* slot 2: the value of (ctx, key); CUDA_ERROR_INVALID_HANDLE if none was set */
static CUresult cls_get(void **value, CUcontext ctx, void *key)
{
    (void)ctx;
    pthread_mutex_lock(&cls_lock);
    struct cls *e = *cls_find(key);
    *value = e ? e->value : NULL;
    pthread_mutex_unlock(&cls_lock);
    return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static int cls_trap3(void) { return trap(&cls, 3); }
static const void *const cls_slots[4] = { FN(cls_insert), FN(cls_remove), FN(cls_get), FN(cls_trap3) };
static const struct xtable cls = {
    { 0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93 },
    "context-local storage", cls_slots,
};

/* ------------------------------------------- 263e8860: context wrapping */

static const struct xtable wrap;
static int wr_trap1(void) { return trap(&wrap, 1); }

/* slot 2: whether ctx (NULL: the current one) wraps another context; ours never does */
static CUresult wr_unwrap(CUcontext ctx, unsigned *wrapped, CUcontext *inner)
{
    (void)ctx, (void)inner;
    *wrapped = 0;
    return CUDA_SUCCESS;
}

/* slot 3: called once at the runtime's start, its result compared with 1 and
 * kept as a flag (what it asks is not known); 0 leaves the flag clear. */
static int wr_slot3(void)
{
    return 0;
}

static const void *const wr_slots[4] = { (const void *)(4 * sizeof(void *)), FN(wr_trap1), FN(wr_unwrap), FN(wr_slot3) };
static const struct xtable wrap = {
    { 0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e },
    "context wrapping", wr_slots,
};

/* f8cff951: asked first; the runtime carries on without it when it is not found */
static const unsigned char optional[16] = { 0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e,
                                            0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9 };
/* d4082055: asked after the others; the runtime then calls its slot 1 three
 * times (versions 13000, 13001, 13002 and the time of day) and compares the
 * 16 bytes each call returns with its own keyed hash of the process, the
 * tables and the device, failing with cudaErrorSoftwareValidityNotEstablished
 * (103) otherwise.  The check is there to reject drivers that are not
 * NVIDIA's, and the emulator does not answer it. */
static const unsigned char integrity[16] = { 0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b,
                                             0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2 };

static const struct xtable *const tables[] = { &rt_iface, &hooks, &tls, &cls, &wrap };

EXPORT CUresult cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
    if (!ppExportTable || !pExportTableId)
        return CUDA_ERROR_INVALID_VALUE;
    *ppExportTable = NULL;
    const unsigned char *u = (const unsigned char *)pExportTableId->bytes;
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (!memcmp(tables[i]->uuid, u, 16)) {
            *ppExportTable = tables[i]->slots;
            return CUDA_SUCCESS;
        }
    if (!memcmp(u, integrity, 16))
        fprintf(stderr, "morpheus: this program links NVIDIA's CUDA runtime statically (nvcc's default -cudart static), "
                        "which starts only after a private integrity check of the driver (cuGetExportTable ");
    else if (memcmp(u, optional, 16))
        fprintf(stderr, "morpheus: cuGetExportTable: the driver's private table ");
    else
        return CUDA_ERROR_NOT_FOUND;
    say_uuid(stderr, u);
    if (!memcmp(u, integrity, 16))
        fprintf(stderr, ") that the emulator does not answer; rebuild it with -cudart shared to run it on the emulator's "
                        "libcudart.so.13\n");
    else
        fprintf(stderr, " is not implemented by the emulator (returns CUDA_ERROR_NOT_FOUND)\n");
    return CUDA_ERROR_NOT_FOUND;
}

/* frontend/cuda/handle.c — the opaque handles both CUDA APIs hand out
 * (modules, functions, streams, events, CUDA arrays).  A handle is not a
 * pointer but a tagged slot number with a generation count, so a destroyed
 * or made-up handle is recognised without reading freed memory (the call
 * answers CUDA_ERROR_INVALID_HANDLE / cudaErrorInvalidResourceHandle), and
 * a stream created by one API is valid in the other.  Owned by
 * libcuda.so.1, used by libcudart.so.13 through shared.h. */
#include <pthread.h>
#include <stdlib.h>

#include "frontend/cuda/shared.h"

#define EXPORT __attribute__((visibility("default")))

/* Layout of a handle: bits 63..48 a tag that no x86-64 user pointer has
 * (it is not canonical, so dereferencing one faults at once), 47..44 the
 * kind, 43..24 the generation of the slot, 23..0 the slot index. */
#define TAG 0xC0DAull
#define IDX_BITS 24
#define GEN_BITS 20
#define MAX_SLOTS (1u << IDX_BITS)
#define GEN_MASK ((1u << GEN_BITS) - 1)

struct slot {
    void *obj;             /* what the handle stands for (may be NULL) */
    uint32_t aux;          /* a number the owner keeps with it (function index) */
    uint32_t gen;          /* bumped when the slot is freed: older handles go stale */
    uint32_t next_free;    /* free list link, slot index + 1 (0 ends it) */
    uint8_t kind;          /* enum mx_cuda_kind, 0 while free */
};

static struct slot *slots;
static uint32_t nslots, cap, free_head;
static pthread_mutex_t hlock = PTHREAD_MUTEX_INITIALIZER;

static uintptr_t encode(uint32_t idx, const struct slot *s)
{
    return (uintptr_t)(TAG << 48 | (uint64_t)s->kind << 44 | (uint64_t)(s->gen & GEN_MASK) << IDX_BITS | idx);
}

/* The live slot `h` names if it is of `kind`, else NULL.  Called locked. */
static struct slot *lookup(uintptr_t h, enum mx_cuda_kind kind)
{
    uint64_t v = h;
    uint32_t idx = (uint32_t)(v & (MAX_SLOTS - 1));
    if (v >> 48 != TAG || (v >> 44 & 15) != (uint64_t)kind || idx >= nslots)
        return NULL;
    struct slot *s = &slots[idx];
    return s->kind == kind && (s->gen & GEN_MASK) == (v >> IDX_BITS & GEN_MASK) ? s : NULL;
}

EXPORT uintptr_t mx_cuda_handle_new(enum mx_cuda_kind kind, void *obj, uint32_t aux)
{
    pthread_mutex_lock(&hlock);
    uint32_t idx;
    if (free_head) {
        idx = free_head - 1;
        free_head = slots[idx].next_free;
    } else {
        if (nslots == cap) {
            uint32_t nc = cap ? 2 * cap : 64;
            void *n = nc <= MAX_SLOTS ? realloc(slots, nc * sizeof *slots) : NULL;
            if (!n) {
                pthread_mutex_unlock(&hlock);
                return 0;
            }
            slots = n;
            cap = nc;
        }
        idx = nslots++;
        slots[idx].gen = 0;
    }
    struct slot *s = &slots[idx];
    s->obj = obj;
    s->aux = aux;
    s->kind = (uint8_t)kind;
    s->next_free = 0;
    uintptr_t h = encode(idx, s);
    pthread_mutex_unlock(&hlock);
    return h;
}

EXPORT int mx_cuda_handle_get(const void *h, enum mx_cuda_kind kind, void **obj, uint32_t *aux)
{
    pthread_mutex_lock(&hlock);
    struct slot *s = lookup((uintptr_t)h, kind);
    if (s) {
        if (obj)
            *obj = s->obj;
        if (aux)
            *aux = s->aux;
    }
    pthread_mutex_unlock(&hlock);
    return s ? 0 : -1;
}

EXPORT int mx_cuda_handle_free(const void *h, enum mx_cuda_kind kind, void **obj, uint32_t *aux)
{
    pthread_mutex_lock(&hlock);
    struct slot *s = lookup((uintptr_t)h, kind);
    if (s) {
        if (obj)
            *obj = s->obj;
        if (aux)
            *aux = s->aux;
        s->obj = NULL;
        s->kind = 0;
        s->gen++;
        s->next_free = free_head;
        free_head = (uint32_t)(s - slots) + 1;
    }
    pthread_mutex_unlock(&hlock);
    return s ? 0 : -1;
}

EXPORT int mx_cuda_stream_ok(const void *s)
{
    /* 0 is the default stream; 1 and 2 are cudaStreamLegacy/CU_STREAM_LEGACY
       and cudaStreamPerThread/CU_STREAM_PER_THREAD */
    return (uintptr_t)s <= 2 || !mx_cuda_handle_get(s, MX_CUDA_STREAM, NULL, NULL);
}

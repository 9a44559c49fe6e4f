/* frontend/cuda/mempool.c — the stream-ordered memory allocator:
 * cudaMallocAsync, cudaFreeAsync, cudaMallocFromPoolAsync and memory pools.
 *
 * The emulated device allocates at once, so an allocation is made when the
 * call is made (it is usable by everything after it in the stream, and
 * earlier) and a free waits for the stream's earlier work before it frees:
 * the order CUDA guarantees, with nothing kept cached.  A pool therefore
 * reserves exactly what is in use (ReservedMem = UsedMem) and trimming has
 * nothing to give back.  Each allocation remembers its pool for the pool's
 * counters; cudaFree of a pool allocation is allowed, as in CUDA.  On a
 * capturing stream the calls become allocation and free nodes of the graph
 * (graph.c).  One device: pools live on device 0. */
#include <cuda_runtime_api.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/cuda/rt_internal.h"

#define EXPORT __attribute__((visibility("default")))
#define FAIL(e, ...) rt_fail(__func__, (e), __VA_ARGS__)

struct CUmemPoolHandle_st {
    struct CUmemPoolHandle_st *next;  /* the live pools */
    int follow, opportunistic, internal; /* the reuse attributes, kept and answered */
    uint64_t threshold;               /* cudaMemPoolAttrReleaseThreshold */
    uint64_t used, used_high, reserved_high;
    size_t max_size;                  /* poolProps.maxSize, 0: no limit but the device's */
};

static struct CUmemPoolHandle_st default_pool = { .follow = 1, .opportunistic = 1, .internal = 1 };
static struct CUmemPoolHandle_st *pools = &default_pool, *current = &default_pool;
static struct { const void *p; size_t size; struct CUmemPoolHandle_st *pool; } *allocs;
static size_t nallocs, allocs_cap;
static pthread_mutex_t mp_lock = PTHREAD_MUTEX_INITIALIZER;

static int pool_live(cudaMemPool_t p)
{
    for (struct CUmemPoolHandle_st *q = pools; q; q = q->next)
        if (q == p)
            return 1;
    return 0;
}

/* Takes the allocation at p out of its pool's count (mp_lock held); 1 if it was one. */
static int take(const void *p)
{
    for (size_t i = 0; i < nallocs; i++)
        if (allocs[i].p == p) {
            if (allocs[i].pool)
                allocs[i].pool->used -= allocs[i].size;
            allocs[i] = allocs[--nallocs];
            return 1;
        }
    return 0;
}

void mp_forget(const void *p)
{
    pthread_mutex_lock(&mp_lock);
    take(p);
    pthread_mutex_unlock(&mp_lock);
}

static cudaError_t pool_alloc(const char *fn, void **ptr, size_t size, cudaMemPool_t pool, cudaStream_t s)
{
    if (!ptr)
        return rt_fail(fn, cudaErrorInvalidValue, "devPtr is NULL");
    if (!rt_stream_ok(s))
        return rt_fail(fn, cudaErrorInvalidResourceHandle, "stream %p is not a stream (destroyed, or never created)",
                       (void *)s);
    pthread_mutex_lock(&mp_lock);
    int live = pool_live(pool);
    int over = live && pool->max_size && pool->used + size > pool->max_size;
    pthread_mutex_unlock(&mp_lock);
    if (!live)
        return rt_fail(fn, cudaErrorInvalidValue, "%p is not a memory pool (destroyed, or never created)", (void *)pool);
    if (over)
        return rt_fail(fn, cudaErrorMemoryAllocation, "%zu bytes exceed the pool's maxSize %zu (%llu in use)", size,
                       pool->max_size, (unsigned long long)pool->used);
    if (gr_capturing(s))
        return gr_capture_alloc(fn, s, size, ptr);
    cudaError_t e = rt_dev_alloc(fn, size, ptr);
    if (e)
        return e;
    pthread_mutex_lock(&mp_lock);
    if (nallocs == allocs_cap) {
        size_t c = allocs_cap ? 2 * allocs_cap : 64;
        void *n = realloc(allocs, c * sizeof *allocs);
        if (!n) {
            pthread_mutex_unlock(&mp_lock);
            rt_dev_free(fn, *ptr);
            *ptr = NULL;
            return rt_fail(fn, cudaErrorMemoryAllocation, "out of host memory for the pool's bookkeeping");
        }
        allocs = n;
        allocs_cap = c;
    }
    allocs[nallocs].p = *ptr;
    allocs[nallocs].size = size;
    allocs[nallocs++].pool = pool;
    pool->used += size;
    if (pool->used > pool->used_high)
        pool->used_high = pool->used;
    if (pool->used > pool->reserved_high)
        pool->reserved_high = pool->used;
    pthread_mutex_unlock(&mp_lock);
    return cudaSuccess;
}

EXPORT cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
    pthread_mutex_lock(&mp_lock);
    cudaMemPool_t pool = current;
    pthread_mutex_unlock(&mp_lock);
    return pool_alloc(__func__, devPtr, size, pool, hStream);
}

EXPORT cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    return pool_alloc(__func__, ptr, size, memPool, stream);
}

EXPORT cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
    if (!rt_stream_ok(hStream))
        return FAIL(cudaErrorInvalidResourceHandle, "stream %p is not a stream (destroyed, or never created)",
                    (void *)hStream);
    if (gr_capturing(hStream))
        return gr_capture_free(__func__, hStream, devPtr);
    cudaError_t e = rt_drain(__func__, hStream); /* after the stream's work before it */
    return e || !devPtr ? e : rt_dev_free(__func__, devPtr);
}

/* ------------------------------------------------------------ pools */

static cudaError_t device_ok(const char *fn, int device)
{
    return device == 0 ? cudaSuccess
                       : rt_fail(fn, cudaErrorInvalidDevice, "device %d does not exist (the emulator has device 0)",
                                 device);
}

EXPORT cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    if (!memPool)
        return FAIL(cudaErrorInvalidValue, "memPool is NULL");
    cudaError_t e = device_ok(__func__, device);
    if (!e)
        *memPool = &default_pool;
    return e;
}

EXPORT cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    if (!memPool)
        return FAIL(cudaErrorInvalidValue, "memPool is NULL");
    cudaError_t e = device_ok(__func__, device);
    if (e)
        return e;
    pthread_mutex_lock(&mp_lock);
    *memPool = current;
    pthread_mutex_unlock(&mp_lock);
    return cudaSuccess;
}

EXPORT cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
    cudaError_t e = device_ok(__func__, device);
    if (e)
        return e;
    pthread_mutex_lock(&mp_lock);
    int live = pool_live(memPool);
    if (live)
        current = memPool;
    pthread_mutex_unlock(&mp_lock);
    return live ? cudaSuccess
                : FAIL(cudaErrorInvalidValue, "%p is not a memory pool (destroyed, or never created)", (void *)memPool);
}

EXPORT cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps)
{
    if (!memPool || !poolProps)
        return FAIL(cudaErrorInvalidValue, "%s is NULL", memPool ? "poolProps" : "memPool");
    if (poolProps->allocType != cudaMemAllocationTypePinned)
        return FAIL(cudaErrorInvalidValue, "allocType %d: pools hold cudaMemAllocationTypePinned memory",
                    (int)poolProps->allocType);
    if (poolProps->location.type != cudaMemLocationTypeDevice || poolProps->location.id != 0)
        return FAIL(poolProps->location.type == cudaMemLocationTypeDevice ? cudaErrorInvalidDevice
                                                                           : cudaErrorNotSupported,
                    "location (type %d, id %d): the emulator's pools are on device 0 (cudaMemLocationTypeDevice)",
                    (int)poolProps->location.type, poolProps->location.id);
    if (poolProps->handleTypes != cudaMemHandleTypeNone)
        return FAIL(cudaErrorNotSupported, "handleTypes %#x: pools shared with other processes are not supported by "
                    "the emulator", (unsigned)poolProps->handleTypes);
    struct CUmemPoolHandle_st *p = calloc(1, sizeof *p);
    if (!p)
        return FAIL(cudaErrorMemoryAllocation, "out of host memory for a pool");
    p->follow = p->opportunistic = p->internal = 1;
    p->max_size = poolProps->maxSize;
    pthread_mutex_lock(&mp_lock);
    p->next = pools;
    pools = p;
    pthread_mutex_unlock(&mp_lock);
    *memPool = p;
    return cudaSuccess;
}

/* Its allocations stay valid until freed, as CUDA defers the destruction. */
EXPORT cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
    pthread_mutex_lock(&mp_lock);
    int ok = memPool != &default_pool && pool_live(memPool);
    if (ok) {
        for (struct CUmemPoolHandle_st **q = &pools; *q; q = &(*q)->next)
            if (*q == memPool) {
                *q = memPool->next;
                break;
            }
        for (size_t i = 0; i < nallocs; i++)
            if (allocs[i].pool == memPool)
                allocs[i].pool = NULL;
        if (current == memPool)
            current = &default_pool;
    }
    pthread_mutex_unlock(&mp_lock);
    if (!ok)
        return FAIL(cudaErrorInvalidValue, "%p is %s", (void *)memPool,
                    memPool == &default_pool ? "the device's default pool, which cannot be destroyed"
                                             : "not a memory pool (destroyed already, or never created)");
    free(memPool);
    return cudaSuccess;
}

static cudaError_t pool_check(const char *fn, cudaMemPool_t p)
{
    pthread_mutex_lock(&mp_lock);
    int ok = pool_live(p);
    pthread_mutex_unlock(&mp_lock);
    return ok ? cudaSuccess
              : rt_fail(fn, cudaErrorInvalidValue, "%p is not a memory pool (destroyed, or never created)", (void *)p);
}

EXPORT cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    (void)minBytesToKeep; /* nothing is cached beyond what is in use */
    return pool_check(__func__, memPool);
}

static cudaError_t pool_attr(const char *fn, cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value, int set)
{
    if (!value)
        return rt_fail(fn, cudaErrorInvalidValue, "value is NULL");
    cudaError_t e = cudaSuccess;
    pthread_mutex_lock(&mp_lock);
    if (!pool_live(pool)) {
        pthread_mutex_unlock(&mp_lock);
        return rt_fail(fn, cudaErrorInvalidValue, "%p is not a memory pool (destroyed, or never created)", (void *)pool);
    }
    int *flag = attr == cudaMemPoolReuseFollowEventDependencies ? &pool->follow
              : attr == cudaMemPoolReuseAllowOpportunistic      ? &pool->opportunistic
              : attr == cudaMemPoolReuseAllowInternalDependencies ? &pool->internal : NULL;
    uint64_t *u64 = attr == cudaMemPoolAttrReleaseThreshold ? &pool->threshold
                  : attr == cudaMemPoolAttrReservedMemCurrent || attr == cudaMemPoolAttrUsedMemCurrent ? &pool->used
                  : attr == cudaMemPoolAttrReservedMemHigh ? &pool->reserved_high
                  : attr == cudaMemPoolAttrUsedMemHigh ? &pool->used_high : NULL;
    if (flag) {
        if (set)
            *flag = *(int *)value != 0;
        else
            *(int *)value = *flag;
    } else if (!u64) {
        e = rt_fail(fn, cudaErrorInvalidValue, "%d is not a cudaMemPoolAttr", (int)attr);
    } else if (!set) {
        memcpy(value, u64, 8);
    } else if (attr == cudaMemPoolAttrReleaseThreshold) {
        memcpy(u64, value, 8);
    } else if (attr == cudaMemPoolAttrReservedMemHigh || attr == cudaMemPoolAttrUsedMemHigh) {
        uint64_t v;
        memcpy(&v, value, 8);
        if (v)
            e = rt_fail(fn, cudaErrorInvalidValue, "a high-water mark can only be reset, to 0 (got %llu)",
                        (unsigned long long)v);
        else
            *u64 = pool->used; /* reset: the high-water mark starts again from what is in use */
    } else {
        e = rt_fail(fn, cudaErrorInvalidValue, "attribute %d (the current reserved or used memory) is read-only",
                    (int)attr);
    }
    pthread_mutex_unlock(&mp_lock);
    return e;
}

EXPORT cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    return pool_attr(__func__, memPool, attr, value, 1);
}

EXPORT cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    return pool_attr(__func__, memPool, attr, value, 0);
}

/* One device: it always has read-write access to its pools. */
EXPORT cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList, size_t count)
{
    if (count && !descList)
        return FAIL(cudaErrorInvalidValue, "descList is NULL with count %zu", count);
    for (size_t i = 0; i < count; i++)
        if (descList[i].location.type != cudaMemLocationTypeDevice || descList[i].location.id != 0)
            return FAIL(cudaErrorInvalidDevice, "descList[%zu]: location (type %d, id %d) is not device 0", i,
                        (int)descList[i].location.type, descList[i].location.id);
    return pool_check(__func__, memPool);
}

EXPORT cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                        struct cudaMemLocation *location)
{
    if (!flags || !location)
        return FAIL(cudaErrorInvalidValue, "%s is NULL", flags ? "location" : "flags");
    if (pool_check(__func__, memPool))
        return cudaErrorInvalidValue;
    *flags = location->type == cudaMemLocationTypeDevice && location->id == 0 ? cudaMemAccessFlagsProtReadWrite
                                                                               : cudaMemAccessFlagsProtNone;
    return cudaSuccess;
}

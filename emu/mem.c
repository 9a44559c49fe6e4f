/* emu/mem.c — device memory: a sparse flat page table (pages allocated on
 * first touch, so a 10 GiB device costs only what is used), a cudaMalloc-like
 * allocator with a live-allocation index for bounds checks, and the per-lane
 * address resolution every memory instruction goes through.  Owns the
 * generic-address windows (shared, local).  Does not model caches: that is
 * memsys/. */
#include "emu/emu-internal.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

/* d->lock: the allocator's mutex, and a reader-writer lock over the index of
 * live allocations (d->sorted and the allocations' live flags), which
 * guest accesses search from every host thread while device-side
 * malloc/free may change it. */
struct mem_locks {
    pthread_mutex_t mu;
    pthread_rwlock_t index;
};
static pthread_mutex_t *mtx(struct emu_device *d) { return &((struct mem_locks *)d->lock)->mu; }
static pthread_rwlock_t *index_lock(struct emu_device *d) { return &((struct mem_locks *)d->lock)->index; }

int emu_mem_init(struct emu_device *d);
void emu_mem_fini(struct emu_device *d);

int emu_mem_init(struct emu_device *d)
{
    d->npages = (d->cfg.mem_size + (1ull << PAGE_SHIFT) - 1) >> PAGE_SHIFT;
    d->pages = calloc(d->npages ? d->npages : 1, sizeof *d->pages);
    d->lock = malloc(sizeof(struct mem_locks));
    if (!d->pages || !d->lock)
        return MX_ENOMEM;
    pthread_mutex_init(mtx(d), NULL);
    pthread_rwlock_init(index_lock(d), NULL);
    d->heap_top = MEM_GLOBAL_BASE + 256; /* address MEM_GLOBAL_BASE itself is never handed out */
    return MX_OK;
}

static int is_host_mapped(const struct emu_device *d, uint64_t pn)
{
    return d->host_mapped && (d->host_mapped[pn / 64] >> (pn % 64) & 1);
}

/* Gives page pn back to the host (it holds no live data). */
static void page_release(struct emu_device *d, uint64_t pn)
{
    if (!d->pages[pn])
        return;
    if (d->host_alias && (d->host_alias[pn / 64] >> (pn % 64) & 1)) {
        d->host_alias[pn / 64] &= ~(1ull << (pn % 64)); /* the program's memory: only forgotten */
        d->pages[pn] = NULL;
        return;
    }
    if (is_host_mapped(d, pn)) {
        munmap(d->pages[pn], 1u << PAGE_SHIFT);
        d->host_mapped[pn / 64] &= ~(1ull << (pn % 64));
    } else {
        free(d->pages[pn]);
    }
    d->pages[pn] = NULL;
    d->touched--;
}

void emu_mem_fini(struct emu_device *d)
{
    if (d->pages)
        for (uint64_t i = 0; i < d->npages; i++)
            page_release(d, i);
    free(d->pages);
    free(d->host_mapped);
    free(d->host_alias);
    for (int c = 0; c < ALLOC_MAX_CHUNKS; c++)
        free(d->alloc_chunk[c]);
    free(d->sorted);
    if (d->lock) {
        pthread_mutex_destroy(mtx(d));
        pthread_rwlock_destroy(index_lock(d));
        free(d->lock);
    }
}

uint64_t emu_mem_used(const struct emu_device *d) { return __atomic_load_n(&d->touched, __ATOMIC_RELAXED) << PAGE_SHIFT; }

/* Page for a global address (allocating it zeroed on first touch). */
static uint8_t *page_of(struct emu_device *d, uint64_t addr)
{
    uint64_t pn = (addr - MEM_GLOBAL_BASE) >> PAGE_SHIFT;
    uint8_t *p = __atomic_load_n(&d->pages[pn], __ATOMIC_ACQUIRE);
    if (p)
        return p;
    uint8_t *np = calloc(1, 1u << PAGE_SHIFT);
    if (!np)
        return NULL;
    uint8_t *expected = NULL;
    if (__atomic_compare_exchange_n(&d->pages[pn], &expected, np, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        __atomic_fetch_add(&d->touched, 1, __ATOMIC_RELAXED);
        return np;
    }
    free(np);
    return expected;
}

uint8_t *emu_mem_page(struct emu_device *d, uint64_t addr) { return page_of(d, addr); }

/* ------------------------------------------------------------ allocator */

static int sorted_insert(struct emu_device *d, uint32_t idx)
{
    if (d->nsorted == d->sorted_cap) {
        uint32_t nc = d->sorted_cap ? d->sorted_cap * 2 : 256;
        uint32_t *s = realloc(d->sorted, nc * sizeof *s);
        if (!s)
            return MX_ENOMEM;
        d->sorted = s;
        d->sorted_cap = nc;
    }
    uint64_t base = emu_alloc_at(d, idx)->base;
    uint32_t lo = 0, hi = d->nsorted;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (emu_alloc_at(d, d->sorted[mid])->base < base)
            lo = mid + 1;
        else
            hi = mid;
    }
    memmove(d->sorted + lo + 1, d->sorted + lo, (d->nsorted - lo) * sizeof *d->sorted);
    d->sorted[lo] = idx;
    d->nsorted++;
    return MX_OK;
}

static int alloc_locked(struct emu_device *d, uint64_t size, uint32_t align, const char *name, uint64_t *addr)
{
    if (align < 256)
        align = 256;
    uint64_t sz = size ? size : 1;
    /* first fit in the gaps freed allocations left between live ones, else
     * past the highest one (freed memory is reused, as cudaMalloc does) */
    uint64_t prev_end = MEM_GLOBAL_BASE + 256, base = 0;
    for (uint32_t i = 0; i <= d->nsorted && !base; i++) {
        uint64_t at = (prev_end + align - 1) & ~(uint64_t)(align - 1);
        const struct emu_alloc *nx = i < d->nsorted ? emu_alloc_at(d, d->sorted[i]) : NULL;
        uint64_t limit = nx ? (nx->rlo ? nx->rlo : nx->base) : 0;
        if (i < d->nsorted && at + sz <= limit)
            base = at;
        else if (i < d->nsorted) {
            const struct emu_alloc *a = emu_alloc_at(d, d->sorted[i]);
            prev_end = a->rhi ? a->rhi : a->base + (a->size ? a->size : 1);
        } else
            base = at;
    }
    if (base + sz > MEM_GLOBAL_BASE + d->cfg.mem_size || base + sz < base)
        return MX_ENOMEM;
    if (d->nallocs >= (uint32_t)ALLOC_CHUNK * ALLOC_MAX_CHUNKS)
        return MX_ELIMIT;
    uint32_t c = d->nallocs / ALLOC_CHUNK;
    if (!d->alloc_chunk[c] && !(d->alloc_chunk[c] = calloc(ALLOC_CHUNK, sizeof(struct emu_alloc))))
        return MX_ENOMEM;
    uint32_t idx = d->nallocs;
    struct emu_alloc *a = emu_alloc_at(d, idx);
    a->base = base;
    a->size = size;
    a->live = 1;
    snprintf(a->name, sizeof a->name, "%s", name ? name : "");
    pthread_rwlock_wrlock(index_lock(d));
    int rc = sorted_insert(d, idx);
    pthread_rwlock_unlock(index_lock(d));
    if (rc)
        return MX_ENOMEM;
    __atomic_store_n(&d->nallocs, idx + 1, __ATOMIC_RELEASE);
    if (base + sz > d->heap_top)
        d->heap_top = base + sz;
    *addr = base;
    return MX_OK;
}

int emu_alloc_named(struct emu_device *d, uint64_t size, uint32_t align, const char *name, uint64_t *addr)
{
    pthread_mutex_lock(mtx(d));
    int rc = alloc_locked(d, size, align, name, addr);
    pthread_mutex_unlock(mtx(d));
    return rc;
}

int emu_malloc(struct emu_device *d, uint64_t size, uint64_t *addr)
{
    *addr = 0;
    return emu_alloc_named(d, size, 256, NULL, addr);
}

int emu_free(struct emu_device *d, uint64_t addr)
{
    if (!addr)
        return MX_OK; /* cudaFree(NULL) is fine */
    pthread_mutex_lock(mtx(d));
    int rc = MX_EINVAL;
    for (uint32_t i = 0; i < d->nsorted; i++) {
        struct emu_alloc *a = emu_alloc_at(d, d->sorted[i]);
        if (a->base == addr && a->live && !a->name[0]) {
            pthread_rwlock_wrlock(index_lock(d));
            __atomic_store_n(&a->live, 0, __ATOMIC_RELAXED); /* the access fast paths read it unlocked */
            memmove(d->sorted + i, d->sorted + i + 1, (d->nsorted - i - 1) * sizeof *d->sorted);
            d->nsorted--;
            pthread_rwlock_unlock(index_lock(d));
            /* give the pages back */
            uint64_t lo = a->rlo ? a->rlo : a->base, hi = a->rhi ? a->rhi : a->base + a->size;
            uint64_t first = (lo - MEM_GLOBAL_BASE + (1ull << PAGE_SHIFT) - 1) >> PAGE_SHIFT;
            uint64_t last = (hi - MEM_GLOBAL_BASE) >> PAGE_SHIFT;
            for (uint64_t p = first; p < last; p++)
                page_release(d, p);
            rc = MX_OK;
            break;
        }
    }
    pthread_mutex_unlock(mtx(d));
    return rc;
}

static int alloc_find_locked(struct emu_device *d, uint64_t addr, uint64_t size);

/* Maps page pn at its own device address, with the bytes it held. */
static int map_page_locked(struct emu_device *d, uint64_t pn)
{
    if (is_host_mapped(d, pn))
        return MX_OK;
    if (!d->host_mapped && !(d->host_mapped = calloc((d->npages + 63) / 64, sizeof *d->host_mapped)))
        return MX_ENOMEM;
    uint8_t *at = (uint8_t *)(uintptr_t)(MEM_GLOBAL_BASE + (pn << PAGE_SHIFT));
    void *p = mmap(at, 1u << PAGE_SHIFT, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == MAP_FAILED)
        return MX_ENOMEM;
    if (p != at) { /* a kernel without MAP_FIXED_NOREPLACE took it as a hint */
        munmap(p, 1u << PAGE_SHIFT);
        return MX_ENOMEM;
    }
    uint8_t *old = d->pages[pn];
    if (old) {
        memcpy(p, old, 1u << PAGE_SHIFT);
        free(old);
    } else {
        d->touched++;
    }
    __atomic_store_n(&d->pages[pn], (uint8_t *)p, __ATOMIC_RELEASE);
    d->host_mapped[pn / 64] |= 1ull << (pn % 64);
    return MX_OK;
}

int emu_mem_map_host(struct emu_device *d, uint64_t addr, uint64_t size)
{
    pthread_mutex_lock(mtx(d));
    pthread_rwlock_rdlock(index_lock(d));
    int rc = size && alloc_find_locked(d, addr, size) >= 0 ? MX_OK : MX_EINVAL;
    pthread_rwlock_unlock(index_lock(d));
    for (uint64_t pn = (addr - MEM_GLOBAL_BASE) >> PAGE_SHIFT; !rc && pn <= (addr + size - 1 - MEM_GLOBAL_BASE) >> PAGE_SHIFT; pn++)
        rc = map_page_locked(d, pn);
    pthread_mutex_unlock(mtx(d));
    return rc;
}

int emu_malloc_host(struct emu_device *d, uint64_t size, uint64_t *addr)
{
    *addr = 0;
    uint64_t pg = 1ull << PAGE_SHIFT, sz = size ? (size + pg - 1) & ~(pg - 1) : pg;
    if (sz < size)
        return MX_ENOMEM;
    pthread_mutex_lock(mtx(d));
    int rc = alloc_locked(d, sz, (uint32_t)pg, NULL, addr);
    if (!rc && !d->host_mapped && !(d->host_mapped = calloc((d->npages + 63) / 64, sizeof *d->host_mapped)))
        rc = MX_ENOMEM;
    if (!rc) { /* one mapping for the whole range; its pages are released one by one later */
        uint8_t *at = (uint8_t *)(uintptr_t)*addr;
        void *p = mmap(at, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (p != at) {
            if (p != MAP_FAILED)
                munmap(p, sz);
            rc = MX_ENOMEM;
        } else {
            for (uint64_t pn = (*addr - MEM_GLOBAL_BASE) >> PAGE_SHIFT, i = 0; i < sz >> PAGE_SHIFT; i++, pn++) {
                if (d->pages[pn])
                    free(d->pages[pn]); /* left by freed neighbours: nothing live */
                else
                    d->touched++;
                __atomic_store_n(&d->pages[pn], at + (i << PAGE_SHIFT), __ATOMIC_RELEASE);
                d->host_mapped[pn / 64] |= 1ull << (pn % 64);
            }
        }
    }
    pthread_mutex_unlock(mtx(d));
    if (rc && *addr) {
        emu_free(d, *addr);
        *addr = 0;
    }
    return rc;
}

int emu_alias_host(struct emu_device *d, void *host, uint64_t size, uint64_t *addr)
{
    *addr = 0;
    uint64_t pg = 1ull << PAGE_SHIFT, off = (uintptr_t)host & (pg - 1), span = (off + size + pg - 1) & ~(pg - 1);
    if (!size || span < size)
        return MX_EINVAL;
    pthread_mutex_lock(mtx(d));
    uint64_t base = 0;
    int rc = alloc_locked(d, span, (uint32_t)pg, NULL, &base);
    if (!rc && !d->host_alias && !(d->host_alias = calloc((d->npages + 63) / 64, sizeof *d->host_alias)))
        rc = MX_ENOMEM;
    if (!rc) {
        /* the allocation is the host range; the pages around it stay reserved */
        struct emu_alloc *a = emu_alloc_at(d, d->nallocs - 1);
        a->rlo = base;
        a->rhi = base + span;
        a->base = base + off;
        a->size = size;
        uint8_t *h = (uint8_t *)host - off;
        for (uint64_t pn = (base - MEM_GLOBAL_BASE) >> PAGE_SHIFT, i = 0; i < span >> PAGE_SHIFT; i++, pn++) {
            if (d->pages[pn]) {
                free(d->pages[pn]); /* left by freed neighbours: nothing live */
                d->touched--;
            }
            __atomic_store_n(&d->pages[pn], h + (i << PAGE_SHIFT), __ATOMIC_RELEASE);
            d->host_alias[pn / 64] |= 1ull << (pn % 64);
        }
        *addr = base + off;
    } else if (base) {
        pthread_mutex_unlock(mtx(d));
        emu_free(d, base);
        return rc;
    }
    pthread_mutex_unlock(mtx(d));
    return rc;
}

static int alloc_find_locked(struct emu_device *d, uint64_t addr, uint64_t size)
{
    uint32_t lo = 0, hi = d->nsorted;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (emu_alloc_at(d, d->sorted[mid])->base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return -1;
    const struct emu_alloc *a = emu_alloc_at(d, d->sorted[lo - 1]);
    /* in [base, base + size) without wrapping: [0xfff...8, +8) is no allocation */
    if (addr >= a->base && size <= a->size && addr - a->base <= a->size - size && a->live)
        return (int)d->sorted[lo - 1];
    return -1;
}

int emu_alloc_find(struct emu_device *d, uint64_t addr, uint64_t size)
{
    pthread_rwlock_rdlock(index_lock(d));
    int i = alloc_find_locked(d, addr, size);
    pthread_rwlock_unlock(index_lock(d));
    return i;
}

int emu_alloc_nearest(struct emu_device *d, uint64_t addr)
{
    int best = -1;
    uint64_t bestd = UINT64_MAX;
    pthread_rwlock_rdlock(index_lock(d));
    uint32_t n = __atomic_load_n(&d->nallocs, __ATOMIC_ACQUIRE);
    for (uint32_t i = 0; i < n; i++) {
        const struct emu_alloc *a = emu_alloc_at(d, i);
        uint64_t dist = addr < a->base ? a->base - addr : addr >= a->base + a->size ? addr - (a->base + a->size) + 1 : 0;
        if (dist < bestd || (dist == bestd && a->live)) {
            bestd = dist;
            best = (int)i;
        }
    }
    pthread_rwlock_unlock(index_lock(d));
    return best;
}

/* ------------------------------------------------------- host accesses */

uint8_t *emu_mem_global(struct emu_device *d, uint64_t addr, uint64_t size, int *status)
{
    if (emu_alloc_find(d, addr, size) < 0) {
        *status = MX_EINVAL;
        return NULL;
    }
    *status = MX_OK;
    return page_of(d, addr) + ((addr - MEM_GLOBAL_BASE) & ((1u << PAGE_SHIFT) - 1));
}

/* Copies n bytes between host and device, page by page. */
static int copy(struct emu_device *d, uint64_t dev, void *host, const void *src, uint64_t n, int value, int dir)
{
    if (!n)
        return MX_OK;
    if (emu_alloc_find(d, dev, n) < 0)
        return MX_EINVAL;
    while (n) {
        uint64_t in_page = (1ull << PAGE_SHIFT) - ((dev - MEM_GLOBAL_BASE) & ((1u << PAGE_SHIFT) - 1));
        uint64_t k = n < in_page ? n : in_page;
        uint8_t *p = page_of(d, dev);
        if (!p)
            return MX_ENOMEM;
        p += (dev - MEM_GLOBAL_BASE) & ((1u << PAGE_SHIFT) - 1);
        if (dir == 0)
            memcpy(p, src, k), src = (const uint8_t *)src + k;
        else if (dir == 1)
            memcpy(host, p, k), host = (uint8_t *)host + k;
        else
            memset(p, value, k);
        dev += k;
        n -= k;
    }
    return MX_OK;
}

int emu_memcpy_htod(struct emu_device *d, uint64_t dst, const void *src, uint64_t n) { return copy(d, dst, NULL, src, n, 0, 0); }
int emu_memcpy_dtoh(struct emu_device *d, void *dst, uint64_t src, uint64_t n) { return copy(d, src, dst, NULL, n, 0, 1); }
int emu_memset(struct emu_device *d, uint64_t dst, int value, uint64_t n) { return copy(d, dst, NULL, NULL, n, value, 2); }

int emu_memcpy_dtod(struct emu_device *d, uint64_t dst, uint64_t src, uint64_t n)
{
    if (!n)
        return MX_OK;
    if (emu_alloc_find(d, src, n) < 0 || emu_alloc_find(d, dst, n) < 0)
        return MX_EINVAL;
    uint8_t buf[1 << 14];
    int backward = dst > src && dst - src < n; /* (then the source's tail is read before it is overwritten) */
    for (uint64_t done = 0; done < n;) {
        uint64_t k = n - done < sizeof buf ? n - done : sizeof buf, at = backward ? n - done - k : done;
        int rc = copy(d, src + at, buf, NULL, k, 0, 1);
        if (!rc)
            rc = copy(d, dst + at, NULL, buf, k, 0, 0);
        if (rc)
            return rc;
        done += k;
    }
    return MX_OK;
}

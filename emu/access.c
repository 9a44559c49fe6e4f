/* emu/access.c — one lane's guest access: the generic-address windows
 * (shared, local) resolved, bounds and alignment checked against the
 * allocations, and a compute-sanitizer-style fault recorded when it fails.
 * Above device memory (mem.c) and the fault reports (fault.c). */
#include "emu/emu-internal.h"

#include <stdio.h>

static const char *space_text(int sp)
{
    static const char *const t[] = { "generic", "global", "shared", "local", "const", "param", "param", "param", "param" };
    return sp >= 0 && sp <= SP_PARAM_SCRATCH ? t[sp] : "?";
}

static int oob(struct emu_warp *w, const struct emu_xinsn *x, int sp, uint64_t addr, unsigned size, int lane, int write)
{
    return emu_fault(w, x, MX_EMEMFAULT, lane, addr, size, "Invalid __%s__ %s of size %u bytes at 0x%llx is out of bounds",
                     space_text(sp), write ? "write" : "read", size, (unsigned long long)addr);
}

uint8_t *emu_mem_lane(struct emu_warp *w, const struct emu_xinsn *x, int sp, uint64_t addr, unsigned size, int lane,
                      int write)
{
    if (size > 1 && (addr & (size - 1))) {
        emu_fault(w, x, MX_EMISALIGNED, lane, addr, size, "Invalid __%s__ %s of size %u bytes at 0x%llx is misaligned",
                  space_text(sp), write ? "write" : "read", size, (unsigned long long)addr);
        return NULL;
    }
    if (sp == SP_GENERIC) {
        if (addr - MEM_SHARED_WIN < MEM_WIN_SIZE) {
            sp = SP_SHARED;
            addr -= MEM_SHARED_WIN;
        } else if (addr - MEM_LOCAL_WIN < MEM_WIN_SIZE) {
            sp = SP_LOCAL;
            addr -= MEM_LOCAL_WIN;
        } else {
            sp = SP_GLOBAL;
        }
    }
    switch (sp) {
    case SP_GLOBAL:
    case SP_CONST: {
        struct emu_device *d = w->dev;
        uint32_t la = w->last_alloc;
        if (la < __atomic_load_n(&d->nallocs, __ATOMIC_RELAXED)) {
            const struct emu_alloc *a = emu_alloc_at(d, la);
            if (addr - a->base < a->size && addr + size <= a->base + a->size && __atomic_load_n(&a->live, __ATOMIC_RELAXED))
                goto ok;
        }
        int i = emu_alloc_find(d, addr, size);
        if (i < 0) {
            oob(w, x, sp, addr, size, lane, write);
            return NULL;
        }
        w->last_alloc = (uint32_t)i;
    ok:;
        uint64_t pn = (addr - MEM_GLOBAL_BASE) >> PAGE_SHIFT;
        if (pn != w->cache_page) {
            uint8_t *p = emu_mem_page(d, addr);
            if (!p) {
                emu_fault(w, x, MX_ENOMEM, lane, addr, size, "out of host memory backing device memory");
                return NULL;
            }
            w->cache_page = pn;
            w->cache_ptr = p;
        }
        return w->cache_ptr + ((addr - MEM_GLOBAL_BASE) & ((1u << PAGE_SHIFT) - 1));
    }
    case SP_SHARED: {
        uint64_t ssz;
        uint8_t *s = emu_cta_shared(w->cta, &ssz);
        if (addr >= ssz || addr + size > ssz) {
            oob(w, x, SP_SHARED, addr, size, lane, write);
            return NULL;
        }
        return s + addr;
    }
    case SP_LOCAL:
        if (addr >= w->local_size || addr + size > w->local_size) {
            oob(w, x, SP_LOCAL, addr, size, lane, write);
            return NULL;
        }
        uint64_t off = (uint64_t)lane * w->local_size + addr;
        if (write) { /* the pages of the first and last byte: an access never spans more than two */
            w->local_pages[off >> (LOCAL_PAGE_SHIFT + 6)] |= 1ull << ((off >> LOCAL_PAGE_SHIFT) & 63);
            uint64_t end = off + size - 1;
            w->local_pages[end >> (LOCAL_PAGE_SHIFT + 6)] |= 1ull << ((end >> LOCAL_PAGE_SHIFT) & 63);
        }
        return w->local + off;
    default:
        emu_fault(w, x, MX_EILLEGAL, lane, addr, size, "memory access to the %s space through an address", space_text(sp));
        return NULL;
    }
}

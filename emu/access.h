/* emu/access.h — the one path of a guest access to global memory, shared by
 * the warp-wide fast path of ld/st (exec_mem.c) and the per-lane path every
 * other access takes (access.c: atomics, textures, host calls, vectors,
 * accesses that straddle blocks): an SM reads device memory as it was at
 * the quantum's start, except the 256-byte blocks it stored to, which it
 * reads and writes in its private copy (overlay.c; the rule is in
 * emu-internal.h).  Each warp remembers the two 64 KiB device pages it read
 * last (with its SM's table of copies in the page, if it has any) and the
 * two blocks it wrote last, so an access within them costs a compare or
 * two. */
#ifndef MX_EMU_ACCESS_H
#define MX_EMU_ACCESS_H
#include "emu/emu-internal.h"

/* What an access does with the bytes (emu_mem_access). */
enum { ACC_READ, ACC_WRITE, ACC_RED };

/* Host pointer for `size` bytes at addr of `space` for lane `lane`, or NULL
 * after recording a fault (out of bounds, misaligned, out of host memory).
 * ACC_RED: a reduction of exact commutative integer operation (XF_RED_NOW);
 * *log is then set when the caller must log it (emu_ov_log_red) for the
 * merge, because it changed bytes of the SM's copy it did not store to. */
uint8_t *emu_mem_access(struct emu_warp *w, const struct emu_xinsn *x, int space, uint64_t addr, unsigned size,
                        int lane, int kind, int *log);

/* The request of instruction x for lanes m (addr: each lane's address,
 * `bytes` per lane) to the device's memory interface (include/mx/memreq.h),
 * for handlers that are not completing one.  space: enum mx_mspace, or -1
 * for the instruction's own (shared memory and parameters make no request).
 * cross: the access must complete at a quantum's end in any case (a global
 * atomic, a strong load).  Returns 0 to go on now, or EX_WAIT with the
 * warp's wait_local/wait_until set for the scheduler. */
int emu_mem_request(struct emu_warp *w, const struct emu_xinsn *x, int op, int space, uint32_t m, const uint64_t *addr,
                    unsigned bytes, int cross);

/* overlay.c.  The slow halves of the inline functions below. */
/* Makes the device page of global offset o (address - MEM_GLOBAL_BASE) the
 * warp's first read page (its second one, or one looked up); NULL: out of
 * host memory. */
const uint8_t *emu_ov_read_slow(struct emu_warp *w, uint64_t o);
/* The SM's copy of block `key` (the warp's second write block, or found or
 * made now, and remembered first), or NULL when the warp completes a request at
 * a quantum's end (device memory is then accessed directly) or host
 * memory ran out (*nomem set). */
struct emu_blk *emu_ov_blk(struct emu_warp *w, uint64_t key, int *nomem);
/* Fills in the bytes of b its SM did not store (before reading it). */
void emu_ov_full(struct emu_blk *b);
/* Bytes [off, off + n) of b were stored to, and some carry logged
 * reductions: those reductions are folded into the stored bytes. */
void emu_ov_kill_reds(struct emu_warp *w, struct emu_blk *b, unsigned off, unsigned n);
/* Logs a reduction for the merge; MX_OK or MX_ENOMEM. */
int emu_ov_log_red(struct emu_warp *w, uint64_t addr, uint64_t val, int op, int type, unsigned size);
/* The quantum's end: every SM's copies merged into device memory in SM
 * order, then forgotten.  Single-threaded, SMs stopped. */
void emu_ov_merge(struct emu_device *d);
/* Every resident warp forgets the blocks it remembers (device memory may
 * have changed under them: a merge, host copies, frees). */
void emu_ov_forget(struct emu_device *d);
void emu_ov_fini(struct emu_overlay *ov);

static inline uint64_t emu_blk_key(uint64_t a) { return (a - MEM_GLOBAL_BASE) >> BLK_SHIFT; }

/* Marks bytes [off, off + n) of b stored (n <= 64, off a multiple of n: one
 * word of the bitmap). */
static inline void emu_blk_mark(struct emu_warp *w, struct emu_blk *b, unsigned off, unsigned n)
{
    uint64_t m = n >= 64 ? ~0ull : ((1ull << n) - 1) << (off & 63);
    b->dirty[off >> 6] |= m;
    b->sum |= 1ull << (off >> 6);
    if (__builtin_expect(b->has_red, 0) && (b->redb[off >> 6] & m))
        emu_ov_kill_reds(w, b, off, n);
}

/* Whether [lo, hi) lies in allocation i, which is live. */
static inline int emu_glob_in(const struct emu_device *d, uint32_t i, uint64_t lo, uint64_t hi)
{
    if (i >= __atomic_load_n(&d->nallocs, __ATOMIC_RELAXED))
        return 0;
    const struct emu_alloc *a = emu_alloc_at(d, i);
    return lo >= a->base && hi > lo && hi <= a->base + a->size && __atomic_load_n(&a->live, __ATOMIC_RELAXED);
}

/* Whether [lo, hi) lies in one live allocation (the EMU_LAST_ALLOCS ones
 * the warp found last are tried first; one found now replaces the oldest,
 * and the SM's next warps start from the warp's list). */
static inline int emu_glob_check(struct emu_warp *w, uint64_t lo, uint64_t hi)
{
    struct emu_device *d = w->dev;
    for (int k = 0; k < EMU_LAST_ALLOCS; k++)
        if (emu_glob_in(d, w->last_alloc[k], lo, hi))
            return 1;
    int f = hi > lo ? emu_alloc_find(d, lo, hi - lo) : -1;
    if (f < 0)
        return 0;
    memmove(w->last_alloc + 1, w->last_alloc, (EMU_LAST_ALLOCS - 1) * sizeof *w->last_alloc);
    w->last_alloc[0] = (uint32_t)f;
    memcpy(w->cta->sm->last_alloc, w->last_alloc, sizeof w->last_alloc);
    return 1;
}

/* The SM's copy of block `key` for writing (the warp's two write blocks
 * first), or NULL: see emu_ov_blk. */
static inline struct emu_blk *emu_glob_wblk(struct emu_warp *w, uint64_t key)
{
    if (key == w->wr_key[0])
        return w->wr_blk[0];
    int nomem;
    return emu_ov_blk(w, key, &nomem);
}

/* Where global offset o is read in the warp's first read page: the SM's
 * copy of its block, else device memory. */
static inline const uint8_t *emu_glob_rd0(struct emu_warp *w, uint64_t o)
{
    if (__builtin_expect(w->rd_tab[0] != NULL, 0)) {
        struct emu_blk *b = w->rd_tab[0][(o >> BLK_SHIFT) % EMU_PAGE_BLKS];
        if (b) {
            if (!b->full)
                emu_ov_full(b);
            return b->data + (o & (BLK_SIZE - 1));
        }
    }
    return (const uint8_t *)(w->rd_bias[0] + o);
}

/* Global memory for reading at a (bounds already checked; the access lies
 * in one block), or NULL: out of host memory. */
static inline const uint8_t *emu_glob_rd(struct emu_warp *w, uint64_t a)
{
    uint64_t o = a - MEM_GLOBAL_BASE;
    if ((o >> PAGE_SHIFT) != w->rd_key[0] && !emu_ov_read_slow(w, o))
        return NULL;
    return emu_glob_rd0(w, o);
}

/* The address lane l's [reg+imm] operand names, as ld and st compute it (base: the register's lanes). */
static inline uint64_t emu_lane_addr(const struct emu_warp *w, const struct emu_xinsn *x, const uint64_t *base, int l)
{
    /* [reg+imm] is computed at the register's width: with a 32-bit register
     * the sum wraps at 2^32 (nvcc relies on it: add.s32 %r, %r, -140 then [%r+144]) */
    uint64_t a = base[l] + (uint64_t)x->off;
    if (x->flags & XF_BASE32)
        a = (uint32_t)a;
    if (x->flags & XF_LOCAL_FRAME)
        a += w->frames[w->nframes - 1].local_base;
    return a;
}

#endif

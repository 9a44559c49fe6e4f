/* memsys/split.h — a request's lines and sectors, as mx_memreq_lines
 * (include/mx/memreq.h) gives them, the fast way: the splitter runs for
 * every warp memory instruction and its per-lane divisions and loops were
 * most of a request's cost.  Lanes that stay inside one sector (every
 * naturally aligned access up to the sector size) take one shift each;
 * a request with any lane crossing a sector goes to mx_memreq_lines.
 * Same lines, same order (first lane), same masks: test_memsys compares. */
#ifndef MX_MEMSYS_SPLIT_H
#define MX_MEMSYS_SPLIT_H

#include "mx/memreq.h"

/* line_shift, sector_shift: log2 of the line and sector sizes. */
static inline unsigned ms_split(const struct mx_memreq *r, unsigned line_shift, unsigned sector_shift,
                                uint64_t line[64], uint32_t sectors[64])
{
    uint64_t lmask = ~((UINT64_C(1) << line_shift) - 1), smask = (UINT64_C(1) << sector_shift) - 1;
    uint32_t secs_mask = (1u << (line_shift - sector_shift)) - 1, m = r->mask;
    unsigned bytes = r->bytes ? r->bytes : 1, n = 0, cur_i = 0;
    uint64_t cur_ln = 0;
    uint32_t cur = 0; /* sectors of line cur_ln so far, kept out of memory (the common case: one line) */
    while (m) {
        uint64_t a = r->addr[__builtin_ctz(m)];
        m &= m - 1;
        if ((a & smask) + bytes > smask + 1)
            return mx_memreq_lines(r, 1u << line_shift, 1u << sector_shift, line, sectors);
        uint64_t ln = a & lmask;
        uint32_t bit = 1u << ((a >> sector_shift) & secs_mask);
        if (n && ln == cur_ln) {
            cur |= bit;
            continue;
        }
        if (n)
            sectors[cur_i] = cur;
        unsigned i = 0;
        while (i < n && line[i] != ln)
            i++;
        if (i == n) {
            line[n] = ln;
            sectors[n++] = 0;
        }
        cur_i = i;
        cur_ln = ln;
        cur = sectors[i] | bit;
    }
    if (n)
        sectors[cur_i] = cur;
    return n;
}

#endif

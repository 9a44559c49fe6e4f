/* memsys/bloom.c — see bloom.h. */
#include "memsys/bloom.h"

#include <string.h>

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void bloom_h3_init(struct bloom_h3 *h, unsigned k, uint64_t seed)
{
    memset(h, 0, sizeof *h);
    h->k = k < 1 ? 1 : k > BLOOM_MAX_K ? BLOOM_MAX_K : k;
    for (unsigned j = 0; j < h->k; j++)
        for (unsigned i = 0; i < 64; i++)
            h->q[j][i] = (uint32_t)splitmix(&seed);
}

unsigned bloom_h3_bit(const struct bloom_h3 *h, unsigned j, uint64_t block)
{
    uint32_t r = 0;
    while (block) {
        r ^= h->q[j][__builtin_ctzll(block)];
        block &= block - 1;
    }
    unsigned part = BLOOM_BITS / h->k;
    return j * part + r % part;
}

void bloom_pred_init(struct bloom_pred *p, unsigned assoc)
{
    memset(p, 0, sizeof *p);
    p->assoc = assoc ? assoc : 1;
}

static int test(const uint64_t *bf, const struct bloom_h3 *h, uint64_t block)
{
    for (unsigned j = 0; j < h->k; j++) {
        unsigned b = bloom_h3_bit(h, j, block);
        if (!(bf[b / 64] >> (b % 64) & 1))
            return 0;
    }
    return 1;
}

static void set(uint64_t *bf, const struct bloom_h3 *h, uint64_t block)
{
    for (unsigned j = 0; j < h->k; j++) {
        unsigned b = bloom_h3_bit(h, j, block);
        bf[b / 64] |= 1ull << (b % 64);
    }
}

int bloom_pred_query(const struct bloom_pred *p, const struct bloom_h3 *h, uint64_t block)
{
    return test(p->bf[p->active], h, block);
}

void bloom_pred_seed(struct bloom_pred *p, const struct bloom_h3 *h, uint64_t block, int both)
{
    set(p->bf[!p->active], h, block);
    if (both)
        set(p->bf[p->active], h, block);
}

void bloom_pred_access(struct bloom_pred *p, const struct bloom_h3 *h, uint64_t block)
{
    uint64_t *bf1 = p->bf[p->active], *bf2 = p->bf[!p->active];
    int was_in_bf2 = test(bf2, h, block);
    set(bf1, h, block);
    set(bf2, h, block);
    if (!was_in_bf2)
        p->n++;
    if (p->n >= p->assoc) {
        /* BF2 holds the `assoc` most recently used blocks: every block of the set */
        memset(bf1, 0, sizeof p->bf[0]);
        p->active = !p->active;
        p->n = 0;
        p->swaps++;
    }
}

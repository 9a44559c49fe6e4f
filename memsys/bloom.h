/* memsys/bloom.h — the Morpheus hit/miss predictor of one extended-LLC set
 * (MICRO'22 §4.1.2): two Bloom filters BF1/BF2 of 256 bits, partitioned H3
 * hashing.  Queries read BF1 (never a false negative: BF1 holds at least every
 * block in the set); every access inserts into both; once BF2 has seen
 * `assoc` distinct most-recently-used blocks it holds every block of the LRU
 * set, so BF1 is cleared and the two swap. */
#ifndef MX_MEMSYS_BLOOM_H
#define MX_MEMSYS_BLOOM_H
#include <stdint.h>

#define BLOOM_BITS 256           /* 32 bytes per filter, as in the paper */
#define BLOOM_MAX_K 8

/* H3 hash family: one random 64 x 32 bit matrix per hash function. */
struct bloom_h3 {
    unsigned k;                  /* hash functions (1..BLOOM_MAX_K) */
    uint32_t q[BLOOM_MAX_K][64]; /* q[j][i]: row i of hash j's matrix */
};

struct bloom_pred {
    uint64_t bf[2][BLOOM_BITS / 64];
    uint8_t active;              /* which of bf[] is BF1 (queried) */
    uint32_t n;                  /* distinct blocks inserted into BF2 since the last swap */
    uint32_t assoc;              /* blocks the set can hold (32 bits: a narrower field truncated
                                    large values, 65536 to 0, and swapped on every access) */
    uint32_t swaps;              /* statistics */
};

/* Fills h with k hash functions from a fixed seed (deterministic). */
void bloom_h3_init(struct bloom_h3 *h, unsigned k, uint64_t seed);
/* Bit index in [0, BLOOM_BITS) of hash j of a block address (partitioned:
 * hash j owns bits [j*m/k, (j+1)*m/k)). */
unsigned bloom_h3_bit(const struct bloom_h3 *h, unsigned j, uint64_t block);

/* assoc: the most blocks the set can hold, or BF2 may be swapped in while
 * missing some of them; a set whose blocks are not placed in set-wide LRU
 * order (compressed) may instead be seeded at each swap (bloom_pred_seed)
 * and use the blocks it can hold under its current split. */
void bloom_pred_init(struct bloom_pred *p, unsigned assoc);
/* 1 if the block may be in the set (predicted hit), 0 if certainly not. */
int bloom_pred_query(const struct bloom_pred *p, const struct bloom_h3 *h, uint64_t block);
/* Puts a block the set holds into BF2 only (nothing counted): after a
 * block left the set other than by LRU eviction (the host wrote its line),
 * the set may keep blocks older than the last `assoc` distinct ones, and
 * the controller seeds BF2 with the set's blocks at each swap until the
 * set is full again.  both: into BF1 too (a compressed set whose blocks
 * were not placed in set-wide LRU order since the last swap: BF1, which
 * was BF2 until the swap, may lack some of them). */
void bloom_pred_seed(struct bloom_pred *p, const struct bloom_h3 *h, uint64_t block, int both);
/* The block was inserted into or re-used in the set. */
void bloom_pred_access(struct bloom_pred *p, const struct bloom_h3 *h, uint64_t block);
#endif

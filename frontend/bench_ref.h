/* frontend/bench_ref.h — plain-C twins of the benchmark kernels
 * (workloads/bench/bench.cu), same arithmetic in the same order, compiled
 * with -O2: the reference for correctness and for the slowdown factor. */
#ifndef MX_BENCH_REF_H
#define MX_BENCH_REF_H
#include <stdint.h>
void ref_vecadd(const float *a, const float *b, float *c, int n);
void ref_matmul(const float *A, const float *B, float *C, int n);
void ref_reduce_shared(const uint32_t *in, uint32_t *out, int n, int block);
void ref_reduce_shfl(const uint32_t *in, uint32_t *out, int n);
void ref_histogram(const uint8_t *data, uint32_t *bins, int n);
/* All BFS levels from vertex 0; returns the number of levels. */
int ref_bfs(const int *rowptr, const int *cols, int *level, int nv);
void ref_stencil(const float *in, float *out, int n);
#endif

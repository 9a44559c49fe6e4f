/* tests/cuda/coop_grid_sync.cu — cudaLaunchCooperativeKernel and
 * cooperative_groups' grid.sync(): a grid-wide prefix of phases where every
 * block reads what every other block wrote before the sync (impossible
 * without all blocks resident at once), iterated several times; the grid is
 * sized with cudaOccupancyMaxActiveBlocksPerMultiprocessor as CUDA's samples
 * do; one block too many is cudaErrorCooperativeLaunchTooLarge; grid.sync()
 * in a plain launch traps (no workspace), as on a GPU.  Checked against the
 * host. */
#define MX_TEST "coop_grid_sync"
#include "mx_check.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

/* Each phase: v[i] = v[i] + v[(i + shift) % n] for all i at once (through a
 * second buffer), shift doubling: after log2(n) phases every element holds
 * the sum of all initial elements. */
__global__ void allsum(int *v, int *w, int n, int phases)
{
    cg::grid_group g = cg::this_grid();
    int stride = (int)g.size();
    for (int p = 0, shift = 1; p < phases; p++, shift *= 2) {
        for (int i = (int)g.thread_rank(); i < n; i += stride)
            w[i] = v[i] + v[(i + shift) % n];
        g.sync();
        for (int i = (int)g.thread_rank(); i < n; i += stride)
            v[i] = w[i];
        g.sync();
    }
}

int main(void)
{
    int dev = 0, coop = 0, nsm = 0, per_sm = 0;
    CK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    EXPECT(coop == 1, "cudaDevAttrCooperativeLaunch = %d, expected 1", coop);
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev));
    const int threads = 256;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, allsum, threads, 0));
    EXPECT(per_sm >= 1, "occupancy %d", per_sm);
    int blocks = nsm * per_sm;
    const int n = 1 << 16, phases = 16;
    int *h = (int *)malloc(n * sizeof(int)), *v, *w;
    long long total = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (int)(mx_rand() % 1000);
        total += h[i];
    }
    CK(cudaMalloc(&v, n * sizeof(int)));
    CK(cudaMalloc(&w, n * sizeof(int)));
    CK(cudaMemcpy(v, h, n * sizeof(int), cudaMemcpyHostToDevice));
    int nn = n, ph = phases;
    void *args[] = { &v, &w, &nn, &ph };
    CK(cudaLaunchCooperativeKernel((void *)allsum, dim3(blocks), dim3(threads), args, 0, 0));
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, v, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == (int)total, "v[%d] = %d, expected the total %lld (%d blocks of %d)", i, h[i], total, blocks, threads);
    /* one block more than fits at once */
    CK_ERR(cudaLaunchCooperativeKernel((void *)allsum, dim3(blocks + 1), dim3(threads), args, 0, 0),
           cudaErrorCooperativeLaunchTooLarge);
    CK_ERR(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
    CK(cudaGetLastError());
    /* grid.sync() without a cooperative launch: no workspace, the kernel traps */
    allsum<<<2, threads>>>(v, w, nn, 1);
    cudaError_t e = cudaDeviceSynchronize();
    EXPECT(e == cudaErrorLaunchFailure, "grid.sync in a plain launch gave %s, expected cudaErrorLaunchFailure",
           cudaGetErrorName(e));
    free(h);
    return mx_pass();
}

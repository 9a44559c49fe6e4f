// workloads/p-bfs/p-bfs.cu — breadth-first search, vertex-centric (ours,
// written from the algorithm's description).  Every level launches one
// thread per vertex over the whole graph; a vertex whose level equals the
// current level visits its CSR neighbours and labels the unvisited ones with
// level + 1, raising a "changed" flag.  The host repeats levels until a
// launch changes nothing.  The frontier is implicit in the per-vertex level
// array, so each level streams level[] and rowptr[] once and gathers
// col[] / level[] of the frontier's neighbours at random.
//
// Input: an undirected R-MAT graph (a=.57 b=.19 c=.19 d=.05, vertex labels
// permuted, self-loops and duplicate edges removed) built from --seed.
// Check: levels compared bit for bit with a host queue BFS.
// clang's device-only PTX build (with -include mx_cuda_clang.h, no CUDA
// headers) sees only the kernels; the host part needs the CUDA runtime.
#ifndef MX_CUDA_CLANG
#include "mx_workload.h"
#endif

#define PBFS_BLOCK 256
#define PBFS_UNSEEN (-1)

// level[v] = 0 for the source, PBFS_UNSEEN for every other vertex.
__global__ void pbfs_init(int *level, int n, int source)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n)
        level[v] = v == source ? 0 : PBFS_UNSEEN;
}

// One level: vertices at level cur label their unseen neighbours cur + 1.
// Two threads may label the same vertex; they write the same value.
__global__ void pbfs_level(const int *rowptr, const int *col, int *level, int n, int cur, int *changed)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || level[v] != cur)
        return;
    int end = rowptr[v + 1];
    for (int e = rowptr[v]; e < end; e++) {
        int u = col[e];
        if (level[u] == PBFS_UNSEEN) {
            level[u] = cur + 1;
            *changed = 1;
        }
    }
}

#ifndef MX_CUDA_CLANG
// ---- host: graph generation ------------------------------------------------

#include "mx_rmat.h" // R-MAT edge generator and int comparison, shared with the other graph workloads

// Host reference: queue BFS.
static int bfs_ref(const struct csr *g, int source, int *level)
{
    int *queue = (int *)malloc((size_t)g->n * sizeof *queue);
    for (int v = 0; v < g->n; v++)
        level[v] = PBFS_UNSEEN;
    int head = 0, tail = 0, depth = 0;
    level[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
        int v = queue[head++];
        if (level[v] > depth)
            depth = level[v];
        for (int e = g->rowptr[v]; e < g->rowptr[v + 1]; e++)
            if (level[g->col[e]] == PBFS_UNSEEN) {
                level[g->col[e]] = level[v] + 1;
                queue[tail++] = g->col[e];
            }
    }
    free(queue);
    return depth;
}

int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "p-bfs", argc, argv);
    static const int scales[] = {13, 18, 20, 17}, factors[] = {8, 8, 16, 8};
    int scale = scales[w.size], n = 1 << scale;
    size_t m = (size_t)factors[w.size] << scale;

    int *src = (int *)malloc(m * sizeof *src), *dst = (int *)malloc(m * sizeof *dst);
    rmat_edges(&w, scale, m, src, dst);
    struct csr g;
    csr_build(n, m, src, dst, 1, &g);
    free(src);
    free(dst);
    int source;
    do
        source = (int)mxw_randu(&w, (uint32_t)n);
    while (g.rowptr[source + 1] == g.rowptr[source]);

    int *want = (int *)malloc((size_t)n * sizeof *want), *got = (int *)malloc((size_t)n * sizeof *got);
    int depth = bfs_ref(&g, source, want);

    int *d_rowptr, *d_col, *d_level, *d_changed;
    MXW_CUDA(&w, cudaMalloc((void **)&d_rowptr, ((size_t)n + 1) * sizeof(int)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_col, (size_t)g.nnz * sizeof(int) + 4));
    MXW_CUDA(&w, cudaMalloc((void **)&d_level, (size_t)n * sizeof(int)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_changed, sizeof(int)));
    MXW_CUDA(&w, cudaMemcpy(d_rowptr, g.rowptr, ((size_t)n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_col, g.col, (size_t)g.nnz * sizeof(int), cudaMemcpyHostToDevice));

    int blocks = (n + PBFS_BLOCK - 1) / PBFS_BLOCK;
    pbfs_init<<<blocks, PBFS_BLOCK>>>(d_level, n, source);
    MXW_LAUNCHED(&w);
    int cur = 0, changed;
    do {
        if (cur > n)
            mxw_fail(&w, "no fixed point after %d levels", cur);
        MXW_CUDA(&w, cudaMemset(d_changed, 0, sizeof(int)));
        pbfs_level<<<blocks, PBFS_BLOCK>>>(d_rowptr, d_col, d_level, n, cur, d_changed);
        MXW_LAUNCHED(&w);
        MXW_CUDA(&w, cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
        cur++;
    } while (changed);
    MXW_CUDA(&w, cudaMemcpy(got, d_level, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));

    int reached = 0;
    for (int v = 0; v < n; v++)
        reached += want[v] != PBFS_UNSEEN;
    if (!w.quiet)
        printf("p-bfs: %d vertices, %d directed edges, source %d, %d reached, depth %d, %d launches of pbfs_level\n", n,
               g.nnz, source, reached, depth, cur);
    if (cur != depth + 1)
        mxw_fail(&w, "%d level launches for a graph of depth %d", cur, depth);
    mxw_check_exact(&w, "level", got, want, (size_t)n, sizeof(int));

    MXW_CUDA(&w, cudaFree(d_rowptr));
    MXW_CUDA(&w, cudaFree(d_col));
    MXW_CUDA(&w, cudaFree(d_level));
    MXW_CUDA(&w, cudaFree(d_changed));
    free(g.rowptr);
    free(g.col);
    free(want);
    free(got);
    mxw_pass(&w);
    return 0;
}
#endif /* !MX_CUDA_CLANG */

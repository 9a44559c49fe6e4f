// workloads/page-r/page-r.cu — PageRank, pull formulation (ours, written
// from the algorithm's description).  Each iteration runs two kernels with
// one thread per vertex: pr_contrib divides a vertex's rank by its out-degree,
// and pr_pull sums the contributions of a vertex's in-neighbours (CSR of the
// transposed graph) and applies the damping:
//     rank'[v] = fmaf(0.85, sum_{u -> v} rank[u] / outdeg[u], 0.15 / n).
// The host runs a fixed number of iterations, swapping the rank buffers.
// Vertices without out-edges keep their rank to themselves (their mass is
// not redistributed), so ranks need not sum to one.
//
// Input: a directed R-MAT graph (a=.57 b=.19 c=.19 d=.05, vertex labels
// permuted, self-loops and duplicate edges removed) built from --seed.
// Check: bit-exact.  The host reference performs the same IEEE operations
// in the same order (division, in-order float additions starting from 0,
// one explicit fmaf), and the device code contains no a*b+c the compiler
// could contract.
// clang's device-only PTX build (with -include mx_cuda_clang.h, no CUDA
// headers) sees only the kernels; the host part needs the CUDA runtime.
#ifndef MX_CUDA_CLANG
#include "mx_workload.h"
#endif

#define PR_BLOCK 256
#define PR_DAMPING 0.85f

__global__ void pr_init(float *rank, int n, float r0)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n)
        rank[v] = r0;
}

// contrib[u] = rank[u] / outdeg[u] (0 for vertices without out-edges).
__global__ void pr_contrib(const float *rank, const int *outdeg, float *contrib, int n)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u < n) {
        int d = outdeg[u];
        contrib[u] = d > 0 ? rank[u] / (float)d : 0.0f;
    }
}

// rank_out[v] = damping * (sum of in-neighbours' contributions) + base.
__global__ void pr_pull(const int *inptr, const int *insrc, const float *contrib, float *rank_out, int n, float base)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n)
        return;
    float sum = 0.0f;
    int end = inptr[v + 1];
    for (int e = inptr[v]; e < end; e++)
        sum += contrib[insrc[e]];
    rank_out[v] = fmaf(PR_DAMPING, sum, base);
}

#ifndef MX_CUDA_CLANG
// ---- host: graph generation ------------------------------------------------

#include "mx_rmat.h" // R-MAT edge generator and int comparison, shared with the other graph workloads

// Host reference: the same operations in the same order as the kernels.
static void pagerank_ref(const struct csr *in, const int *outdeg, int iters, float r0, float base, float *rank)
{
    int n = in->n;
    float *contrib = (float *)malloc((size_t)n * sizeof *contrib);
    for (int v = 0; v < n; v++)
        rank[v] = r0;
    for (int it = 0; it < iters; it++) {
        for (int u = 0; u < n; u++)
            contrib[u] = outdeg[u] > 0 ? rank[u] / (float)outdeg[u] : 0.0f;
        for (int v = 0; v < n; v++) {
            float sum = 0.0f;
            for (int e = in->rowptr[v]; e < in->rowptr[v + 1]; e++)
                sum += contrib[in->col[e]];
            rank[v] = fmaf(PR_DAMPING, sum, base);
        }
    }
    free(contrib);
}

int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "page-r", argc, argv);
    /* R-MAT scale, edge factor, iterations.  medium: Graph500's edge factor 16
     * (3.9M edges, about 20 MiB), 3 iterations to keep the run short. */
    static const int scales[] = {13, 18, 20, 17}, factors[] = {8, 16, 16, 16}, iterations[] = {10, 3, 20, 3};
    int scale = scales[w.size], n = 1 << scale, iters = iterations[w.size];
    size_t m = (size_t)factors[w.size] << scale;

    int *src = (int *)malloc(m * sizeof *src), *dst = (int *)malloc(m * sizeof *dst);
    rmat_edges(&w, scale, m, src, dst);
    struct csr in;
    csr_build(n, m, dst, src, 0, &in); // in-edges: row = dst, col = src
    free(src);
    free(dst);
    int *outdeg = (int *)calloc((size_t)n, sizeof *outdeg);
    for (int e = 0; e < in.nnz; e++)
        outdeg[in.col[e]]++;

    float r0 = 1.0f / (float)n, base = (1.0f - PR_DAMPING) / (float)n;
    float *want = (float *)malloc((size_t)n * sizeof *want), *got = (float *)malloc((size_t)n * sizeof *got);
    pagerank_ref(&in, outdeg, iters, r0, base, want);

    int *d_inptr, *d_insrc, *d_outdeg;
    float *d_rank, *d_next, *d_contrib;
    MXW_CUDA(&w, cudaMalloc((void **)&d_inptr, ((size_t)n + 1) * sizeof(int)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_insrc, (size_t)in.nnz * sizeof(int) + 4));
    MXW_CUDA(&w, cudaMalloc((void **)&d_outdeg, (size_t)n * sizeof(int)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_rank, (size_t)n * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_next, (size_t)n * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_contrib, (size_t)n * sizeof(float)));
    MXW_CUDA(&w, cudaMemcpy(d_inptr, in.rowptr, ((size_t)n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_insrc, in.col, (size_t)in.nnz * sizeof(int), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_outdeg, outdeg, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));

    int blocks = (n + PR_BLOCK - 1) / PR_BLOCK;
    pr_init<<<blocks, PR_BLOCK>>>(d_rank, n, r0);
    MXW_LAUNCHED(&w);
    for (int it = 0; it < iters; it++) {
        pr_contrib<<<blocks, PR_BLOCK>>>(d_rank, d_outdeg, d_contrib, n);
        MXW_LAUNCHED(&w);
        pr_pull<<<blocks, PR_BLOCK>>>(d_inptr, d_insrc, d_contrib, d_next, n, base);
        MXW_LAUNCHED(&w);
        float *t = d_rank;
        d_rank = d_next;
        d_next = t;
    }
    MXW_CUDA(&w, cudaMemcpy(got, d_rank, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));

    if (!w.quiet) {
        int dangling = 0, top = 0;
        double total = 0;
        for (int v = 0; v < n; v++) {
            dangling += outdeg[v] == 0;
            total += want[v];
            if (want[v] > want[top])
                top = v;
        }
        printf("page-r: %d vertices, %d edges, %d without out-edges, %d iterations, rank sum %.6f, top vertex %d "
               "(rank %.3g, in-degree %d)\n",
               n, in.nnz, dangling, iters, total, top, want[top], in.rowptr[top + 1] - in.rowptr[top]);
    }
    mxw_check_exact(&w, "rank", got, want, (size_t)n, sizeof(float));

    MXW_CUDA(&w, cudaFree(d_inptr));
    MXW_CUDA(&w, cudaFree(d_insrc));
    MXW_CUDA(&w, cudaFree(d_outdeg));
    MXW_CUDA(&w, cudaFree(d_rank));
    MXW_CUDA(&w, cudaFree(d_next));
    MXW_CUDA(&w, cudaFree(d_contrib));
    free(in.rowptr);
    free(in.col);
    free(outdeg);
    free(want);
    free(got);
    mxw_pass(&w);
    return 0;
}
#endif /* !MX_CUDA_CLANG */

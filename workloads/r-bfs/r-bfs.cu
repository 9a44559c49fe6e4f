// workloads/r-bfs/r-bfs.cu — breadth-first search with frontier masks, two
// kernels per level (ours, written from the algorithm's description).
// Per level, rbfs_expand runs one thread per vertex: a vertex in the
// frontier mask leaves it, and every neighbour not yet visited gets
// cost + 1 and a mark in the "updating" mask.  rbfs_update then turns the
// updating marks into the next frontier, marks those vertices visited and
// sets the stop flag so the host runs another level.  The graph is an array
// of (first edge, edge count) records plus an edge array; the masks are
// byte arrays.  Each level streams all four per-vertex arrays and gathers
// visited[] / cost[] of the frontier's neighbours at random.
//
// Input: an undirected R-MAT graph (a=.57 b=.19 c=.19 d=.05, vertex labels
// permuted, self-loops and duplicate edges removed) built from --seed.
// Check: costs compared bit for bit with a host queue BFS.
// clang's device-only PTX build (with -include mx_cuda_clang.h, no CUDA
// headers) sees only the kernels; the host part needs the CUDA runtime.
#ifndef MX_CUDA_CLANG
#include "mx_workload.h"
#endif

#define RBFS_BLOCK 512

struct rbfs_node {
    int first; // index of the vertex's first edge
    int count; // number of edges
};

// Frontier vertices hand cost + 1 to their unvisited neighbours.
__global__ void rbfs_expand(const rbfs_node *nodes, const int *edges, bool *mask, bool *updating, const bool *visited,
                            int *cost, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && mask[v]) {
        mask[v] = false;
        int end = nodes[v].first + nodes[v].count;
        for (int e = nodes[v].first; e < end; e++) {
            int u = edges[e];
            if (!visited[u]) {
                cost[u] = cost[v] + 1;
                updating[u] = true;
            }
        }
    }
}

// Newly reached vertices become the next frontier.
__global__ void rbfs_update(bool *mask, bool *updating, bool *visited, bool *again, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && updating[v]) {
        mask[v] = true;
        visited[v] = true;
        *again = true;
        updating[v] = false;
    }
}

#ifndef MX_CUDA_CLANG
// ---- host: graph generation ------------------------------------------------

#include "mx_rmat.h" // R-MAT edge generator and int comparison, shared with the other graph workloads

// Undirected adjacency in Rodinia's layout: nodes[v] = (first, count) into
// *edges_out (the shared CSR builder's rows).
static int graph_undirected(int n, size_t m, const int *src, const int *dst, rbfs_node *nodes, int **edges_out)
{
    struct csr g;
    csr_build(n, m, src, dst, 1, &g);
    for (int v = 0; v < n; v++) {
        nodes[v].first = g.rowptr[v];
        nodes[v].count = g.rowptr[v + 1] - g.rowptr[v];
    }
    free(g.rowptr);
    *edges_out = g.col;
    return g.nnz;
}

// Host reference: queue BFS; returns the depth.
static int bfs_ref(int n, const rbfs_node *nodes, const int *edges, int source, int *cost)
{
    int *queue = (int *)malloc((size_t)n * sizeof *queue);
    for (int v = 0; v < n; v++)
        cost[v] = -1;
    int head = 0, tail = 0, depth = 0;
    cost[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
        int v = queue[head++];
        if (cost[v] > depth)
            depth = cost[v];
        for (int e = nodes[v].first; e < nodes[v].first + nodes[v].count; e++)
            if (cost[edges[e]] < 0) {
                cost[edges[e]] = cost[v] + 1;
                queue[tail++] = edges[e];
            }
    }
    free(queue);
    return depth;
}

int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "r-bfs", argc, argv);
    static const int scales[] = {13, 18, 20, 17}, factors[] = {8, 8, 16, 8};
    int scale = scales[w.size], n = 1 << scale;
    size_t m = (size_t)factors[w.size] << scale;

    int *src = (int *)malloc(m * sizeof *src), *dst = (int *)malloc(m * sizeof *dst);
    rmat_edges(&w, scale, m, src, dst);
    rbfs_node *nodes = (rbfs_node *)malloc((size_t)n * sizeof *nodes);
    int *edges;
    int nedges = graph_undirected(n, m, src, dst, nodes, &edges);
    free(src);
    free(dst);
    int source;
    do
        source = (int)mxw_randu(&w, (uint32_t)n);
    while (nodes[source].count == 0);

    // Host-side initial state, as the original sets it up before copying.
    bool *mask = (bool *)calloc((size_t)n, sizeof *mask);
    bool *updating = (bool *)calloc((size_t)n, sizeof *updating);
    bool *visited = (bool *)calloc((size_t)n, sizeof *visited);
    int *cost = (int *)malloc((size_t)n * sizeof *cost), *want = (int *)malloc((size_t)n * sizeof *want);
    for (int v = 0; v < n; v++)
        cost[v] = -1;
    mask[source] = visited[source] = true;
    cost[source] = 0;
    int depth = bfs_ref(n, nodes, edges, source, want);

    rbfs_node *d_nodes;
    int *d_edges, *d_cost;
    bool *d_mask, *d_updating, *d_visited, *d_again;
    MXW_CUDA(&w, cudaMalloc((void **)&d_nodes, (size_t)n * sizeof *d_nodes));
    MXW_CUDA(&w, cudaMalloc((void **)&d_edges, (size_t)nedges * sizeof *d_edges + 4));
    MXW_CUDA(&w, cudaMalloc((void **)&d_mask, (size_t)n));
    MXW_CUDA(&w, cudaMalloc((void **)&d_updating, (size_t)n));
    MXW_CUDA(&w, cudaMalloc((void **)&d_visited, (size_t)n));
    MXW_CUDA(&w, cudaMalloc((void **)&d_cost, (size_t)n * sizeof *d_cost));
    MXW_CUDA(&w, cudaMalloc((void **)&d_again, sizeof *d_again));
    MXW_CUDA(&w, cudaMemcpy(d_nodes, nodes, (size_t)n * sizeof *nodes, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_edges, edges, (size_t)nedges * sizeof *edges, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_mask, mask, (size_t)n, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_updating, updating, (size_t)n, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_visited, visited, (size_t)n, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_cost, cost, (size_t)n * sizeof *cost, cudaMemcpyHostToDevice));

    int blocks = (n + RBFS_BLOCK - 1) / RBFS_BLOCK;
    int levels = 0;
    bool again;
    do {
        if (levels > n)
            mxw_fail(&w, "no fixed point after %d levels", levels);
        again = false;
        MXW_CUDA(&w, cudaMemcpy(d_again, &again, sizeof again, cudaMemcpyHostToDevice));
        rbfs_expand<<<blocks, RBFS_BLOCK>>>(d_nodes, d_edges, d_mask, d_updating, d_visited, d_cost, n);
        MXW_LAUNCHED(&w);
        rbfs_update<<<blocks, RBFS_BLOCK>>>(d_mask, d_updating, d_visited, d_again, n);
        MXW_LAUNCHED(&w);
        MXW_CUDA(&w, cudaMemcpy(&again, d_again, sizeof again, cudaMemcpyDeviceToHost));
        levels++;
    } while (again);
    MXW_CUDA(&w, cudaMemcpy(cost, d_cost, (size_t)n * sizeof *cost, cudaMemcpyDeviceToHost));

    int reached = 0;
    for (int v = 0; v < n; v++)
        reached += want[v] >= 0;
    if (!w.quiet)
        printf("r-bfs: %d vertices, %d directed edges, source %d, %d reached, depth %d, %d levels launched\n", n, nedges,
               source, reached, depth, levels);
    if (levels != depth + 1)
        mxw_fail(&w, "%d levels launched for a graph of depth %d", levels, depth);
    mxw_check_exact(&w, "cost", cost, want, (size_t)n, sizeof(int));

    MXW_CUDA(&w, cudaFree(d_nodes));
    MXW_CUDA(&w, cudaFree(d_edges));
    MXW_CUDA(&w, cudaFree(d_mask));
    MXW_CUDA(&w, cudaFree(d_updating));
    MXW_CUDA(&w, cudaFree(d_visited));
    MXW_CUDA(&w, cudaFree(d_cost));
    MXW_CUDA(&w, cudaFree(d_again));
    free(nodes);
    free(edges);
    free(mask);
    free(updating);
    free(visited);
    free(cost);
    free(want);
    mxw_pass(&w);
    return 0;
}
#endif /* !MX_CUDA_CLANG */

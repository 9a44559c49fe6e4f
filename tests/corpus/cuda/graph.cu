/* tests/corpus/cuda/graph.cu — irregular kernels over a CSR graph /
 * sparse matrix: a level-synchronous BFS step (one thread per vertex and
 * a queue-based variant with atomics), SpMV in scalar (one thread per
 * row) and vector (one warp per row, shuffle reduction) form, and one
 * step of PageRank-style propagation with float atomics.
 * CSR: row_ptr[V+1], col[E] (and val[E] for matrices).
 * See ../MANIFEST.md. */

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

/* One BFS level, vertex-parallel: for every vertex v with level[v] ==
 * cur, each neighbour u with level[u] == -1 gets level[u] = cur + 1 and
 * *changed = 1.  Several threads may write the same level[u], always
 * with the same value, so the result is deterministic.  Iterate with
 * cur = 0, 1, ... while *changed (reset it to 0 before each launch);
 * level[src] = 0 and all others -1 initially. */
extern "C" __global__ void bfs_step(const int *row_ptr, const int *col, int *level, int *changed, int cur,
                                    int V)
{
    int v = GID;
    if (v >= V || level[v] != cur)
        return;
    for (int e = row_ptr[v]; e < row_ptr[v + 1]; ++e) {
        int u = col[e];
        if (level[u] == -1) {
            level[u] = cur + 1;
            *changed = 1;
        }
    }
}

/* Queue-based BFS level: frontier[0..fsize) holds the current level's
 * vertices; each neighbour u claimed first via atomicCAS(&level[u], -1,
 * cur+1) is appended to next[] at position atomicAdd(next_size, 1).
 * The set of vertices in next[0..*next_size) and the final level[] are
 * deterministic; their order in next[] is not (sort before comparing). */
extern "C" __global__ void bfs_queue(const int *row_ptr, const int *col, int *level, const int *frontier,
                                     int fsize, int *next, int *next_size, int cur)
{
    int k = GID;
    if (k >= fsize)
        return;
    int v = frontier[k];
    for (int e = row_ptr[v]; e < row_ptr[v + 1]; ++e) {
        int u = col[e];
        if (atomicCAS(&level[u], -1, cur + 1) == -1)
            next[atomicAdd(next_size, 1)] = u;
    }
}

/* y[r] = sum over e in row r of val[e] * x[col[e]], summed in e order
 * (float), one thread per row. */
extern "C" __global__ void spmv_scalar(const int *row_ptr, const int *col, const float *val, const float *x,
                                       float *y, int rows)
{
    int r = GID;
    if (r >= rows)
        return;
    float s = 0.0f;
    for (int e = row_ptr[r]; e < row_ptr[r + 1]; ++e)
        s += val[e] * __ldg(&x[col[e]]);
    y[r] = s;
}

/* Same y with one warp per row: lane L sums elements e = start+L,
 * start+L+32, ..., then a shuffle-down tree adds the 32 partial sums
 * (different summation order from spmv_scalar: compare with a tolerance,
 * or use small integer-valued data for an exact check).  Block size a
 * multiple of 32; rows = total warps needed. */
extern "C" __global__ void spmv_vector(const int *row_ptr, const int *col, const float *val, const float *x,
                                       float *y, int rows)
{
    int warp = GID / 32, lane = threadIdx.x % 32;
    if (warp >= rows)
        return; /* whole warps leave together */
    float s = 0.0f;
    for (int e = row_ptr[warp] + lane; e < row_ptr[warp + 1]; e += 32)
        s += val[e] * x[col[e]];
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0)
        y[warp] = s;
}

/* Push-style propagation: every vertex v sends rank[v] / outdeg(v) to
 * each neighbour: next[u] += rank[v] / deg with atomicAdd (float).  With
 * power-of-two degrees and dyadic ranks the sums are exact and
 * order-independent.  Vertices with no edges send nothing.  next[] must
 * be zeroed first. */
extern "C" __global__ void push_rank(const int *row_ptr, const int *col, const float *rank, float *next, int V)
{
    int v = GID;
    if (v >= V)
        return;
    int b = row_ptr[v], e1 = row_ptr[v + 1];
    if (e1 == b)
        return;
    float share = rank[v] / (float)(e1 - b);
    for (int e = b; e < e1; ++e)
        atomicAdd(&next[col[e]], share);
}

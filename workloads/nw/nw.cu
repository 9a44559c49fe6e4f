/* workloads/nw/nw.cu — Needleman-Wunsch global alignment in the style of
 * Rodinia's nw: the (n+1) x (n+1) score matrix is filled in 16 x 16 blocks
 * along block anti-diagonals.  The host launches one kernel per block
 * anti-diagonal: nw_upper_left for the diagonals that grow (1, 2, ..., nb
 * blocks), then nw_lower_right for the ones that shrink (nb-1, ..., 1).
 * Each block (16 threads) stages its similarity tile and the score row above
 * and column to the left in shared memory, sweeps the 31 anti-diagonals
 * inside the tile, and writes its 16 x 16 scores back.  Integer arithmetic:
 * the result is checked bit for bit against a plain C fill of the matrix.
 * Written from the algorithm's description (no code from Rodinia). */
#ifndef MX_CUDA_CLANG /* clang's device-only PTX build (mx_cuda_clang.h) sees the kernels only */
#include "mx_workload.h"
#endif

#define NW_BS 16 /* block edge in cells; also the threads per block */

/* Fills one 16 x 16 block whose top-left cell is (i0, j0), i0, j0 >= 1.
 * score and sim are (n+1) x (n+1), row-major with row stride `stride`;
 * row 0 and column 0 of score hold the gap penalties already. */
__device__ __forceinline__ void nw_block(int *score, const int *sim, int stride, int i0, int j0, int penalty)
{
    __shared__ int s_sim[NW_BS][NW_BS];         /* similarity of the block's cells */
    __shared__ int s_m[NW_BS + 1][NW_BS + 1];   /* scores, with the row above and column left */
    int t = threadIdx.x;

    if (t == 0)
        s_m[0][0] = score[(i0 - 1) * stride + (j0 - 1)];
    s_m[0][t + 1] = score[(i0 - 1) * stride + j0 + t];
    s_m[t + 1][0] = score[(i0 + t) * stride + (j0 - 1)];
    for (int k = 0; k < NW_BS; k++)
        s_sim[k][t] = sim[(i0 + k) * stride + j0 + t];
    __syncthreads();

    /* Anti-diagonal m of the tile holds cells (m - t, t); thread t owns column t. */
    for (int m = 0; m < 2 * NW_BS - 1; m++) {
        int r = m - t;
        if (r >= 0 && r < NW_BS) {
            int diag = s_m[r][t] + s_sim[r][t];
            int left = s_m[r + 1][t] - penalty;
            int up = s_m[r][t + 1] - penalty;
            int best = diag > left ? diag : left;
            s_m[r + 1][t + 1] = best > up ? best : up;
        }
        __syncthreads();
    }

    for (int k = 0; k < NW_BS; k++)
        score[(i0 + k) * stride + j0 + t] = s_m[k + 1][t + 1];
}

/* Block anti-diagonal d (0 <= d < nb) of the upper-left half: d + 1 blocks,
 * block b at block row b, block column d - b. */
__global__ void nw_upper_left(int *score, const int *sim, int stride, int d, int penalty)
{
    int br = blockIdx.x, bc = d - (int)blockIdx.x;
    nw_block(score, sim, stride, 1 + br * NW_BS, 1 + bc * NW_BS, penalty);
}

/* Block anti-diagonal d (nb <= d < 2 nb - 1) of the lower-right half:
 * 2 nb - 1 - d blocks, block b at block row d - nb + 1 + b. */
__global__ void nw_lower_right(int *score, const int *sim, int stride, int d, int nb, int penalty)
{
    int br = d - nb + 1 + (int)blockIdx.x, bc = d - br;
    nw_block(score, sim, stride, 1 + br * NW_BS, 1 + bc * NW_BS, penalty);
}

/* ---- host ------------------------------------------------------------- */
#ifndef MX_CUDA_CLANG

#define NW_ALPHA 24 /* alphabet size (amino acids and ambiguity codes) */

/* Plain C reference: row by row, the same recurrence. */
static void nw_reference(int *m, const int *sim, int n, int penalty)
{
    int s = n + 1;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            int diag = m[(i - 1) * s + j - 1] + sim[i * s + j];
            int left = m[i * s + j - 1] - penalty;
            int up = m[(i - 1) * s + j] - penalty;
            int best = diag > left ? diag : left;
            m[i * s + j] = best > up ? best : up;
        }
}

int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "nw", argc, argv);
    /* Sequence length (a multiple of 16).  Rodinia runs 2048 (medium here) to
     * 16384. */
    static const int lens[4] = {512, 2048, 4096, 1152};
    const int n = lens[w.size], s = n + 1, nb = n / NW_BS, penalty = 10;
    size_t cells = (size_t)s * s;

    /* A seeded symmetric substitution table (matches score 4..11, mismatches
     * -4..3) and two random sequences; sim[i][j] = table[a[i]][b[j]]. */
    int table[NW_ALPHA][NW_ALPHA];
    for (int x = 0; x < NW_ALPHA; x++)
        for (int y = 0; y <= x; y++)
            table[x][y] = table[y][x] = x == y ? 4 + (int)mxw_randu(&w, 8) : (int)mxw_randu(&w, 8) - 4;
    int *a = (int *)malloc(sizeof(int) * s), *b = (int *)malloc(sizeof(int) * s);
    int *sim = (int *)calloc(cells, sizeof(int));
    int *score = (int *)calloc(cells, sizeof(int));
    int *want = (int *)calloc(cells, sizeof(int));
    if (!a || !b || !sim || !score || !want)
        mxw_fail(&w, "out of host memory");
    for (int i = 1; i <= n; i++) {
        a[i] = (int)mxw_randu(&w, NW_ALPHA);
        b[i] = (int)mxw_randu(&w, NW_ALPHA);
    }
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            sim[i * s + j] = table[a[i]][b[j]];
    for (int i = 0; i <= n; i++) {
        score[i * s] = -i * penalty;
        score[i] = -i * penalty;
    }
    memcpy(want, score, cells * sizeof(int));

    int *d_score, *d_sim;
    MXW_CUDA(&w, cudaMalloc((void **)&d_score, cells * sizeof(int)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_sim, cells * sizeof(int)));
    MXW_CUDA(&w, cudaMemcpy(d_score, score, cells * sizeof(int), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_sim, sim, cells * sizeof(int), cudaMemcpyHostToDevice));

    for (int d = 0; d < nb; d++) {
        nw_upper_left<<<d + 1, NW_BS>>>(d_score, d_sim, s, d, penalty);
        MXW_LAUNCHED(&w);
    }
    for (int d = nb; d < 2 * nb - 1; d++) {
        nw_lower_right<<<2 * nb - 1 - d, NW_BS>>>(d_score, d_sim, s, d, nb, penalty);
        MXW_LAUNCHED(&w);
    }
    MXW_CUDA(&w, cudaMemcpy(score, d_score, cells * sizeof(int), cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaFree(d_score));
    MXW_CUDA(&w, cudaFree(d_sim));

    nw_reference(want, sim, n, penalty);
    if (!w.quiet)
        printf("nw: n=%d, %d block diagonals, alignment score %d\n", n, 2 * nb - 1, score[cells - 1]);
    mxw_check_exact(&w, "score", score, want, cells, sizeof(int));
    free(a);
    free(b);
    free(sim);
    free(score);
    free(want);
    mxw_pass(&w);
    return 0;
}
#endif /* !MX_CUDA_CLANG */

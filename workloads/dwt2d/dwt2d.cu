/* workloads/dwt2d/dwt2d.cu — forward 2D discrete wavelet transform in the
 * style of Rodinia's dwt2d: the reversible integer 5/3 (LeGall) wavelet of
 * JPEG 2000, lifted in place of the convolution (predict, then update), with
 * whole-sample symmetric extension at the edges.  Each level transforms the
 * rows of the current low-pass quadrant (kernel fdwt53_rows, buffer A -> B,
 * low half then high half of each row) and then its columns (kernel
 * fdwt53_cols, B -> A), and the next level works on the top-left quarter.
 * Both kernels stage a tile plus a two-sample halo in shared memory; the
 * three colour planes of the image go in gridDim.z.  Integer arithmetic:
 * checked bit for bit against a plain C transform.
 * Written from the algorithm's description (no code from Rodinia). */
#ifndef MX_CUDA_CLANG /* clang's device-only PTX build (mx_cuda_clang.h) sees the kernels only */
#include "mx_workload.h"
#endif

/* Row kernel: 64 threads per row segment (one output pair each), 4 rows. */
#define DW_RP 64 /* pairs per row tile */
#define DW_RR 4  /* rows per block */
/* Column kernel: 32 columns, 8 threads down each column, 32 pairs deep. */
#define DW_CC 32 /* columns per block */
#define DW_CT 8  /* threads per column */
#define DW_CP 32 /* pairs per column tile */

/* Sample k of a line of n samples with whole-sample symmetric extension
 * (x[-k] = x[k], x[n-1+k] = x[n-1-k]); k in [-2, n]. */
static __device__ __forceinline__ int dw_mirror(int k, int n)
{
    return k < 0 ? -k : k >= n ? 2 * (n - 1) - k : k;
}

/* Stages sample g of a line (element step `step` apart, n samples,
 * symmetrically extended) into *dst, if g <= n (no tile needs more). */
static __device__ __forceinline__ void dw_stage(int *dst, const int *line, size_t step, int g, int n)
{
    if (g <= n)
        *dst = line[(size_t)dw_mirror(g, n) * step];
}

/* *d = d_j = x_{2j+1} - ((x_{2j} + x_{2j+2}) >> 1) from staged samples
 * x[0], x[step], x[2 step] (= x_{2j} ..), if pair j exists. */
static __device__ __forceinline__ void dw_predict(int *d, const int *x, int step, int j, int half)
{
    if (j < half)
        *d = x[step] - ((x[0] + x[2 * step]) >> 1);
}

/* Rows of the w x h region at the top left of `src` (row stride `stride`,
 * plane stride `plane`) into `dst`: row y becomes s_0..s_{w/2-1}
 * d_0..d_{w/2-1} with d_j = x_{2j+1} - ((x_{2j} + x_{2j+2}) >> 1) and
 * s_j = x_{2j} + ((d_{j-1} + d_j + 2) >> 2).  >> on a negative int is an
 * arithmetic (flooring) shift on every compiler this runs with. */
__global__ void fdwt53_rows(const int *src, int *dst, int w, int h, int stride, size_t plane)
{
    __shared__ int xs[DW_RR][2 * DW_RP + 3]; /* samples 2 p0 - 2 .. 2 p0 + 2 DW_RP */
    __shared__ int ds[DW_RR][DW_RP + 1];     /* d_{p0-1} .. d_{p0+DW_RP-1} */
    int tx = threadIdx.x, ty = threadIdx.y;
    int y = blockIdx.y * DW_RR + ty, p0 = blockIdx.x * DW_RP, half = w / 2;
    const int *in = src + blockIdx.z * plane + (size_t)y * stride;
    int *out = dst + blockIdx.z * plane + (size_t)y * stride;

    if (y < h) {
        int g0 = 2 * p0 - 2;
        dw_stage(&xs[ty][tx], in, 1, g0 + tx, w);
        dw_stage(&xs[ty][tx + DW_RP], in, 1, g0 + tx + DW_RP, w);
        if (tx < 3)
            dw_stage(&xs[ty][tx + 2 * DW_RP], in, 1, g0 + tx + 2 * DW_RP, w);
    }
    __syncthreads();
    /* predict: pair j = p0 - 1 + k uses samples 2j .. 2j+2 = xs[2k .. 2k+2] */
    if (y < h) {
        dw_predict(&ds[ty][tx], &xs[ty][2 * tx], 1, p0 - 1 + tx, half);
        if (tx == 0)
            dw_predict(&ds[ty][DW_RP], &xs[ty][2 * DW_RP], 1, p0 - 1 + DW_RP, half);
    }
    __syncthreads();
    int j = p0 + tx;
    if (y < h && j < half) {
        int d = ds[ty][tx + 1];
        int s = xs[ty][2 * tx + 2] + ((ds[ty][tx] + d + 2) >> 2);
        out[j] = s;
        out[half + j] = d;
    }
}

/* Columns of the w x h region of `src` into `dst`: column x becomes
 * s_0..s_{h/2-1} above d_0..d_{h/2-1}, the same lifting as the rows. */
__global__ void fdwt53_cols(const int *src, int *dst, int w, int h, int stride, size_t plane)
{
    __shared__ int xs[2 * DW_CP + 3][DW_CC]; /* rows 2 q0 - 2 .. 2 q0 + 2 DW_CP */
    __shared__ int ds[DW_CP + 1][DW_CC];     /* d_{q0-1} .. d_{q0+DW_CP-1} */
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * DW_CC + tx, q0 = blockIdx.y * DW_CP, half = h / 2;
    const int *in = src + blockIdx.z * plane + x;
    int *out = dst + blockIdx.z * plane + x;

    if (x < w) {
#pragma unroll
        for (int r = 0; r < (2 * DW_CP + 3 + DW_CT - 1) / DW_CT; r++) {
            int k = ty + r * DW_CT;
            if (k < 2 * DW_CP + 3)
                dw_stage(&xs[k][tx], in, stride, 2 * q0 - 2 + k, h);
        }
    }
    __syncthreads();
    if (x < w) {
#pragma unroll
        for (int r = 0; r < (DW_CP + 1 + DW_CT - 1) / DW_CT; r++) {
            int k = ty + r * DW_CT;
            if (k < DW_CP + 1)
                dw_predict(&ds[k][tx], &xs[2 * k][tx], DW_CC, q0 - 1 + k, half);
        }
    }
    __syncthreads();
    if (x < w) {
#pragma unroll
        for (int r = 0; r < DW_CP / DW_CT; r++) {
            int k = ty + r * DW_CT, j = q0 + k;
            if (j < half) {
                int d = ds[k + 1][tx];
                int s = xs[2 * k + 2][tx] + ((ds[k][tx] + d + 2) >> 2);
                out[(size_t)j * stride] = s;
                out[(size_t)(half + j) * stride] = d;
            }
        }
    }
}

/* ---- host ------------------------------------------------------------- */
#ifndef MX_CUDA_CLANG

/* Plain C reference: one 5/3 lifting of n samples x[0], x[step], ... into
 * low half then high half of y (same step); tmp holds n/2 ints. */
static void dwt53_line(const int *x, int *y, int n, size_t step, int *d)
{
    int half = n / 2;
#define X(k) x[(size_t)((k) < 0 ? -(k) : (k) >= n ? 2 * (n - 1) - (k) : (k)) * step]
    for (int j = 0; j < half; j++)
        d[j] = X(2 * j + 1) - ((X(2 * j) + X(2 * j + 2)) >> 1);
    for (int j = 0; j < half; j++) {
        int dl = j > 0 ? d[j - 1] : d[0]; /* d_{-1} = d_0 by symmetry */
        y[(size_t)j * step] = X(2 * j) + ((dl + d[j] + 2) >> 2);
        y[(size_t)(half + j) * step] = d[j];
    }
#undef X
}

int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "dwt2d", argc, argv);
    /* Square RGB images: Rodinia's 192x192 with 3 levels; Rodinia's
     * 1024x1024 with 3 levels (2 x 12 MiB); 4096x4096 with 4 levels. */
    static const int cfg[4][2] = {{192, 3}, {1024, 3}, {4096, 4}, {704, 3}};
    const int W = cfg[w.size][0], H = W, levels = cfg[w.size][1], C = 3;
    size_t plane = (size_t)W * H, n = plane * C, bytes = n * sizeof(int);

    int *img = (int *)malloc(bytes), *ref = (int *)malloc(bytes), *tmp = (int *)malloc(bytes);
    int *got = (int *)malloc(bytes), *d = (int *)malloc(sizeof(int) * (W > H ? W : H));
    if (!img || !ref || !tmp || !got || !d)
        mxw_fail(&w, "out of host memory");
    /* A smooth picture (gradients and a bright disc) plus noise, level-shifted
     * to -128..127 as JPEG 2000 does with 8-bit samples. */
    for (int c = 0; c < C; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int dx = x - W / 2, dy = y - H / 3;
                int v = (x * (c + 1) * 97 / W + y * (3 - c) * 61 / H) & 255;
                if ((long)dx * dx + (long)dy * dy < (long)W * W / 16)
                    v = 230 - 40 * c;
                v += (int)mxw_randu(&w, 17) - 8;
                v = v < 0 ? 0 : v > 255 ? 255 : v;
                img[c * plane + (size_t)y * W + x] = v - 128;
            }

    int *d_a, *d_b;
    MXW_CUDA(&w, cudaMalloc((void **)&d_a, bytes));
    MXW_CUDA(&w, cudaMalloc((void **)&d_b, bytes));
    MXW_CUDA(&w, cudaMemcpy(d_a, img, bytes, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemset(d_b, 0, bytes));
    for (int l = 0; l < levels; l++) {
        int lw = W >> l, lh = H >> l;
        dim3 rb(DW_RP, DW_RR), rg((lw / 2 + DW_RP - 1) / DW_RP, (lh + DW_RR - 1) / DW_RR, C);
        fdwt53_rows<<<rg, rb>>>(d_a, d_b, lw, lh, W, plane);
        MXW_LAUNCHED(&w);
        dim3 cb(DW_CC, DW_CT), cg((lw + DW_CC - 1) / DW_CC, (lh / 2 + DW_CP - 1) / DW_CP, C);
        fdwt53_cols<<<cg, cb>>>(d_b, d_a, lw, lh, W, plane);
        MXW_LAUNCHED(&w);
    }
    MXW_CUDA(&w, cudaMemcpy(got, d_a, bytes, cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaFree(d_a));
    MXW_CUDA(&w, cudaFree(d_b));

    memcpy(ref, img, bytes);
    for (int c = 0; c < C; c++) {
        int *a = ref + c * plane, *b = tmp + c * plane;
        for (int l = 0; l < levels; l++) {
            int lw = W >> l, lh = H >> l;
            for (int y = 0; y < lh; y++)
                dwt53_line(a + (size_t)y * W, b + (size_t)y * W, lw, 1, d);
            for (int x = 0; x < lw; x++)
                dwt53_line(b + x, a + x, lh, W, d);
        }
    }
    if (!w.quiet)
        printf("dwt2d: %dx%d x %d planes, %d levels of 5/3, LL[0] = %d\n", W, H, C, levels, got[0]);
    mxw_check_exact(&w, "coefficients", got, ref, n, sizeof(int));
    free(img);
    free(ref);
    free(tmp);
    free(got);
    free(d);
    mxw_pass(&w);
    return 0;
}
#endif /* !MX_CUDA_CLANG */

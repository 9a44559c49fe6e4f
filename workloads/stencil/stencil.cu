/* workloads/stencil/stencil.cu — 7-point 3D Jacobi stencil in the style of
 * Parboil's stencil: next = c1 * (sum of the six face neighbours) - c0 *
 * centre on the interior of an nx * ny * nz grid, boundary cells fixed, run
 * for several iterations with two grids swapped by the host (ping-pong).
 * Each 32 x 4 thread block owns an x-y tile and a run of ST_TZ interior z
 * planes (blockIdx.z), marching along z and keeping the cells below, at and
 * above the current plane in registers and sharing the current plane (with
 * a one-cell halo) through shared memory.  The z runs give the grid enough
 * blocks to fill every SM several times over at any SM count (a block that
 * marched all of z took 38 dependent plane loads, and 512 of them left
 * 34 SMs a second wave too thin to keep DRAM busy).  Every float
 * operation is written out (fmaf where a product meets a sum), so the
 * result is checked bit for bit against the plain C reference.
 * Written from the algorithm's description (no code from Parboil). */
#ifndef MX_CUDA_CLANG /* clang's device-only PTX build (mx_cuda_clang.h) sees the kernels only */
#include "mx_workload.h"
#endif

#define ST_TX 32 /* block width (x); nx must be a multiple */
#define ST_TY 4  /* block height (y); ny must be a multiple */
#define ST_TZ 8  /* interior z planes per block (the last run may be shorter) */

/* One Jacobi sweep: out = c1 * (w + e + s + n + b + t) - c0 * centre on
 * the interior; out's boundary cells are left as they are (both grids are
 * initialised with the same boundary).  Grid index x + nx * (y + ny * z). */
__global__ void stencil7(const float *in, float *out, int nx, int ny, int nz, float c0, float c1)
{
    __shared__ float plane[ST_TY + 2][ST_TX + 2]; /* current z plane of the tile, with halo */
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * ST_TX + tx, y = blockIdx.y * ST_TY + ty;
    size_t nxy = (size_t)nx * ny;
    size_t at = (size_t)y * nx + x; /* index in plane 0 */
    bool interior = x > 0 && x < nx - 1 && y > 0 && y < ny - 1;

    int z0 = 1 + blockIdx.z * ST_TZ, z1 = z0 + ST_TZ < nz - 1 ? z0 + ST_TZ : nz - 1;
    float below = in[at + (size_t)(z0 - 1) * nxy], cur = in[at + (size_t)z0 * nxy];
    for (int z = z0; z < z1; z++) {
        size_t c = at + (size_t)z * nxy;
        float above = in[c + nxy];
        __syncthreads(); /* everyone is done with the previous plane */
        plane[ty + 1][tx + 1] = cur;
        if (tx == 0 && x > 0)
            plane[ty + 1][0] = in[c - 1];
        if (tx == ST_TX - 1 && x < nx - 1)
            plane[ty + 1][ST_TX + 1] = in[c + 1];
        if (ty == 0 && y > 0)
            plane[0][tx + 1] = in[c - nx];
        if (ty == ST_TY - 1 && y < ny - 1)
            plane[ST_TY + 1][tx + 1] = in[c + nx];
        __syncthreads();
        if (interior) {
            float sum = plane[ty + 1][tx] + plane[ty + 1][tx + 2];
            sum = sum + plane[ty][tx + 1];
            sum = sum + plane[ty + 2][tx + 1];
            sum = sum + below;
            sum = sum + above;
            out[c] = fmaf(c1, sum, -(c0 * cur));
        }
        below = cur;
        cur = above;
    }
}

/* ---- host ------------------------------------------------------------- */
#ifndef MX_CUDA_CLANG

/* Plain C reference sweep, the same operations in the same order. */
static void stencil_reference(const float *in, float *out, int nx, int ny, int nz, float c0, float c1)
{
    size_t nxy = (size_t)nx * ny;
    for (int z = 1; z < nz - 1; z++)
        for (int y = 1; y < ny - 1; y++)
            for (int x = 1; x < nx - 1; x++) {
                size_t c = (size_t)z * nxy + (size_t)y * nx + x;
                float sum = in[c - 1] + in[c + 1];
                sum = sum + in[c - nx];
                sum = sum + in[c + nx];
                sum = sum + in[c - nxy];
                sum = sum + in[c + nxy];
                out[c] = fmaf(c1, sum, -(c0 * in[c]));
            }
}

int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "stencil", argc, argv);
    /* small: 64x64x32, 4 sweeps; medium: 256x256x40 (2 x 10 MiB), 4 sweeps;
     * large: Parboil's default grid 512x512x64 (2 x 64 MiB), 20 sweeps. */
    static const int dims[4][4] = {{64, 64, 32, 4}, {256, 256, 40, 4}, {512, 512, 64, 20}, {256, 256, 20, 4}};
    const int nx = dims[w.size][0], ny = dims[w.size][1], nz = dims[w.size][2], iters = dims[w.size][3];
    const float c0 = 1.0f / 6.0f, c1 = 1.0f / 6.0f / 6.0f;
    size_t n = (size_t)nx * ny * nz, bytes = n * sizeof(float);

    float *h0 = (float *)malloc(bytes), *h1 = (float *)malloc(bytes), *got = (float *)malloc(bytes);
    if (!h0 || !h1 || !got)
        mxw_fail(&w, "out of host memory");
    for (size_t i = 0; i < n; i++)
        h0[i] = mxw_randf(&w);
    memcpy(h1, h0, bytes);

    float *d0, *d1;
    MXW_CUDA(&w, cudaMalloc((void **)&d0, bytes));
    MXW_CUDA(&w, cudaMalloc((void **)&d1, bytes));
    MXW_CUDA(&w, cudaMemcpy(d0, h0, bytes, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d1, h0, bytes, cudaMemcpyHostToDevice));
    dim3 block(ST_TX, ST_TY), grid(nx / ST_TX, ny / ST_TY, (nz - 2 + ST_TZ - 1) / ST_TZ);
    for (int it = 0; it < iters; it++) {
        stencil7<<<grid, block>>>(d0, d1, nx, ny, nz, c0, c1);
        MXW_LAUNCHED(&w);
        float *t = d0;
        d0 = d1;
        d1 = t;
    }
    MXW_CUDA(&w, cudaMemcpy(got, d0, bytes, cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaFree(d0));
    MXW_CUDA(&w, cudaFree(d1));

    for (int it = 0; it < iters; it++) {
        stencil_reference(h0, h1, nx, ny, nz, c0, c1);
        float *t = h0;
        h0 = h1;
        h1 = t;
    }
    if (!w.quiet)
        printf("stencil: %dx%dx%d grid, %d sweeps, centre value %.6f\n", nx, ny, nz, iters,
               got[n / 2 + (size_t)nx * ny / 2 + nx / 2]);
    mxw_check_exact(&w, "grid", got, h0, n, sizeof(float));
    free(h0);
    free(h1);
    free(got);
    mxw_pass(&w);
    return 0;
}
#endif /* !MX_CUDA_CLANG */

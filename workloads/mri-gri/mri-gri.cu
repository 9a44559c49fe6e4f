// workloads/mri-gri/mri-gri.cu — Parboil-style MRI gridding: non-uniform
// k-space samples (radial spokes, dense near the centre) are interpolated
// onto a G^3 Cartesian grid through a Kaiser-Bessel window of radius 2
// cells, weighted by each sample's density compensation; the grid of complex
// values and a grid of summed weights (sample density) come out.
//   1. mg_bin gives every sample the index of its 2x2x2-cell bin;
//   2. the host sorts the samples by bin (stable counting sort) and builds
//      the bin start table, as the original's binning step does;
//   3. mg_gather: a block owns an 8x8x4-cell tile, each thread a column of 4
//      cells; the block walks the bins around its tile row by row, stages
//      each run of samples in shared memory, and every thread accumulates the
//      samples within the cutoff into its cells (window values from a
//      lookup table in global memory, linearly interpolated in r^2).
// Each cell's sum runs over its samples in sorted order, which the host
// reproduces with the same float operations: the grids match bit for bit.
//
//   nvcc -arch=compute_80 -cudart shared -O2 -I workloads/common workloads/mri-gri/mri-gri.cu
#ifndef MX_CUDA_CLANG
#include "mx_workload.h"
#endif

#define MG_BIN 2          // bin edge in cells; must be >= the cutoff radius
#define MG_R2 4.0f        // cutoff radius squared (radius 2 cells: window width 4)
#define MG_LUT 256        // lookup-table intervals over r^2 in [0, MG_R2]
#define MG_LUT_SCALE 64.0f // MG_LUT / MG_R2
#define MG_TX 8           // tile: 8 x 8 x 4 cells, block 8 x 8 threads,
#define MG_TY 8           //       each thread MG_TZ cells along z
#define MG_TZ 4
#define MG_NT (MG_TX * MG_TY)

/* bin[i] = (bz * nb + by) * nb + bx with b = floor(coordinate / 2), clamped to the grid. */
extern "C" __global__ void mg_bin(const float4 *pos, int *bin, int n, int nb)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float4 p = pos[i];
    const int bx = min((int)(p.x * 0.5f), nb - 1);
    const int by = min((int)(p.y * 0.5f), nb - 1);
    const int bz = min((int)(p.z * 0.5f), nb - 1);
    bin[i] = (bz * nb + by) * nb + bx;
}

/* Gathers the bin-sorted samples (pos = x, y, z, density compensation;
 * val = re, im) onto the grid: grid[(z*G + y)*G + x] = sum of w * val and
 * density[...] = sum of w over the samples with |s - cell|^2 < MG_R2, where
 * w = sdc * window(|s - cell|^2).  binstart has nb^3 + 1 entries.
 * Launch: grid (G/8, G/8, G/4), block (8, 8). */
extern "C" __global__ void __launch_bounds__(MG_NT)
mg_gather(const float4 *pos, const float2 *val, const int *binstart, const float *lut, float2 *grid,
          float *density, int G, int nb)
{
    __shared__ float4 sp[MG_NT];
    __shared__ float2 sv[MG_NT];
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * MG_TX + tx;
    const int x = blockIdx.x * MG_TX + tx, y = blockIdx.y * MG_TY + ty, z0 = blockIdx.z * MG_TZ;
    const float cx = (float)x, cy = (float)y;
    float re[MG_TZ], im[MG_TZ], dn[MG_TZ];
#pragma unroll
    for (int j = 0; j < MG_TZ; j++)
        re[j] = im[j] = dn[j] = 0.0f;

    /* bins around the tile, clamped to the grid */
    const int bx = (int)blockIdx.x * (MG_TX / MG_BIN), by = (int)blockIdx.y * (MG_TY / MG_BIN);
    const int bz = (int)blockIdx.z * (MG_TZ / MG_BIN);
    const int xlo = max(bx - 1, 0), xhi = min(bx + MG_TX / MG_BIN, nb - 1);
    const int ylo = max(by - 1, 0), yhi = min(by + MG_TY / MG_BIN, nb - 1);
    const int zlo = max(bz - 1, 0), zhi = min(bz + MG_TZ / MG_BIN, nb - 1);
    for (int zb = zlo; zb <= zhi; zb++)
        for (int yb = ylo; yb <= yhi; yb++) {
            const int row = (zb * nb + yb) * nb;
            const int s0 = binstart[row + xlo], s1 = binstart[row + xhi + 1];
            for (int c = s0; c < s1; c += MG_NT) {
                const int n = min(MG_NT, s1 - c);
                if (t < n) {
                    sp[t] = pos[c + t];
                    sv[t] = val[c + t];
                }
                __syncthreads();
                for (int k = 0; k < n; k++) {
                    const float4 p = sp[k];
                    const float dx = p.x - cx, dy = p.y - cy;
                    const float dxy = fmaf(dy, dy, __fmul_rn(dx, dx));
                    if (dxy < MG_R2) {
                        const float2 v = sv[k];
#pragma unroll
                        for (int j = 0; j < MG_TZ; j++) {
                            const float dz = p.z - (float)(z0 + j);
                            const float d2 = fmaf(dz, dz, dxy);
                            if (d2 < MG_R2) {
                                const float u = __fmul_rn(d2, MG_LUT_SCALE);
                                const int i = (int)u;
                                const float f = u - (float)i;
                                const float kb = fmaf(f, lut[i + 1] - lut[i], lut[i]);
                                const float wgt = __fmul_rn(kb, p.w);
                                re[j] = fmaf(wgt, v.x, re[j]);
                                im[j] = fmaf(wgt, v.y, im[j]);
                                dn[j] = dn[j] + wgt;
                            }
                        }
                    }
                }
                __syncthreads();
            }
        }
#pragma unroll
    for (int j = 0; j < MG_TZ; j++) {
        const size_t idx = ((size_t)(z0 + j) * G + y) * G + x;
        grid[idx] = make_float2(re[j], im[j]);
        density[idx] = dn[j];
    }
}

#ifndef MX_CUDA_CLANG
/* Modified Bessel function I0 by its power series. */
static double mg_bessel_i0(double x)
{
    double term = 1.0, sum = 1.0;
    for (int k = 1; k < 50; k++) {
        term *= (x / (2.0 * k)) * (x / (2.0 * k));
        sum += term;
        if (term < 1e-17 * sum)
            break;
    }
    return sum;
}

/* The gather for one cell in plain C: the 3x3x3 bins around the cell's own
 * bin, rows in (z, y) order, samples in sorted order — the order in which
 * mg_gather meets the samples that pass the cutoff. */
static void mg_gather_host(const float4 *pos, const float2 *val, const int *binstart, const float *lut, int G, int nb,
                           int x, int y, int z, float2 *out, float *dens)
{
    const float cx = (float)x, cy = (float)y, cz = (float)z;
    float re = 0.0f, im = 0.0f, dn = 0.0f;
    const int bx = x / MG_BIN, by = y / MG_BIN, bz = z / MG_BIN;
    const int xlo = bx > 0 ? bx - 1 : 0, xhi = bx < nb - 1 ? bx + 1 : nb - 1;
    for (int zb = bz > 0 ? bz - 1 : 0; zb <= bz + 1 && zb < nb; zb++)
        for (int yb = by > 0 ? by - 1 : 0; yb <= by + 1 && yb < nb; yb++) {
            const int row = (zb * nb + yb) * nb;
            for (int s = binstart[row + xlo]; s < binstart[row + xhi + 1]; s++) {
                const float4 p = pos[s];
                const float dx = p.x - cx, dy = p.y - cy, dz = p.z - cz;
                const float dxy = fmaf(dy, dy, dx * dx);
                if (!(dxy < MG_R2))
                    continue;
                const float d2 = fmaf(dz, dz, dxy);
                if (!(d2 < MG_R2))
                    continue;
                const float u = d2 * MG_LUT_SCALE;
                const int i = (int)u;
                const float f = u - (float)i;
                const float kb = fmaf(f, lut[i + 1] - lut[i], lut[i]);
                const float wgt = kb * p.w;
                re = fmaf(wgt, val[s].x, re);
                im = fmaf(wgt, val[s].y, im);
                dn = dn + wgt;
            }
        }
    (void)G;
    out->x = re;
    out->y = im;
    *dens = dn;
}

int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "mri-gri", argc, argv);
    /* grid edge G and samples: small 32^3 cells, 4096 samples; medium 120^3
     * cells (19.8 MiB of output grids) and 65536 samples (1.5 MiB); large
     * 128^3 cells (25 MiB) and 524288 samples (12 MiB). */
    static const int sizes[4][2] = {{32, 4096}, {120, 65536}, {128, 524288}, {96, 65536}};
    const int G = sizes[w.size][0], ns = sizes[w.size][1], nb = G / MG_BIN, P = 64;
    const size_t ncell = (size_t)G * G * G;
    const int nbins = nb * nb * nb;

    float4 *pos = (float4 *)malloc(ns * sizeof(float4)), *spos = (float4 *)malloc(ns * sizeof(float4));
    float2 *val = (float2 *)malloc(ns * sizeof(float2)), *sval = (float2 *)malloc(ns * sizeof(float2));
    int *bin = (int *)malloc(ns * sizeof(int)), *binr = (int *)calloc(ns, sizeof(int));
    int *binstart = (int *)calloc(nbins + 1, sizeof(int)), *fill = (int *)malloc(nbins * sizeof(int));
    float2 *grid = (float2 *)malloc(ncell * sizeof(float2)), *gridr = (float2 *)malloc(ncell * sizeof(float2));
    float *dens = (float *)malloc(ncell * sizeof(float)), *densr = (float *)malloc(ncell * sizeof(float));
    float lut[MG_LUT + 1];
    if (!pos || !spos || !val || !sval || !bin || !binr || !binstart || !fill || !grid || !gridr || !dens || !densr)
        mxw_fail(&w, "out of host memory");

    /* Samples along radial spokes through the centre of k-space, P per
     * spoke; density compensation grows with r^2. */
    const double rmax = G / 2.0 - 0.5;
    for (int s0 = 0; s0 < ns; s0 += P) {
        const double u = 2.0 * mxw_randf(&w) - 1.0, phi = 6.283185307179586 * mxw_randf(&w);
        const double dx = sqrt(1.0 - u * u) * cos(phi), dy = sqrt(1.0 - u * u) * sin(phi), dz = u;
        for (int t = 0; t < P && s0 + t < ns; t++) {
            const double r = ((t + 0.5) / P * 2.0 - 1.0) * rmax;
            double c[3] = {G / 2.0 + r * dx, G / 2.0 + r * dy, G / 2.0 + r * dz};
            for (int a = 0; a < 3; a++)
                c[a] = c[a] < 0.0 ? 0.0 : c[a] > G - 0.001 ? G - 0.001 : c[a];
            const float sdc = (float)((r / rmax) * (r / rmax) + 1.0 / P);
            pos[s0 + t] = make_float4((float)c[0], (float)c[1], (float)c[2], sdc);
            val[s0 + t] = make_float2(2.0f * mxw_randf(&w) - 1.0f, 2.0f * mxw_randf(&w) - 1.0f);
        }
    }
    /* Kaiser-Bessel window over r^2 in [0, MG_R2], width 4 cells, for 2x
     * oversampling (beta from Beatty et al.). */
    const double width = 4.0, os = 2.0;
    const double beta = 3.141592653589793 * sqrt((width / os) * (width / os) * (os - 0.5) * (os - 0.5) - 0.8);
    for (int i = 0; i <= MG_LUT; i++) {
        const double r2 = (double)i / MG_LUT * MG_R2, q = 1.0 - r2 / MG_R2;
        lut[i] = (float)(mg_bessel_i0(beta * sqrt(q > 0.0 ? q : 0.0)) / mg_bessel_i0(beta));
    }

    float4 *d_pos;
    float2 *d_val, *d_grid;
    int *d_bin, *d_binstart;
    float *d_lut, *d_dens;
    MXW_CUDA(&w, cudaMalloc((void **)&d_pos, ns * sizeof(float4)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_val, ns * sizeof(float2)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_bin, ns * sizeof(int)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_binstart, (nbins + 1) * sizeof(int)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_lut, sizeof lut));
    MXW_CUDA(&w, cudaMalloc((void **)&d_grid, ncell * sizeof(float2)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_dens, ncell * sizeof(float)));

    /* 1. bin indices on the device */
    MXW_CUDA(&w, cudaMemcpy(d_pos, pos, ns * sizeof(float4), cudaMemcpyHostToDevice));
    mg_bin<<<(ns + 255) / 256, 256>>>(d_pos, d_bin, ns, nb);
    MXW_LAUNCHED(&w);
    MXW_CUDA(&w, cudaMemcpy(bin, d_bin, ns * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < ns; i++) {
        int b[3];
        const float c[3] = {pos[i].x, pos[i].y, pos[i].z};
        for (int a = 0; a < 3; a++) {
            b[a] = (int)(c[a] * 0.5f);
            b[a] = b[a] < nb - 1 ? b[a] : nb - 1;
        }
        binr[i] = (b[2] * nb + b[1]) * nb + b[0];
    }
    mxw_check_exact(&w, "bin", bin, binr, ns, sizeof(int));

    /* 2. stable counting sort by bin on the host */
    for (int i = 0; i < ns; i++)
        binstart[bin[i] + 1]++;
    for (int b = 0; b < nbins; b++)
        binstart[b + 1] += binstart[b];
    memcpy(fill, binstart, nbins * sizeof(int));
    for (int i = 0; i < ns; i++) {
        const int d = fill[bin[i]]++;
        spos[d] = pos[i];
        sval[d] = val[i];
    }

    /* 3. gather on the device */
    MXW_CUDA(&w, cudaMemcpy(d_pos, spos, ns * sizeof(float4), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_val, sval, ns * sizeof(float2), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_binstart, binstart, (nbins + 1) * sizeof(int), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_lut, lut, sizeof lut, cudaMemcpyHostToDevice));
    const dim3 gblk(MG_TX, MG_TY), ggrid(G / MG_TX, G / MG_TY, G / MG_TZ);
    mg_gather<<<ggrid, gblk>>>(d_pos, d_val, d_binstart, d_lut, d_grid, d_dens, G, nb);
    MXW_LAUNCHED(&w);
    MXW_CUDA(&w, cudaMemcpy(grid, d_grid, ncell * sizeof(float2), cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaMemcpy(dens, d_dens, ncell * sizeof(float), cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaFree(d_pos));
    MXW_CUDA(&w, cudaFree(d_val));
    MXW_CUDA(&w, cudaFree(d_bin));
    MXW_CUDA(&w, cudaFree(d_binstart));
    MXW_CUDA(&w, cudaFree(d_lut));
    MXW_CUDA(&w, cudaFree(d_grid));
    MXW_CUDA(&w, cudaFree(d_dens));

    int maxbin = 0;
    for (int b = 0; b < nbins; b++)
        maxbin = binstart[b + 1] - binstart[b] > maxbin ? binstart[b + 1] - binstart[b] : maxbin;
    for (int z = 0; z < G; z++)
        for (int y = 0; y < G; y++)
            for (int x = 0; x < G; x++) {
                const size_t idx = ((size_t)z * G + y) * G + x;
                mg_gather_host(spos, sval, binstart, lut, G, nb, x, y, z, &gridr[idx], &densr[idx]);
            }
    mxw_check_exact(&w, "grid", grid, gridr, ncell, sizeof(float2));
    mxw_check_exact(&w, "density", dens, densr, ncell, sizeof(float));
    if (!w.quiet) {
        const size_t c = ((size_t)(G / 2) * G + G / 2) * G + G / 2;
        printf("mri-gri: %d samples onto %d^3 cells, %d bins (fullest %d), centre cell (%.6g, %.6g) weight %.6g\n", ns,
               G, nbins, maxbin, grid[c].x, grid[c].y, dens[c]);
    }
    free(pos);
    free(spos);
    free(val);
    free(sval);
    free(bin);
    free(binr);
    free(binstart);
    free(fill);
    free(grid);
    free(gridr);
    free(dens);
    free(densr);
    mxw_pass(&w);
    return 0;
}
#endif

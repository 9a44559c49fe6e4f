/* workloads/lbm/lbm.cu — lattice Boltzmann fluid in the style of Parboil's
 * lbm: D3Q19 lattice, single-relaxation-time (BGK) collision, bounce-back on
 * obstacle cells, one fused stream-collide kernel per time step with two
 * grids swapped by the host.  Layout is structure of arrays: direction i of
 * every cell is contiguous, with a margin of one plane plus one row plus one
 * cell before and after the cells so that pushes from edge cells stay in
 * the array.  A thread (one per cell; a block is one x row) loads the 19
 * values of its cell, collides them (or reflects them on an obstacle) and
 * pushes the 19 results to the neighbour each one moves to.  The arithmetic
 * is spelled out (fmaf where a product meets a sum); the host reference is
 * an independent table-driven loop that performs the same float operations,
 * so the grids are compared bit for bit.
 * Written from the method's description (no code from Parboil). */
#ifndef MX_CUDA_CLANG /* clang's device-only PTX build (mx_cuda_clang.h) sees the kernels only */
#include "mx_workload.h"
#endif

#define LBM_Q 19
#define LBM_OBSTACLE 1 /* flag of a solid cell */

/* Directions: 0 rest; 1..6 E W N S T B (+x -x +y -y +z -z); 7..10 NE NW SE SW
 * (x-y plane); 11..14 TE TW BE BW (x-z); 15..18 TN TS BN BS (y-z).  Weights
 * 1/3, 1/18 (axes) and 1/36 (diagonals). */

/* BGK relaxation of one population towards equilibrium:
 * feq = wr (1 - 1.5 u.u + 3 cu + 4.5 cu^2) with base = 1 - 1.5 u.u,
 * result f + omega (feq - f), feq - f fused into one fmaf. */
static __device__ __forceinline__ float lbm_relax(float f, float cu, float wr, float base, float omega)
{
    float eq = fmaf(cu, fmaf(4.5f, cu, 3.0f), base);
    return fmaf(omega, fmaf(wr, eq, -f), f);
}

/* One stream-collide step src -> dst.  Cell (x, y, z) is element
 * margin + x + nx (y + ny z) of each direction's array of `total` floats. */
__global__ void lbm_stream_collide(const float *src, float *dst, const unsigned char *flags, int nx, int ny,
                                   int nz, size_t total, int margin, float omega)
{
    int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
    int nxy = nx * ny;
    size_t cell = (size_t)x + (size_t)nx * ((size_t)y + (size_t)ny * z);
    size_t p = margin + cell;
    (void)nz;

    float f0 = src[p], f1 = src[total + p], f2 = src[2 * total + p], f3 = src[3 * total + p];
    float f4 = src[4 * total + p], f5 = src[5 * total + p], f6 = src[6 * total + p];
    float f7 = src[7 * total + p], f8 = src[8 * total + p], f9 = src[9 * total + p];
    float f10 = src[10 * total + p], f11 = src[11 * total + p], f12 = src[12 * total + p];
    float f13 = src[13 * total + p], f14 = src[14 * total + p], f15 = src[15 * total + p];
    float f16 = src[16 * total + p], f17 = src[17 * total + p], f18 = src[18 * total + p];

    float o0, o1, o2, o3, o4, o5, o6, o7, o8, o9, o10, o11, o12, o13, o14, o15, o16, o17, o18;
    if (flags[cell] == LBM_OBSTACLE) {
        /* bounce back: what arrived moving in direction i leaves in the opposite one */
        o0 = f0;
        o1 = f2, o2 = f1, o3 = f4, o4 = f3, o5 = f6, o6 = f5;
        o7 = f10, o10 = f7, o8 = f9, o9 = f8;
        o11 = f14, o14 = f11, o12 = f13, o13 = f12;
        o15 = f18, o18 = f15, o16 = f17, o17 = f16;
    } else {
        float rho = f0 + f1;
        rho = rho + f2, rho = rho + f3, rho = rho + f4, rho = rho + f5, rho = rho + f6;
        rho = rho + f7, rho = rho + f8, rho = rho + f9, rho = rho + f10, rho = rho + f11, rho = rho + f12;
        rho = rho + f13, rho = rho + f14, rho = rho + f15, rho = rho + f16, rho = rho + f17, rho = rho + f18;
        float jx = f1 - f2;
        jx = jx + f7, jx = jx - f8, jx = jx + f9, jx = jx - f10;
        jx = jx + f11, jx = jx - f12, jx = jx + f13, jx = jx - f14;
        float jy = f3 - f4;
        jy = jy + f7, jy = jy + f8, jy = jy - f9, jy = jy - f10;
        jy = jy + f15, jy = jy - f16, jy = jy + f17, jy = jy - f18;
        float jz = f5 - f6;
        jz = jz + f11, jz = jz + f12, jz = jz - f13, jz = jz - f14;
        jz = jz + f15, jz = jz + f16, jz = jz - f17, jz = jz - f18;
        float ux = jx / rho, uy = jy / rho, uz = jz / rho;
        float usq = fmaf(ux, ux, fmaf(uy, uy, uz * uz));
        float base = fmaf(-1.5f, usq, 1.0f);
        float w0 = rho * (1.0f / 3.0f), w1 = rho * (1.0f / 18.0f), w2 = rho * (1.0f / 36.0f);
        o0 = lbm_relax(f0, 0.0f, w0, base, omega);
        o1 = lbm_relax(f1, ux, w1, base, omega);
        o2 = lbm_relax(f2, -ux, w1, base, omega);
        o3 = lbm_relax(f3, uy, w1, base, omega);
        o4 = lbm_relax(f4, -uy, w1, base, omega);
        o5 = lbm_relax(f5, uz, w1, base, omega);
        o6 = lbm_relax(f6, -uz, w1, base, omega);
        o7 = lbm_relax(f7, ux + uy, w2, base, omega);
        o8 = lbm_relax(f8, uy - ux, w2, base, omega);
        o9 = lbm_relax(f9, ux - uy, w2, base, omega);
        o10 = lbm_relax(f10, -ux - uy, w2, base, omega);
        o11 = lbm_relax(f11, ux + uz, w2, base, omega);
        o12 = lbm_relax(f12, uz - ux, w2, base, omega);
        o13 = lbm_relax(f13, ux - uz, w2, base, omega);
        o14 = lbm_relax(f14, -ux - uz, w2, base, omega);
        o15 = lbm_relax(f15, uy + uz, w2, base, omega);
        o16 = lbm_relax(f16, uz - uy, w2, base, omega);
        o17 = lbm_relax(f17, uy - uz, w2, base, omega);
        o18 = lbm_relax(f18, -uy - uz, w2, base, omega);
    }

    /* stream: population i moves to the neighbour at offset c_i */
    dst[p] = o0;
    dst[total + p + 1] = o1;
    dst[2 * total + p - 1] = o2;
    dst[3 * total + p + nx] = o3;
    dst[4 * total + p - nx] = o4;
    dst[5 * total + p + nxy] = o5;
    dst[6 * total + p - nxy] = o6;
    dst[7 * total + p + nx + 1] = o7;
    dst[8 * total + p + nx - 1] = o8;
    dst[9 * total + p - nx + 1] = o9;
    dst[10 * total + p - nx - 1] = o10;
    dst[11 * total + p + nxy + 1] = o11;
    dst[12 * total + p + nxy - 1] = o12;
    dst[13 * total + p - nxy + 1] = o13;
    dst[14 * total + p - nxy - 1] = o14;
    dst[15 * total + p + nxy + nx] = o15;
    dst[16 * total + p + nxy - nx] = o16;
    dst[17 * total + p - nxy + nx] = o17;
    dst[18 * total + p - nxy - nx] = o18;
}

/* ---- host ------------------------------------------------------------- */
#ifndef MX_CUDA_CLANG

static const int lbm_c[LBM_Q][3] = {
    {0, 0, 0},  {1, 0, 0},  {-1, 0, 0}, {0, 1, 0},  {0, -1, 0}, {0, 0, 1},  {0, 0, -1},
    {1, 1, 0},  {-1, 1, 0}, {1, -1, 0}, {-1, -1, 0}, {1, 0, 1}, {-1, 0, 1}, {1, 0, -1},
    {-1, 0, -1}, {0, 1, 1}, {0, -1, 1}, {0, 1, -1}, {0, -1, -1},
};
static const int lbm_opp[LBM_Q] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};

/* Plain C reference step, table-driven: the same float operations as the
 * kernel (sums in direction order; c_i . u as the sum of the one or two
 * signed velocity components, which is what the kernel writes out). */
static void lbm_reference(const float *src, float *dst, const unsigned char *flags, int nx, int ny, int nz,
                          size_t total, int margin, float omega)
{
    const float wq[3] = {1.0f / 3.0f, 1.0f / 18.0f, 1.0f / 36.0f};
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                size_t cell = (size_t)x + (size_t)nx * ((size_t)y + (size_t)ny * z), p = margin + cell;
                float f[LBM_Q], o[LBM_Q];
                for (int i = 0; i < LBM_Q; i++)
                    f[i] = src[i * total + p];
                if (flags[cell] == LBM_OBSTACLE) {
                    for (int i = 0; i < LBM_Q; i++)
                        o[i] = f[lbm_opp[i]];
                } else {
                    float rho = f[0], j[3];
                    for (int i = 1; i < LBM_Q; i++)
                        rho = rho + f[i];
                    for (int d = 0; d < 3; d++) {
                        int first = 1;
                        j[d] = 0.0f;
                        for (int i = 1; i < LBM_Q; i++) {
                            if (!lbm_c[i][d])
                                continue;
                            float v = lbm_c[i][d] > 0 ? f[i] : -f[i];
                            j[d] = first ? v : j[d] + v;
                            first = 0;
                        }
                    }
                    float u[3] = {j[0] / rho, j[1] / rho, j[2] / rho};
                    float usq = fmaf(u[0], u[0], fmaf(u[1], u[1], u[2] * u[2]));
                    float base = fmaf(-1.5f, usq, 1.0f);
                    float wr[3] = {rho * wq[0], rho * wq[1], rho * wq[2]};
                    for (int i = 0; i < LBM_Q; i++) {
                        float cu = 0.0f;
                        int terms = 0;
                        for (int d = 0; d < 3; d++) {
                            if (!lbm_c[i][d])
                                continue;
                            float v = lbm_c[i][d] > 0 ? u[d] : -u[d];
                            cu = terms ? cu + v : v;
                            terms++;
                        }
                        float eq = fmaf(cu, fmaf(4.5f, cu, 3.0f), base);
                        float wi = wr[terms];
                        o[i] = fmaf(omega, fmaf(wi, eq, -f[i]), f[i]);
                    }
                }
                for (int i = 0; i < LBM_Q; i++)
                    dst[i * total + p + lbm_c[i][0] + (long)nx * lbm_c[i][1] + (long)nx * ny * lbm_c[i][2]] = o[i];
            }
}

int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "lbm", argc, argv);
    /* nx, ny, nz, time steps.  Parboil's inputs are 100x100x130 (short) and
     * 120x120x150 (long); medium is a 12-cell slab of the short input's
     * 100x100 cross-section (2 x 10 MiB of populations). */
    static const int cfg[4][4] = {{32, 32, 16, 4}, {100, 100, 12, 4}, {120, 120, 150, 20}, {100, 100, 6, 4}};
    const int nx = cfg[w.size][0], ny = cfg[w.size][1], nz = cfg[w.size][2], steps = cfg[w.size][3];
    const float omega = 1.95f;
    const int margin = nx * ny + nx + 1;
    size_t cells = (size_t)nx * ny * nz, total = cells + 2 * (size_t)margin;
    size_t bytes = total * LBM_Q * sizeof(float);

    float *g0 = (float *)malloc(bytes), *g1 = (float *)malloc(bytes), *got = (float *)malloc(bytes);
    unsigned char *flags = (unsigned char *)calloc(cells, 1);
    if (!g0 || !g1 || !got || !flags)
        mxw_fail(&w, "out of host memory");

    /* Obstacles: the walls of the box and random solid spheres of radius 2..3
     * filling about a tenth of the volume. */
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++)
                if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1)
                    flags[x + (size_t)nx * (y + (size_t)ny * z)] = LBM_OBSTACLE;
    int spheres = (int)(cells / 600) + 1;
    for (int s = 0; s < spheres; s++) {
        int cx = (int)mxw_randu(&w, nx), cy = (int)mxw_randu(&w, ny), cz = (int)mxw_randu(&w, nz);
        int r = 2 + (int)mxw_randu(&w, 2);
        for (int z = cz - r; z <= cz + r; z++)
            for (int y = cy - r; y <= cy + r; y++)
                for (int x = cx - r; x <= cx + r; x++)
                    if (x >= 0 && y >= 0 && z >= 0 && x < nx && y < ny && z < nz &&
                        (x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz) <= r * r)
                        flags[x + (size_t)nx * (y + (size_t)ny * z)] = LBM_OBSTACLE;
    }
    /* Fluid at rest with density 1 +- 1% and velocity components up to 0.02
     * (equilibrium populations computed in double); margins at rest. */
    static const double wq[3] = {1.0 / 3.0, 1.0 / 18.0, 1.0 / 36.0};
    for (size_t q = 0; q < total; q++) {
        int in = q >= (size_t)margin && q < (size_t)margin + cells;
        double rho = 1.0, u[3] = {0.0, 0.0, 0.0};
        if (in) {
            rho = 1.0 + 0.02 * (mxw_randf(&w) - 0.5);
            for (int d = 0; d < 3; d++)
                u[d] = 0.04 * (mxw_randf(&w) - 0.5);
        }
        for (int i = 0; i < LBM_Q; i++) {
            int terms = (lbm_c[i][0] != 0) + (lbm_c[i][1] != 0) + (lbm_c[i][2] != 0);
            double cu = lbm_c[i][0] * u[0] + lbm_c[i][1] * u[1] + lbm_c[i][2] * u[2];
            double usq = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
            g0[i * total + q] = (float)(wq[terms] * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq));
        }
    }
    memcpy(g1, g0, bytes);

    float *d0, *d1;
    unsigned char *d_flags;
    MXW_CUDA(&w, cudaMalloc((void **)&d0, bytes));
    MXW_CUDA(&w, cudaMalloc((void **)&d1, bytes));
    MXW_CUDA(&w, cudaMalloc((void **)&d_flags, cells));
    MXW_CUDA(&w, cudaMemcpy(d0, g0, bytes, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d1, g1, bytes, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_flags, flags, cells, cudaMemcpyHostToDevice));
    dim3 grid(ny, nz);
    for (int t = 0; t < steps; t++) {
        lbm_stream_collide<<<grid, nx>>>(d0, d1, d_flags, nx, ny, nz, total, margin, omega);
        MXW_LAUNCHED(&w);
        float *tmp = d0;
        d0 = d1;
        d1 = tmp;
    }
    MXW_CUDA(&w, cudaMemcpy(got, d0, bytes, cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaFree(d0));
    MXW_CUDA(&w, cudaFree(d1));
    MXW_CUDA(&w, cudaFree(d_flags));

    for (int t = 0; t < steps; t++) {
        lbm_reference(g0, g1, flags, nx, ny, nz, total, margin, omega);
        float *tmp = g0;
        g0 = g1;
        g1 = tmp;
    }
    double mass = 0.0;
    for (size_t c = 0; c < cells; c++)
        if (flags[c] != LBM_OBSTACLE)
            for (int i = 0; i < LBM_Q; i++)
                mass += g0[i * total + margin + c];
    if (!(mass > 0.0 && mass < 1e30))
        mxw_fail(&w, "the reference flow blew up (mass %g)", mass);
    if (!w.quiet)
        printf("lbm: %dx%dx%d D3Q19, %d steps, fluid mass %.6f\n", nx, ny, nz, steps, mass);
    mxw_check_exact(&w, "populations", got, g0, total * LBM_Q, sizeof(float));
    free(g0);
    free(g1);
    free(got);
    free(flags);
    mxw_pass(&w);
    return 0;
}
#endif /* !MX_CUDA_CLANG */

// workloads/lib/lib.cu — LIBOR market model Monte Carlo, in the manner of
// the ISPASS-2009 "LIB" benchmark: a portfolio of swaptions is priced by
// simulating paths of 80 forward rates over 40 quarterly time steps.  Each
// thread simulates several paths (grid-stride loop), one normal random
// number per path and time step, all rates in a per-thread local array.
// lib_value prices every path; lib_greeks prices it again and runs the
// pathwise adjoint backwards through the stored rate history (13 KiB of
// local memory per thread) to get the sensitivity of the path's value to
// every initial rate.  Model parameters live in constant memory.
//
// Compute-bound: ~2400 rate updates per path, each a division, an
// exponential and a few FMAs.  The exponential is our own (Cody-Waite range
// reduction, degree-7 polynomial, exact power-of-two scaling), built only
// from correctly rounded operations, so the host — running the very same
// __host__ __device__ path functions in plain C — reproduces every value and
// sensitivity bit for bit.
//
//   nvcc -arch=compute_80 -cudart shared -O2 -I workloads/common workloads/lib/lib.cu
#ifndef MX_CUDA_CLANG
#include "mx_workload.h"
#endif

#define LB_NN 80   // forward rates
#define LB_NMAT 40 // time steps simulated (rates 0..39 reset during the path)
#define LB_NOPT 15 // swaptions in the portfolio
#define LB_NSWAP (LB_NN - LB_NMAT)
#define LB_BLOCK 32

struct lb_params {
    float delta, sqrt_delta;     // time step (years) and its square root
    float lambda[LB_NN];         // volatility of a rate by time to its reset
    float l0[LB_NN];             // initial forward rates
    int maturity[LB_NOPT];       // swap length in steps after LB_NMAT (1..LB_NSWAP)
    float swaprate[LB_NOPT];     // strike of each swaption
};

__constant__ struct lb_params c_par;

/* Products that feed a sum are rounded on their own on both sides: nvcc and
 * clang would otherwise fuse them into FMAs on the device only. */
#ifdef __CUDA_ARCH__
#define LB_MUL(a, b) __fmul_rn((a), (b))
#define LB_I2F(i) __int_as_float(i)
#else
#define LB_MUL(a, b) ((a) * (b))
static inline float lb_i2f_host(int i)
{
    float f;
    memcpy(&f, &i, sizeof f);
    return f;
}
#define LB_I2F(i) lb_i2f_host(i)
#endif

/* exp(x) for |x| < 80: x = k ln2 + r with |r| <= ln2/2, e^r by a degree-7
 * Taylor polynomial (error below 1e-8 relative), times 2^k exactly. */
__host__ __device__ __forceinline__ float lb_exp(float x)
{
    const float kf = rintf(LB_MUL(x, 1.44269504f));
    float r = fmaf(-kf, 0.693145751953125f, x); // ln2, high part (exact product)
    r = fmaf(-kf, 1.42860677e-06f, r);           // ln2, low part
    float p = 1.98412698e-04f;                   // 1/7!
    p = fmaf(p, r, 1.38888889e-03f);
    p = fmaf(p, r, 8.33333333e-03f);
    p = fmaf(p, r, 4.16666667e-02f);
    p = fmaf(p, r, 1.66666667e-01f);
    p = fmaf(p, r, 0.5f);
    p = fmaf(p, r, 1.0f);
    p = fmaf(p, r, 1.0f);
    return LB_MUL(p, LB_I2F(((int)kf + 127) << 23));
}

/* One time step j of the forward-rate dynamics (rates n > j move):
 *   v += c1*L/(1 + delta*L),  L *= exp(c1*v + lambda*(sqrt(delta)*z - c1/2)),
 * with c1 = delta*lambda and lambda taken by time to reset. */
__host__ __device__ __forceinline__ void lb_step(const struct lb_params *P, float *L, int j, float z)
{
    const float sqez = LB_MUL(P->sqrt_delta, z);
    float v = 0.0f;
    for (int n = j + 1; n < LB_NN; n++) {
        const float lam = P->lambda[n - j - 1];
        const float c1 = LB_MUL(P->delta, lam);
        v = v + LB_MUL(c1, L[n]) / fmaf(P->delta, L[n], 1.0f);
        const float e = fmaf(c1, v, LB_MUL(lam, fmaf(-0.5f, c1, sqez)));
        L[n] = LB_MUL(L[n], lb_exp(e));
    }
}

/* Portfolio value from the rates at the end of the path: discount factors
 * B[m] and annuities S[m] of the swap rates LB_NMAT.., each swaption pays
 * 100 * max(0, 1 - B[m] - K*S[m]), all discounted back over rates 0..NMAT-1.
 * Fills B, S and *disc for the adjoint. */
__host__ __device__ __forceinline__ float lb_portfolio(const struct lb_params *P, const float *L, float *B, float *S,
                                                       float *disc)
{
    float b = 1.0f, s = 0.0f;
    for (int m = 0; m < LB_NSWAP; m++) {
        b = b / fmaf(P->delta, L[LB_NMAT + m], 1.0f);
        s = fmaf(P->delta, b, s);
        B[m] = b;
        S[m] = s;
    }
    float v = 0.0f;
    for (int o = 0; o < LB_NOPT; o++) {
        const int m = P->maturity[o] - 1;
        const float sw = fmaf(P->swaprate[o], S[m], B[m]) - 1.0f;
        if (sw < 0.0f)
            v = fmaf(-100.0f, sw, v);
    }
    float d = 1.0f;
    for (int n = 0; n < LB_NMAT; n++)
        d = d / fmaf(P->delta, L[n], 1.0f);
    *disc = d;
    return LB_MUL(v, d);
}

/* Value of one path; z[j * zstride] is its normal number for step j. */
__host__ __device__ __forceinline__ float lb_path_value(const struct lb_params *P, const float *z, int zstride)
{
    float L[LB_NN], B[LB_NSWAP], S[LB_NSWAP], d;
    for (int n = 0; n < LB_NN; n++)
        L[n] = P->l0[n];
    for (int j = 0; j < LB_NMAT; j++)
        lb_step(P, L, j, z[j * zstride]);
    return lb_portfolio(P, L, B, S, &d);
}

/* Value of one path and its sensitivities dv/dL0[n], written to lb[n * lbstride]. */
__host__ __device__ __forceinline__ float lb_path_greeks(const struct lb_params *P, const float *z, int zstride,
                                                         float *lb, int lbstride)
{
    float H[LB_NMAT + 1][LB_NN]; // H[j] = the rates at the start of step j; H[LB_NMAT] = final rates
    float B[LB_NSWAP], S[LB_NSWAP], Bb[LB_NSWAP], Sb[LB_NSWAP], Lb[LB_NN], d;
    for (int n = 0; n < LB_NN; n++)
        H[0][n] = P->l0[n];
    for (int j = 0; j < LB_NMAT; j++) {
        for (int n = 0; n < LB_NN; n++)
            H[j + 1][n] = H[j][n];
        lb_step(P, H[j + 1], j, z[j * zstride]);
    }
    const float *L = H[LB_NMAT];
    const float v = lb_portfolio(P, L, B, S, &d);

    /* adjoint of the discounting: dv/dL[n] = -v*delta/(1 + delta*L[n]), n < NMAT */
    for (int n = 0; n < LB_NMAT; n++)
        Lb[n] = -LB_MUL(v, P->delta) / fmaf(P->delta, L[n], 1.0f);
    /* adjoint of the payoffs, scaled by the discount factor */
    for (int m = 0; m < LB_NSWAP; m++)
        Bb[m] = Sb[m] = 0.0f;
    for (int o = 0; o < LB_NOPT; o++) {
        const int m = P->maturity[o] - 1;
        const float sw = fmaf(P->swaprate[o], S[m], B[m]) - 1.0f;
        if (sw < 0.0f) {
            Bb[m] = Bb[m] - LB_MUL(100.0f, d);
            Sb[m] = fmaf(LB_MUL(-100.0f, P->swaprate[o]), d, Sb[m]);
        }
    }
    /* adjoint of B and S: b_m depends on rates NMAT..NMAT+m, s_m on b_0..b_m */
    float sb = 0.0f, bsum = 0.0f;
    for (int m = LB_NSWAP - 1; m >= 0; m--) {
        sb = sb + Sb[m];
        const float bb = fmaf(P->delta, sb, Bb[m]);
        bsum = fmaf(bb, B[m], bsum);
        Lb[LB_NMAT + m] = -LB_MUL(bsum, P->delta) / fmaf(P->delta, L[LB_NMAT + m], 1.0f);
    }
    /* adjoint of the time steps, last first */
    for (int j = LB_NMAT - 1; j >= 0; j--) {
        float acc = 0.0f; // sum over n' >= n of c1*Lnew*Lb: the adjoint of v at rate n
        for (int n = LB_NN - 1; n > j; n--) {
            const float c1 = LB_MUL(P->delta, P->lambda[n - j - 1]);
            const float lold = H[j][n], lnew = H[j + 1][n];
            acc = fmaf(LB_MUL(c1, lnew), Lb[n], acc);
            const float den = fmaf(P->delta, lold, 1.0f);
            Lb[n] = fmaf(Lb[n], lnew / lold, LB_MUL(acc, c1) / LB_MUL(den, den));
        }
    }
    for (int n = 0; n < LB_NN; n++)
        lb[n * lbstride] = Lb[n];
    return v;
}

/* v[p] = value of path p; z[j * npath + p] are the normals. */
extern "C" __global__ void __launch_bounds__(LB_BLOCK) lib_value(const float *z, float *v, int npath)
{
    for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < npath; p += blockDim.x * gridDim.x)
        v[p] = lb_path_value(&c_par, z + p, npath);
}

/* v[p] as lib_value, and lb[n * npath + p] = d v[p] / d L0[n]. */
extern "C" __global__ void __launch_bounds__(LB_BLOCK) lib_greeks(const float *z, float *v, float *lb, int npath)
{
    for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < npath; p += blockDim.x * gridDim.x)
        v[p] = lb_path_greeks(&c_par, z + p, npath, lb + p, npath);
}

#ifndef MX_CUDA_CLANG
int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "lib", argc, argv);
    /* paths / threads: small 128 / 64; medium 2048 / 1024; large 16384 / 4096
     * (the ISPASS run's 4096 threads, 4 paths each). */
    static const int sizes[4][2] = {{128, 64}, {2048, 1024}, {16384, 4096}, {2048, 1024}};
    const int npath = sizes[w.size][0], nthreads = sizes[w.size][1];

    struct lb_params P;
    P.delta = 0.25f;
    P.sqrt_delta = 0.5f;
    for (int n = 0; n < LB_NN; n++) {
        P.lambda[n] = 0.15f + 0.1f * (float)exp(-n / 20.0);
        P.l0[n] = 0.04f + 0.0002f * (float)n;
    }
    for (int o = 0; o < LB_NOPT; o++) {
        P.maturity[o] = 4 + (o * 37) % LB_NSWAP - (o * 37) % 4; // 4..40, varied
        P.swaprate[o] = 0.045f + 0.0025f * (float)(o % 5);
    }

    /* Normals by Box-Muller in double, stored step-major: z[j * npath + p]. */
    const size_t nz = (size_t)LB_NMAT * npath;
    float *z = (float *)malloc(nz * sizeof(float));
    float *v1 = (float *)malloc(npath * sizeof(float)), *v2 = (float *)malloc(npath * sizeof(float));
    float *lbd = (float *)malloc((size_t)LB_NN * npath * sizeof(float));
    float *vr = (float *)malloc(npath * sizeof(float)), *lbr = (float *)malloc((size_t)LB_NN * npath * sizeof(float));
    if (!z || !v1 || !v2 || !lbd || !vr || !lbr)
        mxw_fail(&w, "out of host memory");
    for (size_t i = 0; i < nz; i += 2) {
        const double u1 = ((double)(mxw_rand(&w) >> 11) + 1.0) / 9007199254740993.0; // (0, 1]
        const double u2 = (double)(mxw_rand(&w) >> 11) / 9007199254740992.0;
        const double r = sqrt(-2.0 * log(u1));
        z[i] = (float)(r * cos(6.283185307179586 * u2));
        if (i + 1 < nz)
            z[i + 1] = (float)(r * sin(6.283185307179586 * u2));
    }

    float *d_z, *d_v1, *d_v2, *d_lb;
    MXW_CUDA(&w, cudaMemcpyToSymbol(c_par, &P, sizeof P));
    MXW_CUDA(&w, cudaMalloc((void **)&d_z, nz * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_v1, npath * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_v2, npath * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_lb, (size_t)LB_NN * npath * sizeof(float)));
    MXW_CUDA(&w, cudaMemcpy(d_z, z, nz * sizeof(float), cudaMemcpyHostToDevice));
    lib_value<<<nthreads / LB_BLOCK, LB_BLOCK>>>(d_z, d_v1, npath);
    MXW_LAUNCHED(&w);
    lib_greeks<<<nthreads / LB_BLOCK, LB_BLOCK>>>(d_z, d_v2, d_lb, npath);
    MXW_LAUNCHED(&w);
    MXW_CUDA(&w, cudaMemcpy(v1, d_v1, npath * sizeof(float), cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaMemcpy(v2, d_v2, npath * sizeof(float), cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaMemcpy(lbd, d_lb, (size_t)LB_NN * npath * sizeof(float), cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaFree(d_z));
    MXW_CUDA(&w, cudaFree(d_v1));
    MXW_CUDA(&w, cudaFree(d_v2));
    MXW_CUDA(&w, cudaFree(d_lb));

    double price = 0.0, delta0 = 0.0;
    for (int p = 0; p < npath; p++) {
        vr[p] = lb_path_greeks(&P, z + p, npath, lbr + p, npath);
        price += vr[p];
        delta0 += lbr[p];
    }
    mxw_check_exact(&w, "lib_value v", v1, vr, npath, sizeof(float));
    mxw_check_exact(&w, "lib_greeks v", v2, vr, npath, sizeof(float));
    mxw_check_exact(&w, "lib_greeks dv/dL0", lbd, lbr, (size_t)LB_NN * npath, sizeof(float));
    if (!w.quiet)
        printf("lib: %d paths on %d threads, portfolio value %.6f, dv/dL0[0] %.6f\n", npath, nthreads, price / npath,
               delta0 / npath);
    free(z);
    free(v1);
    free(v2);
    free(lbd);
    free(vr);
    free(lbr);
    mxw_pass(&w);
    return 0;
}
#endif

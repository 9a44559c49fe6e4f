// workloads/mri-q/mri-q.cu — Parboil-style MRI-Q: the Q matrix of a
// non-Cartesian MRI reconstruction, one value per voxel,
//   Q(x) = sum over k-space samples k of |phi_k|^2 * exp(i * 2pi * k.x).
// mq_phimag computes |phi_k|^2 once; the host packs (kx, ky, kz, |phi|^2) and
// copies it into constant memory 1024 samples at a time, and mq_computeq
// runs once per chunk, each thread adding that chunk's terms into its voxel's
// Qr/Qi (read-modify-write in global memory).  Compute-bound: two SFU
// operations and a handful of FMAs per voxel and sample.  |phi|^2 is checked
// bit for bit; Q within a tolerance, because the device uses __sinf/__cosf
// (sin.approx/cos.approx) where the host uses double sin/cos.
//
//   nvcc -arch=compute_80 -cudart shared -O2 -I workloads/common workloads/mri-q/mri-q.cu
#ifndef MX_CUDA_CLANG
#include "mx_workload.h"
#endif

#define MQ_CHUNK 1024 // k-space samples per constant-memory chunk (16 KiB) and per launch
#define MQ_BLOCK 256  // voxels per block
#define MQ_PHIMAG_BLOCK 512
#define MQ_2PI 6.2831853071795864769f

struct mq_kvalue {
    float kx, ky, kz; // k-space coordinates (cycles per field of view)
    float phimag;     // |phi_k|^2
};

__constant__ struct mq_kvalue c_k[MQ_CHUNK];

/* phimag[k] = phir[k]^2 + phii[k]^2, as fmaf(phir, phir, phii * phii). */
extern "C" __global__ void __launch_bounds__(MQ_PHIMAG_BLOCK)
mq_phimag(const float *phir, const float *phii, float *phimag, int numk)
{
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < numk) {
        const float r = phir[k], i = phii[k];
        phimag[k] = fmaf(r, r, __fmul_rn(i, i));
    }
}

/* Adds the nk samples now in c_k to Qr/Qi of every voxel:
 *   arg = 2pi * (kz*z + (ky*y + kx*x)),  Qr += phimag*cos(arg),  Qi += phimag*sin(arg). */
extern "C" __global__ void __launch_bounds__(MQ_BLOCK)
mq_computeq(int nk, int nvox, const float *x, const float *y, const float *z, float *qr, float *qi)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= nvox)
        return;
    const float vx = x[v], vy = y[v], vz = z[v];
    float sr = qr[v], si = qi[v];
    for (int k = 0; k < nk; k++) {
        const float dot = fmaf(c_k[k].kz, vz, fmaf(c_k[k].ky, vy, __fmul_rn(c_k[k].kx, vx)));
        const float arg = __fmul_rn(MQ_2PI, dot);
        const float pm = c_k[k].phimag;
        sr = fmaf(pm, __cosf(arg), sr);
        si = fmaf(pm, __sinf(arg), si);
    }
    qr[v] = sr;
    qi[v] = si;
}

#ifndef MX_CUDA_CLANG
int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "mri-q", argc, argv);
    /* voxels x k-space samples: small 1024 x 1280 (two launches, the second
     * a partial chunk); medium 16384 x 2048; large 262144 x 2048 (Parboil's
     * "large": a 64^3 volume). */
    static const int sizes[4][2] = {{1024, 1280}, {16384, 2048}, {262144, 2048}, {16384, 2048}};
    const int nvox = sizes[w.size][0], numk = sizes[w.size][1];

    float *kx = (float *)malloc(numk * sizeof(float)), *ky = (float *)malloc(numk * sizeof(float));
    float *kz = (float *)malloc(numk * sizeof(float)), *phir = (float *)malloc(numk * sizeof(float));
    float *phii = (float *)malloc(numk * sizeof(float)), *phimag = (float *)malloc(numk * sizeof(float));
    float *x = (float *)malloc(nvox * sizeof(float)), *y = (float *)malloc(nvox * sizeof(float));
    float *z = (float *)malloc(nvox * sizeof(float));
    float *qr = (float *)malloc(nvox * sizeof(float)), *qi = (float *)malloc(nvox * sizeof(float));
    float *rr = (float *)malloc(nvox * sizeof(float)), *ri = (float *)malloc(nvox * sizeof(float));
    float *pref = (float *)malloc(numk * sizeof(float));
    struct mq_kvalue *kv = (struct mq_kvalue *)malloc(numk * sizeof *kv);
    if (!kx || !ky || !kz || !phir || !phii || !phimag || !x || !y || !z || !qr || !qi || !rr || !ri || !pref || !kv)
        mxw_fail(&w, "out of host memory");
    /* k in [-16, 16) cycles per FOV, voxels in [-0.5, 0.5): |arg| < 2pi * 24,
     * inside the range where sin.approx/cos.approx keep their stated error. */
    for (int k = 0; k < numk; k++) {
        kx[k] = 32.0f * mxw_randf(&w) - 16.0f;
        ky[k] = 32.0f * mxw_randf(&w) - 16.0f;
        kz[k] = 32.0f * mxw_randf(&w) - 16.0f;
        phir[k] = mxw_randf(&w) - 0.5f;
        phii[k] = mxw_randf(&w) - 0.5f;
    }
    for (int v = 0; v < nvox; v++) {
        x[v] = mxw_randf(&w) - 0.5f;
        y[v] = mxw_randf(&w) - 0.5f;
        z[v] = mxw_randf(&w) - 0.5f;
    }

    float *d_phir, *d_phii, *d_phimag, *d_x, *d_y, *d_z, *d_qr, *d_qi;
    MXW_CUDA(&w, cudaMalloc((void **)&d_phir, numk * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_phii, numk * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_phimag, numk * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_x, nvox * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_y, nvox * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_z, nvox * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_qr, nvox * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_qi, nvox * sizeof(float)));
    MXW_CUDA(&w, cudaMemcpy(d_phir, phir, numk * sizeof(float), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_phii, phii, numk * sizeof(float), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_x, x, nvox * sizeof(float), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_y, y, nvox * sizeof(float), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_z, z, nvox * sizeof(float), cudaMemcpyHostToDevice));

    mq_phimag<<<(numk + MQ_PHIMAG_BLOCK - 1) / MQ_PHIMAG_BLOCK, MQ_PHIMAG_BLOCK>>>(d_phir, d_phii, d_phimag, numk);
    MXW_LAUNCHED(&w);
    MXW_CUDA(&w, cudaMemcpy(phimag, d_phimag, numk * sizeof(float), cudaMemcpyDeviceToHost));
    for (int k = 0; k < numk; k++) {
        kv[k].kx = kx[k];
        kv[k].ky = ky[k];
        kv[k].kz = kz[k];
        kv[k].phimag = phimag[k];
    }

    MXW_CUDA(&w, cudaMemset(d_qr, 0, nvox * sizeof(float)));
    MXW_CUDA(&w, cudaMemset(d_qi, 0, nvox * sizeof(float)));
    int launches = 0;
    for (int k0 = 0; k0 < numk; k0 += MQ_CHUNK) {
        const int nk = numk - k0 < MQ_CHUNK ? numk - k0 : MQ_CHUNK;
        MXW_CUDA(&w, cudaMemcpyToSymbol(c_k, kv + k0, nk * sizeof *kv));
        mq_computeq<<<(nvox + MQ_BLOCK - 1) / MQ_BLOCK, MQ_BLOCK>>>(nk, nvox, d_x, d_y, d_z, d_qr, d_qi);
        MXW_LAUNCHED(&w);
        launches++;
    }
    MXW_CUDA(&w, cudaMemcpy(qr, d_qr, nvox * sizeof(float), cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaMemcpy(qi, d_qi, nvox * sizeof(float), cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaFree(d_phir));
    MXW_CUDA(&w, cudaFree(d_phii));
    MXW_CUDA(&w, cudaFree(d_phimag));
    MXW_CUDA(&w, cudaFree(d_x));
    MXW_CUDA(&w, cudaFree(d_y));
    MXW_CUDA(&w, cudaFree(d_z));
    MXW_CUDA(&w, cudaFree(d_qr));
    MXW_CUDA(&w, cudaFree(d_qi));

    /* Reference: |phi|^2 exactly as the device; Q with the same float
     * argument, double-precision cos/sin rounded to float, and the same
     * float accumulation order. */
    double phisum = 0.0;
    for (int k = 0; k < numk; k++) {
        pref[k] = fmaf(phir[k], phir[k], phii[k] * phii[k]);
        phisum += pref[k];
    }
    mxw_check_exact(&w, "phimag", phimag, pref, numk, sizeof(float));
    for (int v = 0; v < nvox; v++) {
        float sr = 0.0f, si = 0.0f;
        for (int k = 0; k < numk; k++) {
            const float dot = fmaf(kz[k], z[v], fmaf(ky[k], y[v], kx[k] * x[v]));
            const float arg = MQ_2PI * dot;
            sr = fmaf(pref[k], (float)cos((double)arg), sr);
            si = fmaf(pref[k], (float)sin((double)arg), si);
        }
        rr[v] = sr;
        ri[v] = si;
    }
    /* sin.approx/cos.approx err by at most 2^-20.5 absolute here, so each
     * term by at most 7e-7 * phimag: allow 2e-5 * sum(phimag) absolute on
     * top of 1e-3 relative. */
    const double atol = 2e-5 * phisum;
    mxw_check_close(&w, "Qr", qr, rr, nvox, 1e-3, atol);
    mxw_check_close(&w, "Qi", qi, ri, nvox, 1e-3, atol);
    if (!w.quiet)
        printf("mri-q: %d voxels, %d k-space samples, %d launches, Q[0] = (%.6g, %.6g)\n", nvox, numk, launches, qr[0],
               qi[0]);
    free(kx);
    free(ky);
    free(kz);
    free(phir);
    free(phii);
    free(phimag);
    free(x);
    free(y);
    free(z);
    free(qr);
    free(qi);
    free(rr);
    free(ri);
    free(pref);
    free(kv);
    mxw_pass(&w);
    return 0;
}
#endif

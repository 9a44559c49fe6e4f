// workloads/bprob/bprob.cu — Rodinia-style back-propagation training of a
// 2-layer net (N inputs -> 16 hidden units -> 1 output).  Two kernels per
// training step, as in the original: bp_layerforward multiplies each input by
// its 16 weights in 16 x 16 blocks and reduces the products of a block
// through shared memory into one partial sum per hidden unit; the host adds
// the partial sums, squashes, runs the tiny hidden->output layer and the
// error terms; bp_adjust_weights then updates every input->hidden weight
// with momentum (w += eta*delta*x + momentum*dw_old).  The host repeats the
// whole step in plain C with the same float operations in the same order and
// compares partial sums, weights and weight deltas bit for bit.
//
//   nvcc -arch=compute_80 -cudart shared -O2 -I workloads/common workloads/bprob/bprob.cu
#ifndef MX_CUDA_CLANG
#include "mx_workload.h"
#endif

#define BP_HID 16  // hidden units (= block width in x)
#define BP_ROWS 16 // input units per block (= block height in y)
#define BP_LD (BP_HID + 1) // row length of the weight matrix: column 0 is the unused bias column
#define BP_ETA 0.3f
#define BP_MOMENTUM 0.3f

/* Weights are w[i * BP_LD + j]: input unit i (0 = bias, 1..n), hidden unit j
 * (1..16; column 0 unused).  Launch: grid n / 16, block (16, 16).
 * partial[b * 16 + (j-1)] = sum over the 16 inputs i of block b of x_i * w_ij,
 * reduced as a binary tree over the rows (stride 1, 2, 4, 8). */
extern "C" __global__ void __launch_bounds__(BP_HID * BP_ROWS)
bp_layerforward(const float *in, const float *w, float *partial)
{
    __shared__ float xs[BP_ROWS];           // this block's 16 inputs
    __shared__ float prod[BP_ROWS][BP_HID]; // products, then the reduction tree
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.x * BP_ROWS + ty + 1;
    if (tx == 0)
        xs[ty] = in[i];
    __syncthreads();
    prod[ty][tx] = __fmul_rn(w[i * BP_LD + tx + 1], xs[ty]);
    __syncthreads();
    for (int s = 1; s < BP_ROWS; s *= 2) {
        if (ty % (2 * s) == 0)
            prod[ty][tx] = __fadd_rn(prod[ty][tx], prod[ty + s][tx]);
        __syncthreads();
    }
    if (ty == 0)
        partial[blockIdx.x * BP_HID + tx] = prod[0][tx];
}

/* dw = eta * delta_j * x_i + momentum * dw_old (one fmaf), w += dw, dw_old = dw,
 * for every input i of the block; block 0 also updates the bias row (x_0 = in[0]).
 * Launch: grid n / 16, block (16, 16).  delta has 17 entries (delta[0] unused). */
extern "C" __global__ void __launch_bounds__(BP_HID * BP_ROWS)
bp_adjust_weights(const float *delta, const float *in, float *w, float *oldw)
{
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.x * BP_ROWS + ty + 1, j = tx + 1;
    const float ed = __fmul_rn(BP_ETA, delta[j]);
    const int idx = i * BP_LD + j;
    float dw = fmaf(BP_MOMENTUM, oldw[idx], __fmul_rn(ed, in[i]));
    w[idx] = __fadd_rn(w[idx], dw);
    oldw[idx] = dw;
    if (blockIdx.x == 0 && ty == 0) {
        dw = fmaf(BP_MOMENTUM, oldw[j], __fmul_rn(ed, in[0]));
        w[j] = __fadd_rn(w[j], dw);
        oldw[j] = dw;
    }
}

#ifndef MX_CUDA_CLANG
static float bp_squash(float x) { return 1.0f / (1.0f + expf(-x)); }

/* Host half of a training step, shared by the device run and the reference:
 * hidden activations from the partial sums (blocks added in order, then the
 * bias weight), output layer, error terms, and the hidden->output update.
 * who[j] is the weight from hidden unit j (0 = bias) to the output. */
static void bp_host_middle(int nblk, const float *partial, const float *w, float *who, float *who_old, float target,
                           float *delta_hid, float *out_err)
{
    float hid[BP_LD];
    hid[0] = 1.0f;
    for (int j = 1; j <= BP_HID; j++) {
        float sum = 0.0f;
        for (int b = 0; b < nblk; b++)
            sum += partial[b * BP_HID + j - 1];
        sum += w[j];
        hid[j] = bp_squash(sum);
    }
    float o = who[0];
    for (int j = 1; j <= BP_HID; j++)
        o += hid[j] * who[j];
    o = bp_squash(o);
    const float delta_out = o * (1.0f - o) * (target - o);
    *out_err = fabsf(delta_out);
    delta_hid[0] = 0.0f;
    for (int j = 1; j <= BP_HID; j++)
        delta_hid[j] = hid[j] * (1.0f - hid[j]) * (delta_out * who[j]);
    for (int j = 0; j <= BP_HID; j++) {
        float dw = BP_ETA * delta_out * hid[j] + BP_MOMENTUM * who_old[j];
        who[j] += dw;
        who_old[j] = dw;
    }
}

/* bp_layerforward in plain C: per block and hidden unit, products then the
 * same binary tree over the 16 rows. */
static void bp_forward_host(int n, const float *in, const float *w, float *partial)
{
    for (int b = 0; b < n / BP_ROWS; b++)
        for (int t = 0; t < BP_HID; t++) {
            float p[BP_ROWS];
            for (int r = 0; r < BP_ROWS; r++) {
                const int i = b * BP_ROWS + r + 1;
                p[r] = w[i * BP_LD + t + 1] * in[i];
            }
            for (int s = 1; s < BP_ROWS; s *= 2)
                for (int r = 0; r < BP_ROWS; r += 2 * s)
                    p[r] = p[r] + p[r + s];
            partial[b * BP_HID + t] = p[0];
        }
}

/* bp_adjust_weights in plain C. */
static void bp_adjust_host(int n, const float *delta, const float *in, float *w, float *oldw)
{
    for (int i = 0; i <= n; i++)
        for (int j = 1; j <= BP_HID; j++) {
            const int idx = i * BP_LD + j;
            const float dw = fmaf(BP_MOMENTUM, oldw[idx], (BP_ETA * delta[j]) * in[i]);
            w[idx] = w[idx] + dw;
            oldw[idx] = dw;
        }
}

int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "bprob", argc, argv);
    /* Input units: small 4096; medium 131072 (twice Rodinia's usual run of
     * 65536; weights and deltas 17 MiB); large 1M (136 MiB of weights and
     * deltas). */
    static const int ninputs[4] = {4096, 1 << 17, 1 << 20, 1 << 16};
    const int n = ninputs[w.size], nblk = n / BP_ROWS, steps = 2;
    const size_t nw = (size_t)(n + 1) * BP_LD;

    float *in = (float *)malloc((n + 1) * sizeof(float));
    float *w0 = (float *)malloc(nw * sizeof(float));
    float *wd = (float *)malloc(nw * sizeof(float)), *oldd = (float *)calloc(nw, sizeof(float));
    float *wr = (float *)malloc(nw * sizeof(float)), *oldr = (float *)calloc(nw, sizeof(float));
    float *pd = (float *)malloc((size_t)nblk * BP_HID * sizeof(float));
    float *pr = (float *)malloc((size_t)nblk * BP_HID * sizeof(float));
    if (!in || !w0 || !wd || !oldd || !wr || !oldr || !pd || !pr)
        mxw_fail(&w, "out of host memory");
    in[0] = 1.0f;
    for (int i = 1; i <= n; i++)
        in[i] = mxw_randf(&w);
    /* Weights of order 1/sqrt(n) keep the hidden sums away from saturation. */
    const float wscale = 4.0f / sqrtf((float)n);
    for (size_t i = 0; i < nw; i++)
        w0[i] = (mxw_randf(&w) - 0.5f) * wscale;
    float who_d[BP_LD], who_r[BP_LD], whoold_d[BP_LD] = {0}, whoold_r[BP_LD] = {0};
    for (int j = 0; j < BP_LD; j++)
        who_d[j] = who_r[j] = mxw_randf(&w) - 0.5f;
    const float target = 0.1f + 0.8f * mxw_randf(&w);
    memcpy(wd, w0, nw * sizeof(float));
    memcpy(wr, w0, nw * sizeof(float));

    float *d_in, *d_w, *d_oldw, *d_partial, *d_delta;
    MXW_CUDA(&w, cudaMalloc((void **)&d_in, (n + 1) * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_w, nw * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_oldw, nw * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_partial, (size_t)nblk * BP_HID * sizeof(float)));
    MXW_CUDA(&w, cudaMalloc((void **)&d_delta, BP_LD * sizeof(float)));
    MXW_CUDA(&w, cudaMemcpy(d_in, in, (n + 1) * sizeof(float), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_w, wd, nw * sizeof(float), cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_oldw, oldd, nw * sizeof(float), cudaMemcpyHostToDevice));

    const dim3 grid(nblk), block(BP_HID, BP_ROWS);
    for (int step = 0; step < steps; step++) {
        float delta_d[BP_LD], delta_r[BP_LD], err_d, err_r;
        /* device step */
        bp_layerforward<<<grid, block>>>(d_in, d_w, d_partial);
        MXW_LAUNCHED(&w);
        MXW_CUDA(&w, cudaMemcpy(pd, d_partial, (size_t)nblk * BP_HID * sizeof(float), cudaMemcpyDeviceToHost));
        /* the host's bias weights w[1..16] are needed: fetch the first row */
        MXW_CUDA(&w, cudaMemcpy(wd, d_w, BP_LD * sizeof(float), cudaMemcpyDeviceToHost));
        bp_host_middle(nblk, pd, wd, who_d, whoold_d, target, delta_d, &err_d);
        MXW_CUDA(&w, cudaMemcpy(d_delta, delta_d, BP_LD * sizeof(float), cudaMemcpyHostToDevice));
        bp_adjust_weights<<<grid, block>>>(d_delta, d_in, d_w, d_oldw);
        MXW_LAUNCHED(&w);

        /* reference step */
        bp_forward_host(n, in, wr, pr);
        bp_host_middle(nblk, pr, wr, who_r, whoold_r, target, delta_r, &err_r);
        bp_adjust_host(n, delta_r, in, wr, oldr);

        char what[64];
        snprintf(what, sizeof what, "step %d partial sums", step);
        mxw_check_exact(&w, what, pd, pr, (size_t)nblk * BP_HID, sizeof(float));
        if (!w.quiet)
            printf("bprob: step %d, %d inputs, output error %.6g\n", step, n, err_d);
    }
    MXW_CUDA(&w, cudaMemcpy(wd, d_w, nw * sizeof(float), cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaMemcpy(oldd, d_oldw, nw * sizeof(float), cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaFree(d_in));
    MXW_CUDA(&w, cudaFree(d_w));
    MXW_CUDA(&w, cudaFree(d_oldw));
    MXW_CUDA(&w, cudaFree(d_partial));
    MXW_CUDA(&w, cudaFree(d_delta));
    mxw_check_exact(&w, "input weights", wd, wr, nw, sizeof(float));
    mxw_check_exact(&w, "weight deltas", oldd, oldr, nw, sizeof(float));
    free(in);
    free(w0);
    free(wd);
    free(oldd);
    free(wr);
    free(oldr);
    free(pd);
    free(pr);
    mxw_pass(&w);
    return 0;
}
#endif

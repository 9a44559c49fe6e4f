/* workloads/hotsp/hotsp.cu — HotSpot-style transient thermal simulation of a
 * chip in the style of Rodinia's hotspot: a rows x cols grid of temperatures
 * and dissipated powers, each step updating every cell from its four
 * neighbours (grid edges reflect: a missing neighbour is the cell itself),
 * the power and the heat sink.  The kernel runs a "pyramid" of up to `ph`
 * steps per launch: a 16 x 16 block loads a tile with a ph-cell halo into
 * shared memory, steps it ph times while the valid region shrinks by one
 * cell per step, and writes the inner (16 - 2 ph)^2 cells; the host loops
 * over launches, swapping the two temperature grids.  The update is written
 * with explicit fmaf, so the result is checked bit for bit against the plain
 * C reference.  Written from the model's description (no code from Rodinia). */
#ifndef MX_CUDA_CLANG /* clang's device-only PTX build (mx_cuda_clang.h) sees the kernels only */
#include "mx_workload.h"
#endif

#define HS_BS 16 /* block edge (threads and tile cells) */

/* The thermal update of one cell: t + sdc * (p + (n + s - 2t) ry1 +
 * (e + w - 2t) rx1 + (amb - t) rz1), in one fixed order of operations
 * (the host reference spells out the same order). */
static __device__ __forceinline__ float hs_cell(float t, float p, float n, float s, float e, float w, float sdc,
                                                float rx1, float ry1, float rz1, float amb)
{
    float v = fmaf(-2.0f, t, n + s);
    float h = fmaf(-2.0f, t, e + w);
    float acc = fmaf(v, ry1, p);
    acc = fmaf(h, rx1, acc);
    acc = fmaf(amb - t, rz1, acc);
    return fmaf(sdc, acc, t);
}

/* `steps` (<= ph) time steps of the grid tin -> tout.  Block (bx, by)
 * owns the (16 - 2 ph)^2 output cells starting at (by, bx) * (16 - 2 ph);
 * its tile starts ph cells above and to the left of them. */
__global__ void hotspot_pyramid(const float *power, const float *tin, float *tout, int rows, int cols, int ph,
                                int steps, float sdc, float rx1, float ry1, float rz1, float amb)
{
    __shared__ float s_t[HS_BS][HS_BS]; /* temperatures of the tile */
    __shared__ float s_p[HS_BS][HS_BS]; /* powers of the tile */
    int tx = threadIdx.x, ty = threadIdx.y;
    int inner = HS_BS - 2 * ph;
    int r = (int)blockIdx.y * inner - ph + ty, c = (int)blockIdx.x * inner - ph + tx;
    bool in_grid = r >= 0 && r < rows && c >= 0 && c < cols;

    if (in_grid) {
        s_t[ty][tx] = tin[r * cols + c];
        s_p[ty][tx] = power[r * cols + c];
    }
    /* Neighbours inside the tile; at a grid edge the cell is its own neighbour. */
    int yn = r > 0 ? ty - 1 : ty, ys = r < rows - 1 ? ty + 1 : ty;
    int xw = c > 0 ? tx - 1 : tx, xe = c < cols - 1 ? tx + 1 : tx;
    __syncthreads();

    for (int k = 0; k < steps; k++) {
        /* After k+1 steps the cells k+1 .. 14-k of the tile are valid. */
        bool live = in_grid && ty > k && ty < HS_BS - 1 - k && tx > k && tx < HS_BS - 1 - k;
        float t = 0.0f;
        if (live)
            t = hs_cell(s_t[ty][tx], s_p[ty][tx], s_t[yn][tx], s_t[ys][tx], s_t[ty][xe], s_t[ty][xw], sdc, rx1, ry1,
                        rz1, amb);
        __syncthreads();
        if (live)
            s_t[ty][tx] = t;
        __syncthreads();
    }
    if (in_grid && ty >= ph && ty < HS_BS - ph && tx >= ph && tx < HS_BS - ph)
        tout[r * cols + c] = s_t[ty][tx];
}

/* ---- host ------------------------------------------------------------- */
#ifndef MX_CUDA_CLANG

/* Plain C reference: one time step over the whole grid. */
static void hotspot_reference(const float *power, const float *tin, float *tout, int rows, int cols, float sdc,
                              float rx1, float ry1, float rz1, float amb)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int i = r * cols + c;
            float t = tin[i];
            float n = r > 0 ? tin[i - cols] : t, s = r < rows - 1 ? tin[i + cols] : t;
            float wv = c > 0 ? tin[i - 1] : t, e = c < cols - 1 ? tin[i + 1] : t;
            float v = fmaf(-2.0f, t, n + s);
            float h = fmaf(-2.0f, t, e + wv);
            float acc = fmaf(v, ry1, power[i]);
            acc = fmaf(h, rx1, acc);
            acc = fmaf(amb - t, rz1, acc);
            tout[i] = fmaf(sdc, acc, t);
        }
}

int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "hotsp", argc, argv);
    /* grid edge, time steps, pyramid height (Rodinia runs 512 or 1024 with
     * pyramid height 2). */
    static const int cfg[4][3] = {{128, 8, 2}, {512, 8, 2}, {1024, 60, 2}, {512, 8, 2}};
    const int rows = cfg[w.size][0], cols = rows, steps = cfg[w.size][1], ph = cfg[w.size][2];
    size_t n = (size_t)rows * cols, bytes = n * sizeof(float);

    /* The RC model of a 16 mm x 16 mm x 0.5 mm silicon die: lateral and
     * vertical thermal resistances of one cell, its heat capacity, and a time
     * step of 1/1000 of the time the hottest power density needs to raise the
     * temperature by one degree. */
    const double chip = 0.016, thick = 0.0005, k_si = 100.0, heat_si = 1.75e6, fill = 0.5, max_pd = 3.0e6,
                 amb = 80.0;
    double gw = chip / cols, gh = chip / rows;
    double cap = fill * heat_si * thick * gw * gh;
    double rx = gw / (2.0 * k_si * thick * gh), ry = gh / (2.0 * k_si * thick * gw), rz = thick / (k_si * gh * gw);
    double step = 0.001 / (max_pd / (fill * thick * heat_si));
    const float sdc = (float)(step / cap), rx1 = (float)(1.0 / rx), ry1 = (float)(1.0 / ry), rz1 = (float)(1.0 / rz);
    const float famb = (float)amb;

    float *power = (float *)malloc(bytes), *t0 = (float *)malloc(bytes), *t1 = (float *)malloc(bytes);
    float *got = (float *)malloc(bytes);
    if (!power || !t0 || !t1 || !got)
        mxw_fail(&w, "out of host memory");
    /* Temperatures 320..345 K; eight hot functional units (50..100% of the
     * peak power density) over a background of up to 5% of it. */
    const double cell_peak = max_pd * gw * gh * thick; /* watts of one cell at peak density */
    for (size_t i = 0; i < n; i++) {
        t0[i] = 320.0f + 25.0f * mxw_randf(&w);
        power[i] = (float)(0.05 * cell_peak * mxw_randf(&w));
    }
    for (int u = 0; u < 8; u++) {
        int r0 = (int)mxw_randu(&w, rows - rows / 8), c0 = (int)mxw_randu(&w, cols - cols / 8);
        float pw = (float)(cell_peak * (0.5 + 0.5 * mxw_randf(&w)));
        for (int r = r0; r < r0 + rows / 8; r++)
            for (int c = c0; c < c0 + cols / 8; c++)
                power[r * cols + c] = pw;
    }

    float *d_power, *d_t0, *d_t1;
    MXW_CUDA(&w, cudaMalloc((void **)&d_power, bytes));
    MXW_CUDA(&w, cudaMalloc((void **)&d_t0, bytes));
    MXW_CUDA(&w, cudaMalloc((void **)&d_t1, bytes));
    MXW_CUDA(&w, cudaMemcpy(d_power, power, bytes, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_t0, t0, bytes, cudaMemcpyHostToDevice));
    int inner = HS_BS - 2 * ph;
    dim3 block(HS_BS, HS_BS), grid((cols + inner - 1) / inner, (rows + inner - 1) / inner);
    int launches = 0;
    for (int done = 0; done < steps; done += ph) {
        int k = steps - done < ph ? steps - done : ph;
        hotspot_pyramid<<<grid, block>>>(d_power, d_t0, d_t1, rows, cols, ph, k, sdc, rx1, ry1, rz1, famb);
        MXW_LAUNCHED(&w);
        launches++;
        float *t = d_t0;
        d_t0 = d_t1;
        d_t1 = t;
    }
    MXW_CUDA(&w, cudaMemcpy(got, d_t0, bytes, cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaFree(d_power));
    MXW_CUDA(&w, cudaFree(d_t0));
    MXW_CUDA(&w, cudaFree(d_t1));

    for (int k = 0; k < steps; k++) {
        hotspot_reference(power, t0, t1, rows, cols, sdc, rx1, ry1, rz1, famb);
        float *t = t0;
        t0 = t1;
        t1 = t;
    }
    if (!w.quiet) {
        float hi = got[0];
        for (size_t i = 1; i < n; i++)
            hi = got[i] > hi ? got[i] : hi;
        printf("hotsp: %dx%d grid, %d steps in %d launches (pyramid height %d), hottest cell %.4f K\n", rows, cols,
               steps, launches, ph, hi);
    }
    mxw_check_exact(&w, "temperature", got, t0, n, sizeof(float));
    free(power);
    free(t0);
    free(t1);
    free(got);
    mxw_pass(&w);
    return 0;
}
#endif /* !MX_CUDA_CLANG */

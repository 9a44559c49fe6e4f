/* tests/cuda/vecadd.cu — the first program anyone runs: c = a + b on float
 * vectors (one thread per element, grid rounded up, a tail block that is
 * only partly used) and on doubles with a grid-stride loop over a grid far
 * smaller than the data; the float kernel also through cudaLaunchKernel.
 * Self-checking against the host's own sums. */
#define MX_TEST "vecadd"
#include "mx_check.h"

__global__ void vecadd_f32(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void vecadd_f64_stride(const double *a, const double *b, double *c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}

int main(void)
{
    const int n = 100003; /* not a multiple of the block size */
    float *ha = (float *)malloc(n * sizeof(float)), *hb = (float *)malloc(n * sizeof(float));
    float *hc = (float *)malloc(n * sizeof(float));
    double *da_h = (double *)malloc(n * sizeof(double)), *db_h = (double *)malloc(n * sizeof(double));
    double *dc_h = (double *)malloc(n * sizeof(double));
    for (int i = 0; i < n; i++) {
        ha[i] = (float)(mx_rand() % 100000) / 128.0f - 300.0f;
        hb[i] = (float)(mx_rand() % 100000) / 7.0f;
        da_h[i] = (double)mx_rand() / 3.0;
        db_h[i] = -(double)mx_rand() / 11.0;
    }

    float *a, *b, *c;
    CK(cudaMalloc(&a, n * sizeof(float)));
    CK(cudaMalloc(&b, n * sizeof(float)));
    CK(cudaMalloc(&c, n * sizeof(float)));
    CK(cudaMemcpy(a, ha, n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, hb, n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemset(c, 0xff, n * sizeof(float)));
    vecadd_f32<<<(n + 255) / 256, 256>>>(a, b, c, n);
    CK_LAUNCH();
    CK(cudaMemcpy(hc, c, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float want = ha[i] + hb[i];
        EXPECT(memcmp(&hc[i], &want, sizeof want) == 0, "f32 c[%d] = %.9g, expected %.9g", i, hc[i], want);
    }

    /* the same launch through cudaLaunchKernel, arguments as an array of pointers */
    CK(cudaMemset(c, 0, n * sizeof(float)));
    int nn = n;
    void *args[] = { &a, &b, &c, &nn };
    CK(cudaLaunchKernel((const void *)vecadd_f32, dim3((n + 127) / 128), dim3(128), args, 0, 0));
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hc, c, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(hc[i] == ha[i] + hb[i], "cudaLaunchKernel: c[%d] = %.9g, expected %.9g", i, hc[i], ha[i] + hb[i]);
    CK_ERR(cudaLaunchKernel((const void *)main, dim3(1), dim3(1), args, 0, 0), cudaErrorInvalidDeviceFunction);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidDeviceFunction);

    double *da, *db, *dc;
    CK(cudaMalloc(&da, n * sizeof(double)));
    CK(cudaMalloc(&db, n * sizeof(double)));
    CK(cudaMalloc(&dc, n * sizeof(double)));
    CK(cudaMemcpy(da, da_h, n * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, db_h, n * sizeof(double), cudaMemcpyHostToDevice));
    vecadd_f64_stride<<<7, 96>>>(da, db, dc, n);
    CK_LAUNCH();
    CK(cudaMemcpy(dc_h, dc, n * sizeof(double), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        double want = da_h[i] + db_h[i];
        EXPECT(memcmp(&dc_h[i], &want, sizeof want) == 0, "f64 c[%d] = %.17g, expected %.17g", i, dc_h[i], want);
    }

    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(c));
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dc));
    free(ha), free(hb), free(hc), free(da_h), free(db_h), free(dc_h);
    return mx_pass();
}

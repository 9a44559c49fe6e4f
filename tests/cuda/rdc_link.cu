/* tests/cuda/rdc_link.cu (with rdc_link_lib.cu) — a program whose device code
 * is two objects built with -rdc=true, linked when the module loads
 * (frontend/ptx_link.c):
 *  - a kernel here calls __device__ functions defined in the other unit;
 *  - it reads and writes a __device__ array and a __constant__ defined there;
 *  - both units have a static function `scale` (internal linkage) with
 *    different bodies, and each has printf strings ($str): kept apart;
 *  - both instantiate the same template (a weak definition): kept once;
 *  - the other unit's own kernel runs too, launched from the host here.
 * Every value is checked against the host. */
#define MX_TEST "rdc_link"
#include "mx_check.h"
#include "rdc_link.h"

static __device__ __noinline__ int scale(int v) { return 3 * v; }   /* the library's scale is 5 * v */

__global__ void use_lib(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    lib_table[i] = lib_mix(i) + scale(i) + twice<int>(i);  /* defined in rdc_link_lib.cu */
    out[i] = lib_table[i] + lib_bias + lib_scaled(i);
    if (i == 0)
        printf("main unit: n=%d\n", n);
}

int main(void)
{
    enum { N = 200 };
    int *d, h[N], t[N];
    CK(cudaMalloc(&d, N * sizeof(int)));
    int bias = 17;
    CK(cudaMemcpyToSymbol(lib_bias, &bias, sizeof bias));
    use_lib<<<(N + 63) / 64, 64>>>(d, N);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    CK(cudaMemcpyFromSymbol(t, lib_table, sizeof t));
    for (int i = 0; i < N; i++) {
        int mix = (i * 7) ^ 0x55, tab = mix + 3 * i + 2 * i;
        if (t[i] != tab)
            mx_fail("lib_table[%d] = %d, expected %d", i, t[i], tab);
        if (h[i] != tab + bias + 5 * i + 2 * i)
            mx_fail("out[%d] = %d, expected %d", i, h[i], tab + bias + 5 * i + 2 * i);
    }
    lib_kernel<<<1, 32>>>(d);  /* the library's own kernel: d[j] = lib_table[j] * 2 */
    CK(cudaMemcpy(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        if (h[i] != 2 * t[i])
            mx_fail("lib_kernel: d[%d] = %d, expected %d", i, h[i], 2 * t[i]);
    CK(cudaDeviceSynchronize());
    return mx_pass();
}

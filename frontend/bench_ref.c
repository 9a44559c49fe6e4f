/* frontend/bench_ref.c — see bench_ref.h. */
#include "frontend/bench_ref.h"

#include <math.h>
#include <string.h>

void ref_vecadd(const float *a, const float *b, float *c, int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

void ref_matmul(const float *A, const float *B, float *C, int n)
{
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc = fmaf(A[r * n + k], B[k * n + c], acc);
            C[r * n + c] = acc;
        }
}

void ref_reduce_shared(const uint32_t *in, uint32_t *out, int n, int block)
{
    uint32_t s[1024];
    for (int b = 0; b * block < n; b++) {
        for (int t = 0; t < block; t++)
            s[t] = b * block + t < n ? in[b * block + t] : 0;
        for (int stride = block / 2; stride > 0; stride >>= 1)
            for (int t = 0; t < stride; t++)
                s[t] += s[t + stride];
        out[b] = s[0];
    }
}

void ref_reduce_shfl(const uint32_t *in, uint32_t *out, int n)
{
    for (int w = 0; w * 32 < n; w++) {
        uint32_t s = 0;
        for (int l = 0; l < 32; l++)
            s += w * 32 + l < n ? in[w * 32 + l] : 0;
        out[w] = s;
    }
}

void ref_histogram(const uint8_t *data, uint32_t *bins, int n)
{
    memset(bins, 0, 256 * sizeof *bins);
    for (int i = 0; i < n; i++)
        bins[data[i]]++;
}

int ref_bfs(const int *rowptr, const int *cols, int *level, int nv)
{
    for (int v = 0; v < nv; v++)
        level[v] = -1;
    level[0] = 0;
    int cur = 0, changed = 1;
    while (changed) {
        changed = 0;
        for (int v = 0; v < nv; v++)
            if (level[v] == cur)
                for (int e = rowptr[v]; e < rowptr[v + 1]; e++)
                    if (level[cols[e]] < 0) {
                        level[cols[e]] = cur + 1;
                        changed = 1;
                    }
        cur++;
    }
    return cur;
}

void ref_stencil(const float *in, float *out, int n)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            if (x == 0 || y == 0 || x == n - 1 || y == n - 1)
                out[y * n + x] = in[y * n + x];
            else
                out[y * n + x] = 0.2f * (in[y * n + x] + in[y * n + x - 1] + in[y * n + x + 1] + in[(y - 1) * n + x] +
                                         in[(y + 1) * n + x]);
        }
}

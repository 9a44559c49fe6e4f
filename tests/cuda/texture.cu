/* tests/cuda/texture.cu — texture objects as nvcc programs use them:
 * tex1Dfetch<float> / <int> on linear memory (out of range reads 0);
 * tex1D<float> on a 1D cudaArray with linear filtering; tex2D<float> on a
 * 2D cudaArray with point and linear filtering (clamp and border),
 * normalized coordinates with wrap and with mirror (point and linear, 1D
 * and 2D: CUDA allows both only with normalized coordinates), and
 * unsigned char read as normalized float (point and linear).  Mirror is
 * the guide's formula: x becomes frac(x) where floor(x) is even and
 * 1 - frac(x) where it is odd; texel indices past an edge (the linear
 * filter's neighbours, x = 1.0 after an odd floor) reflect back into the
 * texture (-1 -> 0, N -> N-1, period 2N).  Checked bit for bit against
 * a host model of the fetch rules of the CUDA programming guide ("Texture
 * Fetching": x_B = x - 0.5, weights in 9-bit fixed point with 8 fractional
 * bits).  Also the array API: channel descriptors, cudaArrayGetInfo,
 * cudaMemcpy2DToArray / cudaMemcpyToArray / cudaMemcpy2DFromArray; a
 * freed array is refused by cudaFreeArray (cudaErrorInvalidValue), the
 * copies and cudaCreateTextureObject (cudaErrorInvalidResourceHandle). */
#define MX_TEST "texture"
#include "mx_check.h"

#include <math.h>
#include <stdint.h>

__global__ void fetch1d(cudaTextureObject_t tf, cudaTextureObject_t ti, float *of, int *oi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = i - 3; /* reads 3 before and after the texture */
        of[i] = tex1Dfetch<float>(tf, x);
        oi[i] = tex1Dfetch<int>(ti, x);
    }
}

__global__ void sample1d(cudaTextureObject_t t, const float *xs, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1D<float>(t, xs[i]);
}

__global__ void sample2d(cudaTextureObject_t t, const float *xs, const float *ys, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float>(t, xs[i], ys[i]);
}

/* ------------------------------------------------------------ host model */
enum { A_WRAP, A_CLAMP, A_MIRROR, A_BORDER };

struct model {
    const float *texels; /* already converted to float (normalized if so read) */
    int w, h;            /* h = 1 for 1D */
    int dims, linear, norm, mode;
};

static int address(int i, int n, int mode)
{
    if (mode == A_WRAP) {
        i %= n;
        return i < 0 ? i + n : i;
    }
    if (mode == A_MIRROR) { /* 0 .. n-1, n-1 .. 0, 0 .. n-1, ... */
        int p = i % (2 * n);
        p = p < 0 ? p + 2 * n : p;
        return p < n ? p : 2 * n - 1 - p;
    }
    if (mode == A_BORDER)
        return i < 0 || i >= n ? -1 : i;
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

static float texel(const struct model *m, int i, int j)
{
    return i < 0 || j < 0 ? 0.0f : m->texels[j * m->w + i];
}

static float model_fetch(const struct model *m, float x, float y)
{
    float u[2] = { x, y };
    int n[2] = { m->w, m->h };
    int mode = m->mode;
    for (int d = 0; d < m->dims; d++) {
        if (m->norm) {
            float fl = floorf(u[d]);
            if (mode == A_WRAP)
                u[d] = u[d] - fl;
            else if (mode == A_MIRROR)
                u[d] = ((long)fl & 1) ? 1.0f - (u[d] - fl) : u[d] - fl;
            u[d] *= (float)n[d];
        }
    }
    if (!m->norm && (mode == A_WRAP || mode == A_MIRROR))
        mode = A_CLAMP;
    if (!m->linear) {
        int i = address((int)floorf(u[0]), n[0], mode);
        int j = m->dims > 1 ? address((int)floorf(u[1]), n[1], mode) : 0;
        return texel(m, i, j);
    }
    int i0[2] = { 0, 0 }, i1[2] = { 0, 0 };
    float wt[2][2] = { { 1, 0 }, { 1, 0 } };
    for (int d = 0; d < m->dims; d++) {
        float xb = u[d] - 0.5f;
        float fl = floorf(xb);
        int a9 = (int)rintf((xb - fl) * 256.0f); /* alpha in 1.8 fixed point */
        wt[d][0] = (float)(256 - a9) / 256.0f;
        wt[d][1] = (float)a9 / 256.0f;
        i0[d] = address((int)fl, n[d], mode);
        i1[d] = address((int)fl + 1, n[d], mode);
    }
    if (m->dims == 1)
        return wt[0][0] * texel(m, i0[0], 0) + wt[0][1] * texel(m, i1[0], 0);
    float acc = (wt[0][0] * wt[1][0]) * texel(m, i0[0], i0[1]);
    acc = acc + (wt[0][1] * wt[1][0]) * texel(m, i1[0], i0[1]);
    acc = acc + (wt[0][0] * wt[1][1]) * texel(m, i0[0], i1[1]);
    acc = acc + (wt[0][1] * wt[1][1]) * texel(m, i1[0], i1[1]);
    return acc;
}

static uint32_t fbits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static cudaTextureObject_t make_tex(const struct cudaResourceDesc *rd, int linear, int norm, int mode, int read_norm)
{
    struct cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = (enum cudaTextureAddressMode)mode;
    td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = read_norm ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    td.normalizedCoords = norm;
    cudaTextureObject_t t = 0;
    CK(cudaCreateTextureObject(&t, rd, &td, NULL));
    EXPECT(t != 0, "texture object handle is 0");
    return t;
}

#define NS 512

int main(void)
{
    /* ---- tex1Dfetch on linear memory */
    const int n1 = 100, nq = n1 + 6;
    float hf[n1];
    int hi[n1];
    for (int i = 0; i < n1; i++) {
        hf[i] = (float)i * 1.25f - 7.0f;
        hi[i] = i * 1000 - 31337;
    }
    float *df, *dof;
    int *di, *doi;
    CK(cudaMalloc(&df, sizeof hf));
    CK(cudaMalloc(&di, sizeof hi));
    CK(cudaMalloc(&dof, nq * sizeof(float)));
    CK(cudaMalloc(&doi, nq * sizeof(int)));
    CK(cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice));
    struct cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = df;
    rd.res.linear.desc = cudaCreateChannelDesc<float>();
    rd.res.linear.sizeInBytes = sizeof hf;
    cudaTextureObject_t tf = make_tex(&rd, 0, 0, cudaAddressModeClamp, 0);
    rd.res.linear.devPtr = di;
    rd.res.linear.desc = cudaCreateChannelDesc<int>();
    EXPECT(rd.res.linear.desc.x == 32 && rd.res.linear.desc.y == 0 && rd.res.linear.desc.f == cudaChannelFormatKindSigned,
           "cudaCreateChannelDesc<int>() = (%d,%d,%d,%d,%d)", rd.res.linear.desc.x, rd.res.linear.desc.y,
           rd.res.linear.desc.z, rd.res.linear.desc.w, (int)rd.res.linear.desc.f);
    cudaTextureObject_t ti = make_tex(&rd, 0, 0, cudaAddressModeClamp, 0);
    fetch1d<<<(nq + 63) / 64, 64>>>(tf, ti, dof, doi, nq);
    CK(cudaGetLastError());
    float rf[nq];
    int ri[nq];
    CK(cudaMemcpy(rf, dof, sizeof rf, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ri, doi, sizeof ri, cudaMemcpyDeviceToHost));
    for (int q = 0; q < nq; q++) {
        int x = q - 3;
        float ef = x < 0 || x >= n1 ? 0.0f : hf[x];
        int ei = x < 0 || x >= n1 ? 0 : hi[x];
        EXPECT(rf[q] == ef, "tex1Dfetch<float>(%d) = %g, expected %g", x, rf[q], ef);
        EXPECT(ri[q] == ei, "tex1Dfetch<int>(%d) = %d, expected %d", x, ri[q], ei);
    }
    CK(cudaDestroyTextureObject(tf));
    CK(cudaDestroyTextureObject(ti));

    /* ---- 2D float array and 2D uchar array */
    const int W = 13, H = 7;
    float h2[H][W];
    unsigned char hu[H][W];
    float hun[H * W];
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            h2[j][i] = (float)((i * 37 + j * 11) % 23) * 0.75f - 4.0f + (float)i / 3.0f;
            hu[j][i] = (unsigned char)((i * 53 + j * 97 + 5) & 255);
            hun[j * W + i] = (float)hu[j][i] / 255.0f;
        }
    struct cudaChannelFormatDesc cf = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    struct cudaChannelFormatDesc cu = cudaCreateChannelDesc<unsigned char>();
    cudaArray_t af, au, a1;
    CK(cudaMallocArray(&af, &cf, W, H));
    CK(cudaMallocArray(&au, &cu, W, H));
    CK(cudaMemcpy2DToArray(af, 0, 0, h2, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    CK(cudaMemcpy2DToArray(au, 0, 0, hu, W, W, H, cudaMemcpyHostToDevice));
    {
        struct cudaChannelFormatDesc g;
        struct cudaExtent ext;
        unsigned flags = 99;
        CK(cudaArrayGetInfo(&g, &ext, &flags, af));
        EXPECT(g.x == 32 && g.f == cudaChannelFormatKindFloat && ext.width == W && ext.height == H && ext.depth == 0 && flags == 0,
               "cudaArrayGetInfo: %d/%d %zux%zux%zu flags %u", g.x, (int)g.f, ext.width, ext.height, ext.depth, flags);
        CK(cudaGetChannelDesc(&g, au));
        EXPECT(g.x == 8 && g.y == 0 && g.f == cudaChannelFormatKindUnsigned, "cudaGetChannelDesc: %d/%d", g.x, (int)g.f);
        float back[H][W];
        CK(cudaMemcpy2DFromArray(back, W * sizeof(float), af, 0, 0, W * sizeof(float), H, cudaMemcpyDeviceToHost));
        EXPECT(memcmp(back, h2, sizeof back) == 0, "cudaMemcpy2DFromArray does not give back what was copied in");
    }
    /* 1D float array through cudaMemcpyToArray */
    CK(cudaMallocArray(&a1, &cf, W, 0));
    CK(cudaMemcpyToArray(a1, 0, 0, h2[0], W * sizeof(float), cudaMemcpyHostToDevice));

    /* sample positions: texel centres, fractions, edges, out of range */
    float hx[NS], hy[NS], hxn[NS], hyn[NS];
    unsigned seed = 12345;
    for (int k = 0; k < NS; k++) {
        seed = seed * 1103515245u + 12345u;
        hx[k] = (float)((seed >> 8) % 4096) / 4096.0f * (W + 4) - 2.0f;
        seed = seed * 1103515245u + 12345u;
        hy[k] = (float)((seed >> 8) % 4096) / 4096.0f * (H + 4) - 2.0f;
        if (k % 8 == 0)
            hx[k] = (float)(k % W) + 0.5f, hy[k] = (float)(k % H) + 0.5f; /* centres */
        seed = seed * 1103515245u + 12345u;
        hxn[k] = (float)((seed >> 8) % 8192) / 2048.0f - 1.5f; /* [-1.5, 2.5) */
        seed = seed * 1103515245u + 12345u;
        hyn[k] = (float)((seed >> 8) % 8192) / 2048.0f - 1.5f;
        if (k % 16 == 1) /* integers and halves: floor(x) odd with frac 0 mirrors to 1.0 */
            hxn[k] = (float)(k / 16 % 9) * 0.5f - 1.5f, hyn[k] = (float)(k / 16 % 7) * 0.5f - 1.0f;
    }
    float *dx, *dy, *dxn, *dyn, *dout;
    CK(cudaMalloc(&dx, sizeof hx));
    CK(cudaMalloc(&dy, sizeof hy));
    CK(cudaMalloc(&dxn, sizeof hxn));
    CK(cudaMalloc(&dyn, sizeof hyn));
    CK(cudaMalloc(&dout, NS * sizeof(float)));
    CK(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dy, hy, sizeof hy, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dxn, hxn, sizeof hxn, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dyn, hyn, sizeof hyn, cudaMemcpyHostToDevice));

    struct cas {
        const char *name;
        cudaArray_t arr;
        int dims, linear, norm, mode, read_norm;
    } cases[] = {
        { "2D float point clamp", af, 2, 0, 0, cudaAddressModeClamp, 0 },
        { "2D float linear clamp", af, 2, 1, 0, cudaAddressModeClamp, 0 },
        { "2D float linear border", af, 2, 1, 0, cudaAddressModeBorder, 0 },
        { "2D float point normalized wrap", af, 2, 0, 1, cudaAddressModeWrap, 0 },
        { "2D float linear normalized wrap", af, 2, 1, 1, cudaAddressModeWrap, 0 },
        { "2D uchar normalized-float point", au, 2, 0, 0, cudaAddressModeClamp, 1 },
        { "2D uchar normalized-float linear wrap", au, 2, 1, 1, cudaAddressModeWrap, 1 },
        { "1D float linear clamp", a1, 1, 1, 0, cudaAddressModeClamp, 0 },
        { "2D float point normalized mirror", af, 2, 0, 1, cudaAddressModeMirror, 0 },
        { "2D float linear normalized mirror", af, 2, 1, 1, cudaAddressModeMirror, 0 },
        { "1D float point normalized mirror", a1, 1, 0, 1, cudaAddressModeMirror, 0 },
        { "1D float linear normalized mirror", a1, 1, 1, 1, cudaAddressModeMirror, 0 },
        { "2D uchar normalized-float linear mirror", au, 2, 1, 1, cudaAddressModeMirror, 1 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const struct cas *k = &cases[c];
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = k->arr;
        cudaTextureObject_t t = make_tex(&rd, k->linear, k->norm, k->mode, k->read_norm);
        const float *xs = k->norm ? dxn : dx, *ys = k->norm ? dyn : dy;
        if (k->dims == 1)
            sample1d<<<NS / 128, 128>>>(t, xs, dout, NS);
        else
            sample2d<<<NS / 128, 128>>>(t, xs, ys, dout, NS);
        CK(cudaGetLastError());
        float got[NS];
        CK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
        CK(cudaDestroyTextureObject(t));
        struct model m = { k->arr == au ? hun : &h2[0][0], W, k->dims == 1 ? 1 : H, k->dims, k->linear, k->norm, k->mode };
        for (int q = 0; q < NS; q++) {
            float x = k->norm ? hxn[q] : hx[q], y = k->norm ? hyn[q] : hy[q];
            float e = model_fetch(&m, x, y);
            EXPECT(fbits(got[q]) == fbits(e), "%s: fetch at (%.9g, %.9g) = %.9g (0x%08x), expected %.9g (0x%08x)", k->name,
                   x, y, got[q], fbits(got[q]), e, fbits(e));
        }
    }
    CK(cudaFreeArray(af));
    CK(cudaFreeArray(au));
    CK(cudaFreeArray(a1));
    CK_ERR(cudaFreeArray(af), cudaErrorInvalidValue);
    CK_ERR(cudaFreeArray((cudaArray_t)(void *)hx), cudaErrorInvalidValue);
    CK_ERR(cudaMemcpyToArray(a1, 0, 0, hx, sizeof(float), cudaMemcpyHostToDevice), cudaErrorInvalidResourceHandle);
    {
        struct cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = au;
        struct cudaTextureDesc td;
        memset(&td, 0, sizeof td);
        cudaTextureObject_t t;
        CK_ERR(cudaCreateTextureObject(&t, &rd, &td, NULL), cudaErrorInvalidResourceHandle);
    }
    CK_ERR(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    CK(cudaFree(df));
    CK(cudaFree(di));
    CK(cudaFree(dof));
    CK(cudaFree(doi));
    CK(cudaFree(dx));
    CK(cudaFree(dy));
    CK(cudaFree(dxn));
    CK(cudaFree(dyn));
    CK(cudaFree(dout));
    return mx_pass();
}

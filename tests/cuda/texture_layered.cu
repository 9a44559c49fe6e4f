/* tests/cuda/texture_layered.cu — layered and cubemap textures and
 * cudaMemcpy3D: cubemaps (and a layered cubemap) sampled at the direction
 * of every texel centre of every face, the directions made from the inverse
 * of the face table (so the test checks the table, not a copy of it); a
 * layered 2D float array and a layered 1D int array filled by cudaMemcpy3D
 * from host memory, read with tex2DLayered/tex1DLayered (point sampling,
 * normalized and unnormalized coordinates; a layer index outside the array
 * is clamped to it; linear filtering never mixes layers), and 3D copies
 * between host memory, a 3D array and pitched device memory, each
 * checked against the host's values. */
#define MX_TEST "texture_layered"
#include "mx_check.h"

#define W 13
#define H 7
#define L 5

__global__ void read2d(cudaTextureObject_t t, float *out, int layer_shift)
{
    int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
    out[(l * H + y) * W + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, l + layer_shift);
}

__global__ void read2d_linear(cudaTextureObject_t t, float *out)
{
    int l = threadIdx.x; /* halfway between texels 3 and 4 of row 2: their mean, in this layer only */
    out[l] = tex2DLayered<float>(t, 4.0f, 2.5f, l);
}

__global__ void read1d(cudaTextureObject_t t, int *out)
{
    int x = threadIdx.x, l = blockIdx.x;
    out[l * W + x] = tex1DLayered<int>(t, (x + 0.5f) / W, l); /* normalized coordinates */
}

static float val(int x, int y, int l) { return x * 1.5f + y * 100.0f + l * 10000.0f; }

#define CW 6 /* cubemap face width */
/* out[((c * 6 + f) * CW + j) * CW + i] = the cubemap texel at the centre of (i, j) on face f (of cubemap c) */
__global__ void read_cube(cudaTextureObject_t t, float *out, int layered)
{
    int i = threadIdx.x, j = threadIdx.y, f = blockIdx.x, c = blockIdx.y;
    float s = (i + 0.5f) / CW * 2 - 1, u = (j + 0.5f) / CW * 2 - 1;
    float3 d = f == 0 ? make_float3(1, -u, -s) : f == 1 ? make_float3(-1, -u, s) : f == 2 ? make_float3(s, 1, u)
             : f == 3 ? make_float3(s, -1, -u) : f == 4 ? make_float3(s, -u, 1) : make_float3(-s, -u, -1);
    float v = layered ? texCubemapLayered<float>(t, d.x * 3, d.y * 3, d.z * 3, c) : texCubemap<float>(t, d.x, d.y, d.z);
    out[((c * 6 + f) * CW + j) * CW + i] = v;
}

int main(void)
{
    static float host[L][H][W], got[L * H * W];
    for (int l = 0; l < L; l++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                host[l][y][x] = val(x, y, l);
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(W, H, L), cudaArrayLayered));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(host, W * sizeof(float), W, H);
    p.dstArray = a;
    p.extent = make_cudaExtent(W, H, L);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    float *out;
    CK(cudaMalloc(&out, sizeof got));
    for (int shift = 0; shift <= 3; shift += 3) { /* 3: layers 3..7, the ones past the last read the last */
        read2d<<<L, dim3(W, H)>>>(t, out, shift);
        CK_LAUNCH();
        CK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
        for (int l = 0; l < L; l++)
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    int ll = l + shift < L ? l + shift : L - 1;
                    EXPECT(got[(l * H + y) * W + x] == val(x, y, ll), "layer %d+%d (%d,%d) = %g, expected %g", l, shift,
                           x, y, got[(l * H + y) * W + x], val(x, y, ll));
                }
    }
    cudaTextureObject_t tl;
    td.filterMode = cudaFilterModeLinear;
    CK(cudaCreateTextureObject(&tl, &rd, &td, NULL));
    read2d_linear<<<1, L>>>(tl, out);
    CK(cudaMemcpy(got, out, L * sizeof(float), cudaMemcpyDeviceToHost));
    for (int l = 0; l < L; l++) {
        float want = 0.5f * val(3, 2, l) + 0.5f * val(4, 2, l);
        EXPECT(got[l] == want, "linear in layer %d = %g, expected %g", l, got[l], want);
    }

    /* layered 1D int, normalized coordinates */
    static int hi[L][W], gi[L * W];
    for (int l = 0; l < L; l++)
        for (int x = 0; x < W; x++)
            hi[l][x] = x * 7 - l * 1000;
    cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
    cudaArray_t a1;
    CK(cudaMalloc3DArray(&a1, &id, make_cudaExtent(W, 0, L), cudaArrayLayered));
    cudaMemcpy3DParms p1 = {};
    p1.srcPtr = make_cudaPitchedPtr(hi, W * sizeof(int), W, 1);
    p1.dstArray = a1;
    p1.extent = make_cudaExtent(W, 1, L);
    p1.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p1));
    rd.res.array.array = a1;
    td.filterMode = cudaFilterModePoint;
    td.normalizedCoords = 1;
    cudaTextureObject_t t1;
    CK(cudaCreateTextureObject(&t1, &rd, &td, NULL));
    int *iout;
    CK(cudaMalloc(&iout, sizeof gi));
    read1d<<<L, W>>>(t1, iout);
    CK(cudaMemcpy(gi, iout, sizeof gi, cudaMemcpyDeviceToHost));
    for (int l = 0; l < L; l++)
        for (int x = 0; x < W; x++)
            EXPECT(gi[l * W + x] == hi[l][x], "1D layer %d [%d] = %d, expected %d", l, x, gi[l * W + x], hi[l][x]);

    /* cubemaps: 6 faces, and a layered cubemap of 2 x 6 faces */
    for (int layered = 0; layered <= 1; layered++) {
        int nc = layered ? 2 : 1;
        static float faces[2 * 6][CW][CW], cg[2 * 6 * CW * CW];
        for (int f = 0; f < 6 * nc; f++)
            for (int j = 0; j < CW; j++)
                for (int i = 0; i < CW; i++)
                    faces[f][j][i] = f * 1000 + j * 10 + i;
        cudaArray_t ac;
        CK(cudaMalloc3DArray(&ac, &fd, make_cudaExtent(CW, CW, 6 * nc),
                             cudaArrayCubemap | (layered ? cudaArrayLayered : 0)));
        cudaMemcpy3DParms pc = {};
        pc.srcPtr = make_cudaPitchedPtr(faces, CW * sizeof(float), CW, CW);
        pc.dstArray = ac;
        pc.extent = make_cudaExtent(CW, CW, 6 * nc);
        pc.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&pc));
        rd.res.array.array = ac;
        td.normalizedCoords = 1;
        td.filterMode = cudaFilterModePoint;
        cudaTextureObject_t tc;
        CK(cudaCreateTextureObject(&tc, &rd, &td, NULL));
        float *cout;
        CK(cudaMalloc(&cout, sizeof cg));
        read_cube<<<dim3(6, nc), dim3(CW, CW)>>>(tc, cout, layered);
        CK_LAUNCH();
        CK(cudaMemcpy(cg, cout, nc * 6 * CW * CW * sizeof(float), cudaMemcpyDeviceToHost));
        for (int f = 0; f < 6 * nc; f++)
            for (int j = 0; j < CW; j++)
                for (int i = 0; i < CW; i++)
                    EXPECT(cg[(f * CW + j) * CW + i] == faces[f][j][i], "%scubemap face %d texel (%d,%d) = %g, expected %g",
                           layered ? "layered " : "", f, i, j, cg[(f * CW + j) * CW + i], faces[f][j][i]);
    }
    cudaArray_t badc;
    CK_ERR(cudaMalloc3DArray(&badc, &fd, make_cudaExtent(4, 5, 6), cudaArrayCubemap), cudaErrorInvalidValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);

    /* 3D copies: host -> 3D array (a sub-box at an offset) -> pitched device memory -> host */
    const int X = 9, Y = 4, Z = 3;
    static int h3[Z][Y][X], back[Z][Y][X];
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++)
                h3[z][y][x] = x + 16 * y + 256 * z;
    cudaArray_t a3;
    CK(cudaMalloc3DArray(&a3, &id, make_cudaExtent(X + 2, Y + 1, Z + 1), 0));
    cudaMemcpy3DParms q = {};
    q.srcPtr = make_cudaPitchedPtr(h3, X * sizeof(int), X, Y);
    q.dstArray = a3;
    q.dstPos = make_cudaPos(2, 1, 1); /* elements, rows, slices */
    q.extent = make_cudaExtent(X, Y, Z);
    q.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&q));
    cudaPitchedPtr dp;
    CK(cudaMalloc3D(&dp, make_cudaExtent(X * sizeof(int), Y, Z)));
    cudaMemcpy3DParms r = {};
    r.srcArray = a3;
    r.srcPos = make_cudaPos(2, 1, 1);
    r.dstPtr = dp;
    r.extent = make_cudaExtent(X, Y, Z);
    r.kind = cudaMemcpyDeviceToDevice;
    CK(cudaMemcpy3D(&r));
    cudaMemcpy3DParms s = {};
    s.srcPtr = dp;
    s.dstPtr = make_cudaPitchedPtr(back, X * sizeof(int), X, Y);
    s.extent = make_cudaExtent(X * sizeof(int), Y, Z); /* bytes: no array takes part */
    s.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&s));
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++)
                EXPECT(back[z][y][x] == h3[z][y][x], "3D copy (%d,%d,%d) = %d", x, y, z, back[z][y][x]);
    /* a box leaving the array is refused, nothing copied */
    q.dstPos = make_cudaPos(3, 1, 1);
    CK_ERR(cudaMemcpy3D(&q), cudaErrorInvalidValue);
    CK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    return mx_pass();
}

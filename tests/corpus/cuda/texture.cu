/* tests/corpus/cuda/texture.cu — texture and surface objects (nvcc only:
 * the tex and surf function templates come from CUDA's own headers).  Produces
 * tex.1d/2d/3d/a2d (layered) / level (LOD) / cube, tld4 (gather) and
 * suld/sust (surfaces).  Kernel parameters of type cudaTextureObject_t /
 * cudaSurfaceObject_t are 64-bit handles (.param .u64).
 *
 * For the CPU references below, unless stated otherwise a texture is
 * bound with point filtering (cudaFilterModePoint), clamp addressing,
 * unnormalised coordinates and element-type reads (no normalisation), so
 * a fetch at (x + 0.5, y + 0.5) returns element [y][x].
 * See ../MANIFEST.md. */

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

/* 1D texture over linear memory of float: out[i] = tex1Dfetch(t, i) * 2
 * + tex1Dfetch(t, n - 1 - i), i.e. 2*a[i] + a[n-1-i]. */
extern "C" __global__ void tex1d_fetch(cudaTextureObject_t t, float *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    out[i] = tex1Dfetch<float>(t, i) * 2.0f + tex1Dfetch<float>(t, n - 1 - i);
}

/* 1D fetches of int4 and uint elements (linear memory): out[i] =
 * v.x + v.y + v.z + v.w + (int)u where v = ti4[i], u = tu[i]. */
extern "C" __global__ void tex1d_fetch_int(cudaTextureObject_t ti4, cudaTextureObject_t tu, int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    int4 v = tex1Dfetch<int4>(ti4, i);
    unsigned u = tex1Dfetch<unsigned>(tu, i);
    out[i] = v.x + v.y + v.z + v.w + (int)u;
}

/* 2D float texture (cudaArray, w x h): out[y*w+x] = tex2D(t, x+0.5,
 * y+0.5) - tex2D(t, x+1.5, y+0.5) (clamped at the right edge), i.e.
 * a[y][x] - a[y][min(x+1, w-1)].  2D grid of 16x16 blocks. */
extern "C" __global__ void tex2d(cudaTextureObject_t t, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float fx = x + 0.5f, fy = y + 0.5f;
    out[y * w + x] = tex2D<float>(t, fx, fy) - tex2D<float>(t, fx + 1.0f, fy);
}

/* 2D texture of uchar4 read as normalised float4
 * (cudaReadModeNormalizedFloat), linear filtering, normalised
 * coordinates (u, v) = ((x+0.5)/w, (y+0.5)/h): at texel centres this is
 * the texel itself / 255.  out[y*w+x] = r + g + b + a of that float4. */
extern "C" __global__ void tex2d_norm(cudaTextureObject_t t, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float4 c = tex2D<float4>(t, (x + 0.5f) / w, (y + 0.5f) / h);
    out[y * w + x] = c.x + c.y + c.z + c.w;
}

/* 3D float texture (w x h x d cudaArray): out[(z*h+y)*w+x] = tex3D(t,
 * x+.5, y+.5, z+.5) = a[z][y][x].  3D grid. */
extern "C" __global__ void tex3d(cudaTextureObject_t t, float *out, int w, int h, int d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= w || y >= h || z >= d)
        return;
    out[(z * h + y) * w + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

/* Layered 2D texture (layers L): out[(l*h+y)*w+x] = layer l texel
 * [y][x] * (l + 1).  2D grid, loop over layers. */
extern "C" __global__ void tex2d_layered(cudaTextureObject_t t, float *out, int w, int h, int layers)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    for (int l = 0; l < layers; ++l)
        out[(l * h + y) * w + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, l) * (float)(l + 1);
}

/* Mipmapped 2D texture read at an explicit level: out[y*w+x] =
 * tex2DLod(t, u, v, level) with normalised (u, v) = ((x+.5)/w,
 * (y+.5)/h), point filtering: the texel of mip level `level` covering
 * that position. */
extern "C" __global__ void tex2d_lod(cudaTextureObject_t t, float *out, int w, int h, float level)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    out[y * w + x] = tex2DLod<float>(t, (x + 0.5f) / w, (y + 0.5f) / h, level);
}

/* Cubemap (6 faces of s x s floats): out[i] = texCubemap(t, dir_i) for
 * the 6 axis directions i = 0..5: +x, -x, +y, -y, +z, -z, i.e. the
 * centre texel of face i (for even s, one of the 4 central texels
 * under point filtering: face[s/2][s/2]). */
extern "C" __global__ void tex_cube(cudaTextureObject_t t, float *out)
{
    int i = threadIdx.x;
    if (i >= 6)
        return;
    float d[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    out[i] = texCubemap<float>(t, d[i][0], d[i][1], d[i][2]);
}

/* Gather (tld4): out[4*(y*w+x)+k] = the four texels of the 2x2
 * footprint around (x+1, y+1) in unnormalised coordinates, component 0,
 * in the order tld4 returns them: (x, y+1), (x+1, y+1), (x+1, y), (x, y)
 * (clamped). */
extern "C" __global__ void tex2d_gather(cudaTextureObject_t t, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float4 g = tex2Dgather<float4>(t, x + 1.0f, y + 1.0f, 0);
    float *o = &out[4 * (y * w + x)];
    o[0] = g.x;
    o[1] = g.y;
    o[2] = g.z;
    o[3] = g.w;
}

/* Surfaces (2D cudaArrays of float, w x h, created with
 * cudaArraySurfaceLoadStore); x coordinates are in bytes (x * 4) as CUDA
 * surfaces require: dst[y][x] = src[y][x] * 2 + 1 and readback[y*w+x] =
 * src[y][x].  (A surface write is not guaranteed visible to reads in the
 * same launch, so nothing reads dst here.) */
extern "C" __global__ void surf2d_rw(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, float *readback, int w,
                                     int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float v = surf2Dread<float>(src, x * 4, y);
    surf2Dwrite(v * 2.0f + 1.0f, dst, x * 4, y);
    readback[y * w + x] = v;
}

/* 1D surfaces of uchar4 (w elements): c = sin[x]; sout[x] = (c.w, c.z,
 * c.y, c.x) (bytes reversed); out[x] = c packed little-endian into a
 * uint (c.x in the low byte); reads outside [0, w) are clamped
 * (cudaBoundaryModeClamp): out2[x] = sin[x+1] packed, with x+1 clamped
 * to w-1. */
extern "C" __global__ void surf1d_uchar4(cudaSurfaceObject_t sin, cudaSurfaceObject_t sout, unsigned *out,
                                         unsigned *out2, int w)
{
    int x = GID;
    if (x >= w)
        return;
    uchar4 c = surf1Dread<uchar4>(sin, x * 4);
    surf1Dwrite(make_uchar4(c.w, c.z, c.y, c.x), sout, x * 4);
    out[x] = c.x | (c.y << 8) | (c.z << 16) | ((unsigned)c.w << 24);
    uchar4 d = surf1Dread<uchar4>(sin, (x + 1) * 4, cudaBoundaryModeClamp);
    out2[x] = d.x | (d.y << 8) | (d.z << 16) | ((unsigned)d.w << 24);
}

/* Integer 2D textures and a float 1D texture over a cudaArray:
 * out[y*w+x] = (int)tex2D<unsigned>(tu, x+.5, y+.5) +
 * tex2D<int>(ti, x+.5, y+.5) + (int)tex1D<float>(tf, x+.5), i.e.
 * au[y][x] + ai[y][x] + (int)af[x]; 2D grid. */
extern "C" __global__ void tex_int2d_1d(cudaTextureObject_t tu, cudaTextureObject_t ti, cudaTextureObject_t tf,
                                        int *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float fx = x + 0.5f, fy = y + 0.5f;
    out[y * w + x] = (int)tex2D<unsigned>(tu, fx, fy) + tex2D<int>(ti, fx, fy) + (int)tex1D<float>(tf, fx);
}

/* Surface stores of other shapes: s1 (1D float4, w elements):
 * s1[x] = (x, 2x, 3x, 4x); s2 (2D uchar4, w x h): s2[y][x] = (x, y,
 * x^y, 255); s3 (3D uchar, w x h x d): s3[z][y][x] = (x+y+z) & 255;
 * sl (2D layered float4, w x h x layers): layer l, [y][x] = (x, y, l, 1).
 * Coordinates in x are bytes (x * element size).  3D grid over
 * (w, h, max(d, layers)); out-of-range threads do nothing per surface. */
extern "C" __global__ void surf_store_shapes(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2,
                                             cudaSurfaceObject_t s3, cudaSurfaceObject_t sl, int w, int h,
                                             int d, int layers)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= w || y >= h)
        return;
    if (y == 0 && z == 0)
        surf1Dwrite(make_float4(x, 2.0f * x, 3.0f * x, 4.0f * x), s1, x * 16);
    if (z == 0)
        surf2Dwrite(make_uchar4(x, y, x ^ y, 255), s2, x * 4, y);
    if (z < d)
        surf3Dwrite((unsigned char)((x + y + z) & 255), s3, x, y, z);
    if (z < layers)
        surf2DLayeredwrite(make_float4(x, y, z, 1.0f), sl, x * 16, y, z);
}

/* Texture and surface queries in inline PTX (CUDA C has no API for
 * them): out[0] = txq.width of t, out[1] = txq.height of t, out[2] =
 * suq.width of s (in elements as PTX defines it), out[3] = suq.height
 * of s.  Launch 1 x 1; t a 2D texture over a cudaArray, s a 2D surface. */
extern "C" __global__ void tex_query(cudaTextureObject_t t, cudaSurfaceObject_t s, int *out)
{
    int w, h, sw, sh;
    asm("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(t));
    asm("txq.height.b32 %0, [%1];" : "=r"(h) : "l"(t));
    asm("suq.width.b32 %0, [%1];" : "=r"(sw) : "l"(s));
    asm("suq.height.b32 %0, [%1];" : "=r"(sh) : "l"(s));
    out[0] = w;
    out[1] = h;
    out[2] = sw;
    out[3] = sh;
}

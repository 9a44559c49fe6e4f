/* tests/cuda/driver_texture_kernel.cu — the device code of driver_texture.c,
 * loaded as PTX (driver_texture_kernel.ptx, made by regen.sh with
 * `nvcc -arch=compute_80 -ptx`) through the driver API; apart from
 * driver_kernel.cu, whose cubin the SASS front end runs (textures are not in
 * its subset). */

/* out[y][x] = the texel (x, y) of a 2D texture object, read at its centre */
extern "C" __global__ void tex_read(float *out, unsigned long long tex, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        out[y * w + x] = tex2D<float>((cudaTextureObject_t)tex, x + 0.5f, y + 0.5f);
}

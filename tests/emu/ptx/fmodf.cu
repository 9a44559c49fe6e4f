// tests/emu/ptx/fmodf.cu — fmodf as nvcc compiles it (CUDA's libdevice
// __nv_fmodf: a div.approx.f32 fast path, a scaled rcp/fma loop for large
// quotients, bit manipulation of the exponents), for the end-to-end test
// tests/emu/test_regress_fmodf.c.  fmodf.ptx beside it is the unedited
// output of
//     nvcc -arch=compute_80 -ptx fmodf.cu -o fmodf.ptx      (nvcc 13.0)
extern "C" __global__ void fmod_kernel(const float *x, const float *y, float *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = fmodf(x[i], y[i]);
}

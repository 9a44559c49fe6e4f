/* tests/corpus/opencl/vecadd.cl — element-wise kernels in OpenCL C: float,
 * float4 vectors, int with a 2D NDRange, and a generic-address-space
 * helper (OpenCL 2.0).  See ../MANIFEST.md. */

/* c[i] = a[i] + b[i] for i < n. */
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n)
{
    int i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}

/* c[i] = a[i] * s + b[i] on float4 elements (n4 of them), single fma
 * per lane (mad may contract: compare with a tolerance of 1 ulp). */
__kernel void vaxpy4(__global const float4 *a, __global const float4 *b, __global float4 *c, float s, int n4)
{
    int i = get_global_id(0);
    if (i < n4)
        c[i] = fma(a[i], (float4)(s), b[i]);
}

/* 2D NDRange over a w x h int matrix: m[y*w+x] = m[y*w+x] * 2 + x - y
 * + get_group_id(0) * 0 (uses the local/group ids: the value written
 * is independent of the work-group size). */
__kernel void imat2d(__global int *m, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    int lx = get_local_id(0), gx = get_group_id(0), lsz = get_local_size(0);
    int xx = gx * lsz + lx; /* == x */
    m[y * w + xx] = m[y * w + xx] * 2 + x - y;
}

/* Generic pointers (OpenCL 2.0): bump() adds v to *p whether p points
 * to global or local memory.  out[i] = in[i] + 1 + (value staged through
 * local memory: in[i] + 2) = 2*in[i] + 3.  Local size <= 256. */
static void bump(int *p, int v) { *p += v; }
__kernel void generic_bump(__global const int *in, __global int *out, int n)
{
    __local int tmp[256];
    int i = get_global_id(0), l = get_local_id(0);
    tmp[l] = i < n ? in[i] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    bump(&tmp[l], 2);
    if (i < n) {
        out[i] = in[i];
        bump(&out[i], 1 + tmp[l]);
    }
}

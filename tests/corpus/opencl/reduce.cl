/* tests/corpus/opencl/reduce.cl — work-group reductions with local
 * memory and barriers, and a work-group inclusive scan.
 * See ../MANIFEST.md. */

/* partial[g] = sum of in[] over work-group g's slice (ints); local size
 * a power of two <= 256; scratch is a __local argument of local-size
 * ints. */
__kernel void reduce_sum(__global const int *in, __global int *partial, __local int *scratch, int n)
{
    int i = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);
    scratch[l] = i < n ? in[i] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = ls / 2; s > 0; s >>= 1) {
        if (l < s)
            scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        partial[get_group_id(0)] = scratch[0];
}

/* partial[2g] = min and partial[2g+1] = max of in[] (floats, no NaNs)
 * over work-group g's slice; local size 128 (fixed local arrays). */
__kernel void reduce_minmax(__global const float *in, __global float *partial, int n)
{
    __local float mn[128], mx[128];
    int i = get_global_id(0), l = get_local_id(0);
    float v = i < n ? in[i] : in[0];
    mn[l] = v;
    mx[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 64; s > 0; s >>= 1) {
        if (l < s) {
            mn[l] = fmin(mn[l], mn[l + s]);
            mx[l] = fmax(mx[l], mx[l + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
        partial[2 * get_group_id(0)] = mn[0];
        partial[2 * get_group_id(0) + 1] = mx[0];
    }
}

/* Inclusive scan within each work-group (Hillis-Steele, local size <=
 * 256): out[i] = sum of in over the group's elements up to i. */
__kernel void scan_group(__global const int *in, __global int *out, int n)
{
    __local int a[256], b[256];
    int i = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);
    __local int *src = a, *dst = b;
    a[l] = i < n ? in[i] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < ls; off <<= 1) {
        dst[l] = l >= off ? src[l] + src[l - off] : src[l];
        barrier(CLK_LOCAL_MEM_FENCE);
        __local int *t = src;
        src = dst;
        dst = t;
    }
    if (i < n)
        out[i] = src[l];
}

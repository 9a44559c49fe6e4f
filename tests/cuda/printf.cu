/* tests/cuda/printf.cu — device printf: integers of each size and base,
 * floats and doubles in %f/%e/%g with widths and precisions, strings
 * (literal and from a __constant__ table), characters, %%, infinities and
 * NaN, many arguments and none, interleaved with host output that must
 * stay in program order.  The expected text is printf.expected;
 * check_output.sh compares the program's stdout with it (the program
 * itself only checks that its launches worked).  Lanes of one warp print in
 * lane order; blocks are launched one at a time so the order is fixed. */
#define MX_TEST "printf"
#include "mx_check.h"

__constant__ char words[3][8] = { "alpha", "beta", "gamma" };

__global__ void formats(int i, long long ll, unsigned u, float f, double d, const char *s)
{
    printf("int %d %i %5d|%-5d|%05d %+d\n", i, -i, i, i, i, i);
    printf("long %lld %llx %ld unsigned %u %x %X %o %#x\n", ll, (unsigned long long)ll, (long)ll, u, u, u, u, u);
    printf("float %f %.2f %8.3f|%-8.1f|%e %.3e %g %g\n", f, f, f, f, f, f, f, (double)f * 1e10);
    printf("double %.10f %.15g %G %e\n", d, d, d * 1e-20, -d * 1e300);
    printf("string [%s] [%10s] [%-6s] [%.3s] char %c%c%c percent %%\n", s, s, "ab", s, 'x', 'y', 'z');
    printf("special %f %f %f %d\n", __int_as_float(0x7f800000), __int_as_float(0xff800000), __int_as_float(0x7fc00000),
           s != 0);
}

__global__ void per_thread(int base)
{
    printf("block %d thread %d value %d word %s\n", blockIdx.x, threadIdx.x, base + threadIdx.x * threadIdx.x,
           words[threadIdx.x % 3]);
}

__global__ void no_args(void)
{
    if (threadIdx.x == 0)
        printf("no arguments at all\n");
}

__global__ void many_args(void)
{
    printf("%d %d %d %d %d %d %d %d %d %d %d %d %.1f %.1f %.1f %.1f\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1.5, 2.5,
           3.5, 4.5);
}

int main(void)
{
    char *s;
    const char text[] = "device-string";
    CK(cudaMalloc(&s, sizeof text));
    CK(cudaMemcpy(s, text, sizeof text, cudaMemcpyHostToDevice));
    printf("host: before the kernels\n");
    fflush(stdout);
    formats<<<1, 1>>>(42, -9876543210123ll, 0xdeadbeefu, 3.14159265f, 2.718281828459045, s);
    CK_LAUNCH();
    printf("host: between\n");
    fflush(stdout);
    for (int b = 0; b < 2; b++) {
        per_thread<<<dim3(1), 4>>>(100 * (b + 1));
        CK_LAUNCH();
    }
    no_args<<<1, 32>>>();
    CK_LAUNCH();
    many_args<<<1, 1>>>();
    CK_LAUNCH();
    printf("host: after the kernels\n");
    CK(cudaFree(s));
    return mx_pass();
}

/* tests/cuda/errors_said.cu — every error the runtime returns comes with a
 * `morpheus:` line on stderr naming the call and saying why (the program
 * captures its own stderr to check): a host function where a kernel is
 * expected (cudaFuncGetAttributes, cudaLaunchKernel, occupancy: the
 * invalid-device-function path, the function named when the dynamic
 * symbols know it), an invalid launch configuration, a bad free, a bad
 * copy direction, a destroyed stream, an unknown symbol.  None of them is
 * sticky: a kernel runs correctly afterwards. */
#define MX_TEST "errors_said"
#include "mx_check.h"
#include "mx_capture.h"

__global__ void twice(int *p)
{
    p[threadIdx.x] = 2 * threadIdx.x;
}

static void host_only(void) {}

/* The call `what` returned e == want, and its stderr has a line starting
 * `morpheus: ` that contains each of the strings in has (NULL-ended). */
static void said(const char *what, cudaError_t e, cudaError_t want, const char *text, const char *const *has)
{
    EXPECT(e == want, "%s returned %s (%d), expected %s", what, cudaGetErrorName(e), (int)e, cudaGetErrorName(want));
    const char *line = strstr(text, "morpheus: ");
    EXPECT(line, "%s: nothing said on stderr", what);
    for (; *has; has++)
        EXPECT(strstr(line, *has), "%s: stderr does not say \"%s\": \"%s\"", what, *has, text);
    CK_ERR(cudaGetLastError(), want);
}

#define SAID(call, want, ...)                                                                                  \
    do {                                                                                                       \
        static const char *const has_[] = { __VA_ARGS__, NULL };                                               \
        mx_capture_begin();                                                                                    \
        cudaError_t e_ = (call);                                                                               \
        said(#call, e_, want, mx_capture_end(), has_);                                                         \
    } while (0)

int main(void)
{
    int *d;
    CK(cudaMalloc(&d, 32 * sizeof(int)));
    char addr[32];

    /* a host function is not a kernel: invalid device function, named */
    struct cudaFuncAttributes fa;
    snprintf(addr, sizeof addr, "%p", (void *)host_only);
    SAID(cudaFuncGetAttributes(&fa, (const void *)host_only), cudaErrorInvalidDeviceFunction,
         "cudaFuncGetAttributes: ", addr, "is not a kernel", "(cudaErrorInvalidDeviceFunction)");
    void *args[] = { &d };
    SAID(cudaLaunchKernel((const void *)host_only, dim3(1), dim3(32), args, 0, 0), cudaErrorInvalidDeviceFunction,
         "cudaLaunchKernel: ", addr, "is not a kernel");
    int nb;
    SAID(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, (const void *)host_only, 128, 0),
         cudaErrorInvalidDeviceFunction, "cudaOccupancyMaxActiveBlocksPerMultiprocessor: ", "is not a kernel");
    /* a function the dynamic symbols know is named */
    SAID(cudaFuncGetAttributes(&fa, (const void *)puts), cudaErrorInvalidDeviceFunction, "cudaFuncGetAttributes: ",
         "(puts) is not a kernel");
    SAID(cudaFuncSetAttribute((const void *)NULL, cudaFuncAttributeMaxDynamicSharedMemorySize, 0),
         cudaErrorInvalidDeviceFunction, "cudaFuncSetAttribute: ", "is not a kernel");

    /* an invalid launch configuration: said by the launch */
    mx_capture_begin();
    twice<<<1, 2000>>>(d);
    const char *t = mx_capture_end();
    CK_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    EXPECT(strstr(t, "morpheus: kernel _Z5twicePi not launched: invalid launch configuration: 2000 threads per block"),
           "<<<1, 2000>>>: stderr: \"%s\"", t);

    /* memory, streams, symbols */
    snprintf(addr, sizeof addr, "%p", (void *)(d + 1));
    SAID(cudaFree(d + 1), cudaErrorInvalidValue, "cudaFree: ", addr, "is not the start of a live allocation");
    int h[32];
    SAID(cudaMemcpy(h, d, sizeof h, (cudaMemcpyKind)42), cudaErrorInvalidMemcpyDirection, "cudaMemcpy: ",
         "42 is not a cudaMemcpyKind");
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    CK(cudaStreamDestroy(s));
    SAID(cudaMemsetAsync(d, 0, sizeof h, s), cudaErrorInvalidResourceHandle, "cudaMemsetAsync: ", "is not a stream");
    SAID(cudaMemcpyToSymbol(h, h, 4), cudaErrorInvalidSymbol, "cudaMemcpyToSymbol: ", "is not a __device__");
    SAID(cudaSetDevice(3), cudaErrorInvalidDevice, "cudaSetDevice: ", "device 3");

    /* none of it sticky */
    twice<<<1, 32>>>(d);
    CK_LAUNCH();
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        EXPECT(h[i] == 2 * i, "after the errors: [%d] = %d", i, h[i]);
    CK(cudaFree(d));
    return mx_pass();
}

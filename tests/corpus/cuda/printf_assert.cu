/* tests/corpus/cuda/printf_assert.cu — the device runtime: printf
 * (lowered to vprintf with a .local argument buffer), assert (a call to
 * __assertfail), malloc/free and new/delete in device code, and, under
 * nvcc with -rdc=true, kernels launching kernels (dynamic parallelism:
 * calls to cudaGetParameterBufferV2 / cudaLaunchDeviceV2).
 * See ../MANIFEST.md. */

#ifdef __NVCC__
#include <cassert>
#include <cstdio>
#endif

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

/* Prints one line per thread with i < n (launch 1 block of <= 4 threads
 * for a deterministic order, or sort the lines):
 * "thread %d: int=%d uint=%u hex=%x ll=%lld dbl=%.3f float=%f char=%c str=%s\n"
 * with i, v=in[i], (unsigned)v, v, (long long)v << 33, v / 4.0,
 * (float)v * 0.5f (promoted to double), 'A' + (i % 26), "even"/"odd" by
 * i's parity.  Thread 0 additionally prints "total %d\n" with n, and
 * lines of the form "neg %d\n" come from threads with v < 0. */
extern "C" __global__ void printf_kernel(const int *in, int n)
{
    int i = GID;
    if (i >= n)
        return;
    int v = in[i];
    printf("thread %d: int=%d uint=%u hex=%x ll=%lld dbl=%.3f float=%f char=%c str=%s\n", i, v,
           (unsigned)v, v, (long long)v << 33, v / 4.0, (float)v * 0.5f, 'A' + (i % 26),
           (i & 1) ? "odd" : "even");
    if (i == 0)
        printf("total %d\n", n);
    if (v < 0)
        printf("neg %d\n", v);
}

/* Asserts that every in[i] (i < n) is >= 0 and < limit; out[i] = in[i] *
 * 2 when the assertion holds.  A violating element aborts the launch
 * with the message "in[i] >= 0 && in[i] < limit" (file, line and function
 * "assert_kernel" are passed to __assertfail). */
extern "C" __global__ void assert_kernel(const int *in, int *out, int limit, int n)
{
    int i = GID;
    if (i >= n)
        return;
    assert(in[i] >= 0 && in[i] < limit);
    out[i] = in[i] * 2;
}

/* Per-thread heap: each thread mallocs m = 1 + (i % 8) ints, fills
 * buf[k] = i + k, and writes out[i] = sum = m*i + m*(m-1)/2; on
 * allocation failure out[i] = -1.  Block 0's thread 0 also mallocs a
 * shared scratch pointer published through shared memory, which every
 * thread of block 0 reads (scratch[tid] = tid) and thread 0 frees after
 * a barrier: out2[tid] = tid for block 0. */
extern "C" __global__ void malloc_free(int *out, int *out2, int n)
{
    __shared__ int *scratch;
    int i = GID;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        scratch = (int *)malloc(blockDim.x * sizeof(int));
    __syncthreads();
    if (blockIdx.x == 0 && scratch) {
        scratch[threadIdx.x] = threadIdx.x;
        out2[threadIdx.x] = scratch[threadIdx.x];
    }
    __syncthreads();
    if (blockIdx.x == 0 && threadIdx.x == 0)
        free(scratch);
    if (i >= n)
        return;
    int m = 1 + (i % 8);
    int *buf = (int *)malloc(m * sizeof(int));
    if (!buf) {
        out[i] = -1;
        return;
    }
    for (int k = 0; k < m; ++k)
        buf[k] = i + k;
    int s = 0;
    for (int k = 0; k < m; ++k)
        s += buf[k];
    out[i] = s;
    free(buf);
}

/* C++ new/delete in device code: a linked list of (i % 5) + 1 nodes with
 * values i*10 + k, summed and deleted.  out[i] = sum over k of (10i + k)
 * for k < (i%5)+1. */
struct Node {
    int value;
    Node *next;
};
extern "C" __global__ void new_delete(int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    Node *head = nullptr;
    for (int k = (i % 5); k >= 0; --k) {
        Node *nd = new Node;
        nd->value = i * 10 + k;
        nd->next = head;
        head = nd;
    }
    int s = 0;
    while (head) {
        Node *nx = head->next;
        s += head->value;
        delete head;
        head = nx;
    }
    out[i] = s;
}

/* A [[noreturn]] helper (.noreturn on the .func): prints "bad divisor
 * %d\n" and traps.  checked_div: out[i] = a[i] / b[i] when b[i] != 0;
 * a zero divisor aborts the launch after the message. */
[[noreturn]] __device__ __noinline__ void die_bad_divisor(int v)
{
    printf("bad divisor %d\n", v);
    __trap();
}
extern "C" __global__ void checked_div(const int *a, const int *b, int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    if (b[i] == 0)
        die_bad_divisor(b[i]);
    out[i] = a[i] / b[i];
}

/* A template kernel: compiled as relocatable code (nvcc -rdc=true) its
 * instantiations become .weak .entry.  p[i] = v for i < n; instantiated
 * for int and double. */
template <typename T>
__global__ void fill_value(T *p, T v, int n)
{
    int i = GID;
    if (i < n)
        p[i] = v;
}
template __global__ void fill_value<int>(int *, int, int);
template __global__ void fill_value<double>(double *, double, int);

#ifdef __NVCC__
/* ---- nvcc -rdc=true only from here on ---------------------------------- */

/* Module variables as relocatable code prints them: g_launch_count is
 * .visible and uninitialised; entry_ptr<N> (a variable template) is a
 * .weak global initialised with generic(g_slots)+4N. */
__device__ unsigned g_launch_count;
__device__ int g_slots[8] = {10, 11, 12, 13, 14, 15, 16, 17};
template <int N>
__device__ int *entry_ptr = g_slots + N;

/* out[0] = *entry_ptr<2> + *entry_ptr<5> = 12 + 15 = 27; g_launch_count
 * is incremented once per launch (by thread 0 of block 0). */
extern "C" __global__ void rdc_globals(int *out)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        out[0] = *entry_ptr<2> + *entry_ptr<5>;
        atomicAdd(&g_launch_count, 1u);
    }
}

/* CUDA graph conditional node: sets the condition of handle h to
 * (*flag != 0).  Thread 0 only. */
extern "C" __global__ void graph_cond(cudaGraphConditionalHandle h, const int *flag)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        cudaGraphSetConditional(h, *flag != 0 ? 1u : 0u);
}

/* Device-side runtime calls and a launch of a kernel defined in another
 * translation unit (.extern .entry): cdp_runtime (1 x 1) allocates 64
 * bytes with cudaMalloc, copies data[0..15] into it with
 * cudaMemcpyAsync, launches ext_consumer<<<1, 16>>>(buf) (defined
 * elsewhere; the PTX only declares it), checks cudaPeekAtLastError
 * (printing cudaGetErrorString on failure) and frees the buffer.  The
 * PTX assembles only with ptxas -c and links only with a module that
 * defines ext_consumer. */
extern __global__ void ext_consumer(int *buf);
extern "C" __global__ void cdp_runtime(int *data)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    int *buf = nullptr;
    if (cudaMalloc((void **)&buf, 16 * sizeof(int)) != cudaSuccess)
        return;
    cudaMemcpyAsync(buf, data, 16 * sizeof(int), cudaMemcpyDeviceToDevice, 0);
    ext_consumer<<<1, 16>>>(buf);
    cudaError_t e = cudaPeekAtLastError();
    if (e != cudaSuccess)
        printf("launch failed: %s\n", cudaGetErrorString(e));
    cudaFree(buf);
}

/* Dynamic parallelism (nvcc -rdc=true only; clang cannot launch kernels
 * from device code).  cdp_parent, launched 1 x 1, launches
 * cdp_child<<<count, 32>>>(data, count*32), which sets data[j] = 3j, and
 * then cdp_add_one<<<1, 32>>>(data, 32) into the same (per-block NULL)
 * stream, so it runs afterwards: when the grid tree has finished,
 * data[j] = 3j + 1 for j < 32 and 3j for 32 <= j < 32*count.  It also
 * creates and destroys a non-blocking stream and checks
 * cudaGetLastError (data[0] = -1 on error). */
extern "C" __global__ void cdp_child(int *data, int len)
{
    int j = GID;
    if (j < len)
        data[j] = j * 3;
}
extern "C" __global__ void cdp_add_one(int *data, int len)
{
    int j = GID;
    if (j < len)
        data[j] += 1;
}
extern "C" __global__ void cdp_parent(int *data, int count)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    cdp_child<<<count, 32>>>(data, count * 32);
    cdp_add_one<<<1, 32>>>(data, 32); /* same (default, per-block) stream: runs after cdp_child */
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaStreamDestroy(s);
    if (cudaGetLastError() != cudaSuccess)
        data[0] = -1;
}
#endif

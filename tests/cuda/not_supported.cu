/* tests/cuda/not_supported.cu — a runtime function the emulator does not
 * implement (cudaGraphAddExternalSemaphoresSignalNode: external semaphore nodes of graphs, cudaIpcGetMemHandle, and every runtime function of the
 * headers that we do not define, as generated stubs) answers cudaErrorNotSupported (801), names itself on stderr
 * (the program captures its own stderr to check), sets the last error like
 * any failing call, and is not sticky: the device keeps working. */
#define MX_TEST "not_supported"
#include "mx_check.h"
#include "mx_capture.h"

__global__ void twice(int *p)
{
    p[threadIdx.x] = 2 * threadIdx.x;
}

/* Runs f with stderr captured (mx_captured). */
static cudaError_t with_stderr_captured(cudaError_t (*f)(void))
{
    mx_capture_begin();
    cudaError_t e = f();
    mx_capture_end();
    return e;
}

static void *managed;
static cudaGraph_t graph;
static cudaError_t call_graph_create(void)
{
    cudaGraphNode_t node;
    cudaExternalSemaphoreSignalNodeParams p = {};
    return cudaGraphAddExternalSemaphoresSignalNode(&node, graph, NULL, 0, &p);
}
static cudaError_t call_ipc(void)
{
    cudaIpcMemHandle_t h;
    cudaMalloc(&managed, 1024);
    return cudaIpcGetMemHandle(&h, managed);
}
/* one of the functions no source of ours defines: a generated stub (gen_stubs.py) */
static cudaError_t call_sparse(void)
{
    cudaArraySparseProperties sp;
    return cudaArrayGetSparseProperties(&sp, (cudaArray_t)0);
}

int main(void)
{
    CK(cudaGraphCreate(&graph, 0));
    cudaError_t e = with_stderr_captured(call_graph_create);
    EXPECT(e == cudaErrorNotSupported, "cudaGraphAddExternalSemaphoresSignalNode returned %s (%d), expected cudaErrorNotSupported (801)",
           cudaGetErrorName(e), (int)e);
    EXPECT(strstr(mx_captured, "cudaGraphAddExternalSemaphoresSignalNode"), "stderr does not name cudaGraphAddExternalSemaphoresSignalNode: \"%s\"", mx_captured);
    CK_ERR(cudaGetLastError(), cudaErrorNotSupported);
    CK(cudaGetLastError());

    e = with_stderr_captured(call_ipc);
    EXPECT(e == cudaErrorNotSupported, "cudaIpcGetMemHandle returned %s (%d)", cudaGetErrorName(e), (int)e);
    EXPECT(strstr(mx_captured, "cudaIpcGetMemHandle"), "stderr does not name cudaIpcGetMemHandle: \"%s\"", mx_captured);
    CK_ERR(cudaPeekAtLastError(), cudaErrorNotSupported);
    CK_ERR(cudaGetLastError(), cudaErrorNotSupported);

    e = with_stderr_captured(call_sparse);
    EXPECT(e == cudaErrorNotSupported, "cudaArrayGetSparseProperties returned %s (%d)", cudaGetErrorName(e), (int)e);
    EXPECT(strstr(mx_captured, "cudaArrayGetSparseProperties"), "stderr does not name it: \"%s\"", mx_captured);
    CK_ERR(cudaGetLastError(), cudaErrorNotSupported);

    /* not sticky */
    int *d, h[32];
    CK(cudaMalloc(&d, sizeof h));
    twice<<<1, 32>>>(d);
    CK_LAUNCH();
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        EXPECT(h[i] == 2 * i, "after a not-supported call: [%d] = %d", i, h[i]);
    CK(cudaFree(d));
    return mx_pass();
}

/* tests/cuda/mx_fault.h — the common half of the fault programs
 * (fault_*.cu): after a kernel faulted, the error is sticky, so every later
 * runtime call that touches the device must report the same code.  Each
 * fault program causes exactly one kind of fault (a process can only have
 * one), calls mx_after_fault(code) and prints PASS if the code was right
 * everywhere. */
#ifndef MX_FAULT_H
#define MX_FAULT_H
#include "mx_check.h"

__global__ void mx_fault_harmless(int *p)
{
    p[threadIdx.x] = threadIdx.x;
}

/* The launch that faulted has just been issued (its error is pending). */
static void mx_after_fault(cudaError_t want, int *some_device_buffer)
{
    int h[32] = { 0 };
    CK_ERR(cudaDeviceSynchronize(), want);
    CK_ERR(cudaGetLastError(), want);
    CK_ERR(cudaGetLastError(), want); /* sticky: not cleared by reading it */
    CK_ERR(cudaPeekAtLastError(), want);
    CK_ERR(cudaDeviceSynchronize(), want);
    CK_ERR(cudaMemcpy(h, some_device_buffer, sizeof h, cudaMemcpyDeviceToHost), want);
    CK_ERR(cudaMemcpy(some_device_buffer, h, sizeof h, cudaMemcpyHostToDevice), want);
    CK_ERR(cudaMemset(some_device_buffer, 0, sizeof h), want);
    void *p = NULL;
    CK_ERR(cudaMalloc(&p, 64), want);
    CK_ERR(cudaStreamSynchronize(0), want);
    mx_fault_harmless<<<1, 32>>>(some_device_buffer);
    CK_ERR(cudaGetLastError(), want);
    CK_ERR(cudaDeviceSynchronize(), want);
    CK_ERR(cudaFree(some_device_buffer), want);
    /* the error's name and text are still available */
    EXPECT(cudaGetErrorName(want)[0] == 'c', "cudaGetErrorName(%d) is empty", (int)want);
}
#endif

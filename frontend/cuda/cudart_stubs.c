/* frontend/cuda/cudart_stubs.c — CUDA runtime functions real programs import
 * (facts/cuda-api-in-the-wild.md) that the emulator does not implement yet.
 * Each one answers cudaErrorNotSupported (801) and names itself on stderr,
 * once; none pretends to succeed.  Generated from that list; a function that
 * gets implemented moves to cudart.c and its line here goes away.  (Declared
 * without parameters: the caller's arguments are ignored, the int return
 * value is ABI-compatible with cudaError_t.) */
#include <stdio.h>

#define EXPORT __attribute__((visibility("default")))
#define NOT_SUPPORTED 801

int rt_stub_error(int e); /* cudart.c: records e as the thread's last error */

static int notsup(const char *name, int *said)
{
    if (!*said) {
        *said = 1;
        fprintf(stderr, "morpheus: %s is not supported by the emulator (returns cudaErrorNotSupported)\n", name);
    }
    return rt_stub_error(NOT_SUPPORTED);
}

#define STUB(name) EXPORT int name(void); EXPORT int name(void) { static int said; return notsup(#name, &said); }

STUB(cudaGraphicsGLRegisterBuffer)
STUB(cudaGraphicsMapResources)
STUB(cudaGraphicsResourceGetMappedPointer)
STUB(cudaGraphicsUnmapResources)
STUB(cudaGraphicsUnregisterResource)
STUB(cudaDeviceEnablePeerAccess)
STUB(cudaDeviceDisablePeerAccess)
STUB(cudaCtxResetPersistingL2Cache)
STUB(cudaDeviceGetP2PAttribute)
STUB(cudaFreeMipmappedArray)
STUB(cudaGetMipmappedArrayLevel)
STUB(cudaGraphicsGLRegisterImage)
STUB(cudaGraphicsResourceSetMapFlags)
STUB(cudaGraphicsSubResourceGetMappedArray)
STUB(cudaIpcCloseMemHandle)
STUB(cudaIpcGetEventHandle)
STUB(cudaIpcGetMemHandle)
STUB(cudaIpcOpenEventHandle)
STUB(cudaIpcOpenMemHandle)
STUB(cudaMallocMipmappedArray)
STUB(cudaMemPoolExportPointer)
STUB(cudaMemPoolExportToShareableHandle)
STUB(cudaMemPoolImportFromShareableHandle)
STUB(cudaMemPoolImportPointer)
STUB(cudaMemcpyPeerAsync)
STUB(cudaStreamSetAttribute)

/* ... and every other cudaError_t function of cuda_runtime_api.h that no
 * source defines (frontend/cuda/gen_stubs.py, run at build time) */
#include "cudart_autostubs.inc"

/* frontend/cuda/rt_internal.h — what the runtime's files share inside
 * libcudart.so.13: cudart.c's stream-ordered operations, done now (graph.c
 * replays a graph's nodes through them), and graph.c's stream capture,
 * which cudart.c asks before it does an operation on a stream. */
#ifndef MX_RT_INTERNAL_H
#define MX_RT_INTERNAL_H

#include <cuda_runtime_api.h>
#include <stddef.h>

/* ---------------------------------------------------- cudart.c */

/* Records e as the thread's last error and says why on stderr, naming the
 * call fn: `morpheus: fn: why (cudaErrorX)`. */
cudaError_t rt_fail(const char *fn, cudaError_t e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* 1 if s is a default stream or a live stream handle. */
int rt_stream_ok(cudaStream_t s);
/* 1 if e is a live event of the runtime. */
int rt_event_ok(cudaEvent_t e);
/* The sizes of kernel func's parameters (as its PTX declares them): their
 * count, and sizes[] filled up to max entries; -1 after saying why (not a
 * kernel, its module does not load). */
int rt_kernel_params(const char *fn, const void *func, size_t *sizes, int max);
/* The operations of a stream, done now (never captured), for the call fn. */
cudaError_t rt_launch(const char *fn, const void *func, dim3 grid, dim3 block, void **args, size_t shmem,
                      cudaStream_t s);
cudaError_t rt_memcpy(const char *fn, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                      cudaStream_t s);
cudaError_t rt_memset(const char *fn, void *dst, int value, size_t count, cudaStream_t s);
cudaError_t rt_host_func(const char *fn, cudaHostFn_t f, void *data, cudaStream_t s);
/* Waits for stream s's work (the sticky error, said, if a kernel faulted). */
cudaError_t rt_drain(const char *fn, cudaStream_t s);
/* Device memory now, as cudaMalloc; and freed now, as cudaFree (said on
 * failure, for the call fn): a graph's allocation ends its launch's
 * lifetime (gr_free_owned), a pool's leaves its pool (mp_forget). */
cudaError_t rt_dev_alloc(const char *fn, size_t size, void **p);
cudaError_t rt_dev_free(const char *fn, void *p);

/* ---------------------------------------------------- mempool.c */

/* p was freed by cudaFree: if it came from a pool (cudaMallocAsync), it
 * leaves the pool's count. */
void mp_forget(const void *p);

/* ----------------------------------------------------- graph.c */

/* 1 if stream s is capturing (its operations are recorded, not done). */
int gr_capturing(cudaStream_t s);
/* Record an operation on capturing stream s as a node of its capture. */
cudaError_t gr_capture_kernel(const char *fn, cudaStream_t s, const void *func, dim3 grid, dim3 block, void **args,
                              size_t shmem);
cudaError_t gr_capture_memcpy(const char *fn, cudaStream_t s, void *dst, const void *src, size_t count,
                              enum cudaMemcpyKind kind);
cudaError_t gr_capture_memset(const char *fn, cudaStream_t s, void *dst, int value, size_t count);
cudaError_t gr_capture_host(const char *fn, cudaStream_t s, cudaHostFn_t f, void *data);
/* Event e recorded on capturing stream s: e stands for s's work so far. */
cudaError_t gr_capture_event_record(const char *fn, cudaEvent_t e, cudaStream_t s);
/* Stream s waits for event e: 1 if e was recorded in a capture (s joins
 * it, *err says how that went), 0 if e is an ordinary event. */
int gr_capture_event_wait(const char *fn, cudaStream_t s, cudaEvent_t e, cudaError_t *err);
/* An event is destroyed: forget its capture state. */
void gr_event_forget(cudaEvent_t e);
/* A call that CUDA forbids on a capturing stream (synchronize, query, an
 * operation that is not captured): the capture is invalidated and the call
 * fails (cudaErrorStreamCaptureUnsupported); cudaSuccess if s is not capturing. */
cudaError_t gr_refuse_on(const char *fn, cudaStream_t s);
/* A potentially unsafe call (synchronous copy, device synchronize) while a
 * global-mode capture is active (or a thread-local one of this thread):
 * those captures are invalidated and the call fails
 * (cudaErrorStreamCaptureUnsupported); else cudaSuccess. */
cudaError_t gr_refuse_unsafe(const char *fn);
/* p is being freed (cudaFree, cudaFreeAsync) by the call fn: 1 if it is a
 * graph's allocation, whose launch's lifetime this ends (it stays reserved
 * for the graph's next launch), -1 (said) if that allocation is not live,
 * 0 if p is not a graph's allocation. */
int gr_free_owned(const char *fn, const void *p);
/* cudaMallocAsync / cudaFreeAsync on capturing stream s: an allocation
 * node (the address is fixed now, *p) or a free node of the capture. */
cudaError_t gr_capture_alloc(const char *fn, cudaStream_t s, size_t size, void **p);
cudaError_t gr_capture_free(const char *fn, cudaStream_t s, void *p);

#endif

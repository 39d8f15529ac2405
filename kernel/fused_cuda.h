/* fused_cuda: the fused kernel on an NVIDIA GPU, one launch per rebuild.
 *
 * The launch takes a fused_params whose pointers are device pointers. It
 * allocates nothing and never synchronises with the host; it only enqueues
 * one kernel on `stream`.
 *
 * Two variants of the same semantics (kernel/fused_program.h):
 *   unchecked  the production kernel: accesses are performed as computed;
 *   checked    every access is first compared with its buffer's bounds; an
 *              out-of-bounds one is skipped and recorded in a device-side
 *              fused_cuda_status (the first one to claim it), so that
 *              fuzzing hostile inputs never corrupts device memory.
 * Where no access is out of bounds the two write identical buffers.
 */
#ifndef FUSED_CUDA_H
#define FUSED_CUDA_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "fused_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device-side record of the first out-of-bounds access (checked variant).
 * Zero it before the launch. */
typedef struct {
    uint32_t claimed;   /* 0: none yet */
    int32_t buf;        /* fused_buf */
    int32_t write;      /* 1 for a write */
    int32_t pad;
    int64_t row;        /* cell writes: the row, else -1 */
    int64_t index;
    int64_t len;
} fused_cuda_status;

/* Threads per block of every launch but the production kernel's on a
 * small batch (FUSED_CUDA_SMALL_BATCH_THREADS, fused_cuda.cu). */
#define FUSED_CUDA_THREADS 256

/* Enqueues one launch. `status` (device memory) is required for the
 * checked variant and ignored otherwise. Returns the launch's CUDA error
 * (cudaSuccess when enqueued); bs == 0 enqueues nothing. */
cudaError_t fused_cuda_launch(const fused_params *p, int checked, fused_cuda_status *status,
                              cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif

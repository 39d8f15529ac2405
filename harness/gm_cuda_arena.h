/* gm_cuda_arena: one device allocation that a case's buffers are laid out
 * in, and the transfers of a case's buffers into and out of it. Private to
 * harness/ (the CUDA backends). The layout depends only on the buffers'
 * sizes, so the same shapes always land at the same addresses: what a CUDA
 * graph captured stays valid for the next case of that shape. */
#ifndef GM_CUDA_ARENA_H
#define GM_CUDA_ARENA_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda_runtime_api.h>

#include "fused_cuda.h"
#include "fused_params.h"

typedef struct {
    unsigned char *base;
    size_t capacity;
    size_t used;
} gm_cuda_arena;

/* Bytes that the buffers of `host` (and a status record) need. */
size_t gm_cuda_arena_need(const fused_params *host);

/* Makes room for `bytes` (growing by one cudaMalloc when needed) and
 * empties the arena. */
cudaError_t gm_cuda_arena_reserve(gm_cuda_arena *a, size_t bytes);
void gm_cuda_arena_release(gm_cuda_arena *a);
/* Forgets the allocation without freeing it (its context was destroyed). */
void gm_cuda_arena_forget(gm_cuda_arena *a);

/* Lays out every buffer of `host` in the arena, enqueues the uploads of
 * inputs and prior outputs on `stream`, and gives `dev` (the same launch
 * with device pointers) and the status record. The first error sticks in
 * *e. */
void gm_cuda_arena_upload(gm_cuda_arena *a, const fused_params *host, fused_params *dev,
                          fused_cuda_status **status, cudaStream_t stream, cudaError_t *e);

/* Enqueues the downloads of the output buffers into `host`. */
void gm_cuda_arena_download(const fused_params *dev, fused_params *host, cudaStream_t stream,
                            cudaError_t *e);

#endif

/* harness_cuda_arena: one device allocation that a case's buffers are laid out
 * in, and the transfers of a case's buffers into and out of it. Private to
 * harness/ (the CUDA backends).
 *
 * A pinned host mirror of the allocation stages every transfer: a case's
 * buffers are copied into the mirror at their device offsets and go up in
 * ONE copy; the outputs (laid out last, with the status record) come back
 * in ONE copy and are unpacked after the synchronization. Eighteen small
 * pageable copies per case cost ~10 us each; two pinned ones a few. The
 * layout is harness_layout's: it depends only on the buffers' sizes, so the same
 * shapes always land at the same addresses (what a CUDA graph captured
 * stays valid for the next case of that shape). */
#ifndef HARNESS_CUDA_ARENA_H
#define HARNESS_CUDA_ARENA_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda_runtime_api.h>

#include "fused_cuda.h"
#include "fused_params.h"

#define HARNESS_CUDA_ARENA_FETCHES 8

typedef struct {
    void *host;     /* where the bytes go */
    size_t offset;  /* in the arena and its mirror */
    size_t bytes;
} harness_cuda_arena_fetch_t;

typedef struct {
    unsigned char *base;
    unsigned char *mirror; /* pinned host memory, `capacity` bytes */
    size_t capacity;
    size_t used;
    size_t outputs_at;     /* where the outputs (and the status) begin */
    size_t status_at;      /* the status record */
    fused_params placed;   /* the last upload's launch, device pointers */
    harness_cuda_arena_fetch_t fetch[HARNESS_CUDA_ARENA_FETCHES];
    int n_fetch;
} harness_cuda_arena;

/* Bytes that the buffers of `host` (and a status record) need. */
size_t harness_cuda_arena_need(const fused_params *host);

/* Makes room for `bytes` (growing by one cudaMalloc when needed) and
 * empties the arena. */
cudaError_t harness_cuda_arena_reserve(harness_cuda_arena *a, size_t bytes);
void harness_cuda_arena_release(harness_cuda_arena *a);
/* Forgets the allocation without freeing it (its context was destroyed). */
void harness_cuda_arena_forget(harness_cuda_arena *a);

/* Lays out every buffer of `host` in the arena, enqueues the uploads of
 * inputs and prior outputs on `stream`, and gives `dev` (the same launch
 * with device pointers) and the status record. The first error sticks in
 * *e. */
void harness_cuda_arena_upload(harness_cuda_arena *a, const fused_params *host, fused_params *dev,
                               fused_cuda_status **status, cudaStream_t stream, cudaError_t *e);

/* Enqueues the download of the whole arena into the mirror: the inputs
 * (for harness_cuda_arena_inputs_changed), the output buffers and the
 * status record (into `seen` when not NULL); harness_cuda_arena_unpack,
 * after the stream is synchronized, copies the outputs into `host`'s
 * buffers. */
void harness_cuda_arena_download(harness_cuda_arena *a, const fused_params *dev, fused_params *host,
                                 fused_cuda_status *seen, cudaStream_t stream, cudaError_t *e);
void harness_cuda_arena_unpack(harness_cuda_arena *a);

/* After the unpack: whether an input buffer of the last upload came back
 * other than `host` (the launch it was uploaded from) holds it, `what`
 * saying where (harness_inputs.h). The kernel must only read its inputs;
 * the production kernel performs whatever it computes, so a stray write
 * lands wherever its address falls, inputs included. */
bool harness_cuda_arena_inputs_changed(const harness_cuda_arena *a, const fused_params *host,
                                       char *what, size_t size);

#endif

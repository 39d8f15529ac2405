/* harness_cuda_graphs: the cuda-graph backend's cache of captured launches.
 *
 * A graph bakes in everything its launch was given: every pointer, every
 * length and every scalar (bs, widths, page_size, seqlen_offset, q_stride,
 * q_mode, which optional buffers exist). So a graph is keyed by all of
 * them, and owns the device buffers (an arena) its pointers point into.
 * A case whose key is cached only writes its inputs into those buffers and
 * replays; a new key is captured once. A stale value baked at capture time
 * would show up as a disagreement with the cpu and cuda backends, which is
 * what this backend exists to catch. Private to harness/. */
#ifndef HARNESS_CUDA_GRAPHS_H
#define HARNESS_CUDA_GRAPHS_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "fused_cuda.h"
#include "fused_params.h"
#include "harness_cuda_arena.h"

#define HARNESS_CUDA_GRAPHS_KEY 13
#define HARNESS_CUDA_GRAPHS_SLOTS 16

typedef struct {
    bool used;
    int64_t key[HARNESS_CUDA_GRAPHS_KEY];
    harness_cuda_arena arena;
    cudaGraphExec_t exec;
    uint64_t last_used;
} harness_cuda_graph_entry;

typedef struct {
    harness_cuda_graph_entry slots[HARNESS_CUDA_GRAPHS_SLOTS];
    uint64_t clock;
    uint64_t captures; /* how many graphs were captured so far */
} harness_cuda_graphs;

/* Uploads the case's buffers into the graph of its key (capturing it
 * first when new), replays it, and enqueues the downloads of the outputs
 * and of the status record. The caller synchronises `stream`, then calls
 * harness_cuda_arena_unpack(*arena) to fill `host`'s outputs and *seen. */
cudaError_t harness_cuda_graphs_run(harness_cuda_graphs *g, fused_params *host, cudaStream_t stream,
                                    fused_cuda_status *seen, harness_cuda_arena **arena);

void harness_cuda_graphs_release(harness_cuda_graphs *g);
/* Forgets every graph and buffer without freeing (context destroyed). */
void harness_cuda_graphs_forget(harness_cuda_graphs *g);

#endif

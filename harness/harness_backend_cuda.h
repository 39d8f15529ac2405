/* harness_backend_cuda: the CUDA backends (cuda, cuda-graph, cuda-raw) inside
 * the process that owns the CUDA context: a worker (harness_worker.h) or a
 * target hub's lane (harness_hub.c). Implemented by harness_backend_cuda.c,
 * or by harness_backend_nocuda.c in a build without nvcc (every call
 * refuses). The interface of a GPU target, not the dispatcher
 * (harness_backend.c): it knows cases, outputs and launches only. Private
 * to harness/. */
#ifndef HARNESS_BACKEND_CUDA_H
#define HARNESS_BACKEND_CUDA_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_case.h"
#include "gm_error.h"
#include "gm_outputs.h"
#include "harness_layout.h"

typedef enum {
    HARNESS_CUDA_CHECKED, /* one checked launch per case */
    HARNESS_CUDA_GRAPH,   /* checked launch replayed from a CUDA graph per key */
    HARNESS_CUDA_RAW,     /* the production kernel, unchecked */
} harness_cuda_mode;

/* The CUDA backends, inside the process that owns the CUDA context (a
 * worker, harness_worker.h). They keep device memory, a stream and graphs
 * between runs. `out` must hold the prior contents (gm_outputs_prepare). A
 * CUDA error fails the run with GM_ERR_DEVICE; after a sticky one the
 * process can do no more CUDA work. */
typedef struct harness_backend_cuda harness_backend_cuda;
bool harness_backend_cuda_open(harness_cuda_mode mode, harness_backend_cuda **out, gm_error *err);
void harness_backend_cuda_close(harness_backend_cuda *cu);
bool harness_backend_cuda_run(harness_backend_cuda *cu, const gm_case *c, gm_outputs *out,
                              gm_error *err);

/* The launches of a job's shared block (harness_layout.h; cuda and cuda-raw
 * only): the block's bytes they span go up in one copy, each launch runs
 * on them, the span comes back in one copy and one synchronization ends it
 * all; each launch's outputs go into the block in place, and its inputs
 * are compared with the block's (inputs are read-only, harness_inputs.h).
 * errors[i * error_size] receives what launch i reported
 * ("out_of_bounds: ..." or "target_wrote_input: ..."), "" for nothing. */
bool harness_backend_cuda_run_block(harness_backend_cuda *cu, unsigned char *block,
                                    const harness_layout_launch *launches, size_t n, char *errors,
                                    size_t error_size, gm_error *err);

/* Where a CUDA backend's shared-block time went. */
typedef struct {
    double enqueue_s; /* uploads, launches, downloads enqueued */
    double sync_s;    /* waiting for them */
    double pin_s;     /* pinning and unpinning blocks */
    unsigned grows;   /* device allocations for blocks */
} harness_backend_cuda_times;
harness_backend_cuda_times harness_backend_cuda_times_of(const harness_backend_cuda *cu);

/* Pins a shared block for direct transfers (false: it stays pageable,
 * which works, slower); unpin it before it is unmapped. */
bool harness_backend_cuda_pin(harness_backend_cuda *cu, void *block, size_t size);
void harness_backend_cuda_unpin(harness_backend_cuda *cu, void *block);

#endif

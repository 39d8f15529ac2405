/* The CUDA backends, in the process that owns the CUDA context (a worker
 * process, harness/harness_worker.c): cuda (checked launch), cuda-graph
 * (checked launch replayed from a graph per key) and cuda-raw (the
 * production kernel).
 *
 * Each case is uploaded with its buffers' prior contents, run, and its
 * buffers downloaded; the synchronisation lives here, in the harness, not
 * in the launch. Device memory only grows, so a fuzzing loop allocates
 * nothing per case. A CUDA error is returned as GM_ERR_DEVICE: sticky
 * errors (an illegal address) leave the context unusable for the rest of
 * the process, so recovering is the worker's parent's job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "fused_cpu.h"
#include "fused_cuda.h"
#include "harness_backend_cuda.h"
#include "harness_cuda_arena.h"
#include "harness_cuda_graphs.h"
#include "harness_inputs.h"
#include "harness_launch.h"

/* Device memory for shared blocks: no mirror (the block is the staging),
 * and room for the largest case from the start, because growing it is a
 * cudaFree, which waits for the whole device (every lane of a hub). */
#define HARNESS_BACKEND_CUDA_BLOCK_MIN ((size_t)32 << 20)

struct harness_backend_cuda {
    harness_cuda_mode mode;
    cudaStream_t stream;
    harness_cuda_arena arena;   /* cuda, cuda-raw */
    harness_cuda_graphs graphs; /* cuda-graph */
    unsigned char *block_dev; /* shared blocks' launches run here */
    unsigned char *block_back; /* and come back here (pinned), inputs included */
    size_t block_dev_size;
    harness_backend_cuda_times times;
};

static bool harness_backend_cuda_fail(gm_error *err, const char *what, cudaError_t e) {
    return gm_error_set(err, GM_ERR_DEVICE, "backend cuda: %s: %s (%s)", what,
                        cudaGetErrorString(e), cudaGetErrorName(e));
}

bool harness_backend_cuda_open(harness_cuda_mode mode, harness_backend_cuda **out, gm_error *err) {
    *out = NULL;
    int devices = 0;
    cudaError_t e = cudaGetDeviceCount(&devices);
    if (e != cudaSuccess || devices == 0) {
        return gm_error_set(err, GM_ERR_DEVICE, "backend cuda: no CUDA device available (%s)",
                            e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    }
    harness_backend_cuda *cu = calloc(1, sizeof *cu);
    if (cu == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory opening backend cuda");
    }
    cu->mode = mode;
    e = cudaStreamCreateWithFlags(&cu->stream, cudaStreamNonBlocking);
    if (e != cudaSuccess) {
        free(cu);
        return harness_backend_cuda_fail(err, "creating a stream", e);
    }
    *out = cu;
    return true;
}

void harness_backend_cuda_close(harness_backend_cuda *cu) {
    if (cu == NULL) {
        return;
    }
    harness_cuda_arena_release(&cu->arena);
    harness_cuda_graphs_release(&cu->graphs);
    cudaFree(cu->block_dev);
    cudaFreeHost(cu->block_back);
    cudaStreamDestroy(cu->stream);
    free(cu);
}

/* One eager launch (cuda, cuda-raw): upload, launch, download. */
static cudaError_t harness_backend_cuda_eager(harness_backend_cuda *cu, fused_params *host,
                                              fused_cuda_status *seen) {
    cudaError_t e = harness_cuda_arena_reserve(&cu->arena, harness_cuda_arena_need(host));
    fused_params dev = *host; /* device pointers once uploaded */
    fused_cuda_status *status = NULL;
    if (e == cudaSuccess) {
        harness_cuda_arena_upload(&cu->arena, host, &dev, &status, cu->stream, &e);
    }
    bool checked = cu->mode != HARNESS_CUDA_RAW;
    if (e == cudaSuccess && checked) {
        e = cudaMemsetAsync(status, 0, sizeof *status, cu->stream);
    }
    if (e == cudaSuccess) {
        e = fused_cuda_launch(&dev, checked, status, cu->stream);
    }
    harness_cuda_arena_download(&cu->arena, &dev, host, checked ? seen : NULL, cu->stream, &e);
    return e;
}

static void harness_backend_cuda_describe_oob(const fused_cuda_status *s, char *out, size_t size) {
    fused_oob oob = {
        .hit = true,
        .buf = (fused_buf)s->buf,
        .write = s->write != 0,
        .index = s->index,
        .row = s->row,
        .len = s->len,
    };
    char what[160];
    fused_oob_describe(&oob, what, sizeof what);
    snprintf(out, size, "out_of_bounds: %s", what);
}

static void harness_backend_cuda_report_oob(const fused_cuda_status *s, gm_outputs *out) {
    char what[200];
    harness_backend_cuda_describe_oob(s, what, sizeof what);
    gm_outputs_set_error(out, "%s", what);
}

bool harness_backend_cuda_run(harness_backend_cuda *cu, const gm_case *c, gm_outputs *out,
                              gm_error *err) {
    fused_params host;
    harness_launch_params(c, out, &host);
    if (host.bs <= 0) {
        return true; /* nothing is launched for an empty batch */
    }
    fused_cuda_status seen = {0};
    harness_cuda_arena *arena = &cu->arena;
    cudaError_t e = cu->mode == HARNESS_CUDA_GRAPH
                        ? harness_cuda_graphs_run(&cu->graphs, &host, cu->stream, &seen, &arena)
                        : harness_backend_cuda_eager(cu, &host, &seen);
    if (e == cudaSuccess) {
        e = cudaStreamSynchronize(cu->stream);
    }
    if (e == cudaSuccess) {
        harness_cuda_arena_unpack(arena);
    }
    if (e != cudaSuccess) {
        return harness_backend_cuda_fail(err, "running the kernel", e);
    }
    char what[HARNESS_INPUTS_WHAT_MAX];
    if (seen.claimed) {
        harness_backend_cuda_report_oob(&seen, out);
    } else if (harness_cuda_arena_inputs_changed(arena, &host, what, sizeof what)) {
        harness_inputs_report(out, what);
    }
    return true;
}

static double harness_backend_cuda_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static cudaError_t harness_backend_cuda_block_room(harness_backend_cuda *cu, size_t bytes) {
    if (bytes <= cu->block_dev_size) {
        return cudaSuccess;
    }
    cudaFree(cu->block_dev);
    cudaFreeHost(cu->block_back);
    cu->block_dev = NULL;
    cu->block_back = NULL;
    cu->block_dev_size = 0;
    size_t size =
        bytes * 2 > HARNESS_BACKEND_CUDA_BLOCK_MIN ? bytes * 2 : HARNESS_BACKEND_CUDA_BLOCK_MIN;
    cudaError_t e = cudaMalloc((void **)&cu->block_dev, size);
    if (e == cudaSuccess) {
        e = cudaMallocHost((void **)&cu->block_back, size);
    }
    if (e == cudaSuccess) {
        cu->block_dev_size = size;
        cu->times.grows++;
    }
    return e;
}

/* Enqueues the block's launches on the device copy of [lo, hi), then the
 * download of all of [lo, hi) into block_back: the outputs, and the inputs
 * to compare with what the block sent (harness_backend_cuda_take_block). */
static cudaError_t harness_backend_cuda_enqueue_block(harness_backend_cuda *cu,
                                                      unsigned char *block,
                                                      const harness_layout_launch *launches,
                                                      size_t n, size_t lo, size_t hi) {
    cudaError_t e = harness_backend_cuda_block_room(cu, hi - lo);
    const uintptr_t dev = (uintptr_t)cu->block_dev - lo; /* where offset 0 would be */
    if (e == cudaSuccess) {
        e = cudaMemcpyAsync(cu->block_dev, block + lo, hi - lo, cudaMemcpyHostToDevice,
                            cu->stream);
    }
    const bool checked = cu->mode != HARNESS_CUDA_RAW;
    for (size_t i = 0; i < n && e == cudaSuccess; i++) {
        const harness_layout_span *s = &launches[i].span;
        fused_params d = launches[i].params;
        harness_layout_rebase(&d, dev);
        e = fused_cuda_launch(&d, checked, (fused_cuda_status *)(dev + s->status_at), cu->stream);
    }
    if (e == cudaSuccess) {
        e = cudaMemcpyAsync(cu->block_back, cu->block_dev, hi - lo, cudaMemcpyDeviceToHost,
                            cu->stream);
    }
    return e;
}

/* After the block came back (block_back holds [lo, hi)): each launch's
 * outputs and status into the block, and its error: the first
 * out-of-bounds access the checked kernel skipped, else the first input
 * that came back other than the block sent it. */
static void harness_backend_cuda_take_block(harness_backend_cuda *cu, unsigned char *block,
                                            const harness_layout_launch *launches, size_t n,
                                            size_t lo, char *errors, size_t error_size) {
    const uintptr_t back = (uintptr_t)cu->block_back - lo; /* where offset 0 would be */
    for (size_t i = 0; i < n; i++) {
        const harness_layout_span *s = &launches[i].span;
        memcpy(block + s->outputs_at, (const void *)(back + s->outputs_at),
               s->end - s->outputs_at);
        fused_cuda_status seen;
        memcpy(&seen, block + s->status_at, sizeof seen);
        char *error = &errors[i * error_size];
        char what[HARNESS_INPUTS_WHAT_MAX];
        fused_params sent = launches[i].params; /* offsets: `back` is where 0 would be */
        harness_layout_rebase(&sent, (uintptr_t)block);
        if (cu->mode != HARNESS_CUDA_RAW && seen.claimed) {
            harness_backend_cuda_describe_oob(&seen, error, error_size);
        } else if (harness_inputs_launch_changed(&sent, &launches[i].params, back, what,
                                                 sizeof what)) {
            harness_inputs_format(error, error_size, what);
        }
    }
}

bool harness_backend_cuda_run_block(harness_backend_cuda *cu, unsigned char *block,
                                    const harness_layout_launch *launches, size_t n, char *errors,
                                    size_t error_size, gm_error *err) {
    if (cu->mode == HARNESS_CUDA_GRAPH) {
        return gm_error_set(err, GM_ERR_USAGE, "backend cuda-graph: no shared blocks");
    }
    size_t lo = SIZE_MAX, hi = 0;
    for (size_t i = 0; i < n; i++) {
        lo = launches[i].span.begin < lo ? launches[i].span.begin : lo;
        hi = launches[i].span.end > hi ? launches[i].span.end : hi;
        errors[i * error_size] = '\0';
    }
    if (n == 0) {
        return true;
    }
    double t0 = harness_backend_cuda_now();
    cudaError_t e = harness_backend_cuda_enqueue_block(cu, block, launches, n, lo, hi);
    double t1 = harness_backend_cuda_now();
    if (e == cudaSuccess) {
        e = cudaStreamSynchronize(cu->stream);
    }
    cu->times.enqueue_s += t1 - t0;
    cu->times.sync_s += harness_backend_cuda_now() - t1;
    if (e != cudaSuccess) {
        return harness_backend_cuda_fail(err, "running a shared block", e);
    }
    harness_backend_cuda_take_block(cu, block, launches, n, lo, errors, error_size);
    return true;
}

bool harness_backend_cuda_pin(harness_backend_cuda *cu, void *block, size_t size) {
    double t0 = harness_backend_cuda_now();
    bool pinned = cudaHostRegister(block, size, cudaHostRegisterDefault) == cudaSuccess;
    if (!pinned) {
        (void)cudaGetLastError(); /* not sticky: forget it */
    }
    cu->times.pin_s += harness_backend_cuda_now() - t0;
    return pinned;
}

void harness_backend_cuda_unpin(harness_backend_cuda *cu, void *block) {
    double t0 = harness_backend_cuda_now();
    cudaHostUnregister(block);
    cu->times.pin_s += harness_backend_cuda_now() - t0;
}

harness_backend_cuda_times harness_backend_cuda_times_of(const harness_backend_cuda *cu) {
    return cu->times;
}

_Static_assert(sizeof(fused_cuda_status) <= HARNESS_LAYOUT_STATUS_BYTES,
               "a laid-out launch's status slot holds the checked kernel's record");

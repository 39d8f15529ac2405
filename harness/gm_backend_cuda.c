/* The CUDA backends, in the process that owns the CUDA context (a worker
 * process, harness/gm_worker.c): cuda (checked launch), cuda-graph
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

#include <cuda_runtime_api.h>

#include "fused_cpu.h"
#include "fused_cuda.h"
#include "gm_backend_impl.h"
#include "gm_cuda_arena.h"
#include "gm_cuda_graphs.h"

struct gm_backend_cuda {
    gm_cuda_mode mode;
    cudaStream_t stream;
    gm_cuda_arena arena;   /* cuda, cuda-raw */
    gm_cuda_graphs graphs; /* cuda-graph */
};

static bool gm_backend_cuda_fail(gm_error *err, const char *what, cudaError_t e) {
    return gm_error_set(err, GM_ERR_DEVICE, "backend cuda: %s: %s (%s)", what,
                        cudaGetErrorString(e), cudaGetErrorName(e));
}

bool gm_backend_cuda_open(gm_cuda_mode mode, gm_backend_cuda **out, gm_error *err) {
    *out = NULL;
    int devices = 0;
    cudaError_t e = cudaGetDeviceCount(&devices);
    if (e != cudaSuccess || devices == 0) {
        return gm_error_set(err, GM_ERR_DEVICE, "backend cuda: no CUDA device available (%s)",
                            e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    }
    gm_backend_cuda *cu = calloc(1, sizeof *cu);
    if (cu == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory opening backend cuda");
    }
    cu->mode = mode;
    e = cudaStreamCreateWithFlags(&cu->stream, cudaStreamNonBlocking);
    if (e != cudaSuccess) {
        free(cu);
        return gm_backend_cuda_fail(err, "creating a stream", e);
    }
    *out = cu;
    return true;
}

void gm_backend_cuda_close(gm_backend_cuda *cu) {
    if (cu == NULL) {
        return;
    }
    gm_cuda_arena_release(&cu->arena);
    gm_cuda_graphs_release(&cu->graphs);
    cudaStreamDestroy(cu->stream);
    free(cu);
}

/* One eager launch (cuda, cuda-raw): upload, launch, download. */
static cudaError_t gm_backend_cuda_eager(gm_backend_cuda *cu, fused_params *host,
                                         fused_cuda_status *seen) {
    cudaError_t e = gm_cuda_arena_reserve(&cu->arena, gm_cuda_arena_need(host));
    fused_params dev = *host; /* device pointers once uploaded */
    fused_cuda_status *status = NULL;
    if (e == cudaSuccess) {
        gm_cuda_arena_upload(&cu->arena, host, &dev, &status, cu->stream, &e);
    }
    bool checked = cu->mode != GM_CUDA_RAW;
    if (e == cudaSuccess && checked) {
        e = cudaMemsetAsync(status, 0, sizeof *status, cu->stream);
    }
    if (e == cudaSuccess) {
        e = fused_cuda_launch(&dev, checked, status, cu->stream);
    }
    gm_cuda_arena_download(&cu->arena, &dev, host, checked ? seen : NULL, cu->stream, &e);
    return e;
}

static void gm_backend_cuda_report_oob(const fused_cuda_status *s, gm_outputs *out) {
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
    gm_outputs_set_error(out, "out_of_bounds: %s", what);
}

bool gm_backend_cuda_run(gm_backend_cuda *cu, const gm_case *c, gm_outputs *out,
                         gm_error *err) {
    fused_params host;
    gm_backend_params(c, out, &host);
    if (host.bs <= 0) {
        return true; /* nothing is launched for an empty batch */
    }
    fused_cuda_status seen = {0};
    gm_cuda_arena *arena = &cu->arena;
    cudaError_t e = cu->mode == GM_CUDA_GRAPH
                        ? gm_cuda_graphs_run(&cu->graphs, &host, cu->stream, &seen, &arena)
                        : gm_backend_cuda_eager(cu, &host, &seen);
    if (e == cudaSuccess) {
        e = cudaStreamSynchronize(cu->stream);
    }
    if (e == cudaSuccess) {
        gm_cuda_arena_unpack(arena);
    }
    if (e != cudaSuccess) {
        return gm_backend_cuda_fail(err, "running the kernel", e);
    }
    if (seen.claimed) {
        gm_backend_cuda_report_oob(&seen, out);
    }
    return true;
}

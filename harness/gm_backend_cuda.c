/* The CUDA backend: uploads a case and the buffers' prior contents into one
 * device arena, enqueues the checked kernel, and downloads the buffers.
 *
 * The arena only grows (one cudaMalloc when a case needs more than any
 * before it), so a fuzzing loop allocates nothing per case. Transfers and
 * the synchronisation live here, in the harness: the launch itself
 * (fused_cuda_launch) does neither.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "fused_cpu.h"
#include "fused_cuda.h"
#include "gm_backend_impl.h"

#define GM_CUDA_ALIGN ((size_t)256)

struct gm_backend_cuda {
    cudaStream_t stream;
    unsigned char *arena;
    size_t capacity;
    size_t used;
};

static bool gm_backend_cuda_fail(gm_error *err, const char *what, cudaError_t e) {
    return gm_error_set(err, GM_ERR_DEVICE, "backend cuda: %s: %s (%s)", what,
                        cudaGetErrorString(e), cudaGetErrorName(e));
}

bool gm_backend_cuda_open(gm_backend_cuda **out, gm_error *err) {
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
    cudaFree(cu->arena);
    cudaStreamDestroy(cu->stream);
    free(cu);
}

static size_t gm_backend_cuda_round(size_t bytes) {
    return (bytes + GM_CUDA_ALIGN - 1) / GM_CUDA_ALIGN * GM_CUDA_ALIGN;
}

/* Bytes that one case needs in the arena: every buffer the launch sees. */
static size_t gm_backend_cuda_need(const fused_params *p) {
    size_t bs = (size_t)p->bs, rows = (size_t)p->req_to_token_rows;
    size_t cells = bs * (size_t)p->page_table_stride;
    return gm_backend_cuda_round(bs * 8) * 2 +
           gm_backend_cuda_round(rows * (size_t)p->req_to_token_stride * 4) +
           gm_backend_cuda_round((size_t)p->swa_mapping_len * 8) +
           gm_backend_cuda_round((size_t)p->n_out * 8) + gm_backend_cuda_round(bs * 4) * 2 +
           gm_backend_cuda_round((bs + 1) * 4) * 2 + gm_backend_cuda_round(cells * 4) * 2 +
           gm_backend_cuda_round((size_t)p->out_len * 8) +
           gm_backend_cuda_round(sizeof(fused_cuda_status));
}

static bool gm_backend_cuda_reserve(gm_backend_cuda *cu, size_t bytes, gm_error *err) {
    cu->used = 0;
    if (bytes <= cu->capacity) {
        return true;
    }
    cudaFree(cu->arena);
    cu->arena = NULL;
    cu->capacity = 0;
    size_t grown = bytes + bytes / 2;
    cudaError_t e = cudaMalloc((void **)&cu->arena, grown);
    if (e != cudaSuccess) {
        return gm_backend_cuda_fail(err, "allocating the device arena", e);
    }
    cu->capacity = grown;
    return true;
}

/* Places `count` elements of `size` bytes in the arena and uploads `src`
 * (when given). NULL host buffers stay NULL on the device. */
static void *gm_backend_cuda_place(gm_backend_cuda *cu, const void *src, size_t count,
                                   size_t size, cudaError_t *e) {
    if (src == NULL) {
        return NULL;
    }
    void *dst = cu->arena + cu->used;
    cu->used += gm_backend_cuda_round(count * size);
    if (*e == cudaSuccess && count > 0) {
        *e = cudaMemcpyAsync(dst, src, count * size, cudaMemcpyHostToDevice, cu->stream);
    }
    return dst;
}

static void gm_backend_cuda_fetch(gm_backend_cuda *cu, void *host, const void *dev, size_t count,
                                  size_t size, cudaError_t *e) {
    if (host != NULL && count > 0 && *e == cudaSuccess) {
        *e = cudaMemcpyAsync(host, dev, count * size, cudaMemcpyDeviceToHost, cu->stream);
    }
}

/* The device copy of `h`: same scalars, every pointer moved to the arena. */
static void gm_backend_cuda_upload(gm_backend_cuda *cu, const fused_params *h, fused_params *d,
                                   cudaError_t *e) {
    size_t bs = (size_t)h->bs, cells = bs * (size_t)h->page_table_stride;
    *d = *h;
    d->req_pool_indices = gm_backend_cuda_place(cu, h->req_pool_indices, bs, 8, e);
    d->seq_lens = gm_backend_cuda_place(cu, h->seq_lens, bs, 8, e);
    d->req_to_token = gm_backend_cuda_place(
        cu, h->req_to_token, (size_t)(h->req_to_token_rows * h->req_to_token_stride), 4, e);
    d->swa_mapping = gm_backend_cuda_place(cu, h->swa_mapping, (size_t)h->swa_mapping_len, 8, e);
    d->out_cache_loc = gm_backend_cuda_place(cu, h->out_cache_loc, (size_t)h->n_out, 8, e);
    d->qlens = gm_backend_cuda_place(cu, h->qlens, bs, 4, e);
    d->cache_seqlens = gm_backend_cuda_place(cu, h->cache_seqlens, bs, 4, e);
    d->cu_seqlens_k = gm_backend_cuda_place(cu, h->cu_seqlens_k, bs + 1, 4, e);
    d->cu_seqlens_q = gm_backend_cuda_place(cu, h->cu_seqlens_q, bs + 1, 4, e);
    d->page_table = gm_backend_cuda_place(cu, h->page_table, cells, 4, e);
    d->swa_page_table = gm_backend_cuda_place(cu, h->swa_page_table, cells, 4, e);
    d->swa_out_cache_loc =
        gm_backend_cuda_place(cu, h->swa_out_cache_loc, (size_t)h->out_len, 8, e);
}

static void gm_backend_cuda_download(gm_backend_cuda *cu, const fused_params *d, fused_params *h,
                                     cudaError_t *e) {
    size_t bs = (size_t)h->bs, cells = bs * (size_t)h->page_table_stride;
    gm_backend_cuda_fetch(cu, h->cache_seqlens, d->cache_seqlens, bs, 4, e);
    gm_backend_cuda_fetch(cu, h->cu_seqlens_k, d->cu_seqlens_k, bs + 1, 4, e);
    gm_backend_cuda_fetch(cu, h->cu_seqlens_q, d->cu_seqlens_q, bs + 1, 4, e);
    gm_backend_cuda_fetch(cu, h->page_table, d->page_table, cells, 4, e);
    gm_backend_cuda_fetch(cu, h->swa_page_table, d->swa_page_table, cells, 4, e);
    gm_backend_cuda_fetch(cu, h->swa_out_cache_loc, d->swa_out_cache_loc, (size_t)h->out_len, 8,
                          e);
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

bool gm_backend_cuda_run(gm_backend_cuda *cu, const gm_case *c, gm_outputs *out, gm_error *err) {
    fused_params host, dev;
    gm_backend_params(c, out, &host);
    if (host.bs <= 0) {
        return true; /* nothing is launched for an empty batch */
    }
    if (!gm_backend_cuda_reserve(cu, gm_backend_cuda_need(&host), err)) {
        return false;
    }
    cudaError_t e = cudaSuccess;
    gm_backend_cuda_upload(cu, &host, &dev, &e);
    fused_cuda_status *status = (fused_cuda_status *)(cu->arena + cu->used);
    if (e == cudaSuccess) {
        e = cudaMemsetAsync(status, 0, sizeof *status, cu->stream);
    }
    if (e == cudaSuccess) {
        e = fused_cuda_launch(&dev, 1, status, cu->stream);
    }
    fused_cuda_status seen = {0};
    gm_backend_cuda_download(cu, &dev, &host, &e);
    if (e == cudaSuccess) {
        e = cudaMemcpyAsync(&seen, status, sizeof seen, cudaMemcpyDeviceToHost, cu->stream);
    }
    if (e == cudaSuccess) {
        e = cudaStreamSynchronize(cu->stream);
    }
    if (e != cudaSuccess) {
        return gm_backend_cuda_fail(err, "running the kernel", e);
    }
    if (seen.claimed) {
        gm_backend_cuda_report_oob(&seen, out);
    }
    return true;
}

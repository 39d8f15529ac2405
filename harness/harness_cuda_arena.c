#include "harness_cuda_arena.h"

#include <string.h>

#include "harness_inputs.h"
#include "harness_layout.h"

size_t harness_cuda_arena_need(const fused_params *p) { return harness_layout_need(p); }

cudaError_t harness_cuda_arena_reserve(harness_cuda_arena *a, size_t bytes) {
    a->used = 0;
    if (bytes <= a->capacity) {
        return cudaSuccess;
    }
    harness_cuda_arena_release(a);
    size_t grown = bytes + bytes / 2;
    cudaError_t e = cudaMalloc((void **)&a->base, grown);
    if (e == cudaSuccess) {
        e = cudaMallocHost((void **)&a->mirror, grown);
    }
    if (e == cudaSuccess) {
        a->capacity = grown;
    } else {
        harness_cuda_arena_release(a);
    }
    return e;
}

void harness_cuda_arena_release(harness_cuda_arena *a) {
    cudaFree(a->base);
    cudaFreeHost(a->mirror);
    harness_cuda_arena_forget(a);
}

void harness_cuda_arena_forget(harness_cuda_arena *a) {
    a->base = NULL;
    a->mirror = NULL;
    a->capacity = 0;
    a->used = 0;
}

void harness_cuda_arena_upload(harness_cuda_arena *a, const fused_params *h, fused_params *d,
                               fused_cuda_status **status, cudaStream_t s, cudaError_t *e) {
    harness_layout_span span;
    harness_layout_place(h, a->mirror, 0, (uintptr_t)a->base, d, &span);
    a->outputs_at = span.outputs_at;
    a->status_at = span.status_at;
    a->used = span.end;
    a->placed = *d;
    *status = (fused_cuda_status *)(a->base + span.status_at);
    if (*e == cudaSuccess && a->used > 0) {
        *e = cudaMemcpyAsync(a->base, a->mirror, a->used, cudaMemcpyHostToDevice, s);
    }
}

/* Notes that `count` elements of `size` bytes at device address `dev` go
 * to `host` once the download is in. */
static void harness_cuda_arena_fetch(harness_cuda_arena *a, void *host, const void *dev,
                                     size_t count, size_t size) {
    if (host != NULL && count > 0 && a->n_fetch < HARNESS_CUDA_ARENA_FETCHES) {
        size_t offset = (size_t)((const unsigned char *)dev - a->base);
        a->fetch[a->n_fetch++] = (harness_cuda_arena_fetch_t){host, offset, count * size};
    }
}

void harness_cuda_arena_download(harness_cuda_arena *a, const fused_params *d, fused_params *h,
                                 fused_cuda_status *seen, cudaStream_t s, cudaError_t *e) {
    size_t bs = (size_t)h->bs, cells = bs * (size_t)h->page_table_stride;
    a->n_fetch = 0;
    harness_cuda_arena_fetch(a, h->cache_seqlens, d->cache_seqlens, bs, 4);
    harness_cuda_arena_fetch(a, h->cu_seqlens_k, d->cu_seqlens_k, bs + 1, 4);
    harness_cuda_arena_fetch(a, h->cu_seqlens_q, d->cu_seqlens_q, bs + 1, 4);
    harness_cuda_arena_fetch(a, h->page_table, d->page_table, cells, 4);
    harness_cuda_arena_fetch(a, h->swa_page_table, d->swa_page_table, cells, 4);
    harness_cuda_arena_fetch(a, h->swa_out_cache_loc, d->swa_out_cache_loc, (size_t)h->out_len, 8);
    harness_cuda_arena_fetch(a, seen, a->base + a->status_at, 1, sizeof *seen);
    if (*e == cudaSuccess && a->used > 0) {
        *e = cudaMemcpyAsync(a->mirror, a->base, a->used, cudaMemcpyDeviceToHost, s);
    }
}

void harness_cuda_arena_unpack(harness_cuda_arena *a) {
    for (int k = 0; k < a->n_fetch; k++) {
        memcpy(a->fetch[k].host, a->mirror + a->fetch[k].offset, a->fetch[k].bytes);
    }
    a->n_fetch = 0;
}

bool harness_cuda_arena_inputs_changed(const harness_cuda_arena *a, const fused_params *host,
                                       char *what, size_t size) {
    const uintptr_t shift = (uintptr_t)a->mirror - (uintptr_t)a->base; /* device -> mirror */
    return harness_inputs_launch_changed(host, &a->placed, shift, what, size);
}

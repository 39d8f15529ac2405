#include "gm_cuda_arena.h"

#include <string.h>

#define GM_CUDA_ARENA_ALIGN ((size_t)256)

static size_t gm_cuda_arena_round(size_t bytes) {
    return (bytes + GM_CUDA_ARENA_ALIGN - 1) / GM_CUDA_ARENA_ALIGN * GM_CUDA_ARENA_ALIGN;
}

size_t gm_cuda_arena_need(const fused_params *p) {
    size_t bs = (size_t)p->bs, rows = (size_t)p->req_to_token_rows;
    size_t cells = bs * (size_t)p->page_table_stride;
    return gm_cuda_arena_round(bs * 8) * 2 +
           gm_cuda_arena_round(rows * (size_t)p->req_to_token_stride * 4) +
           gm_cuda_arena_round((size_t)p->swa_mapping_len * 8) +
           gm_cuda_arena_round((size_t)p->n_out * 8) + gm_cuda_arena_round(bs * 4) * 2 +
           gm_cuda_arena_round((bs + 1) * 4) * 2 + gm_cuda_arena_round(cells * 4) * 2 +
           gm_cuda_arena_round((size_t)p->out_len * 8) +
           gm_cuda_arena_round(sizeof(fused_cuda_status));
}

cudaError_t gm_cuda_arena_reserve(gm_cuda_arena *a, size_t bytes) {
    a->used = 0;
    if (bytes <= a->capacity) {
        return cudaSuccess;
    }
    gm_cuda_arena_release(a);
    size_t grown = bytes + bytes / 2;
    cudaError_t e = cudaMalloc((void **)&a->base, grown);
    if (e == cudaSuccess) {
        e = cudaMallocHost((void **)&a->mirror, grown);
    }
    if (e == cudaSuccess) {
        a->capacity = grown;
    } else {
        gm_cuda_arena_release(a);
    }
    return e;
}

void gm_cuda_arena_release(gm_cuda_arena *a) {
    cudaFree(a->base);
    cudaFreeHost(a->mirror);
    gm_cuda_arena_forget(a);
}

void gm_cuda_arena_forget(gm_cuda_arena *a) {
    a->base = NULL;
    a->mirror = NULL;
    a->capacity = 0;
    a->used = 0;
}

/* Places `count` elements of `size` bytes, `src` (when given) copied into
 * the mirror. A NULL host buffer stays NULL on the device. */
static void *gm_cuda_arena_place(gm_cuda_arena *a, const void *src, size_t count, size_t size) {
    if (src == NULL) {
        return NULL;
    }
    void *dst = a->base + a->used;
    if (count > 0) {
        memcpy(a->mirror + a->used, src, count * size);
    }
    a->used += gm_cuda_arena_round(count * size);
    return dst;
}

void gm_cuda_arena_upload(gm_cuda_arena *a, const fused_params *h, fused_params *d,
                          fused_cuda_status **status, cudaStream_t s, cudaError_t *e) {
    size_t bs = (size_t)h->bs, cells = bs * (size_t)h->page_table_stride;
    size_t tokens = (size_t)(h->req_to_token_rows * h->req_to_token_stride);
    *d = *h;
    d->req_pool_indices = gm_cuda_arena_place(a, h->req_pool_indices, bs, 8);
    d->seq_lens = gm_cuda_arena_place(a, h->seq_lens, bs, 8);
    d->req_to_token = gm_cuda_arena_place(a, h->req_to_token, tokens, 4);
    d->swa_mapping = gm_cuda_arena_place(a, h->swa_mapping, (size_t)h->swa_mapping_len, 8);
    d->out_cache_loc = gm_cuda_arena_place(a, h->out_cache_loc, (size_t)h->n_out, 8);
    d->qlens = gm_cuda_arena_place(a, h->qlens, bs, 4);
    a->outputs_at = a->used;
    d->cache_seqlens = gm_cuda_arena_place(a, h->cache_seqlens, bs, 4);
    d->cu_seqlens_k = gm_cuda_arena_place(a, h->cu_seqlens_k, bs + 1, 4);
    d->cu_seqlens_q = gm_cuda_arena_place(a, h->cu_seqlens_q, bs + 1, 4);
    d->page_table = gm_cuda_arena_place(a, h->page_table, cells, 4);
    d->swa_page_table = gm_cuda_arena_place(a, h->swa_page_table, cells, 4);
    d->swa_out_cache_loc = gm_cuda_arena_place(a, h->swa_out_cache_loc, (size_t)h->out_len, 8);
    memset(a->mirror + a->used, 0, sizeof(fused_cuda_status));
    *status = (fused_cuda_status *)(a->base + a->used);
    a->used += gm_cuda_arena_round(sizeof(fused_cuda_status));
    if (*e == cudaSuccess && a->used > 0) {
        *e = cudaMemcpyAsync(a->base, a->mirror, a->used, cudaMemcpyHostToDevice, s);
    }
}

/* Notes that `count` elements of `size` bytes at device address `dev` go
 * to `host` once the download is in. */
static void gm_cuda_arena_fetch(gm_cuda_arena *a, void *host, const void *dev, size_t count,
                                size_t size) {
    if (host != NULL && count > 0 && a->n_fetch < GM_CUDA_ARENA_FETCHES) {
        size_t offset = (size_t)((const unsigned char *)dev - a->base);
        a->fetch[a->n_fetch++] = (gm_cuda_arena_fetch_t){host, offset, count * size};
    }
}

void gm_cuda_arena_download(gm_cuda_arena *a, const fused_params *d, fused_params *h,
                            fused_cuda_status *seen, cudaStream_t s, cudaError_t *e) {
    size_t bs = (size_t)h->bs, cells = bs * (size_t)h->page_table_stride;
    a->n_fetch = 0;
    gm_cuda_arena_fetch(a, h->cache_seqlens, d->cache_seqlens, bs, 4);
    gm_cuda_arena_fetch(a, h->cu_seqlens_k, d->cu_seqlens_k, bs + 1, 4);
    gm_cuda_arena_fetch(a, h->cu_seqlens_q, d->cu_seqlens_q, bs + 1, 4);
    gm_cuda_arena_fetch(a, h->page_table, d->page_table, cells, 4);
    gm_cuda_arena_fetch(a, h->swa_page_table, d->swa_page_table, cells, 4);
    gm_cuda_arena_fetch(a, h->swa_out_cache_loc, d->swa_out_cache_loc, (size_t)h->out_len, 8);
    size_t status_at = a->used - gm_cuda_arena_round(sizeof(fused_cuda_status));
    gm_cuda_arena_fetch(a, seen, a->base + status_at, 1, sizeof *seen);
    if (*e == cudaSuccess && a->used > a->outputs_at) {
        *e = cudaMemcpyAsync(a->mirror + a->outputs_at, a->base + a->outputs_at,
                             a->used - a->outputs_at, cudaMemcpyDeviceToHost, s);
    }
}

void gm_cuda_arena_unpack(gm_cuda_arena *a) {
    for (int k = 0; k < a->n_fetch; k++) {
        memcpy(a->fetch[k].host, a->mirror + a->fetch[k].offset, a->fetch[k].bytes);
    }
    a->n_fetch = 0;
}

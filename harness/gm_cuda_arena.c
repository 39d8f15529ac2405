#include "gm_cuda_arena.h"

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
        a->capacity = grown;
    }
    return e;
}

void gm_cuda_arena_release(gm_cuda_arena *a) {
    cudaFree(a->base);
    gm_cuda_arena_forget(a);
}

void gm_cuda_arena_forget(gm_cuda_arena *a) {
    a->base = NULL;
    a->capacity = 0;
    a->used = 0;
}

/* Places `count` elements of `size` bytes and uploads `src` (when given).
 * A NULL host buffer stays NULL on the device. */
static void *gm_cuda_arena_place(gm_cuda_arena *a, const void *src, size_t count, size_t size,
                                 cudaStream_t stream, cudaError_t *e) {
    if (src == NULL) {
        return NULL;
    }
    void *dst = a->base + a->used;
    a->used += gm_cuda_arena_round(count * size);
    if (*e == cudaSuccess && count > 0) {
        *e = cudaMemcpyAsync(dst, src, count * size, cudaMemcpyHostToDevice, stream);
    }
    return dst;
}

void gm_cuda_arena_upload(gm_cuda_arena *a, const fused_params *h, fused_params *d,
                          fused_cuda_status **status, cudaStream_t s, cudaError_t *e) {
    size_t bs = (size_t)h->bs, cells = bs * (size_t)h->page_table_stride;
    size_t tokens = (size_t)(h->req_to_token_rows * h->req_to_token_stride);
    *d = *h;
    d->req_pool_indices = gm_cuda_arena_place(a, h->req_pool_indices, bs, 8, s, e);
    d->seq_lens = gm_cuda_arena_place(a, h->seq_lens, bs, 8, s, e);
    d->req_to_token = gm_cuda_arena_place(a, h->req_to_token, tokens, 4, s, e);
    d->swa_mapping = gm_cuda_arena_place(a, h->swa_mapping, (size_t)h->swa_mapping_len, 8, s, e);
    d->out_cache_loc = gm_cuda_arena_place(a, h->out_cache_loc, (size_t)h->n_out, 8, s, e);
    d->qlens = gm_cuda_arena_place(a, h->qlens, bs, 4, s, e);
    d->cache_seqlens = gm_cuda_arena_place(a, h->cache_seqlens, bs, 4, s, e);
    d->cu_seqlens_k = gm_cuda_arena_place(a, h->cu_seqlens_k, bs + 1, 4, s, e);
    d->cu_seqlens_q = gm_cuda_arena_place(a, h->cu_seqlens_q, bs + 1, 4, s, e);
    d->page_table = gm_cuda_arena_place(a, h->page_table, cells, 4, s, e);
    d->swa_page_table = gm_cuda_arena_place(a, h->swa_page_table, cells, 4, s, e);
    d->swa_out_cache_loc =
        gm_cuda_arena_place(a, h->swa_out_cache_loc, (size_t)h->out_len, 8, s, e);
    *status = (fused_cuda_status *)(a->base + a->used);
    a->used += gm_cuda_arena_round(sizeof(fused_cuda_status));
}

static void gm_cuda_arena_fetch(void *host, const void *dev, size_t count, size_t size,
                                cudaStream_t s, cudaError_t *e) {
    if (host != NULL && count > 0 && *e == cudaSuccess) {
        *e = cudaMemcpyAsync(host, dev, count * size, cudaMemcpyDeviceToHost, s);
    }
}

void gm_cuda_arena_download(const fused_params *d, fused_params *h, cudaStream_t s,
                            cudaError_t *e) {
    size_t bs = (size_t)h->bs, cells = bs * (size_t)h->page_table_stride;
    gm_cuda_arena_fetch(h->cache_seqlens, d->cache_seqlens, bs, 4, s, e);
    gm_cuda_arena_fetch(h->cu_seqlens_k, d->cu_seqlens_k, bs + 1, 4, s, e);
    gm_cuda_arena_fetch(h->cu_seqlens_q, d->cu_seqlens_q, bs + 1, 4, s, e);
    gm_cuda_arena_fetch(h->page_table, d->page_table, cells, 4, s, e);
    gm_cuda_arena_fetch(h->swa_page_table, d->swa_page_table, cells, 4, s, e);
    gm_cuda_arena_fetch(h->swa_out_cache_loc, d->swa_out_cache_loc, (size_t)h->out_len, 8, s, e);
}

/* fused_extent: the real allocation of each buffer of a launch, from the
 * launch's own description of its buffers (fused_params: the pointers and
 * sizes the launcher allocated), never from what the semantics pass to an
 * access. The checked executions bound every access by this, so that a
 * semantics that computes a wrong length or row width (a bug of the very
 * kind gmfuzz hunts) is reported, not performed past the buffer.
 *
 * Written in the common subset of C17 and CUDA C++; the includer defines
 * FUSED_EXTENT_FN (the functions' qualifiers) first.
 */
#ifndef FUSED_EXTENT_H
#define FUSED_EXTENT_H

#include <stdint.h>

#include "fused_params.h"

typedef struct {
    const void *base;  /* the buffer's first element; 0: not passed */
    int64_t count;     /* elements allocated; -1: unknown (every access is out of bounds) */
    int64_t rows;      /* 2-D buffers: rows, and elements per row; else 0 */
    int64_t width;
} fused_extent;

/* a * b, or -1 when it does not fit (or either is negative). */
FUSED_EXTENT_FN int64_t fused_extent_product(int64_t a, int64_t b) {
    if (a < 0 || b < 0 || (b != 0 && a > INT64_MAX / b)) {
        return -1;
    }
    return a * b;
}

FUSED_EXTENT_FN fused_extent fused_extent_flat(const void *base, int64_t count) {
    fused_extent e = {base, count, 0, 0};
    return e;
}

FUSED_EXTENT_FN fused_extent fused_extent_table(const void *base, int64_t rows, int64_t width) {
    fused_extent e = {base, fused_extent_product(rows, width), rows, width};
    return e;
}

FUSED_EXTENT_FN int64_t fused_extent_plus_one(int64_t n) {
    return n >= 0 && n < INT64_MAX ? n + 1 : -1;
}

/* The allocation behind `buf` (fused_params.h documents each shape). */
FUSED_EXTENT_FN fused_extent fused_extent_of(const fused_params *p, fused_buf buf) {
    switch (buf) {
    case FUSED_BUF_REQ_POOL_INDICES: return fused_extent_flat(p->req_pool_indices, p->bs);
    case FUSED_BUF_SEQ_LENS: return fused_extent_flat(p->seq_lens, p->bs);
    case FUSED_BUF_REQ_TO_TOKEN:
        return fused_extent_table(p->req_to_token, p->req_to_token_rows, p->req_to_token_stride);
    case FUSED_BUF_SWA_MAPPING: return fused_extent_flat(p->swa_mapping, p->swa_mapping_len);
    case FUSED_BUF_OUT_CACHE_LOC: return fused_extent_flat(p->out_cache_loc, p->n_out);
    case FUSED_BUF_QLENS: return fused_extent_flat(p->qlens, p->bs);
    case FUSED_BUF_CACHE_SEQLENS: return fused_extent_flat(p->cache_seqlens, p->bs);
    case FUSED_BUF_CU_SEQLENS_K:
        return fused_extent_flat(p->cu_seqlens_k, fused_extent_plus_one(p->bs));
    case FUSED_BUF_CU_SEQLENS_Q:
        return fused_extent_flat(p->cu_seqlens_q, fused_extent_plus_one(p->bs));
    case FUSED_BUF_PAGE_TABLE:
        return fused_extent_table(p->page_table, p->bs, p->page_table_stride);
    case FUSED_BUF_SWA_PAGE_TABLE:
        return fused_extent_table(p->swa_page_table, p->bs, p->page_table_stride);
    case FUSED_BUF_SWA_OUT_CACHE_LOC:
        return fused_extent_flat(p->swa_out_cache_loc, p->out_len);
    default: break;
    }
    return fused_extent_flat(0, -1);
}

/* Every buffer's allocation at once: computed once per launch, so that a
 * checked access costs a comparison, not a product and a division (64-bit
 * division is a long software routine on a GPU, and the page loops make
 * several accesses per page). */
typedef struct {
    fused_extent of[FUSED_BUF_COUNT];
} fused_extents;

FUSED_EXTENT_FN void fused_extents_of(const fused_params *p, fused_extents *out) {
    for (int b = 0; b < FUSED_BUF_COUNT; b++) {
        out->of[b] = fused_extent_of(p, (fused_buf)b);
    }
}

#endif

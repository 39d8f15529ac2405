/* fused_params: the arguments of one launch of the fused metadata kernel.
 *
 * Plain pointers and sizes, as the kernel sees them on either device; the
 * same struct drives the CPU execution (host pointers) and the CUDA launch
 * (device pointers). Lengths are in elements. Optional buffers are NULL.
 * It mirrors the upstream keyword arguments (docs/SEMANTICS.md).
 */
#ifndef FUSED_PARAMS_H
#define FUSED_PARAMS_H

#include <stdint.h>

typedef enum {
    FUSED_Q_NONE = 0,    /* cu_seqlens_q untouched */
    FUSED_Q_CUMSUM = 1,  /* draft_extend: cu_seqlens_q[1+k] = sum(qlens[0..k]) */
    FUSED_Q_STRIDED = 2, /* draft_extend_v2: cu_seqlens_q[1+k] = (k+1) * q_stride */
} fused_q_mode;

/* Every buffer the kernel touches, for out-of-bounds reports. */
typedef enum {
    FUSED_BUF_REQ_POOL_INDICES,
    FUSED_BUF_SEQ_LENS,
    FUSED_BUF_REQ_TO_TOKEN,
    FUSED_BUF_SWA_MAPPING,
    FUSED_BUF_OUT_CACHE_LOC,
    FUSED_BUF_QLENS,
    FUSED_BUF_CACHE_SEQLENS,
    FUSED_BUF_CU_SEQLENS_K,
    FUSED_BUF_CU_SEQLENS_Q,
    FUSED_BUF_PAGE_TABLE,
    FUSED_BUF_SWA_PAGE_TABLE,
    FUSED_BUF_SWA_OUT_CACHE_LOC,
    FUSED_BUF_COUNT
} fused_buf;

typedef struct {
    /* inputs */
    const int64_t *req_pool_indices; /* [bs] */
    const int64_t *seq_lens;         /* [bs] */
    const int32_t *req_to_token;     /* [req_to_token_rows * req_to_token_stride] */
    int64_t req_to_token_rows;
    int64_t req_to_token_stride;     /* W, elements per row */
    const int64_t *swa_mapping;      /* [swa_mapping_len], NULL: not an SWA model */
    int64_t swa_mapping_len;
    const int64_t *out_cache_loc;    /* [n_out], NULL: none passed this step */
    int64_t n_out;
    const int32_t *qlens;            /* [bs], read in FUSED_Q_CUMSUM only */

    /* outputs */
    int32_t *cache_seqlens;          /* [bs] */
    int32_t *cu_seqlens_k;           /* [bs + 1], [0] never written */
    int32_t *cu_seqlens_q;           /* [bs + 1], written unless FUSED_Q_NONE */
    int32_t *page_table;             /* [bs * page_table_stride] */
    int64_t page_table_stride;       /* max_num_pages: the row width */
    int32_t *swa_page_table;         /* same shape, NULL: none */
    int64_t *swa_out_cache_loc;      /* [out_len], NULL: none */
    int64_t out_len;

    /* scalars */
    int64_t bs;
    int64_t seqlen_offset;
    int64_t max_seq_pages;           /* pages written per row */
    int64_t page_size;               /* >= 1 */
    int64_t q_stride;
    fused_q_mode q_mode;
} fused_params;

/* SWA-out programs each cover this many slots of swa_out_cache_loc. */
#define FUSED_SWA_OUT_BLOCK 512

const char *fused_buf_name(fused_buf b);

#endif

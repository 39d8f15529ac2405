#include "fused_params.h"

static const char *const fused_params_buf_names[FUSED_BUF_COUNT] = {
    "req_pool_indices", "seq_lens", "req_to_token", "swa_mapping", "out_cache_loc", "qlens",
    "cache_seqlens", "cu_seqlens_k", "cu_seqlens_q", "page_table", "swa_page_table",
    "swa_out_cache_loc",
};

const char *fused_buf_name(fused_buf b) {
    return (unsigned)b < FUSED_BUF_COUNT ? fused_params_buf_names[b] : "?";
}


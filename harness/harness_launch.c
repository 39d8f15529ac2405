#include "harness_launch.h"

#include <string.h>

static fused_q_mode harness_launch_q_mode(gm_mode mode) {
    switch (mode) {
    case GM_MODE_DRAFT_EXTEND: return FUSED_Q_CUMSUM;
    case GM_MODE_DRAFT_EXTEND_V2: return FUSED_Q_STRIDED;
    default: return FUSED_Q_NONE;
    }
}

void harness_launch_params(const gm_case *c, gm_outputs *out, fused_params *p) {
    memset(p, 0, sizeof *p);
    p->req_pool_indices = c->req_pool_indices;
    p->seq_lens = c->seq_lens;
    p->req_to_token = c->req_to_token;
    p->req_to_token_rows = (int64_t)c->pool;
    p->req_to_token_stride = (int64_t)c->width;
    if (c->has_swa) {
        p->swa_mapping = c->swa.mapping;
        p->swa_mapping_len = (int64_t)c->swa.mapping_len;
        p->out_cache_loc = c->swa.out_cache_loc;
        p->n_out = (int64_t)c->swa.n_out;
    }
    p->qlens = c->qlens;

    p->q_mode = harness_launch_q_mode(c->mode);
    p->cache_seqlens = gm_buffer_i32(&out->buf[GM_BUF_CACHE_SEQLENS]);
    p->cu_seqlens_k = gm_buffer_i32(&out->buf[GM_BUF_CU_SEQLENS_K]);
    /* Upstream passes cu_seqlens_q only to the modes that rewrite it. */
    p->cu_seqlens_q = p->q_mode == FUSED_Q_NONE ? NULL : gm_buffer_i32(&out->buf[GM_BUF_CU_SEQLENS_Q]);
    p->page_table = gm_buffer_i32(&out->buf[GM_BUF_PAGE_TABLE]);
    p->page_table_stride = (int64_t)gm_case_max_num_pages(c);
    p->swa_page_table = gm_buffer_i32(&out->buf[GM_BUF_SWA_PAGE_TABLE]);
    p->swa_out_cache_loc = gm_buffer_i64(&out->buf[GM_BUF_SWA_OUT_CACHE_LOC]);
    p->out_len = out->buf[GM_BUF_SWA_OUT_CACHE_LOC].present ? (int64_t)c->swa.out_len : 0;

    p->bs = (int64_t)c->bs;
    p->seqlen_offset = gm_case_seqlen_offset(c);
    p->max_seq_pages = c->has_max_seq_pages ? c->max_seq_pages : p->page_table_stride;
    p->page_size = c->page_size;
    p->q_stride = c->q_stride;
}

#include "gm_backend.h"

#include <stdlib.h>
#include <string.h>

#include "gm_backend_impl.h"

struct gm_backend {
    gm_backend_kind kind;
    gm_backend_cuda *cuda;
};

static const char *const gm_backend_names[GM_BACKEND_COUNT] = {"cpu", "cuda"};

const char *gm_backend_kind_name(gm_backend_kind kind) {
    return (unsigned)kind < GM_BACKEND_COUNT ? gm_backend_names[kind] : "?";
}

bool gm_backend_kind_from_name(const char *name, gm_backend_kind *out) {
    for (int k = 0; k < GM_BACKEND_COUNT; k++) {
        if (strcmp(name, gm_backend_names[k]) == 0) {
            *out = (gm_backend_kind)k;
            return true;
        }
    }
    return false;
}

bool gm_backend_open(gm_backend_kind kind, gm_backend **out, gm_error *err) {
    *out = NULL;
    gm_backend *b = calloc(1, sizeof *b);
    if (b == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory opening a backend");
    }
    b->kind = kind;
    if (kind == GM_BACKEND_CUDA && !gm_backend_cuda_open(&b->cuda, err)) {
        free(b);
        return false;
    }
    *out = b;
    return true;
}

void gm_backend_close(gm_backend *b) {
    if (b == NULL) {
        return;
    }
    if (b->cuda != NULL) {
        gm_backend_cuda_close(b->cuda);
    }
    free(b);
}

gm_backend_kind gm_backend_kind_of(const gm_backend *b) { return b->kind; }

bool gm_backend_run(gm_backend *b, const gm_case *c, gm_outputs *out, gm_error *err) {
    if (!gm_outputs_prepare(out, c, err)) {
        return false;
    }
    if (b->kind == GM_BACKEND_CUDA) {
        return gm_backend_cuda_run(b->cuda, c, out, err);
    }
    return gm_backend_cpu_run(c, out, err);
}

static fused_q_mode gm_backend_q_mode(gm_mode mode) {
    switch (mode) {
    case GM_MODE_DRAFT_EXTEND: return FUSED_Q_CUMSUM;
    case GM_MODE_DRAFT_EXTEND_V2: return FUSED_Q_STRIDED;
    default: return FUSED_Q_NONE;
    }
}

void gm_backend_params(const gm_case *c, gm_outputs *out, fused_params *p) {
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

    p->q_mode = gm_backend_q_mode(c->mode);
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

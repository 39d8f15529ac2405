#include "gm_pycall.h"

#include "gm_launch.h"

static void gm_pycall_vector(gm_pybatch *b, const char *name, gm_pyarg_kind kind, int size,
                             size_t n, const void *data) {
    size_t dims[2] = {n, 1};
    gm_pybatch_tensor(b, name, kind, size, 1, dims, (void *)data);
}

/* An output buffer of `out` as an OUT tensor of its own shape and dtype. */
static void gm_pycall_output(gm_pybatch *b, gm_outputs *out, gm_buf_id id) {
    gm_buffer *buf = &out->buf[id];
    gm_pybatch_tensor(b, gm_buf_name(id), GM_PYARG_OUT, buf->is_int64 ? 8 : 4, buf->rank,
                      buf->dims, buf->data);
}

static void gm_pycall_req_to_token(gm_pybatch *b, const gm_case *c) {
    size_t dims[2] = {c->pool, c->width};
    gm_pybatch_tensor(b, "req_to_token", GM_PYARG_IN, 4, 2, dims, c->req_to_token);
}

void gm_pycall_add_fused(gm_pybatch *b, const gm_case *c, gm_outputs *out) {
    fused_params p;
    gm_launch_params(c, out, &p); /* the launch's scalars, as the builtin kernel gets them */
    gm_pybatch_begin(b);
    gm_pycall_vector(b, "req_pool_indices", GM_PYARG_IN, 8, c->bs, c->req_pool_indices);
    gm_pycall_vector(b, "seq_lens", GM_PYARG_IN, 8, c->bs, c->seq_lens);
    gm_pycall_req_to_token(b, c);
    gm_pycall_output(b, out, GM_BUF_CACHE_SEQLENS);
    gm_pycall_output(b, out, GM_BUF_CU_SEQLENS_K);
    gm_pycall_output(b, out, GM_BUF_PAGE_TABLE);
    gm_pybatch_int(b, "bs", p.bs);
    gm_pybatch_int(b, "seqlen_offset", p.seqlen_offset);
    gm_pybatch_int(b, "max_seq_pages", p.max_seq_pages);
    gm_pybatch_int(b, "page_size", p.page_size);
    gm_pybatch_int(b, "q_stride", p.q_stride);
    gm_pybatch_int(b, "q_mode", (int64_t)p.q_mode);
    if (c->has_swa) {
        gm_pycall_vector(b, "swa_mapping", GM_PYARG_IN, 8, c->swa.mapping_len, c->swa.mapping);
        if (c->swa.out_cache_loc != NULL) {
            gm_pycall_vector(b, "out_cache_loc", GM_PYARG_IN, 8, c->swa.n_out,
                             c->swa.out_cache_loc);
        }
    }
    if (out->buf[GM_BUF_SWA_PAGE_TABLE].present) {
        gm_pycall_output(b, out, GM_BUF_SWA_PAGE_TABLE);
    }
    if (out->buf[GM_BUF_SWA_OUT_CACHE_LOC].present) {
        gm_pycall_output(b, out, GM_BUF_SWA_OUT_CACHE_LOC);
    }
    if (p.q_mode != FUSED_Q_NONE) {
        gm_pycall_output(b, out, GM_BUF_CU_SEQLENS_Q);
    }
    if (p.q_mode == FUSED_Q_CUMSUM) {
        gm_pycall_vector(b, "qlens", GM_PYARG_IN, 4, c->bs, c->qlens);
    }
}

/* An optional input: a tensor, or None when the case has none. */
static void gm_pycall_optional(gm_pybatch *b, const char *name, int size, size_t n,
                               const void *data) {
    if (data == NULL) {
        gm_pybatch_none(b, name);
    } else {
        gm_pycall_vector(b, name, GM_PYARG_IN, size, n, data);
    }
}

void gm_pycall_add_legacy(gm_pybatch *b, const gm_case *c, gm_outputs *out) {
    gm_pybatch_begin(b);
    gm_pybatch_str(b, "mode", gm_mode_name(c->mode));
    gm_pybatch_int(b, "page_size", c->page_size);
    gm_pybatch_int(b, "max_context_len", c->max_context_len);
    gm_pybatch_int(b, "speculative_step_id", c->speculative_step_id);
    gm_pybatch_int(b, "num_draft_tokens", c->num_draft_tokens);
    gm_pybatch_int(b, "q_stride", c->q_stride);
    gm_pycall_req_to_token(b, c);
    gm_pycall_vector(b, "req_pool_indices", GM_PYARG_IN, 8, c->bs, c->req_pool_indices);
    gm_pycall_vector(b, "seq_lens", GM_PYARG_IN, 8, c->bs, c->seq_lens);
    gm_pycall_vector(b, "seq_lens_cpu", GM_PYARG_HOST, 8, c->bs,
                     c->seq_lens_cpu != NULL ? c->seq_lens_cpu : c->seq_lens);
    gm_pycall_optional(b, "qlens", 4, c->bs, c->qlens);
    gm_pycall_optional(b, "swa_mapping", 8, c->swa.mapping_len, c->has_swa ? c->swa.mapping : NULL);
    gm_pycall_optional(b, "out_cache_loc", 8, c->swa.n_out,
                       c->has_swa ? c->swa.out_cache_loc : NULL);
    gm_pycall_output(b, out, GM_BUF_CACHE_SEQLENS);
    gm_pycall_output(b, out, GM_BUF_CU_SEQLENS_K);
    gm_pycall_output(b, out, GM_BUF_CU_SEQLENS_Q);
    gm_pycall_output(b, out, GM_BUF_PAGE_TABLE);
    static const gm_buf_id swa[] = {GM_BUF_SWA_PAGE_TABLE, GM_BUF_SWA_OUT_CACHE_LOC};
    for (int k = 0; k < 2; k++) {
        if (out->buf[swa[k]].present) {
            gm_pycall_output(b, out, swa[k]);
        } else {
            gm_pybatch_none(b, gm_buf_name(swa[k]));
        }
    }
}

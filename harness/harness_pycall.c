#include "harness_pycall.h"

#include "harness_launch.h"

static void harness_pycall_vector(harness_pybatch *b, const char *name, harness_pyarg_kind kind,
                                  int size, size_t n, const void *data) {
    size_t dims[2] = {n, 1};
    harness_pybatch_tensor(b, name, kind, size, 1, dims, (void *)data);
}

/* An output buffer of `out` as an OUT tensor of its own shape and dtype. */
static void harness_pycall_output(harness_pybatch *b, gm_outputs *out, gm_buf_id id) {
    gm_buffer *buf = &out->buf[id];
    harness_pybatch_tensor(b, gm_buf_name(id), HARNESS_PYARG_OUT, buf->is_int64 ? 8 : 4, buf->rank,
                           buf->dims, buf->data);
}

static void harness_pycall_req_to_token(harness_pybatch *b, const gm_case *c) {
    size_t dims[2] = {c->pool, c->width};
    harness_pybatch_tensor(b, "req_to_token", HARNESS_PYARG_IN, 4, 2, dims, c->req_to_token);
}

void harness_pycall_add_fused(harness_pybatch *b, const gm_case *c, gm_outputs *out) {
    fused_params p;
    harness_launch_params(c, out, &p); /* the launch's scalars, as the builtin kernel gets them */
    harness_pybatch_begin(b);
    harness_pycall_vector(b, "req_pool_indices", HARNESS_PYARG_IN, 8, c->bs, c->req_pool_indices);
    harness_pycall_vector(b, "seq_lens", HARNESS_PYARG_IN, 8, c->bs, c->seq_lens);
    harness_pycall_req_to_token(b, c);
    harness_pycall_output(b, out, GM_BUF_CACHE_SEQLENS);
    harness_pycall_output(b, out, GM_BUF_CU_SEQLENS_K);
    harness_pycall_output(b, out, GM_BUF_PAGE_TABLE);
    harness_pybatch_int(b, "bs", p.bs);
    harness_pybatch_int(b, "seqlen_offset", p.seqlen_offset);
    harness_pybatch_int(b, "max_seq_pages", p.max_seq_pages);
    harness_pybatch_int(b, "page_size", p.page_size);
    harness_pybatch_int(b, "q_stride", p.q_stride);
    harness_pybatch_int(b, "q_mode", (int64_t)p.q_mode);
    if (c->has_swa) {
        harness_pycall_vector(b, "swa_mapping", HARNESS_PYARG_IN, 8, c->swa.mapping_len,
                              c->swa.mapping);
        if (c->swa.out_cache_loc != NULL) {
            harness_pycall_vector(b, "out_cache_loc", HARNESS_PYARG_IN, 8, c->swa.n_out,
                                  c->swa.out_cache_loc);
        }
    }
    if (out->buf[GM_BUF_SWA_PAGE_TABLE].present) {
        harness_pycall_output(b, out, GM_BUF_SWA_PAGE_TABLE);
    }
    if (out->buf[GM_BUF_SWA_OUT_CACHE_LOC].present) {
        harness_pycall_output(b, out, GM_BUF_SWA_OUT_CACHE_LOC);
    }
    if (p.q_mode != FUSED_Q_NONE) {
        harness_pycall_output(b, out, GM_BUF_CU_SEQLENS_Q);
    }
    if (p.q_mode == FUSED_Q_CUMSUM) {
        harness_pycall_vector(b, "qlens", HARNESS_PYARG_IN, 4, c->bs, c->qlens);
    }
}

/* An optional input: a tensor, or None when the case has none. */
static void harness_pycall_optional(harness_pybatch *b, const char *name, int size, size_t n,
                                    const void *data) {
    if (data == NULL) {
        harness_pybatch_none(b, name);
    } else {
        harness_pycall_vector(b, name, HARNESS_PYARG_IN, size, n, data);
    }
}

void harness_pycall_add_legacy(harness_pybatch *b, const gm_case *c, gm_outputs *out) {
    harness_pybatch_begin(b);
    harness_pybatch_str(b, "mode", gm_mode_name(c->mode));
    harness_pybatch_int(b, "page_size", c->page_size);
    harness_pybatch_int(b, "max_context_len", c->max_context_len);
    harness_pybatch_int(b, "speculative_step_id", c->speculative_step_id);
    harness_pybatch_int(b, "num_draft_tokens", c->num_draft_tokens);
    harness_pybatch_int(b, "q_stride", c->q_stride);
    harness_pycall_req_to_token(b, c);
    harness_pycall_vector(b, "req_pool_indices", HARNESS_PYARG_IN, 8, c->bs, c->req_pool_indices);
    harness_pycall_vector(b, "seq_lens", HARNESS_PYARG_IN, 8, c->bs, c->seq_lens);
    harness_pycall_vector(b, "seq_lens_cpu", HARNESS_PYARG_HOST, 8, c->bs,
                          c->seq_lens_cpu != NULL ? c->seq_lens_cpu : c->seq_lens);
    harness_pycall_optional(b, "qlens", 4, c->bs, c->qlens);
    harness_pycall_optional(b, "swa_mapping", 8, c->swa.mapping_len,
                            c->has_swa ? c->swa.mapping : NULL);
    harness_pycall_optional(b, "out_cache_loc", 8, c->swa.n_out,
                            c->has_swa ? c->swa.out_cache_loc : NULL);
    harness_pycall_output(b, out, GM_BUF_CACHE_SEQLENS);
    harness_pycall_output(b, out, GM_BUF_CU_SEQLENS_K);
    harness_pycall_output(b, out, GM_BUF_CU_SEQLENS_Q);
    harness_pycall_output(b, out, GM_BUF_PAGE_TABLE);
    static const gm_buf_id swa[] = {GM_BUF_SWA_PAGE_TABLE, GM_BUF_SWA_OUT_CACHE_LOC};
    for (int k = 0; k < 2; k++) {
        if (out->buf[swa[k]].present) {
            harness_pycall_output(b, out, swa[k]);
        } else {
            harness_pybatch_none(b, gm_buf_name(swa[k]));
        }
    }
}

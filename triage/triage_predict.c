/* triage_predict: the legacy and fused values of one element, from the case
 * alone. Written from SPEC sections 2 and 3, not from reference/ or
 * kernel/: when those and this agree, three implementations agree.
 *
 * Python's unbounded integers (M, msp, arange bounds) are held in __int128,
 * which int64 lengths plus an int32 offset cannot overflow.
 */
#include "triage_predict.h"

#include <string.h>

typedef __int128 triage_predict_wide;

/* ---- integer rules: Python's (legacy) and C's (fused) ------------------ */

static triage_predict_wide triage_predict_floor_div(triage_predict_wide a, triage_predict_wide b) {
    triage_predict_wide q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static triage_predict_wide triage_predict_ceil_div(triage_predict_wide a, triage_predict_wide b) {
    return -triage_predict_floor_div(-a, b);
}

/* The low 32 bits as a signed value: what an int32 store keeps. */
static int64_t triage_predict_low32(triage_predict_wide v) {
    uint32_t u = (uint32_t)(unsigned __int128)v;
    return u <= (uint32_t)INT32_MAX ? (int64_t)u : (int64_t)u - ((int64_t)1 << 32);
}

/* Python index `index` into `len` elements: false outside [-len, len). */
static bool triage_predict_wrap(int64_t index, size_t len, size_t *pos) {
    triage_predict_wide at = index < 0 ? (triage_predict_wide)len + index : index;
    *pos = (size_t)(at < 0 ? 0 : at);
    return at >= 0 && at < (triage_predict_wide)len;
}

static int64_t triage_predict_max(const int64_t *v, size_t n) {
    int64_t best = v[0];
    for (size_t k = 1; k < n; k++) {
        best = v[k] > best ? v[k] : best;
    }
    return best;
}

/* ---- the prior contents: what a side that does not write leaves -------- */

/* The default cu_seqlens_q (SPEC section 1): [0, 1, ..., bs] in the decode
 * modes, [0, D, ..., bs*D] in target_verify, zeros in the extend modes. */
static int64_t triage_predict_q_preset(const gm_case *c, size_t k) {
    triage_predict_wide step = c->mode == GM_MODE_TARGET_VERIFY ? c->num_draft_tokens
                           : c->mode == GM_MODE_DECODE || c->mode == GM_MODE_DRAFT_DECODE ? 1
                                                                                          : 0;
    return triage_predict_low32(step * (triage_predict_wide)k);
}

int64_t triage_predict_prior(const gm_case *c, gm_buf_id id, size_t flat) {
    const gm_init *in = &c->init[id];
    if (in->kind == GM_INIT_FILL) {
        return in->fill;
    }
    if (in->kind == GM_INIT_ARRAY) {
        return flat < in->len ? in->values[flat] : 0;
    }
    return id == GM_BUF_CU_SEQLENS_Q ? triage_predict_q_preset(c, flat) : 0;
}

/* ---- the context: legacy's column count -------------------------------- */

/* SPEC 2 steps 1 and 4: M by mode (the host copy except in draft_decode),
 * msp = (M + P - 1) // P, cols = len(range(max_num_pages)[:msp]). */
static size_t triage_predict_legacy_cols(const gm_case *c, size_t max_num_pages) {
    const int64_t *source = c->seq_lens;
    if (c->mode != GM_MODE_DRAFT_DECODE && c->seq_lens_cpu != NULL) {
        source = c->seq_lens_cpu;
    }
    triage_predict_wide m =
        (triage_predict_wide)triage_predict_max(source, c->bs) + gm_case_seqlen_offset(c);
    triage_predict_wide msp = triage_predict_floor_div(m + c->page_size - 1, c->page_size);
    triage_predict_wide cols = msp >= 0 ? msp : (triage_predict_wide)max_num_pages + msp;
    if (cols < 0) {
        return 0;
    }
    return cols < (triage_predict_wide)max_num_pages ? (size_t)cols : max_num_pages;
}

void triage_predict_init(triage_predict_ctx *p, const gm_case *c) {
    memset(p, 0, sizeof *p);
    p->c = c;
    p->max_num_pages = gm_case_max_num_pages(c);
    p->fused_pages = c->has_max_seq_pages ? (size_t)c->max_seq_pages : p->max_num_pages;
    if (c->bs > 0) {
        p->legacy_cols = triage_predict_legacy_cols(c, p->max_num_pages);
    }
}

/* ---- page tables -------------------------------------------------------- */

/* SPEC 2 steps 5-7 for cell (i, j), j < cols: the token from the Python-
 * indexed pool row, floor-divided; the SWA page from the int32 mapping
 * value, floor-divided. */
static bool triage_predict_legacy_cell(const gm_case *c, gm_buf_id id, size_t i, size_t j,
                                       int64_t *out) {
    size_t row, pos;
    size_t col = j * (size_t)c->page_size;
    if (!triage_predict_wrap(c->req_pool_indices[i], c->pool, &row) || col >= c->width) {
        return false;
    }
    int64_t tok = c->req_to_token[row * c->width + col];
    if (id == GM_BUF_PAGE_TABLE) {
        *out = (int64_t)triage_predict_floor_div(tok, c->page_size);
        return true;
    }
    if (!triage_predict_wrap(tok, c->swa.mapping_len, &pos)) {
        return false;
    }
    *out = (int64_t)triage_predict_floor_div(triage_predict_low32(c->swa.mapping[pos]),
                                             c->page_size);
    return true;
}

/* SPEC 3 row program for cell (i, j), j < max_seq_pages: the token read
 * flat at r*W + j*P, divided with truncation; a negative token or SWA slot
 * gives -1. */
static bool triage_predict_fused_cell(const gm_case *c, gm_buf_id id, size_t i, size_t j,
                                      int64_t *out) {
    int64_t r = c->req_pool_indices[i];
    if (r < 0 || (uint64_t)r >= c->pool) {
        return false;
    }
    unsigned __int128 flat = (unsigned __int128)(uint64_t)r * c->width +
                             (unsigned __int128)j * (uint64_t)c->page_size;
    if (flat >= (unsigned __int128)c->pool * c->width) {
        return false;
    }
    int64_t tok = c->req_to_token[(size_t)flat];
    if (id == GM_BUF_PAGE_TABLE) {
        *out = tok / c->page_size; /* C's division truncates */
        return true;
    }
    if (tok >= 0 && (uint64_t)tok >= c->swa.mapping_len) {
        return false;
    }
    int64_t slot = tok >= 0 ? c->swa.mapping[tok] : -1;
    *out = slot < 0 ? -1 : triage_predict_low32(slot / c->page_size);
    return true;
}

static bool triage_predict_cell(const triage_predict_ctx *p, gm_buf_id id, size_t flat,
                                size_t width, triage_prediction *out) {
    const gm_case *c = p->c;
    size_t i = flat / width, j = flat % width;
    if (i >= c->bs || (id == GM_BUF_SWA_PAGE_TABLE && !c->has_swa)) {
        return false;
    }
    int64_t prior = triage_predict_prior(c, id, flat);
    out->legacy = prior; /* columns >= cols keep their old contents */
    out->fused = prior;  /* columns >= max_seq_pages are not written */
    if (j < p->legacy_cols && !triage_predict_legacy_cell(c, id, i, j, &out->legacy)) {
        return false;
    }
    return j >= p->fused_pages || triage_predict_fused_cell(c, id, i, j, &out->fused);
}

/* ---- swa_out_cache_loc ------------------------------------------------- */

/* SPEC 2 step 8: with an out_cache_loc of n, buf[n:] = 0 and
 * buf[:n] = int64(int32(mapping[loc])); none given: the old contents. */
static bool triage_predict_legacy_out(const gm_case *c, size_t t, int64_t *out) {
    const gm_swa *swa = &c->swa;
    size_t pos;
    if (swa->out_cache_loc == NULL) {
        *out = triage_predict_prior(c, GM_BUF_SWA_OUT_CACHE_LOC, t);
        return true;
    }
    if (swa->n_out > swa->out_len && swa->n_out != 1) {
        return false; /* the copy raised */
    }
    if (t >= swa->n_out) {
        *out = 0;
        return true;
    }
    if (!triage_predict_wrap(swa->out_cache_loc[t], swa->mapping_len, &pos)) {
        return false;
    }
    *out = triage_predict_low32(swa->mapping[pos]);
    return true;
}

/* SPEC 3 SWA-out: t < min(out_len, n) gets loc < 0 ? -1 : mapping[loc]
 * (int64, no truncation); the rest, and all of it without out_cache_loc,
 * zeros. */
static bool triage_predict_fused_out(const gm_case *c, size_t t, int64_t *out) {
    const gm_swa *swa = &c->swa;
    size_t num = swa->out_cache_loc == NULL ? 0
                 : swa->n_out < swa->out_len ? swa->n_out
                                             : swa->out_len;
    *out = 0;
    if (t >= num) {
        return true;
    }
    int64_t loc = swa->out_cache_loc[t];
    if (loc >= 0 && (uint64_t)loc >= swa->mapping_len) {
        return false;
    }
    *out = loc < 0 ? -1 : swa->mapping[loc];
    return true;
}

/* ---- cu_seqlens_q, draft_extend_v2 -------------------------------------- */

/* Element k >= 1. Legacy: arange(S, bs*S + 1, S) has ceil((bs*S + 1 - S) / S)
 * elements; copy_ takes it when that is bs, broadcasts it when 1, raises
 * otherwise. Fused: int32(k * S). Element 0 is never written. */
static bool triage_predict_strided_q(const gm_case *c, size_t k, triage_prediction *out) {
    triage_predict_wide s = c->q_stride;
    if (k == 0) {
        out->legacy = out->fused = triage_predict_prior(c, GM_BUF_CU_SEQLENS_Q, 0);
        return true;
    }
    if (s == 0 || k > c->bs) {
        return false;
    }
    triage_predict_wide n = triage_predict_ceil_div((triage_predict_wide)c->bs * s + 1 - s, s);
    n = n < 0 ? 0 : n;
    if (n != (triage_predict_wide)c->bs && n != 1) {
        return false;
    }
    triage_predict_wide index = n == 1 ? 0 : (triage_predict_wide)(k - 1);
    out->legacy = triage_predict_low32(s + s * index);
    out->fused = triage_predict_low32(s * (triage_predict_wide)k);
    return true;
}

bool triage_predict_element(const triage_predict_ctx *p, gm_buf_id id, size_t flat, size_t width,
                            triage_prediction *out) {
    const gm_case *c = p->c;
    switch (id) {
    case GM_BUF_PAGE_TABLE:
    case GM_BUF_SWA_PAGE_TABLE: return width > 0 && triage_predict_cell(p, id, flat, width, out);
    case GM_BUF_SWA_OUT_CACHE_LOC:
        return c->has_swa && triage_predict_legacy_out(c, flat, &out->legacy) &&
               triage_predict_fused_out(c, flat, &out->fused);
    case GM_BUF_CU_SEQLENS_Q:
        return c->mode == GM_MODE_DRAFT_EXTEND_V2 && triage_predict_strided_q(c, flat, out);
    default: return false; /* no class explains the lengths */
    }
}

/* triage_classify: each differing element gets the class whose cause is present
 * in the inputs for that very element (SPEC section 4). The causes are
 * recomputed here from the case alone (legacy's column count, the token a
 * page-table cell was read from, the slot and its mapping value): the
 * outputs only say THAT an element differs, never why, and the kernel's own
 * out-of-bounds message is never trusted.
 *
 * Quantities that Python keeps as unbounded ints (M, msp) are held in
 * __int128 as in reference/: int64 lengths plus an int32 offset cannot
 * overflow it.
 */
#include "triage.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "triage_bucket.h"
#include "gm_jsonint.h"
#include "triage_predict.h"

typedef __int128 triage_classify_wide;

static const char *const triage_classify_names[TRIAGE_CLASS_COUNT] = {
    "stale_tail",
    "stale_host_seqlens",
    "negative_token_rounding",
    "sentinel_wrap",
    "sentinel_deep_negative",
    "swa_int32_truncation",
    "out_cache_loc_absent",
    "legacy_raises",
    "fused_out_of_bounds",
    "narrow_max_seq_pages",
    "seqlen_int32_wrap",
    "negative_swa_mapping",
    "negative_q_stride",
    "target_raised",
    "target_crashed",
    "target_hung",
    "target_deviates",
    "target_wrote_input",
    "reference_drift",
    "unclassified",
};

/* What the causes of one run's differences are computed from. */
typedef struct {
    const gm_case *c;
    size_t max_num_pages;
    size_t cols;         /* page-table columns legacy writes (SPEC step 4) */
    size_t fused_pages;  /* page-table columns fused writes (max_seq_pages) */
    bool host_lags;      /* M comes from seq_lens_cpu, whose max is below seq_lens' */
    triage_predict_ctx predict; /* what each side writes, for the explained elements */
} triage_classify_ctx;

const char *triage_class_name(triage_class k) {
    return (unsigned)k < TRIAGE_CLASS_COUNT ? triage_classify_names[k] : "?";
}

bool triage_class_from_name(const char *name, triage_class *out) {
    for (int k = 0; k < TRIAGE_CLASS_COUNT; k++) {
        if (strcmp(name, triage_classify_names[k]) == 0) {
            *out = (triage_class)k;
            return true;
        }
    }
    return false;
}

/* ---- integer helpers (Python semantics, as legacy computes) ----------- */

static triage_classify_wide triage_classify_floor_div(triage_classify_wide a,
                                                      triage_classify_wide b) {
    triage_classify_wide q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static int64_t triage_classify_max(const int64_t *values, size_t n) {
    int64_t best = values[0];
    for (size_t k = 1; k < n; k++) {
        best = values[k] > best ? values[k] : best;
    }
    return best;
}

static bool triage_classify_outside_int32(int64_t v) { return v < INT32_MIN || v > INT32_MAX; }

/* The low 32 bits as a signed int32 (what an int32 store keeps), without an
 * implementation-defined conversion. */
static int32_t triage_classify_low32(uint64_t v) {
    uint32_t u = (uint32_t)v;
    return u <= (uint32_t)INT32_MAX ? (int32_t)u : (int32_t)(u - 0x80000000u) + INT32_MIN;
}

/* Python index `index` into a sequence of `len`: false outside [-len, len). */
static bool triage_classify_wrap(int64_t index, size_t len, size_t *pos) {
    if (index >= 0) {
        *pos = (size_t)index;
        return (uint64_t)index < len;
    }
    uint64_t back = (uint64_t)0 - (uint64_t)index;
    *pos = back <= len ? len - (size_t)back : 0;
    return back <= len;
}

/* ---- the context: legacy's columns and whether the host copy lags ------ */

/* cols = len(arange(0, max_context_len, P)[:msp]), msp = (M + P - 1) // P. */
static size_t triage_classify_legacy_cols(const gm_case *c, size_t max_num_pages) {
    const int64_t *source = c->seq_lens;
    if (c->mode != GM_MODE_DRAFT_DECODE && c->seq_lens_cpu != NULL) {
        source = c->seq_lens_cpu;
    }
    triage_classify_wide m = (triage_classify_wide)triage_classify_max(source, c->bs) +
                         gm_case_seqlen_offset(c);
    triage_classify_wide msp = triage_classify_floor_div(m + c->page_size - 1, c->page_size);
    triage_classify_wide n = msp >= 0 ? msp : (triage_classify_wide)max_num_pages + msp;
    if (n < 0) {
        return 0;
    }
    return n < (triage_classify_wide)max_num_pages ? (size_t)n : max_num_pages;
}

static void triage_classify_ctx_init(triage_classify_ctx *ctx, const gm_case *c) {
    memset(ctx, 0, sizeof *ctx);
    ctx->c = c;
    ctx->max_num_pages = gm_case_max_num_pages(c);
    ctx->fused_pages = c->has_max_seq_pages ? (size_t)c->max_seq_pages : ctx->max_num_pages;
    triage_predict_init(&ctx->predict, c);
    if (c->bs == 0) {
        return; /* legacy raised: no buffer differences to explain */
    }
    ctx->cols = triage_classify_legacy_cols(c, ctx->max_num_pages);
    ctx->host_lags = c->mode != GM_MODE_DRAFT_DECODE && c->seq_lens_cpu != NULL &&
                     triage_classify_max(c->seq_lens_cpu, c->bs) <
                         triage_classify_max(c->seq_lens, c->bs);
}

/* Columns of row i that attention reads: clamp(ceil(cache_seqlens[i]/P), 0,
 * max_num_pages), with cache_seqlens = int32(seq + offset) from the inputs. */
static size_t triage_classify_live_cols(const triage_classify_ctx *ctx, size_t i) {
    const gm_case *c = ctx->c;
    uint64_t bits = (uint64_t)c->seq_lens[i] + (uint64_t)gm_case_seqlen_offset(c);
    int64_t len = triage_classify_low32(bits); /* as cache_seqlens stores it */
    if (len <= 0) {
        return 0;
    }
    size_t pages = (size_t)((len + c->page_size - 1) / c->page_size);
    return pages < ctx->max_num_pages ? pages : ctx->max_num_pages;
}

/* Whether row i's length, seq_lens[i] + offset, leaves int32: cache_seqlens
 * keeps its low 32 bits while legacy's host maximum M stays exact. */
static bool triage_classify_length_wraps(const gm_case *c, size_t i) {
    triage_classify_wide len = (triage_classify_wide)c->seq_lens[i] + gm_case_seqlen_offset(c);
    return len < INT32_MIN || len > INT32_MAX;
}

/* The token at column j of batch row i, read as legacy reads it (the pool
 * row wraps when negative); false when legacy could not read it. */
static bool triage_classify_token(const triage_classify_ctx *ctx, size_t i, size_t j,
                                  int32_t *tok) {
    const gm_case *c = ctx->c;
    size_t row;
    size_t col = j * (size_t)c->page_size;
    if (!triage_classify_wrap(c->req_pool_indices[i], c->pool, &row) || col >= c->width) {
        return false;
    }
    *tok = c->req_to_token[row * c->width + col];
    return true;
}

/* ---- one element ------------------------------------------------------- */

/* A slot that both sides look up in the SWA mapping: `slot` is a token
 * (page table) or an out_cache_loc entry. Legacy indexes the mapping the
 * Python way and truncates to int32; fused writes -1 for any negative slot
 * and keeps int64 (or truncates after dividing). */
static triage_class triage_classify_swa_slot(const gm_swa *swa, int64_t slot) {
    int64_t last = swa->mapping[swa->mapping_len - 1];
    size_t pos;
    if (slot == -1) {
        return last != -1 ? TRIAGE_CLASS_SENTINEL_WRAP : TRIAGE_CLASS_UNCLASSIFIED;
    }
    if (!triage_classify_wrap(slot, swa->mapping_len, &pos)) {
        return TRIAGE_CLASS_UNCLASSIFIED; /* legacy would have raised */
    }
    if (slot < 0) {
        return TRIAGE_CLASS_SENTINEL_DEEP_NEGATIVE;
    }
    return triage_classify_outside_int32(swa->mapping[pos]) ? TRIAGE_CLASS_SWA_INT32_TRUNCATION
                                                        : TRIAGE_CLASS_UNCLASSIFIED;
}

/* A token's SWA page: as any SWA slot, and beyond that a mapping value
 * below -1, which legacy floor-divides and fused replaces by -1. */
static triage_class triage_classify_swa_page(const gm_swa *swa, int64_t tok) {
    triage_class k = triage_classify_swa_slot(swa, tok);
    size_t pos;
    if (k == TRIAGE_CLASS_UNCLASSIFIED && tok >= 0 &&
        triage_classify_wrap(tok, swa->mapping_len, &pos) && swa->mapping[pos] < -1) {
        return TRIAGE_CLASS_NEGATIVE_SWA_MAPPING;
    }
    return k;
}

/* Cell (i, j) of page_table or swa_page_table. */
static triage_class triage_classify_page_cell(const triage_classify_ctx *ctx, gm_buf_id id,
                                              size_t i, size_t j) {
    if (j >= ctx->cols) {
        /* legacy left the old contents; fused rewrote the cell */
        if (j >= triage_classify_live_cols(ctx, i)) {
            return TRIAGE_CLASS_STALE_TAIL;
        }
        if (ctx->host_lags) {
            return TRIAGE_CLASS_STALE_HOST_SEQLENS;
        }
        return triage_classify_length_wraps(ctx->c, i) ? TRIAGE_CLASS_SEQLEN_INT32_WRAP
                                                   : TRIAGE_CLASS_UNCLASSIFIED;
    }
    if (j >= ctx->fused_pages) {
        return TRIAGE_CLASS_NARROW_MAX_SEQ_PAGES; /* legacy wrote the cell, fused did not */
    }
    int32_t tok;
    if (!triage_classify_token(ctx, i, j, &tok)) {
        return TRIAGE_CLASS_UNCLASSIFIED; /* both wrote from one token */
    }
    if (id == GM_BUF_SWA_PAGE_TABLE) {
        return triage_classify_swa_page(&ctx->c->swa, tok);
    }
    triage_classify_wide p = ctx->c->page_size;
    if (tok < 0 && triage_classify_floor_div(tok, p) != tok / p) {
        return TRIAGE_CLASS_NEGATIVE_TOKEN_ROUNDING;
    }
    return TRIAGE_CLASS_UNCLASSIFIED;
}

/* Slot t of swa_out_cache_loc. */
static triage_class triage_classify_out_slot(const triage_classify_ctx *ctx, size_t t) {
    const gm_swa *swa = &ctx->c->swa;
    if (swa->out_cache_loc == NULL) {
        return TRIAGE_CLASS_OUT_CACHE_LOC_ABSENT; /* fused zeroed the buffer, legacy left it */
    }
    if (t >= swa->n_out) {
        return TRIAGE_CLASS_UNCLASSIFIED; /* both zero the tail */
    }
    return triage_classify_swa_slot(swa, swa->out_cache_loc[t]);
}

/* Class `k`, the cause present at element `flat`, explains the difference
 * only when both sides wrote exactly what the class's rules predict
 * (triage_predict): a wrong value written where a cause is present is a bug
 * like any other (issue 10). */
static triage_class triage_classify_explained(const triage_classify_ctx *ctx, gm_buf_id id,
                                              size_t flat, size_t width, int64_t reference,
                                              int64_t fused, triage_class k) {
    triage_prediction want;
    if (k == TRIAGE_CLASS_UNCLASSIFIED ||
        !triage_predict_element(&ctx->predict, id, flat, width, &want) ||
        want.legacy != reference || want.fused != fused) {
        return TRIAGE_CLASS_UNCLASSIFIED;
    }
    return k;
}

/* Tells the bucket about one differing element; an unexplained one with
 * what the fused side should have written (its prediction, else the
 * reference's value) and the old contents. */
static void triage_classify_note(const triage_classify_ctx *ctx, triage_bucket_seen *seen,
                                 gm_buf_id id, size_t flat, size_t width, int64_t reference,
                                 int64_t fused, triage_class k) {
    int64_t want = reference, prior = 0;
    triage_prediction p;
    if (k == TRIAGE_CLASS_UNCLASSIFIED) {
        if (triage_predict_element(&ctx->predict, id, flat, width, &p)) {
            want = p.fused;
        }
        prior = triage_predict_prior(ctx->c, id, flat);
    }
    triage_bucket_seen_note(seen, id, flat, width, (int)k, fused, want, prior);
}

/* How many leading columns of a page-table row the verdict compared: all
 * of them (strict), or the live ones. The oracle decides what is live
 * (gm_oracle_is_live); liveness only ends along a row, so its boundary is
 * found by bisection instead of asking for every cell. */
static size_t triage_classify_compared_cols(const gm_case *c, const harness_run_result *r, gm_buf_id id,
                                            size_t row, size_t width) {
    if (r->verdict.compare == GM_COMPARE_STRICT) {
        return width;
    }
    size_t lo = 0, hi = width; /* columns < lo are live, columns >= hi are not */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (gm_oracle_is_live(c, &r->reference, id, row * width + mid)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* A page table, row by row: its buffers are the big ones (bs x pages). */
static unsigned triage_classify_page_table(const triage_classify_ctx *ctx, const harness_run_result *r,
                                           gm_buf_id id, triage_bucket_seen *seen) {
    const gm_buffer *a = &r->reference.buf[id], *b = &r->fused.buf[id];
    const int32_t *x = (const int32_t *)a->data, *y = (const int32_t *)b->data;
    size_t width = a->dims[1];
    unsigned classes = 0;
    for (size_t i = 0; i < a->dims[0]; i++) {
        size_t n = triage_classify_compared_cols(ctx->c, r, id, i, width);
        for (size_t j = 0; j < n; j++) {
            size_t flat = i * width + j;
            if (x[flat] != y[flat]) {
                triage_class cell = triage_classify_page_cell(ctx, id, i, j);
                triage_class k =
                    triage_classify_explained(ctx, id, flat, width, x[flat], y[flat], cell);
                triage_classify_note(ctx, seen, id, flat, width, x[flat], y[flat], k);
                classes |= 1u << k;
            }
        }
    }
    return classes;
}

/* Element k of a one-dimensional buffer. The lengths have no known cause
 * of difference; cu_seqlens_q has one (legacy's arange for a negative
 * q_stride broadcasts or comes out short). */
static triage_class triage_classify_vector_element(const triage_classify_ctx *ctx, gm_buf_id id,
                                                   size_t k) {
    const gm_case *c = ctx->c;
    if (id == GM_BUF_SWA_OUT_CACHE_LOC) {
        return triage_classify_out_slot(ctx, k);
    }
    if (id == GM_BUF_CU_SEQLENS_Q && c->mode == GM_MODE_DRAFT_EXTEND_V2 && c->q_stride < 0) {
        return TRIAGE_CLASS_NEGATIVE_Q_STRIDE;
    }
    return TRIAGE_CLASS_UNCLASSIFIED;
}

/* A one-dimensional buffer: every element is compared at both levels. */
static unsigned triage_classify_vector(const triage_classify_ctx *ctx, const harness_run_result *r,
                                       gm_buf_id id, triage_bucket_seen *seen) {
    const gm_buffer *a = &r->reference.buf[id], *b = &r->fused.buf[id];
    unsigned classes = 0;
    for (size_t k = 0; k < gm_buffer_count(a); k++) {
        int64_t x = gm_buffer_get(a, k), y = gm_buffer_get(b, k);
        if (x != y) {
            triage_class element = triage_classify_vector_element(ctx, id, k);
            triage_class cls = triage_classify_explained(ctx, id, k, 1, x, y, element);
            triage_classify_note(ctx, seen, id, k, 1, x, y, cls);
            classes |= 1u << cls;
        }
    }
    return classes;
}

/* Whether both sides have buffer `id`, in one shape: else nothing in it
 * can be attributed to a cause and the whole buffer is unclassified. */
static bool triage_classify_same_shape(const harness_run_result *r, gm_buf_id id) {
    const gm_buffer *a = &r->reference.buf[id], *b = &r->fused.buf[id];
    return a->present && b->present && a->dims[0] == b->dims[0] && a->dims[1] == b->dims[1];
}

/* The classes of every element the verdict's level compared and that differs. */
static unsigned triage_classify_differences(const gm_case *c, const harness_run_result *r,
                                            triage_bucket_seen *seen) {
    triage_classify_ctx ctx;
    triage_classify_ctx_init(&ctx, c);
    unsigned classes = 0;
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        if (!(r->verdict.buffers & (1u << id))) {
            continue;
        }
        if (!triage_classify_same_shape(r, (gm_buf_id)id)) {
            triage_bucket_seen_note(seen, (gm_buf_id)id, 0, 0, TRIAGE_CLASS_UNCLASSIFIED, 0, 0, 0);
            classes |= 1u << TRIAGE_CLASS_UNCLASSIFIED;
        } else if (id == GM_BUF_PAGE_TABLE || id == GM_BUF_SWA_PAGE_TABLE) {
            classes |= triage_classify_page_table(&ctx, r, (gm_buf_id)id, seen);
        } else {
            classes |= triage_classify_vector(&ctx, r, (gm_buf_id)id, seen);
        }
    }
    return classes;
}

/* ---- fused out of bounds: the preconditions of SPEC section 3 ---------- */

/* Row i reads pages p < pages from pool row r = req_pool_indices[i]: the row
 * must exist, every flat read must stay inside the tensor, and with an SWA
 * page table every token read must index the mapping. */
static bool triage_classify_row_overruns(const gm_case *c, size_t i, size_t pages) {
    int64_t r = c->req_pool_indices[i];
    if (r < 0 || (uint64_t)r >= c->pool) {
        return true;
    }
    size_t total = c->pool * c->width;
    bool swa_reads = c->has_swa && c->swa.page_table;
    for (size_t p = 0; p < pages; p++) {
        unsigned __int128 flat = (unsigned __int128)(uint64_t)r * c->width +
                                 (unsigned __int128)p * (uint64_t)c->page_size;
        if (flat >= total) {
            return true;
        }
        int32_t tok = c->req_to_token[(size_t)flat];
        if (swa_reads && tok >= 0 && (uint64_t)tok >= c->swa.mapping_len) {
            return true;
        }
    }
    return false;
}

/* Locations among the first num_out_tokens that index past the mapping. */
static bool triage_classify_out_overruns(const gm_case *c) {
    const gm_swa *swa = &c->swa;
    if (!c->has_swa || !swa->has_out_len || swa->out_cache_loc == NULL) {
        return false;
    }
    size_t n = swa->n_out < swa->out_len ? swa->n_out : swa->out_len;
    for (size_t t = 0; t < n; t++) {
        int64_t loc = swa->out_cache_loc[t];
        if (loc >= 0 && (uint64_t)loc >= swa->mapping_len) {
            return true;
        }
    }
    return false;
}

/* Whether the case breaks a precondition of the fused kernel, computed from
 * the inputs alone. An empty batch launches nothing. */
static bool triage_classify_breaks_precondition(const gm_case *c) {
    if (c->bs == 0) {
        return false;
    }
    size_t max_num_pages = gm_case_max_num_pages(c);
    size_t pages = c->has_max_seq_pages ? (size_t)c->max_seq_pages : max_num_pages;
    if (pages > max_num_pages || triage_classify_out_overruns(c)) {
        return true;
    }
    for (size_t i = 0; pages > 0 && i < c->bs; i++) {
        if (triage_classify_row_overruns(c, i, pages)) {
            return true;
        }
    }
    return false;
}

/* ---- findings and signatures ------------------------------------------ */

/* The one class of a run whose buffers were not compared: legacy raised,
 * or the fused kernel would have left its buffers. */
static triage_class triage_classify_uncompared(const gm_case *c, const harness_run_result *r) {
    const char *error = r->fused.error;
    switch (r->verdict.status) {
    case GM_STATUS_REFERENCE_ERROR: return TRIAGE_CLASS_LEGACY_RAISES;
    case GM_STATUS_REFERENCE_DRIFT: return TRIAGE_CLASS_REFERENCE_DRIFT;
    case GM_STATUS_TARGET_FAILED: { /* its error starts with its class: "target_hung: ..." */
        char name[32];
        triage_class k = TRIAGE_CLASS_TARGET_CRASHED;
        snprintf(name, sizeof name, "%.*s", (int)strcspn(error, ":"), error);
        return triage_class_from_name(name, &k) ? k : TRIAGE_CLASS_TARGET_CRASHED;
    }
    default: break;
    }
    return triage_classify_breaks_precondition(c) ? TRIAGE_CLASS_FUSED_OUT_OF_BOUNDS
                                              : TRIAGE_CLASS_UNCLASSIFIED;
}

void triage_classify(const gm_case *c, const harness_run_result *r, triage_finding *out) {
    memset(out, 0, sizeof *out);
    out->status = r->verdict.status;
    out->mode = c->mode;
    out->buffers = r->verdict.buffers;
    triage_bucket_seen seen;
    triage_bucket_seen_init(&seen);
    switch (r->verdict.status) {
    case GM_STATUS_MATCH: break;
    case GM_STATUS_MISMATCH:
        if (triage_classify_breaks_precondition(c)) {
            /* SPEC 3 calls these inputs out of bounds, whatever the model's
             * wrapping address arithmetic happened to read (a pool row
             * of -2^63 times the width wraps back to row 0): its outputs
             * predict nothing. */
            out->classes = 1u << TRIAGE_CLASS_FUSED_OUT_OF_BOUNDS;
            snprintf(out->bucket, sizeof out->bucket, "fused_out_of_bounds|undetected|-");
            break;
        }
        out->classes = triage_classify_differences(c, r, &seen);
        triage_bucket_write_compared(c, r, &seen, out->bucket, sizeof out->bucket);
        break;
    default: {
        triage_class k = triage_classify_uncompared(c, r);
        out->classes = 1u << k;
        triage_bucket_write_uncompared(c, r, k, out->bucket, sizeof out->bucket);
        break;
    }
    }
    triage_finding_sign(out);
}

triage_class triage_classify_element(const gm_case *c, const harness_run_result *r, gm_buf_id id,
                                     size_t flat) {
    if (!gm_status_compared(r->verdict.status)) {
        return triage_classify_uncompared(c, r);
    }
    if ((unsigned)id >= GM_BUF_COUNT || !triage_classify_same_shape(r, id) ||
        flat >= gm_buffer_count(&r->reference.buf[id])) {
        return TRIAGE_CLASS_UNCLASSIFIED;
    }
    if (r->verdict.status == GM_STATUS_MISMATCH && triage_classify_breaks_precondition(c)) {
        return TRIAGE_CLASS_FUSED_OUT_OF_BOUNDS; /* as triage_classify: undefined outputs */
    }
    triage_classify_ctx ctx;
    triage_classify_ctx_init(&ctx, c);
    int64_t x = gm_buffer_get(&r->reference.buf[id], flat);
    int64_t y = gm_buffer_get(&r->fused.buf[id], flat);
    if (id == GM_BUF_PAGE_TABLE || id == GM_BUF_SWA_PAGE_TABLE) {
        size_t width = r->reference.buf[id].dims[1];
        triage_class cell = triage_classify_page_cell(&ctx, id, flat / width, flat % width);
        return triage_classify_explained(&ctx, id, flat, width, x, y, cell);
    }
    return triage_classify_explained(&ctx, id, flat, 1, x, y,
                                     triage_classify_vector_element(&ctx, id, flat));
}

/* Appends the names of the set bits of `mask`, joined by '+', or "-". */
static size_t triage_classify_append_names(char *buf, size_t size, size_t at, unsigned mask,
                                           int count, const char *(*name)(int)) {
    bool any = false;
    for (int k = 0; k < count; k++) {
        if (mask & (1u << k)) {
            int n = snprintf(buf + at, size - at, "%s%s", any ? "+" : "", name(k));
            at = n < 0 || (size_t)n >= size - at ? size - 1 : at + (size_t)n;
            any = true;
        }
    }
    if (!any) {
        int n = snprintf(buf + at, size - at, "-");
        at = n < 0 || (size_t)n >= size - at ? size - 1 : at + (size_t)n;
    }
    return at;
}

static const char *triage_classify_class_name_at(int k) {
    return triage_class_name((triage_class)k);
}
static const char *triage_classify_buf_name_at(int k) { return gm_buf_name((gm_buf_id)k); }

void triage_finding_sign(triage_finding *f) {
    char *s = f->signature;
    size_t size = sizeof f->signature;
    int n = snprintf(s, size, "%s|", gm_mode_name(f->mode));
    size_t at = n < 0 || (size_t)n >= size ? size - 1 : (size_t)n;
    at = triage_classify_append_names(s, size, at, f->classes, TRIAGE_CLASS_COUNT,
                                      triage_classify_class_name_at);
    if (at + 1 < size) {
        s[at++] = '|';
        s[at] = '\0';
    }
    triage_classify_append_names(s, size, at, f->buffers, GM_BUF_COUNT,
                                 triage_classify_buf_name_at);
}

/* ---- parsing a signature back ------------------------------------------ */

/* Where a parse is, for messages: the signature quoted once. */
typedef struct {
    char quoted[TRIAGE_SIGNATURE_MAX + 16];
    gm_error *err;
} triage_classify_parse_ctx;

/* A signature quoted whole when it is plain printable text of a sane
 * length (so that a message shows all of it), else cut and escaped. */
static void triage_classify_quote_signature(const char *text, char *buf, size_t size) {
    size_t n = strnlen(text, TRIAGE_SIGNATURE_MAX);
    bool plain = n < TRIAGE_SIGNATURE_MAX;
    for (size_t k = 0; plain && k < n; k++) {
        plain = text[k] > ' ' && text[k] < 127 && text[k] != '"' && text[k] != '\\';
    }
    if (plain) {
        snprintf(buf, size, "\"%s\"", text);
    } else {
        gm_jsonint_quote(text, buf, size);
    }
}

/* One unknown name in part `what` ("mode", "class", "buffer"). */
static bool triage_classify_parse_unknown(const triage_classify_parse_ctx *p, const char *what,
                                          const char *name) {
    char quoted[64];
    gm_jsonint_quote(name, quoted, sizeof quoted);
    return gm_error_set(p->err, GM_ERR_FORMAT,
                        "%s is not MODE|CLASS+...|BUFFER+... with known names: %s %s is unknown",
                        p->quoted, what, quoted);
}

/* One '+'-joined list of names (or "-") into a bit mask. The order is
 * checked afterwards, on the whole signature. */
static bool triage_classify_parse_names(const triage_classify_parse_ctx *p, char *list,
                                        const char *what, int count, const char *(*name)(int),
                                        unsigned *mask) {
    *mask = 0;
    if (strcmp(list, "-") == 0) {
        return true;
    }
    for (char *part = list; part != NULL;) {
        char *next = strchr(part, '+');
        if (next != NULL) {
            *next++ = '\0';
        }
        int k = 0;
        while (k < count && strcmp(part, name(k)) != 0) {
            k++;
        }
        if (k == count) {
            return triage_classify_parse_unknown(p, what, part);
        }
        *mask |= 1u << k;
        part = next;
    }
    return true;
}

/* Splits a copy of the signature at its two '|' into mode, classes and
 * buffers; false unless there are exactly three parts. */
static bool triage_classify_parse_split(const triage_classify_parse_ctx *p, char *copy,
                                        char *parts[3]) {
    size_t n = 1;
    parts[0] = copy;
    for (char *bar = strchr(copy, '|'); bar != NULL; bar = strchr(bar + 1, '|')) {
        if (n < 3) {
            parts[n] = bar + 1;
        }
        n++;
        *bar = '\0';
    }
    if (n != 3) {
        return gm_error_set(p->err, GM_ERR_FORMAT,
                            "%s is not MODE|CLASS+...|BUFFER+...: it has %zu part%s, not 3",
                            p->quoted, n, n == 1 ? "" : "s");
    }
    return true;
}

/* The status a finding with these classes had: the two classes of a run
 * whose buffers were not compared name it (gm_oracle.h's precedence). */
static gm_status triage_classify_status_of(unsigned classes) {
    const unsigned target_failed =
        (1u << TRIAGE_CLASS_TARGET_RAISED) | (1u << TRIAGE_CLASS_TARGET_CRASHED) |
        (1u << TRIAGE_CLASS_TARGET_HUNG) | (1u << TRIAGE_CLASS_TARGET_DEVIATES) |
        (1u << TRIAGE_CLASS_TARGET_WROTE_INPUT);
    if (classes & (1u << TRIAGE_CLASS_REFERENCE_DRIFT)) {
        return GM_STATUS_REFERENCE_DRIFT;
    }
    if (classes & target_failed) {
        return GM_STATUS_TARGET_FAILED;
    }
    if (classes & (1u << TRIAGE_CLASS_FUSED_OUT_OF_BOUNDS)) {
        return GM_STATUS_FUSED_OUT_OF_BOUNDS;
    }
    if (classes & (1u << TRIAGE_CLASS_LEGACY_RAISES)) {
        return GM_STATUS_REFERENCE_ERROR;
    }
    return GM_STATUS_MISMATCH;
}

bool triage_finding_parse(const char *s, triage_finding *out, gm_error *err) {
    triage_classify_parse_ctx p = {.err = err};
    triage_classify_quote_signature(s, p.quoted, sizeof p.quoted);
    memset(out, 0, sizeof *out);
    char copy[TRIAGE_SIGNATURE_MAX];
    char *parts[3];
    if (strnlen(s, TRIAGE_SIGNATURE_MAX) >= TRIAGE_SIGNATURE_MAX) {
        return gm_error_set(err, GM_ERR_FORMAT, "%s is not a signature: longer than %d bytes",
                            p.quoted, TRIAGE_SIGNATURE_MAX - 1);
    }
    strcpy(copy, s);
    if (!triage_classify_parse_split(&p, copy, parts)) {
        return false;
    }
    if (!gm_mode_from_name(parts[0], &out->mode)) {
        return triage_classify_parse_unknown(&p, "mode", parts[0]);
    }
    if (!triage_classify_parse_names(&p, parts[1], "class", TRIAGE_CLASS_COUNT,
                                     triage_classify_class_name_at, &out->classes) ||
        !triage_classify_parse_names(&p, parts[2], "buffer", GM_BUF_COUNT,
                                     triage_classify_buf_name_at, &out->buffers)) {
        return false;
    }
    out->status = triage_classify_status_of(out->classes);
    triage_finding_sign(out);
    if (strcmp(out->signature, s) != 0) {
        return gm_error_set(err, GM_ERR_FORMAT, "%s is not canonical; write it as \"%s\"",
                            p.quoted, out->signature);
    }
    return true;
}

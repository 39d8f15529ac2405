/* reference: the legacy ATen op sequence of the metadata rebuild, step by
 * step as SPEC section 2 lists it. Each reference_step_* function is one
 * step; the integer helpers below emulate ATen/Python integer semantics
 * (floor division, Python index wrap, slice clamping, int64 -> int32 low
 * bits, wrapping int32 sums). They are private to this file on purpose:
 * kernel/ must not share them (reference.h says why).
 *
 * Quantities that Python keeps as unbounded ints (M, msp, arange bounds)
 * are held in __int128: seq_lens are arbitrary int64 and step ids int32, so
 * no sum or product of them can overflow 128 bits.
 */
#include "reference.h"
#include "reference_faults.h" /* the planted faults below are marked GMFUZZ_REFERENCE_FAULT_ */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef __int128 reference_wide;

/* What a step tells the driver. */
typedef enum {
    REFERENCE_STEP_DONE,   /* go on with the next step */
    REFERENCE_STEP_RAISED, /* the legacy path raised: stop, report it */
    REFERENCE_STEP_FAILED, /* out of memory (err is set): stop */
} reference_step_status;

/* State carried from one step to the next. */
typedef struct {
    const gm_case *c;
    gm_outputs *out;
    reference_result *res;
    gm_error *err;
    size_t max_num_pages;   /* page-table row width */
    reference_wide max_len; /* M of step 1, a Python int */
    size_t cols;            /* page-table columns written (step 4) */
    int32_t *page_indices;  /* [bs, cols] token slots (step 5), heap */
} reference_state;

/* ---- integer helpers: ATen / Python semantics ------------------------- */

static bool reference_fits_i64(reference_wide v) { return v >= INT64_MIN && v <= INT64_MAX; }

/* Python's `a // b`: rounds toward negative infinity (b != 0). Operands
 * that fit in int64 (all but freak cases; b == -1 aside, whose quotient of
 * INT64_MIN does not) divide in 64 bits: the same quotient, without the
 * 128-bit division routine, which was a sixth of a sweep's reference. */
static reference_wide reference_floor_div(reference_wide a, reference_wide b) {
    if (reference_fits_i64(a) && reference_fits_i64(b) && b != -1) {
        int64_t x = (int64_t)a, y = (int64_t)b, q = x / y;
        return x % y != 0 && ((x < 0) != (y < 0)) ? q - 1 : q;
    }
    reference_wide q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) {
        q -= 1;
    }
    return q;
}

/* Python's ceil((a) / b) for integers, exactly. */
static reference_wide reference_ceil_div(reference_wide a, reference_wide b) {
    return -reference_floor_div(-a, b);
}

/* int64 -> int32 as ATen casts: keep the low 32 bits (two's complement).
 * Done without an out-of-range signed conversion. */
static int32_t reference_low32(uint64_t bits) {
    uint32_t u = (uint32_t)bits;
    if (u <= (uint32_t)INT32_MAX) {
        return (int32_t)u;
    }
    return (int32_t)(u - 0x80000000u) + INT32_MIN;
}

/* Low 32 bits of an exact (wide) integer. */
static int32_t reference_low32_wide(reference_wide v) {
    return reference_low32((uint64_t)(unsigned __int128)v);
}

/* acc + v in int32 that wraps modulo 2^32, as int32 cumsum does; unsigned
 * so that the wrap is defined behaviour. */
static int32_t reference_wrapping_add(int32_t acc, int32_t v) {
    uint32_t sum = (uint32_t)acc + (uint32_t)v; /* wraps modulo 2^32 */
    return reference_low32(sum);
}

/* Python indexing of a tensor of length `len` with `index`: negative
 * indices count from the end; false when outside [-len, len). */
static bool reference_wrap_index(int64_t index, size_t len, size_t *pos) {
    if (index >= 0) {
        if ((uint64_t)index >= len) {
            return false;
        }
        *pos = (size_t)index;
        return true;
    }
    uint64_t back = (uint64_t)0 - (uint64_t)index; /* |index|, no overflow */
    if (back > len) {
        return false;
    }
    *pos = len - (size_t)back;
    return true;
}

/* Length of `x[:stop]` for len(x) == len, Python slice rules. */
static size_t reference_slice_len(reference_wide stop, size_t len) {
    reference_wide n = stop >= 0 ? stop : (reference_wide)len + stop;
    if (n < 0) {
        return 0;
    }
    return n < (reference_wide)len ? (size_t)n : len;
}

/* Number of elements of arange(start, end, step), step != 0, exactly; it is
 * negative when the bounds run against the step's sign. */
static reference_wide reference_arange_len(reference_wide start, reference_wide end,
                                           reference_wide step) {
    return reference_ceil_div(end - start, step);
}

static int64_t reference_max_i64(const int64_t *values, size_t n) {
    int64_t best = values[0];
    for (size_t k = 1; k < n; k++) {
        if (values[k] > best) {
            best = values[k];
        }
    }
    return best;
}

/* ---- raising ----------------------------------------------------------- */

/* Records that the legacy path raised `kind` at `step`:
 * out->error = "<kind>: step N: <detail>". */
__attribute__((format(printf, 4, 5)))
static reference_step_status reference_raise_at(reference_state *st, reference_raise kind,
                                                int step, const char *fmt, ...) {
    char detail[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    st->res->raised = kind;
    st->res->step = step;
    gm_outputs_set_error(st->out, "%s: step %d: %s", reference_raise_name(kind), step, detail);
    if (st->out->error == NULL) {
        gm_error_set(st->err, GM_ERR_MEMORY, "out of memory for the reference error message");
        return REFERENCE_STEP_FAILED;
    }
    return REFERENCE_STEP_RAISED;
}

static reference_step_status reference_no_memory(reference_state *st, const char *what,
                                                 size_t n) {
    gm_error_set(st->err, GM_ERR_MEMORY, "reference: out of memory for %s (%zu elements)",
                 what, n);
    return REFERENCE_STEP_FAILED;
}

/* calloc(n) that never returns NULL for n == 0 and refuses n * size that
 * does not fit in size_t. */
static void *reference_alloc(size_t n, size_t size) {
    if (n > SIZE_MAX / size - 1) {
        return NULL;
    }
    return calloc(n + 1, size);
}

/* ---- the steps (SPEC section 2) ---------------------------------------- */

/* Step 1: M (a host max, except draft_decode which takes the device copy)
 * and cache_seqlens = int32(seq + offset). max() of an empty batch raises. */
static reference_step_status reference_step_lengths(reference_state *st) {
    const gm_case *c = st->c;
    const int64_t *seq_cpu = c->seq_lens_cpu != NULL ? c->seq_lens_cpu : c->seq_lens;
    const int64_t *max_source = seq_cpu;
    const char *max_name = c->seq_lens_cpu != NULL ? "seq_lens_cpu" : "seq_lens";
    int64_t offset = 0;
    switch (c->mode) {
    case GM_MODE_DRAFT_DECODE:
        offset = (int64_t)c->speculative_step_id + 1;
        max_source = c->seq_lens; /* the device copy, not seq_lens_cpu */
        max_name = "seq_lens";
        break;
    case GM_MODE_TARGET_VERIFY: offset = c->num_draft_tokens; break;
    default: break;
    }
    if (c->bs == 0) {
        return reference_raise_at(st, REFERENCE_EMPTY_REDUCTION, 1,
                                  "max() of %s, an empty tensor of size 0", max_name);
    }
    st->max_len = (reference_wide)reference_max_i64(max_source, c->bs) + offset;
    int32_t *cache_seqlens = gm_buffer_i32(&st->out->buf[GM_BUF_CACHE_SEQLENS]);
    for (size_t i = 0; i < c->bs; i++) {
        cache_seqlens[i] = reference_low32_wide((reference_wide)c->seq_lens[i] + offset);
    }
    return REFERENCE_STEP_DONE;
}

/* Step 2: cu_seqlens_k[1..bs] = int32 cumsum(cache_seqlens), wrapping;
 * cu_seqlens_k[0] is never written. */
static reference_step_status reference_step_cu_seqlens_k(reference_state *st) {
    const int32_t *cache_seqlens = gm_buffer_i32(&st->out->buf[GM_BUF_CACHE_SEQLENS]);
    int32_t *cu_k = gm_buffer_i32(&st->out->buf[GM_BUF_CU_SEQLENS_K]);
    int32_t acc = 0;
    for (size_t k = 0; k < st->c->bs; k++) {
        acc = reference_wrapping_add(acc, cache_seqlens[k]);
        cu_k[1 + k] = acc;
    }
    return REFERENCE_STEP_DONE;
}

/* Step 3, draft_extend_v2: cu_seqlens_q[1..bs] = arange(S, bs*S + 1, S).
 * Step 0 raises; an arange of one element broadcasts over the bs slots;
 * any other length than bs raises (copy_). Bounds that run against the
 * step's sign (bs == 1, S < 0) also raise in ATen; with length <= 0 they
 * land in the shape_mismatch branch, as in the prototype. */
static reference_step_status reference_cu_seqlens_q_strided(reference_state *st) {
    const gm_case *c = st->c;
    reference_wide stride = c->q_stride;
    if (stride == 0) {
        return reference_raise_at(st, REFERENCE_ZERO_STEP, 3,
                                  "arange for cu_seqlens_q with q_stride 0");
    }
    reference_wide end = (reference_wide)c->bs * stride + 1;
    reference_wide n = reference_arange_len(stride, end, stride);
    if (n < 0) {
        n = 0;
    }
    if (n != (reference_wide)c->bs && n != 1) {
        return reference_raise_at(st, REFERENCE_SHAPE_MISMATCH, 3,
                                  "arange(%d, %lld, %d) of size %lld copied into "
                                  "cu_seqlens_q[1:] of size %zu",
                                  (int)c->q_stride, (long long)end, (int)c->q_stride,
                                  (long long)n, c->bs);
    }
    int32_t *cu_q = gm_buffer_i32(&st->out->buf[GM_BUF_CU_SEQLENS_Q]);
    for (size_t k = 0; k < c->bs; k++) {
        /* element k of the arange, or element 0 when it broadcasts */
        reference_wide index = n == 1 ? 0 : (reference_wide)k;
        cu_q[1 + k] = reference_low32_wide(stride + stride * index);
    }
    return REFERENCE_STEP_DONE;
}

/* Step 3, draft_extend: cu_seqlens_q[1..bs] = int32 cumsum(qlens), wrapping. */
static reference_step_status reference_cu_seqlens_q_cumsum(reference_state *st) {
    int32_t *cu_q = gm_buffer_i32(&st->out->buf[GM_BUF_CU_SEQLENS_Q]);
    int32_t acc = 0;
    for (size_t k = 0; k < st->c->bs; k++) {
        acc = reference_wrapping_add(acc, st->c->qlens[k]);
        cu_q[1 + k] = acc;
    }
    return REFERENCE_STEP_DONE;
}

/* Step 3: cu_seqlens_q is rewritten only in the draft-extend modes. */
static reference_step_status reference_step_cu_seqlens_q(reference_state *st) {
    switch (st->c->mode) {
    case GM_MODE_DRAFT_EXTEND_V2: return reference_cu_seqlens_q_strided(st);
    case GM_MODE_DRAFT_EXTEND: return reference_cu_seqlens_q_cumsum(st);
    default: return REFERENCE_STEP_DONE;
    }
}

/* Step 4: msp = (M + P - 1) // P; cols = len(arange(0, max_context_len, P)[:msp]),
 * and that arange has max_num_pages elements. */
static reference_step_status reference_step_columns(reference_state *st) {
    reference_wide page_size = st->c->page_size;
    reference_wide msp = reference_floor_div(st->max_len + page_size - 1, page_size);
    st->cols = reference_slice_len(msp, st->max_num_pages);
    return REFERENCE_STEP_DONE;
}

/* Step 5: page_indices[i][j] = req_to_token[req_pool_indices[i]][j * P],
 * j < cols. The row index wraps when negative and raises when out of range;
 * like ATen's gather it is checked per element read, so an empty block
 * (cols == 0) checks nothing. */
static reference_step_status reference_step_page_indices(reference_state *st) {
    const gm_case *c = st->c;
    if (st->cols == 0) {
        return REFERENCE_STEP_DONE;
    }
    if (c->bs > SIZE_MAX / st->cols) {
        return reference_no_memory(st, "page_indices", SIZE_MAX);
    }
    st->page_indices = reference_alloc(c->bs * st->cols, sizeof(int32_t));
    if (st->page_indices == NULL) {
        return reference_no_memory(st, "page_indices", c->bs * st->cols);
    }
    for (size_t i = 0; i < c->bs; i++) {
        size_t row;
        if (!reference_wrap_index(c->req_pool_indices[i], c->pool, &row)) {
            return reference_raise_at(st, REFERENCE_INDEX_OUT_OF_RANGE, 5,
                                      "index %lld is out of bounds for req_to_token of size "
                                      "%zu (req_pool_indices[%zu])",
                                      (long long)c->req_pool_indices[i], c->pool, i);
        }
        const int32_t *tokens = c->req_to_token + row * c->width;
        for (size_t j = 0; j < st->cols; j++) {
            st->page_indices[i * st->cols + j] = tokens[j * (size_t)c->page_size];
        }
    }
    return REFERENCE_STEP_DONE;
}

/* Step 6: page_table[i][j] = page_indices[i][j] // P (floor), j < cols;
 * columns >= cols keep their old contents. */
static reference_step_status reference_step_page_table(reference_state *st) {
    int32_t *page_table = gm_buffer_i32(&st->out->buf[GM_BUF_PAGE_TABLE]);
    for (size_t i = 0; i < st->c->bs; i++) {
        for (size_t j = 0; j < st->cols; j++) {
            reference_wide token = st->page_indices[i * st->cols + j];
#if defined(GMFUZZ_REFERENCE_FAULT_PAGE_IDS_TRUNCATED)
            page_table[i * st->max_num_pages + j] = (int32_t)(token / st->c->page_size);
#else
            page_table[i * st->max_num_pages + j] =
                (int32_t)reference_floor_div(token, st->c->page_size);
#endif
        }
    }
    return REFERENCE_STEP_DONE;
}

/* Looks up mapping[index] the Python way; false when out of range. */
static bool reference_mapping_get(const gm_swa *swa, int64_t index, int64_t *value) {
    size_t pos;
    if (!reference_wrap_index(index, swa->mapping_len, &pos)) {
        return false;
    }
    *value = swa->mapping[pos];
    return true;
}

/* Step 7 gather: v[i][j] = int32(mapping[page_indices[i][j]]) for the whole
 * block, into `values`; raises on the first index out of range. */
static reference_step_status reference_swa_gather_pages(reference_state *st, int32_t *values) {
    const gm_swa *swa = &st->c->swa;
    for (size_t i = 0; i < st->c->bs; i++) {
        for (size_t j = 0; j < st->cols; j++) {
            int32_t token = st->page_indices[i * st->cols + j];
            int64_t slot;
            if (!reference_mapping_get(swa, token, &slot)) {
                return reference_raise_at(st, REFERENCE_INDEX_OUT_OF_RANGE, 7,
                                          "index %d is out of bounds for swa mapping of size "
                                          "%zu (page_indices[%zu][%zu])",
                                          (int)token, swa->mapping_len, i, j);
            }
            values[i * st->cols + j] = reference_low32((uint64_t)slot);
        }
    }
    return REFERENCE_STEP_DONE;
}

/* Step 7: swa_page_table[i][j] = int32(mapping[page_indices[i][j]]) // P,
 * j < cols, only when the case keeps an SWA page table. The whole block is
 * gathered before any write, so a raise leaves the table untouched. */
static reference_step_status reference_step_swa_page_table(reference_state *st) {
    const gm_case *c = st->c;
    if (!c->has_swa || !c->swa.page_table || st->cols == 0) {
        return REFERENCE_STEP_DONE;
    }
    /* bs * cols fits: step 5 allocated page_indices of that size */
    int32_t *values = reference_alloc(c->bs * st->cols, sizeof(int32_t));
    if (values == NULL) {
        return reference_no_memory(st, "swa page values", c->bs * st->cols);
    }
    reference_step_status status = reference_swa_gather_pages(st, values);
    if (status == REFERENCE_STEP_DONE) {
        int32_t *swa_table = gm_buffer_i32(&st->out->buf[GM_BUF_SWA_PAGE_TABLE]);
        for (size_t i = 0; i < c->bs; i++) {
            for (size_t j = 0; j < st->cols; j++) {
                reference_wide v = values[i * st->cols + j];
                swa_table[i * st->max_num_pages + j] =
                    (int32_t)reference_floor_div(v, c->page_size);
            }
        }
    }
    free(values);
    return status;
}

/* Step 8 gather: values[t] = int64(int32(mapping[out_cache_loc[t]])). */
static reference_step_status reference_swa_gather_locs(reference_state *st, int64_t *values) {
    const gm_swa *swa = &st->c->swa;
    for (size_t t = 0; t < swa->n_out; t++) {
        int64_t slot;
        if (!reference_mapping_get(swa, swa->out_cache_loc[t], &slot)) {
            return reference_raise_at(st, REFERENCE_INDEX_OUT_OF_RANGE, 8,
                                      "index %lld is out of bounds for swa mapping of size "
                                      "%zu (out_cache_loc[%zu])",
                                      (long long)swa->out_cache_loc[t], swa->mapping_len, t);
        }
#if defined(GMFUZZ_REFERENCE_FAULT_SWA_OUT_KEEPS_INT64)
        values[t] = slot;
#else
        values[t] = reference_low32((uint64_t)slot);
#endif
    }
    return REFERENCE_STEP_DONE;
}

/* Step 8 copy: buf[:n] <- values. The destination slice has min(n, out_len)
 * elements; copy_ raises unless the source has that length or length 1.
 * A length-1 source broadcasts into a slice of at most one element
 * (min(1, out_len)), so an element-wise copy of dst_len values covers it. */
static reference_step_status reference_swa_copy_locs(reference_state *st, const int64_t *values) {
    const gm_swa *swa = &st->c->swa;
    size_t dst_len = swa->n_out < swa->out_len ? swa->n_out : swa->out_len;
    if (swa->n_out != dst_len && swa->n_out != 1) {
        return reference_raise_at(st, REFERENCE_SHAPE_MISMATCH, 8,
                                  "out_cache_loc of size %zu copied into swa_out_cache_loc[:%zu] "
                                  "of size %zu",
                                  swa->n_out, swa->n_out, dst_len);
    }
    int64_t *buf = gm_buffer_i64(&st->out->buf[GM_BUF_SWA_OUT_CACHE_LOC]);
    for (size_t t = 0; t < dst_len; t++) {
        buf[t] = values[t];
    }
    return REFERENCE_STEP_DONE;
}

/* Step 8: only with a swa_out_cache_loc buffer AND an out_cache_loc.
 * Order as in the legacy code: buf[n:] <- 0 first, then the gather (may
 * raise index_out_of_range), then the copy (may raise shape_mismatch). */
static reference_step_status reference_step_swa_out_cache_loc(reference_state *st) {
    const gm_case *c = st->c;
    if (!c->has_swa || !c->swa.has_out_len || c->swa.out_cache_loc == NULL) {
        return REFERENCE_STEP_DONE;
    }
    int64_t *buf = gm_buffer_i64(&st->out->buf[GM_BUF_SWA_OUT_CACHE_LOC]);
    for (size_t t = c->swa.n_out; t < c->swa.out_len; t++) {
        buf[t] = 0;
    }
    int64_t *values = reference_alloc(c->swa.n_out, sizeof(int64_t));
    if (values == NULL) {
        return reference_no_memory(st, "swa out values", c->swa.n_out);
    }
    reference_step_status status = reference_swa_gather_locs(st, values);
    if (status == REFERENCE_STEP_DONE) {
        status = reference_swa_copy_locs(st, values);
    }
    free(values);
    return status;
}

/* ---- driver ------------------------------------------------------------ */

/* True when buffer `id` is present exactly when the case has it, with the
 * dims the steps index by. */
static bool reference_buffer_fits(const gm_case *c, const gm_outputs *out, gm_buf_id id) {
    int rank;
    size_t dims[2];
    const gm_buffer *b = &out->buf[id];
    if (!gm_case_buf_shape(c, id, &rank, dims)) {
        return !b->present;
    }
    return b->present && b->data != NULL && b->is_int64 == gm_buf_is_int64(id) &&
           b->dims[0] == dims[0] && (rank == 1 || b->dims[1] == dims[1]);
}

/* The preconditions the steps rely on (gm_case_check and
 * gm_outputs_prepare establish them): no division by zero, no read past a
 * req_to_token row, no write past a buffer. */
static bool reference_check_inputs(const gm_case *c, const gm_outputs *out, gm_error *err) {
    if (c->page_size < 1 || c->max_context_len < 1 || c->width < (size_t)c->max_context_len ||
        c->pool < 1 || c->req_to_token == NULL) {
        return gm_error_set(err, GM_ERR_USAGE, "reference: the case breaks the format rules");
    }
    if (c->bs > 0 && (c->req_pool_indices == NULL || c->seq_lens == NULL ||
                      (c->mode == GM_MODE_DRAFT_EXTEND && c->qlens == NULL))) {
        return gm_error_set(err, GM_ERR_USAGE, "reference: the case lacks a required input");
    }
    if (c->has_swa && (c->swa.mapping == NULL || c->swa.mapping_len < 1)) {
        return gm_error_set(err, GM_ERR_USAGE, "reference: swa.mapping is empty");
    }
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        if (!reference_buffer_fits(c, out, (gm_buf_id)id)) {
            return gm_error_set(err, GM_ERR_USAGE,
                                "reference: output buffer %s does not fit the case "
                                "(use gm_outputs_prepare)", gm_buf_name((gm_buf_id)id));
        }
    }
    return true;
}

typedef reference_step_status (*reference_step_fn)(reference_state *st);

bool reference_run(const gm_case *c, gm_outputs *out, reference_result *res, gm_error *err) {
    static const reference_step_fn steps[] = {
        reference_step_lengths,       reference_step_cu_seqlens_k,
        reference_step_cu_seqlens_q,  reference_step_columns,
        reference_step_page_indices,  reference_step_page_table,
        reference_step_swa_page_table, reference_step_swa_out_cache_loc,
    };
    reference_result local_res;
    reference_state st = {
        .c = c, .out = out, .res = res != NULL ? res : &local_res, .err = err,
    };
    st.res->raised = REFERENCE_OK;
    st.res->step = 0;
    if (!reference_check_inputs(c, out, err)) {
        return false;
    }
    st.max_num_pages = gm_case_max_num_pages(c);
    reference_step_status status = REFERENCE_STEP_DONE;
    for (size_t k = 0; k < sizeof steps / sizeof steps[0] && status == REFERENCE_STEP_DONE; k++) {
        status = steps[k](&st);
    }
    free(st.page_indices);
    return status != REFERENCE_STEP_FAILED;
}

const char *reference_raise_name(reference_raise r) {
    switch (r) {
    case REFERENCE_OK: return "ok";
    case REFERENCE_INDEX_OUT_OF_RANGE: return "index_out_of_range";
    case REFERENCE_SHAPE_MISMATCH: return "shape_mismatch";
    case REFERENCE_ZERO_STEP: return "zero_step";
    case REFERENCE_EMPTY_REDUCTION: return "empty_reduction";
    }
    return "unknown";
}

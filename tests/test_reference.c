/* Unit tests of reference/: small cases built in C, exact expected outputs.
 *
 * Every expected value below was worked out by hand from SPEC section 2
 * (floor division, Python index wrap, slice rules, low-32-bit casts,
 * wrapping cumsum) and cross-checked against the lead's Python prototype of
 * the legacy sequence; none was copied from the implementation's output.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gm_case.h"
#include "gm_outputs.h"
#include "gm_test.h"
#include "reference.h"

#define TWO_POW_31 ((int64_t)1 << 31)
#define TWO_POW_32 ((int64_t)1 << 32)

/* ---- a tiny case builder ------------------------------------------------ */

/* malloc'ed copy of n elements of src, or n zeroed elements when src is
 * NULL; never NULL for n == 0, since the case model reads NULL as "absent". */
static void *test_reference_dup(const void *src, size_t n, size_t size) {
    void *dst = calloc(n + 1, size);
    CHECK(dst != NULL);
    if (dst != NULL && src != NULL && n > 0) {
        memcpy(dst, src, n * size);
    }
    return dst;
}

/* A one-mode case with req_to_token[r][k] = 1000 * r + k (every slot says
 * where it is), no batch yet, no SWA. */
static void test_reference_begin(gm_case *c, gm_mode mode, int32_t page_size,
                                 int32_t max_context_len, size_t pool, size_t width) {
    gm_case_init(c);
    c->mode = mode;
    c->page_size = page_size;
    c->max_context_len = max_context_len;
    c->pool = pool;
    c->width = width;
    c->req_to_token = test_reference_dup(NULL, pool * width, sizeof(int32_t));
    for (size_t r = 0; r < pool; r++) {
        for (size_t k = 0; k < width; k++) {
            c->req_to_token[r * width + k] = (int32_t)(1000 * r + k);
        }
    }
}

static void test_reference_token(gm_case *c, size_t row, size_t col, int32_t value) {
    c->req_to_token[row * c->width + col] = value;
}

/* seq_cpu NULL: seq_lens_cpu absent (equal to seq_lens). */
static void test_reference_batch(gm_case *c, size_t bs, const int64_t *req_pool_indices,
                                 const int64_t *seq_lens, const int64_t *seq_lens_cpu) {
    c->bs = bs;
    c->req_pool_indices = test_reference_dup(req_pool_indices, bs, sizeof(int64_t));
    c->seq_lens = test_reference_dup(seq_lens, bs, sizeof(int64_t));
    c->seq_lens_cpu =
        seq_lens_cpu != NULL ? test_reference_dup(seq_lens_cpu, bs, sizeof(int64_t)) : NULL;
}

static void test_reference_swa(gm_case *c, const int64_t *mapping, size_t len, bool page_table) {
    c->has_swa = true;
    c->swa.mapping = test_reference_dup(mapping, len, sizeof(int64_t));
    c->swa.mapping_len = len;
    c->swa.page_table = page_table;
}

/* loc NULL: no out_cache_loc this step. */
static void test_reference_out_loc(gm_case *c, const int64_t *loc, size_t n, size_t out_len) {
    c->swa.out_cache_loc = loc != NULL ? test_reference_dup(loc, n, sizeof(int64_t)) : NULL;
    c->swa.n_out = n;
    c->swa.has_out_len = true;
    c->swa.out_len = out_len;
}

static void test_reference_init_fill(gm_case *c, gm_buf_id id, int64_t fill) {
    c->init[id].kind = GM_INIT_FILL;
    c->init[id].fill = fill;
}

static void test_reference_init_array(gm_case *c, gm_buf_id id, const int64_t *values,
                                      size_t n) {
    c->init[id].kind = GM_INIT_ARRAY;
    c->init[id].values = test_reference_dup(values, n, sizeof(int64_t));
    c->init[id].len = n;
}

/* Checks the case, prepares the prior contents and runs the reference. */
static void test_reference_run(const gm_case *c, gm_outputs *out, reference_result *res) {
    gm_error err;
    gm_error_clear(&err);
    gm_outputs_init(out);
    CHECK(gm_case_check(c, &err));
    CHECK(gm_outputs_prepare(out, c, &err));
    bool ran = reference_run(c, out, res, &err);
    CHECK(ran);
    if (!ran) {
        fprintf(stderr, "  reference_run: %s\n", err.msg);
    }
}

static void test_reference_done(gm_case *c, gm_outputs *out) {
    gm_outputs_free(out);
    gm_case_free(c);
}

/* Buffer `id` holds exactly expected[0..n) (row-major). */
static void test_reference_expect(const gm_outputs *out, gm_buf_id id, const int64_t *expected,
                                  size_t n, int line) {
    const gm_buffer *b = &out->buf[id];
    gm_test_checks++;
    if (!b->present || gm_buffer_count(b) != n) {
        gm_test_failures++;
        fprintf(stderr, "line %d: %s: %zu elements (present %d), expected %zu\n", line,
                gm_buf_name(id), gm_buffer_count(b), (int)b->present, n);
        return;
    }
    for (size_t k = 0; k < n; k++) {
        int64_t got = gm_buffer_get(b, k);
        if (got != expected[k]) {
            gm_test_failures++;
            fprintf(stderr, "line %d: %s[%zu] = %" PRId64 ", expected %" PRId64 "\n", line,
                    gm_buf_name(id), k, got, expected[k]);
            return;
        }
    }
}

#define EXPECT_BUF(out, id, ...)                                                           \
    test_reference_expect((out), (id), (const int64_t[]){__VA_ARGS__},                    \
                          sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t), __LINE__)

/* The run raised `kind` at `step`, and out->error names both. */
static void test_reference_expect_raise(const gm_outputs *out, const reference_result *res,
                                        reference_raise kind, int step, int line) {
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s: step %d: ", reference_raise_name(kind), step);
    gm_test_checks++;
    if (res->raised != kind || res->step != step || out->error == NULL ||
        strncmp(out->error, prefix, strlen(prefix)) != 0) {
        gm_test_failures++;
        fprintf(stderr, "line %d: expected a raise \"%s...\", got %s at step %d, error \"%s\"\n",
                line, prefix, reference_raise_name(res->raised), res->step,
                out->error != NULL ? out->error : "(null)");
    }
}

#define EXPECT_RAISE(out, res, kind, step)                                                 \
    test_reference_expect_raise((out), (res), (kind), (step), __LINE__)

#define EXPECT_OK(out, res)                                                                \
    do {                                                                                   \
        CHECK_EQ_I64((res)->raised, REFERENCE_OK);                                         \
        CHECK((out)->error == NULL);                                                       \
    } while (0)

/* ---- tests -------------------------------------------------------------- */

static void test_reference_raise_names(void) {
    CHECK(strcmp(reference_raise_name(REFERENCE_OK), "ok") == 0);
    CHECK(strcmp(reference_raise_name(REFERENCE_INDEX_OUT_OF_RANGE), "index_out_of_range") == 0);
    CHECK(strcmp(reference_raise_name(REFERENCE_SHAPE_MISMATCH), "shape_mismatch") == 0);
    CHECK(strcmp(reference_raise_name(REFERENCE_ZERO_STEP), "zero_step") == 0);
    CHECK(strcmp(reference_raise_name(REFERENCE_EMPTY_REDUCTION), "empty_reduction") == 0);
}

/* Steps 6 floors: -1 // 128 == -1, -129 // 128 == -2 (truncation: 0, -1). */
static void test_reference_floor_division_p128(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_begin(&c, GM_MODE_DECODE, 128, 256, 1, 256);
    test_reference_token(&c, 0, 0, -1);
    test_reference_token(&c, 0, 128, -129);
    test_reference_batch(&c, 1, (int64_t[]){0}, (int64_t[]){200}, NULL);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, -1, -2);
    test_reference_done(&c, &out);
}

/* P = 16: page_indices -1 -> -1, -17 -> -2, 33 -> 2. */
static void test_reference_floor_division_p16(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_begin(&c, GM_MODE_DECODE, 16, 48, 1, 48);
    test_reference_token(&c, 0, 0, -1);
    test_reference_token(&c, 0, 16, -17);
    test_reference_token(&c, 0, 32, 33);
    test_reference_batch(&c, 1, (int64_t[]){0}, (int64_t[]){48}, NULL);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CACHE_SEQLENS, 48);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 0, 48);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_Q, 0, 1); /* decode: the preset stays */
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, -1, -2, 2);
    test_reference_done(&c, &out);
}

/* Step 5: req_pool_indices -1 reads the last row, -len the first. */
static void test_reference_wrap_req_pool_indices(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_begin(&c, GM_MODE_DECODE, 4, 4, 3, 4);
    for (size_t r = 0; r < 3; r++) {
        test_reference_token(&c, r, 0, (int32_t)(100 * (r + 1))); /* 100, 200, 300 */
    }
    test_reference_batch(&c, 3, (int64_t[]){-1, -3, 1}, (int64_t[]){4, 4, 4}, NULL);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 75, 25, 50);
    test_reference_done(&c, &out);
}

/* Step 5: -len-1 and len are out of range and raise. */
static void test_reference_req_pool_index_out_of_range(void) {
    const int64_t bad[] = {-4, 3};
    for (size_t k = 0; k < 2; k++) {
        gm_case c;
        gm_outputs out;
        reference_result res;
        test_reference_begin(&c, GM_MODE_DECODE, 4, 4, 3, 4);
        test_reference_batch(&c, 2, (int64_t[]){0, bad[k]}, (int64_t[]){4, 4}, NULL);
        test_reference_run(&c, &out, &res);
        EXPECT_RAISE(&out, &res, REFERENCE_INDEX_OUT_OF_RANGE, 5);
        CHECK_STR_CONTAINS(out.error, "req_pool_indices[1]");
        CHECK_STR_CONTAINS(out.error, k == 0 ? "index -4 " : "index 3 ");
        test_reference_done(&c, &out);
    }
}

/* Step 5 reads nothing when cols == 0 (seq 0 -> msp 0), so a bad row index
 * there is never looked at (ATen checks indices per element gathered). */
static void test_reference_bad_row_with_no_columns(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_begin(&c, GM_MODE_DECODE, 4, 4, 3, 4);
    test_reference_init_fill(&c, GM_BUF_PAGE_TABLE, -7);
    test_reference_batch(&c, 1, (int64_t[]){-4}, (int64_t[]){0}, NULL);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CACHE_SEQLENS, 0);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, -7);
    test_reference_done(&c, &out);
}

static const int64_t test_reference_mapping5[] = {10, 21, -3, 40, -1};

/* Step 7: page_indices -1 reads mapping[4], -5 (== -len) mapping[0]; the
 * int32 value then floors by P = 2. */
static void test_reference_wrap_mapping_pages(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_begin(&c, GM_MODE_DECODE, 2, 6, 1, 6);
    test_reference_token(&c, 0, 0, -1);
    test_reference_token(&c, 0, 2, -5);
    test_reference_token(&c, 0, 4, 2);
    test_reference_batch(&c, 1, (int64_t[]){0}, (int64_t[]){6}, NULL);
    test_reference_swa(&c, test_reference_mapping5, 5, true);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, -1, -3, 1);
    EXPECT_BUF(&out, GM_BUF_SWA_PAGE_TABLE, -1, 5, -2);
    CHECK(!out.buf[GM_BUF_SWA_OUT_CACHE_LOC].present);
    test_reference_done(&c, &out);
}

/* Step 7: -len-1 and len raise; the block is gathered before any write, so
 * the SWA table keeps its prior contents while step 6 already wrote. */
static void test_reference_mapping_pages_out_of_range(void) {
    const int32_t bad[] = {-6, 5};
    for (size_t k = 0; k < 2; k++) {
        gm_case c;
        gm_outputs out;
        reference_result res;
        test_reference_begin(&c, GM_MODE_DECODE, 2, 6, 1, 6);
        test_reference_token(&c, 0, 0, 1);
        test_reference_token(&c, 0, 2, 3);
        test_reference_token(&c, 0, 4, bad[k]);
        test_reference_batch(&c, 1, (int64_t[]){0}, (int64_t[]){6}, NULL);
        test_reference_swa(&c, test_reference_mapping5, 5, true);
        test_reference_init_fill(&c, GM_BUF_SWA_PAGE_TABLE, -7);
        test_reference_run(&c, &out, &res);
        EXPECT_RAISE(&out, &res, REFERENCE_INDEX_OUT_OF_RANGE, 7);
        CHECK_STR_CONTAINS(out.error, k == 0 ? "index -6 is out of bounds for swa mapping of size 5"
                                             : "index 5 is out of bounds for swa mapping of size 5");
        CHECK_STR_CONTAINS(out.error, "page_indices[0][2]");
        EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 0, 1, k == 0 ? -3 : 2);
        EXPECT_BUF(&out, GM_BUF_SWA_PAGE_TABLE, -7, -7, -7);
        test_reference_done(&c, &out);
    }
}

/* Step 8: out_cache_loc -1 -> mapping[4], -5 -> mapping[0]. */
static void test_reference_wrap_mapping_out_loc(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_begin(&c, GM_MODE_DECODE, 2, 6, 1, 6);
    test_reference_batch(&c, 1, (int64_t[]){0}, (int64_t[]){6}, NULL);
    test_reference_swa(&c, test_reference_mapping5, 5, false);
    test_reference_out_loc(&c, (int64_t[]){-1, -5, 1}, 3, 3);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    CHECK(!out.buf[GM_BUF_SWA_PAGE_TABLE].present);
    EXPECT_BUF(&out, GM_BUF_SWA_OUT_CACHE_LOC, -1, 10, 21);
    test_reference_done(&c, &out);
}

/* Step 8: -len-1 and len raise index_out_of_range. */
static void test_reference_mapping_out_loc_out_of_range(void) {
    const int64_t bad[] = {-6, 5};
    for (size_t k = 0; k < 2; k++) {
        gm_case c;
        gm_outputs out;
        reference_result res;
        test_reference_begin(&c, GM_MODE_DECODE, 2, 6, 1, 6);
        test_reference_batch(&c, 1, (int64_t[]){0}, (int64_t[]){6}, NULL);
        test_reference_swa(&c, test_reference_mapping5, 5, true);
        test_reference_out_loc(&c, (int64_t[]){0, bad[k]}, 2, 2);
        test_reference_run(&c, &out, &res);
        EXPECT_RAISE(&out, &res, REFERENCE_INDEX_OUT_OF_RANGE, 8);
        CHECK_STR_CONTAINS(out.error, "out_cache_loc[1]");
        test_reference_done(&c, &out);
    }
}

/* Step 4: a negative seq gives a negative msp, and x[:msp] keeps
 * max(0, len + msp) columns: seq -5, P 4 -> msp = -2 // 4 = -1 -> 3 of 4. */
static void test_reference_negative_slice_stop(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_begin(&c, GM_MODE_DECODE, 4, 16, 1, 16);
    test_reference_init_fill(&c, GM_BUF_PAGE_TABLE, -7);
    test_reference_batch(&c, 1, (int64_t[]){0}, (int64_t[]){-5}, NULL);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CACHE_SEQLENS, -5);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 0, -5);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 0, 1, 2, -7); /* tokens 0, 4, 8 */
    test_reference_done(&c, &out);
}

/* Step 4: seq -100 -> msp -25, below -len: no column at all. */
static void test_reference_negative_slice_stop_below_len(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_begin(&c, GM_MODE_DECODE, 4, 16, 1, 16);
    test_reference_init_fill(&c, GM_BUF_PAGE_TABLE, -7);
    test_reference_batch(&c, 1, (int64_t[]){0}, (int64_t[]){-100}, NULL);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, -7, -7, -7, -7);
    test_reference_done(&c, &out);
}

/* Step 4: msp 250 > max_num_pages 4: the slice clamps to all 4 columns. */
static void test_reference_msp_beyond_width(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_begin(&c, GM_MODE_DECODE, 4, 16, 2, 20);
    test_reference_init_fill(&c, GM_BUF_PAGE_TABLE, -7);
    test_reference_batch(&c, 1, (int64_t[]){1}, (int64_t[]){1000}, NULL);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    /* row 1: tokens 1000, 1004, 1008, 1012 */
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 250, 251, 252, 253);
    test_reference_done(&c, &out);
}

/* Step 1: int32(seq) keeps the low 32 bits: 2^32 + 5 -> 5, 2^31 -> INT32_MIN. */
static void test_reference_cache_seqlens_low32(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_begin(&c, GM_MODE_DECODE, 4, 8, 1, 8);
    test_reference_batch(&c, 3, (int64_t[]){0, 0, 0},
                         (int64_t[]){TWO_POW_32 + 5, TWO_POW_31, -TWO_POW_32 - 1}, NULL);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CACHE_SEQLENS, 5, INT32_MIN, -1);
    /* 5, 5 + INT32_MIN, then + (-1) */
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 0, 5, -2147483643, -2147483644);
    /* M = 2^32 + 5 is a Python int: every column is live */
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 0, 1, 0, 1, 0, 1);
    test_reference_done(&c, &out);
}

/* Step 2: the int32 cumsum wraps past INT32_MAX. */
static void test_reference_cumsum_wraps(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_begin(&c, GM_MODE_DECODE, 4, 8, 1, 8);
    test_reference_init_fill(&c, GM_BUF_CU_SEQLENS_K, 77);
    test_reference_batch(&c, 3, (int64_t[]){0, 0, 0}, (int64_t[]){INT32_MAX, 1, 2}, NULL);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    /* [0] is never written: it keeps its prior 77 */
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 77, INT32_MAX, INT32_MIN, -2147483646);
    test_reference_done(&c, &out);
}

/* Step 1: draft_decode takes M from the device seq_lens (+ step_id + 1),
 * not from seq_lens_cpu: seq 5, step 2 -> M 8 -> msp 2 of 4 columns. */
static void test_reference_draft_decode_device_max(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_begin(&c, GM_MODE_DRAFT_DECODE, 4, 16, 1, 16);
    c.speculative_step_id = 2;
    test_reference_init_fill(&c, GM_BUF_PAGE_TABLE, -7);
    test_reference_batch(&c, 1, (int64_t[]){0}, (int64_t[]){5}, (int64_t[]){100});
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CACHE_SEQLENS, 8);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 0, 8);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_Q, 0, 1);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 0, 1, -7, -7);
    test_reference_done(&c, &out);
}

/* Step 1: target_verify M = max(seq_cpu) + D: seq_cpu 6, D 3 -> M 9 ->
 * msp 3; cache_seqlens = seq + D; cu_seqlens_q keeps its [0, D] preset. */
static void test_reference_target_verify_host_max(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_begin(&c, GM_MODE_TARGET_VERIFY, 4, 16, 1, 16);
    c.num_draft_tokens = 3;
    test_reference_init_fill(&c, GM_BUF_PAGE_TABLE, -7);
    test_reference_batch(&c, 1, (int64_t[]){0}, (int64_t[]){1}, (int64_t[]){6});
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CACHE_SEQLENS, 4);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 0, 4);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_Q, 0, 3);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 0, 1, 2, -7);
    test_reference_done(&c, &out);
}

/* stale_host_seqlens: seq 9 but seq_cpu 0 -> M 0 -> no column written,
 * though cache_seqlens says 9 tokens are live. */
static void test_reference_stale_host_seqlens(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_begin(&c, GM_MODE_DECODE, 4, 16, 1, 16);
    test_reference_init_fill(&c, GM_BUF_PAGE_TABLE, -7);
    test_reference_batch(&c, 1, (int64_t[]){0}, (int64_t[]){9}, (int64_t[]){0});
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CACHE_SEQLENS, 9);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, -7, -7, -7, -7);
    test_reference_done(&c, &out);
}

/* Steps 7 and 8: mapping values outside int32 keep their low 32 bits
 * BEFORE the floor division: 2^40+3 -> 3 -> 1; 2^32-1 -> -1 -> -1;
 * 2^31 -> INT32_MIN -> -2^30; 2^33+17 -> 17 -> 8. */
static void test_reference_mapping_int32_truncation(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    const int64_t mapping[] = {((int64_t)1 << 40) + 3, TWO_POW_32 - 1, TWO_POW_31,
                               ((int64_t)1 << 33) + 17};
    test_reference_begin(&c, GM_MODE_DECODE, 2, 8, 1, 8);
    for (int32_t j = 0; j < 4; j++) {
        test_reference_token(&c, 0, 2 * (size_t)j, j);
    }
    test_reference_batch(&c, 1, (int64_t[]){0}, (int64_t[]){8}, NULL);
    test_reference_swa(&c, mapping, 4, true);
    test_reference_out_loc(&c, (int64_t[]){0, 1, 2, 3}, 4, 4);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 0, 0, 1, 1);
    EXPECT_BUF(&out, GM_BUF_SWA_PAGE_TABLE, 1, -1, -1073741824, 8);
    EXPECT_BUF(&out, GM_BUF_SWA_OUT_CACHE_LOC, 3, -1, INT32_MIN, 17);
    test_reference_done(&c, &out);
}

/* A draft_extend_v2 case of `bs` padded rows with q_stride `stride`. */
static void test_reference_strided_case(gm_case *c, size_t bs, int32_t stride) {
    int64_t zeros[4] = {0, 0, 0, 0};
    int64_t ones[4] = {1, 1, 1, 1};
    test_reference_begin(c, GM_MODE_DRAFT_EXTEND_V2, 4, 8, 1, 8);
    c->q_stride = stride;
    test_reference_batch(c, bs, zeros, ones, NULL);
}

/* Step 3: q_stride 0 raises zero_step. */
static void test_reference_q_stride_zero(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_strided_case(&c, 2, 0);
    test_reference_run(&c, &out, &res);
    EXPECT_RAISE(&out, &res, REFERENCE_ZERO_STEP, 3);
    test_reference_done(&c, &out);
}

/* Step 3: arange(S, 3S+1, S) = [S, 2S, 3S], int32 wrapping for S = 2^30. */
static void test_reference_q_stride_positive(void) {
    const int32_t strides[] = {4, 1 << 30};
    const int64_t expected[2][4] = {{0, 4, 8, 12}, {0, 1073741824, INT32_MIN, -1073741824}};
    for (size_t k = 0; k < 2; k++) {
        gm_case c;
        gm_outputs out;
        reference_result res;
        test_reference_strided_case(&c, 3, strides[k]);
        test_reference_run(&c, &out, &res);
        EXPECT_OK(&out, &res);
        test_reference_expect(&out, GM_BUF_CU_SEQLENS_Q, expected[k], 4, __LINE__);
        EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 0, 1, 2, 3);
        test_reference_done(&c, &out);
    }
}

/* Step 3, S = -5: bs 2 -> arange(-5, -9, -5) = [-5], which broadcasts over
 * both slots; bs 3 -> arange(-5, -14, -5) = [-5, -10]: shape_mismatch. */
static void test_reference_q_stride_negative(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_strided_case(&c, 2, -5);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_Q, 0, -5, -5);
    test_reference_done(&c, &out);

    test_reference_strided_case(&c, 3, -5);
    test_reference_run(&c, &out, &res);
    EXPECT_RAISE(&out, &res, REFERENCE_SHAPE_MISMATCH, 3);
    CHECK_STR_CONTAINS(out.error, "cu_seqlens_q");
    test_reference_done(&c, &out);
}

/* Step 3, S = -1: bs 3 -> arange(-1, -2, -1) = [-1] broadcasts; bs 2 ->
 * arange(-1, -1, -1) is empty and bs 1 -> arange(-1, 0, -1) runs against
 * the step's sign: both raise. */
static void test_reference_q_stride_minus_one(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_strided_case(&c, 3, -1);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_Q, 0, -1, -1, -1);
    test_reference_done(&c, &out);

    for (size_t bs = 1; bs <= 2; bs++) {
        test_reference_strided_case(&c, bs, -1);
        test_reference_run(&c, &out, &res);
        EXPECT_RAISE(&out, &res, REFERENCE_SHAPE_MISMATCH, 3);
        test_reference_done(&c, &out);
    }
}

/* Step 3, draft_extend: cu_seqlens_q[1..] = wrapping int32 cumsum(qlens);
 * cu_seqlens_q[0] is never written. */
static void test_reference_qlens_cumsum(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_begin(&c, GM_MODE_DRAFT_EXTEND, 4, 8, 1, 8);
    test_reference_batch(&c, 3, (int64_t[]){0, 0, 0}, (int64_t[]){1, 2, 3}, NULL);
    c.qlens = test_reference_dup((int32_t[]){INT32_MAX, 1, 5}, 3, sizeof(int32_t));
    test_reference_init_fill(&c, GM_BUF_CU_SEQLENS_Q, 9);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_Q, 9, INT32_MAX, INT32_MIN, -2147483643);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 0, 1, 3, 6);
    test_reference_done(&c, &out);
}

/* A decode case with an SWA mapping [0, 10, 20, ..., 70] (no page table)
 * and a swa_out_cache_loc buffer of out_len elements, prior contents 9. */
static void test_reference_out_loc_case(gm_case *c, const int64_t *loc, size_t n,
                                        size_t out_len) {
    const int64_t mapping[] = {0, 10, 20, 30, 40, 50, 60, 70};
    test_reference_begin(c, GM_MODE_DECODE, 4, 8, 1, 8);
    test_reference_batch(c, 1, (int64_t[]){0}, (int64_t[]){8}, NULL);
    test_reference_swa(c, mapping, 8, false);
    test_reference_out_loc(c, loc, n, out_len);
    test_reference_init_fill(c, GM_BUF_SWA_OUT_CACHE_LOC, 9);
}

/* Step 8: n 3 > out_len 2 raises shape_mismatch (copy_ of 3 into 2). */
static void test_reference_out_loc_longer_than_buffer(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_out_loc_case(&c, (int64_t[]){1, 2, 3}, 3, 2);
    test_reference_run(&c, &out, &res);
    EXPECT_RAISE(&out, &res, REFERENCE_SHAPE_MISMATCH, 8);
    CHECK_STR_CONTAINS(out.error, "swa_out_cache_loc");
    test_reference_done(&c, &out);
}

/* Step 8: n == 1 > out_len == 0: the one value broadcasts into an empty
 * slice, no raise. */
static void test_reference_out_loc_single_into_empty(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_out_loc_case(&c, (int64_t[]){3}, 1, 0);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    CHECK(out.buf[GM_BUF_SWA_OUT_CACHE_LOC].present);
    CHECK_EQ_I64(gm_buffer_count(&out.buf[GM_BUF_SWA_OUT_CACHE_LOC]), 0);
    test_reference_done(&c, &out);
}

/* Step 8: n < out_len: buf[:n] gets the slots, buf[n:] becomes 0. n == 1
 * and n == 0 (an empty list, not an absent one) follow the same rule. */
static void test_reference_out_loc_zero_tail(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_out_loc_case(&c, (int64_t[]){2, 7}, 2, 4);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_SWA_OUT_CACHE_LOC, 20, 70, 0, 0);
    test_reference_done(&c, &out);

    test_reference_out_loc_case(&c, (int64_t[]){5}, 1, 3);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_SWA_OUT_CACHE_LOC, 50, 0, 0);
    test_reference_done(&c, &out);

    test_reference_out_loc_case(&c, (int64_t[]){0}, 0, 2);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_SWA_OUT_CACHE_LOC, 0, 0);
    test_reference_done(&c, &out);
}

/* Step 8 runs only when an out_cache_loc is given: without one the
 * buffer keeps its prior contents (out_cache_loc_absent). */
static void test_reference_out_loc_absent(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_out_loc_case(&c, NULL, 0, 3);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_SWA_OUT_CACHE_LOC, 9, 9, 9);
    test_reference_done(&c, &out);
}

/* Step 1: max() of an empty batch raises, in every mode. */
static void test_reference_empty_batch(void) {
    for (int mode = 0; mode < GM_MODE_COUNT; mode++) {
        gm_case c;
        gm_outputs out;
        reference_result res;
        test_reference_begin(&c, (gm_mode)mode, 4, 8, 1, 8);
        test_reference_batch(&c, 0, NULL, NULL, NULL);
        c.qlens = test_reference_dup(NULL, 0, sizeof(int32_t));
        c.q_stride = 1;
        test_reference_run(&c, &out, &res);
        EXPECT_RAISE(&out, &res, REFERENCE_EMPTY_REDUCTION, 1);
        test_reference_done(&c, &out);
    }
}

/* Steps 6 and 7: columns >= cols keep their prior contents, in both page
 * tables, element for element (seq 5, P 4 -> msp 2 of 4 columns). */
static void test_reference_init_preserved(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    const int64_t mapping[] = {100, 101, 102, 103, 104, 105, 106, 107, -1};
    test_reference_begin(&c, GM_MODE_DECODE, 4, 16, 1, 16);
    test_reference_batch(&c, 2, (int64_t[]){0, 0}, (int64_t[]){5, 1}, NULL);
    test_reference_swa(&c, mapping, 9, true);
    test_reference_init_array(&c, GM_BUF_PAGE_TABLE,
                              (int64_t[]){11, 12, 13, 14, 21, 22, 23, 24}, 8);
    test_reference_init_array(&c, GM_BUF_SWA_PAGE_TABLE,
                              (int64_t[]){-11, -12, -13, -14, -21, -22, -23, -24}, 8);
    test_reference_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    /* tokens 0 and 4 in both rows; mapping 100 and 104, // 4 */
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 0, 1, 13, 14, 0, 1, 23, 24);
    EXPECT_BUF(&out, GM_BUF_SWA_PAGE_TABLE, 25, 26, -13, -14, 25, 26, -23, -24);
    test_reference_done(&c, &out);
}

int main(void) {
    GM_RUN(test_reference_raise_names);
    GM_RUN(test_reference_floor_division_p128);
    GM_RUN(test_reference_floor_division_p16);
    GM_RUN(test_reference_wrap_req_pool_indices);
    GM_RUN(test_reference_req_pool_index_out_of_range);
    GM_RUN(test_reference_bad_row_with_no_columns);
    GM_RUN(test_reference_wrap_mapping_pages);
    GM_RUN(test_reference_mapping_pages_out_of_range);
    GM_RUN(test_reference_wrap_mapping_out_loc);
    GM_RUN(test_reference_mapping_out_loc_out_of_range);
    GM_RUN(test_reference_negative_slice_stop);
    GM_RUN(test_reference_negative_slice_stop_below_len);
    GM_RUN(test_reference_msp_beyond_width);
    GM_RUN(test_reference_cache_seqlens_low32);
    GM_RUN(test_reference_cumsum_wraps);
    GM_RUN(test_reference_draft_decode_device_max);
    GM_RUN(test_reference_target_verify_host_max);
    GM_RUN(test_reference_stale_host_seqlens);
    GM_RUN(test_reference_mapping_int32_truncation);
    GM_RUN(test_reference_q_stride_zero);
    GM_RUN(test_reference_q_stride_positive);
    GM_RUN(test_reference_q_stride_negative);
    GM_RUN(test_reference_q_stride_minus_one);
    GM_RUN(test_reference_qlens_cumsum);
    GM_RUN(test_reference_out_loc_longer_than_buffer);
    GM_RUN(test_reference_out_loc_single_into_empty);
    GM_RUN(test_reference_out_loc_zero_tail);
    GM_RUN(test_reference_out_loc_absent);
    GM_RUN(test_reference_empty_batch);
    GM_RUN(test_reference_init_preserved);
    GM_TEST_END();
}

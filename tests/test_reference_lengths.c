/* Unit tests of reference/, lengths: cache_seqlens, the cumsums, the host
 * and device maxima, cu_seqlens_q (qlens, q_stride), the SWA write
 * locations, empty batches and prior contents (test_reference.c has the
 * indexing); small cases built in C, exact expected outputs.
 *
 * Every expected value below was worked out by hand from SPEC section 2
 * and cross-checked against the lead's Python prototype of the legacy
 * sequence; none was copied from the implementation's output.
 */
#include "test_reference_case.h"

/* Step 1: int32(seq) keeps the low 32 bits: 2^32 + 5 -> 5, 2^31 -> INT32_MIN. */
static void test_reference_cache_seqlens_low32(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_case_begin(&c, GM_MODE_DECODE, 4, 8, 1, 8);
    test_reference_case_batch(&c, 3, (int64_t[]){0, 0, 0},
                         (int64_t[]){TWO_POW_32 + 5, TWO_POW_31, -TWO_POW_32 - 1}, NULL);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CACHE_SEQLENS, 5, INT32_MIN, -1);
    /* 5, 5 + INT32_MIN, then + (-1) */
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 0, 5, -2147483643, -2147483644);
    /* M = 2^32 + 5 is a Python int: every column is live */
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 0, 1, 0, 1, 0, 1);
    test_reference_case_done(&c, &out);
}

/* Step 2: the int32 cumsum wraps past INT32_MAX. */
static void test_reference_cumsum_wraps(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_case_begin(&c, GM_MODE_DECODE, 4, 8, 1, 8);
    test_reference_case_init_fill(&c, GM_BUF_CU_SEQLENS_K, 77);
    test_reference_case_batch(&c, 3, (int64_t[]){0, 0, 0}, (int64_t[]){INT32_MAX, 1, 2}, NULL);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    /* [0] is never written: it keeps its prior 77 */
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 77, INT32_MAX, INT32_MIN, -2147483646);
    test_reference_case_done(&c, &out);
}

/* Step 1: draft_decode takes M from the device seq_lens (+ step_id + 1),
 * not from seq_lens_cpu: seq 5, step 2 -> M 8 -> msp 2 of 4 columns. */
static void test_reference_draft_decode_device_max(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_case_begin(&c, GM_MODE_DRAFT_DECODE, 4, 16, 1, 16);
    c.speculative_step_id = 2;
    test_reference_case_init_fill(&c, GM_BUF_PAGE_TABLE, -7);
    test_reference_case_batch(&c, 1, (int64_t[]){0}, (int64_t[]){5}, (int64_t[]){100});
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CACHE_SEQLENS, 8);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 0, 8);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_Q, 0, 1);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 0, 1, -7, -7);
    test_reference_case_done(&c, &out);
}

/* Step 1: target_verify M = max(seq_cpu) + D: seq_cpu 6, D 3 -> M 9 ->
 * msp 3; cache_seqlens = seq + D; cu_seqlens_q keeps its [0, D] preset. */
static void test_reference_target_verify_host_max(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_case_begin(&c, GM_MODE_TARGET_VERIFY, 4, 16, 1, 16);
    c.num_draft_tokens = 3;
    test_reference_case_init_fill(&c, GM_BUF_PAGE_TABLE, -7);
    test_reference_case_batch(&c, 1, (int64_t[]){0}, (int64_t[]){1}, (int64_t[]){6});
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CACHE_SEQLENS, 4);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 0, 4);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_Q, 0, 3);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 0, 1, 2, -7);
    test_reference_case_done(&c, &out);
}

/* stale_host_seqlens: seq 9 but seq_cpu 0 -> M 0 -> no column written,
 * though cache_seqlens says 9 tokens are live. */
static void test_reference_stale_host_seqlens(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_case_begin(&c, GM_MODE_DECODE, 4, 16, 1, 16);
    test_reference_case_init_fill(&c, GM_BUF_PAGE_TABLE, -7);
    test_reference_case_batch(&c, 1, (int64_t[]){0}, (int64_t[]){9}, (int64_t[]){0});
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CACHE_SEQLENS, 9);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, -7, -7, -7, -7);
    test_reference_case_done(&c, &out);
}

/* A draft_extend_v2 case of `bs` padded rows with q_stride `stride`. */
static void test_reference_strided_case(gm_case *c, size_t bs, int32_t stride) {
    int64_t zeros[4] = {0, 0, 0, 0};
    int64_t ones[4] = {1, 1, 1, 1};
    test_reference_case_begin(c, GM_MODE_DRAFT_EXTEND_V2, 4, 8, 1, 8);
    c->q_stride = stride;
    test_reference_case_batch(c, bs, zeros, ones, NULL);
}

/* Step 3: q_stride 0 raises zero_step. */
static void test_reference_q_stride_zero(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_strided_case(&c, 2, 0);
    test_reference_case_run(&c, &out, &res);
    EXPECT_RAISE(&out, &res, REFERENCE_ZERO_STEP, 3);
    test_reference_case_done(&c, &out);
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
        test_reference_case_run(&c, &out, &res);
        EXPECT_OK(&out, &res);
        test_reference_case_expect(&out, GM_BUF_CU_SEQLENS_Q, expected[k], 4, __LINE__);
        EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 0, 1, 2, 3);
        test_reference_case_done(&c, &out);
    }
}

/* Step 3, S = -5: bs 2 -> arange(-5, -9, -5) = [-5], which broadcasts over
 * both slots; bs 3 -> arange(-5, -14, -5) = [-5, -10]: shape_mismatch. */
static void test_reference_q_stride_negative(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_strided_case(&c, 2, -5);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_Q, 0, -5, -5);
    test_reference_case_done(&c, &out);

    test_reference_strided_case(&c, 3, -5);
    test_reference_case_run(&c, &out, &res);
    EXPECT_RAISE(&out, &res, REFERENCE_SHAPE_MISMATCH, 3);
    CHECK_STR_CONTAINS(out.error, "cu_seqlens_q");
    test_reference_case_done(&c, &out);
}

/* Step 3, S = -1: bs 3 -> arange(-1, -2, -1) = [-1] broadcasts; bs 2 ->
 * arange(-1, -1, -1) is empty and bs 1 -> arange(-1, 0, -1) runs against
 * the step's sign: both raise. */
static void test_reference_q_stride_minus_one(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_strided_case(&c, 3, -1);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_Q, 0, -1, -1, -1);
    test_reference_case_done(&c, &out);

    for (size_t bs = 1; bs <= 2; bs++) {
        test_reference_strided_case(&c, bs, -1);
        test_reference_case_run(&c, &out, &res);
        EXPECT_RAISE(&out, &res, REFERENCE_SHAPE_MISMATCH, 3);
        test_reference_case_done(&c, &out);
    }
}

/* Step 3, draft_extend: cu_seqlens_q[1..] = wrapping int32 cumsum(qlens);
 * cu_seqlens_q[0] is never written. */
static void test_reference_qlens_cumsum(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_case_begin(&c, GM_MODE_DRAFT_EXTEND, 4, 8, 1, 8);
    test_reference_case_batch(&c, 3, (int64_t[]){0, 0, 0}, (int64_t[]){1, 2, 3}, NULL);
    c.qlens = test_reference_case_dup((int32_t[]){INT32_MAX, 1, 5}, 3, sizeof(int32_t));
    test_reference_case_init_fill(&c, GM_BUF_CU_SEQLENS_Q, 9);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_Q, 9, INT32_MAX, INT32_MIN, -2147483643);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 0, 1, 3, 6);
    test_reference_case_done(&c, &out);
}

/* A decode case with an SWA mapping [0, 10, 20, ..., 70] (no page table)
 * and a swa_out_cache_loc buffer of out_len elements, prior contents 9. */
static void test_reference_out_loc_case(gm_case *c, const int64_t *loc, size_t n,
                                        size_t out_len) {
    const int64_t mapping[] = {0, 10, 20, 30, 40, 50, 60, 70};
    test_reference_case_begin(c, GM_MODE_DECODE, 4, 8, 1, 8);
    test_reference_case_batch(c, 1, (int64_t[]){0}, (int64_t[]){8}, NULL);
    test_reference_case_swa(c, mapping, 8, false);
    test_reference_case_out_loc(c, loc, n, out_len);
    test_reference_case_init_fill(c, GM_BUF_SWA_OUT_CACHE_LOC, 9);
}

/* Step 8: n 3 > out_len 2 raises shape_mismatch (copy_ of 3 into 2). */
static void test_reference_out_loc_longer_than_buffer(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_out_loc_case(&c, (int64_t[]){1, 2, 3}, 3, 2);
    test_reference_case_run(&c, &out, &res);
    EXPECT_RAISE(&out, &res, REFERENCE_SHAPE_MISMATCH, 8);
    CHECK_STR_CONTAINS(out.error, "swa_out_cache_loc");
    test_reference_case_done(&c, &out);
}

/* Step 8: n == 1 > out_len == 0: the one value broadcasts into an empty
 * slice, no raise. */
static void test_reference_out_loc_single_into_empty(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_out_loc_case(&c, (int64_t[]){3}, 1, 0);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    CHECK(out.buf[GM_BUF_SWA_OUT_CACHE_LOC].present);
    CHECK_EQ_I64(gm_buffer_count(&out.buf[GM_BUF_SWA_OUT_CACHE_LOC]), 0);
    test_reference_case_done(&c, &out);
}

/* Step 8: n < out_len: buf[:n] gets the slots, buf[n:] becomes 0. n == 1
 * and n == 0 (an empty list, not an absent one) follow the same rule. */
static void test_reference_out_loc_zero_tail(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_out_loc_case(&c, (int64_t[]){2, 7}, 2, 4);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_SWA_OUT_CACHE_LOC, 20, 70, 0, 0);
    test_reference_case_done(&c, &out);

    test_reference_out_loc_case(&c, (int64_t[]){5}, 1, 3);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_SWA_OUT_CACHE_LOC, 50, 0, 0);
    test_reference_case_done(&c, &out);

    test_reference_out_loc_case(&c, (int64_t[]){0}, 0, 2);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_SWA_OUT_CACHE_LOC, 0, 0);
    test_reference_case_done(&c, &out);
}

/* Step 8 runs only when an out_cache_loc is given: without one the
 * buffer keeps its prior contents (out_cache_loc_absent). */
static void test_reference_out_loc_absent(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_out_loc_case(&c, NULL, 0, 3);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_SWA_OUT_CACHE_LOC, 9, 9, 9);
    test_reference_case_done(&c, &out);
}

/* Step 1: max() of an empty batch raises, in every mode. */
static void test_reference_empty_batch(void) {
    for (int mode = 0; mode < GM_MODE_COUNT; mode++) {
        gm_case c;
        gm_outputs out;
        reference_result res;
        test_reference_case_begin(&c, (gm_mode)mode, 4, 8, 1, 8);
        test_reference_case_batch(&c, 0, NULL, NULL, NULL);
        c.qlens = test_reference_case_dup(NULL, 0, sizeof(int32_t));
        c.q_stride = 1;
        test_reference_case_run(&c, &out, &res);
        EXPECT_RAISE(&out, &res, REFERENCE_EMPTY_REDUCTION, 1);
        test_reference_case_done(&c, &out);
    }
}

/* Steps 6 and 7: columns >= cols keep their prior contents, in both page
 * tables, element for element (seq 5, P 4 -> msp 2 of 4 columns). */
static void test_reference_init_preserved(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    const int64_t mapping[] = {100, 101, 102, 103, 104, 105, 106, 107, -1};
    test_reference_case_begin(&c, GM_MODE_DECODE, 4, 16, 1, 16);
    test_reference_case_batch(&c, 2, (int64_t[]){0, 0}, (int64_t[]){5, 1}, NULL);
    test_reference_case_swa(&c, mapping, 9, true);
    test_reference_case_init_array(&c, GM_BUF_PAGE_TABLE,
                              (int64_t[]){11, 12, 13, 14, 21, 22, 23, 24}, 8);
    test_reference_case_init_array(&c, GM_BUF_SWA_PAGE_TABLE,
                              (int64_t[]){-11, -12, -13, -14, -21, -22, -23, -24}, 8);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    /* tokens 0 and 4 in both rows; mapping 100 and 104, // 4 */
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 0, 1, 13, 14, 0, 1, 23, 24);
    EXPECT_BUF(&out, GM_BUF_SWA_PAGE_TABLE, 25, 26, -13, -14, 25, 26, -23, -24);
    test_reference_case_done(&c, &out);
}

int main(void) {
    GM_RUN(test_reference_cache_seqlens_low32);
    GM_RUN(test_reference_cumsum_wraps);
    GM_RUN(test_reference_draft_decode_device_max);
    GM_RUN(test_reference_target_verify_host_max);
    GM_RUN(test_reference_stale_host_seqlens);
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

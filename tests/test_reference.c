/* Unit tests of reference/, indexing: floor division, Python index wrap,
 * slices, raises and int32 truncation of page ids (test_reference_lengths.c
 * has the lengths, scans and write locations); small cases built in C,
 * exact expected outputs.
 *
 * Every expected value below was worked out by hand from SPEC section 2
 * (floor division, Python index wrap, slice rules, low-32-bit casts,
 * wrapping cumsum) and cross-checked against the lead's Python prototype of
 * the legacy sequence; none was copied from the implementation's output.
 */
#include "test_reference_case.h"

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
    test_reference_case_begin(&c, GM_MODE_DECODE, 128, 256, 1, 256);
    test_reference_case_token(&c, 0, 0, -1);
    test_reference_case_token(&c, 0, 128, -129);
    test_reference_case_batch(&c, 1, (int64_t[]){0}, (int64_t[]){200}, NULL);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, -1, -2);
    test_reference_case_done(&c, &out);
}

/* P = 16: page_indices -1 -> -1, -17 -> -2, 33 -> 2. */
static void test_reference_floor_division_p16(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_case_begin(&c, GM_MODE_DECODE, 16, 48, 1, 48);
    test_reference_case_token(&c, 0, 0, -1);
    test_reference_case_token(&c, 0, 16, -17);
    test_reference_case_token(&c, 0, 32, 33);
    test_reference_case_batch(&c, 1, (int64_t[]){0}, (int64_t[]){48}, NULL);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CACHE_SEQLENS, 48);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 0, 48);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_Q, 0, 1); /* decode: the preset stays */
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, -1, -2, 2);
    test_reference_case_done(&c, &out);
}

/* Step 5: req_pool_indices -1 reads the last row, -len the first. */
static void test_reference_wrap_req_pool_indices(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_case_begin(&c, GM_MODE_DECODE, 4, 4, 3, 4);
    for (size_t r = 0; r < 3; r++) {
        test_reference_case_token(&c, r, 0, (int32_t)(100 * (r + 1))); /* 100, 200, 300 */
    }
    test_reference_case_batch(&c, 3, (int64_t[]){-1, -3, 1}, (int64_t[]){4, 4, 4}, NULL);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 75, 25, 50);
    test_reference_case_done(&c, &out);
}

/* Step 5: -len-1 and len are out of range and raise. */
static void test_reference_req_pool_index_out_of_range(void) {
    const int64_t bad[] = {-4, 3};
    for (size_t k = 0; k < 2; k++) {
        gm_case c;
        gm_outputs out;
        reference_result res;
        test_reference_case_begin(&c, GM_MODE_DECODE, 4, 4, 3, 4);
        test_reference_case_batch(&c, 2, (int64_t[]){0, bad[k]}, (int64_t[]){4, 4}, NULL);
        test_reference_case_run(&c, &out, &res);
        EXPECT_RAISE(&out, &res, REFERENCE_INDEX_OUT_OF_RANGE, 5);
        CHECK_STR_CONTAINS(out.error, "req_pool_indices[1]");
        CHECK_STR_CONTAINS(out.error, k == 0 ? "index -4 " : "index 3 ");
        test_reference_case_done(&c, &out);
    }
}

/* Step 5 reads nothing when cols == 0 (seq 0 -> msp 0), so a bad row index
 * there is never looked at (ATen checks indices per element gathered). */
static void test_reference_bad_row_with_no_columns(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_case_begin(&c, GM_MODE_DECODE, 4, 4, 3, 4);
    test_reference_case_init_fill(&c, GM_BUF_PAGE_TABLE, -7);
    test_reference_case_batch(&c, 1, (int64_t[]){-4}, (int64_t[]){0}, NULL);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CACHE_SEQLENS, 0);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, -7);
    test_reference_case_done(&c, &out);
}

static const int64_t test_reference_mapping5[] = {10, 21, -3, 40, -1};

/* Step 7: page_indices -1 reads mapping[4], -5 (== -len) mapping[0]; the
 * int32 value then floors by P = 2. */
static void test_reference_wrap_mapping_pages(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_case_begin(&c, GM_MODE_DECODE, 2, 6, 1, 6);
    test_reference_case_token(&c, 0, 0, -1);
    test_reference_case_token(&c, 0, 2, -5);
    test_reference_case_token(&c, 0, 4, 2);
    test_reference_case_batch(&c, 1, (int64_t[]){0}, (int64_t[]){6}, NULL);
    test_reference_case_swa(&c, test_reference_mapping5, 5, true);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, -1, -3, 1);
    EXPECT_BUF(&out, GM_BUF_SWA_PAGE_TABLE, -1, 5, -2);
    CHECK(!out.buf[GM_BUF_SWA_OUT_CACHE_LOC].present);
    test_reference_case_done(&c, &out);
}

/* Step 7: -len-1 and len raise; the block is gathered before any write, so
 * the SWA table keeps its prior contents while step 6 already wrote. */
static void test_reference_mapping_pages_out_of_range(void) {
    const int32_t bad[] = {-6, 5};
    for (size_t k = 0; k < 2; k++) {
        gm_case c;
        gm_outputs out;
        reference_result res;
        test_reference_case_begin(&c, GM_MODE_DECODE, 2, 6, 1, 6);
        test_reference_case_token(&c, 0, 0, 1);
        test_reference_case_token(&c, 0, 2, 3);
        test_reference_case_token(&c, 0, 4, bad[k]);
        test_reference_case_batch(&c, 1, (int64_t[]){0}, (int64_t[]){6}, NULL);
        test_reference_case_swa(&c, test_reference_mapping5, 5, true);
        test_reference_case_init_fill(&c, GM_BUF_SWA_PAGE_TABLE, -7);
        test_reference_case_run(&c, &out, &res);
        EXPECT_RAISE(&out, &res, REFERENCE_INDEX_OUT_OF_RANGE, 7);
        CHECK_STR_CONTAINS(out.error, k == 0 ? "index -6 is out of bounds for swa mapping of size 5"
                                             : "index 5 is out of bounds for swa mapping of size 5");
        CHECK_STR_CONTAINS(out.error, "page_indices[0][2]");
        EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 0, 1, k == 0 ? -3 : 2);
        EXPECT_BUF(&out, GM_BUF_SWA_PAGE_TABLE, -7, -7, -7);
        test_reference_case_done(&c, &out);
    }
}

/* Step 8: out_cache_loc -1 -> mapping[4], -5 -> mapping[0]. */
static void test_reference_wrap_mapping_out_loc(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_case_begin(&c, GM_MODE_DECODE, 2, 6, 1, 6);
    test_reference_case_batch(&c, 1, (int64_t[]){0}, (int64_t[]){6}, NULL);
    test_reference_case_swa(&c, test_reference_mapping5, 5, false);
    test_reference_case_out_loc(&c, (int64_t[]){-1, -5, 1}, 3, 3);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    CHECK(!out.buf[GM_BUF_SWA_PAGE_TABLE].present);
    EXPECT_BUF(&out, GM_BUF_SWA_OUT_CACHE_LOC, -1, 10, 21);
    test_reference_case_done(&c, &out);
}

/* Step 8: -len-1 and len raise index_out_of_range. */
static void test_reference_mapping_out_loc_out_of_range(void) {
    const int64_t bad[] = {-6, 5};
    for (size_t k = 0; k < 2; k++) {
        gm_case c;
        gm_outputs out;
        reference_result res;
        test_reference_case_begin(&c, GM_MODE_DECODE, 2, 6, 1, 6);
        test_reference_case_batch(&c, 1, (int64_t[]){0}, (int64_t[]){6}, NULL);
        test_reference_case_swa(&c, test_reference_mapping5, 5, true);
        test_reference_case_out_loc(&c, (int64_t[]){0, bad[k]}, 2, 2);
        test_reference_case_run(&c, &out, &res);
        EXPECT_RAISE(&out, &res, REFERENCE_INDEX_OUT_OF_RANGE, 8);
        CHECK_STR_CONTAINS(out.error, "out_cache_loc[1]");
        test_reference_case_done(&c, &out);
    }
}

/* Step 4: a negative seq gives a negative msp, and x[:msp] keeps
 * max(0, len + msp) columns: seq -5, P 4 -> msp = -2 // 4 = -1 -> 3 of 4. */
static void test_reference_negative_slice_stop(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_case_begin(&c, GM_MODE_DECODE, 4, 16, 1, 16);
    test_reference_case_init_fill(&c, GM_BUF_PAGE_TABLE, -7);
    test_reference_case_batch(&c, 1, (int64_t[]){0}, (int64_t[]){-5}, NULL);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_CACHE_SEQLENS, -5);
    EXPECT_BUF(&out, GM_BUF_CU_SEQLENS_K, 0, -5);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 0, 1, 2, -7); /* tokens 0, 4, 8 */
    test_reference_case_done(&c, &out);
}

/* Step 4: seq -100 -> msp -25, below -len: no column at all. */
static void test_reference_negative_slice_stop_below_len(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_case_begin(&c, GM_MODE_DECODE, 4, 16, 1, 16);
    test_reference_case_init_fill(&c, GM_BUF_PAGE_TABLE, -7);
    test_reference_case_batch(&c, 1, (int64_t[]){0}, (int64_t[]){-100}, NULL);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, -7, -7, -7, -7);
    test_reference_case_done(&c, &out);
}

/* Step 4: msp 250 > max_num_pages 4: the slice clamps to all 4 columns. */
static void test_reference_msp_beyond_width(void) {
    gm_case c;
    gm_outputs out;
    reference_result res;
    test_reference_case_begin(&c, GM_MODE_DECODE, 4, 16, 2, 20);
    test_reference_case_init_fill(&c, GM_BUF_PAGE_TABLE, -7);
    test_reference_case_batch(&c, 1, (int64_t[]){1}, (int64_t[]){1000}, NULL);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    /* row 1: tokens 1000, 1004, 1008, 1012 */
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 250, 251, 252, 253);
    test_reference_case_done(&c, &out);
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
    test_reference_case_begin(&c, GM_MODE_DECODE, 2, 8, 1, 8);
    for (int32_t j = 0; j < 4; j++) {
        test_reference_case_token(&c, 0, 2 * (size_t)j, j);
    }
    test_reference_case_batch(&c, 1, (int64_t[]){0}, (int64_t[]){8}, NULL);
    test_reference_case_swa(&c, mapping, 4, true);
    test_reference_case_out_loc(&c, (int64_t[]){0, 1, 2, 3}, 4, 4);
    test_reference_case_run(&c, &out, &res);
    EXPECT_OK(&out, &res);
    EXPECT_BUF(&out, GM_BUF_PAGE_TABLE, 0, 0, 1, 1);
    EXPECT_BUF(&out, GM_BUF_SWA_PAGE_TABLE, 1, -1, -1073741824, 8);
    EXPECT_BUF(&out, GM_BUF_SWA_OUT_CACHE_LOC, 3, -1, INT32_MIN, 17);
    test_reference_case_done(&c, &out);
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
    GM_RUN(test_reference_mapping_int32_truncation);
    GM_TEST_END();
}

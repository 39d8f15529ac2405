/* gm_oracle: the two comparison levels and the verdict's precedence. */
#include <stdint.h>
#include <string.h>

#include "gm_oracle.h"
#include "gm_test.h"

/* A decode case of bs 2 rows, page_size 4, max_num_pages 3, no SWA. */
static void small_case(gm_case *c) {
    gm_case_init(c);
    c->mode = GM_MODE_DECODE;
    c->page_size = 4;
    c->max_context_len = 12;
    c->bs = 2;
}

static void make_outputs(const gm_case *c, gm_outputs *a, gm_outputs *b) {
    gm_error err = {0};
    gm_outputs_init(a);
    gm_outputs_init(b);
    CHECK(gm_outputs_prepare(a, c, &err));
    CHECK(gm_outputs_prepare(b, c, &err));
}

static void test_live_reads_only_live_columns(void) {
    gm_case c;
    small_case(&c);
    gm_outputs ref, fused;
    make_outputs(&c, &ref, &fused);
    int32_t *lens = gm_buffer_i32(&ref.buf[GM_BUF_CACHE_SEQLENS]);
    int32_t *f_lens = gm_buffer_i32(&fused.buf[GM_BUF_CACHE_SEQLENS]);
    lens[0] = f_lens[0] = 5;  /* ceil(5 / 4) = 2 live columns */
    lens[1] = f_lens[1] = -3; /* negative: clamped to 0 live columns */
    int32_t *pt = gm_buffer_i32(&fused.buf[GM_BUF_PAGE_TABLE]);
    pt[2] = 9; /* row 0, column 2: past the live length */
    pt[3] = 9; /* row 1, column 0: row 1 has no live column */
    gm_verdict v;
    gm_oracle_judge(&c, &ref, &fused, GM_COMPARE_LIVE, &v);
    CHECK(v.status == GM_STATUS_MATCH);
    gm_oracle_judge(&c, &ref, &fused, GM_COMPARE_STRICT, &v);
    CHECK(v.status == GM_STATUS_MISMATCH);
    CHECK_EQ_I64(v.n_differences, 2);
    CHECK_EQ_I64(v.buffers, 1u << GM_BUF_PAGE_TABLE);
    CHECK(v.first.present && v.first.buf == GM_BUF_PAGE_TABLE && v.first.rank == 2);
    CHECK_EQ_I64(v.first.index[0], 0);
    CHECK_EQ_I64(v.first.index[1], 2);
    CHECK_EQ_I64(v.first.reference, 0);
    CHECK_EQ_I64(v.first.fused, 9);

    pt[1] = -1; /* row 0, column 1: live */
    gm_oracle_judge(&c, &ref, &fused, GM_COMPARE_LIVE, &v);
    CHECK(v.status == GM_STATUS_MISMATCH);
    CHECK_EQ_I64(v.n_differences, 1);
    CHECK_EQ_I64(v.first.index[1], 1);
    gm_outputs_free(&ref);
    gm_outputs_free(&fused);
}

static void test_live_columns_capped_at_width(void) {
    gm_case c;
    small_case(&c);
    gm_outputs ref, fused;
    make_outputs(&c, &ref, &fused);
    gm_buffer_i32(&ref.buf[GM_BUF_CACHE_SEQLENS])[0] = INT32_MAX; /* far past 3 pages */
    gm_buffer_i32(&fused.buf[GM_BUF_CACHE_SEQLENS])[0] = INT32_MAX;
    CHECK(gm_oracle_is_live(&c, &ref, GM_BUF_PAGE_TABLE, 2));
    CHECK(!gm_oracle_is_live(&c, &ref, GM_BUF_PAGE_TABLE, 3)); /* row 1 */
    CHECK(gm_oracle_is_live(&c, &ref, GM_BUF_CU_SEQLENS_Q, 2)); /* 1-D: always live */
    gm_outputs_free(&ref);
    gm_outputs_free(&fused);
}

static void test_precedence(void) {
    gm_case c;
    small_case(&c);
    gm_outputs ref, fused;
    make_outputs(&c, &ref, &fused);
    gm_verdict v;
    gm_outputs_set_error(&ref, "index_out_of_range: step 5: x");
    gm_oracle_judge(&c, &ref, &fused, GM_COMPARE_LIVE, &v);
    CHECK(v.status == GM_STATUS_REFERENCE_ERROR);
    gm_outputs_set_error(&fused, "out_of_bounds: read of req_to_token[8] outside [0, 8)");
    gm_oracle_judge(&c, &ref, &fused, GM_COMPARE_LIVE, &v);
    CHECK(v.status == GM_STATUS_FUSED_OUT_OF_BOUNDS);
    CHECK(!v.first.present);
    gm_outputs_free(&ref);
    gm_outputs_free(&fused);
}

static void test_names_round_trip(void) {
    for (int s = GM_STATUS_MATCH; s <= GM_STATUS_FUSED_OUT_OF_BOUNDS; s++) {
        gm_status back;
        CHECK(gm_status_from_name(gm_status_name((gm_status)s), &back) && back == (gm_status)s);
    }
    gm_compare level;
    CHECK(gm_compare_from_name("strict", &level) && level == GM_COMPARE_STRICT);
    CHECK(!gm_compare_from_name("loose", &level));
}

static void test_verdict_equal(void) {
    gm_verdict a = {0}, b = {0};
    a.status = b.status = GM_STATUS_MISMATCH;
    a.first.present = b.first.present = true;
    a.first.rank = b.first.rank = 1;
    a.first.fused = 1;
    b.first.fused = 1;
    CHECK(gm_verdict_equal(&a, &b));
    b.first.fused = 2;
    CHECK(!gm_verdict_equal(&a, &b));
    b.first.fused = 1;
    b.compare = GM_COMPARE_STRICT;
    CHECK(!gm_verdict_equal(&a, &b));
}

static void test_verdict_describe(void) {
    gm_verdict v = {.status = GM_STATUS_MISMATCH, .compare = GM_COMPARE_STRICT,
                    .buffers = (1u << GM_BUF_PAGE_TABLE) | (1u << GM_BUF_SWA_PAGE_TABLE),
                    .n_differences = 2};
    char line[256];
    gm_verdict_describe(&v, line, sizeof line);
    CHECK(strcmp(line, "mismatch at strict: 2 elements differ in page_table swa_page_table") == 0);
    v.n_differences = 1;
    v.buffers = 1u << GM_BUF_CACHE_SEQLENS;
    v.compare = GM_COMPARE_LIVE;
    gm_verdict_describe(&v, line, sizeof line);
    CHECK(strcmp(line, "mismatch at live: 1 element differs in cache_seqlens") == 0);
    v.status = GM_STATUS_FUSED_OUT_OF_BOUNDS;
    gm_verdict_describe(&v, line, sizeof line);
    CHECK(strcmp(line, "fused_out_of_bounds at live") == 0);
    char small[12];
    v.status = GM_STATUS_MISMATCH;
    gm_verdict_describe(&v, small, sizeof small);
    CHECK(strcmp(small, "mismatch at") == 0);
}

int main(void) {
    GM_RUN(test_live_reads_only_live_columns);
    GM_RUN(test_live_columns_capped_at_width);
    GM_RUN(test_precedence);
    GM_RUN(test_names_round_trip);
    GM_RUN(test_verdict_equal);
    GM_RUN(test_verdict_describe);
    GM_TEST_END();
}

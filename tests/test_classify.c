/* The classifier: each class of SPEC section 4 on a small case where its
 * cause is present (the exact signature), the same case without the cause
 * (another outcome), and the conformance vectors: every live difference
 * between the REAL implementations is classified.
 *
 *   test_classify VECTOR_DIR
 */
#include <stdio.h>
#include <string.h>

#include "triage.h"
#include "gm_json.h"
#include "harness.h"
#include "gm_test.h"
#include "triage_cases.h"

static harness_backend *cpu;
static const char *vector_dir;

/* Runs `c` on the CPU at `level`, classifies it, checks the signature, and
 * frees the case. */
static void expect(gm_case *c, gm_compare level, const char *signature, int line) {
    harness_run_result r;
    harness_run_result_init(&r);
    gm_error err = {0};
    triage_finding f;
    bool ran = gm_case_check(c, &err) && harness_run_case(cpu, c, level, &r, &err);
    CHECK(ran);
    if (ran) {
        triage_classify(c, &r, &f);
        if (strcmp(f.signature, signature) != 0) {
            fprintf(stderr, "line %d: signature \"%s\", expected \"%s\" (%s)\n", line,
                    f.signature, signature, r.fused.error ? r.fused.error : "");
        }
        CHECK(strcmp(f.signature, signature) == 0);
    } else {
        fprintf(stderr, "line %d: %s\n", line, err.msg);
    }
    harness_run_result_free(&r);
    gm_case_free(c);
}
#define EXPECT(c, level, sig) expect((c), (level), (sig), __LINE__)

static void test_names(void) {
    for (int k = 0; k < TRIAGE_CLASS_COUNT; k++) {
        triage_class back;
        CHECK(triage_class_from_name(triage_class_name((triage_class)k), &back) && back == (triage_class)k);
    }
    triage_class out;
    CHECK(!triage_class_from_name("stale", &out));
    CHECK(strcmp(triage_class_name(TRIAGE_CLASS_COUNT), "?") == 0);
}

static void test_signature_format(void) {
    triage_finding f = {.mode = GM_MODE_TARGET_VERIFY};
    f.classes = (1u << TRIAGE_CLASS_NEGATIVE_TOKEN_ROUNDING) | (1u << TRIAGE_CLASS_STALE_TAIL);
    f.buffers = (1u << GM_BUF_SWA_PAGE_TABLE) | (1u << GM_BUF_PAGE_TABLE);
    triage_finding_sign(&f);
    const char *expected =
        "target_verify|stale_tail+negative_token_rounding|page_table+swa_page_table";
    CHECK(strcmp(f.signature, expected) == 0);
    f.classes = 0;
    f.buffers = 0;
    triage_finding_sign(&f);
    CHECK(strcmp(f.signature, "target_verify|-|-") == 0);
}

/* P = 4, max_context_len 8: two page-table columns. */
static void test_stale_tail(void) {
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 4, 8, 1, 1, 4); /* legacy writes column 0 only */
    EXPECT(&c, GM_COMPARE_STRICT, "decode|stale_tail|page_table");
    tc_case(&c, GM_MODE_DECODE, 4, 8, 1, 1, 4);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|-|-"); /* column 1 is not live */
    tc_case(&c, GM_MODE_DECODE, 4, 8, 1, 1, 8); /* legacy writes both columns */
    EXPECT(&c, GM_COMPARE_STRICT, "decode|-|-");
}

static void test_stale_host_seqlens(void) {
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 4, 8, 1, 1, 8);
    tc_seq_lens_cpu(&c, 4); /* the host copy lags: legacy writes one column */
    EXPECT(&c, GM_COMPARE_LIVE, "decode|stale_host_seqlens|page_table");
    tc_case(&c, GM_MODE_DECODE, 4, 8, 1, 1, 8);
    tc_seq_lens_cpu(&c, 8);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|-|-");
    /* draft_decode takes M from the device copy: the lag does not matter */
    tc_case(&c, GM_MODE_DRAFT_DECODE, 4, 8, 1, 1, 7);
    tc_seq_lens_cpu(&c, 0);
    EXPECT(&c, GM_COMPARE_STRICT, "draft_decode|-|-");
}

/* A live column past legacy's cols with no host lag: int32 wraps a huge
 * negative length into a positive one (M stays a Python int). */
static void test_seqlen_int32_wrap(void) {
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 4, 8, 1, 1, -((int64_t)1 << 32) + 8);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|seqlen_int32_wrap|page_table");
    tc_case(&c, GM_MODE_DECODE, 1, 4, 1, 2, 2);
    c.seq_lens[0] = -((int64_t)1 << 32) + 3; /* int32: 3, but M = max(seq) = 2 */
    c.init[GM_BUF_PAGE_TABLE] = (gm_init){GM_INIT_FILL, -7, NULL, 0};
    EXPECT(&c, GM_COMPARE_LIVE, "decode|seqlen_int32_wrap|page_table");
}

static void test_negative_token_rounding(void) {
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 16, 16, 1, 1, 5);
    c.req_to_token[0] = -1; /* floor -1, trunc 0 */
    EXPECT(&c, GM_COMPARE_LIVE, "decode|negative_token_rounding|page_table");
    tc_case(&c, GM_MODE_DECODE, 16, 16, 1, 1, 5);
    c.req_to_token[0] = -16; /* a multiple of P: floor == trunc */
    EXPECT(&c, GM_COMPARE_LIVE, "decode|-|-");
    tc_case(&c, GM_MODE_DECODE, 1, 16, 1, 1, 5);
    c.req_to_token[0] = -1; /* P = 1: no rounding at all */
    EXPECT(&c, GM_COMPARE_LIVE, "decode|-|-");
}

static void test_sentinel_wrap(void) {
    static const int64_t wraps[] = {5, 9, 7}, sentinel[] = {5, 9, -1};
    static const int64_t minus_one[] = {-1};
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    c.req_to_token[0] = -1; /* legacy reads mapping[-1] = 7, fused writes -1 */
    tc_swa(&c, wraps, 3, true);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|sentinel_wrap|swa_page_table");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    c.req_to_token[0] = -1;
    tc_swa(&c, sentinel, 3, true);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|-|-");

    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    tc_swa(&c, wraps, 3, false);
    tc_out(&c, minus_one, 1, 2);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|sentinel_wrap|swa_out_cache_loc");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    tc_swa(&c, sentinel, 3, false);
    tc_out(&c, minus_one, 1, 2);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|-|-");
}

static void test_sentinel_deep_negative(void) {
    static const int64_t mapping[] = {5, 9, -1}, minus_two[] = {-2};
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    c.req_to_token[0] = -2; /* legacy reads mapping[1] = 9 */
    tc_swa(&c, mapping, 3, true);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|sentinel_deep_negative|swa_page_table");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    c.req_to_token[0] = -1; /* the sentinel onto a -1 last element: no difference */
    tc_swa(&c, mapping, 3, true);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|-|-");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    c.req_to_token[0] = -4; /* below -len: legacy raises instead */
    tc_swa(&c, mapping, 3, true);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|legacy_raises|-");

    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    tc_swa(&c, mapping, 3, false);
    tc_out(&c, minus_two, 1, 1);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|sentinel_deep_negative|swa_out_cache_loc");
}

static void test_swa_int32_truncation(void) {
    static const int64_t wide[] = {(int64_t)1 << 31, -1}, narrow[] = {(int64_t)1 << 30, -1};
    static const int64_t huge[] = {((int64_t)1 << 40) + 3, -1}, zero[] = {0};
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 2, 2, 1, 1, 2); /* token 0 -> mapping[0] */
    tc_swa(&c, wide, 2, true);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|swa_int32_truncation|swa_page_table");
    tc_case(&c, GM_MODE_DECODE, 2, 2, 1, 1, 2);
    tc_swa(&c, narrow, 2, true);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|-|-");

    tc_case(&c, GM_MODE_DECODE, 1, 1, 1, 1, 1);
    tc_swa(&c, huge, 2, false);
    tc_out(&c, zero, 1, 1);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|swa_int32_truncation|swa_out_cache_loc");
    tc_case(&c, GM_MODE_DECODE, 1, 1, 1, 1, 1);
    tc_swa(&c, narrow, 2, false);
    tc_out(&c, zero, 1, 1);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|-|-");
}

static void test_out_cache_loc_absent(void) {
    static const int64_t mapping[] = {3, -1};
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 1, 1, 1, 1, 1);
    tc_swa(&c, mapping, 2, false);
    tc_out(&c, NULL, 0, 2);
    c.init[GM_BUF_SWA_OUT_CACHE_LOC] = (gm_init){GM_INIT_FILL, 6, NULL, 0};
    EXPECT(&c, GM_COMPARE_LIVE, "decode|out_cache_loc_absent|swa_out_cache_loc");
    /* an empty out_cache_loc: both sides zero the buffer */
    tc_case(&c, GM_MODE_DECODE, 1, 1, 1, 1, 1);
    tc_swa(&c, mapping, 2, false);
    tc_out(&c, mapping, 0, 2);
    c.init[GM_BUF_SWA_OUT_CACHE_LOC] = (gm_init){GM_INIT_FILL, 6, NULL, 0};
    EXPECT(&c, GM_COMPARE_LIVE, "decode|-|-");
}

static void test_legacy_raises(void) {
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 1, 1, 1, 0, 1); /* max() of an empty batch */
    EXPECT(&c, GM_COMPARE_LIVE, "decode|legacy_raises|-");
    tc_case(&c, GM_MODE_DRAFT_EXTEND_V2, 1, 1, 1, 1, 1); /* q_stride 0: arange step 0 */
    EXPECT(&c, GM_COMPARE_LIVE, "draft_extend_v2|legacy_raises|-");
    tc_case(&c, GM_MODE_DRAFT_EXTEND_V2, 1, 1, 1, 1, 1);
    c.q_stride = 1;
    EXPECT(&c, GM_COMPARE_LIVE, "draft_extend_v2|-|-");
}

/* Each precondition of SPEC section 3 alone. */
static void test_fused_out_of_bounds(void) {
    static const int64_t mapping[] = {3, -1}, far[] = {2};
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 1, 2, 2, 1, 2);
    c.req_pool_indices[0] = 2; /* pool row outside [0, 2) */
    EXPECT(&c, GM_COMPARE_LIVE, "decode|fused_out_of_bounds|-");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 2, 1, 2);
    c.req_pool_indices[0] = -1; /* legacy wraps; fused reads before the tensor */
    EXPECT(&c, GM_COMPARE_LIVE, "decode|fused_out_of_bounds|-");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    c.has_max_seq_pages = true;
    c.max_seq_pages = 3; /* writes past the page-table row */
    EXPECT(&c, GM_COMPARE_LIVE, "decode|fused_out_of_bounds|-");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    c.req_to_token[1] = 2; /* token 2 past a mapping of 2 */
    tc_swa(&c, mapping, 2, true);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|fused_out_of_bounds|-");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    tc_swa(&c, mapping, 2, false);
    tc_out(&c, far, 1, 1); /* location 2 past the mapping */
    EXPECT(&c, GM_COMPARE_LIVE, "decode|fused_out_of_bounds|-");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    tc_swa(&c, mapping, 2, false);
    tc_out(&c, far, 1, 0); /* past num_out_tokens (0): never read; legacy raises */
    EXPECT(&c, GM_COMPARE_LIVE, "decode|legacy_raises|-");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 2, 1, 2);
    c.req_pool_indices[0] = 1; /* in range: no overrun */
    EXPECT(&c, GM_COMPARE_LIVE, "decode|-|-");
    /* -2^63 times the width 2 wraps to row 0: the model reads in bounds and
     * compares, but SPEC 3 calls the input out of bounds (legacy reads no
     * row: the host lengths are 0) */
    tc_case(&c, GM_MODE_DECODE, 1, 2, 2, 1, 2);
    c.req_pool_indices[0] = INT64_MIN;
    tc_seq_lens_cpu(&c, 0);
    EXPECT(&c, GM_COMPARE_LIVE, "decode|fused_out_of_bounds|page_table");
}

/* Runs `c`, then `tamper` edits the fused side as a kernel bug would, and
 * the verdict is judged again. */
static void expect_tampered(gm_case *c, void (*tamper)(harness_run_result *r), const char *signature) {
    harness_run_result r;
    harness_run_result_init(&r);
    gm_error err = {0};
    triage_finding f;
    CHECK(harness_run_case(cpu, c, GM_COMPARE_LIVE, &r, &err));
    tamper(&r);
    gm_oracle_judge(c, &r.reference, &r.fused, GM_COMPARE_LIVE, &r.verdict);
    triage_classify(c, &r, &f);
    if (strcmp(f.signature, signature) != 0) {
        fprintf(stderr, "tampered: signature \"%s\", expected \"%s\"\n", f.signature, signature);
    }
    CHECK(strcmp(f.signature, signature) == 0);
    harness_run_result_free(&r);
    gm_case_free(c);
}

static void tamper_overrun(harness_run_result *r) {
    gm_outputs_set_error(&r->fused,
                         "out_of_bounds: write of page_table[0][1] past the row width 1");
}

static void tamper_page(harness_run_result *r) {
    gm_buffer_set(&r->fused.buf[GM_BUF_PAGE_TABLE], 1, 99);
}

static void tamper_seqlens(harness_run_result *r) {
    gm_buffer_set(&r->fused.buf[GM_BUF_CACHE_SEQLENS], 0, 5);
}

static void tamper_out_tail(harness_run_result *r) {
    gm_buffer_set(&r->fused.buf[GM_BUF_SWA_OUT_CACHE_LOC], 1, 7);
}

/* Differences without a cause in the inputs: a kernel bug. */
static void test_fused_bugs_are_unclassified(void) {
    static const int64_t mapping[] = {3, -1}, zero[] = {0};
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    expect_tampered(&c, tamper_overrun, "decode|unclassified|-"); /* in bounds, it says */
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    expect_tampered(&c, tamper_page, "decode|unclassified|page_table");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    c.req_to_token[1] = -1; /* negative, but P = 1: no rounding to blame */
    expect_tampered(&c, tamper_page, "decode|unclassified|page_table");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    expect_tampered(&c, tamper_seqlens, "decode|unclassified|cache_seqlens");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    tc_swa(&c, mapping, 2, false);
    tc_out(&c, zero, 1, 2); /* slot 1 is the zeroed tail on both sides */
    expect_tampered(&c, tamper_out_tail, "decode|unclassified|swa_out_cache_loc");
}

/* Wrong values written exactly where a class's cause is present: the cause
 * alone used to cover them (issue 10); now a class covers a difference
 * only when both sides wrote what its rules predict. Each case first shows
 * its class with the correct kernel, then the same case with the fused
 * value a planted fault writes (kernel/fused_faults.h). */
static void tamper_pad_minus_one(harness_run_result *r) {
    gm_buffer *b = &r->fused.buf[GM_BUF_SWA_OUT_CACHE_LOC];
    for (size_t t = 0; t < gm_buffer_count(b); t++) {
        gm_buffer_set(b, t, -1); /* absent_out_pad_minus_one */
    }
}

static void tamper_negative_page_dropped(harness_run_result *r) {
    gm_buffer_set(&r->fused.buf[GM_BUF_PAGE_TABLE], 1, 0); /* the old contents */
}

static void tamper_negative_q_shifted(harness_run_result *r) {
    gm_buffer *b = &r->fused.buf[GM_BUF_CU_SEQLENS_Q];
    gm_buffer_set(b, 1, 0); /* k * S instead of (k + 1) * S */
    gm_buffer_set(b, 2, -3);
}

static void tamper_negative_mapping_divided(harness_run_result *r) {
    gm_buffer_set(&r->fused.buf[GM_BUF_SWA_PAGE_TABLE], 0, -40 / 16); /* not -1 */
}

static void tamper_nothing(harness_run_result *r) { (void)r; }

static void swa_out_absent_case(gm_case *c) {
    static const int64_t mapping[] = {3, -1};
    tc_case(c, GM_MODE_DECODE, 1, 1, 1, 1, 1);
    tc_swa(c, mapping, 2, false);
    tc_out(c, NULL, 0, 2);
    c->init[GM_BUF_SWA_OUT_CACHE_LOC] = (gm_init){GM_INIT_FILL, 6, NULL, 0};
}

static void negative_token_case(gm_case *c) {
    tc_case(c, GM_MODE_DECODE, 2, 4, 1, 1, 4);
    c->req_to_token[2] = -3; /* column 1: floor -2, truncation -1 */
}

static void negative_stride_case(gm_case *c) {
    tc_case(c, GM_MODE_DRAFT_EXTEND_V2, 1, 1, 1, 2, 1);
    c->q_stride = -3; /* legacy broadcasts -3; fused writes -3, -6 */
}

static void negative_mapping_case(gm_case *c) {
    static const int64_t mapping[] = {-40, -1};
    tc_case(c, GM_MODE_DECODE, 16, 16, 1, 1, 1);
    tc_swa(c, mapping, 2, true); /* legacy floor(-40 / 16) = -3, fused -1 */
}

static void test_wrong_values_under_a_cause(void) {
    gm_case c;
    swa_out_absent_case(&c);
    expect_tampered(&c, tamper_nothing, "decode|out_cache_loc_absent|swa_out_cache_loc");
    swa_out_absent_case(&c);
    expect_tampered(&c, tamper_pad_minus_one, "decode|unclassified|swa_out_cache_loc");
    negative_token_case(&c);
    expect_tampered(&c, tamper_nothing, "decode|negative_token_rounding|page_table");
    negative_token_case(&c);
    expect_tampered(&c, tamper_negative_page_dropped, "decode|unclassified|page_table");
    negative_stride_case(&c);
    expect_tampered(&c, tamper_nothing, "draft_extend_v2|negative_q_stride|cu_seqlens_q");
    negative_stride_case(&c);
    expect_tampered(&c, tamper_negative_q_shifted, "draft_extend_v2|unclassified|cu_seqlens_q");
    negative_mapping_case(&c);
    expect_tampered(&c, tamper_nothing, "decode|negative_swa_mapping|swa_page_table");
    negative_mapping_case(&c);
    expect_tampered(&c, tamper_negative_mapping_divided, "decode|unclassified|swa_page_table");
}

/* Runs `c` (tampered as a kernel bug would) and checks its bucket. */
static void expect_bucket(gm_case *c, gm_compare level, void (*tamper)(harness_run_result *r),
                          const char *bucket, int line) {
    harness_run_result r;
    harness_run_result_init(&r);
    gm_error err = {0};
    triage_finding f;
    CHECK(gm_case_check(c, &err) && harness_run_case(cpu, c, level, &r, &err));
    tamper(&r);
    gm_oracle_judge(c, &r.reference, &r.fused, level, &r.verdict);
    triage_classify(c, &r, &f);
    if (strcmp(f.bucket, bucket) != 0) {
        fprintf(stderr, "line %d: bucket \"%s\", expected \"%s\" (%s)\n", line, f.bucket, bucket,
                f.signature);
    }
    CHECK(strcmp(f.bucket, bucket) == 0);
    harness_run_result_free(&r);
    gm_case_free(c);
}
#define EXPECT_BUCKET(c, level, tamper, bucket)                                                    \
    expect_bucket((c), (level), (tamper), (bucket), __LINE__)

static void tamper_first_page_dropped(harness_run_result *r) {
    gm_buffer_set(&r->fused.buf[GM_BUF_PAGE_TABLE], 0, 0);
}

static void tamper_scan_first_row(harness_run_result *r) {
    gm_buffer_set(&r->fused.buf[GM_BUF_CU_SEQLENS_K], 1, 0); /* an exclusive scan's row 0 */
}

static void tamper_scan_row_40(harness_run_result *r) {
    gm_buffer_set(&r->fused.buf[GM_BUF_CU_SEQLENS_K], 41, 2); /* a lost carry at row 40 */
}

/* A bucket names what is unexplained, never the accepted differences that
 * co-occur: the four faults above land in one bucket each whatever else
 * differs, and so does a scan bug at a block edge. */
static void test_buckets(void) {
    gm_case c;
    swa_out_absent_case(&c);
    EXPECT_BUCKET(&c, GM_COMPARE_LIVE, tamper_nothing,
                  "class:out_cache_loc_absent|swa_out_cache_loc|predicted");
    swa_out_absent_case(&c);
    EXPECT_BUCKET(&c, GM_COMPARE_LIVE, tamper_pad_minus_one, "swa_out_cache_loc|padding|-1");
    negative_token_case(&c);
    EXPECT_BUCKET(&c, GM_COMPARE_LIVE, tamper_negative_page_dropped,
                  "page_tables|live|0_or_unwritten");
    negative_token_case(&c); /* the same bug with a stale tail next to it (strict) */
    c.seq_lens[0] = 1;
    c.req_to_token[0] = -3;
    EXPECT_BUCKET(&c, GM_COMPARE_STRICT, tamper_first_page_dropped,
                  "page_tables|live|0_or_unwritten");
    negative_token_case(&c); /* the stale tail alone */
    c.seq_lens[0] = 1;
    c.req_to_token[0] = -3;
    EXPECT_BUCKET(&c, GM_COMPARE_STRICT, tamper_nothing,
                  "class:negative_token_rounding|page_table|predicted");
    negative_stride_case(&c);
    EXPECT_BUCKET(&c, GM_COMPARE_LIVE, tamper_negative_q_shifted,
                  "cu_seqlens_q(strided)|live@rows<32|value");
    negative_mapping_case(&c);
    EXPECT_BUCKET(&c, GM_COMPARE_LIVE, tamper_negative_mapping_divided,
                  "page_tables|live|value");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2); /* one row: the last (test_buckets.c) */
    EXPECT_BUCKET(&c, GM_COMPARE_LIVE, tamper_scan_first_row, "cu_seqlens_k|live@last|value");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    c.init[GM_BUF_CU_SEQLENS_K] = (gm_init){GM_INIT_FILL, 9, NULL, 0};
    EXPECT_BUCKET(&c, GM_COMPARE_LIVE, tamper_scan_first_row, "cu_seqlens_k|live@last|value");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 3, 2);
    EXPECT_BUCKET(&c, GM_COMPARE_LIVE, tamper_scan_first_row, "cu_seqlens_k|live@rows<32|value");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 48, 2);
    EXPECT_BUCKET(&c, GM_COMPARE_LIVE, tamper_scan_row_40, "cu_seqlens_k|live@rows<256|value");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    EXPECT_BUCKET(&c, GM_COMPARE_LIVE, tamper_overrun, "unclassified|write of page_table|-");
    tc_case(&c, GM_MODE_DECODE, 1, 1, 1, 0, 1);
    EXPECT_BUCKET(&c, GM_COMPARE_LIVE, tamper_nothing, "legacy_raises|empty_reduction: step 1|-");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    EXPECT_BUCKET(&c, GM_COMPARE_LIVE, tamper_nothing, "");
}

/* gmfuzz's input-domain classes, each with its cause present (the length
 * wrap: test_seqlen_int32_wrap). */
static void test_input_domain_classes(void) {
    static const int64_t mapping[] = {-17, -1};
    gm_case c;
    tc_case(&c, GM_MODE_DRAFT_EXTEND_V2, 1, 1, 1, 2, 1);
    c.q_stride = -3; /* arange(-3, -5, -3) has one element: it broadcasts */
    EXPECT(&c, GM_COMPARE_LIVE, "draft_extend_v2|negative_q_stride|cu_seqlens_q");
    tc_case(&c, GM_MODE_DECODE, 16, 16, 1, 1, 1);
    tc_swa(&c, mapping, 2, true); /* a negative mapping value other than -1 */
    EXPECT(&c, GM_COMPARE_LIVE, "decode|negative_swa_mapping|swa_page_table");
    tc_case(&c, GM_MODE_DECODE, 1, 4, 1, 1, 4);
    c.has_max_seq_pages = true;
    c.max_seq_pages = 2; /* fused writes two of the four live columns */
    c.init[GM_BUF_PAGE_TABLE] = (gm_init){GM_INIT_FILL, -7, NULL, 0};
    EXPECT(&c, GM_COMPARE_LIVE, "decode|narrow_max_seq_pages|page_table");
}

/* The same inputs without the cause: nothing to name, or another class. */
static void test_other_differences_are_unclassified(void) {
    static const int64_t mapping[] = {-1, -1};
    gm_case c;
    tc_case(&c, GM_MODE_DRAFT_EXTEND_V2, 1, 1, 1, 2, 1);
    c.q_stride = 3; /* a positive stride: both sides agree */
    EXPECT(&c, GM_COMPARE_LIVE, "draft_extend_v2|-|-");
    tc_case(&c, GM_MODE_DECODE, 16, 16, 1, 1, 1);
    tc_swa(&c, mapping, 2, true); /* -1: both sides write -1 */
    EXPECT(&c, GM_COMPARE_LIVE, "decode|-|-");
    tc_case(&c, GM_MODE_DECODE, 1, 4, 1, 1, 4);
    c.has_max_seq_pages = true;
    c.max_seq_pages = 4; /* the full width: nothing left stale */
    c.init[GM_BUF_PAGE_TABLE] = (gm_init){GM_INIT_FILL, -7, NULL, 0};
    EXPECT(&c, GM_COMPARE_LIVE, "decode|-|-");
}

/* Several classes in one run, in enum order. */
static void test_several_classes(void) {
    static const int64_t mapping[] = {5, 9, 7};
    gm_case c;
    tc_case(&c, GM_MODE_TARGET_VERIFY, 2, 4, 1, 1, 2);
    c.req_to_token[0] = -1;
    tc_swa(&c, mapping, 3, true);
    EXPECT(&c, GM_COMPARE_STRICT,
           "target_verify|stale_tail+negative_token_rounding+sentinel_wrap|"
           "page_table+swa_page_table");
}

/* The outputs of the real implementations, judged and classified. */
static void vector_classify(const gm_doc *doc, gm_compare level, unsigned *hist, size_t *bad,
                            const char *path) {
    harness_run_result r;
    harness_run_result_init(&r);
    r.reference = doc->reference; /* borrowed: not freed here */
    r.fused = doc->fused;
    gm_oracle_judge(&doc->c, &r.reference, &r.fused, level, &r.verdict);
    triage_finding f;
    triage_classify(&doc->c, &r, &f);
    for (int k = 0; k < TRIAGE_CLASS_COUNT; k++) {
        hist[k] += (f.classes >> k) & 1u;
    }
    if (f.classes & (1u << TRIAGE_CLASS_UNCLASSIFIED)) {
        fprintf(stderr, "%s: %s at %s\n", path, f.signature, gm_compare_name(level));
        (*bad)++;
    }
}

static void print_histogram(const char *what, const unsigned *hist) {
    fprintf(stderr, "%s:", what);
    for (int k = 0; k < TRIAGE_CLASS_COUNT; k++) {
        fprintf(stderr, " %s %u", triage_class_name((triage_class)k), hist[k]);
    }
    fprintf(stderr, "\n");
}

static void test_vectors_fully_classified(void) {
    harness_paths files;
    harness_paths_init(&files);
    gm_error err = {0};
    unsigned live[TRIAGE_CLASS_COUNT] = {0}, strict[TRIAGE_CLASS_COUNT] = {0};
    size_t bad_live = 0, bad_strict = 0, read = 0;
    CHECK(harness_paths_add(&files, vector_dir, &err));
    for (size_t i = 0; i < files.count; i++) {
        gm_doc doc;
        if (!gm_json_read_file(files.items[i], NULL, &doc, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            continue;
        }
        read++;
        vector_classify(&doc, GM_COMPARE_LIVE, live, &bad_live, files.items[i]);
        vector_classify(&doc, GM_COMPARE_STRICT, strict, &bad_strict, files.items[i]);
        gm_doc_free(&doc);
    }
    print_histogram("vectors, live", live);
    print_histogram("vectors, strict", strict);
    CHECK_EQ_I64(read, 250);
    CHECK_EQ_I64(bad_live, 0);
    CHECK(live[TRIAGE_CLASS_STALE_HOST_SEQLENS] > 0 && live[TRIAGE_CLASS_NEGATIVE_TOKEN_ROUNDING] > 0);
    harness_paths_free(&files);
}

int main(int argc, char **argv) {
    gm_error err = {0};
    if (argc != 2) {
        fprintf(stderr, "usage: test_classify VECTOR_DIR\n");
        return 2;
    }
    vector_dir = argv[1];
    if (!harness_backend_open(HARNESS_BACKEND_CPU, &cpu, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    GM_RUN(test_names);
    GM_RUN(test_signature_format);
    GM_RUN(test_stale_tail);
    GM_RUN(test_stale_host_seqlens);
    GM_RUN(test_seqlen_int32_wrap);
    GM_RUN(test_negative_token_rounding);
    GM_RUN(test_sentinel_wrap);
    GM_RUN(test_sentinel_deep_negative);
    GM_RUN(test_swa_int32_truncation);
    GM_RUN(test_out_cache_loc_absent);
    GM_RUN(test_legacy_raises);
    GM_RUN(test_fused_out_of_bounds);
    GM_RUN(test_fused_bugs_are_unclassified);
    GM_RUN(test_wrong_values_under_a_cause);
    GM_RUN(test_buckets);
    GM_RUN(test_input_domain_classes);
    GM_RUN(test_other_differences_are_unclassified);
    GM_RUN(test_several_classes);
    GM_RUN(test_vectors_fully_classified);
    harness_backend_close(cpu);
    GM_TEST_END();
}

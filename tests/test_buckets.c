/* Buckets that hold still (issue 23): a scan's rows are described relative
 * to the case, so that a fault of the last row keeps one key whatever bs
 * is; an external target's failures get buckets of their own
 * (triage/triage_target.h); and keys of the old form, as baselines list
 * them, still cover what they covered (triage_bucket_covers).
 */
#include <stdio.h>
#include <string.h>

#include "gm_test.h"
#include "harness.h"
#include "triage.h"
#include "triage_bucket.h"
#include "triage_cases.h"

static harness_backend *cpu;

/* Runs `c` on the builtin CPU kernel (gmfuzz's fused model), lets `tamper`
 * change the fused side as a bug would, and classifies the run: as the
 * builtin kernel's (`target` false: judged against the reference), or as
 * an external target's that deviated from the model. Frees `c`. */
static void expect_bucket(gm_case *c, bool target, void (*tamper)(harness_run_result *r),
                          const char *bucket, int line) {
    harness_run_result r;
    harness_run_result_init(&r);
    gm_error err = {0};
    triage_finding f;
    bool ran = gm_case_check(c, &err) && harness_run_case(cpu, c, GM_COMPARE_LIVE, &r, &err);
    CHECK(ran);
    if (ran) {
        tamper(&r);
        gm_oracle_judge(c, &r.reference, &r.fused, GM_COMPARE_LIVE, &r.verdict);
        if (target) {
            gm_outputs_set_error(&r.fused, GM_TARGET_DEVIATES_PREFIX "as the test says");
            r.verdict.status = GM_STATUS_TARGET_FAILED;
        }
        triage_classify(c, &r, &f);
        if (strcmp(f.bucket, bucket) != 0) {
            fprintf(stderr, "line %d: bucket \"%s\", expected \"%s\" (%s)\n", line, f.bucket,
                    bucket, f.signature);
        }
        CHECK(strcmp(f.bucket, bucket) == 0);
    } else {
        fprintf(stderr, "line %d: %s\n", line, err.msg);
    }
    harness_run_result_free(&r);
    gm_case_free(c);
}
#define EXPECT_BUCKET(c, target, tamper, bucket)                                                   \
    expect_bucket((c), (target), (tamper), (bucket), __LINE__)

/* ---- tampering as bugs would ------------------------------------------- */

static void add_one(harness_run_result *r, gm_buf_id id, size_t flat) {
    gm_buffer *b = &r->fused.buf[id];
    gm_buffer_set(b, flat, gm_buffer_get(b, flat) + 1);
}

/* cu_seqlens_k/q's last element (row bs-1) one too high. */
static void last_row_k(harness_run_result *r) {
    const gm_buffer *b = &r->fused.buf[GM_BUF_CU_SEQLENS_K];
    add_one(r, GM_BUF_CU_SEQLENS_K, gm_buffer_count(b) - 1);
}

static void last_row_q(harness_run_result *r) {
    const gm_buffer *b = &r->fused.buf[GM_BUF_CU_SEQLENS_Q];
    add_one(r, GM_BUF_CU_SEQLENS_Q, gm_buffer_count(b) - 1);
}

/* The scan restarts at row `at`: the carry of rows < at is lost. */
static void restart_k_at(harness_run_result *r, size_t at) {
    gm_buffer *b = &r->fused.buf[GM_BUF_CU_SEQLENS_K];
    int64_t carry = gm_buffer_get(b, at);
    for (size_t k = at + 1; k < gm_buffer_count(b); k++) {
        gm_buffer_set(b, k, gm_buffer_get(b, k) - carry);
    }
}
static void restart_k_at_1024(harness_run_result *r) { restart_k_at(r, 1024); }
static void restart_k_at_1000(harness_run_result *r) { restart_k_at(r, 1000); }
static void restart_k_at_32(harness_run_result *r) { restart_k_at(r, 32); }

/* Every row's own term dropped: an exclusive scan. */
static void exclusive_k(harness_run_result *r) {
    gm_buffer *b = &r->fused.buf[GM_BUF_CU_SEQLENS_K];
    for (size_t k = gm_buffer_count(b) - 1; k > 0; k--) {
        gm_buffer_set(b, k, gm_buffer_get(b, k - 1));
    }
}

static void nothing(harness_run_result *r) { (void)r; }

/* ---- the builtin kernel's scans ----------------------------------------- */

/* One fault, one key, whatever bs: the last row of bs 1 is the last row. */
static void test_last_row_holds_still(void) {
    static const size_t sizes[] = {1, 2, 32, 33, 257, 1025, 1500};
    gm_case c;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        tc_case(&c, GM_MODE_DECODE, 1, 2, 1, sizes[k], 2);
        EXPECT_BUCKET(&c, false, last_row_k, "cu_seqlens_k|live@last|value");
        tc_case(&c, GM_MODE_DRAFT_EXTEND, 1, 2, 1, sizes[k], 2);
        EXPECT_BUCKET(&c, false, last_row_q, "cu_seqlens_q(cumsum)|live@last|value");
    }
}

/* A carry lost at a block edge names the edge whatever bs is; one lost
 * elsewhere, the block range of its row; a bug of every row, the first. */
static void test_scan_edges(void) {
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1100, 2);
    EXPECT_BUCKET(&c, false, restart_k_at_1024, "cu_seqlens_k|live@edge1024|value");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 4000, 2);
    EXPECT_BUCKET(&c, false, restart_k_at_1024, "cu_seqlens_k|live@edge1024|value");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 40, 2);
    EXPECT_BUCKET(&c, false, restart_k_at_32, "cu_seqlens_k|live@edge32|value");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1010, 2);
    EXPECT_BUCKET(&c, false, restart_k_at_1000, "cu_seqlens_k|live@rows<1024|value");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 9, 2);
    EXPECT_BUCKET(&c, false, exclusive_k, "cu_seqlens_k|live@rows<32|value");
}

/* ---- targets ------------------------------------------------------------ */

/* The same faults in a target: judged against the model, with the
 * relation of the target's value to the model's. */
static void test_target_scans(void) {
    static const size_t sizes[] = {1, 2, 100, 1025};
    gm_case c;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        tc_case(&c, GM_MODE_DRAFT_EXTEND, 1, 2, 1, sizes[k], 2);
        EXPECT_BUCKET(&c, true, last_row_q,
                      "target_deviates:cu_seqlens_q(cumsum)|live@last|off_by_one");
    }
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1100, 2);
    EXPECT_BUCKET(&c, true, restart_k_at_1024, "target_deviates:cu_seqlens_k|live@edge1024|other");
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1100, 2);
    EXPECT_BUCKET(&c, true, nothing, "target_deviates|-|-"); /* no deviation after all */
}

/* A negative slot floor-divided, as legacy does: off by one, and what the
 * reference wrote (drifting toward the legacy semantics). */
static void negative_token_case(gm_case *c) {
    tc_case(c, GM_MODE_DECODE, 2, 4, 1, 1, 4);
    c->req_to_token[2] = -3; /* column 1: floor -2, truncation -1 */
}

static void floor_divided(harness_run_result *r) {
    gm_buffer_set(&r->fused.buf[GM_BUF_PAGE_TABLE], 1, -2);
}

static void unwritten_cell(harness_run_result *r) {
    gm_buffer_set(&r->fused.buf[GM_BUF_PAGE_TABLE], 0, 7); /* the init's 7 kept */
}

static void zero_cell(harness_run_result *r) {
    gm_buffer_set(&r->fused.buf[GM_BUF_PAGE_TABLE], 1, 0); /* page 1 */
}

static void test_target_page_tables(void) {
    gm_case c;
    negative_token_case(&c);
    EXPECT_BUCKET(&c, true, floor_divided, "target_deviates:page_table|live|off_by_one=legacy");
    negative_token_case(&c);
    c.init[GM_BUF_PAGE_TABLE] = (gm_init){GM_INIT_FILL, 7, NULL, 0};
    EXPECT_BUCKET(&c, true, unwritten_cell, "target_deviates:page_table|live|stale");
    /* a 0 over the init's 0 is the old contents kept, as an unwritten cell */
    tc_case(&c, GM_MODE_DECODE, 1, 4, 1, 1, 4);
    EXPECT_BUCKET(&c, true, zero_cell, "target_deviates:page_table|live|stale");
    tc_case(&c, GM_MODE_DECODE, 1, 4, 1, 1, 4);
    c.init[GM_BUF_PAGE_TABLE] = (gm_init){GM_INIT_FILL, 7, NULL, 0};
    EXPECT_BUCKET(&c, true, zero_cell, "target_deviates:page_table|live|0_or_unwritten");
}

/* swa_out_cache_loc: a mapping value past int32 kept as its low 32 bits
 * (as legacy's cast does), and a pad left stale in the second tile. */
static void swa_wide_case(gm_case *c) {
    static const int64_t mapping[] = {((int64_t)1 << 33) + 5, 1};
    static const int64_t locs[] = {0};
    tc_case(c, GM_MODE_DECODE, 1, 1, 1, 1, 1);
    tc_swa(c, mapping, 2, false);
    tc_out(c, locs, 1, 600);
    c->init[GM_BUF_SWA_OUT_CACHE_LOC] = (gm_init){GM_INIT_FILL, 6, NULL, 0};
}

static void low32_slot(harness_run_result *r) {
    gm_buffer_set(&r->fused.buf[GM_BUF_SWA_OUT_CACHE_LOC], 0, 5);
}

static void stale_second_tile(harness_run_result *r) {
    gm_buffer *b = &r->fused.buf[GM_BUF_SWA_OUT_CACHE_LOC];
    for (size_t t = 512; t < gm_buffer_count(b); t++) {
        gm_buffer_set(b, t, 6);
    }
}

static void test_target_swa_out(void) {
    gm_case c;
    swa_wide_case(&c);
    EXPECT_BUCKET(&c, true, low32_slot, "target_deviates:swa_out_cache_loc|slots|low32=legacy");
    swa_wide_case(&c);
    EXPECT_BUCKET(&c, true, stale_second_tile,
                  "target_deviates:swa_out_cache_loc|padding@locs>=512|stale");
}

/* A raise by its type and the innermost frame in the target's file, a
 * crash by its signal, a hang alone. */
static void expect_failure(const char *error, const char *bucket, int line) {
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 1, 2);
    harness_run_result r;
    harness_run_result_init(&r);
    gm_error err = {0};
    triage_finding f;
    CHECK(gm_outputs_prepare(&r.reference, &c, &err) && gm_outputs_prepare(&r.fused, &c, &err));
    gm_outputs_set_error(&r.fused, "%s", error);
    r.verdict.status = GM_STATUS_TARGET_FAILED;
    triage_classify(&c, &r, &f);
    if (strcmp(f.bucket, bucket) != 0) {
        fprintf(stderr, "line %d: bucket \"%s\", expected \"%s\"\n", line, f.bucket, bucket);
    }
    CHECK(strcmp(f.bucket, bucket) == 0);
    harness_run_result_free(&r);
    gm_case_free(&c);
}

static void test_target_failures(void) {
    expect_failure("target_raised: IndexError: [torch_fused.py:120 "
                   "update_trtllm_mha_graph_metadata] index -9 is out of bounds for dimension 0",
                   "target_raised|IndexError|torch_fused.py:update_trtllm_mha_graph_metadata",
                   __LINE__);
    expect_failure("target_raised: ValueError: planted fault: a batch of 3 rows",
                   "target_raised|ValueError|-", __LINE__); /* a worker before issue 23 */
    expect_failure("target_raised: torch.OutOfMemoryError: [a.py:3 f] out of memory",
                   "target_raised|torch.OutOfMemoryError|a.py:f", __LINE__);
    expect_failure("target_crashed: the worker was killed by signal 11 (Segmentation fault) "
                   "(confirmed: again on a fresh worker: the worker was killed by signal 11)",
                   "target_crashed|SIGSEGV|-", __LINE__);
    expect_failure("target_crashed: the worker exited with status 3",
                   "target_crashed|exit_3|-", __LINE__);
    expect_failure("target_crashed: the worker process died", "target_crashed|-|-", __LINE__);
    expect_failure("target_hung: no answer within 2 s (the worker was killed)",
                   "target_hung|-|-", __LINE__);
}

/* ---- keys of the old form ----------------------------------------------- */

static void test_old_keys_cover(void) {
    CHECK(triage_bucket_covers("target_deviates|-|-", "target_deviates:page_table|live|stale"));
    CHECK(triage_bucket_covers("target_deviates|-|-", "target_deviates|-|-"));
    CHECK(!triage_bucket_covers("target_deviates|-|-", "target_raised|IndexError|-"));
    CHECK(triage_bucket_covers("target_raised|-|-", "target_raised|IndexError|a.py:f"));
    CHECK(triage_bucket_covers("target_crashed|-|-", "target_crashed|SIGSEGV|-"));
    CHECK(!triage_bucket_covers("target_raised|IndexError|a.py:f", "target_raised|IndexError|-"));
    CHECK(triage_bucket_covers("cu_seqlens_k|live@rows<256|value",
                               "cu_seqlens_k|live@edge32|value"));
    CHECK(triage_bucket_covers("cu_seqlens_k|live@rows>=1024|value",
                               "cu_seqlens_k|live@edge1024|value"));
    CHECK(triage_bucket_covers("cu_seqlens_k|live@rows>=1024|value",
                               "cu_seqlens_k|live@rows>=4096|value"));
    CHECK(triage_bucket_covers("cu_seqlens_q(cumsum)|live@rows<1024|value",
                               "cu_seqlens_q(cumsum)|live@rows<512|value"));
    CHECK(!triage_bucket_covers("cu_seqlens_k|live@rows<32|value", "cu_seqlens_k|live@last|value"));
    CHECK(!triage_bucket_covers("cu_seqlens_k|live@rows<256|value",
                                "cu_seqlens_q(cumsum)|live@edge32|value"));
    CHECK(!triage_bucket_covers("cu_seqlens_k|live@rows<256|value",
                                "cu_seqlens_k|live@edge256|value"));
    CHECK(!triage_bucket_covers("cu_seqlens_k|live@rows<256|value", "cu_seqlens_k|live@edge32|-1"));
}

int main(void) {
    gm_error err = {0};
    if (!harness_backend_open(HARNESS_BACKEND_CPU, &cpu, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    GM_RUN(test_last_row_holds_still);
    GM_RUN(test_scan_edges);
    GM_RUN(test_target_scans);
    GM_RUN(test_target_page_tables);
    GM_RUN(test_target_swa_out);
    GM_RUN(test_target_failures);
    GM_RUN(test_old_keys_cover);
    harness_backend_close(cpu);
    GM_TEST_END();
}

/* The buckets of a drift between the C reference and real PyTorch
 * (triage/triage_drift.h): each relation on a case of corpus/vectors (the
 * C reference's outputs, torch's made to differ as a drifting reference
 * would), a raise on one side, and the old key of a run with no torch
 * outputs, which covers every new one.
 *   test_drift_buckets CORPUS_VECTORS_DIR */
#include <stdio.h>
#include <string.h>

#include "gm_test.h"
#include "harness.h"
#include "triage.h"
#include "triage_bucket.h"

static const char *vectors;
static harness_backend *cpu;

/* A three-way run of the vector NAME's case: the C reference as it is,
 * torch's outputs a copy of it that `edit` changes. */
static bool test_drift_run(const char *name, gm_doc *doc, harness_run_result *r) {
    char path[1024];
    gm_error err = {0};
    snprintf(path, sizeof path, "%s/%s.json", vectors, name);
    gm_doc_init(doc);
    harness_run_result_init(r);
    bool ok = gm_json_read_file(path, NULL, doc, &err) &&
              harness_run_case(cpu, &doc->c, GM_COMPARE_LIVE, r, &err) &&
              gm_outputs_copy(&r->torch, &r->reference, &err);
    if (!ok) {
        fprintf(stderr, "  %s: %s\n", path, err.msg);
    }
    r->has_torch = true;
    r->verdict = (gm_verdict){.status = GM_STATUS_REFERENCE_DRIFT, .compare = GM_COMPARE_LIVE};
    return ok;
}

static void test_drift_expect(const gm_doc *doc, const harness_run_result *r, const char *want) {
    triage_finding f;
    triage_classify(&doc->c, r, &f);
    CHECK(strcmp(f.bucket, want) == 0);
    if (strcmp(f.bucket, want) != 0) {
        fprintf(stderr, "  bucket %s, expected %s\n", f.bucket, want);
    }
    CHECK(triage_bucket_covers("reference_drift|-|-", f.bucket));
}

static void test_drift_floor_vs_trunc(void) {
    gm_doc doc;
    harness_run_result r;
    if (test_drift_run("page_ids_truncated", &doc, &r)) {
        int32_t *c = gm_buffer_i32(&r.reference.buf[GM_BUF_PAGE_TABLE]);
        CHECK_EQ_I64(c[0], -1); /* -1 // 3: the floor */
        gm_buffer_i32(&r.torch.buf[GM_BUF_PAGE_TABLE])[0] = 0; /* truncated, and the old 0 too */
        test_drift_expect(&doc, &r, "reference_drift:page_table|live|floor_vs_trunc");
        gm_buffer_i32(&r.torch.buf[GM_BUF_PAGE_TABLE])[0] = 7;
        test_drift_expect(&doc, &r, "reference_drift:page_table|live|other");
    }
    harness_run_result_free(&r);
    gm_doc_free(&doc);
}

static void test_drift_int32_wrap_and_off_by_one(void) {
    gm_doc doc;
    harness_run_result r;
    if (test_drift_run("swa_out_keeps_int64", &doc, &r)) {
        int64_t *c = gm_buffer_i64(&r.reference.buf[GM_BUF_SWA_OUT_CACHE_LOC]);
        CHECK_EQ_I64(c[0], INT32_MIN); /* int32(2^31) */
        gm_buffer_i64(&r.torch.buf[GM_BUF_SWA_OUT_CACHE_LOC])[0] = (int64_t)1 << 31;
        test_drift_expect(&doc, &r, "reference_drift:swa_out_cache_loc|slots|int32_wrap");
        gm_buffer_i32(&r.torch.buf[GM_BUF_CACHE_SEQLENS])[0] += 1; /* first in buffer order */
        test_drift_expect(&doc, &r, "reference_drift:cache_seqlens|live|off_by_one");
    }
    harness_run_result_free(&r);
    gm_doc_free(&doc);
}

static void test_drift_raises_and_old_key(void) {
    gm_doc doc;
    harness_run_result r;
    if (test_drift_run("page_ids_truncated", &doc, &r)) {
        gm_outputs_set_error(&r.torch, "IndexError: index 5 is out of bounds");
        test_drift_expect(&doc, &r, "reference_drift:raise|torch_only|raises_one_side");
        r.has_torch = false; /* a reproducer written before issue 27 */
        test_drift_expect(&doc, &r, "reference_drift|-|-");
        CHECK(!triage_bucket_covers("reference_drift|-|-", "target_raised|IndexError|-"));
    }
    harness_run_result_free(&r);
    gm_doc_free(&doc);
}

int main(int argc, char **argv) {
    gm_error err = {0};
    if (argc != 2 || !harness_backend_open(HARNESS_BACKEND_CPU, &cpu, &err)) {
        fprintf(stderr, "usage: test_drift_buckets CORPUS_VECTORS_DIR %s\n", err.msg);
        return 1;
    }
    vectors = argv[1];
    GM_RUN(test_drift_floor_vs_trunc);
    GM_RUN(test_drift_int32_wrap_and_off_by_one);
    GM_RUN(test_drift_raises_and_old_key);
    harness_backend_close(cpu);
    GM_TEST_END();
}

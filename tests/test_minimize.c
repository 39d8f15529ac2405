/* The minimizer: the same signature after minimizing, determinism, the
 * shrink results on example cases, the run budget; and the reproducer
 * written for a minimized case replays.
 *
 *   test_minimize SCRATCH_DIR
 */
#include <stdio.h>
#include <string.h>

#include "gm_json.h"
#include "minimize.h"
#include "harness.h"
#include "repro.h"
#include "gm_test.h"
#include "triage_cases.h"

static harness_backend *cpu;
static const char *scratch;

static bool classify(const gm_case *c, gm_compare level, triage_finding *f) {
    harness_run_result r;
    harness_run_result_init(&r);
    gm_error err = {0};
    bool ok = harness_run_case(cpu, c, level, &r, &err);
    if (ok) {
        triage_classify(c, &r, f);
    } else {
        fprintf(stderr, "%s\n", err.msg);
    }
    harness_run_result_free(&r);
    return ok;
}

/* Minimizes `c` in place; checks that the signature is kept and returns
 * the runs spent. */
static size_t minimize(gm_case *c, gm_compare level, size_t max_runs) {
    triage_finding before, after;
    gm_error err = {0};
    minimize_stats stats = {.max_runs = max_runs};
    CHECK(classify(c, level, &before));
    CHECK(before.status != GM_STATUS_MATCH);
    CHECK(minimize_case(cpu, level, &before, c, &stats, &err));
    CHECK(gm_case_check(c, &err));
    CHECK(classify(c, level, &after));
    if (strcmp(before.signature, after.signature) != 0) {
        fprintf(stderr, "signature %s became %s\n", before.signature, after.signature);
    }
    CHECK(strcmp(before.signature, after.signature) == 0);
    return stats.runs;
}

static char *case_text(const gm_case *c) {
    cJSON *j = gm_json_case(c);
    char *text = j != NULL ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    return text;
}

/* 512 rows over 512 pool rows; one request holds a negative slot. */
static void negative_token_case(gm_case *c) {
    tc_case(c, GM_MODE_DECODE, 16, 64, 512, 512, 64);
    c->req_to_token[300 * 64 + 32] = -1; /* row 300, page 2 */
}

static void test_negative_token_shrinks_to_one_row(void) {
    gm_case c;
    negative_token_case(&c);
    minimize(&c, GM_COMPARE_LIVE, 0);
    CHECK_EQ_I64(c.bs, 1);
    CHECK_EQ_I64(c.pool, 1);
    CHECK_EQ_I64(c.width, 1);
    CHECK_EQ_I64(c.max_context_len, 1);
    CHECK_EQ_I64(c.page_size, 16);
    CHECK_EQ_I64(c.req_pool_indices[0], 0);
    CHECK_EQ_I64(c.seq_lens[0], 1);
    CHECK_EQ_I64(c.req_to_token[0], -1);
    gm_case_free(&c);
}

static void test_deterministic(void) {
    gm_case a, b;
    negative_token_case(&a);
    negative_token_case(&b);
    size_t runs_a = minimize(&a, GM_COMPARE_LIVE, 0);
    size_t runs_b = minimize(&b, GM_COMPARE_LIVE, 0);
    char *ta = case_text(&a), *tb = case_text(&b);
    CHECK(ta != NULL && tb != NULL && strcmp(ta, tb) == 0);
    CHECK_EQ_I64(runs_a, runs_b);
    cJSON_free(ta);
    cJSON_free(tb);
    gm_case_free(&a);
    gm_case_free(&b);
}

/* Optional parts that play no role go: name, seq_lens_cpu, init arrays,
 * the SWA parts, max_seq_pages. */
static void test_optional_parts_dropped(void) {
    static const int64_t mapping[] = {4, 5, 6, 7, -1}, locs[] = {1, 2, 3};
    gm_case c;
    negative_token_case(&c);
    c.name = tc_alloc(8, 1);
    strcpy(c.name, "label");
    tc_seq_lens_cpu(&c, 64);
    tc_swa(&c, mapping, 5, false);
    tc_out(&c, locs, 3, 4);
    c.has_max_seq_pages = true;
    c.max_seq_pages = 4;
    c.init[GM_BUF_CACHE_SEQLENS] = (gm_init){GM_INIT_ARRAY, 0, tc_alloc(512, 8), 512};
    c.init[GM_BUF_SWA_OUT_CACHE_LOC] = (gm_init){GM_INIT_FILL, 9, NULL, 0};
    c.init[GM_BUF_SWA_OUT_CACHE_LOC].fill = 0; /* the same as fused's tail: no difference */
    minimize(&c, GM_COMPARE_LIVE, 0);
    CHECK(c.name == NULL);
    CHECK(c.seq_lens_cpu == NULL);
    CHECK(!c.has_swa);
    CHECK(!c.has_max_seq_pages);
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        CHECK_EQ_I64(c.init[id].kind, GM_INIT_DEFAULT);
    }
    CHECK_EQ_I64(c.bs, 1);
    gm_case_free(&c);
}

/* The host copy lags on one row of 300: one row is enough. */
static void test_stale_host_seqlens(void) {
    gm_case c;
    tc_case(&c, GM_MODE_TARGET_VERIFY, 4, 32, 300, 300, 9);
    tc_seq_lens_cpu(&c, 9);
    c.seq_lens[123] = 30; /* M stays 9 + D: columns 3..7 of row 123 stale */
    c.num_draft_tokens = 2;
    minimize(&c, GM_COMPARE_LIVE, 0);
    CHECK_EQ_I64(c.bs, 1);
    CHECK_EQ_I64(c.pool, 1);
    CHECK(c.seq_lens_cpu != NULL);
    CHECK(c.seq_lens_cpu != NULL && c.seq_lens_cpu[0] < c.seq_lens[0]);
    CHECK_EQ_I64(c.num_draft_tokens, 0);
    gm_case_free(&c);
}

/* The SWA mapping keeps only the slots read, and its last element. */
static void test_sentinel_wrap_shrinks_mapping(void) {
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 2, 8, 64, 64, 8);
    int64_t mapping[64 * 8 + 3];
    for (size_t k = 0; k < sizeof mapping / sizeof mapping[0]; k++) {
        mapping[k] = (int64_t)k * 3;
    }
    tc_swa(&c, mapping, sizeof mapping / sizeof mapping[0], true);
    c.req_to_token[40 * 8 + 4] = -1; /* wraps onto the last element, which is not -1 */
    minimize(&c, GM_COMPARE_LIVE, 0);
    CHECK_EQ_I64(c.bs, 1);
    CHECK_EQ_I64(c.pool, 1);
    CHECK(c.has_swa && c.swa.mapping_len <= 2);
    CHECK(c.has_swa && c.swa.mapping[c.swa.mapping_len - 1] != -1);
    gm_case_free(&c);
}

/* A difference that needs two rows (the strided cu_seqlens_q of a
 * negative q_stride broadcasts one element only when bs is 2): both stay,
 * everything else goes. */
static void test_two_row_fault_keeps_two_rows(void) {
    gm_case c;
    tc_case(&c, GM_MODE_DRAFT_EXTEND_V2, 4, 64, 50, 2, 37);
    c.q_stride = -1000;
    tc_seq_lens_cpu(&c, 37);
    c.init[GM_BUF_PAGE_TABLE] = (gm_init){GM_INIT_FILL, 3, NULL, 0};
    minimize(&c, GM_COMPARE_LIVE, 0);
    CHECK_EQ_I64(c.bs, 2);
    CHECK_EQ_I64(c.q_stride, -2); /* -1: arange(-1, -1, -1) is empty and raises */
    CHECK_EQ_I64(c.pool, 1);
    CHECK_EQ_I64(c.max_context_len, 1);
    CHECK(c.seq_lens_cpu == NULL);
    CHECK_EQ_I64(c.init[GM_BUF_PAGE_TABLE].kind, GM_INIT_DEFAULT);
    gm_case_free(&c);
}

/* A legacy raise keeps its reason: a pool index out of range does not
 * become an empty batch (which raises too, for another reason). */
static void test_raise_keeps_its_reason(void) {
    static const int64_t mapping[] = {1, 2, -1};
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 1, 4, 4, 100, 4);
    tc_swa(&c, mapping, 3, true);
    memset(c.req_to_token, 0, 16 * sizeof(int32_t));
    c.req_to_token[2 * 4 + 1] = -9; /* below -len: legacy raises in step 7 */
    minimize(&c, GM_COMPARE_LIVE, 0);
    CHECK_EQ_I64(c.bs, 1);
    harness_run_result r;
    harness_run_result_init(&r);
    gm_error err = {0};
    CHECK(harness_run_case(cpu, &c, GM_COMPARE_LIVE, &r, &err));
    CHECK_EQ_I64(r.raised.raised, REFERENCE_INDEX_OUT_OF_RANGE);
    CHECK_EQ_I64(r.raised.step, 7);
    harness_run_result_free(&r);
    gm_case_free(&c);
}

static void test_overrun_keeps_its_buffer(void) {
    static const int64_t mapping[] = {1, 2, -1}, locs[] = {0, 1, 2, 3, 1};
    gm_case c;
    tc_case(&c, GM_MODE_DECODE, 1, 2, 1, 40, 2);
    tc_swa(&c, mapping, 3, false);
    tc_out(&c, locs, 5, 5); /* location 3 reads past the mapping */
    minimize(&c, GM_COMPARE_LIVE, 0);
    CHECK(c.has_swa && c.swa.out_cache_loc != NULL && c.swa.n_out == 1);
    CHECK(c.has_swa && c.swa.out_cache_loc != NULL && c.swa.out_cache_loc[0] == 1);
    CHECK_EQ_I64(c.swa.mapping_len, 1);
    CHECK_EQ_I64(c.bs, 1);
    gm_case_free(&c);
}

static void test_run_budget(void) {
    gm_case c;
    negative_token_case(&c);
    size_t runs = minimize(&c, GM_COMPARE_LIVE, 5);
    CHECK(runs <= 5);
    CHECK(c.bs < 512); /* five runs still halve the batch */
    gm_case_free(&c);
}

/* The minimized case as a reproducer: complete, and it replays. */
static void test_repro_replays(void) {
    gm_case c;
    negative_token_case(&c);
    minimize(&c, GM_COMPARE_STRICT, 0);
    harness_run_result r;
    harness_run_result_init(&r);
    gm_error err = {0};
    triage_finding f;
    char path[512];
    snprintf(path, sizeof path, "%s/minimized-repro.json", scratch);
    CHECK(harness_run_case(cpu, &c, GM_COMPARE_STRICT, &r, &err));
    triage_classify(&c, &r, &f);
    repro_origin origin = {"libfuzzer", 4242, true, NULL, NULL};
    CHECK(repro_write(path, &c, &r, &f, HARNESS_BACKEND_CPU, &origin, &err));
    gm_doc doc;
    harness_replay_outcome outcome = {0};
    CHECK(gm_json_read_file(path, NULL, &doc, &err));
    CHECK(harness_replay_doc(cpu, &doc, GM_COMPARE_LIVE, &outcome, &err));
    CHECK(outcome.passed);
    CHECK(doc.kind == GM_DOC_REPRO && doc.repro.minimized && doc.repro.found_execs == 4242);
    CHECK_STR_CONTAINS(doc.repro.found_by, "libfuzzer");
    CHECK_STR_CONTAINS(doc.repro.tool_version, "gmfuzz 0.");
    CHECK_STR_CONTAINS(doc.repro.signature, f.signature);
    CHECK(doc.repro.n_classes == 1 && strcmp(doc.repro.classes[0], "negative_token_rounding") == 0);
    CHECK(doc.repro.found_at != NULL && strlen(doc.repro.found_at) == 20);
    CHECK_EQ_I64(doc.repro.verdict.compare, GM_COMPARE_STRICT);
    gm_doc_free(&doc);
    harness_run_result_free(&r);
    gm_case_free(&c);
}

int main(int argc, char **argv) {
    gm_error err = {0};
    if (argc != 2) {
        fprintf(stderr, "usage: test_minimize SCRATCH_DIR\n");
        return 2;
    }
    scratch = argv[1];
    if (!harness_backend_open(HARNESS_BACKEND_CPU, &cpu, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    GM_RUN(test_negative_token_shrinks_to_one_row);
    GM_RUN(test_deterministic);
    GM_RUN(test_optional_parts_dropped);
    GM_RUN(test_stale_host_seqlens);
    GM_RUN(test_sentinel_wrap_shrinks_mapping);
    GM_RUN(test_two_row_fault_keeps_two_rows);
    GM_RUN(test_raise_keeps_its_reason);
    GM_RUN(test_overrun_keeps_its_buffer);
    GM_RUN(test_run_budget);
    GM_RUN(test_repro_replays);
    harness_backend_close(cpu);
    GM_TEST_END();
}

/* test_inputs: inputs are read-only (issue 24 item 2; harness/harness_inputs.h): the
 * comparison of a target's inputs with what was sent, the IN tensors a batch records in its
 * shared block, the finding it makes (class target_wrote_input, its bucket naming the input
 * and the element), and the rule that tells an engine's raw input from a JSON document
 * (issue 24 item 3; fuzz.h, fuzz_casefile_is_raw). */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "gm_test.h"
#include "harness.h"
#include "harness_inputs.h"
#include "harness_launch.h"
#include "harness_pybatch.h"
#include "harness_pycall.h"
#include "triage.h"

/* A decode case of 3 rows over a 2 x 8 req_to_token (page size 4). */
static bool make_case(gm_case *c) {
    static const int32_t r2t[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    static const int64_t rows[3] = {0, 1, 0}, lens[3] = {5, 1, 8};
    gm_case_init(c);
    c->mode = GM_MODE_DECODE;
    c->page_size = 4;
    c->max_context_len = 8;
    c->pool = 2, c->width = 8, c->bs = 3;
    c->req_to_token = malloc(sizeof r2t);
    c->req_pool_indices = malloc(sizeof rows);
    c->seq_lens = malloc(sizeof lens);
    if (c->req_to_token == NULL || c->req_pool_indices == NULL || c->seq_lens == NULL) {
        return false;
    }
    memcpy(c->req_to_token, r2t, sizeof r2t);
    memcpy(c->req_pool_indices, rows, sizeof rows);
    memcpy(c->seq_lens, lens, sizeof lens);
    gm_error err = {0};
    return gm_case_check(c, &err);
}

static void test_inputs_of_a_launch(void) {
    gm_case c;
    gm_outputs out;
    gm_outputs_init(&out);
    gm_error err = {0};
    CHECK(make_case(&c) && gm_outputs_prepare(&out, &c, &err));
    fused_params p;
    harness_launch_params(&c, &out, &p);
    harness_inputs_buf in[HARNESS_INPUTS_MAX];
    size_t n = harness_inputs_of(&p, in);
    CHECK_EQ_I64(n, 3); /* no SWA, no qlens */
    CHECK(n == 3 && strcmp(in[0].name, "req_pool_indices") == 0 && in[0].count == 3);
    CHECK(n == 3 && strcmp(in[1].name, "seq_lens") == 0 && in[1].elem == 8);
    CHECK(n == 3 && strcmp(in[2].name, "req_to_token") == 0 && in[2].count == 16 &&
          in[2].cols == 8 && in[2].elem == 4);
    gm_outputs_free(&out);
    gm_case_free(&c);
}

static void test_changed_names_the_first_element(void) {
    int64_t sent[4] = {5, 6, 7, 8}, now[4] = {5, 6, 7, 8};
    int32_t table[6] = {0, 1, 2, 3, 4, 5}, table_now[6] = {0, 1, 2, 3, 4, 5};
    harness_inputs_buf lens = {"seq_lens", sent, 8, 4, 1};
    harness_inputs_buf r2t = {"req_to_token", table, 4, 6, 3};
    char what[HARNESS_INPUTS_WHAT_MAX] = "";
    CHECK(!harness_inputs_changed(&lens, now, what, sizeof what));
    CHECK(!harness_inputs_changed(&r2t, table_now, what, sizeof what));
    now[2] = -7;
    now[3] = 9;
    CHECK(harness_inputs_changed(&lens, now, what, sizeof what));
    CHECK_STR_CONTAINS(what, "seq_lens[2]: sent 7, now -7 (2 of 4 elements changed)");
    table_now[4] ^= 1;
    CHECK(harness_inputs_changed(&r2t, table_now, what, sizeof what));
    CHECK_STR_CONTAINS(what, "req_to_token[1][1]: sent 4, now 5 (1 of 6 elements changed)");
    harness_inputs_buf none = {"qlens", sent, 4, 0, 1}; /* nothing sent: nothing to change */
    CHECK(!harness_inputs_changed(&none, now, what, sizeof what));
}

/* A python: batch records each call's IN tensors where it placed them in the block: what
 * the worker leaves there after the call is compared with the case's arrays. */
static void test_batch_checks_its_block(void) {
    gm_case c;
    gm_outputs out;
    gm_outputs_init(&out);
    gm_error err = {0};
    harness_pybatch *b = NULL;
    CHECK(make_case(&c) && gm_outputs_prepare(&out, &c, &err) && harness_pybatch_new(&b, &err));
    if (b == NULL) {
        return;
    }
    harness_pycall_add_fused(b, &c, &out);
    harness_pycall_add_fused(b, &c, &out);
    CHECK(harness_pybatch_ok(b) && harness_pybatch_count(b) == 2);
    CHECK(b->n_ins == 6);
    char what[HARNESS_INPUTS_WHAT_MAX] = "";
    CHECK(!harness_pybatch_inputs_changed(b, 0, what, sizeof what));
    CHECK(!harness_pybatch_inputs_changed(b, 1, what, sizeof what));
    const harness_pybatch_in *r2t = &b->ins[5]; /* call 1's req_to_token */
    CHECK(strcmp(r2t->name, "req_to_token") == 0);
    int32_t v;
    memcpy(&v, b->block.base + r2t->offset, 4);
    v ^= 1;
    memcpy(b->block.base + r2t->offset, &v, 4); /* the target wrote req_to_token[0][0] */
    CHECK(!harness_pybatch_inputs_changed(b, 0, what, sizeof what));
    CHECK(harness_pybatch_inputs_changed(b, 1, what, sizeof what));
    CHECK_STR_CONTAINS(what, "req_to_token[0][0]: sent 0, now 1 (1 of 16 elements changed)");
    harness_pybatch_free(b);
    gm_outputs_free(&out);
    gm_case_free(&c);
}

/* The finding: a run whose fused side reports a write into an input is target_failed,
 * of class target_wrote_input, bucketed by the input and its first changed element. */
static void test_finding_and_bucket(void) {
    gm_case c;
    harness_backend *cpu = NULL;
    gm_error err = {0};
    harness_run_result r;
    harness_run_result_init(&r);
    CHECK(make_case(&c) && harness_backend_open(HARNESS_BACKEND_CPU, &cpu, &err) &&
          harness_run_case(cpu, &c, GM_COMPARE_LIVE, &r, &err));
    CHECK(r.verdict.status == GM_STATUS_MATCH);
    harness_inputs_report(&r.fused, "req_to_token[0][0]: sent 0, now 1 (1 of 16 elements changed)");
    CHECK(harness_inputs_is_report(r.fused.error));
    gm_oracle_judge(&c, &r.reference, &r.fused, GM_COMPARE_LIVE, &r.verdict);
    CHECK(r.verdict.status == GM_STATUS_TARGET_FAILED);
    triage_finding f, parsed;
    triage_classify(&c, &r, &f);
    CHECK_STR_CONTAINS(f.signature, "decode|target_wrote_input|-");
    CHECK_STR_CONTAINS(f.bucket, "target_wrote_input|req_to_token|[0][0]");
    CHECK(triage_finding_parse(f.signature, &parsed, &err));
    CHECK(parsed.status == GM_STATUS_TARGET_FAILED && parsed.classes == f.classes);
    harness_inputs_report(&r.fused, "seq_lens[2]: sent 8, now 9 (1 of 3 elements changed)");
    triage_classify(&c, &r, &f);
    CHECK_STR_CONTAINS(f.bucket, "target_wrote_input|seq_lens|[2]");
    harness_run_result_free(&r);
    harness_backend_close(cpu);
    gm_case_free(&c);
}

static bool raw(const char *path, const char *bytes) {
    return fuzz_casefile_is_raw(path, (const uint8_t *)bytes, strlen(bytes));
}

static void test_raw_only_when_unambiguous(void) {
    static const uint8_t nul_first[3] = {0, 1, 2};
    CHECK(fuzz_casefile_is_raw("crash-1", nul_first, 3));
    CHECK(raw("crash-1", "\x07\x10\x03"));
    CHECK(raw("crash-1", "  \n\x01"));
    CHECK(raw("seed", "xyz"));
    CHECK(!raw("crash-1", "")); /* empty: a missing document */
    CHECK(!raw("crash-1", " \t\r\n"));
    const char *json_starts[] = {"{", "[1,2,3]", "\"s\"", "-1", "0", "9", "true", "false",
                                 "null", "nope", "  {\"format\": 1"};
    for (size_t k = 0; k < sizeof json_starts / sizeof json_starts[0]; k++) {
        CHECK(!raw("crash-1", json_starts[k]));
    }
    CHECK(!raw("x.json", "\x07\x10\x03")); /* named a document: read as one */
    CHECK(raw("x.json.bin", "\x07"));
}

int main(void) {
    GM_RUN(test_inputs_of_a_launch);
    GM_RUN(test_changed_names_the_first_element);
    GM_RUN(test_batch_checks_its_block);
    GM_RUN(test_finding_and_bucket);
    GM_RUN(test_raw_only_when_unambiguous);
    GM_TEST_END();
}

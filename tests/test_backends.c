/* A backend against the real implementations and against the CPU.
 *
 *   test_backends BACKEND VECTOR_DIR [RANDOM_CASES]
 *
 * Replays every conformance vector on BACKEND (the fused buffers must equal
 * the real fused kernel's, the reference the real legacy path's). For a
 * backend other than cpu, also runs RANDOM_CASES generated cases on both
 * BACKEND and cpu and requires identical buffers wherever the CPU reports
 * no out-of-bounds access (and an out-of-bounds report on both otherwise).
 * Exits 77 (skipped) when the backend is unavailable, e.g. no GPU. The
 * cases come from harness/harness_gen.c, seed 20261129. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "gm_test.h"

static harness_backend *tested;
static const char *vector_dir;
static long random_cases;

static void test_vectors_replay(void) {
    harness_paths files;
    harness_paths_init(&files);
    gm_error err = {0};
    CHECK(harness_paths_add(&files, vector_dir, &err));
    CHECK_EQ_I64(files.count, 250);
    gm_limits lim;
    gm_limits_default(&lim);
    size_t passed = 0;
    for (size_t i = 0; i < files.count; i++) {
        gm_doc doc;
        gm_doc_init(&doc);
        harness_replay_outcome outcome = {0};
        bool ok = gm_json_read_file(files.items[i], &lim, &doc, &err) &&
                  harness_replay_doc(tested, &doc, GM_COMPARE_STRICT, &outcome, &err);
        if (!ok) {
            fprintf(stderr, "%s\n", err.msg);
        } else if (!outcome.passed) {
            fprintf(stderr, "%s: %s\n", files.items[i], outcome.message);
        }
        passed += ok && outcome.passed;
        gm_doc_free(&doc);
    }
    fprintf(stderr, "vectors on %s: %zu/%zu passed\n",
            harness_target_backend_name(harness_backend_kind_of(tested)), passed, files.count);
    CHECK_EQ_I64(passed, files.count);
    harness_paths_free(&files);
}

static void test_random_cases_agree_with_cpu(void) {
    harness_backend *both[2] = {NULL, tested};
    gm_error err = {0};
    CHECK(harness_backend_open(HARNESS_BACKEND_CPU, &both[0], &err));
    harness_gen gen;
    harness_gen_seed(&gen, 20261129);
    long agreed = 0;
    for (long n = 0; n < random_cases; n++) {
        gm_case c;
        gm_case_init(&c);
        harness_agree_outcome outcome;
        bool ran = harness_gen_case(&gen, &c, &err) && harness_agree_case(both, 2, &c, &outcome, &err);
        if (!ran || !outcome.agreed) {
            fprintf(stderr, "generated case %ld (bs %zu, mode %s): %s\n", n, c.bs,
                    gm_mode_name(c.mode), ran ? outcome.message : err.msg);
        }
        agreed += ran && outcome.agreed;
        gm_case_free(&c);
    }
    fprintf(stderr, "generated cases (seed 20261129): %ld/%ld agree with cpu\n", agreed,
            random_cases);
    CHECK_EQ_I64(agreed, random_cases);
    harness_backend_close(both[0]);
}

int main(int argc, char **argv) {
    harness_backend_kind kind;
    if (argc < 3 || !harness_target_backend_from_name(argv[1], &kind)) {
        fprintf(stderr, "usage: test_backends BACKEND VECTOR_DIR [RANDOM_CASES]\n");
        return 2;
    }
    vector_dir = argv[2];
    random_cases = argc > 3 ? atol(argv[3]) : 2000;
    gm_error err = {0};
    if (!harness_backend_open(kind, &tested, &err)) {
        fprintf(stderr, "skipped: %s\n", err.msg);
        return err.code == GM_ERR_DEVICE ? GM_TEST_SKIP : 1;
    }
    GM_RUN(test_vectors_replay);
    if (kind != HARNESS_BACKEND_CPU) {
        GM_RUN(test_random_cases_agree_with_cpu);
    }
    harness_backend_close(tested);
    GM_TEST_END();
}

/* A backend against the real implementations and against the CPU.
 *
 *   test_backends BACKEND VECTOR_DIR [RANDOM_CASES]
 *
 * Replays every conformance vector on BACKEND (the fused buffers must equal
 * the real fused kernel's, the reference the real legacy path's). For a
 * backend other than cpu, also runs RANDOM_CASES generated cases on both
 * BACKEND and cpu and requires identical buffers wherever the CPU reports
 * no out-of-bounds access (and an out-of-bounds report on both otherwise).
 * Exits 77 (skipped) when the backend is unavailable, e.g. no GPU. */
#include <stdio.h>
#include <stdlib.h>

#include "gm_paths.h"
#include "gen_cases.h"
#include "gm_replay.h"
#include "gm_run.h"
#include "gm_test.h"

static gm_backend *tested;
static const char *vector_dir;
static long random_cases;

static void test_vectors_replay(void) {
    gm_paths files;
    gm_paths_init(&files);
    gm_error err = {0};
    CHECK(gm_paths_add(&files, vector_dir, &err));
    CHECK_EQ_I64(files.count, 250);
    gm_limits lim;
    gm_limits_default(&lim);
    size_t passed = 0;
    for (size_t i = 0; i < files.count; i++) {
        gm_doc doc;
        gm_doc_init(&doc);
        gm_replay_outcome outcome = {0};
        bool ok = gm_json_read_file(files.items[i], &lim, &doc, &err) &&
                  gm_replay_doc(tested, &doc, GM_COMPARE_STRICT, &outcome, &err);
        if (!ok) {
            fprintf(stderr, "%s\n", err.msg);
        } else if (!outcome.passed) {
            fprintf(stderr, "%s: %s\n", files.items[i], outcome.message);
        }
        passed += ok && outcome.passed;
        gm_doc_free(&doc);
    }
    fprintf(stderr, "vectors on %s: %zu/%zu passed\n",
            gm_backend_kind_name(gm_backend_kind_of(tested)), passed, files.count);
    CHECK_EQ_I64(passed, files.count);
    gm_paths_free(&files);
}

/* One generated case on both backends; false on a disagreement. */
static bool compare_with_cpu(gm_backend *cpu, const gm_case *c, long index) {
    gm_outputs on_cpu, on_tested;
    gm_outputs_init(&on_cpu);
    gm_outputs_init(&on_tested);
    gm_error err = {0};
    bool ran = gm_backend_run(cpu, c, &on_cpu, &err) && gm_backend_run(tested, c, &on_tested, &err);
    bool same = ran && (on_cpu.error != NULL) == (on_tested.error != NULL);
    if (same && on_cpu.error == NULL) {
        gm_verdict v;
        gm_oracle_compare_buffers(c, &on_cpu, &on_tested, GM_COMPARE_STRICT, &v);
        same = v.status == GM_STATUS_MATCH;
    }
    if (!same) {
        fprintf(stderr, "generated case %ld (bs %zu, mode %s): %s\n", index, c->bs,
                gm_mode_name(c->mode), ran ? "backends disagree" : err.msg);
    }
    gm_outputs_free(&on_cpu);
    gm_outputs_free(&on_tested);
    return same;
}

static void test_random_cases_agree_with_cpu(void) {
    gm_backend *cpu = NULL;
    gm_error err = {0};
    CHECK(gm_backend_open(GM_BACKEND_CPU, &cpu, &err));
    gen_rng rng = {20261129};
    long agreed = 0;
    for (long n = 0; n < random_cases; n++) {
        gm_case c;
        gm_case_init(&c);
        /* Every 50th case is large: the scan must carry across blocks. */
        bool made = gen_case(&rng, &c, n % 50 == 0 ? 5000 : 64);
        agreed += made && compare_with_cpu(cpu, &c, n);
        gm_case_free(&c);
    }
    fprintf(stderr, "generated cases: %ld/%ld agree with cpu\n", agreed, random_cases);
    CHECK_EQ_I64(agreed, random_cases);
    gm_backend_close(cpu);
}

int main(int argc, char **argv) {
    gm_backend_kind kind;
    if (argc < 3 || !gm_backend_kind_from_name(argv[1], &kind)) {
        fprintf(stderr, "usage: test_backends cpu|cuda VECTOR_DIR [RANDOM_CASES]\n");
        return 2;
    }
    vector_dir = argv[2];
    random_cases = argc > 3 ? atol(argv[3]) : 2000;
    gm_error err = {0};
    if (!gm_backend_open(kind, &tested, &err)) {
        fprintf(stderr, "skipped: %s\n", err.msg);
        return err.code == GM_ERR_DEVICE ? GM_TEST_SKIP : 1;
    }
    GM_RUN(test_vectors_replay);
    if (kind != GM_BACKEND_CPU) {
        GM_RUN(test_random_cases_agree_with_cpu);
    }
    gm_backend_close(tested);
    GM_TEST_END();
}

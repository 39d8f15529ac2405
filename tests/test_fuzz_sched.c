/* The class schedule of a sweep job (fuzz/fuzz_sched.h). Counted in runs
 * (by_runs, what `sweep --cases N` uses) it draws the same cases whatever
 * JIT time the target reports: a seed and a count are one fixed set of
 * cases on any machine. Counted in seconds, JIT time past the budget holds
 * new classes back. */
#include <stdio.h>
#include <string.h>

#include "fuzz_sched.h"
#include "gm_test.h"
#include "harness.h"

#define TEST_SCHED_BATCH 64
#define TEST_SCHED_DRAWS 400

/* One job's stream for `draws` batches, each batch charged `jit_s`:
 * returns the classes met and writes a hash of every case drawn. */
static size_t test_sched_stream(bool by_runs, double jit_s, uint64_t *hash) {
    fuzz_sched_config cfg = {.budget = FUZZ_SCHED_BUDGET, .warm = FUZZ_SCHED_WARM,
                             .run = FUZZ_SCHED_RUN, .by_runs = by_runs};
    fuzz_sched s;
    gm_error err = {0};
    gm_case cases[TEST_SCHED_BATCH];
    for (size_t k = 0; k < TEST_SCHED_BATCH; k++) {
        gm_case_init(&cases[k]);
    }
    CHECK(fuzz_sched_init(&s, &cfg, 3, 3, &err));
    *hash = 0;
    for (int d = 0; d < TEST_SCHED_DRAWS; d++) {
        size_t drawn = 0;
        CHECK(fuzz_sched_draw(&s, cases, TEST_SCHED_BATCH, &drawn, &err));
        for (size_t k = 0; k < drawn; k++) {
            *hash = *hash * 1099511628211u + harness_class_key_of(&cases[k]) + cases[k].bs;
        }
        fuzz_sched_charge(&s, jit_s);
    }
    size_t classes = s.n_known;
    fuzz_sched_free(&s);
    for (size_t k = 0; k < TEST_SCHED_BATCH; k++) {
        gm_case_free(&cases[k]);
    }
    return classes;
}

/* Counted in runs: free compiles and a minute a batch give the same cases,
 * and past the warm classes one new class every 1 / budget runs. */
static void test_sched_by_runs_is_fixed(void) {
    uint64_t free_hash = 0, slow_hash = 0;
    size_t free_classes = test_sched_stream(true, 0.0, &free_hash);
    size_t slow_classes = test_sched_stream(true, 60.0, &slow_hash);
    CHECK(free_hash == slow_hash);
    CHECK_EQ_I64(free_classes, slow_classes);
    CHECK(free_classes > FUZZ_SCHED_WARM);
}

/* Counted in seconds: a minute of JIT a batch leaves the job with its warm
 * classes (the test's stream takes far less than 600 s). */
static void test_sched_by_seconds_holds_back(void) {
    uint64_t hash = 0;
    CHECK_EQ_I64(test_sched_stream(false, 60.0, &hash), FUZZ_SCHED_WARM);
}

/* The budget itself, by runs: the warm classes at once, then the next one
 * only once 1 / budget runs have started. */
static void test_sched_budget_by_runs(void) {
    fuzz_sched_config cfg = {.budget = 0.10, .warm = 2, .run = 1, .by_runs = true};
    fuzz_sched_budget b;
    gm_error err = {0};
    CHECK(fuzz_sched_budget_init(&b, &cfg, &err));
    CHECK(fuzz_sched_budget_allows(&b) && fuzz_sched_budget_add(&b, 11));
    CHECK(fuzz_sched_budget_allows(&b) && fuzz_sched_budget_add(&b, 12));
    b.runs = 9;
    CHECK(!fuzz_sched_budget_allows(&b));
    b.runs = 10;
    CHECK(fuzz_sched_budget_allows(&b) && fuzz_sched_budget_add(&b, 13));
    b.runs = 19;
    CHECK(!fuzz_sched_budget_allows(&b));
    b.runs = 20;
    CHECK(fuzz_sched_budget_allows(&b));
    fuzz_sched_budget_free(&b);
}

int main(void) {
    GM_RUN(test_sched_budget_by_runs);
    GM_RUN(test_sched_by_runs_is_fixed);
    GM_RUN(test_sched_by_seconds_holds_back);
    GM_TEST_END();
}

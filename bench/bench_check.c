/* bench_check: the per-input check of the fuzz harnesses (fuzz_check_case:
 * run both sides, classify, decide) against its target of >= 20,000
 * exec/s on small cases, and what the check adds to the bare run.
 *
 *   bench_check KNOWN_JSON [SECONDS] [MAX_BS]   (default 3 s, bs <= 16)
 *
 * Cases come from the seeded generator (harness/harness.h), kept when their
 * bs <= MAX_BS; the same 4096 cases are cycled, so the numbers exclude
 * input decoding. Failures are not saved (no failure folder): the bench
 * measures the path every input takes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fuzz.h"
#include "harness.h"

#define BENCH_CASES 4096

static double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* BENCH_CASES generated cases with bs <= max_bs. */
static bool bench_cases(gm_case *cases, size_t max_bs, gm_error *err) {
    harness_gen g;
    harness_gen_seed(&g, 20261129);
    for (size_t k = 0; k < BENCH_CASES;) {
        gm_case_init(&cases[k]);
        if (!harness_gen_case(&g, &cases[k], err)) {
            return false;
        }
        if (cases[k].bs <= max_bs) {
            k++;
        } else {
            gm_case_free(&cases[k]);
        }
    }
    return true;
}

/* Bare runs per second over the cases, for `seconds`. */
static double bench_runs(harness_backend *b, gm_case *cases, double seconds) {
    harness_run_result r;
    gm_error err = {0};
    size_t n = 0;
    harness_run_result_init(&r);
    double start = bench_now(), now = start;
    for (; now - start < seconds; now = bench_now()) {
        for (size_t k = 0; k < 256; k++, n++) {
            harness_run_case(b, &cases[n % BENCH_CASES], GM_COMPARE_LIVE, &r, &err);
        }
    }
    harness_run_result_free(&r);
    return (double)n / (now - start);
}

/* Checks per second, and how the inputs were decided. */
static double bench_checks(const fuzz_check_config *cfg, gm_case *cases, double seconds,
                           size_t counts[4]) {
    size_t n = 0;
    double start = bench_now(), now = start;
    for (; now - start < seconds; now = bench_now()) {
        for (size_t k = 0; k < 256; k++, n++) {
            counts[fuzz_check_case(cfg, &cases[n % BENCH_CASES], NULL)]++;
        }
    }
    return (double)n / (now - start);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: bench_check KNOWN_JSON [SECONDS] [MAX_BS]\n");
        return 2;
    }
    double seconds = argc > 2 ? atof(argv[2]) : 3.0;
    size_t max_bs = argc > 3 ? (size_t)strtoull(argv[3], NULL, 10) : 16;
    gm_error err = {0};
    harness_backend *b = NULL;
    triage_baseline *known = NULL;
    gm_case *cases = calloc(BENCH_CASES, sizeof *cases);
    if (cases == NULL || !harness_backend_open(HARNESS_BACKEND_CPU, &b, &err) ||
        !triage_baseline_load(argv[1], &known, &err) || !bench_cases(cases, max_bs, &err)) {
        fprintf(stderr, "bench_check: %s\n", cases == NULL ? "out of memory" : err.msg);
        return 2;
    }
    fuzz_check_config cfg = {b, NULL, GM_COMPARE_LIVE, known, false, NULL, "bench", 0};
    size_t counts[4] = {0, 0, 0, 0};
    double runs = bench_runs(b, cases, seconds);
    double checks = bench_checks(&cfg, cases, seconds, counts);
    size_t total = counts[0] + counts[1] + counts[2] + counts[3];
    printf("CPU backend, generated cases with bs <= %zu, live, one core\n", max_bs);
    printf("bare run (harness_run_case):      %9.0f exec/s\n", runs);
    printf("fuzz_check_case:             %9.0f exec/s  (%.1f%% of the bare run; target >= 20000)\n",
           checks, 100.0 * checks / runs);
    printf("decisions: match %.1f%%, known %.1f%%, failure %.1f%%, broken %zu\n",
           100.0 * (double)counts[FUZZ_CHECK_MATCH] / (double)total,
           100.0 * (double)counts[FUZZ_CHECK_KNOWN] / (double)total,
           100.0 * (double)counts[FUZZ_CHECK_FAILURE] / (double)total, counts[FUZZ_CHECK_BROKEN]);
    for (size_t k = 0; k < BENCH_CASES; k++) {
        gm_case_free(&cases[k]);
    }
    free(cases);
    triage_baseline_free(known);
    harness_backend_close(b);
    return checks >= 20000.0 ? 0 : 1;
}

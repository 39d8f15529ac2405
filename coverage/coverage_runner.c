/* gmfuzz-coverage-runner: a campaign's inputs through the differential
 * target, once each, for a coverage profile (gmfuzz coverage). Not an
 * engine: nothing is mutated, so the profile is exactly the corpus's.
 *
 *   gmfuzz-coverage-runner PATH...
 *
 * Files and folders (searched recursively; names starting with '.' and
 * AFL++'s README.txt skipped). An engine's raw input goes through the very
 * path libFuzzer's target takes (fuzz_harness_run: decode, both sides, the
 * oracle, the classifier, the baseline); a JSON document (a failure, a
 * reproducer, a case: told apart by content, fuzz.h) has its case
 * checked the same way (fuzz_check_case). Nothing is saved. The settings
 * are the harness's environment (GMFUZZ_BASELINE, GMFUZZ_COMPARE, ...).
 *
 * `--sweep=SEED:N` stands for a sweep job's first N cases (harness_gen_case
 * from SEED, as `gmfuzz sweep-job -seed=SEED` draws them: coverage_sweep.h),
 * each checked as a JSON document's case is.
 *
 * Prints one line of counts (a file that could not be read is counted and
 * named on stderr: the profile of the others stands). Exit 0 when the
 * inputs ran, whatever their verdicts; 2 when the harness could not start.
 */
#define _DEFAULT_SOURCE /* fts */

#include <fts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "gm_hash.h"
#include "harness.h"

typedef struct {
    fuzz_harness harness;
    gm_limits limits;
    size_t raw, json, generated, unreadable;
    size_t by_result[FUZZ_CHECK_UNSAVED + 1];
} coverage_runner;

static bool coverage_runner_is_json(const uint8_t *data, size_t size) {
    size_t i = 0;
    while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r')) {
        i++;
    }
    return i < size && data[i] == '{';
}

static void coverage_runner_json(coverage_runner *r, const char *path) {
    gm_doc doc;
    gm_error err = {0};
    gm_doc_init(&doc);
    if (!fuzz_casefile_read(path, &r->limits, &doc, &err)) {
        fprintf(stderr, "gmfuzz-coverage-runner: %s\n", err.msg);
        r->unreadable++;
    } else {
        triage_finding f = {0};
        r->by_result[fuzz_check_case(&r->harness.check, &doc.c, &f)]++;
        r->json++;
    }
    gm_doc_free(&doc);
}

static void coverage_runner_file(coverage_runner *r, const char *path) {
    gm_error err = {0};
    size_t size = 0;
    uint8_t *data = fuzz_casefile_slurp(path, &size, &err);
    if (data == NULL) {
        fprintf(stderr, "gmfuzz-coverage-runner: %s\n", err.msg);
        r->unreadable++;
        return;
    }
    if (coverage_runner_is_json(data, size)) {
        coverage_runner_json(r, path);
    } else {
        triage_finding f = {0};
        r->by_result[fuzz_harness_run(&r->harness, data, size, &f)]++;
        r->raw++;
    }
    free(data);
}

/* A sweep job's first n cases from its seed, drawn as cmd_sweep.c does. */
static void coverage_runner_sweep(coverage_runner *r, const char *arg) {
    unsigned long long seed = 0, n = 0;
    if (sscanf(arg, "--sweep=%llu:%llu", &seed, &n) != 2) {
        fprintf(stderr, "gmfuzz-coverage-runner: %s: not --sweep=SEED:N\n", arg);
        r->unreadable++;
        return;
    }
    harness_gen g;
    harness_gen_seed(&g, (uint64_t)seed * GM_HASH_GOLDEN);
    for (unsigned long long k = 0; k < n; k++) {
        gm_case c;
        gm_case_init(&c);
        gm_error err = {0};
        if (!harness_gen_case(&g, &c, &err)) {
            fprintf(stderr, "gmfuzz-coverage-runner: %s\n", err.msg);
            r->unreadable++;
        } else {
            triage_finding f = {0};
            r->by_result[fuzz_check_case(&r->harness.check, &c, &f)]++;
            r->generated++;
        }
        gm_case_free(&c);
    }
}

/* An engine's bookkeeping, not an input: hidden files (libFuzzer's and
 * AFL++'s state) and the README.txt AFL++ writes into crashes/. */
static bool coverage_runner_skipped(const char *name) {
    return name[0] == '.' || strcmp(name, "README.txt") == 0;
}

static void coverage_runner_walk(coverage_runner *r, char *path) {
    char *roots[] = {path, NULL};
    FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
    if (fts == NULL) {
        fprintf(stderr, "gmfuzz-coverage-runner: %s: cannot open it\n", path);
        r->unreadable++;
        return;
    }
    for (FTSENT *e = fts_read(fts); e != NULL; e = fts_read(fts)) {
        bool hidden = e->fts_level > 0 && coverage_runner_skipped(e->fts_name);
        if (hidden && e->fts_info == FTS_D) {
            fts_set(fts, e, FTS_SKIP);
        } else if (!hidden && e->fts_info == FTS_F) {
            coverage_runner_file(r, e->fts_path);
        } else if (e->fts_info == FTS_NS || e->fts_info == FTS_DNR || e->fts_info == FTS_ERR) {
            fprintf(stderr, "gmfuzz-coverage-runner: %s: cannot read it\n", e->fts_path);
            r->unreadable++;
        }
    }
    fts_close(fts);
}

int main(int argc, char **argv) {
    static coverage_runner r; /* the harness's seen-set is 32 KiB */
    gm_error err = {0};
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        fprintf(stderr, "usage: gmfuzz-coverage-runner PATH...\n");
        return 2;
    }
    if (!fuzz_harness_open(&r.harness, HARNESS_BACKEND_CPU, "coverage", &err)) {
        fprintf(stderr, "gmfuzz-coverage-runner: %s\n", err.msg);
        return 2;
    }
    r.harness.check.failure_dir = NULL; /* a profile run saves nothing */
    gm_limits_default(&r.limits);
    for (int k = 1; k < argc; k++) {
        if (strncmp(argv[k], "--sweep=", 8) == 0) {
            coverage_runner_sweep(&r, argv[k]);
        } else {
            coverage_runner_walk(&r, argv[k]);
        }
    }
    fuzz_harness_close(&r.harness);
    printf("%zu inputs (%zu raw, %zu JSON, %zu swept), %zu unreadable: %zu match, %zu known, "
           "%zu new, %zu broken\n",
           r.raw + r.json + r.generated, r.raw, r.json, r.generated, r.unreadable,
           r.by_result[FUZZ_CHECK_MATCH],
           r.by_result[FUZZ_CHECK_KNOWN], r.by_result[FUZZ_CHECK_FAILURE],
           r.by_result[FUZZ_CHECK_BROKEN] + r.by_result[FUZZ_CHECK_UNSAVED]);
    return 0;
}

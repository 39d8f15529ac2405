/* fuzz_harness: what the libFuzzer and AFL++ targets share: their
 * settings, read from the environment once at start-up, and one input
 * through decode + check (fuzz_check.h).
 *
 *   GMFUZZ_FAILURE_DIR      where failures are saved as gmfuzz-repro-v1
 *                           files (default ./gmfuzz-failures)
 *   GMFUZZ_BASELINE         the known differences (default: BINARY.baseline.json
 *                           next to the binary when there is one, as in an
 *                           OSS-Fuzz $OUT, else the source tree's
 *                           corpus/known.json, fixed at build time)
 *   GMFUZZ_STRICT_BASELINE  1: every mismatch is a failure (default 0)
 *   GMFUZZ_COMPARE          live | strict (default live)
 *   GMFUZZ_CASE_MUTATION    percent of libFuzzer mutations done at the
 *                           case level (fuzz_mutate.h), 0..100 (default 20)
 *   GMFUZZ_TARGET           the fused side (docs/TARGETS.md): builtin:...,
 *                           lib:PATH.so or python:[MODULE][:FUNCTION]
 *                           (default: the binary's builtin backend);
 *                           GMFUZZ_TARGET_DEVICE cuda|cpu,
 *                           GMFUZZ_TARGET_TIMEOUT seconds (default 10)
 *   GMFUZZ_TARGET_HUB       NAME: the target runs in the campaign's target
 *                           hub @NAME.K, K = our pid mod $GMFUZZ_TARGET_HUBS
 *                           (harness/harness.h; the campaign sets both)
 *   GMFUZZ_REFERENCE        python:[MODULE][:FUNCTION]: also the legacy
 *                           sequence in real PyTorch (three-way);
 *                           GMFUZZ_REFERENCE_DEVICE cpu|cuda
 *   GMFUZZ_KEEP_GOING       1: fuzzing goes on after a failure instead of
 *                           aborting, and each signature is saved once
 *                           (smoke tests, benchmarks; the engine then
 *                           records no crash) (default 0)
 */
#ifndef FUZZ_HARNESS_H
#define FUZZ_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_check.h"
#include "harness.h"
#include "gm_error.h"

#define FUZZ_HARNESS_SEEN_MAX 4096

typedef struct {
    harness_backend *backend;
    harness_run_legacy *legacy;
    triage_baseline *baseline;
    fuzz_check_config check;
    unsigned case_mutation_percent;
    bool keep_going;
    uint64_t seen[FUZZ_HARNESS_SEEN_MAX]; /* keep-going: hashes of the signatures saved */
    size_t n_seen;
    harness_backend_restarts said; /* the target's restarts last printed for the driver */
} fuzz_harness;

/* Opens the backend and loads the baseline the environment names;
 * `engine` ("libfuzzer", "afl++") is recorded in saved failures. */
bool fuzz_harness_open(fuzz_harness *h, harness_backend_kind kind, const char *engine, gm_error *err);
void fuzz_harness_close(fuzz_harness *h);

/* Decodes and checks one input; `finding` (may be NULL) gets the
 * classification. A failure is saved before this returns. Decoding fails
 * only when memory runs out: FUZZ_CHECK_BROKEN. */
fuzz_check_result fuzz_harness_run(fuzz_harness *h, const uint8_t *data, size_t size,
                                   triage_finding *finding);

/* Runs n cases as one batch on the target (harness_backend_run_batch: one round
 * trip for external targets), then judges each as fuzz_harness_run does;
 * `failures` counts the failing ones. The most serious result is returned
 * (BROKEN when the batch itself failed). */
fuzz_check_result fuzz_harness_run_batch(fuzz_harness *h, const gm_case *const *cases, size_t n,
                                         size_t *failures);

/* One line on stderr for a failure or a broken run (the target aborts next). */
void fuzz_harness_report(const fuzz_harness *h, fuzz_check_result r, const triage_finding *f);

/* Whether the target must abort after result r: a broken run and an
 * unsaved failure always, a failure unless GMFUZZ_KEEP_GOING. */
bool fuzz_harness_must_abort(const fuzz_harness *h, fuzz_check_result r);

/* Ends the target after result r: abort() (the engine records a crash),
 * or for an unsaved failure _exit(FUZZ_CHECK_EXIT_UNSAVED), which the
 * campaign driver reads as "a finding could not be saved". */
_Noreturn void fuzz_harness_abort(fuzz_check_result r);

#endif

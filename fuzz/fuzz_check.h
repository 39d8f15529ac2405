/* fuzz_check: what every fuzzing harness (libFuzzer, AFL++) does with one
 * decoded case: run both sides, classify, and decide whether it is a
 * failure. A failure is written to disk (an unminimized gmfuzz-repro-v1 in
 * the failure folder) BEFORE this returns, so nothing found is lost when
 * the harness then aborts.
 *
 * A failure is a finding whose signature the baseline does not know
 * (triage/triage.h), or, with strict_baseline, any non-match.
 *
 * A failure that could not be written (disk full, I/O error), after
 * FUZZ_CHECK_SAVE_TRIES tries, is FUZZ_CHECK_UNSAVED: the harness then
 * exits with FUZZ_CHECK_EXIT_UNSAVED, and the campaign driver ends the
 * campaign with its own exit code for it (docs/FUZZING.md).
 */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "harness.h"
#include "triage.h"
#include "gm_case.h"
#include "gm_oracle.h"

#define FUZZ_CHECK_SAVE_TRIES 3
/* The exit code of a target whose failure could not be saved (_exit, so
 * that the engine does not take it for a crash of the target). */
#define FUZZ_CHECK_EXIT_UNSAVED 86

typedef struct {
    harness_backend *backend;
    harness_run_legacy *legacy;        /* three-way runs (harness_run_case3); NULL: none */
    gm_compare level;
    const triage_baseline *baseline;
    bool strict_baseline;
    const char *failure_dir;  /* where failing cases are saved; NULL: not saved */
    const char *engine;       /* "libfuzzer", "afl++": recorded in found.by */
    uint64_t execs;           /* caller's running count: recorded in found.execs */
} fuzz_check_config;

typedef enum {
    FUZZ_CHECK_MATCH,     /* the two sides agree */
    FUZZ_CHECK_KNOWN,     /* they differ in a known, accepted way */
    FUZZ_CHECK_FAILURE,   /* a new signature: saved, the harness aborts */
    FUZZ_CHECK_BROKEN,    /* the harness itself failed (device, memory) */
    FUZZ_CHECK_UNSAVED,   /* a failure that could not be saved: the harness exits
                           * (last: only a check that saves can give it) */
} fuzz_check_result;

fuzz_check_result fuzz_check_case(const fuzz_check_config *cfg, const gm_case *c,
                                  triage_finding *finding);

/* The same for a run already done (harness_run_finish): classify, decide, save. */
fuzz_check_result fuzz_check_judged(const fuzz_check_config *cfg, const gm_case *c,
                                    const harness_run_result *r, triage_finding *f);

#endif

/* coverage_run: a campaign folder's inputs through the coverage build's
 * runner (coverage/coverage_runner.c), merged into one profile.
 *
 * The inputs: DIR/corpus/ (the shared corpus), DIR/artifacts/ (libFuzzer's
 * crash files), DIR/failures/ and DIR/repros/ (JSON reproducers), and each
 * AFL++ instance's queue/, crashes/ and hangs/ under DIR/afl/. Each
 * process of the runner writes DIR/coverage/profiles/runner-%p-%m.profraw
 * (LLVM_PROFILE_FILE); llvm-profdata merges them into
 * DIR/coverage/coverage.profdata. The harness runs with the campaign's
 * baseline (DIR/known.json) and compare level (campaign.json). */
#ifndef COVERAGE_RUN_H
#define COVERAGE_RUN_H

#include <limits.h>
#include <stdbool.h>

#include "coverage_tools.h"
#include "gm_error.h"

typedef struct {
    const char *dir;        /* the campaign folder */
    const char *out;        /* DIR/coverage */
    const char *runner;     /* the coverage build's runner */
    const char *log;        /* the tools' output, appended */
    char profdata[PATH_MAX]; /* out: the merged profile */
    char counts[256];       /* out: the runner's line of counts */
    int folders;            /* out: input folders found */
} coverage_run;

/* Runs and merges. An error when DIR holds none of the input folders. */
bool coverage_run_profile(coverage_run *r, const coverage_tools *t, gm_error *err);

#endif

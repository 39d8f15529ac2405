/* coverage_summary: DIR/coverage/summary.json (gmfuzz-coverage-v1,
 * docs/FORMATS.md) and summary.txt: per file and per group (semantics,
 * reference, oracle) line and branch coverage, and what the corpus never
 * reached in the semantics and the reference, each branch with its line
 * of source. */
#ifndef COVERAGE_SUMMARY_H
#define COVERAGE_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

#include "coverage_export.h"
#include "gm_error.h"

typedef struct {
    const char *folder;  /* the campaign folder */
    const char *source;  /* the source folder (for the lines of code) */
    const char *inputs;  /* the runner's line of counts */
    const char *out;     /* DIR/coverage: both files go there */
} coverage_summary_info;

#define COVERAGE_SUMMARY_FORMAT "gmfuzz-coverage-v1"

bool coverage_summary_write(const coverage_summary_info *info, const coverage_export *x,
                            gm_error *err);

/* Prints the per-file table (what summary.txt opens with). */
void coverage_summary_table(FILE *out, const coverage_export *x);

#endif

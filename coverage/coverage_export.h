/* coverage_export: what llvm-cov export says about the files that matter.
 *
 *   semantics  kernel/fused_program.h (the fused kernel's semantics)
 *   reference  reference/ (the legacy ATen sequence)
 *   oracle     what judges a run: core/gm_oracle.c (the verdict),
 *              triage/triage_classify.c (the classes), triage/triage_predict.c
 *              (the predicted values a class must match)
 *
 * For each: llvm-cov's line, branch, function and region counts (the same
 * numbers its HTML shows). For the semantics and the reference also what
 * the corpus never reached: each branch with a side never taken (those of
 * the macros expanded in the file too, at their expansion), and the
 * lines that ran zero times (from the file's segments, as llvm-cov counts
 * lines), in ranges. */
#ifndef COVERAGE_EXPORT_H
#define COVERAGE_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_error.h"

typedef struct {
    uint64_t covered, count;
} coverage_count;

#define COVERAGE_EXPORT_VIA_MAX 160

typedef struct {
    int line, column, end_line, end_column;
    uint64_t taken, not_taken; /* times the condition was true, false */
    /* A branch of a macro expanded here (line, column: where): the
     * macro's own branch, "kernel/fused_cpu.c:73:6"; else "". */
    char via[COVERAGE_EXPORT_VIA_MAX];
} coverage_branch;

typedef struct {
    int first, last;
} coverage_lines;

typedef struct {
    char *file;        /* relative to the source folder */
    const char *group; /* "semantics", "reference", "oracle" */
    coverage_count lines, branches, functions, regions;
    coverage_branch *unreached; /* a side never taken (semantics, reference) */
    size_t n_unreached;
    coverage_lines *uncovered;  /* lines run zero times, in ranges */
    size_t n_uncovered;
} coverage_file;

typedef struct {
    coverage_file *files; /* in llvm-cov's order (by path) */
    size_t n_files;
    coverage_count lines, branches; /* every file of the build */
} coverage_export;

/* The group of a path relative to the source folder, or NULL. */
const char *coverage_export_group(const char *rel);

/* Reads `json` (llvm-cov export -format=text output); paths are made
 * relative to `source`. */
bool coverage_export_read(const char *json, const char *source, coverage_export *x,
                          gm_error *err);
void coverage_export_free(coverage_export *x);

#endif

/* coverage_tools: the compiler and the LLVM tools of source-based
 * coverage. They must be of one LLVM version (the raw profile's format
 * changes between versions), so a versioned set is looked for as a set:
 *
 *   llvm-profdata  $LLVM_PROFDATA, else llvm-profdata-N, else llvm-profdata
 *   llvm-cov       $LLVM_COV, else llvm-cov-N, else llvm-cov
 *   clang          $CC when it names a clang, else clang-N, else clang
 *
 * N: the newest version (20 down to 10) for which that tool is in PATH,
 * the version llvm-profdata was found at preferred for the other two. */
#ifndef COVERAGE_TOOLS_H
#define COVERAGE_TOOLS_H

#include <limits.h>
#include <stdbool.h>

#include "gm_error.h"

typedef struct {
    char clang[PATH_MAX];
    char profdata[PATH_MAX];
    char cov[PATH_MAX];
} coverage_tools;

/* Finds all three; else an error naming what is missing and where it was
 * looked for. */
bool coverage_tools_find(coverage_tools *t, gm_error *err);

#endif

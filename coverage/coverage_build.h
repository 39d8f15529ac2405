/* coverage_build: the tree gmfuzz coverage runs the corpus in, made by the
 * project's own CMake (the source of truth for how the binaries are
 * built) with -DGMFUZZ_COVERAGE=ON (clang's -fprofile-instr-generate
 * -fcoverage-mapping on all project C code), the CPU backend only, no
 * tests. A tree that is already configured for coverage from the same
 * source is reused: `cmake --build` then rebuilds only what changed (and
 * re-runs the configuration itself when a CMakeLists.txt did). */
#ifndef COVERAGE_BUILD_H
#define COVERAGE_BUILD_H

#include <limits.h>
#include <stdbool.h>

#include "coverage_tools.h"
#include "gm_error.h"

typedef struct {
    const char *source;  /* the project's source folder */
    const char *build;   /* the build tree (created when missing) */
    const char *log;     /* cmake's output, appended */
    const char *cmake;   /* the cmake program */
    int jobs;            /* parallel build jobs */
} coverage_build_config;

/* Configures (when needed) and builds the runner; `runner` gets its path
 * and `reused` whether the configuration was kept. */
bool coverage_build_runner(const coverage_build_config *c, const coverage_tools *t,
                           char runner[PATH_MAX], bool *reused, gm_error *err);

#endif

/* coverage: the coverage room's contract, what the other rooms (the
 * command line) may call: `gmfuzz coverage DIR`, source coverage of what
 * matters for a campaign folder. Its other headers (coverage_*.h) are its
 * own; tests reach them.
 *
 * It builds (or reuses) a tree of the project's CMake with
 * -DGMFUZZ_COVERAGE=ON (coverage_build.h), runs the campaign's inputs
 * through its runner (coverage_run.h, coverage_runner.c), merges the
 * profiles and writes, into DIR/coverage/: html/ (llvm-cov show),
 * summary.json and summary.txt (coverage_summary.h: the semantics, the
 * reference and the oracle, and what the semantics and the reference never
 * reached), export.json (llvm-cov export's own), the tools' output in
 * coverage.log. */
#ifndef COVERAGE_H
#define COVERAGE_H

#include <stdbool.h>

/* gmfuzz coverage's exit codes (2, usage, is the command line's). */
enum {
    COVERAGE_EXIT_OK = 0,     /* written */
    COVERAGE_EXIT_FOLDER = 3, /* DIR is not a folder or holds no inputs */
    COVERAGE_EXIT_TOOL = 4,   /* a tool is missing or failed (cmake, the build, the
                               * runner, llvm-profdata, llvm-cov), or a file could
                               * not be written */
};

typedef struct {
    const char *dir;    /* the campaign folder */
    const char *build;  /* the coverage build tree; NULL: DIR/coverage/build */
    const char *source; /* gmfuzz's source folder */
    int jobs;           /* parallel build jobs */
} coverage_options;

/* Writes DIR/coverage/ (says what it does on stderr, the summary table and
 * the files written on stdout); the exit code above. */
int coverage_main(const coverage_options *o);

#endif

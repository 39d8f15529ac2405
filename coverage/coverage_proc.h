/* coverage_proc: the tools gmfuzz coverage runs (cmake, the runner,
 * llvm-profdata, llvm-cov), each to its end: stdout to a file of its own
 * (llvm-cov export's JSON) or to the log, stderr to the log, extra
 * environment variables on top of ours. */
#ifndef COVERAGE_PROC_H
#define COVERAGE_PROC_H

#include <stdbool.h>

#include "gm_error.h"

/* Runs argv[0] (searched in PATH when it has no '/') and waits for it.
 * `env_extra`: "NAME=value" strings, NULL-terminated (may be NULL).
 * `stdout_path`: where its stdout goes (truncated; NULL: the log).
 * `log_path`: its stderr, appended. True only when it exited 0; else the
 * error names the program, how it ended and the log. */
bool coverage_proc_run(char *const argv[], char *const env_extra[], const char *stdout_path,
                       const char *log_path, gm_error *err);

#endif

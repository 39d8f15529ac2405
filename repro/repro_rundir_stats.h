/* repro_rundir_stats: reads a run folder's stats.jsonl, one repro_rundir_sample
 * per line ({"t", "execs", "exec_per_sec", "coverage", "corpus",
 * "signatures", "failures"}, every key required, other keys ignored).
 *
 * Blank lines are skipped. A last line with no newline that does not
 * parse is a sample cut off by a crash or read while being written: it is
 * left out, not an error. Any other bad line is, naming the file, the line
 * and the key. */
#ifndef REPRO_RUNDIR_STATS_H
#define REPRO_RUNDIR_STATS_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_error.h"
#include "repro_rundir.h"

/* *out (the caller frees it) holds *n samples, in file order. */
bool repro_rundir_stats_read(const char *path, repro_rundir_sample **out, size_t *n, gm_error *err);

#endif

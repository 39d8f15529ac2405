/* coverage_sweep: what a sweep ran, for its coverage profile.
 *
 * A sweep saves no inputs (its corpus/ holds the seeds copied in, which
 * it never runs): its cases are harness_gen's, seeded. So the profile
 * draws them again. Each job's log (DIR/logs/job-*.log) names each run's
 * command line (`sweep-job ... -shape_run=R -seed=S`) and ends it with
 * the count of cases it checked; a run of shape_run 1 (the default) is
 * replayed by the runner as `--sweep=S:N` (coverage_runner.c: the first N
 * cases of harness_gen_case from the job's seed, as cmd_sweep.c draws
 * them). A sweep by specialization class (a target that reports its
 * compiles) or of longer shape runs is not replayed: its failures and
 * reproducers are all the profile has of it, and the counts say so.
 */
#ifndef COVERAGE_SWEEP_H
#define COVERAGE_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_error.h"

/* Whether DIR is a sweep's folder (its campaign.json says so). */
bool coverage_sweep_is(const char *dir);

/* Appends one "--sweep=S:N" argument (malloc'd) per replayable run of the
 * folder's job logs at args[*n], args[*n + 1], ... (below args[max]; *n
 * counts every argument there); *skipped counts the runs that cannot be
 * replayed. False only when memory runs out. */
bool coverage_sweep_args(const char *dir, char **args, int max, int *n, size_t *skipped,
                         gm_error *err);

#endif
